/* SPDX-License-Identifier: BSD-2-Clause */
/* jobwatch's core: Slurm hostlists, squeue output, leaf filtering, change
 * detection, the job file text. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hostlist.h"
#include "jobwatch.h"
#include "testutil.h"

static void expect_hosts(const char *list, const char *want)
{
	struct hostlist h = { 0 };
	struct osmre_err err;
	char got[4096] = "";
	int i;

	if (hostlist_expand(list, &h, &err))
		fail_msg("%s: %s", list, err.msg);
	for (i = 0; i < h.n; i++) {
		strcat(got, i ? " " : "");
		strcat(got, h.name[i]);
	}
	if (strcmp(got, want))
		fail_msg("%s: got \"%s\", want \"%s\"", list, got, want);
	hostlist_free(&h);
}

static void expect_bad(const char *list, const char *what)
{
	struct hostlist h = { 0 };
	struct osmre_err err;

	assert_int_equal(hostlist_expand(list, &h, &err), -1);
	if (!strstr(err.msg, what))
		fail_msg("%s: \"%s\" lacks \"%s\"", list, err.msg, what);
	/* a failure leaves nothing behind, even after a partial expansion */
	assert_int_equal(h.n, 0);
	assert_null(h.name);
}

static void test_hostlists(void **state)
{
	(void)state;
	expect_hosts("n1", "n1");
	expect_hosts("node[001-004,007]",
		     "node001 node002 node003 node004 node007");
	expect_hosts("r[1-2]n[01-03]", "r1n01 r1n02 r1n03 r2n01 r2n02 r2n03");
	expect_hosts("a,b[8-10],c", "a b8 b9 b10 c");
	expect_hosts("n[098-101]", "n098 n099 n100 n101");
	expect_hosts("H_[0-1]_[0-1]", "H_0_0 H_0_1 H_1_0 H_1_1");
	expect_hosts("x[7]", "x7");
	expect_bad("a[1-2],b[3-4],c[1-", "'[' without ']'");
	expect_bad("n[1-", "'[' without ']'");
	/* empty brackets: refused at once, not after walking the groups
	 * before them (found by fuzz_squeue: this one took minutes) */
	expect_bad("a[0-999]b[0-999]c[0-99]d[]", "column 25: empty brackets");
	/* at most 49,152 names: no subnet has more hosts (fuzz_squeue: 200,000
	 * names of 255 bytes per line cost gigabytes under ASan) */
	expect_bad("n[0-49152]", "column 3: range 0-49152");
	expect_bad("a[0-999]b[0-99]", "more than 49152 names");
	expect_bad("n1-2]", "']' without '['");
	expect_bad("n[a-b]", "column 3: expected a number or a range");
	expect_bad("n[5-3]", "range 5-3");
	expect_bad("n[1,,2]", "empty number or range");
	expect_bad("n[1-]", "empty number or range");
	expect_bad("a,,b", "column 3: empty name");
	expect_bad("a,", "ends with a comma");
	expect_bad("", "empty hostlist");
}

/*
 * A PGFT(2;4,4;1,2): 4 leaves of 4 hosts, H_<leaf>_<i>.  Jobs: 10 on
 * leaves 0 and 1 (kept), 11 on leaf 2 only (left out), array element
 * 12_3 on leaves 2 and 3, heterogeneous job 13 in two components.
 */
static const char squeue_out[] = "10|H_0_[0-1],H_1_0\n"
				 "11|H_2_[0-3]\n"
				 "\n"
				 "12_3|H_[2-3]_1\n"
				 "13+0|H_3_2\n"
				 "13+1|H_0_3,nobody\n"
				 "14|(null)\n";

static void test_squeue(void **state)
{
	struct fabric *f = tu_pgft("2", "4,4", "1,2", "1,1", 0);
	struct jw_list l, m;
	struct osmre_err err;
	char *text;

	(void)state;
	assert_int_equal(jw_from_squeue(squeue_out, f, 2, &l, &err), 0);
	assert_int_equal(l.jobs, 3);
	assert_int_equal(l.n, 7);
	assert_int_equal(l.dropped, 1);
	assert_int_equal(l.unknown, 1);
	assert_string_equal(l.first_unknown, "nobody");
	text = jw_format(&l);
	assert_non_null(text);
	assert_string_equal(text,
			    "# written by osmre jobwatch: 3 jobs, 7 hosts\n"
			    "H_0_0 10\nH_0_1 10\nH_1_0 10\n"
			    "H_2_1 12_3\nH_3_1 12_3\n"
			    "H_0_3 13\nH_3_2 13\n# end\n");
	free(text);
	/* one leaf switch is enough with --min-switches 1 */
	assert_int_equal(jw_from_squeue(squeue_out, f, 1, &m, &err), 0);
	assert_int_equal(m.jobs, 4);
	assert_false(jw_same(&l, &m));
	jw_free(&m);
	/* the same set in another order is no change */
	assert_int_equal(
		jw_from_squeue(
			"13+1|H_0_3\n12_3|H_3_1,H_2_1\n10|H_1_0,H_0_[0-1]\n13+0|H_3_2\n",
			f, 2, &m, &err),
		0);
	assert_true(jw_same(&l, &m));
	jw_free(&m);
	/* malformed lines */
	assert_int_equal(jw_from_squeue("10|H_0_0\nno bar here\n", f, 2, &m,
					&err),
			 -1);
	assert_non_null(strstr(err.msg, "line 2: expected \"JOBID|NODELIST\""));
	assert_int_equal(jw_from_squeue("10|H_0_[0-\n", f, 2, &m, &err), -1);
	assert_non_null(strstr(err.msg, "squeue output, line 1: hostlist"));
	/* a last line of a lone CR and no newline (found by fuzz_squeue: it
	 * used to loop for ever) */
	assert_int_equal(jw_from_squeue("10|H_0_0,H_1_0\n\r", f, 2, &m, &err),
			 0);
	assert_int_equal(m.jobs, 1);
	jw_free(&m);
	assert_int_equal(jw_from_squeue("\r", f, 2, &m, &err), 0);
	assert_int_equal(m.n, 0);
	jw_free(&m);
	/* a hostlist that fails after some names (leak-checked under ASan) */
	assert_int_equal(jw_from_squeue("10|H_0_[0-1],H_1_[0-3],H_2_[0-\n", f,
					2, &m, &err),
			 -1);
	assert_non_null(strstr(err.msg, "squeue output, line 1: hostlist"));
	jw_free(&l);
	fabric_free(f);
}

/* A job file read back (written by hand, in any order, with comments)
 * compares equal to the same pairs. */
static void test_read_file(void **state)
{
	struct fabric *f = tu_pgft("2", "4,4", "1,2", "1,1", 0);
	char path[] = "/tmp/osmre-jw-XXXXXX";
	struct jw_list a, b;
	struct osmre_err err;
	FILE *fp;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	fputs("# by hand\nH_1_0 10\nH_0_0 10\n\nH_0_1 10 # trailing\n", fp);
	fclose(fp);
	assert_int_equal(jw_read_file(path, &a, &err), 0);
	assert_int_equal(jw_from_squeue("10|H_0_[0-1],H_1_0\n", f, 2, &b, &err),
			 0);
	assert_true(jw_same(&a, &b));
	jw_free(&a);
	jw_free(&b);
	fp = fopen(path, "w");
	fputs("H_1_0 10\nH_0_0\n", fp);
	fclose(fp);
	assert_int_equal(jw_read_file(path, &a, &err), -1);
	assert_non_null(strstr(err.msg, ":2: expected \"<hostname> <jobid>\""));
	unlink(path);
	assert_int_equal(jw_read_file(path, &a, &err), 0); /* missing: empty */
	assert_int_equal(a.n, 0);
	fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hostlists),
		cmocka_unit_test(test_squeue),
		cmocka_unit_test(test_read_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
