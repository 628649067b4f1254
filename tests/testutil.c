/* SPDX-License-Identifier: BSD-2-Clause */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cdg.h"
#include "components.h"
#include "degrade.h"
#include "dragonfly.h"
#include "lids.h"
#include "netfile.h"
#include "pgft.h"
#include "rng.h"
#include "sar.h"
#include "slmap.h"
#include "updn.h"
#include "testutil.h"

const char *tu_data(const char *name)
{
	static char buf[4096];
	const char *dir = getenv("OSMRE_TESTDATA");

	snprintf(buf, sizeof(buf), "%s/%s", dir ? dir : "tests/data", name);
	return buf;
}

struct fabric *tu_pgft(const char *h, const char *m, const char *w,
		       const char *p, int lmc)
{
	struct pgft_params t;
	struct osmre_err err;
	struct fabric *f = NULL;

	if (pgft_parse(h, m, w, p, &t, &err) || pgft_build(&t, &f, &err) ||
	    lids_assign(f, lmc, &err))
		fail_msg("PGFT(%s;%s;%s;%s): %s", h, m, w, p, err.msg);
	return f;
}

const char tu_ring3_net[] =
	"Switch\t4 \"A\"\n[1]\t\"B\"[2]\n[2]\t\"C\"[1]\n[3]\t\"HA\"[1]\n\n"
	"Switch\t4 \"B\"\n[1]\t\"C\"[2]\n[2]\t\"A\"[1]\n[3]\t\"HB\"[1]\n\n"
	"Switch\t4 \"C\"\n[1]\t\"A\"[2]\n[2]\t\"B\"[1]\n[3]\t\"HC\"[1]\n\n"
	"Hca\t1 \"HA\"\n[1]\t\"A\"[3]\n\n"
	"Hca\t1 \"HB\"\n[1]\t\"B\"[3]\n\n"
	"Hca\t1 \"HC\"\n[1]\t\"C\"[3]\n\n";

struct fabric *tu_read_file(const char *path)
{
	struct osmre_err err;
	struct fabric *f = NULL;

	if (netfile_read(path, &f, &err))
		fail_msg("%s", err.msg);
	return f;
}

FILE *tu_memfile(const char *text, size_t len, char **copy)
{
	FILE *fp;

	*copy = calloc(1, len + 1);
	assert_non_null(*copy);
	memcpy(*copy, text, len);
	fp = fmemopen(*copy, len, "r");
	assert_non_null(fp);
	return fp;
}

int tu_read_net(const char *text, struct fabric **f, struct osmre_err *err)
{
	char *copy;
	FILE *fp = tu_memfile(text, strlen(text), &copy);
	int rc;

	rc = netfile_read_stream(fp, "test.net", f, err);
	fclose(fp);
	free(copy);
	return rc;
}

int tu_walk(const struct fabric *f, const struct lft_set *s, int node, int port,
	    unsigned dlid, tu_visit visit, void *arg)
{
	const struct fab_port *pt = &f->nodes[node].ports[port];
	int hops = 1, cur;

	if (visit)
		visit(arg, node, port);
	if (pt->rnode < 0)
		return -1;
	cur = pt->rnode;
	while (f->nodes[cur].type == FAB_SWITCH) {
		const struct lft *t = lft_of_node(s, cur);
		int out = t ? lft_get(t, dlid) : LFT_NONE;

		if (out == 0)
			return f->nodes[cur].ports[0].lid == dlid ? hops : -1;
		if (out == LFT_NONE || out > f->nodes[cur].nports ||
		    hops > 2 * f->nnodes)
			return -1;
		if (visit)
			visit(arg, cur, out);
		pt = &f->nodes[cur].ports[out];
		if (pt->rnode < 0)
			return -1;
		hops++;
		if (f->nodes[pt->rnode].type != FAB_SWITCH) {
			const struct fab_port *d =
				&f->nodes[pt->rnode].ports[pt->rport];

			return dlid >= d->lid &&
					       dlid < d->lid + (1u << d->lmc) ?
				       hops :
				       -1;
		}
		cur = pt->rnode;
	}
	return -1;
}

static const struct dmodc *sort_d;
static const struct tu_hosts *sort_h;

static int nid_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	long nx = dmodc_nid(sort_d, sort_h->node[x], sort_h->port[x]);
	long ny = dmodc_nid(sort_d, sort_h->node[y], sort_h->port[y]);

	return nx < ny ? -1 : nx > ny;
}

void tu_hosts_by_nid(const struct fabric *f, const struct dmodc *d,
		     struct tu_hosts *h)
{
	int i, p, n = 0, *idx, *node, *port;

	for (i = 0; i < f->nnodes; i++)
		for (p = 1; p <= f->nodes[i].nports; p++)
			n += f->nodes[i].type != FAB_SWITCH &&
			     f->nodes[i].ports[p].lid;
	h->node = malloc(sizeof(int) * (size_t)(n + 1));
	h->port = malloc(sizeof(int) * (size_t)(n + 1));
	idx = malloc(sizeof(int) * (size_t)(n + 1));
	assert_true(h->node && h->port && idx);
	h->n = 0;
	for (i = 0; i < f->nnodes; i++)
		for (p = 1; p <= f->nodes[i].nports; p++)
			if (f->nodes[i].type != FAB_SWITCH &&
			    f->nodes[i].ports[p].lid) {
				h->node[h->n] = i;
				h->port[h->n] = p;
				idx[h->n] = h->n;
				h->n++;
			}
	sort_d = d;
	sort_h = h;
	qsort(idx, (size_t)n, sizeof(int), nid_cmp);
	node = malloc(sizeof(int) * (size_t)(n + 1));
	port = malloc(sizeof(int) * (size_t)(n + 1));
	assert_true(node && port);
	for (i = 0; i < n; i++) {
		node[i] = h->node[idx[i]];
		port[i] = h->port[idx[i]];
	}
	free(h->node);
	free(h->port);
	free(idx);
	h->node = node;
	h->port = port;
}

void tu_hosts_free(struct tu_hosts *h)
{
	free(h->node);
	free(h->port);
}

struct load {
	const long *off;
	int *cnt;
	int max;
};

static void count_port(void *arg, int node, int port)
{
	struct load *l = arg;
	int *c = &l->cnt[l->off[node] + port];

	if (++*c > l->max)
		l->max = *c;
}

int tu_max_shift_risk(const struct fabric *f, const struct lft_set *s,
		      const struct tu_hosts *h)
{
	long *off = malloc(sizeof(long) * ((size_t)f->nnodes + 1)), total = 0;
	struct load l = { 0 };
	int i, k, worst = 0;

	assert_non_null(off);
	for (i = 0; i < f->nnodes; i++) {
		off[i] = total;
		total += f->nodes[i].nports + 1;
	}
	l.off = off;
	l.cnt = malloc(sizeof(int) * (size_t)(total + 1));
	assert_non_null(l.cnt);
	/* in a permutation every flow has its own source and destination,
	 * so min(#src, #dst) of a port is its number of flows */
	for (k = 1; k < h->n; k++) {
		memset(l.cnt, 0, sizeof(int) * (size_t)total);
		l.max = 0;
		for (i = 0; i < h->n; i++) {
			int j = (i + k) % h->n;
			unsigned lid =
				f->nodes[h->node[j]].ports[h->port[j]].lid;

			if (tu_walk(f, s, h->node[i], h->port[i], lid,
				    count_port, &l) < 0)
				fail_msg("shift %d: no route from %s to %s", k,
					 f->nodes[h->node[i]].name,
					 f->nodes[h->node[j]].name);
		}
		if (l.max > worst)
			worst = l.max;
	}
	free(l.cnt);
	free(off);
	return worst;
}

char *tu_updown_oracle(const struct fabric *f, const int *rank)
{
	int n = f->nnodes, a, *queue = malloc(sizeof(int) * 2 * (size_t)n);
	char *ud = calloc((size_t)n * (size_t)n, 1);
	char *seen = malloc(2 * (size_t)n);

	assert_true(queue && ud && seen);
	for (a = 0; a < n; a++) {
		int head = 0, tail = 0;

		if (rank[a] != 0)
			continue;
		memset(seen, 0, 2 * (size_t)n);
		queue[tail++] = a * 2; /* state: node * 2 + down */
		seen[a * 2] = 1;
		while (head < tail) {
			int st = queue[head++], u = st / 2, down = st % 2, p;
			const struct fab_node *nd = &f->nodes[u];

			if (rank[u] == 0)
				ud[(size_t)a * n + u] = 1;
			for (p = 1; p <= nd->nports; p++) {
				int v = nd->ports[p].rnode, ns;

				if (v < 0 || f->nodes[v].type != FAB_SWITCH)
					continue;
				if (rank[v] == rank[u] + 1 && !down)
					ns = v * 2;
				else if (rank[v] == rank[u] - 1)
					ns = v * 2 + 1;
				else
					continue;
				if (!seen[ns]) {
					seen[ns] = 1;
					queue[tail++] = ns;
				}
			}
		}
	}
	free(queue);
	free(seen);
	return ud;
}

struct fabric *tu_from_text(const char *text, int lmc)
{
	struct fabric *f;
	struct osmre_err err;

	if (tu_read_net(text, &f, &err) || lids_assign(f, lmc, &err))
		fail_msg("%s", err.msg);
	return f;
}

/* A W x H torus of 6-port switches T<x>_<y>, one host each. */
char *tu_torus(int w, int h)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	int x, y;

	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			fprintf(fp, "Switch\t5 \"T%d_%d\"\n", x, y);
			fprintf(fp, "[1]\t\"T%d_%d\"[2]\n", (x + 1) % w, y);
			fprintf(fp, "[2]\t\"T%d_%d\"[1]\n", (x + w - 1) % w, y);
			fprintf(fp, "[3]\t\"T%d_%d\"[4]\n", x, (y + 1) % h);
			fprintf(fp, "[4]\t\"T%d_%d\"[3]\n", x, (y + h - 1) % h);
			fprintf(fp, "[5]\t\"h%d_%d\"[1]\n\n", x, y);
		}
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++)
			fprintf(fp, "Hca\t1 \"h%d_%d\"\n[1]\t\"T%d_%d\"[5]\n\n",
				x, y, x, y);
	fclose(fp);
	return buf;
}

char *tu_ring(int n, int every)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	int x;

	for (x = 0; x < n; x++) {
		int host = x % every == 0;

		fprintf(fp, "Switch\t%d \"R%d\"\n", host ? 3 : 2, x);
		fprintf(fp, "[1]\t\"R%d\"[2]\n", (x + 1) % n);
		fprintf(fp, "[2]\t\"R%d\"[1]\n", (x + n - 1) % n);
		if (host)
			fprintf(fp, "[3]\t\"r%d\"[1]\n", x);
		fprintf(fp, "\n");
	}
	for (x = 0; x < n; x += every)
		fprintf(fp, "Hca\t1 \"r%d\"\n[1]\t\"R%d\"[3]\n\n", x, x);
	fclose(fp);
	return buf;
}

/* tu_random_graph's link a - b on each one's next free port (port k of
 * switch i, 0-based: peer[i * deg + k], its port there pport[...]). */
static void rg_link(int *peer, int *pport, int *used, int deg, int a, int b)
{
	peer[a * deg + used[a]] = b;
	pport[a * deg + used[a]] = used[b];
	peer[b * deg + used[b]] = a;
	pport[b * deg + used[b]] = used[a];
	used[a]++;
	used[b]++;
}

char *tu_random_graph(uint64_t seed, int most, int *nsw)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;
	struct rng r;
	int *peer, *pport, *used, i, k, tries, n, deg, h;

	rng_seed(&r, seed); /* the shape, then (seeded again) the links */
	n = 16 + (int)rng_below(&r, (uint64_t)most - 15);
	deg = 3 + (int)rng_below(&r, 4);
	h = 1 + (int)rng_below(&r, 2);
	*nsw = n;
	peer = calloc((size_t)n * deg, sizeof(int));
	pport = calloc((size_t)n * deg, sizeof(int));
	used = calloc((size_t)n, sizeof(int));
	if (!peer || !pport || !used)
		fail_msg("out of memory");
	rng_seed(&r, seed);
	for (i = 1; i < n; i++) { /* a tree: i to an earlier one with room */
		int j;

		do
			j = (int)rng_below(&r, (uint64_t)i);
		while (used[j] == deg);
		rg_link(peer, pport, used, deg, i, j);
	}
	for (tries = 0; tries < n * deg * 4; tries++) {
		int a = (int)rng_below(&r, (uint64_t)n),
		    b = (int)rng_below(&r, (uint64_t)n);

		if (a == b || used[a] == deg || used[b] == deg)
			continue;
		rg_link(peer, pport, used, deg, a, b);
	}
	fp = open_memstream(&buf, &len);
	for (i = 0; i < n; i++) {
		fprintf(fp, "Switch\t%d \"G%d\"\n", deg + h, i);
		for (k = 0; k < used[i]; k++)
			fprintf(fp, "[%d]\t\"G%d\"[%d]\n", k + 1,
				peer[i * deg + k], pport[i * deg + k] + 1);
		for (k = 0; k < h; k++)
			fprintf(fp, "[%d]\t\"g%d_%d\"[1]\n", deg + k + 1, i, k);
		fprintf(fp, "\n");
	}
	for (i = 0; i < n; i++)
		for (k = 0; k < h; k++)
			fprintf(fp, "Hca\t1 \"g%d_%d\"\n[1]\t\"G%d\"[%d]\n\n",
				i, k, i, deg + k + 1);
	fclose(fp);
	free(peer);
	free(pport);
	free(used);
	return buf;
}

/* Switch (x, y)'s port to (x2, y) (row) or (x, y2) (column) in
 * tu_hyperx: hosts first, then the row's other switches, then the
 * column's. */
static int hx_port(int n, int h, int x, int y, int x2, int y2)
{
	if (y2 == y)
		return h + 1 + (x2 < x ? x2 : x2 - 1);
	return h + n + (y2 < y ? y2 : y2 - 1);
}

char *tu_hyperx(int n, int h)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	int x, y, k;

	for (y = 0; y < n; y++)
		for (x = 0; x < n; x++) {
			fprintf(fp, "Switch\t%d \"X%d_%d\"\n", h + 2 * (n - 1),
				x, y);
			for (k = 0; k < h; k++)
				fprintf(fp, "[%d]\t\"x%d_%d_%d\"[1]\n", k + 1,
					x, y, k);
			for (k = 0; k < n; k++)
				if (k != x)
					fprintf(fp, "[%d]\t\"X%d_%d\"[%d]\n",
						hx_port(n, h, x, y, k, y), k, y,
						hx_port(n, h, k, y, x, y));
			for (k = 0; k < n; k++)
				if (k != y)
					fprintf(fp, "[%d]\t\"X%d_%d\"[%d]\n",
						hx_port(n, h, x, y, x, k), x, k,
						hx_port(n, h, x, k, x, y));
			fprintf(fp, "\n");
		}
	for (y = 0; y < n; y++)
		for (x = 0; x < n; x++)
			for (k = 0; k < h; k++)
				fprintf(fp,
					"Hca\t1 \"x%d_%d_%d\"\n[1]\t\"X%d_%d\"[%d]\n\n",
					x, y, k, x, y, k + 1);
	fclose(fp);
	return buf;
}

/*
 * A dragonfly: G groups of A switches, all-to-all inside a group, switch
 * a of group g linked to group (g + a + 1) mod G (one global link per
 * switch, G = A + 1), two hosts per switch.
 */
char *tu_dragonfly(int a)
{
	int g = a + 1, gi, ai, k;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	for (gi = 0; gi < g; gi++)
		for (ai = 0; ai < a; ai++) {
			int port = 1, og = (gi + ai + 1) % g, oa;

			fprintf(fp, "Switch\t%d \"D%d_%d\"\n", a + 2, gi, ai);
			for (k = 0; k < a; k++)
				if (k != ai) /* local: port of k on us */
					fprintf(fp, "[%d]\t\"D%d_%d\"[%d]\n",
						port++, gi, k,
						ai < k ? ai + 1 : ai);
			/* global: the switch of og that points back to gi */
			oa = (gi - og - 1 + 2 * g) % g;
			fprintf(fp, "[%d]\t\"D%d_%d\"[%d]\n", port++, og, oa,
				a);
			fprintf(fp, "[%d]\t\"d%d_%d_0\"[1]\n", port++, gi, ai);
			fprintf(fp, "[%d]\t\"d%d_%d_1\"[1]\n\n", port, gi, ai);
		}
	for (gi = 0; gi < g; gi++)
		for (ai = 0; ai < a; ai++)
			for (k = 0; k < 2; k++)
				fprintf(fp,
					"Hca\t1 \"d%d_%d_%d\"\n[1]\t\"D%d_%d\"[%d]\n\n",
					gi, ai, k, gi, ai, a + 1 + k);
	fclose(fp);
	return buf;
}

int tu_sls_acyclic(const struct fabric *f, const struct lft_set *s,
		   const struct sar_result *r, int escape_vl)
{
	char path[] = "/tmp/osmre-sls-XXXXXX";
	struct cdg_result c;
	struct osmre_err err;
	struct sl_map m;
	int fd = mkstemp(path), acyclic;
	FILE *fp;

	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	assert_non_null(fp);
	if (r)
		assert_int_equal(sar_write_sls(fp, f, r), 0);
	else
		fprintf(fp, "default 0\n");
	if (escape_vl >= 0)
		assert_int_equal(updn_write_sls(fp, f, escape_vl), 0);
	fclose(fp);
	if (sl_map_read(path, f, &m, &err) || cdg_check(f, s, &m, &c, &err))
		fail_msg("%s", err.msg);
	acyclic = c.acyclic;
	cdg_result_free(&c);
	sl_map_free(&m);
	unlink(path);
	return acyclic;
}

long tu_cross_part_pairs(const struct fabric *f, long *sw)
{
	int *comp = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	char *hosted = calloc((size_t)f->nnodes + 1, 1);
	long n = 0;
	int d, dp, i, p;

	*sw = 0;
	assert_true(comp && hosted);
	assert_int_equal(switch_components(f, comp), 0);
	for (i = 0; i < f->nnodes; i++)
		for (p = 1; f->nodes[i].type != FAB_SWITCH &&
			    !f->nodes[i].removed && p <= f->nodes[i].nports;
		     p++)
			if (f->nodes[i].ports[p].rnode >= 0 &&
			    comp[f->nodes[i].ports[p].rnode] >= 0)
				hosted[comp[f->nodes[i].ports[p].rnode]] = 1;
	for (d = 0; d < f->nnodes; d++) {
		const struct fab_node *nd = &f->nodes[d];
		int is_sw = nd->type == FAB_SWITCH;

		if (nd->removed)
			continue;
		for (dp = is_sw ? 0 : 1; dp <= (is_sw ? 0 : nd->nports); dp++) {
			const struct fab_port *dt = &nd->ports[dp];
			int dc = is_sw		? comp[d] :
				 dt->rnode >= 0 ? comp[dt->rnode] :
						  -1;
			long lids = dt->lid ? 1L << dt->lmc : 0;

			if (dc < 0 || !lids || !hosted[dc])
				continue;
			for (i = 0; i < f->nnodes; i++) {
				const struct fab_node *s = &f->nodes[i];

				if (s->type == FAB_SWITCH || s->removed)
					continue;
				for (p = 1; p <= s->nports; p++) {
					int r = s->ports[p].rnode;

					if (!s->ports[p].lid || r < 0 ||
					    comp[r] < 0 || comp[r] == dc ||
					    components_meet(f, comp, i, dc))
						continue;
					if (is_sw)
						*sw += lids;
					else
						n += lids;
				}
			}
		}
	}
	free(comp);
	free(hosted);
	return n;
}

struct fabric *tu_df_failed(const struct df_params *p, int pct, uint64_t seed)
{
	struct osmre_err err;
	struct fabric *f;
	struct rng rg;

	assert_int_equal(df_build(p, &f, &err), 0);
	rng_seed(&rg, seed);
	assert_int_equal(degrade_remove(f, DEGRADE_LINKS,
					degrade_candidates(f, DEGRADE_LINKS) *
						pct / 100,
					&rg, &err),
			 0);
	assert_int_equal(lids_assign(f, 0, &err), 0);
	return f;
}
