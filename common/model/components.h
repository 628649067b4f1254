/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Connected components of the switch graph (switch-to-switch links only):
 * planes of a multi-plane fabric are separate components.
 */
#ifndef OSMRE_COMPONENTS_H
#define OSMRE_COMPONENTS_H

#include "fabric.h"

/* comp[] (f->nnodes entries): the lowest node index of each switch's
 * component; -1 for CAs, routers and removed switches.  0 or -1 (OOM). */
int switch_components(const struct fabric *f, int *comp);

/*
 * A piece of a plane is not a plane.  Two CAs can talk when some
 * component holds a port of each: planes of a multi-plane fabric are
 * recognised only because every host has a port in each.  Returns 1 with
 * *a < *b (node indices) for a pair of CAs with linked ports that share
 * no component (a split fabric), 0 when every two share one, -1 when out
 * of memory.  comp: from switch_components.
 */
int components_split_pair(const struct fabric *f, const int *comp, int *a,
			  int *b);
/* components_split_pair as a refusal: -1 with a message naming the two
 * hosts (or out of memory), 0 when no pair is split. */
int components_refuse_split(const struct fabric *f, const int *comp,
			    struct osmre_err *err);
/* 1 when CA node ca has a port linked into component c. */
int components_meet(const struct fabric *f, const int *comp, int ca, int c);

/*
 * Groups of a dragonfly-class fabric: the switches joined by local
 * links, a link being local when its two ends share at least one
 * neighbour switch and at least 2/3 as many as the link with the most
 * shared neighbours at either end.  In a 1D dragonfly the routers of a
 * group are a clique (A - 2 shared neighbours on a local link), while a
 * global link shares none, or fewer through triangles across groups;
 * a fat tree has no triangle, so every switch is a group of its own.  A
 * megafly has none inside its groups, but its global links may form
 * triangles among spines of different groups (the consecutive
 * arrangement of 17 groups of 6 spines does), and any wiring may among
 * leaves: those are groups here too, not a megafly's.  The engines only
 * break ties between shortest paths with them (lexdist.h).  group[]
 * (f->nnodes entries): 0..n-1 for switches, -1 for the others.  Returns
 * n, or -1 when out of memory.
 */
int switch_groups(const struct fabric *f, int *group);

#endif
