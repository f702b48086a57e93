/*
 * f2fs_super.h - reading, checksumming and writing superblock copies.
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

#endif
