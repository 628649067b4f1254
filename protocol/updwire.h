/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The update protocol on the wire: MADs of a vendor-specific management
 * class (range 0x09-0x0F, no OUI; default 0x09, osmre.conf's
 * update_mgmt_class), class version 1, attribute 0xFF10.  Subscribers send
 * requests to the SM's port (Set: REGISTER, ACK, NACK, LEAVE; Get: POLL,
 * WAIT, ACKWAIT) and
 * the SM answers each with a GetResp carrying the same transaction ID, so
 * the protocol needs no unsolicited MAD (ibsim delivers none to ordinary
 * clients) and the SM never waits on a subscriber.
 *
 * Both sides address the other's escape LID (base + 1, routed by up*-down*
 * and never changed by a job-driven update), so the protocol's own MADs
 * are not disturbed by the tables they announce.
 *
 * Payload, at byte 24 of the 256-byte MAD, big-endian: the UPDW_OFF_*
 * offsets below (osmre(8) gives the same table; tests/wire_doc.sh keeps
 * them in step).  Compatibility: a MAD of another version is not ours
 * (dropped unanswered); within a version, new operations and results may
 * be added: an SM answers an operation it does not know "bad", a client
 * treats a result it does not know as a refusal.
 *
 * Trust (osmre(8), SECURITY): the SM identifies a requester by the source
 * LID of its MAD, resolved through its own port table (struct
 * updw_peer), never by the payload: a REGISTER is taken only for the
 * GUID that owns that LID, POLL/ACK/LEAVE only from the registered port,
 * and answers go only to that port's LIDs.  A requester the SM does not
 * accept learns nothing: its answer carries no epoch, phase or id.
 */
#ifndef OSMRE_UPDWIRE_H
#define OSMRE_UPDWIRE_H

#include <stddef.h>
#include <stdint.h>

#include "update.h"

#define UPDW_MAD_SIZE	   256
#define UPDW_CLASS_DEFAULT 0x09
#define UPDW_CLASS_VERSION 1
#define UPDW_ATTR	   0xFF10
#define UPDW_MAGIC	   0x4F535245u
#define UPDW_VERSION	   2
#define UPDW_KEY_MAX	   32

/* The payload's fields: offset from byte 24, then "type name" as
 * osmre(8) writes it. */
#define UPDW_HDR	   24
#define UPDW_OFF_MAGIC	   0  /* u32 magic */
#define UPDW_OFF_VERSION   4  /* u8 version */
#define UPDW_OFF_OP	   5  /* u8 op */
#define UPDW_OFF_PHASE	   6  /* u8 phase */
#define UPDW_OFF_RESULT	   7  /* u8 result */
#define UPDW_OFF_SUB	   8  /* u32 session */
#define UPDW_OFF_EPOCH	   12 /* u32 epoch */
#define UPDW_OFF_GUID	   16 /* u64 port */
#define UPDW_OFF_LID	   24 /* u16 base */
#define UPDW_OFF_REPLY	   26 /* u16 reply */
#define UPDW_OFF_POLL	   28 /* u16 poll */
#define UPDW_OFF_SL	   30 /* u8 sl */
#define UPDW_OFF_KEY	   32 /* u8[32] key */
#define UPDW_OFF_KEEPALIVE 64 /* u32 keepalive */
#define UPDW_PAYLOAD_SIZE  68

#define UPDW_METHOD_GET	     0x01
#define UPDW_METHOD_SET	     0x02
#define UPDW_METHOD_GET_RESP 0x81

enum updw_op {
	UPDW_REGISTER = 1,
	UPDW_POLL = 2,
	UPDW_ACK = 3,
	UPDW_LEAVE = 4,
	UPDW_NACK = 5,	  /* the hook of (epoch, phase) failed: cannot move */
	UPDW_WAIT = 6,	  /* a POLL answered when there is news (a long poll) */
	UPDW_ACKWAIT = 7, /* ACK of (epoch, phase), then a WAIT that saw it */
};

enum updw_result {
	UPDW_OK = 0,
	UPDW_UNKNOWN = 1,   /* no such subscriber: register again */
	UPDW_IGNORED = 2,   /* a stale or duplicate ack */
	UPDW_BAD = 3,	    /* malformed, or no memory */
	UPDW_DENIED = 4,    /* not the sender's port, or a wrong key */
	UPDW_FULL = 5,	    /* update_max_subscribers reached */
	UPDW_PORT_FULL = 6, /* update_max_sessions_per_port reached */
	UPDW_NO_ESCAPE = 7, /* the escape VL is missing on some port: the
			     * protocol is off until it is there */
};

/* Why updw_serve turned a request down (0: it did not), for the log. */
enum updw_reject {
	UPDW_REJ_NONE = 0,
	UPDW_REJ_NO_PORT,   /* the source LID is no port of the subnet */
	UPDW_REJ_GUID,	    /* REGISTER for another port's GUID */
	UPDW_REJ_KEY,	    /* wrong or missing shared key */
	UPDW_REJ_UNKNOWN,   /* no such subscriber on that port */
	UPDW_REJ_FULL,	    /* update_max_subscribers reached */
	UPDW_REJ_BAD,	    /* an unknown operation, or no memory */
	UPDW_REJ_PORT_FULL, /* update_max_sessions_per_port reached */
};

/* What the transport proves about a requester: the port that owns the
 * MAD's source LID (guid 0: none does), its base LID and LMC range. */
struct updw_peer {
	uint64_t guid;
	uint16_t lid, lid_top;
};

struct updw_msg {
	uint8_t op, phase, result;
	uint32_t sub, epoch;
	uint64_t guid;
	uint16_t lid, reply_lid, poll_ms;
	uint8_t sl;
	uint32_t keepalive_ms; /* in answers: how long a WAIT may be held */
	uint8_t key[UPDW_KEY_MAX];
};

/* A whole MAD (UPDW_MAD_SIZE bytes): header and payload. */
void updw_encode(uint8_t *mad, int mgmt_class, int method, uint64_t tid,
		 const struct updw_msg *m);
/*
 * Reads a MAD of class mgmt_class with our attribute and magic; returns 0
 * and fills m, method and tid, or -1 (anything else: not ours).
 */
int updw_decode(const uint8_t *mad, size_t len, int mgmt_class,
		struct updw_msg *m, int *method, uint64_t *tid);

/*
 * The SM side: the answer to request req from peer (what the transport
 * proved), with key the shared key (NULL or "": none), from the state
 * machine u.  Returns why it was turned down (UPDW_REJ_NONE: it was not);
 * a turned-down request gets an answer with no epoch, phase or id.
 */
int updw_serve(struct update *u, const struct updw_msg *req,
	       const struct updw_peer *peer, const char *key, double now,
	       int poll_ms, int sl, struct updw_msg *resp);
/*
 * As updw_serve, for a request that came with transaction tid: *held is
 * set when the request is a WAIT the SM holds (no answer now: the
 * transport answers it when update_take_due gives it back, with
 * updw_notice).
 */
int updw_serve_tid(struct update *u, const struct updw_msg *req,
		   const struct updw_peer *peer, const char *key, double now,
		   int poll_ms, int sl, uint64_t tid, struct updw_msg *resp,
		   int *held);
/* The answer to a held WAIT d (update_take_due): the SM's state now. */
void updw_notice(const struct update *u, const struct upd_due *d, int poll_ms,
		 int sl, struct updw_msg *resp);
const char *updw_reject_name(int why);

/* The LID to answer req from peer on: the one it asks for when it is one
 * of the peer's own LIDs, else the base LID. */
uint16_t updw_reply_lid(const struct updw_msg *req,
			const struct updw_peer *peer);

/* Copies key (at most UPDW_KEY_MAX bytes, NULL: none) into m, padded. */
void updw_set_key(struct updw_msg *m, const char *key);

/* The log lines' tail " (N line(s) held back)" for held lines held
 * back by the rate limit, in buf; returns buf. */
const char *updw_held_note(long held, char *buf, size_t size);

/* A token bucket: at most rate events a second, rate at once. */
struct updw_bucket {
	double t;      /* last refill */
	double tokens; /* what may pass now */
};
/* 1 when one more event may pass now (and takes its token). */
int updw_bucket_take(struct updw_bucket *b, double now, double rate);

/* Log rate limiting: at most burst lines per window seconds. */
struct updw_ratelimit {
	double start;
	int n;
	long suppressed; /* lines held back in the window gone */
};
/* 1 when one more line may be logged now; *held: the lines held back
 * since the last line allowed (to say so in it). */
int updw_ratelimit_ok(struct updw_ratelimit *r, double now, int burst,
		      double window, long *held);

#endif
