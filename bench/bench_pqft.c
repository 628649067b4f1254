/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Time of pqft and dmodc offline on one fabric, from the topology in
 * memory to complete LFTs (pqft: tuples, host and switch LIDs):
 * bench_pqft SPEC THREADS [REPEAT], SPEC as pgft(...) or qft(...).
 * The tables are allocated before the timing, as OpenSM does.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "dmodc.h"
#include "lids.h"
#include "pqft.h"

/* FNV-1a of every table: compares pqft's output before and after a change */
static uint64_t tables_hash(const struct lft_set *s)
{
	uint64_t h = 1469598103934665603ULL;
	int i;
	unsigned l;

	for (i = 0; i < s->n; i++)
		for (l = 0; l <= s->t[i].top; l++)
			h = (h ^ s->t[i].port[l]) * 1099511628211ULL;
	return h;
}

static void reset(struct lft_set *s)
{
	int i;

	for (i = 0; i < s->n; i++)
		memset(s->t[i].port, LFT_NONE, s->t[i].top + 1);
}

int main(int argc, char **argv)
{
	struct pgft_params t;
	struct osmre_err err;
	struct dmodc_opts o = { 0 };
	struct lft_set s;
	struct fabric *f;
	double best_q = 1e9, best_d = 1e9, t0;
	uint64_t hash = 0;
	int rep, reps;

	if (argc < 3) {
		fprintf(stderr, "usage: bench_pqft SPEC THREADS [REPEAT]\n");
		return 2;
	}
	o.threads = atoi(argv[2]);
	reps = argc > 3 ? atoi(argv[3]) : 3;
	if (topo_spec_parse(argv[1], &t, &err) || pgft_build(&t, &f, &err) ||
	    lids_assign(f, 0, &err) ||
	    lft_set_for_fabric(f, lids_max(f), &s, &err)) {
		fprintf(stderr, "bench_pqft: %s\n", err.msg);
		return 2;
	}
	for (rep = 0; rep < reps; rep++) {
		struct pqft *q = pqft_new();

		reset(&s);
		t0 = clock_mono();
		if (!q || pqft_assign(q, f, &t, &err) ||
		    pqft_route(q, &s, o.threads, &err)) {
			fprintf(stderr, "bench_pqft: pqft: %s\n", err.msg);
			return 1;
		}
		if (clock_mono() - t0 < best_q)
			best_q = clock_mono() - t0;
		hash = tables_hash(&s);
		pqft_free(q);
		reset(&s);
		t0 = clock_mono();
		if (dmodc_route(f, &o, &s, &err)) {
			fprintf(stderr, "bench_pqft: dmodc: %s\n", err.msg);
			return 1;
		}
		if (clock_mono() - t0 < best_d)
			best_d = clock_mono() - t0;
	}
	printf("%s hosts %ld switches %ld threads %d: pqft %.4f s, dmodc %.4f s (best of %d, fresh context each); pqft tables %016" PRIx64
	       "\n",
	       argv[1], pgft_level_size(&t, 0), pgft_switches(&t), o.threads,
	       best_q, best_d, reps, hash);
	lft_set_free(&s);
	fabric_free(f);
	return 0;
}
