/* SPDX-License-Identifier: BSD-2-Clause */
/* The plugin's status file of a running opensm (plugins/status.c writes
 * it): read safely, and its "key value" lines. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "status_file.h"

#define STATUS_SIZE (64 << 10)

/* The value of OSM_CACHE_DIR in pid's environment into out, or OpenSM's
 * default. */
static void cache_dir(long pid, char *out, size_t size)
{
	char path[64], buf[65536];
	size_t n, i;
	FILE *fp;

	snprintf(out, size, "/var/cache/opensm");
	snprintf(path, sizeof(path), "/proc/%ld/environ", pid);
	fp = fopen(path, "r");
	if (!fp)
		return;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	for (i = 0; i < n; i += strlen(buf + i) + 1)
		if (!strncmp(buf + i, "OSM_CACHE_DIR=", 14) && buf[i + 14]) {
			snprintf(out, size, "%s", buf + i + 14);
			return;
		}
}

/* The value of key in the status text, or NULL (points into text). */
const char *status_field(char *text, const char *key, char *out, size_t size)
{
	size_t k = strlen(key);
	char *l;

	for (l = text; l && *l;
	     l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, key, k) && l[k] == ' ') {
			size_t len = strcspn(l + k + 1, "\n");

			if (len >= size)
				len = size - 1;
			memcpy(out, l + k + 1, len);
			out[len] = '\0';
			/* (control bytes shown as '?': the file is the
			 * plugin's, but it is read back from disk) */
			for (char *c = out; *c; c++)
				if ((unsigned char)*c < 0x20 || *c == 0x7f)
					*c = '?';
			return out;
		}
	return NULL;
}

/* The status file of pid: read (no link followed, owned by pid's user). */
char *status_file_read(long pid, char *path, size_t size, struct osmre_err *err)
{
	char dir[4096], *text;
	struct stat st, ps;
	char proc[64];
	ssize_t n;
	int fd;

	cache_dir(pid, dir, sizeof(dir));
	snprintf(path, size, "%s/osmre.status", dir);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		osmre_fail(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	snprintf(proc, sizeof(proc), "/proc/%ld", pid);
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || stat(proc, &ps) ||
	    st.st_uid != ps.st_uid || st.st_size > STATUS_SIZE) {
		close(fd);
		osmre_fail(
			err,
			"%s: not a regular file of opensm's user, or too long",
			path);
		return NULL;
	}
	text = malloc(STATUS_SIZE + 1);
	if (!text) {
		close(fd);
		osmre_fail(err, "out of memory");
		return NULL;
	}
	n = read(fd, text, STATUS_SIZE);
	close(fd);
	if (n < 0) {
		free(text);
		osmre_fail(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	text[n] = '\0';
	return text;
}
