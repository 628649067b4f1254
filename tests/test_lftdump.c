/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * opensm-lfts.dump: reading what OpenSM and dump_fts wrote on ibsim, and
 * writing exactly what OpenSM writes.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lids.h"
#include "netfile.h"
#include "planes.h"
#include "testutil.h"

static struct fabric *small(void)
{
	struct osmre_err err;
	struct fabric *f;

	if (netfile_read(tu_data("ibsim-small.net"), &f, &err))
		fail_msg("%s", err.msg);
	return f;
}

static void read_bound(const char *name, struct fabric *f, struct lft_set *s)
{
	struct osmre_err err;

	if (lftdump_read(tu_data(name), s, &err) || lft_set_bind(s, f, &err))
		fail_msg("%s: %s", name, err.msg);
}

/* OpenSM's dump and dump_fts of the same fabric give the same tables. */
static void test_read_real_dumps(void **state)
{
	struct fabric *f = small();
	struct lft_set a, b;
	struct osmre_err err;
	char diff[256];

	(void)state;
	read_bound("ibsim-small.opensm-lfts.dump", f, &a);
	read_bound("ibsim-small.dump_fts", f, &b);
	assert_int_equal(a.n, 2);
	assert_true(lft_set_equal(&a, &b, diff, sizeof(diff)));
	assert_int_equal(lft_get(&a.t[0], 4), 2); /* S1: H2 by port 2 */
	assert_int_equal(lft_get(&a.t[1], 2), 3); /* S2: S1 by port 3 */
	/* LIDs as OpenSM assigned them on ibsim */
	assert_int_equal(lft_set_import_lids(&b, f, &err), 1);
	assert_int_equal(f->nodes[fabric_find(f, "H1")].ports[1].lid, 1);
	assert_int_equal(f->nodes[fabric_find(f, "S1")].ports[0].lid, 2);
	assert_int_equal(f->nodes[fabric_find(f, "H3")].ports[1].lid, 5);
	lft_set_free(&a);
	lft_set_free(&b);
	fabric_free(f);
}

/* What osmre writes is byte for byte what OpenSM wrote for the same LFTs. */
static void test_write_matches_opensm(void **state)
{
	struct fabric *f = small();
	struct lft_set a;
	struct osmre_err err;
	char *buf = NULL, *orig;
	size_t len, olen;
	FILE *fp;

	(void)state;
	read_bound("ibsim-small.opensm-lfts.dump", f, &a);
	assert_int_equal(lft_set_import_lids(&a, f, &err), 1);
	fp = open_memstream(&buf, &len);
	assert_int_equal(lftdump_write(fp, f, &a, &err), 0);
	fclose(fp);
	fp = fopen(tu_data("ibsim-small.opensm-lfts.dump"), "r");
	assert_non_null(fp);
	orig = calloc(1, 65536);
	olen = fread(orig, 1, 65535, fp);
	fclose(fp);
	assert_int_equal(len, olen);
	assert_memory_equal(buf, orig, len);
	free(buf);
	free(orig);
	lft_set_free(&a);
	fabric_free(f);
}

/* Write then read gives the same tables, LMC included. */
static void test_round_trip(void **state)
{
	struct fabric *f = tu_pgft("2", "4,4", "1,4", "1,1", 1);
	struct lft_set a, b;
	struct osmre_err err;
	char *buf = NULL, diff[256];
	size_t len;
	FILE *fp;
	int i;
	unsigned l;

	(void)state;
	assert_int_equal(lft_set_for_fabric(f, lids_max(f), &a, &err), 0);
	for (i = 0; i < a.n; i++)
		for (l = 1; l <= a.t[i].top; l++)
			a.t[i].port[l] = (uint8_t)(1 + (l + (unsigned)i) % 4);
	fp = open_memstream(&buf, &len);
	assert_int_equal(lftdump_write(fp, f, &a, &err), 0);
	fclose(fp);
	fp = fmemopen(buf, len, "r");
	assert_int_equal(lftdump_read_stream(fp, "mem", &b, &err), 0);
	fclose(fp);
	assert_int_equal(lft_set_bind(&b, f, &err), 0);
	assert_true(lft_set_equal(&a, &b, diff, sizeof(diff)));
	assert_int_equal(lft_set_import_lids(&b, f, &err), 1);
	assert_int_equal(f->nodes[f->nnodes - 1].ports[1].lmc, 1);
	free(buf);
	lft_set_free(&a);
	lft_set_free(&b);
	fabric_free(f);
}

/* text: len bytes, NULs included */
static void expect_error_len(const char *text, size_t len, const char *what)
{
	struct osmre_err err;
	struct lft_set s;
	char *copy;
	FILE *fp = tu_memfile(text, len, &copy);

	assert_int_equal(lftdump_read_stream(fp, "x.dump", &s, &err), -1);
	fclose(fp);
	free(copy);
	if (!strstr(err.msg, what))
		fail_msg("expected \"%s\" in \"%s\"", what, err.msg);
}

static void expect_error(const char *text, const char *what)
{
	expect_error_len(text, strlen(text), what);
}

static void test_malformed(void **state)
{
	struct fabric *f = small();
	struct lft_set s;
	struct osmre_err err;
	static const char unknown[] =
		"Unicast lids [0-1] of switch Lid 1 guid 0x0000000000abcdef ('X'):\n0x0001 000 # x\n";
	static const char nul[] =
		"Unicast lids [0-1] of switch Lid 1 guid 0x1 ('X'):\n0x0001 00\0001\n";
	char *copy;
	FILE *fp;

	(void)state;
	expect_error("0x0001 001 # x\n",
		     "x.dump:1: LFT row before any \"Unicast lids\" header");
	expect_error("Unicast lids [0-1] of switch Lid 1 ('X'):\n",
		     "x.dump:1: expected \" guid 0x");
	expect_error(
		"Unicast lids [0-1] of switch Lid 1 guid 0x1 ('X'):\n0xzz 001\n",
		"x.dump:2: expected a unicast LID");
	expect_error(
		"Unicast lids [0-1] of switch Lid 1 guid 0x1 ('X'):\n0x0001 abc\n",
		"x.dump:2: expected an output port");
	expect_error(
		"Unicast lids [0-1] of switch Lid 1 guid 0x1 ('X'):\n0x0001 300\n",
		"x.dump:2: expected an output port");
	expect_error("Multicast mlids [0xc000-0xc3ff] of switch\n",
		     "multicast");
	expect_error("\n", "no \"Unicast lids\" switch table");
	/* a NUL is no end of row: "00<NUL>1" must not read as port 0 */
	expect_error_len(nul, sizeof(nul) - 1,
			 "x.dump:2: column 10: a NUL byte");
	fp = tu_memfile(unknown, strlen(unknown), &copy);
	assert_int_equal(lftdump_read_stream(fp, "u", &s, &err), 0);
	fclose(fp);
	free(copy);
	assert_int_equal(lft_set_bind(&s, f, &err), -1);
	assert_non_null(strstr(err.msg, "0x0000000000abcdef"));
	lft_set_free(&s);
	fabric_free(f);
}

/*
 * Two planes, A and B, each host with a port in each; each plane's dump
 * from its own SM, LIDs from 1: A 1, HX 2, HY 3 and B 1, HY 2, HX 3.
 */
static const char two_planes[] =
	"Switch\t2 \"A\"\n[1]\t\"HX\"[1]\n[2]\t\"HY\"[1]\n\n"
	"Switch\t2 \"B\"\n[1]\t\"HX\"[2]\n[2]\t\"HY\"[2]\n\n"
	"Hca\t2 \"HX\"\n[1]\t\"A\"[1]\n[2]\t\"B\"[1]\n\n"
	"Hca\t2 \"HY\"\n[1]\t\"A\"[2]\n[2]\t\"B\"[2]\n\n";
static const char plane_a[] =
	"Unicast lids [0-3] of switch Lid 1 guid 0x0000000000200000 ('A'):\n"
	"0x0001 000 # Switch portguid 0x0000000000200000: 'A'\n"
	"0x0002 001 # Channel Adapter portguid 0x0000000000100001: 'HX'\n"
	"0x0003 002 # Channel Adapter portguid 0x0000000000100004: 'HY'\n";
static const char plane_b[] =
	"Unicast lids [0-3] of switch Lid 1 guid 0x0000000000200001 ('B'):\n"
	"0x0001 000 # Switch portguid 0x0000000000200001: 'B'\n"
	"0x0002 002 # Channel Adapter portguid 0x0000000000100005: 'HY'\n"
	"0x0003 001 # Channel Adapter portguid 0x0000000000100002: 'HX'\n";

static const char *dump_file(const char *text, char *path)
{
	FILE *fp;
	int fd;

	strcpy(path, "/tmp/osmre-plane-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	return path;
}

/* One dump per plane: LIDs re-based, the second plane's after the first's,
 * and matched to the topology by port GUID. */
static void test_planes(void **state)
{
	char pa[64], pb[64], pn[64];
	const char *paths[2] = { dump_file(plane_a, pa),
				 dump_file(plane_b, pb) };
	const char *same[2] = { paths[0], paths[0] };
	const char *nogid[2] = { paths[0], NULL };
	struct fabric *f;
	struct lft_set s;
	struct osmre_err err;
	const struct lft *b;

	(void)state;
	assert_int_equal(tu_read_net(two_planes, &f, &err), 0);
	/* concatenated, the two LID spaces clash */
	{
		char both[sizeof(plane_a) + sizeof(plane_b)];
		FILE *fp;

		snprintf(both, sizeof(both), "%s%s", plane_a, plane_b);
		fp = fmemopen(both, strlen(both), "r");
		assert_int_equal(lftdump_read_stream(fp, "cat", &s, &err), -1);
		fclose(fp);
		assert_non_null(strstr(
			err.msg,
			"cat:6: LID 0x0001 names two different port GUIDs"));
	}
	assert_int_equal(lftdump_read_planes(paths, 2, &s, &err), 0);
	assert_int_equal(lft_set_bind(&s, f, &err), 0);
	assert_int_equal(lft_set_import_lids(&s, f, &err), 1);
	assert_int_equal(s.n, 2);
	assert_int_equal(f->nodes[fabric_find(f, "A")].ports[0].lid, 1);
	assert_int_equal(f->nodes[fabric_find(f, "HX")].ports[1].lid, 2);
	assert_int_equal(f->nodes[fabric_find(f, "B")].ports[0].lid, 4);
	assert_int_equal(f->nodes[fabric_find(f, "HY")].ports[2].lid, 5);
	assert_int_equal(f->nodes[fabric_find(f, "HX")].ports[2].lid, 6);
	b = lft_of_node(&s, fabric_find(f, "B"));
	assert_non_null(b);
	assert_int_equal(lft_get(b, 2), LFT_NONE); /* plane A's LIDs */
	assert_int_equal(lft_get(b, 4), 0);
	assert_int_equal(lft_get(b, 5), 2);
	assert_int_equal(lft_get(b, 6), 1);
	assert_int_equal(lft_get(lft_of_node(&s, fabric_find(f, "A")), 3), 2);
	lft_set_free(&s);
	/* one dump twice: its switch and ports in two planes */
	assert_int_equal(lftdump_read_planes(same, 2, &s, &err), -1);
	assert_non_null(strstr(err.msg, "expected one dump per plane"));
	/* a dump whose rows name no GUID cannot be matched */
	nogid[1] = dump_file(
		"Unicast lids [0-1] of switch Lid 1 guid 0x0000000000200001 ('B'):\n0x0001 000\n",
		pn);
	assert_int_equal(lftdump_read_planes(nogid, 2, &s, &err), -1);
	assert_non_null(
		strstr(err.msg, "no row names its destination's port GUID"));
	unlink(pa);
	unlink(pb);
	unlink(pn);
	fabric_free(f);
}

/* One topology per plane, as each plane's ibnetdiscover sees it, makes
 * the fabric of both. */
static void test_merge(void **state)
{
	static const char p0[] =
		"Switch\t2 \"A\"\n[1]\t\"HX\"[1]\n[2]\t\"HY\"[1]\n\n"
		"Hca\t2 \"HX\"\n[1]\t\"A\"[1]\n\nHca\t2 \"HY\"\n[1]\t\"A\"[2]\n\n";
	static const char p1[] =
		"switchguid=0x200001\n"
		"Switch\t2 \"B\"\n[1]\t\"HX\"[2]\n[2]\t\"HY\"[2]\n\n"
		"caguid=0x100000\n"
		"Hca\t2 \"HX\"\n[2]\t\"B\"[1]\n\nHca\t2 \"HY\"\n[2]\t\"B\"[2]\n\n";
	/* HX and HY swapped on B */
	static const char p1x[] =
		"switchguid=0x200001\n"
		"Switch\t2 \"B\"\n[1]\t\"HY\"[2]\n[2]\t\"HX\"[2]\n\n"
		"caguid=0x100000\n"
		"Hca\t2 \"HX\"\n[2]\t\"B\"[2]\n\nHca\t2 \"HY\"\n[2]\t\"B\"[1]\n\n";
	struct fabric *parts[3], *m;
	const char *names[3] = { "p0", "p1", "p1x" };
	struct osmre_err err;
	int hx;

	(void)state;
	assert_int_equal(tu_read_net(p0, &parts[0], &err), 0);
	assert_int_equal(tu_read_net(p1, &parts[1], &err), 0);
	assert_int_equal(tu_read_net(p1x, &parts[2], &err), 0);
	assert_int_equal(fabric_merge((const struct fabric *const *)parts,
				      names, 2, &m, &err),
			 0);
	assert_int_equal(m->nnodes, 4);
	hx = fabric_find(m, "HX");
	assert_int_equal(m->nodes[hx].guid, 0x100000);
	assert_int_equal(m->nodes[hx].ports[1].rnode, fabric_find(m, "A"));
	assert_int_equal(m->nodes[hx].ports[2].rnode, fabric_find(m, "B"));
	assert_int_equal(m->nodes[hx].ports[2].rport, 1);
	assert_int_equal(m->nodes[fabric_find(m, "B")].guid, 0x200001);
	assert_int_equal(m->nodes[hx].ports[1].lid, 0); /* no part's LIDs */
	fabric_free(m);
	/* a part that cables a port elsewhere */
	assert_int_equal(fabric_merge((const struct fabric *const *)parts + 1,
				      names + 1, 2, &m, &err),
			 -1);
	assert_non_null(strstr(err.msg, "p1x: "));
	assert_non_null(
		strstr(err.msg,
		       "expected the cabling of the earlier topologies"));
	fabric_free(parts[0]);
	fabric_free(parts[1]);
	fabric_free(parts[2]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_real_dumps),
		cmocka_unit_test(test_write_matches_opensm),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_planes),
		cmocka_unit_test(test_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
