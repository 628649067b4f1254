#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# e. A fabric dmodc must refuse: a ring of switches that all carry HCAs (no
#    up-down path joins two leaves).  Our error names an unreachable leaf
#    pair in the log, and OpenSM's next engine (updn, given a root since
#    its own root detection finds none on a ring) routes the fabric.
#    (osmre.conf's root_guid_file names an empty file: dmodc would
#    otherwise take opensm.conf's root, see the end.)  The same root in
#    opensm.conf alone is dmodc's too: it routes the ring as a tree from
#    that root, up*-down*, and updn does not run.
#    Last, a ring of five with "dmodc,minhop": an error at start says
#    minhop is not deadlock-free; dmodc refuses, minhop's tables have a
#    cycle on one VL, and the log (error level) and osmre status say so.
set -u
. "$(dirname "$0")/lib.sh"

NET=$W/ring.net
cat >"$NET" <<'NETEOF'
Switch	4 "A"
[1]	"B"[2]
[2]	"C"[1]
[3]	"HA"[1]

Switch	4 "B"
[1]	"C"[2]
[2]	"A"[1]
[3]	"HB"[1]

Switch	4 "C"
[1]	"A"[2]
[2]	"B"[1]
[3]	"HC"[1]

Hca	2 "HA"
[1]	"A"[3]

Hca	2 "HB"
[1]	"B"[3]

Hca	2 "HC"
[1]	"C"[3]

NETEOF
sim_start "$NET" || exit 1
echo 0x0000000000200000 >"$W/roots"
: >"$W/noroots"
osmre_conf "root_guid_file $W/noroots"
osm_start HA "root_guid_file $W/roots" || { ko "SUBNET UP"; exit 1; }
check "dmodc refuses, naming a leaf pair" \
	grep -q 'osmre ERR: dmodc: fabric not routable: no up-down path between leaf switches "A" (0x0000000000200000) and "B"' "$W/osm.log"
check "OpenSM falls back to updn" grep -q "updn tables configured on all switches" "$W/osm.log"
"$OSMRE" status --pid "$OSM_PID" >"$W/status.out" 2>&1
check "status: dmodc refused" grep -q "^last pass (#1): dmodc refused" "$W/status.out"
check "status: why" grep -q "^  no up-down path between leaf switches" "$W/status.out"
check "status: updn's tables in force, checked" grep -q \
	"^tables in force: by updn (after dmodc refused): deadlock-free on one VL" "$W/status.out"
check "the check logged" grep -q "osmre: the tables in force were configured by updn after dmodc refused the fabric: acyclic on one VL" "$W/osm.log"
sleep 1
check "LFTs read back" read_lfts HC "$W/fabric.lfts"
check "updn's tables are valid (no up-down check on a ring)" \
	"$OSMRE" check --no-updown --topo "$NET" --lfts "$W/fabric.lfts"
check "LID-routed query across the ring" diag HB smpquery -L nodedesc 1

# opensm.conf's root_guid_file alone: dmodc's roles take it
osm_stop refused
osmre_conf "deadlock_check 1"
osm_start HA "root_guid_file $W/roots" || { ko "SUBNET UP with a root"; exit 1; }
check "dmodc routes the ring from the root given" grep -q "dmodc tables configured on all switches" "$W/osm.log"
"$OSMRE" status --pid "$OSM_PID" >"$W/status2.out" 2>&1
check "status: dmodc's tables in force, checked" grep -q \
	"^tables in force: by dmodc (this SM's pass): the pass check found no cycle on its VLs" "$W/status2.out"
check "as a tree with a stray cable" grep -q "osmre: dmodc: routed the tree of the compute CAs: 2 compute CA(s) on 2 leaf switch(es) (0 without hosts), 1 other CA(s) (0 aggregation node(s)), 0 edge switch(es), 1 stray cable(s)" "$W/osm.log"
sleep 1
check "LFTs read back" read_lfts HC "$W/rooted.lfts"
check "valid" "$OSMRE" check --no-updown --topo "$NET" --lfts "$W/rooted.lfts"
"$OSMRE" analyze -q --no-updown --topo "$NET" --lfts "$W/rooted.lfts" >"$W/rooted.out" 2>&1
check "acyclic on one VL" grep -q "channel dependency graph acyclic" "$W/rooted.out"

# a ring of five, "dmodc,minhop": minhop's shortest paths go round it
osm_stop rooted
stop_pids "$SIM_PID"
SIM_PID=
NET=$W/ring5.net
for s in A B C D E; do
	n=$(echo ABCDEA | sed "s/.*$s\(.\).*/\1/")
	p=$(echo EABCDE | sed "s/.*\(.\)$s.*/\1/")
	printf 'Switch\t4 "%s"\n[1]\t"%s"[2]\n[2]\t"%s"[1]\n[3]\t"H%s"[1]\n\n' "$s" "$n" "$p" "$s"
done >"$NET"
for s in A B C D E; do printf 'Hca\t2 "H%s"\n[1]\t"%s"[3]\n\n' "$s" "$s"; done >>"$NET"
sim_start "$NET" || exit 1
osmre_conf "root_guid_file $W/noroots"
ROUTING=dmodc,minhop osm_start HA || { ko "SUBNET UP on the ring of five"; exit 1; }
check "at start: minhop next, said at error level" grep -q "osmre ERR: .*minhop" "$W/osm.log"
check "dmodc refuses the ring of five" grep -q "osmre ERR: dmodc: fabric not routable" "$W/osm.log"
check "minhop configures" grep -q "minhop tables configured on all switches" "$W/osm.log"
check "its cycle said at error level" grep -q "osmre ERR: the tables in force were configured by minhop after dmodc refused the fabric, and their channel dependency graph has a cycle on one VL" "$W/osm.log"
"$OSMRE" status --pid "$OSM_PID" >"$W/status5.out" 2>&1
check "status: minhop's tables can deadlock" grep -q \
	"^tables in force: by minhop (after dmodc refused): CAN DEADLOCK on one VL" "$W/status5.out"
sleep 1
check "LFTs read back" read_lfts HC "$W/ring5.lfts"
"$OSMRE" analyze -q --no-updown --topo "$NET" --lfts "$W/ring5.lfts" >"$W/ring5.out" 2>&1
check "the analyzer finds the cycle too" grep -q "deadlock freedom (one VL): CYCLE in the channel dependency graph" "$W/ring5.out"
finish
