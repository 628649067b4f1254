/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Switches are numbered compactly, levelled ones first from the top
 * level down, and their switch links kept in three adjacency lists (up,
 * down, any), each in port order, so that a destination costs two passes
 * over the links.
 */
#include <stdlib.h>
#include <string.h>

#include "parallel.h"
#include "swroutes.h"

#define INF 0x3fffffff

struct adj {
	int nb;	  /* compact index of the neighbour */
	int port; /* our port towards it */
};

struct csr {
	int *first; /* nsw + 1 */
	struct adj *a;
};

struct sw_job {
	const struct fabric *f;
	struct lft_set *s;
	int nsw, nlev;	 /* switches; the levelled ones come first */
	int *node, *lvl; /* per compact index */
	struct lft **lft;
	struct csr up, down, any;
	int **dist, **queue; /* per thread */
	uint8_t **anc;	     /* per thread: x's ancestors (or x) */
};

static int csr_build(struct sw_job *j, const int *idx, struct csr *c,
		     int dir) /* +1 up, -1 down, 0 any */
{
	const struct fabric *f = j->f;
	int k, p, n = 0;

	c->first = malloc(((size_t)j->nsw + 1) * sizeof(int));
	if (!c->first)
		return -1;
	for (k = 0; k < j->nsw; k++) {
		const struct fab_node *nd = &f->nodes[j->node[k]];

		c->first[k] = n;
		for (p = 1; p <= nd->nports; p++) {
			int r = nd->ports[p].rnode;

			n += r >= 0 && idx[r] >= 0 &&
			     (!dir || (j->lvl[k] > 0 &&
				       j->lvl[idx[r]] == j->lvl[k] + dir));
		}
	}
	c->first[j->nsw] = n;
	c->a = malloc(((size_t)n + 1) * sizeof(struct adj));
	if (!c->a)
		return -1;
	for (k = 0, n = 0; k < j->nsw; k++) {
		const struct fab_node *nd = &f->nodes[j->node[k]];

		for (p = 1; p <= nd->nports; p++) {
			int r = nd->ports[p].rnode;

			if (r >= 0 && idx[r] >= 0 &&
			    (!dir || (j->lvl[k] > 0 &&
				      j->lvl[idx[r]] == j->lvl[k] + dir)))
				c->a[n++] = (struct adj){ idx[r], p };
		}
	}
	return 0;
}

static void set_port(struct sw_job *j, int k, unsigned lid, int port)
{
	struct lft *t = j->lft[k];

	if (t && lid <= t->top)
		t->port[lid] = (uint8_t)port;
}

/* Shortest paths of any kind towards x for the switches left without a
 * route (not yet set). */
static void any_path(struct sw_job *j, int x, unsigned lid, int *dist,
		     int *queue, int all)
{
	int head = 0, tail = 0, k, e;

	for (k = 0; k < j->nsw; k++)
		dist[k] = INF;
	dist[x] = 0;
	queue[tail++] = x;
	while (head < tail) {
		k = queue[head++];
		for (e = j->any.first[k]; e < j->any.first[k + 1]; e++)
			if (dist[j->any.a[e].nb] == INF) {
				dist[j->any.a[e].nb] = dist[k] + 1;
				queue[tail++] = j->any.a[e].nb;
			}
	}
	for (k = 0; k < j->nlev; k++) {
		struct lft *t = j->lft[k];

		if (k == x || dist[k] == INF || !t || lid > t->top ||
		    (!all && t->port[lid] != LFT_NONE))
			continue;
		for (e = j->any.first[k]; e < j->any.first[k + 1]; e++)
			if (dist[j->any.a[e].nb] == dist[k] - 1) {
				t->port[lid] = (uint8_t)j->any.a[e].port;
				break;
			}
	}
}

static void one_switch(void *arg, long i, int tid)
{
	struct sw_job *j = arg;
	int x = (int)i, *dist = j->dist[tid], *queue = j->queue[tid];
	unsigned lid = j->f->nodes[j->node[x]].ports[0].lid;
	uint8_t *anc = j->anc[tid];
	int head = 0, tail = 0, k, e, lost = 0;

	if (!lid)
		return;
	set_port(j, x, lid, 0);
	if (x >= j->nlev) { /* no level: any path */
		any_path(j, x, lid, dist, queue, 1);
		return;
	}
	for (k = 0; k < j->nlev; k++) {
		dist[k] = INF;
		anc[k] = 0;
	}
	/* x's ancestors reach it going down: BFS upwards from x */
	dist[x] = 0;
	anc[x] = 1;
	queue[tail++] = x;
	while (head < tail) {
		k = queue[head++];
		for (e = j->up.first[k]; e < j->up.first[k + 1]; e++) {
			int r = j->up.a[e].nb;

			if (!anc[r]) {
				anc[r] = 1;
				dist[r] = dist[k] + 1;
				queue[tail++] = r;
			}
		}
	}
	/* the others go up first: parents (numbered lower) before children */
	for (k = 0; k < j->nlev; k++) {
		int best = INF;

		if (anc[k])
			continue;
		for (e = j->up.first[k]; e < j->up.first[k + 1]; e++)
			if (dist[j->up.a[e].nb] + 1 < best)
				best = dist[j->up.a[e].nb] + 1;
		dist[k] = best;
	}
	for (k = 0; k < j->nlev; k++) {
		const struct csr *c = anc[k] ? &j->down : &j->up;

		if (k == x)
			continue;
		if (dist[k] >= INF) {
			lost = 1;
			continue;
		}
		/* down along x's ancestors, or up towards them */
		for (e = c->first[k]; e < c->first[k + 1]; e++) {
			int r = c->a[e].nb;

			if (dist[r] == dist[k] - 1 && (!anc[k] || anc[r])) {
				set_port(j, k, lid, c->a[e].port);
				break;
			}
		}
	}
	if (lost)
		any_path(j, x, lid, dist, queue, 0);
}

int swroutes_updown(const struct fabric *f, const int *level, struct lft_set *s,
		    int threads, struct osmre_err *err)
{
	struct sw_job j = { .f = f, .s = s };
	int *idx = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	int n, t, l, top = 0, rc = 0;

	if (threads <= 0)
		threads = parallel_default_threads();
	j.node = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	j.lvl = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	j.lft = malloc(((size_t)f->nnodes + 1) * sizeof(struct lft *));
	j.dist = calloc((size_t)threads, sizeof(int *));
	j.queue = calloc((size_t)threads, sizeof(int *));
	j.anc = calloc((size_t)threads, sizeof(uint8_t *));
	if (!idx || !j.node || !j.lvl || !j.lft || !j.dist || !j.queue ||
	    !j.anc)
		goto oom;
	/* compact numbering: levelled switches from the top, then the rest */
	for (n = 0; n < f->nnodes; n++) {
		idx[n] = -1;
		if (f->nodes[n].type == FAB_SWITCH && level[n] > top)
			top = level[n];
	}
	for (l = top; l >= 1; l--)
		for (n = 0; n < f->nnodes; n++)
			if (f->nodes[n].type == FAB_SWITCH && level[n] == l) {
				idx[n] = j.nsw;
				j.lvl[j.nsw] = l;
				j.node[j.nsw++] = n;
			}
	j.nlev = j.nsw;
	for (n = 0; n < f->nnodes; n++)
		if (f->nodes[n].type == FAB_SWITCH && !f->nodes[n].removed &&
		    idx[n] < 0) {
			idx[n] = j.nsw;
			j.lvl[j.nsw] = 0;
			j.node[j.nsw++] = n;
		}
	for (n = 0; n < j.nsw; n++)
		j.lft[n] = lft_of_node(s, j.node[n]);
	if (csr_build(&j, idx, &j.up, 1) || csr_build(&j, idx, &j.down, -1) ||
	    csr_build(&j, idx, &j.any, 0))
		goto oom;
	for (t = 0; t < threads; t++)
		if (!(j.dist[t] = malloc(((size_t)j.nsw + 1) * sizeof(int))) ||
		    !(j.queue[t] = malloc(((size_t)j.nsw + 1) * sizeof(int))) ||
		    !(j.anc[t] = malloc((size_t)j.nsw + 1)))
			goto oom;
	parallel_for(threads, j.nsw, one_switch, &j);
	goto out;
oom:
	rc = osmre_fail(err, "out of memory");
out:
	for (t = 0; j.dist && j.queue && j.anc && t < threads; t++) {
		free(j.dist[t]);
		free(j.queue[t]);
		free(j.anc[t]);
	}
	free(j.dist);
	free(j.queue);
	free(j.anc);
	free(j.up.first);
	free(j.up.a);
	free(j.down.first);
	free(j.down.a);
	free(j.any.first);
	free(j.any.a);
	free(j.node);
	free(j.lvl);
	free(j.lft);
	free(idx);
	return rc;
}
