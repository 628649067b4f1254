/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdlib.h>
#include <string.h>

#include "lids.h"
#include "parallel.h"
#include "stable_cols.h"

/* per switch, for one LID: unknown, on the walk, reaches it, broken */
enum { S_NEW, S_WALK, S_OK, S_BAD };

struct job {
	const struct fabric *f;
	const struct lft_set *prev;
	struct lft_set *cur;
	const struct lid_owner *own;
	unsigned char **state; /* per thread, f->nnodes */
	int **stack;	       /* per thread */
	long *whole;	       /* per thread: LIDs kept whole */
};

/*
 * state[s] for every switch s that cur routes lid from: S_OK when its
 * previous entries lead, over links that exist, to the destination (dn,
 * dp), S_BAD otherwise (a link gone, no entry, a loop, a dead end).
 */
static void walk_column(const struct fabric *f, const struct lft_set *prev,
			const struct lft_set *cur, unsigned lid, int dn, int dp,
			unsigned char *state, int *stack)
{
	int i;

	memset(state, S_NEW, (size_t)f->nnodes);
	for (i = 0; i < cur->n; i++) {
		int s = cur->t[i].node, n = 0, ok = 0;

		if (s < 0 || lft_get(&cur->t[i], lid) == LFT_NONE ||
		    state[s] != S_NEW)
			continue;
		for (;;) {
			const struct lft *pt = lft_of_node(prev, s);
			int port = pt ? lft_get(pt, lid) : LFT_NONE, r;

			if (state[s] == S_OK || state[s] == S_BAD) {
				ok = state[s] == S_OK;
				break;
			}
			if (state[s] == S_WALK || port == LFT_NONE ||
			    port > f->nodes[s].nports)
				break; /* a loop, or no entry */
			state[s] = S_WALK;
			stack[n++] = s;
			if (port == 0) { /* the switch's own LID */
				ok = s == dn;
				break;
			}
			r = f->nodes[s].ports[port].rnode;
			if (r < 0) /* the link is gone */
				break;
			if (f->nodes[r].type != FAB_SWITCH) {
				/* a CA: the destination's port, or a dead end */
				ok = r == dn &&
				     f->nodes[s].ports[port].rport == dp;
				break;
			}
			s = r;
		}
		while (n)
			state[stack[--n]] = ok ? S_OK : S_BAD;
	}
}

static void one_lid(void *arg, long l, int tid)
{
	struct job *j = arg;
	unsigned lid = (unsigned)l;
	unsigned char *state = j->state[tid];
	int i, whole = 1;

	if (j->own[lid].node < 0)
		return;
	walk_column(j->f, j->prev, j->cur, lid, j->own[lid].node,
		    j->own[lid].port, state, j->stack[tid]);
	for (i = 0; i < j->cur->n; i++) {
		struct lft *t = &j->cur->t[i];

		if (t->node < 0 || lid > t->top || t->port[lid] == LFT_NONE)
			continue;
		if (state[t->node] == S_OK)
			t->port[lid] =
				(uint8_t)lft_get(lft_of_node(j->prev, t->node),
						 lid);
		else
			whole = 0;
	}
	j->whole[tid] += whole;
}

int stable_keep_columns(const struct fabric *f, const struct lft_set *prev,
			struct lft_set *cur, long *kept, int threads,
			struct osmre_err *err)
{
	struct job j = { .f = f, .prev = prev, .cur = cur };
	struct lid_owner *own = NULL;
	unsigned max;
	int t, rc = -1;

	if (threads <= 0)
		threads = parallel_default_threads();
	if (lids_owners(f, &own, &max, err))
		return -1;
	j.own = own;
	j.state = calloc((size_t)threads, sizeof(*j.state));
	j.stack = calloc((size_t)threads, sizeof(*j.stack));
	j.whole = calloc((size_t)threads, sizeof(long));
	for (t = 0; j.state && j.stack && j.whole && t < threads; t++) {
		j.state[t] = malloc((size_t)f->nnodes + 1);
		j.stack[t] = malloc(((size_t)f->nnodes + 1) * sizeof(int));
		if (!j.state[t] || !j.stack[t])
			break;
	}
	if (!j.state || !j.stack || !j.whole || t < threads) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	parallel_for(threads, (long)max + 1, one_lid, &j);
	if (kept)
		for (*kept = 0, t = 0; t < threads; t++)
			*kept += j.whole[t];
	rc = 0;
out:
	for (t = 0; j.state && t < threads; t++)
		free(j.state[t]);
	for (t = 0; j.stack && t < threads; t++)
		free(j.stack[t]);
	free(j.state);
	free(j.stack);
	free(j.whole);
	free(own);
	return rc;
}
