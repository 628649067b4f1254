/* SPDX-License-Identifier: BSD-2-Clause */
/* Bounded input (see infile.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "infile.h"

static const char *kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISFIFO(m))
		return "a fifo";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a plain file";
}

FILE *infile_open(const char *path, const char *what, long long max_size,
		  struct osmre_err *err)
{
	struct stat st;
	FILE *fp;
	int fd;

	/* O_NONBLOCK: opening a fifo must not wait for a writer */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		osmre_fail(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st)) {
		osmre_fail(err, "%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		osmre_fail(err, "%s: not a regular file (%s): expected a %s",
			   path, kind(st.st_mode), what);
		close(fd);
		return NULL;
	}
	if ((long long)st.st_size > max_size) {
		osmre_fail(err,
			   "%s: %lld bytes, more than the %lld a %s may have",
			   path, (long long)st.st_size, max_size, what);
		close(fd);
		return NULL;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	fp = fdopen(fd, "r");
	if (!fp) {
		osmre_fail(err, "%s: %s", path, strerror(errno));
		close(fd);
	}
	return fp;
}

ssize_t infile_getline(char **buf, size_t *cap, FILE *fp, size_t max,
		       const char *name, long lineno, struct osmre_err *err)
{
	size_t n = 0;
	int c;

	if (!*buf || *cap < 2) {
		size_t nc = max + 2 < 256 ? max + 2 : 256;
		char *b = realloc(*buf, nc);

		if (!b) {
			osmre_fail(err, "%s:%ld: out of memory", name, lineno);
			return -2;
		}
		*buf = b;
		*cap = nc;
	}
	while ((c = getc_unlocked(fp)) != EOF) {
		if (n >= max) {
			/* left for infile_skip_line(): it may be the newline */
			ungetc(c, fp);
			osmre_fail(err, "%s:%ld: line longer than %zu bytes",
				   name, lineno, max);
			errno = EOVERFLOW;
			return -2;
		}
		if (n + 2 > *cap) {
			size_t nc = *cap * 2 < max + 2 ? *cap * 2 : max + 2;
			char *b = realloc(*buf, nc);

			if (!b) {
				osmre_fail(err, "%s:%ld: out of memory", name,
					   lineno);
				return -2;
			}
			*buf = b;
			*cap = nc;
		}
		(*buf)[n++] = (char)c;
		if (c == '\n')
			break;
	}
	(*buf)[n] = 0;
	if (!n && ferror(fp)) {
		osmre_fail(err, "%s:%ld: %s", name, lineno, strerror(errno));
		return -2;
	}
	return n ? (ssize_t)n : -1;
}

int infile_skip_line(FILE *fp)
{
	int c;

	while ((c = getc_unlocked(fp)) != EOF)
		if (c == '\n')
			return 0;
	return -1;
}
