/* SPDX-License-Identifier: BSD-2-Clause */
/* The clocks (see clock.h). */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "clock.h"

double clock_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct timespec clock_deadline(double s)
{
	struct timespec ts;
	time_t whole = (time_t)s;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += whole;
	ts.tv_nsec += (long)((s - (double)whole) * 1e9);
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return ts;
}
