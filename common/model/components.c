/* SPDX-License-Identifier: BSD-2-Clause */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "components.h"

int switch_components(const struct fabric *f, int *comp)
{
	int *queue = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	int i, p;

	if (!queue)
		return -1;
	for (i = 0; i < f->nnodes; i++)
		comp[i] = -1;
	for (i = 0; i < f->nnodes; i++) {
		int head = 0, tail = 0;

		if (comp[i] >= 0 || f->nodes[i].type != FAB_SWITCH ||
		    f->nodes[i].removed)
			continue;
		comp[i] = i;
		queue[tail++] = i;
		while (head < tail) {
			const struct fab_node *n = &f->nodes[queue[head++]];

			for (p = 1; p <= n->nports; p++) {
				int r = n->ports[p].rnode;

				if (r >= 0 && f->nodes[r].type == FAB_SWITCH &&
				    comp[r] < 0) {
					comp[r] = i;
					queue[tail++] = r;
				}
			}
		}
	}
	free(queue);
	return 0;
}

/* The switch components a CA's linked ports reach, sorted, unique. */
struct casig {
	int node, n;
	int c[8]; /* the first 8 components are enough to compare */
};

static int casig_cmp(const void *a, const void *b)
{
	const struct casig *x = a, *y = b;
	int i;

	for (i = 0; i < x->n && i < y->n; i++)
		if (x->c[i] != y->c[i])
			return x->c[i] < y->c[i] ? -1 : 1;
	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return x->node - y->node;
}

static int casig_meet(const struct casig *x, const struct casig *y)
{
	int i = 0, j = 0;

	while (i < x->n && j < y->n) {
		if (x->c[i] == y->c[j])
			return 1;
		if (x->c[i] < y->c[j])
			i++;
		else
			j++;
	}
	return 0;
}

int components_split_pair(const struct fabric *f, const int *comp, int *a,
			  int *b)
{
	struct casig *s = malloc(((size_t)f->nnodes + 1) * sizeof(*s));
	int i, j, n = 0, d = 0, rc = 0;

	if (!s)
		return -1;
	for (i = 0; i < f->nnodes; i++) {
		const struct fab_node *nd = &f->nodes[i];
		struct casig *x = &s[n];
		int p, k;

		if (nd->type == FAB_SWITCH || nd->removed)
			continue;
		x->node = i;
		x->n = 0;
		for (p = 1; p <= nd->nports; p++) {
			int r = nd->ports[p].rnode, cr;

			if (r < 0 || (cr = comp[r]) < 0)
				continue;
			for (k = 0; k < x->n && x->c[k] < cr; k++)
				;
			if ((k < x->n && x->c[k] == cr) || x->n == 8)
				continue;
			memmove(&x->c[k + 1], &x->c[k],
				(size_t)(x->n - k) * sizeof(int));
			x->c[k] = cr;
			x->n++;
		}
		n += x->n > 0;
	}
	qsort(s, (size_t)n, sizeof(*s), casig_cmp);
	/* one CA per distinct set of components, then every two sets */
	for (i = 0; i < n; i++)
		if (!d || s[d - 1].n != s[i].n ||
		    memcmp(s[d - 1].c, s[i].c, (size_t)s[i].n * sizeof(int)))
			s[d++] = s[i];
	for (i = 0; i < d && !rc; i++)
		for (j = i + 1; j < d && !rc; j++)
			if (!casig_meet(&s[i], &s[j])) {
				*a = s[i].node < s[j].node ? s[i].node :
							     s[j].node;
				*b = s[i].node < s[j].node ? s[j].node :
							     s[i].node;
				rc = 1;
			}
	free(s);
	return rc;
}

int components_meet(const struct fabric *f, const int *comp, int ca, int c)
{
	const struct fab_node *nd = &f->nodes[ca];
	int p;

	for (p = 1; p <= nd->nports; p++)
		if (nd->ports[p].rnode >= 0 && comp[nd->ports[p].rnode] == c)
			return 1;
	return 0;
}

static int uf_find(int *up, int x)
{
	while (up[x] != x) {
		up[x] = up[up[x]];
		x = up[x];
	}
	return x;
}

/* Common switch neighbours of a and each of its switch neighbours, into
 * cn[off[a] + port]; mark: scratch, all -1 on entry and exit. */
static void common_counts(const struct fabric *f, int a, const long *off,
			  int *cn, int *mark)
{
	const struct fab_node *na = &f->nodes[a];
	int p, q;

	for (p = 1; p <= na->nports; p++) {
		int r = na->ports[p].rnode;

		if (r >= 0 && r != a && f->nodes[r].type == FAB_SWITCH)
			mark[r] = a;
	}
	for (p = 1; p <= na->nports; p++) {
		int b = na->ports[p].rnode, c = 0;

		cn[off[a] + p] = 0;
		if (b < 0 || b == a || f->nodes[b].type != FAB_SWITCH)
			continue;
		for (q = 1; q <= f->nodes[b].nports; q++) {
			int w = f->nodes[b].ports[q].rnode;

			c += w >= 0 && w != a && w != b && mark[w] == a;
		}
		cn[off[a] + p] = c;
	}
	for (p = 1; p <= na->nports; p++) {
		int r = na->ports[p].rnode;

		if (r >= 0)
			mark[r] = -1;
	}
}

int switch_groups(const struct fabric *f, int *group)
{
	size_t n1 = (size_t)f->nnodes + 1;
	int *up = malloc(n1 * sizeof(int)), *mark = malloc(n1 * sizeof(int));
	int *maxc = calloc(n1, sizeof(int)), *cn = NULL;
	long *off = malloc(n1 * sizeof(long)), tot = 0;
	int i, p, n = -1;

	if (!up || !mark || !maxc || !off)
		goto out;
	for (i = 0; i < f->nnodes; i++) {
		off[i] = tot;
		tot += f->nodes[i].nports + 1;
		up[i] = i;
		mark[i] = -1;
	}
	cn = calloc((size_t)tot + 1, sizeof(int));
	if (!cn)
		goto out;
	for (i = 0; i < f->nnodes; i++) {
		if (f->nodes[i].type != FAB_SWITCH || f->nodes[i].removed)
			continue;
		common_counts(f, i, off, cn, mark);
		for (p = 1; p <= f->nodes[i].nports; p++)
			if (cn[off[i] + p] > maxc[i])
				maxc[i] = cn[off[i] + p];
	}
	/* a link is local when its ends share at least 2/3 as many
	 * neighbours as the best-connected link of either end */
	for (i = 0; i < f->nnodes; i++)
		for (p = 1; f->nodes[i].type == FAB_SWITCH &&
			    !f->nodes[i].removed && p <= f->nodes[i].nports;
		     p++) {
			int b = f->nodes[i].ports[p].rnode, c = cn[off[i] + p];
			int m;

			if (b < 0 || c < 1)
				continue;
			m = maxc[i] > maxc[b] ? maxc[i] : maxc[b];
			if (3 * c >= 2 * m)
				up[uf_find(up, b)] = uf_find(up, i);
		}
	n = 0;
	for (i = 0; i < f->nnodes; i++) {
		int r;

		group[i] = -1;
		if (f->nodes[i].type != FAB_SWITCH || f->nodes[i].removed)
			continue;
		r = uf_find(up, i);
		if (mark[r] < 0)
			mark[r] = n++;
		group[i] = mark[r];
	}
out:
	free(up);
	free(mark);
	free(maxc);
	free(off);
	free(cn);
	return n;
}

int components_refuse_split(const struct fabric *f, const int *comp,
			    struct osmre_err *err)
{
	int a, b, r = components_split_pair(f, comp, &a, &b);

	if (r < 0)
		return osmre_fail(err, "out of memory");
	if (r)
		return osmre_fail(
			err,
			"the fabric is split: hosts \"%s\" (0x%016" PRIx64
			") and \"%s\" (0x%016" PRIx64
			") have no port in a common connected part (a piece of a plane is not a plane)",
			f->nodes[a].name, f->nodes[a].guid, f->nodes[b].name,
			f->nodes[b].guid);
	return 0;
}
