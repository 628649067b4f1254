/* SPDX-License-Identifier: BSD-2-Clause */
/* The routing engines' table and the one way to run them (engine.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmodc.h"
#include "engine.h"
#include "lids.h"
#include "pgft.h"
#include "pqft.h"

static int dmodc_engine(const struct engine_opts *o, const struct fabric *f,
			struct route_result *r, struct osmre_err *err)
{
	struct dmodc_opts d = { .threads = o->threads };

	if (o->dmodc)
		return dmodc_run(o->dmodc, f, &d, &r->tables, err);
	return dmodc_route(f, &d, &r->tables, err);
}

/* The parameters given (o->topology), or read off a complete fabric. */
static int pqft_engine(const struct engine_opts *o, const struct fabric *f,
		       struct route_result *r, struct osmre_err *err)
{
	struct pgft_params t;
	struct pqft *q;
	int rc;

	if (o->topology && o->topology[0]) {
		if (topo_spec_parse(o->topology, &t, err))
			return -1;
	} else {
		if (pqft_infer(f, &t, err))
			return -1;
		topo_spec_format(&t, r->inferred, sizeof(r->inferred));
	}
	q = pqft_new();
	if (!q)
		return osmre_fail(err, "out of memory");
	q->seed = o->seed;
	rc = pqft_assign(q, f, &t, err) ||
			     pqft_route(q, &r->tables, o->threads, err) ?
		     -1 :
		     0;
	pqft_free(q);
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
			       .jobs = o->jobs,
			       .io = o->io,
			       .prev = o->prev };
	struct route_layers *l = &r->layers;

	if (o->escape_vl >= 0) {
		so.base_only = 1;
		if (so.max_vls > o->escape_vl)
			so.max_vls = o->escape_vl;
	}
	if (sar_route(f, &so, &r->tables, &l->res, err))
		return -1;
	l->have = 1;
	l->src_of_lid = src_of_lid(f, &l->res);
	if (!l->src_of_lid)
		return osmre_fail(err, "out of memory");
	return 0;
}

/* clang-format off */
const struct engine engines[] = {
	{ "dmodc", "closed-form fat-tree routing (Gliksberg et al.)",
	  ENGINE_NEEDS_TREE, ENGINE_CA_HOPS, dmodc_engine },
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
	o->threads = strcmp(e->name, "pqft") ? opt->dmodc_threads :
					       opt->pqft_threads;
	o->topology = opt->pqft_topology;
	o->seed = (uint64_t)opt->pqft_seed;
	o->max_vls = opt->sar_max_vls;
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
