/* SPDX-License-Identifier: BSD-2-Clause */
/* A2A, SP and RP risks of a set of tables on the switch links (risk.h). */
#include "risk.h"

#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "swgraph.h"
#include "cmp.h"

/* The switches, their channels (switch, port) and the tables. */
struct walk {
	/* the switches and channels (swgraph.h): the order's, or own */
	const struct swgraph *sg;
	struct swgraph own;
	int *to;		/* channel -> switch at its far end, -1 */
	const struct lft **tab; /* per switch */
	int *stamp;		/* per channel */
	long *cnt;		/* per channel */
	int *path;		/* a route's channels (nsw at most) */
};

static void walk_free(struct walk *w)
{
	swgraph_free(&w->own);
	free(w->to);
	free(w->tab);
	free(w->stamp);
	free(w->cnt);
	free(w->path);
}

static int walk_init(struct walk *w, const struct fabric *f,
		     const struct lft_set *s, const struct risk_order *o)
{
	const struct swgraph *g;
	int k, v;

	memset(w, 0, sizeof(*w));
	if (o && o->sg) {
		w->sg = o->sg;
	} else {
		if (swgraph_build(f, &w->own))
			return -1;
		w->sg = &w->own;
	}
	g = w->sg;
	w->tab = malloc(((size_t)g->nsw + 1) * sizeof(*w->tab));
	w->path = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	w->to = malloc(((size_t)g->nchan + 1) * sizeof(int));
	w->stamp = malloc(((size_t)g->nchan + 1) * sizeof(int));
	w->cnt = calloc((size_t)g->nchan + 1, sizeof(long));
	if (!w->tab || !w->path || !w->to || !w->stamp || !w->cnt)
		return -1;
	for (v = 0; v < g->nsw; v++)
		w->tab[v] = lft_of_node(s, g->node[v]);
	for (k = 0; k < g->nchan; k++) {
		w->to[k] = g->link_of[k] >= 0 ? g->l[g->link_of[k]].to : -1;
		w->stamp[k] = -1;
	}
	return 0;
}

/* The channel switch v forwards lid on, towards another switch; -1 when
 * it delivers or has no route. */
static int hop(const struct walk *w, int v, unsigned lid)
{
	int p = w->tab[v] ? lft_get(w->tab[v], lid) : LFT_NONE;

	if (p == LFT_NONE || p < 1 || p > w->sg->nports[v] ||
	    w->to[w->sg->chan_first[v] + p] < 0)
		return -1;
	return w->sg->chan_first[v] + p;
}

/* The channels of the route from switch v to lid into ch (at most nsw:
 * a loop stops there); their count. */
static int route_channels(const struct walk *w, int v, unsigned lid, int *ch)
{
	int c, n = 0;

	while ((c = hop(w, v, lid)) >= 0 && n < w->sg->nsw) {
		ch[n++] = c;
		v = w->to[c];
	}
	return n;
}

/* Adds add to acc[c] of every channel c on the route from switch v to lid
 * whose stamp is not key yet (each stamped key then). */
static void route_mark(struct walk *w, int v, unsigned lid, int key, long *acc,
		       long add)
{
	int n = route_channels(w, v, lid, w->path), i;

	for (i = 0; i < n; i++)
		if (w->stamp[w->path[i]] != key) {
			w->stamp[w->path[i]] = key;
			acc[w->path[i]] += add;
		}
}

/* One more route of pattern k on every channel from switch v to lid
 * (counts of other patterns reset first); the largest count reached. */
static long route_count(struct walk *w, int v, unsigned lid, int k)
{
	int n = route_channels(w, v, lid, w->path), i;
	long top = 0;

	for (i = 0; i < n; i++) {
		int c = w->path[i];

		if (w->stamp[c] != k) {
			w->stamp[c] = k;
			w->cnt[c] = 0;
		}
		if (++w->cnt[c] > top)
			top = w->cnt[c];
	}
	return top;
}

struct okey {
	long nid;
	uint64_t guid;
	int sw;
	unsigned lid;
};

static int okey_cmp(const void *a, const void *b)
{
	const struct okey *x = a, *y = b;

	if (x->nid != y->nid)
		return x->nid < y->nid ? -1 : 1;
	return (x->guid > y->guid) - (x->guid < y->guid);
}

int risk_order_by(const struct fabric *f,
		  long (*nid)(const void *arg, int node, int port),
		  const void *arg, struct risk_order *o, struct osmre_err *err)
{
	struct okey *k;
	int n = 0, i, p;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < f->nnodes; i++)
		if (!fab_is_switch(&f->nodes[i]))
			n += f->nodes[i].nports;
	k = malloc(((size_t)n + 1) * sizeof(*k));
	n = 0;
	if (!k)
		return osmre_fail(err, "out of memory");
	for (i = 0; i < f->nnodes; i++) {
		const struct fab_node *nd = &f->nodes[i];

		if (fab_is_switch(nd) || nd->removed)
			continue;
		for (p = 1; p <= nd->nports; p++) {
			int r = nd->ports[p].rnode;

			if (!nd->ports[p].lid || r < 0 ||
			    !fab_is_switch(&f->nodes[r]))
				continue;
			k[n++] = (struct okey){ nid ? nid(arg, i, p) : 0,
						nd->ports[p].guid, r,
						nd->ports[p].lid };
		}
	}
	qsort(k, (size_t)n, sizeof(*k), okey_cmp);
	o->sw = malloc(((size_t)n + 1) * sizeof(int));
	o->lid = malloc(((size_t)n + 1) * sizeof(unsigned));
	if (!o->sw || !o->lid) {
		free(k);
		risk_order_free(o);
		return osmre_fail(err, "out of memory");
	}
	for (i = 0; i < n; i++) {
		o->sw[i] = k[i].sw;
		o->lid[i] = k[i].lid;
	}
	o->n = n;
	free(k);
	return 0;
}

void risk_order_free(struct risk_order *o)
{
	free(o->sw);
	free(o->lid);
	free(o->perm);
	memset(o, 0, sizeof(*o));
}

/* The most switches a2a_by_trees is used on: its sets cost about nsw *
 * sources / 64 word operations per LID, the walks about 4 look-ups per
 * source, each some 28 times a word operation (perf, 1,620-switch fat
 * tree: the sets took a quarter of the walks' time), so the sets win
 * below about 6,400 switches whatever the sources. */
#define A2A_TREES_MAX_SW 6144

/*
 * risk_a2a's distinct sources by trees: the routes to one LID form a tree
 * (a switch forwards it on one channel), and the source switches whose
 * routes cross a channel are those below it.  Per LID: the walks of the
 * destination half list the switches reached, each after the switch it
 * forwards to (pre[]: parents first); then, children first, each
 * switch's set of sources below it (a bit per source switch) goes into
 * its channel's set and its parent's.  src[c]: the weights (nca) of the
 * sources in channel c's set; dst[c]: the LIDs whose routes cross it,
 * as the walks count them.  About nsw * (sources / 64) word operations
 * per LID, where the walks of each source take its path's length in
 * table look-ups.  0, or 1 when a route loops or memory is short (src
 * and dst then partly counted: the caller clears them and walks every
 * route, which counts what a loop walks).  Beyond A2A_TREES_MAX_SW
 * switches the walks are cheaper.
 */
static int a2a_by_trees(struct walk *w, const struct risk_order *o,
			const long *nca, int *seen, long *src, long *dst)
{
	const struct swgraph *g = w->sg;
	int nsw = g->nsw, ns = 0, i, v, c, n, rc = 1;
	int *sbit = malloc(((size_t)nsw + 1) * sizeof(int));
	int *pre = malloc(((size_t)nsw + 1) * sizeof(int));
	int *pc = malloc(((size_t)nsw + 1) * sizeof(int));
	int *onpath = malloc(((size_t)nsw + 1) * sizeof(int));
	size_t nw, k;
	uint64_t *below = NULL, *cbits = NULL;

	if (!sbit || !pre || !pc || !onpath)
		goto out;
	for (v = 0; v < nsw; v++) {
		sbit[v] = nca[v] ? ns++ : -1;
		onpath[v] = -1;
		seen[v] = -1;
	}
	nw = ((size_t)ns + 63) / 64;
	below = calloc((size_t)nsw * nw + 1, sizeof(uint64_t));
	cbits = calloc((size_t)g->nchan * nw + 1, sizeof(uint64_t));
	if (!below || !cbits)
		goto out;
	for (i = 0; i < o->n; i++) {
		unsigned lid = o->lid[i];

		n = 0;
		for (v = 0; v < nsw; v++) {
			int u = v, m = n, x;

			if (!nca[v])
				continue;
			/* the walk: u, then where it forwards, until a
			 * switch reached before (this LID's) */
			while (seen[u] != i) {
				seen[u] = i;
				onpath[u] = v;
				pre[n++] = u;
				if ((c = hop(w, u, lid)) < 0) {
					pc[u] = -1;
					break;
				}
				dst[c]++;
				pc[u] = c;
				u = w->to[c];
				if (onpath[u] == v && seen[u] == i)
					goto out; /* a loop */
			}
			/* parents first: this walk's switches reversed */
			for (x = 0; x < (n - m) / 2; x++) {
				int t = pre[m + x];

				pre[m + x] = pre[n - 1 - x];
				pre[n - 1 - x] = t;
			}
		}
		/* children first */
		for (k = 0; k < (size_t)n; k++) {
			int u = pre[n - 1 - k];
			uint64_t *b = below + (size_t)u * nw;

			if (sbit[u] >= 0)
				b[sbit[u] / 64] |= (uint64_t)1
						   << (sbit[u] % 64);
			if ((c = pc[u]) >= 0) {
				uint64_t *cb = cbits + (size_t)c * nw;
				uint64_t *pb = below + (size_t)w->to[c] * nw;
				size_t x;

				for (x = 0; x < nw; x++) {
					cb[x] |= b[x];
					pb[x] |= b[x];
				}
			}
		}
		/* cleared for the next LID: only the switches reached */
		for (k = 0; k < (size_t)n; k++)
			memset(below + (size_t)pre[k] * nw, 0,
			       nw * sizeof(uint64_t));
	}
	for (v = 0; v < nsw; v++)
		if (sbit[v] >= 0)
			pre[sbit[v]] = v; /* bit -> switch */
	for (c = 0; c < g->nchan; c++)
		for (k = 0; k < nw; k++) {
			uint64_t b = cbits[(size_t)c * nw + k];

			while (b) {
				int bit = __builtin_ctzll(b);

				src[c] += nca[pre[k * 64 + (size_t)bit]];
				b &= b - 1;
			}
		}
	rc = 0;
out:
	free(sbit);
	free(pre);
	free(pc);
	free(onpath);
	free(below);
	free(cbits);
	return rc;
}

int risk_a2a(const struct fabric *f, const struct lft_set *s,
	     const struct risk_order *o, long *a2a, struct osmre_err *err)
{
	struct walk w;
	long *nca = NULL, *src = NULL, *dst = NULL, best = 1;
	int *seen = NULL, i, v, c;

	if (walk_init(&w, f, s, o) ||
	    !(nca = calloc((size_t)w.sg->nsw + 1, sizeof(long))) ||
	    !(src = calloc((size_t)w.sg->nchan + 1, sizeof(long))) ||
	    !(dst = calloc((size_t)w.sg->nchan + 1, sizeof(long))) ||
	    !(seen = malloc(((size_t)w.sg->nsw + 1) * sizeof(int)))) {
		walk_free(&w);
		free(nca);
		free(src);
		free(dst);
		return osmre_fail(err, "out of memory");
	}
	for (i = 0; i < o->n; i++)
		nca[w.sg->idx[o->sw[i]]]++;
	if (w.sg->nsw <= A2A_TREES_MAX_SW &&
	    !a2a_by_trees(&w, o, nca, seen, src, dst))
		goto max;
	/* a loop, or no memory for the sets: walk every route */
	memset(src, 0, ((size_t)w.sg->nchan + 1) * sizeof(long));
	memset(dst, 0, ((size_t)w.sg->nchan + 1) * sizeof(long));
	for (v = 0; v < w.sg->nsw; v++)
		seen[v] = -1;
	/* distinct sources: each channel once per source switch, weighed
	 * by its CA ports (they share its routes) */
	for (v = 0; v < w.sg->nsw; v++)
		for (i = 0; nca[v] && i < o->n; i++)
			route_mark(&w, v, o->lid[i], v, src, nca[v]);
	/* distinct destinations: each channel once per destination.  A
	 * switch forwards a LID on one channel, so the routes to it form a
	 * tree: a walk stops at a switch an earlier walk to the same LID
	 * passed (its channel counted then; a loop stops there too) */
	for (i = 0; i < o->n; i++)
		for (v = 0; v < w.sg->nsw; v++) {
			int u = v;

			while (nca[v] && seen[u] != i) {
				seen[u] = i;
				if ((c = hop(&w, u, o->lid[i])) < 0)
					break;
				dst[c]++;
				u = w.to[c];
			}
		}
max:
	for (c = 0; c < w.sg->nchan; c++) {
		long m = src[c] < dst[c] ? src[c] : dst[c];

		if (m > best)
			best = m;
	}
	walk_free(&w);
	free(nca);
	free(src);
	free(dst);
	free(seen);
	*a2a = best;
	return 0;
}

int risk_sp(const struct fabric *f, const struct lft_set *s,
	    const struct risk_order *o, long *sp, struct osmre_err *err)
{
	struct walk w;
	long best = 1;
	int i, k;

	if (walk_init(&w, f, s, o)) {
		walk_free(&w);
		return osmre_fail(err, "out of memory");
	}
	for (k = 1; k < o->n; k++)
		for (i = 0; i < o->n; i++) {
			long m = route_count(&w, w.sg->idx[o->sw[i]],
					     o->lid[(i + k) % o->n], k);

			if (m > best)
				best = m;
		}
	walk_free(&w);
	*sp = best;
	return 0;
}

/* risk_rp's next-channel table at most (else each hop reads the
 * tables): per switch and CA port of the order, one int. */
#define RP_NEXT_MAX_BYTES  ((size_t)64 << 20)
/* The stored permutations at most (risk_order_perms; else drawn by each
 * risk_rp). */
#define RP_PERMS_MAX_BYTES ((size_t)64 << 20)

/* The channel switch v forwards o's j-th CA port on (hop), filled into
 * nx at the first ask (-2: not yet); nx NULL: read from the tables. */
static int rp_hop(const struct walk *w, const struct risk_order *o, int *nx,
		  int v, int j)
{
	int *c;

	if (!nx)
		return hop(w, v, o->lid[j]);
	c = &nx[(size_t)v * (size_t)o->n + (size_t)j];
	if (*c == -2)
		*c = hop(w, v, o->lid[j]);
	return *c;
}

/* route_count from switch v to o's j-th CA port, by rp_hop. */
static long rp_count(struct walk *w, const struct risk_order *o, int *nx, int v,
		     int j, int k)
{
	long top = 0;
	int c, n = 0;

	while (n < w->sg->nsw && (c = rp_hop(w, o, nx, v, j)) >= 0) {
		n++;
		if (w->stamp[c] != k) {
			w->stamp[c] = k;
			w->cnt[c] = 0;
		}
		if (++w->cnt[c] > top)
			top = w->cnt[c];
		v = w->to[c];
	}
	return top;
}

/* 1 when o holds the permutations of nperm and seed (risk_order_perms). */
static int perms_stored(const struct risk_order *o, int nperm, uint64_t seed)
{
	return o->perm && o->nperm == nperm && o->perm_seed == seed;
}

/* Permutation k of o's n CA ports as analyze draws it (congestion.c):
 * o's stored one (perms_stored), else drawn into perm. */
static const int *rp_perm(const struct risk_order *o, int nperm, uint64_t seed,
			  int k, int *perm)
{
	struct rng r;

	if (perms_stored(o, nperm, seed))
		return o->perm + (size_t)k * (size_t)o->n;
	rng_seed(&r, seed + (uint64_t)k);
	rng_permutation(&r, perm, o->n);
	return perm;
}

int risk_order_perms(struct risk_order *o, int nperm, uint64_t seed,
		     struct osmre_err *err)
{
	size_t n = (size_t)o->n * (size_t)(nperm > 0 ? nperm : 0);
	int k;

	free(o->perm);
	o->perm = NULL;
	o->nperm = 0;
	if (nperm <= 0 || n > RP_PERMS_MAX_BYTES / sizeof(int))
		return 0; /* each risk_rp draws them */
	o->perm = malloc((n + 1) * sizeof(int));
	if (!o->perm)
		return osmre_fail(err, "out of memory");
	for (k = 0; k < nperm; k++) {
		struct rng r;

		rng_seed(&r, seed + (uint64_t)k);
		rng_permutation(&r, o->perm + (size_t)k * (size_t)o->n, o->n);
	}
	o->nperm = nperm;
	o->perm_seed = seed;
	return 0;
}

int risk_rp(const struct fabric *f, const struct lft_set *s,
	    const struct risk_order *o, int nperm, uint64_t seed, long *rp,
	    struct osmre_err *err)
{
	struct walk w;
	long *worst = malloc(((size_t)nperm + 1) * sizeof(long));
	/* a permutation's room, unless o holds them (rp_perm) */
	int stored = perms_stored(o, nperm, seed);
	int *perm = stored ? NULL : malloc(((size_t)o->n + 1) * sizeof(int));
	int *nx = NULL;
	int i, k;

	if (!worst || (!stored && !perm) || walk_init(&w, f, s, o)) {
		if (worst && (stored || perm))
			walk_free(&w);
		free(worst);
		free(perm);
		return osmre_fail(err, "out of memory");
	}
	/* each switch's channel to each CA port, looked up once: a
	 * permutation's routes share their switches' entries with the
	 * others'.  Only where filling it costs less than the walks, which
	 * take nperm * n routes of a few hops (a switch per permutation
	 * and CA port at most), and memory allows; else from the tables
	 * each time */
	if (w.sg->nsw <= 4 * nperm && (size_t)w.sg->nsw * (size_t)o->n <=
					      RP_NEXT_MAX_BYTES / sizeof(int)) {
		size_t m = (size_t)w.sg->nsw * (size_t)o->n;

		nx = malloc((m + 1) * sizeof(int));
		for (i = 0; nx && (size_t)i < m; i++)
			nx[i] = -2;
	}
	for (k = 0; k < nperm; k++) {
		const int *p = rp_perm(o, nperm, seed, k, perm);

		worst[k] = 1;
		for (i = 0; i < o->n; i++) {
			long m;

			if (p[i] == i)
				continue;
			m = rp_count(&w, o, nx, w.sg->idx[o->sw[i]], p[i],
				     k + 1);
			if (m > worst[k])
				worst[k] = m;
		}
	}
	qsort(worst, (size_t)nperm, sizeof(long), cmp_long);
	*rp = nperm > 0 ? worst[(nperm - 1) / 2] : 1;
	walk_free(&w);
	free(worst);
	free(perm);
	free(nx);
	return 0;
}

struct risk_guard {
	struct walk w;
	struct lft_set *s; /* the tables searched (risk_guard_repair) */
	const struct risk_order *o;
	long a2a, sp;
	int nsrc_sw;	   /* switches with CA ports */
	int *src_sw;	   /* their indices */
	long *nca;	   /* per switch */
	uint16_t *per_src; /* channel x source switch: routes counted */
	long *nsrc, *ndst; /* per channel */
	uint16_t *shift;   /* (shift - 1) x channel: routes counted */
	int *pos;	   /* LID -> position in o, -1 */
	unsigned top;
	int *seen, nseen, key;
	int over;
	long excess; /* the counts above the risks, summed */
};

void risk_guard_free(struct risk_guard *g)
{
	if (!g)
		return;
	walk_free(&g->w);
	free(g->src_sw);
	free(g->nca);
	free(g->per_src);
	free(g->nsrc);
	free(g->ndst);
	free(g->shift);
	free(g->pos);
	free(g->seen);
	free(g);
}

/* What channel c's A2A risk exceeds the guard's by (0 when not). */
static long a2a_excess(const struct risk_guard *g, int c)
{
	long m = g->nsrc[c] < g->ndst[c] ? g->nsrc[c] : g->ndst[c];

	return m > g->a2a ? m - g->a2a : 0;
}

void risk_guard_dest(struct risk_guard *g, unsigned lid, int sign)
{
	struct walk *w = &g->w;
	int *ch = g->seen + w->sg->nchan, n, i, k, j, p;
	size_t nch = (size_t)w->sg->nchan;

	g->key++;
	g->nseen = 0;
	/* all-to-all: every source switch's route */
	for (j = 0; j < g->nsrc_sw; j++) {
		int u = g->src_sw[j];

		n = route_channels(w, u, lid, ch);
		for (i = 0; i < n; i++) {
			int c = ch[i];
			uint16_t *q = &g->per_src[(size_t)c * g->nsrc_sw + j];

			if (w->stamp[c] != g->key) {
				w->stamp[c] = g->key;
				g->excess -= a2a_excess(g, c);
				g->ndst[c] += sign;
				g->seen[g->nseen++] = c;
			}
			if (sign > 0 && !(*q)++)
				g->nsrc[c] += g->nca[u];
			else if (sign < 0 && !--*q)
				g->nsrc[c] -= g->nca[u];
		}
	}
	for (i = 0; i < g->nseen; i++) {
		long e = a2a_excess(g, g->seen[i]);

		g->excess += e;
		if (sign > 0 && e)
			g->over = 1;
	}
	/* shifts: the one source sending to lid in each */
	if (lid > g->top || (p = g->pos[lid]) < 0)
		return;
	for (k = 1; k < g->o->n; k++) {
		int src = (p - k + g->o->n) % g->o->n;

		n = route_channels(w, w->sg->idx[g->o->sw[src]], lid, ch);
		for (i = 0; i < n; i++) {
			uint16_t *q = &g->shift[(size_t)(k - 1) * nch + ch[i]];

			if (sign < 0) {
				g->excess -= *q > g->sp;
				--*q;
				continue;
			}
			if (++*q > g->sp) {
				g->over = 1;
				g->excess++;
			}
		}
	}
}

long risk_guard_excess(const struct risk_guard *g)
{
	return g->excess;
}

/* 1 when every switch routes lid in s as in safe. */
static int same_tree(const struct risk_guard *g, const struct lft_set *safe,
		     unsigned lid)
{
	int v;

	for (v = 0; v < g->w.sg->nsw; v++) {
		const struct lft *t = g->w.tab[v];
		const struct lft *u = t ? lft_of_node(safe, t->node) : NULL;

		if (t && u && lft_get(t, lid) != lft_get(u, lid))
			return 0;
	}
	return 1;
}

/* The guarded tables' table of switch v, writable (the walk reads them
 * through const pointers), or NULL. */
static struct lft *guard_table(struct risk_guard *g, int v)
{
	return g->w.tab[v] ? lft_of_node(g->s, g->w.tab[v]->node) : NULL;
}

/* lid's entries from safe into the tables counted (old ones in keep). */
static void take_tree(struct risk_guard *g, const struct lft_set *safe,
		      unsigned lid, uint8_t *keep)
{
	int v;

	risk_guard_dest(g, lid, -1);
	for (v = 0; v < g->w.sg->nsw; v++) {
		struct lft *t = guard_table(g, v);
		const struct lft *u = t ? lft_of_node(safe, t->node) : NULL;

		if (!t || lid > t->top)
			continue;
		keep[v] = t->port[lid];
		if (u)
			t->port[lid] = (uint8_t)lft_get(u, lid);
	}
	risk_guard_dest(g, lid, 1);
}

static void put_back(struct risk_guard *g, unsigned lid, const uint8_t *keep)
{
	int v;

	risk_guard_dest(g, lid, -1);
	for (v = 0; v < g->w.sg->nsw; v++) {
		struct lft *t = guard_table(g, v);

		if (t && lid <= t->top)
			t->port[lid] = keep[v];
	}
	risk_guard_dest(g, lid, 1);
}

int risk_guard_repair(struct risk_guard *g, const struct lft_set *safe,
		      long *taken, struct osmre_err *err)
{
	uint8_t *keep = malloc((size_t)g->w.sg->nsw + 1);
	int i, progress = 1;

	*taken = 0;
	if (!keep)
		return osmre_fail(err, "out of memory");
	while (g->excess > 0 && progress) {
		progress = 0;
		for (i = 0; i < g->o->n && g->excess > 0; i++) {
			unsigned lid = g->o->lid[i];
			long before = g->excess;

			if (same_tree(g, safe, lid))
				continue;
			take_tree(g, safe, lid, keep);
			if (g->excess < before) {
				progress = 1;
				++*taken;
			} else {
				put_back(g, lid, keep);
			}
		}
	}
	/* stuck: safe's trees in order until nothing exceeds (all of safe's
	 * trees do not) */
	for (i = 0; i < g->o->n && g->excess > 0; i++)
		if (!same_tree(g, safe, g->o->lid[i])) {
			take_tree(g, safe, g->o->lid[i], keep);
			++*taken;
		}
	g->over = 0;
	free(keep);
	return 0;
}

int risk_guard_over(const struct risk_guard *g)
{
	return g->over;
}

void risk_guard_clear(struct risk_guard *g)
{
	g->over = 0;
}

struct risk_guard *risk_guard_new(const struct fabric *f, struct lft_set *s,
				  const struct risk_order *o, long a2a, long sp,
				  size_t max_bytes, struct osmre_err *err)
{
	struct risk_guard *g = calloc(1, sizeof(*g));
	size_t bytes;
	int i, v;

	if (!g || walk_init(&g->w, f, s, o))
		goto oom;
	g->s = s;
	g->o = o;
	g->a2a = a2a;
	g->sp = sp;
	g->nca = calloc((size_t)g->w.sg->nsw + 1, sizeof(long));
	if (!g->nca)
		goto oom;
	for (i = 0; i < o->n; i++) {
		g->nca[g->w.sg->idx[o->sw[i]]]++;
		if (o->lid[i] > g->top)
			g->top = o->lid[i];
	}
	for (v = 0; v < g->w.sg->nsw; v++)
		g->nsrc_sw += g->nca[v] > 0;
	bytes = (size_t)g->w.sg->nchan * ((size_t)g->nsrc_sw + (size_t)o->n) *
		2;
	if (bytes > max_bytes) {
		risk_guard_free(g);
		osmre_fail(err, "the risk counts would take %zu MiB",
			   bytes >> 20);
		return NULL;
	}
	g->src_sw = malloc(((size_t)g->nsrc_sw + 1) * sizeof(int));
	g->per_src = calloc((size_t)g->w.sg->nchan * g->nsrc_sw + 1, 2);
	g->nsrc = calloc((size_t)g->w.sg->nchan + 1, sizeof(long));
	g->ndst = calloc((size_t)g->w.sg->nchan + 1, sizeof(long));
	g->shift = calloc((size_t)g->w.sg->nchan * (size_t)o->n + 1, 2);
	g->pos = malloc(((size_t)g->top + 1) * sizeof(int));
	g->seen = malloc(((size_t)g->w.sg->nchan + (size_t)g->w.sg->nsw + 1) *
			 sizeof(int));
	if (!g->src_sw || !g->per_src || !g->nsrc || !g->ndst || !g->shift ||
	    !g->pos || !g->seen)
		goto oom;
	for (v = 0, i = 0; v < g->w.sg->nsw; v++) {
		if (g->nca[v])
			g->src_sw[i++] = v;
	}
	for (i = 0; i <= (int)g->top; i++)
		g->pos[i] = -1;
	for (i = 0; i < o->n; i++)
		g->pos[o->lid[i]] = i;
	g->key = -1;
	for (i = 0; i < o->n; i++)
		risk_guard_dest(g, o->lid[i], 1);
	g->over = 0;
	g->excess = 0;
	for (i = 0; i < g->w.sg->nchan; i++)
		g->excess += a2a_excess(g, i);
	{
		size_t q, nq = (size_t)g->w.sg->nchan * (size_t)o->n;

		for (q = 0; q < nq; q++)
			g->excess += g->shift[q] > sp ? g->shift[q] - sp : 0;
	}
	return g;
oom:
	risk_guard_free(g);
	osmre_fail(err, "out of memory");
	return NULL;
}
