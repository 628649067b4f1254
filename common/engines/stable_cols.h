/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A stable re-route by whole destinations (dmodc_stable): after a
 * topology change, a destination LID keeps its previous routes (its
 * column of the previous tables) when they still form a complete tree to
 * it in the new fabric: every switch the new routing gives a route to the
 * LID has a previous entry, and following the previous entries from every
 * such switch reaches the destination over links that exist, without a
 * loop.  Otherwise the LID takes the new column whole.  Every LID's
 * routes are then one engine's tree, old or new, so they stay loop-free;
 * when both routings are up*-down* under the same ranks (dmodc on a fat
 * tree whose ranks the change kept), the union is too, so it stays
 * deadlock-free on one VL.
 */
#ifndef OSMRE_STABLE_COLS_H
#define OSMRE_STABLE_COLS_H

#include "fabric.h"
#include "lft.h"

/*
 * Replaces the columns of cur (the new routing, one table per switch of
 * f) by prev's (bound to f, lft_set_bind_known) where prev's still work;
 * *kept counts them (may be NULL).  0, or -1 with err (no memory).
 */
int stable_keep_columns(const struct fabric *f, const struct lft_set *prev,
			struct lft_set *cur, long *kept, struct osmre_err *err);

#endif
