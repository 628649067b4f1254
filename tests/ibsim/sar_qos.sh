#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sar's layers and OpenSM's qos, on the ring of 5 switches where
# deadlock freedom needs two layers.  OpenSM programs SL-to-VL tables
# only with qos TRUE (ibsim's switches keep an identity table, which
# would hide a missing mapping), so:
#  - qos off: sar routes on one layer (what does not fit goes
#    up*/down*), says so at error level with the fix, and `osmre status`
#    shows it; every PathRecord carries SL 0, OpenSM's SL-to-VL dump
#    maps every SL to VL 0, and the tables are deadlock-free on one VL;
#  - qos on: two layers, PathRecords with SL 1 for some pairs, and the
#    SL-to-VL tables OpenSM programs (its dump, and smpquery sl2vl on a
#    switch) put SL 1 on VL 1;
#  - update_protocol 1 with qos off: the protocol is off, said at error
#    level.
set -u
. "$(dirname "$0")/lib.sh"
NET=${OSMRE_TESTDATA:-tests/data}/ring5.net
osmre_conf
sim_start "$NET" || exit 1

# path_sls: the SL of every host pair's PathRecord, "s d sl" lines
path_sls() {
	lids=$(awk '/Channel Adapter/ { print $1 + 0 }' "$W/ring.lfts" | sort -un)
	for s in $lids; do
		for d in $lids; do
			[ "$s" = "$d" ] && continue
			sl=$(diag h2 saquery --src-to-dst "$s:$d" PR 2>/dev/null |
				awk '/^[ \t]*sl\.+/ { v = $0; sub(/.*\./, "", v); print v + 0 }')
			echo "$s $d ${sl:-x}"
		done
	done
}

# sl2vl_dump_vl SL: the VLs OpenSM's opensm-sl2vl.dump gives SL on every
# switch port pair, one per line, sorted unique (the dump: a "Switch"
# line per switch, then "<in> <out> : <VL of SL 0> ... <VL of SL 15>")
sl2vl_dump_vl() {
	awk -v c=$(($1 + 4)) '/^[0-9]+ +[0-9]+ +:/ { print $c }' \
		"$W/dump/opensm-sl2vl.dump" | sort -u
}

ROUTING=sar,updn osm_start h0 || { ko "SUBNET UP (qos off)"; exit 1; }
check "qos off: sar's tables" grep -q "sar tables configured on all switches" "$W/osm.log"
check "qos off: one layer" grep -q "osmre: sar: 1 virtual layer(s)" "$W/osm.log"
check "qos off: said at error level, with the fix" \
	grep -q "osmre ERR: sar: qos is off in opensm.conf .* routed on one layer, [0-9]* destination LID(s) that did not fit .*; set qos TRUE" "$W/osm.log"
"$OSMRE" status --pid "$OSM_PID" >"$W/status.out" 2>&1
OSM_CACHE_DIR=$W/cache "$OSMRE" status --pid "$OSM_PID" >"$W/status.out" 2>&1
cat "$W/status.out"
check "qos off: osmre status says it" grep -q "qos is off in opensm.conf" "$W/status.out"
sleep 1
check "qos off: LFTs read back" read_lfts h2 "$W/ring.lfts"
path_sls >"$W/sls.off"
check "qos off: every PathRecord on SL 0" [ "$(awk '{ print $3 }' "$W/sls.off" | sort -u)" = 0 ]
"$OSMRE" analyze -q --rp 10 --no-updown --topo "$NET" --lfts "$W/ring.lfts" >"$W/off.out" 2>&1
check "qos off: deadlock-free on one VL" grep -q "(one VL): channel dependency graph acyclic" "$W/off.out"
check "qos off: OpenSM's SL-to-VL dump has SL 1 on VL 0 only" [ "$(sl2vl_dump_vl 1)" = 0 ]
osm_stop off

ROUTING=sar,updn osm_start h0 "qos TRUE" || { ko "SUBNET UP (qos on)"; exit 1; }
check "qos on: two layers" grep -q "osmre: sar: 2 virtual layer(s)" "$W/osm.log"
check "qos on: no qos error" [ "$(count_log "qos is off")" = 0 ]
sleep 1
check "qos on: LFTs read back" read_lfts h2 "$W/ring.lfts"
path_sls >"$W/sls.on"
check "qos on: PathRecords on SL 0 and SL 1" [ "$(awk '{ print $3 }' "$W/sls.on" | sort -u | tr '\n' ' ')" = "0 1 " ]
check "qos on: OpenSM's SL-to-VL dump puts SL 1 on VL 1" [ "$(sl2vl_dump_vl 1)" = 1 ]
# a switch as the switch itself answers (port 1's table: "ports: in N,
# out 1: |VL of SL 0|VL of SL 1|...")
sw_lid=$(sed -n 's/^Switch .*, base LID \([0-9]*\),.*/\1/p' "$W/dump/opensm-sl2vl.dump" | head -1)
diag h2 smpquery sl2vl "${sw_lid:-0}" 1 >"$W/smp.out" 2>&1
cat "$W/smp.out"
check "qos on: smpquery sl2vl of a switch port: SL 1 on VL 1" \
	awk '/^ports:/ { split($0, a, "|"); found = 1; if (a[3] + 0 != 1) bad = 1 } END { exit !(found && !bad) }' "$W/smp.out"
osm_stop on

printf 'update_protocol 1\n' >"$W/osmre.conf"
ROUTING=sar,updn osm_start h0 "lmc 1" || { ko "SUBNET UP (update_protocol, qos off)"; exit 1; }
check "update_protocol with qos off: off, said at error level" \
	grep -q "osmre ERR: update_protocol 1 needs qos TRUE in opensm.conf" "$W/osm.log"
check "update_protocol with qos off: no protocol line" [ "$(count_log "update protocol on")" = 0 ]
finish
