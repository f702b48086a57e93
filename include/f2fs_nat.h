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
};

int f2fs_nat_init(struct f2fs_nat_model *nm, uint32_t max_nid, const uint8_t *nat_bitmap);
void f2fs_nat_free(struct f2fs_nat_model *nm);

/* Load every NAT block (current copy) in batches, then apply the journal. */
int f2fs_nat_load_all(struct f2fs_fs *fs, struct f2fs_nat_model *nm);
/* Load only the given NAT blocks (batched, with readahead); already loaded
 * blocks are skipped. */
int f2fs_nat_load_blocks(struct f2fs_fs *fs, struct f2fs_nat_model *nm,
			 const uint32_t *blocks, uint32_t n);

int f2fs_nat_get(const struct f2fs_nat_model *nm, uint32_t nid,
		 struct f2fs_nat_entry *out);
/* Set an entry; marks its block dirty and keeps counts. */
int f2fs_nat_set(struct f2fs_nat_model *nm, uint32_t nid,
		 const struct f2fs_nat_entry *e);
/* Whether nid currently comes from the journal. */
bool f2fs_nat_in_journal(const struct f2fs_nat_model *nm, uint32_t nid);

/* nat_bits as they should be: full/empty bitmaps, LSB-first, nat_blocks
 * bits each (caller provides nat_blocks/8 bytes each). */
void f2fs_nat_compute_bits(const struct f2fs_nat_model *nm, uint8_t *full,
			   uint8_t *empty);

/* Write all dirty blocks to their inactive copies and flip their bits in
 * nm->cur_bitmap (the caller puts that bitmap in the next checkpoint).
 * Journal entries are moved into blocks first when move_journal is set.
 * All blocks to rewrite are read in one batch before any write. */
int f2fs_nat_flush(struct f2fs_fs *fs, struct f2fs_nat_model *nm, bool move_journal);

#endif
