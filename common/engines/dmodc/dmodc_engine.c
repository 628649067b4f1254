/* SPDX-License-Identifier: BSD-2-Clause */
/* dmodc's row of the engines' table (engine.h): dmodc.h's core, its
 * state kept between passes (hop costs for CA hop tables), dmodc_stable. */
#include <stddef.h>
#include <stdlib.h>

#include "dmodc.h"
#include "engine.h"
#include "options.h"
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
	struct dmodc *keep = o->keep, *tmp;
	int rc;

	if (!keep && !o->state && !(o->prev && o->stable))
		return dmodc_route(f, &d, &r->tables, err);
	/* the state outlives the pass (o->keep) or is dumped */
	tmp = keep ? NULL : dmodc_new();
	if (!keep && !tmp)
		return osmre_fail(err, "out of memory");
	rc = dmodc_run(keep ? keep : tmp, f, &d, &r->tables, err);
	if (!rc && o->prev && o->stable)
		rc = dmodc_keep(keep ? keep : tmp, f, o, r, err);
	if (!rc && o->state &&
	    dmodc_state_write(o->state, keep ? keep : tmp, f))
		rc = osmre_fail(err, "state dump: write error");
	dmodc_free(tmp);
	return rc;
}

/* dmodc's settings (its options, dmodc_options) */
struct dmodc_settings {
	int threads; /* 0: online CPUs */
	int stable;  /* re-route after a change by whole destinations */
	int ca_hops; /* the plugin fills OpenSM's hop tables for CA LIDs */
};

/* clang-format off */
static const struct opt_desc dmodc_options[] = {
	{ .key = "dmodc_threads", .type = OPT_INT, .min = 0, .max = 1024,
	  .def = 0, .what = "an integer 0..1024 (0: one per online CPU)",
	  .off = offsetof(struct dmodc_settings, threads) },
	{ .key = "dmodc_stable", .type = OPT_INT, .min = 0, .max = 1,
	  .def = 0, .what = "0 or 1 (TRUE or FALSE)",
	  .off = offsetof(struct dmodc_settings, stable) },
	{ .key = "dmodc_ca_hops", .type = OPT_INT, .min = 0, .max = 1,
	  .def = 0, .what = "0 or 1 (TRUE or FALSE)",
	  .off = offsetof(struct dmodc_settings, ca_hops) },
	{ .key = NULL },
};
/* clang-format on */

static void dmodc_from_options(const void *settings, struct engine_opts *o)
{
	const struct dmodc_settings *s = settings;

	o->threads = s->threads;
	o->stable = s->stable;
	o->ca_hops = s->ca_hops;
}

static void *dmodc_keep_new(void)
{
	return dmodc_new();
}

static void dmodc_keep_free(void *keep)
{
	dmodc_free(keep);
}

/* dmodc's routes to a CA follow the up-down costs down by one per hop,
 * so a switch is cost(switch, leaf) hops from the leaf of a CA. */
static int dmodc_ca_hops(void *keep, int sw, int leaf)
{
	int c = dmodc_cost(keep, sw, leaf);

	return c == DMODC_INF ? -1 : c;
}

const struct engine dmodc_engine_row = {
	.name = "dmodc",
	.summary = "closed-form fat-tree routing (Gliksberg et al.)",
	.needs = ENGINE_NEEDS_TREE,
	.produces = ENGINE_CA_HOPS | ENGINE_STABLE,
	.route = dmodc_engine,
	.options = dmodc_options,
	.settings_size = sizeof(struct dmodc_settings),
	.from_options = dmodc_from_options,
	.keep_new = dmodc_keep_new,
	.keep_free = dmodc_keep_free,
	.ca_hops = dmodc_ca_hops,
};
