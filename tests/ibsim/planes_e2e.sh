#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# One OpenSM per plane on a dual-plane fat tree (PGFT(3;6,6,6;1,6,6), every
# host with a port in each plane; osmre gen --planes 2 --sm-hca puts a
# single-port HCA per plane, SM_P<k>_S1_5_5_0, in the place of the last
# host, H_35_5: 215 hosts and the two SM HCAs).  umad2sim binds a client to the node named by
# SIM_HOST and the tools use its port 1, so a single-port HCA leaves no
# doubt which plane an OpenSM or a diagnostic is in; each OpenSM is also
# bound to that port's GUID (-g).  Each has its own cache directory,
# opensm.conf, dump directory and osmre options file (event_plugin_options):
#  - both reach SUBNET UP and route their own plane with dmodc; the tables
#    each plane's HCA reads back (dump_fts) against the plane it discovers
#    (ibnetdiscover) are valid, with SP = 1 (every leaf keeps 6 CAs), and
#    those of `osmre route -e dmodc` on that plane with the same LIDs;
#  - both planes' tables read back at once (osmre analyze with one --lfts
#    per plane, with the multi-plane net file or one --topo per plane)
#    give the figures of `osmre route -e dmodc`'s tables of each plane,
#    and each plane's the figures of the plane alone;
#  - a link unlinked in plane 0 re-routes plane 0 only: plane 1's tables
#    are unchanged, byte for byte, and its SM made no pass;
#  - SIGUSR2 (osmre reroute --pid) to plane 1's SM re-routes plane 1 only;
#  - with plane 0's SM stopped, plane 1 stays routed and its SM answers
#    saquery.
set -u
. "$(dirname "$0")/lib.sh"
NET=$W/planes.net
"$OSMRE" gen pgft 3 6,6,6 1,6,6 --planes 2 --sm-hca -o "$NET" 2>"$W/gen.err" ||
	{ cat "$W/gen.err"; exit 1; }
check "gen: 2 SM HCAs" grep -q "2 SM HCA(s) added" "$W/gen.err"
sim_start "$NET" || exit 1

# start_plane K: OpenSM for plane K from SM_P<K>_S1_5_5_0, its own
# osmre options file
start_plane() {
	mkdir -p "$W/p$1"
	echo "dmodc_threads 1" >"$W/p$1/osmre.conf"
	plane_start "$1" "SM_P$1_S1_5_5_0" "event_plugin_options $W/p$1/osmre.conf"
}
passes() { grep -c "osmre: dmodc routed" "$W/p$1/osm.log" 2>/dev/null; }
# plane_read K TAG: plane K's tables and topology from its HCA
plane_read() {
	read_lfts "SM_P$1_S1_5_5_0" "$W/p$1.$2.lfts" &&
		diag "SM_P$1_S1_5_5_0" ibnetdiscover >"$W/p$1.net" 2>/dev/null
}

start_plane 0
start_plane 1
check "plane 0: SUBNET UP" plane_wait 0 "SUBNET UP" 1
check "plane 1: SUBNET UP" plane_wait 1 "SUBNET UP" 1
for k in 0 1; do
	check "plane $k: routed by dmodc" plane_wait $k "dmodc tables configured on all switches" 1
	check "plane $k: its options file" grep -q "osmre: options from $W/p$k/osmre.conf" "$W/p$k/osm.log"
done
sleep 1
for k in 0 1; do
	if plane_read $k before; then
		"$OSMRE" analyze -q --rp 10 --topo "$W/p$k.net" \
			--lfts "$W/p$k.before.lfts" >"$W/p$k.out" 2>&1
		check "plane $k: valid" grep -q "^validity: VALID" "$W/p$k.out"
		check "plane $k: 216 CAs, SP = 1" \
			grep -q "216 CA ports in nid order: .* shift permutations (SP, max of 215) 1," "$W/p$k.out"
		rm -f "$W/p$k.offline"
		"$OSMRE" route -e dmodc --topo "$W/p$k.net" --lids "$W/p$k.before.lfts" \
			--out "$W/p$k.offline" 2>"$W/p$k.offline.err"
		check "plane $k: the tables of osmre route -e dmodc" \
			sh -c "[ -s '$W/p$k.offline' ]" && same_lfts "$W/p$k.before.lfts" "$W/p$k.offline"
		check "plane $k: its own switches only" \
			sh -c "! grep -q 'P$((1 - k))_' '$W/p$k.before.lfts'"
		n=$(grep -c "^Unicast lids" "$W/p$k.before.lfts")
		check "plane $k: 108 switches read back ($n)" [ "$n" -eq 108 ]
	else
		ko "plane $k: tables read back"
	fi
done

# both SMs' tables at once, each plane's dump with its own LIDs from 1
# (one --lfts per plane), against the multi-plane net file and against
# the two planes' ibnetdiscover files.  The SM HCAs, one port each, share
# no plane: osmre route refuses the whole fabric as split, and its two
# SM-to-SM pairs are the only unreachable ones (one per plane).  The
# figures are those of the tables osmre route -e dmodc computes offline
# per plane (with the plane's LIDs, p<k>.offline above), and each
# plane's congestion figures those of the plane analyzed alone.
"$OSMRE" analyze -q --rp 10 --topo "$NET" --lfts "$W/p0.before.lfts" \
	--lfts "$W/p1.before.lfts" >"$W/all.live.out" 2>&1
"$OSMRE" analyze -q --rp 10 --topo "$NET" --lfts "$W/p0.offline" \
	--lfts "$W/p1.offline" >"$W/all.off.out" 2>&1
"$OSMRE" analyze -q --rp 10 --topo "$W/p0.net" --topo "$W/p1.net" \
	--lfts "$W/p0.before.lfts" --lfts "$W/p1.before.lfts" >"$W/all.disc.out" 2>&1
check "both planes, one --lfts each: only the SM HCAs' 2 pairs unreachable" \
	grep -q "^validity: INVALID: CA pairs [1-9][0-9]*, unreachable 2, loops 0, not up-down 0; switch LIDs unreachable 0" "$W/all.live.out"
check "both planes: 2 planes of 216 CA ports" \
	grep -q "^congestion risk, 432 CA ports in nid order, 2 planes" "$W/all.live.out"
check "both planes, one --lfts each: the offline tables' figures" \
	cmp -s "$W/all.off.out" "$W/all.live.out"
# (the problems name nodes as ibnetdiscover does: "H-<GUID>")
grep -v '^unreachable: ' "$W/all.live.out" >"$W/all.live.fig"
grep -v '^unreachable: ' "$W/all.disc.out" >"$W/all.disc.fig"
check "both planes, one --topo and --lfts each: the same figures" \
	cmp -s "$W/all.live.fig" "$W/all.disc.fig"
check "both planes, one --topo and --lfts each: the 2 pairs named" \
	[ "$(grep -c '^unreachable: "H-00000000005a000[02]"\[1\] -> ' "$W/all.disc.out")" -eq 2 ]
for k in 0 1; do
	alone=$(sed -n 's/^congestion risk, 216 CA ports in nid order: all-to-all (A2A) \([0-9]*\), shift permutations (SP, max of 215) \([0-9]*\), random permutations (RP, median of 10, seed 1) \([0-9]*\)$/\1 \2 \3/p' "$W/p$k.out")
	both=$(sed -n "s/^  plane $k: 216 CA ports: all-to-all (A2A) \([0-9]*\), shift permutations (SP, max of 215) \([0-9]*\), random permutations (RP) \([0-9]*\)\$/\1 \2 \3/p" "$W/all.live.out")
	check "both planes: plane $k's A2A, SP, RP as alone ($alone; $both)" \
		sh -c "[ -n '$alone' ] && [ '$alone' = '$both' ]"
done
"$OSMRE" check --topo "$NET" --lfts "$W/p0.before.lfts" --lfts "$W/p1.before.lfts" >"$W/all.check" 2>&1
check "both planes: osmre check, plane 1's pairs" \
	grep -q "^  plane 1: CA pairs [1-9][0-9]*: unreachable 1, loops 0, not up-down 0" "$W/all.check"
"$OSMRE" check --topo "$NET" --lfts "$W/p0.before.lfts" >"$W/p0only.check" 2>&1
check "plane 0's dump alone: INVALID (plane 1's ports have no LID)" \
	sh -c "grep -q '^INVALID' '$W/p0only.check' && grep -q '^ports without a LID' '$W/p0only.check'"

# a leaf uplink of plane 0 goes down: plane 0 alone re-routes
p0=$(passes 0)
p1=$(passes 1)
console 'Unlink "P0_S1_0_0_0"[7]'
check "link down: plane 0 re-routes" plane_wait 0 "osmre: dmodc routed" $((p0 + 1))
sleep 2
plane_read 1 after
check "link down: plane 1's tables unchanged, byte for byte" cmp -s "$W/p1.before.lfts" "$W/p1.after.lfts"
check "link down: plane 1's SM made no pass" [ "$(passes 1)" -eq "$p1" ]
plane_read 0 down
"$OSMRE" analyze -q --rp 10 --topo "$W/p0.net" --lfts "$W/p0.down.lfts" >"$W/p0.down.out" 2>&1
check "link down: plane 0 valid" grep -q "^validity: VALID" "$W/p0.down.out"

# SIGUSR2 to plane 1's SM: plane 1 alone re-routes
p0=$(passes 0)
p1=$(passes 1)
# shellcheck disable=SC2154
check "reroute plane 1" "$OSMRE" reroute --pid "$SM1"
check "USR2: plane 1 re-routes" plane_wait 1 "osmre: dmodc routed" $((p1 + 1))
sleep 1
check "USR2: plane 0's SM made no pass" [ "$(passes 0)" -eq "$p0" ]

# plane 0's SM stops: plane 1 stays routed and answers
# shellcheck disable=SC2154
stop_pids "$SM0"
sleep 1
plane_read 1 alone
check "plane 0's SM gone: plane 1's tables unchanged" same_lfts "$W/p1.after.lfts" "$W/p1.alone.lfts"
# (saquery -s: the PortInfoRecords of the ports with IsSM, from plane 1's
# SA; its SM's port, the HCA itself, is the master)
diag SM_P1_S1_5_5_0 saquery -s >"$W/sa.out" 2>&1
check "plane 0's SM gone: plane 1's SM answers saquery" grep -q "master_sm_base_lid" "$W/sa.out"
exit $((FAILS > 0))
