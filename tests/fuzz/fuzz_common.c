/* SPDX-License-Identifier: BSD-2-Clause */
/* Shared by the harnesses (see fuzz.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "lids.h"
#include "pgft.h"

const struct fabric *fuzz_fabric(void)
{
	static struct fabric *f;
	struct pgft_params t;
	struct osmre_err err;

	if (f)
		return f;
	if (pgft_parse("2", "4,4", "1,4", NULL, &t, &err) ||
	    pgft_build(&t, &f, &err) || lids_assign(f, 1, &err)) {
		fprintf(stderr, "fuzz: %s\n", err.msg);
		abort();
	}
	return f;
}

const char *fuzz_file(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];

	if (fd < 0) {
		fd = memfd_create("osmre-fuzz", MFD_CLOEXEC);
		if (fd < 0)
			return NULL;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) ||
	    (size && pwrite(fd, data, size, 0) != (ssize_t)size))
		return NULL;
	return path;
}

char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}
