/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The five-phase property-preserving LFT update protocol (SAR slides,
 * "Property Preserving Network Updates"), as a state machine that knows
 * neither OpenSM nor MADs: time comes in as an argument, the routing and
 * the switches behind callbacks, subscribers through calls the transport
 * makes when their messages arrive.
 *
 *   IDLE --request--> COMPUTE: new base-LID tables; none changed -> IDLE
 *        UNPATH:  epoch k; every live subscriber moves to the high LIDs
 *                 (escape) and acks, or times out
 *        UPDATE:  the changed base-LID blocks are pushed; wait until every
 *                 switch holds them (pushed again every push_timeout)
 *        REPATH:  subscribers move back to the base LIDs and ack, or time
 *                 out
 *        COMMIT:  the new configuration is current; one log line -> IDLE
 *
 * - a request during a run is remembered: the runs coalesce into one more
 *   run after COMMIT;
 * - a topology change during a run abandons the computed configuration
 *   and restarts from COMPUTE with a new epoch (subscribers already on the
 *   escape simply ack again);
 * - an ack counts only for the current epoch and phase (older ones, and
 *   duplicates, are ignored);
 * - a subscriber that cannot move says so (a NACK: its hook failed) or
 *   does not answer within ack_timeout: either is a miss of that phase,
 *   and the run goes on without it (the commit line counts it).  Misses
 *   are counted per phase and only an ack of the same phase clears its
 *   count (a REPATH ack does not make good a failed UNPATH); a session
 *   whose counts add up to max_misses is dropped.  A session that
 *   registers from a port whose session was dropped takes over the
 *   dropped one's counts until it acks;
 * - sessions that register during a run join the next epoch: they are
 *   not waited for in this one (the transport tells them the phase and a
 *   client moves anyway; the SM does not count on it).
 *
 * Trust: a session belongs to its port.  The transport proves the
 * requester's port (its GUID and base LID, from the source LID of the MAD
 * resolved through the SM's port table) and every call below takes that
 * GUID: several sessions per port (one per client process, at most
 * max_per_port), each with its own random id; a registration never
 * touches another session, and POLL/ACK/NACK/LEAVE count only when the
 * port and the session id both match.  Ids are random 32-bit numbers
 * (getrandom): another process on the same port cannot guess one.  The
 * sessions are kept sorted by (GUID, id): every lookup is a binary
 * search.
 */
#ifndef OSMRE_UPDATE_H
#define OSMRE_UPDATE_H

#include <stdint.h>

enum upd_phase {
	UPD_IDLE = 0,
	UPD_COMPUTE = 1,
	UPD_UNPATH = 2,
	UPD_UPDATE = 3,
	UPD_REPATH = 4,
	UPD_COMMIT = 5,
};
#define UPD_NPHASES 6

const char *upd_phase_name(int phase);

struct upd_ops {
	/* COMPUTE: new tables from the current view; the number of changed
	 * base-LID blocks (0: nothing to do), < 0 on error */
	long (*compute)(void *ctx);
	/* UPDATE: push the changed blocks (again, after push_timeout) */
	int (*push)(void *ctx);
	/* 1 once every switch holds the new blocks */
	int (*pushed)(void *ctx);
	/* COMMIT: the new configuration becomes the current one */
	void (*commit)(void *ctx);
	/* the computed configuration is dropped (topology change, error) */
	void (*abandon)(void *ctx);
	/* the time after compute, which may take long (NULL: the tick's) */
	double (*now)(void *ctx);
	/* one log line (no newline); level 0 info, 1 error */
	void (*log)(void *ctx, int level, const char *msg);
	/* a new subscriber id (NULL: random, from getrandom; tests and the
	 * fuzzer give predictable ones) */
	uint32_t (*new_id)(void *ctx);
};

struct upd_opts {
	double ack_timeout;  /* s a subscriber has for each ack */
	double push_timeout; /* s before pushing again */
	int max_misses;	     /* misses (both phases' counts) before a drop */
	int max_subs;	     /* sessions in all; 0: no cap */
	int max_per_port;    /* sessions of one port; 0: no cap */
	/* WAIT (long poll): the least keep-alive period (s; 0: WAITs are
	 * answered at once, as POLLs), and the WAIT exchanges a second the
	 * sessions may cost between epochs, all together (the keep-alive
	 * grows with the sessions to stay within it) */
	double keepalive, idle_rate;
};

/* The phases a session acks, as indexes of its miss counts. */
enum { UPD_MISS_UNPATH, UPD_MISS_REPATH, UPD_MISS_N };

struct upd_sub {
	uint32_t id;		/* random, never 0 */
	uint64_t guid;		/* the session's port */
	uint16_t lid;		/* its base LID */
	int misses[UPD_MISS_N]; /* since the last ack of each phase */
	int inherited;		/* took over a dropped session's counts */
	uint32_t from_epoch;	/* the first epoch it takes part in */
	int asked;		/* must ack the current phase */
	int acked;
	double seen; /* last message */
	/* a held WAIT (updwait.c): its request, and the state the client
	 * reported (wait_since 0: none held) */
	uint64_t wait_tid;
	double wait_since;
	uint32_t wait_epoch;
	uint16_t wait_lid;
	uint8_t wait_phase;
	/* the answer that told it of the phase it must ack, sent again
	 * (same transaction) with back-off until it acks, in case it was
	 * lost: note_next 0 when none */
	uint64_t note_tid;
	double note_next, note_gap;
	uint16_t note_lid;
};

/* A held WAIT in keep-alive order, and an answer due (updwait.c). */
struct upd_hold {
	uint64_t guid;
	uint32_t id;
	double since;
};
struct upd_due {
	uint64_t guid, tid;
	uint32_t id;
	uint16_t lid;
};

/* The counts of a dropped session, kept for its port's next sessions. */
struct upd_strike {
	uint64_t guid;
	int misses[UPD_MISS_N];
};

/* Why update_subscribe refused. */
enum upd_refusal {
	UPD_REFUSE_NONE = 0,
	UPD_REFUSE_FULL, /* max_subs sessions */
	UPD_REFUSE_PORT, /* max_per_port sessions on this port */
	UPD_REFUSE_NOMEM,
};

struct update {
	struct upd_ops ops;
	void *ctx;
	struct upd_opts o;
	int phase;
	uint32_t epoch;
	int pending; /* a request came during a run */
	int topo;    /* a topology change came during a run */
	double t_run, t_phase, deadline;
	double dur[UPD_NPHASES];
	long blocks;
	int restarts;
	/* over the run: acks, NACKs, timeouts, drops, and UNPATH misses
	 * (sessions whose routes may change before they moved) */
	int acked, nacked, timed_out, dropped, unmoved;
	int nsub, cap;
	int waiting;	     /* sessions asked that have not answered */
	struct upd_sub *sub; /* sorted by (guid, id) */
	int nstrike, strike_cap;
	struct upd_strike *strike; /* sorted by guid */
	unsigned long runs;	   /* committed */
	/* held WAITs (updwait.c): in keep-alive order; answers due */
	struct upd_hold *hold;
	int hold_head, hold_n, hold_cap;
	struct upd_due *due;
	int due_head, due_n, due_cap;
	int held;	       /* WAITs held now */
	double last_hold;      /* the stamp of the last WAIT held */
	double resend_scan;    /* next look for answers to send again */
	double last_answer;    /* when the last ack or NACK of the phase came */
	unsigned long resent;  /* answers sent again */
	unsigned long notices; /* held WAITs answered */
	/* what the subscriber count covers, said on every commit line
	 * (NULL: every session, none lost): a new master or a refused
	 * sessions file knows only the clients that registered with it */
	const char *known;
};

void update_init(struct update *u, const struct upd_ops *ops, void *ctx,
		 const struct upd_opts *o);
void update_free(struct update *u);

/* A re-route request (SIGUSR2, a job change). */
void update_request(struct update *u);
/* The topology changed (OpenSM's view): restarts a run in progress. */
void update_topology(struct update *u);
/* Advances the machine; call often (every few ms), and after each call
 * below.  Never blocks, apart from the ops it calls. */
void update_tick(struct update *u, double now);

/* A new session of port guid (base LID lid): its id, or 0 with *why
 * (enum upd_refusal; why may be NULL).  Other sessions, the port's own
 * included, are not touched. */
uint32_t update_subscribe(struct update *u, uint64_t guid, uint16_t lid,
			  double now, int *why);
/* Subscriber id of port guid leaves; 0, or -1 when unknown. */
int update_unsubscribe(struct update *u, uint64_t guid, uint32_t id);
/* It asks for the state: fills epoch and phase; -1 when unknown (it
 * must register again). */
int update_poll(struct update *u, uint64_t guid, uint32_t id, double now,
		uint32_t *epoch, int *phase);
/* It acks (epoch, phase): 1 counted, 0 ignored (stale, duplicate, not
 * asked), -1 unknown subscriber. */
int update_ack(struct update *u, uint64_t guid, uint32_t id, uint32_t epoch,
	       int phase, double now);
/* It cannot move (its hook failed) in (epoch, phase): a miss at once;
 * 1 counted, 0 ignored, -1 unknown (as update_ack). */
int update_nack(struct update *u, uint64_t guid, uint32_t id, uint32_t epoch,
		int phase, double now);
/* The session (guid, id), or NULL. */
const struct upd_sub *update_session(const struct update *u, uint64_t guid,
				     uint32_t id);
/* The epoch and phase a restarted SM goes on from (updstate.c): the
 * epoch counter continues, and every session restored is asked from the
 * next epoch on. */
void update_resume(struct update *u, uint32_t epoch);
/* Restores a session (a restart): 0, or -1 (no memory, a duplicate). */
int update_restore(struct update *u, const struct upd_sub *s);
/* Sessions that sent nothing since time t (a restored session's client
 * sends again when the WAIT it had held by the old process times out). */
int update_unheard(const struct update *u, double t);
/* Restores a dropped session's counts for its port: 0, or -1. */
int update_restore_strike(struct update *u, const struct upd_strike *k);

/* ---- WAIT, the long poll (updwait.c) ---- */
/* The keep-alive period now (s): opts.keepalive, or more with many
 * sessions (nsub / idle_rate); 0: no WAIT. */
double update_keepalive(const struct update *u);
/*
 * Session id of port guid waits, having last seen (epoch, phase), its
 * answer to go to lid with transaction tid: 1 when it must be answered
 * now (the state it saw is not the SM's), 0 when held (answered later by
 * update_take_due), -1 unknown session.  A new WAIT replaces the
 * session's held one.
 */
int update_wait(struct update *u, uint64_t guid, uint32_t id, uint32_t epoch,
		int phase, uint64_t tid, uint16_t lid, double now);
/* The next held WAIT to answer now (a phase it must learn of, or its
 * keep-alive period over): 1 with *d, 0 when none is due. */
int update_take_due(struct update *u, double now, struct upd_due *d);
/* Called by the machine when the phase changes (at now): the held WAITs
 * that must learn of it become due. */
void update_waits_phase(struct update *u, double now);

#endif
