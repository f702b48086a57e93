/*
 * f2fs_commit.h - committing a new checkpoint atomically.
 *
 * f2fs_commit() writes every dirty NAT and SIT block to its inactive copy,
 * then a complete checkpoint pack with a new version into the pack that is
 * not current, and only after a flush the pack's last block, which is what
 * makes the new pack valid.  Until that block is on disk the current
 * checkpoint and everything it refers to are untouched, so a power cut at
 * any write leaves either the old state or the new one.  All changes of a
 * run therefore go out in one checkpoint.
 *
 * Node and data blocks the caller changed must already have been written
 * out of place (to blocks free in the current checkpoint) before the call.
 */
#ifndef F2FS_COMMIT_H
#define F2FS_COMMIT_H

#include <stdbool.h>
#include <stdint.h>
#include "f2fs_fs.h"

struct f2fs_fs;
struct f2fs_sit_model;
struct f2fs_nat_model;

struct f2fs_commit_plan {
	uint64_t version;		/* new checkpoint_ver */
	uint32_t curseg_segno[NR_CURSEG_TYPE];
	uint16_t curseg_blkoff[NR_CURSEG_TYPE];
	uint8_t alloc_type[NR_CURSEG_TYPE];
	/* summaries of the six logs (entries; journals are taken from the
	 * models): data logs 0..2, node logs 3..5 */
	struct f2fs_summary_block sums[NR_CURSEG_TYPE];
	const uint32_t *orphans;
	uint32_t n_orphans;
	uint64_t user_block_count;
	uint64_t valid_block_count;
	uint32_t valid_node_count;
	uint32_t valid_inode_count;
	uint32_t free_segment_count;
	uint32_t next_free_nid;
	uint64_t elapsed_time;
	/* Flags to carry over or set: UMOUNT, FSCK, CRC_RECOVERY,
	 * NOCRC_RECOVERY, TRIMMED, QUOTA_NEED_FSCK, ...  COMPACT_SUM,
	 * ORPHAN_PRESENT, NAT_BITS and LARGE_NAT_BITMAP are decided by
	 * f2fs_commit() itself. */
	uint32_t flags;
	bool nat_bits;			/* write nat_bits (moves the NAT journal
					 * into NAT blocks); needs UMOUNT */
	bool node_summaries;		/* write node summaries (needs UMOUNT) */
};

/* A plan that rewrites the current checkpoint as it is, one version up. */
void f2fs_commit_plan_init(struct f2fs_commit_plan *p, const struct f2fs_fs *fs);

/* Commit.  sit and nat must be fully loaded models of fs; their dirty
 * entries are written and they come out clean.  On success fs describes
 * the new checkpoint (cp_buf, cp_index, version bitmaps, cursegs). */
int f2fs_commit(struct f2fs_fs *fs, struct f2fs_sit_model *sit,
		struct f2fs_nat_model *nat, const struct f2fs_commit_plan *p);

#endif
