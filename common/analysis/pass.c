/* SPDX-License-Identifier: BSD-2-Clause */
/* One routing pass in one order (pass.h). */
#include <stdio.h>

#include "clock.h"
#include "pass.h"
#include "passcheck.h"

int pass_run(const struct engine *e, const struct engine_opts *o,
	     const struct fabric *f, int deadlock_check, struct route_result *r,
	     engine_say say, void *arg, int *why, struct osmre_err *err)
{
	struct cdg_result c;
	char line[256];
	double t0;

	*why = PASS_OK;
	if (engine_route(e, o, f, r, err)) {
		if (e->refused)
			e->refused(o, r, err);
		*why = PASS_REFUSED;
		return -1;
	}
	line[0] = '\0';
	if (deadlock_check) {
		t0 = clock_mono();
		if (pass_deadlock_check(f, r, o->escape_vl, &c, err)) {
			*why = PASS_CYCLE;
			return -1;
		}
		pass_deadlock_line(line, sizeof(line), &c,
				   (clock_mono() - t0) * 1e3);
		cdg_result_free(&c);
	}
	engine_report(e, o, r, say, arg);
	if (line[0])
		say(arg, "%s: %s", e->name, line);
	return 0;
}
