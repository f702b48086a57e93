/*
 * test_json.c - unit tests of lib/json.c: quotes and backslashes, every
 * control byte and DEL as \u00XX, the short forms and the ASCII-only mode
 * dump.f2fs asks for, and bytes after a NUL inside the length.
 */
#include <stdlib.h>
#include <string.h>

#include "f2fs_json.h"
#include "unit.h"

/* What f2fs_json_string writes for len bytes of s, in buf. */
static int render(const char *s, size_t len, unsigned int flags, char *buf, size_t size)
{
	FILE *f = fmemopen(buf, size, "w");
	int err;

	if (!f)
		return -1;
	err = f2fs_json_string(f, s, len, flags);
	if (fclose(f))
		return -1;
	return err;
}

static void check(const char *s, size_t len, unsigned int flags, const char *want, int line)
{
	char buf[512] = { 0 };
	int err = render(s, len, flags, buf, sizeof(buf));

	unit_checks++;
	if (err || strcmp(buf, want)) {
		unit_failures++;
		fprintf(stderr, "test_json.c:%d: got [%s] (err %d), expected [%s]\n", line, buf, err,
			want);
	}
}
#define CHECK_JSON(s, flags, want) check(s, sizeof(s) - 1, flags, want, __LINE__)

int main(void)
{
	char all[33];

	CHECK_JSON("plain name", 0, "\"plain name\"");
	CHECK_JSON("a\"b\\c", 0, "\"a\\\"b\\\\c\"");
	CHECK_JSON("del\x7f", 0, "\"del\\u007f\"");
	CHECK_JSON("del\x7f", F2FS_JSON_ASCII, "\"del\\u007f\"");
	CHECK_JSON("\x01\x1f\x1b", 0, "\"\\u0001\\u001f\\u001b\"");
	CHECK_JSON("n\nt\t", 0, "\"n\\u000at\\u0009\"");
	CHECK_JSON("n\nt\t", F2FS_JSON_SHORT, "\"n\\nt\\t\"");
	CHECK_JSON("\xc3\xa9\xff", 0, "\"\xc3\xa9\xff\"");
	CHECK_JSON("\xc3\xa9\xff", F2FS_JSON_ASCII, "\"\\u00c3\\u00a9\\u00ff\"");
	CHECK_JSON("a\0b", 0, "\"a\\u0000b\"");
	CHECK_JSON("~ \x20", 0, "\"~  \"");
	/* every control byte is escaped, none is written raw */
	for (int i = 0; i < 32; i++)
		all[i] = (char)(i + 1 == 32 ? 0x7f : i + 1);
	{
		char buf[512] = { 0 };

		CHECK(render(all, 32, F2FS_JSON_SHORT, buf, sizeof(buf)) == 0);
		for (const char *p = buf; *p; p++)
			CHECK((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f);
	}
	return unit_finish("test_json");
}
