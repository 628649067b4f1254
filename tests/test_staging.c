/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The engine table (engine.h) and the staging object (staging.h): the
 * table's engines give the tables of their cores; a pass's result is
 * committed, staged, applied, dropped, replaced by a new topology in the
 * middle of a run, or lost to a failed pass, with the layers (path SLs)
 * switching with the tables.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmodc.h"
#include "engine_table.h"
#include "lft_reach.h"
#include "lids.h"
#include "options.h"
#include "passcheck.h"
#include "pqft.h"
#include "sar.h"
#include "staging.h"
#include "testutil.h"

#define SIG_A 0x1111
#define SIG_B 0x2222

static struct fabric *fab(int lmc)
{
	/* 2:1 blocking, so that sar and dmodc disagree */
	return tu_pgft("3", "4,4,4", "1,2,2", "1,1,1", lmc);
}

static void route(const char *name, const struct fabric *f, int escape_vl,
		  struct route_result *r)
{
	const struct engine *e = engine_find(name);
	struct engine_opts o;
	struct osmre_err err;

	assert_non_null(e);
	engine_opts_defaults(&o);
	o.threads = 2;
	o.escape_vl = escape_vl;
	if (engine_route(e, &o, f, r, &err))
		fail_msg("%s: %s", name, err.msg);
}

static void say_buf(void *arg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say_buf(void *arg, const char *fmt, ...)
{
	char *buf = arg;
	size_t n = strlen(buf);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf + n, 1024 - n, fmt, ap);
	va_end(ap);
	n = strlen(buf);
	if (n < 1023)
		strcpy(buf + n, "\n");
}

/* What engine_report says of r, a pass of name without escape. */
static const char *report_of(const char *name, const struct route_result *r)
{
	static char buf[1024];
	struct engine_opts o;

	engine_opts_defaults(&o);
	buf[0] = 0;
	engine_report(engine_find(name), &o, r, say_buf, buf);
	return buf;
}

/* The update protocol on, dmodc's tables committed on SIG_A; s gets
 * them. */
static void committed(struct staging *st, const struct fabric *f,
		      struct lft_set *s)
{
	struct route_result r;
	struct osmre_err err;

	assert_int_equal(staging_init(st, 1), 0);
	route("dmodc", f, -1, &r);
	assert_int_equal(staging_routed(st, SIG_A, &r, s, &err), 0);
	route_result_free(&r);
}

/* A pass on SIG_A with sar's tables: staged when STAGE was asked;
 * s (freed first) gets the tables to install. */
static void sar_pass(struct staging *st, const struct fabric *f,
		     struct lft_set *s)
{
	struct route_result r;
	struct osmre_err err;

	route("sar", f, -1, &r);
	lft_set_free(s);
	assert_int_equal(staging_routed(st, SIG_A, &r, s, &err), 0);
	route_result_free(&r);
}

static void test_table(void **state)
{
	const struct engine *e;
	const struct engine *const *row;

	char names[128] = "";
	size_t n = 0;

	(void)state;
	/* the rows in order, and nothing else, in the usage texts' list */
	for (row = engines; *row; row++) {
		e = *row;
		assert_ptr_equal(engine_find(e->name), e);
		assert_non_null(e->route);
		assert_non_null(e->summary);
		/* a callback's pair comes whole */
		assert_true(!e->keep_new == !e->keep_free);
		assert_true(!e->ca_hops || (e->produces & ENGINE_CA_HOPS));
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s",
				      row == engines ? "" : ", ", e->name);
	}
	assert_string_equal(engine_names(), names);
	assert_non_null(strstr(names, "dmodc, pqft, sar"));
	assert_null(engine_find("nosuch"));
	assert_null(engine_find(NULL));
	assert_true(engine_find("sar")->produces & ENGINE_LAYERS);
	assert_true(engine_find("pqft")->needs & ENGINE_NEEDS_TOPOLOGY);
}

/* Each engine of the table gives its core's tables. */
static void test_engines_are_their_cores(void **state)
{
	struct fabric *f = fab(1);
	struct lft_set s = { 0 };
	struct route_result r;
	struct dmodc_opts d = { .threads = 1 };
	struct osmre_err err;
	struct pgft_params t;
	struct pqft *q = pqft_new();
	struct sar_result sr;
	struct sar_opts so = { .max_vls = 8 };

	(void)state;
	assert_int_equal(lft_set_for_fabric(f, lids_max(f), &s, &err), 0);
	assert_int_equal(dmodc_route(f, &d, &s, &err), 0);
	route("dmodc", f, -1, &r);
	assert_int_equal(lft_set_equal(&s, &r.tables, NULL, 0), 1);
	assert_false(r.layers.have);
	assert_false(r.has_escape);
	route_result_free(&r);

	lft_set_free(&s);
	assert_int_equal(lft_set_for_fabric(f, lids_max(f), &s, &err), 0);
	assert_int_equal(pqft_infer(f, &t, &err), 0);
	assert_int_equal(pqft_assign(q, f, &t, &err), 0);
	assert_int_equal(pqft_route(q, &s, 1, &err), 0);
	route("pqft", f, -1, &r);
	assert_int_equal(lft_set_equal(&s, &r.tables, NULL, 0), 1);
	assert_string_equal(
		report_of("pqft", &r),
		"pqft: topology pgft(3;4,4,4;1,2,2;1,1,1) (inferred)\n");
	route_result_free(&r);
	pqft_free(q);

	lft_set_free(&s);
	assert_int_equal(lft_set_for_fabric(f, lids_max(f), &s, &err), 0);
	assert_int_equal(sar_route(f, &so, &s, &sr, &err), 0);
	route("sar", f, -1, &r);
	assert_int_equal(lft_set_equal(&s, &r.tables, NULL, 0), 1);
	assert_true(r.layers.have);
	assert_int_equal(r.layers.layers, sr.layers);
	sar_result_free(&sr);
	route_result_free(&r);

	/* the escape: every high LID, sar's layers below its VL */
	route("sar", f, 1, &r);
	assert_true(r.has_escape);
	assert_int_equal(r.escape.lids, 64);
	assert_int_equal(r.layers.layers, 1);
	route_result_free(&r);
	lft_set_free(&s);
	fabric_free(f);
}

/* A pqft without parameters on a fabric they cannot be read off. */
static void test_engine_refuses(void **state)
{
	struct fabric *f = tu_from_text(tu_ring3_net, 0);
	const struct engine *e = engine_find("pqft");
	struct route_result r;
	struct osmre_options opt;
	struct engine_opts o;
	struct osmre_err err;
	char conf[] = "pqft_topology pgft(1;3;1;1)\n";
	FILE *fp;

	(void)state;
	engine_opts_defaults(&o);
	assert_int_equal(engine_route(e, &o, f, &r, &err), -1);
	assert_non_null(strstr(err.msg, "cannot infer"));
	assert_string_equal(report_of("pqft", &r), "");
	route_result_free(&r);
	options_defaults(&opt);
	assert_int_equal(engine_options_add(&opt), 0);
	fp = fmemopen(conf, strlen(conf), "r");
	assert_non_null(fp);
	assert_int_equal(options_read_stream(fp, "test", &opt, NULL, NULL), 0);
	fclose(fp);
	o.settings = options_settings(&opt, e->options);
	assert_non_null(o.settings);
	assert_int_equal(engine_route(e, &o, f, &r, &err), -1);
	route_result_free(&r);
	options_free(&opt);
	fabric_free(f);
}

/* The SL of some path on a layer above 0, from the layers. */
static int some_layered_path(const struct route_layers *l, unsigned *slid,
			     unsigned *dlid)
{
	unsigned s, d;

	for (s = 1; s <= l->maxlid; s++)
		for (d = 1; d <= l->maxlid; d++)
			if (route_layers_sl(l, s, d)) {
				*slid = s;
				*dlid = d;
				return 1;
			}
	return 0;
}

/* The update protocol off: the tables go through, the layers stay. */
static void test_no_kept_tables(void **state)
{
	struct fabric *f = fab(0);
	struct staging st;
	struct route_result r;
	struct lft_set s = { 0 }, want = { 0 };
	struct osmre_err err;

	(void)state;
	assert_int_equal(staging_init(&st, 0), 0);
	assert_int_equal(staging_reuse(&st, SIG_A, &s, &err), STAGING_RUN);
	route("sar", f, -1, &r);
	assert_int_equal(lft_set_clone(&r.tables, &want, &err), 0);
	assert_int_equal(staging_routed(&st, SIG_A, &r, &s, &err), 0);
	assert_null(r.tables.t); /* taken */
	assert_int_equal(lft_set_equal(&s, &want, NULL, 0), 1);
	assert_true(st.cur.layers.have);
	assert_null(st.cur.tables.t);
	/* never reused: every pass runs the engine */
	lft_set_free(&s);
	assert_int_equal(staging_reuse(&st, SIG_A, &s, &err), STAGING_RUN);
	/* an engine without layers: SL 0 everywhere */
	route("dmodc", f, -1, &r);
	assert_int_equal(staging_routed(&st, SIG_A, &r, &s, &err), 0);
	assert_false(st.cur.layers.have);
	assert_int_equal(staging_path_sl(&st, 1, 2), 0);
	lft_set_free(&s);
	lft_set_free(&want);
	staging_free(&st);
	fabric_free(f);
}

/* commit, reuse, stage, apply: the protocol's run on one topology */
static void test_stage_and_apply(void **state)
{
	struct fabric *f = fab(0);
	struct staging st;
	struct route_result r;
	struct lft_set s = { 0 }, old = { 0 }, new = { 0 };
	struct lft_block *blocks = NULL;
	struct osmre_err err;
	unsigned slid, dlid;
	long changed;

	(void)state;
	assert_int_equal(staging_init(&st, 1), 0);
	/* first pass: in force at once */
	assert_int_equal(staging_reuse(&st, SIG_A, &s, &err), STAGING_RUN);
	route("dmodc", f, -1, &r);
	assert_int_equal(lft_set_clone(&r.tables, &old, &err), 0);
	assert_int_equal(staging_routed(&st, SIG_A, &r, &s, &err), 0);
	assert_int_equal(lft_set_equal(&s, &old, NULL, 0), 1);
	/* the same topology: the committed tables, no engine */
	lft_set_free(&s);
	assert_int_equal(staging_reuse(&st, SIG_A, &s, &err), STAGING_KEPT);
	assert_int_equal(lft_set_equal(&s, &old, NULL, 0), 1);

	/* COMPUTE: the engine runs, the committed tables are installed */
	staging_ask(&st, STAGING_STAGE);
	assert_int_equal(staging_reuse(&st, SIG_A, &s, &err), STAGING_RUN);
	route("sar", f, -1, &r);
	assert_int_equal(lft_set_clone(&r.tables, &new, &err), 0);
	lft_set_free(&s);
	assert_int_equal(staging_routed(&st, SIG_A, &r, &s, &err), 0);
	assert_int_equal(lft_set_equal(&s, &old, NULL, 0), 1);
	changed = lft_set_blocks_changed(&old, &new, &blocks);
	assert_true(changed > 0);
	assert_int_equal(staging_wait(&st, 1), changed);
	assert_int_equal(staging_mode(&st), STAGING_NORMAL);
	/* the old layers (none) still give the SLs */
	assert_false(st.cur.layers.have);
	/* a pass in between (a heavy sweep): still the committed tables */
	lft_set_free(&s);
	assert_int_equal(staging_reuse(&st, SIG_A, &s, &err), STAGING_KEPT);
	assert_int_equal(lft_set_equal(&s, &old, NULL, 0), 1);

	/* UPDATE: the staged tables and layers come into force */
	staging_ask(&st, STAGING_APPLY);
	assert_int_equal(staging_mode(&st), STAGING_APPLY);
	lft_set_free(&s);
	assert_int_equal(staging_reuse(&st, SIG_A, &s, &err), STAGING_APPLIED);
	assert_int_equal(lft_set_equal(&s, &new, NULL, 0), 1);
	assert_true(st.cur.layers.have);
	if (some_layered_path(&st.cur.layers, &slid, &dlid))
		assert_int_equal(staging_path_sl(&st, slid, dlid),
				 route_layers_sl(&st.cur.layers, slid, dlid));
	/* COMMIT: nothing left aside; applying again changes nothing */
	staging_drop(&st);
	staging_ask(&st, STAGING_APPLY);
	lft_set_free(&s);
	assert_int_equal(staging_reuse(&st, SIG_A, &s, &err), STAGING_KEPT);
	assert_int_equal(lft_set_equal(&s, &new, NULL, 0), 1);
	free(blocks);
	lft_set_free(&s);
	lft_set_free(&old);
	lft_set_free(&new);
	staging_free(&st);
	fabric_free(f);
}

struct seen {
	const struct lft_block *want;
	const struct lft_set *tables;
	long n;
};

static int count_block(void *ctx, const struct lft *t, unsigned block)
{
	struct seen *c = ctx;

	assert_ptr_equal(t->guid, c->tables->t[c->want[c->n].table].guid);
	assert_int_equal(block, c->want[c->n].block);
	c->n++;
	return 1;
}

static int stop_at_first(void *ctx, const struct lft *t, unsigned block)
{
	(void)t;
	(void)block;
	(*(int *)ctx)++;
	return 0;
}

/* The changed blocks, for the protocol's "pushed" check. */
static void test_changed_blocks(void **state)
{
	struct fabric *f = fab(0);
	struct staging st;
	struct lft_set s = { 0 }, old = { 0 };
	struct lft_block *blocks = NULL;
	struct osmre_err err;
	struct seen c = { 0 };
	int calls = 0;
	long n;

	(void)state;
	committed(&st, f, &s);
	assert_int_equal(lft_set_clone(&s, &old, &err), 0);
	/* nothing staged: nothing to check */
	assert_int_equal(staging_each_changed(&st, stop_at_first, &calls), 1);
	assert_int_equal(calls, 0);
	staging_ask(&st, STAGING_STAGE);
	sar_pass(&st, f, &s);
	n = lft_set_blocks_changed(&old, &st.next.tables, &blocks);
	assert_true(n > 1);
	assert_int_equal(st.staged, n);
	c.want = blocks;
	c.tables = &old;
	assert_int_equal(staging_each_changed(&st, count_block, &c), 1);
	assert_int_equal(c.n, n);
	assert_int_equal(staging_each_changed(&st, stop_at_first, &calls), 0);
	assert_int_equal(calls, 1);
	free(blocks);
	lft_set_free(&s);
	lft_set_free(&old);
	staging_free(&st);
	fabric_free(f);
}

/* A new topology in the middle of a run: in force at once, the staged
 * result dropped, the caller told to restart. */
static void test_topology_change(void **state)
{
	struct fabric *f = fab(0);
	struct staging st;
	struct route_result r;
	struct lft_set s = { 0 }, want = { 0 };
	struct osmre_err err;

	(void)state;
	committed(&st, f, &s);
	staging_ask(&st, STAGING_STAGE);
	sar_pass(&st, f, &s);
	assert_true(st.have_next);
	/* a link went down: a pass on another topology */
	assert_int_equal(staging_reuse(&st, SIG_B, &s, &err), STAGING_RUN);
	route("pqft", f, -1, &r);
	assert_int_equal(lft_set_clone(&r.tables, &want, &err), 0);
	lft_set_free(&s);
	assert_int_equal(staging_routed(&st, SIG_B, &r, &s, &err), 1);
	assert_int_equal(lft_set_equal(&s, &want, NULL, 0), 1);
	assert_false(st.have_next);
	assert_null(st.changed);
	assert_false(st.cur.layers.have); /* sar's were staged only */
	/* a STAGE pass asked before the change ends with nothing staged */
	staging_ask(&st, STAGING_STAGE);
	route("pqft", f, -1, &r);
	lft_set_free(&s);
	assert_int_equal(staging_routed(&st, SIG_A, &r, &s, &err), 1);
	assert_int_equal(staging_wait(&st, 1), 0);
	/* and on the new topology the committed tables stay */
	lft_set_free(&s);
	assert_int_equal(staging_reuse(&st, SIG_A, &s, &err), STAGING_KEPT);
	assert_int_equal(lft_set_equal(&s, &want, NULL, 0), 1);
	lft_set_free(&s);
	lft_set_free(&want);
	staging_free(&st);
	fabric_free(f);
}

/* The first pass as master keeps what the switches hold (held): it is
 * committed with the pass's layers, the pass's tables come by a STAGE
 * and APPLY later; lft_set_undelivered says when held cannot stay. */
static void test_adopt_held(void **state)
{
	struct fabric *f = fab(1);
	struct staging st;
	struct route_result r;
	struct lft_set s = { 0 }, held = { 0 }, want = { 0 }, sarl = { 0 };
	struct osmre_err err;
	struct lft *t, *u;
	int node, p, up = -1;
	unsigned lid = 0;
	uint8_t e1;

	(void)state;
	route("dmodc", f, 7, &r);
	assert_int_equal(lft_set_clone(&r.tables, &held, &err), 0);
	route_result_free(&r);
	/* dmodc's tables, with the escape, deliver everywhere */
	assert_int_equal(lft_set_undelivered(f, &held, &err), 0);
	assert_int_equal(lft_set_clone(&held, &want, &err), 0);
	assert_int_equal(staging_init(&st, 1), 0);
	route("sar", f, 7, &r);
	assert_int_equal(lft_set_clone(&r.tables, &sarl, &err), 0);
	assert_true(lft_set_entries_changed(&sarl, &held) > 0);
	assert_int_equal(staging_adopt(&st, SIG_A, &held, &r, &s, &err), 0);
	assert_int_equal(held.n, 0); /* taken */
	assert_int_equal(r.tables.n, 0);
	assert_int_equal(lft_set_equal(&s, &want, NULL, 0), 1);
	assert_true(st.cur.layers.have); /* sar's */
	/* the same topology: what the switches held stays */
	lft_set_free(&s);
	assert_int_equal(staging_reuse(&st, SIG_A, &s, &err), STAGING_KEPT);
	assert_int_equal(lft_set_equal(&s, &want, NULL, 0), 1);
	/* the epoch: sar's tables staged, then applied */
	staging_ask(&st, STAGING_STAGE);
	assert_int_equal(staging_reuse(&st, SIG_A, &s, &err), STAGING_RUN);
	route("sar", f, 7, &r);
	lft_set_free(&s);
	assert_int_equal(staging_routed(&st, SIG_A, &r, &s, &err), 0);
	assert_true(staging_wait(&st, 1) > 0);
	staging_ask(&st, STAGING_APPLY);
	lft_set_free(&s);
	assert_int_equal(staging_reuse(&st, SIG_A, &s, &err), STAGING_APPLIED);
	assert_int_equal(lft_set_equal(&s, &sarl, NULL, 0), 1);

	/* held that does not deliver: an entry to a port without a link,
	 * a missing entry, a loop between two switches */
	for (node = 0; node < f->nnodes; node++) /* a leaf */
		if (fab_is_switch(&f->nodes[node]) &&
		    f->nodes[node].ports[1].rnode >= 0 &&
		    !fab_is_switch(&f->nodes[f->nodes[node].ports[1].rnode]))
			break;
	assert_true(node < f->nnodes);
	t = lft_of_node(&want, node);
	assert_non_null(t);
	e1 = t->port[1];
	for (p = 1; p <= f->nodes[node].nports; p++)
		if (f->nodes[node].ports[p].rnode < 0)
			break;
	if (p <= f->nodes[node].nports) {
		t->port[1] = (uint8_t)p;
		assert_true(lft_set_undelivered(f, &want, &err) >= 1);
	}
	t->port[1] = LFT_NONE;
	/* (and every switch whose route to that LID went through it) */
	assert_true(lft_set_undelivered(f, &want, &err) >= 1);
	t->port[1] = e1;
	assert_int_equal(lft_set_undelivered(f, &want, &err), 0);
	/* a leaf and a switch above it point at each other for the LID of
	 * a CA on the leaf: both fail (and any switch routed through them) */
	for (p = 1; p <= f->nodes[node].nports; p++) {
		int rn = f->nodes[node].ports[p].rnode;

		if (rn >= 0 && fab_is_switch(&f->nodes[rn]))
			up = p;
		else if (rn >= 0 && !lid)
			lid = f->nodes[rn]
				      .ports[f->nodes[node].ports[p].rport]
				      .lid;
	}
	assert_true(up > 0 && lid > 0);
	u = lft_of_node(&want, f->nodes[node].ports[up].rnode);
	assert_non_null(u);
	t->port[lid] = (uint8_t)up;
	u->port[lid] = f->nodes[node].ports[up].rport;
	assert_true(lft_set_undelivered(f, &want, &err) >= 2);
	lft_set_free(&s);
	lft_set_free(&want);
	lft_set_free(&sarl);
	staging_free(&st);
	fabric_free(f);
}

/* A STAGE pass that fails, or never comes. */
static void test_failed_pass(void **state)
{
	struct fabric *f = fab(0);
	struct staging st;
	struct lft_set s = { 0 };
	struct osmre_err err;

	(void)state;
	committed(&st, f, &s);
	staging_ask(&st, STAGING_STAGE);
	staging_failed(&st);
	assert_int_equal(staging_wait(&st, 1), -1);
	assert_false(st.have_next);
	/* no pass at all: the wait times out */
	staging_ask(&st, STAGING_STAGE);
	assert_int_equal(staging_wait(&st, 0.05), -1);
	assert_int_equal(staging_mode(&st), STAGING_NORMAL);
	/* a failed pass in normal mode changes nothing */
	staging_failed(&st);
	lft_set_free(&s);
	assert_int_equal(staging_reuse(&st, SIG_A, &s, &err), STAGING_KEPT);
	lft_set_free(&s);
	staging_free(&st);
	fabric_free(f);
}

struct waiter {
	struct staging *st;
	double timeout;
	long got;
};

static void *wait_thread(void *arg)
{
	struct waiter *w = arg;

	w->got = staging_wait(w->st, w->timeout);
	return NULL;
}

/* The protocol's thread waits, a routing pass (another thread) stages;
 * closing ends a wait. */
static void test_wait_across_threads(void **state)
{
	struct fabric *f = fab(0);
	struct staging st;
	struct lft_set s = { 0 };
	struct waiter w = { &st, 30, -2 };
	pthread_t th;

	(void)state;
	committed(&st, f, &s);
	staging_ask(&st, STAGING_STAGE);
	assert_int_equal(pthread_create(&th, NULL, wait_thread, &w), 0);
	sar_pass(&st, f, &s);
	pthread_join(th, NULL);
	assert_true(w.got > 0);
	assert_int_equal(w.got, st.staged);

	staging_ask(&st, STAGING_STAGE);
	w.got = -2;
	assert_int_equal(pthread_create(&th, NULL, wait_thread, &w), 0);
	staging_close(&st);
	pthread_join(th, NULL);
	assert_int_equal(w.got, -1);
	lft_set_free(&s);
	staging_free(&st);
	fabric_free(f);
}

/* The bytes of st's committed pass as staging_save writes them. */
static char *saved(struct staging *st, size_t *len)
{
	struct osmre_err err;
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);

	assert_non_null(fp);
	assert_int_equal(staging_save(st, fp, &err), 0);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

/* staging_load of len bytes of buf into a fresh st: its result. */
static int load(struct staging *st, const char *buf, size_t len)
{
	struct osmre_err err;
	char *copy;
	FILE *fp = tu_memfile(buf, len, &copy);
	int rc;

	assert_int_equal(staging_init(st, 1), 0);
	rc = staging_load(st, fp, (long)len, &err);
	fclose(fp);
	free(copy);
	return rc;
}

/*
 * A restarted SM: the committed pass (sar's tables and layers) saved and
 * read back is the same pass, installed again on the same topology and
 * not on another; a file cut short or with any byte changed is refused
 * whole.
 */
static void test_save_and_load(void **state)
{
	struct fabric *f = fab(1);
	struct staging st, back;
	struct route_result r;
	struct lft_set s = { 0 }, again = { 0 };
	struct osmre_err err;
	unsigned a, b, maxlid;
	size_t len, i;
	char *buf;

	(void)state;
	assert_int_equal(staging_init(&st, 1), 0);
	route("sar", f, 7, &r);
	assert_int_equal(staging_routed(&st, SIG_A, &r, &s, &err), 0);
	assert_int_equal(staging_generation(&st), 1ul);
	buf = saved(&st, &len);
	assert_int_equal(load(&back, buf, len), 0);
	assert_int_equal(staging_reuse(&back, SIG_A, &again, &err),
			 STAGING_KEPT);
	assert_int_equal(lft_set_equal(&s, &again, NULL, 0), 1);
	maxlid = st.cur.layers.maxlid;
	assert_true(st.cur.layers.have && maxlid > 0);
	for (a = 1; a <= maxlid; a++)
		for (b = 1; b <= maxlid; b++)
			assert_int_equal(staging_path_sl(&back, a, b),
					 staging_path_sl(&st, a, b));
	lft_set_free(&again);
	assert_int_equal(staging_reuse(&back, SIG_B, &again, &err),
			 STAGING_RUN);
	staging_free(&back);
	/* cut short anywhere, or any byte changed: refused, nothing kept */
	for (i = 0; i < len; i += 1 + i / 64) {
		assert_int_equal(load(&back, buf, i), -1);
		assert_int_equal(staging_generation(&back), 0ul);
		staging_free(&back);
		buf[i] ^= 0x41;
		assert_int_equal(load(&back, buf, len), -1);
		assert_int_equal(staging_generation(&back), 0ul);
		staging_free(&back);
		buf[i] ^= 0x41;
	}
	assert_int_equal(load(&back, buf, len), 0);
	staging_free(&back);
	free(buf);
	lft_set_free(&s);
	staging_free(&st);
	fabric_free(f);
}

/*
 * pass_deadlock_check, the plugin's deadlock_check: a ring's passes by
 * sar, with and without the update protocol's escape, are acyclic on the
 * SLs the plugin hands out; the same tables with every base route on SL
 * 0 close the ring's cycle, which the check names.  dmodc's fat tree:
 * acyclic on one VL.
 */
static void test_pass_check(void **state)
{
	struct fabric *f;
	struct route_result r;
	struct cdg_result c;
	struct osmre_err err;
	char *text = tu_ring(8, 1);
	int esc;

	(void)state;
	f = tu_from_text(text, 1);
	free(text);
	assert_non_null(f);
	for (esc = -1; esc <= 3; esc += 4) {
		route("sar", f, esc, &r);
		assert_int_equal(pass_deadlock_check(f, &r, esc, &c, &err), 0);
		assert_true(c.acyclic);
		assert_true(c.nvl >= 2);
		cdg_result_free(&c);
		/* every base route on SL 0: the ring's cycle */
		free(r.layers.layer);
		r.layers.layer = NULL;
		assert_int_equal(pass_deadlock_check(f, &r, esc, &c, &err), -1);
		assert_non_null(strstr(err.msg, "close a cycle of"));
		assert_non_null(strstr(err.msg, "on VL 0: \"R"));
		printf("escape VL %d, base routes on SL 0: %s\n", esc, err.msg);
		route_result_free(&r);
	}
	fabric_free(f);
	f = fab(0);
	route("dmodc", f, -1, &r);
	assert_int_equal(pass_deadlock_check(f, &r, -1, &c, &err), 0);
	assert_true(c.acyclic);
	assert_int_equal(c.nvl, 1);
	cdg_result_free(&c);
	route_result_free(&r);
	fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_engines_are_their_cores),
		cmocka_unit_test(test_engine_refuses),
		cmocka_unit_test(test_no_kept_tables),
		cmocka_unit_test(test_stage_and_apply),
		cmocka_unit_test(test_changed_blocks),
		cmocka_unit_test(test_topology_change),
		cmocka_unit_test(test_adopt_held),
		cmocka_unit_test(test_failed_pass),
		cmocka_unit_test(test_wait_across_threads),
		cmocka_unit_test(test_save_and_load),
		cmocka_unit_test(test_pass_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
