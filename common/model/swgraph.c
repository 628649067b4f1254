/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdlib.h>
#include <string.h>

#include "components.h"
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

int swgraph_build(const struct fabric *f, struct swgraph *g)
{
	size_t nn = (size_t)f->nnodes + 1;
	int *fill;
	int k, p;

	memset(g, 0, sizeof(*g));
	g->f = f;
	g->idx = malloc(nn * sizeof(int));
	g->node = malloc(nn * sizeof(int));
	if (!g->idx || !g->node)
		return -1;
	g->nsw = swgraph_index(f, g->idx, g->node);
	g->chan_first = malloc(((size_t)g->nsw + 1) * sizeof(int));
	g->nports = malloc(((size_t)g->nsw + 1) * sizeof(int));
	if (!g->chan_first || !g->nports)
		return -1;
	for (k = 0; k < g->nsw; k++) {
		const struct fab_node *nd = &f->nodes[g->node[k]];

		g->nports[k] = nd->nports;
		g->chan_first[k] = g->nchan;
		g->nchan += nd->nports + 1;
		for (p = 1; p <= nd->nports; p++) {
			int r = nd->ports[p].rnode;

			g->nlink += r >= 0 && g->idx[r] >= 0;
		}
	}
	g->l = malloc(((size_t)g->nlink + 1) * sizeof(*g->l));
	g->out_first = calloc((size_t)g->nsw + 2, sizeof(int));
	g->in_first = calloc((size_t)g->nsw + 2, sizeof(int));
	g->in = malloc(((size_t)g->nlink + 1) * sizeof(int));
	g->in_from = malloc(((size_t)g->nlink + 1) * sizeof(int));
	g->link_of = malloc(((size_t)g->nchan + 1) * sizeof(int));
	if (!g->l || !g->out_first || !g->in_first || !g->in || !g->in_from ||
	    !g->link_of)
		return -1;
	for (k = 0; k < g->nchan; k++)
		g->link_of[k] = -1;
	g->nlink = 0;
	for (k = 0; k < g->nsw; k++) {
		const struct fab_node *nd = &f->nodes[g->node[k]];

		for (p = 1; p <= nd->nports; p++) {
			int r = nd->ports[p].rnode;

			if (r < 0 || g->idx[r] < 0)
				continue;
			g->link_of[g->chan_first[k] + p] = g->nlink;
			g->l[g->nlink++] = (struct swlink){ k, g->idx[r], p };
			g->in_first[g->idx[r] + 1]++;
		}
		g->out_first[k + 1] = g->nlink;
	}
	for (k = 0; k < g->nsw; k++)
		g->in_first[k + 1] += g->in_first[k];
	fill = malloc(((size_t)g->nsw + 1) * sizeof(int));
	if (!fill)
		return -1;
	memcpy(fill, g->in_first, (size_t)g->nsw * sizeof(int));
	for (k = 0; k < g->nlink; k++) {
		g->in_from[fill[g->l[k].to]] = g->l[k].from;
		g->in[fill[g->l[k].to]++] = k;
	}
	free(fill);
	return 0;
}

int swgraph_groups(struct swgraph *g)
{
	int k;

	g->lfrom = malloc(((size_t)g->nlink + 1) * sizeof(int));
	g->lto = malloc(((size_t)g->nlink + 1) * sizeof(int));
	if (!g->lfrom || !g->lto)
		return -1;
	for (k = 0; k < g->nlink; k++) {
		g->lfrom[k] = g->l[k].from;
		g->lto[k] = g->l[k].to;
	}
	g->group = malloc(((size_t)g->f->nnodes + 1) * sizeof(int));
	if (!g->group || (g->ngroups = switch_groups(g->f, g->group)) < 0)
		return -1;
	return 0;
}

void swgraph_free(struct swgraph *g)
{
	free(g->lfrom);
	free(g->lto);
	free(g->group);
	free(g->idx);
	free(g->node);
	free(g->nports);
	free(g->chan_first);
	free(g->l);
	free(g->out_first);
	free(g->link_of);
	free(g->in_first);
	free(g->in);
	free(g->in_from);
}
