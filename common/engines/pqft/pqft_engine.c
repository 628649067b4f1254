/* SPDX-License-Identifier: BSD-2-Clause */
/* pqft's row of the engines' table (engine.h): pqft.h's core, plane by
 * plane on a multi-plane fabric, its parameters given or read off. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "components.h"
#include "engine.h"
#include "lids.h"
#include "options.h"
#include "pgft.h"
#include "planes.h"
#include "pqft.h"

/* pqft's settings (its options, pqft_options) */
struct pqft_settings {
	int threads;   /* 0: online CPUs */
	uint64_t seed; /* of the choices around faults */
	/* the topology's parameters, "pgft(...)" or "qft(...)"; "" read
	 * off the fabric */
	char topology[128];
};

static int check_topology(const char *val, char *why, size_t whysz)
{
	struct pgft_params t;
	struct osmre_err err;

	if (!topo_spec_parse(val, &t, &err))
		return 0;
	snprintf(why, whysz, "%.200s", err.msg);
	return -1;
}

/* clang-format off */
static const struct opt_desc pqft_options[] = {
	{ .key = "pqft_threads", .type = OPT_INT, .min = 0, .max = 1024,
	  .def = 0, .what = "an integer 0..1024 (0: one per online CPU)",
	  .off = offsetof(struct pqft_settings, threads) },
	{ .key = "pqft_seed", .type = OPT_UINT64, .min = 0,
	  .max = 0x7fffffff, .def = 1, .what = "an integer 0..2147483647",
	  .off = offsetof(struct pqft_settings, seed),
	  .flag = "seed", .arg = "S",
	  .help = "pqft: seed of the choices among alternate ports\n"
		  "around faults (default 1)",
	  .help_after = "topology" },
	{ .key = "pqft_topology", .type = OPT_STRING,
	  .what = "pgft(H;M;W[;P]) or qft(H;M;W;P)",
	  .off = offsetof(struct pqft_settings, topology),
	  .size = sizeof(((struct pqft_settings *)0)->topology),
	  .check = check_topology,
	  .flag = "topology", .arg = "SPEC",
	  .help = "pqft: the fabric's parameters, pgft(H;M;W[;P]) or\n"
		  "qft(H;M;W;P) (default: read off a complete fabric)",
	  .help_after = "partial-lids" },
	{ .key = NULL },
};
/* clang-format on */

/* o's settings, or the defaults in dflt */
static const struct pqft_settings *pqft_settings(const struct engine_opts *o,
						 struct pqft_settings *dflt)
{
	if (o->settings)
		return o->settings;
	options_set_defaults(pqft_options, dflt);
	return dflt;
}

/* what a pass says besides its tables */
struct pqft_pass {
	/* the parameters read off the fabric ("" when given) */
	char inferred[256];
};

/* The parameters given (s->topology), or read off f (complete, or
 * degraded in a way inference can still see through): 0, 1 when they
 * could not be read off (err says why), -1 on a bad s->topology. */
static int pqft_params(const struct pqft_settings *s, const struct fabric *f,
		       struct pgft_params *t, struct osmre_err *err)
{
	if (s->topology[0])
		return topo_spec_parse(s->topology, t, err) ? -1 : 0;
	return pqft_infer(f, t, err) ? 1 : 0;
}

/* pqft on f (one plane; plane: its number for the state dump, -1 when
 * the fabric has one) */
static int pqft_plane(const struct engine_opts *o, const struct fabric *f,
		      const struct pgft_params *t, struct lft_set *tables,
		      int plane, struct osmre_err *err)
{
	struct pqft_settings dflt;
	struct pqft *q = pqft_new();
	int rc;

	if (!q)
		return osmre_fail(err, "out of memory");
	q->seed = pqft_settings(o, &dflt)->seed;
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
 * plane ("plane k: ..." in pass->inferred); a plane too degraded for that
 * takes those of the first plane that could be read, as planes are
 * built alike.
 */
static int pqft_engine(const struct engine_opts *o, const struct fabric *f,
		       struct route_result *r, struct osmre_err *err)
{
	struct pqft_settings dflt;
	const struct pqft_settings *s = pqft_settings(o, &dflt);
	struct pqft_pass *pass = calloc(1, sizeof(*pass));
	int *comp = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	int *plane_no = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	struct fabric **view = NULL;
	struct pgft_params *t = NULL, *first = NULL;
	int *status = NULL, *cid = NULL;
	int planes = 0, c, k, rc = -1;
	size_t used = 0;

	r->priv = pass;
	r->priv_free = free;
	if (!pass || !comp || !plane_no || switch_components(f, comp))
		goto oom;
	/* planes only where every host has a port in each: a piece of a
	 * plane is not a plane (a split fabric is refused, naming two hosts) */
	if (components_refuse_split(f, comp, err))
		goto out;
	planes = fabric_plane_numbers(f, comp, plane_no);
	if (planes <= 1) {
		struct pgft_params one;

		rc = pqft_params(s, f, &one, err);
		if (rc)
			rc = -1;
		else {
			if (!s->topology[0])
				topo_spec_format(&one, pass->inferred,
						 sizeof(pass->inferred));
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
		status[k] = pqft_params(s, view[k], &t[k], &e);
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
		if (s->topology[0])
			continue;
		topo_spec_format(&t[k], one, sizeof(one));
		if (used < sizeof(pass->inferred))
			used += (size_t)snprintf(pass->inferred + used,
						 sizeof(pass->inferred) - used,
						 "%splane %d: %s%s",
						 used ? "; " : "", k, one,
						 status[k] ?
							 " (another plane's)" :
							 "");
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

static void pqft_from_options(const void *settings, struct engine_opts *o)
{
	const struct pqft_settings *s = settings;

	o->threads = s->threads;
	o->stable = 1;
}

static void pqft_report(const struct engine_opts *o,
			const struct route_result *r, engine_say say, void *arg)
{
	const struct pqft_pass *pass = r->priv;

	(void)o;
	if (pass && pass->inferred[0])
		say(arg, "pqft: topology %s (inferred)", pass->inferred);
}

static void pqft_refused(const struct engine_opts *o,
			 const struct route_result *r, struct osmre_err *err)
{
	const struct pqft_pass *pass = r->priv;
	struct pqft_settings dflt;

	if (!pqft_settings(o, &dflt)->topology[0] &&
	    (!pass || !pass->inferred[0]))
		osmre_prefix(err, "no pqft_topology in the options file");
}

const struct engine pqft_engine_row = {
	.name = "pqft",
	.summary = "PGFT/QFT routing (Zahavi et al.)",
	.needs = ENGINE_NEEDS_TOPOLOGY,
	.produces = 0,
	.route = pqft_engine,
	.options = pqft_options,
	.settings_size = sizeof(struct pqft_settings),
	.from_options = pqft_from_options,
	.report = pqft_report,
	.refused = pqft_refused,
};
