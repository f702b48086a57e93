/*
 * fsck_pass_super.c - pass 1: the superblock copies and checkpoint packs.
 *
 * Checks what lib's f2fs_fs_open() found about each superblock copy and
 * each pack (everything the kernel rejects at mount) and what its salvage
 * did where the kernel would refuse (a superblock rebuilt from two damaged
 * copies, checkpoint fields derived from the superblock, the older pack in
 * place of an unusable newest one, a pack whose only fault is its
 * checksum: each reported, the repair writes them), feature rules, the
 * chosen checkpoint's flags, its current-segment summaries and their NAT
 * and SIT journals, the orphan blocks, and the log (curseg) rules that do
 * not need the SIT.  Records for later passes: the orphan inode list
 * (ctx->orphans).  A volume without a usable superblock and checkpoint
 * stops here.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs_ckpt.h"
#include "f2fs_err.h"
#include "f2fs_features.h"
#include "f2fs_super.h"
#include "fsck.h"

#define KNOWN_FEATURES	0x0001FFFFu

/* Copies and packs are numbered 1 and 2 in messages, as inject.f2fs --sb
 * and --cp and dump.f2fs number them (0 there means "the one in use"). */
static void check_sb_copies(struct fsck_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;

	for (int i = 0; i < 2; i++)
		if (fs->sb_check[i].err)
			fsck_problem(ctx, PR_SB_COPY_INVALID, FSCK_OBJ(.sb = (uint64_t)i + 1,
				    .str = fs->sb_check[i].why ? fs->sb_check[i].why : "unreadable"));
	if (fs->salvage.sb_cp_disagrees >= 0)
		fsck_problem(ctx, PR_SB_COPY_INVALID, FSCK_OBJ(
			    .sb = (uint64_t)fs->salvage.sb_cp_disagrees + 1,
			    .str = fs->salvage.sb_cp_disagrees_why));
	/* Two valid copies that differ are information only: the kernel
	 * takes the first valid copy and never compares them, and leaves
	 * them different itself when power fails between the two writes of
	 * f2fs_commit_super() (backup first).  A repair made for anything
	 * else rewrites the other copy from the one in use. */
	if (!fs->sb_check[0].err && !fs->sb_check[1].err &&
	    memcmp(&fs->sb_copy[0], &fs->sb_copy[1], sizeof(fs->sb_copy[0])))
		fsck_problem(ctx, PR_SB_COPIES_DIFFER, FSCK_OBJ(.sb = (uint64_t)fs->sb_index + 1));
}

static void check_sb_features(struct fsck_ctx *ctx)
{
	const struct f2fs_super_block *sb = &ctx->fs->sb;
	uint32_t feat = le32_to_cpu(sb->feature);
	uint32_t missing = f2fs_features_missing_extra_attr(feat);
	uint32_t excess = f2fs_sb_segment_count_excess(sb);

	if (missing) {
		char names[256];

		f2fs_features_to_string(missing, names, sizeof(names));
		fsck_problem(ctx, PR_SB_FEATURE_DEPS, FSCK_OBJ(.str = names));
	}
	/* The kernel has no mask of required features: bits it does not
	 * know are ignored at mount, so they are a note, not a problem. */
	if (feat & ~KNOWN_FEATURES)
		fsck_problem(ctx, PR_SB_UNKNOWN_FEATURE, FSCK_OBJ(.found = feat & ~KNOWN_FEATURES));
	if ((feat & F2FS_FEATURE_CASEFOLD) && le16_to_cpu(sb->s_encoding) != F2FS_ENC_UTF8_12_1)
		fsck_problem(ctx, PR_SB_ENCODING, FSCK_OBJ(.found = le16_to_cpu(sb->s_encoding)));
	if (excess)
		fsck_problem(ctx, PR_SB_SEGMENT_COUNT_EXCESS, FSCK_OBJ(.found = excess));
	if (!(feat & F2FS_FEATURE_QUOTA_INO) && fsck_any_nonzero((const uint8_t *)sb->qf_ino,
							    sizeof(sb->qf_ino))) {
		char inos[48];

		snprintf(inos, sizeof(inos), "%u %u %u", le32_to_cpu(sb->qf_ino[0]),
			 le32_to_cpu(sb->qf_ino[1]), le32_to_cpu(sb->qf_ino[2]));
		fsck_problem(ctx, PR_SB_QUOTA_INO_NO_FEATURE, FSCK_OBJ(.str = inos));
	}
	/* A shutdown someone asked for (F2FS_IOC_SHUTDOWN, as fstests'
	 * _scratch_shutdown does) is counted too, but is no failure: the
	 * kernel recovers at the next mount as after a power cut. */
	if (fsck_any_nonzero(sb->s_errors, sizeof(sb->s_errors)) ||
	    fsck_any_nonzero(sb->s_stop_reason + STOP_CP_REASON_SHUTDOWN + 1,
			sizeof(sb->s_stop_reason) - STOP_CP_REASON_SHUTDOWN - 1))
		fsck_problem(ctx, PR_SB_KERNEL_ERRORS, FSCK_OBJ());
	else if (sb->s_stop_reason[STOP_CP_REASON_SHUTDOWN])
		fsck_problem(ctx, PR_SB_SHUTDOWN_RECORDED,
			     FSCK_OBJ(.found = sb->s_stop_reason[STOP_CP_REASON_SHUTDOWN]));
}

/* Version a damaged pack's first block claims (unverified), to tell a
 * damaged newer pack (a torn or corrupted last checkpoint) from a damaged
 * older one. */
static bool raw_pack_version(struct fsck_ctx *ctx, int pack, uint64_t *ver)
{
	uint32_t start = le32_to_cpu(ctx->fs->sb.cp_blkaddr) + (uint32_t)pack * BLKS_PER_SEG;

	return f2fs_cp_claimed_version(ctx->fs->dev, start, ver, NULL) == 0;
}

/* A pack whose first block is sound but whose last block is not (yet):
 * the state a power cut leaves while a checkpoint is written. */
static bool torn_write(const char *why)
{
	return !strcmp(why, "last checkpoint block is invalid") ||
	       !strcmp(why, "first and last checkpoint blocks carry different versions");
}

/* What a write cut anywhere in a pack leaves: blocks written in part (a
 * CRC that does not hold) or a mix of old and new blocks. */
static bool torn_or_crc(const char *why)
{
	return torn_write(why) || !strcmp(why, "checkpoint checksum mismatch");
}

/* A pack whose first block is all zeroes: erased, or never written
 * (resize.f2fs zeroes the pack it does not write, since it describes the
 * old size; the kernel warns "invalid crc_offset", mounts from the other
 * pack and writes its next checkpoint here). */
static bool pack_blank(struct fsck_ctx *ctx, int pack)
{
	uint32_t start = le32_to_cpu(ctx->fs->sb.cp_blkaddr) + (uint32_t)pack * BLKS_PER_SEG;
	uint64_t blk[F2FS_BLKSIZE / sizeof(uint64_t)];

	if (f2fs_dev_read(ctx->fs->dev, start, 1, blk))
		return false;
	for (size_t k = 0; k < sizeof(blk) / sizeof(blk[0]); k++)
		if (blk[k])
			return false;
	return true;
}

/* An invalid pack is reported by what it means for the volume.  The
 * kernel mounts from the valid pack and writes its next checkpoint over
 * the invalid one (get_valid_checkpoint(), do_checkpoint()):
 *  - newer than the pack in use and cut while written: the last
 *    checkpoint did not complete (information);
 *  - newer and damaged otherwise: the newest checkpoint is lost (warning);
 *  - older and torn or failing its CRC: the normal state after a power
 *    cut while that pack was being written (information);
 *  - older and blank (its first block all zeroes): what resize.f2fs
 *    leaves (information);
 *  - older with a sound CRC but fields the kernel refuses: written wrong
 *    (warning). */
static void check_packs(struct fsck_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;

	for (int i = 0; i < 2; i++) {
		const char *why = fs->cp_check[i].why ? fs->cp_check[i].why : "unreadable";
		const struct fsck_obj *obj = FSCK_OBJ(.cp = (uint64_t)i + 1, .str = why);
		bool newer = false;
		uint64_t ver;

		/* the pack in use despite its checksum: report_cp_salvage() */
		if (!fs->cp_check[i].err || i == fs->cp_index)
			continue;
		if (fs->cp_index >= 0 && raw_pack_version(ctx, i, &ver))
			newer = f2fs_cp_version_newer(ver, fs->cp_version[fs->cp_index]);
		if (newer)
			fsck_problem(ctx, torn_write(why) ? PR_CP_TORN : PR_CP_NEWER_PACK_INVALID, obj);
		else if (fs->cp_index >= 0 && torn_or_crc(why))
			fsck_problem(ctx, PR_CP_OLDER_PACK_TORN, obj);
		else if (fs->cp_index >= 0 && pack_blank(ctx, i))
			fsck_problem(ctx, PR_CP_OLDER_PACK_TORN, FSCK_OBJ(.cp = (uint64_t)i + 1,
				     .str = "blank: its first block is all zeroes"));
		else
			fsck_problem(ctx, PR_CP_PACK_INVALID, obj);
	}
}

/* The checkpoint as lib's salvage took it: a pack failing only its
 * checksum, the older pack in place of the newest, fields recomputed from
 * the superblock. */
static void report_cp_salvage(struct fsck_ctx *ctx)
{
	const struct f2fs_fs *fs = ctx->fs;
	const struct f2fs_salvage *s = &fs->salvage;

	if (s->cp_crc_only)
		fsck_problem(ctx, PR_CP_CRC_ONLY, FSCK_OBJ(.cp = (uint64_t)fs->cp_index + 1));
	if (s->cp_dropped >= 0)
		fsck_problem(ctx, PR_CP_NEWEST_UNUSABLE, FSCK_OBJ(.cp = (uint64_t)s->cp_dropped + 1,
			    .found = (uint64_t)fs->cp_index + 1, .str = s->cp_dropped_why));
	for (uint32_t i = 0; i < s->n_cp_derived; i++)
		fsck_problem(ctx, PR_CP_FIELD_DERIVED, FSCK_OBJ(.cp = (uint64_t)fs->cp_index + 1,
			    .str = s->cp_derived[i].field, .found = s->cp_derived[i].found,
			    .expected = s->cp_derived[i].value));
}

/* Names of the fields the rebuild derived, once each ("crc" when nothing
 * but the checksum had to change). */
static void derived_sb_names(const struct f2fs_salvage *s, char *buf, size_t len)
{
	uint64_t seen = 0;
	size_t used = 0;

	buf[0] = 0;
	for (uint32_t i = 0; i < s->n_sb_derived && used < len; i++) {
		unsigned int f = s->sb_derived[i].field;

		if (f < 64 && (seen & (1ull << f)))
			continue;
		if (f < 64)
			seen |= 1ull << f;
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
					 f2fs_sb_derivable_name(f));
	}
	if (!buf[0])
		snprintf(buf, len, "crc");
}

/* Both copies were invalid and lib rebuilt the superblock: one line for
 * the rebuild, one per field a copy had otherwise. */
static void report_sb_rebuild(struct fsck_ctx *ctx)
{
	const struct f2fs_salvage *s = &ctx->fs->salvage;
	char names[400];

	if (!s->sb_rebuilt)
		return;
	derived_sb_names(s, names, sizeof(names));
	fsck_problem(ctx, PR_SB_REBUILT, FSCK_OBJ(.sb = (uint64_t)ctx->fs->sb_index + 1, .str = names));
	for (uint32_t i = 0; i < s->n_sb_derived; i++)
		fsck_problem(ctx, PR_SB_FIELD_DERIVED, FSCK_OBJ(.sb = (uint64_t)s->sb_derived[i].copy + 1,
			    .str = f2fs_sb_derivable_name(s->sb_derived[i].field),
			    .found = s->sb_derived[i].found, .expected = s->sb_derived[i].value));
}

static void check_cp_flags(struct fsck_ctx *ctx)
{
	uint32_t flags = ctx->fs->cp_flags;

	if (flags & CP_ERROR_FLAG)
		fsck_problem(ctx, PR_CP_ERROR_FLAG, FSCK_OBJ(.cp = (uint64_t)ctx->fs->cp_index + 1));
	if (flags & CP_FSCK_FLAG)
		fsck_problem(ctx, PR_CP_FSCK_FLAG, FSCK_OBJ());
	if (flags & CP_QUOTA_NEED_FSCK_FLAG)
		fsck_problem(ctx, PR_CP_QUOTA_NEED_FSCK, FSCK_OBJ());
	if (!(flags & CP_UMOUNT_FLAG))
		fsck_problem(ctx, PR_CP_NOT_UMOUNT, FSCK_OBJ());
}

static void check_nat_journal(struct fsck_ctx *ctx)
{
	const struct f2fs_journal *j = f2fs_nat_journal(ctx->fs);
	uint32_t n = le16_to_cpu(j->n_nats);

	if (n > NAT_JOURNAL_ENTRIES) {
		fsck_problem(ctx, PR_CP_NAT_JOURNAL_COUNT, FSCK_OBJ(.found = n,
			    .expected = NAT_JOURNAL_ENTRIES));
		n = NAT_JOURNAL_ENTRIES;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t nid = le32_to_cpu(j->nat_j.entries[i].nid);

		if (nid >= ctx->fs->max_nid)
			fsck_problem(ctx, PR_CP_NAT_JOURNAL_ENTRY, FSCK_OBJ(.idx = i, .nid = nid,
				    .str = "nid is out of range"));
		else if (nid < F2FS_RESERVED_NODE_NUM)
			fsck_problem(ctx, PR_CP_NAT_JOURNAL_ENTRY, FSCK_OBJ(.idx = i, .nid = nid,
				    .str = "reserved nid in the journal"));
		for (uint32_t k = 0; k < i; k++)
			if (le32_to_cpu(j->nat_j.entries[k].nid) == nid) {
				fsck_problem(ctx, PR_CP_NAT_JOURNAL_ENTRY, FSCK_OBJ(.idx = i,
					    .nid = nid, .str = "nid repeated in the journal"));
				break;
			}
	}
}

static void check_sit_journal(struct fsck_ctx *ctx)
{
	const struct f2fs_journal *j = f2fs_sit_journal(ctx->fs);
	uint32_t n = le16_to_cpu(j->n_sits);

	if (n > SIT_JOURNAL_ENTRIES) {
		fsck_problem(ctx, PR_CP_SIT_JOURNAL_COUNT, FSCK_OBJ(.found = n,
			    .expected = SIT_JOURNAL_ENTRIES));
		n = SIT_JOURNAL_ENTRIES;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t segno = le32_to_cpu(j->sit_j.entries[i].segno);

		if (segno >= ctx->fs->main_segs)
			fsck_problem(ctx, PR_CP_SIT_JOURNAL_ENTRY, FSCK_OBJ(.idx = i, .segno = segno,
				    .str = "segment number is out of range"));
		for (uint32_t k = 0; k < i; k++)
			if (le32_to_cpu(j->sit_j.entries[k].segno) == segno) {
				fsck_problem(ctx, PR_CP_SIT_JOURNAL_ENTRY, FSCK_OBJ(.idx = i,
					    .segno = segno, .str = "segment repeated in the journal"));
				break;
			}
	}
}

static void check_one_orphan_block(struct fsck_ctx *ctx, const struct f2fs_orphan_block *ob,
				   uint32_t i)
{
	uint32_t cnt = le32_to_cpu(ob->entry_count);

	/* blk_addr and blk_count are written by the kernel but never read
	 * back (f2fs_recover_orphan_inodes() walks the pack's orphan blocks
	 * and each one's entry_count): wrong values are no problem */
	if (cnt > F2FS_ORPHANS_PER_BLOCK) {
		fsck_problem(ctx, PR_CP_ORPHAN_BLOCK, FSCK_OBJ(.idx = i, .found = cnt,
			    .str = "entry_count exceeds 1020 (the kernel refuses to mount)"));
		cnt = F2FS_ORPHANS_PER_BLOCK;
	}
	for (uint32_t k = 0; k < cnt; k++) {
		uint32_t ino = le32_to_cpu(ob->ino[k]);

		if (ino < F2FS_RESERVED_NODE_NUM || ino >= ctx->fs->max_nid) {
			fsck_problem(ctx, PR_CP_ORPHAN_INO, FSCK_OBJ(.idx = k, .ino = ino,
				    .str = "out of range"));
			continue;
		}
		ctx->orphans[ctx->n_orphans++] = ino;
	}
}

static int read_orphans(struct fsck_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;
	uint32_t payload = le32_to_cpu(fs->sb.cp_payload);
	uint32_t start_sum = le32_to_cpu(fs->cp->cp_pack_start_sum);
	uint32_t nblocks;
	uint8_t *buf;
	int err;

	if (!(fs->cp_flags & CP_ORPHAN_PRESENT_FLAG) || start_sum <= payload + 1)
		return 0;
	nblocks = start_sum - payload - 1;
	if (nblocks > BLKS_PER_SEG) {
		fsck_problem(ctx, PR_CP_ORPHAN_BLOCK, FSCK_OBJ(.found = nblocks,
			    .str = "too many orphan blocks"));
		return 0;
	}
	buf = f2fs_blocks_alloc(nblocks);
	ctx->orphans = malloc((size_t)nblocks * F2FS_ORPHANS_PER_BLOCK * sizeof(uint32_t));
	if (!buf || !ctx->orphans) {
		free(buf);
		return -ENOMEM;
	}
	err = f2fs_dev_read(fs->dev, (uint64_t)fs->cp_start_blkaddr + payload + 1, nblocks, buf);
	if (!err)
		for (uint32_t i = 0; i < nblocks; i++)
			check_one_orphan_block(ctx, (const struct f2fs_orphan_block *)
					       (buf + (size_t)i * F2FS_BLKSIZE), i);
	free(buf);
	return err;
}

static void check_cursegs(struct fsck_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;

	for (int i = 0; i < NR_CURSEG_TYPE; i++) {
		if (!f2fs_log_in_use(fs, i))
			continue;
		if (fs->cp->alloc_type[i] > SSR)
			fsck_problem(ctx, PR_CP_CURSEG_ALLOC_TYPE, FSCK_OBJ(.idx = (uint64_t)i,
				    .found = fs->cp->alloc_type[i]));
		/* a read-only image's two logs may share a segment (the
		 * kernel never writes it) */
		for (int j = i + 1; j < NR_CURSEG_TYPE && !f2fs_is_ro_image(fs); j++) {
			uint32_t a = fs->curseg_segno[i], b = fs->curseg_segno[j];

			if (a < fs->main_segs && b < fs->main_segs &&
			    a / fs->segs_per_sec == b / fs->segs_per_sec)
				fsck_problem(ctx, PR_CP_CURSEG_SAME_SECTION, FSCK_OBJ(.idx = (uint64_t)i,
					    .found = (uint64_t)j, .secno = a / fs->segs_per_sec));
		}
	}
}

/* Whether both superblock copies lack the magic: not an F2FS volume. */
static bool no_magic(const struct f2fs_fs *fs)
{
	return le32_to_cpu(fs->sb_copy[0].magic) != F2FS_SUPER_MAGIC &&
	       le32_to_cpu(fs->sb_copy[1].magic) != F2FS_SUPER_MAGIC;
}

/* Blocks the SIT marks valid at or past blkaddr `end` (a truncated
 * device's missing tail). */
static uint64_t valid_blocks_from(const struct fsck_ctx *ctx, uint64_t end)
{
	const struct f2fs_fs *fs = ctx->fs;
	uint64_t n = 0;

	for (uint32_t segno = 0; segno < fs->main_segs; segno++) {
		uint64_t start = (uint64_t)fs->main_blkaddr + (uint64_t)segno * BLKS_PER_SEG;
		const struct f2fs_seg_entry *se = &ctx->sit.segs[segno];

		if (start + BLKS_PER_SEG <= end || !se->valid_blocks)
			continue;
		for (uint32_t k = 0; k < BLKS_PER_SEG; k++)
			if (start + k >= end && test_bit_le(k, se->cur_valid_map))
				n++;
	}
	return n;
}

void fsck_check_device_end(struct fsck_ctx *ctx)
{
	const struct f2fs_fs *fs = ctx->fs;
	uint64_t end = f2fs_dev_file_bytes(fs->dev) / F2FS_BLKSIZE;
	char what[96];

	if (!fs->short_blocks)
		return;
	if (!ctx->sit_loaded)
		snprintf(what, sizeof(what), "what lies past its end reads as zeroes");
	else
		snprintf(what, sizeof(what), "%" PRIu64 " blocks in use lie past its end (read as zeroes)",
			 valid_blocks_from(ctx, end));
	fsck_problem(ctx, f2fs_dev_is_regular(fs->dev) ? PR_SB_IMAGE_SHORT : PR_SB_BLKDEV_SHORT,
		    FSCK_OBJ(.found = fs->short_blocks, .str = what));
}

bool fsck_pass_super(struct fsck_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;
	int err;

	fsck_progress(ctx, 1, 0, 1);
	if (fs->sb_index < 0) {
		if (no_magic(fs)) {
			fsck_diag(ctx, "%s: not an F2FS volume (no superblock magic)", ctx->opt.device);
			ctx->exit_override = FSCK_EXIT_ERROR;
			return false;
		}
		check_sb_copies(ctx);
		if (fs->salvage.sb_refused)
			fsck_diag(ctx, "the superblock cannot be rebuilt: %s", fs->salvage.sb_refused);
		fsck_problem(ctx, PR_SB_NONE_VALID, FSCK_OBJ());
		return false;
	}
	check_sb_copies(ctx);
	report_sb_rebuild(ctx);
	check_sb_features(ctx);
	if (fs->cp_index < 0 || !fs->cp) {
		check_packs(ctx);
		if (fs->cp_index < 0 && fs->salvage.cp_refused)
			fsck_diag(ctx, "no checkpoint pack to go on from: %s", fs->salvage.cp_refused);
		if (fs->cp_index < 0)
			fsck_problem(ctx, PR_CP_NONE_VALID, FSCK_OBJ());
		else
			fsck_problem(ctx, PR_CP_SANITY, FSCK_OBJ(.cp = (uint64_t)fs->cp_index + 1,
				    .str = fs->ckpt_sanity.why ? fs->ckpt_sanity.why :
					   "the version bitmaps cannot be located"));
		return false;
	}
	check_packs(ctx);
	if (fs->ckpt_sanity.err)
		fsck_problem(ctx, PR_CP_SANITY, FSCK_OBJ(.cp = (uint64_t)fs->cp_index + 1,
			    .str = fs->ckpt_sanity.why));
	report_cp_salvage(ctx);
	if (!ctx->fs_usable) {
		/* the bitmaps could not be located: nothing below can be read */
		return false;
	}
	check_cp_flags(ctx);
	if (fs->cursum_load_err || !fs->cursum_loaded) {
		fsck_problem(ctx, PR_CP_SUMMARY_LOAD, FSCK_OBJ(.cp = (uint64_t)fs->cp_index + 1,
			    .str = f2fs_strerror(fs->cursum_load_err)));
	} else {
		check_nat_journal(ctx);
		check_sit_journal(ctx);
	}
	if (!fs->ckpt_sanity.err)
		check_cursegs(ctx);
	err = read_orphans(ctx);
	if (err) {
		fsck_fail(ctx, err == -ENOMEM ? "out_of_memory" : "io_error", "orphan blocks: %s",
			  f2fs_strerror(err));
		return false;
	}
	fsck_progress(ctx, 1, 1, 1);
	/* The later passes bounds-check everything they take from the
	 * checkpoint, so a checkpoint the kernel refuses is still examined. */
	return true;
}
