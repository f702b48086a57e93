/*
 * test_sit_load.c - f2fs_sit_load() on images made by f2fs-tools'
 * mkfs.f2fs: a fresh image shows exactly the SIT journal (6 logs, 2 used
 * segments); every entry equals a block-by-block reference read; the SIT
 * blocks are read in a handful of system calls; the copy is chosen per
 * block by the version bitmap; insane entries (in a block or in the
 * journal) are counted and journal segnos out of range are ignored;
 * f2fs_sit_readahead() announces exactly the valid blocks of the asked
 * segment types, merging runs across small gaps.
 * mkfs.f2fs missing is a failure.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "f2fs_err.h"
#include "f2fs_mount.h"
#include "f2fs_sit.h"
#include "unit.h"

static int make_image(const char *dir, const char *name, const char *size,
		      const char *mkfs_args, char *path, size_t path_len)
{
	char cmd[1024];
	int rc;

	snprintf(path, path_len, "%s/%s", dir, name);
	snprintf(cmd, sizeof(cmd),
		 "truncate -s %s '%s' && PATH=\"$PATH:/usr/sbin:/sbin\" "
		 "mkfs.f2fs -f -q %s '%s' > '%s.log' 2>&1",
		 size, path, mkfs_args, path, path);
	rc = system(cmd);
	if (rc != 0)
		fprintf(stderr, "FAIL: mkfs.f2fs (f2fs-tools) is required and failed "
			"(status %d): %s\n", rc, cmd);
	return rc ? -1 : 0;
}

static int open_fs(const char *path, bool rw, struct f2fs_fs **fs)
{
	struct f2fs_dev_opts opts = { .read_only = !rw };
	int err = f2fs_fs_open(path, &opts, fs);

	CHECK_EQ_U64(err, 0);
	if (err) {
		f2fs_fs_close(*fs);
		*fs = NULL;
	}
	return err;
}

/* The SIT entry of segno as the kernel would see it, read one block at a
 * time from the current copy, the journal taking precedence. */
static void reference_entry(struct f2fs_fs *fs, uint32_t segno, struct f2fs_sit_entry *out)
{
	const struct f2fs_journal *j = f2fs_sit_journal(fs);
	struct f2fs_sit_block blk;
	uint32_t n = le16_to_cpu(j->n_sits);

	for (uint32_t i = n < SIT_JOURNAL_ENTRIES ? n : SIT_JOURNAL_ENTRIES; i-- > 0;) {
		if (le32_to_cpu(j->sit_j.entries[i].segno) == segno) {
			*out = j->sit_j.entries[i].se;
			return;
		}
	}
	CHECK_EQ_U64(f2fs_dev_read(fs->dev, f2fs_current_sit_addr(fs, segno / SIT_ENTRY_PER_BLOCK),
				   1, &blk), 0);
	*out = blk.entries[segno % SIT_ENTRY_PER_BLOCK];
}

static void compare_with_reference(struct f2fs_fs *fs, const struct f2fs_sit_model *m)
{
	uint32_t bad = 0, free_segs = 0;
	uint64_t total = 0;

	for (uint32_t s = 0; s < m->main_segs; s++) {
		struct f2fs_sit_entry want, got;

		reference_entry(fs, s, &want);
		f2fs_sit_to_raw(m, s, &got);
		if (memcmp(&want, &got, sizeof(want)))
			bad++;
		total += GET_SIT_VBLOCKS(&want);
		free_segs += GET_SIT_VBLOCKS(&want) == 0;
		if (m->segs[s].ckpt_valid_blocks != m->segs[s].valid_blocks ||
		    memcmp(m->segs[s].ckpt_valid_map, m->segs[s].cur_valid_map, SIT_VBLOCK_MAP_SIZE))
			bad++;
	}
	CHECK_EQ_U64(bad, 0);
	CHECK_EQ_U64(m->total_valid_blocks, total);
	CHECK_EQ_U64(m->free_segs, free_segs);
}

static void check_sections(const struct f2fs_sit_model *m)
{
	uint32_t bad = 0, free_secs = 0;

	for (uint32_t sec = 0; sec < m->main_secs; sec++) {
		uint32_t v = 0, c = 0;

		for (uint32_t i = 0; i < m->segs_per_sec; i++) {
			v += m->segs[sec * m->segs_per_sec + i].valid_blocks;
			c += m->segs[sec * m->segs_per_sec + i].ckpt_valid_blocks;
		}
		bad += m->secs[sec].valid_blocks != v || m->secs[sec].ckpt_valid_blocks != c;
		free_secs += v == 0;
	}
	CHECK_EQ_U64(bad, 0);
	CHECK_EQ_U64(m->free_secs, free_secs);
}

/* A fresh image: the six logs from the journal, two of them used. */
static void test_fresh(const char *path, uint32_t want_segs_per_sec)
{
	struct f2fs_fs *fs;
	struct f2fs_sit_model m;
	uint32_t bad = 99, used = 0;
	uint64_t calls;

	if (open_fs(path, false, &fs))
		return;
	calls = f2fs_dev_stats(fs->dev)->read_calls;
	CHECK_EQ_U64(f2fs_sit_load(fs, &m, &bad), 0);
	calls = f2fs_dev_stats(fs->dev)->read_calls - calls;
	CHECK_EQ_U64(bad, 0);
	CHECK_EQ_U64(m.main_segs, fs->main_segs);
	CHECK_EQ_U64(m.segs_per_sec, want_segs_per_sec);
	CHECK_EQ_U64(le16_to_cpu(f2fs_sit_journal(fs)->n_sits), NR_CURSEG_TYPE);
	for (int t = 0; t < NR_CURSEG_TYPE; t++) {
		uint32_t segno = fs->curseg_segno[t];

		CHECK(segno < m.main_segs);
		if (segno >= m.main_segs)
			continue;
		CHECK_EQ_U64(m.segs[segno].type, t);
		CHECK_EQ_U64(m.segs[segno].valid_blocks, fs->curseg_blkoff[t]);
		used += m.segs[segno].valid_blocks != 0;
	}
	CHECK_EQ_U64(used, 2);
	CHECK(f2fs_test_bit(0, m.segs[fs->curseg_segno[CURSEG_HOT_NODE]].cur_valid_map));
	CHECK(f2fs_test_bit(0, m.segs[fs->curseg_segno[CURSEG_HOT_DATA]].cur_valid_map));
	CHECK_EQ_U64(m.total_valid_blocks, le64_to_cpu(fs->cp->valid_block_count));
	CHECK_EQ_U64(m.free_segs, m.main_segs - 2);
	CHECK_EQ_U64(m.free_segs, le32_to_cpu(fs->cp->free_segment_count) + NR_CURSEG_TYPE - 2);
	CHECK_EQ_U64(m.free_secs, m.main_secs - 2);
	CHECK_EQ_U64(m.n_dirty, 0);
	/* the used SIT blocks of one copy are contiguous: very few reads */
	CHECK(calls >= 1 && calls <= 1 + fs->sit_blk_cnt / 256);
	printf("%s: %u segs, %u SIT blocks read in %" PRIu64 " read calls\n",
	       path, m.main_segs, fs->sit_blk_cnt, calls);
	compare_with_reference(fs, &m);
	check_sections(&m);
	f2fs_sit_free(&m);
	f2fs_fs_close(fs);
}

static int write_block(const char *path, uint64_t blkaddr, const void *buf)
{
	int fd = open(path, O_WRONLY);
	ssize_t n = -1;

	if (fd >= 0) {
		n = pwrite(fd, buf, F2FS_BLKSIZE, (off_t)(blkaddr * F2FS_BLKSIZE));
		close(fd);
	}
	CHECK_EQ_U64(n, F2FS_BLKSIZE);
	return n == F2FS_BLKSIZE ? 0 : -1;
}

static void set_entry(struct f2fs_sit_entry *e, unsigned int count, unsigned int type,
		      unsigned int first_bit, unsigned int nbits)
{
	memset(e, 0, sizeof(*e));
	e->vblocks = cpu_to_le16((uint16_t)(count | (type << SIT_VBLOCKS_SHIFT)));
	for (unsigned int i = 0; i < nbits; i++)
		f2fs_set_bit(first_bit + i, e->valid_map);
}

/*
 * SIT block 2: copy 0 gets a good entry for segment 112 and an insane one
 * for 113 (count 9, 8 bits); copy 1 gets different content.  With the
 * version bit clear copy 0 is read; with it set (in memory), copy 1.  Then
 * the journal gets an entry with segno >= main_segs.
 */
static void test_copies_and_bad_entries(const char *path)
{
	struct f2fs_fs *fs;
	struct f2fs_sit_model m;
	struct f2fs_sit_block blk;
	uint32_t bad = 0, sit_blkaddr, sit_blocks;
	struct f2fs_journal *j;

	if (open_fs(path, false, &fs))
		return;
	sit_blkaddr = fs->sit_blkaddr;
	sit_blocks = fs->sit_blocks;
	CHECK(!f2fs_test_bit(2, fs->sit_bitmap));
	f2fs_fs_close(fs);

	memset(&blk, 0, sizeof(blk));
	set_entry(&blk.entries[112 - 110], 4, CURSEG_WARM_DATA, 100, 4);
	set_entry(&blk.entries[113 - 110], 9, CURSEG_COLD_NODE, 0, 8);
	if (write_block(path, sit_blkaddr + 2, &blk))
		return;
	memset(&blk, 0, sizeof(blk));
	set_entry(&blk.entries[112 - 110], 7, CURSEG_HOT_NODE, 300, 7);
	if (write_block(path, sit_blkaddr + sit_blocks + 2, &blk))
		return;

	if (open_fs(path, false, &fs))
		return;
	CHECK_EQ_U64(f2fs_sit_load(fs, &m, &bad), 0);
	CHECK_EQ_U64(bad, 1);
	CHECK_EQ_U64(m.segs[112].valid_blocks, 4);
	CHECK_EQ_U64(m.segs[112].type, CURSEG_WARM_DATA);
	CHECK(f2fs_test_bit(103, m.segs[112].cur_valid_map));
	CHECK_EQ_U64(m.segs[113].valid_blocks, 9);	/* loaded anyway */
	compare_with_reference(fs, &m);
	check_sections(&m);
	f2fs_sit_free(&m);

	f2fs_set_bit(2, fs->sit_bitmap);	/* copy 1 of block 2 is current */
	CHECK_EQ_U64(f2fs_sit_load(fs, &m, &bad), 0);
	CHECK_EQ_U64(bad, 0);
	CHECK_EQ_U64(m.segs[112].valid_blocks, 7);
	CHECK_EQ_U64(m.segs[112].type, CURSEG_HOT_NODE);
	CHECK(f2fs_test_bit(306, m.segs[112].cur_valid_map));
	CHECK_EQ_U64(m.segs[113].valid_blocks, 0);
	compare_with_reference(fs, &m);
	f2fs_sit_free(&m);

	/* a journal entry out of range is counted and ignored */
	j = f2fs_sit_journal(fs);
	for (uint32_t i = 0; i < SIT_JOURNAL_ENTRIES; i++) {
		uint32_t segno = le32_to_cpu(j->sit_j.entries[i].segno);

		if (GET_SIT_TYPE(&j->sit_j.entries[i].se) != 0 && segno < fs->main_segs &&
		    segno / SIT_ENTRY_PER_BLOCK != 2) {
			j->sit_j.entries[i].segno = cpu_to_le32(fs->main_segs);
			CHECK_EQ_U64(f2fs_sit_load(fs, &m, &bad), 0);
			CHECK_EQ_U64(bad, 1);
			CHECK_EQ_U64(m.segs[segno].type, 0);	/* SIT block, not journal */
			break;
		}
	}
	/* n_sits beyond capacity */
	j->n_sits = cpu_to_le16(SIT_JOURNAL_ENTRIES + 2);
	f2fs_sit_free(&m);
	CHECK_EQ_U64(f2fs_sit_load(fs, &m, &bad), 0);
	CHECK_EQ_U64(bad, 3);
	f2fs_sit_free(&m);

	/* hostile geometry is refused, not trusted */
	fs->sit_blk_cnt = fs->sit_blocks + 1;
	CHECK_EQ_U64(f2fs_sit_load(fs, &m, &bad), -EFSCORRUPTED);
	f2fs_fs_close(fs);
}

/* f2fs_sit_readahead(): which blocks are announced, in how many hints. */
static void test_readahead(const char *path)
{
	const unsigned int nodes = 1u << CURSEG_HOT_NODE | 1u << CURSEG_WARM_NODE |
				   1u << CURSEG_COLD_NODE;
	static const struct { uint32_t segno, type, blk; } valid[] = {
		{ 2, CURSEG_HOT_NODE, 0 }, { 2, CURSEG_HOT_NODE, 1 }, { 2, CURSEG_HOT_NODE, 2 },
		{ 2, CURSEG_HOT_NODE, 10 }, { 5, CURSEG_WARM_NODE, 0 }, { 5, CURSEG_WARM_NODE, 511 },
		{ 7, CURSEG_HOT_DATA, 3 },
	};
	struct f2fs_fs *fs;
	struct f2fs_sit_model m;
	uint64_t got = 99, calls;

	if (open_fs(path, false, &fs))
		return;
	CHECK_EQ_U64(f2fs_sit_init(&m, fs->main_segs, fs->segs_per_sec), 0);
	for (size_t i = 0; i < sizeof(valid) / sizeof(valid[0]); i++) {
		f2fs_sit_set_type(&m, valid[i].segno, valid[i].type);
		CHECK_EQ_U64(f2fs_sit_alloc_block(&m, valid[i].segno, valid[i].blk), 0);
	}
	/* gap 0: runs [2:0..2] [2:10] [5:0] [5:511] */
	calls = f2fs_dev_stats(fs->dev)->readahead_calls;
	CHECK_EQ_U64(f2fs_sit_readahead(fs, &m, nodes, 0, 0, 0, &got), 0);
	CHECK_EQ_U64(got, 6);
	CHECK_EQ_U64(f2fs_dev_stats(fs->dev)->readahead_calls - calls, 4);
	/* gap 7: [2:0..10] is one run (its gap blocks counted) */
	calls = f2fs_dev_stats(fs->dev)->readahead_calls;
	CHECK_EQ_U64(f2fs_sit_readahead(fs, &m, nodes, 0, 7, 0, &got), 0);
	CHECK_EQ_U64(got, 13);
	CHECK_EQ_U64(f2fs_dev_stats(fs->dev)->readahead_calls - calls, 3);
	/* descending: the same blocks */
	calls = f2fs_dev_stats(fs->dev)->readahead_calls;
	CHECK_EQ_U64(f2fs_sit_readahead(fs, &m, nodes, F2FS_SIT_RA_DESCENDING, 0, 0, &got), 0);
	CHECK_EQ_U64(got, 6);
	CHECK_EQ_U64(f2fs_dev_stats(fs->dev)->readahead_calls - calls, 4);
	/* types: only the hot data block */
	CHECK_EQ_U64(f2fs_sit_readahead(fs, &m, 1u << CURSEG_HOT_DATA, 0, 0, 0, &got), 0);
	CHECK_EQ_U64(got, 1);
	/* a budget stops at the next segment once reached */
	CHECK_EQ_U64(f2fs_sit_readahead(fs, &m, nodes, 0, 0, 3, &got), 0);
	CHECK_EQ_U64(got, 4);
	CHECK_EQ_U64(f2fs_sit_readahead(fs, NULL, nodes, 0, 0, 0, &got), (uint64_t)-EINVAL);
	/* by log: the same blocks, one hint per run (no run spans two logs) */
	calls = f2fs_dev_stats(fs->dev)->readahead_calls;
	CHECK_EQ_U64(f2fs_sit_readahead(fs, &m, nodes, F2FS_SIT_RA_BY_LOG, 0, 0, &got), 0);
	CHECK_EQ_U64(got, 6);
	CHECK_EQ_U64(f2fs_dev_stats(fs->dev)->readahead_calls - calls, 4);
	/* a warm node block just below the hot node segment: taken after it
	 * (the warm log is behind), in a hint of its own, not a backward run */
	f2fs_sit_set_type(&m, 1, CURSEG_WARM_NODE);
	CHECK_EQ_U64(f2fs_sit_alloc_block(&m, 1, 511), 0);
	calls = f2fs_dev_stats(fs->dev)->readahead_calls;
	CHECK_EQ_U64(f2fs_sit_readahead(fs, &m, nodes, F2FS_SIT_RA_BY_LOG, 1, 0, &got), 0);
	CHECK_EQ_U64(got, 7);
	CHECK_EQ_U64(f2fs_dev_stats(fs->dev)->readahead_calls - calls, 5);
	CHECK_EQ_U64(f2fs_sit_readahead(fs, &m, nodes, F2FS_SIT_RA_BY_LOG | F2FS_SIT_RA_DESCENDING,
					0, 0, &got), (uint64_t)-EINVAL);
	f2fs_sit_free(&m);
	f2fs_fs_close(fs);
}

/* f2fs_sit_logs: several logs merged by the share of each given so far. */
static void test_logs_order(void)
{
	/* hot node 0..3 (10 blocks each), warm node 10..13 (10 each), cold
	 * node 20 (40), hot data 30 (not asked for) */
	static const uint32_t want[] = { 0, 10, 20, 1, 11, 2, 12, 3, 13 };
	struct f2fs_sit_model m;
	struct f2fs_sit_logs it;
	const unsigned int nodes = 1u << CURSEG_HOT_NODE | 1u << CURSEG_WARM_NODE |
				   1u << CURSEG_COLD_NODE;

	CHECK_EQ_U64(f2fs_sit_init(&m, 32, 1), 0);
	for (uint32_t segno = 0; segno < 32; segno++) {
		unsigned int type = segno < 4 ? CURSEG_HOT_NODE : segno >= 10 && segno < 14 ?
				    CURSEG_WARM_NODE : segno == 20 ? CURSEG_COLD_NODE : CURSEG_HOT_DATA;
		uint32_t n = segno == 20 ? 40 : type != CURSEG_HOT_DATA || segno == 30 ? 10 : 0;

		f2fs_sit_set_type(&m, segno, type);
		for (uint32_t b = 0; b < n; b++)
			CHECK_EQ_U64(f2fs_sit_alloc_block(&m, segno, b), 0);
	}
	f2fs_sit_logs_init(&it, &m, nodes);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		CHECK_EQ_U64(f2fs_sit_logs_next(&it), want[i]);
	CHECK_EQ_U64(f2fs_sit_logs_next(&it), 32);
	CHECK_EQ_U64(f2fs_sit_logs_next(&it), 32);
	/* one log alone: address order */
	f2fs_sit_logs_init(&it, &m, 1u << CURSEG_HOT_DATA);
	CHECK_EQ_U64(f2fs_sit_logs_next(&it), 30);
	CHECK_EQ_U64(f2fs_sit_logs_next(&it), 32);
	/* nothing asked for */
	f2fs_sit_logs_init(&it, &m, 0);
	CHECK_EQ_U64(f2fs_sit_logs_next(&it), 32);
	f2fs_sit_free(&m);
}

static void remove_dir(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "warning: could not remove %s\n", dir);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	char dir[256], path[512];

	snprintf(dir, sizeof(dir), "%s/f2fs-test-sit-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		CHECK(!"mkdtemp");
		return unit_finish("test_sit_load");
	}
	test_logs_order();
	if (!make_image(dir, "1g.img", "1G", "", path, sizeof(path))) {
		test_fresh(path, 1);
		test_readahead(path);
		test_copies_and_bad_entries(path);
	} else {
		CHECK(!"mkfs.f2fs 1G");
	}
	if (!make_image(dir, "s4.img", "2G", "-s 4", path, sizeof(path)))
		test_fresh(path, 4);
	else
		CHECK(!"mkfs.f2fs -s 4");
	if (!make_image(dir, "16g.img", "16G", "", path, sizeof(path)))
		test_fresh(path, 1);
	else
		CHECK(!"mkfs.f2fs 16G");
	remove_dir(dir);
	return unit_finish("test_sit_load");
}
