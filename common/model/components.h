/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Connected components of the switch graph (switch-to-switch links only):
 * planes of a multi-plane fabric are separate components.
 */
#ifndef OSMRE_COMPONENTS_H
#define OSMRE_COMPONENTS_H

#include "fabric.h"

/* comp[] (f->nnodes entries): the lowest node index of each switch's
 * component; -1 for CAs, routers and removed switches.  0 or -1 (OOM). */
int switch_components(const struct fabric *f, int *comp);

/*
 * A piece of a plane is not a plane.  Two CAs can talk when some
 * component holds a port of each: planes of a multi-plane fabric are
 * recognised only because every host has a port in each.  Returns 1 with
 * *a < *b (node indices) for a pair of CAs with linked ports that share
 * no component (a split fabric), 0 when every two share one, -1 when out
 * of memory.  comp: from switch_components.
 */
int components_split_pair(const struct fabric *f, const int *comp, int *a,
			  int *b);
/* 1 when CA node ca has a port linked into component c. */
int components_meet(const struct fabric *f, const int *comp, int ca, int c);

#endif
