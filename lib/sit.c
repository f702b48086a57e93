/*
 * sit.c - the in-memory SIT model: per-segment and per-section valid and
 * checkpoint-valid counts, kept up to date in O(1) per block the way the
 * kernel's update_sit_entry() does, and the loader that fills the model
 * from the current SIT copy and the SIT journal of an opened volume.
 *
 * Owns: struct f2fs_sit_model (segs, secs, dirty list) and f2fs_sit_load().
 * Only a checkpoint (f2fs_sit_checkpoint) and a load (f2fs_sit_finish_load)
 * ever sum over the segments of a section.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "f2fs_err.h"
#include "f2fs_mount.h"
#include "f2fs_sit.h"

/* SIT blocks read per f2fs_dev_read_batch() call (2 MiB of buffer). */
#define SIT_LOAD_BATCH	512u

/* ---- small helpers ----------------------------------------------------- */

static struct f2fs_sec_entry *sec_of(struct f2fs_sit_model *m, uint32_t segno)
{
	return &m->secs[f2fs_sit_secno(m, segno)];
}

static void mark_dirty(struct f2fs_sit_model *m, uint32_t segno)
{
	struct f2fs_seg_entry *se = &m->segs[segno];

	if (se->dirty)
		return;
	se->dirty = true;
	m->dirty_segs[m->n_dirty++] = segno;
}

/* Add +1 or -1 to the current count of a segment and its section, keeping
 * free_segs, free_secs and total_valid_blocks in step.  A decrement of a
 * zero count (possible only after loading a corrupt entry) is ignored. */
static void add_valid(struct f2fs_sit_model *m, uint32_t segno, int delta)
{
	struct f2fs_seg_entry *se = &m->segs[segno];
	struct f2fs_sec_entry *sec = sec_of(m, segno);

	if (delta < 0 && se->valid_blocks == 0)
		return;
	if (delta > 0) {
		if (se->valid_blocks++ == 0)
			m->free_segs--;
		if (sec->valid_blocks++ == 0)
			m->free_secs--;
		m->total_valid_blocks++;
	} else {
		if (--se->valid_blocks == 0)
			m->free_segs++;
		if (sec->valid_blocks > 0 && --sec->valid_blocks == 0)
			m->free_secs++;
		if (m->total_valid_blocks > 0)
			m->total_valid_blocks--;
	}
}

/* Same for the checkpoint-valid counts (no free counts involved). */
static void add_ckpt_valid(struct f2fs_sit_model *m, uint32_t segno, int delta)
{
	struct f2fs_seg_entry *se = &m->segs[segno];
	struct f2fs_sec_entry *sec = sec_of(m, segno);

	if (delta > 0) {
		se->ckpt_valid_blocks++;
		sec->ckpt_valid_blocks++;
	} else if (se->ckpt_valid_blocks > 0) {
		se->ckpt_valid_blocks--;
		if (sec->ckpt_valid_blocks > 0)
			sec->ckpt_valid_blocks--;
	}
}

/* ---- life cycle -------------------------------------------------------- */

/* Map the shared zero page under a large calloc'd array in one call: most
 * entries of a big volume stay zero (free segments) and are only ever
 * read, and 18,000 separate first-read faults on a 1 TiB volume cost more
 * than the whole check of its SIT.  Best effort (MADV_POPULATE_READ needs
 * Linux 5.14); pages written later are allocated as usual. */
static void prefault_zero(void *p, size_t len)
{
#ifdef MADV_POPULATE_READ
	long psize = sysconf(_SC_PAGESIZE);
	uintptr_t start, end;

	if (psize <= 0 || len < ((size_t)1 << 20))
		return;
	start = ((uintptr_t)p + (uintptr_t)psize - 1) & ~((uintptr_t)psize - 1);
	end = ((uintptr_t)p + len) & ~((uintptr_t)psize - 1);
	if (end > start)
		(void)madvise((void *)start, end - start, MADV_POPULATE_READ);
#else
	(void)p;
	(void)len;
#endif
}

int f2fs_sit_init(struct f2fs_sit_model *m, uint32_t main_segs, uint32_t segs_per_sec)
{
	memset(m, 0, sizeof(*m));
	if (main_segs == 0 || segs_per_sec == 0 || main_segs % segs_per_sec)
		return -EINVAL;
	m->main_segs = main_segs;
	m->segs_per_sec = segs_per_sec;
	m->main_secs = main_segs / segs_per_sec;
	m->segs = calloc(main_segs, sizeof(*m->segs));
	m->secs = calloc(m->main_secs, sizeof(*m->secs));
	m->dirty_segs = calloc(main_segs, sizeof(*m->dirty_segs));
	if (!m->segs || !m->secs || !m->dirty_segs) {
		f2fs_sit_free(m);
		return -ENOMEM;
	}
	prefault_zero(m->segs, (size_t)main_segs * sizeof(*m->segs));
	prefault_zero(m->secs, (size_t)m->main_secs * sizeof(*m->secs));
	m->free_segs = main_segs;
	m->free_secs = m->main_secs;
	return 0;
}

void f2fs_sit_free(struct f2fs_sit_model *m)
{
	free(m->segs);
	free(m->secs);
	free(m->dirty_segs);
	memset(m, 0, sizeof(*m));
}

/* ---- block allocation and release (update_sit_entry) ------------------- */

int f2fs_sit_alloc_block(struct f2fs_sit_model *m, uint32_t segno, uint32_t blkoff)
{
	struct f2fs_seg_entry *se;
	bool existed;

	if (segno >= m->main_segs || blkoff >= BLKS_PER_SEG)
		return -EINVAL;
	se = &m->segs[segno];
	existed = f2fs_test_bit(blkoff, se->cur_valid_map);
	if (!existed) {
		f2fs_set_bit(blkoff, se->cur_valid_map);
		add_valid(m, segno, +1);
	}
	/* Outside checkpoint=disable a newly written block is treated as part
	 * of the checkpointed state so SSR never reuses it. */
	if (!m->cp_disabled && !f2fs_test_bit(blkoff, se->ckpt_valid_map)) {
		f2fs_set_bit(blkoff, se->ckpt_valid_map);
		add_ckpt_valid(m, segno, +1);
	}
	/* While disabled, count it without marking it checkpointed. */
	if (!f2fs_test_bit(blkoff, se->ckpt_valid_map) && !existed)
		add_ckpt_valid(m, segno, +1);
	mark_dirty(m, segno);
	return existed ? -EEXIST : 0;
}

static bool release_one(struct f2fs_sit_model *m, uint32_t segno, uint32_t blkoff)
{
	struct f2fs_seg_entry *se = &m->segs[segno];

	if (!f2fs_test_bit(blkoff, se->cur_valid_map))
		return false;
	f2fs_clear_bit(blkoff, se->cur_valid_map);
	add_valid(m, segno, -1);
	/* A block of the last checkpoint stays counted until the next one. */
	if (!f2fs_test_bit(blkoff, se->ckpt_valid_map))
		add_ckpt_valid(m, segno, -1);
	return true;
}

int f2fs_sit_release_blocks(struct f2fs_sit_model *m, uint32_t segno,
			    uint32_t blkoff, uint32_t n)
{
	bool all_valid = true;

	if (segno >= m->main_segs || blkoff >= BLKS_PER_SEG ||
	    n > BLKS_PER_SEG - blkoff)
		return -EINVAL;
	for (uint32_t i = 0; i < n; i++)
		if (!release_one(m, segno, blkoff + i))
			all_valid = false;
	if (n)
		mark_dirty(m, segno);
	return all_valid ? 0 : -ENOENT;
}

void f2fs_sit_mark_dirty(struct f2fs_sit_model *m, uint32_t segno)
{
	if (segno < m->main_segs)
		mark_dirty(m, segno);
}

void f2fs_sit_set_type(struct f2fs_sit_model *m, uint32_t segno, unsigned int type)
{
	if (segno >= m->main_segs)
		return;
	m->segs[segno].type = (uint8_t)(type & 0x3f);
	mark_dirty(m, segno);
}

/* ---- checkpoint ------------------------------------------------------- */

/* set_ckpt_valid_blocks(): the one place a section's ckpt sum is re-added.
 * Also clears the dirty flag of every segment of the section, which is
 * how f2fs_sit_checkpoint() knows a section was already done. */
static void resum_section_ckpt(struct f2fs_sit_model *m, uint32_t secno)
{
	uint32_t first = secno * m->segs_per_sec;
	uint32_t sum = 0;

	for (uint32_t i = 0; i < m->segs_per_sec; i++) {
		sum += m->segs[first + i].ckpt_valid_blocks;
		m->segs[first + i].dirty = false;
	}
	m->secs[secno].ckpt_valid_blocks = sum;
}

void f2fs_sit_checkpoint(struct f2fs_sit_model *m)
{
	for (uint32_t i = 0; i < m->n_dirty; i++) {
		struct f2fs_seg_entry *se = &m->segs[m->dirty_segs[i]];

		memcpy(se->ckpt_valid_map, se->cur_valid_map, SIT_VBLOCK_MAP_SIZE);
		se->ckpt_valid_blocks = se->valid_blocks;
	}
	for (uint32_t i = 0; i < m->n_dirty; i++) {
		uint32_t segno = m->dirty_segs[i];

		if (m->segs[segno].dirty)
			resum_section_ckpt(m, f2fs_sit_secno(m, segno));
	}
	m->n_dirty = 0;
}

/* ---- raw entries ----------------------------------------------------- */

enum f2fs_sit_fault f2fs_sit_entry_fault(const struct f2fs_sit_entry *raw)
{
	unsigned int count = GET_SIT_VBLOCKS(raw);

	if (count > BLKS_PER_SEG)
		return F2FS_SIT_FAULT_RANGE;
	if (f2fs_sit_map_weight(raw->valid_map) != count)
		return F2FS_SIT_FAULT_POPCOUNT;
	if (GET_SIT_TYPE(raw) >= NR_CURSEG_TYPE)
		return F2FS_SIT_FAULT_TYPE;
	return F2FS_SIT_FAULT_NONE;
}

/* check_block_count(): what the kernel refuses to mount. */
static int check_raw_entry(const struct f2fs_sit_entry *raw)
{
	return f2fs_sit_entry_fault(raw) == F2FS_SIT_FAULT_NONE ? 0 : -EFSCORRUPTED;
}

/* Take a segment's counts out of (or back into) the totals. */
static void account_segment(struct f2fs_sit_model *m, uint32_t segno, bool add)
{
	struct f2fs_seg_entry *se = &m->segs[segno];
	struct f2fs_sec_entry *sec = sec_of(m, segno);
	bool sec_was_free = sec->valid_blocks == 0;

	if (add) {
		sec->valid_blocks += se->valid_blocks;
		sec->ckpt_valid_blocks += se->ckpt_valid_blocks;
		m->total_valid_blocks += se->valid_blocks;
		if (se->valid_blocks)
			m->free_segs--;
	} else {
		sec->valid_blocks -= se->valid_blocks;
		sec->ckpt_valid_blocks -= se->ckpt_valid_blocks;
		m->total_valid_blocks -= se->valid_blocks;
		if (se->valid_blocks)
			m->free_segs++;
	}
	if (sec_was_free && sec->valid_blocks != 0)
		m->free_secs--;
	else if (!sec_was_free && sec->valid_blocks == 0)
		m->free_secs++;
}

/* A segment's state as an on-disk entry gives it: both maps and counts
 * (what is on disk is what the last checkpoint wrote), type, mtime. */
static void copy_raw_entry(struct f2fs_seg_entry *se, const struct f2fs_sit_entry *raw)
{
	se->valid_blocks = (uint16_t)GET_SIT_VBLOCKS(raw);
	se->ckpt_valid_blocks = se->valid_blocks;
	se->type = (uint8_t)GET_SIT_TYPE(raw);
	memcpy(se->cur_valid_map, raw->valid_map, SIT_VBLOCK_MAP_SIZE);
	memcpy(se->ckpt_valid_map, raw->valid_map, SIT_VBLOCK_MAP_SIZE);
	se->mtime = le64_to_cpu(raw->mtime);
}

int f2fs_sit_load_entry(struct f2fs_sit_model *m, uint32_t segno,
			const struct f2fs_sit_entry *raw)
{
	struct f2fs_seg_entry *se;

	if (segno >= m->main_segs)
		return -EINVAL;
	se = &m->segs[segno];
	account_segment(m, segno, false);
	copy_raw_entry(se, raw);
	account_segment(m, segno, true);
	return check_raw_entry(raw);
}

void f2fs_sit_finish_load(struct f2fs_sit_model *m)
{
	/* Only non-zero entries are written: free sections of a fresh model
	 * stay untouched (zero) pages. */
	for (uint32_t secno = 0; secno < m->main_secs; secno++) {
		struct f2fs_sec_entry *sec = &m->secs[secno];

		if (sec->valid_blocks || sec->ckpt_valid_blocks)
			sec->valid_blocks = sec->ckpt_valid_blocks = 0;
	}
	m->free_segs = 0;
	m->free_secs = 0;
	m->total_valid_blocks = 0;
	for (uint32_t segno = 0; segno < m->main_segs; segno++) {
		const struct f2fs_seg_entry *se = &m->segs[segno];
		struct f2fs_sec_entry *sec;

		if (se->valid_blocks == 0 && se->ckpt_valid_blocks == 0) {
			m->free_segs++;
			continue;
		}
		sec = sec_of(m, segno);
		sec->valid_blocks += se->valid_blocks;
		sec->ckpt_valid_blocks += se->ckpt_valid_blocks;
		m->total_valid_blocks += se->valid_blocks;
		if (se->valid_blocks == 0)
			m->free_segs++;
	}
	for (uint32_t secno = 0; secno < m->main_secs; secno++)
		if (m->secs[secno].valid_blocks == 0)
			m->free_secs++;
}

void f2fs_sit_to_raw(const struct f2fs_sit_model *m, uint32_t segno,
		     struct f2fs_sit_entry *raw)
{
	const struct f2fs_seg_entry *se;
	uint16_t vblocks;

	memset(raw, 0, sizeof(*raw));
	if (segno >= m->main_segs)
		return;
	se = &m->segs[segno];
	vblocks = (uint16_t)((se->valid_blocks & SIT_VBLOCKS_MASK) |
			     ((unsigned int)se->type << SIT_VBLOCKS_SHIFT));
	raw->vblocks = cpu_to_le16(vblocks);
	memcpy(raw->valid_map, se->cur_valid_map, SIT_VBLOCK_MAP_SIZE);
	raw->mtime = cpu_to_le64(se->mtime);
}

/* ---- loading from a volume ---------------------------------------------- */

/* Build the read vector for SIT blocks [first, first + n): one run per
 * stretch of consecutive current-copy addresses.  Returns the run count. */
static size_t build_sit_runs(const struct f2fs_fs *fs, uint32_t first, uint32_t n,
			     uint8_t *buf, struct f2fs_io_vec *vec)
{
	size_t nvec = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t addr = f2fs_current_sit_addr(fs, first + i);

		if (nvec && vec[nvec - 1].blkaddr + vec[nvec - 1].nblocks == addr) {
			vec[nvec - 1].nblocks++;
			continue;
		}
		vec[nvec].blkaddr = addr;
		vec[nvec].nblocks = 1;
		vec[nvec].buf = buf + (size_t)i * F2FS_BLKSIZE;
		nvec++;
	}
	return nvec;
}

/* A free segment's entry as mkfs and the kernel write it: nothing set. */
static bool raw_entry_zero(const struct f2fs_sit_entry *raw)
{
	return raw->vblocks == 0 && raw->mtime == 0 && f2fs_sit_map_empty(raw->valid_map);
}

/* Bulk load of one entry into a freshly initialised model: a zero entry
 * is skipped (the model already holds it, and its memory stays untouched),
 * counts are left to f2fs_sit_finish_load(). */
static void bulk_load_entry(struct f2fs_sit_model *m, uint32_t segno,
			    const struct f2fs_sit_entry *raw, uint32_t *bad)
{
	struct f2fs_seg_entry *se = &m->segs[segno];

	if (raw_entry_zero(raw))
		return;
	copy_raw_entry(se, raw);
	if (check_raw_entry(raw))
		(*bad)++;
}

static void load_sit_block(struct f2fs_sit_model *m, uint32_t blk,
			   const struct f2fs_sit_block *sb, uint32_t *bad)
{
	uint32_t start = blk * (uint32_t)SIT_ENTRY_PER_BLOCK;
	uint32_t n = m->main_segs - start < SIT_ENTRY_PER_BLOCK ?
		     m->main_segs - start : (uint32_t)SIT_ENTRY_PER_BLOCK;

	for (uint32_t i = 0; i < n; i++)
		bulk_load_entry(m, start + i, &sb->entries[i], bad);
}

static int load_sit_blocks(struct f2fs_fs *fs, struct f2fs_sit_model *m,
			   uint32_t *bad)
{
	uint32_t total = fs->sit_blk_cnt;
	uint32_t batch = total < SIT_LOAD_BATCH ? total : SIT_LOAD_BATCH;
	uint8_t *buf = f2fs_dev_buf_take(fs->dev, batch);
	struct f2fs_io_vec *vec = calloc(batch, sizeof(*vec));
	int err = 0;

	if (!buf || !vec) {
		err = -ENOMEM;
		goto out;
	}
	for (uint32_t first = 0; first < total && !err; first += batch) {
		uint32_t n = total - first < batch ? total - first : batch;
		size_t nvec = build_sit_runs(fs, first, n, buf, vec);

		err = f2fs_dev_read_batch(fs->dev, vec, nvec);
		for (uint32_t i = 0; i < n && !err; i++)
			load_sit_block(m, first + i, (const struct f2fs_sit_block *)
				       (buf + (size_t)i * F2FS_BLKSIZE), bad);
	}
out:
	f2fs_dev_buf_give(fs->dev, buf, batch);
	free(vec);
	return err;
}

static void apply_sit_journal(struct f2fs_fs *fs, struct f2fs_sit_model *m,
			      uint32_t *bad)
{
	const struct f2fs_journal *j = f2fs_sit_journal(fs);
	uint32_t n = le16_to_cpu(j->n_sits);

	if (n > SIT_JOURNAL_ENTRIES) {
		*bad += n - (uint32_t)SIT_JOURNAL_ENTRIES;
		n = SIT_JOURNAL_ENTRIES;
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct sit_journal_entry *e = &j->sit_j.entries[i];
		uint32_t segno = le32_to_cpu(e->segno);

		if (segno >= m->main_segs || f2fs_sit_load_entry(m, segno, &e->se))
			(*bad)++;
	}
}

/* The geometry the loader relies on, checked against hostile values. */
static int check_sit_geometry(const struct f2fs_fs *fs)
{
	uint64_t need = ((uint64_t)fs->main_segs + SIT_ENTRY_PER_BLOCK - 1) /
			SIT_ENTRY_PER_BLOCK;

	if (!fs->dev || !fs->sit_bitmap || fs->main_segs == 0 || fs->segs_per_sec == 0)
		return -EFSCORRUPTED;
	if ((uint64_t)fs->sit_bitmap_size * 8 < fs->sit_blk_cnt)
		return -EFSCORRUPTED;
	if (fs->sit_blk_cnt != need || fs->sit_blk_cnt > fs->sit_blocks)
		return -EFSCORRUPTED;
	return 0;
}

int f2fs_sit_load(struct f2fs_fs *fs, struct f2fs_sit_model *m,
		  uint32_t *bad_entries)
{
	uint32_t bad = 0;
	int err;

	err = check_sit_geometry(fs);
	if (err) {
		memset(m, 0, sizeof(*m));
		return err;
	}
	err = f2fs_sit_init(m, fs->main_segs, fs->segs_per_sec);
	if (err)
		return err == -EINVAL ? -EFSCORRUPTED : err;
	err = load_sit_blocks(fs, m, &bad);
	if (err) {
		f2fs_sit_free(m);
		return err;
	}
	apply_sit_journal(fs, m, &bad);
	f2fs_sit_finish_load(m);
	if (bad_entries)
		*bad_entries = bad;
	return 0;
}

int f2fs_sit_read_block_entry(struct f2fs_fs *fs, uint32_t segno,
			      struct f2fs_sit_entry *raw)
{
	struct f2fs_sit_block blk;
	uint32_t b;
	int err;

	if (!fs || !fs->dev || segno >= fs->main_segs)
		return -EINVAL;
	b = segno / (uint32_t)SIT_ENTRY_PER_BLOCK;
	if (b >= fs->sit_blk_cnt || !fs->sit_bitmap || (uint64_t)fs->sit_bitmap_size * 8 <= b)
		return -EFSCORRUPTED;
	err = f2fs_dev_read(fs->dev, f2fs_current_sit_addr(fs, b), 1, &blk);
	if (!err)
		*raw = blk.entries[segno % SIT_ENTRY_PER_BLOCK];
	return err;
}

/* ---- readahead ------------------------------------------------------------ */

/* The span being gathered by f2fs_sit_readahead(). */
struct ra_span {
	uint64_t start, end;	/* [start, end) in blocks; end == 0: none */
	uint64_t announced;
};

static void ra_flush(struct f2fs_fs *fs, struct ra_span *sp)
{
	if (sp->end) {
		(void)f2fs_dev_readahead(fs->dev, sp->start, sp->end - sp->start);
		sp->announced += sp->end - sp->start;
	}
	sp->start = sp->end = 0;
}

static void ra_add(struct f2fs_fs *fs, struct ra_span *sp, uint64_t blk, uint32_t max_gap)
{
	if (sp->end && blk >= sp->end && blk <= sp->end + max_gap) {
		sp->end = blk + 1;
		return;
	}
	ra_flush(fs, sp);
	sp->start = blk;
	sp->end = blk + 1;
}

/* Announce the valid blocks of one segment (ascending). */
static void ra_segment(struct f2fs_fs *fs, struct ra_span *sp, uint32_t segno,
		       const struct f2fs_seg_entry *se, uint32_t max_gap)
{
	uint64_t base = f2fs_seg_start_blkaddr(fs, segno);

	for (unsigned int w = 0; w < F2FS_SIT_MAP_WORDS; w++) {
		if (!f2fs_sit_map_word(se->cur_valid_map, w))
			continue;
		for (unsigned int k = w * 64; k < (w + 1) * 64; k++)
			if (f2fs_test_bit(k, se->cur_valid_map))
				ra_add(fs, sp, base + k, max_gap);
	}
}

static bool in_logs(const struct f2fs_seg_entry *se, unsigned int type_mask)
{
	return se->valid_blocks && se->type < 32 && (type_mask & (1u << se->type));
}

/* The first segment of log `type` at or after segno (main_segs: none). */
static uint32_t log_seg_from(const struct f2fs_sit_model *m, uint32_t segno, unsigned int type)
{
	while (segno < m->main_segs && !in_logs(&m->segs[segno], 1u << type))
		segno++;
	return segno;
}

void f2fs_sit_logs_init(struct f2fs_sit_logs *it, const struct f2fs_sit_model *m,
			unsigned int type_mask)
{
	memset(it, 0, sizeof(*it));
	it->m = m;
	for (unsigned int t = 0; t < 32; t++)
		it->next[t] = m->main_segs;
	for (uint32_t segno = m->main_segs; segno-- > 0;) {
		const struct f2fs_seg_entry *se = &m->segs[segno];

		if (!in_logs(se, type_mask))
			continue;
		it->next[se->type] = segno;
		it->total[se->type] += se->valid_blocks;
	}
}

/* Whether log a has given a smaller share of its blocks than log b.  Both
 * totals are below 2^32 (block addresses are 32 bits): the products fit. */
static bool behind(const struct f2fs_sit_logs *it, unsigned int a, unsigned int b)
{
	return it->given[a] * it->total[b] < it->given[b] * it->total[a];
}

uint32_t f2fs_sit_logs_next(struct f2fs_sit_logs *it)
{
	const struct f2fs_sit_model *m = it->m;
	unsigned int best = 32;
	uint32_t segno;

	for (unsigned int t = 0; t < 32; t++)
		if (it->next[t] < m->main_segs && (best == 32 || behind(it, t, best)))
			best = t;
	if (best == 32)
		return m->main_segs;
	segno = it->next[best];
	it->given[best] += m->segs[segno].valid_blocks;
	it->next[best] = log_seg_from(m, segno + 1, best);
	return segno;
}

/* The i-th segment of the plain orders (ascending or descending). */
static uint32_t plain_seg(const struct f2fs_sit_model *m, uint32_t i, bool desc)
{
	return desc ? m->main_segs - 1 - i : i;
}

int f2fs_sit_readahead(struct f2fs_fs *fs, const struct f2fs_sit_model *m,
		       unsigned int type_mask, unsigned int flags, uint32_t max_gap,
		       uint64_t max_blocks, uint64_t *announced)
{
	struct ra_span sp = { 0, 0, 0 };
	bool desc = flags & F2FS_SIT_RA_DESCENDING, by_log = flags & F2FS_SIT_RA_BY_LOG;
	struct f2fs_sit_logs logs;

	if (!fs || !fs->dev || !m || !m->segs || m->main_segs > fs->main_segs ||
	    (desc && by_log))
		return -EINVAL;
	if (by_log)
		f2fs_sit_logs_init(&logs, m, type_mask);
	for (uint32_t i = 0; i < m->main_segs; i++) {
		uint32_t segno = by_log ? f2fs_sit_logs_next(&logs) : plain_seg(m, i, desc);
		const struct f2fs_seg_entry *se;

		if (segno >= m->main_segs)
			break;
		se = &m->segs[segno];
		if (!in_logs(se, type_mask))
			continue;
		if (max_blocks && sp.announced + (sp.end - sp.start) >= max_blocks)
			break;
		ra_segment(fs, &sp, segno, se, max_gap);
		if (desc)
			ra_flush(fs, &sp);	/* spans never run backwards */
	}
	ra_flush(fs, &sp);
	if (announced)
		*announced = sp.announced;
	return 0;
}
