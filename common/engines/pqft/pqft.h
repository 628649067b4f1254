/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pqft: closed-form routing of PGFTs and quasi fat trees (Zahavi, Keslassy,
 * Kolodny, "Quasi Fat Trees for HPC Clouds and Their Fault-Resilient
 * Closed-Form Routing").
 *
 * The engine gets a fabric and the topology's parameters; pqft_assign()
 * gives every node its tuple (l; s_h..s_1) from the connection rule alone
 * (pqft_tuples.c), pqft_route() computes the LFTs with the paper's
 * equations (pqft.c).
 *
 * Decisions where the paper leaves a choice (documented in osmre(8)):
 * - hosts have one parent (w_1 = 1);
 * - tuples: levels from the leaves; upper digits s_h..s_{l+1} from the
 *   nesting of the connected components of the subfabric of levels <= j;
 *   lower digits s_l..s_1 from the parents of a node's smallest-GUID child;
 *   where the rule cannot tell nodes apart (hosts of a leaf, sibling
 *   subtrees, parents of a node, twin switches of a QFT's cross level that
 *   share their parents), the smaller GUID gets the smaller digit;
 * - PGFT parallel links: logical port c + m_l*k is the k-th link, in port
 *   order, between the two switches;
 * - LID j of a port with LMC > 0 is routed up as host index (d + j) mod N,
 *   so the LIDs of a host leave its leaf by different up-ports.
 */
#ifndef OSMRE_PQFT_H
#define OSMRE_PQFT_H

#include <stdio.h>

#include "fabric.h"
#include "lft.h"
#include "pgft.h"

#define PQFT_MAX_LEVELS PGFT_MAX_LEVELS

struct pqft {
	struct pgft_params t;
	int cross; /* the QFT's cross-connected level c, 0: none */
	const struct fabric *f;
	int *level; /* per node: 0 host, 1..h switch, -1 not used */
	uint8_t (*dig)[PQFT_MAX_LEVELS + 1]; /* per node: s_1..s_h */
	long *hidx; /* per node: host index d (eq. 4), -1 */
	int *hport; /* per node: the host's linked port */
	long nhosts;
	/* per switch: logical down-port f -> physical port, logical up-port
	 * g -> physical port (0: none) */
	uint8_t **down, **up;
	long R[PQFT_MAX_LEVELS + 1]; /* eq. (12), or eq. (11) for PGFTs */
	/* faults: what the fabric lacks of the topology (switch-to-switch
	 * links of present switches, switches) */
	long missing_links, missing_switches;
	long excluded; /* switches left out: no link down left */
	uint64_t seed; /* of the choices among alternate ports (set
				 * before pqft_assign(); pqft_new(): 1) */
};

struct pqft *pqft_new(void);
void pqft_free(struct pqft *q);

/*
 * Assigns the tuples of fabric f as the topology t; fails with the first
 * node or link that does not match (f must stay alive while q is used).
 */
int pqft_assign(struct pqft *q, const struct fabric *f,
		const struct pgft_params *t, struct osmre_err *err);

/*
 * The parameters of a complete PGFT or QFT read off the fabric
 * (pqft_infer.c); fails on a fabric they do not fit, a degraded one say.
 */
int pqft_infer(const struct fabric *f, struct pgft_params *t,
	       struct osmre_err *err);

/* Digit i (1..h) and level of node n; host index d of a host node. */
static inline int pqft_digit(const struct pqft *q, int n, int i)
{
	return q->dig[n][i];
}

/*
 * LFTs of every switch for every LID of f (LIDs assigned); threads <= 0:
 * online CPUs.  A complete fabric gets the closed form; one with faults
 * the fault-tolerant routing of pqft_faults.c.  Fails when some leaf has
 * no up-down path left to some host, naming them.
 */
int pqft_route(struct pqft *q, struct lft_set *s, int threads,
	       struct osmre_err *err);

/* pqft_faults.c */
int pqft_route_faults(struct pqft *q, struct lft_set *s, int threads,
		      struct osmre_err *err);

/* The state dump (pqft_state.c) */
/*
 * a line "topology SPEC seed S missing-links L missing-switches M
 * excluded E", then per switch "switch GUID level L tuple s1,..,sh
 * 'desc'" and, under a leaf, "  port P host D lid LID GUID 'desc'" per
 * host (D: its index, eq. 4); "plane K" first when plane >= 0.  0 or -1
 * (write error).
 */
int pqft_state_write(FILE *fp, const struct pqft *q, int plane);

#endif
