#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The analyzer on OpenSM's ftree tables for the shared SAR fixture blk216
# (3:1 blocking, fragmented jobs), read back from ibsim: the figures the
# fixtures' README gives for ftree, max effective EFI 111 and per-job
# average of maxima 50.67.  A script of its own: one ibsim per script.
set -u
. "$(dirname "$0")/lib.sh"

ftree_fixture blk216 || exit 1
check "blk216 under ftree: valid" grep -q "^validity: VALID" "$W/blk216.out"
check "blk216 under ftree: max effective EFI 111, average of job maxima 50.67" \
	grep -q "effective edge forwarding index max 111, per-job average of maxima 50.67," "$W/blk216.out"
finish
