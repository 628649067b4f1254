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
#include <stdio.h>
#include <sys/types.h>

/* first: it sets the options (ENABLE_OSM_PERF_MGR, ...) that shape
 * OpenSM's structures as the installed opensm was built */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>

#include "fabric.h"
#include "lft.h"
#include "lft_hops.h"
#include "options.h"
#include "engine_table.h"
#include "staging.h"
#include "update.h"
#include "updwire.h"

struct reroute {
	int pipe[2]; /* the handler writes, the thread reads */
	pthread_t thread;
	int running;
	struct sigaction old; /* restored on exit */
	/* routing passes done, to wait for the one a sweep asked for */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned long passes;
};

/* the update protocol's transport (proto.c) */
struct proto {
	pthread_mutex_t lock; /* the flags below */
	struct update sm;     /* the thread's alone */
	int inited, started, running;
	pthread_t thread;
	int request, topo; /* flags for the thread */
	/* under lock: SUBNET UP seen (the base tables in force); ports
	 * without the escape VL at the last pass (-1: not checked yet) */
	int ready, escape_bad;
	double ready_at; /* the first SUBNET UP as master (clock_mono) */
	int grace_said;
	/* the thread's alone: refused and dropped requests, the rates */
	/* one log rate limit per kind of line */
	struct updw_ratelimit rejlog, esclog, ratelog, alienlog, sendlog;
	unsigned long rejected, over_rate, unanswered, send_failed, not_master;
	struct updw_bucket *by_lid; /* one per source LID */
	struct updw_bucket refused, notice;
	int restored;	       /* committed tables restored: an epoch */
	uint64_t saved_digest; /* the sessions last saved */
	double saved_at, stats_at;
	unsigned long stats_runs; /* commits when the last stats line went */
	/* the routing thread's: the committed pass's generation saved */
	unsigned long tables_gen;
};

/* the hop counts of the switch LIDs going into OpenSM (hopfill.c) */
struct hopfill_job;
struct hopfill {
	pthread_mutex_t lock;
	pthread_t thread;
	int running; /* a thread to join */
	struct hopfill_job *job;
	double since; /* clock_mono() at its start */
};

/* one routing engine of the table as registered with OpenSM: the
 * context of its callbacks */
struct osmre_engine {
	struct osmre *p;
	const struct engine *e;
	void *keep;	 /* what it keeps between passes (engine.keep_new) */
	int threads;	 /* its threads, for the hop tables too */
	int ca_hops;	 /* engine_opts.ca_hops: hop counts to CA LIDs */
	char *jobs_text; /* ENGINE_TAKES_JOBS: the last good job file */
	external_routing_engine_module_t module;
};

struct osmre {
	osm_opensm_t *osm;
	struct osmre_options opt;
	struct reroute rr;
	struct staging stage; /* the committed (and staged) results */
	struct proto proto;
	struct osmre_engine *engines; /* one per row of engines[] */
	int nengines;
	uint64_t last_sig;     /* topology of the last routed pass (0: none) */
	uint64_t fallback_sig; /* topology fallback_check last saw */
	int read_back;	       /* lftread_all done (first pass as master) */
			       /* other_sms_check: the other SMs already said */
#define OSMRE_MAX_OTHER_SMS 16
	uint64_t other_sms[OSMRE_MAX_OTHER_SMS];
	int nother_sms;
	/* inforce.c: the engine that refused the last pass ("": none),
	 * why, and what configured the tables in force instead */
	char refused[32];
	char refused_msg[256];
	char in_force[384];
	/* status.c: the last pass's line, kept for rewrites */
	char st_engine[32], st_result[16], st_msg[320];
	double st_secs;
	int st_switches;
	int st_routed; /* this process routed (or kept) the tables in force */
	const char *conf_path; /* the options file read */
	unsigned long passes;  /* routing passes, for the status file */
	int stable_pass;       /* the last pass kept older routes */
	struct hopfill hops;   /* hops_background: the fill on its thread */
	/* qos off (qos.c): the budget asked for (0: not cut), the last
	 * pass's note for the status file */
	int qos_wanted;
	char qos_note[320];
};

/* subnet.c: OpenSM subnet <-> fabric model */
struct fabric *subnet_to_fabric(osm_opensm_t *osm, struct osmre_err *err);
/*
 * Copies the routes into new_lft, sets port profiles, and hop counts for
 * CA LIDs when cost is not NULL, as cost(ctx, switch, leaf) + 1 (the
 * engine's routes to a CA follow a cost it knows down by one per hop;
 * cost < 0: not known).  *sws gets OpenSM's switch of each fabric node
 * (NULL where none), for hopfill_run, which sets the switch LIDs' hop
 * counts.  0, or -1 with err.
 */
typedef int (*lfts_cost_fn)(void *ctx, int sw, int leaf);
int lfts_to_subnet(osm_opensm_t *osm, const struct fabric *f,
		   const struct lft_set *s, lfts_cost_fn cost, void *ctx,
		   osm_switch_t ***sws, struct osmre_err *err);

/* hopfill.c: the switch LIDs' hop counts into OpenSM's hop tables */
struct hopfill_report {
	double waited; /* seconds the join waited */
	double took;   /* seconds the fill took */
	double since;  /* seconds from its start to the join */
	int failed;    /* no hop counts set: err says why */
	struct osmre_err err;
};
void hopfill_init(struct hopfill *h);
/* One hop count into OpenSM: h hops from sw to lid at the port its
 * new_lft routes lid to (nothing where there is none, or h < 0). */
void hopfill_set_one(osm_switch_t *sw, unsigned lid, int h);
/*
 * Sets OpenSM's hop counts towards every switch LID along the routes of s
 * (already in new_lft) for the switches by_node[node] (NULL: none) of f,
 * on threads (<= 0: online CPUs).  Takes f, the tables of s (s is left
 * empty) and by_node over.  background: on one thread of its own, and
 * returns 1 at once; else (or when that thread cannot start) before
 * returning 0, or -1 with err.  A fill still running is joined first.
 */
int hopfill_run(struct hopfill *h, struct fabric *f, struct lft_set *s,
		osm_switch_t **by_node, int threads, int background,
		struct osmre_err *err);
/* Waits for the fill on its thread, if any: 1 and *r filled (r may be
 * NULL) when there was one, else 0. */
int hopfill_join(struct hopfill *h, struct hopfill_report *r);
void hopfill_destroy(struct hopfill *h);

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
/* The switches OpenSM will send every LFT block to (a first sweep: all;
 * else those marked need_update): where a background fill has work of
 * OpenSM's to run beside. */
int subnet_full_pushes(osm_opensm_t *osm);

/* The tables the switches hold (OpenSM's copy of what they acknowledged),
 * one per switch of f, for a stable re-route. */
int subnet_current_lfts(osm_opensm_t *osm, const struct fabric *f,
			struct lft_set *s, struct osmre_err *err);
/* The tables OpenSM's last routing configured (new_lft), as above. */
int subnet_configured_lfts(osm_opensm_t *osm, const struct fabric *f,
			   struct lft_set *s, struct osmre_err *err);

/* reroute.c: SIGUSR2 */
int reroute_start(struct osmre *p);
void reroute_stop(struct osmre *p);
void reroute_pass_done(struct osmre *p);

/* jobfile.c: the job file and I/O nodes of an ENGINE_TAKES_JOBS engine */
/*
 * The job file of o->job_file (the engine's option, sar_job_file; the
 * last good one when it does not parse, with the error logged) and the
 * I/O nodes of o->io_file, for engine's pass on f; *changed: the job
 * file's text differs from the last good one (or is the first); -1 with
 * err when no job set parses.
 */
int jobfile_load(struct osmre_engine *oe, const struct engine_opts *o,
		 const struct fabric *f, struct jobs *jobs, struct guidlist *io,
		 int *changed, struct osmre_err *err);
/* One log line: the jobs of the pass and where they came from. */
void jobfile_report(struct osmre_engine *oe, const struct engine_opts *o,
		    const struct jobs *jobs);
/* The last good job file forgotten (the plugin's end). */
void jobfile_free(struct osmre_engine *oe);

/* fallback.c: an error-level line when the engine after engine in
 * routing_engine (minhop after the last) is not deadlock-free on f (NULL:
 * not known yet, updn given the benefit of the doubt);
 * fallback_check_all: for each fat-tree engine */
void fallback_check(struct osmre *p, const char *engine,
		    const struct fabric *f);
void fallback_check_all(struct osmre *p, const struct fabric *f);
/* An error-level line, once per SM, for each other SM OpenSM knows of
 * (sm_guid_tbl): its configuration cannot be vouched for. */
void other_sms_check(struct osmre *p);
/* The roles files (roles.h) of osmre.conf, else opensm.conf's
 * cn_guid_file, root_guid_file and io_guid_file; one that cannot be read
 * is logged at error level and left empty. */
void rolefiles_load(struct osmre *p, struct guidlist *cn,
		    struct guidlist *roots, struct guidlist *io);

/* status.c: this SM's state (OpenSM's subn.sm_state, read without
 * its lock: one byte); its name "master", "standby", "discovering",
 * "not active" */
int sm_is_master(const struct osmre *p);
const char *sm_state_name(const struct osmre *p);
/* OSM_EVENT_ID_STATE_CHANGE: logged, and the status file says it */
void status_sm_state(struct osmre *p);

/* lftread.c: every switch's LFT read back into OpenSM's copy (sw->lft),
 * blocks 0 .. top / 64; called in a routing pass, it gives OpenSM's
 * lock up while the replies come.  0. */
struct lftread_report {
	long switches, blocks, failed; /* blocks asked, not sent */
	double secs;
};
int lftread_all(struct osmre *p, unsigned top, struct lftread_report *r);
/* (OpenSM's, exported by the opensm binary: osm_state_mgr.c) */
int wait_for_pending_transactions(osm_stats_t *stats);

/* inforce.c: after OpenSM's routing that followed a refusal
 * (p->refused), the fallback's tables checked for deadlock, logged and
 * put in the status file (p->in_force) */
void inforce_check(struct osmre *p);

/* proto.c: the update protocol's transport (update_protocol 1) */
int proto_start(struct osmre *p);
void proto_stop(struct osmre *p);
/* a re-route asked (SIGUSR2): a protocol run */
void proto_request(struct osmre *p);
/* A first pass as master kept the switches' tables: an epoch brings this
 * SM's routing in, after the grace period (update_grace_ms). */
void proto_bring_in(struct osmre *p);
/* a pass found a new topology: a run in progress restarts */
void proto_topology(struct osmre *p);
/* After a routing pass (OpenSM's lock held): checks that every port has
 * the escape VL, saves the committed tables when they changed. */
void proto_pass_done(struct osmre *p);
/* SUBNET UP: the tables of the first pass are in force. */
void proto_ready(struct osmre *p);
/* Master again after a standby spell: the protocol waits for SUBNET UP
 * again, and its grace period (update_grace_ms) starts anew then. */
void proto_master_again(struct osmre *p);
unsigned proto_epoch(struct osmre *p);
/* The SL of a path to dlid: the escape's for a high LID, sl otherwise
 * (0 where sl would name the escape's). */
uint8_t proto_path_sl(struct osmre *p, uint8_t sl, ib_net16_t dlid);
/* SL-to-VL with the escape's VL apart (updn_sl2vl). */
void proto_sl2vl(struct osmre *p, ib_slvl_table_t *t);

/* cachefile.c: the plugin's files in OpenSM's cache directory.
 * Writes <cache dir>/name whole (fn(fp, arg) writes the content, 0 when
 * it did) or leaves the old one: 0, or -1 with why in err. */
int cachefile_write(const char *name, mode_t mode,
		    int (*fn)(FILE *fp, void *arg), void *arg, char *err,
		    size_t errlen);
/* Opens <cache dir>/name to read: a regular file (no link) owned by us,
 * not writable by others, max_size bytes at most (its size in *size);
 * NULL with why in err (*missing: there is none). */
FILE *cachefile_open(const char *name, long max_size, long *size, int *missing,
		     char *err, size_t errlen);
void cachefile_remove(const char *name);

/* status.c: <cache dir>/osmre.status after every pass, for osmre status:
 * the engine, the result ("routed", "kept", "refused", "failed"), one
 * line of message, the pass's seconds and switches routed */
void status_write(struct osmre *p, const char *engine, const char *result,
		  const char *msg, double secs, int switches);
/* The same pass's status again (p->in_force added since). */
void status_rewrite(struct osmre *p, const char *engine, const char *result,
		    const char *msg);

/* qos.c: OpenSM programs SL-to-VL only with qos TRUE.  qos_layers,
 * before a pass: an engine with layers gets one when qos is off (1 when
 * it cut o->max_vls); qos_report, after: when that layer was not enough
 * (destinations went up*-down*), logged at error level with the fix and
 * kept in p->qos_note for the status file.  qos_protocol:
 * update_protocol off when qos is off (logged). */
int qos_layers(struct osmre *p, const struct engine *e, struct engine_opts *o);
void qos_report(struct osmre *p, const struct engine *e,
		const struct route_result *r);
void qos_protocol(struct osmre *p);

/* dump.c: the engine's state after a pass, when routing dumps are on
 * (log flag 0x40): dump_open gives the file the engine writes
 * (engine_opts.state; NULL: dumps off or no file), dump_close puts it in
 * place as <dump_files_dir>/osmre-<engine>.dump when ok */
FILE *dump_open(struct osmre *p, const char *engine);
void dump_close(struct osmre *p, const char *engine, FILE *fp, int ok);

#endif
