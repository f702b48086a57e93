/*
 * device_own.h - private to lib/device.c and lib/devset.c: the single-
 * device halves of the I/O layer that devset.c calls for device 0's own
 * pieces of a multi-device request, and the splitter.
 */
#ifndef F2FS_DEVICE_OWN_H
#define F2FS_DEVICE_OWN_H

#include <stdbool.h>
#include <stdint.h>

#include "f2fs_dev.h"

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
