/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Routes towards switch LIDs for engines that place switches on levels
 * (pqft): every switch's entry for switch X follows a shortest up-down
 * path (up: to a higher level), the smallest port first among equals; a
 * switch with no such path (a top switch that is no ancestor of X) gets a
 * shortest path of any kind.  Each switch's own LID goes to port 0.
 */
#ifndef OSMRE_SWROUTES_H
#define OSMRE_SWROUTES_H

#include "fabric.h"
#include "lft.h"

int swroutes_updown(const struct fabric *f, const int *level, struct lft_set *s,
		    int threads, struct osmre_err *err);

#endif
