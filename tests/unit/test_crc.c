/*
 * test_crc.c - f2fs_crc32_le()/f2fs_crc32(): the format notes' vectors,
 * the standard CRC-32 check value, and agreement with a bit-at-a-time
 * reference over many buffers (which also checks the compile-time table
 * and the folded path of CPUs with carry-less multiplication).
 */
#include <stdlib.h>
#include <string.h>

#include "f2fs_crc.h"
#include "f2fs_fs.h"
#include "unit.h"

/* One bit at a time, straight from the definition of a reflected CRC. */
static uint32_t crc_bitwise(uint32_t crc, const uint8_t *p, size_t len)
{
	while (len--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc & 1) ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
	}
	return crc;
}

static void test_vectors(void)
{
	static const uint8_t zeros[4];
	const char *digits = "123456789";

	CHECK_EQ_U64(f2fs_crc32(digits, 9), 0x1657a0c3);
	CHECK_EQ_U64(f2fs_crc32(zeros, 4), 0x522c97b7);
	/* With the usual pre/post inversion it is the standard CRC-32. */
	CHECK_EQ_U64(~f2fs_crc32_le(0xFFFFFFFFu, digits, 9), 0xCBF43926u);
	CHECK_EQ_U64(f2fs_crc32_le(0x12345678u, digits, 0), 0x12345678u);
	CHECK_EQ_U64(f2fs_crc32(NULL, 0), F2FS_SUPER_MAGIC);
}

static void test_single_bytes(void)
{
	/* Covers every table entry. */
	for (unsigned int b = 0; b < 256; b++) {
		uint8_t byte = (uint8_t)b;
		uint32_t seed = 0xF2F52010u ^ (b * 0x01010101u);

		CHECK_EQ_U64(f2fs_crc32_le(seed, &byte, 1), crc_bitwise(seed, &byte, 1));
	}
}

static void test_against_reference(void)
{
	uint8_t buf[5000];
	unsigned int state = 12345;

	for (size_t i = 0; i < sizeof(buf); i++) {
		state = state * 1103515245u + 12345u;
		buf[i] = (uint8_t)(state >> 16);
	}
	for (size_t len = 0; len < sizeof(buf); len += 97) {
		size_t start = len % 13;

		CHECK_EQ_U64(f2fs_crc32(buf + start, len - start),
			     crc_bitwise(F2FS_SUPER_MAGIC, buf + start, len - start));
	}
	/* Chaining: one call equals two calls over the halves. */
	CHECK_EQ_U64(f2fs_crc32_le(f2fs_crc32(buf, 1234), buf + 1234, 3000),
		     f2fs_crc32(buf, 4234));
}

/* Every length up to 320 bytes at every alignment, with changing seeds:
 * the folded path (64 bytes and more, where the CPU has it) and its
 * byte-at-a-time tail meet at every boundary. */
static void test_lengths_and_alignments(void)
{
	uint8_t buf[400];
	unsigned int state = 777;
	uint32_t seed = 0xF2F52010u, bad = 0;

	for (size_t i = 0; i < sizeof(buf); i++) {
		state = state * 1103515245u + 12345u;
		buf[i] = (uint8_t)(state >> 16);
	}
	for (size_t start = 0; start < 16; start++)
		for (size_t len = 0; len <= 320; len++) {
			seed = seed * 2654435761u + (uint32_t)len;
			if (f2fs_crc32_le(seed, buf + start, len) !=
			    crc_bitwise(seed, buf + start, len))
				bad++;
		}
	CHECK_EQ_U64(bad, 0);
}

int main(void)
{
	test_vectors();
	test_single_bytes();
	test_against_reference();
	test_lengths_and_alignments();
	return unit_finish("test_crc");
}
