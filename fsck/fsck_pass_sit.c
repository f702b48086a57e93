/*
 * fsck_pass_sit.c - pass 2: the SIT.
 *
 * Loads the current SIT copy and the SIT journal into ctx->sit (lib's
 * batched loader, every SIT block read once) and checks every entry the
 * way the kernel's check_block_count() does: count within the segment,
 * popcount of the valid map equal to the count, type below 6.  Then the
 * totals the kernel compares at mount: valid node blocks equal to the
 * checkpoint's valid_node_count, all valid blocks not above
 * valid_block_count.  The entries of the current SIT blocks that the SIT
 * journal overrides are checked too, as the kernel reads them first.
 * The reachability comparison is pass 7's.
 *
 * First it announces the current copy of the SIT (read in full next).
 * Then it plans what the next passes read: the current NAT copy and, once
 * the SIT says which blocks are valid, the SSA blocks of segments in use,
 * the valid node blocks and the hot data segments' (prefetch_walk says
 * in which order).  At the pass's end the device layer streams the plan
 * into the page cache from a thread of its own, in that order, at the
 * device's pace (lib/device_stream.c), while the passes go on.
 */
#include <stdio.h>
#include <unistd.h>

#include "f2fs_err.h"
#include "fsck.h"

/* Announce blocks [0, n) of a metadata area, one hint per run of
 * consecutive current-copy addresses. */
static void announce_area(struct f2fs_fs *fs, uint32_t n,
			  uint32_t (*addr_of)(const struct f2fs_fs *, uint32_t))
{
	uint64_t start = 0, len = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t a = addr_of(fs, i);

		if (len && a == start + len) {
			len++;
			continue;
		}
		if (len)
			(void)f2fs_dev_readahead(fs->dev, start, len);
		start = a;
		len = 1;
	}
	if (len)
		(void)f2fs_dev_readahead(fs->dev, start, len);
}

static void announce_sit_nat(struct fsck_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;

	if (!fs->dev || !fs->sit_bitmap || !fs->nat_bitmap ||
	    (uint64_t)fs->sit_bitmap_size * 8 < fs->sit_blk_cnt ||
	    (uint64_t)fs->nat_bitmap_size * 8 < fs->nat_blocks)
		return;	/* the loaders report what is wrong */
	announce_area(fs, fs->sit_blk_cnt, f2fs_current_sit_addr);
	/* the rest waits for f2fs_dev_issue_readahead() at the pass's end */
	(void)f2fs_dev_defer_readahead(fs->dev);
	announce_area(fs, fs->nat_blocks, f2fs_current_nat_addr);
}

/* SSA blocks closer than this are announced as one run. */
#define PREFETCH_GAP	16u
/* Node and dentry blocks this close are announced as one run: the few
 * invalid blocks between them cost less than a request of their own, and
 * more would read much of a partly valid node segment for nothing. */
#define PREFETCH_BLOCK_GAP	2u

static uint64_t prefetch_budget(void)
{
	long pages = sysconf(_SC_AVPHYS_PAGES), psize = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || psize <= 0)
		return 1u << 16;	/* 256 MiB */
	return (uint64_t)pages * (uint64_t)psize / F2FS_BLKSIZE / 2;
}

static void prefetch_ssa(struct fsck_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;
	uint32_t first = 0, n = 0;

	if (f2fs_is_ro_image(fs))	/* no SSA area */
		return;
	for (uint32_t segno = 0; segno < ctx->sit.main_segs; segno++) {
		if (!ctx->sit.segs[segno].valid_blocks)
			continue;
		if (n && segno <= first + n + PREFETCH_GAP) {
			n = segno - first + 1;
			continue;
		}
		if (n)
			(void)f2fs_dev_readahead(fs->dev, (uint64_t)fs->ssa_blkaddr + first, n);
		first = segno;
		n = 1;
	}
	if (n)
		(void)f2fs_dev_readahead(fs->dev, (uint64_t)fs->ssa_blkaddr + first, n);
}

/* Valid blocks of the segments of the given types. */
static uint64_t valid_blocks_of(const struct fsck_ctx *ctx, unsigned int type_mask)
{
	uint64_t n = 0;

	for (uint32_t segno = 0; segno < ctx->sit.main_segs; segno++) {
		const struct f2fs_seg_entry *se = &ctx->sit.segs[segno];

		if (se->type < 32 && (type_mask & (1u << se->type)))
			n += se->valid_blocks;
	}
	return n;
}

/* Announce the valid blocks of some segment types; the budget shrinks by
 * what was announced. */
static void prefetch_types(struct fsck_ctx *ctx, unsigned int type_mask, uint64_t *budget)
{
	uint64_t done = 0;

	if (!*budget)
		return;
	(void)f2fs_sit_readahead(ctx->fs, &ctx->sit, type_mask, F2FS_SIT_RA_BY_LOG,
				 PREFETCH_BLOCK_GAP, *budget, &done);
	*budget = done < *budget ? *budget - done : 0;
}

/* The plan the device layer streams after the pass, in this order: the
 * SSA blocks of segments in use (a few per gigabyte, and the walk checks
 * summaries every 64 Ki blocks it references: a read of them queued
 * behind the node area would stop the walk until nearly all of it has
 * been read), then every valid node block, each node log's in address
 * order and the logs in step (f2fs_sit_logs_next: with large sections a
 * tree's directories sit in a hot node section and its files in a warm
 * node one far away, and the walk needs both at once; the walk reads
 * every node block, in an order inode numbers decide, which on an aged
 * volume is no order of the device's), with the hot data segments, where
 * dentry blocks live, before them when they are small next to the node
 * blocks (then they are mostly dentry blocks, which the walk reads as
 * soon as it reaches a directory) and after them otherwise (the kernel
 * also writes the data of files there, which the check never reads).
 * The whole plan is bounded by half the free memory: a hint, not a cache. */
static void prefetch_walk(struct fsck_ctx *ctx)
{
	const unsigned int nodes = 1u << CURSEG_HOT_NODE | 1u << CURSEG_WARM_NODE |
				   1u << CURSEG_COLD_NODE;
	const unsigned int dents = 1u << CURSEG_HOT_DATA;
	uint64_t budget = prefetch_budget();
	bool dents_first;

	if (!ctx->sit_loaded)
		return;
	prefetch_ssa(ctx);
	dents_first = valid_blocks_of(ctx, dents) <= valid_blocks_of(ctx, nodes) / 8;
	if (dents_first)
		prefetch_types(ctx, dents, &budget);
	prefetch_types(ctx, nodes, &budget);
	if (!dents_first)
		prefetch_types(ctx, dents, &budget);
}

/* Checks one entry; a free segment (count 0, empty map) costs one test. */
static void check_entry(struct fsck_ctx *ctx, uint32_t segno)
{
	const struct f2fs_seg_entry *se = &ctx->sit.segs[segno];
	unsigned int bits;

	if (se->valid_blocks == 0 && se->type < NR_CURSEG_TYPE &&
	    f2fs_sit_map_empty(se->cur_valid_map))
		return;
	bits = f2fs_sit_map_weight(se->cur_valid_map);
	if (se->valid_blocks > BLKS_PER_SEG)
		fsck_problem(ctx, PR_SIT_COUNT_RANGE, FSCK_OBJ(.segno = segno,
			    .found = se->valid_blocks, .expected = BLKS_PER_SEG));
	else if (bits != se->valid_blocks)
		fsck_problem(ctx, PR_SIT_COUNT_POPCOUNT, FSCK_OBJ(.segno = segno,
			    .found = se->valid_blocks, .expected = bits));
	if (se->type >= NR_CURSEG_TYPE)
		fsck_problem(ctx, PR_SIT_BAD_TYPE, FSCK_OBJ(.segno = segno, .found = se->type));
}

/* One pass over the segments: each entry, then the totals. */
static void check_entries(struct fsck_ctx *ctx)
{
	const struct f2fs_checkpoint *cp = ctx->fs->cp;
	uint64_t nodes = 0, all = 0;

	for (uint32_t segno = 0; segno < ctx->sit.main_segs; segno++) {
		const struct f2fs_seg_entry *se = &ctx->sit.segs[segno];

		check_entry(ctx, segno);
		all += se->valid_blocks;
		if (se->type >= CURSEG_HOT_NODE && se->type <= CURSEG_COLD_NODE)
			nodes += se->valid_blocks;
	}
	if (nodes != le32_to_cpu(cp->valid_node_count))
		fsck_problem(ctx, PR_SIT_NODE_TOTAL, FSCK_OBJ(.found = nodes,
			    .expected = le32_to_cpu(cp->valid_node_count)));
	if (all > le64_to_cpu(cp->valid_block_count))
		fsck_problem(ctx, PR_SIT_TOTAL_EXCEEDS, FSCK_OBJ(.found = all,
			    .expected = le64_to_cpu(cp->valid_block_count)));
}

/* The fault of a raw entry in words, or NULL when the kernel takes it. */
static const char *fault_words(const struct f2fs_sit_entry *raw, char *buf, size_t len)
{
	unsigned int count = GET_SIT_VBLOCKS(raw);

	switch (f2fs_sit_entry_fault(raw)) {
	case F2FS_SIT_FAULT_RANGE:
		snprintf(buf, len, "count %u exceeds %u", count, (unsigned int)BLKS_PER_SEG);
		return buf;
	case F2FS_SIT_FAULT_POPCOUNT:
		snprintf(buf, len, "count %u but %u bits set", count,
			 f2fs_sit_map_weight(raw->valid_map));
		return buf;
	case F2FS_SIT_FAULT_TYPE:
		snprintf(buf, len, "type %u is invalid", (unsigned int)GET_SIT_TYPE(raw));
		return buf;
	case F2FS_SIT_FAULT_NONE:
		break;
	}
	return NULL;
}

/* build_sit_entries() checks every entry of the current SIT blocks before
 * it applies the journal: an entry the journal overrides is still read,
 * and a bad one fails the mount.  The model holds the journal's values,
 * so those few entries are read again from their blocks. */
static void check_journalled_block_entries(struct fsck_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;
	const struct f2fs_journal *j;
	uint32_t n;

	if (!fs->cursum_loaded)
		return;
	j = f2fs_sit_journal(fs);
	n = le16_to_cpu(j->n_sits);
	for (uint32_t i = 0; i < n && i < SIT_JOURNAL_ENTRIES; i++) {
		uint32_t segno = le32_to_cpu(j->sit_j.entries[i].segno);
		struct f2fs_sit_entry raw;
		const char *why;
		char buf[64];
		bool seen = false;

		for (uint32_t k = 0; k < i && !seen; k++)
			seen = le32_to_cpu(j->sit_j.entries[k].segno) == segno;
		if (seen || segno >= ctx->sit.main_segs ||
		    f2fs_sit_read_block_entry(fs, segno, &raw))
			continue;
		why = fault_words(&raw, buf, sizeof(buf));
		if (why)
			fsck_problem(ctx, PR_SIT_BLOCK_ENTRY_JOURNALLED,
				    FSCK_OBJ(.segno = segno, .str = why));
	}
}

int fsck_pass_sit(struct fsck_ctx *ctx)
{
	uint32_t bad = 0;
	int err;

	fsck_progress(ctx, 2, 0, 1);
	announce_sit_nat(ctx);
	err = f2fs_sit_load(ctx->fs, &ctx->sit, &bad);
	if (err == 0) {
		ctx->sit_loaded = true;
		prefetch_walk(ctx);
	}
	f2fs_dev_issue_readahead(ctx->fs->dev);
	if (err == -EFSCORRUPTED) {
		fsck_problem(ctx, PR_CP_SANITY, FSCK_OBJ(.str = "the SIT does not fit the superblock geometry"));
		return 0;
	}
	if (err)
		return err;
	check_entries(ctx);
	check_journalled_block_entries(ctx);
	fsck_progress(ctx, 2, 1, 1);
	return 0;
}
