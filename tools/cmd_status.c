/* SPDX-License-Identifier: BSD-2-Clause */
/* osmre status [--pid P | --pidfile F | --unit U | --auto]: is the plugin in a
 * running opensm, and what did its last pass do */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "opensm_proc.h"
#include "status_file.h"
#include "osmre.h"


static void status_usage(FILE *out)
{
	fprintf(out,
		"usage: osmre status [--pid P | --pidfile F | --unit U | --auto]\n"
		"  whether a running opensm has the osmre plugin, and its last\n"
		"  routing pass (engine, result, when), from <OSM_CACHE_DIR>/osmre.status\n"
		"      --pid P       that process\n"
		"      --pidfile F   the process whose ID F holds\n"
		"      --unit U      the MainPID of systemd unit U (opensm@GUID.service)\n"
		"      --auto        the one running opensm (default)\n");
}

int cmd_status(int argc, char **argv)
{
	char path[4200], v[8][512], *text;
	struct osmre_err err;
	struct stat st;
	pid_t p;
	long pid, fpid;
	int rc = opensm_args(argc, argv, "status", status_usage, stdout, &p);

	if (rc || !p)
		return rc;
	pid = (long)p;
	text = status_file_read(pid, path, sizeof(path), &err);
	if (!text) {
		printf("opensm %ld: osmre plugin loaded; no pass recorded yet (%s)\n",
		       pid, err.msg);
		return 0;
	}
	fpid = status_field(text, "pid", v[0], sizeof(v[0])) ? atol(v[0]) : 0;
	if (fpid != pid) {
		printf("opensm %ld: osmre plugin loaded; %s is another process's (pid %ld): no pass of this one recorded yet\n",
		       pid, path, fpid);
		free(text);
		return 0;
	}
	v[3][0] = '\0';
	printf("opensm %ld: osmre %s plugin loaded, ", pid,
	       status_field(text, "version", v[1], sizeof(v[1])) ? v[1] : "?");
	/* (the plugin names the file it looked for, there or not) */
	if (!status_field(text, "options", v[2], sizeof(v[2])))
		printf("options file ?\n");
	else if (stat(v[2], &st) && errno == ENOENT)
		printf("no options file (%s absent): the defaults\n", v[2]);
	else
		printf("options from %s\n", v[2]);
	if (status_field(text, "pass", v[3], sizeof(v[3])) &&
	    !strcmp(v[3], "0"))
		printf("no routing pass yet");
	else
		printf("last pass (#%s): %s %s", v[3],
		       status_field(text, "engine", v[4], sizeof(v[4])) ? v[4] :
									  "?",
		       status_field(text, "result", v[5], sizeof(v[5])) ? v[5] :
									  "?");
	if (status_field(text, "switches", v[6], sizeof(v[6])) &&
	    atol(v[6]) > 0)
		printf(" %s switches", v[6]);
	if (strcmp(v[3], "0") &&
	    status_field(text, "seconds", v[6], sizeof(v[6])))
		printf(" in %s s", v[6]);
	if (status_field(text, "time", v[7], sizeof(v[7]))) {
		printf(" at %s", v[7]);
		if (status_field(text, "epoch", v[6], sizeof(v[6])))
			printf(" (%lld s ago)",
			       (long long)time(NULL) - atoll(v[6]));
	}
	putchar('\n');
	if (status_field(text, "message", v[6], sizeof(v[6])) && v[6][0])
		printf("  %s\n", v[6]);
	if (status_field(text, "in_force", v[6], sizeof(v[6])) && v[6][0])
		printf("tables in force: by %s\n", v[6]);
	if (status_field(text, "sm_state", v[6], sizeof(v[6]))) {
		printf("SM state: %s", v[6]);
		if (strcmp(v[6], "master") &&
		    status_field(text, "master_guid", v[7], sizeof(v[7])))
			printf(" (master: port %s)", v[7]);
		if (status_field(text, "routed_here", v[7], sizeof(v[7])))
			printf("; the tables in force %s routed by this SM",
			       atoi(v[7]) ? "were" : "were not");
		putchar('\n');
	}
	printf("status file %s\n", path);
	free(text);
	return 0;
}
