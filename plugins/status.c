/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The plugin's status for `osmre status`: after every pass (routed,
 * kept or refused), <cache dir>/osmre.status, the cache directory being
 * OpenSM's own ($OSM_CACHE_DIR, else /var/cache/opensm).  "key value"
 * lines (format: osmre(8), FILES).  Written to a temporary file opened
 * O_EXCL|O_NOFOLLOW beside it and renamed over it, so a reader never
 * sees half a file and a planted link is never followed.
 */
#include "osmre_plugin.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define STATUS_NAME "osmre.status"

static void write_status(struct osmre *p, const char *engine,
			 const char *result, const char *msg, double secs,
			 int switches);

void status_write(struct osmre *p, const char *engine, const char *result,
		  const char *msg, double secs, int switches)
{
	p->passes++;
	write_status(p, engine, result, msg, secs, switches);
}

void status_rewrite(struct osmre *p, const char *engine, const char *result,
		    const char *msg)
{
	write_status(p, engine, result, msg, 0, 0);
}

static void write_status(struct osmre *p, const char *engine,
			 const char *result, const char *msg, double secs,
			 int switches)
{
	const char *dir = getenv("OSM_CACHE_DIR");
	char path[4096], tmp[4096], when[64];
	time_t now = time(NULL);
	struct tm tm;
	FILE *fp;
	int fd;

	if (!dir || !*dir)
		dir = OSM_DEFAULT_CACHE_DIR;
	if (snprintf(path, sizeof(path), "%s/%s", dir, STATUS_NAME) >=
		    (int)sizeof(path) ||
	    snprintf(tmp, sizeof(tmp), "%s/.%s.%ld", dir, STATUS_NAME,
		     (long)getpid()) >= (int)sizeof(tmp))
		return;
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	if (fd < 0 || !(fp = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd);
		OSM_LOG(&p->osm->log, OSM_LOG_VERBOSE,
			"osmre: no status file %s: %s\n", tmp, strerror(errno));
		return;
	}
	fprintf(fp,
		"pid %ld\nversion %s\noptions %s\npass %lu\nengine %s\n"
		"result %s\ntime %s\nepoch %lld\nseconds %.3f\nswitches %d\n",
		(long)getpid(), PACKAGE_VERSION, p->conf_path, p->passes,
		engine, result, when, (long long)now, secs, switches);
	/* (one line: the error text is ours, newlines cut) */
	fprintf(fp, "message %.*s\n", (int)strcspn(msg, "\n"), msg);
	/* a refusal: what configured the tables in force (inforce.c) */
	if (p->in_force[0])
		fprintf(fp, "in_force %.*s\n", (int)strcspn(p->in_force, "\n"),
			p->in_force);
	if (fclose(fp) || rename(tmp, path)) {
		OSM_LOG(&p->osm->log, OSM_LOG_VERBOSE,
			"osmre: no status file %s: %s\n", path,
			strerror(errno));
		unlink(tmp);
	}
}
