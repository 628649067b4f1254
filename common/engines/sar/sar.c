/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sar's routing (sar.h): the switch graph, each destination's tree of
 * shortest paths by load (route_dest), the order of the destinations,
 * the variants and the local search with jobs, and sar_route itself.
 * The stable re-route's kept trees and the memo are in sar_stable.c, the
 * layers in sar_layers.c; sar_int.h holds what the three share.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "components.h"
#include "efipolish.h"
#include "risk.h"
#include "sar_int.h"
#include "lexdist.h"
#include "lids.h"
#include "parallel.h"
#include "ranks.h"
#include "sar.h"
#include "slmap.h"
#include "swgraph.h"

static int graph_build(struct sar_graph *g, const struct fabric *f)
{
	g->f = f;
	if (swgraph_build(f, &g->sg))
		return -1;
	g->load = calloc((size_t)g->sg.nlink + 1, sizeof(*g->load));
	return g->load ? 0 : -1;
}

/* The distances' view of the graph, weighted on a fabric with groups. */
static int graph_dist(struct sar_graph *g)
{
	return swgraph_groups(&g->sg) ||
	       lexdist_swgraph(&g->sg, &g->lw, &g->lg, &g->heap);
}

/*
 * g->up: per link, whether it climbs in the total order (fat-tree rank,
 * node index) that the up-down tests use (keep_tree, all_updown); NULL
 * when the fabric has no ranks or memory ran out (then no path is known
 * to go up, then down).
 */
static void links_up(struct sar_graph *g)
{
	int *rank = malloc(((size_t)g->f->nnodes + 1) * sizeof(int)), i;

	g->up = malloc((size_t)g->sg.nlink + 1);
	if (!rank || !g->up || ranks_compute(g->f, rank) < 0) {
		free(g->up);
		g->up = NULL;
	} else {
		for (i = 0; i < g->sg.nlink; i++) {
			int u = g->sg.node[g->sg.l[i].to],
			    v = g->sg.node[g->sg.l[i].from];

			g->up[i] = (uint8_t)(rank[u] > rank[v] ||
					     (rank[u] == rank[v] && u > v));
		}
	}
	free(rank);
}

static void known_dist_free(struct sar_graph *g);

static void graph_free(struct sar_graph *g)
{
	known_dist_free(g);
	free(g->up);
	free(g->ptab);
	free(g->lw);
	lexheap_free(&g->heap);
	swgraph_free(&g->sg);
	free(g->load);
}

/* What a link carrying load costs a path (see route_dest). */
static uint64_t link_cost(const struct sar_graph *g, uint64_t load)
{
	uint64_t c = load;

	if (g->convex)
		c = load >> 32 ? g->cap : load * load;
	return c < g->cap ? c : g->cap;
}

/*
 * One destination, on shortest paths only: a breadth-first search from
 * its switch t over the links reversed gives every switch its distance in
 * hops; among the links that lead one hop closer to t, each switch takes
 * the one whose path costs least (the sum of link_cost over its links:
 * the load of the routes routed so far, DFSSSP's weights, or its square).
 * On a fabric with groups, distances count hops, then inter-group links
 * (lexdist.h: shortest paths, the fewest global links among them); "one
 * hop closer" then means a link whose weight is the whole difference of
 * distances.  The switches
 * are visited nearest first, so a switch's cost is final before the
 * switches farther away use it.  Then the LFT
 * entries, then the loads: every switch's sources (add[]) flow along its
 * path to t.  (OpenSM's dfsssp gets shortest paths by starting every
 * weight at P^2; counting hops first makes it exact.)  A stable re-route
 * (g->prev) keeps a switch's previous port whenever it still leads one
 * hop closer: only the switches whose path lost a link choose again.
 */
/* The search towards t (hop[], order[]) and the links one hop closer,
 * grouped by the switch they leave, in the order the push form of
 * route_dest would meet them (so that ties go the same way). */
static void closer_links(struct sar_graph *g, int t, struct scratch *w)
{
	int *first = w->cfirst, *pos = w->next, i, e, n = w->bfs_n;

	w->dag_t = t;
	for (i = 0; i < g->sg.nsw; i++)
		pos[i] = -1;
	for (i = 0; i <= n; i++)
		first[i] = 0;
	for (i = 0; i < n; i++)
		pos[w->order[i]] = i;
	for (i = 0; i < n; i++) {
		int v = w->order[i];

		for (e = g->sg.in_first[v]; e < g->sg.in_first[v + 1]; e++) {
			int u = g->sg.l[g->sg.in[e]].from;

			if (w->hop[u] ==
			    w->hop[v] + lexdist_w(&g->lg, g->sg.in[e]))
				first[pos[u] + 1]++;
		}
	}
	for (i = 0; i < n; i++)
		first[i + 1] += first[i];
	for (i = 0; i < n; i++) {
		int v = w->order[i];

		for (e = g->sg.in_first[v]; e < g->sg.in_first[v + 1]; e++) {
			int u = g->sg.l[g->sg.in[e]].from, at;

			if (w->hop[u] !=
			    w->hop[v] + lexdist_w(&g->lg, g->sg.in[e]))
				continue;
			at = first[pos[u]]++;
			w->clink[at] = g->sg.in[e];
			w->cto[at] = v;
		}
	}
	for (i = n; i > 0; i--)
		first[i] = first[i - 1];
	first[0] = 0;
}

/* Where a stable re-route reads a switch's previous port for lid: the
 * memo's row of the LID (w->prow) or the tables in force; -1: none. */
static int prev_port(const struct sar_graph *g, const struct scratch *w, int u,
		     unsigned lid)
{
	const struct lft *pt;

	if (w->prow)
		return w->prow[u];
	pt = g->ptab[u];
	return pt && lid <= pt->top ? pt->port[lid] : -1;
}

/* route_dest's pull for the switches that reach t: each takes the
 * cheapest of its links one hop closer (the first met among equals), or
 * the link of its previous port whenever that is one of them.  Their
 * candidates are nearer: final before. */
static void pull_closer(const struct sar_graph *g, struct scratch *w,
			unsigned lid)
{
	uint64_t *dist = w->dist;
	int i, c;

	for (i = 1; i < w->bfs_n; i++) { /* order[0] is t */
		int u = w->order[i], pp = -1, best = -1;
		uint64_t bd = INF;

		if (g->prev)
			pp = prev_port(g, w, u, lid);
		for (c = w->cfirst[i]; c < w->cfirst[i + 1]; c++) {
			int cl = w->clink[c];
			uint64_t nd =
				dist[w->cto[c]] + link_cost(g, g->load[cl]);

			if (pp >= 0 && g->sg.l[cl].port == pp) {
				bd = nd;
				best = cl;
				break;
			}
			if (nd < bd) {
				bd = nd;
				best = cl;
			}
		}
		dist[u] = bd;
		w->next[u] = best;
	}
}

/* route_dest's first LID of a switch t, in push form, on weighted
 * distances: each switch, nearest first, offers itself to the switches
 * one hop farther over the links into it; a switch keeps the cheapest
 * offer (the first among equals).  Ties go as in pull_closer. */
static void push_closer(const struct sar_graph *g, struct scratch *w, int t)
{
	uint64_t *dist = w->dist;
	int *next = w->next, k, e, i;

	for (k = 0; k < g->sg.nsw; k++) {
		dist[k] = INF;
		next[k] = -1;
	}
	dist[t] = 0;
	for (i = 0; i < w->bfs_n; i++) {
		int v = w->order[i], hv = w->hop[v];

		for (e = g->sg.in_first[v]; e < g->sg.in_first[v + 1]; e++) {
			int u = g->sg.in_from[e], l = g->sg.in[e];
			uint64_t nd;

			if (w->hop[u] != hv + lexdist_w(&g->lg, l))
				continue;
			nd = dist[v] + link_cost(g, g->load[l]);
			if (nd < dist[u]) {
				dist[u] = nd;
				next[u] = l;
			}
		}
	}
}

/*
 * lexdist_to then push_closer, in one pass, on hops (no weights, no
 * previous tables): the breadth-first search meets the links into each
 * switch in the order the push offers them, and a switch's cost is final
 * when it leaves the queue (its offers came from nearer switches).  The
 * same hop[], order[], dist[] and next[].  Returns the switches reached.
 */
static int bfs_push(const struct sar_graph *g, struct scratch *w, int t)
{
	uint64_t *dist = w->dist;
	int *next = w->next, *hop = w->hop, *order = w->order;
	int k, e, n = 0, head = 0;

	for (k = 0; k < g->sg.nsw; k++) {
		hop[k] = -1;
		dist[k] = INF;
		next[k] = -1;
	}
	hop[t] = 0;
	dist[t] = 0;
	order[n++] = t;
	while (head < n) {
		int v = order[head++], hv = hop[v];

		for (e = g->sg.in_first[v]; e < g->sg.in_first[v + 1]; e++) {
			int u = g->sg.in_from[e], l = g->sg.in[e];
			uint64_t nd;

			if (hop[u] < 0) {
				hop[u] = hv + 1;
				order[n++] = u;
			} else if (hop[u] != hv + 1) {
				continue;
			}
			nd = dist[v] + link_cost(g, g->load[l]);
			if (nd < dist[u]) {
				dist[u] = nd;
				next[u] = l;
			}
		}
	}
	return n;
}

/*
 * route_dest's first LID of a switch t in a stable re-route: each
 * switch, nearest first, keeps its previous port whenever that leads one
 * hop closer; only the others look at their links, and take the
 * cheapest one hop closer (among equals, the one to the switch nearest in
 * order[], then the lowest port: the offer a push meets first).  The
 * routes of a push that keeps previous ports, without a pass over every
 * link.
 */
static void repair_closer(const struct sar_graph *g, struct scratch *w,
			  unsigned lid)
{
	uint64_t *dist = w->dist;
	int *next = w->next, *pos = w->stack, i, p, l;

	for (i = 0; i < g->sg.nsw; i++) {
		next[i] = -1;
		dist[i] = INF;
	}
	for (i = 0; i < w->bfs_n; i++)
		pos[w->order[i]] = i;
	dist[w->order[0]] = 0;
	for (i = 1; i < w->bfs_n; i++) {
		int u = w->order[i], hu = w->hop[u], bp = INT_MAX;
		int pp = prev_port(g, w, u, lid);
		uint64_t bd = INF;

		if (pp > 0 && pp <= g->sg.nports[u] &&
		    (l = g->sg.link_of[g->sg.chan_first[u] + pp]) >= 0 &&
		    hu == w->hop[g->sg.lto[l]] + lexdist_w(&g->lg, l)) {
			next[u] = l; /* kept */
			dist[u] = dist[g->sg.lto[l]] + link_cost(g, g->load[l]);
			continue;
		}
		for (p = 1; p <= g->sg.nports[u]; p++) {
			int v;
			uint64_t nd;

			l = g->sg.link_of[g->sg.chan_first[u] + p];
			if (l < 0)
				continue;
			v = g->sg.lto[l];
			if (w->hop[v] < 0 ||
			    hu != w->hop[v] + lexdist_w(&g->lg, l))
				continue;
			nd = dist[v] + link_cost(g, g->load[l]);
			if (nd < bd || (nd == bd && pos[v] < bp)) {
				bd = nd;
				bp = pos[v];
				next[u] = l;
			}
		}
		dist[u] = bd;
	}
}

/* The search's result from distances in hops known for every switch
 * (graph.known_dist): hop[] and order[] (nearest first, then by index);
 * cnt: nsw + 1 ints of scratch.  Returns nsw. */
static int order_by_dist(const struct sar_graph *g, const int *d, int *hop,
			 int *order, int *cnt)
{
	int n = g->sg.nsw, k;

	for (k = 0; k <= n; k++)
		cnt[k] = 0;
	for (k = 0; k < n; k++) {
		hop[k] = d[k];
		cnt[d[k] + 1]++;
	}
	for (k = 0; k < n; k++)
		cnt[k + 1] += cnt[k];
	for (k = 0; k < n; k++)
		order[cnt[d[k]]++] = k;
	return n;
}

/*
 * route_dest's entries go to the tables a batch of NCOLS LIDs at a time:
 * one LID writes a byte into every switch's table, a cache line each,
 * while the batch's columns (w->col: switch u's ports for the batch's
 * LIDs at u * NCOLS, LFT_NONE where none) are written into each table in
 * one go.  Nothing reads the entries of a LID of the batch before the
 * flush (a pass routes each LID once; rip_up reads the entries of the
 * pass before).
 */
static void flush_cols(const struct sar_graph *g, struct lft_set *s,
		       struct scratch *w)
{
	int u, k;

	for (u = 0; u < g->sg.nsw && w->ncol; u++) {
		struct lft *tb = lft_of_node(s, g->sg.node[u]);
		uint8_t *row = w->col + (size_t)u * NCOLS;

		for (k = 0; tb && k < w->ncol; k++)
			if (row[k] != LFT_NONE && w->clid[k] <= tb->top)
				tb->port[w->clid[k]] = row[k];
		memset(row, LFT_NONE, (size_t)w->ncol);
	}
	w->ncol = 0;
}

/* route_dest's entries for lid where the tables hold its previous ones
 * (w->prow, sar_keep_memo): only those that differ are written, the rest
 * are already the entries the columns would give (a switch that does not
 * reach t: none). */
static void write_changed(const struct sar_graph *g, struct lft_set *s,
			  unsigned lid, int t, int last_port,
			  const struct scratch *w)
{
	int u;

	for (u = 0; u < g->sg.nsw; u++) {
		int port = u == t ? last_port :
			   w->hop[u] >= 0 && w->next[u] >= 0 ?
				    g->sg.l[w->next[u]].port :
				    LFT_NONE;
		struct lft *tb;

		if (port == w->prow[u])
			continue;
		tb = lft_of_node(s, g->sg.node[u]);
		if (tb && lid <= tb->top)
			tb->port[lid] = (uint8_t)port;
	}
}

static int route_dest(struct sar_graph *g, struct lft_set *s, unsigned lid,
		      int t, int last_port, struct scratch *w)
{
	const uint64_t *add = w->add;
	uint64_t *dist = w->dist, *flow = w->flow;
	int *next = w->next, *order = w->order;
	uint8_t *col;
	int k, n;

	/* the distances depend on t alone: the LIDs of one switch share
	 * them; a switch's first LID is routed by a push over every link
	 * (on hops, during the search itself; in a stable re-route, by
	 * repair_closer), its further LIDs by a pull over the links one hop
	 * closer, listed once (the same routes, cheaper from the second LID
	 * on) */
	if (w->bfs_t != t && (g->prev || g->lw)) {
		if (g->known_dist && g->known_dist[t])
			w->bfs_n = order_by_dist(g, g->known_dist[t], w->hop,
						 w->order, w->stack);
		else
			w->bfs_n = lexdist_to(&g->lg, &g->heap, t, w->hop,
					      w->order);
		/* on hops, nearest first, then by index: the order of
		 * distances known (ties among links go by it) */
		if (g->prev && !g->lw && w->bfs_n == g->sg.nsw &&
		    !(g->known_dist && g->known_dist[t]))
			order_by_dist(g, w->hop, w->hop, w->order, w->stack);
		w->bfs_t = t;
		if (g->prev)
			repair_closer(g, w, lid);
		else
			push_closer(g, w, t);
	} else if (w->bfs_t != t) { /* hops: the search and the push at once */
		w->bfs_n = bfs_push(g, w, t);
		w->bfs_t = t;
	} else {
		if (w->dag_t != t)
			closer_links(g, t, w);
		dist[t] = 0; /* the others in order[] get dist[], next[] */
		pull_closer(g, w, lid);
	}
	n = w->bfs_n;
	if (w->prow) { /* the tables hold the previous entries (sar_keep_memo) */
		write_changed(g, s, lid, t, last_port, w);
		goto flows;
	}
	col = w->col + w->ncol;
	for (k = 0; k < n; k++) { /* the switches that reach t */
		int u = order[k];

		if (u == t)
			col[(size_t)u * NCOLS] = (uint8_t)last_port;
		else if (next[u] >= 0)
			col[(size_t)u * NCOLS] = (uint8_t)g->sg.l[next[u]].port;
	}
	w->clid[w->ncol++] = lid;
	if (w->ncol == NCOLS)
		flush_cols(g, s, w);
flows:
	/* farthest first: each switch passes its flow on towards t */
	for (k = 0; k < n; k++)
		flow[order[k]] = add[order[k]];
	for (k = n - 1; k > 0; k--) {
		int u = order[k];

		if (next[u] < 0)
			continue;
		g->load[next[u]] += flow[u];
		flow[g->sg.l[next[u]].to] += flow[u];
	}
	return 0;
}

/* Destinations in routing order; n returned. */
static int is_io(const struct fabric *f, const struct guidlist *io, int node,
		 int port)
{
	return guidlist_has(io, f->nodes[node].guid) ||
	       guidlist_has(io, f->nodes[node].ports[port].guid);
}

static int order_dests(const struct fabric *f, const struct sar_graph *g,
		       const struct jobs *jobs, const struct guidlist *io,
		       const int *ncas_on, struct dest *d)
{
	int pass;
	int n = 0, k, p, i, j, nd;
	int *job_of = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	int *jord = NULL;

	if (!job_of)
		return -1;
	for (i = 0; i < f->nnodes; i++)
		job_of[i] = -1;
	if (jobs && jobs->njobs) {
		jord = malloc((size_t)jobs->njobs * sizeof(int));
		if (!jord) {
			free(job_of);
			return -1;
		}
		for (j = 0; j < jobs->njobs; j++) {
			jord[j] = j;
			for (i = 0; i < jobs->count[j]; i++)
				job_of[jobs->node[jobs->first[j] + i]] = j;
		}
		/* largest jobs first (stable: job order for equal sizes) */
		for (i = 1; i < jobs->njobs; i++)
			for (j = i; j > 0 && jobs->count[jord[j - 1]] <
						     jobs->count[jord[j]];
			     j--) {
				int tmp = jord[j];

				jord[j] = jord[j - 1];
				jord[j - 1] = tmp;
			}
		for (i = 0; i < jobs->njobs; i++) {
			int jb = jord[i];

			for (k = 0; k < jobs->count[jb]; k++) {
				int node = jobs->node[jobs->first[jb] + k];

				for (p = 1; p <= f->nodes[node].nports; p++)
					if (f->nodes[node].ports[p].lid &&
					    f->nodes[node].ports[p].rnode >= 0)
						d[n++] = (struct dest){ node, p,
									jb };
			}
		}
	}
	/* the other CA ports, by their switch's CA count (descending):
	 * compute nodes, then I/O nodes */
	for (pass = 0; pass < 2; pass++) {
		nd = n;
		for (k = 0; k < g->sg.nsw; k++) {
			int sw = g->sg.node[k];

			for (p = 1; p <= f->nodes[sw].nports; p++) {
				int r = f->nodes[sw].ports[p].rnode, rp;

				if (r < 0 || f->nodes[r].type == FAB_SWITCH ||
				    job_of[r] >= 0)
					continue;
				rp = f->nodes[sw].ports[p].rport;
				if (f->nodes[r].ports[rp].lid &&
				    is_io(f, io, r, rp) == pass)
					d[n++] = (struct dest){ r, rp, -1 };
			}
		}
		for (i = nd + 1; i < n; i++) /* stable insertion sort */
			for (j = i; j > nd; j--) {
				int a = g->sg.idx[f->nodes[d[j - 1].node]
							  .ports[d[j - 1].port]
							  .rnode];
				int b = g->sg.idx[f->nodes[d[j].node]
							  .ports[d[j].port]
							  .rnode];
				struct dest tmp;

				if (ncas_on[a] >= ncas_on[b])
					break;
				tmp = d[j];
				d[j] = d[j - 1];
				d[j - 1] = tmp;
			}
	}
	for (k = 0; k < g->sg.nsw; k++) /* switch LIDs last */
		if (f->nodes[g->sg.node[k]].ports[0].lid)
			d[n++] = (struct dest){ g->sg.node[k], 0, -1 };
	free(job_of);
	free(jord);
	return n;
}

/* Takes the routes of every source switch to lid (switch t) off the
 * loads, following the tables. */
static void rip_up(struct sar_graph *g, const struct lft_set *s, unsigned lid,
		   int t, const uint64_t *add)
{
	int i, u, hops;

	for (i = 0; i < g->sg.nsw; i++)
		for (u = i, hops = 0; add[i] && u != t && hops < g->sg.nsw;
		     hops++) {
			const struct lft *tb = lft_of_node(s, g->sg.node[u]);
			int p = tb ? lft_get(tb, lid) : LFT_NONE, li;

			if (p == LFT_NONE ||
			    p > g->f->nodes[g->sg.node[u]].nports ||
			    (li = g->sg.link_of[g->sg.chan_first[u] + p]) < 0)
				break;
			g->load[li] -= add[i];
			u = g->sg.l[li].to;
		}
}

/*
 * The ways sar routes with jobs; it keeps the tables whose maximum
 * effective EFI for the jobs is lowest (the first, SAR, on ties).
 */
struct sar_variant {
	int job_order;	 /* destinations by job size (else DFSSSP's) */
	int job_weights; /* intra-job routes weigh (else every source) */
	int refine;	 /* then each destination routed again against
				 * the others */
	int convex;	 /* links cost their load squared: the most loaded
			  * ones avoided harder */
};

/* clang-format off */
static const struct sar_variant variants[] = {
	{ .job_order = 0, .job_weights = 0, .refine = 0 },	/* DFSSSP */
	{ .job_order = 1, .job_weights = 0, .refine = 0 },
	{ .job_order = 0, .job_weights = 1, .refine = 0 },
	{ .job_order = 1, .job_weights = 1, .refine = 1 },	/* refined SAR */
	{ .job_order = 0, .job_weights = 0, .refine = 0, .convex = 1 },
	{ .job_order = 1, .job_weights = 0, .refine = 0, .convex = 1 },
	{ .job_order = 0, .job_weights = 1, .refine = 0, .convex = 1 },
	{ .job_order = 1, .job_weights = 1, .refine = 1, .convex = 1 },
};
/* clang-format on */
#define NVARIANTS ((int)(sizeof(variants) / sizeof(variants[0])))

static void known_dist_free(struct sar_graph *g)
{
	int k;

	for (k = 0; g->known_dist && k < g->sg.nsw; k++)
		free(g->known_dist[k]);
	free(g->known_dist);
	g->known_dist = NULL;
}

/*
 * Every destination in order, weights updated as they go: a destination
 * of a job weighs with its job's sources (job_on, SAR), any other with
 * every source (DFSSSP).  A stable re-route first keeps the trees that
 * stay whole (sar_keep_trees, sar_keep_memo), then routes the others in that order.
 */
static int route_all(struct sar_work *sw, struct lft_set *s, int **job_on)
{
	struct sar_graph *g = &sw->g;
	uint8_t *kept = NULL;
	int k, t, last, rc = -1;
	unsigned lid, i;

	if (g->prev) {
		int memo = 0;

		kept = calloc((size_t)sw->maxlid + 1, 1);
		if (kept && sw->o->memo &&
		    (memo = sar_keep_memo(sw, s, job_on, kept)) < 0)
			goto out;
		sw->from_memo = memo;
		if (!kept || (!memo && sar_keep_trees(sw, s, job_on, kept)))
			goto out;
	}
	for (k = 0; k < sw->nd; k++) {
		unsigned base =
			sw->f->nodes[sw->d[k].node].ports[sw->d[k].port].lid;

		int weighs = 0;

		dest_target(sw, k, &t, &last);
		for (i = 0; i < dest_nlids(sw, k); i++) {
			lid = base + i;
			if (kept && lid <= sw->maxlid && kept[lid])
				continue;
			if (!weighs++)
				dest_weights(sw, k, job_on, sw->w.add);
			if (g->rip)
				rip_up(g, s, lid, t, sw->w.add);
			sw->w.prow =
				sw->brow_of && lid <= sw->maxlid &&
						sw->brow_of[lid] >= 0 ?
					sw->brow + (size_t)sw->brow_of[lid] *
							   (size_t)g->sg.nsw :
					NULL;
			if (route_dest(g, s, lid, t, last, &sw->w))
				goto out;
		}
	}
	rc = 0;
	sw->updown = kept; /* for all_updown */
	kept = NULL;
out:
	sw->w.prow = NULL;
	flush_cols(g, s, &sw->w);
	free(kept);
	known_dist_free(g);
	return rc;
}

/* The graph, the LID owners and the per-switch buffers. */
static int work_init(struct sar_work *sw, const struct fabric *f,
		     const struct sar_opts *o, struct sar_result *r,
		     struct osmre_err *err)
{
	size_t n;
	int k, i;

	sw->f = f;
	sw->o = o;
	sw->g.base_only = o->base_only;
	sw->g.prev = o->prev;
	if (graph_build(&sw->g, f) || graph_dist(&sw->g))
		return osmre_fail(err, "out of memory");
	/* (two ports with one LID: its own message, which names them) */
	if (lids_owners(f, &sw->own, &r->maxlid, err))
		return -1;
	links_up(&sw->g);
	sw->maxlid = r->maxlid;
	n = (size_t)sw->g.sg.nsw + 1;
	sw->g.cap = INF / n; /* a path has fewer than n links */
	sw->w.add = calloc(n, sizeof(*sw->w.add));
	sw->w.dist = malloc(n * sizeof(*sw->w.dist));
	sw->w.flow = malloc(n * sizeof(*sw->w.flow));
	sw->w.next = malloc(n * sizeof(int));
	sw->w.order = malloc(n * sizeof(int));
	sw->w.hop = malloc(n * sizeof(int));
	sw->w.stack = malloc((n + 1) * sizeof(int));
	sw->w.cfirst = malloc((n + 1) * sizeof(int));
	sw->w.clink = malloc(((size_t)sw->g.sg.nlink + 1) * sizeof(int));
	sw->w.cto = malloc(((size_t)sw->g.sg.nlink + 1) * sizeof(int));
	sw->w.col = malloc(n * NCOLS);
	if (sw->w.col)
		memset(sw->w.col, LFT_NONE, n * NCOLS);
	sw->w.bfs_t = -1;
	sw->w.dag_t = -1;
	if (o->prev) {
		sw->g.ptab = malloc(n * sizeof(*sw->g.ptab));
		if (!sw->g.ptab)
			return osmre_fail(err, "out of memory");
		for (k = 0; k < sw->g.sg.nsw; k++)
			sw->g.ptab[k] = lft_of_node(o->prev, sw->g.sg.node[k]);
	}
	sw->ncas_on = calloc(n, sizeof(int));
	/* at most every switch and every CA port is a destination */
	for (i = 0, k = 1; i < f->nnodes; i++)
		k += f->nodes[i].type == FAB_SWITCH ? 1 : f->nodes[i].nports;
	sw->d = malloc((size_t)k * sizeof(*sw->d));
	if (!sw->w.add || !sw->w.dist || !sw->w.flow || !sw->w.next ||
	    !sw->w.order || !sw->w.hop || !sw->w.stack || !sw->w.cfirst ||
	    !sw->w.clink || !sw->w.cto || !sw->w.col || !sw->ncas_on || !sw->d)
		return osmre_fail(err, "out of memory");
	return 0;
}

static void work_free(struct sar_work *sw)
{
	int k;

	risk_order_free(&sw->order);

	for (k = 0; sw->job_on && k < sw->njobs; k++)
		free(sw->job_on[k]);
	free(sw->job_on);
	free(sw->w.add);
	free(sw->w.dist);
	free(sw->w.flow);
	free(sw->w.next);
	free(sw->w.order);
	free(sw->w.hop);
	free(sw->w.cfirst);
	free(sw->w.clink);
	free(sw->w.cto);
	free(sw->w.col);
	free(sw->w.stack);
	free(sw->ncas_on);
	free(sw->d);
	free(sw->own);
	free(sw->updown);
	free(sw->brow);
	free(sw->brow_of);
	graph_free(&sw->g);
}

/* A CA port with a LID linked to a switch: a source of the layering. */
static int is_source(const struct sar_work *sw, int n, int p)
{
	const struct fab_port *pt = &sw->f->nodes[n].ports[p];

	return sw->f->nodes[n].type != FAB_SWITCH && pt->lid &&
	       pt->rnode >= 0 && sw->g.sg.idx[pt->rnode] >= 0;
}

/* The CA ports (r->ca_node/ca_port), counted per switch (ncas_on). */
static int collect_cas(struct sar_work *sw, struct sar_result *r)
{
	const struct fabric *f = sw->f;
	int n, p, count = 0;

	for (n = 0; n < f->nnodes; n++)
		for (p = 1; p <= f->nodes[n].nports; p++)
			count += is_source(sw, n, p);
	r->ca_node = malloc(((size_t)count + 1) * sizeof(int));
	r->ca_port = malloc(((size_t)count + 1) * sizeof(int));
	if (!r->ca_node || !r->ca_port)
		return -1;
	for (n = 0; n < f->nnodes; n++)
		for (p = 1; p <= f->nodes[n].nports; p++) {
			if (!is_source(sw, n, p))
				continue;
			r->ca_node[r->ncas] = n;
			r->ca_port[r->ncas++] = p;
			sw->ncas_on[sw->g.sg.idx[f->nodes[n].ports[p].rnode]]++;
		}
	return 0;
}

/* Per job, its CA ports per switch (SAR's weights). */
static int count_jobs(struct sar_work *sw, const struct jobs *jobs)
{
	const struct fabric *f = sw->f;
	int k, i, p;

	if (!jobs || !jobs->njobs)
		return 0;
	sw->job_on = calloc((size_t)jobs->njobs, sizeof(int *));
	if (!sw->job_on)
		return -1;
	sw->njobs = jobs->njobs;
	for (k = 0; k < jobs->njobs; k++) {
		sw->job_on[k] = calloc((size_t)sw->g.sg.nsw + 1, sizeof(int));
		if (!sw->job_on[k])
			return -1;
		for (i = 0; i < jobs->count[k]; i++) {
			int node = jobs->node[jobs->first[k] + i];

			for (p = 1; p <= f->nodes[node].nports; p++) {
				int s = f->nodes[node].ports[p].rnode;

				if (s >= 0 && sw->g.sg.idx[s] >= 0 &&
				    f->nodes[node].ports[p].lid)
					sw->job_on[k][sw->g.sg.idx[s]]++;
			}
		}
	}
	return 0;
}

/* The tables of variant v in s0 (cleared first, weights reset). */
static int route_variant(struct sar_work *sw, const struct sar_variant *v,
			 const int *job_of, struct lft_set *s0)
{
	const struct sar_opts *o = sw->o;
	struct sar_graph *g = &sw->g;
	int i;

	for (i = 0; i < g->sg.nlink; i++)
		g->load[i] = 0;
	g->convex = v->convex;
	for (i = 0; i < s0->n; i++)
		memset(s0->t[i].port, LFT_NONE, s0->t[i].top + 1);
	sw->nd = order_dests(sw->f, g, v->job_order ? o->jobs : NULL, o->io,
			     sw->ncas_on, sw->d);
	if (sw->nd < 0)
		return -1;
	for (i = 0; v->job_weights && i < sw->nd; i++)
		sw->d[i].job = sw->d[i].port ? job_of[sw->d[i].node] : -1;
	g->rip = 0;
	if (route_all(sw, s0, v->job_weights ? sw->job_on : NULL))
		return -1;
	if (!v->refine)
		return 0;
	g->rip = 1;
	return route_all(sw, s0, sw->job_on);
}

/* The local search's risk counts at most (else checked as a whole). */
#define RISK_GUARD_BYTES ((size_t)256 << 20)

/* 1 when the A2A and SP risks of s are at most ref's (risk.h); -1 with
 * err (no memory). */
static int within_risks(const struct fabric *f, const struct lft_set *s,
			const struct risk_order *ord, const long *ref,
			struct osmre_err *err)
{
	long got;

	if (risk_a2a(f, s, ord, &got, err))
		return -1;
	if (got > ref[0])
		return 0;
	if (risk_sp(f, s, ord, &got, err))
		return -1;
	return got <= ref[1];
}

/*
 * all_pairs: the tables brought within the A2A and SP risks of dfs
 * (DFSSSP's, sar's without jobs) by taking its trees where they exceed
 * (risk_guard_repair), then the local search again, change by change
 * within them.  Beyond RISK_GUARD_BYTES of counts: dfs's tables, the
 * local search after them kept only when within as a whole.
 */
static int keep_all_pairs(struct sar_work *sw, struct lft_set *s,
			  const struct lft_set *dfs, struct sar_result *r,
			  struct osmre_err *err)
{
	const struct fabric *f = sw->f;
	const struct risk_order *ord = sar_order(sw, err);
	struct risk_guard *g = NULL;
	struct lft_set keep = { 0 };
	struct efi_polish_stats st;
	struct osmre_err gerr;
	long ref[2];
	int rc = -1, w;

	if (!ord || risk_a2a(f, dfs, ord, &ref[0], err) ||
	    risk_sp(f, dfs, ord, &ref[1], err))
		goto out;
	r->risk_a2a = ref[0];
	r->risk_sp = ref[1];
	g = risk_guard_new(f, s, ord, ref[0], ref[1], RISK_GUARD_BYTES, &gerr);
	if (g) {
		if (risk_guard_repair(g, dfs, &r->risk_trees, err))
			goto out;
		if (efi_polish_on(&sw->g.sg, sw->o->jobs, s, 0, 0, g, &st, err))
			goto out;
		rc = 0;
		goto out;
	}
	if ((w = within_risks(f, s, ord, ref, err)) < 0)
		goto out;
	if (w) {
		rc = 0;
		goto out;
	}
	lft_set_copy_entries(s, dfs);
	r->risk_trees = -1;
	if (lft_set_clone(s, &keep, err) ||
	    efi_polish_on(&sw->g.sg, sw->o->jobs, s, 0, 0, NULL, &st, err) ||
	    (w = within_risks(f, s, ord, ref, err)) < 0)
		goto out;
	if (!w)
		lft_set_copy_entries(s, &keep);
	rc = 0;
out:
	risk_guard_free(g);
	lft_set_free(&keep);
	return rc;
}

/*
 * With jobs: the other ways to the same end, kept when they serve the
 * jobs better: DFSSSP (a fabric with no room to spare, sar180), each half
 * of SAR alone, and SAR refined.  s holds SAR's tables and gets the best,
 * then the local search; with all_pairs, brought within DFSSSP's risks.
 */
static int try_variants(struct sar_work *sw, struct lft_set *s,
			struct sar_result *r, struct osmre_err *err)
{
	const struct fabric *f = sw->f;
	const struct jobs *jobs = sw->o->jobs;
	struct lft_set s0 = { 0 }, dfs = { 0 };
	struct efi_result ej, ev;
	struct efi_polish_stats st;
	int i, k, v, rc = -1;
	int *job_of = malloc(((size_t)f->nnodes + 1) * sizeof(int));

	if (!job_of) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	if (lft_set_for_fabric(f, r->maxlid, &s0, err) ||
	    jobs_efi(f, s, jobs, &ej, err))
		goto out;
	for (i = 0; i < f->nnodes; i++)
		job_of[i] = -1;
	for (k = 0; k < jobs->njobs; k++)
		for (i = 0; i < jobs->count[k]; i++)
			job_of[jobs->node[jobs->first[k] + i]] = k;
	r->efi_sar = ej.max;
	for (v = 0; v < NVARIANTS; v++) {
		if (route_variant(sw, &variants[v], job_of, &s0)) {
			osmre_fail(err, "out of memory");
			goto out;
		}
		if (jobs_efi(f, &s0, jobs, &ev, err))
			goto out;
		if (v == 0) {
			r->efi_dfsssp = ev.max;
			if (sw->o->all_pairs && lft_set_clone(&s0, &dfs, err))
				goto out;
		}
		if (ev.max < ej.max) {
			ej = ev;
			lft_set_copy_entries(s, &s0);
			r->job_aware = v ? 1 : 0;
		}
	}
	/* then the local search on the kept tables (efipolish.h) */
	if (efi_polish_on(&sw->g.sg, jobs, s, 0, 0, NULL, &st, err) ||
	    (sw->o->all_pairs && keep_all_pairs(sw, s, &dfs, r, err)) ||
	    jobs_efi(f, s, jobs, &ev, err))
		goto out;
	if (st.kept)
		r->job_aware = 1;
	if (sw->o->all_pairs) {
		char diff[8];

		r->job_aware = !lft_set_equal(s, &dfs, diff, sizeof(diff));
	}
	r->efi_kept = ev.max;
	rc = 0;
out:
	free(job_of);
	lft_set_free(&s0);
	lft_set_free(&dfs);
	return rc;
}

/* Without jobs, the other ways DFSSSP may go, all on shortest paths. */
/* clang-format off */
static const struct sar_variant dfs_variants[] = {
	{ .refine = 1 },
	{ .convex = 1 },
	{ .convex = 1, .refine = 1 },
};
/* clang-format on */
#define NDFS_VARIANTS ((int)(sizeof(dfs_variants) / sizeof(dfs_variants[0])))
/* DFSSSP's tables and its variants, each on the fewest global links
 * among the shortest paths (on a fabric with groups), then the same on
 * any shortest path (sar.h, SAR_SP_*) */
#define NDFS_TABLES   SAR_SPS
_Static_assert(NDFS_VARIANTS + 1 == SAR_SP_HOPS, "SAR_SP_* and dfs_variants");

/*
 * The tables of candidate v of dfsssp_variants in s0 (0, or -1 when out
 * of memory): v = 1..3 the variants on the distances of sw (lexdist.h on
 * a fabric with groups), v = 4 DFSSSP and 5..7 the variants again on
 * hops alone, every shortest path allowed (only on a fabric with group
 * weights).
 */
static int route_candidate(struct sar_work *sw, int v, struct lft_set *s0)
{
	static const struct sar_variant dfsssp = { 0 };
	struct sar_graph *g = &sw->g;
	int *lw = g->lw, rc;

	if (v < SAR_SP_HOPS)
		return route_variant(sw, &dfs_variants[v - 1], NULL, s0);
	/* on hops: the distances of the last search go too */
	g->lw = NULL;
	g->lg.w = NULL;
	sw->w.bfs_t = -1;
	v -= SAR_SP_HOPS;
	rc = route_variant(sw, v ? &dfs_variants[v - 1] : &dfsssp, NULL, s0);
	g->lw = lw;
	g->lg.w = lw;
	sw->w.bfs_t = -1;
	return rc;
}

/* A gap between two candidates' worst ratios that sar leaves shortest
 * paths for: 10 % (sar.h, sp_fit). */
#define SAR_SP_SLACK_NUM 11
#define SAR_SP_SLACK_DEN 10

/* The worst of a2a / amin and rp / rmin, scaled by amin * rmin. */
static long worst_scaled(long a2a, long rp, long amin, long rmin)
{
	return a2a * rmin > rp * amin ? a2a * rmin : rp * amin;
}

/* 1 when tables i rank before tables j: their worst ratio to the least
 * A2A and RP (max(a2a / a2a_min, rp / rp_min)), then the lower A2A, then
 * i < j. */
static int ranks_before(const long *a2a, const long *rp, long amin, long rmin,
			int i, int j)
{
	long si = worst_scaled(a2a[i], rp[i], amin, rmin);
	long sj = worst_scaled(a2a[j], rp[j], amin, rmin);

	if (si != sj)
		return si < sj;
	if (a2a[i] != a2a[j])
		return a2a[i] < a2a[j];
	return i < j;
}

/*
 * 1 when, on the distances of sw (lexdist.h: hops, then global links),
 * the routes between two switches with CA ports are not all a
 * dragonfly's minimal ones: some crosses more than 2 global links, or 2
 * and a local one (a link's weight is nsw, nsw + 1 when global, so a
 * distance is nsw times its hops plus its global links).  The failures
 * have then already taken the minimal routes that sar keeps on a whole
 * fabric, and any shortest path may compete (dfsssp_variants).
 */
static int minimal_lost(struct sar_work *sw)
{
	struct sar_graph *g = &sw->g;
	int nsw = g->sg.nsw, t, i, n, lost = 0;

	for (t = 0; t < nsw && !lost; t++) {
		if (!sw->ncas_on[t])
			continue;
		n = lexdist_to(&g->lg, &g->heap, t, sw->w.hop, sw->w.order);
		for (i = 0; i < n && !lost; i++) {
			int v = sw->w.order[i], d = sw->w.hop[v];
			int global = d % nsw, local = d / nsw - global;

			lost = sw->ncas_on[v] &&
			       (global > 2 || (global == 2 && local > 0));
		}
	}
	sw->w.bfs_t = -1; /* (the scratch's distances are not t's) */
	return lost;
}

/*
 * The shortest tables that fit the budget (A2A a2a, RP rp) trail the best
 * shortest ones (best), which do not, by more than the slack: best laid
 * out over the budget (sar_layer_paths; with 2 layers or more the ways,
 * which route every destination again, spread over the layers; else the
 * last layer alone), in place, and kept instead, into s and r, when the
 * worst ratio of those tables to the least A2A and RP is below the
 * fitting tables' by the slack too (theirs above 1.1 times it).  1 when
 * kept, 0 when not, -1 with err.
 */
static int over_instead(struct sar_work *sw, struct lft_set *s,
			struct sar_result *r, struct lft_set *best, long a2a,
			long rp, long amin, long rmin, struct osmre_err *err)
{
	const struct risk_order *ord = sar_order(sw, err);
	struct sar_result rv = *r;
	long wa, wr;
	int rc = -1;

	rv.layer = NULL;
	rv.layers = 0;
	if (!ord || sar_layer_paths(sw, best, &rv, err))
		goto out;
	if (rv.updn_lids && rv.way != SAR_WAY_LAST) {
		wa = rv.way_a2a[rv.way];
		wr = rv.way_rp[rv.way];
	} else if (risk_a2a(sw->f, best, ord, &wa, err) ||
		   risk_rp(sw->f, best, ord, WAY_RP_PERMS, WAY_RP_SEED, &wr,
			   err)) {
		goto out;
	}
	amin = wa < amin ? wa : amin;
	rmin = wr < rmin ? wr : rmin;
	rc = 0;
	if (worst_scaled(wa, wr, amin, rmin) * SAR_SP_SLACK_NUM >=
	    worst_scaled(a2a, rp, amin, rmin) * SAR_SP_SLACK_DEN)
		goto out;
	free(r->layer);
	*r = rv;
	rv.layer = NULL;
	lft_set_copy_entries(s, best);
	rc = 1;
out:
	free(rv.layer);
	return rc;
}

/*
 * Without jobs, within the budget: DFSSSP's tables (in s, layered in r
 * within max_vls) and the other candidates of route_candidate, all on
 * shortest paths (one pass of refinement: each destination routed again
 * against all the others; links costing their load squared; both; and,
 * on a fabric with groups whose failures already took some minimal
 * routes, each again without preferring the fewest global links),
 * ranked by their A2A and RP risks (ranks_before); the first in that
 * order whose layers fit the budget is kept (DFSSSP's when
 * none before it does; a candidate over the budget is not routed past
 * it, sar_work.fit_only).  Where the one kept trails the first by more
 * than 10 %, the first is laid out over the budget and may be kept
 * instead (over_instead: r->sp_fit, r->updn_lids > 0 on return).
 * *other: 1 when another than DFSSSP's was kept (its loads are not
 * DFSSSP's).
 */
static int dfsssp_variants(struct sar_work *sw, struct lft_set *s,
			   struct sar_result *r, int *other,
			   struct osmre_err *err)
{
	const struct fabric *f = sw->f;
	const struct risk_order *ord = sar_order(sw, err);
	struct lft_set vs[NDFS_TABLES];
	long a2a[NDFS_TABLES], rp[NDFS_TABLES];
	long amin = LONG_MAX, rmin = LONG_MAX;
	size_t lb = ((size_t)sw->g.sg.nlink + 1) * sizeof(uint64_t);
	uint64_t *load = malloc(lb);
	int v, k, n = 0, rank[NDFS_TABLES], rc = -1, ncand = SAR_SP_HOPS, fit;

	*other = 0;
	memset(vs, 0, sizeof(vs));
	if (!load) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	/* DFSSSP's loads, for the memo when its tables stay */
	memcpy(load, sw->g.load, (size_t)sw->g.sg.nlink * sizeof(uint64_t));
	if (sw->g.lw && minimal_lost(sw))
		ncand = NDFS_TABLES; /* on hops too */
	if (!ord || risk_a2a(f, s, ord, &a2a[0], err) ||
	    risk_rp(f, s, ord, WAY_RP_PERMS, WAY_RP_SEED, &rp[0], err))
		goto out;
	for (n = 1; n < ncand; n++) {
		if (lft_set_for_fabric(f, r->maxlid, &vs[n], err))
			goto out;
		if (route_candidate(sw, n, &vs[n])) {
			osmre_fail(err, "out of memory");
			goto out;
		}
		if (risk_a2a(f, &vs[n], ord, &a2a[n], err) ||
		    risk_rp(f, &vs[n], ord, WAY_RP_PERMS, WAY_RP_SEED, &rp[n],
			    err))
			goto out;
	}
	for (v = 0; v < NDFS_TABLES; v++) {
		r->sp_a2a[v] = v < n ? a2a[v] : -1;
		r->sp_rp[v] = v < n ? rp[v] : -1;
	}
	for (v = 0; v < n; v++) {
		amin = a2a[v] < amin ? a2a[v] : amin;
		rmin = rp[v] < rmin ? rp[v] : rmin;
	}
	/* insertion sort: rank[0] first */
	for (v = 0; v < n; v++) {
		for (k = v;
		     k > 0 && ranks_before(a2a, rp, amin, rmin, v, rank[k - 1]);
		     k--)
			rank[k] = rank[k - 1];
		rank[k] = v;
	}
	sw->fit_only = 1;
	for (k = 0; k < n && rank[k]; k++) {
		struct sar_result rv = *r;

		rv.layer = NULL;
		rv.layers = 0;
		if (sar_layer_paths(sw, &vs[rank[k]], &rv, err))
			goto out;
		if (rv.updn_lids) { /* over the budget: not shortest */
			free(rv.layer);
			continue;
		}
		free(r->layer);
		*r = rv;
		r->sp = rank[k];
		lft_set_copy_entries(s, &vs[rank[k]]);
		*other = 1;
		break;
	}
	sw->fit_only = 0;
	/* the shortest tables that fit trail the best by the slack */
	fit = *other ? rank[k] : 0;
	if (rank[0] != fit &&
	    worst_scaled(a2a[fit], rp[fit], amin, rmin) * SAR_SP_SLACK_DEN >
		    worst_scaled(a2a[rank[0]], rp[rank[0]], amin, rmin) *
			    SAR_SP_SLACK_NUM) {
		int kept = over_instead(sw, s, r, &vs[rank[0]], a2a[fit],
					rp[fit], amin, rmin, err);

		if (kept < 0)
			goto out;
		if (kept) {
			r->sp = rank[0];
			r->sp_fit = fit;
			*other = 1;
		}
	}
	if (!*other)
		memcpy(sw->g.load, load,
		       (size_t)sw->g.sg.nlink * sizeof(uint64_t));
	rc = 0;
out:
	sw->fit_only = 0;
	sw->g.convex = 0;
	sw->g.rip = 0;
	free(load);
	for (v = 1; v < NDFS_TABLES; v++)
		lft_set_free(&vs[v]);
	return rc;
}

/* Two hosts that share no connected part: refused (components.h). */
static int refuse_split(const struct fabric *f, struct osmre_err *err)
{
	int *comp = malloc(((size_t)f->nnodes + 1) * sizeof(int)), rc;

	if (!comp || switch_components(f, comp)) {
		free(comp);
		return osmre_fail(err, "out of memory");
	}
	rc = components_refuse_split(f, comp, err);
	free(comp);
	return rc;
}

static int sar_route_ordered(const struct fabric *f, const struct sar_opts *o,
			     struct lft_set *s, struct sar_result *r,
			     struct osmre_err *err);

/*
 * With jobs, once the job-aware tables s are layered (over the budget
 * the layering routes some destinations again, by load alone): the
 * tables sar keeps without the jobs, routed and layered into their own
 * set, replace s and *r unless s serves the jobs better (a lower max
 * effective EFI) and, with all_pairs, its A2A and SP risks are at most
 * theirs.  So the jobs never cost the jobs, or with all_pairs any
 * pattern, anything against routing without them.  1 when replaced (the
 * memo then holds those tables' pass), 0 when s stays, -1 with err.
 */
static int jobs_or_not(struct sar_work *sw, struct lft_set *s,
		       struct sar_result *r, struct osmre_err *err)
{
	const struct fabric *f = sw->f;
	const struct jobs *jobs = sw->o->jobs;
	const struct risk_order *ord;
	struct sar_opts on = *sw->o;
	struct lft_set s2 = { 0 };
	struct sar_result r2, keep;
	struct efi_result e1, e2;
	long a1, a2, p1, p2;
	int better, rc = -1;

	on.jobs = NULL;
	on.all_pairs = 0;
	if (lft_set_for_fabric(f, r->maxlid, &s2, err))
		return -1;
	if (sar_route_ordered(f, &on, &s2, &r2, err)) {
		lft_set_free(&s2);
		return -1;
	}
	if (jobs_efi(f, s, jobs, &e1, err) || jobs_efi(f, &s2, jobs, &e2, err))
		goto out;
	better = e1.max < e2.max;
	if (better && sw->o->all_pairs) {
		ord = sar_order(sw, err);
		if (!ord || risk_a2a(f, s, ord, &a1, err) ||
		    risk_a2a(f, &s2, ord, &a2, err) ||
		    risk_sp(f, s, ord, &p1, err) ||
		    risk_sp(f, &s2, ord, &p2, err))
			goto out;
		better = a1 <= a2 && p1 <= p2;
	}
	r->efi_layered = e1.max;
	r->efi_nojobs = e2.max;
	if (better) {
		r->efi_kept = e1.max;
		rc = 0;
		goto out;
	}
	keep = *r;
	lft_set_copy_entries(s, &s2);
	sar_result_free(r);
	*r = r2;
	memset(&r2, 0, sizeof(r2));
	r->efi_sar = keep.efi_sar;
	r->efi_dfsssp = keep.efi_dfsssp;
	r->efi_layered = keep.efi_layered;
	r->efi_nojobs = keep.efi_nojobs;
	r->efi_kept = e2.max;
	r->risk_a2a = keep.risk_a2a; /* (the job-aware tables' guard) */
	r->risk_sp = keep.risk_sp;
	r->risk_trees = keep.risk_trees;
	r->job_aware = 0;
	r->jobs_lost = 1;
	rc = 1;
out:
	sar_result_free(&r2);
	lft_set_free(&s2);
	return rc;
}

static int sar_route_ordered(const struct fabric *f, const struct sar_opts *o,
			     struct lft_set *s, struct sar_result *r,
			     struct osmre_err *err)
{
	struct sar_work sw = { 0 };
	int rc = -1, other = 0, v, nojobs = 0;

	memset(r, 0, sizeof(*r));
	r->efi_layered = r->efi_nojobs = -1; /* (not measured) */
	for (v = 0; v < SAR_SPS; v++)
		r->sp_a2a[v] = r->sp_rp[v] = -1;
	r->sp_fit = -1;
	if (refuse_split(f, err)) {
		sar_memo_clear(o->memo); /* the tables in force are not its */
		return -1;
	}
	if (work_init(&sw, f, o, r, err))
		goto out; /* (err says why) */
	if (collect_cas(&sw, r) || count_jobs(&sw, o->jobs))
		goto oom;
	/* a stable re-route where the failures took some minimal route: the
	 * tables in force may hold any shortest path (dfsssp_variants), so
	 * the trees are kept, and the others routed, on hops alone */
	if (o->prev && sw.g.lw && minimal_lost(&sw)) {
		free(sw.g.lw);
		sw.g.lw = NULL;
		sw.g.lg.w = NULL;
	}
	/* SAR (or DFSSSP without jobs) */
	sw.nd = order_dests(f, &sw.g, o->jobs, o->io, sw.ncas_on, sw.d);
	if (sw.nd < 0)
		goto oom;
	sw.weights = sar_weights_digest(&sw);
	if (route_all(&sw, s, sw.job_on))
		goto oom;
	r->job_aware = o->jobs && o->jobs->njobs;
	r->memo_lost = sw.from_memo ? sw.memo_lost : -1;
	/* a stable re-route keeps the variant the previous tables came from */
	if (r->job_aware && !o->prev && try_variants(&sw, s, r, err))
		goto out;
	if (sar_layer_paths(&sw, s, r, err))
		goto out;
	/* without jobs, within the budget: the best-balanced of DFSSSP's
	 * ways whose layers fit, or the best over the budget where those
	 * that fit trail it (dfsssp_variants) */
	if (!r->job_aware && !o->prev && !r->updn_lids &&
	    dfsssp_variants(&sw, s, r, &other, err))
		goto out;
	/* with jobs: against the tables without them, both layered */
	if (o->jobs && o->jobs->njobs && !o->prev &&
	    (nojobs = jobs_or_not(&sw, s, r, err)) < 0)
		goto out;
	rc = 0;
	goto out;
oom:
	osmre_fail(err, "out of memory");
out:
	/* with jobs the tables kept come from try_variants, whose loads and
	 * destination order are those of the last way it routed, even when
	 * DFSSSP's way (job_aware 0) was kept: only route_all's own pass, or
	 * a stable re-route's, has loads that match its tables */
	if (o->memo && nojobs <= 0)
		sar_remember(&sw, s,
			     rc == 0 && (o->prev || (!other && !sw.njobs)));
	work_free(&sw);
	if (rc)
		sar_result_free(r);
	return rc;
}

struct node_key {
	uint64_t guid;
	int node;
};

/* By GUID, then node index (no tie between real nodes). */
static int cmp_node_key(const void *a, const void *b)
{
	const struct node_key *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return x->node - y->node;
}

/*
 * sar in GUID order: sar's choices (the order of the destinations and
 * sources, every tie between two links or two switches) follow node
 * indices, and node indices follow the order of the input (the net
 * file's node blocks, OpenSM's discovery).  So sar routes a copy of f
 * whose nodes are in GUID order, and its tables and layers map back by
 * node: the same fabric in any order gets the same tables and the same
 * SLs (the LIDs being the same).  Fabrics whose node order is already
 * GUID order (osmre gen's) are routed as they are.
 */
int sar_route(const struct fabric *f, const struct sar_opts *o,
	      struct lft_set *s, struct sar_result *r, struct osmre_err *err)
{
	struct sar_opts oc = *o;
	struct lft_set sc = { 0 }, pc = { 0 };
	struct jobs jc;
	struct fabric *c = NULL;
	struct node_key *key = malloc(((size_t)f->nnodes + 1) * sizeof(*key));
	int *order = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	int *pos = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	int k, i, same = 1, rc = -1;

	memset(r, 0, sizeof(*r));
	if (!key || !order || !pos) {
		free(key);
		goto oom;
	}
	for (k = 0; k < f->nnodes; k++)
		key[k] = (struct node_key){ f->nodes[k].guid, k };
	qsort(key, (size_t)f->nnodes, sizeof(*key), cmp_node_key);
	for (k = 0; k < f->nnodes; k++) {
		order[k] = key[k].node;
		pos[order[k]] = k;
		same &= order[k] == k;
	}
	free(key);
	if (same) {
		free(order);
		free(pos);
		return sar_route_ordered(f, o, s, r, err);
	}
	c = fabric_reorder(f, order);
	if (!c ||
	    lft_set_for_fabric(c, s->n ? s->t[0].top : lids_max(f), &sc, err))
		goto oom;
	if (o->jobs) {
		jc = *o->jobs;
		jc.node = malloc(((size_t)jc.nhosts + 1) * sizeof(int));
		if (!jc.node)
			goto oom;
		for (i = 0; i < jc.nhosts; i++)
			jc.node[i] = pos[o->jobs->node[i]];
		oc.jobs = &jc;
	}
	if (o->prev) { /* its tables seen from c: by_node and node */
		pc = *o->prev;
		pc.lid_guid = NULL;
		pc.t = malloc(((size_t)pc.n + 1) * sizeof(*pc.t));
		pc.by_node = malloc(((size_t)f->nnodes + 1) * sizeof(int));
		if (!pc.t || !pc.by_node)
			goto oom;
		pc.nnodes = f->nnodes;
		for (i = 0; i < pc.n; i++) {
			pc.t[i] = o->prev->t[i];
			if (pc.t[i].node >= 0 && pc.t[i].node < f->nnodes)
				pc.t[i].node = pos[pc.t[i].node];
		}
		for (k = 0; k < f->nnodes; k++)
			pc.by_node[k] = order[k] < o->prev->nnodes ?
						o->prev->by_node[order[k]] :
						-1;
		oc.prev = &pc;
	}
	if (sar_route_ordered(c, &oc, &sc, r, err))
		goto out;
	for (k = 0; k < f->nnodes; k++) {
		const struct lft *from = lft_of_node(&sc, k);
		struct lft *to = lft_of_node(s, order[k]);

		if (from && to)
			memcpy(to->port, from->port,
			       (size_t)(to->top < from->top ? to->top :
							      from->top) +
				       1);
	}
	/* the sources stay in GUID order: the SL file too is the same */
	for (i = 0; i < r->ncas; i++)
		r->ca_node[i] = order[r->ca_node[i]];
	rc = 0;
	goto out;
oom:
	osmre_fail(err, "out of memory");
out:
	if (o->jobs && oc.jobs == &jc)
		free(jc.node);
	if (o->prev) {
		free(pc.t);
		free(pc.by_node);
	}
	lft_set_free(&sc);
	fabric_free(c);
	free(order);
	free(pos);
	return rc;
}

int sar_write_sls(FILE *fp, const struct fabric *f, const struct sar_result *r)
{
	return sl_map_write_paths(fp, f, "sar", r->layers, r->layer, r->ncas,
				  r->ca_node, r->ca_port, r->maxlid);
}

void sar_result_free(struct sar_result *r)
{
	free(r->ca_node);
	free(r->ca_port);
	free(r->layer);
	memset(r, 0, sizeof(*r));
}
