/*
 * lzo.c - the LZO1X decompressor, both bitstreams the kernel writes: the
 * original one (f2fs "lzo") and version 1, which adds runs of zeroes
 * (f2fs "lzo-rle", the kernel's lzorle).  Written from the description of
 * the stream in the kernel's Documentation/staging/lzo.rst; every length
 * and distance is checked against both buffers before a byte moves.
 *
 * The stream is a sequence of instructions.  Each one copies a block from
 * the output already produced (a distance back, a length), then 0 to 3
 * literals named in its low bits; what an opcode below 16 means depends on
 * how many literals the instruction before it copied (the state: 0, 1-3,
 * or 4 for a run of 4 or more).  A block copy at distance 16384 with the
 * 0001HLLL form ends the stream.
 */
#include <stdbool.h>
#include <string.h>

#include "f2fs_fs.h"
#include "f2fs_err.h"
#include "f2fs_compress.h"

#define LZO_VERSION_MARK	17	/* first byte 17: a version byte follows */
#define LZO_MIN_VERSIONED	5	/* the shortest versioned stream */
#define LZO_ZERO_RUN_MIN	4
#define LZO_LONG_DIST_BASE	16384

struct lzo_in {
	const uint8_t *ip, *end;
	uint8_t *op, *obeg, *oend;
	int version;
};

static bool need_in(const struct lzo_in *s, size_t n)
{
	return (size_t)(s->end - s->ip) >= n;
}

/* A length whose bits in the opcode were all zero: base, plus 255 for
 * each zero byte that follows, plus the first non-zero byte. */
static int long_length(struct lzo_in *s, size_t base, size_t *len)
{
	size_t n = base;

	for (;;) {
		if (!need_in(s, 1))
			return -EFSCORRUPTED;
		if (*s->ip)
			break;
		s->ip++;
		n += 255;
		if (n > F2FS_BLKSIZE << MAX_COMPRESS_LOG_SIZE)
			return -EFSCORRUPTED;
	}
	*len = n + *s->ip++;
	return 0;
}

static int copy_literals(struct lzo_in *s, size_t n)
{
	if (!need_in(s, n) || n > (size_t)(s->oend - s->op))
		return -EFSCORRUPTED;
	memcpy(s->op, s->ip, n);
	s->op += n;
	s->ip += n;
	return 0;
}

/* len bytes from dist back; byte by byte, since the block may overlap
 * what it produces. */
static int copy_block(struct lzo_in *s, size_t dist, size_t len)
{
	if (dist == 0 || dist > (size_t)(s->op - s->obeg) || len > (size_t)(s->oend - s->op))
		return -EFSCORRUPTED;
	for (size_t i = 0; i < len; i++, s->op++)
		*s->op = *(s->op - dist);
	return 0;
}

static uint32_t le16_at(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8);
}

/* 0001HLLL: a block 16..48 KiB back, the end of the stream, or (version
 * 1) a run of zeroes.  *end: the stream ended; *after: literals after. */
static int op_far_block(struct lzo_in *s, uint8_t t, bool *end, size_t *after)
{
	size_t len, dist;
	uint32_t d;

	if (!need_in(s, 2))
		return -EFSCORRUPTED;
	d = le16_at(s->ip);
	if (s->version >= 1 && (t & 0xf8) == 0x18 && (d & 0xfffc) == 0xfffc) {
		if (!need_in(s, 3))
			return -EFSCORRUPTED;
		len = (((size_t)s->ip[2] << 3) | (t & 7)) + LZO_ZERO_RUN_MIN;
		if (len > (size_t)(s->oend - s->op))
			return -EFSCORRUPTED;
		memset(s->op, 0, len);
		s->op += len;
		s->ip += 3;
		*after = d & 3;
		return 0;
	}
	if (t & 7) {
		len = (t & 7) + 2;
	} else {
		if (long_length(s, 7, &len))
			return -EFSCORRUPTED;
		len += 2;
		if (!need_in(s, 2))
			return -EFSCORRUPTED;
		d = le16_at(s->ip);
	}
	s->ip += 2;
	dist = ((size_t)(t & 8) << 11) + (d >> 2);
	*after = d & 3;
	if (dist == 0) {
		*end = true;
		return 0;
	}
	return copy_block(s, dist + LZO_LONG_DIST_BASE, len);
}

/* One instruction at opcode t, given the state the previous one left. */
static int instruction(struct lzo_in *s, uint8_t t, size_t state, bool *end, size_t *after)
{
	size_t len;

	if (t >= 64) {			/* 01LDDDSS, 1LLDDDSS: within 2 KiB */
		if (!need_in(s, 1))
			return -EFSCORRUPTED;
		*after = t & 3;
		len = (t >> 5) + 1;
		return copy_block(s, ((size_t)*s->ip++ << 3) + ((t >> 2) & 7) + 1, len);
	}
	if (t >= 32) {			/* 001LLLLL: within 16 KiB */
		uint32_t d;

		if (t & 31)
			len = (t & 31) + 2;
		else if (long_length(s, 31, &len))
			return -EFSCORRUPTED;
		else
			len += 2;
		if (!need_in(s, 2))
			return -EFSCORRUPTED;
		d = le16_at(s->ip);
		s->ip += 2;
		*after = d & 3;
		return copy_block(s, (d >> 2) + 1, len);
	}
	if (t >= 16)
		return op_far_block(s, t, end, after);
	if (state == 0) {		/* 0000LLLL: a run of 4 or more literals */
		if (t)
			len = t + 3;
		else if (long_length(s, 15, &len))
			return -EFSCORRUPTED;
		else
			len += 3;
		*after = 4;
		return copy_literals(s, len) ? -EFSCORRUPTED : 1;
	}
	if (!need_in(s, 1))		/* 0000DDSS: 2 bytes near, 3 bytes 2-3 KiB back */
		return -EFSCORRUPTED;
	*after = t & 3;
	if (state < 4)
		return copy_block(s, ((size_t)*s->ip++ << 2) + ((t >> 2) & 3) + 1, 2);
	return copy_block(s, ((size_t)*s->ip++ << 2) + ((t >> 2) & 3) + 2049, 3);
}

int f2fs_lzo1x_decompress(const uint8_t *src, size_t srclen, uint8_t *dst, size_t dstlen,
			  size_t *outlen)
{
	struct lzo_in s = { .ip = src, .end = src + srclen, .op = dst, .obeg = dst,
			    .oend = dst + dstlen, .version = 0 };
	size_t state = 0, after;
	bool end = false;
	int r;

	if (srclen >= LZO_MIN_VERSIONED && src[0] == LZO_VERSION_MARK) {
		s.version = src[1];
		s.ip += 2;
	}
	if (need_in(&s, 1) && *s.ip > 17) {	/* a first run of literals */
		state = (size_t)*s.ip++ - 17;
		if (copy_literals(&s, state))
			return -EFSCORRUPTED;
		if (state > 4)
			state = 4;
	}
	while (!end) {
		if (!need_in(&s, 1))
			return -EFSCORRUPTED;
		r = instruction(&s, *s.ip++, state, &end, &after);
		if (r < 0)
			return r;
		if (r == 1) {			/* a literal run: no literals after it */
			state = after;
			continue;
		}
		if (end)
			break;
		if (after && copy_literals(&s, after))
			return -EFSCORRUPTED;
		state = after;
	}
	*outlen = (size_t)(s.op - dst);
	return 0;
}
