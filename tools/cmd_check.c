/* SPDX-License-Identifier: BSD-2-Clause */
/* osmre check --topo F.net --lfts F.lfts */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>

#include "check.h"
#include "lft.h"
#include "osmre.h"

static void check_usage(FILE *out)
{
	fprintf(out,
		"usage: osmre check --topo F.net --lfts F.lfts [options]\n"
		"  -t, --topo FILE       topology (ibnetdiscover / ibsim net file);\n"
		"                        repeated: one file per plane, merged by GUID\n"
		"  -l, --lfts FILE       LFTs: opensm-lfts.dump, dump_fts or ibroute output;\n"
		"                        repeated: one dump per plane, own LIDs from 1\n"
		"      --no-updown       do not check the fat-tree up-down property\n"
		"  -j, --threads N       threads (default: online CPUs)\n"
		"      --node-name-map F nodes named by GUID in the report\n"
		"                        (infiniband-diags format)\n"
		"      --max-report N    problems listed (default 10)\n"
		"      --lmc L           LMC of offline LIDs when the dump names no GUIDs\n");
}

int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "topo", required_argument, NULL, 't' },
		{ "lfts", required_argument, NULL, 'l' },
		{ "no-updown", no_argument, NULL, 'U' },
		{ "threads", required_argument, NULL, 'j' },
		{ "max-report", required_argument, NULL, 'm' },
		{ "lmc", required_argument, NULL, 'L' },
		{ "node-name-map", required_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct check_opts o = { .updown = 1, .max_report = 10 };
	struct tool_files topo = { 0 }, lfts = { 0 };
	struct lft_set s = { 0 };
	struct check_result r;
	struct osmre_err err;
	struct fabric *f = NULL;
	int c, i, lmc = 0, rc = EXIT_USAGE;

	while ((c = getopt_long(argc, argv, "t:l:j:h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (tool_files_add(&topo, "--topo", optarg))
				return EXIT_USAGE;
			break;
		case 'l':
			if (tool_files_add(&lfts, "--lfts", optarg))
				return EXIT_USAGE;
			break;
		case 'U':
			o.updown = 0;
			break;
		case 'j':
			o.threads = (int)tool_number("--threads", optarg, 1024);
			break;
		case 'm':
			o.max_report = (int)tool_number("--max-report", optarg,
							1000000);
			break;
		case 'L':
			lmc = (int)tool_number("--lmc", optarg, 7);
			break;
		case 'N':
			tool_node_name_map(optarg);
			break;
		case 'h':
			check_usage(stdout);
			return 0;
		default:
			check_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (!topo.n || !lfts.n || optind != argc) {
		fprintf(stderr,
			"osmre check: --topo and --lfts are required\n");
		check_usage(stderr);
		return EXIT_USAGE;
	}
	if (tool_load_planes("check", &topo, &lfts, lmc, &f, &s))
		return EXIT_USAGE;
	if (tool_tables_empty("check", lfts.path[0], &s)) {
		printf("INVALID\n");
		lft_set_free(&s);
		fabric_free(f);
		return EXIT_INVALID;
	}
	if (lfts.n == 1)
		tool_top_unread("check", lfts.path[0], &s);
	if (check_lfts(f, &s, &o, &r, stdout, &err)) {
		fprintf(stderr, "osmre check: %s\n", err.msg);
		goto out;
	}
	printf("CA pairs %ld: unreachable %ld, loops %ld, not up-down %ld%s%s%s\n",
	       r.pairs, r.unreachable, r.loops, r.updown,
	       !o.updown	   ? " (not checked)" :
	       r.updown_skipped[0] ? " (not checked: no fat tree: " :
				     "",
	       o.updown ? r.updown_skipped : "",
	       o.updown && r.updown_skipped[0] ? ")" : "");
	printf("CA -> switch LID pairs %ld: unreachable %ld, loops %ld\n",
	       r.sw_pairs, r.sw_unreachable, r.sw_loops);
	if (r.no_lid)
		printf("ports without a LID %ld\n", r.no_lid);
	printf("path length (links) min %d avg %.3f max %d\n", r.min_hops,
	       r.avg_hops, r.max_hops);
	for (i = 0; r.nplanes > 1 && i < r.nplanes && i < CHECK_MAX_PLANES; i++)
		printf("  plane %d: CA pairs %ld: unreachable %ld, loops %ld, not up-down %ld; path length min %d avg %.3f max %d\n",
		       i, r.plane[i].pairs, r.plane[i].unreachable,
		       r.plane[i].loops, r.plane[i].updown, r.plane[i].min_hops,
		       r.plane[i].avg_hops, r.plane[i].max_hops);
	printf("%s\n", check_ok(&r) ? "VALID" : "INVALID");
	rc = check_ok(&r) ? 0 : EXIT_INVALID;
out:
	lft_set_free(&s);
	fabric_free(f);
	return rc;
}
