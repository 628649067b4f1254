/* SPDX-License-Identifier: BSD-2-Clause */
#include "swgraph.h"

int swgraph_index(const struct fabric *f, int *idx, int *node)
{
	int n, nsw = 0;

	for (n = 0; n < f->nnodes; n++) {
		idx[n] = -1;
		if (fab_is_switch(&f->nodes[n]) && !f->nodes[n].removed) {
			if (node)
				node[nsw] = n;
			idx[n] = nsw++;
		}
	}
	return nsw;
}
