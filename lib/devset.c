/*
 * devset.c - multi-device volumes in the I/O layer.
 *
 * Block addresses of a multi-device volume run across its devices: device
 * 0 holds the first blocks, each further device the next stretch.  The
 * struct f2fs_dev of device 0 stands for the whole address space once the
 * others are attached to it (f2fs_dev_attach): every request is cut at the
 * device boundaries here and each piece goes to the device holding it, at
 * that device's own offset.  Device 0's own pieces go back to device.c's
 * single-device code (the *_own functions of device_own.h).  Writes are
 * admitted once, by device 0 (dry-run and the write-limit hook see one
 * request); the members are opened with the same read-only and dry-run
 * options.  Nothing here prints.
 */
#include <errno.h>
#include <stdlib.h>

#include "device_own.h"
#include "f2fs_dev.h"
#include "f2fs_fs.h"

int f2fs_dev_attach(struct f2fs_dev *dev, struct f2fs_dev *member, uint64_t start_blk,
		    uint64_t nblocks)
{
	uint64_t start = start_blk << F2FS_BLKSIZE_BITS, len = nblocks << F2FS_BLKSIZE_BITS;
	struct f2fs_dev_member *m;
	uint64_t prev_end;

	if (!dev || !member || member == dev || member->nmembers || dev->nmembers >= F2FS_DEV_MAX_MEMBERS ||
	    start_blk > (UINT64_MAX >> F2FS_BLKSIZE_BITS) || nblocks > (UINT64_MAX >> F2FS_BLKSIZE_BITS) ||
	    len > member->size_bytes || len == 0)
		return -EINVAL;
	if (f2fs_undo_active(dev))
		return -EOPNOTSUPP;	/* an undo file holds one device's blocks */
	prev_end = dev->nmembers ? dev->members[dev->nmembers - 1].start +
				   dev->members[dev->nmembers - 1].len : dev->own_bytes;
	if (start < prev_end)
		return -EINVAL;	/* members come in address order, after device 0 */
	m = &dev->members[dev->nmembers++];
	m->dev = member;
	m->start = start;
	m->len = len;
	return 0;
}

void f2fs_dev_set_own_blocks(struct f2fs_dev *dev, uint64_t nblocks)
{
	uint64_t bytes = nblocks << F2FS_BLKSIZE_BITS;

	dev->own_bytes = bytes < dev->size_bytes ? bytes : dev->size_bytes;
}

/* The device holding volume byte off (NULL: device 0 itself, or nothing:
 * *ok false) and the bytes from off to the end of that device's stretch. */
static struct f2fs_dev *holder(const struct f2fs_dev *dev, uint64_t off, uint64_t *local,
			       uint64_t *room, bool *ok)
{
	*ok = true;
	if (off < dev->own_bytes) {
		*local = off;
		*room = dev->own_bytes - off;
		return NULL;
	}
	for (unsigned int i = 0; i < dev->nmembers; i++) {
		const struct f2fs_dev_member *m = &dev->members[i];

		if (off >= m->start && off - m->start < m->len) {
			*local = off - m->start;
			*room = m->len - *local;
			return m->dev;
		}
	}
	*ok = false;
	return NULL;
}

int f2fs_devset_split(struct f2fs_dev *dev, uint64_t off, uint64_t len, int outside,
		      f2fs_devset_piece_fn fn, void *arg)
{
	uint64_t done = 0;

	while (done < len) {
		uint64_t local, room, piece;
		bool ok;
		struct f2fs_dev *d = holder(dev, off + done, &local, &room, &ok);
		int err;

		if (!ok)
			return outside;
		piece = len - done < room ? len - done : room;
		err = fn(d, local, piece, done, arg);
		if (err)
			return err;
		done += piece;
	}
	return 0;
}

/* ---- batched reads ---- */

/* Each run cut at device boundaries into pieces at the devices' own
 * block addresses, grouped by device; the pieces of one run land in its
 * buffer where they belong. */
struct split_arg {
	struct f2fs_io_vec *p;
	size_t n;
	size_t run;
	const struct f2fs_io_vec *vec;
	struct f2fs_dev **devs;	/* per piece */
};

static int add_piece(struct f2fs_dev *d, uint64_t local, uint64_t len, uint64_t done, void *arg)
{
	struct split_arg *s = arg;
	struct f2fs_io_vec *p = &s->p[s->n];
	const struct f2fs_io_vec *r = &s->vec[s->run];

	p->blkaddr = local >> F2FS_BLKSIZE_BITS;
	p->nblocks = (uint32_t)(len >> F2FS_BLKSIZE_BITS);
	p->buf = (uint8_t *)r->buf + done;
	s->devs[s->n++] = d;
	return 0;
}

int f2fs_devset_read_batch(struct f2fs_dev *dev, struct f2fs_io_vec *vec, size_t n)
{
	size_t maxp = 0;
	struct f2fs_io_vec *p;
	struct f2fs_dev **devs;
	struct f2fs_io_vec *sub;
	int err = 0;

	for (size_t i = 0; i < n; i++)
		maxp += 1 + dev->nmembers;
	p = calloc(maxp ? maxp : 1, sizeof(*p));
	devs = calloc(maxp ? maxp : 1, sizeof(*devs));
	sub = calloc(maxp ? maxp : 1, sizeof(*sub));
	if (!p || !devs || !sub) {
		err = -ENOMEM;
		goto out;
	}
	struct split_arg s = { .p = p, .vec = vec, .devs = devs };

	for (size_t i = 0; i < n && !err; i++) {
		if (vec[i].nblocks == 0)
			continue;
		if (!vec[i].buf) {
			err = -EINVAL;
			break;
		}
		s.run = i;
		err = f2fs_devset_split(dev, vec[i].blkaddr << F2FS_BLKSIZE_BITS,
					(uint64_t)vec[i].nblocks << F2FS_BLKSIZE_BITS, -EIO,
					add_piece, &s);
	}
	/* One call per device, in device order: device 0, then members. */
	for (unsigned int d = 0; d <= dev->nmembers && !err; d++) {
		struct f2fs_dev *target = d ? dev->members[d - 1].dev : NULL;
		size_t k = 0;

		for (size_t j = 0; j < s.n; j++)
			if (devs[j] == target)
				sub[k++] = p[j];
		if (!k)
			continue;
		if (!target)
			err = f2fs_dev_read_batch_own(dev, sub, k);
		else
			err = f2fs_dev_read_batch(target, sub, k);
	}
out:
	free(sub);
	free(devs);
	free(p);
	return err;
}

/* ---- the rest: every device ---- */

int f2fs_devset_flush(struct f2fs_dev *dev)
{
	int err = 0;

	for (unsigned int i = 0; i < dev->nmembers; i++) {
		int e = f2fs_dev_flush(dev->members[i].dev);

		if (e && !err)
			err = e;
	}
	return err;
}

void f2fs_devset_close(struct f2fs_dev *dev)
{
	for (unsigned int i = 0; i < dev->nmembers; i++)
		f2fs_dev_close(dev->members[i].dev);
	dev->nmembers = 0;
}
