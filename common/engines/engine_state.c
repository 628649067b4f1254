/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The state dumps of pqft and sar (engine_opts.state): what each engine
 * decided, for an administrator reading why a route is what it is.
 * Formats: osmre(8), FILES.
 */
#include <inttypes.h>
#include <stdio.h>

#include "dmodc.h"
#include "engine_state.h"
#include "pgft.h"

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
