/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdlib.h>
#include <string.h>

#include "lids.h"
#include "stable_cols.h"

/* per switch, for one LID: 0 unknown, 1 on the stack, 2 reaches it */
enum { S_NEW, S_WALK, S_OK };

/*
 * 1 when, for LID lid owned by (dn, dp), the previous entries lead from
 * every switch that cur routes to it, over existing links, to the
 * destination.  state[] and stack[] are scratch (f->nnodes entries).
 */
static int column_works(const struct fabric *f, const struct lft_set *prev,
			const struct lft_set *cur, unsigned lid, int dn, int dp,
			unsigned char *state, int *stack)
{
	int i, ok = 1;

	memset(state, S_NEW, (size_t)f->nnodes);
	for (i = 0; i < cur->n && ok; i++) {
		const struct lft *t = &cur->t[i];
		int s = t->node, n = 0;

		if (s < 0 || lft_get(t, lid) == LFT_NONE || state[s] == S_OK)
			continue;
		/* walk the previous entries from s until a known switch */
		while (ok) {
			const struct lft *pt = lft_of_node(prev, s);
			int port = pt ? lft_get(pt, lid) : LFT_NONE, r;

			if (state[s] == S_OK)
				break;
			if (state[s] == S_WALK || port == LFT_NONE ||
			    port > f->nodes[s].nports) {
				ok = 0;
				break;
			}
			state[s] = S_WALK;
			stack[n++] = s;
			if (port == 0) { /* the switch's own LID */
				ok = s == dn;
				break;
			}
			r = f->nodes[s].ports[port].rnode;
			if (r < 0) { /* the link is gone */
				ok = 0;
				break;
			}
			if (f->nodes[r].type != FAB_SWITCH) {
				/* a CA: the destination's port, or a dead end */
				ok = r == dn &&
				     f->nodes[s].ports[port].rport == dp;
				break;
			}
			s = r;
		}
		while (n)
			state[stack[--n]] = ok ? S_OK : S_WALK;
	}
	return ok;
}

int stable_keep_columns(const struct fabric *f, const struct lft_set *prev,
			struct lft_set *cur, long *kept, struct osmre_err *err)
{
	unsigned char *state = malloc((size_t)f->nnodes + 1);
	int *stack = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	struct lid_owner *own = NULL;
	unsigned max, lid;
	long k = 0;
	int i;

	if (!state || !stack || lids_owners(f, &own, &max, err)) {
		free(state);
		free(stack);
		free(own);
		return osmre_fail(err, "out of memory");
	}
	for (lid = 1; lid <= max; lid++) {
		if (own[lid].node < 0 ||
		    !column_works(f, prev, cur, lid, own[lid].node,
				  own[lid].port, state, stack))
			continue;
		for (i = 0; i < cur->n; i++) {
			struct lft *t = &cur->t[i];
			const struct lft *pt = lft_of_node(prev, t->node);

			/* (a switch the new routing cannot route from keeps
			 * no entry) */
			if (lid <= t->top && t->port[lid] != LFT_NONE)
				t->port[lid] = pt ? (uint8_t)lft_get(pt, lid) :
						    LFT_NONE;
		}
		k++;
	}
	if (kept)
		*kept = k;
	free(state);
	free(stack);
	free(own);
	return 0;
}
