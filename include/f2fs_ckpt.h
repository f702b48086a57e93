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
