/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Dmodc, following Gliksberg et al., "High-Quality Fault-Resiliency in
 * Fat-Tree Networks" (HOTI 2019):
 *
 *  - ranks: leaf switches (with a CA attached) are rank 0, others the hop
 *    distance to the nearest leaf (ranks.c);
 *  - port groups: ports of a switch linked to the same remote switch, groups
 *    ordered by remote GUID, ports within a group by port number;
 *  - Algorithm 1: costs c_{s,x} (up-down hop counts) and dividers Pi_s with
 *    max reduction, one upward and one downward pass;
 *  - Algorithm 2: topological NIDs of the CA ports;
 *  - eq. (1)-(4): the output port of every switch for every destination.
 *
 * Decisions where the paper is silent (documented in osmre-engines(7)):
 *  - destinations are CA (and router) ports; a CA with several ports gives
 *    several destinations, each with its own leaf lambda_d.
 *  - "closer" in eq. (1) is read under the up-down restriction that defines
 *    the costs: when s reaches lambda_d by a down-only path the candidates
 *    are the down groups that keep it (c = c_s - 1), otherwise the up groups
 *    with c = c_s - 1.  In a complete PGFT this is exactly eq. (1); in a
 *    degraded one it prevents a down hop into a switch whose own route to
 *    lambda_d goes up again (a down-up turn).
 *  - switch LIDs: a leaf's LID follows the route of its first CA port
 *    (lowest NID); any other switch x has an anchor leaf (the first leaf in
 *    GUID order below it) and a chain (a down-only path from x to it): its
 *    LID follows the route of the anchor's first CA port everywhere but on
 *    the chain, which climbs back to x (see compute_anchors).  Management
 *    traffic uses VL15, so the possible down-up turn cannot deadlock, and
 *    costs are only needed towards leaves (an S x L matrix).
 *  - with LMC > 0 the i-th LID of a port uses NID t_d + i * Pi_s at switch
 *    s, i.e. the next port group in C_{s,lambda_d}: LIDs of one port spread
 *    over the alternative ports P_{s,d}.
 *  - validity is checked between leaves of the same connected component
 *    (planes of a multi-plane fabric are routed independently).
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "components.h"
#include "dmodc.h"
#include "parallel.h"
#include "ranks.h"
#include "swgraph.h"

/* costs are at most 2 * rank and must stay below DMODC_INF */
#define DMODC_MAX_RANK 60

struct group {
	int32_t remote; /* switch index */
	uint32_t first; /* into gports */
	uint8_t n;	/* parallel ports */
	int8_t dir;	/* +1 up, -1 down, 0 same rank */
};

struct dst {
	uint32_t t; /* NID */
	uint16_t lid;
	uint16_t nlids;
	uint8_t lport; /* leaf port to it */
};

#define UPSEQ_MAX 4096

struct scratch {
	uint8_t *cnt, *first, *mode, *wd, *wu;
	uint8_t list[FAB_MAX_PORTS + 1];
	uint8_t seq[UPSEQ_MAX]; /* see build_upseq() */
	int seqlen;
};

/* At switch s, the LID of switch x leaves by port: a climb of x's chain. */
struct override {
	int32_t x;
	uint8_t port;
};

/* A switch as a destination: its own LID and the CA ports of a leaf. */
struct target {
	uint32_t dfirst;  /* into dst */
	uint16_t dn;	  /* CA destinations */
	uint16_t lid;	  /* switch LID, 0 when none */
	uint16_t run_lid; /* first LID when the CA LIDs are consecutive
				 * single LIDs, else 0 */
};

struct dmodc {
	const struct fabric *f;
	int S; /* switches */
	int *sw_node, *node_sw;
	uint8_t *rank; /* per switch, DMODC_INF when none */
	int maxrank;
	int *order, *level_first; /* switches by rank */
	/* groups of switch s: groups[p_first[s] .. + ngroups[s]]; their up
	 * then down indices (relative to s) in ud[p_first[s] ..] */
	int *p_first, *ngroups, *nup, *ndown;
	struct group *groups;
	uint8_t *gports, *ud;
	uint8_t *cost; /* S x L: row = switch, column = leaf */
	size_t cost_cap;
	uint64_t *div;
	int *comp;
	int L, *leaves; /* switch indices, GUID order */
	int *col;	/* per switch: its leaf column, or -1 */
	/* switch LIDs: per switch the column of its anchor leaf, and the
	 * chain overrides (see compute_anchors) of each switch */
	int *ov_first;
	struct override *ov;
	struct dst *dst;
	int *dst_first, *dst_n; /* per switch */
	struct target *tg;	/* per switch */
	long *nid;		/* per node: nid_off[node] + port */
	long *nid_off;
	uint32_t *swnid;
	int *anchor; /* per switch: leaf column */
	int threads;
	struct scratch *scr;
	struct lft_set *out;
};

struct dmodc *dmodc_new(void)
{
	return calloc(1, sizeof(struct dmodc));
}

static void reset(struct dmodc *d)
{
	int t;

	free(d->sw_node);
	free(d->node_sw);
	free(d->rank);
	free(d->order);
	free(d->level_first);
	free(d->p_first);
	free(d->ngroups);
	free(d->nup);
	free(d->ndown);
	free(d->groups);
	free(d->gports);
	free(d->ud);
	free(d->div);
	free(d->comp);
	free(d->leaves);
	free(d->dst);
	free(d->dst_first);
	free(d->dst_n);
	free(d->tg);
	free(d->nid);
	free(d->nid_off);
	free(d->swnid);
	free(d->anchor);
	free(d->col);
	free(d->ov_first);
	free(d->ov);
	for (t = 0; d->scr && t < d->threads; t++) {
		free(d->scr[t].cnt);
		free(d->scr[t].first);
		free(d->scr[t].mode);
		free(d->scr[t].wd);
		free(d->scr[t].wu);
	}
	free(d->scr);
	{
		/* the cost matrix is kept for the next run: re-routing the
		 * same fabric then touches no fresh memory */
		uint8_t *cost = d->cost;
		size_t cap = d->cost_cap;

		memset(d, 0, sizeof(*d));
		d->cost = cost;
		d->cost_cap = cap;
	}
}

void dmodc_free(struct dmodc *d)
{
	if (!d)
		return;
	reset(d);
	free(d->cost);
	free(d);
}

/* ---- preprocessing: switches, ranks, port groups ---- */

static int index_switches(struct dmodc *d)
{
	const struct fabric *f = d->f;
	int i, s = 0, *nrank;

	d->node_sw = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	nrank = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	d->sw_node = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	if (!d->node_sw || !nrank || !d->sw_node) {
		free(nrank);
		return -1;
	}
	d->S = s = swgraph_index(f, d->node_sw, d->sw_node);
	d->maxrank = ranks_compute(f, nrank);
	d->rank = malloc((size_t)s + 1);
	if (d->maxrank < 0 || !d->rank) {
		free(nrank);
		return -1;
	}
	if (d->maxrank > DMODC_MAX_RANK) {
		free(nrank);
		return -2;
	}
	for (i = 0; i < s; i++) {
		int r = nrank[d->sw_node[i]];

		d->rank[i] = r < 0 ? DMODC_INF : (uint8_t)r;
	}
	free(nrank);
	/* counting sort by rank */
	d->order = malloc(((size_t)s + 1) * sizeof(int));
	d->level_first = calloc((size_t)d->maxrank + 3, sizeof(int));
	if (!d->order || !d->level_first)
		return -1;
	for (i = 0; i < s; i++)
		if (d->rank[i] != DMODC_INF)
			d->level_first[d->rank[i] + 1]++;
	for (i = 1; i <= d->maxrank + 2; i++)
		d->level_first[i] += d->level_first[i - 1];
	{
		int *fill = calloc((size_t)d->maxrank + 2, sizeof(int));

		if (!fill)
			return -1;
		for (i = 0; i < s; i++)
			if (d->rank[i] != DMODC_INF) {
				int r = d->rank[i];

				d->order[d->level_first[r] + fill[r]++] = i;
			}
		free(fill);
	}
	return 0;
}

struct gent {
	uint64_t guid;
	int port, remote;
};

static int gent_cmp(const void *a, const void *b)
{
	const struct gent *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return x->port - y->port;
}

static void build_groups_of(void *arg, long si, int tid)
{
	struct dmodc *d = arg;
	const struct fabric *f = d->f;
	int s = (int)si, node = d->sw_node[s], p, n = 0, g = -1, k;
	const struct fab_node *nd = &f->nodes[node];
	struct gent ents[FAB_MAX_PORTS];
	uint32_t base = (uint32_t)d->p_first[s];

	(void)tid;
	if (d->rank[s] == DMODC_INF) {
		d->ngroups[s] = d->nup[s] = d->ndown[s] = 0;
		return;
	}
	for (p = 1; p <= nd->nports; p++) {
		int r = nd->ports[p].rnode;

		if (r < 0 || d->node_sw[r] < 0 ||
		    d->rank[d->node_sw[r]] == DMODC_INF)
			continue;
		ents[n++] = (struct gent){ f->nodes[r].guid, p, d->node_sw[r] };
	}
	qsort(ents, (size_t)n, sizeof(ents[0]), gent_cmp);
	for (k = 0; k < n; k++) {
		d->gports[base + k] = (uint8_t)ents[k].port;
		if (g < 0 || d->groups[base + g].remote != ents[k].remote) {
			struct group *gr = &d->groups[base + ++g];
			int rr = d->rank[ents[k].remote];

			gr->remote = ents[k].remote;
			gr->first = base + (uint32_t)k;
			gr->n = 0;
			gr->dir = (int8_t)(rr > d->rank[s] ? 1 :
					   rr < d->rank[s] ? -1 :
							     0);
		}
		d->groups[base + g].n++;
	}
	d->ngroups[s] = g + 1;
	d->nup[s] = d->ndown[s] = 0;
	for (k = 0; k <= g; k++)
		if (d->groups[base + k].dir > 0)
			d->ud[base + d->nup[s]++] = (uint8_t)k;
	for (k = 0; k <= g; k++)
		if (d->groups[base + k].dir < 0)
			d->ud[base + d->nup[s] + d->ndown[s]++] = (uint8_t)k;
}

static int build_groups(struct dmodc *d)
{
	const struct fabric *f = d->f;
	int s, p;
	size_t total = 0;

	d->p_first = malloc(((size_t)d->S + 1) * sizeof(int));
	d->ngroups = malloc(((size_t)d->S + 1) * sizeof(int));
	d->nup = malloc(((size_t)d->S + 1) * sizeof(int));
	d->ndown = malloc(((size_t)d->S + 1) * sizeof(int));
	if (!d->p_first || !d->ngroups || !d->nup || !d->ndown)
		return -1;
	for (s = 0; s < d->S; s++) {
		const struct fab_node *nd = &f->nodes[d->sw_node[s]];

		d->p_first[s] = (int)total;
		for (p = 1; p <= nd->nports; p++)
			total +=
				nd->ports[p].rnode >= 0 &&
				f->nodes[nd->ports[p].rnode].type == FAB_SWITCH;
	}
	d->p_first[d->S] = (int)total;
	d->groups = malloc((total + 1) * sizeof(*d->groups));
	d->gports = malloc(total + 1);
	d->ud = malloc(total + 1);
	if (!d->groups || !d->gports || !d->ud)
		return -1;
	parallel_for(d->threads, d->S, build_groups_of, d);
	return 0;
}

/* ---- Algorithm 1: costs and dividers ---- */

struct level_job {
	struct dmodc *d;
	int first; /* into order[] */
	int dir;   /* pull from groups of this direction */
};

static void pull_costs(void *arg, long i, int tid)
{
	struct level_job *j = arg;
	struct dmodc *d = j->d;
	int s = d->order[j->first + i], g, x, L = d->L;
	uint8_t *row = d->cost + (size_t)s * L;
	const struct group *gr = &d->groups[d->p_first[s]];

	(void)tid;
	for (g = 0; g < d->ngroups[s]; g++) {
		const uint8_t *nrow;

		if (gr[g].dir != j->dir)
			continue;
		nrow = d->cost + (size_t)gr[g].remote * L;
		for (x = 0; x < L; x++) {
			/* saturating +1: INF stays INF */
			uint8_t v = (uint8_t)((nrow[x] < DMODC_INF - 1 ?
						       nrow[x] :
						       DMODC_INF - 1) +
					      1);

			row[x] = v < row[x] ? v : row[x];
		}
	}
}

static int run_level(struct dmodc *d, int r, int dir)
{
	struct level_job j = { d, d->level_first[r], dir };

	return parallel_for(d->threads,
			    d->level_first[r + 1] - d->level_first[r],
			    pull_costs, &j);
}

static int compute_costs(struct dmodc *d)
{
	int s, r, k, S = d->S, L = d->L;

	if ((size_t)S * L + 1 > d->cost_cap) {
		free(d->cost);
		d->cost_cap = (size_t)S * L + 1;
		d->cost = malloc(d->cost_cap);
		if (!d->cost)
			d->cost_cap = 0;
	}
	d->div = malloc(((size_t)S + 1) * sizeof(*d->div));
	if (!d->cost || !d->div)
		return -1;
	memset(d->cost, DMODC_INF, (size_t)S * L);
	for (s = 0; s < S; s++) {
		if (d->col[s] >= 0)
			d->cost[(size_t)s * L + d->col[s]] = 0;
		d->div[s] = 1;
	}
	/* upward pass: down-only costs, and dividers by max reduction */
	for (r = 1; r <= d->maxrank; r++)
		run_level(d, r, -1);
	for (r = 0; r < d->maxrank; r++) {
		for (k = d->level_first[r]; k < d->level_first[r + 1]; k++) {
			int c = d->order[k], g;
			const struct group *gr = &d->groups[d->p_first[c]];
			uint64_t pi = d->div[c] * (uint64_t)d->nup[c];

			for (g = 0; g < d->ngroups[c]; g++)
				if (gr[g].dir > 0 && pi > d->div[gr[g].remote])
					d->div[gr[g].remote] = pi;
		}
	}
	/* downward pass: up-then-down costs */
	for (r = d->maxrank - 1; r >= 0; r--)
		run_level(d, r, 1);
	return 0;
}

/* ---- validity ---- */

/* Switch components; a fabric split so that two hosts share none is
 * refused (planes are components in which every host has a port). */
static int components(struct dmodc *d, struct osmre_err *err)
{
	int *node_comp = malloc(((size_t)d->f->nnodes + 1) * sizeof(int));
	int s, r;

	free(d->comp);
	d->comp = malloc(((size_t)d->S + 1) * sizeof(int));
	if (!node_comp || !d->comp || switch_components(d->f, node_comp)) {
		free(node_comp);
		return osmre_fail(err, "out of memory");
	}
	for (s = 0; s < d->S; s++)
		d->comp[s] = node_comp[d->sw_node[s]];
	r = components_refuse_split(d->f, node_comp, err);
	free(node_comp);
	return r;
}

static int check_validity(struct dmodc *d, struct osmre_err *err)
{
	int i, j, L = d->L;

	for (i = 0; i < L; i++)
		for (j = 0; j < L; j++) {
			int a = d->leaves[i], b = d->leaves[j];
			const struct fab_node *na, *nb;

			if (d->comp[a] != d->comp[b] ||
			    d->cost[(size_t)a * L + j] != DMODC_INF)
				continue;
			na = &d->f->nodes[d->sw_node[a]];
			nb = &d->f->nodes[d->sw_node[b]];
			return osmre_fail(
				err,
				"no up-down path between leaf switches \"%s\" (0x%016" PRIx64
				") and \"%s\" (0x%016" PRIx64 ")",
				na->name, na->guid, nb->name, nb->guid);
		}
	return 0;
}

/* ---- Algorithm 2: topological NIDs ---- */

struct swkey {
	uint64_t guid;
	int s;
};

static int swkey_cmp(const void *a, const void *b)
{
	const struct swkey *x = a, *y = b;

	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

/* Switch NIDs (GUID order), leaves in GUID order and their columns. */
static int order_leaves(struct dmodc *d)
{
	const struct fabric *f = d->f;
	int s, i, S = d->S;
	struct swkey *bysw = malloc(((size_t)S + 1) * sizeof(*bysw));

	d->swnid = malloc(((size_t)S + 1) * sizeof(*d->swnid));
	d->leaves = malloc(((size_t)S + 1) * sizeof(int));
	d->col = malloc(((size_t)S + 1) * sizeof(int));
	if (!bysw || !d->swnid || !d->leaves || !d->col) {
		free(bysw);
		return -1;
	}
	for (s = 0; s < S; s++)
		bysw[s] = (struct swkey){ f->nodes[d->sw_node[s]].guid, s };
	qsort(bysw, (size_t)S, sizeof(*bysw), swkey_cmp);
	d->L = 0;
	for (i = 0; i < S; i++) {
		s = bysw[i].s;
		d->swnid[s] = (uint32_t)i;
		d->col[s] = d->rank[s] == 0 ? d->L : -1;
		if (d->rank[s] == 0)
			d->leaves[d->L++] = s;
	}
	free(bysw);
	return 0;
}

static int compute_nids(struct dmodc *d)
{
	const struct fabric *f = d->f;
	int i, j, p, L = d->L, S = d->S;
	size_t ndst = 0;
	long off = 0;
	uint32_t t = 0;
	char *alive;

	d->dst_first = calloc((size_t)S + 1, sizeof(int));
	d->dst_n = calloc((size_t)S + 1, sizeof(int));
	d->nid_off = malloc(((size_t)f->nnodes + 1) * sizeof(long));
	alive = malloc((size_t)S + 1);
	if (!d->dst_first || !d->dst_n || !d->nid_off || !alive) {
		free(alive);
		return -1;
	}
	for (i = 0; i < f->nnodes; i++) {
		d->nid_off[i] = off;
		off += f->nodes[i].nports + 1;
		if (f->nodes[i].type == FAB_SWITCH)
			continue;
		for (p = 1; p <= f->nodes[i].nports; p++)
			ndst += f->nodes[i].ports[p].rnode >= 0;
	}
	d->nid = malloc(((size_t)off + 1) * sizeof(long));
	d->dst = malloc((ndst + 1) * sizeof(*d->dst));
	if (!d->nid || !d->dst) {
		free(alive);
		return -1;
	}
	for (i = 0; i < off; i++)
		d->nid[i] = -1;
	ndst = 0;
	memset(alive, 1, (size_t)L);
	for (i = 0; i < L; i++) {
		int l, mu = DMODC_INF;

		if (!alive[i])
			continue;
		l = d->leaves[i];
		for (j = i + 1; j < L; j++)
			if (alive[j] && d->cost[(size_t)l * L + j] < mu)
				mu = d->cost[(size_t)l * L + j];
		for (j = i; j < L; j++) {
			const struct fab_node *nd;
			int lj = d->leaves[j];

			if (!alive[j] || d->cost[(size_t)l * L + j] > mu)
				continue;
			alive[j] = 0;
			nd = &f->nodes[d->sw_node[lj]];
			d->dst_first[lj] = (int)ndst;
			for (p = 1; p <= nd->nports; p++) {
				const struct fab_port *pt = &nd->ports[p];
				const struct fab_port *cp;

				if (pt->rnode < 0 ||
				    f->nodes[pt->rnode].type == FAB_SWITCH)
					continue;
				cp = &f->nodes[pt->rnode].ports[pt->rport];
				d->nid[d->nid_off[pt->rnode] + pt->rport] = t;
				d->dst[ndst++] =
					(struct dst){ t++, cp->lid,
						      (uint16_t)(1u << cp->lmc),
						      (uint8_t)p };
			}
			d->dst_n[lj] = (int)ndst - d->dst_first[lj];
		}
	}
	free(alive);
	return 0;
}

/*
 * Switch LIDs.  A leaf's LID is routed like its CAs (NID: the switch's index
 * in GUID order).  Any other switch x gets an anchor: the first leaf in GUID
 * order below it (cost = rank, a down-only path), and a chain: the down-only
 * path from x to the anchor that takes the first suitable group at each
 * step.  Every switch routes x's LID towards the anchor, except the switches
 * of the chain, which climb it back to x.  The walk towards the anchor
 * strictly lowers the cost to it and the climb strictly approaches x, so
 * there is no loop; the possible down-up turn is harmless on VL15.
 */
/* The first down group of y that keeps a down-only path to leaf column a. */
static int chain_step(const struct dmodc *d, int y, int a)
{
	const struct group *gr = &d->groups[d->p_first[y]];
	int g;

	for (g = 0; g < d->ngroups[y]; g++)
		if (gr[g].dir < 0 && d->cost[(size_t)gr[g].remote * d->L + a] ==
					     d->rank[gr[g].remote])
			return gr[g].remote;
	return -1;
}

/* First port of y towards switch z (a neighbour). */
static uint8_t port_towards(const struct dmodc *d, int y, int z)
{
	const struct group *gr = &d->groups[d->p_first[y]];
	int g;

	for (g = 0; g < d->ngroups[y]; g++)
		if (gr[g].remote == z)
			return d->gports[gr[g].first];
	return 0;
}

static int compute_anchors(struct dmodc *d)
{
	int x, i, S = d->S, L = d->L, pass, *fill = NULL;

	d->anchor = malloc(((size_t)S + 1) * sizeof(int));
	d->ov_first = calloc((size_t)S + 2, sizeof(int));
	if (!d->anchor || !d->ov_first)
		return -1;
	for (x = 0; x < S; x++) {
		d->anchor[x] = d->col[x];
		for (i = 0;
		     i < L && d->anchor[x] < 0 && d->rank[x] != DMODC_INF; i++)
			if (d->cost[(size_t)x * L + i] == d->rank[x])
				d->anchor[x] = i;
	}
	/* pass 0 counts the overrides of each switch, pass 1 fills them */
	for (pass = 0; pass < 2; pass++) {
		if (pass) {
			for (x = 0; x < S; x++)
				d->ov_first[x + 1] += d->ov_first[x];
			d->ov = malloc(((size_t)d->ov_first[S] + 1) *
				       sizeof(*d->ov));
			fill = malloc(((size_t)S + 1) * sizeof(int));
			if (!d->ov || !fill) {
				free(fill);
				return -1;
			}
			memcpy(fill, d->ov_first, (size_t)S * sizeof(int));
		}
		for (x = 0; x < S; x++) {
			int cur = x, a = d->anchor[x];

			if (d->col[x] >= 0 || a < 0)
				continue;
			while (d->col[cur] != a) {
				int nxt = chain_step(d, cur, a);

				if (nxt < 0)
					break; /* cannot happen: cost = rank */
				if (pass)
					d->ov[fill[nxt]++] = (struct override){
						x, port_towards(d, nxt, cur)
					};
				else
					d->ov_first[nxt + 1]++;
				cur = nxt;
			}
		}
	}
	free(fill);
	return 0;
}

/* ---- eq. (1)-(4): routes ---- */

/*
 * Exact 32-bit division and modulo by a run-time constant with one 128-bit
 * multiplication (Lemire, Kaser, Kurz 2019): the hot loop below divides
 * NIDs by Pi_s and by #C for every LFT entry.
 */
struct fdiv {
	uint64_t m;
	uint32_t d;
};

static inline struct fdiv fdiv_make(uint32_t d)
{
	return (struct fdiv){ UINT64_MAX / d + 1, d };
}

static inline uint32_t fdiv_div(uint32_t n, struct fdiv f)
{
	if (f.d == 1) /* m wrapped to 0 */
		return n;
	return (uint32_t)(((__uint128_t)f.m * n) >> 64);
}

static inline uint32_t fdiv_mod(uint32_t n, struct fdiv f)
{
	return (uint32_t)(((__uint128_t)(f.m * n) * f.d) >> 64);
}

static struct fdiv small_div[FAB_MAX_PORTS + 2];
static pthread_once_t small_div_once = PTHREAD_ONCE_INIT;

static void init_small_div(void)
{
	int i;

	for (i = 1; i <= FAB_MAX_PORTS + 1; i++)
		small_div[i] = fdiv_make((uint32_t)i);
}

/* Candidate groups C_{s,x} for leaf column x (indices relative to s). */
static int candidates(const struct dmodc *d, struct scratch *sc, int s, int x,
		      const uint8_t **list)
{
	const uint8_t *row = d->cost + (size_t)s * d->L;
	const struct group *gr = &d->groups[d->p_first[s]];
	const uint8_t *ud = d->ud + d->p_first[s];
	int n = sc->cnt[x], i, k = 0, from, len;

	if (n <= 1) {
		*list = &sc->first[x];
		return n;
	}
	from = sc->mode[x] ? d->nup[s] : 0;
	len = sc->mode[x] ? d->ndown[s] : d->nup[s];
	*list = ud + from;
	if (n == len)
		return n;
	/* a strict subset of the up (or down) groups: list it */
	for (i = 0; i < len; i++) {
		int g = ud[from + i];

		if (d->cost[(size_t)gr[g].remote * d->L + x] + 1 == row[x])
			sc->list[k++] = (uint8_t)g;
	}
	*list = sc->list;
	return k;
}

/* eq. (4): port qq (mod #g) of group g. */
static inline uint8_t port_in(const struct dmodc *d, const struct group *g,
			      uint32_t qq)
{
	return d->gports[g->first +
			 (g->n == 1 ? 0 : fdiv_mod(qq, small_div[g->n]))];
}

/* eq. (3)-(4) for q = floor(t_d / Pi_s). */
static inline uint8_t pick_port(const struct dmodc *d, const struct group *gr,
				const uint8_t *list, int nc, uint32_t q)
{
	struct fdiv f = small_div[nc];

	if (nc == 1) /* the common down route: no division */
		return port_in(d, &gr[list[0]], q);
	return port_in(d, &gr[list[fdiv_mod(q, f)]], fdiv_div(q, f));
}

/*
 * mode[x]: s reaches x down-only; cnt[x], first[x]: number and first of
 * the closer groups (eq. 1 under the up-down restriction).
 */
static void closer_groups(const struct dmodc *d, struct scratch *sc, int s)
{
	const uint8_t *row = d->cost + (size_t)s * d->L;
	const struct group *gr = &d->groups[d->p_first[s]];
	uint8_t rs = d->rank[s], *wd = sc->wd, *wu = sc->wu;
	uint8_t *cnt = sc->cnt, *first = sc->first;
	int x, g, S = d->L;

	/* branch-free so that it vectorizes; columns are leaves (rank 0), so
	 * a down-only path to x is one of cost rank(s) */
	for (x = 0; x < S; x++) {
		uint8_t r = row[x];
		uint8_t md = (uint8_t)((r != DMODC_INF) & (r == rs));
		uint8_t up = (uint8_t)(!md & (r != DMODC_INF) & (r != 0));

		sc->mode[x] = md;
		wd[x] = md ? (uint8_t)(r - 1) : DMODC_INF;
		wu[x] = up ? (uint8_t)(r - 1) : DMODC_INF;
	}
	memset(cnt, 0, (size_t)S);
	memset(first, 0, (size_t)S);
	for (g = 0; g < d->ngroups[s]; g++) {
		const uint8_t *nrow = d->cost + (size_t)gr[g].remote * S;
		const uint8_t *want = gr[g].dir < 0 ? wd : wu;
		uint8_t gg = (uint8_t)g;

		if (!gr[g].dir)
			continue;
		for (x = 0; x < S; x++) {
			uint8_t h = (uint8_t)((nrow[x] == want[x]) &
					      (nrow[x] != DMODC_INF));

			first[x] = (h & (cnt[x] == 0)) ? gg : first[x];
			cnt[x] = (uint8_t)(cnt[x] + h);
		}
	}
}

/*
 * The ports of the "all up groups" candidate list of s, for q = 0..P-1 with
 * P = nup * lcm(group sizes): eq. (3)-(4) become a table lookup for the
 * up routes, the bulk of a switch's table.
 */
static void build_upseq(const struct dmodc *d, struct scratch *sc, int s)
{
	const struct group *gr = &d->groups[d->p_first[s]];
	const uint8_t *up = d->ud + d->p_first[s];
	int nup = d->nup[s], i;
	long l = 1, p;

	sc->seqlen = 0;
	for (i = 0; i < nup && l <= UPSEQ_MAX; i++) {
		long a = l, b = gr[up[i]].n;

		while (b) { /* l = lcm(l, n) */
			long t = a % b;

			a = b;
			b = t;
		}
		l = l / a * gr[up[i]].n;
	}
	p = l * nup;
	if (!nup || p > UPSEQ_MAX)
		return;
	for (i = 0; i < p; i++) {
		const struct group *g = &gr[up[i % nup]];

		sc->seq[i] = d->gports[g->first + (i / nup) % g->n];
	}
	sc->seqlen = (int)p;
}

/* Routes of s to the CA ports of leaf x (NIDs consecutive). */
static void route_cas(const struct dmodc *d, const struct scratch *sc, int s,
		      const uint8_t *list, int nc, struct fdiv fpi,
		      const struct target *tg, struct lft *t)
{
	const struct group *gr = &d->groups[d->p_first[s]];
	const struct dst *ds = d->dst + tg->dfirst;
	int n = tg->dn, i, k;
	uint32_t q = fdiv_div(ds[0].t, fpi), r = ds[0].t - q * fpi.d;

	if (nc == 1 && gr[list[0]].n == 1) { /* one port for all */
		uint8_t port = d->gports[gr[list[0]].first];

		if (tg->run_lid && tg->run_lid + n - 1u <= t->top) {
			memset(t->port + tg->run_lid, port, (size_t)n);
			return;
		}
		for (i = 0; i < n; i++)
			for (k = 0; k < ds[i].nlids; k++)
				if (ds[i].lid && ds[i].lid + k <= (int)t->top)
					t->port[ds[i].lid + k] = port;
		return;
	}
	if (list == d->ud + d->p_first[s] && nc == d->nup[s] && sc->seqlen) {
		uint32_t p = (uint32_t)sc->seqlen, idx = q % p;

		if (tg->run_lid && tg->run_lid + n - 1u <= t->top) {
			/* runs of Pi_s - r equal ports */
			for (i = 0; i < n;) {
				uint32_t len = fpi.d - r;

				if (len > (uint32_t)(n - i))
					len = (uint32_t)(n - i);
				uint8_t *o = t->port + tg->run_lid + i,
					v = sc->seq[idx];

				if (len > 16)
					memset(o, v, len);
				else /* short runs: no call */
					for (k = 0; k < (int)len; k++)
						o[k] = v;
				i += (int)len;
				r = 0;
				if (++idx == p)
					idx = 0;
			}
			return;
		}

		for (i = 0; i < n; i++) {
			if (i && ++r == fpi.d) {
				r = 0;
				if (++idx == p)
					idx = 0;
			}
			if (!ds[i].lid || ds[i].lid + ds[i].nlids - 1u > t->top)
				continue;
			for (k = 0; k < ds[i].nlids; k++)
				t->port[ds[i].lid + k] =
					sc->seq[(idx + (uint32_t)k) % p];
		}
		return;
	}
	{
		struct fdiv fnc = small_div[nc];
		uint32_t gi = fdiv_mod(q, fnc), qq = fdiv_div(q, fnc);
		uint8_t port = port_in(d, &gr[list[gi]], qq);

		for (i = 0; i < n; i++) {
			if (i && ++r == fpi.d) {
				r = 0;
				q++;
				if (++gi == (uint32_t)nc) {
					gi = 0;
					qq++;
				}
				port = port_in(d, &gr[list[gi]], qq);
			}
			if (!ds[i].lid || ds[i].lid + ds[i].nlids - 1u > t->top)
				continue;
			t->port[ds[i].lid] = port;
			/* LMC: the k-th LID uses NID t_d + k * Pi_s */
			for (k = 1; k < ds[i].nlids; k++)
				t->port[ds[i].lid + k] =
					pick_port(d, gr, list, nc,
						  q + (uint32_t)k);
		}
	}
}

/* The LID of switch x at switch s: towards x's anchor leaf column a. */
static uint8_t switch_lid_port(const struct dmodc *d, struct scratch *sc, int s,
			       int x, int a, struct fdiv fpi)
{
	const struct group *gr = &d->groups[d->p_first[s]];
	const uint8_t *list;
	int nc = candidates(d, sc, s, a, &list);

	return nc ? pick_port(d, gr, list, nc, fdiv_div(d->swnid[x], fpi)) :
		    LFT_NONE;
}

static void route_switch(void *arg, long si, int tid)
{
	struct dmodc *d = arg;
	struct scratch *sc = &d->scr[tid];
	int s = (int)si, S = d->S, L = d->L, x, i, k;
	const uint8_t *row = d->cost + (size_t)s * L;
	struct lft *t = lft_of_node(d->out, d->sw_node[s]);
	struct fdiv fpi;

	if (!t)
		return;
	if (d->tg[s].lid && d->tg[s].lid <= t->top)
		t->port[d->tg[s].lid] = 0;
	if (d->rank[s] == DMODC_INF)
		return;
	fpi = fdiv_make(d->div[s] > UINT32_MAX ? UINT32_MAX :
						 (uint32_t)d->div[s]);
	closer_groups(d, sc, s);
	build_upseq(d, sc, s);
	/* CA ports, leaf by leaf */
	for (i = 0; i < L; i++) {
		const struct target *tg;
		const uint8_t *list;
		int nc;

		x = d->leaves[i];
		tg = &d->tg[x];
		if (x == s) {
			const struct dst *ds = d->dst + tg->dfirst;
			int j;

			for (j = 0; j < tg->dn; j++)
				for (k = 0; k < ds[j].nlids; k++)
					if (ds[j].lid &&
					    ds[j].lid + k <= (int)t->top)
						t->port[ds[j].lid + k] =
							ds[j].lport;
			continue;
		}
		if (row[i] == DMODC_INF || !tg->dn)
			continue;
		nc = candidates(d, sc, s, i, &list);
		if (nc)
			route_cas(d, sc, s, list, nc, fpi, tg, t);
	}
	/*
	 * Switch LIDs, once the CA routes are in: x's LID follows the route of
	 * the first CA port of its anchor leaf, except on x's chain.
	 */
	for (x = 0; x < S; x++) {
		unsigned lid = d->tg[x].lid, al;
		int a = d->anchor[x];

		if (!lid || lid > t->top || x == s || a < 0 ||
		    row[a] == DMODC_INF)
			continue;
		al = d->tg[d->leaves[a]].run_lid ?
			     d->tg[d->leaves[a]].run_lid :
			     d->dst[d->tg[d->leaves[a]].dfirst].lid;
		if (al && al <= t->top && t->port[al] != LFT_NONE)
			t->port[lid] = t->port[al];
		else
			t->port[lid] = switch_lid_port(d, sc, s, x, a, fpi);
	}
	for (i = d->ov_first[s]; i < d->ov_first[s + 1]; i++) {
		unsigned lid = d->tg[d->ov[i].x].lid;

		if (lid && lid <= t->top)
			t->port[lid] = d->ov[i].port;
	}
}

/* Per switch: its LID and its CA destinations, packed for the hot loop. */
static int build_targets(struct dmodc *d)
{
	int x, i;

	d->tg = calloc((size_t)d->S + 1, sizeof(*d->tg));
	if (!d->tg)
		return -1;
	for (x = 0; x < d->S; x++) {
		struct target *tg = &d->tg[x];
		const struct dst *ds = d->dst + d->dst_first[x];

		tg->lid = d->f->nodes[d->sw_node[x]].ports[0].lid;
		tg->dfirst = (uint32_t)d->dst_first[x];
		tg->dn = (uint16_t)d->dst_n[x];
		tg->run_lid = tg->dn ? ds[0].lid : 0;
		for (i = 0; i < tg->dn && tg->run_lid; i++)
			if (ds[i].nlids != 1 || ds[i].lid != ds[0].lid + i)
				tg->run_lid = 0;
	}
	return 0;
}

static int alloc_scratch(struct dmodc *d)
{
	int t;

	d->scr = calloc((size_t)d->threads, sizeof(*d->scr));
	if (!d->scr)
		return -1;
	for (t = 0; t < d->threads; t++) {
		d->scr[t].cnt = malloc((size_t)d->S + 1);
		d->scr[t].first = malloc((size_t)d->S + 1);
		d->scr[t].mode = malloc((size_t)d->S + 1);
		d->scr[t].wd = malloc((size_t)d->S + 1);
		d->scr[t].wu = malloc((size_t)d->S + 1);
		if (!d->scr[t].cnt || !d->scr[t].first || !d->scr[t].mode ||
		    !d->scr[t].wd || !d->scr[t].wu)
			return -1;
	}
	return 0;
}

/* Ranks, port groups, costs and NIDs of f on threads, and the validity
 * check: what dmodc_nids gives, the first half of dmodc_run. */
static int prepare(struct dmodc *d, const struct fabric *f, int threads,
		   struct osmre_err *err)
{
	reset(d);
	pthread_once(&small_div_once, init_small_div);
	d->f = f;
	d->threads = threads;
	switch (index_switches(d)) {
	case 0:
		break;
	case -2:
		return osmre_fail(err,
				  "more than %d switch ranks: not a fat tree",
				  DMODC_MAX_RANK);
	default:
		return osmre_fail(err, "out of memory");
	}
	if (components(d, err))
		return -1;
	if (build_groups(d) || order_leaves(d) || compute_costs(d) ||
	    compute_nids(d))
		return osmre_fail(err, "out of memory");
	return check_validity(d, err);
}

int dmodc_nids(struct dmodc *d, const struct fabric *f, struct osmre_err *err)
{
	return prepare(d, f, 1, err);
}

int dmodc_run(struct dmodc *d, const struct fabric *f,
	      const struct dmodc_opts *o, struct lft_set *out,
	      struct osmre_err *err)
{
	int threads =
		o && o->threads > 0 ? o->threads : parallel_default_threads();

	if (prepare(d, f, threads, err))
		return -1;
	if (compute_anchors(d) || build_targets(d) || alloc_scratch(d))
		return osmre_fail(err, "out of memory");
	d->out = out;
	parallel_for(threads, d->S, route_switch, d);
	d->out = NULL;
	return 0;
}

int dmodc_route(const struct fabric *f, const struct dmodc_opts *o,
		struct lft_set *out, struct osmre_err *err)
{
	struct dmodc *d = dmodc_new();
	int rc;

	if (!d)
		return osmre_fail(err, "out of memory");
	rc = dmodc_run(d, f, o, out, err);
	dmodc_free(d);
	return rc;
}

int dmodc_rank(const struct dmodc *d, int node)
{
	int s = node >= 0 && d->node_sw ? d->node_sw[node] : -1;

	return s < 0 || d->rank[s] == DMODC_INF ? -1 : d->rank[s];
}

uint64_t dmodc_divider(const struct dmodc *d, int node)
{
	int s = node >= 0 && d->node_sw ? d->node_sw[node] : -1;

	return s < 0 ? 0 : d->div[s];
}

int dmodc_cost(const struct dmodc *d, int from, int to)
{
	int a = d->node_sw ? d->node_sw[from] : -1;
	int b = d->node_sw ? d->node_sw[to] : -1;

	if (a < 0 || b < 0 || !d->cost || d->col[b] < 0)
		return DMODC_INF;
	return d->cost[(size_t)a * d->L + d->col[b]];
}

long dmodc_nid(const struct dmodc *d, int node, int port)
{
	if (!d->nid || node < 0 || node >= d->f->nnodes ||
	    port > d->f->nodes[node].nports)
		return -1;
	return d->nid[d->nid_off[node] + port];
}

int dmodc_num_leaves(const struct dmodc *d)
{
	return d->L;
}

int dmodc_leaf(const struct dmodc *d, int i)
{
	return d->sw_node[d->leaves[i]];
}
