/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The routing engines' table (engine.h's rows) and the one way to run
 * them, for the plugin and the CLI alike: engine_route() runs an engine
 * on a fabric and, when asked, the update protocol's up*-down* escape
 * for the high LIDs (updn.h) after it.
 */
#ifndef OSMRE_ENGINE_TABLE_H
#define OSMRE_ENGINE_TABLE_H

#include <stdint.h>
#include <stdio.h>

#include "engine.h"

/* The table, NULL-terminated. */
extern const struct engine *const engines[];

/* The engine called name, or NULL. */
const struct engine *engine_find(const char *name);
/* "dmodc, pqft, sar": the names for usage texts and errors. */
const char *engine_names(void);
/* Defaults: online CPUs, the engine's settings' defaults, no escape. */
void engine_opts_defaults(struct engine_opts *o);
/* Adds every row's options to opt (options_add) before options_read:
 * 0, or -1 when out of memory. */
int engine_options_add(struct osmre_options *opt);
/* The options file's settings for engine e (its settings as
 * engine_options_add gave them, e->from_options, the escape when
 * update_protocol is on). */
void engine_opts_from_options(const struct osmre_options *opt,
			      const struct engine *e, struct engine_opts *o);
/* What the pass of e gave besides its tables: the engine's lines
 * (e->report), then the escape's; o as for the pass. */
void engine_report(const struct engine *e, const struct engine_opts *o,
		   const struct route_result *r, engine_say say, void *arg);

/*
 * Runs e on f (LIDs assigned) into r (zeroed here; free it with
 * route_result_free, also on error), then the escape when
 * o->escape_vl >= 0 (an error then begins "escape: ").  0, or -1 with err
 * saying why the fabric is not routable.
 */
int engine_route(const struct engine *e, const struct engine_opts *o,
		 const struct fabric *f, struct route_result *r,
		 struct osmre_err *err);
void route_result_free(struct route_result *r);
/* The layers as an SL file (slmap.h) of engine name: "default 0", a
 * "path" line per path on another layer; 0 or -1 (write error). */
int route_layers_write_sls(FILE *fp, const struct fabric *f,
			   const struct route_layers *l, const char *name);

void route_layers_free(struct route_layers *l);

#endif
