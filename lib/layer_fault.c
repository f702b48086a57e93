/*
 * layer_fault.c - the read-fault layer, a test layer: a read system call
 * that reaches one of the chosen blocks fails there, with EIO, or comes
 * back short (the bytes before the block, then nothing, as a read past
 * the end of a device does), so the read error paths of the tools can be
 * tested (fsck --read-fault).  Device 0's own blocks only.  Nothing here
 * prints.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "device_own.h"
#include "f2fs_dev.h"
#include "f2fs_fs.h"

struct read_fault {
	uint64_t blkaddr;
	bool short_read;
};

struct f2fs_read_faults {
	struct f2fs_layer layer;	/* first: the layer is the state */
	struct read_fault f[F2FS_DEV_MAX_FAULTS];
	unsigned int n;
};

/* How many of the len bytes at off can be read before a faulty block;
 * *err is -EIO when that block fails with an error, 0 when it reads
 * short.  len when no fault is in the way. */
static uint64_t fault_room(const struct f2fs_read_faults *rf, uint64_t off, uint64_t len,
			   int *err)
{
	uint64_t room = len;

	*err = 0;
	for (unsigned int i = 0; i < rf->n; i++) {
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

/* The first iovec is read up to the first faulty block: an error when
 * that is where it starts, a short read before it. */
static ssize_t fault_preadv(struct f2fs_layer *l, struct iovec *iov, int cnt, uint64_t off)
{
	const struct f2fs_read_faults *rf = (const struct f2fs_read_faults *)l;
	struct iovec part = iov[0];
	int err = 0;
	uint64_t room = fault_room(rf, off, iov->iov_len, &err);

	(void)cnt;
	if (room == 0 && err) {
		errno = -err;
		return -1;
	}
	if (room == 0)
		return 0;
	part.iov_len = (size_t)room;
	return f2fs_layer_preadv(l->below, &part, 1, off);
}

static void fault_close(struct f2fs_layer *l)
{
	if (l->dev->faults == (struct f2fs_read_faults *)l)
		l->dev->faults = NULL;
	free(l);
}

static const struct f2fs_layer_ops fault_ops = {
	.name = "read-fault",
	.rank = 40,
	.sees_reads = true,
	.preadv = fault_preadv,
	.close = fault_close,
};

int f2fs_dev_add_read_fault(struct f2fs_dev *dev, uint64_t blkaddr, bool short_read)
{
	struct f2fs_read_faults *rf = dev->faults;

	if (!rf) {
		rf = calloc(1, sizeof(*rf));
		if (!rf)
			return -ENOMEM;
		(void)f2fs_layer_push(dev, &rf->layer, &fault_ops);
		dev->faults = rf;
	}
	if (rf->n >= F2FS_DEV_MAX_FAULTS || blkaddr > (UINT64_MAX >> F2FS_BLKSIZE_BITS))
		return -EINVAL;
	rf->f[rf->n].blkaddr = blkaddr;
	rf->f[rf->n].short_read = short_read;
	rf->n++;
	return 0;
}
