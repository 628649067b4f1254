/* SPDX-License-Identifier: BSD-2-Clause */
/* dmodc on complete PGFTs: validity, up-down, shift optimality, threads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lids.h"
#include "testutil.h"

struct shape {
	const char *h, *m, *w, *p;
	long hosts;
};

/* full-bisection PGFTs: every switch has as many up as down ports */
/* clang-format off */
static const struct shape shapes[] = {
	{ "2", "18,10", "1,18", "1,1", 180 },
	{ "3", "4,4,4", "1,4,4", "1,1,1", 64 },
	{ "3", "6,3,4", "1,3,6", "1,2,1", 72 },
	{ "4", "4,2,2,4", "1,2,2,4", "1,2,2,1", 64 },
	{ "3", "12,6,24", "1,6,12", "1,2,1", 1728 },
	{ "3", "18,9,36", "1,9,18", "1,2,1", 5832 },
};
/* clang-format on */

static void route(const struct fabric *f, int threads, struct dmodc *d,
		  struct lft_set *s)
{
	struct dmodc_opts o = { .threads = threads };
	struct osmre_err err;

	assert_int_equal(lft_set_for_fabric(f, lids_max(f), s, &err), 0);
	if (dmodc_run(d, f, &o, s, &err))
		fail_msg("dmodc: %s", err.msg);
}

static void assert_valid_updown(const struct fabric *f, const struct lft_set *s)
{
	struct check_opts o = { .updown = 1, .max_report = 5 };
	struct check_result r;
	struct osmre_err err;

	assert_int_equal(check_lfts(f, s, &o, &r, stderr, &err), 0);
	assert_true(r.pairs > 0);
	assert_int_equal(r.unreachable, 0);
	assert_int_equal(r.loops, 0);
	assert_int_equal(r.updown, 0);
	assert_int_equal(r.sw_unreachable, 0);
	assert_int_equal(r.sw_loops, 0);
}

static void test_complete_pgfts(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		const struct shape *sh = &shapes[i];
		struct fabric *f;
		struct dmodc *d;
		struct lft_set s;
		struct tu_hosts h;
		int risk;

		/* (OSMRE_TEST_QUICK, the sanitizer builds: up to 1,000
		 * hosts) */
		if (getenv("OSMRE_TEST_QUICK") && sh->hosts > 1000) {
			printf("PGFT(%s;%s;%s;%s): %ld hosts: skipped (OSMRE_TEST_QUICK)\n",
			       sh->h, sh->m, sh->w, sh->p, sh->hosts);
			continue;
		}
		f = tu_pgft(sh->h, sh->m, sh->w, sh->p, 0);
		d = dmodc_new();
		route(f, 2, d, &s);
		assert_valid_updown(f, &s);
		tu_hosts_by_nid(f, d, &h);
		assert_int_equal(h.n, sh->hosts);
		risk = tu_max_shift_risk(f, &s, &h);
		printf("PGFT(%s;%s;%s;%s): %d hosts, max SP congestion risk %d\n",
		       sh->h, sh->m, sh->w, sh->p, h.n, risk);
		assert_int_equal(risk, 1);
		tu_hosts_free(&h);
		lft_set_free(&s);
		dmodc_free(d);
		fabric_free(f);
	}
}

static void test_threads_identical(void **state)
{
	/* (OSMRE_TEST_QUICK, the sanitizer builds: 288 hosts, not 1,728) */
	struct fabric *f =
		getenv("OSMRE_TEST_QUICK") ?
			tu_pgft("3", "6,6,8", "1,6,6", "1,2,1", 1) :
			tu_pgft("3", "12,6,24", "1,6,12", "1,2,1", 1);
	struct dmodc *d = dmodc_new();
	struct lft_set a, b, c;
	char diff[256];

	(void)state;
	route(f, 1, d, &a);
	route(f, 4, d, &b);
	route(f, 3, d, &c);
	assert_true(lft_set_equal(&a, &b, diff, sizeof(diff)));
	assert_true(lft_set_equal(&a, &c, diff, sizeof(diff)));
	lft_set_free(&a);
	lft_set_free(&b);
	lft_set_free(&c);
	dmodc_free(d);
	fabric_free(f);
}

/* With LMC 2 the four LIDs of a host leave its leaf by different uplinks. */
static void test_lmc_spreads(void **state)
{
	struct fabric *f = tu_pgft("3", "4,4,4", "1,4,4", "1,1,1", 2);
	struct dmodc *d = dmodc_new();
	struct lft_set s;
	int i, leaf = -1, host = -1;

	(void)state;
	route(f, 2, d, &s);
	assert_valid_updown(f, &s);
	/* a host of the last leaf, seen from the first leaf */
	for (i = 0; i < f->nnodes; i++) {
		if (f->nodes[i].type == FAB_SWITCH && leaf < 0 &&
		    !strncmp(f->nodes[i].name, "S1_", 3))
			leaf = i;
		if (f->nodes[i].type == FAB_CA)
			host = i;
	}
	{
		const struct lft *t = lft_of_node(&s, leaf);
		unsigned base = f->nodes[host].ports[1].lid, k, j;
		int ports[4];

		assert_int_equal(f->nodes[host].ports[1].lmc, 2);
		for (k = 0; k < 4; k++) {
			ports[k] = lft_get(t, base + k);
			assert_true(ports[k] != LFT_NONE);
			for (j = 0; j < k; j++)
				assert_int_not_equal(ports[k], ports[j]);
		}
	}
	lft_set_free(&s);
	dmodc_free(d);
	fabric_free(f);
}

/* Dual-rail hosts (w1 = 2): each HCA port is a destination of its own. */
static void test_multiport_hosts(void **state)
{
	struct fabric *f = tu_pgft("2", "4,4", "2,4", "1,1", 0);
	struct dmodc *d = dmodc_new();
	struct lft_set s;

	(void)state;
	route(f, 2, d, &s);
	assert_valid_updown(f, &s);
	assert_true(dmodc_nid(d, f->nnodes - 1, 2) >= 0);
	assert_true(dmodc_nid(d, f->nnodes - 1, 1) >= 0);
	lft_set_free(&s);
	dmodc_free(d);
	fabric_free(f);
}

/* A ring of switches that all carry hosts: no up-down path joins them. */
static void test_ring_refused(void **state)
{
	struct fabric *f;
	struct osmre_err err;
	struct lft_set s;
	struct dmodc_opts o = { .threads = 1 };

	(void)state;
	assert_int_equal(tu_read_net(tu_ring3_net, &f, &err), 0);
	assert_int_equal(lids_assign(f, 0, &err), 0);
	assert_int_equal(lft_set_for_fabric(f, lids_max(f), &s, &err), 0);
	assert_int_equal(dmodc_route(f, &o, &s, &err), -1);
	assert_non_null(
		strstr(err.msg, "no up-down path between leaf switches \"A\""));
	lft_set_free(&s);
	fabric_free(f);
}

/* The paper's Figure 1 tree: ranks, dividers and Algorithm 2 by hand. */
static void test_figure1_state(void **state)
{
	struct fabric *f = tu_pgft("3", "2,2,3", "1,2,2", "1,2,1", 0);
	struct dmodc *d = dmodc_new();
	struct lft_set s;
	int i;

	(void)state;
	route(f, 1, d, &s);
	assert_valid_updown(f, &s);
	for (i = 0; i < f->nnodes; i++) {
		const struct fab_node *n = &f->nodes[i];

		if (n->type != FAB_SWITCH)
			continue;
		/* level l switch: rank l - 1; divider: product of the up
		 * group counts below: leaves 1, level 2: w2 = 2, level 3:
		 * w2 * w3 = 4 */
		assert_int_equal(dmodc_rank(d, i), n->name[1] - '1');
		assert_int_equal(dmodc_divider(d, i), n->name[1] == '1' ? 1 :
						      n->name[1] == '2' ? 2 :
									  4);
	}
	/* hosts are numbered leaf by leaf in leaf GUID order: H_0_0 = 0 */
	for (i = 0; i < f->nnodes; i++)
		if (f->nodes[i].type == FAB_CA) {
			int g, k;

			assert_int_equal(sscanf(f->nodes[i].name, "H_%d_%d", &g,
						&k),
					 2);
			assert_int_equal(dmodc_nid(d, i, 1), g * 2 + k);
		}
	lft_set_free(&s);
	dmodc_free(d);
	fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_figure1_state),
		cmocka_unit_test(test_complete_pgfts),
		cmocka_unit_test(test_threads_identical),
		cmocka_unit_test(test_lmc_spreads),
		cmocka_unit_test(test_multiport_hosts),
		cmocka_unit_test(test_ring_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
