/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Offline LID assignment, used when a net file carries no LIDs.
 *
 * Order (documented in osmre(1)): nodes in file order; a switch gets one LID
 * for its management port (LMC 0, as OpenSM gives switches without
 * lmc_esp0); every CA or router port with a link gets 2^lmc LIDs, the base
 * aligned on 2^lmc.  LIDs start at 1.  Removed nodes and unlinked CA ports
 * get none.
 */
#ifndef OSMRE_LIDS_H
#define OSMRE_LIDS_H

#include "fabric.h"

int lids_assign(struct fabric *f, int lmc, struct osmre_err *err);
/* 1 when at least one port of the fabric has a LID. */
int lids_present(const struct fabric *f);
/* Ports that ought to have a LID and have none (a switch's port 0, a
 * linked CA or router port): their count; each(arg, node, port) is
 * called for them in node order until it returns 0 (each may be NULL). */
int lids_missing(const struct fabric *f,
		 int (*each)(void *arg, int node, int port), void *arg);
/* Highest LMC of a CA or router port (0 when none). */
int lids_lmc_max(const struct fabric *f);
/* Highest LID in use (0 when none). */
unsigned lids_max(const struct fabric *f);

/* LID-indexed owner of each LID: node and port (-1 when free). */
struct lid_owner {
	int32_t node;
	int32_t port;
};
/* Fills owner[0..max] (allocated); fails on a LID used twice. */
int lids_owners(const struct fabric *f, struct lid_owner **owner, unsigned *max,
		struct osmre_err *err);
/*
 * Sorts lids[0..n) (each owned per own) by its port's GUID, then LID: an
 * order that does not depend on how the LIDs were numbered (OpenSM numbers
 * them in its discovery order; lids_assign in file order).  0, or -1 with
 * err (no memory; lids as given).
 */
int lids_sort_guid(const struct fabric *f, const struct lid_owner *own,
		   unsigned *lids, int n, struct osmre_err *err);

#endif
