/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * OpenSM's qos setting and the plugin's layers.  An engine with layers
 * (sar) gives each layer its own SL through PathRecords, and the update
 * protocol puts the escape on its own SL; the plugin's update_sl2vl maps
 * each SL to its own VL.  OpenSM calls update_sl2vl, and programs the
 * SL-to-VL tables at all, only with "qos TRUE" (osm_qos_setup): without
 * it a switch keeps what it has, on real hardware every SL on VL 0, and
 * the layers share one VL's channel dependencies, cycles included.
 * (ibsim's switches hold an identity table that hides this.)
 *
 * So with qos off: sar routes within one layer (its own budget rule:
 * what does not fit on the last layer goes up*-down*, deadlock-free on
 * one VL; said only when a second layer was needed, the tables being
 * the same otherwise), and the update protocol, whose escape needs a VL of its own,
 * is off.  Both said at error level, with the fix.
 */
#include "osmre_plugin.h"

#include <stdio.h>

static int qos_on(const struct osmre *p)
{
	return p->osm->subn.opt.qos ? 1 : 0;
}

int qos_layers(struct osmre *p, const struct engine *e, struct engine_opts *o)
{
	p->qos_note[0] = '\0';
	p->qos_wanted = 0;
	if (!(e->produces & ENGINE_LAYERS) || qos_on(p))
		return 0;
	p->qos_wanted = 1;
	o->max_layers = 1;
	return 1;
}

void qos_report(struct osmre *p, const struct engine *e,
		const struct route_result *r)
{
	/* one layer was enough: the same tables as with the budget */
	if (!p->qos_wanted || !r->layers.have || !r->layers.over_budget)
		return;
	snprintf(
		p->qos_note, sizeof(p->qos_note),
		"qos is off in opensm.conf and OpenSM programs no SL-to-VL table without it: routed on one layer, %ld destination LID(s) that did not fit kept acyclic on it or up*/down*; set qos TRUE for its layers",
		r->layers.over_budget);
	OSM_LOG(&p->osm->log, OSM_LOG_ERROR, "osmre ERR: %s: %s\n", e->name,
		p->qos_note);
}

void qos_protocol(struct osmre *p)
{
	if (!p->opt.update_protocol || qos_on(p))
		return;
	OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
		"osmre ERR: update_protocol 1 needs qos TRUE in opensm.conf (OpenSM programs no SL-to-VL table without it, and the escape needs VL %d of its own): the protocol is off; set qos TRUE\n",
		p->opt.update_escape_vl);
	p->opt.update_protocol = 0;
}
