/* SPDX-License-Identifier: BSD-2-Clause */
/* osmre route --engine dmodc|pqft --topo F.net --out F.lfts */
#define _GNU_SOURCE
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "lft.h"
#include "lids.h"
#include "osmre.h"
#include "pgft.h"

static void route_usage(FILE *out)
{
	fprintf(out,
		"usage: osmre route --topo F.net --out F.lfts [options]\n"
		"  -e, --engine NAME   routing engine: %s (default %s)\n"
		"  -t, --topo FILE     topology (ibnetdiscover / ibsim net file)\n"
		"  -o, --out FILE      LFTs in opensm-lfts.dump format ('-': stdout)\n"
		"  -j, --threads N     threads (default: online CPUs)\n"
		"      --node-name-map F nodes named by GUID in messages\n"
		"                      (infiniband-diags format)\n"
		"      --lmc L         LMC of offline LID assignment (default 0)\n"
		"      --lids FILE     take LIDs from an LFT dump (e.g. of a live fabric);\n"
		"                      every switch and linked CA port must have one\n"
		"      --partial-lids  with --lids: route the ports that have a LID, list\n"
		"                      the others\n"
		"      --topology SPEC pqft: the fabric's parameters, pgft(H;M;W[;P]) or\n"
		"                      qft(H;M;W;P) (default: read off a complete fabric)\n"
		"      --seed S        pqft: seed of the choices among alternate ports\n"
		"                      around faults (default 1)\n"
		"      --jobs FILE     sar: the job file (without: DFSSSP)\n"
		"      --sls FILE      sar: write the paths' SLs there (analyze --sl-file)\n"
		"      --state FILE    the engine's state dump, as the plugin writes\n"
		"                      osmre-ENGINE.dump (osmre(8), FILES; '-': stdout)\n"
		"      --max-vls N     sar: virtual layers allowed (default 8)\n"
		"      --io-guids FILE sar: I/O nodes (port or node GUIDs), routed after\n"
		"                      the compute nodes\n"
		"      --all-pairs     sar with --jobs: A2A and SP risks at most those\n"
		"                      of the tables without the jobs (sar_job_all_pairs)\n"
		"      --previous FILE a stable re-route from the tables in force (an LFT\n"
		"                      dump of the fabric before the change): sar keeps\n"
		"                      every route that still leads one hop closer; dmodc\n"
		"                      (dmodc_stable) every entry whose route still\n"
		"                      reaches its destination\n"
		"      --escape-vl V   the update protocol's routing: high LIDs (LMC >= 1)\n"
		"                      by up*/down* on SL/VL V, base LIDs by the engine\n"
		"                      (sar: on at most V layers); --sls then covers both\n",
		engine_names(), engines[0]->name);
}

struct missing_ctx {
	const struct fabric *f;
	int listed;
};

/* Lists the first 10 ports without a LID. */
static int list_missing(void *arg, int node, int port)
{
	struct missing_ctx *mc = arg;
	const struct fab_node *nd = &mc->f->nodes[node];

	fprintf(stderr, "  \"%s\"[%d] (GUID 0x%016" PRIx64 ")\n", nd->name,
		port, nd->guid);
	return ++mc->listed < 10;
}

/* A line of the engine's report (engine_report), on stderr. */
static void say_stderr(void *arg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say_stderr(void *arg, const char *fmt, ...)
{
	va_list ap;

	(void)arg;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cmd_route(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "engine", required_argument, NULL, 'e' },
		{ "topo", required_argument, NULL, 't' },
		{ "out", required_argument, NULL, 'o' },
		{ "threads", required_argument, NULL, 'j' },
		{ "lmc", required_argument, NULL, 'l' },
		{ "lids", required_argument, NULL, 'L' },
		{ "partial-lids", no_argument, NULL, 'Q' },
		{ "topology", required_argument, NULL, 'T' },
		{ "seed", required_argument, NULL, 'S' },
		{ "jobs", required_argument, NULL, 'J' },
		{ "sls", required_argument, NULL, 'W' },
		{ "state", required_argument, NULL, 'D' },
		{ "max-vls", required_argument, NULL, 'V' },
		{ "io-guids", required_argument, NULL, 'I' },
		{ "all-pairs", no_argument, NULL, 'A' },
		{ "escape-vl", required_argument, NULL, 'E' },
		{ "previous", required_argument, NULL, 'P' },
		{ "node-name-map", required_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *engine = NULL, *topo = NULL, *out = NULL, *lidsf = NULL;
	const char *jobsf = NULL, *slsf = NULL, *iof = NULL, *prevf = NULL;
	const char *statef = NULL;
	struct lft_set prev = { 0 };
	const struct engine *e;
	struct guidlist io = { 0 };
	int partial = 0;
	struct jobs jobs = { 0 };
	struct route_result r = { 0 };
	struct engine_opts o;
	struct lft_set ls = { 0 };
	struct osmre_err err;
	struct fabric *f;
	int c, lmc = 0, imported, failed, rc = EXIT_USAGE;
	double t0, t1;
	FILE *fp;

	engine_opts_defaults(&o);

	while ((c = getopt_long(argc, argv, "e:t:o:j:h", opts, NULL)) != -1) {
		switch (c) {
		case 'e':
			engine = optarg;
			break;
		case 't':
			topo = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'j':
			o.threads = (int)tool_number("--threads", optarg, 1024);
			break;
		case 'l':
			lmc = (int)tool_number("--lmc", optarg, 7);
			break;
		case 'L':
			lidsf = optarg;
			break;
		case 'Q':
			partial = 1;
			break;
		case 'T':
			o.topology = optarg;
			break;
		case 'S':
			o.seed = (uint64_t)tool_number("--seed", optarg,
						       0x7fffffffL);
			break;
		case 'J':
			jobsf = optarg;
			break;
		case 'W':
			slsf = optarg;
			break;
		case 'D':
			statef = optarg;
			break;
		case 'V':
			o.max_vls = (int)tool_number("--max-vls", optarg, 15);
			break;
		case 'I':
			iof = optarg;
			break;
		case 'A':
			o.all_pairs = 1;
			break;
		case 'E':
			o.escape_vl =
				(int)tool_number("--escape-vl", optarg, 14);
			break;
		case 'P':
			prevf = optarg;
			break;
		case 'N':
			tool_node_name_map(optarg);
			break;
		case 'h':
			route_usage(stdout);
			return 0;
		default:
			route_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (!topo || !out || optind != argc) {
		fprintf(stderr, "osmre route: --topo and --out are required\n");
		route_usage(stderr);
		return EXIT_USAGE;
	}
	/* the table's first row by default */
	e = engine ? engine_find(engine) : engines[0];
	if (!e) {
		fprintf(stderr,
			"osmre route: unknown engine \"%s\" (available: %s)\n",
			engine, engine_names());
		return EXIT_USAGE;
	}
	engine = e->name;
	if (prevf && !(e->produces & ENGINE_STABLE)) {
		fprintf(stderr,
			"osmre route: --previous: engine %s has no stable re-route\n",
			engine);
		return EXIT_USAGE;
	}
	if (slsf && o.escape_vl < 0 && !(e->produces & ENGINE_LAYERS)) {
		fprintf(stderr,
			"osmre route: --sls needs --engine sar or --escape-vl\n");
		return EXIT_USAGE;
	}
	if ((e->needs & ENGINE_NEEDS_TOPOLOGY) && o.topology) {
		struct pgft_params params;

		if (topo_spec_parse(o.topology, &params, &err)) {
			fprintf(stderr, "osmre route: --topology: %s\n",
				err.msg);
			return EXIT_USAGE;
		}
	}
	f = tool_load_topo(topo, lmc);
	if (!f)
		return EXIT_USAGE;
	if (lidsf && lftdump_read(lidsf, &ls, &err)) {
		fprintf(stderr, "osmre route: %s\n", err.msg); /* (names it) */
		goto out;
	}
	if (lidsf && (imported = lft_set_import_lids(&ls, f, &err)) <= 0) {
		fprintf(stderr, "osmre route: %s: %s\n", lidsf,
			imported ? err.msg : "no port GUIDs in the dump");
		goto out;
	}
	if (lidsf) {
		struct missing_ctx mc = { f, 0 };
		int n = lids_missing(f, NULL, NULL);

		if (n) {
			fprintf(stderr,
				"osmre route: %s: %s%d port(s) of %s have no LID in the dump (a dump of another fabric, or a truncated one)%s\n",
				lidsf, partial ? "warning: " : "", n, topo,
				partial ?
					"; they are left unrouted:" :
					"; refusing (--partial-lids routes the others):");
			lids_missing(f, list_missing, &mc);
			if (n > 10)
				fprintf(stderr, "  ... and %d more\n", n - 10);
			if (!partial)
				goto out;
		}
	}
	if (o.escape_vl >= 0 && !lids_lmc_max(f)) {
		fprintf(stderr,
			"osmre route: --escape-vl needs LIDs with LMC 1 or more (--lmc 1)\n");
		goto out;
	}
	if ((e->needs & ENGINE_TAKES_JOBS) &&
	    ((jobsf && jobs_read(jobsf, f, &jobs, &err)) ||
	     (iof && guidlist_read(iof, &io, &err)))) {
		fprintf(stderr, "osmre route: %s\n", err.msg);
		goto out;
	}
	if (jobsf && (e->needs & ENGINE_TAKES_JOBS))
		tool_jobs_unknown(jobsf, &jobs);
	if (prevf) {
		int dropped;

		if (lftdump_read(prevf, &prev, &err) ||
		    lft_set_bind_known(&prev, f, &dropped, &err)) {
			fprintf(stderr, "osmre route: %s: %s\n", prevf,
				err.msg);
			goto out;
		}
		o.prev = &prev;
		o.stable = 1;
	}
	o.jobs = &jobs;
	o.io = &io;
	if (statef &&
	    !(o.state = strcmp(statef, "-") ? fopen(statef, "w") : stdout)) {
		fprintf(stderr, "osmre route: %s: %s\n", statef,
			strerror(errno));
		goto out;
	}
	t0 = tool_now();
	failed = engine_route(e, &o, f, &r, &err);
	if (o.state && o.state != stdout && fclose(o.state) && !failed) {
		fprintf(stderr, "osmre route: %s: write error\n", statef);
		goto out;
	}
	o.state = NULL;
	if (failed) {
		fprintf(stderr, "osmre route: %s: %s: %s\n", engine, topo,
			err.msg);
		rc = EXIT_INVALID;
		goto out;
	}
	t1 = tool_now();
	o.jobs = jobsf ? &jobs : NULL;
	engine_report(e, &o, &r, say_stderr, NULL);
	if (slsf) {
		FILE *sf = fopen(slsf, "w");
		int bad = !sf;

		if (sf && r.layers.have)
			bad = route_layers_write_sls(sf, f, &r.layers, e->name);
		else if (sf)
			fprintf(sf, "default 0\n");
		if (sf && o.escape_vl >= 0)
			bad |= updn_write_sls(sf, f, o.escape_vl);
		if (bad || fclose(sf)) {
			fprintf(stderr, "osmre route: %s: write error\n", slsf);
			goto out;
		}
	}
	fp = strcmp(out, "-") ? fopen(out, "w") : stdout;
	if (!fp) {
		perror(out);
		goto out;
	}
	if (lftdump_write(fp, f, &r.tables, &err) ||
	    (fp != stdout && fclose(fp))) {
		fprintf(stderr, "osmre route: %s: write error\n", out);
		goto out;
	}
	fprintf(stderr, "%s: routed %d switches in %.3f ms\n", engine,
		r.tables.n, (t1 - t0) * 1e3);
	rc = 0;
out:
	route_result_free(&r);
	jobs_free(&jobs);
	guidlist_free(&io);
	lft_set_free(&ls);
	lft_set_free(&prev);
	fabric_free(f);
	return rc;
}
