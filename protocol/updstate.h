/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The update protocol's sessions on disk, so that a restarted SM keeps its
 * promise to the subscribers it had (osmre(8), "RESTARTS"): the epoch
 * counter, every session (port, id, base LID, miss counts) and the counts
 * of dropped sessions.  Text, one record a line:
 *
 *   osmre-update-sessions 1
 *   epoch E
 *   session ID GUID LID UNPATH-MISSES REPATH-MISSES INHERITED
 *   strike GUID UNPATH-MISSES REPATH-MISSES
 *   end
 *
 * (GUIDs in hex with 0x, the rest decimal.)  A file that does not read
 * back whole is not used at all.
 */
#ifndef OSMRE_UPDSTATE_H
#define OSMRE_UPDSTATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "update.h"

/* A digest of what updstate_write would write: to tell when to write
 * again. */
uint64_t updstate_digest(const struct update *u);
/* Writes u's epoch, sessions and dropped sessions' counts: 0, or -1. */
int updstate_write(FILE *fp, const struct update *u);
/*
 * Reads what updstate_write wrote into u (fresh from update_init, no
 * sessions yet): at most u->o.max_subs sessions (65,535 without a cap)
 * and as many records of counts.  0, or -1 with why in err (line number
 * and what was expected) and u unchanged.
 */
int updstate_read(FILE *fp, struct update *u, char *err, size_t errlen);

#endif
