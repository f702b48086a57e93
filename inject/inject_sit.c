/*
 * inject_sit.c - --sit: change the SIT entry of a segment (given by --blk
 * ADDR, any block of it, or --segno N) in a SIT block copy or in the SIT
 * journal of the current checkpoint.
 *
 * --sit 0 changes the entry where the current value lives (the journal if
 * the segment is journalled, else the current SIT block); --sit 1|2
 * always changes that SIT copy; --journal selects the journal entry (of
 * the segment, or slot --idx with no --blk/--segno).
 */
#include <stdio.h>
#include <string.h>

#include "inject.h"

static int journal_slot(struct inj_ctx *c, bool have_seg, uint32_t segno)
{
	struct f2fs_journal *j = f2fs_sit_journal(c->fs);
	unsigned int n = le16_to_cpu(j->n_sits), i;

	if (!c->fs->cursum_loaded)
		return -1;
	if (!have_seg)
		return c->o->has_idx && c->o->idx < SIT_JOURNAL_ENTRIES ? (int)c->o->idx : -2;
	for (i = 0; i < n && i < SIT_JOURNAL_ENTRIES; i++)
		if (le32_to_cpu(j->sit_j.entries[i].segno) == segno)
			return (int)i;
	return -1;
}

static int set_bits_of_vblocks(struct inj_ctx *c, uint8_t *e, bool type)
{
	uint16_t v = get_le16(e);
	unsigned int old = type ? v >> SIT_VBLOCKS_SHIFT : v & SIT_VBLOCKS_MASK;
	unsigned int bits = type ? 16 - SIT_VBLOCKS_SHIFT : SIT_VBLOCKS_SHIFT;

	if (!c->o->has_val || c->o->val_negative || !inj_val_fits(c->o, bits))
		return inj_err("%s takes --val 0..%u", c->o->mb, (1u << bits) - 1);
	if (type)
		v = (uint16_t)((v & SIT_VBLOCKS_MASK) | (c->o->val << SIT_VBLOCKS_SHIFT));
	else
		v = (uint16_t)((v & ~SIT_VBLOCKS_MASK) | c->o->val);
	put_le16(e, v);
	snprintf(c->ch.member, sizeof(c->ch.member), "%s", c->o->mb);
	snprintf(c->ch.old_val, sizeof(c->ch.old_val), "%u", old);
	snprintf(c->ch.new_val, sizeof(c->ch.new_val), "%u", (unsigned int)c->o->val);
	return 0;
}

/* The bit of the segment's valid_map that --blk (or --idx) names. */
static int valid_map_index(struct inj_ctx *c, bool bit, uint32_t *idx)
{
	uint32_t limit = bit ? SIT_VBLOCK_MAP_SIZE * 8 : SIT_VBLOCK_MAP_SIZE;

	if (c->o->has_idx)
		*idx = c->o->idx;
	else if (c->o->has_blk)
		*idx = (c->o->blk - c->fs->main_blkaddr) % BLKS_PER_SEG / (bit ? 1 : 8);
	else
		return inj_err("%s needs --idx or --blk", c->o->mb);
	if (*idx >= limit)
		return inj_err("--idx %u is out of range for %s (0..%u)", *idx, c->o->mb, limit - 1);
	return 0;
}

static int set_valid_bit(struct inj_ctx *c, uint8_t *map)
{
	uint32_t bit;
	unsigned int old;

	if (valid_map_index(c, true, &bit))
		return -1;
	if (!c->o->has_val || c->o->val > 1 || c->o->val_negative)
		return inj_err("valid_map_bit takes --val 0 or 1");
	old = f2fs_test_bit(bit, map);
	if (c->o->val)
		f2fs_set_bit(bit, map);
	else
		f2fs_clear_bit(bit, map);
	snprintf(c->ch.member, sizeof(c->ch.member), "valid_map_bit[%u]", bit);
	snprintf(c->ch.old_val, sizeof(c->ch.old_val), "%u", old);
	snprintf(c->ch.new_val, sizeof(c->ch.new_val), "%u", (unsigned int)c->o->val);
	return 0;
}

/* Members of one struct f2fs_sit_entry at e. */
static int set_entry_member(struct inj_ctx *c, uint8_t *e)
{
	const char *mb = c->o->mb;
	uint32_t idx;

	if (!strcmp(mb, "vblocks"))
		return inj_set_uint(c, e, 2, true, "vblocks");
	if (!strcmp(mb, "valid_blocks") || !strcmp(mb, "type"))
		return set_bits_of_vblocks(c, e, mb[0] == 't');
	if (!strcmp(mb, "mtime"))
		return inj_set_uint(c, e + offsetof(struct f2fs_sit_entry, mtime), 8, false, "mtime");
	if (!strcmp(mb, "valid_map_bit"))
		return set_valid_bit(c, e + offsetof(struct f2fs_sit_entry, valid_map));
	if (!strcmp(mb, "valid_map")) {
		if (valid_map_index(c, false, &idx) ||
		    inj_set_uint(c, e + offsetof(struct f2fs_sit_entry, valid_map) + idx, 1, true,
				 "valid_map"))
			return -1;
		snprintf(c->ch.member, sizeof(c->ch.member), "valid_map[%u]", idx);
		return 0;
	}
	return inj_err("unknown or unsupported member '%s' of --sit "
		       "(inject.f2fs --sit 0 -h lists them)", mb);
}

static int inject_journal(struct inj_ctx *c, int slot)
{
	static const struct inj_journal_kind sit = {
		CURSEG_COLD_DATA, "sit", "n_sits", "segno",
		"the segment is not in the SIT journal (%u slots)",
		sizeof(struct sit_journal_entry), SIT_JOURNAL_ENTRIES,
	};

	return inj_journal_entry(c, &sit, slot, set_entry_member);
}

static uint32_t sit_block_addr(const struct f2fs_fs *fs, int pack, uint32_t blkno)
{
	if (pack == 0)
		return f2fs_current_sit_addr(fs, blkno);
	return fs->sit_blkaddr + blkno + (pack == 2 ? fs->sit_blocks : 0);
}

static int inject_block(struct inj_ctx *c, uint32_t segno)
{
	struct f2fs_fs *fs = c->fs;
	uint8_t blk[F2FS_BLKSIZE];
	uint32_t blkno = segno / SIT_ENTRY_PER_BLOCK, addr = sit_block_addr(fs, c->o->pack, blkno);
	uint32_t at;

	if (blkno >= fs->sit_blocks)
		return inj_err("segment %u has no SIT block", segno);
	if (inj_read_block(c, addr, blk))
		return -1;
	inj_where(c, "sit segno %u in copy %d (blkaddr 0x%x)", segno,
		  addr == sit_block_addr(fs, 1, blkno) ? 1 : 2, addr);
	if (!strcmp(c->o->mb, "raw")) {
		if (inj_set_raw(c, blk, sizeof(blk), &at))
			return -1;
	} else if (set_entry_member(c, blk + (segno % SIT_ENTRY_PER_BLOCK) *
				    sizeof(struct f2fs_sit_entry))) {
		return -1;
	}
	return inj_write_block(c, addr, blk);
}

int inject_sit(struct inj_ctx *c)
{
	bool have_seg = c->o->has_blk || c->o->has_segno;
	uint32_t segno = 0;
	int slot;

	if (inj_need_fs(c, "--sit"))
		return -1;
	if (have_seg && inj_target_segno(c, &segno))
		return -1;
	if (c->o->journal || !strcmp(c->o->mb, "n_sits") || !strcmp(c->o->mb, "segno"))
		return inject_journal(c, journal_slot(c, have_seg, segno));
	if (!have_seg)
		return inj_err("--sit needs --blk ADDR or --segno N");
	if (c->o->pack == 0 && (slot = journal_slot(c, true, segno)) >= 0)
		return inject_journal(c, slot);
	return inject_block(c, segno);
}
