/* SPDX-License-Identifier: BSD-2-Clause */
#include <time.h>

#include "clock.h"
#include "progress.h"

#define FIRST_MS 2000
#define EVERY_MS 2000


void progress_start(struct progress *p, FILE *fp, const char *what, long total)
{
	p->fp = fp;
	p->what = what;
	p->total = total;
	atomic_init(&p->done, 0);
	atomic_init(&p->next_ms, FIRST_MS);
	p->start = clock_mono();
	atomic_init(&p->printed, 0);
}

void progress_step(struct progress *p, long n)
{
	long done, due, ms;

	if (!p || !p->fp)
		return;
	done = atomic_fetch_add(&p->done, n) + n;
	ms = (long)((clock_mono() - p->start) * 1000);
	due = atomic_load(&p->next_ms);
	/* one thread wins each report */
	if (ms < due ||
	    !atomic_compare_exchange_strong(&p->next_ms, &due, ms + EVERY_MS))
		return;
	fprintf(p->fp, "osmre: %s: %ld/%ld (%ld %%), %ld s\n", p->what, done,
		p->total, p->total ? done * 100 / p->total : 100, ms / 1000);
	fflush(p->fp);
	atomic_store(&p->printed, 1);
}

void progress_end(struct progress *p)
{
	if (!p || !p->fp || !atomic_load(&p->printed))
		return;
	fprintf(p->fp, "osmre: %s: done in %.1f s\n", p->what,
		clock_mono() - p->start);
}
