/* SPDX-License-Identifier: BSD-2-Clause */
/* Up*-down* escape routes for the high LIDs (see updn.h). */
#include <limits.h>
#include <stdlib.h>

#include "components.h"
#include "lids.h"
#include "ranks.h"
#include "updn.h"
#include "swgraph.h"

#define INF 0x3fffffff

struct ud {
	const struct fabric *f;
	/* the switches and their links (swgraph.h): those of switch i are
	 * sg.l[sg.out_first[i] .. sg.out_first[i + 1] - 1] */
	/* the switch graph: the caller's, or own */
	const struct swgraph *sg;
	struct swgraph own;
	int *ord;    /* position in (distance, GUID) order */
	int *by_ord; /* switch index at each position */
	int *dd, *len, *queue;
	/* balanced (sar's fallback): per adjacency entry, the routes that
	 * cross it so far; per switch, its CA ports (sources) and the flow
	 * and the choice of the LID being filled */
	uint64_t *load, *flow;
	int *ncas, *pick;
	/* per LID (0..tie_top): its place in (port GUID, LID) order, which
	 * breaks ties among equal ports: the same routes however the LIDs
	 * were numbered (OpenSM: in discovery order) */
	unsigned *tie, tie_top;
};

int updn_is_high(const struct fab_port *pt, unsigned lid)
{
	return pt->lid && pt->lmc && lid > pt->lid &&
	       lid < pt->lid + (1u << pt->lmc);
}

int updn_sl2vl(int escape_vl, int sl)
{
	return sl <= escape_vl ? sl : 0;
}

int updn_write_sls(FILE *fp, const struct fabric *f, int escape_vl)
{
	int i, p;
	unsigned lid;

	fprintf(fp,
		"# osmre update protocol: escape (high LIDs) on SL/VL %d\nsl2vl",
		escape_vl);
	for (i = 0; i < 16; i++)
		fprintf(fp, " %d", updn_sl2vl(escape_vl, i));
	fputc('\n', fp);
	for (i = 0; i < f->nnodes; i++) {
		const struct fab_node *n = &f->nodes[i];

		for (p = 1; p <= n->nports && !fab_is_switch(n) && !n->removed;
		     p++)
			for (lid = n->ports[p].lid + 1;
			     n->ports[p].lid &&
			     lid < n->ports[p].lid + (1u << n->ports[p].lmc);
			     lid++)
				fprintf(fp, "dest %u %d\n", lid, escape_vl);
	}
	return ferror(fp) ? -1 : 0;
}

static void ud_free(struct ud *u)
{
	swgraph_free(&u->own);
	free(u->ord);
	free(u->by_ord);
	free(u->dd);
	free(u->len);
	free(u->queue);
	free(u->load);
	free(u->flow);
	free(u->ncas);
	free(u->pick);
	free(u->tie);
}

/* u->tie; 0, or -1 with err. */
static int ud_ties(struct ud *u, struct osmre_err *err)
{
	struct lid_owner *own = NULL;
	unsigned max, lid, *l = NULL;
	int n = 0, i, rc = -1;

	if (lids_owners(u->f, &own, &max, err))
		return -1;
	l = malloc(((size_t)max + 1) * sizeof(unsigned));
	u->tie = calloc((size_t)max + 1, sizeof(unsigned));
	if (!l || !u->tie) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	for (lid = 1; lid <= max; lid++)
		if (own[lid].node >= 0)
			l[n++] = lid;
	if (lids_sort_guid(u->f, own, l, n, err))
		goto out;
	for (i = 0; i < n; i++)
		u->tie[l[i]] = (unsigned)i;
	u->tie_top = max;
	rc = 0;
out:
	free(own);
	free(l);
	return rc;
}

/* The key of lid's ties (u->tie). */
static unsigned ud_tie(const struct ud *u, unsigned lid)
{
	return lid <= u->tie_top ? u->tie[lid] : lid;
}

static int ud_graph(struct ud *u, const struct fabric *f)
{
	size_t n;

	u->f = f;
	if (!u->sg) {
		if (swgraph_build(f, &u->own))
			return -1;
		u->sg = &u->own;
	}
	n = (size_t)u->sg->nsw + 1;
	u->ord = malloc(n * sizeof(int));
	u->by_ord = malloc(n * sizeof(int));
	u->dd = malloc(n * sizeof(int));
	u->len = malloc(n * sizeof(int));
	u->queue = malloc(n * sizeof(int));
	if (!u->ord || !u->by_ord || !u->dd || !u->len || !u->queue)
		return -1;
	return 0;
}

struct key {
	int dist;
	int sw;
	uint64_t guid;
};

static int key_cmp(const void *x, const void *y)
{
	const struct key *a = x, *b = y;

	if (a->dist != b->dist)
		return a->dist < b->dist ? -1 : 1;
	return a->guid < b->guid ? -1 : a->guid > b->guid;
}

/* The order of the keys k (one per switch, freed here): u->ord and
 * u->by_ord. */
static void ud_order_keys(struct ud *u, struct key *k)
{
	int i;

	qsort(k, (size_t)u->sg->nsw, sizeof(*k), key_cmp);
	for (i = 0; i < u->sg->nsw; i++) {
		u->by_ord[i] = k[i].sw;
		u->ord[k[i].sw] = i;
	}
	free(k);
}

/*
 * The order from a set of roots (root[i] set): BFS distance, then GUID.
 * A switch the roots do not reach starts a BFS of its own (another
 * connected part), so every switch gets a position.
 */
static int ud_order(struct ud *u, const char *root)
{
	struct key *k = malloc(((size_t)u->sg->nsw + 1) * sizeof(*k));
	int i, j, head = 0, tail = 0;

	if (!k)
		return -1;

	for (i = 0; i < u->sg->nsw; i++) {
		u->dd[i] = INF;
		if (root[i]) {
			u->dd[i] = 0;
			u->queue[tail++] = i;
		}
	}
	for (i = 0;; i++) {
		while (head < tail) {
			int s = u->queue[head++];

			for (j = u->sg->out_first[s];
			     j < u->sg->out_first[s + 1]; j++)
				if (u->dd[u->sg->l[j].to] == INF) {
					u->dd[u->sg->l[j].to] = u->dd[s] + 1;
					u->queue[tail++] = u->sg->l[j].to;
				}
		}
		while (i < u->sg->nsw && u->dd[i] != INF)
			i++;
		if (i >= u->sg->nsw)
			break;
		u->dd[i] = 0;
		u->queue[tail++] = i;
	}
	for (i = 0; i < u->sg->nsw; i++)
		k[i] = (struct key){ u->dd[i], i,
				     u->f->nodes[u->sg->node[i]].guid };
	ud_order_keys(u, k);
	return 0;
}

/*
 * The order from given ranks (rank[] by fabric node, higher is up):
 * rank down, then GUID.  A switch without a rank (INT_MIN) comes last.
 */
static int ud_order_ranked(struct ud *u, const int *rank)
{
	struct key *k = malloc(((size_t)u->sg->nsw + 1) * sizeof(*k));
	int i, top = 0;

	if (!k)
		return -1;
	for (i = 0; i < u->sg->nsw; i++)
		if (rank[u->sg->node[i]] > top)
			top = rank[u->sg->node[i]];
	for (i = 0; i < u->sg->nsw; i++) {
		int rk = rank[u->sg->node[i]];

		k[i] = (struct key){ rk == INT_MIN ? INT_MAX : top - rk, i,
				     u->f->nodes[u->sg->node[i]].guid };
	}
	ud_order_keys(u, k);
	return 0;
}

/* dd: down-only distance to t; len: length of the route every switch
 * takes (INF: none). */
static void ud_dest(struct ud *u, int t)
{
	int i, j, head = 0, tail = 0;

	for (i = 0; i < u->sg->nsw; i++)
		u->dd[i] = INF;
	u->dd[t] = 0;
	u->queue[tail++] = t;
	while (head < tail) {
		int y = u->queue[head++];

		/* x above y reaches t down through y */
		for (j = u->sg->out_first[y]; j < u->sg->out_first[y + 1];
		     j++) {
			int x = u->sg->l[j].to;

			if (u->ord[x] < u->ord[y] && u->dd[x] == INF) {
				u->dd[x] = u->dd[y] + 1;
				u->queue[tail++] = x;
			}
		}
	}
	for (i = 0; i < u->sg->nsw; i++) {
		int s = u->by_ord[i], best = INF;

		if (u->dd[s] != INF) {
			u->len[s] = u->dd[s];
			continue;
		}
		for (j = u->sg->out_first[s]; j < u->sg->out_first[s + 1];
		     j++) {
			int n = u->sg->l[j].to;

			if (u->ord[n] < u->ord[s] && u->len[n] < best)
				best = u->len[n];
		}
		u->len[s] = best == INF ? INF : best + 1;
	}
}

/* 1 when the hop s -> n is on a route to t (ud_dest done). */
static int ud_next(const struct ud *u, int s, int n)
{
	if (u->dd[s] != INF) /* down, and n keeps going down */
		return u->ord[n] > u->ord[s] && u->dd[n] == u->dd[s] - 1;
	return u->ord[n] < u->ord[s] && u->len[n] == u->len[s] - 1;
}

/* Port of switch s towards t (ud_dest done) for LID lid, or LFT_NONE;
 * among several, the LID's tie key modulo their count. */
static int ud_port(const struct ud *u, int s, unsigned lid)
{
	int j, cnt = 0, pick;

	if (u->len[s] == INF)
		return LFT_NONE;
	for (j = u->sg->out_first[s]; j < u->sg->out_first[s + 1]; j++)
		cnt += ud_next(u, s, u->sg->l[j].to);
	if (!cnt)
		return LFT_NONE;
	pick = (int)(ud_tie(u, lid) % (unsigned)cnt);
	for (j = u->sg->out_first[s];; j++)
		if (ud_next(u, s, u->sg->l[j].to) && !pick--)
			return u->sg->l[j].port;
}

/* The adjacency entry of switch s towards t that carries the fewest
 * routes so far (ties: the LID's tie key modulo their count), or -1. */
static int ud_least(const struct ud *u, int s, unsigned lid)
{
	uint64_t best = UINT64_MAX;
	int j, cnt = 0, pick;

	if (u->len[s] == INF)
		return -1;
	for (j = u->sg->out_first[s]; j < u->sg->out_first[s + 1]; j++)
		if (ud_next(u, s, u->sg->l[j].to)) {
			if (u->load[j] < best) {
				best = u->load[j];
				cnt = 0;
			}
			cnt += u->load[j] == best;
		}
	if (!cnt)
		return -1;
	pick = (int)(ud_tie(u, lid) % (unsigned)cnt);
	for (j = u->sg->out_first[s];; j++)
		if (ud_next(u, s, u->sg->l[j].to) && u->load[j] == best &&
		    !pick--)
			return j;
}

/* The routes' loads towards one destination: every switch's sources
 * (its CA ports) flow along next[] (adjacency entries, -1: none),
 * farthest first by len[] (at most maxd). */
static void ud_add_flows(struct ud *u, const int *next, int maxd)
{
	int i, d;

	for (i = 0; i < u->sg->nsw; i++)
		u->flow[i] = (uint64_t)u->ncas[i];
	for (d = maxd; d > 0; d--)
		for (i = 0; i < u->sg->nsw; i++)
			if (u->len[i] == d && next[i] >= 0) {
				u->load[next[i]] += u->flow[i];
				u->flow[u->sg->l[next[i]].to] += u->flow[i];
			}
}

/* Balanced: every switch's choice for lid towards t (u->pick, adjacency
 * entries), then their loads. */
static void ud_balance(struct ud *u, int t, unsigned lid)
{
	int i, maxd = 0;

	for (i = 0; i < u->sg->nsw; i++) {
		u->pick[i] = i == t ? -1 : ud_least(u, i, lid);
		if (u->len[i] != INF && u->len[i] > maxd)
			maxd = u->len[i];
	}
	ud_add_flows(u, u->pick, maxd);
}

/* 1 when a leaf switch of t's part has no route to t. */
static int ud_unroutable(const struct ud *u, const char *leaf, const int *comp,
			 int t)
{
	int i;

	for (i = 0; i < u->sg->nsw; i++)
		if (leaf[i] && comp[u->sg->node[i]] == comp[u->sg->node[t]] &&
		    u->len[i] == INF)
			return 1;
	return 0;
}

/*
 * Roots: the highest-rank switches; with pick_one, one per connected part
 * (the lowest GUID of that part's highest rank).  Returns the count.
 */
static int ud_roots(const struct ud *u, const int *rank, const int *comp,
		    int pick_one, char *root)
{
	const struct fabric *f = u->f;
	int i, top = -1, n = 0, *best = NULL;

	for (i = 0; i < u->sg->nsw; i++)
		if (rank[u->sg->node[i]] > top)
			top = rank[u->sg->node[i]];
	if (pick_one) {
		/* each part's best: highest rank, then lowest GUID */
		best = malloc(((size_t)f->nnodes + 1) * sizeof(int));
		if (!best)
			return -1;
		for (i = 0; i < f->nnodes; i++)
			best[i] = -1;
		for (i = 0; i < u->sg->nsw; i++) {
			int m = u->sg->node[i], *b = &best[comp[m]];

			if (*b < 0 || rank[m] > rank[u->sg->node[*b]] ||
			    (rank[m] == rank[u->sg->node[*b]] &&
			     f->nodes[m].guid < f->nodes[u->sg->node[*b]].guid))
				*b = i;
		}
	}
	for (i = 0; i < u->sg->nsw; i++) {
		root[i] = pick_one ? best[comp[u->sg->node[i]]] == i :
				     rank[u->sg->node[i]] == top;
		n += root[i];
	}
	free(best);
	return n;
}

/* A LID of port pt that this routing fills: with want, the LIDs it
 * marks (want[0..top]); without, the high LIDs. */
static int ud_wanted(const struct fab_port *pt, unsigned lid,
		     const uint8_t *want, unsigned top)
{
	if (!want)
		return lid > pt->lid;
	return lid <= top && want[lid];
}

/* Calls each(u, arg, pt, sw, lid) for every LID of every CA port cabled
 * to a switch (sw: that switch's index). */
typedef void (*ud_lid_fn)(struct ud *u, void *arg, const struct fab_port *pt,
			  int sw, unsigned lid);
static void ud_ca_lids(struct ud *u, ud_lid_fn each, void *arg)
{
	const struct fabric *f = u->f;
	int i, p;

	for (i = 0; i < f->nnodes; i++) {
		const struct fab_node *n = &f->nodes[i];

		for (p = 1; p <= n->nports && !fab_is_switch(n) && !n->removed;
		     p++) {
			const struct fab_port *pt = &n->ports[p];
			unsigned lid;

			if (!pt->lid || pt->rnode < 0 ||
			    !fab_is_switch(&f->nodes[pt->rnode]))
				continue;
			for (lid = pt->lid; lid < pt->lid + (1u << pt->lmc);
			     lid++)
				each(u, arg, pt, u->sg->idx[pt->rnode], lid);
		}
	}
}

struct wanted {
	char *leaf;
	const uint8_t *want;
	unsigned top;
};

static void leaf_of_wanted(struct ud *u, void *arg, const struct fab_port *pt,
			   int sw, unsigned lid)
{
	struct wanted *w = arg;

	(void)u;
	if (ud_wanted(pt, lid, w->want, w->top))
		w->leaf[sw] = 1;
}

/* Leaf switches (with a CA port that has a wanted LID). */
static void ud_leaves(struct ud *u, char *leaf, const uint8_t *want,
		      unsigned top)
{
	struct wanted w = { leaf, want, top };
	int i;

	for (i = 0; i < u->sg->nsw; i++)
		leaf[i] = 0;
	ud_ca_lids(u, leaf_of_wanted, &w);
}

/* 1 when switch t has a CA port with a LID. */
static int has_ca(const struct ud *u, int t)
{
	const struct fab_node *n = &u->f->nodes[u->sg->node[t]];
	int p;

	for (p = 1; p <= n->nports; p++) {
		int c = n->ports[p].rnode;

		if (c >= 0 && !fab_is_switch(&u->f->nodes[c]) &&
		    u->f->nodes[c].ports[n->ports[p].rport].lid)
			return 1;
	}
	return 0;
}

/* Fills the wanted LIDs of the CAs on leaf t into every table. */
static void ud_fill(struct ud *u, struct lft_set *s, int t, long *nlids,
		    const uint8_t *want, unsigned top)
{
	const struct fabric *f = u->f;
	const struct fab_node *tn = &f->nodes[u->sg->node[t]];
	int p, i;
	unsigned lid;

	for (p = 1; p <= tn->nports; p++) {
		int c = tn->ports[p].rnode;
		const struct fab_port *pt;

		if (c < 0 || fab_is_switch(&f->nodes[c]))
			continue;
		pt = &f->nodes[c].ports[tn->ports[p].rport];
		for (lid = pt->lid; pt->lid && lid < pt->lid + (1u << pt->lmc);
		     lid++) {
			if (!ud_wanted(pt, lid, want, top))
				continue;
			(*nlids)++;
			if (u->load)
				ud_balance(u, t, lid);
			for (i = 0; i < u->sg->nsw; i++) {
				struct lft *tb = lft_of_node(s, u->sg->node[i]);
				int q;

				if (!tb || lid > tb->top)
					continue;
				if (i == t)
					q = p;
				else if (!u->load)
					q = ud_port(u, i, lid);
				else
					q = u->pick[i] < 0 ?
						    LFT_NONE :
						    u->sg->l[u->pick[i]].port;
				tb->port[lid] = (uint8_t)q;
			}
		}
	}
}

/* Balanced choices: the load arrays, and each switch's CA ports with a
 * LID as its sources.  0, or -1 (no memory). */
static int ud_balanced(struct ud *u)
{
	size_t n = (size_t)u->sg->nsw + 1;
	int i, p;

	u->load = calloc((size_t)u->sg->out_first[u->sg->nsw] + 1,
			 sizeof(uint64_t));
	u->flow = malloc(n * sizeof(uint64_t));
	u->ncas = calloc(n, sizeof(int));
	u->pick = malloc(n * sizeof(int));
	if (!u->load || !u->flow || !u->ncas || !u->pick)
		return -1;
	for (i = 0; i < u->sg->nsw; i++) {
		const struct fab_node *nd = &u->f->nodes[u->sg->node[i]];

		for (p = 1; p <= nd->nports; p++) {
			int c = nd->ports[p].rnode;

			u->ncas[i] +=
				c >= 0 && !fab_is_switch(&u->f->nodes[c]) &&
				u->f->nodes[c].ports[nd->ports[p].rport].lid;
		}
	}
	return 0;
}

/* The route of LID lid in s from every switch, followed (memoized):
 * each switch's sources flow along it into u->load.  hop: scratch;
 * adj_of: per switch and port (stride), the adjacency entry. */
static void preload_lid(struct ud *u, const struct lft_set *s, int *hop,
			const int *adj_of, int stride, unsigned lid)
{
	int i, d, dmax = 0;

	/* hop[i]: i's next adjacency entry; len[i]: its hops to the end */
	for (i = 0; i < u->sg->nsw; i++) {
		const struct lft *tb = lft_of_node(s, u->sg->node[i]);
		int q = tb ? lft_get(tb, lid) : LFT_NONE;

		hop[i] = q == LFT_NONE || q >= stride ? -1 :
							adj_of[i * stride + q];
		u->len[i] = -1;
	}
	for (i = 0; i < u->sg->nsw; i++) {
		int x = i, k = 0;

		while (u->len[x] == -1 && hop[x] >= 0 && k <= u->sg->nsw) {
			u->queue[k++] = x;
			u->len[x] = -2; /* on this walk */
			x = u->sg->l[hop[x]].to;
		}
		d = u->len[x] >= 0 ? u->len[x] :
		    u->len[x] == -1 ? 0 : /* the end: a CA port, or none */
				      INF; /* a loop */
		if (u->len[x] == -1)
			u->len[x] = 0;
		while (k--) {
			d = d == INF ? INF : d + 1;
			u->len[u->queue[k]] = d;
		}
		if (u->len[i] != INF && u->len[i] > dmax)
			dmax = u->len[i];
	}
	ud_add_flows(u, hop, dmax);
}

struct preload {
	const struct lft_set *s;
	const uint8_t *want;
	unsigned top;
	int *hop;
	const int *adj_of;
	int stride;
};

static void preload_one(struct ud *u, void *arg, const struct fab_port *pt,
			int sw, unsigned lid)
{
	struct preload *pl = arg;

	(void)pt;
	(void)sw;
	if (lid > pl->top || !pl->want[lid])
		preload_lid(u, pl->s, pl->hop, pl->adj_of, pl->stride, lid);
}

/*
 * Balanced: the loads of the routes already in s, to the CA LIDs that
 * are not wanted (sar's own paths on the other layers), so that the
 * fallback's choices avoid the links those already crowd.  0, or -1 (no
 * memory).
 */
static int ud_preload(struct ud *u, const struct lft_set *s,
		      const uint8_t *want, unsigned top)
{
	const struct fabric *f = u->f;
	int *adj_of = NULL,
	    *hop = malloc(((size_t)u->sg->nsw + 1) * sizeof(int));
	int i, j, stride = 1;

	for (i = 0; i < u->sg->nsw; i++)
		if (f->nodes[u->sg->node[i]].nports + 1 > stride)
			stride = f->nodes[u->sg->node[i]].nports + 1;
	if (hop)
		adj_of = malloc(((size_t)u->sg->nsw * (size_t)stride + 1) *
				sizeof(int));
	if (!hop || !adj_of) {
		free(hop);
		return -1;
	}
	for (i = 0; i < u->sg->nsw * stride; i++)
		adj_of[i] = -1;
	for (i = 0; i < u->sg->nsw; i++)
		for (j = u->sg->out_first[i]; j < u->sg->out_first[i + 1]; j++)
			adj_of[i * stride + u->sg->l[j].port] = j;
	{
		struct preload pl = { s, want, top, hop, adj_of, stride };

		ud_ca_lids(u, preload_one, &pl);
	}
	free(hop);
	free(adj_of);
	return 0;
}

static int route_lids(const struct fabric *f, const struct swgraph *sg,
		      struct lft_set *s, const uint8_t *want, unsigned top,
		      const int *order_rank, struct updn_info *info,
		      struct osmre_err *err)
{
	struct ud u = { .sg = sg };
	size_t n = (size_t)f->nnodes + 1;
	int *rank = malloc(n * sizeof(int)), *comp = malloc(n * sizeof(int));
	char *root = NULL, *leaf = NULL, *src = NULL;
	int rc = -1, one, t, bad = 0;
	struct updn_info in = { 0 };

	if (!rank || !comp || ud_graph(&u, f) ||
	    !(root = malloc((size_t)u.sg->nsw + 1)) ||
	    !(leaf = malloc((size_t)u.sg->nsw + 1)) ||
	    !(src = malloc((size_t)u.sg->nsw + 1)) ||
	    ranks_compute(f, rank) < 0 || switch_components(f, comp)) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	if (ud_ties(&u, err))
		goto out;
	if (want && (ud_balanced(&u) || ud_preload(&u, s, want, top))) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	ud_leaves(&u, leaf, want, top);
	/* every switch with a CA port must reach the destinations */
	if (want)
		for (t = 0; t < u.sg->nsw; t++)
			src[t] = has_ca(&u, t);
	/* the caller's order: no roots to fall back on, a switch without
	 * a path keeps LFT_NONE */
	if (order_rank && ud_order_ranked(&u, order_rank)) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	for (one = 0; one < 2 && !order_rank; one++) {
		in.roots = ud_roots(&u, rank, comp, one, root);
		if (in.roots < 0) {
			osmre_fail(err, "out of memory");
			goto out;
		}
		in.fallback = one;
		if (ud_order(&u, root)) {
			osmre_fail(err, "out of memory");
			goto out;
		}
		for (t = 0, bad = 0; t < u.sg->nsw && !bad; t++)
			if (leaf[t]) {
				ud_dest(&u, t);
				bad = ud_unroutable(&u, want ? src : leaf, comp,
						    t);
			}
		if (!bad)
			break;
	}
	if (bad) { /* cannot happen with one root per part */
		osmre_fail(err, "up*/down*: a leaf switch has no path");
		goto out;
	}
	for (t = 0; t < u.sg->nsw; t++)
		if (leaf[t]) {
			ud_dest(&u, t);
			ud_fill(&u, s, t, &in.lids, want, top);
		}
	if (info)
		*info = in;
	rc = 0;
out:
	ud_free(&u);
	free(rank);
	free(comp);
	free(root);
	free(leaf);
	free(src);
	return rc;
}

int updn_route_high(const struct fabric *f, struct lft_set *s,
		    struct updn_info *info, struct osmre_err *err)
{
	return route_lids(f, NULL, s, NULL, 0, NULL, info, err);
}

int updn_route_lids(const struct fabric *f, const struct swgraph *sg,
		    struct lft_set *s, const uint8_t *want, unsigned top,
		    struct updn_info *info, struct osmre_err *err)
{
	return route_lids(f, sg, s, want, top, NULL, info, err);
}

int updn_route_lids_ranked(const struct fabric *f, struct lft_set *s,
			   const uint8_t *want, unsigned top, const int *rank,
			   struct updn_info *info, struct osmre_err *err)
{
	return route_lids(f, NULL, s, want, top, rank, info, err);
}
