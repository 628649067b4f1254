/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The switch graph's compact numbering: the switches that are not
 * removed, numbered 0 .. nsw - 1 in node order, the numbering the engines
 * (sar, efipolish, updn) and the risk walk index their per-switch arrays
 * by.
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

#endif
