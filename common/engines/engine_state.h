/* SPDX-License-Identifier: BSD-2-Clause */
/* State dumps of the pqft and sar engines (engine_state.c). */
#ifndef OSMRE_ENGINE_STATE_H
#define OSMRE_ENGINE_STATE_H

#include <stdio.h>

#include "dmodc.h"
#include "pqft.h"
#include "sar.h"

/*
 * pqft: a line "topology SPEC seed S missing-links L missing-switches M
 * excluded E", then per switch "switch GUID level L tuple s1,..,sh
 * 'desc'" and, under a leaf, "  port P host D lid LID GUID 'desc'" per
 * host (D: its index, eq. 4); "plane K" first when plane >= 0.  0 or -1
 * (write error).
 */
int pqft_state_write(FILE *fp, const struct pqft *q, int plane);
/*
 * sar: a line "layers N pass full|stable job-aware 0|1 efi-sar E
 * efi-dfsssp E efi-kept E updn-lids N", then the paths' layers as an SL
 * file (sar_write_sls).  0 or -1.
 */
int sar_state_write(FILE *fp, const struct fabric *f,
		    const struct sar_result *r, int stable);

/*
 * dmodc (after dmodc_run on f): per switch "switch GUID rank R divider
 * PI 'desc' cost-to-leaves min C max C unreachable N" and, under a leaf,
 * "  port P nid T lid LID GUID 'desc'" per CA port, after 3 "#" lines.
 */
int dmodc_state_write(FILE *fp, const struct dmodc *d, const struct fabric *f);

#endif
