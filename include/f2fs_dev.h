/*
 * f2fs_dev.h - the one I/O layer every tool goes through.
 *
 * A device is a regular file or a block device.  Reads can be batched
 * (runs of blocks, merged and read ahead); writes are counted and kept in
 * issue order, with explicit flush points.  Inside, a device is a stack of
 * layers over the file descriptor (lib/device_own.h): dry-run drops
 * writes; undo saves what a write overwrites first (f2fs_undo.h); test
 * layers drop every write after the N-th, so crash safety can be tested
 * by cutting a multi-write operation at every point, and make reads of
 * chosen blocks fail.  A zoned device (or an emulated zone model) carries
 * its zones (f2fs_dev_zoned), and writes obey the write-pointer rule: see
 * f2fs_zone.h.
 */
#ifndef F2FS_DEV_H
#define F2FS_DEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct f2fs_zoned;

struct f2fs_dev_opts {
	bool read_only;		/* open O_RDONLY; every write fails with -EROFS */
	bool exclusive;		/* O_EXCL on block devices (refuse if in use) */
	bool dry_run;		/* accept writes but drop them (counted) */
	bool direct;		/* reserved: O_DIRECT (not used by default) */
	const char *zone_model;	/* emulated zone model side file (f2fs_zone.h) */
	bool no_zone_model;	/* no PATH.zones lookup */
};

/* Read request sizes are counted in classes: 1 block, 2-3, 4-7, ...,
 * and the last class for 2^(F2FS_DEV_SIZE_CLASSES-1) blocks and more. */
#define F2FS_DEV_SIZE_CLASSES	12

struct f2fs_dev_stats {
	uint64_t read_calls;	/* pread/preadv system calls */
	uint64_t read_misses;	/* of them, reads the page cache could not serve
				 * at once (then announced and read again) */
	uint64_t read_blocks;
	/* read system calls by size class */
	uint64_t read_sizes[F2FS_DEV_SIZE_CLASSES];
	uint64_t write_calls;	/* accepted write requests */
	uint64_t write_blocks;
	uint64_t dropped_writes;/* writes dropped by dry-run or the cut hook */
	uint64_t flushes;
	uint64_t readahead_calls;
};

/* Up to this many further devices of a multi-device volume (f2fs_dev_attach). */
#define F2FS_DEV_MAX_MEMBERS	7

/* A device is opaque: its state belongs to the I/O layer (lib/device.c
 * and its layers); tools ask through these accessors. */
struct f2fs_dev;

/* The path it was opened by. */
const char *f2fs_dev_path(const struct f2fs_dev *dev);
/* Its size in bytes (after f2fs_dev_assume_size: the assumed size). */
uint64_t f2fs_dev_size(const struct f2fs_dev *dev);
/* The bytes it really holds: reads past them see zeroes (a truncated
 * image file, f2fs_dev_assume_size); f2fs_dev_size() otherwise. */
uint64_t f2fs_dev_file_bytes(const struct f2fs_dev *dev);
/* Logical sector size (512 for files). */
unsigned int f2fs_dev_sector_size(const struct f2fs_dev *dev);
bool f2fs_dev_is_regular(const struct f2fs_dev *dev);	/* an image file */
bool f2fs_dev_is_blkdev(const struct f2fs_dev *dev);	/* a block device */
bool f2fs_dev_is_read_only(const struct f2fs_dev *dev);
bool f2fs_dev_is_dry_run(const struct f2fs_dev *dev);
/* Its zone model (f2fs_zone.h), NULL when not zoned. */
struct f2fs_zoned *f2fs_dev_zoned(const struct f2fs_dev *dev);
/* The further devices attached to device 0 of a multi-device volume
 * (f2fs_dev_attach): how many; and the volume's i-th device (0: dev
 * itself, 1..count: the members; NULL past the last) with the volume
 * bytes [*start, *start + *len) it holds from its own offset 0 (either
 * pointer may be NULL). */
unsigned int f2fs_dev_member_count(const struct f2fs_dev *dev);
struct f2fs_dev *f2fs_dev_part(struct f2fs_dev *dev, unsigned int i, uint64_t *start,
			       uint64_t *len);
/* The request counters since open. */
const struct f2fs_dev_stats *f2fs_dev_stats(const struct f2fs_dev *dev);

/* One run of blocks for a batched read. */
struct f2fs_io_vec {
	uint64_t blkaddr;	/* in 4 KiB blocks */
	uint32_t nblocks;
	void *buf;		/* nblocks * 4096 bytes */
};

/* Memory for nblocks blocks of reads or writes, aligned to the block size
 * (zeroed by f2fs_blocks_zalloc); free() releases it.  NULL when out of
 * memory or nblocks is too large; 0 gives one block, as malloc(0) gives
 * a pointer.  Why aligned: the kernel copies a page out of the page cache
 * into a page-aligned buffer as one aligned run, and into malloc's memory,
 * 16 bytes off a page, the same copy costs 2-3 times as much on some
 * machines. */
void *f2fs_blocks_alloc(size_t nblocks);
void *f2fs_blocks_zalloc(size_t nblocks);

/* Block buffers a tool's passes hand on to each other.  Where a first
 * touch of a page costs most (a fault, and on paravirtualized machines a
 * shadow page table filled in: 10 us a page seen there, a third of a
 * small check's time), a buffer freed by one pass and allocated by the
 * next costs every page again.  f2fs_dev_buf_take() returns at least
 * nblocks blocks (aligned as f2fs_blocks_alloc's, content undefined):
 * of the buffers given back that are large enough the one whose last
 * user asked for most (the smallest of those), else a new one,
 * sizes rounded up to F2FS_DEV_BUF_GRANULE blocks so that they fit each
 * other; NULL when out of memory.  f2fs_dev_buf_give() takes it back
 * (nblocks as asked; NULL does nothing), keeping up to F2FS_DEV_SPARES
 * until f2fs_dev_close().  The tool's thread only; dev NULL: new
 * buffers, freed when given back. */
#define F2FS_DEV_BUF_GRANULE	256u
#define F2FS_DEV_SPARES		8u
void *f2fs_dev_buf_take(struct f2fs_dev *dev, size_t nblocks);
void f2fs_dev_buf_give(struct f2fs_dev *dev, void *buf, size_t nblocks);
/* Free the buffers given back but the keep most used: what a tool's next
 * steps will not take back would only hold memory. */
void f2fs_dev_buf_trim(struct f2fs_dev *dev, unsigned int keep);

int f2fs_dev_open(const char *path, const struct f2fs_dev_opts *opts,
		  struct f2fs_dev **out);
void f2fs_dev_close(struct f2fs_dev *dev);

/* Read nblocks 4 KiB blocks at blkaddr.  A short read past the end of the
 * device is -EIO. */
int f2fs_dev_read(struct f2fs_dev *dev, uint64_t blkaddr, uint32_t nblocks,
		  void *buf);
/* Read many runs: all runs are announced to the kernel first (readahead),
 * adjacent runs are merged into single vectored reads, then each is read. */
int f2fs_dev_read_batch(struct f2fs_dev *dev, struct f2fs_io_vec *vec,
			size_t n);
/* Reads a worker thread may make beside the tool's own: only what the
 * page cache holds (no waiting for the device, no readahead hint), into
 * each run's buf, sorted runs merged as f2fs_dev_read_batch() merges them.
 * The calls made are counted in *tally, which the tool's thread adds with
 * f2fs_dev_add_tally().  0 when every block was read, -EAGAIN when the
 * page cache lacked some (those runs are to be read the usual way),
 * another -errno on a bad run.  Only where f2fs_dev_reads_mt() says so:
 * no layer sees reads, one device, and the kernel takes RWF_NOWAIT on
 * the file.  The one change to the device: a refusal of RWF_NOWAIT is
 * remembered (atomically; the call returns -EAGAIN), and from then on
 * f2fs_dev_reads_mt() says false and the tool reads as without workers. */
struct f2fs_dev_tally {
	uint64_t read_calls;
	uint64_t read_blocks;
	uint64_t read_sizes[F2FS_DEV_SIZE_CLASSES];
};
bool f2fs_dev_reads_mt(const struct f2fs_dev *dev);
int f2fs_dev_read_cached_mt(struct f2fs_dev *dev, const struct f2fs_io_vec *vec, size_t n,
			    struct f2fs_dev_tally *tally);
void f2fs_dev_add_tally(struct f2fs_dev *dev, const struct f2fs_dev_tally *tally);
/* Hint that a range will be read soon (posix_fadvise WILLNEED). */
int f2fs_dev_readahead(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t nblocks);
/* Hint that a range is done with: the page cache may drop its clean
 * pages (posix_fadvise DONTNEED; benchmarks use it to read cold).  Device
 * 0's own blocks; a range past the end is clipped. */
int f2fs_dev_forget_cached(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t nblocks);
/* Queue the hints given from now on instead of issuing them: the plan
 * of what the tool will read, in the order it wants it. */
int f2fs_dev_defer_readahead(struct f2fs_dev *dev);
/* Stop queueing; from now on a thread of the device layer brings the
 * queued hints into the page cache, in order, at the device's pace, with
 * a bounded window in flight (lib/device_stream.c): the tool goes on at
 * once, and a block it reads that the stream has not reached yet queues
 * behind that window only.  Hints given from now on are issued at once.
 * The thread ends with the plan or at f2fs_dev_close(). */
void f2fs_dev_issue_readahead(struct f2fs_dev *dev);

/* Write nblocks blocks.  Writes are issued in call order.
 *
 * Write requests (f2fs_dev_write, f2fs_dev_pwrite, f2fs_dev_discard,
 * f2fs_dev_zeroout) share one policy: -EROFS when read_only; a range past
 * the end is -ENOSPC for writes, -EINVAL for discard/zero-out; otherwise
 * the request is dropped (returns 0, counted in stats.dropped_writes) in a
 * dry run or when stats.write_calls (and an undo file's records) reached
 * the write limit, and is performed (counted in stats.write_calls)
 * otherwise.  A dry run does not change what later reads return. */
int f2fs_dev_write(struct f2fs_dev *dev, uint64_t blkaddr, uint32_t nblocks,
		   const void *buf);
/* Write a byte range (for sub-block structures); prefer block writes. */
int f2fs_dev_pwrite(struct f2fs_dev *dev, uint64_t offset, size_t len,
		    const void *buf);
int f2fs_dev_pread(struct f2fs_dev *dev, uint64_t offset, size_t len, void *buf);
/* A flush point: everything written before is durable before anything
 * written after. */
int f2fs_dev_flush(struct f2fs_dev *dev);
/* Discard (punch a hole in a file, BLKDISCARD on a device).  Returns
 * -EOPNOTSUPP when the device cannot discard. */
int f2fs_dev_discard(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t nblocks);
/* Make a range read back as zeroes, without writing data where possible. */
int f2fs_dev_zeroout(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t nblocks);

/* Multi-device volumes.  f2fs_dev_set_own_blocks() says how many blocks
 * of the volume device 0 holds; f2fs_dev_attach() hands it the next
 * device (opened by the caller with the same options; closed with dev),
 * which holds volume blocks [start_blk, start_blk + nblocks) from its own
 * block 0.  Members come in address order, back to back or with a gap
 * that nothing may read.  From then on every request on dev addresses the
 * whole volume: it is cut at device boundaries and each piece goes to the
 * device holding it; writes are admitted once by dev (dry-run, the
 * write-limit hook).  -EINVAL for a member out of order, too small, or
 * one too many. */
void f2fs_dev_set_own_blocks(struct f2fs_dev *dev, uint64_t nblocks);
int f2fs_dev_attach(struct f2fs_dev *dev, struct f2fs_dev *member, uint64_t start_blk,
		    uint64_t nblocks);

/* A truncated volume: the device holds fewer bytes than the volume on it.
 * From now on the device is taken to be `bytes` long: reads past its real
 * end (file_bytes) see zeroes.  Single devices only; -EINVAL otherwise or
 * when bytes is not more than the device holds. */
int f2fs_dev_assume_size(struct f2fs_dev *dev, uint64_t bytes);
/* After f2fs_dev_assume_size on an image file: grow the file to the
 * assumed size (sparse, through the write policy: a dry run or the write
 * limit drops it).  -EOPNOTSUPP for a block device (it cannot grow). */
int f2fs_dev_grow_file(struct f2fs_dev *dev);
/* Cut an image file back to bytes (undo of a grown truncated image),
 * through the write policy, and flush.  -EOPNOTSUPP for a block device,
 * -EINVAL when bytes is not less than its size. */
int f2fs_dev_shrink_file(struct f2fs_dev *dev, uint64_t bytes);

/* Test hook: drop (silently succeed) every write request after the n-th
 * performed since open (stats.write_calls); 0 = off. */
void f2fs_dev_set_write_limit(struct f2fs_dev *dev, uint64_t n);
/* Test hook, with the write limit: the cut also loses writes performed
 * since the last flush, as a disk cache may: bit i of mask loses the
 * i-th of them counting back from the cut (bit 0: the last one; the bits
 * repeat every 64).  mask 0: only the suffix is lost, as without the
 * hook.  -EOPNOTSUPP on a zoned device or a multi-device volume. */
int f2fs_dev_set_lost_writes(struct f2fs_dev *dev, uint64_t mask);
/* Test hook: a read that reaches block blkaddr fails there, with -EIO
 * (short false) or as a short read (the device returns the bytes before
 * the block, then nothing: what a read past the end of a device sees).
 * Device 0's own blocks only; up to F2FS_DEV_MAX_FAULTS. */
#define F2FS_DEV_MAX_FAULTS	16
int f2fs_dev_add_read_fault(struct f2fs_dev *dev, uint64_t blkaddr, bool short_read);

/* Whether path (a block device or an image file backing a loop device) is
 * mounted, from /proc/self/mountinfo.  *where receives a malloc'd mount
 * point when mounted (caller frees), may be NULL. */
int f2fs_dev_check_mounted(const char *path, bool *mounted, char **where);

/* The mountinfo scan behind f2fs_dev_check_mounted(): whether a mount of
 * device number dev is listed in the mountinfo-format file at path (octal
 * escapes in mount points are decoded).  Same *mounted / *where contract. */
int f2fs_mountinfo_lookup(const char *mountinfo, dev_t dev, bool *mounted,
			  char **where);

#endif
