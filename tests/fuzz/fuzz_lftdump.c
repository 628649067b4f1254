/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: LFT dumps, bound to a fixed fabric and their LIDs imported. */
#include "fuzz.h"
#include "lft.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	struct fabric *f;
	struct osmre_err err;
	struct lft_set s;

	if (!path || lftdump_read(path, &s, &err))
		return 0;
	f = fabric_clone(fuzz_fabric());
	if (f) {
		if (!lft_set_bind(&s, f, &err))
			lft_set_import_lids(&s, f, &err);
		fabric_free(f);
	}
	lft_set_free(&s);
	return 0;
}
