/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The update protocol on the wire: MADs of a vendor-specific management
 * class (range 0x09-0x0F, no OUI; default 0x09, osmre.conf's
 * update_mgmt_class), class version 1, attribute 0xFF10.  Subscribers send
 * requests to the SM's port (Set: REGISTER, ACK, LEAVE; Get: POLL) and
 * the SM answers each with a GetResp carrying the same transaction ID, so
 * the protocol needs no unsolicited MAD (ibsim delivers none to ordinary
 * clients) and the SM never waits on a subscriber.
 *
 * Both sides address the other's escape LID (base + 1, routed by up*-down*
 * and never changed by a job-driven update), so the protocol's own MADs
 * are not disturbed by the tables they announce.
 *
 * Payload, at byte 24 of the 256-byte MAD, big-endian:
 *   0  u32 magic 0x4F535245 ("OSRE")
 *   4  u8  version (1)   5 u8 op   6 u8 phase   7 u8 result
 *   8  u32 subscriber id (0 in REGISTER)
 *   12 u32 epoch
 *   16 u64 port GUID of the subscriber
 *   24 u16 its base LID   26 u16 the LID to answer (its escape LID)
 *   28 u16 poll period the SM asks for, in ms (in answers)
 *   30 u8  the escape's SL (in answers: the SL of the MADs to come)
 */
#ifndef OSMRE_UPDWIRE_H
#define OSMRE_UPDWIRE_H

#include <stddef.h>
#include <stdint.h>

#include "update.h"

#define UPDW_MAD_SIZE 256
#define UPDW_CLASS_DEFAULT 0x09
#define UPDW_CLASS_VERSION 1
#define UPDW_ATTR 0xFF10
#define UPDW_MAGIC 0x4F535245u
#define UPDW_VERSION 1

#define UPDW_METHOD_GET 0x01
#define UPDW_METHOD_SET 0x02
#define UPDW_METHOD_GET_RESP 0x81

enum updw_op {
	UPDW_REGISTER = 1,
	UPDW_POLL = 2,
	UPDW_ACK = 3,
	UPDW_LEAVE = 4,
};

enum updw_result {
	UPDW_OK = 0,
	UPDW_UNKNOWN = 1,	/* no such subscriber: register again */
	UPDW_IGNORED = 2,	/* a stale or duplicate ack */
	UPDW_BAD = 3,		/* malformed, or no memory */
};

struct updw_msg {
	uint8_t op, phase, result;
	uint32_t sub, epoch;
	uint64_t guid;
	uint16_t lid, reply_lid, poll_ms;
	uint8_t sl;
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

/* The SM side: the answer to request req from the state machine u. */
void updw_serve(struct update *u, const struct updw_msg *req, double now,
		int poll_ms, int sl, struct updw_msg *resp);

#endif
