/*
 * f2fs_compress.h - compressed clusters: their on-disk header and the
 * decompressors (LZ4, the kernel's default, and LZO and LZO-RLE in lib/
 * itself; ZSTD through its library when the build has it).
 */
#ifndef F2FS_COMPRESS_H
#define F2FS_COMPRESS_H

#include <stddef.h>
#include <stdint.h>

/* i_compress_algorithm */
#define COMPRESS_LZO		0
#define COMPRESS_LZ4		1
#define COMPRESS_ZSTD		2
#define COMPRESS_LZORLE		3

/* Header at the start of a cluster's first compressed block:
 * le32 clen, le32 chksum, le32 reserved[4], then clen bytes of data. */
#define COMPRESS_HEADER_SIZE	24
#define MIN_COMPRESS_LOG_SIZE	2
#define MAX_COMPRESS_LOG_SIZE	8

/* Decompress an LZ4 block (the raw block format, no frame) of srclen
 * bytes into dst.  Returns 0 and the produced length in *outlen, or
 * -EFSCORRUPTED when the input is malformed or would overflow dst. */
int f2fs_lz4_decompress(const uint8_t *src, size_t srclen, uint8_t *dst,
			size_t dstlen, size_t *outlen);

/* Decompress an LZO1X stream (the original bitstream, or version 1 with
 * runs of zeroes: the kernel's lzo-rle) of srclen bytes into dst, as
 * f2fs_lz4_decompress() does. */
int f2fs_lzo1x_decompress(const uint8_t *src, size_t srclen, uint8_t *dst, size_t dstlen,
			  size_t *outlen);

/* Decompress a cluster: blocks holds nblocks compressed blocks (header
 * first); out receives exactly outlen bytes (the whole cluster).
 * -EOPNOTSUPP for an algorithm this build cannot decompress (ZSTD built
 * without libzstd, or an unknown one). */
int f2fs_decompress_cluster(unsigned int algorithm, const uint8_t *blocks,
			    uint32_t nblocks, uint8_t *out, size_t outlen);

#endif
