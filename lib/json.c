/*
 * json.c - the JSON string writer shared by fsck.f2fs and dump.f2fs, so
 * the escaping rule lives in one place (the tools carried two copies,
 * which disagreed about DEL).
 *
 * Why in lib/, which never prints: this writes nowhere of its own
 * choosing.  The caller opens and owns the stream (fsck: an in-memory
 * stream it copies to stdout at the end; dump: stdout) and gets an error
 * code back instead of a message, like the rest of lib/; and lib/ is
 * what tests/unit links, so the rule has a unit test.
 */
#include <errno.h>

#include "f2fs_json.h"

static void put_u00(FILE *f, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";

	fputs("\\u00", f);
	fputc(hex[c >> 4], f);
	fputc(hex[c & 15], f);
}

static void put_byte(FILE *f, unsigned char c, unsigned int flags)
{
	if (c == '"' || c == '\\') {
		fputc('\\', f);
		fputc(c, f);
	} else if ((flags & F2FS_JSON_SHORT) && c == '\n') {
		fputs("\\n", f);
	} else if ((flags & F2FS_JSON_SHORT) && c == '\t') {
		fputs("\\t", f);
	} else if (c < 0x20 || c == 0x7f || (c >= 0x80 && (flags & F2FS_JSON_ASCII))) {
		put_u00(f, c);
	} else {
		fputc(c, f);
	}
}

int f2fs_json_string(FILE *f, const char *s, size_t len, unsigned int flags)
{
	fputc('"', f);
	for (size_t i = 0; i < len; i++)
		put_byte(f, (unsigned char)s[i], flags);
	fputc('"', f);
	return ferror(f) ? -EIO : 0;
}
