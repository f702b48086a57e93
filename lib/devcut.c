/*
 * devcut.c - the lost-writes test hook of the device layer: a power cut
 * (the write-limit hook) that also loses a chosen subset of the writes
 * issued since the last flush, as a disk's volatile cache may, and not
 * only the writes after the cut.  A writer that forgot a flush barrier
 * (a commit block that can reach the disk before what it commits) is
 * caught by it; a writer with its barriers survives any subset.
 *
 * While the hook is set, every performed write, discard and zero-out of
 * the current flush epoch is journalled in memory with the content it
 * replaced and the content it wrote (NULL: zeroes).  A flush forgets the
 * epoch.  At the cut the epoch is rolled back (previous contents in
 * reverse order) and the kept writes are done again in order, so each
 * block ends with the last kept write to it, or its content from before
 * the epoch.  Single, non-zoned devices only.
 *
 * The read-fault hook makes reads that reach chosen blocks fail with EIO
 * or come back short, so the read error paths of the tools can be tested
 * (device.c asks f2fs_fault_room() before each read system call and
 * refuses to map the device).  Nothing here prints.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "device_own.h"
#include "f2fs_array.h"
#include "f2fs_dev.h"
#include "f2fs_fs.h"

struct epoch_write {
	uint64_t off, len;
	uint8_t *before;	/* what the write replaced */
	uint8_t *after;		/* what it wrote; NULL: zeroes */
};

struct f2fs_lost_writes {
	uint64_t mask;		/* bit i: the i-th write back from the cut is lost */
	bool cut;		/* the cut was applied */
	struct epoch_write *w;
	size_t n, cap;
};

int f2fs_dev_set_lost_writes(struct f2fs_dev *dev, uint64_t mask)
{
	if (dev->zoned || dev->nmembers)
		return -EOPNOTSUPP;
	if (!dev->lost) {
		dev->lost = calloc(1, sizeof(*dev->lost));
		if (!dev->lost)
			return -ENOMEM;
	}
	dev->lost->mask = mask;
	return 0;
}

void f2fs_cut_forget(struct f2fs_dev *dev)
{
	struct f2fs_lost_writes *l = dev->lost;

	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++) {
		free(l->w[i].before);
		free(l->w[i].after);
	}
	l->n = 0;
}

void f2fs_cut_free(struct f2fs_dev *dev)
{
	if (!dev->lost)
		return;
	f2fs_cut_forget(dev);
	free(dev->lost->w);
	free(dev->lost);
	dev->lost = NULL;
}

static uint8_t *copy_of(const void *buf, uint64_t len)
{
	uint8_t *p = malloc(len ? (size_t)len : 1);

	if (p && len)
		memcpy(p, buf, (size_t)len);
	return p;
}

int f2fs_cut_note(struct f2fs_dev *dev, uint64_t off, uint64_t len, const void *after)
{
	struct f2fs_lost_writes *l = dev->lost;
	struct epoch_write *w;
	int err;

	if (!l || l->cut || len > SIZE_MAX)
		return 0;
	if (F2FS_ARRAY_ROOM(l->w, l->cap, l->n + 1, 32))
		return -ENOMEM;
	w = &l->w[l->n];
	w->off = off;
	w->len = len;
	w->before = malloc((size_t)len ? (size_t)len : 1);
	w->after = after ? copy_of(after, len) : NULL;
	if (!w->before || (after && !w->after)) {
		free(w->before);
		free(w->after);
		return -ENOMEM;
	}
	err = f2fs_dev_pread_own(dev, off, (size_t)len, w->before);
	if (err < 0) {
		free(w->before);
		free(w->after);
		return err;
	}
	l->n++;
	return 0;
}

static bool is_lost(const struct f2fs_lost_writes *l, size_t i)
{
	size_t back = l->n - 1 - i;	/* 0: the last write before the cut */

	return (l->mask >> (back % 64)) & 1;
}

static int put_back(struct f2fs_dev *dev, uint64_t off, uint64_t len, const uint8_t *data)
{
	uint8_t *zero = NULL;
	int err;

	if (!data) {
		zero = calloc(1, (size_t)len ? (size_t)len : 1);
		if (!zero)
			return -ENOMEM;
		data = zero;
	}
	err = f2fs_dev_pwrite_raw(dev, data, (size_t)len, off);
	free(zero);
	return err;
}

void f2fs_cut_apply(struct f2fs_dev *dev)
{
	struct f2fs_lost_writes *l = dev->lost;
	size_t i, nlost = 0;

	if (!l || l->cut)
		return;
	l->cut = true;
	for (i = 0; i < l->n; i++)
		nlost += is_lost(l, i);
	if (nlost == 0)
		return;
	for (i = l->n; i-- > 0;)
		(void)put_back(dev, l->w[i].off, l->w[i].len, l->w[i].before);
	for (i = 0; i < l->n; i++)
		if (!is_lost(l, i))
			(void)put_back(dev, l->w[i].off, l->w[i].len, l->w[i].after);
	dev->stats.dropped_writes += nlost;
	f2fs_cut_forget(dev);
}

/* ---- read faults ---------------------------------------------------- */

struct read_fault {
	uint64_t blkaddr;
	bool short_read;
};

struct f2fs_read_faults {
	struct read_fault f[F2FS_DEV_MAX_FAULTS];
	unsigned int n;
};

int f2fs_dev_add_read_fault(struct f2fs_dev *dev, uint64_t blkaddr, bool short_read)
{
	struct f2fs_read_faults *rf = dev->faults;

	if (dev->map)
		return -EBUSY;
	if (!rf) {
		rf = calloc(1, sizeof(*rf));
		if (!rf)
			return -ENOMEM;
		dev->faults = rf;
	}
	if (rf->n >= F2FS_DEV_MAX_FAULTS || blkaddr > (UINT64_MAX >> F2FS_BLKSIZE_BITS))
		return -EINVAL;
	rf->f[rf->n].blkaddr = blkaddr;
	rf->f[rf->n].short_read = short_read;
	rf->n++;
	return 0;
}

uint64_t f2fs_fault_room(const struct f2fs_dev *dev, uint64_t off, uint64_t len, int *err)
{
	const struct f2fs_read_faults *rf = dev->faults;
	uint64_t room = len;

	*err = 0;
	for (unsigned int i = 0; rf && i < rf->n; i++) {
		uint64_t start = rf->f[i].blkaddr << F2FS_BLKSIZE_BITS;
		uint64_t at;

		if (start + F2FS_BLKSIZE <= off || start >= off + len)
			continue;
		at = start > off ? start - off : 0;
		if (at < room || (at == room && !rf->f[i].short_read)) {
			room = at;
			*err = rf->f[i].short_read ? 0 : -EIO;
		}
	}
	return room;
}
