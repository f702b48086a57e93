/*
 * inject_cp.c - --cp: change one member of a checkpoint pack.
 *
 * The pack (0 = the one in use, 1 = at cp_blkaddr, 2 = the next segment)
 * is read raw, so a pack that does not validate can still be changed as
 * long as one superblock is valid.  Members of the checkpoint block are
 * written to the first block of the pack and to its copy at the end of
 * the pack (--cp-blk first|last picks one; the copy is found through the
 * cp_pack_total_block_count read before the change).  The crc is
 * recomputed unless crc, checksum_offset or the crc bytes are the member,
 * or --no-fix-checksum is given.  Version bitmaps may live in cp_payload
 * blocks; orphan blocks and the fsync'd node chain (next_blkaddr) are
 * handled in inject_cp_extra.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs_crc.h"
#include "f2fs_ckpt.h"
#include "inject.h"

#define CP(m, fl) INJ_SCALAR(struct f2fs_checkpoint, m, fl)
#define CPA(m, fl) INJ_ARRAY(struct f2fs_checkpoint, m, fl)

const struct inj_field inj_cp_fields[] = {
	CP(checkpoint_ver, INJ_F_HEX),
	CP(user_block_count, 0),
	CP(valid_block_count, 0),
	CP(rsvd_segment_count, 0),
	CP(overprov_segment_count, 0),
	CP(free_segment_count, 0),
	CPA(cur_node_segno, 0),
	CPA(cur_node_blkoff, 0),
	CPA(cur_data_segno, 0),
	CPA(cur_data_blkoff, 0),
	CP(ckpt_flags, INJ_F_HEX),
	CP(cp_pack_total_block_count, 0),
	CP(cp_pack_start_sum, 0),
	CP(valid_node_count, 0),
	CP(valid_inode_count, 0),
	CP(next_free_nid, 0),
	CP(sit_ver_bitmap_bytesize, 0),
	CP(nat_ver_bitmap_bytesize, 0),
	CP(checksum_offset, 0),
	CP(elapsed_time, 0),
	CPA(alloc_type, 0),
	{ NULL, 0, 0, 0, 0, 0 },
};

int inj_cp_open_pack(struct inj_ctx *c, struct inj_cp_pack *p)
{
	const struct f2fs_super_block *sb = &c->fs->sb;
	uint32_t total;

	memset(p, 0, sizeof(*p));
	if (inj_need_sb(c, "--cp"))
		return -1;
	if (c->o->pack) {
		p->index = c->o->pack - 1;
	} else {
		if (c->fs->cp_index < 0)
			return inj_err("no valid checkpoint pack to call current: choose --cp 1 or 2");
		p->index = c->fs->cp_index;
	}
	p->payload = le32_to_cpu(sb->cp_payload);
	if (p->payload > F2FS_MAX_CP_PAYLOAD)
		p->payload = F2FS_MAX_CP_PAYLOAD;
	p->start = le32_to_cpu(sb->cp_blkaddr) + (uint32_t)p->index * BLKS_PER_SEG;
	p->buf = calloc(1 + p->payload, F2FS_BLKSIZE);
	if (!p->buf)
		return inj_err("out of memory");
	if (f2fs_dev_read(c->fs->dev, p->start, 1 + p->payload, p->buf)) {
		free(p->buf);
		p->buf = NULL;
		return inj_err("cannot read checkpoint pack %d at 0x%x", p->index + 1, p->start);
	}
	p->cp = (struct f2fs_checkpoint *)p->buf;
	total = le32_to_cpu(p->cp->cp_pack_total_block_count);
	p->total = total > 2 && total <= BLKS_PER_SEG ? total : 0;
	return 0;
}

void inj_cp_close_pack(struct inj_cp_pack *p)
{
	free(p->buf);
	p->buf = NULL;
}

void inj_cp_fix_crc(struct inj_ctx *c, struct f2fs_checkpoint *cp)
{
	uint32_t crc;

	if (c->o->no_fix_checksum)
		return;
	if (f2fs_cp_checksum(cp, &crc)) {
		inj_dbg(c, 1, "checksum_offset out of range: crc left as it is");
		return;
	}
	put_le32((uint8_t *)cp + le32_to_cpu(cp->checksum_offset), crc);
	inj_dbg(c, 1, "checkpoint crc recomputed: 0x%x", crc);
}

int inj_cp_write_pack(struct inj_ctx *c, struct inj_cp_pack *p,
		      enum inj_cp_blocks which, bool payload_dirty[])
{
	uint32_t i;

	if (which != INJ_CP_LAST && inj_write_block(c, p->start, p->buf))
		return -1;
	if (which != INJ_CP_FIRST) {
		if (!p->total) {
			if (which == INJ_CP_LAST)
				return inj_err("cp_pack_total_block_count is corrupt: "
					       "the last checkpoint block cannot be found");
			inj_dbg(c, 1, "cp_pack_total_block_count is corrupt: copy not written");
		} else if (inj_write_block(c, p->start + p->total - 1, p->buf)) {
			return -1;
		}
	}
	for (i = 0; payload_dirty && i < p->payload; i++)
		if (payload_dirty[i] &&
		    inj_write_block(c, p->start + 1 + i, p->buf + (size_t)(i + 1) * F2FS_BLKSIZE))
			return -1;
	return 0;
}

/* crc: the 4 bytes at checksum_offset, never recomputed. */
static int set_crc(struct inj_ctx *c, struct f2fs_checkpoint *cp)
{
	uint32_t off = le32_to_cpu(cp->checksum_offset);

	if (off > F2FS_BLKSIZE - 4)
		return inj_err("checksum_offset %u is outside the block", off);
	return inj_set_uint(c, (uint8_t *)cp + off, 4, true, "crc");
}

/* A byte of the SIT or NAT version bitmap, wherever it lives. */
static int set_version_bitmap(struct inj_ctx *c, struct inj_cp_pack *p, bool nat,
			      bool *dirty_cp, bool payload_dirty[])
{
	uint32_t sit_off, nat_off, off, size;
	const char *name = nat ? "nat_version_bitmap" : "sit_version_bitmap";

	if (f2fs_cp_bitmap_locate(p->cp, p->payload, &sit_off, &nat_off))
		return inj_err("the version bitmaps do not fit the pack: cannot locate them");
	off = nat ? nat_off : sit_off;
	size = le32_to_cpu(nat ? p->cp->nat_ver_bitmap_bytesize : p->cp->sit_ver_bitmap_bytesize);
	if (!c->o->has_idx || c->o->idx >= size)
		return inj_err("%s needs --idx BYTE below %u", name, size);
	off += c->o->idx;
	if (inj_set_uint(c, p->buf + off, 1, true, name))
		return -1;
	snprintf(c->ch.member, sizeof(c->ch.member), "%s[%u]", name, c->o->idx);
	if (off < F2FS_BLKSIZE)
		*dirty_cp = true;
	else
		payload_dirty[off / F2FS_BLKSIZE - 1] = true;
	return 0;
}

/* Members of the checkpoint block itself.  *fix says whether the crc may
 * be recomputed afterwards. */
static int set_cp_member(struct inj_ctx *c, struct f2fs_checkpoint *cp, bool *fix)
{
	const char *mb = c->o->mb;
	const struct inj_field *f;
	uint32_t start, end, crc_off = le32_to_cpu(cp->checksum_offset);

	*fix = true;
	if (!strcmp(mb, "crc")) {
		*fix = false;
		return set_crc(c, cp);
	}
	if (!strcmp(mb, "raw")) {
		if (inj_set_raw(c, (uint8_t *)cp, F2FS_BLKSIZE, &start))
			return -1;
		end = start + 1;
	} else {
		f = inj_field_find(inj_cp_fields, mb);
		if (!f)
			return inj_err("unknown or unsupported member '%s' of --cp "
				       "(inject.f2fs --cp 0 -h lists them)", mb);
		if (inj_field_apply(c, f, (uint8_t *)cp, F2FS_BLKSIZE))
			return -1;
		inj_field_range(c, f, &start, &end);
		if (!strcmp(mb, "checksum_offset"))
			*fix = false;
	}
	if (end > crc_off && start < crc_off + 4)
		*fix = false;
	return 0;
}

int inject_cp(struct inj_ctx *c)
{
	struct inj_cp_pack p;
	bool *payload_dirty = NULL, dirty_cp = false, fix = true;
	const char *mb = c->o->mb;
	int r;

	if (!strncmp(mb, "orphan", 6) || !strcmp(mb, "next_blkaddr"))
		return inject_cp_extra(c);
	if (inj_cp_open_pack(c, &p))
		return -1;
	inj_where(c, "cp %d (blkaddr 0x%x)", p.index + 1, p.start);
	payload_dirty = calloc(p.payload + 1, sizeof(bool));
	if (!payload_dirty) {
		inj_cp_close_pack(&p);
		return inj_err("out of memory");
	}
	if (!strcmp(mb, "sit_version_bitmap") || !strcmp(mb, "nat_version_bitmap")) {
		r = set_version_bitmap(c, &p, mb[0] == 'n', &dirty_cp, payload_dirty);
	} else {
		r = set_cp_member(c, p.cp, &fix);
		dirty_cp = true;
	}
	if (!r && dirty_cp && fix)
		inj_cp_fix_crc(c, p.cp);
	if (!r) {
		if (!dirty_cp) {
			/* only payload blocks changed */
			uint32_t i;

			for (i = 0; i < p.payload && !r; i++)
				if (payload_dirty[i])
					r = inj_write_block(c, p.start + 1 + i,
							    p.buf + (size_t)(i + 1) * F2FS_BLKSIZE);
		} else {
			r = inj_cp_write_pack(c, &p, c->o->cp_blocks, payload_dirty);
		}
	}
	free(payload_dirty);
	inj_cp_close_pack(&p);
	return r;
}
