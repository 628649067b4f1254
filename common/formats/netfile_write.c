/* SPDX-License-Identifier: BSD-2-Clause */
/* Writer of ibsim net files (see netfile.h). */
#include <inttypes.h>
#include <string.h>

#include "netfile.h"

/* clang-format off */
static const char *const header_kw[] = {
	[FAB_CA] = "Hca", [FAB_SWITCH] = "Switch", [FAB_ROUTER] = "Rt",
};
/* clang-format on */
/* clang-format off */
static const char *const guid_kw[] = {
	[FAB_CA] = "caguid", [FAB_SWITCH] = "switchguid", [FAB_ROUTER] = "rtguid",
};
/* clang-format on */

int netfile_write(FILE *fp, const struct fabric *f)
{
	uint64_t counter[4] = { 0, 0x100000, 0x200000, ~0ULL };
	int i, p;

	for (i = 0; i < f->nnodes; i++) {
		const struct fab_node *n = &f->nodes[i];

		if (n->removed)
			continue;
		if (n->guid != counter[n->type]) {
			fprintf(fp, "%s=0x%" PRIx64 "\n", guid_kw[n->type],
				n->guid);
			counter[n->type] = n->guid;
		}
		counter[n->type] +=
			n->type == FAB_SWITCH ? 1 : (uint64_t)n->nports + 1;
		fprintf(fp, "%s\t%d \"%s\"", header_kw[n->type], n->nports,
			n->name);
		if (strcmp(n->desc, n->name))
			fprintf(fp, " # \"%s\"", n->desc);
		fputc('\n', fp);
		for (p = 1; p <= n->nports; p++) {
			const struct fab_port *pt = &n->ports[p];

			if (pt->rnode < 0)
				continue;
			fprintf(fp, "[%d]\t\"%s\"[%d]\n", p,
				f->nodes[pt->rnode].name, pt->rport);
		}
		fputc('\n', fp);
	}
	return ferror(fp) ? -1 : 0;
}
