/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ibnetdiscover / ibsim net files.
 *
 * GUIDs follow ibsim's rule exactly: counters in file order, CAs from
 * 0x100000 (node GUID, port p GUID = node GUID + p, nports + 1 GUIDs
 * reserved per CA), switches from 0x200000 (one GUID each), routers from
 * 0; "switchguid=", "caguid="/"hcaguids=", "rtguid=" lines set the counter
 * ('=' absolute, '+' offset from the last absolute value).  LIDs given in the
 * file ("lid N" / "lmc M" in a switch header, "# lid N lmc M" on a CA port
 * line, as ibnetdiscover writes them) are kept; otherwise LIDs are 0.
 *
 * Every link must be listed on both ends and the two ends must agree.
 */
#ifndef OSMRE_NETFILE_H
#define OSMRE_NETFILE_H

#include <stdio.h>

#include "fabric.h"

int netfile_read(const char *path, struct fabric **out, struct osmre_err *err);
int netfile_read_stream(FILE *fp, const char *name, struct fabric **out,
			struct osmre_err *err);

/*
 * Writes records in node order, a blank line after each, and GUID counter
 * lines only where a GUID differs from what ibsim's counter would give, so
 * that ibsim and netfile_read() see the same GUIDs.  Removed nodes are
 * skipped.  Returns 0, or -1 on a write error.
 */
int netfile_write(FILE *fp, const struct fabric *f);

#endif
