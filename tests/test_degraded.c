/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dmodc on 200 seeded random degradations (links and switches, Dmodc's
 * log-uniform amounts) of a 3-level PGFT.  An oracle written here (a
 * breadth-first search over (switch, going-up/going-down) states) decides
 * whether every pair of leaves of a connected component keeps an up-down
 * path; dmodc must then give valid up-down tables, and otherwise refuse with
 * a pair the oracle agrees is cut.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "components.h"
#include "degrade.h"
#include "lids.h"
#include "ranks.h"
#include "testutil.h"

/* dmodc refuses f with "<what> "A" (GUID) and "B" ...": the nodes A, B. */
static void refused_pair(const struct fabric *f, const struct dmodc_opts *o,
			 struct lft_set *s, const char *what, int *a, int *b)
{
	struct osmre_err err;
	char na[64], nb[64];

	assert_int_equal(dmodc_route(f, o, s, &err), -1);
	if (strncmp(err.msg, what, strlen(what)) ||
	    sscanf(err.msg + strlen(what),
		   " \"%63[^\"]\" (%*[^)]) and \"%63[^\"]\"", na, nb) != 2)
		fail_msg("expected \"%s ...\", got \"%s\"", what, err.msg);
	*a = fabric_find(f, na);
	*b = fabric_find(f, nb);
	assert_true(*a >= 0 && *b >= 0);
}

static void test_200_degradations(void **state)
{
	int throw, valid = 0, refused = 0, split_refused = 0;

	(void)state;
	for (throw = 0; throw < 200; throw ++) {
		struct fabric *f = tu_pgft("3", "6,3,4", "1,3,6", "1,2,1", 0);
		enum degrade_kind kind =
			throw % 2 ? DEGRADE_SWITCHES : DEGRADE_LINKS;
		int *rank = malloc(sizeof(int) * (size_t)f->nnodes);
		int *comp = malloc(sizeof(int) * (size_t)f->nnodes);
		struct dmodc_opts o = { .threads = 1 + throw % 3 };
		struct osmre_err err;
		struct lft_set s;
		struct rng r;
		long cand = degrade_candidates(f, kind), amount;
		int a, b, cut = 0, split, ha, hb;
		char *ud;

		assert_true(rank && comp);
		rng_seed(&r, 1000 + (uint64_t) throw);
		amount = degrade_loguniform(&r, log2((double)cand));
		assert_true(amount >= 0 && amount < cand);
		assert_int_equal(degrade_remove(f, kind, amount, &r, &err), 0);
		assert_int_equal(lids_assign(f, 0, &err), 0);
		ranks_compute(f, rank);
		assert_int_equal(switch_components(f, comp), 0);
		ud = tu_updown_oracle(f, rank);
		for (a = 0; a < f->nnodes; a++)
			for (b = 0; b < f->nnodes; b++)
				if (rank[a] == 0 && rank[b] == 0 &&
				    comp[a] == comp[b] &&
				    !ud[(size_t)a * f->nnodes + b])
					cut = 1;
		assert_int_equal(lft_set_for_fabric(f, lids_max(f), &s, &err),
				 0);
		split = components_split_pair(f, comp, &ha, &hb);
		assert_true(split >= 0);
		if (split) {
			/* refused, naming two hosts with no common part */
			int ia, ib, p, meet = 0;

			refused_pair(f, &o, &s, "the fabric is split: hosts",
				     &ia, &ib);
			for (p = 1; p <= f->nodes[ia].nports; p++)
				if (f->nodes[ia].ports[p].rnode >= 0)
					meet |= components_meet(
						f, comp, ib,
						comp[f->nodes[ia].ports[p].rnode]);
			assert_false(meet);
			split_refused++;
		} else if (!cut) {
			struct check_opts co = { .updown = 1,
						 .threads = 1,
						 .max_report = 3 };
			struct check_result cr;

			if (dmodc_route(f, &o, &s, &err))
				fail_msg("throw %d (%ld %s): %s", throw, amount,
					 kind ? "switches" : "links", err.msg);
			assert_int_equal(check_lfts(f, &s, &co, &cr, stderr,
						    &err),
					 0);
			if (!check_ok(&cr))
				fail_msg("throw %d: invalid tables", throw);
			valid++;
		} else {
			int ia, ib;

			refused_pair(f, &o, &s,
				     "no up-down path between leaf switches",
				     &ia, &ib);
			assert_int_equal(ud[(size_t)ia * f->nnodes + ib], 0);
			refused++;
		}
		free(ud);
		free(rank);
		free(comp);
		lft_set_free(&s);
		fabric_free(f);
	}
	printf("200 degradations: %d routed valid and up-down, %d refused (no up-down path), %d refused (split)\n",
	       valid, refused, split_refused);
	assert_true(valid > 0 && refused > 0 && split_refused > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_200_degradations),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
