/* SPDX-License-Identifier: BSD-2-Clause */
/* The routing engines' table and the one way to run them (engine_table.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_table.h"
#include "lids.h"
#include "options.h"
#include "slmap.h"
#include "tree_core.h"

/* each row in its own file, <name>_engine.c */
extern const struct engine dmodc_engine_row, pqft_engine_row, sar_engine_row;

const struct engine *const engines[] = {
	&dmodc_engine_row,
	&pqft_engine_row,
	&sar_engine_row,
	NULL,
};

const struct engine *engine_find(const char *name)
{
	const struct engine *const *e;

	for (e = engines; name && *e; e++)
		if (!strcmp((*e)->name, name))
			return *e;
	return NULL;
}

const char *engine_names(void)
{
	static char buf[128];
	const struct engine *const *e;
	size_t n = 0;

	if (buf[0])
		return buf;
	for (e = engines; *e && n < sizeof(buf); e++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s",
				      e == engines ? "" : ", ", (*e)->name);
	return buf;
}

void engine_opts_defaults(struct engine_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->escape_vl = -1;
}

int engine_options_add(struct osmre_options *opt)
{
	const struct engine *const *e;

	for (e = engines; *e; e++)
		if ((*e)->options &&
		    !options_add(opt, (*e)->options, (*e)->settings_size))
			return -1;
	return 0;
}

void engine_opts_from_options(const struct osmre_options *opt,
			      const struct engine *e, struct engine_opts *o)
{
	engine_opts_defaults(o);
	if (e->options)
		o->settings = options_settings(opt, e->options);
	if (e->from_options && o->settings)
		e->from_options(o->settings, o);
	if (opt->update_protocol)
		o->escape_vl = opt->update_escape_vl;
}

void engine_report(const struct engine *e, const struct engine_opts *o,
		   const struct route_result *r, engine_say say, void *arg)
{
	if (r->strays_only)
		say(arg, "%s: a fat tree: %s", e->name, r->roles);
	if (r->roles_core)
		say(arg,
		    "%s: routed the tree of the compute CAs: %s; the others up*/down* under its ranks (%ld entries turn at one leaf)",
		    e->name, r->roles, r->turned);
	if (e->report)
		e->report(o, r, say, arg);
	if (r->has_escape)
		say(arg,
		    "escape: %ld high LID(s) by up*/down* from %d root(s)%s, SL/VL %d",
		    r->escape.lids, r->escape.roots,
		    r->escape.fallback ? " (one per part)" : "", o->escape_vl);
	if (r->kept >= 0)
		say(arg,
		    "%s: stable re-route: %ld destination LID(s) kept their routes",
		    e->name, r->kept);
}

int engine_route(const struct engine *e, const struct engine_opts *o,
		 const struct fabric *f, struct route_result *r,
		 struct osmre_err *err)
{
	memset(r, 0, sizeof(*r));
	r->kept = -1;
	if (lft_set_for_fabric(f, lids_max(f), &r->tables, err))
		return -1;
	/* the fat-tree engines route the tree of the compute CAs */
	if (e->needs & (ENGINE_NEEDS_TREE | ENGINE_NEEDS_TOPOLOGY) ?
		    tree_core_route(e, o, f, r, err) :
		    tree_core_route_any(e, o, f, r, err))
		return -1;
	if (o->escape_vl < 0)
		return 0;
	if (updn_route_high(f, &r->tables, &r->escape, err))
		return osmre_prefix(err, "escape");
	r->has_escape = 1;
	return 0;
}

void route_layers_free(struct route_layers *l)
{
	free(l->layer);
	free(l->src_node);
	free(l->src_port);
	free(l->src_of_lid);
	memset(l, 0, sizeof(*l));
}

void route_result_free(struct route_result *r)
{
	lft_set_free(&r->tables);
	route_layers_free(&r->layers);
	if (r->priv_free)
		r->priv_free(r->priv);
	r->priv = NULL;
	r->priv_free = NULL;
}

int route_layers_write_sls(FILE *fp, const struct fabric *f,
			   const struct route_layers *l, const char *name)
{
	return sl_map_write_paths(fp, f, name, l->layers, l->layer, l->nsrc,
				  l->src_node, l->src_port, l->maxlid);
}
