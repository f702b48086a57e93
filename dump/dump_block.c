/*
 * dump_block.c - the -b view: which area a block address lies in and what
 * it is there (superblock, checkpoint pack and role, SIT or NAT copy and
 * whether it is the current one, SSA of which segment); for the main area
 * the segment and section, whether the SIT marks the block valid, its SSA
 * entry (from the checkpoint for current segments), the owning node and
 * whether the NAT agrees, and for data blocks the owning inode and file
 * offset.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "f2fs_layout.h"

static void meta_cp(struct dump_ctx *ctx, uint32_t addr)
{
	struct f2fs_fs *fs = ctx->fs;
	uint32_t rel = addr - le32_to_cpu(fs->sb.cp_blkaddr);
	uint32_t pack = rel / BLKS_PER_SEG, off = rel % BLKS_PER_SEG;
	uint32_t nbb = f2fs_nat_bits_blocks(le32_to_cpu(fs->sb.segment_count_nat));
	uint32_t total = le32_to_cpu(fs->cp->cp_pack_total_block_count);
	uint32_t payload = le32_to_cpu(fs->sb.cp_payload);
	const char *role = "unused";

	kv_str(&ctx->out, "area", "checkpoint");
	kv_u64(&ctx->out, "pack", pack + 1);
	kv_u64(&ctx->out, "offset_in_pack", off);
	kv_bool(&ctx->out, "current_pack", (int)pack == fs->cp_index);
	if ((int)pack != fs->cp_index)
		role = "other pack";
	else if (off == 0 || off + 1 == total)
		role = "checkpoint block";
	else if (off <= payload)
		role = "payload (version bitmaps)";
	else if (off < le32_to_cpu(fs->cp->cp_pack_start_sum))
		role = "orphan block";
	else if (off < total)
		role = "summary";
	else if (off >= BLKS_PER_SEG - nbb && (fs->cp_flags & CP_NAT_BITS_FLAG))
		role = "nat_bits";
	kv_str(&ctx->out, "role", role);
}

static void meta_sit(struct dump_ctx *ctx, uint32_t addr)
{
	struct f2fs_fs *fs = ctx->fs;
	uint32_t rel = addr - fs->sit_blkaddr;
	uint32_t copy = fs->sit_blocks ? rel / fs->sit_blocks : 0;
	uint32_t blk = fs->sit_blocks ? rel % fs->sit_blocks : rel;

	kv_str(&ctx->out, "area", "SIT");
	kv_u64(&ctx->out, "copy", copy);
	kv_u64(&ctx->out, "sit_block", blk);
	kv_u64(&ctx->out, "first_segno", (uint64_t)blk * SIT_ENTRY_PER_BLOCK);
	if (blk < fs->sit_blk_cnt)
		kv_bool(&ctx->out, "current_copy",
			(uint32_t)f2fs_test_bit(blk, fs->sit_bitmap) == copy);
	else
		kv_str(&ctx->out, "current_copy", "beyond the SIT in use");
}

static void meta_nat(struct dump_ctx *ctx, uint32_t addr)
{
	struct f2fs_fs *fs = ctx->fs;
	uint32_t rel = addr - fs->nat_blkaddr;
	uint32_t copy = (rel % (2 * BLKS_PER_SEG)) / BLKS_PER_SEG;
	uint32_t blk = rel / (2 * BLKS_PER_SEG) * BLKS_PER_SEG + rel % BLKS_PER_SEG;

	kv_str(&ctx->out, "area", "NAT");
	kv_u64(&ctx->out, "copy", copy);
	kv_u64(&ctx->out, "nat_block", blk);
	kv_u64(&ctx->out, "first_nid", (uint64_t)blk * NAT_ENTRY_PER_BLOCK);
	if (blk < fs->nat_blocks)
		kv_bool(&ctx->out, "current_copy",
			(uint32_t)f2fs_test_bit(blk, fs->nat_bitmap) == copy);
}

/* ---- main area -------------------------------------------------------- */

static int read_summary(struct dump_ctx *ctx, uint32_t segno, struct f2fs_summary_block *sum,
			const char **source)
{
	int cur = dump_curseg_of(ctx, segno);

	if (cur >= 0 && ctx->fs->cursum_loaded) {
		*sum = ctx->fs->cursum[cur];
		*source = "checkpoint";
		return 0;
	}
	*source = "ssa";
	if ((uint64_t)segno >= (uint64_t)le32_to_cpu(ctx->fs->sb.segment_count_ssa) * BLKS_PER_SEG)
		return -EFSCORRUPTED;
	return f2fs_dev_read(ctx->fs->dev, (uint64_t)ctx->fs->ssa_blkaddr + segno, 1, sum);
}

static void print_owner_inode(struct dump_ctx *ctx, uint32_t ino)
{
	struct f2fs_node node;
	char name[F2FS_NAME_LEN + 1];
	uint32_t len;

	kv_u64(&ctx->out, "owner_ino", ino);
	if (dump_read_node(ctx, ino, &node, NULL) || le32_to_cpu(node.footer.ino) != ino) {
		kv_str(&ctx->out, "owner_name", NULL);
		return;
	}
	len = le32_to_cpu(node.i.i_namelen);
	dump_cstr(name, sizeof(name), node.i.i_name, len < F2FS_NAME_LEN ? len : F2FS_NAME_LEN);
	kv_str(&ctx->out, "owner_name", name);
	kv_u64(&ctx->out, "owner_i_mode", le16_to_cpu(node.i.i_mode));
}

static void node_block(struct dump_ctx *ctx, uint32_t addr)
{
	struct f2fs_node node;
	struct f2fs_nat_entry ne;
	uint32_t nid;

	if (f2fs_dev_read(ctx->fs->dev, addr, 1, &node)) {
		kv_str(&ctx->out, "node", "unreadable");
		return;
	}
	nid = le32_to_cpu(node.footer.nid);
	kv_u64(&ctx->out, "footer_nid", nid);
	kv_u64(&ctx->out, "footer_ino", le32_to_cpu(node.footer.ino));
	kv_u64(&ctx->out, "footer_node_ofs", le32_to_cpu(node.footer.flag) >> OFFSET_BIT_SHIFT);
	kv_u64(&ctx->out, "footer_cp_ver", le64_to_cpu(node.footer.cp_ver));
	if (dump_nat_lookup(ctx, nid, &ne, NULL)) {
		kv_str(&ctx->out, "nat", "nid out of range");
		return;
	}
	kv_u64(&ctx->out, "nat_blkaddr", le32_to_cpu(ne.block_addr));
	kv_bool(&ctx->out, "nat_points_here", le32_to_cpu(ne.block_addr) == addr);
	print_owner_inode(ctx, le32_to_cpu(node.footer.ino));
}

static void data_block(struct dump_ctx *ctx, uint32_t addr, const struct f2fs_summary *e)
{
	struct f2fs_node node;
	uint32_t nid = le32_to_cpu(e->nid), ofs = le16_to_cpu(e->ofs_in_node);
	uint32_t node_ofs, slot_addr = 0, naddr = 0;
	int err = dump_read_node(ctx, nid, &node, &naddr);

	if (err) {
		kv_str(&ctx->out, "parent_node", err == -ENOENT ? "not in use" : f2fs_strerror(err));
		return;
	}
	kv_u64(&ctx->out, "parent_node_blkaddr", naddr);
	node_ofs = le32_to_cpu(node.footer.flag) >> OFFSET_BIT_SHIFT;
	if (le32_to_cpu(node.footer.ino) == nid) {
		uint32_t slot = dump_inode_extra_words(&node.i) + ofs;

		if (ofs < dump_addrs_per_inode(ctx, &node.i))
			slot_addr = le32_to_cpu(node.i.i_addr[slot]);
		node_ofs = 0;
	} else if (ofs < ADDRS_PER_BLOCK) {	/* bounds only; the owner decides the count */
		slot_addr = le32_to_cpu(node.dn.addr[ofs]);
	}
	kv_bool(&ctx->out, "parent_points_here", slot_addr == addr);
	if (le32_to_cpu(node.footer.ino) == nid) {
		kv_u64(&ctx->out, "file_offset_block", ofs);
	} else {
		struct f2fs_node inode;
		uint32_t ino = le32_to_cpu(node.footer.ino);

		if (!dump_read_node(ctx, ino, &inode, NULL))
			kv_u64(&ctx->out, "file_offset_block",
			       dump_start_bidx(ctx, &inode.i, node_ofs) + ofs);
	}
	print_owner_inode(ctx, le32_to_cpu(node.footer.ino));
}

static int main_block(struct dump_ctx *ctx, uint32_t addr)
{
	struct f2fs_fs *fs = ctx->fs;
	uint32_t segno = f2fs_blkaddr_to_segno(fs, addr);
	uint32_t off = (addr - fs->main_blkaddr) % BLKS_PER_SEG;
	struct f2fs_summary_block *sum;
	const char *source;
	struct dump_seg seg;
	unsigned int type;
	int err, cur = dump_curseg_of(ctx, segno);

	kv_str(&ctx->out, "area", "main");
	kv_u64(&ctx->out, "segno", segno);
	kv_u64(&ctx->out, "secno", fs->segs_per_sec ? segno / fs->segs_per_sec : 0);
	kv_u64(&ctx->out, "blkoff", off);
	kv_str(&ctx->out, "current_log", cur >= 0 ? dump_seg_type_name((unsigned int)cur) : NULL);
	err = dump_sit_one(ctx, segno, &seg);
	if (err)
		return err;
	type = GET_SIT_TYPE(&seg.raw);
	kv_str(&ctx->out, "segment_type", dump_seg_type_name(type));
	kv_u64(&ctx->out, "segment_valid_blocks", GET_SIT_VBLOCKS(&seg.raw));
	kv_bool(&ctx->out, "valid_in_sit", f2fs_test_bit(off, seg.raw.valid_map));
	if (f2fs_is_ro_image(fs)) {
		/* no SSA to name a data block's owner; a node names its own */
		kv_str(&ctx->out, "summary_source", "none (read-only image)");
		if (type >= CURSEG_HOT_NODE && type < NR_CURSEG_TYPE)
			node_block(ctx, addr);
		return 0;
	}
	sum = malloc(sizeof(*sum));
	if (!sum)
		return dump_fail(ctx, -ENOMEM, "out of memory");
	err = read_summary(ctx, segno, sum, &source);
	if (err) {
		free(sum);
		return dump_fail(ctx, err, "cannot read the summary of segment %u", segno);
	}
	kv_str(&ctx->out, "summary_source", source);
	kv_str(&ctx->out, "summary_type", sum->footer.entry_type == SUM_TYPE_NODE ? "node" : "data");
	kv_u64(&ctx->out, "ssa_nid", le32_to_cpu(sum->entries[off].nid));
	kv_u64(&ctx->out, "ssa_version", sum->entries[off].version);
	kv_u64(&ctx->out, "ssa_ofs_in_node", le16_to_cpu(sum->entries[off].ofs_in_node));
	if (sum->footer.entry_type == SUM_TYPE_NODE || (type >= CURSEG_HOT_NODE && type < NR_CURSEG_TYPE))
		node_block(ctx, addr);
	else if (sum->entries[off].nid)
		data_block(ctx, addr, &sum->entries[off]);
	free(sum);
	return 0;
}

int dump_block_view(struct dump_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;
	uint32_t addr = ctx->opt.blkaddr;
	uint64_t main_end = (uint64_t)fs->main_blkaddr + (uint64_t)fs->main_segs * BLKS_PER_SEG;
	int err = 0;

	if (ctx->out.json)
		out_obj_begin(&ctx->out, "block");
	else
		fprintf(ctx->out.f, "== block 0x%x (%u) ==\n", addr, addr);
	kv_u64(&ctx->out, "blkaddr", addr);
	if (addr < 2)
		kv_str(&ctx->out, "area", addr ? "superblock copy 2" : "superblock copy 1");
	else if (addr < le32_to_cpu(fs->sb.cp_blkaddr))
		kv_str(&ctx->out, "area", "unused (before segment0)");
	else if (addr < fs->sit_blkaddr)
		meta_cp(ctx, addr);
	else if (addr < fs->nat_blkaddr)
		meta_sit(ctx, addr);
	else if (addr < fs->ssa_blkaddr)
		meta_nat(ctx, addr);
	else if (addr < fs->main_blkaddr) {
		kv_str(&ctx->out, "area", "SSA");
		kv_u64(&ctx->out, "segno", addr - fs->ssa_blkaddr);
	} else if (addr < main_end)
		err = main_block(ctx, addr);
	else if (addr < le64_to_cpu(fs->sb.block_count))
		kv_str(&ctx->out, "area", "unused (after the main area)");
	else
		kv_str(&ctx->out, "area", "outside the volume");
	if (ctx->out.json)
		out_obj_end(&ctx->out);
	return err;
}
