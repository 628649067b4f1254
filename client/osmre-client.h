/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libosmre-client: take part in osmre's five-phase update protocol
 * (osmre(8), "UPDATE PROTOCOL").  An application (an MPI library, a
 * daemon, `osmre subscribe`) registers from the HCA port it uses, polls
 * the subnet manager's update state, and is told to move its traffic to
 * the escape (the ports' high LIDs, base + 1, on the escape VL) before the
 * base-LID tables change (UNPATH), and back after (REPATH).  It acks each
 * phase once it has moved.
 *
 *	struct osmre_client *c = osmre_client_open(NULL, err, sizeof(err));
 *	struct osmre_client_hooks h = { .unpath = drain_and_migrate,
 *					.repath = migrate_back, .arg = app };
 *	for (;;) {
 *		osmre_client_step(c, &h);	// polls once, runs a hook, acks
 *		usleep(osmre_client_poll_ms(c) * 1000);
 *	}
 *	osmre_client_close(c);			// leaves
 *
 * With an SM that holds WAITs (update_keepalive_ms, the default), each
 * step's poll is a WAIT: the SM answers it as soon as a phase this client
 * must act on starts, or after the keep-alive period it gives (seconds,
 * more with many subscribers), and osmre_client_poll_ms() is 0: the delay
 * between the SM entering a phase and the hook starting is one round trip
 * plus the SM's pacing.  With an SM that polls (or an older one), it is
 * one poll period (update_poll_ms, default 100 ms) plus one round trip.
 * Every request is answered by the SM; a request without an answer within
 * timeout_ms (plus the keep-alive period for a WAIT) is sent again, up to
 * retries times, so a silent SM is noticed.  The library's MADs go to the SM's escape LID and ask for
 * the answer on the client's own escape LID.
 *
 * The SM binds a subscription to the port it was made from (the source
 * LID of the MADs): a client can only register, poll, ack and leave for
 * its own port.  When osmre.conf sets update_key, every request must
 * carry it (osmre_client_opts.key).
 */
#ifndef OSMRE_CLIENT_H
#define OSMRE_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum osmre_client_phase {
	OSMRE_IDLE = 0,
	OSMRE_COMPUTE = 1,
	OSMRE_UNPATH = 2,
	OSMRE_UPDATE = 3,
	OSMRE_REPATH = 4,
};

struct osmre_client_opts {
	const char *ca; /* NULL: the first CA with an active port */
	int port;	/* 0: its first active port */
	int mgmt_class; /* 0: 0x09 (osmre.conf update_mgmt_class) */
	int timeout_ms; /* per request; 0: 1000 */
	int retries;	/* 0: 3 */
	/* the SM's update_key when it has one (at most 32 characters);
	 * NULL: none */
	const char *key;
};

struct osmre_client;

/* Opens the port; NULL with the reason in err. */
struct osmre_client *osmre_client_open(const struct osmre_client_opts *o,
				       char *err, size_t errlen);
/* Leaves (when registered) and closes. */
void osmre_client_close(struct osmre_client *c);
/* Ends the request in progress (a WAIT held at the SM, say) within
 * 0.1 s: it returns -1 ("cancelled").  Async-signal-safe: for a SIGTERM
 * handler, before osmre_client_close. */
void osmre_client_cancel(struct osmre_client *c);

/* The requests, one answer each: 0, or -1 (osmre_client_error() says why). */
int osmre_client_register(struct osmre_client *c);
int osmre_client_poll(struct osmre_client *c, uint32_t *epoch, int *phase);
int osmre_client_ack(struct osmre_client *c, uint32_t epoch, int phase);
/* The client cannot move in (epoch, phase): its hook failed. */
int osmre_client_nack(struct osmre_client *c, uint32_t epoch, int phase);
int osmre_client_leave(struct osmre_client *c);

struct osmre_client_hooks {
	/* move off the base LIDs (drain, migrate to the high LIDs) / move
	 * back; return 0 when done: only then is the phase acked; anything
	 * else sends a NACK (the SM counts a miss and goes on without this
	 * client); each runs once per epoch and phase */
	int (*unpath)(void *arg, uint32_t epoch);
	int (*repath)(void *arg, uint32_t epoch);
	/* one line (no newline) per event; may be NULL */
	void (*log)(void *arg, const char *msg);
	void *arg;
};

/*
 * One poll and what it calls for: registers first (or again, when the SM
 * forgot the client, e.g. after dropping it or a restart without its saved
 * state); on UNPATH runs unpath once and acks (NACKs when it failed); on
 * REPATH runs repath when the client had moved, and acks (or NACKs); when
 * the SM is idle while
 * the client is still on the escape (a run abandoned, the client dropped)
 * runs repath.  0, or -1 when the SM did not answer.
 */
int osmre_client_step(struct osmre_client *c,
		      const struct osmre_client_hooks *h);

/* How long to sleep before the next step (ms): 0 while WAITs wait at the
 * SM, else the poll period the SM asks for. */
int osmre_client_poll_ms(const struct osmre_client *c);
/* 1 while the client is on the escape. */
int osmre_client_on_escape(const struct osmre_client *c);
const char *osmre_client_error(const struct osmre_client *c);
/* The port's base LID and GUID, and the subscriber id (0: none). */
unsigned osmre_client_lid(const struct osmre_client *c);
uint64_t osmre_client_guid(const struct osmre_client *c);
uint32_t osmre_client_id(const struct osmre_client *c);

#ifdef __cplusplus
}
#endif

#endif
