/* SPDX-License-Identifier: BSD-2-Clause */
/* Congestion risk on small fabrics whose values are worked out by hand. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cdg.h"
#include "congestion.h"
#include "jobs.h"
#include "lids.h"
#include "testutil.h"

static void route(struct fabric *f, struct lft_set *s)
{
	struct dmodc_opts o = { .threads = 1 };
	struct osmre_err err;

	assert_int_equal(lft_set_for_fabric(f, lids_max(f), s, &err), 0);
	assert_int_equal(dmodc_route(f, &o, s, &err), 0);
}

/*
 * PGFT(2;2,2;1,2): leaves L0 (H_0_0, H_0_1), L1 (H_1_0, H_1_1), spines S0,
 * S1; dmodc sends NID t through spine t mod 2.  A2A: L0's uplink to S0
 * carries 2 sources (H_0_*) to 1 destination (H_1_0): 1; every other port
 * likewise: A2A = 1.  Shifts in NID order: k = 2 sends H_0_0 -> H_1_0 and
 * H_0_1 -> H_1_1 over different spines: SP = 1.
 */
static void test_two_spines(void **state)
{
	struct fabric *f = tu_pgft("2", "2,2", "1,2", "1,1", 0);
	struct cong_order o;
	struct cong_result r;
	struct osmre_err err;
	struct lft_set s;

	(void)state;
	route(f, &s);
	assert_int_equal(cong_order_make(f, CONG_ORDER_NID, &o, &err), 0);
	assert_int_equal(o.n, 4);
	assert_int_equal(cong_all_to_all(f, &s, &o, &r, &err), 0);
	assert_int_equal(r.risk, 1);
	assert_int_equal(r.unroutable, 0);
	assert_int_equal(cong_shifts(f, &s, &o, 2, &r, &err), 0);
	assert_int_equal(r.risk, 1);
	/* random permutations of 4 hosts: never worse than all-to-all, the
	 * same for any thread count, reproducible from the seed */
	{
		struct cong_result a, b;

		assert_int_equal(cong_random_perms(f, &s, &o, 101, 7, 1, &a, &err), 0);
		assert_int_equal(cong_random_perms(f, &s, &o, 101, 7, 2, &b, &err), 0);
		assert_int_equal(a.risk, b.risk);
		assert_true(a.risk >= 1 && a.risk <= 2);
	}
	lft_set_free(&s);
	cong_order_free(&o);
	fabric_free(f);
}

/*
 * PGFT(2;4,2;1,1): two leaves of 4 hosts and a single spine (4:1
 * blocking).  Shift k = 4 sends the 4 hosts of L0 to the 4 of L1 through
 * L0's one uplink: SP = 4.  A2A: that uplink carries 4 sources to 4
 * destinations: 4.
 */
static void test_blocking(void **state)
{
	struct fabric *f = tu_pgft("2", "4,2", "1,1", "1,1", 0);
	struct cong_order o;
	struct cong_result r;
	struct osmre_err err;
	struct lft_set s;

	(void)state;
	route(f, &s);
	assert_int_equal(cong_order_make(f, CONG_ORDER_NAME, &o, &err), 0);
	assert_int_equal(o.n, 8);
	assert_string_equal(f->nodes[o.node[0]].name, "H_0_0");
	assert_int_equal(cong_shifts(f, &s, &o, 1, &r, &err), 0);
	assert_int_equal(r.risk, 4);
	assert_int_equal(cong_all_to_all(f, &s, &o, &r, &err), 0);
	assert_int_equal(r.risk, 4);
	/* RP: a random permutation of 8 hosts over a 4:1 uplink; the median
	 * of the maxima lies between 1 and 4 */
	assert_int_equal(cong_random_perms(f, &s, &o, 1000, 1, 2, &r, &err), 0);
	assert_true(r.risk >= 1 && r.risk <= 4);
	/* a hole in the tables is counted, not walked through */
	lft_of_node(&s, fabric_find(f, "S2_0_0"))
		->port[f->nodes[fabric_find(f, "H_1_0")].ports[1].lid] = LFT_NONE;
	assert_int_equal(cong_all_to_all(f, &s, &o, &r, &err), 0);
	assert_int_equal(r.unroutable, 4);	/* the 4 hosts of L0 -> H_1_0 */
	lft_set_free(&s);
	cong_order_free(&o);
	fabric_free(f);
}

/* dmodc's up-down routes: no cycle.  A ring routed clockwise: a cycle. */
static void test_cdg(void **state)
{
	struct fabric *f = tu_pgft("3", "4,4,4", "1,4,4", "1,1,1", 0);
	struct cdg_result r;
	struct osmre_err err;
	struct lft_set s;
	int i;
	unsigned lid;

	(void)state;
	route(f, &s);
	assert_int_equal(cdg_check(f, &s, NULL, &r, &err), 0);
	assert_true(r.acyclic);
	assert_true(r.channels > 0 && r.deps > 0);
	cdg_result_free(&r);
	lft_set_free(&s);
	fabric_free(f);

	/* each switch sends every foreign LID out of port 1, clockwise:
	 * A -> B -> C -> A, a cycle of three channels */
	assert_int_equal(tu_read_net(tu_ring3_net, &f, &err), 0);
	assert_int_equal(lids_assign(f, 0, &err), 0);
	assert_int_equal(lft_set_for_fabric(f, lids_max(f), &s, &err), 0);
	for (i = 0; i < s.n; i++) {
		const struct fab_node *sw = &f->nodes[s.t[i].node];

		for (lid = 1; lid <= s.t[i].top; lid++)
			s.t[i].port[lid] = 1;
		s.t[i].port[sw->ports[0].lid] = 0;
		s.t[i].port[f->nodes[sw->ports[3].rnode].ports[1].lid] = 3;
	}
	assert_int_equal(cdg_check(f, &s, NULL, &r, &err), 0);
	assert_false(r.acyclic);
	assert_int_equal(r.cycle_len, 3);
	for (i = 0; i < 3; i++)
		assert_int_equal(r.cycle_port[i], 1);
	cdg_result_free(&r);
	lft_set_free(&s);
	fabric_free(f);
}

static const char *tmpfile_with(const char *text)
{
	static char path[64];
	FILE *fp;

	strcpy(path, "/tmp/osmre-jobs-XXXXXX");
	assert_true(mkstemp(path) >= 0);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	return path;
}

/*
 * PGFT(2;2,2;1,1): leaves L0 (H_0_0, H_0_1), L1 (H_1_0, H_1_1), one spine;
 * 4 directed inter-switch links.  Jobs A = {H_0_0, H_1_0} and B = {H_0_1,
 * H_1_1}: each directed link carries one route of each job: max 2, each
 * job's own maximum 1, no dark fiber.  A job inside one leaf uses no
 * inter-switch link: 100 % dark fiber.
 */
static void test_efi(void **state)
{
	struct fabric *f = tu_pgft("2", "2,2", "1,1", "1,1", 0);
	struct osmre_err err;
	struct efi_result e;
	struct lft_set s;
	struct jobs j;
	const char *p;

	(void)state;
	route(f, &s);
	p = tmpfile_with("# two jobs\nH_0_0 A\nH_1_0 A\n\nH_0_1 B\nH_1_1 B\nnobody B\n");
	assert_int_equal(jobs_read(p, f, &j, &err), 0);
	assert_int_equal(j.njobs, 2);
	assert_int_equal(j.nhosts, 4);
	assert_int_equal(j.unknown, 1);
	assert_string_equal(j.first_unknown, "nobody");
	assert_int_equal(jobs_efi(f, &s, &j, &e, &err), 0);
	assert_int_equal(e.links, 4);
	assert_int_equal(e.max, 2);
	assert_true(e.avg_job_max > 0.99 && e.avg_job_max < 1.01);
	assert_true(e.dark_pct < 0.01);
	jobs_free(&j);
	unlink(p);
	p = tmpfile_with("H_0_0 C\nH_0_1 C\n");
	assert_int_equal(jobs_read(p, f, &j, &err), 0);
	assert_int_equal(jobs_efi(f, &s, &j, &e, &err), 0);
	assert_int_equal(e.max, 0);
	assert_true(e.dark_pct > 99.99);
	jobs_free(&j);
	unlink(p);
	/* malformed: file:line */
	p = tmpfile_with("H_0_0 A\nH_0_1\n");
	assert_int_equal(jobs_read(p, f, &j, &err), -1);
	assert_non_null(strstr(err.msg, ":2: expected \"<hostname> <jobid>\""));
	unlink(p);
	p = tmpfile_with("H_0_0 A\nH_0_0 B\n");
	assert_int_equal(jobs_read(p, f, &j, &err), -1);
	assert_non_null(strstr(err.msg, ":2: host \"H_0_0\" already listed at line 1"));
	unlink(p);
	lft_set_free(&s);
	fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_spines),
		cmocka_unit_test(test_blocking),
		cmocka_unit_test(test_cdg),
		cmocka_unit_test(test_efi),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
