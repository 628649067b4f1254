/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdlib.h>
#include <string.h>

#include "lft_hops.h"
#include "parallel.h"

void sw_hops_free(struct sw_hops *m)
{
	free(m->node);
	free(m->lid);
	free(m->port);
	free(m->hops);
	memset(m, 0, sizeof(*m));
}

struct hops_work {
	const struct fabric *f;
	const struct lft_set *s;
	struct sw_hops *m;
	const int *ix;
	int *scratch; /* 2 * n ints per thread: next, stack */
};

/* Transpose the switch-LID columns of switches 64 * blk .. + 63, so that
 * the writes stay in cache lines. */
static void transpose_block(void *arg, long blk, int tid)
{
	const struct hops_work *w = arg;
	struct sw_hops *m = w->m;
	int n = m->n, b = (int)blk * 64, i, j;

	(void)tid;
	for (j = 0; j < n; j++)
		for (i = b; i < n && i < b + 64; i++)
			m->port[(size_t)j * n + i] =
				(uint8_t)lft_get(lft_of_node(w->s, m->node[i]),
						 m->lid[j]);
}

/* The hop counts of every switch towards switch j, along the routes. */
static void walk_column(void *arg, long col, int tid)
{
	const struct hops_work *w = arg;
	const struct fabric *f = w->f;
	struct sw_hops *m = w->m;
	int n = m->n, j = (int)col, i;
	int *next = w->scratch + (size_t)tid * 2 * ((size_t)n + 1);
	int *stack = next + n + 1;
	const uint8_t *pc = m->port + (size_t)j * n;
	uint8_t *hc = m->hops + (size_t)j * n;

	/* next switch of every switch towards j (-2: none, -1: done) */
	for (i = 0; i < n; i++) {
		const struct fab_port *pt;
		int node = m->node[i];

		hc[i] = 0xFE; /* unknown */
		if (i == j) {
			next[i] = -1;
			continue;
		}
		next[i] = -2;
		if (pc[i] == LFT_NONE || pc[i] == 0 ||
		    pc[i] > f->nodes[node].nports)
			continue;
		pt = &f->nodes[node].ports[pc[i]];
		if (pt->rnode >= 0 && w->ix[pt->rnode] >= 0)
			next[i] = w->ix[pt->rnode];
	}
	hc[j] = 0;
	for (i = 0; i < n; i++) {
		int k = 0, cur = i, res;

		while (hc[cur] == 0xFE) {
			hc[cur] = 0xFD; /* on the current walk */
			stack[k++] = cur;
			if (next[cur] < 0)
				break;
			cur = next[cur];
		}
		if (k && next[stack[k - 1]] == -2)
			res = LFT_HOPS_BYTE_NONE; /* dead end */
		else if (hc[cur] == 0xFD || hc[cur] == LFT_HOPS_BYTE_NONE)
			res = LFT_HOPS_BYTE_NONE; /* loop, or fails */
		else
			res = hc[cur];
		while (k--) {
			if (res != LFT_HOPS_BYTE_NONE)
				res = res + 1 > 0xFC ? LFT_HOPS_BYTE_NONE :
						       res + 1;
			hc[stack[k]] = (uint8_t)res;
		}
	}
}

int lft_switch_hops(const struct fabric *f, const struct lft_set *s,
		    int threads, struct sw_hops *m, struct osmre_err *err)
{
	int *ix = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	struct hops_work w = { f, s, m, ix, NULL };
	int i, n = 0;
	size_t nn;

	memset(m, 0, sizeof(*m));
	if (!ix)
		return osmre_fail(err, "out of memory");
	if (threads <= 0)
		threads = parallel_default_threads();
	for (i = 0; i < f->nnodes; i++) {
		const struct fab_node *nd = &f->nodes[i];

		ix[i] = -1;
		if (nd->type == FAB_SWITCH && !nd->removed &&
		    nd->ports[0].lid && lft_of_node(s, i))
			ix[i] = n++;
	}
	if (threads > n)
		threads = n > 0 ? n : 1;
	nn = (size_t)n * (size_t)n;
	m->node = malloc(((size_t)n + 1) * sizeof(int));
	m->lid = malloc(((size_t)n + 1) * sizeof(unsigned));
	m->port = malloc(nn + 1);
	m->hops = malloc(nn + 1);
	w.scratch = malloc((size_t)threads * 2 * ((size_t)n + 1) * sizeof(int));
	if (!m->node || !m->lid || !m->port || !m->hops || !w.scratch) {
		free(ix);
		free(w.scratch);
		sw_hops_free(m);
		return osmre_fail(err, "out of memory");
	}
	m->n = n;
	for (i = 0; i < f->nnodes; i++)
		if (ix[i] >= 0) {
			m->node[ix[i]] = i;
			m->lid[ix[i]] = f->nodes[i].ports[0].lid;
		}
	/* each block of switches, then each column, is its own: the same
	 * result whatever thread took it */
	parallel_for(threads, (n + 63) / 64, transpose_block, &w);
	parallel_for(threads, n, walk_column, &w);
	free(ix);
	free(w.scratch);
	return 0;
}
