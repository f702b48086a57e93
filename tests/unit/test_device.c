/*
 * test_device.c - the device layer on temporary regular files: block and
 * byte round trips, reads past the end, batched reads (sorting, merging
 * adjacent runs into one preadv, IOV_MAX splitting, readahead hints),
 * read-only, dry-run, the write-limit hook, flush counting, discard,
 * zero-out, open errors, check_mounted on an unmounted file, deferred
 * readahead hints issued ahead of the reads, multi-device routing, the
 * cached reads
 * of worker threads (f2fs_dev_read_cached_mt) and a refusal of RWF_NOWAIT,
 * remembered by the device.
 *
 * The file's contents are always checked with plain pread(), not through
 * the layer under test.  preadv2() is wrapped at link time (io.mk:
 * -Wl,--wrap=preadv2) so that a test can make the kernel refuse
 * RWF_NOWAIT or miss the page cache.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "f2fs_dev.h"
#include "f2fs_err.h"
#include "f2fs_fs.h"
#include "unit.h"
/* The layer's private state (the mapping, the hint queue, the write
 * limit), which only this test looks at. */
#include "../../lib/device_own.h"
#include "../../lib/uring.h"

#define NBLOCKS		64

static char dir[256];

/* The preadv2() wrapper: RWF_NOWAIT reads counted, and failed with
 * nowait_errno when it is set. */
static int nowait_errno;
static uint64_t nowait_calls;

ssize_t __real_preadv2(int fd, const struct iovec *iov, int cnt, off_t off, int flags);
ssize_t __wrap_preadv2(int fd, const struct iovec *iov, int cnt, off_t off, int flags);

ssize_t __wrap_preadv2(int fd, const struct iovec *iov, int cnt, off_t off, int flags)
{
	if (flags & RWF_NOWAIT) {
		nowait_calls++;
		if (nowait_errno) {
			errno = nowait_errno;
			return -1;
		}
	}
	return __real_preadv2(fd, iov, cnt, off, flags);
}

/* The byte at offset i of the original pattern. */
static uint8_t pattern_byte(uint64_t i)
{
	return (uint8_t)((i >> 12) * 7 + (i & 0xFFF) * 13 + 1);
}

static void fill_pattern(uint8_t *buf, uint64_t off, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = pattern_byte(off + i);
}

static bool block_has_pattern(const uint8_t *buf, uint64_t blkaddr)
{
	for (size_t i = 0; i < F2FS_BLKSIZE; i++)
		if (buf[i] != pattern_byte(blkaddr * F2FS_BLKSIZE + i))
			return false;
	return true;
}

static bool all_bytes(const uint8_t *buf, size_t len, uint8_t v)
{
	for (size_t i = 0; i < len; i++)
		if (buf[i] != v)
			return false;
	return true;
}

/* A fresh file of `bytes` holding the pattern; returns its path. */
static const char *make_file(const char *name, uint64_t bytes)
{
	static char path[512];
	uint8_t *buf = malloc(bytes);
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	fill_pattern(buf, 0, bytes);
	CHECK(fd >= 0 && write(fd, buf, bytes) == (ssize_t)bytes);
	if (fd >= 0)
		close(fd);
	free(buf);
	return path;
}

/* Read a block of the file directly, bypassing the layer. */
static void raw_block(const char *path, uint64_t blkaddr, uint8_t *buf)
{
	int fd = open(path, O_RDONLY);

	CHECK(fd >= 0 && pread(fd, buf, F2FS_BLKSIZE, (off_t)(blkaddr * F2FS_BLKSIZE)) ==
	      F2FS_BLKSIZE);
	if (fd >= 0)
		close(fd);
}

static struct f2fs_dev *open_dev(const char *path, bool read_only, bool dry_run)
{
	struct f2fs_dev_opts opts = { .read_only = read_only, .dry_run = dry_run };
	struct f2fs_dev *dev = NULL;

	CHECK_EQ_U64(f2fs_dev_open(path, &opts, &dev), 0);
	if (!dev) {
		fprintf(stderr, "cannot open %s, stopping\n", path);
		exit(1);
	}
	return dev;
}

static void test_open(void)
{
	const char *path = make_file("open.img", NBLOCKS * F2FS_BLKSIZE + 100);
	struct f2fs_dev *dev = NULL;

	CHECK_EQ_U64(f2fs_dev_open(path, NULL, &dev), 0);
	CHECK(dev != NULL);
	if (dev) {
		CHECK(f2fs_dev_is_regular(dev) && !f2fs_dev_is_blkdev(dev));
		CHECK_EQ_U64(f2fs_dev_size(dev), NBLOCKS * F2FS_BLKSIZE + 100);
		CHECK_EQ_U64(f2fs_dev_sector_size(dev), 512);
		CHECK(strcmp(f2fs_dev_path(dev), path) == 0);
		CHECK(!f2fs_dev_is_read_only(dev) && !f2fs_dev_is_dry_run(dev));
		f2fs_dev_close(dev);
	}
	dev = (struct f2fs_dev *)1;
	CHECK_EQ_U64(f2fs_dev_open("/nonexistent/f2fs.img", NULL, &dev), (uint64_t)-ENOENT);
	CHECK(dev == NULL);
	CHECK_EQ_U64(f2fs_dev_open(dir, NULL, &dev), (uint64_t)-ENOTBLK);
	CHECK_EQ_U64(f2fs_dev_open("/dev/null", NULL, &dev), (uint64_t)-ENOTBLK);
	f2fs_dev_close(NULL);
}

static void test_read_write(void)
{
	const char *path = make_file("rw.img", NBLOCKS * F2FS_BLKSIZE + 100);
	struct f2fs_dev *dev = open_dev(path, false, false);
	static uint8_t buf[4 * F2FS_BLKSIZE], raw[F2FS_BLKSIZE];
	uint8_t bytes[10];

	CHECK_EQ_U64(f2fs_dev_read(dev, 3, 2, buf), 0);
	CHECK(block_has_pattern(buf, 3) && block_has_pattern(buf + F2FS_BLKSIZE, 4));
	CHECK_EQ_U64(f2fs_dev_stats(dev)->read_calls, 1);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->read_blocks, 2);

	memset(buf, 0xAB, F2FS_BLKSIZE);
	CHECK_EQ_U64(f2fs_dev_write(dev, 5, 1, buf), 0);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->write_calls, 1);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->write_blocks, 1);
	raw_block(path, 5, raw);
	CHECK(all_bytes(raw, F2FS_BLKSIZE, 0xAB));
	raw_block(path, 6, raw);
	CHECK(block_has_pattern(raw, 6));
	memset(buf, 0, F2FS_BLKSIZE);
	CHECK_EQ_U64(f2fs_dev_read(dev, 5, 1, buf), 0);
	CHECK(all_bytes(buf, F2FS_BLKSIZE, 0xAB));

	/* Byte variants at an unaligned offset. */
	CHECK_EQ_U64(f2fs_dev_pwrite(dev, 6 * F2FS_BLKSIZE + 1000, 10, "0123456789"), 0);
	CHECK_EQ_U64(f2fs_dev_pread(dev, 6 * F2FS_BLKSIZE + 1000, 10, bytes), 0);
	CHECK(memcmp(bytes, "0123456789", 10) == 0);
	raw_block(path, 6, raw);
	CHECK(memcmp(raw + 1000, "0123456789", 10) == 0 && raw[999] == pattern_byte(6 * 4096 + 999));
	/* The 100-byte tail past the last whole block is readable by bytes. */
	CHECK_EQ_U64(f2fs_dev_pread(dev, NBLOCKS * F2FS_BLKSIZE + 90, 10, bytes), 0);

	/* Past the end. */
	CHECK_EQ_U64(f2fs_dev_read(dev, NBLOCKS - 1, 2, buf), (uint64_t)-EIO);
	CHECK_EQ_U64(f2fs_dev_read(dev, NBLOCKS, 1, buf), (uint64_t)-EIO);
	CHECK_EQ_U64(f2fs_dev_read(dev, UINT64_MAX / 2, 1, buf), (uint64_t)-EINVAL);
	CHECK_EQ_U64(f2fs_dev_pread(dev, NBLOCKS * F2FS_BLKSIZE + 95, 10, bytes), (uint64_t)-EIO);
	CHECK_EQ_U64(f2fs_dev_pread(dev, UINT64_MAX - 3, 10, bytes), (uint64_t)-EINVAL);
	CHECK_EQ_U64(f2fs_dev_write(dev, NBLOCKS, 1, buf), (uint64_t)-ENOSPC);
	CHECK_EQ_U64(f2fs_dev_pwrite(dev, NBLOCKS * F2FS_BLKSIZE + 95, 10, bytes),
		     (uint64_t)-ENOSPC);
	CHECK_EQ_U64(f2fs_dev_read(dev, 0, 0, buf), 0);

	CHECK_EQ_U64(f2fs_dev_flush(dev), 0);
	CHECK_EQ_U64(f2fs_dev_flush(dev), 0);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->flushes, 2);
	f2fs_dev_close(dev);
}

/* Whether the file system serves reads of cached pages with RWF_NOWAIT
 * (tmpfs does not: the layer then reads as if the cache missed). */
static bool nowait_reads(const char *path)
{
	uint8_t block[F2FS_BLKSIZE];
	struct iovec iov = { block, sizeof(block) };
	int fd = open(path, O_RDONLY);
	bool ok = fd >= 0 && pread(fd, block, sizeof(block), 0) == (ssize_t)sizeof(block) &&
		  preadv2(fd, &iov, 1, 0, RWF_NOWAIT) == (ssize_t)sizeof(block);

	if (fd >= 0)
		close(fd);
	return ok;
}

/* Drop the file's pages from the page cache (written back first), so the
 * next reads go to the device.  False where the file system keeps them
 * (tmpfs). */
static bool evict_file(const char *path)
{
	int fd = open(path, O_RDONLY);
	bool ok;

	if (fd < 0)
		return false;
	ok = fdatasync(fd) == 0 && posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
	close(fd);
	return ok;
}

/* The file is only ever NBLOCKS of the pattern here. */
static void check_batch_buffers(const struct f2fs_io_vec *vec, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (uint32_t b = 0; b < vec[i].nblocks; b++)
			CHECK(block_has_pattern((uint8_t *)vec[i].buf + b * F2FS_BLKSIZE,
						vec[i].blkaddr + b));
}

static void test_batch(void)
{
	const char *path = make_file("batch.img", NBLOCKS * F2FS_BLKSIZE);
	struct f2fs_dev *dev = open_dev(path, true, false);
	static uint8_t bufs[8][2 * F2FS_BLKSIZE];
	struct f2fs_io_vec vec[] = {
		{ 10, 2, bufs[0] }, { 3, 1, bufs[1] }, { 12, 1, bufs[2] },
		{ 4, 2, bufs[3] }, { 20, 1, bufs[4] }, { 0, 1, bufs[5] },
		{ 30, 0, NULL }, { 3, 1, bufs[6] },
	};
	size_t n = sizeof(vec) / sizeof(vec[0]);
	struct f2fs_io_vec keep[sizeof(vec) / sizeof(vec[0])];

	memcpy(keep, vec, sizeof(vec));
	CHECK_EQ_U64(f2fs_dev_read_batch(dev, vec, n), 0);
	/* The caller's array is untouched; every buffer has its blocks. */
	CHECK(memcmp(keep, vec, sizeof(vec)) == 0);
	check_batch_buffers(vec, n);
	/* Reads [0 (1..2 into scratch) 3] [3 4..5 (6..9) 10..11 12] [20]:
	 * gaps of up to 4 blocks are read along, the duplicate block 3 starts
	 * a new read, the 7-block gap before 20 too.  read_blocks counts the
	 * blocks asked for. */
	CHECK_EQ_U64(f2fs_dev_stats(dev)->read_blocks, 9);
	/* The file was just written: where the file system takes RWF_NOWAIT
	 * the page cache serves every read at once and nothing is announced;
	 * elsewhere the first read says so (a miss) and the runs are
	 * announced and read as before. */
	CHECK_EQ_U64(f2fs_dev_stats(dev)->read_calls, 3 + f2fs_dev_stats(dev)->read_misses);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->readahead_calls, f2fs_dev_stats(dev)->read_misses ? 1 : 0);
	if (nowait_reads(path))
		CHECK_EQ_U64(f2fs_dev_stats(dev)->read_misses, 0);
	/* Cold, the reads the page cache misses are announced, runs at most
	 * 4 blocks apart as one hint, and read again. */
	if (evict_file(path)) {
		uint64_t calls = f2fs_dev_stats(dev)->read_calls;
		uint64_t misses = f2fs_dev_stats(dev)->read_misses;
		uint64_t hints = f2fs_dev_stats(dev)->readahead_calls;

		memset(bufs, 0, sizeof(bufs));
		CHECK_EQ_U64(f2fs_dev_read_batch(dev, vec, n), 0);
		check_batch_buffers(vec, n);
		CHECK_EQ_U64(f2fs_dev_stats(dev)->read_blocks, 18);
		misses = f2fs_dev_stats(dev)->read_misses - misses;
		CHECK_EQ_U64(f2fs_dev_stats(dev)->read_calls - calls, 3 + misses);
		/* The eviction may leave pages behind (the kernel drops what it
		 * can): the three spans read are [0 (1..2) 3], [3 4..5 (6..9)
		 * 10..11 12] and [20]; those missed are announced, the first two
		 * as one hint, block 20 (7 blocks on) as another.  When all
		 * three missed, or where RWF_NOWAIT is refused (the one miss
		 * stands for every run), that is two hints. */
		CHECK(f2fs_dev_stats(dev)->readahead_calls - hints <= 2);
		if (misses == 3 || !nowait_reads(path))
			CHECK_EQ_U64(f2fs_dev_stats(dev)->readahead_calls - hints, 2);
	}

	/* A run past the end fails the whole batch before any read. */
	struct f2fs_io_vec bad[] = { { 1, 1, bufs[0] }, { NBLOCKS - 1, 2, bufs[7] } };
	uint64_t calls = f2fs_dev_stats(dev)->read_calls;

	CHECK_EQ_U64(f2fs_dev_read_batch(dev, bad, 2), (uint64_t)-EIO);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->read_calls, calls);
	bad[1].blkaddr = NBLOCKS;
	bad[1].nblocks = 1;
	CHECK_EQ_U64(f2fs_dev_read_batch(dev, bad, 2), (uint64_t)-EIO);
	bad[1].blkaddr = 2;
	bad[1].buf = NULL;
	CHECK_EQ_U64(f2fs_dev_read_batch(dev, bad, 2), (uint64_t)-EINVAL);
	CHECK_EQ_U64(f2fs_dev_read_batch(dev, NULL, 0), 0);
	f2fs_dev_close(dev);
}

/* A volume block's expected contents: device 0 holds blocks [0, 32) (of
 * its 40), member 1 blocks [32, 48), member 2 blocks [50, 70), each from
 * its own block 0; blocks 48 and 49 are held by no device. */
#define M_OWN	32u
#define M1_START 32u
#define M2_START 50u	/* blocks 48, 49: held by no device */

static bool volume_block_ok(const uint8_t *buf, uint64_t vblk)
{
	if (vblk < M_OWN)
		return block_has_pattern(buf, vblk);
	if (vblk < M1_START + 16)
		return block_has_pattern(buf, vblk - M1_START);
	return block_has_pattern(buf, vblk - M2_START);
}

static struct f2fs_dev *open_set(bool dry_run, char (*paths)[512])
{
	struct f2fs_dev *dev, *m1, *m2;

	snprintf(paths[0], 512, "%s", make_file("set0.img", 40 * F2FS_BLKSIZE));
	snprintf(paths[1], 512, "%s", make_file("set1.img", 16 * F2FS_BLKSIZE));
	snprintf(paths[2], 512, "%s", make_file("set2.img", 20 * F2FS_BLKSIZE));
	dev = open_dev(paths[0], false, dry_run);
	m1 = open_dev(paths[1], false, dry_run);
	m2 = open_dev(paths[2], false, dry_run);
	f2fs_dev_set_own_blocks(dev, M_OWN);
	CHECK_EQ_U64(f2fs_dev_attach(dev, m1, M1_START, 16), 0);
	CHECK_EQ_U64(f2fs_dev_attach(dev, m2, M2_START, 20), 0);
	return dev;
}

/* Multi-device routing: reads and batches across the boundaries,
 * a write across one (admitted once), dry-run, the gap and the end. */
static void test_members(void)
{
	char paths[3][512];
	struct f2fs_dev *dev = open_set(false, paths);
	static uint8_t buf[24 * F2FS_BLKSIZE], bufs[3][24 * F2FS_BLKSIZE];

	/* a plain read across device 0 and member 1 */
	CHECK_EQ_U64(f2fs_dev_read(dev, 28, 8, buf), 0);
	for (uint32_t i = 0; i < 8; i++)
		CHECK(volume_block_ok(buf + (size_t)i * F2FS_BLKSIZE, 28 + i));
	/* the gap and past the end read nothing */
	CHECK_EQ_U64(f2fs_dev_read(dev, 47, 2, buf), (uint64_t)-EIO);
	CHECK_EQ_U64(f2fs_dev_read(dev, 69, 2, buf), (uint64_t)-EIO);
	CHECK_EQ_U64(f2fs_dev_read(dev, 50, 20, buf), 0);
	CHECK(volume_block_ok(buf + 19 * F2FS_BLKSIZE, 69));

	/* a batch: one run across a boundary, one on each device */
	{
		struct f2fs_io_vec vec[] = { { 52, 3, bufs[0] }, { 20, 20, bufs[1] },
					     { 2, 1, bufs[2] } };

		memset(bufs, 0, sizeof(bufs));
		CHECK_EQ_U64(f2fs_dev_read_batch(dev, vec, 3), 0);
		for (uint32_t i = 0; i < 3; i++)
			CHECK(volume_block_ok(bufs[0] + (size_t)i * F2FS_BLKSIZE, 52 + i));
		for (uint32_t i = 0; i < 20; i++)
			CHECK(volume_block_ok(bufs[1] + (size_t)i * F2FS_BLKSIZE, 20 + i));
		CHECK(volume_block_ok(bufs[2], 2));
		/* a run without a buffer is refused */
		vec[1].buf = NULL;
		CHECK_EQ_U64(f2fs_dev_read_batch(dev, vec, 3), (uint64_t)-EINVAL);
	}
	struct f2fs_io_vec gap = { 46, 4, bufs[0] };

	CHECK_EQ_U64(f2fs_dev_read_batch(dev, &gap, 1), (uint64_t)-EIO);
	CHECK_EQ_U64(f2fs_dev_readahead(dev, 40, 30), 0);	/* hints skip the gap */

	/* a write across the boundary lands on both files; one write call */
	uint64_t calls = f2fs_dev_stats(dev)->write_calls;
	int fd;

	memset(buf, 0x5A, 4 * F2FS_BLKSIZE);
	CHECK_EQ_U64(f2fs_dev_write(dev, 30, 4, buf), 0);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->write_calls, calls + 1);
	CHECK_EQ_U64(f2fs_dev_flush(dev), 0);
	fd = open(paths[1], O_RDONLY);
	CHECK(fd >= 0 && pread(fd, buf, 2 * F2FS_BLKSIZE, 0) == 2 * F2FS_BLKSIZE);
	CHECK(all_bytes(buf, 2 * F2FS_BLKSIZE, 0x5A));
	CHECK(pread(fd, buf, F2FS_BLKSIZE, 2 * F2FS_BLKSIZE) == F2FS_BLKSIZE && block_has_pattern(buf, 2));
	if (fd >= 0)
		close(fd);
	CHECK_EQ_U64(f2fs_dev_write(dev, 47, 2, buf), (uint64_t)-ENOSPC);
	/* zero-out across the boundary, admitted once; not into the gap */
	calls = f2fs_dev_stats(dev)->write_calls;
	CHECK_EQ_U64(f2fs_dev_zeroout(dev, 31, 2), 0);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->write_calls, calls + 1);
	CHECK_EQ_U64(f2fs_dev_read(dev, 31, 2, buf), 0);
	CHECK(all_bytes(buf, 2 * F2FS_BLKSIZE, 0));
	CHECK_EQ_U64(f2fs_dev_zeroout(dev, 46, 4), (uint64_t)-EINVAL);
	/* the write-limit hook counts the routed write once */
	f2fs_dev_set_write_limit(dev, f2fs_dev_stats(dev)->write_calls);
	memset(buf, 0x33, F2FS_BLKSIZE);
	CHECK_EQ_U64(f2fs_dev_write(dev, 60, 1, buf), 0);
	CHECK_EQ_U64(f2fs_dev_read(dev, 60, 1, buf), 0);
	CHECK(volume_block_ok(buf, 60));
	f2fs_dev_close(dev);

	/* dry-run: the members are not written either */
	dev = open_set(true, paths);
	memset(buf, 0x77, 4 * F2FS_BLKSIZE);
	CHECK_EQ_U64(f2fs_dev_write(dev, 30, 4, buf), 0);
	CHECK_EQ_U64(f2fs_dev_read(dev, 30, 4, buf), 0);
	for (uint32_t i = 0; i < 4; i++)
		CHECK(volume_block_ok(buf + (size_t)i * F2FS_BLKSIZE, 30 + i));
	/* members out of order, too small, or a member with members */
	struct f2fs_dev *x = open_dev(paths[1], true, false);

	CHECK_EQ_U64(f2fs_dev_attach(dev, x, 10, 4), (uint64_t)-EINVAL);
	CHECK_EQ_U64(f2fs_dev_attach(dev, x, 100, 17), (uint64_t)-EINVAL);
	CHECK_EQ_U64(f2fs_dev_attach(x, dev, 100, 1), (uint64_t)-EINVAL);
	f2fs_dev_close(x);
	f2fs_dev_close(dev);
}

/* More adjacent runs than one preadv takes: split at IOV_MAX. */
static void test_batch_iov_max(void)
{
	enum { RUNS = 1500 };
	const char *path = make_file("iovmax.img", (uint64_t)RUNS * F2FS_BLKSIZE);
	struct f2fs_dev *dev = open_dev(path, true, false);
	struct f2fs_io_vec *vec = calloc(RUNS, sizeof(*vec));
	uint8_t *buf = malloc((size_t)RUNS * F2FS_BLKSIZE);

	/* Given in reverse order. */
	for (size_t i = 0; i < RUNS; i++) {
		vec[i].blkaddr = RUNS - 1 - i;
		vec[i].nblocks = 1;
		vec[i].buf = buf + (RUNS - 1 - i) * F2FS_BLKSIZE;
	}
	CHECK(evict_file(path));
	CHECK_EQ_U64(f2fs_dev_read_batch(dev, vec, RUNS), 0);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->read_calls,
		     (RUNS + 1023) / 1024 + f2fs_dev_stats(dev)->read_misses);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->read_blocks, RUNS);
	/* Evicted, both reads miss without waiting, then the runs are
	 * announced as one hint and read again (where the file system does
	 * not take RWF_NOWAIT, the first read says so: one miss, every run
	 * announced). */
	/* (Eviction may leave one of the two spans cached: one miss, read
	 * at once without a hint.) */
	CHECK(f2fs_dev_stats(dev)->readahead_calls <= 1);
	CHECK(f2fs_dev_stats(dev)->read_misses <= 2);
	if (nowait_reads(path) && f2fs_dev_stats(dev)->read_misses == 2)
		CHECK_EQ_U64(f2fs_dev_stats(dev)->readahead_calls, 1);
	check_batch_buffers(vec, RUNS);
	free(buf);
	free(vec);
	f2fs_dev_close(dev);
}

/* Runs for the worker reader: [2..4] and [20] (two reads: 15 blocks
 * apart), each block into its own slot of bufs. */
static size_t mt_runs(struct f2fs_io_vec *vec, uint8_t (*bufs)[F2FS_BLKSIZE])
{
	vec[0] = (struct f2fs_io_vec){ 2, 1, bufs[0] };
	vec[1] = (struct f2fs_io_vec){ 3, 2, bufs[1] };
	vec[2] = (struct f2fs_io_vec){ 20, 1, bufs[3] };
	memset(bufs, 0, 4 * F2FS_BLKSIZE);
	return 3;
}

static bool mt_runs_read(uint8_t (*bufs)[F2FS_BLKSIZE])
{
	return block_has_pattern(bufs[0], 2) && block_has_pattern(bufs[1], 3) &&
	       block_has_pattern(bufs[2], 4) && block_has_pattern(bufs[3], 20);
}

/* The cached reads go through preadv2 (which the wrapper sees) where a
 * test is about RWF_NOWAIT's answers: no io_uring ring for this device. */
static void no_rings(struct f2fs_dev *dev)
{
	atomic_store(&dev->ring_refused, true);
}

/* Whether this kernel (and sandbox) gives the process an io_uring. */
static bool have_uring(void)
{
	struct f2fs_uring *r;

	if (f2fs_uring_open(4, &r) < 0)
		return false;
	f2fs_uring_close(r);
	return true;
}

/* The rings: the spans of a batch and of a worker's reads go to the
 * kernel through a ring (the preadv2 wrapper sees none of them), counted
 * a read call each as before; a miss of the page cache is a miss; a ring
 * that fails is closed, its reads made again by preadv2, and no ring is
 * used from then on.  Without io_uring the first read finds out and every
 * read is preadv2's. */
static void test_read_cached_ring(void)
{
	const char *path = make_file("ring.img", NBLOCKS * F2FS_BLKSIZE);
	struct f2fs_dev *dev = open_dev(path, true, false);
	static uint8_t bufs[4][F2FS_BLKSIZE];
	struct f2fs_io_vec vec[3];
	struct f2fs_dev_tally t;
	size_t n = mt_runs(vec, bufs);
	bool warm = nowait_reads(path);
	uint64_t tried = nowait_calls, calls;

	memset(&t, 0, sizeof(t));
	if (!have_uring()) {
		/* the first read finds out: preadv2 from then on */
		(void)f2fs_dev_read_cached_mt(dev, vec, n, &t);
		CHECK(atomic_load(&dev->ring_refused));
		CHECK_EQ_U64(nowait_calls - tried, 2);
		f2fs_dev_close(dev);
		return;
	}
	if (!warm) {
		/* a file system without cached reads (tmpfs): the ring says so
		 * as preadv2 would, and the worker reader is off */
		CHECK_EQ_U64(f2fs_dev_read_cached_mt(dev, vec, n, &t), (uint64_t)-EAGAIN);
		CHECK(!f2fs_dev_reads_mt(dev));
		f2fs_dev_close(dev);
		return;
	}
	CHECK_EQ_U64(f2fs_dev_read_cached_mt(dev, vec, n, &t), 0);
	CHECK_EQ_U64(t.read_calls, 2);
	CHECK_EQ_U64(nowait_calls, tried);
	CHECK(mt_runs_read(bufs));
	CHECK_EQ_U64(t.read_blocks, 4);
	CHECK_EQ_U64(t.read_sizes[0], 1);	/* [20] */
	CHECK_EQ_U64(t.read_sizes[1], 1);	/* [2..4] */
	CHECK(!atomic_load(&dev->ring_refused));
	CHECK(dev->ring[0] != NULL);
	/* the tool's batch: cached through the ring, none missed */
	n = mt_runs(vec, bufs);
	calls = f2fs_dev_stats(dev)->read_calls;
	CHECK_EQ_U64(f2fs_dev_read_batch(dev, vec, n), 0);
	CHECK(mt_runs_read(bufs));
	CHECK_EQ_U64(nowait_calls, tried);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->read_calls - calls, 2);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->read_misses, 0);
	/* cold: the ring's reads miss, the batch reads them the usual way */
	if (evict_file(path)) {
		n = mt_runs(vec, bufs);
		calls = f2fs_dev_stats(dev)->read_calls;
		CHECK_EQ_U64(f2fs_dev_read_batch(dev, vec, n), 0);
		CHECK(mt_runs_read(bufs));
		CHECK(f2fs_dev_stats(dev)->read_calls - calls >= 2);
		CHECK_EQ_U64(nowait_calls, tried);
	}
	/* a ring that fails (its descriptor gone): closed, the reads made
	 * by preadv2, and preadv2 from then on */
	if (dev->ring[0]) {
		close(f2fs_uring_fd(dev->ring[0]));
		n = mt_runs(vec, bufs);
		CHECK_EQ_U64(f2fs_dev_read_batch(dev, vec, n), 0);
		CHECK(mt_runs_read(bufs));
		CHECK(atomic_load(&dev->ring_refused));
		CHECK(dev->ring[0] == NULL);
		CHECK_EQ_U64(nowait_calls - tried, 2);
		n = mt_runs(vec, bufs);
		memset(&t, 0, sizeof(t));
		(void)f2fs_dev_read_cached_mt(dev, vec, n, &t);
		CHECK_EQ_U64(nowait_calls - tried, 4);
		CHECK_EQ_U64(t.read_calls, 2);
	}
	f2fs_dev_close(dev);
}

/* A ring with a file registered reads that file through the registered
 * slot and any other descriptor as before: each read lands the bytes of
 * its own file, registered or not, and registering again keeps the first
 * file (the device registers its one descriptor). */
static void test_uring_registered(void)
{
	const char *p1 = make_file("reg1.img", 8 * F2FS_BLKSIZE);
	int fd1 = open(p1, O_RDONLY);
	const char *p2 = make_file("reg2.img", 16 * F2FS_BLKSIZE);
	int fd2 = open(p2, O_RDONLY);
	static uint8_t bufs[3][F2FS_BLKSIZE];
	struct iovec iov[3];
	struct f2fs_uring_read rd[3];
	struct f2fs_uring *r;

	CHECK(fd1 >= 0 && fd2 >= 0);
	if (fd1 < 0 || fd2 < 0 || f2fs_uring_open(4, &r) < 0) {
		if (fd1 >= 0)
			close(fd1);
		if (fd2 >= 0)
			close(fd2);
		return;	/* no io_uring: test_read_cached_ring covers the refusal */
	}
	f2fs_uring_register_file(r, fd1);
	f2fs_uring_register_file(r, fd2);	/* kept: fd1 stays the registered one */
	for (int i = 0; i < 3; i++) {
		iov[i] = (struct iovec){ bufs[i], F2FS_BLKSIZE };
		memset(bufs[i], 0, F2FS_BLKSIZE);
	}
	rd[0] = (struct f2fs_uring_read){ &iov[0], 1, fd1, 5 * F2FS_BLKSIZE, 0 };
	rd[1] = (struct f2fs_uring_read){ &iov[1], 1, fd2, 12 * F2FS_BLKSIZE, 0 };
	rd[2] = (struct f2fs_uring_read){ &iov[2], 1, fd1, 1 * F2FS_BLKSIZE, 0 };
	CHECK_EQ_U64(f2fs_uring_readv(r, rd, 3, false), 0);
	for (int i = 0; i < 3; i++)
		CHECK_EQ_U64(rd[i].res, F2FS_BLKSIZE);
	CHECK(block_has_pattern(bufs[0], 5));
	CHECK(block_has_pattern(bufs[1], 12));
	CHECK(block_has_pattern(bufs[2], 1));
	/* a read past the end of the registered file ends short (0 bytes) */
	rd[0] = (struct f2fs_uring_read){ &iov[0], 1, fd1, 8 * F2FS_BLKSIZE, 0 };
	CHECK_EQ_U64(f2fs_uring_readv(r, rd, 1, false), 0);
	CHECK_EQ_U64(rd[0].res, 0);
	f2fs_uring_close(r);
	close(fd1);
	close(fd2);
}

/* The worker reader: a warm read counted in the tally only; a miss
 * (EAGAIN) is no refusal; a refusal of RWF_NOWAIT stops the call, is
 * remembered, and from then on the device takes no cached read at all
 * (f2fs_dev_reads_mt false, the worker reader returns at once, batches
 * read without asking the page cache first), whichever reader saw it. */
static void test_read_cached_mt(void)
{
	const char *path = make_file("mt.img", NBLOCKS * F2FS_BLKSIZE);
	struct f2fs_dev *dev = open_dev(path, true, false);

	no_rings(dev);
	static uint8_t bufs[4][F2FS_BLKSIZE];
	struct f2fs_io_vec vec[3];
	struct f2fs_dev_tally t;
	size_t n = mt_runs(vec, bufs);
	uint64_t calls;

	CHECK(f2fs_dev_reads_mt(dev));
	if (nowait_reads(path)) {
		memset(&t, 0, sizeof(t));
		CHECK_EQ_U64(f2fs_dev_read_cached_mt(dev, vec, n, &t), 0);
		CHECK(mt_runs_read(bufs));
		CHECK_EQ_U64(t.read_calls, 2);
		CHECK_EQ_U64(t.read_blocks, 4);
		CHECK_EQ_U64(t.read_sizes[0], 1);	/* [20] */
		CHECK_EQ_U64(t.read_sizes[1], 1);	/* [2..4] */
		CHECK_EQ_U64(f2fs_dev_stats(dev)->read_calls, 0);
		f2fs_dev_add_tally(dev, &t);
		CHECK_EQ_U64(f2fs_dev_stats(dev)->read_calls, 2);
		CHECK_EQ_U64(f2fs_dev_stats(dev)->read_blocks, 4);
		CHECK_EQ_U64(f2fs_dev_stats(dev)->read_sizes[1], 1);
	}

	/* A miss: both reads tried, nothing remembered. */
	nowait_errno = EAGAIN;
	memset(&t, 0, sizeof(t));
	calls = nowait_calls;
	CHECK_EQ_U64(f2fs_dev_read_cached_mt(dev, vec, n, &t), (uint64_t)-EAGAIN);
	CHECK_EQ_U64(nowait_calls - calls, 2);
	CHECK_EQ_U64(t.read_calls, 2);
	CHECK_EQ_U64(t.read_blocks, 0);
	CHECK(f2fs_dev_reads_mt(dev));

	/* The refusal: the first read says so, the call stops there. */
	nowait_errno = EOPNOTSUPP;
	memset(&t, 0, sizeof(t));
	calls = nowait_calls;
	CHECK_EQ_U64(f2fs_dev_read_cached_mt(dev, vec, n, &t), (uint64_t)-EAGAIN);
	CHECK_EQ_U64(nowait_calls - calls, 1);
	CHECK_EQ_U64(t.read_calls, 1);
	CHECK(!f2fs_dev_reads_mt(dev));
	/* Later calls return at once, no read made. */
	memset(&t, 0, sizeof(t));
	CHECK_EQ_U64(f2fs_dev_read_cached_mt(dev, vec, n, &t), (uint64_t)-EOPNOTSUPP);
	CHECK_EQ_U64(nowait_calls - calls, 1);
	CHECK_EQ_U64(t.read_calls, 0);
	/* The tool's own batches: blocking reads only, as before. */
	n = mt_runs(vec, bufs);
	calls = f2fs_dev_stats(dev)->read_calls;
	uint64_t misses = f2fs_dev_stats(dev)->read_misses;
	uint64_t tried = nowait_calls;

	CHECK_EQ_U64(f2fs_dev_read_batch(dev, vec, n), 0);
	CHECK(mt_runs_read(bufs));
	CHECK_EQ_U64(nowait_calls, tried);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->read_calls - calls, 2);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->read_misses, misses);
	f2fs_dev_close(dev);

	/* Seen first by a batch (EINVAL: a kernel without the flag): the
	 * batch reads its blocks all the same, one cached read tried; the
	 * next batch tries none, and the worker reader is off. */
	dev = open_dev(path, true, false);
	no_rings(dev);
	nowait_errno = EINVAL;
	n = mt_runs(vec, bufs);
	tried = nowait_calls;
	CHECK_EQ_U64(f2fs_dev_read_batch(dev, vec, n), 0);
	CHECK(mt_runs_read(bufs));
	CHECK_EQ_U64(nowait_calls - tried, 1);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->read_misses, 1);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->read_calls, 1 + 2);
	CHECK(!f2fs_dev_reads_mt(dev));
	n = mt_runs(vec, bufs);
	CHECK_EQ_U64(f2fs_dev_read_batch(dev, vec, n), 0);
	CHECK(mt_runs_read(bufs));
	CHECK_EQ_U64(nowait_calls - tried, 1);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->read_misses, 1);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->read_calls, 1 + 2 + 2);
	f2fs_dev_close(dev);
	nowait_errno = 0;

	/* The wrapper is the one the reader calls (else the checks above
	 * would pass on a refusing kernel alone). */
	CHECK(nowait_calls > 0);
}

/* Whether the first nblocks blocks of the file at path, every other pair
 * of them (the hints of test_readahead), are in the page cache. */
static bool pages_cached(const char *path, uint64_t nblocks)
{
	int fd = open(path, O_RDONLY);
	size_t len = (size_t)nblocks * F2FS_BLKSIZE;
	unsigned char vec[NBLOCKS * (F2FS_BLKSIZE / 4096)];
	void *map;
	bool all = true;

	if (fd < 0)
		return false;
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return false;
	if (mincore(map, len, vec) < 0)
		all = false;
	for (uint64_t b = 0; b < nblocks && all; b += 4)
		all = (vec[b * (F2FS_BLKSIZE / 4096)] & 1) && (vec[(b + 1) * (F2FS_BLKSIZE / 4096)] & 1);
	munmap(map, len);
	return all;
}

static void test_readahead(void)
{
	const char *path = make_file("ra.img", NBLOCKS * F2FS_BLKSIZE);
	struct f2fs_dev *dev = open_dev(path, true, false);

	CHECK_EQ_U64(f2fs_dev_readahead(dev, 0, NBLOCKS), 0);
	CHECK_EQ_U64(f2fs_dev_readahead(dev, NBLOCKS - 2, 100), 0);	/* clipped */
	CHECK_EQ_U64(f2fs_dev_stats(dev)->readahead_calls, 2);
	CHECK_EQ_U64(f2fs_dev_readahead(dev, NBLOCKS + 5, 1), 0);	/* nothing to do */
	CHECK_EQ_U64(f2fs_dev_stats(dev)->readahead_calls, 2);
	f2fs_dev_close(dev);

	/* Deferred hints: queued (and counted) until issued; then streamed
	 * by a thread of the device; hints after the issue are direct again.
	 * Twice, the second time closed without issuing. */
	for (int round = 0; round < 2; round++) {
		dev = open_dev(path, true, false);
		CHECK_EQ_U64(f2fs_dev_defer_readahead(dev), 0);
		CHECK(dev->ra != NULL);
		for (uint64_t b = 0; b < NBLOCKS; b += 4)
			CHECK_EQ_U64(f2fs_dev_readahead(dev, b, 2), 0);
		CHECK_EQ_U64(f2fs_dev_stats(dev)->readahead_calls, NBLOCKS / 4);
		if (round == 0) {
			static uint8_t buf[F2FS_BLKSIZE];
			struct f2fs_io_vec v = { 3, 1, buf };

			(void)evict_file(path);
			f2fs_dev_issue_readahead(dev);
			f2fs_dev_issue_readahead(dev);	/* once only */
			/* a thread streams the plan; when it ends, every
			 * block it hinted is in the page cache (evicted
			 * before, where the file system lets it) */
			CHECK(f2fs_stream_wait(dev));
			CHECK(!f2fs_stream_wait(dev));
			CHECK(pages_cached(path, NBLOCKS));
			CHECK_EQ_U64(f2fs_dev_read_batch(dev, &v, 1), 0);
			CHECK(block_has_pattern(buf, 3));
			CHECK_EQ_U64(f2fs_dev_readahead(dev, 0, 1), 0);
			CHECK_EQ_U64(f2fs_dev_stats(dev)->readahead_calls, NBLOCKS / 4 + 1);
		}
		f2fs_dev_close(dev);
	}
}

static void test_read_only(void)
{
	const char *path = make_file("ro.img", NBLOCKS * F2FS_BLKSIZE);
	struct f2fs_dev *dev = open_dev(path, true, false);
	static uint8_t buf[F2FS_BLKSIZE];

	CHECK(f2fs_dev_is_read_only(dev));
	CHECK_EQ_U64(f2fs_dev_read(dev, 1, 1, buf), 0);
	CHECK_EQ_U64(f2fs_dev_write(dev, 1, 1, buf), (uint64_t)-EROFS);
	CHECK_EQ_U64(f2fs_dev_write(dev, 1, 0, buf), (uint64_t)-EROFS);
	CHECK_EQ_U64(f2fs_dev_pwrite(dev, 10, 1, buf), (uint64_t)-EROFS);
	CHECK_EQ_U64(f2fs_dev_discard(dev, 1, 1), (uint64_t)-EROFS);
	CHECK_EQ_U64(f2fs_dev_zeroout(dev, 1, 1), (uint64_t)-EROFS);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->write_calls + f2fs_dev_stats(dev)->dropped_writes, 0);
	CHECK_EQ_U64(f2fs_dev_flush(dev), 0);
	f2fs_dev_close(dev);
}

static void test_dry_run(void)
{
	const char *path = make_file("dry.img", NBLOCKS * F2FS_BLKSIZE);
	struct f2fs_dev *dev = open_dev(path, false, true);
	static uint8_t buf[F2FS_BLKSIZE], raw[F2FS_BLKSIZE];

	CHECK(f2fs_dev_is_dry_run(dev));
	memset(buf, 0x5A, sizeof(buf));
	CHECK_EQ_U64(f2fs_dev_write(dev, 2, 1, buf), 0);
	CHECK_EQ_U64(f2fs_dev_pwrite(dev, 100, 10, buf), 0);
	CHECK_EQ_U64(f2fs_dev_discard(dev, 3, 2), 0);
	CHECK_EQ_U64(f2fs_dev_zeroout(dev, 5, 2), 0);
	CHECK_EQ_U64(f2fs_dev_flush(dev), 0);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->dropped_writes, 4);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->write_calls, 0);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->flushes, 1);
	/* Still validated: a bad range is an error, not a silent drop. */
	CHECK_EQ_U64(f2fs_dev_write(dev, NBLOCKS, 1, buf), (uint64_t)-ENOSPC);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->dropped_writes, 4);
	f2fs_dev_close(dev);
	for (uint64_t b = 0; b < NBLOCKS; b++) {
		raw_block(path, b, raw);
		CHECK(block_has_pattern(raw, b));
	}
}

static void test_write_limit(void)
{
	const char *path = make_file("limit.img", NBLOCKS * F2FS_BLKSIZE);
	struct f2fs_dev *dev = open_dev(path, false, false);
	static uint8_t buf[F2FS_BLKSIZE], raw[F2FS_BLKSIZE];

	f2fs_dev_set_write_limit(dev, 3);
	CHECK_EQ_U64(f2fs_cut_limit(dev), 3);
	for (uint64_t b = 0; b < 6; b++) {
		memset(buf, (int)(0xC0 + b), sizeof(buf));
		CHECK_EQ_U64(f2fs_dev_write(dev, b, 1, buf), 0);
	}
	CHECK_EQ_U64(f2fs_dev_zeroout(dev, 10, 1), 0);	/* dropped as well */
	CHECK_EQ_U64(f2fs_dev_stats(dev)->write_calls, 3);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->dropped_writes, 4);
	CHECK_EQ_U64(f2fs_dev_flush(dev), 0);
	f2fs_dev_close(dev);
	for (uint64_t b = 0; b < 11; b++) {
		raw_block(path, b, raw);
		if (b < 3)
			CHECK(all_bytes(raw, F2FS_BLKSIZE, (uint8_t)(0xC0 + b)));
		else
			CHECK(block_has_pattern(raw, b));
	}

	/* Limit 0 means no limit. */
	dev = open_dev(path, false, false);
	f2fs_dev_set_write_limit(dev, 0);
	for (uint64_t b = 0; b < 6; b++)
		CHECK_EQ_U64(f2fs_dev_write(dev, b, 1, buf), 0);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->write_calls, 6);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->dropped_writes, 0);
	f2fs_dev_close(dev);
}

static void check_zero_range(const char *path, uint64_t first, uint64_t count)
{
	static uint8_t raw[F2FS_BLKSIZE];
	struct stat st;

	for (uint64_t b = 0; b < NBLOCKS; b++) {
		raw_block(path, b, raw);
		if (b >= first && b < first + count)
			CHECK(all_bytes(raw, F2FS_BLKSIZE, 0));
		else
			CHECK(block_has_pattern(raw, b));
	}
	CHECK(stat(path, &st) == 0 && st.st_size == NBLOCKS * F2FS_BLKSIZE);
}

static void test_discard_zeroout(void)
{
	const char *path = make_file("discard.img", NBLOCKS * F2FS_BLKSIZE);
	struct f2fs_dev *dev = open_dev(path, false, false);

	CHECK_EQ_U64(f2fs_dev_discard(dev, 2, 3), 0);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->write_calls, 1);
	CHECK_EQ_U64(f2fs_dev_discard(dev, NBLOCKS - 1, 2), (uint64_t)-EINVAL);
	CHECK_EQ_U64(f2fs_dev_discard(dev, 0, 0), 0);
	f2fs_dev_close(dev);
	check_zero_range(path, 2, 3);

	path = make_file("zero.img", NBLOCKS * F2FS_BLKSIZE);
	dev = open_dev(path, false, false);
	CHECK_EQ_U64(f2fs_dev_zeroout(dev, 7, 3), 0);
	CHECK_EQ_U64(f2fs_dev_zeroout(dev, NBLOCKS, 1), (uint64_t)-EINVAL);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->write_calls, 1);
	CHECK_EQ_U64(f2fs_dev_stats(dev)->write_blocks, 3);
	f2fs_dev_close(dev);
	check_zero_range(path, 7, 3);
}

static void test_not_mounted(void)
{
	const char *path = make_file("mnt.img", NBLOCKS * F2FS_BLKSIZE);
	char *where = (char *)"junk";
	bool mounted = true;

	CHECK_EQ_U64(f2fs_dev_check_mounted(path, &mounted, &where), 0);
	CHECK(!mounted);
	CHECK(where == NULL);
	mounted = true;
	CHECK_EQ_U64(f2fs_dev_check_mounted(path, &mounted, NULL), 0);
	CHECK(!mounted);
}

/* Block buffers: aligned to the block size, zeroed when asked, a pointer
 * for 0 blocks (as malloc(0)), none for a size that overflows. */
static void test_blocks_alloc(void)
{
	uint8_t *a = f2fs_blocks_alloc(3), *z = f2fs_blocks_zalloc(5), *e = f2fs_blocks_alloc(0);
	size_t nonzero = 0;

	CHECK(a && z && e);
	if (!a || !z || !e)
		goto out;
	CHECK_EQ_U64((uintptr_t)a % F2FS_BLKSIZE, 0);
	CHECK_EQ_U64((uintptr_t)z % F2FS_BLKSIZE, 0);
	CHECK_EQ_U64((uintptr_t)e % F2FS_BLKSIZE, 0);
	memset(a, 0xa5, 3 * F2FS_BLKSIZE);
	e[F2FS_BLKSIZE - 1] = 1;	/* one block, whole */
	for (size_t i = 0; i < 5 * F2FS_BLKSIZE; i++)
		nonzero += z[i] != 0;
	CHECK_EQ_U64(nonzero, 0);
	CHECK(f2fs_blocks_alloc(SIZE_MAX / F2FS_BLKSIZE + 1) == NULL);
	CHECK(f2fs_blocks_zalloc(SIZE_MAX) == NULL);
out:
	free(a);
	free(z);
	free(e);
}

/* Buffers handed on between passes: a buffer given back is taken again
 * (the one asked most of among those large enough), sizes rounded up to
 * the granule so a smaller one serves a larger request of the same
 * granule, a larger request gets a new one, a full list frees what it is
 * given, trim frees the least used, and without a device every take is
 * new and every give frees. */
static void test_buf_spares(void)
{
	const char *path = make_file("spares.img", NBLOCKS * F2FS_BLKSIZE);
	struct f2fs_dev *dev = open_dev(path, false, false);
	uint8_t *a = f2fs_dev_buf_take(dev, 10), *b, *c, *d, *many[F2FS_DEV_SPARES + 1];

	CHECK(a && (uintptr_t)a % F2FS_BLKSIZE == 0);
	if (!a)
		goto out;
	memset(a, 1, (size_t)F2FS_DEV_BUF_GRANULE * F2FS_BLKSIZE);	/* a granule, whole */
	f2fs_dev_buf_give(dev, a, 10);
	CHECK_EQ_U64(dev->nspare, 1);
	b = f2fs_dev_buf_take(dev, F2FS_DEV_BUF_GRANULE);
	CHECK(b == a);
	CHECK_EQ_U64(dev->nspare, 0);
	c = f2fs_dev_buf_take(dev, F2FS_DEV_BUF_GRANULE + 1);	/* two granules: new */
	CHECK(c && c != b);
	if (c)
		memset(c, 2, 2 * (size_t)F2FS_DEV_BUF_GRANULE * F2FS_BLKSIZE);
	f2fs_dev_buf_give(dev, b, 5);
	f2fs_dev_buf_give(dev, c, F2FS_DEV_BUF_GRANULE + 1);
	/* both fit one granule: the one its last user asked more of */
	d = f2fs_dev_buf_take(dev, 1);
	CHECK(d == c);
	f2fs_dev_buf_give(dev, d, 1);
	f2fs_dev_buf_give(dev, NULL, 1);
	CHECK_EQ_U64(dev->nspare, 2);
	f2fs_dev_buf_trim(dev, 1);	/* c (1 block asked last) goes */
	CHECK_EQ_U64(dev->nspare, 1);
	CHECK(dev->nspare == 1 && dev->spare[0].buf == b);
	for (unsigned int i = 0; i <= F2FS_DEV_SPARES; i++)
		many[i] = f2fs_dev_buf_take(dev, 1);
	for (unsigned int i = 0; i <= F2FS_DEV_SPARES; i++)
		f2fs_dev_buf_give(dev, many[i], 1);
	CHECK_EQ_U64(dev->nspare, F2FS_DEV_SPARES);
	CHECK(f2fs_dev_buf_take(dev, SIZE_MAX) == NULL);
	a = f2fs_dev_buf_take(NULL, 3);
	CHECK(a && (uintptr_t)a % F2FS_BLKSIZE == 0);
	if (a)
		memset(a, 3, (size_t)F2FS_DEV_BUF_GRANULE * F2FS_BLKSIZE);
	f2fs_dev_buf_give(NULL, a, 3);
out:
	f2fs_dev_close(dev);	/* frees the spares (ASan: no leak) */
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/f2fs-test-device-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		fprintf(stderr, "mkdtemp failed\n");
		return 1;
	}
	test_blocks_alloc();
	test_buf_spares();
	test_open();
	test_read_write();
	test_batch();
	test_batch_iov_max();
	test_read_cached_mt();
	test_read_cached_ring();
	test_uring_registered();
	test_members();
	test_readahead();
	test_read_only();
	test_dry_run();
	test_write_limit();
	test_discard_zeroout();
	test_not_mounted();

	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "warning: could not remove %s\n", dir);
	return unit_finish("test_device");
}
