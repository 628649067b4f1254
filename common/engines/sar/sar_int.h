/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sar's internals, shared by its routing (sar.c), its stable re-route
 * (sar_stable.c) and its layers (sar_layers.c): the switch graph, a
 * destination's buffers, a pass's work.  Not an interface: sar.h is.
 */
#ifndef OSMRE_SAR_INT_H
#define OSMRE_SAR_INT_H

#include <stdint.h>

#include "dmodc.h"
#include "fabric.h"
#include "lexdist.h"
#include "lft.h"
#include "lids.h"
#include "risk.h"
#include "parallel.h"
#include "sar.h"
#include "sar_memo.h"

#define INF   UINT64_MAX
#define NCOLS 64 /* LIDs routed before their entries go to the tables */

struct sar_graph {
	const struct fabric *f;
	/* the switches, their channels and links (swgraph.h) */
	struct swgraph sg;
	/* per link: the sources of the routes through it, so far (apart
	 * from sg.l[]: the searches read it for every link they consider) */
	uint64_t *load;
	int base_only; /* route base LIDs only (sar_opts) */
	int rip;       /* route_all takes each destination's routes off
				 * the loads first (a refinement pass) */
	int convex;    /* a link costs its load squared (else its load) */
	const struct lft_set *prev; /* a stable re-route keeps these */
	/* per switch: its table in prev (sar_keep_trees) */
	const struct lft **ptab;
	/* a stable re-route, per switch t: the distances to t learnt from a
	 * tree kept (sar_keep_trees; hops only), for its LIDs routed again
	 * without a search; NULL where none */
	int **known_dist;
	/* per link: it climbs in the order (fat-tree rank, node index) of
	 * the up-down tests (links_up); NULL: no ranks */
	uint8_t *up;
	uint64_t cap; /* of a link's cost: no path's sum overflows */
	/* distances (lexdist.h): per link its weight (NULL: hops), on the
	 * ends and groups of sg (swgraph_groups) */
	int *lw;
	struct lexgraph lg;
	struct lexheap heap;
};

struct dest {
	int node, port; /* CA port, or switch with port 0 */
	int job;	/* -1: none */
};

/* Per-switch buffers of one destination's routing (route_dest). */
struct scratch {
	uint64_t *add; /* the sources each switch adds */
	uint64_t *dist, *flow;
	int *next, *order, *hop;
	int *stack; /* keep_tree: a walk's switches */
	/* route_dest: the previous port of every switch for its LID, when
	 * a stable re-route has them in a row (prev_port); NULL: read the
	 * tables in force */
	const uint8_t *prow;
	int *dist_to; /* keep_switch: the distances to its switch */
	/* keep_tree: mark[u] == stamp when u is entered by a link down */
	int *mark, stamp;
	/* route_dest: hop[] and order[] hold the search towards bfs_t
	 * (bfs_n switches reached); -1: none */
	int bfs_t, bfs_n;
	/* and the links one hop closer to bfs_t: those of the switch at
	 * order[i] are clink[cfirst[i] .. cfirst[i + 1]), to switch cto[],
	 * in the order of a visit of order[] and each switch's links in */
	int *cfirst, *clink, *cto;
	int dag_t; /* the switch cfirst[] etc. lead to; -1: none */
	/* route_dest's entries not yet in the tables (flush_cols) */
	uint8_t *col;
	unsigned clid[NCOLS];
	int ncol;
};

/* One sar_route: the graph, the destinations, what is counted per switch. */
struct sar_work {
	const struct fabric *f;
	const struct sar_opts *o;
	struct sar_graph g;
	struct scratch w;
	struct dest *d; /* in routing order */
	int nd;
	struct lid_owner *own; /* LID -> port */
	int *ncas_on;	       /* per switch: its CA ports (DFSSSP's weights) */
	int **job_on;	       /* per job, per switch: the job's CA ports */
	int njobs;
	unsigned maxlid;
	/* a stable re-route: per LID, 2 when its tree was kept and its paths
	 * go up, then down (sar_keep_trees); NULL otherwise */
	uint8_t *updown;
	/* what the loads' weights depend on (sar_memo.h) */
	uint64_t weights;
	/* every path went up, then down (all_updown): one layer */
	int all_ud;
	/* layering a candidate (dfsssp_variants): over the budget, stop
	 * there (r->updn_lids 1) instead of routing the overflow */
	int fit_only;
	/* the kept trees came from the memo (sar_keep_memo), which lost
	 * memo_lost links; the rows of the previous tables of the trees
	 * that crossed one: LID lid's at brow + brow_of[lid] * nsw (-1:
	 * none) */
	int from_memo, memo_lost;
	uint8_t *brow;
	int *brow_of;
	/* the CA ports in dmodc's NID order for the risk measures, once
	 * sar_order built it (have_order) */
	struct risk_order order;
	int have_order;
};

/* The permutations of the RP risk that picks among sar's tables
 * (osmre analyze's default count and seed). */
#define WAY_RP_PERMS 100
#define WAY_RP_SEED  1

/* sw->order, built at the first call (from serial code only: a parallel
 * part reads it after a serial part built it); NULL with err when out of
 * memory. */
static inline const struct risk_order *sar_order(struct sar_work *sw,
						 struct osmre_err *err)
{
	if (!sw->have_order) {
		if (dmodc_host_order(sw->f, &sw->order, err))
			return NULL;
		/* the RP risks' permutations, drawn once for them all */
		if (risk_order_perms(&sw->order, WAY_RP_PERMS, WAY_RP_SEED,
				     err)) {
			risk_order_free(&sw->order);
			return NULL;
		}
		sw->order.sg = &sw->g.sg; /* the pass's graph, walked */
		sw->have_order = 1;
	}
	return &sw->order;
}

/* Destination k's switch t and the port of its last hop (0 on a switch). */
static inline void dest_target(const struct sar_work *sw, int k, int *t,
			       int *last)
{
	const struct dest *d = &sw->d[k];
	const struct fab_port *pt = &sw->f->nodes[d->node].ports[d->port];

	if (d->port == 0) { /* a switch LID */
		*t = sw->g.sg.idx[d->node];
		*last = 0;
	} else {
		*t = sw->g.sg.idx[pt->rnode];
		*last = pt->rport;
	}
}

/* The LIDs of destination k routed (1 << LMC, or the base alone). */
static inline unsigned dest_nlids(const struct sar_work *sw, int k)
{
	const struct dest *d = &sw->d[k];

	return 1u << (sw->g.base_only ?
			      0 :
			      sw->f->nodes[d->node].ports[d->port].lmc);
}

/* The sources that weigh with destination k, per switch, into add[]. */
static inline void dest_weights(const struct sar_work *sw, int k, int **job_on,
				uint64_t *add)
{
	const struct dest *d = &sw->d[k];
	int i;

	for (i = 0; i < sw->g.sg.nsw; i++)
		add[i] = (uint64_t)(d->job >= 0 && job_on ? job_on[d->job][i] :
							    sw->ncas_on[i]);
}

/* Threads for sar's parallel parts (sar_opts.threads), at most n, and at
 * most SAR_THREADS_PER_CPU per online CPU: each thread of a stable
 * re-route holds its own copy of the links' loads (about 1.8 MB per
 * thread at 34,992 hosts), which more threads than CPUs do not speed up. */
#define SAR_THREADS_PER_CPU 4
static inline int sar_threads(const struct sar_work *sw, long n)
{
	int cpus = parallel_default_threads();
	int th = sw->o->threads > 0 ? sw->o->threads : cpus;

	if (th > SAR_THREADS_PER_CPU * cpus)
		th = SAR_THREADS_PER_CPU * cpus;
	if (th > n)
		th = (int)n;
	return th > 0 ? th : 1;
}

/*
 * A stable re-route's first phase (sar_stable.c): every destination LID
 * whose previous tree is kept gets kept[lid] (1, or 2 when its paths go
 * up, then down), its loads on the links and its entries in s.
 * sar_keep_trees checks every tree: 0, or -1 when out of memory.
 * sar_keep_memo does without the check from the memo (sar_opts.memo)
 * when only links went away since its pass: 1 when it did (then also
 * sw->brow, sw->brow_of and g.known_dist), 0 when it cannot serve
 * (nothing changed), -1 when out of memory.
 */
int sar_keep_trees(struct sar_work *sw, struct lft_set *s, int **job_on,
		   uint8_t *kept);
int sar_keep_memo(struct sar_work *sw, struct lft_set *s, int **job_on,
		  uint8_t *kept);
/* The layers of the CA-to-CA paths of s into r (sar_layers.c): within
 * sw->o->max_vls, the fallback layer taking what does not fit.  0, or -1
 * with err (out of memory). */
int sar_layer_paths(struct sar_work *sw, struct lft_set *s,
		    struct sar_result *r, struct osmre_err *err);
/* Of n tables with these A2A and RP risks (-1: not tried), the one of
 * the lowest RP, then the lowest A2A, then the first (sar_layers.c). */
int sar_way_pick(const long *a2a, const long *rp, int n);
/* What the loads' weights depend on, for the memo (sar_memo.h). */
uint64_t sar_weights_digest(const struct sar_work *sw);
/* The pass into o->memo when ok and it can serve a later pass; else the
 * memo forgets. */
void sar_remember(const struct sar_work *sw, const struct lft_set *s, int ok);

#endif
