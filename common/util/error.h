/* SPDX-License-Identifier: BSD-2-Clause */
/* A caller-owned error message: every fallible call fills one on failure. */
#ifndef OSMRE_ERROR_H
#define OSMRE_ERROR_H

#include <stddef.h>

struct osmre_err {
	char msg[512];
};

#if defined(__GNUC__)
#define OSMRE_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define OSMRE_PRINTF(a, b)
#endif

/* Rewrites control bytes in msg (a string in a buffer of size bytes, at
 * most 1,024 used) as \xNN, truncating to fit. */
void osmre_sanitize(char *msg, size_t size);

/* Formats into err (when non-NULL) and returns -1. */
int osmre_fail(struct osmre_err *err, const char *fmt, ...) OSMRE_PRINTF(2, 3);

/* Prepends a formatted prefix and ": " to err's message; returns -1. */
int osmre_prefix(struct osmre_err *err, const char *fmt, ...)
	OSMRE_PRINTF(2, 3);

#endif
