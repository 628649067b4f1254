#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# h. Multicast with dmodc: OpenSM builds its multicast trees from the hop
#    tables the plugin fills.  Hosts on several leaves join IPoIB's
#    broadcast group; the MFTs read back with dump_fts -M must form a tree
#    that reaches every member port.  The same under updn, for comparison.
set -u
. "$(dirname "$0")/lib.sh"
MCJOIN=${OSMRE_MCJOIN:-$PWD/tests/ibsim/mcjoin}
MCCHECK=${OSMRE_MCCHECK:-tests/ibsim/mcast_check}

NET=$W/pgft64.net
"$OSMRE" gen pgft 3 4,4,4 1,4,4 -o "$NET" 2>/dev/null || { ko "gen"; exit 1; }
sim_start "$NET" || exit 1

# members: 6 hosts on 5 leaves of 3 subtrees
members="H_0_0 H_0_3 H_5_1 H_6_2 H_11_0 H_15_3"
# guid_of HOST: its port 1 GUID as ibsim counts them (Hca 2: 3 GUIDs each)
guid_of() {
	awk -v h="\"$1\"" '/^Hca/ { if ($3 == h) printf "0x%x\n", 1048576 + n * 3 + 1; n++ }' "$NET"
}
guids=""
for h in $members; do guids="$guids $(guid_of "$h")"; done

run() {	# run ENGINE
	engine=$1
	ROUTING=$engine osm_start H_1_1 || { ko "$engine: SUBNET UP"; return; }
	sleep 1
	joined=0
	for h in $members; do
		diag "$h" "$MCJOIN" "$(guid_of "$h")" >"$W/join.out" 2>&1 &&
			joined=$((joined + 1))
	done
	check "$engine: 6 hosts joined the broadcast group ($joined)" [ "$joined" -eq 6 ]
	sleep 2
	diag H_1_1 dump_fts -M >"$W/$engine.mft" 2>/dev/null
	diag H_1_1 ibnetdiscover >"$W/$engine.net" 2>/dev/null
	check "$engine: the MFTs of 0xc000 form a tree to every member" \
		"$MCCHECK" "$W/$engine.net" "$W/$engine.mft" 0xc000 $guids
	kill "$OSM_PID"
	wait "$OSM_PID" 2>/dev/null
	OSM_PID=
	rm -rf "$W/cache" "$W/osm.log"
}
run dmodc
run updn
finish
