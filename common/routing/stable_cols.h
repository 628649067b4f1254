/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A stable re-route (dmodc_stable): after a topology change, a switch
 * keeps its previous entry for a destination LID when following the
 * previous entries from it still reaches the destination over links that
 * exist, without a loop, up then down under the new ranks.  The other
 * switches (the routes that crossed the change) are settled nearest first
 * by the new routing's distance: each keeps its previous port when that
 * leads to a switch already settled, no farther than the new routing
 * would be, and up*-down* still holds; otherwise it takes the new
 * routing's port.  So only the switches whose own next hop lost its route
 * change, not every switch upstream of them.  No loop: a settled switch
 * points at a switch settled before it.  Up*-down*: every move is checked
 * against the ranks (a down move only into a down-only route).  Where the
 * new routing's own port would break that (not seen on fat trees), the
 * destination falls back to the plain rule: switches whose previous route
 * works keep it, the others take the new routing's entries (loop-free and
 * up-down when both routings are, under the same ranks).
 */
#ifndef OSMRE_STABLE_COLS_H
#define OSMRE_STABLE_COLS_H

#include "fabric.h"
#include "lft.h"

/*
 * Puts prev's entries (prev bound to f, lft_set_bind_known) into cur (the
 * new routing, one table per switch of f) wherever they still work, as
 * above; rank: per node of f, the rank of each switch (leaves 0, -1
 * unknown), or NULL to keep only whole previous routes.  On threads (<= 0:
 * online CPUs); *kept (may be NULL): the destination LIDs whose every
 * entry stayed.  0, or -1 with err (no memory).
 */
int stable_keep_columns(const struct fabric *f, const struct lft_set *prev,
			struct lft_set *cur, const int *rank, long *kept,
			int threads, struct osmre_err *err);

#endif
