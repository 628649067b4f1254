#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The osmre command end to end: gen, route, check, exit codes and messages.
set -u
OSMRE=${OSMRE_BIN:-tools/osmre}
DATA=${OSMRE_TESTDATA:-tests/data}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
ok() { echo "ok - $1"; }
ko() { echo "not ok - $1"; fails=$((fails + 1)); }
expect() {	# expect NAME WANTED_RC PATTERN CMD...
	name=$1 want=$2 pat=$3
	shift 3
	"$@" >"$T/out" 2>&1
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		ko "$name: exit $rc, expected $want"; cat "$T/out"; return
	fi
	if [ -n "$pat" ] && ! grep -q -- "$pat" "$T/out"; then
		ko "$name: no \"$pat\" in output"; cat "$T/out"; return
	fi
	ok "$name"
}

# the generator reproduces the fixture fabrics byte for byte
$OSMRE gen pgft 2 18,10 1,18 1,1 -o "$T/sar.net" 2>/dev/null &&
	cmp -s "$T/sar.net" "$DATA/sar180.net" && ok "gen sar180" || ko "gen sar180"
$OSMRE gen pgft 2 18,12 1,6 -o "$T/blk.net" 2>/dev/null &&
	cmp -s "$T/blk.net" "$DATA/blk216.net" && ok "gen blk216" || ko "gen blk216"

expect "route" 0 "dmodc: routed 28 switches" \
	$OSMRE route --engine dmodc --topo "$T/sar.net" --out "$T/sar.lfts"
expect "check valid" 0 "VALID" $OSMRE check --topo "$T/sar.net" --lfts "$T/sar.lfts"
expect "check pairs" 0 "CA pairs 32220: unreachable 0, loops 0, not up-down 0" \
	$OSMRE check --topo "$T/sar.net" --lfts "$T/sar.lfts"

# congestion risk of dmodc's tables: shifts are optimal on this fat tree
expect "analyze" 0 "shift permutations (SP, max of 179) 1" \
	$OSMRE analyze --topo "$T/sar.net" --lfts "$T/sar.lfts"
expect "analyze guid order" 0 "in guid order" \
	$OSMRE analyze --topo "$T/sar.net" --lfts "$T/sar.lfts" --order guid
expect "analyze bad order" 2 "--order: expected nid, guid, name, compute or file:PATH" \
	$OSMRE analyze --topo "$T/sar.net" --lfts "$T/sar.lfts" --order random

# the same figures as CSV and JSON; an order file; an SL file
expect "analyze csv" 0 "^1,32220,0,0,0,0,2," \
	$OSMRE analyze -q --format csv --rp 10 --topo "$T/sar.net" --lfts "$T/sar.lfts"
expect "analyze json" 0 '"congestion": {"order": "nid", "ca_ports": 180, "a2a": [0-9]*, "sp": 1,' \
	$OSMRE analyze -q --format json --rp 10 --topo "$T/sar.net" --lfts "$T/sar.lfts"
expect "analyze bad format" 2 "--format: expected text, csv or json" \
	$OSMRE analyze --format xml --topo "$T/sar.net" --lfts "$T/sar.lfts"
printf 'H_0_0\nH_0_1\nH_1_0\n' >"$T/order"
expect "analyze order file" 0 "3 CA ports in $T/order order" \
	$OSMRE analyze -q --rp 10 --order "file:$T/order" --topo "$T/sar.net" --lfts "$T/sar.lfts"
printf 'H_0_0\nH_0_0\n' >"$T/order2"
expect "analyze order file twice" 2 "order2:2: \"H_0_0\" port 1 already listed at line 1" \
	$OSMRE analyze -q --order "file:$T/order2" --topo "$T/sar.net" --lfts "$T/sar.lfts"
printf 'sl2vl 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\ndefault 3\n' >"$T/sls"
expect "analyze sl file" 0 "deadlock freedom (SLs from $T/sls, 4 VLs): channel dependency graph acyclic" \
	$OSMRE analyze -q --rp 10 --sl-file "$T/sls" --topo "$T/sar.net" --lfts "$T/sar.lfts"
printf 'path 1 2\n' >"$T/sls2"
expect "analyze bad sl file" 2 "sls2:1: expected \"path SLID DLID SL\"" \
	$OSMRE analyze -q --sl-file "$T/sls2" --topo "$T/sar.net" --lfts "$T/sar.lfts"
# a dump that does not match the topology: which file, which line
sed 's/guid 0x0000000000200000/guid 0x0000000000abcdef/' "$T/sar.lfts" >"$T/m1.lfts"
expect "analyze unknown switch" 2 "m1.lfts: line 1: switch GUID 0x0000000000abcdef is not a switch of the topology" \
	$OSMRE analyze -q --topo "$T/sar.net" --lfts "$T/m1.lfts"
sed 's/portguid 0x0000000000100004/portguid 0x0000000000999999/' "$T/sar.lfts" >"$T/m2.lfts"
expect "analyze unknown port" 2 "m2.lfts: LID [0-9]*: port GUID 0x0000000000999999 is not a port of the topology" \
	$OSMRE analyze -q --topo "$T/sar.net" --lfts "$T/m2.lfts"

# a broken entry: S1_0_0 (LID 19 in file order) loses its route to LID 40
awk 'BEGIN{sw=""} /^Unicast/{sw=$0} {if (sw ~ /S1_0_0/ && $1=="0x0028") next; print}' \
	"$T/sar.lfts" >"$T/broken.lfts"
expect "analyze broken" 1 "INVALID" \
	$OSMRE analyze --topo "$T/sar.net" --lfts "$T/broken.lfts"
# the analyzer and osmre check agree on validity
a=$($OSMRE analyze -q --rp 10 --format csv --topo "$T/sar.net" --lfts "$T/broken.lfts" 2>/dev/null |
	awk -F, 'NR == 2 { print $3 }')
c=$($OSMRE check --topo "$T/sar.net" --lfts "$T/broken.lfts" 2>/dev/null |
	sed -n 's/^CA pairs.*unreachable \([0-9]*\),.*/\1/p')
[ -n "$a" ] && [ "$a" -gt 0 ] && [ "$a" = "$c" ] && ok "analyze and check agree ($a unreachable)" ||
	ko "analyze and check agree: analyze \"$a\", check \"$c\""
expect "check broken" 1 "unreachable: \"H_0_" \
	$OSMRE check --topo "$T/sar.net" --lfts "$T/broken.lfts"

# degraded fabrics: same seed, same file; log-uniform amounts
$OSMRE gen pgft 3 6,3,4 1,3,6 1,2,1 --remove-links 5 --seed 7 -o "$T/d1.net" 2>/dev/null
$OSMRE gen pgft 3 6,3,4 1,3,6 1,2,1 --remove-links 5 --seed 7 -o "$T/d2.net" 2>/dev/null
cmp -s "$T/d1.net" "$T/d2.net" && ok "seeded degradation" || ko "seeded degradation"
expect "loguniform" 0 "removed" $OSMRE gen pgft 3 6,3,4 1,3,6 1,2,1 \
	--loguniform-switches --seed 3 -o "$T/d3.net"
expect "route degraded" 0 "routed" $OSMRE route -t "$T/d1.net" -o "$T/d1.lfts" -j 2
expect "check degraded" 0 "VALID" $OSMRE check -t "$T/d1.net" -l "$T/d1.lfts"

# the QFT paper's examples, and its restriction explained
expect "gen qft fig 1" 0 "qft: 40 switches, 64 hosts, 128 switch links, 64 host links" \
	$OSMRE gen qft 3 4,2,8 1,2,4 1,2,1 -o "$T/x.net"
expect "gen qft 5832" 0 "qft: 810 switches, 5832 hosts, 11664 switch links, 5832 host links" \
	$OSMRE gen qft 3 18,9,36 1,9,18 1,2,1 -o "$T/x.net"
expect "gen qft 34992" 0 "qft: 6804 switches, 34992 hosts, 104976 switch links, 34992 host links" \
	$OSMRE gen qft 4 18,3,18,36 1,3,18,18 1,6,1,1 -o "$T/x.net"
awk '/^0x/ { next } { print }' "$T/sar.lfts" >"$T/empty.lfts"
expect "analyze: empty tables said plainly" 1 "every table is empty, no switch forwards any LID" \
	$OSMRE analyze --topo "$T/sar.net" --lfts "$T/empty.lfts"
$OSMRE analyze --topo "$T/sar.net" --lfts "$T/empty.lfts" 2>/dev/null | grep -q "A2A" &&
	ko "analyze: no figures on empty tables" || ok "analyze: no figures on empty tables"
expect "check: empty tables" 1 "every table is empty" \
	$OSMRE check --topo "$T/sar.net" --lfts "$T/empty.lfts"
# a dump whose top LID (64) no switch lists, as dump_fts of infiniband-
# diags 44 leaves it: said, with the reason; whole, nothing said
$OSMRE gen dragonfly 2 8 3 1 -o "$T/df64.net" 2>/dev/null
$OSMRE route -e sar --topo "$T/df64.net" -o "$T/df64.lfts" 2>/dev/null
# (as dump_fts writes its headers: hex ranges)
sed 's/^Unicast lids \[0-64\]/Unicast lids [0x0-0x40]/' "$T/df64.lfts" >"$T/df64-hex.lfts"
grep -v '^0x0040 ' "$T/df64-hex.lfts" >"$T/df64-cut.lfts"
grep -v '^0x0040 ' "$T/df64.lfts" >"$T/df64-dec.lfts"
expect "analyze: a top LID left out of the dump, said" 1 "no switch forwards LID 0x40, the tables' top: dump_fts, dump_lfts and ibroute of infiniband-diags 44" \
	$OSMRE analyze --topo "$T/df64.net" --lfts "$T/df64-cut.lfts"
$OSMRE analyze --topo "$T/df64.net" --lfts "$T/df64-hex.lfts" 2>&1 | grep -q "tables' top" &&
	ko "analyze: the whole dump, nothing said" || ok "analyze: the whole dump, nothing said"
# (OpenSM's own dump, decimal ranges: the LID is missing, not unread)
$OSMRE analyze --topo "$T/df64.net" --lfts "$T/df64-dec.lfts" 2>&1 | grep -q "tables' top" &&
	ko "analyze: a decimal dump's missing top, not blamed on dump_fts" ||
	ok "analyze: a decimal dump's missing top, not blamed on dump_fts"
expect "version on a command" 0 "^osmre [0-9]" $OSMRE route --version
expect "version, short" 0 "^osmre [0-9]" $OSMRE -V
# dragonfly-class generators (paper 002), osmre degrade, --fail-links
expect "gen dragonfly table 1" 0 "dragonfly: 342 switches, 3078 hosts, 4446 switch links, 3078 host links" \
	$OSMRE gen dragonfly 19 18 9 9 -o "$T/df.net"
$OSMRE gen megafly 10 18 18 18 18 -o "$T/mf.net" 2>/dev/null
for f in dragonfly-3078:df megafly-3240:mf; do
	cmp -s "${OSMRE_SRCDIR:-.}/ibsim-configs/${f%:*}.net" "$T/${f#*:}.net" &&
		ok "ibsim-configs/${f%:*}.net is the generator's" ||
		ko "ibsim-configs/${f%:*}.net is the generator's"
done
expect "gen dragonfly round-robin" 0 "dragonfly: 342 switches, 3078 hosts, 4446 switch links" \
	$OSMRE gen dragonfly 19 18 9 9 --arrangement round-robin -o "$T/x.net"
cmp -s "$T/df.net" "$T/x.net" && ko "arrangements differ" || ok "arrangements differ"
expect "gen megafly table 1, dual plane" 0 "megafly: 720 switches, 3240 hosts, 9720 switch links, 6480 host links" \
	$OSMRE gen megafly 10 18 18 18 18 --planes 2 -o "$T/x.net"
grep -q '"P1_S2_9_17"' "$T/x.net" && ok "plane in switch names" || ko "plane in switch names"
# --planes on the fat trees: two copies, every host cabled to both
expect "gen pgft --planes 2" 0 "pgft: 16 switches, 16 hosts, 32 switch links, 32 host links" \
	$OSMRE gen pgft 2 4,4 1,4 --planes 2 -o "$T/p2.net"
awk '/^Hca/ { h = $3 } h == "\"H_0_1\"" && /^\[/ { print }' "$T/p2.net" | tr -s '\t' ' ' >"$T/p2.ports"
grep -q '^\[1\] "P0_S1_0_0"\[2\]' "$T/p2.ports" && grep -q '^\[2\] "P1_S1_0_0"\[2\]' "$T/p2.ports" &&
	ok "planes: host port k+1 on plane k" || { ko "planes: host port k+1 on plane k"; cat "$T/p2.ports"; }
expect "planes: dmodc routes both" 0 "dmodc: routed 16 switches" \
	$OSMRE route -e dmodc --topo "$T/p2.net" --out "$T/p2.lfts"
expect "planes: VALID" 0 "^VALID" $OSMRE check --topo "$T/p2.net" --lfts "$T/p2.lfts"
expect "planes: analyze per plane" 0 "32 CA ports in nid order, 2 planes (each plane's ports alone, the maximum over planes): all-to-all (A2A) [0-9]" \
	$OSMRE analyze --topo "$T/p2.net" --lfts "$T/p2.lfts"
$OSMRE analyze --topo "$T/p2.net" --lfts "$T/p2.lfts" 2>&1 | grep -q "could not be walked" &&
	ko "planes: every pattern route walked" || ok "planes: every pattern route walked"
# the flow-level bandwidth estimate (max-min fair), dual plane at EDR and
# FDR speeds: a contention-free shift, 16 hosts; "random" splits each flow
# over both planes (2 x 7 GB/s), "first" keeps plane 0 (12.5 GB/s)
expect "bandwidth: random rail" 0 "aggregate 224.0 GB/s, per host min 14.00 avg 14.00 max 14.00" \
	$OSMRE analyze --topo "$T/p2.net" --lfts "$T/p2.lfts" --bandwidth shift:1 --speed 12.5,7
expect "bandwidth: first rail" 0 "aggregate 200.0 GB/s" \
	$OSMRE analyze --topo "$T/p2.net" --lfts "$T/p2.lfts" --bandwidth shift:1 --rail first --speed 12.5,7
expect "bandwidth: csv" 0 "^shift:3,hash,2,\"12.5,7\",16,1,16,0," \
	$OSMRE analyze --topo "$T/p2.net" --lfts "$T/p2.lfts" --bandwidth shift:3 --rail hash --speed 12.5,7 --format csv
expect "bandwidth: bad pattern" 2 "expected shift:K, perm, a2a or jobs, got \"ring\"" \
	$OSMRE analyze --topo "$T/p2.net" --lfts "$T/p2.lfts" --bandwidth ring
# a shift is a host count: 1..hosts - 1 (16 hosts), not taken modulo
for k in 99999999999 16 99999999999999999999999 0 " 3" +3; do
	expect "bandwidth: shift:$k refused" 2 "--bandwidth shift:K: expected K in 1\.\.15 (the 16 hosts less one), got \"shift:$k\"" \
		$OSMRE analyze --topo "$T/p2.net" --lfts "$T/p2.lfts" --bandwidth "shift:$k"
done
expect "bandwidth: shift:15" 0 "16 hosts, 16 flows" \
	$OSMRE analyze --topo "$T/p2.net" --lfts "$T/p2.lfts" --bandwidth shift:15
expect "bandwidth: perm, no permutation" 2 "--rp: expected 1\.\.10000000 with --bandwidth perm, got 0" \
	$OSMRE analyze --topo "$T/p2.net" --lfts "$T/p2.lfts" --bandwidth perm --rp 0
expect "bandwidth: bad rail" 2 "expected random, first or hash, got \"any\"" \
	$OSMRE analyze --topo "$T/p2.net" --lfts "$T/p2.lfts" --bandwidth a2a --rail any
expect "bandwidth: bad speed" 2 "comma-separated, got \"7,,7\"" \
	$OSMRE analyze --topo "$T/p2.net" --lfts "$T/p2.lfts" --bandwidth a2a --speed 7,,7
expect "bandwidth: jobs without a file" 2 "needs --jobs FILE" \
	$OSMRE analyze --topo "$T/p2.net" --lfts "$T/p2.lfts" --bandwidth jobs
expect "planes: figures per plane" 0 "^  plane 1: 16 CA ports: all-to-all (A2A) [0-9]*, shift permutations (SP, max of 15) 1," \
	$OSMRE analyze --topo "$T/p2.net" --lfts "$T/p2.lfts"
expect "planes: host pairs" 0 "^host pairs: 240; routed on at least one plane 240, on every plane 240" \
	$OSMRE analyze --topo "$T/p2.net" --lfts "$T/p2.lfts"
# one OpenSM per plane: each plane's dump numbers its own LIDs from 1.
# split_plane K IN OUT: plane K's switch tables of a dump of both planes,
# their LIDs renumbered 1.. in order, as that plane's OpenSM would
split_plane() {
	awk -v k="P$1_" '
	function hex(s,  i, v) {
		v = 0
		for (i = 3; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
		return v
	}
	/^Unicast lids/ { on = index($0, "(\047" k) > 0 }
	on && /^0x/ { lid[hex($1)] = 1 }
	on { line[++n] = $0 }
	END {
		for (l = 1; l <= 49151; l++)
			if (l in lid)
				map[l] = ++m
		for (i = 1; i <= n; i++) {
			s = line[i]
			if (s ~ /^0x/)
				s = sprintf("0x%04x", map[hex(substr(s, 1, 6))]) substr(s, 7)
			print s
		}
	}' "$2" >"$3"
}
split_plane 0 "$T/p2.lfts" "$T/pl0.lfts"
split_plane 1 "$T/p2.lfts" "$T/pl1.lfts"
grep -q "^0x0001 .*'P1_S2_0_0'" "$T/pl1.lfts" &&
	ok "planes: plane 1's own LIDs from 1" || ko "planes: plane 1's own LIDs from 1"
cat "$T/pl0.lfts" "$T/pl1.lfts" >"$T/plcat.lfts"
expect "planes: two LID spaces in one dump" 2 "names two different port GUIDs (dumps of several planes, each with its own LIDs? one --lfts each)" \
	$OSMRE analyze -q --topo "$T/p2.net" --lfts "$T/plcat.lfts"
expect "planes: one plane's dump alone" 1 "no LID: \"H_0_0\"\[2\]" \
	$OSMRE check --topo "$T/p2.net" --lfts "$T/pl0.lfts"
# one --lfts per plane: the figures of the tables of both planes at once
$OSMRE analyze -q --rp 10 --topo "$T/p2.net" --lfts "$T/p2.lfts" >"$T/pl.off" 2>&1
$OSMRE analyze -q --rp 10 --topo "$T/p2.net" --lfts "$T/pl0.lfts" --lfts "$T/pl1.lfts" >"$T/pl.two" 2>&1
grep -q "^  plane 1: 16 CA ports" "$T/pl.two" && cmp -s "$T/pl.off" "$T/pl.two" &&
	ok "planes: --lfts per plane, the figures of the offline tables" ||
	{ ko "planes: --lfts per plane, the figures of the offline tables"; diff "$T/pl.off" "$T/pl.two"; }
expect "planes: check, --lfts per plane" 0 "^  plane 1: CA pairs 240: unreachable 0" \
	$OSMRE check --topo "$T/p2.net" --lfts "$T/pl0.lfts" --lfts "$T/pl1.lfts"
expect "planes: bandwidth, --lfts per plane" 0 "aggregate 224.0 GB/s, per host min 14.00 avg 14.00 max 14.00" \
	$OSMRE analyze --topo "$T/p2.net" --lfts "$T/pl0.lfts" --lfts "$T/pl1.lfts" --bandwidth shift:1 --speed 12.5,7
# diff: one pair of dumps per plane, switches matched by GUID; one entry
# changed on a plane-1 switch; a plane's switches given twice refused
awk '/^0x/ && !d && n++ > 3 { $2 = ($2 + 0 == 1 ? 2 : 1); d = 1 } { print }' \
	"$T/pl1.lfts" >"$T/pl1b.lfts"
expect "planes: diff, a pair per plane" 0 "^total: 1 switch(es) changed of 16, 1 entries, 1 of 16 64-LID blocks" \
	$OSMRE diff "$T/pl0.lfts" "$T/pl0.lfts" "$T/pl1.lfts" "$T/pl1b.lfts"
expect "planes: diff, a plane's switches twice" 2 "is in two of the old dumps" \
	$OSMRE diff "$T/pl0.lfts" "$T/pl0.lfts" "$T/pl0.lfts" "$T/pl1b.lfts"
expect "diff: pairs of files" 2 "pairs of LFT files are required" \
	$OSMRE diff "$T/pl0.lfts" "$T/pl0.lfts" "$T/pl1.lfts"
# and one topology per plane, as each plane's ibnetdiscover sees it: its
# switches, every host with only its port in the plane cabled
awk '/^switchguid/ { exit } { print }' "$T/p2.net" >"$T/pt0.net"
awk '/^Hca/ { exit } /^switchguid/ { on = 1 } on { print }' "$T/p2.net" >"$T/pt1.net"
awk '/^Hca/ { on = 1 } on && !/^\[2\]/ { print }' "$T/p2.net" >>"$T/pt0.net"
awk '/^Hca/ { on = 1 } on && !/^\[1\]/ { print }' "$T/p2.net" >>"$T/pt1.net"
$OSMRE analyze -q --rp 10 --topo "$T/pt0.net" --topo "$T/pt1.net" \
	--lfts "$T/pl0.lfts" --lfts "$T/pl1.lfts" >"$T/pl.tt" 2>&1
cmp -s "$T/pl.off" "$T/pl.tt" && ok "planes: --topo and --lfts per plane" ||
	{ ko "planes: --topo and --lfts per plane"; diff "$T/pl.off" "$T/pl.tt"; }
expect "planes: a dump given twice" 2 "is in $T/pl0.lfts and in $T/pl0.lfts: expected one dump per plane" \
	$OSMRE analyze -q --topo "$T/p2.net" --lfts "$T/pl0.lfts" --lfts "$T/pl0.lfts"
expect "planes: --sl-file with --lfts per plane" 2 "they go with a single --lfts" \
	$OSMRE analyze -q --topo "$T/p2.net" --lfts "$T/pl0.lfts" --lfts "$T/pl1.lfts" --sl-file "$T/sls"
sed 's/ portguid 0x[0-9a-f]*//' "$T/pl1.lfts" >"$T/pl1n.lfts"
expect "planes: a dump without port GUIDs" 2 "pl1n.lfts: no row names its destination's port GUID" \
	$OSMRE analyze -q --topo "$T/p2.net" --lfts "$T/pl0.lfts" --lfts "$T/pl1n.lfts"
# H_0_0 and H_0_1 swapped on plane 1's first leaf
sed -e 's/"H_0_0"\[2\]/XX/; s/"H_0_1"\[2\]/"H_0_0"[2]/; s/XX/"H_0_1"[2]/' \
	-e 's/"P1_S1_0_0"\[1\]/YY/; s/"P1_S1_0_0"\[2\]/"P1_S1_0_0"[1]/; s/YY/"P1_S1_0_0"[2]/' \
	"$T/pt1.net" >"$T/pt1x.net"
expect "planes: topologies that disagree" 2 "pt1.net: \"P1_S1_0_0\"\[1\] - \"H_0_0\"\[2\]: expected the cabling of the earlier topologies" \
	$OSMRE check --topo "$T/pt0.net" --topo "$T/pt1x.net" --topo "$T/pt1.net" --lfts "$T/pl0.lfts" --lfts "$T/pl1.lfts"
# planes that differ: H_0_0 has no cable to plane 1; routed per plane,
# VALID (every host pair meets on plane 0), 30 pairs on one plane only
awk '/^(Hca|Switch)/ { n = $3 } !(n == "\"H_0_0\"" && /^\[2\]/) && !($2 ~ /^"H_0_0"\[2\]/) { print }' \
	"$T/p2.net" >"$T/p2c.net"
expect "planes differ: routed" 0 "dmodc: routed 16 switches" \
	$OSMRE route -e dmodc --topo "$T/p2c.net" --out "$T/p2c.lfts"
expect "planes differ: VALID" 0 "^validity: VALID" $OSMRE analyze --topo "$T/p2c.net" --lfts "$T/p2c.lfts"
expect "planes differ: host pairs" 0 "^host pairs: 240; routed on at least one plane 240, on every plane 210" \
	$OSMRE analyze --topo "$T/p2c.net" --lfts "$T/p2c.lfts"
expect "planes: csv per plane" 0 ',2,240,240,210,"3;3","1;2","[0-9]*;[0-9]*",' \
	$OSMRE analyze --topo "$T/p2c.net" --lfts "$T/p2c.lfts" --format csv
# pqft routes one plane at a time (its closed form is for one plane):
# both planes read off alone, SP = 1 on each; a plane that cannot be
# read off alone (plane 1 lacks H_0_0) takes plane 0's parameters
expect "planes: pqft per plane" 0 "pqft: topology plane 0: pgft(2;4,4;1,4;1,1); plane 1: pgft(2;4,4;1,4;1,1) (inferred)" \
	$OSMRE route -e pqft --topo "$T/p2.net" --out "$T/p2q.lfts"
expect "planes: pqft SP 1 on each plane" 0 "^  plane 1: 16 CA ports: all-to-all (A2A) [0-9]*, shift permutations (SP, max of 15) 1," \
	$OSMRE analyze --topo "$T/p2.net" --lfts "$T/p2q.lfts"
expect "planes differ: pqft" 0 "plane 1: pgft(2;4,4;1,4;1,1) (another plane's) (inferred)" \
	$OSMRE route -e pqft --topo "$T/p2c.net" --out "$T/p2cq.lfts"
expect "planes differ: pqft VALID" 0 "^VALID" $OSMRE check --topo "$T/p2c.net" --lfts "$T/p2cq.lfts"
# no plane can be read off (H_0_1 cabled to neither, H_0_0 to plane 0
# only): the refusal names a plane
awk '/^(Hca|Switch)/ { n = $3 } !(n == "\"H_0_1\"" && /^\[[12]\]/) && !($2 ~ /^"H_0_1"\[[12]\]/) { print }' \
	"$T/p2c.net" >"$T/p2e.net"
expect "planes: pqft, no plane readable" 1 "pqft: .*plane 1: cannot infer the topology" \
	$OSMRE route -e pqft --topo "$T/p2e.net" --out "$T/x.lfts"
# hosts that share no plane (H_0_0 on plane 0 only, H_0_1 on plane 1
# only): a split fabric, refused like dmodc does, naming them
awk '/^(Hca|Switch)/ { n = $3 } !(n == "\"H_0_1\"" && /^\[1\]/) && !($2 ~ /^"H_0_1"\[1\]/) { print }' \
	"$T/p2c.net" >"$T/p2s.net"
expect "planes: pqft refuses a split fabric" 1 'the fabric is split: hosts "H_0_0" (0x[0-9a-f]*) and "H_0_1"' \
	$OSMRE route -e pqft --topo "$T/p2s.net" --out "$T/x.lfts"
# a link of plane 1 gone under plane 1's old tables: the problems name
# their plane
awk '/^(Hca|Switch)/ { n = $3 } !(n == "\"P1_S2_0_0\"" && /^\[1\]/) && !($2 ~ /^"P1_S2_0_0"\[1\]/) { print }' \
	"$T/p2.net" >"$T/p2d.net"
expect "planes: a problem names its plane" 1 '^unreachable: .* no route at "P1_S[12]_0_0" (plane 1)$' \
	$OSMRE check --topo "$T/p2d.net" --lfts "$T/p2.lfts"
# osmre diff: the update between two dumps, switches matched by GUID
expect "diff: same tables" 0 "^total: 0 switch(es) changed of 16, 0 entries, 0 of 16 64-LID blocks; push 0.000 ms" \
	$OSMRE diff "$T/p2.lfts" "$T/p2.lfts"
$OSMRE route -e dmodc --topo "$T/p2d.net" --out "$T/p2d.lfts" 2>/dev/null
$OSMRE diff "$T/p2.lfts" "$T/p2d.lfts" >"$T/diff.out" 2>&1
# (plane 1's switch GUIDs are plane 0's + 1 << 24: only they change)
grep -q '^total: [1-9][0-9]* switch(es) changed of 16' "$T/diff.out" &&
	! grep -q '^0x00000000002' "$T/diff.out" && grep -q '^0x00000000012' "$T/diff.out" &&
	ok "diff: only plane 1 changes" || { ko "diff: only plane 1 changes"; cat "$T/diff.out"; }
printf '# names\n0x0000000001200000 "spine one, plane 1"\n0x0000000000200000 "spine one, plane 0"\n' >"$T/names.map"
expect "diff: csv, names quoted" 0 '^"spine one, plane 1",0x0000000001200000,both,[0-9]*,[0-9]*,1,' \
	$OSMRE diff --all --format csv --node-name-map "$T/names.map" "$T/p2.lfts" "$T/p2d.lfts"
expect "diff: one file" 2 "pairs of LFT files are required" $OSMRE diff "$T/p2.lfts"
expect "diff: missing file" 2 "osmre diff: .*nope" $OSMRE diff "$T/p2.lfts" "$T/nope"
# --node-name-map names nodes in reports; bad maps are refused
expect "node-name-map: check report" 1 '"spine one, plane 1"\[0\]' \
	$OSMRE check --topo "$T/p2d.net" --lfts "$T/p2.lfts" --node-name-map "$T/names.map" --max-report 1000
printf '0x0000000001200000 "spine\n' >"$T/bad.map"
expect "node-name-map: unclosed quote" 2 "bad.map:1: expected a closing quote" \
	$OSMRE check --topo "$T/p2.net" --lfts "$T/p2.lfts" --node-name-map "$T/bad.map"
printf '0x1200000 "x"\n0x200000 "x"\n' >"$T/bad.map"
expect "node-name-map: a name twice" 2 'two nodes would be named "x"' \
	$OSMRE check --topo "$T/p2.net" --lfts "$T/p2.lfts" --node-name-map "$T/bad.map"
printf '0x1200000 "x"\n\n0x1200000 "y"\n' >"$T/bad.map"
expect "node-name-map: a GUID twice" 2 "bad.map:3: GUID 0x0000000001200000 already named on line 1" \
	$OSMRE check --topo "$T/p2.net" --lfts "$T/p2.lfts" --node-name-map "$T/bad.map"
# analyze --links: per switch output port; every route ends on one
# switch-to-CA port, so those ports carry N(N-1) routes in all; the
# largest a2a is analyze's A2A, the largest efi its EFI max
$OSMRE route -e sar --topo "$T/sar.net" --jobs "$DATA/sar180.jobs" --out "$T/sj.lfts" 2>/dev/null
$OSMRE analyze -q --topo "$T/sar.net" --lfts "$T/sj.lfts" --jobs "$DATA/sar180.jobs" \
	--links "$T/links.csv" >"$T/links.out" 2>&1
a2a=$(sed -n 's/.*all-to-all (A2A) \([0-9]*\),.*/\1/p' "$T/links.out")
efi=$(sed -n 's/.*effective edge forwarding index max \([0-9]*\),.*/\1/p' "$T/links.out")
awk -F, -v a2a="$a2a" -v efi="$efi" 'NR == 1 { ok = $0 == "switch,guid,port,rank,peer,peer_guid,peer_port,peer_rank,peer_type,routes,sources,destinations,a2a,efi"; next }
	$9 == "ca" { r += $10; n++ } $13 > m { m = $13 } $14 > e { e = $14 }
	END { exit !(ok && n == 180 && r == 180 * 179 && m == a2a && e == efi) }' "$T/links.csv" &&
	ok "analyze --links: routes, A2A and EFI add up" || { ko "analyze --links"; head -3 "$T/links.csv"; cat "$T/links.out"; }
if command -v gnuplot >/dev/null; then
	expect "analyze --heatmap" 0 "" $OSMRE analyze -q --topo "$T/sar.net" --lfts "$T/sj.lfts" --heatmap "$T/heat.png"
	head -c 8 "$T/heat.png" | od -c | grep -q 'P   N   G' && ok "heat map is a PNG" || ko "heat map is a PNG"
fi
expect "analyze --links: unwritable" 2 "nodir/x.csv: cannot write" \
	$OSMRE analyze -q --topo "$T/sar.net" --lfts "$T/sj.lfts" --links "$T/nodir/x.csv"
# route --state: the engine's state dump, as the plugin writes it
$OSMRE route -e pqft --topo "$T/p2.net" --out "$T/x.lfts" --state "$T/q.state" 2>/dev/null
[ "$(grep -c '^plane [01]$' "$T/q.state")" = 2 ] && [ "$(grep -c '^switch 0x.* level 1 tuple' "$T/q.state")" = 8 ] &&
	[ "$(grep -c '^  port [0-9]* host [0-9]* lid ' "$T/q.state")" = 32 ] &&
	ok "route --state: pqft, each plane" || { ko "route --state: pqft"; head "$T/q.state"; }
expect "route --state: dmodc" 0 "^switch 0x0000000000200000 rank 1 divider" \
	$OSMRE route -e dmodc --topo "$T/p2.net" --out "$T/x.lfts" --state -
expect "route --state: unwritable" 2 "nodir/s: No such file or directory" \
	$OSMRE route -e dmodc --topo "$T/p2.net" --out "$T/x.lfts" --state "$T/nodir/s"
# osmre(1) lists, under each subcommand, every option its --help gives
man1=${OSMRE_SRCDIR:-$(dirname "$0")/..}/man/osmre.1
# (the lines that head an entry of an options list)
awk 'prev == ".TP" { print } { prev = $0 }' "$man1" >"$T/tp"
for c in gen route check diff analyze roles status reroute jobwatch subscribe; do
	$OSMRE $c --help 2>/dev/null | grep -o -- ' --[a-z][a-z-]*' | sort -u >"$T/opts"
	[ "$c" = subscribe ] && [ ! -s "$T/opts" ] && continue # (built without libibumad)
	missing=$(while read -r o; do
		grep -q -- "$(echo "$o" | sed 's/^ //; s/-/\\\\-/g')\\>" "$T/tp" || echo "$o"
	done <"$T/opts")
	[ -z "$missing" ] && ok "osmre(1) lists $c's options" || ko "osmre(1) lacks $c's options:$missing"
done
# dmodc_stable (route --previous): after a leaf uplink fails, the
# destinations whose routes all still work keep them: valid, up-down,
# fewer entries changed than a full dmodc pass; when the link is back,
# nothing changes (full dmodc returns to the original tables)
$OSMRE gen pgft 3 6,6,18 1,6,6 -o "$T/t.net" 2>/dev/null
$OSMRE route -e dmodc --topo "$T/t.net" --out "$T/t.lfts" 2>/dev/null
awk '/^(Hca|Switch)/ { n = $3 } !(n == "\"S1_0_0_0\"" && /^\[7\]/) && !($2 ~ /^"S1_0_0_0"\[7\]/) { print }' \
	"$T/t.net" >"$T/td.net"
$OSMRE route -e dmodc --topo "$T/td.net" --lids "$T/t.lfts" --out "$T/full.lfts" 2>/dev/null
expect "dmodc stable: destinations kept" 0 "dmodc: stable re-route: [1-9][0-9]* destination LID(s) kept their routes" \
	$OSMRE route -e dmodc --topo "$T/td.net" --lids "$T/t.lfts" --previous "$T/t.lfts" --out "$T/stab.lfts"
expect "dmodc stable: valid, up-down" 0 "CA pairs 419256: unreachable 0, loops 0, not up-down 0" \
	$OSMRE check --topo "$T/td.net" --lfts "$T/stab.lfts"
full=$($OSMRE diff "$T/t.lfts" "$T/full.lfts" | sed -n 's/^total: .*, \([0-9]*\) entries,.*/\1/p')
stab=$($OSMRE diff "$T/t.lfts" "$T/stab.lfts" | sed -n 's/^total: .*, \([0-9]*\) entries,.*/\1/p')
[ -n "$stab" ] && [ "$stab" -lt "$full" ] && ok "dmodc stable: fewer entries changed ($stab < $full)" ||
	ko "dmodc stable: fewer entries changed ($stab, $full)"
$OSMRE route -e dmodc --topo "$T/t.net" --lids "$T/t.lfts" --previous "$T/stab.lfts" --out "$T/back.lfts" 2>/dev/null
# (routes to the hosts of other leaves stay as they are; the hosts of the
# leaf that had lost the uplink get dmodc's routes again, as the failure
# had left switches with no route to them that the link gives back)
ca_rows() { awk '/^Unicast lids/ { sw = $0 } /Channel Adapter/ { h = $NF; gsub(/\x27/, "", h); print h, sw, $1, $2 }' "$1" | sort; }
ca_rows "$T/stab.lfts" >"$T/stab.ca"
ca_rows "$T/back.lfts" >"$T/back.ca"
awk '/^Hca/ { h = $3; gsub(/"/, "", h) } /^\[/ && h != "" && $2 ~ /^"S1_0_0_0"/ { print h; h = "" }' "$T/t.net" >"$T/leaf.hosts"
changed=$(comm -3 "$T/stab.ca" "$T/back.ca" | awk '{ print $1 }' | sort -u | grep -v -x -F -f "$T/leaf.hosts" | wc -l)
[ -s "$T/stab.ca" ] && [ "$changed" = 0 ] &&
	ok "dmodc stable: the link back changes only the routes to the failed leaf's hosts" ||
	ko "dmodc stable: the link back ($changed other hosts' routes changed)"
$OSMRE route -e dmodc --topo "$T/t.net" --lids "$T/t.lfts" --out "$T/back2.lfts" 2>/dev/null
expect "dmodc (full): the link back restores the tables" 0 "^total: 0 switch(es) changed" $OSMRE diff "$T/t.lfts" "$T/back2.lfts"
# validity per plane: plane 0 intact, plane 1's losses counted there
$OSMRE check --topo "$T/p2d.net" --lfts "$T/p2.lfts" >"$T/p2d.out" 2>&1
grep -q '^  plane 0: CA pairs 240: unreachable 0, loops 0' "$T/p2d.out" &&
	grep -q '^  plane 1: CA pairs 240: unreachable [1-9][0-9]*, loops 0' "$T/p2d.out" &&
	ok "planes: validity per plane" || { ko "planes: validity per plane"; cat "$T/p2d.out"; }
expect "planes: validity per plane, csv" 0 ',"240;210","0;0","0;0","[0-9];[0-9]"$' \
	$OSMRE analyze --topo "$T/p2c.net" --lfts "$T/p2c.lfts" --format csv
expect "planes: fail-links counted on one plane" 0 "removed 8 links" \
	$OSMRE gen pgft 2 4,4 1,4 --planes 2 --fail-links 50 -o "$T/x.net"
expect "gen qft --planes 2" 0 "qft: 80 switches, 64 hosts, 256 switch links, 128 host links" \
	$OSMRE gen qft 3 4,2,8 1,2,4 1,2,1 --planes 2 -o "$T/x.net"
# the pruned fat tree of paper 004 (Summit approximation), counts computed
# here: k = 36, 11 pods, k/2 = 18 hosts per leaf, bundles of b = 3
k=36 pods=11 half=18 b=3
expect "gen rlft 36 11" 0 "rlft: $((pods * half * 2 + half * half / b)) switches, $((pods * half * half)) hosts, $((2 * pods * half * half)) switch links, $((pods * half * half)) host links" \
	$OSMRE gen rlft $k $pods -o "$T/rlft.net"
# the connection rule: every core switch reaches one aggregation switch of
# every pod over b links, and uses pods * b of its k ports; every
# aggregation switch has k/2 links up, to (k/2)/b core switches
rlft_rule() { # NET PODS B HALF
	awk -v pods="$2" -v b="$3" -v half="$4" '
	/^Switch/ { sw = $3; gsub(/"/, "", sw) }
	/^\[/ && sw ~ /^S3_/ { r = $2; sub(/\[.*/, "", r); gsub(/"/, "", r)
		n[sw]++; l[sw, r]++; split(r, d, "_"); pod[sw, d[2]]++ }
	/^\[/ && sw ~ /^S2_/ && $2 ~ /"S3_/ { up[sw]++; r = $2; sub(/\[.*/, "", r); if (!seen[sw, r]++) cores[sw]++ }
	END {
		for (x in n) { if (n[x] != pods * b) bad = bad " " x " uses " n[x]; cs++ }
		for (y in l) if (l[y] != b) bad = bad " bundle " l[y]
		for (y in pod) if (pod[y] != b) bad = bad " pod " pod[y]
		for (x in up) { if (up[x] != half || cores[x] != half / b) bad = bad " agg " x; as++ }
		if (bad != "" || cs != half * half / b) { print "bad:" bad " cores " cs; exit 1 }
		print "ok", cs, as }' "$1"
}
rlft_rule "$T/rlft.net" $pods $b $half >"$T/rlft.rule" && ok "rlft 36 11: connection rule" ||
	{ ko "rlft 36 11: connection rule"; head -c 600 "$T/rlft.rule"; }
# the paper's Figure 1b: 8-port switches, 3 pods, 48 hosts, bundles of 2
expect "gen rlft 8 3 (Figure 1b)" 0 "rlft: 32 switches, 48 hosts, 96 switch links, 48 host links" \
	$OSMRE gen rlft 8 3 -o "$T/rlft8.net"
rlft_rule "$T/rlft8.net" 3 2 4 >/dev/null && ok "rlft 8 3: connection rule" || ko "rlft 8 3: connection rule"
expect "gen rlft k pods = full tree" 0 "rlft: pgft(3;4,4,8;1,4,4;1,1,1)" $OSMRE gen rlft 8 8 -o "$T/x.net"
expect "gen rlft one pod" 2 "the pods must number 2..36 (the radix; got 1)" $OSMRE gen rlft 36 1
expect "gen rlft odd radix" 2 "the radix must be even, 4..254 (got 35)" $OSMRE gen rlft 35 4
expect "gen rlft arity" 2 "expected \"rlft RADIX PODS\"" $OSMRE gen rlft 36
expect "gen rlft dual plane" 0 "rlft: 1008 switches, 3564 hosts, 14256 switch links, 7128 host links" \
	$OSMRE gen rlft 36 11 --planes 2 -o "$T/rlft2.net"
# --sm-hca: the last host of the last leaf makes room for one SM HCA per
# plane, on the port it had there
expect "gen --sm-hca" 0 "pgft: 2 SM HCA(s) added" \
	$OSMRE gen pgft 2 4,4 1,4 --planes 2 --sm-hca -o "$T/sm.net"
awk '/^Switch/ { sw = $3 } /^\[/ && $2 ~ /"SM_/ { print sw, $1, $2 }' "$T/sm.net" >"$T/sm.ports"
grep -q '"P0_S1_3_0" \[4\] "SM_P0_S1_3_0"\[1\]' "$T/sm.ports" &&
	grep -q '"P1_S1_3_0" \[4\] "SM_P1_S1_3_0"\[1\]' "$T/sm.ports" &&
	! grep -q '"H_3_3"' "$T/sm.net" && ok "sm-hca: in the last host's place" ||
	{ ko "sm-hca: in the last host's place"; cat "$T/sm.ports"; }
for f in summit-3564:rlft summit-3564-2p:rlft2; do
	cmp -s "${OSMRE_SRCDIR:-.}/ibsim-configs/${f%:*}.net" "$T/${f#*:}.net" &&
		ok "ibsim-configs/${f%:*}.net is the generator's" ||
		ko "ibsim-configs/${f%:*}.net is the generator's"
done
expect "gen dragonfly zero groups" 2 "groups: expected 2..100000, got 0" \
	$OSMRE gen dragonfly 0 18 9 9
expect "gen dragonfly uneven" 2 "cannot be spread evenly over the 19 other groups" \
	$OSMRE gen dragonfly 20 18 9 9
expect "gen dragonfly too many ports" 2 "needs 266 ports, more than InfiniBand's 254" \
	$OSMRE gen dragonfly 19 18 9 240
expect "gen dragonfly arity" 2 "expected \"dragonfly GROUPS ROUTERS HOSTS GLOBAL\"" \
	$OSMRE gen dragonfly 19 18 9
expect "gen bad arrangement" 2 "expected consecutive or round-robin" \
	$OSMRE gen dragonfly 19 18 9 9 --arrangement palm
expect "fail-links range" 2 "expected a percentage 0..100, got \"101\"" \
	$OSMRE gen dragonfly 19 18 9 9 --fail-links 101
# 40 % of one plane's 4446 router-router links, on either plane count
expect "fail-links 40" 0 "removed 1778 links (seed 3)" \
	$OSMRE gen dragonfly 19 18 9 9 --fail-links 40 --seed 3 -o "$T/x.net"
expect "fail-links 40, dual plane" 0 "removed 1778 links (seed 3)" \
	$OSMRE gen dragonfly 19 18 9 9 --planes 2 --fail-links 40 --seed 3 -o "$T/x.net"
expect "degrade a net file" 0 "removed 1778 links (seed 3)" \
	$OSMRE degrade "$T/df.net" --fail-links 40 --seed 3 -o "$T/x2.net"
$OSMRE gen dragonfly 19 18 9 9 --fail-links 40 --seed 3 -o "$T/x1.net" 2>/dev/null
cmp -s "$T/x1.net" "$T/x2.net" && ok "degrade = gen --fail-links" || ko "degrade = gen --fail-links"
expect "degrade ibnetdiscover output" 0 "removed 1 links" \
	$OSMRE degrade "$DATA/ibsim-small.net" --remove-links 1 -o "$T/x.net"
# the summary names the file whole, however long its path
expect "degrade: the whole path" 0 "^$DATA/ibsim-small.net: [0-9]* switches" \
	$OSMRE degrade "$DATA/ibsim-small.net" --remove-links 1 -o "$T/x.net"
expect "degrade missing file" 2 "nope.net" $OSMRE degrade "$T/nope.net" --fail-links 5
expect "sar dragonfly minimal" 0 "sar: 2 virtual layer(s)" \
	$OSMRE route -e sar --topo "$T/df.net" --out "$T/df.lfts" --sls "$T/df.sls"
expect "analyze dragonfly" 0 "max 5; longer than the shortest: 0 pairs" \
	$OSMRE analyze --no-updown --topo "$T/df.net" --lfts "$T/df.lfts" --sl-file "$T/df.sls"
expect "sar dragonfly, 1 VL" 0 "over the VL budget: 3078 destination LID(s) on the last layer, [0-9]* of them routed by load" \
	$OSMRE route -e sar --max-vls 1 --topo "$T/df.net" --out "$T/df.lfts" --sls "$T/df.sls"
expect "analyze dragonfly, 1 VL" 0 "acyclic" \
	$OSMRE analyze --no-updown --topo "$T/df.net" --lfts "$T/df.lfts" --sl-file "$T/df.sls"
# over a budget of 2 on a small dragonfly less 40 % of its links: the
# two ways tried (osmre-engines(7), SAR), their risks logged, the one kept acyclic
$OSMRE gen dragonfly 7 6 3 3 --fail-links 40 --seed 2 -o "$T/sdf.net" 2>/dev/null
expect "sar over the budget: the ways logged" 0 "the ways' A2A / RP, spread by groups: by load [0-9]* / [0-9]*, by path weight [0-9]* / [0-9]*" \
	$OSMRE route -e sar --max-vls 2 --topo "$T/sdf.net" --out "$T/sdf.lfts" --sls "$T/sdf.sls"
cp "$T/out" "$T/sdf.log"
expect "sar over the budget: spread by groups" 0 "spread over the 2 layers by groups" cat "$T/sdf.log"
expect "analyze the ways' pick" 0 "acyclic" \
	$OSMRE analyze --no-updown --topo "$T/sdf.net" --lfts "$T/sdf.lfts" --sl-file "$T/sdf.sls"
# --sl-file reads every SL file osmre writes: route --sls, the plugin's
# osmre-sar.dump (route --state writes the same, "layers" header and all)
# and, after either, OpenSM's opensm-sl2vl.dump (the VLs; it holds no
# path's SL, so alone it puts every path on SL 0)
$OSMRE route -e sar --max-vls 2 --topo "$T/sdf.net" --out "$T/sdf2.lfts" \
	--state "$T/osmre-sar.dump" 2>/dev/null
cmp -s "$T/sdf.lfts" "$T/sdf2.lfts" && grep -q "^layers 2 pass full" "$T/osmre-sar.dump" &&
	ok "sar state dump written" || ko "sar state dump written"
expect "analyze --sl-file osmre-sar.dump" 0 "SLs from $T/osmre-sar.dump, 2 VLs): channel dependency graph acyclic" \
	$OSMRE analyze -q --rp 10 --no-updown --topo "$T/sdf.net" --lfts "$T/sdf.lfts" --sl-file "$T/osmre-sar.dump"
sed 's/-sar.dump, 2 VLs/ /' "$T/out" >"$T/sl.dump.out"
$OSMRE analyze -q --rp 10 --no-updown --topo "$T/sdf.net" --lfts "$T/sdf.lfts" \
	--sl-file "$T/sdf.sls" 2>&1 | sed "s|$T/sdf.sls, 2 VLs|$T/osmre |" >"$T/sl.sls.out"
cmp -s "$T/sl.dump.out" "$T/sl.sls.out" && ok "analyze: osmre-sar.dump as route --sls" ||
	{ ko "analyze: osmre-sar.dump as route --sls"; diff "$T/sl.dump.out" "$T/sl.sls.out"; }
# sl2vl_dump MODE: an opensm-sl2vl.dump in OpenSM's layout for sdf's
# switches, every SL on VL SL (MODE 1) or on VL 0 (MODE 0), and a CA block
sl2vl_dump() {
	awk -v mode="$1" '
	FNR == 1 { f++ }
	f == 1 && /^Switch/ { n = $3; gsub(/"/, "", n); np[n] = $2 }
	f == 2 && /^Unicast lids/ {
		g = $0; sub(/.* guid /, "", g); sub(/ .*/, "", g)
		n = $0; sub(/.*\(\047/, "", n); sub(/\047\).*/, "", n)
		printf "Switch %s, base LID 1, \"%s\"\n", g, n
		print "#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15"
		print "#--------------------------------------------------------"
		for (o = 0; o <= np[n]; o++)
			for (i = 0; i <= np[n]; i++) {
				s = ""
				for (l = 0; l < 16; l++)
					s = s sprintf(" %-2d", mode ? l : 0)
				printf "%-3d %-3d :%s\n", i, o, s
			}
		print "#--------------------------------------------------------\n"
	}
	END {
		print "Channel Adapter 0x0000000000100001, base LID 5, \"H_0_0 HCA-1\""
		print "#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15"
		print "#--------------------------------------------------------"
		print "0   0   : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15"
	}' "$T/sdf.net" "$T/sdf.lfts"
}
sl2vl_dump 1 >"$T/sl2vl1.dump"
sl2vl_dump 0 >"$T/sl2vl0.dump"
cat "$T/osmre-sar.dump" "$T/sl2vl1.dump" >"$T/sls+vl1"
cat "$T/osmre-sar.dump" "$T/sl2vl0.dump" >"$T/sls+vl0"
expect "analyze --sl-file: SLs and opensm-sl2vl.dump" 0 "2 VLs): channel dependency graph acyclic" \
	$OSMRE analyze -q --rp 10 --no-updown --topo "$T/sdf.net" --lfts "$T/sdf.lfts" --sl-file "$T/sls+vl1"
expect "analyze --sl-file: opensm-sl2vl.dump, one VL" 1 "1 VL): CYCLE in the channel dependency graph" \
	$OSMRE analyze -q --rp 10 --no-updown --topo "$T/sdf.net" --lfts "$T/sdf.lfts" --sl-file "$T/sls+vl0"
expect "analyze --sl-file: opensm-sl2vl.dump alone, SL 0" 1 "1 VL): CYCLE in the channel dependency graph" \
	$OSMRE analyze -q --rp 10 --no-updown --topo "$T/sdf.net" --lfts "$T/sdf.lfts" --sl-file "$T/sl2vl1.dump"
# the engines do not depend on the order of the input's nodes: the same
# fabric with its node blocks shuffled (each block with its GUID written
# out) and the same LIDs (--lids) gets the same tables, switch by switch,
# and the same SL file, byte for byte.
# shuffle_net IN OUT: the odd blocks from the last, then the even ones
shuffle_net() {
	awk '
	function hex(s,  i, v) {
		v = 0
		for (i = 3; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
		return v
	}
	BEGIN { g["Switch"] = 2097152; g["Hca"] = 1048576 }
	/^switchguid=0x/ { g["Switch"] = hex(substr($0, 12)); next }
	/^caguid=0x/ { g["Hca"] = hex(substr($0, 8)); next }
	/^(Switch|Hca)[ \t]/ {
		t = $1
		blk[++b] = sprintf("%s=0x%x\n%s\n", t == "Switch" ? "switchguid" : "caguid", g[t], $0)
		g[t] += t == "Switch" ? 1 : $2 + 1
		cur = b
		next
	}
	/^[ \t]*$/ { cur = 0; next }
	cur { blk[cur] = blk[cur] $0 "\n"; next }
	{ print }
	END {
		for (i = b - (b % 2 == 0); i >= 1; i -= 2)
			printf "%s\n", blk[i]
		for (i = 2; i <= b; i += 2)
			printf "%s\n", blk[i]
	}' "$1" >"$2"
}
$OSMRE gen pgft 3 4,4,4 1,4,4 -o "$T/so.net" 2>/dev/null
shuffle_net "$T/so.net" "$T/sos.net"
shuffle_net "$T/sdf.net" "$T/sdfs.net"
[ "$(head -1 "$T/sos.net")" = "caguid=0x1000ba" ] && ! cmp -s "$T/so.net" "$T/sos.net" &&
	ok "shuffled net file" || ko "shuffled net file"
for x in "sar so" "dmodc so" "pqft so" "sar sdf"; do
	set -- $x
	$OSMRE route -e "$1" --max-vls 2 --topo "$T/$2.net" --out "$T/o.lfts" --sls "$T/o.sls" 2>/dev/null ||
		$OSMRE route -e "$1" --topo "$T/$2.net" --out "$T/o.lfts" 2>/dev/null
	rm -f "$T/s.sls"
	$OSMRE route -e "$1" --max-vls 2 --topo "$T/${2}s.net" --lids "$T/o.lfts" --out "$T/s.lfts" --sls "$T/s.sls" 2>/dev/null ||
		$OSMRE route -e "$1" --topo "$T/${2}s.net" --lids "$T/o.lfts" --out "$T/s.lfts" 2>/dev/null
	$OSMRE diff "$T/o.lfts" "$T/s.lfts" >"$T/so.diff" 2>&1
	grep -q "^total: 0 switch(es) changed of [1-9][0-9]*, 0 entries" "$T/so.diff" &&
		ok "$1 on $2.net shuffled: the same tables" ||
		{ ko "$1 on $2.net shuffled: the same tables"; tail -1 "$T/so.diff"; }
	if [ "$1" = sar ]; then
		cmp -s "$T/o.sls" "$T/s.sls" && ok "$1 on $2.net shuffled: the same SLs" ||
			ko "$1 on $2.net shuffled: the same SLs"
	fi
done
grep -q "^path " "$T/s.sls" && ok "shuffled dragonfly: paths on layer 1" || ko "shuffled dragonfly: paths on layer 1"
expect "gen qft two cross levels" 2 "a QFT is cross-connected at one level only" \
	$OSMRE gen qft 4 18,3,18,36 1,3,18,18 1,6,2,1 -o "$T/x.net"
expect "gen qft w not divisible" 2 "w_4 = 16 is not divisible by p_2 = 6" \
	$OSMRE gen qft 4 18,3,18,36 1,3,18,16 1,6,1,1 -o "$T/x.net"
expect "gen qft top level" 2 "must lie between 2 and h - 1 = 2" \
	$OSMRE gen qft 3 4,2,8 1,2,4 1,1,2 -o "$T/x.net"

# pqft: a QFT, its parameters read off it; around faults the seed
# decides among the ports that still lead on, the same seed the same way
$OSMRE gen qft 3 6,3,12 1,3,6 1,2,1 -o "$T/q.net" 2>/dev/null
expect "pqft inferred" 0 "pqft: topology qft(3;6,3,12;1,3,6;1,2,1) (inferred)" \
	$OSMRE route -e pqft -t "$T/q.net" -o "$T/q.lfts"
expect "pqft valid" 0 "VALID" $OSMRE check -t "$T/q.net" -l "$T/q.lfts"
expect "pqft topology unclosed" 2 "expected a closing parenthesis" \
	$OSMRE route -e pqft --topology "qft(3;4,2,8;1,2,4;1,2,1" -t "$T/q.net" -o "$T/x"
expect "pqft topology fields" 2 "expected 4 fields separated by ';'" \
	$OSMRE route -e pqft --topology "qft(3;4,2,8;1,2,4)" -t "$T/q.net" -o "$T/x"
expect "pqft bad topology" 2 "m_3 = 7 is not divisible by p_2 = 2" \
	$OSMRE route -e pqft --topology "qft(3;6,3,7;1,3,6;1,2,1)" -t "$T/q.net" -o "$T/x"
$OSMRE gen qft 3 6,3,12 1,3,6 1,2,1 --remove-links 20 --seed 4 -o "$T/qd.net" 2>/dev/null
for s in 1 2 1; do
	$OSMRE route -e pqft --topology "qft(3;6,3,12;1,3,6;1,2,1)" --seed $s \
		-t "$T/qd.net" -o "$T/qd$s.lfts" 2>/dev/null
	$OSMRE check -t "$T/qd.net" -l "$T/qd$s.lfts" >/dev/null || ko "pqft seed $s: invalid"
	[ $s = 1 ] && cp "$T/qd1.lfts" "$T/qd1.first"
done
cmp -s "$T/qd1.lfts" "$T/qd1.first" && ok "pqft: same seed, same tables" || ko "pqft: same seed, same tables"
cmp -s "$T/qd1.lfts" "$T/qd2.lfts" && ko "pqft: another seed, other choices" || ok "pqft: another seed, other choices"

# LMC: every LID of every port is routed
expect "route lmc" 0 "routed" $OSMRE route -t "$T/sar.net" -o "$T/lmc.lfts" --lmc 2
expect "check lmc" 0 "CA pairs 128880: unreachable 0" \
	$OSMRE check -t "$T/sar.net" -l "$T/lmc.lfts"

# real OpenSM tables read back from ibsim with dump_fts
expect "check dump_fts" 0 "VALID" $OSMRE check --no-updown \
	-t "$DATA/ibsim-small.net" -l "$DATA/ibsim-small.dump_fts"
expect "check dump_fts: two linked leaves, no fat tree, the up-down rule not applied" 0 "not checked: no fat tree: every switch has hosts" \
	$OSMRE check -t "$DATA/ibsim-small.net" -l "$DATA/ibsim-small.dump_fts"
# dmodc refuses two leaves joined by a link only
expect "route refused" 1 "no up-down path between leaf switches \"S1\"" \
	$OSMRE route -t "$DATA/ibsim-small.net" -o "$T/x.lfts"

# bad input: precise messages, exit 2
printf 'Switch\t2 "A"\n[1]\t"B"[1]\n\n' >"$T/bad.net"
expect "bad net" 2 "bad.net:2: unknown node \"B\"" $OSMRE route -t "$T/bad.net" -o "$T/x"
printf 'Unicast lids [0-1] of switch Lid 1 guid 0x200000 (x):\n0x0001 zz\n' >"$T/bad.lfts"
expect "bad lfts" 2 "bad.lfts:2: expected an output port" \
	$OSMRE check -t "$T/sar.net" -l "$T/bad.lfts"
expect "bad pgft" 2 "m: expected 3 values" $OSMRE gen pgft 3 18,9 1,9,18
expect "bad option" 2 "expected an integer" $OSMRE route -t x -o y --threads many
expect "unknown engine" 2 "unknown engine" $OSMRE route -e foo -t "$T/sar.net" -o y
expect "too many" 2 "cannot remove 999" $OSMRE gen pgft 2 4,4 1,4 --remove-switches 999
expect "unknown command" 2 "unknown command" $OSMRE frobnicate

# the update protocol's routing offline: escape on VL 3, sar on VLs 0-2
expect "escape needs LMC" 2 "needs LIDs with LMC 1 or more" \
	$OSMRE route -e sar --topo "$T/sar.net" --escape-vl 3 --out "$T/esc.lfts"
expect "route --escape-vl" 0 "escape: 180 high LID(s) by up\*/down\* from 18 root(s), SL/VL 3" \
	$OSMRE route -e sar --topo "$T/sar.net" --lmc 1 --escape-vl 3 \
	--sls "$T/esc.sls" --out "$T/esc.lfts"
expect "escape SL file" 0 "^dest [0-9]* 3$" cat "$T/esc.sls"
expect "escape SL-to-VL" 0 "^sl2vl 0 1 2 3 0 0" cat "$T/esc.sls"
expect "escape tables acyclic per VL" 0 "channel dependency graph acyclic" \
	$OSMRE analyze -q --rp 10 --sl-file "$T/esc.sls" --topo "$T/sar.net" \
	--lfts "$T/esc.lfts"
expect "dmodc with the escape" 0 "" \
	$OSMRE route -e dmodc --topo "$T/sar.net" --lmc 1 --escape-vl 3 \
	--sls "$T/escd.sls" --out "$T/escd.lfts"
expect "dmodc escape SL file" 0 "^default 0$" cat "$T/escd.sls"
expect "sls needs an engine that sets SLs or an escape" 2 "engine dmodc sets no SLs; needs an engine that does (sar) or --escape-vl" \
	$OSMRE route -e dmodc --topo "$T/sar.net" --sls "$T/x.sls" --out "$T/x.lfts"

# a piece of a plane is not a plane: one leaf cut off from every uplink
$OSMRE gen pgft 4 4,2,4,6 1,2,4,4 1,2,1,1 -o "$T/p4.net" 2>/dev/null
awk '/^Switch|^Hca/{cur=$0} {
	if (cur ~ /"S1_0_0_0_0"/ && $0 ~ /"S2_/) next
	if ($0 ~ /"S1_0_0_0_0"\[/ && cur !~ /^Hca/) next
	print }' "$T/p4.net" >"$T/cut.net"
expect "dmodc refuses a split fabric, naming a pair" 1 \
	'split: hosts "H_0_0" (0x0000000000100000) and "H_1_0" (0x000000000010000c) have no port in a common' \
	$OSMRE route -e dmodc --topo "$T/cut.net" --out "$T/cut.lfts"
expect "sar refuses a split fabric, naming a pair" 1 \
	'split: hosts "H_0_0" (0x0000000000100000) and "H_1_0" (0x000000000010000c) have no port in a common' \
	$OSMRE route -e sar --topo "$T/cut.net" --out "$T/cuts.lfts"
# the intact fabric's tables on the split one
$OSMRE route -e dmodc --topo "$T/p4.net" --out "$T/cuts.lfts" >/dev/null 2>&1
expect "check: a split fabric is INVALID" 1 "CA pairs 36672: unreachable [1-9]" \
	$OSMRE check --topo "$T/cut.net" --lfts "$T/cuts.lfts"
# two planes, every host with a port in each: routed, VALID
{
	printf 'Switch 4 "P0"\n[1] "A"[1]\n[2] "B"[1]\n[3] "C"[1]\n\n'
	printf 'Switch 4 "P1"\n[1] "A"[2]\n[2] "B"[2]\n[3] "C"[2]\n\n'
	for h in A B C; do
		n=$(printf '%s' "$h" | tr ABC 123)
		printf 'Hca 2 "%s"\n[1] "P0"[%s]\n[2] "P1"[%s]\n\n' "$h" "$n" "$n"
	done
} >"$T/planes.net"
expect "two planes: routed" 0 "" $OSMRE route -e dmodc --topo "$T/planes.net" --out "$T/planes.lfts"
expect "two planes: VALID" 0 "CA pairs 12: unreachable 0" \
	$OSMRE check --topo "$T/planes.net" --lfts "$T/planes.lfts"

# --lids with a truncated dump: refused, or routed and listed on request,
# and never VALID
awk '/^Unicast/{n++} n<=1' "$T/sar.lfts" | head -100 >"$T/trunc.lfts"
expect "route --lids: a truncated dump is refused" 2 "109 port(s) of $T/sar.net have no LID in the dump" \
	$OSMRE route -e dmodc --topo "$T/sar.net" --lids "$T/trunc.lfts" --out "$T/part.lfts"
expect "route --lids: the ports are listed" 2 '"H_3_17"\[1\] (GUID 0x00000000001000d5)' \
	$OSMRE route -e dmodc --topo "$T/sar.net" --lids "$T/trunc.lfts" --out "$T/part.lfts"
expect "route --partial-lids: warns" 0 "warning: 109 port(s)" \
	$OSMRE route -e dmodc --topo "$T/sar.net" --lids "$T/trunc.lfts" --partial-lids --out "$T/part.lfts"
expect "check: a partial routing is INVALID" 1 "ports without a LID 109" \
	$OSMRE check --topo "$T/sar.net" --lfts "$T/part.lfts"

# hosts of a job file not in the fabric: ignored (nodes may be down) but
# reported, the count and the first three names
printf 'H_0_0 1\nghost1 1\nH_0_1 1\nghost2 2\nghost3 2\nghost4 2\n' >"$T/ghost.jobs"
unk="4 host(s) not in the fabric ignored: ghost1, ghost2, ghost3, \.\.\."
expect "route --jobs: hosts not in the fabric" 0 "osmre route: $T/ghost.jobs: warning: $unk" \
	$OSMRE route -e sar --topo "$T/sar.net" --jobs "$T/ghost.jobs" --out "$T/ghost.lfts"
expect "analyze --jobs: hosts not in the fabric" 0 "osmre analyze: $T/ghost.jobs: warning: $unk" \
	$OSMRE analyze -q --rp 10 --jobs "$T/ghost.jobs" --topo "$T/sar.net" --lfts "$T/sar.lfts"
expect "bandwidth jobs: hosts not in the fabric" 0 "osmre analyze: $T/ghost.jobs: warning: $unk" \
	$OSMRE analyze --bandwidth jobs --jobs "$T/ghost.jobs" --topo "$T/sar.net" --lfts "$T/sar.lfts"

: >"$T/empty.jobs"
expect "analyze: an empty job file" 0 "" \
	$OSMRE analyze -q --rp 10 --jobs "$T/empty.jobs" --topo "$T/sar.net" --lfts "$T/sar.lfts"

# name order is natural (H_2_* before H_10_*): pqft's SP is 1 in it
$OSMRE gen pgft 3 4,12,4 1,4,12 -o "$T/n12.net" 2>/dev/null
$OSMRE route -e pqft --topo "$T/n12.net" --out "$T/n12.lfts" >/dev/null 2>&1
expect "analyze natural name order" 0 "shift permutations (SP, max of 191) 1," \
	$OSMRE analyze -q --rp 10 --order name --topo "$T/n12.net" --lfts "$T/n12.lfts"

# hostile and careless input: bounded, refused with a reason
printf 'Switch 0x0000000000200000\n1 2 : 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 999999\n' >"$T/sl17"
expect "sl file: 17 values in a row" 2 "sl17:2: expected \"IN OUT : V0 ... V15\"" \
	$OSMRE analyze -q --sl-file "$T/sl17" --topo "$T/sar.net" --lfts "$T/sar.lfts"
printf 'default 09\n' >"$T/sl09"
printf 'default 010\n' >"$T/sl010"
expect "sl file: 09 is nine" 0 "sl09, 10 VLs" \
	$OSMRE analyze -q --rp 10 --sl-file "$T/sl09" --topo "$T/sar.net" --lfts "$T/sar.lfts"
expect "sl file: 010 is ten, not eight" 0 "sl010, 11 VLs" \
	$OSMRE analyze -q --rp 10 --sl-file "$T/sl010" --topo "$T/sar.net" --lfts "$T/sar.lfts"
expect "topology: a device" 2 "/dev/zero: not a regular file (a character device)" \
	$OSMRE route -e dmodc --topo /dev/zero --out "$T/z.lfts"
expect "topology: a directory" 2 "not a regular file (a directory)" \
	$OSMRE route -e dmodc --topo "$T" --out "$T/z.lfts"
for opt in "--sl-file $T" "--jobs $T" "--order file:$T"; do
	# shellcheck disable=SC2086
	expect "analyze $(echo "$opt" | cut -d' ' -f1): a directory" 2 "not a regular file (a directory)" \
		$OSMRE analyze -q $opt --topo "$T/sar.net" --lfts "$T/sar.lfts"
done
expect "route --io-guids: a directory" 2 "not a regular file (a directory)" \
	$OSMRE route -e sar --io-guids "$T" --topo "$T/sar.net" --out "$T/z.lfts"
head -c 100000 /dev/zero | tr '\0' 'x' >"$T/long.net"
expect "topology: a line without end" 2 "long.net:1: line longer than 4096 bytes" \
	$OSMRE route -e dmodc --topo "$T/long.net" --out "$T/z.lfts"
printf 'Switch 4 "S\033[31mX"\n[1] "H"[1]\n\n' >"$T/ctl.net"
expect "topology: a control byte in a name" 2 "ctl.net:1: column 12: a control byte (0x1b)" \
	$OSMRE route -e dmodc --topo "$T/ctl.net" --out "$T/z.lfts"
printf 'H\033[31m 1\n' >"$T/ctl.jobs"
$OSMRE analyze -q --rp 10 --jobs "$T/ctl.jobs" --topo "$T/sar.net" --lfts "$T/sar.lfts" >"$T/out" 2>&1
if grep -q "$(printf '\033')" "$T/out"; then ko "control bytes echoed raw"; cat -v "$T/out"
elif grep -q 'H\\x1b\[31m' "$T/out"; then ok "control bytes escaped in messages"
else ko "control bytes: no escaped name in the message"; cat -v "$T/out"; fi

# osmre subscribe's usage errors (its protocol runs in tests/ibsim/update_e2e.sh)
if $OSMRE --help 2>&1 | grep -q subscribe; then
	expect "subscribe: class" 2 "a vendor class 9..15" $OSMRE subscribe --class 3
	expect "subscribe: arguments" 2 "usage: osmre subscribe" $OSMRE subscribe extra
fi

# the update size against earlier tables, and sar's stable re-route
expect "analyze --against itself" 0 "update: 0 of [0-9]* entries changed (0.00 %), 0 of" \
	$OSMRE analyze -q --rp 1 --topo "$T/sar.net" --lfts "$T/sar.lfts" --against "$T/sar.lfts"
$OSMRE route -e sar --topo "$T/sar.net" --out "$T/sar.sar" 2>/dev/null
$OSMRE gen pgft 2 18,10 1,18 1,1 --remove-links 1 --seed 3 -o "$T/less.net" 2>/dev/null
expect "route --previous: stable" 0 "sar: routed" \
	$OSMRE route -e sar --topo "$T/less.net" --previous "$T/sar.sar" --out "$T/less.lfts"
expect "analyze --against: under 1 % of the entries changed" 0 "entries changed (0\.[0-9]* %)" \
	$OSMRE analyze -q --rp 1 --topo "$T/less.net" --lfts "$T/less.lfts" --against "$T/sar.sar"
expect "analyze --against: CSV columns" 0 ",[0-9]*,[0-9]*,[0-9]*,[0-9]*$" \
	$OSMRE analyze -q --rp 1 --format csv --topo "$T/less.net" --lfts "$T/less.lfts" --against "$T/sar.sar"
expect "route --previous: an engine without it" 2 "engine pqft has no stable re-route" \
	$OSMRE route -e pqft --topo "$T/less.net" --previous "$T/sar.sar" --out "$T/x.lfts"
expect "route --previous: a missing file" 2 "" \
	$OSMRE route -e sar --topo "$T/less.net" --previous "$T/nope" --out "$T/x.lfts"

# bench/resilience-compare: sar against nue on a CSV worked out by hand
# (point 10-1: sar lower everywhere; 10-2: sar's A2A 9 above nue's 8;
# 20-1: nue refused, not counted)
CMP="sh ${OSMRE_SRCDIR:-.}/bench/resilience-compare"
H="level,seed,removed,engine,routed_by,status,vls,ca_pairs,unreachable,hops_max,hops_avg,a2a,rp,efi,seconds,deadlock_free"
cat >"$T/res.csv" <<EOF
$H
10,1,5,sar,sar,fallback,3,90,0,5,3.5,4,2,10,0.1,1
10,1,5,nue,nue,routed,-,90,0,6,3.9,7,3,20,1.0,-
10,2,5,sar,sar,routed,2,90,0,5,3.5,9,2,10,0.1,1
10,2,5,nue,nue,routed,-,90,0,6,3.9,8,3,20,1.0,-
20,1,9,sar,sar,fallback,3,90,0,7,4.0,12,4,30,0.1,1
20,1,9,nue,nue,refused,-,90,0,8,4.1,13,5,40,1.0,-
EOF
expect "resilience-compare: the point where sar is worse" 0 "level 10 seed 2: sar worse: a2a 9 > 8$" \
	$CMP "$T/res.csv"
expect "resilience-compare: counts" 0 "^2 points that both sar and nue routed; sar at or below nue: a2a 1 rp 2 efi 2 hops_max 2 hops_avg 2$" \
	$CMP "$T/res.csv"
expect "resilience-compare: medians" 0 "^10 *6.5 / 7.5 *2 / 3" $CMP "$T/res.csv"
cp "$T/less.net" "$T/res.net"
expect "resilience-compare: not a sweep's CSV" 2 "res.net:1: expected the header" $CMP "$T/res.net"

# bench/peer-check: what ran, from OpenSM's log lines (3.3.23's words)
PEER="sh ${OSMRE_SRCDIR:-.}/bench/peer-check"
cat >"$T/nue48.log" <<'EOF'
Nov 26 21:37:47 703039 [E1D216C0] 0x02 -> nue_discover_network: Building network graph for nue routing
Nov 26 21:37:47 703040 [E1D216C0] 0x02 -> nue_discover_network: WRN NUE48: Nue routing with nue_max_num_vls == 3 should enable QoS for valid SL2VL mapping,  using nue_max_num_vls 1
Nov 26 21:44:09 129448 [E1D216C0] 0x02 -> osm_ucast_mgr_process: nue tables configured on all switches
EOF
expect "peer-check: nue without qos ran on 1 VL" 0 "^nue 1 nue\[1VL!\] 0$" $PEER "$T/nue48.log" nue 3
grep -v NUE48 "$T/nue48.log" >"$T/nue.log"
expect "peer-check: nue as configured" 0 "^nue 3 nue\[3VL\] 1$" $PEER "$T/nue.log" nue 3
cat >"$T/ad25.log" <<'EOF'
Nov 26 21:33:07 828076 [5A4D96C0] 0x02 -> dfsssp_remove_deadlocks: Virtual Lanes available: 4
Nov 26 21:33:07 847699 [5A4D96C0] 0x02 -> dfsssp_remove_deadlocks: Virtual Lanes needed: 5
Nov 26 21:33:07 847701 [5A4D96C0] 0x01 -> dfsssp_remove_deadlocks: ERR AD25: Not enough VLs available (avail=4, needed=5); Stopping dfsssp routing!
Nov 26 21:33:07 847702 [5A4D96C0] 0x01 -> ucast_mgr_route: dfsssp: cannot build fwd tables
Nov 26 21:33:08 100000 [5A4D96C0] 0x02 -> osm_ucast_mgr_process: minhop tables configured on all switches
EOF
expect "peer-check: dfsssp fell back to minhop" 0 "^minhop 5 dfsssp->minhop 0$" $PEER "$T/ad25.log" dfsssp 3
printf '%s\n' "x 0x02 -> a: Virtual Lanes needed: 4" "x 0x02 -> b: dfsssp tables configured on all switches" >"$T/df4.log"
expect "peer-check: dfsssp over the budget" 0 "^dfsssp 4 dfsssp\[4VL>3!\] 0$" $PEER "$T/df4.log" dfsssp 3
expect "peer-check: the lines of nue's budget" 0 "^nue_max_num_vls 3$" \
	sh -c ". ${OSMRE_SRCDIR:-.}/bench/peer-check; peer_conf nue 3"
expect "peer-check: qos on for dfsssp" 0 "^qos TRUE$" \
	sh -c ". ${OSMRE_SRCDIR:-.}/bench/peer-check; peer_conf dfsssp 3"

# production quirks (osmre degrade --with): dmodc and pqft route every
# CA, valid and acyclic on one VL, and the compute CAs' A2A/SP/RP are
# those of the same engine on the tree without the quirk
risk() { sed -n 's/.*(A2A) \([0-9]*\).*(SP, max of [0-9]*) \([0-9]*\).*) \([0-9]*\)$/\1 \2 \3/p' "$1"; }
quirk_case() {	# quirk_case TREE ENGINE QUIRK
	qn="$T/$1-$3.net"
	[ -f "$qn" ] || $OSMRE degrade "$T/$1.net" --with "$3" --seed 7 -o "$qn" 2>/dev/null
	$OSMRE route -e "$2" -t "$T/$1.net" -o "$T/$1.$2.lfts" 2>/dev/null
	$OSMRE analyze -q --rp 50 --order compute -t "$T/$1.net" -l "$T/$1.$2.lfts" >"$T/ref.out" 2>&1
	if ! $OSMRE route -e "$2" -t "$qn" -o "$T/q.lfts" --deadlock-check >"$T/q.log" 2>&1; then
		ko "quirk $1 $3 $2: refused"; cat "$T/q.log"; return
	fi
	$OSMRE analyze -q --rp 50 --no-updown --order compute -t "$qn" -l "$T/q.lfts" >"$T/q.out" 2>&1
	if ! grep -q "^validity: VALID" "$T/q.out" ||
		! grep -q "(one VL): channel dependency graph acyclic" "$T/q.out"; then
		ko "quirk $1 $3 $2: not valid and acyclic"; cat "$T/q.out"; return
	fi
	if [ -z "$(risk "$T/ref.out")" ] || [ "$(risk "$T/q.out")" != "$(risk "$T/ref.out")" ]; then
		ko "quirk $1 $3 $2: compute A2A/SP/RP $(risk "$T/q.out") against $(risk "$T/ref.out")"
		return
	fi
	ok "quirk $1 $3 $2: compute A2A/SP/RP $(risk "$T/q.out") as without it"
}
$OSMRE gen pgft 2 8,8 1,4 -o "$T/q2.net" 2>/dev/null
$OSMRE gen pgft 3 6,4,4 1,3,4 -o "$T/q3.net" 2>/dev/null
for q in aggregation storage gateway edge stray-leaf stray-spine dual; do
	for e in dmodc pqft; do
		quirk_case q2 $e $q
		quirk_case q3 $e $q
	done
done
# sar and a stray cable: VALID, acyclic on its SLs, the compute SP
# within 2x of sar's on the tree without the cable
sar_stray() {	# sar_stray TREE QUIRK
	qn="$T/$1-$2.net"
	[ -f "$qn" ] || $OSMRE degrade "$T/$1.net" --with "$2" --seed 7 -o "$qn" 2>/dev/null
	$OSMRE route -e sar -t "$T/$1.net" -o "$T/s0.lfts" --sls "$T/s0.sls" 2>/dev/null
	$OSMRE analyze -q --rp 50 --order compute -t "$T/$1.net" -l "$T/s0.lfts" --sl-file "$T/s0.sls" >"$T/ref.out" 2>&1
	$OSMRE route -e sar -t "$qn" -o "$T/s1.lfts" --sls "$T/s1.sls" >"$T/q.log" 2>&1 ||
		{ ko "quirk $1 $2 sar: refused"; cat "$T/q.log"; return; }
	$OSMRE analyze -q --rp 50 --no-updown --order compute -t "$qn" -l "$T/s1.lfts" --sl-file "$T/s1.sls" >"$T/q.out" 2>&1
	set -- "$1" "$2" $(risk "$T/q.out") x $(risk "$T/ref.out")
	if ! grep -q "^validity: VALID" "$T/q.out" || ! grep -q "graph acyclic" "$T/q.out" ||
		[ -z "$8" ] || [ "$4" -gt $(($8 * 2)) ]; then
		ko "quirk $1 $2 sar: SP $4 against $8 without it, or not valid and acyclic"
		cat "$T/q.out"; return
	fi
	ok "quirk $1 $2 sar: SP $4 against $8 without it, valid and acyclic"
}
# a leaf whose hosts are all down: routed, valid and acyclic (its
# figures are not those of the full tree: fewer hosts)
hostless_case() {	# hostless_case ENGINE
	$OSMRE degrade "$T/q3.net" --with hostless --seed 7 -o "$T/q3-h.net" 2>/dev/null
	if ! $OSMRE route -e "$1" -t "$T/q3-h.net" -o "$T/h.lfts" --deadlock-check >"$T/q.log" 2>&1; then
		ko "quirk q3 hostless $1: refused"; cat "$T/q.log"; return
	fi
	$OSMRE analyze -q --rp 5 --no-updown -t "$T/q3-h.net" -l "$T/h.lfts" >"$T/q.out" 2>&1
	grep -q "^validity: VALID" "$T/q.out" && grep -q "(one VL): channel dependency graph acyclic" "$T/q.out" &&
		ok "quirk q3 hostless $1: valid and acyclic on one VL" ||
		{ ko "quirk q3 hostless $1"; cat "$T/q.out"; }
}
for q in stray-leaf stray-spine; do
	sar_stray q2 $q
	sar_stray q3 $q
done
hostless_case dmodc
hostless_case pqft
$OSMRE degrade "$T/q3.net" --with aggregation,edge --seed 7 -o "$T/q3-ae.net" 2>/dev/null
expect "roles: aggregation nodes and an edge switch found" 0 \
	"96 compute CA(s) on 16 leaf switch(es) (0 without hosts), 44 other CA(s) (40 aggregation node(s)), 1 edge switch(es)" \
	$OSMRE roles -t "$T/q3-ae.net"
$OSMRE roles -t "$T/q3-ae.net" --write-cn "$T/cn" --write-roots "$T/roots" --write-io "$T/io" >/dev/null
[ "$(wc -l <"$T/cn")" -eq 96 ] && [ "$(wc -l <"$T/roots")" -eq 12 ] && [ "$(wc -l <"$T/io")" -eq 44 ] &&
	ok "roles: the GUID files written" || ko "roles: the GUID files written"
expect "roles: the files given back, the same roles" 0 "96 compute CA(s) on 16 leaf" \
	$OSMRE roles -t "$T/q3-ae.net" --cn-guids "$T/cn" --root-guids "$T/roots"
# analyze --engine: routed in memory, the same figures as through a file
$OSMRE route -e sar -t "$T/q3.net" -o "$T/m.lfts" --sls "$T/m.sls" 2>/dev/null
$OSMRE analyze -q --rp 20 -t "$T/q3.net" -l "$T/m.lfts" --sl-file "$T/m.sls" | sed 's/SLs from [^,]*,/SLs,/' >"$T/m1.out"
$OSMRE analyze -q --rp 20 -t "$T/q3.net" -e sar | sed 's/SLs from [^,]*,/SLs,/' >"$T/m2.out"
cmp -s "$T/m1.out" "$T/m2.out" && grep -q VALID "$T/m2.out" && ok "analyze --engine sar: the figures of route + analyze" ||
	{ ko "analyze --engine sar"; diff "$T/m1.out" "$T/m2.out"; }
expect "analyze --engine and --lfts: refused" 2 "--engine takes one --topo and no --lfts" \
	$OSMRE analyze -t "$T/q3.net" -l "$T/m.lfts" -e dmodc
expect "degrade --with: an unknown quirk named" 2 'unknown quirk "sharp" (known: aggregation' \
	$OSMRE degrade "$T/q2.net" --with aggregation,sharp
echo "cli: $fails failure(s)"
[ "$fails" -eq 0 ]
