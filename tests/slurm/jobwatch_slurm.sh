#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# osmre jobwatch against a real Slurm 22.05 from Debian's packages, run on
# this one machine: a private munged, slurmctld and one slurmd per compute
# node, nodes named after HCAs of a PGFT(2;4,4;1,2) (4 leaves).  Real
# squeue output, real jobs: the job file follows them, OpenSM's stand-in
# is signalled only on change.  Skipped (77) without the Slurm packages.
set -u
# shellcheck disable=SC1091
. "$(dirname "$0")/../procs.sh"
OSMRE=${OSMRE_BIN:-tools/osmre}
for c in munged mungekey slurmctld slurmd squeue sbatch scancel sinfo; do
	command -v "$c" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin:/sbin
	command -v "$c" >/dev/null 2>&1 || { echo "no $c: skipped"; exit 77; }
done
T=$(mktemp -d /tmp/osmre-slurm.XXXXXX)
chmod 755 "$T"
PIDS=
fails=0
ok() { echo "ok - $1"; }
ko() { echo "not ok - $1"; fails=$((fails + 1)); }
cleanup() {
	# the jobs end first, so that no job step outlives its slurmd
	if [ -n "${SLURM_CONF:-}" ]; then
		scancel --user=root >/dev/null 2>&1
		wait_for 20 no_jobs
	fi
	# shellcheck disable=SC2086
	stop_pids $PIDS
	if [ "$fails" -ne 0 ]; then
		for f in "$T"/*.log; do echo "---- $f"; tail -15 "$f"; done
	fi
	rm -rf "$T"
}
no_jobs() { [ "$(squeue -h | wc -l)" -eq 0 ]; }
trap cleanup EXIT INT TERM
wait_for() {	# wait_for TIMEOUT_S CMD...: until CMD succeeds
	_end=$(($(date +%s) + $1))
	shift
	while ! "$@" >/dev/null 2>&1; do
		[ "$(date +%s)" -ge "$_end" ] && return 1
		sleep 0.5
	done
}

# munge, on a private socket
mungekey -c -k "$T/munge.key" >/dev/null 2>&1 || { ko "mungekey"; exit 1; }
munged -F -f --key-file="$T/munge.key" --socket="$T/munge.sock" \
	--pid-file="$T/munged.pid" --log-file="$T/munged.log" \
	--seed-file="$T/munged.seed" >/dev/null 2>&1 &
PIDS="$PIDS $!"
wait_for 10 test -S "$T/munge.sock" || { ko "munged"; exit 1; }

NODES="H_0_0 H_0_1 H_1_0 H_2_0"
base=$((20000 + $$ % 10000))
mkdir -p "$T/state" "$T/spool"
cat >"$T/slurm.conf" <<EOC
ClusterName=osmre
SlurmctldHost=localhost
SlurmctldPort=$base
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$T/munge.sock
CredType=cred/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool/%n
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd-%n.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/linear
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
NodeName=$(echo $NODES | tr ' ' ',') NodeHostname=localhost Port=[$((base + 1))-$((base + 4))] CPUs=1 RealMemory=100
PartitionName=all Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOC
SLURM_CONF=$T/slurm.conf
export SLURM_CONF
slurmctld -D -f "$SLURM_CONF" >"$T/slurmctld.out" 2>&1 &
PIDS="$PIDS $!"
for n in $NODES; do
	slurmd -D -f "$SLURM_CONF" -N "$n" >"$T/slurmd-$n.out" 2>&1 &
	PIDS="$PIDS $!"
done
idle() { [ "$(sinfo -h -o '%t %D' -t idle | awk '{ n += $2 } END { print n + 0 }')" -eq 4 ]; }
wait_for 60 idle && ok "Slurm up: 4 idle nodes" || { ko "Slurm up"; sinfo; exit 1; }

# the fabric and OpenSM's stand-in
"$OSMRE" gen pgft 2 4,4 1,2 -o "$T/f.net" 2>/dev/null
stand_in_opensm "$T"
PIDS="$PIDS $STAND_IN"
J=$T/jobs.conf
jw() { "$OSMRE" jobwatch --topo "$T/f.net" --job-file "$J" --pidfile "$T/opensm.pid" --once; }

# job A on leaves 0 and 1, job B on leaf 2 alone (left out)
a=$(sbatch --parsable -N 2 -w H_0_0,H_1_0 -o /dev/null --wrap "sleep 300")
b=$(sbatch --parsable -N 1 -w H_2_0 -o /dev/null --wrap "sleep 300")
running() { [ "$(squeue -h -t R | wc -l)" -eq "$1" ]; }
wait_for 60 running 2 && ok "2 jobs running" || { ko "jobs running"; squeue; exit 1; }
squeue -h -t R -o '%i|%N'
jw >"$T/out" 2>&1; cat "$T/out"
grep -q "1 jobs on 2 hosts (1 on fewer than 2 leaf switches left out)" "$T/out" &&
	ok "jobwatch: job $a kept, job $b left out" || ko "jobwatch first pass"
grep -q "^H_0_0 $a$" "$J" && grep -q "^H_1_0 $a$" "$J" && ! grep -q "H_2_0" "$J" &&
	ok "job file: the hosts of job $a" || { ko "job file"; cat "$J"; }
sleep 0.3
[ -f "$T/signals" ] && ok "opensm signalled" || ko "opensm signalled"
rm -f "$T/signals"
jw >"$T/out" 2>&1
[ ! -s "$T/out" ] && sleep 0.3 && [ ! -f "$T/signals" ] &&
	ok "same jobs: nothing written, nothing signalled" || { ko "same jobs"; cat "$T/out"; }
scancel "$a"
wait_for 30 running 1 || ko "job $a cancelled"
jw >"$T/out" 2>&1; cat "$T/out"
grep -q "0 jobs on 0 hosts" "$T/out" && ! grep -q "^H_" "$J" &&
	ok "job $a ended: the job file is empty" || { ko "job ended"; cat "$J"; }
echo "jobwatch_slurm: $fails failure(s)"
[ "$fails" -eq 0 ]
