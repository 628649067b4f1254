/* SPDX-License-Identifier: BSD-2-Clause */
#define _GNU_SOURCE
#include <ctype.h>
#include <getopt.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <opensm/osm_version.h>

#include "opensm_proc.h"
#include "osmre.h"

/* The command name of pid into comm; -1 when not running. */
static int comm_of(long pid, char *comm, size_t sz)
{
	char path[64];
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	fp = fopen(path, "r");
	if (!fp)
		return -1;
	if (!fgets(comm, (int)sz, fp)) {
		fclose(fp);
		return -1;
	}
	fclose(fp);
	comm[strcspn(comm, "\n")] = '\0';
	return 0;
}

/* 1 when pid has a handler for SIGUSR2 (SigCgt). */
static int catches_usr2(long pid)
{
	char path[64], line[256];
	unsigned long long mask = 0;
	int found = 0;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%ld/status", pid);
	fp = fopen(path, "r");
	if (!fp)
		return 0;
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "SigCgt: %llx", &mask) == 1) {
			found = 1;
			break;
		}
	fclose(fp);
	return found && (mask >> (SIGUSR2 - 1) & 1);
}

/* 1 when libosmre.so is mapped into pid (0 too when maps is unreadable). */
static int maps_plugin(long pid)
{
	char path[64], line[4096];
	int found = 0;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%ld/maps", pid);
	fp = fopen(path, "r");
	if (!fp)
		return 0;
	while (!found && fgets(line, sizeof(line), fp))
		found = strstr(line, "/libosmre.so") != NULL;
	fclose(fp);
	return found;
}

/*
 * The "OpenSM x.y.z" version string in pid's executable into out ("" when
 * none is found): OpenSM loads an event plugin only when it is the
 * OSM_VERSION the plugin was built for.
 */
static void exe_version(long pid, char *out, size_t size)
{
	char path[64], buf[65536 + 32];
	size_t n, keep = 0, i;
	FILE *fp;

	out[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%ld/exe", pid);
	fp = fopen(path, "rb");
	if (!fp)
		return;
	while ((n = fread(buf + keep, 1, sizeof(buf) - 32 - keep, fp)) > 0) {
		n += keep;
		for (i = 0; i + 10 < n; i++) {
			size_t k = 7;

			if (memcmp(buf + i, "OpenSM ", 7) || buf[i + 7] < '0' ||
			    buf[i + 7] > '9')
				continue;
			while (i + k < n && k < 31 &&
			       ((buf[i + k] >= '0' && buf[i + k] <= '9') ||
				buf[i + k] == '.'))
				k++;
			snprintf(out, size, "%.*s", (int)k, buf + i);
			fclose(fp);
			return;
		}
		/* a string cut at the buffer's end: its start again */
		keep = n < 32 ? n : 32;
		memmove(buf, buf + n - keep, keep);
	}
	fclose(fp);
}

int opensm_check(long pid, struct osmre_err *err)
{
	char comm[64], ver[40];

	if (pid <= 0 || comm_of(pid, comm, sizeof(comm)))
		return osmre_fail(err, "process %ld is not running", pid);
	if (strcmp(comm, "opensm"))
		return osmre_fail(err, "process %ld is \"%s\", not opensm", pid,
				  comm);
	exe_version(pid, ver, sizeof(ver));
	if (!catches_usr2(pid) && ver[0] && strcmp(ver, OSM_VERSION))
		return osmre_fail(
			err,
			"opensm %ld is %s, the osmre plugin was built for %s: OpenSM does not load it (\"OpenSM version mismatch\" in its log) and routes with its own engines; rebuild or reinstall osmre for it",
			pid, ver, OSM_VERSION);
	if (!catches_usr2(pid))
		return osmre_fail(
			err,
			"opensm %ld does not catch SIGUSR2: the osmre plugin is not loaded%s (event_plugin_name osmre in opensm.conf, and the plugin in OpenSM's library path?), and SIGUSR2 would kill it",
			pid,
			maps_plugin(pid) ?
				" (libosmre.so is mapped, but no handler)" :
				"");
	if (!maps_plugin(pid))
		return osmre_fail(
			err,
			"opensm %ld catches SIGUSR2 but has no libosmre.so mapped (/proc/%ld/maps): not the osmre plugin's handler",
			pid, pid);
	return 0;
}

/* The real user ID of pid, or -1. */
static long uid_of(long pid)
{
	char path[64], line[256];
	long uid = -1;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%ld/status", pid);
	fp = fopen(path, "r");
	if (!fp)
		return -1;
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "Uid: %ld", &uid) == 1)
			break;
	fclose(fp);
	return uid;
}

pid_t opensm_from_pidfile(const char *pidfile, struct osmre_err *err)
{
	FILE *fp = fopen(pidfile, "r");
	long pid = 0;

	if (!fp) {
		osmre_fail(err, "%s: %s", pidfile, strerror(errno));
		return 0;
	}
	if (fscanf(fp, "%ld", &pid) != 1 || pid <= 0) {
		fclose(fp);
		osmre_fail(err, "%s: no process ID in it", pidfile);
		return 0;
	}
	fclose(fp);
	if (opensm_check(pid, err)) {
		char msg[sizeof(err->msg)];
		char comm[64];

		/* a pid that runs nothing: the file outlived its process */
		snprintf(msg, sizeof(msg), "%s", err->msg);
		osmre_fail(err, "%s: %s%s", pidfile,
			   comm_of(pid, comm, sizeof(comm)) ? "stale: " : "",
			   msg);
		return 0;
	}
	return (pid_t)pid;
}

pid_t opensm_auto(struct osmre_err *err)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	long found = 0, bare = 0, n = 0;
	char list[256] = "";

	if (!d) {
		osmre_fail(err, "/proc: %s", strerror(errno));
		return 0;
	}
	while ((e = readdir(d))) {
		char comm[64];
		long pid;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		pid = strtol(e->d_name, NULL, 10);
		if (comm_of(pid, comm, sizeof(comm)) || strcmp(comm, "opensm"))
			continue;
		/* root looks only at root's processes: a user's process
		 * named opensm (with any library called libosmre.so) is
		 * neither signalled nor counted */
		if (geteuid() == 0 && uid_of(pid) != 0)
			continue;
		if (!catches_usr2(pid) || !maps_plugin(pid)) {
			bare = pid;
			continue;
		}
		n++;
		found = pid;
		if (strlen(list) + 24 < sizeof(list))
			snprintf(list + strlen(list),
				 sizeof(list) - strlen(list), "%s%ld",
				 list[0] ? ", " : "", pid);
	}
	closedir(d);
	if (n == 1)
		return (pid_t)found;
	if (n > 1)
		osmre_fail(
			err,
			"%ld opensm processes with the plugin (%s): name one with --pid or --pidfile",
			n, list);
	else if (bare)
		osmre_fail(
			err,
			"opensm %ld does not catch SIGUSR2 with libosmre.so mapped: the osmre plugin is not loaded, and SIGUSR2 would kill it",
			bare);
	else
		osmre_fail(err, "no opensm process is running");
	return 0;
}

pid_t opensm_from_unit(const char *unit, struct osmre_err *err)
{
	char buf[64] = "";
	int fd[2], st = 0;
	ssize_t n = 0;
	long pid;
	pid_t c;
	size_t i;

	for (i = 0; unit[i]; i++)
		if (!isalnum((unsigned char)unit[i]) &&
		    !strchr("@._:-", unit[i])) {
			osmre_fail(err, "--unit: \"%.64s\" is not a unit name",
				   unit);
			return 0;
		}
	if (!i || i > 255 || pipe(fd)) {
		osmre_fail(err, "--unit: \"%.64s\" is not a unit name", unit);
		return 0;
	}
	c = fork();
	if (c == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execlp("systemctl", "systemctl", "show", "-p", "MainPID",
		       "--value", unit, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	if (c > 0) {
		/* systemctl waits on D-Bus: 10 s at most, then it is killed */
		struct pollfd pf = { .fd = fd[0], .events = POLLIN };

		if (poll(&pf, 1, 10000) == 1)
			n = read(fd[0], buf, sizeof(buf) - 1);
		else
			kill(c, SIGKILL);
	}
	close(fd[0]);
	if (c < 0 || waitpid(c, &st, 0) < 0 || !WIFEXITED(st) ||
	    WEXITSTATUS(st) || n <= 0) {
		osmre_fail(err, "--unit %s: systemctl show -p MainPID failed%s",
			   unit,
			   c > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 127 ?
				   " (no systemctl)" :
				   "");
		return 0;
	}
	buf[n] = '\0';
	pid = strtol(buf, NULL, 10);
	if (pid <= 0) {
		osmre_fail(err, "--unit %s: not running (MainPID 0)", unit);
		return 0;
	}
	if (opensm_check(pid, err)) {
		osmre_prefix(err, "--unit %s", unit);
		return 0;
	}
	return (pid_t)pid;
}

pid_t opensm_target(long pid, const char *pidfile, const char *unit,
		    struct osmre_err *err)
{
	if (unit)
		return opensm_from_unit(unit, err);
	if (pidfile)
		return opensm_from_pidfile(pidfile, err);
	if (pid)
		return opensm_check(pid, err) ? 0 : (pid_t)pid;
	return opensm_auto(err);
}

int opensm_args(int argc, char **argv, const char *cmd,
		void (*usage)(FILE *out), FILE *why, pid_t *pid)
{
	static const struct option opts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "pidfile", required_argument, NULL, 'f' },
		{ "auto", no_argument, NULL, 'a' },
		{ "unit", required_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *pidfile = NULL, *unit = NULL;
	struct osmre_err err;
	long p = 0;
	int c, ways = 0;

	*pid = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			p = tool_number("--pid", optarg, 0x7fffffffL);
			ways++;
			break;
		case 'f':
			pidfile = optarg;
			ways++;
			break;
		case 'a':
			ways++;
			break;
		case 'u':
			unit = optarg;
			ways++;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc || ways > 1) {
		fprintf(stderr,
			"osmre %s: one of --pid, --pidfile, --unit, --auto, no other argument\n",
			cmd);
		return EXIT_USAGE;
	}
	*pid = opensm_target(p, pidfile, unit, &err);
	if (!*pid) {
		/* (status only reads: it never signals) */
		fprintf(why, "osmre %s: %s%s\n", cmd, err.msg,
			strcmp(cmd, "status") ? "; not signalled" : "");
		return EXIT_INVALID;
	}
	return 0;
}
