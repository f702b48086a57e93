/*
 * f2fs_layout.h - layout computation, in one place.
 *
 * mkfs uses f2fs_layout_compute() to build a volume and fsck uses it (via
 * f2fs_layout_from_sb()) to know what a superblock implies.  The layout
 * holds every geometric superblock field plus the checkpoint's reserved
 * and overprovision segments, cp_payload and the initial current-segment
 * placement.
 */
#ifndef F2FS_LAYOUT_H
#define F2FS_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>
#include "f2fs_fs.h"

struct f2fs_super_block;

struct f2fs_layout_params {
	uint64_t total_sectors;		/* device size in sectors */
	uint32_t sector_size;		/* 512..4096, power of two */
	uint64_t start_sector;		/* partition start, for zone alignment */
	uint32_t segs_per_sec;		/* >= 1 */
	uint32_t secs_per_zone;		/* >= 1 */
	double overprovision;		/* percent; 0 chooses the best */
	uint32_t features;		/* F2FS_FEATURE_* */
	bool large_nat_bitmap;		/* mkfs -i */
	uint32_t nr_quota;		/* quota inodes mkfs will create */
	bool lost_found;
	/* Multi-device volumes: sizes of the devices after the first (the
	 * first is total_sectors * sector_size and holds all metadata). */
	uint32_t nr_extra_devs;
	uint64_t extra_dev_bytes[MAX_DEVICES - 1];
	/* Zoned volumes (mkfs -m): the writable blocks of a section in a
	 * sequential zone (the zone capacity), when below the section size;
	 * 0 when every block of a section is usable.  User blocks count the
	 * capacity of every section (newer kernels apply it to all), free
	 * segments the usable segments of each section as Linux 6.1 and
	 * f2fs-tools count them: all of a section that seq_zone() says is not
	 * on a sequential zone (device index, block on that device), those
	 * before the capacity otherwise (every section when seq_zone is NULL).
	 * Reserve and overprovision stay whole sections. */
	uint64_t sec_cap_blocks;
	bool (*seq_zone)(void *arg, uint32_t dev, uint64_t dev_blk);
	void *seq_zone_arg;
};

/* Why a layout could not be computed: one of these, for the message. */
enum f2fs_layout_error {
	F2FS_LAYOUT_OK = 0,
	F2FS_LAYOUT_BAD_SECTOR_SIZE,
	F2FS_LAYOUT_BAD_SEGS_PER_SEC,
	F2FS_LAYOUT_BAD_SECS_PER_ZONE,
	F2FS_LAYOUT_TOO_LARGE,
	F2FS_LAYOUT_TOO_SMALL,
	F2FS_LAYOUT_BAD_OVERPROVISION,
	F2FS_LAYOUT_DEVICE_TOO_SMALL,	/* an added device holds no whole zone */
	F2FS_LAYOUT_META_NOT_ON_FIRST,	/* metadata does not fit the first device */
};

struct f2fs_layout {
	uint32_t log_sectorsize;
	uint32_t log_sectors_per_block;
	uint64_t block_count;
	uint32_t segs_per_sec;
	uint32_t secs_per_zone;
	uint32_t segment0_blkaddr;
	uint32_t cp_blkaddr;
	uint32_t sit_blkaddr;
	uint32_t nat_blkaddr;
	uint32_t ssa_blkaddr;
	uint32_t main_blkaddr;
	uint32_t segment_count;
	uint32_t segment_count_ckpt;
	uint32_t segment_count_sit;
	uint32_t segment_count_nat;
	uint32_t segment_count_ssa;
	uint32_t segment_count_main;
	uint32_t section_count;
	uint32_t cp_payload;
	bool large_nat_bitmap;
	uint32_t sit_bitmap_bytes;	/* sit_ver_bitmap_bytesize */
	uint32_t nat_bitmap_bytes;	/* nat_ver_bitmap_bytesize */
	uint32_t max_nid;		/* total node count */
	double overprovision;		/* percent actually used */
	uint32_t rsvd_segment_count;
	uint32_t overprov_segment_count;
	uint64_t user_block_count;
	uint32_t free_segment_count;	/* at mkfs time: usable main - 6 logs */
	uint64_t sec_usable_blocks;	/* writable blocks of a section */
	uint32_t usable_segs_per_sec;	/* segments with a writable block */
	uint32_t nat_bits_blocks;	/* blocks of nat_bits at the end of a pack */
	uint32_t cur_seg[NR_CURSEG_TYPE];	/* initial logs, main-relative segno */
	/* devices: 1 for a single device; segments each contributes (the
	 * first counts from segment0) and the block range each covers */
	uint32_t ndevs;
	uint32_t dev_segments[MAX_DEVICES];
	uint64_t dev_first_blk[MAX_DEVICES];
	uint64_t dev_last_blk[MAX_DEVICES];
};

int f2fs_layout_compute(const struct f2fs_layout_params *p,
			struct f2fs_layout *l, enum f2fs_layout_error *why);
const char *f2fs_layout_strerror(enum f2fs_layout_error why);

/* Smallest device (in bytes) f2fs_layout_compute() accepts for these
 * parameters (total_sectors is ignored), or 0 if none up to 16 TiB. */
uint64_t f2fs_layout_min_bytes(const struct f2fs_layout_params *p);

/* Number of nat_bits blocks for a NAT of nat_segs segments (both copies). */
uint32_t f2fs_nat_bits_blocks(uint32_t segment_count_nat);

#endif
