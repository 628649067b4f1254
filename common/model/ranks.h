/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fat-tree ranks (Dmodc paper, 3.1): leaf switches (switches with at least
 * one linked CA or router) have rank 0; every other switch the hop distance
 * to the nearest leaf over switch links.  A link joins "down" to rank - 1
 * and "up" to rank + 1; links between switches of the same rank are neither
 * and carry no route of the fat-tree engines.  Non-switches and switches
 * that reach no leaf get -1.
 */
#ifndef OSMRE_RANKS_H
#define OSMRE_RANKS_H

#include "fabric.h"

/* rank[] has f->nnodes entries; returns the highest rank or -1 on OOM. */
int ranks_compute(const struct fabric *f, int *rank);

#endif
