/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: sar's job files, read against a fixed fabric. */
#include "fuzz.h"
#include "jobs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	struct osmre_err err;
	struct jobs j;

	if (path && !jobs_read(path, fuzz_fabric(), &j, &err))
		jobs_free(&j);
	return 0;
}
