/*
 * super.c - superblock validation, reading both copies, and writing them.
 *
 * f2fs_sb_validate() applies, in the kernel's order, every check that
 * sanity_check_raw_super() makes at mount, and names the first that fails.
 */
#include <string.h>

#include "f2fs_fs.h"
#include "f2fs_err.h"
#include "f2fs_crc.h"
#include "f2fs_mount.h"
#include "f2fs_super.h"

#define SB_FAIL(msg) do { *why = (msg); return -EFSCORRUPTED; } while (0)

static int check_sb_units(const struct f2fs_super_block *sb, const char **why)
{
	uint32_t log_sectorsize = le32_to_cpu(sb->log_sectorsize);

	if (le32_to_cpu(sb->log_blocksize) != F2FS_BLKSIZE_BITS)
		SB_FAIL("log_blocksize is not 12 (4 KiB blocks)");
	if (le32_to_cpu(sb->log_blocks_per_seg) != F2FS_LOG_BLOCKS_PER_SEG)
		SB_FAIL("log_blocks_per_seg is not 9 (512 blocks per segment)");
	if (log_sectorsize < F2FS_MIN_LOG_SECTOR_SIZE ||
	    log_sectorsize > F2FS_MAX_LOG_SECTOR_SIZE)
		SB_FAIL("log_sectorsize is outside 9..12");
	if (le32_to_cpu(sb->log_sectors_per_block) + log_sectorsize != F2FS_BLKSIZE_BITS)
		SB_FAIL("log_sectors_per_block + log_sectorsize is not 12");
	return 0;
}

static int check_sb_counts(const struct f2fs_super_block *sb, const char **why)
{
	uint32_t segment_count = le32_to_cpu(sb->segment_count);
	uint32_t section_count = le32_to_cpu(sb->section_count);
	uint32_t segs_per_sec = le32_to_cpu(sb->segs_per_sec);
	uint32_t secs_per_zone = le32_to_cpu(sb->secs_per_zone);
	uint32_t main_segs = le32_to_cpu(sb->segment_count_main);
	uint64_t block_count = le64_to_cpu(sb->block_count);

	if (segment_count < F2FS_MIN_SEGMENTS || segment_count > F2FS_MAX_SEGMENT)
		SB_FAIL("segment_count is outside 9..8388608");
	if (section_count < 1 || section_count > main_segs)
		SB_FAIL("section_count is 0 or above segment_count_main");
	if (segs_per_sec < 1 || segs_per_sec > segment_count)
		SB_FAIL("segs_per_sec is 0 or above segment_count");
	if ((uint64_t)section_count * segs_per_sec != main_segs)
		SB_FAIL("segment_count_main is not section_count * segs_per_sec");
	if (segment_count / segs_per_sec < section_count)
		SB_FAIL("section_count exceeds segment_count / segs_per_sec");
	if (segment_count > (block_count >> 9))
		SB_FAIL("segment_count exceeds block_count / 512");
	if (secs_per_zone < 1 || secs_per_zone > section_count)
		SB_FAIL("secs_per_zone is 0 or above section_count");
	return 0;
}

static int check_sb_devices(const struct f2fs_super_block *sb, const char **why)
{
	uint64_t total = 0;
	int i;

	if (!sb->devs[0].path[0])
		return 0;
	for (i = 0; i < MAX_DEVICES && sb->devs[i].path[0]; i++)
		total += le32_to_cpu(sb->devs[i].total_segments);
	if (total != le32_to_cpu(sb->segment_count))
		SB_FAIL("device segment counts do not add up to segment_count");
	return 0;
}

static int check_sb_misc(const struct f2fs_super_block *sb, const char **why)
{
	uint32_t ext = le32_to_cpu(sb->extension_count);

	if (ext > F2FS_MAX_EXTENSION || sb->hot_ext_count > F2FS_MAX_EXTENSION ||
	    ext + sb->hot_ext_count > F2FS_MAX_EXTENSION)
		SB_FAIL("extension_count + hot_ext_count exceeds 64");
	if (le32_to_cpu(sb->cp_payload) > F2FS_MAX_CP_PAYLOAD)
		SB_FAIL("cp_payload exceeds 503");
	if (le32_to_cpu(sb->node_ino) != F2FS_NODE_INO ||
	    le32_to_cpu(sb->meta_ino) != F2FS_META_INO ||
	    le32_to_cpu(sb->root_ino) != F2FS_ROOT_INO)
		SB_FAIL("node_ino/meta_ino/root_ino are not 1/2/3");
	return 0;
}

static int check_sb_boundaries(const struct f2fs_super_block *sb, const char **why)
{
	uint32_t segment0 = le32_to_cpu(sb->segment0_blkaddr);
	uint32_t cp = le32_to_cpu(sb->cp_blkaddr);
	uint32_t sit = le32_to_cpu(sb->sit_blkaddr);
	uint32_t nat = le32_to_cpu(sb->nat_blkaddr);
	uint32_t ssa = le32_to_cpu(sb->ssa_blkaddr);
	uint32_t main_blk = le32_to_cpu(sb->main_blkaddr);
	uint64_t main_end, seg_end;

	if (segment0 != cp)
		SB_FAIL("segment0_blkaddr differs from cp_blkaddr");
	if ((uint32_t)(cp + (le32_to_cpu(sb->segment_count_ckpt) << 9)) != sit)
		SB_FAIL("SIT area does not follow the CP area");
	if ((uint32_t)(sit + (le32_to_cpu(sb->segment_count_sit) << 9)) != nat)
		SB_FAIL("NAT area does not follow the SIT area");
	if ((uint32_t)(nat + (le32_to_cpu(sb->segment_count_nat) << 9)) != ssa)
		SB_FAIL("SSA area does not follow the NAT area");
	if ((uint32_t)(ssa + (le32_to_cpu(sb->segment_count_ssa) << 9)) != main_blk)
		SB_FAIL("main area does not follow the SSA area");
	main_end = (uint64_t)main_blk + ((uint64_t)le32_to_cpu(sb->segment_count_main) << 9);
	seg_end = (uint64_t)segment0 + ((uint64_t)le32_to_cpu(sb->segment_count) << 9);
	/* The kernel accepts main_end < seg_end and shrinks segment_count
	 * itself; f2fs_sb_segment_count_excess() reports that case. */
	if (main_end > seg_end)
		SB_FAIL("main area ends past segment_count");
	return 0;
}

int f2fs_sb_validate(const struct f2fs_super_block *sb, uint64_t dev_blocks,
		     const char **why)
{
	static const char *unused;
	int err;

	if (!why)
		why = &unused;
	*why = NULL;
	if (le32_to_cpu(sb->magic) != F2FS_SUPER_MAGIC)
		SB_FAIL("bad magic");
	if (le32_to_cpu(sb->feature) & F2FS_FEATURE_SB_CHKSUM) {
		if (le32_to_cpu(sb->checksum_offset) != SB_CHKSUM_OFFSET)
			SB_FAIL("checksum_offset is not 3068");
		if (le32_to_cpu(sb->crc) != f2fs_sb_checksum(sb)) {
			*why = "superblock checksum mismatch";
			return -EFSBADCRC;
		}
	}
	if ((err = check_sb_units(sb, why)) ||
	    (err = check_sb_counts(sb, why)) ||
	    (err = check_sb_devices(sb, why)) ||
	    (err = check_sb_misc(sb, why)) ||
	    (err = check_sb_boundaries(sb, why)))
		return err;
	/* On a multi-device volume block_count covers every device. */
	if (dev_blocks && !sb->devs[0].path[0] && le64_to_cpu(sb->block_count) > dev_blocks)
		SB_FAIL("block_count exceeds the device size");
	return 0;
}

uint32_t f2fs_sb_segment_count_excess(const struct f2fs_super_block *sb)
{
	uint64_t main_end = (uint64_t)le32_to_cpu(sb->main_blkaddr) +
			    ((uint64_t)le32_to_cpu(sb->segment_count_main) << 9);
	uint64_t seg_end = (uint64_t)le32_to_cpu(sb->segment0_blkaddr) +
			   ((uint64_t)le32_to_cpu(sb->segment_count) << 9);

	return seg_end > main_end ? (uint32_t)((seg_end - main_end) >> 9) : 0;
}

int f2fs_sb_read_copy(struct f2fs_dev *dev, int index, struct f2fs_super_block *sb)
{
	uint8_t block[F2FS_BLKSIZE];
	int err;

	if (index < 0 || index > 1)
		return -EINVAL;
	err = f2fs_dev_read(dev, (uint64_t)index, 1, block);
	if (err)
		return err;
	memcpy(sb, block + F2FS_SUPER_OFFSET, sizeof(*sb));
	return 0;
}

void f2fs_sb_update_checksum(struct f2fs_super_block *sb)
{
	if (le32_to_cpu(sb->feature) & F2FS_FEATURE_SB_CHKSUM) {
		sb->checksum_offset = cpu_to_le32(SB_CHKSUM_OFFSET);
		sb->crc = cpu_to_le32(f2fs_sb_checksum(sb));
	}
}

int f2fs_sb_write_copy(struct f2fs_dev *dev, int index, const struct f2fs_super_block *sb)
{
	uint8_t block[F2FS_BLKSIZE];

	if (index < 0 || index > 1)
		return -EINVAL;
	memset(block, 0, sizeof(block));
	memcpy(block + F2FS_SUPER_OFFSET, sb, sizeof(*sb));
	return f2fs_dev_write(dev, (uint64_t)index, 1, block);
}
