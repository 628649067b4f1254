/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: SL files (osmre's and OpenSM's opensm-sl2vl.dump). */
#include "fuzz.h"
#include "slmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	const struct fabric *f = fuzz_fabric();
	struct osmre_err err;
	struct sl_map m;

	if (!path || sl_map_read(path, f, &m, &err))
		return 0;
	sl_map_sl(&m, 1, 2);
	sl_map_vl(&m, f->nnodes - 1, 1, 2, sl_map_sl(&m, 3, 4));
	sl_map_free(&m);
	return 0;
}
