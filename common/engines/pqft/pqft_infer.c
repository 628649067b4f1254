/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pqft's topology parameters read off a complete fabric, when osmre.conf
 * names none:
 * - levels from the leaves (h the highest);
 * - p_l of a PGFT: the links between a level-l switch and one child; m_l
 *   its distinct children; w_l the distinct parents of a level-(l-1) node;
 * - a QFT shows where a level-l switch has p times more children than
 *   there are subtrees of height l-1 in one of height l (the components of
 *   the subfabric of levels <= l-1 inside those of levels <= l): then
 *   c = l - 1 is cross-connected with p_c = p, m_c and w_c are divided by
 *   p, and the parameters are those of a QFT.
 * The result must give every level its node count (eq. 1): a degraded
 * fabric needs its parameters in pqft_topology.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pqft.h"
#include "ranks.h"

static int find(int *par, int x)
{
	while (par[x] != x) {
		par[x] = par[par[x]];
		x = par[x];
	}
	return x;
}

/* Distinct neighbours of n at the given level, and links to them. */
static void degree(const struct fabric *f, const int *lvl, int n, int level,
		   int *distinct, int *links)
{
	const struct fab_node *nd = &f->nodes[n];
	int p, k;

	*distinct = *links = 0;
	for (p = 1; p <= nd->nports; p++) {
		int r = nd->ports[p].rnode, dup = 0;

		if (r < 0 || lvl[r] != level)
			continue;
		(*links)++;
		for (k = 1; k < p; k++)
			dup |= nd->ports[k].rnode == r;
		*distinct += !dup;
	}
}

int pqft_infer(const struct fabric *f, struct pgft_params *t,
	       struct osmre_err *err)
{
	int nn = f->nnodes, n, l, h = 0, rc = -1;
	int *lvl = malloc(((size_t)nn + 1) * sizeof(int));
	int *par = malloc(((size_t)nn + 1) * sizeof(int));
	long comps[PQFT_MAX_LEVELS + 2] = { 0 };
	char spec[256];

	memset(t, 0, sizeof(*t));
	if (!lvl || !par || ranks_compute(f, lvl) < -1) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	for (n = 0; n < nn; n++) {
		const struct fab_node *nd = &f->nodes[n];
		int p, linked = 0;

		if (nd->removed) {
			lvl[n] = -1;
		} else if (nd->type == FAB_SWITCH) {
			if (lvl[n] >= 0)
				lvl[n]++;
		} else {
			for (p = 1; p <= nd->nports; p++)
				linked |= nd->ports[p].rnode >= 0;
			lvl[n] = linked ? 0 : -1;
		}
		if (lvl[n] > h)
			h = lvl[n];
	}
	if (h < 1 || h > PQFT_MAX_LEVELS) {
		osmre_fail(err, "cannot infer the topology: %d switch levels",
			   h);
		goto out;
	}
	/* components of the subfabric of levels <= j, j = 0..h */
	for (n = 0; n < nn; n++)
		par[n] = n;
	for (l = 0; l <= h; l++) {
		for (n = 0; n < nn; n++) {
			int p;

			if (lvl[n] != l)
				continue;
			for (p = 1; l && p <= f->nodes[n].nports; p++) {
				int r = f->nodes[n].ports[p].rnode;

				if (r >= 0 && lvl[r] == l - 1) {
					int a = find(par, n), b = find(par, r);

					if (a != b)
						par[a] = b;
				}
			}
		}
		for (n = 0; n < nn; n++)
			comps[l] +=
				lvl[n] >= 0 && lvl[n] <= l && find(par, n) == n;
	}
	t->h = h;
	/* degrees: the largest at each level (links may be missing) */
	for (l = 1; l <= h; l++) {
		int sw = -1, d = 0, k = 0, dd = 0, kk = 0, a, b;

		for (n = 0; n < nn; n++) {
			if (lvl[n] == l) {
				degree(f, lvl, n, l - 1, &a, &b);
				if (b > k || (b == k && a > d)) {
					d = a;
					k = b;
					sw = n;
				}
			} else if (lvl[n] == l - 1) {
				degree(f, lvl, n, l, &a, &b);
				if (b > kk || (b == kk && a > dd)) {
					dd = a;
					kk = b;
				}
			}
		}
		if (!d || !dd || k % d || kk % dd) {
			osmre_fail(
				err,
				"cannot infer the topology at level %d: \"%s\" has %d links to %d children",
				l, sw >= 0 ? f->nodes[sw].name : "?", k, d);
			goto out;
		}
		t->m[l] = d;
		t->w[l] = dd;
		t->p[l] = k / d;
	}
	/* a QFT cross-connected at c = l - 1: a level-l switch has p times
	 * more children than there are subtrees of height l - 1 in one of
	 * height l */
	for (l = 3; l <= h; l++) {
		long inside = comps[l] ? comps[l - 1] / comps[l] : 0;
		int c = l - 1;

		if (t->p[c] == 1 && inside && t->m[l] > inside &&
		    t->m[l] % inside == 0) {
			int p = (int)(t->m[l] / inside);

			if (t->m[c] % p || t->w[c] % p)
				continue;
			t->qft = 1;
			t->p[c] = p;
			t->m[c] /= p;
			t->w[c] /= p;
		}
	}
	topo_spec_format(t, spec, sizeof(spec));
	/* parse it back: the QFT restriction and the port counts get checked */
	if (topo_spec_parse(spec, t, err))
		goto out;
	for (l = 0; l <= h; l++) {
		long cnt = 0;

		for (n = 0; n < nn; n++)
			cnt += lvl[n] == l;
		if (cnt != pgft_level_size(t, l)) {
			osmre_fail(
				err,
				"cannot infer the topology: level %d has %ld nodes where %s has %ld (a degraded fabric needs pqft_topology)",
				l, cnt, spec, pgft_level_size(t, l));
			goto out;
		}
	}
	rc = 0;
out:
	free(lvl);
	free(par);
	return rc;
}
