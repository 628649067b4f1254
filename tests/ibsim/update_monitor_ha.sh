#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The update protocol's promise with a master and a standby OpenSM, both
# with the plugin (blk216, sar with a job file, lmc 1, qos on, SMInfo
# polling every 1 s, 2 retries; WAITs held 5 s, what a restarted SM waits
# at most for the clients it knew), checked by the independent monitor
# (monitor_lib.sh, update_monitor.awk: every base-LID block the switches
# answered changed, against every live client's hooks, the SMs' logs
# together).  Cases, in one run:
#  A. failover while idle: the master killed (-9), the standby takes
#     over; its first pass changes no block; the clients follow it; a job
#     change and SIGUSR2 to the new master move them first;
#  B. handover back with a stale cache: the old master restarted with a
#     higher priority, its cache directory from before it died (tables
#     and sessions of then) and a new job file; the new master installs
#     nothing at once, the clients follow it, its epoch moves them first;
#  C. failover during UNPATH: a job change and SIGUSR2, the master
#     killed while the clients' unpath hooks run (1.5 s); the standby (a
#     master before: what it had routed is stale) takes over, changes no
#     block, the clients come back; SIGUSR2 to it moves them first;
#  D. kill -9 in UPDATE: the only SM killed in the middle of its
#     epoch's push (lftspy, after the 30th block), restarted on its
#     cache: its first pass changes no block before an epoch;
#  E. a refused sessions file: the SM stopped, its sessions file
#     truncated, made a symlink, made world-writable (three rounds),
#     restarted: the client registers again and a change (SIGUSR2
#     during the grace period) moves it first;
#  F. a handover to an SM whose engine routes otherwise (dmodc, not
#     stable, where sar routed): its first pass keeps the switches'
#     tables in force, and an epoch brings its own in, the clients
#     moved first.
# Each case prints the blocks the switches saw change from the death (or
# restart) to the new master's first UNPATH, and the time from the death
# to the first epoch commit.
set -u
. "$(dirname "$0")/lib.sh"
HERE=$(dirname "$0")
ACK_MS=2000
MAX_MISSES=2
blk216_sar "update_protocol 1" "update_escape_vl 7" "update_ack_timeout_ms $ACK_MS" \
	"update_poll_ms 100" "update_max_misses $MAX_MISSES" "update_keepalive_ms 5000"
. "$HERE/monitor_lib.sh"
MON_LOGS="$W/p*/osm*.log"
LFTSPY_DIE=$W/die # (case D) lftspy kills OpenSM in its push
export LFTSPY_DIE
T_START=$(date +%s)

# sm_up K HOST PRIORITY: OpenSM K with the spy (routing_engine
# SM_ROUTING, default sar,updn), until SUBNET UP or STANDBY
sm_up() {
	OSM_WRAPPER="env LD_PRELOAD=$W/lftspy.so:$UMAD2SIM" ROUTING=${SM_ROUTING:-sar,updn} \
		sm_start "$1" "$2" "sm_priority $3" "sminfo_polling_timeout 1000" \
		"polling_retry_number 2" "qos TRUE" "lmc 1"
	plane_wait "$1" "SUBNET UP\|Entering STANDBY state" 1 120
}
# sm_kill K: OpenSM K killed with -9
sm_kill() {
	ev dead-sm "$1"
	eval "kill -9 \$SM$1"
	eval "wait \$SM$1" 2>/dev/null
	eval "SM$1="
}
# sm_restart K HOST PRIORITY: K again on its cache, a fresh log (the old
# one kept as osm-N.log)
NLOG=0
sm_restart() {
	NLOG=$((NLOG + 1))
	mv "$W/p$1/osm.log" "$W/p$1/osm-$NLOG.log"
	sm_up "$@"
}
# new_master K CLIENT...: until SM K is up, the clients registered with
# it, its first epoch committed and the clients back; then they stop
new_master() {
	_k=$1
	shift
	plane_wait "$_k" "SUBNET UP" 1 120 || echo "# SM $_k did not take over"
	wait_regs 2 "$@" || echo "# a client did not follow the new master"
	plane_wait "$_k" "osmre: update: epoch [0-9]* committed" 1 90 || echo "# no commit"
	wait_back "$@" || echo "# a client is not back"
	client_stop "$@"
}
sig_sm() { ev usr2; eval "kill -USR2 \$SM$1"; }
commits_sm() { grep -c "osmre: update: epoch [0-9]* committed" "$W/p$1/osm.log"; }
regs() { grep -c "registered as subscriber" "$W/$1.log"; }
# wait_regs N CLIENT...: until each client registered N times (60 s)
wait_regs() {
	_n=$1
	shift
	for _ in $(seq 300); do
		_all=1
		for c in "$@"; do [ "$(regs "$c")" -ge "$_n" ] || _all=0; done
		[ "$_all" = 1 ] && return 0
		sleep 0.2
	done
	return 1
}
# changed_since T0 [T1]: LFT blocks (any LID) that an SM's Set sent
# between T0 and T1 (default: now) changed, by the switch's answer
changed_since() {
	awk -v a="$1" -v b="${2:-9999999999}" '
		$2 == "set" { sent[$3 " " $4 " " $5] = $1; next }
		$2 == "resp" {
			k = $3 " " $4
			t = sent[k " " $5]
			if ((k in c) && c[k] != $7 && t != "" && t >= a && t <= b) n++
			c[k] = $7 }
		END { print n + 0 }' "$W/spy.log"
}
# first_unpath K T0: the time of SM K's first UNPATH after T0 (its log)
first_unpath() {
	collect
	awk -v t0="$2" '$2 == "unpath" && $1 > t0 { print $1; exit }' "$W/all.events"
}
# after T0 [T]: "S s after", or "none" without T
after() {
	awk -v a="$1" -v b="${2:-}" 'BEGIN { if (b == "") print "none"; else printf "%.1f s after\n", b - a }'
}
# report T_DEAD K WHAT: blocks changed from T_DEAD to SM K's first UNPATH
# after it, and the time to its first commit; FAILOVER_BLOCKS set
report() {
	_u=$(first_unpath "$2" "$1")
	FAILOVER_BLOCKS=$(changed_since "$1" "${_u:-}")
	_c=$(awk -v t0="$1" '$2 == "commit" && $1 > t0 { print $1; exit }' "$W/all.events")
	echo "#   $3: $FAILOVER_BLOCKS LFT block(s) changed before the first UNPATH ($(after "$1" "$_u")); first epoch commit $(after "$1" "$_c")"
}
no_failover_change() {
	[ "$FAILOVER_BLOCKS" -eq 0 ] || echo "$FAILOVER_BLOCKS block(s) changed at $1 before any UNPATH"
}

sim_start "$NET" || exit 1
sm_up 0 H_0_0 10 || { ko "master: SUBNET UP"; exit 1; }
plane_wait 0 "osmre: update: serving class" 1 30
sm_up 1 H_1_0 1 || { ko "standby: STANDBY"; exit 1; }
check "the spy sees OpenSM's LFT blocks" wait_file "$W/spy.log" " resp " 10
base_lids H_11_17 || { ko "LFTs read back"; exit 1; }
check "216 base LIDs" [ "$(wc -l <"$W/base.lids")" -eq 216 ]

caseA() {
	case_begin "failover while idle"
	client i1 H_3_5 "sleep 0.5" true
	client i2 H_9_12 "sleep 0.5" true
	wait_regs 1 i1 i2 || echo "# a client did not register"
	sleep 1
	_t=$(now)
	sm_kill 0
	plane_wait 1 "SUBNET UP" 1 120 || echo "# the standby did not take over"
	wait_regs 2 i1 i2 || echo "# a client did not follow the new master"
	_n=$(commits_sm 1)
	jobs_next
	sig_sm 1
	plane_wait 1 "osmre: update: epoch [0-9]* committed" $((_n + 1)) 60 || echo "# no commit"
	wait_back i1 i2 || echo "# a client is not back"
	client_stop i1 i2
	collect
	report "$_t" 1 "failover"
	verdict "$(no_failover_change failover)"
}

caseB() {
	case_begin "handover back with a stale cache"
	client h1 H_3_5 "sleep 0.5" true
	client h2 H_9_12 "sleep 0.5" true
	wait_regs 1 h1 h2 || echo "# a client did not register"
	sleep 1
	jobs_next
	_t=$(now)
	sm_restart 0 H_0_0 10 || echo "# the old master did not come back"
	plane_wait 1 "Entering STANDBY state" 2 60 || echo "# the master did not hand over"
	new_master 0 h1 h2
	grep -q "osmre ERR: update: the saved committed tables are not what the switches hold" "$W/p0/osm.log" ||
		echo "# the stale tables were not found stale"
	collect
	report "$_t" 0 "handover"
	verdict "$(no_failover_change handover)"
}

caseC() {
	case_begin "failover during UNPATH"
	client u1 H_4_4 "sleep 1.5" true
	client u2 H_6_6 "sleep 1.5" true
	wait_regs 1 u1 u2 || echo "# a client did not register"
	sleep 1
	jobs_next
	sig_sm 0
	wait_file "$W/u1.hooks" "^start unpath" 30 || echo "# no unpath hook"
	_t=$(now)
	sm_kill 0
	_s=$(grep -c "SUBNET UP" "$W/p1/osm.log")
	plane_wait 1 "SUBNET UP" $((_s + 1)) 120 || echo "# the standby did not take over"
	wait_regs 2 u1 u2 || echo "# a client did not follow the new master"
	wait_back u1 u2 || echo "# a client did not come back after the failover"
	_n=$(commits_sm 1)
	sig_sm 1
	plane_wait 1 "osmre: update: epoch [0-9]* committed" $((_n + 1)) 60 || echo "# no commit"
	wait_back u1 u2 || echo "# a client is not back"
	client_stop u1 u2
	grep -q "osmre: master again: this pass starts from the tables the switches hold" "$W/p1/osm.log" ||
		echo "# the standby did not start from the switches' tables"
	collect
	report "$_t" 1 "failover during UNPATH"
	verdict "$(no_failover_change "the failover")"
}

caseD() {
	case_begin "kill -9 in UPDATE"
	client k1 H_5_15 "sleep 0.3" true
	wait_regs 1 k1 || echo "# k1 did not register"
	sleep 1.5
	jobs_next
	_u=$(grep -c "osmre: update: epoch [0-9]*: UNPATH" "$W/p1/osm.log")
	sig_sm 1
	plane_wait 1 "osmre: update: epoch [0-9]*: UNPATH" $((_u + 1)) 60 || echo "# no UNPATH"
	# (lftspy kills OpenSM after the 30th block of the UPDATE's push)
	echo 30 >"$LFTSPY_DIE"
	for _ in $(seq 300); do
		kill -0 "$SM1" 2>/dev/null || break
		sleep 0.1
	done
	grep -q " die$" "$W/spy.log" || echo "# OpenSM was not killed in its push"
	wait "$SM1" 2>/dev/null
	SM1=
	_t=$(now)
	ev dead-sm 1
	echo "#   killed after the 30th LFT Set of $(grep "osmre: update: epoch [0-9]*: UPDATE" "$W/p1/osm.log" | tail -1 | sed 's/.*osmre: update: //')"
	sleep 1
	sm_restart 1 H_1_0 1 || echo "# the SM did not come back"
	plane_wait 1 "osmre: update: epoch [0-9]* committed" 1 90 || echo "# no commit after the restart"
	wait_back k1 || echo "# k1 is not back"
	client_stop k1
	collect
	report "$_t" 1 "restart after kill -9"
	verdict "$(no_failover_change "the restart")"
}

# caseE KIND: the sessions file made one OpenSM refuses (truncated, a
# symlink to a good copy, group- and world-writable)
caseE() {
	case_begin "a refused sessions file ($1)"
	client e1 H_7_7 "sleep 0.5" true
	wait_regs 1 e1 || echo "# e1 did not register"
	sleep 1.5
	ev stop-sm 1
	stop_wait "$SM1" 60
	wait "$SM1" 2>/dev/null
	_f=$W/p1/cache/osmre-sessions
	[ -s "$_f" ] || echo "# no sessions file saved"
	case $1 in
	truncated)
		head -c "$(($(wc -c <"$_f") / 2))" "$_f" >"$_f.half" && mv "$_f.half" "$_f"
		chmod 600 "$_f" ;;
	symlink)
		mv "$_f" "$W/sessions.copy" && ln -s "$W/sessions.copy" "$_f" ;;
	writable)
		chmod 666 "$_f" ;;
	esac
	jobs_next
	_t=$(now)
	sm_restart 1 H_1_0 1 || echo "# the SM did not come back"
	plane_wait 1 "SUBNET UP" 1 120
	sig_sm 1
	plane_wait 1 "osmre: update: epoch [0-9]* committed" 1 90 || echo "# no commit"
	wait_back e1 || echo "# e1 is not back"
	client_stop e1
	grep -q "osmre ERR: update: .*osmre-sessions.*not used" "$W/p1/osm.log" ||
		echo "# the sessions file was not refused"
	echo "#   $(grep "osmre ERR: update: .*osmre-sessions.*not used" "$W/p1/osm.log" | head -1 | sed 's/.*osmre ERR: update: //' | cut -c1-150)"
	echo "#   $(grep "osmre: update: epoch [0-9]* committed" "$W/p1/osm.log" | tail -1 | sed 's/.*osmre: update: //')"
	rm -f "$_f" "$W/sessions.copy"
	collect
	report "$_t" 1 "restart with a refused file ($1)"
	verdict "$(no_failover_change "the restart")"
}

caseF() {
	case_begin "a handover to an SM that routes otherwise"
	client d1 H_8_8 "sleep 0.5" true
	client d2 H_2_9 "sleep 0.5" true
	wait_regs 1 d1 d2 || echo "# a client did not register"
	sleep 1
	_t=$(now)
	SM_ROUTING=dmodc,updn sm_restart 0 H_0_0 10 || echo "# the SM did not come back"
	new_master 0 d1 d2
	grep -q "osmre: dmodc: the tables the switches hold stay in force" "$W/p0/osm.log" ||
		echo "# the switches' tables were not kept in force"
	collect
	report "$_t" 0 "handover to dmodc"
	verdict "$(no_failover_change "the handover")"
}

for n in ${UPDATE_MONITOR_CASES:-A B C D E F}; do
	case $n in
	E) for k in truncated symlink writable; do caseE "$k"; done ;;
	*) "case$n" ;;
	esac
done
echo "# $(($(date +%s) - T_START)) s"
finish
