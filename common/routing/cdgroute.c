/* SPDX-License-Identifier: BSD-2-Clause */
/* Destination routes on one VL with an acyclic dependency graph (cdgroute.h). */
#include "cdgroute.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lids.h"
#include "risk.h"
#include "swgraph.h"
#include "cmp.h"

/*
 * Channels are the switch-to-switch ports: channel base[v] + p leaves
 * switch v by port p (p = 1 .. nports; the others unused).  A dependency
 * (channel c into switch w, then w's port q) is dep[c * stride + q].
 */
/* bfs's answers kept at most (bytes: 2,048 switches). */
#define CDG_BFS_KEEP ((size_t)32 << 20)
/* Channels of the cycle paths kept at most (4 MiB of them). */
#define CDG_POOL     (1 << 20)

struct cdg {
	const struct fabric *f;
	struct lft_set *s;
	/* the switches and their channels (swgraph.h): sg.node (switch ->
	 * fabric node), sg.idx (fabric node -> switch, -1), sg.chan_first
	 * (switch -> its first channel, port 0's) */
	struct swgraph sg;
	int nsw, nch, stride;
	int *ch_from, *ch_to; /* per channel; ch_to -1: none */
	int *nca;	      /* CA ports per switch */
	int *dep;	      /* counts */
	/* the dependencies counted, as lists: successors and predecessors
	 * of each channel (stride each at most) */
	int *succ, *nsucc, *pred, *npred;
	/* per dependency: the destination (serial) whose tree found it
	 * closing a cycle; the graph only grows while one tree does */
	int *cyc, serial;
	int *ord;		/* a topological order */
	const struct lft **tab; /* switch -> its table */
	int *kid, *sib;		/* tree_of's children: first, next sibling */
	int *wport;		/* tree_of: the port of next[v] towards v */
	/* bfs's answers per switch t (NULL: too many switches to keep
	 * them): dist, then queue, nsw each; bfs_done[t] once there */
	int *bfs_keep;
	uint8_t *bfs_done;
	double *load; /* per channel */
	/* scratch */
	int *mark, stamp;
	int *stk, *fw, *bw, nfw, nbw;
	/*
	 * The cycles found: per dependency that closed one, the path of
	 * dependencies back to it (cyc_at: its start in cyc_pool, -1 none;
	 * cyc_len), checked again before the next search for the same
	 * dependency; a path whose dependencies all remain still closes
	 * the cycle, so the search is spared.  par: the way back from c
	 * to d of a search that met (search_both); bpar: the backward
	 * search's way on towards c.
	 */
	int *cyc_at, *cyc_len, *cyc_pool, pool_n, pool_cap;
	int *par, *bpar;
	int *tmp;
	uint64_t *key;
	/* per destination */
	int *dist, *queue, *next, *outc, *att, natt, *acc;
	double *pcost; /* per switch in the new tree: its path's load */
	/* Nue's order (CDG_WEIGHTED): a tree grown by the least path
	 * weight, w0 + load per link, any length; heap of candidates */
	int weighted;
	double w0;
	struct wcand *heap, *wtop; /* wtop: per switch, its lightest pushed */
	int nheap;
	int *wpushed; /* per channel: the serial of the tree it was pushed in */
	/* the tree a destination had (reroute): per switch its channel,
	 * next switch and depth (-1: not in it), and those kept (escape) */
	int *old_outc, *old_next, *old_depth, *by_depth;
	uint8_t *fixed;
};

static int out_ch(const struct cdg *g, int v, int port)
{
	return g->sg.chan_first[v] + port;
}

/* The two searches met on dependency (a, b), a reached from d, b
 * reaching c: par then leads back from c to d. */
static int search_met(struct cdg *g, int a, int b, int c)
{
	g->par[b] = a;
	while (b != c) {
		g->par[g->bpar[b]] = b;
		b = g->bpar[b];
	}
	return 1;
}

/*
 * Pearce-Kelly's two searches for dependency (c, d), ord[d] = lb <
 * ord[c] = ub, in turns so that a cycle is found where they meet rather
 * than at the end of one: forward from d over successors (ords < ub),
 * backward from c over predecessors (ords > lb).  1 when they meet (a
 * path from d to c: the dependency would close a cycle; par leads back
 * from c to d); else 0, with every channel each reached in g->fw and
 * g->bw, the same sets whatever the order of the search.
 */
static int search_both(struct cdg *g, int d, int c, int lb, int ub)
{
	int hf = 0, hb = 0, fs, bs;

	g->stamp += 2; /* marks from earlier searches stay below fs */
	fs = g->stamp;
	bs = fs + 1;
	g->fw[0] = d;
	g->bw[0] = c;
	g->nfw = g->nbw = 1;
	g->mark[d] = fs;
	g->mark[c] = bs;
	while (hf < g->nfw || hb < g->nbw) {
		int u, i;

		if (hf < g->nfw) {
			u = g->fw[hf++];
			for (i = 0; i < g->nsucc[u]; i++) {
				int e = g->succ[(size_t)u * g->stride + i];

				if (g->mark[e] == bs)
					return search_met(g, u, e, c);
				if (g->mark[e] != fs && g->ord[e] < ub) {
					g->mark[e] = fs;
					g->par[e] = u;
					g->fw[g->nfw++] = e;
				}
			}
		}
		if (hb < g->nbw) {
			u = g->bw[hb++];
			for (i = 0; i < g->npred[u]; i++) {
				int e = g->pred[(size_t)u * g->stride + i];

				if (g->mark[e] == fs)
					return search_met(g, e, u, c);
				if (g->mark[e] != bs && g->ord[e] > lb) {
					g->mark[e] = bs;
					g->bpar[e] = u;
					g->bw[g->nbw++] = e;
				}
			}
		}
	}
	return 0;
}

/* Sorts n channels by their order: keys (ord, channel) in g->key. */
static void sort_by_ord(struct cdg *g, int *ch, int n)
{
	int i;

	for (i = 0; i < n; i++)
		g->key[i] = (uint64_t)g->ord[ch[i]] << 32 | (uint32_t)ch[i];
	qsort(g->key, (size_t)n, sizeof(uint64_t), cmp_u64);
	for (i = 0; i < n; i++)
		ch[i] = (int)(g->key[i] & 0xffffffffu);
}

/* Dependency (c, port q after it) counted for the first time, or no more. */
static void dep_link(struct cdg *g, int c, int q)
{
	int d = out_ch(g, g->ch_to[c], q);

	g->succ[(size_t)c * g->stride + g->nsucc[c]++] = d;
	g->pred[(size_t)d * g->stride + g->npred[d]++] = c;
}

static void list_drop(int *l, int *n, int x)
{
	int i;

	for (i = 0; i < *n; i++)
		if (l[i] == x) {
			l[i] = l[--*n];
			return;
		}
}

static void dep_unlink(struct cdg *g, int c, int q)
{
	int d = out_ch(g, g->ch_to[c], q);

	list_drop(g->succ + (size_t)c * g->stride, &g->nsucc[c], d);
	list_drop(g->pred + (size_t)d * g->stride, &g->npred[d], c);
}

/* 1 when the path kept for dependency k (cycle_keep) is still whole. */
static int cycle_still(const struct cdg *g, size_t k)
{
	const int *p = g->cyc_pool + g->cyc_at[k];
	int i;

	for (i = 0; i + 1 < g->cyc_len[k]; i++) {
		int w = g->ch_to[p[i]];

		if (w < 0 || g->ch_from[p[i + 1]] != w ||
		    !g->dep[(size_t)p[i] * g->stride +
			    (p[i + 1] - g->sg.chan_first[w])])
			return 0;
	}
	return 1;
}

/* The path dfs_fw found from y to x (par), kept for dependency k; the
 * pool starts again from empty when full (paths are hints). */
static void cycle_keep(struct cdg *g, size_t k, int y, int x)
{
	int n = 1, c, i;

	for (c = x; c != y; c = g->par[c])
		n++;
	if (n > g->pool_cap)
		return;
	if (g->pool_n + n > g->pool_cap) {
		memset(g->cyc_at, -1,
		       ((size_t)g->nch * g->stride + 1) * sizeof(int));
		g->pool_n = 0;
	}
	g->cyc_at[k] = g->pool_n;
	g->cyc_len[k] = n;
	for (c = x, i = n - 1; i >= 0; i--, c = i >= 0 ? g->par[c] : c)
		g->cyc_pool[g->pool_n + i] = c;
	g->pool_n += n;
}

/*
 * Adds one count to dependency (channel c, then port q of the switch c
 * leads to); 0, or -1 (nothing changed) when it would close a cycle.
 */
static int dep_add(struct cdg *g, int c, int q)
{
	size_t k = (size_t)c * g->stride + q;
	int d = out_ch(g, g->ch_to[c], q), lb, ub, i, j, n;

	if (g->dep[k]) {
		g->dep[k]++;
		return 0;
	}
	if (g->ord[c] < g->ord[d]) {
		g->dep[k] = 1;
		dep_link(g, c, q);
		return 0;
	}
	/* a path from d to c found before, still there */
	if (g->cyc_at[k] >= 0 && cycle_still(g, k))
		return -1;
	/* Pearce-Kelly: the region between ord[d] and ord[c] */
	lb = g->ord[d];
	ub = g->ord[c];
	if (search_both(g, d, c, lb, ub)) {
		cycle_keep(g, k, d, c);
		return -1;
	}
	sort_by_ord(g, g->bw, g->nbw);
	sort_by_ord(g, g->fw, g->nfw);
	/* both sets' ords in order: a merge of the two sorted lists */
	n = i = j = 0;
	while (i < g->nbw || j < g->nfw) {
		int from_bw =
			j >= g->nfw ||
			(i < g->nbw && g->ord[g->bw[i]] < g->ord[g->fw[j]]);

		g->tmp[n++] = from_bw ? g->ord[g->bw[i++]] : g->ord[g->fw[j++]];
	}
	/* the backward set first, then the forward set */
	for (i = 0; i < g->nbw; i++)
		g->ord[g->bw[i]] = g->tmp[i];
	for (i = 0; i < g->nfw; i++)
		g->ord[g->fw[i]] = g->tmp[g->nbw + i];
	g->dep[k] = 1;
	dep_link(g, c, q);
	return 0;
}

static void dep_del(struct cdg *g, int c, int q)
{
	if (!--g->dep[(size_t)c * g->stride + q])
		dep_unlink(g, c, q);
}

/*
 * The tree of lid in the tables: next[v] (switch, -1 none), outc[v]
 * (channel, -1 at the destination's switch or none); the switches in
 * g->att from the destination outwards (each after its next).
 */
static void tree_of(struct cdg *g, unsigned lid, int t)
{
	int v, i;

	for (v = 0; v < g->nsw; v++)
		g->kid[v] = -1;
	for (v = 0; v < g->nsw; v++) {
		const struct lft *tb = g->tab[v];
		const struct fab_node *n = &g->f->nodes[g->sg.node[v]];
		int o = lft_get(tb, lid), w, *at;

		g->next[v] = -1;
		g->outc[v] = -1;
		g->dist[v] = -1;
		if (v == t || o == LFT_NONE || o < 1 || o > n->nports)
			continue;
		if ((w = g->ch_to[out_ch(g, v, o)]) < 0)
			continue;
		g->outc[v] = out_ch(g, v, o);
		g->next[v] = w;
		/* w's children in the order of w's ports to them */
		g->wport[v] = n->ports[o].rport;
		for (at = &g->kid[w]; *at >= 0 && g->wport[*at] < g->wport[v];
		     at = &g->sib[*at])
			;
		g->sib[v] = *at;
		*at = v;
	}
	/* order: depth along next, breadth first (a loop or a dead end:
	 * left out) */
	g->natt = 0;
	g->dist[t] = 0;
	g->att[g->natt++] = t;
	for (i = 0; i < g->natt; i++) {
		int w = g->att[i], u;

		for (u = g->kid[w]; u >= 0; u = g->sib[u]) {
			g->dist[u] = g->dist[w] + 1;
			g->att[g->natt++] = u;
		}
	}
}

/* The current tree's loads (sign +1 or -1) and, with deps, its
 * dependencies: DEPS_RAW counts alone (the order made afterwards),
 * DEPS_ORDERED through dep_add (a set that was acyclic: admitted). */
enum { DEPS_NONE, DEPS_RAW, DEPS_ORDERED };
static void tree_apply(struct cdg *g, int sign, int deps)
{
	int i;

	for (i = 0; i < g->natt; i++)
		g->acc[g->att[i]] = 0;
	for (i = g->natt - 1; i >= 1; i--) {
		int v = g->att[i], w = g->next[v];

		g->acc[v] += g->nca[v];
		g->load[g->outc[v]] += sign * g->acc[v];
		g->acc[w] += g->acc[v];
		if (deps && g->outc[w] >= 0) {
			int c = g->outc[v],
			    q = g->outc[w] - g->sg.chan_first[w];
			size_t k = (size_t)c * g->stride + q;

			if (sign < 0)
				dep_del(g, c, q);
			else if (deps == DEPS_ORDERED)
				(void)dep_add(g, c, q);
			else if (!g->dep[k]++)
				dep_link(g, c, q);
		}
	}
}

/* Shortest distances to t over switch links (dist), the switches in
 * their order (queue); kept per t where there is room. */
static void bfs(struct cdg *g, int t)
{
	int h = 0, n = 0, v;
	int *keep = g->bfs_keep ? g->bfs_keep + (size_t)t * 2 * g->nsw : NULL;

	if (keep && g->bfs_done[t]) {
		/* the queue holds the switches reached, no more */
		memcpy(g->dist, keep, (size_t)g->nsw * sizeof(int));
		for (v = 0; v < g->nsw; v++)
			n += g->dist[v] >= 0;
		memcpy(g->queue, keep + g->nsw, (size_t)n * sizeof(int));
		return;
	}
	for (v = 0; v < g->nsw; v++)
		g->dist[v] = -1;
	g->dist[t] = 0;
	g->queue[n++] = t;
	while (h < n) {
		int w = g->queue[h++], k;

		/* w's links to switches, in port order */
		for (k = g->sg.out_first[w]; k < g->sg.out_first[w + 1]; k++) {
			int u = g->sg.l[k].to;

			if (g->dist[u] < 0) {
				g->dist[u] = g->dist[w] + 1;
				g->queue[n++] = u;
			}
		}
	}
	if (keep) {
		memcpy(keep, g->dist, (size_t)g->nsw * sizeof(int));
		memcpy(keep + g->nsw, g->queue, (size_t)n * sizeof(int));
		g->bfs_done[t] = 1;
	}
}

/*
 * A port by which a switch may join the tree: the cost of the path it
 * would take (the squares of its links' loads, summed), the hops of that
 * path.
 */
struct cand {
	double load;
	int hops, port;
};

static int cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->hops != y->hops)
		return x->hops < y->hops ? -1 : 1;
	if (x->load != y->load)
		return x->load < y->load ? -1 : 1;
	return (x->port > y->port) - (x->port < y->port);
}

/* What link c adds to a path's cost: its load squared (shortest first),
 * or w0 + its load (Nue's link weight, CDG_WEIGHTED). */
static double link_cost(const struct cdg *g, int c)
{
	return g->weighted ? g->w0 + g->load[c] : g->load[c] * g->load[c];
}

/* 1 when dependency (c, port q after it) needs no search: counted, or
 * already in the order. */
static int dep_free(const struct cdg *g, int c, int q)
{
	return g->dep[(size_t)c * g->stride + q] ||
	       g->ord[c] < g->ord[out_ch(g, g->ch_to[c], q)];
}

/* v joins through channel c (to w, in the tree); 0 when its dependency
 * would close a cycle. */
static int try_join(struct cdg *g, int v, int c, int *hops)
{
	int w = g->ch_to[c];

	if (g->outc[w] >= 0) {
		int q = g->outc[w] - g->sg.chan_first[w];
		size_t k = (size_t)c * g->stride + q;

		if (g->cyc[k] == g->serial)
			return 0;
		if (dep_add(g, c, q)) {
			g->cyc[k] = g->serial;
			return 0;
		}
	}
	g->outc[v] = c;
	g->next[v] = w;
	hops[v] = hops[w] + 1;
	g->pcost[v] = g->pcost[w] + link_cost(g, c);
	g->att[g->natt++] = v;
	return 1;
}

/*
 * Switch v joins the tree through a port to a switch in it at distance
 * want (any distance: want < 0), fewest hops first, then the path of the
 * least cost (its links' loads squared, summed: DFSSSP's path weight, the
 * most loaded links avoided harder), whose dependency is admitted; 1 when
 * it joined.  Among the least costly ports, one whose dependency needs no
 * search goes first.
 */
static int join(struct cdg *g, int v, int want, int *hops)
{
	struct cand cd[FAB_MAX_PORTS];
	int nc = 0, k, i;

	/* v's links to switches (swgraph's, in port order: no walk over
	 * its CA ports) */
	for (k = g->sg.out_first[v]; k < g->sg.out_first[v + 1]; k++) {
		const struct swlink *l = &g->sg.l[k];
		int w = l->to, c = out_ch(g, v, l->port);

		if (hops[w] < 0)
			continue;
		if (want >= 0 && g->dist[w] != want)
			continue;
		cd[nc].load = g->pcost[w] + link_cost(g, c);
		cd[nc].hops = hops[w];
		cd[nc++].port = l->port;
	}
	if (!nc)
		return 0;
	/* by insertion (a handful; cand_cmp is a total order) */
	for (i = 1; i < nc; i++) {
		struct cand x = cd[i];
		int j;

		for (j = i; j > 0 && cand_cmp(&cd[j - 1], &x) > 0; j--)
			cd[j] = cd[j - 1];
		cd[j] = x;
	}
	for (i = 0;
	     i < nc && cd[i].hops == cd[0].hops && cd[i].load == cd[0].load;
	     i++) {
		int c = out_ch(g, v, cd[i].port), w = g->ch_to[c];

		if ((g->outc[w] < 0 ||
		     dep_free(g, c, g->outc[w] - g->sg.chan_first[w])) &&
		    try_join(g, v, c, hops))
			return 1;
	}
	for (i = 0; i < nc; i++)
		if (try_join(g, v, out_ch(g, v, cd[i].port), hops))
			return 1;
	return 0;
}

/* A switch's way into the tree in Nue's order (CDG_WEIGHTED): the
 * weight of the path it would take, its hops, the switch, the channel. */
struct wcand {
	double cost;
	int hops, v, c;
};

/* Lighter first, then fewer hops, then by switch and channel: a total
 * order, so the tree does not depend on the heap's layout. */
static int wcand_less(const struct wcand *x, const struct wcand *y)
{
	if (x->cost != y->cost)
		return x->cost < y->cost;
	if (x->hops != y->hops)
		return x->hops < y->hops;
	if (x->v != y->v)
		return x->v < y->v;
	return x->c < y->c;
}

static void heap_push(struct cdg *g, struct wcand x)
{
	int i = g->nheap++;

	while (i > 0) {
		int p = (i - 1) / 2;

		if (!wcand_less(&x, &g->heap[p]))
			break;
		g->heap[i] = g->heap[p];
		i = p;
	}
	g->heap[i] = x;
}

static struct wcand heap_pop(struct cdg *g)
{
	struct wcand top = g->heap[0], x = g->heap[--g->nheap];
	int i = 0, n = g->nheap;

	if (!n)
		return top;
	for (;;) {
		int k = 2 * i + 1;

		if (k >= n)
			break;
		if (k + 1 < n && wcand_less(&g->heap[k + 1], &g->heap[k]))
			k++;
		if (!wcand_less(&g->heap[k], &x))
			break;
		g->heap[i] = g->heap[k];
		i = k;
	}
	g->heap[i] = x;
	return top;
}

/* Candidate x onto the heap, unless its channel was pushed for this
 * tree already or a lighter one for its switch is there (wtop). */
static void wpush(struct cdg *g, struct wcand x)
{
	if (g->wpushed[x.c] == g->serial || !wcand_less(&x, &g->wtop[x.v]))
		return;
	g->wtop[x.v] = x;
	g->wpushed[x.c] = g->serial;
	heap_push(g, x);
}

/* Switch u's way in through channel c to w (in the tree). */
static struct wcand wcand_of(const struct cdg *g, int u, int c, int w,
			     const int *hops)
{
	return (struct wcand){ g->pcost[w] + link_cost(g, c), hops[w] + 1, u,
			       c };
}

/* The links into switch w (in the tree) from the switches not in it
 * (swgraph's in-links: no walk over w's CA ports). */
static void push_around(struct cdg *g, int w, const int *hops)
{
	int k;

	for (k = g->sg.in_first[w]; k < g->sg.in_first[w + 1]; k++) {
		const struct swlink *l = &g->sg.l[g->sg.in[k]];

		if (hops[l->from] < 0)
			wpush(g,
			      wcand_of(g, l->from, out_ch(g, l->from, l->port),
				       w, hops));
	}
}

/* Switch v's lightest link was refused: every other link of v into the
 * tree not pushed yet onto the heap, with the keys they would have had
 * all along (each channel at most once per tree: the heap never holds
 * more than the channels), so the tries come in the order they would if
 * every candidate had been pushed. */
static void push_others(struct cdg *g, int v, const int *hops)
{
	int k;

	g->wtop[v].cost = HUGE_VAL;
	for (k = g->sg.out_first[v]; k < g->sg.out_first[v + 1]; k++) {
		const struct swlink *l = &g->sg.l[k];
		int c = out_ch(g, v, l->port);

		if (hops[l->to] >= 0 && g->wpushed[c] != g->serial) {
			g->wpushed[c] = g->serial;
			heap_push(g, wcand_of(g, v, c, l->to, hops));
		}
	}
}

/*
 * Nue's tree (CDG_WEIGHTED): from the switches in it (the destination's
 * and the escape's), Dijkstra's order by path weight (w0 + load per
 * link, any length), each switch joining by the lightest link whose
 * dependency keeps the graph acyclic.  A link refused stays refused for
 * this tree (dependencies are only added while it grows), so a switch
 * left out has no admitted link at all.  Only a switch's lightest
 * candidate so far is on the heap until one is refused.
 */
static void grow_weighted(struct cdg *g, int *hops)
{
	int i;

	for (i = 0; i < g->nsw; i++)
		g->wtop[i].cost = HUGE_VAL;
	g->nheap = 0;
	for (i = 0; i < g->natt; i++)
		push_around(g, g->att[i], hops);
	while (g->nheap) {
		struct wcand x = heap_pop(g);

		if (hops[x.v] >= 0)
			continue;
		if (try_join(g, x.v, x.c, hops))
			push_around(g, x.v, hops);
		else
			push_others(g, x.v, hops);
	}
}

/* Drops the dependencies the new tree has added so far. */
static void undo_new(struct cdg *g)
{
	int i;

	for (i = 1; i < g->natt; i++) {
		int v = g->att[i], w = g->next[v];

		if (g->outc[w] >= 0)
			dep_del(g, g->outc[v],
				g->outc[w] - g->sg.chan_first[w]);
	}
}

/*
 * The switches of pend[0..np) join the escape (fixed): they and every
 * switch on their previous paths to t keep their previous routes.  0
 * when some previous path does not reach t (no escape).
 */
static int escape_add(struct cdg *g, const int *pend, int np, int t)
{
	int i, v;

	for (i = 0; i < np; i++)
		for (v = pend[i]; v != t && !g->fixed[v]; v = g->old_next[v]) {
			if (g->old_depth[v] < 0)
				return 0;
			g->fixed[v] = 1;
		}
	return 1;
}

/*
 * lid (at switch t) again: 1 when it has a new tree (in the tables), 0
 * when it keeps its own.  A switch that no link admits into the new tree
 * keeps its previous route, with every switch on its previous path (the
 * escape: those dependencies were acyclic with all the others'), and
 * the tree grows again around them, as Nue falls back on its escape
 * paths; the whole previous tree at worst.
 */
static int reroute(struct cdg *g, unsigned lid, int t, int *hops, int *pend,
		   long *longer)
{
	int v, i, np = 0, progress, reach = 0, nfix = 0, nold;

	tree_of(g, lid, t);
	for (v = 0; v < g->nsw; v++) {
		g->old_outc[v] = g->outc[v];
		g->old_next[v] = g->next[v];
		g->old_depth[v] = g->dist[v];
		g->fixed[v] = 0;
	}
	/* the previous tree's switches by depth (tree_of's order) */
	nold = g->natt;
	memcpy(g->by_depth, g->att, (size_t)nold * sizeof(int));
	tree_apply(g, -1, DEPS_ORDERED);
	bfs(g, t);
	for (v = 0; v < g->nsw; v++)
		reach += g->dist[v] >= 0;
	for (;;) {
		g->serial++;
		for (v = 0; v < g->nsw; v++) {
			hops[v] = -1;
			g->next[v] = -1;
			g->outc[v] = -1;
		}
		hops[t] = 0;
		g->pcost[t] = 0;
		g->natt = 0;
		g->att[g->natt++] = t;
		/* the escape first, parents before children */
		for (i = 1; nfix && i < nold; i++) {
			int w, c;

			v = g->by_depth[i];
			if (!g->fixed[v])
				continue;
			w = g->old_next[v];
			c = g->old_outc[v];
			if (g->outc[w] >= 0)
				(void)dep_add(g, c,
					      g->outc[w] - g->sg.chan_first[w]);
			g->outc[v] = c;
			g->next[v] = w;
			hops[v] = hops[w] + 1;
			g->pcost[v] = g->pcost[w] + link_cost(g, c);
			g->att[g->natt++] = v;
		}
		np = 0;
		if (g->weighted) {
			grow_weighted(g, hops);
			for (i = 1; i < reach; i++)
				if (hops[g->queue[i]] < 0)
					pend[np++] = g->queue[i];
		}
		/* shortest first: the BFS order is by distance */
		for (i = 1; !g->weighted && i < reach; i++) {
			v = g->queue[i];
			if (!g->fixed[v] && !join(g, v, g->dist[v] - 1, hops))
				pend[np++] = v;
		}
		do {
			progress = 0;
			for (i = 0; i < np; i++) {
				if (!join(g, pend[i], -1, hops))
					continue;
				pend[i--] = pend[--np];
				progress = 1;
			}
		} while (progress && np && !g->weighted);
		if (!np)
			break;
		undo_new(g);
		if (!escape_add(g, pend, np, t)) {
			g->outc[t] = -1;
			tree_of(g, lid, t);
			tree_apply(g, 1, DEPS_ORDERED);
			return 0;
		}
		for (nfix = 0, v = 0; v < g->nsw; v++)
			nfix += g->fixed[v];
	}
	for (i = 1; i < g->natt; i++) {
		v = g->att[i];
		*longer += hops[v] > g->dist[v];
		lft_of_node(g->s, g->sg.node[v])->port[lid] =
			(uint8_t)(g->outc[v] - g->sg.chan_first[v]);
	}
	tree_apply(g, 1, DEPS_NONE);
	return 1;
}

/* A topological order of the channels under the counted dependencies
 * (Kahn); -1 when they hold a cycle. */
static int topo_init(struct cdg *g)
{
	int *indeg = g->tmp, h = 0, n = 0, c, i, k = 0;

	for (c = 0; c < g->nch; c++)
		indeg[c] = g->npred[c];
	for (c = 0; c < g->nch; c++)
		if (!indeg[c])
			g->stk[n++] = c;
	while (h < n) {
		c = g->stk[h++];
		g->ord[c] = k++;
		for (i = 0; i < g->nsucc[c]; i++) {
			int d = g->succ[(size_t)c * g->stride + i];

			if (!--indeg[d])
				g->stk[n++] = d;
		}
	}
	return k == g->nch ? 0 : -1;
}

static void cdg_free(struct cdg *g)
{
	swgraph_free(&g->sg);
	free(g->ch_from);
	free(g->ch_to);
	free(g->nca);
	free(g->dep);
	free(g->cyc);
	free(g->cyc_at);
	free(g->cyc_len);
	free(g->cyc_pool);
	free(g->par);
	free(g->bpar);
	free(g->succ);
	free(g->nsucc);
	free(g->pred);
	free(g->npred);
	free(g->ord);
	free(g->load);
	free(g->mark);
	free(g->stk);
	free(g->fw);
	free(g->bw);
	free(g->tmp);
	free(g->key);
	free(g->dist);
	free(g->queue);
	free(g->next);
	free(g->outc);
	free(g->att);
	free(g->acc);
	free(g->pcost);
	free(g->heap);
	free(g->wtop);
	free(g->wpushed);
	free(g->old_outc);
	free(g->old_next);
	free(g->old_depth);
	free(g->by_depth);
	free(g->fixed);
	free(g->tab);
	free(g->kid);
	free(g->sib);
	free(g->wport);
	free(g->bfs_keep);
	free(g->bfs_done);
}

static int cdg_build(struct cdg *g, const struct fabric *f, struct lft_set *s)
{
	int i, v, p, maxp = 1;
	size_t nn = (size_t)f->nnodes + 1;

	g->f = f;
	g->s = s;
	g->nca = calloc(nn, sizeof(int));
	if (swgraph_build(f, &g->sg) || !g->nca)
		return -1;
	g->nsw = g->sg.nsw;
	g->nch = g->sg.nchan;
	for (i = 0; i < g->nsw; i++) {
		if (!lft_of_node(s, g->sg.node[i]))
			return 1; /* a switch without a table */
		if (g->sg.nports[i] > maxp)
			maxp = g->sg.nports[i];
	}
	g->stride = maxp + 1;
	g->ch_from = malloc(((size_t)g->nch + 1) * sizeof(int));
	g->ch_to = malloc(((size_t)g->nch + 1) * sizeof(int));
	g->dep = calloc((size_t)g->nch * g->stride + 1, sizeof(int));
	g->cyc = calloc((size_t)g->nch * g->stride + 1, sizeof(int));
	g->succ = malloc(((size_t)g->nch * g->stride + 1) * sizeof(int));
	g->pred = malloc(((size_t)g->nch * g->stride + 1) * sizeof(int));
	g->nsucc = calloc((size_t)g->nch + 1, sizeof(int));
	g->npred = calloc((size_t)g->nch + 1, sizeof(int));
	g->ord = malloc(((size_t)g->nch + 1) * sizeof(int));
	g->load = calloc((size_t)g->nch + 1, sizeof(double));
	g->mark = calloc((size_t)g->nch + 1, sizeof(int));
	g->par = calloc((size_t)g->nch + 1, sizeof(int));
	g->bpar = calloc((size_t)g->nch + 1, sizeof(int));
	g->cyc_at = malloc(((size_t)g->nch * g->stride + 1) * sizeof(int));
	g->cyc_len = calloc((size_t)g->nch * g->stride + 1, sizeof(int));
	g->pool_cap = CDG_POOL;
	g->cyc_pool = malloc((size_t)g->pool_cap * sizeof(int));
	g->stk = malloc(((size_t)g->nch + 1) * sizeof(int));
	g->fw = malloc(((size_t)g->nch + 1) * sizeof(int));
	g->bw = malloc(((size_t)g->nch + 1) * sizeof(int));
	g->tmp = malloc(((size_t)g->nch + 1) * 2 * sizeof(int));
	g->key = malloc(((size_t)g->nch + 1) * sizeof(uint64_t));
	g->dist = malloc(((size_t)g->nsw + 1) * sizeof(int));
	g->queue = malloc(((size_t)g->nsw + 1) * sizeof(int));
	g->next = malloc(((size_t)g->nsw + 1) * sizeof(int));
	g->outc = malloc(((size_t)g->nsw + 1) * sizeof(int));
	g->att = malloc(((size_t)g->nsw + 1) * sizeof(int));
	g->acc = malloc(((size_t)g->nsw + 1) * sizeof(int));
	g->pcost = malloc(((size_t)g->nsw + 1) * sizeof(double));
	g->heap = malloc(((size_t)g->nch + 1) * sizeof(*g->heap));
	g->wtop = malloc(((size_t)g->nsw + 1) * sizeof(*g->wtop));
	g->wpushed = calloc((size_t)g->nch + 1, sizeof(int));
	g->old_outc = malloc(((size_t)g->nsw + 1) * sizeof(int));
	g->old_next = malloc(((size_t)g->nsw + 1) * sizeof(int));
	g->old_depth = malloc(((size_t)g->nsw + 1) * sizeof(int));
	g->by_depth = malloc(((size_t)g->nsw + 1) * sizeof(int));
	g->fixed = malloc((size_t)g->nsw + 1);
	g->tab = malloc(((size_t)g->nsw + 1) * sizeof(*g->tab));
	g->kid = malloc(((size_t)g->nsw + 1) * sizeof(int));
	g->sib = malloc(((size_t)g->nsw + 1) * sizeof(int));
	g->wport = malloc(((size_t)g->nsw + 1) * sizeof(int));
	if (!g->tab || !g->kid || !g->sib || !g->wport)
		return -1;
	for (v = 0; v < g->nsw; v++)
		g->tab[v] = lft_of_node(s, g->sg.node[v]);
	if ((size_t)g->nsw * g->nsw * 2 * sizeof(int) <= CDG_BFS_KEEP) {
		g->bfs_keep =
			malloc((size_t)g->nsw * g->nsw * 2 * sizeof(int) + 1);
		g->bfs_done = calloc((size_t)g->nsw + 1, 1);
		if (!g->bfs_keep || !g->bfs_done)
			return -1;
	}
	if (!g->ch_from || !g->ch_to || !g->dep || !g->cyc || !g->succ ||
	    !g->pred || !g->nsucc || !g->npred || !g->ord || !g->load ||
	    !g->mark || !g->par || !g->bpar || !g->cyc_at || !g->cyc_len ||
	    !g->cyc_pool || !g->stk || !g->fw || !g->bw || !g->tmp || !g->key ||
	    !g->dist || !g->queue || !g->next || !g->outc || !g->att ||
	    !g->acc || !g->pcost || !g->heap || !g->wtop || !g->wpushed ||
	    !g->old_outc || !g->old_next || !g->old_depth || !g->by_depth ||
	    !g->fixed)
		return -1;
	memset(g->cyc_at, -1, ((size_t)g->nch * g->stride + 1) * sizeof(int));
	for (v = 0; v < g->nsw; v++) {
		const struct fab_node *n = &f->nodes[g->sg.node[v]];

		for (p = 0; p <= n->nports; p++) {
			int c = g->sg.chan_first[v] + p, r = n->ports[p].rnode;

			g->ch_from[c] = v;
			g->ch_to[c] = -1;
			g->ord[c] = c;
			if (p == 0 || r < 0)
				continue;
			if (g->sg.idx[r] >= 0)
				g->ch_to[c] = g->sg.idx[r];
			else if (!f->nodes[r].removed &&
				 f->nodes[r].type != FAB_SWITCH)
				g->nca[v]++;
		}
	}
	return 0;
}

/*
 * The wanted destinations on the paths of one spanning tree
 * (CDG_TREE_START), as Nue's escape paths: the BFS tree from the switch of
 * least eccentricity (the first by index on ties), each switch's parent
 * by its first port to one; a path goes up the tree to the lowest common
 * ancestor, then down, so their dependencies are acyclic and few.  dl
 * and dsw: ndl LIDs and their switches, those marked in want[0..top]
 * routed.  0 when done, 1 when the tree does not span (the routes left
 * as given).
 */
static int tree_start(struct cdg *g, const unsigned *dl, const int *dsw,
		      int ndl, const uint8_t *want, unsigned top)
{
	int *par = g->tmp, *down = g->tmp + g->nch; /* nch >= nsw */
	int v, k, root = 0, best = -1;

	for (v = 0; v < g->nsw; v++) {
		int i, ecc = 0;

		bfs(g, v);
		for (i = 0; i < g->nsw; i++) {
			if (g->dist[i] < 0) {
				ecc = g->nsw + 1;
				break;
			}
			ecc = g->dist[i] > ecc ? g->dist[i] : ecc;
		}
		if (best < 0 || ecc < best) {
			best = ecc;
			root = v;
		}
	}
	if (best > g->nsw)
		return 1;
	bfs(g, root);
	/* par[v]: v's channel to its parent, the first port by number */
	for (v = 0; v < g->nsw; v++) {
		const struct fab_node *n = &g->f->nodes[g->sg.node[v]];
		int p;

		par[v] = -1;
		for (p = 1; v != root && p <= n->nports; p++) {
			int c = out_ch(g, v, p), w = g->ch_to[c];

			if (w >= 0 && g->dist[w] == g->dist[v] - 1) {
				par[v] = c;
				break;
			}
		}
	}
	for (k = 0; k < ndl; k++) {
		int t = dsw[k], u;

		if (dl[k] > top || !want[dl[k]])
			continue;
		for (v = 0; v < g->nsw; v++)
			down[v] = -1;
		/* the ancestors of t: their channel towards t */
		for (u = t; u != root; u = g->ch_to[par[u]]) {
			int w = g->ch_to[par[u]];
			const struct fab_node *n = &g->f->nodes[g->sg.node[u]];
			int p = par[u] - g->sg.chan_first[u];

			down[w] = out_ch(g, w, n->ports[p].rport);
		}
		for (v = 0; v < g->nsw; v++) {
			int c;

			if (v == t)
				continue;
			c = down[v] >= 0 ? down[v] : par[v];
			lft_of_node(g->s, g->sg.node[v])->port[dl[k]] =
				(uint8_t)(c - g->sg.chan_first[v]);
		}
	}
	return 0;
}

/* Passes over the destinations at most (cdgroute.h). */
#define CDG_PASSES 2

/* The entries of the n LIDs dl at every switch, out of the tables into
 * keep, or back. */
static void tables_get(const struct cdg *g, const unsigned *dl, int n,
		       uint8_t *keep)
{
	int v, k;

	for (v = 0; v < g->nsw; v++) {
		const struct lft *t = lft_of_node(g->s, g->sg.node[v]);

		for (k = 0; k < n; k++)
			keep[(size_t)v * n + k] = t->port[dl[k]];
	}
}

static void tables_put(struct cdg *g, const unsigned *dl, int n,
		       const uint8_t *keep)
{
	int v, k;

	for (v = 0; v < g->nsw; v++) {
		struct lft *t = lft_of_node(g->s, g->sg.node[v]);

		for (k = 0; k < n; k++)
			t->port[dl[k]] = keep[(size_t)v * n + k];
	}
}

/* cdg_route_lids, or with strict cdg_refine_lids: the tables as given
 * count as the first pass.  *a2a: in, the A2A risk of s as given (-1:
 * not known); out, that of s as left (-1: not measured). */
static int cdg_route(const struct fabric *f, struct lft_set *s,
		     const uint8_t *want, unsigned top,
		     const struct risk_order *ord, int strict, int flags,
		     struct cdgroute_info *info, long *a2a,
		     struct osmre_err *err)
{
	struct cdg g = { 0 };
	struct lid_owner *own = NULL;
	unsigned max, lid;
	int *hops = NULL, *pend = NULL, rc = -1, pass, k, ndl = 0, nall = 0;
	unsigned *dl = NULL;
	int *dsw = NULL;
	uint8_t *keep = NULL;
	long best = *a2a;
	struct cdgroute_info in = { 0, 0, 0, -1 };

	rc = cdg_build(&g, f, s);
	if (rc > 0) { /* a switch without a table: left as given */
		rc = 0;
		goto out;
	}
	if (rc < 0)
		goto oom;
	rc = -1; /* until done */
	if (lids_owners(f, &own, &max, err))
		goto out;
	hops = malloc(((size_t)g.nsw + 1) * sizeof(int));
	pend = malloc(((size_t)g.nsw + 1) * sizeof(int));
	dl = malloc(((size_t)max + 1) * sizeof(unsigned));
	dsw = malloc(((size_t)max + 1) * sizeof(int));
	if (!hops || !pend || !dl || !dsw)
		goto oom;
	/* the CA LIDs by port GUID, not LID: the same dependency lists and
	 * order, so the same tables, however the LIDs were numbered */
	for (lid = 1; lid <= max; lid++) {
		const struct fab_port *pt;
		int dn = own[lid].node;

		if (dn < 0 || fab_is_switch(&f->nodes[dn]))
			continue;
		pt = &f->nodes[dn].ports[own[lid].port];
		if (pt->rnode >= 0 && g.sg.idx[pt->rnode] >= 0)
			dl[nall++] = lid;
	}
	if (lids_sort_guid(f, own, dl, nall, err))
		goto out;
	if (flags & CDG_WEIGHTED) {
		/* Nue's initial link weight: the destinations squared */
		double d = (double)nall + g.nsw;

		g.weighted = 1;
		g.w0 = d * d;
	}
	/* each LID's switch */
	for (k = 0; k < nall; k++) {
		const struct lid_owner *o = &own[dl[k]];

		dsw[k] = g.sg.idx[f->nodes[o->node].ports[o->port].rnode];
	}
	if ((flags & CDG_TREE_START) && !strict)
		(void)tree_start(&g, dl, dsw, nall, want, top);
	/* every CA destination's loads; the wanted ones' dependencies, and
	 * the wanted ones to the front of dl and dsw (k >= ndl: read
	 * before written) */
	for (k = 0; k < nall; k++) {
		int t = dsw[k];

		lid = dl[k];
		tree_of(&g, lid, t);
		tree_apply(&g, 1,
			   lid <= top && want[lid] ? DEPS_RAW : DEPS_NONE);
		if (lid <= top && want[lid]) {
			dl[ndl] = lid;
			dsw[ndl++] = t;
		}
	}
	if (topo_init(&g)) { /* not acyclic as given: left as it is */
		rc = 0;
		goto out;
	}
	keep = malloc((size_t)ndl * g.nsw + 1);
	if (!keep)
		goto oom;
	if (!ord)
		goto out; /* the caller's err says why */
	if (strict) {
		/* the tables as given: measured unless the caller knows */
		if (best < 0 && risk_a2a(f, s, ord, &best, err))
			goto out;
		tables_get(&g, dl, ndl, keep);
	}
	for (pass = 0; pass < CDG_PASSES; pass++) {
		struct cdgroute_info pi = { ndl, 0, 0, -1 };
		long m;

		for (k = 0; k < ndl; k++)
			pi.rerouted += reroute(&g, dl[k], dsw[k], hops, pend,
					       &pi.longer);
		/* A2A as osmre analyze counts it (risk.h) */
		if (risk_a2a(f, s, ord, &m, err))
			goto out;
		if ((pass || strict) && m >= best) {
			tables_put(&g, dl, ndl, keep);
			break;
		}
		best = m;
		in = pi;
		if (pass + 1 < CDG_PASSES)
			tables_get(&g, dl, ndl, keep);
	}
	/* best: the tables as left, a pass kept or put back */
	*a2a = best;
	in.a2a = best;
	rc = 0;
	goto out;
oom:
	rc = osmre_fail(err, "out of memory");
out:
	/* (left as given: nothing rerouted, *a2a as it came) */
	if (info)
		*info = in;
	free(own);
	free(hops);
	free(pend);
	free(dl);
	free(dsw);
	free(keep);
	cdg_free(&g);
	return rc;
}

int cdg_route_lids(const struct fabric *f, struct lft_set *s,
		   const uint8_t *want, unsigned top,
		   const struct risk_order *ord, int flags,
		   struct cdgroute_info *info, struct osmre_err *err)
{
	long a2a = -1;

	return cdg_route(f, s, want, top, ord, 0, flags, info, &a2a, err);
}

int cdg_refine_lids(const struct fabric *f, struct lft_set *s,
		    const uint8_t *want, unsigned top,
		    const struct risk_order *ord, int flags, long *a2a,
		    struct osmre_err *err)
{
	return cdg_route(f, s, want, top, ord, 1, flags, NULL, a2a, err);
}
