/* SPDX-License-Identifier: BSD-2-Clause */
/* Congestion risk on small fabrics whose values are worked out by hand. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cdg.h"
#include "cmp.h"
#include "check.h"
#include "congestion.h"
#include "jobs.h"
#include "lids.h"
#include "rng.h"
#include "slmap.h"
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
	assert_int_equal(cong_all_to_all(f, &s, &o, 2, &r, &err), 0);
	assert_int_equal(r.risk, 1);
	assert_int_equal(r.unroutable, 0);
	assert_int_equal(cong_shifts(f, &s, &o, 2, &r, &err), 0);
	assert_int_equal(r.risk, 1);
	/* random permutations of 4 hosts: never worse than all-to-all, the
	 * same for any thread count, reproducible from the seed */
	{
		struct cong_result a, b;

		assert_int_equal(cong_random_perms(f, &s, &o, 101, 7, 1, &a,
						   &err),
				 0);
		assert_int_equal(cong_random_perms(f, &s, &o, 101, 7, 2, &b,
						   &err),
				 0);
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
	assert_int_equal(cong_all_to_all(f, &s, &o, 2, &r, &err), 0);
	assert_int_equal(r.risk, 4);
	/* RP: a random permutation of 8 hosts over a 4:1 uplink; the median
	 * of the maxima lies between 1 and 4 */
	assert_int_equal(cong_random_perms(f, &s, &o, 1000, 1, 2, &r, &err), 0);
	assert_true(r.risk >= 1 && r.risk <= 4);
	/* a hole in the tables is counted, not walked through */
	lft_of_node(&s, fabric_find(f, "S2_0_0"))
		->port[f->nodes[fabric_find(f, "H_1_0")].ports[1].lid] =
		LFT_NONE;
	assert_int_equal(cong_all_to_all(f, &s, &o, 2, &r, &err), 0);
	assert_int_equal(r.unroutable, 4); /* the 4 hosts of L0 -> H_1_0 */
	lft_set_free(&s);
	cong_order_free(&o);
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
 * The ring of tu_ring3_net (LIDs in file order: A 1, B 2, C 3, HA 4, HB 5,
 * HC 6) routed clockwise: every switch sends every foreign LID out of port
 * 1, its own LID to 0 and its host's to 3.  HA -> HC goes A:1, B:1; HB ->
 * HA goes B:1, C:1; HC -> HB goes C:1, A:1: the dependencies A:1 -> B:1
 * -> C:1 -> A:1 close a cycle.
 */
static void ring_clockwise(struct fabric **f, struct lft_set *s)
{
	struct osmre_err err;
	unsigned lid;
	int i;

	assert_int_equal(tu_read_net(tu_ring3_net, f, &err), 0);
	assert_int_equal(lids_assign(*f, 0, &err), 0);
	assert_int_equal(lft_set_for_fabric(*f, lids_max(*f), s, &err), 0);
	for (i = 0; i < s->n; i++) {
		const struct fab_node *sw = &(*f)->nodes[s->t[i].node];

		for (lid = 1; lid <= s->t[i].top; lid++)
			s->t[i].port[lid] = 1;
		s->t[i].port[sw->ports[0].lid] = 0;
		s->t[i].port[(*f)->nodes[sw->ports[3].rnode].ports[1].lid] = 3;
	}
}

/* dmodc's up-down routes: no cycle.  A ring routed clockwise: a cycle. */
static void test_cdg(void **state)
{
	struct fabric *f = tu_pgft("3", "4,4,4", "1,4,4", "1,1,1", 0);
	struct cdg_result r;
	struct osmre_err err;
	struct lft_set s;
	int i;

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
	ring_clockwise(&f, &s);
	assert_int_equal(cdg_check(f, &s, NULL, &r, &err), 0);
	assert_false(r.acyclic);
	assert_int_equal(r.cycle_len, 3);
	for (i = 0; i < 3; i++)
		assert_int_equal(r.cycle_port[i], 1);
	cdg_result_free(&r);
	lft_set_free(&s);
	fabric_free(f);
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
	char msg[512];
	const char *p;

	(void)state;
	route(f, &s);
	p = tmpfile_with(
		"# two jobs\nH_0_0 A\nH_1_0 A\n\nH_0_1 B\nH_1_1 B\nnobody B\n");
	assert_int_equal(jobs_read(p, f, &j, &err), 0);
	assert_int_equal(j.njobs, 2);
	assert_int_equal(j.nhosts, 4);
	assert_int_equal(j.unknown, 1);
	assert_string_equal(j.unknown_name[0], "nobody");
	jobs_unknown_msg(&j, msg, sizeof(msg));
	assert_string_equal(msg, "1 host(s) not in the fabric ignored: nobody");
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
	/* hosts not in the fabric (down): the count, the first three */
	p = tmpfile_with("a 1\nH_0_0 1\nb\001 1\nc 2\n");
	assert_int_equal(jobs_read(p, f, &j, &err), 0);
	jobs_unknown_msg(&j, msg, sizeof(msg));
	assert_string_equal(
		msg, "3 host(s) not in the fabric ignored: a, b\\x01, c");
	jobs_free(&j);
	unlink(p);
	p = tmpfile_with("a 1\nb 1\nc 1\nd 2\ne 2\nH_0_0 2\n");
	assert_int_equal(jobs_read(p, f, &j, &err), 0);
	assert_int_equal(j.nhosts, 1);
	jobs_unknown_msg(&j, msg, sizeof(msg));
	assert_string_equal(
		msg, "5 host(s) not in the fabric ignored: a, b, c, ...");
	jobs_free(&j);
	unlink(p);
	/* malformed: file:line */
	p = tmpfile_with("H_0_0 A\nH_0_1\n");
	assert_int_equal(jobs_read(p, f, &j, &err), -1);
	assert_non_null(strstr(err.msg, ":2: expected \"<hostname> <jobid>\""));
	unlink(p);
	p = tmpfile_with("H_0_0 A\nH_0_0 B\n");
	assert_int_equal(jobs_read(p, f, &j, &err), -1);
	assert_non_null(
		strstr(err.msg, ":2: host \"H_0_0\" already listed at line 1"));
	unlink(p);
	lft_set_free(&s);
	fabric_free(f);
}

/*
 * sl_cursor_sl gives sl_map_sl's answer for every (SLID, DLID), DLIDs
 * ascending per source (LID by LID, then source by source): "path"
 * lines, "dest" lines, the default, a source above the cursor's LIDs and
 * one with no lines.
 */
static void test_sl_cursor(void **state)
{
	struct fabric *f;
	struct lft_set s;
	struct sl_map m;
	struct sl_cursor c;
	struct osmre_err err;
	char buf[8192];
	const char *p;
	size_t n = 0;
	unsigned sl, dl;

	(void)state;
	ring_clockwise(&f, &s);
	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "default 3\n");
	for (dl = 1; dl <= 12; dl++)
		if (dl % 3 == 0)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n,
					      "dest %u %u\n", dl, dl % 16);
	for (sl = 1; sl <= 12; sl++)
		for (dl = 1; dl <= 12; dl++)
			if ((sl * 7 + dl * 3) % 5 == 0 && sl != 5)
				n += (size_t)snprintf(buf + n, sizeof(buf) - n,
						      "path %u %u %u\n", sl, dl,
						      (sl + dl) % 16);
	p = tmpfile_with(buf);
	assert_int_equal(sl_map_read(p, f, &m, &err), 0);
	assert_int_equal(sl_cursor_init(&c, &m, 8), 0);
	for (dl = 1; dl <= 12; dl++)
		for (sl = 1; sl <= 12; sl++)
			assert_int_equal(sl_cursor_sl(&c, sl, dl),
					 sl_map_sl(&m, sl, dl));
	sl_cursor_free(&c);
	/* source by source: the DLIDs ascend per source only */
	assert_int_equal(sl_cursor_init(&c, &m, 8), 0);
	for (sl = 1; sl <= 12; sl++)
		for (dl = 1; dl <= 12; dl++)
			assert_int_equal(sl_cursor_sl(&c, sl, dl),
					 sl_map_sl(&m, sl, dl));
	/* some answers of each kind */
	assert_int_equal(sl_map_sl(&m, 4, 12), 12); /* dest 12 */
	assert_int_equal(sl_map_sl(&m, 1, 2), 3);   /* default */
	assert_int_equal(sl_map_sl(&m, 1, 6), 7);   /* path 1 6 */
	sl_cursor_free(&c);
	sl_map_free(&m);
	unlink(p);
	lft_set_free(&s);
	fabric_free(f);
}

/* A channel of the reference walk: (node, port, VL). */
static uint64_t ref_vc(int n, int p, int vl)
{
	return (uint64_t)n << 24 | (uint64_t)p << 8 | (uint64_t)vl;
}

static int ref_sw_port(const struct fabric *f, int n, int p)
{
	int r;

	if (p < 1 || p > f->nodes[n].nports)
		return 0;
	r = f->nodes[n].ports[p].rnode;
	return r >= 0 && f->nodes[r].type == FAB_SWITCH;
}

static int is_ca_lid(const struct fabric *f, const struct lid_owner *own,
		     unsigned lid)
{
	return own[lid].node >= 0 && f->nodes[own[lid].node].type != FAB_SWITCH;
}

static int cmp_pair(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* Random tables: to a CA's LID, mostly its port where attached, else any
 * switch port (loops included, and routes that pass the destination's
 * switch by). */
static void ref_tables(const struct fabric *f, const struct lid_owner *own,
		       unsigned max, struct lft_set *s, struct rng *rg)
{
	unsigned lid;
	int n, p;

	for (n = 0; n < f->nnodes; n++) {
		struct lft *t = lft_of_node(s, n);

		for (lid = 1; t && lid <= max; lid++) {
			int pick = 0, cnt = 0;

			if (!is_ca_lid(f, own, lid))
				continue;
			for (p = 1; p <= f->nodes[n].nports; p++) {
				if (f->nodes[n].ports[p].rnode ==
					    own[lid].node &&
				    rng_below(rg, 4))
					pick = p;
				cnt += ref_sw_port(f, n, p);
			}
			for (p = 1; !pick && p <= f->nodes[n].nports; p++)
				if (ref_sw_port(f, n, p) &&
				    !rng_below(rg, (uint64_t)cnt--))
					pick = p;
			t->port[lid] = (uint8_t)pick;
		}
	}
}

/* ref_sl_map's kinds: random SLs on half the paths, with random SL-to-VL
 * tables per switch, input and output port, or VL = SL; random SLs on
 * half the destinations ("dest" lines), VL = SL. */
enum { REF_TABLES, REF_PATHS, REF_BY_DEST };

/* An SL file of that kind. */
static void ref_sl_map(const struct fabric *f, const struct lid_owner *own,
		       unsigned max, int kind, struct rng *rg, struct sl_map *m)
{
	char path[] = "/tmp/osmre-cdgref-XXXXXX";
	struct osmre_err err;
	unsigned src, dst;
	int fd = mkstemp(path), n, p, q, sl;
	FILE *fp;

	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	assert_non_null(fp);
	fprintf(fp, "default 1\n");
	for (dst = 1; kind == REF_BY_DEST && dst <= max; dst++)
		if (own[dst].node >= 0 && rng_below(rg, 2))
			fprintf(fp, "dest %u %d\n", dst, (int)rng_below(rg, 4));
	for (src = 1; kind != REF_BY_DEST && src <= max; src++)
		for (dst = 1; is_ca_lid(f, own, src) && dst <= max; dst++)
			if (own[dst].node >= 0 && rng_below(rg, 2))
				fprintf(fp, "path %u %u %d\n", src, dst,
					(int)rng_below(rg, 4));
	for (n = 0; kind == REF_TABLES && n < f->nnodes; n++) {
		if (f->nodes[n].type != FAB_SWITCH)
			continue;
		fprintf(fp, "Switch 0x%016llx, base LID 1, \"x\"\n",
			(unsigned long long)f->nodes[n].guid);
		for (p = 0; p <= f->nodes[n].nports; p++)
			for (q = 1; q <= f->nodes[n].nports; q++) {
				fprintf(fp, "%d %d :", p, q);
				for (sl = 0; sl < 16; sl++)
					fprintf(fp, " %d",
						(int)rng_below(rg, 3));
				fprintf(fp, "\n");
			}
	}
	fclose(fp);
	if (sl_map_read(path, f, m, &err))
		fail_msg("%s", err.msg);
	unlink(path);
}

static int ref_sl(void *ctx, unsigned slid, unsigned dlid)
{
	return sl_map_sl(ctx, slid, dlid);
}

/* The dependencies of one route, walked whole (at most nnodes hops),
 * appended to dep[0..2 * *nd). */
static void ref_route(const struct fabric *f, const struct lft_set *s,
		      const struct sl_map *m, const struct fab_port *pt,
		      unsigned dlid, uint64_t **dep, long *nd, long *cap)
{
	int cur = pt->rnode, in = pt->rport, hops = 0;
	int sl = sl_map_sl(m, pt->lid, dlid);
	uint64_t prev = UINT64_MAX;

	while (cur >= 0 && f->nodes[cur].type == FAB_SWITCH &&
	       hops++ < f->nnodes) {
		int out = lft_get(lft_of_node(s, cur), dlid);
		uint64_t vc;

		if (!ref_sw_port(f, cur, out))
			break;
		vc = ref_vc(cur, out, sl_map_vl(m, cur, in, out, sl));
		if (prev != UINT64_MAX) {
			if (*nd == *cap) {
				*cap *= 2;
				*dep = realloc(*dep, (size_t)*cap * 2 *
							     sizeof(**dep));
				assert_non_null(*dep);
			}
			(*dep)[2 * *nd] = prev;
			(*dep)[2 * *nd + 1] = vc;
			(*nd)++;
		}
		prev = vc;
		in = f->nodes[cur].ports[out].rport;
		cur = f->nodes[cur].ports[out].rnode;
	}
}

/* The reference's distinct dependencies, and in *chans the channels they
 * touch. */
static long ref_deps(const struct fabric *f, const struct lft_set *s,
		     const struct sl_map *m, const struct lid_owner *own,
		     unsigned max, long *chans)
{
	long nd = 0, cap = 1 << 16, ndist = 0, nch = 0, k;
	uint64_t *dep = malloc((size_t)cap * 2 * sizeof(*dep)), *vcs;
	unsigned lid;
	int c, p;

	assert_non_null(dep);
	for (c = 0; c < f->nnodes; c++) {
		for (p = 1;
		     f->nodes[c].type != FAB_SWITCH && p <= f->nodes[c].nports;
		     p++) {
			const struct fab_port *pt = &f->nodes[c].ports[p];

			for (lid = 1; pt->lid && pt->rnode >= 0 && lid <= max;
			     lid++)
				if (is_ca_lid(f, own, lid) &&
				    own[lid].node != c)
					ref_route(f, s, m, pt, lid, &dep, &nd,
						  &cap);
		}
	}
	qsort(dep, (size_t)nd, 2 * sizeof(*dep), cmp_pair);
	vcs = malloc(((size_t)nd * 2 + 1) * sizeof(*vcs));
	assert_non_null(vcs);
	for (k = 0; k < nd; k++)
		if (!k || cmp_pair(&dep[2 * k], &dep[2 * k - 2])) {
			vcs[nch++] = dep[2 * k];
			vcs[nch++] = dep[2 * k + 1];
			ndist++;
		}
	qsort(vcs, (size_t)nch, sizeof(*vcs), cmp_u64);
	for (k = 0, *chans = 0; k < nch; k++)
		*chans += !k || vcs[k] != vcs[k - 1];
	free(dep);
	free(vcs);
	return ndist;
}

/* test_cdg_reference on fabric f, its draws from seed. */
static void cdg_reference_on(struct fabric *f, uint64_t seed)
{
	struct rng rg;
	struct lft_set s;
	struct lid_owner *own;
	struct sl_map m;
	struct cdg_result r;
	struct osmre_err err;
	struct cdg_sls sls = { .sl = ref_sl };
	unsigned max;
	long deps, chans;
	int kind;

	rng_seed(&rg, seed);
	assert_int_equal(lids_owners(f, &own, &max, &err), 0);
	assert_int_equal(lft_set_for_fabric(f, max, &s, &err), 0);
	ref_tables(f, own, max, &s, &rg);
	/* per-port SL-to-VL tables through cdg_check; then VL = SL through
	 * callbacks: SLs by path (vl_by_port 0: a switch's CA ports walked
	 * once per LID and SL), then by destination alone (sl_by_source 0:
	 * one walk a switch) */
	for (kind = REF_TABLES; kind <= REF_BY_DEST; kind++) {
		ref_sl_map(f, own, max, kind, &rg, &m);
		sls.ctx = &m;
		sls.sl_by_source = kind == REF_PATHS;
		deps = ref_deps(f, &s, &m, own, max, &chans);
		assert_int_equal(kind == REF_TABLES ?
					 cdg_check(f, &s, &m, &r, &err) :
					 cdg_check_sls(f, &s, &sls, &r, &err),
				 0);
		assert_int_equal(r.deps, deps);
		assert_int_equal(r.channels, chans);
		cdg_result_free(&r);
		sl_map_free(&m);
	}
	free(own);
	lft_set_free(&s);
}

/*
 * cdg_check against a reference written apart from it (ref_deps): every
 * route of every CA port to every other CA's LID walked whole, each hop's
 * VL from the SL map.  Random graphs, random tables, random SLs on half
 * the paths and random per-port SL-to-VL tables, so that routes meeting
 * at a switch arrive there on different VLs; then VL = SL through
 * cdg_check_sls's callbacks, with SLs by path and by destination.  Also
 * a ring of four switches with a two-port HCA on two of them, a switch
 * without CAs, a switch whose one CA is that HCA, and two CAs linked to
 * each other.
 */
static void test_cdg_reference(void **state)
{
	static const char odd[] =
		"Switch\t4 \"S0\"\n[1]\t\"S1\"[2]\n[2]\t\"S3\"[1]\n"
		"[3]\t\"h0\"[1]\n[4]\t\"h1\"[1]\n\n"
		"Switch\t3 \"S1\"\n[1]\t\"S2\"[2]\n[2]\t\"S0\"[1]\n"
		"[3]\t\"h0\"[2]\n\n"
		"Switch\t3 \"S2\"\n[1]\t\"S3\"[2]\n[2]\t\"S1\"[1]\n"
		"[3]\t\"h2\"[1]\n\n"
		"Switch\t2 \"S3\"\n[1]\t\"S0\"[2]\n[2]\t\"S2\"[1]\n\n"
		"Hca\t2 \"h0\"\n[1]\t\"S0\"[3]\n[2]\t\"S1\"[3]\n\n"
		"Hca\t1 \"h1\"\n[1]\t\"S0\"[4]\n\n"
		"Hca\t1 \"h2\"\n[1]\t\"S2\"[3]\n\n"
		"Hca\t1 \"h3\"\n[1]\t\"h4\"[1]\n\n"
		"Hca\t1 \"h4\"\n[1]\t\"h3\"[1]\n\n";
	struct fabric *f;
	uint64_t seed;
	int nsw;

	(void)state;
	for (seed = 1; seed <= 6; seed++) {
		char *text = tu_random_graph(seed, 20, &nsw);

		f = tu_from_text(text, 0);
		free(text);
		assert_non_null(f);
		cdg_reference_on(f, seed);
		fabric_free(f);
	}
	for (seed = 1; seed <= 20; seed++) {
		f = tu_from_text(odd, 0);
		assert_non_null(f);
		cdg_reference_on(f, seed);
		fabric_free(f);
	}
}

/*
 * The same ring with SLs and VLs.  A dateline on A (traffic entering A by
 * port 2, from C, and leaving by port 1 goes on VL 1) breaks the cycle:
 * (A:1,0) -> (B:1,0) -> (C:1,0) -> (A:1,1), which leads nowhere.  So does
 * giving the one route HC -> HB (LIDs 6 -> 5) SL 1.  Mapping every SL to
 * VL 1 keeps the cycle, now on VL 1.
 */
static void test_cdg_vls(void **state)
{
	struct fabric *f;
	struct lft_set s;
	struct sl_map m;
	struct cdg_result r;
	struct osmre_err err;
	const char *p;
	int i;

	(void)state;
	ring_clockwise(&f, &s);
	p = tmpfile_with(
		"# dateline on A, in OpenSM's opensm-sl2vl.dump format\n"
		"Switch 0x0000000000200000, base LID 1, \"A\"\n"
		"#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15\n"
		"2   1   : 1  1  1  1  1  1  1  1  1  1  1  1  1  1  1  1\n"
		"Channel Adapter 0x0000000000100001, base LID 4, \"HA\"\n"
		"0   0   : 0  0  0  0  0  0  0  0  0  0  0  0  0  0  0  0\n");
	assert_int_equal(sl_map_read(p, f, &m, &err), 0);
	assert_int_equal(cdg_check(f, &s, &m, &r, &err), 0);
	assert_true(r.acyclic);
	assert_int_equal(r.nvl, 2);
	assert_int_equal(r.deps, 3);
	assert_int_equal(r.channels, 4);
	sl_map_free(&m);
	unlink(p);

	p = tmpfile_with("default 0\npath 6 5 1\n");
	assert_int_equal(sl_map_read(p, f, &m, &err), 0);
	assert_int_equal(sl_map_sl(&m, 6, 5), 1);
	assert_int_equal(sl_map_sl(&m, 4, 5), 0);
	assert_int_equal(cdg_check(f, &s, &m, &r, &err), 0);
	assert_true(r.acyclic);
	assert_int_equal(r.deps, 3);
	sl_map_free(&m);
	unlink(p);

	/* the plugin's osmre-sar.dump: its "layers" header, then SLs */
	p = tmpfile_with(
		"# osmre sar state after a routing pass: the layers, then the\n"
		"layers 2 pass full job-aware 0 efi-sar 0 efi-dfsssp 0 efi-kept 0 updn-lids 0\n"
		"# osmre sar: 2 layer(s), SL = layer\ndefault 0\npath 6 5 1\n");
	assert_int_equal(sl_map_read(p, f, &m, &err), 0);
	assert_int_equal(sl_map_sl(&m, 6, 5), 1);
	assert_int_equal(sl_map_sl(&m, 4, 5), 0);
	sl_map_free(&m);
	unlink(p);

	p = tmpfile_with("sl2vl 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1\n");
	assert_int_equal(sl_map_read(p, f, &m, &err), 0);
	assert_int_equal(cdg_check(f, &s, &m, &r, &err), 0);
	assert_false(r.acyclic);
	assert_int_equal(r.cycle_len, 3);
	for (i = 0; i < 3; i++) {
		assert_int_equal(r.cycle_port[i], 1);
		assert_int_equal(r.cycle_vl[i], 1);
	}
	cdg_result_free(&r);
	sl_map_free(&m);
	unlink(p);

	/* bad lines: file:line */
	p = tmpfile_with("default 0\npath 6 5 16\n");
	assert_int_equal(sl_map_read(p, f, &m, &err), -1);
	assert_non_null(strstr(err.msg, ":2: expected \"path SLID DLID SL\""));
	unlink(p);
	p = tmpfile_with("Switch 0x0000000000abcdef, base LID 1, \"Z\"\n");
	assert_int_equal(sl_map_read(p, f, &m, &err), -1);
	assert_non_null(
		strstr(err.msg,
		       ":1: switch 0x0000000000abcdef is not in the topology"));
	unlink(p);
	p = tmpfile_with(
		"Switch 0x0000000000200000, base LID 1, \"A\"\n9 1 : 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
	assert_int_equal(sl_map_read(p, f, &m, &err), -1);
	assert_non_null(
		strstr(err.msg, ":2: port beyond the 4 ports of \"A\""));
	unlink(p);
	p = tmpfile_with("path 6 5 1\npath 6 5 2\n");
	assert_int_equal(sl_map_read(p, f, &m, &err), -1);
	assert_non_null(strstr(err.msg, "path 6 -> 5 listed twice"));
	unlink(p);
	lft_set_free(&s);
	fabric_free(f);
}

/*
 * Two switches A and B joined by one link (port 3), hosts a1, a2 on A and
 * b1, b2 on B; tables written by hand (LIDs: A 1, B 2, a1 3, a2 4, b1 5,
 * b2 6).  12 CA pairs: 4 on one switch (2 links), 8 across (3 links): min
 * 2, avg 32/12, max 3.  A2A: A:3 carries {a1, a2} to {b1, b2}: 2.  Shifts
 * in name order (a1 a2 b1 b2): k = 2 sends a1 -> b1 and a2 -> b2 over
 * A:3: SP = 2.  RP: of the 24 permutations of 4 hosts, 4 send both a's to
 * the b's (load 2), the identity sends nothing, the 19 others load a
 * port once at most: the median is 1.  No route turns from one
 * switch-to-switch link into another: the CDG has no dependency.
 */
static const char two_switches_net[] =
	"Switch\t3 \"A\"\n[1]\t\"a1\"[1]\n[2]\t\"a2\"[1]\n[3]\t\"B\"[3]\n\n"
	"Switch\t3 \"B\"\n[1]\t\"b1\"[1]\n[2]\t\"b2\"[1]\n[3]\t\"A\"[3]\n\n"
	"Hca\t1 \"a1\"\n[1]\t\"A\"[1]\n\nHca\t1 \"a2\"\n[1]\t\"A\"[2]\n\n"
	"Hca\t1 \"b1\"\n[1]\t\"B\"[1]\n\nHca\t1 \"b2\"\n[1]\t\"B\"[2]\n\n";

/* sl_map_write_paths into path, closed. */
static void write_paths(const char *path, const struct fabric *f,
			const char *name, int layers, const uint8_t *layer,
			int n, const int *node, const int *port,
			unsigned maxlid)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	assert_int_equal(sl_map_write_paths(fp, f, name, layers, layer, n, node,
					    port, maxlid),
			 0);
	assert_int_equal(fclose(fp), 0);
}

/*
 * sl_map_write_paths read back by sl_map_read: on PGFT(2;16,16;1,16)
 * (256 hosts, 288 LIDs) every source to every LID, SLs 0-15 in a
 * pattern, so the file (about 70,000 lines) crosses the writer's buffer
 * many times; each path's SL as written, the SL-0 ones not listed.
 * Without sources, the header alone.
 */
static void test_sl_write(void **state)
{
	struct fabric *f = tu_pgft("2", "16,16", "1,16", NULL, 0);
	unsigned maxlid = lids_max(f), lid;
	int *node = malloc((size_t)f->nnodes * sizeof(int));
	int *port = malloc((size_t)f->nnodes * sizeof(int));
	uint8_t *layer;
	struct sl_map m;
	struct osmre_err err;
	int n = 0, i, src, bad = 0;
	long listed = 0, lines = 0;
	char path[64], line[128];
	FILE *fp;

	(void)state;
	assert_non_null(node);
	assert_non_null(port);
	for (i = 0; i < f->nnodes; i++)
		if (!fab_is_switch(&f->nodes[i]) && !f->nodes[i].removed) {
			node[n] = i;
			port[n++] = 1;
		}
	assert_int_equal(n, 256);
	layer = calloc((size_t)n * (maxlid + 1), 1);
	assert_non_null(layer);
	for (src = 0; src < n; src++)
		for (lid = 1; lid <= maxlid; lid++) {
			uint8_t sl = (uint8_t)((src * 7 + lid * 3) % 17);

			layer[(size_t)src * (maxlid + 1) + lid] =
				sl > 15 ? 0 : sl;
			listed += sl > 0 && sl <= 15;
		}
	strcpy(path, "/tmp/osmre-sls-XXXXXX");
	assert_true(mkstemp(path) >= 0);
	write_paths(path, f, "sar", 3, layer, n, node, port, maxlid);
	fp = fopen(path, "r");
	assert_non_null(fp);
	assert_non_null(fgets(line, sizeof(line), fp));
	assert_string_equal(line, "# osmre sar: 3 layer(s), SL = layer\n");
	while (fgets(line, sizeof(line), fp))
		lines++;
	fclose(fp);
	assert_int_equal(lines, 1 + listed); /* default 0, the paths */
	assert_int_equal(sl_map_read(path, f, &m, &err), 0);
	assert_int_equal(m.npath, listed);
	for (src = 0; src < n; src++) {
		unsigned slid = f->nodes[node[src]].ports[1].lid;

		for (lid = 1; lid <= maxlid; lid++)
			bad += sl_map_sl(&m, slid, lid) !=
			       layer[(size_t)src * (maxlid + 1) + lid];
	}
	assert_int_equal(bad, 0);
	sl_map_free(&m);
	printf("SL file of %d sources to %u LIDs: %ld paths listed, each read back with its SL\n",
	       n, maxlid, listed);

	/* no sources known: the header and the default */
	write_paths(path, f, "dmodc", 1, layer, n, NULL, NULL, maxlid);
	assert_int_equal(sl_map_read(path, f, &m, &err), 0);
	assert_int_equal(m.npath, 0);
	sl_map_free(&m);
	unlink(path);
	free(layer);
	free(node);
	free(port);
	fabric_free(f);
}

static void test_two_switches(void **state)
{
	static const uint8_t ta[] = { 0, 0, 3, 1, 2, 3, 3 };
	static const uint8_t tb[] = { 0, 3, 0, 3, 3, 1, 2 };
	struct check_opts co = { .updown = 0, .threads = 1 };
	struct check_result cr;
	struct cdg_result cdg;
	struct cong_order o;
	struct cong_result r;
	struct osmre_err err;
	struct lft_set s;
	struct fabric *f;

	(void)state;
	assert_int_equal(tu_read_net(two_switches_net, &f, &err), 0);
	assert_int_equal(lids_assign(f, 0, &err), 0);
	assert_int_equal(lft_set_for_fabric(f, 6, &s, &err), 0);
	memcpy(lft_of_node(&s, fabric_find(f, "A"))->port, ta, sizeof(ta));
	memcpy(lft_of_node(&s, fabric_find(f, "B"))->port, tb, sizeof(tb));
	assert_int_equal(check_lfts(f, &s, &co, &cr, NULL, &err), 0);
	assert_true(check_ok(&cr));
	assert_int_equal(cr.pairs, 12);
	assert_int_equal(cr.min_hops, 2);
	assert_int_equal(cr.max_hops, 3);
	assert_true(cr.avg_hops > 32.0 / 12 - 1e-9 &&
		    cr.avg_hops < 32.0 / 12 + 1e-9);
	assert_int_equal(cong_order_make(f, CONG_ORDER_NAME, &o, &err), 0);
	assert_int_equal(o.n, 4);
	assert_int_equal(cong_all_to_all(f, &s, &o, 2, &r, &err), 0);
	assert_int_equal(r.risk, 2);
	assert_int_equal(cong_shifts(f, &s, &o, 2, &r, &err), 0);
	assert_int_equal(r.risk, 2);
	assert_int_equal(cong_random_perms(f, &s, &o, 1000, 5, 2, &r, &err), 0);
	assert_int_equal(r.risk, 1);
	assert_int_equal(cdg_check(f, &s, NULL, &cdg, &err), 0);
	assert_true(cdg.acyclic);
	assert_int_equal(cdg.deps, 0);
	/* a loop between the switches for b1's LID: check and the patterns
	 * agree that its routes fail */
	lft_of_node(&s, fabric_find(f, "B"))->port[5] = 3;
	assert_int_equal(check_lfts(f, &s, &co, &cr, NULL, &err), 0);
	assert_int_equal(cr.loops, 3);
	assert_int_equal(cong_all_to_all(f, &s, &o, 2, &r, &err), 0);
	assert_int_equal(r.unroutable, 3);
	cong_order_free(&o);
	lft_set_free(&s);
	fabric_free(f);
}

/*
 * PGFT(2;2,4;1,2): leaves L0..L3 of 2 hosts, spines S0, S1; dmodc sends
 * NID t (H_0_0 = 0, H_0_1 = 1, H_1_0 = 2, ...) through spine t mod 2.
 * 56 CA pairs: 8 on one leaf (2 links), 48 across (4 links): avg 208/56.
 * A2A: L0's uplink to S0 carries L0's 2 hosts to the 3 even NIDs of the
 * other leaves: 2; down-links carry many sources to 1 destination: 1.
 * Shifts: a leaf's 2 hosts send to 2 consecutive NIDs, of different
 * parity: SP = 1.  CDG: 8 up and 8 down channels, each up channel of
 * leaf a feeding the down channels of its spine to the 3 other leaves:
 * 24 dependencies.  Jobs A = {H_0_0, H_1_0} (NIDs 0, 2) and B = {H_0_1,
 * H_1_1, H_2_0} (1, 3, 4): L0->S0 carries 0->2 and 1->4, L1->S0 2->0 and
 * 3->4, S0->L2 1->4 and 3->4, L2->S1 4->1 and 4->3, S1->L1 1->3 and 4->3,
 * S1->L0 3->1 and 4->1: max 2; A's maximum 1, B's 2: average 1.5; 10 of
 * the 16 directed links carry a route: 37.5 % dark fiber.
 */
static void test_four_leaves(void **state)
{
	struct fabric *f = tu_pgft("2", "2,4", "1,2", "1,1", 0);
	struct check_opts co = { .updown = 1, .threads = 1 };
	struct check_result cr;
	struct cdg_result cdg;
	struct cong_order o;
	struct cong_result r;
	struct efi_result e;
	struct osmre_err err;
	struct lft_set s;
	struct jobs j;
	const char *p;

	(void)state;
	route(f, &s);
	assert_int_equal(check_lfts(f, &s, &co, &cr, NULL, &err), 0);
	assert_true(check_ok(&cr));
	assert_int_equal(cr.pairs, 56);
	assert_int_equal(cr.min_hops, 2);
	assert_int_equal(cr.max_hops, 4);
	assert_true(cr.avg_hops > 208.0 / 56 - 1e-9 &&
		    cr.avg_hops < 208.0 / 56 + 1e-9);
	assert_int_equal(cong_order_make(f, CONG_ORDER_NID, &o, &err), 0);
	assert_int_equal(o.n, 8);
	assert_int_equal(cong_all_to_all(f, &s, &o, 2, &r, &err), 0);
	assert_int_equal(r.risk, 2);
	assert_int_equal(cong_shifts(f, &s, &o, 2, &r, &err), 0);
	assert_int_equal(r.risk, 1);
	assert_int_equal(cdg_check(f, &s, NULL, &cdg, &err), 0);
	assert_true(cdg.acyclic);
	assert_int_equal(cdg.channels, 16);
	assert_int_equal(cdg.deps, 24);
	p = tmpfile_with("H_0_0 A\nH_1_0 A\nH_0_1 B\nH_1_1 B\nH_2_0 B\n");
	assert_int_equal(jobs_read(p, f, &j, &err), 0);
	assert_int_equal(jobs_efi(f, &s, &j, &e, &err), 0);
	assert_int_equal(e.links, 16);
	assert_int_equal(e.max, 2);
	assert_true(e.avg_job_max > 1.49 && e.avg_job_max < 1.51);
	assert_true(e.dark_pct > 37.49 && e.dark_pct < 37.51);
	jobs_free(&j);
	unlink(p);
	cong_order_free(&o);
	lft_set_free(&s);
	fabric_free(f);
}

/* Names in natural order: digits as numbers, distinct names never equal. */
static void test_natural_order(void **state)
{
	(void)state;
	assert_true(cong_natural_cmp("H_2_0", "H_10_0") < 0);
	assert_true(cong_natural_cmp("H_10_0", "H_2_0") > 0);
	assert_true(cong_natural_cmp("H_1_9", "H_1_10") < 0);
	assert_true(cong_natural_cmp("a01", "a1") < 0);
	assert_true(cong_natural_cmp("a1", "a01") > 0);
	assert_true(cong_natural_cmp("a1", "a2") < 0);
	assert_true(cong_natural_cmp("a", "a0") < 0);
	assert_true(cong_natural_cmp("b", "a99") > 0);
	assert_int_equal(cong_natural_cmp("H_3_4", "H_3_4"), 0);
	assert_true(cong_natural_cmp("x99999999999999999999999",
				     "x100000000000000000000000") < 0);
}

/* --order file: names, "name port", GUIDs; file:line errors. */
static void test_order_file(void **state)
{
	struct fabric *f;
	struct cong_order o;
	struct osmre_err err;
	const char *p;
	int unlisted;

	(void)state;
	assert_int_equal(tu_read_net(two_switches_net, &f, &err), 0);
	assert_int_equal(lids_assign(f, 0, &err), 0);
	p = tmpfile_with("# reversed\nb2\nb1 1\n\n0x0000000000100003\n");
	assert_int_equal(cong_order_read(p, f, &o, &unlisted, &err), 0);
	assert_int_equal(o.n, 3);
	assert_int_equal(unlisted, 1);
	assert_string_equal(f->nodes[o.node[0]].name, "b2");
	assert_string_equal(f->nodes[o.node[1]].name, "b1");
	assert_int_equal(f->nodes[o.node[2]].ports[o.port[2]].guid, 0x100003);
	assert_string_equal(f->nodes[o.node[2]].name, "a2");
	cong_order_free(&o);
	unlink(p);
	p = tmpfile_with("a1\nzz\n");
	assert_int_equal(cong_order_read(p, f, &o, &unlisted, &err), -1);
	assert_non_null(strstr(err.msg, ":2: no CA \"zz\" in the topology"));
	unlink(p);
	p = tmpfile_with("a1\na2\na1 1\n");
	assert_int_equal(cong_order_read(p, f, &o, &unlisted, &err), -1);
	assert_non_null(
		strstr(err.msg, ":3: \"a1\" port 1 already listed at line 1"));
	unlink(p);
	p = tmpfile_with("a1 2\n");
	assert_int_equal(cong_order_read(p, f, &o, &unlisted, &err), -1);
	assert_non_null(
		strstr(err.msg, ":1: \"a1\" port 2 has no LID or no link"));
	unlink(p);
	fabric_free(f);
}

/*
 * RP's permutations (rng_permutation, shared by osmre analyze, sar's
 * risk and the bandwidth estimate): each a permutation, the same for a
 * seed, and uniform: 6,000 draws of n = 3 give each of the 6 orders
 * 1,000 times expected (a Sattolo slip, rng_below(i) for i + 1, gives
 * only the 2 cycles).
 */
static void test_permutation(void **state)
{
	int p[1000], q[1000], seen[1000], count[6] = { 0 }, i, k;
	struct rng r, r2;

	(void)state;
	rng_seed(&r, 5);
	rng_seed(&r2, 5);
	rng_permutation(&r, p, 1000);
	rng_permutation(&r2, q, 1000);
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < 1000; i++) {
		assert_true(p[i] >= 0 && p[i] < 1000);
		assert_int_equal(seen[p[i]]++, 0);
		assert_int_equal(p[i], q[i]);
	}
	rng_permutation(&r2, q, 1000);
	assert_true(memcmp(p, q, sizeof(p)) != 0);
	rng_permutation(&r, p, 0);
	rng_permutation(&r, p, 1);
	assert_int_equal(p[0], 0);
	for (k = 0; k < 6000; k++) {
		rng_permutation(&r, p, 3);
		/* the order's index: first element, then whether the rest
		 * ascend */
		count[p[0] * 2 + (p[1] > p[2])]++;
	}
	for (k = 0; k < 6; k++)
		assert_true(count[k] > 850 && count[k] < 1150);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_natural_order),
		cmocka_unit_test(test_permutation),
		cmocka_unit_test(test_two_spines),
		cmocka_unit_test(test_blocking),
		cmocka_unit_test(test_cdg),
		cmocka_unit_test(test_efi),
		cmocka_unit_test(test_cdg_vls),
		cmocka_unit_test(test_sl_cursor),
		cmocka_unit_test(test_cdg_reference),
		cmocka_unit_test(test_sl_write),
		cmocka_unit_test(test_two_switches),
		cmocka_unit_test(test_four_leaves),
		cmocka_unit_test(test_order_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
