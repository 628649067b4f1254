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
	void *buf; /* umad buffer, one MAD */
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

#endif
