#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# A production fat tree inside OpenSM: a 3-level PGFT(3;4,4,4;1,4,4) of
# 64 hosts with a SHARP aggregation node on every switch (48, `osmre
# degrade --with aggregation`), routing_engine dmodc,updn:
#  - dmodc routes it (its log line, no refusal), routing the tree of the
#    compute CAs and the aggregation nodes apart;
#  - the plugin says at error level that updn after dmodc would not be
#    deadlock-free there (no root_guid_file);
#  - the tables read back with dump_fts are valid, acyclic on one VL,
#    identical to `osmre route -e dmodc`, and the compute hosts' A2A, SP
#    and RP equal those of dmodc on the tree without the aggregation
#    nodes.
set -u
. "$(dirname "$0")/lib.sh"

PLAIN=$W/plain.net
NET=$W/sharp.net
"$OSMRE" gen pgft 3 4,4,4 1,4,4 -o "$PLAIN" 2>/dev/null || { ko "gen"; exit 1; }
"$OSMRE" degrade "$PLAIN" --with aggregation -o "$NET" 2>/dev/null ||
	{ ko "degrade --with aggregation"; exit 1; }
osmre_conf "hops_background 0" "deadlock_check 1"
sim_start "$NET" || exit 1
ROUTING=dmodc,updn osm_start H_0_0 || { ko "SUBNET UP"; exit 1; }
check "dmodc routed" grep -q "dmodc tables configured on all switches" "$W/osm.log"
check "no refusal" sh -c "! grep -q 'fabric not routable' '$W/osm.log'"
check "the tree of the compute CAs logged" grep -q \
	"dmodc: routed the tree of the compute CAs: 64 compute CA(s) on 16 leaf switch(es) (0 without hosts), 48 other CA(s) (48 aggregation node(s))" "$W/osm.log"
check "the pass checked acyclic" grep -q "osmre: dmodc: .*acyclic" "$W/osm.log"
check "a deadlock-prone fallback said at error level" grep -q \
	"osmre ERR: routing_engine dmodc,updn: when dmodc refuses a fabric, OpenSM routes it with updn, which can deadlock" "$W/osm.log"
sleep 1
check "LFTs read back" read_lfts H_15_3 "$W/fabric.lfts"
"$OSMRE" route -e dmodc --topo "$NET" --lids "$W/fabric.lfts" \
	--out "$W/offline.lfts" 2>/dev/null
check "fabric LFTs identical to osmre route -e dmodc" same_lfts "$W/fabric.lfts" "$W/offline.lfts"
"$OSMRE" analyze -q --rp 100 --no-updown --order compute --topo "$NET" \
	--lfts "$W/fabric.lfts" >"$W/sharp.out" 2>&1
cat "$W/sharp.out"
check "valid" grep -q "^validity: VALID" "$W/sharp.out"
check "acyclic on one VL" grep -q "deadlock freedom (one VL): channel dependency graph acyclic" "$W/sharp.out"
"$OSMRE" route -e dmodc --topo "$PLAIN" --out "$W/plain.lfts" 2>/dev/null
"$OSMRE" analyze -q --rp 100 --order compute --topo "$PLAIN" \
	--lfts "$W/plain.lfts" >"$W/plain.out" 2>&1
risk() { sed -n 's/.*(A2A) \([0-9]*\).*(SP, max of [0-9]*) \([0-9]*\).*) \([0-9]*\)$/\1 \2 \3/p' "$1"; }
echo "compute A2A SP RP: with aggregation nodes $(risk "$W/sharp.out"), without $(risk "$W/plain.out")"
check "compute A2A/SP/RP as without aggregation nodes" \
	test "$(risk "$W/sharp.out")" = "$(risk "$W/plain.out")" -a -n "$(risk "$W/plain.out")"
finish
