/* SPDX-License-Identifier: BSD-2-Clause */
/* libibumad glue (see umadport.h). */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
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
