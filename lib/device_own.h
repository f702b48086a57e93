/*
 * device_own.h - private to the I/O layer's files in lib/: the single-
 * device halves of the I/O layer that devset.c calls for device 0's own
 * pieces of a multi-device request, and the splitter; and struct
 * f2fs_dev itself, which the tools see only through f2fs_dev.h's
 * accessors.
 */
#ifndef F2FS_DEVICE_OWN_H
#define F2FS_DEVICE_OWN_H

#include <stdbool.h>
#include <stdint.h>

#include "f2fs_dev.h"

struct f2fs_ra_queue;
struct f2fs_zoned;
struct f2fs_undo;
struct f2fs_lost_writes;
struct f2fs_read_faults;

/* A further device of a multi-device volume (f2fs_dev_attach). */
struct f2fs_dev_member {
	struct f2fs_dev *dev;
	uint64_t start, len;	/* the volume bytes it holds, from its offset 0 */
};

/* The device's state: opaque outside lib/ (f2fs_dev.h's accessors). */
struct f2fs_dev {
	int fd;
	char *path;
	bool is_blkdev;
	bool is_regular;
	bool read_only;
	bool dry_run;
	uint64_t size_bytes;	/* device or file size (f2fs_dev_assume_size: more) */
	uint64_t file_bytes;	/* what the device really holds: reads past it see zeroes */
	unsigned int sector_size;	/* logical sector size (512 for files) */
	uint64_t write_limit;	/* 0: unlimited; else drop writes after this many */
	const uint8_t *map;	/* read-only mapping of the whole device, or NULL */
	struct f2fs_ra_queue *ra;	/* deferred hints (f2fs_dev_defer_readahead) */
	struct f2fs_zoned *zoned;	/* zone model (f2fs_zone.h), NULL: not zoned */
	/* multi-device volumes: device 0 holds volume bytes [0, own_bytes)
	 * (its size unless f2fs_dev_set_own_blocks said less), the members
	 * the rest; requests are routed by lib/devset.c */
	uint64_t own_bytes;
	struct f2fs_dev_member members[F2FS_DEV_MAX_MEMBERS];
	unsigned int nmembers;
	uint64_t view_lo, view_hi;	/* bytes handed out since the last release */
	uint64_t view_blocks;
	struct f2fs_undo *undo;	/* undo file being written (f2fs_undo.h), or NULL */
	struct f2fs_lost_writes *lost;	/* lost-writes test hook (lib/devcut.c) */
	struct f2fs_read_faults *faults;	/* read-fault test hook (lib/devcut.c) */
	struct f2fs_dev_stats stats;
};

/* A one-line sysfs attribute without its newline (lib/device.c). */
bool f2fs_read_sysfs_line(const char *path, char *buf, size_t size);

/* A read of device 0's own bytes, past the undo and routing layers. */
int f2fs_dev_pread_own(struct f2fs_dev *dev, uint64_t offset, size_t len, void *buf);

/* The undo writer (lib/undo.c), called for a write the policy admitted,
 * before it is performed: saves the blocks of [off, off + len) not saved
 * yet and syncs them.  0 to go on, 1 when the write-limit hook cut the
 * undo file (the write and every later one are dropped), -errno. */
int f2fs_undo_save(struct f2fs_undo *u, struct f2fs_dev *dev, uint64_t off, uint64_t len);
/* Records appended so far (they count with the device's writes against
 * the write limit). */
uint64_t f2fs_undo_appends(const struct f2fs_undo *u);

/* A write on device 0 that no layer sees (lib/devcut.c's roll-back). */
int f2fs_dev_pwrite_raw(struct f2fs_dev *dev, const void *buf, size_t len, uint64_t off);

/* The lost-writes hook (lib/devcut.c): journal a write about to be
 * performed (after NULL: zeroes), forget the epoch at a flush, apply the
 * loss at the cut (once), free. */
int f2fs_cut_note(struct f2fs_dev *dev, uint64_t off, uint64_t len, const void *after);
void f2fs_cut_forget(struct f2fs_dev *dev);
void f2fs_cut_apply(struct f2fs_dev *dev);
void f2fs_cut_free(struct f2fs_dev *dev);

/* The read-fault hook (lib/devcut.c): how many of the len bytes at off
 * can be read before a faulty block; *err is -EIO when that block fails
 * with an error, 0 when it reads short.  len when no fault is in the way. */
uint64_t f2fs_fault_room(const struct f2fs_dev *dev, uint64_t off, uint64_t len, int *err);

int f2fs_dev_read_batch_own(struct f2fs_dev *dev, struct f2fs_io_vec *vec, size_t n);
int f2fs_dev_read_batch_view_own(struct f2fs_dev *dev, struct f2fs_io_vec *vec, size_t n);

/* Called for each piece of a volume byte range: d is the member holding
 * it, or NULL for device 0 itself; local is the offset on that device;
 * done how far into the range the piece starts.  Non-zero stops. */
typedef int (*f2fs_devset_piece_fn)(struct f2fs_dev *d, uint64_t local, uint64_t len,
				    uint64_t done, void *arg);
/* Cut [off, off + len) at device boundaries; a byte no device holds
 * returns `outside`. */
int f2fs_devset_split(struct f2fs_dev *dev, uint64_t off, uint64_t len, int outside,
		      f2fs_devset_piece_fn fn, void *arg);
int f2fs_devset_read_batch(struct f2fs_dev *dev, struct f2fs_io_vec *vec, size_t n, bool view);
int f2fs_devset_flush(struct f2fs_dev *dev);
void f2fs_devset_close(struct f2fs_dev *dev);

/* A request over volume blocks like discard (read-only refused, admitted
 * once by the write policy, cut at device boundaries): fn does one
 * device's piece, in bytes of that device (lib/zone.c's reset, finish). */
int f2fs_dev_range_op(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t nblocks,
		      int (*fn)(struct f2fs_dev *, uint64_t, uint64_t));

#endif
