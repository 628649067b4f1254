/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The figures of `osmre analyze`, and their text, CSV and JSON forms.
 * CSV is one header line and one row, columns in the order of the fields
 * below; a metric that was not computed is an empty CSV field and null in
 * JSON.
 */
#ifndef OSMRE_ANALYZE_REPORT_H
#define OSMRE_ANALYZE_REPORT_H

#include <stdio.h>

#include "check.h"

struct analysis {
	struct check_result chk;
	int updown_checked;
	/* deadlock freedom */
	int acyclic, nvl;
	long channels, deps;
	char *cycle;	       /* one cycle as text, NULL when acyclic */
	const char *sl_source; /* "one VL" or the SL file */
	/* congestion risk */
	const char *order;
	int nports, a2a, sp, rp, nperm;
	int planes;    /* switch components the CA ports are in */
	int max_shift; /* shifts of the largest plane */
	long seed, unroutable;
	/* jobs, when has_jobs */
	int has_jobs, njobs, nhosts;
	long efi_max, links;
	double efi_avg_job_max, dark_pct;
	/* update size against earlier tables, when has_against */
	int has_against, dropped;
	long entries_changed, entries, blocks_changed, blocks;
};

enum analysis_format { AF_TEXT, AF_CSV, AF_JSON };

int analysis_valid(const struct analysis *a);
void analysis_print(FILE *fp, const struct analysis *a,
		    enum analysis_format fmt);

#endif
