/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dmodc's state after a routing pass, in <dump_files_dir>/osmre-dmodc.dump,
 * written when OpenSM's routing dumps are on (log flag 0x40); OpenSM itself
 * never calls an engine's ucast_dump_tables.  Format: see osmre(8).
 */
#include "osmre_plugin.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define DUMP_NAME "osmre-dmodc.dump"

static void dump_switch(FILE *fp, const struct dmodc *d, const struct fabric *f,
			int n)
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

void dump_dmodc(struct osmre *p, const struct fabric *f)
{
	osm_subn_opt_t *opt = &p->osm->subn.opt;
	char path[4096];
	FILE *fp;
	int n;

	if (!(opt->log_flags & OSM_LOG_ROUTING) || !opt->dump_files_dir)
		return;
	snprintf(path, sizeof(path), "%s/%s", opt->dump_files_dir, DUMP_NAME);
	fp = fopen(path, "w");
	if (!fp) {
		OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
			"osmre ERR: cannot write %s: %s\n", path,
			strerror(errno));
		return;
	}
	fprintf(fp,
		"# osmre dmodc state after a routing pass: %d leaf switches\n"
		"# switch <guid> rank <r> divider <Pi> '<desc>' cost-to-leaves min <c> max <c> unreachable <n>\n"
		"#   port <p> nid <t> lid <lid> <port guid> '<desc>'   (CA ports of a leaf)\n",
		dmodc_num_leaves(p->dmodc));
	for (n = 0; n < f->nnodes; n++)
		if (f->nodes[n].type == FAB_SWITCH)
			dump_switch(fp, p->dmodc, f, n);
	fclose(fp);
	OSM_LOG(&p->osm->log, OSM_LOG_VERBOSE,
		"osmre: dmodc state dumped to %s\n", path);
}
