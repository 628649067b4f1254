/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A fat-tree engine (dmodc, pqft) on a production fabric: the engine
 * routes the tree of the compute CAs (roles.h: roles_core), and every
 * other destination (aggregation nodes, storage and gateway HCAs, the
 * hosts of edge switches) is routed up*-down* under the same ranks
 * (updn_route_lids_ranked), edge switches forward up to their leaf.  All
 * routes then go up, then down, in one order: deadlock-free on one VL
 * together, and the compute CAs' routes are those of the engine on the
 * tree without the quirks.
 */
#ifndef OSMRE_TREE_CORE_H
#define OSMRE_TREE_CORE_H

#include "engine.h"

/*
 * Runs e on f into r (r->tables made for f), through the tree of the
 * compute CAs when f is not that plain tree (r->roles says what was
 * found).  0, or -1 with err.
 */
int tree_core_route(const struct engine *e, const struct engine_opts *o,
		    const struct fabric *f, struct route_result *r,
		    struct osmre_err *err);

/*
 * Runs e (an engine for any topology: sar) on f into r; where f is a fat
 * tree with a few stray cables (roles.h), on f without them, so that no
 * pair of leaves takes a stray cable as its shortest path and loads it
 * with the whole of their traffic; where it has CAs that are not compute
 * CAs and e takes I/O nodes, with them among its I/O nodes (routed after
 * the compute CAs).  0, or -1 with err.
 */
int tree_core_route_any(const struct engine *e, const struct engine_opts *o,
			const struct fabric *f, struct route_result *r,
			struct osmre_err *err);

#endif
