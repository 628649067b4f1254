/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdio.h>
#include <string.h>

#include "dragonfly.h"

#define DF_MAX_PORTS 254
#define DF_MAX_NODES 4000000L

static int planes_of(const struct df_params *p)
{
	return p->planes > 1 ? p->planes : 1;
}

/* routers or spines: the switches with global ports, per group */
static int global_routers(const struct df_params *p)
{
	return p->megafly ? p->spines : p->routers;
}

long df_switches(const struct df_params *p)
{
	return (long)p->groups * (p->routers + (p->megafly ? p->spines : 0));
}

long df_hosts(const struct df_params *p)
{
	return (long)p->groups * p->routers * p->hosts;
}

long df_links_between(const struct df_params *p)
{
	return p->groups > 1 ?
		       (long)global_routers(p) * p->global / (p->groups - 1) :
		       0;
}

int df_arrangement_parse(const char *s, enum df_arrangement *a)
{
	if (!strcmp(s, "consecutive"))
		*a = DF_CONSECUTIVE;
	else if (!strcmp(s, "round-robin"))
		*a = DF_ROUND_ROBIN;
	else
		return -1;
	return 0;
}

int df_check(const struct df_params *p, struct osmre_err *err)
{
	const char *kind = p->megafly ? "megafly" : "dragonfly";
	long gp, radix[2];
	int k;

	if (p->groups < 2 || p->groups > 100000)
		return osmre_fail(err, "%s: groups: expected 2..100000, got %d",
				  kind, p->groups);
	if (p->routers < 1 || p->routers > DF_MAX_PORTS)
		return osmre_fail(err,
				  "%s: %s per group: expected 1..%d, got %d",
				  kind, p->megafly ? "leaves" : "routers",
				  DF_MAX_PORTS, p->routers);
	if (p->megafly && (p->spines < 1 || p->spines > DF_MAX_PORTS))
		return osmre_fail(
			err,
			"megafly: spines per group: expected 1..%d, got %d",
			DF_MAX_PORTS, p->spines);
	if (p->hosts < 1 || p->hosts > DF_MAX_PORTS)
		return osmre_fail(err,
				  "%s: hosts per %s: expected 1..%d, got %d",
				  kind, p->megafly ? "leaf" : "router",
				  DF_MAX_PORTS, p->hosts);
	if (p->global < 1 || p->global > DF_MAX_PORTS)
		return osmre_fail(
			err, "%s: global ports per %s: expected 1..%d, got %d",
			kind, p->megafly ? "spine" : "router", DF_MAX_PORTS,
			p->global);
	if (p->planes < 0 || p->planes > 16)
		return osmre_fail(err, "%s: planes: expected 1..16, got %d",
				  kind, p->planes);
	/* ports a switch needs */
	if (p->megafly) {
		radix[0] = (long)p->hosts + p->spines;
		radix[1] = (long)p->routers + p->global;
	} else {
		radix[0] = (long)p->hosts + p->routers - 1 + p->global;
		radix[1] = 0;
	}
	for (k = 0; k < 2; k++)
		if (radix[k] > DF_MAX_PORTS)
			return osmre_fail(
				err,
				"%s: a %s needs %ld ports, more than InfiniBand's %d",
				kind,
				k ? "spine" : (p->megafly ? "leaf" : "router"),
				radix[k], DF_MAX_PORTS);
	gp = (long)global_routers(p) * p->global;
	if (gp < p->groups - 1)
		return osmre_fail(
			err,
			"%s: %ld global ports per group cannot reach the %d other groups",
			kind, gp, p->groups - 1);
	if (gp % (p->groups - 1))
		return osmre_fail(
			err,
			"%s: %ld global ports per group cannot be spread evenly over the %d other groups (not a multiple)",
			kind, gp, p->groups - 1);
	if ((df_switches(p) + df_hosts(p)) * planes_of(p) > DF_MAX_NODES)
		return osmre_fail(err, "%s: more than %ld nodes", kind,
				  DF_MAX_NODES);
	return 0;
}

/* The fabric index of switch (plane, group, i): per plane, per group,
 * the routers or leaves, then (megafly) the spines. */
static int sw_node(const struct df_params *p, int plane, int g, int i)
{
	int per = p->routers + (p->megafly ? p->spines : 0);

	return (int)(((long)plane * p->groups + g) * per + i);
}

/* Group g's global port q (0 .. P-1) for link k to group t. */
static int port_for(const struct df_params *p, int g, int t, int k)
{
	int i = t < g ? t : t - 1;
	long m = df_links_between(p);

	if (p->arrangement == DF_ROUND_ROBIN)
		return i + k * (p->groups - 1);
	return (int)(i * m + k);
}

/* Switch (in group order) and port of group g's global port q. */
static void global_port(const struct df_params *p, int g, int q, int plane,
			int *node, int *port)
{
	int r = q / p->global, j = q % p->global;

	if (p->megafly) {
		*node = sw_node(p, plane, g, p->routers + r);
		*port = p->routers + 1 + j;
	} else {
		*node = sw_node(p, plane, g, r);
		*port = p->hosts + p->routers + j;
	}
}

static int add_switches(const struct df_params *p, struct fabric *f, int plane,
			struct osmre_err *err)
{
	int g, i, per = p->routers + (p->megafly ? p->spines : 0);
	char name[64], pre[16] = "";

	if (p->planes > 1)
		snprintf(pre, sizeof(pre), "P%d_", plane);
	for (g = 0; g < p->groups; g++)
		for (i = 0; i < per; i++) {
			int spine = i >= p->routers;
			int ports =
				p->megafly ?
					(spine ? p->routers + p->global :
						 p->hosts + p->spines) :
					p->hosts + p->routers - 1 + p->global;
			uint64_t guid = 0x200000 + (uint64_t)(f->nnodes) -
					(uint64_t)plane * df_switches(p) +
					((uint64_t)plane << 24);

			snprintf(name, sizeof(name), "%sS%d_%d_%d", pre,
				 spine ? 2 : 1, g, spine ? i - p->routers : i);
			if (fabric_add_node(f, FAB_SWITCH, name, NULL, ports,
					    guid, err) < 0)
				return -1;
		}
	return 0;
}

static int link_plane(const struct df_params *p, struct fabric *f, int plane,
		      struct osmre_err *err)
{
	long m = df_links_between(p);
	int g, t, a, b, k;

	for (g = 0; g < p->groups; g++) {
		/* local links */
		for (a = 0; a < p->routers; a++) {
			int na = sw_node(p, plane, g, a);

			if (p->megafly) {
				for (b = 0; b < p->spines; b++)
					if (fabric_link(f, na, p->hosts + 1 + b,
							sw_node(p, plane, g,
								p->routers + b),
							a + 1, err))
						return -1;
				continue;
			}
			for (b = a + 1; b < p->routers; b++)
				if (fabric_link(f, na, p->hosts + b,
						sw_node(p, plane, g, b),
						p->hosts + 1 + a, err))
					return -1;
		}
		/* global links, each pair of groups once */
		for (t = g + 1; t < p->groups; t++)
			for (k = 0; k < m; k++) {
				int n1, p1, n2, p2;

				global_port(p, g, port_for(p, g, t, k), plane,
					    &n1, &p1);
				global_port(p, t, port_for(p, t, g, k), plane,
					    &n2, &p2);
				if (fabric_link(f, n1, p1, n2, p2, err))
					return -1;
			}
	}
	return 0;
}

int df_build(const struct df_params *p, struct fabric **out,
	     struct osmre_err *err)
{
	struct fabric *f;
	int planes = planes_of(p), hp = planes > 2 ? planes : 2;
	int k, g, r, i;
	char name[64];

	*out = NULL;
	if (df_check(p, err))
		return -1;
	f = fabric_new();
	if (!f)
		return osmre_fail(err, "out of memory");
	for (k = 0; k < planes; k++)
		if (add_switches(p, f, k, err) || link_plane(p, f, k, err))
			goto fail;
	for (g = 0; g < p->groups; g++)
		for (r = 0; r < p->routers; r++)
			for (i = 0; i < p->hosts; i++) {
				long leaf = (long)g * p->routers + r;
				long idx = leaf * p->hosts + i;
				int h;

				snprintf(name, sizeof(name), "H_%ld_%d", leaf,
					 i);
				h = fabric_add_node(
					f, FAB_CA, name, NULL, hp,
					0x100000 + (uint64_t)idx *
							   (uint64_t)(hp + 1),
					err);
				if (h < 0)
					goto fail;
				for (k = 0; k < planes; k++)
					if (fabric_link(f, h, k + 1,
							sw_node(p, k, g, r),
							i + 1, err))
						goto fail;
			}
	*out = f;
	return 0;
fail:
	fabric_free(f);
	return -1;
}
