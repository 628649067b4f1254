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
#include <inttypes.h>
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

int sm_is_master(const struct osmre *p)
{
	return p->osm->subn.sm_state == IB_SMINFO_STATE_MASTER;
}

const char *sm_state_name(const struct osmre *p)
{
	switch (p->osm->subn.sm_state) {
	case IB_SMINFO_STATE_MASTER:
		return "master";
	case IB_SMINFO_STATE_STANDBY:
		return "standby";
	case IB_SMINFO_STATE_DISCOVERING:
		return "discovering";
	default:
		return "not active";
	}
}

void status_write(struct osmre *p, const char *engine, const char *result,
		  const char *msg, double secs, int switches)
{
	p->passes++;
	snprintf(p->st_engine, sizeof(p->st_engine), "%s", engine);
	snprintf(p->st_result, sizeof(p->st_result), "%s", result);
	snprintf(p->st_msg, sizeof(p->st_msg), "%s", msg);
	p->st_secs = secs;
	p->st_switches = switches;
	p->st_routed = !strcmp(result, "routed") || !strcmp(result, "kept");
	write_status(p, engine, result, msg, secs, switches);
}

void status_rewrite(struct osmre *p, const char *engine, const char *result,
		    const char *msg)
{
	write_status(p, engine, result, msg, 0, 0);
}

void status_sm_state(struct osmre *p)
{
	OSM_LOG(&p->osm->log, OSM_LOG_INFO, "osmre: SM state: %s\n",
		sm_state_name(p));
	/* a standby's tables in force are the master's */
	if (!sm_is_master(p))
		p->st_routed = 0;
	write_status(p, p->st_engine[0] ? p->st_engine : "-",
		     p->st_result[0] ? p->st_result : "none", p->st_msg,
		     p->st_secs, p->st_switches);
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
	/* this SM's state, the master's port GUID when OpenSM knows it
	 * (a standby polls it), and whether this process routed the
	 * tables in force */
	fprintf(fp, "sm_state %s\n", sm_state_name(p));
	if (p->osm->sm.master_sm_guid)
		fprintf(fp, "master_guid 0x%016" PRIx64 "\n",
			cl_ntoh64(p->osm->sm.master_sm_guid));
	fprintf(fp, "routed_here %d\n", p->st_routed && sm_is_master(p));
	/* what configured the tables in force: this SM's pass, or after a
	 * refusal OpenSM's engine, checked (inforce.c) */
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
