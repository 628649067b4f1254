/* SPDX-License-Identifier: BSD-2-Clause */
/* osmre gen pgft|qft H M W P [degradation] [-o FILE] */
#define _GNU_SOURCE
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "degrade.h"
#include "netfile.h"
#include "osmre.h"
#include "pgft.h"

static void gen_usage(FILE *out)
{
	fprintf(out,
		"usage: osmre gen pgft H M1,..,Mh W1,..,Wh [P1,..,Ph] [options]\n"
		"       osmre gen qft H M1,..,Mh W1,..,Wh P1,..,Ph [options]\n"
		"  -o, --output FILE          write there (default: stdout)\n"
		"      --remove-links N       remove N random switch-to-switch links\n"
		"      --remove-switches N    remove N random switches\n"
		"      --loguniform-links     remove a = floor(2^(m*u) - 1) links\n"
		"      --loguniform-switches  remove a = floor(2^(m*u) - 1) switches\n"
		"      --log-m M              m of the log-uniform law (default: log2 of\n"
		"                             the number of candidates)\n"
		"      --seed S               seed of every random choice (default 1)\n");
}

int cmd_gen(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "remove-links", required_argument, NULL, 'l' },
		{ "remove-switches", required_argument, NULL, 's' },
		{ "loguniform-links", no_argument, NULL, 'L' },
		{ "loguniform-switches", no_argument, NULL, 'S' },
		{ "log-m", required_argument, NULL, 'm' },
		{ "seed", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL;
	long amount = -1, seed = 1;
	int kind = -1, loguni = 0, c, rc = EXIT_USAGE;
	double logm = -1;
	struct pgft_params t;
	struct osmre_err err;
	struct fabric *f = NULL;
	struct fab_counts cnt;
	struct rng rng;
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
			if (kind >= 0) {
				fprintf(stderr,
					"osmre gen: one degradation option at most\n");
				return EXIT_USAGE;
			}
			kind = c == 'l' || c == 'L' ? DEGRADE_LINKS :
						      DEGRADE_SWITCHES;
			loguni = c == 'L' || c == 'S';
			if (!loguni)
				amount =
					tool_number(c == 'l' ?
							    "--remove-links" :
							    "--remove-switches",
						    optarg, 10000000);
			break;
		case 'm': {
			char *end;

			logm = strtod(optarg, &end);
			if (end == optarg || *end || logm < 0 || logm > 40) {
				fprintf(stderr,
					"osmre gen: --log-m: expected a number 0..40, got \"%s\"\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		}
		case 'r':
			seed = tool_number("--seed", optarg, 0x7fffffffL);
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
	if (argc < 4 || argc > 5 ||
	    (strcmp(argv[0], "pgft") && strcmp(argv[0], "qft")) ||
	    (!strcmp(argv[0], "qft") && argc != 5)) {
		fprintf(stderr,
			"osmre gen: expected \"pgft H M W [P]\" or \"qft H M W P\"\n");
		gen_usage(stderr);
		return EXIT_USAGE;
	}
	if ((!strcmp(argv[0], "qft") ?
		     qft_parse(argv[1], argv[2], argv[3], argv[4], &t, &err) :
		     pgft_parse(argv[1], argv[2], argv[3],
				argc == 5 ? argv[4] : NULL, &t, &err)) ||
	    pgft_build(&t, &f, &err)) {
		fprintf(stderr, "osmre gen %s: %s\n", argv[0], err.msg);
		return EXIT_USAGE;
	}
	rng_seed(&rng, (uint64_t)seed);
	if (kind >= 0) {
		long cand = degrade_candidates(f, kind);

		if (loguni) {
			if (logm < 0)
				logm = cand > 0 ? log2((double)cand) : 0;
			amount = degrade_loguniform(&rng, logm);
			if (amount > cand)
				amount = cand;
		}
		if (degrade_remove(f, kind, amount, &rng, &err)) {
			fprintf(stderr, "osmre gen: %s\n", err.msg);
			goto out;
		}
	}
	fp = out ? fopen(out, "w") : stdout;
	if (!fp) {
		perror(out);
		goto out;
	}
	if (netfile_write(fp, f) || (out && fclose(fp))) {
		fprintf(stderr, "osmre gen: write error on %s\n",
			out ? out : "stdout");
		goto out;
	}
	fabric_count(f, &cnt);
	fprintf(stderr,
		"%s: %d switches, %d hosts, %d switch links, %d host links",
		t.qft ? "qft" : "pgft", cnt.switches, cnt.cas, cnt.sw_links,
		cnt.ca_links);
	if (kind >= 0)
		fprintf(stderr, "; removed %ld %s (seed %ld)", amount,
			kind == DEGRADE_LINKS ? "links" : "switches", seed);
	fputc('\n', stderr);
	rc = 0;
out:
	fabric_free(f);
	return rc;
}
