/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sar: scheduling-aware routing (Domke & Hoefler, SAR slides, Algorithm 1)
 * on a DFSSSP base (Domke, Hoefler, Nagel, IPDPS 2011).  Topology-agnostic:
 *
 * - every destination LID gets a tree of shortest paths from all switches:
 *   hops first (a breadth-first search over the directed switch links),
 *   then, among the shortest, the least loaded; after each destination
 *   the links on its paths carry more load, by the number of CA sources
 *   behind each switch (DFSSSP) or, with jobs, by the number of sources
 *   sharing a job with the destination (SAR: only intra-job routes
 *   count).  Every route is a shortest path of the topology;
 * - destinations in order: with jobs, the CA ports of the largest jobs
 *   first, then the others; without, the CA ports of the switches with
 *   the most CAs first (as OpenSM's dfsssp); I/O nodes after the compute
 *   nodes, in the same order; the switch LIDs last;
 * - with jobs, sar also routes as DFSSSP, with each half of SAR alone
 *   (job order with DFSSSP's weights, DFSSSP's order with intra-job
 *   weights), and as SAR followed by one refinement pass (each destination
 *   in turn: its routes taken off the weights, routed again against all
 *   the others; one pass, since a second changes little), each of the
 *   four with a link costing its load and with its load squared, and keeps
 *   the tables whose maximum effective edge forwarding index for those
 *   jobs is lowest (SAR's on ties): on a fabric with no room to spare (the SAR
 *   slides' 180-host example) job-aware weights cannot beat DFSSSP, and
 *   sar must not be worse; then a local search on that index over the
 *   jobs' destinations, shortest paths only (efipolish.h);
 * - without jobs, when DFSSSP's paths fit max_vls: DFSSSP refined by one
 *   pass, with its load squared, and both, ranked by the worst ratio of
 *   their A2A and RP risks to the lowest of the four, the first whose
 *   layers fit max_vls kept;
 * - deadlock freedom: every (source CA port, destination LID) path gets a
 *   layer (SL, VL = SL) so that each layer's channel dependency graph is
 *   acyclic: all paths start in layer 0; while a layer's graph has a cycle,
 *   the paths of the cycle's dependency with the fewest paths move to the
 *   next layer (DFSSSP's weakest link).  When that takes more than 2
 *   layers on a fabric with groups (components.h: switch_groups, a
 *   dragonfly's groups), the layering also starts from the direction
 *   between groups (paths towards a higher group in layer 0, towards a
 *   lower one in layer 1: dragonfly-minimal paths, one global link, are
 *   then acyclic on 2 layers, since a chain of dependencies only climbs
 *   groups; the paths through a third group, taken only where shorter,
 *   may need more), and the fewer layers are kept.
 * - more layers than max_vls is never a refusal.  With 2 layers or
 *   more, every destination LID is routed up*-down* (updn.h), then
 *   again by load (cdgroute.h), spread over all the layers by groups of
 *   neighbouring switches (whole groups on a fabric with groups), each
 *   layer acyclic on its own as Nue spreads its destinations over its
 *   VLs, the layers below the last once more by load against the final
 *   routes above them (cdg_refine_lids); and the same spread in Nue's
 *   manner (from one spanning tree's routes, trees by path weight:
 *   cdgroute.h, CDG_WEIGHTED and CDG_TREE_START).  Of these two ways
 *   (SAR_WAY_*) the tables of the lowest RP risk are kept, then of the
 *   lowest A2A risk (risk.h, sar_way_pick).  With
 *   one layer, or tables too large to copy, every destination LID with
 *   a path in layer max_vls - 1 or above is routed up*-down* from every
 *   source, in that last layer alone (paths longer, never deadlock),
 *   then again by load where that layer stays acyclic.
 */
#ifndef OSMRE_SAR_H
#define OSMRE_SAR_H

#include <stdio.h>

#include "fabric.h"
#include "guidlist.h"
#include "jobs.h"
#include "lft.h"
#include "sar_memo.h"

struct sar_opts {
	int max_vls; /* layers allowed, 1..15 */
	/* threads of the parts that do not depend on the order of the
	 * destinations (a stable re-route's kept trees, the up-down check of
	 * the layering); <= 0: one per online CPU.  The tables and layers do
	 * not depend on it. */
	int threads;
	const struct jobs *jobs; /* NULL or empty: DFSSSP */
	/*
	 * With jobs: keep only tables whose all-to-all and shift risks
	 * (risk.h) are at most those of the tables without the jobs
	 * (DFSSSP's), in the choice among the ways sar routes and in every
	 * change of the local search, and, once layered, at most those of
	 * sar's tables without the jobs (sar.c jobs_or_not); the jobs then
	 * gain only what the all-pairs patterns do not lose.  0: the jobs
	 * first, their EFI at most the tables' without them (the local
	 * search only keeps each link's destinations under its switch's
	 * busiest link's, efipolish.h).
	 */
	int all_pairs;
	/* I/O nodes (port or node GUIDs): routed after the compute nodes,
	 * so that the compute nodes' balance comes first (dfsssp's
	 * io_guid_file) */
	const struct guidlist *io;
	/* the update protocol's escape routes the high LIDs (updn.h): route
	 * and layer only the base LIDs */
	int base_only;
	/*
	 * A stable re-route after a topology change (the jobs unchanged):
	 * the tables in force, bound to the fabric (lft_set_bind).  First,
	 * every destination LID whose previous ports still form a tree of
	 * shortest paths of the current topology keeps it whole, without a
	 * search (checked exactly: a tree whose depths no link shortens);
	 * then the others, in sar's order: a switch keeps its previous port
	 * whenever it still leads one hop closer to the destination, the
	 * others choose again against the loads of all the routes kept; one
	 * pass, no variants; the layers are computed anew.  NULL: a full
	 * routing.
	 */
	const struct lft_set *prev;
	/*
	 * What the last pass left (sar_memo.h), read by a stable re-route
	 * and rewritten by every pass (emptied where it cannot serve): when
	 * only switch links went away since, the trees are kept unless they
	 * crossed one, and the loads come from the memo, without checking
	 * every tree; the same tables as without it.  NULL: none.
	 */
	struct sar_memo *memo;
};

/*
 * The ways over the budget (sar_layers.c): every destination spread over
 * the layers by groups of neighbouring switches, routed by load with
 * shortest-first trees from up*-down* routes; and the same spread,
 * routed by Nue's path weights from one spanning tree's routes
 * (cdgroute.h: CDG_WEIGHTED, CDG_TREE_START).  SAR_WAY_LAST is no way
 * tried: the last layer taking what does not fit, on one layer or
 * tables too large to copy.
 */
enum { SAR_WAY_LAST, SAR_WAY_GROUPS, SAR_WAY_NUE_GROUPS, SAR_WAYS };

/* 1 when way routes by Nue's path weights (else by load). */
static inline int sar_way_weighted(int way)
{
	return way == SAR_WAY_NUE_GROUPS;
}

/* The shortest-path candidates without jobs (sar_result.sp). */
enum {
	SAR_SP_DFSSSP,
	SAR_SP_REFINED,
	SAR_SP_CONVEX,
	SAR_SP_CONVEX_REFINED,
	SAR_SP_HOPS,
	SAR_SPS = 2 * SAR_SP_HOPS
};

struct sar_result {
	int layers;    /* used */
	int job_aware; /* tables from job-aware routing were kept */
	/* max effective EFI for the jobs: SAR, DFSSSP (before the layers),
	 * the tables kept (once layered); 0 on a stable re-route (prev) */
	long efi_sar, efi_dfsssp, efi_kept;
	/* with jobs, once layered: the job-aware tables' and those sar keeps
	 * without the jobs (sar.c jobs_or_not); -1: not measured (no jobs,
	 * or a stable re-route, which keeps the choice of the tables in
	 * force) */
	long efi_layered, efi_nojobs;
	/* with jobs: the tables without them were kept (they served the
	 * jobs as well once layered, or all_pairs held the job-aware back) */
	int jobs_lost;
	/* with jobs and all_pairs: the A2A and SP risks (risk.h) of
	 * DFSSSP's tables, which the job-aware tables do not exceed before
	 * the layers (0: not used); with jobs_lost, of tables not kept */
	long risk_a2a, risk_sp;
	/* trees taken from DFSSSP's to get within them (-1: DFSSSP's
	 * tables whole) */
	long risk_trees;
	/* destination LIDs routed up*-down* in the last layer, because the
	 * layering would have needed more than max_vls (0: none) */
	long updn_lids;
	/* of those, routed again over any links, the last layer acyclic
	 * (cdgroute.h); the others kept their up*-down* routes */
	long cdg_lids;
	/* over the budget (updn_lids > 0) with 2 layers or more: the A2A
	 * and RP risks (risk.h) of each way (SAR_WAY_*, sar_layers.c; -1:
	 * not tried): every destination spread over all the layers (Nue's
	 * way) by groups, routed by load and by Nue's weights.  way: the
	 * one kept, SAR_WAY_LAST when none was tried (updn_lids is every
	 * destination unless way is SAR_WAY_LAST) */
	long way_a2a[SAR_WAYS], way_rp[SAR_WAYS];
	int way;
	/* without jobs within the budget (sar.c dfsssp_variants): the A2A
	 * and RP risks of each shortest-path candidate (SAR_SP_*: DFSSSP's
	 * tables, refined, links by load squared, both; on a fabric with
	 * groups on the fewest global links among the shortest paths, then
	 * each again on any shortest path, SAR_SP_HOPS + each, tried where
	 * the failures took some minimal route; -1: not tried), and the
	 * one kept (with sp_fit >= 0, the best, laid out over the budget) */
	long sp_a2a[SAR_SPS], sp_rp[SAR_SPS];
	int sp;
	/* the shortest-path candidate that fitted the budget but trailed
	 * candidate sp, which did not, by more than 10 % (worst ratio to
	 * the least A2A and RP), when sp laid out over the budget beat it
	 * by as much and was kept instead (sar.c over_instead; updn_lids >
	 * 0); -1: not so */
	int sp_fit;
	/* a stable re-route from the memo (sar_opts.memo): the directed
	 * switch links lost since its pass; -1: every tree checked */
	long memo_lost;
	/* layer of the path from CA port src (index into cas) to LID dlid:
	 * layer[src * (maxlid + 1) + dlid]; NULL when every path is in
	 * layer 0 (one layer: the array would be ncas * maxlid bytes of
	 * zeros, 1.4 GB at 35k hosts) */
	int ncas;
	int *ca_node, *ca_port;
	unsigned maxlid;
	uint8_t *layer;
};

/* Routes f with its nodes in GUID order (its tables and layers mapped back
 * by node; the layers' sources in GUID order): the tables and layers do
 * not depend on the order of f's nodes. */
int sar_route(const struct fabric *f, const struct sar_opts *o,
	      struct lft_set *s, struct sar_result *r, struct osmre_err *err);
/* The layers as an SL file (slmap.h): "default 0", a "path" line per path
 * on another layer. */
int sar_write_sls(FILE *fp, const struct fabric *f, const struct sar_result *r);
void sar_result_free(struct sar_result *r);

/*
 * The state dump (sar_state.c): a line "layers N pass full|stable job-aware 0|1 efi-sar E
 * efi-dfsssp E efi-kept E updn-lids N", then the paths' layers as an SL
 * file (sar_write_sls).  0 or -1.
 */
int sar_state_write(FILE *fp, const struct fabric *f,
		    const struct sar_result *r, int stable);

#endif
