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

#endif
