/*
 * mount.c - opening a volume the way the kernel mounts it: pick the first
 * valid superblock copy, pick the newest valid checkpoint pack, load its
 * payload (version bitmaps) and current-segment summaries, and derive the
 * geometry every other part of lib/ uses.  What was wrong with a copy or
 * pack is recorded in struct f2fs_fs for a checker to report.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs_fs.h"
#include "f2fs_err.h"
#include "f2fs_crc.h"
#include "f2fs_mount.h"
#include "f2fs_super.h"
#include "f2fs_ckpt.h"
#include "f2fs_features.h"
#include "f2fs_quota.h"

static void read_superblocks(struct f2fs_fs *fs)
{
	uint64_t dev_blocks = f2fs_dev_size(fs->dev) / F2FS_BLKSIZE;
	int i;

	fs->sb_index = -1;
	for (i = 0; i < 2; i++) {
		struct f2fs_check_result *r = &fs->sb_check[i];

		r->err = f2fs_sb_read_copy(fs->dev, i, &fs->sb_copy[i]);
		if (r->err) {
			memset(&fs->sb_copy[i], 0, sizeof(fs->sb_copy[i]));
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

/* ---- salvage: a superblock rebuilt from two damaged copies ---------- */

/* The cp_payload the newest readable pack at cp_blkaddr implies (a valid
 * one, else one whose only fault is its crc). */
static uint32_t implied_payload(struct f2fs_fs *fs, uint32_t cp_blkaddr)
{
	uint8_t blk[2][F2FS_BLKSIZE];
	uint64_t ver[2];
	int best = -1;

	for (int i = 0; i < 2; i++) {
		uint32_t start = cp_blkaddr + (uint32_t)i * BLKS_PER_SEG;
		const char *why;

		if (f2fs_cp_pack_read(fs->dev, start, blk[i], &ver[i], &why) &&
		    f2fs_cp_pack_read_crc_only(fs->dev, start, blk[i], &ver[i], &why))
			continue;
		if (best < 0 || f2fs_cp_version_newer(ver[i], ver[best]))
			best = i;
	}
	if (best >= 0) {
		uint32_t payload;

		if (!f2fs_cp_implied_payload(fs->dev, cp_blkaddr + (uint32_t)best * BLKS_PER_SEG,
					     (const void *)blk[best], &payload))
			return payload;
	}
	return F2FS_CP_PAYLOAD_UNKNOWN;
}

static void note_sb_derived(struct f2fs_fs *fs, const struct f2fs_super_block *const copies[2])
{
	struct f2fs_salvage *s = &fs->salvage;

	for (int c = 0; c < 2; c++) {
		if (!copies[c])
			continue;
		for (unsigned int i = 0; i < f2fs_sb_derivable_count(); i++) {
			uint64_t found = f2fs_sb_derivable_get(copies[c], i);
			uint64_t value = f2fs_sb_derivable_get(&fs->sb, i);

			if (found != value && s->n_sb_derived < F2FS_MAX_SB_DERIVED)
				s->sb_derived[s->n_sb_derived++] = (struct f2fs_sb_derived){
					.copy = c, .field = i, .found = found, .value = value };
		}
	}
}

static bool has_magic(const struct f2fs_super_block *sb)
{
	return le32_to_cpu(sb->magic) == F2FS_SUPER_MAGIC;
}

/* Both copies invalid: rebuild from those carrying the magic (none: not
 * an F2FS volume, nothing tried).  Confirmed by salvage_unconfirmed(). */
static void rebuild_superblock(struct f2fs_fs *fs)
{
	const struct f2fs_super_block *copies[2];
	uint32_t payload;
	int base;

	for (int i = 0; i < 2; i++)
		copies[i] = has_magic(&fs->sb_copy[i]) ? &fs->sb_copy[i] : NULL;
	if (!copies[0] && !copies[1])
		return;
	base = copies[0] ? 0 : 1;
	payload = implied_payload(fs, le32_to_cpu(copies[base]->cp_blkaddr));
	if (f2fs_sb_rebuild(copies, f2fs_dev_size(fs->dev) / F2FS_BLKSIZE, payload, &fs->sb,
			    &fs->salvage.sb_refused))
		return;
	fs->sb_index = base;
	fs->salvage.sb_rebuilt = true;
	note_sb_derived(fs, copies);
}

/* ---- checkpoint ------------------------------------------------------ */

/* Whether pack `other`, not in use, failed on an I/O error and may hold a
 * newer checkpoint than the pack in use: its first block could not be
 * read (its version is unknown), or that block is sound and names a newer
 * version (the last block failed). */
static bool unread_pack_maybe_newer(const struct f2fs_fs *fs, const uint8_t *first, int other)
{
	const struct f2fs_checkpoint *cp = (const void *)first;
	int err = fs->cp_check[other].err;
	const char *why;

	if (err != -EIO)	/* a damaged or torn pack is no read error */
		return false;
	if (f2fs_cp_block_validate(cp, &why))
		return true;
	return f2fs_cp_version_newer(le64_to_cpu(cp->checkpoint_ver),
				     fs->cp_version[fs->cp_index]);
}

/* Read both packs and choose the newer valid one (signed difference). */
static int choose_checkpoint(struct f2fs_fs *fs, uint8_t first[2][F2FS_BLKSIZE])
{
	uint32_t cp_blkaddr = le32_to_cpu(fs->sb.cp_blkaddr);
	int i;

	fs->cp_index = -1;
	fs->cp_unread_maybe_newer = false;
	for (i = 0; i < 2; i++) {
		struct f2fs_check_result *r = &fs->cp_check[i];

		memset(first[i], 0, F2FS_BLKSIZE);
		r->err = f2fs_cp_pack_read(fs->dev, cp_blkaddr + (uint32_t)i * BLKS_PER_SEG,
					   first[i], &fs->cp_version[i], &r->why);
	}
	if (!fs->cp_check[0].err && !fs->cp_check[1].err)
		fs->cp_index = f2fs_cp_version_newer(fs->cp_version[1], fs->cp_version[0]) ? 1 : 0;
	else if (!fs->cp_check[0].err)
		fs->cp_index = 0;
	else if (!fs->cp_check[1].err)
		fs->cp_index = 1;
	if (fs->cp_index < 0)
		return -EFSCORRUPTED;
	fs->cp_unread_maybe_newer = unread_pack_maybe_newer(fs, first[1 - fs->cp_index],
							    1 - fs->cp_index);
	fs->cp_start_blkaddr = cp_blkaddr + (uint32_t)fs->cp_index * BLKS_PER_SEG;
	return 0;
}

/* Salvage: no valid pack; take the newest whose only fault is its crc and
 * that passes every rule of f2fs_ckpt_validate(). */
static int choose_crc_only_pack(struct f2fs_fs *fs, uint8_t first[2][F2FS_BLKSIZE])
{
	uint32_t cp_blkaddr = le32_to_cpu(fs->sb.cp_blkaddr);
	const char *why = "no pack fails only its checksum";
	uint64_t ver[2];
	int best = -1;

	for (int i = 0; i < 2; i++) {
		const char *w;

		if (f2fs_cp_pack_read_crc_only(fs->dev, cp_blkaddr + (uint32_t)i * BLKS_PER_SEG,
					       first[i], &ver[i], &w))
			continue;
		if (f2fs_ckpt_validate(&fs->sb, (const void *)first[i], &w)) {
			why = "a pack that fails only its checksum breaks a rule of the kernel's as well";
			continue;
		}
		if (best < 0 || f2fs_cp_version_newer(ver[i], ver[best]))
			best = i;
	}
	if (best < 0) {
		fs->salvage.cp_refused = why;
		return -EFSCORRUPTED;
	}
	fs->cp_index = best;
	fs->cp_version[best] = ver[best];
	fs->cp_start_blkaddr = cp_blkaddr + (uint32_t)best * BLKS_PER_SEG;
	fs->salvage.cp_crc_only = true;
	return 0;
}

/* The cp block of pack `pack` (first) and its cp_payload blocks, in one
 * new buffer. */
static int read_pack_buffer(struct f2fs_fs *fs, int pack, const uint8_t *first, uint8_t **out)
{
	uint32_t payload = le32_to_cpu(fs->sb.cp_payload);
	uint32_t start = le32_to_cpu(fs->sb.cp_blkaddr) + (uint32_t)pack * BLKS_PER_SEG;
	uint8_t *buf = f2fs_blocks_zalloc((size_t)1 + payload);
	int err = 0;

	if (!buf)
		return -ENOMEM;
	memcpy(buf, first, F2FS_BLKSIZE);
	if (payload)
		err = f2fs_dev_read(fs->dev, (uint64_t)start + 1, payload, buf + F2FS_BLKSIZE);
	if (err) {
		free(buf);
		return err;
	}
	*out = buf;
	return 0;
}

static void use_pack_buffer(struct f2fs_fs *fs, int pack, uint8_t *buf)
{
	free(fs->cp_buf);
	fs->cp_buf = buf;
	fs->cp = (struct f2fs_checkpoint *)buf;
	fs->cp_flags = le32_to_cpu(fs->cp->ckpt_flags);
	fs->cp_index = pack;
	fs->cp_start_blkaddr = le32_to_cpu(fs->sb.cp_blkaddr) + (uint32_t)pack * BLKS_PER_SEG;
}

/* The older pack in place of the newest one, when it is usable once its
 * own derivable fields are recomputed. */
static void fall_back_to_older_pack(struct f2fs_fs *fs, uint8_t first[2][F2FS_BLKSIZE],
				    const char *newest_why)
{
	struct f2fs_salvage *s = &fs->salvage;
	int older = 1 - fs->cp_index;
	struct f2fs_cp_derived derived[F2FS_CP_MAX_DERIVED];
	struct f2fs_check_result sanity;
	unsigned int n;
	const char *why;
	uint8_t *buf;

	if (fs->cp_check[older].err || read_pack_buffer(fs, older, first[older], &buf))
		return;
	sanity.err = f2fs_ckpt_validate(&fs->sb, (const void *)buf, &sanity.why);
	n = f2fs_ckpt_derive(&fs->sb, (void *)buf, derived);
	if (f2fs_ckpt_check_layout(&fs->sb, (const void *)buf, &why)) {
		free(buf);
		return;
	}
	s->cp_dropped = fs->cp_index;
	s->cp_dropped_why = newest_why;
	use_pack_buffer(fs, older, buf);
	fs->ckpt_sanity = sanity;
	s->n_cp_derived = n;
	memcpy(s->cp_derived, derived, sizeof(derived));
}

/* Salvage: the chosen pack fails f2fs_ckpt_validate().  Recompute what
 * the superblock implies; if where the pack's parts lie still cannot be
 * told, go on from the older pack when it can. */
static void salvage_pack(struct f2fs_fs *fs, uint8_t first[2][F2FS_BLKSIZE])
{
	struct f2fs_salvage *s = &fs->salvage;
	const char *why;

	s->n_cp_derived = f2fs_ckpt_derive(&fs->sb, fs->cp, s->cp_derived);
	fs->cp_flags = le32_to_cpu(fs->cp->ckpt_flags);
	if (f2fs_ckpt_check_layout(&fs->sb, fs->cp, &why))
		fall_back_to_older_pack(fs, first, why);
}

static int locate_bitmaps(struct f2fs_fs *fs)
{
	uint32_t sit_off, nat_off;
	int err;

	fs->sit_bitmap_size = le32_to_cpu(fs->cp->sit_ver_bitmap_bytesize);
	fs->nat_bitmap_size = le32_to_cpu(fs->cp->nat_ver_bitmap_bytesize);
	err = f2fs_cp_bitmap_locate(fs->cp, le32_to_cpu(fs->sb.cp_payload), &sit_off, &nat_off);
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

static int load_checkpoint(struct f2fs_fs *fs, bool salvage)
{
	uint8_t first[2][F2FS_BLKSIZE];
	uint8_t *buf;
	int err;

	err = choose_checkpoint(fs, first);
	if (err && salvage)
		err = choose_crc_only_pack(fs, first);
	if (err)
		return err;
	err = read_pack_buffer(fs, fs->cp_index, first[fs->cp_index], &buf);
	if (err)
		return err;
	use_pack_buffer(fs, fs->cp_index, buf);
	fs->ckpt_sanity.err = f2fs_ckpt_validate(&fs->sb, fs->cp, &fs->ckpt_sanity.why);
	if (fs->ckpt_sanity.err && salvage)
		salvage_pack(fs, first);
	return locate_bitmaps(fs);
}

static bool journals_in_range(const struct f2fs_fs *fs)
{
	return le16_to_cpu(fs->cursum[CURSEG_HOT_DATA].journal.n_nats) <= NAT_JOURNAL_ENTRIES &&
	       le16_to_cpu(fs->cursum[CURSEG_COLD_DATA].journal.n_sits) <= SIT_JOURNAL_ENTRIES;
}

/* Salvage: cp with one field set to value (in memory), kept when the
 * summaries load with it and their journals hold what the kernel
 * accepts; put back otherwise. */
static bool summaries_load_with(struct f2fs_fs *fs, size_t field_off, uint32_t value,
				const char *name)
{
	struct f2fs_salvage *s = &fs->salvage;
	uint8_t *field = (uint8_t *)fs->cp + field_off;
	uint32_t found = get_le32(field);

	if (value == found || s->n_cp_derived >= F2FS_CP_MAX_DERIVED)
		return false;
	put_le32(field, value);
	fs->cp_flags = le32_to_cpu(fs->cp->ckpt_flags);
	if (f2fs_fs_load_cursums(fs) || !journals_in_range(fs)) {
		put_le32(field, found);
		fs->cp_flags = le32_to_cpu(fs->cp->ckpt_flags);
		fs->cursum_loaded = false;
		return false;
	}
	fs->cursum_load_err = 0;
	s->cp_derived[s->n_cp_derived++] = (struct f2fs_cp_derived){
		.field = name, .found = found, .value = value };
	return true;
}

/* Salvage: the summaries cannot be loaded (or their journals hold more
 * than the kernel accepts) as the pack's fields say.  A pack whose crc
 * holds was written as one: take cp_pack_start_sum as the pack's
 * orphan blocks place it, else the layout bits of ckpt_flags as its
 * block counts imply them, when the summaries load from there. */
static bool derive_summary_fields(struct f2fs_fs *fs)
{
	uint32_t payload = le32_to_cpu(fs->sb.cp_payload), value;
	struct f2fs_checkpoint *cp = fs->cp;

	if (!f2fs_cp_layout_start_sum(fs->dev, fs->cp_start_blkaddr, cp, payload, &value) &&
	    summaries_load_with(fs, offsetof(struct f2fs_checkpoint, cp_pack_start_sum), value,
				"cp_pack_start_sum"))
		return true;
	return !f2fs_cp_layout_flags(fs->dev, fs->cp_start_blkaddr, cp, payload, &value) &&
	       summaries_load_with(fs, offsetof(struct f2fs_checkpoint, ckpt_flags), value,
				       "ckpt_flags");
}

static void load_cursegs(struct f2fs_fs *fs, bool salvage)
{
	int i;

	for (i = 0; i < NR_CURSEG_DATA_TYPE; i++) {
		fs->curseg_segno[i] = le32_to_cpu(fs->cp->cur_data_segno[i]);
		fs->curseg_blkoff[i] = le16_to_cpu(fs->cp->cur_data_blkoff[i]);
		fs->curseg_segno[CURSEG_HOT_NODE + i] = le32_to_cpu(fs->cp->cur_node_segno[i]);
		fs->curseg_blkoff[CURSEG_HOT_NODE + i] = le16_to_cpu(fs->cp->cur_node_blkoff[i]);
	}
	fs->cursum_load_err = f2fs_fs_load_cursums(fs);
	if (salvage && (fs->cursum_load_err == -EFSCORRUPTED ||
			 (!fs->cursum_load_err && !journals_in_range(fs))) &&
	    !derive_summary_fields(fs))
		fs->cursum_load_err = f2fs_fs_load_cursums(fs);
}

/* Salvage: nothing derived lets the newest pack's summaries load; go on
 * from the older pack when it is valid and its own summaries load. */
static void summaries_from_older_pack(struct f2fs_fs *fs)
{
	uint8_t first[2][F2FS_BLKSIZE];
	int newest = fs->cp_index, older = 1 - newest;

	if (fs->cursum_load_err != -EFSCORRUPTED || fs->salvage.cp_dropped >= 0 ||
	    fs->cp_check[older].err ||
	    f2fs_dev_read(fs->dev, le32_to_cpu(fs->sb.cp_blkaddr) + (uint32_t)older * BLKS_PER_SEG,
			  1, first[older]))
		return;
	fall_back_to_older_pack(fs, first, fs->ckpt_sanity.err ? fs->ckpt_sanity.why :
				"its summaries load neither where its fields say nor where "
				"anything derived says");
	if (fs->cp_index == newest)
		return;
	if (locate_bitmaps(fs)) {
		fs->cursum_load_err = -EFSCORRUPTED;
		return;
	}
	load_cursegs(fs, true);
}

/* ---- salvage: confirming what was rebuilt ---------------------------- */

int f2fs_fs_nat_entry(struct f2fs_fs *fs, uint32_t nid, struct f2fs_nat_entry *e)
{
	int slot = f2fs_nat_journal_slot(fs, nid);
	struct f2fs_nat_block blk;
	int err;

	if (nid >= fs->max_nid)
		return -EINVAL;
	if (slot >= 0) {
		*e = f2fs_nat_journal(fs)->nat_j.entries[slot].ne;
		return 0;
	}
	err = f2fs_dev_read(fs->dev, f2fs_current_nat_addr(fs, nid / (uint32_t)NAT_ENTRY_PER_BLOCK),
			    1, &blk);
	if (!err)
		*e = blk.entries[nid % NAT_ENTRY_PER_BLOCK];
	return err;
}

int f2fs_fs_sit_entry(struct f2fs_fs *fs, uint32_t segno, struct f2fs_sit_entry *se)
{
	const struct f2fs_journal *j = f2fs_sit_journal(fs);
	uint32_t n = le16_to_cpu(j->n_sits);
	struct f2fs_sit_block blk;
	int err;

	if (segno >= fs->main_segs)
		return -EINVAL;
	for (uint32_t i = 0; fs->cursum_loaded && i < n && i < SIT_JOURNAL_ENTRIES; i++)
		if (le32_to_cpu(j->sit_j.entries[i].segno) == segno) {
			*se = j->sit_j.entries[i].se;
			return 0;
		}
	err = f2fs_dev_read(fs->dev, f2fs_current_sit_addr(fs, segno / (uint32_t)SIT_ENTRY_PER_BLOCK),
			    1, &blk);
	if (!err)
		*se = blk.entries[segno % SIT_ENTRY_PER_BLOCK];
	return err;
}

/* The root inode where the checkpoint's NAT says, a directory, valid in
 * its SIT: NULL, or why not. */
static const char *root_not_found(struct f2fs_fs *fs)
{
	struct f2fs_nat_entry e;
	struct f2fs_sit_entry se;
	struct f2fs_node node;
	uint32_t addr;

	if (f2fs_fs_nat_entry(fs, F2FS_ROOT_INO, &e))
		return "the root inode's NAT entry cannot be read";
	addr = le32_to_cpu(e.block_addr);
	if (!f2fs_blkaddr_in_main(fs, addr))
		return "the root inode's NAT entry does not point into the main area";
	if (f2fs_dev_read(fs->dev, addr, 1, &node))
		return "the root inode's block cannot be read";
	if (le32_to_cpu(node.footer.nid) != F2FS_ROOT_INO || le32_to_cpu(node.footer.ino) != F2FS_ROOT_INO)
		return "the block the root's NAT entry names is not the root inode";
	if ((le16_to_cpu(node.i.i_mode) & 0170000) != 0040000)
		return "the root inode is not a directory";
	if (f2fs_fs_sit_entry(fs, f2fs_blkaddr_to_segno(fs, addr), &se) ||
	    !f2fs_test_bit((addr - fs->main_blkaddr) % BLKS_PER_SEG, se.valid_map))
		return "the root inode's block is not valid in SIT";
	return NULL;
}

/* A rebuilt superblock needs a pack the kernel's rules accept against
 * it; either salvage needs the pack's summaries and the root. */
static const char *salvage_unconfirmed(struct f2fs_fs *fs, int load_err)
{
	if (load_err)
		return fs->salvage.sb_rebuilt ? "no checkpoint pack fits the rebuilt superblock" :
						"the checkpoint cannot be loaded";
	if (fs->salvage.sb_rebuilt && fs->ckpt_sanity.err)
		return "the checkpoint breaks the kernel's rules against the rebuilt superblock";
	if (!fs->cursum_loaded || fs->cursum_load_err)
		return "the checkpoint's summaries cannot be loaded";
	return root_not_found(fs);
}

/* Undo an unconfirmed salvage: the volume is as the kernel sees it. */
static void drop_salvage(struct f2fs_fs *fs, const char *why)
{
	struct f2fs_salvage *s = &fs->salvage;

	free(fs->cp_buf);
	fs->cp_buf = NULL;
	fs->cp = NULL;
	fs->cp_index = -1;
	fs->cursum_loaded = false;
	if (s->sb_rebuilt) {
		fs->sb_index = -1;
		memset(&fs->sb, 0, sizeof(fs->sb));
		s->sb_rebuilt = false;
		s->n_sb_derived = 0;
		s->sb_refused = why;
	} else {
		s->cp_refused = why;
	}
	s->cp_crc_only = false;
	s->cp_dropped = -1;
	s->n_cp_derived = 0;
}

/* A read-only image (RO feature) has no reserved segments (mkfs makes
 * it so, and nothing writes it after), which the kernel requires of every
 * other volume.  (Overprovision segments tell nothing: f2fs-tools 1.15
 * gives a read-only image none, 1.16 some.) */
static bool ro_contradicted(const struct f2fs_super_block *sb, const struct f2fs_checkpoint *cp)
{
	return (le32_to_cpu(sb->feature) & F2FS_FEATURE_RO) && cp->rsvd_segment_count;
}

/* Whether the checkpoint the kernel would choose agrees with superblock
 * copy i: NULL, or why not. */
static const char *checkpoint_disagrees(struct f2fs_fs *fs, int i)
{
	uint8_t first[2][F2FS_BLKSIZE];
	const struct f2fs_checkpoint *cp;
	const char *why;

	fs->sb = fs->sb_copy[i];
	if (choose_checkpoint(fs, first))
		return "no checkpoint pack is valid against it";
	cp = (const void *)first[fs->cp_index];
	if (f2fs_ckpt_validate(&fs->sb, cp, &why))
		return "the checkpoint breaks the kernel's rules against it (the kernel refuses "
		       "to mount) but not against the other copy, which is in use";
	if (ro_contradicted(&fs->sb, cp))
		return "it says read-only (the RO feature, which the kernel mounts read-only "
		       "only), but the checkpoint has reserved segments, which a read-only image "
		       "has not; the other copy agrees with the checkpoint";
	return NULL;
}

/* Salvage: two valid copies that differ, and the checkpoint breaks the
 * kernel's rules against the first (the one the kernel takes) but not
 * against the other: the first is the damaged one, go on from the other. */
static void choose_copy_checkpoint_agrees(struct f2fs_fs *fs)
{
	int first = fs->sb_index, other = 1 - first;
	const char *why;

	if (first < 0 || fs->sb_check[other].err ||
	    !memcmp(&fs->sb_copy[0], &fs->sb_copy[1], sizeof(fs->sb_copy[0])))
		return;
	why = checkpoint_disagrees(fs, first);
	if (why && !checkpoint_disagrees(fs, other)) {
		fs->sb_index = other;
		fs->salvage.sb_cp_disagrees = first;
		fs->salvage.sb_cp_disagrees_why = why;
	}
	fs->sb = fs->sb_copy[fs->sb_index];
	fs->cp_index = -1;
}

/* Whether two valid copies differ in their feature word only (and the
 * checksum that covers it): the geometry is the same under either. */
static bool copies_differ_in_features_only(const struct f2fs_fs *fs)
{
	struct f2fs_super_block a = fs->sb_copy[0], b = fs->sb_copy[1];

	if (a.feature == b.feature)
		return false;
	if ((le32_to_cpu(a.feature) ^ le32_to_cpu(b.feature)) & F2FS_FEATURE_RO)
		return false;
	b.feature = a.feature;
	b.crc = a.crc;
	return !memcmp(&a, &b, sizeof(a));
}

static bool read_root_inode(struct f2fs_fs *fs, struct f2fs_node *node)
{
	struct f2fs_nat_entry e;
	uint32_t addr;

	if (f2fs_fs_nat_entry(fs, F2FS_ROOT_INO, &e))
		return false;
	addr = le32_to_cpu(e.block_addr);
	if (!f2fs_blkaddr_in_main(fs, addr) || f2fs_dev_read(fs->dev, addr, 1, node))
		return false;
	return le32_to_cpu(node->footer.nid) == F2FS_ROOT_INO &&
	       le32_to_cpu(node->footer.ino) == F2FS_ROOT_INO;
}

/* Why the kernel would fail to read the root inode (so the mount) under
 * feature word `features`, for the rules a feature word decides
 * (sanity_check_inode(), the inode checksum of every inode read); NULL
 * when none does. */
static const char *root_refused_by_features(const struct f2fs_fs *fs, uint32_t features,
					    const struct f2fs_node *root)
{
	bool extra = root->i.i_inline & F2FS_EXTRA_ATTR;

	if (f2fs_features_missing_extra_attr(features))
		return "its features need extra_attr, which it lacks (the kernel refuses every "
		       "inode, the root first), but the other copy's fit the inodes";
	if (extra && !(features & F2FS_FEATURE_EXTRA_ATTR))
		return "it lacks extra_attr, but the root inode has extra attributes (the kernel "
		       "refuses it), and the other copy's features fit the inodes";
	if (!extra && (features & F2FS_FEATURE_FLEXIBLE_INLINE_XATTR))
		return "it has flexible_inline_xattr, but the root inode has no extra attributes "
		       "(the kernel refuses it), and the other copy's features fit the inodes";
	if (f2fs_inode_has_checksum(features, root) &&
	    le32_to_cpu(root->i.i_inode_checksum) != f2fs_inode_checksum(fs->inode_chksum_seed, root))
		return "it has inode_checksum, but the root inode's checksum does not hold (the "
		       "kernel refuses it), and the other copy's features fit the inodes";
	return NULL;
}

/* Salvage: two valid copies that differ in their features only, and the
 * kernel would refuse the root inode under the first copy's (the one it
 * takes) but not under the other's: the first is the damaged one. */
static void choose_copy_root_agrees(struct f2fs_fs *fs)
{
	int first = fs->sb_index, other = 1 - first;
	struct f2fs_node root;
	const char *why;

	if (first < 0 || fs->salvage.sb_rebuilt || fs->salvage.sb_cp_disagrees >= 0 ||
	    fs->sb_check[other].err || !copies_differ_in_features_only(fs) ||
	    !read_root_inode(fs, &root))
		return;
	why = root_refused_by_features(fs, le32_to_cpu(fs->sb_copy[first].feature), &root);
	if (!why || root_refused_by_features(fs, le32_to_cpu(fs->sb_copy[other].feature), &root))
		return;
	fs->sb_index = other;
	fs->sb = fs->sb_copy[other];
	fs->features = le32_to_cpu(fs->sb.feature);
	fs->salvage.sb_cp_disagrees = first;
	fs->salvage.sb_cp_disagrees_why = why;
}

/* Whether two valid copies differ in their qf_ino words only (and the
 * checksum that covers them). */
static bool copies_differ_in_qf_ino_only(const struct f2fs_fs *fs)
{
	struct f2fs_super_block a = fs->sb_copy[0], b = fs->sb_copy[1];

	if (!memcmp(a.qf_ino, b.qf_ino, sizeof(a.qf_ino)))
		return false;
	memcpy(b.qf_ino, a.qf_ino, sizeof(a.qf_ino));
	b.crc = a.crc;
	return !memcmp(&a, &b, sizeof(a));
}

/* Whether inode ino holds a quota file of type t: its inode block where
 * the NAT says, a regular file with its data in blocks, the first of them
 * opening with that type's quota header. */
static bool holds_quota_file(struct f2fs_fs *fs, uint32_t ino, int t)
{
	struct f2fs_dqinfo info;
	struct f2fs_nat_entry e;
	struct f2fs_node *node;
	uint32_t addr, extra = 0;
	bool ok = false;

	if (!ino || f2fs_fs_nat_entry(fs, ino, &e) || le32_to_cpu(e.ino) != ino)
		return false;
	addr = le32_to_cpu(e.block_addr);
	node = f2fs_blocks_alloc(2);
	if (!node)
		return false;
	if (!f2fs_blkaddr_in_main(fs, addr) || f2fs_dev_read(fs->dev, addr, 1, node) ||
	    le32_to_cpu(node->footer.nid) != ino || le32_to_cpu(node->footer.ino) != ino ||
	    (le16_to_cpu(node->i.i_mode) & 0xF000) != 0x8000 ||
	    (node->i.i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY)))
		goto out;
	if (node->i.i_inline & F2FS_EXTRA_ATTR)
		extra = le16_to_cpu(node->i.i_extra_isize) / 4;
	if (extra >= DEF_ADDRS_PER_INODE)
		goto out;
	addr = le32_to_cpu(node->i.i_addr[extra]);
	if (f2fs_blkaddr_in_main(fs, addr) &&
	    !f2fs_dev_read(fs->dev, addr, 1, (uint8_t *)node + F2FS_BLKSIZE))
		ok = !f2fs_quota_header_read((const uint8_t *)node + F2FS_BLKSIZE, t, &info);
out:
	free(node);
	return ok;
}

/* Salvage: two valid copies that differ in their qf_ino words only, and
 * where they differ the first copy's (the one the kernel takes) names no
 * quota file of that type while the other copy's does: the first is the
 * damaged one (the kernel would take a user's file, or nothing, for the
 * quota file, and the real one would be left unreachable). */
static void choose_copy_quota_agrees(struct f2fs_fs *fs)
{
	int first = fs->sb_index, other = 1 - first;

	if (first < 0 || fs->salvage.sb_rebuilt || fs->salvage.sb_cp_disagrees >= 0 ||
	    fs->sb_check[other].err || !(fs->features & F2FS_FEATURE_QUOTA_INO) ||
	    !copies_differ_in_qf_ino_only(fs))
		return;
	for (int t = 0; t < 3; t++) {
		uint32_t a = le32_to_cpu(fs->sb_copy[first].qf_ino[t]);
		uint32_t b = le32_to_cpu(fs->sb_copy[other].qf_ino[t]);

		if (a != b && (holds_quota_file(fs, a, t) || !holds_quota_file(fs, b, t)))
			return;
	}
	fs->sb_index = other;
	fs->sb = fs->sb_copy[other];
	fs->salvage.sb_cp_disagrees = first;
	fs->salvage.sb_cp_disagrees_why = "its qf_ino names an inode that holds no quota file of "
		"its type (the kernel would take it for one), and the other copy's name the quota "
		"files";
}

/* A truncated single device: read its missing tail as zeroes, so that
 * what lies inside is checked and read as the kernel reads it. */
static void assume_full_device(struct f2fs_fs *fs)
{
	uint64_t dev_blocks = f2fs_dev_size(fs->dev) / F2FS_BLKSIZE;

	fs->short_blocks = f2fs_sb_short_blocks(&fs->sb, dev_blocks);
	if (fs->short_blocks &&
	    f2fs_dev_assume_size(fs->dev, f2fs_sb_main_end(&fs->sb) * F2FS_BLKSIZE) < 0)
		fs->short_blocks = 0;
}

static int open_volume(struct f2fs_fs *fs, bool salvage)
{
	const char *why;
	int err;

	fs->salvage.cp_dropped = -1;
	fs->salvage.sb_cp_disagrees = -1;
	read_superblocks(fs);
	if (fs->sb_index < 0 && salvage)
		rebuild_superblock(fs);
	else if (salvage)
		choose_copy_checkpoint_agrees(fs);
	if (fs->sb_index < 0)
		return -EFSCORRUPTED;
	derive_geometry(fs);
	assume_full_device(fs);
	err = load_checkpoint(fs, salvage);
	if (!err)
		load_cursegs(fs, salvage);
	if (!err && salvage)
		summaries_from_older_pack(fs);
	if (!err && salvage)
		choose_copy_root_agrees(fs);
	if (!err && salvage)
		choose_copy_quota_agrees(fs);
	if (!fs->salvage.sb_rebuilt && !fs->salvage.cp_crc_only)
		return err;
	if (err && err != -EFSCORRUPTED && err != -EFSBADCRC)
		return err;	/* I/O or memory: not the volume's fault */
	why = salvage_unconfirmed(fs, err);
	if (why) {
		drop_salvage(fs, why);
		return -EFSCORRUPTED;
	}
	return 0;
}

int f2fs_fs_open_dev_flags(struct f2fs_dev *dev, unsigned int flags, struct f2fs_fs **out)
{
	struct f2fs_fs *fs = calloc(1, sizeof(*fs));

	*out = NULL;
	if (!fs) {
		f2fs_dev_close(dev);
		return -ENOMEM;
	}
	fs->dev = dev;
	*out = fs;
	return open_volume(fs, (flags & F2FS_OPEN_SALVAGE) != 0);
}

bool f2fs_fs_salvaged(const struct f2fs_fs *fs)
{
	const struct f2fs_salvage *s = &fs->salvage;

	return s->sb_rebuilt || s->sb_cp_disagrees >= 0 || s->cp_crc_only || s->cp_dropped >= 0 ||
	       s->n_cp_derived;
}

int f2fs_fs_open_dev(struct f2fs_dev *dev, struct f2fs_fs **out)
{
	return f2fs_fs_open_dev_flags(dev, 0, out);
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
	if (f2fs_dev_size(fs->dev) < next * F2FS_BLKSIZE)
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
