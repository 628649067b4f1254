/* SPDX-License-Identifier: BSD-2-Clause */
/* The clocks of osmre: the monotonic one for timing and timeouts, and the
 * realtime deadlines pthread_cond_timedwait() takes. */
#ifndef OSMRE_CLOCK_H
#define OSMRE_CLOCK_H

#include <time.h>

/* Seconds on CLOCK_MONOTONIC (never jumps with the wall clock). */
double clock_mono(void);
/* CLOCK_REALTIME now + s (s >= 0): a pthread_cond_timedwait deadline. */
struct timespec clock_deadline(double s);

#endif
