/* SPDX-License-Identifier: BSD-2-Clause */
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

/* clang-format off */
static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *what;
} cmds[] = {
	{ "gen", cmd_gen, "write a generated topology (ibsim net file)" },
	{ "degrade", cmd_degrade, "fail random links or switches of a net file" },
	{ "route", cmd_route, "route a topology offline and write its LFTs" },
	{ "check", cmd_check, "walk LFTs and report unreachable pairs, loops, turns" },
	{ "analyze", cmd_analyze, "validity, deadlock freedom, congestion risk of LFTs" },
	{ "roles", cmd_roles, "compute CAs, other CAs, leaves of a fat tree; GUID files" },
	{ "jobwatch", cmd_jobwatch, "keep sar's job file current from Slurm" },
	{ "diff", cmd_diff, "entries and LFT blocks an update from A to B changes" },
	{ "status", cmd_status, "is the plugin in the running opensm, and its last pass" },
	{ "reroute", cmd_reroute, "ask OpenSM with the plugin to re-route (safe SIGUSR2)" },
#ifdef OSMRE_HAVE_CLIENT
	{ "subscribe", cmd_subscribe, "take part in the update protocol (run hooks, ack)" },
#endif
};
/* clang-format on */

static void usage(FILE *out)
{
	size_t i;

	fprintf(out,
		"usage: osmre <command> [options]   (see osmre(1)); osmre [<command>] --version\n");
	int w = 0;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if ((int)strlen(cmds[i].name) > w)
			w = (int)strlen(cmds[i].name);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(out, "  %-*s  %s\n", w, cmds[i].name, cmds[i].what);
}

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

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	/* --version or -V, before or after the command */
	for (i = 1; i < (size_t)argc && i < 3; i++)
		if (!strcmp(argv[i], "--version") || !strcmp(argv[i], "-V")) {
			printf("osmre %s\n", PACKAGE_VERSION);
			return 0;
		}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name)) {
			tool_cmd = cmds[i].name;
			return cmds[i].fn(argc - 1, argv + 1);
		}
	fprintf(stderr, "osmre: unknown command \"%s\"\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
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
