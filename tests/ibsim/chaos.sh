#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Chaos, about 30 s, on ibsim with the update protocol on (blk216, sar
# with jobs, lmc 1) and two `osmre subscribe` clients: links flap every
# 150 ms, SIGUSR2 comes every 100 ms and the job file changes now and
# then.  Afterwards: OpenSM is alive and answers; every epoch that started
# committed, restarted, or found nothing to change; both subscribers are
# back on the base LIDs; after one more SIGUSR2 (the last topology changes
# were stable re-routes) the tables are those of `osmre route`, valid,
# and deadlock-free on every VL (escape included).
set -u
. "$(dirname "$0")/lib.sh"
blk216_sar "update_protocol 1" "update_escape_vl 7" \
	"update_ack_timeout_ms 2000" "update_poll_ms 50" "reroute_coalesce_ms 50"
sim_start "$NET" || exit 1
ROUTING=sar,updn osm_start H_0_0 "qos TRUE" "lmc 1" || { ko "SUBNET UP"; exit 1; }
check "serving the vendor class" wait_log "osmre: update: serving class 0x09" 1 30
sleep 1
for s in a:H_3_5 b:H_9_12; do
	n=${s%%:*}
	sim_bg ${s#*:} "$OSMRE" subscribe \
		--on-unpath "echo unpath \$OSMRE_EPOCH >>$W/$n.events" \
		--on-repath "echo repath \$OSMRE_EPOCH >>$W/$n.events" \
		>"$W/$n.log" 2>&1 &
	eval "SUB_$n=\$!"
done
check "two subscribers" wait_log "update: subscriber .* registered (2 in all" 1 30

links='"S1_5_0"[19] "S1_7_0"[20] "S1_9_0"[21]'
end=$(($(date +%s) + ${CHAOS_SECONDS:-25}))
i=0
while [ "$(date +%s)" -lt "$end" ]; do
	# shellcheck disable=SC2086
	set -- $links
	shift $((i % 3))
	if [ $((i / 3 % 2)) = 0 ]; then console "Unlink $1"; else console "ReLink $1"; fi
	kill -USR2 "$OSM_PID" 2>/dev/null
	sleep 0.1
	kill -USR2 "$OSM_PID" 2>/dev/null
	if [ $((i % 20)) = 0 ]; then
		awk -v k=$((i % 3 + 2)) '!/^#/ && NF == 2 { print $1, "c" ($2 % k) }' \
			"$DATA/blk216.jobs" >"$W/j.tmp" && mv "$W/j.tmp" "$J"
	fi
	sleep 0.05
	i=$((i + 1))
done
echo "$i rounds of flaps and signals"
# calm: every link back, one last request, and time to settle
for l in $links; do console "ReLink $l"; done
sleep 3
kill -USR2 "$OSM_PID"
settled() {	# the last epoch ended (committed or nothing to do), and no
		# run started after it
	last=$(grep -n "osmre: update: epoch [0-9]*\(: COMPUTE\| committed\|: no base-LID\)" "$W/osm.log" | tail -1)
	case "$last" in *committed*|*"no base-LID"*) return 0 ;; esac
	return 1
}
# settled, and no routing pass for 4 s (a late trap brings one more)
quiet=0
last_n=-1
for _ in $(seq 240); do
	n=$(count_log "osmre: sar \(routed\|kept\)")
	if settled && [ "$n" = "$last_n" ]; then
		quiet=$((quiet + 1))
		[ "$quiet" -ge 8 ] && break
	else
		quiet=0
	fi
	last_n=$n
	sleep 0.5
done
check "settled" settled
# the passes of the last topology changes were stable re-routes (sar
# keeps the routes that still work, osmre(8)): one more request on the
# settled topology routes everything again, as osmre route does.  A late
# trap can still bring a topology change after it, routed stably again
# (seen once: a sweep 1 s after the request): then the request again,
# at most 3 times
stable_last() {	# a stable re-route came after the last epoch's start
	_s=$(grep -n "the jobs did not: stable re-route" "$W/osm.log" | tail -1 | cut -d: -f1)
	_c=$(grep -n "osmre: update: epoch [0-9]*: COMPUTE" "$W/osm.log" | tail -1 | cut -d: -f1)
	[ -n "$_s" ] && [ "$_s" -gt "${_c:-0}" ]
}
routed_all() { ! stable_last; }
requests=0
while [ "$requests" -lt 3 ]; do
	e0=$(count_log "osmre: update: epoch [0-9]*: COMPUTE")
	kill -USR2 "$OSM_PID"
	requests=$((requests + 1))
	wait_log "osmre: update: epoch [0-9]*: COMPUTE" $((e0 + 1)) 30 || break
	for _ in $(seq 120); do settled && break; sleep 0.5; done
	sleep 2 # (time for a late trap's pass)
	for _ in $(seq 120); do settled && break; sleep 0.5; done
	routed_all && break
	echo "a stable re-route after the last request: the request again"
done
check "a last request: a new epoch" [ "$(count_log "osmre: update: epoch [0-9]*: COMPUTE")" -gt "$e0" ]
check "settled again" settled
check "the last pass routed everything ($requests request(s))" routed_all
check "OpenSM alive" kill -0 "$OSM_PID"
check "OpenSM answers the SA" diag H_7_7 saquery -s
started=$(grep -o "osmre: update: epoch [0-9]*: COMPUTE" "$W/osm.log" | awk '{ print $4 }' | tr -d : | sort -un)
open=0
for e in $started; do
	grep -q "update: epoch $e \(committed\|: topology change during [A-Z]*: restarting\)\|update: epoch $e: \(no base-LID\|topology change\|computing the new tables failed\)" "$W/osm.log" ||
		{ echo "epoch $e: neither committed nor restarted:"; grep "update: epoch $e[ :]" "$W/osm.log" | sed 's/.*update: /  /'; open=$((open + 1)); }
done
echo "epochs: $(echo "$started" | wc -w) started, $(count_log "osmre: update: epoch [0-9]* committed") committed, $(count_log "restarting from COMPUTE") restarts, $(count_log "no base-LID block changes") with nothing to change"
check "every epoch committed, restarted or had nothing to do" [ "$open" -eq 0 ]
check "some epochs committed" [ "$(count_log "osmre: update: epoch [0-9]* committed")" -gt 0 ]
back() {	# the subscriber's last event is a repath (or it never moved)
	[ ! -s "$W/$1.events" ] || tail -1 "$W/$1.events" | grep -q "^repath"
}
for _ in $(seq 50); do back a && back b && break; sleep 0.2; done
check "subscriber a back on the base LIDs" back a
check "subscriber b back on the base LIDs" back b
# the final tables: as osmre route gives them, valid, acyclic per VL
check "LFTs read back" read_lfts H_11_17 "$W/final.lfts"
"$OSMRE" route -e sar --jobs "$J" --topo "$NET" --lids "$W/final.lfts" --max-vls 4 \
	--escape-vl 7 --sls "$W/final.sls" --out "$W/final.offline" 2>/dev/null
check "final tables: osmre route's" same_lfts "$W/final.lfts" "$W/final.offline"
"$OSMRE" analyze -q --rp 10 --no-updown --sl-file "$W/final.sls" --topo "$NET" \
	--lfts "$W/final.lfts" >"$W/final.out" 2>&1
cat "$W/final.out"
check "final tables valid" grep -q "^validity: VALID" "$W/final.out"
check "final tables deadlock-free on every VL" grep -q "channel dependency graph acyclic" "$W/final.out"
# shellcheck disable=SC2154
stop_pids "$SUB_a" "$SUB_b"
finish
