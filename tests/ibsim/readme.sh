#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# README.md's "Trying it by hand on ibsim" snippet, taken from README.md
# and run as pasted, from a scratch directory whose build/ is this build
# (the snippet's paths are relative to a source tree built in build/).
# Two changes only, both for running beside other tests: the ibsim
# socket name "try" becomes a private one, and a line after OpenSM's
# start records the snippet's two PIDs so that nothing outlives the test.  Checks: SUBNET
# UP, analyze says VALID with congestion figures, the spine's loss and
# the re-route make routing passes, status names dmodc's last pass, one
# after the failure, ibsim's warnings are not in the output, and
# both processes are gone at the end (the snippet stops them itself;
# OpenSM may take seconds to finish a pass before it exits).
set -u
. "$(dirname "$0")/lib.sh"
README=${OSMRE_SRCDIR:-$(dirname "$0")/../..}/README.md
build=$(cd "$(dirname "$OSMRE")/.." && pwd)
awk '/^### Trying it by hand on ibsim/ { want = 1; next }
	want && /^```sh/ { on = 1; next }
	on && /^```/ { exit }
	on { print }' "$README" >"$W/snippet.sh"
check "snippet found in README.md" grep -q "osmre analyze" "$W/snippet.sh"
sed -i "s/IBSIM_SOCKNAME=try/IBSIM_SOCKNAME=$IBSIM_SOCKNAME/g" "$W/snippet.sh"
sed -i '/& OSM=\$!$/a echo "$OSM $SIM" >pids' "$W/snippet.sh"
mkdir -p "$W/run"
ln -s "$build" "$W/run/build"
(cd "$W/run" && timeout 300 sh -e "$W/snippet.sh") >"$W/out" 2>&1
rc=$?
check "snippet ran (exit $rc)" [ "$rc" = 0 ]
OSM_PID=$(cut -d' ' -f1 "$W/run/pids" 2>/dev/null)
SIM_PID=$(cut -d' ' -f2 "$W/run/pids" 2>/dev/null)
check "SUBNET UP" grep -q "SUBNET UP" "$W/run/osm.log"
check "analyze: VALID" grep -q "^validity: VALID" "$W/out"
check "analyze: congestion figures" grep -q "all-to-all (A2A) [1-9]" "$W/out"
check "reroute signalled" grep -q "osmre reroute: opensm $OSM_PID signalled" "$W/out"
check "status: dmodc's last pass" grep -q "^last pass (#[0-9]*): dmodc routed" "$W/out"
# the snippet waits for the re-route: status shows a pass after the
# first; and ibsim's warnings went to its log, not to the terminal
check "status: a pass after the failure" grep -q "^last pass (#\([2-9]\|[1-9][0-9]\)): dmodc routed" "$W/out"
check "ibsim's output in its log" sh -c "! grep -q parse_port_connection_data '$W/out'"
gone() { for _ in $(seq 300); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done; return 1; }
check "the snippet stopped OpenSM" gone "$OSM_PID"
check "the snippet stopped ibsim" gone "$SIM_PID"
[ "$FAILS" = 0 ] || cat "$W/out"
finish
