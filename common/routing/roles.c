/* SPDX-License-Identifier: BSD-2-Clause */
/* Roles of a fat tree's nodes (roles.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <limits.h>

#include "components.h"
#include "ranks.h"
#include "roles.h"

static int listed(const struct guidlist *l, const struct fab_node *n)
{
	int p;

	if (!l || !l->n)
		return 0;
	if (guidlist_has(l, n->guid))
		return 1;
	for (p = 1; p <= n->nports; p++)
		if (n->ports[p].guid && guidlist_has(l, n->ports[p].guid))
			return 1;
	return 0;
}

/* Rule 1: candidate compute CAs (role COMPUTE for now) and the others. */
static void ca_roles(const struct fabric *f, const struct roles_hints *h,
		     struct roles *r)
{
	int i;

	for (i = 0; i < f->nnodes; i++) {
		const struct fab_node *n = &f->nodes[i];

		if (n->removed || fab_is_switch(n))
			continue;
		r->role[i] = ROLE_COMPUTE;
		if (h && listed(h->io, n))
			r->why[i] = WHY_IO_FILE;
		else if (h && h->cn && h->cn->n && !listed(h->cn, n))
			r->why[i] = WHY_NOT_CN;
		else if (n->desc && strstr(n->desc, "Aggregation Node"))
			r->why[i] = WHY_AGGREGATION;
		if (r->why[i])
			r->role[i] = ROLE_OTHER_CA;
	}
}

/* Candidate CA ports cabled to switch n. */
static int ncand(const struct fabric *f, const struct roles *r, int n)
{
	const struct fab_node *nd = &f->nodes[n];
	int p, c = 0;

	for (p = 1; p <= nd->nports; p++) {
		int b = nd->ports[p].rnode;

		c += b >= 0 && !fab_is_switch(&f->nodes[b]) &&
		     r->role[b] == ROLE_COMPUTE;
	}
	return c;
}

/* The distinct switch neighbours of n into nb (room for nports); their
 * count. */
static int neighbours(const struct fabric *f, int n, int *nb)
{
	const struct fab_node *nd = &f->nodes[n];
	int p, k, cnt = 0;

	for (p = 1; p <= nd->nports; p++) {
		int b = nd->ports[p].rnode;

		if (b < 0 || b == n || !fab_is_switch(&f->nodes[b]) ||
		    f->nodes[b].removed)
			continue;
		for (k = 0; k < cnt && nb[k] != b; k++)
			;
		if (k == cnt)
			nb[cnt++] = b;
	}
	return cnt;
}

static int is_sw(const struct fabric *f, int i)
{
	return fab_is_switch(&f->nodes[i]) && !f->nodes[i].removed;
}

/* BFS over switch links from the switches with dist[] 0 (the others -1);
 * dist[] of the edge switches (-2) stays.  queue: f->nnodes entries. */
static void bfs(const struct fabric *f, int *dist, int *queue)
{
	int head = 0, tail = 0, i, p;

	for (i = 0; i < f->nnodes; i++)
		if (dist[i] == 0)
			queue[tail++] = i;
	while (head < tail) {
		const struct fab_node *n = &f->nodes[queue[head]];
		int d = dist[queue[head++]];

		for (p = 1; p <= n->nports; p++) {
			int b = n->ports[p].rnode;

			if (b < 0 || !is_sw(f, b) || dist[b] != -1)
				continue;
			dist[b] = d + 1;
			queue[tail++] = b;
		}
	}
}

/* Rule 2: ranks counted down from the roots.  0, or -1 (no root). */
static int ranks_from_roots(const struct fabric *f, const struct guidlist *rl,
			    struct roles *r, int *dist, int *queue)
{
	int i, n = 0, d, maxd = 0, best = -1;
	long *mass;

	for (i = 0; i < f->nnodes; i++) {
		dist[i] = -1;
		if (is_sw(f, i) && guidlist_has(rl, f->nodes[i].guid)) {
			dist[i] = 0;
			n++;
		}
	}
	if (!n)
		return -1;
	bfs(f, dist, queue);
	for (i = 0; i < f->nnodes; i++)
		if (dist[i] > maxd)
			maxd = dist[i];
	mass = calloc((size_t)maxd + 1, sizeof(long));
	if (!mass)
		return -2;
	for (i = 0; i < f->nnodes; i++)
		if (dist[i] >= 0)
			mass[dist[i]] += ncand(f, r, i);
	for (d = 0; d <= maxd; d++)
		if (best < 0 || mass[d] > mass[best])
			best = d;
	free(mass);
	for (i = 0; i < f->nnodes; i++)
		if (dist[i] >= 0)
			r->rank[i] = best - dist[i];
	return 0;
}

/* 1 when switch i (not a leaf, not next to one) has two or more switch
 * neighbours, all among those of one leaf: a leaf that lost its hosts
 * or most of them.  nb, nb2: scratch (3 * (FAB_MAX_PORTS + 1)). */
static int leaf_like(const struct fabric *f, const int *dist, int i, int *nb,
		     int *nb2)
{
	int cnt = neighbours(f, i, nb), c1, j, k, m, x;

	if (cnt < 2)
		return 0;
	for (k = 0; k < cnt; k++)
		if (dist[nb[k]] == 0)
			return 0;
	/* the leaves below its first neighbour */
	c1 = neighbours(f, nb[0], nb2 + FAB_MAX_PORTS + 1);
	for (j = 0; j < c1; j++) {
		int l = nb2[FAB_MAX_PORTS + 1 + j], c2;

		if (dist[l] != 0)
			continue;
		c2 = neighbours(f, l, nb2);
		for (m = 0; m < cnt; m++) {
			for (x = 0; x < c2 && nb2[x] != nb[m]; x++)
				;
			if (x == c2)
				break;
		}
		if (m == cnt)
			return 1;
	}
	return 0;
}

/*
 * 1 when every two leaves (dist[] 0) of one connected part have an
 * up-down path under the ranks counted from them: a switch above both.
 * Only the highest switches reached going up from a leaf matter (a
 * switch's leaves below are within those of any switch above it).  -1
 * when out of memory.
 */
static int updown_connected(const struct fabric *f, const int *dist,
			    const int *comp, int *queue)
{
	size_t n = (size_t)f->nnodes + 1, words;
	int *rank = malloc(n * sizeof(int)), *col = malloc(n * sizeof(int));
	int *seen = calloc(n, sizeof(int));
	uint64_t *down = NULL, *u = NULL;
	int i, p, L = 0, ok = -1, maxr = 0, r, head, tail;

	if (!rank || !col || !seen)
		goto out;
	for (i = 0; i < f->nnodes; i++) {
		rank[i] = dist[i] == 0 ? 0 : -1;
		col[i] = dist[i] == 0 ? L++ : -1;
	}
	bfs(f, rank, queue);
	words = ((size_t)L + 63) / 64;
	down = calloc(n * words, sizeof(uint64_t));
	u = malloc((words + 1) * sizeof(uint64_t));
	if (!down || !u)
		goto out;
	for (i = 0; i < f->nnodes; i++)
		if (rank[i] > maxr)
			maxr = rank[i];
	/* the leaves below each switch, rank by rank */
	for (r = 0; r <= maxr; r++)
		for (i = 0; i < f->nnodes; i++) {
			const struct fab_node *nd = &f->nodes[i];
			uint64_t *d = down + (size_t)i * words;
			size_t w;

			if (rank[i] != r)
				continue;
			if (col[i] >= 0)
				d[col[i] / 64] |= 1ULL << (col[i] % 64);
			for (p = 1; p <= nd->nports; p++) {
				int b = nd->ports[p].rnode;

				if (b < 0 || !is_sw(f, b) || rank[b] != r - 1)
					continue;
				for (w = 0; w < words; w++)
					d[w] |= down[(size_t)b * words + w];
			}
		}
	ok = 1;
	for (i = 0; i < f->nnodes && ok; i++) {
		int j;

		if (col[i] < 0)
			continue;
		memset(u, 0, words * sizeof(uint64_t));
		/* up from leaf i: the highest switches it reaches */
		head = tail = 0;
		queue[tail++] = i;
		seen[i] = i + 1;
		while (head < tail) {
			int s = queue[head++], up = 0;
			const struct fab_node *nd = &f->nodes[s];
			size_t w;

			for (p = 1; p <= nd->nports; p++) {
				int b = nd->ports[p].rnode;

				if (b < 0 || !is_sw(f, b) ||
				    rank[b] != rank[s] + 1)
					continue;
				up = 1;
				if (seen[b] != i + 1) {
					seen[b] = i + 1;
					queue[tail++] = b;
				}
			}
			for (w = 0; !up && w < words; w++)
				u[w] |= down[(size_t)s * words + w];
		}
		for (j = 0; j < f->nnodes && ok; j++)
			if (col[j] >= 0 && comp[j] == comp[i] &&
			    !(u[col[j] / 64] & (1ULL << (col[j] % 64))))
				ok = 0;
	}
out:
	free(rank);
	free(col);
	free(seen);
	free(down);
	free(u);
	return ok;
}

/*
 * Where the leaves the CAs' mass gives are not an up-down connected tree
 * (storage on the top switches of a 3-level tree, as many as a leaf's
 * hosts, makes them leaves too), the lightest of them are not leaves:
 * each count of CAs below the most, lightest first, until the rest are
 * connected; none (all kept) when that never happens.  0, or -1 (no
 * memory).
 */
static int drop_light(const struct fabric *f, const struct roles *r, int *dist,
		      const int *comp, int *queue)
{
	int i, max = 0, c, k = updown_connected(f, dist, comp, queue);
	int *keep;

	if (k != 0)
		return k < 0 ? -1 : 0;
	for (i = 0; i < f->nnodes; i++)
		if (dist[i] == 0 && ncand(f, r, i) > max)
			max = ncand(f, r, i);
	keep = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	if (!keep)
		return -1;
	memcpy(keep, dist, (size_t)f->nnodes * sizeof(int));
	for (c = 1; c < max; c++) {
		int any = 0, left = 0;

		for (i = 0; i < f->nnodes; i++)
			if (dist[i] == 0 && ncand(f, r, i) == c) {
				dist[i] = -1;
				any = 1;
			}
		for (i = 0; i < f->nnodes; i++)
			left += dist[i] == 0;
		if (left < 2) /* one leaf is no tree to route */
			break;
		if (!any)
			continue;
		k = updown_connected(f, dist, comp, queue);
		if (k < 0) {
			free(keep);
			return -1;
		}
		if (k) {
			free(keep);
			return 0;
		}
	}
	memcpy(dist, keep, (size_t)f->nnodes * sizeof(int));
	free(keep);
	return 0;
}

/* Rule 3: leaves by the CAs' mass, edge switches, leaves that lost their
 * hosts. */
static int ranks_by_structure(const struct fabric *f, struct roles *r,
			      int *dist, int *queue, int *nb, int *nb2,
			      const int *comp)
{
	int i, k, max = 0;

	for (i = 0; i < f->nnodes; i++)
		if (is_sw(f, i) && ncand(f, r, i) > max)
			max = ncand(f, r, i);
	for (i = 0; i < f->nnodes; i++) {
		int c, cnt, big = 0;

		dist[i] = -1;
		if (!is_sw(f, i) || !(c = ncand(f, r, i)))
			continue;
		cnt = neighbours(f, i, nb);
		for (k = 0; k < cnt; k++)
			big |= ncand(f, r, nb[k]) > 2 * c;
		/* a few CAs beside the fabric's big leaves, or beside a
		 * switch with many more: storage, gateways */
		if (!big && 4 * c >= max)
			dist[i] = 0;
	}
	if (drop_light(f, r, dist, comp, queue))
		return -1;
	/* one switch neighbour, a leaf that has others: an edge switch */
	for (i = 0; i < f->nnodes; i++)
		if (is_sw(f, i) && ncand(f, r, i) &&
		    neighbours(f, i, nb) == 1 && dist[nb[0]] == 0 &&
		    neighbours(f, nb[0], nb2) > 1)
			dist[i] = -2;
	/* leaves that lost their hosts or most of them */
	for (i = 0; i < f->nnodes; i++)
		if (is_sw(f, i) && dist[i] == -1 &&
		    leaf_like(f, dist, i, nb, nb2))
			dist[i] = -3;
	for (i = 0; i < f->nnodes; i++)
		if (dist[i] == -3) {
			dist[i] = 0;
			r->hostless_leaves += !ncand(f, r, i);
		}
	bfs(f, dist, queue);
	for (i = 0; i < f->nnodes; i++)
		if (dist[i] >= 0)
			r->rank[i] = dist[i];
		else if (dist[i] == -2)
			r->rank[i] = -1;
	return 0;
}

/* 1 when switch i has a switch neighbour ranked above it. */
static int has_up(const struct fabric *f, const struct roles *r, int i)
{
	const struct fab_node *nd = &f->nodes[i];
	int p;

	for (p = 1; p <= nd->nports; p++) {
		int b = nd->ports[p].rnode;

		if (b >= 0 && is_sw(f, b) && r->rank[b] != ROLES_NO_RANK &&
		    r->rank[b] > r->rank[i])
			return 1;
	}
	return 0;
}

/* A stray cable between switches a and b: one rank, and each has a way
 * up without it, or both at the top of a tree of two ranks or more (a
 * ring of leaves is no tree with strays); r->maxrank set. */
static int is_stray(const struct fabric *f, const struct roles *r, int a, int b)
{
	if (!is_sw(f, a) || !is_sw(f, b) || r->rank[a] == ROLES_NO_RANK ||
	    r->rank[a] != r->rank[b])
		return 0;
	if (r->rank[a] == r->maxrank) /* two top switches */
		return r->maxrank > 0;
	return has_up(f, r, a) && has_up(f, r, b);
}

int roles_compute(const struct fabric *f, const struct roles_hints *h,
		  struct roles *r, struct osmre_err *err)
{
	size_t n = (size_t)f->nnodes + 1;
	int *dist = calloc(n, sizeof(int)), *queue = malloc(n * sizeof(int));
	int *nb = malloc(3 * (FAB_MAX_PORTS + 1) * sizeof(int));
	int *comp = malloc(n * sizeof(int));
	int i, p, rc = -1;

	memset(r, 0, sizeof(*r));
	r->role = calloc(n, sizeof(int));
	r->rank = malloc(n * sizeof(int));
	r->why = calloc(n, 1);
	if (!dist || !queue || !nb || !comp || !r->role || !r->rank ||
	    !r->why || switch_components(f, comp)) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	for (i = 0; i < f->nnodes; i++)
		r->rank[i] = ROLES_NO_RANK;
	ca_roles(f, h, r);
	if (h && h->roots && h->roots->n) {
		int k = ranks_from_roots(f, h->roots, r, dist, queue);

		if (k == -1) {
			osmre_fail(
				err,
				"root_guid_file: none of its %d GUID(s) is a switch of the fabric",
				h->roots->n);
			goto out;
		}
		if (k < 0) {
			osmre_fail(err, "out of memory");
			goto out;
		}
	} else if (ranks_by_structure(f, r, dist, queue, nb,
				      nb + FAB_MAX_PORTS + 1, comp)) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	for (i = 0; i < f->nnodes; i++)
		if (is_sw(f, i) && r->rank[i] != ROLES_NO_RANK &&
		    r->rank[i] > r->maxrank)
			r->maxrank = r->rank[i];
	for (i = 0; i < f->nnodes; i++) {
		const struct fab_node *nd = &f->nodes[i];

		if (nd->removed)
			continue;
		if (fab_is_switch(nd)) {
			if (r->rank[i] == ROLES_NO_RANK)
				continue;
			r->role[i] = r->rank[i] < 0  ? ROLE_EDGE_SWITCH :
				     r->rank[i] == 0 ? ROLE_LEAF :
						       ROLE_SWITCH;
			r->leaves += r->rank[i] == 0;
			r->edge_switches += r->rank[i] < 0;
			for (p = 1; p <= nd->nports; p++) {
				int b = nd->ports[p].rnode;

				/* each stray cable counted from its lower
				 * end (node, port) */
				if (b >= 0 && is_stray(f, r, i, b) &&
				    (b > i ||
				     (b == i && nd->ports[p].rport > p)))
					r->stray_links++;
			}
			continue;
		}
		if (r->role[i] == ROLE_COMPUTE) {
			int q, many = 0;

			for (p = 1; p <= nd->nports; p++) {
				int b = nd->ports[p].rnode;

				if (b < 0)
					continue;
				if (!fab_is_switch(&f->nodes[b]) ||
				    r->rank[b] != 0) {
					r->role[i] = ROLE_OTHER_CA;
					r->why[i] = WHY_NOT_LEAF;
					break;
				}
				/* two switches of one plane (a port per
				 * plane is a multi-plane host, not this) */
				for (q = 1; q < p; q++) {
					int c = nd->ports[q].rnode;

					many |= c >= 0 && c != b &&
						comp[c] == comp[b];
				}
			}
			r->dual_homed += r->role[i] == ROLE_COMPUTE && many;
		}
		if (r->role[i] == ROLE_COMPUTE)
			r->compute++;
		else {
			r->other_ca++;
			r->aggregation += r->why[i] == WHY_AGGREGATION;
		}
	}
	/* a hostless leaf alone changes nothing in the tree routed */
	r->plain = !r->other_ca && !r->edge_switches && !r->stray_links &&
		   !r->dual_homed;
	rc = 0;
out:
	free(dist);
	free(queue);
	free(nb);
	free(comp);
	if (rc)
		roles_free(r);
	return rc;
}

void roles_free(struct roles *r)
{
	free(r->role);
	free(r->rank);
	free(r->why);
	r->role = r->rank = NULL;
	r->why = NULL;
}

/*
 * A node GUID for a CA cabled to port sp of switch sw that sorts among
 * the node GUIDs of sw's other CAs as its port does (an engine that
 * orders a leaf's hosts by GUID, as pqft, then sees the host where the
 * port is): one more than the CA's on the nearest lower port, else one
 * less than the nearest higher one's (CA node GUIDs are a port count
 * apart), else fallback.
 */
static uint64_t place_guid(const struct fabric *c, int sw, int sp,
			   uint64_t fallback)
{
	const struct fab_node *nd = &c->nodes[sw];
	int q;

	for (q = sp - 1; q >= 1; q--) {
		int b = nd->ports[q].rnode;

		if (b >= 0 && !fab_is_switch(&c->nodes[b]))
			return c->nodes[b].guid + 1;
	}
	for (q = sp + 1; q <= nd->nports; q++) {
		int b = nd->ports[q].rnode;

		if (b >= 0 && !fab_is_switch(&c->nodes[b]))
			return c->nodes[b].guid - 1;
	}
	return fallback;
}

/* Splits compute CA i of c (cabled to several switches): its ports after
 * the first on another switch become CAs of their own.  0 or -1. */
static int split_ca(struct fabric *c, int i, const int *comp,
		    struct osmre_err *err)
{
	int p, first = -1;

	for (p = 1; p <= c->nodes[i].nports; p++) {
		struct fab_port pt = c->nodes[i].ports[p];
		char name[512];
		int k;

		if (pt.rnode < 0)
			continue;
		if (first < 0 || pt.rnode == first ||
		    comp[pt.rnode] != comp[first]) {
			first = first < 0 ? pt.rnode : first;
			continue;
		}
		snprintf(name, sizeof(name), "%s/%d", c->nodes[i].name, p);
		k = fabric_add_node(c, c->nodes[i].type, name, c->nodes[i].desc,
				    1,
				    place_guid(c, pt.rnode, pt.rport, pt.guid),
				    err);
		if (k < 0)
			return -1;
		fabric_unlink(c, i, p);
		if (fabric_link(c, k, 1, pt.rnode, pt.rport, err))
			return -1;
		c->nodes[k].ports[1].guid = pt.guid;
		c->nodes[k].ports[1].lid = pt.lid;
		c->nodes[k].ports[1].lmc = pt.lmc;
		c->nodes[i].ports[p].lid = 0;
		c->nodes[i].ports[p].guid = 0;
	}
	return 0;
}

struct fabric *roles_core(const struct fabric *f, const struct roles *r,
			  struct osmre_err *err)
{
	struct fabric *c = fabric_clone(f);
	int i, p, n = f->nnodes;

	if (!c) {
		osmre_fail(err, "out of memory");
		return NULL;
	}
	for (i = 0; i < n; i++) {
		struct fab_node *nd = &c->nodes[i];

		if (nd->removed)
			continue;
		if (r->role[i] == ROLE_OTHER_CA ||
		    r->role[i] == ROLE_EDGE_SWITCH) {
			fabric_remove_node(c, i);
			continue;
		}
		if (!fab_is_switch(nd))
			continue;
		for (p = 1; p <= nd->nports; p++) {
			int b = nd->ports[p].rnode;

			if (b >= 0 && b < n && fab_is_switch(&c->nodes[b]) &&
			    is_stray(f, r, i, b))
				fabric_unlink(c, i, p);
		}
	}
	if (r->dual_homed) {
		int *comp = malloc(((size_t)n + 1) * sizeof(int));

		if (!comp || switch_components(c, comp)) {
			free(comp);
			fabric_free(c);
			osmre_fail(err, "out of memory");
			return NULL;
		}
		for (i = 0; i < n; i++)
			if (r->role[i] == ROLE_COMPUTE &&
			    !c->nodes[i].removed && split_ca(c, i, comp, err)) {
				free(comp);
				fabric_free(c);
				return NULL;
			}
		free(comp);
	}
	return c;
}

struct fabric *roles_without_strays(const struct fabric *f,
				    const struct roles *r,
				    struct osmre_err *err)
{
	struct fabric *c = fabric_clone(f);
	int i, p;

	if (!c) {
		osmre_fail(err, "out of memory");
		return NULL;
	}
	for (i = 0; i < f->nnodes; i++)
		for (p = 1; p <= c->nodes[i].nports; p++) {
			int b = c->nodes[i].ports[p].rnode;

			if (b >= 0 && is_stray(f, r, i, b))
				fabric_unlink(c, i, p);
		}
	return c;
}

/* The connected parts of f's switches that hold CAs. */
static int hosted_parts(const struct fabric *f, const int *comp)
{
	int i, p, n = 0;
	char *seen = calloc((size_t)f->nnodes + 1, 1);

	if (!seen)
		return -1;
	for (i = 0; i < f->nnodes; i++) {
		const struct fab_node *nd = &f->nodes[i];

		for (p = 1;
		     p <= nd->nports && !fab_is_switch(nd) && !nd->removed;
		     p++) {
			int b = nd->ports[p].rnode;

			if (b >= 0 && comp[b] >= 0 && !seen[comp[b]]) {
				seen[comp[b]] = 1;
				n++;
			}
		}
	}
	free(seen);
	return n;
}

int roles_strays_few(const struct fabric *f, const struct roles *r)
{
	struct fab_counts cnt;
	struct osmre_err err;
	struct fabric *c;
	int *comp, few = 0, before;

	fabric_count(f, &cnt);
	if (!r->stray_links || 4L * r->stray_links > cnt.sw_links)
		return 0;
	/* without them, every part with hosts stays one: a megafly's few
	 * global links would split its groups */
	comp = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	c = comp ? roles_without_strays(f, r, &err) : NULL;
	if (c && !switch_components(f, comp)) {
		before = hosted_parts(f, comp);
		few = before > 0 && !switch_components(c, comp) &&
		      hosted_parts(c, comp) == before;
	}
	fabric_free(c);
	free(comp);
	return few;
}

/* Compute CA ports cabled to leaf l of f (each port an endpoint). */
static int compute_ports(const struct fabric *f, const struct roles *r, int l)
{
	const struct fab_node *nd = &f->nodes[l];
	int p, c = 0;

	for (p = 1; p <= nd->nports; p++) {
		int b = nd->ports[p].rnode;

		c += b >= 0 && r->role[b] == ROLE_COMPUTE;
	}
	return c;
}

static int most_ports(const struct fabric *f, const struct roles *r)
{
	int i, m = 0;

	for (i = 0; i < f->nnodes; i++)
		if (r->role[i] == ROLE_LEAF && compute_ports(f, r, i) > m)
			m = compute_ports(f, r, i);
	return m;
}

int roles_short_leaves(const struct fabric *f, const struct roles *r)
{
	int i, m = most_ports(f, r);

	for (i = 0; i < f->nnodes; i++)
		if (r->role[i] == ROLE_LEAF && compute_ports(f, r, i) < m)
			return 1;
	return 0;
}

int roles_phantoms(struct fabric *c, const struct fabric *f,
		   const struct roles *r, struct osmre_err *err)
{
	int i, p, m = most_ports(f, r), added = 0;
	char name[300];

	for (i = 0; i < f->nnodes; i++) {
		int have;

		if (r->role[i] != ROLE_LEAF)
			continue;
		have = compute_ports(f, r, i);
		for (p = 1; p <= c->nodes[i].nports && have < m; p++) {
			int k;

			if (c->nodes[i].ports[p].rnode >= 0)
				continue;
			snprintf(name, sizeof(name), "phantom-%s-%d",
				 c->nodes[i].name, p);
			k = fabric_add_node(c, FAB_CA, name, NULL, 1,
					    0xFFFF000000000000ULL +
						    (uint64_t)added * 4,
					    err);
			if (k < 0 || fabric_link(c, k, 1, i, p, err))
				return -1;
			c->nodes[k].ports[1].lid = 0;
			have++;
			added++;
		}
	}
	return added;
}

int roles_ranks(const struct fabric *f, const struct roles *r,
		const struct fabric *core, int *rank, struct osmre_err *err)
{
	struct fabric *own = NULL;
	int *crank, i;

	if (!core && !(core = own = roles_core(f, r, err)))
		return -1;
	crank = malloc(((size_t)core->nnodes + 1) * sizeof(int));
	if (!crank || ranks_compute(core, crank) < 0) {
		free(crank);
		fabric_free(own);
		return osmre_fail(err, "out of memory");
	}
	for (i = 0; i < f->nnodes; i++)
		rank[i] = r->role[i] == ROLE_EDGE_SWITCH ? r->rank[i] :
			  is_sw(f, i) && crank[i] >= 0	 ? crank[i] :
							   INT_MIN;
	free(crank);
	fabric_free(own);
	return 0;
}

int roles_is_tree(const struct fabric *f, const struct roles *r)
{
	return r->maxrank > 0 && (!r->stray_links || roles_strays_few(f, r));
}

void roles_summary(const struct roles *r, char *buf, size_t bufsz)
{
	snprintf(
		buf, bufsz,
		"%d compute CA(s) on %d leaf switch(es) (%d without hosts), %d other CA(s) (%d aggregation node(s)), %d edge switch(es), %d stray cable(s), %d dual-homed CA(s)",
		r->compute, r->leaves, r->hostless_leaves, r->other_ca,
		r->aggregation, r->edge_switches, r->stray_links,
		r->dual_homed);
}
