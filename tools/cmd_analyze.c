/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * osmre analyze --topo F.net --lfts F.lfts: validity (as osmre check) and
 * the congestion risk of the all-to-all and shift-permutation patterns.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cdg.h"
#include "check.h"
#include "congestion.h"
#include "jobs.h"
#include "lft.h"
#include "osmre.h"

static void analyze_usage(FILE *out)
{
	fprintf(out,
		"usage: osmre analyze --topo F.net --lfts F.lfts [options]\n"
		"  -t, --topo FILE       topology (ibnetdiscover / ibsim net file)\n"
		"  -l, --lfts FILE       LFTs: opensm-lfts.dump, dump_fts or ibroute output\n"
		"      --order KIND      node order of the shifts: nid (dmodc's, default),\n"
		"                        guid or name\n"
		"      --jobs FILE       job file: effective edge forwarding index, dark fiber\n"
		"      --rp N            random permutations for RP (default 1000)\n"
		"      --seed K          seed of the random permutations (default 1)\n"
		"      --no-updown       do not check the fat-tree up-down property\n"
		"  -j, --threads N       threads (default: online CPUs)\n");
}

int cmd_analyze(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "topo", required_argument, NULL, 't' },
		{ "lfts", required_argument, NULL, 'l' },
		{ "order", required_argument, NULL, 'o' },
		{ "no-updown", no_argument, NULL, 'U' },
		{ "rp", required_argument, NULL, 'r' },
		{ "jobs", required_argument, NULL, 'J' },
		{ "seed", required_argument, NULL, 's' },
		{ "threads", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct check_opts co = { .updown = 1, .max_report = 5 };
	enum cong_order_kind kind = CONG_ORDER_NID;
	const char *topo = NULL, *lfts = NULL, *order = "nid", *jobsf = NULL;
	struct jobs jobs = { 0 };
	struct lft_set s = { 0 };
	struct cong_order o = { 0 };
	struct check_result cr;
	struct cong_result a2a, sp, rp;
	int nperm = 1000;
	long seed = 1;
	struct cdg_result cdg = { 0 };
	struct osmre_err err;
	struct fabric *f = NULL;
	int c, rc = EXIT_USAGE;
	double t0;

	while ((c = getopt_long(argc, argv, "t:l:j:h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			topo = optarg;
			break;
		case 'l':
			lfts = optarg;
			break;
		case 'o':
			order = optarg;
			if (!strcmp(optarg, "nid"))
				kind = CONG_ORDER_NID;
			else if (!strcmp(optarg, "guid"))
				kind = CONG_ORDER_GUID;
			else if (!strcmp(optarg, "name"))
				kind = CONG_ORDER_NAME;
			else {
				fprintf(stderr, "osmre analyze: --order: expected nid, guid or name, got \"%s\"\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'U':
			co.updown = 0;
			break;
		case 'J':
			jobsf = optarg;
			break;
		case 'r':
			nperm = (int)tool_number("--rp", optarg, 10000000);
			break;
		case 's':
			seed = tool_number("--seed", optarg, 0x7fffffffL);
			break;
		case 'j':
			co.threads = (int)tool_number("--threads", optarg, 1024);
			break;
		case 'h':
			analyze_usage(stdout);
			return 0;
		default:
			analyze_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (!topo || !lfts || optind != argc) {
		fprintf(stderr, "osmre analyze: --topo and --lfts are required\n");
		analyze_usage(stderr);
		return EXIT_USAGE;
	}
	if (tool_load_tables("analyze", topo, lfts, 0, &f, &s))
		return EXIT_USAGE;
	if (check_lfts(f, &s, &co, &cr, stdout, &err) ||
	    cong_order_make(f, kind, &o, &err)) {
		fprintf(stderr, "osmre analyze: %s\n", err.msg);
		goto out;
	}
	printf("validity: %s: CA pairs %ld, unreachable %ld, loops %ld, not up-down %ld%s; switch LIDs unreachable %ld\n",
	       check_ok(&cr) ? "VALID" : "INVALID", cr.pairs, cr.unreachable,
	       cr.loops, cr.updown, co.updown ? "" : " (not checked)",
	       cr.sw_unreachable + cr.sw_loops);
	printf("path length (links): min %d avg %.3f max %d\n", cr.min_hops,
	       cr.avg_hops, cr.max_hops);
	if (cdg_check(f, &s, &cdg, &err)) {
		fprintf(stderr, "osmre analyze: %s\n", err.msg);
		goto out;
	}
	if (cdg.acyclic) {
		printf("deadlock freedom (one VL): channel dependency graph acyclic (%ld channels, %ld dependencies)\n",
		       cdg.channels, cdg.deps);
	} else {
		printf("deadlock freedom (one VL): CYCLE in the channel dependency graph: ");
		cdg_print_cycle(stdout, f, &cdg);
	}
	t0 = tool_now();
	if (cong_all_to_all(f, &s, &o, &a2a, &err) ||
	    cong_shifts(f, &s, &o, co.threads, &sp, &err) ||
	    cong_random_perms(f, &s, &o, nperm, (uint64_t)seed, co.threads,
			      &rp, &err)) {
		fprintf(stderr, "osmre analyze: %s\n", err.msg);
		goto out;
	}
	printf("congestion risk, %d CA ports in %s order: all-to-all (A2A) %d, shift permutations (SP, max of %d) %d, random permutations (RP, median of %d, seed %ld) %d\n",
	       o.n, order, a2a.risk, o.n > 1 ? o.n - 1 : 0, sp.risk, nperm,
	       seed, rp.risk);
	fprintf(stderr, "analyze: patterns in %.2f s\n", tool_now() - t0);
	if (jobsf) {
		struct efi_result e;

		if (jobs_read(jobsf, f, &jobs, &err) ||
		    jobs_efi(f, &s, &jobs, &e, &err)) {
			fprintf(stderr, "osmre analyze: %s\n", err.msg);
			rc = EXIT_USAGE;
			goto out;
		}
		if (jobs.unknown)
			fprintf(stderr, "osmre analyze: %s: %d hostname(s) not in the topology, first \"%s\"\n",
				jobsf, jobs.unknown, jobs.first_unknown);
		printf("jobs: %d jobs, %d hosts: effective edge forwarding index max %ld, per-job average of maxima %.2f, dark fiber %.1f %% of %ld inter-switch links\n",
		       jobs.njobs, jobs.nhosts, e.max, e.avg_job_max,
		       e.dark_pct, e.links);
	}
	rc = check_ok(&cr) && cdg.acyclic ? 0 : EXIT_INVALID;
out:
	jobs_free(&jobs);
	cdg_result_free(&cdg);
	cong_order_free(&o);
	lft_set_free(&s);
	fabric_free(f);
	return rc;
}
