/* SPDX-License-Identifier: BSD-2-Clause */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "parallel.h"

struct job {
	atomic_long next;
	long n;
	par_fn fn;
	void *arg;
};

struct worker {
	struct job *job;
	int tid;
	pthread_t th;
};

static void *run(void *p)
{
	struct worker *w = p;
	struct job *j = w->job;
	long i;

	while ((i = atomic_fetch_add(&j->next, 1)) < j->n)
		j->fn(j->arg, i, w->tid);
	return NULL;
}

int parallel_for(int threads, long n, par_fn fn, void *arg)
{
	struct job j = { .n = n, .fn = fn, .arg = arg };
	struct worker *w;
	int t, started = 0, rc = 0;

	atomic_init(&j.next, 0);
	if (threads > n)
		threads = (int)n;
	if (threads <= 1) {
		struct worker self = { .job = &j, .tid = 0 };

		run(&self);
		return 0;
	}
	w = calloc((size_t)threads, sizeof(*w));
	if (w) {
		for (t = 1; t < threads; t++) {
			w[t].job = &j;
			w[t].tid = t;
			if (pthread_create(&w[t].th, NULL, run, &w[t]))
				break;
			started++;
		}
		w[0].job = &j;
		run(&w[0]);
		for (t = 1; t <= started; t++)
			pthread_join(w[t].th, NULL);
		free(w);
	} else {
		struct worker self = { .job = &j, .tid = 0 };

		run(&self);
		rc = -1;
	}
	return rc;
}

int parallel_default_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}
