#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sar against OpenSM's dfsssp on every metric, measured the same way, on
# PGFT(3;8,4,16;1,4,4;1,2,1): 512 hosts, 2:1 blocking (the fabric of
# issue 15, where sar once took paths of 12 links and 3 VLs).  dfsssp
# routes inside OpenSM on ibsim, its tables are read back with dump_fts;
# sar routes offline with the fabric's LIDs, without jobs and with a
# fragmented job mix; `osmre analyze` measures all of them:
#  - sar: no path longer than the shortest of the topology, the longest
#    path no longer than dfsssp's, A2A, SP and RP (median of 100) no
#    higher than dfsssp's, one VL;
#  - with the jobs: the same, and a max effective EFI lower than dfsssp's;
#  - with the jobs and --all-pairs (sar_job_all_pairs): the same, A2A and
#    SP no higher than sar's without jobs, EFI no higher than dfsssp's.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../../bench/peer-check"
NET=$W/p512.net
"$OSMRE" gen pgft 3 8,4,16 1,4,4 1,2,1 -o "$NET" 2>/dev/null || { ko "gen"; exit 1; }
# a job mix (bench/sar-jobs.sh's law, seed 7)
job_mix "$NET" 7 "$W/mix.jobs"
sim_start "$NET" || exit 1
# (bench/peer-check: qos TRUE, identity SL-to-VL, 8 VLs; dfsssp as
# configured, not fallen back or over its VLs)
ROUTING=dfsssp peer_osm_start H_0_0 dfsssp 8 || { ko "SUBNET UP"; exit 1; }
check "dfsssp routed as configured ($(peer_read "$W/osm.log" dfsssp 8 | cut -d' ' -f3))" \
	[ "$(peer_read "$W/osm.log" dfsssp 8 | cut -d' ' -f4)" = 1 ]
sleep 1
check "dfsssp's tables read back" read_lfts H_1_1 "$W/dfsssp.lfts"
# measure NAME LFTS [SLS]: analyze's CSV row in $W/NAME.csv
measure() {
	"$OSMRE" analyze -q --rp 100 --no-updown --format csv --jobs "$W/mix.jobs" \
		${3:+--sl-file "$3"} --topo "$NET" --lfts "$2" 2>/dev/null |
		sed -n 2p >"$W/$1.csv"
}
col() { cut -d, -f"$2" "$W/$1.csv"; }
jobs_of() {
	case $1 in
	jobs) echo "--jobs $W/mix.jobs" ;;
	allpairs) echo "--jobs $W/mix.jobs --all-pairs" ;;
	esac
}
measure dfsssp "$W/dfsssp.lfts"
for run in nojobs jobs allpairs; do
	"$OSMRE" route -e sar $(jobs_of "$run") --topo "$NET" --lids "$W/dfsssp.lfts" \
		--sls "$W/$run.sls" --out "$W/$run.lfts" 2>"$W/$run.err" ||
		ko "sar $run routed"
	measure "$run" "$W/$run.lfts" "$W/$run.sls"
done
echo "                valid longest  A2A SP RP VLs longer  EFI"
for r in dfsssp nojobs jobs allpairs; do
	printf "%-14s %6s %7s %4s %2s %2s %3s %6s %4s\n" "$r" "$(col $r 1)" \
		"$(col $r 9)" "$(col $r 16)" "$(col $r 17)" "$(col $r 18)" \
		"$(col $r 11)" "$(col $r 27)" "$(col $r 24)"
done
# le RUN COLUMN: sar's figure no higher than dfsssp's
le() { a=$(col "$1" "$2"); b=$(col dfsssp "$2"); [ -n "$a" ] && [ -n "$b" ] && [ "$a" -le "$b" ]; }
for run in nojobs jobs allpairs; do
	check "sar $run: valid" [ "$(col $run 1)" = 1 ]
	check "sar $run: every path a shortest one" [ "$(col $run 27)" = 0 ]
	check "sar $run: longest path no longer than dfsssp's" le $run 9
	check "sar $run: A2A no higher than dfsssp's" le $run 16
	check "sar $run: SP no higher than dfsssp's" le $run 17
	check "sar $run: RP no higher than dfsssp's" le $run 18
	check "sar $run: one VL" [ "$(col $run 11)" = 1 ]
done
lt() { a=$(col jobs 24); b=$(col dfsssp 24); [ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ]; }
check "sar with the jobs: max effective EFI lower than dfsssp's" lt
# no higher than sar's without jobs
le0() { a=$(col allpairs "$1"); b=$(col nojobs "$1"); [ -n "$a" ] && [ -n "$b" ] && [ "$a" -le "$b" ]; }
check "sar --all-pairs: A2A no higher than without jobs" le0 16
check "sar --all-pairs: SP no higher than without jobs" le0 17
check "sar --all-pairs: max effective EFI no higher than dfsssp's" le allpairs 24
check "sar --all-pairs: its risks logged" grep -q "^sar: all pairs: A2A at most [0-9]*, SP at most [0-9]* (DFSSSP's)" "$W/allpairs.err"
finish
