/* SPDX-License-Identifier: BSD-2-Clause */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "infile.h"
#include "options.h"
#include "pgft.h"

struct opt_def {
	const char *name;
	size_t off; /* of an int, or of a char[] when size */
	long min, max, def;
	const char *what;
	size_t size; /* string options: their buffer */
	/* string options: 0 when the value is good, else why not */
	int (*check)(const char *val, char *why, size_t whysz);
};

static int check_topology(const char *val, char *why, size_t whysz)
{
	struct pgft_params t;
	struct osmre_err err;

	if (!topo_spec_parse(val, &t, &err))
		return 0;
	snprintf(why, whysz, "%.200s", err.msg);
	return -1;
}

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
static const struct opt_def defs[] = {
	{ "dmodc_threads", offsetof(struct osmre_options, dmodc_threads),
	  0, 1024, 0, "an integer 0..1024 (0: one per online CPU)", 0, NULL },
	{ "reroute_coalesce_ms", offsetof(struct osmre_options, reroute_coalesce_ms),
	  0, 10000, 200, "milliseconds 0..10000", 0, NULL },
	{ "dmodc_ca_hops", offsetof(struct osmre_options, dmodc_ca_hops),
	  0, 1, 0, "0 or 1 (TRUE or FALSE)", 0, NULL },
	{ "hops_background", offsetof(struct osmre_options, hops_background),
	  0, 1, 1, "0 or 1 (TRUE or FALSE)", 0, NULL },
	{ "dmodc_stable", offsetof(struct osmre_options, dmodc_stable),
	  0, 1, 0, "0 or 1 (TRUE or FALSE)", 0, NULL },
	{ "pqft_threads", offsetof(struct osmre_options, pqft_threads),
	  0, 1024, 0, "an integer 0..1024 (0: one per online CPU)", 0, NULL },
	{ "pqft_seed", offsetof(struct osmre_options, pqft_seed),
	  0, 0x7fffffff, 1, "an integer 0..2147483647", 0, NULL },
	{ "pqft_topology", offsetof(struct osmre_options, pqft_topology),
	  0, 0, 0, "pgft(H;M;W[;P]) or qft(H;M;W;P)",
	  sizeof(((struct osmre_options *)0)->pqft_topology), check_topology },
	{ "sar_job_file", offsetof(struct osmre_options, sar_job_file),
	  0, 0, 0, "the path of a job file",
	  sizeof(((struct osmre_options *)0)->sar_job_file), check_path },
	{ "sar_io_guid_file", offsetof(struct osmre_options, sar_io_guid_file),
	  0, 0, 0, "the path of a GUID file",
	  sizeof(((struct osmre_options *)0)->sar_io_guid_file), check_path },
	{ "sar_max_vls", offsetof(struct osmre_options, sar_max_vls),
	  1, 15, 8, "an integer 1..15", 0, NULL },
	{ "sar_job_all_pairs", offsetof(struct osmre_options, sar_job_all_pairs),
	  0, 1, 0, "0 or 1 (TRUE or FALSE)", 0, NULL },
	{ "sar_threads", offsetof(struct osmre_options, sar_threads),
	  0, 1024, 0, "an integer 0..1024 (0: one per online CPU)", 0, NULL },
	{ "update_protocol", offsetof(struct osmre_options, update_protocol),
	  0, 1, 0, "0 or 1 (TRUE or FALSE)", 0, NULL },
	{ "update_escape_vl", offsetof(struct osmre_options, update_escape_vl),
	  1, 14, 7, "a VL 1..14", 0, NULL },
	{ "update_ack_timeout_ms", offsetof(struct osmre_options, update_ack_timeout_ms),
	  10, 600000, 5000, "milliseconds 10..600000", 0, NULL },
	{ "update_push_timeout_ms", offsetof(struct osmre_options, update_push_timeout_ms),
	  100, 600000, 10000, "milliseconds 100..600000", 0, NULL },
	{ "update_max_misses", offsetof(struct osmre_options, update_max_misses),
	  1, 100, 3, "an integer 1..100", 0, NULL },
	{ "update_poll_ms", offsetof(struct osmre_options, update_poll_ms),
	  10, 60000, 100, "milliseconds 10..60000", 0, NULL },
	{ "update_mgmt_class", offsetof(struct osmre_options, update_mgmt_class),
	  9, 15, 9, "a vendor class 9..15 (0x09..0x0F)", 0, NULL },
	{ "update_max_subscribers", offsetof(struct osmre_options, update_max_subscribers),
	  1, 65535, 4096, "an integer 1..65535", 0, NULL },
	{ "update_max_sessions_per_port", offsetof(struct osmre_options, update_max_sessions_per_port),
	  1, 65535, 16, "an integer 1..65535", 0, NULL },
	{ "update_keepalive_ms", offsetof(struct osmre_options, update_keepalive_ms),
	  0, 3600000, 30000, "milliseconds 0..3600000 (0: no WAIT, subscribers poll)", 0, NULL },
	{ "update_idle_rate", offsetof(struct osmre_options, update_idle_rate),
	  1, 1000000, 500, "WAIT exchanges per second 1..1000000", 0, NULL },
	{ "update_notice_rate", offsetof(struct osmre_options, update_notice_rate),
	  100, 10000000, 20000, "answers per second 100..10000000", 0, NULL },
	{ "update_port_rate", offsetof(struct osmre_options, update_port_rate),
	  10, 1000000, 1000, "requests per second 10..1000000", 0, NULL },
	{ "update_refused_rate", offsetof(struct osmre_options, update_refused_rate),
	  0, 100000, 100, "answers per second 0..100000", 0, NULL },
	{ "update_key", offsetof(struct osmre_options, update_key),
	  0, 0, 0, "8 to 32 printable characters without blanks",
	  sizeof(((struct osmre_options *)0)->update_key), check_key },
};
/* clang-format on */

#define NDEFS (sizeof(defs) / sizeof(defs[0]))

void options_defaults(struct osmre_options *o)
{
	size_t i;

	for (i = 0; i < NDEFS; i++)
		if (defs[i].size)
			*((char *)o + defs[i].off) = '\0';
		else
			*(int *)((char *)o + defs[i].off) = (int)defs[i].def;
}

/* A string option's value: checked, then copied; 0 or -1. */
static int set_string(const struct opt_def *d, struct osmre_options *o,
		      const char *val, char *why, size_t whysz)
{
	if (strlen(val) >= d->size) {
		snprintf(why, whysz, "longer than %zu characters", d->size - 1);
		return -1;
	}
	if (d->check && d->check(val, why, whysz))
		return -1;
	strcpy((char *)o + d->off, val);
	return 0;
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
	report(arg, msg);
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
		char *p, *name, *val, *end;
		size_t i;
		long v;

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
		for (i = 0; i < NDEFS && strcmp(defs[i].name, name); i++)
			;
		if (i == NDEFS) {
			reportf(report, arg, "%s:%d: unknown option \"%s\"",
				path, lineno, name);
			problems++;
			continue;
		}
		if (defs[i].size) {
			char why[256];

			if (set_string(&defs[i], o, val, why, sizeof(why))) {
				reportf(report, arg,
					"%s:%d: %s: expected %s: %s; keeping \"%s\"",
					path, lineno, name, defs[i].what, why,
					defs[i].check == check_key ?
						"(not shown)" :
						(char *)o + defs[i].off);
				problems++;
			}
			continue;
		}
		errno = 0;
		v = strtol(val, &end, 10);
		/* a switch also takes OpenSM's spelling, TRUE or FALSE */
		if (defs[i].min == 0 && defs[i].max == 1 &&
		    (!strcasecmp(val, "TRUE") || !strcasecmp(val, "FALSE"))) {
			v = !strcasecmp(val, "TRUE");
			end = val + strlen(val);
		}
		if (!*val || *end || errno || v < defs[i].min ||
		    v > defs[i].max) {
			reportf(report, arg,
				"%s:%d: %s: expected %s, got \"%s\"; keeping %d",
				path, lineno, name, defs[i].what, val,
				*(int *)((char *)o + defs[i].off));
			problems++;
			continue;
		}
		*(int *)((char *)o + defs[i].off) = (int)v;
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
	char buf[256];
	size_t i;

	for (i = 0; i < NDEFS; i++) {
		if (defs[i].check == check_key) /* never in a log */
			snprintf(buf, sizeof(buf), "%s %s", defs[i].name,
				 *((const char *)o + defs[i].off) ?
					 "(set, not shown)" :
					 "(none)");
		else if (defs[i].size)
			snprintf(buf, sizeof(buf), "%s %s", defs[i].name,
				 *((const char *)o + defs[i].off) ?
					 (const char *)o + defs[i].off :
					 "(none)");
		else
			snprintf(buf, sizeof(buf), "%s %d", defs[i].name,
				 *(const int *)((const char *)o + defs[i].off));
		fn(arg, buf);
	}
}
