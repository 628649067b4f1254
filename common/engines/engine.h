/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a routing engine is: its row (struct engine) gives its name, what
 * it needs, what it produces, the call that runs it and the one that
 * says what a pass gave.  The rows are listed in one table
 * (common/run/engine_table.h), which the plugin and the CLI alike use.
 *
 * Adding an engine: a folder common/engines/NAME/ whose NAME_engine.c
 * defines its row around its core (fabric in, lft_set out, err on
 * refusal), and that row named in engine_table.c's table.  What an engine
 * keeps for itself (its result's details, its state between passes)
 * stays behind the row's callbacks; its options are the row's too: a
 * settings struct of its own file and the descriptors (options.h) of
 * its osmre.conf keys and `osmre route` flags that fill it, read and
 * logged by the plugin (engine_table.h),
 * taken and listed by the tool, opaque here (engine_opts.settings).
 * The plugin registers every row with OpenSM, `osmre route -e NAME`
 * finds it.
 */
#ifndef OSMRE_ENGINE_H
#define OSMRE_ENGINE_H

#include <stdint.h>
#include <stdio.h>

#include "fabric.h"
#include "guidlist.h"
#include "jobs.h"
#include "lft.h"
#include "updn.h"

struct opt_desc;
struct osmre_options;

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
/* hop counts to CAs (engine.ca_hops) */
#define ENGINE_CA_HOPS 0x2
/* re-routes that keep the routes still working (engine_opts.prev) */
#define ENGINE_STABLE  0x4

struct engine_opts {
	int threads; /* <= 0: online CPUs */
	/* the engine's own settings (engine.options), opaque here; NULL:
	 * the defaults of its options */
	const void *settings;
	/* ENGINE_TAKES_JOBS: the caller's inputs */
	const struct jobs *jobs;   /* NULL or empty: no jobs */
	const struct guidlist *io; /* NULL: no I/O nodes */
	/* ENGINE_TAKES_JOBS: the files a caller that watches them (the
	 * plugin) reads them from, set by engine.from_options (sar's
	 * sar_job_file, sar_io_guid_file); NULL: none */
	const char *job_file, *io_file;
	/* the fat-tree engines' roles (roles.h): compute nodes and root
	 * switches as OpenSM's cn_guid_file and root_guid_file; NULL or
	 * empty: found from the structure (io above counts too) */
	const struct guidlist *cn, *roots;
	/* the update protocol: high LIDs by up*-down* on SL/VL escape_vl
	 * (sar then layers at most escape_vl layers); < 0: no escape */
	int escape_vl;
	/* ENGINE_LAYERS: at most this many layers whatever the engine's
	 * own budget (the SLs the fabric's SL-to-VL tables separate: 1
	 * when OpenSM's qos is off); 0: the engine's budget */
	int max_layers;
	/* ENGINE_STABLE: the tables in force, bound to the fabric; the
	 * routes that still work stay (sar_opts.prev); NULL: from scratch */
	const struct lft_set *prev;
	/* use prev (engine.from_options: dmodc only with dmodc_stable) */
	int stable;
	/* ENGINE_CA_HOPS: the caller fills hop counts to CA LIDs from the
	 * engine's costs (engine.ca_hops; engine.from_options: dmodc with
	 * dmodc_ca_hops) */
	int ca_hops;
	/* the engine's state dump (NAME_state.c) written there; NULL:
	 * none */
	FILE *state;
	/* what the engine keeps between passes (engine.keep_new), kept by
	 * the caller; NULL: a pass on its own */
	void *keep;
};

/* An SL per (source CA port, destination LID) path: an engine's layers
 * (VL = SL). */
struct route_layers {
	int have;
	int layers; /* used */
	/* layer of the path from CA port src to LID dlid:
	 * layer[src * (maxlid + 1) + dlid]; NULL when every path is in
	 * layer 0 */
	int nsrc;
	unsigned maxlid;
	uint8_t *layer;
	/* src -> its node and port (NULL in a staging file's layers) */
	int *src_node, *src_port;
	int *src_of_lid; /* LID -> src, -1 */
	/* destination LIDs that did not fit in the budget's layers (routed
	 * on the last one, acyclic or up*-down*); 0: the budget sufficed */
	long over_budget;
};

/* The SL of the path from slid to dlid: its layer, 0 when the engine has
 * none or the LIDs are unknown. */
static inline uint8_t route_layers_sl(const struct route_layers *l,
				      unsigned slid, unsigned dlid)
{
	if (!l->have || !l->layer || !l->src_of_lid || slid > l->maxlid ||
	    dlid > l->maxlid || l->src_of_lid[slid] < 0)
		return 0;
	return l->layer[(size_t)l->src_of_lid[slid] * (l->maxlid + 1) + dlid];
}

struct route_result {
	struct lft_set tables;	    /* one per switch, every LID */
	struct route_layers layers; /* ENGINE_LAYERS */
	int has_escape;
	struct updn_info escape;
	/* a stable re-route: destination LIDs that kept their previous
	 * routes; -1: not counted */
	long kept;
	/* a fat-tree engine on a production fabric (tree_core.h): 1 when
	 * it routed the tree of the compute CAs, and what roles found */
	int roles_core;
	char roles[320];
	long turned;	 /* entries that turn down-up at the turn leaf */
	int strays_only; /* an engine for any topology: strays left out */
	/* what else the engine says of its pass (engine.report), freed by
	 * engine.priv_free */
	void *priv;
	void (*priv_free)(void *priv);
};

/* engine.report's and engine_report's lines: one a call, no newline */
typedef void (*engine_say)(void *arg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

struct engine {
	const char *name;
	const char *summary; /* one line for usage texts */
	unsigned needs, produces;
	int (*route)(const struct engine_opts *o, const struct fabric *f,
		     struct route_result *r, struct osmre_err *err);
	/* its options (options.h), ended by a NULL key: osmre.conf keys,
	 * defaults, ranges, `osmre route` flags and help, each an offset
	 * into its settings (settings_size bytes, a struct of its own file
	 * that engine_opts.settings points to); NULL: none */
	const struct opt_desc *options;
	size_t settings_size;
	/* the plugin's pass: what of its settings goes into o (threads,
	 * stable); NULL: the defaults */
	void (*from_options)(const void *settings, struct engine_opts *o);
	/* what a pass gave besides its tables, a line per say() call;
	 * NULL: nothing */
	void (*report)(const struct engine_opts *o,
		       const struct route_result *r, engine_say say, void *arg);
	/* a refusal of the plugin's pass: what the options file lacks,
	 * prefixed to err; NULL: nothing */
	void (*refused)(const struct engine_opts *o,
			const struct route_result *r, struct osmre_err *err);
	/* engine_opts.keep: made once, freed at the end; NULL: none */
	void *(*keep_new)(void);
	void (*keep_free)(void *keep);
	/* ENGINE_CA_HOPS: the hops from switch sw to the leaf of a CA,
	 * -1: none, after a pass with keep */
	int (*ca_hops)(void *keep, int sw, int leaf);
};

#endif
