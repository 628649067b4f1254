/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The paths' SLs of a layering as an SL file (slmap.h), the numbers
 * formatted by hand into a buffer: the plugin writes this file
 * (osmre-sar.dump) inside every routing pass, a million lines and more on
 * large fabrics over the budget, where fprintf per line was several
 * times slower.
 */
#include <string.h>

#include "slmap.h"

/* v in decimal at p; the end. */
static char *put_uint(char *p, unsigned v)
{
	char d[10];
	int n = 0;

	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = d[--n];
	return p;
}

int sl_map_write_paths(FILE *fp, const struct fabric *f, const char *name,
		       int layers, const uint8_t *layer, int nsrc,
		       const int *src_node, const int *src_port,
		       unsigned maxlid)
{
	/* a line: "path " and three numbers of 10 digits at most */
	enum { LINE_MAX_LEN = 5 + 3 * 11, BUF = 1 << 16 };
	char buf[BUF], *p = buf;
	int src;
	unsigned lid;

	fprintf(fp, "# osmre %s: %d layer(s), SL = layer\ndefault 0\n", name,
		layers);
	for (src = 0; layer && src_node && src < nsrc; src++) {
		const uint8_t *row = layer + (size_t)src * (maxlid + 1);
		unsigned slid =
			f->nodes[src_node[src]].ports[src_port[src]].lid;

		for (lid = 1; lid <= maxlid; lid++) {
			if (!row[lid])
				continue;
			if (p - buf > BUF - LINE_MAX_LEN) {
				fwrite(buf, 1, (size_t)(p - buf), fp);
				p = buf;
			}
			memcpy(p, "path ", 5);
			p = put_uint(p + 5, slid);
			*p++ = ' ';
			p = put_uint(p, lid);
			*p++ = ' ';
			p = put_uint(p, row[lid]);
			*p++ = '\n';
		}
	}
	fwrite(buf, 1, (size_t)(p - buf), fp);
	return ferror(fp) ? -1 : 0;
}
