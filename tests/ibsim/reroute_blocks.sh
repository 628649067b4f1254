#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# What a re-route pushes, counted from OpenSM's debug log ("Writing FT
# block" lines, one per LFT block sent) on PGFT(3;4,4,4;1,4,4):
#  - the first pass programs every switch fully;
#  - SIGUSR2 with unchanged tables pushes no block (OpenSM's force_reroute
#    re-sends every block of a switch it created and never re-read: the
#    plugin tells it which switches answered before);
#  - one link unlinked: only the blocks that changed;
#  - a switch that leaves the fabric and comes back (its tables lost)
#    gets all of them again;
#  - after each step the tables read back equal the offline tables.
set -u
. "$(dirname "$0")/lib.sh"
"$OSMRE" gen pgft 3 4,4,4 1,4,4 -o "$W/f.net" 2>/dev/null
sim_start "$W/f.net" || exit 1
OSM_DEBUG=0x4B osm_start H_0_0 || { ko "SUBNET UP"; exit 1; }
sleep 2
blocks() { count_log "Writing FT block"; }
b0=$(blocks)
echo "first pass: $b0 blocks"
check "the first pass programs the switches" [ "$b0" -ge 48 ]
p0=$(passes)
"$OSMRE" reroute --pid "$OSM_PID" >/dev/null || ko "osmre reroute refused a real opensm with the plugin"
check "SIGUSR2: a routing pass" wait_log "osmre: dmodc routed" $((p0 + 1)) 30
wait_log "REROUTE COMPLETE" 1 30 >/dev/null
sleep 1
b1=$(($(blocks) - b0))
echo "SIGUSR2, unchanged tables: $b1 blocks"
check "SIGUSR2 with unchanged tables pushes no block" [ "$b1" -eq 0 ]
# osmre status: the plugin is there, its last pass (#2: the first and
# the re-route), from the status file in this OpenSM's cache dir
"$OSMRE" status --pid "$OSM_PID" >"$W/status.out" 2>&1
# (no OSMRE_CONF yet: the default file, absent unless installed)
if [ -e /etc/opensm/osmre.conf ]; then
	opts="options from /etc/opensm/osmre.conf"
else
	opts="no options file (/etc/opensm/osmre.conf absent): the defaults"
fi
check "status: plugin loaded, $opts" grep -qF "opensm $OSM_PID: osmre $("$OSMRE" --version | cut -d' ' -f2) plugin loaded, $opts" "$W/status.out"
check "status: the last pass" grep -q "^last pass (#2): dmodc routed 48 switches in [0-9.]* s at 20" "$W/status.out"
check "status: its file" grep -q "^status file $W/cache/osmre.status" "$W/status.out"
check "the plugin says why" grep -q "osmre: [0-9]* switch(es) programmed before: only changed blocks are sent" "$W/osm.log"
check "tables read back" read_lfts H_1_1 "$W/t1.lfts"
"$OSMRE" route -e dmodc --topo "$W/f.net" --lids "$W/t1.lfts" --out "$W/o1.lfts" 2>/dev/null
check "tables as offline" same_lfts "$W/t1.lfts" "$W/o1.lfts"

# one link: only what changed
p1=$(passes)
before=$(blocks)
console 'Unlink "S1_0_0_0"[5]'
wait_pass $((p1 + 1))
sleep 2
b2=$(($(blocks) - before))
echo "one leaf uplink unlinked: $b2 blocks"
check "one link: some blocks, far fewer than all" [ "$b2" -gt 0 ] && [ "$b2" -lt "$b0" ]
check "tables read back (link down)" read_lfts H_1_1 "$W/t2.lfts"
awk '/^Switch|^Hca/{cur=$0} { if (cur ~ /"S1_0_0_0"/ && $1 == "[5]") next; if ($0 ~ /"S1_0_0_0"\[5\]/) next; print }' \
	"$W/f.net" >"$W/f2.net"
"$OSMRE" route -e dmodc --topo "$W/f2.net" --lids "$W/t2.lfts" --out "$W/o2.lfts" 2>/dev/null
check "tables as offline (link down)" same_lfts "$W/t2.lfts" "$W/o2.lfts"

# a top switch that leaves and comes back (its tables lost): all its
# blocks again
sw=S3_0_0_0
guid=$(awk -v s="($sw):" '/^Unicast lids/ && index($0, s) { print $(NF - 1) }' "$W/t1.lfts")
short=$(printf '0x%x' "$guid")
p2=$(passes)
console "Unlink \"$sw\""
wait_pass $((p2 + 1))
sleep 2
p3=$(passes)
before=$(wc -l <"$W/osm.log")
console "ReLink \"$sw\""
wait_pass $((p3 + 1))
sleep 3
sent=$(tail -n +"$before" "$W/osm.log" | grep -c "Writing FT block [0-9]* to switch $short\$")
others=$(tail -n +"$before" "$W/osm.log" | grep "Writing FT block" | grep -vc "to switch $short\$")
echo "$sw ($short) back: $sent of its blocks sent, $others to the other switches"
check "a switch back with its tables lost gets all its blocks (2)" [ "$sent" -eq 2 ]
check "tables read back (switch back)" read_lfts H_1_1 "$W/t3.lfts"
"$OSMRE" route -e dmodc --topo "$W/f2.net" --lids "$W/t3.lfts" --out "$W/o3.lfts" 2>/dev/null
check "tables as offline (switch back)" same_lfts "$W/t3.lfts" "$W/o3.lfts"

# dmodc_stable 1: the same leaf uplink lost, the destinations whose routes
# all still work keep them; the tables equal osmre route --previous
osm_stop
console 'ReLink "S1_0_0_0"[5]'
echo "dmodc_stable 1" >"$W/stable.conf"
OSMRE_CONF=$W/stable.conf
export OSMRE_CONF
OSM_DEBUG=0x4B osm_start H_0_0 || { ko "SUBNET UP (dmodc_stable)"; finish; exit 1; }
sleep 2
check "dmodc_stable: tables read back" read_lfts H_1_1 "$W/s0.lfts"
p4=$(passes)
b4=$(blocks)
console 'Unlink "S1_0_0_0"[5]'
wait_pass $((p4 + 1))
sleep 2
check "dmodc_stable: a stable re-route, logged" \
	grep -q "osmre: dmodc: stable re-route: [1-9][0-9]* destination LID(s) kept their routes" "$W/osm.log"
b5=$(($(blocks) - b4))
echo "one leaf uplink unlinked, dmodc_stable: $b5 blocks (full dmodc: $b2)"
check "dmodc_stable: no more blocks than full dmodc" [ "$b5" -le "$b2" ]
check "dmodc_stable: tables read back (link down)" read_lfts H_1_1 "$W/s1.lfts"
"$OSMRE" route -e dmodc --topo "$W/f2.net" --lids "$W/s0.lfts" --previous "$W/s0.lfts" \
	--out "$W/so1.lfts" 2>/dev/null
check "dmodc_stable: tables as osmre route --previous" same_lfts "$W/s1.lfts" "$W/so1.lfts"
check "dmodc_stable: valid and up-down" "$OSMRE" check --topo "$W/f2.net" --lfts "$W/s1.lfts"
finish
