/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reader of opensm-lfts.dump and of ibroute/dump_fts output:
 *   Unicast lids [0-5] of switch Lid 2 guid 0x... ('desc'):
 *   0x0001 001 # Channel Adapter portguid 0x...: 'desc'
 *   Unicast lids [0x0-0x5] of switch DR path ... guid 0x... (desc):
 *   0x0001 001 : (Channel Adapter portguid 0x...: 'desc')
 * As OpenSM's file engine: the switch GUID follows " guid 0x", a row is
 * "0x<lid> <port>", the destination's GUID (optional) follows " portguid 0x".
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "infile.h"
#include "lft.h"
#include "lids.h"

static int grow_table(struct lft *t, unsigned top)
{
	uint8_t *p = realloc(t->port, (size_t)top + 1);

	if (!p)
		return -1;
	memset(p + t->top + 1, LFT_NONE, top - t->top);
	t->port = p;
	t->top = top;
	return 0;
}

static int note_guid(struct lft_set *s, unsigned lid, uint64_t guid)
{
	if (!s->lid_guid) { /* every unicast LID at once, zeroed lazily */
		s->lid_guid = calloc((size_t)FAB_MAX_UCAST_LID + 1,
				     sizeof(*s->lid_guid));
		if (!s->lid_guid)
			return -1;
		s->lid_guid_top = FAB_MAX_UCAST_LID;
	}
	if (s->lid_guid[lid] && s->lid_guid[lid] != guid)
		return 1;
	s->lid_guid[lid] = guid;
	return 0;
}

/* The top a switch header (from "Unicast lids") of the diagnostics'
 * dumps declares ("[0x0-0xTOP]": dump_fts, dump_lfts, ibroute; not
 * OpenSM's decimal one), into s->said_top when higher. */
static void said_top(struct lft_set *s, const char *hdr)
{
	const char *b = strchr(hdr, '[');
	unsigned long top;

	if (!b || !(b = strchr(b, '-')) || strncmp(b, "-0x", 3))
		return;
	top = strtoul(b + 1, NULL, 0);
	if (top <= FAB_MAX_UCAST_LID && top > s->said_top)
		s->said_top = (unsigned)top;
}

/* A new, empty table for switch guid (its header on line `line`); it
 * grows with its entries (grow_table), whatever range the header says.
 * 0, 1 when the switch has one already, -1 when out of memory. */
static int new_table(struct lft_set *s, uint64_t guid, int line)
{
	struct lft *t;
	int i;

	for (i = 0; i < s->n; i++)
		if (s->t[i].guid == guid)
			return 1;
	t = realloc(s->t, ((size_t)s->n + 1) * sizeof(*t));
	if (!t)
		return -1;
	s->t = t;
	t = &s->t[s->n];
	t->node = -1;
	t->guid = guid;
	t->line = line;
	t->file = NULL;
	t->top = 0;
	t->port = malloc(1);
	if (!t->port)
		return -1;
	t->port[0] = LFT_NONE;
	s->n++;
	return 0;
}

int lftdump_read_stream(FILE *fp, const char *name, struct lft_set *s,
			struct osmre_err *err)
{
	char *line = NULL;
	size_t sz = 0;
	int lineno = 0, rc = -1;
	ssize_t n;

	memset(s, 0, sizeof(*s));
	while ((n = infile_getline(&line, &sz, fp, INFILE_LFT_LINE, name,
				   lineno + 1, err)) >= 0) {
		char *p = line, *q = memchr(line, 0, (size_t)n);

		lineno++;
		/* C strings end at a NUL: "00<NUL>1" would read as port 0 */
		if (q) {
			osmre_fail(
				err,
				"%s:%d: column %td: a NUL byte, expected text",
				name, lineno, q - line + 1);
			goto out;
		}
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '#' || !*p)
			continue;
		if (!strncmp(p, "Multicast", 9)) {
			osmre_fail(
				err,
				"%s:%d: multicast dump, expected unicast LFTs",
				name, lineno);
			goto out;
		}
		if (!strncmp(p, "Unicast lids", 12)) {
			const char *hdr = p;
			uint64_t guid;
			int r;

			q = strstr(p, " guid 0x");
			if (!q) {
				osmre_fail(
					err,
					"%s:%d: expected \" guid 0x<switch GUID>\" in the switch header",
					name, lineno);
				goto out;
			}
			errno = 0;
			guid = strtoull(q + 8, &p, 16);
			if (p == q + 8 || errno ||
			    !isspace((unsigned char)*p)) {
				osmre_fail(err,
					   "%s:%d: cannot parse the switch GUID",
					   name, lineno);
				goto out;
			}
			r = new_table(s, guid, lineno);
			said_top(s, hdr);
			if (r) {
				osmre_fail(
					err,
					r > 0 ? "%s:%d: switch 0x%016" PRIx64
						" listed twice" :
						"%s:%d: out of memory (switch 0x%016" PRIx64
						")",
					name, lineno, guid);
				goto out;
			}
			continue;
		}
		if (!strncmp(p, "0x", 2)) {
			unsigned long lid, port;
			struct lft *t;

			if (!s->n) {
				osmre_fail(
					err,
					"%s:%d: LFT row before any \"Unicast lids\" header",
					name, lineno);
				goto out;
			}
			t = &s->t[s->n - 1];
			errno = 0;
			lid = strtoul(p + 2, &q, 16);
			if (q == p + 2 || errno ||
			    !isspace((unsigned char)*q) ||
			    lid > FAB_MAX_UCAST_LID) {
				osmre_fail(
					err,
					"%s:%d: expected a unicast LID (0x0000..0xbfff)",
					name, lineno);
				goto out;
			}
			p = q;
			while (isspace((unsigned char)*p))
				p++;
			port = strtoul(p, &q, 10);
			if (q == p || (*q && !isspace((unsigned char)*q)) ||
			    port > FAB_MAX_PORTS) {
				osmre_fail(
					err,
					"%s:%d: expected an output port 0..254 after the LID",
					name, lineno);
				goto out;
			}
			if (lid > t->top && grow_table(t, (unsigned)lid)) {
				osmre_fail(err, "out of memory");
				goto out;
			}
			t->port[lid] = (uint8_t)port;
			q = strstr(q, " portguid 0x");
			if (q) {
				uint64_t g = strtoull(q + 12, NULL, 16);
				int r = note_guid(s, (unsigned)lid, g);

				if (r) {
					osmre_fail(
						err,
						r > 0 ? "%s:%d: LID 0x%04lx names two different port GUIDs (dumps of several planes, each with its own LIDs? one --lfts each)" :
							"%s:%d: out of memory (LID 0x%04lx)",
						name, lineno, lid);
					goto out;
				}
			}
			continue;
		}
		/* column titles and "N lids dumped" footers */
	}
	if (n == -2)
		goto out;
	if (ferror(fp)) {
		osmre_fail(err, "%s: read error", name);
		goto out;
	}
	if (!s->n) {
		osmre_fail(err, "%s: no \"Unicast lids\" switch table found",
			   name);
		goto out;
	}
	rc = 0;
out:
	free(line);
	if (rc)
		lft_set_free(s);
	return rc;
}

int lftdump_read(const char *path, struct lft_set *s, struct osmre_err *err)
{
	FILE *fp = infile_open(path, "LFT dump", INFILE_LFT_SIZE, err);
	int rc;

	if (!fp)
		return -1;
	rc = lftdump_read_stream(fp, path, s, err);
	fclose(fp);
	return rc;
}

int lft_set_bind(struct lft_set *s, const struct fabric *f,
		 struct osmre_err *err)
{
	struct guid_map m;
	int i;

	if (guid_map_build(f, &m, err))
		return -1;
	free(s->by_node);
	s->by_node = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	if (!s->by_node) {
		guid_map_free(&m);
		return osmre_fail(err, "out of memory");
	}
	s->nnodes = f->nnodes;
	for (i = 0; i < f->nnodes; i++)
		s->by_node[i] = -1;
	for (i = 0; i < s->n; i++) {
		const struct guid_ent *e = guid_map_find(&m, s->t[i].guid);

		if (!e || f->nodes[e->node].type != FAB_SWITCH) {
			osmre_fail(err,
				   "%s%sline %d: switch GUID 0x%016" PRIx64
				   " is not a switch of the topology",
				   s->t[i].file ? s->t[i].file : "",
				   s->t[i].file ? ": " : "", s->t[i].line,
				   s->t[i].guid);
			guid_map_free(&m);
			return -1;
		}
		s->t[i].node = e->node;
		s->by_node[e->node] = i;
	}
	guid_map_free(&m);
	return 0;
}

int lft_set_bind_known(struct lft_set *s, const struct fabric *f, int *dropped,
		       struct osmre_err *err)
{
	struct guid_map m;
	int i, k = 0;

	if (guid_map_build(f, &m, err))
		return -1;
	for (i = 0; i < s->n; i++) {
		const struct guid_ent *e = guid_map_find(&m, s->t[i].guid);

		if (e && f->nodes[e->node].type == FAB_SWITCH &&
		    !f->nodes[e->node].removed)
			s->t[k++] = s->t[i];
		else
			free(s->t[i].port);
	}
	guid_map_free(&m);
	*dropped = s->n - k;
	s->n = k;
	return lft_set_bind(s, f, err);
}

int lft_set_import_lids(const struct lft_set *s, struct fabric *f,
			struct osmre_err *err)
{
	struct guid_map m;
	unsigned lid;
	int i, p, found = 0;

	if (!s->lid_guid)
		return 0;
	if (guid_map_build(f, &m, err))
		return -1;
	for (i = 0; i < f->nnodes; i++)
		for (p = 0; p <= f->nodes[i].nports; p++) {
			f->nodes[i].ports[p].lid = 0;
			f->nodes[i].ports[p].lmc = 0;
		}
	for (lid = 1; lid <= s->lid_guid_top; lid++) {
		const struct guid_ent *e;
		struct fab_port *pt;
		unsigned n;

		if (!s->lid_guid[lid])
			continue;
		e = guid_map_find(&m, s->lid_guid[lid]);
		if (!e || (f->nodes[e->node].type != FAB_SWITCH && !e->port)) {
			osmre_fail(err,
				   "LID %u: port GUID 0x%016" PRIx64
				   " is not a port of the topology",
				   lid, s->lid_guid[lid]);
			guid_map_free(&m);
			return -1;
		}
		pt = &f->nodes[e->node].ports[e->port];
		found = 1;
		if (!pt->lid) {
			pt->lid = (uint16_t)lid;
			continue;
		}
		/* LMC from the width of the port's LID range */
		n = lid - pt->lid + 1;
		while ((1u << pt->lmc) < n)
			pt->lmc++;
	}
	guid_map_free(&m);
	return found;
}

/* The highest LID set s routes or names (0 when none). */
static unsigned highest_lid(const struct lft_set *s)
{
	unsigned h = 0, lid;
	int i;

	for (i = 0; i < s->n; i++)
		for (lid = s->t[i].top; lid > h; lid--)
			if (s->t[i].port[lid] != LFT_NONE) {
				h = lid;
				break;
			}
	for (lid = s->lid_guid_top; s->lid_guid && lid > h; lid--)
		if (s->lid_guid[lid]) {
			h = lid;
			break;
		}
	return h;
}

struct guid_from {
	uint64_t guid;
	int part;
};

static int cmp_guid_from(const void *a, const void *b)
{
	const struct guid_from *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return x->part - y->part;
}

/* A port or switch that two parts name: an error naming both. */
static int parts_disjoint(const struct lft_set *parts, const char *const *paths,
			  int nparts, struct osmre_err *err)
{
	struct guid_from *g = NULL;
	size_t n = 0, cap = 0, i;
	unsigned lid;
	int k, j, rc = 0;

	for (k = 0; k < nparts; k++) {
		size_t more = (size_t)parts[k].n +
			      (parts[k].lid_guid ? parts[k].lid_guid_top : 0);
		struct guid_from *q;

		if (n + more > cap) {
			cap = (n + more) * 2;
			q = realloc(g, (cap ? cap : 1) * sizeof(*g));
			if (!q) {
				free(g);
				return osmre_fail(err, "out of memory");
			}
			g = q;
		}
		/* (a GUID twice in one part is that part's business) */
		for (j = 0; j < parts[k].n; j++)
			g[n++] = (struct guid_from){ parts[k].t[j].guid, k };
		for (lid = 1; parts[k].lid_guid && lid <= parts[k].lid_guid_top;
		     lid++)
			if (parts[k].lid_guid[lid])
				g[n++] = (struct guid_from){
					parts[k].lid_guid[lid], k
				};
	}
	if (n)
		qsort(g, n, sizeof(*g), cmp_guid_from);
	for (i = 1; i < n && !rc; i++)
		if (g[i].guid == g[i - 1].guid && g[i].part != g[i - 1].part)
			rc = osmre_fail(
				err,
				"GUID 0x%016" PRIx64
				" is in %s and in %s: expected one dump per plane, each of its own switches and ports",
				g[i].guid, paths[g[i - 1].part],
				paths[g[i].part]);
	free(g);
	return rc;
}

int lftdump_read_planes(const char *const *paths, int nparts, struct lft_set *s,
			struct osmre_err *err)
{
	struct lft_set *parts = calloc((size_t)nparts, sizeof(*parts));
	unsigned *off = calloc((size_t)nparts + 1, sizeof(*off));
	unsigned lid;
	int k, i, n = 0, rc = -1;

	if (nparts == 1) {
		free(parts);
		free(off);
		return lftdump_read(paths[0], s, err);
	}
	memset(s, 0, sizeof(*s));
	if (!parts || !off) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	for (k = 0; k < nparts; k++) {
		if (lftdump_read(paths[k], &parts[k], err))
			goto out;
		if (nparts > 1 && !parts[k].lid_guid) {
			osmre_fail(
				err,
				"%s: no row names its destination's port GUID (\"portguid 0x...\"): expected a dump whose LIDs can be matched to the topology (opensm-lfts.dump, dump_fts, osmre route)",
				paths[k]);
			goto out;
		}
		off[k + 1] = off[k] + highest_lid(&parts[k]);
		if (off[k + 1] > FAB_MAX_UCAST_LID) {
			osmre_fail(
				err,
				"%s: the LIDs of dumps 1..%d need 0x%x LIDs in all, expected at most 0x%x",
				paths[k], k + 1, off[k + 1], FAB_MAX_UCAST_LID);
			goto out;
		}
		n += parts[k].n;
	}
	if (parts_disjoint(parts, paths, nparts, err))
		goto out;
	s->t = calloc(n ? (size_t)n : 1, sizeof(*s->t));
	if (!s->t ||
	    (off[nparts] && !(s->lid_guid = calloc((size_t)off[nparts] + 1,
						   sizeof(*s->lid_guid))))) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	s->lid_guid_top = off[nparts];
	/* part k's LID l becomes off[k] + l: its table is moved up */
	for (k = 0; k < nparts; k++) {
		unsigned top = off[k + 1] - off[k];

		for (i = 0; i < parts[k].n; i++) {
			const struct lft *src = &parts[k].t[i];
			struct lft *t = &s->t[s->n];

			*t = *src;
			t->file = paths[k];
			t->top = off[k] + top;
			t->port = malloc((size_t)t->top + 1);
			if (!t->port) {
				osmre_fail(err, "out of memory");
				goto out;
			}
			s->n++;
			memset(t->port, LFT_NONE, (size_t)t->top + 1);
			for (lid = 1; lid <= top && lid <= src->top; lid++)
				t->port[off[k] + lid] = src->port[lid];
		}
		for (lid = 1; parts[k].lid_guid && lid <= top; lid++)
			s->lid_guid[off[k] + lid] = parts[k].lid_guid[lid];
	}
	rc = 0;
out:
	for (k = 0; parts && k < nparts; k++)
		lft_set_free(&parts[k]);
	free(parts);
	free(off);
	if (rc)
		lft_set_free(s);
	return rc;
}
