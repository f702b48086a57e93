/*
 * quota.c - the quota file format (VFS v2r1 trees in 1 KiB blocks): the
 * decoding and encoding of the header and entries, and the building of a
 * fresh file from a sorted list of entries.  The layout is described in
 * include/f2fs_quota.h.  Nothing here reads a device: callers hand in the
 * file's bytes and write what is built.
 */
#include <errno.h>
#include <string.h>

#include "f2fs_fs.h"
#include "f2fs_quota.h"

/* Byte offsets inside a v2r1 entry (after the 4-byte id and 4-byte pad). */
#define DQB_IHARD	8
#define DQB_ISOFT	16
#define DQB_CURINODES	24
#define DQB_BHARD	32
#define DQB_BSOFT	40
#define DQB_CURSPACE	48
#define DQB_BTIME	56
#define DQB_ITIME	64

/* Offset of the entry count in a leaf's header. */
#define DQDH_ENTRIES	8

static const uint32_t quota_magics[3] = { 0xd9c01f11, 0xd9c01927, 0xd9c03f14 };

uint32_t f2fs_quota_magic(int type)
{
	return type >= 0 && type < 3 ? quota_magics[type] : 0;
}

uint32_t f2fs_qt_index(uint32_t id, int depth)
{
	return (id >> ((F2FS_QT_DEPTH - 1 - depth) * 8)) & 0xff;
}

int f2fs_quota_header_read(const uint8_t *blk, int type, struct f2fs_dqinfo *info)
{
	const uint8_t *p = blk + F2FS_QT_INFO_OFF;

	if (!f2fs_quota_magic(type) || get_le32(blk) != f2fs_quota_magic(type) ||
	    get_le32(blk + 4) != F2FS_QT_VERSION)
		return -EINVAL;
	info->dqi_bgrace = get_le32(p);
	info->dqi_igrace = get_le32(p + 4);
	info->dqi_flags = get_le32(p + 8);
	info->dqi_blocks = get_le32(p + 12);
	info->dqi_free_blk = get_le32(p + 16);
	info->dqi_free_entry = get_le32(p + 20);
	return 0;
}

static void header_write(uint8_t *blk, int type, const struct f2fs_dqinfo *info)
{
	uint8_t *p = blk + F2FS_QT_INFO_OFF;

	put_le32(blk, f2fs_quota_magic(type));
	put_le32(blk + 4, F2FS_QT_VERSION);
	put_le32(p, info->dqi_bgrace);
	put_le32(p + 4, info->dqi_igrace);
	put_le32(p + 8, info->dqi_flags);
	put_le32(p + 12, info->dqi_blocks);
	put_le32(p + 16, info->dqi_free_blk);
	put_le32(p + 20, info->dqi_free_entry);
}

bool f2fs_dquot_unused(const uint8_t *e)
{
	for (uint32_t i = 0; i < F2FS_QT_ENTRY_SIZE; i++)
		if (e[i])
			return false;
	return true;
}

void f2fs_dquot_read(const uint8_t *e, struct f2fs_dquot *d)
{
	d->dqb_id = get_le32(e);
	d->dqb_ihardlimit = get_le64(e + DQB_IHARD);
	d->dqb_isoftlimit = get_le64(e + DQB_ISOFT);
	d->dqb_curinodes = get_le64(e + DQB_CURINODES);
	d->dqb_bhardlimit = get_le64(e + DQB_BHARD);
	d->dqb_bsoftlimit = get_le64(e + DQB_BSOFT);
	d->dqb_curspace = get_le64(e + DQB_CURSPACE);
	d->dqb_btime = get_le64(e + DQB_BTIME);
	d->dqb_itime = get_le64(e + DQB_ITIME);
}

void f2fs_dquot_write(uint8_t *e, const struct f2fs_dquot *d)
{
	memset(e, 0, F2FS_QT_ENTRY_SIZE);
	put_le32(e, d->dqb_id);
	put_le64(e + DQB_IHARD, d->dqb_ihardlimit);
	put_le64(e + DQB_ISOFT, d->dqb_isoftlimit);
	put_le64(e + DQB_CURINODES, d->dqb_curinodes);
	put_le64(e + DQB_BHARD, d->dqb_bhardlimit);
	put_le64(e + DQB_BSOFT, d->dqb_bsoftlimit);
	put_le64(e + DQB_CURSPACE, d->dqb_curspace);
	put_le64(e + DQB_BTIME, d->dqb_btime);
	put_le64(e + DQB_ITIME, d->dqb_itime);
	if (f2fs_dquot_unused(e))
		put_le64(e + DQB_ITIME, 1);
}

/* The building walk, shared by the count and the build: the tree path of
 * the previous id is kept, so each id costs O(depth). */
struct qt_builder {
	uint8_t *buf;			/* NULL: count only */
	uint32_t cap, n;		/* blocks */
	uint32_t path[F2FS_QT_DEPTH];	/* tree block of each depth */
	uint32_t leaf, in_leaf;
};

static uint8_t *qt_block(struct qt_builder *b, uint32_t nr)
{
	return b->buf + (size_t)nr * F2FS_QT_BLKSIZE;
}

static int qt_new_block(struct qt_builder *b, uint32_t *nr)
{
	if (b->buf && b->n >= b->cap)
		return -EFBIG;
	*nr = b->n++;
	return 0;
}

/* Tree blocks of depths 1..3 for id, made when id leaves prev's path. */
static int qt_path(struct qt_builder *b, uint32_t id, uint32_t prev, bool first)
{
	for (int d = 1; d < F2FS_QT_DEPTH; d++) {
		uint32_t shift = (uint32_t)(F2FS_QT_DEPTH - d) * 8;
		int err;

		if (!first && id >> shift == prev >> shift)
			continue;
		err = qt_new_block(b, &b->path[d]);
		if (err)
			return err;
		if (b->buf)
			put_le32(qt_block(b, b->path[d - 1]) + 4 * f2fs_qt_index(id, d - 1),
				 b->path[d]);
		first = true;	/* every deeper level is new too */
	}
	return 0;
}

static int qt_place(struct qt_builder *b, const struct f2fs_dquot *d)
{
	uint8_t *leaf;
	int err;

	if (!b->leaf || b->in_leaf == F2FS_QT_PER_LEAF) {
		err = qt_new_block(b, &b->leaf);
		if (err)
			return err;
		b->in_leaf = 0;
	}
	if (b->buf) {
		leaf = qt_block(b, b->leaf);
		f2fs_dquot_write(leaf + F2FS_QT_LEAF_HDR + (size_t)b->in_leaf * F2FS_QT_ENTRY_SIZE, d);
		put_le16(leaf + DQDH_ENTRIES, (uint16_t)(b->in_leaf + 1));
		put_le32(qt_block(b, b->path[F2FS_QT_DEPTH - 1]) +
			 4 * f2fs_qt_index(d->dqb_id, F2FS_QT_DEPTH - 1), b->leaf);
	}
	b->in_leaf++;
	return 0;
}

static int qt_walk(struct qt_builder *b, const struct f2fs_dquot *dq, size_t n)
{
	b->n = F2FS_QT_TREEOFF + 1;	/* header and root */
	b->path[0] = F2FS_QT_TREEOFF;
	if (b->buf && b->cap < b->n)
		return -EFBIG;
	for (size_t i = 0; i < n; i++) {
		int err;

		if (i && dq[i].dqb_id <= dq[i - 1].dqb_id)
			return -EINVAL;
		err = qt_path(b, dq[i].dqb_id, i ? dq[i - 1].dqb_id : 0, i == 0);
		if (!err)
			err = qt_place(b, &dq[i]);
		if (err)
			return err;
	}
	return 0;
}

uint32_t f2fs_quota_file_blocks(const struct f2fs_dquot *dq, size_t n)
{
	struct qt_builder b = { 0 };

	if (qt_walk(&b, dq, n))
		return 0;
	return b.n;
}

int f2fs_quota_build(int type, const struct f2fs_dquot *dq, size_t n,
		     const struct f2fs_dqinfo *info, uint8_t *buf, uint32_t buf_blocks,
		     uint32_t *nblk)
{
	struct qt_builder b = { .buf = buf, .cap = buf_blocks };
	struct f2fs_dqinfo hdr = *info;
	int err;

	if (!f2fs_quota_magic(type))
		return -EINVAL;
	err = qt_walk(&b, dq, n);
	if (err)
		return err;
	hdr.dqi_blocks = b.n;
	hdr.dqi_free_blk = 0;
	hdr.dqi_free_entry = b.leaf && b.in_leaf < F2FS_QT_PER_LEAF ? b.leaf : 0;
	header_write(buf, type, &hdr);
	*nblk = b.n;
	return 0;
}
