#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# osmre jobwatch end to end with a recorded squeue (a script printing what
# `squeue -h -t R -o '%i|%N'` printed) and a stand-in for OpenSM (a
# process named opensm that counts its SIGUSR2): the job file is written
# only on change and then OpenSM signalled; errors leave everything as it
# was; one instance at a time; a reader never sees a partial file.
set -u
# reroute --auto looks at every opensm of the machine: as root, the test
# runs in a PID namespace of its own (and its own /proc), where it sees
# its own processes only, whatever else runs here
if [ -z "${OSMRE_JW_NS:-}" ] && [ "$(id -u)" = 0 ] &&
	unshare --pid --fork --mount-proc true 2>/dev/null; then
	OSMRE_JW_NS=1 exec unshare --pid --fork --mount-proc sh "$0" "$@"
fi
# shellcheck disable=SC1091
. "$(dirname "$0")/procs.sh"
OSMRE=${OSMRE_BIN:-tools/osmre}
T=$(mktemp -d)
STAND_IN=
cleanup() { [ -n "$STAND_IN" ] && stop_pids "$STAND_IN"; rm -rf "$T"; }
trap cleanup EXIT
fails=0
ok() { echo "ok - $1"; }
ko() { echo "not ok - $1"; fails=$((fails + 1)); }

"$OSMRE" gen pgft 2 4,4 1,2 -o "$T/f.net" 2>/dev/null
J=$T/jobs.conf
# the recorded squeue: jobs A or B, chosen by $T/which
cat >"$T/squeue" <<EOS
#!/bin/sh
case "\$*" in *"-h -t R -o %i|%N"*) ;; *) echo "bad arguments: \$*" >&2; exit 2 ;; esac
if [ "\$(cat $T/which)" = A ]; then
	printf '10|H_0_[0-1],H_1_0\n11|H_2_[0-3]\n12_3|H_[2-3]_1\n'
else
	printf '20|H_[0-3]_0\n21+0|H_1_1\n21+1|H_2_2\n'
fi
EOS
chmod +x "$T/squeue"
echo A >"$T/which"
stand_in_opensm "$T"
cp "$T/opensm.pid" "$T/opensm.pid.first"
sleep 0.3
signals() { [ -f "$T/signals" ] && wc -l <"$T/signals" || echo 0; }
jw() { "$OSMRE" jobwatch --topo "$T/f.net" --job-file "$J" --pidfile "$T/opensm.pid" \
	--squeue "$T/squeue" --once "$@"; }

jw >"$T/out" 2>&1 && grep -q "2 jobs on 5 hosts (1 on fewer than 2 leaf switches left out)" "$T/out" &&
	ok "first pass writes the job file" || { ko "first pass"; cat "$T/out"; }
sleep 0.3
[ "$(signals)" = 1 ] && ok "opensm signalled once" || ko "opensm signalled once ($(signals))"
grep -q "^H_2_1 12_3$" "$J" && tail -1 "$J" | grep -q "^# end$" && ok "job file content" || ko "job file content"
cp "$J" "$T/first"
jw >"$T/out" 2>&1 && [ ! -s "$T/out" ] && ok "no change: silent" || ko "no change: silent"
sleep 0.3
[ "$(signals)" = 1 ] && ok "no change: no signal" || ko "no change: no signal ($(signals))"
cmp -s "$J" "$T/first" && ok "no change: file untouched" || ko "no change: file untouched"

# errors leave the file and OpenSM alone
echo B >"$T/which"
sleep 300 &
other=$!
echo "$other" >"$T/opensm.pid"
jw >"$T/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "process $other is \"sleep\", not opensm" "$T/out" &&
	cmp -s "$J" "$T/first" && ok "not opensm: refused, file kept" || { ko "not opensm"; cat "$T/out"; }
kill "$other"; wait "$other" 2>/dev/null
# an opensm without the plugin does not catch SIGUSR2: never signalled
mkdir -p "$T/bare"
cp "$(command -v sleep)" "$T/bare/opensm"
"$T/bare/opensm" 300 &
bare=$!
echo "$bare" >"$T/opensm.pid"
jw >"$T/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "opensm $bare does not catch SIGUSR2: the osmre plugin is not loaded.*; not signalled, $J unchanged" "$T/out" &&
	kill -0 "$bare" 2>/dev/null && cmp -s "$J" "$T/first" &&
	ok "opensm without the plugin: not signalled, alive, file kept" ||
	{ ko "opensm without the plugin"; cat "$T/out"; }
# osmre status: an opensm without the plugin, said so (status never
# signals: no "not signalled"); reroute refuses it, not signalled
"$OSMRE" status --pid "$bare" >"$T/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "does not catch SIGUSR2" "$T/out" && ! grep -q "signalled" "$T/out" &&
	ok "status: opensm without the plugin" || { ko "status without the plugin"; cat "$T/out"; }
"$OSMRE" reroute --pid "$bare" >"$T/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "does not catch SIGUSR2.*; not signalled$" "$T/out" && kill -0 "$bare" 2>/dev/null &&
	ok "reroute: opensm without the plugin, not signalled" || { ko "reroute without the plugin"; cat "$T/out"; }
# osmre reroute: the same checks
"$OSMRE" reroute --pid "$bare" >"$T/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "does not catch SIGUSR2" "$T/out" && kill -0 "$bare" 2>/dev/null &&
	ok "reroute: opensm without the plugin refused, alive" || { ko "reroute without the plugin"; cat "$T/out"; }
"$OSMRE" reroute --pidfile "$T/nope.pid" >"$T/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "nope.pid: No such file" "$T/out" && ok "reroute: missing pidfile" || ko "reroute: missing pidfile"
"$OSMRE" reroute --pid $$ >"$T/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "not opensm" "$T/out" && ok "reroute: another program refused" || ko "reroute: another program"
"$OSMRE" reroute --pid 1 --auto >"$T/out" 2>&1; rc=$?
[ $rc = 2 ] && ok "reroute: two ways is a usage error" || ko "reroute: two ways"
n0=$(signals)
"$OSMRE" reroute --pid "$STAND_IN" >"$T/out" 2>&1; rc=$?
sleep 0.3
[ $rc = 0 ] && [ "$(signals)" = $((n0 + 1)) ] && ok "reroute: an opensm that catches SIGUSR2 is signalled" ||
	{ ko "reroute signals"; cat "$T/out"; }
# --auto: two opensm processes that catch SIGUSR2 (the stand-in and a
# second one): refused, naming both, nothing signalled
mkdir -p "$T/second"
stand_in_opensm "$T/second"
second=$STAND_IN
STAND_IN=$(cat "$T/opensm.pid.first")
sleep 0.3
n0=$(signals)
"$OSMRE" reroute --auto >"$T/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "opensm processes with the plugin (.*$second" "$T/out" &&
	grep -q "$STAND_IN" "$T/out" && [ "$(signals)" = "$n0" ] &&
	ok "reroute --auto: two opensm refused, both named, none signalled" ||
	{ ko "reroute --auto with two"; cat "$T/out"; }
kill "$second"; wait "$second" 2>/dev/null
# an opensm that catches SIGUSR2 with no libosmre.so mapped: not the
# plugin's handler, refused (reroute and jobwatch share the check)
mkdir -p "$T/nolib"
cat >"$T/nolib/opensm" <<EOS
#!/bin/sh
trap 'echo usr2 >>$T/nolib/signals' USR2
while :; do sleep 0.1; done
EOS
chmod +x "$T/nolib/opensm"
"$T/nolib/opensm" &
nolib=$!
sleep 0.3
"$OSMRE" reroute --pid "$nolib" >"$T/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "catches SIGUSR2 but has no libosmre.so mapped" "$T/out" &&
	[ ! -e "$T/nolib/signals" ] && ok "reroute: a handler without libosmre.so refused" ||
	{ ko "reroute: a handler without libosmre.so"; cat "$T/out"; }
# an opensm of another version: OpenSM does not load a plugin built for
# another OSM_VERSION; status says so, naming both versions
mkdir -p "$T/ver"
cp "$(command -v sleep)" "$T/ver/opensm" && printf 'OpenSM 3.3.99\000' >>"$T/ver/opensm"
"$T/ver/opensm" 30 &
ver=$!
sleep 0.3
"$OSMRE" status --pid "$ver" >"$T/out" 2>&1
grep -q "opensm $ver is OpenSM 3.3.99, the osmre plugin was built for OpenSM " "$T/out" &&
	ok "status: an OpenSM of another version named" ||
	{ ko "status: an OpenSM of another version"; cat "$T/out"; }
kill "$ver"; wait "$ver" 2>/dev/null
# (--auto sees the whole machine outside a PID namespace of its own, as
# a user who cannot make one: a real OpenSM with the plugin started by a
# test running beside this one makes these two checks moot; skipped then)
foreign() {	# opensm processes with a libosmre.so other than this test's
	for q in $(pgrep -x opensm); do
		grep -q '/libosmre\.so' "/proc/$q/maps" 2>/dev/null || continue
		grep -q "$T/lib/libosmre.so" "/proc/$q/maps" 2>/dev/null || echo "$q"
	done
}
if [ -n "$(foreign)" ]; then
	ok "# SKIP reroute --auto checks: another opensm with the plugin runs here ($(foreign | tr '\n' ' '))"
	SKIP_AUTO=1
else
	SKIP_AUTO=0
	n0=$(signals)
	"$OSMRE" reroute --auto >"$T/out" 2>&1; rc=$?
	sleep 0.3
	[ $rc = 0 ] && [ "$(signals)" = $((n0 + 1)) ] && [ ! -e "$T/nolib/signals" ] &&
		ok "reroute --auto: the one with the plugin, not the other" ||
		{ ko "reroute --auto beside a handler without the plugin"; cat "$T/out"; }
fi
kill "$nolib"; wait "$nolib" 2>/dev/null
# as root, --auto looks at root's processes only: another user's stand-in
# (with a libosmre.so of its own) is neither signalled nor counted
if [ "$SKIP_AUTO" = 0 ] && [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	U=$(mktemp -d /tmp/osmre-user.XXXXXX)
	chmod 755 "$U"
	printf '#!/bin/sh\ntrap ": caught" USR2\nwhile :; do sleep 0.1; done\n' >"$U/opensm"
	mkdir -p "$U/lib"
	cp "$T/lib/libosmre.so" "$U/lib/"
	chmod 755 "$U/opensm"
	chmod -R a+rX "$U"
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		env LD_PRELOAD="$U/lib/libosmre.so" "$U/opensm" &
	user=$!
	sleep 0.5
	n0=$(signals)
	"$OSMRE" reroute --auto >"$T/out" 2>&1; rc=$?
	sleep 0.3
	[ $rc = 0 ] && grep -q "opensm $STAND_IN signalled" "$T/out" &&
		[ "$(signals)" = $((n0 + 1)) ] && kill -0 "$user" 2>/dev/null &&
		ok "reroute --auto as root: another user's opensm ignored" ||
		{ ko "reroute --auto as root beside a user's opensm"; cat "$T/out"; }
	kill "$user"; wait "$user" 2>/dev/null
	rm -rf "$U"
fi
# --unit: systemd's MainPID of the unit (a stand-in systemctl here, as
# this test runs without systemd), checked like any other target
mkdir -p "$T/sd"
cat >"$T/sd/systemctl" <<EOS
#!/bin/sh
[ "\$*" = "show -p MainPID --value opensm@0x2c9.service" ] && echo $STAND_IN && exit 0
[ "\$*" = "show -p MainPID --value stopped.service" ] && echo 0 && exit 0
[ "\$*" = "show -p MainPID --value hung.service" ] && exec sleep 60
exit 1
EOS
chmod +x "$T/sd/systemctl"
n0=$(signals)
PATH=$T/sd:$PATH "$OSMRE" reroute --unit opensm@0x2c9.service >"$T/out" 2>&1; rc=$?
sleep 0.3
[ $rc = 0 ] && [ "$(signals)" = $((n0 + 1)) ] && ok "reroute --unit: the unit's MainPID signalled" ||
	{ ko "reroute --unit"; cat "$T/out"; }
PATH=$T/sd:$PATH "$OSMRE" reroute --unit stopped.service >"$T/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "not running (MainPID 0)" "$T/out" && ok "reroute --unit: a stopped unit" ||
	{ ko "reroute --unit: a stopped unit"; cat "$T/out"; }
t0=$(date +%s)
PATH=$T/sd:$PATH "$OSMRE" reroute --unit hung.service >"$T/out" 2>&1; rc=$?
[ $rc = 1 ] && [ $(($(date +%s) - t0)) -lt 30 ] && grep -q "systemctl show -p MainPID failed" "$T/out" &&
	ok "reroute --unit: a hanging systemctl is given up on" || { ko "reroute --unit: hanging systemctl"; cat "$T/out"; }
"$OSMRE" reroute --unit 'x;touch /tmp/pwned' >"$T/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "is not a unit name" "$T/out" && ok "reroute --unit: a bad unit name refused" ||
	{ ko "reroute --unit: a bad name"; cat "$T/out"; }
"$OSMRE" jobwatch --topo "$T/f.net" --job-file "$J" --pid 1 --auto --once >"$T/out" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "at most one of --pidfile, --pid, --unit, --auto" "$T/out" &&
	ok "jobwatch: two ways to name OpenSM is a usage error" || { ko "jobwatch: two ways"; cat "$T/out"; }
kill "$bare"; wait "$bare" 2>/dev/null
echo "$other" >"$T/opensm.pid"
jw >"$T/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "stale: process $other is not running" "$T/out" &&
	cmp -s "$J" "$T/first" && ok "stale pidfile: refused, file kept" || { ko "stale pidfile"; cat "$T/out"; }
echo "$STAND_IN" >"$T/opensm.pid"
jw --squeue /nonexistent/squeue >"$T/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "command not found" "$T/out" && ok "squeue missing" || { ko "squeue missing"; cat "$T/out"; }
jw --squeue false >"$T/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "failed (exit status 1)" "$T/out" && ok "squeue failing" || { ko "squeue failing"; cat "$T/out"; }
jw --topo /nonexistent.net >"$T/out" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "/nonexistent.net" "$T/out" && ok "unreadable topology" || { ko "unreadable topology"; cat "$T/out"; }
flock "$J.jobwatch" sh -c "\"$OSMRE\" jobwatch --topo \"$T/f.net\" --job-file \"$J\" --pidfile \"$T/opensm.pid\" --squeue \"$T/squeue\" --once" >"$T/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "another jobwatch is running" "$T/out" && ok "one instance at a time" || { ko "one instance"; cat "$T/out"; }
cmp -s "$J" "$T/first" && ok "errors: file untouched" || ko "errors: file untouched"

# safe as root: no world-writable directory, no symlinks, no endless wait
W=$T/shared
mkdir -m 1777 "$W"
"$OSMRE" jobwatch --topo "$T/f.net" --job-file "$W/jobs.conf" --pidfile "$T/opensm.pid" \
	--squeue "$T/squeue" --once >"$T/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "writable by others (mode 1777)" "$T/out" && [ ! -e "$W/jobs.conf.jobwatch" ] &&
	ok "world-writable directory: refused" || { ko "world-writable directory"; cat "$T/out"; }
S=$T/safe
mkdir -m 0755 "$S"
ln -s "$T/planted" "$S/jobs.conf.lock"
echo A >"$T/which"
"$OSMRE" jobwatch --topo "$T/f.net" --job-file "$S/jobs.conf" --pidfile "$T/opensm.pid" \
	--squeue "$T/squeue" --once >"$T/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "a symlink: refused" "$T/out" && [ ! -e "$T/planted" ] && [ ! -e "$S/jobs.conf" ] &&
	ok "planted symlink lock: refused, nothing created" || { ko "planted symlink"; cat "$T/out"; }
rm -f "$S/jobs.conf.lock"
touch "$S/jobs.conf.lock"
chmod 0644 "$S/jobs.conf.lock"
flock -s "$S/jobs.conf.lock" sleep 30 &
holder=$!
sleep 0.2
t0=$(date +%s)
"$OSMRE" jobwatch --topo "$T/f.net" --job-file "$S/jobs.conf" --pidfile "$T/opensm.pid" \
	--squeue "$T/squeue" --once --lock-timeout 1 >"$T/out" 2>&1; rc=$?
t1=$(date +%s)
[ $rc = 1 ] && grep -q "held by another process for more than 1 s" "$T/out" && [ $((t1 - t0)) -lt 5 ] &&
	[ ! -e "$S/jobs.conf" ] && ok "lock held by another: exit 1 after the timeout" || { ko "lock held"; cat "$T/out"; }
stop_pids "$holder"
[ "$(stat -c %a "$S/jobs.conf.lock")" = 600 ] && ok "lock file made 0600" || ko "lock file mode $(stat -c %a "$S/jobs.conf.lock")"
cat >"$T/hang" <<'EOS'
#!/bin/sh
sleep 60
EOS
chmod +x "$T/hang"
t0=$(date +%s)
jw --squeue "$T/hang" --squeue-timeout 1 >"$T/out" 2>&1; rc=$?
t1=$(date +%s)
[ $rc = 1 ] && grep -q "did not finish within 1 s: killed" "$T/out" && [ $((t1 - t0)) -lt 5 ] &&
	ok "hanging squeue: killed after the timeout" || { ko "hanging squeue"; cat "$T/out"; }
pgrep -f "$T/hang" >/dev/null && ko "hanging squeue left running" || ok "hanging squeue: nothing left running"
printf '#!/bin/sh\necho "10|H_0_[0-1],H_1_[0-"\n' >"$T/badlist"
chmod +x "$T/badlist"
jw --squeue "$T/badlist" >"$T/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "squeue output, line 1" "$T/out" && ok "malformed hostlist: refused" || { ko "malformed hostlist"; cat "$T/out"; }

jw --interval 5 >"$T/out" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "one of --once or --interval" "$T/out" && ok "--once and --interval: refused" || ko "--once and --interval"

# a reader in a loop never sees a partial file while jobs flip 40 times
(
	while [ ! -f "$T/stop" ]; do
		if [ -f "$J" ] && ! tail -1 "$J" | grep -q "^# end$"; then
			echo partial >"$T/partial"
		fi
	done
) &
reader=$!
i=0
while [ $i -lt 40 ]; do
	if [ $((i % 2)) = 0 ]; then echo B >"$T/which"; else echo A >"$T/which"; fi
	jw >>"$T/flips" 2>&1 || ko "flip $i"
	i=$((i + 1))
done
touch "$T/stop"
wait "$reader"
[ ! -f "$T/partial" ] && ok "40 rewrites, no partial file seen" || ko "a partial file was seen"
# signals sent back to back coalesce in the stand-in: count jobwatch's
[ "$(grep -c "opensm $STAND_IN signalled" "$T/flips")" = 40 ] &&
	ok "one signal per change (40)" || ko "one signal per change"

echo "jobwatch: $fails failure(s)"
[ "$fails" -eq 0 ]
