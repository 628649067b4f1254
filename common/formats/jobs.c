/* SPDX-License-Identifier: BSD-2-Clause */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "infile.h"
#include "jobs.h"

struct entry {
	int job, node, line;
};

static int entry_cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	return x->job != y->job ? x->job - y->job : x->line - y->line;
}

int jobs_read(const char *path, const struct fabric *f, struct jobs *j,
	      struct osmre_err *err)
{
	FILE *fp = infile_open(path, "job file", INFILE_JOBS_SIZE, err);
	int rc;

	memset(j, 0, sizeof(*j));
	if (!fp)
		return -1;
	rc = jobs_read_stream(fp, path, f, j, err);
	fclose(fp);
	return rc;
}

int jobs_read_stream(FILE *fp, const char *path, const struct fabric *f,
		     struct jobs *j, struct osmre_err *err)
{
	char *line = NULL;
	size_t sz = 0;
	struct entry *e = NULL;
	int n = 0, cap = 0, lineno = 0, i, rc = -1;
	int *seen = NULL;
	ssize_t got;

	memset(j, 0, sizeof(*j));
	seen = calloc((size_t)f->nnodes + 1, sizeof(int));
	if (!seen)
		goto oom;
	while ((got = infile_getline(&line, &sz, fp, INFILE_JOBS_LINE, path,
				     lineno + 1, err)) >= 0) {
		char host[128], id[128], extra[2];
		int k, node;

		lineno++;
		line[strcspn(line, "#\r\n")] = 0;
		k = sscanf(line, "%127s %127s %1s", host, id, extra);
		if (k <= 0)
			continue;
		if (k != 2) {
			osmre_fail(err,
				   "%s:%d: expected \"<hostname> <jobid>\"",
				   path, lineno);
			goto out;
		}
		node = fabric_find_host(f, host);
		if (node < 0) {
			if (j->unknown < JOBS_UNKNOWN_SHOWN) {
				char *u = j->unknown_name[j->unknown];

				snprintf(u, sizeof(j->unknown_name[0]), "%s",
					 host);
				osmre_sanitize(u, sizeof(j->unknown_name[0]));
			}
			j->unknown++;
			continue;
		}
		if (seen[node]) {
			osmre_fail(
				err,
				"%s:%d: host \"%s\" already listed at line %d",
				path, lineno, host, seen[node]);
			goto out;
		}
		seen[node] = lineno;
		for (k = 0; k < j->njobs && strcmp(j->id[k], id); k++)
			;
		if (k == j->njobs) {
			char **ids = realloc(j->id,
					     ((size_t)k + 1) * sizeof(char *));

			if (!ids)
				goto oom;
			j->id = ids;
			if (!(j->id[k] = strdup(id)))
				goto oom;
			j->njobs++;
		}
		if (n == cap) {
			struct entry *ne;

			cap = cap ? cap * 2 : 64;
			ne = realloc(e, (size_t)cap * sizeof(*e));
			if (!ne)
				goto oom;
			e = ne;
		}
		e[n++] = (struct entry){ k, node, lineno };
	}
	if (got == -2)
		goto out;
	if (n)
		qsort(e, (size_t)n, sizeof(*e), entry_cmp);
	j->node = malloc(((size_t)n + 1) * sizeof(int));
	j->first = calloc((size_t)j->njobs + 1, sizeof(int));
	j->count = calloc((size_t)j->njobs + 1, sizeof(int));
	if (!j->node || !j->first || !j->count)
		goto oom;
	for (i = 0; i < n; i++) {
		j->node[i] = e[i].node;
		if (!j->count[e[i].job]++)
			j->first[e[i].job] = i;
	}
	j->nhosts = n;
	rc = 0;
	goto out;
oom:
	osmre_fail(err, "out of memory");
out:
	free(line);
	free(e);
	free(seen);
	if (rc)
		jobs_free(j);
	return rc;
}

void jobs_free(struct jobs *j)
{
	int i;

	for (i = 0; i < j->njobs && j->id; i++)
		free(j->id[i]);
	free(j->id);
	free(j->first);
	free(j->count);
	free(j->node);
	memset(j, 0, sizeof(*j));
}

void jobs_unknown_msg(const struct jobs *j, char *buf, size_t size)
{
	size_t len;
	int i;

	len = (size_t)snprintf(buf, size,
			       "%d host(s) not in the fabric ignored:",
			       j->unknown);
	/* the first names, then "..." for the others */
	for (i = 0; i < j->unknown && i <= JOBS_UNKNOWN_SHOWN && len < size;
	     i++)
		len += (size_t)snprintf(buf + len, size - len, "%s %s",
					i ? "," : "",
					i < JOBS_UNKNOWN_SHOWN ?
						j->unknown_name[i] :
						"...");
}

int jobs_host_port(const struct fab_node *nd)
{
	int p;

	for (p = 1; p <= nd->nports; p++)
		if (nd->ports[p].lid && nd->ports[p].rnode >= 0)
			return p;
	return 0;
}

int jobs_efi(const struct fabric *f, const struct lft_set *s,
	     const struct jobs *j, struct efi_result *r, struct osmre_err *err)
{
	return jobs_efi_ports(f, s, j, r, NULL, err);
}

int jobs_efi_ports(const struct fabric *f, const struct lft_set *s,
		   const struct jobs *j, struct efi_result *r, long **per_port,
		   struct osmre_err *err)
{
	long *off = malloc(((size_t)f->nnodes + 1) * sizeof(long)), total = 0;
	long *gamma = NULL, *mine = NULL;
	int *stamp = NULL, i, p, job;
	double sum = 0;
	long dark = 0, q;

	memset(r, 0, sizeof(*r));
	if (!off)
		return osmre_fail(err, "out of memory");
	for (i = 0; i < f->nnodes; i++) {
		off[i] = total;
		total += f->nodes[i].nports + 1;
	}
	gamma = calloc((size_t)total + 1, sizeof(long));
	mine = calloc((size_t)total + 1, sizeof(long));
	stamp = malloc(((size_t)total + 1) * sizeof(int));
	if (!gamma || !mine || !stamp) {
		free(off);
		free(gamma);
		free(mine);
		free(stamp);
		return osmre_fail(err, "out of memory");
	}
	for (q = 0; q < total; q++)
		stamp[q] = -1;
	for (job = 0; job < j->njobs; job++) {
		const int *h = j->node + j->first[job];
		long jmax = 0;
		int a, b;

		for (a = 0; a < j->count[job]; a++)
			for (b = 0; b < j->count[job]; b++) {
				const struct fab_node *src = &f->nodes[h[a]];
				const struct fab_node *dst = &f->nodes[h[b]];
				int sp = jobs_host_port(src),
				    dp = jobs_host_port(dst), cur, hops = 0;
				unsigned lid;

				if (a == b || !sp || !dp)
					continue;
				lid = dst->ports[dp].lid;
				cur = src->ports[sp].rnode;
				while (cur >= 0 &&
				       f->nodes[cur].type == FAB_SWITCH &&
				       hops++ < 256) {
					const struct lft *t =
						lft_of_node(s, cur);
					int o = t ? lft_get(t, lid) : LFT_NONE,
					    nx;

					if (o == LFT_NONE || o == 0 ||
					    o > f->nodes[cur].nports) {
						cur = -1;
						break;
					}
					nx = f->nodes[cur].ports[o].rnode;
					if (nx >= 0 &&
					    f->nodes[nx].type == FAB_SWITCH) {
						q = off[cur] + o;
						gamma[q]++;
						if (stamp[q] != job) {
							stamp[q] = job;
							mine[q] = 0;
						}
						if (++mine[q] > jmax)
							jmax = mine[q];
					}
					cur = nx;
				}
				if (cur < 0 || hops > 256)
					r->unroutable++;
			}
		sum += (double)jmax;
	}
	for (i = 0; i < f->nnodes; i++) {
		if (f->nodes[i].type != FAB_SWITCH || f->nodes[i].removed)
			continue;
		for (p = 1; p <= f->nodes[i].nports; p++) {
			int rn = f->nodes[i].ports[p].rnode;

			if (rn < 0 || f->nodes[rn].type != FAB_SWITCH)
				continue;
			r->links++;
			q = gamma[off[i] + p];
			dark += !q;
			if (q > r->max)
				r->max = q;
		}
	}
	r->avg_job_max = j->njobs ? sum / j->njobs : 0;
	r->dark_pct = r->links ? 100.0 * (double)dark / (double)r->links : 0;
	free(off);
	if (per_port) {
		*per_port = gamma;
		gamma = NULL;
	}
	free(gamma);
	free(mine);
	free(stamp);
	return 0;
}
