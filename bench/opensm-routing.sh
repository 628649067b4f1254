#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The routing step inside OpenSM on an ibsim fabric, per engine: the time
# between OpenSM's log lines "building routing with 'X' routing
# algorithm..." and "X tables configured on all switches", for the first
# pass and for a re-route (kill -USR2 for dmodc, OpenSM's own hop-table
# arrays then exist already).
#   sh bench/opensm-routing.sh H M W P ENGINE...   (from a build directory)
# e.g. sh ../bench/opensm-routing.sh 3 18,9,36 1,9,18 1,2,1 dmodc ftree updn minhop
# KIND=qft builds the QFT with those parameters instead of the PGFT; pqft
# reads the parameters off the (complete) fabric.  QUALITY=1 also reads the
# tables back (dump_fts) and prints their congestion risk (osmre analyze,
# shifts in host order, RP over 100 permutations) and which engine routed.
# UNLINK="SWITCH PORT" then takes that link down (ibsim's Unlink) and times
# the routing step of the re-route OpenSM makes for the trap ("after a
# link loss"), then links it back.
# GEN_ARGS="dragonfly 19 18 9 9" (or "megafly 10 18 18 18 18", any osmre
# gen arguments) replaces H M W P: then only the engines are given.
# VLS=B gives sar, nue and dfsssp the same VL budget (sar_max_vls B in
# an osmre.conf; bench/peer-check's lines for each: qos TRUE and an
# identity SL-to-VL map, max_op_vls, nue_max_num_vls B); unset: sar's
# default 8, nue's 1 (OpenSM's default), dfsssp 8.  Each line ends with
# the peer as OpenSM's log says it ran (bench/peer-check: nue[3VL],
# nue[1VL!] reduced, dfsssp->minhop fell back, ...); a peer marked "!"
# or "->" did not run as configured and is not to be compared.
set -u
if [ -z "${GEN_ARGS:-}" ]; then
	h=$1 m=$2 w=$3 p=$4
	shift 4
fi
OSM_DEBUG=0x07	# verbose: "building routing with ..."
# a stop need not be clean here: OpenSM 3.3.23 can take minutes to exit
# after a large fabric's sweep (lib.sh osm_stop), and nothing of it is
# measured; killed after 10 s
OSM_STOP_TIMEOUT=${OSM_STOP_TIMEOUT:-10}
. "$(dirname "$0")/big.sh"
. "$top/bench/peer-check"
KIND=${KIND:-pgft}
NET=$W/$KIND.net
if [ -n "${GEN_ARGS:-}" ]; then
	# shellcheck disable=SC2086
	"$OSMRE" gen $GEN_ARGS -o "$NET" || exit 1
else
	"$OSMRE" gen "$KIND" "$h" "$m" "$w" "$p" -o "$NET" || exit 1
fi
if [ -n "${GEN_ARGS:-}" ]; then
	LABEL="gen $GEN_ARGS"
else
	LABEL="$(echo "$KIND" | tr a-z A-Z)($h;$m;$w;$p)"
fi
smhost=$(awk '/^Hca/ { gsub(/"/, "", $3); print $3; exit }' "$NET")

if [ -n "${VLS:-}" ]; then
	case $VLS in ''|*[!0-9]*) echo "VLS: expected a number, got \"$VLS\"" >&2; exit 2 ;; esac
	echo "sar_max_vls $VLS" >"$W/osmre.conf"
	OSMRE_CONF=$W/osmre.conf
	export OSMRE_CONF
fi
t_all=$(date +%s)
t_stop=0
sim_start "$NET" || exit 1
for engine in "$@"; do
	start=$(date +%s)
	b=${VLS:-}
	[ -n "$b" ] || { [ "$engine" = nue ] && b=1 || b=8; }
	ROUTING=$engine peer_osm_start "$smhost" "$engine" "$b" ||
		{ echo "$engine: no SUBNET UP"; continue; }
	first=$(routing_step "$W/osm.log" "$engine" 1)
	# the engine whose tables the first pass configured (another when
	# OpenSM fell back: "ERR ..." in its log says why)
	by=$(grep -o "[a-z0-9_]* tables configured on all switches" "$W/osm.log" |
		head -1 | cut -d' ' -f1)
	why=$(grep -m1 -o "ERR [A-Z0-9]*: .*" "$W/osm.log" | cut -c1-120)
	again="-"
	if [ "$engine" = dmodc ] || [ "$engine" = pqft ] || [ "$engine" = sar ]; then
		kill -USR2 "$OSM_PID"
		wait_log "$engine tables configured on all switches" 2 3600 >/dev/null &&
			again=$(routing_step "$W/osm.log" "$engine" 2)
	fi
	lost="-"
	if [ -n "${UNLINK:-}" ]; then
		n=$(grep -c "$engine tables configured on all switches" "$W/osm.log")
		console "Unlink \"${UNLINK% *}\"[${UNLINK#* }]"
		wait_log "$engine tables configured on all switches" $((n + 1)) 3600 >/dev/null &&
			lost=$(routing_step "$W/osm.log" "$engine" $((n + 1)))
		console "ReLink \"${UNLINK% *}\"[${UNLINK#* }]"
	fi
	rss=$(awk '/VmHWM/ { print $2 }' "/proc/$OSM_PID/status" 2>/dev/null)
	if [ "${QUALITY:-0}" = 1 ]; then
		awk '/^Hca/ { x = $3; gsub(/"/, "", x); print x }' "$NET" >"$W/hosts.order"
		by=$(grep -o "[a-z0-9_]* tables configured on all switches" "$W/osm.log" |
			tail -1 | cut -d' ' -f1)
		host=$(awk '/^Hca/ { x = $3; gsub(/"/, "", x); h = x } END { print h }' "$NET")
		if read_lfts "$host" "$W/$engine.lfts"; then
			# shellcheck disable=SC2046
			"$OSMRE" analyze -q --rp 100 --order "file:$W/hosts.order" \
				$(case $KIND in dragonfly|megafly) echo --no-updown ;; esac) \
				--topo "$NET" --lfts "$W/$engine.lfts" 2>/dev/null |
				sed -n "s/^validity: \([A-Z]*\).*/  $engine (routed by $by): \1/p;
					s/^congestion risk, .*: all-to-all (A2A) \([0-9]*\), shift permutations (SP, max of [0-9]*) \([0-9]*\), random permutations (RP, median of 100, seed 1) \([0-9]*\)/    A2A \1, SP \2, RP \3/p"
		fi
	fi
	# what ran, with how many VLs (of the last pass)
	peer=$(peer_read "$W/osm.log" "$engine" "$b" | cut -d' ' -f3)
	printf "%s %-6s routing step: first %8s s, re-route %8s s, after a link loss %8s s  (SUBNET UP after %d s, opensm peak RSS %s kB; first pass by %s; peer %s)\n" \
		"$LABEL" "$engine" "$first" "$again" "$lost" \
		$(($(date +%s) - start)) "${rss:-?}" "${by:-none}" "$peer"
	[ "${by:-}" = "$engine" ] || echo "  $engine did not route the first pass: ${why:-no error logged}"
	t0=$(date +%s)
	osm_stop "$engine"
	t_stop=$((t_stop + $(date +%s) - t0))
done
echo "wall time $(($(date +%s) - t_all)) s, of which $t_stop s stopping OpenSM (OSM_STOP_TIMEOUT=$OSM_STOP_TIMEOUT, 2 s each for ibsim to free the slot)"
