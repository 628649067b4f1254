#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The deadlock check on several VLs, with OpenSM's dfsssp on a ring of 5
# switches (one host each).  Its shortest paths go two hops either way
# round, so on one VL the clockwise routes h_i -> h_i+2 close a cycle of
# channel dependencies, which dfsssp breaks by giving paths different SLs.
# The tables are read back with dump_fts, each host pair's SL asked from
# the SA (saquery PathRecord), the SL-to-VL table from a switch (smpquery
# sl2vl): `osmre analyze` must find a cycle on one VL and none with the
# SL file.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../../bench/peer-check"
NET=${OSMRE_TESTDATA:-tests/data}/ring5.net

sim_start "$NET" || exit 1
# (bench/peer-check: qos TRUE, identity SL-to-VL, 8 VLs; dfsssp as
# configured, not fallen back or over its VLs)
ROUTING=dfsssp peer_osm_start h0 dfsssp 8 || { ko "SUBNET UP"; exit 1; }
check "dfsssp routed as configured ($(peer_read "$W/osm.log" dfsssp 8 | cut -d' ' -f3))" \
	[ "$(peer_read "$W/osm.log" dfsssp 8 | cut -d' ' -f4)" = 1 ]
sleep 1
check "LFTs read back" read_lfts h2 "$W/ring.lfts"
"$OSMRE" analyze -q --rp 10 --no-updown --topo "$NET" --lfts "$W/ring.lfts" >"$W/one.out" 2>&1
rc=$?
cat "$W/one.out"
check "one VL: a cycle, exit 1" [ "$rc" -eq 1 ]
check "one VL: the cycle is printed" grep -q "CYCLE in the channel dependency graph: \"R" "$W/one.out"

# the SL of every host pair, from the SA
lids=$(awk '/Channel Adapter/ { print $1 + 0 }' "$W/ring.lfts" | sort -un)
swlid=$(awk '/Switch portguid/ { print $1 + 0; exit }' "$W/ring.lfts")
: >"$W/sls"
for s in $lids; do
	for d in $lids; do
		[ "$s" = "$d" ] && continue
		sl=$(diag h2 saquery --src-to-dst "$s:$d" PR 2>/dev/null |
			awk '/^[ \t]*sl\.+/ { v = $0; sub(/.*\./, "", v); print v + 0 }')
		echo "path $s $d ${sl:-?}" >>"$W/sls"
	done
done
diag h2 smpquery sl2vl "$swlid" 2>/dev/null |
	awk -F'|' '/in  0, out  0/ { printf "sl2vl"; for (i = 2; i <= 17; i++) printf " %d", $i; print "" }' >>"$W/sls"
cat "$W/sls"
check "20 path SLs and an SL-to-VL table" [ "$(grep -c '^path [0-9]* [0-9]* [0-9]*$' "$W/sls")" -eq 20 ] &&
	[ "$(grep -c '^sl2vl' "$W/sls")" -eq 1 ]
check "dfsssp uses several SLs" [ "$(awk '/^path/ { print $4 }' "$W/sls" | sort -u | wc -l)" -ge 2 ]
"$OSMRE" analyze -q --rp 10 --no-updown --sl-file "$W/sls" --topo "$NET" --lfts "$W/ring.lfts" >"$W/vls.out" 2>&1
rc=$?
cat "$W/vls.out"
check "with the SLs: acyclic, exit 0" [ "$rc" -eq 0 ]
check "with the SLs: several VLs" grep -q "deadlock freedom (SLs from $W/sls, [2-9] VLs): channel dependency graph acyclic" "$W/vls.out"
finish
