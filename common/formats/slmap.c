/* SPDX-License-Identifier: BSD-2-Clause */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "infile.h"
#include "slmap.h"
#include "cmp.h"

/*
 * Reads at most n decimal numbers in [0, max] separated by blanks into v;
 * returns the count, or -1 when anything else follows (a bad number, or
 * more than n of them).  v is written only below n.
 */
static int numbers(const char *s, long *v, int n, long max)
{
	int i;

	for (i = 0; i < n; i++) {
		char *end;
		long x;

		while (*s == ' ' || *s == '\t')
			s++;
		if (*s < '0' || *s > '9')
			break;
		errno = 0;
		x = strtol(s, &end, 10);
		if (errno || x > max)
			return -1;
		v[i] = x;
		s = end;
	}
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	return *s ? -1 : i;
}

/* The switch of an sl2vl dump block, by GUID; -1 when not in the fabric. */
static int switch_by_guid(const struct fabric *f, uint64_t guid)
{
	int n;

	for (n = 0; n < f->nnodes; n++)
		if (f->nodes[n].type == FAB_SWITCH && f->nodes[n].guid == guid)
			return n;
	return -1;
}

static uint8_t *switch_table(struct sl_map *m, const struct fabric *f, int n)
{
	int w = f->nodes[n].nports + 1, i;
	uint8_t *t;

	if (m->sw[n])
		return m->sw[n];
	t = malloc(sizeof(int) + (size_t)w * w * 16);
	if (!t)
		return NULL;
	memcpy(t, &w, sizeof(int));
	/* ports the dump leaves out keep the global table */
	for (i = 0; i < w * w; i++)
		memcpy(t + sizeof(int) + (size_t)i * 16, m->global, 16);
	m->sw[n] = t;
	return t;
}

int sl_map_read(const char *path, const struct fabric *f, struct sl_map *m,
		struct osmre_err *err)
{
	FILE *fp = infile_open(path, "SL file", INFILE_SL_SIZE, err);
	int rc;

	memset(m, 0, sizeof(*m));
	if (!fp)
		return -1;
	rc = sl_map_read_stream(fp, path, f, m, err);
	fclose(fp);
	return rc;
}

int sl_map_read_stream(FILE *fp, const char *path, const struct fabric *f,
		       struct sl_map *m, struct osmre_err *err)
{
	char *line = NULL;
	size_t cap = 0, kcap = 0;
	int ln = 0, i, block = -2, tables = 0; /* block -2: none, -1: skipped */
	long v[18];
	ssize_t n;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < 16; i++)
		m->global[i] = (uint8_t)i;
	m->nnodes = f->nnodes;
	m->sw = calloc((size_t)f->nnodes + 1, sizeof(*m->sw));
	if (!m->sw)
		goto oom;
	while ((n = infile_getline(&line, &cap, fp, INFILE_SL_LINE, path,
				   ln + 1, err)) >= 0) {
		char *s = line, *colon;
		uint64_t guid;

		ln++;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '#' || *s == '\n' || *s == '\r' || !*s)
			continue;
		if (!strncmp(s, "default", 7)) {
			if (numbers(s + 7, v, 1, 15) != 1)
				goto bad_default;
			m->default_sl = (int)v[0];
		} else if (!strncmp(s, "layers ", 7)) {
			/* the header of osmre-sar.dump, the sar state the
			 * plugin writes: its SL lines follow */
			continue;
		} else if (!strncmp(s, "path", 4) || !strncmp(s, "dest", 4)) {
			/* "dest DLID SL" is stored as the path from LID 0 */
			if (s[0] == 'd') {
				if (numbers(s + 4, v + 1, 2, 0xffff) != 2 ||
				    v[2] > 15 || !v[1])
					goto bad_dest;
				v[0] = 0;
			} else if (numbers(s + 4, v, 3, 0xffff) != 3 ||
				   v[2] > 15 || !v[0]) {
				goto bad_path;
			}
			if ((size_t)m->npath == kcap) {
				size_t nc = kcap ? kcap * 2 : 1024;
				uint64_t *k = realloc(m->key, nc * sizeof(*k));

				if (!k)
					goto oom;
				m->key = k;
				kcap = nc;
			}
			/* the SL rides in the low bits while sorting */
			m->key[m->npath++] = ((uint64_t)v[0] << 24) |
					     ((uint64_t)v[1] << 8) |
					     (uint64_t)v[2];
		} else if (!strncmp(s, "sl2vl", 5)) {
			if (numbers(s + 5, v, 16, 15) != 16)
				goto bad_vls;
			if (tables) {
				/* switch tables start from the global one */
				osmre_fail(
					err,
					"%s:%d: \"sl2vl\" must come before the switch tables",
					path, ln);
				goto fail;
			}
			for (i = 0; i < 16; i++)
				m->global[i] = (uint8_t)v[i];
		} else if (sscanf(s, "Switch 0x%" SCNx64, &guid) == 1) {
			block = switch_by_guid(f, guid);
			if (block < 0) {
				osmre_fail(err,
					   "%s:%d: switch 0x%016" PRIx64
					   " is not in the topology",
					   path, ln, guid);
				goto fail;
			}
		} else if (!strncmp(s, "Channel Adapter", 15) ||
			   !strncmp(s, "Router", 6)) {
			block = -1;
		} else if ((colon = strchr(s, ':')) != NULL && block != -2) {
			uint8_t *t;
			int w;

			*colon = '\0';
			if (numbers(s, v, 2, 254) != 2 ||
			    numbers(colon + 1, v + 2, 16, 15) != 16)
				goto bad_row;
			if (block < 0)
				continue;
			w = f->nodes[block].nports + 1;
			if (v[0] >= w || v[1] >= w) {
				osmre_fail(
					err,
					"%s:%d: port beyond the %d ports of \"%s\"",
					path, ln, w - 1, f->nodes[block].name);
				goto fail;
			}
			if (!m->sw[block])
				tables++;
			t = switch_table(m, f, block);
			if (!t)
				goto oom;
			for (i = 0; i < 16; i++)
				t[sizeof(int) + ((size_t)v[0] * w + v[1]) * 16 +
				  i] = (uint8_t)v[2 + i];
		} else {
			osmre_fail(
				err,
				"%s:%d: expected \"default SL\", \"path SLID DLID SL\", \"dest DLID SL\", \"sl2vl V0 ... V15\" or an opensm-sl2vl.dump block",
				path, ln);
			goto fail;
		}
		continue;
bad_default:
		osmre_fail(err, "%s:%d: expected \"default SL\" with SL 0-15",
			   path, ln);
		goto fail;
bad_path:
		osmre_fail(
			err,
			"%s:%d: expected \"path SLID DLID SL\" with LIDs 1-65535 and SL 0-15",
			path, ln);
		goto fail;
bad_dest:
		osmre_fail(
			err,
			"%s:%d: expected \"dest DLID SL\" with LIDs 1-65535 and SL 0-15",
			path, ln);
		goto fail;
bad_vls:
		osmre_fail(err, "%s:%d: expected \"sl2vl\" and 16 VLs 0-15",
			   path, ln);
		goto fail;
bad_row:
		osmre_fail(err, "%s:%d: expected \"IN OUT : V0 ... V15\"", path,
			   ln);
		goto fail;
	}
	if (n == -2)
		goto fail;
	if (m->npath)
		qsort(m->key, (size_t)m->npath, sizeof(*m->key), cmp_u64);
	for (i = 1; i < m->npath; i++)
		if (m->key[i] >> 8 == m->key[i - 1] >> 8) {
			osmre_fail(err, "%s: path %u -> %u listed twice", path,
				   (unsigned)(m->key[i] >> 24),
				   (unsigned)((m->key[i] >> 8) & 0xffff));
			goto fail;
		}
	m->sl = malloc((size_t)m->npath + 1);
	if (!m->sl)
		goto oom;
	for (i = 0; i < m->npath; i++) {
		m->sl[i] = (uint8_t)(m->key[i] & 0xff);
		m->key[i] >>= 8;
	}
	free(line);
	return 0;
oom:
	osmre_fail(err, "out of memory");
fail:
	free(line);
	sl_map_free(m);
	return -1;
}

/* The SL of key k among the first n keys, or -1 (a binary search). */
static int find_key(const struct sl_map *m, uint64_t k, long n)
{
	long lo = 0, hi = n - 1;

	while (lo <= hi) {
		long mid = (lo + hi) / 2;

		if (m->key[mid] == k)
			return m->sl[mid];
		if (m->key[mid] < k)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

int sl_map_sl(const struct sl_map *m, unsigned slid, unsigned dlid)
{
	int sl = find_key(m, (uint64_t)slid << 16 | dlid, m->npath);

	if (sl < 0)
		sl = find_key(m, dlid, m->npath); /* a "dest" line */
	return sl < 0 ? m->default_sl : sl;
}

int sl_cursor_init(struct sl_cursor *c, const struct sl_map *m, unsigned maxlid)
{
	long i;

	c->m = m;
	c->maxlid = maxlid;
	c->next = calloc((size_t)maxlid + 1, sizeof(long));
	c->end = calloc((size_t)maxlid + 1, sizeof(long));
	if (!c->next || !c->end) {
		sl_cursor_free(c);
		return -1;
	}
	/* keys ascend: each SLID's are one range */
	for (i = m->npath - 1; i >= 0; i--) {
		uint64_t slid = m->key[i] >> 16;

		if (slid > maxlid)
			continue;
		if (!c->end[slid])
			c->end[slid] = i + 1;
		c->next[slid] = i;
	}
	return 0;
}

/* The SL of key (slid, dlid) from slid's range, or -1. */
static int cursor_find(struct sl_cursor *c, unsigned slid, unsigned dlid)
{
	const struct sl_map *m = c->m;
	uint64_t k = (uint64_t)slid << 16 | dlid;
	long *i = &c->next[slid];

	while (*i < c->end[slid] && m->key[*i] < k)
		(*i)++;
	return *i < c->end[slid] && m->key[*i] == k ? m->sl[*i] : -1;
}

int sl_cursor_sl(struct sl_cursor *c, unsigned slid, unsigned dlid)
{
	int sl;

	if (slid > c->maxlid || dlid > 0xffff)
		return sl_map_sl(c->m, slid, dlid);
	sl = slid ? cursor_find(c, slid, dlid) : -1;
	if (sl < 0) /* a "dest" line: SLID 0's keys, the first ones */
		sl = find_key(c->m, dlid, c->end[0]);
	return sl < 0 ? c->m->default_sl : sl;
}

void sl_cursor_free(struct sl_cursor *c)
{
	free(c->next);
	free(c->end);
	c->next = c->end = NULL;
}

void sl_map_free(struct sl_map *m)
{
	int i;

	if (m->sw)
		for (i = 0; i < m->nnodes; i++)
			free(m->sw[i]);
	free(m->sw);
	free(m->key);
	free(m->sl);
	memset(m, 0, sizeof(*m));
}
