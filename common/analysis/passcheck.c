/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lids.h"
#include "passcheck.h"

struct pass_sls {
	const struct route_layers *l;
	const uint8_t *high; /* per LID: 1 above its port's base LID */
	int escape_vl;
};

static int pass_sl(void *ctx, unsigned slid, unsigned dlid)
{
	const struct pass_sls *ps = ctx;

	if (ps->high && ps->high[dlid])
		return ps->escape_vl;
	return route_layers_sl(ps->l, slid, dlid);
}

static int pass_vl(void *ctx, int node, int in, int out, int sl)
{
	(void)node;
	(void)in;
	(void)out;
	return updn_sl2vl(((const struct pass_sls *)ctx)->escape_vl, sl);
}

/* err: the cycle of c, channel by channel while err holds them. */
static int name_cycle(const struct fabric *f, struct cdg_result *c,
		      struct osmre_err *err)
{
	size_t n, cap = sizeof(err->msg);
	int k;

	osmre_fail(
		err,
		"deadlock check: the routes close a cycle of %d channel(s) on VL %d:",
		c->cycle_len, c->cycle_len ? c->cycle_vl[0] : 0);
	for (k = 0; k <= c->cycle_len && c->cycle_len; k++) {
		int i = k % c->cycle_len;

		n = strlen(err->msg);
		if (n + 1 >= cap)
			break;
		snprintf(err->msg + n, cap - n, "%s\"%s\"[%d]",
			 k ? " -> " : " ", f->nodes[c->cycle_node[i]].name,
			 c->cycle_port[i]);
	}
	osmre_sanitize(err->msg, cap);
	cdg_result_free(c);
	return -1;
}

void pass_deadlock_line(char *buf, size_t n, const struct cdg_result *c,
			double ms)
{
	snprintf(
		buf, n,
		"deadlock check: acyclic on %d VL(s), %ld channels, %ld dependencies (%.3f ms)",
		c->nvl, c->channels, c->deps, ms);
}

int pass_deadlock_check(const struct fabric *f, const struct route_result *r,
			int escape_vl, struct cdg_result *c,
			struct osmre_err *err)
{
	struct pass_sls ps = { .l = &r->layers, .escape_vl = escape_vl };
	struct cdg_sls sls = { .sl = pass_sl, .ctx = &ps };
	unsigned max = lids_max(f), lid;
	uint8_t *high = NULL;
	int n, p, rc;

	memset(c, 0, sizeof(*c));
	/* without layers every base route is on SL 0: one walk a switch */
	sls.sl_by_source = r->layers.have && r->layers.layer;
	if (escape_vl >= 0) {
		high = calloc((size_t)max + 1, 1);
		if (!high)
			return osmre_fail(err, "out of memory");
		for (n = 0; n < f->nnodes; n++)
			for (p = 1; !fab_is_switch(&f->nodes[n]) &&
				    p <= f->nodes[n].nports;
			     p++) {
				const struct fab_port *pt =
					&f->nodes[n].ports[p];

				for (lid = pt->lid + 1;
				     pt->lid &&
				     lid < pt->lid + (1u << pt->lmc) &&
				     lid <= max;
				     lid++)
					high[lid] = 1;
			}
		ps.high = high;
		sls.vl = pass_vl;
	}
	rc = cdg_check_sls(f, &r->tables, &sls, c, err);
	free(high);
	if (rc)
		return -1;
	return c->acyclic ? 0 : name_cycle(f, c, err);
}
