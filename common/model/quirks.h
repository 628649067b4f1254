/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What real fat trees have and generated ones do not (`osmre degrade
 * --with`), added to any fabric, the places drawn from a seed:
 *  aggregation  a one-port CA "Mellanox Technologies Aggregation Node"
 *               on a new (internal) port of every switch (SHARP);
 *  storage      two one-port HCAs "storage-K" on new ports of each top
 *               switch;
 *  gateway      one one-port HCA "gateway-K" on a new port of a random
 *               switch that is neither a leaf nor a top switch (or of a
 *               top switch in a 2-level tree);
 *  edge         an 8-port switch "edge-K" with four hosts "edge-K-hJ",
 *               cabled to a new port of a random leaf;
 *  dual         a host of one leaf merged with a host of another: the
 *               first host's HCA gets a port cabled where the second
 *               host was (that host's node removed);
 *  stray-leaf   a cable between new ports of two random leaves;
 *  stray-spine  a cable between new ports of two random top switches;
 *  hostless     every host of a random leaf removed.
 * Leaves and tops are read off the fabric as given (ranks.h).  New CA
 * GUIDs from 0x6A0000, switch GUIDs from 0x6B0000.
 */
#ifndef OSMRE_QUIRKS_H
#define OSMRE_QUIRKS_H

#include "fabric.h"
#include "rng.h"

/* Adds the quirks named in list (comma-separated, above; leaves and tops
 * read once, before the first); 0, or -1 with err (an unknown name, a
 * fabric without the leaves or tops a quirk needs, no memory). */
int quirks_add(struct fabric *f, const char *list, struct rng *r,
	       struct osmre_err *err);

/* The names, for usage texts: "aggregation, storage, ...". */
const char *quirks_names(void);

#endif
