# SPDX-License-Identifier: BSD-2-Clause
# wilson(k, n): "k/n = P % (95 % CI LO-HI %)", the Wilson score interval
# of k successes in n draws ("-" when n is 0).  For bench scripts:
# awk -f bench/wilson.awk -f PROGRAM (any awk: mawk, gawk).
function wilson(k, n,   z, ph, d, m, h) {
	if (!n) return "-"
	z = 1.96; ph = k / n; d = 1 + z * z / n
	m = (ph + z * z / (2 * n)) / d
	h = z * sqrt(ph * (1 - ph) / n + z * z / (4 * n * n)) / d
	return sprintf("%d/%d = %.0f %% (95 %% CI %.0f-%.0f %%)", k, n, 100 * ph, 100 * (m - h), 100 * (m + h))
}
