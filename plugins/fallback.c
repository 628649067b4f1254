/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What OpenSM does when an osmre engine refuses a fabric: it tries the
 * next engine of routing_engine, and after the last one minhop.  minhop
 * (and ftree, which falls back to it; updn without roots, which
 * disables itself) is not deadlock-free on a fat tree with CAs off its
 * leaves: the plugin says so at error level, at start (minhop, ftree),
 * at the first pass on each topology (updn without roots where the
 * fabric has CAs off its leaves) and after each refusal.  Also the
 * fat-tree engines' roles files (roles.h).
 */
#include "osmre_plugin.h"
#include "roles.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A follower that keeps the fabric deadlock-free (1), or why not;
 * quirky: f has CAs off its leaves (roles.h), where updn finds no
 * roots by itself. */
static int safe_follower(osm_opensm_t *osm, const char *name, int quirky,
			 const char **why)
{
	const char *roots = osm->subn.opt.root_guid_file;

	if (!strcmp(name, "sar"))
		return 1; /* deadlock-free on any topology */
	if (!strcmp(name, "nue") || !strcmp(name, "lash"))
		return 1;
	if (!strcmp(name, "updn") &&
	    ((roots && *roots && strcmp(roots, "(null)")) || !quirky))
		return 1;
	if (!strcmp(name, "updn"))
		*why = "updn without root_guid_file finds no roots on a tree with CAs on every switch and disables itself";
	else if (!strcmp(name, "ftree"))
		*why = "ftree refuses such trees too and falls back to minhop";
	else if (!strcmp(name, "dfsssp"))
		*why = "dfsssp falls back to minhop when it needs more VLs than it has";
	else
		*why = "it is not deadlock-free on one VL";
	return 0;
}

void fallback_check(struct osmre *p, const char *engine, const struct fabric *f)
{
	osm_opensm_t *osm = p->osm;
	const char *chain = osm->subn.opt.routing_engine_names;
	char buf[512], *tok, *save = NULL, next[64] = "minhop";
	const char *why = "minhop is not deadlock-free on one VL";
	int found = 0, quirky = 0;
	struct roles ro;
	struct osmre_err err;

	if (f && !roles_compute(f, NULL, &ro, &err)) {
		quirky = ro.other_ca > 0 || ro.edge_switches > 0;
		roles_free(&ro);
	}
	if (!chain || !*chain || strcmp(chain, "(null)") == 0)
		return;
	snprintf(buf, sizeof(buf), "%s", chain);
	for (tok = strtok_r(buf, ", \t", &save); tok;
	     tok = strtok_r(NULL, ", \t", &save)) {
		if (found) {
			snprintf(next, sizeof(next), "%s", tok);
			if (safe_follower(osm, next, quirky, &why))
				return;
			break;
		}
		found = !strcmp(tok, engine);
	}
	if (!found)
		return;
	OSM_LOG(&osm->log, OSM_LOG_ERROR,
		"osmre ERR: routing_engine %s: when %s refuses a fabric, OpenSM routes it with %s, which can deadlock (%s); put sar (deadlock-free on any topology) after it, or give root_guid_file for updn\n",
		chain, engine, next, why);
}

void fallback_check_all(struct osmre *p, const struct fabric *f)
{
	int i;

	for (i = 0; i < p->nengines; i++)
		if (p->engines[i].e->needs &
		    (ENGINE_NEEDS_TREE | ENGINE_NEEDS_TOPOLOGY))
			fallback_check(p, p->engines[i].e->name, f);
}

/* osmre.conf's path, else opensm.conf's option of the same name. */
static const char *pick(const char *ours, const char *opensm)
{
	if (ours[0])
		return ours;
	if (opensm && *opensm && strcmp(opensm, "(null)"))
		return opensm;
	return NULL;
}

static void load_one(struct osmre *p, const char *key, const char *path,
		     struct guidlist *l)
{
	struct osmre_err err;

	if (!path || !guidlist_read(path, l, &err))
		return;
	OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
		"osmre ERR: %s: %s; the roles are found without it\n", key,
		err.msg);
	guidlist_free(l);
}

void rolefiles_load(struct osmre *p, struct guidlist *cn,
		    struct guidlist *roots, struct guidlist *io)
{
	const osm_subn_opt_t *o = &p->osm->subn.opt;

	load_one(p, "cn_guid_file", pick(p->opt.cn_guid_file, o->cn_guid_file),
		 cn);
	load_one(p, "root_guid_file",
		 pick(p->opt.root_guid_file, o->root_guid_file), roots);
	load_one(p, "io_guid_file", pick(p->opt.io_guid_file, o->io_guid_file),
		 io);
}

void other_sms_check(struct osmre *p)
{
	osm_opensm_t *osm = p->osm;
	cl_qmap_t *t = &osm->subn.sm_guid_tbl;
	cl_map_item_t *it;

	for (it = cl_qmap_head(t); it != cl_qmap_end(t);
	     it = cl_qmap_next(it)) {
		const osm_remote_sm_t *sm = (const osm_remote_sm_t *)it;
		uint64_t g = cl_ntoh64(sm->smi.guid);
		int k;

		for (k = 0; k < p->nother_sms && p->other_sms[k] != g; k++)
			;
		if (k < p->nother_sms || g == cl_ntoh64(osm->subn.sm_port_guid))
			continue;
		if (p->nother_sms < OSMRE_MAX_OTHER_SMS)
			p->other_sms[p->nother_sms++] = g;
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			"osmre ERR: another SM on the subnet: port 0x%016" PRIx64
			" (priority %u): osmre cannot tell what it runs; every SM of a subnet needs the osmre plugin with the same osmre.conf and job file, or a failover to it replaces these tables (osmre(8), SM HIGH AVAILABILITY)\n",
			g, ib_sminfo_get_priority(&sm->smi));
	}
}
