/*
 * f2fs_alloc.h - writing new blocks into the six logs of a mounted volume
 * model, the way the kernel's LFS allocation places them.
 *
 * Each log (CURSEG_HOT_DATA .. CURSEG_COLD_NODE) goes on from its current
 * segment when that segment is LFS and free from its write position on,
 * then takes the next segment of its section while it is free, then a
 * whole free section (no valid or checkpoint-valid block, no other log in
 * it).  A section therefore only ever holds one log's blocks, whatever
 * segs_per_sec.  Blocks are staged in a one-segment buffer per log and
 * written with one request per segment; the summary of every segment a log
 * leaves goes to the SSA.  SIT counts are updated as blocks are taken.
 *
 * f2fs_logs_finish() writes what is staged and fills a commit plan with the
 * new current segments and their summaries; the caller then commits.
 */
#ifndef F2FS_ALLOC_H
#define F2FS_ALLOC_H

#include <stdbool.h>
#include <stdint.h>
#include "f2fs_fs.h"

struct f2fs_fs;
struct f2fs_sit_model;
struct f2fs_nat_model;
struct f2fs_commit_plan;

struct f2fs_log {
	uint32_t segno;		/* segment being written, or main_segs before the first block */
	uint32_t blkoff;	/* next block offset in segno */
	uint32_t buf_from;	/* blkoff of the first staged block */
	uint8_t *buf;		/* BLKS_PER_SEG staged blocks */
	bool moved;		/* left the checkpoint's current segment */
	bool on_orig;		/* still writing the checkpoint's current segment */
	bool used;
	struct f2fs_summary_block sum;	/* entries of segno */
};

struct f2fs_logs {
	struct f2fs_fs *fs;
	struct f2fs_sit_model *sit;
	struct f2fs_log log[NR_CURSEG_TYPE];
	uint32_t sec_cursor;	/* next section to consider for a new one */
	uint64_t blocks;	/* blocks taken */
};

int f2fs_logs_init(struct f2fs_logs *l, struct f2fs_fs *fs, struct f2fs_sit_model *sit);
void f2fs_logs_free(struct f2fs_logs *l);

/* Take the next block of log t for the owner described by sum (nid,
 * version, ofs_in_node); *blkaddr receives its address and the return
 * value points at its 4 KiB staging buffer, which the caller fills before
 * the next call on the same log.  NULL with *err = -ENOSPC when no free
 * section is left, or an I/O error from writing a full segment. */
void *f2fs_logs_next(struct f2fs_logs *l, int t, const struct f2fs_summary *sum,
		     uint32_t *blkaddr, int *err);

/* Invalidate one block (a block replaced out of place). */
int f2fs_logs_release(struct f2fs_logs *l, uint32_t blkaddr);

/* Write the staged blocks of every log (to read them back). */
int f2fs_logs_flush(struct f2fs_logs *l);

/* Write what is staged and the summaries of left segments; put the logs'
 * positions and summaries into p (alloc_type LFS for logs that moved). */
int f2fs_logs_finish(struct f2fs_logs *l, struct f2fs_commit_plan *p);

/* Segments with no valid block that are no log's current segment. */
uint32_t f2fs_logs_free_segments(const struct f2fs_logs *l, const struct f2fs_commit_plan *p);

/* Free nids, lowest first, from a fully loaded NAT model. */
struct f2fs_nid_alloc {
	struct f2fs_nat_model *nat;
	uint32_t cursor;
	uint32_t taken;
};
void f2fs_nid_alloc_init(struct f2fs_nid_alloc *a, struct f2fs_nat_model *nat);
/* A free nid (block_addr 0), or -ENOSPC.  The nid is not recorded until
 * f2fs_nid_set(). */
int f2fs_nid_alloc(struct f2fs_nid_alloc *a, uint32_t *nid);
/* Point nid at blkaddr for owner ino, keeping its NAT version; *version
 * receives the version (for summaries). */
int f2fs_nid_set(struct f2fs_nat_model *nat, uint32_t nid, uint32_t ino, uint32_t blkaddr);
uint8_t f2fs_nid_version(const struct f2fs_nat_model *nat, uint32_t nid);

#endif
