/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The update protocol inside OpenSM (update_protocol 1): the transport and
 * the staged push around protocol/update.c's state machine.
 *
 * - A thread owns the state machine.  It opens the SM's port a second
 *   time, registers an agent of the protocol's vendor class, answers every
 *   subscriber request (updwire.h) on the subscriber's escape LID, and
 *   ticks the machine every few ms.  Other threads only raise flags
 *   (a SIGUSR2 request, a topology change) that it picks up: the machine
 *   needs no lock of its own.
 * - Routing passes (OpenSM's thread, OpenSM's lock held) see the tables
 *   the protocol allows:
 *     committed ("cur")  what the switches hold; every pass on an
 *                        unchanged topology installs them again, without
 *                        running the engine (a job file read in between
 *                        does not slip in unprotected);
 *     COMPUTE            the thread asks for a pass in "stage" mode: the
 *                        engine runs, its tables are kept aside ("next"),
 *                        and new_lft gets the committed ones: nothing
 *                        moves during UNPATH;
 *     UPDATE             a pass in "apply" mode installs next, which
 *                        becomes cur; sar's SLs switch with it;
 *   a pass on a changed topology runs the engine and installs its tables
 *   at once (links that died cannot wait for subscribers), and a run in
 *   progress restarts from COMPUTE.
 * - UPDATE is complete when every block the update changes is, on its
 *   switch as OpenSM last read it back (OpenSM stores the blocks of the
 *   switches' answers), the new one.
 *
 * Lock order: OpenSM's lock, then the staging object's; the protocol's
 * own lock (its flags) is never held while another is taken.
 */
#include "osmre_plugin.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <opensm/osm_switch.h>

#include "clock.h"
#include "umadport.h"
#include "updn.h"
#include "updwire.h"

#define PASS_WAIT_S 120 /* a staged pass that never comes */
#define TICK_MS	    10


static void proto_log(void *ctx, int level, const char *msg)
{
	struct osmre *p = ctx;

	if (level)
		OSM_LOG(&p->osm->log, OSM_LOG_ERROR, "osmre ERR: update: %s\n",
			msg);
	else
		OSM_LOG(&p->osm->log, OSM_LOG_INFO, "osmre: update: %s\n", msg);
}

unsigned proto_epoch(struct osmre *p)
{
	return p->proto.sm.epoch;
}

void proto_sl2vl(struct osmre *p, ib_slvl_table_t *t)
{
	int sl;

	/* SL 15 too (it carries no data): OpenSM's default maps it to VL 7,
	 * and nothing but the escape may name the escape's VL */
	for (sl = 0; sl < 16; sl++)
		ib_slvl_table_set(t, (uint8_t)sl,
				  (uint8_t)updn_sl2vl(p->opt.update_escape_vl,
						      sl));
}

uint8_t proto_path_sl(struct osmre *p, uint8_t sl, ib_net16_t dlid)
{
	osm_port_t *port;
	uint16_t d = cl_ntoh16(dlid), lo, hi;

	if (!p->opt.update_protocol)
		return sl;
	port = osm_get_port_by_lid_ho(&p->osm->subn, d);
	if (!port)
		return sl;
	osm_port_get_lid_range_ho(port, &lo, &hi);
	return d > lo && d <= hi ? (uint8_t)p->opt.update_escape_vl : sl;
}

/* ---- the state machine's operations (the thread) ---- */

/* Asks OpenSM for a routing pass in mode m. */
static void ask_pass(struct osmre *p, int m)
{
	staging_ask(&p->stage, m);
	p->osm->subn.force_reroute = TRUE;
	osm_opensm_sweep(p->osm);
}

/* COMPUTE: a pass in stage mode; what changed */
static long op_compute(void *ctx)
{
	struct osmre *p = ctx;

	ask_pass(p, STAGING_STAGE);
	return staging_wait(&p->stage, PASS_WAIT_S);
}

static double op_now(void *ctx)
{
	(void)ctx;
	return clock_mono();
}

static int op_push(void *ctx)
{
	ask_pass(ctx, STAGING_APPLY);
	return 0;
}

/* 1 when the block of t is, on its switch as OpenSM read it back, t's */
static int block_pushed(void *ctx, const struct lft *t, unsigned block)
{
	struct osmre *p = ctx;
	osm_switch_t *sw =
		osm_get_switch_by_guid(&p->osm->subn, cl_hton64(t->guid));
	unsigned lid;

	for (lid = block * 64; sw && sw->lft && lid < block * 64 + 64 &&
			       lid <= t->top && lid <= sw->max_lid_ho;
	     lid++)
		if (sw->lft[lid] != t->port[lid])
			return 0;
	return 1;
}

/* 1 when every block the update changes is on its switch. */
static int op_pushed(void *ctx)
{
	struct osmre *p = ctx;
	int same;

	if (staging_mode(&p->stage) == STAGING_APPLY)
		return 0; /* the pass has not come yet */
	cl_plock_acquire(&p->osm->lock);
	same = staging_each_changed(&p->stage, block_pushed, p);
	cl_plock_release(&p->osm->lock);
	return same;
}

static void op_commit(void *ctx)
{
	struct osmre *p = ctx;

	staging_drop(&p->stage); /* nothing is left aside */
}

static void op_abandon(void *ctx)
{
	struct osmre *p = ctx;

	staging_drop(&p->stage);
}

/* ---- the transport ---- */

/* What OpenSM's port table says about the port that owns slid. */
static struct updw_peer peer_of(struct osmre *p, unsigned slid)
{
	struct updw_peer peer = { 0 };
	osm_port_t *port;

	if (!slid || slid > IB_LID_UCAST_END_HO)
		return peer;
	cl_plock_acquire(&p->osm->lock);
	port = osm_get_port_by_lid_ho(&p->osm->subn, (uint16_t)slid);
	if (port) {
		uint16_t lo, hi;

		osm_port_get_lid_range_ho(port, &lo, &hi);
		peer.guid = cl_ntoh64(osm_port_get_guid(port));
		peer.lid = lo;
		peer.lid_top = hi;
	}
	cl_plock_release(&p->osm->lock);
	return peer;
}

static void serve(struct osmre *p, struct umad_link *l, const uint8_t *mad,
		  int len, unsigned slid)
{
	struct proto *u = &p->proto;
	struct updw_msg req, resp;
	struct updw_peer peer;
	uint8_t out[UPDW_MAD_SIZE];
	uint64_t tid;
	int method, why;
	long held;

	if (updw_decode(mad, (size_t)len, p->opt.update_mgmt_class, &req,
			&method, &tid) ||
	    (method != UPDW_METHOD_GET && method != UPDW_METHOD_SET)) {
		if (updw_ratelimit_ok(&u->rejlog, clock_mono(), 10, 10.0,
				      &held))
			OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
				"osmre ERR: update: a MAD from LID %u that is not ours (%d bytes) dropped%s%ld earlier line(s) held back\n",
				slid, len, held ? "; " : "", held);
		return;
	}
	peer = peer_of(p, slid);
	why = updw_serve(&u->sm, &req, &peer, p->opt.update_key, clock_mono(),
			 p->opt.update_poll_ms, p->opt.update_escape_vl, &resp);
	if (why) {
		u->rejected++;
		if (updw_ratelimit_ok(&u->rejlog, clock_mono(), 10, 10.0,
				      &held))
			OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
				"osmre ERR: update: request %u from LID %u (port 0x%016" PRIx64
				") refused: %s (%lu refused in all; %ld line(s) held back)\n",
				req.op, slid, peer.guid, updw_reject_name(why),
				u->rejected, held);
		if (why == UPDW_REJ_NO_PORT)
			return; /* nowhere safe to answer */
	}
	updw_encode(out, p->opt.update_mgmt_class, UPDW_METHOD_GET_RESP, tid,
		    &resp);
	if (umadport_send(l, out, resp.reply_lid, p->opt.update_escape_vl, 0))
		OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
			"osmre ERR: update: cannot answer LID %u\n",
			resp.reply_lid);
}

static void *proto_thread(void *arg)
{
	struct osmre *p = arg;
	struct proto *u = &p->proto;
	struct umad_link l = { .fd = -1, .agent = -1 };
	uint8_t mad[UPDW_MAD_SIZE];
	double next_try = 0;
	int open = 0;

	for (;;) {
		int req, topo, n = 0;
		unsigned slid = 0;

		pthread_mutex_lock(&u->lock);
		if (!u->running) {
			pthread_mutex_unlock(&u->lock);
			break;
		}
		req = u->request;
		topo = u->topo;
		u->request = u->topo = 0;
		pthread_mutex_unlock(&u->lock);
		/* the SM's port is known once OpenSM has bound it */
		if (!open && p->osm->subn.sm_port_guid &&
		    clock_mono() >= next_try) {
			char why[200];

			if (umadport_open(&l, NULL, 0,
					  cl_ntoh64(p->osm->subn.sm_port_guid),
					  p->opt.update_mgmt_class, 1, why,
					  sizeof(why))) {
				OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
					"osmre ERR: update: %s; trying again in 5 s\n",
					why);
				next_try = clock_mono() + 5;
			} else {
				open = 1;
				OSM_LOG(&p->osm->log, OSM_LOG_INFO,
					"osmre: update: serving class 0x%02x on %s port %d (port GUID 0x%016" PRIx64
					")\n",
					p->opt.update_mgmt_class, l.ca, l.port,
					l.guid);
			}
		}
		if (open)
			n = umadport_recv(&l, mad, sizeof(mad), &slid, TICK_MS);
		else
			usleep(TICK_MS * 1000);
		if (n > 0)
			serve(p, &l, mad, n, slid);
		if (req)
			update_request(&u->sm);
		if (topo)
			update_topology(&u->sm);
		update_tick(&u->sm, clock_mono());
	}
	if (open)
		umadport_close(&l);
	return NULL;
}

void proto_request(struct osmre *p)
{
	pthread_mutex_lock(&p->proto.lock);
	p->proto.request = 1;
	pthread_mutex_unlock(&p->proto.lock);
	OSM_LOG(&p->osm->log, OSM_LOG_INFO,
		"osmre: update: re-route requested\n");
}

void proto_topology(struct osmre *p)
{
	pthread_mutex_lock(&p->proto.lock);
	p->proto.topo = 1;
	pthread_mutex_unlock(&p->proto.lock);
}

int proto_start(struct osmre *p)
{
	struct proto *u = &p->proto;
	static const struct upd_ops ops = {
		.compute = op_compute,
		.push = op_push,
		.pushed = op_pushed,
		.commit = op_commit,
		.abandon = op_abandon,
		.log = proto_log,
		.now = op_now,
	};
	struct upd_opts o = {
		.ack_timeout = p->opt.update_ack_timeout_ms / 1000.0,
		.push_timeout = p->opt.update_push_timeout_ms / 1000.0,
		.max_misses = p->opt.update_max_misses,
		.max_subs = p->opt.update_max_subscribers,
	};

	pthread_mutex_init(&u->lock, NULL);
	update_init(&u->sm, &ops, p, &o);
	u->inited = 1;
	if (!p->opt.update_protocol)
		return 0;
	u->running = 1;
	if (pthread_create(&u->thread, NULL, proto_thread, p)) {
		u->running = 0;
		return -1;
	}
	u->started = 1;
	return 0;
}

void proto_stop(struct osmre *p)
{
	struct proto *u = &p->proto;

	if (!u->inited)
		return;
	pthread_mutex_lock(&u->lock);
	u->running = 0;
	pthread_mutex_unlock(&u->lock);
	staging_close(&p->stage); /* a COMPUTE waiting ends */
	if (u->started)
		pthread_join(u->thread, NULL);
	update_free(&u->sm);
	pthread_mutex_destroy(&u->lock);
	u->inited = 0;
}
