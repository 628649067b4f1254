/* SPDX-License-Identifier: BSD-2-Clause */
/* The update protocol's session table, sorted by (port GUID, id): the
 * lookups that update.c and updwait.c share (update_int.h). */
#include <stddef.h>

#include "update.h"
#include "update_int.h"

/* (a.guid, a.id) against (guid, id): the sessions' order. */
static int key_below(const struct upd_sub *a, uint64_t guid, uint32_t id)
{
	return a->guid < guid || (a->guid == guid && a->id < id);
}

/* The first session not below (guid, id) (binary search). */
int upd_lower_bound(const struct update *u, uint64_t guid, uint32_t id)
{
	int lo = 0, hi = u->nsub;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (key_below(&u->sub[mid], guid, id))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The index of session id of port guid; -1 when either does not match. */
static int session_ix(const struct update *u, uint64_t guid, uint32_t id)
{
	int i = upd_lower_bound(u, guid, id);

	if (!id || i == u->nsub || u->sub[i].guid != guid || u->sub[i].id != id)
		return -1;
	return i;
}

struct upd_sub *upd_find(struct update *u, uint64_t guid, uint32_t id)
{
	int i = session_ix(u, guid, id);

	return i < 0 ? NULL : &u->sub[i];
}

const struct upd_sub *update_session(const struct update *u, uint64_t guid,
				     uint32_t id)
{
	int i = session_ix(u, guid, id);

	return i < 0 ? NULL : &u->sub[i];
}
