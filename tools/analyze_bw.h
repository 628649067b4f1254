/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * osmre analyze --bandwidth: the options of the flow-level bandwidth
 * estimate (bandwidth.h) and its report in text, CSV or JSON.
 */
#ifndef OSMRE_ANALYZE_BW_H
#define OSMRE_ANALYZE_BW_H

#include <stdio.h>

#include "analyze_report.h"
#include "bandwidth.h"

#define BW_MAX_SPEEDS 16
#define BW_MAX_PERMS  10000000 /* --rp */

struct bw_args {
	const char *pattern; /* NULL: no estimate */
	const char *rail;
	double speed[BW_MAX_SPEEDS];
	int nspeed;
};

/* --speed "12.5" or "7,7": per plane, GB/s; 0 or -1 after a message. */
int bw_parse_speed(struct bw_args *b, const char *v);

/*
 * The estimate on f routed by s, printed to out in fmt: pattern
 * "shift:K", "perm" (nperm permutations from seed), "a2a" or "jobs" (the
 * job file at jobs_path); rail "random" (default), "first" or "hash".
 * 0, EXIT_USAGE-style 2 on a bad option (after a message), 1 on failure.
 */
int bw_report(FILE *out, const struct fabric *f, const struct lft_set *s,
	      const struct bw_args *b, int nperm, long seed,
	      const char *jobs_path, enum analysis_format fmt);

#endif
