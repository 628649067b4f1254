#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sar inside OpenSM on a 1D dragonfly: Table 1's of paper 002
# (ibsim-configs/dragonfly-3078.net: 342 routers, 3,078 hosts) in make
# check-long, a 72-host one in make check:
#  - the tables read back with dump_fts are valid, dragonfly-minimal (no
#    path longer than 5 links) and deadlock-free on the 2 SLs sar logs,
#    and identical to `osmre route -e sar` with the same LIDs (every
#    entry);
#  - sar_max_vls 1: still routed (the up*/down* fallback), deadlock-free
#    on one VL;
#  - a degraded small dragonfly over sar_max_vls 2: the same risks, EFI
#    and path lengths as `osmre route` with the net file's LIDs (OpenSM
#    numbers them otherwise).
# (A split fabric is refused offline, test_dragonfly; OpenSM discovers
# only the part its port is in, so ibsim cannot show one plane split.)
set -u
. "$(dirname "$0")/lib.sh"
# (make check: a dragonfly of 9 groups of 4 routers, 72 hosts, that sar
# also routes on 2 layers; Table 1's with OSMRE_TEST_LONG, make
# check-long)
if [ -n "${OSMRE_TEST_LONG:-}" ]; then
	NET=${OSMRE_SRCDIR:-.}/ibsim-configs/dragonfly-3078.net
	HOSTS=3078 LAST=H_341_8
else
	NET=$W/df.net
	"$OSMRE" gen dragonfly 9 4 2 2 -o "$NET" 2>/dev/null || { ko "gen"; exit 1; }
	HOSTS=72 LAST=H_35_1
fi
sim_start "$NET" || exit 1
ROUTING=sar,updn osm_start H_0_0 "qos TRUE" || { ko "SUBNET UP"; exit 1; }
check "sar routed" grep -q "sar tables configured on all switches" "$W/osm.log"
check "2 layers logged" grep -q "osmre: sar: 2 virtual layer(s)" "$W/osm.log"
sleep 1
read_lfts $LAST "$W/df.lfts" || ko "dump_fts"
"$OSMRE" route -e sar --topo "$NET" --lids "$W/df.lfts" --sls "$W/df.sls" \
	--out "$W/df.offline" 2>/dev/null
# every entry, the switch LIDs' too (the plugin hands sar the nodes in
# GUID order, as a net file declares them: before, 18 switches differed
# on switch LIDs' entries)
check "fabric tables identical to osmre route -e sar (every LID)" same_lfts "$W/df.lfts" "$W/df.offline"
"$OSMRE" analyze -q --rp 10 --no-updown --sl-file "$W/df.sls" \
	--topo "$NET" --lfts "$W/df.lfts" >"$W/df.out" 2>&1
cat "$W/df.out"
check "valid" grep -q "^validity: VALID" "$W/df.out"
check "minimal: at most 5 links (host, local, global, local, host)" grep -q "path length (links): min 2 avg [0-9.]* max 5;" "$W/df.out"
check "deadlock-free on sar's 2 SLs" grep -q "SLs from .*, 2 VLs): channel dependency graph acyclic" "$W/df.out"
osm_stop

# one VL: never refused
echo "sar_max_vls 1" >"$W/osmre1.conf"
OSMRE_CONF=$W/osmre1.conf
export OSMRE_CONF
ROUTING=sar,updn osm_start H_0_0 "qos TRUE" || { ko "SUBNET UP (1 VL)"; exit 1; }
check "1 VL: sar routed, fallback logged" grep -q "osmre: sar: over the VL budget: $HOSTS destination LID(s) on the last layer, [0-9]* of them routed by load with that layer acyclic" "$W/osm.log"
check "1 VL: sar's tables" grep -q "sar tables configured on all switches" "$W/osm.log"
sleep 1
read_lfts $LAST "$W/df1.lfts" || ko "dump_fts (1 VL)"
"$OSMRE" analyze -q --rp 10 --no-updown --topo "$NET" --lfts "$W/df1.lfts" >"$W/df1.out" 2>&1
check "1 VL: valid" grep -q "^validity: VALID" "$W/df1.out"
check "1 VL: deadlock-free on one VL" grep -q "(one VL): channel dependency graph acyclic" "$W/df1.out"
osm_stop
stop_pids $SIM_PID
SIM_PID=

# over the budget on a degraded dragonfly: the tables OpenSM installs
# route as `osmre route` does with the LIDs of a net file, which OpenSM
# numbers otherwise (sar routes in GUID order; the risks, EFI and path
# lengths must agree)
"$OSMRE" gen dragonfly 7 6 3 3 --fail-links 40 --seed 1 -o "$W/deg.net" 2>/dev/null
sim_start "$W/deg.net" || exit 1
echo "sar_max_vls 2" >"$W/osmre2.conf"
OSMRE_CONF=$W/osmre2.conf
export OSMRE_CONF
ROUTING=sar,updn osm_start H_0_0 "qos TRUE" || { ko "SUBNET UP (degraded)"; exit 1; }
check "degraded: over the budget" grep -q "osmre: sar: over the VL budget" "$W/osm.log"
sleep 1
read_lfts H_41_2 "$W/deg.lfts" || ko "dump_fts (degraded)"
"$OSMRE" route -e sar --max-vls 2 --topo "$W/deg.net" --out "$W/deg.offline" 2>/dev/null
job_mix "$W/deg.net" 7 "$W/deg.jobs"
for t in deg.lfts deg.offline; do
	"$OSMRE" analyze -q --rp 100 --no-updown --jobs "$W/deg.jobs" \
		--topo "$W/deg.net" --lfts "$W/$t" 2>&1 |
		grep -e "^congestion risk" -e "^path length" -e "^jobs:" >"$W/$t.fig"
done
cat "$W/deg.lfts.fig"
check "degraded: figures read" test -s "$W/deg.lfts.fig"
check "degraded: OpenSM's tables as offline (A2A, SP, RP, EFI, paths)" cmp -s "$W/deg.lfts.fig" "$W/deg.offline.fig"
finish
