/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libibumad glue shared by the plugin (the SM side of the update
 * protocol) and libosmre-client: open a port, register an agent of the
 * protocol's vendor class, send and receive one MAD.
 */
#ifndef OSMRE_UMADPORT_H
#define OSMRE_UMADPORT_H

#include <stddef.h>
#include <stdint.h>

struct umad_link {
	int fd, agent;
	char ca[64];
	int port;
	uint64_t guid; /* port GUID, host order */
	unsigned lid, lmc, sm_lid;
	void *buf;     /* umad buffer, one MAD */
	int smp_agent; /* umadport_sm_lid's (-1: none yet, -2: refused) */
	/* a MAD of the protocol's that came while umadport_sm_lid waited:
	 * umadport_recv's next (stash_len 0: none) */
	uint8_t stash[256];
	int stash_len;
	unsigned stash_slid;
};

/*
 * Opens port `port` of CA `ca` (NULL / 0: the first active port of the
 * first CA that has one), or, when guid is not 0, the port with that GUID;
 * registers an agent for mgmt_class, taking requests (Get, Set) when
 * server is set.  0, or -1 with why in err.
 */
int umadport_open(struct umad_link *l, const char *ca, int port, uint64_t guid,
		  int mgmt_class, int server, char *err, size_t errlen);
void umadport_close(struct umad_link *l);
/* Sends a 256-byte MAD to dlid (QP1); a request with timeout_ms > 0 (the
 * kernel matches its response by it), a response with 0. */
int umadport_send(struct umad_link *l, const uint8_t *mad, unsigned dlid,
		  int sl, int timeout_ms);
/* Receives one MAD within timeout_ms: its length, 0 on timeout, -1 on an
 * error; *slid is the sender's LID. */
int umadport_recv(struct umad_link *l, uint8_t *mad, size_t size,
		  unsigned *slid, int timeout_ms);

/*
 * The port's master SM LID now (a new master sets it in every port's
 * PortInfo): the port's own PortInfo, asked with a directed-route SMP of
 * no hop where this process may send SMPs (an agent of class 0x81), else
 * the port's attributes (sysfs: the kernel follows the SM; under ibsim's
 * umad2sim a snapshot of the start, which the SMP is not).  Into
 * *sm_lid; 0, or -1 when neither answered.  Not in the SM's own process
 * (its agent of class 0x81 is OpenSM's).
 */
int umadport_sm_lid(struct umad_link *l, unsigned *sm_lid, int timeout_ms);

#endif
