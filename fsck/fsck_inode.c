/*
 * fsck_inode.c - pass 4, one inode's own fields: what the kernel's
 * sanity_check_inode() refuses (i_blocks 0, extra attribute size and
 * feature, inline xattr size, inline data and dentry flags, casefold and
 * compression flags, i_xattr_nid, i_ext inside main and valid), the inode
 * checksum (and i_extra_isize, when the stored checksum verifies only under
 * another size), i_mode, i_namelen, directory depth; and the xattr list
 * (inline area followed by the xattr node).  Fills w->file for the block walk.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs_crc.h"
#include "f2fs_quota.h"
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

bool fsck_inline_dents(const struct fsck_ctx *ctx, const struct f2fs_inode *ri,
		       struct fsck_inline_dents *d)
{
	uint32_t extra = fsck_extra_words(ri), ixa = fsck_inline_xattr_addrs(ctx, ri);
	uint32_t size = 0, bitmap_bytes, reserved;

	if (extra + ixa + 1 < DEF_ADDRS_PER_INODE)
		size = 4 * (DEF_ADDRS_PER_INODE - extra - ixa - 1);
	d->nslots = f2fs_inline_dentry_slots(size);
	bitmap_bytes = (d->nslots + 7) / 8;
	reserved = size - (d->nslots * (SIZE_OF_DIR_ENTRY + F2FS_SLOT_LEN) + bitmap_bytes);
	d->bitmap_off = (uint32_t)offsetof(struct f2fs_inode, i_addr) + 4 * (extra + 1);
	d->de_off = d->bitmap_off + bitmap_bytes + reserved;
	d->name_off = d->de_off + d->nslots * SIZE_OF_DIR_ENTRY;
	return size != 0;
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

#define REPORT(code, ...) fsck_problem(ctx, code, FSCK_OBJ(.ino = ino, __VA_ARGS__))
/* The writable copy of the inode being checked (NULL on error). */
#define FIX() fsck_fix_node(ctx, ino, w->inode_addr, w->inode)
/* Report a problem of inode ino; its writable copy when the fix is planned. */
#define PLAN(code, ...) (REPORT(code, __VA_ARGS__) ? FIX() : NULL)

/* The sizes sanity_check_inode() accepts for the extra attribute area. */
static bool extra_isize_valid(uint32_t isz)
{
	return isz >= F2FS_MIN_EXTRA_ATTR_SIZE && isz <= F2FS_TOTAL_EXTRA_ATTR_SIZE && !(isz % 4);
}

static uint16_t isize_by_checksum(const struct fsck_walk *w, const struct f2fs_node *node);

/* Extra attribute area; returns false if its size makes offsets unusable. */
static void fix_ixa(struct fsck_walk *w, uint32_t ino)
{
	struct fsck_ctx *ctx = w->ctx;
	struct f2fs_node *c = FIX();

	if (c)
		c->i.i_inline_xattr_size = cpu_to_le16(ctx->plan->ixa_ref ? ctx->plan->ixa_ref :
						       DEFAULT_INLINE_XATTR_ADDRS);
}

static bool check_extra(struct fsck_walk *w, uint32_t ino, const struct f2fs_node *node)
{
	struct fsck_ctx *ctx = w->ctx;
	const struct f2fs_inode *ri = &node->i;
	uint32_t isz = le16_to_cpu(ri->i_extra_isize);
	uint32_t ixa;
	struct f2fs_node *c;

	if (!(ri->i_inline & F2FS_EXTRA_ATTR)) {
		/* sanity_check_inode() refuses such an inode on this volume;
		 * the kernel writes every inode of it with extra attributes */
		if (!(ctx->fs->features & F2FS_FEATURE_FLEXIBLE_INLINE_XATTR))
			return true;
		c = PLAN(PR_INODE_EXTRA_FLAG_MISSING);
		if (c)
			c->i.i_inline |= F2FS_EXTRA_ATTR;
		return !c;
	}
	if (!(ctx->fs->features & F2FS_FEATURE_EXTRA_ATTR)) {
		c = PLAN(PR_INODE_EXTRA_NO_FEATURE);
		if (c) {
			c->i.i_inline &= (uint8_t)~F2FS_EXTRA_ATTR;
			return false;
		}
	}
	if (!extra_isize_valid(isz)) {
		/* the size the checksum was made with, else the volume's */
		uint16_t fit = isize_by_checksum(w, node);

		c = PLAN(PR_INODE_EXTRA_ISIZE, .found = isz);
		if (c)
			c->i.i_extra_isize = cpu_to_le16(fit ? fit : ctx->plan->extra_isize_ref ?
							 ctx->plan->extra_isize_ref :
							 F2FS_TOTAL_EXTRA_ATTR_SIZE);
		return false;
	}
	ixa = le16_to_cpu(ri->i_inline_xattr_size);
	if ((ctx->fs->features & F2FS_FEATURE_FLEXIBLE_INLINE_XATTR) &&
	    (ri->i_inline & F2FS_INLINE_XATTR) &&
	    (ixa < F2FS_INLINE_XATTR_ADDRS_MIN || ixa > MAX_INLINE_XATTR_SIZE)) {
		if (REPORT(PR_INODE_INLINE_XATTR_SIZE, .found = ixa))
			fix_ixa(w, ino);
		return false;
	}
	if ((ctx->fs->features & F2FS_FEATURE_FLEXIBLE_INLINE_XATTR) && ixa > MAX_INLINE_XATTR_SIZE) {
		if (REPORT(PR_INODE_INLINE_XATTR_SIZE, .found = ixa))
			fix_ixa(w, ino);
		return false;
	}
	if (!ctx->plan->extra_isize_ref)
		ctx->plan->extra_isize_ref = (uint16_t)isz;
	if (!ctx->plan->ixa_ref && (ri->i_inline & F2FS_INLINE_XATTR) &&
	    (ctx->fs->features & F2FS_FEATURE_FLEXIBLE_INLINE_XATTR))
		ctx->plan->ixa_ref = (uint16_t)ixa;
	return true;
}

/* The i_extra_isize under which the stored inode checksum verifies (the
 * caller knows the stored size fails it or leaves no room for one): damage to
 * that field shifts every data slot of the inode, and a 32-bit checksum
 * that verifies only under another size tells which size was written.
 * 0 when no other size between the checksum's end and the largest extra
 * area verifies. */
static uint16_t isize_by_checksum(const struct fsck_walk *w, const struct f2fs_node *node)
{
	const struct fsck_ctx *ctx = w->ctx;
	uint32_t have = le32_to_cpu(node->i.i_inode_checksum);
	uint32_t isz = le16_to_cpu(node->i.i_extra_isize);
	uint32_t min = offsetof(struct f2fs_inode, i_inode_checksum) + 4 -
		       offsetof(struct f2fs_inode, i_addr);
	struct f2fs_node *copy;
	uint16_t found = 0;

	if (!(ctx->fs->features & F2FS_FEATURE_INODE_CHKSUM) ||
	    !(ctx->fs->features & F2FS_FEATURE_EXTRA_ATTR) ||
	    !(node->i.i_inline & F2FS_EXTRA_ATTR) || node->footer.nid != node->footer.ino)
		return 0;
	copy = malloc(sizeof(*copy));
	if (!copy)
		return 0;
	memcpy(copy, node, sizeof(*copy));
	for (uint32_t cand = min; cand <= F2FS_TOTAL_EXTRA_ATTR_SIZE && !found; cand += 4) {
		if (cand == isz)
			continue;
		copy->i.i_extra_isize = cpu_to_le16((uint16_t)cand);
		if (f2fs_inode_checksum(ctx->fs->inode_chksum_seed, copy) == have)
			found = (uint16_t)cand;
	}
	free(copy);
	return found;
}

/* True when i_extra_isize was restored from the checksum: the inode is
 * checked again from its fixed copy, or (check only) not walked. */
static bool restore_extra_isize(struct fsck_walk *w, uint32_t ino, const struct f2fs_node *node)
{
	struct fsck_ctx *ctx = w->ctx;
	uint16_t isz = isize_by_checksum(w, node);
	struct f2fs_node *c;

	if (!isz)
		return false;
	c = PLAN(PR_INODE_EXTRA_ISIZE_CHECKSUM, .found = le16_to_cpu(node->i.i_extra_isize),
		 .expected = isz);
	if (c)
		c->i.i_extra_isize = cpu_to_le16(isz);
	return true;
}

/* The inode checksum; true when i_extra_isize was restored from it. */
static bool check_checksum(struct fsck_walk *w, uint32_t ino, const struct f2fs_node *node)
{
	struct fsck_ctx *ctx = w->ctx;
	uint32_t want, have;

	/* an invalid size is check_extra()'s (F2FS-4016) */
	bool valid = !(node->i.i_inline & F2FS_EXTRA_ATTR) ||
		     extra_isize_valid(le16_to_cpu(node->i.i_extra_isize));

	if (!f2fs_inode_has_checksum(ctx->fs->features, node))
		return valid && restore_extra_isize(w, ino, node);
	want = f2fs_inode_checksum(ctx->fs->inode_chksum_seed, node);
	have = le32_to_cpu(node->i.i_inode_checksum);
	if (want == have)
		return false;
	if (valid && restore_extra_isize(w, ino, node))
		return true;
	/* rewritten with a fresh checksum */
	(void)PLAN(PR_INODE_CHECKSUM, .found = have, .expected = want);
	return false;
}

static void clear_compr_flag(struct fsck_walk *w, uint32_t ino)
{
	struct fsck_ctx *ctx = w->ctx;
	struct f2fs_node *c = FIX();

	if (c)
		c->i.i_flags = cpu_to_le32(le32_to_cpu(c->i.i_flags) & ~(uint32_t)F2FS_COMPR_FL);
}

static bool check_compression(struct fsck_walk *w, uint32_t ino, const struct f2fs_inode *ri,
			      struct fsck_file *f)
{
	struct fsck_ctx *ctx = w->ctx;
	uint32_t isz = fsck_extra_words(ri) * 4;
	struct f2fs_node *c;

	if (!(le32_to_cpu(ri->i_flags) & F2FS_COMPR_FL))
		return true;
	if (!(ctx->fs->features & F2FS_FEATURE_COMPRESSION)) {
		if (REPORT(PR_INODE_COMPRESS, .str = "flag without the compression feature"))
			clear_compr_flag(w, ino);
		return false;
	}
	if (isz < F2FS_TOTAL_EXTRA_ATTR_SIZE) {
		if (REPORT(PR_INODE_COMPRESS, .str = "flag with an extra area too small for its fields"))
			clear_compr_flag(w, ino);
		return false;
	}
	if (ri->i_compress_algorithm > MAX_COMPRESS_ALGO) {
		c = PLAN(PR_INODE_COMPRESS, .found = ri->i_compress_algorithm, .str = "algorithm is unknown");
		if (c)
			c->i.i_compress_algorithm = 0;
	}
	if (ri->i_log_cluster_size < MIN_LOG_CLUSTER || ri->i_log_cluster_size > MAX_LOG_CLUSTER) {
		c = PLAN(PR_INODE_COMPRESS, .found = ri->i_log_cluster_size, .str = "cluster size is invalid");
		if (c)
			c->i.i_log_cluster_size = MIN_LOG_CLUSTER;
		return false;
	}
	if (!S_ISREG(f->mode))
		return true;	/* on a directory: inherited by new files */
	f->compressed = true;
	f->cluster = 1u << ri->i_log_cluster_size;
	f->released = ri->i_inline & F2FS_COMPRESS_RELEASED;
	return true;
}

/*
 * The bytes of an inline file's area.  The kernel reads the whole area into
 * page 0 (f2fs_do_read_inline_data()), whatever the data-exist flag says,
 * so bytes past i_size show up when the file is extended by truncate; and
 * when the file outgrows the area, it copies the bytes to a block only if
 * the data-exist flag is set (f2fs_convert_inline_page()): with the flag
 * clear, content a read returns today is dropped.  Every kernel write path
 * keeps the bytes past i_size zero and sets the flag with the first byte.
 */
static void check_inline_bytes(struct fsck_walk *w, uint32_t ino, const struct f2fs_inode *ri,
			       uint64_t i_size, uint32_t max_inline)
{
	struct fsck_ctx *ctx = w->ctx;
	const uint8_t *area = (const uint8_t *)&ri->i_addr[fsck_extra_words(ri) + 1];
	uint32_t size = i_size < max_inline ? (uint32_t)i_size : max_inline;
	struct f2fs_node *c;

	if (!(ri->i_inline & F2FS_DATA_EXIST) && fsck_any_nonzero(area, size)) {
		if ((c = PLAN(PR_INODE_INLINE_BYTES, .found = size,
		       .str = "holds the file's bytes but the data-exist flag is clear "
			      "(the kernel would drop them when the file grows)")))
			c->i.i_inline |= F2FS_DATA_EXIST;
	}
	if (fsck_any_nonzero(area + size, max_inline - size)) {
		if ((c = PLAN(PR_INODE_INLINE_BYTES, .found = size,
		       .str = "holds non-zero bytes past i_size (an extending truncate would show them)")))
			memset((uint8_t *)&c->i.i_addr[fsck_extra_words(ri) + 1] + size, 0,
			       max_inline - size);
	}
}

/* The length of a symlink's target: the bytes of its data up to the first
 * NUL, at most max.  Encrypted targets (a length word and cipher text) have
 * none to go by. */
static uint32_t symlink_target_len(const struct f2fs_inode *ri, const uint8_t *data, uint32_t max)
{
	const uint8_t *nul;

	if (ri->i_advise & FADVISE_ENCRYPT_BIT)
		return 0;
	nul = memchr(data, 0, max);
	return nul ? (uint32_t)(nul - data) : max;
}

/* A symlink's i_size shorter than its target: the kernel ends the target
 * at i_size (page_get_link(), nd_terminate_link()), and an empty one is a
 * broken link (f2fs_get_link(): -ENOENT).  Symlinks never change after
 * f2fs_symlink() wrote them, the bytes past the target zero, so a target
 * longer than i_size is what i_size lost (a kernel whose page_symlink()
 * failed after the data was written truncates i_size to 0, as f2fs-tools
 * knows): i_size becomes the target's length, which keeps it whole. */
uint64_t fsck_symlink_size_fix(struct fsck_walk *w, uint32_t ino, const struct f2fs_inode *ri,
			       const uint8_t *data, uint32_t max)
{
	struct fsck_ctx *ctx = w->ctx;
	uint64_t i_size = le64_to_cpu(ri->i_size);
	uint32_t len = symlink_target_len(ri, data, max);
	struct f2fs_node *c;

	if (len <= i_size)
		return i_size;
	if ((c = PLAN(PR_SYMLINK_SIZE, .found = i_size, .expected = len,
		      .str = i_size ? "the kernel reads it cut short" :
				      "the kernel reads it as a broken link")))
		c->i.i_size = cpu_to_le64(len);
	return len;
}

/* The i_size the bytes of an inline file's area go by: a symlink's the
 * length of its target when i_size cuts it (reported and fixed here). */
static uint64_t inline_symlink_size(struct fsck_walk *w, uint32_t ino, const struct f2fs_inode *ri,
				    uint16_t mode, uint32_t max_inline)
{
	const uint8_t *area = (const uint8_t *)&ri->i_addr[fsck_extra_words(ri) + 1];

	if (!S_ISLNK(mode) || le64_to_cpu(ri->i_size) >= max_inline)
		return le64_to_cpu(ri->i_size);
	return fsck_symlink_size_fix(w, ino, ri, area, max_inline);
}

/* Whether an inode flagged inline is a file mapped by blocks whose flag
 * is what broke: a node of its tree named, or a first address slot (the
 * reserved word of inline data) holding a block SIT has in use; in a
 * compressed file the first slot may be a cluster's COMPRESS_ADDR, and
 * then the block after it counts.  Clearing the flag then keeps the file;
 * cutting i_size or the word would lose it. */
static bool block_mapped(struct fsck_ctx *ctx, const struct f2fs_inode *ri)
{
	uint32_t w = fsck_extra_words(ri);
	uint32_t first = le32_to_cpu(ri->i_addr[w]);

	for (int k = 0; k < DEF_NIDS_PER_INODE; k++)
		if (ri->i_nid[k])
			return true;
	if (first == COMPRESS_ADDR && (le32_to_cpu(ri->i_flags) & F2FS_COMPR_FL) &&
	    w + 1 < DEF_ADDRS_PER_INODE)
		first = le32_to_cpu(ri->i_addr[w + 1]);
	return fsck_addr_in_main(ctx, first) && fsck_sit_valid(ctx, first);
}

static void check_inline_data(struct fsck_walk *w, uint32_t ino, const struct f2fs_inode *ri,
			      uint32_t max_inline)
{
	struct fsck_ctx *ctx = w->ctx;
	uint16_t mode = w->file.mode;	/* as mode_from_evidence() takes it */
	struct f2fs_node *c;

	if (!(ri->i_inline & F2FS_INLINE_DATA))
		return;
	if ((S_ISREG(mode) || S_ISLNK(mode)) && block_mapped(ctx, ri)) {
		if ((c = PLAN(PR_INODE_INLINE_DATA, .found = le64_to_cpu(ri->i_size),
		       .str = "on a file mapped by blocks (the flag goes, the blocks stay)")))
			c->i.i_inline &= (uint8_t)~(F2FS_INLINE_DATA | F2FS_DATA_EXIST);
		return;	/* the area holds the block map, no inline bytes */
	} else if (!S_ISREG(mode) && !S_ISLNK(mode)) {
		c = PLAN(PR_INODE_INLINE_DATA, .str = "on a file that is neither regular nor a symlink");
		if (c)
			c->i.i_inline &= (uint8_t)~F2FS_INLINE_DATA;
	} else if (le64_to_cpu(ri->i_size) > max_inline) {
		/* a symlink's target says how long it is */
		uint32_t len = S_ISLNK(mode) ? symlink_target_len(ri, (const uint8_t *)&ri->i_addr[
					fsck_extra_words(ri) + 1], max_inline) : 0;

		c = PLAN(PR_INODE_INLINE_DATA, .found = le64_to_cpu(ri->i_size),
		       .str = "with i_size larger than the inline area");
		if (c)
			c->i.i_size = cpu_to_le64(len ? len : max_inline);
	} else if (le32_to_cpu(ri->i_flags) & F2FS_COMPR_FL) {
		if (REPORT(PR_INODE_INLINE_DATA, .str = "on a compressed file"))
			clear_compr_flag(w, ino);
	} else if (S_ISREG(mode) && (ri->i_advise & (FADVISE_ENCRYPT_BIT | FADVISE_VERITY_BIT))) {
		/* f2fs_sanity_check_inline_data(): the kernel refuses the
		 * inode.  No such file keeps its bytes inline: an empty one
		 * loses the flag, one with bytes the encryption or verity
		 * bit (its bytes are then read as they are) */
		c = PLAN(PR_INODE_INLINE_DATA, .found = le64_to_cpu(ri->i_size),
			 .str = "on an encrypted or verity file (the kernel refuses the inode)");
		if (c && !le64_to_cpu(ri->i_size)) {
			c->i.i_inline &= (uint8_t)~(F2FS_INLINE_DATA | F2FS_DATA_EXIST);
			return;	/* no inline bytes left to look at */
		}
		if (c)
			c->i.i_advise &= (uint8_t)~(FADVISE_ENCRYPT_BIT | FADVISE_VERITY_BIT);
	} else if (ri->i_addr[fsck_extra_words(ri)]) {
		c = PLAN(PR_INODE_INLINE_DATA, .str = "with its reserved first word set");
		if (c)
			c->i.i_addr[fsck_extra_words(ri)] = 0;
	}
	if (S_ISREG(mode) || S_ISLNK(mode))
		check_inline_bytes(w, ino, ri, inline_symlink_size(w, ino, ri, mode, max_inline),
				   max_inline);
}

/* The kernel moves inline dentries out to a block only when the reserved
 * first word reads as free (f2fs_move_inline_dirents() refuses the
 * directory with -EFSCORRUPTED otherwise). */
static void check_inline_dentry_reserve(struct fsck_walk *w, uint32_t ino,
					const struct f2fs_inode *ri)
{
	struct fsck_ctx *ctx = w->ctx;
	uint32_t word = fsck_extra_words(ri);
	struct f2fs_node *c;

	if (!(ri->i_inline & F2FS_INLINE_DENTRY) || !S_ISDIR(w->file.mode) ||
	    !ri->i_addr[word])
		return;
	if ((c = PLAN(PR_INODE_INLINE_DENTRY, .found = le32_to_cpu(ri->i_addr[word]),
	       .str = "with its reserved first word set (the kernel refuses to convert the directory)")))
		c->i.i_addr[word] = 0;
}

static void check_ext(struct fsck_walk *w, uint32_t ino, const struct f2fs_inode *ri,
		      struct fsck_file *f)
{
	struct fsck_ctx *ctx = w->ctx;
	uint32_t blk = le32_to_cpu(ri->i_ext.blk), len = le32_to_cpu(ri->i_ext.len);

	f->ext_len = 0;
	if (!len)
		return;
	if (!fsck_addr_in_main(ctx, blk) || !fsck_addr_in_main(ctx, blk + len - 1) ||
	    (uint64_t)blk + len - 1 > UINT32_MAX) {
		struct f2fs_node *c = PLAN(PR_INODE_EXTENT, .blkaddr = blk,
					   .str = "lies outside the main area (the kernel refuses the inode)");

		if (c)
			memset(&c->i.i_ext, 0, sizeof(c->i.i_ext));
		return;
	}
	f->ext_fofs = le32_to_cpu(ri->i_ext.fofs);
	f->ext_blk = blk;
	f->ext_len = len;
	f->ext_match = 0;
	f->ext_mismatch = false;
}

/* mode: i_mode as the check takes it (mode_from_evidence()). */
static void check_misc(struct fsck_walk *w, uint32_t ino, const struct f2fs_inode *ri,
		       uint16_t mode)
{
	struct fsck_ctx *ctx = w->ctx;
	uint32_t xnid = le32_to_cpu(ri->i_xattr_nid);
	uint32_t flags = le32_to_cpu(ri->i_flags);
	struct f2fs_node *c;

	if (le64_to_cpu(ri->i_blocks) == 0)
		REPORT(PR_INODE_ZERO_BLOCKS);	/* fixed with i_blocks by the walk */
	if (xnid && (xnid == ino || xnid < F2FS_RESERVED_NODE_NUM || xnid >= ctx->fs->max_nid)) {
		if ((c = PLAN(PR_INODE_XATTR_NID, .found = xnid)))
			c->i.i_xattr_nid = 0;
	}
	if ((ri->i_inline & F2FS_INLINE_DENTRY) && !S_ISDIR(mode)) {
		if ((c = PLAN(PR_INODE_INLINE_DENTRY, .str = "on a non-directory")))
			c->i.i_inline &= (uint8_t)~F2FS_INLINE_DENTRY;
	}
	if ((flags & F2FS_CASEFOLD_FL) && (!(ctx->fs->features & F2FS_FEATURE_CASEFOLD) ||
					   !S_ISDIR(mode))) {
		if ((c = PLAN(PR_INODE_CASEFOLD, .str = !(ctx->fs->features & F2FS_FEATURE_CASEFOLD) ?
		       "without the casefold feature" : "on a file that is not a directory")))
			c->i.i_flags = cpu_to_le32(flags & ~(uint32_t)F2FS_CASEFOLD_FL);
	}
	if (le32_to_cpu(ri->i_namelen) > F2FS_NAME_LEN) {
		if ((c = PLAN(PR_INODE_NAMELEN, .found = le32_to_cpu(ri->i_namelen), .expected = F2FS_NAME_LEN)))
			c->i.i_namelen = cpu_to_le32((uint32_t)strnlen((const char *)c->i.i_name,
								       F2FS_NAME_LEN));
	}
	if (S_ISDIR(mode) && (le32_to_cpu(ri->i_current_depth) > MAX_DIR_HASH_DEPTH ||
			      ri->i_dir_level > MAX_DIR_HASH_DEPTH)) {
		if ((c = PLAN(PR_INODE_DEPTH, .found = le32_to_cpu(ri->i_current_depth),
			      .expected = ri->i_dir_level))) {
			/* the directory pass raises the depth to the deepest block */
			if (le32_to_cpu(ri->i_current_depth) > MAX_DIR_HASH_DEPTH)
				c->i.i_current_depth = cpu_to_le32(1);
			if (ri->i_dir_level > MAX_DIR_HASH_DEPTH)
				c->i.i_dir_level = 0;
		}
	}
}

/*
 * A directory's i_pino names the directory its '..' names: the kernel
 * keeps them equal through renames (f2fs_rename()), and f2fs-tools
 * rewrites '..' from i_pino when they differ.  The walk knows the parent
 * whose entry reached the directory; the directory pass holds '..' to it.
 * Except where the kernel itself marked i_pino stale (FADVISE_LOST_PINO:
 * a directory renamed with RENAME_WHITEOUT, as overlayfs does, keeps its
 * old i_pino); it then never trusts i_pino (an fsync makes a checkpoint,
 * CP_WRONG_PINO) and finds the parent by '..'.
 */
static void check_dir_pino(struct fsck_walk *w, uint32_t ino, const struct fsck_item *it,
			   const struct f2fs_inode *ri, uint16_t mode)
{
	struct fsck_ctx *ctx = w->ctx;
	uint32_t pino = le32_to_cpu(ri->i_pino);
	struct f2fs_node *c;

	if (!S_ISDIR(mode) || it->kind != ITEM_NS || !fsck_item_parent(it) ||
	    ino == F2FS_ROOT_INO || pino == fsck_item_parent(it) ||
	    (ri->i_advise & FADVISE_LOST_PINO_BIT))
		return;
	if ((c = PLAN(PR_INODE_DIR_PINO, .found = pino, .expected = fsck_item_parent(it))))
		c->i.i_pino = cpu_to_le32(fsck_item_parent(it));
}

/* Whether a dentry area starts as every directory's does: slot 0 '.'
 * naming ino itself, slot 1 '..'. */
static bool area_has_dots(const uint8_t *bitmap, const struct f2fs_dir_entry *de,
			  const uint8_t (*names)[F2FS_SLOT_LEN], uint32_t ino)
{
	return (bitmap[0] & 3) == 3 && le16_to_cpu(de[0].name_len) == 1 && names[0][0] == '.' &&
	       le32_to_cpu(de[0].ino) == ino && le16_to_cpu(de[1].name_len) == 2 &&
	       !memcmp(names[1], "..", 2);
}

static bool inline_has_dots(const struct fsck_ctx *ctx, const struct f2fs_inode *ri, uint32_t ino)
{
	const uint8_t *blk = (const uint8_t *)ri;
	struct fsck_inline_dents d;

	return fsck_inline_dents(ctx, ri, &d) && d.nslots >= 2 &&
	       area_has_dots(blk + d.bitmap_off, (const void *)(blk + d.de_off),
			     (const void *)(blk + d.name_off), ino);
}

/* The inode's first block as a directory holds it: 1 when it starts with
 * '.' and '..', 0 when it is a block that does not, -1 when there is no
 * block to look at. */
static int block0_has_dots(const struct fsck_ctx *ctx, const struct f2fs_inode *ri, uint32_t ino)
{
	uint32_t extra = fsck_extra_words(ri);
	uint32_t addr = extra < DEF_ADDRS_PER_INODE ? le32_to_cpu(ri->i_addr[extra]) : 0;
	struct f2fs_dentry_block *b;
	int dots;

	if (!fsck_addr_in_main(ctx, addr))
		return -1;
	b = malloc(sizeof(*b));
	if (!b || f2fs_dev_read(ctx->fs->dev, addr, 1, b)) {
		free(b);
		return -1;
	}
	dots = area_has_dots(b->dentry_bitmap, b->dentry, (const void *)b->filename, ino);
	free(b);
	return dots;
}

/* Whether the inode's contents are a directory's (1), a regular file's
 * (0), or cannot tell (-1).  The kernel sets the inline dentry flag on
 * directories only and inline data on files and symlinks only; a dentry
 * area always starts with '.' and '..'; a directory's size is whole
 * blocks unless it is inline. */
static int contents_type(const struct fsck_ctx *ctx, const struct f2fs_inode *ri, uint32_t ino)
{
	int dots;

	if (ri->i_inline & F2FS_INLINE_DENTRY)
		return inline_has_dots(ctx, ri, ino) ? 1 : -1;
	if (ri->i_inline & F2FS_INLINE_DATA)
		return 0;
	dots = block0_has_dots(ctx, ri, ino);
	if (dots >= 0)
		return dots;
	return le64_to_cpu(ri->i_size) % F2FS_BLKSIZE ? 0 : -1;
}

/* A valid i_mode of another type than both the entry that names the
 * inode and its contents show: one damaged word turned a directory into
 * a file (the kernel then refuses the inode for its inline dentry flag,
 * or reads its dentry blocks as file data, and its children are cut
 * off), or a file into a directory (whose blocks a repair would rewrite
 * as dentry blocks).  The type comes back; the permission bits stay
 * unless the owner has none, which no directory or file mkdir, mkfs or
 * sload makes has.  Returns the mode to check the inode with. */
/* Whether the inode's first block opens with the header of quota type t
 * (the quota file mkfs, sload and the kernel keep there). */
static bool block0_holds_quota(const struct fsck_ctx *ctx, const struct f2fs_inode *ri, int t)
{
	uint32_t extra = fsck_extra_words(ri);
	uint32_t addr = extra < DEF_ADDRS_PER_INODE ? le32_to_cpu(ri->i_addr[extra]) : 0;
	struct f2fs_dqinfo info;
	uint8_t *b;
	bool ok;

	if ((ri->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY)) || !fsck_addr_in_main(ctx, addr))
		return false;
	b = malloc(F2FS_BLKSIZE);
	if (!b)
		return false;
	ok = !f2fs_dev_read(ctx->fs->dev, addr, 1, b) && !f2fs_quota_header_read(b, t, &info);
	free(b);
	return ok;
}

/* A quota inode whose i_mode lost its regular-file type: the kernel reads
 * it as a directory (or device, ...), refuses to turn quota on ("run fsck
 * to fix"), and a repair that believed the mode would rewrite the quota
 * file's blocks as dentry blocks.  When its first block still opens with
 * its type's quota header, or its contents are no directory's (no '.' and
 * '..' open them: a damaged quota file, rebuilt by the quota pass), the
 * type comes back; the permission bits stay unless the owner has none
 * (mkfs makes it 0600).  A quota number naming a real directory keeps it
 * a directory (F2FS-4038). */
static uint16_t quota_mode_from_evidence(struct fsck_walk *w, uint32_t ino,
					 const struct fsck_item *it,
					 const struct f2fs_inode *ri, uint16_t mode)
{
	struct fsck_ctx *ctx = w->ctx;
	uint16_t perm = mode & 07777;
	struct f2fs_node *c;

	if (S_ISREG(mode) ||
	    (!block0_holds_quota(ctx, ri, it->idx) && contents_type(ctx, ri, ino) != 0))
		return mode;
	if (!(perm & 0600))
		perm = 0600;
	if ((c = PLAN(PR_INODE_MODE_TYPE, .found = mode, .expected = (uint16_t)(S_IFREG | perm),
		      .str = "a quota file")))
		c->i.i_mode = cpu_to_le16((uint16_t)(S_IFREG | perm));
	return (uint16_t)(S_IFREG | perm);
}

static uint16_t mode_from_evidence(struct fsck_walk *w, uint32_t ino, const struct fsck_item *it,
				   const struct f2fs_inode *ri, uint16_t mode)
{
	struct fsck_ctx *ctx = w->ctx;
	uint16_t want, perm = mode & 07777;
	struct f2fs_node *c;
	int looks;

	if (it->kind == ITEM_QUOTA)
		return quota_mode_from_evidence(w, ino, it, ri, mode);
	if (it->kind != ITEM_NS || !it->loc.dir_ino || ino == F2FS_ROOT_INO)
		return mode;
	if (it->ftype == F2FS_FT_DIR && !S_ISDIR(mode))
		want = S_IFDIR;
	else if (it->ftype == F2FS_FT_REG_FILE && S_ISDIR(mode))
		want = S_IFREG;
	else
		return mode;
	looks = contents_type(ctx, ri, ino);
	if (looks != (want == S_IFDIR ? 1 : 0))
		return mode;
	if (!(perm & 0700))
		perm = want == S_IFDIR ? 0755 : 0644;
	if ((c = PLAN(PR_INODE_MODE_TYPE, .found = mode, .expected = (uint16_t)(want | perm),
	       .str = want == S_IFDIR ? "a directory" : "a regular file")))
		c->i.i_mode = cpu_to_le16((uint16_t)(want | perm));
	return (uint16_t)(want | perm);
}

/* An invalid i_mode: take the type from the entry that named it. */
static void fix_mode(struct fsck_walk *w, uint32_t ino, const struct fsck_item *it)
{
	static const uint16_t fmt[F2FS_FT_MAX] = {
		[F2FS_FT_REG_FILE] = S_IFREG, [F2FS_FT_DIR] = S_IFDIR, [F2FS_FT_CHRDEV] = S_IFCHR,
		[F2FS_FT_BLKDEV] = S_IFBLK, [F2FS_FT_FIFO] = S_IFIFO, [F2FS_FT_SOCK] = S_IFSOCK,
		[F2FS_FT_SYMLINK] = S_IFLNK,
	};
	struct fsck_ctx *ctx = w->ctx;
	uint8_t ft = it->ftype < F2FS_FT_MAX ? it->ftype : F2FS_FT_UNKNOWN;
	struct f2fs_node *c;

	if (ft == F2FS_FT_UNKNOWN)
		ft = F2FS_FT_REG_FILE;
	if ((c = FIX()))
		c->i.i_mode = cpu_to_le16((uint16_t)((le16_to_cpu(c->i.i_mode) & 07777) | fmt[ft]));
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
	f->i_size = le64_to_cpu(ri->i_size);
	f->keep_size = ri->i_advise & FADVISE_KEEP_SIZE_BIT;
	f->verity = ri->i_advise & FADVISE_VERITY_BIT;
	f->pinned = ri->i_inline & F2FS_PIN_FILE;
	(void)addr;
	if (check_checksum(w, ino, node))
		return false;
	if (f->ftype == F2FS_FT_UNKNOWN) {
		if (REPORT(PR_INODE_MODE, .found = f->mode, .blkaddr = addr))
			fix_mode(w, ino, it);
	} else {
		f->mode = mode_from_evidence(w, ino, it, ri, f->mode);
		f->ftype = fsck_mode_to_ftype(f->mode);
	}
	f->is_dir = S_ISDIR(f->mode);
	check_misc(w, ino, ri, f->mode);
	check_dir_pino(w, ino, it, ri, f->mode);
	if (!check_extra(w, ino, node))
		return false;
	extra = fsck_extra_words(ri);
	ixa = fsck_inline_xattr_addrs(ctx, ri);
	if (extra + ixa + 1 > DEF_ADDRS_PER_INODE) {
		if (REPORT(PR_INODE_INLINE_XATTR_SIZE, .found = ixa))
			fix_ixa(w, ino);
		return false;
	}
	if (!check_compression(w, ino, ri, f))
		return false;
	f->extra_words = extra;
	f->addrs_per_inode = DEF_ADDRS_PER_INODE - extra - ixa;
	f->addrs_per_block = ADDRS_PER_BLOCK;
	if (f->compressed) {
		f->addrs_per_inode -= f->addrs_per_inode % f->cluster;
		f->addrs_per_block -= f->addrs_per_block % f->cluster;
	}
	check_inline_data(w, ino, ri, 4 * (DEF_ADDRS_PER_INODE - extra - ixa - 1));
	check_inline_dentry_reserve(w, ino, ri);
	check_ext(w, ino, ri, f);
	return true;
}

/* ---- xattrs ---- */

#define XATTR_SPACE_MAX	(MAX_INLINE_XATTR_SIZE * 4 + 4072)

/* End the xattr list at byte off of the xattr space (inline area of
 * ixa words, then the xattr node). */
static void cut_xattrs(struct fsck_walk *w, uint32_t ino, uint32_t off, uint32_t ixa)
{
	struct fsck_ctx *ctx = w->ctx;
	struct f2fs_node *c;
	uint32_t n = 4;

	while (n--) {
		uint32_t o = off + n;

		if (o < ixa * 4) {
			if ((c = FIX()))
				((uint8_t *)&c->i.i_addr[DEF_ADDRS_PER_INODE - ixa])[o] = 0;
		} else if (w->xnid && o - ixa * 4 < 4072) {
			c = fsck_fix_node(ctx, w->xnid, w->xaddr, NULL);
			if (c)
				((uint8_t *)c)[o - ixa * 4] = 0;
		}
	}
}

/* Name indexes whose entries carry no name: the POSIX ACLs are stored
 * under index 2 and 3 with e_name_len 0 (the handler's name is the whole
 * "system.posix_acl_*"). */
static bool xattr_index_unnamed(uint8_t index)
{
	return index == F2FS_XATTR_INDEX_POSIX_ACL_ACCESS ||
	       index == F2FS_XATTR_INDEX_POSIX_ACL_DEFAULT;
}

static void walk_xattr_list(struct fsck_walk *w, uint32_t ino, const uint8_t *p, uint32_t size,
			    uint32_t ixa)
{
	struct fsck_ctx *ctx = w->ctx;
	uint32_t off = sizeof(struct f2fs_xattr_header);

	if (size < off)
		return;
	while (off + 4 <= size) {
		const struct f2fs_xattr_entry *e = (const void *)(p + off);
		uint32_t esz;

		if (!get_le32(p + off))
			return;	/* the terminating zero word */
		esz = (4 + e->e_name_len + le16_to_cpu(e->e_value_size) + 3) & ~3u;
		if (e->e_name_len == 0 && !xattr_index_unnamed(e->e_name_index)) {
			if (REPORT(PR_XATTR_ENTRY, .idx = off, .str = "has an empty name"))
				cut_xattrs(w, ino, off, ixa);
			return;
		}
		if (off + esz > size) {
			if (REPORT(PR_XATTR_ENTRY, .idx = off, .str = "runs past the end of the xattr space"))
				cut_xattrs(w, ino, off, ixa);
			return;
		}
		if (e->e_name_index == F2FS_XATTR_INDEX_ENCRYPTION && e->e_name_len == 1 &&
		    e->e_name[0] == 'c')
			w->file.crypt_ctx = true;
		off += esz;
	}
	/* The last entry ends exactly at the end of the space: the kernel
	 * reads the list into a buffer with a zeroed word after the space,
	 * which ends it (read_all_xattrs(), __find_xattr()). */
}

/* What sload.f2fs 1.15 leaves in a file with more blocks than the
 * kernel's i_addr slots: it fills every i_addr word after the extra area
 * with block addresses, the inline xattr area included, and goes on in
 * the direct nodes from there; the kernel (get_inline_xattr_addrs(),
 * addrs_per_inode()) reads that area as xattrs and maps the file's next
 * blocks to the direct nodes.  The kernel itself writes only an xattr
 * list there, which always starts with the xattr magic (or leaves the
 * area zeroed): an area whose first word is not the magic and whose words
 * are all holes or main-area addresses, in a file whose size runs past
 * the kernel's slots, is such a block map.  Returns the addresses. */
/* Whether the first word of the area is a block of this file, as the
 * writer leaves it (the file's blocks go on there in order; its summary
 * names the inode): not a stray word in a zeroed area, which is what
 * damage to an area the kernel left empty looks like. */
static bool continues_the_file(const struct fsck_walk *w, uint32_t first)
{
	struct f2fs_summary sum;

	return fsck_addr_in_main(w->ctx, first) && fsck_ssa_lookup(w->ctx, first, &sum) &&
	       le32_to_cpu(sum.nid) == w->file.ino;
}

static uint32_t xattr_area_addrs(const struct fsck_walk *w, const struct f2fs_inode *ri, uint32_t ixa)
{
	const struct fsck_file *f = &w->file;
	const uint8_t *area;
	uint32_t n = 0;

	if (!ixa || ixa > MAX_INLINE_XATTR_SIZE || f->compressed ||
	    (ri->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY)))
		return 0;
	/* regular files: the repair moves blocks no other fix edits (not the
	 * dentry blocks of directories, not the quota files' blocks) */
	if (!S_ISREG(f->mode) || w->qtype)
		return 0;
	area = (const uint8_t *)ri->i_addr + 4 * (DEF_ADDRS_PER_INODE - ixa);
	if (f->i_size <= (uint64_t)f->addrs_per_inode * F2FS_BLKSIZE ||
	    get_le32(area) == F2FS_XATTR_MAGIC)
		return 0;
	for (uint32_t i = 0; i < ixa; i++) {
		uint32_t v = get_le32(area + 4 * i);

		if (v && !fsck_addr_in_main(w->ctx, v))
			return 0;
		n += v != 0;
	}
	return n && continues_the_file(w, get_le32(area)) ? n : 0;
}

/* The kernel sets the encryption flag in i_advise in the same update that
 * writes an inode's encryption context ("c" under index 9,
 * __f2fs_setxattr()), and goes by the flag alone: without it the cipher
 * text is read as plain names or data.  The context says the inode is
 * encrypted; the flag is what broke. */
static void check_encrypt_flag(struct fsck_walk *w, uint32_t ino, const struct f2fs_inode *ri)
{
	struct fsck_ctx *ctx = w->ctx;
	uint16_t mode = w->file.mode;
	struct f2fs_node *c;

	if (!w->file.crypt_ctx || (ri->i_advise & FADVISE_ENCRYPT_BIT) ||
	    !(ctx->fs->features & F2FS_FEATURE_ENCRYPT) ||
	    !(S_ISREG(mode) || S_ISDIR(mode) || S_ISLNK(mode)))
		return;
	/* an encrypted regular file never keeps its bytes inline (the kernel
	 * refuses one that does): the flag did not break, the context did */
	if (S_ISREG(mode) && (ri->i_inline & F2FS_INLINE_DATA))
		return;
	if ((c = PLAN(PR_INODE_ENCRYPT_FLAG)))
		c->i.i_advise |= FADVISE_ENCRYPT_BIT;
}

/* The converse: the flag without a context.  The kernel takes the flag as
 * the inode's encryption (S_ENCRYPTED, f2fs_set_inode_flags()) and reads
 * the context before it lists, looks up in, opens or follows the inode;
 * without one that fails (fscrypt_get_encryption_info(): -ENODATA) and
 * nothing in it can be reached.  No key can be derived without the
 * context's nonce either, so clearing the flag (as e2fsck does) loses
 * nothing and lets the kernel read what is there.  Asked only when all of
 * the inode's xattrs were read: a lost xattr node may have held it. */
static void check_encrypt_context(struct fsck_walk *w, uint32_t ino, const struct f2fs_inode *ri,
				  bool all_read)
{
	struct fsck_ctx *ctx = w->ctx;
	const struct f2fs_node *fixed;
	uint16_t mode = w->file.mode;
	struct f2fs_node *c;

	if (!(ri->i_advise & FADVISE_ENCRYPT_BIT) || w->file.crypt_ctx || !all_read ||
	    !(S_ISREG(mode) || S_ISDIR(mode) || S_ISLNK(mode)))
		return;
	fixed = fsck_fix_node_peek(ctx, ino);
	if (fixed && !(fixed->i.i_advise & FADVISE_ENCRYPT_BIT))
		return;	/* another fix cleared it (check_inline_data()) */
	if (!fixed && S_ISREG(mode) && (ri->i_inline & F2FS_INLINE_DATA))
		return;	/* check_inline_data() reports the inode */
	if ((c = PLAN(PR_INODE_ENCRYPT_NO_CONTEXT)))
		c->i.i_advise &= (uint8_t)~FADVISE_ENCRYPT_BIT;
}

void fsck_check_xattrs(struct fsck_walk *w, const struct f2fs_node *inode,
		       const struct f2fs_node *xnode)
{
	static const uint8_t zero[4];
	struct fsck_ctx *ctx = w->ctx;
	const struct f2fs_inode *ri = &inode->i;
	uint32_t ino = w->file.ino;
	uint8_t space[XATTR_SPACE_MAX];
	uint32_t size = 0, ixa = 0, addrs;

	w->file.crypt_ctx = false;
	addrs = xattr_area_addrs(w, ri, fsck_inline_xattr_addrs(ctx, ri));
	if (addrs) {
		/* not a list: the repair moves the addresses where they belong */
		if (REPORT(PR_INODE_XATTR_AREA_ADDRS, .found = addrs, .idx = w->file.addrs_per_inode))
			fsck_fix_remap(ctx, ino);
		return;
	}
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
	/* an area never written (no header) holds no entries */
	if (size >= sizeof(struct f2fs_xattr_header) + 4 &&
	    (memcmp(space, zero, 4) || get_le32(space + sizeof(struct f2fs_xattr_header)))) {
		walk_xattr_list(w, ino, space, size, ixa);
		check_encrypt_flag(w, ino, ri);
	}
	check_encrypt_context(w, ino, ri, xnode || !ri->i_xattr_nid);
}
