#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The escape's VL carries the escape alone, whatever SL OpenSM's QoS
# policy gives a path: dmodc (an engine without layers, whose
# PathRecords carry OpenSM's QoS SL) with the update protocol's escape
# on SL/VL 7 and a QoS policy whose default SL is 7.  A PathRecord to a
# high LID carries the escape's SL 7, one to a base LID SL 0, not the
# policy's 7 (osmre(8), UPDATE PROTOCOL); deadlock_check logs the pass
# acyclic.
set -u
. "$(dirname "$0")/lib.sh"
NET=${OSMRE_TESTDATA:-tests/data}/blk216.net
osmre_conf "update_protocol 1" "update_escape_vl 7" "deadlock_check 1"
printf 'qos-ulps\n\tdefault : 7\nend-qos-ulps\n' >"$W/qos-policy.conf"
sim_start "$NET" || exit 1
ROUTING=dmodc,updn osm_start H_0_0 "qos TRUE" "lmc 1" \
	"qos_policy_file $W/qos-policy.conf" || { ko "SUBNET UP"; exit 1; }
check "dmodc's pass checked: acyclic, the escape on VL 7" \
	grep -q "osmre: dmodc: deadlock check: acyclic on 8 VL(s)" "$W/osm.log"
sleep 1
check "LFTs read back" read_lfts H_3_3 "$W/t.lfts"
# a CA's two LIDs (lmc 1): its base LID and the high one
lo=$(awk '/Channel Adapter/ { n[$1 + 0]++ } END { for (l in n) print l }' "$W/t.lfts" |
	sort -n | awk 'NR > 2 { print; exit }')
path_sl() {
	diag H_3_3 saquery --src-to-dst "$1:$2" PR 2>/dev/null |
		awk '/^[ \t]*sl\.+/ { v = $0; sub(/.*\./, "", v); print v + 0 }'
}
src=$(awk '/Channel Adapter/ { print $1 + 0 }' "$W/t.lfts" | sort -n | head -1)
[ -n "$lo" ] && [ -n "$src" ] || { ko "CA LIDs in the tables read back"; finish; exit 1; }
base=$((lo - lo % 2)) high=$((lo - lo % 2 + 1))
check "PathRecord $src -> high LID $high: the escape's SL 7" [ "$(path_sl "$src" "$high")" = 7 ]
check "PathRecord $src -> base LID $base: SL 0, not the policy's 7" [ "$(path_sl "$src" "$base")" = 0 ]
finish
