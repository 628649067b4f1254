/* SPDX-License-Identifier: BSD-2-Clause */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "infile.h"
#include "nodemap.h"

#define NODEMAP_NAME 256 /* bytes of a name, as NodeDescription's 64 and more */

static int cmp(const void *a, const void *b)
{
	const struct nodemap_ent *x = a, *y = b;

	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

/* The name in s (quoted, or the rest of the line trimmed) into out; 0, or
 * -1 with the reason in *why. */
static int name_of(const char *s, char *out, const char **why)
{
	const char *end;
	size_t len;

	s += strspn(s, " \t");
	if (*s == '"') {
		s++;
		end = strchr(s, '"');
		if (!end) {
			*why = "a closing quote";
			return -1;
		}
		if (end[1 + strspn(end + 1, " \t")] != '\0') {
			*why = "nothing after the quoted name";
			return -1;
		}
	} else {
		end = s + strlen(s);
		while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
	}
	len = (size_t)(end - s);
	if (!len || len >= NODEMAP_NAME) {
		*why = "a name of 1 to 255 bytes";
		return -1;
	}
	for (const char *c = s; c < end; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f) {
			*why = "a name without control bytes";
			return -1;
		}
	memcpy(out, s, len);
	out[len] = '\0';
	return 0;
}

int nodemap_read(const char *path, struct nodemap *m, struct osmre_err *err)
{
	FILE *fp = infile_open(path, "node name map", INFILE_LIST_SIZE, err);
	char *line = NULL, name[NODEMAP_NAME];
	size_t cap = 0, ecap = 0;
	int ln = 0, i;
	ssize_t n;

	memset(m, 0, sizeof(*m));
	if (!fp)
		return -1;
	while ((n = infile_getline(&line, &cap, fp, INFILE_LIST_LINE, path,
				   ln + 1, err)) >= 0) {
		const char *why = "a GUID (0x...) and a name";
		char *p, *e;
		uint64_t g;

		ln++;
		line[strcspn(line, "\r\n")] = '\0';
		p = line + strspn(line, " \t");
		if (!*p || *p == '#')
			continue;
		if (strncmp(p, "0x", 2) && strncmp(p, "0X", 2))
			goto bad;
		g = strtoull(p + 2, &e, 16);
		if (e == p + 2 || (*e != ' ' && *e != '\t') ||
		    name_of(e, name, &why))
			goto bad;
		if ((size_t)m->n == ecap) {
			struct nodemap_ent *ne;

			ecap = ecap ? 2 * ecap : 64;
			ne = realloc(m->e, ecap * sizeof(*ne));
			if (!ne)
				goto oom;
			m->e = ne;
		}
		if (!(m->e[m->n].name = strdup(name)))
			goto oom;
		m->e[m->n].line = ln;
		m->e[m->n++].guid = g;
		continue;
bad:
		osmre_fail(err, "%s:%d: expected %s", path, ln, why);
		goto fail;
	}
	if (n == -2)
		goto fail;
	free(line);
	fclose(fp);
	if (m->n)
		qsort(m->e, (size_t)m->n, sizeof(*m->e), cmp);
	for (i = 1; i < m->n; i++)
		if (m->e[i].guid == m->e[i - 1].guid) {
			int x = m->e[i].line, y = m->e[i - 1].line;

			osmre_fail(err,
				   "%s:%d: GUID 0x%016" PRIx64
				   " already named on line %d",
				   path, x > y ? x : y, m->e[i].guid,
				   x > y ? y : x);
			nodemap_free(m);
			return -1;
		}
	return 0;
oom:
	osmre_fail(err, "out of memory");
fail:
	free(line);
	fclose(fp);
	nodemap_free(m);
	return -1;
}

const char *nodemap_name(const struct nodemap *m, uint64_t guid)
{
	struct nodemap_ent key = { .guid = guid }, *e;

	if (!m || !m->n)
		return NULL;
	e = bsearch(&key, m->e, (size_t)m->n, sizeof(*m->e), cmp);
	return e ? e->name : NULL;
}

void nodemap_free(struct nodemap *m)
{
	int i;

	for (i = 0; i < m->n; i++)
		free(m->e[i].name);
	free(m->e);
	memset(m, 0, sizeof(*m));
}
