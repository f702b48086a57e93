/*
 * fsck_pass_zone.c - zoned volumes: the write pointers of the zones that
 * hold the main area, against the SIT and the open logs.
 *
 * On a zoned device (or an emulated zone model, f2fs_zone.h) a section is
 * one zone, and a sequential-write-required zone takes writes only at its
 * write pointer, up to its capacity.  When the kernel mounts such a volume
 * read-write it compares each zone with the SIT and the logs of the
 * checkpoint (fs/f2fs/segment.c: f2fs_fix_curseg_write_pointer() after
 * roll-forward recovery, f2fs_check_write_pointer() after that):
 *  - an open log whose write position is not its zone's write pointer is
 *    moved to a new section (fix_curseg_write_pointer());
 *  - a zone with no valid block whose write pointer is not at its start
 *    is reset (check_zone_write_pointer());
 *  - valid blocks at or after the write pointer were never written: the
 *    kernel only says so, and newer kernels finish the zone.
 * And check_block_count() (fs/f2fs/segment.h) counts a segment's valid
 * bits only below the zone capacity: a SIT entry with bits after it is
 * refused at mount.
 *
 * fsck_zone_map() (before the SIT pass) maps every section to its zone
 * and device; from then on fsck_addr_in_main() refuses block addresses
 * in the unusable tail of a section, so that the walk drops references
 * to blocks the device can never hold.  fsck_pass_zone() (after pass 7)
 * reports, and plans the zones to reset or finish (in every mode);
 * fsck_zone_apply() (start of the repair) does that, and the repair's
 * allocator opens logs only in sections whose zone is empty.
 */
#include <stdlib.h>
#include <string.h>

#include "f2fs_dev.h"
#include "f2fs_err.h"
#include "f2fs_zone.h"
#include "fsck.h"

/* The zone of one section (NULL z: not in a sequential-write-required
 * zone, nothing to check). */
struct fsck_zsec {
	const struct f2fs_zone *z;
	uint32_t usable;	/* writable blocks of the section */
	uint8_t action;		/* ZACT_* recorded by the pass */
};

/* What the repair does to a zone: reset it before anything is written (no
 * block of the section is valid in SIT or kept: safe with the old
 * checkpoint and the new one), finish it (the blocks the section keeps
 * stay readable), or reset it after the commit (only blocks the SIT named
 * but nothing uses, which the new checkpoint drops). */
enum { ZACT_NONE, ZACT_RESET, ZACT_FINISH, ZACT_RESET_AFTER };

struct fsck_zones {
	struct fsck_zsec *sec;	/* main_secs entries */
	uint32_t nsec;
	uint32_t blocks_per_sec;
	uint32_t cap;		/* the least capacity of a sequential zone */
	bool tail;		/* some section has an unusable tail */
	uint32_t n_reset, n_finish;
};

static uint32_t blocks_per_sec(const struct f2fs_fs *fs)
{
	return fs->segs_per_sec * BLKS_PER_SEG;
}

/* Map the zones of one device; vol0 is the volume block of its block 0. */
static void map_device(struct fsck_ctx *ctx, const struct f2fs_zoned *zd, uint64_t vol0)
{
	struct f2fs_fs *fs = ctx->fs;
	struct fsck_zones *zs = ctx->zones;
	uint64_t main_end = (uint64_t)fs->main_blkaddr + (uint64_t)fs->main_secs * zs->blocks_per_sec;

	for (uint32_t i = 0; i < zd->nr_zones; i++) {
		const struct f2fs_zone *z = &zd->zones[i];
		uint64_t start = vol0 + z->start, rel;
		uint32_t secno;

		if (start < fs->main_blkaddr || start >= main_end)
			continue;
		rel = start - fs->main_blkaddr;
		/* A zone that is not exactly one section is the superblock's
		 * business (the kernel refuses the geometry at mount). */
		if (rel % zs->blocks_per_sec || z->len != zs->blocks_per_sec)
			continue;
		secno = (uint32_t)(rel / zs->blocks_per_sec);
		if (z->type == F2FS_ZONE_TYPE_CONVENTIONAL)
			continue;
		zs->sec[secno].usable = (uint32_t)(z->capacity < z->len ? z->capacity : z->len);
		if (zs->sec[secno].usable < zs->blocks_per_sec)
			zs->tail = true;
		if (zs->sec[secno].usable < zs->cap)
			zs->cap = zs->sec[secno].usable;
		if (z->type == F2FS_ZONE_TYPE_SEQWRITE_REQ)
			zs->sec[secno].z = z;
	}
}

int fsck_zone_map(struct fsck_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;
	struct f2fs_dev *dev = fs->dev;
	struct fsck_zones *zs;
	bool any = f2fs_dev_zoned(dev) != NULL;

	for (unsigned int i = 0; i < f2fs_dev_member_count(dev); i++)
		any |= f2fs_dev_zoned(f2fs_dev_part(dev, i + 1, NULL, NULL)) != NULL;
	if (!any || !fs->main_secs)
		return 0;
	zs = calloc(1, sizeof(*zs));
	if (!zs)
		return -ENOMEM;
	zs->sec = calloc(fs->main_secs, sizeof(*zs->sec));
	if (!zs->sec) {
		free(zs);
		return -ENOMEM;
	}
	zs->nsec = fs->main_secs;
	zs->blocks_per_sec = blocks_per_sec(fs);
	zs->cap = zs->blocks_per_sec;
	for (uint32_t s = 0; s < zs->nsec; s++)
		zs->sec[s].usable = zs->blocks_per_sec;
	ctx->zones = zs;
	if (f2fs_dev_zoned(dev))
		map_device(ctx, f2fs_dev_zoned(dev), 0);
	for (unsigned int i = 0; i < f2fs_dev_member_count(dev); i++) {
		uint64_t start;
		struct f2fs_dev *m = f2fs_dev_part(dev, i + 1, &start, NULL);

		if (f2fs_dev_zoned(m))
			map_device(ctx, f2fs_dev_zoned(m), start / F2FS_BLKSIZE);
	}
	return 0;
}

void fsck_zone_free(struct fsck_ctx *ctx)
{
	if (!ctx->zones)
		return;
	free(ctx->zones->sec);
	free(ctx->zones);
	ctx->zones = NULL;
}

bool fsck_zone_addr_usable(const struct fsck_ctx *ctx, uint32_t addr)
{
	const struct fsck_zones *zs = ctx->zones;
	uint64_t rel;

	if (!zs || !zs->tail)
		return true;
	rel = (uint64_t)addr - ctx->fs->main_blkaddr;
	return rel % zs->blocks_per_sec < zs->sec[rel / zs->blocks_per_sec].usable;
}

uint32_t fsck_zone_usable_in_seg(const struct fsck_ctx *ctx, uint32_t segno)
{
	const struct fsck_zones *zs = ctx->zones;
	uint32_t spp = ctx->fs->segs_per_sec, usable, first;

	if (!zs || segno / spp >= zs->nsec)
		return BLKS_PER_SEG;
	/* The kernel takes the one zone capacity of the volume for every
	 * section, those in conventional zones or on a regular device too
	 * (f2fs_usable_zone_blks_in_seg() since "f2fs: apply zone capacity to
	 * all zone type", 2023, also in the 5.10 and 6.1 stable series; before
	 * it only sequential zones were cut): new blocks go below it in every
	 * section, which both accept. */
	usable = zs->sec[segno / spp].usable < zs->cap ? zs->sec[segno / spp].usable : zs->cap;
	first = (segno % spp) * BLKS_PER_SEG;
	if (usable <= first)
		return 0;
	return usable - first < BLKS_PER_SEG ? usable - first : BLKS_PER_SEG;
}

bool fsck_zone_sec_writable(const struct fsck_ctx *ctx, uint32_t secno)
{
	const struct fsck_zones *zs = ctx->zones;
	const struct fsck_zsec *s;

	if (!zs || secno >= zs->nsec)
		return true;
	s = &zs->sec[secno];
	return !s->z || s->z->wp == s->z->start || s->action == ZACT_RESET;
}

bool fsck_zone_log_at_wp(const struct fsck_ctx *ctx, uint32_t segno, uint32_t blkoff)
{
	const struct fsck_zones *zs = ctx->zones;
	uint32_t spp = ctx->fs->segs_per_sec;
	const struct f2fs_zone *z;

	if (!zs || segno / spp >= zs->nsec || !(z = zs->sec[segno / spp].z))
		return true;
	return z->wp - z->start == (uint64_t)(segno % spp) * BLKS_PER_SEG + blkoff;
}

/* ---- the check ---- */

/* What the SIT says of a section (the kernel's view) and what the walk
 * keeps of it (the repaired SIT's): offsets in the section of the last
 * valid block below the capacity (-1: none), valid blocks after it, and
 * the last block kept. */
struct zsec_use {
	int64_t last_valid;
	uint32_t beyond;
	bool any_valid;
	int64_t last_kept;
};

static void section_use(const struct fsck_ctx *ctx, uint32_t secno, uint32_t usable,
			struct zsec_use *u)
{
	uint32_t spp = ctx->fs->segs_per_sec;
	uint64_t seg0 = (uint64_t)secno * spp;

	memset(u, 0, sizeof(*u));
	u->last_valid = u->last_kept = -1;
	for (uint32_t i = 0; i < spp; i++) {
		const struct f2fs_seg_entry *se = &ctx->sit.segs[seg0 + i];

		for (uint32_t k = 0; k < BLKS_PER_SEG; k++) {
			uint32_t off = i * BLKS_PER_SEG + k;

			if (fsck_bit(ctx->reach, (seg0 + i) * BLKS_PER_SEG + k) && off < usable)
				u->last_kept = off;
			if (!se->valid_blocks || !f2fs_test_bit(k, se->cur_valid_map))
				continue;
			u->any_valid = true;
			if (off >= usable)
				u->beyond++;
			else
				u->last_valid = off;
		}
	}
}

/* The log whose section secno is, or -1. */
static int log_in_section(const struct f2fs_fs *fs, uint32_t secno)
{
	for (int t = 0; t < NR_CURSEG_TYPE; t++)
		if (fs->curseg_segno[t] < fs->main_segs && fs->curseg_segno[t] / fs->segs_per_sec == secno)
			return t;
	return -1;
}

/* The checkpoint leaves blocks written after it to the kernel's
 * roll-forward recovery: a log behind its write pointer is then what a
 * power cut leaves, and the kernel moves it once it has recovered. */
static bool writes_after_checkpoint_expected(const struct f2fs_fs *fs)
{
	return !(fs->cp_flags & CP_UMOUNT_FLAG);
}

static void check_log(struct fsck_ctx *ctx, int t, uint32_t secno, const struct f2fs_zone *z)
{
	const struct f2fs_fs *fs = ctx->fs;
	uint64_t pos = (uint64_t)(fs->curseg_segno[t] % fs->segs_per_sec) * BLKS_PER_SEG +
		       fs->curseg_blkoff[t];
	uint64_t wp = z->wp - z->start;

	if (pos == wp || (pos < wp && writes_after_checkpoint_expected(fs)))
		return;
	fsck_problem(ctx, PR_ZONE_LOG_WP, FSCK_OBJ(.secno = secno, .segno = fs->curseg_segno[t],
		    .idx = (uint64_t)t, .found = pos, .expected = wp));
}

/* The repair's zone operation for a section that is not a log's: from
 * what the repaired SIT will hold.  A log's section keeps its zone (a log
 * not at its write pointer moves; finishing the zone it leaves is safe). */
static void plan_zone(struct fsck_zsec *s, const struct zsec_use *u, uint64_t wp, bool log,
		      bool after_power_cut)
{
	if (u->last_kept >= 0 && (uint64_t)u->last_kept >= wp && wp < s->usable)
		s->action = ZACT_FINISH;
	else if (log || after_power_cut)
		s->action = ZACT_NONE;
	else if (u->last_kept < 0 && wp != 0)
		s->action = u->any_valid ? ZACT_RESET_AFTER : ZACT_RESET;
}

static void check_section(struct fsck_ctx *ctx, uint32_t secno)
{
	struct fsck_zsec *s = &ctx->zones->sec[secno];
	const struct f2fs_zone *z = s->z;
	uint64_t wp = z->wp - z->start, sec0 = ctx->fs->main_blkaddr + (uint64_t)secno * ctx->zones->blocks_per_sec;
	struct zsec_use u;
	int t = log_in_section(ctx->fs, secno);
	bool after;

	section_use(ctx, secno, s->usable, &u);
	if (u.beyond)
		fsck_problem(ctx, PR_ZONE_BLOCK_BEYOND_CAPACITY, FSCK_OBJ(.secno = secno,
			    .found = u.beyond, .expected = s->usable));
	if (t >= 0)
		check_log(ctx, t, secno, z);
	if (u.last_valid >= 0 && (uint64_t)u.last_valid >= wp && wp < s->usable)
		fsck_problem(ctx, PR_ZONE_VALID_BEYOND_WP, FSCK_OBJ(.secno = secno,
			    .blkaddr = sec0 + (uint64_t)u.last_valid, .found = (uint64_t)u.last_valid,
			    .expected = wp));
	/* After a power cut the zones written since the checkpoint hold no
	 * block the SIT knows yet: the kernel recovers what was fsync'd,
	 * then resets the rest; no reset is reported or planned then. */
	after = writes_after_checkpoint_expected(ctx->fs);
	if (!u.any_valid && t < 0 && wp != 0 && !after)
		fsck_problem(ctx, PR_ZONE_WP_NO_VALID, FSCK_OBJ(.secno = secno, .found = wp,
			    .str = f2fs_zone_cond_name(z->cond)));
	plan_zone(s, &u, wp, t >= 0, after);
}

int fsck_pass_zone(struct fsck_ctx *ctx)
{
	struct fsck_zones *zs = ctx->zones;

	if (!zs || !ctx->sit_loaded)
		return 0;
	for (uint32_t secno = 0; secno < zs->nsec; secno++)
		if (zs->sec[secno].z)
			check_section(ctx, secno);
	return 0;
}

/* ---- the repair ---- */

/* Run the recorded resets and finishes, one request per run of adjacent
 * zones (blocks of free sections and of sections that keep what they
 * hold: safe before the new checkpoint, and after it). */
static int apply_runs(struct fsck_ctx *ctx, uint8_t action,
		      int (*op)(struct f2fs_dev *, uint64_t, uint64_t), uint32_t *count)
{
	struct fsck_zones *zs = ctx->zones;
	uint32_t bps = zs->blocks_per_sec;
	int err = 0;

	for (uint32_t s = 0; s < zs->nsec && !err;) {
		uint32_t e = s;

		if (zs->sec[s].action != action) {
			s++;
			continue;
		}
		while (e < zs->nsec && zs->sec[e].action == action)
			e++;
		err = op(ctx->fs->dev, ctx->fs->main_blkaddr + (uint64_t)s * bps, (uint64_t)(e - s) * bps);
		*count += e - s;
		s = e;
	}
	return err;
}

int fsck_zone_apply(struct fsck_ctx *ctx)
{
	struct fsck_zones *zs = ctx->zones;
	int err;

	if (!zs)
		return 0;
	err = apply_runs(ctx, ZACT_RESET, f2fs_zone_reset, &zs->n_reset);
	if (!err)
		err = apply_runs(ctx, ZACT_FINISH, f2fs_zone_finish, &zs->n_finish);
	return err;
}

int fsck_zone_apply_after_commit(struct fsck_ctx *ctx)
{
	struct fsck_zones *zs = ctx->zones;
	int err;

	if (!zs)
		return 0;
	err = apply_runs(ctx, ZACT_RESET_AFTER, f2fs_zone_reset, &zs->n_reset);
	if (!err && (zs->n_reset || zs->n_finish))
		fsck_diag(ctx, "zones: %u reset, %u finished", zs->n_reset, zs->n_finish);
	return err;
}
