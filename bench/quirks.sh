#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Production quirks inside OpenSM (issue: real fabrics): on fresh 2- and
# 3-level PGFTs drawn from SEED (printed), each quirk of `osmre degrade
# --with` and each engine, OpenSM with the plugin on ibsim, the tables
# read back with dump_fts:
#   which engine configured them (OpenSM's log), VALID, acyclic on one VL,
#   the compute CAs' A2A/SP/RP (osmre analyze --order compute, RP over
#   100 permutations) against the same engine's on the tree without the
#   quirk (plain).
# Engines: dmodc, pqft and sar each alone in routing_engine (a refusal
# shows as OpenSM's minhop), OpenSM's ftree with cn_guid_file, updn with
# root_guid_file (both written by `osmre roles`) and minhop.  One line
# per (tree, quirk, engine); `osmre route` is not used.
#   sh bench/quirks.sh [SEED]            (from a build directory)
set -u
SEED=${1:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
top=$(cd "$(dirname "$0")/.." && pwd)
OSMRE_TESTS_DIR=$top/tests
OSMRE_BIN=${OSMRE_BIN:-$PWD/tools/osmre}
OSMRE_PLUGIN_DIR=${OSMRE_PLUGIN_DIR:-$PWD/plugins/.libs}
OSMRE_LFTTOP=${OSMRE_LFTTOP:-$PWD/tests/ibsim/lfttop}
OSM_DEBUG=0x03
. "$top/tests/ibsim/lib.sh"
. "$top/bench/peer-check"
QUIRKS="aggregation storage gateway edge dual stray-leaf stray-spine hostless"
ENGINES="dmodc pqft sar ftree updn minhop"
echo "# bench/quirks.sh seed $SEED ($(date -u +%Y-%m-%d), $(cd "$top" && git rev-parse --short HEAD 2>/dev/null))"

# draw K LO HI: the K-th draw in [LO, HI] of the seed's stream (the
# seed and K mixed first: mawk's first rand() after srand() follows the
# seed almost linearly)
draw() {
	awk -v s="$SEED" -v k="$1" -v lo="$2" -v hi="$3" 'BEGIN {
		x = (s * 2654435761 + k * 40503 + 12345) % 2147483647
		srand(x); for (i = 0; i < 5; i++) rand()
		print lo + int(rand() * (hi - lo + 1)) }'
}

# risk OUT: "A2A SP RP" of analyze's text
risk() { sed -n 's/.*(A2A) \([0-9]*\).*(SP, max of [0-9]*) \([0-9]*\).*) \([0-9]*\)$/\1\/\2\/\3/p' "$1"; }

# one NET ENGINE LABEL: OpenSM on NET (ibsim running) with ENGINE; prints
# "routed_by valid acyclic a2a/sp/rp"
one() {
	_net=$1 _e=$2 _label=$3
	# (osmre.conf: each pass checked apart from the engine; the roles
	# found from the structure)
	osmre_conf "deadlock_check 1"
	case $_e in
	ftree)
		# (ftree refuses an empty io_guid_file: ERR AB29)
		"$OSMRE" roles -t "$_net" --write-cn "$W/cn" --write-io "$W/io" >/dev/null
		if [ -s "$W/io" ]; then
			ROUTING=$_e osm_start "$SMHOST" "cn_guid_file $W/cn" "io_guid_file $W/io" >/dev/null 2>&1
		else
			ROUTING=$_e osm_start "$SMHOST" "cn_guid_file $W/cn" >/dev/null 2>&1
		fi
		;;
	updn)
		"$OSMRE" roles -t "$_net" --write-roots "$W/roots" >/dev/null
		ROUTING=$_e osm_start "$SMHOST" "root_guid_file $W/roots" >/dev/null 2>&1
		;;
	# (sar as configured for production: qos on, its 8 VLs)
	sar) ROUTING=$_e peer_osm_start "$SMHOST" sar 8 >/dev/null 2>&1 ;;
	*) ROUTING=$_e osm_start "$SMHOST" >/dev/null 2>&1 ;;
	esac
	_up=$?
	_by=$(sed -n 's/.*-> osm_ucast_mgr_process: \([a-z0-9-]*\) tables configured.*/\1/p' "$W/osm.log" 2>/dev/null | tail -1)
	if [ $_up -ne 0 ]; then
		osm_stop "$_label"
		echo "${_by:--} no-SUBNET-UP - -"
		return
	fi
	sleep 1
	# the plugin's own check of its pass (its SLs and VLs), if it routed
	_dl=$(sed -n 's/.*osmre: [a-z]*: deadlock check: acyclic on \([0-9]*\) VL.*/yes(\1VL)/p' "$W/osm.log" | tail -1)
	read_lfts "$SMHOST" "$W/t.lfts" 2>/dev/null
	osm_stop "$_label"
	"$OSMRE" analyze -q --rp 100 --no-updown --order compute -t "$_net" -l "$W/t.lfts" >"$W/a.out" 2>&1
	_v=$(sed -n 's/^validity: \([A-Z]*\).*/\1/p' "$W/a.out")
	# OpenSM's engines hand out one SL: one VL
	if [ -z "$_dl" ] || [ "$_by" != "$_e" ]; then
		_dl=no
		grep -q "channel dependency graph acyclic" "$W/a.out" && _dl="yes(1VL)"
	fi
	echo "${_by:--} ${_v:-?} $_dl $(risk "$W/a.out")"
}

tree() {	# tree LEVELS: H M W of a fresh draw
	if [ "$1" = 2 ]; then
		m1=$(draw 1 4 12) m2=$(draw 2 4 10) w2=$(draw 3 2 6)
		echo "2 $m1,$m2 1,$w2"
	else
		m1=$(draw 4 3 6) m2=$(draw 5 2 4) m3=$(draw 6 2 4) w2=$(draw 7 2 4) w3=$(draw 8 2 4)
		echo "3 $m1,$m2,$m3 1,$w2,$w3"
	fi
}

printf '%-22s %-12s %-7s %-9s %-8s %-9s %-10s %s\n' tree quirk engine routed_by valid deadlock compute "plain (routed_by compute)"
rows=$W/rows
: >"$rows"
for lv in 2 3; do
	set -- $(tree $lv)
	"$OSMRE" gen pgft "$1" "$2" "$3" -o "$W/plain.net" 2>/dev/null || exit 1
	spec="pgft($1;$2;$3)"
	SMHOST=$(awk '/^Hca/ { h = $3; gsub(/"/, "", h); print h; exit }' "$W/plain.net")
	# the plain tree's figures per engine
	sim_start "$W/plain.net" >/dev/null || exit 1
	for e in $ENGINES; do
		set -- $(one "$W/plain.net" "$e" "plain-$e")
		eval "plain_$e=\"\$1 \${4:--}\""
	done
	stop_pids "$SIM_PID"
	SIM_PID=
	for q in $QUIRKS; do
		"$OSMRE" degrade "$W/plain.net" --with "$q" --seed "$SEED" -o "$W/q.net" 2>/dev/null || continue
		# (a host that is still there: hostless takes a leaf's)
		SMHOST=$(awk '/^Hca/ { h = $3; gsub(/"/, "", h) } /^\[1\]/ && h != "" { print h; exit }' "$W/q.net")
		sim_start "$W/q.net" >/dev/null || exit 1
		for e in $ENGINES; do
			set -- $(one "$W/q.net" "$e" "$q-$e")
			eval "p=\$plain_$e"
			printf '%-22s %-12s %-7s %-9s %-8s %-9s %-10s %s\n' "$spec" "$q" "$e" "$1" "$2" "$3" "${4:--}" "$p" |
				tee -a "$rows"
		done
		stop_pids "$SIM_PID"
		SIM_PID=
	done
done
# per engine, over the (tree, quirk) draws: configured by itself, VALID,
# deadlock-free, compute A2A/SP/RP equal to its own on the plain tree
# (hostless leaves left out of that last count: fewer hosts, other
# patterns)
echo "# summary (seed $SEED): engine self valid deadlock-free compute=plain (of the draws)"
awk '{ n[$3]++; self[$3] += $4 == $3; valid[$3] += $5 == "VALID"
	dl[$3] += $6 ~ /^yes/
	if ($2 != "hostless") { m[$3]++; same[$3] += $4 == $3 && $7 == $9 && $8 == $3 } }
	END { for (e in n) printf "%-7s %d/%d %d/%d %d/%d %d/%d\n", e, self[e], n[e],
		valid[e], n[e], dl[e], n[e], same[e], m[e] }' "$rows" | sort
