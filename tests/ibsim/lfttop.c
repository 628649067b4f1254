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
 * guid G (name):", TOP a multiple of 64) and that lists no entry for
 * TOP, this reads block TOP / 64 over the section's directed route
 * (after checking that the route still leads to switch G) and, when the
 * switch forwards TOP on one of its ports, adds "0xTOP PPP : (TYPE
 * portguid 0x...: 'desc')" after the section's last entry, the
 * destination named as dump_fts names it, by LID-routed NodeInfo and
 * NodeDescription queries to TOP; the count line follows.  Run under
 * umad2sim on ibsim (or as root on a fabric).  Exit 0; 1 when a query
 * failed or a section could not be read (the dump is still written,
 * that entry left out, a line on stderr); 2 on usage.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/mad.h>

/* Directed routes longer than this are refused (the SMP holds 64 hops). */
#define MAX_HOPS 63

/* The destination of LID top as dump_fts describes it, into d (n
 * bytes); 0, or -1 when a query failed. */
static int describe(struct ibmad_port *port, unsigned top, char *d, size_t n)
{
	uint8_t ni[IB_SMP_DATA_SIZE] = { 0 }, nd[IB_SMP_DATA_SIZE + 1] = { 0 };
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
	for (i = 0; nd[i]; i++) /* as clean_nodedesc: printable only */
		if (nd[i] < 32 || nd[i] > 126)
			nd[i] = ' ';
	snprintf(d, n, "(%s portguid %s: '%s')", type, guid, (char *)nd);
	return 0;
}

/*
 * The port switch `path` (a directed route "0,P,...") forwards lid on
 * (255: none), once the route is checked to lead to switch guid: -1
 * when a query failed, -2 when the route is too long or leads elsewhere.
 */
static int lft_port(struct ibmad_port *port, char *path, uint64_t guid,
		    unsigned lid)
{
	uint8_t ni[IB_SMP_DATA_SIZE] = { 0 }, blk[IB_SMP_DATA_SIZE] = { 0 };
	ib_portid_t sw = { 0 };
	uint64_t g = 0;
	unsigned nports = 0;
	int hops = 0;
	const char *c;

	for (c = path; *c; c++)
		hops += *c == ',';
	if (hops > MAX_HOPS)
		return -2;
	ib_portid_set(&sw, 0, 0, 0);
	if (str2drpath(&sw.drpath, path, 0, 0) < 0)
		return -2;
	if (!smp_query_via(ni, &sw, IB_ATTR_NODE_INFO, 0, 0, port))
		return -1;
	mad_decode_field(ni, IB_NODE_GUID_F, &g);
	mad_decode_field(ni, IB_NODE_NPORTS_F, &nports);
	if (g != guid)
		return -2;
	if (!smp_query_via(blk, &sw, IB_ATTR_LINEARFORWTBL, lid / 64, 0, port))
		return -1;
	/* as dump_fts: a port the switch does not have is no entry */
	return blk[lid % 64] > nports ? 255 : blk[lid % 64];
}

int main(int argc, char **argv)
{
	int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS };
	struct ibmad_port *port = NULL;
	char line[1024], path[256], desc[256] = "";
	/* desc names LID desc_top; describing desc_failed failed */
	unsigned top = 0, desc_top = 0, desc_failed = 0;
	int want = 0, listed = 0, noport = 0, rc = 0, p;
	uint64_t guid = 0;
	FILE *fp;

	if (argc != 2 || !(fp = fopen(argv[1], "r"))) {
		fprintf(stderr, "usage: lfttop DUMP (dump_fts's output)\n");
		return 2;
	}
	while (fgets(line, sizeof(line), fp)) {
		unsigned lo = 0, hi = 0, n, lid;

		if (!strncmp(line, "Unicast lids [", 14)) {
			want = sscanf(line,
				      "Unicast lids [0x%x-0x%x] of switch DR path slid %*d; dlid %*d; %255s guid 0x%" SCNx64,
				      &lo, &hi, path, &guid) == 4 &&
			       hi > 0 && hi % 64 == 0;
			if (want && strlen(path) >= sizeof(path) - 1) {
				fprintf(stderr,
					"lfttop: a directed route of 255 characters or more: section left as read\n");
				want = 0;
				rc = 1;
			} else if (!want && hi > 0 && hi % 64 == 0) {
				fprintf(stderr,
					"lfttop: a section without a directed route: left as read\n");
				rc = 1;
			}
			top = want ? hi : 0;
			listed = 0;
		} else if (want && sscanf(line, "0x%x ", &lid) == 1 &&
			   lid == top) {
			listed = 1; /* (an infiniband-diags that reads it) */
		} else if (want && strstr(line, " valid lids dumped") &&
			   sscanf(line, "%u", &n) == 1) {
			want = 0;
			if (listed)
				goto copy;
			if (!port && !noport &&
			    !(port = mad_rpc_open_port(NULL, 0, classes, 2))) {
				fprintf(stderr,
					"lfttop: cannot open the port: the dump left as read\n");
				noport = 1;
				rc = 1;
			}
			if (noport)
				goto copy;
			p = lft_port(port, path, guid, top);
			if (p >= 0 && p != 255 && desc_top != top &&
			    desc_failed != top) {
				if (describe(port, top, desc, sizeof(desc)) ==
				    0)
					desc_top = top;
				else
					desc_failed = top;
			}
			if (p < 0 || (p != 255 && desc_top != top)) {
				fprintf(stderr,
					"lfttop: switch 0x%016" PRIx64
					" at %s: LID 0x%x not read (%s)\n",
					guid, path, top,
					p == -2 ? "not that switch's route" :
						  "a query failed");
				rc = 1;
			} else if (p != 255) {
				printf("0x%04x %03d : %s\n", top, p, desc);
				n++;
			}
			printf("%u valid lids dumped \n", n);
			continue;
		}
copy:
		fputs(line, stdout);
	}
	fclose(fp);
	if (port)
		mad_rpc_close_port(port);
	return rc;
}
