/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Dragonfly-class fabrics (McGlohon et al., PADS 2020, section 3 and
 * Table 1).
 *
 * 1D dragonfly: G groups of A routers, all-to-all inside a group; each
 * router has H hosts and Y global ports.  Megafly (dragonfly+): G groups
 * of A leaves and S spines, every leaf linked to every spine of its
 * group (a complete bipartite graph); leaves carry the H hosts, spines
 * the Y global ports.  Either way a group has P = A*Y (dragonfly) or S*Y
 * (megafly) global ports, and every pair of groups gets M = P / (G - 1)
 * global links; P must be a multiple of G - 1.
 *
 * Global arrangement: a group's global ports are numbered p = r*Y + j
 * (router or spine r, its j-th global port); its other groups are
 * numbered i = 0..G-2 in increasing group order.
 *  - consecutive: port p goes to other group i = p / M (link k = p % M),
 *    so each router serves a contiguous range of groups;
 *  - round-robin: port p goes to other group i = p % (G - 1) (link
 *    k = p / (G - 1)), so the M links between two groups are spread over
 *    the routers.
 * Link k between groups g and t joins g's port for (t, k) and t's port
 * for (g, k).
 *
 * Ports: dragonfly router: 1..H hosts, H+1..H+A-1 the other routers of
 * the group in order, then the Y global ports.  Megafly leaf: 1..H hosts,
 * H+1..H+S the spines; spine: 1..A the leaves, A+1..A+Y global ports.
 * Names follow pgft.h: routers and leaves "S1_<g>_<r>", spines
 * "S2_<g>_<s>", hosts "H_<n>_<i>" with n the leaf's index in the fabric
 * (g*A + r); switch GUIDs 0x200000 + node, host GUIDs as in pgft.h.
 * Hosts have 2 ports, port 1 cabled (as a single-rail PGFT host).
 *
 * With planes > 1, every switch exists once per plane (its names prefixed
 * "P<k>_", GUIDs + k << 24), and host port k+1 is cabled to plane k.
 */
#ifndef OSMRE_DRAGONFLY_H
#define OSMRE_DRAGONFLY_H

#include "fabric.h"

enum df_arrangement { DF_CONSECUTIVE, DF_ROUND_ROBIN };

struct df_params {
	int megafly;
	int groups;  /* G */
	int routers; /* A: routers (dragonfly) or leaves (megafly) a group */
	int spines;  /* S (megafly) */
	int hosts;   /* H: per router or leaf */
	int global;  /* Y: global ports per router or spine */
	enum df_arrangement arrangement;
	int planes; /* 0 or 1: one */
};

/* Checks the parameters: a reason in err and -1 when absurd. */
int df_check(const struct df_params *p, struct osmre_err *err);
/* Counts of one plane: switches, hosts, global links between two
 * groups. */
long df_switches(const struct df_params *p);
long df_hosts(const struct df_params *p);
long df_links_between(const struct df_params *p);
/* "consecutive" or "round-robin" into *a; -1 when neither. */
int df_arrangement_parse(const char *s, enum df_arrangement *a);
/* Builds the fabric (df_check first). */
int df_build(const struct df_params *p, struct fabric **out,
	     struct osmre_err *err);

#endif
