#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Builds the libFuzzer harnesses of tests/fuzz/ with clang (ASan + UBSan)
# and runs each for SECONDS (default 20), starting from its committed seed
# corpus tests/fuzz/corpus/NAME/ (new inputs go to the build directory,
# never into the tree).  Prints one line per harness with its executions;
# exits 1 when a harness found something, with the reproducer's path.
#   tests/fuzz/run.sh [SECONDS [HARNESS...]]
# Environment: FUZZ_BUILD (default build-fuzz), FUZZ_BUILD_JOBS (compilers
# run at once, default 1), FUZZ_JOBS (parallel
# workers per harness, default 1), FUZZ_PAR (harnesses run at once,
# default 1), FUZZ_RUNS (stop each harness after
# this many executions, SECONDS still the cap), FUZZ_TIMEOUT (seconds
# one input may take, default 10; raise it for long runs on a loaded
# machine, where a starved worker reads as a timeout), CC (default clang).
# The build defines FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION, which lowers
# the hostlist and squeue name bounds (hostlist.c, jobwatch.c) so that
# the fuzzer reaches them with small inputs.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-20}
[ $# -gt 0 ] && shift
all="netfile lftdump jobs options slmap lists squeue update state"
names=${*:-$all}
B=${FUZZ_BUILD:-$top/build-fuzz}
CC=${CC:-clang}
command -v "$CC" >/dev/null || { echo "fuzz: $CC not found (scripts/deps sanitizers installs clang)"; exit 1; }
mkdir -p "$B/obj" "$B/work"
CORE_INC=$(for d in "$top"/common/*/ "$top"/common/engines/*/; do printf -- '-I%s ' "${d%/}"; done)
FLAGS="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all $CORE_INC -I$top/protocol -I$top/tests/fuzz -D_GNU_SOURCE -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -pthread -w"
# the library once, instrumented for coverage
objs=""
# (the protocol without its umad port: no libumad here)
for c in "$top"/common/*/*.c "$top"/common/engines/*/*.c \
	"$top/protocol/update.c" "$top/protocol/updwire.c" \
	"$top/protocol/updwait.c" "$top/protocol/updsess.c" "$top/protocol/updstate.c" \
	"$top/tests/fuzz/fuzz_common.c"; do
	o="$B/obj/$(basename "$c" .c).o"
	if [ ! -f "$o" ] || [ "$c" -nt "$o" ]; then
		rm -f "$o"
		# shellcheck disable=SC2086
		$CC $FLAGS -fsanitize=fuzzer-no-link -c "$c" -o "$o" &
		n=$((${n:-0} + 1))
		# (FUZZ_BUILD_JOBS compilers at a time)
		if [ "$n" -ge "${FUZZ_BUILD_JOBS:-1}" ]; then
			wait
			n=0
		fi
	fi
	objs="$objs $o"
done
wait
for o in $objs; do
	[ -f "$o" ] || { echo "fuzz: $o not built"; exit 1; }
done
# fuzz_one NAME: links harness NAME, runs it and writes its line (and
# "FINDING" first when it found something) to $B/fuzz_NAME.result
fuzz_one() {
	n=$1
	res="$B/fuzz_$n.result"
	src="$top/tests/fuzz/fuzz_$n.c"
	# shellcheck disable=SC2086
	if ! $CC $FLAGS -fsanitize=fuzzer "$src" $objs -lm -o "$B/fuzz_$n"; then
		echo "fuzz_$n: FINDING: the harness did not build" >"$res"
		return
	fi
	mkdir -p "$B/work/$n" "$B/crash/$n"
	log="$B/fuzz_$n.log"
	(cd "$B/crash/$n" && UBSAN_OPTIONS=print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
		"$B/fuzz_$n" -max_total_time="$secs" -runs="${FUZZ_RUNS:--1}" -max_len=8192 -rss_limit_mb=2048 \
		-timeout="${FUZZ_TIMEOUT:-10}" -print_final_stats=1 -jobs="${FUZZ_JOBS:-1}" \
		-workers="${FUZZ_JOBS:-1}" "$B/work/$n" "$top/tests/fuzz/corpus/$n" \
		>"$log" 2>&1) || true
	# (the parent's log ends with a copy of each worker's)
	execs=$(grep -h "stat::number_of_executed_units" "$log" 2>/dev/null |
		awk '{ s += $2 } END { print s + 0 }')
	if grep -q -E "ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|SUMMARY: " \
		"$log" "$B"/crash/"$n"/fuzz-*.log 2>/dev/null; then
		{
			echo "fuzz_$n: FINDING after $execs executions (log $log, reproducer in $B/crash/$n)"
			grep -h -m5 -E "ERROR|runtime error|SUMMARY|Test unit written" \
				"$log" "$B"/crash/"$n"/fuzz-*.log 2>/dev/null || true
		} >"$res"
	else
		took=$(grep -h "stat::slowest_unit_time_sec\|Done [0-9]* runs in" "$log" | sed -n 's/.*Done [0-9]* runs in \([0-9]*\) second.*/\1/p' | head -1)
		echo "fuzz_$n: $execs executions in ${took:-$secs} s, no finding ($(ls "$B/work/$n" | wc -l) corpus inputs)" >"$res"
	fi
}
for n in $names; do
	[ -f "$top/tests/fuzz/fuzz_$n.c" ] || { echo "fuzz: no harness $n"; exit 1; }
	rm -f "$B/fuzz_$n.result"
done
# FUZZ_PAR harnesses at a time, each its full SECONDS
k=0
for n in $names; do
	fuzz_one "$n" &
	k=$((k + 1))
	if [ "$k" -ge "${FUZZ_PAR:-1}" ]; then
		wait
		k=0
	fi
done
wait
rc=0
for n in $names; do
	if [ ! -f "$B/fuzz_$n.result" ]; then
		echo "fuzz_$n: FINDING: no result"
		rc=1
		continue
	fi
	cat "$B/fuzz_$n.result"
	grep -q "^fuzz_$n: FINDING" "$B/fuzz_$n.result" && rc=1
done
exit $rc
