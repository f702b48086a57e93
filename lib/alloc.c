/*
 * alloc.c - new blocks appended to the six logs (rules in f2fs_alloc.h),
 * and free nids taken in order from the NAT model.  A read-only image
 * keeps two logs: data goes to hot data, nodes to hot node, and no SSA
 * block is written (it has none).
 */
#include <stdlib.h>
#include <string.h>

#include "f2fs_err.h"
#include "f2fs_mount.h"
#include "f2fs_sit.h"
#include "f2fs_nat.h"
#include "f2fs_commit.h"
#include "f2fs_alloc.h"

static bool is_node_log(int t)
{
	return t >= CURSEG_HOT_NODE;
}

/* The log that takes log t's blocks: itself, or on a read-only image the
 * hot log of its kind. */
static int log_for(const struct f2fs_logs *l, int t)
{
	if (f2fs_log_in_use(l->fs, t))
		return t;
	return is_node_log(t) ? CURSEG_HOT_NODE : CURSEG_HOT_DATA;
}

static bool seg_has_blocks(const struct f2fs_sit_model *sit, uint32_t segno)
{
	const struct f2fs_seg_entry *se = &sit->segs[segno];

	return se->valid_blocks || se->ckpt_valid_blocks;
}

/* Whether a log other than t is current in section secno (its checkpoint
 * segment, or the one it writes now). */
static bool section_has_other_log(const struct f2fs_logs *l, int t, uint32_t secno)
{
	for (int u = 0; u < NR_CURSEG_TYPE; u++) {
		if (u == t || !f2fs_log_in_use(l->fs, u))
			continue;
		if (l->fs->curseg_segno[u] / l->fs->segs_per_sec == secno)
			return true;
		if (l->log[u].segno < l->fs->main_segs &&
		    l->log[u].segno / l->fs->segs_per_sec == secno)
			return true;
	}
	return false;
}

static bool section_free(const struct f2fs_logs *l, uint32_t secno)
{
	const struct f2fs_sec_entry *se = &l->sit->secs[secno];

	return se->valid_blocks == 0 && se->ckpt_valid_blocks == 0 &&
	       !section_has_other_log(l, -1, secno);
}

/* The checkpoint's current segment of log t can take blocks from blkoff on. */
static bool orig_segment_open(const struct f2fs_fs *fs, const struct f2fs_sit_model *sit, int t)
{
	uint32_t segno = fs->curseg_segno[t], off;
	const struct f2fs_seg_entry *se;

	if (segno >= fs->main_segs || fs->cp->alloc_type[t] != LFS ||
	    fs->curseg_blkoff[t] >= BLKS_PER_SEG)
		return false;
	se = &sit->segs[segno];
	if (se->type != t && se->valid_blocks)
		return false;
	for (off = fs->curseg_blkoff[t]; off < BLKS_PER_SEG; off++)
		if (f2fs_test_bit(off, se->cur_valid_map) || f2fs_test_bit(off, se->ckpt_valid_map))
			return false;
	return true;
}

int f2fs_logs_init(struct f2fs_logs *l, struct f2fs_fs *fs, struct f2fs_sit_model *sit)
{
	memset(l, 0, sizeof(*l));
	l->fs = fs;
	l->sit = sit;
	for (int t = 0; t < NR_CURSEG_TYPE; t++) {
		struct f2fs_log *g = &l->log[t];

		g->buf = f2fs_blocks_alloc(BLKS_PER_SEG);
		if (!g->buf) {
			f2fs_logs_free(l);
			return -ENOMEM;
		}
		g->segno = fs->main_segs;
		if (orig_segment_open(fs, sit, t)) {
			g->segno = fs->curseg_segno[t];
			g->blkoff = fs->curseg_blkoff[t];
			g->buf_from = g->blkoff;
			g->on_orig = true;
			memcpy(g->sum.entries, fs->cursum[t].entries, sizeof(g->sum.entries));
		}
		g->sum.footer.entry_type = is_node_log(t) ? SUM_TYPE_NODE : SUM_TYPE_DATA;
	}
	return 0;
}

void f2fs_logs_free(struct f2fs_logs *l)
{
	for (int t = 0; t < NR_CURSEG_TYPE; t++) {
		free(l->log[t].buf);
		l->log[t].buf = NULL;
	}
}

/* Write the staged blocks of log t. */
static int flush_staged(struct f2fs_logs *l, int t)
{
	struct f2fs_log *g = &l->log[t];
	uint32_t n = g->blkoff - g->buf_from;
	int err;

	if (!n || g->segno >= l->fs->main_segs)
		return 0;
	err = f2fs_dev_write(l->fs->dev, (uint64_t)f2fs_seg_start_blkaddr(l->fs, g->segno) + g->buf_from,
			     n, g->buf);
	g->buf_from = g->blkoff;
	return err;
}

/* Leave the segment of log t: staged blocks and its summary go to disk.
 * A checkpoint's current segment also gets its summary back into
 * fs->cursum (the commit writes that one when the log has moved). */
static int leave_segment(struct f2fs_logs *l, int t)
{
	struct f2fs_log *g = &l->log[t];
	struct f2fs_summary_block sb;
	int err;

	if (g->segno >= l->fs->main_segs)
		return 0;
	err = flush_staged(l, t);
	if (err)
		return err;
	if (g->on_orig) {
		memcpy(l->fs->cursum[t].entries, g->sum.entries, sizeof(g->sum.entries));
		g->on_orig = false;
	}
	if (f2fs_is_ro_image(l->fs))
		return 0;
	sb = g->sum;
	memset(&sb.journal, 0, sizeof(sb.journal));
	return f2fs_dev_write(l->fs->dev, (uint64_t)l->fs->ssa_blkaddr + g->segno, 1, &sb);
}

static int find_free_section(struct f2fs_logs *l, uint32_t *secno)
{
	for (uint32_t k = 0; k < l->fs->main_secs; k++) {
		uint32_t s = (l->sec_cursor + k) % l->fs->main_secs;

		if (section_free(l, s)) {
			l->sec_cursor = s + 1;
			*secno = s;
			return 0;
		}
	}
	return -ENOSPC;
}

/* Move log t to a new segment: the next one of its section when free,
 * else the first segment of a free section. */
static int new_segment(struct f2fs_logs *l, int t)
{
	struct f2fs_log *g = &l->log[t];
	uint32_t spc = l->fs->segs_per_sec, next = g->segno + 1, secno;
	int err = leave_segment(l, t);

	if (err)
		return err;
	if (!(g->segno < l->fs->main_segs && next < l->fs->main_segs &&
	      next / spc == g->segno / spc && !seg_has_blocks(l->sit, next))) {
		err = find_free_section(l, &secno);
		if (err)
			return err;
		next = secno * spc;
	}
	g->segno = next;
	g->blkoff = 0;
	g->buf_from = 0;
	g->moved = true;
	memset(g->sum.entries, 0, sizeof(g->sum.entries));
	f2fs_sit_set_type(l->sit, next, (unsigned int)t);
	return 0;
}

void *f2fs_logs_next(struct f2fs_logs *l, int t, const struct f2fs_summary *sum,
		     uint32_t *blkaddr, int *err)
{
	struct f2fs_log *g;
	uint8_t *slot;

	t = log_for(l, t);
	g = &l->log[t];
	*err = 0;
	if (g->segno >= l->fs->main_segs || g->blkoff >= BLKS_PER_SEG) {
		*err = new_segment(l, t);
		if (*err)
			return NULL;
	}
	if (g->on_orig && !g->used)
		f2fs_sit_set_type(l->sit, g->segno, (unsigned int)t);
	*err = f2fs_sit_alloc_block(l->sit, g->segno, g->blkoff);
	if (*err)
		return NULL;
	g->used = true;
	g->sum.entries[g->blkoff] = *sum;
	*blkaddr = f2fs_seg_start_blkaddr(l->fs, g->segno) + g->blkoff;
	slot = g->buf + (size_t)(g->blkoff - g->buf_from) * F2FS_BLKSIZE;
	g->blkoff++;
	l->blocks++;
	/* a full segment is left (written, summary to the SSA) by the next
	 * call or by f2fs_logs_finish(), once the caller has filled slot */
	return slot;
}

int f2fs_logs_release(struct f2fs_logs *l, uint32_t blkaddr)
{
	uint32_t segno, off;

	if (!f2fs_blkaddr_in_main(l->fs, blkaddr))
		return -EINVAL;
	segno = f2fs_blkaddr_to_segno(l->fs, blkaddr);
	off = (blkaddr - l->fs->main_blkaddr) % BLKS_PER_SEG;
	return f2fs_sit_release_blocks(l->sit, segno, off, 1);
}

int f2fs_logs_flush(struct f2fs_logs *l)
{
	for (int t = 0; t < NR_CURSEG_TYPE; t++) {
		int err = flush_staged(l, t);

		if (err)
			return err;
	}
	return 0;
}

int f2fs_logs_finish(struct f2fs_logs *l, struct f2fs_commit_plan *p)
{
	for (int t = 0; t < NR_CURSEG_TYPE; t++) {
		struct f2fs_log *g = &l->log[t];
		int err;

		/* a full segment is left now, as the kernel would have */
		if (g->segno < l->fs->main_segs && g->blkoff >= BLKS_PER_SEG) {
			err = new_segment(l, t);
			if (err)
				return err;
		}
		err = flush_staged(l, t);
		if (err)
			return err;
		if (!g->used && !g->moved)
			continue;
		if (g->on_orig) {
			memcpy(l->fs->cursum[t].entries, g->sum.entries, sizeof(g->sum.entries));
			memcpy(p->sums[t].entries, g->sum.entries, sizeof(g->sum.entries));
			p->curseg_blkoff[t] = (uint16_t)g->blkoff;
			continue;
		}
		p->curseg_segno[t] = g->segno;
		p->curseg_blkoff[t] = (uint16_t)g->blkoff;
		p->alloc_type[t] = LFS;
		memcpy(p->sums[t].entries, g->sum.entries, sizeof(g->sum.entries));
		p->sums[t].footer.entry_type = is_node_log(t) ? SUM_TYPE_NODE : SUM_TYPE_DATA;
	}
	return 0;
}

uint32_t f2fs_logs_free_segments(const struct f2fs_logs *l, const struct f2fs_commit_plan *p)
{
	uint32_t n = 0;

	for (uint32_t s = 0; s < l->sit->main_segs; s++) {
		bool cur = false;

		if (l->sit->segs[s].valid_blocks)
			continue;
		for (int t = 0; t < NR_CURSEG_TYPE; t++)
			cur |= p->curseg_segno[t] == s;
		if (!cur)
			n++;
	}
	return n;
}

/* ---- nids ---- */

void f2fs_nid_alloc_init(struct f2fs_nid_alloc *a, struct f2fs_nat_model *nat)
{
	a->nat = nat;
	a->cursor = F2FS_ROOT_INO + 1;
	a->taken = 0;
}

int f2fs_nid_alloc(struct f2fs_nid_alloc *a, uint32_t *nid)
{
	struct f2fs_nat_entry e;

	for (; a->cursor < a->nat->max_nid; a->cursor++) {
		if (f2fs_nat_get(a->nat, a->cursor, &e))
			continue;
		if (le32_to_cpu(e.block_addr) == NULL_ADDR) {
			*nid = a->cursor++;
			a->taken++;
			return 0;
		}
	}
	return -ENOSPC;
}

uint8_t f2fs_nid_version(const struct f2fs_nat_model *nat, uint32_t nid)
{
	struct f2fs_nat_entry e;

	return f2fs_nat_get(nat, nid, &e) ? 0 : e.version;
}

int f2fs_nid_set(struct f2fs_nat_model *nat, uint32_t nid, uint32_t ino, uint32_t blkaddr)
{
	struct f2fs_nat_entry e;
	int err = f2fs_nat_get(nat, nid, &e);

	if (err)
		return err;
	e.ino = cpu_to_le32(ino);
	e.block_addr = cpu_to_le32(blkaddr);
	return f2fs_nat_set(nat, nid, &e);
}
