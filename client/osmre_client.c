/* SPDX-License-Identifier: BSD-2-Clause */
/* libosmre-client (see osmre-client.h). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/umad.h>

#include "clock.h"
#include "osmre-client.h"
#include "umadport.h"
#include "updwire.h"

struct osmre_client {
	struct umad_link l;
	int mgmt_class, timeout_ms, retries;
	uint32_t tid, sub;
	int sl; /* of our MADs: the escape's, once known */
	int poll_ms;
	/* WAIT (long poll): the SM's keep-alive period (0: it holds no
	 * WAIT, or is older: the client polls), and the state it saw */
	unsigned keepalive_ms;
	int no_wait;
	uint32_t seen_epoch;
	int seen_phase;
	int on_escape;
	volatile sig_atomic_t cancel; /* osmre_client_cancel */
	uint32_t acked_epoch;	      /* the last (epoch, phase) answered */
	int acked_phase;
	/* ACKWAIT: the ack of (acked_epoch, acked_phase) goes with the
	 * next WAIT (pend), the transaction of the WAIT whose answer asked
	 * for it (the SM sends that answer again while it has not the ack),
	 * an SM that knows no ACKWAIT (no_ackwait) */
	int pend;
	uint32_t last_tid, notice_tid;
	int no_ackwait;
	char key[UPDW_KEY_MAX + 1]; /* "": none */
	char err[256];
	double sm_checked; /* when the SM LID was last asked (ms) */
};

static double mono_ms(void)
{
	return clock_mono() * 1e3;
}

/* How often a client waiting on the SM asks its port who the master is
 * (a failover or handover moves it): ms. */
#define SM_CHECK_MS 2000

/*
 * 1 when the master SM is no longer the one this client talks to (the
 * port's MasterSMLID moved): the client then forgets its session, which
 * was the old master's, and registers with the new one at its next
 * step, keeping its own state (on the escape or not).
 */
static int sm_moved(struct osmre_client *c)
{
	unsigned lid;

	c->sm_checked = mono_ms();
	if (umadport_sm_lid(&c->l, &lid, 200) || !lid || lid == c->l.sm_lid)
		return 0;
	snprintf(c->err, sizeof(c->err),
		 "the master SM moved (LID %u to %u): registering with it",
		 c->l.sm_lid, lid);
	c->l.sm_lid = lid;
	c->sub = 0;
	c->pend = 0;
	return 1;
}

/* What a result code means, for messages. */
static const char *result_name(int r)
{
	switch (r) {
	case UPDW_OK:
		return "accepted";
	case UPDW_UNKNOWN:
		return "unknown subscriber";
	case UPDW_IGNORED:
		return "ignored";
	case UPDW_BAD:
		return "malformed, or the SM is out of memory";
	case UPDW_DENIED:
		return "denied: not this port's subscription, or a wrong or missing key (update_key)";
	case UPDW_FULL:
		return "the SM has update_max_subscribers subscribers";
	case UPDW_PORT_FULL:
		return "this port has update_max_sessions_per_port sessions";
	case UPDW_NO_ESCAPE:
		return "the escape VL is missing on some port: the SM's update protocol is off";
	default:
		return "unknown result";
	}
}


static void fail(struct osmre_client *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fail(struct osmre_client *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
}

/* The escape LID of a port whose base LID is lid (LMC lmc). */
static unsigned escape_lid(unsigned lid, unsigned lmc)
{
	return lmc ? lid + 1 : lid;
}

struct osmre_client *osmre_client_open(const struct osmre_client_opts *o,
				       char *err, size_t errlen)
{
	struct osmre_client *c = calloc(1, sizeof(*c));
	struct osmre_client_opts d = { 0 };

	if (!c) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (!o)
		o = &d;
	c->mgmt_class = o->mgmt_class ? o->mgmt_class : UPDW_CLASS_DEFAULT;
	c->timeout_ms = o->timeout_ms > 0 ? o->timeout_ms : 1000;
	c->retries = o->retries > 0 ? o->retries : 3;
	c->poll_ms = 100;
	c->tid = (uint32_t)getpid() << 16;
	if (o->key) {
		if (strlen(o->key) > UPDW_KEY_MAX) {
			snprintf(err, errlen,
				 "the key is longer than %d characters",
				 UPDW_KEY_MAX);
			free(c);
			return NULL;
		}
		strcpy(c->key, o->key);
	}
	if (umadport_open(&c->l, o->ca, o->port, 0, c->mgmt_class, 0, err,
			  errlen)) {
		free(c);
		return NULL;
	}
	if (!c->l.lid || !c->l.sm_lid) {
		snprintf(err, errlen, "%s port %d has no LID or no SM yet",
			 c->l.ca, c->l.port);
		umadport_close(&c->l);
		free(c);
		return NULL;
	}
	return c;
}

/* One request, its answer in resp: 0, or -1; 1 when an answer came
 * with the transaction again_tid (not 0) instead: the SM sent the answer
 * of an earlier WAIT again (an ACKWAIT it did not get). */
static int call(struct osmre_client *c, int op, uint32_t epoch, int phase,
		uint32_t again_tid, struct updw_msg *resp)
{
	unsigned dlid = escape_lid(c->l.sm_lid, c->l.lmc);
	struct updw_msg m = {
		.op = (uint8_t)op,
		.phase = (uint8_t)phase,
		.sub = c->sub,
		.epoch = epoch,
		.guid = c->l.guid,
		.lid = (uint16_t)c->l.lid,
		.reply_lid = (uint16_t)escape_lid(c->l.lid, c->l.lmc),
	};
	uint8_t mad[UPDW_MAD_SIZE], in[UPDW_MAD_SIZE];
	/* a WAIT may be held for the keep-alive period */
	int held = op == UPDW_WAIT || op == UPDW_ACKWAIT;
	int wait_ms = c->timeout_ms + (held ? (int)c->keepalive_ms : 0);
	int try;

	updw_set_key(&m, c->key);
	for (try = 0; try < c->retries; try++) {
		double until = mono_ms() + wait_ms;
		uint32_t tid = ++c->tid;

		updw_encode(mad, c->mgmt_class,
			    op == UPDW_POLL || held ? UPDW_METHOD_GET :
						      UPDW_METHOD_SET,
			    tid, &m);
		if (umadport_send(&c->l, mad, dlid, c->sl, wait_ms)) {
			fail(c, "cannot send to the SM (LID %u)", dlid);
			return -1;
		}
		for (;;) {
			double left = until - mono_ms();
			unsigned slid;
			uint64_t rtid;
			int n, method;

			if (left <= 0)
				break;
			if (c->cancel) {
				fail(c, "cancelled");
				return -1;
			}
			/* a WAIT is held long: is the SM still the master? */
			if (op != UPDW_REGISTER &&
			    mono_ms() - c->sm_checked >= SM_CHECK_MS &&
			    sm_moved(c))
				return -1;
			/* in slices: a WAIT may be held for long */
			n = umadport_recv(&c->l, in, sizeof(in), &slid,
					  left > 100 ? 100 : (int)left + 1);
			if (n < 0) {
				fail(c, "receive error");
				return -1;
			}
			if (!n)
				continue;
			/* the simulator and the kernel own the TID's high bits */
			if (updw_decode(in, (size_t)n, c->mgmt_class, resp,
					&method, &rtid) ||
			    method != UPDW_METHOD_GET_RESP)
				continue;
			if (again_tid && (uint32_t)rtid == again_tid)
				return 1;
			if ((uint32_t)rtid != tid)
				continue; /* a late answer to an earlier try */
			c->last_tid = tid;
			if (resp->poll_ms)
				c->poll_ms = resp->poll_ms;
			if (resp->result == UPDW_OK)
				c->keepalive_ms = resp->keepalive_ms;
			c->sl = resp->sl;
			return 0;
		}
	}
	if (sm_moved(c))
		return -1;
	fail(c, "no answer from the SM (LID %u) in %d tries of %d ms", dlid,
	     c->retries, wait_ms);
	/* a session the SM may have lost (restarted): registered again at
	 * the next step */
	if (op != UPDW_REGISTER)
		c->sub = 0;
	c->pend = 0;
	return -1;
}

int osmre_client_register(struct osmre_client *c)
{
	struct updw_msg r;
	umad_port_t pt;
	unsigned sm;

	/* the port's LIDs, and the SM, which may have moved since the port
	 * was opened (umadport_sm_lid: the port's own PortInfo) */
	if (!umad_get_port(c->l.ca, c->l.port, &pt)) {
		c->l.lid = pt.base_lid;
		c->l.lmc = pt.lmc;
		umad_release_port(&pt);
	}
	if (!umadport_sm_lid(&c->l, &sm, 200) && sm)
		c->l.sm_lid = sm;
	c->sub = 0;
	/* a new session, maybe of another SM: no (epoch, phase) of it has
	 * been answered yet, whatever the numbers (epochs of two SMs
	 * collide); the client's own state (on the escape or not) stays */
	c->acked_epoch = 0;
	c->acked_phase = -1;
	c->seen_epoch = 0;
	/* on the escape: as if it last saw UNPATH, so that an idle SM
	 * answers its first WAIT at once (come back) rather than holding
	 * it for the keep-alive period */
	c->seen_phase = c->on_escape ? OSMRE_UNPATH : 0;
	c->pend = 0;
	if (call(c, UPDW_REGISTER, 0, 0, 0, &r))
		return -1;
	if (r.result != UPDW_OK || !r.sub) {
		fail(c, "the SM refused the registration: %s",
		     result_name(r.result));
		return -1;
	}
	c->sub = r.sub;
	return 0;
}

static int answer(struct osmre_client *c, int op, uint32_t epoch, int phase);

/* The pending ack and the next WAIT in one ACKWAIT, its answer in r: 0,
 * or -1.  Sent again (a few times) when the SM sends the answer that
 * asked for the ack again; with an SM that knows no ACKWAIT, an ACK then
 * a WAIT. */
static int ackwait(struct osmre_client *c, struct updw_msg *r)
{
	int rc = 1, n;

	for (n = 0; rc == 1 && n < 8; n++)
		rc = call(c, UPDW_ACKWAIT, c->acked_epoch, c->acked_phase,
			  c->notice_tid, r);
	if (rc == 1)
		fail(c, "the SM keeps asking for the ack of epoch %u",
		     c->acked_epoch);
	if (rc)
		return -1;
	if (r->result == UPDW_BAD) { /* an older SM */
		c->no_ackwait = 1;
		if (answer(c, UPDW_ACK, c->acked_epoch, c->acked_phase))
			return -1;
		c->pend = 0;
		return call(c, UPDW_WAIT, c->seen_epoch, c->seen_phase, 0, r) ?
			       -1 :
			       0;
	}
	c->pend = 0;
	return 0;
}

int osmre_client_poll(struct osmre_client *c, uint32_t *epoch, int *phase)
{
	struct updw_msg r;
	int op = c->keepalive_ms && !c->no_wait ? UPDW_WAIT : UPDW_POLL;

	if (c->pend) {
		if (ackwait(c, &r))
			return -1;
	} else if (call(c, op, c->seen_epoch, c->seen_phase, 0, &r)) {
		return -1;
	}
	if (op == UPDW_WAIT && r.result == UPDW_BAD) {
		c->no_wait = 1; /* an SM that knows no WAIT: poll */
		if (call(c, op = UPDW_POLL, 0, 0, 0, &r))
			return -1;
	}
	if (r.result == UPDW_UNKNOWN) {
		fail(c, "the SM does not know subscriber %u", c->sub);
		c->sub = 0;
		c->pend = 0;
		return -1;
	}
	if (r.result != UPDW_OK) {
		fail(c, "poll refused: %s", result_name(r.result));
		return -1;
	}
	*epoch = c->seen_epoch = r.epoch;
	*phase = c->seen_phase = r.phase;
	c->notice_tid = c->last_tid;
	return 0;
}

/* ACK or NACK (op) of (epoch, phase): 0, or -1. */
static int answer(struct osmre_client *c, int op, uint32_t epoch, int phase)
{
	struct updw_msg r;

	if (call(c, op, epoch, phase, 0, &r))
		return -1;
	if (r.result == UPDW_UNKNOWN)
		c->sub = 0;
	if (r.result != UPDW_OK && r.result != UPDW_IGNORED) {
		fail(c, "%s of epoch %u refused: %s",
		     op == UPDW_ACK ? "ack" : "NACK", epoch,
		     result_name(r.result));
		return -1;
	}
	c->acked_epoch = epoch;
	c->acked_phase = phase;
	return 0;
}

int osmre_client_ack(struct osmre_client *c, uint32_t epoch, int phase)
{
	return answer(c, UPDW_ACK, epoch, phase);
}

int osmre_client_nack(struct osmre_client *c, uint32_t epoch, int phase)
{
	return answer(c, UPDW_NACK, epoch, phase);
}

int osmre_client_leave(struct osmre_client *c)
{
	struct updw_msg r;

	if (!c->sub)
		return 0;
	if (call(c, UPDW_LEAVE, 0, 0, 0, &r))
		return -1;
	c->sub = 0;
	return 0;
}

static void say(const struct osmre_client_hooks *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(const struct osmre_client_hooks *h, const char *fmt, ...)
{
	char buf[300];
	va_list ap;

	if (!h->log)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	h->log(h->arg, buf);
}

/* Runs a hook; 0 when it succeeded (or there is none). */
static int hook(const struct osmre_client_hooks *h, int unpath, uint32_t epoch)
{
	int (*fn)(void *, uint32_t) = unpath ? h->unpath : h->repath;
	int rc = fn ? fn(h->arg, epoch) : 0;

	say(h, "epoch %u: %s hook %s", epoch, unpath ? "unpath" : "repath",
	    rc ? "failed: NACK" : "done");
	return rc;
}

/* 1 when (epoch, phase) was answered already (acked or NACKed). */
static int answered(const struct osmre_client *c, uint32_t epoch, int phase)
{
	return c->acked_epoch == epoch && c->acked_phase == phase;
}

/* Answers (epoch, phase) once: an ack when ok, else a NACK. */
static int answer_once(struct osmre_client *c,
		       const struct osmre_client_hooks *h, uint32_t epoch,
		       int phase, int ok)
{
	const char *name = phase == OSMRE_UNPATH ? "UNPATH" : "REPATH";

	if (answered(c, epoch, phase))
		return 0;
	if (ok && c->keepalive_ms && !c->no_wait && !c->no_ackwait) {
		/* the ack goes with the next WAIT (ACKWAIT) */
		c->pend = 1;
		c->acked_epoch = epoch;
		c->acked_phase = phase;
		say(h, "epoch %u: %s acked (with the next WAIT)", epoch, name);
		return 0;
	}
	if (ok ? osmre_client_ack(c, epoch, phase) :
		 osmre_client_nack(c, epoch, phase))
		return -1;
	say(h, "epoch %u: %s %s", epoch, name, ok ? "acked" : "NACKed");
	return 0;
}

int osmre_client_step(struct osmre_client *c,
		      const struct osmre_client_hooks *h)
{
	uint32_t epoch;
	int phase;

	if (!c->sub) {
		if (osmre_client_register(c))
			return -1;
		say(h,
		    "registered as subscriber %u (port 0x%016llx, LID %u, escape LID %u)",
		    c->sub, (unsigned long long)c->l.guid, c->l.lid,
		    escape_lid(c->l.lid, c->l.lmc));
	}
	if (osmre_client_poll(c, &epoch, &phase)) {
		if (c->sub)
			return -1;
		/* forgotten (the SM lost the session, or the master
		 * moved): said, and registered again at the next step */
		say(h, "%s", c->err);
		return 0;
	}
	/* a hook runs once per (epoch, phase): a failed one is NACKed, and
	 * the SM goes on without this client (osmre(8)) */
	switch (phase) {
	case OSMRE_UNPATH:
		if (answered(c, epoch, phase))
			return 0;
		if (!c->on_escape && hook(h, 1, epoch))
			return answer_once(c, h, epoch, phase, 0);
		c->on_escape = 1;
		return answer_once(c, h, epoch, phase, 1);
	case OSMRE_REPATH:
		if (answered(c, epoch, phase))
			return 0;
		if (c->on_escape && hook(h, 0, epoch))
			return answer_once(c, h, epoch, phase, 0);
		c->on_escape = 0;
		return answer_once(c, h, epoch, phase, 1);
	case OSMRE_IDLE:
	case OSMRE_COMPUTE:
		/* the base-LID tables are consistent: come back */
		if (c->on_escape && !hook(h, 0, epoch))
			c->on_escape = 0;
		return 0;
	default:
		return 0;
	}
}

void osmre_client_cancel(struct osmre_client *c)
{
	if (c)
		c->cancel = 1;
}

void osmre_client_close(struct osmre_client *c)
{
	if (!c)
		return;
	c->cancel = 0; /* the LEAVE still goes */
	osmre_client_leave(c);
	umadport_close(&c->l);
	free(c);
}

int osmre_client_poll_ms(const struct osmre_client *c)
{
	/* a WAIT waits at the SM: poll again at once */
	return c->keepalive_ms && !c->no_wait ? 0 : c->poll_ms;
}

int osmre_client_on_escape(const struct osmre_client *c)
{
	return c->on_escape;
}

const char *osmre_client_error(const struct osmre_client *c)
{
	return c->err;
}

unsigned osmre_client_lid(const struct osmre_client *c)
{
	return c->l.lid;
}

uint64_t osmre_client_guid(const struct osmre_client *c)
{
	return c->l.guid;
}

uint32_t osmre_client_id(const struct osmre_client *c)
{
	return c->sub;
}
