/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What OpenSM's hop tables cost on a first pass, without OpenSM: N switches
 * times N switch LIDs, one malloc()ed array of 37 bytes each, filled as
 * osm_switch_set_hops() does (memset to "no path", one port's count, the
 * least count in entry 0), on T threads; then the same again over the
 * arrays that now exist (a re-route).  bench/README.md, "The first pass
 * with huge pages".  Not built by make:
 *   cc -O2 -pthread bench/hop_arrays.c -o hop_arrays
 *   ./hop_arrays 6804 1
 *   GLIBC_TUNABLES=glibc.malloc.hugetlb=1:glibc.malloc.top_pad=67108864 \
 *       ./hop_arrays 6804 1
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int n, nth;
static unsigned char ***hops;

static void *fill(void *arg)
{
	long t = (long)arg;
	int i, j;

	for (i = (int)t; i < n; i += nth) {
		unsigned char **h = hops[i];

		for (j = 1; j <= n; j++) {
			if (!h[j]) {
				h[j] = malloc(37);
				if (!h[j])
					abort();
				memset(h[j], 0xff, 37);
			}
			h[j][j % 36 + 1] = 3;
			if (h[j][0] > 3)
				h[j][0] = 3;
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[64];
	struct timespec a, b;
	int i, r;
	long t;

	if (argc != 3 || (n = atoi(argv[1])) < 1 || (nth = atoi(argv[2])) < 1 ||
	    nth > 64) {
		fprintf(stderr, "usage: hop_arrays SWITCHES THREADS (1..64)\n");
		return 2;
	}
	hops = malloc(sizeof(*hops) * (size_t)n);
	for (i = 0; hops && i < n; i++)
		if (!(hops[i] = calloc((size_t)n + 1, sizeof(**hops))))
			return 1;
	if (!hops)
		return 1;
	for (r = 0; r < 2; r++) {
		clock_gettime(CLOCK_MONOTONIC, &a);
		for (t = 0; t < nth; t++)
			pthread_create(&th[t], NULL, fill, (void *)t);
		for (t = 0; t < nth; t++)
			pthread_join(th[t], NULL);
		clock_gettime(CLOCK_MONOTONIC, &b);
		printf("%s: %.3f s\n",
		       r ? "again (arrays exist)" : "first (allocating)",
		       (double)(b.tv_sec - a.tv_sec) +
			       (double)(b.tv_nsec - a.tv_nsec) / 1e9);
	}
	return 0;
}
