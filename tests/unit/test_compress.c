/*
 * test_compress.c - the LZ4 and LZO1X decompressors and the cluster
 * header: hand-assembled blocks (literals only, overlapping matches, long
 * lengths, every LZO instruction form, LZO-RLE's runs of zeroes), and
 * every kind of malformed input refused without overrunning a buffer;
 * ZSTD and LZO clusters made by their own libraries, when the build has
 * them (LZO's also cut at every length).
 */
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif
#ifdef HAVE_LZO
#include <lzo1x.h>
#endif
#include <string.h>

#include "unit.h"
#include "f2fs_fs.h"
#include "f2fs_err.h"
#include "f2fs_compress.h"

typedef int (*decoder_fn)(const uint8_t *src, size_t srclen, uint8_t *dst, size_t dstlen,
			  size_t *outlen);

/* src (len bytes) must decode with fn to exactly the n bytes of want. */
static void check_decodes(decoder_fn fn, const uint8_t *src, size_t len, const char *want, size_t n)
{
	uint8_t out[64];
	size_t got = 0;

	CHECK(n <= sizeof(out));
	CHECK(fn(src, len, out, sizeof(out), &got) == 0);
	CHECK_EQ_U64(got, n);
	CHECK(memcmp(out, want, n) == 0);
}

static void test_literals_only(void)
{
	static const uint8_t src[] = { 0x50, 'h', 'e', 'l', 'l', 'o' };

	check_decodes(f2fs_lz4_decompress, src, sizeof(src), "hello", 5);
}

/* "abc" then a match of 9 at offset 3 (overlapping), then "xyz". */
static void test_overlapping_match(void)
{
	static const uint8_t src[] = { 0x35, 'a', 'b', 'c', 3, 0, 0x30, 'x', 'y', 'z' };

	check_decodes(f2fs_lz4_decompress, src, sizeof(src), "abcabcabcabcxyz", 15);
}

/* A run: one 'z' literal, then a match of 4096 - 1 at offset 1 using the
 * extended length (15 + 255*k + r + 4). */
static void test_long_match(void)
{
	uint8_t src[64], out[4096];
	size_t i = 0, n = 0, rest = 4095 - 4 - 15;

	src[i++] = 0x1F;
	src[i++] = 'z';
	src[i++] = 1;
	src[i++] = 0;
	while (rest >= 255) {
		src[i++] = 255;
		rest -= 255;
	}
	src[i++] = (uint8_t)rest;
	CHECK(f2fs_lz4_decompress(src, i, out, sizeof(out), &n) == 0);
	CHECK_EQ_U64(n, 4096);
	for (i = 0; i < sizeof(out); i++)
		if (out[i] != 'z')
			break;
	CHECK_EQ_U64(i, 4096);
}

static void test_malformed(void)
{
	static const uint8_t zero_offset[] = { 0x14, 'a', 0, 0 };
	static const uint8_t far_offset[] = { 0x14, 'a', 5, 0 };
	static const uint8_t short_literals[] = { 0x50, 'a', 'b' };
	static const uint8_t cut_offset[] = { 0x14, 'a', 1 };
	static const uint8_t cut_length[] = { 0xF0 };
	static const uint8_t big_match[] = { 0x1F, 'a', 1, 0, 255, 255, 0 };
	uint8_t out[64];
	size_t n;

	CHECK(f2fs_lz4_decompress(zero_offset, sizeof(zero_offset), out, sizeof(out), &n) == -EFSCORRUPTED);
	CHECK(f2fs_lz4_decompress(far_offset, sizeof(far_offset), out, sizeof(out), &n) == -EFSCORRUPTED);
	CHECK(f2fs_lz4_decompress(short_literals, sizeof(short_literals), out, sizeof(out), &n) == -EFSCORRUPTED);
	CHECK(f2fs_lz4_decompress(cut_offset, sizeof(cut_offset), out, sizeof(out), &n) == -EFSCORRUPTED);
	CHECK(f2fs_lz4_decompress(cut_length, sizeof(cut_length), out, sizeof(out), &n) == -EFSCORRUPTED);
	CHECK(f2fs_lz4_decompress(big_match, sizeof(big_match), out, sizeof(out), &n) == -EFSCORRUPTED);
	/* literals longer than the output */
	CHECK(f2fs_lz4_decompress((const uint8_t *)"\x50hello", 6, out, 3, &n) == -EFSCORRUPTED);
}

static void test_cluster(void)
{
	uint8_t blk[F2FS_BLKSIZE], out[4 * F2FS_BLKSIZE];
	uint8_t *p = blk + COMPRESS_HEADER_SIZE;
	size_t rest = 4 * F2FS_BLKSIZE - 1 - 4 - 15, len;

	/* one cluster of 4 blocks of 'q': a literal and a long match */
	memset(blk, 0, sizeof(blk));
	*p++ = 0x1F;
	*p++ = 'q';
	*p++ = 1;
	*p++ = 0;
	while (rest >= 255) {
		*p++ = 255;
		rest -= 255;
	}
	*p++ = (uint8_t)rest;
	len = (size_t)(p - blk) - COMPRESS_HEADER_SIZE;
	put_le32(blk, (uint32_t)len);
	CHECK(f2fs_decompress_cluster(COMPRESS_LZ4, blk, 1, out, sizeof(out)) == 0);
	CHECK(out[0] == 'q' && out[sizeof(out) - 1] == 'q');
	/* wrong size: the cluster must decompress to exactly outlen */
	CHECK(f2fs_decompress_cluster(COMPRESS_LZ4, blk, 1, out, sizeof(out) - 1) == -EFSCORRUPTED);
#ifdef HAVE_ZSTD
	CHECK(f2fs_decompress_cluster(COMPRESS_ZSTD, blk, 1, out, sizeof(out)) == -EFSCORRUPTED);
#else
	CHECK(f2fs_decompress_cluster(COMPRESS_ZSTD, blk, 1, out, sizeof(out)) == -EOPNOTSUPP);
#endif
	CHECK(f2fs_decompress_cluster(COMPRESS_LZORLE, blk, 1, out, sizeof(out)) == -EFSCORRUPTED);
	CHECK(f2fs_decompress_cluster(7, blk, 1, out, sizeof(out)) == -EOPNOTSUPP);
	put_le32(blk, F2FS_BLKSIZE);	/* clen past the blocks */
	CHECK(f2fs_decompress_cluster(COMPRESS_LZ4, blk, 1, out, sizeof(out)) == -EFSCORRUPTED);
}

/* LZO1X, version 0: a first run of 5 literals "abcde", then 001LLLLL with
 * L = 7 (a block of 9) at distance 5, then the end (0x11 0 0). */
static void test_lzo_basic(void)
{
	static const uint8_t src[] = { 22, 'a', 'b', 'c', 'd', 'e', 0x27, 0x10, 0x00,
				       0x11, 0x00, 0x00 };
	uint8_t out[32];
	size_t n = 0;

	check_decodes(f2fs_lzo1x_decompress, src, sizeof(src), "abcdeabcdeabcd", 14);
	/* one byte short of the end marker */
	CHECK(f2fs_lzo1x_decompress(src, sizeof(src) - 1, out, sizeof(out), &n) == -EFSCORRUPTED);
	/* the output buffer one byte short */
	CHECK(f2fs_lzo1x_decompress(src, sizeof(src), out, 13, &n) == -EFSCORRUPTED);
}

/* The instruction forms: a first byte of 19 (2 literals "xy", state 2);
 * 01LDDDSS = 0x45 (3 bytes from 2 back, then 1 literal 'z'); 0000DDSS in
 * state 1 (2 bytes from 1 back, no literal); 0000LLLL in state 0 (a run
 * of 1 + 3 literals "1234"); then the end. */
static void test_lzo_forms(void)
{
	static const uint8_t src[] = {
		19, 'x', 'y',			/* literals "xy", state 2 */
		0x45, 0x00, 'z',		/* "xyx" from 2 back, then "z" */
		0x00, 0x00,			/* "zz" from 1 back, state 0 */
		0x01, '1', '2', '3', '4',	/* 4 literals, state 4 */
		0x11, 0x00, 0x00,		/* end */
	};

	check_decodes(f2fs_lzo1x_decompress, src, sizeof(src), "xyxyxzzz1234", 12);
}

/* Version 1 (LZO-RLE): the marker 17 1, 4 literals, a run of
 * ((X << 3) | LLL) + 4 = (2 << 3 | 5) + 4 = 25 zeroes with one literal
 * after it, then the end; the same run is a block copy in version 0. */
static void test_lzo_rle(void)
{
	static const uint8_t v1[] = { 17, 1, 21, 'w', 'x', 'y', 'z', 0x1d, 0xfd, 0xff, 2, '!',
				      0x11, 0x00, 0x00 };
	uint8_t out[64], v0[sizeof(v1) - 2];
	size_t n = 0;

	CHECK(f2fs_lzo1x_decompress(v1, sizeof(v1), out, sizeof(out), &n) == 0);
	CHECK_EQ_U64(n, 4 + 25 + 1);
	CHECK(memcmp(out, "wxyz", 4) == 0 && out[29] == '!');
	for (int i = 4; i < 29; i++)
		CHECK(out[i] == 0);
	/* version 0: 0x1d is a block 16 KiB and more back, past the start */
	memcpy(v0, v1 + 2, sizeof(v0));
	CHECK(f2fs_lzo1x_decompress(v0, sizeof(v0), out, sizeof(out), &n) == -EFSCORRUPTED);
}

/* A cluster compressed by the library itself, with the header the
 * kernel puts in front, must come back byte for byte; a flipped byte in
 * the compressed data must not produce a cluster silently. */
static void check_library_cluster(unsigned int algorithm, const uint8_t *cdata, size_t clen,
				  const uint8_t *plain, size_t plen)
{
	static uint8_t blk[2 * F2FS_BLKSIZE], out[4 * F2FS_BLKSIZE];

	CHECK(clen + COMPRESS_HEADER_SIZE <= sizeof(blk) && plen == sizeof(out));
	memset(blk, 0, sizeof(blk));
	put_le32(blk, (uint32_t)clen);
	memcpy(blk + COMPRESS_HEADER_SIZE, cdata, clen);
	CHECK(f2fs_decompress_cluster(algorithm, blk, 2, out, plen) == 0);
	CHECK(memcmp(out, plain, plen) == 0);
	CHECK(f2fs_decompress_cluster(algorithm, blk, 2, out, plen - 1) != 0);
	put_le32(blk, (uint32_t)clen / 2);	/* cut short */
	CHECK(f2fs_decompress_cluster(algorithm, blk, 2, out, plen) != 0);
}

static void fill_text(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)("f2fs cluster "[i % 13] + (i / 997) % 7);
}

#ifdef HAVE_LZO
/* liblzo2's own streams of text, zeroes and noise decode to what went
 * in, and every cut of them is refused, never overrunning. */
static void check_lzo_library(uint8_t *plain, size_t plen, void *wrk)
{
	static uint8_t c[8 * F2FS_BLKSIZE], out[4 * F2FS_BLKSIZE];
	uint32_t x = 12345;

	for (int kind = 0; kind < 3; kind++) {
		lzo_uint n = sizeof(c);
		size_t got = 0;

		for (size_t i = 0; i < plen; i++) {
			x = x * 1103515245u + 12345u;
			if (kind == 1)
				plain[i] = i % 300 < 200 ? 0 : (uint8_t)(x >> 24);
			else if (kind == 2)
				plain[i] = (uint8_t)(x >> 24);
		}
		CHECK(lzo1x_1_compress(plain, plen, c, &n, wrk) == LZO_E_OK);
		CHECK(f2fs_lzo1x_decompress(c, n, out, sizeof(out), &got) == 0);
		CHECK_EQ_U64(got, plen);
		CHECK(memcmp(out, plain, plen) == 0);
		for (size_t cut = 0; cut < n; cut += 1 + cut / 8)
			CHECK(f2fs_lzo1x_decompress(c, cut, out, sizeof(out), &got) != 0 ||
			      got < plen);
	}
	fill_text(plain, plen);
}
#endif

static void test_libraries(void)
{
	static uint8_t plain[4 * F2FS_BLKSIZE], c[2 * F2FS_BLKSIZE];

	fill_text(plain, sizeof(plain));
#ifdef HAVE_ZSTD
	{
		size_t n = ZSTD_compress(c, sizeof(c), plain, sizeof(plain), 1);

		CHECK(!ZSTD_isError(n));
		if (!ZSTD_isError(n))
			check_library_cluster(COMPRESS_ZSTD, c, n, plain, sizeof(plain));
	}
#endif
#ifdef HAVE_LZO
	{
		static uint8_t wrk[LZO1X_1_MEM_COMPRESS];
		lzo_uint n = sizeof(c);

		CHECK(lzo_init() == LZO_E_OK);
		CHECK(lzo1x_1_compress(plain, sizeof(plain), c, &n, wrk) == LZO_E_OK);
		check_library_cluster(COMPRESS_LZO, c, n, plain, sizeof(plain));
		check_lzo_library(plain, sizeof(plain), wrk);
	}
#endif
	(void)c;
	(void)check_library_cluster;
}

int main(void)
{
	test_literals_only();
	test_overlapping_match();
	test_long_match();
	test_malformed();
	test_cluster();
	test_lzo_basic();
	test_lzo_forms();
	test_lzo_rle();
	test_libraries();
	return unit_finish("test_compress");
}
