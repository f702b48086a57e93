/*
 * fsck_pass_ssa.c - pass 6: the SSA.
 *
 * The walk queues one expected summary entry per referenced block (owner
 * nid, ofs_in_node, node or data).  Here they are sorted by address and
 * checked segment by segment: each needed SSA block is read once per
 * flush, in address order with batched reads; the six current segments
 * use the checkpoint's summaries instead (node logs only when the pack
 * has node summaries: otherwise the kernel rebuilds them from footers).
 * Checks: nid, ofs_in_node and NAT version of data entries, nid of node
 * entries, and the summary footer type against what the segment holds.
 * Called when the queue is full and once at the end.  A data entry that
 * disagrees with its summary before the end stays queued: the walk may
 * still find that the summary is right and the slot that claimed the
 * block first is not its owner (fsck_shared.c), and the last flush
 * judges it.  fsck_shared.c also reads summaries here: one block's, and
 * every data segment's in one batched scan.
 */
#include <stdlib.h>
#include <string.h>

#include "f2fs_ckpt.h"
#include "f2fs_err.h"
#include "fsck_walk.h"

static int cmp_ent(const void *a, const void *b)
{
	const struct fsck_ssa_ent *x = a, *y = b;

	return x->blkaddr < y->blkaddr ? -1 : x->blkaddr > y->blkaddr;
}

#define RADIX_BITS	11u
#define RADIX_SIZE	(1u << RADIX_BITS)

/* One stable counting pass of the radix sort on bits [shift, shift + 11). */
static void radix_pass(const struct fsck_ssa_ent *in, struct fsck_ssa_ent *out, uint32_t n,
		       unsigned int shift)
{
	uint32_t count[RADIX_SIZE] = { 0 }, sum = 0;

	for (uint32_t i = 0; i < n; i++)
		count[(in[i].blkaddr >> shift) & (RADIX_SIZE - 1)]++;
	for (uint32_t d = 0; d < RADIX_SIZE; d++) {
		uint32_t c = count[d];

		count[d] = sum;
		sum += c;
	}
	for (uint32_t i = 0; i < n; i++)
		out[count[(in[i].blkaddr >> shift) & (RADIX_SIZE - 1)]++] = in[i];
}

/* Sort the queue by address: an LSD radix sort (a walk marks each block
 * once, so addresses are unique and the order equals qsort's), only over
 * the digits the largest address has; qsort when no scratch is left. */
static void sort_queue(struct fsck_ctx *ctx)
{
	struct fsck_ssa_ent *a = ctx->ssa, *b;
	uint32_t n = ctx->n_ssa, max = 0;
	unsigned int shift = 0;

	for (uint32_t i = 0; i < n; i++)
		if (a[i].blkaddr > max)
			max = a[i].blkaddr;
	b = n > 64 ? malloc((size_t)n * sizeof(*b)) : NULL;
	if (!b) {
		qsort(a, n, sizeof(*a), cmp_ent);
		return;
	}
	do {
		struct fsck_ssa_ent *t = a;

		radix_pass(a, b, n, shift);
		a = b;
		b = t;
		shift += RADIX_BITS;
	} while (shift < 32 && (max >> shift));
	if (a != ctx->ssa)
		memcpy(ctx->ssa, a, (size_t)n * sizeof(*a));
	free(a == ctx->ssa ? b : a);
}

/* Summary block from the checkpoint for a current segment, or NULL; sets
 * *skip when the pack carries no usable summary for it. */
static const struct f2fs_summary_block *curseg_sum(struct fsck_ctx *ctx, uint32_t segno, bool *skip)
{
	struct f2fs_fs *fs = ctx->fs;

	*skip = false;
	for (int t = 0; t < NR_CURSEG_TYPE; t++) {
		if (fs->curseg_segno[t] != segno)
			continue;
		if (!fs->cursum_loaded ||
		    (t >= CURSEG_HOT_NODE && !f2fs_cp_has_node_summaries(fs->cp))) {
			*skip = true;
			return NULL;
		}
		return &fs->cursum[t];
	}
	return NULL;
}

/* Whether the data entry e agrees with its summary s (nid, ofs_in_node
 * and the nid's NAT version). */
static bool data_entry_matches(const struct fsck_ctx *ctx, const struct fsck_ssa_ent *e,
			       const struct f2fs_summary *s)
{
	struct f2fs_nat_entry ne;

	if (le32_to_cpu(s->nid) != e->nid || le16_to_cpu(s->ofs_in_node) != e->ofs_in_node)
		return false;
	return !fsck_nat_lookup(ctx, e->nid, &ne) || ne.version == s->version;
}

/* Check entry e; false when it is kept for the last flush instead. */
static bool check_one(struct fsck_ctx *ctx, const struct fsck_ssa_ent *e,
		      const struct f2fs_summary_block *sum, bool last)
{
	uint32_t off = (e->blkaddr - ctx->fs->main_blkaddr) % BLKS_PER_SEG;
	const struct f2fs_summary *s = &sum->entries[off];
	uint32_t nid = le32_to_cpu(s->nid);
	struct f2fs_nat_entry ne;

	if (!last && !e->is_node && !data_entry_matches(ctx, e, s))
		return false;
	if (nid != e->nid) {
		if (fsck_problem(ctx, PR_SSA_NID, FSCK_OBJ(.blkaddr = e->blkaddr, .found = nid,
				 .expected = e->nid)))
			fsck_fix_ssa(ctx, e->blkaddr, e->nid, e->ofs_in_node, e->is_node);
		return true;
	}
	if (e->is_node)
		return true;
	if (le16_to_cpu(s->ofs_in_node) != e->ofs_in_node) {
		if (fsck_problem(ctx, PR_SSA_OFS, FSCK_OBJ(.blkaddr = e->blkaddr, .nid = e->nid,
				 .found = le16_to_cpu(s->ofs_in_node), .expected = e->ofs_in_node)))
			fsck_fix_ssa(ctx, e->blkaddr, e->nid, e->ofs_in_node, false);
	} else if (fsck_nat_lookup(ctx, e->nid, &ne) && ne.version != s->version) {
		if (fsck_problem(ctx, PR_SSA_VERSION, FSCK_OBJ(.blkaddr = e->blkaddr, .nid = e->nid,
				 .found = s->version, .expected = ne.version)))
			fsck_fix_ssa(ctx, e->blkaddr, e->nid, e->ofs_in_node, false);
	}
	return true;
}

static void check_footer(struct fsck_ctx *ctx, uint32_t segno, const struct f2fs_summary_block *sum)
{
	uint8_t kind = ctx->seg_kind[segno] & 3;
	uint8_t type = sum->footer.entry_type;

	if (kind == 3 || (kind == 2 && type == SUM_TYPE_NODE) || (kind == 1 && type == SUM_TYPE_DATA))
		return;	/* mixed segments are reported by the walk */
	if (fsck_problem(ctx, PR_SSA_FOOTER_TYPE, FSCK_OBJ(.segno = segno, .found = type,
			 .str = kind == 2 ? "node" : "data")))
		fsck_fix_ssa_footer(ctx, f2fs_seg_start_blkaddr(ctx->fs, segno));
}

/* Check the n entries at ents, which all lie in segno; the ones kept for
 * the last flush are copied to the queue's front (at *kept). */
static void check_segment(struct fsck_ctx *ctx, uint32_t segno, const struct f2fs_summary_block *sum,
			  const struct fsck_ssa_ent *ents, uint32_t n, bool footer, bool last,
			  uint32_t *kept)
{
	if (footer)
		check_footer(ctx, segno, sum);
	for (uint32_t k = 0; k < n; k++)
		if (!check_one(ctx, &ents[k], sum, last))
			ctx->ssa[(*kept)++] = ents[k];
}

static uint32_t segno_of(const struct fsck_ctx *ctx, uint32_t addr)
{
	return (addr - ctx->fs->main_blkaddr) / BLKS_PER_SEG;
}

/* The segments of entries [from, n) needing an SSA read, up to one batch. */
static uint32_t collect_segments(struct fsck_ctx *ctx, uint32_t from, uint32_t *segs,
				 uint32_t *addrs, uint32_t *next)
{
	uint32_t ns = 0, i = from;

	while (i < ctx->n_ssa && ns < FSCK_BATCH) {
		uint32_t segno = segno_of(ctx, ctx->ssa[i].blkaddr);
		bool skip;

		if (!curseg_sum(ctx, segno, &skip) && !skip && (!ns || segs[ns - 1] != segno)) {
			segs[ns] = segno;
			addrs[ns++] = ctx->fs->ssa_blkaddr + segno;
		}
		while (i < ctx->n_ssa && segno_of(ctx, ctx->ssa[i].blkaddr) == segno)
			i++;
	}
	*next = i;
	return ns;
}

static int flush(struct fsck_ctx *ctx, bool last)
{
	struct fsck_walk w = { .ctx = ctx };
	uint32_t segs[FSCK_BATCH], addrs[FSCK_BATCH];
	const uint8_t *blk[FSCK_BATCH];
	uint32_t kept = 0;
	uint8_t *buf;
	int err = 0;

	if (!ctx->n_ssa)
		return 0;
	sort_queue(ctx);
	buf = f2fs_dev_buf_take(ctx->fs->dev, FSCK_BATCH);
	w.vec = calloc(FSCK_BATCH, sizeof(*w.vec));
	if (!buf || !w.vec) {
		err = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < ctx->n_ssa && !err;) {
		uint32_t next, ns = collect_segments(ctx, i, segs, addrs, &next), si = 0;

		err = ns ? fsck_read_sorted(&w, addrs, ns, buf, blk) : 0;
		while (i < next && !err) {
			uint32_t segno = segno_of(ctx, ctx->ssa[i].blkaddr), j = i;
			const struct f2fs_summary_block *sum;
			bool skip;

			while (j < next && segno_of(ctx, ctx->ssa[j].blkaddr) == segno)
				j++;
			sum = curseg_sum(ctx, segno, &skip);
			if (!sum && !skip) {
				while (si < ns && segs[si] != segno)
					si++;
				sum = si < ns ? (const void *)blk[si] : NULL;
			}
			if (sum)
				check_segment(ctx, segno, sum, &ctx->ssa[i], j - i,
					      !(ctx->seg_kind[segno] & 8), last, &kept);
			ctx->seg_kind[segno] |= 8;	/* footer checked */
			i = j;
		}
	}
	ctx->n_ssa = err ? ctx->n_ssa : kept;
out:
	f2fs_dev_buf_give(ctx->fs->dev, buf, FSCK_BATCH);
	free(w.vec);
	return err;
}

int fsck_ssa_flush(struct fsck_ctx *ctx)
{
	return flush(ctx, false);
}

/* ---- summaries for shared data blocks (fsck_shared.c) ---- */

/* The log whose current segment segno is, or -1. */
static int log_of(const struct fsck_ctx *ctx, uint32_t segno)
{
	for (int t = 0; t < NR_CURSEG_TYPE; t++)
		if (ctx->fs->curseg_segno[t] == segno)
			return t;
	return -1;
}

bool fsck_ssa_lookup(struct fsck_ctx *ctx, uint32_t addr, struct f2fs_summary *out)
{
	struct f2fs_summary_block blk;
	const struct f2fs_summary_block *sum;
	uint32_t segno;
	int t;
	bool skip;

	if (!fsck_addr_in_main(ctx, addr) || f2fs_is_ro_image(ctx->fs))
		return false;
	segno = segno_of(ctx, addr);
	t = log_of(ctx, segno);
	sum = curseg_sum(ctx, segno, &skip);
	if (skip || (t >= CURSEG_HOT_NODE))
		return false;
	if (!sum) {
		if (f2fs_dev_read(ctx->fs->dev, (uint64_t)ctx->fs->ssa_blkaddr + segno, 1, &blk) ||
		    blk.footer.entry_type != SUM_TYPE_DATA)
			return false;
		sum = &blk;
	}
	*out = sum->entries[(addr - ctx->fs->main_blkaddr) % BLKS_PER_SEG];
	return true;
}

struct fsck_ssa_ent *fsck_ssa_queued(struct fsck_ctx *ctx, uint32_t addr)
{
	for (uint32_t i = ctx->n_ssa; i-- > 0;)
		if (ctx->ssa[i].blkaddr == addr)
			return &ctx->ssa[i];
	return NULL;
}

/* Whether the SSA block of segno may name data blocks: not a current
 * segment (the checkpoint has those), and valid blocks only of a data
 * type if any. */
static bool may_hold_data(const struct fsck_ctx *ctx, uint32_t segno)
{
	const struct f2fs_seg_entry *se = &ctx->sit.segs[segno];

	return log_of(ctx, segno) < 0 && (!se->valid_blocks || se->type < CURSEG_HOT_NODE);
}

static void scan_log_summaries(struct fsck_ctx *ctx, fsck_sum_fn fn, void *arg)
{
	const struct f2fs_fs *fs = ctx->fs;

	if (!fs->cursum_loaded)
		return;
	for (int t = CURSEG_HOT_DATA; t < CURSEG_HOT_NODE; t++) {
		uint32_t segno = fs->curseg_segno[t];

		if (segno >= fs->main_segs || log_of(ctx, segno) != t)
			continue;
		for (uint32_t k = 0; k < BLKS_PER_SEG; k++)
			fn(arg, f2fs_seg_start_blkaddr(fs, segno) + k, &fs->cursum[t].entries[k],
			   fs->cp->alloc_type[t] != LFS || k >= fs->curseg_blkoff[t]);
	}
}

int fsck_ssa_for_each_data(struct fsck_ctx *ctx, fsck_sum_fn fn, void *arg)
{
	struct fsck_walk w = { .ctx = ctx };
	uint32_t segs[FSCK_BATCH], addrs[FSCK_BATCH];
	const uint8_t *blk[FSCK_BATCH];
	uint8_t *buf;
	int err = 0;

	if (f2fs_is_ro_image(ctx->fs))	/* no SSA area */
		return 0;
	buf = f2fs_dev_buf_take(ctx->fs->dev, FSCK_BATCH);
	w.vec = calloc(FSCK_BATCH, sizeof(*w.vec));
	if (!buf || !w.vec) {
		f2fs_dev_buf_give(ctx->fs->dev, buf, FSCK_BATCH);
		free(w.vec);
		return -ENOMEM;
	}
	scan_log_summaries(ctx, fn, arg);
	for (uint32_t segno = 0; segno < ctx->fs->main_segs && !err;) {
		uint32_t ns = 0;

		for (; segno < ctx->fs->main_segs && ns < FSCK_BATCH; segno++) {
			if (!may_hold_data(ctx, segno))
				continue;
			segs[ns] = segno;
			addrs[ns++] = ctx->fs->ssa_blkaddr + segno;
		}
		err = ns ? fsck_read_sorted(&w, addrs, ns, buf, blk) : 0;
		for (uint32_t i = 0; i < ns && !err; i++) {
			const struct f2fs_summary_block *sum = (const void *)blk[i];
			uint32_t start = f2fs_seg_start_blkaddr(ctx->fs, segs[i]);

			if (sum->footer.entry_type != SUM_TYPE_DATA)
				continue;
			for (uint32_t k = 0; k < BLKS_PER_SEG; k++)
				fn(arg, start + k, &sum->entries[k], false);
		}
	}
	f2fs_dev_buf_give(ctx->fs->dev, buf, FSCK_BATCH);
	free(w.vec);
	return err;
}

int fsck_pass_ssa(struct fsck_ctx *ctx)
{
	int err;

	fsck_progress(ctx, 6, 0, 1);
	err = flush(ctx, true);
	fsck_progress(ctx, 6, 1, 1);
	return err;
}
