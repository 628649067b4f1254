/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Hop counts along a set of LFTs (what OpenSM keeps in its switches' hop
 * tables for its multicast trees).
 */
#ifndef OSMRE_LFT_HOPS_H
#define OSMRE_LFT_HOPS_H

#include "fabric.h"
#include "lft.h"

/*
 * Routes and hop counts between all switches at once (for OpenSM's hop
 * tables): m->port[j * n + i] is switch i's output port towards switch j's
 * LID, m->hops[j * n + i] the number of links that route takes (0 for
 * i == j), LFT_HOPS_BYTE_NONE when it fails.  Switch j is fabric node
 * m->node[j]; switches without a LID are left out.  Column-major by target
 * so that each target's walk stays in cache.  On up to `threads` threads
 * (0: one per online CPU); the result does not depend on them.
 */
#define LFT_HOPS_BYTE_NONE 0xFF
struct sw_hops {
	int n;
	int *node;	      /* fabric node of switch j */
	unsigned *lid;	      /* its LID */
	uint8_t *port, *hops; /* n * n */
};
int lft_switch_hops(const struct fabric *f, const struct lft_set *s,
		    int threads, struct sw_hops *m, struct osmre_err *err);
void sw_hops_free(struct sw_hops *m);

#endif
