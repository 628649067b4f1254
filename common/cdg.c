/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdlib.h>
#include <string.h>

#include "cdg.h"
#include "lids.h"

/*
 * dep bits per switch n: dep[n][in * w + out] when a route enters n by port
 * in and leaves by port out, both switch ports (w = nports + 1).
 */
struct graph {
	const struct fabric *f;
	long *off;		/* per node: offset of its (in, out) bits */
	uint8_t *dep;
	long *chan;		/* per node: offset of its channels (ports) */
	int *cnode;		/* per channel: its switch */
	long nchan;
};

static int sw_port(const struct fabric *f, int n, int p)
{
	int r;

	if (p < 1 || p > f->nodes[n].nports)
		return 0;
	r = f->nodes[n].ports[p].rnode;
	return r >= 0 && f->nodes[r].type == FAB_SWITCH;
}

/* Marks the dependencies of the routes towards one LID. */
static void mark_lid(struct graph *g, const struct lft_set *s, unsigned lid)
{
	const struct fabric *f = g->f;
	int n;

	for (n = 0; n < f->nnodes; n++) {
		const struct lft *t = lft_of_node(s, n);
		int o, m, in, out;
		const struct lft *tm;
		long w;

		if (!t)
			continue;
		o = lft_get(t, lid);
		if (!sw_port(f, n, o))
			continue;
		/* n forwards into switch m, entering by port in */
		m = f->nodes[n].ports[o].rnode;
		in = f->nodes[n].ports[o].rport;
		tm = lft_of_node(s, m);
		out = tm ? lft_get(tm, lid) : LFT_NONE;
		if (!sw_port(f, m, out))
			continue;
		w = f->nodes[m].nports + 1;
		g->dep[g->off[m] + in * w + out] = 1;
	}
}

/* Channel of switch n leaving by port p. */
static long chan_id(const struct graph *g, int n, int p)
{
	return g->chan[n] + p;
}

int cdg_check(const struct fabric *f, const struct lft_set *s,
	      struct cdg_result *r, struct osmre_err *err)
{
	struct graph g = { .f = f };
	struct lid_owner *own = NULL;
	unsigned max, lid;
	long total = 0, c, *stack = NULL, *it = NULL;
	uint8_t *color = NULL, *used = NULL;
	int n, rc = -1;

	memset(r, 0, sizeof(*r));
	r->acyclic = 1;
	g.off = malloc(((size_t)f->nnodes + 1) * sizeof(long));
	g.chan = malloc(((size_t)f->nnodes + 1) * sizeof(long));
	if (!g.off || !g.chan || lids_owners(f, &own, &max, err))
		goto oom;
	for (n = 0; n < f->nnodes; n++) {
		long w = f->nodes[n].nports + 1;

		g.off[n] = total;
		g.chan[n] = g.nchan;
		if (f->nodes[n].type == FAB_SWITCH) {
			total += w * w;
			g.nchan += w;
		}
	}
	g.cnode = malloc(((size_t)g.nchan + 1) * sizeof(int));
	if (!g.cnode)
		goto oom;
	for (n = 0; n < f->nnodes; n++)
		if (f->nodes[n].type == FAB_SWITCH)
			for (c = 0; c <= f->nodes[n].nports; c++)
				g.cnode[g.chan[n] + c] = n;
	g.dep = calloc((size_t)total + 1, 1);
	color = calloc((size_t)g.nchan + 1, 1);
	used = calloc((size_t)g.nchan + 1, 1);
	stack = malloc(((size_t)g.nchan + 1) * sizeof(long));
	it = malloc(((size_t)g.nchan + 1) * sizeof(long));
	if (!g.dep || !color || !used || !stack || !it)
		goto oom;
	/* routes between CA ports: destinations are CA LIDs */
	for (lid = 1; lid <= max; lid++)
		if (own[lid].node >= 0 && f->nodes[own[lid].node].type != FAB_SWITCH)
			mark_lid(&g, s, lid);
	for (n = 0; n < f->nnodes; n++) {
		long w = f->nodes[n].nports + 1, in, out;

		if (f->nodes[n].type != FAB_SWITCH)
			continue;
		for (in = 1; in < w; in++)
			for (out = 1; out < w; out++)
				if (g.dep[g.off[n] + in * w + out]) {
					int m = f->nodes[n].ports[in].rnode;

					r->deps++;
					used[chan_id(&g, m, f->nodes[n].ports[in].rport)] = 1;
					used[chan_id(&g, n, (int)out)] = 1;
				}
	}
	for (c = 0; c < g.nchan; c++)
		r->channels += used[c];
	/*
	 * Iterative DFS over channels: a channel (n, out) leads to channels
	 * (m, o2) of the remote switch m with dep[m][in][o2], in = the port
	 * of m facing n.  it[] is the next o2 to try.
	 */
	for (n = 0; n < f->nnodes && r->acyclic; n++) {
		int p;

		if (f->nodes[n].type != FAB_SWITCH)
			continue;
		for (p = 1; p <= f->nodes[n].nports && r->acyclic; p++) {
			long top = 0, root = chan_id(&g, n, p);

			if (!used[root] || color[root])
				continue;
			stack[top++] = root;
			color[root] = 1;
			it[root] = 1;
			while (top && r->acyclic) {
				long cur = stack[top - 1];
				int cn, cp, m, in;
				long w;

				cn = g.cnode[cur];
				cp = (int)(cur - g.chan[cn]);
				m = f->nodes[cn].ports[cp].rnode;
				in = f->nodes[cn].ports[cp].rport;
				w = f->nodes[m].nports + 1;
				while (it[cur] < w && !g.dep[g.off[m] + in * w + it[cur]])
					it[cur]++;
				if (it[cur] >= w) {
					color[cur] = 2;
					top--;
					continue;
				}
				{
					long nx = chan_id(&g, m, (int)it[cur]++);

					if (color[nx] == 1) {
						/* a cycle: nx ... cur on the stack */
						long k, len = 0;

						for (k = top - 1; k >= 0 && stack[k] != nx; k--)
							len++;
						len++;
						r->acyclic = 0;
						r->cycle_len = (int)len;
						r->cycle_node = malloc((size_t)len * sizeof(int));
						r->cycle_port = malloc((size_t)len * sizeof(int));
						if (!r->cycle_node || !r->cycle_port)
							goto oom;
						for (k = 0; k < len; k++) {
							long ch = stack[top - len + k];

							r->cycle_node[k] = g.cnode[ch];
							r->cycle_port[k] = (int)(ch - g.chan[g.cnode[ch]]);
						}
						break;
					}
					if (!color[nx]) {
						color[nx] = 1;
						it[nx] = 1;
						stack[top++] = nx;
					}
				}
			}
		}
	}
	rc = 0;
	goto out;
oom:
	osmre_fail(err, "out of memory");
	cdg_result_free(r);
out:
	free(g.off);
	free(g.chan);
	free(g.cnode);
	free(g.dep);
	free(color);
	free(used);
	free(stack);
	free(it);
	free(own);
	return rc;
}

void cdg_print_cycle(FILE *fp, const struct fabric *f,
		     const struct cdg_result *r)
{
	int k;

	for (k = 0; k < r->cycle_len; k++)
		fprintf(fp, "\"%s\"[%d] -> ", f->nodes[r->cycle_node[k]].name,
			r->cycle_port[k]);
	if (r->cycle_len)
		fprintf(fp, "\"%s\"[%d]\n", f->nodes[r->cycle_node[0]].name,
			r->cycle_port[0]);
}

void cdg_result_free(struct cdg_result *r)
{
	free(r->cycle_node);
	free(r->cycle_port);
	r->cycle_node = r->cycle_port = NULL;
	r->cycle_len = 0;
}
