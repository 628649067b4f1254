#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The update protocol with a master and a standby OpenSM (blk216, sar
# with a job file, lmc 1, qos on, short SMInfo polling), one `osmre
# subscribe` client:
#  - it registers with the master; the standby does not serve the
#    protocol (a request to it would be dropped: it is not master);
#  - the master killed, the standby takes over: the client sees the port's
#    MasterSMLID move (umadport_sm_lid: the port's own PortInfo) and
#    registers with the new master, which counts it;
#  - a new job file and SIGUSR2 to the new master: its epoch asks the
#    client, whose unpath and repath hooks run (0 sessions changed before
#    they moved).
# Fails on a client that never follows the master (it kept its session
# with the dead SM and its hooks never ran).
set -u
. "$(dirname "$0")/lib.sh"
blk216_sar "update_protocol 1" "update_escape_vl 7" \
	"update_ack_timeout_ms 6000" "update_poll_ms 100"
# (SM_DEFAULT_POLLING=1: OpenSM's own, 10 s x 4, for the timings)
POLL="sminfo_polling_timeout ${SM_POLL_MS:-1000}"
RETRY="polling_retry_number ${SM_RETRIES:-2}"
[ -n "${SM_DEFAULT_POLLING:-}" ] && POLL="force_log_flush TRUE" RETRY="force_log_flush TRUE"
sim_start "$NET" || exit 1
ROUTING=sar,updn sm_start 0 H_0_0 "sm_priority 10" "$POLL" "$RETRY" \
	"qos TRUE" "lmc 1"
plane_wait 0 "SUBNET UP" 1 || { ko "master: SUBNET UP"; exit 1; }
ROUTING=sar,updn sm_start 1 H_1_0 "sm_priority 1" "$POLL" "$RETRY" \
	"qos TRUE" "lmc 1"
plane_wait 1 "osmre: SM state: standby" 1 60 || { ko "standby: STANDBY"; exit 1; }
plane_wait 0 "osmre: update: serving class 0x09" 1 30
sleep 1
sim_bg H_3_5 "$OSMRE" subscribe \
	--on-unpath "echo unpath \$OSMRE_EPOCH >>$W/a.events" \
	--on-repath "echo repath \$OSMRE_EPOCH >>$W/a.events" >"$W/a.log" 2>&1 &
SUB=$!
check "the client registered with the master" wait_file "$W/a.log" "registered as subscriber" 30
check "the master counts it" plane_wait 0 "update: subscriber .* registered (1 in all" 1 10

# failover
t_dead=$(date +%s.%N)
stop_pids "$SM0"
SM0=
plane_wait 1 "SUBNET UP" 1 120 || ko "the standby takes over: SUBNET UP"
check "the client saw the master move" wait_file "$W/a.log" "the master SM moved" 90
check "and registered with the new master" plane_wait 1 "update: subscriber .* registered (1 in all" 1 60
# an update on the new master: the client is asked
awk '!/^#/ && NF == 2 { print $1, "m" ($2 % 3) }' "$DATA/blk216.jobs" >"$J.new"
mv "$J.new" "$J"
kill -USR2 "$SM1"
check "the new master's epoch commits" plane_wait 1 "osmre: update: epoch [0-9]* committed" 1 120
echo "the master's death to the new master's first epoch commit: $(awk -v a="$t_dead" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s (SIGUSR2 once the client registered)"
check "after its grace period for the subscribers" grep -q "osmre: update: a new master: the first epoch waits update_grace_ms" "$W/p1/osm.log"
grep "osmre: update: epoch [0-9]* committed" "$W/p1/osm.log" | sed 's/.*osmre: update: //'
check "with the client asked, acks from it" grep -q "committed.*subscribers 1, acks 2, nacks 0, timeouts 0, dropped 0; changed before 0 session" "$W/p1/osm.log"
check "the commit line says which subscribers it knows" grep -q "committed.*; subscribers known: those registered since this SM started (no sessions file)" "$W/p1/osm.log"
check "its unpath hook ran" grep -q "^unpath " "$W/a.events"
check "its repath hook ran" grep -q "^repath " "$W/a.events"
kill "$SUB" 2>/dev/null
wait "$SUB" 2>/dev/null
cat "$W/a.log" | tail -8
finish
