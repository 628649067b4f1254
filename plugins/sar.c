/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The sar engine's adapter: the job file (read under a shared flock of
 * "<job file>.lock", the lock osmre jobwatch takes to replace it; a
 * malformed file is logged with file:line and the last good job set stays
 * in force), the layers of the last pass for OpenSM's path_sl (SA
 * PathRecords), and SL-to-VL tables with VL = SL (OpenSM applies them
 * when qos is on).  The algorithm is common/sar.c.
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

void sar_state_init(struct sar_state *st)
{
	memset(st, 0, sizeof(*st));
	pthread_mutex_init(&st->lock, NULL);
}

static void layers_free(struct sar_layers *l)
{
	sar_result_free(&l->res);
	free(l->src_of_lid);
	l->src_of_lid = NULL;
}

void sar_state_free(struct sar_state *st)
{
	layers_free(&st->cur);
	layers_free(&st->next);
	free(st->jobs_text);
	pthread_mutex_destroy(&st->lock);
}

void sar_promote(struct sar_state *st)
{
	pthread_mutex_lock(&st->lock);
	if (st->have_next) {
		layers_free(&st->cur);
		st->cur = st->next;
		memset(&st->next, 0, sizeof(st->next));
		st->have_next = 0;
	}
	pthread_mutex_unlock(&st->lock);
}

void sar_drop_next(struct sar_state *st)
{
	pthread_mutex_lock(&st->lock);
	layers_free(&st->next);
	st->have_next = 0;
	pthread_mutex_unlock(&st->lock);
}

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

static int parse_jobs(const char *text, const char *name,
		      const struct fabric *f, struct jobs *j,
		      struct osmre_err *err)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	int rc;

	if (!fp)
		return osmre_fail(err, "out of memory");
	rc = jobs_read_stream(fp, name, f, j, err);
	fclose(fp);
	return rc;
}

int sar_core(struct osmre *p, struct fabric *f, struct lft_set *s,
	     struct osmre_err *err)
{
	struct sar_state *st = &p->sar;
	struct sar_opts o = { .max_vls = p->opt.sar_max_vls,
			      .base_only = p->opt.update_protocol };
	struct sar_result res;
	struct jobs jobs = { 0 };
	struct guidlist io = { 0 };
	const char *path = p->opt.sar_job_file;
	int *map = NULL, i, k;
	unsigned lid;

	if (path[0]) {
		char *text = read_job_file(path, err);

		if (text && !parse_jobs(text, path, f, &jobs, err)) {
			free(st->jobs_text);
			st->jobs_text = text;
		} else {
			free(text);
			OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
				"osmre ERR: sar: %s; the last good job set stays in force\n",
				err->msg);
			if (st->jobs_text &&
			    parse_jobs(st->jobs_text, path, f, &jobs, err))
				return -1;
		}
		if (jobs.unknown)
			OSM_LOG(&p->osm->log, OSM_LOG_INFO,
				"osmre: sar: %d hostname(s) of %s not in the fabric, first \"%s\"\n",
				jobs.unknown, path, jobs.first_unknown);
	}
	if (p->opt.sar_io_guid_file[0] &&
	    guidlist_read(p->opt.sar_io_guid_file, &io, err)) {
		OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
			"osmre ERR: sar: %s; I/O nodes are not told apart\n",
			err->msg);
		guidlist_free(&io);
	}
	o.jobs = &jobs;
	o.io = &io;
	/* with the update protocol, the escape has the last VL alone */
	if (o.base_only && o.max_vls > p->opt.update_escape_vl)
		o.max_vls = p->opt.update_escape_vl;
	if (sar_route(f, &o, s, &res, err)) {
		jobs_free(&jobs);
		guidlist_free(&io);
		return -1;
	}
	guidlist_free(&io);
	map = malloc(((size_t)res.maxlid + 1) * sizeof(int));
	if (!map) {
		sar_result_free(&res);
		jobs_free(&jobs);
		return osmre_fail(err, "out of memory");
	}
	for (lid = 0; lid <= res.maxlid; lid++)
		map[lid] = -1;
	for (i = 0; i < res.ncas; i++) {
		const struct fab_port *pt = &f->nodes[res.ca_node[i]].ports[res.ca_port[i]];

		for (k = 0; k < 1 << pt->lmc; k++)
			if (pt->lid + (unsigned)k <= res.maxlid)
				map[pt->lid + (unsigned)k] = i;
	}
	OSM_LOG(&p->osm->log, OSM_LOG_INFO,
		"osmre: sar: %d job(s) from %s, %d virtual layer(s), %s tables (max effective EFI %ld; SAR %ld, DFSSSP %ld)\n",
		jobs.njobs, path[0] ? path : "(no job file)", res.layers,
		jobs.njobs && res.job_aware ? "job-aware" : "DFSSSP",
		res.efi_kept, res.efi_sar, res.efi_dfsssp);
	/* in force when the tables are (sar_promote) */
	pthread_mutex_lock(&st->lock);
	layers_free(&st->next);
	st->next.res = res;
	st->next.src_of_lid = map;
	st->have_next = 1;
	pthread_mutex_unlock(&st->lock);
	jobs_free(&jobs);
	return 0;
}

uint8_t sar_path_sl(void *ctx, uint8_t hint, ib_net16_t slid, ib_net16_t dlid)
{
	struct osmre *p = ctx;
	struct sar_state *st = &p->sar;
	const struct sar_layers *l = &st->cur;
	unsigned s = cl_ntoh16(slid), d = cl_ntoh16(dlid);
	uint8_t sl = 0;

	(void)hint;
	pthread_mutex_lock(&st->lock);
	if (l->src_of_lid && s <= l->res.maxlid && d <= l->res.maxlid &&
	    l->src_of_lid[s] >= 0)
		sl = l->res.layer[(size_t)l->src_of_lid[s] * (l->res.maxlid + 1) + d];
	pthread_mutex_unlock(&st->lock);
	return upd_path_sl(p, sl, dlid);
}

void sar_update_sl2vl(void *ctx, osm_physp_t *port, uint8_t in, uint8_t out,
		      ib_slvl_table_t *t)
{
	struct osmre *p = ctx;
	int sl;

	(void)port;
	(void)in;
	(void)out;
	if (p->opt.update_protocol) {
		upd_sl2vl(p, t);
		return;
	}
	for (sl = 0; sl < 15; sl++)	/* VL = SL; SL 15 is not for data */
		ib_slvl_table_set(t, (uint8_t)sl, (uint8_t)sl);
}
