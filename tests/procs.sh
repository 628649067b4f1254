#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Process helpers shared by the shell tests (sourced).

# gone PID: true when PID has exited (gone, or a zombie its parent has
# not yet reaped: kill -0 still reaches those)
gone() {
	_st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) || return 0
	[ -z "$_st" ] || [ "${_st%% *}" = Z ]
}

# await_gone PID SECONDS: true once PID has exited, false when it is still
# running after SECONDS (polled every 0.2 s)
await_gone() {
	_n=$(($2 * 5))
	while [ "$_n" -gt 0 ] && ! gone "$1"; do
		sleep 0.2
		_n=$((_n - 1))
	done
	gone "$1"
}

# stop_pids PID...: SIGTERM to each, up to 2 s each to go, then SIGKILL
stop_pids() {
	for _p in "$@"; do kill "$_p" 2>/dev/null; done
	for _p in "$@"; do
		await_gone "$_p" 2 || kill -9 "$_p" 2>/dev/null
	done
}

# stop_wait PID SECONDS: SIGTERM, then up to SECONDS to exit; past them
# SIGKILL, said on stderr (an OpenSM that hangs on its way out must not
# hold a run forever)
stop_wait() {
	case $2 in
	'' | *[!0-9]*) echo "stop_wait: expected seconds, got \"$2\"" >&2; return 2 ;;
	esac
	kill "$1" 2>/dev/null
	if ! await_gone "$1" "$2"; then
		echo "process $1 still running $2 s after SIGTERM: SIGKILL" >&2
		kill -9 "$1" 2>/dev/null
	fi
}

# stand_in_opensm DIR: starts a process named opensm (what jobwatch checks
# before it signals) that appends a line to DIR/signals for each SIGUSR2,
# with a library named libosmre.so mapped (an empty one, built here: the
# check reads /proc/PID/maps); its PID goes to STAND_IN and to
# DIR/opensm.pid
stand_in_opensm() {
	cat >"$1/opensm" <<EOS
#!/bin/sh
trap 'echo usr2 >>$1/signals' USR2
while :; do sleep 0.1; done
EOS
	chmod +x "$1/opensm"
	mkdir -p "$1/lib"
	[ -f "$1/lib/libosmre.so" ] ||
		echo 'int osmre_stand_in;' | ${CC:-cc} -shared -fPIC -x c -o "$1/lib/libosmre.so" -
	LD_PRELOAD=$1/lib/libosmre.so "$1/opensm" &
	STAND_IN=$!
	echo "$STAND_IN" >"$1/opensm.pid"
}
