/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer: the update protocol's MAD decoding and the state machine.
 * The input is a script: each step is one byte of action, one byte
 * choosing the requester's port (one of 4, or none), then a MAD (its 256
 * bytes, shorter at the end).  Between steps the fake clock moves and
 * the machine ticks; the switches hold the blocks or not, requests and
 * topology changes come.  Checked: no crash, no leak, and the invariants
 * below after each step.
 */
#include <assert.h>
#include <string.h>

#include "fuzz.h"
#include "update.h"
#include "updwire.h"

struct fake {
	long changes;
	int have;
	uint32_t ids;
};

/* ids 1, 2, 3...: the fuzzer can name a subscriber */
static uint32_t f_id(void *ctx)
{
	return ++((struct fake *)ctx)->ids;
}

static long f_compute(void *ctx)
{
	return ((struct fake *)ctx)->changes;
}

static int f_push(void *ctx)
{
	(void)ctx;
	return 0;
}

static int f_pushed(void *ctx)
{
	return ((struct fake *)ctx)->have;
}

static const struct upd_ops ops = {
	.compute = f_compute,
	.push = f_push,
	.pushed = f_pushed,
	.new_id = f_id,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct updw_peer peers[5] = {
		{ 0, 0, 0 },	{ 0x10, 2, 3 },	 { 0x20, 4, 5 },
		{ 0x30, 6, 7 }, { 0x40, 8, 15 },
	};
	const struct upd_opts o = { .ack_timeout = 1.0,
				    .push_timeout = 2.0,
				    .max_misses = 2,
				    .max_subs = 3,
				    .max_per_port = 2,
				    .keepalive = 3.0,
				    .idle_rate = 1.0 };
	struct fake f = { 3, 1, 0 };
	struct update u;
	double now = 0;
	size_t i = 0;
	int k;

	update_init(&u, &ops, &f, &o);
	while (i + 2 <= size) {
		uint8_t act = data[i], who = data[i + 1];
		size_t n = size - i - 2 < UPDW_MAD_SIZE ? size - i - 2 :
							  UPDW_MAD_SIZE;
		const struct updw_peer *p = &peers[who % 5];
		struct updw_msg req, resp;
		uint64_t tid;
		int method, why;

		i += 2;
		if (act & 1)
			update_request(&u);
		if (act & 2)
			update_topology(&u);
		f.have = !(act & 4);
		f.changes = act >> 5;
		if (!updw_decode(data + i, n, 9, &req, &method, &tid)) {
			why = updw_serve(&u, &req, p,
					 (act & 8) ? "fuzz-key" : NULL, now,
					 100, 7, &resp);
			/* a refused requester learns nothing */
			if (why)
				assert(!resp.epoch && !resp.phase && !resp.sub);
			/* nobody registers for another port */
			if (req.op == UPDW_REGISTER && !why)
				assert(req.guid == p->guid && p->guid);
			assert(resp.reply_lid >= p->lid &&
			       resp.reply_lid <= p->lid_top);
			updw_reject_name(why);
		}
		i += n;
		now += (act >> 4 & 1) ? 1.5 : 0.01;
		update_tick(&u, now);
		/* the held WAITs' answers, at most a few at a time */
		for (k = 0; k < (act >> 6); k++) {
			struct upd_due d;

			if (update_take_due(&u, now, &d))
				assert(d.id && d.guid);
		}
		/* the counts kept are the counts */
		{
			int w = 0, h = 0;

			for (k = 0; k < u.nsub; k++) {
				w += u.sub[k].asked && !u.sub[k].acked;
				h += u.sub[k].wait_since > 0;
			}
			assert(w == u.waiting);
			assert(h == u.held);
		}
		/* sorted by (port, id), within the caps */
		assert(u.nsub <= 3);
		for (k = 1; k < u.nsub; k++) {
			assert(u.sub[k - 1].guid < u.sub[k].guid ||
			       (u.sub[k - 1].guid == u.sub[k].guid &&
				u.sub[k - 1].id < u.sub[k].id));
			assert(k < 2 || u.sub[k - 2].guid != u.sub[k].guid);
		}
		assert(u.phase >= UPD_IDLE && u.phase < UPD_NPHASES);
	}
	update_free(&u);
	return 0;
}
