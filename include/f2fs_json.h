/*
 * f2fs_json.h - the one JSON writer of the tools (fsck.f2fs --json and
 * dump.f2fs --json): the caller says what comes (an object, a key, a
 * number...), the writer puts the commas, colons, quotes, escapes and
 * (when asked) the indentation, and refuses a sequence that would not be
 * JSON.  It writes to a stream the caller owns or to a growing buffer of
 * its own; it never prints anything else and never exits.
 *
 *	struct f2fs_json j;
 *
 *	f2fs_json_init_file(&j, stdout, 0);
 *	f2fs_json_begin_object(&j);
 *	f2fs_json_key(&j, "ino");
 *	f2fs_json_u64(&j, 3);
 *	f2fs_json_end_object(&j);
 *	if (f2fs_json_error(&j)) ...
 *
 * Errors are sticky: the first one is kept, every later call writes
 * nothing and returns it, so a caller may check once at the end.
 */
#ifndef F2FS_JSON_H
#define F2FS_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Bytes 0x80..0xff as \u00XX too (dump.f2fs: names are raw bytes, not
 * necessarily UTF-8); without it they are written as they are. */
#define F2FS_JSON_ASCII		0x1u
/* Newline and tab as \n and \t; without it as \u000a and \u0009. */
#define F2FS_JSON_SHORT		0x2u
/* One item a line, indented two spaces a level, "key": value, and a
 * newline after the document; without it no white space at all. */
#define F2FS_JSON_PRETTY	0x4u

/* Containers nest at most this deep (deeper: -EOVERFLOW). */
#define F2FS_JSON_MAX_DEPTH	32

struct f2fs_json {
	FILE *f;		/* the stream; NULL: the buffer below */
	char *buf;		/* buffer mode: the bytes so far, NUL-terminated */
	size_t len, cap;
	unsigned int flags;
	int err;		/* the first error; 0 while all is well */
	int depth;		/* open containers */
	bool after_key;		/* a key was written: its value comes next */
	bool done;		/* the top-level value is complete */
	bool is_object[F2FS_JSON_MAX_DEPTH + 1];	/* per level */
	bool has_items[F2FS_JSON_MAX_DEPTH + 1];	/* per level: a comma first */
};

/* A writer to the stream f, or to a buffer it allocates (read it with
 * f2fs_json_buffer(), free it with f2fs_json_free()). */
void f2fs_json_init_file(struct f2fs_json *j, FILE *f, unsigned int flags);
void f2fs_json_init_buffer(struct f2fs_json *j, unsigned int flags);
/* Buffer mode: the document so far (NUL-terminated; "" before any
 * write) and its length; NULL in stream mode. */
const char *f2fs_json_buffer(const struct f2fs_json *j, size_t *len);
void f2fs_json_free(struct f2fs_json *j);

/* 0, or the first error: -EINVAL (a key outside an object, a value
 * without its key, a close that does not match, a second top-level
 * value), -EOVERFLOW (nesting), -ENOMEM (buffer), -EIO (stream). */
int f2fs_json_error(const struct f2fs_json *j);

/* Every call below returns f2fs_json_error() after it. */
int f2fs_json_begin_object(struct f2fs_json *j);
int f2fs_json_end_object(struct f2fs_json *j);
int f2fs_json_begin_array(struct f2fs_json *j);
int f2fs_json_end_array(struct f2fs_json *j);
/* A member's name, in an object; its value is the next call. */
int f2fs_json_key(struct f2fs_json *j, const char *key);

/* Values: in an array, after a key, or as the whole document. */
int f2fs_json_str(struct f2fs_json *j, const char *s);	/* NULL: null */
int f2fs_json_strn(struct f2fs_json *j, const char *s, size_t len);
int f2fs_json_u64(struct f2fs_json *j, uint64_t v);
int f2fs_json_i64(struct f2fs_json *j, int64_t v);
int f2fs_json_bool(struct f2fs_json *j, bool v);
int f2fs_json_null(struct f2fs_json *j);
/* len bytes as one string of lower-case hex digits, two a byte. */
int f2fs_json_hex(struct f2fs_json *j, const uint8_t *b, size_t len);

/* The len bytes at s as one JSON string to f, quotes included, outside
 * any document: '"' and '\' backslashed, every control byte (below 0x20)
 * and DEL (0x7f) as \u00XX; flags as above.  Returns 0, or -EIO when the
 * stream is in error afterwards. */
int f2fs_json_string(FILE *f, const char *s, size_t len, unsigned int flags);

#endif
