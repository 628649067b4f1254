#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# An invariant monitor for the five-phase update protocol (osmre(8),
# UPDATE PROTOCOL), independent of the SM's bookkeeping: no base-LID route
# changes under a registered subscriber session before that session moved
# to the escape (its unpath hook exited 0), and none moves back before the
# changed blocks are on the switches.
#  - what the switches hold: lftspy.c, preloaded into OpenSM, logs every
#    LinearForwardingTable Set OpenSM sends and every answer (the block as
#    the switch holds it then), with the switch's GUID and the time;
#  - what the clients do: every `osmre subscribe` hook logs its start and
#    end (and exit status) with OSMRE_EPOCH, OSMRE_SESSION; the clients'
#    logs give their registrations;
#  - from the SM only: the start of UNPATH, the commit line, the end of
#    each routing pass; from the test: link changes, kills, SIGUSR2s;
#  - update_monitor.awk applies the rules (see there) to the merged,
#    time-sorted events of each case's window.
# Cases (blk216, sar, lmc 1, update_ack_timeout_ms 2000, update_max_misses
# 2): two clients on one host with slow hooks; a client killed in its
# unpath hook and restarted at once; a failing unpath hook over four
# updates; OpenSM restarted after a job change made without SIGUSR2; a
# SIGUSR2 storm with link flaps and job changes; two hosts flooding the SM
# with requests it refuses (SIGUSR2 must still start an epoch within 5 s,
# and the epoch commit in comparable time); a notice (the answer to a
# held WAIT that tells of UNPATH) lost on the wire; an ack (ACKWAIT) lost
# on the wire.
set -u
. "$(dirname "$0")/lib.sh"
HERE=$(dirname "$0")
ROGUE=${OSMRE_ROGUE:-$PWD/tests/ibsim/rogue}
ACK_MS=2000
MAX_MISSES=2
blk216_sar "update_protocol 1" "update_escape_vl 7" "update_ack_timeout_ms $ACK_MS" \
	"update_poll_ms 100" "update_max_misses $MAX_MISSES"
. "$HERE/monitor_lib.sh"
T_START=$(date +%s)

osm_up() {
	OSM_WRAPPER="env LD_PRELOAD=$W/lftspy.so:$UMAD2SIM" ROUTING=sar,updn \
		osm_start H_0_0 "qos TRUE" "lmc 1" &&
		wait_log "osmre: update: serving class" 1 30
}
sim_start "$NET" || exit 1
osm_up || { ko "SUBNET UP"; exit 1; }
check "the spy sees OpenSM's LFT blocks" wait_file "$W/spy.log" " resp " 10
base_lids H_11_17 || { ko "LFTs read back"; exit 1; }
check "216 base LIDs" [ "$(wc -l <"$W/base.lids")" -eq 216 ]

sig() { ev usr2; kill -USR2 "$OSM_PID"; }
commits() { count_log "osmre: update: epoch [0-9]* committed"; }
update() {	# a new job mix and SIGUSR2, until the commit (60 s)
	up_n=$(commits)
	jobs_next
	sig
	wait_log "osmre: update: epoch [0-9]* committed" $((up_n + 1)) 60
}
link() { ev link "$1" "$2"; console "$1 $2"; }

# 1. two clients on one host, both with slow unpath hooks
case1() {
	case_begin "two clients on one host"
	client a1 H_3_5 "sleep 1.5" true
	client a2 H_3_5 "sleep 1.5" true
	registered a1 && registered a2 || echo "# a client did not register"
	sleep 1
	update || echo "# no commit"
	wait_back a1 a2 || echo "# a client is not back"
	client_stop a1 a2
	echo "#   registrations: a1 $(grep -c 'registered as' "$W/a1.log"), a2 $(grep -c 'registered as' "$W/a2.log")"
	verdict
}

# 2. a client killed in its unpath hook, restarted at once on its host;
# one more update with the new one
case2() {
	case_begin "client killed in its unpath hook and restarted"
	client b1 H_9_12 "sleep 1.5" true
	registered b1 || echo "# b1 did not register"
	sleep 0.5
	_n=$(commits)
	jobs_next
	sig
	wait_file "$W/b1.hooks" "^start unpath" 30 || echo "# no unpath hook"
	sleep 0.3
	_hook=$(awk '$1 == "start" { p = $6 } END { print p }' "$W/b1.hooks")
	kill -9 "$(pid_of b1)" "$_hook" 2>/dev/null
	ev dead b1
	client b2 H_9_12 "sleep 1.5" true
	wait_log "osmre: update: epoch [0-9]* committed" $((_n + 1)) 60 || echo "# no commit"
	registered b2 || echo "# b2 did not register"
	update || echo "# no second commit"
	wait_back b2 || echo "# b2 is not back"
	client_stop b2
	grep "osmre: update: epoch [0-9]* committed" "$W/osm.log" | tail -2 | sed 's/.*osmre: update: /#   /'
	verdict
}

# 3. a failing unpath hook, four updates in a row (update_max_misses 2)
case3() {
	case_begin "failing unpath hook, four updates in a row"
	client f1 H_6_6 false true
	registered f1 || echo "# f1 did not register"
	for _ in 1 2 3 4; do update || echo "# no commit"; done
	client_stop f1
	grep "osmre: update: epoch [0-9]* committed\|dropped" "$W/osm.log" | tail -5 |
		sed 's/.*osmre[A-Z ]*: update: /#   /'
	echo "#   f1 registrations: $(grep -c 'registered as subscriber' "$W/f1.log")"
	verdict
}

# 4. OpenSM restarted (same cache and conf) after a job change made
# without SIGUSR2, a subscriber running all along; then one SIGUSR2
case4() {
	case_begin "OpenSM restarted after a job change without SIGUSR2"
	client r1 H_7_7 "sleep 0.5" true
	registered r1 || echo "# r1 did not register"
	sleep 0.5
	jobs_next
	kill "$OSM_PID"
	wait "$OSM_PID" 2>/dev/null
	NLOG=$((NLOG + 1))
	mv "$W/osm.log" "$W/osm-$NLOG.log"
	sleep 2
	osm_up || { ko "$CASE: OpenSM did not come back"; return 1; }
	for _ in $(seq 100); do
		[ "$(grep -c "registered as subscriber" "$W/r1.log")" -ge 2 ] && break
		sleep 0.2
	done
	sleep 3
	_ends="osmre: update: epoch [0-9]* committed\|osmre: update: epoch [0-9]*: no base-LID"
	_n=$(count_log "$_ends")
	sig
	wait_log "$_ends" $((_n + 1)) 60 || echo "# the request after the restart did not end"
	wait_back r1 || echo "# r1 is not back"
	client_stop r1
	echo "#   r1 registrations: $(grep -c "registered as subscriber" "$W/r1.log")"
	verdict
}

# 5. a SIGUSR2 storm with link flaps and job changes; then one more
# update must commit
case5() {
	case_begin "SIGUSR2 storm with link flaps and job changes"
	client s1 H_2_9 "sleep 0.5" true
	client s2 H_10_3 "sleep 0.2" true
	registered s1 && registered s2 || echo "# a client did not register"
	c5_n=$(commits)
	for i in 1 2 3 4 5 6; do
		jobs_next
		sig
		case $i in
		1) sleep 0.3; link Unlink '"S2_1_0"[4]' ;;
		2) link ReLink '"S2_1_0"[4]' ;;
		3) sleep 0.8; link Unlink '"S2_4_0"[9]' ;;
		4) sig ;;
		5) link ReLink '"S2_4_0"[9]' ;;
		esac
		sleep 1
	done
	c5_p=
	quiet || c5_p="the storm did not settle in 90 s"
	update || c5_p="${c5_p:+$c5_p; }no commit after the storm"
	wait_back s1 s2 || c5_p="${c5_p:+$c5_p; }a client is not back"
	client_stop s1 s2
	echo "#   storm: $(($(commits) - c5_n)) commit(s), $(count_log "restarting from COMPUTE") restart(s)"
	verdict "$c5_p"
}
# quiet: no update line for 3 s, the last one a commit or nothing to do
quiet() {
	for _ in $(seq 30); do
		_a=$(count_log "osmre[A-Z ]*: update: epoch")
		sleep 3
		[ "$_a" = "$(count_log "osmre[A-Z ]*: update: epoch")" ] &&
			grep "osmre[A-Z ]*: update: epoch" "$W/osm.log" | tail -1 |
			grep -q "committed\|no base-LID" && return 0
	done
	return 1
}

# 6. two hosts flooding the SM with requests it refuses, as fast as they
# can (rogue blast): SIGUSR2 must still start an epoch within 5 s, and the
# epoch commit within 3 times the time of one without the flood, plus 3 s
case6() {
	case_begin "flood of refused requests"
	client q1 H_5_15 "sleep 0.3" true
	registered q1 || echo "# q1 did not register"
	sleep 0.5
	_n=$(commits)
	jobs_next
	_t0=$(now)
	sig
	wait_log "osmre: update: epoch [0-9]* committed" $((_n + 1)) 60 >/dev/null ||
		echo "# without flood: no commit in 60 s"
	_base=$(since "$_t0")
	sim_bg H_1_2 "$ROGUE" blast 60 >"$W/blast1" 2>&1 &
	_b1=$!
	sim_bg H_8_8 "$ROGUE" blast 60 >"$W/blast2" 2>&1 &
	_b2=$!
	sleep 2
	_n=$(commits)
	jobs_next
	_t0=$(now)
	sig
	wait_log "osmre: update: epoch [0-9]* committed" $((_n + 1)) 15 >/dev/null ||
		echo "# under flood: no commit within 15 s of SIGUSR2"
	stop_pids "$_b1" "$_b2"
	echo "#   flood stopped $(awk -v a="$_t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }') s after SIGUSR2:" \
		"$(tr '\n' ' ' <"$W/blast1")/ $(tr '\n' ' ' <"$W/blast2")"
	wait_log "osmre: update: epoch [0-9]* committed" $((_n + 1)) 10 >/dev/null ||
		echo "# no commit 10 s after the flood stopped either"
	_flood=$(since "$_t0")
	wait_back q1 || echo "# q1 is not back"
	client_stop q1
	echo "#   without flood: UNPATH $(echo "$_base" | cut -d' ' -f1) s, commit $(echo "$_base" | cut -d' ' -f2) s after SIGUSR2"
	echo "#   under flood:   UNPATH $(echo "$_flood" | cut -d' ' -f1) s, commit $(echo "$_flood" | cut -d' ' -f2) s after SIGUSR2"
	verdict "$(echo "$_base $_flood" | awk '{
		if ($3 == "none" || $3 > 5) p = sprintf("under the flood, UNPATH %s s after SIGUSR2 (bound 5 s)", $3)
		if ($4 == "none" || ($2 != "none" && $4 > 3 * $2 + 3))
			p = p (p ? "; " : "") sprintf("under the flood, commit %s s after SIGUSR2, %s s without (bound 3 times that + 3 s)", $4, $2)
		print p }')"
}
# since T0: "UNPATH_S COMMIT_S", the first of each after T0 ("none")
since() {
	collect
	awk -v t0="$1" '$1 > t0 && $2 == "unpath" && u == "" { u = $1 - t0 }
		$1 > t0 && $2 == "commit" && c == "" { c = $1 - t0 }
		END { printf "%s %s\n", u == "" ? "none" : sprintf("%.3f", u),
			c == "" ? "none" : sprintf("%.3f", c) }' "$W/all.events"
}

# the monitor's own check: the blocks the spy saw are the switches' (before
# the flood, which may leave the simulator stuck)
spy_check() {
	SPY_CHECKED=1
	if ! read_lfts H_11_17 "$W/last.lfts"; then
		ko "monitor: LFTs read back"
		return
	fi
	check "monitor: the tables the spy saw are the switches'" spy_agrees
}
spy_agrees() {
	awk '
		FNR == NR { if ($2 == "resp") c[$3 " " $4] = $7; next }
		/^Unicast lids/ { sw = $0; sub(/.* guid 0x/, "", sw); sub(/ .*/, "", sw) }
		/^0x/ { v = 0; s = tolower(substr($1, 3))
			for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			k = sw " " int(v / 64)
			if (!(k in c)) { miss++; next }
			n++
			if (substr(c[k], 2 * (v % 64) + 1, 2) != sprintf("%02x", $2 + 0)) bad++ }
		END { printf "#   %d entries compared, %d differ, %d not seen\n", n, bad, miss
			exit !(n > 0 && !bad && !miss) }' "$W/spy.log" "$W/last.lfts"
}

# 7. a notice lost on the wire: the SM's answer to a held WAIT that tells
# of UNPATH never reaches the client (lftspy drops it); the SM sends it
# again, so the client still moves before the tables change, and soon
# (not after the keep-alive period)
case7() {
	case_begin "a notice lost on the wire"
	client n1 H_4_4 "sleep 0.5" true
	registered n1 || echo "# n1 did not register"
	sleep 1
	: >"$LFTSPY_DROP"
	update || echo "# no commit"
	wait_back n1 || echo "# n1 is not back"
	client_stop n1
	_late=
	if ! grep -q " drop " "$W/spy.log"; then
		_late="no notice was lost (lftspy dropped none)"
	else
		_d=$(awk '$2 == "drop" { print $1 }' "$W/spy.log" | tail -1)
		_h=$(awk '$1 == "start" && $2 == "unpath" { print $4; exit }' "$W/n1.hooks")
		echo "#   notice lost at $_d, unpath hook started at ${_h:-never}"
		awk -v d="$_d" -v h="${_h:-0}" 'BEGIN { exit !(h > d && h - d < 2) }' ||
			_late="the unpath hook did not start within 2 s of the lost notice"
	fi
	rm -f "$LFTSPY_DROP"
	verdict "$_late"
}

# 8. an ack lost on the wire: the client's ACKWAIT (its ack and its next
# WAIT in one MAD) never reaches the SM (lftspy swallows it); the SM sends
# the answer that asked for it again, the client sends its ACKWAIT again:
# the epoch commits without a timeout and the hook ran once
case8() {
	case_begin "an ack lost on the wire"
	client n1 H_4_4 "sleep 0.2" true
	registered n1 || echo "# n1 did not register"
	sleep 1
	: >"$LFTSPY_DROP_ACK"
	update || echo "# no commit"
	wait_back n1 || echo "# n1 is not back"
	client_stop n1
	_late=
	if ! grep -q " dropack " "$W/spy.log"; then
		_late="no ack was lost (lftspy dropped none)"
	else
		grep "osmre: update: epoch [0-9]* committed" "$W/osm.log" | tail -1 |
			grep -q "timeouts 0," || _late="the lost ack was not made good: a timeout"
		_u=$(awk '$1 == "start" && $2 == "unpath"' "$W/n1.hooks" | wc -l)
		[ "$_u" -eq 1 ] || _late="${_late:+$_late; }the unpath hook ran $_u times"
	fi
	rm -f "$LFTSPY_DROP_ACK"
	verdict "$_late"
}

NLOG=0
SPY_CHECKED=
for n in ${UPDATE_MONITOR_CASES:-1 2 3 4 5 6 7 8}; do
	[ "$n" = 6 ] && spy_check
	"case$n"
done
[ -n "$SPY_CHECKED" ] || spy_check
echo "# $(($(date +%s) - T_START)) s"
finish
