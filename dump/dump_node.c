/*
 * dump_node.c - finding and reading node blocks: NAT lookup (journal
 * first, as the kernel does, then the current copy of the NAT block, with
 * a one-block cache), node reads with footer checks, and the geometry of
 * an inode's address slots and inline area.
 */
#include <string.h>

#include "dump.h"
#include "f2fs_compress.h"
#include "f2fs_crc.h"

static const struct nat_journal_entry *nat_journal_find(struct dump_ctx *ctx, uint32_t nid)
{
	int slot = f2fs_nat_journal_slot(ctx->fs, nid);

	return slot < 0 ? NULL : &f2fs_nat_journal(ctx->fs)->nat_j.entries[slot];
}

int dump_nat_lookup(struct dump_ctx *ctx, uint32_t nid, struct f2fs_nat_entry *e,
		    bool *from_journal)
{
	struct f2fs_fs *fs = ctx->fs;
	const struct nat_journal_entry *je;
	uint32_t blk = nid / (uint32_t)NAT_ENTRY_PER_BLOCK;
	int err;

	if (nid >= fs->max_nid)
		return -ERANGE;
	je = nat_journal_find(ctx, nid);
	if (from_journal)
		*from_journal = je != NULL;
	if (je) {
		*e = je->ne;
		return 0;
	}
	if (ctx->nat_cache_block != blk) {
		ctx->nat_cache_block = UINT32_MAX;
		err = f2fs_dev_read(fs->dev, f2fs_current_nat_addr(fs, blk), 1, ctx->nat_cache);
		if (err)
			return err;
		ctx->nat_cache_block = blk;
	}
	*e = ((const struct f2fs_nat_block *)ctx->nat_cache)->entries[nid % NAT_ENTRY_PER_BLOCK];
	return 0;
}

bool dump_is_valid_data_addr(const struct dump_ctx *ctx, uint32_t addr)
{
	return addr != NULL_ADDR && addr != NEW_ADDR && addr != COMPRESS_ADDR &&
	       f2fs_blkaddr_in_main(ctx->fs, addr);
}

int dump_read_node(struct dump_ctx *ctx, uint32_t nid, struct f2fs_node *buf,
		   uint32_t *blkaddr)
{
	struct f2fs_nat_entry e;
	uint32_t addr;
	int err;

	if (nid < F2FS_RESERVED_NODE_NUM || nid >= ctx->fs->max_nid)
		return -ERANGE;
	err = dump_nat_lookup(ctx, nid, &e, NULL);
	if (err)
		return err;
	addr = le32_to_cpu(e.block_addr);
	if (blkaddr)
		*blkaddr = addr;
	if (addr == NULL_ADDR)
		return -ENOENT;
	if (!dump_is_valid_data_addr(ctx, addr))
		return -EFSCORRUPTED;
	err = f2fs_dev_read(ctx->fs->dev, addr, 1, buf);
	if (err)
		return err;
	if (le32_to_cpu(buf->footer.nid) != nid)
		return -EFSCORRUPTED;
	return 0;
}

uint32_t dump_inode_extra_words(const struct f2fs_inode *ri)
{
	uint32_t isize;

	if (!(ri->i_inline & F2FS_EXTRA_ATTR))
		return 0;
	isize = le16_to_cpu(ri->i_extra_isize);
	if (isize > F2FS_TOTAL_EXTRA_ATTR_SIZE || isize % 4)
		isize = F2FS_TOTAL_EXTRA_ATTR_SIZE;
	return isize / 4;
}

uint32_t dump_inline_xattr_words(const struct dump_ctx *ctx, const struct f2fs_inode *ri)
{
	uint32_t n;

	if (ctx->fs->features & F2FS_FEATURE_FLEXIBLE_INLINE_XATTR) {
		if (!(ri->i_inline & F2FS_EXTRA_ATTR) || le16_to_cpu(ri->i_extra_isize) < 4)
			return 0;
		n = le16_to_cpu(ri->i_inline_xattr_size);
		return n > MAX_INLINE_XATTR_SIZE ? MAX_INLINE_XATTR_SIZE : n;
	}
	if (ri->i_inline & (F2FS_INLINE_XATTR | F2FS_INLINE_DENTRY))
		return DEFAULT_INLINE_XATTR_ADDRS;
	return 0;
}

static uint32_t raw_addrs_per_inode(const struct dump_ctx *ctx, const struct f2fs_inode *ri)
{
	uint32_t used = dump_inode_extra_words(ri) + dump_inline_xattr_words(ctx, ri);

	return used >= DEF_ADDRS_PER_INODE ? 0 : DEF_ADDRS_PER_INODE - used;
}

uint32_t dump_cluster_log(const struct dump_ctx *ctx, const struct f2fs_inode *ri)
{
	uint32_t log;

	if (!(ctx->fs->features & F2FS_FEATURE_COMPRESSION) ||
	    !(le32_to_cpu(ri->i_flags) & F2FS_COMPR_FL) || !(ri->i_inline & F2FS_EXTRA_ATTR) ||
	    le16_to_cpu(ri->i_extra_isize) < F2FS_TOTAL_EXTRA_ATTR_SIZE)
		return 0;
	log = ri->i_log_cluster_size;
	return log >= MIN_COMPRESS_LOG_SIZE && log <= MAX_COMPRESS_LOG_SIZE ? log : 0;
}

/* Compressed files use only whole clusters of slots in every node. */
static uint32_t align_to_cluster(const struct dump_ctx *ctx, const struct f2fs_inode *ri,
				 uint32_t slots)
{
	uint32_t log = dump_cluster_log(ctx, ri);

	return log ? slots >> log << log : slots;
}

uint32_t dump_addrs_per_inode(const struct dump_ctx *ctx, const struct f2fs_inode *ri)
{
	return align_to_cluster(ctx, ri, raw_addrs_per_inode(ctx, ri));
}

uint32_t dump_addrs_per_block(const struct dump_ctx *ctx, const struct f2fs_inode *ri)
{
	return align_to_cluster(ctx, ri, ADDRS_PER_BLOCK);
}

const uint8_t *dump_inline_data(const struct dump_ctx *ctx, const struct f2fs_inode *ri,
				size_t *size)
{
	uint32_t slots = raw_addrs_per_inode(ctx, ri);

	/* one reserved word before the inline data */
	*size = slots > 1 ? (size_t)(slots - 1) * 4 : 0;
	return (const uint8_t *)&ri->i_addr[dump_inode_extra_words(ri) + 1];
}

uint64_t dump_start_bidx(const struct dump_ctx *ctx, const struct f2fs_inode *ri,
			 uint32_t node_ofs)
{
	const uint32_t n = NIDS_PER_BLOCK;
	const uint32_t indirect_end = 2 * n + 4;
	uint64_t direct_before;

	if (node_ofs == 0)
		return 0;
	if (node_ofs <= 2)
		direct_before = node_ofs - 1;
	else if (node_ofs <= indirect_end)
		direct_before = node_ofs - 2 - (node_ofs - 4) / (n + 1);
	else if (node_ofs < indirect_end + 3)
		direct_before = 2 * (uint64_t)n + 2;	/* not a direct node */
	else
		direct_before = node_ofs - 5 - (node_ofs - indirect_end - 3) / (n + 1);
	return direct_before * dump_addrs_per_block(ctx, ri) + dump_addrs_per_inode(ctx, ri);
}
