# SPDX-License-Identifier: BSD-2-Clause
# awk -f hops.awk TOPO(ibnetdiscover) LFTS(dump_fts) LIDMATRIX(opensm-lid-matrix.dump)
# Checks the hop tables OpenSM holds against the routes: for every switch
# and LID, the least hop count equals the hop count at the routed port, and
# is 0 for the switch's own LID, 1 towards an attached CA, and 1 + the next
# switch's count otherwise.  Prints problems and "hops: N checked, M wrong".
function g(s) { sub(/^0x/, "", s); sub(/^0*/, "", s); return tolower(s) }
FILENAME == ARGV[1] && /^Switch/ {
	sw = $0; sub(/^[^"]*"S-/, "", sw); sub(/".*/, "", sw); sw = g(sw); next
}
FILENAME == ARGV[1] && /^\[/ && sw != "" {
	p = $1; gsub(/[^0-9]/, "", p)
	r = $2; if (r ~ /^"S-/) { sub(/^"S-/, "", r); sub(/".*/, "", r); nb[sw, p+0] = g(r) }
	else nb[sw, p+0] = "CA"
	next
}
FILENAME == ARGV[1] && /^$/ { sw = ""; next }
FILENAME == ARGV[2] && /^Unicast lids/ {
	t = $0; sub(/.* guid /, "", t); sub(/ .*/, "", t); t = g(t); next
}
FILENAME == ARGV[2] && /^0x/ { lft[t, g($1)] = $2 + 0; next }
FILENAME == ARGV[3] && /^Switch: guid/ { m = g($3); next }
FILENAME == ARGV[3] && /^0x/ {
	l = $1; sub(/:$/, "", l); l = g(l)
	least[m, l] = $2
	if ((m, l) in lft) at[m, l] = $(2 + lft[m, l])
	rows[++n] = m SUBSEP l
}
function hex(x,   v, j) {
	v = 0
	for (j = 1; j <= length(x); j++)
		v = v * 16 + index("0123456789abcdef", substr(x, j, 1)) - 1
	return v
}
END {
	bad = 0
	for (i = 1; i <= n; i++) {
		split(rows[i], k, SUBSEP); s = k[1]; l = k[2]
		if (!((s, l) in lft)) continue
		h = least[s, l]; port = lft[s, l]
		if (at[s, l] != h) {
			print "switch " s " lid " l ": least " h " but port " port " has " at[s, l]
			bad++
			continue
		}
		if (port == 0) want = 0
		else if (nb[s, port] == "CA") want = 1
		else if ((nb[s, port], l) in least) want = hex(least[nb[s, port], l]) + 1
		else continue
		if (hex(h) != want) { print "switch " s " lid " l ": " h " hops, expected " want; bad++ }
		checked++
	}
	print "hops: " checked + 0 " checked, " bad " wrong"
	exit bad ? 1 : 0
}
