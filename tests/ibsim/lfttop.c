/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lfttop DUMP: dump_fts's output (the file DUMP) again on stdout, with
 * the entry of each switch's top LID added where dump_fts leaves it out.
 *
 * infiniband-diags 44 (dump_fts, dump_lfts, ibroute) reads the LFT
 * blocks below ALIGN(top, 64) / 64, top the switch's LinearFDBTop: when
 * top is a multiple of 64 the block that holds LID top, the highest LID
 * OpenSM assigned, is never read, and that port looks unrouted (osmre
 * analyze: "no LID").  For each switch section whose range ends there
 * ("Unicast lids [0x0-0xTOP] of switch DR path slid 0; dlid 0; P,...
 * guid G (name):", TOP a multiple of 64), this reads block TOP / 64 over
 * the section's directed route and, when the switch routes TOP, adds
 * "0xTOP PPP : (TYPE portguid 0x...: 'desc')" after the section's last
 * entry, the destination named as dump_fts names it, by LID-routed
 * NodeInfo and NodeDescription queries to TOP; the count line follows.
 * Run under umad2sim on ibsim (or as root on a fabric).  Exit 0; 1 when
 * a query failed (the dump is still written, that entry left out); 2 on
 * usage.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/mad.h>

/* The destination of LID top as dump_fts describes it, into d (n
 * bytes); 0, or -1 when a query failed. */
static int describe(struct ibmad_port *port, unsigned top, char *d, size_t n)
{
	uint8_t ni[IB_SMP_DATA_SIZE] = { 0 }, nd[IB_SMP_DATA_SIZE] = { 0 };
	char type[64], guid[64];
	ib_portid_t dst = { 0 };
	unsigned t = 0;
	uint64_t g = 0;
	size_t i;

	ib_portid_set(&dst, (int)top, 0, 0);
	if (!smp_query_via(ni, &dst, IB_ATTR_NODE_INFO, 0, 0, port) ||
	    !smp_query_via(nd, &dst, IB_ATTR_NODE_DESC, 0, 0, port))
		return -1;
	mad_decode_field(ni, IB_NODE_TYPE_F, &t);
	mad_decode_field(ni, IB_NODE_PORT_GUID_F, &g);
	mad_dump_val(IB_NODE_TYPE_F, type, sizeof(type), &t);
	mad_dump_val(IB_NODE_PORT_GUID_F, guid, sizeof(guid), &g);
	nd[IB_SMP_DATA_SIZE - 1] = 0;
	for (i = 0; nd[i]; i++) /* as clean_nodedesc: printable only */
		if (nd[i] < 32 || nd[i] > 126)
			nd[i] = ' ';
	snprintf(d, n, "(%s portguid %s: '%s')", type, guid, (char *)nd);
	return 0;
}

/* The port switch `path` (a directed route "0,P,...") forwards lid on:
 * 0..254, 255 none, -1 when the query failed. */
static int lft_port(struct ibmad_port *port, const char *path, unsigned lid)
{
	uint8_t blk[IB_SMP_DATA_SIZE] = { 0 };
	ib_portid_t sw = { 0 };

	ib_portid_set(&sw, 0, 0, 0);
	if (str2drpath(&sw.drpath, (char *)path, 0, 0) < 0 ||
	    !smp_query_via(blk, &sw, IB_ATTR_LINEARFORWTBL, lid / 64, 0, port))
		return -1;
	return blk[lid % 64];
}

int main(int argc, char **argv)
{
	int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS };
	struct ibmad_port *port = NULL;
	char line[1024], path[256], desc[256] = "";
	unsigned top = 0, desc_top = 0; /* desc names LID desc_top */
	int want = 0, rc = 0, p;
	FILE *fp;

	if (argc != 2 || !(fp = fopen(argv[1], "r"))) {
		fprintf(stderr, "usage: lfttop DUMP (dump_fts's output)\n");
		return 2;
	}
	while (fgets(line, sizeof(line), fp)) {
		unsigned lo, hi, n;

		if (!strncmp(line, "Unicast lids [", 14)) {
			/* (a section without a directed route: left as is) */
			want = sscanf(line,
				      "Unicast lids [0x%x-0x%x] of switch DR path slid %*d; dlid %*d; %255s",
				      &lo, &hi, path) == 3 &&
			       hi > 0 && hi % 64 == 0;
			top = want ? hi : 0;
		} else if (want && strstr(line, " valid lids dumped") &&
			   sscanf(line, "%u", &n) == 1) {
			want = 0;
			if (!port &&
			    !(port = mad_rpc_open_port(NULL, 0, classes, 2))) {
				fprintf(stderr,
					"lfttop: cannot open the port\n");
				fclose(fp);
				return 1;
			}
			if (desc_top != top &&
			    describe(port, top, desc, sizeof(desc)) == 0)
				desc_top = top;
			p = lft_port(port, path, top);
			if (p < 0 || desc_top != top) {
				fprintf(stderr,
					"lfttop: switch at %s: LID 0x%x not read\n",
					path, top);
				rc = 1;
			} else if (p != 255) {
				printf("0x%04x %03d : %s\n", top, p, desc);
				n++;
			}
			printf("%u valid lids dumped \n", n);
			continue;
		}
		fputs(line, stdout);
	}
	fclose(fp);
	if (port)
		mad_rpc_close_port(port);
	return rc;
}
