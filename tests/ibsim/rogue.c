/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A hostile host for the update protocol's tests: it speaks the protocol
 * from its own port (under umad2sim, SIM_HOST picks the host) and forges
 * what a real client would never send.
 *
 *   rogue ack SUB EPOCH PHASE   ACK for subscriber SUB (someone else's)
 *   rogue leave SUB             LEAVE for subscriber SUB
 *   rogue poll SUB              POLL as subscriber SUB
 *   rogue register GUID         REGISTER naming GUID (another port's)
 *   rogue flood N               N REGISTERs with forged GUIDs
 *   rogue garbage N             N requests with random payloads
 *   rogue key KEY               REGISTER of its own port with KEY
 *   rogue alien                 three MADs of the protocol's class with
 *                               another attribute (not the protocol's)
 *   rogue blast SECONDS [DLID]  for SECONDS, requests the SM refuses
 *                               (REGISTERs naming another port, POLLs
 *                               with ids nobody has), without waiting
 *                               for answers (see blast()); to DLID
 *                               instead of the SM: the same load on the
 *                               fabric, none on the SM (a control)
 *
 * Prints one line per answer: "result R epoch E phase P sub S", for
 * flood/garbage a summary "N sent, A answered, OK K", for blast
 * "N sent in S s, A answered, OK K".
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "umadport.h"
#include "updwire.h"

static struct umad_link l = { .fd = -1, .agent = -1 };
static uint32_t tid = 1;

/* One request; 1 with the answer in r, 0 when none came. */
static int call(const struct updw_msg *m, int method, struct updw_msg *r)
{
	uint8_t mad[UPDW_MAD_SIZE], in[UPDW_MAD_SIZE];
	unsigned dlid = l.lmc ? l.sm_lid + 1 : l.sm_lid, slid;
	int n, meth, tries = 0;
	uint64_t rtid;

	updw_encode(mad, UPDW_CLASS_DEFAULT, method, ++tid, m);
	if (umadport_send(&l, mad, dlid, 0, 1000))
		return 0;
	while (tries++ < 20) {
		n = umadport_recv(&l, in, sizeof(in), &slid, 100);
		if (n <= 0)
			continue;
		if (!updw_decode(in, (size_t)n, UPDW_CLASS_DEFAULT, r, &meth,
				 &rtid) &&
		    (uint32_t)rtid == tid)
			return 1;
	}
	return 0;
}

/* Sends m (NULL: none, and waits 0.5 s for the last answers); the answers
 * that came meanwhile, those OK added to *ok. */
static long spray(const struct updw_msg *m, long *ok)
{
	uint8_t mad[UPDW_MAD_SIZE], in[UPDW_MAD_SIZE];
	unsigned dlid = l.lmc ? l.sm_lid + 1 : l.sm_lid, slid;
	struct updw_msg r;
	uint64_t rtid;
	long got = 0;
	int n, meth, k;

	if (m) {
		updw_encode(mad, UPDW_CLASS_DEFAULT, UPDW_METHOD_SET, ++tid, m);
		umadport_send(&l, mad, dlid, 0, 1000);
	}
	for (k = 0; k < (m ? 1 : 50); k++)
		while ((n = umadport_recv(&l, in, sizeof(in), &slid,
					  m ? 0 : 10)) > 0)
			if (!updw_decode(in, (size_t)n, UPDW_CLASS_DEFAULT, &r,
					 &meth, &rtid)) {
				got++;
				*ok += r.result == UPDW_OK;
			}
	return got;
}

static void show(const struct updw_msg *r)
{
	printf("result %u epoch %u phase %u sub %u\n", r->result, r->epoch,
	       r->phase, r->sub);
}

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Requests the SM refuses, for secs seconds, each sent as soon as the one
 * before is out, without waiting for answers: whatever answers came in
 * meanwhile are only drained.  SIGTERM ends it early (also a send that
 * blocks).
 *
 * ibsim has little room for a flood: a unix datagram socket queues 10
 * datagrams (net.unix.max_dgram_qlen), ibsim busy-waits on a full one,
 * and umad2sim holds, while a send blocks, the lock that its receiving
 * thread needs.  An SM that answers every refused request at the rate they
 * come fills this host's queue while its send waits for ibsim, and ibsim
 * then spins on delivering the answers: the simulator stalls, the SM
 * with it.  An SM that does not answer refusals at that rate does not
 * stall.
 */
static void blast(struct updw_msg *m, double secs, unsigned to)
{
	uint8_t mad[UPDW_MAD_SIZE], in[UPDW_MAD_SIZE];
	double t0 = now_s(), t = t0;
	long sent = 0, answered = 0, ok = 0;
	uint64_t own = m->guid, rtid;
	unsigned dlid = to ? to : l.lmc ? l.sm_lid + 1 : l.sm_lid, slid;
	struct updw_msg r;
	struct sigaction sa;
	int n, meth;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term; /* no SA_RESTART: a blocked send ends */
	sigaction(SIGTERM, &sa, NULL);
	while (!stop && (t = now_s()) - t0 < secs) {
		if (sent % 2) { /* a POLL with an id nobody has */
			m->op = UPDW_POLL;
			m->guid = own;
			m->sub = 0x5eed0000u + (uint32_t)(sent % 4096);
		} else { /* a REGISTER naming another port */
			m->op = UPDW_REGISTER;
			m->guid = own + 0x100 + (uint64_t)(sent % 64);
			m->sub = 0;
		}
		updw_encode(mad, UPDW_CLASS_DEFAULT,
			    m->op == UPDW_POLL ? UPDW_METHOD_GET :
						 UPDW_METHOD_SET,
			    ++tid, m);
		if (umadport_send(&l, mad, dlid, 0, 1000))
			break;
		sent++;
		while ((n = umadport_recv(&l, in, sizeof(in), &slid, 0)) > 0)
			if (!updw_decode(in, (size_t)n, UPDW_CLASS_DEFAULT, &r,
					 &meth, &rtid)) {
				answered++;
				ok += r.result == UPDW_OK;
			}
	}
	t = now_s();
	printf("%ld sent in %.1f s, %ld answered, OK %ld\n", sent, t - t0,
	       answered, ok);
	fflush(stdout);
}


int main(int argc, char **argv)
{
	struct updw_msg m = { 0 }, r;
	char err[256];
	long i, n, answered = 0, ok = 0;

	if (argc < 3 && !(argc == 2 && !strcmp(argv[1], "alien"))) {
		fprintf(stderr,
			"usage: rogue ack|leave|poll|register|flood|garbage|key|blast ARG... | rogue alien\n");
		return 2;
	}
	if (umadport_open(&l, NULL, 0, 0, UPDW_CLASS_DEFAULT, 0, err,
			  sizeof(err))) {
		fprintf(stderr, "rogue: %s\n", err);
		return 1;
	}
	m.guid = l.guid;
	m.lid = (uint16_t)l.lid;
	m.reply_lid = (uint16_t)l.lid;
	if (!strcmp(argv[1], "ack") && argc == 5) {
		m.op = UPDW_ACK;
		m.sub = (uint32_t)strtoul(argv[2], NULL, 0);
		m.epoch = (uint32_t)strtoul(argv[3], NULL, 0);
		m.phase = (uint8_t)strtoul(argv[4], NULL, 0);
	} else if (!strcmp(argv[1], "leave") || !strcmp(argv[1], "poll")) {
		m.op = argv[1][0] == 'l' ? UPDW_LEAVE : UPDW_POLL;
		m.sub = (uint32_t)strtoul(argv[2], NULL, 0);
	} else if (!strcmp(argv[1], "register")) {
		m.op = UPDW_REGISTER;
		m.guid = strtoull(argv[2], NULL, 0);
	} else if (!strcmp(argv[1], "key")) {
		m.op = UPDW_REGISTER;
		updw_set_key(&m, argv[2]);
	} else if (!strcmp(argv[1], "alien")) {
		uint8_t mad[UPDW_MAD_SIZE];

		updw_encode(mad, UPDW_CLASS_DEFAULT, UPDW_METHOD_GET, ++tid,
			    &m);
		mad[16] ^= 0x01; /* attribute 0xFE10: not ours */
		umadport_send(&l, mad, l.lmc ? l.sm_lid + 1 : l.sm_lid, 0,
			      1000);
		umadport_close(&l);
		return 0;
	} else if (!strcmp(argv[1], "blast")) {
		blast(&m, strtod(argv[2], NULL),
		      argc > 3 ? (unsigned)strtoul(argv[3], NULL, 0) : 0);
		umadport_close(&l);
		return 0;
	} else if (!strcmp(argv[1], "flood") || !strcmp(argv[1], "garbage")) {
		n = strtol(argv[2], NULL, 0);
		srand(7);
		for (i = 0; i < n; i++) {
			if (argv[1][0] == 'f') {
				m.op = UPDW_REGISTER;
				m.guid = 0x0002c90300000000ull + (uint64_t)i;
			} else {
				size_t k;
				uint8_t *b = (uint8_t *)&m;

				for (k = 0; k < sizeof(m); k++)
					b[k] = (uint8_t)rand();
			}
			/* no wait for each answer (the SM answers refusals
			 * at a bounded rate): those that come are counted */
			answered += spray(&m, &ok);
		}
		answered += spray(NULL, &ok);
		printf("%ld sent, %ld answered, OK %ld\n", n, answered, ok);
		umadport_close(&l);
		return 0;
	} else {
		fprintf(stderr, "rogue: bad arguments\n");
		return 2;
	}
	if (!call(&m, m.op == UPDW_POLL ? UPDW_METHOD_GET : UPDW_METHOD_SET,
		  &r)) {
		printf("no answer\n");
		umadport_close(&l);
		return 1;
	}
	show(&r);
	umadport_close(&l);
	return 0;
}
