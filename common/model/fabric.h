/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The fabric model shared by every engine and tool: nodes (switches, channel
 * adapters, routers), their physical ports, the links between ports, GUIDs,
 * LIDs and node descriptions.  Nothing here knows about OpenSM.
 *
 * Invariants:
 *  - nodes[i].ports has nports + 1 entries; entry 0 is a switch's management
 *    port (it carries the switch's GUID and LID) and is unused on CAs.
 *  - a link is stored on both ends: ports[p].rnode/rport on one node point
 *    at the other end, which points back.
 *  - a removed node (degradation) keeps its slot so that indices stay stable;
 *    it has no links and writers skip it.
 */
#ifndef OSMRE_FABRIC_H
#define OSMRE_FABRIC_H

#include <stdint.h>
#include <stddef.h>

#include "error.h"

enum fab_node_type {
	FAB_CA = 1, /* values match IB NodeInfo.NodeType */
	FAB_SWITCH = 2,
	FAB_ROUTER = 3,
};

#define FAB_MAX_PORTS	  254 /* IB switches have at most 254 ports */
#define FAB_MAX_UCAST_LID 0xBFFF

struct fab_port {
	uint64_t guid;
	int32_t rnode; /* remote node index, -1 when unconnected */
	uint8_t rport; /* remote port number */
	uint8_t lmc;
	uint16_t lid; /* base LID, 0 when none */
};

struct fab_node {
	int type;
	int nports; /* physical ports, numbered 1..nports */
	int removed;
	uint64_t guid;
	char *name;		/* the net file's node id */
	char *desc;		/* NodeDescription */
	struct fab_port *ports; /* nports + 1 entries */
};

struct fabric {
	struct fab_node *nodes;
	int nnodes;
	int cap;
	/* name -> node index, open addressing, size a power of two */
	int32_t *hash;
	size_t hash_size;
};

struct fabric *fabric_new(void);
void fabric_free(struct fabric *f);

/* Adds a node; returns its index or -1 (duplicate name, no memory). */
int fabric_add_node(struct fabric *f, int type, const char *name,
		    const char *desc, int nports, uint64_t guid,
		    struct osmre_err *err);
int fabric_find(const struct fabric *f, const char *name);
/*
 * New names for nodes (names[n] NULL: n keeps its own), e.g. from a node
 * name map; names key fabric_find and name nodes in messages (NodeDescs
 * stay).  All or nothing: -1 with err, every name as it was, when two
 * nodes would share a name or out of memory.
 */
int fabric_rename(struct fabric *f, const char *const *names,
		  struct osmre_err *err);
/* One more physical port on node n (unconnected, its GUID by the node's
 * rule); its number, or -1 with err (254 ports already, no memory). */
int fabric_add_port(struct fabric *f, int n, struct osmre_err *err);
/* A CA (not removed) by host name: the first word of its NodeDescription,
 * or its net-file name; -1 when none. */
int fabric_find_host(const struct fabric *f, const char *name);

/* Connects a[ap] <-> b[bp]; both ports must be free. */
int fabric_link(struct fabric *f, int a, int ap, int b, int bp,
		struct osmre_err *err);
void fabric_unlink(struct fabric *f, int a, int ap);
/* Removes every link of node n and marks it removed. */
void fabric_remove_node(struct fabric *f, int n);

/*
 * A 64-bit FNV-1a hash of what routing depends on: nodes (type, GUID,
 * ports), links and LIDs.  Equal fabrics, built in the same order, hash
 * the same; the update protocol tells a topology change by it.
 */
uint64_t fabric_signature(const struct fabric *f);

/* A deep copy (names, ports, LIDs), or NULL when out of memory. */
struct fabric *fabric_clone(const struct fabric *f);
/* The same, node k of the copy being node order[k] of f (order: a
 * permutation of 0..nnodes-1); NULL when out of memory. */
struct fabric *fabric_reorder(const struct fabric *f, const int *order);

static inline int fab_is_switch(const struct fab_node *n)
{
	return n->type == FAB_SWITCH;
}

/* Port GUID of port p of node n (switch ports share the node GUID). */
static inline uint64_t fab_port_guid(const struct fab_node *n, int p)
{
	return n->type == FAB_SWITCH ? n->guid : n->ports[p].guid;
}

/* The LID-bearing port of a switch is 0; of a CA, each connected port. */
const char *fab_type_name(int type);

struct fab_counts {
	int switches, cas, routers;
	int ca_ports; /* CA ports with a link */
	int sw_links; /* switch-to-switch links */
	int ca_links; /* switch-to-CA links */
};
void fabric_count(const struct fabric *f, struct fab_counts *c);

/*
 * GUID lookup: node GUIDs and port GUIDs, sorted for binary search.  A CA's
 * node GUID maps to port 0; a switch's GUID to port 0 as well.
 */
struct guid_ent {
	uint64_t guid;
	int32_t node;
	int32_t port;
};
struct guid_map {
	size_t n;
	struct guid_ent *e;
};
int guid_map_build(const struct fabric *f, struct guid_map *m,
		   struct osmre_err *err);
const struct guid_ent *guid_map_find(const struct guid_map *m, uint64_t guid);
void guid_map_free(struct guid_map *m);

#endif
