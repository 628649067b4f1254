/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The CA ports in dmodc's topological NID order (dmodc_host_order), the
 * order in which the risk measures (risk.h) and sar take shifts, as
 * osmre analyze does by default.
 */
#include <stddef.h>

#include "dmodc.h"

static long nid_of(const void *arg, int node, int port)
{
	return dmodc_nid(arg, node, port);
}

int dmodc_host_order(const struct fabric *f, struct risk_order *o,
		     struct osmre_err *err)
{
	struct dmodc *d = dmodc_new();
	int rc;

	if (d && dmodc_nids(d, f, NULL)) {
		dmodc_free(d);
		d = NULL; /* not a fat tree dmodc can rank: GUIDs */
	}
	rc = risk_order_by(f, d ? nid_of : NULL, d, o, err);
	dmodc_free(d);
	return rc;
}
