/* SPDX-License-Identifier: BSD-2-Clause */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "components.h"
#include "planes.h"

/* The cabled ports of a host, which must be 1..c. */
static int cabled(const struct fab_node *n, struct osmre_err *err)
{
	int p, c = 0;

	for (p = 1; p <= n->nports; p++)
		if (n->ports[p].rnode >= 0) {
			if (p != c + 1)
				return osmre_fail(
					err,
					"planes: host \"%s\": cabled ports must come first (port %d)",
					n->name, p);
			c++;
		}
	return c;
}

int fabric_planes(const struct fabric *one, int planes, struct fabric **out,
		  struct osmre_err *err)
{
	struct fabric *f = fabric_new();
	int *map = malloc(((size_t)one->nnodes * planes + 1) * sizeof(int));
	int n, k, p, hosts = 0;
	char name[300];

	*out = NULL;
	if (!f || !map) {
		fabric_free(f);
		free(map);
		return osmre_fail(err, "out of memory");
	}
	/* the switches, plane by plane */
	for (k = 0; k < planes; k++)
		for (n = 0; n < one->nnodes; n++) {
			const struct fab_node *s = &one->nodes[n];

			map[(size_t)k * one->nnodes + n] = -1;
			if (s->type != FAB_SWITCH || s->removed)
				continue;
			snprintf(name, sizeof(name), "P%d_%s", k, s->name);
			map[(size_t)k * one->nnodes + n] =
				fabric_add_node(f, FAB_SWITCH, name, NULL,
						s->nports,
						s->guid + ((uint64_t)k << 24),
						err);
			if (map[(size_t)k * one->nnodes + n] < 0)
				goto fail;
		}
	/* the hosts, with a port in each plane */
	for (n = 0; n < one->nnodes; n++) {
		const struct fab_node *h = &one->nodes[n];
		int c, np, ix;

		if (h->type == FAB_SWITCH || h->removed)
			continue;
		if ((c = cabled(h, err)) < 0)
			goto fail;
		np = c * planes > 2 ? c * planes : 2;
		if (np > FAB_MAX_PORTS) {
			osmre_fail(err,
				   "planes: host \"%s\" would need %d ports",
				   h->name, np);
			goto fail;
		}
		ix = fabric_add_node(f, h->type, h->name, h->desc, np,
				     0x100000 + (uint64_t)hosts++ *
							(uint64_t)(np + 1),
				     err);
		if (ix < 0)
			goto fail;
		for (k = 0; k < planes; k++)
			map[(size_t)k * one->nnodes + n] = ix;
	}
	/* the cables: switch-switch in each plane, host port p of plane k
	 * at k*c + p */
	for (n = 0; n < one->nnodes; n++) {
		const struct fab_node *a = &one->nodes[n];

		if (a->removed)
			continue;
		for (p = 1; p <= a->nports; p++) {
			int r = a->ports[p].rnode, rp = a->ports[p].rport;
			int host = a->type != FAB_SWITCH;

			if (r < 0)
				continue;
			/* a host cable from the host's side, a switch cable
			 * once, from its lower end */
			if (!host &&
			    (one->nodes[r].type != FAB_SWITCH || r < n))
				continue;
			for (k = 0; k < planes; k++) {
				size_t o = (size_t)k * one->nnodes;
				int c = host ? cabled(a, err) : 0;
				int ap = host ? k * c + p : p;

				if (fabric_link(f, map[o + n], ap, map[o + r],
						rp, err))
					goto fail;
			}
		}
	}
	free(map);
	*out = f;
	return 0;
fail:
	free(map);
	fabric_free(f);
	return -1;
}

int fabric_sm_hcas(struct fabric *f, struct osmre_err *err)
{
	int n0 = f->nnodes, *comp = malloc(((size_t)n0 + 1) * sizeof(int));
	int *leaf = malloc(((size_t)n0 + 1) * sizeof(int));
	int *free_sw = NULL, *free_port = NULL;
	int n, p, added = 0, rc = -1, h = -1, l0 = -1;
	char name[300];

	if (!comp || !leaf || switch_components(f, comp)) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	/* per component: its last switch with a host */
	for (n = 0; n < n0; n++)
		leaf[n] = -1;
	for (n = 0; n < n0; n++) {
		const struct fab_node *s = &f->nodes[n];
		int host = 0;

		if (s->type != FAB_SWITCH || s->removed || comp[n] < 0)
			continue;
		for (p = 1; p <= s->nports && !host; p++)
			host = s->ports[p].rnode >= 0 &&
			       f->nodes[s->ports[p].rnode].type != FAB_SWITCH;
		if (host)
			leaf[comp[n]] = n;
	}
	/* the host on the first plane's leaf's last host port makes room:
	 * its ports become the SM HCAs' */
	for (n = 0; n < n0 && l0 < 0; n++)
		l0 = leaf[n];
	for (p = l0 >= 0 ? f->nodes[l0].nports : 0; p >= 1 && h < 0; p--) {
		int r = f->nodes[l0].ports[p].rnode;

		if (r >= 0 && f->nodes[r].type != FAB_SWITCH)
			h = r;
	}
	if (h >= 0) {
		const struct fab_node *hn = &f->nodes[h];

		free_sw = malloc(((size_t)hn->nports + 1) * sizeof(int));
		free_port = malloc(((size_t)hn->nports + 1) * sizeof(int));
		if (!free_sw || !free_port) {
			osmre_fail(err, "out of memory");
			goto out;
		}
		for (p = 1; p <= hn->nports; p++) {
			free_sw[p] = hn->ports[p].rnode;
			free_port[p] = hn->ports[p].rport;
		}
	}
	/* the HCAs numbered in the order of their planes' first switches */
	for (n = 0; n < n0; n++) {
		int l = leaf[n], sm, sp = -1, q;

		if (l < 0)
			continue;
		/* the freed port in this plane, else a new one on its leaf */
		for (q = 1; h >= 0 && q <= f->nodes[h].nports && sp < 0; q++)
			if (free_sw[q] >= 0 && comp[free_sw[q]] == n) {
				l = free_sw[q];
				sp = free_port[q];
			}
		if (sp > 0)
			fabric_unlink(f, l, sp);
		snprintf(name, sizeof(name), "SM_%s", f->nodes[l].name);
		if ((sp < 0 && (sp = fabric_add_port(f, l, err)) < 0) ||
		    (sm = fabric_add_node(f, FAB_CA, name, NULL, 1,
					  0x5A0000 + (uint64_t)added * 2,
					  err)) < 0 ||
		    fabric_link(f, l, sp, sm, 1, err))
			goto out;
		added++;
	}
	if (h >= 0)
		fabric_remove_node(f, h);
	rc = added;
out:
	free(comp);
	free(leaf);
	free(free_sw);
	free(free_port);
	return rc;
}

struct fabric *fabric_plane_view(const struct fabric *f, const int *comp, int c,
				 struct osmre_err *err)
{
	struct fabric *v = fabric_clone(f);
	int n, p;

	if (!v) {
		osmre_fail(err, "out of memory");
		return NULL;
	}
	for (n = 0; n < v->nnodes; n++) {
		struct fab_node *x = &v->nodes[n];
		int kept = 0;

		if (x->removed)
			continue;
		if (fab_is_switch(x)) {
			if (comp[n] != c)
				fabric_remove_node(v, n);
			continue;
		}
		for (p = 1; p <= x->nports; p++) {
			int r = x->ports[p].rnode;

			if (r < 0)
				continue;
			if (fab_is_switch(&f->nodes[r]) && comp[r] == c)
				kept++;
			else
				fabric_unlink(v, n, p);
		}
		if (!kept)
			fabric_remove_node(v, n);
	}
	return v;
}

int fabric_plane_numbers(const struct fabric *f, const int *comp, int *plane_no)
{
	int n, p, count = 0;

	for (n = 0; n < f->nnodes; n++)
		plane_no[n] = -1;
	for (n = 0; n < f->nnodes; n++) {
		const struct fab_node *x = &f->nodes[n];

		if (x->removed || fab_is_switch(x))
			continue;
		for (p = 1; p <= x->nports; p++) {
			int r = x->ports[p].rnode;

			if (r >= 0 && comp[r] >= 0 && plane_no[comp[r]] < 0)
				plane_no[comp[r]] = count++;
		}
	}
	return count;
}

/* Node GUID -> index in the merged fabric, by linear probing over a
 * table twice the size of the nodes seen. */
struct guid_idx {
	uint64_t *guid;
	int *node;
	size_t size;
};

static int *guid_idx_slot(struct guid_idx *h, uint64_t guid)
{
	size_t i =
		(size_t)((guid * 0x9E3779B97F4A7C15ULL) >> 20) & (h->size - 1);

	while (h->node[i] >= 0 && h->guid[i] != guid)
		i = (i + 1) & (h->size - 1);
	h->guid[i] = guid;
	return &h->node[i];
}

/* Adds node n of part (or finds it by GUID) in f; its index or -1. */
static int merge_node(struct fabric *f, struct guid_idx *h,
		      const struct fabric *part, const char *name, int n,
		      struct osmre_err *err)
{
	const struct fab_node *a = &part->nodes[n];
	int *slot = guid_idx_slot(h, a->guid), m;

	if (*slot < 0) {
		m = fabric_add_node(f, a->type, a->name, a->desc, a->nports,
				    a->guid, err);
		if (m < 0)
			return osmre_prefix(err, "%s", name);
		*slot = m;
		return m;
	}
	m = *slot;
	if (f->nodes[m].type != a->type)
		return osmre_fail(err,
				  "%s: node \"%s\" (GUID 0x%016" PRIx64
				  ") is a %s, a %s in an earlier topology",
				  name, a->name, a->guid,
				  fab_type_name(a->type),
				  fab_type_name(f->nodes[m].type));
	while (f->nodes[m].nports < a->nports)
		if (fabric_add_port(f, m, err) < 0)
			return osmre_prefix(err, "%s", name);
	return m;
}

int fabric_merge(const struct fabric *const *parts, const char *const *names,
		 int nparts, struct fabric **out, struct osmre_err *err)
{
	struct fabric *f = fabric_new();
	struct guid_idx h = { 0 };
	size_t total = 0, i;
	int k, n, p, *map = NULL;

	*out = NULL;
	for (k = 0; k < nparts; k++)
		total += (size_t)parts[k]->nnodes;
	for (h.size = 16; h.size < 2 * total; h.size *= 2)
		;
	h.guid = malloc(h.size * sizeof(*h.guid));
	h.node = malloc(h.size * sizeof(*h.node));
	if (!f || !h.guid || !h.node) {
		osmre_fail(err, "out of memory merging %d topologies", nparts);
		goto fail;
	}
	for (i = 0; i < h.size; i++)
		h.node[i] = -1;
	for (k = 0; k < nparts; k++) {
		const struct fabric *part = parts[k];

		free(map);
		map = malloc(((size_t)part->nnodes + 1) * sizeof(int));
		if (!map) {
			osmre_fail(err, "out of memory merging %d topologies",
				   nparts);
			goto fail;
		}
		for (n = 0; n < part->nnodes; n++) {
			map[n] = -1;
			if (!part->nodes[n].removed &&
			    (map[n] = merge_node(f, &h, part, names[k], n,
						 err)) < 0)
				goto fail;
		}
		for (n = 0; n < part->nnodes; n++) {
			const struct fab_node *a = &part->nodes[n];

			for (p = 1; map[n] >= 0 && p <= a->nports; p++) {
				int r = a->ports[p].rnode,
				    rp = a->ports[p].rport;
				const struct fab_port *mp =
					&f->nodes[map[n]].ports[p];

				if (r < 0 || map[r] < 0 || r < n ||
				    (r == n && rp < p))
					continue; /* each cable once */
				if (mp->rnode == map[r] && mp->rport == rp)
					continue; /* as an earlier part */
				if (mp->rnode >= 0 ||
				    f->nodes[map[r]].ports[rp].rnode >= 0) {
					osmre_fail(
						err,
						"%s: \"%s\"[%d] - \"%s\"[%d]: expected the cabling of the earlier topologies, where one of these ports is cabled elsewhere",
						names[k], a->name, p,
						part->nodes[r].name, rp);
					goto fail;
				}
				if (fabric_link(f, map[n], p, map[r], rp,
						err)) {
					osmre_prefix(err, "%s", names[k]);
					goto fail;
				}
			}
		}
	}
	/* each part's LIDs numbered on their own: none is the merged
	 * fabric's */
	for (n = 0; n < f->nnodes; n++)
		for (p = 0; p <= f->nodes[n].nports; p++) {
			f->nodes[n].ports[p].lid = 0;
			f->nodes[n].ports[p].lmc = 0;
		}
	free(map);
	free(h.guid);
	free(h.node);
	*out = f;
	return 0;
fail:
	free(map);
	free(h.guid);
	free(h.node);
	fabric_free(f);
	return -1;
}
