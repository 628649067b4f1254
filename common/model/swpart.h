/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A partition of the switches into k parts, each holding about 1/k of the
 * CA ports of its connected part of the switch graph (every plane of a
 * multi-plane fabric has all k parts), grown part by part as METIS's
 * initial partitioning grows one (greedy graph growing): a part starts from the free switch with the
 * most links to the parts already grown (the first part from the
 * lowest-numbered switch, one with a CA port first), then takes, one at
 * a time, the free switch with the largest share of its switch links
 * into the part (more links on ties, then the lower number), while its
 * CA ports are below its share; a part whose neighbours are all taken
 * starts again from a new switch; the last part takes every switch left.
 * With groups (a dragonfly's, switch_groups), a switch taken brings its
 * group's free switches along, so groups stay whole.  Used to spread
 * destinations over virtual layers as Nue does with METIS: destinations
 * near each other share a layer, and their routing trees share
 * dependencies.
 */
#ifndef OSMRE_SWPART_H
#define OSMRE_SWPART_H

#include "fabric.h"

/* part[] (f->nnodes entries): 0..k-1 for every switch not removed, -1
 * for the other nodes.  group (may be NULL: every switch alone; else
 * switch_groups'): a switch taken takes its group's free switches along.
 * 0, or -1 with err (k < 1, out of memory). */
int switch_partition(const struct fabric *f, const int *group, int k, int *part,
		     struct osmre_err *err);

#endif
