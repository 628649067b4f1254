/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pqft's state dump (engine_opts.state): the topology it inferred and
 * each switch's tuple, for an administrator reading why a route is what
 * it is.  Format: osmre(8), FILES.
 */
#include <inttypes.h>
#include <stdio.h>

#include "pgft.h"
#include "pqft.h"

int pqft_state_write(FILE *fp, const struct pqft *q, int plane)
{
	const struct fabric *f = q->f;
	char spec[128];
	int n, i, p, h = q->t.h;

	topo_spec_format(&q->t, spec, sizeof(spec));
	if (plane <= 0)
		fputs("# osmre pqft state after a routing pass\n"
		      "# topology <spec> seed <s> missing-links <n> missing-switches <n> excluded <n>\n"
		      "# switch <guid> level <l> tuple <s1,..,sh> '<desc>'\n"
		      "#   port <p> host <d> lid <lid> <port guid> '<desc>'   (hosts of a leaf)\n",
		      fp);
	if (plane >= 0)
		fprintf(fp, "plane %d\n", plane);
	fprintf(fp,
		"topology %s seed %" PRIu64
		" missing-links %ld missing-switches %ld excluded %ld\n",
		spec, q->seed, q->missing_links, q->missing_switches,
		q->excluded);
	for (n = 0; n < f->nnodes; n++) {
		const struct fab_node *nd = &f->nodes[n];

		if (!fab_is_switch(nd) || nd->removed || q->level[n] < 1)
			continue;
		fprintf(fp, "switch 0x%016" PRIx64 " level %d tuple ", nd->guid,
			q->level[n]);
		for (i = 1; i <= h; i++)
			fprintf(fp, "%s%d", i > 1 ? "," : "", q->dig[n][i]);
		fprintf(fp, " '%s'\n", nd->desc);
		if (q->level[n] != 1)
			continue;
		for (p = 1; p <= nd->nports; p++) {
			int r = nd->ports[p].rnode, rp = nd->ports[p].rport;

			if (r < 0 || q->level[r] != 0)
				continue;
			fprintf(fp,
				"  port %d host %ld lid %u 0x%016" PRIx64
				" '%s'\n",
				p, q->hidx[r], f->nodes[r].ports[rp].lid,
				f->nodes[r].ports[rp].guid, f->nodes[r].desc);
		}
	}
	return ferror(fp) ? -1 : 0;
}
