/*
 * test_json.c - unit tests of lib/json.c: quotes and backslashes, every
 * control byte and DEL as \u00XX, the short forms and the ASCII-only mode
 * dump.f2fs asks for, and bytes after a NUL inside the length; then the
 * writer: commas and nesting, the compact form fsck.f2fs writes and the
 * pretty one dump.f2fs writes, the same bytes to a stream and to a
 * buffer, and every misuse refused with a sticky error.
 */
#include <errno.h>
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

/* One document of every kind of item, written by j. */
static void write_sample(struct f2fs_json *j)
{
	static const uint8_t bytes[] = { 0x00, 0xab, 0x7f };

	f2fs_json_begin_object(j);
	f2fs_json_key(j, "n");
	f2fs_json_u64(j, UINT64_MAX);
	f2fs_json_key(j, "i");
	f2fs_json_i64(j, INT64_MIN);
	f2fs_json_key(j, "list");
	f2fs_json_begin_array(j);
	f2fs_json_bool(j, true);
	f2fs_json_bool(j, false);
	f2fs_json_null(j);
	f2fs_json_str(j, NULL);
	f2fs_json_strn(j, "a\nb\x01", 4);
	f2fs_json_begin_object(j);
	f2fs_json_end_object(j);
	f2fs_json_begin_array(j);
	f2fs_json_end_array(j);
	f2fs_json_end_array(j);
	f2fs_json_key(j, "k\"ey");
	f2fs_json_hex(j, bytes, sizeof(bytes));
	f2fs_json_end_object(j);
}

#define COMPACT "{\"n\":18446744073709551615,\"i\":-9223372036854775808," \
	"\"list\":[true,false,null,null,\"a\\u000ab\\u0001\",{},[]],\"k\\\"ey\":\"00ab7f\"}"
#define PRETTY "{\n  \"n\": 18446744073709551615,\n  \"i\": -9223372036854775808,\n" \
	"  \"list\": [\n    true,\n    false,\n    null,\n    null,\n    \"a\\nb\\u0001\",\n" \
	"    {},\n    []\n  ],\n  \"k\\\"ey\": \"00ab7f\"\n}\n"

/* The sample in both forms, to a buffer and to a stream: same bytes. */
static void check_writer_output(void)
{
	struct f2fs_json j;
	char buf[512] = { 0 };
	size_t len = 1;
	FILE *f;

	f2fs_json_init_buffer(&j, 0);
	CHECK(!strcmp(f2fs_json_buffer(&j, &len), "") && len == 0);
	write_sample(&j);
	CHECK(f2fs_json_error(&j) == 0);
	CHECK(!strcmp(f2fs_json_buffer(&j, &len), COMPACT));
	CHECK(len == strlen(COMPACT));
	f2fs_json_free(&j);

	f2fs_json_init_buffer(&j, F2FS_JSON_PRETTY | F2FS_JSON_SHORT);
	write_sample(&j);
	CHECK(f2fs_json_error(&j) == 0);
	CHECK(!strcmp(f2fs_json_buffer(&j, NULL), PRETTY));
	f2fs_json_free(&j);

	f = fmemopen(buf, sizeof(buf), "w");
	CHECK(f != NULL);
	if (!f)
		return;
	f2fs_json_init_file(&j, f, F2FS_JSON_PRETTY | F2FS_JSON_SHORT);
	write_sample(&j);
	CHECK(f2fs_json_error(&j) == 0);
	CHECK(f2fs_json_buffer(&j, NULL) == NULL);
	CHECK(fclose(f) == 0);
	CHECK(!strcmp(buf, PRETTY));

	f2fs_json_init_buffer(&j, F2FS_JSON_PRETTY);
	f2fs_json_begin_array(&j);
	f2fs_json_end_array(&j);
	CHECK(!strcmp(f2fs_json_buffer(&j, NULL), "[]\n"));
	f2fs_json_free(&j);
	f2fs_json_init_buffer(&j, 0);
	f2fs_json_u64(&j, 7);
	CHECK(!strcmp(f2fs_json_buffer(&j, NULL), "7"));
	f2fs_json_free(&j);
}

/* A misuse gives -EINVAL (or -EOVERFLOW), and the writer then writes
 * nothing more: what came before stays, nothing after. */
static void check_misuse(void (*misuse)(struct f2fs_json *), int want, const char *kept, int line)
{
	struct f2fs_json j;
	int err;

	f2fs_json_init_buffer(&j, 0);
	misuse(&j);
	err = f2fs_json_error(&j);
	unit_checks++;
	if (err != want || f2fs_json_u64(&j, 1) != want || f2fs_json_end_object(&j) != want ||
	    strcmp(f2fs_json_buffer(&j, NULL), kept)) {
		unit_failures++;
		fprintf(stderr, "test_json.c:%d: error %d, output [%s]; expected %d, [%s]\n", line,
			err, f2fs_json_buffer(&j, NULL), want, kept);
	}
	f2fs_json_free(&j);
}

static void key_in_array(struct f2fs_json *j)
{
	f2fs_json_begin_array(j);
	f2fs_json_key(j, "k");
}

static void key_at_top(struct f2fs_json *j)
{
	f2fs_json_key(j, "k");
}

static void value_without_key(struct f2fs_json *j)
{
	f2fs_json_begin_object(j);
	f2fs_json_u64(j, 1);
}

static void two_keys(struct f2fs_json *j)
{
	f2fs_json_begin_object(j);
	f2fs_json_key(j, "a");
	f2fs_json_key(j, "b");
}

static void close_after_key(struct f2fs_json *j)
{
	f2fs_json_begin_object(j);
	f2fs_json_key(j, "a");
	f2fs_json_end_object(j);
}

static void wrong_close(struct f2fs_json *j)
{
	f2fs_json_begin_object(j);
	f2fs_json_end_array(j);
}

static void close_at_top(struct f2fs_json *j)
{
	f2fs_json_end_array(j);
}

static void second_document(struct f2fs_json *j)
{
	f2fs_json_begin_array(j);
	f2fs_json_end_array(j);
	f2fs_json_null(j);
}

static void too_deep(struct f2fs_json *j)
{
	for (int i = 0; i <= F2FS_JSON_MAX_DEPTH; i++)
		f2fs_json_begin_array(j);
}

static void check_errors(void)
{
	char deep[F2FS_JSON_MAX_DEPTH + 1];
	struct f2fs_json j;
	FILE *f;

	check_misuse(key_in_array, -EINVAL, "[", __LINE__);
	check_misuse(key_at_top, -EINVAL, "", __LINE__);
	check_misuse(value_without_key, -EINVAL, "{", __LINE__);
	check_misuse(two_keys, -EINVAL, "{\"a\":", __LINE__);
	check_misuse(close_after_key, -EINVAL, "{\"a\":", __LINE__);
	check_misuse(wrong_close, -EINVAL, "{", __LINE__);
	check_misuse(close_at_top, -EINVAL, "", __LINE__);
	check_misuse(second_document, -EINVAL, "[]", __LINE__);
	memset(deep, '[', F2FS_JSON_MAX_DEPTH);
	deep[F2FS_JSON_MAX_DEPTH] = '\0';
	check_misuse(too_deep, -EOVERFLOW, deep, __LINE__);

	/* a stream that cannot take the bytes: -EIO */
	f = fopen("/dev/full", "w");
	if (f) {
		setvbuf(f, NULL, _IONBF, 0);
		f2fs_json_init_file(&j, f, 0);
		CHECK(f2fs_json_begin_object(&j) == -EIO);
		CHECK(f2fs_json_error(&j) == -EIO);
		fclose(f);
	}
	f2fs_json_init_file(&j, NULL, 0);
	CHECK(f2fs_json_null(&j) == -EINVAL);
}

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
	check_writer_output();
	check_errors();
	return unit_finish("test_json");
}
