/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A set of channel dependencies (c1, c2) with a count each, for sar's
 * layering (sar_layers.c): open addressing on the key c1 << 32 | c2, the
 * slots a power of two, grown to twice as many past 3/4 full so that a
 * search always ends however many dependencies a fabric has.  A slot's
 * place depends on the number of slots, so a caller that walks the slots
 * in order sees another order after a growth; a key's id (0, 1, ... in
 * the order of insertion) stays, for what the caller keeps per key.
 */
#ifndef OSMRE_DEPTAB_H
#define OSMRE_DEPTAB_H

#include <stddef.h>
#include <stdint.h>

#define DEPTAB_EMPTY UINT64_MAX

struct deptab {
	size_t cap, n; /* slots, keys in them */
	uint64_t *key; /* per slot; DEPTAB_EMPTY: none */
	int *count;    /* per slot; the caller's to change */
	int *id;       /* per slot: its key's id */
};

/* An empty set of at least 2 * want slots (1,024 at least); -1 when out
 * of memory (t is then freed). */
int deptab_init(struct deptab *t, size_t want);

/* Where k is, or the empty slot where it would go (inline: the
 * layering looks up every dependency of every path). */
static inline size_t deptab_slot(const struct deptab *t, uint64_t k)
{
	size_t i = (size_t)((k * 0x9e3779b97f4a7c15ULL) >> 20) & (t->cap - 1);

	while (t->key[i] != DEPTAB_EMPTY && t->key[i] != k)
		i = (i + 1) & (t->cap - 1);
	return i;
}

/* k put in empty slot i, the set grown first past 3/4 full: k's slot,
 * -2 when out of memory (deptab_find's insertion). */
long deptab_add(struct deptab *t, uint64_t k, size_t i);

/* Key k's slot; with insert a new one is made for it (count 0, -2 when
 * out of memory), without, -1 when k is not there.  An insertion may
 * grow the set: slots found before it are then stale. */
static inline long deptab_find(struct deptab *t, uint64_t k, int insert)
{
	size_t i = deptab_slot(t, k);

	if (t->key[i] != DEPTAB_EMPTY)
		return (long)i;
	return insert ? deptab_add(t, k, i) : -1;
}

/* Frees the slots; t can be initialized again. */
void deptab_free(struct deptab *t);

#endif
