/* SPDX-License-Identifier: BSD-2-Clause */
/* osmre.conf: values, defaults, file:line reports, bad lines ignored. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options.h"
#include "testutil.h"

struct reports {
	int n;
	char msg[32][512];
};

static void collect(void *arg, const char *msg)
{
	struct reports *r = arg;

	if (r->n < 32)
		snprintf(r->msg[r->n], sizeof(r->msg[0]), "%s", msg);
	r->n++;
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
	options_defaults(&o);
	assert_int_equal(o.dmodc_threads, 0);
	assert_int_equal(o.reroute_coalesce_ms, 200);
	assert_int_equal(options_read(path, 0, &o, collect, &r), 5);
	/* good lines applied, bad ones left the last good value */
	assert_int_equal(o.dmodc_threads, 4);
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
	assert_string_equal(o.pqft_topology, "qft(3;4,2,8;1,2,4;1,2,1)");
	snprintf(where, sizeof(where), "%s:10: pqft_topology: expected", path);
	assert_non_null(strstr(r.msg[4], where));
	assert_non_null(
		strstr(r.msg[4], "m_3 = 7 is not divisible by p_2 = 2"));
	assert_non_null(
		strstr(r.msg[4], "keeping \"qft(3;4,2,8;1,2,4;1,2,1)\""));
	unlink(path);
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
	path = write_conf("update_protocol TRUE\ndmodc_ca_hops false\n"
			  "dmodc_ca_hops yes\n");
	r.n = 0;
	o.dmodc_ca_hops = 1;
	assert_int_equal(options_read(path, 0, &o, collect, &r), 1);
	assert_int_equal(o.update_protocol, 1);
	assert_int_equal(o.dmodc_ca_hops, 0);
	assert_non_null(strstr(
		r.msg[0],
		":3: dmodc_ca_hops: expected 0 or 1 (TRUE or FALSE), got \"yes\""));
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
	options_defaults(&o);
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
	assert_int_equal(o.dmodc_threads, 4);
	assert_string_equal(o.update_key, "later-key-789");
	assert_int_equal(o.reroute_coalesce_ms, 50);
	unlink(path);
}

static void test_missing_file(void **state)
{
	struct osmre_options o;
	struct reports r = { 0 };

	(void)state;
	options_defaults(&o);
	assert_int_equal(options_read("/nonexistent/osmre.conf", 1, &o, collect,
				      &r),
			 -1);
	assert_int_equal(r.n, 0); /* missing default file: silent */
	assert_int_equal(options_read("/nonexistent/osmre.conf", 0, &o, collect,
				      &r),
			 -1);
	assert_int_equal(r.n, 1);
	assert_non_null(strstr(r.msg[0], "/nonexistent/osmre.conf"));
	assert_int_equal(o.dmodc_threads, 0);
}

static void each(void *arg, const char *msg)
{
	collect(arg, msg);
}

static void test_each(void **state)
{
	struct osmre_options o;
	struct reports r = { 0 };

	(void)state;
	options_defaults(&o);
	o.dmodc_threads = 3;
	options_each(&o, each, &r);
	assert_int_equal(r.n, 28);
	assert_string_equal(r.msg[0], "dmodc_threads 3");
	assert_string_equal(r.msg[1], "reroute_coalesce_ms 200");
	assert_string_equal(r.msg[2], "dmodc_ca_hops 0");
	assert_string_equal(r.msg[3], "hops_background 1");
	assert_string_equal(r.msg[4], "dmodc_stable 0");
	assert_string_equal(r.msg[5], "pqft_threads 0");
	assert_string_equal(r.msg[6], "pqft_seed 1");
	assert_string_equal(r.msg[7], "pqft_topology (none)");
	assert_string_equal(r.msg[8], "sar_job_file (none)");
	assert_string_equal(r.msg[9], "sar_io_guid_file (none)");
	assert_string_equal(r.msg[10], "sar_max_vls 8");
	assert_string_equal(r.msg[11], "sar_job_all_pairs 0");
	assert_string_equal(r.msg[12], "sar_threads 0");
	assert_string_equal(r.msg[13], "update_protocol 0");
	assert_string_equal(r.msg[14], "update_escape_vl 7");
	assert_string_equal(r.msg[15], "update_ack_timeout_ms 5000");
	assert_string_equal(r.msg[16], "update_push_timeout_ms 10000");
	assert_string_equal(r.msg[17], "update_max_misses 3");
	assert_string_equal(r.msg[18], "update_poll_ms 100");
	assert_string_equal(r.msg[19], "update_mgmt_class 9");
	assert_string_equal(r.msg[20], "update_max_subscribers 4096");
	assert_string_equal(r.msg[21], "update_max_sessions_per_port 16");
	assert_string_equal(r.msg[22], "update_keepalive_ms 30000");
	assert_string_equal(r.msg[23], "update_idle_rate 500");
	assert_string_equal(r.msg[24], "update_notice_rate 20000");
	assert_string_equal(r.msg[25], "update_port_rate 1000");
	assert_string_equal(r.msg[26], "update_refused_rate 100");
	assert_string_equal(r.msg[27], "update_key (none)");
	/* a key is never shown, neither when listed nor when refused */
	strcpy(o.update_key, "sekrit-key-1");
	r.n = 0;
	options_each(&o, each, &r);
	assert_string_equal(r.msg[27], "update_key (set, not shown)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values_and_errors),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_key_and_bounds),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_each),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
