/*
 * inject_blk.c - --blk ADDR --mb raw with no other target: patch one byte
 * of any block of the device.  No checksum is touched.  Also the member
 * lists that -h prints for each target.
 */
#include <stdio.h>
#include <string.h>

#include "inject.h"

int inject_blk(struct inj_ctx *c)
{
	uint8_t blk[F2FS_BLKSIZE];
	uint32_t at;

	if (strcmp(c->o->mb, "raw"))
		return inj_err("--blk alone only supports --mb raw (choose a target for '%s')",
			       c->o->mb);
	if ((uint64_t)c->o->blk >= f2fs_dev_size(c->fs->dev) / F2FS_BLKSIZE)
		return inj_err("--blk 0x%x is past the end of the device", c->o->blk);
	if (inj_read_block(c, c->o->blk, blk))
		return -1;
	inj_where(c, "block 0x%x", c->o->blk);
	if (inj_set_raw(c, blk, sizeof(blk), &at))
		return -1;
	return inj_write_block(c, c->o->blk, blk);
}

/* A member and what injecting it changes, for -h. */
struct inj_member_help {
	const char *name;
	const char *what;
};

static void list_help(const struct inj_member_help *m)
{
	for (; m->name; m++)
		inj_member_line(m->name, m->what);
}

static const struct inj_member_help cp_extra[] = {
	{ "crc", "inject the checksum of the checkpoint block" },
	{ "raw", "inject byte --idx BYTE_OFFSET of the checkpoint block" },
	{ "sit_version_bitmap", "inject byte --idx BYTE of the SIT version bitmap" },
	{ "nat_version_bitmap", "inject byte --idx BYTE of the NAT version bitmap" },
	{ "orphan", "inject orphan inode entry --idx ENTRY" },
	{ "orphan_add", "inject a new orphan inode entry --val INO" },
	{ "orphan_entry_count", "inject entry_count of orphan block --idx BLOCK" },
	{ "orphan_blk_addr", "inject blk_addr of orphan block --idx BLOCK" },
	{ "orphan_blk_count", "inject blk_count of orphan block --idx BLOCK" },
	{ "orphan_check_sum", "inject check_sum of orphan block --idx BLOCK" },
	{ "orphan_reserved", "inject reserved of orphan block --idx BLOCK" },
	{ "next_blkaddr", "inject the node footer next_blkaddr of roll-forward chain block --idx" },
	{ NULL, NULL },
};

static const struct inj_member_help nat_members[] = {
	{ "version", "inject nat entry version" },
	{ "ino", "inject nat entry ino" },
	{ "block_addr", "inject nat entry block_addr" },
	{ "raw", "inject byte --idx BYTE_OFFSET of the NAT block" },
	{ "nid", "inject the nid key of a NAT journal entry" },
	{ "n_nats", "inject the NAT journal entry count" },
	{ "nat_bits_full", "inject the full bit of NAT block --idx" },
	{ "nat_bits_empty", "inject the empty bit of NAT block --idx" },
	{ "nat_bits_header", "inject the nat_bits header" },
	{ NULL, NULL },
};

static const struct inj_member_help sit_members[] = {
	{ "vblocks", "inject sit entry vblocks (valid block count and type)" },
	{ "valid_blocks", "inject the valid block count of sit entry vblocks" },
	{ "type", "inject the segment type of sit entry vblocks" },
	{ "valid_map", "inject byte --idx BYTE of sit entry valid_map" },
	{ "valid_map_bit", "inject bit --idx BIT of sit entry valid_map" },
	{ "mtime", "inject sit entry mtime" },
	{ "raw", "inject byte --idx BYTE_OFFSET of the SIT block" },
	{ "segno", "inject the segno key of a SIT journal entry" },
	{ "n_sits", "inject the SIT journal entry count" },
	{ NULL, NULL },
};

static const struct inj_member_help ssa_members[] = {
	{ "entry_type", "inject summary footer entry_type" },
	{ "check_sum", "inject summary footer check_sum" },
	{ "nid", "inject summary entry nid" },
	{ "version", "inject summary entry version" },
	{ "ofs_in_node", "inject summary entry ofs_in_node" },
	{ "raw", "inject byte --idx BYTE_OFFSET of the SSA block" },
	{ NULL, NULL },
};

static const struct inj_member_help dent_members[] = {
	{ "d_hash", "inject dentry hash_code" },
	{ "d_ino", "inject dentry ino" },
	{ "d_namelen", "inject dentry name_len" },
	{ "d_ftype", "inject dentry file_type" },
	{ "d_name", "inject the dentry name (--str, or --idx BYTE --val)" },
	{ "d_bitmap", "inject bit --idx SLOT of the dentry bitmap (--val 0|1)" },
	{ NULL, NULL },
};

void inject_list_members(enum inj_target t)
{
	if (t == INJ_NONE)
		return;
	puts("members:");
	switch (t) {
	case INJ_SB:
		inj_field_list(inj_sb_fields, "superblock");
		inj_member_line("raw", "inject byte --idx BYTE_OFFSET of the superblock");
		break;
	case INJ_CP:
		inj_field_list(inj_cp_fields, "checkpoint");
		list_help(cp_extra);
		break;
	case INJ_NAT: list_help(nat_members); break;
	case INJ_SIT: list_help(sit_members); break;
	case INJ_SSA: list_help(ssa_members); break;
	case INJ_NODE: inject_list_node_members(); break;
	case INJ_DENT: list_help(dent_members); break;
	default: inj_member_line("raw", "inject byte --idx BYTE_OFFSET of the block"); break;
	}
}
