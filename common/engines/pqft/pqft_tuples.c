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
	struct pqft *q = calloc(1, sizeof(struct pqft));

	if (q)
		q->seed = 1;
	return q;
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
			return osmre_fail(
				err,
				"host \"%s\" has %d links; pqft needs w_1 = 1 (one link per host)",
				nd->name, links);
	}
	/*
	 * A switch that lost every link down sits too high (its distance to
	 * the leaves goes through its parents) or reaches no leaf: it can
	 * carry no route to a host, so it takes no part (its own LID is
	 * still routed, see swroutes.h).
	 */
	q->excluded = 0;
	for (n = 0; n < f->nnodes; n++)
		if (f->nodes[n].type == FAB_SWITCH && !f->nodes[n].removed &&
		    (q->level[n] < 0 || q->level[n] > q->t.h)) {
			q->level[n] = -1;
			q->excluded++;
		}
	for (n = 0; n < f->nnodes; n++) {
		const struct fab_node *nd = &f->nodes[n];

		if (q->level[n] >= 0)
			count[q->level[n]]++;
		for (p = 1; q->level[n] >= 0 && p <= nd->nports; p++) {
			int r = nd->ports[p].rnode;

			if (r < 0 || q->level[r] < 0)
				continue;
			l = q->level[n] - q->level[r];
			if (l != 1 && l != -1)
				return osmre_fail(
					err,
					"link \"%s\"[%d] - \"%s\"[%d] joins levels %d and %d",
					nd->name, p, f->nodes[r].name,
					nd->ports[p].rport, q->level[n],
					q->level[r]);
		}
	}
	q->missing_switches = q->excluded;
	for (l = 1; l <= q->t.h; l++)
		q->missing_switches += pgft_level_size(&q->t, l) - count[l];
	for (l = 0; l <= q->t.h; l++)
		if (count[l] > pgft_level_size(&q->t, l))
			return osmre_fail(
				err, "level %d has %ld %s, the topology %ld", l,
				count[l], l ? "switches" : "hosts",
				pgft_level_size(&q->t, l));
	return 0;
}

struct comp_key {
	int parent;    /* the component it lies in, one step on */
	uint64_t guid; /* smallest GUID of the component */
	int root;
};

static int key_cmp(const void *a, const void *b)
{
	const struct comp_key *x = a, *y = b;

	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

/*
 * Nested components.  Step k's subfabric holds the levels [0, k] (up) or
 * [h - k, h] (down, switches only); comp[k][x] is x's component there (-1
 * when x is not in it).  rank[k][x] is the digit that component gets
 * inside its component of step k + 1 (nest_color()).
 */
static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

struct nest {
	int steps, nn, up;
	int *comp, *rank;
};

static int in_step(const struct pqft *q, int up, int k, int n)
{
	int l = q->level[n];

	return l >= 0 && (up ? l <= k : l >= q->t.h - k && l >= 1);
}

static int nest_comps(const struct pqft *q, int up, struct nest *ns)
{
	const struct fabric *f = q->f;
	int nn = f->nnodes, h = q->t.h, steps = up ? h + 1 : h, k, n, p;
	int *par = malloc((size_t)nn * sizeof(int));

	ns->steps = steps;
	ns->nn = nn;
	ns->up = up;
	ns->comp = malloc((size_t)steps * nn * sizeof(int));
	ns->rank = malloc((size_t)steps * nn * sizeof(int));
	if (!par || !ns->comp || !ns->rank) {
		free(par);
		return -1;
	}
	for (n = 0; n < nn; n++)
		par[n] = n;
	for (k = 0; k < steps; k++) {
		/* the links that step k adds: from its new level to the rest */
		int lvl = up ? k : h - k;

		for (n = 0; n < nn; n++) {
			if (q->level[n] != lvl || !in_step(q, up, k, n))
				continue;
			for (p = 1; p <= f->nodes[n].nports; p++) {
				int r = f->nodes[n].ports[p].rnode, a, b;

				if (r < 0 || !in_step(q, up, k, r) ||
				    q->level[r] == lvl)
					continue;
				a = uf_find(par, n);
				b = uf_find(par, r);
				if (a != b)
					par[a < b ? b : a] = a < b ? a : b;
			}
		}
		for (n = 0; n < nn; n++) {
			ns->comp[k * nn + n] =
				in_step(q, up, k, n) ? uf_find(par, n) : -1;
			ns->rank[k * nn + n] = -1;
		}
	}
	free(par);
	return 0;
}

/* How often each colour went to the conflict keys met so far, per
 * (parent, key): an open-addressing table of indices into counts kept in
 * the order the keys came (only those pages are touched). */
struct keyset {
	size_t cap, n;
	int64_t *a, *b;	      /* parent component, key; a = -1: empty */
	int *at;	      /* into uses */
	uint8_t (*uses)[256]; /* at most one per node */
};

static uint8_t *keyset_get(struct keyset *ks, int64_t a, int64_t b)
{
	size_t i = (size_t)((uint64_t)a * 0x9e3779b97f4a7c15ULL ^
			    (uint64_t)b * 0xc2b2ae3d27d4eb4fULL) &
		   (ks->cap - 1);

	while (ks->a[i] != -1 && (ks->a[i] != a || ks->b[i] != b))
		i = (i + 1) & (ks->cap - 1);
	if (ks->a[i] == -1) {
		ks->a[i] = a;
		ks->b[i] = b;
		ks->at[i] = (int)ks->n;
		memset(ks->uses[ks->n++], 0, sizeof(ks->uses[0]));
	}
	return ks->uses[ks->at[i]];
}

/*
 * Digits of step k: the components of step k inside one of step k + 1
 * take colours 0, 1, ... in the order of their smallest GUIDs, the
 * smallest colour that no component met before with a common conflict key
 * took (nodes with the same key, -1: none, must get different digits; the
 * p_c twins of a QFT's cross level c may share one).  In a complete fabric all
 * components of a parent conflict, and the colours are their ranks; in a
 * degraded one a subtree may fall into pieces that still share a digit.
 * At most most colours.
 */
static int nest_color(const struct pqft *q, struct nest *ns, int k,
		      const int64_t *key, int most, struct osmre_err *err)
{
	const struct fabric *f = q->f;
	int nn = ns->nn, n, i, nk = 0, rc = -1;
	struct comp_key *ck = malloc((size_t)nn * sizeof(*ck));
	int *slot = malloc((size_t)nn * sizeof(int));
	int *first = malloc(((size_t)nn + 1) * sizeof(int));
	int *next = malloc((size_t)nn * sizeof(int));
	int *color = malloc((size_t)nn * sizeof(int));
	struct keyset ks = { 0 };

	for (ks.cap = 16; ks.cap < 2 * (size_t)nn + 2; ks.cap *= 2)
		;
	ks.a = malloc(ks.cap * sizeof(int64_t));
	ks.b = malloc(ks.cap * sizeof(int64_t));
	ks.at = malloc(ks.cap * sizeof(int));
	ks.uses = malloc(((size_t)nn + 1) * sizeof(*ks.uses));
	if (!ck || !slot || !first || !next || !color || !ks.a || !ks.b ||
	    !ks.at || !ks.uses) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	for (i = 0; (size_t)i < ks.cap; i++)
		ks.a[i] = -1;
	for (n = 0; n < nn; n++) {
		slot[n] = -1;
		first[n] = -1;
	}
	for (n = 0; n < nn; n++) {
		int r = ns->comp[k * nn + n];
		uint64_t g = f->nodes[n].guid;

		if (r < 0)
			continue;
		/* the nodes of each component, for their keys */
		next[n] = first[r];
		first[r] = n;
		if (slot[r] < 0) {
			slot[r] = nk;
			ck[nk++] = (struct comp_key){
				k + 1 < ns->steps ? ns->comp[(k + 1) * nn + n] :
						    0,
				g, r
			};
		} else if (g < ck[slot[r]].guid) {
			ck[slot[r]].guid = g;
		}
	}
	qsort(ck, (size_t)nk, sizeof(*ck), key_cmp);
	for (i = 0; i < nk; i++) {
		int c, ok = 0;

		for (c = 0; c < most && !ok; c++) {
			int done = 0;

			ok = 1;
			/* count this piece's own nodes per key as it goes */
			for (n = first[ck[i].root]; n >= 0 && ok; n = next[n])
				if (key[n] >= 0) {
					uint8_t *u =
						keyset_get(&ks, ck[i].parent,
							   key[n]);

					/* the twins of a QFT's cross level
					 * share all digits but s_{c+1} mod p */
					int share =
						q->cross && q->level[n] ==
									q->cross ?
							q->t.p[q->cross] :
							1;

					ok = u[c] < share;
					u[c]++;
					done++;
				}
			if (ok)
				break;
			/* undo the done counts */
			for (n = first[ck[i].root]; n >= 0 && done; n = next[n])
				if (key[n] >= 0) {
					keyset_get(&ks, ck[i].parent,
						   key[n])[c]--;
					done--;
				}
		}
		if (!ok) {
			osmre_fail(
				err,
				"%s digit: more than %d subtrees where the topology has %d (see the node of GUID 0x%016" PRIx64
				")",
				ns->up ? "an upper" : "a lower", most, most,
				ck[i].guid);
			goto out;
		}
		color[ck[i].root] = c;
	}
	for (n = 0; n < nn; n++)
		if (ns->comp[k * nn + n] >= 0)
			ns->rank[k * nn + n] = color[ns->comp[k * nn + n]];
	rc = 0;
out:
	free(ck);
	free(slot);
	free(first);
	free(next);
	free(color);
	free(ks.a);
	free(ks.b);
	free(ks.at);
	free(ks.uses);
	return rc;
}

static void nest_free(struct nest *ns)
{
	free(ns->comp);
	free(ns->rank);
}

/* Upper: components of levels <= j inside those of levels <= j + 1. */
static int most_up(const struct pqft *q, int j)
{
	int c = q->cross;

	if (j == q->t.h)
		return 1; /* the whole fabric: one component */
	if (c && j == c)
		return q->t.m[c + 1] / q->t.p[c];
	if (c && j == c - 1)
		return q->t.p[c] * q->t.m[c];
	return q->t.m[j + 1];
}

/*
 * Digits.  Upper digits s_h..s_{l+1} of a node of level l: going down
 * keeps them and going up forgets them, so the components of the
 * subfabric of levels <= j are its subtrees; digit j + 1 is the rank of
 * x's subtree of height j inside that of height j + 1 (around a QFT's
 * cross level c: at j = c the rank is floor(s_{c+1} / p_c), at j = c - 1
 * it is (s_{c+1} mod p_c) * m_c + s_c).  Lower digits s_l..s_1 of a
 * switch: going up keeps them, so the components of the switches of
 * levels >= j are its "flipped" subtrees; digit j is the rank of x's one
 * of levels >= j inside that of levels >= j - 1 (s_1 = 0 as w_1 = 1).
 * The switches of a QFT's cross level c that share both components are
 * twins (same parents, same children) that differ only in s_{c+1} mod
 * p_c: their GUID order gives it.  Ranks follow smallest GUIDs.
 */
static int assign_digits(struct pqft *q, struct osmre_err *err)
{
	const struct fabric *f = q->f;
	struct nest up = { 0 }, down = { 0 };
	int nn = f->nnodes, h = q->t.h, c = q->cross, n, j, k, rc = -1;
	int64_t *key = malloc(((size_t)nn + 1) * sizeof(int64_t));

	if (!key || nest_comps(q, 1, &up) || nest_comps(q, 0, &down)) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	/* one piece: else leaves of different pieces have no up-down path
	 * (switches without links down left are out) */
	for (n = 0, j = -1; n < nn; n++) {
		int x, l = q->level[n];

		if (l < 0)
			continue;
		if (j < 0)
			j = n; /* the first node in use */
		if (up.comp[h * nn + n] == up.comp[h * nn + j])
			continue;
		for (x = 0;
		     x < nn && !(q->level[x] == 1 &&
				 up.comp[h * nn + x] == up.comp[h * nn + j]);
		     x++)
			;
		for (l = 0;
		     l < nn && !(q->level[l] == 0 &&
				 up.comp[h * nn + l] == up.comp[h * nn + n]);
		     l++)
			;
		if (x < nn && l < nn)
			osmre_fail(
				err,
				"no up-down path from leaf \"%s\" to \"%s\" (the fabric falls apart)",
				f->nodes[x].name, f->nodes[l].name);
		else
			osmre_fail(err,
				   "the fabric falls apart: \"%s\" and \"%s\"",
				   f->nodes[j].name, f->nodes[n].name);
		goto out;
	}
	/*
	 * Lower digits first, from the top: two switches of one level and one
	 * subtree (upper component) whose other lower digits agree must get
	 * different digits j.
	 */
	for (k = 0; k + 1 < down.steps; k++) {
		j = h - k; /* the step's new level */
		for (n = 0; n < nn; n++) {
			int l = q->level[n], i;
			uint64_t v;

			key[n] = -1;
			if (l < j)
				continue;
			v = mix64((uint64_t)l << 32 |
				  (uint64_t)up.comp[l * nn + n]);
			for (i = l; i > j; i--)
				v = mix64(
					v ^
					(uint64_t)down.rank[(h - i) * nn + n]);
			key[n] = (int64_t)(v >> 1);
		}
		if (nest_color(q, &down, k, key, q->t.w[j], err))
			goto out;
	}
	for (n = 0; n < nn; n++) {
		memset(q->dig[n], 0, sizeof(q->dig[n]));
		for (j = 2; j <= q->level[n]; j++)
			q->dig[n][j] = (uint8_t)down.rank[(h - j) * nn + n];
	}
	/*
	 * Upper digits, from the bottom: two nodes of one level whose lower
	 * digits and upper digits below j + 1 agree must get different
	 * digits j + 1 (hosts have no lower digits: every piece with hosts
	 * conflicts with every other).
	 */
	for (k = 0; k < h; k++) {
		for (n = 0; n < nn; n++) {
			int l = q->level[n], i;
			uint64_t v;

			key[n] = -1;
			if (l < 0 || l > k)
				continue;
			v = mix64((uint64_t)l + 1);
			for (i = 1; i <= l; i++)
				v = mix64(v ^ q->dig[n][i]);
			for (i = l; i < k; i++)
				v = mix64(v ^ ((uint64_t)up.rank[i * nn + n] +
					       1000));
			key[n] = (int64_t)(v >> 1);
		}
		if (nest_color(q, &up, k, key, most_up(q, k), err))
			goto out;
	}
	for (n = 0; n < nn; n++) {
		int l = q->level[n];

		if (l < 0)
			continue;
		for (j = l; j < h; j++) {
			int v = up.rank[j * nn + n];

			if (c && j == c)
				q->dig[n][c + 1] = (uint8_t)(q->dig[n][c + 1] +
							     v * q->t.p[c]);
			else if (c && j == c - 1) {
				q->dig[n][c] = (uint8_t)(v % q->t.m[c]);
				q->dig[n][c + 1] = (uint8_t)(q->dig[n][c + 1] +
							     v / q->t.m[c]);
			} else {
				q->dig[n][j + 1] = (uint8_t)v;
			}
		}
	}
	if (c) /* twins at the cross level */
		for (n = 0; n < nn; n++) {
			int o, before = 0;

			if (q->level[n] != c)
				continue;
			for (o = 0; o < nn; o++)
				before += q->level[o] == c && o != n &&
					  up.comp[c * nn + o] ==
						  up.comp[c * nn + n] &&
					  !memcmp(&q->dig[o][1], &q->dig[n][1],
						  (size_t)c) &&
					  f->nodes[o].guid < f->nodes[n].guid;
			if (before >= q->t.p[c]) {
				osmre_fail(
					err,
					"switch \"%s\" has %d twins, the cross level has p_%d = %d",
					f->nodes[n].name, before, c, q->t.p[c]);
				goto out;
			}
			q->dig[n][c + 1] = (uint8_t)(q->dig[n][c + 1] + before);
		}
	rc = 0;
out:
	nest_free(&up);
	nest_free(&down);
	free(key);
	return rc;
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
				return osmre_fail(
					err,
					"link \"%s\"[%d] - \"%s\"[%d] breaks the connection rule of eq. (%d)",
					nd->name, p, f->nodes[r].name, rp,
					q->t.qft ? 6 : 5);
			for (k = 1; k < p; k++)
				par += nd->ports[k].rnode == r;
			if (pc(q, l) > 1) { /* eq. (7)-(8) */
				fo = q->dig[r][l] +
				     q->t.m[l] * (q->dig[r][l + 1] % pc(q, l));
				go = q->dig[n][l] +
				     q->t.w[l] * (q->dig[n][l + 1] % pc(q, l));
			} else { /* parallel link par */
				fo = q->dig[r][l] + q->t.m[l] * par;
				go = q->dig[n][l] + q->t.w[l] * par;
			}
			if (fo >= q->t.m[l] * q->t.p[l] ||
			    (l > 1 && go >= q->t.w[l] * q->t.p[l]))
				return osmre_fail(
					err,
					"switch \"%s\" has more links to \"%s\" than the topology",
					nd->name, f->nodes[r].name);
			slot = &q->down[n][fo];
			if (*slot)
				return osmre_fail(
					err,
					"links \"%s\"[%d] and [%d] both map to down-port %d",
					nd->name, *slot, p, fo);
			*slot = (uint8_t)p;
			if (l == 1)
				continue;
			slot = &q->up[r][go];
			if (*slot)
				return osmre_fail(
					err,
					"links \"%s\"[%d] and [%d] both map to up-port %d",
					f->nodes[r].name, *slot, rp, go);
			*slot = (uint8_t)rp;
		}
	}
	/* what the fabric lacks of the topology: faults */
	q->missing_links = 0;
	for (n = 0; n < f->nnodes; n++) {
		int l = q->level[n];

		if (l < 2)
			continue;
		for (i = 0; i < q->t.m[l] * q->t.p[l]; i++)
			q->missing_links += !q->down[n][i];
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
				osmre_fail(
					err,
					"\"%s\" and \"%s\" get the same tuple",
					q->f->nodes[n].name,
					idx >= 0 && idx < size &&
							who[idx] >= 0 ?
						q->f->nodes[who[idx]].name :
						"?");
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
	uint64_t seed = q->seed;
	long r;

	if (q->f)
		pqft_clear(q);
	q->seed = seed;
	q->t = *t;
	q->f = f;
	q->cross = qft_cross_level(t);
	if (t->w[1] != 1 || t->p[1] != 1)
		return osmre_fail(
			err,
			"w_1 = %d, p_1 = %d: pqft needs hosts with one link (w_1 = p_1 = 1)",
			t->w[1], t->p[1]);
	q->level = malloc(((size_t)nn + 1) * sizeof(int));
	q->dig = calloc((size_t)nn + 1, sizeof(*q->dig));
	q->hidx = malloc(((size_t)nn + 1) * sizeof(long));
	q->hport = malloc(((size_t)nn + 1) * sizeof(int));
	q->down = calloc((size_t)nn + 1, sizeof(*q->down));
	q->up = calloc((size_t)nn + 1, sizeof(*q->up));
	if (!q->level || !q->dig || !q->hidx || !q->hport || !q->down || !q->up)
		return osmre_fail(err, "out of memory");
	if (assign_levels(q, err) || assign_digits(q, err) ||
	    check_unique(q, err) || map_ports(q, err))
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
