#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# osmre(8)'s wire format is the code's: every payload offset of
# protocol/updwire.h (UPDW_OFF_*, with its "type name" comment), the
# version, the magic, the attribute, and every operation, result and
# phase number are in the man page's table.  A client written from the
# man page then speaks the SM's protocol.
set -u
src=${OSMRE_SRCDIR:-$(dirname "$0")/..}
H=$src/protocol/updwire.h
U=$src/protocol/update.h
M=$src/man/osmre.8
fails=0
ko() { echo "not ok - $*"; fails=$((fails + 1)); }
ok() { echo "ok - $*"; }
# the man page's table, blanks squeezed
table=$(sed -n '/^\.\\" wire-format-begin/,/^\.\\" wire-format-end/p' "$M" | tr -s ' \t' '  ')
[ -n "$table" ] || ko "osmre(8) has no wire-format table"
has() {	# has TEXT WHAT: the table holds TEXT
	if printf '%s\n' "$table" | grep -qF -- "$1"; then ok "$2"; else ko "$2: osmre(8) lacks \"$1\""; fi
}
row() {	# row PREFIX WHAT: a table line starts with PREFIX
	if printf '%s\n' "$table" | sed 's/^ //' |
		awk -v p="$1" 'index($0, p) == 1 { f = 1 } END { exit !f }'; then
		ok "$2"
	else
		ko "$2: no line \"$1 ...\" in osmre(8)'s table"
	fi
}
n=0
for m in $(sed -n 's/^#define \(UPDW_OFF_[A-Z]*\).*/\1/p' "$H"); do
	off=$(sed -n "s/^#define $m[ \t]*\([0-9]*\).*/\1/p" "$H")
	what=$(sed -n "s|^#define $m[ \t]*[0-9]*[ \t]*/\* \(.*\) \*/|\1|p" "$H")
	row "$off $what" "$m: offset $off, $what"
	n=$((n + 1))
done
[ "$n" -ge 13 ] || ko "only $n UPDW_OFF_ fields read from updwire.h"
num() { sed -n "s/^#define $1[ \t]*\([0-9A-Fa-fx]*\).*/\1/p" "$H"; }
has "version $(($(num UPDW_VERSION)))" "version"
has "magic $(num UPDW_MAGIC | sed 's/u$//')" "magic"
has "attribute $(num UPDW_ATTR)" "attribute"
has "class version $(num UPDW_CLASS_VERSION)" "class version"
# enum NAME in FILE: "N NAME" for each member (prefix PREFIX cut)
members() {
	sed -n "/^enum $1 {/,/^};/p" "$2" |
		sed -n "s/^[ \t]*$3\([A-Z_]*\) = \([0-9]*\).*/\2 \1/p"
}
for e in "updw_op $H UPDW_" "updw_result $H UPDW_" "upd_phase $U UPD_"; do
	# shellcheck disable=SC2086
	set -- $e
	k=0
	while read -r v name; do
		has "$v $name" "$1 $name = $v"
		k=$((k + 1))
	done <<EOT
$(members "$1" "$2" "$3")
EOT
	[ "$k" -ge 4 ] || ko "enum $1: only $k members read"
done
echo "wire_doc.sh: $fails failure(s)"
[ "$fails" -eq 0 ]
