/* SPDX-License-Identifier: BSD-2-Clause */
/* osmre: the command table and main (each command in cmd_NAME.c, the
 * helpers they share in tool_util.c) */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jobs.h"
#include "lft.h"
#include "lids.h"
#include "netfile.h"
#include "clock.h"
#include "nodemap.h"
#include "osmre.h"

/* clang-format off */
static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *what;
} cmds[] = {
	{ "gen", cmd_gen, "write a generated topology (ibsim net file)" },
	{ "degrade", cmd_degrade, "fail random links or switches of a net file" },
	{ "route", cmd_route, "route a topology offline and write its LFTs" },
	{ "check", cmd_check, "walk LFTs and report unreachable pairs, loops, turns" },
	{ "analyze", cmd_analyze, "validity, deadlock freedom, congestion risk of LFTs" },
	{ "roles", cmd_roles, "compute CAs, other CAs, leaves of a fat tree; GUID files" },
	{ "jobwatch", cmd_jobwatch, "keep sar's job file current from Slurm" },
	{ "diff", cmd_diff, "entries and LFT blocks an update from A to B changes" },
	{ "status", cmd_status, "is the plugin in the running opensm, and its last pass" },
	{ "reroute", cmd_reroute, "ask OpenSM with the plugin to re-route (safe SIGUSR2)" },
#ifdef OSMRE_HAVE_CLIENT
	{ "subscribe", cmd_subscribe, "take part in the update protocol (run hooks, ack)" },
#endif
};
/* clang-format on */

static void usage(FILE *out)
{
	size_t i;

	fprintf(out,
		"usage: osmre <command> [options]   (see osmre(1)); osmre [<command>] --version\n");
	int w = 0;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if ((int)strlen(cmds[i].name) > w)
			w = (int)strlen(cmds[i].name);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(out, "  %-*s  %s\n", w, cmds[i].name, cmds[i].what);
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	/* --version or -V, before or after the command */
	for (i = 1; i < (size_t)argc && i < 3; i++)
		if (!strcmp(argv[i], "--version") || !strcmp(argv[i], "-V")) {
			printf("osmre %s\n", PACKAGE_VERSION);
			return 0;
		}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name)) {
			tool_cmd = cmds[i].name;
			return cmds[i].fn(argc - 1, argv + 1);
		}
	fprintf(stderr, "osmre: unknown command \"%s\"\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
