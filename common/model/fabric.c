/* SPDX-License-Identifier: BSD-2-Clause */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fabric.h"

static uint64_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ULL;
	}
	return h;
}

struct fabric *fabric_new(void)
{
	return calloc(1, sizeof(struct fabric));
}

static void node_release(struct fab_node *n)
{
	free(n->name);
	free(n->desc);
	free(n->ports);
}

void fabric_free(struct fabric *f)
{
	int i;

	if (!f)
		return;
	for (i = 0; i < f->nnodes; i++)
		node_release(&f->nodes[i]);
	free(f->nodes);
	free(f->hash);
	free(f);
}

static size_t hash_slot(const struct fabric *f, const char *name)
{
	size_t mask = f->hash_size - 1, i = name_hash(name) & mask;

	while (f->hash[i] >= 0 && strcmp(f->nodes[f->hash[i]].name, name))
		i = (i + 1) & mask;
	return i;
}

/* The hash from the nodes' names, in place. */
static void hash_rebuild(struct fabric *f)
{
	size_t i;
	int n;

	for (i = 0; i < f->hash_size; i++)
		f->hash[i] = -1;
	for (n = 0; n < f->nnodes && f->hash_size; n++)
		f->hash[hash_slot(f, f->nodes[n].name)] = n;
}

static int hash_grow(struct fabric *f)
{
	size_t size = f->hash_size ? f->hash_size * 2 : 64, i;
	int32_t *old = f->hash;
	int n;

	f->hash = malloc(size * sizeof(*f->hash));
	if (!f->hash) {
		f->hash = old;
		return -1;
	}
	for (i = 0; i < size; i++)
		f->hash[i] = -1;
	f->hash_size = size;
	free(old);
	for (n = 0; n < f->nnodes; n++)
		f->hash[hash_slot(f, f->nodes[n].name)] = n;
	return 0;
}

int fabric_rename(struct fabric *f, const char *const *names,
		  struct osmre_err *err)
{
	char **old = calloc((size_t)f->nnodes + 1, sizeof(char *));
	int n, rc = 0;

	if (!old)
		return osmre_fail(err, "out of memory");
	for (n = 0; n < f->nnodes; n++) {
		char *c;

		old[n] = f->nodes[n].name;
		if (!names[n])
			continue;
		if (!(c = strdup(names[n]))) {
			rc = osmre_fail(err, "out of memory");
			break;
		}
		f->nodes[n].name = c;
	}
	/* the hash again, by the new names; a name twice undoes it all */
	hash_rebuild(f);
	for (n = 0; !rc && n < f->nnodes; n++)
		if (fabric_find(f, f->nodes[n].name) != n)
			rc = osmre_fail(
				err,
				"two nodes would be named \"%s\" (0x%016" PRIx64
				" and 0x%016" PRIx64 ")",
				f->nodes[n].name,
				f->nodes[fabric_find(f, f->nodes[n].name)].guid,
				f->nodes[n].guid);
	for (n = 0; n < f->nnodes; n++) {
		if (f->nodes[n].name == old[n])
			continue;
		if (rc) {
			free(f->nodes[n].name);
			f->nodes[n].name = old[n];
		} else {
			free(old[n]);
		}
	}
	if (rc)
		hash_rebuild(f);
	free(old);
	return rc;
}

int fabric_find(const struct fabric *f, const char *name)
{
	if (!f->hash_size)
		return -1;
	return f->hash[hash_slot(f, name)];
}

/* First word of a description. */
static size_t word_len(const char *s)
{
	size_t n = 0;

	while (s[n] && !isspace((unsigned char)s[n]))
		n++;
	return n;
}

static int host_is(const struct fab_node *nd, const char *name, size_t n)
{
	return nd->type != FAB_SWITCH && !nd->removed &&
	       word_len(nd->desc) == n && !strncmp(nd->desc, name, n);
}

int fabric_find_host(const struct fabric *f, const char *name)
{
	size_t n = strlen(name);
	int i = fabric_find(f, name);

	/* ibsim names nodes by their descriptions: the hash finds most */
	if (i >= 0 && host_is(&f->nodes[i], name, n))
		return i;
	for (i = 0; i < f->nnodes; i++)
		if (host_is(&f->nodes[i], name, n))
			return i;
	i = fabric_find(f, name);
	return i >= 0 && f->nodes[i].type != FAB_SWITCH &&
			       !f->nodes[i].removed ?
		       i :
		       -1;
}

int fabric_add_port(struct fabric *f, int n, struct osmre_err *err)
{
	struct fab_node *nd = &f->nodes[n];
	struct fab_port *ports;
	int p = nd->nports + 1;

	if (p > FAB_MAX_PORTS)
		return osmre_fail(err, "node \"%s\": no room for port %d",
				  nd->name, p);
	ports = realloc(nd->ports, ((size_t)p + 1) * sizeof(*ports));
	if (!ports)
		return osmre_fail(err, "out of memory");
	nd->ports = ports;
	memset(&ports[p], 0, sizeof(ports[p]));
	ports[p].rnode = -1;
	ports[p].guid = nd->type == FAB_SWITCH ? nd->guid : nd->guid + p;
	nd->nports = p;
	return p;
}

int fabric_add_node(struct fabric *f, int type, const char *name,
		    const char *desc, int nports, uint64_t guid,
		    struct osmre_err *err)
{
	struct fab_node *n;
	int p;

	if (nports < 1 || nports > FAB_MAX_PORTS)
		return osmre_fail(err, "node \"%s\": %d ports (expected 1..%d)",
				  name, nports, FAB_MAX_PORTS);
	if (fabric_find(f, name) >= 0)
		return osmre_fail(err, "duplicate node name \"%s\"", name);
	if ((size_t)(f->nnodes + 1) * 2 > f->hash_size && hash_grow(f))
		return osmre_fail(err, "out of memory");
	if (f->nnodes == f->cap) {
		int cap = f->cap ? f->cap * 2 : 64;
		struct fab_node *nodes =
			realloc(f->nodes, (size_t)cap * sizeof(*nodes));

		if (!nodes)
			return osmre_fail(err, "out of memory");
		f->nodes = nodes;
		f->cap = cap;
	}
	n = &f->nodes[f->nnodes];
	memset(n, 0, sizeof(*n));
	n->type = type;
	n->nports = nports;
	n->guid = guid;
	n->name = strdup(name);
	n->desc = strdup(desc && *desc ? desc : name);
	n->ports = calloc((size_t)nports + 1, sizeof(*n->ports));
	if (!n->name || !n->desc || !n->ports) {
		node_release(n);
		return osmre_fail(err, "out of memory");
	}
	for (p = 0; p <= nports; p++) {
		n->ports[p].rnode = -1;
		n->ports[p].guid = type == FAB_SWITCH ? guid : guid + p;
	}
	f->hash[hash_slot(f, name)] = f->nnodes;
	return f->nnodes++;
}

int fabric_link(struct fabric *f, int a, int ap, int b, int bp,
		struct osmre_err *err)
{
	struct fab_node *na = &f->nodes[a], *nb = &f->nodes[b];

	if (ap < 1 || ap > na->nports)
		return osmre_fail(err, "port %d of \"%s\" out of range 1..%d",
				  ap, na->name, na->nports);
	if (bp < 1 || bp > nb->nports)
		return osmre_fail(err, "port %d of \"%s\" out of range 1..%d",
				  bp, nb->name, nb->nports);
	if (a == b && ap == bp)
		return osmre_fail(err, "port %d of \"%s\" linked to itself", ap,
				  na->name);
	if (na->ports[ap].rnode >= 0 || nb->ports[bp].rnode >= 0)
		return osmre_fail(err,
				  "\"%s\"[%d] or \"%s\"[%d] already linked",
				  na->name, ap, nb->name, bp);
	na->ports[ap].rnode = b;
	na->ports[ap].rport = (uint8_t)bp;
	nb->ports[bp].rnode = a;
	nb->ports[bp].rport = (uint8_t)ap;
	return 0;
}

void fabric_unlink(struct fabric *f, int a, int ap)
{
	struct fab_port *pa = &f->nodes[a].ports[ap];

	if (pa->rnode < 0)
		return;
	f->nodes[pa->rnode].ports[pa->rport].rnode = -1;
	pa->rnode = -1;
	pa->rport = 0;
}

void fabric_remove_node(struct fabric *f, int n)
{
	int p;

	for (p = 1; p <= f->nodes[n].nports; p++)
		fabric_unlink(f, n, p);
	f->nodes[n].removed = 1;
}

struct fabric *fabric_clone(const struct fabric *f)
{
	struct fabric *c = fabric_new();
	int i;

	if (!c)
		return NULL;
	for (i = 0; i < f->nnodes; i++) {
		const struct fab_node *n = &f->nodes[i];

		if (fabric_add_node(c, n->type, n->name, n->desc, n->nports,
				    n->guid, NULL) < 0) {
			fabric_free(c);
			return NULL;
		}
		memcpy(c->nodes[i].ports, n->ports,
		       ((size_t)n->nports + 1) * sizeof(*n->ports));
		c->nodes[i].removed = n->removed;
	}
	return c;
}

struct fabric *fabric_reorder(const struct fabric *f, const int *order)
{
	struct fabric *c = fabric_new();
	int *pos = malloc(((size_t)f->nnodes + 1) * sizeof(int));
	int k, p;

	if (!c || !pos)
		goto fail;
	for (k = 0; k < f->nnodes; k++)
		pos[order[k]] = k;
	for (k = 0; k < f->nnodes; k++) {
		const struct fab_node *n = &f->nodes[order[k]];
		struct fab_port *q;

		if (fabric_add_node(c, n->type, n->name, n->desc, n->nports,
				    n->guid, NULL) < 0)
			goto fail;
		q = c->nodes[k].ports;
		memcpy(q, n->ports, ((size_t)n->nports + 1) * sizeof(*q));
		for (p = 0; p <= n->nports; p++)
			if (q[p].rnode >= 0)
				q[p].rnode = pos[q[p].rnode];
		c->nodes[k].removed = n->removed;
	}
	free(pos);
	return c;
fail:
	free(pos);
	fabric_free(c);
	return NULL;
}

const char *fab_type_name(int type)
{
	switch (type) {
	case FAB_CA:
		return "Channel Adapter";
	case FAB_SWITCH:
		return "Switch";
	case FAB_ROUTER:
		return "Router";
	default:
		return "Unknown";
	}
}

void fabric_count(const struct fabric *f, struct fab_counts *c)
{
	int i, p;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < f->nnodes; i++) {
		const struct fab_node *n = &f->nodes[i];

		if (n->removed)
			continue;
		if (n->type == FAB_SWITCH)
			c->switches++;
		else if (n->type == FAB_CA)
			c->cas++;
		else
			c->routers++;
		for (p = 1; p <= n->nports; p++) {
			const struct fab_port *pt = &n->ports[p];
			int rtype;

			if (pt->rnode < 0)
				continue;
			rtype = f->nodes[pt->rnode].type;
			if (n->type != FAB_SWITCH) {
				c->ca_ports++;
				continue;
			}
			if (rtype != FAB_SWITCH)
				c->ca_links++;
			else if (pt->rnode > i ||
				 (pt->rnode == i && pt->rport > p))
				c->sw_links++;
		}
	}
}

static int guid_cmp(const void *a, const void *b)
{
	const struct guid_ent *x = a, *y = b;

	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

int guid_map_build(const struct fabric *f, struct guid_map *m,
		   struct osmre_err *err)
{
	size_t n = 0;
	int i, p;

	for (i = 0; i < f->nnodes; i++)
		n += f->nodes[i].type == FAB_SWITCH ? 1 :
						      1 + f->nodes[i].nports;
	m->e = malloc((n ? n : 1) * sizeof(*m->e));
	if (!m->e)
		return osmre_fail(err, "out of memory");
	m->n = 0;
	for (i = 0; i < f->nnodes; i++) {
		const struct fab_node *nd = &f->nodes[i];

		m->e[m->n++] = (struct guid_ent){ nd->guid, i, 0 };
		if (nd->type == FAB_SWITCH)
			continue;
		for (p = 1; p <= nd->nports; p++)
			m->e[m->n++] =
				(struct guid_ent){ nd->ports[p].guid, i, p };
	}
	qsort(m->e, m->n, sizeof(*m->e), guid_cmp);
	return 0;
}

const struct guid_ent *guid_map_find(const struct guid_map *m, uint64_t guid)
{
	struct guid_ent key = { guid, 0, 0 };

	return bsearch(&key, m->e, m->n, sizeof(*m->e), guid_cmp);
}

void guid_map_free(struct guid_map *m)
{
	free(m->e);
	m->e = NULL;
	m->n = 0;
}

static uint64_t fnv(uint64_t h, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++) {
		h ^= (v >> (8 * i)) & 0xff;
		h *= 0x100000001b3ull;
	}
	return h;
}

uint64_t fabric_signature(const struct fabric *f)
{
	uint64_t h = 0xcbf29ce484222325ull;
	int i, p;

	for (i = 0; i < f->nnodes; i++) {
		const struct fab_node *n = &f->nodes[i];

		h = fnv(h, (uint64_t)n->type << 32 | (uint64_t)n->nports << 8 |
				   (uint64_t)n->removed);
		h = fnv(h, n->guid);
		for (p = 0; p <= n->nports; p++) {
			const struct fab_port *pt = &n->ports[p];

			h = fnv(h, (uint64_t)(uint32_t)pt->rnode << 32 |
					   (uint64_t)pt->rport << 24 |
					   (uint64_t)pt->lmc << 16 | pt->lid);
		}
	}
	return h;
}
