/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdlib.h>

#include "lids.h"

/* A port that carries LIDs: switch port 0, linked CA/router ports. */
static int lid_port(const struct fab_node *n, int p)
{
	if (n->removed)
		return 0;
	if (n->type == FAB_SWITCH)
		return p == 0;
	return p > 0 && n->ports[p].rnode >= 0;
}

int lids_assign(struct fabric *f, int lmc, struct osmre_err *err)
{
	unsigned next = 1, step = 1u << lmc;
	int i, p;

	if (lmc < 0 || lmc > 7)
		return osmre_fail(err, "LMC %d out of range 0..7", lmc);
	for (i = 0; i < f->nnodes; i++) {
		struct fab_node *n = &f->nodes[i];

		for (p = 0; p <= n->nports; p++) {
			struct fab_port *pt = &n->ports[p];
			unsigned width = n->type == FAB_SWITCH ? 1 : step;

			pt->lid = 0;
			pt->lmc = 0;
			if (!lid_port(n, p))
				continue;
			next = (next + width - 1) & ~(width - 1);
			if (next + width - 1 > FAB_MAX_UCAST_LID)
				return osmre_fail(
					err,
					"out of unicast LIDs at node \"%s\"",
					n->name);
			pt->lid = (uint16_t)next;
			pt->lmc = n->type == FAB_SWITCH ? 0 : (uint8_t)lmc;
			next += width;
		}
	}
	return 0;
}

int lids_present(const struct fabric *f)
{
	int i, p;

	for (i = 0; i < f->nnodes; i++)
		for (p = 0; p <= f->nodes[i].nports; p++)
			if (f->nodes[i].ports[p].lid)
				return 1;
	return 0;
}

int lids_missing(const struct fabric *f,
		 int (*each)(void *arg, int node, int port), void *arg)
{
	int i, p, n = 0, more = 1;

	for (i = 0; i < f->nnodes; i++) {
		const struct fab_node *nd = &f->nodes[i];

		if (nd->removed)
			continue;
		for (p = fab_is_switch(nd) ? 0 : 1;
		     p <= (fab_is_switch(nd) ? 0 : nd->nports); p++) {
			if (nd->ports[p].lid ||
			    (!fab_is_switch(nd) && nd->ports[p].rnode < 0))
				continue;
			n++;
			if (more && each)
				more = each(arg, i, p);
		}
	}
	return n;
}

int lids_lmc_max(const struct fabric *f)
{
	int i, p, max = 0;

	for (i = 0; i < f->nnodes; i++)
		for (p = 1;
		     p <= f->nodes[i].nports && !fab_is_switch(&f->nodes[i]);
		     p++)
			if (f->nodes[i].ports[p].lid &&
			    f->nodes[i].ports[p].lmc > max)
				max = f->nodes[i].ports[p].lmc;
	return max;
}

unsigned lids_max(const struct fabric *f)
{
	unsigned max = 0, top;
	int i, p;

	for (i = 0; i < f->nnodes; i++)
		for (p = 0; p <= f->nodes[i].nports; p++) {
			const struct fab_port *pt = &f->nodes[i].ports[p];

			if (!pt->lid)
				continue;
			top = pt->lid + (1u << pt->lmc) - 1;
			if (top > max)
				max = top;
		}
	return max;
}

int lids_owners(const struct fabric *f, struct lid_owner **owner, unsigned *max,
		struct osmre_err *err)
{
	unsigned m = lids_max(f), l, k;
	struct lid_owner *o = malloc(((size_t)m + 1) * sizeof(*o));
	int i, p;

	if (!o)
		return osmre_fail(err, "out of memory");
	for (l = 0; l <= m; l++)
		o[l] = (struct lid_owner){ -1, -1 };
	for (i = 0; i < f->nnodes; i++)
		for (p = 0; p <= f->nodes[i].nports; p++) {
			const struct fab_port *pt = &f->nodes[i].ports[p];

			if (!pt->lid || f->nodes[i].removed)
				continue;
			for (k = 0; k < (1u << pt->lmc); k++) {
				l = pt->lid + k;
				if (o[l].node >= 0) {
					osmre_fail(
						err,
						"LID %u used by \"%s\" and \"%s\"",
						l, f->nodes[o[l].node].name,
						f->nodes[i].name);
					free(o);
					return -1;
				}
				o[l] = (struct lid_owner){ i, p };
			}
		}
	*owner = o;
	*max = m;
	return 0;
}

struct guid_lid {
	uint64_t guid;
	unsigned lid;
};

static int guid_lid_cmp(const void *a, const void *b)
{
	const struct guid_lid *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return x->lid < y->lid ? -1 : x->lid > y->lid;
}

int lids_sort_guid(const struct fabric *f, const struct lid_owner *own,
		   unsigned *lids, int n, struct osmre_err *err)
{
	struct guid_lid *k = malloc(((size_t)n + 1) * sizeof(*k));
	int i;

	if (!k)
		return osmre_fail(err, "out of memory");
	for (i = 0; i < n; i++) {
		const struct lid_owner *o = &own[lids[i]];

		k[i].lid = lids[i];
		k[i].guid = o->node < 0 ?
				    UINT64_MAX :
				    fab_port_guid(&f->nodes[o->node], o->port);
	}
	qsort(k, (size_t)n, sizeof(*k), guid_lid_cmp);
	for (i = 0; i < n; i++)
		lids[i] = k[i].lid;
	free(k);
	return 0;
}
