/*
 * f2fs_super.h - reading, checksumming and writing superblock copies, and
 * rebuilding one superblock from two damaged copies.
 * (Validation is f2fs_sb_validate() in f2fs_mount.h.)
 */
#ifndef F2FS_SUPER_H
#define F2FS_SUPER_H

#include <stdint.h>
#include "f2fs_fs.h"
#include "f2fs_dev.h"

/* Read copy 0 (block 0) or copy 1 (block 1). */
int f2fs_sb_read_copy(struct f2fs_dev *dev, int index, struct f2fs_super_block *sb);
/* Write one copy as a whole block (bytes 0..1023 and the tail are zero). */
int f2fs_sb_write_copy(struct f2fs_dev *dev, int index, const struct f2fs_super_block *sb);
/* Recompute crc (and checksum_offset) when SB_CHKSUM is on. */
void f2fs_sb_update_checksum(struct f2fs_super_block *sb);
/* Segments counted by segment_count beyond the end of the main area (the
 * kernel silently shrinks segment_count when this is not 0). */
uint32_t f2fs_sb_segment_count_excess(const struct f2fs_super_block *sb);
/* The block after the main area's last (what the kernel may read or
 * write up to). */
uint64_t f2fs_sb_main_end(const struct f2fs_super_block *sb);
/* How many blocks of the main area lie past the end of a single device
 * of dev_blocks blocks (a truncated image); 0 when it holds them all, for
 * a multi-device volume, or when dev_blocks is 0 (unknown). */
uint64_t f2fs_sb_short_blocks(const struct f2fs_super_block *sb, uint64_t dev_blocks);

/* The fields a rebuild derives instead of trusting a copy: the fixed log
 * sizes, the reserved inode numbers, checksum_offset (from the features),
 * the segment counts (from the area addresses and each other), block_count
 * (from the device) and cp_payload (from the checkpoint).  Index i runs
 * from 0 to f2fs_sb_derivable_count() - 1. */
unsigned int f2fs_sb_derivable_count(void);
const char *f2fs_sb_derivable_name(unsigned int i);
uint64_t f2fs_sb_derivable_get(const struct f2fs_super_block *sb, unsigned int i);

/* f2fs_sb_rebuild()'s cp_payload when no checkpoint pack implies one. */
#define F2FS_CP_PAYLOAD_UNKNOWN UINT32_MAX

/* One superblock from the copies that carry the magic (copies[i] NULL for
 * one without): every field that cannot be derived must be the same in
 * both (crc, version, s_errors and s_stop_reason aside), every derivable
 * one is derived, and the result must pass f2fs_sb_validate().  dev_blocks
 * is the device size in 4 KiB blocks; cp_payload what the checkpoint
 * implies.  A multi-device volume is not rebuilt.  Returns 0 with *out
 * (crc updated), or -EFSCORRUPTED with *why (static). */
int f2fs_sb_rebuild(const struct f2fs_super_block *const copies[2], uint64_t dev_blocks,
		    uint32_t cp_payload, struct f2fs_super_block *out, const char **why);

#endif
