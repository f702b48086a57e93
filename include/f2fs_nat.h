/*
 * f2fs_nat.h - the in-memory NAT model.
 *
 * Holds the entry of every nid as the kernel would see it (journal
 * overriding block), which copy of each NAT block is current, per-block
 * use counts (for nat_bits), the journal, and dirty tracking.  Loading
 * reads only the current copy of each NAT block, in large batched reads
 * issued together, never one 4 KiB read at a time.  Flushing writes dirty
 * blocks to their inactive copy and flips the version bit, reading every
 * block it must rewrite in one batch up front.
 */
#ifndef F2FS_NAT_H
#define F2FS_NAT_H

#include <stdbool.h>
#include <stdint.h>
#include "f2fs_fs.h"

struct f2fs_fs;

struct f2fs_nat_model {
	uint32_t max_nid;
	uint32_t nat_blocks;		/* blocks per copy actually covering max_nid */
	struct f2fs_nat_entry *ent;	/* max_nid entries, from blocks (journal applied) */
	uint8_t *block_loaded;		/* bit per NAT block: block content is in ent[] */
	uint8_t *block_dirty;		/* bit per NAT block */
	uint16_t *block_used;		/* used entries per NAT block (nid 0 counts as used in block 0) */
	uint8_t *cur_bitmap;		/* copy of the NAT version bitmap (MSB-first) */
	/* journal as loaded (entries override block values in ent[]) */
	uint32_t n_journal;
	struct nat_journal_entry journal[NAT_JOURNAL_ENTRIES];
	struct f2fs_nat_entry *journal_shadowed;	/* block value under each journal entry */
	uint32_t valid_nodes;		/* entries with block_addr != 0, nid >= 3 */
	/* added by the model part: */
	uint32_t bitmap_bytes;		/* size of cur_bitmap: ceil(nat_blocks / 8) */
	bool journal_loaded;		/* journal[] holds a journal (f2fs_nat_load_journal) */
	bool journal_dirty;		/* journal[] changed since it was loaded */
	uint32_t journal_bad;		/* journal entries ignored: beyond capacity,
					 * nid >= max_nid, or a repeated nid */
	/* f2fs_nat_writeback(): */
	size_t ent_bytes;		/* size of the mapping ent[] lives in */
	uint8_t *block_moved;		/* bit per NAT block: its inactive copy was
					 * written and its cur_bitmap bit flipped
					 * since the last f2fs_nat_flush() */
	uint8_t *block_released;	/* bit per NAT block: written back and dropped
					 * from ent[] (not loaded); block_used kept */
};

/*
 * Conventions:
 * - A nid's value is known when its NAT block is loaded (block_loaded) or
 *   when the nid is in the journal.  f2fs_nat_get() returns -ENODATA for
 *   any other nid; f2fs_nat_set() returns -ENODATA for a nid of a block that
 *   is not loaded (and not in the journal).
 * - block_used, valid_nodes and f2fs_nat_compute_bits() cover loaded blocks
 *   (and, for block_used and the bits, released ones: f2fs_nat_writeback())
 *   only (with journal values applied); after f2fs_nat_load_all() that is
 *   the whole NAT.
 * - A journal entry overrides the block: setting a nid that is in the
 *   journal changes the journal entry (journal_dirty), not the block.  As in
 *   the kernel's lookup, the first journal entry of a nid is the one that
 *   counts; later repeats are ignored (and counted in journal_bad).
 * - Which copy of block b is current comes from nm->cur_bitmap (a copy of
 *   the checkpoint's NAT version bitmap, flipped by f2fs_nat_flush()).
 */

/* nat_bitmap: the NAT version bitmap (ceil(nat_blocks / 8) bytes, where
 * nat_blocks = ceil(max_nid / 455)), or NULL for all-zero. */
int f2fs_nat_init(struct f2fs_nat_model *nm, uint32_t max_nid, const uint8_t *nat_bitmap);
void f2fs_nat_free(struct f2fs_nat_model *nm);

/* Take the NAT journal (replacing one loaded before).  f2fs_nat_load_all()
 * and f2fs_nat_load_blocks() call it with the volume's journal when none is
 * loaded yet.  Returns -EFSCORRUPTED if entries had to be ignored (they are
 * counted in journal_bad; the others are still applied). */
int f2fs_nat_load_journal(struct f2fs_nat_model *nm, const struct f2fs_journal *j);
/* Write the journal as it now stands into j (n_nats and entries). */
void f2fs_nat_journal_to_raw(const struct f2fs_nat_model *nm, struct f2fs_journal *j);
/* Treat every block not loaded yet as loaded and all-zero (a NAT built
 * from scratch, e.g. by mkfs or a test). */
void f2fs_nat_mark_all_loaded(struct f2fs_nat_model *nm);
/* Address of the current copy of NAT block b according to nm->cur_bitmap
 * (copy0 = nat_blkaddr + (b / 512) * 1024 + b % 512, copy1 = copy0 + 512). */
uint32_t f2fs_nat_block_addr(const struct f2fs_fs *fs,
			     const struct f2fs_nat_model *nm, uint32_t b);

/* Load every NAT block (current copy) in batches, then apply the journal. */
int f2fs_nat_load_all(struct f2fs_fs *fs, struct f2fs_nat_model *nm);
/* The same, with the pool's workers and the caller each reading (from the
 * page cache only) and decoding a share of the blocks at once; what the
 * page cache lacked is then read the usual way.  The model it leaves is the
 * one f2fs_nat_load_all() leaves.  A NULL pool, a pool without workers or a
 * device that cannot be read from several threads (f2fs_dev_reads_mt())
 * is f2fs_nat_load_all(). */
struct f2fs_workers;
int f2fs_nat_load_all_mt(struct f2fs_fs *fs, struct f2fs_nat_model *nm,
			 struct f2fs_workers *pool);
/* Load only the given NAT blocks (batched, with readahead); already loaded
 * blocks are skipped. */
int f2fs_nat_load_blocks(struct f2fs_fs *fs, struct f2fs_nat_model *nm,
			 const uint32_t *blocks, uint32_t n);

/* A hint to the CPU that nid's entry is looked up soon: a caller about to
 * look up many scattered nids names them all first, so that their cache
 * misses overlap instead of following one another.  Changes nothing. */
static inline void f2fs_nat_prefetch(const struct f2fs_nat_model *nm, uint32_t nid)
{
	if (nm->ent && nid < nm->max_nid)
		__builtin_prefetch(&nm->ent[nid]);
}

int f2fs_nat_get(const struct f2fs_nat_model *nm, uint32_t nid,
		 struct f2fs_nat_entry *out);
/* Set an entry; marks its block dirty and keeps counts. */
int f2fs_nat_set(struct f2fs_nat_model *nm, uint32_t nid,
		 const struct f2fs_nat_entry *e);
/* Whether nid currently comes from the journal. */
bool f2fs_nat_in_journal(const struct f2fs_nat_model *nm, uint32_t nid);
/* Drop the journal entries the kernel never writes: a nid out of range,
 * a reserved nid (0, node and meta inode: the block's value under it is
 * restored) and a nid repeated after its first entry (which is the one
 * every lookup finds).  Returns how many were dropped. */
uint32_t f2fs_nat_journal_drop_bad(struct f2fs_nat_model *nm);
/* Give the block entry under each journal entry the journal's value (the
 * kernel writes it there when it flushes the journal, and reads the block
 * entry never while the journal holds the nid; other checkers read the
 * block entry too).  The blocks changed are marked dirty.  Returns how
 * many entries changed. */
uint32_t f2fs_nat_journal_settle_blocks(struct f2fs_nat_model *nm);

/* nat_bits as they should be: full/empty bitmaps, LSB-first, nat_blocks
 * bits each (caller provides (nat_blocks + 7) / 8 bytes each; a block not
 * loaded gets neither bit). */
void f2fs_nat_compute_bits(const struct f2fs_nat_model *nm, uint8_t *full,
			   uint8_t *empty);

/* Write all dirty blocks to their inactive copies and flip their bits in
 * nm->cur_bitmap (the caller puts that bitmap in the next checkpoint).
 * Journal entries are moved into blocks first when move_journal is set
 * (n_journal becomes 0; blocks they need are loaded first).  The blocks to
 * rewrite are read and written in steps of at most 1024 (a 4 MiB buffer);
 * a step reads all of its blocks before writing any.  Call it at most once per
 * checkpoint: a second flush before the checkpoint is committed would
 * write over the committed copy. */
int f2fs_nat_flush(struct f2fs_fs *fs, struct f2fs_nat_model *nm, bool move_journal);

/* For writers that set many entries before one checkpoint (sload): write
 * every dirty block to its inactive copy now, as f2fs_nat_flush() would
 * (the committed copies are never touched, so the volume as committed
 * stays intact until the checkpoint), then drop from memory every loaded
 * block whose nids all lie below keep_nid.  A dropped ("released") block
 * reads -ENODATA from f2fs_nat_get() until f2fs_nat_reload() brings it back
 * from the copy just written; its block_used count stays valid for
 * f2fs_nat_compute_bits().  A block written back and dirtied again goes to
 * the same copy; f2fs_nat_flush() at the checkpoint writes what is left. */
int f2fs_nat_writeback(struct f2fs_fs *fs, struct f2fs_nat_model *nm, uint32_t keep_nid);
/* Load nid's block again if f2fs_nat_writeback() released it. */
int f2fs_nat_reload(struct f2fs_fs *fs, struct f2fs_nat_model *nm, uint32_t nid);

#endif
