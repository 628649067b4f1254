/* SPDX-License-Identifier: BSD-2-Clause */
/* osmre gen pgft|qft|dragonfly|megafly ... and osmre degrade NETFILE:
 * [degradation] [-o FILE] */
#define _GNU_SOURCE
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "components.h"
#include "degrade.h"
#include "quirks.h"
#include "dragonfly.h"
#include "netfile.h"
#include "osmre.h"
#include "pgft.h"
#include "planes.h"

static void gen_usage(FILE *out)
{
	fprintf(out,
		"usage: osmre gen pgft H M1,..,Mh W1,..,Wh [P1,..,Ph] [options]\n"
		"       osmre gen qft H M1,..,Mh W1,..,Wh P1,..,Ph [options]\n"
		"       osmre gen rlft RADIX PODS [options]   (pruned 3-level fat tree)\n"
		"       osmre gen dragonfly GROUPS ROUTERS HOSTS GLOBAL [options]\n"
		"       osmre gen megafly GROUPS LEAVES SPINES HOSTS GLOBAL [options]\n"
		"       osmre degrade NETFILE [options]   (any net file, ibnetdiscover's too)\n"
		"  -o, --output FILE          write there (default: stdout)\n"
		"      --arrangement A        dragonfly/megafly global links: consecutive\n"
		"                             (default) or round-robin\n"
		"      --planes P             P switch planes, every host cabled to each\n"
		"                             (planes.h; default 1)\n"
		"      --sm-hca               per plane, a single-port HCA SM_<leaf> in\n"
		"                             the place of the last host of the last\n"
		"                             leaf: where that plane's OpenSM attaches\n"
		"                             (SIM_HOST)\n"
		"      --fail-links PCT       fail PCT %% of the switch-to-switch links,\n"
		"                             counted on one plane (0..100)\n"
		"      --remove-links N       remove N random switch-to-switch links\n"
		"      --remove-switches N    remove N random switches\n"
		"      --loguniform-links     remove a = floor(2^(m*u) - 1) links\n"
		"      --loguniform-switches  remove a = floor(2^(m*u) - 1) switches\n"
		"      --log-m M              m of the log-uniform law (default: log2 of\n"
		"                             the number of candidates)\n"
		"      --with Q1,Q2,...       add production quirks (quirks.h): aggregation,\n"
		"                             storage, gateway, edge, dual, stray-leaf,\n"
		"                             stray-spine, hostless (places drawn from\n"
		"                             --seed; after any degradation)\n"
		"      --seed S               seed of every random choice (default 1)\n");
}

/* What to remove after building or reading a fabric. */
struct degradation {
	int kind; /* -1: none */
	int loguni;
	long amount;
	double pct; /* --fail-links, -1: not given */
	double logm;
	long seed;
};

/* Switch components of the intact fabric: its planes. */
static long count_planes(const struct fabric *f)
{
	int *comp = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	long n = 0;
	int i;

	if (!comp || switch_components(f, comp)) {
		free(comp);
		return -1;
	}
	for (i = 0; i < f->nnodes; i++)
		n += comp[i] == i;
	free(comp);
	return n;
}

static int degrade(const char *cmd, struct fabric *f, struct degradation *d)
{
	struct osmre_err err;
	struct rng rng;
	long cand;

	rng_seed(&rng, (uint64_t)d->seed);
	if (d->kind < 0)
		return 0;
	cand = degrade_candidates(f, d->kind);
	if (d->pct >= 0) {
		long planes = count_planes(f);

		if (planes < 0) {
			fprintf(stderr, "osmre %s: out of memory\n", cmd);
			return -1;
		}
		/* the paper's count: a percentage of one plane's links */
		d->amount = (long)(d->pct / 100.0 * (double)cand /
					   (double)(planes ? planes : 1) +
				   0.5);
	} else if (d->loguni) {
		if (d->logm < 0)
			d->logm = cand > 0 ? log2((double)cand) : 0;
		d->amount = degrade_loguniform(&rng, d->logm);
		if (d->amount > cand)
			d->amount = cand;
	}
	if (degrade_remove(f, d->kind, d->amount, &rng, &err)) {
		fprintf(stderr, "osmre %s: %s\n", cmd, err.msg);
		return -1;
	}
	return 0;
}

static double percentage(const char *val)
{
	char *end;
	double v = strtod(val, &end);

	if (end == val || *end || !(v >= 0 && v <= 100)) {
		fprintf(stderr,
			"osmre gen: --fail-links: expected a percentage 0..100, got \"%s\"\n",
			val);
		exit(EXIT_USAGE);
	}
	return v;
}

/* The fabric a gen command line asks for; -1 after a message. */
static int build(int argc, char **argv, const struct df_params *dfo,
		 struct fabric **f, char *what, size_t wsz)
{
	struct osmre_err err;
	struct pgft_params t;
	struct df_params d = *dfo;

	if (argc >= 1 &&
	    (!strcmp(argv[0], "dragonfly") || !strcmp(argv[0], "megafly"))) {
		int n = !strcmp(argv[0], "megafly") ? 6 : 5, i;
		int *v[5];

		d.megafly = n == 6;
		v[0] = &d.groups;
		v[1] = &d.routers;
		v[2] = d.megafly ? &d.spines : &d.hosts;
		v[3] = d.megafly ? &d.hosts : &d.global;
		v[4] = &d.global;
		if (argc != n) {
			fprintf(stderr,
				d.megafly ?
					"osmre gen: expected \"megafly GROUPS LEAVES SPINES HOSTS GLOBAL\"\n" :
					"osmre gen: expected \"dragonfly GROUPS ROUTERS HOSTS GLOBAL\"\n");
			return -1;
		}
		for (i = 1; i < n; i++)
			*v[i - 1] = (int)tool_number(argv[0], argv[i], 1000000);
		if (df_build(&d, f, &err)) {
			fprintf(stderr, "osmre gen: %s\n", err.msg);
			return -1;
		}
		snprintf(what, wsz, "%s", argv[0]);
		return 0;
	}
	if (d.arrangement != DF_CONSECUTIVE) {
		fprintf(stderr,
			"osmre gen: --arrangement is for dragonfly and megafly\n");
		return -1;
	}
	if (argc >= 1 && !strcmp(argv[0], "rlft")) {
		char spec[128];

		if (argc != 3) {
			fprintf(stderr,
				"osmre gen: expected \"rlft RADIX PODS\"\n");
			return -1;
		}
		if (rlft_params((int)tool_number("rlft", argv[1], 1000),
				(int)tool_number("rlft", argv[2], 1000), &t,
				&err) ||
		    pgft_build(&t, f, &err)) {
			fprintf(stderr, "osmre gen rlft: %s\n", err.msg);
			return -1;
		}
		topo_spec_format(&t, spec, sizeof(spec));
		fprintf(stderr, "rlft: %s\n", spec);
	} else if (argc < 4 || argc > 5 ||
		   (strcmp(argv[0], "pgft") && strcmp(argv[0], "qft")) ||
		   (!strcmp(argv[0], "qft") && argc != 5)) {
		fprintf(stderr,
			"osmre gen: expected \"pgft H M W [P]\", \"qft H M W P\", \"rlft K PODS\", \"dragonfly ...\" or \"megafly ...\"\n");
		gen_usage(stderr);
		return -1;
	} else if ((!strcmp(argv[0], "qft") ?
			    qft_parse(argv[1], argv[2], argv[3], argv[4], &t,
				      &err) :
			    pgft_parse(argv[1], argv[2], argv[3],
				       argc == 5 ? argv[4] : NULL, &t, &err)) ||
		   pgft_build(&t, f, &err)) {
		fprintf(stderr, "osmre gen %s: %s\n", argv[0], err.msg);
		return -1;
	}
	if (d.planes > 1) { /* P copies of the tree, hosts in every one */
		struct fabric *one = *f;

		if (fabric_planes(one, d.planes, f, &err)) {
			fprintf(stderr, "osmre gen %s: %s\n", argv[0], err.msg);
			*f = NULL;
			fabric_free(one);
			return -1;
		}
		fabric_free(one);
	}
	snprintf(what, wsz, "%s",
		 !strcmp(argv[0], "rlft") ? "rlft" :
		 t.qft			  ? "qft" :
					    "pgft");
	return 0;
}

/* gen (degrade_cmd 0) and degrade (1): options, fabric, degradation,
 * output. */
static int gen_or_degrade(int argc, char **argv, int degrade_cmd)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "remove-links", required_argument, NULL, 'l' },
		{ "remove-switches", required_argument, NULL, 's' },
		{ "fail-links", required_argument, NULL, 'F' },
		{ "loguniform-links", no_argument, NULL, 'L' },
		{ "loguniform-switches", no_argument, NULL, 'S' },
		{ "log-m", required_argument, NULL, 'm' },
		{ "seed", required_argument, NULL, 'r' },
		{ "arrangement", required_argument, NULL, 'a' },
		{ "planes", required_argument, NULL, 'P' },
		{ "sm-hca", no_argument, NULL, 'M' },
		{ "with", required_argument, NULL, 'W' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd = degrade_cmd ? "degrade" : "gen";
	const char *out = NULL, *with = NULL;
	struct degradation dg = { .kind = -1, .pct = -1, .logm = -1, .seed = 1 };
	struct df_params dfo = { .arrangement = DF_CONSECUTIVE };
	int c, rc = EXIT_USAGE, sm_hca = 0;
	struct osmre_err err;
	struct fabric *f = NULL;
	struct fab_counts cnt;
	char what[4096]; /* the generator, or the net file degraded */
	FILE *fp;

	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'l':
		case 's':
		case 'L':
		case 'S':
		case 'F':
			if (dg.kind >= 0) {
				fprintf(stderr,
					"osmre %s: one degradation option at most\n",
					cmd);
				return EXIT_USAGE;
			}
			dg.kind = c == 's' || c == 'S' ? DEGRADE_SWITCHES :
							 DEGRADE_LINKS;
			dg.loguni = c == 'L' || c == 'S';
			if (c == 'F')
				dg.pct = percentage(optarg);
			else if (!dg.loguni)
				dg.amount =
					tool_number(c == 'l' ?
							    "--remove-links" :
							    "--remove-switches",
						    optarg, 10000000);
			break;
		case 'm': {
			char *end;

			dg.logm = strtod(optarg, &end);
			if (end == optarg || *end || dg.logm < 0 ||
			    dg.logm > 40) {
				fprintf(stderr,
					"osmre %s: --log-m: expected a number 0..40, got \"%s\"\n",
					cmd, optarg);
				return EXIT_USAGE;
			}
			break;
		}
		case 'r':
			dg.seed = tool_number("--seed", optarg, 0x7fffffffL);
			break;
		case 'a':
			if (df_arrangement_parse(optarg, &dfo.arrangement)) {
				fprintf(stderr,
					"osmre gen: --arrangement: expected consecutive or round-robin, got \"%s\"\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'P':
			dfo.planes = (int)tool_number("--planes", optarg, 16);
			if (dfo.planes < 1) {
				fprintf(stderr,
					"osmre gen: --planes: expected 1..16\n");
				return EXIT_USAGE;
			}
			break;
		case 'M':
			sm_hca = 1;
			break;
		case 'W':
			with = optarg;
			break;
		case 'h':
			gen_usage(stdout);
			return 0;
		default:
			gen_usage(stderr);
			return EXIT_USAGE;
		}
	}
	argc -= optind;
	argv += optind;
	if (degrade_cmd) {
		if (argc != 1 || dfo.planes || dfo.arrangement) {
			fprintf(stderr,
				"osmre degrade: expected one net file (and no --planes or --arrangement)\n");
			return EXIT_USAGE;
		}
		if (netfile_read(argv[0], &f, &err)) {
			fprintf(stderr, "osmre degrade: %s\n", err.msg);
			return EXIT_USAGE;
		}
		snprintf(what, sizeof(what), "%s", argv[0]);
	} else if (build(argc, argv, &dfo, &f, what, sizeof(what))) {
		return EXIT_USAGE;
	}
	if (degrade(cmd, f, &dg))
		goto out;
	if (with) {
		struct rng rq;

		/* a stream of its own: the degradation draws as without */
		rng_seed(&rq, (uint64_t)dg.seed ^ 0x9e3779b97f4a7c15ULL);
		if (quirks_add(f, with, &rq, &err)) {
			fprintf(stderr, "osmre %s: --with: %s\n", cmd, err.msg);
			goto out;
		}
	}
	/* (after the degradation: the attach points are never removed) */
	if (sm_hca) {
		int k = fabric_sm_hcas(f, &err);

		if (k < 0) {
			fprintf(stderr, "osmre %s: --sm-hca: %s\n", cmd,
				err.msg);
			goto out;
		}
		fprintf(stderr, "%s: %d SM HCA(s) added\n", what, k);
	}
	fp = out ? fopen(out, "w") : stdout;
	if (!fp) {
		perror(out);
		goto out;
	}
	if (netfile_write(fp, f) || (out && fclose(fp))) {
		fprintf(stderr, "osmre %s: write error on %s\n", cmd,
			out ? out : "stdout");
		goto out;
	}
	fabric_count(f, &cnt);
	fprintf(stderr,
		"%s: %d switches, %d hosts, %d switch links, %d host links",
		what, cnt.switches, cnt.cas, cnt.sw_links, cnt.ca_links);
	if (dg.kind >= 0)
		fprintf(stderr, "; removed %ld %s (seed %ld)", dg.amount,
			dg.kind == DEGRADE_LINKS ? "links" : "switches",
			dg.seed);
	if (with)
		fprintf(stderr, "; with %s (seed %ld)", with, dg.seed);
	fputc('\n', stderr);
	rc = 0;
out:
	fabric_free(f);
	return rc;
}

int cmd_gen(int argc, char **argv)
{
	return gen_or_degrade(argc, argv, 0);
}

int cmd_degrade(int argc, char **argv)
{
	return gen_or_degrade(argc, argv, 1);
}
