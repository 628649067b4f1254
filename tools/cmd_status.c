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
#include "osmre.h"

#define STATUS_SIZE (64 << 10)

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

/* The value of OSM_CACHE_DIR in pid's environment into out, or OpenSM's
 * default. */
static void cache_dir(long pid, char *out, size_t size)
{
	char path[64], buf[65536];
	size_t n, i;
	FILE *fp;

	snprintf(out, size, "/var/cache/opensm");
	snprintf(path, sizeof(path), "/proc/%ld/environ", pid);
	fp = fopen(path, "r");
	if (!fp)
		return;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	for (i = 0; i < n; i += strlen(buf + i) + 1)
		if (!strncmp(buf + i, "OSM_CACHE_DIR=", 14) && buf[i + 14]) {
			snprintf(out, size, "%s", buf + i + 14);
			return;
		}
}

/* The value of key in the status text, or NULL (points into text). */
static const char *field(char *text, const char *key, char *out, size_t size)
{
	size_t k = strlen(key);
	char *l;

	for (l = text; l && *l;
	     l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, key, k) && l[k] == ' ') {
			size_t len = strcspn(l + k + 1, "\n");

			if (len >= size)
				len = size - 1;
			memcpy(out, l + k + 1, len);
			out[len] = '\0';
			/* (control bytes shown as '?': the file is the
			 * plugin's, but it is read back from disk) */
			for (char *c = out; *c; c++)
				if ((unsigned char)*c < 0x20 || *c == 0x7f)
					*c = '?';
			return out;
		}
	return NULL;
}

/* The status file of pid: read (no link followed, owned by pid's user). */
static char *read_status(long pid, char *path, size_t size,
			 struct osmre_err *err)
{
	char dir[4096], *text;
	struct stat st, ps;
	char proc[64];
	ssize_t n;
	int fd;

	cache_dir(pid, dir, sizeof(dir));
	snprintf(path, size, "%s/osmre.status", dir);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		osmre_fail(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	snprintf(proc, sizeof(proc), "/proc/%ld", pid);
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || stat(proc, &ps) ||
	    st.st_uid != ps.st_uid || st.st_size > STATUS_SIZE) {
		close(fd);
		osmre_fail(
			err,
			"%s: not a regular file of opensm's user, or too long",
			path);
		return NULL;
	}
	text = malloc(STATUS_SIZE + 1);
	if (!text) {
		close(fd);
		osmre_fail(err, "out of memory");
		return NULL;
	}
	n = read(fd, text, STATUS_SIZE);
	close(fd);
	if (n < 0) {
		free(text);
		osmre_fail(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	text[n] = '\0';
	return text;
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
	text = read_status(pid, path, sizeof(path), &err);
	if (!text) {
		printf("opensm %ld: osmre plugin loaded; no pass recorded yet (%s)\n",
		       pid, err.msg);
		return 0;
	}
	fpid = field(text, "pid", v[0], sizeof(v[0])) ? atol(v[0]) : 0;
	if (fpid != pid) {
		printf("opensm %ld: osmre plugin loaded; %s is another process's (pid %ld): no pass of this one recorded yet\n",
		       pid, path, fpid);
		free(text);
		return 0;
	}
	printf("opensm %ld: osmre %s plugin loaded, ", pid,
	       field(text, "version", v[1], sizeof(v[1])) ? v[1] : "?");
	/* (the plugin names the file it looked for, there or not) */
	if (!field(text, "options", v[2], sizeof(v[2])))
		printf("options file ?\n");
	else if (stat(v[2], &st) && errno == ENOENT)
		printf("no options file (%s absent): the defaults\n", v[2]);
	else
		printf("options from %s\n", v[2]);
	printf("last pass (#%s): %s %s",
	       field(text, "pass", v[3], sizeof(v[3])) ? v[3] : "?",
	       field(text, "engine", v[4], sizeof(v[4])) ? v[4] : "?",
	       field(text, "result", v[5], sizeof(v[5])) ? v[5] : "?");
	if (field(text, "switches", v[6], sizeof(v[6])) && atol(v[6]) > 0)
		printf(" %s switches", v[6]);
	if (field(text, "seconds", v[6], sizeof(v[6])))
		printf(" in %s s", v[6]);
	if (field(text, "time", v[7], sizeof(v[7]))) {
		printf(" at %s", v[7]);
		if (field(text, "epoch", v[6], sizeof(v[6])))
			printf(" (%lld s ago)",
			       (long long)time(NULL) - atoll(v[6]));
	}
	putchar('\n');
	if (field(text, "message", v[6], sizeof(v[6])) && v[6][0])
		printf("  %s\n", v[6]);
	if (field(text, "in_force", v[6], sizeof(v[6])) && v[6][0])
		printf("tables in force: by %s\n", v[6]);
	printf("status file %s\n", path);
	free(text);
	return 0;
}
