/*
 * dump_sections.c - the per-section table (--sections[=a~b]): for each
 * section its type, valid blocks (sum of the SIT counts of its segments),
 * checkpoint-valid blocks (sum of the bits set in the SIT valid maps, which
 * is what the kernel loads as ckpt_valid_map; the two agree on a sane
 * image), state (free, current, dirty, full: every writable block valid,
 * up to the zone capacity on a zoned volume) and mtime (average over the
 * segments that hold valid blocks), followed by totals.  For the whole
 * volume the totals are compared with the checkpoint.
 */
#include <inttypes.h>
#include <string.h>

#include "dump.h"
#include "f2fs_dev.h"
#include "f2fs_zone.h"

static const struct dump_col sec_cols[] = {
	{ "secno", 8, COL_U64 },
	{ "segno", 8, COL_U64 },
	{ "type", 9, COL_STR },
	{ "valid_blocks", 12, COL_U64 },
	{ "ckpt_valid_blocks", 17, COL_U64 },
	{ "free_segments", 13, COL_U64 },
	{ "state", 7, COL_STR },
	{ "current", 9, COL_STR },
	{ "mtime", 0, COL_U64 },
};

struct sec_acc {
	uint32_t secno;
	uint32_t nsegs;
	uint64_t valid, ckpt_valid;
	uint32_t free_segs;	/* no valid blocks and not a current segment */
	int type;		/* -1 none yet, -2 mixed */
	int cur;		/* a current segment's log, or -1 */
	uint64_t mtime_sum;
	uint32_t mtime_n;
};

struct sec_totals {
	uint64_t sections, segments, free_sections, free_segments;
	uint64_t current_sections, dirty_sections, full_sections;
	uint64_t valid_blocks, ckpt_valid_blocks, inconsistent_segments;
};

struct sec_view {
	struct dump_table t;
	struct sec_acc acc;
	struct sec_totals tot;
	uint32_t segs_per_sec;
	const struct f2fs_fs *fs;
};

static const char *sec_type(const struct sec_acc *s)
{
	if (s->type == -2)
		return "mixed";
	if (s->type < 0)
		return NULL;
	return dump_seg_type_name((unsigned int)s->type);
}

/* Writable blocks of a section: its size, or the capacity of the
 * sequential zone it is (zoned volumes, f2fs_zone.h). */
static uint64_t sec_capacity(const struct sec_view *v, uint32_t secno)
{
	uint64_t size = (uint64_t)v->segs_per_sec * BLKS_PER_SEG;
	const struct f2fs_zone *z = f2fs_zone_of_volume_blk(v->fs->dev,
							    v->fs->main_blkaddr + secno * size, NULL);

	return z && f2fs_zone_is_seq(z) && z->capacity < size ? z->capacity : size;
}

static const char *sec_state(const struct sec_acc *s, const struct sec_view *v)
{
	if (s->cur >= 0)
		return "current";
	if (!s->valid)
		return "free";
	if (s->valid >= sec_capacity(v, s->secno))
		return "full";
	return "dirty";
}

static void count_state(struct sec_totals *t, const char *state)
{
	if (!strcmp(state, "free"))
		t->free_sections++;
	else if (!strcmp(state, "current"))
		t->current_sections++;
	else if (!strcmp(state, "full"))
		t->full_sections++;
	else
		t->dirty_sections++;
}

static void emit_section(struct sec_view *v)
{
	struct sec_acc *s = &v->acc;
	const char *state = sec_state(s, v);
	struct dump_val vals[9];

	memset(vals, 0, sizeof(vals));
	vals[0].u = s->secno;
	vals[1].u = (uint64_t)s->secno * v->segs_per_sec;
	vals[2].s = sec_type(s);
	vals[3].u = s->valid;
	vals[4].u = s->ckpt_valid;
	vals[5].u = s->free_segs;
	vals[6].s = state;
	vals[7].s = s->cur >= 0 ? dump_seg_type_name((unsigned int)s->cur) : NULL;
	vals[8].u = s->mtime_n ? s->mtime_sum / s->mtime_n : 0;
	table_row(&v->t, vals);
	v->tot.sections++;
	count_state(&v->tot, state);
}

static void add_segment(struct dump_ctx *ctx, struct sec_acc *s, const struct dump_seg *seg)
{
	unsigned int cnt = GET_SIT_VBLOCKS(&seg->raw), type = GET_SIT_TYPE(&seg->raw);
	unsigned int i, pop = 0;
	int cur = dump_curseg_of(ctx, seg->segno);

	for (i = 0; i < SIT_VBLOCK_MAP_SIZE; i++)
		pop += (unsigned int)__builtin_popcount(seg->raw.valid_map[i]);
	s->valid += cnt;
	s->ckpt_valid += pop;
	if (cur >= 0 && s->cur < 0)
		s->cur = cur;
	if (!cnt && cur < 0)
		s->free_segs++;
	if (cnt || cur >= 0) {
		int t = cur >= 0 ? cur : (int)type;

		if (s->type == -1)
			s->type = t;
		else if (s->type != t)
			s->type = -2;
	}
	if (cnt) {
		s->mtime_sum += le64_to_cpu(seg->raw.mtime);
		s->mtime_n++;
	}
}

static int sec_segment(struct dump_ctx *ctx, const struct dump_seg *seg, void *arg)
{
	struct sec_view *v = arg;
	uint32_t secno = seg->segno / v->segs_per_sec;
	unsigned int cnt = GET_SIT_VBLOCKS(&seg->raw);
	unsigned int i, pop = 0;

	if (v->acc.nsegs && v->acc.secno != secno) {
		emit_section(v);
		v->acc.nsegs = 0;
	}
	if (!v->acc.nsegs) {
		memset(&v->acc, 0, sizeof(v->acc));
		v->acc.secno = secno;
		v->acc.type = -1;
		v->acc.cur = -1;
	}
	add_segment(ctx, &v->acc, seg);
	v->acc.nsegs++;
	for (i = 0; i < SIT_VBLOCK_MAP_SIZE; i++)
		pop += (unsigned int)__builtin_popcount(seg->raw.valid_map[i]);
	v->tot.segments++;
	v->tot.valid_blocks += cnt;
	v->tot.ckpt_valid_blocks += pop;
	if (pop != cnt || GET_SIT_TYPE(&seg->raw) >= NR_CURSEG_TYPE)
		v->tot.inconsistent_segments++;
	if (!cnt && dump_curseg_of(ctx, seg->segno) < 0)
		v->tot.free_segments++;
	return 0;
}

static void print_totals(struct dump_ctx *ctx, const struct sec_totals *t, bool whole)
{
	const struct f2fs_checkpoint *cp = ctx->fs->cp;
	uint64_t cp_free = le32_to_cpu(cp->free_segment_count);
	uint64_t cp_valid = le64_to_cpu(cp->valid_block_count);
	struct dump_out *o = &ctx->out;

	if (o->json) {
		out_obj_begin(o, "totals");
		out_bool(o, "whole_volume", whole);
		out_u64(o, "sections", t->sections);
		out_u64(o, "segments", t->segments);
		out_u64(o, "free_sections", t->free_sections);
		out_u64(o, "current_sections", t->current_sections);
		out_u64(o, "dirty_sections", t->dirty_sections);
		out_u64(o, "full_sections", t->full_sections);
		out_u64(o, "free_segments", t->free_segments);
		out_u64(o, "valid_blocks", t->valid_blocks);
		out_u64(o, "ckpt_valid_blocks", t->ckpt_valid_blocks);
		out_u64(o, "inconsistent_segments", t->inconsistent_segments);
		if (whole) {
			out_u64(o, "cp_free_segment_count", cp_free);
			out_u64(o, "cp_valid_block_count", cp_valid);
			out_bool(o, "free_segments_match", cp_free == t->free_segments);
			out_bool(o, "valid_blocks_match", cp_valid == t->valid_blocks);
		}
		out_obj_end(o);
		return;
	}
	fprintf(o->f, "sections %" PRIu64 ": free %" PRIu64 ", current %" PRIu64 ", dirty %" PRIu64
		", full %" PRIu64 "\n", t->sections, t->free_sections, t->current_sections,
		t->dirty_sections, t->full_sections);
	fprintf(o->f, "segments %" PRIu64 ": free %" PRIu64 ", inconsistent %" PRIu64 "\n",
		t->segments, t->free_segments, t->inconsistent_segments);
	fprintf(o->f, "valid blocks %" PRIu64 ", ckpt valid blocks %" PRIu64 "\n",
		t->valid_blocks, t->ckpt_valid_blocks);
	if (whole)
		fprintf(o->f, "checkpoint: free_segment_count %" PRIu64 " (%s), valid_block_count %"
			PRIu64 " (%s)\n", cp_free, cp_free == t->free_segments ? "matches" : "differs",
			cp_valid, cp_valid == t->valid_blocks ? "matches" : "differs");
}

int dump_sections_view(struct dump_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;
	struct dump_range *r = &ctx->opt.sections;
	struct sec_view v;
	uint64_t last_sec;
	uint32_t a, b;
	bool whole;
	int err;

	if (!fs->segs_per_sec || !fs->main_secs || fs->main_secs > fs->main_segs / fs->segs_per_sec)
		return dump_fail(ctx, -EFSCORRUPTED, "inconsistent section geometry");
	if (r->a >= fs->main_secs)
		return dump_fail(ctx, -ERANGE, "section %" PRIu64 " is outside the main area (%u sections)",
				 r->a, fs->main_secs);
	last_sec = r->b >= fs->main_secs ? fs->main_secs - 1 : r->b;
	whole = r->a == 0 && last_sec == fs->main_secs - 1;
	a = (uint32_t)r->a * fs->segs_per_sec;
	b = (uint32_t)(last_sec + 1) * fs->segs_per_sec - 1;
	memset(&v, 0, sizeof(v));
	v.segs_per_sec = fs->segs_per_sec;
	v.fs = fs;
	if (ctx->out.json) {
		out_obj_begin(&ctx->out, "sections");
		out_u64(&ctx->out, "segs_per_sec", fs->segs_per_sec);
		out_u64(&ctx->out, "first_section", r->a);
		out_u64(&ctx->out, "last_section", last_sec);
	} else {
		fprintf(ctx->out.f, "== sections %" PRIu64 "..%" PRIu64 " (%u segments per section) ==\n",
			r->a, last_sec, fs->segs_per_sec);
	}
	table_begin(&v.t, &ctx->out, "table", sec_cols, 9);
	err = dump_sit_range(ctx, a, b, sec_segment, &v);
	if (!err && v.acc.nsegs)
		emit_section(&v);
	table_end(&v.t);
	if (!err)
		print_totals(ctx, &v.tot, whole);
	if (ctx->out.json)
		out_obj_end(&ctx->out);
	return err;
}
