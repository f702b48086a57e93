/*
 * fsck_inode.c - pass 4, one inode's own fields: what the kernel's
 * sanity_check_inode() refuses (i_blocks 0, extra attribute size and
 * feature, inline xattr size, inline data and dentry flags, casefold and
 * compression flags, i_xattr_nid, i_ext inside main and valid), the inode
 * checksum, i_mode, i_namelen, directory depth; and the xattr list (inline
 * area followed by the xattr node).  Fills w->file for the block walk.
 */
#include <string.h>
#include <sys/stat.h>

#include "f2fs_crc.h"
#include "fsck_walk.h"

#define MAX_COMPRESS_ALGO	3	/* LZO, LZ4, ZSTD, LZO-RLE */
#define MIN_LOG_CLUSTER		2
#define MAX_LOG_CLUSTER		8

uint32_t fsck_extra_words(const struct f2fs_inode *ri)
{
	if (!(ri->i_inline & F2FS_EXTRA_ATTR))
		return 0;
	return le16_to_cpu(ri->i_extra_isize) / 4;
}

uint32_t fsck_inline_xattr_addrs(const struct fsck_ctx *ctx, const struct f2fs_inode *ri)
{
	if (ctx->fs->features & F2FS_FEATURE_FLEXIBLE_INLINE_XATTR) {
		if (!(ri->i_inline & F2FS_EXTRA_ATTR))
			return 0;
		return le16_to_cpu(ri->i_inline_xattr_size);
	}
	if (ri->i_inline & (F2FS_INLINE_XATTR | F2FS_INLINE_DENTRY))
		return DEFAULT_INLINE_XATTR_ADDRS;
	return 0;
}

uint8_t fsck_mode_to_ftype(uint16_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return F2FS_FT_REG_FILE;
	case S_IFDIR: return F2FS_FT_DIR;
	case S_IFCHR: return F2FS_FT_CHRDEV;
	case S_IFBLK: return F2FS_FT_BLKDEV;
	case S_IFIFO: return F2FS_FT_FIFO;
	case S_IFSOCK: return F2FS_FT_SOCK;
	case S_IFLNK: return F2FS_FT_SYMLINK;
	}
	return F2FS_FT_UNKNOWN;
}

#define REPORT(code, ...) fsck_report(ctx, code, FSCK_OBJ(.ino = ino, __VA_ARGS__))

/* Extra attribute area; returns false if its size makes offsets unusable. */
static bool check_extra(struct fsck_ctx *ctx, uint32_t ino, const struct f2fs_inode *ri)
{
	uint32_t isz = le16_to_cpu(ri->i_extra_isize);
	uint32_t ixa;

	if (!(ri->i_inline & F2FS_EXTRA_ATTR))
		return true;
	if (!(ctx->fs->features & F2FS_FEATURE_EXTRA_ATTR))
		REPORT(PR_INODE_EXTRA_NO_FEATURE);
	if (isz < F2FS_MIN_EXTRA_ATTR_SIZE || isz > F2FS_TOTAL_EXTRA_ATTR_SIZE || isz % 4) {
		REPORT(PR_INODE_EXTRA_ISIZE, .found = isz);
		return false;
	}
	ixa = le16_to_cpu(ri->i_inline_xattr_size);
	if ((ctx->fs->features & F2FS_FEATURE_FLEXIBLE_INLINE_XATTR) &&
	    (ri->i_inline & F2FS_INLINE_XATTR) &&
	    (ixa < F2FS_INLINE_XATTR_ADDRS_MIN || ixa > MAX_INLINE_XATTR_SIZE)) {
		REPORT(PR_INODE_INLINE_XATTR_SIZE, .found = ixa);
		return false;
	}
	if ((ctx->fs->features & F2FS_FEATURE_FLEXIBLE_INLINE_XATTR) && ixa > MAX_INLINE_XATTR_SIZE) {
		REPORT(PR_INODE_INLINE_XATTR_SIZE, .found = ixa);
		return false;
	}
	return true;
}

static void check_checksum(struct fsck_ctx *ctx, uint32_t ino, const struct f2fs_node *node)
{
	uint32_t want, have;

	if (!f2fs_inode_has_checksum(ctx->fs->features, node))
		return;
	want = f2fs_inode_checksum(ctx->fs->inode_chksum_seed, node);
	have = le32_to_cpu(node->i.i_inode_checksum);
	if (want != have)
		REPORT(PR_INODE_CHECKSUM, .found = have, .expected = want);
}

static bool check_compression(struct fsck_ctx *ctx, uint32_t ino, const struct f2fs_inode *ri,
			      struct fsck_file *f)
{
	uint32_t isz = fsck_extra_words(ri) * 4;

	if (!(le32_to_cpu(ri->i_flags) & F2FS_COMPR_FL))
		return true;
	if (!(ctx->fs->features & F2FS_FEATURE_COMPRESSION)) {
		REPORT(PR_INODE_COMPRESS, .str = "flag without the compression feature");
		return false;
	}
	if (isz < F2FS_TOTAL_EXTRA_ATTR_SIZE) {
		REPORT(PR_INODE_COMPRESS, .str = "flag with an extra area too small for its fields");
		return false;
	}
	if (ri->i_compress_algorithm > MAX_COMPRESS_ALGO)
		REPORT(PR_INODE_COMPRESS, .found = ri->i_compress_algorithm, .str = "algorithm is unknown");
	if (ri->i_log_cluster_size < MIN_LOG_CLUSTER || ri->i_log_cluster_size > MAX_LOG_CLUSTER) {
		REPORT(PR_INODE_COMPRESS, .found = ri->i_log_cluster_size, .str = "cluster size is invalid");
		return false;
	}
	if (!S_ISREG(le16_to_cpu(ri->i_mode)))
		return true;	/* on a directory: inherited by new files */
	f->compressed = true;
	f->cluster = 1u << ri->i_log_cluster_size;
	f->released = ri->i_inline & F2FS_COMPRESS_RELEASED;
	return true;
}

static void check_inline_data(struct fsck_ctx *ctx, uint32_t ino, const struct f2fs_inode *ri,
			      uint32_t max_inline)
{
	uint16_t mode = le16_to_cpu(ri->i_mode);

	if (!(ri->i_inline & F2FS_INLINE_DATA))
		return;
	if (!S_ISREG(mode) && !S_ISLNK(mode))
		REPORT(PR_INODE_INLINE_DATA, .str = "on a file that is neither regular nor a symlink");
	else if (le64_to_cpu(ri->i_size) > max_inline)
		REPORT(PR_INODE_INLINE_DATA, .found = le64_to_cpu(ri->i_size),
		       .str = "with i_size larger than the inline area");
	else if (le32_to_cpu(ri->i_flags) & F2FS_COMPR_FL)
		REPORT(PR_INODE_INLINE_DATA, .str = "on a compressed file");
	else if (ri->i_addr[fsck_extra_words(ri)])
		REPORT(PR_INODE_INLINE_DATA, .str = "with its reserved first word set");
}

static void check_ext(struct fsck_ctx *ctx, uint32_t ino, const struct f2fs_inode *ri,
		      struct fsck_file *f)
{
	uint32_t blk = le32_to_cpu(ri->i_ext.blk), len = le32_to_cpu(ri->i_ext.len);

	f->ext_len = 0;
	if (!len)
		return;
	if (!fsck_addr_in_main(ctx, blk) || !fsck_addr_in_main(ctx, blk + len - 1) ||
	    (uint64_t)blk + len - 1 > UINT32_MAX) {
		REPORT(PR_INODE_EXTENT, .blkaddr = blk, .str = "lies outside the main area (the kernel refuses the inode)");
		return;
	}
	f->ext_fofs = le32_to_cpu(ri->i_ext.fofs);
	f->ext_blk = blk;
	f->ext_len = len;
	f->ext_match = 0;
	f->ext_mismatch = false;
}

static void check_misc(struct fsck_ctx *ctx, uint32_t ino, const struct f2fs_inode *ri)
{
	uint32_t xnid = le32_to_cpu(ri->i_xattr_nid);
	uint32_t flags = le32_to_cpu(ri->i_flags);
	uint16_t mode = le16_to_cpu(ri->i_mode);

	if (le64_to_cpu(ri->i_blocks) == 0)
		REPORT(PR_INODE_ZERO_BLOCKS);
	if (xnid && (xnid == ino || xnid < F2FS_RESERVED_NODE_NUM || xnid >= ctx->fs->max_nid))
		REPORT(PR_INODE_XATTR_NID, .found = xnid);
	if ((ri->i_inline & F2FS_INLINE_DENTRY) && !S_ISDIR(mode))
		REPORT(PR_INODE_INLINE_DENTRY);
	if ((flags & F2FS_CASEFOLD_FL) && !(ctx->fs->features & F2FS_FEATURE_CASEFOLD))
		REPORT(PR_INODE_CASEFOLD, .str = "without the casefold feature");
	else if ((flags & F2FS_CASEFOLD_FL) && !S_ISDIR(mode))
		REPORT(PR_INODE_CASEFOLD, .str = "on a file that is not a directory");
	if (le32_to_cpu(ri->i_namelen) > F2FS_NAME_LEN)
		REPORT(PR_INODE_NAMELEN, .found = le32_to_cpu(ri->i_namelen), .expected = F2FS_NAME_LEN);
	if (S_ISDIR(mode) && (le32_to_cpu(ri->i_current_depth) > MAX_DIR_HASH_DEPTH ||
			      ri->i_dir_level > MAX_DIR_HASH_DEPTH))
		REPORT(PR_INODE_DEPTH, .found = le32_to_cpu(ri->i_current_depth), .expected = ri->i_dir_level);
}

bool fsck_check_inode_fields(struct fsck_walk *w, const struct fsck_item *it,
			     const struct f2fs_node *node, uint32_t addr)
{
	struct fsck_ctx *ctx = w->ctx;
	const struct f2fs_inode *ri = &node->i;
	struct fsck_file *f = &w->file;
	uint32_t ino = it->ino;
	uint32_t extra, ixa;

	memset(f, 0, sizeof(*f));
	f->ino = ino;
	f->mode = le16_to_cpu(ri->i_mode);
	f->ftype = fsck_mode_to_ftype(f->mode);
	f->is_dir = S_ISDIR(f->mode);
	f->i_size = le64_to_cpu(ri->i_size);
	f->keep_size = ri->i_advise & FADVISE_KEEP_SIZE_BIT;
	f->verity = ri->i_advise & FADVISE_VERITY_BIT;
	check_checksum(ctx, ino, node);
	if (f->ftype == F2FS_FT_UNKNOWN)
		REPORT(PR_INODE_MODE, .found = f->mode, .blkaddr = addr);
	check_misc(ctx, ino, ri);
	if (!check_extra(ctx, ino, ri))
		return false;
	extra = fsck_extra_words(ri);
	ixa = fsck_inline_xattr_addrs(ctx, ri);
	if (extra + ixa + 1 > DEF_ADDRS_PER_INODE) {
		REPORT(PR_INODE_INLINE_XATTR_SIZE, .found = ixa);
		return false;
	}
	if (!check_compression(ctx, ino, ri, f))
		return false;
	f->extra_words = extra;
	f->addrs_per_inode = DEF_ADDRS_PER_INODE - extra - ixa;
	f->addrs_per_block = ADDRS_PER_BLOCK;
	if (f->compressed) {
		f->addrs_per_inode -= f->addrs_per_inode % f->cluster;
		f->addrs_per_block -= f->addrs_per_block % f->cluster;
	}
	check_inline_data(ctx, ino, ri, 4 * (DEF_ADDRS_PER_INODE - extra - ixa - 1));
	check_ext(ctx, ino, ri, f);
	return true;
}

/* ---- xattrs ---- */

#define XATTR_SPACE_MAX	(MAX_INLINE_XATTR_SIZE * 4 + 4072)

static void walk_xattr_list(struct fsck_ctx *ctx, uint32_t ino, const uint8_t *p, uint32_t size)
{
	uint32_t off = sizeof(struct f2fs_xattr_header);

	if (size < off)
		return;
	while (off + 4 <= size) {
		const struct f2fs_xattr_entry *e = (const void *)(p + off);
		uint32_t esz;

		if (!get_le32(p + off))
			return;	/* the terminating zero word */
		esz = (4 + e->e_name_len + le16_to_cpu(e->e_value_size) + 3) & ~3u;
		if (e->e_name_len == 0) {
			REPORT(PR_XATTR_ENTRY, .idx = off, .str = "has an empty name");
			return;
		}
		if (off + esz > size) {
			REPORT(PR_XATTR_ENTRY, .idx = off, .str = "runs past the end of the xattr space");
			return;
		}
		off += esz;
	}
	REPORT(PR_XATTR_ENTRY, .idx = off, .str = "the list has no terminating zero word");
}

void fsck_check_xattrs(struct fsck_walk *w, const struct f2fs_node *inode,
		       const struct f2fs_node *xnode)
{
	static const uint8_t zero[4];
	struct fsck_ctx *ctx = w->ctx;
	const struct f2fs_inode *ri = &inode->i;
	uint32_t ino = w->file.ino;
	uint8_t space[XATTR_SPACE_MAX];
	uint32_t size = 0, ixa = 0;

	if (ri->i_inline & F2FS_INLINE_XATTR) {
		ixa = fsck_inline_xattr_addrs(ctx, ri);
		if (ixa > MAX_INLINE_XATTR_SIZE)
			return;
		memcpy(space, &ri->i_addr[DEF_ADDRS_PER_INODE - ixa], ixa * 4);
		size = ixa * 4;
	}
	if (xnode) {
		memcpy(space + size, xnode, 4072);
		size += 4072;
	}
	if (size < sizeof(struct f2fs_xattr_header) + 4)
		return;
	/* an area never written (no header) holds no entries */
	if (!memcmp(space, zero, 4) && !get_le32(space + sizeof(struct f2fs_xattr_header)))
		return;
	walk_xattr_list(ctx, ino, space, size);
}
