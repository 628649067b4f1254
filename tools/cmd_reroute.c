/* SPDX-License-Identifier: BSD-2-Clause */
/* osmre reroute [--pid P | --pidfile F | --unit U | --auto]: SIGUSR2 to an OpenSM
 * that loaded the plugin (opensm_proc.h), never to one that would die of
 * it. */
#define _GNU_SOURCE
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opensm_proc.h"
#include "osmre.h"
#include "status_file.h"

static void reroute_usage(FILE *out)
{
	fprintf(out,
		"usage: osmre reroute [--pid P | --pidfile F | --unit U | --auto]\n"
		"  asks OpenSM with the osmre plugin to re-route (SIGUSR2); refuses\n"
		"  (exit 1) a process that is not opensm, does not catch SIGUSR2 or\n"
		"  has no libosmre.so mapped (no plugin: the signal would kill it),\n"
		"  and one whose plugin says its SM is standby (only the master routes)\n"
		"      --pid P       that process\n"
		"      --pidfile F   the process whose ID F holds\n"
		"      --unit U      the MainPID of systemd unit U (opensm@GUID.service)\n"
		"      --auto        the one running opensm with the plugin (default;\n"
		"                    several: refused, naming them; as root, only\n"
		"                    root's processes count)\n");
}

/* 1 (said) when pid's plugin says its SM is not master: only the master
 * routes, a standby's re-route would come when it takes over. */
static int standby(pid_t pid)
{
	char path[4200], state[64], master[64], *text;
	struct osmre_err err;
	int no = 0;

	text = status_file_read((long)pid, path, sizeof(path), &err);
	if (!text)
		return 0; /* (no pass yet: OpenSM decides) */
	if (status_field(text, "sm_state", state, sizeof(state)) &&
	    strcmp(state, "master")) {
		fprintf(stderr,
			"osmre reroute: opensm %ld is %s, not master%s%s%s: not signalled (re-route on the master)\n",
			(long)pid, state,
			status_field(text, "master_guid", master,
				     sizeof(master)) ?
				" (the master's port: " :
				"",
			status_field(text, "master_guid", master,
				     sizeof(master)) ?
				master :
				"",
			status_field(text, "master_guid", master,
				     sizeof(master)) ?
				")" :
				"");
		no = 1;
	}
	free(text);
	return no;
}

int cmd_reroute(int argc, char **argv)
{
	pid_t pid;
	int rc =
		opensm_args(argc, argv, "reroute", reroute_usage, stderr, &pid);

	if (rc || !pid)
		return rc;
	if (standby(pid))
		return EXIT_INVALID;
	if (kill((pid_t)pid, SIGUSR2)) {
		perror("osmre reroute: kill");
		return EXIT_INVALID;
	}
	printf("osmre reroute: opensm %ld signalled (SIGUSR2: a re-route)\n",
	       (long)pid);
	return 0;
}
