/*
 * crc.c - the reflected CRC-32 (polynomial 0xEDB88320) that F2FS uses for
 * its superblock, checkpoint and inode checksums.
 *
 * A byte at a time through a table everywhere; on x86 CPUs with carry-less
 * multiplication (PCLMULQDQ) the bulk of a long buffer is folded 64 bytes
 * per step instead, about twenty times faster: an inode checksum covers
 * 4 KiB, and a check of a volume with inode checksums computes one per
 * inode.  The fold keeps four 128-bit lanes; each step multiplies a lane
 * by x^512 mod P (split in two 64-bit halves) and adds the next 64 bytes;
 * the lanes are then folded into one (x^128 mod P), and the remaining 128
 * bits reduced to 64, to 32, and by Barrett reduction to the CRC.  The
 * constants are those powers of x modulo the bit-reflected polynomial,
 * as published for this polynomial (Intel's white paper "Fast CRC
 * Computation for Generic Polynomials Using PCLMULQDQ Instruction").
 *
 * The byte table is a constant built by the compiler: a reflected CRC is
 * linear over XOR, so the entry for byte n is the XOR of the entries for
 * the bits set in n.  The eight single-bit entries below are the CRC of
 * the bytes 0x01, 0x02, ... 0x80 (the last one is the polynomial itself).
 */
#include <stdbool.h>

#include "f2fs_crc.h"
#include "f2fs_fs.h"

#define CRC_BIT0 0x77073096u
#define CRC_BIT1 0xEE0E612Cu
#define CRC_BIT2 0x076DC419u
#define CRC_BIT3 0x0EDB8832u
#define CRC_BIT4 0x1DB71064u
#define CRC_BIT5 0x3B6E20C8u
#define CRC_BIT6 0x76DC4190u
#define CRC_BIT7 0xEDB88320u

/* Each level doubles the list: entries for index x, then for x | 1 << k. */
#define CRC_L0(x) (x)
#define CRC_L1(x) CRC_L0(x), CRC_L0((x) ^ CRC_BIT0)
#define CRC_L2(x) CRC_L1(x), CRC_L1((x) ^ CRC_BIT1)
#define CRC_L3(x) CRC_L2(x), CRC_L2((x) ^ CRC_BIT2)
#define CRC_L4(x) CRC_L3(x), CRC_L3((x) ^ CRC_BIT3)
#define CRC_L5(x) CRC_L4(x), CRC_L4((x) ^ CRC_BIT4)
#define CRC_L6(x) CRC_L5(x), CRC_L5((x) ^ CRC_BIT5)
#define CRC_L7(x) CRC_L6(x), CRC_L6((x) ^ CRC_BIT6)
#define CRC_L8(x) CRC_L7(x), CRC_L7((x) ^ CRC_BIT7)

static const uint32_t crc32_table[256] = { CRC_L8(0u) };

static uint32_t crc32_bytes(uint32_t crc, const uint8_t *p, size_t len)
{
	while (len--)
		crc = (crc >> 8) ^ crc32_table[(crc ^ *p++) & 0xFF];
	return crc;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* x^(4*128+32) and x^(4*128-32) mod P: one lane over 64 bytes. */
#define K_FOLD4_LO	0x0154442bd4ull
#define K_FOLD4_HI	0x01c6e41596ull
/* x^(128+32) and x^(128-32) mod P: one lane over 16 bytes. */
#define K_FOLD1_LO	0x01751997d0ull
#define K_FOLD1_HI	0x00ccaa009eull
/* x^64 mod P: 64 bits to 32. */
#define K_64_32		0x0163cd6124ull
/* P itself and floor(x^64 / P), bit-reflected: the Barrett step. */
#define K_POLY		0x01db710641ull
#define K_MU		0x01f7011641ull

/* Multiply both 64-bit halves of x by the constants in k and add them
 * to next. */
__attribute__((target("pclmul,sse4.1")))
static __m128i fold_lane(__m128i x, __m128i k, __m128i next)
{
	__m128i lo = _mm_clmulepi64_si128(x, k, 0x00);
	__m128i hi = _mm_clmulepi64_si128(x, k, 0x11);

	return _mm_xor_si128(_mm_xor_si128(lo, hi), next);
}

/* The CRC of len bytes (len >= 64, a multiple of 16) continuing crc. */
__attribute__((target("pclmul,sse4.1")))
static uint32_t crc32_fold(uint32_t crc, const uint8_t *p, size_t len)
{
	const __m128i k4 = _mm_set_epi64x((long long)K_FOLD4_HI, (long long)K_FOLD4_LO);
	const __m128i k1 = _mm_set_epi64x((long long)K_FOLD1_HI, (long long)K_FOLD1_LO);
	const __m128i k5 = _mm_set_epi64x(0, (long long)K_64_32);
	const __m128i pm = _mm_set_epi64x((long long)K_MU, (long long)K_POLY);
	const __m128i low32 = _mm_setr_epi32(-1, 0, -1, 0);
	__m128i x0 = _mm_loadu_si128((const __m128i *)p);
	__m128i x1 = _mm_loadu_si128((const __m128i *)(p + 16));
	__m128i x2 = _mm_loadu_si128((const __m128i *)(p + 32));
	__m128i x3 = _mm_loadu_si128((const __m128i *)(p + 48));
	__m128i t;

	x0 = _mm_xor_si128(x0, _mm_cvtsi32_si128((int)crc));
	for (p += 64, len -= 64; len >= 64; p += 64, len -= 64) {
		x0 = fold_lane(x0, k4, _mm_loadu_si128((const __m128i *)p));
		x1 = fold_lane(x1, k4, _mm_loadu_si128((const __m128i *)(p + 16)));
		x2 = fold_lane(x2, k4, _mm_loadu_si128((const __m128i *)(p + 32)));
		x3 = fold_lane(x3, k4, _mm_loadu_si128((const __m128i *)(p + 48)));
	}
	/* four lanes into one, then the remaining 16-byte blocks */
	x0 = fold_lane(x0, k1, x1);
	x0 = fold_lane(x0, k1, x2);
	x0 = fold_lane(x0, k1, x3);
	for (; len >= 16; p += 16, len -= 16)
		x0 = fold_lane(x0, k1, _mm_loadu_si128((const __m128i *)p));
	/* 128 bits to 64: the low half times x^(128-32) added to the high half */
	t = _mm_clmulepi64_si128(x0, k1, 0x10);
	x0 = _mm_xor_si128(_mm_srli_si128(x0, 8), t);
	/* 64 to 32 */
	t = _mm_srli_si128(x0, 4);
	x0 = _mm_clmulepi64_si128(_mm_and_si128(x0, low32), k5, 0x00);
	x0 = _mm_xor_si128(x0, t);
	/* Barrett: q = (low 32 bits * mu) low 32 bits, then q * P added */
	t = _mm_clmulepi64_si128(_mm_and_si128(x0, low32), pm, 0x10);
	t = _mm_clmulepi64_si128(_mm_and_si128(t, low32), pm, 0x00);
	x0 = _mm_xor_si128(x0, t);
	return (uint32_t)_mm_extract_epi32(x0, 1);
}

static bool have_clmul(void)
{
	return __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
}
#endif

uint32_t f2fs_crc32_le(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

#if defined(__x86_64__) && defined(__GNUC__)
	if (len >= 64 && have_clmul()) {
		size_t bulk = len & ~(size_t)15;

		crc = crc32_fold(crc, p, bulk);
		p += bulk;
		len -= bulk;
	}
#endif
	return crc32_bytes(crc, p, len);
}

uint32_t f2fs_crc32(const void *buf, size_t len)
{
	return f2fs_crc32_le(F2FS_SUPER_MAGIC, buf, len);
}
