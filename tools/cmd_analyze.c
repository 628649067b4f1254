/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * osmre analyze --topo F.net --lfts F.lfts: validity (as osmre check),
 * deadlock freedom, congestion risk of the all-to-all, shift and random
 * permutation patterns, and job metrics; text, CSV or JSON.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_bw.h"
#include "analyze_links.h"
#include "analyze_report.h"
#include "cdg.h"
#include "check.h"
#include "components.h"
#include "congestion.h"
#include "engine_table.h"
#include "roles.h"
#include "jobs.h"
#include "lft.h"
#include "osmre.h"
#include "progress.h"
#include "slmap.h"

static void analyze_usage(FILE *out)
{
	fprintf(out,
		"usage: osmre analyze --topo F.net --lfts F.lfts [options]\n"
		"  -t, --topo FILE       topology (ibnetdiscover / ibsim net file);\n"
		"                        repeated: one file per plane, merged by GUID\n"
		"  -l, --lfts FILE       LFTs: opensm-lfts.dump, dump_fts or ibroute output;\n"
		"                        repeated: one dump per plane (one OpenSM per\n"
		"                        plane), each with its own LIDs from 1\n"
		"      --order KIND      node order of the shifts: nid (dmodc's, default),\n"
		"                        guid, name, compute (the compute CAs alone, in\n"
		"                        dmodc's order on their tree: the other CAs,\n"
		"                        edge switches and stray cables left out;\n"
		"                        osmre.conf(5), TOPOLOGY ROLES), or file:PATH\n"
		"                        (one CA per line)\n"
		"  -e, --engine NAME     route the topology here, in memory, with engine\n"
		"                        NAME (its defaults; sar's layers as its SLs)\n"
		"                        instead of reading --lfts: no table file\n"
		"      --cn-guids F, --root-guids F, --io-guids F\n"
		"                        --order compute's roles: OpenSM's cn_guid_file,\n"
		"                        root_guid_file, io_guid_file\n"
		"      --sl-file FILE    SLs of the paths and SL-to-VL tables for the\n"
		"                        deadlock check (default: one VL)\n"
		"      --jobs FILE       job file: effective edge forwarding index, dark fiber\n"
		"      --against FILE    earlier tables (an LFT dump): the update size,\n"
		"                        entries and 64-LID blocks that differ\n"
		"      --links FILE      per switch output port: all-to-all routes,\n"
		"                        sources, destinations, A2A risk (and EFI with\n"
		"                        --jobs), as CSV ('-': stdout)\n"
		"      --heatmap FILE    a PNG heat map of the switch-to-switch links'\n"
		"                        load (gnuplot)\n"
		"      --rp N            random permutations for RP (default 1000)\n"
		"      --seed K          seed of the random permutations (default 1)\n"
		"      --format F        text (default), csv or json\n"
		"      --no-updown       do not check the fat-tree up-down property\n"
		"      --bandwidth P     instead of the congestion risk, a flow-level\n"
		"                        bandwidth estimate (max-min fair rates) of the\n"
		"                        pattern P: shift:K (K in 1..hosts - 1), perm\n"
		"                        (--rp N >= 1 of them, --seed), a2a, or jobs\n"
		"                        (--jobs FILE, intra-job pairs)\n"
		"      --rail R          which planes a host pair uses: random (split\n"
		"                        evenly over the planes that route it; default),\n"
		"                        first, or hash (one plane per pair)\n"
		"      --speed S[,S..]   link speed per plane in GB/s (default 12.5, EDR;\n"
		"                        the last one repeats)\n"
		"  -q, --quiet           no progress on stderr\n"
		"  -j, --threads N       threads (default: online CPUs)\n"
		"      --node-name-map F nodes named by GUID in the report and in\n"
		"                        --order name (infiniband-diags format)\n");
}

struct analyze_args {
	struct tool_files topo, lfts;
	const char *order, *jobs, *slfile, *against;
	const char *links, *heatmap; /* --links CSV, --heatmap PNG */
	enum cong_order_kind kind;
	enum analysis_format fmt;
	int nperm, threads, updown, quiet;
	int order_file;	    /* order is a file's path */
	int compute;	    /* --order compute */
	const char *engine; /* --engine: route in memory, no --lfts */
	char *sl_text;	    /* its SLs (an engine with layers), or NULL */
	const char *cnf, *rootf, *iof; /* its roles' hints */
	long seed;
	struct bw_args bw;
};

static int parse_order(struct analyze_args *a, const char *v)
{
	a->order = v;
	if (!strcmp(v, "nid"))
		a->kind = CONG_ORDER_NID;
	else if (!strcmp(v, "guid"))
		a->kind = CONG_ORDER_GUID;
	else if (!strcmp(v, "name"))
		a->kind = CONG_ORDER_NAME;
	else if (!strcmp(v, "compute"))
		a->compute = 1;
	else if (!strncmp(v, "file:", 5) && v[5]) {
		a->order = v + 5;
		a->order_file = 1;
	} else {
		fprintf(stderr,
			"osmre analyze: --order: expected nid, guid, name, compute or file:PATH, got \"%s\"\n",
			v);
		return -1;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct analyze_args *a)
{
	static const struct option opts[] = {
		{ "topo", required_argument, NULL, 't' },
		{ "lfts", required_argument, NULL, 'l' },
		{ "order", required_argument, NULL, 'o' },
		{ "sl-file", required_argument, NULL, 'S' },
		{ "no-updown", no_argument, NULL, 'U' },
		{ "rp", required_argument, NULL, 'r' },
		{ "jobs", required_argument, NULL, 'J' },
		{ "against", required_argument, NULL, 'A' },
		{ "seed", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'F' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "threads", required_argument, NULL, 'j' },
		{ "bandwidth", required_argument, NULL, 'B' },
		{ "rail", required_argument, NULL, 'R' },
		{ "speed", required_argument, NULL, 'V' },
		{ "node-name-map", required_argument, NULL, 'N' },
		{ "links", required_argument, NULL, 'K' },
		{ "heatmap", required_argument, NULL, 'H' },
		{ "cn-guids", required_argument, NULL, 'C' },
		{ "root-guids", required_argument, NULL, 'G' },
		{ "engine", required_argument, NULL, 'e' },
		{ "io-guids", required_argument, NULL, 'I' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "t:l:j:e:qh", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (tool_files_add(&a->topo, "--topo", optarg))
				return EXIT_USAGE;
			break;
		case 'l':
			if (tool_files_add(&a->lfts, "--lfts", optarg))
				return EXIT_USAGE;
			break;
		case 'o':
			if (parse_order(a, optarg))
				return EXIT_USAGE;
			break;
		case 'S':
			a->slfile = optarg;
			break;
		case 'U':
			a->updown = 0;
			break;
		case 'J':
			a->jobs = optarg;
			break;
		case 'A':
			a->against = optarg;
			break;
		case 'K':
			a->links = optarg;
			break;
		case 'H':
			a->heatmap = optarg;
			break;
		case 'r':
			a->nperm =
				(int)tool_number("--rp", optarg, BW_MAX_PERMS);
			break;
		case 's':
			a->seed = tool_number("--seed", optarg, 0x7fffffffL);
			break;
		case 'F':
			if (!strcmp(optarg, "text"))
				a->fmt = AF_TEXT;
			else if (!strcmp(optarg, "csv"))
				a->fmt = AF_CSV;
			else if (!strcmp(optarg, "json"))
				a->fmt = AF_JSON;
			else {
				fprintf(stderr,
					"osmre analyze: --format: expected text, csv or json, got \"%s\"\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'q':
			a->quiet = 1;
			break;
		case 'j':
			a->threads =
				(int)tool_number("--threads", optarg, 1024);
			break;
		case 'B':
			a->bw.pattern = optarg;
			break;
		case 'R':
			a->bw.rail = optarg;
			break;
		case 'V':
			if (bw_parse_speed(&a->bw, optarg))
				return EXIT_USAGE;
			break;
		case 'N':
			tool_node_name_map(optarg);
			break;
		case 'C':
			a->cnf = optarg;
			break;
		case 'e':
			a->engine = optarg;
			break;
		case 'G':
			a->rootf = optarg;
			break;
		case 'I':
			a->iof = optarg;
			break;
		case 'h':
			analyze_usage(stdout);
			return -1;
		default:
			analyze_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (!a->bw.pattern && (a->bw.rail || a->bw.nspeed)) {
		fprintf(stderr,
			"osmre analyze: --rail and --speed go with --bandwidth\n");
		return EXIT_USAGE;
	}
	/* SLs and earlier tables name LIDs of one subnet */
	if (a->lfts.n > 1 && (a->slfile || a->against)) {
		fprintf(stderr,
			"osmre analyze: --sl-file and --against name LIDs of one subnet: they go with a single --lfts\n");
		return EXIT_USAGE;
	}
	if (!a->topo.n || (!a->lfts.n && !a->engine) || optind != argc) {
		fprintf(stderr,
			"osmre analyze: --topo and --lfts (or --engine) are required\n");
		analyze_usage(stderr);
		return EXIT_USAGE;
	}
	return 0;
}

static int deadlock(const struct fabric *f, const struct lft_set *s,
		    const struct analyze_args *a, struct analysis *r,
		    struct osmre_err *err)
{
	struct sl_map m;
	struct cdg_result cdg;
	int rc;

	FILE *mem = NULL;
	int have = a->slfile || a->sl_text;

	r->sl_source = a->slfile  ? a->slfile :
		       a->sl_text ? "the engine's layers" :
				    "one VL";
	if (a->sl_text) {
		mem = fmemopen(a->sl_text, strlen(a->sl_text), "r");
		if (!mem || sl_map_read_stream(mem, "(the engine's layers)", f,
					       &m, err)) {
			if (mem)
				fclose(mem);
			return mem ? -1 : osmre_fail(err, "out of memory");
		}
		fclose(mem);
	} else if (a->slfile && sl_map_read(a->slfile, f, &m, err)) {
		return -1;
	}
	rc = cdg_check(f, s, have ? &m : NULL, &cdg, err);
	if (have)
		sl_map_free(&m);
	if (rc)
		return -1;
	r->acyclic = cdg.acyclic;
	r->nvl = cdg.nvl;
	r->channels = cdg.channels;
	r->deps = cdg.deps;
	if (!cdg.acyclic) {
		size_t len;
		FILE *mf = open_memstream(&r->cycle, &len);

		if (mf) {
			cdg_print_cycle(mf, f, &cdg);
			fclose(mf);
			r->cycle[strcspn(r->cycle, "\n")] = '\0';
		}
	}
	cdg_result_free(&cdg);
	return 0;
}

/* The three patterns over the CA ports of o (one plane); into r as the
 * maximum over planes. */
static int plane_patterns(const struct fabric *f, const struct lft_set *s,
			  const struct analyze_args *a, struct cong_order *o,
			  int plane, struct analysis *r, struct osmre_err *err)
{
	struct cong_result a2a, sp, rp;
	struct progress pg;
	FILE *pf = a->quiet ? NULL : stderr;

	o->progress = &pg;
	progress_start(&pg, pf, "A2A", 2L * o->n);
	if (cong_all_to_all(f, s, o, a->threads, &a2a, err))
		return -1;
	progress_end(&pg);
	progress_start(&pg, pf, "SP shifts", o->n > 1 ? o->n - 1 : 0);
	if (cong_shifts(f, s, o, a->threads, &sp, err))
		return -1;
	progress_end(&pg);
	progress_start(&pg, pf, "RP permutations", a->nperm);
	if (cong_random_perms(f, s, o, a->nperm, (uint64_t)a->seed, a->threads,
			      &rp, err))
		return -1;
	progress_end(&pg);
	if (r->planes > 1 && plane <= ANALYSIS_PLANES) {
		struct plane_fig *fig = &r->pf[plane - 1];

		fig->ports = o->n;
		fig->a2a = a2a.risk;
		fig->sp = sp.risk;
		fig->rp = rp.risk;
		fig->max_shift = o->n > 1 ? o->n - 1 : 0;
	}
	if (a2a.risk > r->a2a)
		r->a2a = a2a.risk;
	if (sp.risk > r->sp)
		r->sp = sp.risk;
	if (rp.risk > r->rp)
		r->rp = rp.risk;
	if (o->n - 1 > r->max_shift)
		r->max_shift = o->n - 1;
	r->unroutable += a2a.unroutable + sp.unroutable + rp.unroutable;
	return 0;
}

/*
 * --engine NAME: the topology routed here, in memory (offline LIDs, the
 * engine's defaults and the roles' files given), its tables into s and,
 * for an engine with layers, its SLs into a->sl_text: no table file, at
 * 35,000 hosts none of 19 GB.  0, or -1 (said).
 */
static int route_here(struct analyze_args *a, struct fabric **fp,
		      struct lft_set *s)
{
	const struct engine *e = engine_find(a->engine);
	struct tool_roles t = { 0 };
	struct route_result r;
	struct engine_opts o;
	struct osmre_err err;
	struct fabric *f;
	int rc = -1;

	if (!e || a->lfts.n || a->topo.n != 1) {
		fprintf(stderr,
			e ? "osmre analyze: --engine takes one --topo and no --lfts\n" :
			    "osmre analyze: --engine: unknown engine \"%s\" (available: %s)\n",
			a->engine, engine_names());
		return -1;
	}
	f = tool_load_topo(a->topo.path[0], 0);
	if (!f)
		return -1;
	engine_opts_defaults(&o);
	o.threads = a->threads;
	o.cn = &t.cn;
	o.roots = &t.roots;
	o.io = &t.io;
	if (tool_roles_read(a->cnf, a->rootf, a->iof, &t, &err)) {
		fprintf(stderr, "osmre analyze: %s\n", err.msg);
		goto out;
	}
	if (engine_route(e, &o, f, &r, &err)) {
		fprintf(stderr, "osmre analyze: %s: %s\n", a->engine, err.msg);
		route_result_free(&r);
		goto out;
	}
	if (r.layers.have && !a->slfile) {
		size_t len;
		FILE *mf = open_memstream(&a->sl_text, &len);

		if (!mf || route_layers_write_sls(mf, f, &r.layers, e->name) ||
		    fclose(mf)) {
			fprintf(stderr, "osmre analyze: out of memory\n");
			route_result_free(&r);
			goto out;
		}
	}
	*s = r.tables;
	memset(&r.tables, 0, sizeof(r.tables));
	route_result_free(&r);
	*fp = f;
	f = NULL;
	rc = 0;
out:
	fabric_free(f);
	tool_roles_free(&t);
	return rc;
}

/* The up-down rule applies to fat trees: where check_lfts found none,
 * the report says it was not checked, and why (on stderr).  0. */
static int updown_rule(struct analysis *r)
{
	if (r->updown_checked && r->chk.updown_skipped[0]) {
		r->updown_checked = 0;
		fprintf(stderr,
			"osmre analyze: the up-down rule not applied: no fat tree (%s)\n",
			r->chk.updown_skipped);
	}
	return 0;
}

/* --order compute: the compute CAs (roles.h) with the hints' files. */
static int compute_order(const struct fabric *f, const struct analyze_args *a,
			 struct cong_order *o, struct osmre_err *err)
{
	struct tool_roles t;
	struct roles_hints h = { &t.cn, &t.roots, &t.io };
	int others = 0, rc = -1;

	if (tool_roles_read(a->cnf, a->rootf, a->iof, &t, err))
		return -1;
	if (cong_order_compute(f, &h, o, &others, err))
		goto out;
	if (others && !a->quiet)
		fprintf(stderr,
			"osmre analyze: --order compute: %d CA port(s) that are not compute CAs take no part in the patterns\n",
			others);
	rc = 0;
out:
	tool_roles_free(&t);
	return rc;
}

/*
 * A2A, SP and RP.  On a multi-plane fabric (CA ports in several switch
 * components), each plane's ports make their own patterns, in the
 * order's relative order, and the figures are the maximum over planes:
 * a route never crosses planes.
 */
static int patterns(const struct fabric *f, const struct lft_set *s,
		    const struct analyze_args *a, struct analysis *r,
		    struct osmre_err *err)
{
	struct cong_order o, sub = { 0 };
	int *comp = NULL, *seen = NULL;
	int unlisted = 0, rc = -1, i, k;

	if (a->order_file) {
		if (cong_order_read(a->order, f, &o, &unlisted, err))
			return -1;
		if (unlisted)
			fprintf(stderr,
				"osmre analyze: %s: %d CA port(s) not listed take no part in the patterns\n",
				a->order, unlisted);
	} else if (a->compute) {
		if (compute_order(f, a, &o, err))
			return -1;
	} else if (cong_order_make(f, a->kind, &o, err)) {
		return -1;
	}
	r->order = a->order;
	r->nports = o.n;
	r->nperm = a->nperm;
	r->seed = a->seed;
	r->a2a = r->sp = r->rp = 0;
	r->unroutable = 0;
	r->max_shift = 0;
	comp = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	seen = calloc((size_t)f->nnodes + 1, sizeof(int));
	sub.node = malloc(((size_t)o.n + 1) * sizeof(int));
	sub.port = malloc(((size_t)o.n + 1) * sizeof(int));
	if (!comp || !seen || !sub.node || !sub.port ||
	    switch_components(f, comp)) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	/* the planes the ports are in, in order of first appearance */
	r->planes = 0;
	for (i = 0; i < o.n; i++) {
		int c = comp[f->nodes[o.node[i]].ports[o.port[i]].rnode];

		if (c >= 0 && !seen[c])
			seen[c] = ++r->planes;
	}
	if (r->planes <= 1) {
		rc = plane_patterns(f, s, a, &o, 1, r, err);
		goto out;
	}
	for (k = 1; k <= r->planes; k++) {
		sub.n = 0;
		for (i = 0; i < o.n; i++) {
			int c = comp[f->nodes[o.node[i]].ports[o.port[i]].rnode];

			if (c >= 0 && seen[c] == k) {
				sub.node[sub.n] = o.node[i];
				sub.port[sub.n++] = o.port[i];
			}
		}
		if (plane_patterns(f, s, a, &sub, k, r, err))
			goto out;
	}
	if (bw_plane_pairs(f, s, &k, &r->host_pairs, &r->pairs_any,
			   &r->pairs_every, err))
		goto out;
	rc = 0;
out:
	free(comp);
	free(seen);
	free(sub.node);
	free(sub.port);
	cong_order_free(&o);
	return rc;
}

static int job_metrics(const struct fabric *f, const struct lft_set *s,
		       const char *path, struct analysis *r,
		       struct osmre_err *err)
{
	struct jobs jobs;
	struct efi_result e;

	if (jobs_read(path, f, &jobs, err))
		return -1;
	if (jobs_efi(f, s, &jobs, &e, err)) {
		jobs_free(&jobs);
		return -1;
	}
	tool_jobs_unknown(path, &jobs);
	r->has_jobs = 1;
	r->njobs = jobs.njobs;
	r->nhosts = jobs.nhosts;
	r->efi_max = e.max;
	r->efi_avg_job_max = e.avg_job_max;
	r->dark_pct = e.dark_pct;
	r->links = e.links;
	jobs_free(&jobs);
	return 0;
}

/* The update from the tables in file to s: entries and 64-LID blocks that
 * differ, over the switches of f. */
static int update_size(const struct fabric *f, const struct lft_set *s,
		       const char *file, struct analysis *r,
		       struct osmre_err *err)
{
	struct lft_set old = { 0 };
	int i, rc = -1;

	if (lftdump_read(file, &old, err) ||
	    lft_set_bind_known(&old, f, &r->dropped, err))
		goto out;
	r->has_against = 1;
	r->entries_changed = lft_set_entries_changed(s, &old);
	r->blocks_changed = lft_set_blocks_changed(s, &old, NULL);
	for (i = 0; i < s->n; i++) {
		r->entries += (long)s->t[i].top + 1;
		r->blocks += (long)s->t[i].top / 64 + 1;
	}
	rc = 0;
out:
	lft_set_free(&old);
	return rc;
}

int cmd_analyze(int argc, char **argv)
{
	struct analyze_args a = { .order = "nid",
				  .kind = CONG_ORDER_NID,
				  .nperm = 1000,
				  .seed = 1,
				  .updown = 1 };
	struct analysis r = { 0 };
	struct check_opts co = { .max_report = 5 };
	struct lft_set s = { 0 };
	struct osmre_err err;
	struct fabric *f = NULL;
	int rc;

	rc = parse_args(argc, argv, &a);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (a.engine) {
		if (route_here(&a, &f, &s))
			return EXIT_USAGE;
	} else if (tool_load_planes("analyze", &a.topo, &a.lfts, 0, &f, &s)) {
		return EXIT_USAGE;
	}
	if (tool_tables_empty("analyze", a.engine ? a.engine : a.lfts.path[0],
			      &s)) {
		lft_set_free(&s);
		fabric_free(f);
		return EXIT_INVALID;
	}
	if (a.lfts.n == 1)
		tool_top_unread("analyze", a.lfts.path[0], &s);
	co.updown = a.updown;
	co.threads = a.threads;
	r.updown_checked = a.updown;
	rc = EXIT_USAGE;
	if (a.bw.pattern) { /* validity, then the estimate alone */
		if (check_lfts(f, &s, &co, &r.chk,
			       a.fmt == AF_TEXT ? stdout : stderr, &err)) {
			fprintf(stderr, "osmre analyze: %s\n", err.msg);
			goto out;
		}
		updown_rule(&r);
		rc = bw_report(stdout, f, &s, &a.bw, a.nperm, a.seed, a.jobs,
			       a.fmt);
		if (!rc && !analysis_valid(&r))
			rc = EXIT_INVALID;
		goto out;
	}
	if (check_lfts(f, &s, &co, &r.chk, a.fmt == AF_TEXT ? stdout : stderr,
		       &err) ||
	    updown_rule(&r) || deadlock(f, &s, &a, &r, &err) ||
	    patterns(f, &s, &a, &r, &err) ||
	    (a.jobs && job_metrics(f, &s, a.jobs, &r, &err))) {
		fprintf(stderr, "osmre analyze: %s\n", err.msg);
		goto out;
	}
	if (a.against && update_size(f, &s, a.against, &r, &err)) {
		fprintf(stderr, "osmre analyze: %s: %s\n", a.against, err.msg);
		goto out;
	}
	if ((a.links || a.heatmap) &&
	    links_report(a.links, a.heatmap, f, &s, a.jobs, a.threads, &err)) {
		fprintf(stderr, "osmre analyze: %s\n", err.msg);
		goto out;
	}
	analysis_print(stdout, &r, a.fmt);
	rc = analysis_valid(&r) && r.acyclic ? 0 : EXIT_INVALID;
out:
	free(r.cycle);
	free(a.sl_text);
	lft_set_free(&s);
	fabric_free(f);
	return rc;
}
