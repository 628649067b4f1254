/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdlib.h>

#include "components.h"

int switch_components(const struct fabric *f, int *comp)
{
	int *queue = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	int i, p;

	if (!queue)
		return -1;
	for (i = 0; i < f->nnodes; i++)
		comp[i] = -1;
	for (i = 0; i < f->nnodes; i++) {
		int head = 0, tail = 0;

		if (comp[i] >= 0 || f->nodes[i].type != FAB_SWITCH ||
		    f->nodes[i].removed)
			continue;
		comp[i] = i;
		queue[tail++] = i;
		while (head < tail) {
			const struct fab_node *n = &f->nodes[queue[head++]];

			for (p = 1; p <= n->nports; p++) {
				int r = n->ports[p].rnode;

				if (r >= 0 && f->nodes[r].type == FAB_SWITCH &&
				    comp[r] < 0) {
					comp[r] = i;
					queue[tail++] = r;
				}
			}
		}
	}
	free(queue);
	return 0;
}
