/* SPDX-License-Identifier: BSD-2-Clause */
/* The osmre command: one subcommand per file. */
#ifndef OSMRE_TOOL_H
#define OSMRE_TOOL_H

#include <stdio.h>

#include "guidlist.h"

#include "fabric.h"

/* The subcommand running ("route", ...), for "osmre CMD: ..." messages. */
extern const char *tool_cmd;

/* Exit codes: 0 success, 1 the fabric or tables are not valid, 2 bad usage
 * or unreadable input. */
enum { EXIT_INVALID = 1, EXIT_USAGE = 2 };

int cmd_gen(int argc, char **argv);
int cmd_degrade(int argc, char **argv);
int cmd_roles(int argc, char **argv);
int cmd_reroute(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_route(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_jobwatch(int argc, char **argv);
int cmd_subscribe(int argc, char **argv);

/* Reads a net file and makes sure it has LIDs: the file's own, or offline
 * ones (lids.h) with the given LMC.  Prints the error and returns NULL. */
struct fabric *tool_load_topo(const char *path, int lmc);
/* --node-name-map FILE (infiniband-diags format): tool_load_topo then
 * names the nodes the map names (by node GUID) so, in every message. */
void tool_node_name_map(const char *path);
/*
 * A topology and LFTs bound to it, LIDs from the dump's port GUIDs (or the
 * topology's, or offline ones).  Prints the error as "osmre CMD: ..." and
 * returns -1; on success the caller frees *f and *s.
 */
struct lft_set;
int tool_load_tables(const char *cmd, const char *topo, const char *lfts,
		     int lmc, struct fabric **f, struct lft_set *s);
/*
 * --topo and --lfts repeated: one file per plane (load_planes.c).  One of
 * each is tool_load_tables(); several dumps, each with its own LIDs from
 * 1, are re-based into one LID space and matched to the topology by port
 * GUID; several topologies are merged by node GUID.
 */
#define TOOL_MAX_FILES 16
struct tool_files {
	int n;
	const char *path[TOOL_MAX_FILES];
};
/* Appends path (the value of option opt); -1 after a message when full. */
int tool_files_add(struct tool_files *l, const char *opt, const char *path);
/* The roles' files (roles.h: OpenSM's cn_guid_file, root_guid_file,
 * io_guid_file; NULL paths: none) into the lists of r, which
 * tool_roles_free frees.  0, or -1 with err naming file:line. */
struct tool_roles {
	struct guidlist cn, roots, io;
};
int tool_roles_read(const char *cnf, const char *rootf, const char *iof,
		    struct tool_roles *r, struct osmre_err *err);
void tool_roles_free(struct tool_roles *r);
int tool_load_planes(const char *cmd, const struct tool_files *topo,
		     const struct tool_files *lfts, int lmc, struct fabric **f,
		     struct lft_set *s);
/* 1 (after a message) when no table of s forwards any LID. */
int tool_tables_empty(const char *cmd, const char *lfts,
		      const struct lft_set *s);
/* Warns on stderr when the tables' top LID is a multiple of 64 that no
 * table forwards: the dump tools of infiniband-diags 44 (dump_fts,
 * dump_lfts, ibroute) leave that LID out, so its port looks unrouted. */
void tool_top_unread(const char *cmd, const char *lfts,
		     const struct lft_set *s);
/* Warns on stderr of a job file's hosts not in the fabric, if any: ignored
 * (they may be down), never silently. */
struct jobs;
void tool_jobs_unknown(const char *path, const struct jobs *j);
/* Parses a non-negative integer option value or exits with a message. */
long tool_number(const char *opt, const char *val, long max);
double tool_now(void);
/* A CSV field: as is, or quoted (quotes doubled) when it holds a comma,
 * a quote, a space or a newline. */
void tool_csv_field(FILE *fp, const char *s);

#endif
