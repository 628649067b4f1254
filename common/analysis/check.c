/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Table walker: for one destination LID at a time, the route of every switch
 * is resolved once (memoized along the path), then every source CA port
 * looks up its entry switch.  Work is spread over destination LIDs.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "roles.h"
#include "components.h"
#include "planes.h"
#include "lids.h"
#include "parallel.h"
#include "ranks.h"
#include "cmp.h"

enum { R_OK, R_UNREACH, R_LOOP, R_UPDOWN };

struct memo {
	unsigned gen;
	uint8_t visiting, res, alldown, ud;
	int16_t hops;
	int32_t at; /* switch where the walk failed */
};

struct problem {
	uint8_t kind;
	int32_t src, src_port, at;
};

struct tstate {
	struct memo *m;
	int *stack, *next;
	unsigned gen;
	struct check_result r;
	/* CA pairs by destination plane, [CHECK_MAX_PLANES]: the others;
	 * hops_sum: their reachable paths' links */
	struct check_plane pc[CHECK_MAX_PLANES + 1];
	long hops_sum[CHECK_MAX_PLANES + 1];
	/* switch-to-switch distances from switch dist_from (-1: none yet),
	 * for the pairs longer than the shortest path */
	int *dist, *queue, dist_from;
};

struct ctx {
	const int *comp; /* per node: switch component, CAs -1 */
	/* per component: its plane number (hosted components, in the order
	 * of the hosts' ports), -1; and how many planes */
	const int *plane_no;
	int nplanes;
	/* (a, b) pairs of components some host has ports in both of, as
	 * a << 32 | b, sorted */
	const uint64_t *joined;
	size_t njoined;
	const struct fabric *f;
	const struct lft_set *s;
	const struct check_opts *o;
	const struct lid_owner *own;
	const int *rank;
	/* per node: 1 for a compute CA (roles.h) when the up-down rule
	 * judges only the compute CAs' pairs (a production tree: the other
	 * CAs' routes may turn at one leaf, tree_core.h); NULL: every pair */
	const uint8_t *compute;
	struct tstate *ts;
	struct problem *prob;
};

/* 1 when CAs a and b have ports in a common component. */
static int hosts_meet(const struct ctx *c, int a, int b)
{
	const struct fab_node *na = &c->f->nodes[a];
	int p;

	for (p = 1; p <= na->nports; p++)
		if (na->ports[p].rnode >= 0 &&
		    c->comp[na->ports[p].rnode] >= 0 &&
		    components_meet(c->f, c->comp, b,
				    c->comp[na->ports[p].rnode]))
			return 1;
	return 0;
}

/* 1 when CA a shares a component with some host that has a port in
 * component d (another plane of the hosts a reaches). */
static int host_joins(const struct ctx *c, int a, int d)
{
	const struct fab_node *na = &c->f->nodes[a];
	int p;

	if (!c->njoined)
		return 0;
	for (p = 1; p <= na->nports; p++) {
		int r = na->ports[p].rnode;
		uint64_t k;

		if (r < 0 || c->comp[r] < 0)
			continue;
		k = (uint64_t)(unsigned)c->comp[r] << 32 | (unsigned)d;
		if (bsearch(&k, c->joined, c->njoined, sizeof(k), cmp_u64))
			return 1;
	}
	return 0;
}

/* The (a, b) component pairs that hosts join (ctx.joined); -1: memory. */
static int joined_pairs(const struct fabric *f, const int *comp, uint64_t **out,
			size_t *n)
{
	size_t cap = 0, k = 0;
	uint64_t *v = NULL;
	int h, p, q;

	for (h = 0; h < f->nnodes; h++) {
		const struct fab_node *nd = &f->nodes[h];

		if (nd->type == FAB_SWITCH || nd->removed)
			continue;
		for (p = 1; p <= nd->nports; p++)
			for (q = 1; q <= nd->nports; q++) {
				int a = nd->ports[p].rnode,
				    b = nd->ports[q].rnode;

				if (p == q || a < 0 || b < 0 || comp[a] < 0 ||
				    comp[b] < 0 || comp[a] == comp[b])
					continue;
				if (k == cap) {
					uint64_t *w;

					cap = cap ? 2 * cap : 64;
					w = realloc(v, cap * sizeof(*v));
					if (!w) {
						free(v);
						return -1;
					}
					v = w;
				}
				v[k++] = (uint64_t)(unsigned)comp[a] << 32 |
					 (unsigned)comp[b];
			}
	}
	if (k)
		qsort(v, k, sizeof(*v), cmp_u64);
	*out = v;
	*n = k;
	return 0;
}

/* Resolves switch u for destination (dn, dp) at LID lid. */
static void resolve(struct ctx *c, struct tstate *t, int u, unsigned lid,
		    int dn, int dp)
{
	const struct fabric *f = c->f;
	int n = 0, cur = u, i;
	uint8_t res = R_OK;
	int at = -1, hops = 0, alldown = 1;

	for (;;) {
		struct memo *m = &t->m[cur];
		const struct lft *tb;
		const struct fab_port *pt;
		int port;

		if (m->gen == t->gen && !m->visiting)
			break; /* known */
		if (m->gen == t->gen && m->visiting) {
			res = R_LOOP;
			at = cur;
			cur = -1;
			break;
		}
		m->gen = t->gen;
		m->visiting = 1;
		t->stack[n++] = cur;
		tb = lft_of_node(c->s, cur);
		port = tb ? lft_get(tb, lid) : LFT_NONE;
		if (port == 0 && cur == dn) {
			cur = -1; /* arrived at the destination switch */
			break;
		}
		if (port == LFT_NONE || port == 0 ||
		    port > f->nodes[cur].nports) {
			res = R_UNREACH;
			at = cur;
			cur = -1;
			break;
		}
		pt = &f->nodes[cur].ports[port];
		if (pt->rnode == dn && pt->rport == dp) {
			hops = 1;
			cur = -1;
			break;
		}
		if (pt->rnode < 0 || f->nodes[pt->rnode].type != FAB_SWITCH) {
			res = R_UNREACH;
			at = cur;
			cur = -1;
			break;
		}
		t->next[cur] = pt->rnode;
		cur = pt->rnode;
	}
	/* unwind: the last stacked switch ends the walk or leads to cur */
	for (i = n - 1; i >= 0; i--) {
		int v = t->stack[i];
		struct memo *m = &t->m[v];

		m->visiting = 0;
		if (i == n - 1 && cur < 0) {
			m->res = res;
			m->at = at;
			m->hops = (int16_t)hops;
			m->alldown = (uint8_t)alldown;
			m->ud = (uint8_t)alldown;
		} else {
			const struct memo *nx = &t->m[t->next[v]];
			int rv = c->rank[v], rn = c->rank[t->next[v]];

			m->res = nx->res;
			m->at = nx->at;
			m->hops = (int16_t)(nx->hops + 1);
			m->alldown = rn < rv && nx->alldown;
			m->ud = rn > rv ? nx->ud : m->alldown;
		}
	}
}

static void record(struct ctx *c, unsigned lid, int kind, int src, int sp,
		   int at)
{
	if (!c->prob[lid].kind)
		c->prob[lid] = (struct problem){ (uint8_t)kind, src, sp, at };
}

/* Hops from switch sw to every switch (-1: unreachable), by BFS over the
 * switch links; kept while the destination switch stays the same. */
static const int *switch_dist(const struct fabric *f, struct tstate *t, int sw)
{
	int head = 0, n = 0, i, p;

	if (t->dist_from == sw)
		return t->dist;
	for (i = 0; i < f->nnodes; i++)
		t->dist[i] = -1;
	t->dist[sw] = 0;
	t->queue[n++] = sw;
	while (head < n) {
		const struct fab_node *nd = &f->nodes[t->queue[head]];
		int d = t->dist[t->queue[head++]];

		for (p = 1; p <= nd->nports; p++) {
			int r = nd->ports[p].rnode;

			if (r < 0 || f->nodes[r].type != FAB_SWITCH ||
			    f->nodes[r].removed || t->dist[r] >= 0)
				continue;
			t->dist[r] = d + 1;
			t->queue[n++] = r;
		}
	}
	t->dist_from = sw;
	return t->dist;
}

/* One CA port -> LID pair: kind (R_*) and, for a walked path (R_OK,
 * R_UPDOWN), its links and whether it is longer than the shortest. */
static void tally(struct tstate *t, int plane, int to_switch, int kind,
		  int hops, int longer)
{
	struct check_plane *q;

	if (to_switch) {
		t->r.sw_pairs++;
		t->r.sw_unreachable += kind == R_UNREACH;
		t->r.sw_loops += kind == R_LOOP;
		return;
	}
	if (plane < 0 || plane > CHECK_MAX_PLANES)
		plane = CHECK_MAX_PLANES;
	q = &t->pc[plane];
	q->pairs++;
	if (kind == R_UNREACH || kind == R_LOOP) {
		q->unreachable += kind == R_UNREACH;
		q->loops += kind == R_LOOP;
		return;
	}
	q->updown += kind == R_UPDOWN;
	q->longer += longer;
	t->hops_sum[plane] += hops;
	if (hops < q->min_hops)
		q->min_hops = hops;
	if (hops > q->max_hops)
		q->max_hops = hops;
}

static void check_lid(void *arg, long li, int tid)
{
	struct ctx *c = arg;
	struct tstate *t = &c->ts[tid];
	const struct fabric *f = c->f;
	unsigned lid = (unsigned)li;
	int dn = c->own[lid].node, dp = c->own[lid].port, i, p;
	int to_switch, dcomp, pl;

	if (dn < 0)
		return;
	to_switch = f->nodes[dn].type == FAB_SWITCH;
	dcomp = to_switch ? c->comp[dn] :
		f->nodes[dn].ports[dp].rnode >= 0 ?
			    c->comp[f->nodes[dn].ports[dp].rnode] :
			    -1;
	pl = dcomp >= 0 ? c->plane_no[dcomp] : -1;
	t->gen++;
	for (i = 0; i < f->nnodes; i++) {
		const struct fab_node *src = &f->nodes[i];

		if (src->type == FAB_SWITCH || src->removed)
			continue;
		for (p = 1; p <= src->nports; p++) {
			const struct fab_port *pt = &src->ports[p];
			const struct memo *m;
			int kind = R_OK;

			if (!pt->lid || pt->rnode < 0 || (i == dn && p == dp))
				continue;
			/* planes of a multi-plane fabric are separate
			 * subnets: the hosts meet on another plane (a
			 * switch: a plane of the hosts this one meets); a
			 * host that meets the destination nowhere (a split
			 * fabric) cannot reach it at all */
			if (dcomp >= 0 && c->comp[pt->rnode] >= 0 &&
			    c->comp[pt->rnode] != dcomp) {
				/* (switches of a part without hosts: no SM
				 * would even find them) */
				if (c->plane_no[dcomp] < 0 ||
				    (to_switch ?
					     components_meet(f, c->comp, i,
							     dcomp) ||
						     host_joins(c, i, dcomp) :
					     hosts_meet(c, i, dn)))
					continue;
				tally(t, pl, to_switch, R_UNREACH, 0, 0);
				record(c, lid, R_UNREACH, i, p, -1);
				continue;
			}
			if (pt->rnode == dn && pt->rport == dp) {
				tally(t, pl, to_switch, R_OK, 1, 0);
				continue;
			}
			if (f->nodes[pt->rnode].type != FAB_SWITCH) {
				kind = R_UNREACH;
				m = NULL;
			} else {
				resolve(c, t, pt->rnode, lid, dn, dp);
				m = &t->m[pt->rnode];
				kind = m->res;
				if (kind == R_OK && !to_switch &&
				    c->o->updown && !m->ud &&
				    (!c->compute ||
				     (c->compute[i] && c->compute[dn])))
					kind = R_UPDOWN;
			}
			if (kind != R_OK)
				record(c, lid, kind, i, p, m ? m->at : -1);
			if (kind == R_UNREACH || kind == R_LOOP || to_switch) {
				tally(t, pl, to_switch, kind, 0, 0);
				continue;
			}
			/* a CA-to-CA path is 2 links longer than its switches'
			 * distance */
			{
				int dsw = f->nodes[dn].ports[dp].rnode;
				const int *dist = switch_dist(f, t, dsw);

				tally(t, pl, 0, kind, m->hops + 1,
				      dist[pt->rnode] >= 0 &&
					      m->hops + 1 >
						      dist[pt->rnode] + 2);
			}
		}
	}
}

/* b added to a (hops sums ha, hb) */
static void plane_add(struct check_plane *a, long *ha,
		      const struct check_plane *b, long hb)
{
	a->pairs += b->pairs;
	a->unreachable += b->unreachable;
	a->loops += b->loops;
	a->updown += b->updown;
	a->longer += b->longer;
	if (b->min_hops < a->min_hops)
		a->min_hops = b->min_hops;
	if (b->max_hops > a->max_hops)
		a->max_hops = b->max_hops;
	*ha += hb;
}

static void plane_finish(struct check_plane *a, long hops)
{
	long ok = a->pairs - a->unreachable - a->loops;

	if (a->min_hops == 1 << 30)
		a->min_hops = 0;
	a->avg_hops = ok > 0 ? (double)hops / (double)ok : 0;
}

/* The threads' counts into r: in all, and per plane. */
static void merge_counts(const struct ctx *c, int threads,
			 struct check_result *r)
{
	struct check_plane all = { .min_hops = 1 << 30 };
	long hall = 0;
	int t, pl;

	r->nplanes = c->nplanes;
	for (pl = 0; pl <= CHECK_MAX_PLANES; pl++) {
		struct check_plane one = { .min_hops = 1 << 30 };
		long h = 0;

		for (t = 0; t < threads; t++)
			plane_add(&one, &h, &c->ts[t].pc[pl],
				  c->ts[t].hops_sum[pl]);
		plane_add(&all, &hall, &one, h);
		plane_finish(&one, h);
		if (pl < CHECK_MAX_PLANES && pl < c->nplanes)
			r->plane[pl] = one;
	}
	plane_finish(&all, hall);
	r->pairs = all.pairs;
	r->unreachable = all.unreachable;
	r->loops = all.loops;
	r->updown = all.updown;
	r->longer = all.longer;
	r->min_hops = all.min_hops;
	r->max_hops = all.max_hops;
	r->avg_hops = all.avg_hops;
	for (t = 0; t < threads; t++) {
		r->sw_pairs += c->ts[t].r.sw_pairs;
		r->sw_unreachable += c->ts[t].r.sw_unreachable;
		r->sw_loops += c->ts[t].r.sw_loops;
	}
}

static void print_problems(const struct ctx *c, unsigned max, FILE *out)
{
	/* clang-format off */
	static const char *const what[] = {
		"", "unreachable", "loop", "not up-down",
	};
	/* clang-format on */
	const struct fabric *f = c->f;
	unsigned lid;
	int shown = 0;

	for (lid = 0; lid <= max && shown < c->o->max_report; lid++) {
		const struct problem *p = &c->prob[lid];
		const struct fab_node *d;

		if (!p->kind)
			continue;
		d = &f->nodes[c->own[lid].node];
		fprintf(out, "%s: \"%s\"[%d] -> \"%s\"[%d] (LID %u)",
			what[p->kind], f->nodes[p->src].name, p->src_port,
			d->name, c->own[lid].port, lid);
		if (p->at >= 0)
			fprintf(out, " %s \"%s\"",
				p->kind == R_LOOP   ? "looping through" :
				p->kind == R_UPDOWN ? "via" :
						      "no route at",
				f->nodes[p->at].name);
		if (c->nplanes > 1) {
			int dn = c->own[lid].node, dp = c->own[lid].port;
			int r = d->type == FAB_SWITCH ? dn : d->ports[dp].rnode;

			if (r >= 0 && c->comp[r] >= 0 &&
			    c->plane_no[c->comp[r]] >= 0)
				fprintf(out, " (plane %d)",
					c->plane_no[c->comp[r]]);
		}
		fputc('\n', out);
		shown++;
	}
}

struct no_lid_report {
	FILE *fp;
	const struct fabric *f;
	int n;
};

/* Reports one port without a LID (the first 10). */
static int report_no_lid(void *arg, int node, int port)
{
	struct no_lid_report *nr = arg;

	fprintf(nr->fp, "no LID: \"%s\"[%d]: nobody can reach it\n",
		nr->f->nodes[node].name, port);
	return ++nr->n < 10;
}

/* rank[] as the fat-tree engines route f (roles_ranks), or, where f is
 * no fat tree, r->updown_skipped says why.  0, or -1 with err. */
static int tree_ranks(const struct fabric *f, int *rank, uint8_t **compute,
		      struct check_result *r, struct osmre_err *err)
{
	struct roles ro;
	int rc = 0, i;

	if (roles_compute(f, NULL, &ro, err))
		return -1;
	if (!ro.plain && roles_is_tree(f, &ro)) {
		*compute = malloc((size_t)f->nnodes + 1);
		if (!*compute) {
			roles_free(&ro);
			return osmre_fail(err, "out of memory");
		}
		for (i = 0; i < f->nnodes; i++)
			(*compute)[i] = ro.role[i] == ROLE_COMPUTE;
	}
	if (!roles_is_tree(f, &ro))
		snprintf(
			r->updown_skipped, sizeof(r->updown_skipped), "%s",
			ro.maxrank ?
				"links between switches of one rank are part of its design (a megafly's spines?)" :
				"every switch has hosts (a dragonfly?)");
	else if (!ro.plain)
		rc = roles_ranks(f, &ro, NULL, rank, err);
	roles_free(&ro);
	return rc;
}

int check_lfts(const struct fabric *f, const struct lft_set *s,
	       const struct check_opts *o, struct check_result *r, FILE *report,
	       struct osmre_err *err)
{
	struct check_opts oo = *o;
	struct ctx c = { .f = f, .s = s, .o = &oo };
	uint8_t *compute = NULL;
	struct lid_owner *own = NULL;
	uint64_t *joined = NULL;
	int threads = o->threads > 0 ? o->threads : parallel_default_threads();
	int *rank = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	unsigned max;
	int t, pl, rc = -1;

	memset(r, 0, sizeof(*r));
	int *comp = malloc(((size_t)f->nnodes + 1) * sizeof(int));

	int *plane_no = malloc(((size_t)f->nnodes + 1) * sizeof(int));

	c.ts = calloc((size_t)threads, sizeof(*c.ts));
	c.comp = comp;
	c.plane_no = plane_no;
	if (!rank || !comp || !plane_no || !c.ts ||
	    ranks_compute(f, rank) < 0 || switch_components(f, comp)) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	/* the up-down rule under the fat-tree engines' own ranks (roles.h:
	 * aggregation nodes, storage, edge switches and stray cables apart),
	 * and only where the fabric is a fat tree; on a production tree, the
	 * compute CAs' pairs */
	if (oo.updown && tree_ranks(f, rank, &compute, r, err))
		goto out;
	c.compute = compute;
	oo.updown = oo.updown && !r->updown_skipped[0];
	c.nplanes = fabric_plane_numbers(f, comp, plane_no);
	if (joined_pairs(f, comp, &joined, &c.njoined))
		goto oom;
	c.joined = joined;
	if (lids_owners(f, &own, &max, err))
		goto out;
	c.own = own;
	c.rank = rank;
	c.prob = calloc((size_t)max + 1, sizeof(*c.prob));
	if (!c.prob)
		goto oom;
	for (t = 0; t < threads; t++) {
		c.ts[t].m = calloc((size_t)f->nnodes + 1, sizeof(struct memo));
		c.ts[t].stack = malloc(((size_t)f->nnodes + 1) * sizeof(int));
		c.ts[t].next = malloc(((size_t)f->nnodes + 1) * sizeof(int));
		c.ts[t].dist = malloc(((size_t)f->nnodes + 1) * sizeof(int));
		c.ts[t].queue = malloc(((size_t)f->nnodes + 1) * sizeof(int));
		c.ts[t].dist_from = -1;
		if (!c.ts[t].m || !c.ts[t].stack || !c.ts[t].next ||
		    !c.ts[t].dist || !c.ts[t].queue)
			goto oom;
		for (pl = 0; pl <= CHECK_MAX_PLANES; pl++)
			c.ts[t].pc[pl].min_hops = 1 << 30;
	}
	parallel_for(threads, (long)max + 1, check_lid, &c);
	merge_counts(&c, threads, r);
	{
		struct no_lid_report nr = { report, f, 0 };

		r->no_lid = lids_missing(f, report ? report_no_lid : NULL, &nr);
	}
	if (report)
		print_problems(&c, max, report);
	rc = 0;
	goto out;
oom:
	osmre_fail(err, "out of memory");
out:
	for (t = 0; c.ts && t < threads; t++) {
		free(c.ts[t].m);
		free(c.ts[t].stack);
		free(c.ts[t].next);
		free(c.ts[t].dist);
		free(c.ts[t].queue);
	}
	free(c.ts);
	free(c.prob);
	free(own);
	free(rank);
	free(compute);
	free(comp);
	free(plane_no);
	free(joined);
	return rc;
}
