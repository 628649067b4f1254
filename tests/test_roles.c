/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Production fat trees (roles.h, tree_core.h, quirks.h): each quirk of
 * osmre degrade --with, on a 2- and a 3-level PGFT, is found by the
 * roles (its count), and dmodc and pqft route the fabric: every CA pair
 * reachable, no loop, the channel dependency graph acyclic on one VL,
 * and the compute CAs' A2A, SP and RP those of the same engine on the
 * tree without the quirk.  sar leaves a stray cable unused.  The
 * administrator's files (cn, root, io) override the structure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdg.h"
#include "check.h"
#include "congestion.h"
#include "dragonfly.h"
#include "engine_table.h"
#include "lids.h"
#include "quirks.h"
#include "roles.h"
#include "testutil.h"

struct figures {
	int a2a, sp, rp;
};

/* Routes f with engine name: valid, acyclic on one VL; the compute CAs'
 * figures into fig. */
static void route_and_measure(const struct fabric *f, const char *name,
			      struct figures *fig, struct route_result *r)
{
	const struct engine *e = engine_find(name);
	struct engine_opts o;
	struct osmre_err err;
	struct check_opts co = { .updown = 1, .threads = 1 };
	struct check_result cr;
	struct cdg_result cd;
	struct cong_order ord;
	struct cong_result a, s, p;
	int others;

	assert_non_null(e);
	engine_opts_defaults(&o);
	o.threads = 1;
	if (engine_route(e, &o, f, r, &err)) {
		fprintf(stderr, "%s: %s\n", name, err.msg);
		fail();
	}
	assert_int_equal(check_lfts(f, &r->tables, &co, &cr, NULL, &err), 0);
	assert_int_equal(cr.unreachable, 0);
	assert_int_equal(cr.loops, 0);
	assert_int_equal(cr.sw_unreachable, 0);
	/* the compute CAs' routes up, then down, in the tree's ranks */
	if (strcmp(name, "sar"))
		assert_int_equal(cr.updown, 0);
	assert_int_equal(cdg_check(f, &r->tables, NULL, &cd, &err), 0);
	assert_true(cd.acyclic);
	cdg_result_free(&cd);
	assert_int_equal(cong_order_compute(f, NULL, &ord, &others, &err), 0);
	assert_int_equal(cong_all_to_all(f, &r->tables, &ord, 1, &a, &err), 0);
	assert_int_equal(cong_shifts(f, &r->tables, &ord, 1, &s, &err), 0);
	assert_int_equal(cong_random_perms(f, &r->tables, &ord, 20, 1, 1, &p,
					   &err),
			 0);
	fig->a2a = a.risk;
	fig->sp = s.risk;
	fig->rp = p.risk;
	cong_order_free(&ord);
}

/* A copy of tree t with quirk q (seed 3), LIDs assigned again. */
static struct fabric *with_quirk(const struct fabric *t, const char *q)
{
	struct fabric *f = fabric_clone(t);
	struct osmre_err err;
	struct rng r;

	assert_non_null(f);
	rng_seed(&r, 3);
	if (quirks_add(f, q, &r, &err) || lids_assign(f, 0, &err)) {
		fprintf(stderr, "%s: %s\n", q, err.msg);
		fail();
	}
	return f;
}

static void one_tree(const struct fabric *t, int sw, int tops)
{
	static const char *const quirks[] = { "aggregation", "storage",
					      "gateway",     "edge",
					      "stray-leaf",  "stray-spine",
					      "dual",	     NULL };
	static const char *const names[] = { "dmodc", "pqft", NULL };
	int q, e;

	for (q = 0; quirks[q]; q++) {
		struct fabric *f = with_quirk(t, quirks[q]);
		struct roles ro;
		struct osmre_err err;

		assert_int_equal(roles_compute(f, NULL, &ro, &err), 0);
		assert_false(ro.plain);
		switch (q) {
		case 0:
			assert_int_equal(ro.aggregation, sw);
			assert_int_equal(ro.other_ca, sw);
			break;
		case 1:
			assert_int_equal(ro.other_ca, 2 * tops);
			break;
		case 2:
			assert_int_equal(ro.other_ca, 1);
			break;
		case 3:
			assert_int_equal(ro.edge_switches, 1);
			assert_int_equal(ro.other_ca, 4);
			break;
		case 4:
		case 5:
			assert_int_equal(ro.stray_links, 1);
			break;
		default:
			assert_int_equal(ro.dual_homed, 1);
		}
		roles_free(&ro);
		for (e = 0; names[e]; e++) {
			struct figures plain, quirky;
			struct route_result r0, r1;

			route_and_measure(t, names[e], &plain, &r0);
			route_and_measure(f, names[e], &quirky, &r1);
			assert_true(r1.roles_core);
			assert_int_equal(quirky.a2a, plain.a2a);
			assert_int_equal(quirky.sp, plain.sp);
			assert_int_equal(quirky.rp, plain.rp);
			route_result_free(&r0);
			route_result_free(&r1);
		}
		fabric_free(f);
	}
}

static void test_two_levels(void **state)
{
	struct fabric *t = tu_pgft("2", "8,8", "1,4", NULL, 0);

	(void)state;
	one_tree(t, 12, 4);
	fabric_free(t);
}

static void test_three_levels(void **state)
{
	struct fabric *t = tu_pgft("3", "6,4,4", "1,3,4", NULL, 0);

	(void)state;
	one_tree(t, 16 + 12 + 12, 12);
	fabric_free(t);
}

/* A plain tree is routed as before: nothing found, nothing changed. */
static void test_plain_untouched(void **state)
{
	struct fabric *t = tu_pgft("3", "4,4,4", "1,4,4", NULL, 0);
	struct roles ro;
	struct osmre_err err;
	struct route_result r;
	struct figures fig;

	(void)state;
	assert_int_equal(roles_compute(t, NULL, &ro, &err), 0);
	assert_true(ro.plain);
	assert_int_equal(ro.compute, 64);
	assert_int_equal(ro.leaves, 16);
	assert_int_equal(ro.maxrank, 2);
	roles_free(&ro);
	route_and_measure(t, "dmodc", &fig, &r);
	assert_false(r.roles_core);
	route_result_free(&r);
	fabric_free(t);
}

/* sar on a tree with a stray leaf cable: the cable carries nothing. */
static void test_sar_stray(void **state)
{
	struct fabric *t = tu_pgft("3", "4,4,4", "1,4,4", NULL, 0);
	struct fabric *f = with_quirk(t, "stray-leaf");
	const struct engine *e = engine_find("sar");
	struct engine_opts o;
	struct route_result r;
	struct osmre_err err;
	struct roles ro;
	int i, p, used = 0;

	(void)state;
	engine_opts_defaults(&o);
	o.threads = 1;
	assert_int_equal(engine_route(e, &o, f, &r, &err), 0);
	assert_true(r.strays_only);
	assert_int_equal(roles_compute(f, NULL, &ro, &err), 0);
	/* no table sends anything out of a port of a stray cable */
	for (i = 0; i < f->nnodes; i++) {
		const struct lft *tb = lft_of_node(&r.tables, i);
		unsigned lid;

		if (!tb)
			continue;
		for (p = 1; p <= f->nodes[i].nports; p++) {
			int b = f->nodes[i].ports[p].rnode;

			if (b < 0 || !fab_is_switch(&f->nodes[b]) ||
			    ro.rank[b] != ro.rank[i])
				continue;
			for (lid = 1; lid <= tb->top; lid++)
				used += tb->port[lid] == p;
		}
	}
	assert_int_equal(used, 0);
	roles_free(&ro);
	route_result_free(&r);
	fabric_free(f);
	fabric_free(t);
}

/* The administrator's files: cn_guid_file makes every other CA not a
 * compute CA; root_guid_file puts the ranks where it says. */
static void test_files(void **state)
{
	struct fabric *t = tu_pgft("2", "8,8", "1,4", NULL, 0);
	struct guidlist cn = { 0 }, roots = { 0 };
	struct roles_hints h = { &cn, NULL, NULL };
	struct roles ro;
	struct osmre_err err;
	uint64_t g[2];
	int i, n = 0;

	(void)state;
	/* two hosts listed: the others are not compute CAs */
	for (i = 0; i < t->nnodes && n < 2; i++)
		if (!fab_is_switch(&t->nodes[i]))
			g[n++] = t->nodes[i].guid;
	cn.n = 2;
	cn.g = g;
	assert_int_equal(roles_compute(t, &h, &ro, &err), 0);
	assert_int_equal(ro.compute, 2);
	assert_int_equal(ro.other_ca, 62);
	roles_free(&ro);
	/* a root that is no switch of the fabric is refused */
	g[0] = 0x1234;
	roots.n = 1;
	roots.g = g;
	h.cn = NULL;
	h.roots = &roots;
	assert_int_equal(roles_compute(t, &h, &ro, &err), -1);
	assert_non_null(strstr(err.msg, "root_guid_file"));
	fabric_free(t);
}

/* A megafly's links between spines hold its groups together: not stray
 * cables, whatever their number; a dragonfly is no tree at all. */
static void test_not_trees(void **state)
{
	struct df_params mp = { .megafly = 1,
				.groups = 5,
				.routers = 4,
				.spines = 4,
				.hosts = 2,
				.global = 1 };
	struct df_params dp = { .groups = 5,
				.routers = 4,
				.hosts = 2,
				.global = 1 };
	struct fabric *m = tu_df_failed(&mp, 0, 1);
	struct fabric *d = tu_df_failed(&dp, 0, 1);
	struct roles ro;
	struct osmre_err err;

	(void)state;
	assert_int_equal(roles_compute(m, NULL, &ro, &err), 0);
	assert_true(ro.stray_links > 0);
	assert_false(roles_strays_few(m, &ro));
	assert_false(roles_is_tree(m, &ro));
	roles_free(&ro);
	assert_int_equal(roles_compute(d, NULL, &ro, &err), 0);
	assert_int_equal(ro.maxrank, 0);
	assert_false(roles_is_tree(d, &ro));
	roles_free(&ro);
	fabric_free(m);
	fabric_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_levels),
		cmocka_unit_test(test_three_levels),
		cmocka_unit_test(test_plain_untouched),
		cmocka_unit_test(test_sar_stray),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_not_trees),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
