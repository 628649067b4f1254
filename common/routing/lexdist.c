/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdlib.h>
#include <string.h>

#include "lexdist.h"

int lexheap_init(struct lexheap *h, const struct lexgraph *g, int nlink)
{
	memset(h, 0, sizeof(*h));
	h->cap = nlink + g->nsw + 1;
	h->v = malloc((size_t)h->cap * sizeof(int));
	h->k = malloc((size_t)h->cap * sizeof(int));
	h->done = malloc((size_t)g->nsw + 1);
	return h->v && h->k && h->done ? 0 : -1;
}

void lexheap_free(struct lexheap *h)
{
	free(h->v);
	free(h->k);
	free(h->done);
	memset(h, 0, sizeof(*h));
}

static void push(struct lexheap *h, int v, int k)
{
	int i = h->n++;

	while (i > 0 && h->k[(i - 1) / 2] > k) {
		h->v[i] = h->v[(i - 1) / 2];
		h->k[i] = h->k[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = v;
	h->k[i] = k;
}

static void pop(struct lexheap *h, int *v, int *k)
{
	int i = 0, lv, lk;

	*v = h->v[0];
	*k = h->k[0];
	lv = h->v[--h->n];
	lk = h->k[h->n];
	for (;;) {
		int c = 2 * i + 1;

		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->k[c + 1] < h->k[c])
			c++;
		if (h->k[c] >= lk)
			break;
		h->v[i] = h->v[c];
		h->k[i] = h->k[c];
		i = c;
	}
	h->v[i] = lv;
	h->k[i] = lk;
}

int lexdist_to(const struct lexgraph *g, struct lexheap *h, int t, int *key,
	       int *order)
{
	int k, e, n = 0, head = 0;

	for (k = 0; k < g->nsw; k++)
		key[k] = -1;
	key[t] = 0;
	if (!g->w) { /* breadth-first */
		order[n++] = t;
		while (head < n) {
			int v = order[head++];

			for (e = g->in_first[v]; e < g->in_first[v + 1]; e++) {
				int u = g->from[g->in[e]];

				if (key[u] < 0) {
					key[u] = key[v] + 1;
					order[n++] = u;
				}
			}
		}
		return n;
	}
	memset(h->done, 0, (size_t)g->nsw);
	h->n = 0;
	push(h, t, 0);
	while (h->n) {
		int v, kv;

		pop(h, &v, &kv);
		if (h->done[v] || kv != key[v])
			continue;
		h->done[v] = 1;
		order[n++] = v;
		for (e = g->in_first[v]; e < g->in_first[v + 1]; e++) {
			int l = g->in[e], u = g->from[l];
			int nk = kv + g->w[l];

			if (!h->done[u] && (key[u] < 0 || nk < key[u]) &&
			    h->n < h->cap) {
				key[u] = nk;
				push(h, u, nk);
			}
		}
	}
	return n;
}

int lexdist_group_weights(const int *group, int ngroups, int nsw,
			  const int *node, int nlink, const int *from,
			  const int *to, int **w)
{
	int l;

	*w = NULL;
	if (nsw > 40000 || ngroups <= 1 || ngroups >= nsw)
		return 0;
	*w = malloc(((size_t)nlink + 1) * sizeof(int));
	if (!*w)
		return -1;
	for (l = 0; l < nlink; l++)
		(*w)[l] = group[node[from[l]]] != group[node[to[l]]] ? nsw + 1 :
								       nsw;
	return 0;
}

int lexdist_swgraph(const struct swgraph *sg, int **w, struct lexgraph *lg,
		    struct lexheap *heap)
{
	if (lexdist_group_weights(sg->group, sg->ngroups, sg->nsw, sg->node,
				  sg->nlink, sg->lfrom, sg->lto, w))
		return -1;
	*lg = (struct lexgraph){ sg->nsw, sg->in_first, sg->in, sg->lfrom, *w };
	return lexheap_init(heap, lg, sg->nlink);
}
