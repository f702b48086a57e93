/*
 * fsck_alloc.h - where a repair may write: blocks for changed node and
 * data blocks, chosen so that the current checkpoint never sees them.
 *
 * A block is usable only when nothing of the current state can name it:
 * not reached by the walk, not valid in the loaded SIT (current or
 * checkpoint map), not the block of any NAT entry, not in the roll-forward
 * chain and not named by a chain dnode.  Large-section rules: a log that
 * takes blocks is moved to a section that is entirely free (no other log,
 * no valid block, nothing busy), so a section's segments keep one type and
 * every current segment stays alone in its section; it fills that
 * section's segments in order.
 */
#ifndef FSCK_ALLOC_H
#define FSCK_ALLOC_H

#include <stdbool.h>
#include <stdint.h>

#include "f2fs_fs.h"

struct fsck_ctx;

struct fsck_log {
	bool moved;		/* opened by the repair in a fresh section */
	uint32_t segno;
	uint32_t blkoff;
	struct f2fs_summary_block sum;
};

/* A segment the repair filled and left: its summary goes to the SSA. */
struct fsck_filled {
	uint32_t segno;
	int type;		/* the log that filled it */
	struct f2fs_summary_block sum;
};

struct fsck_alloc {
	struct fsck_ctx *ctx;
	uint8_t *busy;		/* bit per main block: never written */
	uint8_t *fin;		/* bit per main block: valid after the repair */
	struct fsck_log log[NR_CURSEG_TYPE];
	struct fsck_filled *filled;
	uint32_t n_filled, cap_filled;
	uint32_t next_sec;	/* search cursor (from the end of main) */
	uint64_t allocated;
};

int fsck_alloc_init(struct fsck_alloc *a, struct fsck_ctx *ctx);
void fsck_alloc_free(struct fsck_alloc *a);
/* Open log t in a fresh free section.  -ENOSPC when there is none. */
int fsck_alloc_move(struct fsck_alloc *a, int t);
/* One block from log t (moved to a fresh section first if need be), with
 * its summary entry.  *addr receives the address. */
int fsck_alloc_block(struct fsck_alloc *a, int t, uint32_t nid, uint16_t ofs,
		     uint8_t version, uint32_t *addr);
/* After the last block: a log that filled its segment goes on in a fresh
 * one, since a checkpoint may not leave a write position at the end of a
 * segment (f2fs_sanity_check_ckpt() wants it below 512). */
int fsck_alloc_close(struct fsck_alloc *a);
/* Whether segno is the segment of some log after the repair. */
int fsck_alloc_log_of(const struct fsck_alloc *a, uint32_t segno);
/* The log type whose blocks segno holds: a log's segment or one the
 * repair filled; -1 for the others. */
int fsck_alloc_type_of(const struct fsck_alloc *a, uint32_t segno);

#endif
