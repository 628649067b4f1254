#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The update protocol's invariant monitor, the test side (sourced after
# lib.sh and blk216_sar by update_monitor.sh and update_monitor_ha.sh):
# lftspy.so built for OpenSM's LD_PRELOAD, the event log, `osmre
# subscribe` clients whose hooks log what they do, the base LIDs, and
# verdict, which runs update_monitor.awk over a case's window.
#   MON_LOGS  the OpenSM logs to read (default: $W/osm-N.log, $W/osm.log;
#             a glob, expanded when collected); each is one SM instance
HERE=${HERE:-$(dirname "$0")}
if ! ${CC:-cc} -shared -fPIC -O2 -o "$W/lftspy.so" "$HERE/lftspy.c" 2>"$W/cc.err"; then
	cat "$W/cc.err"
	echo "cannot build lftspy.so: skipped"
	exit 77
fi
LFTSPY_LOG=$W/spy.log
LFTSPY_DROP=$W/drop-next-notice # (case 7) lftspy loses one notice
LFTSPY_DROP_ACK=$W/drop-next-ack # (case 8) and one ack
export LFTSPY_LOG LFTSPY_DROP LFTSPY_DROP_ACK

now() { date +%s.%N; }
ev() { echo "$(now) $*" >>"$W/events"; }
: >"$W/events"
: >"$W/clients"

# base_lids HOST: the CA base LIDs from the tables read back from HOST, in
# $W/base.lids (dump_fts names a port's other LIDs "path #2 out of 2")
base_lids() {
	read_lfts "$1" "$W/first.lfts" || return 1
	awk '/^0x/ && /Channel Adapter/ { v = 0; s = tolower(substr($1, 3))
		for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		print v }' "$W/first.lfts" | sort -u -n >"$W/base.lids"
}

# a hook: logs "start PHASE EPOCH TIME SESSION PID", runs its command,
# logs "end PHASE EPOCH TIME SESSION STATUS", exits with the status
cat >"$W/hook.sh" <<'EOF'
f=$1
shift
echo "start ${OSMRE_PHASE:-?} ${OSMRE_EPOCH:-?} $(date +%s.%N) ${OSMRE_SESSION:--} $$" >>"$f"
sh -c "$*"
rc=$?
echo "end ${OSMRE_PHASE:-?} ${OSMRE_EPOCH:-?} $(date +%s.%N) ${OSMRE_SESSION:--} $rc" >>"$f"
exit "$rc"
EOF

# client NAME HOST UNPATH REPATH: an `osmre subscribe` process on HOST
# whose hooks run UNPATH and REPATH; its PID in PID_NAME
client() {
	: >"$W/$1.hooks"
	ev proc "$1"
	echo "$1" >>"$W/clients"
	sim_bg $2 "$OSMRE" subscribe \
		--on-unpath "sh $W/hook.sh $W/$1.hooks $3" \
		--on-repath "sh $W/hook.sh $W/$1.hooks $4" >"$W/$1.log" 2>&1 &
	eval "PID_$1=\$!"
}
pid_of() { eval "echo \$PID_$1"; }
registered() { wait_file "$W/$1.log" "registered as subscriber" 30; }
client_stop() {
	for c in "$@"; do
		ev stop "$c"
		stop_pids "$(pid_of "$c")"
	done
}
# on_base NAME: the client is not on the escape and runs no hook
on_base() {
	awk '$1 == "end" && $2 == "unpath" && $6 == 0 { e = 1 }
	     $1 == "start" && $2 == "repath" { e = 0 }
	     { last = $1 }
	     END { exit !(!e && last != "start") }' "$W/$1.hooks"
}
wait_back() {	# wait_back NAME...: until every client is on the base LIDs (10 s)
	for _ in $(seq 50); do
		_all=1
		for c in "$@"; do on_base "$c" || _all=0; done
		[ "$_all" = 1 ] && return 0
		sleep 0.2
	done
	return 1
}

K=0
jobs_next() {	# a job file unlike the one before: the 9 jobs merged into 2..7
	K=$((K + 1))
	awk -v k=$((2 + K % 6)) '!/^#/ && NF == 2 { print $1, "m" ($2 % k) }' "$DATA/blk216.jobs" >"$J"
}
# the events of every source, on one clock, sorted by time
collect() {
	_mid=$(date -d "$(date +%Y-%m-%d)" +%s)
	_now=$(date +%s)
	{
		cat "$W/spy.log" "$W/events"
		_i=0
		# shellcheck disable=SC2086
		for f in ${MON_LOGS:-$W/osm-[0-9]*.log $W/osm.log}; do
			[ -f "$f" ] || continue
			_i=$((_i + 1))
			awk -v inst="$_i" -v mid="$_mid" -v now="$_now" '
				function t(   a, s) {
					split($3, a, ":")
					s = mid + a[1] * 3600 + a[2] * 60 + a[3] + $4 / 1e6
					return s > now + 3600 ? s - 86400 : s
				}
				function ep(   e) {
					e = $0
					sub(/.*osmre: update: epoch /, "", e)
					sub(/[^0-9].*/, "", e)
					return inst ":" e
				}
				NR == 1 { printf "%.6f sm start %d\n", t(), inst }
				/osmre: update: epoch [0-9]+: UNPATH/ { printf "%.6f unpath %s\n", t(), ep() }
				/osmre: update: epoch [0-9]+ committed/ {
					s = $0
					sub(/.* committed /, "", s)
					printf "%.6f commit %s %s\n", t(), ep(), s
				}
				/osmre: [a-z]+ (routed|kept) .*[0-9]+ switches in / {
					printf "%.6f pass %d\n", t(), inst
				}' "$f"
		done
		while read -r c; do
			awk -v c="$c" '/ osmre subscribe: registered as subscriber / {
				id = $0; sub(/.*registered as subscriber /, "", id); sub(/ .*/, "", id)
				print $1, "reg", c, id }
				/ osmre subscribe: .*refused the registration/ || / osmre subscribe: leaving$/ {
				print $1, "unreg", c }' "$W/$c.log"
			awk -v c="$c" 'NF >= 6 { print $4, "hook", c, $1, $2, $3, $5, $6 }' "$W/$c.hooks"
		done <"$W/clients"
	} | sort -s -n -k1,1 >"$W/all.events"
}

case_begin() { CASE=$1; FROM=$(now); ev case begin; }
# verdict [EXTRA_PROBLEM]: the monitor over the case's window; a non-empty
# EXTRA_PROBLEM fails the case too
verdict() {
	TO=$(now)
	collect
	awk -v from="$FROM" -v to="$TO" -v ackms="$ACK_MS" \
		-v maxm="$MAX_MISSES" -f "$HERE/update_monitor.awk" "$W/base.lids" "$W/all.events" >"$W/verdict.out"
	grep '^#' "$W/verdict.out"
	_v=$(sed -n 's/^VIOLATION //p' "$W/verdict.out")
	_o=$(sed -n 's/^OK //p' "$W/verdict.out")
	# changes outside topology passes, sessions under the promise
	_s=$(awk '$1 == "STATS" { print $2 - $3, $4 }' "$W/verdict.out")
	if [ -n "$_v" ]; then
		ko "$CASE: $_v${1:+; and $1}"
	elif [ -z "$_o" ]; then
		ko "$CASE: the monitor gave no verdict"
	elif [ "${_s% *}" -le 0 ] || [ "${_s#* }" -le 0 ]; then
		ko "$CASE: no base-LID block changed under a session: nothing was tested ($_o)"
	elif [ -n "${1:-}" ]; then
		ko "$CASE: $1 (the promise held: $_o)"
	else
		ok "$CASE: promise held ($_o)"
	fi
}

