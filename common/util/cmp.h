/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * qsort/bsearch comparators of plain keys, ascending: one definition for
 * the sorts of uint64_t (GUIDs, packed keys), int and long arrays.
 */
#ifndef OSMRE_CMP_H
#define OSMRE_CMP_H

int cmp_u64(const void *a, const void *b);
int cmp_int(const void *a, const void *b);
int cmp_long(const void *a, const void *b);

#endif
