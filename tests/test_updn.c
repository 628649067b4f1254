/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The update protocol's escape routing (updn.c): every high LID reachable
 * from every CA by up*-down* routes; the channel dependency graph, with the
 * escape on its own VL and sar's layers (at most escape VL of them) or
 * dmodc's tables on the others, acyclic on every VL (fat trees, rings,
 * tori, a dragonfly, random graphs), for the routing before and after a
 * job change; the escape tables unchanged by it.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cdg.h"
#include "check.h"
#include "components.h"
#include "degrade.h"
#include "jobs.h"
#include "lids.h"
#include "sar.h"
#include "updn.h"
#include "testutil.h"

#define ESC 7

/* Every CA port reaches every high LID of every other CA port whose
 * switch is in the same connected part. */
static void check_escape_reach(const struct fabric *f, const struct lft_set *s,
			       const char *what)
{
	int a, ap, b, bp, *comp = malloc((size_t)f->nnodes * sizeof(int));
	long n = 0;

	assert_non_null(comp);
	assert_int_equal(switch_components(f, comp), 0);

	for (a = 0; a < f->nnodes; a++)
		for (ap = 1;
		     ap <= f->nodes[a].nports && !fab_is_switch(&f->nodes[a]);
		     ap++) {
			if (!f->nodes[a].ports[ap].lid)
				continue;
			for (b = 0; b < f->nnodes; b++)
				for (bp = 1; bp <= f->nodes[b].nports &&
					     !fab_is_switch(&f->nodes[b]);
				     bp++) {
					const struct fab_port *pt =
						&f->nodes[b].ports[bp];
					unsigned lid;

					if (b == a || !pt->lid ||
					    pt->rnode < 0 ||
					    f->nodes[a].ports[ap].rnode < 0 ||
					    comp[pt->rnode] !=
						    comp[f->nodes[a]
								 .ports[ap]
								 .rnode])
						continue;
					for (lid = pt->lid + 1;
					     lid < pt->lid + (1u << pt->lmc);
					     lid++) {
						if (tu_walk(f, s, a, ap, lid,
							    NULL, NULL) < 0)
							fail_msg(
								"%s: no escape route from %s to LID %u",
								what,
								f->nodes[a].name,
								lid);
						n++;
					}
				}
		}
	assert_true(n > 0);
	free(comp);
}

/*
 * Routes f with the engine (sar with jobs j, or dmodc) on the base LIDs
 * and the escape on the high LIDs; checks validity and that every VL's
 * dependency graph is acyclic.  Returns sar's layers (0 for dmodc).
 */
static int route_escape(struct fabric *f, int sar, const struct jobs *j,
			struct lft_set *s, struct updn_info *ui,
			const char *what)
{
	struct sar_opts o = { .max_vls = 8, .jobs = j, .base_only = 1 };
	struct check_opts co = { .updown = 0, .threads = 1 };
	struct check_result cr;
	struct sar_result r = { 0 };
	struct dmodc_opts dopt = { .threads = 1 };
	struct osmre_err err;
	int layers = 0, split = 0;

	assert_int_equal(lft_set_for_fabric(f, lids_max(f), s, &err), 0);
	if (o.max_vls > ESC)
		o.max_vls = ESC;
	if (sar ? sar_route(f, &o, s, &r, &err) :
		  dmodc_route(f, &dopt, s, &err)) {
		long sw;

		/* sar refuses a split fabric; the escape still routes */
		if (!sar || !strstr(err.msg, "the fabric is split") ||
		    tu_cross_part_pairs(f, &sw) == 0)
			fail_msg("%s: %s", what, err.msg);
		split = 1;
	}
	if (updn_route_high(f, s, ui, &err))
		fail_msg("%s: escape: %s", what, err.msg);
	assert_int_equal(check_lfts(f, s, &co, &cr, NULL, &err), 0);
	if (!split) {
		/* a split fabric: only the pairs between its parts fail */
		long sw, cross = tu_cross_part_pairs(f, &sw);

		if (cr.unreachable != cross || cr.sw_unreachable != sw ||
		    cr.loops || cr.sw_loops || cr.no_lid)
			fail_msg(
				"%s: invalid tables (unreachable %ld, %ld between parts)",
				what, cr.unreachable, cross);
	}
	check_escape_reach(f, s, what);
	if (!tu_sls_acyclic(f, s, sar ? &r : NULL, ESC))
		fail_msg("%s: a cycle (%d sar layers, escape on VL %d)", what,
			 r.layers, ESC);
	layers = r.layers;
	assert_true(layers <= ESC);
	printf("%-44s escape from %d root(s)%s; acyclic per VL (%d sar layer(s))%s\n",
	       what, ui->roots, ui->fallback ? " (one per part)" : "", layers,
	       split ? "; sar refused the split fabric" : "");
	sar_result_free(&r);
	return layers;
}

static void test_topologies(void **state)
{
	struct fabric *f;
	struct lft_set s;
	struct updn_info ui;
	struct osmre_err err;
	struct rng r;
	char *text;
	int seed, fallbacks = 0;

	(void)state;
	f = tu_pgft("3", "4,4,4", "1,4,4", "1,1,1", 1);
	route_escape(f, 1, NULL, &s, &ui, "PGFT(3;4,4,4;1,4,4) sar");
	assert_int_equal(ui.fallback, 0);
	assert_int_equal(ui.roots, 16); /* the top rank */
	assert_int_equal(ui.lids, 64);
	lft_set_free(&s);
	route_escape(f, 0, NULL, &s, &ui, "PGFT(3;4,4,4;1,4,4) dmodc");
	lft_set_free(&s);
	fabric_free(f);
	for (seed = 1; seed <= 3; seed++) {
		char what[64];

		f = tu_pgft("3", "4,4,4", "1,4,4", "1,1,1", 0);
		rng_seed(&r, (uint64_t)seed);
		assert_int_equal(degrade_remove(f, DEGRADE_LINKS, 40, &r, &err),
				 0);
		assert_int_equal(lids_assign(f, 1, &err), 0);
		snprintf(what, sizeof(what), "PGFT less 40 links (seed %d)",
			 seed);
		route_escape(f, 1, NULL, &s, &ui, what);
		fallbacks += ui.fallback;
		lft_set_free(&s);
		fabric_free(f);
	}
	/* some of these lost a top switch's links to a pod: one root */
	assert_true(fallbacks > 0);
	/* every switch is a leaf and a root: the order is the GUIDs' */
	f = tu_from_text(text = tu_torus(6, 1), 1);
	assert_true(route_escape(f, 1, NULL, &s, &ui, "ring of 6") >= 2);
	assert_int_equal(ui.roots, 6);
	lft_set_free(&s);
	fabric_free(f);
	free(text);
	f = tu_from_text(text = tu_torus(4, 4), 1);
	route_escape(f, 1, NULL, &s, &ui, "2D torus 4x4");
	lft_set_free(&s);
	fabric_free(f);
	free(text);
	f = tu_from_text(text = tu_dragonfly(4), 1);
	route_escape(f, 1, NULL, &s, &ui, "dragonfly, 5 groups of 4");
	lft_set_free(&s);
	fabric_free(f);
	free(text);
	/* wirings nobody designed (tu_random_graph) */
	for (seed = 1; seed <= 8; seed++) {
		char what[64];
		int n;

		f = tu_from_text(text = tu_random_graph((uint64_t)seed, 48, &n),
				 1);
		snprintf(what, sizeof(what),
			 "random graph of %d switches (seed %d)", n, seed);
		route_escape(f, 1, NULL, &s, &ui, what);
		lft_set_free(&s);
		fabric_free(f);
		free(text);
	}
}

/*
 * A job-driven re-route: old tables (no jobs) and new (blk216's jobs) are
 * each acyclic per VL; base routes change, the escape entries do not.
 */
static void test_job_change(void **state)
{
	struct fabric *f = tu_read_file(tu_data("blk216.net"));
	struct lft_set a, b;
	struct updn_info ui;
	struct osmre_err err;
	struct jobs j = { 0 };
	long base_diff = 0, high = 0;
	int i;
	unsigned lid;

	(void)state;
	assert_int_equal(lids_assign(f, 1, &err), 0);
	assert_int_equal(jobs_read(tu_data("blk216.jobs"), f, &j, &err), 0);
	route_escape(f, 1, NULL, &a, &ui, "blk216, old: no jobs");
	route_escape(f, 1, &j, &b, &ui, "blk216, new: blk216.jobs");
	for (i = 0; i < f->nnodes; i++) {
		const struct fab_node *n = &f->nodes[i];
		int p;

		for (p = 1; p <= n->nports && !fab_is_switch(n); p++) {
			const struct fab_port *pt = &n->ports[p];
			int k;

			for (lid = pt->lid; pt->lid && lid < pt->lid + 2u;
			     lid++)
				for (k = 0; k < a.n; k++) {
					int x = lft_get(&a.t[k], lid),
					    y = lft_get(&b.t[k], lid);

					if (updn_is_high(pt, lid)) {
						assert_int_equal(x, y);
						high++;
					} else {
						base_diff += x != y;
					}
				}
		}
	}
	printf("blk216: %ld base entries changed, %ld escape entries kept\n",
	       base_diff, high);
	assert_true(base_diff > 0);
	assert_int_equal(high, 216L * a.n);
	lft_set_free(&a);
	lft_set_free(&b);
	jobs_free(&j);
	fabric_free(f);
}

/* Base LIDs of the first two CA ports. */
static void two_cas(const struct fabric *f, unsigned *x, unsigned *y)
{
	int i, k = 0;

	for (i = 0; i < f->nnodes && k < 2; i++)
		if (!fab_is_switch(&f->nodes[i]) && f->nodes[i].ports[1].lid)
			*(k++ ? y : x) = f->nodes[i].ports[1].lid;
	assert_int_equal(k, 2);
}

/* The SL file's "dest" lines and the escape's SL-to-VL. */
static void test_sls(void **state)
{
	struct fabric *f = tu_pgft("2", "2,2", "1,2", "1,1", 1);
	struct osmre_err err;
	struct sl_map m;
	char path[] = "/tmp/osmre-updn-XXXXXX";
	int fd = mkstemp(path), sl;
	FILE *fp = fdopen(fd, "w");
	unsigned x = 0, y = 0;

	(void)state;
	two_cas(f, &x, &y);
	assert_int_equal(updn_sl2vl(3, 2), 2);
	assert_int_equal(updn_sl2vl(3, 3), 3);
	assert_int_equal(updn_sl2vl(3, 4), 0);
	fprintf(fp, "default 1\npath %u %u 2\n", x, y + 1);
	assert_int_equal(updn_write_sls(fp, f, 3), 0);
	fclose(fp);
	assert_int_equal(sl_map_read(path, f, &m, &err), 0);
	for (sl = 0; sl < 16; sl++)
		assert_int_equal(sl_map_vl(&m, 0, 1, 2, sl), updn_sl2vl(3, sl));
	assert_int_equal(sl_map_sl(&m, x, y + 1), 2); /* its own path line */
	assert_int_equal(sl_map_sl(&m, y, x + 1), 3); /* dest */
	assert_int_equal(sl_map_sl(&m, y, x), 1);     /* default */
	sl_map_free(&m);
	fp = fopen(path, "w");
	fprintf(fp, "dest 0 3\n");
	fclose(fp);
	assert_int_equal(sl_map_read(path, f, &m, &err), -1);
	assert_non_null(strstr(err.msg, ":1: expected \"dest DLID SL\""));
	unlink(path);
	fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_topologies),
		cmocka_unit_test(test_job_change),
		cmocka_unit_test(test_sls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
