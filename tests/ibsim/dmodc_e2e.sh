#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# dmodc inside OpenSM on an ibsim PGFT(3;6,6,18;1,6,6;1,1,1) of 648 hosts:
#  g. a malformed options file: file:line in the log, routing still works
#  a. the fabric's LFTs (dump_fts from another HCA) are valid, identical to
#     `osmre route` on the same net file, and LID-routed queries reach every
#     LID from several HCAs
#  b. SIGUSR2: a second pass, opensm alive, LFTs unchanged
#  f. 20 SIGUSR2 within a second: opensm alive, a bounded number of passes
#  c. a switch-to-switch link unlinked: re-route, valid, dead link unused;
#     relinked: the original tables
#  d. a whole spine switch unlinked: valid; relinked: the original tables
set -u
. "$(dirname "$0")/lib.sh"

NET=$W/pgft648.net
"$OSMRE" gen pgft 3 6,6,18 1,6,6 -o "$NET" 2>/dev/null || { ko "gen"; exit 1; }
printf 'dmodc_threads 2\n# a comment\ndmodc_threads lots\nno_such_option 1\ndmodc_ca_hops 1\n' >"$W/osmre.conf"
OSMRE_CONF=$W/osmre.conf
export OSMRE_CONF
sim_start "$NET" || exit 1
osm_start H_0_0 || { ko "SUBNET UP"; exit 1; }

# g
check "bad option value reported with file:line" \
	grep -q "osmre ERR: $W/osmre.conf:3: dmodc_threads: expected" "$W/osm.log"
check "unknown option reported with file:line" \
	grep -q "osmre ERR: $W/osmre.conf:4: unknown option \"no_such_option\"" "$W/osm.log"
check "good option kept and logged" grep -q "osmre: option dmodc_threads 2" "$W/osm.log"
check "dmodc routed" grep -q "dmodc tables configured on all switches" "$W/osm.log"

# a
sleep 1
check "LFTs read back" read_lfts H_17_5 "$W/fabric.lfts"
check "fabric LFTs valid and up-down" "$OSMRE" check --topo "$NET" --lfts "$W/fabric.lfts"
"$OSMRE" route --topo "$NET" --lids "$W/fabric.lfts" --out "$W/offline.lfts" 2>/dev/null
check "fabric LFTs identical to osmre route" same_lfts "$W/fabric.lfts" "$W/offline.lfts"
# LID-routed queries hop by hop over the LFTs, from 2 HCAs to every LID
# every LID appears in each switch's table: the first table's last row.
# (make check: every 9th LID from each HCA, a different ninth each, and
# the last: about 200 queries of the 900 LIDs; every LID from both, 1,800
# queries, with OSMRE_TEST_LONG, make check-long.  osmre check above
# walks every pair's route through the same tables.)
max=$(awk '/^Unicast/ { n++ } n == 1 && /^0x/ { l = $1 } END { print l }' "$W/fabric.lfts")
max=$((${max:-0}))
step=9
[ -z "${OSMRE_TEST_LONG:-}" ] || step=1
bad=0 asked=0 first=1
for src in H_5_2 H_30_4; do
	for lid in $(seq "$first" "$step" "$max") "$max"; do
		sim_run $src timeout 10 \
			smpquery -L nodedesc "$lid" >/dev/null 2>&1 || bad=$((bad + 1))
		asked=$((asked + 1))
	done
	first=5
done
check "LID-routed nodedesc reaches $asked LIDs of $max from 2 HCAs ($bad failures)" \
	[ "$bad" -eq 0 -a "$asked" -gt 2 ]

# hop tables follow the routes (with dmodc_ca_hops 1, CA LIDs too);
# OpenSM dumps them with log flag 0x40
diag H_17_5 ibnetdiscover >"$W/fabric.net" 2>/dev/null
check "hop tables follow the routes" \
	awk -f "$(dirname "$0")/hops.awk" "$W/fabric.net" "$W/fabric.lfts" \
	"$W/dump/opensm-lid-matrix.dump"
# one PathRecord, LID 1 to the last LID (a bare "PR 1 $max" fetched a
# whole table, which timed out on a loaded machine)
pr_one() {
	diag H_30_4 saquery -t 10000 --src-to-dst "1:$max" PR >"$W/pr.out" 2>&1 &&
		grep -q "dlid" "$W/pr.out"
}
check "SA PathRecord between two hosts" pr_one
check "dmodc state dumped" grep -q "^switch 0x0000000000200090 rank 0 divider 1" \
	"$W/dump/osmre-dmodc.dump"

# b
n=$(passes)
kill -USR2 "$OSM_PID"
check "SIGUSR2: second routing pass" wait_log "osmre: dmodc routed" $((n + 1)) 30
check "SIGUSR2: opensm alive" kill -0 "$OSM_PID"
sleep 1
read_lfts H_17_5 "$W/after-usr2.lfts"
check "SIGUSR2: LFTs unchanged" same_lfts "$W/fabric.lfts" "$W/after-usr2.lfts"

# f
sleep 1
n=$(passes)
for _ in $(seq 20); do kill -USR2 "$OSM_PID"; sleep 0.04; done
sleep 3
wait_log "osmre: dmodc routed" $((n + 1)) 30 >/dev/null
sleep 2
m=$(passes)
check "20 SIGUSR2 in a second: opensm alive" kill -0 "$OSM_PID"
check "20 SIGUSR2 in a second: $((m - n)) pass(es), at least 1 and at most 3" \
	test $((m - n)) -ge 1 -a $((m - n)) -le 3

# discover HOST OUT: the live topology, as ibnetdiscover sees it
discover() { diag "$1" ibnetdiscover >"$2" 2>/dev/null && grep -q "^Switch" "$2"; }

# c: S1_0_0_0 (GUID 0x200090) port 7 is its first uplink, to S2_0_0_0
n=$(passes)
console 'Unlink "S1_0_0_0"[7]'
check "link down: re-route" wait_pass $((n + 1))
sleep 1
read_lfts H_17_5 "$W/unlinked.lfts"
discover H_17_5 "$W/unlinked.net"
gone=$(awk '/^Switch/ { on = /"S-0000000000200090"/ } on && /^\[7\]/' "$W/unlinked.net" | wc -l)
check "link down: S1_0_0_0[7] gone from the discovered topology" [ "$gone" -eq 0 ]
check "link down: valid on the degraded fabric" \
	"$OSMRE" check --topo "$W/unlinked.net" --lfts "$W/unlinked.lfts"
used=$(awk '/^Unicast lids/ { on = / guid 0x0000000000200090 / } on && /^0x/ && $2 == "007"' \
	"$W/unlinked.lfts" | wc -l)
check "link down: S1_0_0_0 port 7 unused ($used entries)" [ "$used" -eq 0 ]
n=$(passes)
console 'ReLink "S1_0_0_0"[7]'
check "relink: re-route" wait_pass $((n + 1))
sleep 1
read_lfts H_17_5 "$W/relinked.lfts"
check "relink: original tables" same_lfts "$W/fabric.lfts" "$W/relinked.lfts"

# d: a whole spine (top) switch
n=$(passes)
console 'Unlink "S3_0_0_0"'
check "spine down: re-route" wait_pass $((n + 1))
sleep 1
read_lfts H_17_5 "$W/nospine.lfts"
discover H_17_5 "$W/nospine.net"
check "spine down: S3_0_0_0 gone" sh -c "! grep -q 'S-0000000000200000' '$W/nospine.net'"
check "spine down: valid on the rest" \
	"$OSMRE" check --topo "$W/nospine.net" --lfts "$W/nospine.lfts"
n=$(passes)
console 'ReLink "S3_0_0_0"'
check "spine back: re-route" wait_pass $((n + 1))
sleep 1
read_lfts H_17_5 "$W/spineback.lfts"
check "spine back: original tables" same_lfts "$W/fabric.lfts" "$W/spineback.lfts"

# hops_background (default 1): a pass after which OpenSM sends whole
# tables (the first; a switch back) fills the switch LIDs' hop tables on
# the plugin thread, joined at the end of the pass, before the next (a
# late join is an "osmre ERR", below); the others before returning
bg=$(grep -c "osmre: dmodc routed .*, those of the switch LIDs on a plugin thread)" "$W/osm.log")
joined=$(grep -c "osmre: hop tables of the switch LIDs filled on a plugin thread in" "$W/osm.log")
inline=$(grep -c "osmre: dmodc routed .* ms with hop tables)" "$W/osm.log")
hops_joined() {
	[ "$bg" -gt 0 ] && [ "$inline" -gt 0 ] &&
		[ "$((bg + inline))" -eq "$(passes)" ] && [ "$joined" -eq "$bg" ]
}
check "hop tables: $bg passes on the plugin thread, $joined joins, $inline before returning" hops_joined

# OpenSM's exit runs the plugin's delete(): the SIGUSR2 thread is joined
# and the previous handler restored; opensm must exit promptly and cleanly
kill -TERM "$OSM_PID"
exited=no
for _ in $(seq 100); do
	kill -0 "$OSM_PID" 2>/dev/null || { exited=yes; break; }
	sleep 0.2
done
check "opensm exits within 20 s of SIGTERM" [ "$exited" = yes ]
check "no error from the plugin" sh -c "! grep -q 'osmre ERR' '$W/osm.log' ||
	! grep 'osmre ERR' '$W/osm.log' | grep -v 'osmre.conf:'"
OSM_PID=
finish
