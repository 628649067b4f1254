/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pqft's fault-tolerant routing (QFT paper section V, Algorithm 1), for a
 * fabric that lacks links or switches of its topology.
 *
 * For a destination host x on leaf L, a switch can reach x going down
 * exactly when it is an ancestor of L (dok), and on an up-down path when
 * it is an ancestor or one of its parents can (ok, from the top down).
 * Every switch keeps the closed-form port when the link exists and leads
 * to a switch that still reaches x (the level orthogonality of the paper:
 * an up-port is only good if the matching down-link on x's side exists,
 * which ok captures for every level at once); otherwise it takes one of
 * the ports that do, chosen by a hash of the destination index, the
 * switch's GUID and the seed (the paper's "random port", deterministic,
 * never random()).  Down-ports to cross-connected children of a QFT's
 * merge level are such alternatives, as are a PGFT's parallel links.  A
 * leaf left without any up-down path to a host fails the routing, naming
 * both.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parallel.h"
#include "pqft.h"
#include "pqft_eq.h"

struct ft_job {
	const struct pqft *q;
	struct lft_set *s;
	int *leaf, nleaf;    /* the leaves */
	int *order, nsw;     /* switches, top level first */
	uint8_t **dok, **ok; /* per thread */
	int **queue;
	atomic_long unreachable;
	atomic_int reported;
	char first[256];
};

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* One of the logical ports of map[0..n) whose link leads to a node with
 * flag set, picked by hash; 0 when none. */
static int pick(const struct pqft *q, const uint8_t *map, int n, int sw,
		const uint8_t *flag, uint64_t h)
{
	int i, cnt = 0, want;

	for (i = 0; i < n; i++)
		cnt += map[i] && flag[q->f->nodes[sw].ports[map[i]].rnode];
	if (!cnt)
		return 0;
	want = (int)(h % (uint64_t)cnt);
	for (i = 0; i < n; i++)
		if (map[i] && flag[q->f->nodes[sw].ports[map[i]].rnode] &&
		    !want--)
			return map[i];
	return 0;
}

static int port_to(const struct pqft *q, int sw, int x, long d,
		   const uint8_t *dok, const uint8_t *ok)
{
	const struct pgft_params *t = &q->t;
	const struct fab_node *nd = &q->f->nodes[sw];
	int l = q->level[sw], down, lp = pqft_preferred(q, sw, x, d, &down),
	    phys;
	uint64_t h = mix(q->seed ^ mix((uint64_t)d) ^ nd->guid);

	if (l == 1 && dok[sw]) /* x's own leaf */
		return q->down[sw][lp];
	if (dok[sw]) {
		int n = t->m[l] * t->p[l];

		phys = down ? q->down[sw][lp] : 0;
		if (phys && dok[nd->ports[phys].rnode])
			return phys;
		return pick(q, q->down[sw], n, sw, dok, h);
	}
	if (l == t->h)
		return 0;
	phys = down ? 0 : q->up[sw][lp];
	if (phys && ok[nd->ports[phys].rnode])
		return phys;
	return pick(q, q->up[sw], t->w[l + 1] * t->p[l + 1], sw, ok, h);
}

static void one_leaf(void *arg, long i, int tid)
{
	struct ft_job *j = arg;
	const struct pqft *q = j->q;
	const struct fabric *f = q->f;
	int leaf = j->leaf[i], *queue = j->queue[tid], head = 0, tail = 0;
	uint8_t *dok = j->dok[tid], *ok = j->ok[tid];
	int n, p, k, hp;

	memset(dok, 0, (size_t)f->nnodes);
	dok[leaf] = 1;
	queue[tail++] = leaf;
	while (head < tail) { /* the leaf's ancestors */
		n = queue[head++];
		for (p = 1; p <= f->nodes[n].nports; p++) {
			int r = f->nodes[n].ports[p].rnode;

			if (r >= 0 && q->level[r] == q->level[n] + 1 &&
			    !dok[r]) {
				dok[r] = 1;
				queue[tail++] = r;
			}
		}
	}
	for (k = 0; k < j->nsw; k++) { /* top level first */
		n = j->order[k];
		ok[n] = dok[n];
		for (p = 1; !ok[n] && p <= f->nodes[n].nports; p++) {
			int r = f->nodes[n].ports[p].rnode;

			ok[n] = r >= 0 && q->level[r] == q->level[n] + 1 &&
				ok[r];
		}
	}
	for (hp = 1; hp <= f->nodes[leaf].nports; hp++) {
		int x = f->nodes[leaf].ports[hp].rnode, off;
		const struct fab_port *pt;

		if (x < 0 || q->level[x] != 0)
			continue;
		pt = &f->nodes[x].ports[q->hport[x]];
		for (off = 0; off < 1 << pt->lmc; off++) {
			unsigned lid = pt->lid + (unsigned)off;
			long d = (q->hidx[x] + off) % q->nhosts;

			for (k = 0; k < j->nsw; k++) {
				struct lft *t;

				n = j->order[k];
				t = lft_of_node(j->s, n);
				if (!t || lid > t->top)
					continue;
				if (!ok[n]) {
					if (q->level[n] == 1 && !off) {
						atomic_fetch_add(
							&j->unreachable, 1);
						if (!atomic_exchange(
							    &j->reported, 1))
							snprintf(
								j->first,
								sizeof(j->first),
								"no up-down path from leaf \"%s\" to \"%s\"",
								f->nodes[n].name,
								f->nodes[x]
									.name);
					}
					continue;
				}
				t->port[lid] =
					(uint8_t)port_to(q, n, x, d, dok, ok);
			}
		}
	}
}

int pqft_route_faults(struct pqft *q, struct lft_set *s, int threads,
		      struct osmre_err *err)
{
	const struct fabric *f = q->f;
	struct ft_job j = { .q = q, .s = s };
	int n, t, l, rc = 0;

	atomic_init(&j.unreachable, 0);
	atomic_init(&j.reported, 0);
	j.leaf = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	j.order = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	j.dok = calloc((size_t)threads, sizeof(uint8_t *));
	j.ok = calloc((size_t)threads, sizeof(uint8_t *));
	j.queue = calloc((size_t)threads, sizeof(int *));
	for (t = 0; j.dok && j.ok && j.queue && t < threads; t++)
		if (!(j.dok[t] = malloc((size_t)f->nnodes + 1)) ||
		    !(j.ok[t] = malloc((size_t)f->nnodes + 1)) ||
		    !(j.queue[t] =
			      malloc(((size_t)f->nnodes + 1) * sizeof(int))))
			break;
	if (!j.leaf || !j.order || !j.dok || !j.ok || !j.queue || t < threads) {
		rc = osmre_fail(err, "out of memory");
		goto out;
	}
	for (l = q->t.h; l >= 1; l--)
		for (n = 0; n < f->nnodes; n++)
			if (q->level[n] == l) {
				j.order[j.nsw++] = n;
				if (l == 1)
					j.leaf[j.nleaf++] = n;
			}
	parallel_for(threads, j.nleaf, one_leaf, &j);
	if (atomic_load(&j.unreachable))
		rc = osmre_fail(
			err,
			"%s (%ld leaf-to-host pairs without an up-down path)",
			j.first, (long)atomic_load(&j.unreachable));
out:
	for (t = 0; j.dok && t < threads; t++)
		free(j.dok[t]);
	for (t = 0; j.ok && t < threads; t++)
		free(j.ok[t]);
	for (t = 0; j.queue && t < threads; t++)
		free(j.queue[t]);
	free(j.dok);
	free(j.ok);
	free(j.queue);
	free(j.leaf);
	free(j.order);
	return rc;
}
