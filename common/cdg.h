/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Deadlock freedom on one virtual lane: the channel dependency graph of the
 * routes between CA ports (Dally & Seitz) must be acyclic.  A channel is a
 * directed switch-to-switch link; a route that enters switch n by one
 * channel and leaves it by another makes the second depend on the first.
 * Every route of every CA port to every LID of every other CA port counts,
 * all on one VL (SLs and SL-to-VL tables come with the SAR engine).
 */
#ifndef OSMRE_CDG_H
#define OSMRE_CDG_H

#include <stdio.h>

#include "fabric.h"
#include "lft.h"

struct cdg_result {
	long channels;		/* switch-to-switch channels used by routes */
	long deps;		/* distinct dependencies */
	int acyclic;
	/* one cycle when not acyclic: its channels as (switch node, port) */
	int cycle_len;
	int *cycle_node, *cycle_port;
};

int cdg_check(const struct fabric *f, const struct lft_set *s,
	      struct cdg_result *r, struct osmre_err *err);
/* "S1"[3] -> "S2"[5] -> ... -> "S1"[3] */
void cdg_print_cycle(FILE *fp, const struct fabric *f,
		     const struct cdg_result *r);
void cdg_result_free(struct cdg_result *r);

#endif
