/* SPDX-License-Identifier: BSD-2-Clause */
/* What update.c shares with updwait.c, and nobody else. */
#ifndef OSMRE_UPDATE_INT_H
#define OSMRE_UPDATE_INT_H

#include "update.h"

/* Session id of port guid (binary search); NULL when either does not
 * match. */
struct upd_sub *upd_find(struct update *u, uint64_t guid, uint32_t id);

#endif
