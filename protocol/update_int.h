/* SPDX-License-Identifier: BSD-2-Clause */
/* What update.c and updwait.c share (updsess.c: the session table), and
 * nobody else. */
#ifndef OSMRE_UPDATE_INT_H
#define OSMRE_UPDATE_INT_H

#include "update.h"

/* Session id of port guid (binary search); NULL when either does not
 * match. */
struct upd_sub *upd_find(struct update *u, uint64_t guid, uint32_t id);
/* The first session not below (guid, id) in the table's order. */
int upd_lower_bound(const struct update *u, uint64_t guid, uint32_t id);

#endif
