/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Whether a set of LFTs delivers on a fabric, switch by switch: the
 * check a new master runs on the tables the switches hold before it
 * keeps them in force (plugins/plugin.c).  Cheaper than check.h's walk
 * of every CA pair: each (switch, destination LID) is settled once.
 */
#ifndef OSMRE_LFT_REACH_H
#define OSMRE_LFT_REACH_H

#include "fabric.h"
#include "lft.h"

/*
 * The (switch, LID) pairs of f whose route in s does not deliver: for
 * every destination LID of f (a switch's LID; a linked CA port's base
 * LID and the LMC's LIDs above it) and every switch of f that is not
 * removed, following s from that switch must reach the destination over
 * links of f, with no loop, no missing entry, no port without a link
 * and no stop at another CA.  s is bound to f (tables by node).  The
 * count (0: all delivered), or -1 with err (no memory).
 */
long lft_set_undelivered(const struct fabric *f, const struct lft_set *s,
			 struct osmre_err *err);

#endif
