/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The switch graph: the switches that are not removed, numbered
 * 0 .. nsw - 1 in node order (the compact index the engines and the risk
 * walk index their per-switch arrays by), and the directed links between
 * them with their ports, as sar and efipolish route on it.
 */
#ifndef OSMRE_SWGRAPH_H
#define OSMRE_SWGRAPH_H

#include "fabric.h"

/*
 * Fills idx[n] (f->nnodes entries) with node n's compact switch index, -1
 * for CAs, routers and removed switches, and node[k] (room for f->nnodes
 * entries; NULL when not wanted) with the node of switch k.  Returns nsw.
 */
int swgraph_index(const struct fabric *f, int *idx, int *node);

/* A directed switch link: compact switch indices, the port on from. */
struct swlink {
	int from, to;
	int port;
};

struct swgraph {
	const struct fabric *f;
	int nsw, *idx,
		*node; /* compact index <-> fabric node (swgraph_index) */
	int *nports;   /* per switch */
	/* channel of (switch, port): chan_first[sw] + port, nchan in all */
	int *chan_first, nchan;
	/* the links, switch by switch and port by port: those out of
	 * switch k are out_first[k] .. out_first[k + 1] - 1 */
	int nlink;
	struct swlink *l;
	int *out_first;
	int *link_of;	    /* channel -> the link out of it, -1 */
	int *in_first, *in; /* links into each switch (CSR), in link order */
	int *in_from;	    /* per entry of in: the link's switch */
	/* swgraph_groups: per link its ends, as arrays (the distances'
	 * view, lexdist.h), and per node its group (components.h:
	 * switch_groups) */
	int *lfrom, *lto;
	int *group, ngroups;
};

/*
 * Builds g on f: 0, or -1 when out of memory (then g holds what was
 * allocated, for swgraph_free).
 */
int swgraph_build(const struct fabric *f, struct swgraph *g);
/* Fills g's lfrom, lto, group and ngroups: 0, or -1 when out of memory. */
int swgraph_groups(struct swgraph *g);
void swgraph_free(struct swgraph *g);

#endif
