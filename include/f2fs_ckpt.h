/*
 * f2fs_ckpt.h - checkpoint packs: validation, version bitmaps, summaries.
 */
#ifndef F2FS_CKPT_H
#define F2FS_CKPT_H

#include <stdbool.h>
#include <stdint.h>
#include "f2fs_fs.h"
#include "f2fs_dev.h"

struct f2fs_fs;

/* Checks of one cp block alone: checksum_offset range, crc, total count. */
int f2fs_cp_block_validate(const struct f2fs_checkpoint *cp, const char **why);
/* Read and validate the pack starting at pack_start: first and last cp
 * blocks valid and of equal version.  first receives the first block. */
int f2fs_cp_pack_read(struct f2fs_dev *dev, uint32_t pack_start,
		      uint8_t first[F2FS_BLKSIZE], uint64_t *version,
		      const char **why);
/* A pack whose only fault is its checksum: checksum_offset and
 * cp_pack_total_block_count in range, the crc wrong, and the last block a
 * byte copy of the first.  first receives the first block. */
int f2fs_cp_pack_read_crc_only(struct f2fs_dev *dev, uint32_t pack_start,
			       uint8_t first[F2FS_BLKSIZE], uint64_t *version,
			       const char **why);
/* The cp_payload a pack implies: cp_pack_start_sum less the checkpoint
 * block and the orphan blocks (their count read from the last of them). */
int f2fs_cp_implied_payload(struct f2fs_dev *dev, uint32_t pack_start,
			    const struct f2fs_checkpoint *cp, uint32_t *payload);
/* cp_pack_start_sum as the kernel lays a pack out (do_checkpoint()): the
 * cp block, cp_payload blocks, then the orphan blocks when the pack says
 * it has some (their count read from the first and checked against the
 * last).  -EFSCORRUPTED when the orphan blocks do not agree. */
int f2fs_cp_layout_start_sum(struct f2fs_dev *dev, uint32_t pack_start,
			     const struct f2fs_checkpoint *cp, uint32_t payload,
			     uint32_t *start_sum);
/* The bits of ckpt_flags that say where a pack's parts are, as the pack's
 * block counts imply them (cp_pack_total_block_count = 2 + cp_payload +
 * orphan blocks + 1 or 2 compacted or 3 normal data summary blocks + 3
 * node summary blocks when UMOUNT or FASTBOOT): CP_ORPHAN_PRESENT_FLAG,
 * CP_COMPACT_SUM_FLAG, and CP_UMOUNT_FLAG (kept FASTBOOT when set) or
 * neither.  *flags is ckpt_flags with those bits so derived; the others
 * as they are.  -EFSCORRUPTED when the counts fit no layout. */
int f2fs_cp_layout_flags(struct f2fs_dev *dev, uint32_t pack_start,
			 const struct f2fs_checkpoint *cp, uint32_t payload, uint32_t *flags);
/* Whether version a is newer than b, as the kernel compares them (signed
 * difference). */
static inline bool f2fs_cp_version_newer(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) > 0;
}
/* The checkpoint_ver (and cp_pack_total_block_count) a block claims,
 * valid or not: to tell a damaged newer pack from an older one. */
int f2fs_cp_claimed_version(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t *version,
			    uint32_t *total);
/* Store cp's crc at its checksum_offset; -EFSCORRUPTED when that offset
 * is out of range. */
int f2fs_cp_seal(struct f2fs_checkpoint *cp);
/* The checkpoint_ver for a new pack written over the pack not in use: one
 * above the pack in use, and above what the overwritten pack's first and
 * last blocks claim when that is newer (a newest pack the check did not
 * use), so that a write cut in the middle never pairs the new first block
 * with an old last block of the same version. */
uint64_t f2fs_cp_next_version(const struct f2fs_fs *fs);

/* Parts of f2fs_ckpt_validate() (f2fs_mount.h): the fields mkfs sets once
 * (reserved and overprovision segments, user_block_count), and where the
 * pack's parts lie (version bitmap sizes and places, cp_pack_start_sum,
 * the large NAT bitmap layout, room for nat_bits). */
int f2fs_ckpt_check_geometry(const struct f2fs_super_block *sb,
			     const struct f2fs_checkpoint *cp, const char **why);
int f2fs_ckpt_check_layout(const struct f2fs_super_block *sb,
			   const struct f2fs_checkpoint *cp, const char **why);

/* A checkpoint field f2fs_ckpt_derive() recomputed. */
struct f2fs_cp_derived {
	const char *field;	/* kernel name */
	uint64_t found, value;
};
#define F2FS_CP_MAX_DERIVED 4
/* Recompute in cp the fields f2fs_sanity_check_ckpt() checks that are a
 * function of the superblock, where they fail: the SIT and NAT version
 * bitmap sizes, cp_pack_start_sum of a pack without orphan blocks, and
 * CP_NAT_BITS_FLAG where nat_bits cannot fit.  Returns how many changed,
 * each described in out[]. */
unsigned int f2fs_ckpt_derive(const struct f2fs_super_block *sb, struct f2fs_checkpoint *cp,
			      struct f2fs_cp_derived out[F2FS_CP_MAX_DERIVED]);

/* nat_bits block count as the kernel's mount check computes it. */
uint32_t f2fs_cp_nat_bits_blocks_kernel_check(uint32_t segment_count_nat);
/* Byte offsets of the SIT and NAT version bitmaps in the loaded buffer
 * (cp block followed by cp_payload blocks). */
int f2fs_cp_bitmap_locate(const struct f2fs_checkpoint *cp, uint32_t cp_payload,
			  uint32_t *sit_off, uint32_t *nat_off);
bool f2fs_cp_has_node_summaries(const struct f2fs_checkpoint *cp);

/* Compacted data summaries: unpack, count blocks, pack. */
int f2fs_unpack_compacted_summaries(const struct f2fs_checkpoint *cp,
				    const uint8_t *blocks, uint32_t nblocks,
				    struct f2fs_summary_block sums[NR_CURSEG_DATA_TYPE]);
uint32_t f2fs_compacted_summary_blocks(const uint32_t entries[NR_CURSEG_DATA_TYPE]);
void f2fs_pack_compacted_summaries(const struct f2fs_summary_block sums[NR_CURSEG_DATA_TYPE],
				   const uint32_t entries[NR_CURSEG_DATA_TYPE],
				   uint8_t *blocks, uint32_t nblocks);

/* Load fs->cursum[] from the chosen pack (node logs from the SSA when
 * the pack has no node summaries). */
int f2fs_fs_load_cursums(struct f2fs_fs *fs);

#endif
