/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The all-to-all (A2A), shift (SP) and random permutation (RP) congestion
 * risks of a set of tables, for an engine's own choices: the same figures
 * as osmre analyze (congestion.h), taken on the switch-to-switch links
 * (the links to and from CA ports carry a risk of 1 in these patterns).  A link's A2A risk is
 * the lesser of the distinct source CA ports and the distinct destination
 * CA ports whose routes cross it; a shift permutation's, the routes that
 * cross it (one source, one destination each); SP is the most over the
 * N - 1 shifts i -> i + k mod N in the order given (risk_order_by; dmodc's
 * topological order, else port GUIDs, as analyze's default).  Only CA ports' base LIDs
 * count; a route that loops or ends nowhere adds nothing.
 */
#ifndef OSMRE_RISK_H
#define OSMRE_RISK_H

#include "fabric.h"
#include "lft.h"
#include "swgraph.h"

/* The CA ports with a LID and a link, in NID order. */
struct risk_order {
	int n;
	int *sw;       /* the fabric node of its switch */
	unsigned *lid; /* its base LID */
	/* the caller's switch graph of the same fabric, which the measures
	 * then walk instead of building their own (it must outlive them and
	 * any risk_guard); NULL: each builds one */
	const struct swgraph *sg;
	/* risk_order_perms' permutations (NULL: none), nperm of n each,
	 * drawn from perm_seed on; NULL from risk_order_by */
	int *perm;
	int nperm;
	uint64_t perm_seed;
};

/* The CA ports of f ordered by nid(arg, node, port), then by port GUID;
 * nid NULL: by port GUID.  0, or -1 with err (no memory).  dmodc's
 * topological NIDs: dmodc_host_order (dmodc.h). */
int risk_order_by(const struct fabric *f,
		  long (*nid)(const void *arg, int node, int port),
		  const void *arg, struct risk_order *o, struct osmre_err *err);
void risk_order_free(struct risk_order *o);

/* The A2A risk of s over the CA ports of o (max 1 when nothing crosses a
 * switch link); 0, or -1 with err. */
int risk_a2a(const struct fabric *f, const struct lft_set *s,
	     const struct risk_order *o, long *a2a, struct osmre_err *err);

/* The SP risk of s in o's order (at least 1); 0, or -1 with err. */
int risk_sp(const struct fabric *f, const struct lft_set *s,
	    const struct risk_order *o, long *sp, struct osmre_err *err);

/*
 * Draws into o (made by risk_order_by) the nperm permutations risk_rp
 * draws for nperm and seed, replacing any stored before; risk_rp called
 * with the same nperm and seed then reads them (the same risks, without
 * drawing them each time), risk_order_free frees them.  It changes o, so
 * not while another thread measures with it.  Nothing stored (perm
 * NULL) when nperm <= 0 or they would take more than 64 MiB.  0, or -1
 * with err (no memory; nothing stored).
 */
int risk_order_perms(struct risk_order *o, int nperm, uint64_t seed,
		     struct osmre_err *err);

/* The RP risk of s: the median over nperm random permutations of o's CA
 * ports of the most routes on a switch link (at least 1), drawn as osmre
 * analyze --rp nperm draws them (seeds seed, seed + 1, ...).  0, or -1
 * with err. */
int risk_rp(const struct fabric *f, const struct lft_set *s,
	    const struct risk_order *o, int nperm, uint64_t seed, long *rp,
	    struct osmre_err *err);

/*
 * Both risks kept up to date while a search changes the tables one
 * destination at a time: risk_guard_new counts every route of s (which
 * must then stay the tables searched); take a destination's routes out
 * with risk_guard_dest(g, lid, -1) before changing its entries, put them
 * back with +1 after, and ask risk_guard_over whether some link crossed
 * since the last risk_guard_clear now exceeds a2a or sp.  The counts take
 * about (N + source switches) bytes per switch port; NULL (err says why)
 * when that would pass max_bytes or memory is short.
 */
struct risk_guard;
struct risk_guard *risk_guard_new(const struct fabric *f, struct lft_set *s,
				  const struct risk_order *o, long a2a, long sp,
				  size_t max_bytes, struct osmre_err *err);
void risk_guard_dest(struct risk_guard *g, unsigned lid, int sign);
int risk_guard_over(const struct risk_guard *g);
void risk_guard_clear(struct risk_guard *g);
/* How far the counted tables are above the risks: every link's A2A above
 * a2a, and every (shift, link) count above sp, summed; 0 within. */
long risk_guard_excess(const struct risk_guard *g);
/*
 * Brings the counted tables within the risks, taking trees (every
 * switch's entry of a CA port's base LID) from safe, which must be within
 * them and bound to the same fabric: first those that lower the excess,
 * in o's order, for as long as one does, then the others in order until
 * nothing exceeds.  *taken: the trees taken.  0, or -1 with err.
 */
int risk_guard_repair(struct risk_guard *g, const struct lft_set *safe,
		      long *taken, struct osmre_err *err);
void risk_guard_free(struct risk_guard *g);

#endif
