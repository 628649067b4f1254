/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Deadlock freedom: the channel dependency graph of the routes between CA
 * ports (Dally & Seitz) must be acyclic.  Its vertices are virtual
 * channels: a directed switch-to-switch link on one VL.  A route that
 * enters switch n by one virtual channel and leaves it by another makes
 * the second depend on the first.  Every route of every CA port to every
 * LID of every other CA port counts.  Without an SL map every route uses
 * VL 0; with one, a route's SL comes from the map and each hop's VL from
 * the SL-to-VL table of the switch it leaves (input port, output port,
 * SL), so a cycle through several VLs is found too.
 */
#ifndef OSMRE_CDG_H
#define OSMRE_CDG_H

#include <stdio.h>

#include "fabric.h"
#include "lft.h"
#include "slmap.h"

struct cdg_result {
	long channels; /* virtual channels used by routes */
	long deps;     /* distinct dependencies */
	int nvl;       /* VLs used: 1 + the highest */
	int acyclic;
	/* one cycle when not acyclic: its channels (switch node, port, VL) */
	int cycle_len;
	int *cycle_node, *cycle_port, *cycle_vl;
};

int cdg_check(const struct fabric *f, const struct lft_set *s,
	      const struct sl_map *m, struct cdg_result *r,
	      struct osmre_err *err);

/*
 * Where the SLs are not in a file: the SL of the route from the CA port
 * whose LID is slid to dlid (each source's DLIDs asked in ascending
 * order), and the VL of each hop (VL = SL when vl is NULL).  SLs and VLs
 * 0-15.
 */
struct cdg_sls {
	int (*sl)(void *ctx, unsigned slid, unsigned dlid);
	int (*vl)(void *ctx, int node, int in, int out, int sl);
	void *ctx;
	/* 0: vl does not depend on the input port, so the routes of a
	 * switch's CA ports to one LID on one SL are walked once */
	int vl_by_port;
	/* 0: sl depends on dlid alone (and with vl_by_port 0, one walk a
	 * switch and LID, from one of its CA ports) */
	int sl_by_source;
};

/* cdg_check with the SLs and VLs of sls. */
int cdg_check_sls(const struct fabric *f, const struct lft_set *s,
		  const struct cdg_sls *sls, struct cdg_result *r,
		  struct osmre_err *err);
/* "S1"[3] -> "S2"[5] -> ... -> "S1"[3], with "(VL v)" after each channel
 * when r->nvl > 1 */
void cdg_print_cycle(FILE *fp, const struct fabric *f,
		     const struct cdg_result *r);
void cdg_result_free(struct cdg_result *r);

#endif
