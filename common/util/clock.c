/* SPDX-License-Identifier: BSD-2-Clause */
/* The monotonic clock (see clock.h). */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "clock.h"

double clock_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
