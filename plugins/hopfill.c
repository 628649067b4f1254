/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The hop counts of the switch LIDs into OpenSM's hop tables, before the
 * routing pass returns or on a plugin thread while OpenSM sends the LFT
 * blocks (hops_background 1).  OpenSM reads these tables only in its
 * multicast manager, after the unicast routing done event, and clears or
 * frees them only in a later routing pass or when a switch goes: the
 * event plugin joins the thread at that event, at a heavy sweep's start,
 * at SUBNET UP, before a pass and on exit, whichever comes first.
 */
#include "osmre_plugin.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <opensm/osm_switch.h>

#include "clock.h"
#include "parallel.h"

struct hopfill_job {
	struct fabric *f;
	struct lft_set s;
	struct sw_hops m;
	osm_switch_t **by_node;
	int threads;
	double took; /* seconds, set at the end */
	int failed;
	struct osmre_err err;
};

void hopfill_set_one(osm_switch_t *sw, unsigned lid, int h)
{
	uint8_t port = lid <= sw->max_lid_ho ? sw->new_lft[lid] : OSM_NO_PATH;

	if (port == OSM_NO_PATH || h < 0)
		return;
	osm_switch_set_hops(sw, (uint16_t)lid, port, (uint8_t)h);
}

/* The hop counts of switches 64 * blk .. 64 * blk + 63 of m, target by
 * target: one cache line of m per target (m is column-major).  A
 * switch's hop arrays are its own (osm_switch_set_hops touches nothing
 * else), so blocks run on threads. */
static void hops_block(void *arg, long blk, int tid)
{
	const struct hopfill_job *j = arg;
	const struct sw_hops *m = &j->m;
	osm_switch_t *sw[64];
	int i, t, b = (int)blk * 64, e = b + 64 < m->n ? b + 64 : m->n;

	(void)tid;
	for (i = b; i < e; i++)
		sw[i - b] = j->by_node[m->node[i]];
	for (t = 0; t < m->n; t++) {
		const uint8_t *hc = m->hops + (size_t)t * m->n;

		for (i = b; i < e; i++)
			if (sw[i - b] && hc[i] != LFT_HOPS_BYTE_NONE)
				hopfill_set_one(sw[i - b], m->lid[t], hc[i]);
	}
}

static void job_free(struct hopfill_job *j)
{
	if (!j)
		return;
	fabric_free(j->f);
	lft_set_free(&j->s);
	sw_hops_free(&j->m);
	free(j->by_node);
	free(j);
}

/* The hop matrix along the routes (the fabric and tables are freed once
 * it is there), then OpenSM's hop tables from it. */
static void job_run(struct hopfill_job *j)
{
	double t0 = clock_mono();
	int threads = j->threads > 0 ? j->threads : parallel_default_threads();

	j->failed = lft_switch_hops(j->f, &j->s, threads, &j->m, &j->err);
	fabric_free(j->f);
	j->f = NULL;
	lft_set_free(&j->s);
	if (!j->failed)
		parallel_for(threads, (j->m.n + 63) / 64, hops_block, j);
	sw_hops_free(&j->m);
	j->took = clock_mono() - t0;
}

static void *job_thread(void *arg)
{
	/* behind OpenSM's threads (and ibsim's, where it runs): the fill has
	 * until OpenSM has its answers, OpenSM's queueing does not wait */
	/* (a refusal is not fatal: it then runs at OpenSM's priority) */
	(void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
	job_run(arg);
	return NULL;
}

void hopfill_init(struct hopfill *h)
{
	pthread_mutex_init(&h->lock, NULL);
	h->running = 0;
	h->job = NULL;
}

int hopfill_run(struct hopfill *h, struct fabric *f, struct lft_set *s,
		osm_switch_t **by_node, int threads, int background,
		struct osmre_err *err)
{
	struct hopfill_job *j = calloc(1, sizeof(*j));
	int rc;

	hopfill_join(h, NULL);
	if (!j) {
		fabric_free(f);
		lft_set_free(s);
		free(by_node);
		osmre_fail(err, "out of memory");
		return -1;
	}
	j->f = f;
	j->s = *s;
	memset(s, 0, sizeof(*s));
	j->by_node = by_node;
	j->threads = threads;
	if (background) {
		/* one thread: OpenSM sends the blocks on the other cores,
		 * and the fill has until OpenSM waited for their answers */
		j->threads = 1;
		pthread_mutex_lock(&h->lock);
		rc = pthread_create(&h->thread, NULL, job_thread, j);
		if (!rc) {
			h->running = 1;
			h->job = j;
			h->since = clock_mono();
		}
		pthread_mutex_unlock(&h->lock);
		if (!rc)
			return 1;
	}
	job_run(j);
	rc = j->failed ? -1 : 0;
	if (rc)
		*err = j->err;
	job_free(j);
	return rc;
}

int hopfill_join(struct hopfill *h, struct hopfill_report *r)
{
	double t0;
	int was;

	pthread_mutex_lock(&h->lock);
	was = h->running;
	if (was) {
		t0 = clock_mono();
		pthread_join(h->thread, NULL);
		if (r) {
			r->waited = clock_mono() - t0;
			r->took = h->job->took;
			r->since = t0 - h->since;
			r->failed = h->job->failed;
			r->err = h->job->err;
		}
		job_free(h->job);
		h->job = NULL;
		h->running = 0;
	}
	pthread_mutex_unlock(&h->lock);
	return was;
}

void hopfill_destroy(struct hopfill *h)
{
	hopfill_join(h, NULL);
	pthread_mutex_destroy(&h->lock);
}
