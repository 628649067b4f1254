/* SPDX-License-Identifier: BSD-2-Clause */
/* A fat-tree engine on a production fabric (tree_core.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "components.h"
#include "roles.h"
#include "tree_core.h"
#include "updn.h"

/* The ports of switch n to switches ranked above it (rank[]): into up,
 * their count. */
static int up_ports(const struct fabric *f, const int *rank, int n, uint8_t *up)
{
	const struct fab_node *nd = &f->nodes[n];
	int p, k = 0;

	for (p = 1; p <= nd->nports; p++) {
		int b = nd->ports[p].rnode;

		if (b >= 0 && fab_is_switch(&f->nodes[b]) &&
		    !f->nodes[b].removed && rank[b] != INT_MIN &&
		    rank[b] > rank[n])
			up[k++] = (uint8_t)p;
	}
	return k;
}

/* An edge switch's table: every LID up (spread over its up ports by
 * LID), its own LID to port 0, its CAs' LIDs to their ports (the other
 * CAs' routes are filled after, by up*-down*). */
static void edge_table(const struct fabric *f, const int *rank, int n,
		       struct lft *t)
{
	const struct fab_node *nd = &f->nodes[n];
	uint8_t up[FAB_MAX_PORTS + 1];
	int k = up_ports(f, rank, n, up), p;
	unsigned lid;

	for (lid = 1; k && lid <= t->top; lid++)
		t->port[lid] = up[lid % (unsigned)k];
	for (p = 1; p <= nd->nports; p++) {
		int c = nd->ports[p].rnode;
		const struct fab_port *pt;

		if (c < 0 || fab_is_switch(&f->nodes[c]))
			continue;
		pt = &f->nodes[c].ports[nd->ports[p].rport];
		for (lid = pt->lid;
		     pt->lid && lid < pt->lid + (1u << pt->lmc) &&
		     lid <= t->top;
		     lid++)
			t->port[lid] = (uint8_t)p;
	}
	if (nd->ports[0].lid && nd->ports[0].lid <= t->top)
		t->port[nd->ports[0].lid] = 0;
}

/* Edge switch n's own LID in every other table: as its parent's LID (the
 * switch on its first up port), and down to n at that parent.  Parents
 * first (rank down), so that theirs are filled. */
static void edge_lid(const struct fabric *f, const int *rank, int n,
		     struct lft_set *s)
{
	const struct fab_node *nd = &f->nodes[n];
	uint8_t up[FAB_MAX_PORTS + 1];
	unsigned lid = nd->ports[0].lid, plid;
	int par, i;

	if (!lid || !up_ports(f, rank, n, up))
		return;
	par = nd->ports[up[0]].rnode;
	plid = f->nodes[par].ports[0].lid;
	for (i = 0; i < s->n; i++) {
		struct lft *t = &s->t[i];

		if (t->node == n || lid > t->top)
			continue;
		if (t->node == par)
			t->port[lid] = nd->ports[up[0]].rport;
		else if (plid && plid <= t->top)
			t->port[lid] = t->port[plid];
	}
}

/* The LIDs of the other CAs' ports, for updn: want[0..top]; their
 * count. */
static long other_lids(const struct fabric *f, const struct roles *ro,
		       uint8_t *want, unsigned top)
{
	int i, p;
	long n = 0;

	for (i = 0; i < f->nnodes; i++) {
		const struct fab_node *nd = &f->nodes[i];

		if (nd->removed || fab_is_switch(nd) ||
		    ro->role[i] == ROLE_COMPUTE)
			continue;
		for (p = 1; p <= nd->nports; p++) {
			const struct fab_port *pt = &nd->ports[p];
			unsigned lid;

			for (lid = pt->lid;
			     pt->lid && lid < pt->lid + (1u << pt->lmc) &&
			     lid <= top;
			     lid++, n++)
				want[lid] = 1;
		}
	}
	return n;
}

/*
 * The switches that up*-down* leaves without a route to a wanted LID (a
 * top switch's aggregation node to another top's: no switch is above
 * both) go to the turn leaf, the leaf of lowest GUID that has one, and
 * turn up there: as that leaf's own LID goes, so that every down-up turn
 * of those routes is at that one leaf (two turn leaves could close a
 * cycle through the tree's own up-down routes; one cannot on a complete
 * tree).  r->turned counts the entries.  0, or -1 with err.
 */
static int turn(const struct fabric *f, const struct roles *ro,
		struct route_result *r, const uint8_t *want, unsigned top,
		struct osmre_err *err)
{
	unsigned lid, tl;
	int i, star = -1;

	for (i = 0; i < f->nnodes; i++)
		if (ro->role[i] == ROLE_LEAF && f->nodes[i].ports[0].lid &&
		    lft_of_node(&r->tables, i) &&
		    (star < 0 || f->nodes[i].guid < f->nodes[star].guid))
			star = i;
	for (lid = 1; lid <= top; lid++) {
		const struct lft *st;

		if (!want[lid])
			continue;
		if (star < 0)
			return osmre_fail(
				err, "no leaf switch with a LID to turn at");
		st = lft_of_node(&r->tables, star);
		tl = f->nodes[star].ports[0].lid;
		for (i = 0; i < r->tables.n; i++) {
			struct lft *t = &r->tables.t[i];

			if (t->node == star || lid > t->top || tl > t->top ||
			    t->port[lid] != LFT_NONE || t->port[tl] == LFT_NONE)
				continue;
			if (lft_get(st, lid) == LFT_NONE)
				break;
			t->port[lid] = t->port[tl];
			r->turned++;
		}
	}
	return 0;
}

/* The rest of the fabric around the engine's tables of the core c. */
static int fill_rest(const struct fabric *f, const struct fabric *c,
		     const struct roles *ro, struct route_result *r,
		     struct osmre_err *err)
{
	size_t n = (size_t)f->nnodes + 1;
	int *rank = malloc(n * sizeof(int));
	unsigned top = 0;
	uint8_t *want = NULL;
	int i, d, rc = -1;
	struct updn_info in;

	for (i = 0; i < r->tables.n; i++)
		if (r->tables.t[i].top > top)
			top = r->tables.t[i].top;
	want = calloc((size_t)top + 1, 1);
	if (!rank || !want) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	/* the engine's up and down (the core's ranks), edge switches below */
	if (roles_ranks(f, ro, c, rank, err))
		goto out;
	for (i = 0; i < f->nnodes; i++) {
		struct lft *t = lft_of_node(&r->tables, i);

		if (t && ro->role[i] == ROLE_EDGE_SWITCH)
			edge_table(f, rank, i, t);
	}
	if (other_lids(f, ro, want, top) &&
	    (updn_route_lids_ranked(f, &r->tables, want, top, rank, &in, err) ||
	     turn(f, ro, r, want, top, err)))
		goto out;
	for (d = -1; d >= -FAB_MAX_PORTS; d--) {
		int any = 0;

		for (i = 0; i < f->nnodes; i++)
			if (ro->role[i] == ROLE_EDGE_SWITCH &&
			    ro->rank[i] == d) {
				edge_lid(f, rank, i, &r->tables);
				any = 1;
			}
		if (!any)
			break;
	}
	rc = 0;
out:
	free(rank);
	free(want);
	return rc;
}

/* A refusal ends with what the administrator can say (roles.h). */
static void hint(struct osmre_err *err)
{
	static const char h[] =
		" (the top switches, compute nodes and other CAs are found from the structure unless root_guid_file, cn_guid_file or io_guid_file say: osmre.conf(5), TOPOLOGY ROLES)";
	size_t n = strlen(err->msg);

	if (n + sizeof(h) <= sizeof(err->msg))
		memcpy(err->msg + n, h, sizeof(h));
}

/* 1 when f's switches are one connected part (phantom hosts have one
 * port: a plane's host has one in each). */
static int one_plane(const struct fabric *f)
{
	int *comp = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	int i, c = -1, one = 1;

	if (!comp || switch_components(f, comp)) {
		free(comp);
		return 0;
	}
	for (i = 0; i < f->nnodes && one; i++)
		if (comp[i] >= 0) {
			one = c < 0 || comp[i] == c;
			c = comp[i];
		}
	free(comp);
	return one;
}

int tree_core_route(const struct engine *e, const struct engine_opts *o,
		    const struct fabric *f, struct route_result *r,
		    struct osmre_err *err)
{
	struct roles_hints h = { o->cn, o->roots, o->io };
	struct fabric *c = NULL;
	struct roles ro;
	int rc = -1, phantoms;

	if (roles_compute(f, &h, &ro, err))
		return -1;
	roles_summary(&ro, r->roles, sizeof(r->roles));
	/* an engine that reads the tree's parameters off it sees a leaf
	 * short of hosts (down) as another tree: phantoms fill it */
	phantoms = (e->needs & ENGINE_NEEDS_TOPOLOGY) &&
		   roles_short_leaves(f, &ro) && one_plane(f);
	if (ro.plain && !phantoms) {
		rc = e->route(o, f, r, err);
		if (rc)
			hint(err);
		goto out;
	}
	r->roles_core = 1;
	c = roles_core(f, &ro, err);
	if (!c || (phantoms && roles_phantoms(c, f, &ro, err) < 0))
		goto out;
	if (e->route(o, c, r, err)) {
		osmre_prefix(err, "the tree of the compute CAs (%s)", r->roles);
		hint(err);
		goto out;
	}
	if (fill_rest(f, c, &ro, r, err)) {
		osmre_prefix(err, "%s: the other CAs (%s)", e->name, r->roles);
		goto out;
	}
	rc = 0;
out:
	fabric_free(c);
	roles_free(&ro);
	return rc;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* io and the port GUIDs of f's other CAs into out (sorted): the I/O
 * nodes an engine routes after the compute nodes.  0 or -1 (no memory). */
static int io_with_others(const struct fabric *f, const struct roles *ro,
			  const struct guidlist *io, struct guidlist *out)
{
	int i, p, n = io ? io->n : 0;

	for (i = 0; i < f->nnodes; i++)
		if (ro->role[i] == ROLE_OTHER_CA)
			n += f->nodes[i].nports;
	out->g = malloc(((size_t)n + 1) * sizeof(uint64_t));
	if (!out->g)
		return -1;
	out->n = 0;
	for (i = 0; io && i < io->n; i++)
		out->g[out->n++] = io->g[i];
	for (i = 0; i < f->nnodes; i++)
		for (p = 1;
		     ro->role[i] == ROLE_OTHER_CA && p <= f->nodes[i].nports;
		     p++)
			if (f->nodes[i].ports[p].guid)
				out->g[out->n++] = f->nodes[i].ports[p].guid;
	qsort(out->g, (size_t)out->n, sizeof(uint64_t), cmp_u64);
	return 0;
}

int tree_core_route_any(const struct engine *e, const struct engine_opts *o,
			const struct fabric *f, struct route_result *r,
			struct osmre_err *err)
{
	struct roles_hints h = { o->cn, o->roots, o->io };
	struct engine_opts oo = *o;
	struct guidlist io = { 0 };
	struct fabric *c = NULL;
	struct roles ro;
	int rc = -1, strays, others;

	if (roles_compute(f, &h, &ro, err))
		return -1;
	strays = roles_strays_few(f, &ro);
	/* a fat tree's other CAs go after its compute CAs */
	others = (e->needs & ENGINE_TAKES_JOBS) && ro.maxrank > 0 &&
		 ro.other_ca > 0;
	if (!strays && !others) {
		roles_free(&ro);
		return e->route(o, f, r, err);
	}
	r->strays_only = 1;
	snprintf(
		r->roles, sizeof(r->roles),
		"%d stray cable(s) not used, %d other CA(s) routed after the compute CAs",
		strays ? ro.stray_links : 0, others ? ro.other_ca : 0);
	if (others && io_with_others(f, &ro, o->io, &io)) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	if (others)
		oo.io = &io;
	if (strays && !(c = roles_without_strays(f, &ro, err)))
		goto out;
	rc = e->route(&oo, c ? c : f, r, err);
out:
	fabric_free(c);
	guidlist_free(&io);
	roles_free(&ro);
	return rc;
}
