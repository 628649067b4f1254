/* SPDX-License-Identifier: BSD-2-Clause */
/* The update protocol's state machine (see update.h). */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "update.h"

static const char *const names[UPD_NPHASES] = {
	"IDLE", "COMPUTE", "UNPATH", "UPDATE", "REPATH", "COMMIT",
};

const char *upd_phase_name(int phase)
{
	return phase >= 0 && phase < UPD_NPHASES ? names[phase] : "?";
}

static void say(struct update *u, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(struct update *u, int level, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (u->ops.log)
		u->ops.log(u->ctx, level, buf);
}

void update_init(struct update *u, const struct upd_ops *ops, void *ctx,
		 const struct upd_opts *o)
{
	memset(u, 0, sizeof(*u));
	u->ops = *ops;
	u->ctx = ctx;
	u->o = *o;
	if (u->o.max_misses < 1)
		u->o.max_misses = 1;
}

void update_free(struct update *u)
{
	free(u->sub);
	u->sub = NULL;
	u->nsub = u->cap = 0;
}

void update_request(struct update *u)
{
	u->pending = 1;
}

void update_topology(struct update *u)
{
	if (u->phase != UPD_IDLE)
		u->topo = 1;
}

/* The first subscriber whose guid is not below guid (binary search). */
static int lower_bound(const struct update *u, uint64_t guid)
{
	int lo = 0, hi = u->nsub;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (u->sub[mid].guid < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Subscriber id of port guid; NULL when either does not match. */
static struct upd_sub *find(struct update *u, uint64_t guid, uint32_t id)
{
	int i = lower_bound(u, guid);

	if (!id || i == u->nsub || u->sub[i].guid != guid || u->sub[i].id != id)
		return NULL;
	return &u->sub[i];
}

static void drop(struct update *u, struct upd_sub *s)
{
	size_t i = (size_t)(s - u->sub);

	memmove(s, s + 1, ((size_t)u->nsub - i - 1) * sizeof(*s));
	u->nsub--;
}

/* A random, non-zero id unlike old (getrandom; the clock and a counter
 * if the kernel has no randomness to give, which only costs
 * unguessability against processes on the subscriber's own port). */
static uint32_t new_id(uint32_t old)
{
	static uint32_t fallback;
	uint32_t id = 0;

	while (!id || id == old) {
		if (getrandom(&id, sizeof(id), GRND_NONBLOCK) != sizeof(id)) {
			struct timespec ts;

			clock_gettime(CLOCK_MONOTONIC, &ts);
			id = (uint32_t)ts.tv_nsec * 2654435761u ^
			     ++fallback * 40503u;
		}
	}
	return id;
}

uint32_t update_subscribe(struct update *u, uint64_t guid, uint16_t lid,
			  double now)
{
	int i = lower_bound(u, guid);
	struct upd_sub *s;
	uint32_t old = 0;

	if (i < u->nsub && u->sub[i].guid == guid) {
		s = &u->sub[i]; /* a restarted client: a new id */
		old = s->id;
	} else {
		if (u->o.max_subs > 0 && u->nsub >= u->o.max_subs)
			return 0;
		if (u->nsub == u->cap) {
			int nc = u->cap ? 2 * u->cap : 8;
			struct upd_sub *n =
				realloc(u->sub, (size_t)nc * sizeof(*n));

			if (!n)
				return 0;
			u->sub = n;
			u->cap = nc;
		}
		s = &u->sub[i];
		memmove(s + 1, s, ((size_t)u->nsub - (size_t)i) * sizeof(*s));
		u->nsub++;
	}
	memset(s, 0, sizeof(*s));
	s->id = u->ops.new_id ? u->ops.new_id(u->ctx) : 0;
	if (!s->id || s->id == old)
		s->id = new_id(old);
	s->guid = guid;
	s->lid = lid;
	s->seen = now;
	say(u, 0,
	    "subscriber %u: port 0x%016" PRIx64
	    " LID %u registered (%d in all)",
	    s->id, guid, lid, u->nsub);
	return s->id;
}

int update_unsubscribe(struct update *u, uint64_t guid, uint32_t id)
{
	struct upd_sub *s = find(u, guid, id);

	if (!s)
		return -1;
	say(u, 0, "subscriber %u: port 0x%016" PRIx64 " left", s->id, s->guid);
	drop(u, s);
	return 0;
}

int update_poll(struct update *u, uint64_t guid, uint32_t id, double now,
		uint32_t *epoch, int *phase)
{
	struct upd_sub *s = find(u, guid, id);

	if (!s)
		return -1;
	s->seen = now;
	*epoch = u->epoch;
	*phase = u->phase;
	return 0;
}

int update_ack(struct update *u, uint64_t guid, uint32_t id, uint32_t epoch,
	       int phase, double now)
{
	struct upd_sub *s = find(u, guid, id);

	if (!s)
		return -1;
	s->seen = now;
	if (epoch != u->epoch || phase != u->phase || !s->asked || s->acked)
		return 0;
	s->acked = 1;
	s->misses = 0;
	u->acked++;
	return 1;
}

static void enter(struct update *u, int phase, double now)
{
	u->dur[u->phase] += now - u->t_phase;
	u->phase = phase;
	u->t_phase = now;
	if (phase != UPD_IDLE && phase != UPD_COMMIT)
		say(u, 0, "epoch %u: %s (%d subscriber(s))", u->epoch,
		    upd_phase_name(phase), u->nsub);
}

static void ask_all(struct update *u, double now)
{
	int i;

	for (i = 0; i < u->nsub; i++) {
		u->sub[i].asked = 1;
		u->sub[i].acked = 0;
	}
	u->deadline = now + u->o.ack_timeout;
}

/* 1 when every subscriber asked has acked or timed out. */
static int acks_done(struct update *u, double now)
{
	int i, waiting = 0;

	for (i = 0; i < u->nsub; i++)
		waiting += u->sub[i].asked && !u->sub[i].acked;
	if (!waiting)
		return 1;
	if (now < u->deadline)
		return 0;
	for (i = 0; i < u->nsub;) {
		struct upd_sub *s = &u->sub[i];

		if (!s->asked || s->acked) {
			i++;
			continue;
		}
		s->asked = 0;
		s->misses++;
		u->timed_out++;
		say(u, 1,
		    "subscriber %u: port 0x%016" PRIx64
		    " LID %u: no %s ack of epoch %u within %.1f s (%d/%d in a row)",
		    s->id, s->guid, s->lid, upd_phase_name(u->phase), u->epoch,
		    u->o.ack_timeout, s->misses, u->o.max_misses);
		if (s->misses >= u->o.max_misses) {
			say(u, 1, "subscriber %u: dropped", s->id);
			drop(u, s);
		} else {
			i++;
		}
	}
	return 1;
}

static void start_compute(struct update *u, double now)
{
	u->topo = 0;
	u->epoch++;
	enter(u, UPD_COMPUTE, now);
}

static void restart(struct update *u, double now)
{
	if (u->ops.abandon)
		u->ops.abandon(u->ctx);
	u->restarts++;
	say(u, 1,
	    "epoch %u: topology change during %s: restarting from COMPUTE",
	    u->epoch, upd_phase_name(u->phase));
	start_compute(u, now);
}

static void commit(struct update *u, double now)
{
	enter(u, UPD_COMMIT, now);
	if (u->ops.commit)
		u->ops.commit(u->ctx);
	u->runs++;
	say(u, 0,
	    "epoch %u committed in %.3f s: compute %.3f s, unpath %.3f s, update %.3f s, repath %.3f s; %ld block(s) changed; subscribers %d, acks %d, timeouts %d; restarts %d",
	    u->epoch, now - u->t_run, u->dur[UPD_COMPUTE], u->dur[UPD_UNPATH],
	    u->dur[UPD_UPDATE], u->dur[UPD_REPATH], u->blocks, u->nsub,
	    u->acked, u->timed_out, u->restarts);
	enter(u, UPD_IDLE, now);
}

void update_tick(struct update *u, double now)
{
	long n;

	for (;;) {
		switch (u->phase) {
		case UPD_IDLE:
			if (!u->pending && !u->topo)
				return;
			u->pending = 0;
			memset(u->dur, 0, sizeof(u->dur));
			u->t_run = now;
			u->restarts = u->acked = u->timed_out = 0;
			u->blocks = 0;
			u->t_phase = now;
			start_compute(u, now);
			break;
		case UPD_COMPUTE:
			n = u->ops.compute(u->ctx);
			if (u->ops.now)
				now = u->ops.now(u->ctx);
			if (u->topo) { /* the view changed while computing */
				restart(u, now);
				break;
			}
			if (n < 0) {
				say(u, 1,
				    "epoch %u: computing the new tables failed; the current ones stay",
				    u->epoch);
				if (u->ops.abandon)
					u->ops.abandon(u->ctx);
				n = 0;
			}
			u->blocks = n;
			if (!n && !u->restarts) {
				say(u, 0,
				    "epoch %u: no base-LID block changes: nothing to do",
				    u->epoch);
				enter(u, UPD_IDLE, now);
				break;
			}
			ask_all(u, now);
			/* after a restart with nothing left to change, the
			 * subscribers still come back from the escape */
			enter(u, n ? UPD_UNPATH : UPD_REPATH, now);
			break;
		case UPD_UNPATH:
			if (u->topo) {
				restart(u, now);
				break;
			}
			if (!acks_done(u, now))
				return;
			enter(u, UPD_UPDATE, now);
			u->ops.push(u->ctx);
			u->deadline = now + u->o.push_timeout;
			break;
		case UPD_UPDATE:
			if (u->topo) {
				restart(u, now);
				break;
			}
			if (!u->ops.pushed(u->ctx)) {
				if (now < u->deadline)
					return;
				say(u, 1,
				    "epoch %u: the switches do not hold the new blocks after %.1f s: pushing again",
				    u->epoch, u->o.push_timeout);
				u->ops.push(u->ctx);
				u->deadline = now + u->o.push_timeout;
				return;
			}
			ask_all(u, now);
			enter(u, UPD_REPATH, now);
			break;
		case UPD_REPATH:
			if (u->topo) {
				restart(u, now);
				break;
			}
			if (!acks_done(u, now))
				return;
			commit(u, now);
			break;
		default:
			enter(u, UPD_IDLE, now);
			return;
		}
	}
}
