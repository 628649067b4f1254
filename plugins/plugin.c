/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The OpenSM event plugin "osmre": registers every routing engine of
 * common/run/engine_table.c's table ("routing_engine dmodc,updn" in opensm.conf),
 * reads osmre.conf, handles SIGUSR2.
 */
#include "osmre_plugin.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <opensm/osm_event_plugin.h>
#include <opensm/osm_version.h>

#include "lft_reach.h"
#include "lids.h"
#include "pass.h"
#include "passcheck.h"
#include "clock.h"

#define DEFAULT_CONF "/etc/opensm/osmre.conf"


static int no_lid_matrices(void *ctx)
{
	(void)ctx;
	return 0; /* hop tables are filled with the routes */
}

/* The hops from switch sw to the leaf of a CA: the engine's (ca_hops). */
static int engine_hops_cost(void *ctx, int sw, int leaf)
{
	struct osmre_engine *oe = ctx;

	return oe->e->ca_hops(oe->keep, sw, leaf);
}

/* A line of the engine's report (engine_report), in OpenSM's log. */
static void say_log(void *arg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say_log(void *arg, const char *fmt, ...)
{
	struct osmre *p = arg;
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	OSM_LOG(&p->osm->log, OSM_LOG_INFO, "osmre: %s\n", line);
}

/* The LFTs read back (lft_readback's first read) and compared with the
 * protocol's saved committed tables: 1 when those differ (and are
 * forgotten, staging_matches). */
static int saved_not_held(struct osmre *p, const struct fabric *f)
{
	struct lftread_report lr;
	struct lft_set held = { 0 };
	struct osmre_err err;
	int differ = 0;

	if (!staging_has_committed(&p->stage))
		return 0; /* nothing saved */
	p->read_back = 1;
	lftread_all(p, lids_max(f), &lr);
	OSM_LOG(&p->osm->log, OSM_LOG_INFO,
		"osmre: the LFTs read back from %ld switch(es): %ld block(s) asked in %.3f s (%ld not sent)\n",
		lr.switches, lr.blocks, lr.secs, lr.failed);
	if (!subnet_current_lfts(p->osm, f, &held, &err))
		differ = !staging_matches(&p->stage, &held);
	lft_set_free(&held);
	return differ;
}

/*
 * With the update protocol, the first pass as master keeps the tables
 * the switches hold (held) in force when they deliver on f, and, where
 * the engine's result r has several layers (or deadlock_check is on),
 * are deadlock-free with r's SLs; 1 then.  0, logged: this pass's tables go in at once (as after a
 * topology change: routes that do not deliver cannot wait).
 */
static int held_usable(struct osmre *p, const struct fabric *f,
		       const struct lft_set *held, const struct route_result *r,
		       int escape_vl)
{
	struct route_result t = { 0 };
	struct cdg_result c;
	struct osmre_err e;
	long bad = lft_set_undelivered(f, held, &e);

	if (bad) {
		OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
			"osmre ERR: first pass as master: %s%ld switch-to-LID route(s) of the tables the switches hold do not deliver on this topology: this pass's tables go in at once, before the subscribers can move\n",
			bad < 0 ? e.msg : "", bad < 0 ? 0 : bad);
		return 0;
	}
	/* one layer: shortest up*-down* routes mixed stay up*-down*; the
	 * check on one VL where the pass is checked anyway */
	if ((!r->layers.have || r->layers.layers <= 1) &&
	    !p->opt.deadlock_check)
		return 1;
	t.tables = *held;
	t.layers = r->layers;
	if (pass_deadlock_check(f, &t, escape_vl, &c, &e)) {
		OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
			"osmre ERR: first pass as master: the tables the switches hold with this pass's SLs: %s: this pass's tables go in at once, before the subscribers can move\n",
			e.msg);
		return 0;
	}
	cdg_result_free(&c);
	return 1;
}

/*
 * Runs the engine on f into s (the tables to install, by the staging
 * object's rules); 0, or -1 with err (refused: "not routable" set).
 */
static int run_engine(struct osmre_engine *oe, const struct fabric *f,
		      uint64_t sig, struct lft_set *s, int *refused,
		      struct osmre_err *err)
{
	struct osmre *p = oe->p;
	const struct engine *e = oe->e;
	struct route_result r = { 0 };
	struct guidlist io = { 0 }, cn = { 0 }, roots = { 0 };
	struct lft_set prev = { 0 }, held = { 0 };
	struct jobs jobs = { 0 };
	struct engine_opts o;
	int rc = -1, jobs_changed = 0, routed, why, stable, have_held = 0;
	long changed = 0;

	engine_opts_from_options(&p->opt, e, &o);
	o.keep = oe->keep;
	qos_layers(p, e, &o);
	o.jobs = &jobs;
	o.io = &io;
	o.cn = &cn;
	o.roots = &roots;
	*refused = 1;
	if ((e->needs & ENGINE_TAKES_JOBS) &&
	    jobfile_load(oe, &o, f, &jobs, &io, &jobs_changed, err))
		goto out;
	if (e->needs & (ENGINE_NEEDS_TREE | ENGINE_NEEDS_TOPOLOGY))
		rolefiles_load(p, &cn, &roots, &io);
	/* the first pass as master: what the switches hold is read back; a
	 * stable engine starts from it (a failover after a stable re-route
	 * changes nothing), and with the update protocol it stays in force
	 * until an epoch brings this SM's routing in (held_usable) */
	stable = (e->produces & ENGINE_STABLE) && o.stable;
	if (!p->last_sig && p->opt.lft_readback &&
	    (stable || p->opt.update_protocol)) {
		struct lftread_report lr;

		if (!p->read_back) { /* (saved_not_held may have read) */
			p->read_back = 1;
			lftread_all(p, lids_max(f), &lr);
			OSM_LOG(&p->osm->log, OSM_LOG_INFO,
				"osmre: %s: the LFTs read back from %ld switch(es): %ld block(s) asked in %.3f s (%ld not sent)%s\n",
				e->name, lr.switches, lr.blocks, lr.secs,
				lr.failed,
				stable ? "; a stable route from them" : "");
		}
		if (subnet_current_lfts(p->osm, f, &held, err))
			goto out;
		/* switches that hold nothing yet: a first routing */
		have_held = lft_set_any_route(&held);
		if (have_held && stable)
			o.prev = &held;
	}
	/* a new topology, the same jobs: the routes that still work stay */
	if ((e->produces & ENGINE_STABLE) && o.stable && p->last_sig &&
	    sig != p->last_sig && !jobs_changed) {
		if (subnet_current_lfts(p->osm, f, &prev, err))
			goto out;
		o.prev = &prev;
	}
	o.state = dump_open(p, e->name);
	if (e->needs & ENGINE_TAKES_JOBS)
		jobfile_report(oe, &o, &jobs);
	/* route, check (deadlock_check), report: pass.h's one order */
	routed = !pass_run(e, &o, f, p->opt.deadlock_check, &r, say_log, p,
			   &why, err);
	if (why == PASS_CYCLE) {
		/* what the engine kept of this pass is not in force: a new
		 * state where one can be had, else the old one stays (sar's
		 * memo checks its tables against those in force anyway) */
		if (e->keep_new) {
			void *k = e->keep_new();

			if (k) {
				e->keep_free(oe->keep);
				oe->keep = k;
			}
		}
	}
	dump_close(p, e->name, o.state, routed);
	if (!routed)
		goto out;
	*refused = 0;
	/* the tables in force are this pass's (no fallback's line stays) */
	snprintf(
		p->in_force, sizeof(p->in_force),
		p->opt.deadlock_check ?
			"%s (this SM's pass): the pass check found no cycle on its VLs" :
			"%s (this SM's pass): not checked (deadlock_check 0)",
		e->name);
	qos_report(p, e, &r);
	if (have_held) {
		changed = lft_set_entries_changed(&r.tables, &held);
		OSM_LOG(&p->osm->log, OSM_LOG_INFO,
			"osmre: %s: first pass as master, from the tables the switches hold: %ld entries changed\n",
			e->name, changed);
	} else if (o.prev)
		OSM_LOG(&p->osm->log, OSM_LOG_INFO,
			"osmre: %s: the topology changed%s: stable re-route, %ld entries changed\n",
			e->name,
			e->needs & ENGINE_TAKES_JOBS ? ", the jobs did not" :
						       "",
			lft_set_entries_changed(&r.tables, &prev));
	p->stable_pass = o.prev != NULL && r.kept > 0;
	p->last_sig = sig;
	if (changed > 0 && p->opt.update_protocol &&
	    held_usable(p, f, &held, &r, o.escape_vl)) {
		/* nothing moves before the subscribers are asked */
		rc = staging_adopt(&p->stage, sig, &held, &r, s, err);
		if (!rc) {
			OSM_LOG(&p->osm->log, OSM_LOG_INFO,
				"osmre: %s: the tables the switches hold stay in force; the %ld entries this SM's routing changes come by an epoch once the subscribers had update_grace_ms to register\n",
				e->name, changed);
			snprintf(
				p->in_force, sizeof(p->in_force),
				"%s (as the switches held them at this SM's first pass as master; its own routing comes by an epoch)",
				e->name);
			p->stable_pass = 1;
			proto_bring_in(p);
		}
		goto out;
	}
	rc = staging_routed(&p->stage, sig, &r, s, err);
	if (rc > 0) { /* a new topology under committed tables */
		proto_topology(p);
		rc = 0;
	}
out:
	route_result_free(&r);
	jobs_free(&jobs);
	guidlist_free(&io);
	guidlist_free(&cn);
	guidlist_free(&roots);
	lft_set_free(&prev);
	lft_set_free(&held);
	return rc;
}

/*
 * One routing pass of an engine: OpenSM's subnet into the fabric model,
 * the engine (or the committed tables, with the update protocol), the
 * tables and hop counts back into OpenSM.  A refusal is logged and fails
 * the pass, so that OpenSM falls back to the next engine of
 * routing_engine.
 */
static int routing_pass(void *ctx)
{
	struct osmre_engine *oe = ctx;
	struct osmre *p = oe->p;
	const struct engine *e = oe->e;
	const char *name = e->name;
	int hops;
	struct lft_set s = { 0 };
	struct osmre_err err;
	struct fabric *f;
	double t0 = clock_mono(), t1, t2;
	int rc = -1, kept = 0, settled, refused = 0, bg, n;
	osm_switch_t **sws;
	uint64_t sig;
	struct hopfill_report hr;

	/* joined at the last pass's end: late here, OpenSM cleared them */
	if (hopfill_join(&p->hops, &hr))
		OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
			"osmre ERR: the last pass's hop tables were still being filled (%.3f ms more)\n",
			hr.waited * 1e3);
	/* master again after a standby spell (a handover back, a failover
	 * back: OpenSM's first sweep as master, which it reports no event
	 * for): a first pass as master, as at a start: the switches' tables
	 * read back, kept tables only if they are what the switches hold,
	 * the subscribers' grace period anew */
	if (p->osm->subn.first_time_master_sweep && p->last_sig) {
		OSM_LOG(&p->osm->log, OSM_LOG_INFO,
			"osmre: master again: this pass starts from the tables the switches hold\n");
		p->last_sig = 0;
		p->read_back = 0;
		proto_master_again(p);
	}
	f = subnet_to_fabric(p->osm, &err);
	if (!f)
		goto fail;
	sig = fabric_signature(f);
	other_sms_check(p);
	/* the first pass as master with the protocol's saved tables: they
	 * are installed again only when they are what the switches hold */
	if (p->opt.update_protocol && !p->last_sig && p->opt.lft_readback &&
	    !p->read_back && saved_not_held(p, f))
		OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
			"osmre ERR: update: the saved committed tables are not what the switches hold (another SM routed since they were saved): not installed; the first pass starts from the switches' tables\n");
	/* a new topology: is the fallback safe on it? */
	if (sig != p->last_sig && sig != p->fallback_sig) {
		p->fallback_sig = sig;
		fallback_check(p, name, f);
	}
	if (p->opt.update_protocol) {
		kept = staging_reuse(&p->stage, sig, &s, &err);
		if (kept < 0)
			goto fail;
		if (kept == STAGING_APPLIED)
			OSM_LOG(&p->osm->log, OSM_LOG_INFO,
				"osmre: update: epoch %u: the new base-LID tables go to the switches\n",
				proto_epoch(p));
	}
	p->stable_pass = 0;
	if (!kept && run_engine(oe, f, sig, &s, &refused, &err))
		goto fail;
	/* (the committed tables kept: this topology's pass is done too, and
	 * the next is no first pass as master) */
	p->last_sig = sig;
	/* CA hop counts follow the engine's costs: not where a stable
	 * re-route kept older routes */
	hops = (e->produces & ENGINE_CA_HOPS) && e->ca_hops && oe->keep &&
	       oe->ca_hops && !p->stable_pass;
	t1 = clock_mono();
	if (lfts_to_subnet(p->osm, f, &s, hops ? engine_hops_cost : NULL, oe,
			   &sws, &err))
		goto fail;
	n = s.n;
	settled = subnet_settle_switches(p->osm);
	if (settled)
		OSM_LOG(&p->osm->log, OSM_LOG_INFO,
			"osmre: %d switch(es) programmed before: only changed blocks are sent\n",
			settled);
	/* takes f and the tables over; beside OpenSM's sending only when
	 * it has whole tables to send, else here on every thread */
	bg = hopfill_run(&p->hops, f, &s, sws, oe->threads,
			 p->opt.hops_background &&
				 subnet_full_pushes(p->osm) > 0,
			 &err);
	f = NULL;
	if (bg < 0)
		goto fail;
	t2 = clock_mono();
	OSM_LOG(&p->osm->log, OSM_LOG_INFO,
		"osmre: %s %s %d switches in %.3f ms (%.3f ms with hop tables%s)\n",
		name, kept ? "kept the committed tables of" : "routed", n,
		(t1 - t0) * 1e3, (t2 - t0) * 1e3,
		bg ? ", those of the switch LIDs on a plugin thread" : "");
	status_write(p, name, kept ? "kept" : "routed", p->qos_note, t2 - t0,
		     n);
	proto_pass_done(p);
	rc = 0;
	goto out;
fail:
	OSM_LOG(&p->osm->log, OSM_LOG_ERROR, "osmre ERR: %s: %s%s\n", name,
		refused ? "fabric not routable: " : "", err.msg);
	status_write(p, name, refused ? "refused" : "failed", err.msg,
		     clock_mono() - t0, 0);
	if (refused && f)
		fallback_check(p, name, f);
	/* what OpenSM routes with instead, checked at its routing's end */
	p->in_force[0] = 0;
	if (refused) {
		snprintf(p->refused, sizeof(p->refused), "%s", name);
		snprintf(p->refused_msg, sizeof(p->refused_msg), "%.255s",
			 err.msg);
	}
out:
	if (rc && p->opt.update_protocol)
		staging_failed(&p->stage);
	lft_set_free(&s);
	fabric_free(f);
	reroute_pass_done(p); /* a pass, routed or refused */
	return rc;
}

/* The SL of a path: the engine's layer (OpenSM's hint for an engine
 * without layers), the escape's for a high LID. */
static uint8_t engine_path_sl(void *ctx, uint8_t hint, ib_net16_t slid,
			      ib_net16_t dlid)
{
	struct osmre_engine *oe = ctx;
	uint8_t sl = hint;

	if (oe->e->produces & ENGINE_LAYERS)
		sl = staging_path_sl(&oe->p->stage, cl_ntoh16(slid),
				     cl_ntoh16(dlid));
	return proto_path_sl(oe->p, sl, dlid);
}

/* The escape's VL apart with the update protocol; else VL = SL for an
 * engine with layers (OpenSM applies it when qos is on). */
static void engine_sl2vl(void *ctx, osm_physp_t *port, uint8_t in, uint8_t out,
			 ib_slvl_table_t *t)
{
	struct osmre_engine *oe = ctx;
	int sl;

	(void)port;
	(void)in;
	(void)out;
	if (oe->p->opt.update_protocol) {
		proto_sl2vl(oe->p, t);
		return;
	}
	if (!(oe->e->produces & ENGINE_LAYERS))
		return;
	for (sl = 0; sl < 15; sl++) /* SL 15 is not for data */
		ib_slvl_table_set(t, (uint8_t)sl, (uint8_t)sl);
}

static int engine_setup(struct osm_routing_engine *re, osm_opensm_t *osm)
{
	(void)osm;
	re->build_lid_matrices = no_lid_matrices;
	re->ucast_build_fwd_tables = routing_pass;
	re->path_sl = engine_path_sl;
	re->update_sl2vl = engine_sl2vl;
	return 0;
}

/* Every engine of the table, registered with OpenSM. */
static int register_engines(struct osmre *p)
{
	int n = 0, i;

	while (engines[n])
		n++;
	p->engines = calloc((size_t)n, sizeof(*p->engines));
	if (!p->engines)
		return -1;
	p->nengines = n;
	for (i = 0; i < n; i++) {
		struct osmre_engine *oe = &p->engines[i];
		struct engine_opts o;

		oe->p = p;
		oe->e = engines[i];
		engine_opts_from_options(&p->opt, oe->e, &o);
		oe->threads = o.threads;
		oe->ca_hops = o.ca_hops;
		if (oe->e->keep_new && !(oe->keep = oe->e->keep_new()))
			return -1;
		oe->module.name = oe->e->name;
		oe->module.setup = engine_setup;
		if (osm_register_external_routing_engine(p->osm, &oe->module,
							 oe) != CL_SUCCESS)
			return -1;
	}
	return 0;
}

static void log_problem(void *arg, const char *msg)
{
	osm_opensm_t *osm = arg;

	OSM_LOG(&osm->log, OSM_LOG_ERROR, "osmre ERR: %s\n", msg);
}

static void log_option(void *arg, const char *msg)
{
	osm_opensm_t *osm = arg;

	OSM_LOG(&osm->log, OSM_LOG_INFO, "osmre: option %s\n", msg);
}

/* $OSMRE_CONF, else opensm.conf's event_plugin_options, else the default. */
static const char *conf_path(osm_opensm_t *osm)
{
	const char *env = getenv("OSMRE_CONF");
	const char *opt = osm->subn.opt.event_plugin_options;

	if (env && *env)
		return env;
	if (opt && *opt && strcmp(opt, "(null)"))
		return opt;
	return DEFAULT_CONF;
}

static void *osmre_create(osm_opensm_t *osm)
{
	struct osmre *p = calloc(1, sizeof(*p));
	const char *path = conf_path(osm);

	if (!p) {
		OSM_LOG(&osm->log, OSM_LOG_ERROR, "osmre ERR: out of memory\n");
		return NULL;
	}
	p->osm = osm;
	p->conf_path = path;
	hopfill_init(&p->hops);
	options_defaults(&p->opt);
	if (engine_options_add(&p->opt))
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			"osmre ERR: out of memory: engine options at their defaults\n");
	if (options_read(path, !strcmp(path, DEFAULT_CONF), &p->opt,
			 log_problem, osm) < 0)
		OSM_LOG(&osm->log, OSM_LOG_INFO,
			"osmre: no options file %s: defaults\n", path);
	else
		OSM_LOG(&osm->log, OSM_LOG_INFO, "osmre: options from %s\n",
			path);
	options_each(&p->opt, log_option, osm);
	if (p->opt.update_protocol && !osm->subn.opt.lmc) {
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			"osmre ERR: update_protocol 1 needs lmc 1 or more in opensm.conf (a high LID per port for the escape): the protocol is off\n");
		p->opt.update_protocol = 0;
	}
	qos_protocol(p);
	if (staging_init(&p->stage, p->opt.update_protocol)) {
		OSM_LOG(&osm->log, OSM_LOG_ERROR, "osmre ERR: out of memory\n");
		options_free(&p->opt);
		free(p);
		return NULL;
	}
	if (register_engines(p))
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			"osmre ERR: cannot register the routing engines\n");
	if (proto_start(p))
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			"osmre ERR: no update protocol: cannot start its thread\n");
	else if (p->opt.update_protocol)
		OSM_LOG(&osm->log, OSM_LOG_INFO,
			"osmre: update protocol on: escape on SL/VL %d, vendor class 0x%02x\n",
			p->opt.update_escape_vl, p->opt.update_mgmt_class);
	if (reroute_start(p))
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			"osmre ERR: no SIGUSR2 re-routing: cannot start its thread\n");
	fallback_check_all(p, NULL);
	OSM_LOG(&osm->log, OSM_LOG_INFO,
		"osmre: loaded: routing engines %s, SIGUSR2 re-routes\n",
		engine_names());
	/* one line that reaches syslog: the plugin is there */
	OSM_LOG(&osm->log, OSM_LOG_SYS,
		"osmre %s plugin loaded: routing engines %s; options %s\n",
		PACKAGE_VERSION, engine_names(), path);
	return p;
}

static void osmre_delete(void *data)
{
	struct osmre *p = data;
	int i;

	if (!p)
		return;
	/* before OpenSM frees its switches */
	hopfill_destroy(&p->hops);
	reroute_stop(p);
	proto_stop(p);
	staging_free(&p->stage);
	for (i = 0; i < p->nengines; i++) {
		jobfile_free(&p->engines[i]);
		if (p->engines[i].keep)
			p->engines[i].e->keep_free(p->engines[i].keep);
	}
	free(p->engines);
	options_free(&p->opt);
	free(p);
}

/* The hop tables' fill on its thread, done before OpenSM reads them. */
static void hops_done(struct osmre *p)
{
	struct hopfill_report r;

	if (!hopfill_join(&p->hops, &r))
		return;
	if (r.failed)
		OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
			"osmre ERR: hop tables of the switch LIDs not filled: %s\n",
			r.err.msg);
	else
		OSM_LOG(&p->osm->log, OSM_LOG_INFO,
			"osmre: hop tables of the switch LIDs filled on a plugin thread in %.3f ms; OpenSM waited %.3f ms for them, %.3f ms after the pass\n",
			r.took * 1e3, r.waited * 1e3, r.since * 1e3);
}

static void osmre_report(void *data, osm_epi_event_id_t id, void *event)
{
	(void)event;
	if (!data)
		return;
	/* before the multicast manager (or a sweep that may drop switches) */
	if (id == OSM_EVENT_ID_UCAST_ROUTING_DONE ||
	    id == OSM_EVENT_ID_SUBNET_UP ||
	    id == OSM_EVENT_ID_HEAVY_SWEEP_START)
		hops_done(data);
	/* the end of a re-route, or of a heavy sweep with its routing */
	if (id == OSM_EVENT_ID_UCAST_ROUTING_DONE)
		inforce_check(data);
	if (id == OSM_EVENT_ID_STATE_CHANGE) {
		status_sm_state(data);
		other_sms_check(data);
	}
	if (id == OSM_EVENT_ID_UCAST_ROUTING_DONE ||
	    id == OSM_EVENT_ID_SUBNET_UP)
		reroute_pass_done(data);
	if (id == OSM_EVENT_ID_SUBNET_UP)
		proto_ready(data);
}

__attribute__((visibility("default"))) osm_event_plugin_t osm_event_plugin = {
	.osm_version = OSM_VERSION,
	.create = osmre_create,
	.delete = osmre_delete,
	.report = osmre_report,
};
