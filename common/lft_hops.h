/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Hop counts along a set of LFTs: for one destination LID, how many links
 * each switch's route takes to reach it (what OpenSM keeps in its switches'
 * hop tables for SA PathRecords and multicast trees).
 */
#ifndef OSMRE_LFT_HOPS_H
#define OSMRE_LFT_HOPS_H

#include "fabric.h"
#include "lft.h"

#define LFT_HOPS_NONE (-1)

/*
 * hops[] and stack[] have f->nnodes entries.  Fills hops[n] for every switch
 * n: 0 for the destination switch itself, 1 for a switch attached to the
 * destination CA port, ...; LFT_HOPS_NONE when the route fails or loops.
 * (dn, dp) is the node and port owning lid.
 */
void lft_hops(const struct fabric *f, const struct lft_set *s, unsigned lid,
	      int dn, int dp, int16_t *hops, int *stack);

#endif
