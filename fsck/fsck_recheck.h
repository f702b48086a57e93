/*
 * fsck_recheck.h - the targeted re-check after a repair (fsck_recheck.c).
 */
#ifndef FSCK_RECHECK_H
#define FSCK_RECHECK_H

#include "fsck.h"

/* What the check before the repair established, kept for the re-check:
 * taken only when the plan allows a targeted re-check (usable). */
struct fsck_recheck_snap {
	bool usable;
	uint32_t main_segs;
	uint32_t curseg_segno[NR_CURSEG_TYPE];
	struct f2fs_summary_block cursum[NR_CURSEG_TYPE];
	bool node_summaries;	/* the pack held the node logs' summaries */
	uint8_t *seg_type;	/* SIT type of every segment, 0x80 when in use */
	uint8_t *reach;		/* the walk's reachability map */
	struct fsck_stats st;
	uint64_t nat_digest;	/* NAT entries the plan does not rewrite */
};

/* Before the repair: whether the check found nothing but problems whose
 * fixes the targeted re-check can follow, and if so what it needs. */
void fsck_recheck_snapshot(const struct fsck_ctx *ctx, struct fsck_recheck_snap *snap);
void fsck_recheck_snap_free(struct fsck_recheck_snap *snap);

/* In place of the node walk of the re-check ctx (after passes 1 to 3):
 * take the walk's findings from parent (the check before the repair),
 * moved to what the repair wrote, after reading every written node block
 * back and checking the inodes the repair changed again; then the link
 * counts.  False when the re-check cannot vouch for
 * the result this way (the caller runs the full re-check instead). */
bool fsck_recheck_import(struct fsck_ctx *ctx, struct fsck_ctx *parent,
			 const struct fsck_recheck_snap *snap,
			 const struct fsck_repair_stats *stats);

#endif
