/*
 * fsck_lpf.c - a new root, and reconnecting unreachable inodes into
 * /lost+found.
 *
 * Runs at the start of a repair, after the check recorded the inodes the
 * walk found only as lost roots (plan->lost).  When the root inode could
 * not be used (plan->root_rebuild), a new one comes first, as mkfs makes
 * it, and takes back the names of its old dentry blocks: blocks valid in
 * SIT whose summary names nid 3 and that the walk did not reach, each
 * entry whose hash is its name's and whose inode is a lost one no other
 * name reaches (a directory once).  Then directories the walk
 * found without a dentry block 0 (plan->block0) get one holding '.' and
 * '..', as mkdir makes it.  Then it uses the /lost+found the walk saw (a
 * directory reachable from the root) or creates one: a new nid from free
 * NAT entries, mode 040700, links 2, its own dentry block with '.' and
 * '..', an entry in the root.  Each lost inode that no other
 * entry names (not an orphan, not a quota inode, not an inode the
 * roll-forward chain names again at mount) gets the entry "#<ino>" in
 * it; its i_pino, i_name and i_links follow, and a directory's '..'
 * names lost+found.  Before the lost
 * inodes, the entries the check found outside the bucket of their hash
 * (plan->dent_moves) move to it: inserted again by that hash, then dropped
 * where they were; so do the entries the check took out of slots 0 and 1
 * for '.' and '..' (plan->readds).  Last, a root that keeps its entries
 * inline and owns no other block (plan->root_uninline: the kernel refuses
 * to mount it) has them moved to a dentry block.
 *
 * Entries are inserted as the kernel does (format notes §8.2): the first
 * level from 0 whose bucket for the name's hash has room, blocks created
 * in holes, i_current_depth and i_size raised.  Inline directories take
 * the entry inline, or are converted to a dentry block when full.  Every
 * block touched is a writable copy of the repair (fsck_fix.c): nothing is
 * written here, and new blocks get their addresses when the repair writes
 * them out of place.  The derived state (NAT, SIT, SSA, counters) follows
 * from the copies and from ctx->st, which this file keeps up to date.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "f2fs_array.h"
#include "f2fs_casefold.h"
#include "f2fs_crc.h"
#include "f2fs_err.h"
#include "fsck_walk.h"

#define S_IFMT_		0170000
#define S_IFDIR_	0040000

/* A dentry block the repair creates: found again by directory and index. */
struct new_block {
	uint32_t dir;
	uint32_t bidx;
	uint8_t *blk;
};

struct lpf_run {
	struct fsck_ctx *ctx;
	struct new_block *nb;
	uint32_t n_nb, cap_nb;
	uint32_t *chain_inos;	/* nids and inos of the roll-forward chain */
	uint32_t n_chain;
	uint32_t *dent_inos;	/* chain inodes whose recovery makes their entry */
	uint32_t n_dent;
	uint8_t *salvaged;	/* bit per nid: named again in a new root */
	uint32_t salvaged_lpf;	/* lost+found named again in a new root */
	uint8_t tmp[F2FS_BLKSIZE];	/* a block read for a lookup only */
	struct f2fs_node inode_buf[1];	/* an inode read for a lookup only */
	struct f2fs_node lookup_buf[1];	/* the directory has_name() looks in */
};

enum blk_mode { BLK_READ, BLK_CREATE };

/* One dentry area: a dentry block or an inline dentry area. */
struct dent_area {
	uint8_t *bitmap;
	struct f2fs_dir_entry *de;
	uint8_t (*names)[F2FS_SLOT_LEN];
	uint32_t nslots;
};

/* ---- small helpers ---- */

static uint32_t nat_addr(const struct fsck_ctx *ctx, uint32_t nid)
{
	struct f2fs_nat_entry e;

	return fsck_nat_lookup(ctx, nid, &e) ? le32_to_cpu(e.block_addr) : 0;
}

/* The writable copy of inode ino (made now if need be). */
static struct f2fs_node *inode_copy(struct fsck_ctx *ctx, uint32_t ino)
{
	struct f2fs_node *n = fsck_fix_node_peek(ctx, ino);

	if (n)
		return n;
	return fsck_fix_node(ctx, ino, nat_addr(ctx, ino), NULL);
}

/* Inode ino to look in: its writable copy when there is one, else the
 * block as on disk in lr->lookup_buf (a lookup alone writes nothing). */
static struct f2fs_node *lookup_inode(struct lpf_run *lr, uint32_t ino)
{
	struct f2fs_node *n = fsck_fix_node_peek(lr->ctx, ino);
	uint32_t addr;

	if (n)
		return n;
	addr = nat_addr(lr->ctx, ino);
	if (!fsck_addr_in_main(lr->ctx, addr) || f2fs_dev_read(lr->ctx->fs->dev, addr, 1, lr->lookup_buf))
		return NULL;
	return lr->lookup_buf;
}

/* Index of the first block of bucket `bucket` at level `level`. */
static uint64_t bucket_start(uint32_t level, uint32_t dir_level, uint64_t bucket)
{
	uint64_t bidx = 0;

	for (uint32_t l = 0; l < level; l++)
		bidx += f2fs_dir_buckets(l, dir_level) * f2fs_bucket_blocks(l);
	return bidx + bucket * f2fs_bucket_blocks(level);
}

static void block_area(uint8_t *blk, struct dent_area *a)
{
	struct f2fs_dentry_block *d = (struct f2fs_dentry_block *)blk;

	a->bitmap = d->dentry_bitmap;
	a->de = d->dentry;
	a->names = d->filename;
	a->nslots = NR_DENTRY_IN_BLOCK;
}

/* The inline dentry area of directory inode n (format notes §8.5). */
static void inline_area(const struct fsck_ctx *ctx, struct f2fs_node *n, struct dent_area *a)
{
	uint8_t *blk = (uint8_t *)n;
	struct fsck_inline_dents d;

	(void)fsck_inline_dents(ctx, &n->i, &d);
	a->bitmap = blk + d.bitmap_off;
	a->de = (struct f2fs_dir_entry *)(blk + d.de_off);
	a->names = (uint8_t (*)[F2FS_SLOT_LEN])(blk + d.name_off);
	a->nslots = d.nslots;
}

/* First slot of a run of `slots` free slots, or UINT32_MAX. */
static uint32_t find_room(const struct dent_area *a, uint32_t slots)
{
	uint32_t run = 0;

	for (uint32_t i = 0; i < a->nslots; i++) {
		if (test_bit_le(i, a->bitmap)) {
			run = 0;
			continue;
		}
		if (++run == slots)
			return i + 1 - slots;
	}
	return UINT32_MAX;
}

static void put_entry(struct dent_area *a, uint32_t slot, const uint8_t *name, uint32_t len,
		      uint32_t hash, uint32_t ino, uint8_t ftype)
{
	uint32_t slots = GET_DENTRY_SLOTS(len);

	for (uint32_t k = 0; k < slots; k++) {
		memset(&a->de[slot + k], 0, sizeof(a->de[0]));
		memset(a->names[slot + k], 0, F2FS_SLOT_LEN);
		set_bit_le(slot + k, a->bitmap);
	}
	a->de[slot].hash_code = cpu_to_le32(hash);
	a->de[slot].ino = cpu_to_le32(ino);
	a->de[slot].name_len = cpu_to_le16((uint16_t)len);
	a->de[slot].file_type = ftype;
	memcpy(a->names[slot], name, len);
}

/* ---- dentry blocks of a directory ---- */

/* The node and slot holding the address of block bidx of directory
 * inode n: the inode itself or one of its two direct nodes. */
static struct f2fs_node *block_owner(struct fsck_ctx *ctx, uint32_t ino, struct f2fs_node *n,
				     uint64_t bidx, uint32_t *owner, uint16_t *ofs, const uint8_t **slot)
{
	uint32_t extra = fsck_extra_words(&n->i);
	uint32_t ixa = fsck_inline_xattr_addrs(ctx, &n->i);
	uint64_t per_inode = DEF_ADDRS_PER_INODE - extra - ixa;

	if (bidx < per_inode) {
		*owner = ino;
		*ofs = (uint16_t)bidx;
		*slot = (const uint8_t *)n + offsetof(struct f2fs_inode, i_addr) + 4 * (extra + bidx);
		return n;
	}
	bidx -= per_inode;
	for (int k = 0; k < 2; k++, bidx -= ADDRS_PER_BLOCK) {
		uint32_t nid = le32_to_cpu(n->i.i_nid[k]);
		struct f2fs_node *dn;

		if (bidx >= ADDRS_PER_BLOCK)
			continue;
		if (!nid || nid >= ctx->fs->max_nid || !(ctx->ni[nid].flags & FSCK_NI_NODE))
			return NULL;
		dn = inode_copy(ctx, nid);
		if (!dn)
			return NULL;
		*owner = nid;
		*ofs = (uint16_t)bidx;
		*slot = (const uint8_t *)dn + 4 * bidx;
		return dn;
	}
	return NULL;
}

static uint8_t *new_block(struct lpf_run *lr, uint32_t dir, uint32_t bidx, uint32_t owner,
			  uint16_t ofs)
{
	struct fsck_ctx *ctx = lr->ctx;
	uint8_t *b;

	if (F2FS_ARRAY_ROOM32(lr->nb, lr->cap_nb, lr->n_nb + 1, 8))
		return NULL;
	b = fsck_fix_data_new(ctx, owner, ofs);
	if (!b)
		return NULL;
	lr->nb[lr->n_nb].dir = dir;
	lr->nb[lr->n_nb].bidx = bidx;
	lr->nb[lr->n_nb++].blk = b;
	ctx->st.data_blocks++;
	return b;
}

/* Dentry block bidx of dir (inode copy n): with BLK_CREATE a writable
 * copy, created in a hole; with BLK_READ the block as it is (a copy if
 * one exists), NULL for a hole.  NULL when it cannot be had (*err set on
 * an operational error). */
static uint8_t *dent_block(struct lpf_run *lr, uint32_t dir, struct f2fs_node *n, uint64_t bidx,
			   enum blk_mode mode, int *err)
{
	struct fsck_ctx *ctx = lr->ctx;
	uint32_t owner, addr;
	uint16_t ofs;
	const uint8_t *slot;
	uint8_t *b;

	for (uint32_t i = 0; i < lr->n_nb; i++)
		if (lr->nb[i].dir == dir && lr->nb[i].bidx == bidx)
			return lr->nb[i].blk;
	if (!block_owner(ctx, dir, n, bidx, &owner, &ofs, &slot))
		return NULL;
	addr = get_le32(slot);
	if (addr == NULL_ADDR) {
		if (mode == BLK_READ)
			return NULL;
		b = new_block(lr, dir, (uint32_t)bidx, owner, ofs);
		if (!b) {
			*err = -ENOMEM;
			return NULL;
		}
		n->i.i_blocks = cpu_to_le64(le64_to_cpu(n->i.i_blocks) + 1);
		return b;
	}
	if (!fsck_addr_in_main(ctx, addr))
		return NULL;
	if (mode == BLK_READ) {
		b = fsck_fix_data_peek(ctx, addr);
		if (b)
			return b;
		*err = f2fs_dev_read(ctx->fs->dev, addr, 1, lr->tmp);
		return *err ? NULL : lr->tmp;
	}
	b = fsck_fix_data(ctx, addr, owner, ofs, NULL);
	if (!b)
		*err = ctx->plan->err ? ctx->plan->err : -EIO;
	return b;
}

/* ---- inserting an entry ---- */

/* Into a dentry-block directory, level by level from 0 (§8.2). */
static int add_to_blocks(struct lpf_run *lr, uint32_t dir, struct f2fs_node *n, const uint8_t *name,
			 uint32_t len, uint32_t hash, uint32_t ino, uint8_t ftype)
{
	uint32_t dl = n->i.i_dir_level, depth = le32_to_cpu(n->i.i_current_depth);
	uint32_t slots = GET_DENTRY_SLOTS(len);
	int err = 0;

	for (uint32_t level = 0; level < MAX_DIR_HASH_DEPTH; level++) {
		uint64_t first = bucket_start(level, dl, hash % f2fs_dir_buckets(level, dl));

		for (uint32_t k = 0; k < f2fs_bucket_blocks(level); k++) {
			uint8_t *b = dent_block(lr, dir, n, first + k, BLK_CREATE, &err);
			struct dent_area a;
			uint32_t at;

			if (err)
				return err;
			if (!b)
				continue;
			block_area(b, &a);
			at = find_room(&a, slots);
			if (at == UINT32_MAX)
				continue;
			put_entry(&a, at, name, len, hash, ino, ftype);
			if (depth < level + 1)
				n->i.i_current_depth = cpu_to_le32(level + 1);
			if (le64_to_cpu(n->i.i_size) < (first + k + 1) * F2FS_BLKSIZE)
				n->i.i_size = cpu_to_le64((first + k + 1) * F2FS_BLKSIZE);
			return 0;
		}
	}
	return -ENOSPC;
}

/* Without flexible_inline_xattr an inline directory has an inline xattr
 * area (ixa words before the end of i_addr) whatever its inline xattr
 * flag says; once it is not inline, only that flag keeps the area.  Set
 * it when the area holds anything, so that the xattrs stay and their
 * words are not taken for block addresses. */
static void keep_inline_xattrs(const struct fsck_ctx *ctx, struct f2fs_node *n, uint32_t ixa)
{
	uint32_t now = fsck_inline_xattr_addrs(ctx, &n->i);

	for (uint32_t i = DEF_ADDRS_PER_INODE - ixa; now < ixa && i < DEF_ADDRS_PER_INODE - now; i++) {
		if (n->i.i_addr[i]) {
			n->i.i_inline |= F2FS_INLINE_XATTR;
			return;
		}
	}
}

/* Turn inline directory n into one with dentry block 0: '.' and '..' go
 * to slots 0 and 1, every other entry is inserted again by its hash. */
static int convert_inline(struct lpf_run *lr, uint32_t dir, struct f2fs_node *n)
{
	struct fsck_ctx *ctx = lr->ctx;
	struct dent_area in, out;
	uint32_t nslots, extra = fsck_extra_words(&n->i);
	uint32_t ixa = fsck_inline_xattr_addrs(ctx, &n->i);
	uint8_t *saved, *b;
	int err = 0;

	inline_area(ctx, n, &in);
	nslots = in.nslots;
	saved = malloc(F2FS_BLKSIZE);
	if (!saved)
		return -ENOMEM;
	/* keep a copy of the inline area, then clear it for addresses */
	memcpy(saved, n, F2FS_BLKSIZE);
	memset(&n->i.i_addr[extra], 0, (size_t)(DEF_ADDRS_PER_INODE - extra - ixa) * 4);
	n->i.i_inline &= (uint8_t)~F2FS_INLINE_DENTRY;
	n->i.i_current_depth = cpu_to_le32(1);
	n->i.i_size = cpu_to_le64(F2FS_BLKSIZE);
	b = dent_block(lr, dir, n, 0, BLK_CREATE, &err);
	if (!b) {
		free(saved);
		return err ? err : -ENOSPC;
	}
	keep_inline_xattrs(ctx, n, ixa);
	inline_area(ctx, (struct f2fs_node *)saved, &in);
	block_area(b, &out);
	for (uint32_t i = 0; i < nslots && !err;) {
		uint32_t len = le16_to_cpu(in.de[i].name_len);
		const uint8_t *name = in.names[i];
		bool dot = len == 1 && name[0] == '.', dotdot = len == 2 && !memcmp(name, "..", 2);

		if (!test_bit_le(i, in.bitmap) || !len || len > F2FS_NAME_LEN ||
		    i + GET_DENTRY_SLOTS(len) > nslots) {
			i++;
			continue;
		}
		if (dot || dotdot)
			put_entry(&out, dot ? 0 : 1, name, len, 0, le32_to_cpu(in.de[i].ino), F2FS_FT_DIR);
		else
			err = add_to_blocks(lr, dir, n, name, len, le32_to_cpu(in.de[i].hash_code),
					    le32_to_cpu(in.de[i].ino), in.de[i].file_type);
		i += GET_DENTRY_SLOTS(len);
	}
	free(saved);
	return err;
}

/* The slot of entry name in area a, or UINT32_MAX. */
static uint32_t area_find(const struct dent_area *a, const uint8_t *name, uint32_t len)
{
	for (uint32_t i = 0; i < a->nslots; i++)
		if (test_bit_le(i, a->bitmap) && le16_to_cpu(a->de[i].name_len) == len &&
		    i + GET_DENTRY_SLOTS(len) <= a->nslots && !memcmp(a->names[i], name, len))
			return i;
	return UINT32_MAX;
}

static bool area_has(const struct dent_area *a, const uint8_t *name, uint32_t len)
{
	return area_find(a, name, len) != UINT32_MAX;
}

/* Whether directory dir has an entry called cname (looked up in every
 * block of the buckets the name's hash selects, levels 0..depth-1). */
static bool has_name(struct lpf_run *lr, uint32_t dir, const char *cname)
{
	struct fsck_ctx *ctx = lr->ctx;
	struct f2fs_node *n = lookup_inode(lr, dir);
	const uint8_t *name = (const uint8_t *)cname;
	uint32_t len = (uint32_t)strlen(cname), hash = f2fs_dentry_hash(name, len);
	uint32_t dl, depth;
	struct dent_area a;
	int err = 0;

	if (!n)
		return true;	/* cannot tell: do not add a second one */
	if (n->i.i_inline & F2FS_INLINE_DENTRY) {
		inline_area(ctx, n, &a);
		return area_has(&a, name, len);
	}
	dl = n->i.i_dir_level;
	depth = le32_to_cpu(n->i.i_current_depth);
	for (uint32_t level = 0; level < depth && level < MAX_DIR_HASH_DEPTH; level++) {
		uint64_t first = bucket_start(level, dl, hash % f2fs_dir_buckets(level, dl));

		for (uint32_t k = 0; k < f2fs_bucket_blocks(level); k++) {
			uint8_t *b = dent_block(lr, dir, n, first + k, BLK_READ, &err);

			if (err)
				return true;
			if (!b)
				continue;
			block_area(b, &a);
			if (area_has(&a, name, len))
				return true;
		}
	}
	return false;
}

static void clear_entry(struct dent_area *a, uint32_t slot)
{
	uint32_t slots = GET_DENTRY_SLOTS(le16_to_cpu(a->de[slot].name_len));

	for (uint32_t k = 0; k < slots; k++) {
		clear_bit_le(slot + k, a->bitmap);
		memset(&a->de[slot + k], 0, sizeof(a->de[slot + k]));
		memset(a->names[slot + k], 0, F2FS_SLOT_LEN);
	}
}

/* The root's entry cname in its writable block (or inline area): its
 * area in *a and its slot, or UINT32_MAX. */
static uint32_t root_entry(struct lpf_run *lr, const char *cname, struct dent_area *a, int *err)
{
	struct fsck_ctx *ctx = lr->ctx;
	struct f2fs_node *n = lookup_inode(lr, F2FS_ROOT_INO);
	const uint8_t *name = (const uint8_t *)cname;
	uint32_t len = (uint32_t)strlen(cname), hash = f2fs_dentry_hash(name, len), dl, depth;

	if (!n)
		return UINT32_MAX;
	if (n->i.i_inline & F2FS_INLINE_DENTRY) {
		n = inode_copy(ctx, F2FS_ROOT_INO);
		if (!n)
			return UINT32_MAX;
		inline_area(ctx, n, a);
		return area_find(a, name, len);
	}
	dl = n->i.i_dir_level;
	depth = le32_to_cpu(n->i.i_current_depth);
	for (uint32_t level = 0; level < depth && level < MAX_DIR_HASH_DEPTH; level++) {
		uint64_t first = bucket_start(level, dl, hash % f2fs_dir_buckets(level, dl));

		for (uint32_t k = 0; k < f2fs_bucket_blocks(level); k++) {
			uint8_t *b = dent_block(lr, F2FS_ROOT_INO, n, first + k, BLK_READ, err);

			if (*err)
				return UINT32_MAX;
			if (!b)
				continue;
			block_area(b, a);
			if (area_find(a, name, len) == UINT32_MAX)
				continue;
			n = inode_copy(ctx, F2FS_ROOT_INO);
			b = n ? dent_block(lr, F2FS_ROOT_INO, n, first + k, BLK_CREATE, err) : NULL;
			if (!b)
				return UINT32_MAX;
			block_area(b, a);
			return area_find(a, name, len);
		}
	}
	return UINT32_MAX;
}

/* /lost+found names a file that is no directory: the entry goes, as
 * e2fsck unlinks a /lost+found that is not a directory, so that a new one
 * can be made.  A file with other names keeps them (its link count
 * follows); one known by that name alone is returned in *move, to be
 * reconnected into the new /lost+found as e2fsck reconnects it (kept,
 * under its inode number).  True when the name is free now. */
static bool free_lpf_name(struct lpf_run *lr, uint32_t *move, int *err)
{
	struct fsck_ctx *ctx = lr->ctx;
	struct dent_area a;
	struct f2fs_node *n;
	uint32_t slot = root_entry(lr, "lost+found", &a, err), ino;

	*move = 0;
	if (slot == UINT32_MAX)
		return false;
	ino = le32_to_cpu(a.de[slot].ino);
	if (ino < F2FS_RESERVED_NODE_NUM || ino >= ctx->fs->max_nid ||
	    !ctx->ni[ino].links_found ||
	    (ctx->ni[ino].flags & (FSCK_NI_INODE | FSCK_NI_DIR | FSCK_NI_QUOTA)) != FSCK_NI_INODE)
		return false;
	n = inode_copy(ctx, ino);
	if (!n) {
		*err = ctx->plan->err ? ctx->plan->err : -EIO;
		return false;
	}
	clear_entry(&a, slot);
	ctx->ni[ino].links_found--;
	n->i.i_links = cpu_to_le32(ctx->ni[ino].links_found);
	if (ctx->ni[ino].links_found) {
		fsck_diag(ctx, "/lost+found named inode %u, which is no directory and keeps its "
			  "other names: the entry is removed to make /lost+found", ino);
	} else {
		*move = ino;
		fsck_diag(ctx, "/lost+found named inode %u, which is no directory and has no other "
			  "name: the entry is removed to make /lost+found, and the file is "
			  "reconnected into it", ino);
	}
	return true;
}

/* Insert name -> ino into directory dir, by hash. */
static int add_hashed(struct lpf_run *lr, uint32_t dir, const uint8_t *name, uint32_t len,
		      uint32_t hash, uint32_t ino, uint8_t ftype)
{
	struct fsck_ctx *ctx = lr->ctx;
	struct f2fs_node *n = inode_copy(ctx, dir);
	int err;

	if (!n)
		return ctx->plan->err ? ctx->plan->err : -EIO;
	if (n->i.i_inline & F2FS_INLINE_DENTRY) {
		struct dent_area a;
		uint32_t at;

		inline_area(ctx, n, &a);
		at = find_room(&a, GET_DENTRY_SLOTS(len));
		if (at != UINT32_MAX) {
			put_entry(&a, at, name, len, hash, ino, ftype);
			return 0;
		}
		err = convert_inline(lr, dir, n);
		if (err)
			return err;
	}
	return add_to_blocks(lr, dir, n, name, len, hash, ino, ftype);
}

/* Insert name -> ino into directory dir (not casefolded). */
static int add_entry(struct lpf_run *lr, uint32_t dir, const char *cname, uint32_t ino, uint8_t ftype)
{
	const uint8_t *name = (const uint8_t *)cname;
	uint32_t len = (uint32_t)strlen(cname);

	return add_hashed(lr, dir, name, len, f2fs_dentry_hash(name, len), ino, ftype);
}

/* ---- directories without dentry block 0 ---- */

/* A NEW_ADDR slot (a block the kernel reserved and reads as zeroes) that
 * a new block takes over was already counted in i_blocks and in the
 * valid blocks: dent_block() counted the new block again. */
static void replaced_new_addr(struct fsck_ctx *ctx, struct f2fs_node *n, uint32_t old)
{
	uint64_t blocks = le64_to_cpu(n->i.i_blocks);

	if (old != NEW_ADDR)
		return;
	if (blocks > 1)
		n->i.i_blocks = cpu_to_le64(blocks - 1);
	if (ctx->st.new_addr_blocks)
		ctx->st.new_addr_blocks--;
}

/* A new dentry block 0 with '.' and '..' for directory ino, whose slot is
 * a hole or was dropped: its address is set when the repair writes it. */
static int make_block0(struct lpf_run *lr, uint32_t ino, uint32_t parent)
{
	struct fsck_ctx *ctx = lr->ctx;
	struct f2fs_node *n = inode_copy(ctx, ino);
	struct dent_area a;
	uint32_t extra, old;
	int err = 0;
	uint8_t *b;

	if (!n || (n->i.i_inline & F2FS_INLINE_DENTRY))
		return 0;
	extra = fsck_extra_words(&n->i);
	if (extra >= DEF_ADDRS_PER_INODE)
		return 0;
	old = le32_to_cpu(n->i.i_addr[extra]);
	n->i.i_addr[extra] = 0;
	b = dent_block(lr, ino, n, 0, BLK_CREATE, &err);
	if (!b)
		return err;
	replaced_new_addr(ctx, n, old);
	block_area(b, &a);
	put_entry(&a, 0, (const uint8_t *)".", 1, 0, ino, F2FS_FT_DIR);
	put_entry(&a, 1, (const uint8_t *)"..", 2, 0, parent, F2FS_FT_DIR);
	if (le64_to_cpu(n->i.i_size) < F2FS_BLKSIZE)
		n->i.i_size = cpu_to_le64(F2FS_BLKSIZE);
	if (!le32_to_cpu(n->i.i_current_depth))
		n->i.i_current_depth = cpu_to_le32(1);
	return 0;
}

static int make_blocks0(struct lpf_run *lr)
{
	const struct fsck_plan *plan = lr->ctx->plan;
	int err = 0;

	for (uint32_t i = 0; i + 1 < plan->n_block0 && !err; i += 2)
		if (lr->ctx->ni[plan->block0[i]].flags & FSCK_NI_NODE)
			err = make_block0(lr, plan->block0[i], plan->block0[i + 1]);
	return err;
}

/* ---- entries outside their hash bucket ---- */

/* Move the entry at m->loc into a block of the bucket of m->hash (the
 * first level with room, as an insertion), then drop it where it was.
 * An entry dropped since the check stays dropped. */
static int move_entry(struct lpf_run *lr, const struct fsck_dent_move *m)
{
	struct fsck_ctx *ctx = lr->ctx;
	const struct fsck_dent_loc *loc = &m->loc;
	struct f2fs_node *n = inode_copy(ctx, loc->dir_ino);
	const struct f2fs_dir_entry *de;
	uint8_t name[F2FS_NAME_LEN];
	const uint8_t *b;
	uint32_t len;
	int err;

	if (!n)
		return ctx->plan->err ? ctx->plan->err : -EIO;
	if (fsck_dent_inline(loc) || (n->i.i_inline & F2FS_INLINE_DENTRY) || loc->slot >= loc->nslots)
		return 0;
	b = fsck_fix_data_peek(ctx, loc->blkaddr);
	if (!b) {
		err = f2fs_dev_read(ctx->fs->dev, loc->blkaddr, 1, lr->tmp);
		if (err)
			return err;
		b = lr->tmp;
	}
	if (!test_bit_le(loc->slot, b + loc->bitmap_off))
		return 0;
	de = (const void *)(b + loc->de_base + (size_t)loc->slot * SIZE_OF_DIR_ENTRY);
	len = le16_to_cpu(de->name_len);
	if (!len || len > F2FS_NAME_LEN || loc->slot + GET_DENTRY_SLOTS(len) > loc->nslots)
		return 0;
	memcpy(name, b + fsck_dent_names(loc) + (size_t)loc->slot * F2FS_SLOT_LEN, len);
	err = add_to_blocks(lr, loc->dir_ino, n, name, len, m->hash, le32_to_cpu(de->ino),
			    de->file_type);
	if (err == -ENOSPC) {
		fsck_diag(ctx, "directory %u has no room for an entry in its hash bucket", loc->dir_ino);
		return 0;
	}
	if (!err)
		fsck_fix_dentry(ctx, loc, NULL, FSCK_DENT_DROP, 0);
	return err;
}

static int move_entries(struct lpf_run *lr)
{
	const struct fsck_plan *plan = lr->ctx->plan;
	int err = 0;

	for (uint32_t i = 0; i < plan->n_dent_moves && !err; i++)
		err = move_entry(lr, &plan->dent_moves[i]);
	for (uint32_t i = 0; i < plan->n_readds && !err; i++) {
		const struct fsck_dent_readd *e = &plan->readds[i];

		err = add_hashed(lr, e->dir, e->name, e->len, e->hash, e->ino, e->ftype);
		if (err == -ENOSPC) {
			fsck_diag(lr->ctx, "directory %u has no room for an entry taken out of "
				  "slot 0 or 1", e->dir);
			err = 0;
		}
	}
	return err;
}

/* ---- lost+found ---- */

static bool in_chain(const struct lpf_run *lr, uint32_t nid)
{
	for (uint32_t i = 0; i < lr->n_chain; i++)
		if (lr->chain_inos[i] == nid)
			return true;
	return false;
}

/* Whether roll-forward recovery names ino itself: the chain holds its
 * inode with the dentry mark, and recover_dentry() adds its entry to
 * i_pino under i_name at mount.  Other inodes the chain touches (data
 * of a file fsync'd after the checkpoint) are recovered through their
 * NAT entry, whatever name they have: they can be reconnected. */
static bool named_by_chain(const struct lpf_run *lr, uint32_t ino)
{
	for (uint32_t i = 0; i < lr->n_dent; i++)
		if (lr->dent_inos[i] == ino)
			return true;
	return false;
}

/* The nids and inos the roll-forward chain's nodes carry. */
static int load_chain(struct lpf_run *lr)
{
	struct fsck_ctx *ctx = lr->ctx;
	struct fsck_plan *plan = ctx->plan;
	struct f2fs_node n;
	int err = 0;

	if (!plan->n_chain)
		return 0;
	lr->chain_inos = malloc((size_t)plan->n_chain * 2 * sizeof(uint32_t));
	lr->dent_inos = malloc((size_t)plan->n_chain * sizeof(uint32_t));
	if (!lr->chain_inos || !lr->dent_inos)
		return -ENOMEM;
	for (uint32_t i = 0; i < plan->n_chain && !err; i++) {
		uint32_t nid, ino;

		err = f2fs_dev_read(ctx->fs->dev, plan->chain[i], 1, &n);
		if (err)
			break;
		nid = le32_to_cpu(n.footer.nid);
		ino = le32_to_cpu(n.footer.ino);
		lr->chain_inos[lr->n_chain++] = nid;
		lr->chain_inos[lr->n_chain++] = ino;
		if (nid == ino && (le32_to_cpu(n.footer.flag) & (1u << DENT_BIT_SHIFT)))
			lr->dent_inos[lr->n_dent++] = ino;
	}
	return err;
}

/* A nid whose NAT entry is free and that no chain node uses, or 0. */
static uint32_t free_nid(const struct lpf_run *lr)
{
	struct fsck_ctx *ctx = lr->ctx;
	struct f2fs_nat_entry e;

	for (uint32_t nid = F2FS_RESERVED_NODE_NUM; nid < ctx->nat.max_nid; nid++) {
		if (ctx->ni[nid].flags & (FSCK_NI_NODE | FSCK_NI_QUEUED))
			continue;
		if (f2fs_nat_get(&ctx->nat, nid, &e) || e.block_addr || e.ino)
			continue;
		if (fsck_fix_node_peek(ctx, nid) || in_chain(lr, nid))
			continue;
		return nid;
	}
	return 0;
}

/* A new empty directory inode nid in root (name "" for the root itself):
 * owned by uid and gid 0, project 0, as mkfs makes root and lost+found. */
static void fill_dir_inode(struct fsck_ctx *ctx, struct f2fs_node *n, uint32_t nid, uint16_t perm,
			   const char *name)
{
	struct f2fs_inode *i = &n->i;
	uint64_t now = (uint64_t)time(NULL);
	size_t len = strlen(name);

	memset(n, 0, sizeof(*n));
	i->i_mode = cpu_to_le16(S_IFDIR_ | perm);
	i->i_links = cpu_to_le32(2);
	i->i_size = cpu_to_le64(0);
	i->i_blocks = cpu_to_le64(1);		/* the inode; dentry blocks add theirs */
	i->i_atime = i->i_ctime = i->i_mtime = cpu_to_le64(now);
	i->i_current_depth = cpu_to_le32(1);
	i->i_pino = cpu_to_le32(F2FS_ROOT_INO);
	i->i_namelen = cpu_to_le32((uint32_t)len);
	memcpy(i->i_name, name, len);
	if (ctx->fs->features & F2FS_FEATURE_EXTRA_ATTR) {
		i->i_inline |= F2FS_EXTRA_ATTR;
		i->i_extra_isize = cpu_to_le16(ctx->plan->extra_isize_ref ? ctx->plan->extra_isize_ref :
					       F2FS_TOTAL_EXTRA_ATTR_SIZE);
		if (ctx->fs->features & F2FS_FEATURE_INODE_CRTIME)
			i->i_crtime = cpu_to_le64(now);
	}
	n->footer.nid = cpu_to_le32(nid);
	n->footer.ino = cpu_to_le32(nid);
	n->footer.cp_ver = ctx->fs->cp->checkpoint_ver;
}

static void fill_lpf_inode(struct fsck_ctx *ctx, struct f2fs_node *n, uint32_t nid)
{
	fill_dir_inode(ctx, n, nid, 0700, "lost+found");
}

/* Create /lost+found; returns its ino, 0 when it cannot be made. */
static uint32_t create_lpf(struct lpf_run *lr, int *err)
{
	struct fsck_ctx *ctx = lr->ctx;
	uint32_t nid = free_nid(lr);
	struct f2fs_node *n, *root;
	struct dent_area a;
	uint8_t *b;

	if (!nid) {
		fsck_diag(ctx, "no free node id for /lost+found");
		return 0;
	}
	root = inode_copy(ctx, F2FS_ROOT_INO);
	n = fsck_fix_node_new(ctx, nid);
	if (!root || !n) {
		*err = ctx->plan->err ? ctx->plan->err : -ENOMEM;
		return 0;
	}
	fill_lpf_inode(ctx, n, nid);
	ctx->ni[nid].flags |= FSCK_NI_NODE | FSCK_NI_INODE | FSCK_NI_DIR;
	ctx->ni[nid].ftype = F2FS_FT_DIR;
	ctx->ni[nid].i_links = 2;
	fsck_fix_owner(ctx, nid, nid);
	ctx->st.inodes++;
	ctx->st.nodes++;
	ctx->st.dirs++;
	b = dent_block(lr, nid, n, 0, BLK_CREATE, err);
	if (!b)
		return 0;
	block_area(b, &a);
	put_entry(&a, 0, (const uint8_t *)".", 1, 0, nid, F2FS_FT_DIR);
	put_entry(&a, 1, (const uint8_t *)"..", 2, 0, F2FS_ROOT_INO, F2FS_FT_DIR);
	n->i.i_size = cpu_to_le64(F2FS_BLKSIZE);
	*err = add_entry(lr, F2FS_ROOT_INO, "lost+found", nid, F2FS_FT_DIR);
	if (*err)
		return 0;
	*err = fsck_subdirs_add(ctx, F2FS_ROOT_INO);
	if (*err)
		return 0;
	root->i.i_links = cpu_to_le32(2 + fsck_subdirs(ctx, F2FS_ROOT_INO));
	fsck_diag(ctx, "created /lost+found (ino %u)", nid);
	return nid;
}

/* /lost+found as the walk saw it, if it is a usable directory. */
static uint32_t existing_lpf(const struct fsck_ctx *ctx)
{
	uint32_t ino = ctx->plan->lost_found;
	const struct f2fs_node *n;

	if (!ino || ino >= ctx->fs->max_nid)
		return 0;
	if ((ctx->ni[ino].flags & (FSCK_NI_INODE | FSCK_NI_DIR | FSCK_NI_LOST)) !=
	    (FSCK_NI_INODE | FSCK_NI_DIR))
		return 0;
	n = fsck_fix_node_peek(ctx, ino);
	if (n && (n->i.i_advise & FADVISE_ENCRYPT_BIT))
		return 0;
	return ino;
}


/* ---- a new root ---- */

static void set_dotdot(struct lpf_run *lr, uint32_t ino, struct f2fs_node *n, uint32_t parent);

/* The root as mkfs makes it, with a dentry block 0 holding '.' and '..'. */
static int create_root(struct lpf_run *lr)
{
	struct fsck_ctx *ctx = lr->ctx;
	struct fsck_nid_info *ni = &ctx->ni[F2FS_ROOT_INO];
	struct f2fs_node *n = fsck_fix_node_peek(ctx, F2FS_ROOT_INO);
	struct dent_area a;
	int err = 0;
	uint8_t *b;

	if (!n)
		n = fsck_fix_node_new(ctx, F2FS_ROOT_INO);
	if (!n)
		return ctx->plan->err ? ctx->plan->err : -ENOMEM;
	fill_dir_inode(ctx, n, F2FS_ROOT_INO, 0755, "");
	/* the walk counted the old root only when it got past the inode's
	 * own fields (mode_read); reaching its block (FSCK_NI_NODE) is not
	 * counting it */
	if (!ni->mode_read) {
		ctx->st.inodes++;
		ctx->st.nodes++;
		ctx->st.dirs++;
	}
	ni->flags |= FSCK_NI_NODE | FSCK_NI_INODE | FSCK_NI_DIR;
	ni->flags &= (uint8_t)~FSCK_NI_LOST;
	ni->ftype = F2FS_FT_DIR;
	ni->i_links = 2;
	fsck_fix_owner(ctx, F2FS_ROOT_INO, F2FS_ROOT_INO);
	b = dent_block(lr, F2FS_ROOT_INO, n, 0, BLK_CREATE, &err);
	if (!b)
		return err ? err : -ENOMEM;
	block_area(b, &a);
	put_entry(&a, 0, (const uint8_t *)".", 1, 0, F2FS_ROOT_INO, F2FS_FT_DIR);
	put_entry(&a, 1, (const uint8_t *)"..", 2, 0, F2FS_ROOT_INO, F2FS_FT_DIR);
	n->i.i_size = cpu_to_le64(F2FS_BLKSIZE);
	fsck_diag(ctx, "made a new root directory");
	return 0;
}

/* Blocks that held the old root's entries: valid in SIT, their summary
 * names the root, and nothing the walk reached uses them. */
struct root_blocks {
	struct fsck_ctx *ctx;
	uint64_t *v;		/* ofs_in_node << 32 | address */
	uint32_t n, cap;
	int err;
};

static void note_root_block(void *arg, uint32_t blkaddr, const struct f2fs_summary *s,
			    bool past_log)
{
	struct root_blocks *rb = arg;
	struct fsck_ctx *ctx = rb->ctx;

	if (past_log || rb->err || le32_to_cpu(s->nid) != F2FS_ROOT_INO ||
	    !fsck_addr_in_main(ctx, blkaddr) || !fsck_sit_valid(ctx, blkaddr) ||
	    fsck_bit(ctx->reach, blkaddr - ctx->fs->main_blkaddr))
		return;
	if (F2FS_ARRAY_ROOM32(rb->v, rb->cap, rb->n + 1, 16)) {
		rb->err = -ENOMEM;
		return;
	}
	rb->v[rb->n++] = (uint64_t)le16_to_cpu(s->ofs_in_node) << 32 | blkaddr;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Whether hash is the name's, folded or not: a slot written whole. */
static bool hash_matches(const uint8_t *name, uint32_t len, uint32_t hash)
{
	uint8_t folded[F2FS_CASEFOLD_MAX];
	int n;

	if (f2fs_dentry_hash(name, len) == hash)
		return true;
	n = f2fs_casefold(name, len, folded, sizeof(folded));
	return n >= 0 && f2fs_dentry_hash(folded, (size_t)n) == hash;
}

/* Whether ino can take back a name in the new root: an unreachable
 * inode that nothing else reconnects, a directory not named yet. */
static bool may_take_name(struct lpf_run *lr, uint32_t ino)
{
	struct fsck_ctx *ctx = lr->ctx;
	const struct fsck_nid_info *ni;

	if (ino < F2FS_RESERVED_NODE_NUM || ino >= ctx->fs->max_nid || named_by_chain(lr, ino))
		return false;
	ni = &ctx->ni[ino];
	if ((ni->flags & (FSCK_NI_INODE | FSCK_NI_LOST)) != (FSCK_NI_INODE | FSCK_NI_LOST) ||
	    (ni->flags & (FSCK_NI_ORPHAN | FSCK_NI_QUOTA)))
		return false;
	return !(ni->flags & FSCK_NI_DIR) || (!ni->links_found && !fsck_bit(lr->salvaged, ino));
}

/* Whether '..' of directory inode n (ino) already names parent. */
static bool dotdot_names(struct lpf_run *lr, uint32_t ino, struct f2fs_node *n, uint32_t parent)
{
	struct dent_area a;
	int err = 0;
	uint8_t *b;

	if (n->i.i_inline & F2FS_INLINE_DENTRY) {
		inline_area(lr->ctx, n, &a);
	} else {
		b = dent_block(lr, ino, n, 0, BLK_READ, &err);
		if (!b)
			return false;
		block_area(b, &a);
	}
	return test_bit_le(1, a.bitmap) && le16_to_cpu(a.de[1].name_len) == 2 &&
	       !memcmp(a.names[1], "..", 2) && le32_to_cpu(a.de[1].ino) == parent;
}

/* Name -> ino in the new root; a directory's '..' and i_pino follow. */
static int take_name(struct lpf_run *lr, const char *cname, uint32_t ino)
{
	struct fsck_ctx *ctx = lr->ctx;
	struct fsck_nid_info *ni = &ctx->ni[ino];
	uint8_t ftype = ni->ftype;	/* the walk's, from the inode's mode */
	struct f2fs_node *n;
	int err;

	if (!ftype)
		ftype = (ni->flags & FSCK_NI_DIR) ? F2FS_FT_DIR : F2FS_FT_REG_FILE;
	err = add_entry(lr, F2FS_ROOT_INO, cname, ino, ftype);
	if (err)
		return err;
	ni->links_found++;
	fsck_set(lr->salvaged, ino);
	if (!(ni->flags & FSCK_NI_DIR))
		return 0;
	n = fsck_fix_node_peek(ctx, ino);
	if (!n) {
		n = lr->inode_buf;
		err = f2fs_dev_read(ctx->fs->dev, nat_addr(ctx, ino), 1, n);
		if (err)
			return err;
	}
	if (!dotdot_names(lr, ino, n, F2FS_ROOT_INO)) {
		n = inode_copy(ctx, ino);
		if (!n)
			return ctx->plan->err ? ctx->plan->err : -EIO;
		set_dotdot(lr, ino, n, F2FS_ROOT_INO);
	}
	if (!strcmp(cname, "lost+found") && !lr->salvaged_lpf &&
	    !(n->i.i_advise & FADVISE_ENCRYPT_BIT))
		lr->salvaged_lpf = ino;
	return fsck_subdirs_add(ctx, F2FS_ROOT_INO);
}

/* The entries of one old root dentry block that check out. */
static int salvage_block(struct lpf_run *lr, const struct f2fs_dentry_block *d, uint32_t *kept)
{
	char cname[F2FS_NAME_LEN + 1];
	int err = 0;

	for (uint32_t i = 0; i < NR_DENTRY_IN_BLOCK && !err;) {
		const struct f2fs_dir_entry *de = &d->dentry[i];
		uint32_t len = le16_to_cpu(de->name_len), ino = le32_to_cpu(de->ino);
		const uint8_t *name = d->filename[i];

		if (!test_bit_le(i, d->dentry_bitmap) || !len || len > F2FS_NAME_LEN ||
		    i + GET_DENTRY_SLOTS(len) > NR_DENTRY_IN_BLOCK) {
			i++;
			continue;
		}
		i += GET_DENTRY_SLOTS(len);
		if ((len == 1 && name[0] == '.') || (len == 2 && !memcmp(name, "..", 2)) ||
		    memchr(name, 0, len) || memchr(name, '/', len) ||
		    !hash_matches(name, len, le32_to_cpu(de->hash_code)) || !may_take_name(lr, ino))
			continue;
		memcpy(cname, name, len);
		cname[len] = 0;
		if (has_name(lr, F2FS_ROOT_INO, cname))
			continue;
		err = take_name(lr, cname, ino);
		if (!err)
			(*kept)++;
	}
	return err;
}

static int salvage_root_names(struct lpf_run *lr)
{
	struct fsck_ctx *ctx = lr->ctx;
	struct root_blocks rb = { .ctx = ctx };
	struct f2fs_dentry_block *d = malloc(sizeof(*d));
	uint32_t kept = 0;
	int err;

	if (!d)
		return -ENOMEM;
	err = fsck_ssa_for_each_data(ctx, note_root_block, &rb);
	if (!err)
		err = rb.err;
	if (rb.n)
		qsort(rb.v, rb.n, sizeof(*rb.v), cmp_u64);
	for (uint32_t i = 0; i < rb.n && !err; i++) {
		err = f2fs_dev_read(ctx->fs->dev, (uint32_t)rb.v[i], 1, d);
		if (!err)
			err = salvage_block(lr, d, &kept);
	}
	if (!err)
		fsck_diag(ctx, "the new root took back %u names from %u old dentry blocks", kept, rb.n);
	free(rb.v);
	free(d);
	return err;
}

/* A salvaged file's links are the names it has now. */
static void set_salvaged_links(struct lpf_run *lr)
{
	struct fsck_ctx *ctx = lr->ctx;

	for (uint32_t ino = F2FS_RESERVED_NODE_NUM; ino < ctx->fs->max_nid; ino++) {
		struct f2fs_node *n;

		if (!fsck_bit(lr->salvaged, ino) || (ctx->ni[ino].flags & FSCK_NI_DIR) ||
		    ctx->ni[ino].i_links == ctx->ni[ino].links_found)
			continue;
		n = inode_copy(ctx, ino);
		if (n && le32_to_cpu(n->i.i_links) != ctx->ni[ino].links_found)
			n->i.i_links = cpu_to_le32(ctx->ni[ino].links_found);
	}
}

static int rebuild_root(struct lpf_run *lr)
{
	int err;

	lr->salvaged = calloc((size_t)lr->ctx->fs->max_nid / 8 + 1, 1);
	if (!lr->salvaged)
		return -ENOMEM;
	err = create_root(lr);
	if (!err)
		err = salvage_root_names(lr);
	if (!err)
		set_salvaged_links(lr);
	return err;
}

static int set_root_links(struct lpf_run *lr)
{
	struct f2fs_node *root = inode_copy(lr->ctx, F2FS_ROOT_INO);

	if (!root)
		return lr->ctx->plan->err ? lr->ctx->plan->err : -EIO;
	root->i.i_links = cpu_to_le32(2 + fsck_subdirs(lr->ctx, F2FS_ROOT_INO));
	return 0;
}

/* ---- one lost inode ---- */

/* '..' of directory inode n (ino) names parent. */
static void set_dotdot(struct lpf_run *lr, uint32_t ino, struct f2fs_node *n, uint32_t parent)
{
	struct fsck_ctx *ctx = lr->ctx;
	struct fsck_dent_loc loc = { .dir_ino = ino };
	struct dent_area a;
	int err = 0;
	uint8_t *b0;

	if (n->i.i_inline & F2FS_INLINE_DENTRY) {
		inline_area(ctx, n, &a);
		put_entry(&a, 1, (const uint8_t *)"..", 2, 0, parent, F2FS_FT_DIR);
		return;
	}
	if (!le32_to_cpu(n->i.i_addr[fsck_extra_words(&n->i)])) {
		/* a block 0 the repair creates */
		b0 = dent_block(lr, ino, n, 0, BLK_READ, &err);
		if (b0) {
			block_area(b0, &a);
			put_entry(&a, 1, (const uint8_t *)"..", 2, 0, parent, F2FS_FT_DIR);
		}
		return;
	}
	loc.blkaddr = le32_to_cpu(n->i.i_addr[fsck_extra_words(&n->i)]);
	if (!fsck_addr_in_main(ctx, loc.blkaddr))
		return;
	loc.owner = ino;
	loc.owner_ofs = 0;
	loc.nslots = NR_DENTRY_IN_BLOCK;
	loc.bitmap_off = 0;
	loc.de_base = offsetof(struct f2fs_dentry_block, dentry);
	fsck_fix_dots(ctx, &loc, NULL, false, parent);
}

static int reconnect(struct lpf_run *lr, uint32_t lpf, uint32_t ino, uint32_t *dirs)
{
	struct fsck_ctx *ctx = lr->ctx;
	struct fsck_nid_info *ni = &ctx->ni[ino];
	bool is_dir = ni->flags & FSCK_NI_DIR;
	struct f2fs_node *n;
	char name[16];
	uint8_t ftype;
	int err;

	n = inode_copy(ctx, ino);
	if (!n)
		return ctx->plan->err;
	ftype = fsck_mode_to_ftype(le16_to_cpu(n->i.i_mode));
	if (!ftype)
		ftype = is_dir ? F2FS_FT_DIR : F2FS_FT_REG_FILE;
	snprintf(name, sizeof(name), "#%u", ino);
	if (has_name(lr, lpf, name)) {
		fsck_diag(ctx, "/lost+found already has an entry %s: inode %u not reconnected",
			  name, ino);
		return 0;
	}
	err = add_entry(lr, lpf, name, ino, ftype);
	if (err)
		return err;
	n->i.i_pino = cpu_to_le32(lpf);
	memset(n->i.i_name, 0, sizeof(n->i.i_name));
	n->i.i_namelen = cpu_to_le32((uint32_t)strlen(name));
	memcpy(n->i.i_name, name, strlen(name));
	if (is_dir) {
		n->i.i_links = cpu_to_le32(2 + fsck_subdirs(ctx, ino));
		set_dotdot(lr, ino, n, lpf);
		err = fsck_subdirs_add(ctx, lpf);
		if (err)
			return err;
		(*dirs)++;
	} else {
		n->i.i_links = cpu_to_le32(1);
	}
	ni->links_found = 1;
	return 0;
}

/* Whether lost inode ino gets an entry of its own. */
static bool wants_entry(struct lpf_run *lr, uint32_t ino)
{
	struct fsck_ctx *ctx = lr->ctx;
	const struct fsck_nid_info *ni;

	if (ino < F2FS_RESERVED_NODE_NUM || ino >= ctx->fs->max_nid)
		return false;
	ni = &ctx->ni[ino];
	if (lr->salvaged && fsck_bit(lr->salvaged, ino))
		return false;	/* named again in the new root */
	if ((ni->flags & (FSCK_NI_INODE | FSCK_NI_LOST)) != (FSCK_NI_INODE | FSCK_NI_LOST) ||
	    (ni->flags & (FSCK_NI_ORPHAN | FSCK_NI_QUOTA)) || named_by_chain(lr, ino))
		return false;
	if (ni->links_found) {
		/* named by another lost directory, which is reconnected */
		if (!(ni->flags & FSCK_NI_DIR) && ni->i_links != ni->links_found) {
			struct f2fs_node *n = inode_copy(ctx, ino);

			if (n)
				n->i.i_links = cpu_to_le32(ni->links_found);
		}
		if (ni->flags & FSCK_NI_DIR)
			fsck_diag(ctx, "unreachable directory %u is named by another unreachable "
				  "directory: not reconnected", ino);
		return false;
	}
	return true;
}

/* The root keeps its entries inline and owns no other block (the kernel
 * refuses to mount it): they go to a dentry block, after every other
 * edit of the root's entries. */
static int uninline_root(struct lpf_run *lr)
{
	struct fsck_ctx *ctx = lr->ctx;
	struct f2fs_node *n = inode_copy(ctx, F2FS_ROOT_INO);
	int err;

	if (!n)
		return ctx->plan->err ? ctx->plan->err : -ENOMEM;
	if (!(n->i.i_inline & F2FS_INLINE_DENTRY))
		return 0;
	err = convert_inline(lr, F2FS_ROOT_INO, n);
	if (!err)
		fsck_diag(ctx, "the root's inline entries moved to a dentry block");
	return err;
}

int fsck_lpf_reconnect(struct fsck_ctx *ctx)
{
	struct fsck_plan *plan = ctx->plan;
	struct lpf_run *lr = calloc(1, sizeof(*lr));
	uint32_t lpf = 0, dirs = 0, done = 0, moved = 0;
	int err;

	if (!plan || (!plan->n_lost && !plan->n_block0 && !plan->n_dent_moves && !plan->n_readds &&
		     !plan->root_rebuild && !plan->root_uninline)) {
		free(lr);
		return 0;
	}
	if (!lr)
		return -ENOMEM;
	lr->ctx = ctx;
	err = load_chain(lr);
	if (!err && plan->root_rebuild)
		err = rebuild_root(lr);
	if (!err)
		err = make_blocks0(lr);
	if (!err)
		err = move_entries(lr);
	for (uint32_t i = 0; i < plan->n_lost && !err; i++) {
		uint32_t ino = plan->lost[i];

		if (!wants_entry(lr, ino))
			continue;
		if (!lpf) {
			lpf = existing_lpf(ctx);
			if (!lpf)
				lpf = lr->salvaged_lpf;
			if (!lpf && has_name(lr, F2FS_ROOT_INO, "lost+found") &&
			    !free_lpf_name(lr, &moved, &err)) {
				if (!err)
					fsck_diag(ctx, "/lost+found is not a usable directory: "
						  "unreachable inodes are not reconnected");
				break;
			}
			if (!lpf)
				lpf = create_lpf(lr, &err);
			if (!lpf)
				break;
			if (moved) {
				err = reconnect(lr, lpf, moved, &dirs);
				if (err)
					break;
				done++;
			}
		}
		err = reconnect(lr, lpf, ino, &dirs);
		if (err == -ENOSPC) {
			fsck_diag(ctx, "/lost+found has no room for inode %u", ino);
			err = 0;
			break;
		}
		done++;
	}
	if (!err && dirs) {
		struct f2fs_node *n = inode_copy(ctx, lpf);

		if (n)
			n->i.i_links = cpu_to_le32(2 + fsck_subdirs(ctx, lpf));
	}
	if (!err && done)
		fsck_diag(ctx, "reconnected %u inodes into /lost+found", done);
	if (!err && plan->root_rebuild)
		err = set_root_links(lr);
	else if (!err && plan->root_uninline)
		err = uninline_root(lr);
	free(lr->nb);
	free(lr->chain_inos);
	free(lr->dent_inos);
	free(lr->salvaged);
	free(lr);
	return err;
}
