#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The update protocol at cluster scale, on ibsim by emulation: N
# subscriber sessions from HOSTS hosts (bench/update_load, N / HOSTS
# sessions each; update_max_sessions_per_port and update_port_rate lifted
# for the emulation: a real cluster has one session per node), on the
# 216-host blk216 fixture with sar and a job file, lmc 1 (HOSTS at most 6:
# ibsim refused a seventh loader's connection here).  For each N in
# SESSIONS (default "100 1000 10000 35000"), MODE wait (the long poll,
# update_keepalive_ms 30000, the SM's default) or poll (every session
# polls every 100 ms, update_keepalive_ms 0):
#  - idle: MADs a second at the SM (requests the loaders sent plus the
#    answers they got, over IDLE_S seconds, default 20, or two keep-alive
#    periods and 10 s when that is longer), the SM's CPU over that time
#    and its RSS;
#  - an epoch with every session acking at once: UNPATH start to commit,
#    and the latency of a SIGUSR2 sent during its UNPATH (to the log's
#    "re-route requested"; reroute_coalesce_ms 20 is part of it);
#  - an epoch with 1 % of the sessions never answering (they time out
#    after update_ack_timeout_ms, ACK_MS, default 5000, the default).
# The loaders ack with an ACK and then WAIT again (update_load -A), not
# with ACKWAIT as libosmre-client does: an ACKWAIT is held by the SM and
# gets no answer, so a loader cannot tell when ibsim has passed it on,
# and without that it must either send them slowly (50 ms each in its
# window of 4) or overflow ibsim's sockets, which wedges the emulation.
# ACKWAIT=1 uses ACKWAIT, paced by RATE MADs a second per loader
# (update_load -R; 0: the window and -T's guess, in LOAD_ARGS).
# NOTICE_RATE sets update_notice_rate (default the SM's, 20000: a phase's
# news to 35,000 sessions then takes 1.75 s).
# One CSV row per N on stdout (epoch_sm_cpu_s, epoch_sim_cpu_s: the CPU
# seconds OpenSM and ibsim spent from the SIGUSR2 to the commit):
#   mode,sessions,hosts,idle_mads_s,idle_cpu_pct,rss_mb,keepalive_s,epoch_s,unpath_s,repath_s,usr2_latency_s,epoch_silent_s,timeouts_silent,register_s,epoch_sm_cpu_s,epoch_sim_cpu_s
#   sh bench/update-scale.sh >OUT.csv        (from a build directory)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
OSMRE_TESTS_DIR=$top/tests
OSMRE_BIN=${OSMRE_BIN:-$PWD/tools/osmre}
OSMRE_PLUGIN_DIR=${OSMRE_PLUGIN_DIR:-$PWD/plugins/.libs}
LOAD=${OSMRE_LOAD:-$PWD/bench/update_load}
SESSIONS=${SESSIONS:-100 1000 10000 35000}
MODE=${MODE:-wait}
HOSTS=${HOSTS:-5}
IDLE_S=${IDLE_S:-20} # at least two keep-alive periods and 10 s
ACK_MS=${ACK_MS:-5000}
NOTICE_RATE=${NOTICE_RATE:-20000}
RATE=${RATE:-0}
. "$top/tests/ibsim/lib.sh"
DATA=$top/tests/data
NET=$DATA/blk216.net
J=$W/jobs.conf
cp "$DATA/blk216.jobs" "$J"
ka=30000
[ "$MODE" = poll ] && ka=0
{
	printf 'sar_job_file %s\nsar_max_vls 4\nupdate_protocol 1\nupdate_escape_vl 7\n' "$J"
	printf 'update_ack_timeout_ms %s\nupdate_poll_ms 100\nupdate_keepalive_ms %s\n' "$ACK_MS" "$ka"
	printf 'update_max_subscribers 65535\nupdate_max_sessions_per_port 65535\n'
	printf 'update_port_rate 1000000\nupdate_max_misses 100\nreroute_coalesce_ms 20\n'
	printf 'update_notice_rate %s\n' "$NOTICE_RATE"
} >"$W/osmre.conf"
OSMRE_CONF=$W/osmre.conf
export OSMRE_CONF
LOADERS=
trap 'stop_pids $LOADERS; cleanup' EXIT
sim_start "$NET" >&2 || exit 1
ROUTING=sar,updn osm_start H_0_0 "qos TRUE" "lmc 1" >&2 || { echo "no SUBNET UP" >&2; exit 1; }
wait_log "osmre: update: serving class" 1 60 >&2 || exit 1
now_s() { date '+%H %M %S %N' | awk '{ printf "%.6f\n", $1 * 3600 + $2 * 60 + $3 + $4 / 1e9 }'; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/${1:-$OSM_PID}/stat"; }
rss_mb() { awk '/^VmRSS/ { printf "%.1f\n", $2 / 1024 }' "/proc/$OSM_PID/status"; }
# loaders N SILENT TAG: N sessions over HOSTS hosts, SILENT of them (on
# the first host) never answer after registering
loaders() {
	LOADERS=
	_per=$((($1 + HOSTS - 1) / HOSTS))
	_left=$1
	_i=0
	while [ "$_left" -gt 0 ]; do
		_m=$_per
		[ "$_m" -gt "$_left" ] && _m=$_left
		# shellcheck disable=SC2046
		_s=0
		[ "$_i" -eq 0 ] && _s=$2
		sim_bg H_$((_i * 2 + 1))_$((_i + 3)) "$LOAD" -n "$_m" \
			-S "$_s" $([ "${ACKWAIT:-0}" = 1 ] || echo -A) $([ "$RATE" = 0 ] || echo -R "$RATE") ${LOAD_ARGS:-} -t 100000 $([ "$MODE" = wait ] && echo -w) >"$W/load-$3-$_i.log" 2>&1 &
		LOADERS="$LOADERS $!"
		_left=$((_left - _m))
		_i=$((_i + 1))
	done
	_j=0
	while [ "$_j" -lt "$_i" ]; do
		wait_file "$W/load-$3-$_j.log" "^registered" 600 ||
			{ echo "sessions did not register: $(tail -2 "$W/load-$3-$_j.log")" >&2; return 1; }
		_j=$((_j + 1))
	done
}
# snap TAG: each loader's last "stats" line: "FILE T MADS" (MADs: sent
# plus received so far)
snap() { awk '/^stats/ { t[FILENAME] = $2; s[FILENAME] = $4 + $6 }
	END { for (f in s) print f, t[f], s[f] }' "$W"/load-"$1"-*.log; }
# rate A B: MADs a second between two snaps, summed over the loaders
rate() { printf '%s\n%s\n' "$1" "$2" | awk '{ if ($1 in t) { r += ($3 - s[$1]) / ($2 - t[$1]) }
	else { t[$1] = $2; s[$1] = $3 } } END { printf "%.0f\n", r }'; }
# epoch K: a new job file and SIGUSR2; echo "epoch_s unpath_s repath_s timeouts usr2_latency"
epoch() {
	e_c=$(count_log "osmre: update: epoch [0-9]* committed")
	e_r=$(count_log "osmre: update: re-route requested")
	e_n=$(count_log "osmre: update: epoch [0-9]*: no base-LID block changes")
	e_u=$(count_log "osmre: update: epoch [0-9]*: UNPATH")
	awk -v k="$1" '!/^#/ && NF == 2 { srand(k * 7919 + NR); print $1, "x" int(rand() * 5) }' "$DATA/blk216.jobs" >"$J"
	e_c0=$(cpu_ticks)
	e_s0=$(cpu_ticks "$SIM_PID")
	kill -USR2 "$OSM_PID"
	wait_log "osmre: update: epoch [0-9]*: UNPATH" $((e_u + 1)) 120 >&2
	e_t=$(now_s)
	kill -USR2 "$OSM_PID" # during UNPATH: how soon is it taken
	wait_log "osmre: update: re-route requested" $((e_r + 2)) 60 >&2
	e_tl=$(grep "osmre: update: re-route requested" "$W/osm.log" | tail -1 | log_secs)
	wait_log "osmre: update: epoch [0-9]* committed" $((e_c + 1)) 600 >&2 || return 1
	e_c1=$(cpu_ticks)
	e_s1=$(cpu_ticks "$SIM_PID")
	e_line=$(grep "osmre: update: epoch [0-9]* committed" "$W/osm.log" | sed -n "$((e_c + 1))p")
	# the second SIGUSR2 runs one more epoch: let it end (no change)
	wait_log "osmre: update: epoch [0-9]*: no base-LID block changes" $((e_n + 1)) 600 >&2
	echo "$e_line" | awk -v t="$e_t" -v tl="$e_tl" '{
		for (i = 1; i <= NF; i++) { w = $i; gsub(/[,;]/, "", w)
			if ($(i - 1) == "unpath") u = w
			if ($(i - 1) == "update") d = w
			if ($(i - 1) == "repath") p = w
			if ($(i - 1) == "timeouts") to = w }
		printf "%.3f %s %s %s %.3f", u + d + p, u, p, to, tl - t }'
	echo " $e_c0 $e_c1 $e_s0 $e_s1 $(getconf CLK_TCK)" | awk '{
		printf " %.2f %.2f\n", ($2 - $1) / $5, ($4 - $3) / $5 }'
}
echo "mode,sessions,hosts,idle_mads_s,idle_cpu_pct,rss_mb,keepalive_s,epoch_s,unpath_s,repath_s,usr2_latency_s,epoch_silent_s,timeouts_silent,register_s,epoch_sm_cpu_s,epoch_sim_cpu_s"
k=1
for n in $SESSIONS; do
	t0=$(date +%s.%N)
	loaders "$n" 0 "$n" || exit 1
	treg=$(echo "$(date +%s.%N) $t0" | awk '{ printf "%.1f", $1 - $2 }')
	kas=$(grep -h "^keepalive" "$W"/load-"$n"-*.log | tail -1 | awk '{ print $2 }')
	[ "$MODE" = poll ] && kas=-
	# two keep-alive periods at least, to see them
	idle_s=$(echo "$IDLE_S ${kas:-0}" | awk '{ k = 2 * $2 + 10; print ($1 > k ? $1 : int(k)) }')
	sleep 12 # a stats line before the idle window
	a=$(snap "$n")
	c0=$(cpu_ticks)
	sleep "$idle_s"
	b=$(snap "$n")
	c1=$(cpu_ticks)
	hz=$(getconf CLK_TCK)
	idle=$(rate "$a" "$b")
	cpu=$(echo "$c0 $c1 $hz $idle_s" | awk '{ printf "%.1f", ($2 - $1) / $3 / $4 * 100 }')
	rss=$(rss_mb)
	e=$(epoch "$k")
	k=$((k + 1))
	# shellcheck disable=SC2086
	stop_pids $LOADERS
	sleep 2
	loaders "$n" $(((n + 99) / 100)) "$n-s" || exit 1
	sleep 2
	es=$(epoch "$k")
	k=$((k + 1))
	# shellcheck disable=SC2086
	stop_pids $LOADERS
	LOADERS=
	sleep 3 # the silent sessions are dropped when their loader leaves
	echo "$MODE $n $HOSTS $idle $cpu $rss ${kas:--} $e $es" | awk '{
		printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $12, $15, $18, "'"$treg"'", $13, $14 }'
done
finish >&2
