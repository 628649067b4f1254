/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Bounded input: every file osmre reads comes from outside and may be
 * hostile or a mistake.  Only regular files are read (a directory, a
 * device such as /dev/zero or a fifo is refused with a message), each
 * format has a maximum size, and no line may be longer than the format's
 * maximum line length, so a stream without newlines cannot make a reader
 * allocate without bound.
 */
#ifndef OSMRE_INFILE_H
#define OSMRE_INFILE_H

#include <stdio.h>
#include <sys/types.h>

#include "error.h"

/* The limits of each format (bytes). */
#define INFILE_NET_SIZE	 (4LL << 30) /* ibsim net files */
#define INFILE_NET_LINE	 4096
#define INFILE_LFT_SIZE	 (1LL << 40) /* LFT dumps: 35k hosts are ~20 GB */
#define INFILE_LFT_LINE	 4096
#define INFILE_SL_SIZE	 (4LL << 30) /* SL files */
#define INFILE_SL_LINE	 1024
#define INFILE_JOBS_SIZE (256LL << 20) /* job files, squeue output */
#define INFILE_JOBS_LINE 4096
#define INFILE_CONF_SIZE (1LL << 20) /* osmre.conf */
#define INFILE_CONF_LINE 4096
#define INFILE_LIST_SIZE (256LL << 20) /* GUID lists, order files */
#define INFILE_LIST_LINE 4096

/*
 * Opens path for reading as a regular file of at most max_size bytes;
 * what names the format in messages.  NULL with the reason in err
 * ("path: not a regular file (a directory)", "path: N bytes, more than
 * the M a <what> may have", or the system's error).
 */
FILE *infile_open(const char *path, const char *what, long long max_size,
		  struct osmre_err *err);

/*
 * Like getline(3) with a bound: the next line (newline kept) into *buf,
 * its length; -1 at end of file; -2 when the line is longer than max
 * bytes, with "name:lineno: line longer than max bytes" in err (lineno:
 * the number of this line) and errno EOVERFLOW, the stream then at the
 * first byte over the limit; -2 with the reason in err on other errors.
 * *buf never grows beyond max + 2 bytes.
 */
ssize_t infile_getline(char **buf, size_t *cap, FILE *fp, size_t max,
		       const char *name, long lineno, struct osmre_err *err);

/*
 * Reads and drops the rest of a line, its newline included, storing
 * nothing: 0, or -1 at end of file or on a read error.
 */
int infile_skip_line(FILE *fp);

#endif
