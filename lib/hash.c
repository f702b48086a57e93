/*
 * hash.c - the directory entry name hash (TEA-based, as the kernel's
 * f2fs_dentry_hash() for directories without casefolding).
 *
 * The name is consumed in 16-byte chunks; each chunk becomes four 32-bit
 * words padded with a value derived from the remaining length and is
 * mixed into a 4-word state with 16 rounds of TEA.  "." and ".." hash
 * to 0.  Casefolded directories hash the folded name (not done here).
 */
#include "f2fs_crc.h"

#define TEA_DELTA	0x9E3779B9u
#define TEA_ROUNDS	16
#define HASH_CHUNK	16
#define HASH_WORDS	4

static bool is_dot_or_dotdot(const uint8_t *name, size_t len)
{
	if (len == 1 && name[0] == '.')
		return true;
	return len == 2 && name[0] == '.' && name[1] == '.';
}

static void tea_transform(uint32_t state[HASH_WORDS], const uint32_t in[HASH_WORDS])
{
	uint32_t sum = 0, x = state[0], y = state[1];

	for (int round = 0; round < TEA_ROUNDS; round++) {
		sum += TEA_DELTA;
		x += ((y << 4) + in[0]) ^ (y + sum) ^ ((y >> 5) + in[1]);
		y += ((x << 4) + in[2]) ^ (x + sum) ^ ((x >> 5) + in[3]);
	}
	state[0] += x;
	state[1] += y;
}

/* Turn the next chunk (of a name with `remaining` bytes left) into words. */
static void chunk_to_words(const uint8_t *p, size_t remaining, uint32_t out[HASH_WORDS])
{
	uint32_t pad = (uint32_t)remaining | ((uint32_t)remaining << 8);
	size_t n = remaining < HASH_CHUNK ? remaining : HASH_CHUNK;
	size_t words = 0;
	uint32_t val;

	pad |= pad << 16;
	val = pad;
	for (size_t i = 0; i < n; i++) {
		val = p[i] + (val << 8);
		if (i % 4 == 3) {
			out[words++] = val;
			val = pad;
		}
	}
	/* The partial word (just pad after a whole word), then pad only. */
	if (words < HASH_WORDS)
		out[words++] = val;
	while (words < HASH_WORDS)
		out[words++] = pad;
}

uint32_t f2fs_dentry_hash(const uint8_t *name, size_t len)
{
	uint32_t state[HASH_WORDS] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 };
	uint32_t in[HASH_WORDS];
	const uint8_t *p = name;

	if (is_dot_or_dotdot(name, len))
		return 0;
	for (;;) {
		chunk_to_words(p, len, in);
		tea_transform(state, in);
		if (len <= HASH_CHUNK)
			break;
		p += HASH_CHUNK;
		len -= HASH_CHUNK;
	}
	return state[0];
}
