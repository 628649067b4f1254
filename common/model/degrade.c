/* SPDX-License-Identifier: BSD-2-Clause */
#include <math.h>
#include <stdlib.h>

#include "degrade.h"

struct item {
	int node, port;
};

static long collect(const struct fabric *f, enum degrade_kind kind,
		    struct item *out)
{
	long n = 0;
	int i, p;

	for (i = 0; i < f->nnodes; i++) {
		const struct fab_node *nd = &f->nodes[i];

		if (nd->type != FAB_SWITCH || nd->removed)
			continue;
		if (kind == DEGRADE_SWITCHES) {
			if (out)
				out[n] = (struct item){ i, 0 };
			n++;
			continue;
		}
		for (p = 1; p <= nd->nports; p++) {
			const struct fab_port *pt = &nd->ports[p];

			if (pt->rnode < 0 ||
			    f->nodes[pt->rnode].type != FAB_SWITCH)
				continue;
			if (pt->rnode < i || (pt->rnode == i && pt->rport < p))
				continue; /* count each link once */
			if (out)
				out[n] = (struct item){ i, p };
			n++;
		}
	}
	return n;
}

long degrade_candidates(const struct fabric *f, enum degrade_kind kind)
{
	return collect(f, kind, NULL);
}

int degrade_remove(struct fabric *f, enum degrade_kind kind, long n,
		   struct rng *r, struct osmre_err *err)
{
	long total = collect(f, kind, NULL), i;
	struct item *it;

	if (n < 0 || n > total)
		return osmre_fail(err,
				  "cannot remove %ld %s: the fabric has %ld", n,
				  kind == DEGRADE_LINKS ? "links" : "switches",
				  total);
	it = malloc((total ? (size_t)total : 1) * sizeof(*it));
	if (!it)
		return osmre_fail(err, "out of memory");
	collect(f, kind, it);
	/* partial Fisher-Yates: the first n items are the chosen ones */
	for (i = 0; i < n; i++) {
		long j = i + (long)rng_below(r, (uint64_t)(total - i));
		struct item tmp = it[i];

		it[i] = it[j];
		it[j] = tmp;
		if (kind == DEGRADE_LINKS)
			fabric_unlink(f, it[i].node, it[i].port);
		else
			fabric_remove_node(f, it[i].node);
	}
	free(it);
	return 0;
}

long degrade_loguniform(struct rng *r, double m)
{
	return (long)floor(pow(2.0, m * rng_uniform(r)) - 1.0);
}
