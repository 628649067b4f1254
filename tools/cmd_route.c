/* SPDX-License-Identifier: BSD-2-Clause */
/* osmre route --engine dmodc|pqft --topo F.net --out F.lfts */
#define _GNU_SOURCE
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine_table.h"
#include "lft.h"
#include "lids.h"
#include "osmre.h"
#include "options.h"
#include "pass.h"

/* the general flags' help, each after the one before; the engines' own
 * (engine.options) go after the flag they name (opt_desc.help_after) */
static const struct {
	const char *flag, *text;
} route_help[] = {
	{ "topo",
	  "  -t, --topo FILE     topology (ibnetdiscover / ibsim net file)\n" },
	{ "out",
	  "  -o, --out FILE      LFTs in opensm-lfts.dump format ('-': stdout)\n" },
	{ "threads", "  -j, --threads N     threads (default: online CPUs)\n" },
	{ "node-name-map",
	  "      --node-name-map F nodes named by GUID in messages\n"
	  "                      (infiniband-diags format)\n" },
	{ "lmc",
	  "      --lmc L         LMC of offline LID assignment (default 0)\n" },
	{ "lids",
	  "      --lids FILE     take LIDs from an LFT dump (e.g. of a live fabric);\n"
	  "                      every switch and linked CA port must have one\n" },
	{ "partial-lids",
	  "      --partial-lids  with --lids: route the ports that have a LID, list\n"
	  "                      the others\n" },
	{ "jobs",
	  "      --jobs FILE     sar: the job file (without: DFSSSP)\n" },
	{ "sls",
	  "      --sls FILE      the paths' SLs, of an engine that layers (sar) or\n"
	  "                      of --escape-vl, there (analyze --sl-file)\n" },
	{ "state",
	  "      --state FILE    the engine's state dump, as the plugin writes\n"
	  "                      osmre-ENGINE.dump (osmre(8), FILES; '-': stdout)\n" },
	{ "io-guids",
	  "      --io-guids FILE I/O nodes (port or node GUIDs, OpenSM's\n"
	  "                      io_guid_file): sar routes them after the compute\n"
	  "                      nodes; dmodc and pqft do not count them as\n"
	  "                      compute CAs (osmre.conf(5), TOPOLOGY ROLES)\n" },
	{ "cn-guids",
	  "      --cn-guids FILE dmodc, pqft: the compute nodes (OpenSM's\n"
	  "                      cn_guid_file); the other CAs are routed apart\n" },
	{ "root-guids",
	  "      --root-guids FILE\n"
	  "                      dmodc, pqft: the root (top) switches (OpenSM's\n"
	  "                      root_guid_file); ranks counted down from them\n" },
	{ "previous",
	  "      --previous FILE a stable re-route from the tables in force (an LFT\n"
	  "                      dump of the fabric before the change): sar keeps\n"
	  "                      every route that still leads one hop closer; dmodc\n"
	  "                      (dmodc_stable) every entry whose route still\n"
	  "                      reaches its destination\n" },
	{ "escape-vl",
	  "      --escape-vl V   the update protocol's routing: high LIDs (LMC >= 1)\n"
	  "                      by up*/down* on SL/VL V, base LIDs by the engine\n"
	  "                      (sar: on at most V layers); --sls then covers both\n" },
	{ "deadlock-check",
	  "      --deadlock-check\n"
	  "                      check the pass as the plugin's deadlock_check\n"
	  "                      does; a cycle refuses it (no tables written)\n" },
};

#define HELP_COL 22

/* Whether d's help goes after flag after's (NULL: at the end). */
static int goes_after(const struct opt_desc *d, const char *after)
{
	if (!after || !d->help_after)
		return after == d->help_after;
	return !strcmp(d->help_after, after);
}

/* The help of the engines' flags that go after flag after (NULL: at the
 * end), each followed by those that go after it. */
static void route_usage_rows(FILE *out, const char *after)
{
	const struct engine *const *e;
	const struct opt_desc *d;

	for (e = engines; *e; e++)
		for (d = (*e)->options; d && d->key; d++) {
			const char *h = d->help, *nl;
			int n;

			if (!d->flag || !goes_after(d, after))
				continue;
			n = fprintf(out, "      --%s%s%s", d->flag,
				    d->arg ? " " : "", d->arg ? d->arg : "");
			fprintf(out, "%*s", n < HELP_COL ? HELP_COL - n : 1,
				"");
			for (; h && (nl = strchr(h, '\n')); h = nl + 1)
				fprintf(out, "%.*s\n%*s", (int)(nl - h), h,
					HELP_COL, "");
			fprintf(out, "%s\n", h ? h : "");
			route_usage_rows(out, d->flag);
		}
}

static void route_usage(FILE *out)
{
	size_t i;

	fprintf(out,
		"usage: osmre route --topo F.net --out F.lfts [options]\n"
		"  -e, --engine NAME   routing engine: %s (default %s)\n",
		engine_names(), engines[0]->name);
	for (i = 0; i < sizeof(route_help) / sizeof(route_help[0]); i++) {
		fputs(route_help[i].text, out);
		route_usage_rows(out, route_help[i].flag);
	}
	route_usage_rows(out, NULL);
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

/* the long options: the general ones, then the engines' flags (val
 * ROW_FLAG + their index in flag_desc) */
#define ROW_FLAG  0x100
#define ROW_FLAGS 64

static const struct option general_opts[] = {
	{ "engine", required_argument, NULL, 'e' },
	{ "topo", required_argument, NULL, 't' },
	{ "out", required_argument, NULL, 'o' },
	{ "threads", required_argument, NULL, 'j' },
	{ "lmc", required_argument, NULL, 'l' },
	{ "lids", required_argument, NULL, 'L' },
	{ "partial-lids", no_argument, NULL, 'Q' },
	{ "jobs", required_argument, NULL, 'J' },
	{ "sls", required_argument, NULL, 'W' },
	{ "state", required_argument, NULL, 'D' },
	{ "io-guids", required_argument, NULL, 'I' },
	{ "cn-guids", required_argument, NULL, 'C' },
	{ "root-guids", required_argument, NULL, 'R' },
	{ "escape-vl", required_argument, NULL, 'E' },
	{ "deadlock-check", no_argument, NULL, 'K' },
	{ "previous", required_argument, NULL, 'P' },
	{ "node-name-map", required_argument, NULL, 'N' },
	{ "help", no_argument, NULL, 'h' },
};

#define NGENERAL (sizeof(general_opts) / sizeof(general_opts[0]))

struct row_flag {
	const struct engine *e;
	const struct opt_desc *d;
	const char *given; /* a string's value, set when the engine runs */
};

/* The long options into opts (NGENERAL + ROW_FLAGS + 1), the engines'
 * flags into flags; their number. */
static int route_options(struct option *opts, struct row_flag *flags)
{
	const struct engine *const *e;
	const struct opt_desc *d;
	int n = 0;

	memcpy(opts, general_opts, sizeof(general_opts));
	for (e = engines; *e; e++)
		for (d = (*e)->options; d && d->key; d++) {
			struct option *lo = &opts[NGENERAL + (size_t)n];

			if (!d->flag || n >= ROW_FLAGS)
				continue;
			flags[n].e = *e;
			flags[n].d = d;
			flags[n].given = NULL;
			lo->name = d->flag;
			lo->has_arg = d->arg ? required_argument : no_argument;
			lo->flag = NULL;
			lo->val = ROW_FLAG + n++;
		}
	memset(&opts[NGENERAL + (size_t)n], 0, sizeof(*opts));
	return n;
}

/* An engine's flag: a number set now (into its settings in conf), a
 * string kept for when its engine runs (route_strings). */
static void route_flag(struct osmre_options *conf, struct row_flag *rf,
		       const char *val)
{
	void *base = options_settings(conf, rf->e->options);
	char name[64];

	snprintf(name, sizeof(name), "--%s", rf->d->flag);
	if (!base)
		return;
	if (!rf->d->arg)
		options_put(rf->d, base, 1);
	else if (rf->d->type == OPT_INT || rf->d->type == OPT_UINT64)
		options_put(rf->d, base, tool_number(name, val, rf->d->max));
	else
		rf->given = val;
}

/* The strings given to engine e's flags into its settings: 0, or -1
 * with the flag refused. */
static int route_strings(struct osmre_options *conf, const struct engine *e,
			 const struct row_flag *flags, int nflags)
{
	void *base = options_settings(conf, e->options);
	char why[256];
	int i;

	for (i = 0; i < nflags; i++) {
		if (flags[i].e != e || !flags[i].given || !base)
			continue;
		if (options_set(flags[i].d, base, flags[i].given, why,
				sizeof(why))) {
			fprintf(stderr, "osmre route: --%s: %s\n",
				flags[i].d->flag, why);
			return -1;
		}
	}
	return 0;
}

/* osmre route with the engines' settings in conf */
/* The engines that set SLs (their row's ENGINE_LAYERS), ", " between. */
static void layer_engines(FILE *fp)
{
	int i, n = 0;

	for (i = 0; engines[i]; i++)
		if (engines[i]->produces & ENGINE_LAYERS)
			fprintf(fp, "%s%s", n++ ? ", " : "", engines[i]->name);
}

static int route_with(int argc, char **argv, struct osmre_options *conf)
{
	struct option opts[NGENERAL + ROW_FLAGS + 1];
	struct row_flag flags[ROW_FLAGS];
	int nflags;
	const char *engine = NULL, *topo = NULL, *out = NULL, *lidsf = NULL;
	const char *jobsf = NULL, *slsf = NULL, *iof = NULL, *prevf = NULL;
	const char *statef = NULL, *cnf = NULL, *rootf = NULL;
	struct lft_set prev = { 0 };
	const struct engine *e;
	struct tool_roles roles = { 0 };
	int partial = 0;
	struct jobs jobs = { 0 };
	struct route_result r = { 0 };
	struct engine_opts o;
	struct lft_set ls = { 0 };
	struct osmre_err err;
	struct fabric *f;
	int c, lmc = 0, imported, failed, rc = EXIT_USAGE, dcheck = 0, why;
	double t0, t1;
	FILE *fp;

	engine_opts_defaults(&o);
	nflags = route_options(opts, flags);

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
		case 'J':
			jobsf = optarg;
			break;
		case 'W':
			slsf = optarg;
			break;
		case 'D':
			statef = optarg;
			break;
		case 'I':
			iof = optarg;
			break;
		case 'C':
			cnf = optarg;
			break;
		case 'R':
			rootf = optarg;
			break;
		case 'E':
			o.escape_vl =
				(int)tool_number("--escape-vl", optarg, 14);
			break;
		case 'P':
			prevf = optarg;
			break;
		case 'K':
			dcheck = 1;
			break;
		case 'N':
			tool_node_name_map(optarg);
			break;
		case 'h':
			route_usage(stdout);
			return 0;
		default:
			if (c >= ROW_FLAG && c < ROW_FLAG + nflags) {
				route_flag(conf, &flags[c - ROW_FLAG], optarg);
				break;
			}
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
			"osmre route: --sls: engine %s sets no SLs; needs an engine that does (",
			engine);
		layer_engines(stderr);
		fprintf(stderr, ") or --escape-vl\n");
		return EXIT_USAGE;
	}
	if (route_strings(conf, e, flags, nflags))
		return EXIT_USAGE;
	if (e->options)
		o.settings = options_settings(conf, e->options);
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
	if (((e->needs & ENGINE_TAKES_JOBS) && jobsf &&
	     jobs_read(jobsf, f, &jobs, &err)) ||
	    tool_roles_read(cnf, rootf, iof, &roles, &err)) {
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
	o.io = &roles.io;
	o.cn = &roles.cn;
	o.roots = &roles.roots;
	if (statef &&
	    !(o.state = strcmp(statef, "-") ? fopen(statef, "w") : stdout)) {
		fprintf(stderr, "osmre route: %s: %s\n", statef,
			strerror(errno));
		goto out;
	}
	t0 = tool_now();
	/* route, check (--deadlock-check), report: the plugin's order
	 * (pass.h); the report speaks of jobs only when a file was given */
	if (!jobsf)
		o.jobs = NULL;
	failed = pass_run(e, &o, f, dcheck, &r, say_stderr, NULL, &why, &err);
	t1 = tool_now();
	if (o.state && o.state != stdout && fclose(o.state) && !failed) {
		fprintf(stderr, "osmre route: %s: write error\n", statef);
		goto out;
	}
	o.state = NULL;
	if (failed) {
		fprintf(stderr, "osmre route: %s: %s: %s\n", engine, topo,
			err.msg);
		rc = why == PASS_ERROR ? EXIT_USAGE : EXIT_INVALID;
		goto out;
	}
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
	tool_roles_free(&roles);
	lft_set_free(&ls);
	lft_set_free(&prev);
	fabric_free(f);
	return rc;
}

int cmd_route(int argc, char **argv)
{
	struct osmre_options conf;
	int rc;

	options_defaults(&conf);
	if (engine_options_add(&conf)) {
		fprintf(stderr, "osmre route: out of memory\n");
		options_free(&conf);
		return EXIT_USAGE;
	}
	rc = route_with(argc, argv, &conf);
	options_free(&conf);
	return rc;
}
