/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The update protocol inside OpenSM (update_protocol 1): the transport and
 * the staged push around common/update.c's state machine.
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
 * Lock order: OpenSM's lock, then u->lock.  The thread never holds u->lock
 * while it takes OpenSM's.
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

#define PASS_WAIT_S 120		/* a staged pass that never comes */
#define TICK_MS 10

enum { UPM_NORMAL, UPM_STAGE, UPM_APPLY };


static void upd_log(void *ctx, int level, const char *msg)
{
	struct osmre *p = ctx;

	if (level)
		OSM_LOG(&p->osm->log, OSM_LOG_ERROR, "osmre ERR: update: %s\n", msg);
	else
		OSM_LOG(&p->osm->log, OSM_LOG_INFO, "osmre: update: %s\n", msg);
}

/* ---- routing passes (OpenSM's thread) ---- */

int upd_reuse(struct osmre *p, const struct fabric *f, struct lft_set *s,
	      struct osmre_err *err)
{
	struct upd *u = &p->upd;
	uint64_t sig = fabric_signature(f);
	int rc = 0;

	pthread_mutex_lock(&u->lock);
	if (u->have_cur && sig == u->cur_sig && u->mode != UPM_STAGE) {
		if (u->mode == UPM_APPLY && u->have_next) {
			lft_set_free(&u->cur);
			u->cur = u->next;
			memset(&u->next, 0, sizeof(u->next));
			u->have_next = 0;
			sar_promote(&p->sar);
			OSM_LOG(&p->osm->log, OSM_LOG_INFO,
				"osmre: update: epoch %u: the new base-LID tables go to the switches\n",
				u->sm.epoch);
		}
		u->mode = UPM_NORMAL;
		lft_set_free(s);
		rc = lft_set_clone(&u->cur, s, err) ? -1 : 1;
		pthread_cond_broadcast(&u->cond);
	}
	pthread_mutex_unlock(&u->lock);
	return rc;
}

int upd_routed(struct osmre *p, const struct fabric *f, struct lft_set *s,
	       struct osmre_err *err)
{
	struct upd *u = &p->upd;
	uint64_t sig = fabric_signature(f);
	int rc = 0;

	pthread_mutex_lock(&u->lock);
	if (u->mode == UPM_STAGE && u->have_cur && sig == u->cur_sig) {
		/* next := the engine's; new_lft keeps the committed tables */
		lft_set_free(&u->next);
		u->next = *s;
		u->have_next = 1;
		free(u->changed);
		u->staged = lft_set_blocks_changed(&u->cur, &u->next,
						   &u->changed);
		if (u->staged < 0) {
			u->changed = NULL;
			rc = osmre_fail(err, "out of memory");
		}
		if (rc || lft_set_clone(&u->cur, s, err)) {
			memset(s, 0, sizeof(*s));
			rc = -1;
		}
	} else {
		/* first pass, or a new topology: in force at once */
		if (u->have_cur && sig != u->cur_sig)
			u->topo = 1;
		if (u->mode == UPM_STAGE)
			u->staged = 0;
		lft_set_free(&u->cur);
		lft_set_free(&u->next);
		u->have_next = 0;
		free(u->changed);	/* blocks of the old topology */
		u->changed = NULL;
		if (lft_set_clone(s, &u->cur, err)) {
			u->have_cur = 0;
			rc = -1;
		} else {
			u->have_cur = 1;
			u->cur_sig = sig;
		}
		sar_promote(&p->sar);
	}
	u->mode = UPM_NORMAL;
	pthread_cond_broadcast(&u->cond);
	pthread_mutex_unlock(&u->lock);
	return rc;
}

void upd_failed(struct osmre *p)
{
	struct upd *u = &p->upd;

	pthread_mutex_lock(&u->lock);
	if (u->mode == UPM_STAGE)
		u->staged = -1;
	u->mode = UPM_NORMAL;
	pthread_cond_broadcast(&u->cond);
	pthread_mutex_unlock(&u->lock);
}

void upd_sl2vl(struct osmre *p, ib_slvl_table_t *t)
{
	int sl;

	/* SL 15 too (it carries no data): OpenSM's default maps it to VL 7,
	 * and nothing but the escape may name the escape's VL */
	for (sl = 0; sl < 16; sl++)
		ib_slvl_table_set(t, (uint8_t)sl,
				  (uint8_t)updn_sl2vl(p->opt.update_escape_vl, sl));
}

uint8_t upd_path_sl(struct osmre *p, uint8_t sl, ib_net16_t dlid)
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
	pthread_mutex_lock(&p->upd.lock);
	p->upd.mode = m;
	pthread_mutex_unlock(&p->upd.lock);
	p->osm->subn.force_reroute = TRUE;
	osm_opensm_sweep(p->osm);
}

static long op_compute(void *ctx)
{
	struct osmre *p = ctx;
	struct upd *u = &p->upd;
	struct timespec until;
	long n;

	pthread_mutex_lock(&u->lock);
	u->staged = -1;
	pthread_mutex_unlock(&u->lock);
	ask_pass(p, UPM_STAGE);
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += PASS_WAIT_S;
	/* the pass that takes the stage mode puts it back to normal */
	pthread_mutex_lock(&u->lock);
	while (u->mode == UPM_STAGE && u->running &&
	       pthread_cond_timedwait(&u->cond, &u->lock, &until) != ETIMEDOUT)
		;
	n = u->mode == UPM_STAGE ? -1 : u->staged;
	u->mode = UPM_NORMAL;
	pthread_mutex_unlock(&u->lock);
	return n;
}

static double op_now(void *ctx)
{
	(void)ctx;
	return clock_mono();
}

static int op_push(void *ctx)
{
	ask_pass(ctx, UPM_APPLY);
	return 0;
}

/* 1 when every block the update changes is, on its switch, as OpenSM
 * read it back, that of cur. */
static int op_pushed(void *ctx)
{
	struct osmre *p = ctx;
	struct upd *u = &p->upd;
	int same = 1, mode;
	long k;

	pthread_mutex_lock(&u->lock);
	mode = u->mode;
	pthread_mutex_unlock(&u->lock);
	if (mode == UPM_APPLY)	/* the pass has not come yet */
		return 0;
	cl_plock_acquire(&p->osm->lock);
	pthread_mutex_lock(&u->lock);
	for (k = 0; same && u->changed && k < u->staged; k++) {
		const struct lft *t = &u->cur.t[u->changed[k].table];
		osm_switch_t *sw = osm_get_switch_by_guid(&p->osm->subn,
							  cl_hton64(t->guid));
		unsigned lid = u->changed[k].block * 64;

		for (; same && sw && sw->lft && lid < u->changed[k].block * 64 + 64 &&
		       lid <= t->top && lid <= sw->max_lid_ho; lid++)
			same = sw->lft[lid] == t->port[lid];
	}
	pthread_mutex_unlock(&u->lock);
	cl_plock_release(&p->osm->lock);
	return same;
}

static void drop_next(struct osmre *p)
{
	struct upd *u = &p->upd;

	pthread_mutex_lock(&u->lock);
	lft_set_free(&u->next);
	u->have_next = 0;
	free(u->changed);
	u->changed = NULL;
	u->staged = 0;
	u->mode = UPM_NORMAL;
	pthread_mutex_unlock(&u->lock);
	sar_drop_next(&p->sar);
}

static void op_commit(void *ctx)
{
	drop_next(ctx);		/* nothing is left aside */
}

static void op_abandon(void *ctx)
{
	drop_next(ctx);
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
	struct upd *u = &p->upd;
	struct updw_msg req, resp;
	struct updw_peer peer;
	uint8_t out[UPDW_MAD_SIZE];
	uint64_t tid;
	int method, why;
	long held;

	if (updw_decode(mad, (size_t)len, p->opt.update_mgmt_class, &req,
			&method, &tid) ||
	    (method != UPDW_METHOD_GET && method != UPDW_METHOD_SET)) {
		if (updw_ratelimit_ok(&u->rejlog, clock_mono(), 10, 10.0, &held))
			OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
				"osmre ERR: update: a MAD from LID %u that is not ours (%d bytes) dropped%s%ld earlier line(s) held back\n",
				slid, len, held ? "; " : "", held);
		return;
	}
	peer = peer_of(p, slid);
	why = updw_serve(&u->sm, &req, &peer, p->opt.update_key, clock_mono(),
			 p->opt.update_poll_ms, p->opt.update_escape_vl,
			 &resp);
	if (why) {
		u->rejected++;
		if (updw_ratelimit_ok(&u->rejlog, clock_mono(), 10, 10.0, &held))
			OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
				"osmre ERR: update: request %u from LID %u (port 0x%016" PRIx64 ") refused: %s (%lu refused in all; %ld line(s) held back)\n",
				req.op, slid, peer.guid, updw_reject_name(why),
				u->rejected, held);
		if (why == UPDW_REJ_NO_PORT)
			return;	/* nowhere safe to answer */
	}
	updw_encode(out, p->opt.update_mgmt_class, UPDW_METHOD_GET_RESP, tid,
		    &resp);
	if (umadport_send(l, out, resp.reply_lid, p->opt.update_escape_vl, 0))
		OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
			"osmre ERR: update: cannot answer LID %u\n",
			resp.reply_lid);
}

static void *upd_thread(void *arg)
{
	struct osmre *p = arg;
	struct upd *u = &p->upd;
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
		if (!open && p->osm->subn.sm_port_guid && clock_mono() >= next_try) {
			char why[200];

			if (umadport_open(&l, NULL, 0,
					  cl_ntoh64(p->osm->subn.sm_port_guid),
					  p->opt.update_mgmt_class, 1, why,
					  sizeof(why))) {
				OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
					"osmre ERR: update: %s; trying again in 5 s\n", why);
				next_try = clock_mono() + 5;
			} else {
				open = 1;
				OSM_LOG(&p->osm->log, OSM_LOG_INFO,
					"osmre: update: serving class 0x%02x on %s port %d (port GUID 0x%016" PRIx64 ")\n",
					p->opt.update_mgmt_class, l.ca, l.port, l.guid);
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

void upd_request(struct osmre *p)
{
	pthread_mutex_lock(&p->upd.lock);
	p->upd.request = 1;
	pthread_mutex_unlock(&p->upd.lock);
	OSM_LOG(&p->osm->log, OSM_LOG_INFO,
		"osmre: update: re-route requested\n");
}

int upd_start(struct osmre *p)
{
	struct upd *u = &p->upd;
	static const struct upd_ops ops = {
		.compute = op_compute, .push = op_push, .pushed = op_pushed,
		.commit = op_commit, .abandon = op_abandon, .log = upd_log,
		.now = op_now,
	};
	struct upd_opts o = {
		.ack_timeout = p->opt.update_ack_timeout_ms / 1000.0,
		.push_timeout = p->opt.update_push_timeout_ms / 1000.0,
		.max_misses = p->opt.update_max_misses,
		.max_subs = p->opt.update_max_subscribers,
	};

	pthread_mutex_init(&u->lock, NULL);
	pthread_cond_init(&u->cond, NULL);
	update_init(&u->sm, &ops, p, &o);
	u->inited = 1;
	if (!p->opt.update_protocol)
		return 0;
	u->running = 1;
	if (pthread_create(&u->thread, NULL, upd_thread, p)) {
		u->running = 0;
		return -1;
	}
	u->started = 1;
	return 0;
}

void upd_stop(struct osmre *p)
{
	struct upd *u = &p->upd;

	if (!u->inited)
		return;
	pthread_mutex_lock(&u->lock);
	u->running = 0;
	pthread_cond_broadcast(&u->cond);
	pthread_mutex_unlock(&u->lock);
	if (u->started)
		pthread_join(u->thread, NULL);
	update_free(&u->sm);
	lft_set_free(&u->cur);
	lft_set_free(&u->next);
	free(u->changed);
	pthread_mutex_destroy(&u->lock);
	pthread_cond_destroy(&u->cond);
	u->inited = 0;
}
