/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A stable re-route (dmodc_stable): after a topology change, a switch
 * keeps its previous entry for a destination LID when following the
 * previous entries from it still reaches the destination over links that
 * exist, without a loop; the other switches (the routes that crossed the
 * change) take the new routing's entry.  No loop: a new entry leads along
 * the new routing's path until a switch whose previous route works, then
 * on that route, whose switches all kept theirs.  Up*-down* when both
 * routings are, under the same ranks (dmodc on a fat tree whose ranks the
 * change kept): where the new path meets a working previous route, that
 * switch has a down path to the destination (the previous route over
 * existing links), so both routings go down from it; the paths stay up
 * then down, deadlock-free on one VL.
 */
#ifndef OSMRE_STABLE_COLS_H
#define OSMRE_STABLE_COLS_H

#include "fabric.h"
#include "lft.h"

/*
 * Puts prev's entries (prev bound to f, lft_set_bind_known) into cur (the
 * new routing, one table per switch of f) wherever they still work, on
 * threads (<= 0: online CPUs); *kept (may be NULL): the destination LIDs
 * whose every entry stayed.  0, or -1 with err (no memory).
 */
int stable_keep_columns(const struct fabric *f, const struct lft_set *prev,
			struct lft_set *cur, long *kept, int threads,
			struct osmre_err *err);

#endif
