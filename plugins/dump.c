/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The engines' state after a routing pass, in
 * <dump_files_dir>/osmre-<engine>.dump, written when OpenSM's routing
 * dumps are on (log flag 0x40); OpenSM itself never calls an engine's
 * ucast_dump_tables.  The engine writes it (engine_opts.state,
 * its NAME_state.c) into a temporary file beside it, renamed over it when
 * the pass routed.  Formats: see osmre(8).
 */
#include "osmre_plugin.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* <dump_files_dir>/osmre-<engine>.dump[.tmp] into buf; 0, or -1 when the
 * dumps are off. */
static int dump_path(struct osmre *p, const char *engine, const char *suffix,
		     char *buf, size_t size)
{
	osm_subn_opt_t *opt = &p->osm->subn.opt;

	if (!(opt->log_flags & OSM_LOG_ROUTING) || !opt->dump_files_dir)
		return -1;
	return snprintf(buf, size, "%s/osmre-%s.dump%s", opt->dump_files_dir,
			engine, suffix) < (int)size ?
		       0 :
		       -1;
}

FILE *dump_open(struct osmre *p, const char *engine)
{
	char tmp[4096];
	FILE *fp;
	int fd;

	if (dump_path(p, engine, ".tmp", tmp, sizeof(tmp)))
		return NULL;
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	if (fd < 0 || !(fp = fdopen(fd, "w"))) {
		OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
			"osmre ERR: cannot write %s: %s\n", tmp,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	return fp;
}

void dump_close(struct osmre *p, const char *engine, FILE *fp, int ok)
{
	char tmp[4096], path[4096];

	if (!fp)
		return;
	if (dump_path(p, engine, ".tmp", tmp, sizeof(tmp)) ||
	    dump_path(p, engine, "", path, sizeof(path))) {
		fclose(fp);
		return;
	}
	if (fclose(fp) || !ok || rename(tmp, path)) {
		if (ok)
			OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
				"osmre ERR: cannot write %s: %s\n", path,
				strerror(errno));
		unlink(tmp);
		return;
	}
	OSM_LOG(&p->osm->log, OSM_LOG_VERBOSE, "osmre: %s state dumped to %s\n",
		engine, path);
}
