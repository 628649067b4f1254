/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The committed pass on disk (staging.h, staging_save/staging_load), so
 * that a restarted SM knows what the switches hold.  Binary, host byte
 * order (the file never leaves the SM's machine):
 *
 *   "OSMRE-COMMITTED\n" magic, u32 version (1)
 *   u64 topology signature, u32 tables, u32 fabric nodes
 *   per table: u64 switch GUID, s32 node, u32 top, top + 1 port bytes
 *   u32 layers kept (0/1); when 1: s32 layers, s32 CA sources, u32
 *   maxlid, u32 has layer array, then the source of each LID (maxlid + 1
 *   s32) and, when present, the layer array (sources * (maxlid + 1) bytes)
 *   u64 FNV-1a of everything before it
 *
 * Every count is bounded by the file's size before anything is allocated,
 * and nothing is taken unless the whole file reads back with its sum.
 */
#include <stdlib.h>
#include <string.h>

#include "staging.h"

#define MAGIC	     "OSMRE-COMMITTED\n"
#define FILE_VERSION 1u

struct sink {
	FILE *fp;
	uint64_t sum;
	int bad;
};

static void fnv(uint64_t *h, const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n--)
		*h = (*h ^ *b++) * 0x100000001b3ull;
}

static void put(struct sink *k, const void *p, size_t n)
{
	fnv(&k->sum, p, n);
	if (n && fwrite(p, 1, n, k->fp) != n)
		k->bad = 1;
}

static void put32(struct sink *k, uint32_t v)
{
	put(k, &v, sizeof(v));
}

int staging_save(struct staging *st, FILE *fp, struct osmre_err *err)
{
	struct sink k = { fp, 0xcbf29ce484222325ull, 0 };
	const struct staging_pass *c = &st->cur;
	const struct route_layers *l;
	int i;

	pthread_mutex_lock(&st->lock);
	if (!st->have_cur) {
		pthread_mutex_unlock(&st->lock);
		return osmre_fail(err, "no committed tables");
	}
	l = &c->layers;
	put(&k, MAGIC, strlen(MAGIC));
	put32(&k, FILE_VERSION);
	put(&k, &st->cur_sig, sizeof(st->cur_sig));
	put32(&k, (uint32_t)c->tables.n);
	put32(&k, (uint32_t)c->tables.nnodes);
	for (i = 0; i < c->tables.n; i++) {
		const struct lft *t = &c->tables.t[i];

		put(&k, &t->guid, sizeof(t->guid));
		put32(&k, (uint32_t)t->node);
		put32(&k, t->top);
		put(&k, t->port, (size_t)t->top + 1);
	}
	put32(&k, l->have && l->src_of_lid ? 1u : 0u);
	if (l->have && l->src_of_lid) {
		put32(&k, (uint32_t)l->layers);
		put32(&k, (uint32_t)l->nsrc);
		put32(&k, l->maxlid);
		put32(&k, l->layer ? 1u : 0u);
		put(&k, l->src_of_lid,
		    ((size_t)l->maxlid + 1) * sizeof(*l->src_of_lid));
		if (l->layer)
			put(&k, l->layer, (size_t)l->nsrc * (l->maxlid + 1));
	}
	pthread_mutex_unlock(&st->lock);
	if (fwrite(&k.sum, sizeof(k.sum), 1, fp) != 1 || k.bad)
		return osmre_fail(err, "cannot write the committed tables");
	return 0;
}

struct source {
	FILE *fp;
	uint64_t sum;
	long left; /* bytes the file may still hold */
};

/* n bytes into p: 0, or -1 (short, or beyond the size). */
static int get(struct source *s, void *p, size_t n)
{
	if ((long)n > s->left || (n && fread(p, 1, n, s->fp) != n))
		return -1;
	s->left -= (long)n;
	fnv(&s->sum, p, n);
	return 0;
}

static int get32(struct source *s, uint32_t *v)
{
	return get(s, v, sizeof(*v));
}

/* The tables part into t: 0, or -1. */
static int load_tables(struct source *s, struct lft_set *t)
{
	uint32_t n, nnodes, node, top;
	int i;

	if (get32(s, &n) || get32(s, &nnodes) || n > nnodes ||
	    nnodes > (uint32_t)s->left || n > (uint32_t)s->left / 16)
		return -1;
	t->t = calloc(n ? n : 1, sizeof(*t->t));
	t->by_node = malloc((nnodes ? nnodes : 1) * sizeof(*t->by_node));
	if (!t->t || !t->by_node)
		return -1;
	t->nnodes = (int)nnodes;
	for (i = 0; i < (int)nnodes; i++)
		t->by_node[i] = -1;
	for (i = 0; i < (int)n; i++) {
		struct lft *l = &t->t[i];

		if (get(s, &l->guid, sizeof(l->guid)) || get32(s, &node) ||
		    get32(s, &top) || node >= nnodes || t->by_node[node] >= 0 ||
		    top > 0xFFFF || (long)top + 1 > s->left)
			return -1;
		l->node = (int)node;
		l->top = top;
		t->n = i + 1;
		l->port = malloc((size_t)top + 1);
		if (!l->port || get(s, l->port, (size_t)top + 1))
			return -1;
		t->by_node[node] = i;
	}
	return 0;
}

/* The layers part into l: 0, or -1. */
static int load_layers(struct source *s, struct route_layers *l)
{
	uint32_t have, layers, ncas, maxlid, array, i;

	if (get32(s, &have) || have > 1)
		return -1;
	if (!have)
		return 0;
	if (get32(s, &layers) || get32(s, &ncas) || get32(s, &maxlid) ||
	    get32(s, &array) || layers < 1 || layers > 16 || maxlid > 0xFFFF ||
	    array > 1 || ncas > (uint32_t)s->left)
		return -1;
	l->have = 1;
	l->layers = (int)layers;
	l->nsrc = (int)ncas;
	l->maxlid = maxlid;
	l->src_of_lid = malloc(((size_t)maxlid + 1) * sizeof(*l->src_of_lid));
	if (!l->src_of_lid ||
	    get(s, l->src_of_lid, ((size_t)maxlid + 1) * sizeof(int)))
		return -1;
	for (i = 0; i <= maxlid; i++)
		if (l->src_of_lid[i] < -1 || l->src_of_lid[i] >= (int)ncas)
			return -1;
	if (!array)
		return 0;
	if ((long)((size_t)ncas * (maxlid + 1)) > s->left)
		return -1;
	l->layer = malloc((size_t)ncas * (maxlid + 1) + 1);
	if (!l->layer || get(s, l->layer, (size_t)ncas * (maxlid + 1)))
		return -1;
	for (i = 0; i < ncas * (maxlid + 1); i++)
		if (l->layer[i] >= layers)
			return -1;
	return 0;
}

int staging_load(struct staging *st, FILE *fp, long size, struct osmre_err *err)
{
	struct source s = { fp, 0xcbf29ce484222325ull, size };
	struct staging_pass p = { 0 };
	char magic[sizeof(MAGIC)] = { 0 };
	uint64_t sig, want;
	uint32_t version;

	if (get(&s, magic, strlen(MAGIC)) ||
	    memcmp(magic, MAGIC, strlen(MAGIC)))
		return osmre_fail(err, "not a file of committed tables");
	if (get32(&s, &version) || version != FILE_VERSION)
		return osmre_fail(err, "version %u, not %u", version,
				  FILE_VERSION);
	if (get(&s, &sig, sizeof(sig)) || load_tables(&s, &p.tables) ||
	    load_layers(&s, &p.layers)) {
		staging_pass_free(&p);
		return osmre_fail(err, "truncated or damaged");
	}
	/* the sum, and nothing after it */
	if (s.left != (long)sizeof(want) ||
	    fread(&want, sizeof(want), 1, fp) != 1 || want != s.sum) {
		staging_pass_free(&p);
		return osmre_fail(err, "damaged (checksum)");
	}
	staging_restore(st, sig, &p);
	return 0;
}
