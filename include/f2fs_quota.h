/*
 * f2fs_quota.h - the quota file format (VFS quota v2, revision 1), the one
 * copy every tool uses: mkfs.f2fs writes the first files, fsck.f2fs reads
 * and rebuilds them, sload.f2fs adds its usage to them.
 *
 * A quota file is a sequence of 1 KiB blocks: block 0 holds the header
 * (magic, version) and the info (grace times, flags, the block count and
 * the heads of the free lists); block 1 is the root of a radix tree of
 * depth 4 indexed by the bytes of the id, most significant first, whose
 * references are little-endian block numbers (0: none); the last level
 * points at leaf blocks of 72-byte entries behind a 16-byte header.
 * Every value read from a file is hostile: the readers here only decode
 * bytes, the callers bound block numbers by dqi_blocks and the file size.
 */
#ifndef F2FS_QUOTA_H
#define F2FS_QUOTA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define F2FS_QT_BLKSIZE		1024u	/* the format's block */
#define F2FS_QT_TREEOFF		1u	/* the root of the tree */
#define F2FS_QT_DEPTH		4	/* tree levels, the last points at leaves */
#define F2FS_QT_REFS		(F2FS_QT_BLKSIZE / 4)
#define F2FS_QT_INFO_OFF	8u	/* the info after magic and version */
#define F2FS_QT_LEAF_HDR	16u	/* next/prev free, entry count, pad */
#define F2FS_QT_ENTRY_SIZE	72u	/* v2r1 disk entry */
#define F2FS_QT_PER_LEAF	((F2FS_QT_BLKSIZE - F2FS_QT_LEAF_HDR) / F2FS_QT_ENTRY_SIZE)
#define F2FS_QT_VERSION		1u
#define F2FS_QT_GRACE		604800u	/* the default grace time: 7 days */

/* One entry (id, limits, usage, grace deadlines), decoded. */
struct f2fs_dquot {
	uint32_t dqb_id;
	uint64_t dqb_ihardlimit, dqb_isoftlimit, dqb_curinodes;
	uint64_t dqb_bhardlimit, dqb_bsoftlimit, dqb_curspace;
	uint64_t dqb_btime, dqb_itime;
};

/* The info that follows the header in block 0, decoded. */
struct f2fs_dqinfo {
	uint32_t dqi_bgrace, dqi_igrace, dqi_flags;
	uint32_t dqi_blocks, dqi_free_blk, dqi_free_entry;
};

/* The magic of quota type 0 (user), 1 (group) or 2 (project); 0 for any
 * other type. */
uint32_t f2fs_quota_magic(int type);

/* The slot of id in a tree block of the given depth (0: the root). */
uint32_t f2fs_qt_index(uint32_t id, int depth);

/* Block 0: -EINVAL when its magic is not type's or its version is not 1,
 * else 0 with the info decoded. */
int f2fs_quota_header_read(const uint8_t *blk, int type, struct f2fs_dqinfo *info);

/* Entries: an all-zero entry is a free slot. */
bool f2fs_dquot_unused(const uint8_t *e);
void f2fs_dquot_read(const uint8_t *e, struct f2fs_dquot *d);
/* Writes d; an entry that would read as free is marked used (dqb_itime 1),
 * as the kernel marks it. */
void f2fs_dquot_write(uint8_t *e, const struct f2fs_dquot *d);

/* The 1 KiB blocks f2fs_quota_build() needs for n entries. */
uint32_t f2fs_quota_file_blocks(const struct f2fs_dquot *dq, size_t n);

/* A fresh file holding the n entries dq (ids strictly ascending), with the
 * grace times and flags of info, into buf (buf_blocks zeroed 1 KiB blocks):
 * header, root, then for each id the tree blocks its path lacks and, when
 * the current leaf is full, a new leaf (leaves are filled in id order).
 * *nblk gets the blocks used (dqi_blocks).  -EINVAL for a bad type or ids
 * out of order, -EFBIG when buf is too small. */
int f2fs_quota_build(int type, const struct f2fs_dquot *dq, size_t n,
		     const struct f2fs_dqinfo *info, uint8_t *buf, uint32_t buf_blocks,
		     uint32_t *nblk);

#endif
