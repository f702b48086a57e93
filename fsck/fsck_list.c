/*
 * fsck_list.c - fsck.f2fs -l: the superblock in use and the chosen
 * checkpoint as "name: value" lines, the way f2fs-tools prints them.
 */
#include <inttypes.h>

#include "fsck.h"

#define SB32(f) printf("%-28s: %" PRIu32 "\n", #f, le32_to_cpu(sb->f))
#define CP32(f) printf("%-28s: %" PRIu32 "\n", #f, le32_to_cpu(cp->f))
#define CP64(f) printf("%-28s: %" PRIu64 "\n", #f, le64_to_cpu(cp->f))

static void print_sb(const struct f2fs_super_block *sb, int index)
{
	printf("superblock copy             : %d\n", index);
	SB32(magic);
	SB32(log_sectorsize);
	SB32(log_sectors_per_block);
	SB32(log_blocksize);
	SB32(log_blocks_per_seg);
	SB32(segs_per_sec);
	SB32(secs_per_zone);
	SB32(checksum_offset);
	printf("%-28s: %" PRIu64 "\n", "block_count", le64_to_cpu(sb->block_count));
	SB32(section_count);
	SB32(segment_count);
	SB32(segment_count_ckpt);
	SB32(segment_count_sit);
	SB32(segment_count_nat);
	SB32(segment_count_ssa);
	SB32(segment_count_main);
	SB32(segment0_blkaddr);
	SB32(cp_blkaddr);
	SB32(sit_blkaddr);
	SB32(nat_blkaddr);
	SB32(ssa_blkaddr);
	SB32(main_blkaddr);
	SB32(root_ino);
	SB32(node_ino);
	SB32(meta_ino);
	SB32(cp_payload);
	printf("%-28s: 0x%" PRIx32 "\n", "feature", le32_to_cpu(sb->feature));
	SB32(crc);
}

static void print_cp(const struct f2fs_checkpoint *cp, int pack)
{
	printf("checkpoint pack             : %d\n", pack + 1);
	CP64(checkpoint_ver);
	CP64(user_block_count);
	CP64(valid_block_count);
	CP32(rsvd_segment_count);
	CP32(overprov_segment_count);
	CP32(free_segment_count);
	for (int i = 0; i < NR_CURSEG_NODE_TYPE; i++)
		printf("cur_node_segno[%d]           : %" PRIu32 " (blkoff %u)\n", i,
		       le32_to_cpu(cp->cur_node_segno[i]), le16_to_cpu(cp->cur_node_blkoff[i]));
	for (int i = 0; i < NR_CURSEG_DATA_TYPE; i++)
		printf("cur_data_segno[%d]           : %" PRIu32 " (blkoff %u)\n", i,
		       le32_to_cpu(cp->cur_data_segno[i]), le16_to_cpu(cp->cur_data_blkoff[i]));
	printf("%-28s: 0x%" PRIx32 "\n", "ckpt_flags", le32_to_cpu(cp->ckpt_flags));
	CP32(cp_pack_total_block_count);
	CP32(cp_pack_start_sum);
	CP32(valid_node_count);
	CP32(valid_inode_count);
	CP32(next_free_nid);
	CP32(sit_ver_bitmap_bytesize);
	CP32(nat_ver_bitmap_bytesize);
	CP32(checksum_offset);
	CP64(elapsed_time);
}

void fsck_print_sb_cp(struct fsck_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;

	if (!fs || fs->sb_index < 0) {
		printf("no valid superblock\n");
		return;
	}
	print_sb(&fs->sb, fs->sb_index);
	if (fs->cp)
		print_cp(fs->cp, fs->cp_index);
	else
		printf("no valid checkpoint\n");
}
