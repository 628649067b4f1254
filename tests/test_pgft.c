/* SPDX-License-Identifier: BSD-2-Clause */
/* PGFT generator: counts against eq. (1), the connection rule, fixtures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgft.h"
#include "testutil.h"

struct shape {
	const char *h, *m, *w, *p;
};

/* clang-format off */
static const struct shape shapes[] = {
	{ "2", "18,10", "1,18", "1,1" },
	{ "2", "4,4", "2,4", "1,2" },
	{ "3", "2,2,3", "1,2,2", "1,2,1" },
	{ "3", "18,9,36", "1,9,18", "1,2,1" },
	{ "3", "8,4,6", "1,4,4", "2,2,1" },
	{ "4", "4,2,2,4", "1,2,2,4", "1,2,2,1" },
	{ "4", "18,3,18,36", "1,3,18,18", "1,6,1,1" },
};
/* clang-format on */

/* Level of a generated node from its name (S<l>_..., hosts 0). */
static int level(const struct fab_node *n)
{
	return n->name[0] == 'H' ? 0 : n->name[1] - '0';
}

static void test_counts_and_rule(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		const struct shape *sh = &shapes[i];
		struct pgft_params t;
		struct osmre_err err;
		struct fabric *f;
		struct fab_counts c;
		long per_level[PGFT_MAX_LEVELS + 1] = { 0 }, links = 0, sum;
		int n, p, l;

		assert_int_equal(pgft_parse(sh->h, sh->m, sh->w, sh->p, &t,
					    &err),
				 0);
		assert_int_equal(pgft_build(&t, &f, &err), 0);
		fabric_count(f, &c);
		/* eq. (1) computed here, independently of pgft.c */
		for (l = 0; l <= t.h; l++) {
			long want = 1;
			int k;

			for (k = 1; k <= t.h; k++)
				want *= k <= l ? t.w[k] : t.m[k];
			for (n = 0; n < f->nnodes; n++)
				per_level[l] += level(&f->nodes[n]) == l;
			assert_int_equal(per_level[l], want);
			if (l)
				links += want * t.m[l] * t.p[l];
		}
		assert_int_equal(c.cas, per_level[0]);
		assert_int_equal(c.switches + c.cas, f->nnodes);
		assert_int_equal(c.sw_links + c.ca_links, links);
		for (l = 1, sum = 0; l <= t.h; l++)
			sum += pgft_links_at(&t, l);
		assert_int_equal(sum, links);
		/* every link joins adjacent levels; every level-l node has
		 * w_{l+1} p_{l+1} up links and m_l p_l down links */
		for (n = 0; n < f->nnodes; n++) {
			const struct fab_node *nd = &f->nodes[n];
			int up = 0, down = 0, ln = level(nd);

			for (p = 1; p <= nd->nports; p++) {
				int r = nd->ports[p].rnode;

				if (r < 0)
					continue;
				assert_int_equal(abs(level(&f->nodes[r]) - ln),
						 1);
				if (level(&f->nodes[r]) > ln)
					up++;
				else
					down++;
			}
			assert_int_equal(up, ln < t.h ?
						     t.w[ln + 1] * t.p[ln + 1] :
						     0);
			assert_int_equal(down, ln ? t.m[ln] * t.p[ln] : 0);
		}
		fabric_free(f);
	}
}

static void test_parse_errors(void **state)
{
	struct pgft_params t;
	struct osmre_err err;

	(void)state;
	assert_int_equal(pgft_parse("3", "18,9", "1,9,18", NULL, &t, &err), -1);
	assert_non_null(strstr(err.msg, "m: expected 3 values"));
	assert_int_equal(pgft_parse("x", "1", "1", NULL, &t, &err), -1);
	assert_int_equal(pgft_parse("2", "18,10", "1,18", "1,1,1", &t, &err),
			 -1);
	assert_non_null(strstr(err.msg, "p: more than 2 values"));
	assert_int_equal(pgft_parse("2", "200,10", "1,200", NULL, &t, &err),
			 -1);
	assert_non_null(strstr(err.msg, "ports"));
	assert_int_equal(pgft_parse("2", "0,10", "1,18", NULL, &t, &err), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_and_rule),
		cmocka_unit_test(test_parse_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
