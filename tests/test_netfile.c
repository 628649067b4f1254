/* SPDX-License-Identifier: BSD-2-Clause */
/* Net file reader and writer: round trips, ibsim GUIDs, malformed input. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netfile.h"
#include "testutil.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "r");
	char *buf;
	long n;

	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	buf[n] = 0;
	fclose(fp);
	*len = (size_t)n;
	return buf;
}

static char *write_mem(const struct fabric *f, size_t *len)
{
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);

	assert_non_null(fp);
	assert_int_equal(netfile_write(fp, f), 0);
	fclose(fp);
	return buf;
}

/* Reading then writing the bundled fixtures gives them back byte for byte. */
static void test_round_trip(void **state)
{
	const char *files[] = { "sar180.net", "blk216.net", "ibsim-small.net" };
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		struct osmre_err err;
		struct fabric *f;
		size_t n1, n2;
		char *orig = slurp(tu_data(files[i]), &n1), *out;

		if (netfile_read(tu_data(files[i]), &f, &err))
			fail_msg("%s", err.msg);
		out = write_mem(f, &n2);
		assert_int_equal(n1, n2);
		assert_memory_equal(orig, out, n1);
		free(orig);
		free(out);
		fabric_free(f);
	}
}

/* GUIDs as ibsim gave them to OpenSM (seen in dump_fts on ibsim 0.10). */
static void test_ibsim_guids(void **state)
{
	struct osmre_err err;
	struct fabric *f;

	(void)state;
	assert_int_equal(netfile_read(tu_data("ibsim-small.net"), &f, &err), 0);
	assert_int_equal(f->nodes[fabric_find(f, "S1")].guid, 0x200000);
	assert_int_equal(f->nodes[fabric_find(f, "S2")].guid, 0x200001);
	assert_int_equal(f->nodes[fabric_find(f, "H1")].ports[1].guid,
			 0x100001);
	assert_int_equal(f->nodes[fabric_find(f, "H2")].ports[1].guid,
			 0x100004);
	assert_int_equal(f->nodes[fabric_find(f, "H3")].ports[1].guid,
			 0x100007);
	fabric_free(f);
}

static void test_guid_lines(void **state)
{
	static const char net[] =
		"switchguid=0x5000\n"
		"Switch\t2 \"A\" # \"switch A\"\n[1]\t\"B\"[1]\n[2]\t\"H\"[1]\n\n"
		"switchguid+0x10\n"
		"Switch\t2 \"B\"\n[1]\t\"A\"[1]\n\n"
		"caguid=0x9000\n"
		"Hca\t2 \"H\"\n[1]\t\"A\"[2]\n\n";
	struct osmre_err err;
	struct fabric *f;
	char *out;
	size_t n;

	(void)state;
	assert_int_equal(tu_read_net(net, &f, &err), 0);
	assert_int_equal(f->nodes[0].guid, 0x5000);
	assert_string_equal(f->nodes[0].desc, "switch A");
	assert_int_equal(f->nodes[1].guid, 0x5010);
	assert_int_equal(f->nodes[2].ports[1].guid, 0x9001);
	/* the writer keeps the GUIDs with its own counter lines */
	out = write_mem(f, &n);
	fabric_free(f);
	assert_int_equal(tu_read_net(out, &f, &err), 0);
	assert_int_equal(f->nodes[1].guid, 0x5010);
	assert_int_equal(f->nodes[2].ports[1].guid, 0x9001);
	free(out);
	fabric_free(f);
}

/* ibnetdiscover style: GUIDs in parentheses, descriptions, LIDs. */
static void test_ibnetdiscover_style(void **state)
{
	static const char net[] =
		"vendid=0x2c9\ndevid=0xc738\n"
		"switchguid=0x2c903004ac4a0(2c903004ac4a0)\n"
		"Switch\t36 \"S-0002c903004ac4a0\"\t\t# \"MF0;switch\" enhanced port 0 lid 3 lmc 0\n"
		"[5]\t\"H-0002c9030060f7e0\"[1](2c9030060f7e1) \t\t# \"node1 HCA-1\" lid 4 4xQDR\n"
		"\n"
		"caguid=0x2c9030060f7e0\n"
		"Ca\t2 \"H-0002c9030060f7e0\"\t\t# \"node1 HCA-1\"\n"
		"[1](2c9030060f7e1) \t\"S-0002c903004ac4a0\"[5]\t\t# lid 4 lmc 1 \"MF0;switch\" lid 3 4xQDR\n"
		"\n";
	struct osmre_err err;
	struct fabric *f;

	(void)state;
	if (tu_read_net(net, &f, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(f->nodes[0].guid, 0x2c903004ac4a0ULL);
	assert_int_equal(f->nodes[0].ports[0].lid, 3);
	assert_string_equal(f->nodes[1].desc, "node1 HCA-1");
	assert_int_equal(f->nodes[1].ports[1].lid, 4);
	assert_int_equal(f->nodes[1].ports[1].lmc, 1);
	assert_int_equal(f->nodes[1].ports[1].guid, 0x2c9030060f7e1ULL);
	assert_int_equal(f->nodes[0].ports[5].rnode, 1);
	fabric_free(f);
}

static void expect_error(const char *net, const char *what)
{
	struct osmre_err err;
	struct fabric *f = NULL;

	err.msg[0] = 0;
	assert_int_equal(tu_read_net(net, &f, &err), -1);
	assert_null(f);
	if (!strstr(err.msg, what))
		fail_msg("expected \"%s\" in \"%s\"", what, err.msg);
}

static void test_malformed(void **state)
{
	(void)state;
	/* truncated line: no closing quote */
	expect_error("Switch\t2 \"A\"\n[1]\t\"B\n\n",
		     "test.net:2: expected a quoted remote node name");
	expect_error("Switch\t2 \"A\n",
		     "test.net:1: expected a quoted node name");
	expect_error("Switch\t\"A\"\n",
		     "test.net:1: expected a number of ports");
	/* unknown node */
	expect_error("Switch\t2 \"A\"\n[1]\t\"B\"[1]\n\n",
		     "test.net:2: unknown node \"B\"");
	/* port out of range, on the local and the remote end */
	expect_error("Switch\t2 \"A\"\n[3]\t\"B\"[1]\n\n",
		     "test.net:2: port 3 of \"A\" out of range 1..2");
	expect_error(
		"Switch\t2 \"A\"\n[1]\t\"B\"[4]\n\nSwitch\t2 \"B\"\n[1]\t\"A\"[1]\n\n",
		"test.net:2: port 4 of \"B\" out of range 1..2");
	/* asymmetric link */
	expect_error(
		"Switch\t2 \"A\"\n[1]\t\"B\"[2]\n\nSwitch\t2 \"B\"\n[1]\t\"A\"[1]\n\n",
		"test.net:2: asymmetric link: \"A\"[1] -> \"B\"[2], but \"B\"[2] lists nothing");
	expect_error(
		"Switch\t2 \"A\"\n[1]\t\"B\"[1]\n\nSwitch\t2 \"B\"\n[1]\t\"A\"[2]\n\n",
		"asymmetric link");
	/* duplicate node */
	expect_error("Switch\t2 \"A\"\n\nSwitch\t2 \"A\"\n\n",
		     "test.net:3: duplicate node name \"A\"");
	/* a header swallowed by ibsim for want of a blank line */
	expect_error(
		"Switch\t3 \"A\"\n[1]\t\"B\"[1]\nSwitch\t2 \"B\"\n[1]\t\"A\"[1]\n\n",
		"test.net:3: expected a port line or a blank line");
	/* the same port twice */
	expect_error("Switch\t3 \"A\"\n[1]\t\"B\"[1]\n[1]\t\"B\"[2]\n\n",
		     "listed twice");
	expect_error("", "no nodes found");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_ibsim_guids),
		cmocka_unit_test(test_guid_lines),
		cmocka_unit_test(test_ibnetdiscover_style),
		cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
