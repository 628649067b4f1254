#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The size of an update: LFT entries and 64-LID blocks that change (and
# the push time at 4.6 us per block, the SAR slides' figure) when one
# leaf uplink, one spine link (level 2 to 3) or one whole level-2 switch
# fails, per engine, on a PGFT.  osmre's engines route offline, the
# failed fabric with the intact one's LIDs (--lids), pqft given the
# parameters, sar as the plugin does on a topology change with the jobs
# unchanged (--previous: its stable re-route); OpenSM's engines route
# inside OpenSM on ibsim, the tables read back with dump_fts before and
# after ibsim's Unlink (the link linked back before the next failure; the
# switch last).  Each pair of table sets goes through `osmre diff`.
# dmodc-stable is dmodc with dmodc_stable (--previous: the intact tables).
# With ANALYZE=1 each failed table set is also analysed (osmre analyze):
# valid, longest path, A2A, SP and RP appended to its row.
# Blocks depend on the LIDs: with OSM_LIDS=1, osmre's engines route with
# the LIDs OpenSM gives the intact fabric on ibsim (one OpenSM pass with
# updn first), so that their blocks compare with OpenSM's engines'.
#   sh bench/update-size.sh H M W P [ENGINE...] >OUT.csv   (from a build directory)
# default engines: dmodc dmodc-stable pqft sar ftree updn
set -u
h=$1 m=$2 w=$3 p=$4
shift 4
ENGINES=${*:-dmodc dmodc-stable pqft sar ftree updn}
. "$(dirname "$0")/big.sh"
NET=$W/f.net
SPEC="pgft($h;$m;$w;$p)"
"$OSMRE" gen pgft "$h" "$m" "$w" "$p" -o "$NET" 2>/dev/null || exit 1
# the failures, by the generator's names: the first leaf's first uplink,
# the first level-2 switch's first uplink, the first level-2 switch
link_up() {	# link_up LEVEL: "SWITCH PORT PEER PEERPORT" of a level's first uplink
	awk -v me="\"S$1_" -v up="\"S$(($1 + 1))_" '
		/^Switch/ { n = $3; next }
		n ~ "^" me && $2 ~ "^" up {
			p = $1; gsub(/[][]/, "", p); q = $2; sub(/.*\[/, "", q); sub(/\]/, "", q)
			r = $2; sub(/\[.*/, "", r)
			print n, p, r, q; exit }' "$NET" | tr -d '"'
}
LEAF=$(link_up 1)
SPINE=$(link_up 2)
# the first level-2 switch (a top switch of a 2-level tree, which has no
# spine link: that failure is left out there)
SW=$(awk '/^Switch/ { n = $3; gsub(/"/, "", n); if (n ~ /^S2_/) { print n; exit } }' "$NET")
FAILURES="leaf spine switch"
[ -n "$SPINE" ] || FAILURES="leaf switch"
# without NET LINK|SWITCH: the net file less that link or all the switch's
without() {
	if [ $# -eq 4 ]; then
		awk -v a="\"$1\"" -v ap="$2" -v b="\"$3\"" -v bp="$4" '
			/^(Switch|Hca)/ { n = $3 }
			!(n == a && $1 == "[" ap "]") && !(n == b && $1 == "[" bp "]") { print }' "$NET"
	else
		awk -v s="\"$1\"" '/^(Switch|Hca)/ { n = $3 }
			!(n == s && /^\[/) && !($2 ~ "^" s "\\[") { print }' "$NET"
	fi
}
without $LEAF >"$W/leaf.net"
[ -z "$SPINE" ] || without $SPINE >"$W/spine.net"
without "$SW" >"$W/switch.net"
q=""
[ "${ANALYZE:-0}" = 1 ] && q=",valid,hops_max,a2a,sp,rp"
echo "fabric,engine,failure,failed,routed_by,switches_changed,entries_changed,blocks_changed,blocks,push_ms$q"
quality() {	# quality NET LFTS: ",valid,hops_max,a2a,sp,rp" (ANALYZE=1)
	[ "${ANALYZE:-0}" = 1 ] || return 0
	"$OSMRE" analyze --topo "$1" --lfts "$2" --format csv -q 2>/dev/null |
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			NR == 2 { printf ",%s,%s,%s,%s,%s", $c["valid"], $c["hops_max"], $c["a2a"], $c["sp"], $c["rp"] }'
}
row() {	# row ENGINE FAILURE WHAT A.lfts B.lfts [ROUTED_BY]
	r=$("$OSMRE" diff "$4" "$5" 2>/dev/null | sed -n 's/^total: \([0-9]*\) switch(es) changed of [0-9]*, \([0-9]*\) entries, \([0-9]*\) of \([0-9]*\) 64-LID blocks; push \([0-9.]*\) ms.*/\1,\2,\3,\4,\5/p')
	[ -n "$r" ] || return 0
	echo "\"PGFT($h;$m;$w;$p)\",$1,$2,\"$3\",${6:-$1},$r$(quality "$W/$2.net" "$5")"
}
by() { grep -o "[a-z0-9_]* tables configured on all switches" "$W/osm.log" | tail -1 | cut -d' ' -f1; }
LIDS=""
if [ "${OSM_LIDS:-0}" = 1 ]; then
	sim_start "$NET" >/dev/null || exit 1
	host=$(awk '/^Hca/ { x = $3; gsub(/"/, "", x); print x; exit }' "$NET")
	reader=$(awk '/^Hca/ { x = $3; gsub(/"/, "", x); h = x } END { print h }' "$NET")
	ROUTING=updn osm_start "$host" >/dev/null && sleep 2 &&
		read_lfts "$reader" "$W/osm-lids.lfts" && LIDS="--lids $W/osm-lids.lfts"
	osm_stop
	stop_pids "$SIM_PID"
	SIM_PID=
	[ -n "$LIDS" ] || { echo "no LIDs from OpenSM" >&2; exit 1; }
fi
for e in $ENGINES; do
	case $e in
	dmodc|dmodc-stable|pqft|sar)
		x=""
		[ "$e" = pqft ] && x="--topology $SPEC"
		eng=${e%-stable}
		# shellcheck disable=SC2086
		"$OSMRE" route -e "$eng" $x $LIDS --topo "$NET" -o "$W/$e.lfts" 2>/dev/null || continue
		for fl in $FAILURES; do
			prev=""
			[ "$e" = sar ] || [ "$e" = dmodc-stable ] && prev="--previous $W/$e.lfts"
			# shellcheck disable=SC2086
			"$OSMRE" route -e "$eng" $x $prev --topo "$W/$fl.net" --lids "$W/$e.lfts" \
				-o "$W/$e-$fl.lfts" 2>/dev/null || { echo "$e $fl: refused" >&2; continue; }
			case $fl in leaf) what=$LEAF ;; spine) what=$SPINE ;; *) what=$SW ;; esac
			row "$e" "$fl" "$what" "$W/$e.lfts" "$W/$e-$fl.lfts"
		done
		;;
	*)
		[ -n "$SIM_PID" ] || sim_start "$NET" >/dev/null || exit 1
		host=$(awk '/^Hca/ { x = $3; gsub(/"/, "", x); print x; exit }' "$NET")
		reader=$(awk '/^Hca/ { x = $3; gsub(/"/, "", x); h = x } END { print h }' "$NET")
		ROUTING=$e osm_start "$host" >/dev/null || { echo "$e: no SUBNET UP" >&2; continue; }
		sleep 2
		[ "$(by)" = "$e" ] || echo "$e: the intact fabric was routed by $(by)" >&2
		read_lfts "$reader" "$W/$e.lfts" || continue
		for fl in $FAILURES; do
			n=$(count_log "tables configured on all switches")
			case $fl in
			leaf) set -- $LEAF; console "Unlink \"$1\"[$2]"; what=$LEAF ;;
			spine) set -- $SPINE; console "Unlink \"$1\"[$2]"; what=$SPINE ;;
			switch) console "Unlink \"$SW\""; what=$SW ;;
			esac
			wait_log "tables configured on all switches" $((n + 1)) 3600 >/dev/null
			sleep 2
			read_lfts "$reader" "$W/$e-$fl.lfts" &&
				row "$e" "$fl" "$what" "$W/$e.lfts" "$W/$e-$fl.lfts" "$(by)"
			if [ "$fl" != switch ]; then
				n=$(count_log "tables configured on all switches")
				console "ReLink \"$1\"[$2]"
				wait_log "tables configured on all switches" $((n + 1)) 3600 >/dev/null
				sleep 2
			fi
		done
		osm_stop
		stop_pids "$SIM_PID"
		SIM_PID=
		;;
	esac
done
