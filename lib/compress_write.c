/*
 * compress_write.c - compressing clusters: a greedy LZ4 block compressor
 * (written from the published block format: sequences of literals and a
 * match of at least 4 bytes at an offset below 64 KiB, the last 5 bytes
 * always literals and no match starting in the last 12), ZSTD frames
 * through libzstd and LZO1X-1 through liblzo2.
 */
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif
#ifdef HAVE_LZO
#include <lzo1x.h>
#endif

#include "f2fs_fs.h"
#include "f2fs_err.h"
#include "f2fs_compress.h"
#include "f2fs_compressor.h"

#define LZ4_HASH_BITS	14
#define LZ4_MAX_OFFSET	65535u
#define LZ4_LAST_LITERALS 5u
#define LZ4_MATCH_LIMIT	12u

struct lz4_out {
	uint8_t *p, *end;
};

static uint32_t read32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint32_t lz4_hash(uint32_t v)
{
	return (v * 2654435761u) >> (32 - LZ4_HASH_BITS);
}

static int put_byte(struct lz4_out *o, uint8_t b)
{
	if (o->p >= o->end)
		return -ENOSPC;
	*o->p++ = b;
	return 0;
}

/* The bytes after the token for a length of 15 or more. */
static int put_long_length(struct lz4_out *o, size_t len)
{
	int err = 0;

	for (len -= 15; len >= 255 && !err; len -= 255)
		err = put_byte(o, 255);
	return err ? err : put_byte(o, (uint8_t)len);
}

static int put_sequence(struct lz4_out *o, const uint8_t *lit, size_t litlen, uint32_t offset,
			size_t matchlen)
{
	size_t ml = matchlen ? matchlen - 4 : 0;
	uint8_t token = (uint8_t)(((litlen < 15 ? litlen : 15) << 4) | (ml < 15 ? ml : 15));
	int err = put_byte(o, token);

	if (!err && litlen >= 15)
		err = put_long_length(o, litlen);
	if (err)
		return err;
	if ((size_t)(o->end - o->p) < litlen)
		return -ENOSPC;
	memcpy(o->p, lit, litlen);
	o->p += litlen;
	if (!matchlen)
		return 0;
	err = put_byte(o, (uint8_t)(offset & 0xff));
	if (!err)
		err = put_byte(o, (uint8_t)(offset >> 8));
	if (!err && ml >= 15)
		err = put_long_length(o, ml);
	return err;
}

static int lz4_compress(const uint8_t *in, size_t inlen, uint8_t *out, size_t outcap, size_t *clen)
{
	struct lz4_out o = { out, out + outcap };
	uint32_t *table = calloc((size_t)1 << LZ4_HASH_BITS, sizeof(*table));
	size_t ip = 0, anchor = 0;
	int err = 0;

	if (!table)
		return -ENOMEM;
	if (inlen > LZ4_MATCH_LIMIT) {
		size_t limit = inlen - LZ4_MATCH_LIMIT, match_end = inlen - LZ4_LAST_LITERALS;

		while (ip < limit && !err) {
			uint32_t seq = read32(in + ip), h = lz4_hash(seq), ref = table[h];
			size_t len = 4;

			table[h] = (uint32_t)ip + 1;	/* 0: empty */
			if (!ref || ip - (ref - 1) > LZ4_MAX_OFFSET || read32(in + ref - 1) != seq) {
				ip++;
				continue;
			}
			ref--;
			while (ip + len < match_end && in[ref + len] == in[ip + len])
				len++;
			err = put_sequence(&o, in + anchor, ip - anchor, (uint32_t)(ip - ref), len);
			ip += len;
			anchor = ip;
		}
	}
	if (!err)
		err = put_sequence(&o, in + anchor, inlen - anchor, 0, 0);
	free(table);
	if (!err)
		*clen = (size_t)(o.p - out);
	return err;
}

#ifdef HAVE_LZO
/* LZO1X-1 (the kernel's "lzo" algorithm, not lzo-rle).  liblzo2 does not
 * bound its output, so it goes to a buffer of the worst case size first. */
static int lzo_compress(const uint8_t *in, size_t inlen, uint8_t *out, size_t outcap, size_t *clen)
{
	size_t worst = inlen + inlen / 16 + 64 + 3;
	uint8_t *buf = malloc(worst), *wrk = malloc(LZO1X_1_MEM_COMPRESS);
	lzo_uint n = worst;
	int err = 0;

	if (!buf || !wrk)
		err = -ENOMEM;
	else if (lzo_init() != LZO_E_OK || lzo1x_1_compress(in, inlen, buf, &n, wrk) != LZO_E_OK)
		err = -EIO;
	else if (n > outcap)
		err = -ENOSPC;
	if (!err) {
		memcpy(out, buf, n);
		*clen = n;
	}
	free(buf);
	free(wrk);
	return err;
}
#endif

int f2fs_compress_cluster(unsigned int algorithm, const uint8_t *in, size_t inlen,
			  uint8_t *out, size_t outcap, size_t *clen)
{
	switch (algorithm) {
	case COMPRESS_LZ4:
		return lz4_compress(in, inlen, out, outcap, clen);
#ifdef HAVE_ZSTD
	case COMPRESS_ZSTD: {
		size_t n = ZSTD_compress(out, outcap, in, inlen, 1);

		if (ZSTD_isError(n))
			return -ENOSPC;	/* mostly: the output would not fit */
		*clen = n;
		return 0;
	}
#endif
#ifdef HAVE_LZO
	case COMPRESS_LZO:
		return lzo_compress(in, inlen, out, outcap, clen);
#endif
	default:
		return -EOPNOTSUPP;
	}
}
