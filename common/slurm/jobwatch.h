/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * osmre jobwatch's core: running jobs from squeue, kept when they span
 * enough leaf switches, as the canonical content of a job file.
 *
 * squeue lines are "JOBID|NODELIST" (squeue -h -t R -o '%i|%N').  A job
 * array element keeps its own id ("123_4"); the components of a
 * heterogeneous job ("123+0", "123+1") are one job "123"; lines without
 * nodes are skipped.
 */
#ifndef OSMRE_JOBWATCH_H
#define OSMRE_JOBWATCH_H

#include "fabric.h"

struct jw_entry {
	char *host, *job;
};

struct jw_list {
	int n, cap;
	struct jw_entry *e; /* sorted by job, then host */
	int jobs;	    /* distinct jobs */
	int unknown;	    /* hosts not in the topology */
	char first_unknown[128];
	int dropped; /* jobs on fewer leaf switches than asked */
};

/*
 * Parses squeue output, expands the hostlists and keeps the jobs whose
 * hosts sit on at least min_switches leaf switches of f (a host is the
 * first word of an HCA's NodeDescription).  Errors name the line.
 */
int jw_from_squeue(const char *text, const struct fabric *f, int min_switches,
		   struct jw_list *out, struct osmre_err *err);
/* Reads the (host, job) pairs of a job file; a missing file is empty. */
int jw_read_file(const char *path, struct jw_list *out, struct osmre_err *err);
/* 1 when both hold the same pairs (in any order). */
int jw_same(const struct jw_list *a, const struct jw_list *b);
/* The job file text: a header comment, the pairs, "# end". */
char *jw_format(const struct jw_list *l);
void jw_free(struct jw_list *l);

#endif
