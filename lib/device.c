/*
 * device.c - the I/O layer's front and its bottom layer: every read and
 * write of an F2FS volume goes through a struct f2fs_dev opened here.
 *
 * The front checks each request (read-only refuses, ranges) and hands
 * changes and flushes to the layer stack (device_own.h; dry-run, undo
 * and the test layers live in their own files).  The unix layer at the
 * bottom owns opening regular files and block devices (size, sector
 * size, O_EXCL), block and byte reads and writes with EINTR/short-
 * transfer handling, batched reads (sorted, read ahead, merged into
 * vectored reads across small gaps), performing writes, discard and
 * zero-out (routed to the members of a multi-device volume by devset.c),
 * flush points; and detecting whether a device or image file is mounted.
 * Nothing here prints.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/falloc.h>
#include <linux/fs.h>

#include "device_own.h"
#include "f2fs_array.h"
#include "f2fs_dev.h"
#include "f2fs_fs.h"
#include "f2fs_undo.h"
#include "f2fs_zone.h"
#include "uring.h"

#ifndef IOV_MAX
#define IOV_MAX 1024
#endif

#define ZERO_CHUNK		(1u << 20)	/* fallback zero-out write size */
#define MAX_BLOCK_ADDR		(UINT64_MAX >> F2FS_BLKSIZE_BITS)
#define MOUNTINFO_PATH		"/proc/self/mountinfo"
#define SYS_BLOCK_PATH		"/sys/block"

static const struct f2fs_layer_ops unix_ops;

/* ---- opening ---------------------------------------------------------- */

static int open_flags(const struct f2fs_dev_opts *opts, bool blkdev)
{
	int flags = O_CLOEXEC;

	/* A dry run never writes, so it never needs write access. */
	flags |= (opts->read_only || opts->dry_run) ? O_RDONLY : O_RDWR;
	if (blkdev && opts->exclusive)
		flags |= O_EXCL;
	if (opts->direct)
		flags |= O_DIRECT;
	return flags;
}

static int query_blkdev_geometry(struct f2fs_dev *dev)
{
	uint64_t bytes;
	int sector;

	if (ioctl(dev->fd, BLKGETSIZE64, &bytes) < 0)
		return -errno;
	if (ioctl(dev->fd, BLKSSZGET, &sector) < 0)
		return -errno;
	if (sector < 512 || sector > F2FS_BLKSIZE)
		return -EINVAL;
	dev->size_bytes = bytes;
	dev->sector_size = (unsigned int)sector;
	return 0;
}

static int query_geometry(struct f2fs_dev *dev, const struct stat *st)
{
	if (dev->is_blkdev)
		return query_blkdev_geometry(dev);
	dev->size_bytes = (uint64_t)st->st_size;
	dev->sector_size = 512;
	return 0;
}

/* Open path with flags and make sure it is still the kind of file that
 * stat() saw (the flags depend on it).  Reads leave the access time
 * alone when the caller may ask that (the file's owner, or root): the
 * kernel otherwise weighs an atime update at every read call, and a
 * check makes tens of thousands of them. */
static int open_checked(const char *path, int flags, bool blkdev, struct stat *st)
{
	int fd = open(path, flags | O_NOATIME);
	int err;

	if (fd < 0 && errno == EPERM)
		fd = open(path, flags);
	if (fd < 0)
		return -errno;
	if (fstat(fd, st) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	if ((bool)S_ISBLK(st->st_mode) != blkdev ||
	    !(S_ISBLK(st->st_mode) || S_ISREG(st->st_mode))) {
		close(fd);
		return -EBUSY;
	}
	return fd;
}

int f2fs_dev_open(const char *path, const struct f2fs_dev_opts *opts,
		  struct f2fs_dev **out)
{
	static const struct f2fs_dev_opts defaults;
	struct f2fs_dev *dev;
	struct stat st;
	bool blkdev;
	int err;

	if (!path || !out)
		return -EINVAL;
	*out = NULL;
	if (!opts)
		opts = &defaults;
	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode))
		return -ENOTBLK;
	blkdev = S_ISBLK(st.st_mode);

	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return -ENOMEM;
	dev->fd = -1;
	atomic_init(&dev->nowait_refused, false);
	atomic_init(&dev->ring_refused, false);
	for (unsigned int i = 0; i < F2FS_DEV_RINGS; i++)
		atomic_flag_clear(&dev->ring_busy[i]);
	dev->unix_layer.ops = &unix_ops;
	dev->unix_layer.dev = dev;
	dev->top = &dev->unix_layer;
	dev->path = strdup(path);
	if (!dev->path) {
		err = -ENOMEM;
		goto fail;
	}
	dev->fd = open_checked(path, open_flags(opts, blkdev), blkdev, &st);
	if (dev->fd < 0) {
		err = dev->fd;
		goto fail;
	}
	dev->is_blkdev = blkdev;
	dev->is_regular = !blkdev;
	dev->read_only = opts->read_only;
	err = opts->dry_run ? f2fs_dryrun_push(dev) : 0;
	if (!err)
		err = query_geometry(dev, &st);
	if (err < 0)
		goto fail;
	err = f2fs_zone_attach(dev, opts->zone_model, !opts->no_zone_model);
	if (err < 0)
		goto fail;
	dev->own_bytes = dev->size_bytes;
	dev->file_bytes = dev->size_bytes;
	*out = dev;
	return 0;
fail:
	f2fs_dev_close(dev);
	return err;
}

void f2fs_dev_close(struct f2fs_dev *dev)
{
	if (!dev)
		return;
	/* undo finishes its file (the tool reports errors by finishing it
	 * first), a write cut falls after the last write */
	f2fs_layer_close_all(dev);
	f2fs_devset_close(dev);
	f2fs_stream_free(dev);	/* before the descriptor closes */
	(void)f2fs_zone_model_save(dev->zoned);	/* f2fs_dev_flush reports errors */
	f2fs_zoned_free(dev->zoned);
	for (unsigned int i = 0; i < F2FS_DEV_RINGS; i++)
		f2fs_uring_close(dev->ring[i]);
	if (dev->fd >= 0)
		close(dev->fd);
	for (unsigned int i = 0; i < dev->nspare; i++)
		free(dev->spare[i].buf);
	free(dev->path);
	free(dev);
}

/* ---- accessors -------------------------------------------------------- */

const char *f2fs_dev_path(const struct f2fs_dev *dev)
{
	return dev->path;
}

uint64_t f2fs_dev_size(const struct f2fs_dev *dev)
{
	return dev->size_bytes;
}

uint64_t f2fs_dev_file_bytes(const struct f2fs_dev *dev)
{
	return dev->file_bytes;
}

unsigned int f2fs_dev_sector_size(const struct f2fs_dev *dev)
{
	return dev->sector_size;
}

bool f2fs_dev_is_regular(const struct f2fs_dev *dev)
{
	return dev->is_regular;
}

bool f2fs_dev_is_blkdev(const struct f2fs_dev *dev)
{
	return dev->is_blkdev;
}

bool f2fs_dev_is_read_only(const struct f2fs_dev *dev)
{
	return dev->read_only;
}

struct f2fs_zoned *f2fs_dev_zoned(const struct f2fs_dev *dev)
{
	return dev->zoned;
}

unsigned int f2fs_dev_member_count(const struct f2fs_dev *dev)
{
	return dev->nmembers;
}

struct f2fs_dev *f2fs_dev_part(struct f2fs_dev *dev, unsigned int i, uint64_t *start,
			       uint64_t *len)
{
	uint64_t s = 0, l = dev->own_bytes;

	if (i > dev->nmembers)
		return NULL;
	if (i) {
		s = dev->members[i - 1].start;
		l = dev->members[i - 1].len;
	}
	if (start)
		*start = s;
	if (len)
		*len = l;
	return i ? dev->members[i - 1].dev : dev;
}

const struct f2fs_dev_stats *f2fs_dev_stats(const struct f2fs_dev *dev)
{
	return &dev->stats;
}

/* ---- ranges ----------------------------------------------------------- */

/* Convert a block range to bytes; -EINVAL if it cannot be expressed. */
static int block_range(uint64_t blkaddr, uint64_t nblocks, uint64_t *off, uint64_t *len)
{
	if (blkaddr > MAX_BLOCK_ADDR || nblocks > MAX_BLOCK_ADDR)
		return -EINVAL;
	*off = blkaddr << F2FS_BLKSIZE_BITS;
	*len = nblocks << F2FS_BLKSIZE_BITS;
	return 0;
}

static bool range_inside(const struct f2fs_dev *dev, uint64_t off, uint64_t len)
{
	return len <= dev->size_bytes && off <= dev->size_bytes - len;
}

/* Validate a byte range for a transfer into one memory buffer. */
static int check_transfer(const struct f2fs_dev *dev, uint64_t off, uint64_t len,
			  int outside_err)
{
	if (len > SSIZE_MAX || off > (uint64_t)INT64_MAX)
		return -EINVAL;
	if (!range_inside(dev, off, len))
		return outside_err;
	return 0;
}

/* ---- plain transfers -------------------------------------------------- */

static int preadv_full(struct f2fs_dev *dev, struct iovec *iov, int cnt, uint64_t off);

/* One buffer: the vectored reader with a single iovec. */
static int pread_full(struct f2fs_dev *dev, void *buf, size_t len, uint64_t off)
{
	struct iovec v = { .iov_base = buf, .iov_len = len };

	return preadv_full(dev, &v, 1, off);
}

static int pwrite_full(struct f2fs_dev *dev, const void *buf, size_t len, uint64_t off);

int f2fs_dev_pwrite_raw(struct f2fs_dev *dev, const void *buf, size_t len, uint64_t off)
{
	return pwrite_full(dev, buf, len, off);
}

static int pwrite_full(struct f2fs_dev *dev, const void *buf, size_t len, uint64_t off)
{
	const uint8_t *p = buf;

	while (len > 0) {
		ssize_t n = pwrite(dev->fd, p, len, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

static uint64_t blocks_covering(uint64_t len)
{
	return (len + F2FS_BLKSIZE - 1) >> F2FS_BLKSIZE_BITS;
}

/* On a real zoned device, write a sequential zone's pages now, in order:
 * page-cache writeback could otherwise reach the device out of order. */
static void push_zoned_write(struct f2fs_dev *dev, uint64_t off, uint64_t len)
{
	if (dev->is_blkdev && !dev->zoned->emulated)
		(void)sync_file_range(dev->fd, (off_t)off, (off_t)len,
				      SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
				      SYNC_FILE_RANGE_WAIT_AFTER);
}

/* A performed write on this device alone: the zone rule first when the
 * device is zoned, then the write, then its write pointers. */
static int pwrite_own(struct f2fs_dev *dev, const void *buf, size_t len, uint64_t off)
{
	int err = dev->zoned ? f2fs_zone_check_write(dev->zoned, off, len) : 0;

	if (err < 0)
		return err;
	err = pwrite_full(dev, buf, len, off);
	if (err == 0)
		dev->stats.write_blocks += blocks_covering(len);
	if (err == 0 && dev->zoned) {
		push_zoned_write(dev, off, len);
		f2fs_zone_note_write(dev->zoned, off, len);
	}
	return err;
}

/* A request's piece on device 0 or on a member (multi-device volumes). */
struct xfer {
	struct f2fs_dev *dev0;
	uint8_t *buf;
	const uint8_t *cbuf;
	/* discard / zero-out of an admitted range on one device */
	int (*range)(struct f2fs_dev *dev, uint64_t off, uint64_t len);
};

static int pread_own(struct f2fs_dev *dev, uint64_t offset, size_t len, void *buf)
{
	int err = check_transfer(dev, offset, len, -EIO);

	if (err < 0)
		return err;
	err = pread_full(dev, buf, len, offset);
	if (err == 0)
		dev->stats.read_blocks += blocks_covering(len);
	return err;
}

static int pread_piece(struct f2fs_dev *d, uint64_t local, uint64_t len, uint64_t done, void *arg)
{
	struct xfer *x = arg;

	return d ? f2fs_dev_pread(d, local, (size_t)len, x->buf + done) :
		   pread_own(x->dev0, local, (size_t)len, x->buf + done);
}

int f2fs_dev_pread_own(struct f2fs_dev *dev, uint64_t offset, size_t len, void *buf)
{
	return pread_own(dev, offset, len, buf);
}

int f2fs_dev_pread(struct f2fs_dev *dev, uint64_t offset, size_t len, void *buf)
{
	struct xfer x = { .dev0 = dev, .buf = buf };

	if (len == 0)
		return 0;
	if (!buf)
		return -EINVAL;
	if (dev->nmembers)
		return f2fs_devset_split(dev, offset, len, -EIO, pread_piece, &x);
	return pread_own(dev, offset, len, buf);
}

int f2fs_dev_read(struct f2fs_dev *dev, uint64_t blkaddr, uint32_t nblocks, void *buf)
{
	uint64_t off, len;
	int err = block_range(blkaddr, nblocks, &off, &len);

	if (err < 0)
		return err;
	return f2fs_dev_pread(dev, off, (size_t)len, buf);
}

int f2fs_dev_assume_size(struct f2fs_dev *dev, uint64_t bytes)
{
	if (dev->nmembers || bytes <= dev->file_bytes)
		return -EINVAL;
	dev->size_bytes = bytes;
	dev->own_bytes = bytes;
	return 0;
}

/* ---- the unix layer: changes and flushes ------------------------------ */

static int check_write_piece(struct f2fs_dev *d, uint64_t local, uint64_t len, uint64_t done,
			     void *arg)
{
	struct xfer *x = arg;

	(void)done;
	return check_transfer(d ? d : x->dev0, local, len, -ENOSPC);
}

static int pwrite_piece(struct f2fs_dev *d, uint64_t local, uint64_t len, uint64_t done, void *arg)
{
	struct xfer *x = arg;

	if (d)	/* same options as device 0, no write limit: performs */
		return f2fs_dev_pwrite(d, local, (size_t)len, x->cbuf + done);
	return pwrite_own(x->dev0, x->cbuf + done, (size_t)len, local);
}

/* A piece of a routed discard or zero-out: the request was admitted once
 * by device 0, so a member does the operation itself. */
static int range_piece(struct f2fs_dev *d, uint64_t local, uint64_t len, uint64_t done, void *arg)
{
	struct xfer *x = arg;

	(void)done;
	return x->range(d ? d : x->dev0, local, len);
}

/* An image file's size changes (grown over a truncated volume's missing
 * tail, or cut back by an undo). */
static int resize_file(struct f2fs_dev *dev, uint64_t bytes)
{
	if (bytes > dev->file_bytes) {
		if (ftruncate(dev->fd, (off_t)bytes) < 0)
			return -errno;
		dev->file_bytes = bytes;
		return 0;
	}
	if (ftruncate(dev->fd, (off_t)bytes) < 0 || fsync(dev->fd) < 0)
		return -errno;
	dev->file_bytes = bytes;
	dev->size_bytes = bytes;
	dev->own_bytes = bytes;
	return 0;
}

/* A change every layer above let through: counted as performed, then
 * done, cut at device boundaries on a multi-device volume. */
static int unix_change(struct f2fs_layer *l, const struct f2fs_change *c)
{
	struct f2fs_dev *dev = l->dev;
	struct xfer x = { .dev0 = dev, .cbuf = c->buf, .range = c->range };

	dev->stats.write_calls++;
	switch (c->kind) {
	case F2FS_CHANGE_WRITE:
		if (dev->nmembers)
			return f2fs_devset_split(dev, c->off, c->len, -ENOSPC, pwrite_piece, &x);
		return pwrite_own(dev, c->buf, (size_t)c->len, c->off);
	case F2FS_CHANGE_RANGE:
		if (dev->nmembers)
			return f2fs_devset_split(dev, c->off, c->len, -EINVAL, range_piece, &x);
		return c->range(dev, c->off, c->len);
	case F2FS_CHANGE_RESIZE:
		return resize_file(dev, c->off);
	}
	return -EINVAL;
}

static int unix_flush(struct f2fs_layer *l)
{
	struct f2fs_dev *dev = l->dev;
	int ret, err = f2fs_devset_flush(dev);

	ret = f2fs_zone_model_save(dev->zoned);
	if (ret < 0 && !err)
		err = ret;
	ret = dev->is_blkdev ? fsync(dev->fd) : fdatasync(dev->fd);
	if (ret < 0 && errno == EINVAL)
		ret = fsync(dev->fd);	/* a file system without fdatasync */
	return ret < 0 ? -errno : err;
}

static ssize_t unix_preadv(struct f2fs_layer *l, struct iovec *iov, int cnt, uint64_t off)
{
	return preadv(l->dev->fd, iov, cnt, (off_t)off);
}

static const struct f2fs_layer_ops unix_ops = {
	.name = "unix",
	.rank = 100,
	.change = unix_change,
	.flush = unix_flush,
	.preadv = unix_preadv,
};

/* ---- changes: checked here, then down the stack ----------------------- */

/* Hand a checked change to the stack: 0 when it was performed or
 * dropped (counted by the layer that dropped it), -errno. */
static int submit(struct f2fs_dev *dev, enum f2fs_change_kind kind, uint64_t off, uint64_t len,
		  const void *buf, int (*range)(struct f2fs_dev *, uint64_t, uint64_t))
{
	const struct f2fs_change c = { .kind = kind, .off = off, .len = len, .buf = buf,
				       .range = range };
	int err = f2fs_layer_change(dev->top, &c);

	return err == F2FS_LAYER_DROPPED ? 0 : err;
}

int f2fs_dev_pwrite(struct f2fs_dev *dev, uint64_t offset, size_t len, const void *buf)
{
	struct xfer x = { .dev0 = dev, .cbuf = buf };
	int err;

	if (dev->read_only)
		return -EROFS;
	if (len == 0)
		return 0;
	if (!buf)
		return -EINVAL;
	if (dev->nmembers)	/* the whole request is checked once, then split */
		err = f2fs_devset_split(dev, offset, len, -ENOSPC, check_write_piece, &x);
	else
		err = check_transfer(dev, offset, len, -ENOSPC);
	if (err < 0)
		return err;
	return submit(dev, F2FS_CHANGE_WRITE, offset, len, buf, NULL);
}

int f2fs_dev_write(struct f2fs_dev *dev, uint64_t blkaddr, uint32_t nblocks,
		   const void *buf)
{
	uint64_t off, len;
	int err;

	if (dev->read_only)
		return -EROFS;
	err = block_range(blkaddr, nblocks, &off, &len);
	if (err < 0)
		return err;
	return f2fs_dev_pwrite(dev, off, (size_t)len, buf);
}

int f2fs_dev_grow_file(struct f2fs_dev *dev)
{
	if (dev->read_only)
		return -EROFS;
	if (!dev->is_regular)
		return -EOPNOTSUPP;
	if (dev->file_bytes >= dev->size_bytes || dev->size_bytes > (uint64_t)INT64_MAX)
		return 0;
	return submit(dev, F2FS_CHANGE_RESIZE, dev->size_bytes, 0, NULL, NULL);
}

int f2fs_dev_shrink_file(struct f2fs_dev *dev, uint64_t bytes)
{
	if (dev->read_only)
		return -EROFS;
	if (!dev->is_regular || dev->nmembers)
		return -EOPNOTSUPP;
	if (bytes >= dev->file_bytes)
		return -EINVAL;
	return submit(dev, F2FS_CHANGE_RESIZE, bytes, 0, NULL, NULL);
}

int f2fs_dev_flush(struct f2fs_dev *dev)
{
	dev->stats.flushes++;
	if (dev->read_only)
		return 0;
	return f2fs_layer_flush(dev->top);
}

/* ---- buffers ------------------------------------------------------------ */

void *f2fs_blocks_alloc(size_t nblocks)
{
	if (nblocks > SIZE_MAX / F2FS_BLKSIZE)
		return NULL;
	if (nblocks == 0)
		nblocks = 1;	/* as malloc(0): a pointer free() takes */
	return aligned_alloc(F2FS_BLKSIZE, nblocks * F2FS_BLKSIZE);
}

static size_t granules(size_t nblocks)
{
	size_t g = F2FS_DEV_BUF_GRANULE;

	if (nblocks == 0)
		nblocks = 1;
	return nblocks > SIZE_MAX - g ? 0 : (nblocks + g - 1) / g * g;
}

static bool better_spare(const struct f2fs_dev_spare *a, const struct f2fs_dev_spare *b)
{
	return a->used != b->used ? a->used > b->used : a->nblocks < b->nblocks;
}

void *f2fs_dev_buf_take(struct f2fs_dev *dev, size_t nblocks)
{
	size_t want = granules(nblocks);
	unsigned int best = F2FS_DEV_SPARES;
	void *buf;

	if (!want)
		return NULL;
	/* of those large enough, the one whose pages were used most */
	for (unsigned int i = 0; dev && i < dev->nspare; i++)
		if (dev->spare[i].nblocks >= want &&
		    (best == F2FS_DEV_SPARES || better_spare(&dev->spare[i], &dev->spare[best])))
			best = i;
	if (best == F2FS_DEV_SPARES)
		return f2fs_blocks_alloc(want);
	buf = dev->spare[best].buf;
	dev->spare[best] = dev->spare[--dev->nspare];
	return buf;
}

void f2fs_dev_buf_give(struct f2fs_dev *dev, void *buf, size_t nblocks)
{
	size_t have = granules(nblocks);

	if (!buf)
		return;
	if (!dev || !have || dev->nspare == F2FS_DEV_SPARES) {
		free(buf);
		return;
	}
	dev->spare[dev->nspare++] = (struct f2fs_dev_spare){
		.buf = buf, .nblocks = have, .used = nblocks };
}

void f2fs_dev_buf_trim(struct f2fs_dev *dev, unsigned int keep)
{
	while (dev && dev->nspare > keep) {
		unsigned int worst = 0;

		for (unsigned int i = 1; i < dev->nspare; i++)
			if (better_spare(&dev->spare[worst], &dev->spare[i]))
				worst = i;
		free(dev->spare[worst].buf);
		dev->spare[worst] = dev->spare[--dev->nspare];
	}
}

void *f2fs_blocks_zalloc(size_t nblocks)
{
	void *p = f2fs_blocks_alloc(nblocks);

	if (p)
		memset(p, 0, nblocks * F2FS_BLKSIZE);
	return p;
}

/* ---- readahead and batched reads -------------------------------------- */

/* Linux reads at most max(io_pages, ra_pages) of one WILLNEED hint and
 * silently drops the rest, so a long range is announced in pieces. */
#define WILLNEED_CHUNK		(1u << 20)

/* One hint (counted once), however many pieces it takes. */
static int advise_willneed(struct f2fs_dev *dev, uint64_t off, uint64_t len)
{
	dev->stats.readahead_calls++;
	while (len) {
		uint64_t piece = len < WILLNEED_CHUNK ? len : WILLNEED_CHUNK;
		int ret = posix_fadvise(dev->fd, (off_t)off, (off_t)piece, POSIX_FADV_WILLNEED);

		if (ret)
			return -ret;
		off += piece;
		len -= piece;
	}
	return 0;
}

static int readahead_piece(struct f2fs_dev *d, uint64_t local, uint64_t len, uint64_t done,
			   void *arg)
{
	struct xfer *x = arg;

	(void)done;
	if (d)
		return f2fs_dev_readahead(d, local >> F2FS_BLKSIZE_BITS, len >> F2FS_BLKSIZE_BITS);
	if (f2fs_stream_queue(x->dev0, local, len))
		return 0;
	return advise_willneed(x->dev0, local, len);
}

int f2fs_dev_readahead(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t nblocks)
{
	struct xfer x = { .dev0 = dev };
	uint64_t off, len;

	if (block_range(blkaddr, nblocks, &off, &len) < 0)
		return -EINVAL;
	if (dev->nmembers && len)	/* a hint: the pieces no device holds are dropped */
		return f2fs_devset_split(dev, off, len, 0, readahead_piece, &x);
	/* A hint: clip it to the device instead of failing. */
	if (off >= dev->size_bytes || len == 0)
		return 0;
	if (len > dev->size_bytes - off)
		len = dev->size_bytes - off;
	if (f2fs_stream_queue(dev, off, len))
		return 0;
	return advise_willneed(dev, off, len);
}

int f2fs_dev_forget_cached(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t nblocks)
{
	uint64_t off, len;
	int ret;

	if (block_range(blkaddr, nblocks, &off, &len) < 0)
		return -EINVAL;
	if (off >= dev->size_bytes || len == 0 || off > (uint64_t)INT64_MAX)
		return 0;
	if (len > dev->size_bytes - off)
		len = dev->size_bytes - off;
	ret = posix_fadvise(dev->fd, (off_t)off, (off_t)len, POSIX_FADV_DONTNEED);
	return -ret;
}

static int compare_runs(const void *a, const void *b)
{
	const struct f2fs_io_vec *x = a, *y = b;

	if (x->blkaddr != y->blkaddr)
		return x->blkaddr < y->blkaddr ? -1 : 1;
	if (x->nblocks != y->nblocks)
		return x->nblocks < y->nblocks ? -1 : 1;
	return 0;
}

/* Whether runs are in compare_runs() order already (the walk's batches
 * come sorted): then qsort(), a merge sort, would leave them as they are. */
static bool runs_in_order(const struct f2fs_io_vec *runs, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (compare_runs(&runs[i - 1], &runs[i]) > 0)
			return false;
	return true;
}

static uint64_t run_end(const struct f2fs_io_vec *run)
{
	return run->blkaddr + run->nblocks;
}

static int check_run(const struct f2fs_dev *dev, const struct f2fs_io_vec *run)
{
	uint64_t off, len;
	int err;

	if (!run->buf)
		return -EINVAL;
	err = block_range(run->blkaddr, run->nblocks, &off, &len);
	if (err < 0)
		return err;
	return check_transfer(dev, off, len, -EIO);
}

/* Copy the non-empty runs, checking each; *count receives how many. */
static int collect_runs(const struct f2fs_dev *dev, const struct f2fs_io_vec *vec,
			size_t n, struct f2fs_io_vec *runs, size_t *count)
{
	size_t kept = 0;

	for (size_t i = 0; i < n; i++) {
		int err;

		if (vec[i].nblocks == 0)
			continue;
		err = check_run(dev, &vec[i]);
		if (err < 0)
			return err;
		runs[kept++] = vec[i];
	}
	*count = kept;
	return 0;
}

/* Runs closer than this are announced as one hint (one system call for
 * them; the kernel reads the gap along).  No wider than the gap one read
 * takes along (READ_GAP_BLOCKS): the runs a batch announces are those
 * the page cache missed, on a scattered layout a few blocks each, and a
 * wider gap read whole stretches of a node segment that nothing needs. */
#define ANNOUNCE_GAP_BLOCKS	4u
/* Runs at most this many blocks apart are read by one preadv, the gap
 * going to a scratch buffer (a copy of a few blocks costs less than a
 * system call). */
#define READ_GAP_BLOCKS		4u

/* Whether the sorted runs form a single back-to-back span. */
static bool one_span(const struct f2fs_io_vec *runs, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (runs[i].blkaddr != run_end(&runs[i - 1]))
			return false;
	return n <= IOV_MAX;
}

/* Announce the (sorted) runs, one hint per stretch whose runs are at most
 * ANNOUNCE_GAP_BLOCKS apart.  A batch read by a single preadv is not
 * announced: the read itself is the request. */
static void announce_runs(struct f2fs_dev *dev, const struct f2fs_io_vec *runs, size_t n)
{
	size_t i = 0;

	if (one_span(runs, n))
		return;
	while (i < n) {
		uint64_t start = runs[i].blkaddr, end = run_end(&runs[i]);

		for (i++; i < n && runs[i].blkaddr <= end + ANNOUNCE_GAP_BLOCKS; i++)
			if (run_end(&runs[i]) > end)
				end = run_end(&runs[i]);
		advise_willneed(dev, start << F2FS_BLKSIZE_BITS,
				(end - start) << F2FS_BLKSIZE_BITS);
	}
}

/* End of file at off: a truncated volume's missing tail reads as zeroes
 * (the caller checked the range against the assumed size); anywhere else
 * it is an I/O error. */
static int zero_past_end(const struct f2fs_dev *dev, struct iovec *iov, int cnt, uint64_t off)
{
	if (off < dev->file_bytes)
		return -EIO;
	for (int i = 0; i < cnt; i++)
		memset(iov[i].iov_base, 0, iov[i].iov_len);
	return 0;
}

/* The size class of a request of n blocks (f2fs_dev_stats). */
static unsigned int size_class(uint64_t blocks)
{
	unsigned int c = 0;

	while (blocks > 1 && c < F2FS_DEV_SIZE_CLASSES - 1) {
		blocks >>= 1;
		c++;
	}
	return c;
}

/* Count one read system call that returned n (bytes, or -1) in a pair
 * of counters: the device's statistics or a worker's tally. */
static void count_read_call(uint64_t *calls, uint64_t *sizes, ssize_t n)
{
	(*calls)++;
	if (n > 0)
		sizes[size_class(blocks_covering((uint64_t)n))]++;
}

/* One read system call, through the layers that see reads (the
 * read-fault layer may make an error or fewer bytes of it: 0 as at the
 * end of the device). */
static ssize_t preadv_once(struct f2fs_dev *dev, struct iovec *iov, int cnt, uint64_t off)
{
	return f2fs_layer_preadv(dev->top, iov, cnt, off);
}

/* preadv until every iovec is filled, advancing over short reads. */
static int preadv_full(struct f2fs_dev *dev, struct iovec *iov, int cnt, uint64_t off)
{
	while (cnt > 0) {
		ssize_t n = preadv_once(dev, iov, cnt, (off_t)off);

		count_read_call(&dev->stats.read_calls, dev->stats.read_sizes, n);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return zero_past_end(dev, iov, cnt, off);
		off += (uint64_t)n;
		while (cnt > 0 && (size_t)n >= iov->iov_len) {
			n -= (ssize_t)iov->iov_len;
			iov++;
			cnt--;
		}
		if (cnt > 0 && n > 0) {
			iov->iov_base = (uint8_t *)iov->iov_base + n;
			iov->iov_len -= (size_t)n;
		}
	}
	return 0;
}

/* Fill iov for runs[0..) read as one preadv: back-to-back runs, or runs
 * separated by at most READ_GAP_BLOCKS (the gap read into scratch).  Stops
 * at an overlap (a block asked twice), a wider gap or iov_max iovecs.
 * Returns the number of runs taken, at least one (n and iov_max are never
 * 0, and runs[0] is neither an overlap nor after a gap): a caller's loop
 * over the runs always moves on.  *niov and *blocks (requested blocks)
 * describe the read. */
static size_t gather_span(const struct f2fs_io_vec *runs, size_t n, struct iovec *iov,
			  size_t iov_max, void *scratch, int *niov, uint64_t *blocks)
{
	size_t k = 0, v = 0;
	uint64_t end = runs[0].blkaddr;

	*blocks = 0;
	while (k < n && v < iov_max) {
		uint64_t gap;

		if (runs[k].blkaddr < end)
			break;
		gap = runs[k].blkaddr - end;
		if (gap > (k ? READ_GAP_BLOCKS : 0) || (gap && v + 1 >= iov_max))
			break;
		if (gap) {
			iov[v].iov_base = scratch;
			iov[v++].iov_len = (size_t)gap << F2FS_BLKSIZE_BITS;
		}
		iov[v].iov_base = runs[k].buf;
		iov[v++].iov_len = (size_t)runs[k].nblocks << F2FS_BLKSIZE_BITS;
		*blocks += runs[k].nblocks;
		end = run_end(&runs[k]);
		k++;
	}
	*niov = (int)v;
	return k;
}

/* Whether a cached read (RWF_NOWAIT) was refused on this device before:
 * the kernel (no preadv2, or too old for the flag) or the file (a file
 * system that cannot read without blocking) will refuse every one. */
static bool nowait_refused(const struct f2fs_dev *dev)
{
	return atomic_load_explicit(&dev->nowait_refused, memory_order_relaxed);
}

/* After a failed RWF_NOWAIT read: whether errno says the flag itself was
 * refused (then remembered, from any thread) rather than a miss. */
static bool note_nowait_refusal(struct f2fs_dev *dev, int err)
{
	if (err != EOPNOTSUPP && err != ENOSYS && err != EINVAL)
		return false;
	atomic_store_explicit(&dev->nowait_refused, true, memory_order_relaxed);
	return true;
}

static uint64_t iov_bytes(const struct iovec *iov, int niov)
{
	uint64_t bytes = 0;

	for (int v = 0; v < niov; v++)
		bytes += iov[v].iov_len;
	return bytes;
}

/* ---- cached reads, many in one system call ---- */

/* Ring slots one submission fills (spans of runs). */
#define RING_ENTRIES	64u

/* A ring of this thread's own for a while, or -1 (none free, none made:
 * then preadv2, one call per span). */
static int take_ring(struct f2fs_dev *dev)
{
	if (atomic_load_explicit(&dev->ring_refused, memory_order_relaxed))
		return -1;
	for (unsigned int i = 0; i < F2FS_DEV_RINGS; i++) {
		if (atomic_flag_test_and_set_explicit(&dev->ring_busy[i], memory_order_acquire))
			continue;
		if (!dev->ring[i] && f2fs_uring_open(RING_ENTRIES, &dev->ring[i]) < 0) {
			atomic_store_explicit(&dev->ring_refused, true, memory_order_relaxed);
			atomic_flag_clear_explicit(&dev->ring_busy[i], memory_order_release);
			return -1;
		}
		f2fs_uring_register_file(dev->ring[i], dev->fd);
		return (int)i;
	}
	return -1;
}

static void give_ring(struct f2fs_dev *dev, int i)
{
	atomic_flag_clear_explicit(&dev->ring_busy[i], memory_order_release);
}

/* A ring that failed is closed and given back, and no ring is used any
 * more; -1, for the caller's ring number. */
static int drop_ring(struct f2fs_dev *dev, int i)
{
	f2fs_uring_close(dev->ring[i]);
	dev->ring[i] = NULL;
	atomic_store_explicit(&dev->ring_refused, true, memory_order_relaxed);
	give_ring(dev, i);
	return -1;
}

/* Where the spans of one submission come from. */
struct cached_span {
	size_t first, k;	/* runs[first, first + k) */
	uint64_t blocks;	/* blocks asked for (not the gaps) */
	uint64_t bytes;		/* the read's bytes, gaps included */
};

/* Spans from runs[*i..n) for one submission: at most RING_ENTRIES of them
 * and iov_max iovecs. */
static size_t gather_spans(const struct f2fs_dev *dev, const struct f2fs_io_vec *runs, size_t n,
			   size_t *i, struct iovec *iov, size_t iov_max, void *scratch,
			   struct f2fs_uring_read *rd, struct cached_span *sp)
{
	size_t m = 0, v = 0;

	while (*i < n && m < RING_ENTRIES && v < iov_max) {
		uint64_t blocks;
		int niov;
		size_t k = gather_span(runs + *i, n - *i, iov + v, iov_max - v, scratch, &niov,
				       &blocks);

		rd[m] = (struct f2fs_uring_read){
			.iov = iov + v, .niov = niov, .fd = dev->fd,
			.off = runs[*i].blkaddr << F2FS_BLKSIZE_BITS,
		};
		sp[m++] = (struct cached_span){
			.first = *i, .k = k, .blocks = blocks, .bytes = iov_bytes(iov + v, niov),
		};
		v += (size_t)niov;
		*i += k;
	}
	return m;
}

/* What one cached read of a span brought: its bytes, or -errno. */
static ssize_t span_result(const struct f2fs_uring_read *rd, bool by_ring)
{
	ssize_t n;

	if (by_ring)
		return rd->res;
	n = preadv2(rd->fd, rd->iov, rd->niov, (off_t)rd->off, RWF_NOWAIT);
	return n < 0 ? -errno : n;
}

/* Read what the page cache holds of runs[0..n) (sorted, checked), through
 * a ring when there is one, else one preadv2 per span, without waiting
 * for the device; done(arg, span, got) hears of every span in order.  The
 * calls are counted in calls/sizes (one per span, by either way).  0, or
 * -EAGAIN as soon as RWF_NOWAIT is refused (remembered in the device;
 * runs[*heard..n), not heard of, are to be read the usual way). */
static int read_cached_spans(struct f2fs_dev *dev, const struct f2fs_io_vec *runs, size_t n,
			     struct iovec *iov, size_t iov_max, void *scratch, uint64_t *calls,
			     uint64_t *sizes,
			     void (*done)(void *arg, const struct cached_span *sp, bool got),
			     void *arg, size_t *heard)
{
	struct f2fs_uring_read rd[RING_ENTRIES];
	struct cached_span sp[RING_ENTRIES];
	int ring = n > 1 ? take_ring(dev) : -1;
	size_t i = 0;

	while (i < n) {
		size_t m = gather_spans(dev, runs, n, &i, iov, iov_max, scratch, rd, sp);
		bool by_ring = ring >= 0 && m > 1 &&
			       f2fs_uring_readv(dev->ring[ring], rd, m, true) == 0;

		if (ring >= 0 && m > 1 && !by_ring)
			ring = drop_ring(dev, ring);
		for (size_t j = 0; j < m; j++) {
			ssize_t got = span_result(&rd[j], by_ring);

			if (by_ring && (got == -EINVAL || got == -EOPNOTSUPP)) {
				/* the ring refused the flag: the way without it decides */
				ring = drop_ring(dev, ring);
				by_ring = false;
				got = span_result(&rd[j], false);
			}
			count_read_call(calls, sizes, got);
			if (got < 0 && note_nowait_refusal(dev, (int)-got)) {
				if (ring >= 0)
					give_ring(dev, ring);
				*heard = sp[j].first;
				return -EAGAIN;
			}
			done(arg, &sp[j], got >= 0 && (uint64_t)got == sp[j].bytes);
		}
	}
	if (ring >= 0)
		give_ring(dev, ring);
	return 0;
}

/* The tool's thread: spans the page cache served are counted, the others
 * moved to the front of runs. */
struct cached_pass {
	struct f2fs_dev *dev;
	struct f2fs_io_vec *runs;
	size_t missed;
};

static void cached_pass_span(void *arg, const struct cached_span *sp, bool got)
{
	struct cached_pass *cp = arg;

	if (got) {
		cp->dev->stats.read_blocks += sp->blocks;
		return;
	}
	cp->dev->stats.read_misses++;
	memmove(cp->runs + cp->missed, cp->runs + sp->first, sp->k * sizeof(*cp->runs));
	cp->missed += sp->k;
}

/* Read first what the page cache already holds, without waiting for the
 * device; the runs it does not hold are moved to the front of runs and
 * their count returned, to be announced together and then read (so a
 * warm run makes no hint at all, and a cold one hints only what is
 * missing).  The read-fault hook sees every read: no cached pass then.
 * A span moves only over runs before its own (missed never passes the
 * spans still to come), so the runs not heard of yet stay in place. */
static size_t read_cached_runs(struct f2fs_dev *dev, struct f2fs_io_vec *runs, size_t n,
			       struct iovec *iov, size_t iov_max, void *scratch)
{
	struct cached_pass cp = { .dev = dev, .runs = runs };
	size_t heard;

	if (dev->faults || nowait_refused(dev))
		return n;
	if (read_cached_spans(dev, runs, n, iov, iov_max, scratch, &dev->stats.read_calls,
			      dev->stats.read_sizes, cached_pass_span, &cp, &heard) == 0)
		return cp.missed;
	/* refused midway (a miss): the runs not heard of join the missed ones */
	dev->stats.read_misses++;
	memmove(runs + cp.missed, runs + heard, (n - heard) * sizeof(*runs));
	return cp.missed + (n - heard);
}

static int read_sorted_runs(struct f2fs_dev *dev, const struct f2fs_io_vec *runs, size_t n,
			    struct iovec *iov, size_t iov_max, void *scratch)
{
	size_t i = 0;

	while (i < n) {
		uint64_t blocks;
		int niov, err;
		size_t k = gather_span(runs + i, n - i, iov, iov_max, scratch, &niov, &blocks);

		err = preadv_full(dev, iov, niov, runs[i].blkaddr << F2FS_BLKSIZE_BITS);
		if (err < 0)
			return err;
		dev->stats.read_blocks += blocks;
		i += k;
	}
	return 0;
}

int f2fs_dev_read_batch(struct f2fs_dev *dev, struct f2fs_io_vec *vec, size_t n)
{
	if (dev->nmembers)
		return f2fs_devset_read_batch(dev, vec, n);
	return f2fs_dev_read_batch_own(dev, vec, n);
}

int f2fs_dev_read_batch_own(struct f2fs_dev *dev, struct f2fs_io_vec *vec, size_t n)
{
	size_t iov_max = IOV_MAX;	/* gaps take iovecs too */
	struct f2fs_io_vec *runs;
	struct iovec *iov;
	void *scratch;
	size_t count;
	int err;

	if (n == 0)
		return 0;
	if (!vec || n > SIZE_MAX / sizeof(*runs))
		return -EINVAL;
	runs = malloc(n * sizeof(*runs));
	iov = malloc(iov_max * sizeof(*iov));
	scratch = f2fs_blocks_alloc(READ_GAP_BLOCKS);
	if (!runs || !iov || !scratch) {
		err = -ENOMEM;
		goto out;
	}
	err = collect_runs(dev, vec, n, runs, &count);
	if (err < 0 || count == 0)
		goto out;
	if (!runs_in_order(runs, count))
		qsort(runs, count, sizeof(*runs), compare_runs);
	count = read_cached_runs(dev, runs, count, iov, iov_max, scratch);
	announce_runs(dev, runs, count);
	err = read_sorted_runs(dev, runs, count, iov, iov_max, scratch);
out:
	free(scratch);
	free(iov);
	free(runs);
	return err;
}

/* ---- cached reads from a worker thread ---------------------------------- */

bool f2fs_dev_reads_mt(const struct f2fs_dev *dev)
{
	return dev->nmembers == 0 && !f2fs_layer_sees_reads(dev) && !nowait_refused(dev);
}

/* The iovecs one worker call takes at most (a stretch of a batch). */
#define MT_IOV_MAX	64u

/* A worker's span: counted when served, else the call says -EAGAIN. */
struct cached_mt {
	struct f2fs_dev_tally *tally;
	bool missed;
};

static void cached_mt_span(void *arg, const struct cached_span *sp, bool got)
{
	struct cached_mt *cm = arg;

	if (got)
		cm->tally->read_blocks += sp->blocks;
	else
		cm->missed = true;
}

int f2fs_dev_read_cached_mt(struct f2fs_dev *dev, const struct f2fs_io_vec *vec, size_t n,
			    struct f2fs_dev_tally *tally)
{
	_Alignas(F2FS_BLKSIZE) uint8_t scratch[READ_GAP_BLOCKS << F2FS_BLKSIZE_BITS];
	struct iovec iov[MT_IOV_MAX];
	struct cached_mt cm = { .tally = tally };
	size_t heard;

	if (!f2fs_dev_reads_mt(dev))
		return -EOPNOTSUPP;
	for (size_t k = 0; k < n; k++) {
		int err = check_run(dev, &vec[k]);

		if (err < 0)
			return err;
	}
	if (read_cached_spans(dev, vec, n, iov, MT_IOV_MAX, scratch, &tally->read_calls,
			      tally->read_sizes, cached_mt_span, &cm, &heard) < 0)
		return -EAGAIN;	/* refused: these runs and every later one the usual way */
	return cm.missed ? -EAGAIN : 0;
}

void f2fs_dev_add_tally(struct f2fs_dev *dev, const struct f2fs_dev_tally *tally)
{
	dev->stats.read_calls += tally->read_calls;
	dev->stats.read_blocks += tally->read_blocks;
	for (unsigned int c = 0; c < F2FS_DEV_SIZE_CLASSES; c++)
		dev->stats.read_sizes[c] += tally->read_sizes[c];
}

/* ---- discard and zero-out --------------------------------------------- */

static bool is_unsupported(int err)
{
	return err == EOPNOTSUPP || err == ENOTTY || err == ENOSYS;
}

static int punch_hole(struct f2fs_dev *dev, uint64_t off, uint64_t len)
{
	int mode = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE;

	if (fallocate(dev->fd, mode, (off_t)off, (off_t)len) == 0)
		return 0;
	return is_unsupported(errno) ? -EOPNOTSUPP : -errno;
}

static int blkdev_range_ioctl(struct f2fs_dev *dev, unsigned long request,
			      uint64_t off, uint64_t len)
{
	uint64_t range[2] = { off, len };

	if (ioctl(dev->fd, request, range) == 0)
		return 0;
	return is_unsupported(errno) ? -EOPNOTSUPP : -errno;
}

static int discard_own(struct f2fs_dev *dev, uint64_t off, uint64_t len)
{
	int err = dev->zoned ? f2fs_zone_check_discard(dev->zoned, off, len) : 0;

	if (err < 0)
		return err;
	if (dev->is_blkdev)
		return blkdev_range_ioctl(dev, BLKDISCARD, off, len);
	return punch_hole(dev, off, len);
}

static int zeroout_own(struct f2fs_dev *dev, uint64_t off, uint64_t len);

/* Discard or zero-out (fn on one device): checked here, then down the
 * stack, which cuts it at the device boundaries on a multi-device volume. */
static int range_op(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t nblocks,
		    int (*fn)(struct f2fs_dev *, uint64_t, uint64_t))
{
	struct xfer x = { .dev0 = dev, .range = fn };
	uint64_t off, len;
	int err;

	if (dev->read_only)
		return -EROFS;
	err = block_range(blkaddr, nblocks, &off, &len);
	if (err < 0)
		return err;
	if (!dev->nmembers && (!range_inside(dev, off, len) || off > (uint64_t)INT64_MAX))
		return -EINVAL;
	if (len == 0)
		return 0;
	if (dev->nmembers) {
		err = f2fs_devset_split(dev, off, len, -EINVAL, check_write_piece, &x);
		if (err < 0)
			return err == -ENOSPC ? -EINVAL : err;
	}
	return submit(dev, F2FS_CHANGE_RANGE, off, len, NULL, fn);
}

int f2fs_dev_range_op(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t nblocks,
		      int (*fn)(struct f2fs_dev *, uint64_t, uint64_t))
{
	return range_op(dev, blkaddr, nblocks, fn);
}

int f2fs_dev_discard(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t nblocks)
{
	return range_op(dev, blkaddr, nblocks, discard_own);
}

static int write_zeroes(struct f2fs_dev *dev, uint64_t off, uint64_t len)
{
	uint8_t *zero = f2fs_blocks_zalloc(ZERO_CHUNK / F2FS_BLKSIZE);
	int err = 0;

	if (!zero)
		return -ENOMEM;
	while (len > 0 && err == 0) {
		size_t chunk = len < ZERO_CHUNK ? (size_t)len : ZERO_CHUNK;

		err = pwrite_full(dev, zero, chunk, off);
		off += chunk;
		len -= chunk;
	}
	free(zero);
	return err;
}

static int zero_file_range(struct f2fs_dev *dev, uint64_t off, uint64_t len)
{
	int mode = FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE;

	if (fallocate(dev->fd, mode, (off_t)off, (off_t)len) == 0)
		return 0;
	if (!is_unsupported(errno))
		return -errno;
	return punch_hole(dev, off, len);
}

static int zeroout_own(struct f2fs_dev *dev, uint64_t off, uint64_t len)
{
	int ret = dev->zoned ? f2fs_zone_check_write(dev->zoned, off, len) : 0;

	if (ret < 0)
		return ret;
	if (dev->is_blkdev)
		ret = blkdev_range_ioctl(dev, BLKZEROOUT, off, len);
	else
		ret = zero_file_range(dev, off, len);
	if (ret == -EOPNOTSUPP)
		ret = write_zeroes(dev, off, len);
	if (ret == 0)
		dev->stats.write_blocks += len >> F2FS_BLKSIZE_BITS;
	if (ret == 0 && dev->zoned)
		f2fs_zone_note_write(dev->zoned, off, len);
	return ret;
}

int f2fs_dev_zeroout(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t nblocks)
{
	return range_op(dev, blkaddr, nblocks, zeroout_own);
}

/* ---- mount detection -------------------------------------------------- */

static int octal_digit(char c)
{
	return c >= '0' && c <= '7' ? c - '0' : -1;
}

/* Undo the \ooo escapes the kernel uses for space, tab, newline and '\'. */
static void unescape_octal(char *s)
{
	char *out = s;

	while (*s) {
		int a, b, c;

		if (s[0] == '\\' && (a = octal_digit(s[1])) >= 0 &&
		    (b = octal_digit(s[2])) >= 0 && (c = octal_digit(s[3])) >= 0) {
			*out++ = (char)(a * 64 + b * 8 + c);
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

/* Split a mountinfo line: "id parent major:minor root mountpoint ...".
 * The mount point is unescaped in place. */
static bool parse_mountinfo_line(char *line, unsigned int *maj, unsigned int *min,
				 char **mnt)
{
	char *save = NULL, *field = NULL;
	char extra;

	for (int i = 0; i < 5; i++) {
		field = strtok_r(i ? NULL : line, " \n", &save);
		if (!field)
			return false;
		if (i == 2 && sscanf(field, "%u:%u%c", maj, min, &extra) != 2)
			return false;
	}
	unescape_octal(field);
	*mnt = field;
	return true;
}

static int report_mount(const char *mnt, bool *mounted, char **where)
{
	*mounted = true;
	if (!where)
		return 0;
	*where = strdup(mnt);
	return *where ? 0 : -ENOMEM;
}

int f2fs_mountinfo_lookup(const char *mountinfo, dev_t dev, bool *mounted, char **where)
{
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	int err = 0;

	*mounted = false;
	if (where)
		*where = NULL;
	f = fopen(mountinfo, "re");
	if (!f)
		return -errno;
	while (getline(&line, &cap, f) >= 0) {
		unsigned int maj, min;
		char *mnt;

		if (!parse_mountinfo_line(line, &maj, &min, &mnt))
			continue;
		if (maj == major(dev) && min == minor(dev)) {
			err = report_mount(mnt, mounted, where);
			break;
		}
	}
	free(line);
	fclose(f);
	return err;
}

/* Read a one-line sysfs attribute without its newline. */
bool f2fs_read_sysfs_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

/* Whether the loop device's backing file is the file we were given, by
 * path or by identity (the same file reached by another name). */
static bool backs_loop(const char *backing, const char *real, const struct stat *st)
{
	struct stat bst;

	if (real && strcmp(backing, real) == 0)
		return true;
	return stat(backing, &bst) == 0 && S_ISREG(bst.st_mode) &&
	       bst.st_dev == st->st_dev && bst.st_ino == st->st_ino;
}

/* If loop device `name` is backed by our file and mounted, say so. */
static int check_one_loop(const char *name, const char *real, const struct stat *st,
			  bool *mounted, char **where)
{
	char path[PATH_MAX], backing[PATH_MAX], devno[32];
	unsigned int maj, min;
	char extra;

	snprintf(path, sizeof(path), SYS_BLOCK_PATH "/%s/loop/backing_file", name);
	if (!f2fs_read_sysfs_line(path, backing, sizeof(backing)))
		return 0;	/* not attached */
	if (!backs_loop(backing, real, st))
		return 0;
	snprintf(path, sizeof(path), SYS_BLOCK_PATH "/%s/dev", name);
	if (!f2fs_read_sysfs_line(path, devno, sizeof(devno)) ||
	    sscanf(devno, "%u:%u%c", &maj, &min, &extra) != 2)
		return 0;
	return f2fs_mountinfo_lookup(MOUNTINFO_PATH, makedev(maj, min), mounted, where);
}

static int check_loop_backing(const char *path, const struct stat *st, bool *mounted,
			      char **where)
{
	char *real = realpath(path, NULL);
	DIR *dir = opendir(SYS_BLOCK_PATH);
	struct dirent *de;
	int err = 0;

	if (!dir) {
		free(real);
		return 0;	/* no sysfs: no loop devices to look at */
	}
	while (!*mounted && err == 0 && (de = readdir(dir)) != NULL) {
		if (strncmp(de->d_name, "loop", 4) == 0)
			err = check_one_loop(de->d_name, real, st, mounted, where);
	}
	closedir(dir);
	free(real);
	return err;
}

int f2fs_dev_check_mounted(const char *path, bool *mounted, char **where)
{
	struct stat st;

	if (!path || !mounted)
		return -EINVAL;
	*mounted = false;
	if (where)
		*where = NULL;
	if (stat(path, &st) < 0)
		return -errno;
	if (S_ISBLK(st.st_mode))
		return f2fs_mountinfo_lookup(MOUNTINFO_PATH, st.st_rdev, mounted, where);
	if (S_ISREG(st.st_mode))
		return check_loop_backing(path, &st, mounted, where);
	return 0;
}
