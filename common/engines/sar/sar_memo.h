/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What sar remembers of its last pass, for the next stable re-route
 * (sar_opts.memo): the switch graph it routed (switch GUIDs, links by
 * (switch, port), which links climb), the load of every link after the
 * pass, a digest of what the loads' weights depend on (the destinations,
 * their LIDs and order, the CA ports and jobs per switch) and a digest
 * of every switch's table.
 *
 * A later pass may use it only when nothing but switch links went away:
 * the same switches in the same order with the same ports, every link
 * one of the memo's (same ends, same direction in the up-down order),
 * the same weights, and the tables in force exactly those the memo's
 * pass returned.  Then a tree of shortest paths that crosses no lost
 * link is still one (distances only grow when links go, and its paths
 * are still there), so a tree is kept unless it crosses a lost link,
 * without a check, and the loads of the trees kept are the memo's, less
 * those of the trees that crossed a lost link.  Anything else, and the
 * pass checks every tree (sar.h, prev).
 */
#ifndef OSMRE_SAR_MEMO_H
#define OSMRE_SAR_MEMO_H

#include <stdint.h>

#include "lft.h"
#include "swgraph.h"

/* sar's view of the switch graph (its struct sar_graph, read only). */
struct sar_links {
	int nsw;
	const int *node;       /* per switch: its fabric node */
	const uint64_t *guid;  /* per switch */
	const int *nports;     /* per switch */
	const int *chan_first; /* channel of (switch, port) */
	int nchan;
	const int *link_of; /* per channel: the link out of it, -1 */
	int nlink;
	const struct swlink *l;
	const uint8_t *up; /* per link: climbs in the up-down order; NULL */
};

struct sar_memo;

/* An empty memo (nothing remembered); NULL when out of memory. */
struct sar_memo *sar_memo_new(void);
/* Forgets what it holds (the next pass checks every tree). */
void sar_memo_clear(struct sar_memo *m);
void sar_memo_free(struct sar_memo *m);
/* The memo's random digest key (SAR_MEMO_HASH0 for NULL). */
uint64_t sar_memo_key(const struct sar_memo *m);
/* 1 when it holds a pass. */
int sar_memo_valid(const struct sar_memo *m);

/* A 64-bit digest of n bytes, 8 at a time, from h (start: the memo's
 * key, sar_memo_key).  Not a cryptographic hash: the key, drawn at random
 * per memo, keeps a switch that reports chosen LFT blocks from aiming at
 * a collision it cannot compute. */
#define SAR_MEMO_HASH0 0xcbf29ce484222325ull
uint64_t sar_memo_hash(uint64_t h, const void *p, size_t n);

/*
 * Remembers a pass: the graph g, its loads (per link), the weights'
 * digest, the tables s (one per switch of g, bound to the fabric) as a
 * digest per switch (on threads), and whether every path of s goes up,
 * then down (all_ud).  0, or -1 when out of memory (the memo is then
 * empty).
 */
int sar_memo_save(struct sar_memo *m, const struct sar_links *g,
		  const uint64_t *load, uint64_t weights,
		  const struct lft_set *s, int all_ud, int threads);

/*
 * Whether m's pass applies to graph g (the rules above) with the tables
 * in force prev and the weights' digest.  On 1: mlink[e] is the memo's
 * link for each link e of g, and *lost (malloc'ed, *nlost entries, in
 * g's indices) the memo's links that are gone; *all_ud as saved.  0:
 * it does not apply; -1: out of memory.
 */
int sar_memo_match(const struct sar_memo *m, const struct sar_links *g,
		   uint64_t weights, const struct lft_set *prev, int threads,
		   int *mlink, struct swlink **lost, int *nlost, int *all_ud);

/* The loads remembered, per memo link (valid after a match). */
const uint64_t *sar_memo_loads(const struct sar_memo *m);

#endif
