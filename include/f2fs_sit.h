/*
 * f2fs_sit.h - the in-memory SIT model.
 *
 * Per segment: type, current and checkpoint-valid counts and bitmaps,
 * mtime.  Per section (always kept, also for segs_per_sec == 1): the sums
 * of valid and checkpoint-valid blocks over the section's segments.  Every
 * allocation or release updates segment and section counts in O(1), the
 * way the kernel's update_sit_entry() does; nothing on a hot path loops
 * over the segments of a section.  Only f2fs_sit_checkpoint() (like the
 * kernel's flush of SIT entries) recomputes a section sum, for the sections
 * it touches.
 */
#ifndef F2FS_SIT_H
#define F2FS_SIT_H

#include <stdbool.h>
#include <stdint.h>
#include "f2fs_fs.h"

struct f2fs_fs;

struct f2fs_seg_entry {
	uint16_t valid_blocks;		/* current */
	uint16_t ckpt_valid_blocks;	/* kernel meaning, see f2fs-format.md 4.4 */
	uint8_t type;			/* CURSEG_* */
	bool dirty;			/* changed since load / last checkpoint */
	uint8_t cur_valid_map[SIT_VBLOCK_MAP_SIZE];
	uint8_t ckpt_valid_map[SIT_VBLOCK_MAP_SIZE];
	uint64_t mtime;
};

struct f2fs_sec_entry {
	uint32_t valid_blocks;
	uint32_t ckpt_valid_blocks;
};

struct f2fs_sit_model {
	uint32_t main_segs;
	uint32_t segs_per_sec;
	uint32_t main_secs;
	bool cp_disabled;		/* checkpoint=disable semantics */
	struct f2fs_seg_entry *segs;
	struct f2fs_sec_entry *secs;
	uint32_t free_segs;		/* segments with valid_blocks == 0 */
	uint32_t free_secs;		/* sections with valid_blocks == 0 */
	uint64_t total_valid_blocks;
	/* segnos with dirty set, in the order they became dirty (so a
	 * checkpoint or a SIT writer visits only those) */
	uint32_t *dirty_segs;
	uint32_t n_dirty;
};

int f2fs_sit_init(struct f2fs_sit_model *m, uint32_t main_segs, uint32_t segs_per_sec);
void f2fs_sit_free(struct f2fs_sit_model *m);

/* Mark one block valid.  -EINVAL if out of range, -EEXIST if it already
 * was valid (counts are then updated as the kernel does for that case). */
int f2fs_sit_alloc_block(struct f2fs_sit_model *m, uint32_t segno, uint32_t blkoff);
/* Invalidate n consecutive blocks of one segment. -EINVAL on range error,
 * -ENOENT if some block was not valid (others are still released; a block
 * that was not valid changes no count). */
int f2fs_sit_release_blocks(struct f2fs_sit_model *m, uint32_t segno,
			    uint32_t blkoff, uint32_t n);
/* Set a segment's type (stored as the 6 bits the disk has); marks it dirty.
 * Out-of-range segnos are ignored. */
/* Mark a segment dirty so the next checkpoint writes its entry. */
void f2fs_sit_mark_dirty(struct f2fs_sit_model *m, uint32_t segno);
void f2fs_sit_set_type(struct f2fs_sit_model *m, uint32_t segno, unsigned int type);

/* Checkpoint: copy current state to checkpoint state for dirty segments
 * and recompute the section checkpoint sums of the sections touched. */
void f2fs_sit_checkpoint(struct f2fs_sit_model *m);

/* Load one raw entry (both current and checkpoint state; counts, section
 * sums and free counts are kept up to date).  -EINVAL if segno is out of
 * range.  Otherwise returns
 * -EFSCORRUPTED if the entry is insane (count vs popcount, type >= 6,
 * count > 512); the entry is loaded anyway so a checker can inspect it. */
int f2fs_sit_load_entry(struct f2fs_sit_model *m, uint32_t segno,
			const struct f2fs_sit_entry *raw);
/* After loading all entries: compute section sums and free counts once. */
void f2fs_sit_finish_load(struct f2fs_sit_model *m);
/* Build the raw entry from current state. */
void f2fs_sit_to_raw(const struct f2fs_sit_model *m, uint32_t segno,
		     struct f2fs_sit_entry *raw);

/* What the kernel's check_block_count() and build_sit_entries() refuse
 * in one raw entry (the first fault found, in that order). */
enum f2fs_sit_fault {
	F2FS_SIT_FAULT_NONE,
	F2FS_SIT_FAULT_RANGE,		/* count above the blocks of a segment */
	F2FS_SIT_FAULT_POPCOUNT,	/* count differs from the bits set */
	F2FS_SIT_FAULT_TYPE,		/* type >= 6 */
};
enum f2fs_sit_fault f2fs_sit_entry_fault(const struct f2fs_sit_entry *raw);

/* The entry of segno in the current SIT block copy, whatever the SIT
 * journal holds for it (the kernel checks both at mount).  -EINVAL for a
 * segno outside the main area, -EFSCORRUPTED if the SIT geometry cannot
 * hold it, or the read's error. */
int f2fs_sit_read_block_entry(struct f2fs_fs *fs, uint32_t segno,
			      struct f2fs_sit_entry *raw);

/* Read the current SIT copy of a mounted volume in large batched reads,
 * then apply the SIT journal.  *bad_entries counts insane entries
 * (including journal entries with segno >= main_segs, which are ignored).
 * m need not be initialised: f2fs_sit_load() initialises it from fs's
 * geometry; on failure m is left freed.  Free it with f2fs_sit_free(). */
int f2fs_sit_load(struct f2fs_fs *fs, struct f2fs_sit_model *m,
		  uint32_t *bad_entries);

/* Valid maps read as 64-bit words (SIT_VBLOCK_MAP_SIZE is 64 bytes). */
#define F2FS_SIT_MAP_WORDS	(SIT_VBLOCK_MAP_SIZE / 8)

static inline uint64_t f2fs_sit_map_word(const uint8_t *map, unsigned int i)
{
	uint64_t w;

	__builtin_memcpy(&w, map + 8 * i, 8);
	return w;
}

/* Set bits of one word without libgcc's per-call popcount (no -mpopcnt). */
static inline unsigned int f2fs_popcount64(uint64_t w)
{
	w -= (w >> 1) & 0x5555555555555555ull;
	w = (w & 0x3333333333333333ull) + ((w >> 2) & 0x3333333333333333ull);
	w = (w + (w >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (unsigned int)((w * 0x0101010101010101ull) >> 56);
}

/* Whether a valid map has no bit set. */
static inline bool f2fs_sit_map_empty(const uint8_t *map)
{
	uint64_t any = 0;

	for (unsigned int i = 0; i < F2FS_SIT_MAP_WORDS; i++)
		any |= f2fs_sit_map_word(map, i);
	return any == 0;
}

/* Number of bits set in a valid map (zero words cost one test each). */
static inline unsigned int f2fs_sit_map_weight(const uint8_t *map)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < F2FS_SIT_MAP_WORDS; i++) {
		uint64_t w = f2fs_sit_map_word(map, i);

		if (w)
			n += f2fs_popcount64(w);
	}
	return n;
}

/* The segments of several logs (segment types) merged by progress: each
 * log's segments with valid blocks in address order, and next the log
 * that has given the smallest share of its valid blocks so far (ties: the
 * lower type).  The kernel's logs fill at once, each from its own
 * section: on a volume of large sections a hot node section holds the
 * directories written beside the files in a warm node section hundreds of
 * megabytes away, and a reader that needs both (a tree walk) needs them
 * in step, not one log after the other. */
struct f2fs_sit_logs {
	const struct f2fs_sit_model *m;
	uint32_t next[32];		/* each log's next segno; main_segs: none */
	uint64_t total[32], given[32];	/* valid blocks: all, given so far */
};

void f2fs_sit_logs_init(struct f2fs_sit_logs *it, const struct f2fs_sit_model *m,
			unsigned int type_mask);
/* The next segment, or m->main_segs once every log is done. */
uint32_t f2fs_sit_logs_next(struct f2fs_sit_logs *it);

/* Announce (f2fs_dev_readahead) the valid blocks of the segments whose
 * type bit (1 << type) is in type_mask, in address order; runs separated
 * by at most max_gap blocks are announced as one.  With
 * F2FS_SIT_RA_DESCENDING in flags the segments are taken from the last to
 * the first (blocks still ascending within a segment); with
 * F2FS_SIT_RA_BY_LOG in the order f2fs_sit_logs_next() gives (the two
 * together: -EINVAL).  Stops once max_blocks blocks have been announced
 * (0 = no limit).  *announced (may be NULL) receives the blocks
 * announced.  A hint only: returns 0 or -EINVAL. */
#define F2FS_SIT_RA_DESCENDING	0x1u
#define F2FS_SIT_RA_BY_LOG	0x2u
int f2fs_sit_readahead(struct f2fs_fs *fs, const struct f2fs_sit_model *m,
		       unsigned int type_mask, unsigned int flags, uint32_t max_gap,
		       uint64_t max_blocks, uint64_t *announced);

static inline uint32_t f2fs_sit_secno(const struct f2fs_sit_model *m, uint32_t segno)
{
	return segno / m->segs_per_sec;
}

#endif
