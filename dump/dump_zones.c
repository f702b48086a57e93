/*
 * dump_zones.c - the zone table (--zones): for every zone of every zoned
 * device of the volume (a zoned block device, or an emulated zone model,
 * see f2fs_zone.h) its device and number, type, condition, start, write
 * pointer and blocks written, capacity, and side by side the section it
 * holds: number, state (free, current, dirty, full against the zone's
 * capacity; "meta" before the main area, "outside" past it) and valid
 * blocks from the SIT (journal applied).  Addresses are volume block
 * addresses, as in every other view.  A volume without zoned devices
 * gives an empty table.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "f2fs_dev.h"
#include "f2fs_zone.h"

static const struct dump_col zone_cols[] = {
	{ "dev", 3, COL_U64 },
	{ "zone", 6, COL_U64 },
	{ "type", 12, COL_STR },
	{ "cond", 13, COL_STR },
	{ "start", 10, COL_U64 },
	{ "wp", 10, COL_U64 },
	{ "written", 8, COL_U64 },
	{ "capacity", 8, COL_U64 },
	{ "secno", 6, COL_U64 },
	{ "state", 7, COL_STR },
	{ "valid_blocks", 12, COL_U64 },
	{ "current", 0, COL_STR },
};

#define NCOLS ((int)(sizeof(zone_cols) / sizeof(zone_cols[0])))

/* Per section: valid blocks and the log that has it open. */
struct zone_secs {
	uint64_t *valid;
	int8_t *cur;
	uint32_t segs_per_sec;
};

static int add_seg(struct dump_ctx *ctx, const struct dump_seg *seg, void *arg)
{
	struct zone_secs *z = arg;
	uint32_t secno = seg->segno / z->segs_per_sec;
	int cur = dump_curseg_of(ctx, seg->segno);

	z->valid[secno] += GET_SIT_VBLOCKS(&seg->raw);
	if (cur >= 0 && z->cur[secno] < 0)
		z->cur[secno] = (int8_t)cur;
	return 0;
}

static int load_sections(struct dump_ctx *ctx, struct zone_secs *z)
{
	struct f2fs_fs *fs = ctx->fs;

	z->segs_per_sec = fs->segs_per_sec;
	z->valid = calloc(fs->main_secs, sizeof(*z->valid));
	z->cur = malloc(fs->main_secs);
	if (!z->valid || !z->cur)
		return -ENOMEM;
	memset(z->cur, -1, fs->main_secs);
	return dump_sit_range(ctx, 0, fs->main_segs - 1, add_seg, z);
}

struct zone_row_ctx {
	struct dump_table t;
	const struct zone_secs *secs;
	uint64_t sec_blocks;
	uint64_t rows, seq;
};

static const char *section_state(const struct zone_row_ctx *r, uint32_t secno,
				 const struct f2fs_zone *zn)
{
	uint64_t cap = f2fs_zone_is_seq(zn) ? zn->capacity : r->sec_blocks;

	if (r->secs->cur[secno] >= 0)
		return "current";
	if (!r->secs->valid[secno])
		return "free";
	return r->secs->valid[secno] >= cap ? "full" : "dirty";
}

static void emit_zone(struct dump_ctx *ctx, struct zone_row_ctx *r, unsigned int d,
		      uint32_t zno, const struct f2fs_zone *zn, uint64_t vstart)
{
	struct f2fs_fs *fs = ctx->fs;
	uint64_t start = vstart + zn->start;
	bool seq = f2fs_zone_is_seq(zn);
	struct dump_val v[NCOLS];

	memset(v, 0, sizeof(v));
	v[0].u = d;
	v[1].u = zno;
	v[2].s = f2fs_zone_type_name(zn->type);
	v[3].s = f2fs_zone_cond_name(zn->cond);
	v[4].u = start;
	v[5].u = vstart + zn->wp;
	v[5].none = !seq;
	v[6].u = zn->wp - zn->start;
	v[6].none = !seq;
	v[7].u = zn->capacity;
	v[8].none = true;
	v[10].none = true;
	if (start < fs->main_blkaddr) {
		v[9].s = "meta";
	} else {
		uint64_t secno = (start - fs->main_blkaddr) / r->sec_blocks;

		if (secno >= fs->main_secs) {
			v[9].s = "outside";
		} else {
			v[8].u = secno;
			v[8].none = false;
			v[9].s = section_state(r, (uint32_t)secno, zn);
			v[10].u = r->secs->valid[secno];
			v[10].none = false;
			if (r->secs->cur[secno] >= 0)
				v[11].s = dump_seg_type_name((unsigned int)r->secs->cur[secno]);
		}
	}
	table_row(&r->t, v);
	r->rows++;
	r->seq += seq;
}

/* Device d of the volume and the volume block its block 0 is. */
static struct f2fs_dev *volume_dev(struct f2fs_dev *dev0, unsigned int d, uint64_t *vstart,
				   uint64_t *vlen)
{
	struct f2fs_dev *dev = f2fs_dev_part(dev0, d, vstart, vlen);

	*vstart /= F2FS_BLKSIZE;
	*vlen /= F2FS_BLKSIZE;
	return dev;
}

static void emit_device(struct dump_ctx *ctx, struct zone_row_ctx *r, unsigned int d)
{
	uint64_t vstart, vlen;
	struct f2fs_dev *dev = volume_dev(ctx->fs->dev, d, &vstart, &vlen);
	const struct f2fs_zoned *zd = f2fs_dev_zoned(dev);

	for (uint32_t z = 0; zd && z < zd->nr_zones && zd->zones[z].start < vlen; z++)
		emit_zone(ctx, r, d, z, &zd->zones[z], vstart);
}

static unsigned int zoned_devices(const struct f2fs_fs *fs)
{
	unsigned int n = f2fs_dev_zoned(fs->dev) ? 1 : 0;

	for (unsigned int i = 0; i < f2fs_dev_member_count(fs->dev); i++)
		n += f2fs_dev_zoned(f2fs_dev_part(fs->dev, i + 1, NULL, NULL)) ? 1 : 0;
	return n;
}

static void describe_device(struct dump_ctx *ctx, unsigned int d, const struct f2fs_dev *dev)
{
	const struct f2fs_zoned *zd = f2fs_dev_zoned(dev);
	uint64_t cap = zd->first_sequential < zd->nr_zones ?
		       zd->zones[zd->first_sequential].capacity : zd->zone_blocks;
	struct dump_out *o = &ctx->out;

	if (o->json) {
		out_obj_begin(o, NULL);
		out_u64(o, "dev", d);
		out_str(o, "path", f2fs_dev_path(dev));
		out_str(o, "model", f2fs_zoned_model_name(zd->model));
		out_bool(o, "emulated", zd->emulated);
		out_str(o, "zone_model_file", zd->model_path);
		out_u64(o, "zones", zd->nr_zones);
		out_u64(o, "conventional_zones", zd->nr_conventional);
		out_u64(o, "zone_blocks", zd->zone_blocks);
		out_u64(o, "capacity_blocks", cap);
		out_obj_end(o);
		return;
	}
	fprintf(o->f, "device %u %s: %s%s, %u zones of %" PRIu64 " KiB (%u conventional), "
		"capacity %" PRIu64 " KiB%s%s\n", d, f2fs_dev_path(dev), f2fs_zoned_model_name(zd->model),
		zd->emulated ? " (emulated)" : "", zd->nr_zones, zd->zone_blocks * 4,
		zd->nr_conventional, cap * 4, zd->model_path ? ", model " : "",
		zd->model_path ? zd->model_path : "");
}

int dump_zones_view(struct dump_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;
	struct zone_secs secs = { 0 };
	struct zone_row_ctx r;
	unsigned int nzoned = zoned_devices(fs);
	uint64_t vstart, vlen;
	int err;

	if (!fs->segs_per_sec || !fs->main_secs || fs->main_secs > fs->main_segs / fs->segs_per_sec)
		return dump_fail(ctx, -EFSCORRUPTED, "inconsistent section geometry");
	err = nzoned ? load_sections(ctx, &secs) : 0;
	if (err) {
		free(secs.valid);
		free(secs.cur);
		return dump_fail(ctx, err, "cannot read the SIT: %s", f2fs_strerror(err));
	}
	memset(&r, 0, sizeof(r));
	r.secs = &secs;
	r.sec_blocks = (uint64_t)fs->segs_per_sec * BLKS_PER_SEG;
	if (ctx->out.json) {
		out_obj_begin(&ctx->out, "zones");
		out_u64(&ctx->out, "zoned_devices", nzoned);
		out_arr_begin(&ctx->out, "devices");
	} else {
		fprintf(ctx->out.f, "== zones: %u zoned device%s (block addresses of the volume) ==\n",
			nzoned, nzoned == 1 ? "" : "s");
	}
	for (unsigned int d = 0; d <= f2fs_dev_member_count(fs->dev); d++) {
		const struct f2fs_dev *dev = volume_dev(fs->dev, d, &vstart, &vlen);

		if (f2fs_dev_zoned(dev))
			describe_device(ctx, d, dev);
	}
	if (ctx->out.json)
		out_arr_end(&ctx->out);
	table_begin(&r.t, &ctx->out, "table", zone_cols, NCOLS);
	for (unsigned int d = 0; nzoned && d <= f2fs_dev_member_count(fs->dev); d++)
		emit_device(ctx, &r, d);
	table_end(&r.t);
	free(secs.valid);
	free(secs.cur);
	if (ctx->out.json)
		out_obj_end(&ctx->out);
	return 0;
}
