/* SPDX-License-Identifier: BSD-2-Clause */
/* The update protocol's MADs (see updwire.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "updwire.h"


static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)get16(p) << 16 | get16(p + 2);
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) << 32 | get32(p + 4);
}

void updw_encode(uint8_t *mad, int mgmt_class, int method, uint64_t tid,
		 const struct updw_msg *m)
{
	uint8_t *d = mad + UPDW_HDR;

	memset(mad, 0, UPDW_MAD_SIZE);
	mad[0] = 1; /* base version */
	mad[1] = (uint8_t)mgmt_class;
	mad[2] = UPDW_CLASS_VERSION;
	mad[3] = (uint8_t)method;
	put64(mad + 8, tid);
	put16(mad + 16, UPDW_ATTR);
	put32(d + UPDW_OFF_MAGIC, UPDW_MAGIC);
	d[UPDW_OFF_VERSION] = UPDW_VERSION;
	d[UPDW_OFF_OP] = m->op;
	d[UPDW_OFF_PHASE] = m->phase;
	d[UPDW_OFF_RESULT] = m->result;
	put32(d + UPDW_OFF_SUB, m->sub);
	put32(d + UPDW_OFF_EPOCH, m->epoch);
	put64(d + UPDW_OFF_GUID, m->guid);
	put16(d + UPDW_OFF_LID, m->lid);
	put16(d + UPDW_OFF_REPLY, m->reply_lid);
	put16(d + UPDW_OFF_POLL, m->poll_ms);
	d[UPDW_OFF_SL] = m->sl;
	memcpy(d + UPDW_OFF_KEY, m->key, UPDW_KEY_MAX);
	put32(d + UPDW_OFF_KEEPALIVE, m->keepalive_ms);
}

int updw_decode(const uint8_t *mad, size_t len, int mgmt_class,
		struct updw_msg *m, int *method, uint64_t *tid)
{
	const uint8_t *d = mad + UPDW_HDR;

	if (len < UPDW_HDR + UPDW_PAYLOAD_SIZE || mad[0] != 1 ||
	    mad[1] != mgmt_class || mad[2] != UPDW_CLASS_VERSION ||
	    get16(mad + 16) != UPDW_ATTR ||
	    get32(d + UPDW_OFF_MAGIC) != UPDW_MAGIC ||
	    d[UPDW_OFF_VERSION] != UPDW_VERSION)
		return -1;
	*method = mad[3];
	*tid = get64(mad + 8);
	m->op = d[UPDW_OFF_OP];
	m->phase = d[UPDW_OFF_PHASE];
	m->result = d[UPDW_OFF_RESULT];
	m->sub = get32(d + UPDW_OFF_SUB);
	m->epoch = get32(d + UPDW_OFF_EPOCH);
	m->guid = get64(d + UPDW_OFF_GUID);
	m->lid = get16(d + UPDW_OFF_LID);
	m->reply_lid = get16(d + UPDW_OFF_REPLY);
	m->poll_ms = get16(d + UPDW_OFF_POLL);
	m->sl = d[UPDW_OFF_SL];
	memcpy(m->key, d + UPDW_OFF_KEY, UPDW_KEY_MAX);
	m->keepalive_ms = get32(d + UPDW_OFF_KEEPALIVE);
	return 0;
}

void updw_set_key(struct updw_msg *m, const char *key)
{
	size_t n = key ? strnlen(key, UPDW_KEY_MAX) : 0;

	memset(m->key, 0, UPDW_KEY_MAX);
	if (n)
		memcpy(m->key, key, n);
}

/* 1 when the request carries key; time independent of where they
 * differ. */
static int key_ok(const struct updw_msg *req, const char *key)
{
	struct updw_msg want;
	unsigned diff = 0;
	int i;

	if (!key || !*key)
		return 1;
	updw_set_key(&want, key);
	for (i = 0; i < UPDW_KEY_MAX; i++)
		diff |= (unsigned)(want.key[i] ^ req->key[i]);
	return !diff;
}

/* clang-format off */
static const char *const reject_names[] = {
	"accepted",
	"the source LID is no port of the subnet",
	"REGISTER for a GUID that is not the sender's port",
	"wrong or missing key",
	"no such subscriber on the sender's port",
	"update_max_subscribers reached",
	"malformed request",
	"update_max_sessions_per_port reached",
};
/* clang-format on */

const char *updw_reject_name(int why)
{
	return why >= 0 && why <= UPDW_REJ_PORT_FULL ? reject_names[why] : "?";
}

uint16_t updw_reply_lid(const struct updw_msg *req,
			const struct updw_peer *peer)
{
	if (req->reply_lid >= peer->lid && req->reply_lid <= peer->lid_top)
		return req->reply_lid;
	return peer->lid;
}

int updw_serve(struct update *u, const struct updw_msg *req,
	       const struct updw_peer *peer, const char *key, double now,
	       int poll_ms, int sl, struct updw_msg *resp)
{
	int held;

	return updw_serve_tid(u, req, peer, key, now, poll_ms, sl, 0, resp,
			      &held);
}

/* The keep-alive period in ms, for answers. */
static uint32_t keepalive_ms(const struct update *u)
{
	double ka = update_keepalive(u) * 1e3;

	return ka > 4e9 ? 4000000000u : (uint32_t)ka;
}

void updw_notice(const struct update *u, const struct upd_due *d, int poll_ms,
		 int sl, struct updw_msg *resp)
{
	memset(resp, 0, sizeof(*resp));
	resp->op = UPDW_WAIT;
	resp->result = UPDW_OK;
	resp->sub = d->id;
	resp->guid = d->guid;
	resp->reply_lid = d->lid;
	resp->poll_ms = (uint16_t)poll_ms;
	resp->sl = (uint8_t)sl;
	resp->epoch = u->epoch;
	resp->phase = (uint8_t)u->phase;
	resp->keepalive_ms = keepalive_ms(u);
}

int updw_serve_tid(struct update *u, const struct updw_msg *req,
		   const struct updw_peer *peer, const char *key, double now,
		   int poll_ms, int sl, uint64_t tid, struct updw_msg *resp,
		   int *held)
{
	uint32_t epoch = u->epoch;
	int phase = u->phase, r, why = UPDW_REJ_NONE;

	*held = 0;
	memset(resp, 0, sizeof(*resp));
	resp->op = req->op;
	resp->guid = peer->guid;
	resp->lid = peer->lid;
	resp->reply_lid = updw_reply_lid(req, peer);
	resp->poll_ms = (uint16_t)poll_ms;
	resp->sl = (uint8_t)sl;
	resp->result = UPDW_OK;
	if (!peer->guid) {
		why = UPDW_REJ_NO_PORT;
		resp->result = UPDW_DENIED;
	} else if (!key_ok(req, key)) {
		why = UPDW_REJ_KEY;
		resp->result = UPDW_DENIED;
	} else {
		switch (req->op) {
		case UPDW_REGISTER:
			if (req->guid != peer->guid) {
				why = UPDW_REJ_GUID;
				resp->result = UPDW_DENIED;
				break;
			}
			resp->sub = update_subscribe(u, peer->guid, peer->lid,
						     now, &r);
			if (r == UPD_REFUSE_FULL) {
				why = UPDW_REJ_FULL;
				resp->result = UPDW_FULL;
			} else if (r == UPD_REFUSE_PORT) {
				why = UPDW_REJ_PORT_FULL;
				resp->result = UPDW_PORT_FULL;
			} else if (r) {
				why = UPDW_REJ_BAD;
				resp->result = UPDW_BAD;
			}
			break;
		case UPDW_POLL:
			if (update_poll(u, peer->guid, req->sub, now, &epoch,
					&phase))
				why = UPDW_REJ_UNKNOWN;
			break;
		case UPDW_WAIT:
			r = update_wait(u, peer->guid, req->sub, req->epoch,
					req->phase, tid, resp->reply_lid, now);
			if (r < 0)
				why = UPDW_REJ_UNKNOWN;
			*held = !r;
			break;
		case UPDW_ACKWAIT:
			/* an ack and the next WAIT in one MAD: at scale an
			 * epoch costs each session two MADs a phase, not
			 * four; a stale or repeated ack still waits */
			r = update_ack(u, peer->guid, req->sub, req->epoch,
				       req->phase, now);
			if (r >= 0)
				r = update_wait(u, peer->guid, req->sub,
						req->epoch, req->phase, tid,
						resp->reply_lid, now);
			if (r < 0)
				why = UPDW_REJ_UNKNOWN;
			*held = !r;
			break;
		case UPDW_ACK:
		case UPDW_NACK:
			r = req->op == UPDW_ACK ?
				    update_ack(u, peer->guid, req->sub,
					       req->epoch, req->phase, now) :
				    update_nack(u, peer->guid, req->sub,
						req->epoch, req->phase, now);
			if (r < 0)
				why = UPDW_REJ_UNKNOWN;
			else
				resp->result = r ? UPDW_OK : UPDW_IGNORED;
			break;
		case UPDW_LEAVE:
			if (update_unsubscribe(u, peer->guid, req->sub))
				why = UPDW_REJ_UNKNOWN;
			break;
		default:
			why = UPDW_REJ_BAD;
			resp->result = UPDW_BAD;
			break;
		}
		if (why == UPDW_REJ_UNKNOWN)
			resp->result = UPDW_UNKNOWN;
	}
	if (why) { /* a requester turned down learns nothing */
		resp->sub = 0;
		return why;
	}
	if (req->op != UPDW_REGISTER)
		resp->sub = req->sub;
	resp->epoch = u->epoch;
	resp->phase = (uint8_t)u->phase;
	resp->keepalive_ms = keepalive_ms(u);
	return UPDW_REJ_NONE;
}

const char *updw_held_note(long held, char *buf, size_t size)
{
	snprintf(buf, size, " (%ld line(s) held back)", held);
	return buf;
}

int updw_bucket_take(struct updw_bucket *b, double now, double rate)
{
	if (rate <= 0)
		return 0;
	if (!b->t || now < b->t) { /* a fresh bucket is full */
		b->t = now;
		b->tokens = rate;
	}
	b->tokens += (now - b->t) * rate;
	if (b->tokens > rate)
		b->tokens = rate;
	b->t = now;
	if (b->tokens < 1)
		return 0;
	b->tokens -= 1;
	return 1;
}

int updw_ratelimit_ok(struct updw_ratelimit *r, double now, int burst,
		      double window, long *held)
{
	if (now - r->start >= window || now < r->start) {
		r->start = now;
		r->n = 0;
	}
	if (r->n >= burst) {
		r->suppressed++;
		return 0;
	}
	r->n++;
	*held = r->suppressed;
	r->suppressed = 0;
	return 1;
}
