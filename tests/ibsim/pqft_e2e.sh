#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# pqft inside OpenSM on an ibsim QFT(3;6,3,12;1,3,6;1,2,1) of 216 hosts,
# its parameters in osmre.conf (pqft_topology):
#  - the fabric's LFTs, read back with dump_fts, are valid and up-down,
#    identical to `osmre route -e pqft` on the same net file, and shift
#    permutations in host order are free of congestion (SP = 1);
#  - SIGUSR2: a second pass, opensm alive, the same tables;
#  - without pqft_topology, pqft reads the parameters off the fabric, logs
#    them and gives the same tables;
#  - with parameters that do not fit, pqft refuses with a log line and
#    OpenSM's next engine (routing_engine pqft,updn) routes the fabric.
set -u
. "$(dirname "$0")/lib.sh"

SPEC="qft(3;6,3,12;1,3,6;1,2,1)"
NET=$W/qft216.net
"$OSMRE" gen qft 3 6,3,12 1,3,6 1,2,1 -o "$NET" 2>/dev/null || { ko "gen"; exit 1; }
awk '/^Hca/ { h = $3; gsub(/"/, "", h); print h }' "$NET" >"$W/hosts.order"
osmre_conf "pqft_threads 2" "pqft_topology $SPEC" "hops_background 0"
sim_start "$NET" || exit 1
ROUTING=pqft,updn osm_start H_0_0 || { ko "SUBNET UP"; exit 1; }
check "topology logged" grep -q "osmre: option pqft_topology $SPEC" "$W/osm.log"
check "pqft routed" grep -q "pqft tables configured on all switches" "$W/osm.log"
check "pqft's log line" grep -q "osmre: pqft routed 90 switches in" "$W/osm.log"
check "hops_background 0: hop tables filled before the pass returned" sh -c \
	"grep -q 'osmre: pqft routed 90 switches in .* ms with hop tables)' '$W/osm.log' &&
	! grep -q 'on a plugin thread' '$W/osm.log'"
sleep 1
check "LFTs read back" read_lfts H_35_5 "$W/fabric.lfts"
check "fabric LFTs valid and up-down" "$OSMRE" check --topo "$NET" --lfts "$W/fabric.lfts"
"$OSMRE" route -e pqft --topology "$SPEC" --topo "$NET" --lids "$W/fabric.lfts" \
	--out "$W/offline.lfts" --state "$W/offline.state" 2>/dev/null
check "fabric LFTs identical to osmre route -e pqft" same_lfts "$W/fabric.lfts" "$W/offline.lfts"
# pqft's state dump (routing dumps on: log flag 0x40): the plugin's
# equals osmre route --state's
check "pqft state dumped" grep -q "^switch 0x[0-9a-f]* level 1 tuple " "$W/dump/osmre-pqft.dump"
check "pqft state as offline" cmp -s "$W/dump/osmre-pqft.dump" "$W/offline.state"
"$OSMRE" analyze -q --rp 10 --order "file:$W/hosts.order" --topo "$NET" \
	--lfts "$W/fabric.lfts" >"$W/analyze.out" 2>&1
cat "$W/analyze.out"
check "SP = 1 in host order" grep -q "shift permutations (SP, max of 215) 1," "$W/analyze.out"

kill -USR2 "$OSM_PID"
check "SIGUSR2: a second pass" wait_log "osmre: pqft routed" 2 30
sleep 1
check "opensm alive" kill -0 "$OSM_PID"
check "LFTs read back again" read_lfts H_35_5 "$W/again.lfts"
check "the same tables" same_lfts "$W/fabric.lfts" "$W/again.lfts"

# no parameters: read off the fabric
osm_stop
: >"$W/osmre.conf"
ROUTING=pqft,updn osm_start H_0_0 || { ko "SUBNET UP without pqft_topology"; exit 1; }
check "topology inferred" grep -q "osmre: pqft: topology $SPEC (inferred)" "$W/osm.log"
check "pqft routed with it" grep -q "pqft tables configured on all switches" "$W/osm.log"
sleep 1
check "LFTs read back" read_lfts H_35_5 "$W/inferred.lfts"
check "the same tables as with the parameters given" same_lfts "$W/fabric.lfts" "$W/inferred.lfts"

# parameters that do not fit: refused, updn routes
osm_stop
printf 'pqft_topology pgft(3;6,3,12;1,3,6;1,2,1)\n' >"$W/osmre.conf"
ROUTING=pqft,updn osm_start H_0_0 || { ko "SUBNET UP with wrong parameters"; exit 1; }
check "refusal logged" grep -q "osmre ERR: pqft: fabric not routable: " "$W/osm.log"
check "updn routed instead" grep -q "updn tables configured on all switches" "$W/osm.log"
finish
