#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sar against OpenSM's dfsssp on a degraded tree, measured the same way:
# PGFT(2;18,10;1,18) with 20 links removed (osmre gen, seed 5) and one
# job of 162 hosts (bench/sar-jobs.sh's mix 5, the case where sar once
# reached 246 against dfsssp's 242).  dfsssp routes inside OpenSM on ibsim,
# its tables are read back with dump_fts; sar routes offline with the
# fabric's LIDs; `osmre analyze` gives both max effective EFIs.  sar's
# must not be higher.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../../bench/peer-check"
DATA=${OSMRE_TESTDATA:-tests/data}
NET=$W/deg180.net
JOBS=$DATA/deg180-mix5.jobs
"$OSMRE" gen pgft 2 18,10 1,18 --remove-links 20 --seed 5 -o "$NET" 2>/dev/null ||
	{ ko "gen"; exit 1; }
sim_start "$NET" || exit 1
# (bench/peer-check: qos TRUE, identity SL-to-VL, 8 VLs; dfsssp as
# configured, not fallen back or over its VLs)
ROUTING=dfsssp peer_osm_start H_0_0 dfsssp 8 || { ko "SUBNET UP"; exit 1; }
check "dfsssp routed as configured ($(peer_read "$W/osm.log" dfsssp 8 | cut -d' ' -f3))" \
	[ "$(peer_read "$W/osm.log" dfsssp 8 | cut -d' ' -f4)" = 1 ]
sleep 1
check "dfsssp's tables read back" read_lfts H_1_1 "$W/dfsssp.lfts"
# efi LFTS: the max effective EFI of the tables for the job
efi() {
	"$OSMRE" analyze -q --rp 1 --no-updown --jobs "$JOBS" --topo "$NET" \
		--lfts "$1" 2>/dev/null |
		sed -n 's/.*effective edge forwarding index max \([0-9]*\),.*/\1/p'
}
d=$(efi "$W/dfsssp.lfts")
"$OSMRE" route -e sar --jobs "$JOBS" --topo "$NET" --lids "$W/dfsssp.lfts" \
	--out "$W/sar.lfts" 2>"$W/sar.err"
cat "$W/sar.err"
s=$(efi "$W/sar.lfts")
echo "max effective EFI: OpenSM dfsssp ${d:-?}, sar ${s:-?}"
no_higher() { [ -n "$d" ] && [ -n "$s" ] && [ "$s" -le "$d" ]; }
check "sar's max effective EFI no higher than dfsssp's" no_higher
finish
