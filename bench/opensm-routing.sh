#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The routing step inside OpenSM on an ibsim fabric, per engine: the time
# between OpenSM's log lines "building routing with 'X' routing
# algorithm..." and "X tables configured on all switches", for the first
# pass and for a re-route (kill -USR2 for dmodc, OpenSM's own hop-table
# arrays then exist already).
#   sh bench/opensm-routing.sh H M W P ENGINE...   (from a build directory)
# e.g. sh ../bench/opensm-routing.sh 3 18,9,36 1,9,18 1,2,1 dmodc ftree updn minhop
set -u
h=$1 m=$2 w=$3 p=$4
shift 4
top=$(cd "$(dirname "$0")/.." && pwd)
OSMRE_BIN=${OSMRE_BIN:-$PWD/tools/osmre}
OSMRE_PLUGIN_DIR=${OSMRE_PLUGIN_DIR:-$PWD/plugins/.libs}
IBSIM_ARGS="-N 60000 -S 10000 -P 500000 -L 49152"
OSM_UP_TIMEOUT=3600
SIM_START_TIMEOUT=600
OSM_DEBUG=0x07	# verbose: "building routing with ..."
. "$top/tests/ibsim/lib.sh"
NET=$W/pgft.net
"$OSMRE" gen pgft "$h" "$m" "$w" "$p" -o "$NET" || exit 1
smhost=$(awk '/^Hca/ { gsub(/"/, "", $3); print $3; exit }' "$NET")

sim_start "$NET" || exit 1
for engine in "$@"; do
	start=$(date +%s)
	ROUTING=$engine osm_start "$smhost" || { echo "$engine: no SUBNET UP"; continue; }
	first=$(routing_step "$W/osm.log" "$engine" 1)
	again="-"
	if [ "$engine" = dmodc ]; then
		kill -USR2 "$OSM_PID"
		wait_log "$engine tables configured on all switches" 2 3600 >/dev/null &&
			again=$(routing_step "$W/osm.log" "$engine" 2)
	fi
	rss=$(awk '/VmHWM/ { print $2 }' "/proc/$OSM_PID/status" 2>/dev/null)
	printf "PGFT(%s;%s;%s;%s) %-6s routing step: first %8s s, re-route %8s s  (SUBNET UP after %d s, opensm peak RSS %s kB)\n" \
		"$h" "$m" "$w" "$p" "$engine" "$first" "$again" \
		$(($(date +%s) - start)) "${rss:-?}"
	osm_stop "$engine"
done
