/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * parallel_for: run fn(arg, i) for i in [0, n) on up to `threads` POSIX
 * threads that fetch indices one at a time from a shared counter
 * (switch-level granularity).  Results must not depend on which thread ran
 * which index.
 */
#ifndef OSMRE_PARALLEL_H
#define OSMRE_PARALLEL_H

typedef void (*par_fn)(void *arg, long i, int tid);

/* Returns 0, or -1 when no thread could be started (then it ran inline). */
int parallel_for(int threads, long n, par_fn fn, void *arg);
/* Online CPUs, at least 1. */
int parallel_default_threads(void);

#endif
