/*
 * content.c - the blocks of the initial tree: the root directory, the
 * optional lost+found, the hidden quota inodes and their quota files
 * (VFS v2r1 trees), and dentry blocks.
 */
#include <string.h>

#include "mkfs.h"
#include "f2fs_crc.h"
#include "f2fs_quota.h"

#define S_IFDIR_	0040000
#define S_IFREG_	0100000

/* Words of i_addr taken by the extra attribute area. */
static uint32_t extra_words(const struct mkfs_ctx *ctx)
{
	return (ctx->o.features & F2FS_FEATURE_EXTRA_ATTR) ? F2FS_TOTAL_EXTRA_ATTR_SIZE / 4 : 0;
}

/* Inline xattr area holding one security.selinux entry, or nothing. */
static void put_label_xattr(const struct mkfs_ctx *ctx, struct f2fs_inode *i,
			    const char *label)
{
	size_t len = strlen(label) + 1, used;
	uint8_t *area;
	struct f2fs_xattr_header *h;
	struct f2fs_xattr_entry *e;
	static const char name[] = "selinux";

	if (!label[0])
		return;
	used = sizeof(*h) + ((sizeof(*e) + sizeof(name) - 1 + len + 3) & ~(size_t)3) + 4;
	if (used > DEFAULT_INLINE_XATTR_ADDRS * 4)
		return;	/* too long for inline storage; left unlabelled */
	i->i_inline |= F2FS_INLINE_XATTR;
	if (ctx->o.features & F2FS_FEATURE_FLEXIBLE_INLINE_XATTR)
		i->i_inline_xattr_size = cpu_to_le16(DEFAULT_INLINE_XATTR_ADDRS);
	area = (uint8_t *)&i->i_addr[DEF_ADDRS_PER_INODE - DEFAULT_INLINE_XATTR_ADDRS];
	h = (struct f2fs_xattr_header *)area;
	h->h_magic = cpu_to_le32(F2FS_XATTR_MAGIC);
	h->h_refcount = cpu_to_le32(1);
	e = (struct f2fs_xattr_entry *)(area + sizeof(*h));
	e->e_name_index = F2FS_XATTR_INDEX_SECURITY;
	e->e_name_len = sizeof(name) - 1;
	e->e_value_size = cpu_to_le16((uint16_t)len);
	memcpy(e->e_name, name, sizeof(name) - 1);
	memcpy(e->e_name + sizeof(name) - 1, label, len);
}

static void fill_footer(const struct mkfs_ctx *ctx, struct f2fs_node *n, uint32_t nid,
			bool cold, uint32_t blkaddr)
{
	n->footer.nid = cpu_to_le32(nid);
	n->footer.ino = cpu_to_le32(nid);
	n->footer.flag = cpu_to_le32(cold ? 1u << COLD_BIT_SHIFT : 0);
	n->footer.cp_ver = cpu_to_le64(ctx->plan.cp_ver);
	n->footer.next_blkaddr = cpu_to_le32(blkaddr + 1);
}

static void fill_common(const struct mkfs_ctx *ctx, struct f2fs_inode *i, uint16_t mode,
			uint32_t links, uint64_t size, uint64_t blocks)
{
	uint64_t t = ctx->plan.mtime;

	i->i_mode = cpu_to_le16(mode);
	i->i_uid = cpu_to_le32(ctx->o.root_uid);
	i->i_gid = cpu_to_le32(ctx->o.root_gid);
	i->i_links = cpu_to_le32(links);
	i->i_size = cpu_to_le64(size);
	i->i_blocks = cpu_to_le64(blocks);
	i->i_atime = i->i_ctime = i->i_mtime = cpu_to_le64(t);
	i->i_generation = 0;
	if (ctx->o.features & F2FS_FEATURE_EXTRA_ATTR) {
		i->i_inline |= F2FS_EXTRA_ATTR;
		i->i_extra_isize = cpu_to_le16(F2FS_TOTAL_EXTRA_ATTR_SIZE);
		if (ctx->o.features & F2FS_FEATURE_INODE_CRTIME)
			i->i_crtime = cpu_to_le64(t);
	}
}

static void finish_inode(const struct mkfs_ctx *ctx, struct f2fs_node *n)
{
	if ((ctx->o.features & F2FS_FEATURE_INODE_CHKSUM) &&
	    f2fs_inode_has_checksum(ctx->o.features, n)) {
		uint32_t seed = f2fs_inode_chksum_seed(ctx->o.uuid);

		n->i.i_inode_checksum = cpu_to_le32(f2fs_inode_checksum(seed, n));
	}
}

void mkfs_build_root_inode(const struct mkfs_ctx *ctx, struct f2fs_node *n, uint32_t blkaddr,
			   uint32_t dent_blkaddr)
{
	struct f2fs_inode *i = &n->i;

	memset(n, 0, sizeof(*n));
	fill_common(ctx, i, S_IFDIR_ | 0755, ctx->plan.lpf_ino ? 3 : 2, F2FS_BLKSIZE, 2);
	i->i_current_depth = cpu_to_le32(1);
	i->i_pino = cpu_to_le32(F2FS_ROOT_INO);
	i->i_addr[extra_words(ctx)] = cpu_to_le32(dent_blkaddr);
	put_label_xattr(ctx, i, ctx->plan.root_label);
	fill_footer(ctx, n, F2FS_ROOT_INO, false, blkaddr);
	finish_inode(ctx, n);
}

void mkfs_build_lpf_inode(const struct mkfs_ctx *ctx, struct f2fs_node *n, uint32_t blkaddr,
			  uint32_t dent_blkaddr)
{
	struct f2fs_inode *i = &n->i;
	static const char name[] = "lost+found";

	memset(n, 0, sizeof(*n));
	fill_common(ctx, i, S_IFDIR_ | 0700, 2, F2FS_BLKSIZE, 2);
	i->i_current_depth = cpu_to_le32(1);
	i->i_pino = cpu_to_le32(F2FS_ROOT_INO);
	i->i_namelen = cpu_to_le32(sizeof(name) - 1);
	memcpy(i->i_name, name, sizeof(name) - 1);
	i->i_addr[extra_words(ctx)] = cpu_to_le32(dent_blkaddr);
	put_label_xattr(ctx, i, ctx->plan.lpf_label);
	fill_footer(ctx, n, ctx->plan.lpf_ino, false, blkaddr);
	finish_inode(ctx, n);
}

void mkfs_build_quota_inode(const struct mkfs_ctx *ctx, struct f2fs_node *n, uint32_t blkaddr,
			    int qidx, uint32_t data_blkaddr)
{
	struct f2fs_inode *i = &n->i;
	uint32_t w = extra_words(ctx);

	memset(n, 0, sizeof(*n));
	fill_common(ctx, i, S_IFREG_ | 0600, 1, 6 * 1024, 3);
	i->i_uid = 0;
	i->i_gid = 0;
	i->i_flags = cpu_to_le32(F2FS_IMMUTABLE_FL | F2FS_NOATIME_FL);
	i->i_addr[w] = cpu_to_le32(data_blkaddr);
	i->i_addr[w + 1] = cpu_to_le32(data_blkaddr + 1);
	fill_footer(ctx, n, ctx->plan.qf_ino[qidx], true, blkaddr);
	finish_inode(ctx, n);
}

static void put_dentry(struct f2fs_dentry_block *d, unsigned int slot, uint32_t ino,
		       const char *name, uint8_t type)
{
	size_t len = strlen(name);
	unsigned int k, slots = GET_DENTRY_SLOTS(len);
	uint32_t hash = f2fs_dentry_hash((const uint8_t *)name, len);

	d->dentry[slot].hash_code = cpu_to_le32(hash);
	d->dentry[slot].ino = cpu_to_le32(ino);
	d->dentry[slot].name_len = cpu_to_le16((uint16_t)len);
	d->dentry[slot].file_type = type;
	memcpy(d->filename[slot], name, len);
	for (k = 0; k < slots; k++)
		set_bit_le(slot + k, d->dentry_bitmap);
}

void mkfs_build_dentry_block(struct f2fs_dentry_block *d, uint32_t self, uint32_t parent,
			     uint32_t child_ino, const char *child_name)
{
	memset(d, 0, sizeof(*d));
	put_dentry(d, 0, self, ".", F2FS_FT_DIR);
	put_dentry(d, 1, parent, "..", F2FS_FT_DIR);
	if (child_ino)
		put_dentry(d, 2, child_ino, child_name, F2FS_FT_DIR);
}

/* ---- quota files ------------------------------------------------------ */

/* Usage charged to the owner of / (and lost+found): inodes and dentry
 * blocks; project quota charges project 0. */
static uint32_t quota_id(const struct mkfs_ctx *ctx, uint32_t type)
{
	if (type == 0)
		return ctx->o.root_uid;
	if (type == 1)
		return ctx->o.root_gid;
	return 0;
}

void mkfs_build_quota_file(const struct mkfs_ctx *ctx, int qidx, uint8_t data[2 * F2FS_BLKSIZE])
{
	uint32_t type = ctx->plan.quota_type[qidx];
	uint32_t inodes = ctx->plan.lpf_ino ? 2 : 1;
	struct f2fs_dquot dq = { .dqb_id = quota_id(ctx, type), .dqb_curinodes = inodes,
				 .dqb_curspace = (uint64_t)inodes * F2FS_BLKSIZE };
	struct f2fs_dqinfo grace = { .dqi_bgrace = F2FS_QT_GRACE, .dqi_igrace = F2FS_QT_GRACE };
	uint32_t nblk;

	memset(data, 0, 2 * F2FS_BLKSIZE);
	/* One id takes 6 of the 8 blocks: header, root, three tree blocks, a
	 * leaf; it cannot fail. */
	(void)f2fs_quota_build((int)type, &dq, 1, &grace, data,
			       2 * F2FS_BLKSIZE / F2FS_QT_BLKSIZE, &nblk);
}
