/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdlib.h>
#include <string.h>

#include "parallel.h"
#include "swroutes.h"

#define INF 0x3fffffff

struct sw_job {
	const struct fabric *f;
	const int *level;
	struct lft_set *s;
	int *sw;		/* the switches, by level from the top */
	int nsw;
	int *extra, nextra;	/* switches without a level (no link down) */
	int **dist, **queue;	/* per thread, per node */
	uint8_t **anc;		/* per thread: x's ancestors (or x) */
	int failed;
};

static int is_sw(const struct sw_job *j, int n)
{
	return n >= 0 && j->f->nodes[n].type == FAB_SWITCH && j->level[n] > 0;
}

/* Plain BFS distances from x over switch links. */
static void bfs(const struct sw_job *j, int x, int *dist, int *queue)
{
	const struct fabric *f = j->f;
	int head = 0, tail = 0, n, p;

	for (n = 0; n < f->nnodes; n++)
		dist[n] = INF;
	dist[x] = 0;
	queue[tail++] = x;
	while (head < tail) {
		n = queue[head++];
		for (p = 1; p <= f->nodes[n].nports; p++) {
			int r = f->nodes[n].ports[p].rnode;

			if (is_sw(j, r) && dist[r] == INF) {
				dist[r] = dist[n] + 1;
				queue[tail++] = r;
			}
		}
	}
}

static void one_switch(void *arg, long i, int tid)
{
	struct sw_job *j = arg;
	const struct fabric *f = j->f;
	int x = j->sw[i], *dist = j->dist[tid], *queue = j->queue[tid];
	uint8_t *anc = j->anc[tid];
	unsigned lid = f->nodes[x].ports[0].lid;
	int head = 0, tail = 0, k, n, p, any = 0;

	if (!lid)
		return;
	/* x's ancestors reach it going down: BFS upwards from x */
	for (n = 0; n < f->nnodes; n++)
		dist[n] = INF;
	dist[x] = 0;
	queue[tail++] = x;
	while (head < tail) {
		n = queue[head++];
		for (p = 1; p <= f->nodes[n].nports; p++) {
			int r = f->nodes[n].ports[p].rnode;

			if (is_sw(j, r) && j->level[r] == j->level[n] + 1 &&
			    dist[r] == INF) {
				dist[r] = dist[n] + 1;
				queue[tail++] = r;
			}
		}
	}
	for (n = 0; n < f->nnodes; n++)
		anc[n] = dist[n] != INF;
	/* the others go up first: parents before children */
	for (k = 0; k < j->nsw; k++) {
		int best = INF;

		n = j->sw[k];
		if (dist[n] != INF)
			continue;
		for (p = 1; p <= f->nodes[n].nports; p++) {
			int r = f->nodes[n].ports[p].rnode;

			if (is_sw(j, r) && j->level[r] == j->level[n] + 1 &&
			    dist[r] + 1 < best)
				best = dist[r] + 1;
		}
		dist[n] = best;
	}
	for (k = 0; k < j->nsw; k++) {
		struct lft *t;
		int want;

		n = j->sw[k];
		t = lft_of_node(j->s, n);
		if (!t || lid > t->top)
			continue;
		if (n == x) {
			t->port[lid] = 0;
			continue;
		}
		if (dist[n] == INF) {
			any = 1;
			continue;
		}
		want = dist[n] - 1;
		for (p = 1; p <= f->nodes[n].nports; p++) {
			int r = f->nodes[n].ports[p].rnode;

			if (!is_sw(j, r) || dist[r] != want)
				continue;
			/* down along x's ancestors, or up towards them */
			if (anc[n] ? anc[r] && j->level[r] == j->level[n] - 1 :
				     j->level[r] == j->level[n] + 1) {
				t->port[lid] = (uint8_t)p;
				break;
			}
		}
	}
	if (!any)
		return;
	bfs(j, x, dist, queue);
	for (k = 0; k < j->nsw; k++) {
		struct lft *t;

		n = j->sw[k];
		t = lft_of_node(j->s, n);
		if (!t || lid > t->top || n == x || t->port[lid] != LFT_NONE ||
		    dist[n] == INF)
			continue;
		for (p = 1; p <= f->nodes[n].nports; p++) {
			int r = f->nodes[n].ports[p].rnode;

			if (is_sw(j, r) && dist[r] == dist[n] - 1) {
				t->port[lid] = (uint8_t)p;
				break;
			}
		}
	}
}


/* A switch without a level: shortest paths of any kind towards it. */
static void one_extra(void *arg, long i, int tid)
{
	struct sw_job *j = arg;
	const struct fabric *f = j->f;
	int x = j->extra[i], *dist = j->dist[tid], k, p;
	unsigned lid = f->nodes[x].ports[0].lid;
	struct lft *own = lft_of_node(j->s, x);

	if (own && lid <= own->top)
		own->port[lid] = 0;
	bfs(j, x, dist, j->queue[tid]);
	for (k = 0; k < j->nsw; k++) {
		int n = j->sw[k];
		struct lft *t = lft_of_node(j->s, n);

		if (!t || lid > t->top || dist[n] == INF)
			continue;
		for (p = 1; p <= f->nodes[n].nports; p++) {
			int r = f->nodes[n].ports[p].rnode;

			if (r >= 0 && (r == x ? dist[n] == 1 :
				       is_sw(j, r) && dist[r] == dist[n] - 1)) {
				t->port[lid] = (uint8_t)p;
				break;
			}
		}
	}
}

int swroutes_updown(const struct fabric *f, const int *level,
		    struct lft_set *s, int threads, struct osmre_err *err)
{
	struct sw_job j = { .f = f, .level = level, .s = s };
	int n, t, top, rc = 0;

	if (threads <= 0)
		threads = parallel_default_threads();
	j.sw = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	j.extra = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	j.dist = calloc((size_t)threads, sizeof(int *));
	j.queue = calloc((size_t)threads, sizeof(int *));
	j.anc = calloc((size_t)threads, sizeof(uint8_t *));
	for (t = 0; j.dist && j.queue && j.anc && t < threads; t++)
		if (!(j.dist[t] = malloc(((size_t)f->nnodes + 1) * sizeof(int))) ||
		    !(j.queue[t] = malloc(((size_t)f->nnodes + 1) * sizeof(int))) ||
		    !(j.anc[t] = malloc((size_t)f->nnodes + 1)))
			break;
	if (!j.sw || !j.extra || !j.dist || !j.queue || !j.anc || t < threads) {
		rc = osmre_fail(err, "out of memory");
		goto out;
	}
	/* by level, from the top */
	for (n = 0, top = 0; n < f->nnodes; n++)
		if (is_sw(&j, n) && level[n] > top)
			top = level[n];
	for (t = top; t >= 1; t--)
		for (n = 0; n < f->nnodes; n++)
			if (is_sw(&j, n) && level[n] == t)
				j.sw[j.nsw++] = n;
	for (n = 0; n < f->nnodes; n++)
		if (f->nodes[n].type == FAB_SWITCH && !f->nodes[n].removed &&
		    level[n] <= 0 && f->nodes[n].ports[0].lid)
			j.extra[j.nextra++] = n;
	parallel_for(threads, j.nsw, one_switch, &j);
	parallel_for(threads, j.nextra, one_extra, &j);
out:
	for (t = 0; j.dist && t < threads; t++)
		free(j.dist[t]);
	for (t = 0; j.queue && t < threads; t++)
		free(j.queue[t]);
	for (t = 0; j.anc && t < threads; t++)
		free(j.anc[t]);
	free(j.dist);
	free(j.queue);
	free(j.anc);
	free(j.sw);
	free(j.extra);
	return rc;
}
