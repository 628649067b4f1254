/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Progress of a long computation on a stream (stderr): silent for the
 * first 2 s, then one line every 2 s ("osmre: SP: 520/1295 (40 %), 4 s"),
 * and a last line when it ends if any was printed.  progress_step() may be
 * called from several threads.
 */
#ifndef OSMRE_PROGRESS_H
#define OSMRE_PROGRESS_H

#include <stdatomic.h>
#include <stdio.h>

struct progress {
	FILE *fp; /* NULL: silent */
	const char *what;
	long total;
	atomic_long done;
	atomic_long next_ms; /* next report, ms after start */
	double start;
	atomic_int printed;
};

void progress_start(struct progress *p, FILE *fp, const char *what, long total);
void progress_step(struct progress *p, long n);
void progress_end(struct progress *p);

#endif
