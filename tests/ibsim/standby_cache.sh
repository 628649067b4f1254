#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Saved tables that are no longer in force (issue: a handover back with
# a stale cache): SM A (update_protocol, sar with a job file) routes and
# saves its committed tables; A stops, SM B takes over, and an epoch of
# B's (another job file) changes the tables; B stops, A restarts with its
# old cache directory.  A reads the LFTs back: its saved tables are not
# what the switches hold, so it does not install them (before: it
# installed them at once, flipping 96 blocks with no epoch); its first
# pass starts from the switches' tables and changes nothing; what A's
# configuration wants then comes by an epoch.
set -u
. "$(dirname "$0")/lib.sh"
blk216_sar "update_protocol 1" "update_escape_vl 7" \
	"update_ack_timeout_ms 3000" "update_poll_ms 100"
sim_start "$NET" || exit 1
ROUTING=sar,updn sm_start 0 H_0_0 "qos TRUE" "lmc 1"
plane_wait 0 "SUBNET UP" 1 || { ko "A: SUBNET UP"; exit 1; }
plane_wait 0 "osmre: update: serving class 0x09" 1 30
sleep 2
stop_pids "$SM0"
SM0=
# B: the jobs merged into 3, an epoch changes the tables
ROUTING=sar,updn sm_start 1 H_1_0 "qos TRUE" "lmc 1"
plane_wait 1 "SUBNET UP" 1 || { ko "B: SUBNET UP"; exit 1; }
plane_wait 1 "osmre: update: serving class 0x09" 1 30
awk '!/^#/ && NF == 2 { print $1, "m" ($2 % 3) }' "$DATA/blk216.jobs" >"$J.new"
cp "$J" "$W/jobs.a"
mv "$J.new" "$J"
kill -USR2 "$SM1"
check "B's epoch commits" plane_wait 1 "osmre: update: epoch [0-9]* committed" 1 120
grep "osmre: update: epoch [0-9]* committed" "$W/p1/osm.log" | sed 's/.*update: //' | cut -c1-120
stop_pids "$SM1"
SM1=
sleep 2
check "LFTs read back: B's" read_lfts H_5_0 "$W/b.lfts"
# A again, its old cache and job file
cp "$W/jobs.a" "$J"
ROUTING=sar,updn sm_start 0 H_0_0 "qos TRUE" "lmc 1"
plane_wait 0 "SUBNET UP" 2 || { ko "A again: SUBNET UP"; exit 1; }
check "A restored its saved tables" grep -q "osmre: update: restored the committed tables" "$W/p0/osm.log"
check "and found them not in force" grep -q \
	"osmre ERR: update: the saved committed tables are not what the switches hold" "$W/p0/osm.log"
check "its first pass from the switches' tables changed nothing" grep -q \
	"osmre: sar: first pass as master, from the tables the switches hold: 0 entries changed" "$W/p0/osm.log"
check "A's configuration then by an epoch" plane_wait 0 "osmre: update: epoch [0-9]* committed" 1 120
finish
