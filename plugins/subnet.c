/* SPDX-License-Identifier: BSD-2-Clause */
/* The OpenSM subnet as a fabric model, and routes back into OpenSM. */
#include "osmre_plugin.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <opensm/osm_node.h>
#include <opensm/osm_port.h>
#include <opensm/osm_switch.h>

#include "lft_hops.h"
#include "parallel.h"
#include "lids.h"

struct node_ix {
	osm_node_t *node;
	int ix;
};

static int node_ix_cmp(const void *a, const void *b)
{
	const struct node_ix *x = a, *y = b;

	return x->node < y->node ? -1 : x->node > y->node;
}

static int find_ix(const struct node_ix *m, size_t n, osm_node_t *node)
{
	struct node_ix key = { node, 0 };
	const struct node_ix *r;

	r = bsearch(&key, m, n, sizeof(*m), node_ix_cmp);
	return r ? r->ix : -1;
}

static int link_up(const osm_physp_t *p)
{
	return p && osm_physp_get_remote(p) &&
	       osm_physp_get_port_state(p) != IB_LINK_DOWN;
}

struct node_guid {
	osm_node_t *node;
	uint64_t guid; /* host order */
};

static int node_guid_cmp(const void *a, const void *b)
{
	const struct node_guid *x = a, *y = b;

	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

/*
 * Nodes, ports with a live link, links, LIDs.  The nodes in GUID order
 * (node_guid_tbl's keys are in network byte order, so its walk is not),
 * as ibsim and a net file declare them: the engines then see the fabric
 * of `osmre route` on the same net file, whatever order OpenSM found it
 * in, and route it the same.
 */
struct fabric *subnet_to_fabric(osm_opensm_t *osm, struct osmre_err *err)
{
	cl_qmap_t *nodes = &osm->subn.node_guid_tbl;
	cl_qmap_t *ports = &osm->subn.port_guid_tbl;
	size_t n = cl_qmap_count(nodes), k = 0, j;
	struct node_ix *map = calloc(n + 1, sizeof(*map));
	struct node_guid *byguid = calloc(n + 1, sizeof(*byguid));
	struct fabric *f = fabric_new();
	cl_map_item_t *it;

	if (!map || !byguid || !f)
		goto oom;
	for (it = cl_qmap_head(nodes), j = 0; it != cl_qmap_end(nodes) && j < n;
	     it = cl_qmap_next(it), j++)
		byguid[j] = (struct node_guid){
			(osm_node_t *)it,
			cl_ntoh64(osm_node_get_node_guid((osm_node_t *)it))
		};
	n = j;
	qsort(byguid, n, sizeof(*byguid), node_guid_cmp);
	for (j = 0; j < n; j++) {
		osm_node_t *nd = byguid[j].node;
		uint8_t type = osm_node_get_type(nd), p;
		int nports = osm_node_get_num_physp(nd) - 1, ix;
		uint64_t guid = cl_ntoh64(osm_node_get_node_guid(nd));
		char name[160];

		if (nports < 1)
			continue;
		/* named by description, as in net files; by description and
		 * GUID when the description is not unique */
		snprintf(name, sizeof(name), "%s",
			 nd->print_desc ? nd->print_desc : "");
		if (!*name || fabric_find(f, name) >= 0)
			snprintf(name, sizeof(name), "%s#0x%016" PRIx64,
				 nd->print_desc ? nd->print_desc : "", guid);
		ix = fabric_add_node(f,
				     type == IB_NODE_TYPE_SWITCH ? FAB_SWITCH :
				     type == IB_NODE_TYPE_ROUTER ? FAB_ROUTER :
								   FAB_CA,
				     name, nd->print_desc, nports, guid, err);
		if (ix < 0)
			goto fail;
		for (p = 1; p <= nports && type != IB_NODE_TYPE_SWITCH; p++) {
			osm_physp_t *ph = osm_node_get_physp_ptr(nd, p);

			if (ph)
				f->nodes[ix].ports[p].guid =
					cl_ntoh64(osm_physp_get_port_guid(ph));
		}
		map[k++] = (struct node_ix){ nd, ix };
	}
	qsort(map, k, sizeof(*map), node_ix_cmp);
	for (size_t i = 0; i < k; i++) {
		osm_node_t *nd = map[i].node;
		int a = map[i].ix, p;

		for (p = 1; p <= f->nodes[a].nports; p++) {
			osm_physp_t *ph =
				osm_node_get_physp_ptr(nd, (uint8_t)p);
			osm_physp_t *rp;
			int b, bp;

			if (!link_up(ph))
				continue;
			rp = osm_physp_get_remote(ph);
			b = find_ix(map, k, osm_physp_get_node_ptr(rp));
			bp = osm_physp_get_port_num(rp);
			if (b < 0 || !link_up(rp) || b < a ||
			    (b == a && bp <= p))
				continue;
			if (bp > f->nodes[b].nports) {
				osmre_fail(
					err,
					"port %d of \"%s\" links to port %d of \"%s\", which has %d port(s)",
					p, f->nodes[a].name, bp,
					f->nodes[b].name, f->nodes[b].nports);
				goto fail;
			}
			if (fabric_link(f, a, p, b, bp, err))
				goto fail;
		}
	}
	for (it = cl_qmap_head(ports); it != cl_qmap_end(ports);
	     it = cl_qmap_next(it)) {
		osm_port_t *pt = (osm_port_t *)it;
		uint16_t lo, hi;
		int ix = find_ix(map, k, pt->p_node), pn;
		struct fab_port *fp;

		if (ix < 0 || !pt->p_physp)
			continue;
		pn = osm_physp_get_port_num(pt->p_physp);
		if (pn > f->nodes[ix].nports)
			continue;
		osm_port_get_lid_range_ho(pt, &lo, &hi);
		if (!lo)
			continue;
		fp = &f->nodes[ix].ports[pn];
		fp->lid = lo;
		fp->lmc = 0;
		while ((1u << fp->lmc) < (unsigned)(hi - lo + 1))
			fp->lmc++;
	}
	free(map);
	free(byguid);
	return f;
oom:
	osmre_fail(err, "out of memory");
fail:
	free(map);
	free(byguid);
	fabric_free(f);
	return NULL;
}

/*
 * A switch's entries into its new LFT, each route counted on its port's
 * profile (osm_switch_count_path's count, one add per port: OpenSM's
 * dump and multipath records read it).
 */
static void count_paths(osm_switch_t *sw, const struct lft *t)
{
	unsigned n = sw->max_lid_ho < t->top ? sw->max_lid_ho : t->top, lid;
	uint32_t cnt[2][256] = { { 0 } };
	int p;

	if (!n)
		return;
	memcpy(sw->new_lft + 1, t->port + 1, n);
	/* two counts, interleaved: runs of one port do not wait on their
	 * own increments */
	for (lid = 1; lid + 1 <= n; lid += 2) {
		cnt[0][t->port[lid]]++;
		cnt[1][t->port[lid + 1]]++;
	}
	if (lid == n)
		cnt[0][t->port[lid]]++;
	for (p = 1; p < OSM_NO_PATH; p++) {
		uint32_t c = cnt[0][p] + cnt[1][p];

		if (p < sw->num_ports) /* (the tables are checked) */
			sw->p_prof[p].num_paths += c;
	}
}

int lfts_to_subnet(osm_opensm_t *osm, const struct fabric *f,
		   const struct lft_set *s, lfts_cost_fn cost, void *ctx,
		   osm_switch_t ***sws_out, struct osmre_err *err)
{
	cl_qmap_t *sws = &osm->subn.sw_guid_tbl;
	struct guid_map gm;
	struct lid_owner *own = NULL;
	unsigned max, lid;
	/* the switches in walk order: OpenSM's and its fabric node */
	osm_switch_t **sw_at =
		calloc((size_t)f->nnodes + 1, sizeof(osm_switch_t *));
	int *swnode = calloc((size_t)f->nnodes + 1, sizeof(int));
	cl_map_item_t *it;
	int rc = -1, i, nsw = 0;
	osm_switch_t **by_node =
		calloc((size_t)f->nnodes + 1, sizeof(*by_node));

	if (!sw_at || !swnode || !by_node) {
		osmre_fail(err, "out of memory");
		goto out0;
	}
	if (guid_map_build(f, &gm, err))
		goto out0;
	if (lids_owners(f, &own, &max, err))
		goto out1;
	/* routes */
	for (it = cl_qmap_head(sws); it != cl_qmap_end(sws);
	     it = cl_qmap_next(it)) {
		osm_switch_t *sw = (osm_switch_t *)it;
		const struct guid_ent *e =
			guid_map_find(&gm, cl_ntoh64(osm_node_get_node_guid(
						   sw->p_node)));
		const struct lft *t = e ? lft_of_node(s, e->node) : NULL;

		if (!t)
			continue;
		sw_at[nsw] = sw;
		swnode[nsw++] = e->node;
		by_node[e->node] = sw;
		count_paths(sw, t);
	}
	/*
	 * Hop counts along the routes.  OpenSM reads them for switch LIDs
	 * only (its multicast manager counts hops to a member's switch; SA
	 * PathRecords walk the LFTs), so switch LIDs always get them, by
	 * walking the routes (hopfill_run, with the switches by node given
	 * back); CA LIDs only when cost is given, from the engine's costs,
	 * switch by switch, here.  ftree does the same: one malloc()ed
	 * array per (switch, LID) makes CA LIDs costly.
	 */
	for (i = 0; i < nsw && cost; i++) {
		osm_switch_t *sw = sw_at[i];

		for (lid = 1; lid <= max && lid <= sw->max_lid_ho; lid++) {
			int dn = own[lid].node, c;

			if (dn < 0 || f->nodes[dn].type == FAB_SWITCH ||
			    sw->new_lft[lid] == OSM_NO_PATH)
				continue;
			c = cost(ctx, swnode[i],
				 f->nodes[dn].ports[own[lid].port].rnode);
			if (c >= 0)
				hopfill_set_one(sw, lid, c + 1);
		}
	}
	*sws_out = by_node;
	by_node = NULL;
	rc = 0;
out1:
	free(own);
	guid_map_free(&gm);
out0:
	free(sw_at);
	free(swnode);
	free(by_node);
	return rc;
}

int subnet_full_pushes(osm_opensm_t *osm)
{
	cl_qmap_t *sws = &osm->subn.sw_guid_tbl;
	cl_map_item_t *it;
	int n = 0;

	for (it = cl_qmap_head(sws); it != cl_qmap_end(sws);
	     it = cl_qmap_next(it))
		n += osm->subn.need_update ||
		     ((osm_switch_t *)it)->need_update != 0;
	return n;
}

int subnet_settle_switches(osm_opensm_t *osm)
{
	cl_qmap_t *sws = &osm->subn.sw_guid_tbl;
	cl_map_item_t *it;
	int n = 0;

	if (osm->subn.need_update) /* a first sweep: everything goes */
		return 0;
	for (it = cl_qmap_head(sws); it != cl_qmap_end(sws);
	     it = cl_qmap_next(it)) {
		osm_switch_t *sw = (osm_switch_t *)it;
		osm_physp_t *p0 = osm_node_get_physp_ptr(sw->p_node, 0);
		unsigned lid;
		int answered = 0;

		if (sw->need_update != 2 || !p0 || !sw->lft)
			continue;
		/* OpenSM's own rule when a heavy sweep reads port 0 */
		if (ib_port_info_get_port_state(&p0->port_info) <=
			    IB_LINK_INIT ||
		    ib_switch_info_get_state_change(&sw->switch_info))
			continue;
		/* it answered our Sets: its stored blocks hold routes */
		for (lid = 1; !answered && lid <= sw->max_lid_ho; lid++)
			answered = sw->lft[lid] != OSM_NO_PATH;
		if (!answered)
			continue;
		sw->need_update = 0;
		n++;
	}
	return n;
}

/* OpenSM's tables of each switch of f into s: its copy of what the
 * switches hold (sw->lft), or, with configured, what the last routing
 * put in new_lft. */
static int switch_tables(osm_opensm_t *osm, const struct fabric *f,
			 int configured, struct lft_set *s,
			 struct osmre_err *err)
{
	int i;

	if (lft_set_for_fabric(f, lids_max(f), s, err))
		return -1;
	for (i = 0; i < s->n; i++) {
		struct lft *t = &s->t[i];
		osm_switch_t *sw =
			osm_get_switch_by_guid(&osm->subn, cl_hton64(t->guid));
		const uint8_t *from = !sw	 ? NULL :
				      configured ? sw->new_lft :
						   sw->lft;

		if (from)
			memcpy(t->port, from,
			       (size_t)(t->top < sw->max_lid_ho ?
						t->top :
						sw->max_lid_ho) +
				       1);
	}
	return 0;
}

int subnet_current_lfts(osm_opensm_t *osm, const struct fabric *f,
			struct lft_set *s, struct osmre_err *err)
{
	return switch_tables(osm, f, 0, s, err);
}

int subnet_configured_lfts(osm_opensm_t *osm, const struct fabric *f,
			   struct lft_set *s, struct osmre_err *err)
{
	return switch_tables(osm, f, 1, s, err);
}
