/*
 * inject_sb.c - --sb: change one member of one superblock copy.
 *
 * Works from the raw copies (blocks 0 and 1), so it also works on a
 * volume whose superblocks no longer validate.  Only the chosen copy is
 * written.  The crc is recomputed afterwards when SB_CHKSUM is set in the
 * changed copy, unless crc itself, the bytes it sits in, or
 * checksum_offset is the member changed, or --no-fix-checksum is given.
 */
#include <string.h>

#include "f2fs_crc.h"
#include "inject.h"

#define SB(m, fl) INJ_SCALAR(struct f2fs_super_block, m, fl)
#define SBA(m, fl) INJ_ARRAY(struct f2fs_super_block, m, fl)
#define SBS(m) INJ_STRING(struct f2fs_super_block, m)

const struct inj_field inj_sb_fields[] = {
	SB(magic, INJ_F_HEX),
	SB(major_ver, 0),
	SB(minor_ver, 0),
	SB(log_sectorsize, 0),
	SB(log_sectors_per_block, 0),
	SB(log_blocksize, 0),
	SB(log_blocks_per_seg, 0),
	SB(segs_per_sec, 0),
	SB(secs_per_zone, 0),
	SB(checksum_offset, 0),
	SB(block_count, 0),
	SB(section_count, 0),
	SB(segment_count, 0),
	SB(segment_count_ckpt, 0),
	SB(segment_count_sit, 0),
	SB(segment_count_nat, 0),
	SB(segment_count_ssa, 0),
	SB(segment_count_main, 0),
	SB(segment0_blkaddr, INJ_F_HEX),
	SB(cp_blkaddr, INJ_F_HEX),
	SB(sit_blkaddr, INJ_F_HEX),
	SB(nat_blkaddr, INJ_F_HEX),
	SB(ssa_blkaddr, INJ_F_HEX),
	SB(main_blkaddr, INJ_F_HEX),
	SB(root_ino, 0),
	SB(node_ino, 0),
	SB(meta_ino, 0),
	SBA(uuid, INJ_F_HEX),
	SBA(volume_name, INJ_F_HEX),
	SB(extension_count, 0),
	{ "extension_list", offsetof(struct f2fs_super_block, extension_list),
	  F2FS_EXTENSION_LEN, F2FS_MAX_EXTENSION, 0, INJ_F_STR },
	SB(cp_payload, 0),
	SBS(version),
	SBS(init_version),
	SB(feature, INJ_F_HEX),
	SB(encryption_level, 0),
	SBA(encrypt_pw_salt, INJ_F_HEX),
	{ "devs.path", offsetof(struct f2fs_super_block, devs), MAX_PATH_LEN, MAX_DEVICES,
	  sizeof(struct f2fs_device), INJ_F_STR },
	{ "devs.total_segments", offsetof(struct f2fs_super_block, devs) +
	  offsetof(struct f2fs_device, total_segments), 4, MAX_DEVICES,
	  sizeof(struct f2fs_device), 0 },
	SBA(qf_ino, 0),
	SB(hot_ext_count, 0),
	SB(s_encoding, 0),
	SB(s_encoding_flags, INJ_F_HEX),
	SBA(s_stop_reason, 0),
	SBA(s_errors, INJ_F_HEX),
	SBA(reserved, INJ_F_HEX),
	SB(crc, INJ_F_HEX),
	{ NULL, 0, 0, 0, 0, 0 },
};

static int choose_copy(struct inj_ctx *c)
{
	if (c->o->pack)
		return c->o->pack - 1;
	return c->fs->sb_index >= 0 ? c->fs->sb_index : 0;
}

/* Apply the member; [*start, *end) receives the bytes changed. */
static int apply_member(struct inj_ctx *c, struct f2fs_super_block *sb,
			uint32_t *start, uint32_t *end)
{
	const struct inj_field *f;

	if (!strcmp(c->o->mb, "raw")) {
		if (inj_set_raw(c, (uint8_t *)sb, sizeof(*sb), start))
			return -1;
		*end = *start + 1;
		return 0;
	}
	f = inj_field_find(inj_sb_fields, c->o->mb);
	if (!f)
		return inj_err("unknown or unsupported member '%s' of --sb "
			       "(inject.f2fs --sb 0 -h lists them)", c->o->mb);
	if (inj_field_apply(c, f, (uint8_t *)sb, sizeof(*sb)))
		return -1;
	inj_field_range(c, f, start, end);
	return 0;
}

static void fix_crc(struct inj_ctx *c, struct f2fs_super_block *sb, uint32_t start,
		    uint32_t end)
{
	uint32_t off_lo = offsetof(struct f2fs_super_block, checksum_offset);

	if (c->o->no_fix_checksum)
		return;
	if (end > SB_CHKSUM_OFFSET && start < SB_CHKSUM_OFFSET + 4)
		return;
	if (end > off_lo && start < off_lo + 4)
		return;
	if (!(le32_to_cpu(sb->feature) & F2FS_FEATURE_SB_CHKSUM))
		return;
	sb->crc = cpu_to_le32(f2fs_sb_checksum(sb));
	inj_dbg(c, 1, "superblock crc recomputed: 0x%x", le32_to_cpu(sb->crc));
}

int inject_sb(struct inj_ctx *c)
{
	uint8_t block[F2FS_BLKSIZE];
	struct f2fs_super_block *sb = (struct f2fs_super_block *)(block + F2FS_SUPER_OFFSET);
	int copy = choose_copy(c);
	uint32_t start, end;

	if (inj_read_block(c, (uint64_t)copy, block))
		return -1;
	if (apply_member(c, sb, &start, &end))
		return -1;
	fix_crc(c, sb, start, end);
	inj_where(c, "sb %d (block %d)", copy + 1, copy);
	return inj_write_block(c, (uint64_t)copy, block);
}
