/*
 * f2fs_mount.h - an opened F2FS volume: the chosen superblock, the chosen
 * checkpoint pack and its current-segment summaries (with the NAT and SIT
 * journals), plus the geometry derived from them.
 *
 * f2fs_fs_open() validates as the kernel does at mount and records, for a
 * checker, what it found wrong about each copy (f2fs_fs_open never refuses
 * a volume that has one good superblock and one good checkpoint pack).
 * A checker may ask for more (F2FS_OPEN_SALVAGE): where the kernel would
 * refuse the volume, go on from what can be derived, in memory only (see
 * struct f2fs_salvage).
 */
#ifndef F2FS_MOUNT_H
#define F2FS_MOUNT_H

#include <stdbool.h>
#include <stdint.h>
#include "f2fs_fs.h"
#include "f2fs_dev.h"
#include "f2fs_ckpt.h"
#include "f2fs_features.h"

/* Result of validating one superblock copy or one checkpoint pack. */
struct f2fs_check_result {
	int err;		/* 0 if valid, else -EFSCORRUPTED / -EFSBADCRC / -EIO */
	const char *why;	/* static description of the first failed check */
};

/* A superblock field a rebuild derived where a copy had another value. */
struct f2fs_sb_derived {
	int copy;		/* superblock copy 0 or 1 */
	unsigned int field;	/* for f2fs_sb_derivable_name() */
	uint64_t found, value;
};
#define F2FS_MAX_SB_DERIVED 40

/* What an open with F2FS_OPEN_SALVAGE did beyond the kernel's mount (all
 * in memory; a repair writes it).  The kernel's own verdicts stay in
 * sb_check, cp_check and ckpt_sanity. */
struct f2fs_salvage {
	/* Both superblock copies invalid: fs->sb rebuilt by f2fs_sb_rebuild()
	 * from copy sb_index, and confirmed by a checkpoint pack the kernel's
	 * rules accept and by the root inode found through NAT and SIT. */
	bool sb_rebuilt;
	const char *sb_refused;		/* why no rebuild, when one was tried */
	uint32_t n_sb_derived;
	struct f2fs_sb_derived sb_derived[F2FS_MAX_SB_DERIVED];
	/* Both copies valid but different, and the checkpoint disagrees with
	 * this one (the first, which the kernel would take: it breaks the
	 * kernel's rules against it, or contradicts its RO feature) and not
	 * with the other, which is in use: -1 when not. */
	int sb_cp_disagrees;
	const char *sb_cp_disagrees_why;
	/* No pack with a valid crc: the pack in use fails only its crc and
	 * passes every rule of f2fs_ckpt_validate(); the root is confirmed. */
	bool cp_crc_only;
	const char *cp_refused;		/* why no pack was taken, when tried */
	/* The newest pack fails a rule on a field that cannot be derived: the
	 * other pack is in use (cp_index), -1 when not. */
	int cp_dropped;
	const char *cp_dropped_why;
	/* Fields of the pack in use recomputed from the superblock. */
	uint32_t n_cp_derived;
	struct f2fs_cp_derived cp_derived[F2FS_CP_MAX_DERIVED];
};

struct f2fs_fs {
	struct f2fs_dev *dev;

	/* superblock */
	struct f2fs_super_block sb;		/* the copy in use */
	struct f2fs_super_block sb_copy[2];	/* both as read */
	struct f2fs_check_result sb_check[2];
	int sb_index;				/* 0 or 1: copy in use */

	/* checkpoint */
	struct f2fs_check_result cp_check[2];	/* pack 1 and pack 2 */
	uint64_t cp_version[2];
	int cp_index;				/* 0 (pack 1) or 1 (pack 2) */
	/* A pack that could not be read (I/O error) may be newer than the
	 * one in use: its first block was unreadable, or it names a newer
	 * version.  A repair would commit over it from the older state. */
	bool cp_unread_maybe_newer;
	uint32_t cp_start_blkaddr;		/* first block of the chosen pack */
	uint8_t *cp_buf;			/* cp block + cp_payload blocks */
	struct f2fs_checkpoint *cp;		/* == (void *)cp_buf */
	uint32_t cp_flags;
	struct f2fs_check_result ckpt_sanity;	/* f2fs_sanity_check_ckpt result */

	/* summaries of the six logs, as loaded from the pack (journals in
	 * cursum[CURSEG_HOT_DATA] (NAT) and cursum[CURSEG_COLD_DATA] (SIT)). */
	struct f2fs_summary_block cursum[NR_CURSEG_TYPE];
	bool cursum_loaded;
	int cursum_load_err;			/* 0, or why cursum[] is incomplete */
	uint32_t curseg_segno[NR_CURSEG_TYPE];
	uint32_t curseg_blkoff[NR_CURSEG_TYPE];

	/* derived geometry */
	uint32_t segs_per_sec;
	uint32_t main_segs;
	uint32_t main_secs;
	uint32_t main_blkaddr;
	uint32_t sit_blkaddr, nat_blkaddr, ssa_blkaddr;
	uint32_t sit_blocks;	/* SIT blocks per copy (segment_count_sit/2 * 512) */
	uint32_t sit_blk_cnt;	/* SIT blocks in use: ceil(main_segs / 55) */
	uint32_t nat_blocks;	/* NAT blocks per copy */
	uint32_t max_nid;
	uint32_t features;
	uint8_t *sit_bitmap;	/* points into cp_buf */
	uint8_t *nat_bitmap;
	uint32_t sit_bitmap_size, nat_bitmap_size;
	uint32_t inode_chksum_seed;
	uint32_t ndevs;		/* devices of the volume (devs[] of the superblock) */
	uint64_t short_blocks;	/* main area blocks past the end of a truncated
				 * device (read as zeroes: f2fs_dev_assume_size) */

	struct f2fs_salvage salvage;	/* F2FS_OPEN_SALVAGE only */
};

/* Open path read-only (or per opts) and load superblock, checkpoint and
 * summaries.  On success *out owns the device.  Returns -EFSCORRUPTED when
 * no usable superblock or checkpoint pack exists (fs->sb_check / cp_check
 * then say why; *out is still set so a checker can report, unless the
 * error is an I/O or allocation failure). */
int f2fs_fs_open(const char *path, const struct f2fs_dev_opts *opts,
		 struct f2fs_fs **out);
/* Same on an already open device (takes ownership). */
int f2fs_fs_open_dev(struct f2fs_dev *dev, struct f2fs_fs **out);
/* With flags: F2FS_OPEN_SALVAGE goes on where the kernel refuses, from
 * what can be derived: a superblock rebuilt from two damaged copies
 * (f2fs_sb_rebuild), checkpoint fields recomputed from the superblock
 * (f2fs_ckpt_derive), the older pack when the newest fails a rule on a
 * field that cannot be derived, a pack whose only fault is its crc.
 * fs->salvage says what was done.  Never writes. */
#define F2FS_OPEN_SALVAGE	0x1u
int f2fs_fs_open_dev_flags(struct f2fs_dev *dev, unsigned int flags, struct f2fs_fs **out);
/* Whether the open went beyond what the kernel mounts (fs->salvage). */
bool f2fs_fs_salvaged(const struct f2fs_fs *fs);
/* A multi-device volume: open devices 1.. by the paths in the superblock's
 * device list, with opts, and attach them to fs->dev (f2fs_dev_attach),
 * which then addresses the whole volume.  Nothing to do for one device.
 * On failure *failed is the index of the device that could not be opened
 * or is smaller than its stretch of the volume (-EINVAL for that). */
int f2fs_fs_open_members(struct f2fs_fs *fs, const struct f2fs_dev_opts *opts,
			 uint32_t *failed);
/* The message for f2fs_fs_open_members()' error err on device failed:
 * "device N of the volume, PATH: reason", into buf. */
void f2fs_fs_member_error(const struct f2fs_fs *fs, uint32_t failed, int err, char *buf,
			  size_t len);
void f2fs_fs_close(struct f2fs_fs *fs);

/* Validate a superblock copy as sanity_check_raw_super() does.
 * dev_blocks: device size in 4 KiB blocks (0 = unknown). */
int f2fs_sb_validate(const struct f2fs_super_block *sb, uint64_t dev_blocks,
		     const char **why);
/* Validate checkpoint contents against a superblock
 * (f2fs_sanity_check_ckpt). */
int f2fs_ckpt_validate(const struct f2fs_super_block *sb,
		       const struct f2fs_checkpoint *cp, const char **why);

/* Geometry helpers. */
static inline uint32_t f2fs_seg_start_blkaddr(const struct f2fs_fs *fs, uint32_t segno)
{
	return fs->main_blkaddr + segno * BLKS_PER_SEG;
}
static inline uint32_t f2fs_blkaddr_to_segno(const struct f2fs_fs *fs, uint32_t blkaddr)
{
	return (blkaddr - fs->main_blkaddr) / BLKS_PER_SEG;
}
static inline bool f2fs_blkaddr_in_main(const struct f2fs_fs *fs, uint32_t blkaddr)
{
	return blkaddr >= fs->main_blkaddr &&
	       (uint64_t)blkaddr < (uint64_t)fs->main_blkaddr + (uint64_t)fs->main_segs * BLKS_PER_SEG;
}
/* A read-only image (the RO feature, mkfs -O ro): the kernel mounts it
 * read-only only, keeps two logs, hot data and hot node (the other four
 * may share their segments, and their fields go unchecked), and never
 * reads an SSA block (mkfs gives it no SSA area). */
static inline bool f2fs_is_ro_image(const struct f2fs_fs *fs)
{
	return fs->features & F2FS_FEATURE_RO;
}
/* Whether the kernel keeps log t (f2fs_features_keep_log()). */
static inline bool f2fs_log_in_use(const struct f2fs_fs *fs, int t)
{
	return f2fs_features_keep_log(fs->features, t);
}
/* Address of the current copy of SIT block / NAT block index. */
uint32_t f2fs_current_sit_addr(const struct f2fs_fs *fs, uint32_t sit_block);
uint32_t f2fs_current_nat_addr(const struct f2fs_fs *fs, uint32_t nat_block);
/* The other (inactive) copy. */
uint32_t f2fs_next_sit_addr(const struct f2fs_fs *fs, uint32_t sit_block);
uint32_t f2fs_next_nat_addr(const struct f2fs_fs *fs, uint32_t nat_block);

/* Journals of the loaded checkpoint. */
static inline struct f2fs_journal *f2fs_nat_journal(struct f2fs_fs *fs)
{
	return &fs->cursum[CURSEG_HOT_DATA].journal;
}
static inline struct f2fs_journal *f2fs_sit_journal(struct f2fs_fs *fs)
{
	return &fs->cursum[CURSEG_COLD_DATA].journal;
}
/* Slot of nid in the NAT journal of the loaded checkpoint (the first one,
 * as the kernel's lookup finds it), or -1. */
int f2fs_nat_journal_slot(struct f2fs_fs *fs, uint32_t nid);
/* One entry as the loaded checkpoint has it, without the NAT or SIT
 * models: the journal's copy first, then the current copy of its block
 * (one read).  -EINVAL for a nid or segno out of range. */
int f2fs_fs_nat_entry(struct f2fs_fs *fs, uint32_t nid, struct f2fs_nat_entry *e);
int f2fs_fs_sit_entry(struct f2fs_fs *fs, uint32_t segno, struct f2fs_sit_entry *se);

#endif
