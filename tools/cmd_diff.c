/* SPDX-License-Identifier: BSD-2-Clause */
/* osmre diff A.lfts B.lfts [A2.lfts B2.lfts ...]: what an update from A
 * to B pushes (one pair of dumps per plane when each plane has its own
 * SM and LIDs) */
#define _GNU_SOURCE
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lft.h"
#include "nodemap.h"
#include "osmre.h"

/* the push cost of one LFT block: one SubnSet(LinearForwardingTable) MAD,
 * about 4.6 us each on a real fabric (the SAR slides, paper 003) */
#define DIFF_BLOCK_US 4.6

static void diff_usage(FILE *out)
{
	fprintf(out,
		"usage: osmre diff A.lfts B.lfts [A2.lfts B2.lfts ...] [options]\n"
		"  the update from tables A to tables B (opensm-lfts.dump, dump_fts or\n"
		"  ibroute output), switches matched by GUID: entries and 64-LID blocks\n"
		"  changed per switch, and the push time at 4.6 us per block; one pair\n"
		"  per plane when each plane's SM numbers its own LIDs\n"
		"      --format F          text (default) or csv\n"
		"      --all               list unchanged switches too\n"
		"      --node-name-map F   switch names by GUID (infiniband-diags format)\n");
}

struct row {
	uint64_t guid;
	const struct lft *a, *b; /* NULL: not in that dump */
	long entries, blocks;
};

static int by_guid(const void *x, const void *y)
{
	const struct lft *a = *(const struct lft *const *)x;
	const struct lft *b = *(const struct lft *const *)y;

	return a->guid < b->guid ? -1 : a->guid > b->guid;
}

/* The tables of the n sets s sorted by GUID (an array of pointers, *nv
 * of them), or NULL: no memory, or a switch in two of them (*dup set to
 * its GUID). */
static const struct lft **sorted(const struct lft_set *s, int n, int *nv,
				 uint64_t *dup)
{
	const struct lft **v;
	size_t total = 0;
	int i, k, m = 0;

	*dup = 0;
	for (k = 0; k < n; k++)
		total += (size_t)s[k].n;
	v = malloc((total + 1) * sizeof(*v));
	if (!v)
		return NULL;
	for (k = 0; k < n; k++)
		for (i = 0; i < s[k].n; i++)
			v[m++] = &s[k].t[i];
	qsort(v, (size_t)m, sizeof(*v), by_guid);
	for (i = 1; i < m; i++)
		if (v[i]->guid == v[i - 1]->guid) {
			*dup = v[i]->guid;
			free(v);
			return NULL;
		}
	*nv = m;
	return v;
}

/* A name for messages: the map's, or the GUID; control bytes cannot
 * occur (nodemap refuses them). */
static const char *label(const struct nodemap *m, uint64_t guid, char *buf,
			 size_t size)
{
	const char *n = nodemap_name(m, guid);

	if (n)
		return n;
	snprintf(buf, size, "0x%016" PRIx64, guid);
	return buf;
}

/* Matches the two sorted arrays: rows for every switch of either. */
static struct row *match(const struct lft **va, int na, const struct lft **vb,
			 int nb, int *nrows)
{
	struct row *r = malloc(((size_t)na + (size_t)nb + 1) * sizeof(*r));
	int i = 0, j = 0, n = 0;

	if (!r)
		return NULL;
	while (i < na || j < nb) {
		struct row *x = &r[n++];

		memset(x, 0, sizeof(*x));
		if (j >= nb || (i < na && va[i]->guid < vb[j]->guid))
			x->a = va[i++];
		else if (i >= na || vb[j]->guid < va[i]->guid)
			x->b = vb[j++];
		else {
			x->a = va[i++];
			x->b = vb[j++];
		}
		x->guid = x->a ? x->a->guid : x->b->guid;
		/* a switch only in B gets all its blocks; only in A: none to
		 * push (it is gone), its entries counted as changed */
		if (x->b) {
			x->entries = lft_entries_changed(x->b, x->a);
			x->blocks = lft_blocks_changed(x->b, x->a);
		} else {
			x->entries = lft_entries_changed(x->a, NULL);
		}
	}
	*nrows = n;
	return r;
}

static void report(const struct row *r, int n, const struct nodemap *map,
		   int csv, int all)
{
	long entries = 0, blocks = 0, total_blocks = 0, sw = 0;
	char buf[32];
	int i;

	if (csv)
		puts("switch,guid,state,entries_changed,blocks_changed,blocks,push_us");
	for (i = 0; i < n; i++) {
		const struct row *x = &r[i];
		const char *state = !x->a ? "new" : !x->b ? "gone" : "both";
		long nb = x->b ? (long)x->b->top / 64 + 1 : 0;

		entries += x->entries;
		blocks += x->blocks;
		total_blocks += nb;
		sw += x->entries > 0 || !x->a || !x->b;
		if (!all && !x->entries && x->a && x->b)
			continue;
		if (csv) {
			tool_csv_field(stdout,
				       label(map, x->guid, buf, sizeof(buf)));
			printf(",0x%016" PRIx64 ",%s,%ld,%ld,%ld,%.1f\n",
			       x->guid, state, x->entries, x->blocks, nb,
			       (double)x->blocks * DIFF_BLOCK_US);
		} else {
			const char *name = nodemap_name(map, x->guid);

			if (name)
				printf("%s (0x%016" PRIx64 ")", name, x->guid);
			else
				printf("0x%016" PRIx64, x->guid);
			printf(": %ld entries, %ld of %ld blocks changed%s\n",
			       x->entries, x->blocks, nb,
			       !x->a ? " (new switch)" :
			       !x->b ? " (switch gone)" :
				       "");
		}
	}
	if (!csv)
		printf("total: %ld switch(es) changed of %d, %ld entries, %ld of %ld 64-LID blocks; push %.3f ms at %.1f us per block\n",
		       sw, n, entries, blocks, total_blocks,
		       (double)blocks * DIFF_BLOCK_US / 1000.0, DIFF_BLOCK_US);
}

int cmd_diff(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'F' },
		{ "all", no_argument, NULL, 'a' },
		{ "node-name-map", required_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct lft_set *a = NULL, *b = NULL;
	struct nodemap map = { 0 };
	const struct lft **va = NULL, **vb = NULL;
	const char *mapfile = NULL;
	struct row *rows = NULL;
	struct osmre_err err;
	int c, csv = 0, all = 0, n, na = 0, nb = 0, k, pairs = 0;
	int rc = EXIT_USAGE;
	uint64_t dup = 0;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'F':
			if (!strcmp(optarg, "csv"))
				csv = 1;
			else if (strcmp(optarg, "text")) {
				fprintf(stderr,
					"osmre diff: --format: text or csv, not \"%s\"\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'a':
			all = 1;
			break;
		case 'N':
			mapfile = optarg;
			break;
		case 'h':
			diff_usage(stdout);
			return 0;
		default:
			diff_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (argc - optind < 2 || (argc - optind) % 2) {
		fprintf(stderr,
			"osmre diff: pairs of LFT files are required (A.lfts B.lfts, one pair per plane)\n");
		diff_usage(stderr);
		return EXIT_USAGE;
	}
	pairs = (argc - optind) / 2;
	a = calloc((size_t)pairs, sizeof(*a));
	b = calloc((size_t)pairs, sizeof(*b));
	if (!a || !b) {
		fprintf(stderr, "osmre diff: out of memory\n");
		goto out;
	}
	if (mapfile && nodemap_read(mapfile, &map, &err)) {
		fprintf(stderr, "osmre diff: %s\n", err.msg);
		goto out;
	}
	for (k = 0; k < pairs; k++)
		if (lftdump_read(argv[optind + 2 * k], &a[k], &err) ||
		    lftdump_read(argv[optind + 2 * k + 1], &b[k], &err)) {
			fprintf(stderr, "osmre diff: %s\n", err.msg);
			goto out;
		}
	va = sorted(a, pairs, &na, &dup);
	if (va)
		vb = sorted(b, pairs, &nb, &dup);
	if (dup) {
		fprintf(stderr,
			"osmre diff: switch 0x%016" PRIx64
			" is in two of the %s dumps: one pair per plane, each plane's switches once\n",
			dup, va ? "new" : "old");
		goto out;
	}
	if (!va || !vb || !(rows = match(va, na, vb, nb, &n))) {
		fprintf(stderr, "osmre diff: out of memory\n");
		goto out;
	}
	report(rows, n, &map, csv, all);
	rc = 0;
out:
	free(rows);
	free(va);
	free(vb);
	for (k = 0; k < pairs; k++) {
		if (a)
			lft_set_free(&a[k]);
		if (b)
			lft_set_free(&b[k]);
	}
	free(a);
	free(b);
	nodemap_free(&map);
	return rc;
}
