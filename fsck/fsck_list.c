/*
 * fsck_list.c - fsck.f2fs -l: the superblock in use and the chosen
 * checkpoint as "name:" lines padded to 30 columns, then the value, in
 * the order and spelling of f2fs-tools 1.15's fsck.f2fs -l (scripts parse
 * it); then what f2fs-tools does not print: which superblock copy and
 * checkpoint pack are in use (numbered 1 and 2, as inject.f2fs --sb/--cp
 * and dump.f2fs name them) and the feature bits.
 */
#include <inttypes.h>

#include "fsck.h"

static void line_u64(const char *name, uint64_t v)
{
	char key[64];

	snprintf(key, sizeof(key), "%.60s:", name);
	printf("%-30s %" PRIu64 "\n", key, v);
}

#define SB32(f) line_u64(#f, le32_to_cpu(sb->f))
#define CP32(f) line_u64(#f, le32_to_cpu(cp->f))
#define CP64(f) line_u64(#f, le64_to_cpu(cp->f))

/* One code point as UTF-8 at out (room for 4 bytes); its length. */
static size_t utf8_put(uint32_t c, char *out)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xc0 | (c >> 6));
		out[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xe0 | (c >> 12));
		out[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (c >> 18));
	out[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	out[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

/* The volume label: UTF-16LE (surrogate pairs joined), printed as UTF-8;
 * a lone surrogate is '?'. */
static void print_label(const struct f2fs_super_block *sb)
{
	char out[MAX_VOLUME_NAME * 3 + 1];
	size_t n = 0;

	for (int i = 0; i < MAX_VOLUME_NAME && n + 4 < sizeof(out); i++) {
		uint32_t c = le16_to_cpu(sb->volume_name[i]);

		if (!c)
			break;
		if (c >= 0xd800 && c < 0xdc00 && i + 1 < MAX_VOLUME_NAME &&
		    le16_to_cpu(sb->volume_name[i + 1]) >= 0xdc00 &&
		    le16_to_cpu(sb->volume_name[i + 1]) < 0xe000) {
			c = 0x10000 + ((c - 0xd800) << 10) +
			    (le16_to_cpu(sb->volume_name[++i]) - 0xdc00);
		} else if (c >= 0xd800 && c < 0xe000) {
			c = '?';
		}
		n += utf8_put(c, out + n);
	}
	out[n] = '\0';
	printf("%-30s %s\n", "Filesystem volume name:", out);
}

static void print_sb(const struct f2fs_super_block *sb)
{
	char version[VERSION_LEN + 1];

	SB32(magic);
	SB32(major_ver);
	print_label(sb);
	SB32(minor_ver);
	SB32(log_sectorsize);
	SB32(log_sectors_per_block);
	SB32(log_blocksize);
	SB32(log_blocks_per_seg);
	SB32(segs_per_sec);
	SB32(secs_per_zone);
	SB32(checksum_offset);
	line_u64("block_count", le64_to_cpu(sb->block_count));
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
	SB32(crc);
	for (size_t i = 0; i < VERSION_LEN; i++) {
		char c = (char)sb->version[i];

		version[i] = c && (c < 0x20 || c > 0x7e) ? '?' : c;
	}
	version[VERSION_LEN] = '\0';
	printf("%-30s%s\n", "version", version);
}

static void print_curseg(const char *what, const struct f2fs_checkpoint *cp, bool node)
{
	static const char *const logs[2][3] = {
		{ "CURSEG_HOT_DATA", "CURSEG_WARM_DATA", "CURSEG_COLD_DATA" },
		{ "CURSEG_HOT_NODE", "CURSEG_WARM_NODE", "CURSEG_COLD_NODE" },
	};
	char name[64];

	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "alloc_type[%s]", logs[node][i]);
		line_u64(name, cp->alloc_type[node ? CURSEG_HOT_NODE + i : CURSEG_HOT_DATA + i]);
	}
	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "cur_%s_segno[%d]", what, i);
		line_u64(name, le32_to_cpu(node ? cp->cur_node_segno[i] : cp->cur_data_segno[i]));
	}
	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "cur_%s_blkoff[%d]", what, i);
		line_u64(name, le16_to_cpu(node ? cp->cur_node_blkoff[i] : cp->cur_data_blkoff[i]));
	}
}

static void print_cp(const struct f2fs_checkpoint *cp)
{
	CP64(checkpoint_ver);
	CP64(user_block_count);
	CP64(valid_block_count);
	CP32(rsvd_segment_count);
	CP32(overprov_segment_count);
	CP32(free_segment_count);
	print_curseg("node", cp, true);
	print_curseg("data", cp, false);
	CP32(ckpt_flags);
	CP32(cp_pack_total_block_count);
	CP32(cp_pack_start_sum);
	CP32(valid_node_count);
	CP32(valid_inode_count);
	CP32(next_free_nid);
	CP32(sit_ver_bitmap_bytesize);
	CP32(nat_ver_bitmap_bytesize);
	CP32(checksum_offset);
	CP64(elapsed_time);
	line_u64("sit_nat_version_bitmap[0]", cp->sit_nat_version_bitmap[0]);	/* a byte */
}

void fsck_print_sb_cp(struct fsck_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;

	if (!fs || fs->sb_index < 0) {
		printf("no valid superblock\n");
		return;
	}
	print_sb(&fs->sb);
	if (fs->cp)
		print_cp(fs->cp);
	printf("\n\n");
	line_u64("superblock copy in use", (uint64_t)fs->sb_index + 1);
	printf("%-30s 0x%" PRIx32 "\n", "feature:", le32_to_cpu(fs->sb.feature));
	if (fs->cp)
		line_u64("checkpoint pack in use", (uint64_t)fs->cp_index + 1);
	else
		printf("no valid checkpoint\n");
}
