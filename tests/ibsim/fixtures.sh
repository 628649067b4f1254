#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The analyzer on OpenSM's own tables for the shared SAR fixture sar180:
# ftree on ibsim, tables read back with dump_fts; `osmre analyze --jobs`
# must find the figures measured for this fabric and job file (see the
# fixtures' README): max effective EFI 64, per-job average of maxima 56.67,
# dark fiber 0 %.
set -u
. "$(dirname "$0")/lib.sh"
DATA=${OSMRE_TESTDATA:-tests/data}

NET=$DATA/sar180.net
sim_start "$NET" || exit 1
ROUTING=ftree osm_start H_0_0 || { ko "SUBNET UP"; exit 1; }
sleep 1
check "LFTs read back" read_lfts H_1_1 "$W/sar180.lfts"
"$OSMRE" analyze --no-updown --rp 10 --topo "$NET" --lfts "$W/sar180.lfts" \
	--jobs "$DATA/sar180.jobs" >"$W/sar180.out" 2>&1
grep "^jobs:" "$W/sar180.out"
check "sar180 under ftree: max effective EFI 64, average of job maxima 56.67, no dark fiber" \
	grep -q "effective edge forwarding index max 64, per-job average of maxima 56.67, dark fiber 0.0 %" \
	"$W/sar180.out"
finish
