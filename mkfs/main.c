/*
 * main.c - mkfs.f2fs: everything is decided and validated first (options,
 * mount state, device size, layout, existing signatures); only then is
 * the first byte written.  A refused run leaves the device untouched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <uuid/uuid.h>

#include "mkfs.h"
#include "f2fs_err.h"
#include "f2fs_features.h"
#include "f2fs_undo.h"
#include "f2fs_zone.h"

/* After f2fs_dev_open() refused a device with -EINVAL: say what is wrong
 * with its emulated zone model, if it has one. */
static void explain_zone_model(const char *path, const char *zone_model)
{
	char model[4096], why[256];
	struct stat st, mst;
	uint64_t bytes;

	if (zone_model)
		snprintf(model, sizeof(model), "%s", zone_model);
	else if ((size_t)snprintf(model, sizeof(model), "%s.zones", path) >= sizeof(model))
		return;
	if (stat(path, &st) < 0 || stat(model, &mst) < 0)
		return;
	bytes = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
	if (S_ISBLK(st.st_mode)) {
		struct f2fs_dev_opts plain = { .no_zone_model = true };
		struct f2fs_dev *d = NULL;

		if (f2fs_dev_open(path, &plain, &d) == 0) {
			bytes = f2fs_dev_size(d);
			if (f2fs_dev_zoned(d) && zone_model)
				mkfs_err("%s is a zoned block device: it has its own zones, "
					 "--zone-model is for files and loop devices", path);
			f2fs_dev_close(d);
		}
	}
	if (f2fs_zone_model_explain(model, bytes, why, sizeof(why)) < 0)
		mkfs_err("zone model %s: %s", model, why);
}

static int open_one(const char *path, const char *zone_model, struct f2fs_dev **dev)
{
	struct f2fs_dev_opts opts = { .exclusive = true, .zone_model = zone_model };
	int err = mkfs_check_not_mounted(path);

	if (err)
		return err;
	err = f2fs_dev_open(path, &opts, dev);
	if (err)
		mkfs_err("cannot open %s: %s", path, f2fs_strerror(err));
	if (err == -EINVAL)
		explain_zone_model(path, zone_model);
	return err;
}

/* The first device and every -c device: none mounted, none twice. */
static int open_devices(struct mkfs_ctx *ctx)
{
	unsigned int i, j;
	int err;

	for (i = 0; i < ctx->o.n_extra_dev; i++) {
		if (!strcmp(ctx->o.extra_dev[i], ctx->o.device))
			goto twice;
		for (j = 0; j < i; j++)
			if (!strcmp(ctx->o.extra_dev[i], ctx->o.extra_dev[j]))
				goto twice;
	}
	err = open_one(ctx->o.device, ctx->o.zone_model, &ctx->dev);
	for (i = 0; !err && i < ctx->o.n_extra_dev; i++)
		err = open_one(ctx->o.extra_dev[i], NULL, &ctx->extra[i]);
	return err;
twice:
	mkfs_err("device %s is given twice", ctx->o.extra_dev[i]);
	return -EINVAL;
}

static int check_signatures(struct mkfs_ctx *ctx)
{
	unsigned int i;
	int err = mkfs_check_no_signature(ctx, ctx->o.device);

	for (i = 0; !err && i < ctx->o.n_extra_dev; i++)
		err = mkfs_check_no_signature(ctx, ctx->o.extra_dev[i]);
	return err;
}

static int compute_layout(struct mkfs_ctx *ctx)
{
	struct f2fs_layout_params p;
	enum f2fs_layout_error why;
	uint32_t sector = ctx->o.wanted_sector_size ? ctx->o.wanted_sector_size
						    : f2fs_dev_sector_size(ctx->dev);
	uint64_t bytes = f2fs_dev_size(ctx->dev);
	int err;

	/* a sectors argument beyond the device formats the whole device, as
	 * f2fs-tools does (fstests' _scratch_mkfs_sized counts the device's
	 * own sectors, which -g android's 4096-byte ones multiply), said on
	 * stdout as f2fs-tools' notes are (fstests compares stderr) */
	if (ctx->o.sectors) {
		if (ctx->o.sectors > UINT64_MAX / sector || ctx->o.sectors * sector > bytes) {
			if (ctx->o.debug >= 0)
				printf("%llu sectors of %u bytes exceed the size of %s (%llu bytes): "
				       "formatting the whole device\n",
				       (unsigned long long)ctx->o.sectors, sector, ctx->o.device,
				       (unsigned long long)bytes);
		} else {
			bytes = ctx->o.sectors * sector;
		}
	}
	memset(&p, 0, sizeof(p));
	p.total_sectors = bytes / sector;
	p.sector_size = sector;
	p.segs_per_sec = ctx->o.segs_per_sec;
	p.secs_per_zone = ctx->o.secs_per_zone;
	p.overprovision = ctx->o.overprovision;
	p.features = ctx->o.features;
	p.large_nat_bitmap = ctx->o.large_nat_bitmap;
	p.nr_extra_devs = ctx->o.n_extra_dev;
	if (ctx->o.zoned && ctx->zone_cap < ctx->zone_blocks) {
		p.sec_cap_blocks = ctx->zone_cap;
		p.seq_zone = mkfs_dev_zone_is_seq;
		p.seq_zone_arg = ctx;
	}
	for (unsigned int i = 0; i < ctx->o.n_extra_dev; i++) {
		uint64_t zone = (uint64_t)ctx->o.segs_per_sec * ctx->o.secs_per_zone * F2FS_SEG_SIZE;

		p.extra_dev_bytes[i] = f2fs_dev_size(ctx->extra[i]);
		if (p.extra_dev_bytes[i] < zone) {
			mkfs_err("%s: %llu MiB is smaller than one zone (%llu MiB)",
				 ctx->o.extra_dev[i], (unsigned long long)(p.extra_dev_bytes[i] >> 20),
				 (unsigned long long)(zone >> 20));
			return -EINVAL;
		}
	}
	err = f2fs_layout_compute(&p, &ctx->layout, &why);
	if (err) {
		uint64_t min = why == F2FS_LAYOUT_TOO_SMALL ? f2fs_layout_min_bytes(&p) : 0;

		if (min)
			mkfs_err("%s: %s (%llu MiB; this layout needs at least %llu MiB)",
				 ctx->o.device, f2fs_layout_strerror(why),
				 (unsigned long long)(bytes >> 20), (unsigned long long)(min >> 20));
		else
			mkfs_err("%s: %s", ctx->o.device, f2fs_layout_strerror(why));
	}
	return err;
}

/* A small generator for the checkpoint version; -r makes it fixed. */
static uint64_t pick_cp_version(const struct mkfs_ctx *ctx)
{
	uint64_t x = ctx->o.fixed_seed ? 0x2545F4914F6CDD1Dull
				       : ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid();
	uint8_t r[4];
	int fd;

	if (!ctx->o.fixed_seed) {
		fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			if (read(fd, r, sizeof(r)) == (ssize_t)sizeof(r))
				x ^= get_le32(r);
			close(fd);
		}
	}
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	return ((x * 0x2545F4914F6CDD1Dull) >> 33) | 1;	/* 31 bits, odd */
}

static void plan_tree(struct mkfs_ctx *ctx)
{
	struct mkfs_plan *p = &ctx->plan;
	uint32_t nid = F2FS_ROOT_INO + 1, t;

	if (ctx->o.features & F2FS_FEATURE_QUOTA_INO) {
		for (t = 0; t < F2FS_MAX_QUOTAS; t++) {
			if (t == 2 && !(ctx->o.features & F2FS_FEATURE_PRJQUOTA))
				continue;
			p->quota_type[p->nr_quota] = t;
			p->qf_ino[p->nr_quota++] = nid++;
		}
	}
	if (ctx->o.features & F2FS_FEATURE_LOST_FOUND)
		p->lpf_ino = nid++;
	p->next_free_nid = nid;
	p->node_blocks = 1 + p->nr_quota + (p->lpf_ino ? 1 : 0);
	p->data_blocks = 1 + 2 * p->nr_quota + (p->lpf_ino ? 1 : 0);
	p->cp_ver = pick_cp_version(ctx);
	p->mtime = ctx->o.fixed_time ? ctx->o.timestamp : (uint64_t)time(NULL);
	if (!ctx->o.uuid_given)
		uuid_generate(ctx->o.uuid);
}

static void print_summary(const struct mkfs_ctx *ctx)
{
	const struct f2fs_layout *l = &ctx->layout;
	char features[512], uuid[37];

	if (ctx->o.debug < 0)
		return;
	f2fs_features_to_string(ctx->o.features, features, sizeof(features));
	uuid_unparse(ctx->o.uuid, uuid);
	printf("F2FS volume on %s\n", ctx->o.device);
	printf("  UUID                 %s\n", uuid);
	printf("  size                 %llu MiB (%llu blocks of 4 KiB)\n",
	       (unsigned long long)(l->block_count >> 8), (unsigned long long)l->block_count);
	printf("  segments per section %u, sections per zone %u\n", l->segs_per_sec,
	       l->secs_per_zone);
	if (ctx->o.zoned)
		printf("  zoned                sections are %llu MiB zones, %llu KiB writable "
		       "(%u usable segments a section)\n",
		       (unsigned long long)(ctx->zone_blocks >> 8),
		       (unsigned long long)(ctx->zone_cap * 4), l->usable_segs_per_sec);
	printf("  main area            %u sections, %u segments, at block %u\n",
	       l->section_count, l->segment_count_main, l->main_blkaddr);
	printf("  overprovision        %.2f%%, %u segments (%u sections)\n", l->overprovision,
	       l->overprov_segment_count, l->overprov_segment_count / l->segs_per_sec);
	printf("  reserved             %u segments (%u sections)\n", l->rsvd_segment_count,
	       l->rsvd_segment_count / l->segs_per_sec);
	printf("  user space           %llu MiB\n",
	       (unsigned long long)(l->user_block_count >> 8));
	printf("  features             %s\n", features[0] ? features : "(none)");
	for (unsigned int i = 0; l->ndevs > 1 && i < l->ndevs; i++) {
		printf("  device %u             %s: %u segments, blocks %llu..%llu\n", i,
		       i ? ctx->o.extra_dev[i - 1] : ctx->o.device, l->dev_segments[i],
		       (unsigned long long)l->dev_first_blk[i],
		       (unsigned long long)l->dev_last_blk[i]);
		if (ctx->o.given_dev[i])
			printf("                       (given as %s; the superblock stores "
			       "absolute paths)\n", ctx->o.given_dev[i]);
	}
	if (ctx->o.debug > 0) {
		printf("  segment0 %u cp %u sit %u nat %u ssa %u main %u\n", l->segment0_blkaddr,
		       l->cp_blkaddr, l->sit_blkaddr, l->nat_blkaddr, l->ssa_blkaddr,
		       l->main_blkaddr);
		printf("  segments: total %u cp %u sit %u nat %u ssa %u main %u; cp_payload %u; max nid %u\n",
		       l->segment_count, l->segment_count_ckpt, l->segment_count_sit,
		       l->segment_count_nat, l->segment_count_ssa, l->segment_count_main,
		       l->cp_payload, l->max_nid);
	}
}

/* --undo: the file is created after every check, before the first write. */
static int start_undo(struct mkfs_ctx *ctx)
{
	int err;

	if (!ctx->o.undo_file)
		return 0;
	err = f2fs_dev_start_undo(ctx->dev, ctx->o.undo_file);
	if (err == -EOPNOTSUPP)
		mkfs_err("--undo is not supported on a zoned device (nothing was written)");
	else if (err)
		mkfs_err("cannot write the undo file %s: %s (nothing was written)",
			 ctx->o.undo_file, f2fs_strerror(err));
	return err;
}

static int finish_undo(struct mkfs_ctx *ctx)
{
	int err = f2fs_dev_finish_undo(ctx->dev);

	if (err)
		mkfs_err("the undo file %s is incomplete", ctx->o.undo_file);
	return err;
}

static int run(struct mkfs_ctx *ctx, int argc, char **argv)
{
	int err = mkfs_parse_args(ctx, argc, argv);

	if (err > 0)
		return 0;		/* --help or -V */
	if (err)
		return 1;
	if (open_devices(ctx) || mkfs_zoned_geometry(ctx) || compute_layout(ctx) ||
	    mkfs_zoned_check_layout(ctx))
		return 1;
	plan_tree(ctx);
	if (mkfs_zoned_check_logs(ctx) || check_signatures(ctx) || mkfs_lookup_labels(ctx))
		return 1;
	if (start_undo(ctx))
		return 1;
	err = mkfs_format(ctx);
	if (!err)
		err = finish_undo(ctx);
	if (err) {
		mkfs_err("writing %s failed: %s", ctx->o.device, f2fs_strerror(err));
		return 1;
	}
	print_summary(ctx);
	return 0;
}

int main(int argc, char **argv)
{
	struct mkfs_ctx ctx;
	int rc;

	memset(&ctx, 0, sizeof(ctx));
	rc = run(&ctx, argc, argv);
	if (ctx.dev)
		f2fs_dev_close(ctx.dev);
	for (unsigned int i = 0; i < MAX_DEVICES - 1; i++)
		if (ctx.extra[i])
			f2fs_dev_close(ctx.extra[i]);
	mkfs_free_opts(&ctx.o);
	return rc;
}
