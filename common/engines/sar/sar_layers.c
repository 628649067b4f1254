/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sar's deadlock freedom (sar.h, sar_int.h): every (source CA port,
 * destination LID) path of the tables gets a layer (SL, VL = SL) so that
 * each layer's channel dependency graph is acyclic; within the budget,
 * the destinations that do not fit go to the last layer (up*-down*,
 * then cdgroute.h).  One layer without building the graph when every
 * path goes up, then down (all_updown).
 */
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cdgroute.h"
#include "cycle.h"
#include "deptab.h"
#include "parallel.h"
#include "risk.h"
#include "swpart.h"
#include "sar_int.h"
#include "updn.h"

/*
 * A layer's channel dependencies (deptab.h: the number of the layer's
 * paths through each) and, with lists, each one's paths: by the
 * dependency's id k, paths[k] holds the npaths[k] paths that had it when
 * they were added (room for lcap ids).  ch: room for a path's channels,
 * one per switch (a path without a loop has fewer; on a ring of n
 * switches the shortest reach n / 2).
 */
struct deps {
	struct deptab t;
	int **paths, *npaths, *cappaths;
	size_t lcap;
	int lists; /* keep each dependency's paths (to move them) */
	int *ch, maxch;
};

static void deps_free(struct deps *d)
{
	size_t i;

	for (i = 0; d->paths && i < d->lcap; i++)
		free(d->paths[i]);
	deptab_free(&d->t);
	free(d->ch);
	free(d->paths);
	free(d->npaths);
	free(d->cappaths);
	memset(d, 0, sizeof(*d));
}

/* Room in the lists for every id of d->t (ids only grow). */
static int deps_room(struct deps *d)
{
	size_t n = d->lcap ? d->lcap : 1024, i;
	int **p;
	int *np, *cp;

	while (n < d->t.n)
		n *= 2;
	if (n == d->lcap)
		return 0;
	p = realloc(d->paths, n * sizeof(*p));
	if (p)
		d->paths = p;
	np = realloc(d->npaths, n * sizeof(*np));
	if (np)
		d->npaths = np;
	cp = realloc(d->cappaths, n * sizeof(*cp));
	if (cp)
		d->cappaths = cp;
	if (!p || !np || !cp)
		return -1;
	for (i = d->lcap; i < n; i++) {
		d->paths[i] = NULL;
		d->npaths[i] = d->cappaths[i] = 0;
	}
	d->lcap = n;
	return 0;
}

/* The channels of the path from switch cur (a source's leaf) to dlid. */
static int path_chans(const struct sar_graph *g, const struct lft_set *s,
		      int cur, unsigned dlid, int *ch, int max)
{
	const struct fabric *f = g->f;
	int n = 0;

	while (cur >= 0 && f->nodes[cur].type == FAB_SWITCH && n < max) {
		const struct lft *t = lft_of_node(s, cur);
		int op = t ? lft_get(t, dlid) : LFT_NONE, r;

		if (op == LFT_NONE || op == 0 || op > f->nodes[cur].nports)
			break;
		r = f->nodes[cur].ports[op].rnode;
		if (r < 0 || f->nodes[r].type != FAB_SWITCH)
			break;
		ch[n++] = g->sg.chan_first[g->sg.idx[cur]] + op;
		cur = r;
	}
	return n;
}

/*
 * The CA ports behind one switch have the same channels to a LID: a path
 * of the layering is (source switch, destination LID), and its CA ports
 * share its layer.
 */
struct layering {
	const struct sar_graph *g;
	struct lft_set *s; /* re-routed where a layer overflows */
	struct sar_result *r;
	unsigned *dlids; /* the CA LIDs */
	int ndl;
	int nsrc, *src_node; /* the source switches (fabric nodes) */
	int *ca_src;	     /* per CA port of r: its source switch */
	uint8_t *lay;	     /* [source switch][LID] */
};

/* Adds (or with sign -1 removes) path (src, dlid)'s dependencies. */
static int path_deps(struct layering *L, struct deps *d, int src, unsigned dlid,
		     int sign)
{
	int *ch = d->ch, n, i;
	uint32_t pid = (uint32_t)(src * (L->r->maxlid + 1) + dlid);

	n = path_chans(L->g, L->s, L->src_node[src], dlid, ch, d->maxch);
	for (i = 0; i + 1 < n; i++) {
		long e =
			deptab_find(&d->t,
				    (uint64_t)ch[i] << 32 | (uint32_t)ch[i + 1],
				    sign > 0);
		int k;

		if (e == -2)
			return -1;
		if (e < 0)
			continue;
		d->t.count[e] += sign;
		if (sign > 0 && d->lists) {
			k = d->t.id[e];
			if ((size_t)k >= d->lcap && deps_room(d))
				return -1;
			if (d->npaths[k] == d->cappaths[k]) {
				int nc =
					d->cappaths[k] ? d->cappaths[k] * 2 : 4;
				int *np = realloc(d->paths[k],
						  (size_t)nc * sizeof(int));

				if (!np)
					return -1;
				d->paths[k] = np;
				d->cappaths[k] = nc;
			}
			d->paths[k][d->npaths[k]++] = (int)pid;
		}
	}
	return 0;
}

/* An edge of the layer's dependency graph: its head, or -1 when none of
 * its paths is left in the layer. */
struct dep_walk {
	const struct deps *d;
	const long *out; /* position -> slot in d */
};

static long dep_head(void *ctx, long pos)
{
	const struct dep_walk *w = ctx;
	long e = w->out[pos];

	return w->d->t.count[e] ? (long)(w->d->t.key[e] & 0xffffffffu) : -1;
}

/* The dependencies of the layer's paths into d (its paths listed when
 * lists), with the out-lists per channel in first/out. */
static int layer_deps(struct layering *L, int layer, struct deps *d, int lists,
		      long *first, long *it, long **out)
{
	const struct sar_graph *g = L->g;
	unsigned stride = L->r->maxlid + 1;
	size_t i;
	int src, k;

	memset(d, 0, sizeof(*d));
	d->maxch = g->sg.nsw;
	d->ch = malloc(((size_t)d->maxch + 1) * sizeof(int));
	if (!d->ch || deptab_init(&d->t, (size_t)g->sg.nchan * 8))
		goto fail;
	d->lists = lists;
	for (src = 0; src < L->nsrc; src++)
		for (k = 0; k < L->ndl; k++)
			if (L->lay[(size_t)src * stride + L->dlids[k]] ==
				    layer &&
			    path_deps(L, d, src, L->dlids[k], 1))
				goto fail;
	free(*out);
	*out = malloc((d->t.n + 1) * sizeof(long));
	if (!*out)
		goto fail;
	memset(first, 0, ((size_t)g->sg.nchan + 2) * sizeof(long));
	for (i = 0; i < d->t.cap; i++)
		if (d->t.key[i] != DEPTAB_EMPTY)
			first[(d->t.key[i] >> 32) + 1]++;
	for (k = 0; k < g->sg.nchan; k++)
		first[k + 1] += first[k];
	memcpy(it, first, (size_t)g->sg.nchan * sizeof(long));
	for (i = 0; i < d->t.cap; i++)
		if (d->t.key[i] != DEPTAB_EMPTY)
			(*out)[it[d->t.key[i] >> 32]++] = (long)i;
	return 0;
fail:
	deps_free(d);
	return -1;
}

/*
 * A cycle's weakest dependency (slot in d), the one with the fewest
 * paths, or -1 when the layer is acyclic.  Finished channels stay
 * finished between calls, as dependencies only go.
 */
static long weakest_in_cycle(const struct deps *d, const long *first,
			     const long *out, int nchan, uint8_t *color,
			     long *stack, long *it)
{
	struct dep_walk w = { d, out };
	struct cycle c;
	long k, best;

	if (!cycle_find(nchan, first, dep_head, &w, color, stack, it, &c))
		return -1;
	best = out[it[stack[c.top - 1]] - 1]; /* the closing one */
	for (k = c.top - c.len; k < c.top - 1; k++) {
		long e = out[it[stack[k]] - 1];

		if (d->t.count[e] < d->t.count[best])
			best = e;
	}
	/* the search starts again: the channels left on its path unseen */
	for (k = 0; k < c.top; k++)
		color[stack[k]] = 0;
	return best;
}

/* Every path to dl leaves the layers: to layer `to` (the fallback's),
 * its dependencies in layer `layer` taken off d. */
static void evict_dest(struct layering *L, struct deps *d, unsigned dl,
		       int layer, int to)
{
	unsigned stride = L->r->maxlid + 1;
	int src;

	for (src = 0; src < L->nsrc; src++) {
		uint8_t *ly = &L->lay[(size_t)src * stride + dl];

		if (*ly == layer)
			path_deps(L, d, src, dl, -1);
		*ly = (uint8_t)to;
	}
}

/*
 * Cycles broken layer by layer from the assignment in L->lay; *over
 * when a path had to go to layer max_vls (left there).  evict_at >= 0:
 * in that layer a cycle's weakest dependency sends the destinations of
 * its paths, all their paths, to layer evict_at + 1 (the fallback's),
 * and the layering stops there.  over_stops: the layering stops as soon
 * as a path goes to layer max_vls (*over; the caller only asks whether
 * it fits).  stop (may be NULL): once set, it returns soon, its layers
 * unfinished.
 */
static int make_layers(struct layering *L, int max_vls, int evict_at, int *over,
		       int over_stops, const atomic_int *stop,
		       struct osmre_err *err)
{
	const struct sar_graph *g = L->g;
	struct sar_result *r = L->r;
	int layer, src, k, rc = -1, cyclic_below = 0;
	uint8_t *color = malloc((size_t)g->sg.nchan + 1);
	long *stack = malloc(((size_t)g->sg.nchan + 1) * sizeof(long));
	long *it = malloc(((size_t)g->sg.nchan + 1) * sizeof(long));
	long *first = malloc(((size_t)g->sg.nchan + 2) * sizeof(long));
	long *out = NULL;

	*over = 0;
	r->layers = 0;
	if (!color || !stack || !it || !first)
		goto oom;
	for (layer = 0;; layer++) {
		struct deps d = { 0 };
		long moved = 0, e;
		int any = 0;

		for (src = 0; src < L->nsrc && !any; src++)
			for (k = 0; k < L->ndl && !any; k++)
				any = L->lay[(size_t)src * (r->maxlid + 1) +
					     L->dlids[k]] == layer;
		if (!any)
			break;
		if (layer >= max_vls) {
			*over = 1;
			break;
		}
		if (stop && atomic_load(stop))
			break;
		r->layers = layer + 1;
		/*
		 * First without the path lists, which most layers need not
		 * build: they have no cycle.  Right above a layer that had
		 * cycles, whose paths moved up here, most do, so there the
		 * lists at once (an acyclic layer then moves nothing and goes
		 * on as below: the same layers either way).
		 */
		if (!cyclic_below) {
			if (layer_deps(L, layer, &d, 0, first, it, &out))
				goto oom;
			memset(color, 0, (size_t)g->sg.nchan + 1);
			e = weakest_in_cycle(&d, first, out, g->sg.nchan, color,
					     stack, it);
			deps_free(&d);
			/* acyclic; a start may have put paths above */
			if (e < 0)
				continue;
		}
		if (layer_deps(L, layer, &d, 1, first, it, &out))
			goto oom;
		memset(color, 0, (size_t)g->sg.nchan + 1);
		while (!*over && (!stop || !atomic_load(stop)) &&
		       (e = weakest_in_cycle(&d, first, out, g->sg.nchan, color,
					     stack, it)) >= 0) {
			/* the weakest dependency's paths go one layer up */
			int j, id = d.t.id[e];

			for (j = 0; j < d.npaths[id]; j++) {
				uint32_t pid = (uint32_t)d.paths[id][j];
				int s2 = (int)(pid / (r->maxlid + 1));
				unsigned dl = pid % (r->maxlid + 1);
				uint8_t *ly =
					&L->lay[(size_t)s2 * (r->maxlid + 1) +
						dl];

				if (*ly != layer)
					continue;
				moved++;
				if (layer == evict_at) {
					evict_dest(L, &d, dl, layer, layer + 1);
					continue;
				}
				*ly = (uint8_t)(layer + 1);
				if (over_stops && layer + 1 >= max_vls) {
					*over = 1; /* (it stays there) */
					break;
				}
				path_deps(L, &d, s2, dl, -1);
			}
		}
		deps_free(&d);
		if (!moved && cyclic_below) {
			cyclic_below = 0;
			continue; /* acyclic: as the check without lists goes on */
		}
		cyclic_below = moved > 0;
		if (*over)
			break;
		if (layer == evict_at) {
			*over = moved > 0;
			break;
		}
	}
	rc = 0;
	goto out;
oom:
	osmre_fail(err, "out of memory");
out:
	free(color);
	free(stack);
	free(it);
	free(first);
	free(out);
	return rc;
}

/*
 * The layering's start: every path in layer 0, or (groups) by the
 * direction between the groups of its two switches: towards a higher
 * group in layer 0, a lower one in layer 1, inside a group in layer 0.
 */
static void start_layers(const struct sar_work *sw, struct layering *L,
			 const int *group)
{
	unsigned stride = L->r->maxlid + 1;
	int src, k;

	for (src = 0; src < L->nsrc; src++)
		for (k = 0; k < L->ndl; k++) {
			const struct lid_owner *o = &sw->own[L->dlids[k]];
			int dsw = sw->f->nodes[o->node].ports[o->port].rnode;
			int gs = group ? group[L->src_node[src]] : 0;
			int gd = group && dsw >= 0 ? group[dsw] : 0;

			L->lay[(size_t)src * stride + L->dlids[k]] =
				(uint8_t)(gs > gd);
		}
}

/*
 * The destination LIDs marked in want, which are to share one layer:
 * up*-down* routes from every source (updn.h), then each routed again by
 * load where the layer stays acyclic (cdgroute.h); all their paths on
 * that layer, counted in r->updn_lids and r->cdg_lids.  *a2a: the A2A
 * risk of the tables as left (-1: not measured).
 */
static int by_load(struct sar_work *sw, struct layering *L, const uint8_t *want,
		   int layer, int flags, long *a2a, struct osmre_err *err)
{
	struct sar_result *r = L->r;
	unsigned stride = r->maxlid + 1;
	struct cdgroute_info ci;
	int src, k;

	const struct risk_order *ord = sar_order(sw, err);

	if (!ord ||
	    updn_route_lids(sw->f, &sw->g.sg, L->s, want, r->maxlid, NULL,
			    err) ||
	    cdg_route_lids(sw->f, L->s, want, r->maxlid, ord, flags, &ci, err))
		return -1;
	*a2a = ci.a2a;
	r->cdg_lids += ci.rerouted;
	for (k = 0; k < L->ndl; k++) {
		if (!want[L->dlids[k]])
			continue;
		r->updn_lids++;
		for (src = 0; src < L->nsrc; src++)
			L->lay[(size_t)src * stride + L->dlids[k]] =
				(uint8_t)layer;
	}
	return 0;
}

/*
 * The budget overrun: every destination LID with a path in the last
 * layer of the budget or above is routed up*-down* (updn.h) from every
 * source, all its paths in that last layer, then again destination by
 * destination over any links where the layer stays acyclic, by load
 * (cdgroute.h).  The layers below only lose paths, so they stay acyclic;
 * the last holds the fallback's paths alone.  *a2a: as by_load's.
 */
static int fallback_layer(struct sar_work *sw, struct layering *L, int budget,
			  long *a2a, struct osmre_err *err)
{
	struct sar_result *r = L->r;
	unsigned stride = r->maxlid + 1;
	uint8_t *want = calloc(stride, 1);
	int src, k, rc;

	if (!want)
		return osmre_fail(err, "out of memory");
	for (src = 0; src < L->nsrc; src++)
		for (k = 0; k < L->ndl; k++)
			if (L->lay[(size_t)src * stride + L->dlids[k]] >=
			    budget - 1)
				want[L->dlids[k]] = 1;
	r->updn_lids = 0;
	r->cdg_lids = 0;
	rc = by_load(sw, L, want, budget - 1, 0, a2a, err);
	r->layers = budget;
	free(want);
	return rc;
}

/*
 * The ways over the budget: every destination on up*-down* routes, then
 * routed by load (by_load; flags: cdgroute.h), each layer holding its
 * own destinations only, as Nue spreads them, by groups: the
 * destinations of neighbouring switches share a layer
 * (switch_partition: each layer about 1/budget of the CA ports of each
 * plane, grown from a switch over its links, as Nue's METIS partition
 * keeps near destinations together), whole groups at a time on a fabric
 * with groups (switch_groups: a dragonfly's cliques), switch by switch
 * on one without (a megafly whose spines form no triangle: there a
 * leaf's destinations then share a layer with its spines' other
 * leaves').  A destination behind no partitioned switch goes by LID:
 * the k-th destination LID in port GUID order on layer k % budget (not
 * LID order: OpenSM numbers the LIDs in its discovery order, and the
 * layers must not depend on it).  *a2a: as by_load's.
 */
static int spread_layers(struct sar_work *sw, struct layering *L, int budget,
			 int flags, long *a2a, struct osmre_err *err)
{
	struct sar_result *r = L->r;
	const struct swgraph *sg = &sw->g.sg;
	unsigned stride = r->maxlid + 1;
	uint8_t *want = calloc(stride, 1);
	int *part = malloc(((size_t)sw->f->nnodes + 1) * sizeof(int));
	/* the groups when there are some (not one, not every switch alone) */
	const int *group =
		sg->ngroups > 1 && sg->ngroups < sg->nsw ? sg->group : NULL;
	int k, layer, rc = 0;

	if (!want || !part)
		rc = osmre_fail(err, "out of memory");
	else
		rc = switch_partition(sw->f, group, budget, part, err);
	if (rc) {
		free(want);
		free(part);
		return -1;
	}
	r->updn_lids = 0;
	r->cdg_lids = 0;
	for (layer = 0; layer < budget && !rc; layer++) {
		memset(want, 0, stride);
		for (k = 0; k < L->ndl; k++) {
			const struct lid_owner *o = &sw->own[L->dlids[k]];
			int dsw = sw->f->nodes[o->node].ports[o->port].rnode;
			int lay = k % budget;

			if (dsw >= 0 && part[dsw] >= 0)
				lay = part[dsw];
			if (lay == layer)
				want[L->dlids[k]] = 1;
		}
		rc = by_load(sw, L, want, layer, flags, a2a, err);
	}
	r->layers = budget;
	free(want);
	free(part);
	return rc;
}

/*
 * After spread_layers: the layers below the last were routed against the
 * later layers' up*-down* routes, so each once more by load against
 * their final ones (cdg_refine_lids), a pass kept only where it lowers
 * the A2A risk.  *a2a: in, spread_layers'; out, that of the tables left.
 */
static int refine_layers(struct sar_work *sw, struct layering *L, int budget,
			 int flags, long *a2a, struct osmre_err *err)
{
	unsigned stride = L->r->maxlid + 1;
	uint8_t *want = calloc(stride, 1);
	int k, layer, rc = 0;

	if (!want)
		return osmre_fail(err, "out of memory");
	for (layer = 0; layer + 1 < budget && !rc; layer++) {
		memset(want, 0, stride);
		for (k = 0; k < L->ndl; k++)
			if (L->lay[L->dlids[k]] == layer)
				want[L->dlids[k]] = 1;
		/* each pass starts from the A2A the one before left */
		rc = cdg_refine_lids(sw->f, L->s, want, L->r->maxlid,
				     sar_order(sw, err), flags, a2a, err);
	}
	free(want);
	return rc;
}

/* The tables' copy fallback_best makes, at most (else the last layer). */
#define SPREAD_BYTES ((size_t)256 << 20)

/* 1 when fallback_best may copy L's tables for its ways (else it routes
 * the last layer alone). */
static int ways_fit(const struct layering *L)
{
	size_t bytes = 0;
	int i;

	for (i = 0; i < L->s->n; i++)
		bytes += (size_t)L->s->t[i].top + 1;
	return bytes <= SPREAD_BYTES;
}

/* fallback_best's ways, one per index (SAR_WAY_*): the tables of L[i],
 * then their A2A and RP risks.  Each way in two stages (way_run): its
 * layers routed, then refined; stage[i] is 1 once its layers are done
 * (under mu, signalled on cv). */
struct ways_job {
	struct sar_work *sw;
	struct layering *L[SAR_WAYS];
	int budget;
	const struct risk_order *ord;
	long a2a[SAR_WAYS], rp[SAR_WAYS]; /* -1: not tried */
	int rc[SAR_WAYS];
	struct osmre_err err[SAR_WAYS];
	int stage[SAR_WAYS];
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

/*
 * The ways tried, in the order they start (n of way_run): the slower
 * first (by path weight about twice by load), so that on threads the
 * last to end is short.  Why these two: bench/README.md, "Over the
 * budget: how sar routes".
 */
static const int way_order[] = { SAR_WAY_NUE_GROUPS, SAR_WAY_GROUPS };
#define NWAYS ((int)(sizeof(way_order) / sizeof(way_order[0])))
_Static_assert(NWAYS == SAR_WAYS - 1,
	       "way_order: every way but SAR_WAY_LAST once");

/*
 * A stage of fallback_best's ways, the n-th to start: n < NWAYS, way
 * way_order[n]'s layers (spread_layers); then, n - NWAYS, its refinement
 * (refine_layers) and its risks, once its layers are done.  The stages
 * are handed out in order (parallel_for), so a way's layers have started
 * when its refinement waits for them; on two threads the slower way's
 * two stages bound the time.
 */
static void way_run(void *arg, long n, int tid)
{
	struct ways_job *j = arg;
	int i = way_order[n % NWAYS];
	struct layering *L = j->L[i];
	int flags = sar_way_weighted(i) ? CDG_WEIGHTED | CDG_TREE_START : 0;

	(void)tid;
	if (n < NWAYS) {
		j->rc[i] = spread_layers(j->sw, L, j->budget, flags, &j->a2a[i],
					 &j->err[i]);
		pthread_mutex_lock(&j->mu);
		j->stage[i] = 1;
		pthread_cond_broadcast(&j->cv);
		pthread_mutex_unlock(&j->mu);
		return;
	}
	pthread_mutex_lock(&j->mu);
	while (!j->stage[i])
		pthread_cond_wait(&j->cv, &j->mu);
	pthread_mutex_unlock(&j->mu);
	if (j->rc[i])
		return;
	j->rc[i] = refine_layers(j->sw, L, j->budget, flags, &j->a2a[i],
				 &j->err[i]) ||
		   /* the last pass measured it, unless nothing was routed */
		   (j->a2a[i] < 0 &&
		    risk_a2a(j->sw->f, L->s, j->ord, &j->a2a[i], &j->err[i])) ||
		   risk_rp(j->sw->f, L->s, j->ord, WAY_RP_PERMS, WAY_RP_SEED,
			   &j->rp[i], &j->err[i]);
}

/*
 * The way kept: the lowest RP risk, then the lowest A2A risk, then the
 * first way (-1 risks: a way not tried).  RP first: the congestion of
 * any permutation, which the jobs' traffic resembles more than all to
 * all; on the held-out draws (bench/README) the ways of the least RP
 * were at or below nue's RP and EFI more often than those of the least
 * worst ratio of the two risks, with A2A as often.
 */
int sar_way_pick(const long *a2a, const long *rp, int n)
{
	int i, best = -1;

	for (i = 0; i < n; i++) {
		if (a2a[i] < 0 || rp[i] < 0)
			continue;
		if (best < 0 || rp[i] < rp[best] ||
		    (rp[i] == rp[best] && a2a[i] < a2a[best]))
			best = i;
	}
	return best < 0 ? 0 : best;
}

/*
 * Over the budget with 2 layers or more, the ways of sar.h (way_order),
 * on threads: SAR_WAY_GROUPS on L itself, each other on its own copy of
 * the tables and layers, all from the same start (the same result on one
 * thread); the one of sar_way_pick kept.  With one layer, or tables too
 * large to copy (ways_fit), the last layer alone (fallback_layer).
 */
static int fallback_best(struct sar_work *sw, struct layering *L, int budget,
			 struct osmre_err *err)
{
	struct sar_result *r = L->r, rw[SAR_WAYS];
	size_t sz = (size_t)L->nsrc * (r->maxlid + 1) + 1;
	struct lft_set other[SAR_WAYS];
	struct layering Lw[SAR_WAYS];
	struct ways_job j = { 0 };
	int i, rc = -1;
	long a2a; /* (the last layer alone: not needed) */

	r->way = SAR_WAY_LAST;
	for (i = 0; i < SAR_WAYS; i++)
		r->way_a2a[i] = r->way_rp[i] = -1;
	if (budget < 2 || !ways_fit(L))
		return fallback_layer(sw, L, budget, &a2a, err);
	memset(other, 0, sizeof(other));
	memset(Lw, 0, sizeof(Lw));
	j = (struct ways_job){ .sw = sw,
			       .budget = budget,
			       .mu = PTHREAD_MUTEX_INITIALIZER,
			       .cv = PTHREAD_COND_INITIALIZER };
	for (i = 0; i < SAR_WAYS; i++) {
		j.a2a[i] = j.rp[i] = -1;
		if (i == SAR_WAY_LAST)
			continue;
		j.L[i] = i == SAR_WAY_GROUPS ? L : &Lw[i];
		if (i == SAR_WAY_GROUPS)
			continue;
		rw[i] = *r;
		Lw[i] = *L;
		Lw[i].lay = malloc(sz);
		if (!Lw[i].lay) {
			osmre_fail(err, "out of memory");
			goto out;
		}
		memcpy(Lw[i].lay, L->lay, sz);
		if (lft_set_clone(L->s, &other[i], err))
			goto out;
		Lw[i].s = &other[i];
		Lw[i].r = &rw[i];
	}
	/* built here, before the ways read it in parallel */
	j.ord = sar_order(sw, err);
	if (!j.ord)
		goto out;
	parallel_for(sar_threads(sw, NWAYS), 2 * NWAYS, way_run, &j);
	pthread_cond_destroy(&j.cv);
	pthread_mutex_destroy(&j.mu);
	for (i = 0; i < SAR_WAYS; i++)
		if (i != SAR_WAY_LAST && j.rc[i]) {
			*err = j.err[i];
			goto out;
		}
	for (i = 0; i < SAR_WAYS; i++) {
		r->way_a2a[i] = j.a2a[i];
		r->way_rp[i] = j.rp[i];
	}
	r->way = sar_way_pick(j.a2a, j.rp, SAR_WAYS);
	if (r->way != SAR_WAY_GROUPS) {
		lft_set_copy_entries(L->s, &other[r->way]);
		memcpy(L->lay, Lw[r->way].lay, sz);
		r->updn_lids = rw[r->way].updn_lids;
		r->cdg_lids = rw[r->way].cdg_lids;
	}
	r->layers = budget;
	rc = 0;
out:
	for (i = 0; i < SAR_WAYS; i++) {
		free(Lw[i].lay);
		lft_set_free(&other[i]);
	}
	return rc;
}

/* How many destination LIDs the fallback layer would take (a path in
 * layer budget - 1 or above). */
static long overflow_dests(const struct layering *L, int budget)
{
	unsigned stride = L->r->maxlid + 1;
	long n = 0;
	int src, k;

	for (k = 0; k < L->ndl; k++)
		for (src = 0; src < L->nsrc; src++)
			if (L->lay[(size_t)src * stride + L->dlids[k]] >=
			    budget - 1) {
				n++;
				break;
			}
	return n;
}

/* What the path from a switch to a LID does (all_updown). */
enum { UD_BAD, UD_DOWN, UD_UPDOWN };

/* all_updown's work, shared by its threads: LIDs in blocks of 64 (the
 * tables' cache lines), per thread its own marks. */
struct ud_job {
	const struct sar_work *sw;
	const struct layering *L;
	const uint8_t *up;	/* per link: it climbs */
	const int *src_sw;	/* per source: its switch */
	const struct lft **tab; /* per switch */
	int *seen, *cls, *st;	/* per thread, nsw + 1 each */
	atomic_int ok;		/* no bad path found so far */
};

/* The paths to the LIDs dlids[64 b ..] from every source. */
static void ud_block(void *arg, long b, int tid)
{
	struct ud_job *j = arg;
	const struct sar_graph *g = &j->sw->g;
	const struct layering *L = j->L;
	size_t m = (size_t)g->sg.nsw + 1;
	int *seen = j->seen + m * (size_t)tid, *cls = j->cls + m * (size_t)tid;
	int *st = j->st + m * (size_t)tid, src, k, end = (int)b * 64 + 64;

	if (end > L->ndl)
		end = L->ndl;
	for (k = (int)b * 64; k < end && atomic_load(&j->ok); k++) {
		unsigned dl = L->dlids[k];

		if (j->sw->updown && j->sw->updown[dl] == 2)
			continue; /* known (keep_tree) */
		for (src = 0; src < L->nsrc; src++) {
			int u = j->src_sw[src], n = 0, c;

			/* down the path to a switch classified for dl; st[]
			 * holds the switches and the links they take */
			while (seen[u] != k) {
				int o = j->tab[u] ? lft_get(j->tab[u], dl) :
						    LFT_NONE;
				int l;

				seen[u] = k;
				cls[u] = -1; /* on this walk */
				if (o == LFT_NONE || o == 0 ||
				    o > g->sg.nports[u] ||
				    (l = g->sg.link_of[g->sg.chan_first[u] + o]) <
					    0) {
					cls[u] = UD_DOWN; /* the path ends */
					break;
				}
				st[n++] = l;
				u = g->sg.l[l].to;
			}
			c = cls[u];
			if (c < 0) /* a loop */
				c = UD_BAD;
			/* back up: each switch from the class of its next */
			while (n--) {
				int l = st[n];

				if (j->up[l])
					c = c == UD_BAD ? UD_BAD : UD_UPDOWN;
				else
					c = c == UD_DOWN ? UD_DOWN : UD_BAD;
				cls[g->sg.l[l].from] = c;
			}
			if (c == UD_BAD) {
				atomic_store(&j->ok, 0);
				return;
			}
		}
	}
}

/*
 * 1 when every path of the layering goes up, then down, in the total
 * order (fat-tree rank, node index): then no channel dependency leads
 * from a down channel to an up one, ups climb and downs descend, and the
 * graph is acyclic on one layer without being built (a fat tree's
 * shortest paths; the dependencies are what costs at scale).  Per LID,
 * each switch on a path is classified once (down only, up then down, or
 * bad) from the class of its next switch: paths from many sources share
 * their tails.  A loop is bad (the layering then says more).  The LIDs
 * are shared among threads in blocks; the answer does not depend on them.
 */
static int all_updown(const struct sar_work *sw, const struct layering *L)
{
	const struct sar_graph *g = &sw->g;
	long blocks = (L->ndl + 63) / 64;
	int th = sar_threads(sw, blocks > 0 ? blocks : 1);
	size_t m = (size_t)g->sg.nsw + 1;
	int *seen = malloc(m * (size_t)th * sizeof(int));
	int *cls = malloc(m * (size_t)th * sizeof(int));
	int *st = malloc(m * (size_t)th * sizeof(int));
	int *src_sw = malloc(((size_t)L->nsrc + 1) * sizeof(int));
	const uint8_t *up = g->up;
	const struct lft **tab = malloc(m * sizeof(*tab));
	struct ud_job j = { sw, L, up, src_sw, tab, seen, cls, st, 0 };
	int src, i, ok = 0;

	if (!seen || !cls || !st || !src_sw || !up || !tab)
		goto out;
	for (i = 0; i < g->sg.nsw; i++)
		tab[i] = lft_of_node(L->s, g->sg.node[i]);
	for (i = 0; i < (int)m * th; i++)
		seen[i] = -1; /* the LID index it was classified for */
	for (src = 0; src < L->nsrc; src++)
		src_sw[src] = g->sg.idx[L->src_node[src]];
	atomic_init(&j.ok, 1);
	parallel_for(th, blocks, ud_block, &j);
	ok = atomic_load(&j.ok);
out:
	free(seen);
	free(cls);
	free(st);
	free(src_sw);
	free(tab);
	return ok;
}

/* assign_layers' two starts: from the groups' directions (n 0) and from
 * layer 0 (n 1), each on its own layering. */
struct starts_job {
	const struct sar_work *sw;
	struct layering *L[2];
	int budget, over[2], rc[2];
	int over_stops; /* make_layers' (assign_layers) */
	struct osmre_err err[2];
	atomic_int stop; /* the first start fits in 2: the second not needed */
};

static void start_run(void *arg, long n, int tid)
{
	struct starts_job *j = arg;

	(void)tid;
	start_layers(j->sw, j->L[n], n ? NULL : j->sw->g.sg.group);
	j->rc[n] = make_layers(j->L[n], j->budget, -1, &j->over[n],
			       j->over_stops, n ? &j->stop : NULL, &j->err[n]);
	if (!n && !j->rc[n] && !j->over[n] && j->L[n]->r->layers <= 2)
		atomic_store(&j->stop, 1);
}

/*
 * Layers within budget.  On a fabric with groups (switch_groups), first
 * from the groups' directions, kept when that fits in 2 layers; else,
 * or on any other fabric, from layer 0, and of the two the fewer
 * destinations on the fallback, then the fewer layers.  With threads
 * both starts run at once, the second stopped where the first fits in
 * 2; the layers are the same on one.  Over the budget, the fallback
 * layer.  Where the ways will route afresh (or the caller asks only
 * whether it fits), a start stops at its first path over the budget.
 */
static int assign_layers(struct sar_work *sw, struct layering *L, int budget,
			 struct osmre_err *err)
{
	struct sar_result *r = L->r, r0;
	size_t sz = (size_t)L->nsrc * (r->maxlid + 1) + 1;
	const struct swgraph *sg = &sw->g.sg;
	int groups = sg->ngroups > 1 && sg->ngroups < sg->nsw;
	int over = 0, group_start = 0, rc = -1, n, i;
	struct layering L0 = *L;
	struct starts_job j = { .sw = sw, .L = { L, &L0 }, .budget = budget };

	L0.lay = NULL;
	atomic_init(&j.stop, 0);
	/* (the evict pass and the last layer alone need the layers whole) */
	j.over_stops = sw->fit_only || (budget >= 2 && ways_fit(L));
	if (all_updown(sw, L)) { /* one layer, acyclic */
		sw->all_ud = 1;
		r->layers = L->nsrc && L->ndl ? 1 : 0;
		rc = 0;
		goto out;
	}
	if (!groups) {
		j.L[1] = L; /* from layer 0, on L itself */
		start_run(&j, 1, 0);
		if (j.rc[1]) {
			*err = j.err[1];
			goto out;
		}
		over = j.over[1];
		goto done;
	}
	r0 = *r;
	L0.r = &r0;
	/* zero as L's: the starts set only the CA destinations' entries, and
	 * L may take these whole */
	L0.lay = calloc(sz, 1);
	if (!L0.lay) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	n = sar_threads(sw, 2);
	parallel_for(n, n, start_run, &j);
	for (i = 0; i < n; i++)
		if (j.rc[i]) {
			*err = j.err[i];
			goto out;
		}
	over = j.over[0];
	group_start = 1;
	if (!over && r->layers <= 2)
		goto done;
	if (n < 2) {
		start_run(&j, 1, 0);
		if (j.rc[1]) {
			*err = j.err[1];
			goto out;
		}
	}
	/* both over and stopped early: their layers are unfinished, and
	 * only that they are over counts */
	if (over && j.over[1] && j.over_stops)
		goto done;
	{
		long ov = over ? overflow_dests(L, budget) : 0;
		long ov0 = j.over[1] ? overflow_dests(&L0, budget) : 0;

		/* the fewer destinations on the fallback, then the fewer
		 * layers; the groups' start on a tie */
		if (ov0 < ov || (ov0 == ov && r0.layers < r->layers)) {
			memcpy(L->lay, L0.lay, sz);
			r->layers = r0.layers;
			over = j.over[1];
			group_start = 0;
		}
	}
done:
	if (over && sw->fit_only) { /* only whether it fits */
		r->updn_lids = 1;
		rc = 0;
		goto out;
	}
	/* over the budget, where the last layer alone will be routed (the
	 * ways start afresh): again from the better start, now sending whole
	 * destinations to the fallback layer from the last layer below it */
	if (over && budget >= 2 && !ways_fit(L)) {
		/* (the groups' start needs 2 layers below the fallback's) */
		start_layers(sw, L,
			     group_start && budget >= 3 ? sg->group : NULL);
		if (make_layers(L, budget, budget - 2, &over, 0, NULL, err))
			goto out;
	}
	if (over && fallback_best(sw, L, budget, err))
		goto out;
	rc = 0;
out:
	free(L0.lay);
	return rc;
}

/* The layers of the CA-to-CA paths of s (make_layers), into r->layer. */
int sar_layer_paths(struct sar_work *sw, struct lft_set *s,
		    struct sar_result *r, struct osmre_err *err)
{
	const struct fabric *f = sw->f;
	const struct lid_owner *own = sw->own;
	struct layering L = { 0 };
	int *src_of_sw = NULL, k, rc = -1;
	unsigned lid;

	L.dlids = malloc(((size_t)r->maxlid + 1) * sizeof(unsigned));
	L.src_node = malloc(((size_t)sw->g.sg.nsw + 1) * sizeof(int));
	L.ca_src = malloc(((size_t)r->ncas + 1) * sizeof(int));
	src_of_sw = malloc(((size_t)sw->g.sg.nsw + 1) * sizeof(int));
	if (!L.dlids || !L.src_node || !L.ca_src || !src_of_sw)
		goto oom;
	for (lid = 1; lid <= r->maxlid; lid++)
		if (own[lid].node >= 0 &&
		    f->nodes[own[lid].node].type != FAB_SWITCH &&
		    !(sw->o->base_only &&
		      updn_is_high(&f->nodes[own[lid].node].ports[own[lid].port],
				   lid)))
			L.dlids[L.ndl++] = lid;
	/* by port GUID: the same layers however OpenSM numbered the LIDs */
	if (lids_sort_guid(f, own, L.dlids, L.ndl, err))
		goto out;
	L.g = &sw->g;
	L.s = s;
	L.r = r;
	/* the CA ports behind one switch share its paths */
	for (k = 0; k < sw->g.sg.nsw; k++)
		src_of_sw[k] = -1;
	for (k = 0; k < r->ncas; k++) {
		int t = sw->g.sg.idx[f->nodes[r->ca_node[k]]
					     .ports[r->ca_port[k]]
					     .rnode];

		if (src_of_sw[t] < 0) {
			src_of_sw[t] = L.nsrc;
			L.src_node[L.nsrc++] = sw->g.sg.node[t];
		}
		L.ca_src[k] = src_of_sw[t];
	}
	L.lay = calloc((size_t)L.nsrc * (r->maxlid + 1) + 1, 1);
	if (!L.lay)
		goto oom;
	if (assign_layers(sw, &L, sw->o->max_vls > 0 ? sw->o->max_vls : 8, err))
		goto out;
	/* one layer: no array (every path in layer 0; sar.h) */
	if (r->layers > 1) {
		r->layer = malloc((size_t)r->ncas * (r->maxlid + 1) + 1);
		if (!r->layer)
			goto oom;
		for (k = 0; k < r->ncas; k++)
			memcpy(r->layer + (size_t)k * (r->maxlid + 1),
			       L.lay + (size_t)L.ca_src[k] * (r->maxlid + 1),
			       r->maxlid + 1);
	}
	rc = 0;
	goto out;
oom:
	osmre_fail(err, "out of memory");
out:
	free(src_of_sw);
	free(L.dlids);
	free(L.src_node);
	free(L.ca_src);
	free(L.lay);
	return rc;
}
