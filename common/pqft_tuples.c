/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Tuple assignment of pqft (see pqft.h): levels, upper digits from nested
 * components, lower digits from parents, then the connection rule checked
 * on every link while the logical ports are mapped to physical ones.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pqft.h"
#include "ranks.h"

struct pqft *pqft_new(void)
{
	return calloc(1, sizeof(struct pqft));
}

static void pqft_clear(struct pqft *q)
{
	int n;

	if (q->down)
		for (n = 0; n < q->f->nnodes; n++)
			free(q->down[n]);
	if (q->up)
		for (n = 0; n < q->f->nnodes; n++)
			free(q->up[n]);
	free(q->down);
	free(q->up);
	free(q->level);
	free(q->dig);
	free(q->hidx);
	free(q->hport);
	memset(q, 0, sizeof(*q));
}

void pqft_free(struct pqft *q)
{
	if (!q)
		return;
	pqft_clear(q);
	free(q);
}

static int uf_find(int *par, int x)
{
	while (par[x] != x) {
		par[x] = par[par[x]];
		x = par[x];
	}
	return x;
}

/* p_l as the QFT rule uses it: 1 for the parallel links of a PGFT. */
static int pc(const struct pqft *q, int l)
{
	return q->t.qft && l >= 1 && l <= q->t.h ? q->t.p[l] : 1;
}

/* Levels: hosts 0, switches 1 + their fat-tree rank; links checked. */
static int assign_levels(struct pqft *q, struct osmre_err *err)
{
	const struct fabric *f = q->f;
	long count[PQFT_MAX_LEVELS + 1] = { 0 };
	int n, p, l, top;

	top = ranks_compute(f, q->level);
	if (top < -1)
		return osmre_fail(err, "out of memory");
	for (n = 0; n < f->nnodes; n++) {
		const struct fab_node *nd = &f->nodes[n];
		int links = 0;

		q->hport[n] = 0;
		q->hidx[n] = -1;
		if (nd->removed) {
			q->level[n] = -1;
			continue;
		}
		if (nd->type == FAB_SWITCH) {
			if (q->level[n] >= 0)
				q->level[n]++;
			continue;
		}
		for (p = 1; p <= nd->nports; p++)
			if (nd->ports[p].rnode >= 0) {
				links++;
				q->hport[n] = p;
			}
		q->level[n] = links ? 0 : -1;
		if (links > 1)
			return osmre_fail(err, "host \"%s\" has %d links; pqft needs w_1 = 1 (one link per host)",
					  nd->name, links);
	}
	for (n = 0; n < f->nnodes; n++) {
		const struct fab_node *nd = &f->nodes[n];

		if (nd->type == FAB_SWITCH && !nd->removed && q->level[n] < 0)
			return osmre_fail(err, "switch \"%s\" reaches no leaf", nd->name);
		if (q->level[n] > q->t.h)
			return osmre_fail(err, "switch \"%s\" is at level %d; the topology has %d levels",
					  nd->name, q->level[n], q->t.h);
		if (q->level[n] >= 0)
			count[q->level[n]]++;
		for (p = 1; q->level[n] >= 0 && p <= nd->nports; p++) {
			int r = nd->ports[p].rnode;

			if (r < 0 || q->level[r] < 0)
				continue;
			l = q->level[n] - q->level[r];
			if (l != 1 && l != -1)
				return osmre_fail(err, "link \"%s\"[%d] - \"%s\"[%d] joins levels %d and %d",
						  nd->name, p, f->nodes[r].name,
						  nd->ports[p].rport, q->level[n],
						  q->level[r]);
		}
	}
	for (l = 0; l <= q->t.h; l++)
		if (count[l] != pgft_level_size(&q->t, l))
			return osmre_fail(err, "level %d has %ld %s, the topology %ld",
					  l, count[l], l ? "switches" : "hosts",
					  pgft_level_size(&q->t, l));
	return 0;
}

struct comp_key {
	int parent;		/* component one level up */
	uint64_t guid;		/* smallest GUID of the component */
	int root;
};

static int key_cmp(const void *a, const void *b)
{
	const struct comp_key *x = a, *y = b;

	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

/* Components one level up: how many a component of level j splits into. */
static int split(const struct pqft *q, int j)
{
	int c = q->cross;

	if (c && j == c)
		return q->t.m[c + 1] / q->t.p[c];
	if (c && j == c - 1)
		return q->t.p[c] * q->t.m[c];
	return q->t.m[j + 1];
}

/*
 * Upper digits: cur[x] is x's component in the subfabric of levels <= j,
 * up[x] in levels <= j + 1; the components of level j inside one of level
 * j + 1 are ranked by smallest GUID.  The rank is digit j + 1, except
 * around a QFT's cross level c: at j = c it is floor(s_{c+1} / p_c), at
 * j = c - 1 it is (s_{c+1} mod p_c) * m_c + s_c.
 */
static int upper_digits(struct pqft *q, struct osmre_err *err)
{
	const struct fabric *f = q->f;
	int nn = f->nnodes, h = q->t.h, c = q->cross, j, n, p, i, rc = -1;
	int *par = malloc((size_t)nn * sizeof(int));
	int *comp = malloc((size_t)(h + 1) * nn * sizeof(int));
	int *rank = malloc((size_t)nn * sizeof(int));
	struct comp_key *k = malloc((size_t)nn * sizeof(*k));

	if (!par || !comp || !rank || !k) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	for (n = 0; n < nn; n++)
		par[n] = n;
	/* comp[j * nn + x]: x's component among levels <= j */
	for (j = 0; j <= h; j++) {
		for (n = 0; n < nn; n++) {
			if (q->level[n] != j || j == 0)
				continue;
			for (p = 1; p <= f->nodes[n].nports; p++) {
				int r = f->nodes[n].ports[p].rnode;

				if (r >= 0 && q->level[r] == j - 1) {
					int a = uf_find(par, n), b = uf_find(par, r);

					if (a != b)
						par[a < b ? b : a] = a < b ? a : b;
				}
			}
		}
		for (n = 0; n < nn; n++)
			comp[j * nn + n] = q->level[n] >= 0 && q->level[n] <= j ?
				uf_find(par, n) : -1;
	}
	{
		int first = -1;

		for (n = 0; n < nn; n++) {
			if (q->level[n] < 0)
				continue;
			if (first < 0)
				first = comp[h * nn + n];
			else if (comp[h * nn + n] != first) {
				osmre_fail(err, "the fabric is not connected: \"%s\" and \"%s\" are apart",
					   f->nodes[first].name, f->nodes[n].name);
				goto out;
			}
		}
	}
	for (j = h - 1; j >= 0; j--) {
		int nk = 0, cnt = 0;

		for (n = 0; n < nn; n++)
			rank[n] = -1;
		for (n = 0; n < nn; n++) {
			int r = comp[j * nn + n];
			uint64_t g = f->nodes[n].guid;

			if (r < 0)
				continue;
			if (rank[r] < 0) {
				rank[r] = nk;
				k[nk++] = (struct comp_key){ comp[(j + 1) * nn + n], g, r };
			} else if (g < k[rank[r]].guid) {
				k[rank[r]].guid = g;
			}
		}
		qsort(k, (size_t)nk, sizeof(*k), key_cmp);
		for (i = 0; i < nk; i++) {
			cnt = i && k[i].parent == k[i - 1].parent ? cnt + 1 : 0;
			rank[k[i].root] = cnt;
			if (i + 1 == nk || k[i + 1].parent != k[i].parent) {
				if (cnt + 1 != split(q, j)) {
					osmre_fail(err, "a subtree of height %d holds %d subtrees of height %d, the topology %d (see the node of GUID 0x%016" PRIx64 ")",
						   j + 1, cnt + 1, j, split(q, j),
						   k[i].guid);
					goto out;
				}
			}
		}
		for (n = 0; n < nn; n++) {
			int r = comp[j * nn + n], v;

			if (r < 0)
				continue;
			v = rank[r];
			if (c && j == c) {
				q->dig[n][c + 1] = (uint8_t)(v * q->t.p[c] +
							    q->dig[n][c + 1]);
			} else if (c && j == c - 1) {
				q->dig[n][c] = (uint8_t)(v % q->t.m[c]);
				q->dig[n][c + 1] = (uint8_t)(q->dig[n][c + 1] +
							     v / q->t.m[c]);
			} else {
				q->dig[n][j + 1] = (uint8_t)v;
			}
		}
	}
	rc = 0;
out:
	free(par);
	free(comp);
	free(rank);
	free(k);
	return rc;
}

/* Smallest GUID among n's neighbours of the given level, or -1. */
static int min_neighbour(const struct pqft *q, int n, int level)
{
	const struct fab_node *nd = &q->f->nodes[n];
	int p, best = -1;

	for (p = 1; p <= nd->nports; p++) {
		int r = nd->ports[p].rnode;

		if (r >= 0 && q->level[r] == level &&
		    (best < 0 || q->f->nodes[r].guid < q->f->nodes[best].guid))
			best = r;
	}
	return best;
}

/*
 * Lower digits s_l..s_1 of the switches.  Going up keeps a node's lower
 * digits and replaces its upper ones, so two switches of a level share
 * their lower digits exactly when they reach the same top switches going
 * up: the smallest GUID among those (topkey) names the class, the same in
 * every subtree.  Level by level from the leaves (s_1 = 0 as w_1 = 1): a
 * switch copies s_{l-1}..s_1 from its smallest-GUID child Q, and s_l is
 * the rank of its class among the classes of Q's parents.  At a QFT's
 * cross level c, Q's parents come in classes of p_c twins, which share
 * their parents too and differ only in s_{c+1} mod p_c: their GUID order
 * gives it.
 */
static int lower_digits(struct pqft *q, struct osmre_err *err)
{
	const struct fabric *f = q->f;
	int l, n, p, i, c = q->cross;
	uint64_t *topkey = malloc(((size_t)f->nnodes + 1) * sizeof(uint64_t));

	if (!topkey)
		return osmre_fail(err, "out of memory");
	for (l = q->t.h; l >= 1; l--)
		for (n = 0; n < f->nnodes; n++) {
			if (q->level[n] != l)
				continue;
			topkey[n] = l == q->t.h ? f->nodes[n].guid : UINT64_MAX;
			for (p = 1; p <= f->nodes[n].nports; p++) {
				int r = f->nodes[n].ports[p].rnode;

				if (r >= 0 && q->level[r] == l + 1 &&
				    topkey[r] < topkey[n])
					topkey[n] = topkey[r];
			}
		}
	for (l = 2; l <= q->t.h; l++) {
		for (n = 0; n < f->nnodes; n++) {
			const struct fab_node *ch;
			uint64_t keys[FAB_MAX_PORTS + 1];
			int child, nkeys = 0, rank = 0, inclass = 0;

			if (q->level[n] != l)
				continue;
			child = min_neighbour(q, n, l - 1);
			if (child < 0) {
				free(topkey);
				return osmre_fail(err, "switch \"%s\" has no link down",
						  f->nodes[n].name);
			}
			for (i = 1; i < l; i++)
				q->dig[n][i] = q->dig[child][i];
			ch = &f->nodes[child];
			for (p = 1; p <= ch->nports; p++) {
				int r = ch->ports[p].rnode, k, dup = 0;

				if (r < 0 || q->level[r] != l || r == n)
					continue;
				for (k = 1; k < p; k++)	/* parallel links */
					dup |= ch->ports[k].rnode == r;
				if (dup)
					continue;
				if (topkey[r] == topkey[n]) {
					inclass += f->nodes[r].guid < f->nodes[n].guid;
					continue;
				}
				for (k = 0; k < nkeys && keys[k] != topkey[r]; k++)
					;
				if (k == nkeys) {
					keys[nkeys++] = topkey[r];
					rank += topkey[r] < topkey[n];
				}
			}
			q->dig[n][l] = (uint8_t)rank;
			if (c == l)
				q->dig[n][c + 1] = (uint8_t)(q->dig[n][c + 1] + inclass);
		}
	}
	free(topkey);
	return 0;
}

static long tuple_index(const struct pqft *q, int n)
{
	int l = q->level[n], i;
	long idx = 0;

	for (i = q->t.h; i >= 1; i--)
		idx = idx * (i <= l ? q->t.w[i] : q->t.m[i]) + q->dig[n][i];
	return idx;
}

/* eq. (6), or eq. (5) for a PGFT: S at level l, Q at level l - 1 */
static int rule_holds(const struct pqft *q, int s, int d)
{
	int l = q->level[s], i;

	for (i = 1; i <= q->t.h; i++) {
		if (i == l)
			continue;
		if (i == l + 1 && pc(q, l) > 1) {
			if (q->dig[s][i] / pc(q, l) != q->dig[d][i] / pc(q, l))
				return 0;
		} else if (q->dig[s][i] != q->dig[d][i]) {
			return 0;
		}
	}
	return 1;
}

static int map_ports(struct pqft *q, struct osmre_err *err)
{
	const struct fabric *f = q->f;
	int n, p, k, i;

	for (n = 0; n < f->nnodes; n++) {
		int l = q->level[n], nd_ = 0, nu = 0;

		if (l < 1)
			continue;
		nd_ = q->t.m[l] * q->t.p[l];
		nu = l < q->t.h ? q->t.w[l + 1] * q->t.p[l + 1] : 0;
		q->down[n] = calloc((size_t)nd_ + 1, 1);
		q->up[n] = calloc((size_t)nu + 1, 1);
		if (!q->down[n] || !q->up[n])
			return osmre_fail(err, "out of memory");
	}
	for (n = 0; n < f->nnodes; n++) {
		const struct fab_node *nd = &f->nodes[n];
		int l = q->level[n];

		if (l < 1)
			continue;
		for (p = 1; p <= nd->nports; p++) {
			int r = nd->ports[p].rnode, rp = nd->ports[p].rport;
			int fo, go, par = 0;
			uint8_t *slot;

			if (r < 0 || q->level[r] != l - 1)
				continue;
			if (!rule_holds(q, n, r))
				return osmre_fail(err, "link \"%s\"[%d] - \"%s\"[%d] breaks the connection rule of eq. (%d)",
						  nd->name, p, f->nodes[r].name, rp,
						  q->t.qft ? 6 : 5);
			for (k = 1; k < p; k++)
				par += nd->ports[k].rnode == r;
			if (pc(q, l) > 1) {	/* eq. (7)-(8) */
				fo = q->dig[r][l] + q->t.m[l] * (q->dig[r][l + 1] % pc(q, l));
				go = q->dig[n][l] + q->t.w[l] * (q->dig[n][l + 1] % pc(q, l));
			} else {	/* parallel link par */
				fo = q->dig[r][l] + q->t.m[l] * par;
				go = q->dig[n][l] + q->t.w[l] * par;
			}
			if (fo >= q->t.m[l] * q->t.p[l] || (l > 1 && go >= q->t.w[l] * q->t.p[l]))
				return osmre_fail(err, "switch \"%s\" has more links to \"%s\" than the topology",
						  nd->name, f->nodes[r].name);
			slot = &q->down[n][fo];
			if (*slot)
				return osmre_fail(err, "links \"%s\"[%d] and [%d] both map to down-port %d",
						  nd->name, *slot, p, fo);
			*slot = (uint8_t)p;
			if (l == 1)
				continue;
			slot = &q->up[r][go];
			if (*slot)
				return osmre_fail(err, "links \"%s\"[%d] and [%d] both map to up-port %d",
						  f->nodes[r].name, *slot, rp, go);
			*slot = (uint8_t)rp;
		}
	}
	for (n = 0; n < f->nnodes; n++) {
		int l = q->level[n];

		if (l < 1)
			continue;
		for (i = 0; i < q->t.m[l] * q->t.p[l]; i++)
			if (!q->down[n][i])
				return osmre_fail(err, "switch \"%s\" lacks down-port %d of the topology",
						  f->nodes[n].name, i);
		for (i = 0; l < q->t.h && i < q->t.w[l + 1] * q->t.p[l + 1]; i++)
			if (!q->up[n][i])
				return osmre_fail(err, "switch \"%s\" lacks up-port %d of the topology",
						  f->nodes[n].name, i);
	}
	return 0;
}

static int check_unique(struct pqft *q, struct osmre_err *err)
{
	int l, n;

	for (l = 0; l <= q->t.h; l++) {
		long size = pgft_level_size(&q->t, l);
		int *who = malloc((size_t)size * sizeof(int));

		if (!who)
			return osmre_fail(err, "out of memory");
		for (n = 0; n < size; n++)
			who[n] = -1;
		for (n = 0; n < q->f->nnodes; n++) {
			long idx;

			if (q->level[n] != l)
				continue;
			idx = tuple_index(q, n);
			if (idx < 0 || idx >= size || who[idx] >= 0) {
				osmre_fail(err, "\"%s\" and \"%s\" get the same tuple",
					   q->f->nodes[n].name,
					   idx >= 0 && idx < size && who[idx] >= 0 ?
						   q->f->nodes[who[idx]].name : "?");
				free(who);
				return -1;
			}
			who[idx] = n;
		}
		free(who);
	}
	return 0;
}

int pqft_assign(struct pqft *q, const struct fabric *f,
		const struct pgft_params *t, struct osmre_err *err)
{
	int nn = f->nnodes, n, l;
	long r;

	if (q->f)
		pqft_clear(q);
	q->t = *t;
	q->f = f;
	q->cross = qft_cross_level(t);
	if (t->w[1] != 1 || t->p[1] != 1)
		return osmre_fail(err, "w_1 = %d, p_1 = %d: pqft needs hosts with one link (w_1 = p_1 = 1)",
				  t->w[1], t->p[1]);
	q->level = malloc(((size_t)nn + 1) * sizeof(int));
	q->dig = calloc((size_t)nn + 1, sizeof(*q->dig));
	q->hidx = malloc(((size_t)nn + 1) * sizeof(long));
	q->hport = malloc(((size_t)nn + 1) * sizeof(int));
	q->down = calloc((size_t)nn + 1, sizeof(*q->down));
	q->up = calloc((size_t)nn + 1, sizeof(*q->up));
	if (!q->level || !q->dig || !q->hidx || !q->hport || !q->down || !q->up)
		return osmre_fail(err, "out of memory");
	if (assign_levels(q, err) || upper_digits(q, err) ||
	    lower_digits(q, err) || check_unique(q, err) || map_ports(q, err))
		return -1;
	q->nhosts = pgft_level_size(t, 0);
	for (n = 0; n < nn; n++) {
		long d = 0, rad = 1;

		if (q->level[n] != 0)
			continue;
		for (l = 1; l <= t->h; l++) {
			d += q->dig[n][l] * rad;
			rad *= t->m[l];
		}
		q->hidx[n] = d;
	}
	/* eq. (12) for a QFT (p_0 = p_-1 = 1), eq. (11) for a PGFT */
	q->R[0] = r = 1;
	for (l = 1; l <= t->h; l++) {
		r *= t->w[l];
		if (t->qft) {
			r *= t->p[l];
			if (l > 2)
				r /= t->p[l - 2];
		}
		q->R[l] = r;
	}
	return 0;
}
