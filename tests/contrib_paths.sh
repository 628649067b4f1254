#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The shipped configuration agrees with itself: the job file that the
# example /etc/opensm/osmre.conf (contrib/osmre.conf) names for sar is the
# one the jobwatch unit writes and osmre.conf(5) shows; the fabric file
# the unit reads is the one its condition waits for; the malloc drop-in
# is for the unit that runs OpenSM on Debian (opensm@.service, not
# opensm.service, whose drop-ins its instances do not inherit).
set -u
S=${OSMRE_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
FAILS=0
ok() { echo "ok - $*"; }
ko() { echo "not ok - $*"; FAILS=$((FAILS + 1)); }
same() {	# same NAME A B
	if [ -n "$2" ] && [ "$2" = "$3" ]; then ok "$1 ($2)"; else ko "$1: \"$2\" vs \"$3\""; fi
}

unit=$S/contrib/osmre-jobwatch.service.in
conf_jobs=$(sed -n 's/^#\{0,1\}sar_job_file[[:space:]]\{1,\}\([^[:space:]]*\).*/\1/p' "$S/contrib/osmre.conf")
unit_jobs=$(sed -n 's/.*--job-file[[:space:]]\{1,\}\([^[:space:]]*\).*/\1/p' "$unit")
man_jobs=$(sed -n 's/^sar_job_file[[:space:]]\{1,\}\(\/run\/osmre\/[^[:space:]]*\).*/\1/p' "$S/man/osmre.conf.5" | head -1)
same "osmre.conf's sar_job_file is the unit's --job-file" "$conf_jobs" "$unit_jobs"
same "osmre.conf(5) shows the same job file" "$man_jobs" "$unit_jobs"
# the job file lives in the unit's RuntimeDirectory
rdir=$(sed -n 's/^RuntimeDirectory=//p' "$unit")
same "the job file is in the unit's RuntimeDirectory" "$(dirname "$unit_jobs")" "/run/$rdir"

unit_topo=$(sed -n 's/.*--topo[[:space:]]\{1,\}\([^[:space:]]*\).*/\1/p' "$unit")
cond=$(sed -n 's/^ConditionPathExists=//p' "$unit")
same "the unit's --topo is its ConditionPathExists" "$unit_topo" "$cond"

drop=$(sed -n 's|^#[[:space:]]*\(/etc/systemd/system/[^/]*\)/.*|\1|p' "$S/contrib/opensm-malloc.conf")
same "opensm-malloc.conf goes to opensm@.service.d" "$drop" "/etc/systemd/system/opensm@.service.d"
# when Debian's opensm package is here, the unit it names exists
if [ -f /lib/systemd/system/opensm.service ]; then
	if [ -f /lib/systemd/system/opensm@.service ]; then
		ok "Debian's opensm runs OpenSM in opensm@.service"
	else
		ko "no /lib/systemd/system/opensm@.service: where does Debian's opensm run?"
	fi
fi
echo "$(basename "$0"): $FAILS failure(s)"
[ "$FAILS" -eq 0 ]
