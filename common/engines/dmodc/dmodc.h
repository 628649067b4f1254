/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Dmodc (Gliksberg et al., HOTI 2019): fault-resilient closed-form routing
 * for parallel generalized fat trees.  See dmodc.c and osmre-engines(7) for the
 * decisions taken where the paper is silent.
 */
#ifndef OSMRE_DMODC_H
#define OSMRE_DMODC_H

#include <stdint.h>
#include <stdio.h>

#include "fabric.h"
#include "lft.h"
#include "risk.h"

#define DMODC_INF 0xFF /* no up-down path */

struct dmodc_opts {
	int threads; /* <= 0: online CPUs */
};

struct dmodc;

/*
 * Computes ranks, port groups, costs, dividers and NIDs of f, checks
 * validity and fills out (one table per switch, every LID of f; LIDs must
 * be assigned).  On an invalid fabric returns -1 with err naming an
 * unreachable leaf pair; the state stays readable through the accessors
 * below.
 */
int dmodc_run(struct dmodc *d, const struct fabric *f,
	      const struct dmodc_opts *o, struct lft_set *out,
	      struct osmre_err *err);
/*
 * The first half of dmodc_run alone, on one thread: ranks, port groups,
 * costs, dividers and the topological NIDs (the paper's Algorithms 1
 * and 2), and the validity check; no routing.  For the host order of the
 * analyzer and sar (dmodc_nid).  0, or -1 with err as dmodc_run.
 */
int dmodc_nids(struct dmodc *d, const struct fabric *f, struct osmre_err *err);
struct dmodc *dmodc_new(void);
void dmodc_free(struct dmodc *d);

/* One call: new, run, free. */
int dmodc_route(const struct fabric *f, const struct dmodc_opts *o,
		struct lft_set *out, struct osmre_err *err);

/* State of the last run, by fabric node index (-1 / 0 when not a switch). */
int dmodc_rank(const struct dmodc *d, int node);
uint64_t dmodc_divider(const struct dmodc *d, int node);
/* Up-down cost from a switch to a leaf switch, DMODC_INF when none or
 * when `to` is not a leaf. */
int dmodc_cost(const struct dmodc *d, int from, int to);
/* Topological NID of CA port (node, port), or -1. */
long dmodc_nid(const struct dmodc *d, int node, int port);
int dmodc_num_leaves(const struct dmodc *d);
int dmodc_leaf(const struct dmodc *d, int i); /* node of i-th leaf */

/*
 * The state dump (dmodc_state.c), after dmodc_run on f: per switch
 * "switch GUID rank R divider PI 'desc' cost-to-leaves min C max C
 * unreachable N" and, under a leaf, "  port P nid T lid LID GUID 'desc'"
 * per CA port, after 3 "#" lines.  0 or -1 (write error).
 */
int dmodc_state_write(FILE *fp, const struct dmodc *d, const struct fabric *f);

/* The CA ports of f in dmodc's topological NID order, in port GUID order
 * where dmodc cannot rank f (dmodc_order.c): risk.h's order.  0, or -1
 * with err (no memory). */
int dmodc_host_order(const struct fabric *f, struct risk_order *o,
		     struct osmre_err *err);

#endif
