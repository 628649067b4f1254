/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sar's state dump (engine_opts.state): its layers and the paths' SLs.
 * Format: osmre(8), FILES.
 */
#include <stdio.h>

#include "sar.h"

int sar_state_write(FILE *fp, const struct fabric *f,
		    const struct sar_result *r, int stable)
{
	fputs("# osmre sar state after a routing pass: the layers, then the\n"
	      "# paths' SLs (an SL file: osmre analyze --sl-file)\n",
	      fp);
	fprintf(fp,
		"layers %d pass %s job-aware %d efi-sar %ld efi-dfsssp %ld efi-kept %ld updn-lids %ld\n",
		r->layers, stable ? "stable" : "full", r->job_aware, r->efi_sar,
		r->efi_dfsssp, r->efi_kept, r->updn_lids);
	/* the paths' layers: an SL file (osmre analyze --sl-file) */
	return sar_write_sls(fp, f, r) || ferror(fp) ? -1 : 0;
}
