#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sar's SLs in OpenSM, on the ring of 5 switches where deadlock freedom
# needs two layers: every host pair's PathRecord (saquery) carries the SL
# that `osmre route -e sar` gives that path (from the net file, and from
# ibnetdiscover's output with the live LIDs; qos TRUE: without it sar
# keeps to one layer, sar_qos.sh), and the tables read back are
# deadlock-free with those SLs (cyclic on one VL).  deadlock_check 1:
# the plugin checks the pass itself on those SLs and logs it acyclic.
set -u
. "$(dirname "$0")/lib.sh"
NET=${OSMRE_TESTDATA:-tests/data}/ring5.net
osmre_conf "deadlock_check 1"
sim_start "$NET" || exit 1
ROUTING=sar,updn osm_start h0 "qos TRUE" || { ko "SUBNET UP"; exit 1; }
check "sar routed on 2 layers" grep -q "osmre: sar: .*2 virtual layer(s)" "$W/osm.log"
check "the plugin's deadlock check: acyclic on 2 VLs" \
	grep -q "osmre: sar: deadlock check: acyclic on 2 VL(s)" "$W/osm.log"
sleep 1
check "LFTs read back" read_lfts h2 "$W/ring.lfts"
"$OSMRE" route -e sar --topo "$NET" --lids "$W/ring.lfts" --sls "$W/offline.sls" \
	--out "$W/offline.lfts" 2>/dev/null
check "identical to osmre route -e sar" same_lfts "$W/ring.lfts" "$W/offline.lfts"
"$OSMRE" route -e sar --topo "$NET" --deadlock-check --out "$W/dc.lfts" 2>"$W/dc.err"
check "osmre route --deadlock-check: acyclic on 2 VLs" \
	grep -q "sar: deadlock check: acyclic on 2 VL(s)" "$W/dc.err"
# what an administrator has: ibnetdiscover's view of the fabric (another
# node and port order than the net file) and the live tables' LIDs
diag h2 ibnetdiscover >"$W/disc.net" 2>/dev/null
"$OSMRE" route -e sar --topo "$W/disc.net" --lids "$W/ring.lfts" --sls "$W/disc.sls" \
	--out "$W/disc.lfts" 2>/dev/null
check "from ibnetdiscover: the same tables" same_lfts "$W/ring.lfts" "$W/disc.lfts"
check "from ibnetdiscover: the same SLs" sh -c "grep '^path' '$W/offline.sls' | sort >'$W/a.sls' &&
	grep '^path' '$W/disc.sls' | sort >'$W/b.sls' && [ -s '$W/a.sls' ] && cmp -s '$W/a.sls' '$W/b.sls'"
lids=$(awk '/Channel Adapter/ { print $1 + 0 }' "$W/ring.lfts" | sort -un)
bad=0 n=0 up=0
for s in $lids; do
	for d in $lids; do
		[ "$s" = "$d" ] && continue
		want=$(awk -v s="$s" -v d="$d" '$1 == "path" && $2 == s && $3 == d { print $4 }' "$W/offline.sls")
		got=$(diag h2 saquery --src-to-dst "$s:$d" PR 2>/dev/null |
			awk '/^[ \t]*sl\.+/ { v = $0; sub(/.*\./, "", v); print v + 0 }')
		[ "${got:-x}" = "${want:-0}" ] || bad=$((bad + 1))
		[ "${want:-0}" != 0 ] && up=$((up + 1))
		n=$((n + 1))
	done
done
check "$n PathRecords carry sar's SLs ($up on layer 1, $bad wrong)" [ "$bad" -eq 0 ] && [ "$up" -gt 0 ]
"$OSMRE" analyze -q --rp 10 --no-updown --sl-file "$W/offline.sls" --topo "$NET" \
	--lfts "$W/ring.lfts" >"$W/a.out" 2>&1
check "deadlock-free with sar's SLs" grep -q "channel dependency graph acyclic" "$W/a.out"
"$OSMRE" analyze -q --rp 10 --no-updown --topo "$NET" --lfts "$W/ring.lfts" >"$W/b.out" 2>&1
check "a cycle on one VL" grep -q "CYCLE" "$W/b.out"
finish
