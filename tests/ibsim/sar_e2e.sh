#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sar inside OpenSM on the blk216 fixture (3:1 blocking, fragmented jobs),
# the job file in osmre.conf (sar_job_file):
#  - the tables read back are valid, deadlock-free with the SLs sar gives,
#    identical to `osmre route -e sar --jobs` with the same file, and their
#    max effective EFI is 94 (OpenSM's own engines reach 111);
#  - a new job file and SIGUSR2: the tables `osmre route` predicts;
#  - a malformed job file and SIGUSR2: the line is logged, the tables stay;
#  - osmre jobwatch (a recorded squeue) writes the job file and signals
#    this opensm: the tables follow; a second run signals nothing;
#  - sar_job_all_pairs 1 (a new opensm, whose first pass starts from the
#    tables the switches hold: lft_readback; SIGUSR2 then routes afresh
#    with the new option): its risks logged, the tables those of
#    `osmre route -e sar --jobs --all-pairs`.
set -u
. "$(dirname "$0")/lib.sh"
blk216_sar
sim_start "$NET" || exit 1
ROUTING=sar,updn osm_start H_0_0 "qos TRUE" || { ko "SUBNET UP"; exit 1; }
check "sar routed" grep -q "sar tables configured on all switches" "$W/osm.log"
check "update protocol off: no escape, no phases" sh -c "! grep -q 'osmre: update\|escape:' '$W/osm.log'"
check "jobs logged" grep -q "osmre: sar: 9 job(s) from $J" "$W/osm.log"
check "job-aware tables logged" grep -q "osmre: sar: 1 virtual layer(s); job-aware tables kept: max effective EFI [0-9]* (SAR \(9[0-4]\|[1-8][0-9]\), DFSSSP 111 before the layers; [0-9]* without the jobs)" "$W/osm.log"
sleep 1
# tables_like NAME JOBFILE [ROUTE-OPTION]: the fabric's tables equal
# osmre route's
tables_like() {
	read_lfts H_11_17 "$W/$1.lfts" || return 1
	"$OSMRE" route -e sar ${3:-} --jobs "$2" --topo "$NET" --lids "$W/$1.lfts" \
		--sls "$W/$1.sls" --out "$W/$1.offline" 2>/dev/null || return 1
	same_lfts "$W/$1.lfts" "$W/$1.offline"
}
check "fabric tables identical to osmre route -e sar --jobs" tables_like first "$J"
check "sar state dumped" grep -q "^layers 1 pass full job-aware 1 efi-sar" "$W/dump/osmre-sar.dump"
# (its SLs part is the SL file osmre route writes)
sls_part() {
	grep -v '^#' "$W/first.sls" >"$W/sls.a"
	grep -v '^#' "$W/dump/osmre-sar.dump" | grep -v '^layers ' >"$W/sls.b"
	cmp -s "$W/sls.a" "$W/sls.b"
}
check "sar state: the paths' SLs as osmre route --sls" sls_part
"$OSMRE" analyze -q --rp 10 --no-updown --jobs "$J" --sl-file "$W/first.sls" \
	--topo "$NET" --lfts "$W/first.lfts" >"$W/first.out" 2>&1
cat "$W/first.out"
check "valid" grep -q "^validity: VALID" "$W/first.out"
check "deadlock-free on sar's SLs" grep -q "channel dependency graph acyclic" "$W/first.out"
check "max effective EFI 94 or lower" grep -q -E "effective edge forwarding index max ([1-8][0-9]|9[0-4])," "$W/first.out"

# new jobs: the 9 jobs merged into 3
awk '!/^#/ && NF == 2 { print $1, "m" ($2 % 3) }' "$DATA/blk216.jobs" >"$W/new.conf"
mv "$W/new.conf" "$J"
kill -USR2 "$OSM_PID"
check "SIGUSR2: a second pass" wait_log "osmre: sar: 3 job(s)" 1 60
sleep 1
check "tables follow the new jobs" tables_like second "$J"

# a malformed job file: logged, the tables stay
cp "$J" "$W/good.conf"
printf 'H_0_0 m0\nH_0_1\n' >"$J"
kill -USR2 "$OSM_PID"
check "malformed job file logged with file:line" \
	wait_log "osmre ERR: sar: $J:2: expected \"<hostname> <jobid>\"; the last good job set stays in force" 1 60
wait_log "osmre: sar: 3 job(s)" 2 60 >/dev/null
sleep 1
check "the tables stay" tables_like third "$W/good.conf"

# osmre jobwatch: a recorded squeue, this opensm signalled
echo "$OSM_PID" >"$W/opensm.pid"
awk '!/^#/ && NF == 2 { h[$2] = h[$2] (h[$2] ? "," : "") $1 }
	END { for (j in h) print j "|" h[j] }' "$DATA/blk216.jobs" >"$W/squeue.out"
printf '#!/bin/sh\ncat %s\n' "$W/squeue.out" >"$W/squeue"
chmod +x "$W/squeue"
jw() { "$OSMRE" jobwatch --topo "$NET" --job-file "$J" --pidfile "$W/opensm.pid" \
	--squeue "$W/squeue" --once; }
n=$(count_log "osmre: sar: ")
jw >"$W/jw1.out" 2>&1
cat "$W/jw1.out"
check "jobwatch replaces the malformed file and signals" grep -q "rewritten, opensm $OSM_PID signalled" "$W/jw1.out"
check "a pass with jobwatch's jobs" wait_log "osmre: sar: " $((n + 1)) 60
sleep 1
check "tables follow jobwatch's job file" tables_like fourth "$J"
n=$(count_log "osmre: sar: ")
jw >"$W/jw2.out" 2>&1
sleep 3
check "same jobs: jobwatch silent, no pass" [ ! -s "$W/jw2.out" ] && [ "$(count_log "osmre: sar: ")" -eq "$n" ]

# sar_job_all_pairs 1: a new opensm with it
osm_stop
echo "sar_job_all_pairs 1" >>"$W/osmre.conf"
ROUTING=sar,updn osm_start H_0_0 "qos TRUE" || { ko "SUBNET UP with sar_job_all_pairs 1"; finish; }
check "a new master: from the tables the switches hold" grep -q "osmre: sar: first pass as master, from the tables the switches hold: 0 entries changed" "$W/osm.log"
kill -USR2 "$OSM_PID"
check "SIGUSR2: a pass afresh" wait_log "osmre: sar routed" 2 60
check "sar_job_all_pairs 1: its risks logged" grep -q "osmre: sar: all pairs: A2A at most [0-9]*, SP at most [0-9]* (DFSSSP's)" "$W/osm.log"
sleep 1
check "sar_job_all_pairs 1: tables of osmre route --all-pairs" tables_like fifth "$J" --all-pairs
finish
