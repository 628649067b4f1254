/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A cycle in a directed graph, by an iterative depth-first search: the
 * deadlock checks of the analyzer (cdg.c) and of sar's layering (sar.c).
 * Vertex v's out-edges sit at positions first[v] .. first[v + 1] - 1;
 * head(ctx, pos) gives the vertex an edge leads to, or -1 for an edge to
 * ignore.  color[] (0 unseen, 1 on the stack, 2 done) persists between
 * calls, so that a caller that removes edges after a cycle can search
 * again without going over the vertices already done: it then clears the
 * colour of the vertices left on the stack.
 */
#ifndef OSMRE_CYCLE_H
#define OSMRE_CYCLE_H

#include <stdint.h>

struct cycle {
	long top; /* stack[0 .. top) was the search's path */
	long len; /* the cycle: stack[top - len .. top) */
};

/*
 * Returns 1 with a cycle in c, 0 when none is reachable.  The edge from
 * stack[k] to stack[k + 1] of the cycle is at position it[stack[k]] - 1;
 * the one closing it, from stack[top - 1], at it[stack[top - 1]] - 1.
 * stack and it have room for n entries.
 */
int cycle_find(long n, const long *first, long (*head)(void *ctx, long pos),
	       void *ctx, uint8_t *color, long *stack, long *it,
	       struct cycle *c);

#endif
