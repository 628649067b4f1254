#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The update protocol's epoch time against the number of subscriber
# sessions, on ibsim: the 648-host PGFT(3;6,6,18;1,6,6;1,1,1), sar with a
# job file, lmc 1, the escape on VL 7.  For each N in SESSIONS (default
# "1 10 100") the sessions run in bench/update_load (up to 20 per host,
# several hosts; hooks of HOOK_MS, default 0), then RUNS epochs (default
# 3), each a new job file and SIGUSR2.  With FLOOD=1 two more hosts send
# refused requests as fast as they can all along (tests/ibsim/rogue
# blast, vendor class 0x09); FLOOD=2 is the control: the same flood at a
# host's LID that no client serves (what it costs the fabric, the SM doing
# nothing for it).  CLASS (default 9) is the protocol's class.
# One CSV row per epoch on stdout:
#   sessions,hosts,flood,class,epoch,usr2_to_compute_s,commit_s,unpath_s,update_s,repath_s,acks,nacks,timeouts
#   sh bench/update-epoch.sh >OUT.csv        (from a build directory)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
OSMRE_TESTS_DIR=$top/tests
OSMRE_BIN=${OSMRE_BIN:-$PWD/tools/osmre}
OSMRE_PLUGIN_DIR=${OSMRE_PLUGIN_DIR:-$PWD/plugins/.libs}
LOAD=${OSMRE_LOAD:-$PWD/bench/update_load}
ROGUE=${OSMRE_ROGUE:-$PWD/tests/ibsim/rogue}
SESSIONS=${SESSIONS:-1 10 100}
RUNS=${RUNS:-3}
HOOK_MS=${HOOK_MS:-0}
FLOOD=${FLOOD:-0}
CLASS=${CLASS:-9}
. "$top/tests/ibsim/lib.sh"
NET=$W/f.net
"$OSMRE" gen pgft 3 6,6,18 1,6,6 1,1,1 -o "$NET" 2>/dev/null || exit 1
J=$W/jobs.conf
job_file() {	# job_file K: the hosts in 4 jobs drawn with seed K
	awk -v k="$1" 'BEGIN { srand(k) } /^Hca/ { h = $3; gsub(/"/, "", h); print h, "j" int(rand() * 4) }' "$NET" >"$J"
}
job_file 4
printf 'sar_job_file %s\nsar_max_vls 4\nupdate_protocol 1\nupdate_escape_vl 7\nupdate_ack_timeout_ms 5000\nupdate_poll_ms 100\nupdate_max_sessions_per_port 32\nupdate_mgmt_class %s\n' "$J" "$CLASS" >"$W/osmre.conf"
OSMRE_CONF=$W/osmre.conf
export OSMRE_CONF
sim_start "$NET" >&2 || exit 1
ROUTING=sar,updn osm_start H_0_0 "qos TRUE" "lmc 1" >&2 || { echo "no SUBNET UP" >&2; exit 1; }
wait_log "osmre: update: serving class" 1 60 >&2 || exit 1
# a host of the k-th group of sessions
host() { awk -v k="$1" '/^Hca/ { if (n++ == 7 * k + 3) { h = $3; gsub(/"/, "", h); print h; exit } }' "$NET"; }
now_s() { date '+%H %M %S %N' | awk '{ printf "%.6f\n", $1 * 3600 + $2 * 60 + $3 + $4 / 1e9 }'; }
echo "sessions,hosts,flood,class,epoch,usr2_to_compute_s,commit_s,unpath_s,update_s,repath_s,acks,nacks,timeouts"
FLOODERS=
if [ "$FLOOD" != 0 ]; then
	# the control's target: the base LID of a host nobody runs on
	to=
	[ "$FLOOD" = 2 ] && to=$(diag H_0_7 smpquery -D portinfo 0 1 2>/dev/null |
		sed -n 's/^Lid:\.*\([0-9]*\)$/\1/p')
	for h in H_0_5 H_0_11; do
		# shellcheck disable=SC2086
		sim_bg $h "$ROGUE" blast 100000 $to >"$W/blast-$h.log" 2>&1 &
		FLOODERS="$FLOODERS $!"
	done
	sleep 2
fi
k=2
for n in $SESSIONS; do
	hosts=$(((n + 19) / 20))
	per=$(((n + hosts - 1) / hosts))
	left=$n
	LOADERS=
	i=0
	while [ "$left" -gt 0 ]; do
		m=$per
		[ "$m" -gt "$left" ] && m=$left
		sim_bg $(host $((i + 10 * n % 7))) "$LOAD" -n "$m" -H "$HOOK_MS" -t 100000 -c "$CLASS" \
			>"$W/load-$n-$i.log" 2>&1 &
		LOADERS="$LOADERS $!"
		left=$((left - m))
		i=$((i + 1))
	done
	j=0
	while [ "$j" -lt "$i" ]; do
		f=$W/load-$n-$j.log
		wait_file "$f" "^registered" 120 || { echo "sessions did not register: $(cat "$f")" >&2; exit 1; }
		j=$((j + 1))
	done
	sleep 1
	r=0
	while [ "$r" -lt "$RUNS" ]; do
		c=$(count_log "osmre: update: epoch [0-9]* committed")
		job_file "$k"
		k=$((k + 1))
		t=$(now_s)
		kill -USR2 "$OSM_PID"
		wait_log "osmre: update: epoch [0-9]* committed" $((c + 1)) 300 >&2 || exit 1
		line=$(grep "osmre: update: epoch [0-9]* committed" "$W/osm.log" | tail -1)
		ep=$(echo "$line" | sed 's/.*epoch \([0-9]*\) committed.*/\1/')
		tc=$(grep "osmre: update: epoch $ep: COMPUTE" "$W/osm.log" | tail -1 | log_secs)
		echo "$line" | sed 's/.*osmre: update: //' |
			awk -v n="$n" -v h="$hosts" -v fl="$FLOOD" -v cl="$CLASS" -v ep="$ep" -v t="$t" -v tc="$tc" '{
				for (i = 1; i <= NF; i++) { w = $i; gsub(/[,;]/, "", w)
					if ($(i - 1) == "in" && $(i + 1) == "s:") c = w
					if ($(i - 1) == "unpath") u = w
					if ($(i - 1) == "update") d = w
					if ($(i - 1) == "repath") p = w
					if ($(i - 1) == "acks") a = w
					if ($(i - 1) == "nacks") na = w
					if ($(i - 1) == "timeouts") to = w }
				printf "%d,%d,%d,%d,%d,%.3f,%s,%s,%s,%s,%s,%s,%s\n", n, h, fl, cl, ep, tc - t, c, u, d, p, a, na, to }'
		r=$((r + 1))
	done
	# shellcheck disable=SC2086
	stop_pids $LOADERS
	sleep 1 # (they leave on SIGTERM)
done
# shellcheck disable=SC2086
[ -n "$FLOODERS" ] && stop_pids $FLOODERS
finish >&2
