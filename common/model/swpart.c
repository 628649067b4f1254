/* SPDX-License-Identifier: BSD-2-Clause */
/* Switches into k CA-balanced parts by greedy graph growing (swpart.h). */
#include "swpart.h"

#include <stdlib.h>

#include "components.h"
#include "error.h"

/* 1 when port p of node n leads to a switch not removed. */
static int to_switch(const struct fabric *f, const struct fab_port *pt)
{
	return pt->rnode >= 0 && !f->nodes[pt->rnode].removed &&
	       fab_is_switch(&f->nodes[pt->rnode]);
}

/* The free switch with the most links to taken ones (the lowest
 * numbered on ties, a CA port first when none has a link), -1. */
static int seed_of(const struct fabric *f, const int *part,
		   const int *taken_links, const int *nca)
{
	int v, best = -1;

	for (v = 0; v < f->nnodes; v++) {
		if (part[v] != -2)
			continue;
		if (best < 0 || taken_links[v] > taken_links[best] ||
		    (taken_links[v] == taken_links[best] && !nca[best] &&
		     nca[v]))
			best = v;
	}
	return best;
}

int switch_partition(const struct fabric *f, const int *group, int k, int *part,
		     struct osmre_err *err)
{
	int *nca, *conn, *freedeg, *deg, *taken_links, *comp, v, c;

	if (k < 1)
		return osmre_fail(err, "a partition into %d parts", k);
	comp = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	nca = calloc((size_t)f->nnodes + 1, sizeof(int));
	conn = calloc((size_t)f->nnodes + 1, sizeof(int));
	freedeg = calloc((size_t)f->nnodes + 1, sizeof(int));
	taken_links = calloc((size_t)f->nnodes + 1, sizeof(int));
	deg = calloc((size_t)f->nnodes + 1, sizeof(int));
	if (!comp || !nca || !conn || !freedeg || !taken_links || !deg ||
	    switch_components(f, comp)) {
		free(comp);
		free(deg);
		free(nca);
		free(conn);
		free(freedeg);
		free(taken_links);
		return osmre_fail(err, "out of memory");
	}
	/* -2: a free switch */
	for (v = 0; v < f->nnodes; v++) {
		const struct fab_node *n = &f->nodes[v];
		int p;

		part[v] = -1;
		if (n->removed || !fab_is_switch(n))
			continue;
		part[v] = -2;
		for (p = 1; p <= n->nports; p++) {
			const struct fab_port *pt = &n->ports[p];

			if (to_switch(f, pt))
				freedeg[v]++;
			else if (pt->rnode >= 0 && !f->nodes[pt->rnode].removed)
				nca[v]++;
		}
		deg[v] = freedeg[v];
	}
	/* each connected part (a plane) into k parts of its own */
	for (c = 0; c < f->nnodes; c++) {
		long total = 0, got = 0;
		int r, left = 0;

		if (part[c] != -2 || comp[c] != c)
			continue;
		for (v = 0; v < f->nnodes; v++) {
			if (part[v] == -2 && comp[v] != c)
				part[v] = -3; /* another component's, for now */
			else if (part[v] == -2) {
				left++;
				total += nca[v];
			}
		}
		for (r = 0; r < k && left; r++) {
			long share = total * (r + 1) / k;

			for (v = 0; v < f->nnodes; v++)
				conn[v] = 0;
			while (left && (r == k - 1 || got < share)) {
				int best = -1, p, g, w;
				const struct fab_node *n;

				/* the largest share of its links into the part */
				for (v = 0; v < f->nnodes; v++) {
					long a, b;

					if (part[v] != -2 || !conn[v])
						continue;
					if (best < 0) {
						best = v;
						continue;
					}
					a = (long)conn[v] * deg[best];
					b = (long)conn[best] * deg[v];
					if (a > b ||
					    (a == b && conn[v] > conn[best]))
						best = v;
				}
				if (best < 0)
					best = seed_of(f, part, taken_links,
						       nca);
				g = group ? group[best] : -1;
				for (w = g < 0 ? best : 0; w < f->nnodes; w++) {
					if (part[w] != -2 ||
					    (g >= 0 && group[w] != g))
						continue;
					part[w] = r;
					left--;
					got += nca[w];
					n = &f->nodes[w];
					for (p = 1; p <= n->nports; p++) {
						int u = n->ports[p].rnode;

						if (!to_switch(f,
							       &n->ports[p]) ||
						    part[u] != -2)
							continue;
						conn[u]++;
						freedeg[u]--;
						taken_links[u]++;
					}
					if (g < 0)
						break;
				}
			}
		}
		for (v = 0; v < f->nnodes; v++)
			if (part[v] == -3)
				part[v] = -2;
	}
	free(comp);
	free(nca);
	free(conn);
	free(freedeg);
	free(taken_links);
	free(deg);
	return 0;
}
