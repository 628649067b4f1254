/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Random degradation of a fabric, reproducible from a seed.  Candidate links
 * are switch-to-switch links (an HCA cable is not a routing fault);
 * candidate switches are all switches.  A removed switch keeps its GUID slot
 * (net files written afterwards carry switchguid= lines where needed).
 */
#ifndef OSMRE_DEGRADE_H
#define OSMRE_DEGRADE_H

#include "fabric.h"
#include "rng.h"

enum degrade_kind { DEGRADE_LINKS, DEGRADE_SWITCHES };

/* How many items of that kind can be removed. */
long degrade_candidates(const struct fabric *f, enum degrade_kind kind);
/* Removes n distinct random items. */
int degrade_remove(struct fabric *f, enum degrade_kind kind, long n,
		   struct rng *r, struct osmre_err *err);
/*
 * The Dmodc paper's shifted log-uniform amount a = floor(2^(m*u) - 1),
 * u uniform in [0, 1).
 */
long degrade_loguniform(struct rng *r, double m);

#endif
