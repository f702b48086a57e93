/*
 * nat.c - the in-memory NAT model: the entry of every nid as the kernel
 * sees it (NAT journal over NAT block), per-block use counts for nat_bits,
 * dirty tracking, and the batched loader and flusher.
 *
 * Owns: struct f2fs_nat_model.  ent[] is an anonymous mapping of max_nid
 * zeroed entries and only the blocks that hold something are copied into
 * it, so the pages of an empty NAT are never touched; f2fs_nat_writeback()
 * gives the pages of released blocks back to the system.  Reads go through f2fs_dev_read_batch()
 * with every block of a step announced first; nothing reads one block at
 * a time.  f2fs_nat_load_all_mt() shares the reading and decoding of the
 * whole NAT with worker threads: each decodes only its own blocks' entries
 * and counts, and the caller settles them (loaded bits, journal, totals)
 * in block order afterwards.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "f2fs_err.h"
#include "f2fs_mount.h"
#include "f2fs_nat.h"
#include "f2fs_workers.h"

/* NAT blocks per f2fs_dev_read_batch() call when loading (1 MiB: every
 * block is announced before the first batch, so a bigger buffer would
 * only add pages to fault in). */
#define NAT_LOAD_BATCH	256u
/* NAT blocks a flush reads and writes per step (4 MiB). */
#define NAT_FLUSH_BATCH	1024u
#define NAT_ENTRY_BYTES	(NAT_ENTRY_PER_BLOCK * sizeof(struct f2fs_nat_entry))

/* ---- small helpers ----------------------------------------------------- */

static uint32_t nid_block(uint32_t nid)
{
	return nid / (uint32_t)NAT_ENTRY_PER_BLOCK;
}

static uint32_t block_first_nid(uint32_t b)
{
	return b * (uint32_t)NAT_ENTRY_PER_BLOCK;
}

static bool entry_used(const struct f2fs_nat_entry *e)
{
	return le32_to_cpu(e->block_addr) != NULL_ADDR;
}

static bool entry_is_valid_node(uint32_t nid, const struct f2fs_nat_entry *e)
{
	return nid >= F2FS_RESERVED_NODE_NUM && entry_used(e);
}

static bool bit_le(const uint8_t *map, uint32_t nr)
{
	return test_bit_le(nr, map);
}

static bool block_is_loaded(const struct f2fs_nat_model *nm, uint32_t b)
{
	return bit_le(nm->block_loaded, b);
}

static bool block_is_dirty(const struct f2fs_nat_model *nm, uint32_t b)
{
	return bit_le(nm->block_dirty, b);
}

static bool block_is_released(const struct f2fs_nat_model *nm, uint32_t b)
{
	return bit_le(nm->block_released, b);
}

/* Index of the journal entry that speaks for nid (the first one), or -1. */
static int journal_index(const struct f2fs_nat_model *nm, uint32_t nid)
{
	for (uint32_t i = 0; i < nm->n_journal; i++)
		if (le32_to_cpu(nm->journal[i].nid) == nid)
			return (int)i;
	return -1;
}

/* Whether journal entry i is the one that counts for its nid. */
static bool journal_entry_effective(const struct f2fs_nat_model *nm, uint32_t i)
{
	uint32_t nid = le32_to_cpu(nm->journal[i].nid);

	return nid < nm->max_nid && journal_index(nm, nid) == (int)i;
}

/* Replace ent[nid] of a loaded block, keeping block_used and valid_nodes. */
static void set_loaded_entry(struct f2fs_nat_model *nm, uint32_t nid,
			     const struct f2fs_nat_entry *e)
{
	struct f2fs_nat_entry *cur = &nm->ent[nid];
	uint32_t b = nid_block(nid);
	bool counts_always = nid == 0;	/* nid 0 is "used" for nat_bits */

	if (!counts_always && entry_used(cur) != entry_used(e)) {
		if (entry_used(e))
			nm->block_used[b]++;
		else
			nm->block_used[b]--;
	}
	if (entry_is_valid_node(nid, cur))
		nm->valid_nodes--;
	if (entry_is_valid_node(nid, e))
		nm->valid_nodes++;
	if (memcmp(cur, e, sizeof(*e)))
		*cur = *e;
}

/* ---- life cycle -------------------------------------------------------- */

/* n zeroed entries in their own mapping, so that the pages of released
 * blocks can be handed back (f2fs_nat_writeback()). */
static struct f2fs_nat_entry *map_entries(uint32_t n, size_t *bytes)
{
	void *p;

	*bytes = (size_t)n * sizeof(struct f2fs_nat_entry);
	p = mmap(NULL, *bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

int f2fs_nat_init(struct f2fs_nat_model *nm, uint32_t max_nid, const uint8_t *nat_bitmap)
{
	size_t bits_bytes;

	memset(nm, 0, sizeof(*nm));
	if (max_nid == 0)
		return -EINVAL;
	nm->max_nid = max_nid;
	nm->nat_blocks = (uint32_t)(((uint64_t)max_nid + NAT_ENTRY_PER_BLOCK - 1) /
				    NAT_ENTRY_PER_BLOCK);
	bits_bytes = ((size_t)nm->nat_blocks + 7) / 8;
	nm->bitmap_bytes = (uint32_t)bits_bytes;
	nm->ent = map_entries(max_nid, &nm->ent_bytes);
	nm->block_loaded = calloc(bits_bytes, 1);
	nm->block_dirty = calloc(bits_bytes, 1);
	nm->block_moved = calloc(bits_bytes, 1);
	nm->block_released = calloc(bits_bytes, 1);
	nm->block_used = calloc(nm->nat_blocks, sizeof(*nm->block_used));
	nm->cur_bitmap = calloc(bits_bytes, 1);
	nm->journal_shadowed = calloc(NAT_JOURNAL_ENTRIES, sizeof(*nm->journal_shadowed));
	if (!nm->ent || !nm->block_loaded || !nm->block_dirty || !nm->block_used ||
	    !nm->block_moved || !nm->block_released ||
	    !nm->cur_bitmap || !nm->journal_shadowed) {
		f2fs_nat_free(nm);
		return -ENOMEM;
	}
	if (nat_bitmap)
		memcpy(nm->cur_bitmap, nat_bitmap, bits_bytes);
	return 0;
}

void f2fs_nat_free(struct f2fs_nat_model *nm)
{
	if (nm->ent)
		munmap(nm->ent, nm->ent_bytes);
	free(nm->block_loaded);
	free(nm->block_dirty);
	free(nm->block_moved);
	free(nm->block_released);
	free(nm->block_used);
	free(nm->cur_bitmap);
	free(nm->journal_shadowed);
	memset(nm, 0, sizeof(*nm));
}

/* ---- journal ---------------------------------------------------------- */

/* Put the shadowed block values back under every effective entry. */
static void unapply_journal(struct f2fs_nat_model *nm)
{
	for (uint32_t i = 0; i < nm->n_journal; i++) {
		uint32_t nid = le32_to_cpu(nm->journal[i].nid);

		if (journal_entry_effective(nm, i) && block_is_loaded(nm, nid_block(nid)))
			set_loaded_entry(nm, nid, &nm->journal_shadowed[i]);
	}
}

/* Journal entries of loaded blocks (of block only, if only_block):
 * remember the block value under each (repeats of a nid included), then
 * lay the effective ones over ent[]. */
static void apply_journal_entries(struct f2fs_nat_model *nm, bool only_block,
				  uint32_t block)
{
	for (uint32_t pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < nm->n_journal; i++) {
			uint32_t nid = le32_to_cpu(nm->journal[i].nid);

			if (nid >= nm->max_nid || (only_block && nid_block(nid) != block) ||
			    !block_is_loaded(nm, nid_block(nid)))
				continue;
			if (pass == 0)
				nm->journal_shadowed[i] = nm->ent[nid];
			else if (journal_entry_effective(nm, i))
				set_loaded_entry(nm, nid, &nm->journal[i].ne);
		}
	}
}

static uint32_t count_bad_journal_entries(const struct f2fs_nat_model *nm)
{
	uint32_t bad = 0;

	for (uint32_t i = 0; i < nm->n_journal; i++)
		if (!journal_entry_effective(nm, i))
			bad++;
	return bad;
}

int f2fs_nat_load_journal(struct f2fs_nat_model *nm, const struct f2fs_journal *j)
{
	uint32_t n = le16_to_cpu(j->n_nats);
	uint32_t over = 0;

	unapply_journal(nm);
	if (n > NAT_JOURNAL_ENTRIES) {
		over = n - (uint32_t)NAT_JOURNAL_ENTRIES;
		n = NAT_JOURNAL_ENTRIES;
	}
	memset(nm->journal, 0, sizeof(nm->journal));
	memcpy(nm->journal, j->nat_j.entries, n * sizeof(nm->journal[0]));
	nm->n_journal = n;
	memset(nm->journal_shadowed, 0, NAT_JOURNAL_ENTRIES * sizeof(*nm->journal_shadowed));
	apply_journal_entries(nm, false, 0);
	nm->journal_loaded = true;
	nm->journal_dirty = false;
	nm->journal_bad = over + count_bad_journal_entries(nm);
	return nm->journal_bad ? -EFSCORRUPTED : 0;
}

void f2fs_nat_journal_to_raw(const struct f2fs_nat_model *nm, struct f2fs_journal *j)
{
	memset(j, 0, sizeof(*j));
	j->n_nats = cpu_to_le16((uint16_t)nm->n_journal);
	memcpy(j->nat_j.entries, nm->journal, nm->n_journal * sizeof(nm->journal[0]));
}

/* Whether journal entry i is one the kernel could have written: the first
 * for its nid, and a nid of a node (not 0, the node or the meta inode). */
static bool journal_entry_sane(const struct f2fs_nat_model *nm, uint32_t i)
{
	return journal_entry_effective(nm, i) &&
	       le32_to_cpu(nm->journal[i].nid) >= F2FS_RESERVED_NODE_NUM;
}

uint32_t f2fs_nat_journal_drop_bad(struct f2fs_nat_model *nm)
{
	uint32_t kept = 0, n = nm->n_journal;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t nid = le32_to_cpu(nm->journal[i].nid);

		if (!journal_entry_sane(nm, i)) {
			/* a reserved nid's entry was laid over its block: undo it */
			if (journal_entry_effective(nm, i) && block_is_loaded(nm, nid_block(nid)))
				set_loaded_entry(nm, nid, &nm->journal_shadowed[i]);
			continue;
		}
		nm->journal[kept] = nm->journal[i];
		nm->journal_shadowed[kept] = nm->journal_shadowed[i];
		kept++;
	}
	for (uint32_t i = kept; i < n; i++) {
		memset(&nm->journal[i], 0, sizeof(nm->journal[i]));
		memset(&nm->journal_shadowed[i], 0, sizeof(nm->journal_shadowed[i]));
	}
	nm->n_journal = kept;
	if (kept != n)
		nm->journal_dirty = true;
	nm->journal_bad = 0;
	return n - kept;
}

uint32_t f2fs_nat_journal_settle_blocks(struct f2fs_nat_model *nm)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < nm->n_journal; i++) {
		uint32_t nid = le32_to_cpu(nm->journal[i].nid);

		if (!journal_entry_effective(nm, i) || !block_is_loaded(nm, nid_block(nid)) ||
		    !memcmp(&nm->journal_shadowed[i], &nm->journal[i].ne, sizeof(nm->journal[i].ne)))
			continue;
		nm->journal_shadowed[i] = nm->journal[i].ne;
		set_bit_le(nid_block(nid), nm->block_dirty);
		n++;
	}
	return n;
}

bool f2fs_nat_in_journal(const struct f2fs_nat_model *nm, uint32_t nid)
{
	return nid < nm->max_nid && journal_index(nm, nid) >= 0;
}

/* ---- loading one block's content ----------------------------------------- */

/* Whether the entry area of a NAT block is all zero: 64-bit words ORed
 * 8 at a time, stopping at the first non-zero group. */
static bool raw_entries_zero(const uint8_t *raw)
{
	size_t off = 0;

	for (; off + 64 <= NAT_ENTRY_BYTES; off += 64) {
		uint64_t w[8];

		memcpy(w, raw + off, sizeof(w));
		if (w[0] | w[1] | w[2] | w[3] | w[4] | w[5] | w[6] | w[7])
			return false;
	}
	for (; off < NAT_ENTRY_BYTES; off++)
		if (raw[off])
			return false;
	return true;
}

/* Number of entries of block b that are in range (the last may be short). */
static uint32_t block_nids(const struct f2fs_nat_model *nm, uint32_t b)
{
	uint32_t first = block_first_nid(b);
	uint32_t left = nm->max_nid - first;

	return left < NAT_ENTRY_PER_BLOCK ? left : (uint32_t)NAT_ENTRY_PER_BLOCK;
}

/* Counts of a block whose entries are already in ent[] (or all zero when
 * the block held nothing), before the journal is laid over it: sets
 * block_used[b] and returns the block's valid nodes (the caller adds them
 * to valid_nodes; decode_block() runs on worker threads). */
static uint32_t count_block(struct f2fs_nat_model *nm, uint32_t b, bool zero)
{
	uint32_t first = block_first_nid(b), n = block_nids(nm, b);
	uint32_t used = 0, valid = 0;

	if (!zero) {
		for (uint32_t i = 0; i < n; i++) {
			const struct f2fs_nat_entry *e = &nm->ent[first + i];

			if (entry_used(e) || first + i == 0)
				used++;
			if (entry_is_valid_node(first + i, e))
				valid++;
		}
	} else if (b == 0) {
		used = 1;
	}
	nm->block_used[b] = (uint16_t)used;
	return valid;
}

/* The part of taking block b's raw content (NULL: all zero) that touches
 * only what belongs to b (its entries in ent[], block_used[b]): blocks
 * apart may be decoded at once.  Returns the block's valid nodes. */
static uint32_t decode_block(struct f2fs_nat_model *nm, uint32_t b, const uint8_t *raw)
{
	bool zero = !raw || raw_entries_zero(raw);

	if (!zero)
		memcpy(&nm->ent[block_first_nid(b)], raw,
		       block_nids(nm, b) * sizeof(struct f2fs_nat_entry));
	return count_block(nm, b, zero);
}

/* The rest, one block at a time: b is loaded, and the journal lies over it. */
static void settle_block(struct f2fs_nat_model *nm, uint32_t b)
{
	set_bit_le(b, nm->block_loaded);
	clear_bit_le(b, nm->block_released);
	apply_journal_entries(nm, true, b);
}

/* Take the raw content of block b (NULL: all zero) into the model. */
static void install_block(struct f2fs_nat_model *nm, uint32_t b, const uint8_t *raw)
{
	nm->valid_nodes += decode_block(nm, b, raw);
	settle_block(nm, b);
}

void f2fs_nat_mark_all_loaded(struct f2fs_nat_model *nm)
{
	for (uint32_t b = 0; b < nm->nat_blocks; b++)
		if (!block_is_loaded(nm, b))
			install_block(nm, b, NULL);
}

/* ---- get / set ------------------------------------------------------- */

int f2fs_nat_get(const struct f2fs_nat_model *nm, uint32_t nid,
		 struct f2fs_nat_entry *out)
{
	int j;

	if (nid >= nm->max_nid)
		return -EINVAL;
	if (block_is_loaded(nm, nid_block(nid))) {
		*out = nm->ent[nid];
		return 0;
	}
	j = journal_index(nm, nid);
	if (j < 0)
		return -ENODATA;
	*out = nm->journal[j].ne;
	return 0;
}

int f2fs_nat_set(struct f2fs_nat_model *nm, uint32_t nid,
		 const struct f2fs_nat_entry *e)
{
	uint32_t b;
	int j;

	if (nid >= nm->max_nid)
		return -EINVAL;
	b = nid_block(nid);
	j = journal_index(nm, nid);
	if (j >= 0) {
		nm->journal[j].ne = *e;
		nm->journal_dirty = true;
		if (block_is_loaded(nm, b))
			set_loaded_entry(nm, nid, e);
		return 0;
	}
	if (!block_is_loaded(nm, b))
		return -ENODATA;
	set_loaded_entry(nm, nid, e);
	set_bit_le(b, nm->block_dirty);
	return 0;
}

void f2fs_nat_compute_bits(const struct f2fs_nat_model *nm, uint8_t *full,
			   uint8_t *empty)
{
	memset(full, 0, nm->bitmap_bytes);
	memset(empty, 0, nm->bitmap_bytes);
	for (uint32_t b = 0; b < nm->nat_blocks; b++) {
		if (!block_is_loaded(nm, b) && !block_is_released(nm, b))
			continue;
		if (nm->block_used[b] == NAT_ENTRY_PER_BLOCK)
			set_bit_le(b, full);
		else if (nm->block_used[b] == 0)
			set_bit_le(b, empty);
	}
}

/* ---- addresses ----------------------------------------------------------- */

static uint32_t nat_copy0_addr(const struct f2fs_fs *fs, uint32_t b)
{
	return fs->nat_blkaddr + (b / BLKS_PER_SEG) * (2 * BLKS_PER_SEG) +
	       b % BLKS_PER_SEG;
}

uint32_t f2fs_nat_block_addr(const struct f2fs_fs *fs,
			     const struct f2fs_nat_model *nm, uint32_t b)
{
	uint32_t addr = nat_copy0_addr(fs, b);

	if (f2fs_test_bit(b, nm->cur_bitmap))
		addr += BLKS_PER_SEG;
	return addr;
}

static uint32_t nat_inactive_addr(const struct f2fs_fs *fs,
				  const struct f2fs_nat_model *nm, uint32_t b)
{
	uint32_t addr = nat_copy0_addr(fs, b);

	if (!f2fs_test_bit(b, nm->cur_bitmap))
		addr += BLKS_PER_SEG;
	return addr;
}

/* The volume must have room for the blocks the model covers. */
static int check_nat_geometry(const struct f2fs_fs *fs, const struct f2fs_nat_model *nm)
{
	uint64_t end;

	if (!fs->dev || nm->nat_blocks > fs->nat_blocks || nm->nat_blocks == 0)
		return -EFSCORRUPTED;
	end = (uint64_t)fs->nat_blkaddr +
	      ((uint64_t)(nm->nat_blocks + BLKS_PER_SEG - 1) / BLKS_PER_SEG) * 2 * BLKS_PER_SEG;
	if (end > F2FS_MAX_BLOCKS)
		return -EFSCORRUPTED;
	return 0;
}

/* ---- batched reading ------------------------------------------------------ */

/* Runs of consecutive current-copy addresses for blocks[0..n), with their
 * buffers laid out in list order in buf.  Returns the number of runs. */
static size_t build_nat_runs(const struct f2fs_fs *fs, const struct f2fs_nat_model *nm,
			     const uint32_t *blocks, uint32_t n, uint8_t *buf,
			     struct f2fs_io_vec *vec)
{
	size_t nvec = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t addr = f2fs_nat_block_addr(fs, nm, blocks[i]);

		if (nvec && vec[nvec - 1].blkaddr + vec[nvec - 1].nblocks == addr) {
			vec[nvec - 1].nblocks++;
			continue;
		}
		vec[nvec].blkaddr = addr;
		vec[nvec].nblocks = 1;
		vec[nvec].buf = buf ? buf + (size_t)i * F2FS_BLKSIZE : NULL;
		nvec++;
	}
	return nvec;
}

/* Announce every block of the step before the first batch is read (best
 * effort: a failed hint only costs time). */
static void readahead_blocks(const struct f2fs_fs *fs, const struct f2fs_nat_model *nm,
			     const uint32_t *blocks, uint32_t n)
{
	struct f2fs_io_vec *vec;
	size_t nvec;

	if (n <= NAT_LOAD_BATCH)
		return;		/* the single batch read announces itself */
	vec = calloc(n, sizeof(*vec));
	if (!vec)
		return;
	nvec = build_nat_runs(fs, nm, blocks, n, NULL, vec);
	for (size_t i = 0; i < nvec; i++)
		(void)f2fs_dev_readahead(fs->dev, vec[i].blkaddr, vec[i].nblocks);
	free(vec);
}

/* Read and install blocks[0..n) (sorted, unique, none loaded yet). */
static int read_and_install(struct f2fs_fs *fs, struct f2fs_nat_model *nm,
			    const uint32_t *blocks, uint32_t n)
{
	uint32_t batch = n < NAT_LOAD_BATCH ? n : NAT_LOAD_BATCH;
	uint8_t *buf;
	struct f2fs_io_vec *vec;
	int err = 0;

	if (n == 0)
		return 0;
	readahead_blocks(fs, nm, blocks, n);
	buf = f2fs_dev_buf_take(fs->dev, batch);
	vec = calloc(batch, sizeof(*vec));
	if (!buf || !vec) {
		err = -ENOMEM;
		goto out;
	}
	for (uint32_t first = 0; first < n && !err; first += batch) {
		uint32_t cnt = n - first < batch ? n - first : batch;
		size_t nvec = build_nat_runs(fs, nm, blocks + first, cnt, buf, vec);

		err = f2fs_dev_read_batch(fs->dev, vec, nvec);
		for (uint32_t i = 0; i < cnt && !err; i++)
			install_block(nm, blocks[first + i], buf + (size_t)i * F2FS_BLKSIZE);
	}
out:
	f2fs_dev_buf_give(fs->dev, buf, batch);
	free(vec);
	return err;
}

/* ---- loading with worker threads -------------------------------------- */

/* NAT blocks per chunk of the parallel loader (512 KiB of buffer per lane). */
#define NAT_MT_CHUNK	128u
/* Lanes at most: the caller and up to this many workers less one. */
#define NAT_MT_LANES	8u

/* The parallel load of a sorted list of blocks: chunk c is blocks
 * [c * NAT_MT_CHUNK, ...) of the list; lane l reads and decodes chunks l,
 * l + lanes, ... into its own buffer.  What a chunk found is in chunk_*[c]
 * (each written by one lane only). */
struct nat_mt_load {
	struct f2fs_fs *fs;
	struct f2fs_nat_model *nm;
	const uint32_t *list;
	uint32_t n, chunks, lanes;
	uint8_t *buf[NAT_MT_LANES];		/* NAT_MT_CHUNK blocks each */
	struct f2fs_dev_tally tally[NAT_MT_LANES];
	int *chunk_err;				/* 0: decoded; else read the usual way */
	uint32_t *chunk_valid;			/* valid nodes of a decoded chunk */
};

static void load_chunk(struct nat_mt_load *ld, uint32_t lane, uint32_t c)
{
	struct f2fs_io_vec vec[NAT_MT_CHUNK];
	uint32_t first = c * NAT_MT_CHUNK;
	uint32_t cnt = ld->n - first < NAT_MT_CHUNK ? ld->n - first : NAT_MT_CHUNK;
	size_t nvec = build_nat_runs(ld->fs, ld->nm, ld->list + first, cnt, ld->buf[lane], vec);
	uint32_t valid = 0;

	ld->chunk_err[c] = f2fs_dev_read_cached_mt(ld->fs->dev, vec, nvec, &ld->tally[lane]);
	if (ld->chunk_err[c])
		return;
	for (uint32_t i = 0; i < cnt; i++)
		valid += decode_block(ld->nm, ld->list[first + i],
				      ld->buf[lane] + (size_t)i * F2FS_BLKSIZE);
	ld->chunk_valid[c] = valid;
}

static void load_lane(void *arg, uint32_t lane)
{
	struct nat_mt_load *ld = arg;

	for (uint32_t c = lane; c < ld->chunks; c += ld->lanes)
		load_chunk(ld, lane, c);
}

/* After the lanes: settle every decoded block in list order, gather what
 * the page cache could not serve into missed[] (its count in *n_missed). */
static void settle_chunks(struct nat_mt_load *ld, uint32_t *missed, uint32_t *n_missed)
{
	*n_missed = 0;
	for (uint32_t c = 0; c < ld->chunks; c++) {
		uint32_t first = c * NAT_MT_CHUNK;
		uint32_t end = ld->n - first < NAT_MT_CHUNK ? ld->n : first + NAT_MT_CHUNK;

		for (uint32_t i = first; i < end; i++) {
			if (ld->chunk_err[c])
				missed[(*n_missed)++] = ld->list[i];
			else
				settle_block(ld->nm, ld->list[i]);
		}
		if (!ld->chunk_err[c])
			ld->nm->valid_nodes += ld->chunk_valid[c];
	}
	for (uint32_t l = 0; l < ld->lanes; l++)
		f2fs_dev_add_tally(ld->fs->dev, &ld->tally[l]);
}

static void free_mt_load(struct nat_mt_load *ld)
{
	for (uint32_t l = 0; l < NAT_MT_LANES; l++)
		f2fs_dev_buf_give(ld->fs->dev, ld->buf[l], NAT_MT_CHUNK);
	free(ld->chunk_err);
	free(ld->chunk_valid);
}

static int setup_mt_load(struct nat_mt_load *ld, uint32_t lanes)
{
	ld->chunks = (ld->n + NAT_MT_CHUNK - 1) / NAT_MT_CHUNK;
	ld->lanes = lanes < ld->chunks ? lanes : ld->chunks;
	ld->chunk_err = calloc(ld->chunks, sizeof(*ld->chunk_err));
	ld->chunk_valid = calloc(ld->chunks, sizeof(*ld->chunk_valid));
	if (!ld->chunk_err || !ld->chunk_valid)
		return -ENOMEM;
	for (uint32_t l = 0; l < ld->lanes; l++) {
		ld->buf[l] = f2fs_dev_buf_take(ld->fs->dev, NAT_MT_CHUNK);
		if (!ld->buf[l])
			return -ENOMEM;
	}
	return 0;
}

/* Read and install list[0..n) (sorted, unique, none loaded yet) with the
 * pool's workers; *done false when it could not start (nothing changed:
 * the caller reads the usual way). */
static int read_and_install_mt(struct f2fs_fs *fs, struct f2fs_nat_model *nm,
			       const uint32_t *list, uint32_t n, struct f2fs_workers *pool,
			       bool *done)
{
	struct nat_mt_load ld = { .fs = fs, .nm = nm, .list = list, .n = n };
	unsigned int lanes = f2fs_workers_count(pool) + 1;
	struct f2fs_job *job;
	uint32_t *missed, n_missed;
	int err;

	*done = false;
	if (lanes > NAT_MT_LANES)
		lanes = NAT_MT_LANES;
	err = setup_mt_load(&ld, lanes);
	job = err ? NULL : f2fs_job_new();
	missed = err ? NULL : malloc((size_t)n * sizeof(*missed));
	if (job && missed)
		readahead_blocks(fs, nm, list, n);
	if (!job || !missed || f2fs_job_run(pool, job, load_lane, &ld, ld.lanes) != 0) {
		f2fs_job_free(job);
		free(missed);
		free_mt_load(&ld);
		return 0;
	}
	*done = true;
	for (uint32_t l = 0; l < ld.lanes; l++)
		f2fs_job_take(job, l);
	f2fs_job_finish(pool, job);
	f2fs_job_free(job);
	settle_chunks(&ld, missed, &n_missed);
	free_mt_load(&ld);
	err = read_and_install(fs, nm, missed, n_missed);
	free(missed);
	return err;
}

/* Insane journal entries are counted in journal_bad, not fatal here. */
static void ensure_journal(struct f2fs_fs *fs, struct f2fs_nat_model *nm)
{
	if (!nm->journal_loaded)
		(void)f2fs_nat_load_journal(nm, f2fs_nat_journal(fs));
}

int f2fs_nat_load_all_mt(struct f2fs_fs *fs, struct f2fs_nat_model *nm,
			 struct f2fs_workers *pool)
{
	uint32_t *list, n = 0;
	bool done = false;
	int err = 0;

	err = check_nat_geometry(fs, nm);
	if (err)
		return err;
	ensure_journal(fs, nm);
	list = malloc((size_t)nm->nat_blocks * sizeof(*list));
	if (!list)
		return -ENOMEM;
	for (uint32_t b = 0; b < nm->nat_blocks; b++)
		if (!block_is_loaded(nm, b))
			list[n++] = b;
	if (pool && f2fs_workers_count(pool) && n > NAT_MT_CHUNK && f2fs_dev_reads_mt(fs->dev))
		err = read_and_install_mt(fs, nm, list, n, pool, &done);
	if (!done)
		err = read_and_install(fs, nm, list, n);
	free(list);
	return err;
}

int f2fs_nat_load_all(struct f2fs_fs *fs, struct f2fs_nat_model *nm)
{
	return f2fs_nat_load_all_mt(fs, nm, NULL);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

int f2fs_nat_load_blocks(struct f2fs_fs *fs, struct f2fs_nat_model *nm,
			 const uint32_t *blocks, uint32_t n)
{
	uint32_t *list, m = 0;
	int err;

	err = check_nat_geometry(fs, nm);
	if (err)
		return err;
	for (uint32_t i = 0; i < n; i++)
		if (blocks[i] >= nm->nat_blocks)
			return -EINVAL;
	ensure_journal(fs, nm);
	list = malloc(((size_t)n + 1) * sizeof(*list));
	if (!list)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		if (!block_is_loaded(nm, blocks[i]))
			list[m++] = blocks[i];
	qsort(list, m, sizeof(*list), cmp_u32);
	n = 0;
	for (uint32_t i = 0; i < m; i++)
		if (n == 0 || list[n - 1] != list[i])
			list[n++] = list[i];
	err = read_and_install(fs, nm, list, n);
	free(list);
	return err;
}

/* ---- flushing ---------------------------------------------------------- */

/* Fold the journal into the blocks: every effective entry's block (loaded
 * first) becomes dirty and already holds the journal value in ent[]. */
static int move_journal_to_blocks(struct f2fs_fs *fs, struct f2fs_nat_model *nm)
{
	uint32_t blocks[NAT_JOURNAL_ENTRIES], n = 0;
	int err;

	for (uint32_t i = 0; i < nm->n_journal; i++)
		if (journal_entry_effective(nm, i))
			blocks[n++] = nid_block(le32_to_cpu(nm->journal[i].nid));
	if (n) {
		err = f2fs_nat_load_blocks(fs, nm, blocks, n);
		if (err)
			return err;
	}
	for (uint32_t i = 0; i < n; i++)
		set_bit_le(blocks[i], nm->block_dirty);
	if (nm->n_journal)
		nm->journal_dirty = true;
	nm->n_journal = 0;
	memset(nm->journal, 0, sizeof(nm->journal));
	return 0;
}

/* Block b as it must be written: the current copy as read (pad byte
 * included) with every entry from the model, and the shadowed block value
 * under each journal entry. */
static void build_block_image(const struct f2fs_nat_model *nm, uint32_t b, uint8_t *raw)
{
	uint32_t first = block_first_nid(b);

	memcpy(raw, &nm->ent[first], block_nids(nm, b) * sizeof(struct f2fs_nat_entry));
	for (uint32_t i = 0; i < nm->n_journal; i++) {
		uint32_t nid = le32_to_cpu(nm->journal[i].nid);

		if (journal_entry_effective(nm, i) && nid_block(nid) == b)
			memcpy(raw + (size_t)(nid - first) * sizeof(struct f2fs_nat_entry),
			       &nm->journal_shadowed[i], sizeof(struct f2fs_nat_entry));
	}
}

static uint32_t collect_dirty_blocks(const struct f2fs_nat_model *nm, uint32_t *list)
{
	uint32_t n = 0;

	for (uint32_t byte = 0; byte < nm->bitmap_bytes; byte++) {
		if (!nm->block_dirty[byte])
			continue;
		for (uint32_t b = byte * 8; b < byte * 8 + 8 && b < nm->nat_blocks; b++)
			if (block_is_dirty(nm, b) && block_is_loaded(nm, b))
				list[n++] = b;
	}
	return n;
}

/* Where block b's new content goes: its inactive copy, or, once that copy
 * was written and made current in cur_bitmap (block_moved), that copy. */
static uint32_t nat_write_addr(const struct f2fs_fs *fs, const struct f2fs_nat_model *nm,
			       uint32_t b)
{
	if (bit_le(nm->block_moved, b))
		return f2fs_nat_block_addr(fs, nm, b);
	return nat_inactive_addr(fs, nm, b);
}

/* Write list[0..n) (images in buf) to their inactive copies, merging
 * consecutive addresses; flip each block's bit once, when it is first
 * written. */
static int write_inactive_copies(struct f2fs_fs *fs, struct f2fs_nat_model *nm,
				 const uint32_t *list, uint32_t n, const uint8_t *buf)
{
	uint32_t i = 0;

	while (i < n) {
		uint32_t start = nat_write_addr(fs, nm, list[i]), len = 1;
		int err;

		while (i + len < n &&
		       nat_write_addr(fs, nm, list[i + len]) == start + len)
			len++;
		err = f2fs_dev_write(fs->dev, start, len, buf + (size_t)i * F2FS_BLKSIZE);
		if (err)
			return err;
		for (uint32_t k = i; k < i + len; k++) {
			if (!bit_le(nm->block_moved, list[k])) {
				if (f2fs_test_bit(list[k], nm->cur_bitmap))
					f2fs_clear_bit(list[k], nm->cur_bitmap);
				else
					f2fs_set_bit(list[k], nm->cur_bitmap);
				set_bit_le(list[k], nm->block_moved);
			}
			clear_bit_le(list[k], nm->block_dirty);
		}
		i += len;
	}
	return 0;
}

/* Read the current copies of list[0..n), put the model's entries in
 * them and write them to their inactive copies; buf and vec hold n. */
static int flush_step(struct f2fs_fs *fs, struct f2fs_nat_model *nm, const uint32_t *list,
		      uint32_t n, uint8_t *buf, struct f2fs_io_vec *vec)
{
	int err = f2fs_dev_read_batch(fs->dev, vec, build_nat_runs(fs, nm, list, n, buf, vec));

	if (err)
		return err;
	for (uint32_t i = 0; i < n; i++)
		build_block_image(nm, list[i], buf + (size_t)i * F2FS_BLKSIZE);
	return write_inactive_copies(fs, nm, list, n, buf);
}

/* Write every dirty block (f2fs_nat_flush() and f2fs_nat_writeback()). */
static int write_dirty_blocks(struct f2fs_fs *fs, struct f2fs_nat_model *nm, bool move_journal)
{
	uint32_t *list = NULL, n, step;
	uint8_t *buf = NULL;
	struct f2fs_io_vec *vec = NULL;
	int err;

	err = check_nat_geometry(fs, nm);
	if (err)
		return err;
	if (move_journal) {
		err = move_journal_to_blocks(fs, nm);
		if (err)
			return err;
	}
	list = malloc(((size_t)nm->nat_blocks + 1) * sizeof(*list));
	if (!list)
		return -ENOMEM;
	n = collect_dirty_blocks(nm, list);
	if (n == 0)
		goto out;
	/* The buffer is bounded (4 MiB), however many blocks are dirty. */
	step = n < NAT_FLUSH_BATCH ? n : NAT_FLUSH_BATCH;
	buf = f2fs_blocks_alloc(step);
	vec = calloc(step, sizeof(*vec));
	if (!buf || !vec) {
		err = -ENOMEM;
		goto out;
	}
	for (uint32_t first = 0; first < n && !err; first += step)
		err = flush_step(fs, nm, list + first, n - first < step ? n - first : step, buf, vec);
out:
	free(list);
	free(buf);
	free(vec);
	return err;
}

int f2fs_nat_flush(struct f2fs_fs *fs, struct f2fs_nat_model *nm, bool move_journal)
{
	int err = write_dirty_blocks(fs, nm, move_journal);

	/* the next checkpoint starts from the copies this one makes current */
	if (!err)
		memset(nm->block_moved, 0, nm->bitmap_bytes);
	return err;
}

/* ---- bounded memory for long writers ------------------------------------ */

/* Drop block b (written back, clean) from ent[]: its entries are zeroed
 * so a reload starts from zero as a first load does, and valid_nodes
 * forgets them; block_used stays. */
static void release_block(struct f2fs_nat_model *nm, uint32_t b)
{
	uint32_t first = block_first_nid(b), n = block_nids(nm, b);

	for (uint32_t i = 0; i < n; i++)
		if (entry_is_valid_node(first + i, &nm->ent[first + i]))
			nm->valid_nodes--;
	memset(&nm->ent[first], 0, (size_t)n * sizeof(struct f2fs_nat_entry));
	clear_bit_le(b, nm->block_loaded);
	set_bit_le(b, nm->block_released);
}

/* Hand back the whole pages of ent[] that lie inside released blocks
 * [b0, b1): they read as zero again, as a fresh mapping does. */
static void discard_entry_pages(struct f2fs_nat_model *nm, uint32_t b0, uint32_t b1)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t base = (uintptr_t)nm->ent;
	uintptr_t lo = base + (size_t)block_first_nid(b0) * sizeof(struct f2fs_nat_entry);
	uintptr_t hi = base + (size_t)block_first_nid(b1) * sizeof(struct f2fs_nat_entry);

	if (hi > base + nm->ent_bytes)
		hi = base + nm->ent_bytes;
	lo = (lo + page - 1) / page * page;
	hi = hi / page * page;
	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_DONTNEED);	/* a hint: zeroed anyway */
}

int f2fs_nat_writeback(struct f2fs_fs *fs, struct f2fs_nat_model *nm, uint32_t keep_nid)
{
	uint32_t end = keep_nid < nm->max_nid ? nid_block(keep_nid) : nm->nat_blocks;
	uint32_t run = 0;
	int err = write_dirty_blocks(fs, nm, false);

	if (err)
		return err;
	/* runs of blocks whose entries are all zero in ent[] now: released
	 * ones, and ones never loaded */
	for (uint32_t b = 0; b <= end; b++) {
		if (b < end && !block_is_dirty(nm, b)) {
			if (block_is_loaded(nm, b))
				release_block(nm, b);
			continue;
		}
		if (b > run)
			discard_entry_pages(nm, run, b);
		run = b + 1;
	}
	return 0;
}

int f2fs_nat_reload(struct f2fs_fs *fs, struct f2fs_nat_model *nm, uint32_t nid)
{
	uint32_t b;

	if (nid >= nm->max_nid)
		return -EINVAL;
	b = nid_block(nid);
	if (block_is_loaded(nm, b) || !block_is_released(nm, b))
		return 0;
	return f2fs_nat_load_blocks(fs, nm, &b, 1);
}
