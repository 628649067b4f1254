/* SPDX-License-Identifier: BSD-2-Clause */
/* Reader of ibnetdiscover / ibsim net files (see netfile.h). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "infile.h"
#include "netfile.h"

/* A port line as written, resolved once every node is known. */
struct decl {
	char *rname;
	int rport;
	int line;
};

struct reader {
	const char *file;
	FILE *fp;
	char *buf;
	size_t bufsz;
	int line;
	int pushed; /* buf holds a line not consumed yet */
	int failed; /* a line over the limit: err says so */
	struct fabric *f;
	struct decl **decl; /* per node, nports + 1 entries */
	int decl_cap;
	uint64_t guid[4], absguid[4]; /* indexed by node type */
	struct osmre_err *err;
};

#define rfail(r, ...) rfail_at(r, (r)->line, __VA_ARGS__)

static int rfail_at(struct reader *r, int line, const char *what,
		    const char *detail)
{
	return osmre_fail(r->err, "%s:%d: %s%s%s", r->file, line, what,
			  detail && *detail ? ": " : "", detail ? detail : "");
}

/* Next line without its newline, or NULL at end of file. */
static char *next_line(struct reader *r)
{
	ssize_t n, i;

	if (r->failed)
		return NULL;
	if (r->pushed) {
		r->pushed = 0;
		return r->buf;
	}
	n = infile_getline(&r->buf, &r->bufsz, r->fp, INFILE_NET_LINE, r->file,
			   r->line + 1, r->err);
	if (n == -2)
		r->failed = 1;
	if (n < 0)
		return NULL;
	r->line++;
	while (n > 0 && (r->buf[n - 1] == '\n' || r->buf[n - 1] == '\r'))
		r->buf[--n] = 0;
	/* names reach terminals and logs: no control bytes (tabs apart) */
	for (i = 0; i < n; i++)
		if (((unsigned char)r->buf[i] < 0x20 && r->buf[i] != '\t') ||
		    r->buf[i] == 0x7f) {
			osmre_fail(r->err,
				   "%s:%d: column %zd: a control byte (0x%02x)",
				   r->file, r->line, i + 1,
				   (unsigned)(unsigned char)r->buf[i]);
			r->failed = 1;
			return NULL;
		}
	return r->buf;
}

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Parses "..." at s into out (malloc'ed); returns the char after it. */
static const char *parse_quoted(const char *s, char **out)
{
	const char *e;

	if (*s != '"')
		return NULL;
	e = strchr(s + 1, '"');
	if (!e)
		return NULL;
	*out = strndup(s + 1, (size_t)(e - s - 1));
	return *out ? e + 1 : NULL;
}


static int parse_uint(const char **s, unsigned long max, unsigned long *v)
{
	char *end;

	if (!isdigit((unsigned char)**s))
		return -1;
	errno = 0;
	*v = strtoul(*s, &end, 0);
	if (errno || *v > max)
		return -1;
	*s = end;
	return 0;
}

/* Finds " key N" in s and stores N; returns 1 when found, -1 when bad. */
static int find_keyed_uint(const char *s, const char *key, unsigned long max,
			   unsigned long *v)
{
	const char *p = strstr(s, key);

	if (!p)
		return 0;
	p = skip_ws(p + strlen(key));
	return parse_uint(&p, max, v) ? -1 : 1;
}

static int parse_guid_line(struct reader *r, const char *s, int type)
{
	const char *op = strpbrk(s, "=+");
	char *end;
	uint64_t v;

	if (!op)
		return rfail(r, "expected '=' or '+' in GUID assignment", s);
	errno = 0;
	v = strtoull(op + 1, &end, 0);
	if (errno || end == op + 1)
		return rfail(r, "expected a GUID value", s);
	if (*op == '=') {
		r->absguid[type] = v;
		v = 0;
	}
	r->guid[type] = r->absguid[type] + v;
	return 0;
}

static int grow_decl(struct reader *r, int node, int nports)
{
	if (node >= r->decl_cap) {
		int cap = r->decl_cap ? r->decl_cap * 2 : 256;
		struct decl **d = realloc(r->decl, (size_t)cap * sizeof(*d));

		if (!d)
			return -1;
		memset(d + r->decl_cap, 0,
		       (size_t)(cap - r->decl_cap) * sizeof(*d));
		r->decl = d;
		r->decl_cap = cap;
	}
	r->decl[node] = calloc((size_t)nports + 1, sizeof(struct decl));
	return r->decl[node] ? 0 : -1;
}

/* "[p](guid) "remote"[q](guid) # lid N lmc M ..." */
static int parse_port_line(struct reader *r, int node, const char *s)
{
	struct fab_node *n = &r->f->nodes[node];
	struct decl *d;
	unsigned long port, rport = 1, v;
	const char *p = s + 1;
	char *rname = NULL;

	if (parse_uint(&p, 1000, &port) || *p != ']')
		return rfail(r,
			     "expected \"[port]\" at the start of a port line",
			     s);
	if (port > (unsigned long)n->nports || port == 0)
		return osmre_fail(r->err,
				  "%s:%d: port %lu of \"%s\" out of range 1..%d",
				  r->file, r->line, port, n->name, n->nports);
	p++;
	if (*p == '(') { /* local port GUID as ibnetdiscover writes it */
		p = strchr(p, ')');
		if (!p)
			return rfail(r, "expected ')' after the port GUID", s);
		p++;
	}
	p = skip_ws(p);
	if (!*p || *p == '#') /* a port with no link */
		return 0;
	p = parse_quoted(p, &rname);
	if (!p)
		return rfail(r, "expected a quoted remote node name", s);
	if (*p == '[') {
		p++;
		if (parse_uint(&p, 1000, &rport) || *p != ']' || rport == 0) {
			free(rname);
			return rfail(r,
				     "expected \"[port]\" after the remote name",
				     s);
		}
		p++;
	}
	d = &r->decl[node][port];
	if (d->rname) {
		free(rname);
		return osmre_fail(
			r->err,
			"%s:%d: port %lu of \"%s\" listed twice (first at line %d)",
			r->file, r->line, port, n->name, d->line);
	}
	d->rname = rname;
	d->rport = (int)rport;
	d->line = r->line;
	/* ibnetdiscover: "# lid N lmc M" right after '#' is this CA port's */
	p = strchr(p, '#');
	if (p && n->type != FAB_SWITCH) {
		p = skip_ws(p + 1);
		if (!strncmp(p, "lid ", 4)) {
			p = skip_ws(p + 4);
			if (parse_uint(&p, FAB_MAX_UCAST_LID, &v))
				return rfail(r, "expected a LID after \"lid\"",
					     s);
			n->ports[port].lid = (uint16_t)v;
			p = skip_ws(p);
			if (!strncmp(p, "lmc ", 4)) {
				p = skip_ws(p + 4);
				if (parse_uint(&p, 7, &v))
					return rfail(r, "expected an LMC 0..7",
						     s);
				n->ports[port].lmc = (uint8_t)v;
			}
		}
	}
	return 0;
}

/* "Switch 36 "id" # "desc" enhanced port 0 lid 3 lmc 0" and CA headers. */
static int parse_node(struct reader *r, const char *s, int type, size_t kwlen)
{
	const char *p = s + kwlen, *q;
	unsigned long nports, v;
	char *name = NULL, *desc = NULL;
	int node, lines = 0, rc;
	char *l;

	if (*p != ' ' && *p != '\t')
		return rfail(r,
			     "expected the number of ports after the node type",
			     s);
	p = skip_ws(p);
	if (parse_uint(&p, FAB_MAX_PORTS, &nports) || nports == 0)
		return rfail(r, "expected a number of ports 1..254", s);
	p = parse_quoted(skip_ws(p), &name);
	if (!p)
		return rfail(r, "expected a quoted node name", s);
	q = strchr(p, '#');
	if (q) {
		q = skip_ws(q + 1);
		if (*q == '"') {
			q = parse_quoted(q, &desc);
		} else {
			const char *e = q + strlen(q);
			const char *stops[] = { " enhanced port ",
						" base port ", " lid ",
						" lmc " };
			size_t i;

			for (i = 0; i < sizeof(stops) / sizeof(stops[0]); i++) {
				const char *x = strstr(q, stops[i]);

				if (x && x < e)
					e = x;
			}
			desc = strndup(q, (size_t)(e - q));
		}
	}
	node = fabric_add_node(r->f, type, name, desc, (int)nports,
			       r->guid[type], r->err);
	if (node >= 0 && grow_decl(r, node, (int)nports))
		node = osmre_fail(r->err, "out of memory");
	free(name);
	free(desc);
	if (node < 0)
		return osmre_prefix(r->err, "%s:%d", r->file, r->line);
	r->guid[type] += type == FAB_SWITCH ? 1 : nports + 1;
	if (type == FAB_SWITCH && (q = strchr(p, '#'))) {
		rc = find_keyed_uint(q, " lid ", FAB_MAX_UCAST_LID, &v);
		if (rc < 0)
			return rfail(r, "expected a LID after \"lid\"", s);
		if (rc)
			r->f->nodes[node].ports[0].lid = (uint16_t)v;
		rc = find_keyed_uint(q, " lmc ", 7, &v);
		if (rc < 0)
			return rfail(r, "expected an LMC 0..7 after \"lmc\"",
				     s);
		if (rc)
			r->f->nodes[node].ports[0].lmc = (uint8_t)v;
	}
	/* ibsim reads at most nports port lines; the record ends at the
	 * first other line, which it consumes (comments excepted). */
	while (lines < (int)nports && (l = next_line(r))) {
		if (l[0] == '#')
			continue;
		if (l[0] != '[' && l[0] != '@') {
			if (l[0] && !isspace((unsigned char)l[0]))
				return rfail(
					r,
					"expected a port line or a blank line ending the record (ibsim would swallow this line)",
					l);
			break;
		}
		if (l[0] == '@')
			return rfail(r, "port aliases ('@') are not supported",
				     l);
		if (parse_port_line(r, node, l))
			return -1;
		lines++;
	}
	return 0;
}

/* Resolves both ends of every declared link and checks they agree. */
static int resolve_links(struct reader *r)
{
	struct fabric *f = r->f;
	int a, ap;

	for (a = 0; a < f->nnodes; a++) {
		for (ap = 1; ap <= f->nodes[a].nports; ap++) {
			struct decl *d = &r->decl[a][ap], *back;
			int b = d->rname ? fabric_find(f, d->rname) : -1;

			if (!d->rname)
				continue;
			if (b < 0)
				return osmre_fail(r->err,
						  "%s:%d: unknown node \"%s\"",
						  r->file, d->line, d->rname);
			if (d->rport > f->nodes[b].nports)
				return osmre_fail(
					r->err,
					"%s:%d: port %d of \"%s\" out of range 1..%d",
					r->file, d->line, d->rport, d->rname,
					f->nodes[b].nports);
			back = &r->decl[b][d->rport];
			if (!back->rname || fabric_find(f, back->rname) != a ||
			    back->rport != ap) {
				char other[160];

				if (back->rname)
					snprintf(other, sizeof(other),
						 "\"%s\"[%d] at line %d",
						 back->rname, back->rport,
						 back->line);
				else
					snprintf(other, sizeof(other),
						 "nothing");
				return osmre_fail(
					r->err,
					"%s:%d: asymmetric link: \"%s\"[%d] -> \"%s\"[%d], but \"%s\"[%d] lists %s",
					r->file, d->line, f->nodes[a].name, ap,
					d->rname, d->rport, d->rname, d->rport,
					other);
			}
			if (b > a || (b == a && d->rport > ap))
				fabric_link(f, a, ap, b, d->rport, NULL);
		}
	}
	return 0;
}

static int parse_all(struct reader *r)
{
	char *l;

	while ((l = next_line(r))) {
		int rc = 0;

		if (!strncmp(l, "Switch", 6))
			rc = parse_node(r, l, FAB_SWITCH, 6);
		else if (!strncmp(l, "Hca", 3))
			rc = parse_node(r, l, FAB_CA, 3);
		else if (!strncmp(l, "Ca", 2))
			rc = parse_node(r, l, FAB_CA, 2);
		else if (!strncmp(l, "Rt", 2))
			rc = parse_node(r, l, FAB_ROUTER, 2);
		else if (!strncmp(l, "switchguid", 10))
			rc = parse_guid_line(r, l, FAB_SWITCH);
		else if (!strncmp(l, "hcaguids", 8) || !strncmp(l, "caguid", 6))
			rc = parse_guid_line(r, l, FAB_CA);
		else if (!strncmp(l, "rtguid", 6))
			rc = parse_guid_line(r, l, FAB_ROUTER);
		else if (!strncmp(l, "include", 7) || !strncmp(l, "module", 6))
			rc = rfail(
				r,
				"\"include\" and \"module\" are not supported",
				l);
		else if (l[0] == '[')
			rc = rfail(
				r,
				"port line outside a node record (missing header, or a blank line inside the record)",
				l);
		/* other lines (vendid=, devid=, comments, blanks) are ignored
		 * as ibsim ignores them */
		if (rc)
			return -1;
	}
	if (r->failed)
		return -1;
	if (ferror(r->fp))
		return osmre_fail(r->err, "%s: read error", r->file);
	return resolve_links(r);
}

int netfile_read_stream(FILE *fp, const char *name, struct fabric **out,
			struct osmre_err *err)
{
	struct reader r = {
		.file = name,
		.fp = fp,
		.err = err,
		.guid = { 0, 0x100000, 0x200000, ~0ULL },
		.absguid = { 0, 0x100000, 0x200000, ~0ULL },
	};
	int i, rc;

	r.f = fabric_new();
	if (!r.f)
		return osmre_fail(err, "out of memory");
	rc = parse_all(&r);
	for (i = 0; i < r.f->nnodes && i < r.decl_cap; i++) {
		int p;

		if (!r.decl[i])
			continue;
		for (p = 0; p <= r.f->nodes[i].nports; p++)
			free(r.decl[i][p].rname);
		free(r.decl[i]);
	}
	free(r.decl);
	free(r.buf);
	if (rc) {
		fabric_free(r.f);
		return -1;
	}
	if (!r.f->nnodes) {
		fabric_free(r.f);
		return osmre_fail(
			err,
			"%s: no nodes found (expected \"Switch\" or \"Hca\" records)",
			name);
	}
	*out = r.f;
	return 0;
}

int netfile_read(const char *path, struct fabric **out, struct osmre_err *err)
{
	FILE *fp = infile_open(path, "net file", INFILE_NET_SIZE, err);
	int rc;

	if (!fp)
		return -1;
	rc = netfile_read_stream(fp, path, out, err);
	fclose(fp);
	return rc;
}
