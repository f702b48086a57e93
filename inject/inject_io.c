/*
 * inject_io.c - what every inject.f2fs target needs from the volume:
 * block reads and writes through the device layer, the preconditions
 * (a valid superblock, an opened checkpoint), NAT lookups and node reads,
 * segment selection from --blk/--segno, and where the summaries of the
 * current segments (and the NAT/SIT journals in them) live in the
 * checkpoint pack.
 */
#include <string.h>

#include "f2fs_err.h"
#include "f2fs_ckpt.h"
#include "inject.h"

int inj_read_block(struct inj_ctx *c, uint64_t blkaddr, void *buf)
{
	int err = f2fs_dev_read(c->fs->dev, blkaddr, 1, buf);

	if (err)
		return inj_err("cannot read block 0x%llx: %s", (unsigned long long)blkaddr,
			       f2fs_strerror(err));
	return 0;
}

int inj_write_block(struct inj_ctx *c, uint64_t blkaddr, const void *buf)
{
	int err = f2fs_dev_write(c->fs->dev, blkaddr, 1, buf);

	if (err)
		return inj_err("cannot write block 0x%llx: %s", (unsigned long long)blkaddr,
			       f2fs_strerror(err));
	inj_dbg(c, 1, "%s block 0x%llx", c->o->dry_run ? "would write" : "wrote",
		(unsigned long long)blkaddr);
	c->writes++;
	return 0;
}

int inj_need_sb(struct inj_ctx *c, const char *what)
{
	if (c->fs->sb_index < 0)
		return inj_err("%s needs a valid superblock, and neither copy is valid", what);
	return 0;
}

int inj_need_fs(struct inj_ctx *c, const char *what)
{
	if (inj_need_sb(c, what))
		return -1;
	if (c->open_err || !c->fs->cp)
		return inj_err("%s needs a volume that opens (valid checkpoint): %s", what,
			       f2fs_strerror(c->open_err));
	return 0;
}


int inj_lookup_nat(struct inj_ctx *c, uint32_t nid, struct f2fs_nat_entry *ne)
{
	struct f2fs_fs *fs = c->fs;
	struct f2fs_nat_block blk;
	int slot;

	if (nid >= fs->max_nid)
		return inj_err("nid %u is out of range (max %u)", nid, fs->max_nid - 1);
	slot = f2fs_nat_journal_slot(fs, nid);
	if (slot >= 0) {
		*ne = f2fs_nat_journal(fs)->nat_j.entries[slot].ne;
		return 0;
	}
	if (inj_read_block(c, f2fs_current_nat_addr(fs, nid / NAT_ENTRY_PER_BLOCK), &blk))
		return -1;
	*ne = blk.entries[nid % NAT_ENTRY_PER_BLOCK];
	return 0;
}

int inj_read_node(struct inj_ctx *c, uint32_t nid, struct f2fs_node *node,
		  uint32_t *blkaddr, struct f2fs_nat_entry *ne)
{
	if (inj_lookup_nat(c, nid, ne))
		return -1;
	*blkaddr = le32_to_cpu(ne->block_addr);
	if (!f2fs_blkaddr_in_main(c->fs, *blkaddr))
		return inj_err("nid %u has no node block (NAT block_addr 0x%x)", nid, *blkaddr);
	return inj_read_block(c, *blkaddr, node);
}

int inj_target_segno(struct inj_ctx *c, uint32_t *segno)
{
	const struct inject_opts *o = c->o;

	if (o->has_blk) {
		if (!f2fs_blkaddr_in_main(c->fs, o->blk))
			return inj_err("--blk 0x%x is not in the main area", o->blk);
		*segno = f2fs_blkaddr_to_segno(c->fs, o->blk);
	} else if (o->has_segno) {
		*segno = o->segno;
	} else {
		return inj_err("give --blk ADDR or --segno N");
	}
	if (*segno >= c->fs->main_segs)
		return inj_err("segment %u is out of range (%u segments)", *segno,
			       c->fs->main_segs);
	return 0;
}

int inj_curseg_type(const struct f2fs_fs *fs, uint32_t segno)
{
	int t;

	for (t = 0; t < NR_CURSEG_TYPE; t++)
		if (fs->curseg_segno[t] == segno)
			return t;
	return -1;
}

static uint32_t data_entries(const struct f2fs_checkpoint *cp, int type)
{
	if (cp->alloc_type[type] == SSR)
		return ENTRIES_IN_SUM;
	return le16_to_cpu(cp->cur_data_blkoff[type]);
}

/* Entry `entry` of data log `type` inside compacted summary blocks. */
static int compacted_entry(struct inj_ctx *c, int type, uint32_t entry, uint32_t avail,
			   uint32_t *blk, uint32_t *off)
{
	const struct f2fs_checkpoint *cp = c->fs->cp;
	uint32_t b = 0, o = 2 * SUM_JOURNAL_SIZE, j;
	int t;

	for (t = CURSEG_HOT_DATA; t <= CURSEG_COLD_DATA; t++) {
		uint32_t n = data_entries(cp, t);

		if (t == type && entry >= n)
			return inj_err("entry %u of data log %d is not stored in the compacted "
				       "summaries (%u entries)", entry, type, n);
		for (j = 0; j < n && j < ENTRIES_IN_SUM; j++) {
			if (t == type && j == entry) {
				if (b >= avail)
					break;
				*blk = b;
				*off = o;
				return 0;
			}
			o += SUMMARY_SIZE;
			if (o + SUMMARY_SIZE > F2FS_BLKSIZE - SUM_FOOTER_SIZE) {
				b++;
				o = 0;
			}
		}
	}
	return inj_err("compacted summaries end before entry %u of data log %d", entry, type);
}

static uint32_t part_offset(enum inj_sum_part part, uint32_t entry)
{
	switch (part) {
	case INJ_SUM_ENTRY: return entry * SUMMARY_SIZE;
	case INJ_SUM_JOURNAL: return offsetof(struct f2fs_summary_block, journal);
	default: return offsetof(struct f2fs_summary_block, footer);
	}
}

int inj_cursum_locate(struct inj_ctx *c, int type, enum inj_sum_part part,
		      uint32_t entry, uint64_t *blkaddr, uint32_t *offset)
{
	struct f2fs_fs *fs = c->fs;
	const struct f2fs_checkpoint *cp = fs->cp;
	uint32_t start = fs->cp_start_blkaddr;
	uint32_t total = le32_to_cpu(cp->cp_pack_total_block_count);
	uint32_t start_sum = le32_to_cpu(cp->cp_pack_start_sum);
	bool node_sums = f2fs_cp_has_node_summaries(cp);

	if (total < 3 || total > BLKS_PER_SEG || start_sum >= total)
		return inj_err("checkpoint pack sizes are corrupt; cannot locate summaries");
	if (type >= CURSEG_HOT_NODE) {
		if (node_sums && total < 5)
			return inj_err("checkpoint pack too short for node summaries");
		if (node_sums)
			*blkaddr = (uint64_t)start + total - 4 + (uint32_t)(type - CURSEG_HOT_NODE);
		else
			*blkaddr = (uint64_t)fs->ssa_blkaddr + fs->curseg_segno[type];
		*offset = part_offset(part, entry);
		return 0;
	}
	if (!(le32_to_cpu(cp->ckpt_flags) & CP_COMPACT_SUM_FLAG)) {
		if (total < (node_sums ? 8u : 5u))
			return inj_err("checkpoint pack too short for data summaries");
		*blkaddr = (uint64_t)start + total - (node_sums ? 7 : 4) + (uint32_t)type;
		*offset = part_offset(part, entry);
		return 0;
	}
	/* Compacted: block 0 holds the NAT then the SIT journal, then the
	 * entries of the three data logs, with no footer. */
	*blkaddr = (uint64_t)start + start_sum;
	if (part == INJ_SUM_FOOTER)
		return inj_err("compacted data summaries have no footer");
	if (part == INJ_SUM_JOURNAL) {
		if (type == CURSEG_WARM_DATA)
			return inj_err("compacted summaries hold no journal for the warm data log");
		*offset = type == CURSEG_HOT_DATA ? 0 : SUM_JOURNAL_SIZE;
		return 0;
	} else {
		uint32_t avail = total - start_sum - 1 - (node_sums ? NR_CURSEG_NODE_TYPE : 0);
		uint32_t b = 0, o = 0;

		if (compacted_entry(c, type, entry, avail, &b, &o))
			return -1;
		*blkaddr += b;
		*offset = o;
	}
	return 0;
}

int inj_journal_entry(struct inj_ctx *c, const struct inj_journal_kind *k, int slot,
		      inj_entry_setter set)
{
	uint8_t blk[F2FS_BLKSIZE];
	uint64_t addr;
	uint32_t off;
	uint8_t *e;
	int r;

	if (inj_cursum_locate(c, k->curseg, INJ_SUM_JOURNAL, 0, &addr, &off) ||
	    inj_read_block(c, addr, blk))
		return -1;
	if (!strcmp(c->o->mb, k->count_mb)) {
		inj_where(c, "%s journal (blkaddr 0x%llx)", k->name, (unsigned long long)addr);
		r = inj_set_uint(c, blk + off, 2, false, k->count_mb);
	} else {
		if (slot < 0)
			return inj_err(slot == -2 ? "--idx is past the %u journal slots" : k->missing,
				       k->slots);
		e = blk + off + 2 + (size_t)slot * k->entry_size;
		inj_where(c, "%s journal slot %d %s %u (blkaddr 0x%llx)", k->name, slot, k->key_mb,
			  get_le32(e), (unsigned long long)addr);
		if (!strcmp(c->o->mb, k->key_mb))
			r = inj_set_uint(c, e, 4, false, k->key_mb);
		else
			r = set(c, e + 4);
	}
	return r ? -1 : inj_write_block(c, addr, blk);
}
