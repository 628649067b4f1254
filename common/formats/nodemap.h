/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Node name maps, as infiniband-diags' --node-name-map: one node per
 * line, its GUID ("0x" hexadecimal) then its name in double quotes (or,
 * unquoted, the rest of the line), '#' comments and blank lines.  Names
 * may not hold control bytes; a GUID given twice is an error.
 */
#ifndef OSMRE_NODEMAP_H
#define OSMRE_NODEMAP_H
#include <stdint.h>
#include "error.h"

struct nodemap_ent {
	uint64_t guid;
	char *name;
	int line; /* of the file */
};

struct nodemap {
	int n;
	struct nodemap_ent *e; /* sorted by GUID */
};

/* Reads path into m (zeroed first); -1 with "file:line: ..." in err. */
int nodemap_read(const char *path, struct nodemap *m, struct osmre_err *err);
/* The name of guid, or NULL when m (may be NULL) has none. */
const char *nodemap_name(const struct nodemap *m, uint64_t guid);
void nodemap_free(struct nodemap *m);
#endif
