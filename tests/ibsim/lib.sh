#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# ibsim end-to-end harness: one private ibsim (own IBSIM_SOCKNAME, console on
# a fifo opened read-write), one OpenSM with the osmre plugin under
# umad2sim (fresh cache dir, force_log_flush), diagnostics from other HCAs.
# Everything waits with a timeout; everything started is stopped by PID.
# Sourced by the tests: set -u, then `. lib.sh`.

OSMRE=${OSMRE_BIN:-tools/osmre}
LFTTOP=${OSMRE_LFTTOP:-tests/ibsim/lfttop}
# (empty: no LD_LIBRARY_PATH at all, the plugin from the system's
# library path: scripts/check-package)
PLUGIN_DIR=${OSMRE_PLUGIN_DIR-plugins/.libs}
# (absolute: the processes under umad2sim run in $W, see sim_run)
case $OSMRE in /*) ;; */*) OSMRE=$PWD/$OSMRE ;; esac
case $LFTTOP in /*) ;; */*) LFTTOP=$PWD/$LFTTOP ;; esac
case $PLUGIN_DIR in /* | "") ;; *) PLUGIN_DIR=$PWD/$PLUGIN_DIR ;; esac
UMAD2SIM=${UMAD2SIM:-/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so}
W=$(mktemp -d /tmp/osmre-ibsim.XXXXXX)
IBSIM_SOCKNAME=osmre$$
export IBSIM_SOCKNAME
SIM_PID=
OSM_PID=
FAILS=0

ok() { echo "ok - $*"; }
ko() { echo "not ok - $*"; FAILS=$((FAILS + 1)); }
check() {	# check NAME CMD...: ok when CMD succeeds
	_name=$1
	shift
	if "$@"; then ok "$_name"; else ko "$_name"; fi
}

# the tests' directory: OSMRE_TESTS_DIR (a script outside tests/: bench/,
# a researcher's own), else the sourcing script's parent or directory;
# a clear refusal when none holds procs.sh
for _td in "${OSMRE_TESTS_DIR:-}" "$(dirname "$0")/.." "$(dirname "$0")"; do
	[ -n "$_td" ] && [ -f "$_td/procs.sh" ] && break
	_td=
done
if [ -z "$_td" ]; then
	echo "lib.sh: no procs.sh beside it: set OSMRE_TESTS_DIR to the tests/ directory of an osmre tree (e.g. OSMRE_TESTS_DIR=\$HOME/osmre/tests), and OSMRE_BIN, OSMRE_PLUGIN_DIR to a build's tools/osmre and plugins/.libs" >&2
	rm -rf "$W"
	exit 2
fi
# shellcheck disable=SC1091
. "$_td/procs.sh"

cleanup() {
	# OpenSM first, while ibsim still answers: it exits, and umad2sim
	# removes its fake sysfs
	# shellcheck disable=SC2086
	stop_pids $OSM_PID
	# shellcheck disable=SC2086
	stop_pids $SIM_PID
	OSM_PID=
	SIM_PID=
	# what else the script left running in the background (clients,
	# probes) when a signal or a failure ends it early: the children of
	# this shell ($$ is the script's even in a ( subshell ): the PID of
	# the shell running this is the parent of a command it execs)
	_me=$(exec sh -c 'echo $PPID')
	# shellcheck disable=SC2046
	stop_pids $(pgrep -P "$_me" 2>/dev/null)
	if [ "$FAILS" -ne 0 ] && [ -f "$W/osm.log" ]; then
		echo "---- last lines of the OpenSM log"
		tail -40 "$W/osm.log"
	fi
	[ -n "${KEEP:-}" ] || rm -rf "$W"
}
# a signal ends the script (cleanup on the way out), rather than
# running cleanup and going on with the next step
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# sim_start NETFILE: ibsim with room for the fabric
sim_start() {
	# (a second simulator in the same run: the fifo stays, the log goes)
	[ -p "$W/con" ] || mkfifo "$W/con"
	: >"$W/ibsim.log"
	# ibsim's tables: 8192 nodes, 2048 switches, 65536 ports unless the
	# fabric declares more (a 2,133-switch megafly of bench/heldout)
	sim_room=$(awk '/^(Switch|Hca|Ca)[ \t]/ { n++; p += $2; s += $1 == "Switch" }
		END { printf "-N %d -S %d -P %d", (n > 8000 ? n + 192 : 8192),
			(s > 2000 ? s + 48 : 2048), (p > 64000 ? p + 1536 : 65536) }' "$1")
	# shellcheck disable=SC2086
	ibsim -s ${IBSIM_ARGS:-$sim_room} "$1" 0<>"$W/con" >"$W/ibsim.log" 2>&1 &
	SIM_PID=$!
	for _ in $(seq $((${SIM_START_TIMEOUT:-20} * 10))); do
		grep -q "^sim>" "$W/ibsim.log" 2>/dev/null && return 0
		kill -0 "$SIM_PID" 2>/dev/null || break
		sleep 0.1
	done
	echo "ibsim did not start:"; cat "$W/ibsim.log"
	return 1
}

console() { echo "$*" >"$W/con"; }

# sim_run HOST CMD...: CMD on HOST's HCA of the simulated fabric, run in
# $W.  umad2sim writes a fake sysfs to ./sys-PID in the working
# directory and removes it only when the process exits normally: a
# process killed (a timeout, SIGKILL) leaves it, in $W, which goes at
# cleanup, not in the tree the test was started from.
sim_run() {
	_h=$1
	shift
	(cd "$W" && exec env LD_PRELOAD="$UMAD2SIM" SIM_HOST="$_h" "$@")
}
# sim_bg HOST CMD... &: the same in the background, only ever followed
# by "&" (the background subshell changes directory and execs CMD: $! is
# CMD's PID, for kill)
sim_bg() {
	_h=$1
	shift
	cd "$W" && exec env LD_PRELOAD="$UMAD2SIM" SIM_HOST="$_h" "$@"
}

# osm_start SM_HOST [opensm.conf lines...]; $OSM_WRAPPER, when set, runs
# opensm (valgrind and its options)
osm_start() {
	_host=$1
	shift
	mkdir -p "$W/cache" "$W/dump"
	{
		echo "force_log_flush TRUE"
		echo "event_plugin_name osmre"
		echo "routing_engine ${ROUTING:-dmodc,updn}"
		echo "dump_files_dir $W/dump"
		for l in "$@"; do echo "$l"; done
	} >"$W/opensm.conf"
	# (in $W, as sim_run: the subshell execs, so $! is opensm's PID,
	# or its wrapper's)
	# shellcheck disable=SC2086
	(cd "$W" && exec env OSM_CACHE_DIR="$W/cache" OSM_TMP_DIR="$W/cache" \
		${PLUGIN_DIR:+LD_LIBRARY_PATH=$PLUGIN_DIR} LD_PRELOAD="$UMAD2SIM" SIM_HOST="$_host" \
		${OSM_WRAPPER:-} opensm -F "$W/opensm.conf" -f "$W/osm.log" -D "${OSM_DEBUG:-0x43}") \
		>"$W/opensm.out" 2>&1 &
	OSM_PID=$!
	wait_log "SUBNET UP" 1 "${OSM_UP_TIMEOUT:-120}"
}

# wait_log PATTERN COUNT TIMEOUT_S: until PATTERN is in the log COUNT times
wait_log() {
	_end=$(($(date +%s) + $3))
	while [ "$(date +%s)" -le "$_end" ]; do
		_c=$(grep -c -- "$1" "$W/osm.log" 2>/dev/null)
		[ "${_c:-0}" -ge "$2" ] && return 0
		kill -0 "$OSM_PID" 2>/dev/null || { echo "opensm died"; return 1; }
		sleep 0.2
	done
	echo "timeout waiting for \"$1\" x$2"
	return 1
}

# osm_stop [LABEL]: stops this OpenSM and keeps its log as
# $W/osm-LABEL.log (removes it without a label), so that the next OpenSM
# starts a fresh log; a fresh cache, and time for ibsim to free the client
# slot.  An OpenSM still there OSM_STOP_TIMEOUT s (120) after SIGTERM is
# killed: OpenSM 3.3.23 can hang on its way out when stopped in the
# middle of a sweep on a large fabric (its main thread waiting in
# cl_disp_unregister for an LFT callback blocked on the subnet lock).
osm_stop() {
	stop_wait "$OSM_PID" "${OSM_STOP_TIMEOUT:-120}"
	wait "$OSM_PID" 2>/dev/null
	OSM_PID=
	if [ -n "${1:-}" ]; then
		mv "$W/osm.log" "$W/osm-$1.log"
	else
		rm -f "$W/osm.log"
	fi
	rm -rf "$W/cache"
	sleep 2
}

# log stamps "Mon DD HH:MM:SS usec" -> seconds of the day
log_secs() { awk '{ split($3, t, ":"); printf "%.6f\n", t[1] * 3600 + t[2] * 60 + t[3] + $4 / 1e6 }'; }

# routing_step LOG ENGINE N: seconds of ENGINE's N-th routing step in LOG
# (needs log level 0x04 for "building routing with")
routing_step() {
	_b=$(grep "building routing with '$2'" "$1" | sed -n "$3p" | log_secs)
	_e=$(grep "$2 tables configured on all switches" "$1" | sed -n "$3p" | log_secs)
	awk -v b="$_b" -v e="$_e" 'BEGIN { if (b == "" || e == "") print "-"; else printf "%.3f\n", e - b }'
}

count_log() { grep -c -- "$1" "$W/osm.log" 2>/dev/null; }

# plane_start K SM_HOST [LINE...]: an OpenSM for plane K of a multi-plane
# fabric, on SM_HOST's single port (gen --sm-hca: GUID 0x5A0000 + 2K,
# port 1 one more), bound with -g, in $W/pK (its opensm.conf with LINEs
# added, cache, dump directory, osm.log); ROUTING (default dmodc),
# OSM_DEBUG (default 0x43).  Its PID in SM<K>; OSM_PID holds every
# plane's, for cleanup.
plane_start() {
	_k=$1 _h=$2
	shift 2
	SM_BIND="-g $(printf "0x%016x" $((0x5A0000 + 2 * _k + 1)))"
	sm_start "$_k" "$_h" "$@"
	SM_BIND=
}

# sm_start K SM_HOST [LINE...]: OpenSM number K of one subnet (a master
# and standbys), on SM_HOST's HCA (SM_BIND: opensm's -g, plane_start's;
# else the HCA's first port), in $W/pK with its opensm.conf (LINEs
# added), cache, dump directory and osm.log; ROUTING (default dmodc),
# OSM_DEBUG (default 0x43), OSM_WRAPPER (as osm_start's).  Its PID in
# SM<K>, added to OSM_PID.
sm_start() {
	_d=$W/p$1
	_k=$1 _h=$2
	shift 2
	mkdir -p "$_d/cache" "$_d/dump"
	{
		echo "force_log_flush TRUE"
		echo "event_plugin_name osmre"
		echo "routing_engine ${ROUTING:-dmodc}"
		echo "dump_files_dir $_d/dump"
		for l in "$@"; do echo "$l"; done
	} >"$_d/opensm.conf"
	# shellcheck disable=SC2086
	(cd "$W" && exec env OSM_CACHE_DIR="$_d/cache" OSM_TMP_DIR="$_d/cache" \
		${PLUGIN_DIR:+LD_LIBRARY_PATH=$PLUGIN_DIR} LD_PRELOAD="$UMAD2SIM" SIM_HOST="$_h" \
		${OSM_WRAPPER:-} opensm ${SM_BIND:-} -F "$_d/opensm.conf" -f "$_d/osm.log" -D "${OSM_DEBUG:-0x43}") \
		>"$_d/opensm.out" 2>&1 &
	eval "SM$_k=\$!"
	OSM_PID="${OSM_PID:-} $!"
}

# plane_wait K PATTERN COUNT [TIMEOUT_S]: until plane K's log has PATTERN
# COUNT times (default 120 s; not when its OpenSM is gone)
plane_wait() {
	_end=$(($(date +%s) + ${4:-120}))
	eval "_pid=\$SM$1"
	while [ "$(date +%s)" -le "$_end" ]; do
		_c=$(grep -c -- "$2" "$W/p$1/osm.log" 2>/dev/null)
		[ "${_c:-0}" -ge "$3" ] && return 0
		kill -0 "$_pid" 2>/dev/null || { echo "opensm of plane $1 died"; tail -3 "$W/p$1/opensm.out"; return 1; }
		sleep 0.2
	done
	echo "timeout: plane $1 waiting for \"$2\" x$3"
	return 1
}

# diag HOST CMD...: a diagnostic from HOST's HCA, with a timeout and retries
# (umad2sim never times MADs out; a client started while OpenSM is still
# configuring ports may hang)
diag() {
	_host=$1
	shift
	for _ in 1 2 3; do
		sim_run "$_host" timeout 60 "$@" && return 0
		sleep 1
	done
	return 1
}

# read_lfts HOST OUT: every switch's LFT, read back from the fabric
# (dump_fts, then complete_top)
read_lfts() {
	diag "$1" dump_fts >"$2" 2>"$2.err" && grep -q "^Unicast lids" "$2" &&
		complete_top "$1" "$2"
}

# complete_top HOST DUMP: infiniband-diags 44 reads no LFT block at or
# above ALIGN(top, 64) / 64, so when a switch's top LID is a multiple
# of 64 its entry is missing from DUMP (dump_fts or dump_lfts output);
# lfttop (tests/ibsim/lfttop.c, built by make) reads it and adds it.
# Without lfttop: an error, and read_lfts fails.
complete_top() {
	grep -q '^Unicast lids \[0x0-0x[0-9a-f]*[048c]0\] ' "$2" || return 0
	if [ ! -x "$LFTTOP" ]; then
		# incomplete tables measured as whole are wrong figures: fail
		echo "complete_top: $2: the top LID is a multiple of 64 and $LFTTOP is not built (make tests/ibsim/lfttop, built by make with ibsim): its entries cannot be read" >&2
		return 1
	fi
	if diag "$1" "$LFTTOP" "$2" >"$2.full" 2>"$2.top"; then
		mv "$2.full" "$2"
	else
		echo "complete_top: $2: the top LID's entries not all read: $(head -1 "$2.top")" >&2
		[ -s "$2.full" ] && mv "$2.full" "$2" # (what was read)
	fi
	rm -f "$2.full" "$2.top"
}

# same_lfts A B: the two dumps route every LID of every switch the same way
same_lfts() {
	awk '/^Unicast lids/ { sw = $0; sub(/.* guid /, "", sw); sub(/ .*/, "", sw) }
	     /^0x/ { print sw, $1, $2 }' "$1" | sort >"$W/a.sorted"
	awk '/^Unicast lids/ { sw = $0; sub(/.* guid /, "", sw); sub(/ .*/, "", sw) }
	     /^0x/ { print sw, $1, $2 }' "$2" | sort >"$W/b.sorted"
	cmp -s "$W/a.sorted" "$W/b.sorted"
}

# passes: dmodc routing passes so far
passes() { count_log "osmre: dmodc routed"; }

# wait_pass N: until N passes; if none comes (a trap whose route crossed the
# dead link is lost), SIGUSR2 asks for one
wait_pass() {
	wait_log "osmre: dmodc routed" "$1" 15 >/dev/null && return 0
	kill -USR2 "$OSM_PID"
	wait_log "osmre: dmodc routed" "$1" 30
}

# ftree_fixture NAME: OpenSM's ftree on the shared fixture NAME.net, its
# tables read back with dump_fts and analyzed with NAME.jobs into
# $W/NAME.out
ftree_fixture() {
	_net=${OSMRE_TESTDATA:-tests/data}/$1.net
	sim_start "$_net" || return 1
	ROUTING=ftree osm_start H_0_0 || { ko "SUBNET UP"; return 1; }
	sleep 1
	check "$1: LFTs read back" read_lfts H_1_1 "$W/$1.lfts"
	"$OSMRE" analyze -q --rp 10 --topo "$_net" --lfts "$W/$1.lfts" \
		--jobs "${OSMRE_TESTDATA:-tests/data}/$1.jobs" >"$W/$1.out" 2>&1
	cat "$W/$1.out"
}

# job_mix NET SEED OUT: a fragmented job mix over the hosts of NET: jobs
# of 2-300 hosts, in fragments of 1-36 hosts of a shuffled host list,
# until 90 % of the hosts run (the law of bench/sar-jobs.sh)
job_mix() {
	awk '/^Hca/ { h = $3; gsub(/"/, "", h); print h }' "$1" | awk -v seed="$2" '
		{ host[n++] = $1 }
		END {
			srand(seed)
			for (i = n - 1; i > 0; i--) { j = int(rand() * (i + 1)); t = host[i]; host[i] = host[j]; host[j] = t }
			used = 0; job = 0
			while (used < 0.9 * n) {
				size = 2 + int(rand() * 299); job++
				while (size > 0 && used < 0.9 * n) {
					frag = 1 + int(rand() * 36)
					for (k = 0; k < frag && size > 0 && used < 0.9 * n; k++) {
						print host[used++], "j" job; size--
					}
				}
			}
		}' >"$3"
}

# osmre_conf [lines...]: $W/osmre.conf with these lines (none: empty),
# named by OSMRE_CONF for the plugin
osmre_conf() {
	: >"$W/osmre.conf"
	for l in "$@"; do echo "$l"; done >>"$W/osmre.conf"
	OSMRE_CONF=$W/osmre.conf
	export OSMRE_CONF
}

# blk216_sar [osmre.conf lines...]: the blk216 fixture ($NET), its job
# file copied to $J, an osmre.conf naming it (sar_max_vls 4, then the
# lines given) in $OSMRE_CONF
blk216_sar() {
	DATA=${OSMRE_TESTDATA:-tests/data}
	NET=$DATA/blk216.net
	J=$W/jobs.conf
	cp "$DATA/blk216.jobs" "$J"
	osmre_conf "sar_job_file $J" "sar_max_vls 4" "$@"
}

# wait_file FILE PATTERN TIMEOUT_S: until FILE has a line matching PATTERN
wait_file() {
	_end=$(($(date +%s) + $3))
	while [ "$(date +%s)" -le "$_end" ]; do
		grep -q -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

finish() {
	echo "$(basename "$0"): $FAILS failure(s)"
	[ "$FAILS" -eq 0 ]
}
