// SPDX-License-Identifier: BSD-2-Clause
/* Whether LFTs deliver on a fabric, per (switch, LID): lft_reach.h. */
#include <stdlib.h>

#include "lft_reach.h"

enum { UNSEEN = 0, ON_PATH, GOOD, BAD };

struct dest {
	int node, port; /* the switch (port 0) or the CA port */
};

/* One step from switch x towards d's LID lid: the next switch, or -1
 * (delivered: *good 1; a dead end: *good 0). */
static int step(const struct fabric *f, const struct lft_set *s, int x,
		unsigned lid, const struct dest *d, int *good)
{
	const struct fab_node *n = &f->nodes[x];
	const struct lft *t = lft_of_node(s, x);
	int p = t ? lft_get(t, lid) : LFT_NONE, r;

	*good = 0;
	if (p == 0) {
		*good = x == d->node && d->port == 0;
		return -1;
	}
	if (p == LFT_NONE || p > n->nports || n->ports[p].rnode < 0)
		return -1;
	r = n->ports[p].rnode;
	if (!fab_is_switch(&f->nodes[r])) {
		*good = r == d->node && n->ports[p].rport == d->port;
		return -1;
	}
	return r;
}

struct walk {
	unsigned char *st; /* per node */
	int *path;	   /* the switches of the walk under way */
	int *sw, nsw;	   /* the switches to start from */
};

/* Every switch's route to lid settled in w->st (reset to UNSEEN first);
 * the number that fail. */
static long settle(const struct fabric *f, const struct lft_set *s,
		   unsigned lid, const struct dest *d, struct walk *w)
{
	unsigned char *st = w->st;
	int *path = w->path;
	long bad = 0;
	int i, x, k, n, good, res;

	for (i = 0; i < w->nsw; i++)
		st[w->sw[i]] = UNSEEN;
	for (i = 0; i < w->nsw; i++) {
		if (st[w->sw[i]] != UNSEEN)
			continue;
		n = 0;
		x = w->sw[i];
		for (;;) {
			if (st[x] == GOOD || st[x] == BAD) {
				res = st[x];
				break;
			}
			if (st[x] == ON_PATH) { /* a loop */
				res = BAD;
				break;
			}
			st[x] = ON_PATH;
			path[n++] = x;
			x = step(f, s, x, lid, d, &good);
			if (x < 0) {
				res = good ? GOOD : BAD;
				break;
			}
		}
		for (k = 0; k < n; k++)
			st[path[k]] = (unsigned char)res;
		if (res == BAD)
			bad += n;
	}
	return bad;
}

long lft_set_undelivered(const struct fabric *f, const struct lft_set *s,
			 struct osmre_err *err)
{
	size_t nn = f->nnodes ? (size_t)f->nnodes : 1;
	struct walk w = { .nsw = 0 };
	long bad = 0;
	int i, p;

	w.st = calloc(nn, 1);
	w.path = malloc(sizeof(*w.path) * nn);
	w.sw = malloc(sizeof(*w.sw) * nn);
	if (!w.st || !w.path || !w.sw) {
		bad = osmre_fail(err, "out of memory");
		goto out;
	}
	/* a walk only ever steps onto switches: the others stay UNSEEN */
	for (i = 0; i < f->nnodes; i++)
		if (fab_is_switch(&f->nodes[i]) && !f->nodes[i].removed)
			w.sw[w.nsw++] = i;
	for (i = 0; i < f->nnodes; i++) {
		const struct fab_node *n = &f->nodes[i];
		struct dest d = { .node = i };

		if (n->removed)
			continue;
		if (fab_is_switch(n)) {
			if (n->ports[0].lid)
				bad += settle(f, s, n->ports[0].lid, &d, &w);
			continue;
		}
		for (p = 1; p <= n->nports; p++) {
			unsigned lid = n->ports[p].lid, k;

			if (!lid || n->ports[p].rnode < 0)
				continue;
			d.port = p;
			for (k = 0; k < (1u << n->ports[p].lmc); k++)
				bad += settle(f, s, lid + k, &d, &w);
		}
	}
out:
	free(w.st);
	free(w.path);
	free(w.sw);
	return bad;
}
