#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sar's stable re-route inside OpenSM on PGFT(3;6,6,18;1,6,6;1,1,1), 648
# hosts, no job file (issue 15: a full re-route changed 76.7 % of the
# entries after one leaf uplink failed):
#  - a leaf uplink goes down: the pass is a stable re-route (logged) from
#    the first pass's memo (its trees and loads), at most 2 % of the
#    entries change, the tables are valid, every path a shortest one, on
#    one VL, and identical to `osmre route -e sar --previous` with the
#    tables before (which checks every tree, without a memo);
#  - the link comes back: stable again (the routes that still lead one
#    hop closer stay; every tree checked: the memo lacks the link), valid,
#    shortest, few entries changed;
#  - SIGUSR2 (the same topology, the same jobs): a full routing, the
#    original tables again.
set -u
. "$(dirname "$0")/lib.sh"
NET=$W/p648.net
"$OSMRE" gen pgft 3 6,6,18 1,6,6 1,1,1 -o "$NET" 2>/dev/null || { ko "gen"; exit 1; }
sim_start "$NET" || exit 1
ROUTING=sar osm_start H_0_0 || { ko "SUBNET UP"; exit 1; }
passes() { count_log "osmre: sar routed"; }
wait_pass() {
	wait_log "osmre: sar routed" "$1" 15 >/dev/null && return 0
	kill -USR2 "$OSM_PID"
	wait_log "osmre: sar routed" "$1" 30
}
discover() { diag H_17_5 ibnetdiscover >"$1" 2>/dev/null && grep -q "^Switch" "$1"; }
# analyze NAME NET: the tables $W/NAME.lfts against $W/first.lfts
analyze() {
	"$OSMRE" analyze -q --rp 10 --no-updown --format csv --topo "$2" \
		--lfts "$W/$1.lfts" --against "$W/first.lfts" 2>/dev/null |
		sed -n 2p >"$W/$1.csv"
	echo "$1: valid $(cut -d, -f1 "$W/$1.csv"), longest $(cut -d, -f9 "$W/$1.csv"), longer $(cut -d, -f27 "$W/$1.csv"), entries changed $(cut -d, -f28 "$W/$1.csv") of $entries"
}
col() { cut -d, -f"$2" "$W/$1.csv"; }
sleep 1
check "tables read back" read_lfts H_17_5 "$W/first.lfts"
entries=$(awk '/^0x/ { n++ } END { print n }' "$W/first.lfts")

# a leaf uplink: S1_16_5_0 port 8, to S2_16_1_0
n=$(passes)
s=$(count_log "stable re-route")
console 'Unlink "S1_16_5_0"[8]'
check "link down: a pass" wait_pass $((n + 1))
check "link down: a stable re-route, logged" [ "$(count_log "stable re-route")" -gt "$s" ]
# the first pass's memo served (sar_memo.h): the trees kept and their
# loads without a check of every tree; the tables are still those of the
# check (compared with osmre route --previous below)
m=$(count_log "the last pass's trees and loads, 1 link(s) lost since")
check "link down: the trees and loads of the last pass (its memo)" [ "$m" = 1 ]
sleep 1
read_lfts H_17_5 "$W/down.lfts"
discover "$W/down.net"
analyze down "$W/down.net"
check "link down: valid" [ "$(col down 1)" = 1 ]
check "link down: every path a shortest one" [ "$(col down 27)" = 0 ]
check "link down: at most 2 % of the entries changed" \
	[ "$(col down 28)" -gt 0 -a "$(col down 28)" -le $((entries / 50)) ]
# the same fabric less that link, offline (gen's seed 4 removes it)
"$OSMRE" gen pgft 3 6,6,18 1,6,6 1,1,1 --remove-links 1 --seed 4 \
	-o "$W/less.net" 2>/dev/null
check "offline: the link gen removes is S1_16_5_0[8]" \
	sh -c "! grep -q 'S2_16_1_0\"\\[6\\]' '$W/less.net'"
"$OSMRE" route -e sar --topo "$W/less.net" --lids "$W/down.lfts" \
	--previous "$W/first.lfts" --sls "$W/down.sls" --out "$W/down.offline" 2>"$W/off.err"
check "link down: identical to osmre route --previous" same_lfts "$W/down.lfts" "$W/down.offline"
check "link down: one VL" grep -q "sar: 1 virtual layer" "$W/off.err"

n=$(passes)
console 'ReLink "S1_16_5_0"[8]'
check "relink: a pass" wait_pass $((n + 1))
check "relink: a link the memo does not have: every tree checked" \
	[ "$(count_log "the last pass's trees and loads")" = "$m" ]
sleep 1
read_lfts H_17_5 "$W/up.lfts"
analyze up "$NET"
check "relink: valid" [ "$(col up 1)" = 1 ]
check "relink: every path a shortest one" [ "$(col up 27)" = 0 ]
check "relink: at most 2 % of the entries differ from the original" \
	[ "$(col up 28)" -le $((entries / 50)) ]

n=$(passes)
kill -USR2 "$OSM_PID"
check "SIGUSR2: a pass" wait_pass $((n + 1))
sleep 1
read_lfts H_17_5 "$W/usr2.lfts"
check "SIGUSR2: a full routing, the original tables" same_lfts "$W/first.lfts" "$W/usr2.lfts"
finish
