/* SPDX-License-Identifier: BSD-2-Clause */
/* osmre roles: what dmodc and pqft take each node of a fat tree for
 * (roles.h), and the GUID files of OpenSM's ftree and updn written from
 * it (cn_guid_file, root_guid_file, io_guid_file) */
#define _GNU_SOURCE
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guidlist.h"
#include "osmre.h"
#include "roles.h"

static void roles_usage(FILE *out)
{
	fprintf(out,
		"usage: osmre roles --topo F.net [options]\n"
		"  the roles dmodc and pqft find in a fat tree (osmre.conf(5), TOPOLOGY\n"
		"  ROLES): compute CAs, other CAs (aggregation nodes, storage, gateways),\n"
		"  leaves, edge switches, stray cables; one summary line, then with\n"
		"  --list one line per node\n"
		"  -t, --topo FILE       topology (ibnetdiscover / ibsim net file)\n"
		"      --list            every node: its role, rank and GUID\n"
		"      --cn-guids F, --root-guids F, --io-guids F\n"
		"                        the administrator's files, as the plugin reads them\n"
		"      --write-cn F      the compute CAs' port GUIDs (cn_guid_file)\n"
		"      --write-roots F   the top switches' GUIDs (root_guid_file)\n"
		"      --write-io F      the other CAs' port GUIDs (io_guid_file)\n"
		"      --node-name-map F nodes named by GUID (infiniband-diags format)\n");
}

static const char *const role_names[] = {
	"none", "compute", "other-ca", "leaf", "switch", "edge-switch",
};
static const char *const why_names[] = {
	"",
	" (io_guid_file)",
	" (not in cn_guid_file)",
	" (aggregation node)",
	" (not on a leaf)",
};

/* Writes the GUIDs of the nodes with role want (CA port GUIDs, or the
 * top switches' GUIDs for ROLE_SWITCH): 0, or -1 (printed). */
static int write_guids(const char *path, const struct fabric *f,
		       const struct roles *r, int want)
{
	FILE *fp = fopen(path, "w");
	int i, p;

	if (!fp) {
		perror(path);
		return -1;
	}
	for (i = 0; i < f->nnodes; i++) {
		const struct fab_node *n = &f->nodes[i];

		if (n->removed)
			continue;
		if (want == ROLE_SWITCH) {
			if (fab_is_switch(n) && r->rank[i] == r->maxrank &&
			    r->role[i] != ROLE_NONE)
				fprintf(fp, "0x%016" PRIx64 "\n", n->guid);
			continue;
		}
		if (r->role[i] != want)
			continue;
		for (p = 1; p <= n->nports; p++)
			if (n->ports[p].rnode >= 0)
				fprintf(fp, "0x%016" PRIx64 "\n",
					n->ports[p].guid);
	}
	if (fclose(fp)) {
		fprintf(stderr, "osmre roles: %s: write error\n", path);
		return -1;
	}
	return 0;
}

int cmd_roles(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "topo", required_argument, NULL, 't' },
		{ "list", no_argument, NULL, 'L' },
		{ "cn-guids", required_argument, NULL, 'C' },
		{ "root-guids", required_argument, NULL, 'R' },
		{ "io-guids", required_argument, NULL, 'I' },
		{ "write-cn", required_argument, NULL, 'c' },
		{ "write-roots", required_argument, NULL, 'r' },
		{ "write-io", required_argument, NULL, 'i' },
		{ "node-name-map", required_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *topo = NULL, *cnf = NULL, *rootf = NULL, *iof = NULL;
	const char *wcn = NULL, *wroots = NULL, *wio = NULL;
	struct tool_roles t = { 0 };
	struct roles_hints h = { &t.cn, &t.roots, &t.io };
	struct roles r;
	struct osmre_err err;
	struct fabric *f;
	char line[512];
	int c, list = 0, rc = EXIT_USAGE, i;

	while ((c = getopt_long(argc, argv, "t:h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			topo = optarg;
			break;
		case 'L':
			list = 1;
			break;
		case 'C':
			cnf = optarg;
			break;
		case 'R':
			rootf = optarg;
			break;
		case 'I':
			iof = optarg;
			break;
		case 'c':
			wcn = optarg;
			break;
		case 'r':
			wroots = optarg;
			break;
		case 'i':
			wio = optarg;
			break;
		case 'N':
			tool_node_name_map(optarg);
			break;
		case 'h':
			roles_usage(stdout);
			return 0;
		default:
			roles_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (!topo || optind != argc) {
		fprintf(stderr, "osmre roles: --topo is required\n");
		roles_usage(stderr);
		return EXIT_USAGE;
	}
	f = tool_load_topo(topo, 0);
	if (!f)
		return EXIT_USAGE;
	if (tool_roles_read(cnf, rootf, iof, &t, &err) ||
	    roles_compute(f, &h, &r, &err)) {
		fprintf(stderr, "osmre roles: %s\n", err.msg);
		goto out;
	}
	roles_summary(&r, line, sizeof(line));
	printf("%s: %s; %d rank(s) above the leaves%s\n", topo, line, r.maxrank,
	       r.plain ? "; a plain tree" : "");
	for (i = 0; list && i < f->nnodes; i++) {
		const struct fab_node *n = &f->nodes[i];

		if (n->removed)
			continue;
		printf("%-12s", role_names[r.role[i]]);
		if (fab_is_switch(n) && r.rank[i] != ROLES_NO_RANK)
			printf(" rank %2d", r.rank[i]);
		else
			printf("        ");
		printf(" 0x%016" PRIx64 " \"%s\"%s\n", n->guid, n->name,
		       why_names[r.why[i]]);
	}
	rc = 0;
	if ((wcn && write_guids(wcn, f, &r, ROLE_COMPUTE)) ||
	    (wroots && write_guids(wroots, f, &r, ROLE_SWITCH)) ||
	    (wio && write_guids(wio, f, &r, ROLE_OTHER_CA)))
		rc = EXIT_USAGE;
	roles_free(&r);
out:
	tool_roles_free(&t);
	fabric_free(f);
	return rc;
}
