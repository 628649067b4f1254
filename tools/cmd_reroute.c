/* SPDX-License-Identifier: BSD-2-Clause */
/* osmre reroute [--pid P | --pidfile F | --auto]: SIGUSR2 to an OpenSM
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

static void reroute_usage(FILE *out)
{
	fprintf(out,
		"usage: osmre reroute [--pid P | --pidfile F | --auto]\n"
		"  asks OpenSM with the osmre plugin to re-route (SIGUSR2); refuses\n"
		"  (exit 1) a process that is not opensm, does not catch SIGUSR2 or\n"
		"  has no libosmre.so mapped (no plugin: the signal would kill it)\n"
		"      --pid P       that process\n"
		"      --pidfile F   the process whose ID F holds\n"
		"      --auto        the one running opensm with the plugin (default;\n"
		"                    several: refused, naming them; as root, only\n"
		"                    root's processes count)\n");
}

int cmd_reroute(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "pidfile", required_argument, NULL, 'f' },
		{ "auto", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *pidfile = NULL;
	long pid = 0;
	int c, ways = 0;
	struct osmre_err err;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			pid = tool_number("--pid", optarg, 0x7fffffffL);
			ways++;
			break;
		case 'f':
			pidfile = optarg;
			ways++;
			break;
		case 'a':
			ways++;
			break;
		case 'h':
			reroute_usage(stdout);
			return 0;
		default:
			reroute_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc || ways > 1) {
		fprintf(stderr,
			"osmre reroute: one of --pid, --pidfile, --auto, no other argument\n");
		return EXIT_USAGE;
	}
	pid = opensm_target(pid, pidfile, &err);
	if (!pid) {
		fprintf(stderr, "osmre reroute: %s\n", err.msg);
		return EXIT_INVALID;
	}
	if (kill((pid_t)pid, SIGUSR2)) {
		perror("osmre reroute: kill");
		return EXIT_INVALID;
	}
	printf("osmre reroute: opensm %ld signalled (SIGUSR2: a re-route)\n",
	       pid);
	return 0;
}
