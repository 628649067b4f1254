/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Slurm hostlists: "n[001-004,007]", "r[1-2]n[01-03]", "a,b[1-2],c".
 * Ranges keep the width of their lower bound ("n[008-010]": n008, n009,
 * n010); several bracket groups expand as a product, left to right.
 */
#ifndef OSMRE_HOSTLIST_H
#define OSMRE_HOSTLIST_H

#include "error.h"

struct hostlist {
	int n, cap;
	char **name;
};

/* Appends the expansion of s to h (at most 49,152 names in all: a subnet has no more unicast LIDs);
 * fails with the offending column, h then freed and empty. */
int hostlist_expand(const char *s, struct hostlist *h, struct osmre_err *err);
void hostlist_free(struct hostlist *h);

#endif
