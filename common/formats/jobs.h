/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Job files (format of the original SAR implementation): one
 * "<hostname> <jobid>" per line, '#' comments, blank lines.  A hostname is
 * the first word of an HCA's NodeDescription.
 */
#ifndef OSMRE_JOBS_H
#define OSMRE_JOBS_H

#include <stdio.h>

#include "fabric.h"
#include "lft.h"

/* Hostnames not in the fabric named in messages. */
#define JOBS_UNKNOWN_SHOWN 3

struct jobs {
	int njobs;
	char **id;	    /* job ids, in order of first appearance */
	int *first, *count; /* hosts of job j: node[first[j] .. +count[j]] */
	int *node;	    /* fabric node of each host */
	int nhosts;
	int unknown; /* lines whose hostname is not in the fabric: ignored */
	char unknown_name[JOBS_UNKNOWN_SHOWN][128]; /* the first, escaped */
};

/* Reads a job file against fabric f: file:line errors for bad lines and
 * hosts listed twice. */
int jobs_read(const char *path, const struct fabric *f, struct jobs *j,
	      struct osmre_err *err);
/* The same from a stream, named path in the messages. */
int jobs_read_stream(FILE *fp, const char *path, const struct fabric *f,
		     struct jobs *j, struct osmre_err *err);
void jobs_free(struct jobs *j);
/* "N host(s) not in the fabric ignored: a, b, c[, ...]" into buf; the
 * hosts of a job file that are down must never vanish silently. */
void jobs_unknown_msg(const struct jobs *j, char *buf, size_t size);

/*
 * Effective edge forwarding index (SAR, Domke & Hoefler): for every
 * directed inter-switch link, the number of intra-job routes through it,
 * over all jobs; its maximum, the average over jobs of each job's own
 * maximum, and the dark fiber percentage (links carrying no intra-job
 * route).  A host's routes start at its first port with a LID and go to
 * the other host's first such port.
 */
/* A host's port for the jobs' routes: its first port with a LID and a
 * link; 0 when none. */
int jobs_host_port(const struct fab_node *nd);

struct efi_result {
	long max;
	double avg_job_max;
	double dark_pct;
	long links; /* directed inter-switch links */
	long unroutable;
};
int jobs_efi(const struct fabric *f, const struct lft_set *s,
	     const struct jobs *j, struct efi_result *r, struct osmre_err *err);
/* jobs_efi, and each output port's EFI in *per_port (malloc()ed; port p
 * of node n at the sum of nports + 1 over the nodes before n, plus p). */
int jobs_efi_ports(const struct fabric *f, const struct lft_set *s,
		   const struct jobs *j, struct efi_result *r, long **per_port,
		   struct osmre_err *err);

#endif
