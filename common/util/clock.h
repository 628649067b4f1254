/* SPDX-License-Identifier: BSD-2-Clause */
/* The one monotonic clock of osmre: seconds, for timing and timeouts. */
#ifndef OSMRE_CLOCK_H
#define OSMRE_CLOCK_H

/* Seconds on CLOCK_MONOTONIC (never jumps with the wall clock). */
double clock_mono(void);

#endif
