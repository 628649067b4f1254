/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A small seeded generator (xoshiro256** seeded by splitmix64) so that every
 * random choice of osmre is reproducible from a seed and never touches the
 * process-wide random() state that OpenSM uses.
 */
#ifndef OSMRE_RNG_H
#define OSMRE_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, 1). */
double rng_uniform(struct rng *r);
/* Uniform in [0, n), n > 0, without modulo bias. */
uint64_t rng_below(struct rng *r, uint64_t n);
/* perm[0..n-1] = a uniform permutation of 0..n-1 (Fisher-Yates, from the
 * last place down, one rng_below draw per place). */
void rng_permutation(struct rng *r, int *perm, int n);

#endif
