/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A flow-level bandwidth estimate of static routes on a (multi-plane)
 * fabric: each flow of a traffic pattern follows the routes of the tables
 * on the planes its rail policy picks, and gets its max-min fair share of
 * the link capacities (progressive filling: every flow's rate grows at
 * the same pace until a link on its path is full; the flows of a full
 * link keep their rate, the others go on).  A flow split over k planes
 * puts rate/k on each plane's path.  Capacities are per plane (the speed
 * of every link of the plane, host links included), in GB/s.
 *
 * Planes are the connected parts of the switch graph that hold host
 * ports, numbered in the order of the hosts' first ports (as osmre
 * analyze).  A plane routes a host pair when both hosts have a port in it
 * and the tables lead from the source's port to the destination's LID.
 */
#ifndef OSMRE_BANDWIDTH_H
#define OSMRE_BANDWIDTH_H

#include <stdint.h>

#include "error.h"
#include "fabric.h"
#include "jobs.h"
#include "lft.h"

/*
 * The max-min fair rates of nflows flows over nchan channels: flow f uses
 * channel chan[k] with coefficient coef[k] (its rate times coef on that
 * channel) for k in first[f]..first[f+1]-1; cap[c] the capacity.  A flow
 * with no channel gets rate 0.  rate[] out.  0, or -1 with err (memory).
 */
int bw_maxmin(int nflows, const long *first, const int *chan,
	      const double *coef, int nchan, const double *cap, double *rate,
	      struct osmre_err *err);

enum bw_rail {
	BW_RAIL_RANDOM, /* split evenly over every plane that routes the pair */
	BW_RAIL_FIRST,	/* the first plane that routes it */
	BW_RAIL_HASH,	/* one plane per (source, destination) */
};

enum bw_pattern {
	BW_SHIFT, /* host i to host i + shift (hosts in node order) */
	BW_PERM,  /* random permutations (seed), each alone */
	BW_A2A,	  /* every host to every other, at once */
	BW_JOBS,  /* every host to every other host of its job, at once */
};

struct bw_opts {
	enum bw_pattern pattern;
	enum bw_rail rail;
	long shift;	     /* BW_SHIFT */
	int nperm;	     /* BW_PERM */
	uint64_t seed;	     /* BW_PERM, and BW_RAIL_HASH's salt */
	const double *speed; /* per plane, GB/s; the last one repeats */
	int nspeed;
	const struct jobs *jobs; /* BW_JOBS */
	/* the most (flow, channel) pairs one problem may hold: beyond, a
	 * refusal (a2a on a large fabric) */
	long max_pairs;
};

struct bw_result {
	int planes, hosts;
	int patterns;	  /* patterns solved (permutations) */
	long flows;	  /* per problem, routed */
	long unrouted;	  /* host pairs no plane routes (every problem) */
	double aggregate; /* GB/s: the sum of the rates, mean over patterns */
	/* per host and problem where it sends: the sum of its flows' rates,
	 * GB/s; senders counts those (host, problem) pairs */
	double host_min, host_avg, host_max;
	long senders;
};

/*
 * Host pairs (ordered, a != b) of f routed by s: *pairs in all, *any the
 * pairs that at least one plane routes, *every those that every plane
 * routes (*planes: how many).  0, or -1 with err.
 */
int bw_plane_pairs(const struct fabric *f, const struct lft_set *s, int *planes,
		   long *pairs, long *any, long *every, struct osmre_err *err);

/* The hosts an estimate on f counts (those with a port on a plane), or -1
 * with err: a shift is 1 .. that less one. */
int bw_hosts(const struct fabric *f, struct osmre_err *err);

/* The estimate for a pattern on f routed by s; 0, or -1 with err (a shift
 * outside 1 .. hosts - 1 too: it would be taken modulo the hosts). */
int bw_estimate(const struct fabric *f, const struct lft_set *s,
		const struct bw_opts *o, struct bw_result *r,
		struct osmre_err *err);

#endif
