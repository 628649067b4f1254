/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Dragonfly-class fabrics (paper 002): the generators' counts for Table 1
 * computed here from the names and links alone, absurd parameters, sar's
 * routes on intact fabrics (dragonfly-minimal, at most 3 layers, acyclic
 * per the analyzer) and under random link failures for every VL budget
 * (valid, acyclic, never over the budget; a split fabric refused), and
 * the same tables however the LIDs are numbered.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "components.h"
#include "congestion.h"
#include "degrade.h"
#include "dragonfly.h"
#include "lids.h"
#include "sar.h"
#include "swgraph.h"
#include "swpart.h"
#include "updn.h"
#include "testutil.h"

/* Plane, level (1 router or leaf, 2 spine) and group from a switch name
 * "[P<k>_]S<l>_<g>_<i>". */
static void sw_where(const char *name, int *plane, int *level, int *group)
{
	*plane = 0;
	if (name[0] == 'P') {
		*plane = atoi(name + 1);
		name = strchr(name, '_') + 1;
	}
	assert_int_equal(name[0], 'S');
	*level = atoi(name + 1);
	*group = atoi(strchr(name, '_') + 1);
}

struct counts {
	long switches, spines, hosts, global, local, host_links;
	long between_min, between_max; /* global links per pair of groups */
	int cross_plane;	       /* links between planes */
};

static void count(const struct fabric *f, int groups, struct counts *c)
{
	long *pair = calloc((size_t)groups * groups, sizeof(long));
	int i, p, g1, g2, pl1, pl2, l1, l2;

	assert_non_null(pair);
	memset(c, 0, sizeof(*c));
	for (i = 0; i < f->nnodes; i++) {
		const struct fab_node *n = &f->nodes[i];

		if (n->type != FAB_SWITCH) {
			c->hosts++;
			for (p = 1; p <= n->nports; p++)
				c->host_links += n->ports[p].rnode >= 0;
			continue;
		}
		c->switches++;
		sw_where(n->name, &pl1, &l1, &g1);
		c->spines += l1 == 2;
		for (p = 1; p <= n->nports; p++) {
			int r = n->ports[p].rnode;

			if (r < 0 || f->nodes[r].type != FAB_SWITCH || r < i)
				continue; /* each cable once */
			sw_where(f->nodes[r].name, &pl2, &l2, &g2);
			c->cross_plane |= pl1 != pl2;
			if (g1 == g2) {
				c->local++;
			} else {
				c->global++;
				if (pl1 == 0) {
					pair[g1 * groups + g2]++;
					pair[g2 * groups + g1]++;
				}
			}
		}
	}
	c->between_min = -1;
	for (g1 = 0; g1 < groups; g1++)
		for (g2 = 0; g2 < groups; g2++) {
			long v = pair[g1 * groups + g2];

			if (g1 == g2)
				continue;
			if (c->between_min < 0 || v < c->between_min)
				c->between_min = v;
			if (v > c->between_max)
				c->between_max = v;
		}
	free(pair);
}

/* Table 1 of paper 002, single and dual plane, both arrangements. */
static void test_table1(void **state)
{
	static const struct {
		int megafly, planes;
		long routers, hosts, global_conn, per_group, between;
	} t1[] = {
		{ 0, 1, 342, 3078, 3078, 162, 9 },
		{ 0, 2, 684, 3078, 6156, 162, 9 },
		{ 1, 1, 360, 3240, 3240, 324, 36 },
		{ 1, 2, 720, 3240, 6480, 324, 36 },
	};
	size_t i;
	int a;

	(void)state;
	for (i = 0; i < sizeof(t1) / sizeof(t1[0]); i++)
		for (a = 0; a < 2; a++) {
			struct df_params p = {
				.megafly = t1[i].megafly,
				.groups = t1[i].megafly ? 10 : 19,
				.routers = 18,
				.spines = 18,
				.hosts = t1[i].megafly ? 18 : 9,
				.global = t1[i].megafly ? 18 : 9,
				.arrangement =
					a ? DF_ROUND_ROBIN : DF_CONSECUTIVE,
				.planes = t1[i].planes,
			};
			struct osmre_err err;
			struct fabric *f;
			struct counts c;
			int groups = p.groups;

			assert_int_equal(df_build(&p, &f, &err), 0);
			count(f, groups, &c);
			printf("%s, %d plane(s), %s: %ld switches, %ld hosts, %ld global connections (%ld per group, %ld-%ld between two groups), %ld local links\n",
			       p.megafly ? "megafly" : "dragonfly", p.planes,
			       a ? "round-robin" : "consecutive", c.switches,
			       c.hosts, 2 * c.global,
			       2 * c.global / t1[i].planes / groups,
			       c.between_min, c.between_max, c.local);
			assert_int_equal(c.switches, t1[i].routers);
			assert_int_equal(c.hosts, t1[i].hosts);
			/* the paper counts both ends of a global cable */
			assert_int_equal(2 * c.global, t1[i].global_conn);
			assert_int_equal(2 * c.global / t1[i].planes / groups,
					 t1[i].per_group);
			assert_int_equal(c.between_min, t1[i].between);
			assert_int_equal(c.between_max, t1[i].between);
			assert_int_equal(c.cross_plane, 0);
			assert_int_equal(c.host_links, t1[i].hosts * p.planes);
			/* dragonfly groups are cliques of 18; a megafly
			 * group is K(18,18) */
			assert_int_equal(c.local,
					 (long)p.planes * groups *
						 (p.megafly ? 18 * 18 :
							      18 * 17 / 2));
			if (p.megafly)
				assert_int_equal(c.spines,
						 (long)p.planes * groups * 18);
			assert_int_equal(df_switches(&p) * p.planes,
					 c.switches);
			fabric_free(f);
		}
}

static void test_bad_params(void **state)
{
	struct df_params p = { .groups = 19,
			       .routers = 18,
			       .hosts = 9,
			       .global = 9 };
	struct osmre_err err;
	struct fabric *f;

	(void)state;
	p.groups = 0;
	assert_int_equal(df_build(&p, &f, &err), -1);
	assert_non_null(strstr(err.msg, "groups"));
	p.groups = 20; /* 162 global ports over 19 groups */
	assert_int_equal(df_build(&p, &f, &err), -1);
	assert_non_null(strstr(err.msg, "evenly"));
	p.groups = 19;
	p.global = 240; /* 9 + 17 + 240 ports */
	assert_int_equal(df_build(&p, &f, &err), -1);
	assert_non_null(strstr(err.msg, "ports"));
	p.global = 1; /* 18 global ports cannot reach 18 groups evenly... */
	assert_int_equal(df_build(&p, &f, &err), 0); /* ...they can: 1 each */
	fabric_free(f);
	p.groups = 40; /* 18 ports for 39 groups */
	assert_int_equal(df_build(&p, &f, &err), -1);
	assert_non_null(strstr(err.msg, "cannot reach"));
}

/*
 * Every CA-to-CA route of s, walked switch by switch: at most one link
 * between groups, and inside a group at most one link (dragonfly) or a
 * leaf-spine then spine-leaf (megafly); or, where that is shorter than
 * any such route (routes are shortest first, lexdist.h), two links
 * between groups and none inside one.  Returns the longest route in
 * switch-to-switch links.
 */
static int check_minimal(const struct fabric *f, const struct lft_set *s,
			 int megafly)
{
	int *gid = malloc((size_t)f->nnodes * sizeof(int));
	int a, b, longest = 0, pl, lv;

	assert_non_null(gid);
	for (a = 0; a < f->nnodes; a++)
		if (f->nodes[a].type == FAB_SWITCH)
			sw_where(f->nodes[a].name, &pl, &lv, &gid[a]);
	for (a = 0; a < f->nnodes; a++) {
		const struct fab_node *ha = &f->nodes[a];

		if (ha->type == FAB_SWITCH || ha->ports[1].rnode < 0)
			continue;
		for (b = 0; b < f->nnodes; b++) {
			const struct fab_node *hb = &f->nodes[b];
			int cur = ha->ports[1].rnode, global = 0, local = 0;
			int hops = 0;

			if (b == a || hb->type == FAB_SWITCH ||
			    !hb->ports[1].lid)
				continue;
			for (;;) {
				const struct lft *t = lft_of_node(s, cur);
				int o = lft_get(t, hb->ports[1].lid), r;

				assert_true(o != LFT_NONE && o > 0);
				r = f->nodes[cur].ports[o].rnode;
				if (f->nodes[r].type != FAB_SWITCH) {
					assert_int_equal(r, b);
					break;
				}
				if (gid[r] != gid[cur])
					global++;
				else
					local++;
				cur = r;
				assert_true(++hops < 64);
			}
			if ((global > 1 && (global > 2 || local)) ||
			    local > (megafly ? 2 : 1 + global))
				fail_msg(
					"%s -> %s: %d global and %d local links",
					ha->name, hb->name, global, local);
			if (hops > longest)
				longest = hops;
		}
	}
	free(gid);
	return longest;
}

/*
 * A stable re-route of sar on f from tables in force that are not its
 * own: up*-down* routes (not minimal on a dragonfly), and then sar's own
 * tables s.  From up*-down*, the trees that are not of shortest paths are
 * not kept whole (sar.c keep_tree's check): every route minimal, valid,
 * acyclic.  From its own tables on the same topology: the same tables.
 */
static void stable_from_others(const struct fabric *f, const struct lft_set *s,
			       int megafly, const char *what)
{
	struct sar_opts o = { .max_vls = 8 };
	struct check_opts co = { .updown = 0, .threads = 1 };
	struct check_result cr;
	struct sar_result r;
	struct osmre_err err;
	struct lft_set prev, out;
	unsigned top = lids_max(f), lid;
	uint8_t *want = calloc((size_t)top + 1, 1);
	char diff[160];
	long kept = 0;
	int n, i;

	assert_non_null(want);
	for (n = 0; n < f->nnodes; n++)
		if (f->nodes[n].type != FAB_SWITCH)
			for (i = 1; i <= f->nodes[n].nports; i++)
				if (f->nodes[n].ports[i].lid)
					want[f->nodes[n].ports[i].lid] = 1;
	assert_int_equal(lft_set_for_fabric(f, top, &prev, &err), 0);
	assert_int_equal(updn_route_lids(f, NULL, &prev, want, top, NULL, &err),
			 0);
	assert_int_equal(lft_set_for_fabric(f, top, &out, &err), 0);
	o.prev = &prev;
	if (sar_route(f, &o, &out, &r, &err))
		fail_msg("%s: stable from up*-down*: %s", what, err.msg);
	assert_int_equal(check_lfts(f, &out, &co, &cr, NULL, &err), 0);
	assert_true(check_ok(&cr));
	check_minimal(f, &out, megafly);
	if (!tu_sls_acyclic(f, &out, &r, -1))
		fail_msg("%s: stable from up*-down*: a cycle", what);
	for (i = 0; i < out.n; i++)
		for (lid = 1; lid <= top; lid++)
			kept += want[lid] &&
				lft_get(&out.t[i], lid) ==
					lft_get(lft_of_node(&prev,
							    out.t[i].node),
						lid);
	printf("%-48s stable from up*-down*: minimal, %ld entries kept\n", what,
	       kept);
	assert_true(kept > 0);
	sar_result_free(&r);
	lft_set_free(&out);
	/* from its own tables: nothing changes */
	assert_int_equal(lft_set_for_fabric(f, top, &out, &err), 0);
	o.prev = s;
	assert_int_equal(sar_route(f, &o, &out, &r, &err), 0);
	if (!lft_set_equal(s, &out, diff, sizeof(diff)))
		fail_msg("%s: stable from its own tables: %s", what, diff);
	sar_result_free(&r);
	lft_set_free(&out);
	lft_set_free(&prev);
	free(want);
}

/* sar on an intact fabric: valid, minimal, acyclic on its layers. */
static int route_minimal(struct df_params *p, const char *what)
{
	struct sar_opts o = { .max_vls = 8 };
	struct check_opts co = { .updown = 0, .threads = 1 };
	struct check_result cr;
	struct sar_result r;
	struct osmre_err err;
	struct lft_set s;
	struct fabric *f;
	int longest, layers;

	assert_int_equal(df_build(p, &f, &err), 0);
	assert_int_equal(lids_assign(f, 0, &err), 0);
	assert_int_equal(lft_set_for_fabric(f, lids_max(f), &s, &err), 0);
	if (sar_route(f, &o, &s, &r, &err))
		fail_msg("%s: %s", what, err.msg);
	assert_int_equal(check_lfts(f, &s, &co, &cr, NULL, &err), 0);
	assert_true(check_ok(&cr));
	assert_int_equal(cr.longer, 0);
	longest = check_minimal(f, &s, p->megafly);
	if (!tu_sls_acyclic(f, &s, &r, -1))
		fail_msg("%s: a cycle on %d layers", what, r.layers);
	layers = r.layers;
	printf("%-48s minimal (longest %d switch links), acyclic on %d layer(s)\n",
	       what, longest, layers);
	assert_true(layers <= 3);
	assert_int_equal(r.updn_lids, 0);
	/* the minimal routes kept: no candidate on any shortest path */
	assert_true(r.sp < SAR_SP_HOPS && r.sp_a2a[SAR_SP_HOPS] < 0);
	stable_from_others(f, &s, p->megafly, what);
	sar_result_free(&r);
	lft_set_free(&s);
	fabric_free(f);
	return layers;
}

static void test_minimal_routes(void **state)
{
	struct df_params p = { .groups = 9,
			       .routers = 4,
			       .hosts = 2,
			       .global = 2 };
	char what[96];
	int a;

	(void)state;
	for (a = 0; a < 2; a++) {
		p.arrangement = a ? DF_ROUND_ROBIN : DF_CONSECUTIVE;
		snprintf(what, sizeof(what), "dragonfly 9x4, %s",
			 a ? "round-robin" : "consecutive");
		assert_int_equal(route_minimal(&p, what), 2);
	}
	if (getenv("OSMRE_TEST_QUICK")) {
		/* (the sanitizer builds: a small megafly stands in for
		 * Table 1's fabrics, 3,000 hosts each) */
		p = (struct df_params){ .megafly = 1,
					.groups = 5,
					.routers = 4,
					.spines = 4,
					.hosts = 4,
					.global = 4 };
		assert_int_equal(route_minimal(&p, "megafly 5x4 (quick)"), 1);
		return;
	}
	/* Table 1's dragonfly, both arrangements, and megafly */
	p = (struct df_params){ .groups = 19,
				.routers = 18,
				.hosts = 9,
				.global = 9 };
	for (a = 0; a < 2; a++) {
		p.arrangement = a ? DF_ROUND_ROBIN : DF_CONSECUTIVE;
		snprintf(what, sizeof(what), "Table 1 dragonfly, %s",
			 a ? "round-robin" : "consecutive");
		assert_int_equal(route_minimal(&p, what), 2);
	}
	p = (struct df_params){ .megafly = 1,
				.groups = 10,
				.routers = 18,
				.spines = 18,
				.hosts = 18,
				.global = 18 };
	assert_int_equal(route_minimal(&p, "Table 1 megafly"), 1);
}

/* The A2A and RP risks sar reported for tables s are the analyzer's
 * (congestion.h: all pairs, and the median of 100 random permutations,
 * seed 1). */
static void check_risks(const struct fabric *f, const struct lft_set *s,
			long a2a, long rp)
{
	struct cong_order o;
	struct cong_result cr;
	struct osmre_err err;

	assert_int_equal(cong_order_make(f, CONG_ORDER_NID, &o, &err), 0);
	assert_int_equal(cong_all_to_all(f, s, &o, 1, &cr, &err), 0);
	assert_int_equal(cr.risk, a2a);
	assert_int_equal(cong_random_perms(f, s, &o, 100, 1, 1, &cr, &err), 0);
	assert_int_equal(cr.risk, rp);
	cong_order_free(&o);
}

/*
 * Over the budget on 2 layers or more, sar kept the tables of one of its
 * ways (sar.h): their A2A and RP risks are the analyzer's for the tables
 * (congestion.h: all pairs, and the median of 100 random permutations,
 * seed 1), and no other way tried has a lower RP risk, or the same RP
 * and a lower A2A (sar_way_pick).
 */
static void check_ways(const struct fabric *f, const struct lft_set *s,
		       const struct sar_result *r, int *wins)
{
	int k = r->way, i, n = 0;

	check_risks(f, s, r->way_a2a[k], r->way_rp[k]);
	/* the kept way: the least RP of the ways tried, then the least A2A */
	for (i = 0; i < SAR_WAYS; i++) {
		if (r->way_a2a[i] < 0)
			continue;
		n++;
		assert_true(r->way_rp[k] <= r->way_rp[i]);
		if (r->way_rp[k] == r->way_rp[i])
			assert_true(r->way_a2a[k] <= r->way_a2a[i]);
	}
	/* every way tried (SAR_WAY_LAST is none) */
	assert_true(n == SAR_WAYS - 1 && r->way_a2a[k] >= 0);
	assert_true(r->way_a2a[SAR_WAY_LAST] < 0 && k != SAR_WAY_LAST);
	wins[k]++;
}

/* How often each way was kept, as text. */
static const char *wins_text(const int *wins)
{
	static char buf[256];

	snprintf(buf, sizeof(buf),
		 "kept, spread by groups: by load %d times, by path weight %d",
		 wins[SAR_WAY_GROUPS], wins[SAR_WAY_NUE_GROUPS]);
	return buf;
}

/* How many ways were kept at least once. */
static int ways_kept(const int *wins)
{
	int i, n = 0;

	for (i = 0; i < SAR_WAYS; i++)
		n += wins[i] > 0;
	return n;
}

/* What budget_sweep saw. */
struct sweep {
	int routed, refused, fellback;
	long cdg;
	int wins[SAR_WAYS];
};

/*
 * 10-80 % of the switch-to-switch links of p failed, 3 seeds each: a
 * connected fabric is routed on every budget of 1-3 VLs (valid, acyclic,
 * no more layers than the budget, every way tried and the right one kept
 * when over it on 2-3: check_ways); a split one is refused, naming two
 * hosts.
 */
static void budget_sweep(const struct df_params *p, struct sweep *sw)
{
	int pct, seed, vls;

	memset(sw, 0, sizeof(*sw));
	for (pct = 10; pct <= 80; pct += 10)
		for (seed = 1; seed <= 3; seed++) {
			struct fabric *f = tu_df_failed(p, pct, (uint64_t)seed);
			struct osmre_err err;

			for (vls = 1; vls <= 3; vls++) {
				struct sar_opts o = { .max_vls = vls };
				struct check_opts co = { .updown = 0,
							 .threads = 1 };
				struct check_result cr;
				struct sar_result r;
				struct lft_set s;
				long n;

				assert_int_equal(lft_set_for_fabric(f,
								    lids_max(f),
								    &s, &err),
						 0);
				if (sar_route(f, &o, &s, &r, &err)) {
					assert_non_null(
						strstr(err.msg,
						       "the fabric is split"));
					assert_true(tu_cross_part_pairs(f, &n) >
						    0);
					sw->refused++;
					lft_set_free(&s);
					continue;
				}
				assert_int_equal(tu_cross_part_pairs(f, &n), 0);
				assert_int_equal(check_lfts(f, &s, &co, &cr,
							    NULL, &err),
						 0);
				if (!check_ok(&cr))
					fail_msg(
						"%d %% seed %d, %d VL(s): invalid",
						pct, seed, vls);
				assert_true(r.layers <= vls);
				if (!tu_sls_acyclic(f, &s, &r, -1))
					fail_msg(
						"%d %% seed %d, %d VL(s): a cycle",
						pct, seed, vls);
				sw->routed++;
				sw->fellback += r.updn_lids > 0;
				sw->cdg += r.cdg_lids;
				if (r.updn_lids && vls >= 2)
					check_ways(f, &s, &r, sw->wins);
				sar_result_free(&r);
				lft_set_free(&s);
			}
			fabric_free(f);
		}
}

/* max(a2a / amin, rp / rmin), times amin * rmin (integers). */
static long worst_scaled(long a2a, long rp, long amin, long rmin)
{
	return a2a * rmin > rp * amin ? a2a * rmin : rp * amin;
}

/* The least A2A and RP of the shortest-path candidates tried. */
static void sp_least(const struct sar_result *r, long *amin, long *rmin)
{
	int i;

	*amin = *rmin = -1;
	for (i = 0; i < SAR_SPS; i++) {
		if (r->sp_a2a[i] < 0)
			continue;
		if (*amin < 0 || r->sp_a2a[i] < *amin)
			*amin = r->sp_a2a[i];
		if (*rmin < 0 || r->sp_rp[i] < *rmin)
			*rmin = r->sp_rp[i];
	}
}

/*
 * Within the budget without jobs, sar kept one of its shortest-path
 * candidates (sar.h, SAR_SP_*): the risks it reports for it are the
 * analyzer's for the tables (as check_ways), and another than DFSSSP's
 * is kept only when it ranks before DFSSSP's by the larger of its ratios
 * to the least A2A and the least RP of the candidates tried, then the
 * lower A2A (sar.c ranks_before; the first in that order whose layers
 * fit is kept).
 */
static void check_sp(const struct fabric *f, const struct lft_set *s,
		     const struct sar_result *r)
{
	long amin, rmin;
	int k = r->sp;

	assert_true(k >= 0 && k < SAR_SPS && r->sp_a2a[k] >= 0);
	check_risks(f, s, r->sp_a2a[k], r->sp_rp[k]);
	sp_least(r, &amin, &rmin);
	/* another than DFSSSP's is kept only when it ranks before it */
	if (k != SAR_SP_DFSSSP) {
		long w0 = worst_scaled(r->sp_a2a[0], r->sp_rp[0], amin, rmin);
		long wk = worst_scaled(r->sp_a2a[k], r->sp_rp[k], amin, rmin);

		assert_true(wk < w0 ||
			    (wk == w0 && r->sp_a2a[k] < r->sp_a2a[0]));
	}
}

/* A stable re-route of f from its own tables s (kept on any shortest
 * path): nothing changes. */
static void stable_same(const struct fabric *f, const struct lft_set *s,
			int pct, int seed)
{
	struct sar_opts o = { .max_vls = 8, .prev = s };
	struct sar_result r;
	struct osmre_err err;
	struct lft_set out;
	char diff[160];

	assert_int_equal(lft_set_for_fabric(f, lids_max(f), &out, &err), 0);
	assert_int_equal(sar_route(f, &o, &out, &r, &err), 0);
	if (!lft_set_equal(s, &out, diff, sizeof(diff)))
		fail_msg("%d %% seed %d: stable from its own tables: %s", pct,
			 seed, diff);
	sar_result_free(&r);
	lft_set_free(&out);
}

/*
 * Shortest paths within the budget whatever the wiring: the dragonfly
 * 7x6 with 2-30 % of its links failed, 3 seeds, 8 VLs.  Where a route
 * had to leave the dragonfly's minimal ones, the candidates on any
 * shortest path are tried too, and one of them is kept somewhere; every
 * routing within the budget is valid, shortest, acyclic, its candidate
 * the one check_sp expects, and a stable re-route from tables on any
 * shortest path changes nothing.  On whole fabrics none is tried
 * (test_minimal_routes).
 */
static void test_shortest_candidates(void **state)
{
	struct df_params p = { .groups = 7,
			       .routers = 6,
			       .hosts = 3,
			       .global = 3 };
	int pct, seed, within = 0, tried = 0, kept = 0;

	(void)state;
	for (pct = 2; pct <= 30; pct += 4)
		for (seed = 1; seed <= 3; seed++) {
			struct sar_opts o = { .max_vls = 8 };
			struct check_opts co = { .updown = 0, .threads = 1 };
			struct check_result cr;
			struct sar_result r;
			struct osmre_err err;
			struct lft_set s;
			struct fabric *f;

			f = tu_df_failed(&p, pct, (uint64_t)seed);
			assert_int_equal(lft_set_for_fabric(f, lids_max(f), &s,
							    &err),
					 0);
			if (sar_route(f, &o, &s, &r, &err)) {
				assert_non_null(
					strstr(err.msg, "the fabric is split"));
				lft_set_free(&s);
				fabric_free(f);
				continue;
			}
			if (!r.updn_lids) {
				within++;
				assert_int_equal(check_lfts(f, &s, &co, &cr,
							    NULL, &err),
						 0);
				assert_true(check_ok(&cr));
				if (cr.longer)
					fail_msg(
						"%d %% seed %d: %ld pairs longer than the shortest",
						pct, seed, cr.longer);
				assert_true(tu_sls_acyclic(f, &s, &r, -1));
				check_sp(f, &s, &r);
				tried += r.sp_a2a[SAR_SP_HOPS] >= 0;
				kept += r.sp >= SAR_SP_HOPS;
				if (r.sp >= SAR_SP_HOPS)
					stable_same(f, &s, pct, seed);
			}
			sar_result_free(&r);
			lft_set_free(&s);
			fabric_free(f);
		}
	printf("dragonfly 7x6 with 2-30 %% of its links failed, 8 VLs: %d routed within the budget, on shortest paths; any shortest path tried on %d, kept on %d\n",
	       within, tried, kept);
	assert_true(within > 0 && tried > 0 && kept > 0);
}

/*
 * sar left the shortest paths that fit for tables over the budget
 * (sar.c over_instead): the fitting candidate sp_fit trailed the best,
 * sp, by more than 10 %, and the tables kept beat it by 10 % too, as
 * the analyzer counts them (all pairs, RP the median of 100, seed 1).
 */
static void check_over_instead(const struct fabric *f, const struct lft_set *s,
			       const struct sar_result *r)
{
	long amin, rmin, ka, kr;
	int b = r->sp, k = r->sp_fit;

	assert_true(b != k && r->sp_a2a[b] >= 0 && r->sp_a2a[k] >= 0);
	sp_least(r, &amin, &rmin);
	assert_true(worst_scaled(r->sp_a2a[k], r->sp_rp[k], amin, rmin) * 10 >
		    worst_scaled(r->sp_a2a[b], r->sp_rp[b], amin, rmin) * 11);
	assert_true(r->way != SAR_WAY_LAST);
	ka = r->way_a2a[r->way];
	kr = r->way_rp[r->way];
	check_risks(f, s, ka, kr);
	amin = ka < amin ? ka : amin;
	rmin = kr < rmin ? kr : rmin;
	assert_true(worst_scaled(ka, kr, amin, rmin) * 11 <
		    worst_scaled(r->sp_a2a[k], r->sp_rp[k], amin, rmin) * 10);
}

/*
 * Shortest paths that fit, against the best: the dragonfly 17x8
 * (round-robin, 2 hosts, 4 global ports) with 3-5 % of its links
 * failed, 2 seeds, 2 VLs.  Over the budget instead of shortest paths
 * that fit only as check_over_instead asserts; valid and acyclic either
 * way; within the budget, shortest paths.  Happens at least once.
 */
static void test_shortest_or_over(void **state)
{
	struct df_params p = { .groups = 17,
			       .routers = 8,
			       .hosts = 2,
			       .global = 4,
			       .arrangement = DF_ROUND_ROBIN };
	/* (OSMRE_TEST_QUICK, the sanitizer builds: 3 % only, where the
	 * rule fires on both seeds) */
	int pct, seed, within = 0, over = 0;
	int last = getenv("OSMRE_TEST_QUICK") ? 3 : 5;

	(void)state;
	for (pct = 3; pct <= last; pct++)
		for (seed = 1; seed <= 2; seed++) {
			struct sar_opts o = { .max_vls = 2 };
			struct check_opts co = { .updown = 0, .threads = 1 };
			struct check_result cr;
			struct sar_result r;
			struct osmre_err err;
			struct lft_set s;
			struct fabric *f =
				tu_df_failed(&p, pct, (uint64_t)seed);

			assert_int_equal(lft_set_for_fabric(f, lids_max(f), &s,
							    &err),
					 0);
			assert_int_equal(sar_route(f, &o, &s, &r, &err), 0);
			assert_int_equal(check_lfts(f, &s, &co, &cr, NULL,
						    &err),
					 0);
			assert_true(check_ok(&cr));
			assert_true(tu_sls_acyclic(f, &s, &r, -1));
			if (!r.updn_lids) {
				within++;
				assert_int_equal(r.sp_fit, -1);
				assert_int_equal(cr.longer, 0);
				check_sp(f, &s, &r);
			} else if (r.sp_fit >= 0) {
				over++;
				check_over_instead(f, &s, &r);
			} /* (else DFSSSP's own paths did not fit) */
			sar_result_free(&r);
			lft_set_free(&s);
			fabric_free(f);
		}
	printf("dragonfly 17x8 with 3-%d %% of its links failed, 2 VLs: %d within the budget on shortest paths, %d routed over it instead of shortest paths that fit\n",
	       last, within, over);
	assert_true(over > 0);
}

/* The dragonfly 7x6: both ways by groups kept somewhere. */
static void test_vl_budget(void **state)
{
	struct df_params p = { .groups = 7,
			       .routers = 6,
			       .hosts = 3,
			       .global = 3 };
	struct sweep sw;

	(void)state;
	budget_sweep(&p, &sw);
	printf("dragonfly 7x6 with 10-80 %% of its links failed, 1-3 VLs: %d routed (%d over the budget, %ld destinations routed again; on 2-3 VLs, %s), %d split and refused\n",
	       sw.routed, sw.fellback, sw.cdg, wins_text(sw.wins), sw.refused);
	assert_true(sw.routed > 0 && sw.fellback > 0 && sw.refused > 0 &&
		    sw.cdg > 0);
	/* the choice is made: both ways by groups are kept somewhere */
	assert_true(sw.wins[SAR_WAY_GROUPS] > 0 &&
		    sw.wins[SAR_WAY_NUE_GROUPS] > 0);
}

/*
 * A megafly whose spines form no triangle (5 groups of 4 leaves and 4
 * spines, one global link per spine): no groups, yet over the budget the
 * way by groups is tried (check_ways: every way), its parts grown switch
 * by switch, and kept somewhere.
 */
static void test_vl_budget_no_groups(void **state)
{
	struct df_params p = { .megafly = 1,
			       .groups = 5,
			       .routers = 4,
			       .spines = 4,
			       .hosts = 2,
			       .global = 1 };
	struct osmre_err err;
	struct swgraph g;
	struct fabric *f;
	struct sweep sw;

	(void)state;
	assert_int_equal(df_build(&p, &f, &err), 0);
	assert_int_equal(swgraph_build(f, &g), 0);
	assert_int_equal(swgraph_groups(&g), 0);
	assert_true(g.ngroups <= 1 || g.ngroups == g.nsw);
	swgraph_free(&g);
	fabric_free(f);
	budget_sweep(&p, &sw);
	printf("megafly 5x(4+4), no groups, 10-80 %% of its links failed, 1-3 VLs: %d routed (%d over the budget; on 2-3 VLs, %s), %d split and refused\n",
	       sw.routed, sw.fellback, wins_text(sw.wins), sw.refused);
	assert_true(sw.routed > 0 && sw.fellback > 0);
	assert_true(sw.wins[SAR_WAY_GROUPS] + sw.wins[SAR_WAY_NUE_GROUPS] > 0);
}

/*
 * switch_partition on the 7x6 dragonfly: every switch in one of k parts,
 * each part about 1/k of the CA ports (within one group's with groups,
 * one switch's without), groups whole when given; k < 1 refused.
 */
static void test_partition(void **state)
{
	struct df_params p = { .groups = 7,
			       .routers = 6,
			       .hosts = 3,
			       .global = 3 };
	struct osmre_err err;
	struct fabric *f;
	int *part, *group, *comp, k, v, g, use;
	long per[2][3] = { { 0 } };

	(void)state;
	assert_int_equal(df_build(&p, &f, &err), 0);
	part = malloc((size_t)f->nnodes * sizeof(int));
	group = malloc((size_t)f->nnodes * sizeof(int));
	assert_non_null(part);
	assert_non_null(group);
	assert_int_equal(switch_groups(f, group), 7);
	for (use = 0; use < 2; use++)
		for (k = 1; k <= 4; k++) {
			long cas[4] = { 0 }, total = 0, slack = use ? 18 : 3;

			assert_int_equal(switch_partition(f, use ? group : NULL,
							  k, part, &err),
					 0);
			for (v = 0; v < f->nnodes; v++) {
				const struct fab_node *n = &f->nodes[v];

				if (!fab_is_switch(n)) {
					assert_int_equal(part[v], -1);
					continue;
				}
				assert_true(part[v] >= 0 && part[v] < k);
				cas[part[v]] += p.hosts;
				total += p.hosts;
				if (!use)
					continue;
				for (g = 0; g < f->nnodes; g++)
					if (fab_is_switch(&f->nodes[g]) &&
					    group[g] == group[v])
						assert_int_equal(part[g],
								 part[v]);
			}
			for (g = 0; g < k; g++)
				assert_true(labs(cas[g] - total / k) <= slack);
		}
	assert_int_equal(switch_partition(f, NULL, 0, part, &err), -1);
	assert_non_null(strstr(err.msg, "0 parts"));
	free(part);
	free(group);
	fabric_free(f);
	/* two planes: each has all 3 parts, about 42 of its 126 CA ports */
	p.planes = 2;
	assert_int_equal(df_build(&p, &f, &err), 0);
	part = malloc((size_t)f->nnodes * sizeof(int));
	group = malloc((size_t)f->nnodes * sizeof(int));
	comp = malloc((size_t)f->nnodes * sizeof(int));
	assert_true(part && group && comp);
	assert_true(switch_groups(f, group) > 0);
	assert_int_equal(switch_components(f, comp), 0);
	assert_int_equal(switch_partition(f, group, 3, part, &err), 0);
	for (k = 0; !fab_is_switch(&f->nodes[k]); k++)
		;
	for (v = 0; v < f->nnodes; v++)
		if (fab_is_switch(&f->nodes[v]))
			per[comp[v] != comp[k]][part[v]] += p.hosts;
	for (g = 0; g < 3; g++) {
		assert_true(labs(per[0][g] - 42) <= 18);
		assert_true(labs(per[1][g] - 42) <= 18);
	}
	free(part);
	free(group);
	free(comp);
	fabric_free(f);
}

/* sar on f into *s, *r (budget vls, on threads threads); fails the test
 * on a refusal. */
static void route_budget(struct fabric *f, int vls, int threads,
			 struct lft_set *s, struct sar_result *r,
			 const char *what)
{
	struct sar_opts o = { .max_vls = vls, .threads = threads };
	struct osmre_err err;

	assert_int_equal(lft_set_for_fabric(f, lids_max(f), s, &err), 0);
	if (sar_route(f, &o, s, r, &err))
		fail_msg("%s: %s", what, err.msg);
}

/* Every LID numbered backwards (max + 1 - LID); was[] (per node, ports
 * 0..nports in a row) keeps the LIDs as they were. */
static void lids_backwards(struct fabric *f, unsigned max, unsigned *was)
{
	int i, p, k = 0;

	for (i = 0; i < f->nnodes; i++)
		for (p = 0; p <= f->nodes[i].nports; p++, k++) {
			struct fab_port *pt = &f->nodes[i].ports[p];

			was[k] = pt->lid;
			if (pt->lid)
				pt->lid = (uint16_t)(max + 1 - pt->lid);
		}
}

/* The LIDs of was[] back in place. */
static void lids_restore(struct fabric *f, const unsigned *was)
{
	int i, p, k = 0;

	for (i = 0; i < f->nnodes; i++)
		for (p = 0; p <= f->nodes[i].nports; p++, k++)
			f->nodes[i].ports[p].lid = (uint16_t)was[k];
}

/* Tables a and layers ra (LIDs was[]) route every LID of every port as b
 * and rb (the fabric's LIDs now) do; the LIDs compared, counted. */
static int same_routes(const struct fabric *f, const unsigned *was,
		       unsigned max, const struct lft_set *a,
		       const struct sar_result *ra, const struct lft_set *b,
		       const struct sar_result *rb, const char *what)
{
	int i, p, k = 0, n = 0, sw, c;

	for (i = 0; i < f->nnodes; i++)
		for (p = 0; p <= f->nodes[i].nports; p++, k++) {
			unsigned la = was[k], lb = f->nodes[i].ports[p].lid;

			if (!la)
				continue;
			for (sw = 0; sw < f->nnodes; sw++) {
				const struct lft *ta = lft_of_node(a, sw);
				const struct lft *tb = lft_of_node(b, sw);

				if (ta && lft_get(ta, la) != lft_get(tb, lb))
					fail_msg(
						"%s: \"%s\" towards \"%s\" port %d: port %d with LIDs in file order, %d backwards",
						what, f->nodes[sw].name,
						f->nodes[i].name, p,
						lft_get(ta, la),
						lft_get(tb, lb));
			}
			for (c = 0; ra->layer && rb->layer && c < ra->ncas; c++)
				if (ra->layer[(size_t)c * (max + 1) + la] !=
				    rb->layer[(size_t)c * (max + 1) + lb])
					fail_msg(
						"%s: the layer of a path to \"%s\" differs",
						what, f->nodes[i].name);
			n++;
		}
	return n;
}

/*
 * OpenSM numbers LIDs in its discovery order, lids_assign in file order:
 * sar's tables and layers over the budget (up*-down*, by load, the
 * spread) are the same, port for port and path for path, when the LIDs
 * are numbered backwards.  The second routing runs on 2 or 3 threads
 * (the layering's two starts at once, and the ways' stages, a way's
 * refinement waiting for its layers where another thread routes them),
 * the first on one: the threads change nothing either.
 */
static void test_lid_numbering(void **state)
{
	struct df_params df = { .groups = 7,
				.routers = 6,
				.hosts = 3,
				.global = 3 },
			 mf = { .megafly = 1,
				.groups = 5,
				.routers = 4,
				.spines = 4,
				.hosts = 4,
				.global = 4 };
	int kind, pct, seed, vls, compared = 0, over = 0;
	int wins[SAR_WAYS] = { 0 };

	(void)state;
	for (kind = 0; kind < 2; kind++)
		for (pct = 20; pct <= 60; pct += 20)
			for (seed = 1; seed <= 3; seed++) {
				struct fabric *f;
				unsigned *was, max;
				int i, n = 0;

				f = tu_df_failed(kind ? &mf : &df, pct,
						 (uint64_t)seed);
				if (tu_cross_part_pairs(f, &(long){ 0 })) {
					fabric_free(f);
					continue; /* split: refused either way */
				}
				max = lids_max(f);
				for (i = 0; i < f->nnodes; i++)
					n += f->nodes[i].nports + 1;
				was = calloc((size_t)n, sizeof(*was));
				assert_non_null(was);
				for (vls = 2; vls <= 3; vls++) {
					struct lft_set a, b;
					struct sar_result ra, rb;
					char what[96];

					snprintf(what, sizeof(what),
						 "%s %d %% seed %d, %d VLs",
						 kind ? "megafly" : "dragonfly",
						 pct, seed, vls);
					route_budget(f, vls, 1, &a, &ra, what);
					if (ra.updn_lids)
						check_ways(f, &a, &ra, wins);
					lids_backwards(f, max, was);
					route_budget(f, vls, 2 + seed % 2, &b,
						     &rb, what);
					over += ra.updn_lids > 0;
					assert_int_equal(ra.layers, rb.layers);
					compared +=
						same_routes(f, was, max, &a,
							    &ra, &b, &rb, what);
					lids_restore(f, was);
					sar_result_free(&ra);
					sar_result_free(&rb);
					lft_set_free(&a);
					lft_set_free(&b);
				}
				free(was);
				fabric_free(f);
			}
	printf("sar over the budget with LIDs numbered backwards, on 2 and 3 threads: the same tables and layers (%d LIDs compared, %d routings over the budget; %s)\n",
	       compared, over, wins_text(wins));
	assert_true(compared > 0 && over > 0);
	/* every way wins somewhere */
	assert_true(ways_kept(wins) == SAR_WAYS - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table1),
		cmocka_unit_test(test_bad_params),
		cmocka_unit_test(test_minimal_routes),
		cmocka_unit_test(test_shortest_candidates),
		cmocka_unit_test(test_shortest_or_over),
		cmocka_unit_test(test_vl_budget),
		cmocka_unit_test(test_vl_budget_no_groups),
		cmocka_unit_test(test_partition),
		cmocka_unit_test(test_lid_numbering),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
