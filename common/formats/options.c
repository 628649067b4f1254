/* SPDX-License-Identifier: BSD-2-Clause */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "infile.h"
#include "options.h"

static int check_path(const char *val, char *why, size_t whysz)
{
	if (val[0] == '/')
		return 0;
	snprintf(why, whysz, "not an absolute path");
	return -1;
}

static int check_key(const char *val, char *why, size_t whysz)
{
	size_t n = strlen(val), i;

	for (i = 0; i < n; i++)
		if (val[i] <= ' ' || val[i] >= 0x7f) {
			snprintf(why, whysz, "a blank or a control byte at %zu",
				 i + 1);
			return -1;
		}
	if (n < 8 || n > 32) {
		snprintf(why, whysz, "%zu characters", n);
		return -1;
	}
	return 0;
}

/* clang-format off */
static const struct opt_desc general[] = {
	{ .key = "reroute_coalesce_ms", .type = OPT_INT,
	  .min = 0, .max = 10000, .def = 200,
	  .what = "milliseconds 0..10000",
	  .off = offsetof(struct osmre_options, reroute_coalesce_ms) },
	{ .key = "hops_background", .type = OPT_INT,
	  .min = 0, .max = 1, .def = 1,
	  .what = "0 or 1 (TRUE or FALSE)",
	  .off = offsetof(struct osmre_options, hops_background) },
	{ .key = "lft_readback", .type = OPT_INT,
	  .min = 0, .max = 1, .def = 1,
	  .what = "0 or 1 (TRUE or FALSE)",
	  .off = offsetof(struct osmre_options, lft_readback) },
	{ .key = "deadlock_check", .type = OPT_INT,
	  .min = 0, .max = 1, .def = 0,
	  .what = "0 or 1 (TRUE or FALSE)",
	  .off = offsetof(struct osmre_options, deadlock_check) },
	{ .key = "cn_guid_file", .type = OPT_PATH,
	  .what = "the path of a GUID file",
	  .off = offsetof(struct osmre_options, cn_guid_file),
	  .size = sizeof(((struct osmre_options *)0)->cn_guid_file) },
	{ .key = "root_guid_file", .type = OPT_PATH,
	  .what = "the path of a GUID file",
	  .off = offsetof(struct osmre_options, root_guid_file),
	  .size = sizeof(((struct osmre_options *)0)->root_guid_file) },
	{ .key = "io_guid_file", .type = OPT_PATH,
	  .what = "the path of a GUID file",
	  .off = offsetof(struct osmre_options, io_guid_file),
	  .size = sizeof(((struct osmre_options *)0)->io_guid_file) },
	{ .key = "update_protocol", .type = OPT_INT,
	  .min = 0, .max = 1, .def = 0,
	  .what = "0 or 1 (TRUE or FALSE)",
	  .off = offsetof(struct osmre_options, update_protocol) },
	{ .key = "update_escape_vl", .type = OPT_INT,
	  .min = 1, .max = 14, .def = 7,
	  .what = "a VL 1..14",
	  .off = offsetof(struct osmre_options, update_escape_vl) },
	{ .key = "update_ack_timeout_ms", .type = OPT_INT,
	  .min = 10, .max = 600000, .def = 5000,
	  .what = "milliseconds 10..600000",
	  .off = offsetof(struct osmre_options, update_ack_timeout_ms) },
	{ .key = "update_push_timeout_ms", .type = OPT_INT,
	  .min = 100, .max = 600000, .def = 10000,
	  .what = "milliseconds 100..600000",
	  .off = offsetof(struct osmre_options, update_push_timeout_ms) },
	{ .key = "update_max_misses", .type = OPT_INT,
	  .min = 1, .max = 100, .def = 3,
	  .what = "an integer 1..100",
	  .off = offsetof(struct osmre_options, update_max_misses) },
	{ .key = "update_poll_ms", .type = OPT_INT,
	  .min = 10, .max = 60000, .def = 100,
	  .what = "milliseconds 10..60000",
	  .off = offsetof(struct osmre_options, update_poll_ms) },
	{ .key = "update_mgmt_class", .type = OPT_INT,
	  .min = 9, .max = 15, .def = 9,
	  .what = "a vendor class 9..15 (0x09..0x0F)",
	  .off = offsetof(struct osmre_options, update_mgmt_class) },
	{ .key = "update_max_subscribers", .type = OPT_INT,
	  .min = 1, .max = 65535, .def = 4096,
	  .what = "an integer 1..65535",
	  .off = offsetof(struct osmre_options, update_max_subscribers) },
	{ .key = "update_max_sessions_per_port", .type = OPT_INT,
	  .min = 1, .max = 65535, .def = 16,
	  .what = "an integer 1..65535",
	  .off = offsetof(struct osmre_options, update_max_sessions_per_port) },
	{ .key = "update_grace_ms", .type = OPT_INT,
	  .min = 0, .max = 600000, .def = 5000,
	  .what = "milliseconds 0..600000",
	  .off = offsetof(struct osmre_options, update_grace_ms) },
	{ .key = "update_keepalive_ms", .type = OPT_INT,
	  .min = 0, .max = 3600000, .def = 30000,
	  .what = "milliseconds 0..3600000 (0: no WAIT, subscribers poll)",
	  .off = offsetof(struct osmre_options, update_keepalive_ms) },
	{ .key = "update_idle_rate", .type = OPT_INT,
	  .min = 1, .max = 1000000, .def = 500,
	  .what = "WAIT exchanges per second 1..1000000",
	  .off = offsetof(struct osmre_options, update_idle_rate) },
	{ .key = "update_notice_rate", .type = OPT_INT,
	  .min = 100, .max = 10000000, .def = 20000,
	  .what = "answers per second 100..10000000",
	  .off = offsetof(struct osmre_options, update_notice_rate) },
	{ .key = "update_port_rate", .type = OPT_INT,
	  .min = 10, .max = 1000000, .def = 1000,
	  .what = "requests per second 10..1000000",
	  .off = offsetof(struct osmre_options, update_port_rate) },
	{ .key = "update_refused_rate", .type = OPT_INT,
	  .min = 0, .max = 100000, .def = 100,
	  .what = "answers per second 0..100000",
	  .off = offsetof(struct osmre_options, update_refused_rate) },
	{ .key = "update_key", .type = OPT_SECRET,
	  .what = "8 to 32 printable characters without blanks",
	  .off = offsetof(struct osmre_options, update_key),
	  .size = sizeof(((struct osmre_options *)0)->update_key),
	  .check = check_key },
	{ .key = NULL },
};
/* clang-format on */

static int is_string(const struct opt_desc *d)
{
	return d->type == OPT_STRING || d->type == OPT_PATH ||
	       d->type == OPT_SECRET;
}

void options_set_defaults(const struct opt_desc *desc, void *base)
{
	const struct opt_desc *d;

	for (d = desc; d->key; d++)
		if (is_string(d))
			*((char *)base + d->off) = '\0';
		else if (d->type == OPT_UINT64)
			*(uint64_t *)(void *)((char *)base + d->off) =
				(uint64_t)d->def;
		else
			*(int *)(void *)((char *)base + d->off) = (int)d->def;
}

void options_defaults(struct osmre_options *o)
{
	options_set_defaults(general, o);
	o->nsets = 0;
	memset(o->sets, 0, sizeof(o->sets));
}

void *options_add(struct osmre_options *o, const struct opt_desc *desc,
		  size_t size)
{
	void *base;

	if (o->nsets >= OPTIONS_MAX_SETS)
		return NULL;
	base = calloc(1, size ? size : 1);
	if (!base)
		return NULL;
	options_set_defaults(desc, base);
	o->sets[o->nsets].desc = desc;
	o->sets[o->nsets++].base = base;
	return base;
}

void *options_settings(const struct osmre_options *o,
		       const struct opt_desc *desc)
{
	int i;

	for (i = 0; i < o->nsets; i++)
		if (o->sets[i].desc == desc)
			return o->sets[i].base;
	return NULL;
}

void options_free(struct osmre_options *o)
{
	int i;

	for (i = 0; i < o->nsets; i++)
		free(o->sets[i].base);
	o->nsets = 0;
}

int options_set(const struct opt_desc *d, void *base, const char *val,
		char *why, size_t whysz)
{
	char *end;
	long v;

	if (is_string(d)) {
		if (strlen(val) >= d->size) {
			snprintf(why, whysz, "longer than %zu characters",
				 d->size - 1);
			return -1;
		}
		if (d->type == OPT_PATH && check_path(val, why, whysz))
			return -1;
		if (d->check && d->check(val, why, whysz))
			return -1;
		strcpy((char *)base + d->off, val);
		return 0;
	}
	errno = 0;
	v = strtol(val, &end, 10);
	/* a switch also takes OpenSM's spelling, TRUE or FALSE */
	if (d->min == 0 && d->max == 1 &&
	    (!strcasecmp(val, "TRUE") || !strcasecmp(val, "FALSE")))
		v = !strcasecmp(val, "TRUE");
	else if (!*val || *end || errno || v < d->min || v > d->max) {
		snprintf(why, whysz, "%s", d->what);
		return -1;
	}
	options_put(d, base, v);
	return 0;
}

void options_put(const struct opt_desc *d, void *base, long v)
{
	if (d->type == OPT_UINT64)
		*(uint64_t *)(void *)((char *)base + d->off) = (uint64_t)v;
	else if (!is_string(d))
		*(int *)(void *)((char *)base + d->off) = (int)v;
}

/* The value at d in base as options_each shows it. */
static void show(const struct opt_desc *d, const void *base, char *buf,
		 size_t sz)
{
	const char *str = (const char *)base + d->off;

	if (d->type == OPT_SECRET) /* never in a log */
		snprintf(buf, sz, "%s %s", d->key,
			 *str ? "(set, not shown)" : "(none)");
	else if (is_string(d))
		snprintf(buf, sz, "%s %s", d->key, *str ? str : "(none)");
	else if (d->type == OPT_UINT64) {
		const uint64_t *v = (const void *)str;

		snprintf(buf, sz, "%s %llu", d->key, (unsigned long long)*v);
	} else
		snprintf(buf, sz, "%s %d", d->key,
			 *(const int *)(const void *)str);
}

/* The option called name, and where it goes; NULL when none. */
static const struct opt_desc *find(struct osmre_options *o, const char *name,
				   void **base)
{
	const struct opt_desc *d;
	int i;

	*base = o;
	for (d = general; d->key; d++)
		if (!strcmp(d->key, name))
			return d;
	for (i = 0; i < o->nsets; i++) {
		*base = o->sets[i].base;
		for (d = o->sets[i].desc; d->key; d++)
			if (!strcmp(d->key, name))
				return d;
	}
	return NULL;
}

static void reportf(options_report report, void *arg, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void reportf(options_report report, void *arg, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	osmre_sanitize(msg, sizeof(msg));
	if (report)
		report(arg, msg);
}

int options_set_key(struct osmre_options *o, const char *key, const char *val,
		    char *why, size_t whysz)
{
	void *base;
	const struct opt_desc *d = find(o, key, &base);

	if (!d) {
		snprintf(why, whysz, "unknown option \"%s\"", key);
		return -1;
	}
	return options_set(d, base, val, why, whysz);
}

int options_read(const char *path, int missing_ok, struct osmre_options *o,
		 options_report report, void *arg)
{
	struct osmre_err err;
	FILE *fp;
	int rc;

	if (missing_ok && access(path, F_OK) && errno == ENOENT)
		return -1;
	fp = infile_open(path, "osmre.conf", INFILE_CONF_SIZE, &err);
	if (!fp) {
		reportf(report, arg, "%s", err.msg);
		return -1;
	}
	rc = options_read_stream(fp, path, o, report, arg);
	fclose(fp);
	return rc;
}

int options_read_stream(FILE *fp, const char *path, struct osmre_options *o,
			options_report report, void *arg)
{
	struct osmre_err err;
	char *line = NULL;
	size_t sz = 0;
	int lineno = 0, problems = 0;
	ssize_t n;

	for (;;) {
		char *p, *name, *val, *end, why[256], shown[256];
		const struct opt_desc *d;
		void *base;

		errno = 0;
		n = infile_getline(&line, &sz, fp, INFILE_CONF_LINE, path,
				   lineno + 1, &err);
		if (n == -2 && errno == EOVERFLOW) {
			/* one bad line must not cost the options after it */
			reportf(report, arg,
				"%s: expected one option per line; the line is ignored",
				err.msg);
			problems++;
			lineno++;
			if (!infile_skip_line(fp))
				continue;
			n = -1;
			if (ferror(fp)) {
				osmre_fail(&err, "%s:%d: %s", path, lineno,
					   strerror(errno));
				n = -2;
			}
			break;
		}
		if (n < 0)
			break;
		p = line;
		lineno++;
		p[strcspn(p, "#\r\n")] = 0;
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			continue;
		name = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (*p)
			*p++ = 0;
		while (isspace((unsigned char)*p))
			p++;
		val = p;
		for (end = val + strlen(val);
		     end > val && isspace((unsigned char)end[-1]);)
			*--end = 0;
		d = find(o, name, &base);
		if (!d) {
			reportf(report, arg, "%s:%d: unknown option \"%s\"",
				path, lineno, name);
			problems++;
			continue;
		}
		if (!options_set(d, base, val, why, sizeof(why)))
			continue;
		problems++;
		if (is_string(d)) {
			reportf(report, arg,
				"%s:%d: %s: expected %s: %s; keeping \"%s\"",
				path, lineno, name, d->what, why,
				d->type == OPT_SECRET ? "(not shown)" :
							(char *)base + d->off);
			continue;
		}
		show(d, base, shown, sizeof(shown));
		reportf(report, arg,
			"%s:%d: %s: expected %s, got \"%s\"; keeping %s", path,
			lineno, name, d->what, val, shown + strlen(d->key) + 1);
	}
	if (n == -2) {
		reportf(report, arg, "%s; the rest of the file is ignored",
			err.msg);
		problems++;
	}
	free(line);
	return problems;
}

void options_each(const struct osmre_options *o, options_report fn, void *arg)
{
	const struct opt_desc *d;
	char buf[256];
	int i;

	for (d = general; d->key; d++) {
		show(d, o, buf, sizeof(buf));
		fn(arg, buf);
	}
	for (i = 0; i < o->nsets; i++)
		for (d = o->sets[i].desc; d->key; d++) {
			show(d, o->sets[i].base, buf, sizeof(buf));
			fn(arg, buf);
		}
}
