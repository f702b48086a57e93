/*
 * compress.c - reading compressed clusters: the LZ4 block decompressor
 * (written from the published block format; every length and offset is
 * checked against both buffers), ZSTD through its library when the build
 * has it, LZO and LZO-RLE through lib/lzo.c, and the cluster header.
 */
#include <string.h>
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

#include "f2fs_fs.h"
#include "f2fs_err.h"
#include "f2fs_compress.h"

#define LZ4_MIN_MATCH 4

/* A length field: 4 bits in the token, 15 meaning "more bytes follow",
 * each adding up to 255. */
static int read_length(const uint8_t **ip, const uint8_t *iend, size_t *len)
{
	uint8_t b;

	if (*len != 15)
		return 0;
	do {
		if (*ip >= iend)
			return -EFSCORRUPTED;
		b = *(*ip)++;
		*len += b;
		if (*len > ((size_t)1 << 30))
			return -EFSCORRUPTED;
	} while (b == 255);
	return 0;
}

int f2fs_lz4_decompress(const uint8_t *src, size_t srclen, uint8_t *dst,
			size_t dstlen, size_t *outlen)
{
	const uint8_t *ip = src, *iend = src + srclen;
	uint8_t *op = dst, *oend = dst + dstlen;

	while (ip < iend) {
		uint8_t token = *ip++;
		size_t lit = token >> 4, match = token & 15, offset, i;

		if (read_length(&ip, iend, &lit) || lit > (size_t)(iend - ip) ||
		    lit > (size_t)(oend - op))
			return -EFSCORRUPTED;
		memcpy(op, ip, lit);
		op += lit;
		ip += lit;
		if (ip == iend)
			break;		/* the last sequence has literals only */
		if (iend - ip < 2)
			return -EFSCORRUPTED;
		offset = (size_t)ip[0] | ((size_t)ip[1] << 8);
		ip += 2;
		if (offset == 0 || offset > (size_t)(op - dst))
			return -EFSCORRUPTED;
		if (read_length(&ip, iend, &match))
			return -EFSCORRUPTED;
		match += LZ4_MIN_MATCH;
		if (match > (size_t)(oend - op))
			return -EFSCORRUPTED;
		/* byte by byte: the match may overlap what it produces */
		for (i = 0; i < match; i++, op++)
			*op = *(op - offset);
	}
	*outlen = (size_t)(op - dst);
	return 0;
}

#ifdef HAVE_ZSTD
/* One zstd frame, as the kernel's f2fs writes it per cluster. */
static int zstd_decompress(const uint8_t *src, size_t srclen, uint8_t *dst, size_t dstlen,
			   size_t *outlen)
{
	size_t n = ZSTD_decompress(dst, dstlen, src, srclen);

	if (ZSTD_isError(n))
		return -EFSCORRUPTED;
	*outlen = n;
	return 0;
}
#endif

int f2fs_decompress_cluster(unsigned int algorithm, const uint8_t *blocks,
			    uint32_t nblocks, uint8_t *out, size_t outlen)
{
	size_t avail = (size_t)nblocks * F2FS_BLKSIZE, clen, got = 0;
	int err;

	if (avail < COMPRESS_HEADER_SIZE)
		return -EFSCORRUPTED;
	clen = get_le32(blocks);
	if (clen > avail - COMPRESS_HEADER_SIZE)
		return -EFSCORRUPTED;
	switch (algorithm) {
	case COMPRESS_LZ4:
		err = f2fs_lz4_decompress(blocks + COMPRESS_HEADER_SIZE, clen, out, outlen, &got);
		break;
#ifdef HAVE_ZSTD
	case COMPRESS_ZSTD:
		err = zstd_decompress(blocks + COMPRESS_HEADER_SIZE, clen, out, outlen, &got);
		break;
#endif
	case COMPRESS_LZO:
	case COMPRESS_LZORLE:
		err = f2fs_lzo1x_decompress(blocks + COMPRESS_HEADER_SIZE, clen, out, outlen, &got);
		break;
	default:
		return -EOPNOTSUPP;
	}
	if (err)
		return err;
	return got == outlen ? 0 : -EFSCORRUPTED;
}
