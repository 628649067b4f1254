/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Files of the plugin in OpenSM's cache directory ($OSM_CACHE_DIR, else
 * /var/cache/opensm), written whole or not at all: a temporary file
 * opened O_EXCL|O_NOFOLLOW beside the target, synced and renamed over it,
 * so that a reader (or a restarted SM) never sees half a file and a
 * planted link is never followed.  Read back only when the file is a
 * regular file of ours, not a link, and within a size cap.
 */
#include "osmre_plugin.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* <cache dir>/name into path: 0, or -1 when it does not fit. */
static int cache_path(const char *name, const char *prefix, char *path,
		      size_t size)
{
	const char *dir = getenv("OSM_CACHE_DIR");

	if (!dir || !*dir)
		dir = OSM_DEFAULT_CACHE_DIR;
	return snprintf(path, size, "%s/%s%s", dir, prefix, name) >= (int)size ?
		       -1 :
		       0;
}

int cachefile_write(const char *name, mode_t mode,
		    int (*fn)(FILE *fp, void *arg), void *arg, char *err,
		    size_t errlen)
{
	char path[4096], tmp[4200], pre[64];
	FILE *fp = NULL;
	int fd, rc = -1;

	snprintf(pre, sizeof(pre), ".%ld.", (long)getpid());
	if (cache_path(name, "", path, sizeof(path)) ||
	    cache_path(name, pre, tmp, sizeof(tmp))) {
		snprintf(err, errlen, "the cache directory's path is too long");
		return -1;
	}
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  mode);
	if (fd < 0 || !(fp = fdopen(fd, "w"))) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (fn(fp, arg) || fflush(fp) || fsync(fileno(fp))) {
		snprintf(err, errlen, "%s: cannot write it whole", tmp);
		fclose(fp);
		goto out;
	}
	if (fclose(fp) || rename(tmp, path)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	return 0;
out:
	unlink(tmp);
	return rc;
}

FILE *cachefile_open(const char *name, long max_size, long *size, int *missing,
		     char *err, size_t errlen)
{
	char path[4096];
	struct stat sb;
	FILE *fp;
	int fd;

	*missing = 0;
	if (cache_path(name, "", path, sizeof(path))) {
		snprintf(err, errlen, "the cache directory's path is too long");
		return NULL;
	}
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		*missing = errno == ENOENT;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) || sb.st_uid != geteuid() ||
	    (sb.st_mode & 022) || sb.st_size > max_size) {
		snprintf(
			err, errlen,
			"%s: not a regular file of ours, writable by us alone, of %ld bytes at most",
			path, max_size);
		close(fd);
		return NULL;
	}
	fp = fdopen(fd, "r");
	if (!fp) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	*size = (long)sb.st_size;
	return fp;
}

void cachefile_remove(const char *name)
{
	char path[4096];

	if (!cache_path(name, "", path, sizeof(path)))
		unlink(path);
}
