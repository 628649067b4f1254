/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Shared by the libFuzzer harnesses (tests/fuzz/run.sh builds them): a
 * small fixed fabric to read files against, and a memory file that the
 * path-based readers open like any regular file.
 */
#ifndef OSMRE_FUZZ_H
#define OSMRE_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "fabric.h"

/* PGFT(2;4,4;1,4) with LIDs (LMC 1), built once; never freed. */
const struct fabric *fuzz_fabric(void);
/* A regular file holding data[0..size) and its path (/proc/self/fd/N),
 * rewritten on each call; NULL when the system has no memfd. */
const char *fuzz_file(const uint8_t *data, size_t size);
/* data as a NUL-terminated string (malloc'ed; the caller frees). */
char *fuzz_string(const uint8_t *data, size_t size);

#endif
