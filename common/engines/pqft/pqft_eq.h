/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pqft's port equations (QFT paper section IV), inline for the routing
 * loops of pqft.c and the fault handling of pqft_faults.c alike.
 */
#ifndef OSMRE_PQFT_EQ_H
#define OSMRE_PQFT_EQ_H

#include "pqft.h"

/* eq. (14): the cross-connected parent the flows to d took two levels
 * below the merge level l */
static inline int pqft_cross_u(const struct pqft *q, int l, long d)
{
	const struct pgft_params *t = &q->t;

	return (int)((d / q->R[l - 2]) % ((long)t->w[l - 1] * t->p[l - 1]) /
		     t->w[l - 1]);
}

/* eq. (10), eq. (9b) for a PGFT: host dst below switch sw */
static inline int pqft_descends(const struct pqft *q, int sw, int dst)
{
	const struct pgft_params *t = &q->t;
	const uint8_t *s = q->dig[sw], *dd = q->dig[dst];
	int l = q->level[sw], i, pl = t->qft ? t->p[l] : 1;

	for (i = l + 2; i <= t->h; i++)
		if (s[i] != dd[i])
			return 0;
	return l >= t->h || s[l + 1] / pl == dd[l + 1] / pl;
}

/* The logical down-port of a level-l switch towards host dst, index d. */
static inline int pqft_down_port(const struct pqft *q, int l, int dst, long d)
{
	const struct pgft_params *t = &q->t;
	const uint8_t *dd = q->dig[dst];

	if (t->qft && q->cross && l == q->cross + 1) /* eq. (17) */
		return dd[l] / t->p[l - 1] * t->p[l - 1] +
		       pqft_cross_u(q, l, d);
	if (t->p[l] > 1 && t->qft) /* eq. (18), l < h */
		return dd[l] + t->m[l] * (dd[l + 1] % t->p[l]);
	if (t->p[l] > 1) /* eq. (16) */
		return dd[l] + t->m[l] * (int)((d / q->R[l]) % t->p[l]);
	return dd[l];
}

/* The logical up-port of a level-l switch towards index d. */
static inline int pqft_up_port(const struct pqft *q, int l, long d)
{
	const struct pgft_params *t = &q->t;
	long up = (long)t->w[l + 1] * t->p[l + 1];

	if (t->qft && q->cross && l == q->cross + 1) /* eq. (15) */
		return (int)((d / q->R[l] * t->p[l - 1] +
			      pqft_cross_u(q, l, d)) %
			     up);
	return (int)(d / q->R[l] % up); /* eq. (13) */
}

/* The closed-form choice of switch sw towards host dst routed as index d:
 * a logical down-port (*down = 1) or up-port (eq. 10-18). */
static inline int pqft_preferred(const struct pqft *q, int sw, int dst, long d,
				 int *down)
{
	int l = q->level[sw];

	*down = pqft_descends(q, sw, dst);
	return *down ? pqft_down_port(q, l, dst, d) : pqft_up_port(q, l, d);
}

#endif
