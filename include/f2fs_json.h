/*
 * f2fs_json.h - the one JSON string writer of the tools (fsck.f2fs and
 * dump.f2fs --json): quotes, escapes and writes a string to a stream the
 * caller owns.
 */
#ifndef F2FS_JSON_H
#define F2FS_JSON_H

#include <stddef.h>
#include <stdio.h>

/* Bytes 0x80..0xff as \u00XX too (dump.f2fs: names are raw bytes, not
 * necessarily UTF-8); without it they are written as they are. */
#define F2FS_JSON_ASCII	0x1u
/* Newline and tab as \n and \t; without it as \u000a and \u0009. */
#define F2FS_JSON_SHORT	0x2u

/* The len bytes at s as one JSON string, quotes included: '"' and '\'
 * backslashed, every control byte (below 0x20) and DEL (0x7f) as \u00XX.
 * Returns 0, or -EIO when the stream is in error afterwards. */
int f2fs_json_string(FILE *f, const char *s, size_t len, unsigned int flags);

#endif
