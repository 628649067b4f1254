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
 * - a subscriber that times out max_misses phases in a row is dropped; an
 *   ack resets its count;
 * - subscribers that register during a run are asked from the next phase
 *   on (they are on the base LIDs while UNPATH is asked of the others: the
 *   transport tells them the phase, and they join in).
 *
 * Trust: a subscriber is its port.  The transport proves the requester's
 * port (its GUID and base LID, from the source LID of the MAD resolved
 * through the SM's port table) and every call below takes that GUID:
 * at most one subscriber per port, a registration replaces the port's
 * own entry only, and POLL/ACK/LEAVE count only when the port and the
 * subscriber id both match.  Ids are random 32-bit numbers (getrandom):
 * another process on the same port cannot guess one.  The subscribers
 * are kept sorted by GUID: every lookup is a binary search.
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
	int max_misses;	     /* timeouts in a row before a drop */
	int max_subs;	     /* subscribers in all; 0: no cap */
};

struct upd_sub {
	uint32_t id;   /* 0: free slot */
	uint64_t guid; /* the subscriber's port */
	uint16_t lid;  /* its base LID */
	int misses;
	int asked; /* must ack the current phase */
	int acked;
	double seen; /* last message */
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
	int acked, timed_out; /* over the run */
	int nsub, cap;
	struct upd_sub *sub; /* sorted by guid */
	unsigned long runs;  /* committed */
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

/* Port guid (base LID lid) registers, or registers again (a restarted
 * client: a new id, the old one unknown): returns its id, 0 when out of
 * memory or at max_subs. */
uint32_t update_subscribe(struct update *u, uint64_t guid, uint16_t lid,
			  double now);
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

#endif
