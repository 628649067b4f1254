#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The tables read back whole when the top LID is a multiple of 64: a
# dragonfly of 2 groups of 8 routers with 3 hosts each has 64 LIDs, and
# infiniband-diags 44 (dump_fts, dump_lfts, ibroute) reads no LFT block
# at or above ALIGN(top, 64) / 64, so LID 0x40 is left out of every
# switch's dump.  read_lfts (lib.sh complete_top, tests/ibsim/lfttop.c)
# adds it:
#  - every switch's dump has an entry for LID 0x40, naming its port, and
#    completing the dump again changes nothing;
#  - osmre analyze finds the tables VALID (no port without a LID);
#  - they are those of `osmre route -e sar` with the same LIDs, every
#    entry, the top LID's included.
set -u
. "$(dirname "$0")/lib.sh"
NET=$W/df64.net
"$OSMRE" gen dragonfly 2 8 3 1 -o "$NET" 2>/dev/null || { ko "gen"; exit 1; }
check "64 LIDs" [ "$(grep -c '^\(Hca\|Switch\)' "$NET")" = 64 ]
sim_start "$NET" || exit 1
ROUTING=sar,updn osm_start H_0_0 "qos TRUE" || { ko "SUBNET UP"; exit 1; }
check "sar routed" grep -q "sar tables configured on all switches" "$W/osm.log"
sleep 1
check "LFTs read back" read_lfts H_15_2 "$W/top.lfts"
check "the top LID of 16 switches" [ "$(grep -c '^0x0040 [0-9]* : (' "$W/top.lfts")" = 16 ]
# completing a complete dump adds nothing
cp "$W/top.lfts" "$W/again.lfts"
complete_top H_15_2 "$W/again.lfts"
check "completed twice: the same dump" cmp -s "$W/top.lfts" "$W/again.lfts"
"$OSMRE" analyze -q --rp 10 --no-updown --topo "$NET" --lfts "$W/top.lfts" \
	>"$W/an.out" 2>&1
check "analyze: VALID" grep -q "^validity: VALID" "$W/an.out"
"$OSMRE" route -e sar --topo "$NET" --lids "$W/top.lfts" \
	--out "$W/top.offline" 2>/dev/null
check "osmre route with the same LIDs: every entry" same_lfts "$W/top.lfts" "$W/top.offline"
check "... the top LID's too" [ "$(grep -c '^0x0040 ' "$W/top.offline")" = 16 ]
finish
