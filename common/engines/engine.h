/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The routing engines, one table for the plugin and the CLI alike: each
 * engine's name, what it needs, what it produces, and the call that runs
 * it.  engine_route() runs an engine on a fabric and, when asked, the
 * update protocol's up*-down* escape for the high LIDs (updn.h) after it.
 *
 * Adding an engine: its core in a file of common/ (fabric in, lft_set
 * out, err on refusal), one row in engine.c's table, and its options, if
 * any, in engine_opts and options.c (engine_opts_from_options).  The
 * plugin registers every row with OpenSM, `osmre route -e NAME` finds it.
 */
#ifndef OSMRE_ENGINE_H
#define OSMRE_ENGINE_H

#include <stdint.h>
#include <stdio.h>

#include "fabric.h"
#include "guidlist.h"
#include "jobs.h"
#include "lft.h"
#include "options.h"
#include "sar.h"
#include "updn.h"

struct dmodc;

/* what an engine needs (engine.needs) */
/* a fat tree (ranks.h) */
#define ENGINE_NEEDS_TREE     0x1
/* pqft: the topology's parameters (read off a complete fabric) */
#define ENGINE_NEEDS_TOPOLOGY 0x2
/* a job file (and I/O nodes) */
#define ENGINE_TAKES_JOBS     0x4

/* what it produces (engine.produces) */
/* an SL per path (VL = SL) */
#define ENGINE_LAYERS  0x1
/* hop counts to CAs (dmodc's costs) */
#define ENGINE_CA_HOPS 0x2
/* re-routes that keep the routes still working (engine_opts.prev) */
#define ENGINE_STABLE  0x4

struct engine_opts {
	int threads; /* <= 0: online CPUs */
	/* pqft */
	const char *topology; /* pgft()/qft() spec; NULL or "": inferred */
	uint64_t seed;	      /* of the choices around faults */
	/* sar */
	const struct jobs *jobs;   /* NULL or empty: DFSSSP */
	const struct guidlist *io; /* NULL: no I/O nodes */
	int max_vls;		   /* layers allowed, 1..15 */
	int all_pairs;		   /* sar_opts.all_pairs */
	/* the update protocol: high LIDs by up*-down* on SL/VL escape_vl
	 * (sar then layers at most escape_vl layers); < 0: no escape */
	int escape_vl;
	/* dmodc: the state kept between passes (hop counts, dumps); NULL:
	 * a temporary one */
	struct dmodc *dmodc;
	/* ENGINE_STABLE: the tables in force, bound to the fabric; the
	 * routes that still work stay (sar_opts.prev); NULL: from scratch */
	const struct lft_set *prev;
	/* use prev: sar always; dmodc with dmodc_stable (stable_cols.h:
	 * a switch keeps its entry where its previous route still works) */
	int stable;
	/* pqft, sar: their state dump (engine_state.h) written there; NULL:
	 * none */
	FILE *state;
	/* sar: what its last pass left for the next stable re-route
	 * (sar_memo.h), kept by the caller between passes; NULL: none */
	struct sar_memo *memo;
};

/* An SL per (source CA port, destination LID) path: sar's layers. */
struct route_layers {
	int have;
	struct sar_result res;
	int *src_of_lid; /* LID -> CA port index of res, -1 */
};

struct route_result {
	struct lft_set tables;	    /* one per switch, every LID */
	struct route_layers layers; /* ENGINE_LAYERS */
	int has_escape;
	struct updn_info escape;
	/* pqft: the parameters read off the fabric ("" when given) */
	char inferred[256];
	/* dmodc_stable: destination LIDs that kept their previous routes */
	long kept;
};

struct engine {
	const char *name;
	const char *summary; /* one line for usage texts */
	unsigned needs, produces;
	int (*route)(const struct engine_opts *o, const struct fabric *f,
		     struct route_result *r, struct osmre_err *err);
};

/* The table, NULL-terminated by name. */
extern const struct engine engines[];

/* The engine called name, or NULL. */
const struct engine *engine_find(const char *name);
/* "dmodc, pqft, sar": the names for usage texts and errors. */
const char *engine_names(void);
/* Defaults: online CPUs, seed 1, 8 VLs, no escape. */
void engine_opts_defaults(struct engine_opts *o);
/* The options file's settings for engine e (threads, pqft_topology,
 * seed, sar_max_vls, sar_job_all_pairs, the escape when update_protocol is on). */
void engine_opts_from_options(const struct osmre_options *opt,
			      const struct engine *e, struct engine_opts *o);

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

/* The SL of the path from slid to dlid: its layer, 0 when the engine has
 * none or the LIDs are unknown. */
uint8_t route_layers_sl(const struct route_layers *l, unsigned slid,
			unsigned dlid);
void route_layers_free(struct route_layers *l);

#endif
