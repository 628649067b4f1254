/* SPDX-License-Identifier: BSD-2-Clause */
/* osmre.conf: values, defaults, file:line reports, bad lines ignored;
 * the engines' keys (their rows' options, engine.h) among them. */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine_table.h"
#include "options.h"
#include "testutil.h"

struct reports {
	int n;
	char msg[48][512];
};

static void collect(void *arg, const char *msg)
{
	struct reports *r = arg;

	if (r->n < 48)
		snprintf(r->msg[r->n], sizeof(r->msg[0]), "%s", msg);
	r->n++;
}

/* The value options_each lists for key ("" when not listed). */
static const char *listed(const struct osmre_options *o, const char *key)
{
	static struct reports r;
	size_t n = strlen(key);
	int i;

	r.n = 0;
	options_each(o, collect, &r);
	for (i = 0; i < r.n && i < 48; i++)
		if (!strncmp(r.msg[i], key, n) && r.msg[i][n] == ' ')
			return r.msg[i] + n + 1;
	return "";
}

/* The general options' defaults and every engine's. */
static void defaults(struct osmre_options *o)
{
	options_defaults(o);
	assert_int_equal(engine_options_add(o), 0);
}

static const char *write_conf(const char *text)
{
	static char path[64];
	int fd;

	strcpy(path, "/tmp/osmre-conf-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void test_values_and_errors(void **state)
{
	const char *path =
		write_conf("# osmre options\n"
			   "dmodc_threads 4\n"
			   "\n"
			   "reroute_coalesce_ms   50   # trailing comment\n"
			   "dmodc_threads many\n"
			   "dmodc_threads 5000\n"
			   "bogus 1\n"
			   "reroute_coalesce_ms\n"
			   "pqft_topology qft(3;4,2,8;1,2,4;1,2,1)\n"
			   "pqft_topology qft(3;4,2,7;1,2,4;1,2,1)\n");
	struct osmre_options o;
	struct reports r = { 0 };
	char where[128];

	(void)state;
	defaults(&o);
	assert_string_equal(listed(&o, "dmodc_threads"), "0");
	assert_int_equal(o.reroute_coalesce_ms, 200);
	assert_int_equal(options_read(path, 0, &o, collect, &r), 5);
	/* good lines applied, bad ones left the last good value */
	assert_string_equal(listed(&o, "dmodc_threads"), "4");
	assert_int_equal(o.reroute_coalesce_ms, 50);
	snprintf(where, sizeof(where), "%s:5: dmodc_threads: expected", path);
	assert_non_null(strstr(r.msg[0], where));
	assert_non_null(strstr(r.msg[0], "keeping 4"));
	snprintf(where, sizeof(where), "%s:6:", path);
	assert_non_null(strstr(r.msg[1], where));
	snprintf(where, sizeof(where), "%s:7: unknown option \"bogus\"", path);
	assert_non_null(strstr(r.msg[2], where));
	snprintf(where, sizeof(where), "%s:8:", path);
	assert_non_null(strstr(r.msg[3], where));
	/* a topology is checked before it is taken */
	assert_string_equal(listed(&o, "pqft_topology"),
			    "qft(3;4,2,8;1,2,4;1,2,1)");
	snprintf(where, sizeof(where), "%s:10: pqft_topology: expected", path);
	assert_non_null(strstr(r.msg[4], where));
	assert_non_null(
		strstr(r.msg[4], "m_3 = 7 is not divisible by p_2 = 2"));
	assert_non_null(
		strstr(r.msg[4], "keeping \"qft(3;4,2,8;1,2,4;1,2,1)\""));
	unlink(path);
	options_free(&o);
}

/* The key: checked, never echoed; hostile files: bounded, refused. */
static void test_key_and_bounds(void **state)
{
	const char *path = write_conf("update_key good-key-123\n"
				      "update_key short\n"
				      "bo\x01gus 1\n");
	struct osmre_options o;
	struct reports r = { 0 };
	char big[10000];
	FILE *fp;

	(void)state;
	options_defaults(&o);
	assert_int_equal(options_read(path, 0, &o, collect, &r), 2);
	assert_string_equal(o.update_key, "good-key-123");
	assert_null(strstr(r.msg[0], "good-key-123"));
	assert_non_null(strstr(r.msg[0], "keeping \"(not shown)\""));
	assert_null(strchr(r.msg[1], '\x01')); /* escaped */
	assert_non_null(strstr(r.msg[1], "\\x01"));
	unlink(path);
	/* a line without end: reported, not read whole */
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	path = write_conf(big);
	r.n = 0;
	assert_int_equal(options_read(path, 0, &o, collect, &r), 1);
	assert_non_null(strstr(r.msg[0], ":1: line longer than 4096 bytes"));
	unlink(path);
	/* switches take OpenSM's TRUE and FALSE too, nothing else */
	path = write_conf("update_protocol TRUE\nhops_background false\n"
			  "hops_background yes\n");
	r.n = 0;
	o.hops_background = 1;
	assert_int_equal(options_read(path, 0, &o, collect, &r), 1);
	assert_int_equal(o.update_protocol, 1);
	assert_int_equal(o.hops_background, 0);
	assert_non_null(strstr(
		r.msg[0],
		":3: hops_background: expected 0 or 1 (TRUE or FALSE), got \"yes\""));
	unlink(path);
	/* a directory and a device: refused */
	r.n = 0;
	assert_int_equal(options_read("/tmp", 0, &o, collect, &r), -1);
	assert_non_null(strstr(r.msg[0], "not a regular file (a directory)"));
	fp = fopen("/dev/null", "r");
	if (fp) {
		fclose(fp);
		r.n = 0;
		assert_int_equal(options_read("/dev/null", 0, &o, collect, &r),
				 -1);
		assert_non_null(strstr(r.msg[0], "a character device"));
	}
}

/* Appends n bytes c to text (at *len), then a newline. */
static void add_line(char *text, size_t *len, const char *head, char c,
		     size_t n)
{
	size_t h = strlen(head);

	memcpy(text + *len, head, h);
	memset(text + *len + h, c, n - h);
	*len += n;
	text[(*len)++] = '\n';
	text[*len] = 0;
}

/* A line too long: refused with its file:line, skipped; the rest applies. */
static void test_long_line(void **state)
{
	static char text[16384];
	struct osmre_options o;
	struct reports r = { 0 };
	char where[128];
	const char *path;
	size_t len = 0;

	(void)state;
	add_line(text, &len, "dmodc_threads 4", '4', 15);
	add_line(text, &len, "update_key ", 'k', 5000);
	/* 4,096 bytes: its newline is the first byte over the limit */
	add_line(text, &len, "# ", 'y', 4096);
	/* 4,095 bytes and the newline: the longest line taken */
	add_line(text, &len, "# ", 'z', 4095);
	add_line(text, &len, "update_key later-key-789", 0, 24);
	add_line(text, &len, "reroute_coalesce_ms 50", 0, 22);
	path = write_conf(text);
	defaults(&o);
	assert_int_equal(options_read(path, 0, &o, collect, &r), 2);
	assert_int_equal(r.n, 2);
	snprintf(where, sizeof(where), "%s:2: line longer than 4096 bytes",
		 path);
	assert_non_null(strstr(r.msg[0], where));
	assert_non_null(strstr(r.msg[0], "ignored"));
	snprintf(where, sizeof(where), "%s:3: line longer than 4096 bytes",
		 path);
	assert_non_null(strstr(r.msg[1], where));
	/* the lines before and after still apply */
	assert_string_equal(listed(&o, "dmodc_threads"), "4");
	assert_string_equal(o.update_key, "later-key-789");
	assert_int_equal(o.reroute_coalesce_ms, 50);
	unlink(path);
	options_free(&o);
}

static void test_missing_file(void **state)
{
	struct osmre_options o;
	struct reports r = { 0 };

	(void)state;
	defaults(&o);
	assert_int_equal(options_read("/nonexistent/osmre.conf", 1, &o, collect,
				      &r),
			 -1);
	assert_int_equal(r.n, 0); /* missing default file: silent */
	assert_int_equal(options_read("/nonexistent/osmre.conf", 0, &o, collect,
				      &r),
			 -1);
	assert_int_equal(r.n, 1);
	assert_non_null(strstr(r.msg[0], "/nonexistent/osmre.conf"));
	assert_string_equal(listed(&o, "dmodc_threads"), "0");
	options_free(&o);
}

static void each(void *arg, const char *msg)
{
	collect(arg, msg);
}

/* Every option listed: the general ones, then each engine's in the
 * table's order (its row's options). */
static void test_each(void **state)
{
	static const char *const want[] = {
		"reroute_coalesce_ms 200",
		"hops_background 1",
		"lft_readback 1",
		"deadlock_check 0",
		"cn_guid_file (none)",
		"root_guid_file (none)",
		"io_guid_file (none)",
		"update_protocol 0",
		"update_escape_vl 7",
		"update_ack_timeout_ms 5000",
		"update_push_timeout_ms 10000",
		"update_max_misses 3",
		"update_poll_ms 100",
		"update_mgmt_class 9",
		"update_max_subscribers 4096",
		"update_max_sessions_per_port 16",
		"update_grace_ms 5000",
		"update_keepalive_ms 30000",
		"update_idle_rate 500",
		"update_notice_rate 20000",
		"update_port_rate 1000",
		"update_refused_rate 100",
		"update_key (none)",
		"dmodc_threads 3",
		"dmodc_stable 0",
		"dmodc_ca_hops 0",
		"pqft_threads 0",
		"pqft_seed 1",
		"pqft_topology (none)",
		"sar_max_vls 8",
		"sar_job_all_pairs 0",
		"sar_threads 0",
		"sar_job_file (none)",
		"sar_io_guid_file (none)",
	};
	const char *path = write_conf("dmodc_threads 3\n");
	struct osmre_options o;
	struct reports r = { 0 };
	size_t i;

	(void)state;
	defaults(&o);
	assert_int_equal(options_read(path, 0, &o, collect, &r), 0);
	unlink(path);
	options_each(&o, each, &r);
	assert_int_equal(r.n, (int)(sizeof(want) / sizeof(want[0])));
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_string_equal(r.msg[i], want[i]);
	/* a key is never shown, neither when listed nor when refused */
	strcpy(o.update_key, "sekrit-key-1");
	assert_string_equal(listed(&o, "update_key"), "(set, not shown)");
	options_free(&o);
}

/* A set of options of one's own (as an engine's row declares them):
 * each type into its settings, read and listed after the general ones. */
struct own {
	int sw;
	uint64_t big;
	char path[16];
};

/* clang-format off */
static const struct opt_desc own_options[] = {
	{ .key = "own_switch", .type = OPT_INT, .min = 0, .max = 1,
	  .def = 1, .what = "0 or 1", .off = offsetof(struct own, sw) },
	{ .key = "own_big", .type = OPT_UINT64, .min = 0, .max = 0x7fffffff,
	  .def = 7, .what = "an integer", .off = offsetof(struct own, big) },
	{ .key = "own_path", .type = OPT_PATH, .what = "a path",
	  .off = offsetof(struct own, path),
	  .size = sizeof(((struct own *)0)->path) },
	{ .key = NULL },
};
/* clang-format on */

static void test_own_set(void **state)
{
	const char *path = write_conf("own_switch FALSE\nown_big 2147483647\n"
				      "own_path relative\n"
				      "own_path /a/very/long/path/x\n"
				      "own_path /a\nown_big -1\n");
	struct osmre_options o;
	struct reports r = { 0 };
	struct own *own;

	(void)state;
	options_defaults(&o);
	own = options_add(&o, own_options, sizeof(*own));
	assert_non_null(own);
	assert_ptr_equal(options_settings(&o, own_options), own);
	assert_int_equal(own->sw, 1);
	assert_true(own->big == 7);
	assert_string_equal(own->path, "");
	assert_int_equal(options_read(path, 0, &o, collect, &r), 3);
	unlink(path);
	assert_int_equal(own->sw, 0);
	assert_true(own->big == 2147483647);
	assert_string_equal(own->path, "/a");
	assert_non_null(
		strstr(r.msg[0],
		       "own_path: expected a path: not an absolute path"));
	assert_non_null(strstr(r.msg[1], "longer than 15 characters"));
	assert_non_null(strstr(
		r.msg[2],
		"own_big: expected an integer, got \"-1\"; keeping 2147483647"));
	assert_string_equal(listed(&o, "own_big"), "2147483647");
	assert_string_equal(listed(&o, "own_path"), "/a");
	options_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values_and_errors),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_key_and_bounds),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_each),
		cmocka_unit_test(test_own_set),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
