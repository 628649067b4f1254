/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Linear forwarding tables of a whole fabric, and OpenSM's opensm-lfts.dump
 * format (the one OpenSM writes with log flag 0x40, that `dump_fts` and
 * `ibroute` print, and that OpenSM's "file" engine loads with -R file -U).
 */
#ifndef OSMRE_LFT_H
#define OSMRE_LFT_H

#include <stdio.h>

#include "fabric.h"

#define LFT_NONE 0xFF /* no route, as OSM_NO_PATH */

struct lft {
	int node; /* fabric node index, -1 when not bound */
	uint64_t guid;
	int line;	  /* of its header in the dump read, 0 otherwise */
	const char *file; /* that dump, when one of several (not owned) */
	unsigned top;	  /* highest LID with an entry */
	uint8_t *port;	  /* top + 1 entries */
};

struct lft_set {
	int n;
	struct lft *t;
	int *by_node; /* fabric node -> table index, or -1 */
	int nnodes;   /* size of by_node */
	/* what a dump said about its destinations: LID -> port GUID (0 when
	 * not said); filled by lftdump_read() */
	uint64_t *lid_guid;
	unsigned lid_guid_top;
	/* the highest top a dump's "Unicast lids [lo-top]" headers declared
	 * (0: none); the tables grow with their entries, not with it */
	unsigned said_top;
};

/* One empty table (all LFT_NONE) per switch of f, LIDs 0..top. */
int lft_set_for_fabric(const struct fabric *f, unsigned top, struct lft_set *s,
		       struct osmre_err *err);
void lft_set_free(struct lft_set *s);
/* A deep copy of the tables (not of lid_guid); 0 or -1 (no memory). */
int lft_set_clone(const struct lft_set *src, struct lft_set *dst,
		  struct osmre_err *err);

static inline struct lft *lft_of_node(const struct lft_set *s, int node)
{
	if (!s->by_node || node < 0 || node >= s->nnodes ||
	    s->by_node[node] < 0)
		return NULL;
	return &s->t[s->by_node[node]];
}

static inline int lft_get(const struct lft *t, unsigned lid)
{
	return lid <= t->top ? t->port[lid] : LFT_NONE;
}

/* The entries of s0 into s, table by table (tables matched by node: s0
 * bound to the same fabric as s); the LIDs both tables hold. */
void lft_set_copy_entries(struct lft_set *s, const struct lft_set *s0);
/* 1 when some table of s has an entry (not LFT_NONE) for a LID > 0. */
int lft_set_any_route(const struct lft_set *s);
/* 1 when both sets route every LID of every switch the same way. */
int lft_set_equal(const struct lft_set *a, const struct lft_set *b, char *diff,
		  size_t diffsz);

/* A block of 64 LIDs (OpenSM's LFT block) of table a->t[table]. */
struct lft_block {
	int table;
	unsigned block;
};
/*
 * Blocks that differ between a and b, tables matched by node; when list
 * is not NULL, *list gets them (malloc()ed, NULL when none).  -1 when
 * there is no memory for the list.
 */
long lft_set_blocks_changed(const struct lft_set *a, const struct lft_set *b,
			    struct lft_block **list);

/* Writes the set in opensm-lfts.dump format; LIDs must be assigned. */
int lftdump_write(FILE *fp, const struct fabric *f, const struct lft_set *s,
		  struct osmre_err *err);

/* Entries (switch, LID) that differ between a and b, tables matched by
 * node (a switch of a missing from b counts all its routed entries). */
long lft_set_entries_changed(const struct lft_set *a, const struct lft_set *b);
/* Entries, and 64-LID blocks, of table x that differ from y (NULL: an
 * empty table; the longer of the two counts). */
long lft_entries_changed(const struct lft *x, const struct lft *y);
long lft_blocks_changed(const struct lft *x, const struct lft *y);

/*
 * Reads opensm-lfts.dump or ibroute/dump_fts output.  Tables are keyed by
 * switch GUID; lft_set_bind() attaches them to a fabric.
 */
int lftdump_read(const char *path, struct lft_set *s, struct osmre_err *err);
int lftdump_read_stream(FILE *fp, const char *name, struct lft_set *s,
			struct osmre_err *err);
/*
 * One dump per plane, each from that plane's own subnet manager and so
 * with its own LID space from 1: the planes' LIDs overlap.  They are
 * re-based into one LID space, dump k's LID l becoming l plus the
 * highest LID of dumps 0..k-1, so that the set (and lid_guid, which
 * every dump must fill: its LIDs are matched to the topology by port
 * GUID) reads as the tables of one subnet; lft_set_import_lids() then
 * gives the fabric these LIDs.  A switch or port in two dumps is an
 * error, as are LIDs past 0xbfff in all.  With one path, as
 * lftdump_read() (whose GUIDs may then be absent).
 */
int lftdump_read_planes(const char *const *paths, int nparts, struct lft_set *s,
			struct osmre_err *err);
int lft_set_bind(struct lft_set *s, const struct fabric *f,
		 struct osmre_err *err);
/* As lft_set_bind, after dropping (and counting in *dropped) the tables
 * of switches f does not have: tables of the fabric before a change. */
int lft_set_bind_known(struct lft_set *s, const struct fabric *f, int *dropped,
		       struct osmre_err *err);
/*
 * Gives the fabric the LIDs the dump names (rows carrying "portguid"):
 * each port's base LID is its lowest, its LMC from the number of LIDs.
 * Returns 1 when LIDs were imported, 0 when the dump names none.
 */
int lft_set_import_lids(const struct lft_set *s, struct fabric *f,
			struct osmre_err *err);

#endif
