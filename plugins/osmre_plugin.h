/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libosmre.so: the OpenSM side of osmre.  Thin adapters only: options,
 * OpenSM subnet -> fabric model, routes -> new_lft and hop tables, the
 * SIGUSR2 re-route thread, dumps.  Every algorithm lives in common/.
 */
#ifndef OSMRE_PLUGIN_H
#define OSMRE_PLUGIN_H

#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>

/* first: it sets the options (ENABLE_OSM_PERF_MGR, ...) that shape
 * OpenSM's structures as the installed opensm was built */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>

#include "dmodc.h"
#include "fabric.h"
#include "lft.h"
#include "options.h"
#include "sar.h"
#include "update.h"
#include "updwire.h"

struct reroute {
	int pipe[2];		/* the handler writes, the thread reads */
	pthread_t thread;
	int running;
	struct sigaction old;	/* restored on exit */
	/* routing passes done, to wait for the one a sweep asked for */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned long passes;
};

/* sar's layers: those of the tables in force (path_sl), and those of a
 * pass not yet in force (the update protocol's staged tables) */
struct sar_layers {
	struct sar_result res;
	int *src_of_lid;	/* LID -> CA port index of res, -1 */
};

struct sar_state {
	pthread_mutex_t lock;
	struct sar_layers cur, next;
	int have_next;
	char *jobs_text;	/* the last good job file */
};

/* the update protocol (update.c) */
struct upd {
	pthread_mutex_t lock;	/* everything below but sm */
	pthread_cond_t cond;
	struct update sm;	/* the thread's alone */
	int inited, started, running;
	pthread_t thread;
	int request, topo;	/* flags for the thread */
	int mode;		/* of the next routing pass */
	struct lft_set cur, next;
	int have_cur, have_next;
	uint64_t cur_sig;
	long staged;		/* blocks changed by the last staged pass */
	/* those blocks (of cur and next alike: one topology), what UPDATE
	 * waits for */
	struct lft_block *changed;
	/* refused requests: the thread's alone */
	struct updw_ratelimit rejlog;
	unsigned long rejected;
};

struct osmre {
	osm_opensm_t *osm;
	struct osmre_options opt;
	struct dmodc *dmodc;	/* kept between passes */
	struct reroute rr;
	struct sar_state sar;
	struct upd upd;
};

/* subnet.c: OpenSM subnet <-> fabric model */
struct fabric *subnet_to_fabric(osm_opensm_t *osm, struct osmre_err *err);
/*
 * Copies the routes into new_lft, sets port profiles and hop counts: for
 * switch LIDs by walking the routes; for CA LIDs only when cost is not
 * NULL, as cost(ctx, switch, leaf) + 1 (the engine's routes to a CA follow
 * a cost it knows down by one per hop; cost < 0: not known).
 */
typedef int (*lfts_cost_fn)(void *ctx, int sw, int leaf);
int lfts_to_subnet(osm_opensm_t *osm, const struct fabric *f,
		   const struct lft_set *s, lfts_cost_fn cost, void *ctx,
		   struct osmre_err *err);

/*
 * OpenSM marks a switch it creates "need_update = 2" (send every block)
 * and clears the mark only when a heavy sweep reads its port 0 active,
 * so every forced re-route (SIGUSR2) before the next heavy sweep sends
 * all blocks again, changed or not.  This clears the mark, by OpenSM's
 * own rule (port 0 beyond INIT, no state change), outside a first sweep,
 * for the switches we already programmed (their stored blocks hold
 * routes).  OpenSM then sends the blocks that differ from the stored
 * ones, which are what the switch acknowledged, or zeros where a Set is
 * pending or failed (set_lft_block zeroes them first): those go again.
 * A switch that comes back with its tables lost is a new switch, its
 * stored blocks empty (OSM_NO_PATH), and still gets them all.  Returns
 * how many were cleared.
 */
int subnet_settle_switches(osm_opensm_t *osm);

/* reroute.c: SIGUSR2 */
int reroute_start(struct osmre *p);
void reroute_stop(struct osmre *p);
void reroute_pass_done(struct osmre *p);

/* sar.c: the sar engine's adapter (job file, path_sl, SL-to-VL) */
int sar_core(struct osmre *p, struct fabric *f, struct lft_set *s,
	     struct osmre_err *err);
uint8_t sar_path_sl(void *ctx, uint8_t hint, ib_net16_t slid,
		    ib_net16_t dlid);
void sar_update_sl2vl(void *ctx, osm_physp_t *port, uint8_t in,
		      uint8_t out, ib_slvl_table_t *t);
void sar_state_init(struct sar_state *st);
void sar_state_free(struct sar_state *st);
/* the last pass's layers come into force / are dropped */
void sar_promote(struct sar_state *st);
void sar_drop_next(struct sar_state *st);

/* update.c: the update protocol (update_protocol 1) */
int upd_start(struct osmre *p);
void upd_stop(struct osmre *p);
void upd_request(struct osmre *p);
/* In a routing pass: 1 when the committed tables (or the staged ones, in
 * the protocol's UPDATE) were put in s and the engine need not run, 0
 * when it must, -1 on error. */
int upd_reuse(struct osmre *p, const struct fabric *f, struct lft_set *s,
	      struct osmre_err *err);
/* After the engine: s becomes the tables to install (the committed ones
 * while the protocol stages the engine's). */
int upd_routed(struct osmre *p, const struct fabric *f, struct lft_set *s,
	       struct osmre_err *err);
/* A pass that failed: a staged pass waited for ends. */
void upd_failed(struct osmre *p);
/* The SL of a path to dlid: the escape's for a high LID. */
uint8_t upd_path_sl(struct osmre *p, uint8_t sl, ib_net16_t dlid);
void upd_sl2vl(struct osmre *p, ib_slvl_table_t *t);

/* dump.c: dmodc's state after a pass, when routing dumps are enabled */
void dump_dmodc(struct osmre *p, const struct fabric *f);

#endif
