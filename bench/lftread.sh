#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# What lft_readback costs: OpenSM with the plugin on an ibsim PGFT, dmodc
# with dmodc_stable 1, first pass as master: the LFTs read back from
# every switch (block by block, OpenSM's own requests), then SIGUSR2 (a
# pass without the read-back), timed from OpenSM's log.
#   sh bench/lftread.sh H M W [P]      (from a build directory)
# e.g. sh ../bench/lftread.sh 3 18,9,36 1,9,18 1,2,1   (5,832 hosts)
set -u
h=$1 m=$2 w=$3 p=${4:-}
OSM_DEBUG=0x07
. "$(dirname "$0")/big.sh"
# shellcheck disable=SC2086
"$OSMRE" gen pgft $h $m $w $p -o "$W/f.net" 2>"$W/gen.err" || { cat "$W/gen.err"; exit 1; }
echo "# bench/lftread.sh $h $m $w $p: $(cat "$W/gen.err")"
sim_start "$W/f.net" >/dev/null || exit 1
osmre_conf "dmodc_stable 1"
ROUTING=dmodc osm_start H_0_0 || exit 1
grep -o "osmre: dmodc: the LFTs read back .*" "$W/osm.log"
echo "routing step, first pass (with the read-back): $(routing_step "$W/osm.log" dmodc 1) s"
kill -USR2 "$OSM_PID"
wait_log "osmre: dmodc routed" 2 3600 >/dev/null
echo "routing step, a re-route (no read-back): $(routing_step "$W/osm.log" dmodc 2) s"
