/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mcjoin PORT_GUID [MGID]: joins this port (as a full member) to a
 * multicast group through the SA, as IPoIB does; by default the IPoIB
 * broadcast group ff12:401b:ffff::ffff:ffff that OpenSM creates.  Run
 * under umad2sim on ibsim.  Exit 0 when the SA accepted the join.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/mad.h>

#define MCM_MGID       (1ULL << 0)
#define MCM_PORT_GID   (1ULL << 1)
#define MCM_JOIN_STATE (1ULL << 16)

int main(int argc, char **argv)
{
	int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS, IB_SA_CLASS };
	uint8_t mgid[16], gid[16], buf[IB_SA_DATA_SIZE];
	const char *mgid_s = argc > 2 ? argv[2] : "ff12:401b:ffff::ffff:ffff";
	struct ibmad_port *port;
	ib_portid_t sm = { 0 };
	ib_sa_call_t sa = { 0 };
	uint64_t guid, prefix = 0xfe80000000000000ULL;
	int i;

	if (argc < 2 || sscanf(argv[1], "%" SCNx64, &guid) != 1 ||
	    inet_pton(AF_INET6, mgid_s, mgid) != 1) {
		fprintf(stderr, "usage: mcjoin PORT_GUID [MGID]\n");
		return 2;
	}
	for (i = 0; i < 8; i++) {
		gid[i] = (uint8_t)(prefix >> (56 - 8 * i));
		gid[8 + i] = (uint8_t)(guid >> (56 - 8 * i));
	}
	port = mad_rpc_open_port(NULL, 0, classes, 3);
	if (!port) {
		fprintf(stderr, "mcjoin: cannot open the port\n");
		return 1;
	}
	if (ib_resolve_smlid_via(&sm, 5000, port) < 0) {
		fprintf(stderr, "mcjoin: no SM LID\n");
		return 1;
	}
	memset(buf, 0, sizeof(buf));
	mad_set_array(buf, 0, IB_SA_MCM_MGID_F, mgid);
	mad_set_array(buf, 0, IB_SA_MCM_PORTGID_F, gid);
	mad_set_field(buf, 0, IB_SA_MCM_JOIN_STATE_F, 1);
	sa.attrid = IB_SA_ATTR_MCRECORD;
	sa.method = IB_MAD_METHOD_SET;
	sa.mask = MCM_MGID | MCM_PORT_GID | MCM_JOIN_STATE;
	if (!sa_rpc_call(port, buf, &sm, &sa, 5000)) {
		fprintf(stderr, "mcjoin: the SA refused the join\n");
		return 1;
	}
	printf("joined %s mlid 0x%x\n", mgid_s,
	       mad_get_field(buf, 0, IB_SA_MCM_MLID_F));
	mad_rpc_close_port(port);
	return 0;
}
