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
 * - Restarts (osmre(8), RESTARTS): the committed tables (with sar's
 *   layers) are saved in OpenSM's cache directory whenever they change
 *   (osmre-committed.bin), the sessions and the epoch counter within a
 *   second of a change (osmre-sessions).  A restarted SM installs the
 *   saved tables at its first pass when the topology is the same, and
 *   brings the tables of the current configuration in with an epoch, the
 *   restored sessions asked as before; on another topology it routes at
 *   once.  The thread answers nobody before SUBNET UP, so that a
 *   subscriber that comes back from the escape finds consistent tables.
 * - No peer can make the SM spend its time on it: each source LID may
 *   make update_port_rate requests a second (more are dropped
 *   unanswered), refused requests get at most update_refused_rate
 *   answers a second in all, and a failed send is counted, not retried.
 * - The escape VL must exist on every port (VLCap and, once set,
 *   OperVLs): checked at every pass; while a port lacks it, registrations
 *   are answered "no escape" and re-route requests are refused.
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
#include "updstate.h"
#include "updwire.h"

#define PASS_WAIT_S    120 /* a staged pass that never comes */
#define TICK_MS	       10
#define NOTIFY_BURST   8
#define STATS_PERIOD_S 60.0
#define SESSIONS_FILE  "osmre-sessions"
#define TABLES_FILE    "osmre-committed.bin"
#define SESSIONS_MAX   (16L << 20)
#define TABLES_MAX     (4L << 30)
#define SAVE_PERIOD_S  1.0
#define LIDS	       0xC000 /* unicast LIDs */


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
	if (port) {
		osm_port_get_lid_range_ho(port, &lo, &hi);
		if (d > lo && d <= hi)
			return (uint8_t)p->opt.update_escape_vl;
	}
	/* the escape's VL carries the escape alone: an SL that names it for
	 * a base LID (OpenSM's QoS level; OpenSM refuses a request that asked
	 * for it, the SL being changed) gets SL 0,
	 * the VL the deadlock check counts base routes on */
	return sl == p->opt.update_escape_vl ? 0 : sl;
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

/* Under the flags' lock: SUBNET UP seen, ports without the escape. */
static void gate(struct osmre *p, int *ready, int *escape_bad)
{
	pthread_mutex_lock(&p->proto.lock);
	*ready = p->proto.ready;
	*escape_bad = p->proto.escape_bad;
	pthread_mutex_unlock(&p->proto.lock);
}

/* An answer that tells the requester the protocol is off (no escape). */
static void no_escape(const struct updw_msg *req, const struct updw_peer *peer,
		      struct updw_msg *resp)
{
	memset(resp, 0, sizeof(*resp));
	resp->op = req->op;
	resp->guid = peer->guid;
	resp->lid = peer->lid;
	resp->reply_lid = updw_reply_lid(req, peer);
	resp->result = UPDW_NO_ESCAPE;
}

static void serve(struct osmre *p, struct umad_link *l, const uint8_t *mad,
		  int len, unsigned slid, int escape_bad)
{
	struct proto *u = &p->proto;
	struct updw_msg req, resp;
	struct updw_peer peer;
	uint8_t out[UPDW_MAD_SIZE];
	double now = clock_mono();
	uint64_t tid;
	int method, why, held = 0;
	char note[48];
	long nheld;

	/* a port's rate first: a flood costs a table lookup */
	if (slid && slid < LIDS && u->by_lid &&
	    !updw_bucket_take(&u->by_lid[slid], now, p->opt.update_port_rate)) {
		u->over_rate++;
		if (updw_ratelimit_ok(&u->ratelog, now, 10, 10.0, &nheld))
			OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
				"osmre ERR: update: LID %u sends more than update_port_rate (%d) requests a second: %lu dropped unanswered in all (%ld line(s) held back)\n",
				slid, p->opt.update_port_rate, u->over_rate,
				nheld);
		return;
	}
	if (updw_decode(mad, (size_t)len, p->opt.update_mgmt_class, &req,
			&method, &tid) ||
	    (method != UPDW_METHOD_GET && method != UPDW_METHOD_SET)) {
		if (updw_ratelimit_ok(&u->alienlog, now, 10, 10.0, &nheld))
			OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
				"osmre ERR: update: a MAD from LID %u that is not ours (%d bytes) dropped%s\n",
				slid, len,
				updw_held_note(nheld, note, sizeof(note)));
		return;
	}
	/* a standby does not speak for the subnet: the master serves (a
	 * client whose requests go unanswered looks for it) */
	if (!sm_is_master(p)) {
		u->not_master++;
		if (updw_ratelimit_ok(&u->alienlog, now, 10, 10.0, &nheld))
			OSM_LOG(&p->osm->log, OSM_LOG_INFO,
				"osmre: update: this SM is %s: a request from LID %u dropped (%lu in all)%s\n",
				sm_state_name(p), slid, u->not_master,
				updw_held_note(nheld, note, sizeof(note)));
		return;
	}
	peer = peer_of(p, slid);
	if (escape_bad > 0 && peer.guid) {
		why = UPDW_REJ_BAD;
		no_escape(&req, &peer, &resp);
	} else {
		why = updw_serve_tid(&u->sm, &req, &peer, p->opt.update_key,
				     now, p->opt.update_poll_ms,
				     p->opt.update_escape_vl, tid, &resp,
				     &held);
		if (held)
			return; /* answered when there is news */
	}
	if (why) {
		u->rejected++;
		if (escape_bad > 0 && peer.guid) {
			if (updw_ratelimit_ok(&u->esclog, now, 10, 10.0,
					      &nheld))
				OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
					"osmre ERR: update: request %u from LID %u (port 0x%016" PRIx64
					") answered \"no escape\": %d port(s) lack VL %d (%ld line(s) held back)\n",
					req.op, slid, peer.guid, escape_bad,
					p->opt.update_escape_vl, nheld);
		} else if (updw_ratelimit_ok(&u->rejlog, now, 10, 10.0,
					     &nheld)) {
			OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
				"osmre ERR: update: request %u from LID %u (port 0x%016" PRIx64
				") refused: %s (%lu refused in all, %lu unanswered; %ld line(s) held back)\n",
				req.op, slid, peer.guid, updw_reject_name(why),
				u->rejected, u->unanswered, nheld);
		}
		/* no port: nowhere safe to answer; else a bounded rate */
		if (why == UPDW_REJ_NO_PORT ||
		    !updw_bucket_take(&u->refused, now,
				      p->opt.update_refused_rate)) {
			u->unanswered++;
			return;
		}
	}
	updw_encode(out, p->opt.update_mgmt_class, UPDW_METHOD_GET_RESP, tid,
		    &resp);
	/* never retried: the subscriber asks again */
	if (umadport_send(l, out, resp.reply_lid, p->opt.update_escape_vl, 0)) {
		u->send_failed++;
		if (updw_ratelimit_ok(&u->sendlog, now, 10, 10.0, &nheld))
			OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
				"osmre ERR: update: cannot answer LID %u (%lu failed sends in all; %ld line(s) held back)\n",
				resp.reply_lid, u->send_failed, nheld);
	}
}

/* Answers the held WAITs that are due, at most update_notice_rate a
 * second and NOTIFY_BURST between two reads (a phase's news to every
 * session goes out paced, never in a burst that fills the fabric's
 * queues while requests wait to be read: ibsim's sockets hold 10
 * datagrams); 1 when some are left. */
static int notify(struct osmre *p, struct umad_link *l, double now)
{
	struct proto *u = &p->proto;
	uint8_t out[UPDW_MAD_SIZE];
	struct updw_msg resp;
	struct upd_due d;
	int n;

	for (n = 0; n < NOTIFY_BURST; n++) {
		if (!updw_bucket_take(&u->notice, now,
				      p->opt.update_notice_rate))
			return 1;
		if (!update_take_due(&u->sm, now, &d)) {
			u->notice.tokens += 1; /* not used */
			return 0;
		}
		updw_notice(&u->sm, &d, p->opt.update_poll_ms,
			    p->opt.update_escape_vl, &resp);
		updw_encode(out, p->opt.update_mgmt_class, UPDW_METHOD_GET_RESP,
			    d.tid, &resp);
		if (umadport_send(l, out, d.lid, p->opt.update_escape_vl, 0))
			u->send_failed++;
	}
	return 1;
}

/* One line a minute while there are sessions, and after each commit:
 * what the protocol costs. */
static void stats_line(struct osmre *p, double now)
{
	struct proto *u = &p->proto;

	if (now < u->stats_at && u->sm.runs == u->stats_runs)
		return;
	u->stats_at = now + STATS_PERIOD_S;
	u->stats_runs = u->sm.runs;
	if (!u->sm.nsub && !u->rejected)
		return;
	OSM_LOG(&p->osm->log, OSM_LOG_INFO,
		"osmre: update: %d session(s), %d WAIT(s) held, keep-alive %.1f s; so far %lu answer(s) to held WAITs, %lu sent again, %lu request(s) over update_port_rate, %lu refused (%lu unanswered), %lu failed send(s)\n",
		u->sm.nsub, u->sm.held, update_keepalive(&u->sm), u->sm.notices,
		u->sm.resent, u->over_rate, u->rejected, u->unanswered,
		u->send_failed);
}

/* ---- restarts: the sessions and the committed tables on disk ---- */

static int write_sessions(FILE *fp, void *arg)
{
	return updstate_write(fp, arg);
}

/* Saves the sessions when they changed (at most every SAVE_PERIOD_S
 * unless force). */
static void save_sessions(struct osmre *p, double now, int force)
{
	struct proto *u = &p->proto;
	uint64_t d;
	char err[300];

	if (!force && now - u->saved_at < SAVE_PERIOD_S)
		return;
	u->saved_at = now;
	d = updstate_digest(&u->sm);
	if (d == u->saved_digest)
		return;
	if (cachefile_write(SESSIONS_FILE, 0600, write_sessions, &u->sm, err,
			    sizeof(err))) {
		OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
			"osmre ERR: update: the sessions are not saved: %s\n",
			err);
		return;
	}
	u->saved_digest = d;
}

static int write_tables(FILE *fp, void *arg)
{
	struct osmre_err err;

	return staging_save(arg, fp, &err);
}

/* The commit line's word on the subscribers of an SM that kept none
 * (a first start, a failover to a standby) or refused its file: clients
 * of another master, or of this one before, that did not register again
 * are not counted. */
static const char known_new[] =
	"subscribers known: those registered since this SM started (no sessions file)";
static const char known_refused[] =
	"subscribers known: those registered since this SM started (its sessions file was refused)";

/* What a restarted SM needs: the sessions and the epoch, the committed
 * tables.  Either may be missing (a fresh fabric: nothing to keep). */
static void restore(struct osmre *p)
{
	struct proto *u = &p->proto;
	struct osmre_err e;
	char err[300];
	long size;
	int missing;
	FILE *fp;

	fp = cachefile_open(SESSIONS_FILE, SESSIONS_MAX, &size, &missing, err,
			    sizeof(err));
	u->sm.known = missing ? known_new : known_refused;
	if (fp) {
		if (updstate_read(fp, &u->sm, err, sizeof(err)))
			OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
				"osmre ERR: update: %s: %s: not used\n",
				SESSIONS_FILE, err);
		else {
			u->sm.known = NULL;
			OSM_LOG(&p->osm->log, OSM_LOG_INFO,
				"osmre: update: restored %d session(s) and epoch %u from the cache directory\n",
				u->sm.nsub, u->sm.epoch);
		}
		fclose(fp);
		u->saved_digest = updstate_digest(&u->sm);
	} else if (!missing) {
		OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
			"osmre ERR: update: %s: not used\n", err);
	}
	fp = cachefile_open(TABLES_FILE, TABLES_MAX, &size, &missing, err,
			    sizeof(err));
	if (!fp) {
		if (!missing)
			OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
				"osmre ERR: update: %s: not used: the first pass routes at once\n",
				err);
		return;
	}
	if (staging_load(&p->stage, fp, size, &e)) {
		OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
			"osmre ERR: update: %s: %s: not used: the first pass routes at once\n",
			TABLES_FILE, e.msg);
	} else {
		u->restored = 1;
		p->proto.tables_gen = staging_generation(&p->stage);
		OSM_LOG(&p->osm->log, OSM_LOG_INFO,
			"osmre: update: restored the committed tables (%d switch(es)): installed again on the same topology if the switches hold them (lft_readback), then an epoch brings in the current configuration\n",
			p->stage.cur.tables.n);
	}
	fclose(fp);
}

/* ---- the escape on every port ---- */

/* The OperVLs/VLCap code (1: VL0, 2: VL0-1, 3: VL0-3, 4: VL0-7, 5:
 * VL0-14) a port needs for VL vl. */
static int vls_code(int vl)
{
	return vl < 1 ? 1 : vl < 2 ? 2 : vl < 4 ? 3 : vl < 8 ? 4 : 5;
}

/* Ports that lack the escape VL (logged, the first few by GUID). */
static int check_escape(struct osmre *p)
{
	cl_qmap_t *nodes = &p->osm->subn.node_guid_tbl;
	int need = vls_code(p->opt.update_escape_vl), bad = 0;
	cl_map_item_t *it;

	for (it = cl_qmap_head(nodes); it != cl_qmap_end(nodes);
	     it = cl_qmap_next(it)) {
		osm_node_t *nd = (osm_node_t *)it;
		int n = osm_node_get_num_physp(nd), i;

		for (i = 1; i < n; i++) {
			osm_physp_t *ph =
				osm_node_get_physp_ptr(nd, (uint8_t)i);
			int cap, op;

			if (!ph || !osm_physp_get_remote(ph))
				continue;
			cap = ib_port_info_get_vl_cap(&ph->port_info);
			op = ib_port_info_get_op_vls(&ph->port_info);
			if (cap >= need && (!op || op >= need))
				continue;
			if (++bad <= 5)
				OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
					"osmre ERR: update: port %d of node 0x%016" PRIx64
					" (port GUID 0x%016" PRIx64
					") has VLCap code %d, OperVLs code %d: no VL %d for the escape\n",
					i,
					cl_ntoh64(osm_node_get_node_guid(nd)),
					cl_ntoh64(osm_physp_get_port_guid(ph)),
					cap, op, p->opt.update_escape_vl);
		}
	}
	return bad;
}

void proto_pass_done(struct osmre *p)
{
	struct proto *u = &p->proto;
	unsigned long g;
	char err[300];
	int bad, was;

	if (!p->opt.update_protocol)
		return;
	bad = check_escape(p);
	pthread_mutex_lock(&u->lock);
	was = u->escape_bad;
	u->escape_bad = bad;
	pthread_mutex_unlock(&u->lock);
	if (bad && was != bad)
		OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
			"osmre ERR: update: %d port(s) lack VL %d (update_escape_vl): the update protocol refuses to run until every port has it (registrations answered \"no escape\", re-route requests refused)\n",
			bad, p->opt.update_escape_vl);
	else if (!bad && was > 0)
		OSM_LOG(&p->osm->log, OSM_LOG_INFO,
			"osmre: update: every port has VL %d again: the update protocol runs\n",
			p->opt.update_escape_vl);
	g = staging_generation(&p->stage);
	if (!g || g == u->tables_gen)
		return;
	if (cachefile_write(TABLES_FILE, 0600, write_tables, &p->stage, err,
			    sizeof(err)))
		OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
			"osmre ERR: update: the committed tables are not saved: %s: a restart routes at once\n",
			err);
	else
		u->tables_gen = g;
}

void proto_ready(struct osmre *p)
{
	pthread_mutex_lock(&p->proto.lock);
	if (!p->proto.ready)
		p->proto.ready_at = clock_mono();
	p->proto.ready = 1;
	pthread_mutex_unlock(&p->proto.lock);
}

/*
 * 1 while the first epoch of a new master (a first start, a failover, a
 * handover, a restart) must wait, since_ready s after its SUBNET UP: for
 * update_grace_ms, so that the old master's subscribers register with
 * it; then, up to the keep-alive period more, while a session it knew
 * before (a restart's, a standby spell's) has not been heard from (its
 * client's WAIT was held by the old process: it sends again when that
 * times out), or for all of it when the sessions file was refused (it
 * cannot know who is missing).
 */
static int in_grace(struct osmre *p, double since_ready)
{
	struct proto *u = &p->proto;
	double grace = p->opt.update_grace_ms / 1000.0;

	if (since_ready < grace)
		return 1;
	if (since_ready >= grace + update_keepalive(&u->sm))
		return 0;
	return u->sm.known == known_refused ||
	       update_unheard(&u->sm, u->ready_at) > 0;
}

void proto_master_again(struct osmre *p)
{
	if (!p->proto.inited)
		return;
	pthread_mutex_lock(&p->proto.lock);
	p->proto.ready = 0;
	p->proto.grace_said = 0;
	pthread_mutex_unlock(&p->proto.lock);
}

static void *proto_thread(void *arg)
{
	struct osmre *p = arg;
	struct proto *u = &p->proto;
	struct umad_link l = { .fd = -1, .agent = -1 };
	uint8_t mad[UPDW_MAD_SIZE];
	double next_try = 0;
	int open = 0, busy = 0;

	for (;;) {
		int req, topo, n = 0, ready, escape_bad;
		unsigned slid = 0;
		double now;

		pthread_mutex_lock(&u->lock);
		if (!u->running) {
			pthread_mutex_unlock(&u->lock);
			break;
		}
		req = u->request && u->ready;
		topo = u->topo;
		if (u->ready)
			u->request = 0;
		u->topo = 0;
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
			n = umadport_recv(&l, mad, sizeof(mad), &slid,
					  busy ? 0 : TICK_MS);
		else
			usleep(TICK_MS * 1000);
		gate(p, &ready, &escape_bad);
		/* before SUBNET UP the base tables may not be in force yet:
		 * no answers (the subscribers ask again) */
		if (n > 0 && ready)
			serve(p, &l, mad, n, slid, escape_bad);
		else if (n > 0)
			u->unanswered++;
		if (topo)
			update_topology(&u->sm);
		if (!ready)
			continue; /* requests wait for SUBNET UP */
		/* a new master (a first start, a failover, a handover): the
		 * subscribers of the old one register with it first (they
		 * see the master move within about 2 s) */
		if ((req || u->restored) &&
		    in_grace(p, clock_mono() - u->ready_at)) {
			if (!u->grace_said++)
				OSM_LOG(&p->osm->log, OSM_LOG_INFO,
					"osmre: update: a new master: the first epoch waits update_grace_ms (%d ms) for the subscribers to register%s\n",
					p->opt.update_grace_ms,
					u->sm.known == known_refused ?
						", and the keep-alive period for those it forgot (its sessions file was refused)" :
					update_unheard(&u->sm, u->ready_at) ?
						", and up to the keep-alive period for the sessions it knew to be heard from" :
						"");
			pthread_mutex_lock(&u->lock);
			u->request |= req;
			pthread_mutex_unlock(&u->lock);
			req = 0;
			goto tick;
		}
		if (u->restored) { /* bring the current configuration in */
			u->restored = 0;
			req = 1;
		}
		if (req && escape_bad > 0)
			OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
				"osmre ERR: update: re-route refused: %d port(s) lack the escape's VL %d\n",
				escape_bad, p->opt.update_escape_vl);
		else if (req)
			update_request(&u->sm);
tick:
		now = clock_mono();
		update_tick(&u->sm, now);
		busy = open && notify(p, &l, clock_mono());
		save_sessions(p, clock_mono(), 0);
		stats_line(p, clock_mono());
	}
	if (open)
		umadport_close(&l);
	return NULL;
}

void proto_request(struct osmre *p)
{
	proto_bring_in(p);
	OSM_LOG(&p->osm->log, OSM_LOG_INFO,
		"osmre: update: re-route requested\n");
}

void proto_bring_in(struct osmre *p)
{
	pthread_mutex_lock(&p->proto.lock);
	p->proto.request = 1;
	pthread_mutex_unlock(&p->proto.lock);
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
		.max_per_port = p->opt.update_max_sessions_per_port,
		.keepalive = p->opt.update_keepalive_ms / 1000.0,
		.idle_rate = p->opt.update_idle_rate,
	};

	pthread_mutex_init(&u->lock, NULL);
	update_init(&u->sm, &ops, p, &o);
	u->escape_bad = -1;
	u->inited = 1;
	if (!p->opt.update_protocol)
		return 0;
	restore(p);
	u->by_lid = calloc(LIDS, sizeof(*u->by_lid));
	if (!u->by_lid)
		OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
			"osmre ERR: update: out of memory: no update_port_rate\n");
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
	if (u->started) {
		pthread_join(u->thread, NULL);
		save_sessions(p, clock_mono(), 1);
	}
	update_free(&u->sm);
	free(u->by_lid);
	u->by_lid = NULL;
	pthread_mutex_destroy(&u->lock);
	u->inited = 0;
}
