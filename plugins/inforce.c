/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * After an osmre engine refused a fabric, OpenSM routes it with the next
 * engine of routing_engine (minhop after the last).  At the end of that
 * routing (OSM_EVENT_ID_UCAST_ROUTING_DONE, on OpenSM's sweeping thread,
 * the one that filled the tables) the plugin checks the tables that
 * engine configured (new_lft) by the analyzer's channel dependency graph
 * on one VL, as those engines hand out one SL: a cycle is logged at
 * error level ("the fabric can deadlock"), and `osmre status` shows
 * which engine configured the tables in force and what the check found.
 * Engines that hand out SLs of their own (dfsssp, nue, lash) are not
 * checked: their SLs are OpenSM's.
 */
#include "osmre_plugin.h"

#include <stdio.h>
#include <string.h>

#include "passcheck.h"

static int with_sls(const char *name)
{
	return !strcmp(name, "dfsssp") || !strcmp(name, "nue") ||
	       !strcmp(name, "lash") || !strcmp(name, "torus-2QoS");
}

void inforce_check(struct osmre *p)
{
	osm_opensm_t *osm = p->osm;
	const char *name;
	struct route_result r = { 0 };
	struct cdg_result c = { 0 };
	struct osmre_err err;
	struct fabric *f;

	if (!p->refused[0])
		return;
	name = osm->routing_engine_used && osm->routing_engine_used->name ?
		       osm->routing_engine_used->name :
		       "minhop";
	if (with_sls(name)) {
		snprintf(
			p->in_force, sizeof(p->in_force),
			"%.32s (after %s refused): not checked, its SLs are OpenSM's",
			name, p->refused);
		goto out;
	}
	f = subnet_to_fabric(osm, &err);
	if (!f || subnet_configured_lfts(osm, f, &r.tables, &err)) {
		snprintf(p->in_force, sizeof(p->in_force),
			 "%.32s (after %s refused): not checked: %.200s", name,
			 p->refused, err.msg);
	} else if (pass_deadlock_check(f, &r, -1, &c, &err)) {
		snprintf(
			p->in_force, sizeof(p->in_force),
			"%.32s (after %s refused): CAN DEADLOCK on one VL: %.200s",
			name, p->refused, err.msg);
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			"osmre ERR: the tables in force were configured by %s after %s refused the fabric, and their channel dependency graph has a cycle on one VL: the fabric can deadlock (%s)\n",
			name, p->refused, err.msg);
	} else {
		snprintf(
			p->in_force, sizeof(p->in_force),
			"%.32s (after %s refused): deadlock-free on one VL (%ld channels, %ld dependencies)",
			name, p->refused, c.channels, c.deps);
		OSM_LOG(&osm->log, OSM_LOG_INFO,
			"osmre: the tables in force were configured by %s after %s refused the fabric: acyclic on one VL\n",
			name, p->refused);
		cdg_result_free(&c);
	}
	lft_set_free(&r.tables);
	fabric_free(f);
out:
	status_rewrite(p, p->refused, "refused", p->refused_msg);
	p->refused[0] = 0;
}
