#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/quality-sweep on a small PGFT: one throw per equipment type, dmodc
# and pqft offline and OpenSM's ftree and minhop on ibsim, two throws at a
# time.
# Every (throw, engine) gets its row, with a status, and the analyzer's
# figures where the tables exist; the Slurm script is well formed.
set -u
. "$(dirname "$0")/lib.sh"
SWEEP=${OSMRE_SRCDIR:-.}/bench/quality-sweep
OSMRE_BIN=$(cd "$(dirname "$OSMRE")" && pwd)/$(basename "$OSMRE")
OSMRE_PLUGIN_DIR=$(cd "$PLUGIN_DIR" && pwd)
export OSMRE_BIN OSMRE_PLUGIN_DIR

sh "$SWEEP" --pgft "2 4,4 1,4 1,1" -t 1 -j 2 --rp 10 --no-plot \
	--engines "dmodc pqft ftree minhop" -o "$W/sw" >"$W/sweep.out" 2>&1
rc=$?
cat "$W/sweep.out" "$W/sw/quality.csv"
check "sweep ran" [ "$rc" -eq 0 ]
check "header" grep -q "^type,throw,seed,removed,engine,routed_by,status,unreachable,loops,switch_lids_unreachable,not_updown,hops_avg,hops_max,cdg_acyclic,a2a,sp,rp,split$" "$W/sw/quality.csv"
check "8 rows: 2 throws x 4 engines" [ "$(grep -c -E '^(links|switches),0,' "$W/sw/quality.csv")" -eq 8 ]
check "every row has a known status and 18 fields" \
	awk -F, 'NR > 1 && (NF != 18 || $7 !~ /^(valid|invalid|refused|failed)$/) { bad = 1 } END { exit bad }' "$W/sw/quality.csv"
check "OpenSM's ftree tables were read back and analyzed" \
	grep -q -E '^(links|switches),0,[0-9]+,[0-9]+,ftree,[a-z]+,(valid|invalid|refused),[0-9]+,' "$W/sw/quality.csv"
# (this throw cuts a leaf off: a split fabric, which dmodc refuses)
check "dmodc analyzed offline" grep -q -E '^links,0,[0-9]+,[0-9]+,dmodc,(dmodc,valid,0,0,|-,refused,)' "$W/sw/quality.csv"
check "dmodc valid offline" grep -q -E '^switches,0,[0-9]+,[0-9]+,dmodc,dmodc,valid,0,0,' "$W/sw/quality.csv"
check "pqft analyzed offline" grep -q -E '^links,0,[0-9]+,[0-9]+,pqft,(pqft,valid,0,0,|-,refused,)' "$W/sw/quality.csv"
sh "$SWEEP" --pgft "2 4,4 1,4 1,1" -t 3 --slurm "$W/job.sh" -o "$W/sw2" >/dev/null 2>&1
check "Slurm array script" grep -q "^#SBATCH --array=0-5$" "$W/job.sh"
check "Slurm script parses" sh -n "$W/job.sh"
finish
