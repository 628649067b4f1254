/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A topology and LFTs from one file each, or from one file per plane:
 * `--topo` and `--lfts` repeated for a fabric with one OpenSM per plane.
 *
 * Each plane's OpenSM numbers its own LIDs from 1, so the planes' dumps
 * overlap.  They are re-based into one LID space (lftdump_read_planes():
 * the second dump's LIDs follow the first one's highest, and so on) and
 * matched to the topology by port GUID, so that every analysis sees the
 * tables of one subnet, as those `osmre route` writes for a multi-plane
 * fabric: a plane's switches forward only its own LIDs, and the
 * per-plane and cross-plane figures follow from the switch graph's
 * components as they do offline.  One ibnetdiscover file per plane
 * (each from that plane's HCA) makes one fabric by node GUID
 * (fabric_merge()).
 */
#include <stdio.h>
#include <string.h>

#include "lft.h"
#include "lids.h"
#include "osmre.h"
#include "planes.h"

int tool_load_planes(const char *cmd, const struct tool_files *topo,
		     const struct tool_files *lfts, int lmc, struct fabric **f,
		     struct lft_set *s)
{
	struct fabric *parts[TOOL_MAX_FILES] = { 0 };
	struct osmre_err err;
	int k, rc = -1, named;

	if (topo->n == 1 && lfts->n == 1)
		return tool_load_tables(cmd, topo->path[0], lfts->path[0], lmc,
					f, s);
	*f = NULL;
	memset(s, 0, sizeof(*s));
	for (k = 0; k < topo->n; k++)
		if (!(parts[k] = tool_load_topo(topo->path[k], lmc)))
			goto out;
	if (topo->n == 1) {
		*f = parts[0];
		parts[0] = NULL;
	} else if (fabric_merge((const struct fabric *const *)parts, topo->path,
				topo->n, f, &err)) {
		fprintf(stderr, "osmre %s: %s\n", cmd, err.msg);
		goto out;
	}
	if (lftdump_read_planes(lfts->path, lfts->n, s, &err) ||
	    lft_set_bind(s, *f, &err)) {
		fprintf(stderr, "osmre %s: %s\n", cmd, err.msg);
		goto out;
	}
	named = lft_set_import_lids(s, *f, &err);
	/* a single dump that names no GUID, over merged topologies: its
	 * LIDs are offline ones, in the merged fabric's order */
	if (named < 0 || (!named && lids_assign(*f, lmc, &err))) {
		fprintf(stderr, "osmre %s: %s: %s\n", cmd, lfts->path[0],
			err.msg);
		goto out;
	}
	rc = 0;
out:
	for (k = 0; k < topo->n; k++)
		fabric_free(parts[k]);
	if (rc) {
		lft_set_free(s);
		fabric_free(*f);
		*f = NULL;
	}
	return rc;
}

int tool_files_add(struct tool_files *l, const char *opt, const char *path)
{
	if (l->n == TOOL_MAX_FILES) {
		fprintf(stderr,
			"osmre %s: %s: at most %d files (one per plane), got more\n",
			tool_cmd, opt, TOOL_MAX_FILES);
		return -1;
	}
	l->path[l->n++] = path;
	return 0;
}
