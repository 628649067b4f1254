/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * osmre.conf: one "name value" per line, '#' comments, blank lines.  Every
 * problem is reported with file:line and leaves that option at its default
 * (or at its last good value); the rest of the file still applies.
 */
#ifndef OSMRE_OPTIONS_H
#define OSMRE_OPTIONS_H

#include <stdio.h>

/* An option's type (opt_desc.type) and what it fills at opt_desc.off. */
enum opt_type {
	OPT_INT,    /* an int; 0..1 a switch, TRUE or FALSE too */
	OPT_UINT64, /* a uint64_t (min..max as for OPT_INT) */
	OPT_STRING, /* a char[size], "" by default, opt_desc.check'd */
	OPT_PATH,   /* a char[size] holding an absolute path */
	OPT_SECRET, /* an OPT_STRING never shown (logs, messages) */
};

/*
 * One option: its osmre.conf key, its default and range, and, for the
 * ones `osmre route` takes as well, its long flag and help.  An array of
 * them ends with a NULL key.  The general options are options.c's own;
 * an engine's are its row's (engine.h), filling its own settings.
 */
struct opt_desc {
	const char *key; /* osmre.conf */
	enum opt_type type;
	long min, max, def; /* OPT_INT, OPT_UINT64 */
	const char *what;   /* "expected WHAT" in a report */
	size_t off;	    /* of the value in the settings */
	size_t size;	    /* strings: their buffer */
	/* strings: 0 when val is good, else -1 and why not */
	int (*check)(const char *val, char *why, size_t whysz);
	/* `osmre route --FLAG` (NULL: none); a switch (OPT_INT 0..1)
	 * without arg sets 1, else arg names the value */
	const char *flag, *arg;
	/* the flag's help: lines, the first after "--FLAG ARG", the
	 * others indented; help_after: the flag whose help it follows in
	 * the usage text (NULL: at the end) */
	const char *help, *help_after;
};

/* A set of options and the settings it fills (options_add). */
struct options_set {
	const struct opt_desc *desc;
	void *base;
};

#define OPTIONS_MAX_SETS 8

struct osmre_options {
	int reroute_coalesce_ms; /* SIGUSR2 bursts closer than this: one pass */
	int hops_background; /* switch LIDs' hop tables on a plugin thread */
	int lft_readback;    /* first pass as master: the switches' LFTs read */
	int deadlock_check;  /* each pass checked apart (passcheck.h) */
	/* an ENGINE_TAKES_JOBS engine's inputs, watched by the plugin */
	/* the fat-tree engines' roles (roles.h), OpenSM's formats; "":
	 * opensm.conf's option of the same name, else none */
	char cn_guid_file[256];
	char root_guid_file[256];
	char io_guid_file[256];
	/* the five-phase update protocol (update.h, updwire.h) */
	int update_protocol;  /* 1: on (needs lmc >= 1) */
	int update_escape_vl; /* SL and VL of the escape */
	int update_ack_timeout_ms;
	int update_push_timeout_ms;
	int update_max_misses;	    /* misses before a drop */
	int update_poll_ms;	    /* poll period asked of subscribers */
	int update_mgmt_class;	    /* vendor class of the MADs */
	int update_max_subscribers; /* sessions in all */
	int update_max_sessions_per_port;
	int update_port_rate;	 /* requests/s one port may make */
	int update_refused_rate; /* answers/s to refused requests */
	int update_grace_ms;	 /* a new master's wait before its 1st epoch */
	int update_keepalive_ms; /* a WAIT held at most (0: none) */
	int update_idle_rate;	 /* WAIT exchanges/s between epochs */
	int update_notice_rate;	 /* answers/s to held WAITs */
	char update_key[33];	 /* "": no shared key */
	/* the sets options_add gave: read after the general options */
	int nsets;
	struct options_set sets[OPTIONS_MAX_SETS];
};

/* The general options' defaults, no sets. */
void options_defaults(struct osmre_options *o);

/* The defaults of desc into base. */
void options_set_defaults(const struct opt_desc *desc, void *base);

/*
 * Adds the options desc to o: their settings (size bytes) allocated and
 * set to their defaults; options_read and options_each take them after
 * the general ones.  The settings, or NULL (out of memory, or no room).
 */
void *options_add(struct osmre_options *o, const struct opt_desc *desc,
		  size_t size);

/* The settings options_add gave for desc, or NULL. */
void *options_settings(const struct osmre_options *o,
		       const struct opt_desc *desc);

/* Frees what options_add allocated. */
void options_free(struct osmre_options *o);

/*
 * The value val into base as d says: 0, or -1 with why (the range, or
 * the string's check) and base unchanged.  OPT_INT and OPT_UINT64 take
 * a decimal number; a switch (0..1) takes TRUE or FALSE too.
 */
int options_set(const struct opt_desc *d, void *base, const char *val,
		char *why, size_t whysz);

/* Called once per problem with "file:line: message". */
typedef void (*options_report)(void *arg, const char *msg);

/*
 * Reads path into o (which holds the defaults).  Returns the number of
 * problems reported, or -1 when the file cannot be opened (reported too,
 * unless it does not exist and missing_ok is set).
 */
int options_read(const char *path, int missing_ok, struct osmre_options *o,
		 options_report report, void *arg);

/* The same from an open stream (path names it in messages); 0 or the
 * number of problems (report NULL: counted, not said). */
int options_read_stream(FILE *fp, const char *path, struct osmre_options *o,
			options_report report, void *arg);

/* The option called key (the general ones' or a set's) to val as
 * options_set: 0, or -1 with why (also an unknown key). */
int options_set_key(struct osmre_options *o, const char *key, const char *val,
		    char *why, size_t whysz);

/* A number v into base as d says, unchecked (OPT_INT, OPT_UINT64). */
void options_put(const struct opt_desc *d, void *base, long v);

/* Calls fn(arg, "name value") for every option, in a fixed order: the
 * general ones, then each set's in the order added. */
void options_each(const struct osmre_options *o, options_report fn, void *arg);

#endif
