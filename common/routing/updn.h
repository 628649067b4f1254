/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The escape routing of the update protocol: deterministic up*-down* for
 * the high LIDs of every CA port (LIDs base + 1 .. base + 2^lmc - 1; the
 * base LID stays with the selected engine).
 *
 * Order of the switches: BFS distance from a set of roots, then GUID.  A
 * link leads "up" towards the smaller (distance, GUID).  A legal path goes
 * up zero or more times, then down zero or more times, so the channel
 * dependency graph of all escape paths is acyclic on one VL.
 *
 * Roots (the choice the paper leaves open):
 *  1. the switches of the highest fat-tree rank (ranks.h), the top of a fat
 *     tree;
 *  2. when, with them, some pair of leaf switches of one connected part has
 *     no up*-down* path (a degraded tree that lost a top switch's only link
 *     to a pod, a torus, a ring), one root per connected part: the switch
 *     with the lowest GUID among that part's highest-rank switches.  A
 *     single root always gives every pair a path (the BFS tree's).
 *
 * Routes: a switch with a down-only path to the destination's leaf takes
 * it (shortest, so every switch below keeps going down); any other switch
 * goes up to the up-neighbour whose route is shortest.  Among equal
 * choices, the destination LID's place in (port GUID, LID) order picks
 * (modulo the number of choices), which spreads the destinations over
 * parallel ports.
 *
 * The tables depend only on the topology and the GUIDs, not on how the
 * LIDs were numbered: a job-driven re-route leaves them as they are.
 */
#ifndef OSMRE_UPDN_H
#define OSMRE_UPDN_H

#include <stdio.h>

#include "fabric.h"
#include "lft.h"
#include "swgraph.h"

struct updn_info {
	int roots;    /* switches used as roots */
	int fallback; /* 1: one root per connected part */
	long lids;    /* high LIDs routed */
};

/* Overwrites the entries of every high LID in s (tables for every switch,
 * as lft_set_for_fabric makes them).  info may be NULL. */
int updn_route_high(const struct fabric *f, struct lft_set *s,
		    struct updn_info *info, struct osmre_err *err);

/* The same routing for the CA-port LIDs marked in want[0..top] (base
 * LIDs too): sar's fallback layer when its layers would exceed the VL
 * budget.  Balanced: among a switch's legal next hops of equal length it
 * takes the link that carries the fewest routes so far (the routes in s
 * to the LIDs not wanted, then the fallback's own, filled destination by
 * destination; each switch's CA ports are its sources), ties as above
 * (the LID's place in port GUID order, modulo).  The choice stays within
 * up*-down*: acyclic on one VL.  sg: the caller's switch graph of f
 * (swgraph.h), or NULL to build one. */
int updn_route_lids(const struct fabric *f, const struct swgraph *sg,
		    struct lft_set *s, const uint8_t *want, unsigned top,
		    struct updn_info *info, struct osmre_err *err);

/* The same, the order given by the caller: rank[] by fabric node
 * (higher is up; INT_MIN: none), then GUID, as a fat-tree engine's up
 * and down, so that its routes and these share one up*-down* order
 * (acyclic together on one VL).  A switch that has no path under that
 * order to a wanted LID keeps LFT_NONE there (tree_core.h turns it). */
int updn_route_lids_ranked(const struct fabric *f, struct lft_set *s,
			   const uint8_t *want, unsigned top, const int *rank,
			   struct updn_info *info, struct osmre_err *err);

/*
 * SL-to-VL with the escape on VL (and SL) escape_vl alone: SL < escape_vl
 * -> VL = SL (sar's layers, the engines' SL 0); escape_vl -> escape_vl;
 * any other SL -> VL 0.
 */
int updn_sl2vl(int escape_vl, int sl);

/* An SL file (slmap.h) for the escape: "dest LID escape_vl" for every
 * high LID and the "sl2vl" line of updn_sl2vl(). */
int updn_write_sls(FILE *fp, const struct fabric *f, int escape_vl);

/* 1 when lid is a high LID (not the base) of a CA or router port. */
int updn_is_high(const struct fab_port *pt, unsigned lid);

#endif
