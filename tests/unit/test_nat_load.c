/*
 * test_nat_load.c - the NAT model's loader and flusher on images made by
 * f2fs-tools' mkfs.f2fs: a fresh image shows nids 1 and 2 (block_addr 1)
 * and the root from the journal; every nid equals a block-by-block
 * reference read; loading takes far fewer read calls than blocks and
 * leaves the pages of empty NAT blocks untouched; nat_bits match what mkfs
 * wrote; partial loads; a flush writes only the inactive copies (the
 * current ones stay byte-identical), flips the right bits, and a reload
 * with the flipped bitmap reads back the new entries, also after moving
 * the journal into the blocks.  A write-back (f2fs_nat_writeback) writes
 * the dirty blocks to the inactive copies, drops the blocks below the
 * kept nid from memory (their pages given back, nat_bits unchanged), and a
 * reload reads them back from the copy written; a block written back,
 * dirtied again and flushed goes to the same copy with its bit flipped
 * once.  The parallel loader (f2fs_nat_load_all_mt, with one and with
 * three workers, after a partial load, with the NAT dropped from the page
 * cache) leaves the model the single-threaded one leaves.  mkfs.f2fs
 * missing is a failure.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "f2fs_err.h"
#include "f2fs_mount.h"
#include "f2fs_nat.h"
#include "f2fs_workers.h"
#include "unit.h"

static int make_image(const char *dir, const char *name, const char *size,
		      char *path, size_t path_len)
{
	char cmd[1024];
	int rc;

	snprintf(path, path_len, "%s/%s", dir, name);
	snprintf(cmd, sizeof(cmd),
		 "truncate -s %s '%s' && PATH=\"$PATH:/usr/sbin:/sbin\" "
		 "mkfs.f2fs -f -q '%s' > '%s.log' 2>&1", size, path, path, path);
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

static bool same(const struct f2fs_nat_entry *a, const struct f2fs_nat_entry *b)
{
	return !memcmp(a, b, sizeof(*a));
}

static struct f2fs_nat_entry mk(uint8_t version, uint32_t ino, uint32_t addr)
{
	struct f2fs_nat_entry e = { version, cpu_to_le32(ino), cpu_to_le32(addr) };

	return e;
}

/* The kernel's lookup, the slow way: first journal match, else the block
 * from the copy the version bitmap names, read on its own. */
static void compare_with_reference(struct f2fs_fs *fs, const struct f2fs_nat_model *nm)
{
	const struct f2fs_journal *j = f2fs_nat_journal(fs);
	uint32_t n_journal = le16_to_cpu(j->n_nats), bad = 0, valid = 0;
	struct f2fs_nat_block blk;

	for (uint32_t b = 0; b < nm->nat_blocks; b++) {
		CHECK_EQ_U64(f2fs_dev_read(fs->dev, f2fs_current_nat_addr(fs, b), 1, &blk), 0);
		for (uint32_t i = 0; i < NAT_ENTRY_PER_BLOCK; i++) {
			uint32_t nid = b * NAT_ENTRY_PER_BLOCK + i;
			struct f2fs_nat_entry want = blk.entries[i], got;

			for (uint32_t k = 0; k < n_journal && k < NAT_JOURNAL_ENTRIES; k++) {
				if (le32_to_cpu(j->nat_j.entries[k].nid) == nid) {
					want = j->nat_j.entries[k].ne;
					break;
				}
			}
			if (f2fs_nat_get(nm, nid, &got) || !same(&got, &want))
				bad++;
			valid += nid >= 3 && want.block_addr != 0;
		}
	}
	CHECK_EQ_U64(bad, 0);
	CHECK_EQ_U64(nm->valid_nodes, valid);
}

/* Pages of ent[] that are resident (only pages written should be). */
static size_t resident_pages(const void *p, size_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)p & ~(uintptr_t)(page - 1);
	size_t pages = ((uintptr_t)p + len - start + (size_t)page - 1) / (size_t)page;
	unsigned char *vec = malloc(pages);
	size_t n = 0;

	if (!vec || mincore((void *)start, pages * (size_t)page, vec)) {
		free(vec);
		return (size_t)-1;
	}
	for (size_t i = 0; i < pages; i++)
		n += vec[i] & 1;
	free(vec);
	return n;
}

static void check_nat_bits(struct f2fs_fs *fs, const struct f2fs_nat_model *nm)
{
	uint32_t bytes = fs->nat_blocks / 8;
	uint32_t nblocks = (2 * bytes + 8 + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE;
	uint8_t *disk = calloc(nblocks, F2FS_BLKSIZE);
	uint8_t *full = calloc(bytes, 1), *empty = calloc(bytes, 1);

	CHECK(fs->cp_flags & CP_NAT_BITS_FLAG);
	CHECK_EQ_U64(f2fs_dev_read(fs->dev, fs->cp_start_blkaddr + BLKS_PER_SEG - nblocks,
				   nblocks, disk), 0);
	f2fs_nat_compute_bits(nm, full, empty);
	CHECK(!memcmp(full, disk + 8, bytes));
	CHECK(!memcmp(empty, disk + 8 + bytes, bytes));
	CHECK_EQ_U64(empty[0], 0xfe);	/* block 0 is never empty */
	free(disk);
	free(full);
	free(empty);
}

static void test_fresh_load(const char *path)
{
	struct f2fs_fs *fs;
	struct f2fs_nat_model nm;
	struct f2fs_nat_entry e;
	uint64_t calls;
	uint32_t root_addr, loaded = 0, bad_addr = 0;
	size_t resident;

	if (open_fs(path, false, &fs))
		return;
	CHECK_EQ_U64(f2fs_nat_init(&nm, fs->max_nid, fs->nat_bitmap), 0);
	CHECK_EQ_U64(nm.nat_blocks, fs->nat_blocks);
	calls = f2fs_dev_stats(fs->dev)->read_calls;
	CHECK_EQ_U64(f2fs_nat_load_all(fs, &nm), 0);
	calls = f2fs_dev_stats(fs->dev)->read_calls - calls;
	for (uint32_t b = 0; b < nm.nat_blocks; b++) {
		loaded += test_bit_le(b, nm.block_loaded);
		bad_addr += f2fs_nat_block_addr(fs, &nm, b) != f2fs_current_nat_addr(fs, b);
	}
	CHECK_EQ_U64(loaded, nm.nat_blocks);
	CHECK_EQ_U64(bad_addr, 0);
	CHECK(calls * 64 <= nm.nat_blocks);
	resident = resident_pages(nm.ent, (size_t)nm.max_nid * sizeof(*nm.ent));
	CHECK(resident <= 4);
	printf("%s: %u NAT blocks loaded in %" PRIu64 " read calls, "
	       "%zu resident pages of %zu KiB entries\n", path, nm.nat_blocks, calls,
	       resident, (size_t)nm.max_nid * sizeof(*nm.ent) / 1024);

	CHECK_EQ_U64(f2fs_nat_get(&nm, 1, &e), 0);
	CHECK(same(&e, &(struct f2fs_nat_entry){ 0, cpu_to_le32(1), cpu_to_le32(1) }));
	CHECK_EQ_U64(f2fs_nat_get(&nm, 2, &e), 0);
	CHECK(same(&e, &(struct f2fs_nat_entry){ 0, cpu_to_le32(2), cpu_to_le32(1) }));
	root_addr = fs->main_blkaddr + fs->curseg_segno[CURSEG_HOT_NODE] * BLKS_PER_SEG;
	CHECK(f2fs_nat_in_journal(&nm, 3));
	CHECK(!f2fs_nat_in_journal(&nm, 1));
	CHECK_EQ_U64(f2fs_nat_get(&nm, 3, &e), 0);
	CHECK_EQ_U64(le32_to_cpu(e.ino), 3);
	CHECK_EQ_U64(le32_to_cpu(e.block_addr), root_addr);
	CHECK_EQ_U64(nm.n_journal, le16_to_cpu(f2fs_nat_journal(fs)->n_nats));
	CHECK_EQ_U64(le32_to_cpu(nm.journal_shadowed[0].block_addr), root_addr);
	CHECK_EQ_U64(nm.journal_bad, 0);
	CHECK_EQ_U64(nm.valid_nodes, le32_to_cpu(fs->cp->valid_node_count));
	CHECK_EQ_U64(nm.block_used[0], 4);	/* nids 0..3 */
	CHECK_EQ_U64(f2fs_nat_get(&nm, 4, &e), 0);
	CHECK_EQ_U64(e.block_addr, 0);
	compare_with_reference(fs, &nm);
	check_nat_bits(fs, &nm);
	f2fs_nat_free(&nm);
	f2fs_fs_close(fs);
}

static void test_load_blocks(const char *path)
{
	struct f2fs_fs *fs;
	struct f2fs_nat_model nm;
	struct f2fs_nat_entry e;
	uint32_t want[] = { 700, 3, 700, 0 }, bogus = 1u << 30, loaded = 0;

	if (open_fs(path, false, &fs))
		return;
	CHECK_EQ_U64(f2fs_nat_init(&nm, fs->max_nid, fs->nat_bitmap), 0);
	CHECK_EQ_U64(f2fs_nat_load_blocks(fs, &nm, &bogus, 1), -EINVAL);
	CHECK_EQ_U64(f2fs_nat_load_blocks(fs, &nm, want, 4), 0);
	for (uint32_t b = 0; b < nm.nat_blocks; b++)
		loaded += test_bit_le(b, nm.block_loaded);
	CHECK_EQ_U64(loaded, 3);
	CHECK(test_bit_le(700, nm.block_loaded) && test_bit_le(3, nm.block_loaded));
	CHECK_EQ_U64(f2fs_nat_get(&nm, 1, &e), 0);
	CHECK_EQ_U64(le32_to_cpu(e.block_addr), 1);
	CHECK_EQ_U64(f2fs_nat_get(&nm, 5 * NAT_ENTRY_PER_BLOCK, &e), -ENODATA);
	CHECK_EQ_U64(f2fs_nat_get(&nm, 700 * NAT_ENTRY_PER_BLOCK + 1, &e), 0);
	CHECK(nm.journal_loaded);
	/* loading again reads nothing */
	{
		uint64_t calls = f2fs_dev_stats(fs->dev)->read_calls;

		CHECK_EQ_U64(f2fs_nat_load_blocks(fs, &nm, want, 4), 0);
		CHECK_EQ_U64(f2fs_dev_stats(fs->dev)->read_calls, calls);
	}
	f2fs_nat_free(&nm);
	f2fs_fs_close(fs);
}

static int read_raw(const char *path, uint64_t blkaddr, void *buf)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = -1;

	if (fd >= 0) {
		n = pread(fd, buf, F2FS_BLKSIZE, (off_t)(blkaddr * F2FS_BLKSIZE));
		close(fd);
	}
	return n == F2FS_BLKSIZE ? 0 : -1;
}

/* Both copies of every NAT block, straight from the file. */
static uint8_t *snapshot_nat(const char *path, const struct f2fs_fs *fs)
{
	uint8_t *buf = malloc((size_t)fs->nat_blocks * 2 * F2FS_BLKSIZE);

	for (uint32_t b = 0; buf && b < fs->nat_blocks; b++) {
		uint32_t a = f2fs_current_nat_addr(fs, b), o = f2fs_next_nat_addr(fs, b);

		if (read_raw(path, a, buf + (size_t)(2 * b) * F2FS_BLKSIZE) ||
		    read_raw(path, o, buf + (size_t)(2 * b + 1) * F2FS_BLKSIZE)) {
			free(buf);
			return NULL;
		}
	}
	return buf;
}

static void reload_and_compare(struct f2fs_fs *fs, const struct f2fs_nat_model *old,
			       bool empty_journal)
{
	struct f2fs_nat_model nm;
	struct f2fs_journal j;
	uint32_t bad = 0;

	CHECK_EQ_U64(f2fs_nat_init(&nm, fs->max_nid, old->cur_bitmap), 0);
	f2fs_nat_journal_to_raw(old, &j);
	CHECK_EQ_U64(empty_journal, j.n_nats == 0);
	CHECK_EQ_U64(f2fs_nat_load_journal(&nm, &j), 0);
	CHECK_EQ_U64(f2fs_nat_load_all(fs, &nm), 0);
	for (uint32_t nid = 0; nid < nm.max_nid; nid++) {
		struct f2fs_nat_entry a, b;

		if (f2fs_nat_get(&nm, nid, &a) || f2fs_nat_get(old, nid, &b) || !same(&a, &b))
			bad++;
	}
	CHECK_EQ_U64(bad, 0);
	CHECK_EQ_U64(nm.valid_nodes, old->valid_nodes);
	for (uint32_t b = 0; b < nm.nat_blocks; b++)
		bad += nm.block_used[b] != old->block_used[b];
	CHECK_EQ_U64(bad, 0);
	f2fs_nat_free(&nm);
}

static void test_flush(const char *path)
{
	struct f2fs_fs *fs;
	struct f2fs_nat_model nm, nm2;
	struct f2fs_nat_entry e;
	struct f2fs_nat_block blk;
	uint8_t *before, *after;
	uint32_t nid_a = 5, nid_b = 513 * NAT_ENTRY_PER_BLOCK + 7,
		 nid_c = 700 * NAT_ENTRY_PER_BLOCK + 454, root_addr;
	uint32_t changed = 0, wrong_bits = 0;
	struct f2fs_dev_stats st;

	if (open_fs(path, true, &fs))
		return;
	before = snapshot_nat(path, fs);
	CHECK(before != NULL);
	CHECK_EQ_U64(f2fs_nat_init(&nm, fs->max_nid, fs->nat_bitmap), 0);
	CHECK_EQ_U64(f2fs_nat_load_all(fs, &nm), 0);
	CHECK_EQ_U64(f2fs_nat_get(&nm, 3, &e), 0);
	root_addr = le32_to_cpu(e.block_addr);

	e = mk(0, nid_a, fs->main_blkaddr + 1);
	CHECK_EQ_U64(f2fs_nat_set(&nm, nid_a, &e), 0);
	e = mk(3, nid_b, fs->main_blkaddr + 2);
	CHECK_EQ_U64(f2fs_nat_set(&nm, nid_b, &e), 0);
	e = mk(1, 77, fs->main_blkaddr + 3);
	CHECK_EQ_U64(f2fs_nat_set(&nm, nid_c, &e), 0);
	e = mk(1, 3, fs->main_blkaddr + 9);		/* root: into the journal */
	CHECK_EQ_U64(f2fs_nat_set(&nm, 3, &e), 0);
	CHECK(nm.journal_dirty);
	CHECK_EQ_U64(nm.valid_nodes, 4);

	st = (*f2fs_dev_stats(fs->dev));
	CHECK_EQ_U64(f2fs_nat_flush(fs, &nm, false), 0);
	CHECK(f2fs_dev_stats(fs->dev)->read_calls - st.read_calls <= 3);
	CHECK_EQ_U64(f2fs_dev_stats(fs->dev)->write_calls - st.write_calls, 3);
	CHECK_EQ_U64(f2fs_dev_stats(fs->dev)->write_blocks - st.write_blocks, 3);
	for (uint32_t b = 0; b < nm.nat_blocks; b++) {
		bool flipped = f2fs_test_bit(b, nm.cur_bitmap) != f2fs_test_bit(b, fs->nat_bitmap);
		bool want = b == 0 || b == 513 || b == 700;

		wrong_bits += flipped != want;
		CHECK(!test_bit_le(b, nm.block_dirty));
	}
	CHECK_EQ_U64(wrong_bits, 0);

	/* current copies untouched; inactive copies changed only where dirty */
	after = snapshot_nat(path, fs);
	CHECK(after != NULL);
	if (before && after) {
		for (uint32_t b = 0; b < fs->nat_blocks; b++) {
			CHECK(!memcmp(before + (size_t)(2 * b) * F2FS_BLKSIZE,
				      after + (size_t)(2 * b) * F2FS_BLKSIZE, F2FS_BLKSIZE));
			changed += memcmp(before + (size_t)(2 * b + 1) * F2FS_BLKSIZE,
					  after + (size_t)(2 * b + 1) * F2FS_BLKSIZE,
					  F2FS_BLKSIZE) != 0;
		}
		CHECK_EQ_U64(changed, 3);
	}
	/* block 0 as written: new nid 5, nids 1/2 kept, root keeps its block
	 * value (the journal holds the new one) */
	CHECK_EQ_U64(read_raw(path, f2fs_next_nat_addr(fs, 0), &blk), 0);
	CHECK_EQ_U64(le32_to_cpu(blk.entries[nid_a].block_addr), fs->main_blkaddr + 1);
	CHECK_EQ_U64(le32_to_cpu(blk.entries[1].block_addr), 1);
	CHECK_EQ_U64(le32_to_cpu(blk.entries[3].block_addr), root_addr);
	CHECK_EQ_U64(read_raw(path, f2fs_next_nat_addr(fs, 700), &blk), 0);
	CHECK_EQ_U64(le32_to_cpu(blk.entries[454].ino), 77);

	reload_and_compare(fs, &nm, false);

	/* After that flush is "committed": move the journal into the blocks. */
	CHECK_EQ_U64(f2fs_nat_init(&nm2, fs->max_nid, nm.cur_bitmap), 0);
	{
		struct f2fs_journal j;

		f2fs_nat_journal_to_raw(&nm, &j);
		CHECK_EQ_U64(f2fs_nat_load_journal(&nm2, &j), 0);
	}
	CHECK_EQ_U64(f2fs_nat_load_all(fs, &nm2), 0);
	CHECK_EQ_U64(f2fs_nat_flush(fs, &nm2, true), 0);
	CHECK_EQ_U64(nm2.n_journal, 0);
	CHECK(nm2.journal_dirty);
	CHECK(!f2fs_nat_in_journal(&nm2, 3));
	CHECK_EQ_U64(f2fs_nat_get(&nm2, 3, &e), 0);
	CHECK_EQ_U64(le32_to_cpu(e.block_addr), fs->main_blkaddr + 9);
	CHECK(f2fs_test_bit(0, nm2.cur_bitmap) == f2fs_test_bit(0, fs->nat_bitmap));
	reload_and_compare(fs, &nm2, true);

	/* nothing dirty: nothing read or written */
	st = (*f2fs_dev_stats(fs->dev));
	CHECK_EQ_U64(f2fs_nat_flush(fs, &nm2, true), 0);
	CHECK_EQ_U64(f2fs_dev_stats(fs->dev)->read_calls, st.read_calls);
	CHECK_EQ_U64(f2fs_dev_stats(fs->dev)->write_calls, st.write_calls);
	f2fs_nat_free(&nm2);
	f2fs_nat_free(&nm);
	free(before);
	free(after);
	f2fs_fs_close(fs);
}

static bool bit_flipped(const struct f2fs_fs *fs, const struct f2fs_nat_model *nm, uint32_t b)
{
	return f2fs_test_bit(b, nm->cur_bitmap) != f2fs_test_bit(b, fs->nat_bitmap);
}

static void test_writeback(const char *path)
{
	struct f2fs_fs *fs;
	struct f2fs_nat_model nm;
	struct f2fs_nat_entry e;
	struct f2fs_nat_block blk;
	uint8_t *before, *after, *full, *empty, *full2, *empty2;
	uint32_t nid_a = 5, nid_a2 = 6, nid_b = 600 * NAT_ENTRY_PER_BLOCK + 3,
		 nid_c = 601 * NAT_ENTRY_PER_BLOCK + 1, valid, wrong_bits = 0;
	size_t resident;

	if (open_fs(path, true, &fs))
		return;
	before = snapshot_nat(path, fs);
	full = calloc(fs->nat_blocks / 8 + 1, 1);
	empty = calloc(fs->nat_blocks / 8 + 1, 1);
	full2 = calloc(fs->nat_blocks / 8 + 1, 1);
	empty2 = calloc(fs->nat_blocks / 8 + 1, 1);
	CHECK(before && full && empty && full2 && empty2);
	CHECK_EQ_U64(f2fs_nat_init(&nm, fs->max_nid, fs->nat_bitmap), 0);
	CHECK_EQ_U64(f2fs_nat_load_all(fs, &nm), 0);
	e = mk(0, nid_a, fs->main_blkaddr + 1);
	CHECK_EQ_U64(f2fs_nat_set(&nm, nid_a, &e), 0);
	/* blocks 600 and 601 filled so that their pages are resident */
	for (uint32_t i = 0; i < 2 * NAT_ENTRY_PER_BLOCK; i++) {
		e = mk(0, 600 * NAT_ENTRY_PER_BLOCK + i, fs->main_blkaddr + 100 + i);
		CHECK_EQ_U64(f2fs_nat_set(&nm, 600 * NAT_ENTRY_PER_BLOCK + i, &e), 0);
	}
	valid = nm.valid_nodes;
	f2fs_nat_compute_bits(&nm, full, empty);
	CHECK(resident_pages(&nm.ent[600 * NAT_ENTRY_PER_BLOCK], 2 * NAT_ENTRY_PER_BLOCK *
			     sizeof(struct f2fs_nat_entry)) >= 2);

	CHECK_EQ_U64(f2fs_nat_writeback(fs, &nm, nid_c), 0);
	for (uint32_t b = 0; b < nm.nat_blocks; b++) {
		wrong_bits += bit_flipped(fs, &nm, b) != (b == 0 || b == 600 || b == 601);
		CHECK(!test_bit_le(b, nm.block_dirty));
	}
	CHECK_EQ_U64(wrong_bits, 0);
	/* below the kept nid: gone from memory; the kept nid's block stays */
	CHECK_EQ_U64(f2fs_nat_get(&nm, nid_a, &e), -ENODATA);
	CHECK_EQ_U64(f2fs_nat_get(&nm, nid_b, &e), -ENODATA);
	CHECK_EQ_U64(f2fs_nat_get(&nm, nid_c, &e), 0);
	CHECK_EQ_U64(le32_to_cpu(e.block_addr), fs->main_blkaddr + 100 + NAT_ENTRY_PER_BLOCK + 1);
	CHECK_EQ_U64(f2fs_nat_get(&nm, 3, &e), 0);	/* the root: in the journal */
	resident = resident_pages(&nm.ent[600 * NAT_ENTRY_PER_BLOCK],
				  NAT_ENTRY_PER_BLOCK * sizeof(struct f2fs_nat_entry) - 8);
	CHECK(resident <= 1);
	CHECK(nm.valid_nodes < valid);
	f2fs_nat_compute_bits(&nm, full2, empty2);
	CHECK(!memcmp(full, full2, fs->nat_blocks / 8));
	CHECK(!memcmp(empty, empty2, fs->nat_blocks / 8));
	/* the committed copies are untouched */
	after = snapshot_nat(path, fs);
	CHECK(after != NULL);
	if (before && after)
		for (uint32_t b = 0; b < fs->nat_blocks; b++)
			CHECK(!memcmp(before + (size_t)(2 * b) * F2FS_BLKSIZE,
				      after + (size_t)(2 * b) * F2FS_BLKSIZE, F2FS_BLKSIZE));

	/* reloads come from the copy just written */
	CHECK_EQ_U64(f2fs_nat_reload(fs, &nm, nid_a), 0);
	CHECK_EQ_U64(f2fs_nat_reload(fs, &nm, nid_b), 0);
	CHECK_EQ_U64(f2fs_nat_get(&nm, nid_a, &e), 0);
	CHECK_EQ_U64(le32_to_cpu(e.block_addr), fs->main_blkaddr + 1);
	CHECK_EQ_U64(f2fs_nat_get(&nm, nid_b, &e), 0);
	CHECK_EQ_U64(le32_to_cpu(e.block_addr), fs->main_blkaddr + 103);
	CHECK_EQ_U64(nm.valid_nodes, valid);

	/* dirtied again: the flush writes the same copy and flips nothing more */
	e = mk(0, nid_a2, fs->main_blkaddr + 2);
	CHECK_EQ_U64(f2fs_nat_set(&nm, nid_a2, &e), 0);
	CHECK_EQ_U64(f2fs_nat_flush(fs, &nm, false), 0);
	CHECK(bit_flipped(fs, &nm, 0));
	CHECK_EQ_U64(read_raw(path, f2fs_next_nat_addr(fs, 0), &blk), 0);
	CHECK_EQ_U64(le32_to_cpu(blk.entries[nid_a].block_addr), fs->main_blkaddr + 1);
	CHECK_EQ_U64(le32_to_cpu(blk.entries[nid_a2].block_addr), fs->main_blkaddr + 2);
	CHECK_EQ_U64(read_raw(path, f2fs_next_nat_addr(fs, 600), &blk), 0);
	CHECK_EQ_U64(le32_to_cpu(blk.entries[3].block_addr), fs->main_blkaddr + 103);
	for (uint32_t b = 0; b < nm.nat_blocks; b++)
		CHECK(!test_bit_le(b, nm.block_moved));
	f2fs_nat_free(&nm);
	free(before);
	free(after);
	free(full);
	free(empty);
	free(full2);
	free(empty2);
	f2fs_fs_close(fs);
}

/* A read-only volume: the flush fails and flips nothing. */
static void test_flush_read_only(const char *path)
{
	struct f2fs_fs *fs;
	struct f2fs_nat_model nm;
	struct f2fs_nat_entry e = mk(0, 9, 12345);

	if (open_fs(path, false, &fs))
		return;
	CHECK_EQ_U64(f2fs_nat_init(&nm, fs->max_nid, fs->nat_bitmap), 0);
	CHECK_EQ_U64(f2fs_nat_load_all(fs, &nm), 0);
	CHECK_EQ_U64(f2fs_nat_set(&nm, 9, &e), 0);
	CHECK(f2fs_nat_flush(fs, &nm, false) < 0);
	CHECK_EQ_U64(f2fs_test_bit(0, nm.cur_bitmap), f2fs_test_bit(0, fs->nat_bitmap));
	CHECK(test_bit_le(0, nm.block_dirty));
	f2fs_nat_free(&nm);
	f2fs_fs_close(fs);
}

/* Two models hold the same: entries, counts, loaded blocks, shadows. */
static void compare_models(const struct f2fs_nat_model *a, const struct f2fs_nat_model *b)
{
	CHECK_EQ_U64(a->nat_blocks, b->nat_blocks);
	CHECK(!memcmp(a->ent, b->ent, (size_t)a->max_nid * sizeof(*a->ent)));
	CHECK(!memcmp(a->block_used, b->block_used, a->nat_blocks * sizeof(*a->block_used)));
	CHECK(!memcmp(a->block_loaded, b->block_loaded, a->bitmap_bytes));
	CHECK(!memcmp(a->block_released, b->block_released, a->bitmap_bytes));
	CHECK(!memcmp(a->journal_shadowed, b->journal_shadowed,
		      NAT_JOURNAL_ENTRIES * sizeof(*a->journal_shadowed)));
	CHECK_EQ_U64(a->valid_nodes, b->valid_nodes);
	CHECK_EQ_U64(a->journal_bad, b->journal_bad);
}

/* Load with workers (0: the single-threaded loader), after loading
 * `pre` blocks first when pre_n. */
static void load_with(struct f2fs_fs *fs, const uint8_t *bitmap, unsigned int workers,
		      const uint32_t *pre, uint32_t pre_n, struct f2fs_nat_model *nm)
{
	struct f2fs_workers *pool = NULL;
	int err = 0;

	CHECK_EQ_U64(f2fs_nat_init(nm, fs->max_nid, bitmap), 0);
	if (pre_n)
		CHECK_EQ_U64(f2fs_nat_load_blocks(fs, nm, pre, pre_n), 0);
	if (workers) {
		pool = f2fs_workers_start(workers, &err);
		CHECK(pool != NULL);
	}
	CHECK_EQ_U64(f2fs_nat_load_all_mt(fs, nm, pool), 0);
	f2fs_workers_stop(pool);
}

/* Entries spread over many blocks (and the root in the journal), flushed
 * to the inactive copies: every loader must read them back alike. */
static void test_mt_load(const char *path)
{
	static const uint32_t pre[] = { 1, 2, 130, 700 };
	struct f2fs_fs *fs;
	struct f2fs_nat_model nm, ref, got;
	struct f2fs_nat_entry e;
	unsigned int workers[] = { 1, 3 };

	if (open_fs(path, true, &fs))
		return;
	CHECK_EQ_U64(f2fs_nat_init(&nm, fs->max_nid, fs->nat_bitmap), 0);
	CHECK_EQ_U64(f2fs_nat_load_all(fs, &nm), 0);
	for (uint32_t k = 0; k < 2000; k++) {
		uint32_t nid = 3 + k * 97;

		if (nid >= fs->max_nid)
			break;
		e = mk((uint8_t)(k & 7), k % 3 ? nid : 3, fs->main_blkaddr + k);
		CHECK_EQ_U64(f2fs_nat_set(&nm, nid, &e), 0);
	}
	CHECK_EQ_U64(f2fs_nat_flush(fs, &nm, true), 0);
	load_with(fs, nm.cur_bitmap, 0, NULL, 0, &ref);
	CHECK(ref.valid_nodes > 100);
	for (unsigned int w = 0; w < 2; w++) {
		load_with(fs, nm.cur_bitmap, workers[w], NULL, 0, &got);
		compare_models(&ref, &got);
		f2fs_nat_free(&got);
		load_with(fs, nm.cur_bitmap, workers[w], pre, 4, &got);
		compare_models(&ref, &got);
		f2fs_nat_free(&got);
	}
	/* what the page cache lacks is read the usual way */
	(void)f2fs_dev_forget_cached(fs->dev, fs->nat_blkaddr, 2u * ref.nat_blocks + BLKS_PER_SEG);
	load_with(fs, nm.cur_bitmap, 1, NULL, 0, &got);
	compare_models(&ref, &got);
	f2fs_nat_free(&got);
	f2fs_nat_free(&ref);
	f2fs_nat_free(&nm);
	f2fs_fs_close(fs);
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

	snprintf(dir, sizeof(dir), "%s/f2fs-test-nat-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		CHECK(!"mkdtemp");
		return unit_finish("test_nat_load");
	}
	if (!make_image(dir, "1g.img", "1G", path, sizeof(path))) {
		test_fresh_load(path);
		test_load_blocks(path);
		test_flush_read_only(path);
		test_flush(path);
	} else {
		CHECK(!"mkfs.f2fs 1G");
	}
	if (!make_image(dir, "wb.img", "1G", path, sizeof(path)))
		test_writeback(path);
	else
		CHECK(!"mkfs.f2fs 1G for the write-back");
	if (!make_image(dir, "16g.img", "16G", path, sizeof(path))) {
		test_fresh_load(path);
		test_mt_load(path);
	} else
		CHECK(!"mkfs.f2fs 16G");
	remove_dir(dir);
	return unit_finish("test_nat_load");
}
