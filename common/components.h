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

#endif
