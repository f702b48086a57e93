/*
 * fsck_pass_rollfwd.c - the roll-forward chain after an unclean shutdown.
 *
 * When the checkpoint is not an unmount checkpoint, the kernel replays
 * the node blocks written after it: starting at the warm-node log's write
 * position, it follows footer.next_blkaddr while the footer's cp_ver
 * belongs to this checkpoint.  This pass walks the same chain (bounded,
 * loops detected with a per-block bitmap), records its blocks in
 * ctx->chain so nothing reports them as corruption, and checks what makes
 * the kernel's recovery fail: a looping chain, and a new inode (FSYNC and
 * DENT marks) whose NAT entry is not empty.
 */
#include <stdlib.h>

#include "f2fs_err.h"
#include "fsck.h"

#define CHAIN_WINDOW	64u	/* blocks read ahead along the chain */
#define FSCK_NI_CHAIN	0x80

uint64_t fsck_chain_version(const struct f2fs_fs *fs)
{
	uint64_t ver = le64_to_cpu(fs->cp->checkpoint_ver);
	uint32_t off = le32_to_cpu(fs->cp->checksum_offset);

	if ((fs->cp_flags & CP_CRC_RECOVERY_FLAG) && off <= CP_CHKSUM_OFFSET)
		ver |= (uint64_t)get_le32((const uint8_t *)fs->cp + off) << 32;
	return ver;
}

bool fsck_chain_node_belongs(const struct f2fs_fs *fs, uint64_t want, const struct f2fs_node *n)
{
	uint64_t have = le64_to_cpu(n->footer.cp_ver);

	if (fs->cp_flags & CP_NOCRC_RECOVERY_FLAG)
		return (uint32_t)have == (uint32_t)want;
	return have == want;
}

/*
 * A pack that binds its chain to the whole cp_ver (without
 * CP_NOCRC_RECOVERY_FLAG) whose first chain node carries this checkpoint's
 * version under another CRC: the nodes were written for this checkpoint
 * and the pack was rewritten since.  That covers a pack that lost
 * CP_CRC_RECOVERY_FLAG itself: nodes whose footer holds a CRC were
 * written while the pack had the flag (the kernel sets it in every
 * checkpoint it writes, do_checkpoint()).  The kernel skips them
 * (is_recoverable_dnode() compares the whole cp_ver); a repair re-homes
 * them under its own pack with CP_NOCRC_RECOVERY_FLAG, and the kernel
 * recovers them then.
 */
static bool chain_of_other_crc(const struct f2fs_fs *fs, uint64_t want, const struct f2fs_node *n)
{
	uint64_t have = le64_to_cpu(n->footer.cp_ver);

	return !(fs->cp_flags & CP_NOCRC_RECOVERY_FLAG) && have != want &&
	       (uint32_t)have == (uint32_t)want;
}

static void check_new_inode(struct fsck_ctx *ctx, const struct f2fs_node *n, uint32_t addr)
{
	uint32_t ino = le32_to_cpu(n->footer.ino), nid = le32_to_cpu(n->footer.nid);
	uint32_t flag = le32_to_cpu(n->footer.flag);
	struct f2fs_nat_entry e;

	if (!(flag & (1u << FSYNC_BIT_SHIFT)) || ino >= ctx->fs->max_nid)
		return;
	if (ctx->ni[ino].flags & FSCK_NI_CHAIN)
		return;
	ctx->ni[ino].flags |= FSCK_NI_CHAIN;
	if (nid == ino && (flag & (1u << DENT_BIT_SHIFT)) && fsck_nat_lookup(ctx, ino, &e) &&
	    le32_to_cpu(e.block_addr) != NULL_ADDR)
		fsck_problem(ctx, PR_RF_DENT_INODE_IN_NAT, FSCK_OBJ(.ino = ino, .blkaddr = addr));
}

int fsck_pass_rollforward(struct fsck_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;
	uint32_t segno = fs->curseg_segno[CURSEG_WARM_NODE];
	uint32_t blkoff = fs->curseg_blkoff[CURSEG_WARM_NODE];
	uint64_t want, count = 0, win_start = 0, other_crc = 0;
	uint32_t win_n = 0, addr;
	uint8_t *buf;
	int err = 0;

	if (fs->cp_flags & (CP_UMOUNT_FLAG | CP_DISABLED_FLAG))
		return 0;
	if (segno >= fs->main_segs || blkoff >= BLKS_PER_SEG)
		return 0;
	buf = f2fs_blocks_alloc(CHAIN_WINDOW);
	if (!buf)
		return -ENOMEM;
	fsck_progress(ctx, 5, 0, 1);
	want = fsck_chain_version(fs);
	addr = f2fs_seg_start_blkaddr(fs, segno) + blkoff;
	while (fsck_addr_in_main(ctx, addr) && count <= ctx->main_blocks) {
		uint64_t rel = addr - fs->main_blkaddr;
		const struct f2fs_node *n;

		if (fsck_bit(ctx->chain, rel)) {
			fsck_problem(ctx, PR_RF_CHAIN_LOOP, FSCK_OBJ(.blkaddr = addr));
			break;
		}
		if (addr < win_start || addr >= win_start + win_n) {
			uint64_t left = fs->main_blkaddr + ctx->main_blocks - addr;

			win_n = left < CHAIN_WINDOW ? (uint32_t)left : CHAIN_WINDOW;
			win_start = addr;
			err = f2fs_dev_read(fs->dev, addr, win_n, buf);
			if (err)
				break;
		}
		n = (const void *)(buf + (addr - win_start) * F2FS_BLKSIZE);
		if (!count && chain_of_other_crc(fs, want, n))
			other_crc = le64_to_cpu(n->footer.cp_ver);
		if (other_crc ? le64_to_cpu(n->footer.cp_ver) != other_crc :
				!fsck_chain_node_belongs(fs, want, n))
			break;
		fsck_set(ctx->chain, rel);
		fsck_fix_chain_node(ctx, addr, n);
		count++;
		if (fsck_sit_valid(ctx, addr))
			fsck_problem(ctx, PR_RF_CHAIN_OVERLAP, FSCK_OBJ(.blkaddr = addr));
		check_new_inode(ctx, n, addr);
		addr = le32_to_cpu(n->footer.next_blkaddr);
	}
	free(buf);
	ctx->st.chain_nodes = count;
	if (count && !err)
		fsck_problem(ctx, other_crc ? PR_RF_CHAIN_OTHER_CRC : PR_RF_CHAIN, FSCK_OBJ(.found = count));
	fsck_progress(ctx, 5, 1, 1);
	return err;
}
