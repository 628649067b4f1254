/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The flow-level bandwidth estimate (bandwidth.c): max-min fair rates on
 * cases computed by hand, and the rail policies on a dual-plane fat tree
 * whose planes have different speeds.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "bandwidth.h"
#include "dmodc.h"
#include "lids.h"
#include "planes.h"
#include "testutil.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-6)

static void solve(int nflows, const long *first, const int *chan,
		  const double *coef, int nchan, const double *cap,
		  double *rate)
{
	struct osmre_err err;

	if (bw_maxmin(nflows, first, chan, coef, nchan, cap, rate, &err))
		fail_msg("%s", err.msg);
}

/* Two flows on one link share it; a third alone on another gets it all. */
static void test_shared_link(void **state)
{
	long first[] = { 0, 1, 2, 3 };
	int chan[] = { 0, 0, 1 };
	double coef[] = { 1, 1, 1 }, cap[] = { 10, 10 }, rate[3];

	(void)state;
	solve(3, first, chan, coef, 2, cap, rate);
	NEAR(rate[0], 5);
	NEAR(rate[1], 5);
	NEAR(rate[2], 10);
}

/*
 * A bottleneck chain: A on links 0 and 1, B on 1, C on 0 and 2; capacities
 * 10, 4, 100.  Link 1 fills first, at 2 each (A and B); then link 0 has 8
 * left for C alone; link 2 never fills.
 */
static void test_bottleneck_chain(void **state)
{
	long first[] = { 0, 2, 3, 5 };
	int chan[] = { 0, 1, 1, 0, 2 };
	double coef[] = { 1, 1, 1, 1, 1 }, cap[] = { 10, 4, 100 }, rate[3];

	(void)state;
	solve(3, first, chan, coef, 3, cap, rate);
	NEAR(rate[0], 2);
	NEAR(rate[1], 2);
	NEAR(rate[2], 8);
}

/*
 * One flow split evenly over two planes (half its rate on each) through
 * link 0 (12.5) and link 1 (7); another flow on link 0 alone.  Link 0 has
 * 1.5 units of growth and fills at 12.5 / 1.5 = 8.33 before link 1 (at
 * 14): both flows stop there.  Alone, the split flow would get 14.
 */
static void test_split_flow(void **state)
{
	long first[] = { 0, 2, 3 };
	int chan[] = { 0, 1, 0 };
	double coef[] = { 0.5, 0.5, 1 }, cap[] = { 12.5, 7 }, rate[2];

	(void)state;
	solve(2, first, chan, coef, 2, cap, rate);
	NEAR(rate[0], 12.5 / 1.5);
	NEAR(rate[1], 12.5 / 1.5);
	solve(1, first, chan, coef, 2, cap, rate);
	NEAR(rate[0], 14);
}

/* A flow with no link, and no flow at all. */
static void test_degenerate(void **state)
{
	long first[] = { 0, 0, 1 };
	int chan[] = { 0 };
	double coef[] = { 1 }, cap[] = { 3 }, rate[2];

	(void)state;
	solve(2, first, chan, coef, 1, cap, rate);
	NEAR(rate[0], 0);
	NEAR(rate[1], 3);
	solve(0, first, chan, coef, 1, cap, rate);
}

static struct bw_result estimate(const struct fabric *f,
				 const struct lft_set *s, enum bw_pattern pat,
				 enum bw_rail rail, const double *speed,
				 int nspeed)
{
	struct bw_opts o = { .pattern = pat,
			     .rail = rail,
			     .shift = 1,
			     .nperm = 20,
			     .seed = 1,
			     .speed = speed,
			     .nspeed = nspeed,
			     .max_pairs = 1L << 24 };
	struct bw_result r;
	struct osmre_err err;

	if (bw_estimate(f, s, &o, &r, &err))
		fail_msg("%s", err.msg);
	return r;
}

/*
 * PGFT(2;4,4;1,4), 16 hosts, full bisection, routed by dmodc: a shift
 * has no contention.  Single plane at EDR 12.5 GB/s: every host sends at
 * 12.5.  Dual plane, EDR and FDR (12.5 and 7): "first" uses plane 0 alone
 * (12.5 each), "random" splits every flow and plane 1 bounds it at 2 x 7
 * = 14, "hash" puts each flow on one plane (7 or 12.5).  All-to-all on one
 * plane: the hosts' links bound it, 16 x 12.5.
 */
static void test_planes(void **state)
{
	struct fabric *one = tu_pgft("2", "4,4", "1,4", NULL, 0), *two;
	const double edr[] = { 12.5 }, mixed[] = { 12.5, 7 };
	struct lft_set s1, s2;
	struct dmodc_opts d = { .threads = 1 };
	struct bw_opts o = { .pattern = BW_SHIFT,
			     .nspeed = 1,
			     .max_pairs = 1L << 24 };
	struct osmre_err err;
	struct bw_result r;

	(void)state;
	assert_int_equal(fabric_planes(one, 2, &two, &err), 0);
	assert_int_equal(lids_assign(two, 0, &err), 0);
	assert_int_equal(lft_set_for_fabric(one, lids_max(one), &s1, &err), 0);
	assert_int_equal(lft_set_for_fabric(two, lids_max(two), &s2, &err), 0);
	assert_int_equal(dmodc_route(one, &d, &s1, &err), 0);
	assert_int_equal(dmodc_route(two, &d, &s2, &err), 0);

	r = estimate(one, &s1, BW_SHIFT, BW_RAIL_RANDOM, edr, 1);
	assert_int_equal(r.planes, 1);
	assert_int_equal(r.hosts, 16);
	assert_int_equal(r.flows, 16);
	NEAR(r.aggregate, 16 * 12.5);
	NEAR(r.host_min, 12.5);
	NEAR(r.host_max, 12.5);

	r = estimate(two, &s2, BW_SHIFT, BW_RAIL_FIRST, mixed, 2);
	assert_int_equal(r.planes, 2);
	assert_int_equal(r.hosts, 16);
	NEAR(r.aggregate, 16 * 12.5);

	r = estimate(two, &s2, BW_SHIFT, BW_RAIL_RANDOM, mixed, 2);
	NEAR(r.aggregate, 16 * 14.0);
	NEAR(r.host_min, 14);

	r = estimate(two, &s2, BW_SHIFT, BW_RAIL_HASH, mixed, 2);
	assert_true(r.host_min >= 7 - 1e-9 && r.host_max <= 12.5 + 1e-9);
	assert_true(r.aggregate > 16 * 7 && r.aggregate < 16 * 12.5);

	r = estimate(one, &s1, BW_A2A, BW_RAIL_RANDOM, edr, 1);
	assert_int_equal(r.flows, 16 * 15);
	NEAR(r.aggregate, 16 * 12.5);

	r = estimate(one, &s1, BW_PERM, BW_RAIL_RANDOM, edr, 1);
	assert_int_equal(r.patterns, 20);
	assert_true(r.aggregate <= 16 * 12.5 + 1e-9);
	assert_true(r.host_max <= 12.5 + 1e-9);
	printf("PGFT(2;4,4;1,4) random permutations: aggregate %.1f GB/s, host min %.2f avg %.2f max %.2f\n",
	       r.aggregate, r.host_min, r.host_avg, r.host_max);

	/* a shift of the host count or more is refused, not taken modulo */
	assert_int_equal(bw_hosts(two, &err), 16);
	o.speed = edr;
	o.shift = 15;
	assert_int_equal(bw_estimate(one, &s1, &o, &r, &err), 0);
	assert_int_equal(r.flows, 16);
	o.shift = 16;
	assert_int_equal(bw_estimate(one, &s1, &o, &r, &err), -1);
	assert_string_equal(err.msg,
			    "shift 16: expected 1..15 (the hosts less one)");
	o.shift = 0;
	assert_int_equal(bw_estimate(one, &s1, &o, &r, &err), -1);

	lft_set_free(&s1);
	lft_set_free(&s2);
	fabric_free(one);
	fabric_free(two);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shared_link),
		cmocka_unit_test(test_bottleneck_chain),
		cmocka_unit_test(test_split_flow),
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_planes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
