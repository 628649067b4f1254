/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Multi-plane (multi-rail) fabrics from a single-plane one (papers 002
 * and 004): P identical switch planes, every host one node with a port in
 * each.  Plane k's switches are the plane's switches named "P<k>_<name>"
 * with GUID + (k << 24); a host whose cabled ports are 1..c in the single
 * plane has ports k*c + 1 .. k*c + c cabled to plane k (at least 2 ports
 * in all, as a single-rail PGFT host), and GUID 0x100000 + i * (ports +
 * 1) for the i-th host.  Names, GUIDs and ports of plane 0 follow the
 * same rule, so dumps of different planes never collide.
 */
#ifndef OSMRE_PLANES_H
#define OSMRE_PLANES_H

#include "fabric.h"

/* *out: the P-plane fabric (P >= 2) of one; -1 with err (too many host
 * ports, a host with uncabled ports between cabled ones, no memory). */
int fabric_planes(const struct fabric *one, int planes, struct fabric **out,
		  struct osmre_err *err);

/*
 * An attach point for one subnet manager per plane, where a management
 * node takes a compute host's place: the last host of the first plane's
 * last leaf switch (node order) is removed, and every connected part of
 * the switch graph that holds hosts (a plane) gets a single-port HCA
 * "SM_<switch>" (GUID 0x5A0000 + 2 * its number, in plane order) on the
 * port that host left in it (a new port of the plane's last leaf when
 * that host had none there).  Every leaf keeps its number of CAs, so a
 * PGFT stays regular (dmodc's shifts stay contention-free).  ibsim
 * clients bind to a node (umad2sim's SIM_HOST), and a single port leaves
 * no doubt which plane an OpenSM there manages.  The count added, or -1
 * with err (a leaf with 254 ports, no memory).
 */
int fabric_sm_hcas(struct fabric *f, struct osmre_err *err);

/*
 * The planes of f: the switch components (comp from switch_components)
 * that hold a CA port, numbered 0.. in the order the CAs' ports (node
 * order, then port order) meet them.  plane_no[] (f->nnodes entries):
 * at a component's id its plane number, -1 elsewhere.  Returns the
 * number of planes.
 */
int fabric_plane_numbers(const struct fabric *f, const int *comp,
			 int *plane_no);

/*
 * Plane c of f alone, for an engine that routes one plane at a time: a
 * copy in which the switches of other components are removed, CA ports
 * linked elsewhere are unlinked and CAs with no port left in c are
 * removed.  Node indices, GUIDs and LIDs stay those of f, so tables
 * computed on the view are f's tables for the plane's switches.  NULL
 * with err when out of memory.
 */
struct fabric *fabric_plane_view(const struct fabric *f, const int *comp, int c,
				 struct osmre_err *err);

/*
 * One fabric from topologies of parts of it, e.g. one ibnetdiscover file
 * per plane, each from that plane's subnet manager: nodes are the same
 * node when their node GUIDs are (a host seen from every plane, each time
 * with its ports of that plane cabled), with the most ports any part
 * gives them; cables are the union of the parts' cables (a port cabled
 * to two different ports is an error).  Nodes keep the first part's name
 * and come in the order the parts meet them.  No port keeps a LID: each
 * part's LIDs may be its own subnet's.  names[k] names part k in
 * messages.  0, or -1 with err.
 */
int fabric_merge(const struct fabric *const *parts, const char *const *names,
		 int nparts, struct fabric **out, struct osmre_err *err);

#endif
