/*
 * fsck_preen.c - the preen fast path (-a, -p without -f): whether a
 * boot-time run may stop after what the kernel itself validates at mount.
 *
 * The kernel asks for a full check through the checkpoint (CP_FSCK_FLAG,
 * CP_QUOTA_NEED_FSCK_FLAG) and through the superblock (the errors and stop
 * reasons it records).  When it has asked for nothing and pass 1 (both
 * superblock copies, both packs, the checkpoint in use, the log summaries
 * with their NAT and SIT journals, the orphan blocks) reported no error or
 * warning, the SIT entries of the six logs are checked as the kernel
 * checks them when it mounts (check_block_count(): the count matches the
 * map and the type is known; sanity_check_curseg(): no valid block at or
 * after the write position of an LFS log, nor at it for an SSR log).
 * After an unclean shutdown the roll-forward chain is walked as the
 * kernel's recovery will walk it, and must end without a loop, a block the
 * checkpoint keeps live, or a new inode whose NAT entry is in use (what
 * makes the recovery, and so the mount, fail).  Then the run ends; on
 * anything else it runs every pass.  Reads: the SIT blocks of the logs (at
 * most six) and, after an unclean shutdown, the chain's blocks with the
 * SIT and NAT blocks they need.  The SIT entries of other segments, which
 * the kernel also reads at mount, are left to the full check (-f): reading
 * the whole SIT would cost more than a boot-time preen may (an order of
 * magnitude under f2fs-tools' -a; bench/preen-bench.sh).
 */
#include <stdlib.h>
#include <string.h>

#include "f2fs_array.h"
#include "f2fs_ckpt.h"
#include "f2fs_err.h"
#include "f2fs_sit.h"
#include "fsck.h"

/* Whether log type's segment passes the kernel's mount-time check. */
static bool curseg_sound(struct f2fs_fs *fs, int type)
{
	uint32_t segno = fs->curseg_segno[type], blkoff = fs->curseg_blkoff[type];
	uint8_t alloc = fs->cp->alloc_type[type];
	struct f2fs_sit_entry se;

	if (segno >= fs->main_segs || blkoff >= BLKS_PER_SEG || alloc > SSR)
		return false;
	/* build_sit_entries() checks the entry of the SIT block even where
	 * the journal overrides it (a log's usually is) */
	if (f2fs_sit_read_block_entry(fs, segno, &se) || f2fs_sit_entry_fault(&se))
		return false;
	if (f2fs_fs_sit_entry(fs, segno, &se))
		return false;
	/* check_block_count(): the count matches the map, the type is known */
	if (f2fs_sit_entry_fault(&se))
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

/* The kernel asked for a check: a shutdown someone asked for is no
 * reason (F2FS-1045). */
static bool kernel_wants_check(const struct f2fs_fs *fs)
{
	const struct f2fs_super_block *sb = &fs->sb;

	return (fs->cp_flags & (CP_FSCK_FLAG | CP_QUOTA_NEED_FSCK_FLAG | CP_ERROR_FLAG)) ||
	       any_byte_set(sb->s_errors, sizeof(sb->s_errors)) ||
	       any_byte_set(sb->s_stop_reason + STOP_CP_REASON_SHUTDOWN + 1,
			    sizeof(sb->s_stop_reason) - STOP_CP_REASON_SHUTDOWN - 1);
}

/* ---- the roll-forward chain of an unclean shutdown ---- */

/* Block addresses (or inode numbers) seen along the chain: open
 * addressing, 0 is never stored (no main-area block or inode is 0). */
struct u32_set {
	uint32_t *slot;
	uint32_t cap, n;
};

/* 1 if v was there, 0 if added, -ENOMEM. */
static int set_add(struct u32_set *s, uint32_t v)
{
	uint32_t cap = f2fs_hash_capacity(s->n, s->cap, 1024), i;

	if (cap != s->cap) {
		struct u32_set g = { cap ? f2fs_hash_table_alloc(cap, sizeof(uint32_t)) : NULL, cap, 0 };

		if (!g.slot)
			return -ENOMEM;
		for (uint32_t k = 0; k < s->cap; k++)
			if (s->slot[k])
				(void)set_add(&g, s->slot[k]);
		free(s->slot);
		*s = g;
	}
	for (i = f2fs_hash_slot(v, s->cap); s->slot[i]; i = f2fs_hash_next(i, s->cap))
		if (s->slot[i] == v)
			return 1;
	s->slot[i] = v;
	s->n++;
	return 0;
}

struct chain_walk {
	struct f2fs_fs *fs;
	struct u32_set blocks, inodes;
	uint32_t sit_segno;		/* segment of the SIT entry cached, or UINT32_MAX */
	struct f2fs_sit_entry sit;
};

/* Whether addr is valid in the SIT: the kernel's recovery would then find
 * a fsync'd node where the checkpoint keeps a live block. */
static int chain_block_live(struct chain_walk *w, uint32_t addr, bool *live)
{
	uint32_t segno = f2fs_blkaddr_to_segno(w->fs, addr);

	if (segno != w->sit_segno) {
		int err = f2fs_fs_sit_entry(w->fs, segno, &w->sit);

		if (err)
			return err;
		w->sit_segno = segno;
	}
	*live = f2fs_test_bit((addr - w->fs->main_blkaddr) % BLKS_PER_SEG, w->sit.valid_map);
	return 0;
}

/* A node of the chain the kernel's recovery would fail on: the first
 * fsync'd inode block of a new file (DENT mark) whose NAT entry is in
 * use (f2fs_recover_inode_page()). */
static int chain_node_refused(struct chain_walk *w, const struct f2fs_node *n, bool *refused)
{
	uint32_t ino = le32_to_cpu(n->footer.ino), nid = le32_to_cpu(n->footer.nid);
	uint32_t flag = le32_to_cpu(n->footer.flag);
	struct f2fs_nat_entry e;
	int err;

	*refused = false;
	if (!(flag & (1u << FSYNC_BIT_SHIFT)) || !ino || ino >= w->fs->max_nid)
		return 0;
	err = set_add(&w->inodes, ino);
	if (err)
		return err < 0 ? err : 0;
	if (nid != ino || !(flag & (1u << DENT_BIT_SHIFT)))
		return 0;
	err = f2fs_fs_nat_entry(w->fs, ino, &e);
	if (!err)
		*refused = le32_to_cpu(e.block_addr) != NULL_ADDR;
	return err;
}

/* Walk the chain as the kernel's recovery will (from the warm node log's
 * write position, while the footers carry this checkpoint's version):
 * true when it ends without a loop, a block the checkpoint keeps live, or
 * a new inode the recovery would refuse. */
static bool chain_replayable(struct f2fs_fs *fs)
{
	struct chain_walk w = { .fs = fs, .sit_segno = UINT32_MAX };
	uint32_t segno = fs->curseg_segno[CURSEG_WARM_NODE];
	uint64_t want = fsck_chain_version(fs), limit = (uint64_t)fs->main_segs * BLKS_PER_SEG;
	uint32_t addr = f2fs_seg_start_blkaddr(fs, segno) + fs->curseg_blkoff[CURSEG_WARM_NODE];
	bool ok = false;

	for (uint64_t count = 0; count <= limit; count++) {
		struct f2fs_node n;
		bool bad = false;

		if (!f2fs_blkaddr_in_main(fs, addr)) {
			ok = true;
			break;
		}
		if (set_add(&w.blocks, addr) || f2fs_dev_read(fs->dev, addr, 1, &n))
			break;		/* a loop, or no memory or read: check it all */
		if (!fsck_chain_node_belongs(fs, want, &n)) {
			ok = true;
			break;
		}
		if (chain_block_live(&w, addr, &bad) || bad ||
		    chain_node_refused(&w, &n, &bad) || bad)
			break;
		addr = le32_to_cpu(n.footer.next_blkaddr);
	}
	free(w.blocks.slot);
	free(w.inodes.slot);
	return ok;
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
	if (fs->short_blocks)	/* a truncated device: reported after the SIT */
		return false;
	if (kernel_wants_check(fs))
		return false;
	for (int t = 0; t < NR_CURSEG_TYPE; t++)
		if (f2fs_log_in_use(fs, t) && !curseg_sound(fs, t))
			return false;
	/* an unclean shutdown: the chain the kernel will replay at mount */
	if (!(fs->cp_flags & (CP_UMOUNT_FLAG | CP_DISABLED_FLAG)) && !chain_replayable(fs))
		return false;
	ctx->mount_check_only = true;
	return true;
}
