#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The five-phase update protocol on ibsim, lmc 1, sar with a job file on
# the blk216 fixture, two `osmre subscribe` clients at different HCAs:
#  - the escape: PathRecords to a high LID carry SL 7; the tables (base
#    by sar, high LIDs by up*/down*) are those of `osmre route --escape-vl
#    7`, and every VL's channel dependency graph is acyclic, before and
#    after the update; the plugin's deadlock_check logs each pass
#    acyclic on the SLs it hands out (escape included);
#  - a new job file and SIGUSR2: the log shows COMPUTE, UNPATH, UPDATE,
#    REPATH and the commit in order; each client ran its unpath hook, then
#    its repath hook; the LFTs read back inside the unpath hook are the old
#    ones, inside the repath hook the new ones; the high-LID entries never
#    changed; LID-routed probes to high LIDs never failed;
#  - one client killed during UNPATH: its timeout is logged, the update
#    commits, the other client goes through both phases, and OpenSM still
#    answers and updates afterwards;
#  - a link that fails during UNPATH: the run restarts from COMPUTE and
#    commits, and the client comes back to the base LIDs.
set -u
. "$(dirname "$0")/lib.sh"
blk216_sar "update_protocol 1" "update_escape_vl 7" \
	"update_ack_timeout_ms 6000" "update_poll_ms 100" "deadlock_check 1"
sim_start "$NET" || exit 1
ROUTING=sar,updn osm_start H_0_0 "qos TRUE" "lmc 1" || { ko "SUBNET UP"; exit 1; }
check "protocol on" grep -q "osmre: update protocol on: escape on SL/VL 7, vendor class 0x09" "$W/osm.log"
check "escape routed" grep -q "osmre: escape: 216 high LID(s) by up\*/down\*" "$W/osm.log"
check "the plugin's deadlock check: sar's layers and the escape acyclic" \
	grep -q "osmre: sar: deadlock check: acyclic on 8 VL(s)" "$W/osm.log"
check "serving the vendor class" wait_log "osmre: update: serving class 0x09" 1 30
sleep 1

# tables_like NAME JOBFILE DUMP: DUMP equals osmre route's tables for the
# job file, with the escape (and the SL file NAME.sls for analyze)
tables_like() {
	"$OSMRE" route -e sar --jobs "$2" --topo "$NET" --lids "$3" --max-vls 4 \
		--escape-vl 7 --sls "$W/$1.sls" --out "$W/$1.offline" 2>/dev/null &&
		same_lfts "$3" "$W/$1.offline"
}
# acyclic NAME DUMP: valid, and every VL acyclic on NAME.sls
acyclic() {
	"$OSMRE" analyze -q --rp 10 --no-updown --sl-file "$W/$1.sls" --topo "$NET" \
		--lfts "$2" >"$W/$1.out" 2>&1
	grep -q "^validity: VALID" "$W/$1.out" &&
		grep -q "channel dependency graph acyclic" "$W/$1.out"
}
# high_entries DUMP: "switch LID port" for every high LID (dump_fts names
# a port's LIDs after its base "path #2 out of 2", ...)
high_entries() {
	awk '/^Unicast lids/ { sw = $0; sub(/.* guid /, "", sw); sub(/ .*/, "", sw) }
	     /^0x/ && /\(path #/ { print sw, $1, $2 }' "$1" | sort
}

check "LFTs read back" read_lfts H_11_17 "$W/old.lfts"
check "old tables: osmre route --escape-vl 7 with the same jobs" tables_like old "$J" "$W/old.lfts"
check "old tables: valid, every VL acyclic (sar's layers, escape on VL 7)" acyclic old "$W/old.lfts"
cat "$W/old.out"
high_entries "$W/old.lfts" >"$W/old.high"
check "216 high LIDs in the tables" [ "$(awk '{ print $2 }' "$W/old.high" | sort -u | wc -l)" -eq 216 ]
# the SA gives the escape's SL for a high LID, sar's for a base LID
hi=$(($(awk '{ print $2 }' "$W/old.high" | sort -u | tail -1)))
# path_sl SRC DST: the SL of the SA's PathRecord
path_sl() {
	diag H_3_3 saquery --src-to-dst "$1:$2" PR 2>/dev/null |
		awk '/^[ \t]*sl\.+/ { v = $0; sub(/.*\./, "", v); print v + 0 }'
}
lo=$(($(awk '{ print $2 }' "$W/old.high" | sort -u | head -1) - 1))
check "PathRecord to high LID $hi: the escape's SL 7" [ "$(path_sl "$lo" "$hi")" = 7 ]
check "PathRecord to base LID $((hi - 1)): sar's SL 0" [ "$(path_sl "$lo" $((hi - 1)))" = 0 ]

# SL-to-VL of a switch (qos TRUE): SL 7 on VL 7, and no other SL on it
# (the first switch of the dump: its own LID, the port of its first CA)
swlid=$(($(awk '/^Unicast/ { n++ } n == 1 && $2 == "000" { print $1; exit }' "$W/old.lfts")))
swport=$(awk '/^Unicast/ { n++ } n == 1 && /Channel Adapter/ { print $2 + 0; exit }' "$W/old.lfts")
diag H_3_3 smpquery sl2vl "$swlid" "$swport" >"$W/sl2vl.out" 2>&1
escape_alone() {
	awk -F'|' '/in .*out/ { rows++
		for (i = 2; i <= 17; i++) { v = $i + 0
			if ((i == 9) != (v == 7)) bad++ } }
		END { exit !(rows > 0 && !bad) }' "$W/sl2vl.out"
}
check "switch $swlid, port $swport: the escape alone on VL 7" escape_alone
head -3 "$W/sl2vl.out"

# subscribers: their hooks read the fabric's tables and log the phase
sub_start() {	# sub_start NAME HOST
	sim_bg $2 "$OSMRE" subscribe \
		--on-unpath "dump_fts >$W/$1-unpath-\$OSMRE_EPOCH.lfts && sleep 1 && echo unpath \$OSMRE_EPOCH >>$W/$1.events${3:-}" \
		--on-repath "dump_fts >$W/$1-repath-\$OSMRE_EPOCH.lfts && echo repath \$OSMRE_EPOCH >>$W/$1.events" \
		>"$W/$1.log" 2>&1 &
}
sub_start a H_3_5
SUB_A=$!
# b dies in its first unpath hook after the first update
sub_start b H_9_12 "; [ -f $W/kill-b ] && kill -9 \$PPID; true"
SUB_B=$!
check "subscriber a registered" wait_file "$W/a.log" "registered as subscriber" 30
check "subscriber b registered" wait_file "$W/b.log" "registered as subscriber" 30
check "the SM counts two subscribers" wait_log "update: subscriber .* registered (2 in all" 1 10

# probes: LID-routed SMPs from a third HCA to high LIDs, all along
probe_lids=$(awk '{ print $2 }' "$W/old.high" | sort -u | awk 'NR % 27 == 1')
(
	while [ ! -f "$W/stop-probes" ]; do
		for l in $probe_lids; do
			if sim_run H_6_0 timeout 20 smpquery -L nodedesc "$l" \
				>/dev/null 2>&1; then r=ok; else r=FAIL; fi
			echo "$r $l $(date '+%H %M %S %N' | awk '{ printf "%.6f", $1 * 3600 + $2 * 60 + $3 + $4 / 1e9 }')"
		done
	done
) >"$W/probes.log" 2>&1 &
PROBES=$!

# an update: the 9 jobs merged into 3
awk '!/^#/ && NF == 2 { print $1, "m" ($2 % 3) }' "$DATA/blk216.jobs" >"$W/new.conf"
cp "$W/new.conf" "$J"
kill -USR2 "$OSM_PID"
check "epoch committed" wait_log "osmre: update: epoch [0-9]* committed" 1 120
ep=$(grep "osmre: update: epoch [0-9]* committed" "$W/osm.log" | head -1 | sed 's/.*epoch \([0-9]*\) committed.*/\1/')
grep "osmre: update: epoch $ep" "$W/osm.log" | sed 's/.*osmre: update: //'
phases_in_order() {
	grep -o "osmre: update: epoch $ep: [A-Z][A-Z]*\|osmre: update: epoch $ep committed" "$W/osm.log" |
		awk '{ print $NF }' | tr '\n' ' ' | grep -q "^COMPUTE UNPATH UPDATE REPATH committed $"
}
check "the five phases in order" phases_in_order
check "acks from both subscribers, no timeout" grep -q "epoch $ep committed.*subscribers 2, acks 4, nacks 0, timeouts 0, dropped 0; changed before 0 session" "$W/osm.log"
for s in a b; do
	check "$s: unpath then repath" [ "$(awk '{ print $1 }' "$W/$s.events" | tr '\n' ' ')" = "unpath repath " ]
	check "$s: old tables during unpath" same_lfts "$W/old.lfts" "$W/$s-unpath-$ep.lfts"
	check "$s: new tables during repath" tables_like new-$s "$J" "$W/$s-repath-$ep.lfts"
	check "$s: high-LID entries unchanged" cmp -s "$W/old.high" "$(high_entries "$W/$s-repath-$ep.lfts" >"$W/$s.high"; echo "$W/$s.high")"
done
differ() { ! same_lfts "$1" "$2"; }
check "the base routes did change" differ "$W/old.lfts" "$W/a-repath-$ep.lfts"
check "new tables: valid, every VL acyclic" acyclic new-a "$W/a-repath-$ep.lfts"
cat "$W/new-a.out"
touch "$W/stop-probes"
wait "$PROBES" 2>/dev/null
echo "probes: $(grep -c '^ok' "$W/probes.log") answered, $(grep -c '^FAIL' "$W/probes.log") failed"
# probes answered between the start of UNPATH and the commit
t0=$(grep "osmre: update: epoch $ep: UNPATH" "$W/osm.log" | log_secs)
t1=$(grep "osmre: update: epoch $ep committed" "$W/osm.log" | log_secs)
during=$(awk -v a="$t0" -v b="$t1" '$1 == "ok" && $3 >= a && $3 <= b' "$W/probes.log" | wc -l)
echo "probes during the update ($t0 - $t1): $during"
check "probes answered during the update" [ "$during" -gt 0 ]
probes_ok() { [ "$(grep -c '^ok' "$W/probes.log")" -gt 0 ] && ! grep -q '^FAIL' "$W/probes.log"; }
check "probes to high LIDs answered throughout" probes_ok

# b dies during the next UNPATH
touch "$W/kill-b"
cp "$DATA/blk216.jobs" "$J"
kill -USR2 "$OSM_PID"
check "second epoch committed" wait_log "osmre: update: epoch [0-9]* committed" 2 120
ep2=$(grep "osmre: update: epoch [0-9]* committed" "$W/osm.log" | sed -n 2p | sed 's/.*epoch \([0-9]*\) committed.*/\1/')
check "b was killed in its hook" sh -c "! kill -0 $SUB_B 2>/dev/null"
check "b's timeout logged" grep -q "update: subscriber [0-9]*: port 0x[0-9a-f]* LID [0-9]*: no UNPATH ack of epoch $ep2" "$W/osm.log"
check "commit with one timeout" grep -q "epoch $ep2 committed.*timeouts [1-9]" "$W/osm.log"
check "a: unpath then repath again" [ "$(awk '{ print $1 }' "$W/a.events" | tr '\n' ' ')" = "unpath repath unpath repath " ]
check "a: tables of the old jobs again" tables_like back "$J" "$W/a-repath-$ep2.lfts"
check "OpenSM still answers the SA" diag H_7_7 saquery -s
kill -USR2 "$OSM_PID"
check "and still updates: nothing to change" wait_log "osmre: update: epoch [0-9]*: no base-LID block changes" 1 60

# a link fails during UNPATH: the new topology is routed at once, the run
# restarts from COMPUTE and still brings a back
n=$(count_log "osmre: update: epoch [0-9]* committed")
awk '!/^#/ && NF == 2 { print $1, "t" ($2 % 2) }' "$DATA/blk216.jobs" >"$J"
kill -USR2 "$OSM_PID"
ep3=$(($(grep "osmre: update: epoch [0-9]*: no base-LID" "$W/osm.log" | tail -1 | sed 's/.*epoch \([0-9]*\):.*/\1/') + 1))
check "a's unpath hook runs" wait_file "$W/a-unpath-$ep3.lfts" "" 60
console 'Unlink "S2_0_0"[1]'
check "topology change: the run restarts" wait_log "update: epoch [0-9]*: topology change during [A-Z]*: restarting from COMPUTE" 1 90
check "and commits" wait_log "osmre: update: epoch [0-9]* committed" $((n + 1)) 120
check "commit after a restart" sh -c "grep 'osmre: update: epoch [0-9]* committed' '$W/osm.log' | tail -1 | grep -q 'restarts [1-9]'"
back_after() {	# the last event is a repath of an epoch from $1 on
	for _ in $(seq 100); do
		tail -1 "$W/a.events" | awk -v e="$1" '$1 == "repath" && $2 >= e { ok = 1 } END { exit !ok }' &&
			return 0
		sleep 0.2
	done
	return 1
}
check "a came back" back_after "$ep3"
kill "$SUB_A" 2>/dev/null
check "a leaves" wait_log "update: subscriber [0-9]*: port 0x[0-9a-f]* left" 1 20

# the fabric goes away (ibsim stopped) while a new client c runs its
# unpath hook, which hangs: c kills it after --hook-timeout-ms, its NACK
# and what follows fail, and c backs off instead of spinning (a failure
# every 8 ms was seen): a few tries over 4 s once it has backed off,
# counted as c's context switches
switches() { awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$1/status"; }
sim_bg H_5_9 "$OSMRE" subscribe --hook-timeout-ms 1500 \
	--on-unpath "echo \$\$ >$W/c-hook.pid; touch $W/c-in-hook; sleep 30" --on-repath true >"$W/c.log" 2>&1 &
SUB_C=$!
check "subscriber c registered" wait_file "$W/c.log" "registered as subscriber" 30
awk '!/^#/ && NF == 2 { print $1, "u" ($2 % 3) }' "$DATA/blk216.jobs" >"$J"
kill -USR2 "$OSM_PID"
for _ in $(seq 600); do [ -f "$W/c-in-hook" ] && break; sleep 0.1; done
check "c's unpath hook runs" [ -f "$W/c-in-hook" ]
stop_pids "$SIM_PID"
SIM_PID=
sleep 4
s0=$(switches "$SUB_C")
sleep 4
s1=$(switches "$SUB_C")
check "a client without a fabric backs off ($((s1 - s0)) wake-ups in 4 s)" [ $((s1 - s0)) -lt 40 ]
check "c's hook killed after --hook-timeout-ms" grep -q "unpath hook still running after 1500 ms (--hook-timeout-ms): killed" "$W/c.log"
check "and what it started with it (its process group)" sh -c "[ -s '$W/c-hook.pid' ] && ! pgrep -g \$(cat '$W/c-hook.pid') >/dev/null"
stop_pids "$SUB_A" "$SUB_B" "$SUB_C" "$PROBES"
finish
