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
#   sh bench/multirail.sh [OUT.csv]    (from a build directory)
# Then bench/multirail-plot OUT.csv draws it (gnuplot).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
OSMRE=${OSMRE_BIN:-$PWD/tools/osmre}
OUT=${1:-$PWD/multirail.csv}
PERMS=${RLFT_PERMS:-1000}
D=$(mktemp -d /tmp/osmre-multirail.XXXXXX)
trap 'rm -rf "$D"' EXIT
"$OSMRE" gen rlft 36 11 -o "$D/one.net" 2>/dev/null || exit 1
"$OSMRE" gen rlft 36 11 --planes 2 -o "$D/two.net" 2>/dev/null || exit 1
echo "fabric,engine,pattern,rail,planes,speeds_gbs,hosts,problems,flows,unrouted,aggregate_gbs,host_min_gbs,host_avg_gbs,host_max_gbs,seconds" >"$OUT"

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

for eng in dmodc pqft; do
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
fi
rm -rf "$D"
