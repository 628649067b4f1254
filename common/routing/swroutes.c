/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Switches are numbered compactly, levelled ones first from the top
 * level down, and their switch links kept in three adjacency lists (up,
 * down, any), each in port order.  The levelled switches' LIDs are routed
 * 64 at a time, one bit per destination switch in a word per switch
 * (bit-parallel searches, word_batch()); the routes are those of one
 * search per destination (one_switch(), kept for switches with no level).
 */
#include <stdlib.h>
#include <string.h>

#include "parallel.h"
#include "swgraph.h"
#include "swroutes.h"

#define INF    0x3fffffff
#define BATCH  64
#define NODIST 0xff

struct adj {
	int nb;	  /* compact index of the neighbour */
	int port; /* our port towards it */
};

struct csr {
	int *first; /* nsw + 1 */
	struct adj *a;
};

struct sw_job {
	const struct fabric *f;
	struct lft_set *s;
	int nsw, nlev;	 /* switches; the levelled ones come first */
	int *node, *lvl; /* per compact index */
	struct lft **lft;
	struct csr up, down, any;
	int **dist, **queue; /* per thread */
	uint8_t **anc;	     /* per thread: x's ancestors (or x) */
	int top, nd;	     /* top level; distances 0..nd-1 of up-down
			      * paths */
	long nbatch;	     /* batches of BATCH levelled switches */
	struct words **w;    /* per thread */
};

/* per thread, for BATCH destinations x_0..x_63 at once: bit b of a word
 * is about x_b */
struct words {
	uint64_t *anc;	 /* nsw: the x_b this switch is an ancestor of */
	uint64_t *le;	 /* nlev * nd: x_b within up-down distance d */
	uint64_t *done;	 /* nlev: the x_b switch k has a port for */
	uint8_t *dist;	 /* nsw * BATCH: switch k's any-path distance */
	uint64_t *seen;	 /* nsw: any-path search */
	uint64_t *front; /* nsw */
	uint64_t *next;	 /* nsw */
	uint64_t *ge;	 /* top + 2: the x_b of level >= m */
};

/* The links of switch graph g between the compact switches (idx: g's
 * index -> this job's), in g's order (port order), those going up
 * (dir +1) or down (-1) a level or any (0). */
static int csr_build(struct sw_job *j, const struct swgraph *g, const int *idx,
		     struct csr *c, int dir) /* +1 up, -1 down, 0 any */
{
	int k, e, n = 0;

	c->first = malloc(((size_t)j->nsw + 1) * sizeof(int));
	if (!c->first)
		return -1;
	for (k = 0; k < j->nsw; k++) {
		int gk = g->idx[j->node[k]];

		c->first[k] = n;
		for (e = g->out_first[gk]; e < g->out_first[gk + 1]; e++)
			n += !dir ||
			     (j->lvl[k] > 0 &&
			      j->lvl[idx[g->l[e].to]] == j->lvl[k] + dir);
	}
	c->first[j->nsw] = n;
	c->a = malloc(((size_t)n + 1) * sizeof(struct adj));
	if (!c->a)
		return -1;
	for (k = 0, n = 0; k < j->nsw; k++) {
		int gk = g->idx[j->node[k]];

		for (e = g->out_first[gk]; e < g->out_first[gk + 1]; e++) {
			int r = idx[g->l[e].to];

			if (!dir ||
			    (j->lvl[k] > 0 && j->lvl[r] == j->lvl[k] + dir))
				c->a[n++] = (struct adj){ r, g->l[e].port };
		}
	}
	return 0;
}

static void set_port(struct sw_job *j, int k, unsigned lid, int port)
{
	struct lft *t = j->lft[k];

	if (t && lid <= t->top)
		t->port[lid] = (uint8_t)port;
}

/* Shortest paths of any kind towards x for the switches left without a
 * route (not yet set). */
static void any_path(struct sw_job *j, int x, unsigned lid, int *dist,
		     int *queue, int all)
{
	int head = 0, tail = 0, k, e;

	for (k = 0; k < j->nsw; k++)
		dist[k] = INF;
	dist[x] = 0;
	queue[tail++] = x;
	while (head < tail) {
		k = queue[head++];
		for (e = j->any.first[k]; e < j->any.first[k + 1]; e++)
			if (dist[j->any.a[e].nb] == INF) {
				dist[j->any.a[e].nb] = dist[k] + 1;
				queue[tail++] = j->any.a[e].nb;
			}
	}
	for (k = 0; k < j->nlev; k++) {
		struct lft *t = j->lft[k];

		if (k == x || dist[k] == INF || !t || lid > t->top ||
		    (!all && t->port[lid] != LFT_NONE))
			continue;
		for (e = j->any.first[k]; e < j->any.first[k + 1]; e++)
			if (dist[j->any.a[e].nb] == dist[k] - 1) {
				t->port[lid] = (uint8_t)j->any.a[e].port;
				break;
			}
	}
}

static void one_switch(void *arg, long i, int tid)
{
	struct sw_job *j = arg;
	int x = (int)i, *dist = j->dist[tid], *queue = j->queue[tid];
	unsigned lid = j->f->nodes[j->node[x]].ports[0].lid;
	uint8_t *anc = j->anc[tid];
	int head = 0, tail = 0, k, e, lost = 0;

	if (!lid)
		return;
	set_port(j, x, lid, 0);
	if (x >= j->nlev) { /* no level: any path */
		any_path(j, x, lid, dist, queue, 1);
		return;
	}
	for (k = 0; k < j->nlev; k++) {
		dist[k] = INF;
		anc[k] = 0;
	}
	/* x's ancestors reach it going down: BFS upwards from x */
	dist[x] = 0;
	anc[x] = 1;
	queue[tail++] = x;
	while (head < tail) {
		k = queue[head++];
		for (e = j->up.first[k]; e < j->up.first[k + 1]; e++) {
			int r = j->up.a[e].nb;

			if (!anc[r]) {
				anc[r] = 1;
				dist[r] = dist[k] + 1;
				queue[tail++] = r;
			}
		}
	}
	/* the others go up first: parents (numbered lower) before children */
	for (k = 0; k < j->nlev; k++) {
		int best = INF;

		if (anc[k])
			continue;
		for (e = j->up.first[k]; e < j->up.first[k + 1]; e++)
			if (dist[j->up.a[e].nb] + 1 < best)
				best = dist[j->up.a[e].nb] + 1;
		dist[k] = best;
	}
	for (k = 0; k < j->nlev; k++) {
		const struct csr *c = anc[k] ? &j->down : &j->up;

		if (k == x)
			continue;
		if (dist[k] >= INF) {
			lost = 1;
			continue;
		}
		/* down along x's ancestors, or up towards them */
		for (e = c->first[k]; e < c->first[k + 1]; e++) {
			int r = c->a[e].nb;

			if (dist[r] == dist[k] - 1 && (!anc[k] || anc[r])) {
				set_port(j, k, lid, c->a[e].port);
				break;
			}
		}
	}
	if (lost)
		any_path(j, x, lid, dist, queue, 0);
}

static void words_free(struct words *w)
{
	if (!w)
		return;
	free(w->anc);
	free(w->le);
	free(w->done);
	free(w->dist);
	free(w->seen);
	free(w->front);
	free(w->next);
	free(w->ge);
	free(w);
}

static struct words *words_new(const struct sw_job *j)
{
	struct words *w = calloc(1, sizeof(*w));
	size_t n = (size_t)j->nsw + 1;

	if (!w)
		return NULL;
	w->anc = malloc(n * sizeof(uint64_t));
	w->le = malloc(((size_t)j->nlev * j->nd + 1) * sizeof(uint64_t));
	w->done = malloc(n * sizeof(uint64_t));
	w->dist = malloc(n * BATCH);
	w->seen = malloc(n * sizeof(uint64_t));
	w->front = malloc(n * sizeof(uint64_t));
	w->next = malloc(n * sizeof(uint64_t));
	w->ge = malloc(((size_t)j->top + 2) * sizeof(uint64_t));
	if (!w->anc || !w->le || !w->done || !w->dist || !w->seen ||
	    !w->front || !w->next || !w->ge) {
		words_free(w);
		return NULL;
	}
	return w;
}

/* x_b's ancestors (x_b itself included), from the lowest level up */
static void batch_ancestors(const struct sw_job *j, struct words *w, int x0,
			    int n)
{
	int k, e, b;

	memset(w->anc, 0, (size_t)j->nlev * sizeof(uint64_t));
	memset(w->ge, 0, ((size_t)j->top + 2) * sizeof(uint64_t));
	for (b = 0; b < n; b++) {
		w->anc[x0 + b] |= 1ULL << b;
		w->ge[j->lvl[x0 + b]] |= 1ULL << b;
	}
	for (k = j->top; k >= 1; k--)
		w->ge[k] |= w->ge[k + 1];
	for (k = j->nlev - 1; k >= 0; k--)
		if (w->anc[k])
			for (e = j->up.first[k]; e < j->up.first[k + 1]; e++)
				w->anc[j->up.a[e].nb] |= w->anc[k];
}

/* one_switch's distances for BATCH destinations, as words: bit b of
 * le[k * nd + d] when switch k is within up-down distance d of x_b.  An
 * ancestor is lvl[k] - lvl[x_b] above x_b; any other switch is one more
 * than its closest parent (parents, numbered lower, come first). */
static void batch_distances(const struct sw_job *j, struct words *w)
{
	int k, e, d, nd = j->nd;

	for (k = 0; k < j->nlev; k++) {
		uint64_t *le = w->le + (size_t)k * nd, anc = w->anc[k];

		for (d = 0; d < nd; d++) {
			uint64_t up = 0;
			int m = j->lvl[k] - d;

			if (d)
				for (e = j->up.first[k]; e < j->up.first[k + 1];
				     e++)
					up |= w->le[(size_t)j->up.a[e].nb * nd +
						    d - 1];
			le[d] = (anc & w->ge[m < 1 ? 1 : m]) | (up & ~anc);
		}
	}
}

/* bit-parallel breadth-first search over any links from the x_b in
 * `which`: w->dist becomes the hop distance (NODIST: unreachable); returns
 * the x_b whose search went deeper than a distance fits */
static uint64_t batch_any_search(const struct sw_job *j, struct words *w,
				 int x0, uint64_t which)
{
	uint64_t more = which;
	int k, e, d;

	memset(w->dist, NODIST, (size_t)j->nsw * BATCH);
	memset(w->seen, 0, (size_t)j->nsw * sizeof(uint64_t));
	memset(w->front, 0, (size_t)j->nsw * sizeof(uint64_t));
	for (; more; more &= more - 1) {
		int b = __builtin_ctzll(more);

		w->seen[x0 + b] = w->front[x0 + b] = 1ULL << b;
		w->dist[(size_t)(x0 + b) * BATCH + b] = 0;
	}
	for (d = 1, more = 1; more && d < NODIST; d++) {
		memset(w->next, 0, (size_t)j->nsw * sizeof(uint64_t));
		for (k = 0; k < j->nsw; k++)
			if (w->front[k])
				for (e = j->any.first[k];
				     e < j->any.first[k + 1]; e++)
					w->next[j->any.a[e].nb] |= w->front[k];
		more = 0;
		for (k = 0; k < j->nsw; k++) {
			uint64_t nb = w->next[k] & ~w->seen[k];

			w->front[k] = nb;
			w->seen[k] |= nb;
			more |= nb;
			for (; nb; nb &= nb - 1)
				w->dist[(size_t)k * BATCH + __builtin_ctzll(nb)] =
					(uint8_t)d;
		}
	}
	if (!more)
		return 0;
	for (k = 0; k < j->nsw; k++)
		more |= w->front[k];
	return more;
}

/* the first port of k (in c) towards a neighbour one hop closer to x_b */
static int closer_port(const struct words *w, const struct csr *c, int k, int b)
{
	int e, d = w->dist[(size_t)k * BATCH + b];

	for (e = c->first[k]; e < c->first[k + 1]; e++)
		if (w->dist[(size_t)c->a[e].nb * BATCH + b] == d - 1)
			return c->a[e].port;
	return -1;
}

static void set_ports(struct sw_job *j, int k, const unsigned *lid,
		      uint64_t bits, int port)
{
	for (; bits; bits &= bits - 1)
		set_port(j, k, lid[__builtin_ctzll(bits)], port);
}

/* switch k's entries for the x_b in `want` whose shortest up-down path
 * starts at k (one_switch's choice, for all b at once): down along the
 * x_b's ancestors, or up to a parent one hop closer; returns the x_b
 * given a port */
static uint64_t updown_ports(struct sw_job *j, const struct words *w, int k,
			     const unsigned *lid, uint64_t want)
{
	const uint64_t *le = w->le + (size_t)k * j->nd;
	uint64_t rem = want & w->anc[k], done = 0;
	int e, d;

	for (e = j->down.first[k]; rem && e < j->down.first[k + 1]; e++) {
		uint64_t hit = rem & w->anc[j->down.a[e].nb];

		set_ports(j, k, lid, hit, j->down.a[e].port);
		rem &= ~hit;
		done |= hit;
	}
	/* the others at distance d: every parent is at d - 1 or more */
	rem = want & ~w->anc[k];
	for (d = 1; rem && d < j->nd; d++) {
		uint64_t at = rem & le[d];

		rem &= ~at;
		for (e = j->up.first[k]; at && e < j->up.first[k + 1]; e++) {
			const struct adj *a = &j->up.a[e];
			uint64_t hit =
				at & w->le[(size_t)a->nb * j->nd + d - 1];

			set_ports(j, k, lid, hit, a->port);
			at &= ~hit;
			done |= hit;
		}
	}
	return done;
}

/* one_switch() for the levelled switches x0 .. x0+n-1 at once */
static void word_batch(struct sw_job *j, int tid, int x0, int n)
{
	struct words *w = j->w[tid];
	unsigned lid[BATCH];
	uint64_t live = 0, lost = 0, deep;
	int k, b, p;

	for (b = 0; b < n; b++) {
		lid[b] = j->f->nodes[j->node[x0 + b]].ports[0].lid;
		if (lid[b]) {
			live |= 1ULL << b;
			set_port(j, x0 + b, lid[b], 0);
		}
	}
	if (!live)
		return;
	batch_ancestors(j, w, x0, n);
	batch_distances(j, w);
	for (k = 0; k < j->nlev; k++) {
		uint64_t self = k >= x0 && k < x0 + n ? 1ULL << (k - x0) : 0,
			 want = live & ~self,
			 reach = want & w->le[(size_t)k * j->nd + j->nd - 1];

		lost |= want & ~reach;
		w->done[k] = updown_ports(j, w, k, lid, reach) | self;
	}
	if (!lost)
		return;
	/* any_path(): shortest paths of any kind for the entries not set */
	deep = batch_any_search(j, w, x0, lost);
	lost &= ~deep;
	for (k = 0; k < j->nlev; k++) {
		struct lft *t = j->lft[k];
		uint64_t todo;

		if (!t)
			continue;
		for (todo = lost & ~w->done[k]; todo; todo &= todo - 1) {
			b = __builtin_ctzll(todo);
			if (w->dist[(size_t)k * BATCH + b] == NODIST ||
			    lid[b] > t->top || t->port[lid[b]] != LFT_NONE)
				continue;
			p = closer_port(w, &j->any, k, b);
			if (p >= 0)
				t->port[lid[b]] = (uint8_t)p;
		}
	}
	for (; deep; deep &= deep - 1) /* paths of 255 hops or more */
		one_switch(j, x0 + __builtin_ctzll(deep), tid);
}

/* item i: a batch of levelled switches, or one switch with no level */
static void route_item(void *arg, long i, int tid)
{
	struct sw_job *j = arg;

	if (i < j->nbatch) {
		int x0 = (int)i * BATCH, n = j->nlev - x0;

		word_batch(j, tid, x0, n < BATCH ? n : BATCH);
	} else {
		one_switch(arg, j->nlev + (i - j->nbatch), tid);
	}
}

int swroutes_updown(const struct fabric *f, const int *level, struct lft_set *s,
		    int threads, struct osmre_err *err)
{
	struct sw_job j = { .f = f, .s = s };
	struct swgraph g;
	int *idx = NULL; /* g's switch index -> this job's */
	int n, k, t, l, top = 0, rc = 0;

	if (threads <= 0)
		threads = parallel_default_threads();
	j.node = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	j.lvl = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	j.lft = malloc(((size_t)f->nnodes + 1) * sizeof(struct lft *));
	j.dist = calloc((size_t)threads, sizeof(int *));
	j.queue = calloc((size_t)threads, sizeof(int *));
	j.anc = calloc((size_t)threads, sizeof(uint8_t *));
	j.w = calloc((size_t)threads, sizeof(struct words *));
	if (swgraph_build(f, &g) || !j.node || !j.lvl || !j.lft || !j.dist ||
	    !j.queue || !j.anc || !j.w)
		goto oom;
	idx = malloc(((size_t)g.nsw + 1) * sizeof(int));
	if (!idx)
		goto oom;
	/* this job's order: levelled switches from the top, then the rest */
	for (k = 0; k < g.nsw; k++) {
		idx[k] = -1;
		if (level[g.node[k]] > top)
			top = level[g.node[k]];
	}
	for (l = top; l >= 1; l--)
		for (k = 0; k < g.nsw; k++)
			if (level[g.node[k]] == l) {
				idx[k] = j.nsw;
				j.lvl[j.nsw] = l;
				j.node[j.nsw++] = g.node[k];
			}
	j.nlev = j.nsw;
	for (k = 0; k < g.nsw; k++)
		if (idx[k] < 0) {
			idx[k] = j.nsw;
			j.lvl[j.nsw] = 0;
			j.node[j.nsw++] = g.node[k];
		}
	for (n = 0; n < j.nsw; n++)
		j.lft[n] = lft_of_node(s, j.node[n]);
	j.top = top;
	j.nd = 2 * top + 1;
	j.nbatch = (j.nlev + BATCH - 1) / BATCH;
	if (csr_build(&j, &g, idx, &j.up, 1) ||
	    csr_build(&j, &g, idx, &j.down, -1) ||
	    csr_build(&j, &g, idx, &j.any, 0))
		goto oom;
	for (t = 0; t < threads; t++)
		if (!(j.dist[t] = malloc(((size_t)j.nsw + 1) * sizeof(int))) ||
		    !(j.queue[t] = malloc(((size_t)j.nsw + 1) * sizeof(int))) ||
		    !(j.anc[t] = malloc((size_t)j.nsw + 1)) ||
		    !(j.w[t] = words_new(&j)))
			goto oom;
	parallel_for(threads, j.nbatch + (j.nsw - j.nlev), route_item, &j);
	goto out;
oom:
	rc = osmre_fail(err, "out of memory");
out:
	for (t = 0; j.dist && j.queue && j.anc && j.w && t < threads; t++) {
		free(j.dist[t]);
		free(j.queue[t]);
		free(j.anc[t]);
		words_free(j.w[t]);
	}
	free(j.w);
	free(j.dist);
	free(j.queue);
	free(j.anc);
	free(j.up.first);
	free(j.up.a);
	free(j.down.first);
	free(j.down.a);
	free(j.any.first);
	free(j.any.a);
	free(j.node);
	free(j.lvl);
	free(j.lft);
	free(idx);
	swgraph_free(&g);
	return rc;
}
