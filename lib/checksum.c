/*
 * checksum.c - the checksums stored in F2FS metadata: superblock crc,
 * checkpoint crc (at a movable offset) and the per-inode checksum of the
 * INODE_CHKSUM feature.  All are f2fs_crc32_le() variants; this file only
 * knows which bytes each one covers.
 */
#include "f2fs_crc.h"
#include "f2fs_err.h"
#include "f2fs_fs.h"

#define INODE_CSUM_OFFSET	offsetof(struct f2fs_inode, i_inode_checksum)
#define INODE_CSUM_SIZE		sizeof(uint32_t)
/* Start of the extra area; a field is present if it ends within extra_isize. */
#define INODE_EXTRA_START	offsetof(struct f2fs_inode, i_addr)

uint32_t f2fs_sb_checksum(const struct f2fs_super_block *sb)
{
	return f2fs_crc32(sb, SB_CHKSUM_OFFSET);
}

static bool cp_checksum_offset_valid(uint32_t offset)
{
	return offset >= CP_MIN_CHKSUM_OFFSET && offset <= CP_CHKSUM_OFFSET;
}

int f2fs_cp_checksum(const struct f2fs_checkpoint *cp, uint32_t *crc)
{
	const uint8_t *block = (const uint8_t *)cp;
	uint32_t offset = le32_to_cpu(cp->checksum_offset);
	uint32_t after = offset + (uint32_t)sizeof(uint32_t);
	uint32_t c;

	if (!cp_checksum_offset_valid(offset))
		return -EFSCORRUPTED;
	/* Everything but the 4 checksum bytes, as one running CRC. */
	c = f2fs_crc32(block, offset);
	if (after < F2FS_BLKSIZE)
		c = f2fs_crc32_le(c, block + after, F2FS_BLKSIZE - after);
	*crc = c;
	return 0;
}

bool f2fs_cp_checksum_ok(const struct f2fs_checkpoint *cp)
{
	uint32_t offset = le32_to_cpu(cp->checksum_offset);
	uint32_t crc;

	if (f2fs_cp_checksum(cp, &crc) < 0)
		return false;
	return get_le32((const uint8_t *)cp + offset) == crc;
}

uint32_t f2fs_inode_chksum_seed(const uint8_t uuid[16])
{
	return f2fs_crc32_le(0xFFFFFFFFu, uuid, 16);
}

uint32_t f2fs_inode_checksum(uint32_t chksum_seed, const struct f2fs_node *node)
{
	static const uint8_t zero[INODE_CSUM_SIZE];
	const uint8_t *block = (const uint8_t *)node;
	size_t after = INODE_CSUM_OFFSET + INODE_CSUM_SIZE;
	uint32_t c;

	/* The on-disk bytes of ino and i_generation are already little-endian. */
	c = f2fs_crc32_le(chksum_seed, &node->footer.ino, sizeof(node->footer.ino));
	c = f2fs_crc32_le(c, &node->i.i_generation, sizeof(node->i.i_generation));
	c = f2fs_crc32_le(c, block, INODE_CSUM_OFFSET);
	c = f2fs_crc32_le(c, zero, sizeof(zero));
	return f2fs_crc32_le(c, block + after, F2FS_BLKSIZE - after);
}

bool f2fs_inode_has_checksum(uint32_t sb_features, const struct f2fs_node *node)
{
	const struct f2fs_inode *inode = &node->i;
	size_t extra_isize;

	if (!(sb_features & F2FS_FEATURE_INODE_CHKSUM))
		return false;
	if (node->footer.nid != node->footer.ino)
		return false;
	if (!(inode->i_inline & F2FS_EXTRA_ATTR))
		return false;
	extra_isize = le16_to_cpu(inode->i_extra_isize);
	return INODE_CSUM_OFFSET + INODE_CSUM_SIZE <= INODE_EXTRA_START + extra_isize;
}
