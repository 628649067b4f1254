/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * GUID list files, as OpenSM's io_guid_file and cn_guid_file: one GUID
 * per line ("0x" hexadecimal), '#' comments, blank lines.
 */
#ifndef OSMRE_GUIDLIST_H
#define OSMRE_GUIDLIST_H

#include <stdint.h>

#include "error.h"

struct guidlist {
	int n;
	uint64_t *g; /* sorted */
};

/* Errors name file:line. */
int guidlist_read(const char *path, struct guidlist *l, struct osmre_err *err);
int guidlist_has(const struct guidlist *l, uint64_t guid);
void guidlist_free(struct guidlist *l);

#endif
