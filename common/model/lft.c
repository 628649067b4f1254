/* SPDX-License-Identifier: BSD-2-Clause */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lft.h"

int lft_set_for_fabric(const struct fabric *f, unsigned top, struct lft_set *s,
		       struct osmre_err *err)
{
	int i, n = 0;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < f->nnodes; i++)
		n += f->nodes[i].type == FAB_SWITCH && !f->nodes[i].removed;
	s->t = calloc(n ? (size_t)n : 1, sizeof(*s->t));
	s->by_node = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	if (!s->t || !s->by_node)
		goto oom;
	s->nnodes = f->nnodes;
	for (i = 0; i < f->nnodes; i++) {
		const struct fab_node *nd = &f->nodes[i];
		struct lft *t;

		s->by_node[i] = -1;
		if (nd->type != FAB_SWITCH || nd->removed)
			continue;
		t = &s->t[s->n];
		t->node = i;
		t->guid = nd->guid;
		t->line = 0;
		t->file = NULL;
		t->top = top;
		t->port = malloc((size_t)top + 1);
		if (!t->port)
			goto oom;
		memset(t->port, LFT_NONE, (size_t)top + 1);
		s->by_node[i] = s->n++;
	}
	return 0;
oom:
	lft_set_free(s);
	return osmre_fail(err, "out of memory for forwarding tables");
}

void lft_set_free(struct lft_set *s)
{
	int i;

	for (i = 0; i < s->n; i++)
		free(s->t[i].port);
	free(s->t);
	free(s->by_node);
	free(s->lid_guid);
	memset(s, 0, sizeof(*s));
}

int lft_set_equal(const struct lft_set *a, const struct lft_set *b, char *diff,
		  size_t diffsz)
{
	int i;

	for (i = 0; i < a->n; i++) {
		const struct lft *ta = &a->t[i], *tb = NULL;
		unsigned lid, top;
		int j;

		for (j = 0; j < b->n && !tb; j++)
			if (b->t[(i + j) % b->n].guid == ta->guid)
				tb = &b->t[(i + j) % b->n];
		if (!tb) {
			snprintf(diff, diffsz,
				 "switch 0x%016" PRIx64 " missing", ta->guid);
			return 0;
		}
		top = ta->top > tb->top ? ta->top : tb->top;
		for (lid = 0; lid <= top; lid++)
			if (lft_get(ta, lid) != lft_get(tb, lid)) {
				snprintf(diff, diffsz,
					 "switch 0x%016" PRIx64
					 " LID %u: port %d vs %d",
					 ta->guid, lid, lft_get(ta, lid),
					 lft_get(tb, lid));
				return 0;
			}
	}
	if (a->n != b->n) {
		snprintf(diff, diffsz, "%d vs %d switches", a->n, b->n);
		return 0;
	}
	return 1;
}

/* 1 when block blk (LIDs up to top) differs between x and y (NULL: no
 * route at all). */
static int block_differs(const struct lft *x, const struct lft *y, unsigned top,
			 unsigned blk)
{
	unsigned lid;

	for (lid = blk * 64; lid < blk * 64 + 64 && lid <= top; lid++)
		if (lft_get(x, lid) != (y ? lft_get(y, lid) : LFT_NONE))
			return 1;
	return 0;
}

long lft_set_blocks_changed(const struct lft_set *a, const struct lft_set *b,
			    struct lft_block **list)
{
	long n = 0, k = 0;
	int i, pass;
	unsigned blk;

	for (pass = 0; pass < (list ? 2 : 1); pass++) {
		for (i = 0; i < a->n; i++) {
			const struct lft *y = lft_of_node(b, a->t[i].node);
			unsigned top = y && y->top > a->t[i].top ? y->top :
								   a->t[i].top;

			if (!pass) {
				n += lft_blocks_changed(&a->t[i], y);
				continue;
			}
			for (blk = 0; blk <= top / 64; blk++)
				if (block_differs(&a->t[i], y, top, blk))
					(*list)[k++] =
						(struct lft_block){ i, blk };
		}
		if (!pass && list) {
			*list = n ? malloc((size_t)n * sizeof(**list)) : NULL;
			if (n && !*list)
				return -1;
		}
	}
	return n;
}

long lft_blocks_changed(const struct lft *x, const struct lft *y)
{
	unsigned top = y && y->top > x->top ? y->top : x->top, blk;
	long n = 0;

	for (blk = 0; blk <= top / 64; blk++)
		n += block_differs(x, y, top, blk);
	return n;
}

long lft_entries_changed(const struct lft *x, const struct lft *y)
{
	unsigned top = y && y->top > x->top ? y->top : x->top, lid = 0;
	unsigned both = y && y->top < x->top ? y->top : x->top;
	long n = 0;

	/* the LIDs both have, 8 at a time where they are equal */
	if (y)
		for (; lid + 8 <= both + 1; lid += 8) {
			uint64_t a, b;
			unsigned k;

			memcpy(&a, x->port + lid, 8);
			memcpy(&b, y->port + lid, 8);
			for (k = 0; a != b && k < 8; k++)
				n += x->port[lid + k] != y->port[lid + k];
		}
	for (; lid <= top; lid++)
		n += lft_get(x, lid) != (y ? lft_get(y, lid) : LFT_NONE);
	return n;
}

long lft_set_entries_changed(const struct lft_set *a, const struct lft_set *b)
{
	long n = 0;
	int i;

	for (i = 0; i < a->n; i++)
		n += lft_entries_changed(&a->t[i],
					 lft_of_node(b, a->t[i].node));
	return n;
}

int lft_set_clone(const struct lft_set *src, struct lft_set *dst,
		  struct osmre_err *err)
{
	int i;

	memset(dst, 0, sizeof(*dst));
	dst->t = calloc(src->n ? (size_t)src->n : 1, sizeof(*dst->t));
	dst->by_node = malloc(((size_t)src->nnodes + 1) * sizeof(int));
	if (!dst->t || !dst->by_node)
		goto oom;
	dst->nnodes = src->nnodes;
	if (src->by_node)
		memcpy(dst->by_node, src->by_node,
		       (size_t)src->nnodes * sizeof(int));
	for (i = 0; i < src->n; i++) {
		dst->t[i] = src->t[i];
		dst->t[i].port = malloc((size_t)src->t[i].top + 1);
		if (!dst->t[i].port)
			goto oom;
		dst->n = i + 1;
		memcpy(dst->t[i].port, src->t[i].port,
		       (size_t)src->t[i].top + 1);
	}
	return 0;
oom:
	lft_set_free(dst);
	return osmre_fail(err, "out of memory");
}

void lft_set_copy_entries(struct lft_set *s, const struct lft_set *s0)
{
	int i;

	for (i = 0; i < s->n; i++) {
		const struct lft *t0 = lft_of_node(s0, s->t[i].node);

		if (t0)
			memcpy(s->t[i].port, t0->port,
			       (t0->top < s->t[i].top ? t0->top : s->t[i].top) +
				       1);
	}
}

int lft_set_any_route(const struct lft_set *s)
{
	unsigned lid;
	int i;

	for (i = 0; i < s->n; i++)
		for (lid = 1; lid <= s->t[i].top; lid++)
			if (s->t[i].port[lid] != LFT_NONE)
				return 1;
	return 0;
}
