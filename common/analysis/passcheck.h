/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The deadlock check of a routing pass as the plugin hands it out, by the
 * analyzer's channel dependency graph (cdg.h), apart from the engines'
 * own layering: every CA port's route to every other CA's LID, on the SL
 * that PathRecords give it (the engine's layer, route_layers_sl; with the
 * update protocol's escape, escape_vl for every LID above its port's
 * base LID) and on the VL that the SL-to-VL tables give that SL
 * (updn_sl2vl with the escape, VL = SL without).  An engine without
 * layers hands out OpenSM's SL (its QoS level): its routes are counted
 * on one VL, which covers any split of them over VLs (the plugin keeps
 * the escape's SL for the escape, proto_path_sl).  Switch-sourced
 * traffic (traps to the SM) is not counted, as in osmre analyze.
 */
#ifndef OSMRE_PASSCHECK_H
#define OSMRE_PASSCHECK_H

#include "cdg.h"
#include "engine.h"

/*
 * escape_vl < 0: no escape.  0 when every VL is acyclic, with c filled
 * (the VLs, channels and dependencies; cdg_result_free it); -1 with err:
 * "deadlock check: the routes close a cycle of N channel(s) on VL V:
 * "S1"[3] -> ..." (as much of it as err holds), or out of memory.
 */
int pass_deadlock_check(const struct fabric *f, const struct route_result *r,
			int escape_vl, struct cdg_result *c,
			struct osmre_err *err);
/* The line the plugin logs and osmre route prints for an acyclic c that
 * took ms: "deadlock check: acyclic on N VL(s), ..." into buf. */
void pass_deadlock_line(char *buf, size_t n, const struct cdg_result *c,
			double ms);

#endif
