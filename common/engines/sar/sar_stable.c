/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sar's stable re-route, its first phase (sar_int.h): the destination
 * trees of the tables in force that are kept whole, checked tree by tree
 * (sar_keep_trees) or, when only links went away since sar's last pass,
 * taken from that pass's memo without a check (sar_keep_memo,
 * sar_memo.h); and the memo written after each pass (sar_remember).
 * sar.c then routes the other destinations again (route_dest).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "parallel.h"
#include "sar_int.h"

/*
 * A stable re-route's shortcut for one destination LID (g->prev): when
 * every switch's previous port for it still leads over a link of the
 * current topology, those links form a tree towards t, and the tree's
 * depths d (in lexdist weights) satisfy d(u) <= d(v) + w for every link
 * u -> v, then d is the distance to t (a feasible potential that a tree
 * attains) and the tree is one of shortest paths: route_dest would keep
 * every previous port, and this gives the same entries and loads without
 * a search.  A pure loss keeps most trees whole; only those that crossed
 * the change take the general pass.  prow: the previous port of every
 * switch for the LID (sar_keep_trees' transposed tables).  With the distances
 * to t known (dto, or NULL), the check is one comparison per switch: each
 * previous port leads to a switch exactly one link's weight closer;
 * without, a tree that passes leaves them in learn (when not NULL).  1
 * when kept: the tree's loads are added to load[] (per link), and the
 * entries are the previous ones (sar_keep_trees writes them); 2 when, in
 * addition, no switch entered by a link down leaves by a link up
 * (g->up): then every path of the tree goes up, then down, and the
 * layering's up-down test (all_updown) can skip it; 0 when not kept.
 */
static int keep_tree(const struct sar_graph *g, const uint8_t *prow, int t,
		     struct scratch *w, uint64_t *load, const int *dto,
		     int *learn)
{
	int *next = w->next, *hop = w->hop, *st = w->stack, *mark = w->mark;
	int k, e, stamp = ++w->stamp;

	for (k = 0; k < g->sg.nsw; k++) {
		int p = prow[k], l;

		hop[k] = -1;
		next[k] = -1;
		if (k == t)
			continue;
		if (p <= 0 || p > g->sg.nports[k] ||
		    (l = g->sg.link_of[g->sg.chan_first[k] + p]) < 0 ||
		    (dto && dto[k] != dto[g->sg.lto[l]] + lexdist_w(&g->lg, l)))
			return 0;
		next[k] = l;
		if (g->up && !g->up[l]) /* entered by a link down */
			mark[g->sg.lto[l]] = stamp;
	}
	if (!dto) {
		hop[t] = 0;
		for (k = 0; k < g->sg.nsw; k++) {
			int u = k, n = 0;

			while (hop[u] == -1) { /* up the tree to a known one */
				hop[u] = -2;   /* on this walk */
				st[n++] = u;
				u = g->sg.l[next[u]].to;
			}
			if (hop[u] == -2) /* a loop */
				return 0;
			while (n--) {
				int x = st[n], l = next[x];

				hop[x] = hop[g->sg.l[l].to] +
					 lexdist_w(&g->lg, l);
			}
		}
		for (e = 0; e < g->sg.nlink; e++)
			if (hop[g->sg.lfrom[e]] >
			    hop[g->sg.lto[e]] + lexdist_w(&g->lg, e))
				return 0;
		if (learn)
			memcpy(learn, hop, (size_t)g->sg.nsw * sizeof(int));
	}
	/* the loads: each switch's sources along its path to t */
	for (k = 0; k < g->sg.nsw; k++) {
		uint64_t a = w->add[k];
		int u = k;

		if (!a)
			continue;
		while (next[u] >= 0) {
			load[next[u]] += a;
			u = g->sg.lto[next[u]];
		}
	}
	if (!g->up)
		return 1;
	for (k = 0; k < g->sg.nsw; k++)
		if (next[k] >= 0 && g->up[next[k]] && mark[k] == stamp)
			return 1;
	return 2;
}

struct transpose_job {
	const struct sar_graph *g;
	unsigned maxlid;
	uint8_t *T;
};

/* Rows 64 b .. 64 b + 63 of the previous tables transposed. */
static void transpose_block(void *arg, long b, int tid)
{
	struct transpose_job *j = arg;
	const struct sar_graph *g = j->g;
	size_t nsw = (size_t)g->sg.nsw, k;
	unsigned lb = (unsigned)b * 64, lid, end;

	(void)tid;
	for (k = 0; k < nsw; k++) {
		const struct lft *pt = g->ptab[k];

		if (!pt || lb > pt->top)
			continue;
		end = lb + 63 < pt->top ? lb + 63 : pt->top;
		if (end > j->maxlid)
			end = j->maxlid;
		for (lid = lb; lid <= end; lid++)
			j->T[(size_t)lid * nsw + k] = pt->port[lid];
	}
}

/* The previous tables transposed: row lid holds every switch's port for
 * it (0: none), so that a tree is read from one row; 64 LIDs at a time,
 * the blocks shared among th threads. */
static uint8_t *prev_by_lid(const struct sar_graph *g, unsigned maxlid, int th)
{
	struct transpose_job j = { g, maxlid, NULL };

	j.T = calloc(((size_t)maxlid + 1) * (size_t)g->sg.nsw + 1, 1);
	if (j.T)
		parallel_for(th, (long)maxlid / 64 + 1, transpose_block, &j);
	return j.T;
}

/* Switch k's table in force (*pt) and in s (*tb), and the last LID of
 * both that sar routes (0: either missing). */
static unsigned table_pair(const struct sar_work *sw, struct lft_set *s, int k,
			   const struct lft **pt, struct lft **tb)
{
	unsigned top;

	*pt = sw->g.ptab[k];
	*tb = lft_of_node(s, sw->g.sg.node[k]);
	if (!*pt || !*tb)
		return 0;
	top = (*pt)->top < (*tb)->top ? (*pt)->top : (*tb)->top;
	return top < sw->maxlid ? top : sw->maxlid;
}

/* Per LID, the destination (index into sw->d) it is a LID of, -1. */
static void lid_dests(const struct sar_work *sw, int *dest_of)
{
	unsigned lid, i;
	int k;

	for (lid = 0; lid <= sw->maxlid; lid++)
		dest_of[lid] = -1;
	for (k = 0; k < sw->nd; k++) {
		unsigned base =
			sw->f->nodes[sw->d[k].node].ports[sw->d[k].port].lid;

		for (i = 0; i < dest_nlids(sw, k); i++)
			if (base + i <= sw->maxlid)
				dest_of[base + i] = k;
	}
}

/* One thread's share of sar_keep_trees: its buffers, and the loads of the
 * trees it kept, per link (added to the links once all are checked). */
struct keep_part {
	struct scratch w; /* add, next, hop, stack, dist_to */
	uint64_t *load;
};

struct keep_job {
	struct sar_work *sw;
	int **job_on;
	const uint8_t *T; /* the previous tables transposed */
	const int *first; /* switch t's LIDs: by_t[first[t] .. first[t+1]) */
	const unsigned *by_t;
	const int *dest_of;
	uint8_t *kept;
	int **known_dist;	/* graph.known_dist */
	struct keep_part *part; /* per thread */
};

/* sar_keep_trees for the LIDs of switch t, on thread tid's buffers. */
static void keep_switch(void *arg, long t, int tid)
{
	struct keep_job *j = arg;
	const struct sar_work *sw = j->sw;
	const struct sar_graph *g = &sw->g;
	struct keep_part *pt = &j->part[tid];
	int *d = pt->w.dist_to, known = 0, failed = 0, weighs = -1, k;
	int i;

	for (i = j->first[t]; i < j->first[t + 1]; i++) {
		unsigned lid = j->by_t[i];

		k = j->dest_of[lid];
		if (k != weighs) {
			dest_weights(sw, k, j->job_on, pt->w.add);
			weighs = k;
		}
		j->kept[lid] = (uint8_t)keep_tree(
			g, j->T + (size_t)lid * (size_t)g->sg.nsw, (int)t,
			&pt->w, pt->load, known ? d : NULL, known ? NULL : d);
		known |= j->kept[lid] > 0; /* learnt from the first tree kept */
		failed |= !j->kept[lid];
	}
	/* for the LIDs of t routed again (without it: a search) */
	if (known && failed && !g->lw) {
		int *c = malloc((size_t)g->sg.nsw * sizeof(int));

		if (c)
			memcpy(c, d, (size_t)g->sg.nsw * sizeof(int));
		j->known_dist[t] = c;
	}
}

static void keep_parts_free(struct keep_part *part, int n)
{
	int i;

	for (i = 0; part && i < n; i++) {
		free(part[i].w.add);
		free(part[i].w.next);
		free(part[i].w.hop);
		free(part[i].w.stack);
		free(part[i].w.dist_to);
		free(part[i].w.mark);
		free(part[i].load);
	}
	free(part);
}

/* Buffers for n threads; NULL when out of memory. */
static struct keep_part *keep_parts_new(const struct sar_graph *g, int n)
{
	struct keep_part *part = calloc((size_t)n, sizeof(*part));
	size_t m = (size_t)g->sg.nsw + 1;
	int i;

	for (i = 0; part && i < n; i++) {
		struct keep_part *p = &part[i];

		p->w.add = malloc(m * sizeof(*p->w.add));
		p->w.next = malloc(m * sizeof(int));
		p->w.hop = malloc(m * sizeof(int));
		p->w.stack = malloc((m + 1) * sizeof(int));
		p->w.dist_to = malloc(m * sizeof(int));
		p->w.mark = calloc(m, sizeof(int));
		p->load = calloc((size_t)g->sg.nlink + 1, sizeof(*p->load));
		if (!p->w.add || !p->w.next || !p->w.hop || !p->w.stack ||
		    !p->w.dist_to || !p->w.mark || !p->load) {
			keep_parts_free(part, i + 1);
			return NULL;
		}
	}
	return part;
}

/*
 * A stable re-route's first phase: every destination LID whose previous
 * tree stays whole (keep_tree), by switch (its distances stay at hand),
 * from the previous tables transposed; kept[lid] set, and then the
 * entries of the kept LIDs copied table by table.  The distances to a
 * switch with several destination LIDs are learnt once, from its first
 * tree that passes (a tree that fails is not kept either way), so that
 * the other trees of that switch are checked a switch at a time.
 * Whether a tree stays does not depend on the loads, so the routes kept
 * all weigh before any destination is routed again.  kept[lid]: 0, or
 * keep_tree's answer (2: its paths known to go up, then down).  The
 * switches are shared among threads, each adding the loads of its trees
 * on its own; their sums are the same whatever thread took which switch.
 */
int sar_keep_trees(struct sar_work *sw, struct lft_set *s, int **job_on,
		   uint8_t *kept)
{
	struct sar_graph *g = &sw->g;
	int nsw = g->sg.nsw;
	int *first = calloc((size_t)nsw + 2, sizeof(int));
	int *dest_of = malloc(((size_t)sw->maxlid + 1) * sizeof(int));
	unsigned *by_t = malloc(((size_t)sw->maxlid + 1) * sizeof(unsigned));
	int th = sar_threads(sw, nsw), k, t, last, e, rc = -1;
	uint8_t *T = prev_by_lid(g, sw->maxlid, th);
	struct keep_part *part = keep_parts_new(g, th);
	struct keep_job job;
	unsigned lid;

	if (!first || !dest_of || !by_t || !T || !part)
		goto out;
	lid_dests(sw, dest_of);
	for (lid = 1; lid <= sw->maxlid; lid++)
		if ((k = dest_of[lid]) >= 0) {
			dest_target(sw, k, &t, &last);
			first[t + 2]++;
		}
	/* the LIDs by switch (a counting sort), each switch's in order:
	 * then switch t's are by_t[first[t] .. first[t + 1]) */
	for (t = 0; t < nsw; t++)
		first[t + 2] += first[t + 1];
	for (lid = 1; lid <= sw->maxlid; lid++)
		if ((k = dest_of[lid]) >= 0) {
			dest_target(sw, k, &t, &last);
			by_t[first[t + 1]++] = lid;
		}
	g->known_dist = calloc((size_t)nsw + 1, sizeof(int *));
	if (!g->known_dist)
		goto out;
	job = (struct keep_job){ sw,   job_on,	      T,   first, by_t, dest_of,
				 kept, g->known_dist, part };
	parallel_for(th, nsw, keep_switch, &job);
	for (k = 0; k < th; k++)
		for (e = 0; e < g->sg.nlink; e++)
			g->load[e] += part[k].load[e];
	/* the kept entries, table by table: the previous ports, and on the
	 * destination's own switch the port to it */
	for (k = 0; k < nsw; k++) {
		const struct lft *pt;
		struct lft *tb;
		unsigned top = table_pair(sw, s, k, &pt, &tb);

		for (lid = 1; lid <= top; lid++)
			if (kept[lid])
				tb->port[lid] = pt->port[lid];
	}
	for (lid = 1; lid <= sw->maxlid; lid++) {
		struct lft *tb;

		if (!kept[lid])
			continue;
		dest_target(sw, dest_of[lid], &t, &last);
		tb = lft_of_node(s, g->sg.node[t]);
		if (tb && lid <= tb->top)
			tb->port[lid] = (uint8_t)last;
	}
	rc = 0;
out:
	keep_parts_free(part, th);
	free(first);
	free(dest_of);
	free(by_t);
	free(T);
	return rc;
}

/* sar's graph as the memo sees it (sar_memo.h); guid: nsw entries. */
static void links_view(const struct sar_graph *g, uint64_t *guid,
		       struct sar_links *v)
{
	int k;

	for (k = 0; k < g->sg.nsw; k++)
		guid[k] = g->f->nodes[g->sg.node[k]].guid;
	*v = (struct sar_links){ .nsw = g->sg.nsw,
				 .node = g->sg.node,
				 .guid = guid,
				 .nports = g->sg.nports,
				 .chan_first = g->sg.chan_first,
				 .nchan = g->sg.nchan,
				 .link_of = g->sg.link_of,
				 .nlink = g->sg.nlink,
				 .l = g->sg.l,
				 .up = g->up };
}

#define MEMO_BROKEN   (-3)	 /* memo_depths: a path that crossed */
#define MEMO_B_MAX    256	 /* switches whose path crossed, at most */
#define MEMO_ROWS_MAX (64 << 20) /* bytes of the crossed trees' rows */

/*
 * The distances to t in hops, for a tree of the memo's pass (row: every
 * switch's previous port): a switch whose path is all there is at its
 * depth (exact: see sar_keep_memo); the others (whose path crossed a lost
 * link, at most MEMO_B_MAX of them) from their links, by relaxation from
 * the others.  d, st, b: nsw ints each.  0, or -1 (too many crossed, or
 * one cut off: a search then).
 */
static int memo_depths(const struct sar_graph *g, const uint8_t *row, int t,
		       int *d, int *st, int *b)
{
	int nsw = g->sg.nsw, k, nb = 0, changed = 1, i, p;

	for (k = 0; k < nsw; k++)
		d[k] = -1;
	d[t] = 0;
	for (k = 0; k < nsw; k++) {
		int u = k, n = 0, base, l;

		while (d[u] == -1) {
			if (n == nsw)
				return -1; /* a loop: not the memo's */
			st[n++] = u;
			p = row[u];
			l = p >= 1 && p <= g->sg.nports[u] ?
				    g->sg.link_of[g->sg.chan_first[u] + p] :
				    -1;
			if (l < 0)
				break;
			u = g->sg.lto[l];
		}
		base = d[u] == -1 ? MEMO_BROKEN : d[u];
		while (n--) {
			if (base == MEMO_BROKEN) {
				d[st[n]] = MEMO_BROKEN;
				if (nb == MEMO_B_MAX)
					return -1;
				b[nb++] = st[n];
			} else {
				d[st[n]] = ++base;
			}
		}
	}
	for (i = 0; i < nb; i++)
		d[b[i]] = INT_MAX;
	while (changed) {
		changed = 0;
		for (i = 0; i < nb; i++) {
			int u = b[i];

			for (p = 1; p <= g->sg.nports[u]; p++) {
				int l = g->sg.link_of[g->sg.chan_first[u] + p],
				    v;

				if (l < 0)
					continue;
				v = g->sg.lto[l];
				if (d[v] != INT_MAX && d[v] + 1 < d[u]) {
					d[u] = d[v] + 1;
					changed = 1;
				}
			}
		}
	}
	for (i = 0; i < nb; i++)
		if (d[b[i]] == INT_MAX)
			return -1;
	return 0;
}

/*
 * sar_keep_trees from the last pass's memo (sar_memo.h), when it applies:
 * only switch links went away, so a tree is kept unless one of its
 * switches' previous port is a lost link (its paths are all there, and
 * no shorter ones appeared), and the loads of the trees kept are the
 * memo's less those of the trees that crossed a lost link, walked on
 * the previous tables (over the lost links too: the memo knows where
 * they led).  The same kept[], loads and entries as sar_keep_trees: a tree
 * kept is one of shortest paths there as well, and one that crosses a
 * lost link fails its check.  The trees that crossed get their rows of
 * the previous tables (sw->brow, read by route_dest), and their switch
 * its distances from the row of its first such tree (memo_depths),
 * without a search (exact distances: the same order of switches as
 * route_dest's after a search).  1 when it applied, 0 when not (nothing
 * changed: sar_keep_trees then), -1 when out of memory.
 */
int sar_keep_memo(struct sar_work *sw, struct lft_set *s, int **job_on,
		  uint8_t *kept)
{
	struct sar_graph *g = &sw->g;
	int nsw = g->sg.nsw, th = sar_threads(sw, nsw), nlost = 0, all_ud = 0;
	int *mlink = malloc(((size_t)g->sg.nlink + 1) * sizeof(int));
	int *lost_to = malloc(((size_t)g->sg.nchan + 1) * sizeof(int));
	int *dest_of = malloc(((size_t)sw->maxlid + 1) * sizeof(int));
	uint64_t *guid = malloc(((size_t)nsw + 1) * sizeof(uint64_t));
	int *brow_of = malloc(((size_t)sw->maxlid + 1) * sizeof(int));
	unsigned *blid = malloc(((size_t)sw->maxlid + 1) * sizeof(unsigned));
	unsigned *hole = malloc(((size_t)sw->maxlid + 1) * sizeof(unsigned));
	uint8_t *row = malloc((size_t)sw->maxlid + (size_t)nsw + 1);
	int *first_broken = malloc(((size_t)nsw + 1) * sizeof(int));
	int *b = malloc(((size_t)nsw + 1) * sizeof(int));
	uint8_t *brow = NULL;
	struct swlink *lost = NULL;
	const uint64_t *mload;
	struct sar_links v;
	int rc = -1, i, k, e, t, last, weighs = -1, nhole = 0, nb = 0;
	unsigned lid;

	if (!mlink || !lost_to || !dest_of || !guid || !brow_of || !blid ||
	    !hole || !row || !first_broken || !b)
		goto out;
	links_view(g, guid, &v);
	rc = sar_memo_match(sw->o->memo, &v, sw->weights, g->prev, th, mlink,
			    &lost, &nlost, &all_ud);
	if (rc <= 0)
		goto out;
	rc = 0;
	if (!all_ud || g->lw)
		goto out;
	for (i = 0; i < g->sg.nchan; i++)
		lost_to[i] = -1;
	for (i = 0; i < nlost; i++)
		lost_to[g->sg.chan_first[lost[i].from] + lost[i].port] =
			lost[i].to;
	/* the trees that cross a lost link */
	for (lid = 0; lid <= sw->maxlid; lid++)
		brow_of[lid] = -1;
	for (i = 0; i < nlost; i++) {
		const struct lft *pt = g->ptab[lost[i].from];
		unsigned top = pt ? pt->top : 0;

		for (lid = 1; lid <= top && lid <= sw->maxlid; lid++)
			if (pt->port[lid] == lost[i].port)
				brow_of[lid] = 0;
	}
	lid_dests(sw, dest_of);
	for (k = 0; k < nsw; k++)
		first_broken[k] = -1;
	for (lid = 1; lid <= sw->maxlid; lid++) {
		if ((k = dest_of[lid]) < 0) {
			brow_of[lid] = -1;
			hole[nhole++] = lid;
			continue;
		}
		dest_target(sw, k, &t, &last);
		if (brow_of[lid] < 0) {
			kept[lid] = 2; /* the memo's pass: all up, then down */
			continue;
		}
		if (first_broken[t] < 0)
			first_broken[t] = (int)lid;
		brow_of[lid] = nb;
		blid[nb++] = lid;
	}
	if ((size_t)nb * (size_t)nsw > MEMO_ROWS_MAX) {
		memset(kept, 0, (size_t)sw->maxlid + 1);
		goto out; /* most trees crossed: sar_keep_trees */
	}
	/* their rows, table by table */
	brow = malloc((size_t)nb * (size_t)nsw + 1);
	if (!brow) {
		rc = -1;
		goto out;
	}
	for (k = 0; k < nsw; k++) {
		const struct lft *pt = g->ptab[k];

		for (i = 0; i < nb; i++)
			brow[(size_t)i * nsw + k] = pt && blid[i] <= pt->top ?
							    pt->port[blid[i]] :
							    0;
	}
	mload = sar_memo_loads(sw->o->memo);
	for (e = 0; e < g->sg.nlink; e++)
		g->load[e] = mload[mlink[e]];
	/* the loads of the trees that crossed: off, from every source
	 * switch along its previous path */
	for (i = 0; i < nb; i++) {
		const uint8_t *r = brow + (size_t)i * nsw;

		k = dest_of[blid[i]];
		dest_target(sw, k, &t, &last);
		if (k != weighs) {
			dest_weights(sw, k, job_on, sw->w.add);
			weighs = k;
		}
		for (e = 0; e < nsw; e++) {
			uint64_t a = sw->w.add[e];
			int u = e, n = 0;

			while (a && u != t) {
				int p = r[u], c = g->sg.chan_first[u] + p, l;

				if (p <= 0 || p > g->sg.nports[u] || n++ > nsw)
					goto inconsistent;
				l = g->sg.link_of[c];
				if (l < 0) {
					if (lost_to[c] < 0)
						goto inconsistent;
					u = lost_to[c];
					continue;
				}
				if (g->load[l] < a)
					goto inconsistent;
				g->load[l] -= a;
				u = g->sg.lto[l];
			}
		}
	}
	/* the entries kept, whole tables (those of the trees that crossed
	 * are all routed again), but for the LIDs of no destination */
	for (k = 0; k < nsw; k++) {
		const struct lft *pt;
		struct lft *tb;
		unsigned top = table_pair(sw, s, k, &pt, &tb);

		if (!top)
			continue;
		for (i = 0; i < nhole && hole[i] <= top; i++)
			row[i] = tb->port[hole[i]];
		memcpy(tb->port + 1, pt->port + 1, top);
		for (i = 0; i < nhole && hole[i] <= top; i++)
			tb->port[hole[i]] = row[i];
	}
	/* the distances to each switch with trees that crossed */
	g->known_dist = calloc((size_t)nsw + 1, sizeof(int *));
	if (!g->known_dist) {
		rc = -1;
		goto out;
	}
	for (t = 0; t < nsw; t++) {
		const uint8_t *r;
		int *d;

		if (first_broken[t] < 0)
			continue;
		r = brow + (size_t)brow_of[first_broken[t]] * nsw;
		d = malloc((size_t)nsw * sizeof(int));
		if (d && memo_depths(g, r, t, d, sw->w.stack, b)) {
			free(d); /* a search then */
			d = NULL;
		}
		g->known_dist[t] = d;
	}
	sw->memo_lost = nlost;
	sw->brow = brow;
	sw->brow_of = brow_of;
	brow = NULL;
	brow_of = NULL;
	rc = 1;
	goto out;
inconsistent:
	/* not the memo's pass after all: from scratch */
	for (e = 0; e < g->sg.nlink; e++)
		g->load[e] = 0;
	memset(kept, 0, (size_t)sw->maxlid + 1);
	rc = 0;
out:
	free(mlink);
	free(lost_to);
	free(dest_of);
	free(guid);
	free(brow_of);
	free(blid);
	free(hole);
	free(row);
	free(first_broken);
	free(b);
	free(brow);
	free(lost);
	return rc;
}

/* What the loads' weights depend on (sar_memo.h): the destinations in
 * order (GUID, port, LIDs, job), the CA ports and jobs per switch. */
uint64_t sar_weights_digest(const struct sar_work *sw)
{
	uint64_t h = sar_memo_key(sw->o->memo), x[5];
	int k;

	for (k = 0; k < sw->nd; k++) {
		const struct fab_node *n = &sw->f->nodes[sw->d[k].node];

		x[0] = n->guid;
		x[1] = (uint64_t)sw->d[k].port;
		x[2] = n->ports[sw->d[k].port].lid;
		x[3] = dest_nlids(sw, k);
		x[4] = (uint64_t)(int64_t)sw->d[k].job;
		h = sar_memo_hash(h, x, sizeof(x));
	}
	h = sar_memo_hash(h, sw->ncas_on, (size_t)sw->g.sg.nsw * sizeof(int));
	for (k = 0; k < sw->njobs; k++)
		h = sar_memo_hash(h, sw->job_on[k],
				  (size_t)sw->g.sg.nsw * sizeof(int));
	x[0] = (uint64_t)sw->nd;
	x[1] = sw->maxlid;
	x[2] = (uint64_t)sw->njobs;
	x[3] = (uint64_t)sw->g.base_only;
	x[4] = (uint64_t)sw->g.convex;
	return sar_memo_hash(h, x, sizeof(x));
}

/*
 * The pass into the memo (sar_memo.h) when its loads are those of its
 * tables (ok: routed, no variant chosen after route_all) and its paths
 * all go up, then down on hop distances (then a tree that crosses no
 * lost link stays one of shortest paths, up-down); else the memo
 * forgets.  (Out of memory, it forgets too: the next pass checks every
 * tree.)
 */
void sar_remember(const struct sar_work *sw, const struct lft_set *s, int ok)
{
	const struct sar_graph *g = &sw->g;
	uint64_t *guid = NULL;
	struct sar_links v;

	if (!ok || !sw->all_ud || g->lw || !g->up || !g->sg.nsw ||
	    !(guid = malloc((size_t)g->sg.nsw * sizeof(*guid)))) {
		sar_memo_clear(sw->o->memo);
		return;
	}
	links_view(g, guid, &v);
	(void)sar_memo_save(sw->o->memo, &v, g->load, sw->weights, s, 1,
			    sar_threads(sw, g->sg.nsw));
	free(guid);
}
