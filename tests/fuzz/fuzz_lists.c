/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: GUID lists (--io-guids), order files (--order file:) and
 * node name maps (--node-name-map). */
#include "congestion.h"
#include "fuzz.h"
#include "guidlist.h"
#include "nodemap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	struct guidlist l;
	struct nodemap m;
	struct cong_order o;
	struct osmre_err err;
	int unlisted;

	if (!path)
		return 0;
	if (!guidlist_read(path, &l, &err)) {
		guidlist_has(&l, 0x100000);
		guidlist_free(&l);
	}
	if (!nodemap_read(path, &m, &err)) {
		nodemap_name(&m, 0x100000);
		nodemap_free(&m);
	}
	if (!cong_order_read(path, fuzz_fabric(), &o, &unlisted, &err))
		cong_order_free(&o);
	return 0;
}
