/* SPDX-License-Identifier: BSD-2-Clause */
/* libibumad glue (see umadport.h). */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <infiniband/umad.h>

#include "umadport.h"

#define MAD_SIZE 256
#define QP1_QKEY 0x80010000

/* Fills l's CA and port: the one asked for, or the first active one. */
static int pick_port(struct umad_link *l, const char *ca, int port,
		     uint64_t guid)
{
	char names[32][UMAD_CA_NAME_LEN];
	int n = umad_get_cas_names(names, 32), i, p;

	for (i = 0; i < n; i++) {
		umad_ca_t c;

		if (ca && *ca && strcmp(ca, names[i]))
			continue;
		if (umad_get_ca(names[i], &c) < 0)
			continue;
		for (p = 1; p <= c.numports && p < UMAD_CA_MAX_PORTS; p++) {
			umad_port_t *pt = c.ports[p];

			if (!pt || (port && p != port))
				continue;
			if (guid ? be64toh(pt->port_guid) != guid :
				   pt->state != 4)
				continue;
			snprintf(l->ca, sizeof(l->ca), "%.63s", names[i]);
			l->port = p;
			l->guid = be64toh(pt->port_guid);
			l->lid = pt->base_lid;
			l->lmc = pt->lmc;
			l->sm_lid = pt->sm_lid;
			umad_release_ca(&c);
			return 0;
		}
		umad_release_ca(&c);
	}
	return -1;
}

int umadport_open(struct umad_link *l, const char *ca, int port, uint64_t guid,
		  int mgmt_class, int server, char *err, size_t errlen)
{
	long mask[16 / sizeof(long)];

	memset(l, 0, sizeof(*l));
	l->fd = l->agent = -1;
	l->smp_agent = -1;
	if (umad_init() < 0) {
		snprintf(err, errlen, "cannot initialise libibumad");
		return -1;
	}
	if (pick_port(l, ca, port, guid)) {
		if (guid)
			snprintf(err, errlen, "no port with GUID 0x%016llx",
				 (unsigned long long)guid);
		else
			snprintf(err, errlen, "no active port%s%s",
				 ca ? " on " : "", ca ? ca : "");
		return -1;
	}
	l->fd = umad_open_port(l->ca, l->port);
	if (l->fd < 0) {
		snprintf(err, errlen, "cannot open %s port %d: %s", l->ca,
			 l->port, strerror(-l->fd));
		return -1;
	}
	/* the SM's side never waits on a send: one that cannot go now fails
	 * and is counted (under umad2sim the descriptor is not a real one
	 * and this does nothing; the SM's rate caps bound its sends there) */
	if (server) {
		struct stat sb;
		int fl = fstat(l->fd, &sb) || !S_ISCHR(sb.st_mode) ?
				 -1 :
				 fcntl(l->fd, F_GETFL);

		if (fl >= 0)
			fcntl(l->fd, F_SETFL, fl | O_NONBLOCK);
	}
	memset(mask, 0, sizeof(mask));
	mask[0] = (1L << 1) | (1L << 2); /* Get, Set */
	l->agent = umad_register(l->fd, mgmt_class, 1, 0, server ? mask : NULL);
	l->buf = umad_alloc(1, umad_size() + MAD_SIZE);
	if (l->agent < 0 || !l->buf) {
		snprintf(
			err, errlen,
			"cannot register an agent of class 0x%02x on %s port %d",
			mgmt_class, l->ca, l->port);
		umadport_close(l);
		return -1;
	}
	return 0;
}

void umadport_close(struct umad_link *l)
{
	if (l->agent >= 0)
		umad_unregister(l->fd, l->agent);
	if (l->fd >= 0)
		umad_close_port(l->fd);
	umad_free(l->buf);
	l->buf = NULL;
	l->fd = l->agent = -1;
}

int umadport_send(struct umad_link *l, const uint8_t *mad, unsigned dlid,
		  int sl, int timeout_ms)
{
	memset(l->buf, 0, umad_size() + MAD_SIZE);
	memcpy(umad_get_mad(l->buf), mad, MAD_SIZE);
	umad_set_addr(l->buf, (int)dlid, 1, sl, QP1_QKEY);
	/* no retries of the kernel's: the protocol repeats itself */
	return umad_send(l->fd, l->agent, l->buf, MAD_SIZE, timeout_ms, 0) < 0 ?
		       -1 :
		       0;
}

int umadport_recv(struct umad_link *l, uint8_t *mad, size_t size,
		  unsigned *slid, int timeout_ms)
{
	int len = MAD_SIZE, rc;

	if (l->stash_len) {
		len = l->stash_len > (int)size ? (int)size : l->stash_len;
		memcpy(mad, l->stash, (size_t)len);
		*slid = l->stash_slid;
		l->stash_len = 0;
		return len;
	}

	rc = umad_recv(l->fd, l->buf, &len, timeout_ms);
	if (rc < 0)
		return rc == -ETIMEDOUT ? 0 : -1;
	if (umad_status(l->buf)) /* a send of ours that failed */
		return 0;
	if (len > (int)size)
		len = (int)size;
	memcpy(mad, umad_get_mad(l->buf), (size_t)len);
	*slid = be16toh(umad_get_mad_addr(l->buf)->lid);
	return len;
}

#define SMP_CLASS_DR	  0x81
#define SMP_ATTR_PORTINFO 0x0015

static void put64(uint8_t *p, uint64_t v)
{
	int i;

	for (i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

int umadport_sm_lid(struct umad_link *l, unsigned *sm_lid, int timeout_ms)
{
	uint8_t mad[MAD_SIZE];
	umad_port_t pt;
	uint64_t tid = ((uint64_t)0x534d << 32) | (uint32_t)rand();
	int got = -1, len;

	/* the port's attributes first: the answer when no SMP can go */
	if (!umad_get_port(l->ca, l->port, &pt)) {
		*sm_lid = pt.sm_lid;
		umad_release_port(&pt);
		got = 0;
	}
	if (l->smp_agent == -1) {
		l->smp_agent = umad_register(l->fd, SMP_CLASS_DR, 1, 0, NULL);
		if (l->smp_agent < 0)
			l->smp_agent = -2; /* not allowed here: sysfs only */
	}
	if (l->smp_agent < 0)
		return got;
	/* SubnGet(PortInfo) of this port, directed route of no hop */
	memset(mad, 0, sizeof(mad));
	mad[0] = 1;
	mad[1] = SMP_CLASS_DR;
	mad[2] = 1;
	mad[3] = 0x01; /* Get */
	put64(mad + 8, tid);
	mad[16] = SMP_ATTR_PORTINFO >> 8;
	mad[17] = SMP_ATTR_PORTINFO & 0xff;
	mad[23] = (uint8_t)l->port;
	mad[32] = mad[33] = mad[34] = mad[35] = 0xff; /* DrSLID, DrDLID */
	memset(l->buf, 0, umad_size() + MAD_SIZE);
	memcpy(umad_get_mad(l->buf), mad, MAD_SIZE);
	umad_set_addr(l->buf, 0xffff, 0, 0, 0);
	if (umad_send(l->fd, l->smp_agent, l->buf, MAD_SIZE, timeout_ms, 0) < 0)
		return got;
	for (;;) {
		const uint8_t *in;

		len = MAD_SIZE;
		if (umad_recv(l->fd, l->buf, &len, timeout_ms) < 0 ||
		    umad_status(l->buf))
			return got;
		in = umad_get_mad(l->buf);
		/* a MAD of the protocol's: kept for umadport_recv */
		if (in[1] != SMP_CLASS_DR) {
			memcpy(l->stash, in, MAD_SIZE);
			l->stash_len = len > MAD_SIZE ? MAD_SIZE : len;
			l->stash_slid = be16toh(umad_get_mad_addr(l->buf)->lid);
			continue;
		}
		/* (the kernel and the simulator own the TID's high 32 bits) */
		if (in[3] != 0x81 || (uint32_t)get64(in + 8) != (uint32_t)tid)
			continue;
		*sm_lid = (unsigned)in[64 + 18] << 8 | in[64 + 19];
		return 0;
	}
}
