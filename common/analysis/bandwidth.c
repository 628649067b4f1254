/* SPDX-License-Identifier: BSD-2-Clause */
/* Flow-level bandwidth estimate: max-min fair rates (bandwidth.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bandwidth.h"
#include "components.h"
#include "planes.h"
#include "rng.h"

/* A binary min-heap of (key, channel), stale entries skipped on pop. */
struct bw_heap {
	double *key;
	int *ch;
	long n, cap;
};

static int heap_push(struct bw_heap *h, double key, int ch)
{
	long i = h->n++;

	if (h->n > h->cap) {
		long cap = h->cap ? 2 * h->cap : 1024;
		double *k = realloc(h->key, (size_t)cap * sizeof(*k));
		int *c;

		if (!k)
			return -1;
		h->key = k;
		c = realloc(h->ch, (size_t)cap * sizeof(*c));
		if (!c)
			return -1;
		h->ch = c;
		h->cap = cap;
	}
	while (i > 0 && h->key[(i - 1) / 2] > key) {
		h->key[i] = h->key[(i - 1) / 2];
		h->ch[i] = h->ch[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->key[i] = key;
	h->ch[i] = ch;
	return 0;
}

static void heap_pop(struct bw_heap *h, double *key, int *ch)
{
	double k = h->key[--h->n];
	int c = h->ch[h->n];
	long i = 0;

	*key = h->key[0];
	*ch = h->ch[0];
	for (;;) {
		long j = 2 * i + 1;

		if (j >= h->n)
			break;
		if (j + 1 < h->n && h->key[j + 1] < h->key[j])
			j++;
		if (h->key[j] >= k)
			break;
		h->key[i] = h->key[j];
		h->ch[i] = h->ch[j];
		i = j;
	}
	if (h->n) {
		h->key[i] = k;
		h->ch[i] = c;
	}
}

/* The fill level at which channel c is full (INFINITY: no flow left). */
static double full_at(const double *cap, const double *used, const double *grow,
		      int c)
{
	return grow[c] > 1e-12 ? (cap[c] - used[c]) / grow[c] : INFINITY;
}

int bw_maxmin(int nflows, const long *first, const int *chan,
	      const double *coef, int nchan, const double *cap, double *rate,
	      struct osmre_err *err)
{
	/* per channel: load of the frozen flows, sum of the coefficients of
	 * the growing ones, and its flows (CSR) */
	double *used = calloc((size_t)nchan + 1, sizeof(double));
	double *grow = calloc((size_t)nchan + 1, sizeof(double));
	long *cfirst = calloc((size_t)nchan + 2, sizeof(long));
	int *cflow = malloc(((size_t)first[nflows] + 1) * sizeof(int));
	uint8_t *frozen = calloc((size_t)nflows + 1, 1);
	struct bw_heap h = { 0 };
	int f, c, rc = -1;
	long k;

	if (!used || !grow || !cfirst || !cflow || !frozen)
		goto out;
	for (f = 0; f < nflows; f++) {
		rate[f] = 0;
		frozen[f] = first[f] == first[f + 1];
		for (k = first[f]; k < first[f + 1]; k++) {
			grow[chan[k]] += coef[k];
			cfirst[chan[k] + 2]++;
		}
	}
	for (c = 0; c < nchan; c++)
		cfirst[c + 2] += cfirst[c + 1];
	for (f = 0; f < nflows; f++)
		for (k = first[f]; k < first[f + 1]; k++)
			cflow[cfirst[chan[k] + 1]++] = f;
	for (c = 0; c < nchan; c++)
		if (grow[c] > 1e-12 &&
		    heap_push(&h, full_at(cap, used, grow, c), c))
			goto out;
	while (h.n) {
		double level, now;

		heap_pop(&h, &level, &c);
		now = full_at(cap, used, grow, c);
		if (now != level) /* stale: its key changed since */
			continue;
		/* c is full at this level: its growing flows stop there */
		for (k = cfirst[c]; k < cfirst[c + 1]; k++) {
			long j;

			f = cflow[k];
			if (frozen[f])
				continue;
			frozen[f] = 1;
			rate[f] = level;
			for (j = first[f]; j < first[f + 1]; j++) {
				int d = chan[j];

				used[d] += coef[j] * level;
				grow[d] -= coef[j];
				if (grow[d] <= 1e-12) {
					grow[d] = 0;
					continue;
				}
				if (d != c &&
				    heap_push(&h, full_at(cap, used, grow, d),
					      d))
					goto out;
			}
		}
	}
	rc = 0;
out:
	if (rc)
		osmre_fail(err, "out of memory");
	free(used);
	free(grow);
	free(cfirst);
	free(cflow);
	free(frozen);
	free(h.key);
	free(h.ch);
	return rc;
}

/* The fabric's planes, channels and hosts, and one problem's flows. */
struct bw_work {
	const struct fabric *f;
	const struct lft_set *s;
	const struct bw_opts *o;
	int nplanes;
	int *plane_of;	 /* per node: a switch's plane, -1 */
	long *chan_base; /* channel of (node, port): chan_base[n] + port */
	int nchan;
	double *cap;
	int nhosts;
	int *host;  /* CA nodes with a port on some plane, node order */
	int *hport; /* hport[h * nplanes + p]: its port on plane p, 0 */
	/* the flows of a problem (CSR of channels and coefficients) */
	int nflows, maxflows;
	int *fsrc;
	long *first, npairs, maxpairs;
	int *chan;
	double *coef;
	int *path; /* per plane, a walk of up to path_len channels */
	size_t path_len;
};

/* The channels of the route on plane p from host a to host b into
 * plane p's part of w->path; their number, or -1 when that plane does not
 * route it. */
static int walk(struct bw_work *w, int a, int b, int p)
{
	int *path = w->path + (size_t)p * w->path_len;
	const struct fabric *f = w->f;
	int pa = w->hport[(size_t)a * w->nplanes + p];
	int pb = w->hport[(size_t)b * w->nplanes + p];
	int na = w->host[a], nb = w->host[b], cur, n = 0, hops;
	unsigned lid;

	if (!pa || !pb || !(lid = f->nodes[nb].ports[pb].lid))
		return -1;
	path[n++] = (int)(w->chan_base[na] + pa);
	cur = f->nodes[na].ports[pa].rnode;
	for (hops = 0; hops <= f->nnodes; hops++) {
		const struct lft *t = lft_of_node(w->s, cur);
		int o = t ? lft_get(t, lid) : LFT_NONE, r;

		if (o == LFT_NONE || o <= 0 || o > f->nodes[cur].nports)
			return -1;
		r = f->nodes[cur].ports[o].rnode;
		if (r < 0)
			return -1;
		path[n++] = (int)(w->chan_base[cur] + o);
		if (r == nb)
			return n;
		if (f->nodes[r].type != FAB_SWITCH)
			return -1;
		cur = r;
	}
	return -1; /* a loop */
}

static int add_pair(struct bw_work *w, long need)
{
	if (w->npairs + need <= w->maxpairs)
		return 0;
	if (w->npairs + need > w->o->max_pairs)
		return -1;
	w->maxpairs = 2 * (w->npairs + need);
	if (w->maxpairs > w->o->max_pairs)
		w->maxpairs = w->o->max_pairs;
	{
		int *c = realloc(w->chan, (size_t)w->maxpairs * sizeof(int));
		double *k;

		if (!c)
			return -1;
		w->chan = c;
		k = realloc(w->coef, (size_t)w->maxpairs * sizeof(double));
		if (!k)
			return -1;
		w->coef = k;
	}
	return 0;
}

/* Flow a -> b by the rail policy, appended (each plane walked once);
 * 0, with *unrouted counting it when no plane routes it; -1 over
 * max_pairs or out of memory (err). */
static int add_flow(struct bw_work *w, int a, int b, long *unrouted,
		    struct osmre_err *err)
{
	int p, n, k, np = 0, pick = -1;
	int use[64], len[64];

	for (p = 0; p < w->nplanes; p++)
		if ((n = walk(w, a, b, p)) > 0) {
			len[np] = n;
			use[np++] = p;
		}
	if (!np) {
		++*unrouted;
		return 0;
	}
	if (w->o->rail == BW_RAIL_FIRST)
		pick = use[0];
	else if (w->o->rail == BW_RAIL_HASH) {
		uint64_t x = ((uint64_t)(unsigned)a << 32 | (unsigned)b) ^
			     (w->o->seed * 0x9e3779b97f4a7c15ULL);

		x ^= x >> 33;
		x *= 0xff51afd7ed558ccdULL;
		x ^= x >> 33;
		pick = use[x % (uint64_t)np];
	}
	if (w->nflows >= w->maxflows) {
		int m = w->maxflows ? 2 * w->maxflows : 4096;
		int *s = realloc(w->fsrc, (size_t)m * sizeof(int));
		long *fi;

		if (!s)
			return osmre_fail(err, "out of memory");
		w->fsrc = s;
		fi = realloc(w->first, ((size_t)m + 1) * sizeof(long));
		if (!fi)
			return osmre_fail(err, "out of memory");
		w->first = fi;
		w->maxflows = m;
	}
	w->first[w->nflows] = w->npairs;
	for (k = 0; k < np; k++) {
		const int *path = w->path + (size_t)use[k] * w->path_len;

		if (pick >= 0 && use[k] != pick)
			continue;
		if (add_pair(w, len[k]))
			return osmre_fail(
				err,
				"more than %ld (flow, link) pairs: the pattern is too large for the flow-level model (try shift or perm)",
				w->o->max_pairs);
		for (p = 0; p < len[k]; p++) {
			w->chan[w->npairs] = path[p];
			w->coef[w->npairs++] = pick >= 0 ? 1.0 : 1.0 / np;
		}
	}
	w->fsrc[w->nflows++] = a;
	w->first[w->nflows] = w->npairs;
	return 0;
}

/* The planes, channels, capacities and hosts of the fabric. */
static int bw_setup(struct bw_work *w, struct osmre_err *err)
{
	const struct fabric *f = w->f;
	int *comp = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	int *pidx = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	int n, i, p, rc = -1;
	long c = 0;

	w->plane_of = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	w->chan_base = malloc(((size_t)f->nnodes + 1) * sizeof(long));
	w->host = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	if (!comp || !pidx || !w->plane_of || !w->chan_base || !w->host ||
	    switch_components(f, comp))
		goto oom;
	/* planes: components holding host ports, by the hosts' first ports */
	w->nplanes = fabric_plane_numbers(f, comp, pidx);
	if (w->nplanes > 64) {
		osmre_fail(err, "%d planes: at most 64", w->nplanes);
		goto out;
	}
	for (n = 0; n < f->nnodes; n++) {
		w->plane_of[n] = comp[n] >= 0 ? pidx[comp[n]] : -1;
		w->chan_base[n] = c;
		c += f->nodes[n].nports + 1;
	}
	if (c > 0x7fffffffL) {
		osmre_fail(err, "too many ports");
		goto out;
	}
	w->nchan = (int)c;
	w->cap = malloc(((size_t)w->nchan + 1) * sizeof(double));
	w->hport = calloc(((size_t)f->nnodes + 1) * (size_t)w->nplanes + 1,
			  sizeof(int));
	w->path_len = (size_t)f->nnodes + 2; /* (a host, the switches) */
	w->path = malloc(w->path_len * (size_t)(w->nplanes + 1) * sizeof(int));
	if (!w->cap || !w->hport || !w->path)
		goto oom;
	for (n = 0; n < f->nnodes; n++) {
		const struct fab_node *nd = &f->nodes[n];

		for (i = 0; i <= nd->nports; i++) {
			int r = i ? nd->ports[i].rnode : -1, pl;

			pl = nd->type == FAB_SWITCH ? w->plane_of[n] :
			     r >= 0		    ? w->plane_of[r] :
						      -1;
			if (pl < 0)
				pl = 0;
			w->cap[w->chan_base[n] + i] =
				w->o->speed[pl < w->o->nspeed ?
						    pl :
						    w->o->nspeed - 1];
		}
		if (nd->type == FAB_SWITCH || nd->removed)
			continue;
		for (i = 1, p = 0; i <= nd->nports; i++) {
			int r = nd->ports[i].rnode;

			if (r >= 0 && w->plane_of[r] >= 0 &&
			    !w->hport[(size_t)w->nhosts * w->nplanes +
				      w->plane_of[r]]) {
				w->hport[(size_t)w->nhosts * w->nplanes +
					 w->plane_of[r]] = i;
				p = 1;
			}
		}
		if (p)
			w->host[w->nhosts++] = n;
	}
	rc = 0;
	goto out;
oom:
	osmre_fail(err, "out of memory");
out:
	free(comp);
	free(pidx);
	return rc;
}

static void bw_free(struct bw_work *w)
{
	free(w->plane_of);
	free(w->chan_base);
	free(w->cap);
	free(w->host);
	free(w->hport);
	free(w->fsrc);
	free(w->first);
	free(w->chan);
	free(w->coef);
	free(w->path);
}

/* Solves the problem in w, adds it to r (per host sums in hsum). */
static int solve(struct bw_work *w, double *hsum, struct bw_result *r,
		 struct osmre_err *err)
{
	double *rate = malloc(((size_t)w->nflows + 1) * sizeof(double));
	double agg = 0;
	int f, h;

	if (!rate)
		return osmre_fail(err, "out of memory");
	if (w->nflows && bw_maxmin(w->nflows, w->first, w->chan, w->coef,
				   w->nchan, w->cap, rate, err)) {
		free(rate);
		return -1;
	}
	/* (a host that sends nothing in this problem, a permutation's fixed
	 * point, is not counted) */
	for (h = 0; h < w->nhosts; h++)
		hsum[h] = -1;
	for (f = 0; f < w->nflows; f++) {
		hsum[w->fsrc[f]] += rate[f] + (hsum[w->fsrc[f]] < 0);
		agg += rate[f];
	}
	for (h = 0; h < w->nhosts; h++) {
		if (hsum[h] < 0)
			continue;
		if (!r->senders++)
			r->host_min = r->host_max = hsum[h];
		if (hsum[h] < r->host_min)
			r->host_min = hsum[h];
		if (hsum[h] > r->host_max)
			r->host_max = hsum[h];
		r->host_avg += hsum[h];
	}
	r->aggregate += agg;
	r->flows = w->nflows;
	r->patterns++;
	free(rate);
	return 0;
}

int bw_hosts(const struct fabric *f, struct osmre_err *err)
{
	static const double one = 1;
	struct bw_opts o = { .speed = &one, .nspeed = 1 };
	struct bw_work w = { .f = f, .o = &o };
	int n = bw_setup(&w, err) ? -1 : w.nhosts;

	bw_free(&w);
	return n;
}

int bw_plane_pairs(const struct fabric *f, const struct lft_set *s, int *planes,
		   long *pairs, long *any, long *every, struct osmre_err *err)
{
	static const double one = 1;
	struct bw_opts o = { .speed = &one, .nspeed = 1 };
	struct bw_work w = { .f = f, .s = s, .o = &o };
	int a, b, k, c;

	*pairs = *any = *every = 0;
	if (bw_setup(&w, err)) {
		bw_free(&w);
		return -1;
	}
	*planes = w.nplanes;
	for (a = 0; a < w.nhosts; a++)
		for (b = 0; b < w.nhosts; b++) {
			if (a == b)
				continue;
			for (k = 0, c = 0; k < w.nplanes; k++)
				c += walk(&w, a, b, k) > 0;
			++*pairs;
			*any += c > 0;
			*every += c == w.nplanes;
		}
	bw_free(&w);
	return 0;
}

int bw_estimate(const struct fabric *f, const struct lft_set *s,
		const struct bw_opts *o, struct bw_result *r,
		struct osmre_err *err)
{
	struct bw_work w = { .f = f, .s = s, .o = o };
	double *hsum = NULL;
	int *perm = NULL, *hidx = NULL, rc = -1, i, j, q, jb;
	struct rng g;

	memset(r, 0, sizeof(*r));
	if (bw_setup(&w, err))
		goto out;
	r->planes = w.nplanes;
	r->hosts = w.nhosts;
	hsum = calloc((size_t)w.nhosts + 1, sizeof(double));
	perm = malloc(((size_t)w.nhosts + 1) * sizeof(int));
	hidx = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	if (!hsum || !perm || !hidx) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	if (w.nhosts < 2) {
		osmre_fail(err, "fewer than two hosts with a port");
		goto out;
	}
	if (o->pattern == BW_SHIFT && (o->shift < 1 || o->shift >= w.nhosts)) {
		osmre_fail(err,
			   "shift %ld: expected 1..%d (the hosts less one)",
			   o->shift, w.nhosts - 1);
		goto out;
	}
	rng_seed(&g, o->seed);
	for (q = 0; q < (o->pattern == BW_PERM ? o->nperm : 1); q++) {
		w.nflows = 0;
		w.npairs = 0;
		if (o->pattern == BW_SHIFT || o->pattern == BW_PERM) {
			if (o->pattern == BW_PERM)
				rng_permutation(&g, perm, w.nhosts);
			for (i = 0; i < w.nhosts; i++) {
				int b = o->pattern == BW_SHIFT ?
						(int)((i + o->shift) %
						      w.nhosts) :
						perm[i];

				if (b == i)
					continue;
				if (add_flow(&w, i, b, &r->unrouted, err))
					goto out;
			}
		} else if (o->pattern == BW_A2A) {
			for (i = 0; i < w.nhosts; i++)
				for (j = 0; j < w.nhosts; j++) {
					if (i == j)
						continue;
					if (add_flow(&w, i, j, &r->unrouted,
						     err))
						goto out;
				}
		} else { /* intra-job: hosts by node */
			for (i = 0; i < f->nnodes; i++)
				hidx[i] = -1;
			for (i = 0; i < w.nhosts; i++)
				hidx[w.host[i]] = i;
			for (jb = 0; jb < o->jobs->njobs; jb++) {
				const int *nd =
					o->jobs->node + o->jobs->first[jb];
				int c = o->jobs->count[jb];

				for (i = 0; i < c; i++)
					for (j = 0; j < c; j++) {
						if (i == j || hidx[nd[i]] < 0 ||
						    hidx[nd[j]] < 0)
							continue;
						if (add_flow(&w, hidx[nd[i]],
							     hidx[nd[j]],
							     &r->unrouted, err))
							goto out;
					}
			}
		}
		if (solve(&w, hsum, r, err))
			goto out;
	}
	r->aggregate /= r->patterns;
	if (r->senders)
		r->host_avg /= (double)r->senders;
	rc = 0;
out:
	free(hsum);
	free(perm);
	free(hidx);
	bw_free(&w);
	return rc;
}
