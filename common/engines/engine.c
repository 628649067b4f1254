/* SPDX-License-Identifier: BSD-2-Clause */
/* The routing engines' table and the one way to run them (engine.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "components.h"
#include "dmodc.h"
#include "engine_state.h"
#include "engine.h"
#include "lids.h"
#include "pgft.h"
#include "planes.h"
#include "pqft.h"
#include "stable_cols.h"

/* dmodc_stable: the previous entries that still work, under dmodc's
 * ranks (stable_cols.h) */
static int dmodc_keep(const struct dmodc *d, const struct fabric *f,
		      const struct engine_opts *o, struct route_result *r,
		      struct osmre_err *err)
{
	int *rank = malloc(((size_t)f->nnodes + 1) * sizeof(int)), i, rc;

	if (!rank)
		return osmre_fail(err, "out of memory");
	for (i = 0; i < f->nnodes; i++)
		rank[i] = dmodc_rank(d, i);
	rc = stable_keep_columns(f, o->prev, &r->tables, rank, &r->kept,
				 o->threads, err);
	free(rank);
	return rc;
}

static int dmodc_engine(const struct engine_opts *o, const struct fabric *f,
			struct route_result *r, struct osmre_err *err)
{
	struct dmodc_opts d = { .threads = o->threads };
	struct dmodc *tmp;
	int rc;

	if (!o->dmodc && !o->state && !(o->prev && o->stable))
		return dmodc_route(f, &d, &r->tables, err);
	/* the state outlives the pass (o->dmodc) or is dumped */
	tmp = o->dmodc ? NULL : dmodc_new();
	if (!o->dmodc && !tmp)
		return osmre_fail(err, "out of memory");
	rc = dmodc_run(o->dmodc ? o->dmodc : tmp, f, &d, &r->tables, err);
	if (!rc && o->prev && o->stable)
		rc = dmodc_keep(o->dmodc ? o->dmodc : tmp, f, o, r, err);
	if (!rc && o->state &&
	    dmodc_state_write(o->state, o->dmodc ? o->dmodc : tmp, f))
		rc = osmre_fail(err, "state dump: write error");
	dmodc_free(tmp);
	return rc;
}

/* The parameters given (o->topology), or read off f (complete, or
 * degraded in a way inference can still see through): 0, 1 when they
 * could not be read off (err says why), -1 on a bad o->topology. */
static int pqft_params(const struct engine_opts *o, const struct fabric *f,
		       struct pgft_params *t, struct osmre_err *err)
{
	if (o->topology && o->topology[0])
		return topo_spec_parse(o->topology, t, err) ? -1 : 0;
	return pqft_infer(f, t, err) ? 1 : 0;
}

/* pqft on f (one plane; plane: its number for the state dump, -1 when
 * the fabric has one) */
static int pqft_plane(const struct engine_opts *o, const struct fabric *f,
		      const struct pgft_params *t, struct lft_set *tables,
		      int plane, struct osmre_err *err)
{
	struct pqft *q = pqft_new();
	int rc;

	if (!q)
		return osmre_fail(err, "out of memory");
	q->seed = o->seed;
	rc = pqft_assign(q, f, t, err) ||
			     pqft_route(q, tables, o->threads, err) ?
		     -1 :
		     0;
	if (!rc && o->state && pqft_state_write(o->state, q, plane))
		rc = osmre_fail(err, "state dump: write error");
	pqft_free(q);
	return rc;
}

/* Plane c of f routed alone, its switches' tables copied into f's. */
static int pqft_copy_plane(const struct engine_opts *o, const struct fabric *f,
			   const struct fabric *v, const int *comp, int c,
			   int plane, const struct pgft_params *t,
			   struct lft_set *into, struct osmre_err *err)
{
	struct lft_set s;
	int n;

	if (lft_set_for_fabric(v, lids_max(f), &s, err) ||
	    pqft_plane(o, v, t, &s, plane, err)) {
		lft_set_free(&s);
		return -1;
	}
	for (n = 0; n < f->nnodes; n++) {
		struct lft *from = lft_of_node(&s, n);
		struct lft *to = lft_of_node(into, n);

		if (comp[n] == c && from && to)
			memcpy(to->port, from->port,
			       (size_t)(to->top < from->top ? to->top :
							      from->top) +
				       1);
	}
	lft_set_free(&s);
	return 0;
}

/*
 * pqft's closed form is for one plane: on a multi-plane fabric each plane
 * (a switch component holding hosts) is routed alone, on a view of f that
 * keeps node indices and LIDs (fabric_plane_view), and its switches'
 * tables are copied into f's.  Each plane's parameters are read off that
 * plane ("plane k: ..." in r->inferred); a plane too degraded for that
 * takes those of the first plane that could be read, as planes are
 * built alike.
 */
static int pqft_engine(const struct engine_opts *o, const struct fabric *f,
		       struct route_result *r, struct osmre_err *err)
{
	int *comp = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	int *plane_no = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	struct fabric **view = NULL;
	struct pgft_params *t = NULL, *first = NULL;
	int *status = NULL, *cid = NULL;
	int planes = 0, c, k, rc = -1;
	size_t used = 0;

	if (!comp || !plane_no || switch_components(f, comp))
		goto oom;
	/* planes only where every host has a port in each: a piece of a
	 * plane is not a plane (a split fabric is refused, naming two hosts) */
	if (components_refuse_split(f, comp, err))
		goto out;
	planes = fabric_plane_numbers(f, comp, plane_no);
	if (planes <= 1) {
		struct pgft_params one;

		rc = pqft_params(o, f, &one, err);
		if (rc)
			rc = -1;
		else {
			if (!o->topology || !o->topology[0])
				topo_spec_format(&one, r->inferred,
						 sizeof(r->inferred));
			rc = pqft_plane(o, f, &one, &r->tables, -1, err);
		}
		goto out;
	}
	view = calloc((size_t)planes, sizeof(*view));
	t = calloc((size_t)planes, sizeof(*t));
	status = calloc((size_t)planes, sizeof(int));
	cid = calloc((size_t)planes, sizeof(int));
	if (!view || !t || !status || !cid)
		goto oom;
	for (c = 0; c < f->nnodes; c++)
		if (plane_no[c] >= 0)
			cid[plane_no[c]] = c;
	for (k = 0; k < planes; k++) {
		struct osmre_err e;

		view[k] = fabric_plane_view(f, comp, cid[k], err);
		if (!view[k])
			goto out;
		status[k] = pqft_params(o, view[k], &t[k], &e);
		if (status[k] < 0) {
			*err = e;
			goto out;
		}
		if (status[k] && k == planes - 1 && !first) {
			*err = e;
			osmre_prefix(err, "plane %d", k);
			goto out;
		}
		if (!status[k] && !first)
			first = &t[k];
	}
	for (k = 0; k < planes; k++) {
		char one[128];

		if (status[k])
			t[k] = *first;
		if (pqft_copy_plane(o, f, view[k], comp, cid[k], k, &t[k],
				    &r->tables, err)) {
			osmre_prefix(err, "plane %d", k);
			goto out;
		}
		if (o->topology && o->topology[0])
			continue;
		topo_spec_format(&t[k], one, sizeof(one));
		if (used < sizeof(r->inferred))
			used += (size_t)snprintf(
				r->inferred + used, sizeof(r->inferred) - used,
				"%splane %d: %s%s", used ? "; " : "", k, one,
				status[k] ? " (another plane's)" : "");
	}
	rc = 0;
	goto out;
oom:
	osmre_fail(err, "out of memory");
out:
	for (k = 0; view && k < planes; k++)
		fabric_free(view[k]);
	free(view);
	free(t);
	free(status);
	free(cid);
	free(comp);
	free(plane_no);
	return rc;
}

/* LID -> index of the CA port that has it in sar's result, -1. */
static int *src_of_lid(const struct fabric *f, const struct sar_result *res)
{
	int *map = malloc(((size_t)res->maxlid + 1) * sizeof(int));
	unsigned lid;
	int i, k;

	if (!map)
		return NULL;
	for (lid = 0; lid <= res->maxlid; lid++)
		map[lid] = -1;
	for (i = 0; i < res->ncas; i++) {
		const struct fab_port *pt =
			&f->nodes[res->ca_node[i]].ports[res->ca_port[i]];

		for (k = 0; k < 1 << pt->lmc; k++)
			if (pt->lid + (unsigned)k <= res->maxlid)
				map[pt->lid + (unsigned)k] = i;
	}
	return map;
}

/* With the escape, sar layers the base LIDs on the VLs below it. */
static int sar_engine(const struct engine_opts *o, const struct fabric *f,
		      struct route_result *r, struct osmre_err *err)
{
	struct sar_opts so = { .max_vls = o->max_vls,
			       .threads = o->threads,
			       .jobs = o->jobs,
			       .io = o->io,
			       .all_pairs = o->all_pairs,
			       .prev = o->prev,
			       .memo = o->memo };
	struct route_layers *l = &r->layers;

	if (o->escape_vl >= 0) {
		so.base_only = 1;
		if (so.max_vls > o->escape_vl)
			so.max_vls = o->escape_vl;
	}
	if (sar_route(f, &so, &r->tables, &l->res, err))
		return -1;
	if (o->state && sar_state_write(o->state, f, &l->res, o->prev != NULL))
		return osmre_fail(err, "state dump: write error");
	l->have = 1;
	l->src_of_lid = src_of_lid(f, &l->res);
	if (!l->src_of_lid)
		return osmre_fail(err, "out of memory");
	return 0;
}

/* clang-format off */
const struct engine engines[] = {
	{ "dmodc", "closed-form fat-tree routing (Gliksberg et al.)",
	  ENGINE_NEEDS_TREE, ENGINE_CA_HOPS | ENGINE_STABLE, dmodc_engine },
	{ "pqft", "PGFT/QFT routing (Zahavi et al.)", ENGINE_NEEDS_TOPOLOGY,
	  0, pqft_engine },
	{ "sar", "scheduling-aware routing on DFSSSP (Domke & Hoefler)",
	  ENGINE_TAKES_JOBS, ENGINE_LAYERS | ENGINE_STABLE, sar_engine },
	{ NULL, NULL, 0, 0, NULL },
};
/* clang-format on */

const struct engine *engine_find(const char *name)
{
	const struct engine *e;

	for (e = engines; name && e->name; e++)
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}

const char *engine_names(void)
{
	static char buf[128];
	const struct engine *e;
	size_t n = 0;

	if (buf[0])
		return buf;
	for (e = engines; e->name && n < sizeof(buf); e++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s",
				      e == engines ? "" : ", ", e->name);
	return buf;
}

void engine_opts_defaults(struct engine_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->seed = 1;
	o->max_vls = 8;
	o->escape_vl = -1;
}

void engine_opts_from_options(const struct osmre_options *opt,
			      const struct engine *e, struct engine_opts *o)
{
	engine_opts_defaults(o);
	o->threads = !strcmp(e->name, "pqft") ? opt->pqft_threads :
		     !strcmp(e->name, "sar")  ? opt->sar_threads :
						opt->dmodc_threads;
	o->topology = opt->pqft_topology;
	o->seed = (uint64_t)opt->pqft_seed;
	o->max_vls = opt->sar_max_vls;
	o->all_pairs = opt->sar_job_all_pairs;
	o->stable = strcmp(e->name, "dmodc") ? 1 : opt->dmodc_stable;
	if (opt->update_protocol)
		o->escape_vl = opt->update_escape_vl;
}

int engine_route(const struct engine *e, const struct engine_opts *o,
		 const struct fabric *f, struct route_result *r,
		 struct osmre_err *err)
{
	memset(r, 0, sizeof(*r));
	if (lft_set_for_fabric(f, lids_max(f), &r->tables, err) ||
	    e->route(o, f, r, err))
		return -1;
	if (o->escape_vl < 0)
		return 0;
	if (updn_route_high(f, &r->tables, &r->escape, err))
		return osmre_prefix(err, "escape");
	r->has_escape = 1;
	return 0;
}

void route_layers_free(struct route_layers *l)
{
	sar_result_free(&l->res);
	free(l->src_of_lid);
	memset(l, 0, sizeof(*l));
}

void route_result_free(struct route_result *r)
{
	lft_set_free(&r->tables);
	route_layers_free(&r->layers);
}

uint8_t route_layers_sl(const struct route_layers *l, unsigned slid,
			unsigned dlid)
{
	const struct sar_result *res = &l->res;

	if (!l->have || !res->layer || !l->src_of_lid || slid > res->maxlid ||
	    dlid > res->maxlid || l->src_of_lid[slid] < 0)
		return 0;
	return res
		->layer[(size_t)l->src_of_lid[slid] * (res->maxlid + 1) + dlid];
}
