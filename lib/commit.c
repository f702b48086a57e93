/*
 * commit.c - one atomic checkpoint: dirty SIT and NAT blocks to their
 * inactive copies, summaries of logs that moved to the SSA, then a whole
 * new pack (version as planned) in the pack that is not current, a flush,
 * and the pack's last block, which commits it, and a final flush.
 */
#include <stdlib.h>
#include <string.h>

#include "f2fs_fs.h"
#include "f2fs_err.h"
#include "f2fs_crc.h"
#include "f2fs_mount.h"
#include "f2fs_ckpt.h"
#include "f2fs_sit.h"
#include "f2fs_nat.h"
#include "f2fs_layout.h"
#include "f2fs_commit.h"

#define COMMIT_DECIDED_FLAGS (CP_COMPACT_SUM_FLAG | CP_ORPHAN_PRESENT_FLAG | \
			      CP_NAT_BITS_FLAG | CP_LARGE_NAT_BITMAP_FLAG)

void f2fs_commit_plan_init(struct f2fs_commit_plan *p, const struct f2fs_fs *fs)
{
	const struct f2fs_checkpoint *cp = fs->cp;
	int t;

	memset(p, 0, sizeof(*p));
	p->version = le64_to_cpu(cp->checkpoint_ver) + 1;
	for (t = 0; t < NR_CURSEG_TYPE; t++) {
		p->curseg_segno[t] = fs->curseg_segno[t];
		p->curseg_blkoff[t] = (uint16_t)fs->curseg_blkoff[t];
		p->alloc_type[t] = cp->alloc_type[t];
		p->sums[t] = fs->cursum[t];
		p->sums[t].footer.entry_type = t >= CURSEG_HOT_NODE ? SUM_TYPE_NODE : SUM_TYPE_DATA;
	}
	p->user_block_count = le64_to_cpu(cp->user_block_count);
	p->valid_block_count = le64_to_cpu(cp->valid_block_count);
	p->valid_node_count = le32_to_cpu(cp->valid_node_count);
	p->valid_inode_count = le32_to_cpu(cp->valid_inode_count);
	p->free_segment_count = le32_to_cpu(cp->free_segment_count);
	p->next_free_nid = le32_to_cpu(cp->next_free_nid);
	p->elapsed_time = le64_to_cpu(cp->elapsed_time);
	p->flags = fs->cp_flags & ~(uint32_t)COMMIT_DECIDED_FLAGS;
	p->node_summaries = f2fs_cp_has_node_summaries(cp);
	p->nat_bits = (fs->cp_flags & CP_NAT_BITS_FLAG) && (fs->cp_flags & CP_UMOUNT_FLAG);
}

/* ---- checks ------------------------------------------------------------ */

static int check_plan(const struct f2fs_fs *fs, const struct f2fs_commit_plan *p)
{
	int t, u;

	for (t = 0; t < NR_CURSEG_TYPE; t++) {
		if (p->curseg_segno[t] >= fs->main_segs || p->curseg_blkoff[t] > BLKS_PER_SEG ||
		    p->alloc_type[t] > SSR)
			return -EINVAL;
		/* a read-only image's logs share segments */
		for (u = t + 1; u < NR_CURSEG_TYPE && !f2fs_is_ro_image(fs); u++)
			if (p->curseg_segno[t] / fs->segs_per_sec ==
			    p->curseg_segno[u] / fs->segs_per_sec)
				return -EINVAL;
	}
	if ((p->nat_bits || p->node_summaries) && !(p->flags & CP_UMOUNT_FLAG))
		return -EINVAL;
	return 0;
}

/* ---- SIT --------------------------------------------------------------- */

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Segments kept in the old SIT journal are written to blocks now (the new
 * checkpoint carries an empty SIT journal). */
static void dirty_sit_journal_segments(struct f2fs_fs *fs, struct f2fs_sit_model *sit)
{
	const struct f2fs_journal *j = f2fs_sit_journal(fs);
	uint32_t n = le16_to_cpu(j->n_sits), i;

	if (n > SIT_JOURNAL_ENTRIES)
		n = SIT_JOURNAL_ENTRIES;
	for (i = 0; i < n; i++) {
		uint32_t segno = le32_to_cpu(j->sit_j.entries[i].segno);

		if (segno < sit->main_segs)
			f2fs_sit_mark_dirty(sit, segno);
	}
}

/* Write every SIT block holding a dirty segment to its inactive copy and
 * flip its bit in new_bitmap. */
static int flush_sit(struct f2fs_fs *fs, struct f2fs_sit_model *sit, uint8_t *new_bitmap)
{
	uint32_t *blocks, n = 0, i, k;
	struct f2fs_sit_block blk;
	int err = 0;

	blocks = malloc(((size_t)sit->n_dirty + 1) * sizeof(*blocks));
	if (!blocks)
		return -ENOMEM;
	for (i = 0; i < sit->n_dirty; i++)
		blocks[n++] = sit->dirty_segs[i] / (uint32_t)SIT_ENTRY_PER_BLOCK;
	qsort(blocks, n, sizeof(*blocks), cmp_u32);
	for (i = 0; i < n && !err; i++) {
		uint32_t b = blocks[i], first = b * (uint32_t)SIT_ENTRY_PER_BLOCK;

		if (i && blocks[i - 1] == b)
			continue;
		memset(&blk, 0, sizeof(blk));
		for (k = 0; k < SIT_ENTRY_PER_BLOCK && first + k < sit->main_segs; k++)
			f2fs_sit_to_raw(sit, first + k, &blk.entries[k]);
		err = f2fs_dev_write(fs->dev, f2fs_next_sit_addr(fs, b), 1, &blk);
		if (!err) {
			if (f2fs_test_bit(b, new_bitmap))
				f2fs_clear_bit(b, new_bitmap);
			else
				f2fs_set_bit(b, new_bitmap);
		}
	}
	free(blocks);
	if (!err)
		f2fs_sit_checkpoint(sit);
	return err;
}

/* ---- the pack ---------------------------------------------------------- */

struct pack_shape {
	uint32_t payload;
	uint32_t orphan_blocks;
	uint32_t data_sum_blocks;	/* 1..2 compacted or 3 normal */
	bool compact;
	uint32_t node_sum_blocks;	/* 0 or 3 */
	uint32_t total;
	uint32_t nat_bits_blocks;	/* 0 if none */
	uint32_t entries[NR_CURSEG_DATA_TYPE];
};

static int shape_pack(const struct f2fs_fs *fs, const struct f2fs_commit_plan *p,
		      struct pack_shape *s)
{
	uint32_t compact_blocks;
	int t;

	memset(s, 0, sizeof(*s));
	s->payload = le32_to_cpu(fs->sb.cp_payload);
	s->orphan_blocks = (p->n_orphans + F2FS_ORPHANS_PER_BLOCK - 1) / F2FS_ORPHANS_PER_BLOCK;
	for (t = 0; t < NR_CURSEG_DATA_TYPE; t++)
		s->entries[t] = p->alloc_type[t] == SSR ? ENTRIES_IN_SUM : p->curseg_blkoff[t];
	compact_blocks = f2fs_compacted_summary_blocks(s->entries);
	s->compact = compact_blocks < NR_CURSEG_DATA_TYPE;
	s->data_sum_blocks = s->compact ? compact_blocks : NR_CURSEG_DATA_TYPE;
	s->node_sum_blocks = p->node_summaries ? NR_CURSEG_NODE_TYPE : 0;
	s->total = 1 + s->payload + s->orphan_blocks + s->data_sum_blocks + s->node_sum_blocks + 1;
	if (s->total > BLKS_PER_SEG || 1 + s->payload + s->orphan_blocks > BLKS_PER_SEG - 1 - NR_CURSEG_TYPE)
		return -ENOSPC;
	if (p->nat_bits) {
		uint32_t nbb = f2fs_nat_bits_blocks(le32_to_cpu(fs->sb.segment_count_nat));
		uint32_t kernel_nbb = f2fs_cp_nat_bits_blocks_kernel_check(
			le32_to_cpu(fs->sb.segment_count_nat));

		if (s->total + nbb <= BLKS_PER_SEG &&
		    s->payload + 2 + NR_CURSEG_TYPE + kernel_nbb < BLKS_PER_SEG)
			s->nat_bits_blocks = nbb;
	}
	return 0;
}

static void fill_cp_block(const struct f2fs_fs *fs, const struct f2fs_commit_plan *p,
			  const struct pack_shape *s, struct f2fs_checkpoint *cp)
{
	uint32_t flags = p->flags & ~(uint32_t)COMMIT_DECIDED_FLAGS;
	int t;

	cp->checkpoint_ver = cpu_to_le64(p->version);
	cp->user_block_count = cpu_to_le64(p->user_block_count);
	cp->valid_block_count = cpu_to_le64(p->valid_block_count);
	cp->free_segment_count = cpu_to_le32(p->free_segment_count);
	for (t = 0; t < NR_CURSEG_DATA_TYPE; t++) {
		cp->cur_data_segno[t] = cpu_to_le32(p->curseg_segno[t]);
		cp->cur_data_blkoff[t] = cpu_to_le16(p->curseg_blkoff[t]);
		cp->cur_node_segno[t] = cpu_to_le32(p->curseg_segno[CURSEG_HOT_NODE + t]);
		cp->cur_node_blkoff[t] = cpu_to_le16(p->curseg_blkoff[CURSEG_HOT_NODE + t]);
	}
	for (t = 0; t < NR_CURSEG_TYPE; t++)
		cp->alloc_type[t] = p->alloc_type[t];
	if (s->compact)
		flags |= CP_COMPACT_SUM_FLAG;
	if (p->n_orphans)
		flags |= CP_ORPHAN_PRESENT_FLAG;
	if (s->nat_bits_blocks)
		flags |= CP_NAT_BITS_FLAG;
	flags |= fs->cp_flags & CP_LARGE_NAT_BITMAP_FLAG;
	cp->ckpt_flags = cpu_to_le32(flags);
	cp->cp_pack_total_block_count = cpu_to_le32(s->total);
	cp->cp_pack_start_sum = cpu_to_le32(1 + s->payload + s->orphan_blocks);
	cp->valid_node_count = cpu_to_le32(p->valid_node_count);
	cp->valid_inode_count = cpu_to_le32(p->valid_inode_count);
	cp->next_free_nid = cpu_to_le32(p->next_free_nid);
	cp->elapsed_time = cpu_to_le64(p->elapsed_time);
}

static void build_orphans(const struct f2fs_commit_plan *p, const struct pack_shape *s,
			  uint8_t *out)
{
	uint32_t b, i;

	for (b = 0; b < s->orphan_blocks; b++) {
		struct f2fs_orphan_block *ob = (struct f2fs_orphan_block *)(out + (size_t)b * F2FS_BLKSIZE);
		uint32_t first = b * F2FS_ORPHANS_PER_BLOCK, n = 0;

		memset(ob, 0, sizeof(*ob));
		for (i = first; i < p->n_orphans && n < F2FS_ORPHANS_PER_BLOCK; i++, n++)
			ob->ino[n] = cpu_to_le32(p->orphans[i]);
		ob->blk_addr = cpu_to_le16((uint16_t)(b + 1));
		ob->blk_count = cpu_to_le16((uint16_t)s->orphan_blocks);
		ob->entry_count = cpu_to_le32(n);
	}
}

static void build_data_sums(const struct f2fs_commit_plan *p, const struct pack_shape *s,
			    const struct f2fs_summary_block sums[NR_CURSEG_TYPE], uint8_t *out)
{
	int t;

	if (s->compact) {
		f2fs_pack_compacted_summaries(sums, s->entries, out, s->data_sum_blocks);
		return;
	}
	for (t = 0; t < NR_CURSEG_DATA_TYPE; t++)
		memcpy(out + (size_t)t * F2FS_BLKSIZE, &sums[t], F2FS_BLKSIZE);
	(void)p;
}

static int build_nat_bits(const struct f2fs_fs *fs, const struct f2fs_nat_model *nat,
			  const struct f2fs_checkpoint *cp, uint32_t nblocks, uint8_t *out)
{
	uint32_t bytes = (fs->nat_blocks + 7) / 8;
	uint64_t crc = get_le32((const uint8_t *)cp + le32_to_cpu(cp->checksum_offset));

	if (8 + 2 * (size_t)bytes > (size_t)nblocks * F2FS_BLKSIZE)
		return -EINVAL;
	memset(out, 0, (size_t)nblocks * F2FS_BLKSIZE);
	put_le64(out, le64_to_cpu(cp->checkpoint_ver) | (crc << 32));
	f2fs_nat_compute_bits(nat, out + 8, out + 8 + bytes);
	return 0;
}

/* The new pack, in memory: cp block + payload + orphans + summaries. */
static uint8_t *build_pack(struct f2fs_fs *fs, struct f2fs_nat_model *nat,
			   const struct f2fs_commit_plan *p, const struct pack_shape *s,
			   const uint8_t *sit_bitmap, struct f2fs_summary_block *sums)
{
	uint8_t *pack = calloc(s->total, F2FS_BLKSIZE);
	uint32_t sit_off, nat_off, at;
	struct f2fs_checkpoint *cp;
	int t;

	if (!pack)
		return NULL;
	memcpy(pack, fs->cp_buf, (size_t)(1 + s->payload) * F2FS_BLKSIZE);
	cp = (struct f2fs_checkpoint *)pack;
	fill_cp_block(fs, p, s, cp);
	if (f2fs_cp_bitmap_locate(cp, s->payload, &sit_off, &nat_off)) {
		free(pack);
		return NULL;
	}
	memcpy(pack + sit_off, sit_bitmap, fs->sit_bitmap_size);
	memcpy(pack + nat_off, nat->cur_bitmap,
	       nat->bitmap_bytes < fs->nat_bitmap_size ? nat->bitmap_bytes : fs->nat_bitmap_size);
	(void)f2fs_cp_seal(cp);	/* the offset was checked with the pack */

	/* journals: NAT as the model has it, SIT empty, kbytes_written kept */
	for (t = 0; t < NR_CURSEG_TYPE; t++)
		sums[t] = p->sums[t];
	f2fs_nat_journal_to_raw(nat, &sums[CURSEG_HOT_DATA].journal);
	memset(&sums[CURSEG_COLD_DATA].journal, 0, sizeof(sums[CURSEG_COLD_DATA].journal));
	memcpy(&sums[CURSEG_HOT_NODE].journal, &fs->cursum[CURSEG_HOT_NODE].journal,
	       sizeof(struct f2fs_journal));

	at = 1 + s->payload;
	build_orphans(p, s, pack + (size_t)at * F2FS_BLKSIZE);
	at += s->orphan_blocks;
	build_data_sums(p, s, sums, pack + (size_t)at * F2FS_BLKSIZE);
	at += s->data_sum_blocks;
	for (t = 0; t < (int)s->node_sum_blocks; t++)
		memcpy(pack + (size_t)(at + t) * F2FS_BLKSIZE, &sums[CURSEG_HOT_NODE + t], F2FS_BLKSIZE);
	at += s->node_sum_blocks;
	memcpy(pack + (size_t)at * F2FS_BLKSIZE, pack, F2FS_BLKSIZE);
	return pack;
}

/* SSA blocks: logs that leave their segment take their summary along, and
 * without node summaries in the pack the node logs' SSA must carry the
 * node footer type. */
static int write_log_summaries(struct f2fs_fs *fs, const struct f2fs_commit_plan *p,
			       const struct f2fs_summary_block *sums)
{
	int t, err;

	if (f2fs_is_ro_image(fs))	/* no SSA */
		return 0;
	for (t = 0; t < NR_CURSEG_TYPE; t++) {
		if (p->curseg_segno[t] != fs->curseg_segno[t] && fs->curseg_segno[t] < fs->main_segs) {
			struct f2fs_summary_block old = fs->cursum[t];

			old.footer.entry_type = t >= CURSEG_HOT_NODE ? SUM_TYPE_NODE : SUM_TYPE_DATA;
			memset(&old.journal, 0, sizeof(old.journal));
			err = f2fs_dev_write(fs->dev, (uint64_t)fs->ssa_blkaddr + fs->curseg_segno[t],
					     1, &old);
			if (err)
				return err;
		}
		if (t >= CURSEG_HOT_NODE && !p->node_summaries) {
			err = f2fs_dev_write(fs->dev, (uint64_t)fs->ssa_blkaddr + p->curseg_segno[t],
					     1, &sums[t]);
			if (err)
				return err;
		}
	}
	return 0;
}

static int write_pack(struct f2fs_fs *fs, struct f2fs_nat_model *nat,
		      const struct pack_shape *s, uint8_t *pack, uint32_t start)
{
	int err;

	err = f2fs_dev_write(fs->dev, start, s->total - 1, pack);
	if (!err && s->nat_bits_blocks) {
		uint8_t *bits = f2fs_blocks_alloc(s->nat_bits_blocks);

		err = bits ? build_nat_bits(fs, nat, (struct f2fs_checkpoint *)pack,
					    s->nat_bits_blocks, bits) : -ENOMEM;
		if (!err)
			err = f2fs_dev_write(fs->dev, start + BLKS_PER_SEG - s->nat_bits_blocks,
					     s->nat_bits_blocks, bits);
		free(bits);
	}
	if (!err)
		err = f2fs_dev_flush(fs->dev);
	if (!err)
		err = f2fs_dev_write(fs->dev, (uint64_t)start + s->total - 1, 1,
				     pack + (size_t)(s->total - 1) * F2FS_BLKSIZE);
	if (!err)
		err = f2fs_dev_flush(fs->dev);
	return err;
}

/* Make fs describe the pack just written. */
static int adopt_pack(struct f2fs_fs *fs, const struct f2fs_commit_plan *p,
		      const struct pack_shape *s, uint8_t *pack, uint32_t start,
		      const struct f2fs_summary_block *sums)
{
	uint32_t sit_off, nat_off;
	uint8_t *buf = realloc(pack, (size_t)(1 + s->payload) * F2FS_BLKSIZE);
	int t;

	if (!buf) {
		free(pack);
		return -ENOMEM;
	}
	free(fs->cp_buf);
	fs->cp_buf = buf;
	fs->cp = (struct f2fs_checkpoint *)buf;
	fs->cp_index = 1 - fs->cp_index;
	fs->cp_start_blkaddr = start;
	fs->cp_version[fs->cp_index] = p->version;
	fs->cp_check[fs->cp_index].err = 0;
	fs->cp_check[fs->cp_index].why = NULL;
	fs->cp_flags = le32_to_cpu(fs->cp->ckpt_flags);
	if (f2fs_cp_bitmap_locate(fs->cp, s->payload, &sit_off, &nat_off))
		return -EFSCORRUPTED;
	fs->sit_bitmap = buf + sit_off;
	fs->nat_bitmap = buf + nat_off;
	for (t = 0; t < NR_CURSEG_TYPE; t++) {
		fs->curseg_segno[t] = p->curseg_segno[t];
		fs->curseg_blkoff[t] = p->curseg_blkoff[t];
		fs->cursum[t] = sums[t];
	}
	return 0;
}

int f2fs_commit(struct f2fs_fs *fs, struct f2fs_sit_model *sit,
		struct f2fs_nat_model *nat, const struct f2fs_commit_plan *p)
{
	struct f2fs_summary_block *sums = NULL;
	struct pack_shape shape;
	uint8_t *sit_bitmap = NULL, *pack = NULL;
	uint32_t start = le32_to_cpu(fs->sb.cp_blkaddr) +
			 (uint32_t)(1 - fs->cp_index) * BLKS_PER_SEG;
	int err;

	err = check_plan(fs, p);
	if (!err)
		err = shape_pack(fs, p, &shape);
	if (err)
		return err;
	sit_bitmap = malloc(fs->sit_bitmap_size);
	sums = calloc(NR_CURSEG_TYPE, sizeof(*sums));
	if (!sit_bitmap || !sums) {
		err = -ENOMEM;
		goto out;
	}
	memcpy(sit_bitmap, fs->sit_bitmap, fs->sit_bitmap_size);
	dirty_sit_journal_segments(fs, sit);
	err = flush_sit(fs, sit, sit_bitmap);
	if (!err)
		err = f2fs_nat_flush(fs, nat, shape.nat_bits_blocks != 0);
	if (err)
		goto out;
	pack = build_pack(fs, nat, p, &shape, sit_bitmap, sums);
	if (!pack) {
		err = -ENOMEM;
		goto out;
	}
	err = write_log_summaries(fs, p, sums);
	if (!err)
		err = write_pack(fs, nat, &shape, pack, start);
	if (!err) {
		err = adopt_pack(fs, p, &shape, pack, start, sums);
		pack = NULL;
	}
out:
	free(pack);
	free(sit_bitmap);
	free(sums);
	return err;
}
