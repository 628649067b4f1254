/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dmodc_stable (stable_cols.h) on seeded random degradations of PGFTs:
 * links and switches lost, then more lost on top of the stable tables,
 * then the intact fabric back.  Every table set is walked here, switch by
 * switch and LID by LID, with the tests' own walker:
 *  - a CA LID: wherever full dmodc routes from a switch, the stable route
 *    from it reaches the destination port without a loop, up then down
 *    under the ranks; where full dmodc has no entry, neither has the
 *    stable pass;
 *  - a switch LID: wherever either routes, the stable route reaches the
 *    switch without a loop;
 *  - after a loss from dmodc's tables, no route is longer than full
 *    dmodc's (a switch LID's: at most 4 hops longer); after a loss on top
 *    of stable tables, or with the links back, kept routes may be longer;
 *  - every previous route that still works (and is up-down for a CA LID)
 *    is kept, entry for entry;
 *  - the stable pass changes no more entries than full dmodc, and on the
 *    whole fewer blocks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "degrade.h"
#include "engine_table.h"
#include "lids.h"
#include "ranks.h"
#include "testutil.h"

struct walk {
	int len;     /* links between switches, -1 when it fails */
	int updown;  /* no down-then-up turn under the ranks */
	int reached; /* 1 when it gets to the destination */
};

/* Follows s from switch node x to LID lid of (dn, dp). */
static struct walk walk(const struct fabric *f, const struct lft_set *s,
			const int *rank, int x, unsigned lid, int dn, int dp)
{
	struct walk w = { 0, 1, 0 };
	int down = 0, steps;

	for (steps = 0; steps <= f->nnodes; steps++) {
		const struct lft *t = lft_of_node(s, x);
		int p = t ? lft_get(t, lid) : LFT_NONE, r;

		if (p == LFT_NONE || p > f->nodes[x].nports)
			break;
		if (p == 0) {
			w.reached = x == dn;
			return w;
		}
		r = f->nodes[x].ports[p].rnode;
		if (r < 0)
			break;
		if (f->nodes[r].type != FAB_SWITCH) {
			w.reached = r == dn && f->nodes[x].ports[p].rport == dp;
			return w;
		}
		if (rank[r] > rank[x] && down)
			w.updown = 0;
		if (rank[r] < rank[x])
			down = 1;
		if (rank[r] == rank[x])
			w.updown = 0;
		w.len++;
		x = r;
	}
	w.len = -1;
	return w;
}

struct tally {
	long cases, kept_checked, entries_stable, entries_full, blocks_stable,
		blocks_full;
};

/* The checks of the file's head comment on stable (from prev) and full,
 * both routed on g. */
static void check_stable(const struct fabric *g, const struct lft_set *prev,
			 const struct lft_set *stable,
			 const struct lft_set *full, int lengths,
			 struct tally *ty, const char *what)
{
	int *rank = malloc(sizeof(int) * ((size_t)g->nnodes + 1)), i;
	struct lid_owner *own;
	struct osmre_err err;
	unsigned max, lid;
	long es, ef;

	assert_non_null(rank);
	ranks_compute(g, rank);
	assert_int_equal(lids_owners(g, &own, &max, &err), 0);
	for (lid = 1; lid <= max; lid++) {
		int dn = own[lid].node, dp = own[lid].port, ca;

		if (dn < 0 || g->nodes[dn].removed)
			continue;
		ca = g->nodes[dn].type != FAB_SWITCH;
		for (i = 0; i < stable->n; i++) {
			int x = stable->t[i].node;
			const struct lft *ft = lft_of_node(full, x),
					 *pt = lft_of_node(prev, x);
			int fp = ft ? lft_get(ft, lid) : LFT_NONE,
			    sp = lft_get(&stable->t[i], lid);
			struct walk ws, wf, wp;

			if (x < 0 || g->nodes[x].removed)
				continue;
			wf = walk(g, full, rank, x, lid, dn, dp);
			ws = walk(g, stable, rank, x, lid, dn, dp);
			wp = walk(g, prev, rank, x, lid, dn, dp);
			if (ca && fp == LFT_NONE) {
				if (sp != LFT_NONE)
					fail_msg(
						"%s: LID %u at %s: an entry where dmodc has none",
						what, lid, g->nodes[x].name);
				continue;
			}
			if (fp == LFT_NONE && sp == LFT_NONE)
				continue;
			if (!ws.reached || ws.len < 0 || (ca && !ws.updown))
				fail_msg("%s: LID %u from %s: %s", what, lid,
					 g->nodes[x].name,
					 !ws.reached ? "does not get there" :
						       "not up-down");
			if (lengths && fp != LFT_NONE && wf.reached &&
			    ws.len > wf.len + (ca ? 0 : 4))
				fail_msg(
					"%s: LID %u from %s: %d links, dmodc %d",
					what, lid, g->nodes[x].name, ws.len,
					wf.len);
			if (wp.reached && (!ca || wp.updown)) {
				ty->kept_checked++;
				if (sp != lft_get(pt, lid))
					fail_msg(
						"%s: LID %u at %s: a working route changed (%d -> %d)",
						what, lid, g->nodes[x].name,
						lft_get(pt, lid), sp);
			}
		}
	}
	es = lft_set_entries_changed(stable, prev);
	ef = lft_set_entries_changed(full, prev);
	if (es > ef)
		fail_msg("%s: %ld entries changed, full dmodc %ld", what, es,
			 ef);
	ty->entries_stable += es;
	ty->entries_full += ef;
	ty->blocks_stable += lft_set_blocks_changed(stable, prev, NULL);
	ty->blocks_full += lft_set_blocks_changed(full, prev, NULL);
	ty->cases++;
	free(own);
	free(rank);
}

/* dmodc on f into r, stable from prev when not NULL: 0, or -1 when dmodc
 * refuses f. */
static int route(const struct fabric *f, const struct lft_set *prev,
		 struct route_result *r)
{
	const struct engine *e = engine_find("dmodc");
	struct engine_opts o;
	struct osmre_err err;

	engine_opts_defaults(&o);
	o.threads = 2;
	o.prev = prev;
	o.stable = prev != NULL;
	if (!engine_route(e, &o, f, r, &err))
		return 0;
	if (prev)
		fail_msg("dmodc_stable: %s", err.msg);
	route_result_free(r);
	return -1;
}

/* g degraded from what f had; stable from prev and full on g checked. */
static int one_step(const struct fabric *g, const struct lft_set *prev,
		    int lengths, struct route_result *stable, struct tally *ty,
		    const char *what)
{
	struct route_result full;

	if (route(g, NULL, &full))
		return -1; /* dmodc refuses g (no up-down path) */
	assert_int_equal(route(g, prev, stable), 0);
	check_stable(g, prev, &stable->tables, &full.tables, lengths, ty, what);
	route_result_free(&full);
	return 0;
}

/* Min-hop tables on f over any path (down-up turns included), the
 * smallest port one hop closer: tables no fat-tree engine would give, as
 * a table file of another engine may be. */
static void minhop(const struct fabric *f, struct lft_set *s)
{
	int *dist = malloc(sizeof(int) * ((size_t)f->nnodes + 1)),
	    *q = malloc(sizeof(int) * ((size_t)f->nnodes + 1));
	struct lid_owner *own;
	struct osmre_err err;
	unsigned max, lid;

	assert_true(dist && q);
	assert_int_equal(lft_set_for_fabric(f, lids_max(f), s, &err), 0);
	assert_int_equal(lids_owners(f, &own, &max, &err), 0);
	for (lid = 1; lid <= max; lid++) {
		int dn = own[lid].node, root = dn, head = 0, tail = 0, i, p;

		if (dn < 0 || f->nodes[dn].removed)
			continue;
		if (f->nodes[dn].type != FAB_SWITCH)
			root = f->nodes[dn].ports[own[lid].port].rnode;
		if (root < 0)
			continue;
		for (i = 0; i < f->nnodes; i++)
			dist[i] = -1;
		dist[root] = 0;
		q[tail++] = root;
		while (head < tail) {
			int x = q[head++];

			for (p = 1; p <= f->nodes[x].nports; p++) {
				int r = f->nodes[x].ports[p].rnode;

				if (r >= 0 && f->nodes[r].type == FAB_SWITCH &&
				    dist[r] < 0) {
					dist[r] = dist[x] + 1;
					q[tail++] = r;
				}
			}
		}
		for (i = 0; i < s->n; i++) {
			int x = s->t[i].node;

			if (x < 0 || dist[x] < 0)
				continue;
			if (x == root) {
				s->t[i].port[lid] =
					(uint8_t)(x == dn ?
							  0 :
							  f->nodes[dn]
								  .ports[own[lid].port]
								  .rport);
				continue;
			}
			for (p = 1; p <= f->nodes[x].nports; p++) {
				int r = f->nodes[x].ports[p].rnode;

				if (r >= 0 && f->nodes[r].type == FAB_SWITCH &&
				    dist[r] == dist[x] - 1) {
					s->t[i].port[lid] = (uint8_t)p;
					break;
				}
			}
		}
	}
	free(own);
	free(q);
	free(dist);
}

static void run_fabric(const char *h, const char *m, const char *w,
		       const char *p, int lmc, struct tally *ty)
{
	struct fabric *f = tu_pgft(h, m, w, p, lmc);
	struct route_result base;
	int seed;

	assert_int_equal(route(f, NULL, &base), 0);
	for (seed = 1; seed <= 6; seed++) {
		static const long amount[] = { 1, 1, 4, 2, 30, 3 };
		enum degrade_kind kind =
			seed % 2 ? DEGRADE_LINKS : DEGRADE_SWITCHES;
		struct fabric *g = fabric_clone(f), *g2;
		struct route_result s1, s2, back;
		struct osmre_err err;
		struct rng r;
		char what[128];

		assert_non_null(g);
		rng_seed(&r, (uint64_t)seed * 7919);
		if (degrade_remove(g, kind, amount[seed - 1], &r, &err))
			fail_msg("%s", err.msg);
		snprintf(what, sizeof(what), "PGFT(%s;%s;%s;%s) seed %d", h, m,
			 w, p, seed);
		if (one_step(g, &base.tables, 1, &s1, ty, what)) {
			fabric_free(g);
			continue;
		}
		/* from min-hop tables, down-up turns and all */
		{
			struct lft_set mh;
			struct route_result sm;

			minhop(g, &mh);
			strcat(what, ", from min-hop");
			assert_int_equal(one_step(g, &mh, 1, &sm, ty, what), 0);
			what[strlen(what) - strlen(", from min-hop")] = 0;
			route_result_free(&sm);
			lft_set_free(&mh);
		}
		/* more lost on top of the stable tables */
		g2 = fabric_clone(g);
		assert_non_null(g2);
		if (degrade_remove(g2, DEGRADE_LINKS, 3, &r, &err))
			fail_msg("%s", err.msg);
		strcat(what, ", then 3 links");
		if (!one_step(g2, &s1.tables, 0, &s2, ty, what))
			route_result_free(&s2);
		/* the intact fabric back */
		strcat(what, ", then all back");
		assert_int_equal(one_step(f, &s1.tables, 0, &back, ty, what),
				 0);
		route_result_free(&back);
		route_result_free(&s1);
		fabric_free(g2);
		fabric_free(g);
	}
	route_result_free(&base);
	fabric_free(f);
}

static void test_degradations(void **state)
{
	struct tally ty = { 0 };

	(void)state;
	/* (OSMRE_TEST_QUICK, the sanitizer builds: the smaller fabrics) */
	if (!getenv("OSMRE_TEST_QUICK"))
		run_fabric("3", "6,6,18", "1,6,6", "1,1,1", 0, &ty);
	run_fabric("3", "4,4,8", "1,4,4", "1,2,1", 1, &ty);
	run_fabric("2", "8,16", "1,8", "1,1", 0, &ty);
	run_fabric("4", "4,2,2,4", "1,2,2,2", "1,1,1,1", 0, &ty);
	run_fabric("4", "2,3,3,4", "1,3,2,3", "1,1,2,1", 0, &ty);
	run_fabric("3", "6,3,4", "1,3,6", "1,2,1", 0, &ty);
	printf("dmodc_stable: %ld cases, %ld working routes kept; entries changed %ld (full dmodc %ld), blocks %ld (%ld)\n",
	       ty.cases, ty.kept_checked, ty.entries_stable, ty.entries_full,
	       ty.blocks_stable, ty.blocks_full);
	assert_true(ty.cases >= 30);
	assert_true(ty.blocks_stable < ty.blocks_full);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degradations),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
