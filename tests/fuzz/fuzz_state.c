/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer: what a restarted SM reads back from its cache directory, the
 * sessions (protocol/updstate.c) and the committed tables (staging_file.c).
 * The first byte picks which; either is refused whole or read whole, and
 * what was read writes back (sessions) or serves path SLs (tables).
 */
#define _GNU_SOURCE
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "staging.h"
#include "updstate.h"

static long f_compute(void *ctx)
{
	(void)ctx;
	return 0;
}

static int f_push(void *ctx)
{
	(void)ctx;
	return 0;
}

static const struct upd_ops ops = {
	.compute = f_compute,
	.push = f_push,
	.pushed = f_push,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *fp;

	if (size < 2)
		return 0;
	fp = fmemopen((void *)(data + 1), size - 1, "r");
	if (!fp)
		return 0;
	if (data[0] & 1) {
		struct upd_opts o = { .ack_timeout = 1,
				      .max_misses = 2,
				      .max_subs = 64 };
		struct update u;
		char err[300];

		update_init(&u, &ops, NULL, &o);
		if (!updstate_read(fp, &u, err, sizeof(err))) {
			char *out = NULL;
			size_t len;
			FILE *w = open_memstream(&out, &len);
			int k;

			assert(u.nsub <= 64);
			for (k = 1; k < u.nsub; k++)
				assert(u.sub[k - 1].guid < u.sub[k].guid ||
				       (u.sub[k - 1].guid == u.sub[k].guid &&
					u.sub[k - 1].id < u.sub[k].id));
			if (w) {
				updstate_write(w, &u);
				fclose(w);
			}
			free(out);
		} else {
			assert(!u.nsub && !u.nstrike && strstr(err, "line "));
		}
		update_free(&u);
	} else {
		struct staging st;
		struct osmre_err err;

		if (!staging_init(&st, 1)) {
			if (!staging_load(&st, fp, (long)(size - 1), &err)) {
				unsigned a;

				for (a = 0; a < 64; a++)
					staging_path_sl(&st, a, 63 - a);
			}
			staging_free(&st);
		}
	}
	fclose(fp);
	return 0;
}
