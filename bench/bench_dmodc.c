/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Time and peak memory of the dmodc core, from the topology in memory to
 * complete LFTs: bench_dmodc H M W P THREADS [REPEAT]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "dmodc.h"
#include "lids.h"
#include "clock.h"
#include "pgft.h"

int main(int argc, char **argv)
{
	struct pgft_params t;
	struct osmre_err err;
	struct fabric *f;
	struct dmodc_opts o;
	struct rusage ru;
	struct dmodc *d = dmodc_new();
	double best = 1e9, first;
	int rep, reps;

	if (argc < 6) {
		fprintf(stderr,
			"usage: bench_dmodc H M W P THREADS [REPEAT]\n");
		return 2;
	}
	o.threads = atoi(argv[5]);
	reps = argc > 6 ? atoi(argv[6]) : 3;
	if (pgft_parse(argv[1], argv[2], argv[3], argv[4], &t, &err) ||
	    pgft_build(&t, &f, &err) || lids_assign(f, 0, &err)) {
		fprintf(stderr, "bench_dmodc: %s\n", err.msg);
		return 2;
	}
	{
		struct lft_set s;
		double t0;
		int i;

		/*
		 * The tables are allocated and reset before the timing, as
		 * OpenSM allocates and resets new_lft before calling an engine
		 * (osm_switch_prepare_path_rebuild).  First: a fresh dmodc
		 * context, as OpenSM's first routing pass.
		 */
		if (!d || lft_set_for_fabric(f, lids_max(f), &s, &err)) {
			fprintf(stderr, "bench_dmodc: %s\n", err.msg);
			return 1;
		}
		t0 = clock_mono();
		if (dmodc_run(d, f, &o, &s, &err)) {
			fprintf(stderr, "bench_dmodc: %s\n", err.msg);
			return 1;
		}
		first = clock_mono() - t0;
		/* re-routes: the same context, which keeps its cost matrix */
		for (rep = 0; rep < reps; rep++) {
			for (i = 0; i < s.n; i++)
				memset(s.t[i].port, LFT_NONE, s.t[i].top + 1);
			t0 = clock_mono();
			if (dmodc_run(d, f, &o, &s, &err)) {
				fprintf(stderr, "bench_dmodc: %s\n", err.msg);
				return 1;
			}
			if (clock_mono() - t0 < best)
				best = clock_mono() - t0;
		}
		lft_set_free(&s);
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("PGFT(%s;%s;%s;%s) hosts %ld switches %ld threads %d: first pass %.4f s, re-route (best of %d) %.4f s, peak RSS %.1f MiB\n",
	       argv[1], argv[2], argv[3], argv[4], pgft_level_size(&t, 0),
	       pgft_switches(&t), o.threads, first, reps, best,
	       (double)ru.ru_maxrss / 1024.0);
	dmodc_free(d);
	fabric_free(f);
	return 0;
}
