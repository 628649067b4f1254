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
#include "update_int.h"

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
	free(u->strike);
	free(u->hold);
	free(u->due);
	u->sub = NULL;
	u->strike = NULL;
	u->hold = NULL;
	u->due = NULL;
	u->hold_n = u->hold_cap = u->due_n = u->due_cap = u->held = 0;
	u->hold_head = u->due_head = 0;
	u->nsub = u->cap = u->nstrike = u->strike_cap = 0;
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

/* The sessions of port guid. */
static int port_sessions(const struct update *u, uint64_t guid)
{
	int lo = upd_lower_bound(u, guid, 0);
	int hi = guid == UINT64_MAX ? u->nsub : upd_lower_bound(u, guid + 1, 0);

	return hi - lo;
}

/* The strike record of port guid, or where it goes (binary search). */
static int strike_at(const struct update *u, uint64_t guid)
{
	int lo = 0, hi = u->nstrike;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (u->strike[mid].guid < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct upd_strike *strike_of(struct update *u, uint64_t guid)
{
	int i = strike_at(u, guid);

	return i < u->nstrike && u->strike[i].guid == guid ? &u->strike[i] :
							     NULL;
}

/* Keeps counts for port guid (the larger of both); the oldest record
 * goes when there are as many as sessions may be (max_subs, or 4,096).
 * 0, or -1 (no memory: the counts are lost, logged by the caller). */
static int strike_keep(struct update *u, uint64_t guid, const int *misses)
{
	int cap = u->o.max_subs > 0 ? u->o.max_subs : 4096, i, k;
	struct upd_strike *t = strike_of(u, guid);

	if (!t) {
		if (u->nstrike >= cap) { /* the lowest GUID's goes */
			memmove(u->strike, u->strike + 1,
				(size_t)--u->nstrike * sizeof(*u->strike));
		}
		if (u->nstrike == u->strike_cap) {
			int nc = u->strike_cap ? 2 * u->strike_cap : 8;
			struct upd_strike *n =
				realloc(u->strike, (size_t)nc * sizeof(*n));

			if (!n)
				return -1;
			u->strike = n;
			u->strike_cap = nc;
		}
		i = strike_at(u, guid);
		t = &u->strike[i];
		memmove(t + 1, t,
			((size_t)u->nstrike - (size_t)i) * sizeof(*t));
		u->nstrike++;
		memset(t, 0, sizeof(*t));
		t->guid = guid;
	}
	for (k = 0; k < UPD_MISS_N; k++)
		if (misses[k] > t->misses[k])
			t->misses[k] = misses[k];
	return 0;
}

static void strike_clear(struct update *u, uint64_t guid, int k)
{
	struct upd_strike *t = strike_of(u, guid);
	size_t i;

	if (!t)
		return;
	t->misses[k] = 0;
	if (t->misses[UPD_MISS_UNPATH] || t->misses[UPD_MISS_REPATH])
		return;
	i = (size_t)(t - u->strike);
	memmove(t, t + 1, ((size_t)u->nstrike - i - 1) * sizeof(*t));
	u->nstrike--;
}

static void drop(struct update *u, struct upd_sub *s)
{
	size_t i = (size_t)(s - u->sub);

	if (s->wait_since > 0)
		u->held--;
	if (s->asked && !s->acked)
		u->waiting--;
	memmove(s, s + 1, ((size_t)u->nsub - i - 1) * sizeof(*s));
	u->nsub--;
}

/* A random, non-zero id (getrandom; the clock and a counter if the
 * kernel has no randomness to give, which only costs unguessability
 * against processes on the subscriber's own port). */
static uint32_t random_id(void)
{
	static uint32_t fallback;
	uint32_t id = 0;

	while (!id) {
		if (getrandom(&id, sizeof(id), GRND_NONBLOCK) != sizeof(id)) {
			struct timespec ts;

			clock_gettime(CLOCK_MONOTONIC, &ts);
			id = (uint32_t)ts.tv_nsec * 2654435761u ^
			     ++fallback * 40503u;
		}
	}
	return id;
}

/* Room for one more session: 0, or -1. */
static int grow(struct update *u)
{
	int nc;
	struct upd_sub *n;

	if (u->nsub < u->cap)
		return 0;
	nc = u->cap ? 2 * u->cap : 8;
	n = realloc(u->sub, (size_t)nc * sizeof(*n));
	if (!n)
		return -1;
	u->sub = n;
	u->cap = nc;
	return 0;
}

/* Inserts s in order: 0, or -1 (no memory, or its key is taken). */
static int insert(struct update *u, const struct upd_sub *s)
{
	int i = upd_lower_bound(u, s->guid, s->id);

	if (i < u->nsub && u->sub[i].guid == s->guid && u->sub[i].id == s->id)
		return -1;
	if (grow(u))
		return -1;
	memmove(&u->sub[i + 1], &u->sub[i],
		((size_t)u->nsub - (size_t)i) * sizeof(*u->sub));
	u->sub[i] = *s;
	u->nsub++;
	return 0;
}

/* The first epoch a session registering now takes part in: the one
 * computing (its UNPATH is still to come), else the next. */
static uint32_t joining_epoch(const struct update *u)
{
	return u->phase == UPD_COMPUTE ? u->epoch : u->epoch + 1;
}

uint32_t update_subscribe(struct update *u, uint64_t guid, uint16_t lid,
			  double now, int *why)
{
	struct upd_sub s = { 0 };
	struct upd_strike *t;
	int tries, dummy;

	if (!why)
		why = &dummy;
	*why = UPD_REFUSE_NONE;
	if (u->o.max_subs > 0 && u->nsub >= u->o.max_subs) {
		*why = UPD_REFUSE_FULL;
		return 0;
	}
	if (u->o.max_per_port > 0 &&
	    port_sessions(u, guid) >= u->o.max_per_port) {
		*why = UPD_REFUSE_PORT;
		return 0;
	}
	s.guid = guid;
	s.lid = lid;
	s.seen = now;
	s.from_epoch = joining_epoch(u);
	t = strike_of(u, guid);
	if (t) { /* a dropped session's counts go on */
		memcpy(s.misses, t->misses, sizeof(s.misses));
		s.inherited = 1;
	}
	for (tries = 0; tries < 16; tries++) {
		s.id = u->ops.new_id ? u->ops.new_id(u->ctx) : 0;
		if (!s.id || upd_find(u, guid, s.id))
			s.id = random_id();
		if (!upd_find(u, guid, s.id))
			break;
	}
	if (insert(u, &s)) {
		*why = UPD_REFUSE_NOMEM;
		return 0;
	}
	say(u, 0,
	    "subscriber %u: port 0x%016" PRIx64
	    " LID %u registered (%d in all, %d on the port%s)",
	    s.id, guid, lid, u->nsub, port_sessions(u, guid),
	    t ? "; the counts of a session dropped there go on" : "");
	return s.id;
}

int update_unsubscribe(struct update *u, uint64_t guid, uint32_t id)
{
	struct upd_sub *s = upd_find(u, guid, id);

	if (!s)
		return -1;
	say(u, 0, "subscriber %u: port 0x%016" PRIx64 " left", s->id, s->guid);
	drop(u, s);
	return 0;
}

int update_poll(struct update *u, uint64_t guid, uint32_t id, double now,
		uint32_t *epoch, int *phase)
{
	struct upd_sub *s = upd_find(u, guid, id);

	if (!s)
		return -1;
	s->seen = now;
	*epoch = u->epoch;
	*phase = u->phase;
	return 0;
}

/* The miss-count index of phase (-1: not a phase that is acked). */
static int miss_index(int phase)
{
	return phase == UPD_UNPATH ? UPD_MISS_UNPATH :
	       phase == UPD_REPATH ? UPD_MISS_REPATH :
				     -1;
}

/* The session (guid, id) answering (epoch, phase): *rc -1 (unknown), 0
 * (stale, duplicate, not asked: NULL returned), or the session to count
 * the answer for (with *k the phase's miss index). */
static struct upd_sub *answering(struct update *u, uint64_t guid, uint32_t id,
				 uint32_t epoch, int phase, double now, int *k,
				 int *rc)
{
	struct upd_sub *s = upd_find(u, guid, id);

	*k = miss_index(phase);
	*rc = s ? 0 : -1;
	if (!s)
		return NULL;
	s->seen = now;
	if (epoch != u->epoch || phase != u->phase || !s->asked || s->acked ||
	    *k < 0)
		return NULL;
	*rc = 1;
	return s;
}

int update_ack(struct update *u, uint64_t guid, uint32_t id, uint32_t epoch,
	       int phase, double now)
{
	int k, rc;
	struct upd_sub *s = answering(u, guid, id, epoch, phase, now, &k, &rc);

	if (!s)
		return rc;
	s->acked = 1;
	u->waiting--;
	u->last_answer = now;
	s->misses[k] = 0; /* this phase's count only */
	if (s->inherited)
		strike_clear(u, guid, k);
	u->acked++;
	return 1;
}

/* s missed this phase (k), why says how: counted, logged, dropped at
 * max_misses; 1 when it was dropped (s is gone). */
static int miss(struct update *u, struct upd_sub *s, int k, const char *why)
{
	s->asked = 0;
	u->waiting--;
	s->misses[k]++;
	if (u->phase == UPD_UNPATH)
		u->unmoved++;
	say(u, 1,
	    "subscriber %u: port 0x%016" PRIx64 " LID %u: %s (%d/%d misses)",
	    s->id, s->guid, s->lid, why,
	    s->misses[UPD_MISS_UNPATH] + s->misses[UPD_MISS_REPATH],
	    u->o.max_misses);
	if (s->misses[UPD_MISS_UNPATH] + s->misses[UPD_MISS_REPATH] <
	    u->o.max_misses)
		return 0;
	if (strike_keep(u, s->guid, s->misses))
		say(u, 1, "subscriber %u: out of memory: its counts are lost",
		    s->id);
	say(u, 1,
	    "subscriber %u: dropped: %d UNPATH and %d REPATH miss(es) not made good by an ack",
	    s->id, s->misses[UPD_MISS_UNPATH], s->misses[UPD_MISS_REPATH]);
	u->dropped++;
	drop(u, s);
	return 1;
}

int update_nack(struct update *u, uint64_t guid, uint32_t id, uint32_t epoch,
		int phase, double now)
{
	int k, rc;
	struct upd_sub *s = answering(u, guid, id, epoch, phase, now, &k, &rc);
	char why[96];

	if (!s)
		return rc;
	u->nacked++;
	u->last_answer = now;
	snprintf(why, sizeof(why), "NACK of %s in epoch %u: its hook failed",
		 upd_phase_name(phase), epoch);
	miss(u, s, k, why);
	return 1;
}

void update_resume(struct update *u, uint32_t epoch)
{
	if (epoch > u->epoch)
		u->epoch = epoch;
}

int update_restore(struct update *u, const struct upd_sub *s)
{
	struct upd_sub c = *s;

	if (!c.id)
		return -1;
	c.asked = c.acked = 0;
	c.wait_since = 0;
	c.seen = 0; /* not heard from by this process yet */
	c.from_epoch = u->epoch + 1;
	return insert(u, &c);
}

int update_unheard(const struct update *u, double t)
{
	int i, n = 0;

	for (i = 0; i < u->nsub; i++)
		n += u->sub[i].seen < t;
	return n;
}

int update_restore_strike(struct update *u, const struct upd_strike *k)
{
	return strike_keep(u, k->guid, k->misses);
}

static void enter(struct update *u, int phase, double now)
{
	u->dur[u->phase] += now - u->t_phase;
	u->phase = phase;
	u->t_phase = now;
	update_waits_phase(u, now);
	if (phase != UPD_IDLE && phase != UPD_COMMIT)
		say(u, 0, "epoch %u: %s (%d subscriber(s))", u->epoch,
		    upd_phase_name(phase), u->nsub);
}

static void ask_all(struct update *u, double now)
{
	int i;

	u->waiting = 0;
	for (i = 0; i < u->nsub; i++) {
		u->sub[i].asked = u->epoch >= u->sub[i].from_epoch;
		u->sub[i].acked = 0;
		u->waiting += u->sub[i].asked;
	}
	u->deadline = now + u->o.ack_timeout;
}

/* 1 when every subscriber asked has acked or timed out. */
static int acks_done(struct update *u, double now)
{
	int i;

	if (!u->waiting) /* kept count: no scan per tick */
		return 1;
	if (now < u->deadline)
		return 0;
	for (i = 0; i < u->nsub;) {
		struct upd_sub *s = &u->sub[i];
		char why[96];

		if (!s->asked || s->acked) {
			i++;
			continue;
		}
		u->timed_out++;
		snprintf(why, sizeof(why),
			 "no %s ack of epoch %u within %.1f s",
			 upd_phase_name(u->phase), u->epoch, u->o.ack_timeout);
		if (!miss(u, s, miss_index(u->phase), why))
			i++;
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
	    "epoch %u committed in %.3f s: compute %.3f s, unpath %.3f s, update %.3f s, repath %.3f s; %ld block(s) changed; subscribers %d, acks %d, nacks %d, timeouts %d, dropped %d; changed before %d session(s) had moved; restarts %d%s%s",
	    u->epoch, now - u->t_run, u->dur[UPD_COMPUTE], u->dur[UPD_UNPATH],
	    u->dur[UPD_UPDATE], u->dur[UPD_REPATH], u->blocks, u->nsub,
	    u->acked, u->nacked, u->timed_out, u->dropped, u->unmoved,
	    u->restarts, u->known ? "; " : "", u->known ? u->known : "");
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
			u->nacked = u->dropped = u->unmoved = 0;
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
