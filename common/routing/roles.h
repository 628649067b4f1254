/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Roles of a fat tree's nodes, as a production fabric has them: compute
 * CAs on leaf switches, and the rest (SHARP aggregation nodes on every
 * switch, storage, login or gateway HCAs on spines, hosts on small edge
 * switches below a leaf), leaves with and without hosts, edge switches,
 * and stray cables between switches of one rank.  The tree engines route
 * the tree of compute CAs (roles_core) and the others apart (tree_core.h).
 *
 * The rules, in order (osmre.conf(5), TOPOLOGY ROLES):
 *  1. CAs: one whose node or port GUID is in io (io_guid_file) is not a
 *     compute CA; with cn (cn_guid_file) given, only those listed are;
 *     a NodeDescription containing "Aggregation Node" (the one-port CA
 *     SHARP puts on an internal port of every Quantum switch) is not.
 *     Routers count as CAs.
 *  2. With roots (root_guid_file) given: a switch's rank is counted down
 *     from them (BFS over switch links); the leaves are the rank that
 *     holds the most candidate CA ports; switches below it are edge
 *     switches.
 *  3. Without: a switch with candidate CA ports is a leaf unless it has
 *     fewer than a quarter of the most any switch has, or a switch
 *     neighbour with more than twice as many (storage on a spine, a
 *     gateway on a middle switch: their CAs are not compute CAs).  A
 *     switch with CAs whose only switch neighbour is a leaf (that has
 *     others) is an edge switch.  A switch that links to no leaf and
 *     whose two or more switch neighbours are all among one leaf's is a
 *     leaf that lost its hosts or most of them.  Ranks: BFS from the
 *     leaves (ranks.h's rule on that leaf set).
 *  4. Compute CAs: the candidates cabled to leaves.  A link between two
 *     switches of one rank, each with a link up, is a stray cable.
 */
#ifndef OSMRE_ROLES_H
#define OSMRE_ROLES_H

#include "fabric.h"
#include "guidlist.h"

enum role {
	ROLE_NONE = 0,	  /* removed, or not in the tree (no rank) */
	ROLE_COMPUTE,	  /* a CA counted in the balance */
	ROLE_OTHER_CA,	  /* any other CA: routed, not balanced */
	ROLE_LEAF,	  /* a switch of rank 0 */
	ROLE_SWITCH,	  /* a switch above the leaves */
	ROLE_EDGE_SWITCH, /* below a leaf (rank -1) */
};

/* Why a CA is not a compute CA (roles.why). */
enum role_why {
	WHY_NONE = 0,
	WHY_IO_FILE,	 /* io_guid_file */
	WHY_NOT_CN,	 /* cn_guid_file given, not in it */
	WHY_AGGREGATION, /* "Aggregation Node" */
	WHY_NOT_LEAF,	 /* on a switch that is not a leaf */
};

struct roles_hints {
	const struct guidlist *cn, *roots, *io; /* NULL or empty: none */
};

struct roles {
	int *role;    /* per node */
	int *rank;    /* per node: switches' ranks (edge -1), else INT_MIN */
	uint8_t *why; /* per node: enum role_why of an other CA */
	int maxrank;
	/* counts */
	int compute, other_ca, aggregation, leaves, hostless_leaves,
		edge_switches, stray_links, dual_homed;
	/* 1 when the fabric is the plain tree of its compute CAs: no other
	 * CA, no edge switch, no stray cable, no compute CA on two
	 * switches (roles_core would change nothing) */
	int plain;
};

#define ROLES_NO_RANK (-0x7fffffff - 1)

/* Classifies f (hints may be NULL): 0, or -1 with err (no memory, roots
 * given but none of them a switch of f). */
int roles_compute(const struct fabric *f, const struct roles_hints *h,
		  struct roles *r, struct osmre_err *err);
void roles_free(struct roles *r);

/*
 * The tree of the compute CAs: a copy of f (same node indices) without
 * the other CAs and edge switches (removed), without stray cables, and
 * with each compute CA cabled to several switches split: its ports after
 * the first become one-port CAs of their own appended to the copy (named
 * "NAME/P", the port's GUID and LID), so that each is an endpoint of its
 * leaf.  NULL with err when out of memory.
 */
struct fabric *roles_core(const struct fabric *f, const struct roles *r,
			  struct osmre_err *err);

/* A copy of f (same node indices) without its stray cables; NULL with
 * err when out of memory. */
struct fabric *roles_without_strays(const struct fabric *f,
				    const struct roles *r,
				    struct osmre_err *err);

/* 1 when f's stray cables are strays, not part of its design: at most
 * one switch link in 4, and the fabric without them still one piece
 * wherever it has hosts (a megafly's links between its spines hold its
 * groups together). */
int roles_strays_few(const struct fabric *f, const struct roles *r);

/* Fills every leaf of c (a roles_core of f) up to the most compute CA
 * ports a leaf has, with one-port CAs without a LID on its free ports
 * (named "phantom-LEAF-K"): hosts that are down, for an engine that
 * reads the tree's parameters off it (pqft).  The number added, or -1
 * with err. */
int roles_phantoms(struct fabric *c, const struct fabric *f,
		   const struct roles *r, struct osmre_err *err);

/* 1 when some leaf of f has fewer compute CA ports than another. */
int roles_short_leaves(const struct fabric *f, const struct roles *r);

/*
 * The up and down of f as the fat-tree engines route it (tree_core.h):
 * each switch's rank in the tree of the compute CAs (ranks.h on
 * roles_core), edge switches below the leaves (-1, -2, ...), INT_MIN
 * for switches the tree does not rank and for the other nodes.  core:
 * roles_core(f, r) when the caller has it, NULL to make one.  0, or -1
 * with err.
 */
int roles_ranks(const struct fabric *f, const struct roles *r,
		const struct fabric *core, int *rank, struct osmre_err *err);

/* 1 when f is a fat tree to judge by the up-down rule: ranks above its
 * leaves and no more same-rank links than strays (roles_strays_few); a
 * dragonfly (every switch a leaf) or a megafly (spines linked to spines
 * by design) is not. */
int roles_is_tree(const struct fabric *f, const struct roles *r);

/* "N compute CA(s), ..." for logs: what is not plain about f. */
void roles_summary(const struct roles *r, char *buf, size_t bufsz);

#endif
