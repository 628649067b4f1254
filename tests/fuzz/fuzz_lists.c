/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: GUID lists (--io-guids) and order files (--order file:). */
#include "congestion.h"
#include "fuzz.h"
#include "guidlist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	struct guidlist l;
	struct cong_order o;
	struct osmre_err err;
	int unlisted;

	if (!path)
		return 0;
	if (!guidlist_read(path, &l, &err)) {
		guidlist_has(&l, 0x100000);
		guidlist_free(&l);
	}
	if (!cong_order_read(path, fuzz_fabric(), &o, &unlisted, &err))
		cong_order_free(&o);
	return 0;
}
