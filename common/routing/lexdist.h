/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Distances to one switch, for the engines that route on "shortest"
 * paths (sar, its EFI local search).  Without link weights, hops
 * (breadth-first search).  With weights, the sum of the weights of a
 * path (Dijkstra with a binary heap).  The weights osmre uses: on a
 * fabric with groups (components.h: switch_groups, a dragonfly), a link
 * between two groups weighs nsw + 1 and a link inside a group nsw, so a
 * path's length is (hops, inter-group links) in lexicographic order: a
 * path is always one of the fewest hops, and among those one of the
 * fewest links between groups (on a dragonfly, local-global-local rather
 * than global-local-global).  Hops come first because groups are found
 * from triangles, whatever made them: a megafly whose spines (or leaves)
 * form triangles has "groups" too, and counting their links first made
 * paths a hop longer (issue 37); on a dragonfly, a route through a third
 * group is taken only where it is shorter than every route through one
 * global link.  Keys stay below nsw * nsw.
 */
#ifndef OSMRE_LEXDIST_H
#define OSMRE_LEXDIST_H

#include "fabric.h"
#include "swgraph.h"

/* The links into each switch (CSR over compact switch indices): link
 * in[e] for e in in_first[v] .. in_first[v + 1] - 1 enters v from
 * from[in[e]]; w: per link weight, NULL for hops. */
struct lexgraph {
	int nsw;
	const int *in_first, *in;
	const int *from; /* per link */
	const int *w;	 /* per link, or NULL */
};

/* Scratch of one search. */
struct lexheap {
	int *v, *k; /* heap entries: switch, key */
	int n, cap;
	char *done;
};

int lexheap_init(struct lexheap *h, const struct lexgraph *g, int nlink);
void lexheap_free(struct lexheap *h);

/*
 * key[u]: the distance from switch u to switch t, -1 when none; order[]:
 * the switches reached, nearest first (t first).  Returns how many.
 */
int lexdist_to(const struct lexgraph *g, struct lexheap *h, int t, int *key,
	       int *order);

/* The weight of link l (1 without weights). */
static inline int lexdist_w(const struct lexgraph *g, int l)
{
	return g->w ? g->w[l] : 1;
}

/*
 * Per-link weights for the fabric's groups into *w (nlink entries, link
 * l from switch from[l] to to[l], compact indices, node[] their fabric
 * nodes; group[] and ngroups from switch_groups, components.h): NULL and
 * 0 when the fabric has no groups (or more than 40,000 switches, where
 * keys could overflow); -1 when out of memory.
 */
int lexdist_group_weights(const int *group, int ngroups, int nsw,
			  const int *node, int nlink, const int *from,
			  const int *to, int **w);

/*
 * The distances on switch graph sg (swgraph_groups done), weighted by its
 * groups as above: *w, lg on sg's arrays and heap for it.  0, or -1 when
 * out of memory.
 */
int lexdist_swgraph(const struct swgraph *sg, int **w, struct lexgraph *lg,
		    struct lexheap *heap);

#endif
