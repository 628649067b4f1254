/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdlib.h>
#include <string.h>

#include "efipolish.h"
#include "lexdist.h"
#include "risk.h"
#include "swgraph.h"

#define NOLINK (-1)

struct pdest {
	unsigned lid;
	int leaf, job; /* compact switch, job */
};

struct polish {
	const struct fabric *f;
	struct lft_set *s;
	/* the switches and links (swgraph.h), as sar's: links are numbered
	 * switch by switch, so those out of k are sg.out_first[k] .. */
	const struct swgraph *sg; /* swgraph_groups done */
	long *gam;
	/* per job: the switches of its hosts, with their counts */
	int *jl_first, *jl_sw;
	long *jl_cnt;
	struct pdest *d;
	int nd;
	/* distances (lexdist.h, as sar's) */
	int *lw;
	struct lexgraph lg;
	struct lexheap heap;
	/* per trial */
	int *dist, *order;
	long *bott, *flow;
	int *stamp, trial;
	long *old_gam;
	int *touched, ntouched;
	/* per link: destination LIDs whose tree (from every switch with CA
	 * ports) crosses it, and its cap: the start's largest count among
	 * the links out of the same switch */
	long *dcount, *dcap;
	int *srcsw, nsrcsw; /* the switches with CA ports */
	int *dmark, dtrial;
	/* per switch: the base LIDs of its CA ports, a job's destination
	 * (index into d) or not (-1) */
	int *lf_first;
	unsigned *lf_lid;
	int *lf_dest;
	struct lft **rtab; /* entries changed, to restore */
	uint8_t *rport;
	int nrest;
	long max, cnt;
	struct risk_guard *guard; /* NULL: none */
};

/* The distances' view of the graph (weighted as sar's). */
static int build_dist(struct polish *P)
{
	return lexdist_swgraph(P->sg, &P->lw, &P->lg, &P->heap);
}

/* The jobs' destinations and, per job, its hosts' switches counted. */
static int build_jobs(struct polish *P, const struct jobs *j)
{
	const struct fabric *f = P->f;
	int job, i, k, n = 0;
	long *cnt = calloc((size_t)P->sg->nsw + 1, sizeof(long));

	P->jl_first = malloc(((size_t)j->njobs + 1) * sizeof(int));
	P->jl_sw = malloc(((size_t)j->nhosts + 1) * sizeof(int));
	P->jl_cnt = malloc(((size_t)j->nhosts + 1) * sizeof(long));
	P->d = malloc(((size_t)j->nhosts + 1) * sizeof(*P->d));
	if (!cnt || !P->jl_first || !P->jl_sw || !P->jl_cnt || !P->d) {
		free(cnt);
		return -1;
	}
	for (job = 0; job < j->njobs; job++) {
		P->jl_first[job] = n;
		for (i = 0; i < j->count[job]; i++) {
			const struct fab_node *h =
				&f->nodes[j->node[j->first[job] + i]];
			int fp = jobs_host_port(h), leaf;

			if (!fp || (leaf = P->sg->idx[h->ports[fp].rnode]) < 0)
				continue;
			P->d[P->nd++] =
				(struct pdest){ h->ports[fp].lid, leaf, job };
			if (!cnt[leaf]++)
				P->jl_sw[n++] = leaf;
		}
		for (k = P->jl_first[job]; k < n; k++) {
			P->jl_cnt[k] = cnt[P->jl_sw[k]];
			cnt[P->jl_sw[k]] = 0;
		}
	}
	P->jl_first[j->njobs] = n;
	free(cnt);
	return 0;
}

/* The switches with linked CA ports with a LID. */
static int build_sources(struct polish *P)
{
	const struct fabric *f = P->f;
	int k, p;

	P->srcsw = malloc(((size_t)P->sg->nsw + 1) * sizeof(int));
	if (!P->srcsw)
		return -1;
	for (k = 0; k < P->sg->nsw; k++) {
		const struct fab_node *nd = &f->nodes[P->sg->node[k]];

		for (p = 1; p <= nd->nports; p++) {
			int r = nd->ports[p].rnode;

			if (r >= 0 && f->nodes[r].type != FAB_SWITCH &&
			    f->nodes[r].ports[nd->ports[p].rport].lid) {
				P->srcsw[P->nsrcsw++] = k;
				break;
			}
		}
	}
	return 0;
}

/* The link switch k takes to lid, or NOLINK. */
static int next_link(const struct polish *P, int k, unsigned lid)
{
	const struct lft *t = lft_of_node(P->s, P->sg->node[k]);
	int p = t ? lft_get(t, lid) : LFT_NONE;

	if (p == LFT_NONE || p > P->f->nodes[P->sg->node[k]].nports)
		return NOLINK;
	return P->sg->link_of[P->sg->chan_first[k] + p];
}

static void note_link(struct polish *P, int l)
{
	if (P->stamp[l] != P->trial) {
		P->stamp[l] = P->trial;
		P->old_gam[l] = P->gam[l];
		P->touched[P->ntouched++] = l;
	}
}

/*
 * Adds sign times destination d's routes to the counts (sign 0: only
 * looks); returns whether a link at the maximum is on them.
 */
static int contrib(struct polish *P, const struct pdest *d, int sign)
{
	int k, at_max = 0;

	if (d->job < 0)
		return 0;
	for (k = P->jl_first[d->job]; k < P->jl_first[d->job + 1]; k++) {
		int u = P->jl_sw[k], hops = 0, l;

		if (u == d->leaf)
			continue;
		while (u != d->leaf && hops++ < P->sg->nsw &&
		       (l = next_link(P, u, d->lid)) != NOLINK) {
			at_max |= P->gam[l] == P->max;
			if (sign) {
				note_link(P, l);
				P->gam[l] += sign * P->jl_cnt[k];
			}
			u = P->sg->l[l].to;
		}
	}
	return at_max;
}

static void set_port(struct polish *P, int k, unsigned lid, int port)
{
	struct lft *t = lft_of_node(P->s, P->sg->node[k]);

	if (!t || lid > t->top || t->port[lid] == port)
		return;
	P->rtab[P->nrest] = t;
	P->rport[P->nrest++] = t->port[lid];
	t->port[lid] = (uint8_t)port;
}

/* Link l out of v leads closer to the destination on a shortest path. */
static int closer(const struct polish *P, int v, int l)
{
	int to = P->sg->l[l].to;

	return P->dist[to] >= 0 &&
	       P->dist[v] == P->dist[to] + lexdist_w(&P->lg, l);
}

/* The best bottleneck from switch w on when x more routes go through it:
 * its links one hop closer with x added, then the bottleneck beyond. */
static long lookahead(const struct polish *P, int w, int leaf, long x)
{
	long best = -1;
	int e;

	if (w == leaf)
		return 0;
	for (e = P->sg->out_first[w]; e < P->sg->out_first[w + 1]; e++) {
		const struct swlink *lk = &P->sg->l[e];
		long b;

		if (!closer(P, w, e))
			continue;
		b = P->gam[e] + x;
		if (P->bott[lk->to] > b)
			b = P->bott[lk->to];
		if (best < 0 || b < best)
			best = b;
	}
	return best;
}

/*
 * Adds sign to the destination count of every link of d's tree (the
 * paths from every switch with CA ports); with check, returns 1 when a
 * link would go over its cap.
 */
static int tree_count(struct polish *P, const struct pdest *d, int sign,
		      int check)
{
	int k, over = 0;

	P->dtrial++;
	for (k = 0; k < P->nsrcsw; k++) {
		int u = P->srcsw[k], hops = 0, l;

		while (u != d->leaf && hops++ < P->sg->nsw &&
		       (l = next_link(P, u, d->lid)) != NOLINK &&
		       P->dmark[l] != P->dtrial) {
			P->dmark[l] = P->dtrial;
			P->dcount[l] += sign;
			over |= check && P->dcount[l] > P->dcap[l];
			u = P->sg->l[l].to;
		}
	}
	return over;
}

/* d's tree of shortest paths chosen again against the counts (header). */
static void reroute(struct polish *P, const struct pdest *d)
{
	int n, k, e;

	for (k = 0; k < P->sg->nsw; k++)
		P->flow[k] = 0;
	n = lexdist_to(&P->lg, &P->heap, d->leaf, P->dist, P->order);
	P->bott[d->leaf] = 0;
	for (k = 1; k < n; k++) { /* bottlenecks, nearest first */
		int v = P->order[k];
		long best = -1;

		for (e = P->sg->out_first[v]; e < P->sg->out_first[v + 1];
		     e++) {
			const struct swlink *lk = &P->sg->l[e];
			long b;

			if (!closer(P, v, e))
				continue;
			b = P->gam[e];
			if (P->bott[lk->to] > b)
				b = P->bott[lk->to];
			if (best < 0 || b < best)
				best = b;
		}
		P->bott[v] = best;
	}
	for (k = P->jl_first[d->job]; k < P->jl_first[d->job + 1]; k++)
		if (P->jl_sw[k] != d->leaf && P->dist[P->jl_sw[k]] > 0)
			P->flow[P->jl_sw[k]] = P->jl_cnt[k];
	for (k = n - 1; k > 0; k--) { /* farthest first */
		int v = P->order[k], cur = next_link(P, v, d->lid), pick = -1;
		long pk1 = 0, pk2 = 0;

		if (!P->flow[v])
			continue;
		for (e = P->sg->out_first[v]; e < P->sg->out_first[v + 1];
		     e++) {
			int l = e;
			long k2, k1;

			if (!closer(P, v, l))
				continue;
			k2 = P->gam[l] + P->flow[v];
			k1 = lookahead(P, P->sg->l[l].to, d->leaf,
				       P->flow[P->sg->l[l].to] + P->flow[v]);
			if (k2 > k1)
				k1 = k2;
			if (pick < 0 || k1 < pk1 || (k1 == pk1 && k2 < pk2) ||
			    (k1 == pk1 && k2 == pk2 && l == cur)) {
				pick = l;
				pk1 = k1;
				pk2 = k2;
			}
		}
		if (pick < 0)
			continue;
		set_port(P, v, d->lid, P->sg->l[pick].port);
		P->flow[P->sg->l[pick].to] += P->flow[v];
	}
}

/* The maximum and how many links carry it, after a trial changed the
 * touched links only; *dsq: the change of the sum of squares. */
static void objective(const struct polish *P, long *max, long *cnt,
		      long long *dsq)
{
	long m = P->max, c = P->cnt, tm = -1, tc = 0;
	int i, l;

	*dsq = 0;
	for (i = 0; i < P->ntouched; i++) {
		long o, g;

		l = P->touched[i];
		o = P->old_gam[l];
		g = P->gam[l];
		*dsq += (long long)g * g - (long long)o * o;
		c -= o == m;
		if (g > tm) {
			tm = g;
			tc = 0;
		}
		tc += g == tm;
	}
	if (tm > m || (tm == m && c == 0)) {
		*max = tm;
		*cnt = tc;
	} else if (tm == m) {
		*max = m;
		*cnt = c + tc;
	} else if (c > 0) {
		*max = m;
		*cnt = c;
	} else { /* the maximum went down: count again */
		*max = -1;
		*cnt = 0;
		for (l = 0; l < P->sg->nlink; l++) {
			if (P->gam[l] > *max) {
				*max = P->gam[l];
				*cnt = 0;
			}
			*cnt += P->gam[l] == *max;
		}
	}
}

static void recount(struct polish *P)
{
	int l;

	P->max = 0;
	P->cnt = 0;
	for (l = 0; l < P->sg->nlink; l++) {
		if (P->gam[l] > P->max) {
			P->max = P->gam[l];
			P->cnt = 0;
		}
		P->cnt += P->gam[l] == P->max;
	}
}

/* Destination lid's routes out of (-1) or into (1) the guard's counts. */
static void guard_dest(struct polish *P, unsigned lid, int sign)
{
	if (P->guard)
		risk_guard_dest(P->guard, lid, sign);
}

/* 1 when a route put back since the last question broke a risk. */
static int guard_over(struct polish *P)
{
	int over = P->guard && risk_guard_over(P->guard);

	if (P->guard)
		risk_guard_clear(P->guard);
	return over;
}

/* One destination re-routed; 1 when kept. */
static int try_dest(struct polish *P, const struct pdest *d)
{
	long m, c;
	long long dsq;
	int i, over;

	P->trial++;
	P->ntouched = 0;
	P->nrest = 0;
	contrib(P, d, -1);
	tree_count(P, d, -1, 0);
	guard_dest(P, d->lid, -1);
	reroute(P, d);
	if (!P->nrest) { /* the same tree */
		contrib(P, d, 1);
		tree_count(P, d, 1, 0);
		guard_dest(P, d->lid, 1);
		guard_over(P);
		return 0;
	}
	contrib(P, d, 1);
	over = tree_count(P, d, 1, 1);
	guard_dest(P, d->lid, 1);
	over |= guard_over(P);
	objective(P, &m, &c, &dsq);
	if (!over && (m < P->max || (m == P->max && c < P->cnt) ||
		      (m == P->max && c == P->cnt && dsq < 0))) {
		P->max = m;
		P->cnt = c;
		return 1;
	}
	contrib(P, d, -1);
	tree_count(P, d, -1, 0);
	guard_dest(P, d->lid, -1);
	for (i = P->nrest - 1; i >= 0; i--)
		P->rtab[i]->port[d->lid] = P->rport[i];
	contrib(P, d, 1);
	tree_count(P, d, 1, 0);
	guard_dest(P, d->lid, 1);
	guard_over(P);
	return 0;
}

/* Per switch, the base LIDs of its CA ports (the swap partners). */
static int build_leaf_lids(struct polish *P)
{
	const struct fabric *f = P->f;
	int k, p, n = 0, i, *dl;
	unsigned top = 0;

	P->lf_first = calloc((size_t)P->sg->nsw + 2, sizeof(int));
	if (!P->lf_first)
		return -1;
	for (k = 0; k < P->sg->nsw; k++) {
		const struct fab_node *nd = &f->nodes[P->sg->node[k]];

		P->lf_first[k] = n;
		for (p = 1; p <= nd->nports; p++) {
			int r = nd->ports[p].rnode;

			n += r >= 0 && f->nodes[r].type != FAB_SWITCH &&
			     f->nodes[r].ports[nd->ports[p].rport].lid;
		}
	}
	P->lf_first[P->sg->nsw] = n;
	P->lf_lid = malloc(((size_t)n + 1) * sizeof(unsigned));
	P->lf_dest = malloc(((size_t)n + 1) * sizeof(int));
	if (!P->lf_lid || !P->lf_dest)
		return -1;
	for (n = 0, k = 0; k < P->sg->nsw; k++) {
		const struct fab_node *nd = &f->nodes[P->sg->node[k]];

		for (p = 1; p <= nd->nports; p++) {
			int r = nd->ports[p].rnode;

			if (r < 0 || f->nodes[r].type == FAB_SWITCH ||
			    !f->nodes[r].ports[nd->ports[p].rport].lid)
				continue;
			P->lf_lid[n] =
				f->nodes[r].ports[nd->ports[p].rport].lid;
			P->lf_dest[n++] = -1;
		}
	}
	/* a job's destination: its index in d, through a LID map */
	for (i = 0; i < P->nd; i++)
		if (P->d[i].lid > top)
			top = P->d[i].lid;
	dl = malloc(((size_t)top + 1) * sizeof(int));
	if (!dl)
		return -1;
	for (i = 0; i <= (int)top; i++)
		dl[i] = -1;
	for (i = 0; i < P->nd; i++)
		dl[P->d[i].lid] = i;
	for (i = 0; i < n; i++)
		if (P->lf_lid[i] <= top)
			P->lf_dest[i] = dl[P->lf_lid[i]];
	free(dl);
	return 0;
}

/* Exchanges the entries of a and b at every switch but their own. */
static void swap_entries(struct polish *P, unsigned a, unsigned b, int leaf)
{
	int k;

	for (k = 0; k < P->sg->nsw; k++) {
		struct lft *t = lft_of_node(P->s, P->sg->node[k]);
		uint8_t x;

		if (k == leaf || !t || a > t->top || b > t->top)
			continue;
		x = t->port[a];
		t->port[a] = t->port[b];
		t->port[b] = x;
	}
}

/* d's and o's trees exchanged (again: undone), their counts and the
 * guard's moved with them. */
static void exchange(struct polish *P, const struct pdest *d,
		     const struct pdest *o)
{
	contrib(P, d, -1);
	contrib(P, o, -1);
	guard_dest(P, d->lid, -1);
	guard_dest(P, o->lid, -1);
	swap_entries(P, d->lid, o->lid, d->leaf);
	contrib(P, d, 1);
	contrib(P, o, 1);
	guard_dest(P, d->lid, 1);
	guard_dest(P, o->lid, 1);
}

/*
 * Destination d and another CA port's base LID on its switch exchange
 * their trees: the same links carry the same number of destinations and
 * sources, only the jobs' counts move.  1 when one swap is kept.
 */
static int try_swaps(struct polish *P, const struct pdest *d)
{
	int i;

	for (i = P->lf_first[d->leaf]; i < P->lf_first[d->leaf + 1]; i++) {
		struct pdest o = { P->lf_lid[i], d->leaf, -1 };
		long m, c;
		long long dsq;

		if (o.lid == d->lid)
			continue;
		if (P->lf_dest[i] >= 0)
			o = P->d[P->lf_dest[i]];
		P->trial++;
		P->ntouched = 0;
		exchange(P, d, &o);
		objective(P, &m, &c, &dsq);
		if (!guard_over(P) &&
		    (m < P->max || (m == P->max && c < P->cnt) ||
		     (m == P->max && c == P->cnt && dsq < 0))) {
			P->max = m;
			P->cnt = c;
			return 1;
		}
		exchange(P, d, &o);
		guard_over(P);
	}
	return 0;
}

/* The destination counts of every CA port's base LID, and the caps. */
static int count_all_trees(struct polish *P)
{
	const struct fabric *f = P->f;
	int k, n, p;

	for (n = 0; n < f->nnodes; n++) {
		const struct fab_node *nd = &f->nodes[n];

		if (nd->type == FAB_SWITCH || nd->removed)
			continue;
		for (p = 1; p <= nd->nports; p++) {
			struct pdest d;

			if (!nd->ports[p].lid || nd->ports[p].rnode < 0 ||
			    (d.leaf = P->sg->idx[nd->ports[p].rnode]) < 0)
				continue;
			d.lid = nd->ports[p].lid;
			tree_count(P, &d, 1, 0);
		}
	}
	for (k = 0; k < P->sg->nsw; k++) {
		long m = 0;
		int e;

		for (e = P->sg->out_first[k]; e < P->sg->out_first[k + 1]; e++)
			if (P->dcount[e] > m)
				m = P->dcount[e];
		for (e = P->sg->out_first[k]; e < P->sg->out_first[k + 1]; e++)
			P->dcap[e] = m;
	}
	return 0;
}

static void polish_free(struct polish *P)
{
	free(P->gam);
	free(P->jl_first);
	free(P->jl_sw);
	free(P->jl_cnt);
	free(P->d);
	free(P->dist);
	free(P->order);
	free(P->bott);
	free(P->flow);
	free(P->stamp);
	free(P->old_gam);
	free(P->touched);
	free(P->rtab);
	free(P->rport);
	free(P->dcount);
	free(P->dcap);
	free(P->srcsw);
	free(P->dmark);
	free(P->lf_first);
	free(P->lf_lid);
	free(P->lf_dest);
	free(P->lw);
	lexheap_free(&P->heap);
}

int efi_polish_on(const struct swgraph *sg, const struct jobs *j,
		  struct lft_set *s, int max_rounds, long max_trials,
		  struct risk_guard *guard, struct efi_polish_stats *st,
		  struct osmre_err *err)
{
	struct polish P = { .f = sg->f, .sg = sg, .s = s, .guard = guard };
	size_t n;
	int i, kept = 1, rc = -1;

	memset(st, 0, sizeof(*st));
	if (max_rounds <= 0)
		max_rounds = 8;
	if (build_dist(&P) || build_jobs(&P, j) || build_sources(&P) ||
	    build_leaf_lids(&P))
		goto out;
	n = (size_t)P.sg->nsw + 1;
	P.gam = calloc((size_t)P.sg->nlink + 1, sizeof(long));
	P.stamp = malloc(((size_t)P.sg->nlink + 1) * sizeof(int));
	P.old_gam = malloc(((size_t)P.sg->nlink + 1) * sizeof(long));
	P.touched = malloc(((size_t)P.sg->nlink + 1) * sizeof(int));
	P.dist = malloc(n * sizeof(int));
	P.order = malloc(n * sizeof(int));
	P.bott = malloc(n * sizeof(long));
	P.flow = malloc(n * sizeof(long));
	P.rtab = malloc(n * sizeof(*P.rtab));
	P.rport = malloc(n);
	P.dcount = calloc((size_t)P.sg->nlink + 1, sizeof(long));
	P.dcap = calloc((size_t)P.sg->nlink + 1, sizeof(long));
	P.dmark = malloc(((size_t)P.sg->nlink + 1) * sizeof(int));
	if (!P.gam || !P.stamp || !P.old_gam || !P.touched || !P.dist ||
	    !P.order || !P.bott || !P.flow || !P.rtab || !P.rport ||
	    !P.dcount || !P.dcap || !P.dmark)
		goto out;
	for (i = 0; i < P.sg->nlink; i++)
		P.stamp[i] = P.dmark[i] = -1;
	if (count_all_trees(&P))
		goto out;
	P.max = -1; /* no link matches while counting */
	for (i = 0; i < P.nd; i++)
		contrib(&P, &P.d[i], 1);
	recount(&P);
	st->max_before = P.max;
	while (kept && st->rounds < max_rounds && P.max > 0) {
		kept = 0;
		st->rounds++;
		for (i = 0; i < P.nd; i++) {
			if (max_trials > 0 && st->tried >= max_trials)
				break;
			P.trial++; /* contrib(0) notes nothing */
			if (!contrib(&P, &P.d[i], 0))
				continue;
			st->tried++;
			if (try_dest(&P, &P.d[i]) || try_swaps(&P, &P.d[i])) {
				kept++;
				st->kept++;
			}
		}
	}
	st->max_after = P.max;
	rc = 0;
out:
	if (rc)
		osmre_fail(err, "out of memory");
	polish_free(&P);
	return rc;
}
