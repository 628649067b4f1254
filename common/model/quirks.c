/* SPDX-License-Identifier: BSD-2-Clause */
#define _POSIX_C_SOURCE 200809L
/* Production quirks added to a fabric (quirks.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quirks.h"
#include "ranks.h"

static const char *const names[] = {
	"aggregation", "storage",     "gateway",  "edge", "dual",
	"stray-leaf",  "stray-spine", "hostless", NULL,
};

const char *quirks_names(void)
{
	return "aggregation, storage, gateway, edge, dual, stray-leaf, stray-spine, hostless";
}

struct qctx {
	struct fabric *f;
	struct rng *r;
	int n0;	   /* nodes before any quirk */
	int *rank; /* of the fabric as given (n0 entries) */
	int top;
	int ncas, nsw; /* added so far, for names and GUIDs */
	struct osmre_err *err;
};

/* A new one-port CA on a new port of switch s; its index or -1. */
static int add_ca(struct qctx *q, int s, const char *name, const char *desc)
{
	int p, c;

	p = fabric_add_port(q->f, s, q->err);
	if (p < 0)
		return -1;
	c = fabric_add_node(q->f, FAB_CA, name, desc, 1,
			    0x6A0000 + (uint64_t)q->ncas++ * 4, q->err);
	if (c < 0 || fabric_link(q->f, s, p, c, 1, q->err))
		return -1;
	return c;
}

/* A random switch of rank rk (or, rk < 0, neither a leaf nor a top
 * switch; a top one when there is none), not removed; -1 when none. */
static int pick(struct qctx *q, int rk, int avoid)
{
	int i, n = 0, k;

	for (i = 0; i < q->n0; i++)
		n += q->rank[i] >= 0 && i != avoid && !q->f->nodes[i].removed &&
		     (rk >= 0 ? q->rank[i] == rk :
				q->rank[i] > 0 && q->rank[i] < q->top);
	if (!n)
		return rk < 0 ? pick(q, q->top, avoid) : -1;
	k = (int)rng_below(q->r, (uint64_t)n);
	for (i = 0; i < q->n0; i++)
		if (q->rank[i] >= 0 && i != avoid && !q->f->nodes[i].removed &&
		    (rk >= 0 ? q->rank[i] == rk :
			       q->rank[i] > 0 && q->rank[i] < q->top) &&
		    !k--)
			return i;
	return -1;
}

static int aggregation(struct qctx *q)
{
	char name[300];
	int i;

	for (i = 0; i < q->n0; i++)
		if (fab_is_switch(&q->f->nodes[i]) && !q->f->nodes[i].removed) {
			snprintf(name, sizeof(name), "AN_%s",
				 q->f->nodes[i].name);
			if (add_ca(q, i, name,
				   "Mellanox Technologies Aggregation Node") <
			    0)
				return -1;
		}
	return 0;
}

static int storage(struct qctx *q, const char *kind, int per_top)
{
	char name[64];
	int i, k;

	if (!per_top) {
		int s = pick(q, -1, -1);

		snprintf(name, sizeof(name), "%s-%d", kind, q->ncas);
		return s < 0 || add_ca(q, s, name, name) < 0 ? -1 : 0;
	}
	for (i = 0; i < q->n0; i++)
		for (k = 0; q->rank[i] == q->top && !q->f->nodes[i].removed &&
			    k < per_top;
		     k++) {
			snprintf(name, sizeof(name), "%s-%d", kind, q->ncas);
			if (add_ca(q, i, name, name) < 0)
				return -1;
		}
	return 0;
}

static int edge(struct qctx *q)
{
	int l = pick(q, 0, -1), e, p, j;
	char name[64], host[96];

	if (l < 0)
		return osmre_fail(q->err, "edge: no leaf switch");
	snprintf(name, sizeof(name), "edge-%d", q->nsw);
	e = fabric_add_node(q->f, FAB_SWITCH, name, name, 8,
			    0x6B0000 + (uint64_t)q->nsw++, q->err);
	if (e < 0 || (p = fabric_add_port(q->f, l, q->err)) < 0 ||
	    fabric_link(q->f, l, p, e, 1, q->err))
		return -1;
	for (j = 0; j < 4; j++) {
		int c;

		snprintf(host, sizeof(host), "%s-h%d", name, j);
		c = fabric_add_node(q->f, FAB_CA, host, host, 1,
				    0x6A0000 + (uint64_t)q->ncas++ * 4, q->err);
		if (c < 0 || fabric_link(q->f, e, 2 + j, c, 1, q->err))
			return -1;
	}
	return 0;
}

/* The last host port of leaf l: its port number, the host in *ca. */
static int last_host(struct qctx *q, int l, int *ca)
{
	const struct fab_node *n = &q->f->nodes[l];
	int p;

	for (p = n->nports; p >= 1; p--) {
		int b = n->ports[p].rnode;

		if (b >= 0 && !fab_is_switch(&q->f->nodes[b]) &&
		    q->f->nodes[b].nports >= 1 && b < q->n0) {
			*ca = b;
			return p;
		}
	}
	return -1;
}

static int dual(struct qctx *q)
{
	int a = pick(q, 0, -1), b = a < 0 ? -1 : pick(q, 0, a);
	int pa, pb, ha, hb, np;

	if (a < 0 || b < 0 || (pa = last_host(q, a, &ha)) < 0 ||
	    (pb = last_host(q, b, &hb)) < 0)
		return osmre_fail(q->err, "dual: two leaves with hosts needed");
	(void)pa;
	/* ha's first free port (a new one adds a GUID to ha, which would
	 * take the next CA's) gets hb's cable; hb goes */
	for (np = 1; np <= q->f->nodes[ha].nports &&
		     q->f->nodes[ha].ports[np].rnode >= 0;
	     np++)
		;
	if (np > q->f->nodes[ha].nports &&
	    (np = fabric_add_port(q->f, ha, q->err)) < 0)
		return -1;
	fabric_unlink(q->f, b, pb);
	fabric_remove_node(q->f, hb);
	if (fabric_link(q->f, b, pb, ha, np, q->err))
		return -1;
	return 0;
}

static int stray(struct qctx *q, int rk)
{
	int a = pick(q, rk, -1), b = a < 0 ? -1 : pick(q, rk, a), pa, pb;

	if (a < 0 || b < 0)
		return osmre_fail(q->err,
				  "stray: two switches of rank %d needed", rk);
	if ((pa = fabric_add_port(q->f, a, q->err)) < 0 ||
	    (pb = fabric_add_port(q->f, b, q->err)) < 0)
		return -1;
	return fabric_link(q->f, a, pa, b, pb, q->err);
}

static int hostless(struct qctx *q)
{
	int l = pick(q, 0, -1), p;

	if (l < 0)
		return osmre_fail(q->err, "hostless: no leaf switch");
	for (p = 1; p <= q->f->nodes[l].nports; p++) {
		int b = q->f->nodes[l].ports[p].rnode;

		if (b >= 0 && !fab_is_switch(&q->f->nodes[b]))
			fabric_remove_node(q->f, b);
	}
	return 0;
}

static int one(struct qctx *q, const char *name)
{
	if (!strcmp(name, "aggregation"))
		return aggregation(q);
	if (!strcmp(name, "storage"))
		return storage(q, "storage", 2);
	if (!strcmp(name, "gateway"))
		return storage(q, "gateway", 0);
	if (!strcmp(name, "edge"))
		return edge(q);
	if (!strcmp(name, "dual"))
		return dual(q);
	if (!strcmp(name, "stray-leaf"))
		return stray(q, 0);
	if (!strcmp(name, "stray-spine"))
		return stray(q, q->top);
	if (!strcmp(name, "hostless"))
		return hostless(q);
	return osmre_fail(q->err, "unknown quirk \"%s\" (known: %s)", name,
			  quirks_names());
}

int quirks_add(struct fabric *f, const char *list, struct rng *r,
	       struct osmre_err *err)
{
	struct qctx q = { f, r, f->nnodes, NULL, 0, 0, 0, err };
	char *dup = strdup(list), *tok, *save = NULL;
	int rc = -1, i;

	q.rank = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	if (!dup || !q.rank) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	q.top = ranks_compute(f, q.rank);
	if (q.top < 0) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	/* the names first: nothing added when one is unknown */
	for (tok = strtok_r(dup, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; names[i] && strcmp(names[i], tok); i++)
			;
		if (!names[i]) {
			osmre_fail(err, "unknown quirk \"%s\" (known: %s)", tok,
				   quirks_names());
			goto out;
		}
	}
	strcpy(dup, list);
	for (tok = strtok_r(dup, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		if (one(&q, tok))
			goto out;
	rc = 0;
out:
	free(dup);
	free(q.rank);
	return rc;
}
