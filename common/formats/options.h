/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * osmre.conf: one "name value" per line, '#' comments, blank lines.  Every
 * problem is reported with file:line and leaves that option at its default
 * (or at its last good value); the rest of the file still applies.
 */
#ifndef OSMRE_OPTIONS_H
#define OSMRE_OPTIONS_H

#include <stdio.h>

struct osmre_options {
	int dmodc_threads;	 /* 0: online CPUs */
	int reroute_coalesce_ms; /* SIGUSR2 bursts closer than this: one pass */
	int dmodc_ca_hops;	 /* also fill OpenSM's hop tables for CA LIDs */
	int hops_background; /* switch LIDs' hop tables on a plugin thread */
	int dmodc_stable;    /* re-route after a change by whole destinations */
	int pqft_threads;    /* 0: online CPUs */
	int pqft_seed;	     /* of pqft's choices among alternate ports */
	/* pqft's topology parameters, "pgft(...)" or "qft(...)"; "" none */
	char pqft_topology[128];
	char sar_job_file[256];	    /* "": no jobs (DFSSSP) */
	char sar_io_guid_file[256]; /* "": no I/O nodes apart */
	int sar_max_vls;	    /* virtual layers sar may use */
	int sar_threads;	    /* 0: online CPUs */
	/* with a job file, the tables' A2A and SP risks at most those of
	 * the tables without it (sar.h, all_pairs) */
	int sar_job_all_pairs;
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
	int update_keepalive_ms; /* a WAIT held at most (0: none) */
	int update_idle_rate;	 /* WAIT exchanges/s between epochs */
	int update_notice_rate;	 /* answers/s to held WAITs */
	char update_key[33];	 /* "": no shared key */
};

void options_defaults(struct osmre_options *o);

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
 * number of problems. */
int options_read_stream(FILE *fp, const char *path, struct osmre_options *o,
			options_report report, void *arg);

/* Calls fn(arg, "name value") for every option, in a fixed order. */
void options_each(const struct osmre_options *o, options_report fn, void *arg);

#endif
