/*
 * inject_cp_extra.c - --cp members that live outside the checkpoint
 * block: the orphan blocks of a pack (orphan, orphan_entry_count, ...,
 * and orphan_add, which appends an inode and makes room for an orphan
 * block when needed) and next_blkaddr, the link of one block of the
 * fsync'd node chain that roll-forward recovery follows from the warm
 * node log.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs_layout.h"
#include "inject.h"

#define ORPHAN_HDR(m) INJ_NAMED("orphan_" #m, struct f2fs_orphan_block, m, 0)

static const struct inj_field orphan_hdr_fields[] = {
	ORPHAN_HDR(reserved),
	ORPHAN_HDR(blk_addr),
	ORPHAN_HDR(blk_count),
	ORPHAN_HDR(entry_count),
	ORPHAN_HDR(check_sum),
	{ NULL, 0, 0, 0, 0, 0 },
};

static uint32_t orphan_blocks(const struct inj_cp_pack *p)
{
	uint32_t start_sum = le32_to_cpu(p->cp->cp_pack_start_sum);

	return start_sum > p->payload + 1 ? start_sum - 1 - p->payload : 0;
}

static uint32_t orphan_addr(const struct inj_cp_pack *p, uint32_t b)
{
	return p->start + 1 + p->payload + b;
}

/* orphan --idx N: the N-th inode slot counting across orphan blocks;
 * orphan_<header> --idx B: a header field of orphan block B (default 0). */
static int set_orphan_member(struct inj_ctx *c, struct inj_cp_pack *p)
{
	struct f2fs_orphan_block ob;
	const struct inj_field *f = NULL;
	uint32_t n = orphan_blocks(p), b, idx = c->o->has_idx ? c->o->idx : 0;
	bool entry = !strcmp(c->o->mb, "orphan") || !strcmp(c->o->mb, "orphan_ino");

	if (!entry && !(f = inj_field_find(orphan_hdr_fields, c->o->mb)))
		return inj_err("unknown or unsupported member '%s' of --cp", c->o->mb);
	if (entry && !c->o->has_idx)
		return inj_err("%s needs --idx ENTRY", c->o->mb);
	b = entry ? idx / F2FS_ORPHANS_PER_BLOCK : idx;
	if (b >= n || b >= BLKS_PER_SEG)
		return inj_err("pack %d has %u orphan block(s); block %u does not exist",
			       p->index + 1, n, b);
	if (inj_read_block(c, orphan_addr(p, b), &ob))
		return -1;
	inj_where(c, "cp %d orphan block %u (blkaddr 0x%x)", p->index + 1, b, orphan_addr(p, b));
	if (entry) {
		if (inj_set_uint(c, (uint8_t *)&ob.ino[idx % F2FS_ORPHANS_PER_BLOCK], 4, false,
				 "orphan"))
			return -1;
		snprintf(c->ch.member, sizeof(c->ch.member), "orphan[%u]", idx);
	} else {
		struct inj_field one = *f;

		if (inj_set_uint(c, (uint8_t *)&ob + one.offset, one.size,
				 !strcmp(one.name, "orphan_check_sum"), one.name))
			return -1;
	}
	return inj_write_block(c, orphan_addr(p, b), &ob);
}

static int append_to_last(struct inj_ctx *c, struct inj_cp_pack *p, uint32_t n, bool *done)
{
	struct f2fs_orphan_block ob;
	uint32_t cnt;

	*done = false;
	if (!n || inj_read_block(c, orphan_addr(p, n - 1), &ob))
		return n ? -1 : 0;
	cnt = le32_to_cpu(ob.entry_count);
	if (cnt >= F2FS_ORPHANS_PER_BLOCK)
		return 0;
	put_le32(&ob.ino[cnt], (uint32_t)c->o->val);
	ob.entry_count = cpu_to_le32(cnt + 1);
	*done = true;
	inj_where(c, "cp %d orphan block %u (blkaddr 0x%x)", p->index + 1, n - 1,
		  orphan_addr(p, n - 1));
	return inj_write_block(c, orphan_addr(p, n - 1), &ob);
}

/* Move the summaries and the cp copy one block down and put a new
 * orphan block where the summaries started. */
static int insert_orphan_block(struct inj_ctx *c, struct inj_cp_pack *p, uint32_t n)
{
	uint32_t start_sum = le32_to_cpu(p->cp->cp_pack_start_sum), total = p->total, i;
	uint32_t limit = BLKS_PER_SEG;
	struct f2fs_orphan_block ob;
	uint8_t *tail;
	int r = 0;

	if (!total || start_sum >= total)
		return inj_err("checkpoint pack sizes are corrupt: cannot add an orphan block");
	if (le32_to_cpu(p->cp->ckpt_flags) & CP_NAT_BITS_FLAG)
		limit -= f2fs_nat_bits_blocks(le32_to_cpu(c->fs->sb.segment_count_nat));
	if (total + 1 > limit)
		return inj_err("no room in the pack for another orphan block");
	tail = malloc((size_t)(total - start_sum) * F2FS_BLKSIZE);
	if (!tail)
		return inj_err("out of memory");
	if (f2fs_dev_read(c->fs->dev, p->start + start_sum, total - start_sum, tail))
		r = inj_err("cannot read the checkpoint pack");
	for (i = total - start_sum; !r && i-- > 0;)
		r = inj_write_block(c, p->start + start_sum + 1 + i,
				    tail + (size_t)i * F2FS_BLKSIZE);
	free(tail);
	for (i = 0; !r && i < n; i++) {
		if (!(r = inj_read_block(c, orphan_addr(p, i), &ob))) {
			ob.blk_count = cpu_to_le16((uint16_t)(n + 1));
			r = inj_write_block(c, orphan_addr(p, i), &ob);
		}
	}
	if (r)
		return -1;
	memset(&ob, 0, sizeof(ob));
	put_le32(&ob.ino[0], (uint32_t)c->o->val);
	ob.blk_addr = cpu_to_le16((uint16_t)(n + 1));
	ob.blk_count = cpu_to_le16((uint16_t)(n + 1));
	ob.entry_count = cpu_to_le32(1);
	if (inj_write_block(c, p->start + start_sum, &ob))
		return -1;
	p->cp->cp_pack_start_sum = cpu_to_le32(start_sum + 1);
	p->cp->cp_pack_total_block_count = cpu_to_le32(total + 1);
	p->total = total + 1;
	inj_where(c, "cp %d new orphan block %u (blkaddr 0x%x)", p->index + 1, n,
		  p->start + start_sum);
	return 0;
}

static int add_orphan(struct inj_ctx *c, struct inj_cp_pack *p)
{
	uint32_t n = orphan_blocks(p);
	bool done;

	if (!c->o->has_val || !inj_val_fits(c->o, 32) || c->o->val_negative)
		return inj_err("orphan_add needs --val INO");
	if (append_to_last(c, p, n, &done))
		return -1;
	if (!done && insert_orphan_block(c, p, n))
		return -1;
	snprintf(c->ch.member, sizeof(c->ch.member), "orphan_add");
	snprintf(c->ch.old_val, sizeof(c->ch.old_val), "-");
	snprintf(c->ch.new_val, sizeof(c->ch.new_val), "%u", (uint32_t)c->o->val);
	if (done && (le32_to_cpu(p->cp->ckpt_flags) & CP_ORPHAN_PRESENT_FLAG))
		return 0;
	p->cp->ckpt_flags |= cpu_to_le32(CP_ORPHAN_PRESENT_FLAG);
	inj_cp_fix_crc(c, p->cp);
	return inj_cp_write_pack(c, p, INJ_CP_BOTH, NULL);
}

/* ---- fsync'd node chain -------------------------------------------------- */

static bool recoverable_node(const struct f2fs_checkpoint *cp, const struct f2fs_node *n)
{
	uint64_t ver = le64_to_cpu(cp->checkpoint_ver);
	uint64_t node_ver = le64_to_cpu(n->footer.cp_ver);
	uint32_t flags = le32_to_cpu(cp->ckpt_flags);
	uint32_t off = le32_to_cpu(cp->checksum_offset);

	if (flags & CP_NOCRC_RECOVERY_FLAG)
		return (uint32_t)ver == (uint32_t)node_ver;
	if ((flags & CP_CRC_RECOVERY_FLAG) && off <= F2FS_BLKSIZE - 4)
		ver |= (uint64_t)get_le32((const uint8_t *)cp + off) << 32;
	return ver == node_ver;
}

static int set_chain_link(struct inj_ctx *c)
{
	struct f2fs_fs *fs = c->fs;
	struct f2fs_node node;
	uint32_t want = c->o->has_idx ? c->o->idx : 0, i;
	uint64_t limit = (uint64_t)fs->main_segs * BLKS_PER_SEG;
	uint32_t addr = f2fs_seg_start_blkaddr(fs, fs->curseg_segno[CURSEG_WARM_NODE]) +
			fs->curseg_blkoff[CURSEG_WARM_NODE];

	if (inj_need_fs(c, "next_blkaddr"))
		return -1;
	if (c->o->pack && c->o->pack - 1 != fs->cp_index)
		return inj_err("the fsync'd node chain belongs to the current pack: use --cp 0");
	for (i = 0;; i++) {
		if (!f2fs_blkaddr_in_main(fs, addr) || i >= limit || i >= (1u << 20))
			return inj_err("the fsync'd node chain has %u block(s); no block %u", i, want);
		if (inj_read_block(c, addr, &node))
			return -1;
		if (!recoverable_node(fs->cp, &node))
			return inj_err("the fsync'd node chain has %u block(s); no block %u", i, want);
		inj_dbg(c, 1, "chain[%u] blkaddr 0x%x nid %u next 0x%x", i, addr,
			le32_to_cpu(node.footer.nid), le32_to_cpu(node.footer.next_blkaddr));
		if (i == want)
			break;
		addr = le32_to_cpu(node.footer.next_blkaddr);
	}
	inj_where(c, "cp %d fsync chain[%u] (blkaddr 0x%x)", fs->cp_index + 1, want, addr);
	if (inj_set_uint(c, (uint8_t *)&node.footer.next_blkaddr, 4, true, "next_blkaddr"))
		return -1;
	inj_node_fix_checksum(c, &node);
	return inj_write_block(c, addr, &node);
}

int inject_cp_extra(struct inj_ctx *c)
{
	struct inj_cp_pack p;
	int r;

	if (!strcmp(c->o->mb, "next_blkaddr"))
		return set_chain_link(c);
	if (inj_cp_open_pack(c, &p))
		return -1;
	if (!strcmp(c->o->mb, "orphan_add"))
		r = add_orphan(c, &p);
	else
		r = set_orphan_member(c, &p);
	inj_cp_close_pack(&p);
	return r;
}
