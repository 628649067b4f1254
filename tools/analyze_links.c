/* SPDX-License-Identifier: BSD-2-Clause */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze_links.h"
#include "congestion.h"
#include "jobs.h"
#include "osmre.h"
#include "ranks.h"

struct links {
	const struct fabric *f;
	struct cong_ports a2a;
	long *efi; /* NULL without jobs */
	int *rank;
	int *pos; /* a switch's place in (rank, node) order */
	int nsw, maxrank;
};

static int by_rank(const void *x, const void *y, void *arg)
{
	const int *rank = arg;
	int a = *(const int *)x, b = *(const int *)y;

	if (rank[a] != rank[b])
		return rank[a] < rank[b] ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Switches numbered in (rank, node) order: pos[], nsw; 0 or -1. */
static int order_switches(struct links *l)
{
	const struct fabric *f = l->f;
	int *v = malloc(((size_t)f->nnodes + 1) * sizeof(int)), n, k = 0;

	if (!v)
		return -1;
	for (n = 0; n < f->nnodes; n++) {
		l->pos[n] = -1;
		if (fab_is_switch(&f->nodes[n]) && !f->nodes[n].removed)
			v[k++] = n;
	}
	qsort_r(v, (size_t)k, sizeof(int), by_rank, l->rank);
	for (n = 0; n < k; n++)
		l->pos[v[n]] = n;
	l->nsw = k;
	free(v);
	return 0;
}

static int write_csv(const struct links *l, FILE *fp)
{
	const struct fabric *f = l->f;
	int n, p;

	fputs("switch,guid,port,rank,peer,peer_guid,peer_port,peer_rank,peer_type,routes,sources,destinations,a2a,efi\n",
	      fp);
	for (n = 0; n < f->nnodes; n++) {
		const struct fab_node *nd = &f->nodes[n];

		if (!fab_is_switch(nd) || nd->removed)
			continue;
		for (p = 1; p <= nd->nports; p++) {
			int r = nd->ports[p].rnode, rp = nd->ports[p].rport;
			long q = l->a2a.off[n] + p;
			int src = l->a2a.sources[q],
			    dst = l->a2a.sources[l->a2a.total + q];

			if (r < 0)
				continue;
			tool_csv_field(fp, nd->name);
			fprintf(fp, ",0x%016" PRIx64 ",%d,%d,", nd->guid, p,
				l->rank[n]);
			tool_csv_field(fp, f->nodes[r].name);
			fprintf(fp, ",0x%016" PRIx64 ",%d,%d,%s,%ld,%d,%d,%d,",
				fab_port_guid(&f->nodes[r], rp), rp, l->rank[r],
				f->nodes[r].type == FAB_SWITCH ? "switch" :
				f->nodes[r].type == FAB_CA     ? "ca" :
								 "router",
				l->a2a.routes[q], src, dst,
				src < dst ? src : dst);
			if (l->efi)
				fprintf(fp, "%ld", l->efi[q]);
			fputc('\n', fp);
		}
	}
	return ferror(fp) ? -1 : 0;
}

/* The heat map: one point per switch-to-switch link (from, to) in (rank,
 * node) order, coloured by its routes (EFI with jobs); lines between
 * ranks. */
static int heatmap(const struct links *l, const char *png,
		   struct osmre_err *err)
{
	const struct fabric *f = l->f;
	char dat[] = "/tmp/osmre-heatmap.XXXXXX";
	int fd = mkstemp(dat), n, p, r, rc = -1;
	FILE *fp, *gp;

	if (fd < 0 || !(fp = fdopen(fd, "w"))) {
		if (fd >= 0) {
			close(fd);
			unlink(dat);
		}
		return osmre_fail(err, "heat map: no temporary file");
	}
	for (n = 0; n < f->nnodes; n++)
		for (p = 1; fab_is_switch(&f->nodes[n]) &&
			    !f->nodes[n].removed && p <= f->nodes[n].nports;
		     p++) {
			long q = l->a2a.off[n] + p;

			r = f->nodes[n].ports[p].rnode;
			if (r < 0 || !fab_is_switch(&f->nodes[r]) ||
			    l->pos[r] < 0)
				continue;
			fprintf(fp, "%d %d %ld\n", l->pos[n], l->pos[r],
				l->efi ? l->efi[q] : l->a2a.routes[q]);
		}
	if (fclose(fp)) {
		unlink(dat);
		return osmre_fail(err, "heat map: cannot write %s", dat);
	}
	gp = popen("gnuplot", "w");
	if (!gp) {
		unlink(dat);
		return osmre_fail(
			err,
			"heat map: cannot run gnuplot (scripts/deps plotting)");
	}
	fprintf(gp,
		"set terminal pngcairo size 1000,900 noenhanced\n"
		"set output '%s'\n"
		"set title \"load of the switch-to-switch links: %s\\n(switches in fat-tree rank order, leaves first; lines between ranks; lower is better)\"\n"
		"set xlabel 'from switch'\nset ylabel 'to switch'\n"
		"set cblabel '%s'\nset palette rgbformulae 22,13,-31\n"
		"set size ratio -1\nset xrange [-0.5:%d]\nset yrange [-0.5:%d]\n"
		"unset key\n",
		png,
		l->efi ? "effective edge forwarding index (intra-job routes)" :
			 "all-to-all routes",
		l->efi ? "EFI" : "routes", l->nsw, l->nsw);
	/* a line where each rank ends */
	for (r = 0; r < l->maxrank; r++) {
		int end = 0;

		for (n = 0; n < f->nnodes; n++)
			end += l->pos[n] >= 0 && l->rank[n] <= r;
		fprintf(gp,
			"set arrow from %f, graph 0 to %f, graph 1 nohead dt 2 lc rgb 'gray'\n"
			"set arrow from graph 0, first %f to graph 1, first %f nohead dt 2 lc rgb 'gray'\n",
			end - 0.5, end - 0.5, end - 0.5, end - 0.5);
	}
	fprintf(gp, "plot '%s' using 1:2:3 with points pt 5 ps %.2f palette\n",
		dat,
		l->nsw > 400 ? 0.3 :
		l->nsw > 100 ? 0.6 :
			       1.2);
	if (pclose(gp) != 0)
		osmre_fail(err, "heat map: gnuplot failed (%s)", png);
	else
		rc = 0;
	unlink(dat);
	return rc;
}

int links_report(const char *csv, const char *png, const struct fabric *f,
		 const struct lft_set *s, const char *jobs, int threads,
		 struct osmre_err *err)
{
	struct links l = { .f = f };
	struct cong_order o = { 0 };
	struct cong_result cr;
	struct efi_result er;
	struct jobs j = { 0 };
	int rc = -1;

	l.rank = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	l.pos = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	if (!l.rank || !l.pos || (l.maxrank = ranks_compute(f, l.rank)) < 0 ||
	    order_switches(&l)) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	if (cong_order_make(f, CONG_ORDER_GUID, &o, err) ||
	    cong_all_to_all_ports(f, s, &o, threads, &cr, &l.a2a, err))
		goto out;
	if (jobs && (jobs_read(jobs, f, &j, err) ||
		     jobs_efi_ports(f, s, &j, &er, &l.efi, err)))
		goto out;
	if (csv) {
		FILE *fp = strcmp(csv, "-") ? fopen(csv, "w") : stdout;

		if (!fp) {
			osmre_fail(err, "%s: cannot write", csv);
			goto out;
		}
		if (write_csv(&l, fp) | (fp != stdout && fclose(fp))) {
			osmre_fail(err, "%s: write error", csv);
			goto out;
		}
	}
	if (png && heatmap(&l, png, err))
		goto out;
	rc = 0;
out:
	cong_order_free(&o);
	cong_ports_free(&l.a2a);
	jobs_free(&j);
	free(l.efi);
	free(l.rank);
	free(l.pos);
	return rc;
}
