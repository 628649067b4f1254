/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The results of routing passes as the plugin keeps them: the committed
 * one (in force on the switches; its layers give the paths' SLs) and,
 * with the update protocol, a staged one that waits for the protocol's
 * UPDATE phase.  Thread-safe: routing passes (OpenSM's thread), the
 * protocol's thread and SA queries (path_sl) share it.
 *
 * Modes of the next routing pass:
 *   STAGING_NORMAL  the pass's result is in force at once (the committed
 *                   tables are installed again, without running the
 *                   engine, while the topology is unchanged and tables
 *                   are kept);
 *   STAGING_STAGE   the protocol's COMPUTE: the engine runs, its result
 *                   is kept aside ("next"), the committed tables are
 *                   installed: nothing moves;
 *   STAGING_APPLY   the protocol's UPDATE: next becomes committed and is
 *                   installed.
 * A pass on a changed topology is in force at once whatever the mode (dead
 * links cannot wait), and ends a staged run: the caller restarts it.
 *
 * Without kept tables (the update protocol off) only the layers are kept:
 * every pass runs the engine and its tables go to the switches.
 */
#ifndef OSMRE_STAGING_H
#define OSMRE_STAGING_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "engine_table.h"
#include "lft.h"

enum staging_mode { STAGING_NORMAL, STAGING_STAGE, STAGING_APPLY };

/* staging_reuse's answers */
enum { STAGING_RUN = 0, STAGING_KEPT = 1, STAGING_APPLIED = 2 };

struct staging_pass {
	struct lft_set tables; /* kept tables only */
	struct route_layers layers;
};

struct staging {
	pthread_mutex_t lock; /* everything below */
	pthread_cond_t cond;  /* a staged pass came, or closing */
	int keep_tables;
	int mode;
	int closing;
	struct staging_pass cur, next;
	int have_cur, have_next;
	uint64_t cur_sig; /* topology of cur (fabric_signature) */
	/* blocks changed by the last staged pass (-1: none came, or it
	 * failed), and which (the tables of cur and next alike: one
	 * topology) */
	long staged;
	struct lft_block *changed;
	unsigned long cur_gen; /* cur changed this many times */
};

/* keep_tables: the update protocol is on.  0, or -1 (no memory). */
int staging_init(struct staging *st, int keep_tables);
void staging_free(struct staging *st);

/*
 * A routing pass, before the engine, on the topology sig: STAGING_KEPT
 * (or STAGING_APPLIED, when an APPLY pass made next committed) with the
 * committed tables copied into s (any old content freed), STAGING_RUN
 * when the engine must run, -1 (no memory) with err.
 */
int staging_reuse(struct staging *st, uint64_t sig, struct lft_set *s,
		  struct osmre_err *err);
/*
 * After the engine: takes r's tables and layers (r is left empty) and
 * puts in s the tables to install: the committed ones while a STAGE pass
 * keeps r's aside, r's otherwise.  0, 1 when the topology changed under
 * committed tables (a staged run must restart), -1 (no memory) with err.
 */
int staging_routed(struct staging *st, uint64_t sig, struct route_result *r,
		   struct lft_set *s, struct osmre_err *err);
/*
 * The first pass as master keeps what the switches hold (the update
 * protocol on): held becomes the committed tables of topology sig, with
 * r's layers; r's tables are dropped (an epoch routes again to bring
 * them in), held and r are left empty; s gets a copy of the committed
 * tables.  0, or -1 (no memory) with err.
 */
int staging_adopt(struct staging *st, uint64_t sig, struct lft_set *held,
		  struct route_result *r, struct lft_set *s,
		  struct osmre_err *err);
/* A pass that failed: a STAGE pass waited for ends with staged -1. */
void staging_failed(struct staging *st);
/* 1 when there are committed tables (routed, or restored from a file). */
int staging_has_committed(struct staging *st);
/* 1 when the committed tables (none: 1 too) are those of held, what the
 * switches hold; else 0, and they are forgotten: saved tables that are
 * not in force must not be installed again as if they were. */
int staging_matches(struct staging *st, const struct lft_set *held);
/* next is dropped with its changed blocks; the mode back to normal. */
void staging_drop(struct staging *st);

/* The mode of the next pass (STAGE: staged = -1 until the pass comes). */
void staging_ask(struct staging *st, int mode);
int staging_mode(struct staging *st);
/* Waits at most timeout_s for the STAGE pass asked: its changed blocks,
 * or -1 (none came, it failed, or staging_close). */
long staging_wait(struct staging *st, double timeout_s);
/* Wakes and ends every wait (shutdown). */
void staging_close(struct staging *st);

/* fn(ctx, table of cur, block) for each changed block while fn returns
 * 1; returns 0 when one returned 0, 1 otherwise.  Under the lock. */
int staging_each_changed(struct staging *st,
			 int (*fn)(void *ctx, const struct lft *t,
				   unsigned block),
			 void *ctx);

/* Frees a pass's tables and layers. */
void staging_pass_free(struct staging_pass *p);
/* p (taken over, left empty) becomes the committed pass, on the
 * topology sig: what a restarted SM read back (staging_load). */
void staging_restore(struct staging *st, uint64_t sig, struct staging_pass *p);
/* Changes of the committed pass so far (0: none committed), to tell
 * when to save it again. */
unsigned long staging_generation(struct staging *st);

/* staging_file.c: the committed pass on disk, for a restarted SM.
 * Writes it (tables, layers, topology) to fp: 0, or -1 with err. */
int staging_save(struct staging *st, FILE *fp, struct osmre_err *err);
/* Reads what staging_save wrote, size bytes at most, as the committed
 * pass: 0, or -1 with err and nothing changed. */
int staging_load(struct staging *st, FILE *fp, long size,
		 struct osmre_err *err);

/* The committed layers' SL of the path slid -> dlid (0: no layers). */
uint8_t staging_path_sl(struct staging *st, unsigned slid, unsigned dlid);

#endif
