/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

/*
 * Control bytes (and DEL) in a message become \xNN: a message often
 * quotes a token of a hostile file, and must not write escape sequences
 * to an administrator's terminal or forge log lines.
 */
void osmre_sanitize(char *msg, size_t size)
{
	char out[1024];
	size_t i, o = 0;

	if (size > sizeof(out))
		size = sizeof(out);
	for (i = 0; msg[i] && o + 1 < size; i++) {
		unsigned char c = (unsigned char)msg[i];

		if (c >= 0x20 && c != 0x7f) {
			out[o++] = (char)c;
		} else if (o + 5 < size) {
			snprintf(out + o, size - o, "\\x%02x", c);
			o += 4;
		} else {
			break;
		}
	}
	out[o] = 0;
	memcpy(msg, out, o + 1);
}

int osmre_fail(struct osmre_err *err, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
		osmre_sanitize(err->msg, sizeof(err->msg));
	}
	return -1;
}

int osmre_prefix(struct osmre_err *err, const char *fmt, ...)
{
	char old[sizeof(err->msg)];
	size_t n;
	va_list ap;

	if (!err)
		return -1;
	memcpy(old, err->msg, sizeof(old));
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	n = strlen(err->msg);
	snprintf(err->msg + n, sizeof(err->msg) - n, ": %s", old);
	osmre_sanitize(err->msg, sizeof(err->msg));
	return -1;
}
