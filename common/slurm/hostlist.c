/* SPDX-License-Identifier: BSD-2-Clause */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostlist.h"

#define MAX_NAME 256
/* one subnet has at most 49,151 unicast LIDs, so no job of it has more
 * hosts: a longer hostlist is an error, not megabytes of names */
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define MAX_HOSTS 49152
#else
/* the fuzz build (tests/fuzz/run.sh) hits the same bound with fewer
 * names, so inputs cost milliseconds, not seconds, under ASan */
#define MAX_HOSTS 512
#endif

static int push(struct hostlist *h, const char *name)
{
	char **nn;

	if (h->n >= MAX_HOSTS)
		return -1;
	if (h->n == h->cap) {
		int nc = h->cap ? 2 * h->cap : 16;

		nn = realloc(h->name, (size_t)nc * sizeof(char *));
		if (!nn)
			return -1;
		h->name = nn;
		h->cap = nc;
	}
	if (!(h->name[h->n] = strdup(name)))
		return -1;
	h->n++;
	return 0;
}

/*
 * Expands one host expression s[0..len) (no top-level comma) after the
 * already built prefix; recursion over its bracket groups.
 */
static int expand_one(const char *all, const char *s, size_t len, char *prefix,
		      size_t plen, struct hostlist *h, struct osmre_err *err)
{
	const char *open = memchr(s, '[', len), *close, *p;

	if (!open) {
		if (plen + len >= MAX_NAME)
			return osmre_fail(
				err,
				"hostlist \"%s\": a name longer than %d characters",
				all, MAX_NAME - 1);
		memcpy(prefix + plen, s, len);
		prefix[plen + len] = '\0';
		if (memchr(s, ']', len))
			return osmre_fail(
				err,
				"hostlist \"%s\", column %ld: ']' without '['",
				all,
				(long)((const char *)memchr(s, ']', len) -
				       all) +
					1);
		return push(h, prefix) ?
			       osmre_fail(
				       err,
				       "hostlist \"%.200s\": more than %d names, or out of memory",
				       all, MAX_HOSTS) :
			       0;
	}
	close = memchr(open, ']', len - (size_t)(open - s));
	if (!close)
		return osmre_fail(err,
				  "hostlist \"%s\", column %ld: '[' without ']'",
				  all, (long)(open - all) + 1);
	/* "[]" would expand to nothing, and the groups before it would be
	 * walked in full for nothing (found by fuzz_squeue) */
	if (close == open + 1)
		return osmre_fail(err,
				  "hostlist \"%s\", column %ld: empty brackets",
				  all, (long)(open - all) + 1);
	if (plen + (size_t)(open - s) >= MAX_NAME)
		return osmre_fail(
			err,
			"hostlist \"%s\": a name longer than %d characters",
			all, MAX_NAME - 1);
	memcpy(prefix + plen, s, (size_t)(open - s));
	plen += (size_t)(open - s);
	for (p = open + 1; p < close;) {
		const char *q = p, *dash = NULL, *end;
		unsigned long lo, hi, v;
		int width;

		while (q < close && *q != ',')
			q++;
		end = q;
		for (q = p; q < end; q++) {
			if (*q == '-' && !dash)
				dash = q;
			else if (!isdigit((unsigned char)*q))
				return osmre_fail(
					err,
					"hostlist \"%s\", column %ld: expected a number or a range in brackets",
					all, (long)(q - all) + 1);
		}
		if (p == end || (dash && (dash == p || dash + 1 == end)))
			return osmre_fail(
				err,
				"hostlist \"%s\", column %ld: empty number or range",
				all, (long)(p - all) + 1);
		width = (int)((dash ? dash : end) - p);
		lo = strtoul(p, NULL, 10);
		hi = dash ? strtoul(dash + 1, NULL, 10) : lo;
		if (hi < lo || hi - lo >= MAX_HOSTS || width > 18)
			return osmre_fail(
				err,
				"hostlist \"%s\", column %ld: range %lu-%lu",
				all, (long)(p - all) + 1, lo, hi);
		for (v = lo; v <= hi; v++) {
			int n = snprintf(prefix + plen, MAX_NAME - plen,
					 "%0*lu", width, v);

			if (n < 0 || plen + (size_t)n >= MAX_NAME)
				return osmre_fail(
					err,
					"hostlist \"%s\": a name longer than %d characters",
					all, MAX_NAME - 1);
			if (expand_one(all, close + 1,
				       len - (size_t)(close + 1 - s), prefix,
				       plen + (size_t)n, h, err))
				return -1;
		}
		p = end < close ? end + 1 : end;
		if (end < close && p == close)
			return osmre_fail(
				err,
				"hostlist \"%s\", column %ld: empty number or range",
				all, (long)(p - all) + 1);
	}
	return 0;
}

static int expand_all(const char *s, struct hostlist *h, struct osmre_err *err)
{
	char prefix[MAX_NAME];
	const char *p = s;

	if (!*s)
		return osmre_fail(err, "empty hostlist");
	while (*p) {
		const char *q = p;
		int depth = 0;

		/* a top-level comma ends one expression */
		while (*q && (depth || *q != ',')) {
			depth += *q == '[' ? 1 : *q == ']' ? -1 : 0;
			if (depth < 0)
				return osmre_fail(
					err,
					"hostlist \"%s\", column %ld: ']' without '['",
					s, (long)(q - s) + 1);
			q++;
		}
		if (q == p)
			return osmre_fail(
				err, "hostlist \"%s\", column %ld: empty name",
				s, (long)(p - s) + 1);
		if (expand_one(s, p, (size_t)(q - p), prefix, 0, h, err))
			return -1;
		p = *q ? q + 1 : q;
		if (*q && !*p)
			return osmre_fail(err,
					  "hostlist \"%s\": ends with a comma",
					  s);
	}
	return 0;
}

int hostlist_expand(const char *s, struct hostlist *h, struct osmre_err *err)
{
	if (!expand_all(s, h, err))
		return 0;
	hostlist_free(h);
	return -1;
}

void hostlist_free(struct hostlist *h)
{
	int i;

	for (i = 0; i < h->n; i++)
		free(h->name[i]);
	free(h->name);
	h->name = NULL;
	h->n = h->cap = 0;
}
