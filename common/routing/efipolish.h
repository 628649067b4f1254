/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A local search on the effective edge forwarding index of a job mix
 * (jobs_efi): sar's last step with jobs.  The objective is, in order, the
 * largest number of intra-job routes on a directed inter-switch link, the
 * number of links carrying that many, and the sum of the squares of every
 * link's count.  Rules: only shortest paths, and no link carries more
 * destinations than the start's busiest link out of the same switch
 * (counted over the trees of every CA port's base LID from every switch
 * with CA ports), so that the all-to-all risk (A2A, min of sources and
 * destinations on a port) does not grow.
 *
 * Each round visits the jobs' destinations (a host's first port with a
 * LID, its base LID) in job order; a destination whose routes cross a
 * link at the current maximum is first taken off the counts and routed
 * again on its tree of shortest paths (breadth-first distances to its
 * switch): farthest switches first, each switch carrying sources takes
 * the link one hop closer that minimises the larger of that link's count
 * with its sources added and the best bottleneck beyond it (the next
 * hop's links with the same sources added, then the lowest maximum count
 * on a shortest path), then the lower count, then its current port.
 * Switches carrying none of the job's sources keep their entry.  If that
 * tree breaks a cap or does not lower the objective, the destination
 * tries to exchange its whole tree with each other CA port's base LID on
 * its switch (the same shortest-path tree fits both, and every link keeps
 * its destinations and sources: only the jobs' counts move).  A change is
 * kept only when the objective strictly drops, else the entries go back;
 * rounds stop when one keeps nothing, after max_rounds, or after
 * max_trials destinations tried.  Termination follows from the strict
 * drop.  Only base LIDs of CA ports change.
 */
#ifndef OSMRE_EFIPOLISH_H
#define OSMRE_EFIPOLISH_H

#include "fabric.h"
#include "jobs.h"
#include "lft.h"
#include "risk.h"
#include "swgraph.h"

struct efi_polish_stats {
	long max_before, max_after;
	long tried, kept; /* destinations re-routed, and kept */
	int rounds;
};

/* Polishes s (shortest paths on switch graph sg of s's fabric, built by
 * the caller with swgraph_build and swgraph_groups: sar hands its own)
 * for jobs j as above; 0, or -1 with err (no memory).  max_rounds /
 * max_trials <= 0: 8 / unbounded.  With a guard (risk.h, counting s), a
 * change is kept only when no link it adds routes to passes the guard's
 * A2A or SP risk. */
int efi_polish_on(const struct swgraph *sg, const struct jobs *j,
		  struct lft_set *s, int max_rounds, long max_trials,
		  struct risk_guard *guard, struct efi_polish_stats *st,
		  struct osmre_err *err);

#endif
