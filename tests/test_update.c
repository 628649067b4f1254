/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The update protocol's state machine with a fake clock and a fake
 * transport: subscribers are calls made by the test, the switches a flag.
 * Lost, duplicated, late and stale acks, a subscriber that dies, topology
 * changes in the middle of a run, coalesced requests, a push that does not
 * arrive.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "update.h"
#include "updwire.h"

struct fake {
	long changes;		/* what compute returns */
	int computes, pushes, commits, abandons;
	int switches_have;	/* pushed() */
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
	.compute = f_compute, .push = f_push, .pushed = f_pushed,
	.commit = f_commit, .abandon = f_abandon, .log = f_log,
};
static const struct upd_opts opts = {
	.ack_timeout = 2.0, .push_timeout = 5.0, .max_misses = 2,
};

static void setup(struct update *u, struct fake *f)
{
	memset(f, 0, sizeof(*f));
	f->changes = 3;
	f->switches_have = 1;
	update_init(u, &ops, f, &opts);
}

/* What subscriber id sees. */
static int phase_of(struct update *u, uint32_t id, double now, uint32_t *ep)
{
	uint32_t e;
	int ph;

	assert_int_equal(update_poll(u, id, now, &e, &ph), 0);
	if (ep)
		*ep = e;
	return ph;
}

/* Both subscribers ack whatever phase they see. */
static void ack_both(struct update *u, uint32_t a, uint32_t b, double now)
{
	uint32_t e;
	int ph = phase_of(u, a, now, &e);

	assert_int_equal(update_ack(u, a, e, ph, now), 1);
	ph = phase_of(u, b, now, &e);
	assert_int_equal(update_ack(u, b, e, ph, now), 1);
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
	a = update_subscribe(&u, 0x10, 2, 0.0);
	b = update_subscribe(&u, 0x20, 4, 0.0);
	update_tick(&u, 0.1);
	assert_int_equal(u.phase, UPD_IDLE);	/* no request: nothing */
	update_request(&u);
	update_tick(&u, 1.0);
	assert_int_equal(f.computes, 1);
	assert_int_equal(phase_of(&u, a, 1.0, &e), UPD_UNPATH);
	assert_int_equal(e, 1u);
	assert_int_equal(f.pushes, 0);	/* nothing pushed before the acks */
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
	assert_non_null(strstr(f.log, "epoch 1 committed in 0.500 s: compute 0.000 s, unpath 0.200 s, update 0.000 s, repath 0.300 s; 3 block(s) changed; subscribers 2, acks 4, timeouts 0"));
	assert_int_equal(f.errors, 0);
	/* nothing changed: no phase beyond COMPUTE */
	f.changes = 0;
	update_request(&u);
	update_tick(&u, 2.0);
	assert_int_equal(u.phase, UPD_IDLE);
	assert_int_equal(f.pushes, 1);
	assert_int_equal(f.commits, 1);
	assert_non_null(strstr(f.log, "epoch 2: no base-LID block changes"));
	update_free(&u);
}

/* Two subscribers (ids in a, b) and a run started: UNPATH asked. */
static void two_and_run(struct update *u, struct fake *f, uint32_t *a,
			uint32_t *b)
{
	setup(u, f);
	*a = update_subscribe(u, 0x10, 2, 0.0);
	*b = update_subscribe(u, 0x20, 4, 0.0);
	update_request(u);
	update_tick(u, 0.0);
	assert_int_equal(u->phase, UPD_UNPATH);
}

/* Lost, duplicated, late and stale acks. */
static void test_acks(void **state)
{
	struct update u;
	struct fake f;
	uint32_t a, b, e;

	(void)state;
	two_and_run(&u, &f, &a, &b);
	phase_of(&u, a, 0.1, &e);
	assert_int_equal(update_ack(&u, a, e, UPD_UNPATH, 0.1), 1);
	assert_int_equal(update_ack(&u, a, e, UPD_UNPATH, 0.2), 0);	/* duplicate */
	assert_int_equal(update_ack(&u, a, e - 1, UPD_UNPATH, 0.2), 0);	/* stale epoch */
	assert_int_equal(update_ack(&u, a, e, UPD_REPATH, 0.2), 0);	/* not yet */
	assert_int_equal(update_ack(&u, 999, e, UPD_UNPATH, 0.2), -1);	/* unknown */
	/* b's ack is lost: UNPATH waits until the timeout, not longer */
	update_tick(&u, 1.9);
	assert_int_equal(u.phase, UPD_UNPATH);
	update_tick(&u, 2.0);
	assert_int_equal(u.phase, UPD_REPATH);
	assert_non_null(strstr(f.log, "subscriber 2: port 0x0000000000000020 LID 4: no UNPATH ack of epoch 1 within 2.0 s (1/2 in a row)"));
	/* b's UNPATH ack arrives late, during REPATH: ignored */
	assert_int_equal(update_ack(&u, b, e, UPD_UNPATH, 2.1), 0);
	update_tick(&u, 2.1);
	assert_int_equal(u.phase, UPD_REPATH);
	ack_both(&u, a, b, 2.2);	/* b acks REPATH: its count resets */
	update_tick(&u, 2.2);
	assert_int_equal(f.commits, 1);
	assert_non_null(strstr(f.log, "acks 3, timeouts 1"));
	assert_int_equal(u.sub[1].misses, 0);
	update_free(&u);
}

/* A subscriber that dies: timed out in each phase, dropped after
 * max_misses; the other one and the protocol go on. */
static void test_death(void **state)
{
	struct update u;
	struct fake f;
	uint32_t a, b, e;
	int ph;

	(void)state;
	two_and_run(&u, &f, &a, &b);
	ph = phase_of(&u, a, 0.0, &e);
	update_ack(&u, a, e, ph, 0.0);
	update_tick(&u, 2.0);		/* b: first miss */
	ph = phase_of(&u, a, 2.0, &e);
	assert_int_equal(ph, UPD_REPATH);
	update_ack(&u, a, e, ph, 2.0);
	update_tick(&u, 4.0);		/* b: second miss, dropped */
	assert_int_equal(f.commits, 1);
	assert_int_equal(u.nsub, 1);
	assert_non_null(strstr(f.log, "subscriber 2: dropped"));
	assert_int_equal(update_poll(&u, b, 4.0, &e, &ph), -1);
	/* the next run waits for a alone */
	update_request(&u);
	update_tick(&u, 10.0);
	ph = phase_of(&u, a, 10.0, &e);
	assert_int_equal(update_ack(&u, a, e, ph, 10.0), 1);
	update_tick(&u, 10.0);
	ph = phase_of(&u, a, 10.0, &e);
	assert_int_equal(update_ack(&u, a, e, ph, 10.0), 1);
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
	a = update_subscribe(&u, 0x10, 2, 0.0);
	update_topology(&u);		/* idle: OpenSM routes as usual */
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
	assert_int_equal(update_ack(&u, a, 1, UPD_UNPATH, 0.1), 0);	/* old epoch */
	assert_int_equal(update_ack(&u, a, 2, UPD_UNPATH, 0.1), 1);
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
	update_ack(&u, a, e, ph, 0.4);
	update_tick(&u, 0.5);
	ph = phase_of(&u, a, 0.5, &e);
	assert_int_equal(ph, UPD_REPATH);
	update_ack(&u, a, e, ph, 0.5);
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
	a = update_subscribe(&u, 0x10, 2, 0.0);
	update_request(&u);
	update_tick(&u, 0.0);
	for (i = 0; i < 5; i++)
		update_request(&u);
	f.switches_have = 0;
	ph = phase_of(&u, a, 0.1, &e);
	update_ack(&u, a, e, ph, 0.1);
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
	update_ack(&u, a, e, ph, 5.2);
	update_tick(&u, 5.3);
	/* committed, and the coalesced requests started exactly one run */
	assert_int_equal(f.commits, 1);
	assert_int_equal(f.computes, 2);
	assert_int_equal(phase_of(&u, a, 5.3, &e), UPD_UNPATH);
	update_ack(&u, a, e, UPD_UNPATH, 5.3);
	update_tick(&u, 5.4);
	update_ack(&u, a, e, UPD_REPATH, 5.4);
	update_tick(&u, 5.5);
	assert_int_equal(f.commits, 2);
	assert_int_equal(f.computes, 2);
	assert_int_equal(u.phase, UPD_IDLE);
	/* a client that restarts registers again: a new id, the old one
	 * unknown */
	assert_int_not_equal(update_subscribe(&u, 0x10, 2, 6.0), a);
	assert_int_equal(update_poll(&u, a, 6.0, &e, &ph), -1);
	assert_int_equal(u.nsub, 1);
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
	struct update u;
	struct fake f;
	uint64_t tid;
	int method;

	(void)state;
	updw_encode(mad, 0x09, UPDW_METHOD_SET, 0xdeadbeef00000001ull, &m);
	assert_int_equal(mad[1], 0x09);
	assert_int_equal(mad[16] << 8 | mad[17], UPDW_ATTR);
	assert_int_equal(updw_decode(mad, sizeof(mad), 0x09, &d, &method, &tid), 0);
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
	assert_int_equal(updw_decode(mad, sizeof(mad), 0x0a, &d, &method, &tid), -1);
	assert_int_equal(updw_decode(mad, 40, 0x09, &d, &method, &tid), -1);
	mad[24] ^= 1;		/* magic */
	assert_int_equal(updw_decode(mad, sizeof(mad), 0x09, &d, &method, &tid), -1);
	mad[24] ^= 1;
	mad[17] ^= 1;		/* attribute */
	assert_int_equal(updw_decode(mad, sizeof(mad), 0x09, &d, &method, &tid), -1);

	/* the SM's answers */
	setup(&u, &f);
	memset(&m, 0, sizeof(m));
	m.op = UPDW_REGISTER;
	m.guid = 0x10;
	m.lid = 2;
	updw_serve(&u, &m, 0.0, 200, 7, &r);
	assert_int_equal(r.result, UPDW_OK);
	assert_int_not_equal(r.sub, 0);
	assert_int_equal(r.poll_ms, 200);
	assert_int_equal(r.sl, 7);
	assert_true(r.guid == 0x10);
	m.sub = r.sub;
	m.op = UPDW_POLL;
	update_request(&u);
	update_tick(&u, 0.0);
	updw_serve(&u, &m, 0.1, 200, 7, &r);
	assert_int_equal(r.result, UPDW_OK);
	assert_int_equal(r.phase, UPD_UNPATH);
	assert_int_equal(r.epoch, 1u);
	m.op = UPDW_ACK;
	m.epoch = r.epoch;
	m.phase = r.phase;
	updw_serve(&u, &m, 0.2, 200, 7, &r);
	assert_int_equal(r.result, UPDW_OK);
	updw_serve(&u, &m, 0.2, 200, 7, &r);	/* the same ack again */
	assert_int_equal(r.result, UPDW_IGNORED);
	m.op = UPDW_LEAVE;
	updw_serve(&u, &m, 0.3, 200, 7, &r);
	assert_int_equal(r.result, UPDW_OK);
	m.op = UPDW_POLL;
	updw_serve(&u, &m, 0.3, 200, 7, &r);
	assert_int_equal(r.result, UPDW_UNKNOWN);
	m.op = 99;
	updw_serve(&u, &m, 0.3, 200, 7, &r);
	assert_int_equal(r.result, UPDW_BAD);
	update_free(&u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_acks),
		cmocka_unit_test(test_death),
		cmocka_unit_test(test_topology),
		cmocka_unit_test(test_coalesce_and_push),
		cmocka_unit_test(test_wire),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
