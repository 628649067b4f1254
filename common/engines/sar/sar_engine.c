/* SPDX-License-Identifier: BSD-2-Clause */
/* sar's row of the engines' table (engine.h): sar.h's core, its layers
 * as the pass's SLs, its memo kept between passes (sar_memo.h). */
#include <stddef.h>
#include <stdlib.h>

#include "engine.h"
#include "options.h"
#include "sar.h"
#include "sar_memo.h"

/* sar's settings (its options, sar_options) */
struct sar_settings {
	int max_vls; /* virtual layers sar may use */
	int threads; /* 0: online CPUs */
	/* with jobs, the tables' A2A and SP risks at most those of the
	 * tables without them (sar.h, all_pairs) */
	int all_pairs;
	/* its inputs, which the caller reads and watches (engine_opts) */
	char job_file[256];	/* "": no jobs (DFSSSP) */
	char io_guid_file[256]; /* "": no I/O nodes apart */
};

/* clang-format off */
static const struct opt_desc sar_options[] = {
	{ .key = "sar_max_vls", .type = OPT_INT, .min = 1, .max = 15,
	  .def = 8, .what = "an integer 1..15",
	  .off = offsetof(struct sar_settings, max_vls),
	  .flag = "max-vls", .arg = "N",
	  .help = "sar: virtual layers allowed (default 8)",
	  .help_after = "state" },
	{ .key = "sar_job_all_pairs", .type = OPT_INT, .min = 0, .max = 1,
	  .def = 0, .what = "0 or 1 (TRUE or FALSE)",
	  .off = offsetof(struct sar_settings, all_pairs),
	  .flag = "all-pairs",
	  .help = "sar with --jobs: A2A and SP risks at most those\n"
		  "of the tables without the jobs (sar_job_all_pairs)",
	  .help_after = "io-guids" },
	{ .key = "sar_threads", .type = OPT_INT, .min = 0, .max = 1024,
	  .def = 0, .what = "an integer 0..1024 (0: one per online CPU)",
	  .off = offsetof(struct sar_settings, threads) },
	{ .key = "sar_job_file", .type = OPT_PATH,
	  .what = "the path of a job file",
	  .off = offsetof(struct sar_settings, job_file),
	  .size = sizeof(((struct sar_settings *)0)->job_file) },
	{ .key = "sar_io_guid_file", .type = OPT_PATH,
	  .what = "the path of a GUID file",
	  .off = offsetof(struct sar_settings, io_guid_file),
	  .size = sizeof(((struct sar_settings *)0)->io_guid_file) },
	{ .key = NULL },
};
/* clang-format on */

/* LID -> index of the CA port that has it in the layers, -1. */
static int *src_of_lid(const struct fabric *f, const struct route_layers *res)
{
	int *map = malloc(((size_t)res->maxlid + 1) * sizeof(int));
	unsigned lid;
	int i, k;

	if (!map)
		return NULL;
	for (lid = 0; lid <= res->maxlid; lid++)
		map[lid] = -1;
	for (i = 0; i < res->nsrc; i++) {
		const struct fab_port *pt =
			&f->nodes[res->src_node[i]].ports[res->src_port[i]];

		for (k = 0; k < 1 << pt->lmc; k++)
			if (pt->lid + (unsigned)k <= res->maxlid)
				map[pt->lid + (unsigned)k] = i;
	}
	return map;
}

static void sar_pass_free(void *priv)
{
	sar_result_free(priv);
	free(priv);
}

/*
 * With the escape, sar layers the base LIDs on the VLs below it.  Its
 * layer array and CA ports go to r->layers; the rest of its result (the
 * EFIs, risks, ways) stays in r->priv for sar_report.
 */
static int sar_engine(const struct engine_opts *o, const struct fabric *f,
		      struct route_result *r, struct osmre_err *err)
{
	struct sar_settings dflt;
	const struct sar_settings *s = o->settings;
	struct sar_result *res = calloc(1, sizeof(*res));
	struct sar_opts so = { .threads = o->threads,
			       .jobs = o->jobs,
			       .io = o->io,
			       .prev = o->prev,
			       .memo = o->keep };
	struct route_layers *l = &r->layers;

	if (!s) {
		options_set_defaults(sar_options, &dflt);
		s = &dflt;
	}
	so.max_vls = s->max_vls;
	so.all_pairs = s->all_pairs;
	if (!res)
		return osmre_fail(err, "out of memory");
	r->priv = res;
	r->priv_free = sar_pass_free;
	if (o->escape_vl >= 0) {
		so.base_only = 1;
		if (so.max_vls > o->escape_vl)
			so.max_vls = o->escape_vl;
	}
	if (o->max_layers > 0 && so.max_vls > o->max_layers)
		so.max_vls = o->max_layers;
	if (sar_route(f, &so, &r->tables, res, err))
		return -1;
	if (o->state && sar_state_write(o->state, f, res, o->prev != NULL))
		return osmre_fail(err, "state dump: write error");
	l->have = 1;
	l->layers = res->layers;
	l->over_budget = res->updn_lids;
	l->nsrc = res->ncas;
	l->maxlid = res->maxlid;
	l->layer = res->layer;
	l->src_node = res->ca_node;
	l->src_port = res->ca_port;
	res->layer = NULL;
	res->ca_node = NULL;
	res->ca_port = NULL;
	l->src_of_lid = src_of_lid(f, l);
	if (!l->src_of_lid)
		return osmre_fail(err, "out of memory");
	return 0;
}

static void sar_from_options(const void *settings, struct engine_opts *o)
{
	const struct sar_settings *s = settings;

	o->threads = s->threads;
	o->stable = 1;
	o->job_file = s->job_file[0] ? s->job_file : NULL;
	o->io_file = s->io_guid_file[0] ? s->io_guid_file : NULL;
}

/* The shortest-path candidates' names (sar.h, SAR_SP_*). */
static const char *const sp_name[SAR_SP_HOPS] = {
	"", " refined", ", links by load squared",
	" refined, links by load squared"
};

static void sar_report(const struct engine_opts *o,
		       const struct route_result *r, engine_say say, void *arg)
{
	const struct sar_result *sr = r->priv;
	int layers = r->layers.layers, nojobs = !o->jobs || !o->jobs->njobs;

	if (!sr || !r->layers.have)
		return;
	if (nojobs && sr->sp_fit >= 0)
		say(arg,
		    "sar: %d virtual layer(s); no jobs: over the VL budget, not on the shortest paths that fit",
		    layers);
	else if (nojobs)
		say(arg, "sar: %d virtual layer(s); no jobs: DFSSSP%s%s",
		    layers, sp_name[sr->sp % SAR_SP_HOPS],
		    sr->sp >= SAR_SP_HOPS ?
			    ", on any shortest path (failures took some minimal route)" :
			    "");
	else if (sr->jobs_lost)
		say(arg,
		    "sar: %d virtual layer(s); the tables without the jobs kept: max effective EFI %ld, the job-aware ones' %ld once layered%s",
		    layers, sr->efi_kept, sr->efi_layered,
		    sr->efi_layered < sr->efi_kept ?
			    " (their A2A or SP above, all pairs)" :
			    "");
	else if (sr->efi_nojobs >= 0)
		say(arg,
		    "sar: %d virtual layer(s); %s tables kept: max effective EFI %ld (SAR %ld, DFSSSP %ld before the layers; %ld without the jobs)",
		    layers, sr->job_aware ? "job-aware" : "DFSSSP",
		    sr->efi_kept, sr->efi_sar, sr->efi_dfsssp, sr->efi_nojobs);
	else /* a stable re-route: the choice of the tables in force */
		say(arg,
		    "sar: %d virtual layer(s); stable re-route with jobs: the %s tables' routes kept where they stand",
		    layers, sr->job_aware ? "job-aware" : "DFSSSP");
	if (sr->sp_fit >= 0)
		say(arg,
		    "sar: the shortest paths that fit %d layer(s) (DFSSSP%s%s) had A2A / RP %ld / %ld, against %ld / %ld on more (DFSSSP%s%s): those laid out over the VL budget instead",
		    layers, sp_name[sr->sp_fit % SAR_SP_HOPS],
		    sr->sp_fit >= SAR_SP_HOPS ? ", on any shortest path" : "",
		    sr->sp_a2a[sr->sp_fit], sr->sp_rp[sr->sp_fit],
		    sr->sp_a2a[sr->sp], sr->sp_rp[sr->sp],
		    sp_name[sr->sp % SAR_SP_HOPS],
		    sr->sp >= SAR_SP_HOPS ? ", on any shortest path" : "");
	if (sr->risk_a2a)
		say(arg,
		    "sar: all pairs: A2A at most %ld, SP at most %ld (DFSSSP's); %ld tree(s) taken from DFSSSP's%s%s",
		    sr->risk_a2a, sr->risk_sp,
		    sr->risk_trees < 0 ? 0 : sr->risk_trees,
		    sr->risk_trees < 0 ? " (DFSSSP's tables whole)" : "",
		    sr->jobs_lost ? "; the job-aware tables, not kept" : "");
	if (sr->updn_lids && sr->way != SAR_WAY_LAST)
		say(arg,
		    "sar: over the VL budget: every destination LID (%ld) routed by %s, spread over the %d layers by groups, each acyclic (%ld on new trees, the others %s)",
		    sr->updn_lids,
		    sar_way_weighted(sr->way) ? "path weight" : "load", layers,
		    sr->cdg_lids,
		    sar_way_weighted(sr->way) ? "on a spanning tree" :
						"up*/down*");
	else if (sr->updn_lids)
		say(arg,
		    "sar: over the VL budget: %ld destination LID(s) on the last layer, %ld of them routed by load with that layer acyclic, the others up*/down*",
		    sr->updn_lids, sr->cdg_lids);
	if (sr->updn_lids && sr->way != SAR_WAY_LAST)
		say(arg,
		    "sar: the ways' A2A / RP, spread by groups: by load %ld / %ld, by path weight %ld / %ld",
		    sr->way_a2a[SAR_WAY_GROUPS], sr->way_rp[SAR_WAY_GROUPS],
		    sr->way_a2a[SAR_WAY_NUE_GROUPS],
		    sr->way_rp[SAR_WAY_NUE_GROUPS]);
	if (o->prev && o->keep && sr->memo_lost >= 0)
		say(arg,
		    "sar: stable re-route from the last pass's trees and loads, %ld link(s) lost since",
		    sr->memo_lost / 2);
}

static void *sar_keep_new(void)
{
	return sar_memo_new();
}

static void sar_keep_free(void *keep)
{
	sar_memo_free(keep);
}

const struct engine sar_engine_row = {
	.name = "sar",
	.summary = "scheduling-aware routing on DFSSSP (Domke & Hoefler)",
	.needs = ENGINE_TAKES_JOBS,
	.produces = ENGINE_LAYERS | ENGINE_STABLE,
	.route = sar_engine,
	.options = sar_options,
	.settings_size = sizeof(struct sar_settings),
	.from_options = sar_from_options,
	.report = sar_report,
	.keep_new = sar_keep_new,
	.keep_free = sar_keep_free,
};
