/* SPDX-License-Identifier: BSD-2-Clause */
/* The update protocol's MADs (see updwire.h). */
#include <string.h>

#include "updwire.h"

#define HDR 24	/* MAD common header */

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)get16(p) << 16 | get16(p + 2);
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) << 32 | get32(p + 4);
}

void updw_encode(uint8_t *mad, int mgmt_class, int method, uint64_t tid,
		 const struct updw_msg *m)
{
	uint8_t *d = mad + HDR;

	memset(mad, 0, UPDW_MAD_SIZE);
	mad[0] = 1;			/* base version */
	mad[1] = (uint8_t)mgmt_class;
	mad[2] = UPDW_CLASS_VERSION;
	mad[3] = (uint8_t)method;
	put64(mad + 8, tid);
	put16(mad + 16, UPDW_ATTR);
	put32(d, UPDW_MAGIC);
	d[4] = UPDW_VERSION;
	d[5] = m->op;
	d[6] = m->phase;
	d[7] = m->result;
	put32(d + 8, m->sub);
	put32(d + 12, m->epoch);
	put64(d + 16, m->guid);
	put16(d + 24, m->lid);
	put16(d + 26, m->reply_lid);
	put16(d + 28, m->poll_ms);
	d[30] = m->sl;
}

int updw_decode(const uint8_t *mad, size_t len, int mgmt_class,
		struct updw_msg *m, int *method, uint64_t *tid)
{
	const uint8_t *d = mad + HDR;

	if (len < HDR + 32 || mad[0] != 1 || mad[1] != mgmt_class ||
	    mad[2] != UPDW_CLASS_VERSION || get16(mad + 16) != UPDW_ATTR ||
	    get32(d) != UPDW_MAGIC || d[4] != UPDW_VERSION)
		return -1;
	*method = mad[3];
	*tid = get64(mad + 8);
	m->op = d[5];
	m->phase = d[6];
	m->result = d[7];
	m->sub = get32(d + 8);
	m->epoch = get32(d + 12);
	m->guid = get64(d + 16);
	m->lid = get16(d + 24);
	m->reply_lid = get16(d + 26);
	m->poll_ms = get16(d + 28);
	m->sl = d[30];
	return 0;
}

void updw_serve(struct update *u, const struct updw_msg *req, double now,
		int poll_ms, int sl, struct updw_msg *resp)
{
	uint32_t epoch = u->epoch;
	int phase = u->phase, r;

	*resp = *req;
	resp->result = UPDW_OK;
	resp->poll_ms = (uint16_t)poll_ms;
	resp->sl = (uint8_t)sl;
	switch (req->op) {
	case UPDW_REGISTER:
		resp->sub = update_subscribe(u, req->guid, req->lid, now);
		if (!resp->sub)
			resp->result = UPDW_BAD;
		break;
	case UPDW_POLL:
		if (update_poll(u, req->sub, now, &epoch, &phase))
			resp->result = UPDW_UNKNOWN;
		break;
	case UPDW_ACK:
		r = update_ack(u, req->sub, req->epoch, req->phase, now);
		resp->result = r < 0 ? UPDW_UNKNOWN : r ? UPDW_OK : UPDW_IGNORED;
		break;
	case UPDW_LEAVE:
		if (update_unsubscribe(u, req->sub))
			resp->result = UPDW_UNKNOWN;
		break;
	default:
		resp->result = UPDW_BAD;
		break;
	}
	/* every answer carries the current state */
	resp->epoch = u->epoch;
	resp->phase = (uint8_t)u->phase;
}
