/*
 * sload_compress.c - compressed files (-c) on volumes with the
 * compression feature, laid out as the kernel writes them: clusters of
 * 2^i_log_cluster_size blocks; a full cluster that compresses to at least
 * -m blocks fewer is COMPRESS_ADDR, the compressed blocks (a 24-byte
 * header with the length, then the algorithm's output) and NEW_ADDR for
 * the rest, every slot counted in i_blocks and i_compr_blocks counting
 * the slots without a block (with -r those slots are released: NULL_ADDR,
 * not counted, the file immutable); other clusters are written as they are
 * and clusters that are all hole stay holes.  Each compressed cluster is
 * decompressed again and compared before it is written.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "f2fs_err.h"
#include "f2fs_compress.h"
#include "f2fs_compressor.h"
#include "sload.h"

bool sload_has_extension(const char *name, const char *ext)
{
	size_t nl = strlen(name), el = strlen(ext);

	if (!el || nl <= el + 1 || name[nl - el - 1] != '.')
		return false;
	return strcasecmp(name + nl - el, ext) == 0;
}

bool sload_should_compress(const struct sload_ctx *c, const char *name)
{
	if (!c->o.compress || !(c->fs->features & F2FS_FEATURE_COMPRESSION))
		return false;
	for (int k = 0; k < c->o.n_exclude; k++)
		if (sload_has_extension(name, c->o.ext_exclude[k]))
			return false;
	if (!c->o.n_include)
		return true;
	for (int k = 0; k < c->o.n_include; k++)
		if (sload_has_extension(name, c->o.ext_include[k]))
			return true;
	return false;
}

/* Whether blocks [first, first + n) hold any data (SEEK_DATA). */
static bool has_data(int fd, uint64_t first, uint64_t n)
{
	off_t at = lseek(fd, (off_t)(first * F2FS_BLKSIZE), SEEK_DATA);

	return at >= 0 && (uint64_t)at < (first + n) * F2FS_BLKSIZE;
}

struct cbufs {
	uint8_t *raw, *packed, *check;
	uint32_t cluster;
};

/* Compress one full cluster into packed; the number of blocks it takes,
 * or 0 to store it as it is. */
static uint32_t pack_cluster(const struct sload_ctx *c, struct cbufs *b)
{
	size_t raw = (size_t)b->cluster * F2FS_BLKSIZE, clen = 0;
	size_t cap = raw - F2FS_BLKSIZE - COMPRESS_HEADER_SIZE;
	uint32_t nblk;

	memset(b->packed, 0, raw);
	if (f2fs_compress_cluster(c->o.algorithm, b->raw, raw, b->packed + COMPRESS_HEADER_SIZE,
				  cap, &clen))
		return 0;
	nblk = (uint32_t)((clen + COMPRESS_HEADER_SIZE + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE);
	if (b->cluster - nblk < c->o.min_saved)
		return 0;
	put_le32(b->packed, (uint32_t)clen);
	if (f2fs_decompress_cluster(c->o.algorithm, b->packed, nblk, b->check, raw) ||
	    memcmp(b->check, b->raw, raw))
		return 0;
	return nblk;
}

static int write_cluster(struct sload_ctx *c, struct sload_fmap *m, struct cbufs *b,
			 uint64_t first, uint32_t n, uint64_t *saved)
{
	uint32_t nblk = n == b->cluster ? pack_cluster(c, b) : 0;
	int err;

	if (!nblk) {
		for (uint32_t j = 0, e = 0; j < n && !e; j++)
			if ((e = sload_fmap_add(m, first + j, b->raw + (size_t)j * F2FS_BLKSIZE,
						 CURSEG_COLD_DATA)))
				return e;
		return 0;
	}
	/* released (-r): the slots without a block are given back, as the
	 * kernel's F2FS_IOC_RELEASE_COMPRESS_BLOCKS does */
	err = sload_fmap_reserve(m, first, COMPRESS_ADDR, !c->o.release);
	for (uint32_t j = 0; j < nblk && !err; j++)
		err = sload_fmap_add(m, first + 1 + j, b->packed + (size_t)j * F2FS_BLKSIZE,
				     CURSEG_COLD_DATA);
	for (uint32_t j = nblk + 1; j < b->cluster && !err && !c->o.release; j++)
		err = sload_fmap_reserve(m, first + j, NEW_ADDR, true);
	if (!c->o.release)
		*saved += b->cluster - nblk;
	c->st.compressed_clusters++;
	return err;
}

int sload_write_compressed(struct sload_ctx *c, struct f2fs_node *n, uint32_t ino, int fd,
			   uint64_t *blocks)
{
	uint64_t size = le64_to_cpu(n->i.i_size), nb = (size + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE;
	struct cbufs b = { .cluster = 1u << c->o.log_cluster };
	size_t raw = (size_t)b.cluster * F2FS_BLKSIZE;
	uint64_t saved = 0;
	struct sload_fmap m;
	int err = 0;

	n->i.i_flags |= cpu_to_le32(F2FS_COMPR_FL);
	n->i.i_compress_algorithm = (uint8_t)c->o.algorithm;
	n->i.i_log_cluster_size = (uint8_t)c->o.log_cluster;
	n->i.i_compress_flag = 0;
	b.raw = malloc(raw);
	b.packed = malloc(raw);
	b.check = malloc(raw);
	if (!b.raw || !b.packed || !b.check)
		err = -ENOMEM;
	sload_fmap_init(&m, c, n, ino, false);
	for (uint64_t first = 0; first < nb && !err; first += b.cluster) {
		uint32_t cn = (uint32_t)(nb - first < b.cluster ? nb - first : b.cluster);
		uint64_t bytes = (uint64_t)cn * F2FS_BLKSIZE;

		if (!has_data(fd, first, cn))
			continue;
		if (first * F2FS_BLKSIZE + bytes > size)
			bytes = size - first * F2FS_BLKSIZE;
		memset(b.raw, 0, raw);
		err = sload_read_full(fd, b.raw, (size_t)bytes, (off_t)(first * F2FS_BLKSIZE));
		if (!err)
			err = write_cluster(c, &m, &b, first, cn, &saved);
	}
	if (!err)
		err = sload_fmap_finish(&m);
	*blocks += m.blocks;
	n->i.i_compr_blocks = cpu_to_le64(saved);
	if (c->o.release) {
		n->i.i_inline |= F2FS_COMPRESS_RELEASED;
		n->i.i_flags |= cpu_to_le32(F2FS_IMMUTABLE_FL);
	}
	sload_fmap_free(&m);
	free(b.raw);
	free(b.packed);
	free(b.check);
	c->st.compressed_files++;
	return err;
}
