/* SPDX-License-Identifier: BSD-2-Clause */
/* What sar remembers of its last pass (sar_memo.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "parallel.h"
#include "sar_memo.h"

struct sar_memo {
	uint64_t key; /* of the digests, kept across clears */
	int valid;
	int all_ud;
	uint64_t weights;
	int nsw, nlink, nchan;
	uint64_t *guid;	  /* per switch */
	int *nports;	  /* per switch */
	int *chan_first;  /* per switch, + 1 */
	int *link_of;	  /* per channel */
	struct swlink *l; /* per link */
	uint8_t *up;	  /* per link; NULL: none */
	uint64_t *load;	  /* per link */
	uint64_t *table;  /* per switch: its table's digest */
};

struct sar_memo *sar_memo_new(void)
{
	struct sar_memo *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	/* a short read leaves the key less random, never wrong */
	if (getrandom(&m->key, sizeof(m->key), 0) != sizeof(m->key))
		m->key ^= (uint64_t)(uintptr_t)m ^ (uint64_t)time(NULL);
	m->key ^= SAR_MEMO_HASH0;
	return m;
}

uint64_t sar_memo_key(const struct sar_memo *m)
{
	return m ? m->key : SAR_MEMO_HASH0;
}

void sar_memo_clear(struct sar_memo *m)
{
	uint64_t key;

	if (!m)
		return;
	key = m->key;
	free(m->guid);
	free(m->nports);
	free(m->chan_first);
	free(m->link_of);
	free(m->l);
	free(m->up);
	free(m->load);
	free(m->table);
	memset(m, 0, sizeof(*m));
	m->key = key;
}

void sar_memo_free(struct sar_memo *m)
{
	sar_memo_clear(m);
	free(m);
}

int sar_memo_valid(const struct sar_memo *m)
{
	return m && m->valid;
}

uint64_t sar_memo_hash(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t w;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, b + i, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	for (; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h ^ n;
}

struct digest_job {
	uint64_t key;
	const struct sar_links *g;
	const struct lft_set *s;
	uint64_t *out;
};

/* Switch k's table digest (a switch without a table: 0). */
static void digest_switch(void *arg, long k, int tid)
{
	struct digest_job *j = arg;
	const struct lft *t = lft_of_node(j->s, j->g->node[k]);

	(void)tid;
	j->out[k] = t ? sar_memo_hash(j->key + t->top, t->port,
				      (size_t)t->top + 1) :
			0;
}

/* Every switch's table digest into out (nsw entries). */
static void digests(uint64_t key, const struct sar_links *g,
		    const struct lft_set *s, int threads, uint64_t *out)
{
	struct digest_job j = { key, g, s, out };

	parallel_for(threads > 0 ? threads : parallel_default_threads(), g->nsw,
		     digest_switch, &j);
}

int sar_memo_save(struct sar_memo *m, const struct sar_links *g,
		  const uint64_t *load, uint64_t weights,
		  const struct lft_set *s, int all_ud, int threads)
{
	size_t nsw = (size_t)g->nsw + 1, nl = (size_t)g->nlink + 1;
	size_t nch = (size_t)g->nchan + 1;

	sar_memo_clear(m);
	if (g->nsw <= 0)
		return 0;
	m->guid = malloc(nsw * sizeof(*m->guid));
	m->nports = malloc(nsw * sizeof(int));
	m->chan_first = malloc(nsw * sizeof(int));
	m->link_of = malloc(nch * sizeof(int));
	m->l = malloc(nl * sizeof(*m->l));
	m->up = g->up ? malloc(nl) : NULL;
	m->load = malloc(nl * sizeof(*m->load));
	m->table = malloc(nsw * sizeof(*m->table));
	if (!m->guid || !m->nports || !m->chan_first || !m->link_of || !m->l ||
	    (g->up && !m->up) || !m->load || !m->table) {
		sar_memo_clear(m);
		return -1;
	}
	m->nsw = g->nsw;
	m->nlink = g->nlink;
	m->nchan = g->nchan;
	memcpy(m->guid, g->guid, (size_t)g->nsw * sizeof(*m->guid));
	memcpy(m->nports, g->nports, (size_t)g->nsw * sizeof(int));
	memcpy(m->chan_first, g->chan_first, (size_t)g->nsw * sizeof(int));
	memcpy(m->link_of, g->link_of, (nch - 1) * sizeof(int));
	memcpy(m->l, g->l, (size_t)g->nlink * sizeof(*m->l));
	if (g->up)
		memcpy(m->up, g->up, (size_t)g->nlink);
	memcpy(m->load, load, (size_t)g->nlink * sizeof(*m->load));
	digests(m->key, g, s, threads, m->table);
	m->weights = weights;
	m->all_ud = all_ud;
	m->valid = 1;
	return 0;
}

/* 1 when g has m's switches, in order, with the same ports. */
static int same_switches(const struct sar_memo *m, const struct sar_links *g)
{
	int k;

	if (g->nsw != m->nsw || g->nchan != m->nchan)
		return 0;
	for (k = 0; k < g->nsw; k++)
		if (g->guid[k] != m->guid[k] || g->nports[k] != m->nports[k] ||
		    g->chan_first[k] != m->chan_first[k])
			return 0;
	return 1;
}

int sar_memo_match(const struct sar_memo *m, const struct sar_links *g,
		   uint64_t weights, const struct lft_set *prev, int threads,
		   int *mlink, struct swlink **lost, int *nlost, int *all_ud)
{
	uint64_t *dig = NULL;
	int e, n = 0, ok = 0;

	*lost = NULL;
	*nlost = 0;
	if (!sar_memo_valid(m) || m->weights != weights ||
	    !same_switches(m, g) || !!g->up != !!m->up)
		return 0;
	/* every link of g one of the memo's, the same ends and direction */
	for (e = 0; e < g->nlink; e++) {
		const struct swlink *a = &g->l[e];
		int me = m->link_of[m->chan_first[a->from] + a->port];

		if (me < 0 || m->l[me].to != a->to ||
		    (g->up && g->up[e] != m->up[me]))
			return 0;
		mlink[e] = me;
	}
	/* the tables in force: the memo's pass's own */
	dig = malloc(((size_t)g->nsw + 1) * sizeof(*dig));
	if (!dig)
		return -1;
	digests(m->key, g, prev, threads, dig);
	if (memcmp(dig, m->table, (size_t)g->nsw * sizeof(*dig)))
		goto out;
	/* the memo's links gone: g has nothing at their channel */
	*lost = malloc(((size_t)(m->nlink - g->nlink) + 1) * sizeof(**lost));
	if (!*lost) {
		ok = -1;
		goto out;
	}
	for (e = 0; e < m->nlink; e++) {
		const struct swlink *a = &m->l[e];

		if (g->link_of[g->chan_first[a->from] + a->port] >= 0)
			continue;
		if (n == m->nlink - g->nlink) { /* cannot be: counted */
			n = -1;
			break;
		}
		(*lost)[n++] = *a;
	}
	if (n != m->nlink - g->nlink) {
		free(*lost);
		*lost = NULL;
		goto out;
	}
	*nlost = n;
	*all_ud = m->all_ud;
	ok = 1;
out:
	free(dig);
	return ok;
}

const uint64_t *sar_memo_loads(const struct sar_memo *m)
{
	return m->load;
}
