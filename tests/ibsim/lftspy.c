/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lftspy: an LD_PRELOAD library for OpenSM under umad2sim (listed before
 * libumad2sim.so) that records every LinearForwardingTable SMP OpenSM
 * sends or receives, for tests/ibsim/update_monitor.sh.  It wraps
 * libibumad's umad_send and umad_recv, learns which switch each directed
 * route leads to from OpenSM's own NodeInfo answers, and appends one line
 * per MAD to $LFTSPY_LOG (wall-clock seconds, nanoseconds):
 *
 *   T set GUID BLOCK TID          a Set of block BLOCK left for switch GUID
 *   T resp GUID BLOCK TID ST HEX  a GetResp: the block as the switch holds
 *                                 it now (status ST, 64 ports in hex)
 *
 * GUID is "path:P,P,..." while the route is not known.  Built by the test
 * with ${CC:-cc} -shared -fPIC; no other dependency.
 *
 * It also loses one update-protocol answer on demand: while the file
 * $LFTSPY_DROP exists, the next answer of the SM (vendor class 0x09,
 * attribute 0xFF10, a WAIT's answer) that tells of UNPATH is not sent
 * (umad_send returns as if it was), the file is removed and a line
 *   T drop LID TID
 * is logged: a notice lost on the wire.  Likewise, while $LFTSPY_DROP_ACK
 * exists, the next ACKWAIT (op 7, an ack that waits) that reaches the SM
 * is swallowed (umad_recv waits for the next MAD instead), the file is
 * removed and "T dropack LID TID" logged: an ack lost on the wire.
 *
 * And it kills OpenSM in the middle of an update on demand: once the file
 * $LFTSPY_DIE exists (it holds a number N), the N-th LFT Set sent from
 * then on is the last: "T die N" is logged and OpenSM killed with
 * SIGKILL right after that Set left (the file is removed).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include <infiniband/umad.h>

#define CLASS_LID	0x01
#define CLASS_DR	0x81
#define ATTR_NODE_INFO	0x0011
#define ATTR_LFT	0x0019
#define METHOD_SET	0x02
#define METHOD_GET_RESP 0x81
#define MAX_PATHS	8192

struct route {
	uint8_t n;     /* hops */
	uint8_t p[64]; /* initial path, ports 1..n */
	uint64_t guid;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct route routes[MAX_PATHS];
static int nroutes, out = -2;
static int (*real_send)(int, int, void *, int, int, int);
static int (*real_recv)(int, void *, int *, int);

static uint64_t be64(const uint8_t *b)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | b[i];
	return v;
}

static uint32_t be32(const uint8_t *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	       (uint32_t)b[2] << 8 | b[3];
}

/* The route's entry (mu held); NULL when the table is full. */
static struct route *route_of(const uint8_t *mad, int add)
{
	uint8_t n = mad[7] & 63;
	int i;

	for (i = 0; i < nroutes; i++)
		if (routes[i].n == n && !memcmp(routes[i].p, mad + 129, n))
			return &routes[i];
	if (!add || nroutes == MAX_PATHS)
		return NULL;
	routes[nroutes].n = n;
	memcpy(routes[nroutes].p, mad + 129, n);
	return &routes[nroutes++];
}

/* "GUID", or "path:..." (mu held) */
static void switch_name(const uint8_t *mad, char *buf, size_t len)
{
	struct route *r = NULL;
	size_t k;
	int i;

	if (mad[1] == CLASS_DR)
		r = route_of(mad, 0);
	if (r && r->guid) {
		snprintf(buf, len, "%016llx", (unsigned long long)r->guid);
		return;
	}
	if (mad[1] != CLASS_DR) {
		snprintf(buf, len, "lid:%u",
			 (unsigned)(mad[34] << 8 | mad[35]));
		return;
	}
	k = (size_t)snprintf(buf, len, "path:0");
	for (i = 0; i < (mad[7] & 63) && k + 5 < len; i++)
		k += (size_t)snprintf(buf + k, len - k, ",%u", mad[129 + i]);
}

static void emit(const char *line)
{
	if (out == -2) {
		const char *f = getenv("LFTSPY_LOG");

		out = f ? open(f, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
			       0644) :
			  -1;
	}
	if (out >= 0 && write(out, line, strlen(line)) < 0) {
		/* nothing to do: the monitor will miss the line */
	}
}

static void look(const uint8_t *mad, int sent)
{
	unsigned attr = (unsigned)(mad[16] << 8 | mad[17]);
	char line[400], sw[300];
	struct timespec ts;
	size_t k;
	int i;

	if (mad[1] != CLASS_DR && mad[1] != CLASS_LID)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	pthread_mutex_lock(&mu);
	if (!sent && attr == ATTR_NODE_INFO && mad[1] == CLASS_DR &&
	    mad[3] == METHOD_GET_RESP && !(be32(mad + 4) >> 16 & 0x7fff)) {
		struct route *r = route_of(mad, 1);

		if (r)
			r->guid = be64(mad + 64 + 12);
	}
	if (attr != ATTR_LFT) {
		pthread_mutex_unlock(&mu);
		return;
	}
	switch_name(mad, sw, sizeof(sw));
	pthread_mutex_unlock(&mu);
	if (sent && mad[3] == METHOD_SET) {
		snprintf(line, sizeof(line), "%ld.%09ld set %s %u %08x\n",
			 (long)ts.tv_sec, ts.tv_nsec, sw, be32(mad + 20),
			 be32(mad + 12));
	} else if (!sent && mad[3] == METHOD_GET_RESP) {
		k = (size_t)snprintf(line, sizeof(line),
				     "%ld.%09ld resp %s %u %08x %u ",
				     (long)ts.tv_sec, ts.tv_nsec, sw,
				     be32(mad + 20), be32(mad + 12),
				     (unsigned)(mad[4] << 8 | mad[5]) & 0x7fff);
		for (i = 0; i < 64; i++)
			k += (size_t)snprintf(line + k, sizeof(line) - k,
					      "%02x", mad[64 + i]);
		snprintf(line + k, sizeof(line) - k, "\n");
	} else {
		return;
	}
	emit(line);
}

/* 1 when mad is an update-protocol MAD (class 0x09, attribute 0xFF10) of
 * method and op, and the file $env exists (then removed): to be lost,
 * logged as "T kind LID TID". */
static int lose_if(const char *env, const char *kind, int method, int op,
		   const uint8_t *mad, const struct ib_user_mad *u)
{
	const char *f = getenv(env);
	struct timespec ts;
	char line[128];

	if (!f || mad[1] != 0x09 || mad[3] != method ||
	    (mad[16] << 8 | mad[17]) != 0xFF10 || mad[24 + 5] != op ||
	    access(f, F_OK) || unlink(f))
		return 0;
	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(line, sizeof(line), "%ld.%09ld %s %u %016llx\n",
		 (long)ts.tv_sec, ts.tv_nsec, kind,
		 (unsigned)(ntohs(u->addr.lid)),
		 (unsigned long long)be64(mad + 8));
	pthread_mutex_lock(&mu);
	emit(line);
	pthread_mutex_unlock(&mu);
	return 1;
}

/* An answer to a WAIT that tells of UNPATH, while $LFTSPY_DROP exists. */
static int lose(const uint8_t *mad, const struct ib_user_mad *u)
{
	return mad[24 + 6] == 2 &&
	       lose_if("LFTSPY_DROP", "drop", METHOD_GET_RESP, 6, mad, u);
}

/* After an LFT Set left: the countdown of $LFTSPY_DIE, SIGKILL at 0. */
static void die_after(const uint8_t *mad)
{
	static int left = -1;
	const char *f = getenv("LFTSPY_DIE");
	struct timespec ts;
	char line[128];
	FILE *fp;
	int n = 0;

	if (!f || mad[3] != METHOD_SET ||
	    (unsigned)(mad[16] << 8 | mad[17]) != ATTR_LFT)
		return;
	if (left < 0) {
		fp = fopen(f, "r");
		if (!fp)
			return;
		if (fscanf(fp, "%d", &n) != 1 || n < 1)
			n = 1;
		fclose(fp);
		unlink(f);
		left = n;
	}
	if (--left)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(line, sizeof(line), "%ld.%09ld die\n", (long)ts.tv_sec,
		 ts.tv_nsec);
	pthread_mutex_lock(&mu);
	emit(line);
	pthread_mutex_unlock(&mu);
	kill(getpid(), SIGKILL);
}

int umad_send(int portid, int agentid, void *umad, int length, int timeout_ms,
	      int retries)
{
	int rc;

	if (!real_send)
		real_send = (int (*)(int, int, void *, int, int,
				     int))dlsym(RTLD_NEXT, "umad_send");
	if (umad && length >= 256) {
		const uint8_t *mad =
			(const uint8_t *)umad + sizeof(struct ib_user_mad);

		look(mad, 1);
		if (lose(mad, umad))
			return 0;
	}
	rc = real_send(portid, agentid, umad, length, timeout_ms, retries);
	if (umad && length >= 256)
		die_after((const uint8_t *)umad + sizeof(struct ib_user_mad));
	return rc;
}

/* An ACKWAIT that reaches the SM, while $LFTSPY_DROP_ACK exists. */
static int lose_ack(const uint8_t *mad, const struct ib_user_mad *u)
{
	return lose_if("LFTSPY_DROP_ACK", "dropack", 0x01, 7, mad, u);
}

int umad_recv(int portid, void *umad, int *length, int timeout_ms)
{
	int rc, cap = length ? *length : 0;

	if (!real_recv)
		real_recv = (int (*)(int, void *, int *,
				     int))dlsym(RTLD_NEXT, "umad_recv");
	for (;;) {
		rc = real_recv(portid, umad, length, timeout_ms);
		if (rc < 0 || !umad || !length || *length < 256)
			return rc;
		if (!lose_ack((const uint8_t *)umad +
				      sizeof(struct ib_user_mad),
			      umad))
			break;
		*length = cap; /* lost: the next one */
	}
	look((const uint8_t *)umad + sizeof(struct ib_user_mad), 0);
	return rc;
}
