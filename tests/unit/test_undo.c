/*
 * test_undo.c - undo files and the device layer's test hooks, on
 * temporary regular files: an undo round trip (each block saved once,
 * zero runs without payload, sub-block writes, zero-outs), the check
 * that refuses a device changed since, a torn tail, the refusals of
 * f2fs_dev_start_undo(), the file system's UUID recorded before the
 * run and compared with the device's; the lost-writes hook (a chosen subset of the
 * writes since the last flush lost at the cut) and the read-fault hook
 * (EIO and short reads at chosen blocks, no mapping).
 *
 * File contents are checked with plain pread(), not through the layer.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "f2fs_dev.h"
#include "f2fs_fs.h"
#include "f2fs_undo.h"
#include "unit.h"

#define NBLOCKS		64

static char dir[256];

static uint8_t pattern_byte(uint64_t i)
{
	return (uint8_t)((i >> 12) * 7 + (i & 0xFFF) * 13 + 1);
}

/* A fresh file of NBLOCKS blocks: the pattern, blocks 5..8 zero. */
static const char *make_file(const char *name)
{
	static char path[512];
	uint8_t *buf = malloc((size_t)NBLOCKS * F2FS_BLKSIZE);
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	for (size_t i = 0; i < (size_t)NBLOCKS * F2FS_BLKSIZE; i++)
		buf[i] = pattern_byte(i);
	memset(buf + 5 * F2FS_BLKSIZE, 0, 4 * F2FS_BLKSIZE);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0);
	CHECK(write(fd, buf, (size_t)NBLOCKS * F2FS_BLKSIZE) == (ssize_t)NBLOCKS * F2FS_BLKSIZE);
	close(fd);
	free(buf);
	return path;
}

static uint8_t *slurp(const char *path)
{
	uint8_t *buf = malloc((size_t)NBLOCKS * F2FS_BLKSIZE);
	int fd = open(path, O_RDONLY);

	CHECK(fd >= 0 && pread(fd, buf, (size_t)NBLOCKS * F2FS_BLKSIZE, 0) ==
			 (ssize_t)NBLOCKS * F2FS_BLKSIZE);
	close(fd);
	return buf;
}

static void block_of(uint8_t *blk, uint8_t v)
{
	memset(blk, v, F2FS_BLKSIZE);
}

/* The run: blocks 3..6 (two of them zeroes), block 4 again, a sub-block
 * write in block 7, a zero-out of 10..19: 15 blocks saved. */
static void undo_run(struct f2fs_dev *dev)
{
	uint8_t blk[4 * F2FS_BLKSIZE];

	memset(blk, 0xab, sizeof(blk));
	CHECK(f2fs_dev_write(dev, 3, 4, blk) == 0);
	CHECK(f2fs_dev_write(dev, 4, 1, blk) == 0);
	CHECK(f2fs_dev_pwrite(dev, 7 * F2FS_BLKSIZE + 100, 10, blk) == 0);
	CHECK(f2fs_dev_zeroout(dev, 10, 10) == 0);
}

static void test_round_trip(void)
{
	const char *path = make_file("rt.img");
	char upath[512];
	struct f2fs_undo_file *u = NULL;
	struct f2fs_dev *dev = NULL;
	uint8_t *before = slurp(path), *after;
	uint64_t bad = 0;
	size_t zero_recs = 0;

	snprintf(upath, sizeof(upath), "%s/rt.undo", dir);
	CHECK(f2fs_dev_open(path, NULL, &dev) == 0);
	CHECK(f2fs_dev_start_undo(dev, upath) == 0);
	CHECK(f2fs_dev_start_undo(dev, upath) == -EBUSY);
	undo_run(dev);
	CHECK(f2fs_dev_finish_undo(dev) == 0);
	CHECK(f2fs_dev_finish_undo(dev) == 0);	/* idempotent */
	CHECK(f2fs_dev_start_undo(dev, upath) == -EEXIST);
	f2fs_dev_close(dev);

	CHECK(f2fs_undo_load(upath, &u) == 0);
	if (!u)
		return;
	CHECK(u->finished);
	CHECK(!u->torn);
	CHECK_EQ_U64(u->nblocks, 15);
	CHECK_EQ_U64(u->dev_bytes, (uint64_t)NBLOCKS * F2FS_BLKSIZE);
	for (size_t i = 0; i < u->nrecs; i++)
		zero_recs += u->recs[i].kind == F2FS_UNDO_ZERO;
	CHECK(zero_recs >= 1);	/* blocks 5 and 6 were zeroes */

	CHECK(f2fs_dev_open(path, NULL, &dev) == 0);
	CHECK(f2fs_undo_check_device(u, dev, &bad) == 0);
	CHECK(f2fs_undo_apply(u, dev) == 0);
	after = slurp(path);
	CHECK(memcmp(before, after, (size_t)NBLOCKS * F2FS_BLKSIZE) == 0);
	free(after);
	/* restored: every range holds its original, so it may run again */
	CHECK(f2fs_undo_check_device(u, dev, &bad) == 0);
	/* a saved block that holds neither: changed since */
	{
		uint8_t blk[F2FS_BLKSIZE];

		block_of(blk, 0x5a);
		CHECK(f2fs_dev_write(dev, 12, 1, blk) == 0);
	}
	bad = 0;
	CHECK(f2fs_undo_check_device(u, dev, &bad) == -ESTALE);
	CHECK(bad >= 10 && bad <= 12);
	f2fs_dev_close(dev);
	f2fs_undo_free(u);
	free(before);
}

static void truncate_file(const char *path, off_t cut)
{
	struct stat st;

	CHECK(stat(path, &st) == 0);
	CHECK(truncate(path, st.st_size - cut) == 0);
}

static void test_torn(void)
{
	const char *path = make_file("torn.img");
	char upath[512];
	struct f2fs_undo_file *u = NULL;
	struct f2fs_dev *dev = NULL;
	uint64_t bad = 0;
	size_t nrecs;

	snprintf(upath, sizeof(upath), "%s/torn.undo", dir);
	CHECK(f2fs_dev_open(path, NULL, &dev) == 0);
	CHECK(f2fs_dev_start_undo(dev, upath) == 0);
	undo_run(dev);
	f2fs_dev_close(dev);	/* finishes the file */
	CHECK(f2fs_undo_load(upath, &u) == 0);
	if (!u)
		return;
	nrecs = u->nrecs;
	f2fs_undo_free(u);
	/* the final record cut short: the records stay, unfinished */
	truncate_file(upath, 2);
	CHECK(f2fs_undo_load(upath, &u) == 0);
	if (!u)
		return;
	CHECK(!u->finished);
	CHECK(u->torn);
	CHECK_EQ_U64(u->nrecs, nrecs);
	CHECK(f2fs_dev_open(path, NULL, &dev) == 0);
	CHECK(f2fs_undo_check_device(u, dev, &bad) == 0);	/* size only */
	f2fs_dev_close(dev);
	f2fs_undo_free(u);
	/* a header that does not check is no undo file */
	{
		int fd = open(upath, O_WRONLY);

		CHECK(fd >= 0 && pwrite(fd, "X", 1, 40) == 1);
		close(fd);
	}
	CHECK(f2fs_undo_load(upath, &u) == -EBADMSG);
}

static void test_refusals(void)
{
	const char *path = make_file("ro.img");
	struct f2fs_dev_opts ro = { .read_only = true };
	struct f2fs_dev *dev = NULL;
	char upath[512];

	snprintf(upath, sizeof(upath), "%s/ro.undo", dir);
	CHECK(f2fs_dev_open(path, &ro, &dev) == 0);
	CHECK(f2fs_dev_start_undo(dev, upath) == -EROFS);
	CHECK(access(upath, F_OK) != 0);
	f2fs_dev_close(dev);
}

/* Plant (magic true) or wipe an F2FS superblock carrying UUID id[0] * 16
 * in block blk (0 or 1) of the image file. */
static void plant_sb(const char *path, uint64_t blk, bool magic, uint8_t id)
{
	uint8_t sb[sizeof(struct f2fs_super_block)];
	int fd = open(path, O_WRONLY);

	memset(sb, 0, sizeof(sb));
	if (magic)
		put_le32(sb + offsetof(struct f2fs_super_block, magic), F2FS_SUPER_MAGIC);
	memset(sb + offsetof(struct f2fs_super_block, uuid), id, 16);
	CHECK(fd >= 0 && pwrite(fd, sb, sizeof(sb), (off_t)(blk * F2FS_BLKSIZE +
			F2FS_SUPER_OFFSET)) == (ssize_t)sizeof(sb));
	close(fd);
}

/* Run undo_run() (and a write of block `also` unless it is 0) on path
 * with an undo file; load the file into *out. */
static void run_with_undo(const char *path, const char *name, uint64_t also,
			  struct f2fs_undo_file **out)
{
	struct f2fs_dev *dev = NULL;
	char upath[512];
	uint8_t blk[F2FS_BLKSIZE];

	snprintf(upath, sizeof(upath), "%s/%s", dir, name);
	*out = NULL;
	CHECK(f2fs_dev_open(path, NULL, &dev) == 0);
	if (!dev)
		return;
	CHECK(f2fs_dev_start_undo(dev, upath) == 0);
	undo_run(dev);
	memset(blk, 0x5a, sizeof(blk));
	if (also)
		CHECK(f2fs_dev_write(dev, also, 1, blk) == 0);
	CHECK(f2fs_dev_finish_undo(dev) == 0);
	f2fs_dev_close(dev);
	CHECK(f2fs_undo_load(upath, out) == 0);
}

static int check_fs(const struct f2fs_undo_file *u, const char *path)
{
	struct f2fs_dev *dev = NULL;
	int err;

	CHECK(f2fs_dev_open(path, NULL, &dev) == 0);
	if (!dev)
		return -EIO;
	err = f2fs_undo_check_fs(u, dev);
	f2fs_dev_close(dev);
	return err;
}

/* The header records the UUID of the superblock the device held before
 * the run (block 0's, else block 1's), and f2fs_undo_check_fs() refuses a
 * device holding another one, or none, unless the run rewrote it. */
static void test_fs_identity(void)
{
	const char *path = make_file("id.img");
	struct f2fs_undo_file *u;

	plant_sb(path, 0, true, 0x11);
	run_with_undo(path, "id.undo", 0, &u);
	CHECK(u && u->has_uuid && u->uuid_blk == 0 && u->uuid[0] == 0x11 && u->uuid[15] == 0x11);
	CHECK(check_fs(u, path) == 0);
	plant_sb(path, 0, true, 0x22);			/* another file system */
	CHECK(check_fs(u, path) == -EMEDIUMTYPE);
	plant_sb(path, 0, false, 0x11);			/* no F2FS any more */
	CHECK(check_fs(u, path) == -EMEDIUMTYPE);
	plant_sb(path, 1, true, 0x22);			/* another in the other copy */
	CHECK(check_fs(u, path) == -EMEDIUMTYPE);
	plant_sb(path, 1, true, 0x11);			/* the same one, other copy */
	CHECK(check_fs(u, path) == 0);
	f2fs_undo_free(u);

	/* Only the second copy has the magic: its UUID, block 1. */
	path = make_file("id1.img");
	plant_sb(path, 1, true, 0x33);
	run_with_undo(path, "id1.undo", 0, &u);
	CHECK(u && u->has_uuid && u->uuid_blk == 1 && u->uuid[7] == 0x33);
	CHECK(check_fs(u, path) == 0);
	f2fs_undo_free(u);

	/* The run rewrote that superblock (as mkfs does): not compared. */
	path = make_file("idw.img");
	plant_sb(path, 1, true, 0x44);
	run_with_undo(path, "idw.undo", 1, &u);
	CHECK(u && u->has_uuid && u->uuid_blk == 1);
	CHECK(check_fs(u, path) == 0);
	f2fs_undo_free(u);

	/* No F2FS before the run: nothing recorded, nothing compared. */
	path = make_file("idn.img");
	run_with_undo(path, "idn.undo", 0, &u);
	CHECK(u && !u->has_uuid);
	plant_sb(path, 0, true, 0x55);
	CHECK(check_fs(u, path) == 0);
	f2fs_undo_free(u);
}

/* Write one block of value v at blk. */
static int put(struct f2fs_dev *dev, uint64_t blk, uint8_t v)
{
	uint8_t b[F2FS_BLKSIZE];

	block_of(b, v);
	return f2fs_dev_write(dev, blk, 1, b);
}

static bool block_is(const uint8_t *img, uint64_t blk, uint8_t v)
{
	for (size_t i = 0; i < F2FS_BLKSIZE; i++)
		if (img[blk * F2FS_BLKSIZE + i] != v)
			return false;
	return true;
}

static bool block_original(const uint8_t *img, const uint8_t *orig, uint64_t blk)
{
	return !memcmp(img + blk * F2FS_BLKSIZE, orig + blk * F2FS_BLKSIZE, F2FS_BLKSIZE);
}

static void test_lost_writes(void)
{
	const char *path = make_file("lost.img");
	struct f2fs_dev *dev = NULL;
	uint8_t *orig = slurp(path), *img;

	CHECK(f2fs_dev_open(path, NULL, &dev) == 0);
	f2fs_dev_set_write_limit(dev, 4);
	CHECK(f2fs_dev_set_lost_writes(dev, 0x2) == 0);	/* the second newest */
	CHECK(put(dev, 1, 0x11) == 0);
	CHECK(f2fs_dev_flush(dev) == 0);
	CHECK(put(dev, 2, 0x22) == 0);
	CHECK(put(dev, 3, 0x33) == 0);
	CHECK(put(dev, 2, 0x44) == 0);	/* the 4th write: the cut */
	CHECK(put(dev, 9, 0x99) == 0);	/* dropped */
	f2fs_dev_close(dev);
	img = slurp(path);
	CHECK(block_is(img, 1, 0x11));	/* flushed */
	CHECK(block_original(img, orig, 3));	/* lost */
	CHECK(block_is(img, 2, 0x44));	/* the newest kept */
	CHECK(block_original(img, orig, 9));
	free(img);

	/* mask 0: only the writes after the cut are lost */
	path = make_file("lost0.img");
	CHECK(f2fs_dev_open(path, NULL, &dev) == 0);
	f2fs_dev_set_write_limit(dev, 2);
	CHECK(f2fs_dev_set_lost_writes(dev, 0) == 0);
	CHECK(put(dev, 2, 0x22) == 0 && put(dev, 3, 0x33) == 0 && put(dev, 4, 0x44) == 0);
	f2fs_dev_close(dev);
	img = slurp(path);
	CHECK(block_is(img, 2, 0x22) && block_is(img, 3, 0x33));
	CHECK(block_original(img, orig, 4));
	free(img);
	free(orig);
}

static void test_read_faults(void)
{
	const char *path = make_file("rf.img");
	struct f2fs_dev *dev = NULL;
	uint8_t buf[3 * F2FS_BLKSIZE];

	CHECK(f2fs_dev_open(path, NULL, &dev) == 0);
	CHECK(f2fs_dev_add_read_fault(dev, 2, false) == 0);
	CHECK(f2fs_dev_add_read_fault(dev, 20, true) == 0);
	CHECK(f2fs_dev_read(dev, 1, 1, buf) == 0);
	CHECK(f2fs_dev_read(dev, 1, 3, buf) == -EIO);
	CHECK(f2fs_dev_read(dev, 2, 1, buf) == -EIO);
	CHECK(f2fs_dev_read(dev, 18, 3, buf) == -EIO);	/* short inside the file */
	CHECK(f2fs_dev_read(dev, 21, 3, buf) == 0);
	f2fs_dev_close(dev);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	char cmd[512];

	snprintf(dir, sizeof(dir), "%s/f2fs-test-undo-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		fprintf(stderr, "mkdtemp failed\n");
		return 1;
	}
	test_round_trip();
	test_torn();
	test_refusals();
	test_fs_identity();
	test_lost_writes();
	test_read_faults();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "warning: could not remove %s\n", dir);
	return unit_finish("test_undo");
}
