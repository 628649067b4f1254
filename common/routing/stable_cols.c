/* SPDX-License-Identifier: BSD-2-Clause */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lids.h"
#include "parallel.h"
#include "stable_cols.h"

/*
 * Per switch, for one LID: unknown, on the walk, its previous route works
 * (and is up*-down* under the ranks), works but is not up-down, broken,
 * settled by the repair.
 */
enum { S_NEW, S_WALK, S_OK, S_OKX, S_BAD, S_FIXED };

#define F_DOWN	 1 /* the route goes down only */
#define F_UD	 2 /* the route goes up, then down */
#define D_UNK	 (-1)
#define D_WALK	 (-2)
#define D_INF	 INT_MAX
#define BATCH	 64 /* LIDs per pass: one 64-byte line of each table */
/* Switch-LID routes may keep their previous port at up to this many hops
 * over the new routing's length (CA routes: none). */
#define SW_SLACK 4

/* per thread; the switches by their index in cur */
struct scratch {
	uint8_t *pv, *cu; /* BATCH rows of ns: previous and new entries */
	unsigned char *state, *fl, *pick;
	int *len, *dist, *stack, *order, *cnt, *work, nwork;
	long whole;
};

struct job {
	const struct fabric *f;
	struct lft_set *cur;
	const struct lid_owner *own;
	const struct lft **pt; /* per switch: its previous table, or NULL */
	int *rank;	       /* per switch, -1 unknown; NULL: none */
	/* per switch and port: the switch at the other end, -1 none, or
	 * ca_code() of the CA port there */
	int *adj;
	int ns, stride;
	unsigned max;
	struct scratch *sc;
};

/* one destination LID */
struct col {
	const struct job *j;
	struct scratch *w;
	const uint8_t *pv; /* its previous entries, per switch */
	uint8_t *cu;	   /* its new entries, per switch */
	int dn, dp, ca;	   /* the destination port; 1 when a CA's */
	int dt, dcode;	   /* its switch (-1: a CA), ca_code(dn, dp) */
};

static int ca_code(int node, int port)
{
	return -3 - (node * 256 + port);
}

/* Where port leads from switch s: a switch, -2 the destination itself,
 * -1 nowhere (no entry, no link, a CA that is not the destination). */
static int hop(const struct col *c, int s, int port)
{
	int r;

	if (port == 0)
		return s == c->dt ? -2 : -1;
	if (port >= c->j->stride) /* (LFT_NONE too) */
		return -1;
	r = c->j->adj[(size_t)s * (size_t)c->j->stride + (size_t)port];
	if (r >= -1)
		return r;
	return r == c->dcode ? -2 : -1;
}

/* The flags of a route from s that moves to r, whose route has flags fr:
 * 0 when the move breaks up*-down* (checked for CA destinations only;
 * switch LIDs are management traffic on VL15). */
static int step_flags(const struct col *c, int s, int r, int fr)
{
	const int *rank = c->j->rank;

	if (!c->ca)
		return F_UD;
	if (!rank || rank[s] < 0 || rank[r] < 0)
		return 0;
	if (rank[r] > rank[s])
		return fr & F_UD ? F_UD : 0;
	if (rank[r] < rank[s])
		return fr & F_DOWN ? F_DOWN | F_UD : 0;
	return 0;
}

/*
 * state[s] for every switch s: S_OK when its previous entries lead, over
 * links that exist, to the destination (S_OKX when that route is not
 * up*-down* under the ranks), S_BAD otherwise (a link gone, no entry, a
 * loop, a dead end; for a CA destination, a switch that the new routing
 * cannot route from); len[s] and fl[s] for the working ones.  1 when
 * some switch is not S_OK.
 */
static int walk_column(const struct col *c)
{
	struct scratch *w = c->w;
	unsigned char *state = w->state;
	int *stack = w->stack, i, open = 0;

	memset(state, S_NEW, (size_t)c->j->ns);
	for (i = 0; i < c->j->ns; i++) {
		int s = i, n = 0, ok = 0, join = -1;

		if (c->j->cur->t[i].node < 0 || state[s] != S_NEW)
			continue;
		for (;;) {
			int h;

			if (state[s] != S_NEW && state[s] != S_WALK) {
				ok = state[s] != S_BAD;
				join = s;
				break;
			}
			if (state[s] == S_WALK)
				break; /* a loop */
			state[s] = S_WALK;
			stack[n++] = s;
			if (c->ca && c->cu[s] == LFT_NONE)
				break;
			h = hop(c, s, c->pv[s]);
			if (h < 0) {
				ok = h == -2;
				break;
			}
			s = h;
		}
		while (n) {
			int x = stack[--n];

			state[x] = ok ? S_OK : S_BAD;
			open |= !ok;
			if (!ok)
				continue;
			if (join < 0) { /* x reaches the destination */
				w->len[x] = 0;
				w->fl[x] = F_DOWN | F_UD;
			} else {
				w->len[x] = w->len[join] + 1;
				w->fl[x] =
					(unsigned char)step_flags(c, x, join,
								  w->fl[join]);
			}
			if (!w->fl[x]) {
				state[x] = S_OKX;
				open = 1;
			}
			join = x;
		}
	}
	return open;
}

/* dist[s]: the length of the new routing's route from s to the
 * destination, D_INF when it does not get there. */
static void new_dists(const struct col *c)
{
	int *dist = c->w->dist, *stack = c->w->stack, i;

	for (i = 0; i < c->j->ns; i++)
		dist[i] = D_UNK;
	for (i = 0; i < c->j->ns; i++) {
		int x = i, n = 0, d;

		if (c->j->cur->t[i].node < 0)
			continue;
		for (;;) {
			int h;

			if (dist[x] != D_UNK) {
				d = dist[x] == D_WALK ? D_INF : dist[x];
				break;
			}
			dist[x] = D_WALK;
			stack[n++] = x;
			h = hop(c, x, c->cu[x]);
			if (h < 0) {
				d = h == -2 ? -1 : D_INF;
				break;
			}
			x = h;
		}
		while (n) {
			d = d == D_INF ? D_INF : d + 1;
			dist[stack[--n]] = d;
		}
	}
}

static int is_open(int state)
{
	return state == S_BAD || state == S_OKX;
}

static void settle(struct scratch *w, int s, int p, int h, int fl)
{
	w->len[s] = h < 0 ? 0 : w->len[h] + 1;
	w->fl[s] = (unsigned char)fl;
	w->pick[s] = (unsigned char)p;
	w->state[s] = S_FIXED;
	w->work[w->nwork++] = s;
}

/* Port p of s as its route, onto a settled switch whose route is shorter
 * than bound: the route's flags, 0 when it does not qualify; *to: where
 * p leads. */
static int via(const struct col *c, int s, int p, int bound, int *to)
{
	const struct scratch *w = c->w;
	int h = hop(c, s, p);

	*to = h;
	if (h == -2)
		return F_DOWN | F_UD;
	if (h < 0 || (w->state[h] != S_OK && w->state[h] != S_FIXED) ||
	    w->len[h] >= bound)
		return 0;
	return step_flags(c, s, h, w->fl[h]);
}

/* A switch LID's route from s, which the new routing cannot route from:
 * its previous port if that leads to a settled switch, else the first
 * port to one (management traffic: no up-down rule). */
static void settle_stray(const struct col *c, int s)
{
	int n = c->j->cur->t[s].node, h, q;

	if (via(c, s, c->pv[s], INT_MAX, &h)) {
		settle(c->w, s, c->pv[s], h, F_UD);
		return;
	}
	for (q = 1; q <= c->j->f->nodes[n].nports; q++)
		if (via(c, s, q, INT_MAX, &h)) {
			settle(c->w, s, q, h, F_UD);
			return;
		}
}

/* s keeps its previous port if it qualifies now: 1 when it did. */
static int keep_prev(const struct col *c, int s)
{
	int h, fl = via(c, s, c->pv[s], c->w->dist[s] + (c->ca ? 0 : SW_SLACK),
			&h);

	if (fl)
		settle(c->w, s, c->pv[s], h, fl);
	return fl != 0;
}

/* The switches that may settle now that those on w->work did. */
static void drain(const struct col *c)
{
	const struct fabric *f = c->j->f;
	struct scratch *w = c->w;

	while (w->nwork) {
		int x = w->work[--w->nwork], q;
		const struct fab_node *nx = &f->nodes[c->j->cur->t[x].node];

		for (q = 1; q <= nx->nports; q++) {
			int r = nx->ports[q].rnode, s;

			if (r < 0 || f->nodes[r].type != FAB_SWITCH)
				continue;
			s = c->j->cur->by_node[r];
			if (s < 0 || !is_open(w->state[s]))
				continue;
			if (w->dist[s] != D_INF)
				keep_prev(c, s);
			else if (!c->ca)
				settle_stray(c, s);
		}
	}
}

/*
 * The repair: the broken switches, nearest first by the new routing's
 * distance, each keep their previous port when it leads to a switch
 * already settled whose route makes theirs no longer than the new
 * routing's (plus SW_SLACK for a switch LID) and the move keeps up*-down*
 * (CA destinations); otherwise they take the new routing's port, which
 * leads to a switch settled earlier.  A switch settled makes its
 * neighbours try again at once.  A switch LID's switch with no new route
 * takes one over a settled neighbour.  Every settled switch points at one
 * settled before it: no loop.  0, or -1 when the new routing's port
 * breaks up*-down* somewhere (the caller then keeps the plain rule).
 */
static int repair_column(const struct col *c)
{
	struct scratch *w = c->w;
	int i, k, nb = 0, maxd = 0;

	w->nwork = 0;
	for (i = 0; i < c->j->ns; i++) {
		if (c->j->cur->t[i].node < 0 || !is_open(w->state[i]))
			continue;
		if (w->dist[i] == D_INF) {
			if (!c->ca)
				settle_stray(c, i);
			continue;
		}
		w->order[nb++] = i;
		if (w->dist[i] > maxd)
			maxd = w->dist[i];
		keep_prev(c, i);
	}
	drain(c);
	if (maxd >= c->j->ns + 1)
		return -1;
	memset(w->cnt, 0, ((size_t)maxd + 2) * sizeof(int));
	for (i = 0; i < nb; i++)
		w->cnt[w->dist[w->order[i]] + 1]++;
	for (k = 1; k <= maxd + 1; k++)
		w->cnt[k] += w->cnt[k - 1];
	for (i = 0; i < nb; i++) /* into stack, by distance */
		w->stack[w->cnt[w->dist[w->order[i]]]++] = w->order[i];
	for (i = 0; i < nb; i++) {
		int s = w->stack[i], h, fl;

		if (!is_open(w->state[s]) || keep_prev(c, s)) {
			drain(c);
			continue;
		}
		fl = via(c, s, c->cu[s], INT_MAX, &h);
		if (!fl)
			return -1;
		settle(w, s, c->cu[s], h, fl);
		drain(c);
	}
	return 0;
}

static void one_lid(const struct job *j, struct scratch *w, unsigned lid, int k)
{
	struct col c = { .j = j, .w = w };
	int i, whole = 1, fixed;

	c.pv = w->pv + (size_t)k * (size_t)j->ns;
	c.cu = w->cu + (size_t)k * (size_t)j->ns;
	c.dn = j->own[lid].node;
	c.dp = j->own[lid].port;
	c.ca = j->f->nodes[c.dn].type != FAB_SWITCH;
	c.dt = c.ca ? -1 : j->cur->by_node[c.dn];
	c.dcode = c.ca ? ca_code(c.dn, c.dp) : INT_MIN;
	if (walk_column(&c)) {
		new_dists(&c);
		fixed = !repair_column(&c);
	} else {
		fixed = 1; /* nothing to repair */
	}
	for (i = 0; i < j->ns; i++) {
		int pp = c.pv[i], st = w->state[i];

		if (j->cur->t[i].node < 0 || lid > j->cur->t[i].top ||
		    (c.cu[i] == LFT_NONE && (c.ca || !fixed)))
			continue;
		if (st == S_OK || (!fixed && st == S_OKX))
			c.cu[i] = (uint8_t)pp;
		else if (fixed && st == S_FIXED)
			c.cu[i] = w->pick[i];
		whole &= c.cu[i] == pp;
	}
	w->whole += whole;
}

/* LIDs 64b .. 64b + 63: read a line of every table, route, write back */
static void one_batch(void *arg, long b, int tid)
{
	struct job *j = arg;
	struct scratch *w = &j->sc[tid];
	unsigned lo = (unsigned)b * BATCH;
	int i, k;

	for (i = 0; i < j->ns; i++) {
		const struct lft *a = j->pt[i], *t = &j->cur->t[i];

		for (k = 0; k < BATCH; k++) {
			unsigned lid = lo + (unsigned)k;
			size_t at = (size_t)k * (size_t)j->ns + (size_t)i;

			w->pv[at] =
				a && lid <= a->top ? a->port[lid] : LFT_NONE;
			w->cu[at] = lid <= t->top ? t->port[lid] : LFT_NONE;
		}
	}
	for (k = 0; k < BATCH; k++) {
		unsigned lid = lo + (unsigned)k;

		if (lid <= j->max && j->own[lid].node >= 0)
			one_lid(j, w, lid, k);
	}
	for (i = 0; i < j->ns; i++) {
		struct lft *t = &j->cur->t[i];

		for (k = 0; k < BATCH && lo + (unsigned)k <= t->top; k++)
			t->port[lo + (unsigned)k] =
				w->cu[(size_t)k * (size_t)j->ns + (size_t)i];
	}
}

static void free_scratch(struct scratch *w)
{
	free(w->pv);
	free(w->cu);
	free(w->state);
	free(w->fl);
	free(w->pick);
	free(w->len);
	free(w->dist);
	free(w->stack);
	free(w->order);
	free(w->cnt);
	free(w->work);
}

static int alloc_scratch(struct scratch *w, int ns)
{
	size_t n = (size_t)ns + 2;

	w->pv = malloc(n * BATCH);
	w->cu = malloc(n * BATCH);
	w->state = malloc(n);
	w->fl = malloc(n);
	w->pick = malloc(n);
	w->len = malloc(n * sizeof(int));
	w->dist = malloc(n * sizeof(int));
	w->stack = malloc(n * sizeof(int));
	w->order = malloc(n * sizeof(int));
	w->cnt = malloc(n * sizeof(int));
	w->work = malloc(n * sizeof(int));
	return w->pv && w->cu && w->state && w->fl && w->pick && w->len &&
	       w->dist && w->stack && w->order && w->cnt && w->work;
}

static int build_adj(struct job *j)
{
	const struct fabric *f = j->f;
	int i, p;

	j->stride = 1;
	for (i = 0; i < j->ns; i++)
		if (j->cur->t[i].node >= 0 &&
		    f->nodes[j->cur->t[i].node].nports >= j->stride)
			j->stride = f->nodes[j->cur->t[i].node].nports + 1;
	j->adj = malloc((size_t)j->ns * (size_t)j->stride * sizeof(int) + 1);
	if (!j->adj)
		return -1;
	for (i = 0; i < j->ns; i++) {
		int n = j->cur->t[i].node, *a = j->adj + (size_t)i * j->stride;

		for (p = 0; p < j->stride; p++) {
			int r = n < 0 || p == 0 || p > f->nodes[n].nports ?
					-1 :
					f->nodes[n].ports[p].rnode;

			a[p] = r < 0 ? -1 :
			       f->nodes[r].type == FAB_SWITCH ?
				       j->cur->by_node[r] :
				       ca_code(r, f->nodes[n].ports[p].rport);
		}
	}
	return 0;
}

int stable_keep_columns(const struct fabric *f, const struct lft_set *prev,
			struct lft_set *cur, const int *rank, long *kept,
			int threads, struct osmre_err *err)
{
	struct job j = { .f = f, .cur = cur, .ns = cur->n };
	struct lid_owner *own = NULL;
	int t, i, rc = -1;

	if (threads <= 0)
		threads = parallel_default_threads();
	if (lids_owners(f, &own, &j.max, err))
		return -1;
	j.own = own;
	j.pt = calloc((size_t)j.ns + 1, sizeof(*j.pt));
	j.rank = rank ? calloc((size_t)j.ns + 1, sizeof(int)) : NULL;
	j.sc = calloc((size_t)threads, sizeof(*j.sc));
	for (t = 0; j.sc && t < threads; t++)
		if (!alloc_scratch(&j.sc[t], j.ns))
			break;
	if (!j.pt || (rank && !j.rank) || !j.sc || t < threads) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	for (i = 0; i < j.ns; i++) {
		j.pt[i] = lft_of_node(prev, cur->t[i].node);
		if (j.rank)
			j.rank[i] =
				cur->t[i].node < 0 ? -1 : rank[cur->t[i].node];
	}
	if (build_adj(&j)) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	parallel_for(threads, (long)j.max / BATCH + 1, one_batch, &j);
	if (kept)
		for (*kept = 0, t = 0; t < threads; t++)
			*kept += j.sc[t].whole;
	rc = 0;
out:
	for (t = 0; j.sc && t < threads; t++)
		free_scratch(&j.sc[t]);
	free(j.sc);
	free(j.pt);
	free(j.rank);
	free(j.adj);
	free(own);
	return rc;
}
