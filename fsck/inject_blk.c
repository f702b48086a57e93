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
	if ((uint64_t)c->o->blk >= c->fs->dev->size_bytes / F2FS_BLKSIZE)
		return inj_err("--blk 0x%x is past the end of the device", c->o->blk);
	if (inj_read_block(c, c->o->blk, blk))
		return -1;
	inj_where(c, "block 0x%x", c->o->blk);
	if (inj_set_raw(c, blk, sizeof(blk), &at))
		return -1;
	return inj_write_block(c, c->o->blk, blk);
}

static void list_words(const char *const *w)
{
	for (; *w; w++)
		printf("  %s\n", *w);
}

void inject_list_members(enum inj_target t)
{
	static const char *const cp_extra[] = {
		"crc", "raw (--idx BYTE_OFFSET)", "sit_version_bitmap (--idx BYTE)",
		"nat_version_bitmap (--idx BYTE)", "orphan (--idx ENTRY)", "orphan_add",
		"orphan_entry_count, orphan_blk_addr, orphan_blk_count, orphan_check_sum, "
		"orphan_reserved (--idx BLOCK)", "next_blkaddr (--idx CHAIN_BLOCK)", NULL };
	static const char *const nat[] = {
		"version", "ino", "block_addr", "raw (--idx BYTE_OFFSET in the NAT block)",
		"nid (journal key)", "n_nats (journal count)", "nat_bits_full (--idx NAT_BLOCK)",
		"nat_bits_empty (--idx NAT_BLOCK)", "nat_bits_header", NULL };
	static const char *const sit[] = {
		"vblocks", "valid_blocks", "type", "valid_map (--idx BYTE)",
		"valid_map_bit (--idx BIT)", "mtime", "raw (--idx BYTE_OFFSET in the SIT block)",
		"segno (journal key)", "n_sits (journal count)", NULL };
	static const char *const ssa[] = {
		"entry_type", "check_sum", "nid", "version", "ofs_in_node",
		"raw (--idx BYTE_OFFSET in the SSA block)", NULL };
	static const char *const dent[] = {
		"d_hash", "d_ino", "d_namelen", "d_ftype", "d_name (--str, or --idx BYTE --val)",
		"d_bitmap (--idx SLOT, --val 0|1)", NULL };

	if (t == INJ_NONE)
		return;
	puts("members:");
	switch (t) {
	case INJ_SB:
		inj_field_list(inj_sb_fields, "  ");
		puts("  raw (--idx BYTE_OFFSET in the superblock)");
		break;
	case INJ_CP:
		inj_field_list(inj_cp_fields, "  ");
		list_words(cp_extra);
		break;
	case INJ_NAT: list_words(nat); break;
	case INJ_SIT: list_words(sit); break;
	case INJ_SSA: list_words(ssa); break;
	case INJ_NODE: inject_list_node_members(); break;
	case INJ_DENT: list_words(dent); break;
	default: puts("  raw (--idx BYTE_OFFSET)"); break;
	}
}
