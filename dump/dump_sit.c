/*
 * dump_sit.c - SIT entries of a segment range, read the way the kernel
 * sees them (current copy per the checkpoint's SIT version bitmap, SIT
 * journal overriding), reading only the SIT blocks that cover the range,
 * in batches; and the -s view built on it.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"

#define SIT_BATCH_BLOCKS 256

static const char *const seg_type_names[] = {
	"hot_data", "warm_data", "cold_data", "hot_node", "warm_node", "cold_node",
};

const char *dump_seg_type_name(unsigned int type)
{
	return type < NR_CURSEG_TYPE ? seg_type_names[type] : "invalid";
}

int dump_curseg_of(const struct dump_ctx *ctx, uint32_t segno)
{
	int i;

	for (i = 0; i < NR_CURSEG_TYPE; i++)
		if (ctx->fs->curseg_segno[i] == segno)
			return i;
	return -1;
}

/* First journal entry for segno (as the kernel's lookup), or NULL. */
static const struct sit_journal_entry *journal_entry(struct dump_ctx *ctx, uint32_t segno)
{
	struct f2fs_journal *j = f2fs_sit_journal(ctx->fs);
	uint32_t n = le16_to_cpu(j->n_sits), i;

	if (!ctx->fs->cursum_loaded)
		return NULL;
	if (n > SIT_JOURNAL_ENTRIES)
		n = SIT_JOURNAL_ENTRIES;
	for (i = 0; i < n; i++)
		if (le32_to_cpu(j->sit_j.entries[i].segno) == segno)
			return &j->sit_j.entries[i];
	return NULL;
}

static int emit_block(struct dump_ctx *ctx, uint32_t blk, const uint8_t *buf,
		      uint32_t a, uint32_t b, dump_seg_fn fn, void *arg)
{
	const struct f2fs_sit_block *sb = (const void *)buf;
	int copy = f2fs_test_bit(blk, ctx->fs->sit_bitmap) ? 1 : 0;
	uint32_t i;

	for (i = 0; i < SIT_ENTRY_PER_BLOCK; i++) {
		uint32_t segno = blk * (uint32_t)SIT_ENTRY_PER_BLOCK + i;
		const struct sit_journal_entry *je;
		struct dump_seg s;
		int err;

		if (segno < a || segno > b)
			continue;
		s.segno = segno;
		je = journal_entry(ctx, segno);
		if (je) {
			s.raw = je->se;
			s.source = 2;
		} else {
			s.raw = sb->entries[i];
			s.source = copy;
		}
		err = fn(ctx, &s, arg);
		if (err)
			return err;
	}
	return 0;
}

int dump_sit_range(struct dump_ctx *ctx, uint32_t a, uint32_t b,
		   dump_seg_fn fn, void *arg)
{
	struct f2fs_fs *fs = ctx->fs;
	struct f2fs_io_vec vec[SIT_BATCH_BLOCKS];
	uint8_t *buf;
	uint32_t blk, last, n, i;
	int err = 0;

	if (!fs->main_segs || a >= fs->main_segs)
		return 0;
	if (b >= fs->main_segs)
		b = fs->main_segs - 1;
	if (fs->sit_blk_cnt > fs->sit_blocks || (uint64_t)fs->sit_bitmap_size * 8 < fs->sit_blk_cnt)
		return dump_fail(ctx, -EFSCORRUPTED, "the SIT area is too small for the main area");
	buf = f2fs_blocks_alloc(SIT_BATCH_BLOCKS);
	if (!buf)
		return dump_fail(ctx, -ENOMEM, "out of memory");
	last = b / SIT_ENTRY_PER_BLOCK;
	for (blk = a / SIT_ENTRY_PER_BLOCK; blk <= last && !err; blk += n) {
		n = last - blk + 1 < SIT_BATCH_BLOCKS ? last - blk + 1 : SIT_BATCH_BLOCKS;
		for (i = 0; i < n; i++) {
			vec[i].blkaddr = f2fs_current_sit_addr(fs, blk + i);
			vec[i].nblocks = 1;
			vec[i].buf = buf + (size_t)i * F2FS_BLKSIZE;
		}
		err = f2fs_dev_read_batch(fs->dev, vec, n);
		if (err) {
			err = dump_fail(ctx, err, "cannot read SIT block %u: %s", blk, f2fs_strerror(err));
			break;
		}
		for (i = 0; i < n && !err; i++)
			err = emit_block(ctx, blk + i, buf + (size_t)i * F2FS_BLKSIZE, a, b, fn, arg);
	}
	free(buf);
	return err;
}

static int copy_one(struct dump_ctx *ctx, const struct dump_seg *s, void *arg)
{
	*(struct dump_seg *)arg = *s;
	return 0;
}

int dump_sit_one(struct dump_ctx *ctx, uint32_t segno, struct dump_seg *s)
{
	if (segno >= ctx->fs->main_segs)
		return dump_fail(ctx, -ERANGE, "segment %u is outside the main area", segno);
	return dump_sit_range(ctx, segno, segno, copy_one, s);
}

/* ---- -s view ---------------------------------------------------------- */

static const struct dump_col sit_cols[] = {
	{ "segno", 8, COL_U64 },
	{ "type", 9, COL_STR },
	{ "type_raw", 8, COL_U64 },
	{ "valid_blocks", 12, COL_U64 },
	{ "map_popcount", 12, COL_U64 },
	{ "mtime", 12, COL_U64 },
	{ "source", 7, COL_STR },
	{ "current", 9, COL_STR },
	{ "valid_map", 0, COL_STR },
};

struct sit_view {
	struct dump_table t;
	uint64_t segs, free_segs, valid_blocks;
};

static unsigned int popcount_map(const uint8_t *map)
{
	unsigned int i, n = 0;

	for (i = 0; i < SIT_VBLOCK_MAP_SIZE; i++)
		n += (unsigned int)__builtin_popcount(map[i]);
	return n;
}

static const char *const source_names[] = { "copy0", "copy1", "journal" };

static int sit_row(struct dump_ctx *ctx, const struct dump_seg *s, void *arg)
{
	struct sit_view *v = arg;
	unsigned int type = GET_SIT_TYPE(&s->raw), cnt = GET_SIT_VBLOCKS(&s->raw);
	int cur = dump_curseg_of(ctx, s->segno);
	char map[2 * SIT_VBLOCK_MAP_SIZE + 1];
	struct dump_val vals[9];
	unsigned int i, pop = popcount_map(s->raw.valid_map);

	for (i = 0; i < SIT_VBLOCK_MAP_SIZE; i++)
		sprintf(map + 2 * i, "%02x", s->raw.valid_map[i]);
	memset(vals, 0, sizeof(vals));
	vals[0].u = s->segno;
	vals[1].s = dump_seg_type_name(type);
	vals[2].u = type;
	vals[3].u = cnt;
	vals[4].u = pop;
	vals[5].u = le64_to_cpu(s->raw.mtime);
	vals[6].s = source_names[s->source];
	vals[7].s = cur >= 0 ? dump_seg_type_name((unsigned int)cur) : NULL;
	vals[8].s = pop ? map : NULL;
	table_row(&v->t, vals);
	v->segs++;
	v->valid_blocks += cnt;
	if (!cnt)
		v->free_segs++;
	return 0;
}

int dump_sit_view(struct dump_ctx *ctx)
{
	struct dump_range *r = &ctx->opt.sit;
	struct sit_view v;
	uint32_t a, b;
	int err;

	if (r->a >= ctx->fs->main_segs)
		return dump_fail(ctx, -ERANGE, "segment %" PRIu64 " is outside the main area (%u segments)",
				 r->a, ctx->fs->main_segs);
	a = (uint32_t)r->a;
	b = r->b >= ctx->fs->main_segs ? ctx->fs->main_segs - 1 : (uint32_t)r->b;
	memset(&v, 0, sizeof(v));
	if (ctx->out.json)
		out_obj_begin(&ctx->out, "sit");
	else
		fprintf(ctx->out.f, "== SIT entries of segments %u..%u ==\n", a, b);
	table_begin(&v.t, &ctx->out, "segments", sit_cols, 9);
	err = dump_sit_range(ctx, a, b, sit_row, &v);
	table_end(&v.t);
	if (ctx->out.json) {
		out_obj_begin(&ctx->out, "totals");
		out_u64(&ctx->out, "segments", v.segs);
		out_u64(&ctx->out, "segments_without_valid_blocks", v.free_segs);
		out_u64(&ctx->out, "valid_blocks", v.valid_blocks);
		out_obj_end(&ctx->out);
		out_obj_end(&ctx->out);
	} else {
		fprintf(ctx->out.f, "segments %" PRIu64 ", without valid blocks %" PRIu64
			", valid blocks %" PRIu64 " (totals of this range only)\n",
			v.segs, v.free_segs, v.valid_blocks);
	}
	return err;
}
