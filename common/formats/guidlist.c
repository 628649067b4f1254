/* SPDX-License-Identifier: BSD-2-Clause */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guidlist.h"
#include "infile.h"
#include "cmp.h"

int guidlist_read(const char *path, struct guidlist *l, struct osmre_err *err)
{
	FILE *fp = infile_open(path, "GUID list", INFILE_LIST_SIZE, err);
	char *line = NULL;
	size_t cap = 0, gcap = 0;
	int ln = 0;
	ssize_t n;

	memset(l, 0, sizeof(*l));
	if (!fp)
		return -1;
	while ((n = infile_getline(&line, &cap, fp, INFILE_LIST_LINE, path,
				   ln + 1, err)) >= 0) {
		char extra[2];
		uint64_t g;
		uint64_t *ng;
		int k;

		ln++;
		line[strcspn(line, "#\r\n")] = '\0';
		k = sscanf(line, " 0x%" SCNx64 " %1s", &g, extra);
		if (k == EOF || (k <= 0 && strspn(line, " \t") == strlen(line)))
			continue;
		if (k != 1) {
			osmre_fail(err, "%s:%d: expected a GUID (0x...)", path,
				   ln);
			goto fail;
		}
		if ((size_t)l->n == gcap) {
			gcap = gcap ? 2 * gcap : 64;
			ng = realloc(l->g, gcap * sizeof(*ng));
			if (!ng) {
				osmre_fail(err, "out of memory");
				goto fail;
			}
			l->g = ng;
		}
		l->g[l->n++] = g;
	}
	if (n == -2)
		goto fail;
	free(line);
	fclose(fp);
	if (l->n)
		qsort(l->g, (size_t)l->n, sizeof(*l->g), cmp_u64);
	return 0;
fail:
	free(line);
	fclose(fp);
	guidlist_free(l);
	return -1;
}

int guidlist_has(const struct guidlist *l, uint64_t guid)
{
	return l && l->n &&
	       bsearch(&guid, l->g, (size_t)l->n, sizeof(*l->g), cmp_u64) !=
		       NULL;
}

void guidlist_free(struct guidlist *l)
{
	free(l->g);
	l->g = NULL;
	l->n = 0;
}
