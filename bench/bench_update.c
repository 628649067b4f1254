/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The size of an update, in memory (LFT dumps of a 35k-host fabric are
 * 19 GB each, too big for bench/update-size.sh there):
 *   bench_update H M W P ENGINE [THREADS]    (ENGINE: dmodc, dmodc-stable,
 *                                             pqft, sar)
 * builds the PGFT, routes it with ENGINE (dmodc, pqft given the
 * parameters, sar), then, each on the intact fabric with the same LIDs,
 * fails the first leaf's first uplink, the first level-2 switch's first
 * uplink, and the first level-2 switch, routes again (sar: its stable
 * re-route from the intact tables, as the plugin on a topology change),
 * and prints a CSV row per failure: entries and 64-LID blocks changed,
 * and the push time at 4.6 us per block.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "engine_table.h"
#include "lids.h"
#include "options.h"
#include "pgft.h"
#include "ranks.h"

/* first uplink (port) of the first switch of rank r, its node in *sw */
static int first_uplink(const struct fabric *f, const int *rank, int r, int *sw)
{
	int n, p;

	for (n = 0; n < f->nnodes; n++) {
		if (f->nodes[n].type != FAB_SWITCH || rank[n] != r)
			continue;
		for (p = 1; p <= f->nodes[n].nports; p++) {
			int x = f->nodes[n].ports[p].rnode;

			if (x >= 0 && rank[x] == r + 1) {
				*sw = n;
				return p;
			}
		}
	}
	return -1;
}

int main(int argc, char **argv)
{
	struct pgft_params t;
	struct osmre_err err;
	struct osmre_options conf;
	struct engine_opts o;
	struct route_result base, r;
	const struct engine *e;
	struct fabric *f;
	char spec[128], why[256];
	int *rank, k, stable;

	stable = argc > 5 && !strcmp(argv[5], "dmodc-stable");
	if (argc < 6 || !(e = engine_find(stable ? "dmodc" : argv[5]))) {
		fprintf(stderr,
			"usage: bench_update H M W P dmodc|dmodc-stable|pqft|sar [THREADS]\n");
		return 2;
	}
	if (pgft_parse(argv[1], argv[2], argv[3], argv[4], &t, &err) ||
	    pgft_build(&t, &f, &err) || lids_assign(f, 0, &err)) {
		fprintf(stderr, "bench_update: %s\n", err.msg);
		return 2;
	}
	engine_opts_defaults(&o);
	o.threads = argc > 6 ? atoi(argv[6]) : 0;
	topo_spec_format(&t, spec, sizeof(spec));
	/* pqft's parameters (pqft_topology), the other engines' defaults */
	options_defaults(&conf);
	if (engine_options_add(&conf) ||
	    options_set_key(&conf, "pqft_topology", spec, why, sizeof(why))) {
		fprintf(stderr, "bench_update: pqft_topology %s: %s\n", spec,
			why);
		return 2;
	}
	if (e->options)
		o.settings = options_settings(&conf, e->options);
	rank = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	if (!rank || ranks_compute(f, rank) < 0 ||
	    engine_route(e, &o, f, &base, &err)) {
		fprintf(stderr, "bench_update: %s\n", err.msg);
		return 1;
	}
	printf("fabric,engine,failure,entries_changed,blocks_changed,blocks,push_ms,seconds\n");
	for (k = 0; k < 3; k++) {
		static const char *const what[] = { "leaf", "spine", "switch" };
		struct fabric *g = fabric_clone(f);
		int sw = -1, p = first_uplink(f, rank, k ? 1 : 0, &sw);
		long blocks = 0;
		double t0;
		int i;

		if (!g || p < 0) {
			fprintf(stderr, "bench_update: no %s to fail\n",
				what[k]);
			return 1;
		}
		if (k < 2)
			fabric_unlink(g, sw, p);
		else
			for (p = 1; p <= g->nodes[sw].nports; p++)
				if (g->nodes[sw].ports[p].rnode >= 0)
					fabric_unlink(g, sw, p);
		/* sar's stable re-route always, dmodc's when asked */
		o.stable = stable || strcmp(e->name, "dmodc");
		o.prev = e->produces & ENGINE_STABLE && o.stable ?
				 &base.tables :
				 NULL;
		t0 = clock_mono();
		if (engine_route(e, &o, g, &r, &err)) {
			fprintf(stderr, "bench_update: %s: %s\n", what[k],
				err.msg);
			return 1;
		}
		for (i = 0; i < r.tables.n; i++)
			blocks += (long)r.tables.t[i].top / 64 + 1;
		{
			long bc = lft_set_blocks_changed(&r.tables,
							 &base.tables, NULL);

			printf("\"PGFT(%s;%s;%s;%s)\",%s,%s,%ld,%ld,%ld,%.3f,%.3f\n",
			       argv[1], argv[2], argv[3], argv[4], argv[5],
			       what[k],
			       lft_set_entries_changed(&r.tables, &base.tables),
			       bc, blocks, (double)bc * 4.6e-3,
			       clock_mono() - t0);
		}
		fflush(stdout);
		route_result_free(&r);
		fabric_free(g);
	}
	route_result_free(&base);
	free(rank);
	fabric_free(f);
	return 0;
}
