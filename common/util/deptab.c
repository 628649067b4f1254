/* SPDX-License-Identifier: BSD-2-Clause */
/* A set of channel dependencies with counts (deptab.h). */
#include "deptab.h"

#include <stdlib.h>
#include <string.h>

static int alloc_slots(struct deptab *t, size_t cap)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	t->cap = cap;
	t->key = malloc(cap * sizeof(*t->key));
	t->count = calloc(cap, sizeof(int));
	t->id = malloc(cap * sizeof(int));
	if (!t->key || !t->count || !t->id) {
		deptab_free(t);
		return -1;
	}
	for (i = 0; i < cap; i++)
		t->key[i] = DEPTAB_EMPTY;
	return 0;
}

/* Twice the slots, the keys, counts and ids moved. */
static int grow(struct deptab *t)
{
	struct deptab g;
	size_t i;

	if (alloc_slots(&g, t->cap * 2))
		return -1;
	for (i = 0; i < t->cap; i++)
		if (t->key[i] != DEPTAB_EMPTY) {
			size_t j = deptab_slot(&g, t->key[i]);

			g.key[j] = t->key[i];
			g.count[j] = t->count[i];
			g.id[j] = t->id[i];
		}
	g.n = t->n;
	deptab_free(t);
	*t = g;
	return 0;
}

int deptab_init(struct deptab *t, size_t want)
{
	size_t cap;

	for (cap = 1024; cap < want * 2; cap *= 2)
		;
	return alloc_slots(t, cap);
}

long deptab_add(struct deptab *t, uint64_t k, size_t i)
{
	if ((t->n + 1) * 4 > t->cap * 3) {
		if (grow(t))
			return -2;
		i = deptab_slot(t, k);
	}
	t->key[i] = k;
	t->id[i] = (int)t->n++;
	return (long)i;
}

void deptab_free(struct deptab *t)
{
	free(t->key);
	free(t->count);
	free(t->id);
	memset(t, 0, sizeof(*t));
}
