/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * An ENGINE_TAKES_JOBS engine's inputs inside OpenSM (sar's, by its options
 * sar_job_file and sar_io_guid_file): the job file (read under a shared flock of
 * "<job file>.lock", the lock osmre jobwatch takes to replace it; a
 * malformed file is logged with file:line and the last good job set stays
 * in force) and the I/O nodes.  The engine is common/engines/sar/, run through
 * common/run/engine_table.c; its layers are kept by common/run/staging.c.
 */
#include "osmre_plugin.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "infile.h"

/*
 * Takes a shared lock on fd, waiting at most 2 s: anyone who can open the
 * lock file can hold it, and OpenSM must not wait on them.  jobwatch
 * renames a complete file into place, so a read without the lock still
 * sees a whole file.
 */
static int lock_shared(int fd)
{
	int i;

	for (i = 0; i < 200; i++) {
		if (!flock(fd, LOCK_SH | LOCK_NB))
			return 0;
		if (errno != EWOULDBLOCK && errno != EINTR)
			return -1;
		usleep(10000);
	}
	return -1;
}

/* The whole job file (bounded: infile.h), read under the writers' lock
 * when it can be had; NULL on error. */
static char *read_job_file(const char *path, struct osmre_err *err)
{
	char lock[300], *buf = NULL;
	size_t len = 0;
	FILE *fp, *out;
	int lfd, c;

	snprintf(lock, sizeof(lock), "%s.lock", path);
	lfd = open(lock, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (lfd >= 0 && lock_shared(lfd)) {
		close(lfd);
		lfd = -1;
	}
	fp = infile_open(path, "job file", INFILE_JOBS_SIZE, err);
	if (!fp) {
		if (lfd >= 0)
			close(lfd);
		return NULL;
	}
	out = open_memstream(&buf, &len);
	if (out) {
		long long n = 0;

		while (n++ < INFILE_JOBS_SIZE && (c = getc(fp)) != EOF)
			putc(c, out);
		fclose(out);
	}
	fclose(fp);
	if (lfd >= 0)
		close(lfd);
	if (!buf)
		osmre_fail(err, "out of memory");
	return buf;
}

static int parse_jobs(char *text, const char *name, const struct fabric *f,
		      struct jobs *j, struct osmre_err *err)
{
	FILE *fp = fmemopen(text, strlen(text), "r");
	int rc;

	if (!fp)
		return osmre_fail(err, "out of memory");
	rc = jobs_read_stream(fp, name, f, j, err);
	fclose(fp);
	return rc;
}

int jobfile_load(struct osmre_engine *oe, const struct engine_opts *o,
		 const struct fabric *f, struct jobs *jobs, struct guidlist *io,
		 int *changed, struct osmre_err *err)
{
	struct osmre *p = oe->p;
	const char *engine = oe->e->name, *path = o->job_file;

	*changed = 0;
	if (path) {
		char *text = read_job_file(path, err);

		if (text && !parse_jobs(text, path, f, jobs, err)) {
			*changed =
				!oe->jobs_text || strcmp(oe->jobs_text, text);
			free(oe->jobs_text);
			oe->jobs_text = text;
		} else {
			free(text);
			OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
				"osmre ERR: %s: %s; the last good job set stays in force\n",
				engine, err->msg);
			if (oe->jobs_text &&
			    parse_jobs(oe->jobs_text, path, f, jobs, err))
				return -1;
		}
		if (jobs->unknown) {
			char msg[512];

			/* down nodes are normal: logged, not an error */
			jobs_unknown_msg(jobs, msg, sizeof(msg));
			OSM_LOG(&p->osm->log, OSM_LOG_INFO,
				"osmre: %s: job file %s: %s\n", engine, path,
				msg);
		}
	}
	if (o->io_file && guidlist_read(o->io_file, io, err)) {
		OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
			"osmre ERR: %s: %s; I/O nodes are not told apart\n",
			engine, err->msg);
		guidlist_free(io);
	}
	return 0;
}

void jobfile_report(struct osmre_engine *oe, const struct engine_opts *o,
		    const struct jobs *jobs)
{
	OSM_LOG(&oe->p->osm->log, OSM_LOG_INFO,
		"osmre: %s: %d job(s) from %s\n", oe->e->name, jobs->njobs,
		o->job_file ? o->job_file : "(no job file)");
}

void jobfile_free(struct osmre_engine *oe)
{
	free(oe->jobs_text);
	oe->jobs_text = NULL;
}
