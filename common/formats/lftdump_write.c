/* SPDX-License-Identifier: BSD-2-Clause */
/* opensm-lfts.dump writer, row for row what OpenSM's osm_dump.c writes. */
#include <inttypes.h>
#include <stdlib.h>

#include "lft.h"
#include "lids.h"

int lftdump_write(FILE *fp, const struct fabric *f, const struct lft_set *s,
		  struct osmre_err *err)
{
	struct lid_owner *own;
	unsigned max, lid;
	int i;

	if (lids_owners(f, &own, &max, err))
		return -1;
	for (i = 0; i < s->n; i++) {
		const struct lft *t = &s->t[i];
		const struct fab_node *sw = &f->nodes[t->node];

		fprintf(fp,
			"Unicast lids [0-%u] of switch Lid %u guid 0x%016" PRIx64
			" ('%s'):\n",
			t->top, sw->ports[0].lid, sw->guid, sw->desc);
		for (lid = 0; lid <= t->top; lid++) {
			int port = t->port[lid];

			if (port == LFT_NONE)
				continue;
			fprintf(fp, "0x%04x %03u # ", lid, port);
			if (lid <= max && own[lid].node >= 0) {
				const struct fab_node *d =
					&f->nodes[own[lid].node];

				fprintf(fp,
					"%s portguid 0x%016" PRIx64 ": '%s'\n",
					fab_type_name(d->type),
					fab_port_guid(d, own[lid].port),
					d->desc);
			} else {
				fprintf(fp, "unknown node and type\n");
			}
		}
		fprintf(fp, "%u lids dumped\n", t->top);
	}
	free(own);
	if (ferror(fp))
		return osmre_fail(err, "write error");
	return 0;
}
