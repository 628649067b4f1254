/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pqft on complete PGFTs and QFTs: the paper's contention-freedom theorem
 * (shift permutations in host-index order have congestion risk 1), checked
 * by walking the tables with the tests' own walker; tuples found from the
 * links alone, with GUIDs shuffled; mismatching fabrics refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>

#include "check.h"
#include "components.h"
#include "degrade.h"
#include "ranks.h"
#include "congestion.h"
#include "lids.h"
#include "pqft.h"
#include "rng.h"
#include "testutil.h"

static struct fabric *build(const char *spec, struct pgft_params *t, int lmc)
{
	struct osmre_err err;
	struct fabric *f = NULL;

	if (topo_spec_parse(spec, t, &err) || pgft_build(t, &f, &err) ||
	    lids_assign(f, lmc, &err))
		fail_msg("%s: %s", spec, err.msg);
	return f;
}

/* Real fabrics do not number GUIDs in tuple order: shuffle them among
 * switches and among hosts. */
static void shuffle_guids(struct fabric *f, uint64_t seed)
{
	struct rng r;
	int type, n, k, *idx = malloc(((size_t)f->nnodes + 1) * sizeof(int));

	assert_non_null(idx);
	rng_seed(&r, seed);
	for (type = 0; type < 2; type++) {
		int cnt = 0;

		for (n = 0; n < f->nnodes; n++)
			if ((f->nodes[n].type == FAB_SWITCH) == (type == 0))
				idx[cnt++] = n;
		for (k = cnt - 1; k > 0; k--) {
			int o = (int)rng_below(&r, (uint64_t)k + 1);
			uint64_t g = f->nodes[idx[k]].guid;

			f->nodes[idx[k]].guid = f->nodes[idx[o]].guid;
			f->nodes[idx[o]].guid = g;
		}
	}
	free(idx);
}

/* Hosts in pqft's host-index order (eq. 4). */
static void hosts_by_index(const struct pqft *q, struct tu_hosts *h)
{
	int n;

	h->n = (int)q->nhosts;
	h->node = malloc((size_t)h->n * sizeof(int));
	h->port = malloc((size_t)h->n * sizeof(int));
	assert_non_null(h->node);
	assert_non_null(h->port);
	for (n = 0; n < h->n; n++)
		h->node[n] = -1;
	for (n = 0; n < q->f->nnodes; n++)
		if (q->level[n] == 0) {
			assert_true(q->hidx[n] >= 0 && q->hidx[n] < h->n);
			assert_int_equal(h->node[q->hidx[n]], -1);
			h->node[q->hidx[n]] = n;
			h->port[q->hidx[n]] = q->hport[n];
		}
}

/*
 * Shifts in host-index order: the tests' own walker up to 2,000 hosts, the
 * analyzer's threaded one beyond (both walk the tables hop by hop).
 */
static int max_shift_risk(const struct fabric *f, const struct lft_set *s,
			  const struct tu_hosts *h)
{
	struct cong_order o = { .n = h->n, .node = h->node, .port = h->port };
	struct cong_result r;
	struct osmre_err err;

	if (h->n <= 2000)
		return tu_max_shift_risk(f, s, h);
	assert_int_equal(cong_shifts(f, s, &o, 0, &r, &err), 0);
	assert_int_equal(r.unroutable, 0);
	return r.risk;
}

static void route_and_check(const char *spec, uint64_t shuffle)
{
	struct check_opts co = { .updown = 1, .threads = 2 };
	struct check_result cr;
	struct pgft_params t;
	struct osmre_err err;
	struct tu_hosts hs;
	struct lft_set s;
	struct pqft *q = pqft_new();
	struct fabric *f = build(spec, &t, 0);

	assert_non_null(q);
	/* the sanitizer and distcheck runs keep to the smaller fabrics */
	if (getenv("OSMRE_TEST_QUICK") && pgft_level_size(&t, 0) > 1000) {
		printf("%-36s %6ld hosts: skipped (OSMRE_TEST_QUICK)\n", spec,
		       pgft_level_size(&t, 0));
		pqft_free(q);
		fabric_free(f);
		return;
	}
	if (shuffle)
		shuffle_guids(f, shuffle);
	assert_int_equal(lft_set_for_fabric(f, lids_max(f), &s, &err), 0);
	if (pqft_assign(q, f, &t, &err) || pqft_route(q, &s, 2, &err))
		fail_msg("%s: %s", spec, err.msg);
	assert_int_equal(check_lfts(f, &s, &co, &cr, NULL, &err), 0);
	if (!check_ok(&cr))
		fail_msg(
			"%s: unreachable %ld, loops %ld, not up-down %ld, switch LIDs %ld",
			spec, cr.unreachable, cr.loops, cr.updown,
			cr.sw_unreachable + cr.sw_loops);
	hosts_by_index(q, &hs);
	{
		int risk = max_shift_risk(f, &s, &hs);

		if (risk != 1)
			fail_msg(
				"%s: shift permutations with congestion risk %d",
				spec, risk);
	}
	printf("%-36s %6ld hosts: valid, up-down, SP = 1\n", spec, q->nhosts);
	tu_hosts_free(&hs);
	lft_set_free(&s);
	pqft_free(q);
	fabric_free(f);
}

/* 29 complete fabrics of 22 sizes, 3 and 4 levels, 32 to 11,664 hosts,
 * constant bisection bandwidth; QFTs cross-connected at level 2 or 3. */
/* clang-format off */
static const char *const sizes[] = {
	"qft(3;4,2,4;1,2,4;1,2,1)",		/* 32 */
	"pgft(3;4,2,4;1,2,4;1,2,1)",		/* 32 */
	"qft(3;4,2,6;1,2,4;1,2,1)",		/* 48 */
	"qft(3;4,2,8;1,2,4;1,2,1)",		/* 64, the paper's Fig. 1(c) */
	"pgft(3;4,2,8;1,2,4;1,2,1)",		/* 64, Fig. 1(b) */
	"qft(3;4,2,10;1,2,4;1,2,1)",		/* 80 */
	"qft(3;6,2,9;1,2,6;1,3,1)",		/* 108, p = 3 */
	"qft(4;4,2,4,4;1,2,4,4;1,2,1,1)",	/* 128 */
	"qft(4;4,4,2,4;1,4,2,4;1,1,2,1)",	/* 128, cross level 3 */
	"pgft(4;4,4,2,4;1,4,2,4;1,1,2,1)",	/* 128 */
	"qft(3;6,3,8;1,3,6;1,2,1)",		/* 144 */
	"qft(3;6,3,12;1,3,6;1,2,1)",		/* 216 */
	"qft(4;4,2,4,8;1,2,4,4;1,2,1,1)",	/* 256 */
	"qft(3;8,4,10;1,4,8;1,2,1)",		/* 320 */
	"pgft(3;6,6,10;1,6,6;1,1,1)",		/* 360 */
	"qft(4;6,6,2,6;1,6,2,6;1,1,3,1)",	/* 432, cross level 3 */
	"qft(4;6,2,6,6;1,2,6,6;1,3,1,1)",	/* 432 */
	"qft(3;8,4,16;1,4,8;1,2,1)",		/* 512 */
	"qft(3;10,5,12;1,5,10;1,2,1)",		/* 600 */
	"qft(3;12,6,12;1,6,12;1,2,1)",		/* 864 */
	"qft(4;8,2,8,8;1,2,8,8;1,4,1,1)",	/* 1,024, p = 4 */
	"pgft(3;12,6,18;1,6,12;1,2,1)",		/* 1,296 */
	"qft(4;6,3,6,12;1,3,6,6;1,2,1,1)",	/* 1,296 */
	"qft(3;12,6,24;1,6,12;1,2,1)",		/* 1,728 */
	"qft(3;12,6,36;1,6,12;1,2,1)",		/* 2,592 */
	"qft(4;9,3,9,18;1,3,9,9;1,3,1,1)",	/* 4,374 */
	"qft(3;18,9,36;1,9,18;1,2,1)",		/* 5,832, the paper's Table I */
	"pgft(3;18,9,36;1,9,18;1,2,1)",		/* 5,832 */
	"qft(3;18,9,72;1,9,18;1,2,1)",		/* 11,664 */
};
/* clang-format on */

static void test_contention_free(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		route_and_check(sizes[i], 0);
}

/* The tuples come from the links, not from the GUIDs: shuffled GUIDs give
 * other tuples, and the same guarantees. */
static void test_shuffled_guids(void **state)
{
	(void)state;
	route_and_check("qft(3;4,2,8;1,2,4;1,2,1)", 11);
	route_and_check("qft(4;6,3,6,12;1,3,6,6;1,2,1,1)", 12);
	route_and_check("qft(4;6,6,2,6;1,6,2,6;1,1,3,1)", 13);
	route_and_check("pgft(3;12,6,18;1,6,12;1,2,1)", 14);
}

/* LMC 2: the 4 LIDs of a host leave its leaf by 4 different up-ports. */
static void test_lmc(void **state)
{
	struct check_opts co = { .updown = 1, .threads = 2 };
	struct check_result cr;
	struct pgft_params t;
	struct osmre_err err;
	struct lft_set s;
	struct pqft *q = pqft_new();
	struct fabric *f = build("qft(3;4,2,8;1,2,4;1,2,1)", &t, 2);
	int n;

	(void)state;
	assert_int_equal(lft_set_for_fabric(f, lids_max(f), &s, &err), 0);
	assert_int_equal(pqft_assign(q, f, &t, &err), 0);
	assert_int_equal(pqft_route(q, &s, 1, &err), 0);
	assert_int_equal(check_lfts(f, &s, &co, &cr, NULL, &err), 0);
	assert_true(check_ok(&cr));
	for (n = 0; n < f->nnodes; n++) {
		const struct fab_port *pt;
		const struct lft *leaf;
		int j, k, used[4];

		if (q->level[n] != 0)
			continue;
		pt = &f->nodes[n].ports[q->hport[n]];
		leaf = lft_of_node(&s, pt->rnode);
		/* seen from another leaf */
		for (k = 0; k < f->nnodes; k++)
			if (q->level[k] == 1 && k != pt->rnode)
				break;
		leaf = lft_of_node(&s, k);
		for (j = 0; j < 4; j++) {
			used[j] = leaf->port[pt->lid + j];
			for (k = 0; k < j; k++)
				assert_int_not_equal(used[j], used[k]);
		}
	}
	lft_set_free(&s);
	pqft_free(q);
	fabric_free(f);
}

static void expect_refused(struct fabric *f, const char *spec, const char *what)
{
	struct pgft_params t;
	struct osmre_err err;
	struct pqft *q = pqft_new();

	assert_int_equal(topo_spec_parse(spec, &t, &err), 0);
	assert_int_equal(pqft_assign(q, f, &t, &err), -1);
	if (!strstr(err.msg, what))
		fail_msg("expected \"%s\", got \"%s\"", what, err.msg);
	pqft_free(q);
}

/* Fabrics that do not match their parameters: the first mismatch. */
static void test_mismatch(void **state)
{
	struct pgft_params t;
	struct osmre_err err;
	struct fabric *f = build("pgft(3;4,2,8;1,2,4;1,2,1)", &t, 0);
	int a, b;

	(void)state;
	/* a PGFT is no QFT, and other sizes are other sizes */
	expect_refused(f, "qft(3;4,2,8;1,2,4;1,2,1)", "subtrees");
	expect_refused(f, "pgft(3;4,2,4;1,2,4;1,2,1)",
		       "level 0 has 64 hosts, the topology 32");
	expect_refused(f, "pgft(2;4,16;1,4;1,1)",
		       "level 2 has 16 switches, the topology 4");
	fabric_free(f);
	/* two cables swapped between the top and the middle: the rule
	 * breaks on one of them */
	f = build("qft(3;4,2,8;1,2,4;1,2,1)", &t, 0);
	a = fabric_find(f, "S3_0_0_0");
	b = fabric_find(f, "S3_0_1_0");
	{
		struct fab_port pa = f->nodes[a].ports[1],
				pb = f->nodes[b].ports[2];

		f->nodes[a].ports[1] = pb;
		f->nodes[b].ports[2] = pa;
		f->nodes[pb.rnode].ports[pb.rport].rnode = a;
		f->nodes[pb.rnode].ports[pb.rport].rport = 1;
		f->nodes[pa.rnode].ports[pa.rport].rnode = b;
		f->nodes[pa.rnode].ports[pa.rport].rport = 2;
	}
	expect_refused(f, "qft(3;4,2,8;1,2,4;1,2,1)", "");
	fabric_free(f);
	(void)err;
}

/*
 * 200 seeded degradations (links and switches alternately, the Dmodc
 * paper's log-uniform amounts) of QFT(3;6,3,12;1,3,6;1,2,1).  The tests'
 * oracle decides whether every pair of leaves keeps an up-down path,
 * going by the true levels (in the generator's names "S<level>_...": a
 * switch that lost its links down is no new top level);
 * pqft must then give valid up-down tables, and otherwise refuse naming a
 * leaf and a host whose leaf the oracle agrees is cut off.  A throw that
 * splits the fabric is left out: OpenSM only ever gives an engine the
 * part it discovered.
 */
static void test_200_degradations(void **state)
{
	int throw, valid = 0, refused = 0, split = 0;

	(void)state;
	for (throw = 0; throw < 200; throw ++) {
		struct pgft_params t;
		struct fabric *f = build("qft(3;6,3,12;1,3,6;1,2,1)", &t, 0);
		enum degrade_kind kind =
			throw % 2 ? DEGRADE_SWITCHES : DEGRADE_LINKS;
		int *rank = malloc(sizeof(int) * (size_t)f->nnodes);
		int *comp = malloc(sizeof(int) * (size_t)f->nnodes);
		struct pqft *q = pqft_new();
		struct osmre_err err;
		struct lft_set s;
		struct rng r;
		long cand = degrade_candidates(f, kind), amount;
		int a, b, cut = 0, ncomp = 0;
		char *ud;

		assert_true(rank && comp && q);
		rng_seed(&r, 5000 + (uint64_t) throw);
		amount = degrade_loguniform(&r, log2((double)cand));
		assert_int_equal(degrade_remove(f, kind, amount, &r, &err), 0);
		assert_int_equal(lids_assign(f, 0, &err), 0);
		for (a = 0; a < f->nnodes; a++)
			rank[a] = f->nodes[a].type == FAB_SWITCH &&
						  !f->nodes[a].removed ?
					  f->nodes[a].name[1] - '1' :
					  -1;
		assert_int_equal(switch_components(f, comp), 0);
		for (a = 0; a < f->nnodes; a++)
			if (comp[a] >= 0 && comp[a] + 1 > ncomp)
				ncomp = comp[a] + 1;
		if (ncomp > 1) {
			split++;
			goto next;
		}
		ud = tu_updown_oracle(f, rank);
		for (a = 0; a < f->nnodes; a++)
			for (b = 0; b < f->nnodes; b++)
				if (rank[a] == 0 && rank[b] == 0 &&
				    !ud[(size_t)a * f->nnodes + b])
					cut = 1;
		assert_int_equal(lft_set_for_fabric(f, lids_max(f), &s, &err),
				 0);
		if (pqft_assign(q, f, &t, &err))
			fail_msg("throw %d (%ld %s): %s", throw, amount,
				 kind ? "switches" : "links", err.msg);
		if (!cut) {
			struct check_opts co = { .updown = 1,
						 .threads = 1,
						 .max_report = 3 };
			struct check_result cr;

			if (pqft_route(q, &s, 1 + throw % 3, &err))
				fail_msg("throw %d (%ld %s): %s", throw, amount,
					 kind ? "switches" : "links", err.msg);
			assert_int_equal(check_lfts(f, &s, &co, &cr, stderr,
						    &err),
					 0);
			if (!check_ok(&cr))
				fail_msg("throw %d (%ld %s): invalid tables",
					 throw, amount,
					 kind ? "switches" : "links");
			valid++;
		} else {
			char na[64], nb[64];
			int ia, ib, p;

			assert_int_equal(pqft_route(q, &s, 2, &err), -1);
			assert_int_equal(
				sscanf(err.msg,
				       "no up-down path from leaf \"%63[^\"]\" to \"%63[^\"]\"",
				       na, nb),
				2);
			ia = fabric_find(f, na);
			ib = fabric_find(f, nb);
			assert_true(ia >= 0 && ib >= 0);
			for (p = 1; p <= f->nodes[ib].nports; p++)
				if (f->nodes[ib].ports[p].rnode >= 0)
					ib = f->nodes[ib].ports[p].rnode;
			assert_int_equal(ud[(size_t)ia * f->nnodes + ib], 0);
			refused++;
		}
		free(ud);
		lft_set_free(&s);
next:
		free(rank);
		free(comp);
		pqft_free(q);
		fabric_free(f);
	}
	printf("200 degradations: %d routed valid and up-down, %d refused with a pair cut off, %d split\n",
	       valid, refused, split);
	assert_true(valid > 0 && refused > 0);
}

/* The oracle of swroutes.h, one pair at a time: hop distances from node a
 * to x over switch links, going up then down (phase 0 may still go up,
 * phase 1 only goes down; down_only: start in phase 1), or of any kind
 * (lvl NULL).  -1: none. */
static int sw_dist(const struct fabric *f, const int *lvl, int a, int x,
		   int down_only, int *dist, int *queue)
{
	int n2 = 2 * f->nnodes, head = 0, tail = 0, i, p;

	for (i = 0; i < n2; i++)
		dist[i] = -1;
	i = 2 * a + (down_only && lvl);
	dist[i] = 0;
	queue[tail++] = i;
	while (head < tail) {
		int st = queue[head++], n = st / 2, ph = st % 2;

		if (n == x)
			return dist[st];
		for (p = 1; p <= f->nodes[n].nports; p++) {
			int r = f->nodes[n].ports[p].rnode, next;

			if (r < 0 || f->nodes[r].type != FAB_SWITCH ||
			    f->nodes[r].removed)
				continue;
			if (!lvl)
				next = 2 * r;
			else if (lvl[r] == lvl[n] + 1 && lvl[n] > 0 && !ph)
				next = 2 * r;
			else if (lvl[r] == lvl[n] - 1 && lvl[r] > 0)
				next = 2 * r + 1;
			else
				continue;
			if (dist[next] < 0) {
				dist[next] = dist[st] + 1;
				queue[tail++] = next;
			}
		}
	}
	return -1;
}

/* every levelled switch's entry for every levelled switch's LID, against
 * the rule of swroutes.h: the smallest port one hop closer on a shortest
 * up-down path, or on a shortest path of any kind where there is none */
static void check_switch_lids(const struct fabric *f, const int *lvl,
			      const struct lft_set *s)
{
	int *dist = malloc(sizeof(int) * 2 * (size_t)f->nnodes);
	int *queue = malloc(sizeof(int) * 2 * (size_t)f->nnodes);
	int x, k, p;
	long checked = 0, any = 0;

	assert_true(dist && queue);
	for (x = 0; x < f->nnodes; x++) {
		unsigned lid = f->nodes[x].ports[0].lid;

		if (f->nodes[x].type != FAB_SWITCH || lvl[x] < 1 || !lid)
			continue;
		for (k = 0; k < f->nnodes; k++) {
			const struct lft *t = lft_of_node(s, k);
			int d, want = -1, kind = 1;

			if (lvl[k] < 1 || !t || lid > t->top)
				continue;
			if (k == x) {
				assert_int_equal(t->port[lid], 0);
				continue;
			}
			d = sw_dist(f, lvl, k, x, 0, dist, queue);
			if (d < 0) {
				kind = 0;
				d = sw_dist(f, NULL, k, x, 0, dist, queue);
				any++;
			}
			for (p = 1; p <= f->nodes[k].nports && d > 0; p++) {
				int r = f->nodes[k].ports[p].rnode, dr;

				if (r < 0 || f->nodes[r].type != FAB_SWITCH ||
				    f->nodes[r].removed)
					continue;
				if (!kind)
					dr = sw_dist(f, NULL, r, x, 0, dist,
						     queue);
				else if (lvl[r] == lvl[k] + 1)
					dr = sw_dist(f, lvl, r, x, 0, dist,
						     queue);
				else if (lvl[r] == lvl[k] - 1)
					dr = sw_dist(f, lvl, r, x, 1, dist,
						     queue);
				else
					continue;
				if (dr == d - 1) {
					want = p;
					break;
				}
			}
			if (d < 0)
				continue;
			if (t->port[lid] != want)
				fail_msg(
					"%s -> %s (%s path of %d): port %d, expected %d",
					f->nodes[k].name, f->nodes[x].name,
					kind ? "up-down" : "any", d,
					t->port[lid], want);
			checked++;
		}
	}
	printf("switch LIDs: %ld entries as the rule says, %ld by a path of any kind\n",
	       checked, any);
	free(dist);
	free(queue);
}

/* pqft's switch-LID routes (swroutes.c, 64 destinations per word) on
 * fabrics of more than 64 switches, complete and degraded, where some
 * switches have no up-down path to others */
static void test_switch_lids(void **state)
{
	static const struct {
		const char *spec;
		enum degrade_kind kind;
		int amount;
	} c[] = {
		{ "pgft(3;8,8,8;1,4,4;1,2,1)", DEGRADE_LINKS, 0 },
		{ "qft(3;8,8,8;1,4,4;1,2,1)", DEGRADE_LINKS, 0 },
		{ "pgft(3;8,8,8;1,4,4;1,2,1)", DEGRADE_LINKS, 30 },
		{ "qft(3;8,8,8;1,4,4;1,2,1)", DEGRADE_SWITCHES, 3 },
		{ "pgft(3;6,6,10;1,6,6;1,1,1)", DEGRADE_LINKS, 60 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct pgft_params t;
		struct fabric *f = build(c[i].spec, &t, 0);
		struct pqft *q = pqft_new();
		struct osmre_err err;
		struct lft_set s;
		struct rng r;

		assert_non_null(q);
		rng_seed(&r, 77 + i);
		if (c[i].amount)
			assert_int_equal(degrade_remove(f, c[i].kind,
							c[i].amount, &r, &err),
					 0);
		assert_int_equal(lids_assign(f, 0, &err), 0);
		assert_int_equal(lft_set_for_fabric(f, lids_max(f), &s, &err),
				 0);
		if (pqft_assign(q, f, &t, &err) || pqft_route(q, &s, 2, &err)) {
			/* a throw that cuts a leaf off: another seed */
			fail_msg("%s less %d: %s", c[i].spec, c[i].amount,
				 err.msg);
		}
		check_switch_lids(f, q->level, &s);
		lft_set_free(&s);
		pqft_free(q);
		fabric_free(f);
	}
}

/* Parameters read off complete fabrics, and off one missing a few links;
 * one missing a switch needs them given. */
static void test_infer(void **state)
{
	/* clang-format off */
	static const char *const specs[] = {
		"qft(3;4,2,8;1,2,4;1,2,1)", "pgft(3;4,2,8;1,2,4;1,2,1)",
		"qft(4;6,3,6,12;1,3,6,6;1,2,1,1)", "qft(4;4,4,2,4;1,4,2,4;1,1,2,1)",
		"qft(3;6,2,9;1,2,6;1,3,1)", "pgft(2;18,10;1,18;1,1)",
		"pgft(3;6,6,10;1,6,6;1,1,1)",
	};
	/* clang-format on */
	struct pgft_params t, got;
	struct osmre_err err;
	struct fabric *f;
	struct rng r;
	char buf[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		f = build(specs[i], &t, 0);
		if (pqft_infer(f, &got, &err))
			fail_msg("%s: %s", specs[i], err.msg);
		topo_spec_format(&got, buf, sizeof(buf));
		assert_string_equal(buf, specs[i]);
		fabric_free(f);
	}
	f = build("qft(3;6,3,12;1,3,6;1,2,1)", &t, 0);
	rng_seed(&r, 3);
	assert_int_equal(degrade_remove(f, DEGRADE_LINKS, 5, &r, &err), 0);
	assert_int_equal(pqft_infer(f, &got, &err), 0);
	topo_spec_format(&got, buf, sizeof(buf));
	assert_string_equal(buf, "qft(3;6,3,12;1,3,6;1,2,1)");
	fabric_free(f);
	f = build("qft(3;6,3,12;1,3,6;1,2,1)", &t, 0);
	assert_int_equal(degrade_remove(f, DEGRADE_SWITCHES, 1, &r, &err), 0);
	assert_int_equal(pqft_infer(f, &got, &err), -1);
	assert_non_null(
		strstr(err.msg, "a degraded fabric needs pqft_topology"));
	fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_contention_free),
		cmocka_unit_test(test_shuffled_guids),
		cmocka_unit_test(test_lmc),
		cmocka_unit_test(test_mismatch),
		cmocka_unit_test(test_infer),
		cmocka_unit_test(test_200_degradations),
		cmocka_unit_test(test_switch_lids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
