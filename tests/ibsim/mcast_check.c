/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mcast_check TOPO MFT_DUMP MLID PORT_GUID...: checks the multicast
 * forwarding tables of one MLID, as `dump_fts -M` reads them back from a
 * fabric, against the topology (a net file or ibnetdiscover output):
 *  - every member's leaf switch forwards the MLID to the member's port;
 *  - the switch-to-switch ports of the MLID form a tree: every such port is
 *    used in both directions, the tree has no cycle, and it joins the
 *    switches of all members.
 * Prints what is wrong; exit 0 when the tree is right.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netfile.h"

/* mft[node][port]: the MLID goes out of that port */
static char **read_mft(const char *path, const struct fabric *f,
		       const struct guid_map *gm, unsigned mlid)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL, *ports = NULL, **mft;
	size_t sz = 0;
	int sw = -1, i;

	mft = calloc((size_t)f->nnodes, sizeof(*mft));
	if (!fp || !mft)
		exit(2);
	for (i = 0; i < f->nnodes; i++)
		mft[i] = calloc((size_t)f->nodes[i].nports + 1, 1);
	while (getline(&line, &sz, fp) >= 0) {
		char *g = strstr(line, " guid 0x");

		if (!strncmp(line, "Multicast mlids", 15) && g) {
			const struct guid_ent *e =
				guid_map_find(gm, strtoull(g + 8, NULL, 16));

			sw = e ? e->node : -1;
			continue;
		}
		if (strstr(line, "Ports:")) {
			free(ports);
			ports = strdup(line); /* column of each port */
			continue;
		}
		if (sw >= 0 && ports && !strncmp(line, "0x", 2) &&
		    strtoul(line, NULL, 16) == mlid) {
			/* an 'x' under a port number of the header */
			char *p = strstr(ports, "Ports:") + 6;

			while (*p) {
				char *end;
				long port;

				while (*p == ' ')
					p++;
				port = strtol(p, &end, 10);
				if (end == p)
					break;
				if ((size_t)(p - ports) < strlen(line) &&
				    line[p - ports] == 'x' &&
				    port <= f->nodes[sw].nports)
					mft[sw][port] = 1;
				p = end;
			}
		}
	}
	free(line);
	free(ports);
	fclose(fp);
	return mft;
}

int main(int argc, char **argv)
{
	struct osmre_err err;
	struct fabric *f;
	struct guid_map gm;
	char **mft, *seen;
	int *queue, i, p, bad = 0, head = 0, tail = 0, root = -1, edges = 0;
	unsigned mlid;

	if (argc < 5) {
		fprintf(stderr,
			"usage: mcast_check TOPO MFT_DUMP MLID PORT_GUID...\n");
		return 2;
	}
	if (netfile_read(argv[1], &f, &err) || guid_map_build(f, &gm, &err)) {
		fprintf(stderr, "mcast_check: %s\n", err.msg);
		return 2;
	}
	mlid = (unsigned)strtoul(argv[3], NULL, 0);
	mft = read_mft(argv[2], f, &gm, mlid);
	/* members: their leaf forwards to them */
	for (i = 4; i < argc; i++) {
		const struct guid_ent *e =
			guid_map_find(&gm, strtoull(argv[i], NULL, 16));
		const struct fab_port *pt;

		if (!e || !e->port) {
			printf("member %s: not a CA port of the topology\n",
			       argv[i]);
			bad++;
			continue;
		}
		pt = &f->nodes[e->node].ports[e->port];
		if (pt->rnode < 0 || !mft[pt->rnode][pt->rport]) {
			printf("member %s: its switch does not forward MLID 0x%x to it\n",
			       argv[i], mlid);
			bad++;
		}
		if (pt->rnode >= 0 && root < 0)
			root = pt->rnode;
	}
	/* the switch ports form a tree: symmetric, connected, acyclic */
	for (i = 0; i < f->nnodes; i++) {
		for (p = 1; p <= f->nodes[i].nports; p++) {
			const struct fab_port *pt = &f->nodes[i].ports[p];

			if (!mft[i][p] || pt->rnode < 0 ||
			    f->nodes[pt->rnode].type != FAB_SWITCH)
				continue;
			edges++;
			if (!mft[pt->rnode][pt->rport]) {
				printf("%s[%d] -> %s: not forwarded back\n",
				       f->nodes[i].name, p,
				       f->nodes[pt->rnode].name);
				bad++;
			}
		}
	}
	edges /= 2;
	seen = calloc((size_t)f->nnodes, 1);
	queue = malloc(sizeof(int) * (size_t)f->nnodes);
	if (root >= 0) {
		seen[root] = 1;
		queue[tail++] = root;
	}
	while (head < tail) {
		int u = queue[head++];

		for (p = 1; p <= f->nodes[u].nports; p++) {
			int v = f->nodes[u].ports[p].rnode;

			if (mft[u][p] && v >= 0 &&
			    f->nodes[v].type == FAB_SWITCH && !seen[v]) {
				seen[v] = 1;
				queue[tail++] = v;
			}
		}
	}
	for (i = 4; i < argc; i++) {
		const struct guid_ent *e =
			guid_map_find(&gm, strtoull(argv[i], NULL, 16));
		int sw = e && e->port ? f->nodes[e->node].ports[e->port].rnode :
					-1;

		if (sw >= 0 && !seen[sw]) {
			printf("member %s: its switch %s is not in the tree\n",
			       argv[i], f->nodes[sw].name);
			bad++;
		}
	}
	if (edges != tail - 1) {
		printf("%d switch links for %d switches: not a tree\n", edges,
		       tail);
		bad++;
	}
	printf("MLID 0x%x: %d members, %d switches in the tree, %d links: %s\n",
	       mlid, argc - 4, tail, edges, bad ? "WRONG" : "OK");
	return bad ? 1 : 0;
}
