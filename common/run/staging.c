/* SPDX-License-Identifier: BSD-2-Clause */
/* The committed and staged results of routing passes (staging.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "staging.h"

void staging_pass_free(struct staging_pass *p)
{
	lft_set_free(&p->tables);
	route_layers_free(&p->layers);
}


int staging_init(struct staging *st, int keep_tables)
{
	memset(st, 0, sizeof(*st));
	st->keep_tables = keep_tables;
	if (pthread_mutex_init(&st->lock, NULL))
		return -1;
	if (pthread_cond_init(&st->cond, NULL)) {
		pthread_mutex_destroy(&st->lock);
		return -1;
	}
	return 0;
}

void staging_free(struct staging *st)
{
	staging_pass_free(&st->cur);
	staging_pass_free(&st->next);
	free(st->changed);
	pthread_mutex_destroy(&st->lock);
	pthread_cond_destroy(&st->cond);
	memset(st, 0, sizeof(*st));
}

/* next -> cur; the caller holds the lock */
static void promote_locked(struct staging *st)
{
	if (!st->have_next)
		return;
	staging_pass_free(&st->cur);
	st->cur = st->next;
	memset(&st->next, 0, sizeof(st->next));
	st->have_next = 0;
	st->cur_gen++;
}

void staging_restore(struct staging *st, uint64_t sig, struct staging_pass *p)
{
	pthread_mutex_lock(&st->lock);
	staging_pass_free(&st->cur);
	st->cur = *p;
	memset(p, 0, sizeof(*p));
	st->have_cur = 1;
	st->cur_sig = sig;
	pthread_mutex_unlock(&st->lock);
}

unsigned long staging_generation(struct staging *st)
{
	unsigned long g;

	pthread_mutex_lock(&st->lock);
	g = st->have_cur ? st->cur_gen : 0;
	pthread_mutex_unlock(&st->lock);
	return g;
}

int staging_reuse(struct staging *st, uint64_t sig, struct lft_set *s,
		  struct osmre_err *err)
{
	int rc = STAGING_RUN;

	pthread_mutex_lock(&st->lock);
	if (st->keep_tables && st->have_cur && sig == st->cur_sig &&
	    st->mode != STAGING_STAGE) {
		rc = STAGING_KEPT;
		if (st->mode == STAGING_APPLY && st->have_next) {
			promote_locked(st);
			rc = STAGING_APPLIED;
		}
		st->mode = STAGING_NORMAL;
		lft_set_free(s);
		if (lft_set_clone(&st->cur.tables, s, err))
			rc = -1;
		pthread_cond_broadcast(&st->cond);
	}
	pthread_mutex_unlock(&st->lock);
	return rc;
}

/* r's result is kept aside as next; s gets the committed tables */
static int stage_locked(struct staging *st, struct route_result *r,
			struct lft_set *s, struct osmre_err *err)
{
	int rc = 0;

	staging_pass_free(&st->next);
	st->next.tables = r->tables;
	st->next.layers = r->layers;
	st->have_next = 1;
	free(st->changed);
	st->staged = lft_set_blocks_changed(&st->cur.tables, &st->next.tables,
					    &st->changed);
	if (st->staged < 0) {
		st->changed = NULL;
		rc = osmre_fail(err, "out of memory");
	}
	if (rc || lft_set_clone(&st->cur.tables, s, err)) {
		memset(s, 0, sizeof(*s));
		rc = -1;
	}
	return rc;
}

/* r's result is committed at once; s gets its tables */
static int commit_locked(struct staging *st, uint64_t sig,
			 struct route_result *r, struct lft_set *s,
			 struct osmre_err *err)
{
	if (st->mode == STAGING_STAGE)
		st->staged = 0;
	staging_pass_free(&st->cur);
	staging_pass_free(&st->next);
	st->have_next = 0;
	free(st->changed); /* blocks of the old topology */
	st->changed = NULL;
	st->cur.layers = r->layers;
	st->have_cur = 1;
	st->cur_sig = sig;
	st->cur_gen++;
	if (!st->keep_tables) {
		*s = r->tables;
		return 0;
	}
	st->cur.tables = r->tables;
	if (lft_set_clone(&st->cur.tables, s, err)) {
		st->have_cur = 0;
		return -1;
	}
	return 0;
}

int staging_routed(struct staging *st, uint64_t sig, struct route_result *r,
		   struct lft_set *s, struct osmre_err *err)
{
	int rc, moved;

	pthread_mutex_lock(&st->lock);
	moved = st->keep_tables && st->have_cur && sig != st->cur_sig;
	if (st->keep_tables && st->mode == STAGING_STAGE && st->have_cur &&
	    sig == st->cur_sig)
		rc = stage_locked(st, r, s, err);
	else
		rc = commit_locked(st, sig, r, s, err);
	/* the tables and layers are the staging object's now */
	memset(&r->tables, 0, sizeof(r->tables));
	memset(&r->layers, 0, sizeof(r->layers));
	route_result_free(r);
	st->mode = STAGING_NORMAL;
	pthread_cond_broadcast(&st->cond);
	pthread_mutex_unlock(&st->lock);
	return rc ? rc : moved;
}

int staging_adopt(struct staging *st, uint64_t sig, struct lft_set *held,
		  struct route_result *r, struct lft_set *s,
		  struct osmre_err *err)
{
	int rc;

	lft_set_free(&r->tables);
	r->tables = *held;
	memset(held, 0, sizeof(*held));
	pthread_mutex_lock(&st->lock);
	rc = commit_locked(st, sig, r, s, err);
	memset(&r->tables, 0, sizeof(r->tables));
	memset(&r->layers, 0, sizeof(r->layers));
	route_result_free(r);
	st->mode = STAGING_NORMAL;
	pthread_cond_broadcast(&st->cond);
	pthread_mutex_unlock(&st->lock);
	return rc;
}

void staging_failed(struct staging *st)
{
	pthread_mutex_lock(&st->lock);
	if (st->mode == STAGING_STAGE)
		st->staged = -1;
	st->mode = STAGING_NORMAL;
	pthread_cond_broadcast(&st->cond);
	pthread_mutex_unlock(&st->lock);
}

int staging_has_committed(struct staging *st)
{
	int have;

	pthread_mutex_lock(&st->lock);
	have = st->have_cur;
	pthread_mutex_unlock(&st->lock);
	return have;
}

int staging_matches(struct staging *st, const struct lft_set *held)
{
	int same;

	pthread_mutex_lock(&st->lock);
	same = !st->have_cur || lft_set_equal(&st->cur.tables, held, NULL, 0);
	if (!same) {
		staging_pass_free(&st->cur);
		st->have_cur = 0;
		st->cur_sig = 0;
	}
	pthread_mutex_unlock(&st->lock);
	return same;
}

void staging_drop(struct staging *st)
{
	pthread_mutex_lock(&st->lock);
	staging_pass_free(&st->next);
	st->have_next = 0;
	free(st->changed);
	st->changed = NULL;
	st->staged = 0;
	st->mode = STAGING_NORMAL;
	pthread_mutex_unlock(&st->lock);
}

void staging_ask(struct staging *st, int mode)
{
	pthread_mutex_lock(&st->lock);
	st->mode = mode;
	if (mode == STAGING_STAGE)
		st->staged = -1;
	pthread_mutex_unlock(&st->lock);
}

int staging_mode(struct staging *st)
{
	int m;

	pthread_mutex_lock(&st->lock);
	m = st->mode;
	pthread_mutex_unlock(&st->lock);
	return m;
}

long staging_wait(struct staging *st, double timeout_s)
{
	struct timespec until = clock_deadline(timeout_s);
	long n;

	/* the pass that takes the stage mode puts it back to normal */
	pthread_mutex_lock(&st->lock);
	while (st->mode == STAGING_STAGE && !st->closing &&
	       pthread_cond_timedwait(&st->cond, &st->lock, &until) !=
		       ETIMEDOUT)
		;
	n = st->mode == STAGING_STAGE ? -1 : st->staged;
	st->mode = STAGING_NORMAL;
	pthread_mutex_unlock(&st->lock);
	return n;
}

void staging_close(struct staging *st)
{
	pthread_mutex_lock(&st->lock);
	st->closing = 1;
	pthread_cond_broadcast(&st->cond);
	pthread_mutex_unlock(&st->lock);
}

int staging_each_changed(struct staging *st,
			 int (*fn)(void *ctx, const struct lft *t,
				   unsigned block),
			 void *ctx)
{
	int all = 1;
	long k;

	pthread_mutex_lock(&st->lock);
	for (k = 0; all && st->changed && k < st->staged; k++)
		all = fn(ctx, &st->cur.tables.t[st->changed[k].table],
			 st->changed[k].block);
	pthread_mutex_unlock(&st->lock);
	return all;
}

uint8_t staging_path_sl(struct staging *st, unsigned slid, unsigned dlid)
{
	uint8_t sl;

	pthread_mutex_lock(&st->lock);
	sl = route_layers_sl(&st->cur.layers, slid, dlid);
	pthread_mutex_unlock(&st->lock);
	return sl;
}
