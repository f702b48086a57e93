/*
 * fsck_alloc.c - the repair's block allocator (rules in fsck_alloc.h).
 */
#include <stdlib.h>
#include <string.h>

#include "f2fs_array.h"
#include "f2fs_err.h"
#include "fsck.h"
#include "fsck_alloc.h"

int fsck_alloc_init(struct fsck_alloc *a, struct fsck_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;
	size_t map = (size_t)((ctx->main_blocks + 7) / 8);

	memset(a, 0, sizeof(*a));
	a->ctx = ctx;
	a->busy = malloc(map ? map : 1);
	a->fin = malloc(map ? map : 1);
	if (!a->busy || !a->fin)
		return -ENOMEM;
	memcpy(a->fin, ctx->reach, map);
	for (size_t i = 0; i < map; i++)
		a->busy[i] = ctx->reach[i] | ctx->nat_addr[i] | ctx->chain[i] |
			     (ctx->plan ? ctx->plan->chain_data[i] : 0);
	for (uint32_t s = 0; s < fs->main_segs; s++) {
		const struct f2fs_seg_entry *se = &ctx->sit.segs[s];

		for (uint32_t k = 0; k < BLKS_PER_SEG; k++)
			if (f2fs_test_bit(k, se->cur_valid_map) || f2fs_test_bit(k, se->ckpt_valid_map))
				fsck_set(a->busy, (uint64_t)s * BLKS_PER_SEG + k);
	}
	for (int t = 0; t < NR_CURSEG_TYPE; t++) {
		a->log[t].segno = fs->curseg_segno[t];
		a->log[t].blkoff = fs->curseg_blkoff[t];
	}
	a->next_sec = fs->main_secs;
	return 0;
}

void fsck_alloc_free(struct fsck_alloc *a)
{
	free(a->busy);
	free(a->fin);
	free(a->filled);
	memset(a, 0, sizeof(*a));
}

int fsck_alloc_log_of(const struct fsck_alloc *a, uint32_t segno)
{
	for (int t = 0; t < NR_CURSEG_TYPE; t++)
		if (a->log[t].segno == segno)
			return t;
	return -1;
}

int fsck_alloc_type_of(const struct fsck_alloc *a, uint32_t segno)
{
	int t = fsck_alloc_log_of(a, segno);

	for (uint32_t i = 0; i < a->n_filled && t < 0; i++)
		if (a->filled[i].segno == segno)
			t = a->filled[i].type;
	return t;
}

static bool segment_free(const struct fsck_alloc *a, uint32_t segno)
{
	const struct fsck_ctx *ctx = a->ctx;
	const struct f2fs_seg_entry *se = &ctx->sit.segs[segno];
	const uint8_t *b = a->busy + (size_t)segno * (BLKS_PER_SEG / 8);

	if (se->valid_blocks || se->ckpt_valid_blocks)
		return false;
	for (uint32_t i = 0; i < BLKS_PER_SEG / 8; i++)
		if (b[i])
			return false;
	return true;
}

/* Whether secno holds a log of the current checkpoint or of the repair. */
static bool section_has_log(const struct fsck_alloc *a, uint32_t secno)
{
	const struct f2fs_fs *fs = a->ctx->fs;

	for (int t = 0; t < NR_CURSEG_TYPE; t++) {
		if (fs->curseg_segno[t] / fs->segs_per_sec == secno)
			return true;
		if (a->log[t].segno / fs->segs_per_sec == secno)
			return true;
	}
	return false;
}

static bool section_free(const struct fsck_alloc *a, uint32_t secno)
{
	uint32_t spp = a->ctx->fs->segs_per_sec;

	if (section_has_log(a, secno) || !fsck_zone_sec_writable(a->ctx, secno))
		return false;
	for (uint32_t s = secno * spp; s < (secno + 1) * spp; s++)
		if (!segment_free(a, s))
			return false;
	return true;
}

int fsck_alloc_move(struct fsck_alloc *a, int t)
{
	const struct f2fs_fs *fs = a->ctx->fs;

	while (a->next_sec > 0) {
		uint32_t secno = --a->next_sec;

		if (!section_free(a, secno))
			continue;
		memset(&a->log[t], 0, sizeof(a->log[t]));
		a->log[t].moved = true;
		a->log[t].segno = secno * fs->segs_per_sec;
		a->log[t].blkoff = 0;
		return 0;
	}
	return -ENOSPC;
}

/* Leave a full segment of log t: keep its summary for the SSA and go on
 * in the next segment of the section, or in a fresh section. */
static int next_segment(struct fsck_alloc *a, int t)
{
	const struct f2fs_fs *fs = a->ctx->fs;
	struct fsck_log *l = &a->log[t];
	struct fsck_filled *f;

	if (F2FS_ARRAY_ROOM32(a->filled, a->cap_filled, a->n_filled + 1, 8))
		return -ENOMEM;
	f = &a->filled[a->n_filled++];
	f->segno = l->segno;
	f->type = t;
	f->sum = l->sum;
	f->sum.footer.entry_type = t >= CURSEG_HOT_NODE ? SUM_TYPE_NODE : SUM_TYPE_DATA;
	if ((l->segno + 1) % fs->segs_per_sec && segment_free(a, l->segno + 1) &&
	    fsck_zone_usable_in_seg(a->ctx, l->segno + 1) == BLKS_PER_SEG) {
		l->segno++;
		l->blkoff = 0;
		memset(&l->sum, 0, sizeof(l->sum));
		return 0;
	}
	return fsck_alloc_move(a, t);
}

int fsck_alloc_block(struct fsck_alloc *a, int t, uint32_t nid, uint16_t ofs,
		     uint8_t version, uint32_t *addr)
{
	struct fsck_log *l = &a->log[t];
	struct f2fs_summary *e;
	uint64_t rel;
	int err;

	if (!l->moved) {
		err = fsck_alloc_move(a, t);
		if (err)
			return err;
	}
	/* a segment ends at its last usable block: on a zoned volume the
	 * zone capacity may cut it, or leave none of it (the kernel's
	 * f2fs_usable_blks_in_seg()) */
	if (l->blkoff >= fsck_zone_usable_in_seg(a->ctx, l->segno)) {
		err = next_segment(a, t);
		if (err)
			return err;
	}
	rel = (uint64_t)l->segno * BLKS_PER_SEG + l->blkoff;
	*addr = a->ctx->fs->main_blkaddr + (uint32_t)rel;
	e = &l->sum.entries[l->blkoff];
	e->nid = cpu_to_le32(nid);
	e->version = version;
	e->ofs_in_node = cpu_to_le16(ofs);
	l->blkoff++;
	fsck_set(a->fin, rel);
	fsck_set(a->busy, rel);
	a->allocated++;
	return 0;
}

int fsck_alloc_close(struct fsck_alloc *a)
{
	int err = 0;

	/* a full segment is left now, as the kernel leaves one as soon as it
	 * has written its last usable block */
	for (int t = 0; t < NR_CURSEG_TYPE && !err; t++)
		if (a->log[t].moved &&
		    a->log[t].blkoff >= fsck_zone_usable_in_seg(a->ctx, a->log[t].segno))
			err = next_segment(a, t);
	return err;
}
