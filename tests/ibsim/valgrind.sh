#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Valgrind (memcheck) over OpenSM with libosmre on ibsim (blk216, sar with
# jobs, the update protocol on, one subscriber): the first routing pass, a
# re-route by SIGUSR2, an update epoch with a new job file, and the exit.
# No error and no definite leak may have a frame in libosmre.so.
# umad2sim's own errors (not ours) are suppressed by umad2sim.supp.
set -u
. "$(dirname "$0")/lib.sh"
command -v valgrind >/dev/null || { echo "valgrind not installed (scripts/deps valgrind)"; exit 77; }
SUPP=$(cd "$(dirname "$0")" && pwd)/umad2sim.supp
blk216_sar "update_protocol 1" "update_escape_vl 7" \
	"update_ack_timeout_ms 20000" "update_poll_ms 200"
sim_start "$NET" || exit 1
OSM_WRAPPER="valgrind --log-file=$W/vg.log --keep-debuginfo=yes --num-callers=40 --leak-check=full --show-leak-kinds=definite --suppressions=$SUPP" \
OSM_UP_TIMEOUT=300 ROUTING=sar,updn osm_start H_0_0 "qos TRUE" "lmc 1" || { ko "SUBNET UP under valgrind"; exit 1; }
check "serving the vendor class" wait_log "osmre: update: serving class 0x09" 1 120
sim_bg H_3_5 "$OSMRE" subscribe >"$W/a.log" 2>&1 &
SUB=$!
check "subscriber registered" wait_log "update: subscriber .* registered" 1 120
# a re-route that changes nothing, then an update with new jobs
kill -USR2 "$OSM_PID"
check "re-route by SIGUSR2" wait_log "osmre: update: epoch [0-9]*: no base-LID block changes" 1 180
awk '!/^#/ && NF == 2 { print $1, "v" ($2 % 2) }' "$DATA/blk216.jobs" >"$J"
kill -USR2 "$OSM_PID"
check "an update epoch committed" wait_log "osmre: update: epoch [0-9]* committed" 1 300
stop_pids "$SUB"
kill "$OSM_PID"
for _ in $(seq 600); do kill -0 "$OSM_PID" 2>/dev/null || break; sleep 0.2; done
wait "$OSM_PID" 2>/dev/null
OSM_PID=
check "valgrind's report written" grep -q "ERROR SUMMARY" "$W/vg.log"
grep "ERROR SUMMARY\|definitely lost" "$W/vg.log"
# ours: a frame in libosmre.so, or in one of our source files (the plugin
# has debug information: frames name the file)
SRC=${OSMRE_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
ours_re="libosmre|$(cd "$SRC" && ls common/*.c common/*/*.c common/*/*/*.c protocol/*.c plugins/*.c client/*.c 2>/dev/null | xargs -n1 basename |
	sed 's/\./\\./' | tr '\n' '|' | sed 's/|$//')"
echo "errors in valgrind's log: $(grep -c '^==[0-9]*== [A-Z][a-z].*\(Invalid\|uninit\|Conditional\|Syscall\|Mismatched\|definitely\)' "$W/vg.log")"
# error blocks: from a line "==PID== <what>" to the blank "==PID== " line
awk -v re="[(: ]($ours_re)[:)]" '
     /^==[0-9]+== [A-Z0-9][a-z0-9,]/ { blk = $0; ours = 0; next }
     /^==[0-9]+== *$/ { if (blk != "" && ours) { print blk; n++ } blk = ""; ours = 0; next }
     blk != "" { blk = blk "\n" $0; if ($0 ~ re || /libosmre/) ours = 1 }
     END { exit n > 0 }' "$W/vg.log" >"$W/ours.txt"
rc=$?
[ $rc -eq 0 ] || cat "$W/ours.txt"
check "no valgrind error or definite leak in libosmre frames" [ $rc -eq 0 ]
finish
