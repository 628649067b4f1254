/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: osmre.conf (the general options and the engines'), and the
 * topology specs it names. */
#include <string.h>

#include "engine_table.h"
#include "fuzz.h"
#include "options.h"
#include "pgft.h"

static void quiet(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	struct osmre_options o;
	struct pgft_params t;
	struct osmre_err err;

	options_defaults(&o);
	engine_options_add(&o);
	if (path)
		options_read(path, 0, &o, quiet, NULL);
	options_each(&o, quiet, NULL);
	options_free(&o);
	if (size < 512) {
		char *s = fuzz_string(data, size);

		topo_spec_parse(s, &t, &err);
		free(s);
	}
	return 0;
}
