/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the switches hold is the truth: when this SM routes for the first
 * time as master (a first start, a restart, a failover, a handover), it
 * reads every switch's linear forwarding table back (SubnGet
 * LinearForwardingTable by directed route, block by block), with
 * OpenSM's own requests, pacing (max_wire_smps), timeouts and retries,
 * and OpenSM's own receiver, which stores each block in its copy of what
 * the switch holds (sw->lft).  A stable engine then starts from those
 * tables, and OpenSM sends only the blocks that change.
 *
 * The pass runs under OpenSM's lock, which the receiver takes: the lock
 * is given up while the replies come (the subnet is not changed by
 * either side meanwhile: the sweep is ours) and taken again.
 */
#include "osmre_plugin.h"

#include <stdio.h>
#include <string.h>

#include "clock.h"

int lftread_all(struct osmre *p, unsigned top, struct lftread_report *r)
{
	osm_opensm_t *osm = p->osm;
	cl_qmap_t *sws = &osm->subn.sw_guid_tbl;
	cl_map_item_t *it;
	double t0 = clock_mono();
	unsigned nb = top / IB_SMP_DATA_SIZE + 1, b;
	long asked = 0, failed = 0, n = 0, total = cl_qmap_count(sws);

	r->switches = 0;
	r->blocks = 0;
	r->failed = 0;
	for (it = cl_qmap_head(sws); it != cl_qmap_end(sws);
	     it = cl_qmap_next(it), n++) {
		osm_switch_t *sw = (osm_switch_t *)it;
		osm_physp_t *p0 = osm_node_get_physp_ptr(sw->p_node, 0);
		osm_madw_context_t ctx;
		unsigned last = nb;

		if (!p0 || !sw->lft)
			continue;
		/* (OpenSM keeps blocks up to its table's size) */
		if (last * IB_SMP_DATA_SIZE > sw->lft_size)
			last = sw->lft_size / IB_SMP_DATA_SIZE;
		/* unknown until read: a block that does not come stays
		 * "no route", which the engine routes afresh */
		memset(sw->lft, OSM_NO_PATH, sw->lft_size);
		ctx.lft_context.node_guid = osm_node_get_node_guid(sw->p_node);
		ctx.lft_context.set_method = FALSE;
		for (b = 0; b < last; b++) {
			if (osm_req_get(&osm->sm, osm_physp_get_dr_path_ptr(p0),
					IB_MAD_ATTR_LIN_FWD_TBL, cl_hton32(b),
					TRUE, 0, 0, CL_DISP_MSGID_NONE,
					&ctx) != IB_SUCCESS)
				failed++;
			else
				asked++;
		}
		r->switches++;
		if (total >= 1000 && n % (total / 10) == 0)
			OSM_LOG(&osm->log, OSM_LOG_INFO,
				"osmre: reading the LFTs back: %ld of %ld switches asked\n",
				n, total);
	}
	/* OpenSM's receiver stores the replies under the lock */
	CL_PLOCK_RELEASE(&osm->lock);
	wait_for_pending_transactions(&osm->stats);
	CL_PLOCK_EXCL_ACQUIRE(&osm->lock);
	r->blocks = asked;
	r->failed = failed;
	r->secs = clock_mono() - t0;
	return 0;
}
