/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The update protocol's state machine with a fake clock and a fake
 * transport: subscribers are calls made by the test, the switches a flag.
 * Lost, duplicated, late and stale acks, a subscriber that dies, topology
 * changes in the middle of a run, coalesced requests, a push that does not
 * arrive.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "testutil.h"
#include "update.h"
#include "updstate.h"
#include "updwire.h"

struct fake {
	long changes; /* what compute returns */
	int computes, pushes, commits, abandons;
	int switches_have; /* pushed() */
	char log[16384];
	int errors;
};

static long f_compute(void *ctx)
{
	struct fake *f = ctx;

	f->computes++;
	return f->changes;
}

static int f_push(void *ctx)
{
	((struct fake *)ctx)->pushes++;
	return 0;
}

static int f_pushed(void *ctx)
{
	return ((struct fake *)ctx)->switches_have;
}

static void f_commit(void *ctx)
{
	((struct fake *)ctx)->commits++;
}

static void f_abandon(void *ctx)
{
	((struct fake *)ctx)->abandons++;
}

static void f_log(void *ctx, int level, const char *msg)
{
	struct fake *f = ctx;
	size_t n = strlen(f->log);

	f->errors += level;
	snprintf(f->log + n, sizeof(f->log) - n, "%s\n", msg);
}

static const struct upd_ops ops = {
	.compute = f_compute,
	.push = f_push,
	.pushed = f_pushed,
	.commit = f_commit,
	.abandon = f_abandon,
	.log = f_log,
};
static const struct upd_opts opts = {
	.ack_timeout = 2.0,
	.push_timeout = 5.0,
	.max_misses = 2,
};

static void setup(struct update *u, struct fake *f)
{
	memset(f, 0, sizeof(*f));
	f->changes = 3;
	f->switches_have = 1;
	update_init(u, &ops, f, &opts);
}

/* The port of subscriber id (0: none): what the transport would prove. */
static uint64_t guid_of(const struct update *u, uint32_t id)
{
	int i;

	for (i = 0; i < u->nsub; i++)
		if (u->sub[i].id == id)
			return u->sub[i].guid;
	return 0;
}

/* What subscriber id sees. */
static int phase_of(struct update *u, uint32_t id, double now, uint32_t *ep)
{
	uint32_t e;
	int ph;

	assert_int_equal(update_poll(u, guid_of(u, id), id, now, &e, &ph), 0);
	if (ep)
		*ep = e;
	return ph;
}

/* Both subscribers ack whatever phase they see. */
static void ack_both(struct update *u, uint32_t a, uint32_t b, double now)
{
	uint32_t e;
	int ph = phase_of(u, a, now, &e);

	assert_int_equal(update_ack(u, guid_of(u, a), a, e, ph, now), 1);
	ph = phase_of(u, b, now, &e);
	assert_int_equal(update_ack(u, guid_of(u, b), b, e, ph, now), 1);
}

/* A whole run, in order: the five phases, the push, the commit line. */
static void test_run(void **state)
{
	struct update u;
	struct fake f;
	uint32_t a, b, e;
	const char *p1, *p2, *p3, *p4;

	(void)state;
	setup(&u, &f);
	a = update_subscribe(&u, 0x10, 2, 0.0, NULL);
	b = update_subscribe(&u, 0x20, 4, 0.0, NULL);
	update_tick(&u, 0.1);
	assert_int_equal(u.phase, UPD_IDLE); /* no request: nothing */
	update_request(&u);
	update_tick(&u, 1.0);
	assert_int_equal(f.computes, 1);
	assert_int_equal(phase_of(&u, a, 1.0, &e), UPD_UNPATH);
	assert_int_equal(e, 1u);
	assert_int_equal(f.pushes, 0); /* nothing pushed before the acks */
	update_tick(&u, 1.1);
	assert_int_equal(u.phase, UPD_UNPATH);
	ack_both(&u, a, b, 1.2);
	update_tick(&u, 1.2);
	assert_int_equal(f.pushes, 1);
	/* pushed at once: REPATH asked */
	assert_int_equal(phase_of(&u, b, 1.3, NULL), UPD_REPATH);
	assert_int_equal(f.commits, 0);
	ack_both(&u, a, b, 1.5);
	update_tick(&u, 1.5);
	assert_int_equal(f.commits, 1);
	assert_int_equal(u.phase, UPD_IDLE);
	assert_int_equal(u.runs, 1ul);
	p1 = strstr(f.log, "epoch 1: COMPUTE");
	p2 = strstr(f.log, "epoch 1: UNPATH");
	p3 = strstr(f.log, "epoch 1: UPDATE");
	p4 = strstr(f.log, "epoch 1: REPATH");
	assert_true(p1 && p2 && p3 && p4 && p1 < p2 && p2 < p3 && p3 < p4);
	assert_non_null(strstr(
		f.log,
		"epoch 1 committed in 0.500 s: compute 0.000 s, unpath 0.200 s, update 0.000 s, repath 0.300 s; 3 block(s) changed; subscribers 2, acks 4, nacks 0, timeouts 0, dropped 0; changed before 0 session(s) had moved"));
	assert_int_equal(f.errors, 0);
	/* nothing changed: no phase beyond COMPUTE */
	f.changes = 0;
	update_request(&u);
	update_tick(&u, 2.0);
	assert_int_equal(u.phase, UPD_IDLE);
	assert_int_equal(f.pushes, 1);
	assert_int_equal(f.commits, 1);
	assert_non_null(strstr(f.log, "epoch 2: no base-LID block changes"));
	/* every session known: nothing after the restarts */
	assert_non_null(strstr(f.log, "had moved; restarts 0\n"));
	update_free(&u);
}

/* Two subscribers (ids in a, b) and a run started: UNPATH asked. */
static void two_and_run(struct update *u, struct fake *f, uint32_t *a,
			uint32_t *b)
{
	setup(u, f);
	*a = update_subscribe(u, 0x10, 2, 0.0, NULL);
	*b = update_subscribe(u, 0x20, 4, 0.0, NULL);
	update_request(u);
	update_tick(u, 0.0);
	assert_int_equal(u->phase, UPD_UNPATH);
}

/* A new master, or one that refused its sessions file: the commit line
 * says which subscribers its count covers. */
static void test_known(void **state)
{
	struct update u;
	struct fake f;
	uint32_t a, b;

	(void)state;
	two_and_run(&u, &f, &a, &b);
	u.known = "subscribers known: those registered since this SM started";
	ack_both(&u, a, b, 0.1);
	update_tick(&u, 0.1);
	assert_int_equal(phase_of(&u, a, 0.2, NULL), UPD_REPATH);
	ack_both(&u, a, b, 0.2);
	update_tick(&u, 0.2);
	assert_int_equal(f.commits, 1);
	assert_non_null(strstr(
		f.log,
		"subscribers 2, acks 4, nacks 0, timeouts 0, dropped 0; changed before 0 session(s) had moved; restarts 0; subscribers known: those registered since this SM started\n"));
	update_free(&u);
}

/* Lost, duplicated, late and stale acks. */
static void test_acks(void **state)
{
	char want[200];
	struct update u;
	struct fake f;
	uint32_t a, b, e;

	(void)state;
	two_and_run(&u, &f, &a, &b);
	phase_of(&u, a, 0.1, &e);
	assert_int_equal(update_ack(&u, guid_of(&u, a), a, e, UPD_UNPATH, 0.1),
			 1);
	assert_int_equal(update_ack(&u, guid_of(&u, a), a, e, UPD_UNPATH, 0.2),
			 0); /* duplicate */
	assert_int_equal(update_ack(&u, guid_of(&u, a), a, e - 1, UPD_UNPATH,
				    0.2),
			 0); /* stale epoch */
	assert_int_equal(update_ack(&u, guid_of(&u, a), a, e, UPD_REPATH, 0.2),
			 0); /* not yet */
	assert_int_equal(update_ack(&u, 0x10, 999, e, UPD_UNPATH, 0.2),
			 -1); /* unknown */
	/* b's ack is lost: UNPATH waits until the timeout, not longer */
	update_tick(&u, 1.9);
	assert_int_equal(u.phase, UPD_UNPATH);
	update_tick(&u, 2.0);
	assert_int_equal(u.phase, UPD_REPATH);
	snprintf(
		want, sizeof(want),
		"subscriber %u: port 0x0000000000000020 LID 4: no UNPATH ack of epoch 1 within 2.0 s (1/2 misses)",
		b);
	assert_non_null(strstr(f.log, want));
	/* b's UNPATH ack arrives late, during REPATH: ignored */
	assert_int_equal(update_ack(&u, guid_of(&u, b), b, e, UPD_UNPATH, 2.1),
			 0);
	update_tick(&u, 2.1);
	assert_int_equal(u.phase, UPD_REPATH);
	ack_both(&u, a, b, 2.2); /* b acks REPATH: its UNPATH miss stays */
	update_tick(&u, 2.2);
	assert_int_equal(f.commits, 1);
	assert_non_null(strstr(
		f.log,
		"acks 3, nacks 0, timeouts 1, dropped 0; changed before 1 session(s) had moved"));
	assert_int_equal(update_session(&u, 0x20, b)->misses[UPD_MISS_UNPATH],
			 1);
	assert_int_equal(update_session(&u, 0x20, b)->misses[UPD_MISS_REPATH],
			 0);
	update_free(&u);
}

/* A subscriber that dies: timed out in each phase, dropped after
 * max_misses; the other one and the protocol go on. */
static void test_death(void **state)
{
	char want[200];
	struct update u;
	struct fake f;
	uint32_t a, b, e;
	int ph;

	(void)state;
	two_and_run(&u, &f, &a, &b);
	ph = phase_of(&u, a, 0.0, &e);
	update_ack(&u, guid_of(&u, a), a, e, ph, 0.0);
	update_tick(&u, 2.0); /* b: first miss */
	ph = phase_of(&u, a, 2.0, &e);
	assert_int_equal(ph, UPD_REPATH);
	update_ack(&u, guid_of(&u, a), a, e, ph, 2.0);
	update_tick(&u, 4.0); /* b: second miss, dropped */
	assert_int_equal(f.commits, 1);
	assert_int_equal(u.nsub, 1);
	snprintf(want, sizeof(want), "subscriber %u: dropped", b);
	assert_non_null(strstr(f.log, want));
	assert_int_equal(update_poll(&u, 0x20, b, 4.0, &e, &ph), -1);
	/* the next run waits for a alone */
	update_request(&u);
	update_tick(&u, 10.0);
	ph = phase_of(&u, a, 10.0, &e);
	assert_int_equal(update_ack(&u, guid_of(&u, a), a, e, ph, 10.0), 1);
	update_tick(&u, 10.0);
	ph = phase_of(&u, a, 10.0, &e);
	assert_int_equal(update_ack(&u, guid_of(&u, a), a, e, ph, 10.0), 1);
	update_tick(&u, 10.0);
	assert_int_equal(f.commits, 2);
	update_free(&u);
}

/* Topology changes during UNPATH, UPDATE and REPATH. */
static void test_topology(void **state)
{
	struct update u;
	struct fake f;
	uint32_t a, e;
	int ph;

	(void)state;
	setup(&u, &f);
	a = update_subscribe(&u, 0x10, 2, 0.0, NULL);
	update_topology(&u); /* idle: OpenSM routes as usual */
	update_tick(&u, 0.0);
	assert_int_equal(f.computes, 0);
	update_request(&u);
	update_tick(&u, 0.0);
	/* during UNPATH */
	update_topology(&u);
	update_tick(&u, 0.1);
	assert_int_equal(f.abandons, 1);
	assert_int_equal(f.computes, 2);
	assert_int_equal(phase_of(&u, a, 0.1, &e), UPD_UNPATH);
	assert_int_equal(e, 2u);
	assert_int_equal(update_ack(&u, guid_of(&u, a), a, 1, UPD_UNPATH, 0.1),
			 0); /* old epoch */
	assert_int_equal(update_ack(&u, guid_of(&u, a), a, 2, UPD_UNPATH, 0.1),
			 1);
	/* during UPDATE: the switches do not have it yet */
	f.switches_have = 0;
	update_tick(&u, 0.2);
	assert_int_equal(u.phase, UPD_UPDATE);
	update_topology(&u);
	/* the new view: the fresh tables of OpenSM's pass already hold it */
	f.changes = 0;
	update_tick(&u, 0.3);
	assert_int_equal(f.abandons, 2);
	/* nothing to change any more, but a is on the escape: REPATH */
	ph = phase_of(&u, a, 0.3, &e);
	assert_int_equal(ph, UPD_REPATH);
	assert_int_equal(e, 3u);
	/* during REPATH */
	update_topology(&u);
	f.changes = 2;
	f.switches_have = 1;
	update_tick(&u, 0.4);
	assert_int_equal(f.abandons, 3);
	ph = phase_of(&u, a, 0.4, &e);
	assert_int_equal(ph, UPD_UNPATH);
	update_ack(&u, guid_of(&u, a), a, e, ph, 0.4);
	update_tick(&u, 0.5);
	ph = phase_of(&u, a, 0.5, &e);
	assert_int_equal(ph, UPD_REPATH);
	update_ack(&u, guid_of(&u, a), a, e, ph, 0.5);
	update_tick(&u, 0.6);
	assert_int_equal(f.commits, 1);
	assert_non_null(strstr(f.log, "epoch 4 committed"));
	assert_non_null(strstr(f.log, "restarts 3"));
	assert_non_null(strstr(f.log, "topology change during UPDATE"));
	update_free(&u);
}

/* Requests during a run coalesce into one more run; a push that does not
 * arrive is made again. */
static void test_coalesce_and_push(void **state)
{
	struct update u;
	struct fake f;
	uint32_t a, e;
	int ph, i;

	(void)state;
	setup(&u, &f);
	a = update_subscribe(&u, 0x10, 2, 0.0, NULL);
	update_request(&u);
	update_tick(&u, 0.0);
	for (i = 0; i < 5; i++)
		update_request(&u);
	f.switches_have = 0;
	ph = phase_of(&u, a, 0.1, &e);
	update_ack(&u, guid_of(&u, a), a, e, ph, 0.1);
	update_tick(&u, 0.1);
	assert_int_equal(f.pushes, 1);
	update_tick(&u, 5.0);
	assert_int_equal(f.pushes, 1);
	update_tick(&u, 5.1);
	assert_int_equal(f.pushes, 2);
	assert_non_null(strstr(f.log, "pushing again"));
	f.switches_have = 1;
	update_tick(&u, 5.2);
	ph = phase_of(&u, a, 5.2, &e);
	update_ack(&u, guid_of(&u, a), a, e, ph, 5.2);
	update_tick(&u, 5.3);
	/* committed, and the coalesced requests started exactly one run */
	assert_int_equal(f.commits, 1);
	assert_int_equal(f.computes, 2);
	assert_int_equal(phase_of(&u, a, 5.3, &e), UPD_UNPATH);
	update_ack(&u, guid_of(&u, a), a, e, UPD_UNPATH, 5.3);
	update_tick(&u, 5.4);
	update_ack(&u, guid_of(&u, a), a, e, UPD_REPATH, 5.4);
	update_tick(&u, 5.5);
	assert_int_equal(f.commits, 2);
	assert_int_equal(f.computes, 2);
	assert_int_equal(u.phase, UPD_IDLE);
	/* a client that restarts registers again: a new session beside
	 * the old one, which stays until it leaves or is dropped */
	assert_int_not_equal(update_subscribe(&u, 0x10, 2, 6.0, NULL), a);
	assert_int_equal(update_poll(&u, 0x10, a, 6.0, &e, &ph), 0);
	assert_int_equal(u.nsub, 2);
	update_free(&u);
}

/* The index of session id in u->sub. */
static int index_of(const struct update *u, uint32_t id)
{
	int i;

	for (i = 0; i < u->nsub; i++)
		if (u->sub[i].id == id)
			return i;
	return -1;
}

/*
 * Several sessions per port: two clients of one host are waited for
 * apart; one that restarts during UNPATH leaves its old session to be
 * waited for (and timed out), and its new session joins the next epoch;
 * the per-port cap.
 */
static void test_sessions(void **state)
{
	static const struct upd_opts o = {
		.ack_timeout = 2.0,
		.push_timeout = 5.0,
		.max_misses = 2,
		.max_per_port = 3,
	};
	struct update u;
	struct fake f;
	uint32_t a, b, c, d, e;
	int why, ph;

	(void)state;
	memset(&f, 0, sizeof(f));
	f.changes = 3;
	f.switches_have = 1;
	update_init(&u, &ops, &f, &o);
	a = update_subscribe(&u, 0x10, 2, 0.0, NULL);
	b = update_subscribe(&u, 0x10, 2, 0.0, NULL);
	assert_int_not_equal(a, b);
	assert_int_equal(u.nsub, 2);
	update_request(&u);
	update_tick(&u, 0.0);
	assert_int_equal(u.phase, UPD_UNPATH);
	/* a acks; b is still moving: UNPATH waits */
	phase_of(&u, a, 0.1, &e);
	assert_int_equal(update_ack(&u, 0x10, a, e, UPD_UNPATH, 0.1), 1);
	update_tick(&u, 0.2);
	assert_int_equal(u.phase, UPD_UNPATH);
	assert_int_equal(f.pushes, 0);
	/* b's process restarts: a new session, b's still waited for */
	c = update_subscribe(&u, 0x10, 2, 0.3, NULL);
	assert_int_not_equal(c, 0);
	assert_int_equal(u.nsub, 3);
	update_tick(&u, 0.3);
	assert_int_equal(u.phase, UPD_UNPATH);
	assert_int_equal(f.pushes, 0);
	/* c is not asked this epoch: its ack is ignored */
	assert_int_equal(update_ack(&u, 0x10, c, e, UPD_UNPATH, 0.4), 0);
	/* the cap of the port */
	d = update_subscribe(&u, 0x10, 2, 0.4, &why);
	assert_int_equal(d, 0);
	assert_int_equal(why, UPD_REFUSE_PORT);
	assert_int_not_equal(update_subscribe(&u, 0x11, 4, 0.4, NULL), 0);
	/* b times out: a miss, and the routes change under it */
	update_tick(&u, 1.9);
	assert_int_equal(f.pushes, 0);
	update_tick(&u, 2.0);
	assert_int_equal(f.pushes, 1);
	assert_int_equal(u.phase, UPD_REPATH);
	assert_int_equal(u.sub[index_of(&u, b)].misses[UPD_MISS_UNPATH], 1);
	/* REPATH: a and c answer (c is asked from the next phase on: the
	 * transport told it the phase), b does not */
	ph = phase_of(&u, a, 2.1, &e);
	assert_int_equal(update_ack(&u, 0x10, a, e, ph, 2.1), 1);
	assert_int_equal(update_ack(&u, 0x10, c, e, ph, 2.1), 0);
	update_tick(&u, 4.0);
	assert_int_equal(f.commits, 1);
	assert_non_null(strstr(
		f.log,
		"subscribers 3, acks 2, nacks 0, timeouts 2, dropped 1; changed before 1 session(s) had moved"));
	assert_int_equal(index_of(&u, b), -1); /* 1 + 1 misses: dropped */
	assert_int_not_equal(index_of(&u, a), -1);
	/* the next epoch asks c */
	update_request(&u);
	update_tick(&u, 5.0);
	assert_int_equal(update_ack(&u, 0x10, c, u.epoch, UPD_UNPATH, 5.0), 1);
	update_free(&u);
}

/*
 * A session that cannot move NACKs: the SM stops waiting for it, counts
 * a miss, and goes on; a later REPATH ack does not make the UNPATH miss
 * good; the next NACK drops it; registering again takes the counts over
 * until an ack of the phase clears them.
 */
static void test_nack(void **state)
{
	struct update u;
	struct fake f;
	uint32_t a, b, b2, b3;
	int i;

	(void)state;
	two_and_run(&u, &f, &a, &b);
	assert_int_equal(update_ack(&u, 0x10, a, 1, UPD_UNPATH, 0.1), 1);
	assert_int_equal(update_nack(&u, 0x20, b, 1, UPD_REPATH, 0.1), 0);
	assert_int_equal(update_nack(&u, 0x20, b, 1, UPD_UNPATH, 0.1), 1);
	assert_int_equal(update_nack(&u, 0x20, b, 1, UPD_UNPATH, 0.1), 0);
	assert_int_equal(update_nack(&u, 0x20, 77, 1, UPD_UNPATH, 0.1), -1);
	update_tick(&u, 0.1); /* no wait for the timeout */
	assert_int_equal(f.pushes, 1);
	assert_int_equal(u.phase, UPD_REPATH);
	ack_both(&u, a, b, 0.2);
	update_tick(&u, 0.2);
	assert_non_null(strstr(
		f.log,
		"acks 3, nacks 1, timeouts 0, dropped 0; changed before 1 session(s) had moved"));
	assert_int_equal(update_session(&u, 0x20, b)->misses[UPD_MISS_UNPATH],
			 1);
	/* the next run: b fails again and is dropped */
	update_request(&u);
	update_tick(&u, 1.0);
	assert_int_equal(update_ack(&u, 0x10, a, 2, UPD_UNPATH, 1.0), 1);
	assert_int_equal(update_nack(&u, 0x20, b, 2, UPD_UNPATH, 1.0), 1);
	assert_null(update_session(&u, 0x20, b));
	assert_non_null(strstr(f.log, "dropped: 2 UNPATH and 0 REPATH"));
	update_tick(&u, 1.0);
	assert_int_equal(update_ack(&u, 0x10, a, 2, UPD_REPATH, 1.1), 1);
	update_tick(&u, 1.1);
	assert_non_null(strstr(f.log, "nacks 1, timeouts 0, dropped 1"));
	/* b registers again: the counts go on, one more miss drops it */
	b2 = update_subscribe(&u, 0x20, 4, 2.0, NULL);
	assert_int_equal(update_session(&u, 0x20, b2)->misses[UPD_MISS_UNPATH],
			 2);
	update_request(&u);
	update_tick(&u, 2.0);
	assert_int_equal(update_ack(&u, 0x10, a, 3, UPD_UNPATH, 2.0), 1);
	assert_int_equal(update_nack(&u, 0x20, b2, 3, UPD_UNPATH, 2.0), 1);
	assert_null(update_session(&u, 0x20, b2));
	update_tick(&u, 2.0);
	assert_int_equal(update_ack(&u, 0x10, a, 3, UPD_REPATH, 2.1), 1);
	update_tick(&u, 2.1);
	/* once it moves, the port's record is gone */
	b3 = update_subscribe(&u, 0x20, 4, 3.0, NULL);
	update_request(&u);
	update_tick(&u, 3.0);
	for (i = 0; i < 2; i++) {
		int ph = u.phase;

		assert_int_equal(update_ack(&u, 0x10, a, 4, ph, 3.0), 1);
		assert_int_equal(update_ack(&u, 0x20, b3, 4, ph, 3.0), 1);
		update_tick(&u, 3.0);
	}
	assert_int_equal(f.commits, 4);
	assert_int_equal(u.nstrike, 0);
	assert_int_equal(update_session(&u, 0x20, b3)->misses[UPD_MISS_UNPATH],
			 0);
	update_free(&u);
}

/* What updstate_write writes of u (a string to free). */
static char *state_text(const struct update *u)
{
	char *buf = NULL;
	size_t len;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(updstate_write(fp, u), 0);
	fclose(fp);
	return buf;
}

/* updstate_read of text into a fresh u (with f): its result. */
static int state_read(struct update *u, struct fake *f, const char *text,
		      char *err, size_t errlen)
{
	char *copy;
	FILE *fp = tu_memfile(text, strlen(text), &copy);
	int rc;

	if (!*text)
		fgetc(fp);
	setup(u, f);
	rc = updstate_read(fp, u, err, errlen);
	fclose(fp);
	free(copy);
	return rc;
}

/*
 * A restarted SM: the sessions, their counts, the dropped ones' counts
 * and the epoch read back as written; the restored sessions poll and are
 * asked from the next epoch on, which continues the count.  A damaged
 * file is refused whole, with its line.
 */
static void test_saved_sessions(void **state)
{
	static const char *const bad[] = {
		"osmre-update-sessions 2\nend\n",
		"osmre-update-sessions 1\nepoch 3\n",
		"osmre-update-sessions 1\nsession 0 0x10 2 0 0 0\nend\n",
		"osmre-update-sessions 1\nsession 5 0x10 2 0 0 0\nsession 5 0x10 2 0 0 0\nend\n",
		"osmre-update-sessions 1\nsession 5 0x10 2 101 0 0\nend\n",
		"osmre-update-sessions 1\nsession 5 0x10 2 0 0 0 x\nend\n",
		"osmre-update-sessions 1\nend\nsession 5 0x10 2 0 0 0\n",
		"osmre-update-sessions 1\nstrike 0x10 -1 0\nend\n",
		"osmre-update-sessions 1\nepoch 3\nsession 5 0x10 2 0 0 0\nsess\0ion\nend\n",
		"",
	};
	struct update u, v;
	struct fake f, g;
	uint32_t a, b, e;
	char err[300], *text, *again;
	size_t i;
	int ph;

	(void)state;
	two_and_run(&u, &f, &a, &b);
	assert_int_equal(update_ack(&u, 0x10, a, 1, UPD_UNPATH, 0.1), 1);
	assert_int_equal(update_nack(&u, 0x20, b, 1, UPD_UNPATH, 0.1), 1);
	update_tick(&u, 0.1);
	assert_int_equal(update_ack(&u, 0x10, a, 1, UPD_REPATH, 0.2), 1);
	assert_int_equal(update_nack(&u, 0x20, b, 1, UPD_REPATH, 0.2), 1);
	update_tick(&u, 0.2); /* b dropped: its counts kept for its port */
	assert_int_equal(u.nstrike, 1);
	update_subscribe(&u, 0x20, 4, 0.3, NULL);
	text = state_text(&u);
	assert_int_equal(state_read(&v, &g, text, err, sizeof(err)), 0);
	again = state_text(&v);
	assert_string_equal(text, again);
	assert_int_equal(v.epoch, 1u);
	assert_int_equal(v.nsub, 2);
	/* the restored sessions are not heard from until they send */
	assert_int_equal(update_unheard(&v, 0.5), 2);
	assert_int_equal(update_poll(&v, 0x10, a, 1.0, &e, &ph), 0);
	assert_int_equal(e, 1u);
	assert_int_equal(update_unheard(&v, 0.5), 1);
	/* a last sent at 0.2, the new session of 0x20 at 0.3 */
	assert_int_equal(update_unheard(&u, 0.25), 1);
	/* the next epoch is 2, and asks the restored sessions */
	update_request(&v);
	update_tick(&v, 1.0);
	assert_int_equal(v.epoch, 2u);
	assert_int_equal(v.phase, UPD_UNPATH);
	assert_int_equal(update_ack(&v, 0x10, a, 2, UPD_UNPATH, 1.0), 1);
	free(text);
	free(again);
	update_free(&u);
	update_free(&v);
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		err[0] = 0;
		assert_int_equal(state_read(&v, &g, bad[i], err, sizeof(err)),
				 -1);
		assert_int_equal(v.nsub, 0);
		assert_int_equal(v.epoch, 0u);
		assert_non_null(strstr(err, "line "));
		update_free(&v);
	}
}

/* The held WAITs' answers due now, their tids sorted into out. */
static int due_tids(struct update *u, double now, uint64_t *out, int max)
{
	struct upd_due d;
	int n = 0, i, j;

	while (n < max && update_take_due(u, now, &d))
		out[n++] = d.tid;
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && out[j - 1] > out[j]; j--) {
			uint64_t x = out[j];

			out[j] = out[j - 1];
			out[j - 1] = x;
		}
	return n;
}

/*
 * WAIT, the long poll: held while there is nothing new for the session,
 * answered when UNPATH and REPATH start (each session once, with its own
 * transaction), at once when it saw another state, after the keep-alive
 * period otherwise; back in IDLE only the sessions that may still be on
 * the escape hear of it.  The keep-alive grows with the sessions.
 */
static void test_wait(void **state)
{
	static const struct upd_opts o = {
		.ack_timeout = 2.0,
		.push_timeout = 5.0,
		.max_misses = 2,
		.keepalive = 30.0,
		.idle_rate = 1.0,
	};
	struct update u;
	struct fake f;
	uint32_t a, b, c;
	uint64_t t[8];
	int i;

	(void)state;
	memset(&f, 0, sizeof(f));
	f.changes = 3;
	f.switches_have = 0;
	update_init(&u, &ops, &f, &o);
	a = update_subscribe(&u, 0x10, 2, 0.0, NULL);
	b = update_subscribe(&u, 0x10, 2, 0.0, NULL);
	c = update_subscribe(&u, 0x20, 4, 0.0, NULL);
	assert_true(update_keepalive(&u) == 30.0);
	/* idle, nothing new: held */
	assert_int_equal(update_wait(&u, 0x10, a, 0, UPD_IDLE, 101, 3, 0.0), 0);
	assert_int_equal(update_wait(&u, 0x10, b, 0, UPD_IDLE, 102, 3, 0.0), 0);
	assert_int_equal(update_wait(&u, 0x20, c, 0, UPD_IDLE, 103, 5, 0.0), 0);
	assert_int_equal(update_wait(&u, 0x20, 9, 0, UPD_IDLE, 104, 5, 0.0),
			 -1);
	assert_int_equal(u.held, 3);
	assert_int_equal(due_tids(&u, 1.0, t, 8), 0);
	/* c waits again (its answer lost): replaces the held one */
	assert_int_equal(update_wait(&u, 0x20, c, 0, UPD_IDLE, 105, 5, 1.0), 0);
	assert_int_equal(u.held, 3);
	/* UNPATH: every held WAIT is due, each once, with its own tid */
	update_request(&u);
	update_tick(&u, 2.0);
	assert_int_equal(u.phase, UPD_UNPATH);
	assert_int_equal(due_tids(&u, 2.0, t, 8), 3);
	assert_true(t[0] == 101 && t[1] == 102 && t[2] == 105);
	assert_int_equal(u.held, 0);
	/* a session that saw UNPATH of this epoch: held until REPATH; one
	 * that saw an older state: answered at once */
	assert_int_equal(update_wait(&u, 0x10, a, 1, UPD_IDLE, 106, 3, 2.1), 1);
	assert_int_equal(update_ack(&u, 0x10, a, 1, UPD_UNPATH, 2.1), 1);
	assert_int_equal(update_wait(&u, 0x10, a, 1, UPD_UNPATH, 107, 3, 2.1),
			 0);
	assert_int_equal(update_ack(&u, 0x10, b, 1, UPD_UNPATH, 2.1), 1);
	assert_int_equal(update_wait(&u, 0x10, b, 1, UPD_UNPATH, 108, 3, 2.1),
			 0);
	assert_int_equal(update_ack(&u, 0x20, c, 1, UPD_UNPATH, 2.1), 1);
	assert_int_equal(update_wait(&u, 0x20, c, 1, UPD_UNPATH, 109, 5, 2.1),
			 0);
	update_tick(&u, 2.2); /* UPDATE: nothing new for them */
	assert_int_equal(u.phase, UPD_UPDATE);
	assert_int_equal(due_tids(&u, 2.2, t, 8), 0);
	assert_int_equal(update_wait(&u, 0x10, a, 1, UPD_UPDATE, 110, 3, 2.2),
			 0);
	f.switches_have = 1;
	update_tick(&u, 2.3); /* REPATH */
	assert_int_equal(u.phase, UPD_REPATH);
	assert_int_equal(due_tids(&u, 2.3, t, 8), 3);
	assert_true(t[0] == 108 && t[1] == 109 && t[2] == 110);
	/* a and b ack REPATH and wait; c missed it: still on the escape */
	assert_int_equal(update_ack(&u, 0x10, a, 1, UPD_REPATH, 2.4), 1);
	assert_int_equal(update_wait(&u, 0x10, a, 1, UPD_REPATH, 111, 3, 2.4),
			 0);
	assert_int_equal(update_ack(&u, 0x10, b, 1, UPD_REPATH, 2.4), 1);
	assert_int_equal(update_wait(&u, 0x10, b, 1, UPD_REPATH, 112, 3, 2.4),
			 0);
	assert_int_equal(update_wait(&u, 0x20, c, 1, UPD_UNPATH, 113, 5, 2.4),
			 1); /* it saw UNPATH, the SM is in REPATH: at once */
	assert_int_equal(update_wait(&u, 0x20, c, 1, UPD_UPDATE, 114, 5, 2.4),
			 1);
	update_tick(&u, 4.4); /* c times out: commit, IDLE */
	assert_int_equal(u.phase, UPD_IDLE);
	/* back in IDLE: a and b moved back already, nothing for them */
	assert_int_equal(due_tids(&u, 4.4, t, 8), 0);
	/* keep-alive: 30 s after each was held */
	assert_int_equal(due_tids(&u, 32.3, t, 8), 0);
	assert_int_equal(due_tids(&u, 32.5, t, 8), 2);
	assert_true(t[0] == 111 && t[1] == 112);
	/* the keep-alive grows with the sessions: 40 at 1 a second */
	for (i = 0; i < 37; i++)
		update_subscribe(&u, 0x100 + (uint64_t)i, 10, 40.0, NULL);
	assert_true(update_keepalive(&u) == 40.0);
	/* a session dropped while held: its answer is not sent */
	assert_int_equal(update_wait(&u, 0x10, a, 1, UPD_IDLE, 115, 3, 41.0),
			 0);
	assert_int_equal(update_unsubscribe(&u, 0x10, a), 0);
	assert_int_equal(u.held, 0);
	assert_int_equal(due_tids(&u, 100.0, t, 8), 0);
	update_free(&u);
}

/*
 * An answer that tells a session of UNPATH is lost on the wire: it is
 * sent again (the same transaction) 0.5 s after it left, then 1 s after
 * that, ... until the session acks; not while first answers still wait
 * to go out; a session that waits again is not sent it.
 */
static void test_lost_notice(void **state)
{
	static const struct upd_opts o = {
		.ack_timeout = 5.0,
		.push_timeout = 5.0,
		.max_misses = 2,
		.keepalive = 30.0,
	};
	struct update u;
	struct fake f;
	uint32_t a, b;
	uint64_t t[8];
	struct upd_due d;

	(void)state;
	memset(&f, 0, sizeof(f));
	f.changes = 3;
	f.switches_have = 1;
	update_init(&u, &ops, &f, &o);
	a = update_subscribe(&u, 0x10, 2, 0.0, NULL);
	b = update_subscribe(&u, 0x20, 4, 0.0, NULL);
	assert_int_equal(update_wait(&u, 0x10, a, 0, UPD_IDLE, 7, 3, 0.0), 0);
	assert_int_equal(update_wait(&u, 0x20, b, 0, UPD_IDLE, 8, 5, 0.0), 0);
	update_request(&u);
	update_tick(&u, 1.0);
	/* the first answer leaves at 1.0, the second at 1.2: no resend
	 * while one is still queued */
	assert_int_equal(update_take_due(&u, 1.0, &d), 1);
	assert_int_equal(due_tids(&u, 1.2, t, 1), 1);
	/* both lost: each sent again 0.5 s after it left */
	assert_int_equal(due_tids(&u, 1.6, t, 8), 1);
	assert_true(t[0] == d.tid);
	assert_int_equal(due_tids(&u, 1.8, t, 8), 1);
	assert_true(t[0] != d.tid);
	/* then 1 s after that */
	assert_int_equal(due_tids(&u, 2.5, t, 8), 0);
	assert_int_equal(due_tids(&u, 2.7, t, 8), 1);
	assert_true(t[0] == d.tid);
	/* b waits again (its own timeout): answered at once; its old
	 * answer is not sent again */
	assert_int_equal(update_wait(&u, 0x20, b, 0, UPD_IDLE, 9, 5, 2.75), 1);
	assert_int_equal(update_ack(&u, 0x10, a, 1, UPD_UNPATH, 2.8), 1);
	assert_int_equal(due_tids(&u, 3.0, t, 8), 0);
	assert_int_equal(update_ack(&u, 0x20, b, 1, UPD_UNPATH, 3.1), 1);
	assert_int_equal(due_tids(&u, 9.0, t, 8), 0);
	assert_int_equal(u.resent, 3ul);
	update_tick(&u, 9.0);
	assert_int_equal(u.phase, UPD_REPATH);
	update_free(&u);
}

/* While acks still come in, no answer is sent again: at scale a late ack
 * is queued behind thousands, not lost.  Once they stop for 0.5 s, the
 * sessions that still owe one are asked again. */
static void test_resend_while_acks(void **state)
{
	static const struct upd_opts o = {
		.ack_timeout = 5.0,
		.push_timeout = 5.0,
		.max_misses = 2,
		.keepalive = 30.0,
	};
	struct update u;
	struct fake f;
	uint32_t id[3];
	uint64_t t[8];
	int i;

	(void)state;
	memset(&f, 0, sizeof(f));
	f.changes = 3;
	f.switches_have = 1;
	update_init(&u, &ops, &f, &o);
	for (i = 0; i < 3; i++) {
		id[i] = update_subscribe(&u, 0x10 + i, 2 + i, 0.0, NULL);
		assert_int_equal(update_wait(&u, 0x10 + i, id[i], 0, UPD_IDLE,
					     7 + i, 3 + i, 0.0),
				 0);
	}
	update_request(&u);
	update_tick(&u, 1.0);
	assert_int_equal(due_tids(&u, 1.0, t, 8), 3);
	/* acks keep coming: 1.4, 1.8; the others are not asked again */
	assert_int_equal(update_ack(&u, 0x10, id[0], 1, UPD_UNPATH, 1.4), 1);
	assert_int_equal(due_tids(&u, 1.6, t, 8), 0);
	assert_int_equal(update_ack(&u, 0x11, id[1], 1, UPD_UNPATH, 1.8), 1);
	assert_int_equal(due_tids(&u, 2.2, t, 8), 0);
	/* 0.5 s without one: the last session is asked again */
	assert_int_equal(due_tids(&u, 2.35, t, 8), 1);
	assert_true(t[0] == 9);
	assert_int_equal(u.resent, 1ul);
	update_free(&u);
}

/* serve OP (epoch, phase) from peer p, transaction tid: 1 when held */
static int serve_held(struct update *u, const struct updw_peer *p, int op,
		      uint32_t sub, uint32_t epoch, int phase, uint64_t tid,
		      double now, struct updw_msg *r)
{
	struct updw_msg m = { .op = (uint8_t)op,
			      .phase = (uint8_t)phase,
			      .sub = sub,
			      .epoch = epoch,
			      .guid = p->guid,
			      .lid = p->lid,
			      .reply_lid = p->lid + 1 };
	int held;

	updw_serve_tid(u, &m, p, NULL, now, 100, 7, tid, r, &held);
	return held;
}

/* ACKWAIT: the ack counts as an ACK's and the MAD is held as a WAIT,
 * answered when REPATH starts; a lost one is noticed by the SM sending
 * the answer that asked for it again (the WAIT's transaction); a repeated
 * one is an ignored ack that still waits; an unknown session is told. */
static void test_ackwait(void **state)
{
	static const struct updw_peer pa = { 0x10, 2, 3 }, pb = { 0x20, 4, 5 };
	static const struct upd_opts o = {
		.ack_timeout = 5.0,
		.push_timeout = 5.0,
		.max_misses = 2,
		.keepalive = 30.0,
	};
	struct update u;
	struct fake f;
	struct updw_msg r;
	uint32_t a, b;
	uint64_t t[8];

	(void)state;
	memset(&f, 0, sizeof(f));
	f.changes = 3;
	f.switches_have = 1;
	update_init(&u, &ops, &f, &o);
	a = update_subscribe(&u, 0x10, 2, 0.0, NULL);
	b = update_subscribe(&u, 0x20, 4, 0.0, NULL);
	assert_int_equal(serve_held(&u, &pa, UPDW_WAIT, a, 0, 0, 1, 0.0, &r),
			 1);
	assert_int_equal(serve_held(&u, &pb, UPDW_WAIT, b, 0, 0, 2, 0.0, &r),
			 1);
	update_request(&u);
	update_tick(&u, 1.0);
	assert_int_equal(u.phase, UPD_UNPATH);
	assert_int_equal(due_tids(&u, 1.0, t, 8), 2);
	/* a acks with the next WAIT: counted, held */
	assert_int_equal(serve_held(&u, &pa, UPDW_ACKWAIT, a, 1, UPD_UNPATH, 11,
				    1.1, &r),
			 1);
	assert_int_equal(u.acked, 1);
	assert_int_equal(u.held, 1);
	/* the same again (a duplicate): ignored as an ack, still held */
	assert_int_equal(serve_held(&u, &pa, UPDW_ACKWAIT, a, 1, UPD_UNPATH, 12,
				    1.2, &r),
			 1);
	assert_int_equal(u.acked, 1);
	assert_int_equal(u.held, 1);
	/* b's ACKWAIT was lost: its WAIT's answer goes again (tid 2) */
	assert_int_equal(due_tids(&u, 1.8, t, 8), 1);
	assert_true(t[0] == 2);
	assert_int_equal(serve_held(&u, &pb, UPDW_ACKWAIT, b, 1, UPD_UNPATH, 21,
				    1.9, &r),
			 1);
	assert_int_equal(u.acked, 2);
	/* every session acked: UPDATE, then REPATH answers both held
	 * ACKWAITs (a's latest transaction) */
	update_tick(&u, 2.0);
	update_tick(&u, 2.1);
	assert_int_equal(u.phase, UPD_REPATH);
	assert_int_equal(due_tids(&u, 2.1, t, 8), 2);
	assert_true(t[0] == 12 && t[1] == 21);
	/* an unknown session */
	serve_held(&u, &pb, UPDW_ACKWAIT, 99, 1, UPD_REPATH, 30, 2.2, &r);
	assert_int_equal(r.result, UPDW_UNKNOWN);
	update_free(&u);
}

/* The MADs: a round trip, what is not ours, and the SM's answers. */
static void test_wire(void **state)
{
	uint8_t mad[UPDW_MAD_SIZE];
	struct updw_msg m = {
		.op = UPDW_ACK, .phase = UPD_REPATH, .sub = 7, .epoch = 0x01020304,
		.guid = 0x0002c90300a1b2c3ull, .lid = 0x1234, .reply_lid = 0x1235,
		.poll_ms = 250, .sl = 5,
	}, d, r;
	static const struct updw_peer p10 = { 0x10, 2, 3 };
	struct update u;
	struct fake f;
	uint64_t tid;
	int method;

	(void)state;
	updw_encode(mad, 0x09, UPDW_METHOD_SET, 0xdeadbeef00000001ull, &m);
	assert_int_equal(mad[1], 0x09);
	assert_int_equal(mad[16] << 8 | mad[17], UPDW_ATTR);
	assert_int_equal(updw_decode(mad, sizeof(mad), 0x09, &d, &method, &tid),
			 0);
	assert_int_equal(method, UPDW_METHOD_SET);
	assert_true(tid == 0xdeadbeef00000001ull);
	assert_int_equal(d.op, m.op);
	assert_int_equal(d.phase, m.phase);
	assert_int_equal(d.sub, m.sub);
	assert_int_equal(d.epoch, m.epoch);
	assert_true(d.guid == m.guid);
	assert_int_equal(d.lid, m.lid);
	assert_int_equal(d.reply_lid, m.reply_lid);
	assert_int_equal(d.poll_ms, m.poll_ms);
	assert_int_equal(d.sl, m.sl);
	/* not ours */
	assert_int_equal(updw_decode(mad, sizeof(mad), 0x0a, &d, &method, &tid),
			 -1);
	assert_int_equal(updw_decode(mad, 40, 0x09, &d, &method, &tid), -1);
	mad[24] ^= 1; /* magic */
	assert_int_equal(updw_decode(mad, sizeof(mad), 0x09, &d, &method, &tid),
			 -1);
	mad[24] ^= 1;
	mad[17] ^= 1; /* attribute */
	assert_int_equal(updw_decode(mad, sizeof(mad), 0x09, &d, &method, &tid),
			 -1);

	/* the SM's answers, to port 0x10 (LIDs 2-3) */
	setup(&u, &f);
	memset(&m, 0, sizeof(m));
	m.op = UPDW_REGISTER;
	m.guid = 0x10;
	m.lid = 2;
	m.reply_lid = 3;
	assert_int_equal(updw_serve(&u, &m, &p10, NULL, 0.0, 200, 7, &r), 0);
	assert_int_equal(r.result, UPDW_OK);
	assert_int_not_equal(r.sub, 0);
	assert_int_equal(r.poll_ms, 200);
	assert_int_equal(r.sl, 7);
	assert_true(r.guid == 0x10);
	assert_int_equal(r.reply_lid, 3);
	m.sub = r.sub;
	m.op = UPDW_POLL;
	update_request(&u);
	update_tick(&u, 0.0);
	assert_int_equal(updw_serve(&u, &m, &p10, NULL, 0.1, 200, 7, &r), 0);
	assert_int_equal(r.result, UPDW_OK);
	assert_int_equal(r.phase, UPD_UNPATH);
	assert_int_equal(r.epoch, 1u);
	m.op = UPDW_ACK;
	m.epoch = r.epoch;
	m.phase = r.phase;
	updw_serve(&u, &m, &p10, NULL, 0.2, 200, 7, &r);
	assert_int_equal(r.result, UPDW_OK);
	updw_serve(&u, &m, &p10, NULL, 0.2, 200, 7,
		   &r); /* the same ack again */
	assert_int_equal(r.result, UPDW_IGNORED);
	m.op = UPDW_NACK; /* acked already: ignored */
	updw_serve(&u, &m, &p10, NULL, 0.2, 200, 7, &r);
	assert_int_equal(r.result, UPDW_IGNORED);
	m.op = UPDW_LEAVE;
	updw_serve(&u, &m, &p10, NULL, 0.3, 200, 7, &r);
	assert_int_equal(r.result, UPDW_OK);
	m.op = UPDW_POLL;
	assert_int_equal(updw_serve(&u, &m, &p10, NULL, 0.3, 200, 7, &r),
			 UPDW_REJ_UNKNOWN);
	assert_int_equal(r.result, UPDW_UNKNOWN);
	m.op = 99;
	assert_int_equal(updw_serve(&u, &m, &p10, NULL, 0.3, 200, 7, &r),
			 UPDW_REJ_BAD);
	assert_int_equal(r.result, UPDW_BAD);
	update_free(&u);
}

/* A subscriber registered from port p; its id. */
static uint32_t reg(struct update *u, const struct updw_peer *p, double now,
		    const char *key)
{
	struct updw_msg m = { .op = UPDW_REGISTER,
			      .guid = p->guid,
			      .lid = p->lid,
			      .reply_lid = p->lid + 1 },
			r;

	updw_set_key(&m, key);
	updw_serve(u, &m, p, key, now, 100, 7, &r);
	return r.result == UPDW_OK ? r.sub : 0;
}

/* One request from port p for subscriber sub; the answer's result. */
static int req(struct update *u, const struct updw_peer *p, int op,
	       uint32_t sub, uint32_t epoch, int phase, double now,
	       struct updw_msg *r)
{
	struct updw_msg m = { .op = (uint8_t)op,
			      .sub = sub,
			      .epoch = epoch,
			      .phase = (uint8_t)phase,
			      .guid = p->guid };

	updw_serve(u, &m, p, NULL, now, 100, 7, r);
	return r->result;
}

/*
 * The trust model: a subscriber is its port.  A rogue port forges ACKs
 * and LEAVEs for a real subscriber, registers other ports, floods; a
 * requester on no port learns nothing.  The real subscriber's phases are
 * intact: UNPATH still waits for its own ack.
 */
static void test_trust(void **state)
{
	static const struct updw_peer real = { 0x10, 2, 3 },
				      rogue = { 0x66, 8, 9 },
				      nobody = { 0, 0, 0 };
	struct updw_msg m, r;
	struct update u;
	struct fake f;
	uint32_t a, a2, i;
	struct timespec t0, t1;

	(void)state;
	setup(&u, &f);
	a = reg(&u, &real, 0.0, NULL);
	assert_int_not_equal(a, 0);
	update_request(&u);
	update_tick(&u, 0.0);
	assert_int_equal(u.phase, UPD_UNPATH);
	/* forged ACK and LEAVE for a, from the rogue port, with a's id */
	assert_int_equal(req(&u, &rogue, UPDW_ACK, a, 1, UPD_UNPATH, 0.1, &r),
			 UPDW_UNKNOWN);
	assert_int_equal(r.epoch, 0u); /* learns nothing */
	assert_int_equal(r.phase, 0);
	assert_int_equal(r.sub, 0u);
	assert_int_equal(req(&u, &rogue, UPDW_LEAVE, a, 0, 0, 0.1, &r),
			 UPDW_UNKNOWN);
	assert_int_equal(u.nsub, 1);
	update_tick(&u, 0.5);
	assert_int_equal(u.phase, UPD_UNPATH); /* still waits for a */
	assert_int_equal(f.pushes, 0);
	/* a requester on no port, and a poll by the rogue: nothing */
	assert_int_equal(req(&u, &nobody, UPDW_POLL, a, 0, 0, 0.5, &r),
			 UPDW_DENIED);
	assert_int_equal(r.epoch, 0u);
	assert_int_equal(r.phase, 0);
	assert_int_equal(req(&u, &rogue, UPDW_POLL, a, 0, 0, 0.5, &r),
			 UPDW_UNKNOWN);
	assert_int_equal(r.epoch, 0u);
	assert_int_equal(r.phase, 0);
	/* REGISTER naming a's GUID from the rogue port: denied, a intact */
	memset(&m, 0, sizeof(m));
	m.op = UPDW_REGISTER;
	m.guid = real.guid;
	assert_int_equal(updw_serve(&u, &m, &rogue, NULL, 0.6, 100, 7, &r),
			 UPDW_REJ_GUID);
	assert_int_equal(r.result, UPDW_DENIED);
	assert_int_equal(u.nsub, 1);
	assert_int_equal(u.sub[0].id, a);
	/* an answer goes only to the requester's own LIDs */
	m.guid = rogue.guid;
	m.reply_lid = 2; /* a's LID */
	updw_serve(&u, &m, &rogue, NULL, 0.6, 100, 7, &r);
	assert_int_equal(r.reply_lid, 8);
	assert_int_equal(updw_reply_lid(&m, &real), 2);
	/* a acks for itself: the run goes on */
	assert_int_equal(req(&u, &real, UPDW_ACK, a, 1, UPD_UNPATH, 0.7, &r),
			 UPDW_OK);
	update_tick(&u, 0.7);
	assert_int_equal(f.pushes, 1);
	/* 20,000 REGISTERs with forged GUIDs from one port: all denied, in
	 * well under a second; nothing allocated */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < 20000; i++) {
		m.guid = 0x100000 + i;
		updw_serve(&u, &m, &rogue, NULL, 0.8, 100, 7, &r);
		assert_int_equal(r.result, UPDW_DENIED);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_true((double)(t1.tv_sec - t0.tv_sec) +
			    (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9 <
		    1.0);
	assert_int_equal(u.nsub, 2); /* a and the rogue's own */
	/* a second session of the same port: a new id, a untouched */
	a2 = reg(&u, &real, 0.9, NULL);
	assert_int_not_equal(a2, 0);
	assert_int_not_equal(a2, a);
	assert_int_equal(u.nsub, 3);
	assert_int_equal(req(&u, &real, UPDW_POLL, a, 0, 0, 0.9, &r), UPDW_OK);
	assert_int_equal(req(&u, &real, UPDW_POLL, a2, 0, 0, 0.9, &r), UPDW_OK);
	assert_int_equal(r.phase, UPD_REPATH);
	/* the rogue cannot poll a2 either */
	assert_int_equal(req(&u, &rogue, UPDW_POLL, a2, 0, 0, 0.9, &r),
			 UPDW_UNKNOWN);
	/* garbage: whatever decodes is answered BAD or UNKNOWN, never OK */
	for (i = 0; i < 2000; i++) {
		uint8_t mad[UPDW_MAD_SIZE];
		struct updw_msg g;
		uint64_t tid;
		int method, k;

		for (k = 0; k < UPDW_MAD_SIZE; k++)
			mad[k] = (uint8_t)(i * 2654435761u >> (k % 24));
		updw_encode(mad, 9, UPDW_METHOD_SET, i,
			    &(struct updw_msg){ 0 });
		for (k = 24 + 5; k < 24 + 32; k++)
			mad[k] = (uint8_t)(i * 7 + (unsigned)k * 13);
		assert_int_equal(updw_decode(mad, sizeof(mad), 9, &g, &method,
					     &tid),
				 0);
		updw_serve(&u, &g, &rogue, NULL, 1.0, 100, 7, &r);
		if (g.op == UPDW_REGISTER)
			continue; /* its own port: may register */
		assert_int_not_equal(r.result, UPDW_OK);
	}
	update_free(&u);
}

/* The shared key, and the cap on subscribers. */
static void test_key_and_cap(void **state)
{
	static const struct upd_opts capped = {
		.ack_timeout = 2.0,
		.push_timeout = 5.0,
		.max_misses = 2,
		.max_subs = 100,
	};
	struct updw_peer p = { 0x10, 2, 3 };
	struct updw_msg m = { .op = UPDW_REGISTER, .guid = 0x10 }, r;
	struct update u;
	struct fake f;
	int i;

	(void)state;
	setup(&u, &f);
	/* no key, a wrong key, a key one byte longer: denied */
	assert_int_equal(updw_serve(&u, &m, &p, "s3cret-key", 0.0, 100, 7, &r),
			 UPDW_REJ_KEY);
	assert_int_equal(r.result, UPDW_DENIED);
	updw_set_key(&m, "s3cret-kez");
	assert_int_equal(updw_serve(&u, &m, &p, "s3cret-key", 0.0, 100, 7, &r),
			 UPDW_REJ_KEY);
	updw_set_key(&m, "s3cret-key!");
	assert_int_equal(updw_serve(&u, &m, &p, "s3cret-key", 0.0, 100, 7, &r),
			 UPDW_REJ_KEY);
	assert_int_equal(u.nsub, 0);
	updw_set_key(&m, "s3cret-key");
	assert_int_equal(updw_serve(&u, &m, &p, "s3cret-key", 0.0, 100, 7, &r),
			 0);
	assert_int_equal(r.result, UPDW_OK);
	assert_int_equal(u.nsub, 1);
	update_free(&u);
	/* the cap: 100 ports in, the 101st is told so */
	memset(&f, 0, sizeof(f));
	update_init(&u, &ops, &f, &capped);
	for (i = 0; i < 101; i++) {
		struct updw_peer q = { 0x1000 + (uint64_t)i,
				       (uint16_t)(2 * i + 2),
				       (uint16_t)(2 * i + 3) };

		assert_int_equal(reg(&u, &q, 0.0, NULL) != 0, i < 100);
	}
	assert_int_equal(u.nsub, 100);
	m.guid = 0x2000;
	p.guid = 0x2000;
	updw_set_key(&m, NULL);
	assert_int_equal(updw_serve(&u, &m, &p, NULL, 0.0, 100, 7, &r),
			 UPDW_REJ_FULL);
	assert_int_equal(r.result, UPDW_FULL);
	/* lookups stay sorted: every one of them polls */
	for (i = 0; i < 100; i++) {
		uint32_t e;
		int ph;

		assert_int_equal(update_poll(&u, u.sub[i].guid, u.sub[i].id,
					     0.0, &e, &ph),
				 0);
		if (i)
			assert_true(u.sub[i - 1].guid < u.sub[i].guid);
	}
	update_free(&u);
}

/* Log lines of refused requests: 10 per window, then held back. */
static void test_ratelimit(void **state)
{
	struct updw_ratelimit rl = { 0 };
	long held = -1;
	int i, n = 0;

	(void)state;
	for (i = 0; i < 1000; i++)
		n += updw_ratelimit_ok(&rl, 1.0 + i * 0.001, 10, 10.0, &held);
	assert_int_equal(n, 10);
	assert_int_equal(updw_ratelimit_ok(&rl, 12.0, 10, 10.0, &held), 1);
	assert_int_equal(held, 990);
	/* the lines' tail reads right with none held back too (it once
	 * read "dropped0 earlier line(s) held back") */
	{
		char buf[48];

		assert_string_equal(updw_held_note(0, buf, sizeof(buf)),
				    " (0 line(s) held back)");
		assert_string_equal(updw_held_note(990, buf, sizeof(buf)),
				    " (990 line(s) held back)");
	}
}

/* The token bucket of the request rates: rate at once, then rate a
 * second. */
static void test_bucket(void **state)
{
	struct updw_bucket b = { 0 };
	int i, n = 0;

	(void)state;
	for (i = 0; i < 1000; i++)
		n += updw_bucket_take(&b, 10.0, 100);
	assert_int_equal(n, 100);
	n = 0;
	for (i = 0; i < 1000; i++) /* 1 s, one try every ms */
		n += updw_bucket_take(&b, 10.0 + (i + 1) * 0.001, 100);
	assert_true(n >= 99 && n <= 101);
	assert_int_equal(updw_bucket_take(&b, 20.0, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_acks),
		cmocka_unit_test(test_death),
		cmocka_unit_test(test_topology),
		cmocka_unit_test(test_coalesce_and_push),
		cmocka_unit_test(test_sessions),
		cmocka_unit_test(test_nack),
		cmocka_unit_test(test_saved_sessions),
		cmocka_unit_test(test_wait),
		cmocka_unit_test(test_lost_notice),
		cmocka_unit_test(test_resend_while_acks),
		cmocka_unit_test(test_ackwait),
		cmocka_unit_test(test_wire),
		cmocka_unit_test(test_trust),
		cmocka_unit_test(test_key_and_cap),
		cmocka_unit_test(test_ratelimit),
		cmocka_unit_test(test_bucket),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
