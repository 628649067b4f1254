/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * osmre jobwatch: keeps sar's job file current from Slurm.  Reads the
 * running jobs (squeue), keeps those spanning at least --min-switches leaf
 * switches, and only when that set changed rewrites the job file
 * atomically and sends SIGUSR2 to OpenSM.
 *
 * The job file is replaced by rename(2) of a complete, fsync'ed temporary
 * file of the same directory, under an exclusive flock(2) of
 * "<job file>.lock"; readers take a shared flock of the same lock file
 * (or simply rely on the rename).  One jobwatch at a time: an exclusive,
 * non-blocking flock of "<job file>.jobwatch".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "infile.h"
#include "jobwatch.h"
#include "netfile.h"
#include "opensm_proc.h"
#include "osmre.h"

static void jobwatch_usage(FILE *out)
{
	fprintf(out,
		"usage: osmre jobwatch --topo F.net --job-file J [--pidfile P | --pid P | --unit U | --auto]\n"
		"                      (--once | --interval S)\n"
		"  -t, --topo FILE         topology: net file or ibnetdiscover output\n"
		"  -J, --job-file FILE     sar's job file to keep current\n"
		"  -p, --pidfile FILE      the OpenSM to signal (SIGUSR2): its pid file\n"
		"      --pid P             ... its process ID\n"
		"      --unit U            ... the MainPID of systemd unit U (e.g.\n"
		"                          opensm@0x0002c903000e0b72.service)\n"
		"      --auto              ... the one running opensm with the plugin\n"
		"                          (the default: as osmre reroute --auto)\n"
		"      --once              one pass (timers, cron)\n"
		"      --interval S        a pass every S seconds (daemon)\n"
		"      --min-switches N    keep jobs on at least N leaf switches (default 2)\n"
		"      --squeue CMD        the squeue command (default squeue); its output:\n"
		"                          JOBID|NODELIST lines\n"
		"      --squeue-timeout S  squeue must finish within S seconds (default 30)\n"
		"      --lock-timeout S    wait at most S seconds for the job file's lock\n"
		"                          (default 10)\n"
		"The job file's directory must not be writable by group or others\n"
		"(default place: /run/osmre/).\n");
}

struct jw_args {
	const char *topo, *jobfile, *pidfile, *squeue, *unit;
	long pid; /* --pid; 0 with no pidfile: --auto */
	int once, interval, min_switches, squeue_timeout, lock_timeout;
};


/*
 * The job file's directory must be one where nobody else can plant a
 * file or a symlink: a directory, owned by us or root, not writable by
 * group or others (not /dev/shm or /tmp).
 */
static int check_dir(const char *jobfile, struct osmre_err *err)
{
	char *dup = strdup(jobfile);
	const char *dir;
	struct stat st;
	int rc = 0;

	if (!dup)
		return osmre_fail(err, "out of memory");
	dir = dirname(dup);
	if (stat(dir, &st))
		rc = osmre_fail(err, "%s: %s", dir, strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		rc = osmre_fail(err, "%s: not a directory", dir);
	else if (st.st_mode & (S_IWGRP | S_IWOTH))
		rc = osmre_fail(
			err,
			"%s: writable by %s (mode %04o): refusing to keep the job file and its locks there; use a directory only root can write, such as /run/osmre",
			dir, st.st_mode & S_IWOTH ? "others" : "its group",
			(unsigned)(st.st_mode & 07777));
	else if (st.st_uid != geteuid() && st.st_uid != 0)
		rc = osmre_fail(
			err,
			"%s: owned by uid %u, neither root nor us: refusing",
			dir, (unsigned)st.st_uid);
	free(dup);
	return rc;
}

/* Opens (creating, mode 0600) a lock file, never through a symlink. */
static int open_lock(const char *path, struct osmre_err *err)
{
	struct stat st;
	int fd = open(path,
		      O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK,
		      0600);

	if (fd < 0)
		return osmre_fail(err, "%s: %s%s", path, strerror(errno),
				  errno == ELOOP ? " (a symlink: refused)" :
						   "");
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
	    (st.st_uid != geteuid() && st.st_uid != 0)) {
		close(fd);
		return osmre_fail(err, "%s: not a plain file of ours: refused",
				  path);
	}
	if (st.st_mode & 077)
		fchmod(fd, 0600); /* nobody else may hold it */
	return fd;
}

/* flock(fd, op) within timeout seconds; 0, or -1 with why in err. */
static int lock_within(int fd, int op, int timeout, const char *path,
		       struct osmre_err *err)
{
	double until = clock_mono() + timeout;

	for (;;) {
		if (!flock(fd, op | LOCK_NB))
			return 0;
		if (errno != EWOULDBLOCK && errno != EINTR)
			return osmre_fail(err, "%s: %s", path, strerror(errno));
		if (clock_mono() >= until)
			return osmre_fail(
				err,
				"%s: held by another process for more than %d s",
				path, timeout);
		usleep(20000);
	}
}

/*
 * Runs CMD -h -t R -o '%i|%N' (through /bin/sh) in its own process group;
 * its whole output, or NULL.  It must finish within timeout seconds and
 * print at most INFILE_JOBS_SIZE bytes, or it is killed.
 */
static char *run_squeue(const char *cmd, int timeout, struct osmre_err *err)
{
	char *full = NULL, *buf = NULL;
	size_t len = 0, cap = 0;
	double until = clock_mono() + timeout;
	int pfd[2], st = 0, killed = 0;
	pid_t pid;

	if (asprintf(&full, "%s -h -t R -o '%%i|%%N'", cmd) < 0) {
		osmre_fail(err, "out of memory");
		return NULL;
	}
	if (pipe2(pfd, O_CLOEXEC)) {
		osmre_fail(err, "pipe: %s", strerror(errno));
		free(full);
		return NULL;
	}
	pid = fork();
	if (pid < 0) {
		osmre_fail(err, "fork: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		free(full);
		return NULL;
	}
	if (!pid) {
		setpgid(0, 0);
		dup2(pfd[1], 1);
		execl("/bin/sh", "sh", "-c", full, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);
	close(pfd[1]);
	for (;;) {
		struct pollfd pf = { .fd = pfd[0], .events = POLLIN };
		double left = until - clock_mono();
		ssize_t n;

		if (left <= 0) {
			killed = 1;
			osmre_fail(err, "%s did not finish within %d s: killed",
				   full, timeout);
			break;
		}
		if (poll(&pf, 1, (int)(left * 1000) + 1) <= 0)
			continue;
		if (len + 4096 + 1 > cap) {
			char *nb;

			if (len >= (size_t)INFILE_JOBS_SIZE) {
				killed = 1;
				osmre_fail(
					err,
					"%s printed more than %lld bytes: killed",
					full, (long long)INFILE_JOBS_SIZE);
				break;
			}
			nb = realloc(buf, cap = cap ? cap * 2 : 65536);
			if (!nb) {
				killed = 1;
				osmre_fail(err, "out of memory");
				break;
			}
			buf = nb;
		}
		n = read(pfd[0], buf + len, 4096);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(pfd[0]);
	if (killed)
		kill(-pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (killed) {
		free(buf);
		buf = NULL;
	} else if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		osmre_fail(err, "%s failed (%s %d)%s", full,
			   WIFEXITED(st) ? "exit status" : "signal",
			   WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st),
			   WIFEXITED(st) && WEXITSTATUS(st) == 127 ?
				   ": command not found" :
				   "");
		free(buf);
		buf = NULL;
	} else if (!buf && !(buf = malloc(1))) {
		osmre_fail(err, "out of memory");
	} else {
		buf[len] = '\0';
	}
	free(full);
	return buf;
}

/* Writes text as path atomically, under the writers' lock. */
static int write_atomic(const char *path, const char *text, int timeout,
			struct osmre_err *err)
{
	char *tmp = NULL, *lock = NULL, *dup = NULL;
	int fd = -1, lfd = -1, dfd, rc = -1;
	size_t len = strlen(text), off = 0;

	if (asprintf(&tmp, "%s.XXXXXX", path) < 0 ||
	    asprintf(&lock, "%s.lock", path) < 0 || !(dup = strdup(path))) {
		osmre_fail(err, "out of memory");
		goto out;
	}
	lfd = open_lock(lock, err);
	if (lfd < 0 || lock_within(lfd, LOCK_EX, timeout, lock, err))
		goto out;
	fd = mkstemp(tmp);
	if (fd < 0) {
		osmre_fail(err, "%s: %s", tmp, strerror(errno));
		goto out;
	}
	while (off < len) {
		ssize_t n = write(fd, text + off, len - off);

		if (n < 0) {
			osmre_fail(err, "%s: %s", tmp, strerror(errno));
			unlink(tmp);
			goto out;
		}
		off += (size_t)n;
	}
	if (fchmod(fd, 0644) || fsync(fd) || rename(tmp, path)) {
		osmre_fail(err, "%s: %s", path, strerror(errno));
		unlink(tmp);
		goto out;
	}
	dfd = open(dirname(dup), O_RDONLY | O_DIRECTORY);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	if (lfd >= 0)
		close(lfd); /* releases the lock */
	free(tmp);
	free(lock);
	free(dup);
	return rc;
}

/* One pass: 0 no change, 1 written and signalled, -1 error. */
static int one_pass(const struct jw_args *a, const struct fabric *f)
{
	struct jw_list now = { 0 }, old = { 0 };
	struct osmre_err err;
	char *out = NULL,
	     *text = run_squeue(a->squeue, a->squeue_timeout, &err);
	pid_t pid;
	int rc = -1, bad_old = 0;

	if (!text || jw_from_squeue(text, f, a->min_switches, &now, &err))
		goto fail;
	if (jw_read_file(a->jobfile, &old, &err)) {
		/* not a job set: replaced like any other */
		fprintf(stderr, "osmre jobwatch: %s; writing it anew\n",
			err.msg);
		bad_old = 1;
	}
	if (now.unknown)
		fprintf(stderr,
			"osmre jobwatch: %d host(s) not in %s, first \"%s\"\n",
			now.unknown, a->topo, now.first_unknown);
	if (!bad_old && jw_same(&now, &old)) {
		rc = 0;
		goto out;
	}
	/* check OpenSM before touching the file: nothing half done */
	pid = opensm_target(a->pid, a->pidfile, a->unit, &err);
	if (!pid) {
		fprintf(stderr,
			"osmre jobwatch: %s; not signalled, %s unchanged\n",
			err.msg, a->jobfile);
		goto out;
	}
	out = jw_format(&now);
	if (!out) {
		osmre_fail(&err, "out of memory");
		goto fail;
	}
	if (write_atomic(a->jobfile, out, a->lock_timeout, &err))
		goto fail;
	if (kill(pid, SIGUSR2)) {
		osmre_fail(&err, "SIGUSR2 to %ld: %s", (long)pid,
			   strerror(errno));
		goto fail;
	}
	printf("osmre jobwatch: %d jobs on %d hosts (%d on fewer than %d leaf switches left out): %s rewritten, opensm %ld signalled\n",
	       now.jobs, now.n, now.dropped, a->min_switches, a->jobfile,
	       (long)pid);
	fflush(stdout);
	rc = 1;
	goto out;
fail:
	fprintf(stderr, "osmre jobwatch: %s\n", err.msg);
out:
	free(text);
	free(out);
	jw_free(&now);
	jw_free(&old);
	return rc;
}

int cmd_jobwatch(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "topo", required_argument, NULL, 't' },
		{ "job-file", required_argument, NULL, 'J' },
		{ "pidfile", required_argument, NULL, 'p' },
		{ "pid", required_argument, NULL, 'P' },
		{ "auto", no_argument, NULL, 'A' },
		{ "unit", required_argument, NULL, 'U' },
		{ "once", no_argument, NULL, 'o' },
		{ "interval", required_argument, NULL, 'i' },
		{ "min-switches", required_argument, NULL, 'm' },
		{ "squeue", required_argument, NULL, 's' },
		{ "squeue-timeout", required_argument, NULL, 'T' },
		{ "lock-timeout", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct jw_args a = { .squeue = "squeue",
			     .min_switches = 2,
			     .squeue_timeout = 30,
			     .lock_timeout = 10 };
	struct osmre_err err;
	struct fabric *f = NULL;
	char *self = NULL;
	int c, lfd = -1, ways = 0, rc = EXIT_USAGE;

	while ((c = getopt_long(argc, argv, "t:J:p:h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			a.topo = optarg;
			break;
		case 'J':
			a.jobfile = optarg;
			break;
		case 'p':
			a.pidfile = optarg;
			ways++;
			break;
		case 'P':
			a.pid = tool_number("--pid", optarg, 0x7fffffffL);
			ways++;
			break;
		case 'A':
			ways++;
			break;
		case 'U':
			a.unit = optarg;
			ways++;
			break;
		case 'o':
			a.once = 1;
			break;
		case 'i':
			a.interval =
				(int)tool_number("--interval", optarg, 86400);
			break;
		case 'm':
			a.min_switches = (int)tool_number("--min-switches",
							  optarg, 100000);
			break;
		case 's':
			a.squeue = optarg;
			break;
		case 'T':
			a.squeue_timeout = (int)tool_number("--squeue-timeout",
							    optarg, 86400);
			break;
		case 'L':
			a.lock_timeout = (int)tool_number("--lock-timeout",
							  optarg, 86400);
			break;
		case 'h':
			jobwatch_usage(stdout);
			return 0;
		default:
			jobwatch_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (!a.topo || !a.jobfile || ways > 1 || optind != argc ||
	    a.once == (a.interval > 0)) {
		fprintf(stderr,
			"osmre jobwatch: --topo, --job-file, at most one of --pidfile, --pid, --unit, --auto, and one of --once or --interval are required\n");
		jobwatch_usage(stderr);
		return EXIT_USAGE;
	}
	if (netfile_read(a.topo, &f, &err)) {
		fprintf(stderr, "osmre jobwatch: %s\n", err.msg);
		return EXIT_USAGE;
	}
	rc = EXIT_INVALID;
	if (check_dir(a.jobfile, &err)) {
		fprintf(stderr, "osmre jobwatch: %s\n", err.msg);
		goto out;
	}
	if (asprintf(&self, "%s.jobwatch", a.jobfile) < 0)
		goto out;
	lfd = open_lock(self, &err);
	if (lfd < 0) {
		fprintf(stderr, "osmre jobwatch: %s\n", err.msg);
		goto out;
	}
	if (flock(lfd, LOCK_EX | LOCK_NB)) {
		fprintf(stderr, "osmre jobwatch: %s: %s\n", self,
			errno == EWOULDBLOCK ? "another jobwatch is running" :
					       strerror(errno));
		goto out;
	}
	do {
		int r = one_pass(&a, f);

		if (a.once) {
			rc = r < 0 ? EXIT_INVALID : 0;
			break;
		}
		sleep((unsigned)a.interval); /* errors are retried */
	} while (1);
out:
	if (lfd >= 0)
		close(lfd);
	free(self);
	fabric_free(f);
	return rc;
}
