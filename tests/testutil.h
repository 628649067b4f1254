/* SPDX-License-Identifier: BSD-2-Clause */
/* Helpers shared by the unit tests: data paths, fabrics, table walks. */
#ifndef OSMRE_TESTUTIL_H
#define OSMRE_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "dmodc.h"
#include "fabric.h"
#include "lft.h"

/* Path of a file of tests/data. */
const char *tu_data(const char *name);
/* A PGFT with offline LIDs; fails the test on error. */
struct fabric *tu_pgft(const char *h, const char *m, const char *w,
		       const char *p, int lmc);
/* Three switches A, B, C in a ring, each with one host HA, HB, HC: every
 * switch is a leaf, so no up-down path joins them. */
extern const char tu_ring3_net[];
/* A net file held in a string, with offline LIDs (lmc); fails the test on
 * error. */
struct fabric *tu_from_text(const char *text, int lmc);
/* Net files (malloc()ed): a W x H torus of 6-port switches T<x>_<y>, one
 * host each; a dragonfly of A + 1 groups of A switches, two hosts each. */
char *tu_torus(int w, int h);
char *tu_dragonfly(int a);
/* A ring of n switches R<x>, a host on every every-th (R0's first):
 * shortest paths of up to n / 2 switch hops; net file text (free it). */
char *tu_ring(int n, int every);
/* A random connected graph G<i> drawn from seed: 16 to most switches, each
 * with up to 3 to 6 switch links and 1 or 2 hosts (*nsw: the switches); a
 * random tree, then links between random pairs (parallel links possible);
 * net file text (free it). */
char *tu_random_graph(uint64_t seed, int most, int *nsw);
/* A 2D HyperX: n x n switches, each linked to every switch of its row and
 * of its column, h hosts each; net file text (free it). */
char *tu_hyperx(int n, int h);
/*
 * Deadlock freedom of tables s on the VLs an SL file gives: sar's layers
 * (r, or every path on SL 0 when NULL) and, when escape_vl >= 0, the
 * update protocol's escape (updn_write_sls).  1 when every VL's channel
 * dependency graph is acyclic, 0 when not; fails the test on error.
 */
struct sar_result;
int tu_sls_acyclic(const struct fabric *f, const struct lft_set *s,
		   const struct sar_result *r, int escape_vl);
/* A dragonfly-class fabric of p (dragonfly.h) with pct % of its
 * switch-to-switch links failed (degrade.h, an RNG seeded with seed) and
 * LIDs assigned; fails the test on error. */
struct df_params;
struct fabric *tu_df_failed(const struct df_params *p, int pct, uint64_t seed);
/* Reads a net file; fails the test on error. */
struct fabric *tu_read_file(const char *path);
/* Reads a net file held in a string. */
/* A stream reading len bytes of text, from a copy in *copy, to be freed
 * after fclose. */
FILE *tu_memfile(const char *text, size_t len, char **copy);
int tu_read_net(const char *text, struct fabric **f, struct osmre_err *err);

/*
 * Walks the tables from CA port (node, port) to LID dlid; calls visit for
 * every output port used (switch egress ports and the CA's own port).
 * Returns the number of links, or -1 when the walk fails or loops.
 */
typedef void (*tu_visit)(void *arg, int node, int port);
int tu_walk(const struct fabric *f, const struct lft_set *s, int node, int port,
	    unsigned dlid, tu_visit visit, void *arg);

/* CA ports with a LID, sorted by dmodc NID. */
struct tu_hosts {
	int n;
	int *node, *port;
};
void tu_hosts_by_nid(const struct fabric *f, const struct dmodc *d,
		     struct tu_hosts *h);
void tu_hosts_free(struct tu_hosts *h);
/*
 * Shift-permutation congestion risk: for each shift k in 1..n-1, source i
 * sends to i + k (mod n) in the given order; min(#sources, #destinations)
 * per output port, max over ports, max over shifts.  Returns that maximum.
 */
int tu_max_shift_risk(const struct fabric *f, const struct lft_set *s,
		      const struct tu_hosts *h);

/*
 * The tests' own up-down oracle, a breadth-first search over (switch,
 * going up or down) states with ranks from ranks_compute():
 * ud[a * nnodes + b] is set when leaf b is reachable from leaf a by an
 * up*-down* path.  Free with free().
 */
char *tu_updown_oracle(const struct fabric *f, const int *rank);
/* (source CA port, destination LID) pairs that no table can join: the
 * source's host has no port in the destination's switch component (a
 * split fabric); those to switch LIDs in *sw. */
long tu_cross_part_pairs(const struct fabric *f, long *sw);

#endif
