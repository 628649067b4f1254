/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Finding the OpenSM to signal.  SIGUSR2 re-routes an OpenSM that loaded
 * the osmre plugin (its handler); without the plugin, SIGUSR2's default
 * action kills OpenSM.  So a process is signalled only when its command
 * name is "opensm" and the kernel shows a SIGUSR2 handler
 * (/proc/PID/status SigCgt); messages also say whether libosmre.so is
 * mapped (/proc/PID/maps).  Used by osmre reroute and osmre jobwatch.
 */
#ifndef OSMRE_OPENSM_PROC_H
#define OSMRE_OPENSM_PROC_H

#include <sys/types.h>

#include "error.h"

/* 0 when pid is an opensm that catches SIGUSR2; else -1, the reason in
 * err (not running, another program, no handler: plugin not loaded). */
int opensm_check(long pid, struct osmre_err *err);
/* The PID in pidfile, checked as above; 0 with err otherwise. */
pid_t opensm_from_pidfile(const char *pidfile, struct osmre_err *err);
/* The one running opensm that catches SIGUSR2 (scanning /proc); 0 with
 * err when none, or when several (named). */
pid_t opensm_auto(struct osmre_err *err);

#endif
