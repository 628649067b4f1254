/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pqft routing (QFT paper section IV): for every switch S of level l and
 * every host destination d,
 * - descendant criterion eq. (10) (eq. (9b) for a PGFT);
 * - down: eq. (17) on the merge level (p_{l-1} > 1), eq. (18) elsewhere,
 *   eq. (16) for a PGFT's parallel links;
 * - up: eq. (15) with u of eq. (14) on the merge level, eq. (13)
 *   elsewhere (R'_l of eq. (12); R_l of eq. (11) for a PGFT).
 * Logical ports become physical ones through the maps pqft_assign() built.
 */
#include <stdlib.h>
#include <string.h>

#include "lids.h"
#include "parallel.h"
#include "pqft.h"
#include "pqft_eq.h"
#include "swroutes.h"

/* The subtree key of node n seen from level l: the digits that
 * pqft_descends() compares (s_{l+1} / p_l for a QFT, s_{l+2}..s_h), packed a
 * byte each (h <= 8), so that host d descends from a level-l switch S
 * exactly when their keys at level l are equal. */
static uint64_t subtree_key(const struct pqft *q, int n, int l)
{
	const struct pgft_params *t = &q->t;
	const uint8_t *s = q->dig[n];
	uint64_t key;
	int i, pl = t->qft ? t->p[l] : 1;

	if (l >= t->h)
		return 0;
	key = (uint64_t)(s[l + 1] / pl);
	for (i = l + 2; i <= t->h; i++)
		key |= (uint64_t)s[i] << (8 * (i - l - 1));
	return key;
}

struct route_job {
	const struct pqft *q;
	struct lft_set *s;
	int *sw, *host;
	int nhost;
	/* per level and host (its first LID): the logical down- and up-port
	 * and the subtree key, which do not depend on the switch */
	int *dn, *up;
	uint64_t *key;
	unsigned *lid; /* per host: its first LID */
	int lmc;       /* some host has LMC > 0 */
};

/* the further LIDs of hosts with LMC > 0, host index (d + off) mod N */
static void route_lmc(const struct route_job *j, int sw, struct lft *t)
{
	const struct pqft *q = j->q;
	int l = q->level[sw], k, off;

	for (k = 0; k < j->nhost; k++) {
		int h = j->host[k];
		const struct fab_port *pt = &q->f->nodes[h].ports[q->hport[h]];
		int desc = pqft_descends(q, sw, h);

		for (off = 1; off < 1 << pt->lmc; off++) {
			unsigned lid = pt->lid + (unsigned)off;
			long d = (q->hidx[h] + off) % q->nhosts;

			if (lid <= t->top)
				t->port[lid] =
					desc ? q->down[sw][pqft_down_port(
						       q, l, h, d)] :
					       q->up[sw][pqft_up_port(q, l, d)];
		}
	}
}

static void route_switch(void *arg, long i, int tid)
{
	struct route_job *j = arg;
	const struct pqft *q = j->q;
	int sw = j->sw[i], l = q->level[sw], k;
	size_t row = (size_t)l * j->nhost;
	const int *dn = j->dn + row, *up = j->up + row;
	const uint64_t *key = j->key + row, mine = subtree_key(q, sw, l);
	const uint8_t *down = q->down[sw], *upp = q->up[sw];
	struct lft *t = lft_of_node(j->s, sw);

	(void)tid;
	if (!t)
		return;
	for (k = 0; k < j->nhost; k++)
		if (j->lid[k] <= t->top)
			t->port[j->lid[k]] =
				key[k] == mine ? down[dn[k]] : upp[up[k]];
	if (j->lmc)
		route_lmc(j, sw, t);
}

/* the per-level tables of route_switch */
static int route_tables(const struct pqft *q, struct route_job *j)
{
	size_t n = ((size_t)q->t.h + 1) * j->nhost + 1;
	int l, k;

	j->dn = malloc(n * sizeof(int));
	j->up = malloc(n * sizeof(int));
	j->key = malloc(n * sizeof(uint64_t));
	j->lid = malloc(((size_t)j->nhost + 1) * sizeof(unsigned));
	if (!j->dn || !j->up || !j->key || !j->lid)
		return -1;
	for (k = 0; k < j->nhost; k++) {
		int h = j->host[k];
		const struct fab_port *pt = &q->f->nodes[h].ports[q->hport[h]];

		j->lid[k] = pt->lid;
		j->lmc |= pt->lmc > 0;
	}
	for (l = 1; l <= q->t.h; l++)
		for (k = 0; k < j->nhost; k++) {
			int h = j->host[k];
			size_t at = (size_t)l * j->nhost + k;

			j->dn[at] = pqft_down_port(q, l, h, q->hidx[h]);
			j->up[at] =
				l < q->t.h ? pqft_up_port(q, l, q->hidx[h]) : 0;
			j->key[at] = subtree_key(q, h, l);
		}
	return 0;
}

int pqft_route(struct pqft *q, struct lft_set *s, int threads,
	       struct osmre_err *err)
{
	const struct fabric *f = q->f;
	struct route_job j = { .q = q, .s = s };
	int n, nsw = 0, rc = 0;

	if (threads <= 0)
		threads = parallel_default_threads();
	j.sw = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	j.host = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	if (!j.sw || !j.host) {
		rc = osmre_fail(err, "out of memory");
		goto out;
	}
	for (n = 0; n < f->nnodes; n++) {
		if (q->level[n] > 0)
			j.sw[nsw++] = n;
		else if (q->level[n] == 0 && f->nodes[n].ports[q->hport[n]].lid)
			j.host[j.nhost++] = n;
	}
	if (q->missing_links || q->missing_switches) {
		rc = pqft_route_faults(q, s, threads, err);
	} else {
		if (route_tables(q, &j)) {
			rc = osmre_fail(err, "out of memory");
			goto out;
		}
		parallel_for(threads, nsw, route_switch, &j);
	}
	if (!rc)
		rc = swroutes_updown(f, q->level, s, threads, err);
out:
	free(j.sw);
	free(j.host);
	free(j.dn);
	free(j.up);
	free(j.key);
	free(j.lid);
	return rc;
}
