/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A load generator for the update protocol: N subscriber sessions from
 * one port (under umad2sim, SIM_HOST picks the host), each polling the SM
 * every poll period and acking UNPATH and REPATH after a hook of H ms, as
 * libosmre-client would, over one umad agent (ibsim takes 10 clients at
 * most, so many sessions share a process).  A share of the sessions may
 * stay silent (register, then never answer again).
 *
 *   update_load [-n SESSIONS] [-p POLL_MS] [-H HOOK_MS] [-s SILENT_PCT]
 *               [-t SECONDS] [-c CLASS] [-w [-A]] [-S SILENT] [-W WINDOW]
 *               [-T HELD_MS] [-R RATE]
 *
 * -S: SILENT sessions (a count) instead of a share.
 * -W: requests in flight at most (default 4): ibsim's sockets hold 10
 *     datagrams (net.unix.max_dgram_qlen), and a sender that blocks on a
 *     full one holds umad2sim's lock, which its own receiving thread
 *     needs: a few loaders with more in flight can wedge ibsim.
 * -w: WAIT (the long poll) instead of POLL, as libosmre-client does with
 * an SM that holds WAITs: one WAIT in flight per session, sent again
 * when it comes back or after the keep-alive period and a second; a
 * hook's ack goes with the next WAIT (ACKWAIT), as libosmre-client's.
 * -A: with -w, an ACK and its answer, then the WAIT (two round trips a
 * phase instead of one).
 * -T: a WAIT or ACKWAIT counts against the window for HELD_MS ms
 *     (default 50): it gets no answer while the SM holds it, so the
 *     loader guesses when ibsim has passed it on.
 * -R: at most RATE MADs a second from this loader (a token bucket of
 *     1 ms); a WAIT or ACKWAIT then no longer counts against the
 *     window (-T is not used): the rate keeps ibsim's sockets from
 *     overflowing, the window still bounds the requests answered at
 *     once (registrations, polls, ACKs).
 * Every 10 s a line "stats T sent S received R" (totals so far), and
 * "keepalive S" when the SM's keep-alive period changes.
 *
 * Prints "registered N" once every session has its id, one line per
 * epoch and phase when every answering session has acked it, and at the
 * end the MADs sent and received; on SIGTERM or after SECONDS every
 * session leaves.  Exit status 0, or 1 when a session could not
 * register.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "umadport.h"
#include "updwire.h"

#define RESEND_S 1.0 /* a request without an answer is sent again */

struct sess {
	uint32_t id;
	uint16_t seq; /* of the request in flight */
	int op;	      /* in flight (0: none) */
	double sent, next;
	uint32_t epoch; /* of the ack in flight or the last one */
	int phase;
	uint32_t done_epoch; /* (epoch, phase) acked */
	int done_phase;
	double hook_end;     /* > 0: a hook runs until then */
	uint32_t seen_epoch; /* the SM's state in the last answer */
	int seen_phase;
};

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static struct umad_link l = { .fd = -1, .agent = -1 };
static int mclass = UPDW_CLASS_DEFAULT;
static unsigned long sent, received;
static double keepalive; /* s, from the SM's answers */

static void send_req(struct sess *s, int i, int op, uint32_t epoch, int phase,
		     double now)
{
	struct updw_msg m = { 0 };
	uint8_t mad[UPDW_MAD_SIZE];
	unsigned dlid = l.lmc ? l.sm_lid + 1 : l.sm_lid;

	m.op = (uint8_t)op;
	m.sub = s->id;
	m.epoch = epoch;
	m.phase = (uint8_t)phase;
	m.guid = l.guid;
	m.lid = (uint16_t)l.lid;
	m.reply_lid = (uint16_t)(l.lmc ? l.lid + 1 : l.lid);
	s->seq++;
	updw_encode(mad, mclass,
		    op == UPDW_POLL || op == UPDW_WAIT || op == UPDW_ACKWAIT ?
			    UPDW_METHOD_GET :
			    UPDW_METHOD_SET,
		    (uint64_t)s->seq << 16 | (uint64_t)i, &m);
	if (!umadport_send(&l, mad, dlid, 0, 1000))
		sent++;
	s->op = op;
	s->sent = now;
	s->epoch = epoch;
	s->phase = phase;
}

/* The epoch and phase last reported, and how many acked it. */
static uint32_t rep_epoch;
static int rep_phase, rep_n, regd, hook_ms, nsilent;
static int window = 4, rot, ackwait = 1, held_ms = 50;
static double rate; /* -R: MADs a second at most; 0: no cap */

/* Session k acked (its epoch, phase): counted, and reported when every
 * answering session has. */
static void count_ack(struct sess *ss, int n, int k, double t0)
{
	ss[k].done_epoch = ss[k].epoch;
	ss[k].done_phase = ss[k].phase;
	if (ss[k].epoch != rep_epoch || ss[k].phase != rep_phase) {
		rep_epoch = ss[k].epoch;
		rep_phase = ss[k].phase;
		rep_n = 0;
	}
	if (++rep_n == n - nsilent)
		printf("epoch %u phase %d acked by %d %.3f\n", rep_epoch,
		       rep_phase, rep_n, clock_mono() - t0);
}

/* One MAD that came in. */
static void handle(struct sess *ss, int n, const uint8_t *in, int len,
		   double t0)
{
	struct updw_msg r;
	uint64_t tid;
	int method, k;

	if (updw_decode(in, (size_t)len, mclass, &r, &method, &tid) ||
	    method != UPDW_METHOD_GET_RESP)
		return;
	received++;
	if (r.keepalive_ms && r.keepalive_ms / 1e3 != keepalive) {
		keepalive = r.keepalive_ms / 1e3;
		printf("keepalive %.3f\n", keepalive);
	}
	k = (int)(tid & 0xFFFF);
	if (k >= n || ss[k].seq != (uint16_t)(tid >> 16 & 0xFFFF))
		return; /* late */
	ss[k].op = 0;
	switch (r.op) {
	case UPDW_REGISTER:
		if (r.result != UPDW_OK || !r.sub) {
			fprintf(stderr,
				"update_load: session %d: REGISTER answered %d\n",
				k, r.result);
			exit(1);
		}
		ss[k].id = r.sub;
		if (++regd == n)
			printf("registered %d %.3f\n", n, clock_mono() - t0);
		break;
	case UPDW_POLL:
	case UPDW_WAIT:
	case UPDW_ACKWAIT:
		if (r.result == UPDW_UNKNOWN) {
			ss[k].id = 0; /* forgotten: again */
			regd--;
			break;
		}
		ss[k].seen_epoch = r.epoch;
		ss[k].seen_phase = r.phase;
		if ((r.phase == UPD_UNPATH || r.phase == UPD_REPATH) &&
		    !(ss[k].done_epoch == r.epoch &&
		      ss[k].done_phase == r.phase)) {
			ss[k].epoch = r.epoch;
			ss[k].phase = r.phase;
			ss[k].hook_end = clock_mono() + hook_ms / 1e3;
		}
		break;
	case UPDW_ACK:
		count_ack(ss, n, k, t0);
		break;
	default:
		break;
	}
}

int main(int argc, char **argv)
{
	int n = 1, poll_ms = 100, silent = 0, c, i;
	int wait = 0;
	double seconds = 60, t0, now, next_stats, tokens = 0, last_fill;
	struct sess *ss;
	char err[256];

	while ((c = getopt(argc, argv, "n:p:H:s:t:c:wAS:W:T:R:")) != -1) {
		switch (c) {
		case 'n':
			n = atoi(optarg);
			break;
		case 'p':
			poll_ms = atoi(optarg);
			break;
		case 'H':
			hook_ms = atoi(optarg);
			break;
		case 's':
			silent = atoi(optarg);
			break;
		case 't':
			seconds = atof(optarg);
			break;
		case 'c':
			mclass = (int)strtol(optarg, NULL, 0);
			break;
		case 'w':
			wait = 1;
			break;
		case 'A':
			ackwait = 0;
			break;
		case 'T':
			held_ms = atoi(optarg);
			break;
		case 'S':
			nsilent = atoi(optarg);
			break;
		case 'W':
			window = atoi(optarg);
			break;
		case 'R':
			rate = atof(optarg);
			break;
		default:
			fprintf(stderr,
				"usage: update_load [-n SESSIONS] [-p POLL_MS] [-H HOOK_MS] [-s SILENT_PCT] [-t SECONDS] [-c CLASS] [-w [-A]] [-S SILENT] [-W WINDOW] [-T HELD_MS] [-R RATE]\n");
			return 2;
		}
	}
	if (n < 1 || n > 65535 || poll_ms < 1 || silent < 0 || silent > 100 ||
	    rate < 0 || rate > 1e7) {
		fprintf(stderr,
			"update_load: sessions 1..65535, poll >= 1 ms, silent 0..100 %%, rate 0..10000000\n");
		return 2;
	}
	if (nsilent < 0 || !nsilent)
		nsilent = (int)((long)n * silent / 100);
	if (nsilent > n)
		nsilent = n;
	ss = calloc((size_t)n, sizeof(*ss));
	if (!ss || umadport_open(&l, NULL, 0, 0, mclass, 0, err, sizeof(err))) {
		fprintf(stderr, "update_load: %s\n",
			ss ? err : "out of memory");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGTERM, on_stop);
	signal(SIGINT, on_stop);
	t0 = clock_mono();
	last_fill = t0;
	next_stats = t0 + 10;
	for (i = 0; i < n; i++)
		ss[i].next = t0 + (double)i * poll_ms / 1000.0 / n;
	while (!stop && (now = clock_mono()) - t0 < seconds) {
		uint8_t in[UPDW_MAD_SIZE];
		unsigned slid;
		int len, got = 0, budget = window, start, ans = 0, sent0;

		if (now >= next_stats) {
			printf("stats %.1f sent %lu received %lu\n", now - t0,
			       sent, received);
			next_stats += 10;
		}
		/* everything that came first (ibsim's sockets hold 10
		 * datagrams: never send much without reading) */
		while (got < 256 && (len = umadport_recv(&l, in, sizeof(in),
							 &slid, 0)) > 0) {
			handle(ss, n, in, len, t0);
			got++;
		}
		/* requests in flight that will be answered at once: the
		 * window (a WAIT counts until it looks held; a request
		 * unanswered for RESEND_S, one the SM dropped, no longer) */
		for (i = 0; i < n; i++) {
			int held = ss[i].op == UPDW_WAIT ||
				   ss[i].op == UPDW_ACKWAIT;

			if (held && rate > 0)
				continue; /* the rate paces them */
			budget -= ss[i].op &&
				  now - ss[i].sent <
					  (held ? held_ms / 1e3 : RESEND_S);
		}
		if (rate > 0) {
			/* the bucket: 1 ms of the rate at most (ibsim's sockets
			 * hold 10 datagrams) */
			tokens += (now - last_fill) * rate;
			last_fill = now;
			if (tokens > rate / 1000 + 1)
				tokens = rate / 1000 + 1;
			ans = budget;
			budget = (int)tokens;
		}
		/* what is due: registrations, polls, acks after a hook, and
		 * requests that went unanswered; from a rotating start */
		start = rot;
		sent0 = budget;
		for (int j = 0; j < n && budget > 0; j++) {
			struct sess *s;
			int mute;
			double late;

			i = (start + j) % n;
			s = &ss[i];
			mute = s->id && i < nsilent;
			late = s->op == UPDW_WAIT || s->op == UPDW_ACKWAIT ?
				       keepalive + RESEND_S :
				       RESEND_S;
			if (s->op && now - s->sent < late)
				continue;
			rot = i + 1;
			if (s->op == UPDW_ACKWAIT) { /* again */
				send_req(s, i, UPDW_ACKWAIT, s->epoch, s->phase,
					 now);
				budget--;
				continue;
			}
			if (wait && ackwait && s->id && s->hook_end > 0 &&
			    now >= s->hook_end) {
				s->hook_end = 0;
				send_req(s, i, UPDW_ACKWAIT, s->epoch, s->phase,
					 now);
				count_ack(ss, n, i, t0);
				budget--;
				continue;
			}
			if (wait && s->id && !mute && s->hook_end <= 0 &&
			    s->op != UPDW_ACK) {
				/* one WAIT in flight: what it saw last */
				send_req(s, i, UPDW_WAIT, s->seen_epoch,
					 s->seen_phase, now);
				budget--;
				continue;
			}
			if (rate > 0 && ans <= 0)
				continue; /* answered at once: the window */
			if (s->op == UPDW_ACK) { /* again */
				send_req(s, i, UPDW_ACK, s->epoch, s->phase,
					 now);
			} else if (!s->id) {
				send_req(s, i, UPDW_REGISTER, 0, 0, now);
			} else if (s->hook_end > 0 && now >= s->hook_end) {
				s->hook_end = 0;
				send_req(s, i, UPDW_ACK, s->epoch, s->phase,
					 now);
			} else if (!mute && s->hook_end <= 0 &&
				   now >= s->next) {
				s->next = now + poll_ms / 1000.0;
				send_req(s, i, UPDW_POLL, 0, 0, now);
			} else {
				continue;
			}
			budget--;
			ans--;
		}
		if (rate > 0)
			tokens -= sent0 - budget;
		if (!got &&
		    (len = umadport_recv(&l, in, sizeof(in), &slid, 1)) > 0)
			handle(ss, n, in, len, t0);
	}
	/* the sessions leave, so that the SM does not wait for them; one
	 * at a time, as everything else */
	for (i = 0; i < n; i++) {
		uint8_t in[UPDW_MAD_SIZE];
		unsigned slid;

		if (!ss[i].id)
			continue;
		send_req(&ss[i], i, UPDW_LEAVE, 0, 0, clock_mono());
		for (now = clock_mono(); clock_mono() - now < 0.05;)
			if (umadport_recv(&l, in, sizeof(in), &slid, 5) > 0 &&
			    !updw_decode(in, UPDW_MAD_SIZE, mclass,
					 &(struct updw_msg){ 0 }, &c,
					 &(uint64_t){ 0 }) &&
			    in[UPDW_HDR + UPDW_OFF_OP] == UPDW_LEAVE) {
				received++;
				break;
			}
	}
	printf("sent %lu received %lu in %.1f s\n", sent, received,
	       clock_mono() - t0);
	umadport_close(&l);
	free(ss);
	return 0;
}
