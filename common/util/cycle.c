/* SPDX-License-Identifier: BSD-2-Clause */
#include "cycle.h"

int cycle_find(long n, const long *first, long (*head)(void *ctx, long pos),
	       void *ctx, uint8_t *color, long *stack, long *it,
	       struct cycle *c)
{
	long root;

	for (root = 0; root < n; root++) {
		long top = 0;

		if (color[root])
			continue;
		stack[top++] = root;
		color[root] = 1;
		it[root] = first[root];
		while (top) {
			long cur = stack[top - 1], nx, k;

			if (it[cur] == first[cur + 1]) {
				color[cur] = 2;
				top--;
				continue;
			}
			nx = head(ctx, it[cur]++);
			if (nx < 0 || color[nx] == 2)
				continue;
			if (!color[nx]) {
				color[nx] = 1;
				it[nx] = first[nx];
				stack[top++] = nx;
				continue;
			}
			/* back to nx, on the stack: nx .. cur is a cycle */
			for (k = top - 1; stack[k] != nx; k--)
				;
			c->top = top;
			c->len = top - k;
			return 1;
		}
	}
	return 0;
}
