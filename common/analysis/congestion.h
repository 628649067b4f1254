/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Congestion risk of a set of LFTs (Dmodc paper, section 4): for a traffic
 * pattern, every output port gets min(#sources, #destinations) over the
 * routes of the pattern that cross it; the risk of the pattern is the
 * maximum over ports.  A2A: all-to-all; SP: the maximum over all N-1 shift
 * permutations (i -> i + k mod N) in a given order of the CA ports.
 * 1 is optimal.  Routes are walked in the tables, so this judges any LFT
 * set, osmre's or OpenSM's.
 */
#ifndef OSMRE_CONGESTION_H
#define OSMRE_CONGESTION_H

#include "fabric.h"
#include "lft.h"

/* The CA ports with a LID, in the order the shifts use. */
struct progress;
struct cong_order {
	int n;
	int *node, *port;
	struct progress *progress; /* of the pattern sweeps; NULL: none */
};

enum cong_order_kind { CONG_ORDER_NID, CONG_ORDER_GUID, CONG_ORDER_NAME };

/*
 * An order given in a file, one CA per line: "NAME" (every CA port of the
 * node whose net-file name or NodeDescription's first word is NAME, in
 * port order), "NAME PORT", or a port or node GUID "0x...".  '#' starts a
 * comment.  CA ports the file does not list take no part in the patterns;
 * *unlisted tells how many.  Errors name file:line.
 */
int cong_order_read(const char *path, const struct fabric *f,
		    struct cong_order *o, int *unlisted, struct osmre_err *err);

/*
 * NID order is dmodc's topological order (Algorithm 2; falls back to GUID
 * order when dmodc cannot rank the fabric); GUID and name orders sort the
 * CA ports by port GUID or by "node name, port", names in natural order
 * (cong_natural_cmp).
 */
int cong_order_make(const struct fabric *f, enum cong_order_kind kind,
		    struct cong_order *o, struct osmre_err *err);
void cong_order_free(struct cong_order *o);
/*
 * The compute CAs' ports of f (roles.h, with the administrator's hints
 * h, NULL: none) in dmodc's NID order on the tree of the compute CAs:
 * the order of the same tree without the other CAs, edge switches and
 * stray cables.  *others: the CA ports left out.  0, or -1 with err.
 */
struct roles_hints;
int cong_order_compute(const struct fabric *f, const struct roles_hints *h,
		       struct cong_order *o, int *others,
		       struct osmre_err *err);
/* strcmp's contract, with runs of digits compared as numbers:
 * "H_2_0" < "H_10_0"; "a01" < "a1" < "a2". */
int cong_natural_cmp(const char *a, const char *b);

struct cong_result {
	int risk;	 /* max over ports (and shifts) */
	long unroutable; /* pairs whose walk failed */
};

int cong_all_to_all(const struct fabric *f, const struct lft_set *s,
		    const struct cong_order *o, int threads,
		    struct cong_result *r, struct osmre_err *err);
/*
 * All-to-all's figures per output port, for a per-link report: port p
 * of node n is index off[n] + p; sources[q] and sources[total + q] are
 * the CA ports sending through it and the destinations reached through
 * it (its A2A risk is their minimum), routes[q] the routes (ordered CA
 * port pairs) through it.  Free with cong_ports_free (also on error).
 */
struct cong_ports {
	long total;
	long *off;
	int *sources; /* 2 * total: sources, then destinations */
	long *routes;
};
int cong_all_to_all_ports(const struct fabric *f, const struct lft_set *s,
			  const struct cong_order *o, int threads,
			  struct cong_result *r, struct cong_ports *ports,
			  struct osmre_err *err);
void cong_ports_free(struct cong_ports *p);
/*
 * RP: nperm random permutations (Fisher-Yates, permutation i seeded with
 * seed + i, so the result does not depend on the threads); the risk is the
 * median (the lower one for an even count) of the per-permutation maxima.
 * A CA port mapped to itself sends nothing.
 */
int cong_random_perms(const struct fabric *f, const struct lft_set *s,
		      const struct cong_order *o, int nperm, uint64_t seed,
		      int threads, struct cong_result *r,
		      struct osmre_err *err);
int cong_shifts(const struct fabric *f, const struct lft_set *s,
		const struct cong_order *o, int threads, struct cong_result *r,
		struct osmre_err *err);

#endif
