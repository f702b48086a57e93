/*
 * fsck_repair.c - applying a repair: everything the check recorded
 * (fsck_fix.c) and everything derived from reachability, written in one
 * atomic checkpoint.  The repair is the routines the problem table names
 * for the fix kinds (fsck_fix_routine(): one routine per kind), called
 * through the table routines[] in the order below (run_repair()).
 *
 * Order of writes, so that a power cut at any point leaves the state
 * before the repair or the repaired state:
 *  1. data blocks that must live elsewhere, copied (fsck_relocate.c);
 *     changed node and dentry blocks, out of place, to blocks the current
 *     checkpoint does not use (fsck_alloc.c); the copies of the
 *     roll-forward chain when one is pending; summary blocks of segments
 *     the repair filled, and corrected summary entries;
 *  2. f2fs_commit(): dirty SIT and NAT blocks to their inactive copies, the
 *     new pack, a flush, its last block (the commit point), a flush;
 *  3. a damaged superblock copy from the good one, one copy at a time.
 * Summary entries are not versioned: a corrected entry (2.) is correct for
 * the old state too, so an interrupted repair shows a subset of the old
 * problems, never a new one.
 *
 * Derived here: the logs' write positions (a log the kernel would refuse
 * where it is moves to a free section, or in its own segment past the
 * blocks in use), NAT (leaked, bad and unreachable entries cleared, owners
 * and addresses set), SIT (every segment's map, count and type from the
 * blocks in use after the repair; section sums follow), checkpoint
 * counters, free segments, the orphan list, nat_bits (by f2fs_commit).
 * Quota files are rebuilt (fsck_quota.c) after lost+found's fixes, which
 * change usage, and CP_QUOTA_NEED_FSCK_FLAG is cleared once they are right.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "f2fs_ckpt.h"
#include "f2fs_commit.h"
#include "f2fs_crc.h"
#include "f2fs_err.h"
#include "f2fs_super.h"
#include "fsck.h"
#include "fsck_alloc.h"
#include "fsck_walk.h"

struct repair_run {
	struct fsck_ctx *ctx;
	struct fsck_alloc a;
	struct f2fs_commit_plan plan;
	bool keep_chain;		/* roll-forward chain re-homed */
	uint32_t chain_segno;
	uint64_t nodes_written, data_written, ssa_written, chain_written;
	uint64_t nat_changed, sit_changed;
};

static uint8_t rev8(uint8_t b)
{
	b = (uint8_t)((b & 0xF0) >> 4 | (b & 0x0F) << 4);
	b = (uint8_t)((b & 0xCC) >> 2 | (b & 0x33) << 2);
	return (uint8_t)((b & 0xAA) >> 1 | (b & 0x55) << 1);
}

static uint8_t nat_version(struct fsck_ctx *ctx, uint32_t nid)
{
	struct f2fs_nat_entry e;

	return fsck_nat_lookup(ctx, nid, &e) ? e.version : 0;
}

static uint32_t nat_addr(struct fsck_ctx *ctx, uint32_t nid)
{
	struct f2fs_nat_entry e;

	return fsck_nat_lookup(ctx, nid, &e) ? le32_to_cpu(e.block_addr) : 0;
}

static void unuse(struct repair_run *r, uint32_t addr)
{
	struct fsck_ctx *ctx = r->ctx;

	if (fsck_addr_in_main(ctx, addr)) {
		uint64_t rel = addr - ctx->fs->main_blkaddr;

		r->a.fin[rel >> 3] &= (uint8_t)~(1u << (rel & 7));
	}
}

static void seal_node(struct fsck_ctx *ctx, struct f2fs_node *n)
{
	if (f2fs_inode_has_checksum(ctx->fs->features, n))
		n->i.i_inode_checksum = cpu_to_le32(f2fs_inode_checksum(ctx->fs->inode_chksum_seed, n));
}

/* ---- logs ---- */

/* Whether log t's segment holds blocks in use only of the other class
 * (node blocks in a data log's segment or data blocks in a node log's):
 * the kernel never opens a log there, so the checkpoint names the wrong
 * segment. */
static bool log_on_other_class(const struct repair_run *r, int t)
{
	uint32_t segno = r->ctx->fs->curseg_segno[t];
	uint8_t other_class = t >= CURSEG_HOT_NODE ? 1 : 2;
	uint8_t own_class = t >= CURSEG_HOT_NODE ? 2 : 1;

	/* a segment holding blocks of both classes is the relocation's: the
	 * blocks of the other class move out and the log stays */
	return segno < r->ctx->fs->main_segs && (r->ctx->seg_kind[segno] & other_class) &&
	       !(r->ctx->seg_kind[segno] & own_class);
}

/* Whether the checkpoint's log t cannot be kept where it is: a segment
 * or offset the kernel refuses (f2fs_sanity_check_ckpt() wants the
 * offset below 512), an unknown allocation type, a segment of the other
 * class, or a section another log already holds. */
static bool log_must_move(struct repair_run *r, int t)
{
	struct f2fs_fs *fs = r->ctx->fs;
	uint32_t segno = fs->curseg_segno[t], off = fs->curseg_blkoff[t];

	if (segno >= fs->main_segs || off >= BLKS_PER_SEG || fs->cp->alloc_type[t] > SSR)
		return true;
	if (log_on_other_class(r, t))
		return true;
	/* On a zoned volume the next write must land at the zone's write
	 * pointer (the kernel moves a log that is not there). */
	if (!fsck_zone_log_at_wp(r->ctx, segno, off))
		return true;
	for (int u = 0; u < t; u++)
		if (fs->curseg_segno[u] / fs->segs_per_sec == segno / fs->segs_per_sec)
			return true;
	return false;
}

static bool block_in_use(const struct repair_run *r, uint32_t segno, uint32_t k)
{
	return fsck_bit(r->a.fin, (uint64_t)segno * BLKS_PER_SEG + k);
}

/* The write position of log t after the repair, or BLKS_PER_SEG when the
 * log has no room left in its segment.  The kernel's sanity_check_curseg()
 * wants the block at the position free in SIT and, for an LFS log, every
 * block after it too: an LFS position goes past the last block in use; an
 * SSR position goes to a free block (the next one, else the first), one
 * that nothing of the current state names either. */
static uint32_t log_position(const struct repair_run *r, int t)
{
	const struct f2fs_fs *fs = r->ctx->fs;
	uint32_t segno = fs->curseg_segno[t], off = fs->curseg_blkoff[t];

	if (fs->cp->alloc_type[t] == LFS) {
		uint32_t end = off;

		for (uint32_t k = off; k < BLKS_PER_SEG; k++)
			if (block_in_use(r, segno, k))
				end = k + 1;
		return end;
	}
	if (!block_in_use(r, segno, off))
		return off;
	for (uint32_t i = 1; i < BLKS_PER_SEG; i++) {
		uint32_t k = (off + i) % BLKS_PER_SEG;

		if (!block_in_use(r, segno, k) &&
		    !fsck_bit(r->a.busy, (uint64_t)segno * BLKS_PER_SEG + k))
			return k;
	}
	return BLKS_PER_SEG;
}

/* Logs the new checkpoint cannot keep as they are: moved to a fresh
 * section, or (write position before a block in use) given a position
 * the kernel accepts in their own segment. */
static int settle_logs(struct repair_run *r)
{
	for (int t = 0; t < NR_CURSEG_TYPE; t++) {
		uint32_t pos = BLKS_PER_SEG;

		/* a segment of the other class is not the log's: its SSA block
		 * keeps describing it (corrected entries go there), and the
		 * log's summary is not written over it when the log moves */
		if (log_on_other_class(r, t))
			r->ctx->fs->curseg_segno[t] = r->ctx->fs->main_segs;

		if (!log_must_move(r, t))
			pos = log_position(r, t);
		/* a position at the zone capacity is a full segment: the
		 * kernel would have left it */
		if (pos < BLKS_PER_SEG &&
		    pos < fsck_zone_usable_in_seg(r->ctx, r->ctx->fs->curseg_segno[t])) {
			r->plan.curseg_blkoff[t] = (uint16_t)pos;
			continue;
		}
		if (fsck_alloc_move(&r->a, t)) {
			fsck_diag(r->ctx, "no free section for log %d", t);
			return -ENOSPC;
		}
	}
	return 0;
}

/* ---- summaries ---- */

static int cmp_ssa(const void *x, const void *y)
{
	const struct fsck_fixssa *a = x, *b = y;

	return a->blkaddr < b->blkaddr ? -1 : a->blkaddr > b->blkaddr;
}

static void set_entry(struct fsck_ctx *ctx, struct f2fs_summary_block *sum,
		      const struct fsck_fixssa *e)
{
	uint32_t off = (e->blkaddr - ctx->fs->main_blkaddr) % BLKS_PER_SEG;
	uint32_t segno = f2fs_blkaddr_to_segno(ctx->fs, e->blkaddr);

	if (e->footer_only) {
		sum->footer.entry_type = (ctx->seg_kind[segno] & 3) == 2 ? SUM_TYPE_NODE : SUM_TYPE_DATA;
		return;
	}
	sum->entries[off].nid = cpu_to_le32(e->nid);
	sum->entries[off].ofs_in_node = cpu_to_le16(e->is_node ? 0 : e->ofs);
	sum->entries[off].version = e->is_node ? 0 : nat_version(ctx, e->nid);
}

/* Corrected entries: in the checkpoint's summaries for current segments,
 * read-modify-write of the SSA block for the others. */
static int fix_summaries(struct repair_run *r)
{
	struct fsck_ctx *ctx = r->ctx;
	struct fsck_plan *plan = ctx->plan;
	struct f2fs_summary_block blk;
	int err = 0;

	if (plan->n_ssa)
		qsort(plan->ssa, plan->n_ssa, sizeof(*plan->ssa), cmp_ssa);
	for (uint32_t i = 0; i < plan->n_ssa && !err;) {
		uint32_t segno = f2fs_blkaddr_to_segno(ctx->fs, plan->ssa[i].blkaddr), j = i;
		int t;

		while (j < plan->n_ssa && f2fs_blkaddr_to_segno(ctx->fs, plan->ssa[j].blkaddr) == segno)
			j++;
		for (t = 0; t < NR_CURSEG_TYPE; t++)
			if (ctx->fs->curseg_segno[t] == segno)
				break;
		if (t < NR_CURSEG_TYPE) {
			for (uint32_t k = i; k < j; k++)
				set_entry(ctx, &ctx->fs->cursum[t], &plan->ssa[k]);
		} else {
			err = f2fs_dev_read(ctx->fs->dev, (uint64_t)ctx->fs->ssa_blkaddr + segno, 1, &blk);
			for (uint32_t k = i; k < j && !err; k++)
				set_entry(ctx, &blk, &plan->ssa[k]);
			if (!err)
				err = f2fs_dev_write(ctx->fs->dev, (uint64_t)ctx->fs->ssa_blkaddr + segno, 1, &blk);
			r->ssa_written++;
		}
		i = j;
	}
	return err;
}

static int write_filled_summaries(struct repair_run *r)
{
	struct f2fs_fs *fs = r->ctx->fs;
	int err = 0;

	for (uint32_t i = 0; i < r->a.n_filled && !err; i++) {
		err = f2fs_dev_write(fs->dev, (uint64_t)fs->ssa_blkaddr + r->a.filled[i].segno, 1,
				     &r->a.filled[i].sum);
		r->ssa_written++;
	}
	return err;
}

/* Blocks of segno to read for its summary: up to the last one in use,
 * which a write position that is too small would leave out. */
static uint32_t blocks_to_cover(const struct fsck_ctx *ctx, uint32_t segno, uint32_t blkoff)
{
	uint32_t n = blkoff < BLKS_PER_SEG ? blkoff : BLKS_PER_SEG;

	for (uint32_t k = n; k < BLKS_PER_SEG; k++)
		if (fsck_bit(ctx->reach, (uint64_t)segno * BLKS_PER_SEG + k))
			n = k + 1;
	return n;
}

/* Without node summaries in the pack (not an unmount checkpoint) the
 * kernel rebuilds the node logs' summaries from the node footers; the
 * new pack carries them, so rebuild them the same way first. */
static int rebuild_node_log_summaries(struct fsck_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;
	uint8_t *buf;
	int err = 0;

	if (f2fs_cp_has_node_summaries(fs->cp))
		return 0;
	buf = f2fs_blocks_alloc(BLKS_PER_SEG);
	if (!buf)
		return -ENOMEM;
	for (int t = CURSEG_HOT_NODE; t < NR_CURSEG_TYPE && !err; t++) {
		uint32_t segno = fs->curseg_segno[t], n;
		struct f2fs_summary_block *sum = &fs->cursum[t];

		if (segno >= fs->main_segs)
			continue;
		n = blocks_to_cover(ctx, segno, fs->curseg_blkoff[t]);
		memset(sum->entries, 0, sizeof(sum->entries));
		sum->footer.entry_type = SUM_TYPE_NODE;
		if (!n)
			continue;
		err = f2fs_dev_read(fs->dev, f2fs_seg_start_blkaddr(fs, segno), n, buf);
		for (uint32_t k = 0; k < n && !err; k++) {
			const struct f2fs_node *nb = (const void *)(buf + (size_t)k * F2FS_BLKSIZE);

			if (fsck_bit(ctx->reach, (uint64_t)segno * BLKS_PER_SEG + k))
				sum->entries[k].nid = nb->footer.nid;
		}
	}
	free(buf);
	return err;
}

/* ---- node and data blocks ---- */

static bool node_is_inode(const struct f2fs_node *n)
{
	return n->footer.nid == n->footer.ino;
}

/* Point slot ofs of node owner at addr. */
static int repoint(struct fsck_ctx *ctx, uint32_t owner, uint16_t ofs, uint32_t addr)
{
	struct f2fs_node *n = fsck_fix_node(ctx, owner, nat_addr(ctx, owner), NULL);

	if (!n)
		return ctx->plan->err ? ctx->plan->err : -EFSCORRUPTED;
	if (node_is_inode(n)) {
		uint32_t idx = fsck_extra_words(&n->i) + ofs;

		if (idx >= DEF_ADDRS_PER_INODE)
			return -EFSCORRUPTED;
		n->i.i_addr[idx] = cpu_to_le32(addr);
	} else {
		if (ofs >= ADDRS_PER_BLOCK)
			return -EFSCORRUPTED;
		n->dn.addr[ofs] = cpu_to_le32(addr);
	}
	return 0;
}

static int write_data_blocks(struct repair_run *r)
{
	struct fsck_ctx *ctx = r->ctx;
	struct fsck_plan *plan = ctx->plan;
	int err = 0;

	for (uint32_t i = 0; i < plan->n_data && !err; i++) {
		struct fsck_fixdata *d = &plan->data[i];

		if (!(ctx->ni[d->owner].flags & FSCK_NI_NODE))
			continue;	/* its owner is gone */
		err = fsck_alloc_block(&r->a, CURSEG_HOT_DATA, d->owner, d->ofs,
				       nat_version(ctx, d->owner), &d->new_addr);
		if (!err)
			err = f2fs_dev_write(ctx->fs->dev, d->new_addr, 1, d->blk);
		if (!err)
			err = repoint(ctx, d->owner, d->ofs, d->new_addr);
		if (!err && d->old_addr)
			unuse(r, d->old_addr);
		r->data_written++;
	}
	return err;
}

static int write_node_blocks(struct repair_run *r)
{
	struct fsck_ctx *ctx = r->ctx;
	struct fsck_plan *plan = ctx->plan;
	int err = 0;

	for (uint32_t i = 0; i < plan->n_nodes && !err; i++) {
		struct fsck_fixnode *n = &plan->nodes[i];

		if (!(ctx->ni[n->nid].flags & FSCK_NI_NODE))
			continue;	/* not part of the tree any more */
		err = fsck_alloc_block(&r->a, CURSEG_HOT_NODE, n->nid, 0, 0, &n->new_addr);
		if (err)
			break;
		n->blk->footer.next_blkaddr = cpu_to_le32(n->new_addr + 1);
		seal_node(ctx, n->blk);
		err = f2fs_dev_write(ctx->fs->dev, n->new_addr, 1, n->blk);
		unuse(r, n->old_addr);
		r->nodes_written++;
	}
	return err;
}

/* ---- the roll-forward chain ---- */

/* The usable blocks of the smallest section: all of them, or on a zoned
 * volume those before the zone capacity. */
static uint32_t smallest_section(const struct fsck_ctx *ctx)
{
	const struct f2fs_fs *fs = ctx->fs;
	uint32_t least = fs->segs_per_sec * BLKS_PER_SEG;

	for (uint32_t sec = 0; ctx->zones && sec < fs->main_segs / fs->segs_per_sec; sec++) {
		uint32_t n = 0;

		for (uint32_t s = 0; s < fs->segs_per_sec; s++)
			n += fsck_zone_usable_in_seg(ctx, sec * fs->segs_per_sec + s);
		if (n < least)
			least = n;
	}
	return least;
}

/* Copies of the chain at the start of a fresh warm-node segment, with
 * footers that belong to the new checkpoint (CP_NOCRC_RECOVERY_FLAG: only
 * the low 32 bits of cp_ver count), the data blocks left where they are
 * and unallocated; the block after the last copy is zeroed so the chain
 * ends there. */
static int rehome_chain(struct repair_run *r)
{
	struct fsck_ctx *ctx = r->ctx;
	struct fsck_plan *plan = ctx->plan;
	struct f2fs_fs *fs = ctx->fs;
	uint8_t *buf = calloc(1, F2FS_BLKSIZE);
	uint32_t start, cap = smallest_section(ctx);
	int err;

	if (!buf)
		return -ENOMEM;
	if (plan->n_chain + 1 > cap) {
		free(buf);
		fsck_diag(ctx, "the roll-forward chain (%u blocks) does not fit one section", plan->n_chain);
		return -EAGAIN;
	}
	err = fsck_alloc_move(&r->a, CURSEG_WARM_NODE);
	if (err) {
		free(buf);
		return err;
	}
	start = fs->main_blkaddr + r->a.log[CURSEG_WARM_NODE].segno * BLKS_PER_SEG;
	for (uint32_t i = 0; i <= plan->n_chain && !err; i++) {
		uint64_t rel = (uint64_t)(start - fs->main_blkaddr) + i;

		if (i < plan->n_chain) {
			struct f2fs_node *n = (struct f2fs_node *)buf;

			err = f2fs_dev_read(fs->dev, plan->chain[i], 1, buf);
			if (err)
				break;
			n->footer.cp_ver = cpu_to_le64(r->plan.version & 0xffffffffu);
			n->footer.next_blkaddr = cpu_to_le32(start + i + 1);
			seal_node(ctx, n);
		} else {
			memset(buf, 0, F2FS_BLKSIZE);
		}
		err = f2fs_dev_write(fs->dev, start + i, 1, buf);
		fsck_set(r->a.busy, rel);
		r->chain_written++;
	}
	free(buf);
	r->keep_chain = true;
	r->chain_segno = r->a.log[CURSEG_WARM_NODE].segno;
	/* the log starts at the chain: blkoff 0, nothing valid in it */
	r->a.log[CURSEG_WARM_NODE].blkoff = 0;
	return err;
}

/* ---- NAT ---- */

static int nat_put(struct repair_run *r, uint32_t nid, uint32_t ino, uint32_t addr, uint8_t ver)
{
	struct f2fs_nat_entry e = { .version = ver, .ino = cpu_to_le32(ino),
				    .block_addr = cpu_to_le32(addr) };

	r->nat_changed++;
	return f2fs_nat_set(&r->ctx->nat, nid, &e);
}

static int rebuild_nat(struct repair_run *r)
{
	struct fsck_ctx *ctx = r->ctx;
	struct f2fs_nat_model *nm = &ctx->nat;
	struct fsck_plan *plan = ctx->plan;
	struct f2fs_nat_entry e;
	int err = 0;

	/* the journal stays when a roll-forward chain is kept: without the
	 * entries the kernel never writes (the checks reported them) */
	r->nat_changed += f2fs_nat_journal_drop_bad(nm);
	/* and the block entries under it carry its values: a damaged one is
	 * harmless to the kernel, not to f2fs-tools, which reads it too */
	r->nat_changed += f2fs_nat_journal_settle_blocks(nm);
	if (!f2fs_nat_get(nm, 0, &e) && (e.block_addr || e.ino))
		err = nat_put(r, 0, 0, 0, 0);
	for (uint32_t nid = F2FS_NODE_INO; nid <= F2FS_META_INO && !err; nid++)
		if (!f2fs_nat_get(nm, nid, &e) && (le32_to_cpu(e.block_addr) != 1 ||
						   le32_to_cpu(e.ino) != nid))
			err = nat_put(r, nid, nid, 1, 0);
	for (uint32_t i = 0; i < plan->n_nodes && !err; i++) {
		const struct fsck_fixnode *n = &plan->nodes[i];

		if (n->new_addr)
			err = nat_put(r, n->nid, plan->owner[n->nid] ? plan->owner[n->nid] : n->nid,
				      n->new_addr, nat_version(ctx, n->nid));
	}
	for (uint32_t nid = F2FS_RESERVED_NODE_NUM; nid < nm->max_nid && !err; nid++) {
		uint32_t b = nid / (uint32_t)NAT_ENTRY_PER_BLOCK;

		if (nm->block_used[b] <= (b == 0 ? 3u : 0u)) {
			nid = (b + 1) * (uint32_t)NAT_ENTRY_PER_BLOCK - 1;
			continue;
		}
		if (f2fs_nat_get(nm, nid, &e) || !e.block_addr)
			continue;
		if (!(ctx->ni[nid].flags & FSCK_NI_NODE))
			err = nat_put(r, nid, 0, 0, e.version);
		else if (plan->owner[nid] && le32_to_cpu(e.ino) != plan->owner[nid])
			err = nat_put(r, nid, plan->owner[nid], le32_to_cpu(e.block_addr), e.version);
	}
	return err;
}

/* ---- SIT ---- */

static bool is_node_type(unsigned int t)
{
	return t >= CURSEG_HOT_NODE && t <= CURSEG_COLD_NODE;
}

/* The type a log's segment or a segment holding blocks of the given
 * classes should have, or -1 for a segment that holds none. */
static int used_segment_type(struct repair_run *r, uint32_t segno, uint32_t count)
{
	const struct f2fs_seg_entry *se = &r->ctx->sit.segs[segno];
	uint8_t kind = r->ctx->seg_kind[segno] & 3;
	int log = fsck_alloc_log_of(&r->a, segno);

	/* blocks the walk never saw there: a segment the repair filled */
	if (log < 0 && count && !kind)
		log = fsck_alloc_type_of(&r->a, segno);
	if (log >= 0)
		return log;
	/* one class (also for a segment emptied by the repair) */
	if (kind == 2)
		return is_node_type(se->type) ? se->type : CURSEG_WARM_NODE;
	if (kind == 1)
		return se->type < CURSEG_HOT_NODE ? se->type : CURSEG_WARM_DATA;
	return -1;
}

static uint32_t final_count(const struct repair_run *r, uint32_t segno)
{
	const uint8_t *fin = r->a.fin + (size_t)segno * (BLKS_PER_SEG / 8);
	uint32_t count = 0;

	for (uint32_t i = 0; i < SIT_VBLOCK_MAP_SIZE; i++)
		count += (uint32_t)__builtin_popcount(fin[i]);
	return count;
}

/* The type of every segment after the repair.  The kernel's GC takes a
 * section's class from the segment it starts at, empty or not, so an
 * empty segment takes the type of its section's log or of the section's
 * first segment in use; a section without either keeps its types. */
static void segment_types(struct repair_run *r, int8_t *types)
{
	const struct f2fs_sit_model *m = &r->ctx->sit;

	for (uint32_t first = 0; first < m->main_segs; first += m->segs_per_sec) {
		int sec_type = -1, log_type = -1;

		for (uint32_t s = first; s < first + m->segs_per_sec; s++) {
			types[s] = (int8_t)used_segment_type(r, s, final_count(r, s));
			if (types[s] >= 0 && sec_type < 0)
				sec_type = types[s];
			if (fsck_alloc_log_of(&r->a, s) >= 0)
				log_type = types[s];
		}
		if (log_type >= 0)
			sec_type = log_type;
		for (uint32_t s = first; s < first + m->segs_per_sec; s++) {
			uint8_t own = m->segs[s].type;

			if (types[s] < 0)
				types[s] = (int8_t)(sec_type >= 0 ? sec_type :
						    own < NR_CURSEG_TYPE ? own : CURSEG_HOT_DATA);
		}
	}
}

static int rebuild_sit(struct repair_run *r)
{
	struct fsck_ctx *ctx = r->ctx;
	struct f2fs_sit_model *m = &ctx->sit;
	int8_t *types = malloc(m->main_segs);

	if (!types)
		return -ENOMEM;
	segment_types(r, types);
	for (uint32_t segno = 0; segno < m->main_segs; segno++) {
		struct f2fs_seg_entry *se = &m->segs[segno];
		const uint8_t *fin = r->a.fin + (size_t)segno * (BLKS_PER_SEG / 8);
		struct f2fs_sit_entry raw;
		uint32_t count = 0;
		unsigned int type;
		bool same = true;

		for (uint32_t i = 0; i < SIT_VBLOCK_MAP_SIZE; i++) {
			raw.valid_map[i] = rev8(fin[i]);
			count += (uint32_t)__builtin_popcount(fin[i]);
			if (raw.valid_map[i] != se->cur_valid_map[i] ||
			    raw.valid_map[i] != se->ckpt_valid_map[i])
				same = false;
		}
		type = (unsigned int)types[segno];
		if (same && count == se->valid_blocks && count == se->ckpt_valid_blocks &&
		    type == se->type)
			continue;
		raw.vblocks = cpu_to_le16((uint16_t)(type << SIT_VBLOCKS_SHIFT | count));
		raw.mtime = cpu_to_le64(se->mtime);
		f2fs_sit_load_entry(m, segno, &raw);
		f2fs_sit_mark_dirty(m, segno);
		r->sit_changed++;
	}
	f2fs_sit_finish_load(m);
	free(types);
	return 0;
}

/* ---- checkpoint ---- */

static void build_plan(struct repair_run *r, uint32_t *orphans, uint32_t n_orphans)
{
	struct fsck_ctx *ctx = r->ctx;
	struct f2fs_fs *fs = ctx->fs;
	struct f2fs_commit_plan *p = &r->plan;
	uint32_t free_segs = 0;

	for (int t = 0; t < NR_CURSEG_TYPE; t++) {
		if (!r->a.log[t].moved)
			continue;
		p->curseg_segno[t] = r->a.log[t].segno;
		p->curseg_blkoff[t] = (uint16_t)r->a.log[t].blkoff;
		p->alloc_type[t] = LFS;
		memset(p->sums[t].entries, 0, sizeof(p->sums[t].entries));
		memcpy(p->sums[t].entries, r->a.log[t].sum.entries, sizeof(p->sums[t].entries));
	}
	for (int t = 0; t < NR_CURSEG_TYPE; t++)
		if (!r->a.log[t].moved)
			memcpy(p->sums[t].entries, fs->cursum[t].entries, sizeof(p->sums[t].entries));
	for (uint32_t s = 0; s < ctx->sit.main_segs; s++)
		if (!ctx->sit.segs[s].valid_blocks && fsck_alloc_log_of(&r->a, s) < 0)
			free_segs++;
	p->valid_block_count = ctx->st.nodes + ctx->st.data_blocks + ctx->st.new_addr_blocks +
			       ctx->st.compress_addr_slots;
	p->valid_node_count = (uint32_t)ctx->st.nodes;
	p->valid_inode_count = (uint32_t)ctx->st.inodes;
	p->free_segment_count = free_segs;
	p->orphans = orphans;
	p->n_orphans = n_orphans;
	p->flags &= ~(uint32_t)(CP_ERROR_FLAG | CP_FSCK_FLAG | CP_CRC_RECOVERY_FLAG |
				CP_NOCRC_RECOVERY_FLAG | CP_UMOUNT_FLAG | CP_FASTBOOT_FLAG);
	if (fsck_quota_settled(ctx))
		p->flags &= ~(uint32_t)CP_QUOTA_NEED_FSCK_FLAG;
	if (r->keep_chain) {
		p->flags |= CP_NOCRC_RECOVERY_FLAG;
		p->node_summaries = false;
		p->nat_bits = false;
	} else {
		p->flags |= CP_UMOUNT_FLAG;
		p->node_summaries = true;
		p->nat_bits = (fs->cp_flags & CP_NAT_BITS_FLAG) != 0;
	}
}

/* Orphans the walk accepted, in their order. */
static uint32_t keep_orphans(struct fsck_ctx *ctx, uint32_t *out)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < ctx->n_orphans; i++) {
		uint32_t ino = ctx->orphans[i];

		if (ino < ctx->fs->max_nid && (ctx->ni[ino].flags & FSCK_NI_ORPHAN) &&
		    (ctx->ni[ino].flags & FSCK_NI_INODE)) {
			bool dup = false;

			for (uint32_t k = 0; k < n && !dup; k++)
				dup = out[k] == ino;
			if (!dup)
				out[n++] = ino;
		}
	}
	return n;
}

/* ---- superblock ---- */

static bool sb_copy_bad(const struct f2fs_fs *fs, int i)
{
	return fs->sb_check[i].err != 0 ||
	       memcmp(&fs->sb_copy[i], &fs->sb, sizeof(fs->sb)) != 0;
}

static int write_sb_copy(struct f2fs_fs *fs, int i, const struct f2fs_super_block *sb)
{
	return f2fs_dev_pwrite(fs->dev, (uint64_t)i * F2FS_BLKSIZE + F2FS_SUPER_OFFSET,
			       sizeof(*sb), sb);
}

/* Correct what the check reported in the superblock itself (the kernel's
 * recorded errors and stop reasons and quota inode numbers without the
 * quota_ino feature are cleared; a segment_count past the main area's end
 * becomes what the kernel writes at mount, the segments up to that end;
 * a quota number the walk found the file of is set, F2FS-4049);
 * true if anything changed. */
static bool correct_sb_fields(const struct fsck_plan *plan, struct f2fs_super_block *sb)
{
	static const struct f2fs_super_block zero;
	bool changed = false;

	for (int t = 0; t < F2FS_MAX_QUOTAS; t++)
		if (plan->qf_ino[t] && le32_to_cpu(sb->qf_ino[t]) != plan->qf_ino[t]) {
			sb->qf_ino[t] = cpu_to_le32(plan->qf_ino[t]);
			changed = true;
		}

	if (f2fs_sb_segment_count_excess(sb)) {
		sb->segment_count = cpu_to_le32((uint32_t)((f2fs_sb_main_end(sb) -
			le32_to_cpu(sb->segment0_blkaddr)) >> 9));
		changed = true;
	}

	if (memcmp(sb->s_errors, zero.s_errors, sizeof(sb->s_errors)) ||
	    memcmp(sb->s_stop_reason, zero.s_stop_reason, sizeof(sb->s_stop_reason))) {
		memset(sb->s_errors, 0, sizeof(sb->s_errors));
		memset(sb->s_stop_reason, 0, sizeof(sb->s_stop_reason));
		changed = true;
	}
	if (!(le32_to_cpu(sb->feature) & F2FS_FEATURE_QUOTA_INO) &&
	    memcmp(sb->qf_ino, zero.qf_ino, sizeof(sb->qf_ino))) {
		memset(sb->qf_ino, 0, sizeof(sb->qf_ino));
		changed = true;
	}
	if (changed && (le32_to_cpu(sb->feature) & F2FS_FEATURE_SB_CHKSUM))
		sb->crc = cpu_to_le32(f2fs_sb_checksum(sb));
	return changed;
}

/* Called after the commit: the copy in use is valid throughout, unless
 * the superblock was rebuilt from two invalid copies (both are written,
 * the one not in use first, as the kernel writes its backup first). */
static int fix_superblocks(struct repair_run *r)
{
	struct f2fs_fs *fs = r->ctx->fs;
	struct f2fs_super_block good = fs->sb;
	int use = fs->sb_index, other = 1 - use, err = 0;
	bool clear_errors = correct_sb_fields(r->ctx->plan, &good);
	bool write_use = clear_errors || fs->salvage.sb_rebuilt;

	if (!write_use && !sb_copy_bad(fs, other))
		return 0;
	err = write_sb_copy(fs, other, &good);
	if (!err)
		err = f2fs_dev_flush(fs->dev);
	if (!err && write_use) {
		err = write_sb_copy(fs, use, &good);
		if (!err)
			err = f2fs_dev_flush(fs->dev);
	}
	return err;
}

/* The pack the check went on from although its checksum failed (lib's
 * salvage: nothing else wrong with it) is the older one once the new
 * pack is committed; written again with its checksum, first block then
 * last, it is a valid older pack as the kernel leaves one, instead of
 * one the kernel warns about at every mount. */
static int reseal_crc_only_pack(struct f2fs_fs *fs)
{
	uint32_t start = le32_to_cpu(fs->sb.cp_blkaddr) + (uint32_t)(1 - fs->cp_index) * BLKS_PER_SEG;
	uint8_t blk[F2FS_BLKSIZE];
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)blk;
	uint32_t total;
	int err;

	if (!fs->salvage.cp_crc_only)
		return 0;
	err = f2fs_dev_read(fs->dev, start, 1, blk);
	if (err)
		return err;
	total = le32_to_cpu(cp->cp_pack_total_block_count);
	if (total <= 2 || total > BLKS_PER_SEG || f2fs_cp_seal(cp))
		return 0;
	err = f2fs_dev_write(fs->dev, start, 1, blk);
	if (!err)
		err = f2fs_dev_flush(fs->dev);
	if (!err)
		err = f2fs_dev_write(fs->dev, (uint64_t)start + total - 1, 1, blk);
	if (!err)
		err = f2fs_dev_flush(fs->dev);
	return err;
}

/* ---- checkpoint geometry ---- */

/* The fields mkfs sets once (reserved and overprovision segments, user
 * blocks), taken from the other pack when the one in use has them wrong
 * (lib's salvage derived what the superblock implies; the kernel's other
 * refusals, CP_ERROR_FLAG, counts and logs, are fixed by the new pack
 * itself). */
static int restore_cp_geometry(struct fsck_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;
	int other = 1 - fs->cp_index;
	struct f2fs_checkpoint *cp = fs->cp, *o;
	const char *why;
	uint8_t *buf;
	int err;

	if (!f2fs_ckpt_check_geometry(&fs->sb, cp, &why))
		return 0;
	if (fs->cp_check[other].err)
		return -EFSCORRUPTED;
	buf = malloc(F2FS_BLKSIZE);
	if (!buf)
		return -ENOMEM;
	err = f2fs_dev_read(fs->dev, le32_to_cpu(fs->sb.cp_blkaddr) + (uint32_t)other * BLKS_PER_SEG,
			    1, buf);
	o = (struct f2fs_checkpoint *)buf;
	if (!err && f2fs_ckpt_check_geometry(&fs->sb, o, &why))
		err = -EFSCORRUPTED;
	if (!err) {
		cp->user_block_count = o->user_block_count;
		cp->rsvd_segment_count = o->rsvd_segment_count;
		cp->overprov_segment_count = o->overprov_segment_count;
	}
	free(buf);
	return err;
}

static bool anything_fixable(const struct fsck_ctx *ctx)
{
	for (size_t i = 0; i < fsck_n_problems; i++)
		if (ctx->code_count[i] && fsck_problems[i].fix != FIX_NONE &&
		    fsck_problems[i].fix != FIX_UNFIXABLE)
			return true;
	return false;
}

/* ---- the whole repair ---- */

static int refuse(struct fsck_ctx *ctx, const char *why)
{
	fsck_diag(ctx, "not repairing: %s", why);
	return -EAGAIN;
}

/* A truncated image file grows to the end of the main area first: its
 * missing tail was read as zeroes, and the new blocks and the checkpoint
 * may be written there.  Growing loses nothing (the kernel could not read
 * that tail), so a cut after it leaves the old checkpoint as usable. */
static int grow_short_image(struct fsck_ctx *ctx)
{
	int err;

	if (!ctx->fs->short_blocks)
		return 0;
	err = f2fs_dev_grow_file(ctx->fs->dev);
	if (!err)
		err = f2fs_dev_flush(ctx->fs->dev);
	return err;
}

/* ---- the routines of the fix kinds (fsck_fix_routine()) ---- */

static int apply_image_grow(struct repair_run *r)
{
	return grow_short_image(r->ctx);
}

static int apply_zones(struct repair_run *r)
{
	return fsck_zone_apply(r->ctx);
}

static int apply_dirs(struct repair_run *r)
{
	return fsck_lpf_reconnect(r->ctx);
}

static int apply_shared(struct repair_run *r)
{
	return fsck_shared_apply(r->ctx);
}

static int apply_remap(struct repair_run *r)
{
	return fsck_relocate_remap(r->ctx);
}

static int apply_quota(struct repair_run *r)
{
	return fsck_quota_rebuild(r->ctx);
}

static int apply_relocate(struct repair_run *r)
{
	return fsck_relocate_apply(r->ctx, &r->a);
}

static int apply_blocks(struct repair_run *r)
{
	int err = write_data_blocks(r);

	return err ? err : write_node_blocks(r);
}

/* The new pack: the orphans kept, the counters, then the commit. */
static int apply_checkpoint(struct repair_run *r)
{
	struct fsck_ctx *ctx = r->ctx;
	uint32_t *orphans, n_orphans;
	int err;

	orphans = malloc(((size_t)ctx->n_orphans + 1) * sizeof(*orphans));
	if (!orphans)
		return -ENOMEM;
	n_orphans = keep_orphans(ctx, orphans);
	build_plan(r, orphans, n_orphans);
	err = f2fs_dev_flush(ctx->fs->dev);
	if (!err)
		err = f2fs_commit(ctx->fs, &ctx->sit, &ctx->nat, &r->plan);
	r->plan.orphans = NULL;	/* the commit has written them */
	free(orphans);
	return err;
}

/*
 * Each routine runs when a problem of a kind it applies was planned (its
 * code reported and the table names the kind), or in every repair when
 * it settles state that any fix may change: the zones and the logs (from
 * the SIT the repair writes), lost+found (an entry a fix drops can leave
 * its inode unreachable), quota (a fix that changes an inode changes the
 * usage), the changed blocks, NAT, SIT and the checkpoint (the commit).
 */
static const struct {
	int (*apply)(struct repair_run *r);
	bool every_repair;
} routines[FSCK_RT_COUNT] = {
	[FSCK_RT_IMAGE_GROW] = { apply_image_grow, false },
	[FSCK_RT_ZONES] = { apply_zones, true },
	[FSCK_RT_DIRS] = { apply_dirs, true },
	[FSCK_RT_SHARED] = { apply_shared, false },
	[FSCK_RT_REMAP] = { apply_remap, false },
	[FSCK_RT_QUOTA] = { apply_quota, true },
	[FSCK_RT_LOGS] = { settle_logs, true },
	[FSCK_RT_SUMMARIES] = { fix_summaries, false },
	[FSCK_RT_RELOCATE] = { apply_relocate, true },
	[FSCK_RT_BLOCKS] = { apply_blocks, true },
	[FSCK_RT_NAT] = { rebuild_nat, true },
	[FSCK_RT_SIT] = { rebuild_sit, true },
	[FSCK_RT_CHECKPOINT] = { apply_checkpoint, true },
	[FSCK_RT_SUPERBLOCK] = { fix_superblocks, false },
};

/* Whether a problem whose fix routine is rt was planned in this run. */
static bool routine_planned(const struct fsck_ctx *ctx, enum fsck_routine rt)
{
	for (size_t i = 0; i < fsck_n_problems; i++)
		if (ctx->code_count[i] && fsck_fix_routine(fsck_problems[i].fix) == rt)
			return true;
	return false;
}

/* Run routine rt if it is wanted. */
static int apply(struct repair_run *r, enum fsck_routine rt)
{
	if (!routines[rt].every_repair && !routine_planned(r->ctx, rt))
		return 0;
	return routines[rt].apply(r);
}

/* The routines in the order the one atomic checkpoint needs, with the
 * steps between them (the allocator, the chain, the summaries of the
 * segments the repair filled). */
static int run_repair(struct repair_run *r)
{
	struct fsck_ctx *ctx = r->ctx;
	int err;

	err = apply(r, FSCK_RT_IMAGE_GROW);
	if (!err)
		err = apply(r, FSCK_RT_ZONES);
	if (!err)
		err = apply(r, FSCK_RT_DIRS);
	if (!err)
		err = apply(r, FSCK_RT_SHARED);
	if (!err)
		err = apply(r, FSCK_RT_REMAP);
	if (!err)
		err = apply(r, FSCK_RT_QUOTA);
	if (!err)
		err = fsck_alloc_init(&r->a, ctx);
	if (err)
		return err;
	for (uint32_t i = 0; i < ctx->plan->n_unreach; i++)
		unuse(r, ctx->plan->unreach[i]);
	err = rebuild_node_log_summaries(ctx);
	if (err)
		return err;
	f2fs_commit_plan_init(&r->plan, ctx->fs);
	r->plan.version = f2fs_cp_next_version(ctx->fs);
	err = apply(r, FSCK_RT_LOGS);
	if (!err && ctx->st.chain_nodes)
		err = rehome_chain(r);
	if (!err)
		err = apply(r, FSCK_RT_SUMMARIES);
	if (!err)
		err = apply(r, FSCK_RT_RELOCATE);
	if (!err)
		err = apply(r, FSCK_RT_BLOCKS);
	if (!err)
		err = fsck_alloc_close(&r->a);
	if (!err)
		err = write_filled_summaries(r);
	if (!err)
		err = apply(r, FSCK_RT_NAT);
	if (!err)
		err = apply(r, FSCK_RT_SIT);
	if (!err)
		err = apply(r, FSCK_RT_CHECKPOINT);
	if (!err)
		err = fsck_zone_apply_after_commit(ctx);
	if (!err)
		err = reseal_crc_only_pack(ctx->fs);
	if (!err)
		err = apply(r, FSCK_RT_SUPERBLOCK);
	return err;
}

static void copy_stats(const struct repair_run *r, struct fsck_repair_stats *stats)
{
	if (!stats)
		return;
	stats->nodes_written = r->nodes_written;
	stats->data_written = r->data_written;
	stats->ssa_written = r->ssa_written;
	stats->chain_written = r->chain_written;
	stats->nat_changed = r->nat_changed;
	stats->sit_changed = r->sit_changed;
	stats->chain_rehomed = r->keep_chain;
}

int fsck_repair_apply(struct fsck_ctx *ctx, uint64_t *written, struct fsck_repair_stats *stats)
{
	struct repair_run r;
	struct f2fs_dev *dev;
	int err;

	*written = 0;
	if (!ctx->fs_usable || !ctx->sit_loaded || !ctx->nat_loaded || !ctx->plan)
		return refuse(ctx, "no usable superblock, checkpoint, SIT and NAT");
	if (!ctx->fs->cursum_loaded || ctx->fs->cursum_load_err)
		return refuse(ctx, "the current segment summaries cannot be loaded");
	if (restore_cp_geometry(ctx))
		return refuse(ctx, "the checkpoint's geometry fields are invalid and the other pack cannot supply them");
	if (!anything_fixable(ctx))
		return refuse(ctx, "no problem found has a fix");
	if (ctx->plan->err)
		return refuse(ctx, f2fs_strerror(ctx->plan->err));
	if (ctx->fs->features & F2FS_FEATURE_RO)
		return refuse(ctx, "read-only (RO feature) volume");
	if (ctx->fs->short_blocks && !f2fs_dev_is_regular(ctx->fs->dev))
		return refuse(ctx, "the device ends before the main area does and cannot grow");
	memset(&r, 0, sizeof(r));
	r.ctx = ctx;
	dev = ctx->fs->dev;
	err = run_repair(&r);
	*written = f2fs_dev_stats(dev)->write_calls + f2fs_dev_stats(dev)->dropped_writes;
	if (!err || ctx->opt.dry_run)
		fsck_diag(ctx, "%s %" PRIu64 " node blocks, %" PRIu64 " dentry blocks, %" PRIu64
			  " summary blocks%s, %" PRIu64 " NAT entries, %" PRIu64
			  " SIT entries; checkpoint version %" PRIu64 " (%" PRIu64 " writes)",
			  ctx->opt.dry_run ? "--dry-run: would write" : "repaired:",
			  r.nodes_written, r.data_written, r.ssa_written,
			  r.keep_chain ? ", the roll-forward chain re-homed" : "",
			  r.nat_changed, r.sit_changed, r.plan.version, *written);
	copy_stats(&r, stats);
	fsck_alloc_free(&r.a);
	return err;
}
