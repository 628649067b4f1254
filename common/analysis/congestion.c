/* SPDX-License-Identifier: BSD-2-Clause */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "congestion.h"
#include "roles.h"
#include "infile.h"
#include "dmodc.h"
#include "parallel.h"
#include "progress.h"
#include "rng.h"
#include "cmp.h"

/* Output ports are numbered off[node] + port. */
static long *port_offsets(const struct fabric *f, long *total)
{
	long *off = malloc(((size_t)f->nnodes + 1) * sizeof(long)), t = 0;
	int i;

	if (!off)
		return NULL;
	for (i = 0; i < f->nnodes; i++) {
		off[i] = t;
		t += f->nodes[i].nports + 1;
	}
	*total = t;
	return off;
}

/*
 * Walks from CA port (node, port) to dlid; fills out[] with the output
 * ports used; returns their number, or -1 when the walk fails or loops.
 */
static int walk(const struct fabric *f, const struct lft_set *s,
		const long *off, int node, int port, unsigned dlid, long *out,
		int max)
{
	const struct fab_port *pt = &f->nodes[node].ports[port];
	int n = 0, cur;

	out[n++] = off[node] + port;
	cur = pt->rnode;
	while (cur >= 0 && f->nodes[cur].type == FAB_SWITCH && n < max) {
		const struct lft *t = lft_of_node(s, cur);
		int op = t ? lft_get(t, dlid) : LFT_NONE;

		if (op == LFT_NONE || op == 0 || op > f->nodes[cur].nports)
			return -1;
		out[n++] = off[cur] + op;
		pt = &f->nodes[cur].ports[op];
		cur = pt->rnode;
	}
	if (cur < 0 || n >= max)
		return -1;
	pt = &f->nodes[cur].ports[pt->rport];
	return dlid >= pt->lid && dlid < pt->lid + (1u << pt->lmc) ? n : -1;
}

struct sortkey {
	long key;
	uint64_t guid;
	const char *name;
	int node, port;
};

/*
 * Natural order: runs of digits compare as numbers (H_2_0 before H_10_0),
 * everything else byte by byte; equal numbers with more leading zeros
 * come first, so that distinct names never compare equal.
 */
int cong_natural_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			const char *x = a, *y = b;
			size_t lx, ly, za, zb;
			int c;

			while (*x == '0')
				x++;
			while (*y == '0')
				y++;
			za = (size_t)(x - a);
			zb = (size_t)(y - b);
			for (lx = 0; isdigit((unsigned char)x[lx]); lx++)
				;
			for (ly = 0; isdigit((unsigned char)y[ly]); ly++)
				;
			if (lx != ly)
				return lx < ly ? -1 : 1;
			c = memcmp(x, y, lx);
			if (c)
				return c < 0 ? -1 : 1;
			if (za != zb)
				return za > zb ? -1 : 1;
			a = x + lx;
			b = y + ly;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

static int key_cmp(const void *a, const void *b)
{
	const struct sortkey *x = a, *y = b;
	int c;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->name && y->name && (c = cong_natural_cmp(x->name, y->name)))
		return c;
	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return x->port - y->port;
}

/* Sorts the n keys k and writes their (node, port) into o, in order. */
static void keys_to_order(struct sortkey *k, int n, struct cong_order *o)
{
	int i;

	qsort(k, (size_t)n, sizeof(*k), key_cmp);
	for (i = 0; i < n; i++) {
		o->node[i] = k[i].node;
		o->port[i] = k[i].port;
	}
	o->n = n;
}

/* CA ports with a LID and a link, in fabric order: the order's universe. */
static int is_order_port(const struct fabric *f, int i, int p)
{
	const struct fab_node *nd = &f->nodes[i];

	return nd->type != FAB_SWITCH && !nd->removed && nd->ports[p].lid &&
	       nd->ports[p].rnode >= 0;
}

/* dmodc's NIDs of f (no routing); NULL when it cannot rank f (the
 * orders then fall back to GUIDs) or out of memory. */
static struct dmodc *ranked(const struct fabric *f)
{
	struct dmodc *d = dmodc_new();

	if (d && dmodc_nids(d, f, NULL)) {
		dmodc_free(d);
		d = NULL;
	}
	return d;
}

/* Room for f's order ports: o's arrays and the keys returned (NULL, and
 * nothing allocated, when out of memory). */
static struct sortkey *order_alloc(const struct fabric *f, struct cong_order *o)
{
	struct sortkey *k;
	int i, p, n = 0;

	for (i = 0; i < f->nnodes; i++)
		for (p = 1; p <= f->nodes[i].nports; p++)
			n += is_order_port(f, i, p);
	k = malloc(((size_t)n + 1) * sizeof(*k));
	o->node = malloc(((size_t)n + 1) * sizeof(int));
	o->port = malloc(((size_t)n + 1) * sizeof(int));
	if (!k || !o->node || !o->port) {
		free(k);
		cong_order_free(o);
		return NULL;
	}
	return k;
}

int cong_order_make(const struct fabric *f, enum cong_order_kind kind,
		    struct cong_order *o, struct osmre_err *err)
{
	struct dmodc *d = NULL;
	struct sortkey *k;
	int i, p, n = 0;

	memset(o, 0, sizeof(*o));
	if (!(k = order_alloc(f, o)))
		return osmre_fail(err, "out of memory");
	if (kind == CONG_ORDER_NID)
		d = ranked(f);
	for (i = 0; i < f->nnodes; i++)
		for (p = 1; p <= f->nodes[i].nports; p++) {
			const struct fab_node *nd = &f->nodes[i];

			if (!is_order_port(f, i, p))
				continue;
			k[n] = (struct sortkey){
				d ? dmodc_nid(d, i, p) : 0, nd->ports[p].guid,
				kind == CONG_ORDER_NAME ? nd->name : NULL, i, p
			};
			n++;
		}
	keys_to_order(k, n, o);
	free(k);
	dmodc_free(d);
	return 0;
}

/* dmodc's NID of CA port (i, p) of f in the compute tree c (roles_core:
 * a dual-homed CA's later ports are appended nodes), -1: none. */
static long core_nid(const struct dmodc *d, const struct fabric *f,
		     const struct fabric *c, int i, int p)
{
	int k;

	if (c->nodes[i].ports[p].lid)
		return dmodc_nid(d, i, p);
	for (k = f->nnodes; k < c->nnodes; k++)
		if (c->nodes[k].ports[1].guid == f->nodes[i].ports[p].guid)
			return dmodc_nid(d, k, 1);
	return -1;
}

int cong_order_compute(const struct fabric *f, const struct roles_hints *h,
		       struct cong_order *o, int *others, struct osmre_err *err)
{
	struct dmodc *d = NULL;
	struct fabric *c = NULL;
	struct sortkey *k = NULL;
	struct roles ro;
	int i, p, n = 0, rc = -1;

	memset(o, 0, sizeof(*o));
	*others = 0;
	if (roles_compute(f, h, &ro, err))
		return -1;
	c = roles_core(f, &ro, err);
	if (!c)
		goto out;
	if (!(k = order_alloc(f, o))) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	d = ranked(c);
	for (i = 0; i < f->nnodes; i++)
		for (p = 1; p <= f->nodes[i].nports; p++) {
			if (!is_order_port(f, i, p))
				continue;
			if (ro.role[i] != ROLE_COMPUTE) {
				(*others)++;
				continue;
			}
			k[n] = (struct sortkey){ d ? core_nid(d, f, c, i, p) :
						     0,
						 f->nodes[i].ports[p].guid,
						 NULL, i, p };
			n++;
		}
	keys_to_order(k, n, o);
	rc = 0;
out:
	if (rc)
		cong_order_free(o);
	free(k);
	dmodc_free(d);
	fabric_free(c);
	roles_free(&ro);
	return rc;
}

/* Resolves "0x<guid>": a port GUID, or a node GUID (all its ports). */
static int by_guid(const struct fabric *f, uint64_t g, int *node, int *port)
{
	int i, p;

	for (i = 0; i < f->nnodes; i++) {
		if (f->nodes[i].type == FAB_SWITCH)
			continue;
		if (f->nodes[i].guid == g) {
			*node = i;
			*port = 0;
			return 0;
		}
		for (p = 1; p <= f->nodes[i].nports; p++)
			if (f->nodes[i].ports[p].guid == g) {
				*node = i;
				*port = p;
				return 0;
			}
	}
	return -1;
}

int cong_order_read(const char *path, const struct fabric *f,
		    struct cong_order *o, int *unlisted, struct osmre_err *err)
{
	FILE *fp = infile_open(path, "order file", INFILE_LIST_SIZE, err);
	long *off, total;
	int *seen = NULL, ln = 0, i, p, all = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	memset(o, 0, sizeof(*o));
	if (!fp)
		return -1;
	off = port_offsets(f, &total);
	seen = calloc((size_t)total + 1, sizeof(int));
	for (i = 0; i < f->nnodes; i++)
		for (p = 1; p <= f->nodes[i].nports; p++)
			all += is_order_port(f, i, p);
	o->node = malloc(((size_t)all + 1) * sizeof(int));
	o->port = malloc(((size_t)all + 1) * sizeof(int));
	if (!off || !seen || !o->node || !o->port)
		goto oom;
	while ((n = infile_getline(&line, &cap, fp, INFILE_LIST_LINE, path,
				   ln + 1, err)) >= 0) {
		char name[256], extra[2];
		int node, port = 0, k, lo, hi;
		uint64_t g;

		ln++;
		line[strcspn(line, "#\r\n")] = '\0';
		k = sscanf(line, "%255s %d %1s", name, &port, extra);
		if (k <= 0)
			continue;
		if (k > 2 || (k == 2 && port < 1)) {
			osmre_fail(
				err,
				"%s:%d: expected \"NAME\", \"NAME PORT\" or \"0xGUID\"",
				path, ln);
			goto fail;
		}
		if (!strncmp(name, "0x", 2) &&
		    sscanf(name, "0x%" SCNx64 "%1s", &g, extra) == 1) {
			if (k == 2 || by_guid(f, g, &node, &port)) {
				osmre_fail(
					err,
					"%s:%d: %s is no CA port or node GUID of the topology",
					path, ln, name);
				goto fail;
			}
		} else if ((node = fabric_find_host(f, name)) < 0) {
			osmre_fail(err, "%s:%d: no CA \"%s\" in the topology",
				   path, ln, name);
			goto fail;
		}
		lo = port ? port : 1;
		hi = port ? port : f->nodes[node].nports;
		if (hi > f->nodes[node].nports ||
		    (port && !is_order_port(f, node, port))) {
			osmre_fail(err,
				   "%s:%d: \"%s\" port %d has no LID or no link",
				   path, ln, f->nodes[node].name, port);
			goto fail;
		}
		for (p = lo; p <= hi; p++) {
			long q = off[node] + p;

			if (!is_order_port(f, node, p))
				continue;
			if (seen[q]) {
				osmre_fail(
					err,
					"%s:%d: \"%s\" port %d already listed at line %d",
					path, ln, f->nodes[node].name, p,
					seen[q]);
				goto fail;
			}
			seen[q] = ln;
			o->node[o->n] = node;
			o->port[o->n++] = p;
		}
	}
	if (n == -2)
		goto fail;
	*unlisted = all - o->n;
	free(line);
	free(off);
	free(seen);
	fclose(fp);
	return 0;
oom:
	osmre_fail(err, "out of memory");
fail:
	free(line);
	free(off);
	free(seen);
	fclose(fp);
	cong_order_free(o);
	return -1;
}

void cong_order_free(struct cong_order *o)
{
	free(o->node);
	free(o->port);
	memset(o, 0, sizeof(*o));
}

#define MAX_PATH 256

/*
 * A2A: per port, the distinct sources and the distinct destinations.
 * Item i < n walks CA i's routes to all others (its ports count one more
 * source), item n + i the routes of all others to CA i (one more
 * destination); threads keep their own counts, summed at the end.
 */
struct a2a_job {
	const struct fabric *f;
	const struct lft_set *s;
	const struct cong_order *o;
	long *off;
	long total;
	long **stamp;  /* per thread: last item that counted a port */
	int **cnt;     /* per thread: sources, then destinations */
	long **routes; /* per thread: routes through a port; NULL: not asked */
	long *bad;     /* per item */
};

static void a2a_item(void *arg, long item, int tid)
{
	struct a2a_job *j = arg;
	const struct cong_order *o = j->o;
	int dst = item >= o->n, i = (int)(dst ? item - o->n : item), k, x;
	long path[MAX_PATH], *stamp = j->stamp[tid];
	int *cnt = j->cnt[tid] + (dst ? j->total : 0);

	for (k = 0; k < o->n; k++) {
		int a = dst ? k : i, b = dst ? i : k, n;
		unsigned lid = j->f->nodes[o->node[b]].ports[o->port[b]].lid;

		if (a == b)
			continue;
		n = walk(j->f, j->s, j->off, o->node[a], o->port[a], lid, path,
			 MAX_PATH);
		if (n < 0) {
			j->bad[item]++;
			continue;
		}
		for (x = 0; x < n; x++)
			if (stamp[path[x]] != item) {
				stamp[path[x]] = item;
				cnt[path[x]]++;
			}
		if (dst && j->routes)
			for (x = 0; x < n; x++)
				j->routes[tid][path[x]]++;
	}
	progress_step(o->progress, 1);
}

static int a2a_run(const struct fabric *f, const struct lft_set *s,
		   const struct cong_order *o, int threads,
		   struct cong_result *r, struct cong_ports *ports,
		   struct osmre_err *err)
{
	struct a2a_job j = { .f = f, .s = s, .o = o };
	long q, i;
	int t, rc = 0;

	memset(r, 0, sizeof(*r));
	if (threads <= 0)
		threads = parallel_default_threads();
	j.off = port_offsets(f, &j.total);
	j.stamp = calloc((size_t)threads, sizeof(long *));
	j.cnt = calloc((size_t)threads, sizeof(int *));
	j.bad = calloc(2 * (size_t)o->n + 1, sizeof(long));
	if (ports)
		j.routes = calloc((size_t)threads, sizeof(long *));
	for (t = 0; j.stamp && j.cnt && (!ports || j.routes) && t < threads;
	     t++) {
		j.stamp[t] = malloc(((size_t)j.total + 1) * sizeof(long));
		j.cnt[t] = calloc(2 * (size_t)j.total + 1, sizeof(int));
		if (ports)
			j.routes[t] = calloc((size_t)j.total + 1, sizeof(long));
		if (!j.stamp[t] || !j.cnt[t] || (ports && !j.routes[t]))
			break;
		for (q = 0; q < j.total; q++)
			j.stamp[t][q] = -1;
	}
	if (!j.off || !j.stamp || !j.cnt || !j.bad || (ports && !j.routes) ||
	    t < threads) {
		rc = osmre_fail(err, "out of memory");
		goto out;
	}
	parallel_for(threads, 2L * o->n, a2a_item, &j);
	for (t = 1; t < threads; t++)
		for (q = 0; q < 2 * j.total; q++)
			j.cnt[0][q] += j.cnt[t][q];
	for (t = 1; ports && t < threads; t++)
		for (q = 0; q < j.total; q++)
			j.routes[0][q] += j.routes[t][q];
	for (q = 0; q < j.total; q++) {
		int m = j.cnt[0][q] < j.cnt[0][j.total + q] ?
				j.cnt[0][q] :
				j.cnt[0][j.total + q];

		if (m > r->risk)
			r->risk = m;
	}
	for (i = 0; i < o->n; i++)
		r->unroutable += j.bad[i];
	if (ports) { /* handed over: the counts, the offsets, the routes */
		ports->total = j.total;
		ports->off = j.off;
		ports->sources = j.cnt[0];
		ports->routes = j.routes[0];
		j.off = NULL;
		j.cnt[0] = NULL;
		j.routes[0] = NULL;
	}
out:
	for (t = 0; j.stamp && t < threads; t++)
		free(j.stamp[t]);
	for (t = 0; j.cnt && t < threads; t++)
		free(j.cnt[t]);
	for (t = 0; j.routes && t < threads; t++)
		free(j.routes[t]);
	free(j.stamp);
	free(j.cnt);
	free(j.routes);
	free(j.bad);
	free(j.off);
	return rc;
}

int cong_all_to_all(const struct fabric *f, const struct lft_set *s,
		    const struct cong_order *o, int threads,
		    struct cong_result *r, struct osmre_err *err)
{
	return a2a_run(f, s, o, threads, r, NULL, err);
}

int cong_all_to_all_ports(const struct fabric *f, const struct lft_set *s,
			  const struct cong_order *o, int threads,
			  struct cong_result *r, struct cong_ports *ports,
			  struct osmre_err *err)
{
	memset(ports, 0, sizeof(*ports));
	return a2a_run(f, s, o, threads, r, ports, err);
}

void cong_ports_free(struct cong_ports *p)
{
	free(p->off);
	free(p->sources);
	free(p->routes);
	memset(p, 0, sizeof(*p));
}

struct shift_job {
	int random; /* random permutations, else shifts */
	uint64_t seed;
	int **perm; /* per thread, for random permutations */
	const struct fabric *f;
	const struct lft_set *s;
	const struct cong_order *o;
	long *off;
	long total;
	int **load; /* per thread */
	int *risk;  /* per shift */
	long *bad;  /* per shift */
};

/* In a permutation every flow has its own source and destination: the
 * risk of a port is its number of flows. */
static void one_shift(void *arg, long kk, int tid)
{
	struct shift_job *j = arg;
	int *load = j->load[tid], k = (int)kk + 1, i, x, worst = 0;
	int *perm = j->random ? j->perm[tid] : NULL;
	long path[MAX_PATH];

	memset(load, 0, (size_t)j->total * sizeof(int));
	if (perm) { /* Fisher-Yates, seeded per permutation */
		struct rng r;

		rng_seed(&r, j->seed + (uint64_t)kk);
		rng_permutation(&r, perm, j->o->n);
	}
	for (i = 0; i < j->o->n; i++) {
		int b = perm ? perm[i] : (i + k) % j->o->n, n;

		if (b == i)
			continue;
		unsigned lid =
			j->f->nodes[j->o->node[b]].ports[j->o->port[b]].lid;

		n = walk(j->f, j->s, j->off, j->o->node[i], j->o->port[i], lid,
			 path, MAX_PATH);
		if (n < 0) {
			j->bad[kk]++;
			continue;
		}
		for (x = 0; x < n; x++)
			if (++load[path[x]] > worst)
				worst = load[path[x]];
	}
	j->risk[kk] = worst;
	progress_step(j->o->progress, 1);
}

/* count patterns: shifts k = 1..count, or random permutations */
static int run_patterns(const struct fabric *f, const struct lft_set *s,
			const struct cong_order *o, long count, int random,
			uint64_t seed, int threads, struct cong_result *r,
			struct osmre_err *err)
{
	struct shift_job j = { .f = f,
			       .s = s,
			       .o = o,
			       .random = random,
			       .seed = seed };
	int t, rc = 0;
	long k;

	memset(r, 0, sizeof(*r));
	if (o->n < 2 || count < 1)
		return 0;
	if (threads <= 0)
		threads = parallel_default_threads();
	j.off = port_offsets(f, &j.total);
	j.load = calloc((size_t)threads, sizeof(int *));
	j.perm = calloc((size_t)threads, sizeof(int *));
	j.risk = calloc((size_t)count, sizeof(int));
	j.bad = calloc((size_t)count, sizeof(long));
	for (t = 0; j.load && j.perm && t < threads; t++)
		if (!(j.load[t] =
			      malloc(((size_t)j.total + 1) * sizeof(int))) ||
		    !(j.perm[t] = malloc(((size_t)o->n + 1) * sizeof(int))))
			break;
	if (!j.off || !j.load || !j.perm || !j.risk || !j.bad || t < threads) {
		rc = osmre_fail(err, "out of memory");
		goto out;
	}
	parallel_for(threads, count, one_shift, &j);
	for (k = 0; k < count; k++) {
		if (j.risk[k] > r->risk)
			r->risk = j.risk[k];
		r->unroutable += j.bad[k];
	}
	if (random) { /* RP: the median of the maxima */
		qsort(j.risk, (size_t)count, sizeof(int), cmp_int);
		r->risk = j.risk[(count - 1) / 2];
	}
out:
	for (t = 0; j.load && t < threads; t++)
		free(j.load[t]);
	for (t = 0; j.perm && t < threads; t++)
		free(j.perm[t]);
	free(j.load);
	free(j.perm);
	free(j.off);
	free(j.risk);
	free(j.bad);
	return rc;
}

int cong_shifts(const struct fabric *f, const struct lft_set *s,
		const struct cong_order *o, int threads, struct cong_result *r,
		struct osmre_err *err)
{
	return run_patterns(f, s, o, o->n - 1, 0, 0, threads, r, err);
}

int cong_random_perms(const struct fabric *f, const struct lft_set *s,
		      const struct cong_order *o, int nperm, uint64_t seed,
		      int threads, struct cong_result *r, struct osmre_err *err)
{
	return run_patterns(f, s, o, nperm, 1, seed, threads, r, err);
}
