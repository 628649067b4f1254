/* SPDX-License-Identifier: BSD-2-Clause */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hostlist.h"
#include "infile.h"
#include "jobwatch.h"

/* host names that squeue's output may name in all (each job's hostlist
 * is capped by hostlist.c too) */
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define JW_MAX_NAMES 1000000
#else
#define JW_MAX_NAMES 4096 /* the fuzz build's bound: see hostlist.c */
#endif

static int entry_cmp(const void *a, const void *b)
{
	const struct jw_entry *x = a, *y = b;
	int c = strcmp(x->job, y->job);

	return c ? c : strcmp(x->host, y->host);
}

static int add(struct jw_list *l, const char *host, const char *job)
{
	struct jw_entry *ne;

	if (l->n == l->cap) {
		int nc = l->cap ? 2 * l->cap : 64;

		ne = realloc(l->e, (size_t)nc * sizeof(*ne));
		if (!ne)
			return -1;
		l->e = ne;
		l->cap = nc;
	}
	ne = l->e;
	ne[l->n].host = strdup(host);
	ne[l->n].job = strdup(job);
	if (!ne[l->n].host || !ne[l->n].job) {
		free(ne[l->n].host);
		free(ne[l->n].job);
		return -1;
	}
	l->n++;
	return 0;
}

/* Sorts, drops duplicate pairs, counts jobs. */
static void finish(struct jw_list *l)
{
	int i, k = 0;

	if (l->n)
		qsort(l->e, (size_t)l->n, sizeof(*l->e), entry_cmp);
	l->jobs = 0;
	for (i = 0; i < l->n; i++) {
		if (k && !entry_cmp(&l->e[i], &l->e[k - 1])) {
			free(l->e[i].host);
			free(l->e[i].job);
			continue;
		}
		l->jobs += !k || strcmp(l->e[i].job, l->e[k - 1].job);
		l->e[k++] = l->e[i];
	}
	l->n = k;
}

/* The leaf switch of host node n: where its first linked port goes. */
static int leaf_of(const struct fabric *f, int n)
{
	int p;

	for (p = 1; p <= f->nodes[n].nports; p++)
		if (f->nodes[n].ports[p].rnode >= 0)
			return f->nodes[n].ports[p].rnode;
	return -1;
}

/* Drops the jobs on fewer than min leaf switches (l sorted by job);
 * stamp: nnodes + 1 ints, zeroed. */
static void filter(struct jw_list *l, const int *leaf_of_entry, int min,
		   int *stamp)
{
	int i = 0, k = 0, run = 0;

	while (i < l->n) {
		int j = i, nleaf = 0, a;

		run++;
		while (j < l->n && !strcmp(l->e[j].job, l->e[i].job))
			j++;
		for (a = i; a < j; a++) { /* distinct leaves */
			int *st = &stamp[leaf_of_entry[a] + 1];

			nleaf += *st != run;
			*st = run;
		}
		for (a = i; a < j; a++) {
			if (nleaf >= min) {
				l->e[k++] = l->e[a];
			} else {
				free(l->e[a].host);
				free(l->e[a].job);
			}
		}
		l->dropped += nleaf < min;
		l->jobs -= nleaf < min;
		i = j;
	}
	l->n = k;
}

int jw_from_squeue(const char *text, const struct fabric *f, int min_switches,
		   struct jw_list *out, struct osmre_err *err)
{
	const char *p = text;
	int ln = 0, i, *leaf = NULL, *stamp;
	long total = 0;

	memset(out, 0, sizeof(*out));
	while (*p) {
		const char *eol = strchr(p, '\n'), *bar, *line = p;
		char id[128], nodes[4096];
		struct hostlist h = { 0 };
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		ln++;
		/* the next line, whatever this one holds */
		p = eol ? eol + 1 : p + len;
		if (len && line[len - 1] == '\r')
			len--;
		if (!len)
			continue;
		bar = memchr(line, '|', len);
		if (!bar || bar == line || (size_t)(bar - line) >= sizeof(id) ||
		    len - (size_t)(bar - line) - 1 >= sizeof(nodes)) {
			osmre_fail(
				err,
				"squeue output, line %d: expected \"JOBID|NODELIST\"",
				ln);
			goto fail;
		}
		memcpy(id, line, (size_t)(bar - line));
		id[bar - line] = '\0';
		memcpy(nodes, bar + 1, len - (size_t)(bar - line) - 1);
		nodes[len - (size_t)(bar - line) - 1] = '\0';
		id[strcspn(id, "+")] = '\0'; /* heterogeneous job components */
		if (!*nodes || !strcmp(nodes, "(null)") ||
		    !strcmp(nodes, "n/a"))
			continue;
		if (hostlist_expand(nodes, &h, err)) {
			osmre_prefix(err, "squeue output, line %d", ln);
			goto fail;
		}
		total += h.n;
		if (total > JW_MAX_NAMES) {
			hostlist_free(&h);
			osmre_fail(
				err,
				"squeue output, line %d: more than %d host names in all",
				ln, JW_MAX_NAMES);
			goto fail;
		}
		for (i = 0; i < h.n; i++) {
			if (fabric_find_host(f, h.name[i]) < 0) {
				if (!out->unknown++) {
					snprintf(out->first_unknown,
						 sizeof(out->first_unknown),
						 "%s", h.name[i]);
					osmre_sanitize(
						out->first_unknown,
						sizeof(out->first_unknown));
				}
				continue;
			}
			if (add(out, h.name[i], id)) {
				hostlist_free(&h);
				osmre_fail(err, "out of memory");
				goto fail;
			}
		}
		hostlist_free(&h);
	}
	finish(out);
	/* the components of a job are in: count its leaf switches */
	leaf = malloc(((size_t)out->n + 1) * sizeof(int));
	stamp = calloc((size_t)f->nnodes + 2, sizeof(int));
	if (!leaf || !stamp) {
		free(stamp);
		osmre_fail(err, "out of memory");
		goto fail;
	}
	for (i = 0; i < out->n; i++)
		leaf[i] = leaf_of(f, fabric_find_host(f, out->e[i].host));
	filter(out, leaf, min_switches, stamp);
	free(stamp);
	free(leaf);
	return 0;
fail:
	free(leaf);
	jw_free(out);
	return -1;
}

int jw_read_file(const char *path, struct jw_list *out, struct osmre_err *err)
{
	FILE *fp;
	char *line = NULL;
	size_t cap = 0;
	int ln = 0;
	ssize_t n;

	memset(out, 0, sizeof(*out));
	if (access(path, F_OK) && errno == ENOENT)
		return 0;
	fp = infile_open(path, "job file", INFILE_JOBS_SIZE, err);
	if (!fp)
		return -1;
	while ((n = infile_getline(&line, &cap, fp, INFILE_JOBS_LINE, path,
				   ln + 1, err)) >= 0) {
		char host[128], job[128], extra[2];
		int k;

		ln++;
		line[strcspn(line, "#\r\n")] = '\0';
		k = sscanf(line, "%127s %127s %1s", host, job, extra);
		if (k <= 0)
			continue;
		if (k != 2) {
			osmre_fail(err,
				   "%s:%d: expected \"<hostname> <jobid>\"",
				   path, ln);
			goto fail;
		}
		if (add(out, host, job)) {
			osmre_fail(err, "out of memory");
			goto fail;
		}
	}
	if (n == -2)
		goto fail;
	free(line);
	fclose(fp);
	finish(out);
	return 0;
fail:
	free(line);
	fclose(fp);
	jw_free(out);
	return -1;
}

int jw_same(const struct jw_list *a, const struct jw_list *b)
{
	int i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++)
		if (entry_cmp(&a->e[i], &b->e[i]))
			return 0;
	return 1;
}

char *jw_format(const struct jw_list *l)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	int i;

	if (!fp)
		return NULL;
	fprintf(fp, "# written by osmre jobwatch: %d jobs, %d hosts\n", l->jobs,
		l->n);
	for (i = 0; i < l->n; i++)
		fprintf(fp, "%s %s\n", l->e[i].host, l->e[i].job);
	fputs("# end\n", fp);
	if (fclose(fp)) {
		free(buf);
		return NULL;
	}
	return buf;
}

void jw_free(struct jw_list *l)
{
	int i;

	for (i = 0; i < l->n; i++) {
		free(l->e[i].host);
		free(l->e[i].job);
	}
	free(l->e);
	l->e = NULL;
	l->n = l->cap = 0;
}
