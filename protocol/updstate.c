/* SPDX-License-Identifier: BSD-2-Clause */
/* The update protocol's sessions on disk (see updstate.h). */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "updstate.h"

#define HEADER	 "osmre-update-sessions 1"
#define LINE_MAX 256

static void mix(uint64_t *h, uint64_t v)
{
	*h = (*h ^ v) * 0x100000001b3ull;
}

uint64_t updstate_digest(const struct update *u)
{
	uint64_t h = 0xcbf29ce484222325ull;
	int i;

	mix(&h, u->epoch);
	mix(&h, (uint64_t)u->nsub << 32 | (uint32_t)u->nstrike);
	for (i = 0; i < u->nsub; i++) {
		const struct upd_sub *s = &u->sub[i];

		mix(&h, s->guid);
		mix(&h, (uint64_t)s->id << 32 | s->lid);
		mix(&h, (uint64_t)(uint32_t)s->misses[0] << 32 |
				(uint32_t)s->misses[1] << 1 |
				(uint32_t)s->inherited);
	}
	for (i = 0; i < u->nstrike; i++) {
		mix(&h, u->strike[i].guid);
		mix(&h, (uint64_t)(uint32_t)u->strike[i].misses[0] << 32 |
				(uint32_t)u->strike[i].misses[1]);
	}
	return h;
}

int updstate_write(FILE *fp, const struct update *u)
{
	int i;

	fprintf(fp, "%s\nepoch %" PRIu32 "\n", HEADER, u->epoch);
	for (i = 0; i < u->nsub; i++) {
		const struct upd_sub *s = &u->sub[i];

		fprintf(fp,
			"session %" PRIu32 " 0x%016" PRIx64 " %u %d %d %d\n",
			s->id, s->guid, s->lid, s->misses[UPD_MISS_UNPATH],
			s->misses[UPD_MISS_REPATH], s->inherited);
	}
	for (i = 0; i < u->nstrike; i++)
		fprintf(fp, "strike 0x%016" PRIx64 " %d %d\n",
			u->strike[i].guid, u->strike[i].misses[UPD_MISS_UNPATH],
			u->strike[i].misses[UPD_MISS_REPATH]);
	fprintf(fp, "end\n");
	return fflush(fp) || ferror(fp) ? -1 : 0;
}

/* One line into buf (without its newline): 1, 0 at the end, -1 when it
 * is too long or holds a NUL. */
static int get_line(FILE *fp, char *buf, size_t size)
{
	size_t n = 0;
	int c;

	while ((c = getc(fp)) != EOF && c != '\n') {
		if (!c || n + 1 >= size)
			return -1;
		buf[n++] = (char)c;
	}
	buf[n] = '\0';
	return c == EOF && !n ? 0 : 1;
}

static int in_range(int v, int hi)
{
	return v >= 0 && v <= hi;
}

int updstate_read(FILE *fp, struct update *u, char *err, size_t errlen)
{
	int cap = u->o.max_subs > 0 ? u->o.max_subs : 65535, line = 0, end = 0;
	struct update t = *u; /* the same options, no sessions */
	char buf[LINE_MAX], tail;
	int r;

	t.sub = NULL;
	t.strike = NULL;
	t.nsub = t.cap = t.nstrike = t.strike_cap = 0;
	while ((r = get_line(fp, buf, sizeof(buf))) > 0) {
		struct upd_sub s = { 0 };
		struct upd_strike k = { 0 };
		unsigned long long g;
		unsigned id, lid, ep;
		int n = 0;

		line++;
		if (end)
			goto bad;
		if (line == 1) {
			if (strcmp(buf, HEADER))
				goto bad;
		} else if (sscanf(buf, "epoch %u%n", &ep, &n) == 1 && !buf[n]) {
			update_resume(&t, ep);
		} else if (sscanf(buf, "session %u %llx %u %d %d %d %c", &id,
				  &g, &lid, &s.misses[0], &s.misses[1],
				  &s.inherited, &tail) == 6) {
			s.id = id;
			s.guid = g;
			s.lid = (uint16_t)lid;
			if (!id || lid > 0xBFFF || t.nsub >= cap ||
			    !in_range(s.misses[0], 100) ||
			    !in_range(s.misses[1], 100) ||
			    !in_range(s.inherited, 1) || update_restore(&t, &s))
				goto bad;
		} else if (sscanf(buf, "strike %llx %d %d %c", &g, &k.misses[0],
				  &k.misses[1], &tail) == 3) {
			k.guid = g;
			if (t.nstrike >= cap || !in_range(k.misses[0], 100) ||
			    !in_range(k.misses[1], 100) ||
			    update_restore_strike(&t, &k))
				goto bad;
		} else if (!strcmp(buf, "end")) {
			end = 1;
		} else {
			goto bad;
		}
	}
	if (r < 0) {
		line++;
		goto bad;
	}
	if (!end) {
		snprintf(err, errlen, "line %d: the file ends before \"end\"",
			 line + 1);
		goto fail;
	}
	*u = t;
	return 0;
bad:
	snprintf(
		err, errlen,
		"line %d: expected \"%s\", then \"epoch E\", \"session ID GUID LID N N 0|1\", \"strike GUID N N\" and \"end\"",
		line, HEADER);
fail:
	free(t.sub);
	free(t.strike);
	return -1;
}
