/*
 * f2fs_compressor.h - compressing a cluster for writing (LZ4 in lib/
 * itself, ZSTD through libzstd and LZO through liblzo2 when the build has
 * them).  The output is the
 * payload the cluster header's clen counts; the caller adds the header.
 */
#ifndef F2FS_COMPRESSOR_H
#define F2FS_COMPRESSOR_H

#include <stddef.h>
#include <stdint.h>

/* Compress inlen bytes of in into out (outcap bytes).  0 and *clen, or
 * -ENOSPC when the result would not fit in outcap (the cluster is then
 * stored uncompressed), -EOPNOTSUPP for an algorithm this build cannot
 * write, -ENOMEM. */
int f2fs_compress_cluster(unsigned int algorithm, const uint8_t *in, size_t inlen,
			  uint8_t *out, size_t outcap, size_t *clen);

#endif
