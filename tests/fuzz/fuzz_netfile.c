/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: the net file reader; what it accepts must write back. */
#include <stdio.h>

#include "fuzz.h"
#include "netfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	struct osmre_err err;
	struct fabric *f;
	FILE *null;

	if (!path || netfile_read(path, &f, &err))
		return 0;
	null = fopen("/dev/null", "w");
	if (null) {
		netfile_write(null, f);
		fclose(null);
	}
	fabric_free(f);
	return 0;
}
