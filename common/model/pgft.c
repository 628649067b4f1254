/* SPDX-License-Identifier: BSD-2-Clause */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgft.h"

static int parse_list(const char *what, const char *s, int n, int *out,
		      struct osmre_err *err)
{
	int i;

	for (i = 1; i <= n; i++) {
		char *end;
		long v;

		errno = 0;
		v = strtol(s, &end, 10);
		if (end == s || errno || v < 1 || v > FAB_MAX_PORTS)
			return osmre_fail(
				err,
				"%s: expected %d comma-separated integers 1..%d, got \"%s\"",
				what, n, FAB_MAX_PORTS, s);
		out[i] = (int)v;
		s = end;
		if (i < n && *s++ != ',')
			return osmre_fail(err,
					  "%s: expected %d values, found %d",
					  what, n, i);
	}
	if (*s)
		return osmre_fail(err, "%s: more than %d values (h = %d)", what,
				  n, n);
	return 0;
}

int rlft_params(int k, int pods, struct pgft_params *out, struct osmre_err *err)
{
	int half = k / 2, b;

	if (k < 4 || k > FAB_MAX_PORTS || k % 2)
		return osmre_fail(err, "the radix must be even, 4..%d (got %d)",
				  FAB_MAX_PORTS, k);
	if (pods < 2 || pods > k)
		return osmre_fail(
			err,
			"the pods must number 2..%d (the radix; got %d): a core switch reaches every pod",
			k, pods);
	for (b = k / pods; half % b; b--)
		;
	memset(out, 0, sizeof(*out));
	out->h = 3;
	out->m[1] = half;
	out->m[2] = half;
	out->m[3] = pods;
	out->w[1] = 1;
	out->w[2] = half;
	out->w[3] = half / b;
	out->p[1] = 1;
	out->p[2] = 1;
	out->p[3] = b;
	return 0;
}

int pgft_parse(const char *h, const char *m, const char *w, const char *p,
	       struct pgft_params *out, struct osmre_err *err)
{
	char *end;
	long lh;
	int l;

	memset(out, 0, sizeof(*out));
	errno = 0;
	lh = strtol(h, &end, 10);
	if (end == h || *end || errno || lh < 1 || lh > PGFT_MAX_LEVELS)
		return osmre_fail(
			err, "h: expected a number of levels 1..%d, got \"%s\"",
			PGFT_MAX_LEVELS, h);
	out->h = (int)lh;
	if (parse_list("m", m, out->h, out->m, err) ||
	    parse_list("w", w, out->h, out->w, err))
		return -1;
	if (p) {
		if (parse_list("p", p, out->h, out->p, err))
			return -1;
	} else {
		for (l = 1; l <= out->h; l++)
			out->p[l] = 1;
	}
	for (l = 1; l <= out->h; l++) {
		int ports = out->m[l] * out->p[l] +
			    (l < out->h ? out->w[l + 1] * out->p[l + 1] : 0);

		if (ports > FAB_MAX_PORTS)
			return osmre_fail(
				err,
				"level %d switches need %d ports (at most %d)",
				l, ports, FAB_MAX_PORTS);
	}
	if (out->w[1] * out->p[1] > FAB_MAX_PORTS)
		return osmre_fail(err, "hosts need %d ports (at most %d)",
				  out->w[1] * out->p[1], FAB_MAX_PORTS);
	if (pgft_switches(out) + pgft_level_size(out, 0) > 1000000)
		return osmre_fail(err, "more than 1,000,000 nodes");
	return 0;
}

int qft_cross_level(const struct pgft_params *t)
{
	int l;

	for (l = 1; t->qft && l <= t->h; l++)
		if (t->p[l] > 1)
			return l;
	return 0;
}

int qft_parse(const char *h, const char *m, const char *w, const char *p,
	      struct pgft_params *out, struct osmre_err *err)
{
	int l, c = 0;

	if (pgft_parse(h, m, w, p, out, err))
		return -1;
	out->qft = 1;
	for (l = 1; l <= out->h; l++) {
		if (out->p[l] == 1)
			continue;
		if (c)
			return osmre_fail(
				err,
				"p: levels %d and %d both have p > 1; a QFT is cross-connected at one level only",
				c, l);
		c = l;
	}
	if (!c)
		return 0; /* a plain fat tree */
	if (c == 1 || c == out->h)
		return osmre_fail(
			err,
			"p: p_%d = %d: the cross-connected level must lie between 2 and h - 1 = %d (hosts and the top level are not cross-connected)",
			c, out->p[c], out->h - 1);
	if (out->m[c + 1] % out->p[c])
		return osmre_fail(
			err,
			"m_%d = %d is not divisible by p_%d = %d: the cross-connections of level %d join groups of p_%d subtrees",
			c + 1, out->m[c + 1], c, out->p[c], c, c);
	if (c + 2 <= out->h && out->w[c + 2] % out->p[c])
		return osmre_fail(
			err,
			"w_%d = %d is not divisible by p_%d = %d (the paper's restriction for contention-free routing)",
			c + 2, out->w[c + 2], c, out->p[c]);
	return 0;
}

int topo_spec_parse(const char *spec, struct pgft_params *out,
		    struct osmre_err *err)
{
	char buf[256], *f[4], *save = NULL, *tok;
	int qft, n = 0;
	size_t len = strlen(spec);

	qft = !strncmp(spec, "qft(", 4);
	if (!qft && strncmp(spec, "pgft(", 5))
		return osmre_fail(
			err, "\"%s\": expected pgft(H;M;W[;P]) or qft(H;M;W;P)",
			spec);
	if (len >= sizeof(buf) || spec[len - 1] != ')')
		return osmre_fail(err, "\"%s\": expected a closing parenthesis",
				  spec);
	memcpy(buf, spec + (qft ? 4 : 5), len - (qft ? 5 : 6));
	buf[len - (qft ? 5 : 6)] = '\0';
	for (tok = strtok_r(buf, ";", &save); tok && n < 4;
	     tok = strtok_r(NULL, ";", &save))
		f[n++] = tok;
	if (tok || n < 3 || (qft && n < 4))
		return osmre_fail(err,
				  "\"%s\": expected %s fields separated by ';'",
				  spec, qft ? "4" : "3 or 4");
	if (qft ? qft_parse(f[0], f[1], f[2], f[3], out, err) :
		  pgft_parse(f[0], f[1], f[2], n == 4 ? f[3] : NULL, out, err))
		return osmre_prefix(err, "%s", spec);
	return 0;
}

void topo_spec_format(const struct pgft_params *t, char *buf, size_t sz)
{
	const int *v[3] = { t->m, t->w, t->p };
	size_t n = (size_t)snprintf(buf, sz, "%s(%d", t->qft ? "qft" : "pgft",
				    t->h);
	int k, l;

	for (k = 0; k < 3 && n < sz; k++)
		for (l = 1; l <= t->h && n < sz; l++)
			n += (size_t)snprintf(buf + n, sz - n, "%c%d",
					      l == 1 ? ';' : ',', v[k][l]);
	if (n < sz)
		snprintf(buf + n, sz - n, ")");
}

long pgft_level_size(const struct pgft_params *t, int l)
{
	long n = 1;
	int i;

	for (i = 1; i <= t->h; i++)
		n *= i <= l ? t->w[i] : t->m[i];
	return n;
}

long pgft_switches(const struct pgft_params *t)
{
	long n = 0;
	int l;

	for (l = 1; l <= t->h; l++)
		n += pgft_level_size(t, l);
	return n;
}

long pgft_links_at(const struct pgft_params *t, int l)
{
	return pgft_level_size(t, l) * t->m[l] * t->p[l];
}

/* Radix of digit i for a node of level l (eq. 2-3). */
static int radix(const struct pgft_params *t, int l, int i)
{
	return i <= l ? t->w[i] : t->m[i];
}

static void digits_of(const struct pgft_params *t, int l, long idx, int *d)
{
	int i;

	for (i = 1; i <= t->h; i++) {
		d[i] = (int)(idx % radix(t, l, i));
		idx /= radix(t, l, i);
	}
}

static long index_of(const struct pgft_params *t, int l, const int *d)
{
	long idx = 0;
	int i;

	for (i = t->h; i >= 1; i--)
		idx = idx * radix(t, l, i) + d[i];
	return idx;
}

static void node_name(const struct pgft_params *t, int l, const int *d,
		      long idx, char *buf, size_t sz)
{
	size_t n;
	int i;

	if (l == 0) {
		snprintf(buf, sz, "H_%ld_%d", idx / t->m[1], d[1]);
		return;
	}
	n = (size_t)snprintf(buf, sz, "S%d", l);
	for (i = t->h; i >= 1 && n < sz; i--)
		n += (size_t)snprintf(buf + n, sz - n, "_%d", d[i]);
}

static int node_ports(const struct pgft_params *t, int l)
{
	int up = l < t->h ? t->w[l + 1] * t->p[l + 1] : 0;

	if (l == 0)
		return up > 1 ? up : 2;
	return t->m[l] * t->p[l] + up;
}

int pgft_build(const struct pgft_params *t, struct fabric **out,
	       struct osmre_err *err)
{
	struct fabric *f = fabric_new();
	long first[PGFT_MAX_LEVELS + 1], idx;
	int d[PGFT_MAX_LEVELS + 1], l, order[PGFT_MAX_LEVELS + 1], k, c;
	char name[128];

	if (!f)
		return osmre_fail(err, "out of memory");
	/* creation order: levels h..1, then hosts */
	for (l = 0; l < t->h; l++)
		order[l] = t->h - l;
	order[t->h] = 0;
	for (k = 0; k <= t->h; k++) {
		l = order[k];
		first[l] = f->nnodes;
		for (idx = 0; idx < pgft_level_size(t, l); idx++) {
			uint64_t guid;

			digits_of(t, l, idx, d);
			node_name(t, l, d, idx, name, sizeof(name));
			guid = l ? 0x200000 + (uint64_t)(f->nnodes -
							 first[t->h]) :
				   0x100000 + (uint64_t)idx *
						       ((uint64_t)node_ports(
								t, 0) +
							1);
			if (fabric_add_node(f, l ? FAB_SWITCH : FAB_CA, name,
					    NULL, node_ports(t, l), guid,
					    err) < 0)
				goto fail;
		}
	}
	/* eq. (5): a level-l switch links to the level-(l-1) nodes whose
	 * digits equal its own except digit l; in a QFT, eq. (6)-(8), parallel
	 * link k goes instead to the node whose digit l+1 is member k of the
	 * switch's group of p_l */
	for (l = 1; l <= t->h; l++) {
		for (idx = 0; idx < pgft_level_size(t, l); idx++) {
			int cd[PGFT_MAX_LEVELS + 1];
			long a = first[l] + idx;

			digits_of(t, l, idx, d);
			memcpy(cd, d, sizeof(cd));
			for (k = 0; k < t->p[l]; k++) {
				for (c = 0; c < t->m[l]; c++) {
					int up_base =
						l > 1 ? t->m[l - 1] *
								t->p[l - 1] :
							0;
					long b;

					int g = k;

					cd[l] = c;
					if (t->qft && l < t->h && t->p[l] > 1) {
						cd[l + 1] = d[l + 1] / t->p[l] *
								    t->p[l] +
							    k;
						g = d[l + 1] % t->p[l];
					}
					b = first[l - 1] +
					    index_of(t, l - 1, cd);
					if (fabric_link(f, (int)a,
							1 + c + t->m[l] * k,
							(int)b,
							up_base + 1 + d[l] +
								t->w[l] * g,
							err))
						goto fail;
				}
			}
		}
	}
	*out = f;
	return 0;
fail:
	fabric_free(f);
	return -1;
}
