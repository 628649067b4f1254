#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sar next to OpenSM's dfsssp, ftree, updn and nue on every metric, each
# engine inside OpenSM on ibsim, tables read back with dump_fts and
# measured by `osmre analyze`:
#   validity, longest and average path, CA pairs longer than the shortest
#   path, A2A, SP, RP (median of 100), VLs (sar: its layers; dfsssp: the
#   VLs its log says it needs; ftree, updn: one, up-down; nue: its budget,
#   it logs no more),
#   max effective EFI on a fragmented job mix (bench/sar-jobs.sh's law,
#   seed 7), and the update after one leaf uplink goes down (ibsim's
#   Unlink): entries and 64-LID blocks changed, and the validity of the
#   tables on the degraded fabric (rediscovered with ibnetdiscover).
# sar routes inside OpenSM without a job file; "sar+jobs" is sar offline
# with the mix and the fabric's LIDs (no failure column).  The peers get
# bench/peer-check's lines for a budget of VLS (default: nue 1, OpenSM's
# default; dfsssp and sar 8): qos TRUE, an identity SL-to-VL map,
# max_op_vls, nue_max_num_vls; the last column, peer, says how each ran
# (nue[1VL], dfsssp[1VL]; marked "!" or "->" when it did not run as
# configured: not to be compared).
#   sh bench/sar-quality.sh     (from a build directory)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
OSMRE_TESTS_DIR=$top/tests
OSMRE_BIN=${OSMRE_BIN:-$PWD/tools/osmre}
OSMRE_PLUGIN_DIR=${OSMRE_PLUGIN_DIR:-$PWD/plugins/.libs}
. "$top/tests/ibsim/lib.sh"
. "$top/bench/peer-check"
OUT=${SAR_QUALITY_CSV:-$PWD/sar-quality.csv}
echo "fabric,engine,valid,longest,avg,longer_pct,a2a,sp,rp,vls,efi,down_valid,entries_changed,entries,blocks_changed,blocks,peer" >"$OUT"

# measure NET LFTS [SLS] [AGAINST]: analyze's CSV row
measure() {
	"$OSMRE" analyze -q --rp 100 --no-updown --format csv --jobs "$W/mix.jobs" \
		${3:+--sl-file "$3"} ${4:+--against "$4"} --topo "$1" --lfts "$2" 2>/dev/null |
		sed -n 2p
}

# row FABRIC ENGINE CSV VLS [DOWN-CSV [PEER]]: one line of $OUT
row() {
	echo "$3" | awk -F, -v f="$1" -v e="$2" -v v="$4" -v d="$5" -v p="${6:-$2}" '{
		split(d, x, ",")
		printf "%s,%s,%s,%s,%s,%.2f,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", f, e, $1, $9, $8,
			$2 ? 100 * $27 / $2 : 0, $16, $17, $18, v, $24,
			x[1], x[28], x[30], x[29], x[31], p }' >>"$OUT"
}

# fabric NAME LEAF PORT GEN-ARGS...: every engine on it
fabric() {
	name=$1 leaf=$2 port=$3
	shift 3
	NET=$W/$name.net
	"$OSMRE" gen "$@" -o "$NET" 2>/dev/null || { echo "gen $name failed"; return; }
	job_mix "$NET" 7 "$W/mix.jobs"
	hosts=$(awk '/^Hca/ { h = $3; gsub(/"/, "", h) } /^\[[0-9]+\]/ && h != "" { l = $2; sub(/\[.*/, "", l); print l, h; h = "" }' "$NET" | sort -s -k1,1)
	sm=$(echo "$hosts" | head -1 | cut -d' ' -f2)
	reader=$(echo "$hosts" | tail -1 | cut -d' ' -f2)
	IBSIM_SOCKNAME=osmre$$$name
	export IBSIM_SOCKNAME
	sim_start "$NET" >/dev/null || return
	lvl=$(awk '/^Switch/ { s = $3; gsub(/"S|_.*/, "", s); if (s > m) m = s } END { print m }' "$NET")
	diag "$reader" ibnetdiscover 2>/dev/null | awk -v top="S${lvl}_" \
		'/^Switch/ && index($0, "# \"" top) { g = $3; gsub(/"|S-/, "", g); print "0x" g }' >"$W/roots"
	for e in dfsssp ftree updn nue sar; do
		extra=
		case $e in updn|ftree) extra="root_guid_file $W/roots" ;; esac
		lf=$W/$name.$e.lfts
		b=${VLS:-}
		[ -n "$b" ] || { [ "$e" = nue ] && b=1 || b=8; }
		if ! ROUTING=$e peer_osm_start "$sm" "$e" "$b" ${extra:+"$extra"} >/dev/null ||
		   ! grep -q "$e tables configured" "$W/osm.log"; then
			echo "$name,$e,refused,,,,,,,,,,,,,,$(peer_read "$W/osm.log" "$e" "$b" | cut -d" " -f3)" >>"$OUT"
			osm_stop
			continue
		fi
		sleep 1
		read_lfts "$reader" "$lf" || { osm_stop; continue; }
		# what ran, with how many VLs (bench/peer-check)
		peer_read "$W/osm.log" "$e" "$b" >"$W/peer"
		read -r _ vls peer _ <"$W/peer"
		sls=
		case $e in
		sar)
			"$OSMRE" route -e sar --topo "$NET" --lids "$lf" --sls "$W/sar.sls" \
				--out "$W/sar.offline" 2>"$W/sar.err"
			vls=$(sed -n 's/^sar: \([0-9]*\) virtual layer.*/\1/p' "$W/sar.err")
			sls=$W/sar.sls ;;
		esac
		first=$(measure "$NET" "$lf" "$sls")
		n=$(grep -c "$e tables configured" "$W/osm.log")
		console "Unlink \"$leaf\"[$port]"
		down=
		if wait_log "$e tables configured" $((n + 1)) 60 >/dev/null; then
			sleep 2
			if read_lfts "$reader" "$W/down.lfts" &&
			   diag "$reader" ibnetdiscover >"$W/down.net" 2>/dev/null; then
				down=$(measure "$W/down.net" "$W/down.lfts" "" "$lf")
			fi
		fi
		console "ReLink \"$leaf\"[$port]"
		row "$name" "$e" "$first" "$vls" "$down" "$peer"
		osm_stop
		if [ "$e" = dfsssp ]; then
			"$OSMRE" route -e sar --jobs "$W/mix.jobs" --topo "$NET" --lids "$lf" \
				--sls "$W/sj.sls" --out "$W/sj.lfts" 2>"$W/sj.err" &&
				row "$name" "sar+jobs" "$(measure "$NET" "$W/sj.lfts" "$W/sj.sls")" \
					"$(sed -n 's/^sar: \([0-9]*\) virtual layer.*/\1/p' "$W/sj.err")" ""
		fi
	done
	kill "$SIM_PID" 2>/dev/null
	wait "$SIM_PID" 2>/dev/null
	SIM_PID=
	rm -f "$W/con"
	sleep 1
}

fabric p512-2to1 S1_0_0_0 9 pgft 3 8,4,16 1,4,4 1,2,1
fabric p648 S1_16_5_0 8 pgft 3 6,6,18 1,6,6 1,1,1
fabric sweep1296 S1_0_0_0 13 pgft 3 12,6,18 1,6,12 1,2,1
echo "sar-quality: $OUT"
column -s, -t "$OUT"
