#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Paper 004's question with static tables: the Summit approximation
# (osmre gen rlft 36 11, 3,564 hosts) as one plane at EDR (12.5 GB/s)
# against two planes at FDR (7 GB/s, every host on both), routed by dmodc
# and pqft (offline, the generator's LIDs; each plane of the dual fabric
# routed as OpenSM would, by its own SM) and, for the single plane, by
# OpenSM's ftree inside OpenSM on ibsim (tables read back with dump_fts;
# RLFT_FTREE=0 skips it).  For each, `osmre analyze --bandwidth`: a shift
# inside a pod (shift:18, hosts to the next leaf), across pods
# (shift:324), 1,000 random permutations (RLFT_PERMS) and all-to-all,
# under each rail policy (random, first, hash) on the dual plane.
# The dual plane under ftree needs one OpenSM per plane: see below.
# RLFT="K PODS" picks another rlft (default "36 11").
#   sh bench/multirail.sh [OUT.csv]    (from a build directory)
# Then bench/multirail-plot OUT.csv draws it (gnuplot).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
OSMRE=${OSMRE_BIN:-$PWD/tools/osmre}
OUT=${1:-$PWD/multirail.csv}
PERMS=${RLFT_PERMS:-1000}
D=$(mktemp -d /tmp/osmre-multirail.XXXXXX)
trap 'rm -rf "$D"' EXIT
RLFT=${RLFT:-36 11}
# shellcheck disable=SC2086
"$OSMRE" gen rlft $RLFT -o "$D/one.net" 2>/dev/null || exit 1
# shellcheck disable=SC2086
"$OSMRE" gen rlft $RLFT --planes 2 -o "$D/two.net" 2>/dev/null || exit 1
echo "fabric,engine,pattern,rail,planes,speeds_gbs,hosts,patterns,flows,unrouted,aggregate_gbs,host_min_gbs,host_avg_gbs,host_max_gbs,seconds" >"$OUT"

# run FABRIC ENGINE NET LFTS SPEED RAIL...
run() {
	fab=$1 eng=$2 net=$3 lfts=$4 speed=$5
	shift 5
	for rail in "$@"; do
		for pat in shift:18 shift:324 perm a2a; do
			t0=$(date +%s.%N)
			row=$("$OSMRE" analyze -q --topo "$net" --lfts "$lfts" \
				--bandwidth "$pat" --rail "$rail" --speed "$speed" \
				--rp "$PERMS" --format csv 2>"$D/err" | sed -n 2p)
			t1=$(date +%s.%N)
			if [ -z "$row" ]; then
				echo "$fab $eng $pat $rail: $(head -1 "$D/err")" >&2
				continue
			fi
			echo "$fab,$eng,$row,$(echo "$t1 - $t0" | bc)" >>"$OUT"
			echo "$fab $eng $pat $rail: $(echo "$row" | awk -F, '{ print "aggregate " $(NF-3) " GB/s, per host " $(NF-2) " " $(NF-1) " " $NF }')"
		done
	done
}

# (RLFT_OFFLINE: the engines routed offline, default "dmodc pqft"; empty:
# only the runs on ibsim)
for eng in ${RLFT_OFFLINE-dmodc pqft}; do
	"$OSMRE" route -e "$eng" --topo "$D/one.net" -o "$D/one-$eng.lfts" 2>/dev/null &&
		run single-EDR "$eng" "$D/one.net" "$D/one-$eng.lfts" 12.5 random
	"$OSMRE" route -e "$eng" --topo "$D/two.net" -o "$D/two-$eng.lfts" 2>/dev/null &&
		run dual-FDR "$eng" "$D/two.net" "$D/two-$eng.lfts" 7 random first hash
done

if [ "${RLFT_FTREE:-1}" = 1 ]; then
	OSMRE_TESTS_DIR=$top/tests
	OSMRE_BIN=$OSMRE
	OSMRE_PLUGIN_DIR=${OSMRE_PLUGIN_DIR:-$PWD/plugins/.libs}
	IBSIM_ARGS="-N 60000 -S 10000 -P 500000 -L 49152"
	OSM_UP_TIMEOUT=1800
	SIM_START_TIMEOUT=600
	. "$top/tests/ibsim/lib.sh"
	cp "$D/one.net" "$W/one.net"
	host=$(awk '/^Hca/ { gsub(/"/, "", $3); print $3; exit }' "$W/one.net")
	if sim_start "$W/one.net" && ROUTING=ftree osm_start "$host" &&
		read_lfts "$host" "$W/ftree.lfts"; then
		by=$(grep -o "[a-z0-9_]* tables configured on all switches" "$W/osm.log" | tail -1)
		echo "ibsim: $by" >&2
		# (dump_fts names each LID's port: analyze binds them)
		run single-EDR ftree "$W/one.net" "$W/ftree.lfts" 12.5 random
	else
		echo "ftree on ibsim: no tables" >&2
	fi
	osm_stop
	stop_pids "$SIM_PID"
	# the dual plane: one OpenSM per plane on a single-port HCA of its own
	# (gen --sm-hca, which takes one host's place: 3,563 hosts and the two
	# single-port SM HCAs, which share no plane: 2 host pairs unrouted);
	# dmodc, pqft and ftree (RLFT_DUAL), each plane routed by its own SM.  Each SM
	# numbers its plane's LIDs from 1; plane k's dump is relabelled by
	# k * 16384 (a bijection, the routes unchanged) so that the two dumps
	# read as one LID space, bound by the port GUIDs they name.
	"$OSMRE" gen rlft $RLFT --planes 2 --sm-hca -o "$W/two-sm.net" 2>/dev/null || exit 1
	sim_start "$W/two-sm.net" || exit 1
	sms=$(awk '/^Hca/ && $3 ~ /"SM_/ { x = $3; gsub(/"/, "", x); print x }' "$W/two-sm.net")
	for eng in ${RLFT_DUAL:-dmodc pqft ftree}; do
		ok=1
		k=0
		for sm in $sms; do
			ROUTING=$eng plane_start $k "$sm"
			k=$((k + 1))
		done
		k=0
		for sm in $sms; do
			plane_wait $k "SUBNET UP" 1 1800 &&
				read_lfts "$sm" "$W/p$k.lfts" || ok=0
			grep -o "[a-z0-9_]* tables configured on all switches" "$W/p$k/osm.log" |
				tail -1 | sed "s/^/ibsim plane $k: /" >&2
			k=$((k + 1))
		done
		# shellcheck disable=SC2086
		stop_pids $OSM_PID
		OSM_PID=
		if [ "$ok" = 1 ]; then
			for k in 0 1; do
				awk -v off=$((k * 16384)) '
					function hex(s,   i, v) {
						v = 0
						for (i = 3; i <= length(s); i++)
							v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
						return v
					}
					$1 ~ /^0x[0-9a-fA-F]+$/ && $2 ~ /^[0-9]+$/ {
						sub(/^0x[0-9a-fA-F]+/, sprintf("0x%04x", hex($1) + off))
					}
					{ print }' "$W/p$k.lfts"
			done >"$W/two-$eng.lfts"
			run dual-FDR-smhca "$eng" "$W/two-sm.net" "$W/two-$eng.lfts" 7 random first hash
		else
			echo "dual plane, $eng on ibsim: no tables" >&2
		fi
		rm -rf "$W/p0" "$W/p1"
		sleep 2
	done
fi
rm -rf "$D"
