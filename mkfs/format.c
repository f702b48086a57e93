/*
 * format.c - writing a new volume from a computed layout.
 *
 * Order of writes: reset the sequential zones (-m), erase old signatures
 * (-f), discard (-t 1, not on zoned devices), invalidate
 * the old superblocks, zero the current SIT and NAT copies, write the SIT
 * and NAT blocks that describe the initial tree (nothing goes to the
 * journals, so the nat_bits are exact from the start), the summaries of
 * the six logs, the tree itself, both checkpoint packs, a flush, and the
 * superblocks last with a flush before and after: an interrupted run
 * never leaves a volume that looks valid.  A read-only image (-O ro) has
 * no SSA to write, and only its two logs (hot data, hot node) get SIT
 * entries: the other four share their segments.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "mkfs.h"
#include "f2fs_crc.h"
#include "f2fs_err.h"
#include "f2fs_features.h"
#include "f2fs_super.h"
#include "f2fs_ckpt.h"

static const char *const default_cold_ext[] = {
	"mp", "wm", "og", "jp", "avi", "m4v", "m4p", "mkv", "mov", "webm",
	"wav", "m4a", "3gp", "opus", "flac", "gif", "png", "svg", "webp",
	"jar", "deb", "iso", "gz", "xz", "zst", "zip", "7z", "rar", "apk",
	"so", "exe", "swf", "mpg", "mpeg", "heic", "dng",
};
static const char *const default_hot_ext[] = { "db", "vmdk", "vdi", "qcow2" };

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

struct mkfs_addrs {
	uint32_t node_seg_start;	/* first block of the HOT_NODE log */
	uint32_t data_seg_start;	/* first block of the HOT_DATA log */
};

static uint32_t seg_start(const struct mkfs_ctx *ctx, int type)
{
	return ctx->layout.main_blkaddr + ctx->layout.cur_seg[type] * BLKS_PER_SEG;
}

/* Inode k of the HOT_NODE log: 0 root, 1..n quota, then lost+found. */
static uint32_t node_addr(const struct mkfs_ctx *ctx, uint32_t k)
{
	return seg_start(ctx, CURSEG_HOT_NODE) + k;
}

static uint32_t data_addr(const struct mkfs_ctx *ctx, uint32_t k)
{
	return seg_start(ctx, CURSEG_HOT_DATA) + k;
}

struct f2fs_dev *mkfs_dev_of(struct mkfs_ctx *ctx, uint64_t blkaddr, uint64_t *dev_blk)
{
	const struct f2fs_layout *l = &ctx->layout;
	uint32_t i;

	for (i = 0; i < l->ndevs; i++) {
		if (blkaddr >= l->dev_first_blk[i] && blkaddr <= l->dev_last_blk[i]) {
			*dev_blk = blkaddr - l->dev_first_blk[i];
			return i ? ctx->extra[i - 1] : ctx->dev;
		}
	}
	*dev_blk = blkaddr;
	return ctx->dev;
}

/* A write into the main area, which may lie on any device. */
static int main_write(struct mkfs_ctx *ctx, uint64_t blkaddr, uint32_t n, const void *buf)
{
	uint64_t at;
	struct f2fs_dev *dev = mkfs_dev_of(ctx, blkaddr, &at);

	return f2fs_dev_write(dev, at, n, buf);
}

/* ---- superblock ------------------------------------------------------- */

static void fill_extensions(const struct mkfs_ctx *ctx, struct f2fs_super_block *sb)
{
	unsigned int n = 0, cold = 0, hot = 0, i;

#define ADD_EXT(list, count, counter) \
	for (i = 0; i < (count) && n < F2FS_MAX_EXTENSION; i++, n++, (counter)++) \
		strncpy((char *)sb->extension_list[n], (list)[i], F2FS_EXTENSION_LEN - 1)
	ADD_EXT(default_cold_ext, N_ELEMS(default_cold_ext), cold);
	ADD_EXT(ctx->o.cold_ext, ctx->o.n_cold_ext, cold);
	ADD_EXT(default_hot_ext, N_ELEMS(default_hot_ext), hot);
	ADD_EXT(ctx->o.hot_ext, ctx->o.n_hot_ext, hot);
#undef ADD_EXT
	sb->extension_count = cpu_to_le32(cold);
	sb->hot_ext_count = (uint8_t)hot;
}

static void build_superblock(const struct mkfs_ctx *ctx, struct f2fs_super_block *sb)
{
	const struct f2fs_layout *l = &ctx->layout;
	struct utsname u;
	unsigned int i;

	memset(sb, 0, sizeof(*sb));
	sb->magic = cpu_to_le32(F2FS_SUPER_MAGIC);
	sb->major_ver = cpu_to_le16(1);
	sb->minor_ver = cpu_to_le16(16);
	sb->log_sectorsize = cpu_to_le32(l->log_sectorsize);
	sb->log_sectors_per_block = cpu_to_le32(l->log_sectors_per_block);
	sb->log_blocksize = cpu_to_le32(F2FS_BLKSIZE_BITS);
	sb->log_blocks_per_seg = cpu_to_le32(F2FS_LOG_BLOCKS_PER_SEG);
	sb->segs_per_sec = cpu_to_le32(l->segs_per_sec);
	sb->secs_per_zone = cpu_to_le32(l->secs_per_zone);
	sb->block_count = cpu_to_le64(l->block_count);
	sb->section_count = cpu_to_le32(l->section_count);
	sb->segment_count = cpu_to_le32(l->segment_count);
	sb->segment_count_ckpt = cpu_to_le32(l->segment_count_ckpt);
	sb->segment_count_sit = cpu_to_le32(l->segment_count_sit);
	sb->segment_count_nat = cpu_to_le32(l->segment_count_nat);
	sb->segment_count_ssa = cpu_to_le32(l->segment_count_ssa);
	sb->segment_count_main = cpu_to_le32(l->segment_count_main);
	sb->segment0_blkaddr = cpu_to_le32(l->segment0_blkaddr);
	sb->cp_blkaddr = cpu_to_le32(l->cp_blkaddr);
	sb->sit_blkaddr = cpu_to_le32(l->sit_blkaddr);
	sb->nat_blkaddr = cpu_to_le32(l->nat_blkaddr);
	sb->ssa_blkaddr = cpu_to_le32(l->ssa_blkaddr);
	sb->main_blkaddr = cpu_to_le32(l->main_blkaddr);
	sb->root_ino = cpu_to_le32(F2FS_ROOT_INO);
	sb->node_ino = cpu_to_le32(F2FS_NODE_INO);
	sb->meta_ino = cpu_to_le32(F2FS_META_INO);
	memcpy(sb->uuid, ctx->o.uuid, sizeof(sb->uuid));
	memcpy(sb->volume_name, ctx->o.volume_name, sizeof(sb->volume_name));
	fill_extensions(ctx, sb);
	sb->cp_payload = cpu_to_le32(l->cp_payload);
	if (uname(&u) == 0) {
		snprintf((char *)sb->version, VERSION_LEN, "Linux version %s", u.release);
		memcpy(sb->init_version, sb->version, VERSION_LEN);
	}
	sb->feature = cpu_to_le32(ctx->o.features);
	for (i = 0; i < ctx->plan.nr_quota; i++)
		sb->qf_ino[ctx->plan.quota_type[i]] = cpu_to_le32(ctx->plan.qf_ino[i]);
	if (l->ndevs > 1) {
		for (i = 0; i < l->ndevs; i++) {
			const char *path = i ? ctx->o.extra_dev[i - 1] : ctx->o.device;

			strncpy((char *)sb->devs[i].path, path, MAX_PATH_LEN - 1);
			sb->devs[i].total_segments = cpu_to_le32(l->dev_segments[i]);
		}
	}
	if (ctx->o.features & F2FS_FEATURE_CASEFOLD) {
		sb->s_encoding = cpu_to_le16(ctx->o.s_encoding);
		sb->s_encoding_flags = cpu_to_le16(ctx->o.s_encoding_flags);
	}
	f2fs_sb_update_checksum(sb);
}

/* ---- summaries, SIT, NAT ---------------------------------------------- */

static void set_sum(struct f2fs_summary *s, uint32_t nid, uint16_t ofs)
{
	s->nid = cpu_to_le32(nid);
	s->version = 0;
	s->ofs_in_node = cpu_to_le16(ofs);
}

/* Summaries of the six logs: HOT_DATA and HOT_NODE hold the tree. */
static void build_summaries(const struct mkfs_ctx *ctx, struct f2fs_summary_block sums[NR_CURSEG_TYPE])
{
	const struct mkfs_plan *p = &ctx->plan;
	uint32_t q, d = 0, n = 0;
	int t;

	memset(sums, 0, sizeof(*sums) * NR_CURSEG_TYPE);
	for (t = 0; t < NR_CURSEG_TYPE; t++)
		sums[t].footer.entry_type = t >= CURSEG_HOT_NODE ? SUM_TYPE_NODE : SUM_TYPE_DATA;
	set_sum(&sums[CURSEG_HOT_DATA].entries[d++], F2FS_ROOT_INO, 0);
	set_sum(&sums[CURSEG_HOT_NODE].entries[n++], F2FS_ROOT_INO, 0);
	for (q = 0; q < p->nr_quota; q++) {
		set_sum(&sums[CURSEG_HOT_DATA].entries[d++], p->qf_ino[q], 0);
		set_sum(&sums[CURSEG_HOT_DATA].entries[d++], p->qf_ino[q], 1);
		set_sum(&sums[CURSEG_HOT_NODE].entries[n++], p->qf_ino[q], 0);
	}
	if (p->lpf_ino) {
		set_sum(&sums[CURSEG_HOT_DATA].entries[d++], p->lpf_ino, 0);
		set_sum(&sums[CURSEG_HOT_NODE].entries[n++], p->lpf_ino, 0);
	}
}

static bool ro_image(const struct mkfs_ctx *ctx)
{
	return ctx->o.features & F2FS_FEATURE_RO;
}

static uint32_t log_blocks(const struct mkfs_ctx *ctx, int type)
{
	if (type == CURSEG_HOT_NODE)
		return ctx->plan.node_blocks;
	if (type == CURSEG_HOT_DATA)
		return ctx->plan.data_blocks;
	return 0;
}

/* SIT blocks of copy 0 that hold the six logs' entries. */
static int write_sit(struct mkfs_ctx *ctx)
{
	const struct f2fs_layout *l = &ctx->layout;
	struct f2fs_sit_block blk;
	uint32_t done[NR_CURSEG_TYPE];
	int t, u, ndone = 0;

	for (t = 0; t < NR_CURSEG_TYPE; t++) {
		uint32_t sit_blk = l->cur_seg[t] / SIT_ENTRY_PER_BLOCK;
		bool seen = false;
		int err;

		for (u = 0; u < ndone; u++)
			seen |= done[u] == sit_blk;
		if (seen)
			continue;
		done[ndone++] = sit_blk;
		memset(&blk, 0, sizeof(blk));
		for (u = 0; u < NR_CURSEG_TYPE; u++) {
			struct f2fs_sit_entry *e;
			uint32_t k, n = log_blocks(ctx, u);

			if (l->cur_seg[u] / SIT_ENTRY_PER_BLOCK != sit_blk || !f2fs_features_keep_log(ctx->o.features, u))
				continue;
			e = &blk.entries[l->cur_seg[u] % SIT_ENTRY_PER_BLOCK];
			e->vblocks = cpu_to_le16((uint16_t)((u << SIT_VBLOCKS_SHIFT) | n));
			for (k = 0; k < n; k++)
				f2fs_set_bit(k, e->valid_map);
		}
		err = f2fs_dev_write(ctx->dev, l->sit_blkaddr + sit_blk, 1, &blk);
		if (err)
			return err;
	}
	return 0;
}

static void set_nat(struct f2fs_nat_block *b, uint32_t nid, uint32_t ino, uint32_t addr)
{
	b->entries[nid].version = 0;
	b->entries[nid].ino = cpu_to_le32(ino);
	b->entries[nid].block_addr = cpu_to_le32(addr);
}

/* NAT block 0 of copy 0: the two placeholder nids and every inode. */
static int write_nat(struct mkfs_ctx *ctx)
{
	const struct mkfs_plan *p = &ctx->plan;
	struct f2fs_nat_block blk;
	uint32_t q, k = 0;

	memset(&blk, 0, sizeof(blk));
	set_nat(&blk, F2FS_NODE_INO, F2FS_NODE_INO, 1);
	set_nat(&blk, F2FS_META_INO, F2FS_META_INO, 1);
	set_nat(&blk, F2FS_ROOT_INO, F2FS_ROOT_INO, node_addr(ctx, k++));
	for (q = 0; q < p->nr_quota; q++)
		set_nat(&blk, p->qf_ino[q], p->qf_ino[q], node_addr(ctx, k++));
	if (p->lpf_ino)
		set_nat(&blk, p->lpf_ino, p->lpf_ino, node_addr(ctx, k++));
	return f2fs_dev_write(ctx->dev, ctx->layout.nat_blkaddr, 1, &blk);
}

static int write_ssa(struct mkfs_ctx *ctx, const struct f2fs_summary_block sums[NR_CURSEG_TYPE])
{
	int t, err;

	if (ro_image(ctx))	/* no SSA area: the checkpoint has the logs' */
		return 0;
	for (t = 0; t < NR_CURSEG_TYPE; t++) {
		err = f2fs_dev_write(ctx->dev, ctx->layout.ssa_blkaddr + ctx->layout.cur_seg[t], 1,
				     &sums[t]);
		if (err)
			return err;
	}
	return 0;
}

/* ---- the tree ---------------------------------------------------------- */

static int write_tree(struct mkfs_ctx *ctx)
{
	const struct mkfs_plan *p = &ctx->plan;
	struct f2fs_node node;
	struct f2fs_dentry_block dent;
	uint8_t qdata[2 * F2FS_BLKSIZE];
	uint8_t zero[F2FS_BLKSIZE];
	uint32_t q, nk = 0, dk = 0;
	int err;

	mkfs_build_root_inode(ctx, &node, node_addr(ctx, nk), data_addr(ctx, dk));
	mkfs_build_dentry_block(&dent, F2FS_ROOT_INO, F2FS_ROOT_INO, p->lpf_ino, "lost+found");
	if ((err = main_write(ctx, node_addr(ctx, nk++), 1, &node)) ||
	    (err = main_write(ctx, data_addr(ctx, dk++), 1, &dent)))
		return err;
	for (q = 0; q < p->nr_quota; q++) {
		mkfs_build_quota_inode(ctx, &node, node_addr(ctx, nk), (int)q, data_addr(ctx, dk));
		mkfs_build_quota_file(ctx, (int)q, qdata);
		if ((err = main_write(ctx, node_addr(ctx, nk++), 1, &node)) ||
		    (err = main_write(ctx, data_addr(ctx, dk), 2, qdata)))
			return err;
		dk += 2;
	}
	if (p->lpf_ino) {
		mkfs_build_lpf_inode(ctx, &node, node_addr(ctx, nk), data_addr(ctx, dk));
		mkfs_build_dentry_block(&dent, p->lpf_ino, F2FS_ROOT_INO, 0, NULL);
		if ((err = main_write(ctx, node_addr(ctx, nk++), 1, &node)) ||
		    (err = main_write(ctx, data_addr(ctx, dk++), 1, &dent)))
			return err;
	}
	/* No stale node chain may start where roll-forward would look (a
	 * reset sequential zone reads back zeroes and takes no write there:
	 * its write pointer must stay at the log's position).  On a read-only
	 * image the warm node log shares the hot data log's first block, the
	 * root's dentry block, whose unused name slots (where a node's footer
	 * would be) are zero. */
	if (mkfs_in_seq_zone(ctx, seg_start(ctx, CURSEG_WARM_NODE)) ||
	    !f2fs_features_keep_log(ctx->o.features, CURSEG_WARM_NODE))
		return 0;
	memset(zero, 0, sizeof(zero));
	return main_write(ctx, seg_start(ctx, CURSEG_WARM_NODE), 1, zero);
}

/* ---- checkpoint -------------------------------------------------------- */

static void build_checkpoint(const struct mkfs_ctx *ctx, struct f2fs_checkpoint *cp,
			     uint64_t version)
{
	const struct f2fs_layout *l = &ctx->layout;
	const struct mkfs_plan *p = &ctx->plan;
	uint32_t flags = CP_UMOUNT_FLAG | CP_COMPACT_SUM_FLAG, crc = 0;
	int t;

	memset(cp, 0, sizeof(*cp));
	cp->checkpoint_ver = cpu_to_le64(version);
	cp->user_block_count = cpu_to_le64(l->user_block_count);
	cp->valid_block_count = cpu_to_le64(p->node_blocks + p->data_blocks);
	cp->rsvd_segment_count = cpu_to_le32(l->rsvd_segment_count);
	cp->overprov_segment_count = cpu_to_le32(l->overprov_segment_count);
	cp->free_segment_count = cpu_to_le32(l->free_segment_count);
	for (t = 0; t < MAX_ACTIVE_NODE_LOGS; t++) {
		cp->cur_node_segno[t] = cpu_to_le32(0xFFFFFFFFu);
		cp->cur_data_segno[t] = cpu_to_le32(0xFFFFFFFFu);
	}
	for (t = 0; t < NR_CURSEG_NODE_TYPE; t++) {
		cp->cur_node_segno[t] = cpu_to_le32(l->cur_seg[CURSEG_HOT_NODE + t]);
		cp->cur_data_segno[t] = cpu_to_le32(l->cur_seg[CURSEG_HOT_DATA + t]);
	}
	cp->cur_node_blkoff[0] = cpu_to_le16((uint16_t)p->node_blocks);
	cp->cur_data_blkoff[0] = cpu_to_le16((uint16_t)p->data_blocks);
	if (l->nat_bits_blocks && ctx->o.nat_bits)
		flags |= CP_NAT_BITS_FLAG;
	if (ctx->trimmed)
		flags |= CP_TRIMMED_FLAG;
	if (l->large_nat_bitmap)
		flags |= CP_LARGE_NAT_BITMAP_FLAG;
	cp->ckpt_flags = cpu_to_le32(flags);
	cp->cp_pack_total_block_count = cpu_to_le32(6 + l->cp_payload);
	cp->cp_pack_start_sum = cpu_to_le32(1 + l->cp_payload);
	cp->valid_node_count = cpu_to_le32(p->node_blocks);
	cp->valid_inode_count = cpu_to_le32(p->node_blocks);
	cp->next_free_nid = cpu_to_le32(p->next_free_nid);
	cp->sit_ver_bitmap_bytesize = cpu_to_le32(l->sit_bitmap_bytes);
	cp->nat_ver_bitmap_bytesize = cpu_to_le32(l->nat_bitmap_bytes);
	cp->checksum_offset = cpu_to_le32(l->large_nat_bitmap ? CP_MIN_CHKSUM_OFFSET
							     : CP_CHKSUM_OFFSET);
	/* Version bitmaps are all zero: copy 0 of SIT and NAT is current. */
	f2fs_cp_checksum(cp, &crc);
	put_le32((uint8_t *)cp + le32_to_cpu(cp->checksum_offset), crc);
}

/* nat_bits: only NAT block 0 is in use, and not full. */
static int write_nat_bits(struct mkfs_ctx *ctx, uint32_t pack_start,
			  const struct f2fs_checkpoint *cp)
{
	const struct f2fs_layout *l = &ctx->layout;
	uint32_t nat_blocks = l->segment_count_nat / 2 * BLKS_PER_SEG;
	uint32_t bytes = nat_blocks / 8, nblk = l->nat_bits_blocks, b;
	uint64_t crc = get_le32((const uint8_t *)cp + le32_to_cpu(cp->checksum_offset));
	uint8_t *buf = f2fs_blocks_zalloc(nblk);
	uint8_t *empty;
	int err;

	if (!buf)
		return -ENOMEM;
	put_le64(buf, le64_to_cpu(cp->checkpoint_ver) | (crc << 32));
	empty = buf + 8 + bytes;
	for (b = 1; b < nat_blocks; b++)
		set_bit_le(b, empty);
	err = f2fs_dev_write(ctx->dev, pack_start + BLKS_PER_SEG - nblk, nblk, buf);
	free(buf);
	return err;
}

static int write_cp_pack(struct mkfs_ctx *ctx, uint32_t pack_start, uint64_t version,
			 const struct f2fs_summary_block sums[NR_CURSEG_TYPE])
{
	const struct f2fs_layout *l = &ctx->layout;
	uint32_t entries[NR_CURSEG_DATA_TYPE] = { ctx->plan.data_blocks, 0, 0 };
	struct f2fs_checkpoint cp;
	uint8_t compact[F2FS_BLKSIZE];
	uint8_t zero[F2FS_BLKSIZE];
	uint32_t k, at = pack_start;
	int err, t;

	build_checkpoint(ctx, &cp, version);
	f2fs_pack_compacted_summaries(sums, entries, compact, 1);
	memset(zero, 0, sizeof(zero));
	if ((err = f2fs_dev_write(ctx->dev, at++, 1, &cp)))
		return err;
	for (k = 0; k < l->cp_payload; k++)
		if ((err = f2fs_dev_write(ctx->dev, at++, 1, zero)))
			return err;
	if ((err = f2fs_dev_write(ctx->dev, at++, 1, compact)))
		return err;
	for (t = CURSEG_HOT_NODE; t <= CURSEG_COLD_NODE; t++)
		if ((err = f2fs_dev_write(ctx->dev, at++, 1, &sums[t])))
			return err;
	if ((err = f2fs_dev_write(ctx->dev, at++, 1, &cp)))
		return err;
	if (le32_to_cpu(cp.ckpt_flags) & CP_NAT_BITS_FLAG)
		return write_nat_bits(ctx, pack_start, &cp);
	return 0;
}

/* ---- the whole run ------------------------------------------------------ */

static int zero_metadata(struct mkfs_ctx *ctx)
{
	const struct f2fs_layout *l = &ctx->layout;
	uint32_t nat_pairs = l->segment_count_nat / 2, s;
	int err;

	err = f2fs_dev_zeroout(ctx->dev, l->sit_blkaddr,
			       (uint64_t)l->segment_count_sit / 2 * BLKS_PER_SEG);
	for (s = 0; !err && s < nat_pairs; s++)
		err = f2fs_dev_zeroout(ctx->dev, l->nat_blkaddr + (uint64_t)s * 2 * BLKS_PER_SEG,
				       BLKS_PER_SEG);
	return err;
}

/* Reset the sequential zones of a zoned device (first: nothing can be
 * written into them before), erase old signatures (-f) and discard (-t 1;
 * not on a zoned device, whose zones were reset) on every device. */
static int prepare_one(struct mkfs_ctx *ctx, struct f2fs_dev *dev, const char *path,
		       bool *trimmed)
{
	int err;

	if (ctx->o.zoned && f2fs_dev_zoned(dev)) {
		err = mkfs_zoned_reset(dev);
		if (err)
			return err;
		*trimmed = false;
	}
	if (ctx->o.force) {
		err = mkfs_wipe_signatures(dev, path);
		if (err)
			return err;
	}
	if (ctx->o.discard && !(ctx->o.zoned && f2fs_dev_zoned(dev))) {
		err = f2fs_dev_discard(dev, 0, f2fs_dev_size(dev) / F2FS_BLKSIZE);
		if (err)
			*trimmed = false;
		if (err && err != -EOPNOTSUPP)
			return err;
	} else {
		*trimmed = false;
	}
	return 0;
}

static int prepare_device(struct mkfs_ctx *ctx)
{
	uint8_t zero[F2FS_BLKSIZE];
	bool trimmed = true;
	unsigned int i;
	int err;

	err = prepare_one(ctx, ctx->dev, ctx->o.device, &trimmed);
	for (i = 0; !err && i < ctx->o.n_extra_dev; i++)
		err = prepare_one(ctx, ctx->extra[i], ctx->o.extra_dev[i], &trimmed);
	if (err)
		return err;
	ctx->trimmed = trimmed;
	memset(zero, 0, sizeof(zero));
	if ((err = f2fs_dev_write(ctx->dev, 0, 1, zero)) ||
	    (err = f2fs_dev_write(ctx->dev, 1, 1, zero)))
		return err;
	/* A hole punched over a whole image file already reads as zeroes;
	 * a discarded block device need not, so it is zeroed explicitly. */
	if (ctx->trimmed && f2fs_dev_is_regular(ctx->dev))
		return 0;
	return zero_metadata(ctx);
}

static int flush_all(struct mkfs_ctx *ctx)
{
	unsigned int i;
	int err = 0;

	for (i = 0; !err && i < ctx->o.n_extra_dev; i++)
		err = f2fs_dev_flush(ctx->extra[i]);
	return err ? err : f2fs_dev_flush(ctx->dev);
}

int mkfs_format(struct mkfs_ctx *ctx)
{
	struct f2fs_summary_block *sums;
	struct f2fs_super_block sb;
	uint32_t cp0 = ctx->layout.cp_blkaddr;
	int err;

	sums = calloc(NR_CURSEG_TYPE, sizeof(*sums));
	if (!sums)
		return -ENOMEM;
	build_summaries(ctx, sums);
	err = prepare_device(ctx);
	if (!err)
		err = write_sit(ctx);
	if (!err)
		err = write_nat(ctx);
	if (!err)
		err = write_ssa(ctx, sums);
	if (!err)
		err = write_tree(ctx);
	/* Pack 2 is an older, valid copy (version 0) so no stale pack from a
	 * previous filesystem can win; pack 1 carries the real version. */
	if (!err)
		err = write_cp_pack(ctx, cp0 + BLKS_PER_SEG, 0, sums);
	if (!err)
		err = write_cp_pack(ctx, cp0, ctx->plan.cp_ver, sums);
	if (!err)
		err = flush_all(ctx);
	if (!err) {
		build_superblock(ctx, &sb);
		err = f2fs_sb_write_copy(ctx->dev, 1, &sb);
		if (!err)
			err = f2fs_sb_write_copy(ctx->dev, 0, &sb);
	}
	if (!err)
		err = f2fs_dev_flush(ctx->dev);
	free(sums);
	return err;
}
