/*
 * test_hash.c - f2fs_dentry_hash() against the format notes' vectors,
 * "." and "..", names longer than one 16-byte chunk, and bytes >= 0x80
 * (which must be folded in as unsigned).
 */
#include <string.h>

#include "f2fs_crc.h"
#include "unit.h"

static uint32_t hash_str(const char *s)
{
	return f2fs_dentry_hash((const uint8_t *)s, strlen(s));
}

static void test_format_vectors(void)
{
	CHECK_EQ_U64(hash_str("a"), 0x6d0ea4c1);
	CHECK_EQ_U64(hash_str("lost+found"), 0x2dbf9e80);
	CHECK_EQ_U64(hash_str("hello"), 0x6f5bb1a8);
	CHECK_EQ_U64(hash_str("0123456789abcdef"), 0x5a0788b2);
	CHECK_EQ_U64(hash_str("0123456789abcdefX"), 0xe6b01407);
	CHECK_EQ_U64(hash_str(""), 0x2576713d);
	CHECK_EQ_U64(f2fs_dentry_hash(NULL, 0), 0x2576713d);
}

static void test_dots(void)
{
	CHECK_EQ_U64(hash_str("."), 0);
	CHECK_EQ_U64(hash_str(".."), 0);
	CHECK(hash_str("...") != 0);
	CHECK(hash_str(".a") != 0);
	/* Only the given length counts, not what follows it. */
	CHECK_EQ_U64(f2fs_dentry_hash((const uint8_t *)"..x", 2), 0);
	CHECK_EQ_U64(f2fs_dentry_hash((const uint8_t *)"hello world", 5), 0x6f5bb1a8);
}

/* Values from an independent implementation written from the notes. */
static void test_more_vectors(void)
{
	uint8_t long_name[255];

	memset(long_name, 'x', sizeof(long_name));
	CHECK_EQ_U64(f2fs_dentry_hash(long_name, sizeof(long_name)), 0x6c4c00ee);
	CHECK_EQ_U64(hash_str("abcdabcdabcdabcdabcdabcdabcdabcd"), 0x899528df);
	CHECK_EQ_U64(hash_str("\xff\x80" "caf\xc3\xa9"), 0x05197aa0);
}

int main(void)
{
	test_format_vectors();
	test_dots();
	test_more_vectors();
	return unit_finish("test_hash");
}
