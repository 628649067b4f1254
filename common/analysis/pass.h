/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One routing pass, as the plugin and `osmre route` both run it, in one
 * order: the engine on the fabric (engine_route: the tree of the compute
 * CAs for the fat-tree engines, the escape), a refusal's hint of what
 * the options lack (engine.refused), the deadlock check of the pass when
 * asked (passcheck.h), then the report: the engine's lines
 * (engine_report) and the check's.  The inputs (jobs, previous tables,
 * the state dump's file) are the caller's, in o: the plugin reads them
 * from OpenSM and its files, the tool from its options.
 */
#ifndef OSMRE_PASS_H
#define OSMRE_PASS_H

#include "engine_table.h"

/* Why pass_run failed (*why). */
enum pass_failure {
	PASS_OK = 0,
	PASS_REFUSED, /* the engine refused the fabric */
	PASS_CYCLE,   /* the deadlock check found a cycle */
	PASS_ERROR,   /* out of memory, a write error */
};

/*
 * Runs e on f with o into r (route_result_free it, also on failure);
 * with deadlock_check, the pass checked apart from the engine.  The
 * report goes to say(arg, ...), a line a call: after a pass that
 * routed and was checked.  0, or -1 with err and *why.
 */
int pass_run(const struct engine *e, const struct engine_opts *o,
	     const struct fabric *f, int deadlock_check, struct route_result *r,
	     engine_say say, void *arg, int *why, struct osmre_err *err);

#endif
