/*
 * fsck_pass_sit.c - pass 2: the SIT.
 *
 * Loads the current SIT copy and the SIT journal into ctx->sit (lib's
 * batched loader, every SIT block read once) and checks every entry the
 * way the kernel's check_block_count() does: count within the segment,
 * popcount of the valid map equal to the count, type below 6.  Then the
 * totals the kernel compares at mount: valid node blocks equal to the
 * checkpoint's valid_node_count, all valid blocks not above
 * valid_block_count.  The reachability comparison is pass 7's.
 *
 * First it announces the current copies of the SIT and the NAT (the two
 * areas read in full next), so the device streams the NAT while the SIT
 * is checked.
 */
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
	announce_area(fs, fs->nat_blocks, f2fs_current_nat_addr);
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
		fsck_report(ctx, PR_SIT_COUNT_RANGE, FSCK_OBJ(.segno = segno,
			    .found = se->valid_blocks, .expected = BLKS_PER_SEG));
	else if (bits != se->valid_blocks)
		fsck_report(ctx, PR_SIT_COUNT_POPCOUNT, FSCK_OBJ(.segno = segno,
			    .found = se->valid_blocks, .expected = bits));
	if (se->type >= NR_CURSEG_TYPE)
		fsck_report(ctx, PR_SIT_BAD_TYPE, FSCK_OBJ(.segno = segno, .found = se->type));
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
		fsck_report(ctx, PR_SIT_NODE_TOTAL, FSCK_OBJ(.found = nodes,
			    .expected = le32_to_cpu(cp->valid_node_count)));
	if (all > le64_to_cpu(cp->valid_block_count))
		fsck_report(ctx, PR_SIT_TOTAL_EXCEEDS, FSCK_OBJ(.found = all,
			    .expected = le64_to_cpu(cp->valid_block_count)));
}

int fsck_pass_sit(struct fsck_ctx *ctx)
{
	uint32_t bad = 0;
	int err;

	fsck_progress(ctx, 2, 0, 1);
	announce_sit_nat(ctx);
	err = f2fs_sit_load(ctx->fs, &ctx->sit, &bad);
	if (err == -EFSCORRUPTED) {
		fsck_report(ctx, PR_CP_SANITY, FSCK_OBJ(.str = "the SIT does not fit the superblock geometry"));
		return 0;
	}
	if (err)
		return err;
	ctx->sit_loaded = true;
	check_entries(ctx);
	fsck_progress(ctx, 2, 1, 1);
	return 0;
}
