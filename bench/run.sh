#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# dmodc and pqft core benchmarks: time (and peak memory) from the topology in memory to
# complete LFTs, 1 and 2 threads.  Run from a build directory:
#   make bench/bench_dmodc && sh ../bench/run.sh
set -eu
b=${BENCH:-bench/bench_dmodc}
for t in 1 2; do
	$b 3 18,9,36 1,9,18 1,2,1 "$t" 5
	$b 4 18,3,18,36 1,3,18,18 1,6,1,1 "$t" 3
done
# pqft against dmodc, offline, on the PGFTs and the QFTs of the QFT paper
p=${BENCH_PQFT:-bench/bench_pqft}
for t in 1 2; do
	for spec in "pgft(3;18,9,36;1,9,18;1,2,1)" "qft(3;18,9,36;1,9,18;1,2,1)" \
		"pgft(4;18,3,18,36;1,3,18,18;1,6,1,1)" "qft(4;18,3,18,36;1,3,18,18;1,6,1,1)"; do
		$p "$spec" "$t" 3
	done
done
