/* SPDX-License-Identifier: BSD-2-Clause */
/* The plugin's status file of a running opensm: <OSM_CACHE_DIR of its
 * environment>/osmre.status (osmre(8), FILES). */
#ifndef OSMRE_STATUS_FILE_H
#define OSMRE_STATUS_FILE_H

#include <stddef.h>

#include "error.h"

/* The status file of pid, read whole (no link followed, owned by pid's
 * user, 64 KiB at most; its path into path): malloc()ed text, or NULL
 * with err. */
char *status_file_read(long pid, char *path, size_t size,
		       struct osmre_err *err);
/* The value of key in text into out (control bytes as '?'), or NULL. */
const char *status_field(char *text, const char *key, char *out, size_t size);

#endif
