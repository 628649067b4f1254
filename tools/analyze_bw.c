/* SPDX-License-Identifier: BSD-2-Clause */
/* osmre analyze --bandwidth (analyze_bw.h). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_bw.h"
#include "osmre.h"

int bw_parse_speed(struct bw_args *b, const char *v)
{
	const char *p = v;
	char *end;

	b->nspeed = 0;
	for (;;) {
		double x = strtod(p, &end);

		if (end == p || !(x > 0 && x <= 1e6) ||
		    b->nspeed >= BW_MAX_SPEEDS || (*end && *end != ',')) {
			fprintf(stderr,
				"osmre analyze: --speed: expected up to %d speeds in GB/s (0 < s <= 1e6), comma-separated, got \"%s\"\n",
				BW_MAX_SPEEDS, v);
			return -1;
		}
		b->speed[b->nspeed++] = x;
		if (!*end)
			return 0;
		p = end + 1;
	}
}

/* shift:K, K in 1 .. hosts - 1: more would be taken modulo the hosts (0
 * flows at a multiple), so it is refused; 0, or -1 after a message */
static int parse_shift(const struct fabric *f, const char *p, long *shift)
{
	const char *k = p + strlen("shift:");
	struct osmre_err err;
	char *end = NULL, hosts[64] = "";
	long max = INT_MAX;
	int n = bw_hosts(f, &err);

	if (n < 0) {
		fprintf(stderr, "osmre analyze: bandwidth: %s\n", err.msg);
		return -1;
	}
	if (n >= 2) { /* else bw_estimate refuses the fabric */
		max = n - 1;
		snprintf(hosts, sizeof(hosts), " (the %d hosts less one)", n);
	}
	errno = 0;
	*shift = 0;
	if (isdigit((unsigned char)*k)) /* no sign, no blank */
		*shift = strtol(k, &end, 10);
	if (!end || *end || errno || *shift < 1 || *shift > max) {
		fprintf(stderr,
			"osmre analyze: --bandwidth shift:K: expected K in 1..%ld%s, got \"%s\"\n",
			max, hosts, p);
		return -1;
	}
	return 0;
}

static int parse(const struct fabric *f, const struct bw_args *b, int nperm,
		 long seed, struct bw_opts *o)
{
	const char *p = b->pattern;

	memset(o, 0, sizeof(*o));
	o->nperm = nperm;
	o->seed = (uint64_t)seed;
	o->max_pairs = 400L * 1000 * 1000; /* 4.8 GB of (flow, link) pairs */
	if (!strncmp(p, "shift:", 6)) {
		o->pattern = BW_SHIFT;
		if (parse_shift(f, p, &o->shift))
			return -1;
	} else if (!strcmp(p, "perm")) {
		o->pattern = BW_PERM;
		if (nperm < 1) { /* a mean over no permutation */
			fprintf(stderr,
				"osmre analyze: --rp: expected 1..%d with --bandwidth perm, got %d\n",
				BW_MAX_PERMS, nperm);
			return -1;
		}
	} else if (!strcmp(p, "a2a")) {
		o->pattern = BW_A2A;
	} else if (!strcmp(p, "jobs")) {
		o->pattern = BW_JOBS;
	} else {
		fprintf(stderr,
			"osmre analyze: --bandwidth: expected shift:K, perm, a2a or jobs, got \"%s\"\n",
			p);
		return -1;
	}
	if (!b->rail || !strcmp(b->rail, "random"))
		o->rail = BW_RAIL_RANDOM;
	else if (!strcmp(b->rail, "first"))
		o->rail = BW_RAIL_FIRST;
	else if (!strcmp(b->rail, "hash"))
		o->rail = BW_RAIL_HASH;
	else {
		fprintf(stderr,
			"osmre analyze: --rail: expected random, first or hash, got \"%s\"\n",
			b->rail);
		return -1;
	}
	return 0;
}

static const char *rail_name(enum bw_rail r)
{
	return r == BW_RAIL_FIRST ? "first" :
	       r == BW_RAIL_HASH  ? "hash" :
				    "random";
}

int bw_report(FILE *out, const struct fabric *f, const struct lft_set *s,
	      const struct bw_args *b, int nperm, long seed,
	      const char *jobs_path, enum analysis_format fmt)
{
	static const double edr = 12.5;
	struct bw_opts o;
	struct bw_result r;
	struct osmre_err err;
	struct jobs jobs = { 0 };
	char speeds[256] = "";
	int i, rc = 1;

	if (parse(f, b, nperm, seed, &o))
		return EXIT_USAGE;
	o.speed = b->nspeed ? b->speed : &edr;
	o.nspeed = b->nspeed ? b->nspeed : 1;
	if (o.pattern == BW_JOBS) {
		if (!jobs_path) {
			fprintf(stderr,
				"osmre analyze: --bandwidth jobs needs --jobs FILE\n");
			return EXIT_USAGE;
		}
		if (jobs_read(jobs_path, f, &jobs, &err)) {
			fprintf(stderr, "osmre analyze: %s\n", err.msg);
			return EXIT_USAGE;
		}
		tool_jobs_unknown(jobs_path, &jobs);
		o.jobs = &jobs;
	}
	if (bw_estimate(f, s, &o, &r, &err)) {
		fprintf(stderr, "osmre analyze: bandwidth: %s\n", err.msg);
		goto out;
	}
	for (i = 0; i < r.planes; i++)
		snprintf(speeds + strlen(speeds),
			 sizeof(speeds) - strlen(speeds), "%s%g", i ? "," : "",
			 o.speed[i < o.nspeed ? i : o.nspeed - 1]);
	if (fmt == AF_CSV) {
		fprintf(out,
			"pattern,rail,planes,speeds_gbs,hosts,patterns,flows,unrouted,aggregate_gbs,host_min_gbs,host_avg_gbs,host_max_gbs\n"
			"%s,%s,%d,\"%s\",%d,%d,%ld,%ld,%.3f,%.3f,%.3f,%.3f\n",
			b->pattern, rail_name(o.rail), r.planes, speeds,
			r.hosts, r.patterns, r.flows, r.unrouted, r.aggregate,
			r.host_min, r.host_avg, r.host_max);
	} else if (fmt == AF_JSON) {
		fprintf(out,
			"{\"bandwidth\": {\"pattern\": \"%s\", \"rail\": \"%s\", \"planes\": %d, \"speeds_gbs\": [%s], \"hosts\": %d, \"patterns\": %d, \"flows\": %ld, \"unrouted\": %ld, \"aggregate_gbs\": %.3f, \"host_min_gbs\": %.3f, \"host_avg_gbs\": %.3f, \"host_max_gbs\": %.3f}}\n",
			b->pattern, rail_name(o.rail), r.planes, speeds,
			r.hosts, r.patterns, r.flows, r.unrouted, r.aggregate,
			r.host_min, r.host_avg, r.host_max);
	} else {
		fprintf(out, "bandwidth (flow-level, max-min fair): %s",
			b->pattern);
		if (o.pattern == BW_PERM)
			fprintf(out, " (%d random permutations, seed %ld)",
				r.patterns, seed);
		fprintf(out,
			", rail %s, %d plane(s) at %s GB/s, %d hosts, %ld flows%s: aggregate %.1f GB/s%s, per host min %.2f avg %.2f max %.2f GB/s; host pairs no plane routes: %ld\n",
			rail_name(o.rail), r.planes, speeds, r.hosts, r.flows,
			o.pattern == BW_PERM ? " each" : "", r.aggregate,
			o.pattern == BW_PERM ? " (mean)" : "", r.host_min,
			r.host_avg, r.host_max, r.unrouted);
	}
	rc = 0;
out:
	jobs_free(&jobs);
	return rc;
}
