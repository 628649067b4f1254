#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sar against OpenSM's dfsssp, ftree and updn on random fragmented job
# mixes: the max effective edge forwarding index (and dark fiber) of each
# engine's tables for each mix.  OpenSM's tables do not depend on the jobs:
# each engine routes each fabric once inside OpenSM on ibsim (read back
# with dump_fts; ftree and updn get the top switches as roots), then every
# mix is analyzed on them; sar routes each mix offline with the fabric's
# LIDs, as it is and with --all-pairs (engine sar-all-pairs).  Mixes: jobs
# of 2-300 hosts (uniform) placed in fragments of 1-36 consecutive hosts
# of a shuffled host list, until 90 % of the hosts run.
#   sh bench/sar-jobs.sh [MIXES]     (from a build directory)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
OSMRE_TESTS_DIR=$top/tests
MIXES=${1:-10}
OSMRE_BIN=${OSMRE_BIN:-$PWD/tools/osmre}
OSMRE_PLUGIN_DIR=${OSMRE_PLUGIN_DIR:-$PWD/plugins/.libs}
. "$top/tests/ibsim/lib.sh"
. "$top/bench/peer-check"
OUT=${SAR_JOBS_CSV:-$PWD/sar-jobs.csv}
echo "fabric,mix,engine,efi_max,efi_avg_job_max,dark_fiber_pct,a2a,sp,rp,hops_max,longer_pairs,layers" >"$OUT"

# fabric NAME GEN-ARGS...: the engines on it, then the mixes
fabric() {
	name=$1
	shift
	NET=$W/$name.net
	"$OSMRE" gen "$@" -o "$NET" 2>/dev/null || { echo "gen $name failed"; return; }
	hosts=$(awk '/^Hca/ { h = $3; gsub(/"/, "", h) } /^\[[0-9]+\]/ && h != "" { l = $2; sub(/\[.*/, "", l); print l, h; h = "" }' "$NET" | sort -s -k1,1)
	sm=$(echo "$hosts" | head -1 | cut -d' ' -f2)
	reader=$(echo "$hosts" | tail -1 | cut -d' ' -f2)
	# a fresh socket name per fabric: ibsim does not take one again
	IBSIM_SOCKNAME=osmre$$$name
	export IBSIM_SOCKNAME
	sim_start "$NET" >/dev/null || return
	lvl=$(awk '/^Switch/ { s = $3; gsub(/"S|_.*/, "", s); if (s > m) m = s } END { print m }' "$NET")
	diag "$reader" ibnetdiscover 2>/dev/null | awk -v top="S${lvl}_" \
		'/^Switch/ && index($0, "# \"" top) { g = $3; gsub(/"|S-/, "", g); print "0x" g }' >"$W/roots"
	for e in dfsssp ftree updn; do
		extra=
		case $e in updn|ftree) extra="root_guid_file $W/roots" ;; esac
		# (the peers with bench/peer-check's lines for 8 VLs, and only
		# as configured)
		if ROUTING=$e peer_osm_start "$sm" "$e" 8 ${extra:+"$extra"} >/dev/null &&
		   [ "$(peer_read "$W/osm.log" "$e" 8 | cut -d' ' -f4)" = 1 ]; then
			sleep 1
			read_lfts "$reader" "$W/$name.$e.lfts" || rm -f "$W/$name.$e.lfts"
		fi
		osm_stop
	done
	cleanup_sim
	i=1
	while [ "$i" -le "$MIXES" ]; do
		job_mix "$NET" "$i" "$W/mix.jobs"
		for e in dfsssp ftree updn sar sar-all-pairs; do
			l=$W/$name.$e.lfts
			layers=
			if [ "${e%-all-pairs}" = sar ]; then
				ap=
				[ "$e" = sar ] || ap=--all-pairs
				"$OSMRE" route -e sar $ap --jobs "$W/mix.jobs" --topo "$NET" \
					--lids "$W/$name.dfsssp.lfts" --out "$W/sar.lfts" 2>"$W/sar.err" || continue
				layers=$(sed -n 's/^sar: \([0-9]*\) virtual layer.*/\1/p' "$W/sar.err")
				l=$W/sar.lfts
			fi
			[ -f "$l" ] || continue
			# A2A, SP, RP (median of 100 permutations), the longest
			# path and the pairs longer than the shortest, all pairs
			"$OSMRE" analyze -q --rp 100 --format csv --no-updown --jobs "$W/mix.jobs" \
				--topo "$NET" --lfts "$l" 2>/dev/null |
				awk -F, -v f="$name" -v m="$i" -v e="$e" -v ly="$layers" \
					'NR == 2 { print f "," m "," e "," $24 "," $25 "," $26 "," $16 "," $17 "," $18 "," $9 "," $27 "," ly }' >>"$OUT"
		done
		i=$((i + 1))
	done
}
cleanup_sim() {
	kill "$SIM_PID" 2>/dev/null
	wait "$SIM_PID" 2>/dev/null
	SIM_PID=
	rm -f "$W/con"
	sleep 1
}

fabric full-2l pgft 2 18,10 1,18
fabric block-2l pgft 2 18,12 1,6
fabric block-3l pgft 3 8,8,8 1,4,4
fabric full-2l-less-links pgft 2 18,10 1,18 --remove-links 20 --seed 5
fabric block-3l-less-switches pgft 3 8,8,8 1,4,4 --remove-switches 6 --seed 5
echo "sar-jobs: rows in $OUT"
echo "fabric,engine: mean over the mixes of efi_max a2a sp rp, max of hops_max longer_pairs layers"
awk -F, 'NR > 1 { k = $1 "," $3; s[k] += $4; a[k] += $7; p[k] += $8; r[k] += $9; n[k]++
		if ($10 > h[k]) h[k] = $10; if ($11 > lo[k]) lo[k] = $11; if ($12 > ly[k]) ly[k] = $12 }
	END { for (k in s) printf "%s %.1f %.1f %.1f %.1f %d %d %s\n", k, s[k] / n[k], a[k] / n[k],
		p[k] / n[k], r[k] / n[k], h[k], lo[k], ly[k] }' "$OUT" | sort
