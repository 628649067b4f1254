/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cdg_route_lids (cdgroute.h): from up*-down* routes of every CA LID on
 * one VL, each destination routed again by load with the channel
 * dependency graph kept acyclic.  On a torus and a dragonfly (fabrics
 * where one root's up*-down* order crowds its links): the tables stay
 * valid, the paths to the LIDs routed again acyclic on their VL (per the
 * analyzer), the most loaded link carries fewer routes, and LIDs not
 * asked for keep their entries; cdg_refine_lids then never raises the
 * A2A risk and keeps the paths acyclic.  The same with Nue's path weights
 * and a spanning tree's routes to start from (CDG_WEIGHTED,
 * CDG_TREE_START), alone and together, on those fabrics and on a
 * dragonfly with failed links, where they must give other tables.
 * The A2A and RP risks the passes are judged by, against their
 * definition and osmre analyze's figure.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdg.h"
#include "cdgroute.h"
#include "congestion.h"
#include "check.h"
#include "degrade.h"
#include "dmodc.h"
#include "lids.h"
#include "risk.h"
#include "rng.h"
#include "slmap.h"
#include "updn.h"
#include "testutil.h"

struct load {
	const struct fabric *f;
	long *n; /* per (node, port) */
	int stride;
};

static void count(void *arg, int node, int port)
{
	struct load *l = arg;

	if (fab_is_switch(&l->f->nodes[node]))
		l->n[(size_t)node * l->stride + port]++;
}

/* 1 when port p of node n is a CA port with a link. */
static int ca_port(const struct fabric *f, int n, int p)
{
	return !fab_is_switch(&f->nodes[n]) && p <= f->nodes[n].nports &&
	       f->nodes[n].ports[p].rnode >= 0;
}

/* The most CA-to-CA routes over one switch port. */
static long max_load(const struct fabric *f, const struct lft_set *s)
{
	struct load l = { f, NULL, FAB_MAX_PORTS + 1 };
	long m = 0;
	size_t i;
	int a, ap, b, bp;

	l.n = calloc((size_t)f->nnodes * l.stride, sizeof(long));
	assert_non_null(l.n);
	for (a = 0; a < f->nnodes; a++)
		for (ap = 1; ap <= f->nodes[a].nports; ap++)
			for (b = 0; ca_port(f, a, ap) && b < f->nnodes; b++)
				for (bp = 1; b != a && bp <= f->nodes[b].nports;
				     bp++) {
					if (!ca_port(f, b, bp))
						continue;
					assert_true(tu_walk(f, s, a, ap,
							    f->nodes[b]
								    .ports[bp]
								    .lid,
							    count, &l) >= 0);
				}
	for (i = 0; i < (size_t)f->nnodes * l.stride; i++)
		if (l.n[i] > m)
			m = l.n[i];
	free(l.n);
	return m;
}

/* a2a_oracle's marks on the switch-to-switch channels a walk crosses. */
struct a2a_mark {
	const struct fabric *f;
	long *cnt, *stamp; /* per (node, port) */
	long key;
	int stride;
};

static void a2a_visit(void *arg, int node, int port)
{
	struct a2a_mark *m = arg;
	const struct fab_port *pt = &m->f->nodes[node].ports[port];
	size_t k = (size_t)node * m->stride + port;

	if (!fab_is_switch(&m->f->nodes[node]) || pt->rnode < 0 ||
	    !fab_is_switch(&m->f->nodes[pt->rnode]) || m->stamp[k] == m->key)
		return;
	m->stamp[k] = m->key;
	m->cnt[k]++;
}

/* Every CA-to-CA route walked into m: with by_dest, destinations outside
 * (a stamp per destination LID), else sources (a stamp per port). */
static void a2a_walks(const struct fabric *f, const struct lft_set *s,
		      struct a2a_mark *m, int by_dest)
{
	int x, xp, y, yp;

	for (x = 0; x < f->nnodes; x++)
		for (xp = 1; xp <= f->nodes[x].nports; xp++)
			for (y = 0; ca_port(f, x, xp) && y < f->nnodes; y++)
				for (yp = 1; yp <= f->nodes[y].nports; yp++) {
					int a = by_dest ? y : x,
					    ap = by_dest ? yp : xp;
					unsigned lid =
						by_dest ? f->nodes[x]
								  .ports[xp]
								  .lid :
							  f->nodes[y]
								  .ports[yp]
								  .lid;

					if (!ca_port(f, y, yp) || !lid ||
					    (x == y && xp == yp))
						continue;
					m->key = by_dest ? (long)lid :
							   (long)a * m->stride +
								   ap;
					(void)tu_walk(f, s, a, ap, lid,
						      a2a_visit, m);
				}
}

/* The A2A risk of risk.h from its definition: per switch-to-switch
 * channel, the distinct source CA ports and the distinct destination
 * LIDs whose routes (tu_walk, every channel a looping route crosses
 * too) cross it; the most of the lesser, at least 1. */
static long a2a_oracle(const struct fabric *f, const struct lft_set *s)
{
	size_t n = (size_t)f->nnodes * (FAB_MAX_PORTS + 1);
	struct a2a_mark src = { f, calloc(n, sizeof(long)),
				malloc(n * sizeof(long)), 0,
				FAB_MAX_PORTS + 1 };
	struct a2a_mark dst = { f, calloc(n, sizeof(long)),
				malloc(n * sizeof(long)), 0,
				FAB_MAX_PORTS + 1 };
	long best = 1;
	size_t k;

	assert_true(src.cnt && src.stamp && dst.cnt && dst.stamp);
	for (k = 0; k < n; k++)
		src.stamp[k] = dst.stamp[k] = -1;
	a2a_walks(f, s, &src, 0);
	a2a_walks(f, s, &dst, 1);
	for (k = 0; k < n; k++) {
		long m = src.cnt[k] < dst.cnt[k] ? src.cnt[k] : dst.cnt[k];

		if (m > best)
			best = m;
	}
	free(src.cnt);
	free(src.stamp);
	free(dst.cnt);
	free(dst.stamp);
	return best;
}

/* 1 when the paths to the LIDs in want (VL 0) and to the others (VL 1)
 * are each acyclic on their VL. */
static int acyclic(const struct fabric *f, const struct lft_set *s,
		   const uint8_t *want, unsigned top)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	struct osmre_err err;
	struct cdg_result c;
	struct sl_map m;
	unsigned lid;
	int ok;

	assert_non_null(fp);
	fprintf(fp, "default 1\n");
	for (lid = 1; lid <= top; lid++)
		if (want[lid])
			fprintf(fp, "dest %u 0\n", lid);
	fclose(fp);
	fp = fmemopen(text, len, "r");
	assert_non_null(fp);
	if (sl_map_read_stream(fp, "sls", f, &m, &err) ||
	    cdg_check(f, s, &m, &c, &err))
		fail_msg("%s", err.msg);
	fclose(fp);
	free(text);
	ok = c.acyclic;
	cdg_result_free(&c);
	sl_map_free(&m);
	return ok;
}

static const char *flag_name(int flags)
{
	switch (flags) {
	case 0:
		return "shortest first";
	case CDG_WEIGHTED:
		return "weighted";
	case CDG_TREE_START:
		return "tree start";
	default:
		return "weighted, tree start";
	}
}

/* want: every CA LID, or (odd) every other one; flags: CDG_*.  The
 * tables routed, for the caller to compare (free them); failed: some
 * of f's links failed. */
static void route(const char *name, struct fabric *f, int odd, int flags,
		  int failed, struct lft_set *out)
{
	struct osmre_err err;
	struct lft_set s, before;
	struct check_opts co = { .updown = 0, .threads = 1 };
	struct check_result cr;
	struct cdgroute_info ci;
	struct risk_order ord;
	unsigned top = lids_max(f), lid;
	uint8_t *want = calloc(top + 1, 1);
	long m0, m1, kept = 0, moved = 0;
	int i, p;

	assert_non_null(want);
	for (i = 0; i < f->nnodes; i++)
		for (p = 1;
		     !fab_is_switch(&f->nodes[i]) && p <= f->nodes[i].nports;
		     p++)
			if (f->nodes[i].ports[p].lid &&
			    (!odd || f->nodes[i].ports[p].lid % 2))
				want[f->nodes[i].ports[p].lid] = 1;
	assert_int_equal(lft_set_for_fabric(f, top, &s, &err), 0);
	/* every CA LID up*-down* first (the not wanted ones too) */
	memset(want, 1, top + 1);
	assert_int_equal(updn_route_lids(f, NULL, &s, want, top, NULL, &err),
			 0);
	for (lid = 0; lid <= top; lid++)
		want[lid] = !odd || lid % 2;
	assert_int_equal(lft_set_clone(&s, &before, &err), 0);
	m0 = max_load(f, &s);
	assert_true(acyclic(f, &s, want, top));
	assert_int_equal(dmodc_host_order(f, &ord, &err), 0);
	assert_int_equal(cdg_route_lids(f, &s, want, top, &ord, flags, &ci,
					&err),
			 0);
	assert_int_equal(check_lfts(f, &s, &co, &cr, NULL, &err), 0);
	/* CA LIDs only: the switch LIDs have no routes here */
	if (cr.unreachable || cr.loops)
		fail_msg("%s: %ld CA pairs unreachable, %ld loops", name,
			 cr.unreachable, cr.loops);
	if (!acyclic(f, &s, want, top))
		fail_msg("%s: a cycle on the VL of the LIDs routed again",
			 name);
	m1 = max_load(f, &s);
	for (i = 0; i < s.n; i++)
		for (lid = 1; lid <= top; lid++)
			if (s.t[i].port[lid] != before.t[i].port[lid]) {
				if (!want[lid])
					fail_msg(
						"%s: LID %u not asked for moved",
						name, lid);
				moved++;
			} else if (!want[lid]) {
				kept++;
			}
	printf("%s%s, %s: %ld LIDs, %ld routed again (%ld switches longer); most loaded port %ld -> %ld routes; %ld entries moved\n",
	       name, odd ? " (odd LIDs)" : "", flag_name(flags), ci.lids,
	       ci.rerouted, ci.longer, m0, m1, moved);
	assert_true(ci.rerouted > 0);
	/* the A2A it reports is the tables' as left, by definition */
	{
		long a;

		assert_int_equal(risk_a2a(f, &s, &ord, &a, &err), 0);
		assert_int_equal(ci.a2a, a);
		assert_int_equal(a, a2a_oracle(f, &s));
	}
	/* from up*-down* routes on an intact fabric: fewer routes on the
	 * most loaded port (a tree's routes to start from, or a failed
	 * fabric, make no such promise) */
	if (!(flags & CDG_TREE_START) && !failed) {
		assert_true(m1 <= m0);
		if (!odd)
			assert_true(m1 < m0);
	}
	assert_int_equal(lft_set_clone(&s, out, &err), 0);
	/* once more, the routes as they are the first pass: never a higher
	 * A2A risk, still acyclic */
	{
		struct lft_set s2;
		long a0, a1, known, unknown = -1;

		/* the same with the A2A as given known or not */
		assert_int_equal(lft_set_clone(&s, &s2, &err), 0);
		assert_int_equal(risk_a2a(f, &s, &ord, &a0, &err), 0);
		known = a0;
		assert_int_equal(cdg_refine_lids(f, &s, want, top, &ord, flags,
						 &known, &err),
				 0);
		assert_int_equal(cdg_refine_lids(f, &s2, want, top, &ord, flags,
						 &unknown, &err),
				 0);
		assert_true(lft_set_equal(&s, &s2, NULL, 0));
		assert_int_equal(risk_a2a(f, &s, &ord, &a1, &err), 0);
		printf("%s%s: routed again on those routes, A2A %ld -> %ld\n",
		       name, odd ? " (odd LIDs)" : "", a0, a1);
		assert_int_equal(known, a1);
		assert_int_equal(unknown, a1);
		assert_true(a1 <= a0);
		assert_true(acyclic(f, &s, want, top));
		lft_set_free(&s2);
	}
	risk_order_free(&ord);
	lft_set_free(&before);
	lft_set_free(&s);
	free(want);
}

/* Each way of growing the trees; those with CDG_WEIGHTED or
 * CDG_TREE_START must differ from shortest first somewhere (changed). */
static void route_all_ways(const char *name, struct fabric *f, int odd,
			   int failed, int *changed)
{
	static const int ways[] = { 0, CDG_WEIGHTED, CDG_TREE_START,
				    CDG_WEIGHTED | CDG_TREE_START };
	struct lft_set t[4];
	char diff[64];
	int k;

	for (k = 0; k < 4; k++) {
		route(name, f, odd, ways[k], failed, &t[k]);
		if (k && !lft_set_equal(&t[0], &t[k], diff, sizeof(diff)))
			changed[k]++;
	}
	for (k = 0; k < 4; k++)
		lft_set_free(&t[k]);
}

static int changed[4];

static void test_torus(void **state)
{
	char *net = tu_torus(6, 6);
	struct fabric *f = tu_from_text(net, 0);

	(void)state;
	route_all_ways("6x6 torus", f, 0, 0, changed);
	route_all_ways("6x6 torus", f, 1, 0, changed);
	fabric_free(f);
	free(net);
}

static void test_dragonfly(void **state)
{
	char *net = tu_dragonfly(4);
	struct fabric *f = tu_from_text(net, 0);

	(void)state;
	route_all_ways("dragonfly a=4", f, 0, 0, changed);
	fabric_free(f);
	free(net);
}

/* A dragonfly with a third of its switch links failed (still
 * connected): the trees of each way valid and acyclic, and the ways
 * other than shortest first change the tables on one fabric at least. */
static void test_failed(void **state)
{
	char *net = tu_dragonfly(4);
	struct fabric *f = tu_from_text(net, 0);
	struct osmre_err err;
	struct rng rg;
	long sw;
	int k;

	(void)state;
	rng_seed(&rg, 7);
	assert_int_equal(degrade_remove(f, DEGRADE_LINKS,
					degrade_candidates(f, DEGRADE_LINKS) /
						3,
					&rg, &err),
			 0);
	assert_int_equal(tu_cross_part_pairs(f, &sw), 0);
	assert_int_equal(lids_assign(f, 0, &err), 0);
	route_all_ways("dragonfly a=4, a third of its links failed", f, 0, 1,
		       changed);
	for (k = 1; k < 4; k++)
		assert_true(changed[k] > 0);
	fabric_free(f);
	free(net);
}

/* Every CA LID of f routed up*-down* into s (made here), with want
 * marking them all (returned, the caller frees it) and dmodc's order of
 * the CA ports in ord. */
static uint8_t *updn_every_lid(struct fabric *f, struct lft_set *s,
			       struct risk_order *ord)
{
	struct osmre_err err;
	unsigned top = lids_max(f);
	uint8_t *want = malloc(top + 1);

	assert_non_null(want);
	memset(want, 1, top + 1);
	assert_int_equal(lft_set_for_fabric(f, top, s, &err), 0);
	assert_int_equal(updn_route_lids(f, NULL, s, want, top, NULL, &err), 0);
	assert_int_equal(dmodc_host_order(f, ord, &err), 0);
	return want;
}

/*
 * risk_a2a by its definition (a2a_oracle) on up*-down* tables, then with
 * every LID's route looping round three switches (counted as walked:
 * risk.c then walks every route, as the sets by trees would miss
 * sources that enter a loop after the channel).
 */
static void test_a2a_loop(void **state)
{
	char *net = tu_dragonfly(4);
	struct fabric *f = tu_from_text(net, 0);
	struct osmre_err err;
	struct risk_order ord;
	struct lft_set s;
	unsigned top = lids_max(f);
	uint8_t *want = updn_every_lid(f, &s, &ord);
	int v, done = 0;
	long a;

	(void)state;
	assert_int_equal(risk_a2a(f, &s, &ord, &a, &err), 0);
	assert_int_equal(a, a2a_oracle(f, &s));
	/* three switches linked in a triangle (a dragonfly group's) send
	 * every LID round it, v to u to w to v: routes from elsewhere enter
	 * the loop at any of the three */
	for (v = 0; v < f->nnodes && !done; v++) {
		int pu, pw, pv, u, w;

		if (!fab_is_switch(&f->nodes[v]))
			continue;
		for (pu = 1; pu <= f->nodes[v].nports && !done; pu++) {
			u = f->nodes[v].ports[pu].rnode;
			if (u < 0 || !fab_is_switch(&f->nodes[u]))
				continue;
			for (pw = 1; pw <= f->nodes[u].nports && !done; pw++) {
				unsigned lid;

				w = f->nodes[u].ports[pw].rnode;
				if (w < 0 || w == v ||
				    !fab_is_switch(&f->nodes[w]))
					continue;
				for (pv = 1; pv <= f->nodes[w].nports; pv++)
					if (f->nodes[w].ports[pv].rnode == v)
						break;
				if (pv > f->nodes[w].nports)
					continue;
				for (lid = 1; lid <= top; lid++) {
					lft_of_node(&s, v)->port[lid] =
						(uint8_t)pu;
					lft_of_node(&s, u)->port[lid] =
						(uint8_t)pw;
					lft_of_node(&s, w)->port[lid] =
						(uint8_t)pv;
					done++;
				}
			}
		}
	}
	assert_true(done > 0);
	assert_int_equal(risk_a2a(f, &s, &ord, &a, &err), 0);
	assert_int_equal(a, a2a_oracle(f, &s));
	printf("dragonfly a=4, %d LIDs' routes looping round three switches: A2A %ld, as walked\n",
	       done, a);
	risk_order_free(&ord);
	lft_set_free(&s);
	free(want);
	fabric_free(f);
	free(net);
}

/* A ring of four 8-port switches R<i>, six hosts on each: risk_rp
 * looks each switch's channels up once here (few switches for the
 * permutations), where the dragonfly below reads the tables. */
static char *ring4(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	int i, h;

	assert_non_null(fp);
	for (i = 0; i < 4; i++) {
		fprintf(fp, "Switch\t8 \"R%d\"\n", i);
		fprintf(fp, "[1]\t\"R%d\"[2]\n", (i + 1) % 4);
		fprintf(fp, "[2]\t\"R%d\"[1]\n", (i + 3) % 4);
		for (h = 0; h < 6; h++)
			fprintf(fp, "[%d]\t\"r%d_%d\"[1]\n", h + 3, i, h);
		fprintf(fp, "\n");
	}
	for (i = 0; i < 4; i++)
		for (h = 0; h < 6; h++)
			fprintf(fp, "Hca\t1 \"r%d_%d\"\n[1]\t\"R%d\"[%d]\n\n",
				i, h, i, h + 3);
	fclose(fp);
	return buf;
}

/*
 * risk_rp against osmre analyze's RP (cong_random_perms, the analyzer's
 * own walks), on f routed up*-down* and then by load: the permutations
 * drawn per call, stored for the same count and seed (risk_order_perms),
 * and stored for another (then drawn again): always analyze's figure.
 * The patterns' figures must differ (differ), so reading a wrong stored
 * set shows; 3 from seed 3 has a median that no single one of its
 * permutations has.  The stored permutations are also checked one by
 * one against rng_permutation.
 */
static void rp_perms_on(struct fabric *f, const char *name, int *differ)
{
	static const struct {
		int nperm;
		uint64_t seed;
	} pat[] = { { 1, 3 }, { 1, 4 }, { 1, 5 }, { 3, 3 }, { 20, 7 } };
	const int npat = (int)(sizeof(pat) / sizeof(pat[0]));
	struct osmre_err err;
	struct risk_order ord;
	struct cong_order co;
	struct lft_set s;
	unsigned top = lids_max(f);
	uint8_t *want = updn_every_lid(f, &s, &ord);
	int *perm;
	int pass, i, k, x;
	long first = -1;

	assert_int_equal(cong_order_make(f, CONG_ORDER_NID, &co, &err), 0);
	perm = malloc(((size_t)ord.n + 1) * sizeof(int));
	assert_non_null(perm);
	for (pass = 0; pass < 2; pass++) {
		if (pass) /* other tables: by load */
			assert_int_equal(cdg_route_lids(f, &s, want, top, &ord,
							0, NULL, &err),
					 0);
		for (i = 0; i < npat; i++) {
			struct cong_result cr;
			long drawn, same, other;
			int j = (i + 1) % npat;

			assert_int_equal(cong_random_perms(f, &s, &co,
							   pat[i].nperm,
							   pat[i].seed, 1, &cr,
							   &err),
					 0);
			assert_int_equal(risk_order_perms(&ord, 0, 0, &err), 0);
			assert_null(ord.perm);
			assert_int_equal(risk_rp(f, &s, &ord, pat[i].nperm,
						 pat[i].seed, &drawn, &err),
					 0);
			assert_int_equal(risk_order_perms(&ord, pat[i].nperm,
							  pat[i].seed, &err),
					 0);
			assert_non_null(ord.perm);
			for (k = 0; k < pat[i].nperm; k++) {
				struct rng r;

				rng_seed(&r, pat[i].seed + (uint64_t)k);
				rng_permutation(&r, perm, ord.n);
				for (x = 0; x < ord.n; x++)
					assert_int_equal(
						ord.perm[(size_t)k * ord.n + x],
						perm[x]);
			}
			assert_int_equal(risk_rp(f, &s, &ord, pat[i].nperm,
						 pat[i].seed, &same, &err),
					 0);
			/* another pattern's stored: these drawn again */
			assert_int_equal(risk_order_perms(&ord, pat[j].nperm,
							  pat[j].seed, &err),
					 0);
			assert_int_equal(risk_rp(f, &s, &ord, pat[i].nperm,
						 pat[i].seed, &other, &err),
					 0);
			assert_int_equal(drawn, cr.risk);
			assert_int_equal(same, cr.risk);
			assert_int_equal(other, cr.risk);
			if (!i)
				first = drawn;
			*differ += drawn != first;
			printf("%s, RP over %d permutation(s) from seed %llu, %s: %ld, as analyze's\n",
			       name, pat[i].nperm,
			       (unsigned long long)pat[i].seed,
			       pass ? "by load" : "up*-down*", drawn);
		}
	}
	free(perm);
	cong_order_free(&co);
	risk_order_free(&ord);
	lft_set_free(&s);
	free(want);
}

/* rp_perms_on a ring of 4 switches and on a dragonfly with a third of
 * its links failed; on each the patterns' figures differ. */
static void test_rp_perms(void **state)
{
	char *net = ring4();
	struct fabric *f = tu_from_text(net, 0);
	struct osmre_err err;
	struct rng rg;
	int differ = 0;

	(void)state;
	assert_int_equal(lids_assign(f, 0, &err), 0);
	rp_perms_on(f, "ring of 4 switches", &differ);
	assert_true(differ > 0);
	fabric_free(f);
	free(net);
	net = tu_dragonfly(4);
	f = tu_from_text(net, 0);
	rng_seed(&rg, 11);
	assert_int_equal(degrade_remove(f, DEGRADE_LINKS,
					degrade_candidates(f, DEGRADE_LINKS) /
						3,
					&rg, &err),
			 0);
	assert_int_equal(lids_assign(f, 0, &err), 0);
	differ = 0;
	rp_perms_on(f, "dragonfly a=4, a third failed", &differ);
	assert_true(differ > 0);
	fabric_free(f);
	free(net);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_torus),
		cmocka_unit_test(test_dragonfly),
		cmocka_unit_test(test_failed),
		cmocka_unit_test(test_a2a_loop),
		cmocka_unit_test(test_rp_perms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
