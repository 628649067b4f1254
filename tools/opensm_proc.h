/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Finding the OpenSM to signal.  SIGUSR2 re-routes an OpenSM that loaded
 * the osmre plugin (its handler); without the plugin, SIGUSR2's default
 * action kills OpenSM.  So a process is signalled only when its command
 * name is "opensm", the kernel shows a SIGUSR2 handler (/proc/PID/status
 * SigCgt) and libosmre.so is mapped (/proc/PID/maps).  Run as root, the
 * automatic lookup considers root's processes only.  Used by osmre
 * reroute and osmre jobwatch.
 */
#ifndef OSMRE_OPENSM_PROC_H
#define OSMRE_OPENSM_PROC_H

#include <stdio.h>
#include <sys/types.h>

#include "error.h"

/* 0 when pid is an opensm that catches SIGUSR2; else -1, the reason in
 * err (not running, another program, no handler: plugin not loaded). */
int opensm_check(long pid, struct osmre_err *err);
/* The PID in pidfile, checked as above; 0 with err otherwise. */
pid_t opensm_from_pidfile(const char *pidfile, struct osmre_err *err);
/* The one running opensm that passes opensm_check (scanning /proc; as
 * root, among root's processes); 0 with err when none, or when several
 * (named). */
pid_t opensm_auto(struct osmre_err *err);

/* The MainPID of systemd unit (systemctl show; a unit name of letters,
 * digits and "@._:-" only), checked as above; 0 with err. */
pid_t opensm_from_unit(const char *unit, struct osmre_err *err);
/* The opensm to signal: unit's when not NULL, else pidfile's, else pid
 * when > 0, else opensm_auto's; 0 with err. */
pid_t opensm_target(long pid, const char *pidfile, const char *unit,
		    struct osmre_err *err);

/*
 * The options of reroute and status: [--pid P | --pidfile F | --unit U |
 * --auto]
 * (--help: usage(stdout)).  0 with *pid the opensm to act on, or 0 with
 * *pid 0 after --help; else the exit status (usage errors on stderr, a
 * refused target's reason on why).
 */
int opensm_args(int argc, char **argv, const char *cmd,
		void (*usage)(FILE *out), FILE *why, pid_t *pid);

#endif
