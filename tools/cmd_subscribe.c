/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * osmre subscribe: a subscriber of the update protocol from the command
 * line (libosmre-client).  Runs --on-unpath before the base-LID tables
 * change and --on-repath after, acking each phase when its command exits
 * 0 and NACKing it otherwise (the SM then goes on without this client).
 * The commands run under /bin/sh with OSMRE_EPOCH, OSMRE_PHASE (unpath,
 * repath), OSMRE_LID, OSMRE_ESCAPE_LID and OSMRE_SESSION (the session id)
 * set.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "osmre-client.h"
#include "clock.h"
#include "infile.h"
#include "osmre.h"
#include "updwire.h"

struct sub_ctx {
	const char *unpath, *repath;
	struct osmre_client *c;
	int quiet;
	long repaths;	 /* repath hooks done */
	long hook_limit; /* ms a hook may run (0: no limit) */
};

static volatile sig_atomic_t stop;
static struct osmre_client *client; /* for on_stop */

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
	osmre_client_cancel(client); /* a WAIT held at the SM ends */
}

static void log_line(void *arg, const char *msg)
{
	struct sub_ctx *x = arg;
	struct timespec ts;

	if (x->quiet)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	printf("%ld.%03ld osmre subscribe: %s\n", (long)ts.tv_sec,
	       ts.tv_nsec / 1000000, msg);
	fflush(stdout);
}

/* Waits for the hook pid (leader of its own process group) into
 * *status: 0; 1 when it ran past x->hook_limit, 2 when osmre subscribe
 * is being stopped: then the whole group is killed (TERM, KILL 1 s
 * later) and reaped. */
static int hook_wait(struct sub_ctx *x, pid_t pid, int *status)
{
	double end = x->hook_limit ? clock_mono() + x->hook_limit / 1e3 : 0;
	double kill_at = 0;
	int why = 0;
	pid_t r;

	for (;;) {
		r = waitpid(pid, status, WNOHANG);
		if (r == pid || (r < 0 && errno != EINTR))
			return why;
		if (!why && (stop || (end && clock_mono() >= end))) {
			why = stop ? 2 : 1;
			kill(-pid, SIGTERM);
			kill_at = clock_mono() + 1.0;
		} else if (kill_at && clock_mono() >= kill_at) {
			kill(-pid, SIGKILL);
			kill_at = 0;
		}
		usleep(10000);
	}
}

static int run_cmd(struct sub_ctx *x, const char *cmd, const char *phase,
		   uint32_t epoch)
{
	char buf[32];
	pid_t pid;
	int status, why;

	if (!cmd)
		return 0;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		setpgid(0, 0); /* the hook and what it starts: one group */
		snprintf(buf, sizeof(buf), "%u", epoch);
		setenv("OSMRE_EPOCH", buf, 1);
		setenv("OSMRE_PHASE", phase, 1);
		snprintf(buf, sizeof(buf), "%u", osmre_client_lid(x->c));
		setenv("OSMRE_LID", buf, 1);
		snprintf(buf, sizeof(buf), "%u", osmre_client_lid(x->c) + 1);
		setenv("OSMRE_ESCAPE_LID", buf, 1);
		snprintf(buf, sizeof(buf), "%u", osmre_client_id(x->c));
		setenv("OSMRE_SESSION", buf, 1);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	why = hook_wait(x, pid, &status);
	if (why) {
		char msg[128];

		if (why == 1)
			snprintf(
				msg, sizeof(msg),
				"epoch %u: %s hook still running after %ld ms (--hook-timeout-ms): killed",
				epoch, phase, x->hook_limit);
		else
			snprintf(msg, sizeof(msg),
				 "epoch %u: %s hook killed: leaving", epoch,
				 phase);
		log_line(x, msg);
		return -1;
	}
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

static int do_unpath(void *arg, uint32_t epoch)
{
	struct sub_ctx *x = arg;

	return run_cmd(x, x->unpath, "unpath", epoch);
}

static int do_repath(void *arg, uint32_t epoch)
{
	struct sub_ctx *x = arg;
	int rc = run_cmd(x, x->repath, "repath", epoch);

	x->repaths += !rc;
	return rc;
}

/* The key on the first line of path: 8 to 32 printable characters
 * without blanks (as osmre.conf's update_key). */
static int read_key(const char *path, char *key, char *err, size_t errlen)
{
	struct osmre_err e;
	FILE *fp = infile_open(path, "key file", 4096, &e);
	char *line = NULL;
	size_t cap = 0, n, i;
	ssize_t got;
	int rc = -1;

	if (!fp) {
		snprintf(err, errlen, "%.200s", e.msg);
		return -1;
	}
	got = infile_getline(&line, &cap, fp, 256, path, 1, &e);
	fclose(fp);
	if (got == -2) {
		snprintf(err, errlen, "%.200s", e.msg);
		goto out;
	}
	n = got > 0 ? strcspn(line, "\r\n") : 0;
	for (i = 0; i < n; i++)
		if (line[i] <= ' ' || line[i] >= 0x7f)
			break;
	if (i < n || n < 8 || n > UPDW_KEY_MAX) {
		snprintf(
			err, errlen,
			"%s:1: expected a key of 8 to %d printable characters without blanks",
			path, UPDW_KEY_MAX);
		goto out;
	}
	memcpy(key, line, n);
	key[n] = '\0';
	rc = 0;
out:
	if (line)
		memset(line, 0, cap);
	free(line);
	return rc;
}

/* How long to sleep before the next step: the poll period, or after
 * FAILS failures in a row (no SM, no port, no answer) 0.1 s doubling to
 * 3.2 s, so that a client of a fabric that is down does not spin. */
static int pause_ms(int poll_ms, int fails)
{
	int back = fails ? 100 << (fails < 6 ? fails - 1 : 5) : 0;

	return back > poll_ms ? back : poll_ms;
}

static void sub_usage(FILE *out)
{
	fprintf(out,
		"usage: osmre subscribe [options]\n"
		"  -C, --ca NAME         the HCA (default: the first with an active port)\n"
		"  -P, --port N          its port (default: the first active one)\n"
		"      --on-unpath CMD   run before the base-LID tables change; ack on exit 0,\n"
		"                        NACK otherwise\n"
		"      --on-repath CMD   run after they changed; ack on exit 0, NACK otherwise\n"
		"      --class C         vendor management class, 9..15 (default 9)\n"
		"      --poll-ms N       poll period (default: what the SM asks for)\n"
		"      --timeout-ms N    wait for each answer (default 1000)\n"
		"      --count N         exit after N repaths (default: run until killed)\n"
		"      --key-file F      the SM's update_key, on the first line of F\n"
		"      --hook-timeout-ms N  kill a hook still running after N ms and NACK\n"
		"                        (default 300000; 0: no limit)\n"
		"  -q, --quiet           no log lines\n");
}

int cmd_subscribe(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ca", required_argument, NULL, 'C' },
		{ "port", required_argument, NULL, 'P' },
		{ "on-unpath", required_argument, NULL, 'u' },
		{ "on-repath", required_argument, NULL, 'r' },
		{ "class", required_argument, NULL, 'c' },
		{ "poll-ms", required_argument, NULL, 'p' },
		{ "timeout-ms", required_argument, NULL, 't' },
		{ "count", required_argument, NULL, 'n' },
		{ "key-file", required_argument, NULL, 'k' },
		{ "hook-timeout-ms", required_argument, NULL, 'T' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct osmre_client_opts o = { 0 };
	struct sub_ctx x = { .hook_limit = 300000 };
	struct osmre_client_hooks h = {
		.unpath = do_unpath,
		.repath = do_repath,
		.log = log_line,
		.arg = &x,
	};
	struct sigaction sa;
	long poll_ms = 0, count = 0;
	char err[256], msg[300], key[UPDW_KEY_MAX + 1];
	int c, fails = 0;

	while ((c = getopt_long(argc, argv, "C:P:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'C':
			o.ca = optarg;
			break;
		case 'P':
			o.port = (int)tool_number("--port", optarg, 254);
			break;
		case 'u':
			x.unpath = optarg;
			break;
		case 'r':
			x.repath = optarg;
			break;
		case 'c':
			o.mgmt_class = (int)tool_number("--class", optarg, 15);
			if (o.mgmt_class < 9) {
				fprintf(stderr,
					"osmre subscribe: --class: a vendor class 9..15\n");
				return EXIT_USAGE;
			}
			break;
		case 'p':
			poll_ms = tool_number("--poll-ms", optarg, 60000);
			break;
		case 't':
			o.timeout_ms = (int)tool_number("--timeout-ms", optarg,
							600000);
			break;
		case 'n':
			count = tool_number("--count", optarg, 1L << 30);
			break;
		case 'T':
			x.hook_limit = tool_number("--hook-timeout-ms", optarg,
						   86400000L);
			break;
		case 'q':
			x.quiet = 1;
			break;
		case 'k':
			if (read_key(optarg, key, err, sizeof(err))) {
				fprintf(stderr,
					"osmre subscribe: --key-file: %s\n",
					err);
				return EXIT_USAGE;
			}
			o.key = key;
			break;
		case 'h':
			sub_usage(stdout);
			return 0;
		default:
			sub_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc) {
		sub_usage(stderr);
		return EXIT_USAGE;
	}
	x.c = osmre_client_open(&o, err, sizeof(err));
	if (!x.c) {
		fprintf(stderr, "osmre subscribe: %s\n", err);
		return EXIT_USAGE;
	}
	client = x.c;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	while (!stop && (!count || x.repaths < count)) {
		if (osmre_client_step(x.c, &h)) {
			/* the SM may be restarting: keep trying, say it once */
			if (!fails++) {
				snprintf(msg, sizeof(msg), "%s",
					 osmre_client_error(x.c));
				log_line(&x, msg);
			}
		} else {
			fails = 0;
		}
		usleep((useconds_t)pause_ms(poll_ms ? poll_ms :
						      osmre_client_poll_ms(x.c),
					    fails) *
		       1000);
	}
	log_line(&x, "leaving");
	osmre_client_close(x.c);
	return 0;
}
