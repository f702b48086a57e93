/*
 * inject_ssa.c - --ssa: change the summary entry of a block (--blk ADDR;
 * entry --idx overrides the block's offset in its segment) or the footer
 * of a segment's summary block (--blk or --segno).
 *
 * For a segment that is a current log the authoritative summary is the
 * one in the checkpoint pack (data logs, and node logs when the pack has
 * node summaries), so that one is changed; --ssa-area forces the block
 * in the SSA area instead.
 */
#include <stdio.h>
#include <string.h>

#include "inject.h"

static int entry_index(struct inj_ctx *c, uint32_t *idx)
{
	if (c->o->has_idx)
		*idx = c->o->idx;
	else if (c->o->has_blk)
		*idx = (c->o->blk - c->fs->main_blkaddr) % BLKS_PER_SEG;
	else
		return inj_err("summary entry members need --blk ADDR or --idx ENTRY");
	if (*idx >= ENTRIES_IN_SUM)
		return inj_err("--idx %u is out of range (0..%u)", *idx, ENTRIES_IN_SUM - 1);
	return 0;
}

/* The member's byte offset and size within the summary block layout. */
static int member_layout(struct inj_ctx *c, enum inj_sum_part *part, uint32_t *entry,
			 uint32_t *off, unsigned int *size, bool *hex)
{
	const char *mb = c->o->mb;

	*hex = false;
	if (!strcmp(mb, "entry_type") || !strcmp(mb, "check_sum")) {
		*part = INJ_SUM_FOOTER;
		*entry = 0;
		*off = mb[0] == 'e' ? 0 : 1;
		*size = mb[0] == 'e' ? 1 : 4;
		*hex = mb[0] == 'c';
		return 0;
	}
	*part = INJ_SUM_ENTRY;
	if (!strcmp(mb, "nid")) {
		*off = 0;
		*size = 4;
	} else if (!strcmp(mb, "version")) {
		*off = 4;
		*size = 1;
	} else if (!strcmp(mb, "ofs_in_node")) {
		*off = 5;
		*size = 2;
	} else {
		return inj_err("unknown or unsupported member '%s' of --ssa "
			       "(inject.f2fs --ssa -h lists them)", mb);
	}
	return entry_index(c, entry);
}

/* The SSA block of segno, if the SSA area has one (a read-only image has
 * none: its SSA address is the main area's). */
static int ssa_block_addr(struct inj_ctx *c, uint32_t segno, uint64_t *addr)
{
	uint64_t blocks = (uint64_t)le32_to_cpu(c->fs->sb.segment_count_ssa) * BLKS_PER_SEG;

	if (segno >= blocks)
		return inj_err("segment %u has no SSA block: the SSA area has %llu blocks%s", segno,
			       (unsigned long long)blocks,
			       f2fs_is_ro_image(c->fs) ? " (a read-only image has no SSA)" : "");
	*addr = (uint64_t)c->fs->ssa_blkaddr + segno;
	return 0;
}

static int inject_raw(struct inj_ctx *c, uint32_t segno)
{
	uint8_t blk[F2FS_BLKSIZE];
	uint64_t addr = 0;
	uint32_t at;

	if (ssa_block_addr(c, segno, &addr) || inj_read_block(c, addr, blk))
		return -1;
	inj_where(c, "ssa segno %u (blkaddr 0x%llx)", segno, (unsigned long long)addr);
	if (inj_set_raw(c, blk, sizeof(blk), &at))
		return -1;
	return inj_write_block(c, addr, blk);
}

int inject_ssa(struct inj_ctx *c)
{
	enum inj_sum_part part = INJ_SUM_ENTRY;
	uint32_t segno, entry = 0, off = 0, where;
	unsigned int size = 0;
	uint8_t blk[F2FS_BLKSIZE];
	uint64_t addr;
	bool hex;
	int type;

	if (inj_need_fs(c, "--ssa") || inj_target_segno(c, &segno))
		return -1;
	if (!strcmp(c->o->mb, "raw"))
		return inject_raw(c, segno);
	if (member_layout(c, &part, &entry, &off, &size, &hex))
		return -1;
	type = inj_curseg_type(c->fs, segno);
	if (type >= 0 && !c->o->raw_ssa && c->fs->cursum_loaded) {
		if (inj_cursum_locate(c, type, part, entry, &addr, &where))
			return -1;
		inj_where(c, "ssa segno %u (current log %d, checkpoint pack blkaddr 0x%llx)",
			  segno, type, (unsigned long long)addr);
	} else {
		if (ssa_block_addr(c, segno, &addr))
			return -1;
		where = part == INJ_SUM_FOOTER ?
			(uint32_t)offsetof(struct f2fs_summary_block, footer) :
			entry * SUMMARY_SIZE;
		inj_where(c, "ssa segno %u (blkaddr 0x%llx)", segno, (unsigned long long)addr);
	}
	if (inj_read_block(c, addr, blk))
		return -1;
	if (inj_set_uint(c, blk + where + off, size, hex, c->o->mb))
		return -1;
	if (part == INJ_SUM_ENTRY)
		snprintf(c->ch.member, sizeof(c->ch.member), "%s[%u]", c->o->mb, entry);
	return inj_write_block(c, addr, blk);
}
