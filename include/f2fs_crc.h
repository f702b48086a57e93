/*
 * f2fs_crc.h - F2FS checksums and the dentry name hash.
 *
 * f2fs_crc32() is the reflected CRC-32 (polynomial 0xEDB88320) seeded with
 * the F2FS magic, without pre- or post-inversion, as the kernel uses it for
 * the superblock, checkpoint and node checksums.
 */
#ifndef F2FS_CRC_H
#define F2FS_CRC_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

struct f2fs_super_block;
struct f2fs_checkpoint;
struct f2fs_node;

/* Raw reflected CRC-32 update, no inversion (the kernel's crc32_le()). */
uint32_t f2fs_crc32_le(uint32_t crc, const void *buf, size_t len);
/* crc32_le seeded with F2FS_SUPER_MAGIC. */
uint32_t f2fs_crc32(const void *buf, size_t len);

/* Superblock checksum over the first SB_CHKSUM_OFFSET bytes. */
uint32_t f2fs_sb_checksum(const struct f2fs_super_block *sb);
/* Checkpoint checksum for a 4096-byte cp block, honouring checksum_offset.
 * Returns -EFSCORRUPTED (as a negative int through *err) when the offset
 * is outside [192, 4092]; otherwise stores the value in *crc. */
int f2fs_cp_checksum(const struct f2fs_checkpoint *cp, uint32_t *crc);
/* True when the stored cp checksum is valid. */
bool f2fs_cp_checksum_ok(const struct f2fs_checkpoint *cp);

/* Inode checksum (INODE_CHKSUM feature).  chksum_seed is
 * f2fs_crc32_le(~0, sb->uuid, 16). */
uint32_t f2fs_inode_chksum_seed(const uint8_t uuid[16]);
uint32_t f2fs_inode_checksum(uint32_t chksum_seed, const struct f2fs_node *node);
/* Whether an inode block carries a checksum (feature on, EXTRA_ATTR with
 * i_extra_isize large enough). */
bool f2fs_inode_has_checksum(uint32_t sb_features, const struct f2fs_node *node);

/* Dentry hash of a name (TEA-based; "." and ".." hash to 0). */
uint32_t f2fs_dentry_hash(const uint8_t *name, size_t len);

#endif
