/* SPDX-License-Identifier: BSD-2-Clause */
/* The table walker on hand-made tables: valid, unreachable, loop, turns. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "lft_hops.h"
#include "netfile.h"
#include "testutil.h"

static void run(const struct fabric *f, const struct lft_set *s, int updown,
		struct check_result *r)
{
	struct check_opts o = { .updown = updown,
				.threads = 2,
				.max_report = 5 };
	struct osmre_err err;

	assert_int_equal(check_lfts(f, s, &o, r, stderr, &err), 0);
}

/* OpenSM's own tables (minhop on ibsim) of two leaf switches joined by a
 * link: valid, but the S1-S2 hop is not up-down. */
static void test_real_tables(void **state)
{
	struct osmre_err err;
	struct fabric *f;
	struct lft_set s;
	struct check_result r;

	(void)state;
	assert_int_equal(netfile_read(tu_data("ibsim-small.net"), &f, &err), 0);
	assert_int_equal(lftdump_read(tu_data("ibsim-small.dump_fts"), &s,
				      &err),
			 0);
	assert_int_equal(lft_set_bind(&s, f, &err), 0);
	assert_int_equal(lft_set_import_lids(&s, f, &err), 1);
	run(f, &s, 0, &r);
	/* 3 CA ports, 1 LID each: 3 * 2 pairs; each of 2 switch LIDs from 3 */
	assert_int_equal(r.pairs, 6);
	assert_int_equal(r.sw_pairs, 6);
	assert_true(check_ok(&r));
	/* H1-H2: 2 links; H1-H3: 3 links */
	assert_int_equal(r.min_hops, 2);
	assert_int_equal(r.max_hops, 3);
	/* two leaves joined by a link are no fat tree: the up-down rule is
	 * not applied, and the result says why */
	run(f, &s, 1, &r);
	assert_int_equal(r.updown, 0);
	assert_non_null(strstr(r.updown_skipped, "every switch has hosts"));
	/* a hole: S2 loses its route to H1 (LID 1) */
	s.t[1].port[1] = LFT_NONE;
	run(f, &s, 0, &r);
	assert_int_equal(r.unreachable, 1); /* H3 -> H1 */
	/* a loop: S2 sends LID 1 back to S1, S1 sends it to S2 */
	s.t[1].port[1] = 3;
	s.t[0].port[1] = 3;
	run(f, &s, 0, &r);
	assert_int_equal(r.loops, 2); /* H2 -> H1 and H3 -> H1 */
	lft_set_free(&s);
	fabric_free(f);
}

/* A 2-level tree with 4 leaves and 2 spines: a route that goes down to a
 * leaf and up again is a down-up turn. */
static void test_down_up_turn(void **state)
{
	struct fabric *f = tu_pgft("2", "1,4", "1,2", "1,1", 0);
	struct dmodc_opts o = { .threads = 1 };
	struct osmre_err err;
	struct lft_set s;
	struct check_result r;
	int spine = fabric_find(f, "S2_0_0"), leaf1 = fabric_find(f, "S1_1_0");
	int leaf0 = fabric_find(f, "S1_0_0");
	int h3 = fabric_find(f, "H_3_0");
	unsigned lid = f->nodes[h3].ports[1].lid;

	(void)state;
	assert_true(spine >= 0 && leaf1 >= 0 && h3 >= 0);
	assert_int_equal(lft_set_for_fabric(f, 64, &s, &err), 0);
	assert_int_equal(dmodc_route(f, &o, &s, &err), 0);
	run(f, &s, 1, &r);
	assert_true(check_ok(&r));
	/* leaf 0 sends H_3_0 up to spine 0 (its port 2), spine 0 down to
	 * leaf 1 (its port 2), leaf 1 up to spine 1 (port 3), which goes down
	 * to leaf 3 */
	lft_of_node(&s, leaf0)->port[lid] = 2;
	lft_of_node(&s, spine)->port[lid] = 2;
	lft_of_node(&s, leaf1)->port[lid] = 3;
	run(f, &s, 1, &r);
	assert_int_equal(r.unreachable + r.loops, 0);
	assert_true(r.updown > 0);
	run(f, &s, 0, &r);
	assert_true(check_ok(&r));
	lft_set_free(&s);
	fabric_free(f);
}

/* Hop counts between all switches agree with a walk done here. */
static void test_switch_hops(void **state)
{
	struct fabric *f = tu_pgft("3", "4,4,4", "1,4,4", "1,1,1", 0);
	struct dmodc_opts o = { .threads = 2 };
	struct osmre_err err;
	struct lft_set s;
	struct sw_hops m, m3;
	int i, j, checked = 0;

	(void)state;
	assert_int_equal(lft_set_for_fabric(f, 256, &s, &err), 0);
	assert_int_equal(dmodc_route(f, &o, &s, &err), 0);
	assert_int_equal(lft_switch_hops(f, &s, 1, &m, &err), 0);
	assert_int_equal(m.n, 48); /* 16 + 16 + 16 switches */
	/* on threads: the same counts and ports */
	assert_int_equal(lft_switch_hops(f, &s, 3, &m3, &err), 0);
	assert_int_equal(m3.n, m.n);
	assert_memory_equal(m3.hops, m.hops, (size_t)m.n * m.n);
	assert_memory_equal(m3.port, m.port, (size_t)m.n * m.n);
	assert_memory_equal(m3.lid, m.lid, (size_t)m.n * sizeof(*m.lid));
	sw_hops_free(&m3);
	for (i = 0; i < m.n; i++)
		for (j = 0; j < m.n; j++) {
			int cur = m.node[i], links = 0;

			while (cur != m.node[j] && links < 100) {
				int p = lft_get(lft_of_node(&s, cur), m.lid[j]);

				assert_true(p != LFT_NONE && p != 0);
				assert_int_equal(m.port[(size_t)j * m.n + i] ==
								 p ||
							 cur != m.node[i],
						 1);
				cur = f->nodes[cur].ports[p].rnode;
				links++;
			}
			assert_int_equal(m.hops[(size_t)j * m.n + i], links);
			checked++;
		}
	assert_int_equal(checked, 48 * 48);
	/* a hole makes the routes through it fail */
	lft_of_node(&s, m.node[0])->port[m.lid[1]] = LFT_NONE;
	sw_hops_free(&m);
	assert_int_equal(lft_switch_hops(f, &s, 2, &m, &err), 0);
	assert_int_equal(m.hops[(size_t)1 * m.n + 0], LFT_HOPS_BYTE_NONE);
	sw_hops_free(&m);
	lft_set_free(&s);
	fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_tables),
		cmocka_unit_test(test_down_up_turn),
		cmocka_unit_test(test_switch_hops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
