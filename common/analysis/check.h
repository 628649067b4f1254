/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Validity of a set of LFTs on a fabric, by walking the tables: from every
 * CA port with a LID to every LID of every other CA port (and to every
 * switch LID), report unreachable pairs, loops and, when asked, paths of
 * CA-to-CA routes that are not up*-down* under the fat-tree ranks (ranks.h)
 * (a down-then-up turn, or a hop between switches of the same rank).
 */
#ifndef OSMRE_CHECK_H
#define OSMRE_CHECK_H

#include <stdio.h>

#include "fabric.h"
#include "lft.h"

struct check_opts {
	int updown;	/* check the up-down property */
	int threads;	/* <= 0: online CPUs */
	int max_report; /* problems printed (first ones by LID) */
};

/* per-plane figures kept for at most this many planes */
#define CHECK_MAX_PLANES 16

/* CA-to-CA figures of the pairs whose destination is in one plane */
struct check_plane {
	long pairs, unreachable, loops, updown, longer;
	int min_hops, max_hops;
	double avg_hops;
};

struct check_result {
	long pairs; /* CA port -> CA LID pairs walked */
	long unreachable;
	long loops;
	long updown; /* up-down violations */
	/* why the up-down rule was not applied though asked ("": it was):
	 * the fabric is no fat tree */
	char updown_skipped[128];
	long sw_pairs, sw_unreachable, sw_loops; /* CA -> switch LID */
	long no_lid;		/* switches and linked CA ports without a LID:
				 * nobody reaches them (a partial dump) */
	int min_hops, max_hops; /* links, over reachable CA pairs */
	double avg_hops;
	/* reachable CA pairs whose path is longer than the shortest one of
	 * the topology */
	long longer;
	/* planes (fabric_plane_numbers): with more than one, the CA-pair
	 * figures above split by the destination's plane, for the first
	 * CHECK_MAX_PLANES */
	int nplanes;
	struct check_plane plane[CHECK_MAX_PLANES];
};

/*
 * Walks the tables; prints up to o->max_report problems to report (may be
 * NULL).  Returns 0 when done (the result says whether the tables are
 * valid), -1 on error.
 */
int check_lfts(const struct fabric *f, const struct lft_set *s,
	       const struct check_opts *o, struct check_result *r, FILE *report,
	       struct osmre_err *err);

static inline int check_ok(const struct check_result *r)
{
	return !r->unreachable && !r->loops && !r->updown &&
	       !r->sw_unreachable && !r->sw_loops && !r->no_lid;
}

#endif
