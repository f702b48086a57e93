/*
 * fsck_preen.c - the preen fast path (-a, -p without -f): whether a
 * boot-time run may stop after what the kernel itself validates at mount.
 *
 * The kernel asks for a full check through the checkpoint (CP_FSCK_FLAG,
 * CP_QUOTA_NEED_FSCK_FLAG) and through the superblock (the errors and stop
 * reasons it records).  When it has asked for nothing, the last checkpoint
 * is an unmount checkpoint and pass 1 (both superblock copies, both packs,
 * the checkpoint in use, the log summaries with their NAT and SIT
 * journals, the orphan blocks) reported no error or warning, the SIT
 * entries of the six logs are checked as the kernel checks them when it
 * mounts (check_block_count(): the count matches the map and the type is
 * known; sanity_check_curseg(): no valid block at or after the write
 * position of an LFS log, nor at it for an SSR log) and the run ends.
 * Anything else, including an unclean shutdown whose roll-forward chain
 * this path does not walk, runs every pass.  Reads: the SIT blocks of the
 * logs (at most six); the SIT entries of other segments, which the kernel
 * also reads at mount, are left to the full check (-f): reading the
 * whole SIT would cost more than a boot-time preen may (an order of
 * magnitude under f2fs-tools' -a; bench/preen-bench.sh).
 */
#include <string.h>

#include "f2fs_ckpt.h"
#include "f2fs_err.h"
#include "f2fs_sit.h"
#include "fsck.h"

/* The SIT entry of segno as the kernel sees it: the journal's copy first,
 * then the current SIT block. */
static int curseg_sit_entry(struct f2fs_fs *fs, uint32_t segno, struct f2fs_sit_entry *se)
{
	const struct f2fs_journal *j = f2fs_sit_journal(fs);
	uint32_t n = le16_to_cpu(j->n_sits);
	uint32_t sit_block = segno / (uint32_t)SIT_ENTRY_PER_BLOCK;
	struct f2fs_sit_block blk;
	int err;

	for (uint32_t i = 0; i < n && i < SIT_JOURNAL_ENTRIES; i++) {
		if (le32_to_cpu(j->sit_j.entries[i].segno) == segno) {
			*se = j->sit_j.entries[i].se;
			return 0;
		}
	}
	if (sit_block >= fs->sit_blk_cnt)
		return -EFSCORRUPTED;
	err = f2fs_dev_read(fs->dev, f2fs_current_sit_addr(fs, sit_block), 1, &blk);
	if (err)
		return err;
	*se = blk.entries[segno % SIT_ENTRY_PER_BLOCK];
	return 0;
}

/* Whether log type's segment passes the kernel's mount-time check. */
static bool curseg_sound(struct f2fs_fs *fs, int type)
{
	uint32_t segno = fs->curseg_segno[type], blkoff = fs->curseg_blkoff[type];
	uint8_t alloc = fs->cp->alloc_type[type];
	struct f2fs_sit_entry se;

	if (segno >= fs->main_segs || blkoff >= BLKS_PER_SEG || alloc > SSR)
		return false;
	if (curseg_sit_entry(fs, segno, &se))
		return false;
	/* check_block_count(): the count matches the map, the type is known */
	if (GET_SIT_TYPE(&se) >= NO_CHECK_TYPE ||
	    f2fs_sit_map_weight(se.valid_map) != GET_SIT_VBLOCKS(&se))
		return false;
	if (f2fs_test_bit(blkoff, se.valid_map))
		return false;
	if (alloc == SSR)
		return true;
	for (uint32_t b = blkoff + 1; b < BLKS_PER_SEG; b++)
		if (f2fs_test_bit(b, se.valid_map))
			return false;
	return true;
}

static bool any_byte_set(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return true;
	return false;
}

/* The kernel asked for a check, or the last shutdown was unclean. */
static bool kernel_wants_check(const struct f2fs_fs *fs)
{
	const struct f2fs_super_block *sb = &fs->sb;

	return (fs->cp_flags & (CP_FSCK_FLAG | CP_QUOTA_NEED_FSCK_FLAG | CP_ERROR_FLAG)) ||
	       !(fs->cp_flags & CP_UMOUNT_FLAG) ||
	       any_byte_set(sb->s_errors, sizeof(sb->s_errors)) ||
	       any_byte_set(sb->s_stop_reason, sizeof(sb->s_stop_reason));
}

bool fsck_preen_may_stop(struct fsck_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;

	if (ctx->opt.mode != FSCK_MODE_PREEN || ctx->opt.force || ctx->opt.dry_run)
		return false;
	if (!fs || !ctx->fs_usable || ctx->exit_override || ctx->n_errors || ctx->n_warnings)
		return false;
	if (!fs->cp || fs->ckpt_sanity.err || !fs->cursum_loaded || fs->cursum_load_err)
		return false;
	if (kernel_wants_check(fs))
		return false;
	for (int t = 0; t < NR_CURSEG_TYPE; t++)
		if (!curseg_sound(fs, t))
			return false;
	ctx->mount_check_only = true;
	return true;
}
