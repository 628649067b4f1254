/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdlib.h>

#include "ranks.h"

static int is_leaf(const struct fabric *f, const struct fab_node *n)
{
	int p;

	for (p = 1; p <= n->nports; p++)
		if (n->ports[p].rnode >= 0 &&
		    f->nodes[n->ports[p].rnode].type != FAB_SWITCH)
			return 1;
	return 0;
}

int ranks_compute(const struct fabric *f, int *rank)
{
	int *queue = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	int head = 0, tail = 0, i, p, top = 0;

	if (!queue)
		return -1;
	for (i = 0; i < f->nnodes; i++) {
		const struct fab_node *n = &f->nodes[i];

		rank[i] = -1;
		if (n->type == FAB_SWITCH && !n->removed && is_leaf(f, n)) {
			rank[i] = 0;
			queue[tail++] = i;
		}
	}
	while (head < tail) {
		const struct fab_node *n = &f->nodes[queue[head]];
		int r = rank[queue[head++]];

		for (p = 1; p <= n->nports; p++) {
			int b = n->ports[p].rnode;

			if (b < 0 || f->nodes[b].type != FAB_SWITCH ||
			    rank[b] >= 0)
				continue;
			rank[b] = r + 1;
			if (r + 1 > top)
				top = r + 1;
			queue[tail++] = b;
		}
	}
	free(queue);
	return top;
}
