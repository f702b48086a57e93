/*
 * mount.c - opening a volume the way the kernel mounts it: pick the first
 * valid superblock copy, pick the newest valid checkpoint pack, load its
 * payload (version bitmaps) and current-segment summaries, and derive the
 * geometry every other part of lib/ uses.  What was wrong with a copy or
 * pack is recorded in struct f2fs_fs for a checker to report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs_fs.h"
#include "f2fs_err.h"
#include "f2fs_crc.h"
#include "f2fs_mount.h"
#include "f2fs_super.h"
#include "f2fs_ckpt.h"

static void read_superblocks(struct f2fs_fs *fs)
{
	uint64_t dev_blocks = fs->dev->size_bytes / F2FS_BLKSIZE;
	int i;

	fs->sb_index = -1;
	for (i = 0; i < 2; i++) {
		struct f2fs_check_result *r = &fs->sb_check[i];

		r->err = f2fs_sb_read_copy(fs->dev, i, &fs->sb_copy[i]);
		if (r->err) {
			r->why = "cannot read the superblock";
			continue;
		}
		r->err = f2fs_sb_validate(&fs->sb_copy[i], dev_blocks, &r->why);
		if (!r->err && fs->sb_index < 0)
			fs->sb_index = i;
	}
	if (fs->sb_index >= 0)
		fs->sb = fs->sb_copy[fs->sb_index];
}

static void derive_geometry(struct f2fs_fs *fs)
{
	const struct f2fs_super_block *sb = &fs->sb;

	fs->features = le32_to_cpu(sb->feature);
	fs->segs_per_sec = le32_to_cpu(sb->segs_per_sec);
	fs->main_segs = le32_to_cpu(sb->segment_count_main);
	fs->main_secs = le32_to_cpu(sb->section_count);
	fs->main_blkaddr = le32_to_cpu(sb->main_blkaddr);
	fs->sit_blkaddr = le32_to_cpu(sb->sit_blkaddr);
	fs->nat_blkaddr = le32_to_cpu(sb->nat_blkaddr);
	fs->ssa_blkaddr = le32_to_cpu(sb->ssa_blkaddr);
	fs->sit_blocks = (le32_to_cpu(sb->segment_count_sit) / 2) * BLKS_PER_SEG;
	fs->sit_blk_cnt = (fs->main_segs + SIT_ENTRY_PER_BLOCK - 1) / SIT_ENTRY_PER_BLOCK;
	fs->nat_blocks = (le32_to_cpu(sb->segment_count_nat) / 2) * BLKS_PER_SEG;
	fs->max_nid = fs->nat_blocks * (uint32_t)NAT_ENTRY_PER_BLOCK;
	fs->inode_chksum_seed = f2fs_inode_chksum_seed(sb->uuid);
	fs->ndevs = 1;
	if (sb->devs[0].path[0]) {
		fs->ndevs = 0;
		while (fs->ndevs < MAX_DEVICES && sb->devs[fs->ndevs].path[0])
			fs->ndevs++;
	}
}

/* Read both packs and choose the newer valid one (signed difference). */
static int choose_checkpoint(struct f2fs_fs *fs, uint8_t first[2][F2FS_BLKSIZE])
{
	uint32_t cp_blkaddr = le32_to_cpu(fs->sb.cp_blkaddr);
	int i;

	fs->cp_index = -1;
	for (i = 0; i < 2; i++) {
		struct f2fs_check_result *r = &fs->cp_check[i];

		r->err = f2fs_cp_pack_read(fs->dev, cp_blkaddr + (uint32_t)i * BLKS_PER_SEG,
					   first[i], &fs->cp_version[i], &r->why);
	}
	if (!fs->cp_check[0].err && !fs->cp_check[1].err)
		fs->cp_index = (int64_t)(fs->cp_version[1] - fs->cp_version[0]) > 0 ? 1 : 0;
	else if (!fs->cp_check[0].err)
		fs->cp_index = 0;
	else if (!fs->cp_check[1].err)
		fs->cp_index = 1;
	if (fs->cp_index < 0)
		return -EFSCORRUPTED;
	fs->cp_start_blkaddr = cp_blkaddr + (uint32_t)fs->cp_index * BLKS_PER_SEG;
	return 0;
}

static int load_checkpoint(struct f2fs_fs *fs)
{
	uint8_t first[2][F2FS_BLKSIZE];
	uint32_t payload = le32_to_cpu(fs->sb.cp_payload);
	uint32_t sit_off, nat_off;
	int err;

	err = choose_checkpoint(fs, first);
	if (err)
		return err;
	fs->cp_buf = calloc(1 + payload, F2FS_BLKSIZE);
	if (!fs->cp_buf)
		return -ENOMEM;
	memcpy(fs->cp_buf, first[fs->cp_index], F2FS_BLKSIZE);
	if (payload) {
		err = f2fs_dev_read(fs->dev, (uint64_t)fs->cp_start_blkaddr + 1, payload,
				    fs->cp_buf + F2FS_BLKSIZE);
		if (err)
			return err;
	}
	fs->cp = (struct f2fs_checkpoint *)fs->cp_buf;
	fs->cp_flags = le32_to_cpu(fs->cp->ckpt_flags);
	fs->ckpt_sanity.err = f2fs_ckpt_validate(&fs->sb, fs->cp, &fs->ckpt_sanity.why);

	fs->sit_bitmap_size = le32_to_cpu(fs->cp->sit_ver_bitmap_bytesize);
	fs->nat_bitmap_size = le32_to_cpu(fs->cp->nat_ver_bitmap_bytesize);
	err = f2fs_cp_bitmap_locate(fs->cp, payload, &sit_off, &nat_off);
	if (err || fs->sit_bitmap_size * 8 < fs->sit_blk_cnt ||
	    (uint64_t)fs->nat_bitmap_size * 8 < fs->nat_blocks) {
		if (!fs->ckpt_sanity.err) {
			fs->ckpt_sanity.err = -EFSCORRUPTED;
			fs->ckpt_sanity.why = "version bitmaps do not fit the checkpoint";
		}
		return -EFSCORRUPTED;
	}
	fs->sit_bitmap = fs->cp_buf + sit_off;
	fs->nat_bitmap = fs->cp_buf + nat_off;
	return 0;
}

static void load_cursegs(struct f2fs_fs *fs)
{
	int i;

	for (i = 0; i < NR_CURSEG_DATA_TYPE; i++) {
		fs->curseg_segno[i] = le32_to_cpu(fs->cp->cur_data_segno[i]);
		fs->curseg_blkoff[i] = le16_to_cpu(fs->cp->cur_data_blkoff[i]);
		fs->curseg_segno[CURSEG_HOT_NODE + i] = le32_to_cpu(fs->cp->cur_node_segno[i]);
		fs->curseg_blkoff[CURSEG_HOT_NODE + i] = le16_to_cpu(fs->cp->cur_node_blkoff[i]);
	}
	fs->cursum_load_err = f2fs_fs_load_cursums(fs);
}

int f2fs_fs_open_dev(struct f2fs_dev *dev, struct f2fs_fs **out)
{
	struct f2fs_fs *fs = calloc(1, sizeof(*fs));
	int err;

	*out = NULL;
	if (!fs) {
		f2fs_dev_close(dev);
		return -ENOMEM;
	}
	fs->dev = dev;
	*out = fs;
	read_superblocks(fs);
	if (fs->sb_index < 0)
		return -EFSCORRUPTED;
	derive_geometry(fs);
	err = load_checkpoint(fs);
	if (err)
		return err;
	load_cursegs(fs);
	return 0;
}

int f2fs_fs_open(const char *path, const struct f2fs_dev_opts *opts,
		 struct f2fs_fs **out)
{
	struct f2fs_dev_opts ro = { .read_only = true };
	struct f2fs_dev *dev;
	int err;

	*out = NULL;
	err = f2fs_dev_open(path, opts ? opts : &ro, &dev);
	if (err)
		return err;
	return f2fs_fs_open_dev(dev, out);
}

void f2fs_fs_close(struct f2fs_fs *fs)
{
	if (!fs)
		return;
	f2fs_dev_close(fs->dev);
	free(fs->cp_buf);
	free(fs);
}

uint32_t f2fs_current_sit_addr(const struct f2fs_fs *fs, uint32_t sit_block)
{
	uint32_t addr = fs->sit_blkaddr + sit_block;

	if (f2fs_test_bit(sit_block, fs->sit_bitmap))
		addr += fs->sit_blocks;
	return addr;
}

uint32_t f2fs_next_sit_addr(const struct f2fs_fs *fs, uint32_t sit_block)
{
	uint32_t addr = fs->sit_blkaddr + sit_block;

	if (!f2fs_test_bit(sit_block, fs->sit_bitmap))
		addr += fs->sit_blocks;
	return addr;
}

static uint32_t nat_copy0_addr(const struct f2fs_fs *fs, uint32_t nat_block)
{
	uint32_t seg = nat_block / BLKS_PER_SEG;

	return fs->nat_blkaddr + seg * 2 * BLKS_PER_SEG + nat_block % BLKS_PER_SEG;
}

uint32_t f2fs_current_nat_addr(const struct f2fs_fs *fs, uint32_t nat_block)
{
	uint32_t addr = nat_copy0_addr(fs, nat_block);

	if (f2fs_test_bit(nat_block, fs->nat_bitmap))
		addr += BLKS_PER_SEG;
	return addr;
}

uint32_t f2fs_next_nat_addr(const struct f2fs_fs *fs, uint32_t nat_block)
{
	uint32_t addr = nat_copy0_addr(fs, nat_block);

	if (!f2fs_test_bit(nat_block, fs->nat_bitmap))
		addr += BLKS_PER_SEG;
	return addr;
}

int f2fs_nat_journal_slot(struct f2fs_fs *fs, uint32_t nid)
{
	const struct f2fs_journal *j = f2fs_nat_journal(fs);
	uint32_t n = le16_to_cpu(j->n_nats), i;

	if (!fs->cursum_loaded)
		return -1;
	for (i = 0; i < n && i < NAT_JOURNAL_ENTRIES; i++)
		if (le32_to_cpu(j->nat_j.entries[i].nid) == nid)
			return (int)i;
	return -1;
}

int f2fs_fs_open_members(struct f2fs_fs *fs, const struct f2fs_dev_opts *opts, uint32_t *failed)
{
	const struct f2fs_super_block *sb = &fs->sb;
	uint64_t next;

	*failed = 0;
	if (fs->ndevs <= 1)
		return 0;
	next = (uint64_t)le32_to_cpu(sb->segment0_blkaddr) +
	       (uint64_t)le32_to_cpu(sb->devs[0].total_segments) * BLKS_PER_SEG;
	f2fs_dev_set_own_blocks(fs->dev, next);
	if (fs->dev->own_bytes < next * F2FS_BLKSIZE)
		return -EINVAL;	/* device 0 is smaller than its stretch */
	for (uint32_t i = 1; i < fs->ndevs; i++) {
		uint64_t n = (uint64_t)le32_to_cpu(sb->devs[i].total_segments) * BLKS_PER_SEG;
		char path[MAX_PATH_LEN + 1];
		struct f2fs_dev *m;
		int err;

		*failed = i;
		memcpy(path, sb->devs[i].path, MAX_PATH_LEN);
		path[MAX_PATH_LEN] = 0;
		err = f2fs_dev_open(path, opts, &m);
		if (err)
			return err;
		err = f2fs_dev_attach(fs->dev, m, next, n);
		if (err) {
			f2fs_dev_close(m);
			return err;
		}
		next += n;
	}
	*failed = 0;
	return 0;
}

void f2fs_fs_member_error(const struct f2fs_fs *fs, uint32_t failed, int err, char *buf,
			  size_t len)
{
	char path[MAX_PATH_LEN + 1] = "";

	if (failed < MAX_DEVICES) {
		memcpy(path, fs->sb.devs[failed].path, MAX_PATH_LEN);
		path[MAX_PATH_LEN] = 0;
	}
	snprintf(buf, len, "device %u of the volume, %s: %s", failed, path,
		 err == -EINVAL ? "smaller than the volume says" : f2fs_strerror(err));
}
