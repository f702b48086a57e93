/*
 * dump_ssa.c - the SSA view (-a a~b): the summary block of each segment of
 * the range (for the six current segments the summary kept in the
 * checkpoint pack, which is the authoritative one), with its footer type
 * and every non-empty entry.  Only the SSA blocks of the range are read.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"

#define SSA_BATCH_BLOCKS 128

static const struct dump_col entry_cols[] = {
	{ "blkoff", 6, COL_U64 },
	{ "nid", 10, COL_U64 },
	{ "version", 7, COL_U64 },
	{ "ofs_in_node", 0, COL_U64 },
};

static void print_summary(struct dump_ctx *ctx, uint32_t segno,
			  const struct f2fs_summary_block *sum, int cur)
{
	struct dump_out *o = &ctx->out;
	struct dump_table t;
	const char *type = sum->footer.entry_type == SUM_TYPE_NODE ? "node" :
			   sum->footer.entry_type == SUM_TYPE_DATA ? "data" : "invalid";
	uint32_t i;

	if (o->json) {
		out_obj_begin(o, NULL);
		out_u64(o, "segno", segno);
		out_str(o, "entry_type", type);
		out_str(o, "source", cur >= 0 ? "checkpoint" : "ssa");
		out_str(o, "current", cur >= 0 ? dump_seg_type_name((unsigned int)cur) : NULL);
	} else {
		fprintf(o->f, "segment %u: %s summary%s%s\n", segno, type,
			cur >= 0 ? ", current " : "", cur >= 0 ?
			dump_seg_type_name((unsigned int)cur) : "");
	}
	table_begin(&t, o, "entries", entry_cols, 4);
	for (i = 0; i < ENTRIES_IN_SUM; i++) {
		const struct f2fs_summary *e = &sum->entries[i];
		struct dump_val v[4];

		if (!e->nid)
			continue;
		memset(v, 0, sizeof(v));
		v[0].u = i;
		v[1].u = le32_to_cpu(e->nid);
		v[2].u = e->version;
		v[3].u = le16_to_cpu(e->ofs_in_node);
		table_row(&t, v);
	}
	table_end(&t);
	if (o->json)
		out_obj_end(o);
}

static int ssa_batch(struct dump_ctx *ctx, uint8_t *buf, uint32_t first, uint32_t n)
{
	struct f2fs_fs *fs = ctx->fs;
	uint32_t i;
	int err;

	err = f2fs_dev_read(fs->dev, (uint64_t)fs->ssa_blkaddr + first, n, buf);
	if (err)
		return dump_fail(ctx, err, "cannot read SSA blocks of segments %u..%u: %s",
				 first, first + n - 1, f2fs_strerror(err));
	for (i = 0; i < n; i++) {
		uint32_t segno = first + i;
		int cur = dump_curseg_of(ctx, segno);
		const struct f2fs_summary_block *sum = (const void *)(buf + (size_t)i * F2FS_BLKSIZE);

		if (cur >= 0 && fs->cursum_loaded)
			sum = &fs->cursum[cur];
		print_summary(ctx, segno, sum, cur);
	}
	return 0;
}

int dump_ssa_view(struct dump_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;
	struct dump_range *r = &ctx->opt.ssa;
	uint64_t ssa_blocks = (uint64_t)le32_to_cpu(fs->sb.segment_count_ssa) * BLKS_PER_SEG;
	uint32_t a, b, seg, n;
	uint8_t *buf;
	int err = 0;

	if (f2fs_is_ro_image(fs))
		return dump_fail(ctx, -ENOENT, "a read-only image (feature ro) has no SSA");
	if (r->a >= fs->main_segs)
		return dump_fail(ctx, -ERANGE, "segment %" PRIu64 " is outside the main area (%u segments)",
				 r->a, fs->main_segs);
	a = (uint32_t)r->a;
	b = r->b >= fs->main_segs ? fs->main_segs - 1 : (uint32_t)r->b;
	if (b >= ssa_blocks)
		return dump_fail(ctx, -EFSCORRUPTED, "the SSA area (%" PRIu64 " blocks) does not cover segment %u",
				 ssa_blocks, b);
	buf = f2fs_blocks_alloc(SSA_BATCH_BLOCKS);
	if (!buf)
		return dump_fail(ctx, -ENOMEM, "out of memory");
	if (ctx->out.json)
		out_arr_begin(&ctx->out, "ssa");
	else
		fprintf(ctx->out.f, "== SSA of segments %u..%u ==\n", a, b);
	for (seg = a; seg <= b && !err; seg += n) {
		n = b - seg + 1 < SSA_BATCH_BLOCKS ? b - seg + 1 : SSA_BATCH_BLOCKS;
		err = ssa_batch(ctx, buf, seg, n);
		if (seg + n < seg)
			break;
	}
	if (ctx->out.json)
		out_arr_end(&ctx->out);
	free(buf);
	return err;
}
