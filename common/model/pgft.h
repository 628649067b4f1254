/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Parallel-ports generalized fat trees PGFT(h; m1..mh; w1..wh; p1..ph)
 * (Zahavi et al., QFT paper section II): connection rule eq. (5) with p_l
 * parallel links between connected nodes of levels l and l-1.
 *
 * Nodes are created level h first down to level 1, then the hosts, each
 * level in tuple order (digit s_h most significant), so GUIDs follow that
 * order.  Names: switches "S<l>_<s_h>_..._<s_1>", hosts "H_<g>_<s_1>" with g
 * the host's index divided by m_1 (its leaf's index when w_1 = 1).
 * Ports: switch at level l: down port 1 + c + m_l*k to child digit c,
 * parallel link k; up port m_l*p_l + 1 + j + w_{l+1}*k to parent digit j.
 * Hosts use port 1 + j + w_1*k and have w_1*p_1 ports, at least 2 (a
 * single-rail host looks like a dual-port HCA with one cable).
 */
#ifndef OSMRE_PGFT_H
#define OSMRE_PGFT_H

#include "fabric.h"

#define PGFT_MAX_LEVELS 8

struct pgft_params {
	int qft; /* 1: p are QFT cross-connections, eq. (6)-(8) */
	int h;
	int m[PGFT_MAX_LEVELS + 1]; /* 1-based like the paper */
	int w[PGFT_MAX_LEVELS + 1];
	int p[PGFT_MAX_LEVELS + 1];
};

/* Parses "3" "18,9,36" "1,9,18" "1,2,1"; p may be NULL (all 1). */
int pgft_parse(const char *h, const char *m, const char *w, const char *p,
	       struct pgft_params *out, struct osmre_err *err);

/*
 * QFT(h; m; w; p) (QFT paper section III): the same nodes as the PGFT, but
 * a level-l switch's m_l*p_l down-ports go to distinct switches: down-port
 * f = q_l + m_l*(q_{l+1} mod p_l) reaches the node whose digit l+1 lies in
 * the same group of p_l (eq. 6-8); its up-port g = s_l + w_l*(s_{l+1} mod
 * p_l).  The paper's restriction is checked: one level c with p_c > 1, with
 * 2 <= c < h (hosts and the top level are not cross-connected), m_{c+1}
 * and (when c + 2 <= h) w_{c+2} divisible by p_c.  Parses "3" "18,9,36"
 * "1,9,18" "1,2,1" like pgft_parse().
 */
int qft_parse(const char *h, const char *m, const char *w, const char *p,
	      struct pgft_params *out, struct osmre_err *err);
/*
 * The pruned 3-level fat tree of the multi-rail paper (Wolfe et al.,
 * section III-B, "Summit approximation"): the k-ary 3-level fat tree of
 * radix-k switches (k pods of k/2 leaves and k/2 aggregation switches,
 * k/2 hosts per leaf, (k/2)^2 core switches) with only `pods` pods left.
 * Each core switch would now use `pods` of its k ports, so the top level
 * is wired again with bundles: every aggregation switch reaches (k/2)/b
 * core switches over b parallel links each, b the largest divisor of k/2
 * with b * pods <= k, and there are (k/2)^2 / b core switches, each with b
 * links to one aggregation switch of every pod.  Full bisection within
 * the tree is kept (every switch has as many links up as down).  As a
 * PGFT: PGFT(3; k/2, k/2, pods; 1, k/2, (k/2)/b; 1, 1, b); k = 36 with 11
 * pods gives 3,564 hosts, 504 switches, b = 3.  k even in 4..254, pods in
 * 2..k; otherwise -1 with err.
 */
int rlft_params(int k, int pods, struct pgft_params *out,
		struct osmre_err *err);
/* "pgft(3;18,9,36;1,9,18;1,2,1)" or "qft(...)" (p optional for pgft). */
int topo_spec_parse(const char *spec, struct pgft_params *out,
		    struct osmre_err *err);
/* The spec of t, as topo_spec_parse() reads it. */
void topo_spec_format(const struct pgft_params *t, char *buf, size_t sz);
/* The first level with p_l > 1 of a QFT, 0 when none. */
int qft_cross_level(const struct pgft_params *t);

/* Eq. (1): nodes at level l (0 = hosts). */
long pgft_level_size(const struct pgft_params *t, int l);
long pgft_switches(const struct pgft_params *t);
/* Links between levels l and l-1. */
long pgft_links_at(const struct pgft_params *t, int l);

/* Builds the PGFT, or the QFT when t->qft. */
int pgft_build(const struct pgft_params *t, struct fabric **out,
	       struct osmre_err *err);

#endif
