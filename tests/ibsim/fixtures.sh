#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The analyzer on OpenSM's own tables for the shared SAR fixture sar180,
# a complete 2-level fat tree: ftree on ibsim, tables read back with
# dump_fts.  `osmre analyze` must find them valid and up-down, with shift
# permutations free of congestion (SP = 1), and the job figures measured
# for this fabric and job file (see the fixtures' README): max effective
# EFI 64, per-job average of maxima 56.67, dark fiber 0 %.
set -u
. "$(dirname "$0")/lib.sh"

ftree_fixture sar180 || exit 1
O=$W/sar180.out
check "sar180 under ftree: valid and up-down" grep -q "^validity: VALID: CA pairs 32220, unreachable 0, loops 0, not up-down 0;" "$O"
check "sar180 under ftree: SP = 1" grep -q "shift permutations (SP, max of 179) 1," "$O"
check "sar180 under ftree: deadlock free on one VL" grep -q "channel dependency graph acyclic" "$O"
check "sar180 under ftree: max effective EFI 64, average of job maxima 56.67, no dark fiber" \
	grep -q "effective edge forwarding index max 64, per-job average of maxima 56.67, dark fiber 0.0 %" "$O"
finish
