/* SPDX-License-Identifier: BSD-2-Clause */
/* osmre analyze --links FILE / --heatmap FILE.png: the load of every
 * switch output port (analyze_links.c). */
#ifndef OSMRE_ANALYZE_LINKS_H
#define OSMRE_ANALYZE_LINKS_H

#include "fabric.h"
#include "lft.h"

/*
 * Per linked switch output port: the all-to-all routes (ordered CA port
 * pairs) through it, the sources and destinations behind them and its
 * A2A risk (their minimum), and with a job file its effective edge
 * forwarding index (intra-job routes).  As CSV to csv (NULL: none), and
 * as a heat map of the switch-to-switch links to png (NULL: none;
 * gnuplot), switches ordered by fat-tree rank.  0, or -1 with err.
 */
int links_report(const char *csv, const char *png, const struct fabric *f,
		 const struct lft_set *s, const char *jobs, int threads,
		 struct osmre_err *err);

#endif
