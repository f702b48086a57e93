/*
 * layout.c - where every area of a new volume goes, and how much of the
 * main area is kept back for garbage collection.
 *
 * Order of the computation: sector and block units, segment0 aligned to
 * an F2FS zone, CP (2 segments), SIT and NAT (two copies each; NAT capped
 * so the version bitmaps fit the checkpoint unless -i), SSA padded so the
 * metadata ends on a zone boundary, main area in whole zones, then the
 * reserved and overprovision segments (whole sections), then the initial
 * positions of the six logs, each in its own zone.  A read-only image (the
 * RO feature) differs: segment0 right after the superblocks, no SSA, no
 * reserve, and two logs (hot data from the main area's start, hot node in
 * its last section; the other four share their segments, as the kernel
 * allows for RO).  On a zoned volume
 * whose zone capacity is below the zone (section) size, only the blocks
 * before the capacity count as user space and only segments holding such
 * blocks as free.
 *
 * Reserved space: garbage collection of a full volume needs about 1/p
 * free sections to win one back when a fraction p of the main area is
 * overprovisioned, plus one per open log and one spare.  Everything is
 * counted in whole sections, so large sections cost exactly what the
 * kernel's section-granular GC needs and nothing more.
 */
#include <math.h>
#include <string.h>

#include "f2fs_fs.h"
#include "f2fs_err.h"
#include "f2fs_layout.h"
#include "f2fs_zone.h"

/* Bytes of the checkpoint block available for the two version bitmaps,
 * and the most the SIT bitmap may take there (64 bytes stay for NAT). */
#define MAX_BITMAP_SIZE_IN_CKPT		(CP_CHKSUM_OFFSET - CP_MIN_CHKSUM_OFFSET)	/* 3900 */
#define MAX_SIT_BITMAP_SIZE_IN_CKPT	(MAX_BITMAP_SIZE_IN_CKPT - 64)		/* 3836 */
#define LARGE_NAT_RATIO_PERCENT		20

static uint64_t div_round_up(uint64_t a, uint64_t b)
{
	return (a + b - 1) / b;
}

/* A read-only image: mkfs writes it once, the kernel never does. */
static bool ro_image(const struct f2fs_layout_params *p)
{
	return p->features & F2FS_FEATURE_RO;
}

/* Logs a volume needs free sections for: the two of a read-only image,
 * else all six. */
static uint32_t logs_needed(const struct f2fs_layout_params *p)
{
	return ro_image(p) ? 2 : NR_CURSEG_TYPE;
}

static int log2_exact(uint32_t v)
{
	int l = 0;

	if (v == 0 || (v & (v - 1)))
		return -1;
	while ((1u << l) != v)
		l++;
	return l;
}

const char *f2fs_layout_strerror(enum f2fs_layout_error why)
{
	switch (why) {
	case F2FS_LAYOUT_OK: return "no error";
	case F2FS_LAYOUT_BAD_SECTOR_SIZE: return "sector size must be a power of two from 512 to 4096";
	case F2FS_LAYOUT_BAD_SEGS_PER_SEC: return "segments per section must be at least 1";
	case F2FS_LAYOUT_BAD_SECS_PER_ZONE: return "sections per zone must be at least 1";
	case F2FS_LAYOUT_TOO_LARGE: return "device is larger than 16 TiB, the F2FS maximum";
	case F2FS_LAYOUT_TOO_SMALL: return "device is too small for this layout";
	case F2FS_LAYOUT_BAD_OVERPROVISION: return "overprovision ratio leaves no usable space";
	case F2FS_LAYOUT_DEVICE_TOO_SMALL: return "an added device is smaller than one zone";
	case F2FS_LAYOUT_META_NOT_ON_FIRST: return "the metadata areas do not fit on the first device";
	}
	return "unknown layout error";
}

uint32_t f2fs_nat_bits_blocks(uint32_t segment_count_nat)
{
	uint64_t bytes = (uint64_t)(segment_count_nat / 2) * BLKS_PER_SEG / 8;

	return (uint32_t)div_round_up(2 * bytes + 8, F2FS_BLKSIZE);
}

static int layout_units(const struct f2fs_layout_params *p, struct f2fs_layout *l,
			enum f2fs_layout_error *why)
{
	int lss = log2_exact(p->sector_size);

	if (lss < F2FS_MIN_LOG_SECTOR_SIZE || lss > F2FS_MAX_LOG_SECTOR_SIZE) {
		*why = F2FS_LAYOUT_BAD_SECTOR_SIZE;
		return -EINVAL;
	}
	if (p->segs_per_sec < 1) {
		*why = F2FS_LAYOUT_BAD_SEGS_PER_SEC;
		return -EINVAL;
	}
	if (p->secs_per_zone < 1) {
		*why = F2FS_LAYOUT_BAD_SECS_PER_ZONE;
		return -EINVAL;
	}
	l->log_sectorsize = (uint32_t)lss;
	l->log_sectors_per_block = F2FS_BLKSIZE_BITS - (uint32_t)lss;
	l->segs_per_sec = p->segs_per_sec;
	l->secs_per_zone = p->secs_per_zone;
	l->block_count = (p->total_sectors * p->sector_size) / F2FS_BLKSIZE;
	if (l->block_count > F2FS_MAX_BLOCKS + 1) {
		*why = F2FS_LAYOUT_TOO_LARGE;
		return -EFBIG;
	}
	return 0;
}

/* Segments a device contributes: whole zones after its first byte_off. */
static uint64_t device_segments(uint64_t bytes, uint64_t byte_off, uint64_t segs_per_zone)
{
	if (bytes <= byte_off)
		return 0;
	return (bytes - byte_off) / F2FS_SEG_SIZE / segs_per_zone * segs_per_zone;
}

/* segment0 and the total segment count, both in whole F2FS zones; with
 * several devices each contributes whole zones, one after the other. */
static int layout_zones(const struct f2fs_layout_params *p, struct f2fs_layout *l,
			enum f2fs_layout_error *why)
{
	uint64_t segs_per_zone = (uint64_t)p->segs_per_sec * p->secs_per_zone;
	uint64_t zone_bytes = segs_per_zone * F2FS_SEG_SIZE;
	uint64_t start = p->start_sector * p->sector_size;
	uint64_t dev_bytes = p->total_sectors * p->sector_size;
	uint64_t seg0_bytes, segs, next;
	uint32_t i;

	/* The two superblock blocks come first; segment0 starts on the next
	 * zone boundary as measured from the start of the disk (a read-only
	 * image, which nothing writes by zone or section, wastes nothing). */
	if (ro_image(p))
		seg0_bytes = 2 * F2FS_BLKSIZE;
	else
		seg0_bytes = div_round_up(start + 2 * F2FS_BLKSIZE, zone_bytes) * zone_bytes - start;
	if (seg0_bytes >= dev_bytes || seg0_bytes / F2FS_BLKSIZE > UINT32_MAX) {
		*why = F2FS_LAYOUT_TOO_SMALL;
		return -ENOSPC;
	}
	l->ndevs = 1 + p->nr_extra_devs;
	segs = device_segments(dev_bytes, seg0_bytes, segs_per_zone);
	l->dev_segments[0] = (uint32_t)(segs < UINT32_MAX ? segs : UINT32_MAX);
	l->dev_first_blk[0] = 0;
	l->dev_last_blk[0] = seg0_bytes / F2FS_BLKSIZE + segs * BLKS_PER_SEG - 1;
	for (i = 1; i < l->ndevs; i++) {
		uint64_t s = device_segments(p->extra_dev_bytes[i - 1], 0, segs_per_zone);

		if (s == 0) {
			*why = F2FS_LAYOUT_DEVICE_TOO_SMALL;
			return -ENOSPC;
		}
		next = l->dev_last_blk[i - 1] + 1;
		l->dev_segments[i] = (uint32_t)(s < UINT32_MAX ? s : UINT32_MAX);
		l->dev_first_blk[i] = next;
		l->dev_last_blk[i] = next + s * BLKS_PER_SEG - 1;
		segs += s;
		l->block_count += p->extra_dev_bytes[i - 1] / F2FS_BLKSIZE;
	}
	if (l->block_count > F2FS_MAX_BLOCKS + 1 || l->dev_last_blk[l->ndevs - 1] > F2FS_MAX_BLOCKS) {
		*why = F2FS_LAYOUT_TOO_LARGE;
		return -EFBIG;
	}
	if (segs < F2FS_MIN_SEGMENTS) {
		*why = F2FS_LAYOUT_TOO_SMALL;
		return -ENOSPC;
	}
	if (segs > F2FS_MAX_SEGMENT) {
		*why = F2FS_LAYOUT_TOO_LARGE;
		return -EFBIG;
	}
	l->segment0_blkaddr = (uint32_t)(seg0_bytes / F2FS_BLKSIZE);
	l->cp_blkaddr = l->segment0_blkaddr;
	l->segment_count = (uint32_t)segs;
	l->segment_count_ckpt = F2FS_NUMBER_OF_CHECKPOINT_PACK;
	return 0;
}

static void layout_sit(struct f2fs_layout *l)
{
	uint64_t sit_blocks = div_round_up(l->segment_count, SIT_ENTRY_PER_BLOCK);
	uint32_t sit_segs = (uint32_t)div_round_up(sit_blocks, BLKS_PER_SEG);

	l->segment_count_sit = sit_segs * 2;
	l->sit_blkaddr = l->cp_blkaddr + l->segment_count_ckpt * BLKS_PER_SEG;
	l->sit_bitmap_bytes = sit_segs * BLKS_PER_SEG / 8;
}

/* NAT size, capped unless -i, and where the version bitmaps go. */
static void layout_nat(const struct f2fs_layout_params *p, struct f2fs_layout *l)
{
	uint64_t avail = (uint64_t)(l->segment_count - l->segment_count_ckpt -
				    l->segment_count_sit) * BLKS_PER_SEG;
	uint64_t nat_blocks = div_round_up(avail, NAT_ENTRY_PER_BLOCK);
	uint32_t nat_segs, max_nat_segs, bitmap_room;

	if (p->large_nat_bitmap)
		nat_blocks = div_round_up(nat_blocks * LARGE_NAT_RATIO_PERCENT, 100);
	nat_segs = (uint32_t)div_round_up(nat_blocks, BLKS_PER_SEG);
	if (nat_segs == 0)
		nat_segs = 1;
	l->large_nat_bitmap = p->large_nat_bitmap;
	if (p->large_nat_bitmap) {
		uint64_t bytes;

		/* crc at 192, NAT bitmap at 196, SIT bitmap right after it. */
		l->nat_bitmap_bytes = nat_segs * BLKS_PER_SEG / 8;
		bytes = CP_MIN_CHKSUM_OFFSET + 4 + (uint64_t)l->nat_bitmap_bytes + l->sit_bitmap_bytes;
		l->cp_payload = bytes > F2FS_BLKSIZE ?
			(uint32_t)div_round_up(bytes - F2FS_BLKSIZE, F2FS_BLKSIZE) : 0;
	} else {
		if (l->sit_bitmap_bytes > MAX_SIT_BITMAP_SIZE_IN_CKPT) {
			bitmap_room = MAX_BITMAP_SIZE_IN_CKPT;
			l->cp_payload = (uint32_t)div_round_up(l->sit_bitmap_bytes, F2FS_BLKSIZE);
		} else {
			bitmap_room = MAX_BITMAP_SIZE_IN_CKPT - l->sit_bitmap_bytes;
			l->cp_payload = 0;
		}
		max_nat_segs = bitmap_room * 8 / BLKS_PER_SEG;
		if (nat_segs > max_nat_segs)
			nat_segs = max_nat_segs;
		l->nat_bitmap_bytes = nat_segs * BLKS_PER_SEG / 8;
	}
	l->segment_count_nat = nat_segs * 2;
	l->nat_blkaddr = l->sit_blkaddr + l->segment_count_sit * BLKS_PER_SEG;
	l->max_nid = nat_segs * BLKS_PER_SEG * (uint32_t)NAT_ENTRY_PER_BLOCK;
}

/* SSA (one block per main segment, none on a read-only image; padded so
 * metadata ends on a zone), then the main area in whole zones. */
static int layout_ssa_main(const struct f2fs_layout_params *p, struct f2fs_layout *l,
			   enum f2fs_layout_error *why)
{
	uint32_t segs_per_zone = l->segs_per_sec * l->secs_per_zone;
	uint32_t before_ssa = l->segment_count_ckpt + l->segment_count_sit + l->segment_count_nat;
	uint32_t ssa_segs, meta, total_zones, meta_zones;

	if (before_ssa >= l->segment_count) {
		*why = F2FS_LAYOUT_TOO_SMALL;
		return -ENOSPC;
	}
	ssa_segs = ro_image(p) ? 0 :
		   (uint32_t)div_round_up((uint64_t)(l->segment_count - before_ssa) + 1, BLKS_PER_SEG);
	meta = before_ssa + ssa_segs;
	if (meta % segs_per_zone)
		ssa_segs += segs_per_zone - meta % segs_per_zone;
	meta = before_ssa + ssa_segs;
	meta_zones = meta / segs_per_zone;
	total_zones = l->segment_count / segs_per_zone;
	if (total_zones <= meta_zones || total_zones - meta_zones <= logs_needed(p)) {
		*why = F2FS_LAYOUT_TOO_SMALL;
		return -ENOSPC;
	}
	l->segment_count_ssa = ssa_segs;
	l->ssa_blkaddr = l->nat_blkaddr + l->segment_count_nat * BLKS_PER_SEG;
	l->main_blkaddr = l->ssa_blkaddr + ssa_segs * BLKS_PER_SEG;
	l->section_count = (total_zones - meta_zones) * l->secs_per_zone;
	l->segment_count_main = l->section_count * l->segs_per_sec;
	return 0;
}

static bool section_is_sequential(const struct f2fs_layout_params *p,
				  const struct f2fs_layout *l, uint64_t secno)
{
	uint64_t blk = l->main_blkaddr + secno * l->segs_per_sec * BLKS_PER_SEG;

	if (!p->seq_zone)
		return true;
	for (uint32_t d = 0; d < l->ndevs; d++)
		if (blk >= l->dev_first_blk[d] && blk <= l->dev_last_blk[d])
			return p->seq_zone(p->seq_zone_arg, d, blk - l->dev_first_blk[d]);
	return true;
}

/* Main-area segments holding a writable block: a section in a sequential
 * zone has usable_segs_per_sec of them, any other all. */
static uint64_t usable_main_segments(const struct f2fs_layout_params *p,
				     const struct f2fs_layout *l)
{
	uint64_t n = 0;

	if (l->usable_segs_per_sec == l->segs_per_sec)
		return l->segment_count_main;
	for (uint64_t s = 0; s < l->section_count; s++)
		n += section_is_sequential(p, l, s) ? l->usable_segs_per_sec : l->segs_per_sec;
	return n;
}

/* Reserved and overprovision segments for an overprovision ratio (in %),
 * in whole sections.  Returns the user blocks (0 if none). */
static uint64_t ovp_plan(const struct f2fs_layout *l, double ratio,
			 uint32_t *rsvd_out, uint32_t *ovp_out)
{
	uint64_t sps = l->segs_per_sec;
	uint64_t main_segs = l->segment_count_main;
	uint64_t rsvd_secs = (uint64_t)ceil(100.0 / ratio) + 1 + NR_CURSEG_TYPE;
	uint64_t rsvd = rsvd_secs * sps;
	uint64_t ovp, spare_secs;

	if (rsvd >= main_segs)
		return 0;
	/* Overprovisioned space beyond the reserve, rounded up to sections. */
	spare_secs = (uint64_t)ceil((double)(main_segs - rsvd) * ratio / 100.0 / (double)sps);
	ovp = (rsvd > spare_secs * sps ? rsvd : spare_secs * sps) + NR_CURSEG_TYPE * sps;
	if (ovp >= main_segs)
		return 0;
	*rsvd_out = (uint32_t)rsvd;
	*ovp_out = (uint32_t)ovp;
	return (main_segs - ovp) / sps * l->sec_usable_blocks;
}

/* For volumes too small for any ratio above: one reserved section per log
 * plus one, and one more section of overprovision.  Garbage collection then
 * runs in the foreground all the time, but every write still finds room;
 * f2fs-tools accepts volumes this small too. */
static uint64_t compact_plan(const struct f2fs_layout *l, double *ratio,
			     uint32_t *rsvd_out, uint32_t *ovp_out)
{
	uint64_t sps = l->segs_per_sec;
	uint64_t rsvd = (NR_CURSEG_TYPE + 1) * sps, ovp = rsvd + sps;

	if (ovp >= l->segment_count_main)
		return 0;
	*rsvd_out = (uint32_t)rsvd;
	*ovp_out = (uint32_t)ovp;
	*ratio = 100.0 * (double)(ovp - rsvd) / (double)(l->segment_count_main - rsvd);
	return (l->segment_count_main - ovp) / sps * l->sec_usable_blocks;
}

static int layout_overprovision(const struct f2fs_layout_params *p, struct f2fs_layout *l,
				enum f2fs_layout_error *why)
{
	uint32_t rsvd = 0, ovp = 0, best_rsvd = 0, best_ovp = 0;
	uint64_t user, best = 0;
	double r, best_ratio = 0;

	if (ro_image(p)) {
		/* nothing to collect garbage for: every segment is the user's */
		l->overprovision = 0;
		l->rsvd_segment_count = 0;
		l->overprov_segment_count = 0;
		l->user_block_count = (uint64_t)l->section_count * l->sec_usable_blocks;
		l->free_segment_count = usable_main_segments(p, l) - logs_needed(p);
		return 0;
	}
	if (p->overprovision > 0) {
		if (p->overprovision >= 100) {
			*why = F2FS_LAYOUT_BAD_OVERPROVISION;
			return -EINVAL;
		}
		best = ovp_plan(l, p->overprovision, &best_rsvd, &best_ovp);
		best_ratio = p->overprovision;
	} else {
		/* Fine steps where large volumes land, coarse ones above. */
		for (r = 0.01; r < 95.0; r += (r < 10.0 ? 0.01 : 1.0)) {
			user = ovp_plan(l, r, &rsvd, &ovp);
			if (user > best) {
				best = user;
				best_ratio = r;
				best_rsvd = rsvd;
				best_ovp = ovp;
			}
		}
	}
	if (best == 0 && p->overprovision == 0)
		best = compact_plan(l, &best_ratio, &best_rsvd, &best_ovp);
	if (best == 0) {
		*why = p->overprovision > 0 ? F2FS_LAYOUT_BAD_OVERPROVISION : F2FS_LAYOUT_TOO_SMALL;
		return -ENOSPC;
	}
	/* The kernel refuses when metadata plus reserve reach segment_count. */
	if ((uint64_t)l->segment_count_ckpt + l->segment_count_sit + l->segment_count_nat +
	    l->segment_count_ssa + best_rsvd >= l->segment_count) {
		*why = F2FS_LAYOUT_TOO_SMALL;
		return -ENOSPC;
	}
	l->overprovision = best_ratio;
	l->rsvd_segment_count = best_rsvd;
	l->overprov_segment_count = best_ovp;
	l->user_block_count = best;
	l->free_segment_count = usable_main_segments(p, l) - NR_CURSEG_TYPE;
	return 0;
}

/* Writable blocks and segments of a section: all of them, or those
 * before the zone capacity. */
static int layout_capacity(const struct f2fs_layout_params *p, struct f2fs_layout *l,
			   enum f2fs_layout_error *why)
{
	uint64_t sec_blocks = (uint64_t)l->segs_per_sec * BLKS_PER_SEG;
	uint64_t cap = p->sec_cap_blocks && p->sec_cap_blocks < sec_blocks ? p->sec_cap_blocks
									 : sec_blocks;

	l->sec_usable_blocks = cap;
	l->usable_segs_per_sec = f2fs_zone_usable_segs_in_sec(sec_blocks, cap, l->segs_per_sec);
	if ((uint64_t)l->section_count * l->usable_segs_per_sec <= logs_needed(p)) {
		*why = F2FS_LAYOUT_TOO_SMALL;
		return -ENOSPC;
	}
	return 0;
}

/* Initial logs: node logs in the first zones, data logs spread out; on a
 * read-only image hot data at the start and hot node in the last section,
 * so that what a loader adds fills the main area from both ends. */
static void layout_cursegs(const struct f2fs_layout_params *p, struct f2fs_layout *l)
{
	uint32_t spz = l->segs_per_sec * l->secs_per_zone;
	uint32_t zones = l->segment_count_main / spz;
	uint32_t *c = l->cur_seg;
	int i, j;
	bool clash = false;

	if (ro_image(p)) {
		for (i = 0; i < NR_CURSEG_TYPE; i++)
			c[i] = 0;
		c[CURSEG_HOT_NODE] = (l->section_count - 1) * l->segs_per_sec;
		return;
	}

#define NEXT_ZONE(seg) (((seg) / spz + 1) * spz)
#define LAST_ZONE(n) (((n) > 0 ? (n) - 1 : 0) * spz)
	c[CURSEG_HOT_NODE] = 0;
	c[CURSEG_WARM_NODE] = NEXT_ZONE(c[CURSEG_HOT_NODE]);
	c[CURSEG_COLD_NODE] = NEXT_ZONE(c[CURSEG_WARM_NODE]);
	c[CURSEG_HOT_DATA] = NEXT_ZONE(c[CURSEG_COLD_NODE]);
	c[CURSEG_COLD_DATA] = LAST_ZONE(zones / 4) > NEXT_ZONE(c[CURSEG_HOT_DATA]) ?
			      LAST_ZONE(zones / 4) : NEXT_ZONE(c[CURSEG_HOT_DATA]);
	c[CURSEG_WARM_DATA] = LAST_ZONE(zones / 2) > NEXT_ZONE(c[CURSEG_COLD_DATA]) ?
			      LAST_ZONE(zones / 2) : NEXT_ZONE(c[CURSEG_COLD_DATA]);
#undef NEXT_ZONE
#undef LAST_ZONE
	for (i = 0; i < NR_CURSEG_TYPE; i++) {
		if (c[i] >= l->segment_count_main)
			clash = true;
		for (j = i + 1; j < NR_CURSEG_TYPE; j++)
			if (c[i] / l->segs_per_sec == c[j] / l->segs_per_sec)
				clash = true;
	}
	if (clash) {
		static const int order[NR_CURSEG_TYPE] = {
			CURSEG_HOT_NODE, CURSEG_WARM_NODE, CURSEG_COLD_NODE,
			CURSEG_HOT_DATA, CURSEG_COLD_DATA, CURSEG_WARM_DATA,
		};

		for (i = 0; i < NR_CURSEG_TYPE; i++)
			c[order[i]] = (uint32_t)i * spz;
	}
}

static void layout_nat_bits(struct f2fs_layout *l)
{
	uint32_t pack = 1 + l->cp_payload + 1 + NR_CURSEG_NODE_TYPE + 1;
	uint32_t real = f2fs_nat_bits_blocks(l->segment_count_nat);
	uint32_t kernel_view = (uint32_t)div_round_up(
		2 * ((uint64_t)l->segment_count_nat * BLKS_PER_SEG / 8) + 8, F2FS_BLKSIZE);

	if (pack + real <= BLKS_PER_SEG &&
	    l->cp_payload + 2 + NR_CURSEG_TYPE + kernel_view < BLKS_PER_SEG)
		l->nat_bits_blocks = real;
	else
		l->nat_bits_blocks = 0;
}

int f2fs_layout_compute(const struct f2fs_layout_params *p,
			struct f2fs_layout *l, enum f2fs_layout_error *why)
{
	enum f2fs_layout_error dummy;
	int err;

	if (!why)
		why = &dummy;
	*why = F2FS_LAYOUT_OK;
	memset(l, 0, sizeof(*l));
	if ((err = layout_units(p, l, why)) || (err = layout_zones(p, l, why)))
		return err;
	layout_sit(l);
	layout_nat(p, l);
	if ((err = layout_ssa_main(p, l, why)))
		return err;
	if (l->main_blkaddr > l->dev_last_blk[0] + 1) {
		*why = F2FS_LAYOUT_META_NOT_ON_FIRST;
		return -ENOSPC;
	}
	if (l->cp_payload > F2FS_MAX_CP_PAYLOAD) {
		*why = F2FS_LAYOUT_TOO_LARGE;
		return -EFBIG;
	}
	if ((err = layout_capacity(p, l, why)) || (err = layout_overprovision(p, l, why)))
		return err;
	layout_cursegs(p, l);
	layout_nat_bits(l);
	return 0;
}

uint64_t f2fs_layout_min_bytes(const struct f2fs_layout_params *p)
{
	struct f2fs_layout_params q = *p;
	struct f2fs_layout l;
	uint64_t lo = 1, hi = (F2FS_MAX_BLOCKS * F2FS_BLKSIZE) / F2FS_SEG_SIZE;
	uint64_t unit = F2FS_SEG_SIZE;

	if (q.sector_size == 0)
		return 0;
	/* Smallest whole number of segments that formats; acceptance is
	 * monotonic in the size for all practical purposes. */
	q.total_sectors = hi * unit / q.sector_size;
	if (f2fs_layout_compute(&q, &l, NULL))
		return 0;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		q.total_sectors = mid * unit / q.sector_size;
		if (f2fs_layout_compute(&q, &l, NULL) == 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo * unit;
}
