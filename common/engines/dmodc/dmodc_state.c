/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dmodc's state dump (engine_opts.state): each switch's rank, divider and
 * costs, and the NIDs of the leaves' CA ports.  Format: osmre(8), FILES.
 */
#include <inttypes.h>
#include <stdio.h>

#include "dmodc.h"

static void dmodc_switch(FILE *fp, const struct dmodc *d,
			 const struct fabric *f, int n)
{
	const struct fab_node *nd = &f->nodes[n];
	int i, L = dmodc_num_leaves(d), lo = DMODC_INF, hi = 0, inf = 0;

	fprintf(fp, "switch 0x%016" PRIx64 " rank %d divider %" PRIu64 " '%s'",
		nd->guid, dmodc_rank(d, n), dmodc_divider(d, n), nd->desc);
	for (i = 0; i < L; i++) {
		int c = dmodc_cost(d, n, dmodc_leaf(d, i));

		if (c == DMODC_INF) {
			inf++;
			continue;
		}
		lo = c < lo ? c : lo;
		hi = c > hi ? c : hi;
	}
	if (lo == DMODC_INF)
		lo = -1;
	fprintf(fp, " cost-to-leaves min %d max %d unreachable %d\n", lo, hi,
		inf);
	if (dmodc_rank(d, n) != 0)
		return;
	for (i = 1; i <= nd->nports; i++) {
		const struct fab_port *pt = &nd->ports[i];

		if (pt->rnode < 0 || f->nodes[pt->rnode].type == FAB_SWITCH)
			continue;
		fprintf(fp, "  port %d nid %ld lid %u 0x%016" PRIx64 " '%s'\n",
			i, dmodc_nid(d, pt->rnode, pt->rport),
			f->nodes[pt->rnode].ports[pt->rport].lid,
			f->nodes[pt->rnode].ports[pt->rport].guid,
			f->nodes[pt->rnode].desc);
	}
}

int dmodc_state_write(FILE *fp, const struct dmodc *d, const struct fabric *f)
{
	int n;

	fprintf(fp,
		"# osmre dmodc state after a routing pass: %d leaf switches\n"
		"# switch <guid> rank <r> divider <Pi> '<desc>' cost-to-leaves min <c> max <c> unreachable <n>\n"
		"#   port <p> nid <t> lid <lid> <port guid> '<desc>'   (CA ports of a leaf)\n",
		dmodc_num_leaves(d));
	for (n = 0; n < f->nnodes; n++)
		if (f->nodes[n].type == FAB_SWITCH)
			dmodc_switch(fp, d, f, n);
	return ferror(fp) ? -1 : 0;
}
