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

#define ANALYSIS_PLANES 16 /* planes whose figures are kept one by one */

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
	/* with planes > 1: each plane's figures (the first ANALYSIS_PLANES
	 * planes, in the order of the ports' first appearance), and the
	 * ordered host pairs: all, routed on at least one plane, on every
	 * plane */
	struct plane_fig {
		int ports, a2a, sp, rp, max_shift;
	} pf[ANALYSIS_PLANES];
	long host_pairs, pairs_any, pairs_every;
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
