/*
 * inject_nat.c - --nat: change a NAT entry (in a NAT block copy or in the
 * NAT journal of the current checkpoint) or the nat_bits of a pack.
 *
 * --nat 0 changes the entry where the current value lives: the journal
 * entry if the nid is journalled, else the current NAT block.  --nat 1|2
 * always changes that NAT copy's block.  --journal selects the journal
 * entry of --nid, or journal slot --idx.  nat_bits_full, nat_bits_empty
 * and nat_bits_header change the nat_bits at the end of pack --nat N
 * (0 = current pack).
 */
#include <stdio.h>
#include <string.h>

#include "f2fs_layout.h"
#include "inject.h"

#define NE(m, fl) INJ_SCALAR(struct f2fs_nat_entry, m, fl)

static const struct inj_field nat_entry_fields[] = {
	NE(version, 0),
	NE(ino, 0),
	NE(block_addr, INJ_F_HEX),
	{ NULL, 0, 0, 0, 0, 0 },
};

static int set_entry_member(struct inj_ctx *c, uint8_t *entry, size_t len)
{
	const struct inj_field *f = inj_field_find(nat_entry_fields, c->o->mb);

	if (!f)
		return inj_err("unknown or unsupported member '%s' of --nat "
			       "(inject.f2fs --nat 0 -h lists them)", c->o->mb);
	return inj_field_apply(c, f, entry, len);
}

static int journal_slot(struct inj_ctx *c)
{
	if (!c->fs->cursum_loaded)
		return -1;
	if (c->o->journal && c->o->has_idx && !c->o->has_nid)
		return c->o->idx < NAT_JOURNAL_ENTRIES ? (int)c->o->idx : -2;
	return f2fs_nat_journal_slot(c->fs, c->o->nid);
}

static int set_journal_body(struct inj_ctx *c, uint8_t *body)
{
	return set_entry_member(c, body, sizeof(struct f2fs_nat_entry));
}

static int inject_journal(struct inj_ctx *c, int slot)
{
	static const struct inj_journal_kind nat = {
		CURSEG_HOT_DATA, "nat", "n_nats", "nid",
		"nid is not in the NAT journal (%u slots)",
		sizeof(struct nat_journal_entry), NAT_JOURNAL_ENTRIES,
	};

	return inj_journal_entry(c, &nat, slot, set_journal_body);
}

static uint32_t nat_block_addr(const struct f2fs_fs *fs, int pack, uint32_t blkno)
{
	uint32_t cur = f2fs_current_nat_addr(fs, blkno);
	uint32_t first = f2fs_test_bit(blkno, fs->nat_bitmap) ? cur - BLKS_PER_SEG : cur;

	if (pack == 0)
		return cur;
	return pack == 1 ? first : first + BLKS_PER_SEG;
}

static int inject_block(struct inj_ctx *c)
{
	struct f2fs_fs *fs = c->fs;
	uint8_t blk[F2FS_BLKSIZE];
	uint32_t nid = c->o->nid, blkno, addr, off;

	if (nid >= fs->max_nid)
		return inj_err("nid %u is out of range (max %u)", nid, fs->max_nid - 1);
	blkno = nid / NAT_ENTRY_PER_BLOCK;
	addr = nat_block_addr(fs, c->o->pack, blkno);
	if (inj_read_block(c, addr, blk))
		return -1;
	inj_where(c, "nat nid %u in copy %d (blkaddr 0x%x)", nid,
		  addr == nat_block_addr(fs, 1, blkno) ? 1 : 2, addr);
	off = (nid % NAT_ENTRY_PER_BLOCK) * sizeof(struct f2fs_nat_entry);
	if (!strcmp(c->o->mb, "raw")) {
		uint32_t at;

		if (inj_set_raw(c, blk, sizeof(blk), &at))
			return -1;
	} else if (set_entry_member(c, blk + off, sizeof(struct f2fs_nat_entry))) {
		return -1;
	}
	return inj_write_block(c, addr, blk);
}

/* ---- nat_bits ------------------------------------------------------------ */

static int inject_nat_bits(struct inj_ctx *c)
{
	struct inj_cp_pack p;
	uint32_t nat_segs = le32_to_cpu(c->fs->sb.segment_count_nat);
	uint32_t nbb = f2fs_nat_bits_blocks(nat_segs);
	uint32_t bytes = (nat_segs / 2) * BLKS_PER_SEG / 8, pos, base;
	uint8_t blk[F2FS_BLKSIZE];
	bool header = !strcmp(c->o->mb, "nat_bits_header");
	bool empty = !strcmp(c->o->mb, "nat_bits_empty");
	int r;

	if (!header && !empty && strcmp(c->o->mb, "nat_bits_full"))
		return inj_err("unknown or unsupported member '%s' of --nat", c->o->mb);
	if (inj_cp_open_pack(c, &p))
		return -1;
	r = !(le32_to_cpu(p.cp->ckpt_flags) & CP_NAT_BITS_FLAG);
	inj_cp_close_pack(&p);
	if (r)
		return inj_err("pack %d has no nat_bits (CP_NAT_BITS_FLAG is clear)", p.index + 1);
	if (!nbb || nbb >= BLKS_PER_SEG)
		return inj_err("nat_bits do not fit a pack");
	base = p.start + BLKS_PER_SEG - nbb;
	if (header) {
		pos = 0;
	} else {
		if (!c->o->has_idx || c->o->idx >= bytes * 8)
			return inj_err("%s needs --idx NAT_BLOCK below %u", c->o->mb, bytes * 8);
		pos = 8 + (empty ? bytes : 0) + c->o->idx / 8;
	}
	if (inj_read_block(c, base + pos / F2FS_BLKSIZE, blk))
		return -1;
	inj_where(c, "cp %d nat_bits (blkaddr 0x%x)", p.index + 1, base + pos / F2FS_BLKSIZE);
	if (header) {
		if (inj_set_uint(c, blk, 8, true, "nat_bits_header"))
			return -1;
	} else {
		uint8_t *byte = blk + pos % F2FS_BLKSIZE;
		unsigned int bit = c->o->idx % 8, old = test_bit_le(bit, byte);

		if (!c->o->has_val || c->o->val > 1 || c->o->val_negative)
			return inj_err("%s takes --val 0 or 1", c->o->mb);
		if (c->o->val)
			set_bit_le(bit, byte);
		else
			clear_bit_le(bit, byte);
		snprintf(c->ch.member, sizeof(c->ch.member), "%s[%u]", c->o->mb, c->o->idx);
		snprintf(c->ch.old_val, sizeof(c->ch.old_val), "%u", old);
		snprintf(c->ch.new_val, sizeof(c->ch.new_val), "%u", (unsigned int)c->o->val);
	}
	return inj_write_block(c, base + pos / F2FS_BLKSIZE, blk);
}

int inject_nat(struct inj_ctx *c)
{
	int slot;

	if (!strncmp(c->o->mb, "nat_bits", 8)) {
		if (inj_need_sb(c, "--nat"))
			return -1;
		return inject_nat_bits(c);
	}
	if (inj_need_fs(c, "--nat"))
		return -1;
	if (!c->o->has_nid && !(c->o->journal && c->o->has_idx) && strcmp(c->o->mb, "n_nats"))
		return inj_err("--nat needs --nid N");
	if (c->o->journal || !strcmp(c->o->mb, "n_nats") || !strcmp(c->o->mb, "nid"))
		return inject_journal(c, journal_slot(c));
	if (c->o->pack == 0 && (slot = journal_slot(c)) >= 0)
		return inject_journal(c, slot);
	return inject_block(c);
}
