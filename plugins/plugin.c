/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The OpenSM event plugin "osmre": registers the routing engines "dmodc",
 * "pqft" and "sar" (routing_engine dmodc,updn in opensm.conf), reads
 * osmre.conf, handles SIGUSR2.
 */
#include "osmre_plugin.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <opensm/osm_event_plugin.h>
#include <opensm/osm_version.h>

#include "lids.h"
#include "updn.h"
#include "clock.h"
#include "pqft.h"

#define DEFAULT_CONF "/etc/opensm/osmre.conf"


static int no_lid_matrices(void *ctx)
{
	(void)ctx;
	return 0;	/* hop tables are filled with the routes */
}

/*
 * dmodc's routes to a CA follow the up-down costs down by one per hop, so
 * a switch is cost(switch, leaf) hops from the leaf of a CA.
 */
static int dmodc_hops_cost(void *ctx, int sw, int leaf)
{
	int c = dmodc_cost(ctx, sw, leaf);

	return c == DMODC_INF ? -1 : c;
}

/*
 * One routing pass of an engine: OpenSM's subnet into the fabric model,
 * the engine's core (route), the tables and hop counts back into OpenSM.
 * A refusal is logged and fails the pass, so that OpenSM falls back to the
 * next engine of routing_engine.  dump (may be NULL) writes the engine's
 * state after a routed pass.
 */
typedef int (*core_fn)(struct osmre *p, struct fabric *f, struct lft_set *s,
		       struct osmre_err *err);
typedef void (*dump_fn)(struct osmre *p, const struct fabric *f);

static int routing_pass(struct osmre *p, const char *name, core_fn route,
			lfts_cost_fn cost, void *cost_ctx, dump_fn dump)
{
	struct lft_set s = { 0 };
	struct osmre_err err;
	struct fabric *f;
	double t0 = clock_mono(), t1, t2;
	int rc = -1, kept = 0, settled;

	f = subnet_to_fabric(p->osm, &err);
	if (!f || lft_set_for_fabric(f, lids_max(f), &s, &err)) {
		OSM_LOG(&p->osm->log, OSM_LOG_ERROR, "osmre ERR: %s: %s\n",
			name, err.msg);
		goto out;
	}
	if (p->opt.update_protocol) {
		kept = upd_reuse(p, f, &s, &err);
		if (kept < 0)
			goto fail;
	}
	if (!kept && route(p, f, &s, &err)) {
		OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
			"osmre ERR: %s: fabric not routable: %s\n", name, err.msg);
		goto out;
	}
	if (!kept && p->opt.update_protocol) {
		struct updn_info ui;

		if (updn_route_high(f, &s, &ui, &err) ||
		    upd_routed(p, f, &s, &err))
			goto fail;
		OSM_LOG(&p->osm->log, OSM_LOG_INFO,
			"osmre: %s: escape: %ld high LID(s) by up*/down* from %d root(s)%s on SL/VL %d\n",
			name, ui.lids, ui.roots, ui.fallback ? " (one per part)" : "",
			p->opt.update_escape_vl);
	} else if (!kept) {
		sar_promote(&p->sar);
	}
	t1 = clock_mono();
	if (lfts_to_subnet(p->osm, f, &s, cost, cost_ctx, &err)) {
		OSM_LOG(&p->osm->log, OSM_LOG_ERROR, "osmre ERR: %s: %s\n",
			name, err.msg);
		goto out;
	}
	t2 = clock_mono();
	settled = subnet_settle_switches(p->osm);
	if (settled)
		OSM_LOG(&p->osm->log, OSM_LOG_INFO,
			"osmre: %d switch(es) programmed before: only changed blocks are sent\n",
			settled);
	OSM_LOG(&p->osm->log, OSM_LOG_INFO,
		"osmre: %s %s %d switches in %.3f ms (%.3f ms with hop tables)\n",
		name, kept ? "kept the committed tables of" : "routed", s.n,
		(t1 - t0) * 1e3, (t2 - t0) * 1e3);
	if (dump && !kept)
		dump(p, f);
	rc = 0;
	goto out;
fail:
	OSM_LOG(&p->osm->log, OSM_LOG_ERROR, "osmre ERR: %s: %s\n", name, err.msg);
out:
	if (rc && p->opt.update_protocol)
		upd_failed(p);
	lft_set_free(&s);
	fabric_free(f);
	reroute_pass_done(p);	/* a pass, routed or refused */
	return rc;
}

static int dmodc_core(struct osmre *p, struct fabric *f, struct lft_set *s,
		      struct osmre_err *err)
{
	struct dmodc_opts o = { .threads = p->opt.dmodc_threads };

	return dmodc_run(p->dmodc, f, &o, s, err);
}

static int dmodc_fwd_tables(void *ctx)
{
	struct osmre *p = ctx;

	return routing_pass(p, "dmodc", dmodc_core,
			    p->opt.dmodc_ca_hops ? dmodc_hops_cost : NULL,
			    p->dmodc, dump_dmodc);
}

/*
 * pqft: the topology parameters come from pqft_topology (osmre.conf), or
 * are read off a complete fabric; when neither works the pass fails and
 * OpenSM falls back.
 */
static int pqft_core(struct osmre *p, struct fabric *f, struct lft_set *s,
		     struct osmre_err *err)
{
	struct pgft_params t;
	struct pqft *q;
	int rc;

	if (!p->opt.pqft_topology[0]) {
		char buf[256];

		if (pqft_infer(f, &t, err))
			return osmre_prefix(err, "no pqft_topology in the options file");
		topo_spec_format(&t, buf, sizeof(buf));
		OSM_LOG(&p->osm->log, OSM_LOG_INFO,
			"osmre: pqft: topology %s, inferred from the fabric\n", buf);
	} else if (topo_spec_parse(p->opt.pqft_topology, &t, err)) {
		return -1;
	}
	q = pqft_new();
	if (!q)
		return osmre_fail(err, "out of memory");
	q->seed = (uint64_t)p->opt.pqft_seed;
	rc = pqft_assign(q, f, &t, err) ||
	     pqft_route(q, s, p->opt.pqft_threads, err) ? -1 : 0;
	pqft_free(q);
	return rc;
}

static int pqft_fwd_tables(void *ctx)
{
	return routing_pass(ctx, "pqft", pqft_core, NULL, NULL, NULL);
}

/* dmodc and pqft route on SL 0; with the update protocol, the high LIDs
 * take the escape's SL and VL */
static uint8_t updown_path_sl(void *ctx, uint8_t hint, ib_net16_t slid,
			      ib_net16_t dlid)
{
	(void)slid;
	return upd_path_sl(ctx, hint, dlid);
}

static void updown_sl2vl(void *ctx, osm_physp_t *port, uint8_t in,
			 uint8_t out, ib_slvl_table_t *t)
{
	struct osmre *p = ctx;

	(void)port;
	(void)in;
	(void)out;
	if (p->opt.update_protocol)
		upd_sl2vl(p, t);
}

static void updown_engine(struct osm_routing_engine *re, int (*fwd)(void *))
{
	re->build_lid_matrices = no_lid_matrices;
	re->ucast_build_fwd_tables = fwd;
	re->path_sl = updown_path_sl;
	re->update_sl2vl = updown_sl2vl;
}

static int pqft_setup(struct osm_routing_engine *re, osm_opensm_t *osm)
{
	(void)osm;
	updown_engine(re, pqft_fwd_tables);
	return 0;
}

static int sar_fwd_tables(void *ctx)
{
	return routing_pass(ctx, "sar", sar_core, NULL, NULL, NULL);
}

static int sar_setup(struct osm_routing_engine *re, osm_opensm_t *osm)
{
	(void)osm;
	re->build_lid_matrices = no_lid_matrices;
	re->ucast_build_fwd_tables = sar_fwd_tables;
	re->path_sl = sar_path_sl;
	re->update_sl2vl = sar_update_sl2vl;
	return 0;
}

static int dmodc_setup(struct osm_routing_engine *re, osm_opensm_t *osm)
{
	(void)osm;
	updown_engine(re, dmodc_fwd_tables);
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
	static external_routing_engine_module_t dmodc_module = {
		.name = "dmodc", .setup = dmodc_setup,
	};
	static external_routing_engine_module_t pqft_module = {
		.name = "pqft", .setup = pqft_setup,
	};
	static external_routing_engine_module_t sar_module = {
		.name = "sar", .setup = sar_setup,
	};
	struct osmre *p = calloc(1, sizeof(*p));
	const char *path = conf_path(osm);

	if (!p || !(p->dmodc = dmodc_new())) {
		OSM_LOG(&osm->log, OSM_LOG_ERROR, "osmre ERR: out of memory\n");
		free(p);
		return NULL;
	}
	p->osm = osm;
	sar_state_init(&p->sar);
	options_defaults(&p->opt);
	if (options_read(path, !strcmp(path, DEFAULT_CONF), &p->opt,
			 log_problem, osm) < 0)
		OSM_LOG(&osm->log, OSM_LOG_INFO,
			"osmre: no options file %s: defaults\n", path);
	else
		OSM_LOG(&osm->log, OSM_LOG_INFO, "osmre: options from %s\n", path);
	options_each(&p->opt, log_option, osm);
	if (osm_register_external_routing_engine(osm, &dmodc_module, p) !=
	    CL_SUCCESS ||
	    osm_register_external_routing_engine(osm, &pqft_module, p) !=
	    CL_SUCCESS ||
	    osm_register_external_routing_engine(osm, &sar_module, p) !=
	    CL_SUCCESS)
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			"osmre ERR: cannot register the routing engines\n");
	if (p->opt.update_protocol && !osm->subn.opt.lmc) {
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			"osmre ERR: update_protocol 1 needs lmc 1 or more in opensm.conf (a high LID per port for the escape): the protocol is off\n");
		p->opt.update_protocol = 0;
	}
	if (upd_start(p))
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			"osmre ERR: no update protocol: cannot start its thread\n");
	else if (p->opt.update_protocol)
		OSM_LOG(&osm->log, OSM_LOG_INFO,
			"osmre: update protocol on: escape on SL/VL %d, vendor class 0x%02x\n",
			p->opt.update_escape_vl, p->opt.update_mgmt_class);
	if (reroute_start(p))
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			"osmre ERR: no SIGUSR2 re-routing: cannot start its thread\n");
	OSM_LOG(&osm->log, OSM_LOG_INFO,
		"osmre: loaded: routing engines dmodc, pqft and sar, SIGUSR2 re-routes\n");
	return p;
}

static void osmre_delete(void *data)
{
	struct osmre *p = data;

	if (!p)
		return;
	reroute_stop(p);
	upd_stop(p);
	sar_state_free(&p->sar);
	dmodc_free(p->dmodc);
	free(p);
}

static void osmre_report(void *data, osm_epi_event_id_t id, void *event)
{
	(void)event;
	/* the end of a re-route, or of a heavy sweep with its routing */
	if (data && (id == OSM_EVENT_ID_UCAST_ROUTING_DONE ||
		     id == OSM_EVENT_ID_SUBNET_UP))
		reroute_pass_done(data);
}

__attribute__((visibility("default"))) osm_event_plugin_t osm_event_plugin = {
	.osm_version = OSM_VERSION,
	.create = osmre_create,
	.delete = osmre_delete,
	.report = osmre_report,
};
