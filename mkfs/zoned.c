/*
 * zoned.c - mkfs.f2fs -m: a volume on zoned devices (real ones or an
 * emulated zone model, see f2fs_zone.h).
 *
 * Before the layout: which devices are zoned, whether -m is on (forced
 * for a host-managed device, which the kernel mounts only with the
 * blkzoned feature), the section size (sections are zones: -s must agree
 * and -z must be 1) and the zone capacity (one for every sequential zone,
 * as the kernel requires), and enough zones open at once for the logs.
 * After the layout: the metadata must lie where
 * it can be overwritten in place (conventional zones of device 0, a
 * host-aware device, or a regular device 0 of a multi-device volume), and
 * no zone of the volume may be read-only or offline.  While formatting:
 * the sequential zones are reset (batched) instead of discarded.
 * Everything here that refuses names the rule; nothing writes before
 * mkfs_zoned_reset().
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mkfs.h"
#include "f2fs_err.h"
#include "f2fs_features.h"
#include "f2fs_zone.h"

static const char *dev_name(const struct mkfs_ctx *ctx, unsigned int i)
{
	return i ? ctx->o.extra_dev[i - 1] : ctx->o.device;
}

static struct f2fs_dev *dev_at(const struct mkfs_ctx *ctx, unsigned int i)
{
	return i ? ctx->extra[i - 1] : ctx->dev;
}

static unsigned int ndevs(const struct mkfs_ctx *ctx)
{
	return 1 + ctx->o.n_extra_dev;
}

/* Zones of a device that the volume can use: the whole ones. */
static uint32_t usable_zones(const struct f2fs_zoned *zd)
{
	uint32_t n = zd->nr_zones;

	while (n > 0 && zd->zones[n - 1].len != zd->zone_blocks)
		n--;
	return n;
}

/* -m on or off, from the option and the devices. */
static int decide_zoned(struct mkfs_ctx *ctx)
{
	bool any = false;

	for (unsigned int i = 0; i < ndevs(ctx); i++) {
		const struct f2fs_zoned *zd = f2fs_dev_zoned(dev_at(ctx, i));

		if (!zd)
			continue;
		any = true;
		if (zd->model == F2FS_ZONED_HM && (ctx->o.features & F2FS_FEATURE_RO)) {
			mkfs_err("%s is a host-managed zoned device: a read-only image (feature ro) "
				 "is not aligned to zones", dev_name(ctx, i));
			return -EINVAL;
		}
		if (zd->model == F2FS_ZONED_HM && !ctx->o.zoned) {
			if (ctx->o.debug >= 0)
				printf("%s is a host-managed zoned device%s: formatting with -m\n",
				       dev_name(ctx, i), zd->emulated ? " (emulated)" : "");
			ctx->o.zoned = true;
		}
	}
	if (ctx->o.zoned && !any) {
		mkfs_err("-m needs a zoned device: %s%s is not zoned (a zoned block device, or an "
			 "emulated zone model given with --zone-model FILE or found at IMAGE.zones)",
			 ctx->o.device, ctx->o.n_extra_dev ? " nor any -c device" : "");
		return -EINVAL;
	}
	return 0;
}

/* One zone size for the volume, a whole number of segments. */
static int zone_size_of_volume(struct mkfs_ctx *ctx, uint64_t *zone_blocks)
{
	*zone_blocks = 0;
	for (unsigned int i = 0; i < ndevs(ctx); i++) {
		const struct f2fs_zoned *zd = f2fs_dev_zoned(dev_at(ctx, i));

		if (!zd)
			continue;
		if (*zone_blocks && zd->zone_blocks != *zone_blocks) {
			mkfs_err("%s has %llu KiB zones and another device %llu KiB: all zoned devices "
				 "of a volume must have the same zone size", dev_name(ctx, i),
				 (unsigned long long)zd->zone_blocks * 4,
				 (unsigned long long)*zone_blocks * 4);
			return -EINVAL;
		}
		*zone_blocks = zd->zone_blocks;
	}
	if (*zone_blocks % BLKS_PER_SEG || *zone_blocks / BLKS_PER_SEG > F2FS_MAX_SEGMENT) {
		mkfs_err("zone size %llu KiB is not a whole number of 2 MiB segments: an F2FS section "
			 "is one zone", (unsigned long long)*zone_blocks * 4);
		return -EINVAL;
	}
	return 0;
}

/* Sections are zones: -s must agree (or is derived), -z must be 1. */
static int derive_sections(struct mkfs_ctx *ctx, uint64_t zone_blocks)
{
	uint32_t segs = (uint32_t)(zone_blocks / BLKS_PER_SEG);

	if (ctx->o.segs_per_sec_given && ctx->o.segs_per_sec != segs) {
		mkfs_err("-s %u disagrees with the zone size: %llu MiB zones make sections of %u "
			 "segments on a zoned volume (leave -s out or give -s %u)", ctx->o.segs_per_sec,
			 (unsigned long long)zone_blocks / 256, segs, segs);
		return -EINVAL;
	}
	if (ctx->o.secs_per_zone_given && ctx->o.secs_per_zone != 1) {
		mkfs_err("-z %u: on a zoned volume a section is one zone (leave -z out or give -z 1)",
			 ctx->o.secs_per_zone);
		return -EINVAL;
	}
	ctx->o.segs_per_sec = segs;
	ctx->o.secs_per_zone = 1;
	return 0;
}

/* The one capacity of the sequential zones (the kernel supports a single
 * zone capacity); zone_blocks when there is no shortfall. */
static int zone_capacity_of_volume(struct mkfs_ctx *ctx, uint64_t zone_blocks, uint64_t *cap)
{
	*cap = 0;
	for (unsigned int i = 0; i < ndevs(ctx); i++) {
		const struct f2fs_zoned *zd = f2fs_dev_zoned(dev_at(ctx, i));
		uint32_t n = zd ? usable_zones(zd) : 0;

		for (uint32_t z = 0; z < n; z++) {
			const struct f2fs_zone *zn = &zd->zones[z];

			if (!f2fs_zone_is_seq(zn))
				continue;
			if (zn->capacity == 0 || (*cap && zn->capacity != *cap)) {
				mkfs_err("%s: zone %u has a capacity of %llu KiB, other zones %llu KiB: "
					 "F2FS supports a single zone capacity", dev_name(ctx, i), z,
					 (unsigned long long)zn->capacity * 4,
					 (unsigned long long)*cap * 4);
				return -EINVAL;
			}
			*cap = zn->capacity;
		}
	}
	if (*cap == 0)
		*cap = zone_blocks;
	return 0;
}

/* Newer kernels mount a zoned volume only when the device can keep every
 * active log's zone open (active_logs, 6 by default; 2 and 4 can be
 * chosen at mount).  Fewer than 2 can hold no F2FS at all. */
static int check_open_zones(const struct mkfs_ctx *ctx)
{
	for (unsigned int i = 0; i < ndevs(ctx); i++) {
		const struct f2fs_zoned *zd = f2fs_dev_zoned(dev_at(ctx, i));

		if (!zd || !zd->max_open || zd->max_open >= NR_CURSEG_TYPE)
			continue;
		if (zd->max_open < 2) {
			mkfs_err("%s keeps at most %u zone open at once: F2FS writes at least 2 logs "
				 "(mount option active_logs=2)", dev_name(ctx, i), zd->max_open);
			return -EINVAL;
		}
		fprintf(stderr, "mkfs.f2fs: warning: %s keeps at most %u zones open at once: newer "
			"kernels mount the volume only with -o active_logs=%u or less\n",
			dev_name(ctx, i), zd->max_open, zd->max_open >= 4 ? 4 : 2);
	}
	return 0;
}

int mkfs_zoned_geometry(struct mkfs_ctx *ctx)
{
	uint64_t zone_blocks, cap;
	int err = decide_zoned(ctx);

	if (err || !ctx->o.zoned)
		return err;
	if ((err = zone_size_of_volume(ctx, &zone_blocks)) ||
	    (err = check_open_zones(ctx)) ||
	    (err = derive_sections(ctx, zone_blocks)) ||
	    (err = zone_capacity_of_volume(ctx, zone_blocks, &cap)))
		return err;
	ctx->zone_blocks = zone_blocks;
	ctx->zone_cap = cap;
	ctx->o.features |= F2FS_FEATURE_BLKZONED;
	return 0;
}

/* ---- after the layout ---- */

/* Device 0 holds every block before main_blkaddr: randomly writable? */
static int check_metadata_place(const struct mkfs_ctx *ctx)
{
	const struct f2fs_zoned *zd = f2fs_dev_zoned(ctx->dev);
	uint64_t meta = ctx->layout.main_blkaddr;
	uint64_t need;

	if (!zd || zd->model == F2FS_ZONED_HA)
		return 0;
	need = (meta + zd->zone_blocks - 1) / zd->zone_blocks;
	for (uint64_t z = 0; z < need && z < zd->nr_zones; z++) {
		if (f2fs_zone_is_seq(&zd->zones[z])) {
			mkfs_err("%s: the metadata (blocks 0..%llu, %llu zones) is overwritten in place "
				 "and needs conventional zones, but zone %llu is sequential (%u "
				 "conventional zones in all); put a regular device first: mkfs.f2fs -m "
				 "-c %s REGULAR-DEVICE", ctx->o.device, (unsigned long long)meta - 1,
				 (unsigned long long)need, (unsigned long long)z, zd->nr_conventional,
				 ctx->o.device);
			return -EINVAL;
		}
	}
	return 0;
}

/* No read-only or offline zone among those the volume uses. */
static int check_zone_conditions(const struct mkfs_ctx *ctx)
{
	for (unsigned int i = 0; i < ndevs(ctx); i++) {
		const struct f2fs_zoned *zd = f2fs_dev_zoned(dev_at(ctx, i));
		uint64_t end = ctx->layout.dev_last_blk[i] - ctx->layout.dev_first_blk[i] + 1;

		for (uint32_t z = 0; zd && z < zd->nr_zones && zd->zones[z].start < end; z++) {
			uint8_t c = zd->zones[z].cond;

			if (c == F2FS_ZONE_COND_READONLY || c == F2FS_ZONE_COND_OFFLINE) {
				mkfs_err("%s: zone %u is %s; a zoned volume needs every zone it uses "
					 "writable", dev_name(ctx, i), z, f2fs_zone_cond_name(c));
				return -EINVAL;
			}
		}
	}
	return 0;
}

int mkfs_zoned_check_layout(const struct mkfs_ctx *ctx)
{
	int err;

	if (!ctx->o.zoned)
		return 0;
	if (ctx->layout.segs_per_sec * (uint64_t)BLKS_PER_SEG != ctx->zone_blocks)
		return -EINVAL;	/* derive_sections set it; the layout keeps it */
	if ((err = check_metadata_place(ctx)) || (err = check_zone_conditions(ctx)))
		return err;
	return 0;
}

/* The first blocks of the tree go into the first segment of the hot node
 * and hot data logs.  The kernel leaves a segment as soon as it has
 * written its last usable block (f2fs_allocate_data_block()), so it never
 * checkpoints a full one; a log mkfs filled to the zone capacity would be
 * one the kernel finds behind its zone's write pointer at mount, and more
 * blocks than the capacity cannot be written at all.  The kernel accepts
 * any capacity (f2fs_usable_blks_in_seg()); this mkfs needs one above what
 * it writes into one log. */
int mkfs_zoned_check_logs(const struct mkfs_ctx *ctx)
{
	uint32_t need = ctx->plan.node_blocks > ctx->plan.data_blocks ? ctx->plan.node_blocks
								    : ctx->plan.data_blocks;
	uint64_t first = ctx->zone_cap < BLKS_PER_SEG ? ctx->zone_cap : BLKS_PER_SEG;

	if (!ctx->o.zoned || first > need)
		return 0;
	mkfs_err("zone capacity %llu KiB: mkfs writes %u block%s into one log at the start of a "
		 "zone, which would fill it; this mkfs needs a capacity above %u KiB",
		 (unsigned long long)ctx->zone_cap * 4, need, need == 1 ? "" : "s", need * 4);
	return -EINVAL;
}

/* ---- while formatting ---- */

int mkfs_zoned_reset(struct f2fs_dev *dev)
{
	const struct f2fs_zoned *zd = f2fs_dev_zoned(dev);
	uint32_t n;

	if (!zd)
		return 0;
	n = usable_zones(zd);
	if (n == 0 || zd->first_sequential >= n)
		return 0;
	return f2fs_zone_reset(dev, 0, (uint64_t)n * zd->zone_blocks);
}

bool mkfs_dev_zone_is_seq(void *arg, uint32_t dev, uint64_t dev_blk)
{
	const struct mkfs_ctx *ctx = arg;
	const struct f2fs_zone *z;

	if (dev >= ndevs(ctx))
		return false;
	z = f2fs_zone_at(f2fs_dev_zoned(dev_at(ctx, dev)), dev_blk);
	return z && f2fs_zone_is_seq(z);
}

bool mkfs_in_seq_zone(struct mkfs_ctx *ctx, uint64_t blkaddr)
{
	uint64_t at;
	struct f2fs_dev *dev = mkfs_dev_of(ctx, blkaddr, &at);
	const struct f2fs_zone *z = f2fs_zone_at(f2fs_dev_zoned(dev), at);

	return z && f2fs_zone_is_seq(z);
}
