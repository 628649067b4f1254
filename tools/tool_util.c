/* SPDX-License-Identifier: BSD-2-Clause */
/* The helpers osmre's commands share (osmre.h): loading a topology and
 * tables, numbers, messages, CSV. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jobs.h"
#include "lft.h"
#include "lids.h"
#include "netfile.h"
#include "clock.h"
#include "nodemap.h"
#include "osmre.h"

static const char *node_name_map;
const char *tool_cmd = "osmre";

void tool_node_name_map(const char *path)
{
	node_name_map = path;
}

/* The map's names for f's nodes, by node GUID. */
static int apply_node_names(struct fabric *f, struct osmre_err *err)
{
	struct nodemap m;
	const char **names;
	int n, rc;

	if (nodemap_read(node_name_map, &m, err))
		return -1;
	names = calloc((size_t)f->nnodes + 1, sizeof(*names));
	if (!names) {
		nodemap_free(&m);
		return osmre_fail(err, "out of memory");
	}
	for (n = 0; n < f->nnodes; n++)
		names[n] = nodemap_name(&m, f->nodes[n].guid);
	rc = fabric_rename(f, names, err);
	if (rc)
		osmre_prefix(err, "%s", node_name_map);
	free(names);
	nodemap_free(&m);
	return rc;
}

struct fabric *tool_load_topo(const char *path, int lmc)
{
	struct osmre_err err;
	struct fabric *f;

	if (netfile_read(path, &f, &err)) {
		fprintf(stderr, "osmre %s: %s\n", tool_cmd, err.msg);
		return NULL;
	}
	if (node_name_map && apply_node_names(f, &err)) {
		fprintf(stderr, "osmre %s: %s\n", tool_cmd, err.msg);
		fabric_free(f);
		return NULL;
	}
	if (!lids_present(f) && lids_assign(f, lmc, &err)) {
		fprintf(stderr, "osmre %s: %s: %s\n", tool_cmd, path, err.msg);
		fabric_free(f);
		return NULL;
	}
	return f;
}

int tool_load_tables(const char *cmd, const char *topo, const char *lfts,
		     int lmc, struct fabric **f, struct lft_set *s)
{
	struct osmre_err err;

	*f = tool_load_topo(topo, lmc);
	if (!*f)
		return -1;
	if (lftdump_read(lfts, s, &err) ||
	    ((lft_set_bind(s, *f, &err) ||
	      lft_set_import_lids(s, *f, &err) < 0) &&
	     osmre_prefix(&err, "%s", lfts))) {
		fprintf(stderr, "osmre %s: %s\n", cmd, err.msg);
		lft_set_free(s);
		fabric_free(*f);
		*f = NULL;
		return -1;
	}
	return 0;
}

void tool_top_unread(const char *cmd, const char *lfts, const struct lft_set *s)
{
	unsigned top = s->said_top;
	int i;

	if (!top || top % 64)
		return;
	for (i = 0; i < s->n; i++)
		if (s->t[i].top >= top && s->t[i].port[top] != LFT_NONE)
			return;
	fprintf(stderr,
		"osmre %s: %s: warning: no switch forwards LID 0x%x, the tables' top: dump_fts, dump_lfts and ibroute of infiniband-diags 44 do not read it when the top is a multiple of 64, so its port shows as without a LID (tests/ibsim/lfttop reads it and completes the dump)\n",
		cmd, lfts, top);
}

int tool_tables_empty(const char *cmd, const char *lfts,
		      const struct lft_set *s)
{
	unsigned lid;
	int i;

	for (i = 0; i < s->n; i++)
		for (lid = 0; lid <= s->t[i].top; lid++)
			if (s->t[i].port[lid] != LFT_NONE)
				return 0;
	fprintf(stderr,
		"osmre %s: %s: every table is empty, no switch forwards any LID (dumped before OpenSM programmed the switches? wait for SUBNET UP): nothing to analyze\n",
		cmd, lfts);
	return 1;
}

void tool_jobs_unknown(const char *path, const struct jobs *j)
{
	char msg[512];

	if (!j->unknown)
		return;
	jobs_unknown_msg(j, msg, sizeof(msg));
	fprintf(stderr, "osmre %s: %s: warning: %s\n", tool_cmd, path, msg);
}

long tool_number(const char *opt, const char *val, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(val, &end, 10);
	if (end == val || *end || errno || v < 0 || v > max) {
		fprintf(stderr,
			"osmre: %s: expected an integer 0..%ld, got \"%s\"\n",
			opt, max, val);
		exit(EXIT_USAGE);
	}
	return v;
}

double tool_now(void)
{
	return clock_mono();
}

void tool_csv_field(FILE *fp, const char *s)
{
	if (!strpbrk(s, ",\" \n")) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

int tool_roles_read(const char *cnf, const char *rootf, const char *iof,
		    struct tool_roles *r, struct osmre_err *err)
{
	memset(r, 0, sizeof(*r));
	if ((cnf && guidlist_read(cnf, &r->cn, err)) ||
	    (rootf && guidlist_read(rootf, &r->roots, err)) ||
	    (iof && guidlist_read(iof, &r->io, err))) {
		tool_roles_free(r);
		return -1;
	}
	return 0;
}

void tool_roles_free(struct tool_roles *r)
{
	guidlist_free(&r->cn);
	guidlist_free(&r->roots);
	guidlist_free(&r->io);
}
