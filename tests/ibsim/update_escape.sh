#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The update protocol refuses to promise an escape the ports do not have:
# update_escape_vl 14 on ibsim, whose ports report VLCap VL0-7 (smpquery
# portinfo).  The plugin logs the ports that lack VL 14 with their GUIDs,
# a subscriber's REGISTER is answered "no escape" (it never registers),
# and a re-route request is refused; OpenSM still routes the fabric (the
# protocol on vendor class 0x0A).
set -u
. "$(dirname "$0")/lib.sh"
blk216_sar "update_protocol 1" "update_escape_vl 14" "update_poll_ms 100" \
	"update_mgmt_class 10"
sim_start "$NET" || exit 1
ROUTING=sar,updn osm_start H_0_0 "qos TRUE" "lmc 1" || { ko "SUBNET UP"; exit 1; }
check "the fabric is routed" wait_log "osmre: sar routed" 1 30
diag H_3_3 smpquery -D portinfo 0 1 >"$W/pi.out" 2>&1
check "ibsim's ports: VLCap VL0-7" grep -q "VLCap:.*VL0-7" "$W/pi.out"
check "ports without VL 14 logged with their GUIDs" \
	grep -q "osmre ERR: update: port [0-9]* of node 0x[0-9a-f]* (port GUID 0x[0-9a-f]*) has VLCap code 4, OperVLs code [0-9]*: no VL 14 for the escape" "$W/osm.log"
check "the protocol refuses to run" \
	grep -q "port(s) lack VL 14 (update_escape_vl): the update protocol refuses to run" "$W/osm.log"
sim_bg H_3_5 "$OSMRE" subscribe --class 10 --on-unpath true --on-repath true \
	>"$W/a.log" 2>&1 &
SUB=$!
check "a subscriber is told: no escape" wait_file "$W/a.log" "the escape VL is missing on some port" 30
check "and never registers" sh -c "! grep -q 'registered as subscriber' '$W/a.log'"
check "the SM says why" wait_log "answered \"no escape\"" 1 10
awk '!/^#/ && NF == 2 { print $1, "m" ($2 % 3) }' "$DATA/blk216.jobs" >"$J"
kill -USR2 "$OSM_PID"
check "a re-route request is refused" wait_log "osmre ERR: update: re-route refused: [0-9]* port(s) lack the escape's VL 14" 1 30
check "no epoch ran" sh -c "! grep -q 'osmre: update: epoch [0-9]*: UNPATH' '$W/osm.log'"
stop_pids "$SUB"
finish
