/* SPDX-License-Identifier: BSD-2-Clause */
#include "lft_hops.h"

#define UNKNOWN (-2)
#define VISITING (-3)

/* Hops of switch u when its next hop is known or final; memoized. */
void lft_hops(const struct fabric *f, const struct lft_set *s, unsigned lid,
	      int dn, int dp, int16_t *hops, int *stack)
{
	int i, u;

	for (i = 0; i < f->nnodes; i++)
		hops[i] = UNKNOWN;
	for (u = 0; u < f->nnodes; u++) {
		int n = 0, cur = u, res;

		if (f->nodes[u].type != FAB_SWITCH || hops[u] != UNKNOWN)
			continue;
		/* follow the route until a known switch or an end */
		for (;;) {
			const struct lft *t = lft_of_node(s, cur);
			const struct fab_port *pt;
			int port = t ? lft_get(t, lid) : LFT_NONE;

			if (hops[cur] >= LFT_HOPS_NONE) {
				res = hops[cur] == LFT_HOPS_NONE ? LFT_HOPS_NONE
								 : hops[cur] + 1;
				break;
			}
			if (hops[cur] == VISITING) {
				res = LFT_HOPS_NONE;	/* loop */
				break;
			}
			hops[cur] = VISITING;
			stack[n++] = cur;
			if (port == 0 && cur == dn) {
				res = 0;
				break;
			}
			if (port == LFT_NONE || port == 0 ||
			    port > f->nodes[cur].nports) {
				res = LFT_HOPS_NONE;
				break;
			}
			pt = &f->nodes[cur].ports[port];
			if (pt->rnode == dn && pt->rport == dp) {
				res = 1;
				break;
			}
			if (pt->rnode < 0 || f->nodes[pt->rnode].type != FAB_SWITCH) {
				res = LFT_HOPS_NONE;
				break;
			}
			cur = pt->rnode;
		}
		/* res is the value of the last stacked switch */
		for (i = n - 1; i >= 0; i--) {
			hops[stack[i]] = (int16_t)res;
			if (res != LFT_HOPS_NONE)
				res++;
		}
	}
}
