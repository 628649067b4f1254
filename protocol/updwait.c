/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * WAIT, the protocol's long poll (update.h): a session's WAIT says what it
 * last saw; the SM answers at once when that is not its state, else holds
 * the WAIT until a phase the session must learn of starts or the
 * keep-alive period ends.  So a session costs one exchange per keep-alive
 * period between epochs, and hears of UNPATH and REPATH as they start,
 * without the SM ever sending a request (ibsim delivers no unsolicited
 * MAD to an ordinary client).
 *
 * A session must learn of: UNPATH (or UPDATE) of an epoch it has not
 * seen in that phase; REPATH likewise; the SM back in IDLE (or COMPUTE)
 * when it last saw UNPATH or UPDATE (a run abandoned, or it missed
 * REPATH: it is still on the escape).
 *
 * An answer that tells a session of a phase it must ack may be lost on
 * the wire: it is sent again, with the same transaction (the client is
 * still waiting for it), 0.5 s after it left, then 1, 2 ... until the
 * session acks or the phase ends (never while first answers still wait
 * to go out, nor within 0.5 s of the last ack or NACK: at scale the
 * pacing and the queue, not the loss, delay them); a duplicate that finds
 * the client no longer waiting is dropped by its library.
 *
 * Work: a phase change looks at every held WAIT once (O(sessions) per
 * epoch), and while sessions still owe an ack, every one is looked at
 * every 0.1 s for an answer to send again; keep-alives come in the order WAITs were held (one FIFO, one
 * period for all), each looked up in O(log n); answers due wait in a FIFO
 * that the transport drains at its own pace.  Both FIFOs hold at most one
 * live entry per session, and are compacted when stale ones fill them.
 */
#include <stdlib.h>
#include <string.h>

#include "update.h"
#include "update_int.h"

#define RESEND_FIRST 0.5 /* s before an answer is sent again */
#define RESEND_SCAN  0.1 /* s between looks for answers to send again */

double update_keepalive(const struct update *u)
{
	double ka = u->o.keepalive;

	if (ka <= 0)
		return 0;
	if (u->o.idle_rate > 0 && u->nsub / u->o.idle_rate > ka)
		ka = u->nsub / u->o.idle_rate;
	return ka;
}

/* What a session sees of phase: 0 (the base LIDs are consistent), or
 * the phase it must act on (UNPATH, REPATH). */
static int seen_as(int phase)
{
	return phase == UPD_UNPATH || phase == UPD_UPDATE ? UPD_UNPATH :
	       phase == UPD_REPATH			  ? UPD_REPATH :
							    0;
}

/* 1 when a session that last saw (epoch, phase) must learn of u's
 * state. */
static int must_learn(const struct update *u, uint32_t epoch, int phase)
{
	int now = seen_as(u->phase), was = seen_as(phase);

	if (!now) /* back in IDLE: only who may still be on the escape */
		return was == UPD_UNPATH;
	return epoch != u->epoch || was != now;
}

/* Room for one more entry in a FIFO of n live entries from head in an
 * array of cap: 0, or -1 (no memory).  Compacts first. */
static int fifo_room(void **a, int *head, int *n, int *cap, size_t size)
{
	char *b = *a;
	int nc;

	if (*head && *head + *n == *cap) {
		memmove(b, b + (size_t)*head * size, (size_t)*n * size);
		*head = 0;
	}
	if (*head + *n < *cap)
		return 0;
	nc = *cap ? 2 * *cap : 64;
	b = realloc(b, (size_t)nc * size);
	if (!b)
		return -1;
	*a = b;
	*cap = nc;
	return 0;
}

/* An answer to s (tid to lid) is due; 0, or -1 (no memory). */
static int push_due(struct update *u, const struct upd_sub *s, uint64_t tid,
		    uint16_t lid)
{
	struct upd_due *d;

	if (fifo_room((void **)&u->due, &u->due_head, &u->due_n, &u->due_cap,
		      sizeof(*u->due)))
		return -1;
	d = &u->due[u->due_head + u->due_n++];
	d->guid = s->guid;
	d->id = s->id;
	d->tid = tid;
	d->lid = lid;
	return 0;
}

/* s's held WAIT is answered (due); 0, or -1 (no memory).  An answer
 * that asks for an ack is remembered, to be sent again if need be. */
static int make_due(struct update *u, struct upd_sub *s, double now)
{
	if (push_due(u, s, s->wait_tid, s->wait_lid))
		return -1;
	s->wait_since = 0;
	u->held--;
	s->note_next = 0;
	if (s->asked && !s->acked) { /* timed from when it goes out */
		s->note_tid = s->wait_tid;
		s->note_lid = s->wait_lid;
		s->note_gap = RESEND_FIRST;
	}
	(void)now;
	return 0;
}

/* Answers that asked for an ack that has not come: sent again. */
static void resend(struct update *u, double now)
{
	int i;

	/* not while answers are still queued: they go first, and the
	 * timers start when an answer leaves; nor while acks still come
	 * in: at scale an ack is late because thousands of others go
	 * before it through the SM and the fabric, not because its
	 * notice was lost, and sending again would only add to the queue */
	if (!u->waiting || u->due_n || now < u->resend_scan ||
	    now - u->last_answer < RESEND_FIRST)
		return;
	u->resend_scan = now + RESEND_SCAN;
	for (i = 0; i < u->nsub; i++) {
		struct upd_sub *s = &u->sub[i];

		if (!s->note_next || now < s->note_next)
			continue;
		if (!s->asked || s->acked || s->wait_since > 0) {
			s->note_next = 0; /* answered, or waiting again */
			continue;
		}
		if (push_due(u, s, s->note_tid, s->note_lid))
			return;
		u->resent++;
		s->note_gap *= 2;
		s->note_next = 0; /* timed again when it leaves */
	}
}

/* Drops the keep-alive entries of WAITs no longer held. */
static void hold_compact(struct update *u)
{
	int i, k = 0;

	for (i = 0; i < u->hold_n; i++) {
		struct upd_hold *h = &u->hold[u->hold_head + i];
		const struct upd_sub *s = upd_find(u, h->guid, h->id);

		if (s && s->wait_since == h->since)
			u->hold[k++] = *h;
	}
	u->hold_head = 0;
	u->hold_n = k;
}

int update_wait(struct update *u, uint64_t guid, uint32_t id, uint32_t epoch,
		int phase, uint64_t tid, uint16_t lid, double now)
{
	struct upd_sub *s = upd_find(u, guid, id);
	struct upd_hold *h;

	if (!s)
		return -1;
	s->seen = now;
	if (s->wait_since > 0) { /* replaced: the old one is not answered */
		s->wait_since = 0;
		u->held--;
	}
	if (update_keepalive(u) <= 0 || must_learn(u, epoch, phase)) {
		if (s->asked && !s->acked) { /* sent again if lost */
			s->note_tid = tid;
			s->note_lid = lid;
			s->note_gap = RESEND_FIRST;
			s->note_next = now + RESEND_FIRST; /* it leaves now */
		}
		return 1;
	}
	if (u->hold_n >= 2 * u->nsub + 64)
		hold_compact(u);
	if (fifo_room((void **)&u->hold, &u->hold_head, &u->hold_n,
		      &u->hold_cap, sizeof(*u->hold)))
		return 1; /* no memory: answered at once, as a POLL */
	/* distinct, increasing stamps: a keep-alive entry names its WAIT */
	if (now <= u->last_hold)
		now = u->last_hold + 1e-9;
	u->last_hold = now;
	h = &u->hold[u->hold_head + u->hold_n++];
	h->guid = guid;
	h->id = id;
	h->since = now;
	s->wait_tid = tid;
	s->wait_lid = lid;
	s->wait_epoch = epoch;
	s->wait_phase = (uint8_t)phase;
	s->wait_since = now;
	u->held++;
	return 0;
}

void update_waits_phase(struct update *u, double now)
{
	int i;

	if (!u->held)
		return;
	for (i = 0; i < u->nsub; i++) {
		struct upd_sub *s = &u->sub[i];

		if (s->wait_since > 0 &&
		    must_learn(u, s->wait_epoch, s->wait_phase) &&
		    make_due(u, s, now))
			break; /* no memory: keep-alives answer them */
	}
}

int update_take_due(struct update *u, double now, struct upd_due *d)
{
	double ka = update_keepalive(u);
	struct upd_sub *s;

	/* keep-alive periods over, oldest first */
	while (u->hold_n) {
		struct upd_hold *h = &u->hold[u->hold_head];

		if (h->since + ka > now)
			break;
		s = upd_find(u, h->guid, h->id);
		u->hold_head++;
		u->hold_n--;
		if (s && s->wait_since == h->since && make_due(u, s, now))
			break;
	}
	resend(u, now);
	while (u->due_n) {
		*d = u->due[u->due_head++];
		u->due_n--;
		if (!u->due_n)
			u->due_head = 0;
		s = upd_find(u, d->guid, d->id);
		if (s) {
			/* an answer that asks for an ack: sent again after
			 * note_gap unless the ack comes */
			if (s->note_tid == d->tid && s->note_gap > 0 &&
			    s->asked && !s->acked)
				s->note_next = now + s->note_gap;
			u->notices++;
			return 1;
		}
	}
	return 0;
}
