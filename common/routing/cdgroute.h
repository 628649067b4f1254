/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Destination-based routes on one virtual lane whose channel dependency
 * graph stays acyclic, chosen by load (in the spirit of Nue, Domke et
 * al., HPDC 2016, without its escape paths: the routes already in the
 * tables are the escape).  sar's fallback layer: the destinations that do
 * not fit the VL budget start on up*-down* routes (updn_route_lids); each
 * is then routed again, alone, over any links:
 *
 *  - the dependencies of its current routes leave the layer's graph (one
 *    count per dependency and destination), then its new routing tree
 *    grows from its switch outwards, shortest first: a switch joins
 *    through the link to a switch already in the tree whose path costs
 *    least (the squares of its links' loads, summed: the most loaded
 *    links avoided harder) and whose dependency (that link, then the
 *    next switch's link) keeps the graph acyclic (an incremental
 *    topological order, Pearce & Kelly 2006); a switch that no shortest
 *    link admits tries the longer ones once the rest of the tree is
 *    there;
 *  - when some switches cannot join, they keep their previous routes,
 *    with every switch on their previous paths (the escape, as Nue falls
 *    back on its escape paths: those dependencies were acyclic with all
 *    the others'), and the tree grows again around them, until every
 *    switch is in it; at worst the destination keeps its routes whole
 *    (their dependencies go back: the graph was acyclic with them);
 *  - the destinations in port GUID order (not LID order: the same tables
 *    however OpenSM numbered the LIDs);
 *  - twice over the destinations (the first ones routed before the
 *    others' loads were known), the second pass kept when it lowers the
 *    A2A risk on the switch links (risk_a2a, risk.h: as osmre analyze
 *    counts it, the lesser of distinct sources and destinations over a
 *    link).  Up to four passes gave the same rates against nue on
 *    bench/heldout's draws of seed 487309936 and one point less on A2A
 *    of seed 1675891123, for about a third more time.
 *
 * A link refused because its dependency would close a cycle keeps the
 * cycle's path; when the same dependency comes up for a later
 * destination, the path is checked first, and if all its dependencies
 * remain the link is refused without a search (the same answer).
 *
 * So the layer is acyclic after every destination, and no destination is
 * worse off than up*-down* would leave it unless its new tree is longer
 * (a switch on a longer path only where no shorter one was admitted).
 * Link loads count the CA ports behind each route (all destinations of
 * s, the other layers' too).
 */
#ifndef OSMRE_CDGROUTE_H
#define OSMRE_CDGROUTE_H

#include "fabric.h"
#include "lft.h"
#include "risk.h"

/*
 * How the trees grow (flags; 0: as above):
 *  - CDG_WEIGHTED: Nue's order instead of shortest first: a switch joins
 *    by the path of the least weight, each link weighing w0 plus its load
 *    (w0: the destinations plus the switches, squared, Nue's initial
 *    weight), Dijkstra's order from the destination's switch; paths of
 *    any length, a detour taken where the loads outweigh a hop;
 *  - CDG_TREE_START: before the first pass, the wanted destinations'
 *    routes are replaced by the paths of one spanning tree (BFS from the
 *    switch of least eccentricity; up to the common ancestor, then
 *    down): Nue's escape paths, whose few dependencies leave the first
 *    trees more links than up*-down* routes over every link would.
 *    Ignored by cdg_refine_lids, and when no tree spans the switches.
 */
enum { CDG_WEIGHTED = 1, CDG_TREE_START = 2 };

struct cdgroute_info {
	long lids;     /* destinations given */
	long rerouted; /* of those, with a new tree */
	long longer;   /* switches whose route got longer than shortest */
	long a2a;      /* the A2A risk of s as left; -1: not measured */
};

/*
 * Routes again the CA-port LIDs marked in want[0..top] of s, which share
 * one VL (their routes in s acyclic on it), as above (flags: CDG_*), each pass judged
 * by its A2A risk over ord (risk.h; NULL: err already says why, -1).
 * info may be NULL.
 * 0, or -1 with err (out of memory); s is then as it was given.
 */
int cdg_route_lids(const struct fabric *f, struct lft_set *s,
		   const uint8_t *want, unsigned top,
		   const struct risk_order *ord, int flags,
		   struct cdgroute_info *info, struct osmre_err *err);

/*
 * As cdg_route_lids, but the routes as given are the first pass: a pass
 * is kept only when it lowers their A2A risk (s unchanged otherwise).
 * Routes again destinations already routed by load once the others'
 * routes have changed.  *a2a: in, the A2A risk of s as given over ord
 * when the caller knows it (-1: measured here); out, that of s as left
 * (-1: not measured, s left as given).
 */
int cdg_refine_lids(const struct fabric *f, struct lft_set *s,
		    const uint8_t *want, unsigned top,
		    const struct risk_order *ord, int flags, long *a2a,
		    struct osmre_err *err);

#endif
