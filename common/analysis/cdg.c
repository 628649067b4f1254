/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdlib.h>
#include <string.h>

#include "cdg.h"
#include "cycle.h"
#include "lids.h"
#include "cmp.h"

#define NVL   16
#define EMPTY UINT64_MAX

/*
 * Virtual channel of switch n leaving by port p on VL vl:
 * (chan[n] + p) * NVL + vl.  Dependencies are (from << 32 | to) in an open
 * addressing set.  A channel dependency graph, not a switch graph (that
 * is swgraph.h).
 */
struct cdg_graph {
	const struct fabric *f;
	const struct lft_set *s;
	long *chan; /* per node: first channel (switches only) */
	int *cnode; /* per channel: its switch */
	long nchan;
	uint64_t *set;
	size_t cap, n;
	int maxvl;
	/* with an SL map: per (switch input channel, SL), the LID whose
	 * routes last passed there (mark_route) */
	unsigned *seen;
};

static int sw_port(const struct fabric *f, int n, int p)
{
	int r;

	if (p < 1 || p > f->nodes[n].nports)
		return 0;
	r = f->nodes[n].ports[p].rnode;
	return r >= 0 && f->nodes[r].type == FAB_SWITCH;
}

static uint64_t vc_of(struct cdg_graph *g, int n, int p, int vl)
{
	if (vl > g->maxvl)
		g->maxvl = vl;
	return (uint64_t)(g->chan[n] + p) * NVL + (uint64_t)vl;
}

static size_t slot_of(uint64_t k, size_t cap)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (size_t)k & (cap - 1);
}

static int add_dep(struct cdg_graph *g, uint64_t from, uint64_t to)
{
	uint64_t k = from << 32 | to;
	size_t i;

	if ((g->n + 1) * 2 > g->cap) {
		size_t nc = g->cap ? g->cap * 2 : 1 << 16, j;
		uint64_t *ns = malloc(nc * sizeof(*ns));

		if (!ns)
			return -1;
		for (j = 0; j < nc; j++)
			ns[j] = EMPTY;
		for (j = 0; j < g->cap; j++)
			if (g->set[j] != EMPTY) {
				i = slot_of(g->set[j], nc);
				while (ns[i] != EMPTY)
					i = (i + 1) & (nc - 1);
				ns[i] = g->set[j];
			}
		free(g->set);
		g->set = ns;
		g->cap = nc;
	}
	for (i = slot_of(k, g->cap); g->set[i] != EMPTY;
	     i = (i + 1) & (g->cap - 1))
		if (g->set[i] == k)
			return 0;
	g->set[i] = k;
	g->n++;
	return 0;
}

/* One VL: the dependencies of all routes towards one LID at once. */
static int mark_lid(struct cdg_graph *g, unsigned lid)
{
	const struct fabric *f = g->f;
	int n;

	for (n = 0; n < f->nnodes; n++) {
		const struct lft *t = lft_of_node(g->s, n);
		const struct lft *tm;
		int o, m, out;

		if (!t)
			continue;
		o = lft_get(t, lid);
		if (!sw_port(f, n, o))
			continue;
		m = f->nodes[n].ports[o].rnode;
		tm = lft_of_node(g->s, m);
		out = tm ? lft_get(tm, lid) : LFT_NONE;
		if (sw_port(f, m, out) &&
		    add_dep(g, vc_of(g, n, o, 0), vc_of(g, m, out, 0)))
			return -1;
	}
	return 0;
}

/*
 * With an SL map: the route from CA port (c, p) to dlid, hop by hop, until
 * it enters a switch by an input port with an SL that an earlier route to
 * dlid entered it by: from there on (the switch's output, the VLs, the
 * next input) the hops are that route's, whose dependencies are in the
 * set.  So each LID's routes are walked once per (switch input, SL), not
 * once per source; the set is the same.
 */
static int mark_route(struct cdg_graph *g, const struct cdg_sls *sls, int c,
		      int p, unsigned dlid)
{
	const struct fabric *f = g->f;
	const struct fab_port *pt = &f->nodes[c].ports[p];
	int sl = sls->sl(sls->ctx, pt->lid, dlid) & (NVL - 1);
	int cur = pt->rnode, in = pt->rport, hops = 0;
	uint64_t prev = EMPTY;

	/* from a CA port the first hop has no dependency of its own: where
	 * the VLs do not depend on the input port, all the switch's CA
	 * ports are one state (port 0, which no link enters) */
	if (cur >= 0 && f->nodes[cur].type == FAB_SWITCH && !sls->vl_by_port) {
		unsigned *first = &g->seen[g->chan[cur] * NVL + sl];

		if (*first == dlid)
			return 0;
		*first = dlid;
	}
	while (cur >= 0 && f->nodes[cur].type == FAB_SWITCH &&
	       hops++ < f->nnodes) {
		const struct lft *t = lft_of_node(g->s, cur);
		int out = t ? lft_get(t, dlid) : LFT_NONE;
		unsigned *seen = &g->seen[(g->chan[cur] + in) * NVL + sl];
		uint64_t vc;
		int vl;

		if (!sw_port(f, cur, out))
			break;
		vl = sls->vl ? sls->vl(sls->ctx, cur, in, out, sl) & (NVL - 1) :
			       sl;
		vc = vc_of(g, cur, out, vl);
		if (prev != EMPTY && add_dep(g, prev, vc))
			return -1;
		if (*seen == dlid)
			break;
		*seen = dlid;
		prev = vc;
		in = f->nodes[cur].ports[out].rport;
		cur = f->nodes[cur].ports[out].rnode;
	}
	return 0;
}

/* A route's source: CA port p of node c. */
struct cdg_src {
	int c, p;
};

/*
 * The sources to walk from, into *src (*n of them): every CA port with a
 * LID and a link; where neither the SL (sl_by_source 0) nor the VLs
 * (vl_by_port 0) depend on the source, every route from a switch's CA
 * ports to a LID is one walk, so per switch its first two CA ports of
 * different nodes (the second for the LID of the first), in pairs.
 */
static int sources(const struct fabric *f, const struct cdg_sls *sls,
		   struct cdg_src **src, long *n)
{
	int per_switch = !sls->sl_by_source && !sls->vl_by_port;
	size_t ports = 0;
	long *slot = NULL;
	int c, p;

	*n = 0;
	for (c = 0; c < f->nnodes; c++)
		if (f->nodes[c].type != FAB_SWITCH)
			ports += (size_t)f->nodes[c].nports;
	/* at most two entries a CA port */
	*src = malloc((2 * ports + 1) * sizeof(**src));
	if (!*src)
		return -1;
	if (per_switch) {
		slot = malloc(((size_t)f->nnodes + 1) * sizeof(long));
		if (!slot)
			return -1;
		for (c = 0; c < f->nnodes; c++)
			slot[c] = -1;
	}
	for (c = 0; c < f->nnodes; c++) {
		for (p = 1;
		     f->nodes[c].type != FAB_SWITCH && p <= f->nodes[c].nports;
		     p++) {
			const struct fab_port *pt = &f->nodes[c].ports[p];
			struct cdg_src *x;

			if (!pt->lid || pt->rnode < 0)
				continue;
			if (!per_switch ||
			    f->nodes[pt->rnode].type != FAB_SWITCH) {
				(*src)[(*n)++] = (struct cdg_src){ c, p };
				if (per_switch)
					(*src)[(*n)++] =
						(struct cdg_src){ -1, 0 };
				continue;
			}
			if (slot[pt->rnode] < 0) {
				slot[pt->rnode] = *n;
				(*src)[(*n)++] = (struct cdg_src){ c, p };
				(*src)[(*n)++] = (struct cdg_src){ -1, 0 };
				continue;
			}
			x = &(*src)[slot[pt->rnode]];
			if (x[1].c < 0 && x[0].c != c)
				x[1] = (struct cdg_src){ c, p };
		}
	}
	free(slot);
	return 0;
}

static int mark_all(struct cdg_graph *g, const struct cdg_sls *sls,
		    const struct lid_owner *own, unsigned max)
{
	const struct fabric *f = g->f;
	int per_switch = sls && !sls->sl_by_source && !sls->vl_by_port;
	struct cdg_src *src = NULL;
	long n = 0, i;
	unsigned lid;
	int rc = -1;

	if (sls && sources(f, sls, &src, &n))
		goto out;
	for (lid = 1; lid <= max; lid++) {
		int o = own[lid].node;

		if (o < 0 || f->nodes[o].type == FAB_SWITCH)
			continue;
		if (!sls) {
			if (mark_lid(g, lid))
				goto out;
			continue;
		}
		for (i = 0; i < n; i += per_switch ? 2 : 1) {
			const struct cdg_src *x = &src[i];

			if (x->c == o && per_switch)
				x++; /* that switch's other CA */
			if (x->c >= 0 && x->c != o &&
			    mark_route(g, sls, x->c, x->p, lid))
				goto out;
		}
	}
	rc = 0;
out:
	free(src);
	return rc;
}

/* An SL map as a cdg_sls: its SLs through a cursor, its VLs. */
struct map_sls {
	const struct sl_map *m;
	struct sl_cursor c;
};

static int map_sl(void *ctx, unsigned slid, unsigned dlid)
{
	return sl_cursor_sl(&((struct map_sls *)ctx)->c, slid, dlid);
}

static int map_vl(void *ctx, int node, int in, int out, int sl)
{
	return sl_map_vl(((struct map_sls *)ctx)->m, node, in, out, sl);
}

static long csr_head(void *ctx, long pos)
{
	return ((const uint32_t *)ctx)[pos];
}

/* Fills r's cycle when the CSR graph has one. */
static int find_cycle(const struct cdg_graph *g, const long *first,
		      uint32_t *to, long nvc, struct cdg_result *r)
{
	uint8_t *color = calloc((size_t)nvc + 1, 1);
	long *stack = malloc(((size_t)nvc + 1) * sizeof(long));
	long *it = malloc(((size_t)nvc + 1) * sizeof(long));
	struct cycle c;
	long k;
	int rc = -1;

	if (!color || !stack || !it)
		goto out;
	if (cycle_find(nvc, first, csr_head, to, color, stack, it, &c)) {
		r->acyclic = 0;
		r->cycle_len = (int)c.len;
		r->cycle_node = malloc((size_t)c.len * sizeof(int));
		r->cycle_port = malloc((size_t)c.len * sizeof(int));
		r->cycle_vl = malloc((size_t)c.len * sizeof(int));
		if (!r->cycle_node || !r->cycle_port || !r->cycle_vl)
			goto out;
		for (k = 0; k < c.len; k++) {
			long v = stack[c.top - c.len + k], ch = v / NVL;
			int n = g->cnode[ch];

			r->cycle_node[k] = n;
			r->cycle_port[k] = (int)(ch - g->chan[n]);
			r->cycle_vl[k] = (int)(v % NVL);
		}
	}
	rc = 0;
out:
	free(color);
	free(stack);
	free(it);
	return rc;
}

int cdg_check_sls(const struct fabric *f, const struct lft_set *s,
		  const struct cdg_sls *sls, struct cdg_result *r,
		  struct osmre_err *err)
{
	struct cdg_graph g = { .f = f, .s = s };
	struct lid_owner *own = NULL;
	uint64_t *e = NULL;
	long *first = NULL, nvc, i, k;
	uint32_t *to = NULL;
	uint8_t *used = NULL;
	unsigned max;
	int n, rc = -1;

	memset(r, 0, sizeof(*r));
	r->acyclic = 1;
	g.chan = malloc(((size_t)f->nnodes + 1) * sizeof(long));
	if (!g.chan)
		goto oom;
	if (lids_owners(f, &own, &max, err)) /* (says why) */
		goto out;
	for (n = 0; n < f->nnodes; n++) {
		g.chan[n] = g.nchan;
		if (f->nodes[n].type == FAB_SWITCH)
			g.nchan += f->nodes[n].nports + 1;
	}
	g.cnode = malloc(((size_t)g.nchan + 1) * sizeof(int));
	if (!g.cnode)
		goto oom;
	for (n = 0; n < f->nnodes; n++)
		if (f->nodes[n].type == FAB_SWITCH)
			for (k = 0; k <= f->nodes[n].nports; k++)
				g.cnode[g.chan[n] + k] = n;
	if (sls) {
		g.seen = calloc((size_t)g.nchan * NVL + 1, sizeof(*g.seen));
		if (!g.seen)
			goto oom;
	}
	if (mark_all(&g, sls, own, max))
		goto oom;
	/* CSR, by source virtual channel */
	nvc = g.nchan * NVL;
	e = malloc((g.n + 1) * sizeof(*e));
	first = calloc((size_t)nvc + 2, sizeof(long));
	to = malloc((g.n + 1) * sizeof(*to));
	used = calloc((size_t)nvc + 1, 1);
	if (!e || !first || !to || !used)
		goto oom;
	for (i = 0, k = 0; (size_t)i < g.cap; i++)
		if (g.set[i] != EMPTY)
			e[k++] = g.set[i];
	qsort(e, g.n, sizeof(*e), cmp_u64);
	for (i = 0; (size_t)i < g.n; i++) {
		first[(e[i] >> 32) + 1]++;
		to[i] = (uint32_t)e[i];
		used[e[i] >> 32] = used[(uint32_t)e[i]] = 1;
	}
	for (i = 0; i < nvc; i++) {
		first[i + 1] += first[i];
		r->channels += used[i];
	}
	r->deps = (long)g.n;
	r->nvl = g.maxvl + 1;
	if (find_cycle(&g, first, to, nvc, r))
		goto oom;
	rc = 0;
	goto out;
oom:
	osmre_fail(err, "out of memory");
	cdg_result_free(r);
out:
	free(g.chan);
	free(g.cnode);
	free(g.set);
	free(g.seen);
	free(e);
	free(first);
	free(to);
	free(used);
	free(own);
	return rc;
}

int cdg_check(const struct fabric *f, const struct lft_set *s,
	      const struct sl_map *m, struct cdg_result *r,
	      struct osmre_err *err)
{
	struct map_sls ms = { .m = m };
	struct cdg_sls sls = { .sl = map_sl,
			       .vl = map_vl,
			       .ctx = &ms,
			       .sl_by_source = 1 };
	int rc, n;

	if (!m)
		return cdg_check_sls(f, s, NULL, r, err);
	/* the VLs depend on the input port only where a switch has its
	 * own SL-to-VL table */
	for (n = 0; n < m->nnodes && !sls.vl_by_port; n++)
		sls.vl_by_port = m->sw && m->sw[n];
	if (sl_cursor_init(&ms.c, m, lids_max(f))) {
		memset(r, 0, sizeof(*r));
		return osmre_fail(err, "out of memory");
	}
	rc = cdg_check_sls(f, s, &sls, r, err);
	sl_cursor_free(&ms.c);
	return rc;
}

void cdg_print_cycle(FILE *fp, const struct fabric *f,
		     const struct cdg_result *r)
{
	int k;

	for (k = 0; k <= r->cycle_len && r->cycle_len; k++) {
		int i = k % r->cycle_len;

		fprintf(fp, "\"%s\"[%d]", f->nodes[r->cycle_node[i]].name,
			r->cycle_port[i]);
		if (r->nvl > 1)
			fprintf(fp, " (VL %d)", r->cycle_vl[i]);
		fputs(k < r->cycle_len ? " -> " : "\n", fp);
	}
}

void cdg_result_free(struct cdg_result *r)
{
	free(r->cycle_node);
	free(r->cycle_port);
	free(r->cycle_vl);
	r->cycle_node = r->cycle_port = r->cycle_vl = NULL;
	r->cycle_len = 0;
}
