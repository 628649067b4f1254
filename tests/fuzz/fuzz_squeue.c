/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: Slurm hostlists and squeue output (jobwatch), and the job
 * file jobwatch reads back. */
#include <stdlib.h>

#include "fuzz.h"
#include "hostlist.h"
#include "jobwatch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);
	const char *path;
	struct hostlist h = { 0 };
	struct jw_list l;
	struct osmre_err err;
	char *text;

	if (size < 4096 && !hostlist_expand(s, &h, &err))
		hostlist_free(&h);
	if (!jw_from_squeue(s, fuzz_fabric(), 2, &l, &err)) {
		text = jw_format(&l);
		free(text);
		jw_free(&l);
	}
	free(s);
	path = fuzz_file(data, size);
	if (path && !jw_read_file(path, &l, &err))
		jw_free(&l);
	return 0;
}
