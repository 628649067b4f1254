#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Routing every plane of a multi-plane fabric inside OpenSM on ibsim, one
# OpenSM per plane (as tests/ibsim/planes_e2e.sh): the time of each
# plane's routing step (OpenSM's "building routing" to "tables
# configured") and dmodc's own line, and the wall time until every plane
# is up.  The fabric is `osmre gen ARGS --sm-hca` (default: the dual-plane
# Summit approximation, rlft 36 11 --planes 2).
#   sh bench/planes-opensm.sh [ENGINE [GEN ARGS...]]   (from a build directory)
set -u
. "$(dirname "$0")/big.sh"
engine=${1:-dmodc}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- rlft 36 11 --planes 2
NET=$W/planes.net
"$OSMRE" gen "$@" --sm-hca -o "$NET" 2>"$W/gen.err" || { cat "$W/gen.err"; exit 1; }
planes=$(sed -n 's/.*: \([0-9]*\) SM HCA(s) added/\1/p' "$W/gen.err")
sim_start "$NET" || exit 1
start=$(date +%s.%N)
k=0
for sm in $(awk '/^Hca/ && $3 ~ /"SM_/ { x = $3; gsub(/"/, "", x); print x }' "$NET"); do
	ROUTING=$engine OSM_DEBUG=0x07 plane_start $k "$sm"
	k=$((k + 1))
done
for k in $(seq 0 $((planes - 1))); do
	plane_wait $k "SUBNET UP" 1 1800 || exit 1
done
end=$(date +%s.%N)
for k in $(seq 0 $((planes - 1))); do
	step=$(routing_step "$W/p$k/osm.log" "$engine" 1)
	line=$(grep -o "osmre: $engine routed .*" "$W/p$k/osm.log" | head -1)
	echo "plane $k: routing step $step s ($line)"
done
echo "every plane up $(echo "$end - $start" | bc) s after the OpenSMs started (gen $*, $planes plane(s))"
