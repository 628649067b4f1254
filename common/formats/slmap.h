/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Service levels of paths and SL-to-VL tables, for the deadlock check on
 * several virtual lanes (`osmre analyze --sl-file`).  The file (format in
 * osmre(1)) holds, in any order:
 *   default SL              SL of every path not listed (default 0)
 *   path SLID DLID SL       SL of the path from the CA port whose base LID
 *                           is SLID to LID DLID
 *   dest DLID SL            SL of every path to LID DLID not listed with
 *                           "path" (the update protocol's escape LIDs)
 *   sl2vl V0 ... V15        SL-to-VL of every switch without its own table
 *                           (default: VL = SL)
 * and blocks of OpenSM's opensm-sl2vl.dump, whose switch tables (per input
 * and output port) are used as they are; CA blocks are skipped.  So it
 * reads every SL file osmre writes: `osmre route --sls`, the plugin's
 * osmre-sar.dump (whose "layers ..." header line is skipped) and OpenSM's
 * opensm-sl2vl.dump (the VLs; the paths' SLs then default to 0).
 */
#ifndef OSMRE_SLMAP_H
#define OSMRE_SLMAP_H

#include <stdint.h>
#include <stdio.h>

#include "fabric.h"

struct sl_map {
	int default_sl;
	long npath;
	uint64_t *key;	    /* (SLID << 16 | DLID), sorted */
	uint8_t *sl;	    /* SL of key[i] */
	uint8_t global[16]; /* SL -> VL of switches without a table */
	uint8_t **sw;	    /* per fabric node: [in][out][sl] or NULL */
	int nnodes;
};

/* Reads an SL file (a regular file, bounded: infile.h); 0, or -1 with
 * "path:line: what was expected" in err. */
int sl_map_read(const char *path, const struct fabric *f, struct sl_map *m,
		struct osmre_err *err);
/* The same from an open stream; name is used in messages. */
int sl_map_read_stream(FILE *fp, const char *name, const struct fabric *f,
		       struct sl_map *m, struct osmre_err *err);
void sl_map_free(struct sl_map *m);

int sl_map_sl(const struct sl_map *m, unsigned slid, unsigned dlid);

/*
 * sl_map_sl for many paths, where each source's DLIDs come in ascending
 * order (per source, not overall): a cursor per source LID up to maxlid,
 * O(1) a path, and a binary search of the "dest" lines where a path has
 * no line of its own.  Paths from SLIDs above maxlid read as sl_map_sl
 * would (slowly).
 */
struct sl_cursor {
	const struct sl_map *m;
	long *next, *end; /* per SLID 0..maxlid: its keys' range */
	unsigned maxlid;
};

/* 0, or -1 when out of memory. */
int sl_cursor_init(struct sl_cursor *c, const struct sl_map *m,
		   unsigned maxlid);
/* The SL of the path from slid to dlid, as sl_map_sl. */
int sl_cursor_sl(struct sl_cursor *c, unsigned slid, unsigned dlid);
void sl_cursor_free(struct sl_cursor *c);

/*
 * Writes an SL file of a layering's paths (slmap_write.c): the header
 * "# osmre NAME: LAYERS layer(s), SL = layer", "default 0", then "path
 * SLID DLID SL" for every path whose layer is not 0, source by source,
 * DLID ascending.  layer: [src][0..maxlid] for nsrc sources, source src
 * being port src_port[src] of node src_node[src] of f (its base LID is
 * SLID); no paths when layer or src_node is NULL.  0, or -1 when fp has
 * a write error.
 */
int sl_map_write_paths(FILE *fp, const struct fabric *f, const char *name,
		       int layers, const uint8_t *layer, int nsrc,
		       const int *src_node, const int *src_port,
		       unsigned maxlid);

static inline int sl_map_vl(const struct sl_map *m, int node, int in, int out,
			    int sl)
{
	const uint8_t *t = node < m->nnodes ? m->sw[node] : NULL;
	int w;

	if (!t)
		return m->global[sl];
	w = *(const int *)(const void *)t;
	return t[sizeof(int) + ((size_t)in * w + out) * 16 + sl];
}

#endif
