/*
 * devcut.c - the write-cut layer, a test layer: a power cut after the
 * N-th change (the write limit: f2fs_dev_set_write_limit) drops it and
 * every later one, so crash safety can be tested by cutting a
 * multi-write operation at every point.  The records the undo layer
 * above appends count with the device's writes (a cut can fall on one).
 *
 * With the lost-writes hook (f2fs_dev_set_lost_writes) the cut also
 * loses a chosen subset of the writes issued since the last flush, as a
 * disk's volatile cache may, and not only the writes after the cut.  A
 * writer that forgot a flush barrier (a commit block that can reach the
 * disk before what it commits) is caught by it; a writer with its
 * barriers survives any subset.  While the hook is set, every performed
 * write, discard and zero-out of the current flush epoch is journalled in
 * memory with the content it replaced and the content it wrote (NULL:
 * zeroes).  A flush forgets the epoch.  At the cut the epoch is rolled
 * back (previous contents in reverse order) and the kept writes are done
 * again in order, so each block ends with the last kept write to it, or
 * its content from before the epoch.  Single, non-zoned devices only.
 * Nothing here prints.
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

struct cut_layer {
	struct f2fs_layer layer;	/* first: the layer is the state */
	uint64_t limit;		/* 0: no cut; else changes after this many are dropped */
	bool journal;		/* the lost-writes hook is set */
	uint64_t mask;		/* bit i: the i-th write back from the cut is lost */
	bool cut;		/* the cut was applied */
	struct epoch_write *w;
	size_t n, cap;
};

static const struct f2fs_layer_ops cut_ops;

static struct cut_layer *cut_of(const struct f2fs_dev *dev)
{
	return (struct cut_layer *)f2fs_layer_find(dev, &cut_ops);
}

bool f2fs_cut_reached(const struct f2fs_dev *dev)
{
	const struct cut_layer *c = cut_of(dev);

	return c && c->limit && dev->stats.write_calls + f2fs_undo_appends(dev) >= c->limit;
}

uint64_t f2fs_cut_limit(const struct f2fs_dev *dev)
{
	const struct cut_layer *c = cut_of(dev);

	return c ? c->limit : 0;
}

/* Forget the epoch's journal (a flush made it durable). */
static void forget_epoch(struct cut_layer *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->w[i].before);
		free(c->w[i].after);
	}
	c->n = 0;
}

static uint8_t *copy_of(const void *buf, uint64_t len)
{
	uint8_t *p = malloc(len ? (size_t)len : 1);

	if (p && len)
		memcpy(p, buf, (size_t)len);
	return p;
}

/* Journal a change about to be performed (after NULL: zeroes). */
static int note_write(struct cut_layer *c, uint64_t off, uint64_t len, const void *after)
{
	struct epoch_write *w;
	int err;

	if (!c->journal || c->cut || len > SIZE_MAX)
		return 0;
	if (F2FS_ARRAY_ROOM(c->w, c->cap, c->n + 1, 32))
		return -ENOMEM;
	w = &c->w[c->n];
	w->off = off;
	w->len = len;
	w->before = malloc((size_t)len ? (size_t)len : 1);
	w->after = after ? copy_of(after, len) : NULL;
	if (!w->before || (after && !w->after)) {
		free(w->before);
		free(w->after);
		return -ENOMEM;
	}
	err = f2fs_dev_pread_own(c->layer.dev, off, (size_t)len, w->before);
	if (err < 0) {
		free(w->before);
		free(w->after);
		return err;
	}
	c->n++;
	return 0;
}

static bool is_lost(const struct cut_layer *c, size_t i)
{
	size_t back = c->n - 1 - i;	/* 0: the last write before the cut */

	return (c->mask >> (back % 64)) & 1;
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

/* The power goes off: the epoch's lost writes are undone (once). */
static void apply_cut(struct cut_layer *c)
{
	struct f2fs_dev *dev = c->layer.dev;
	size_t i, nlost = 0;

	if (c->cut)
		return;
	c->cut = true;
	if (!c->journal)
		return;
	for (i = 0; i < c->n; i++)
		nlost += is_lost(c, i);
	if (nlost == 0)
		return;
	for (i = c->n; i-- > 0;)
		(void)put_back(dev, c->w[i].off, c->w[i].len, c->w[i].before);
	for (i = 0; i < c->n; i++)
		if (!is_lost(c, i))
			(void)put_back(dev, c->w[i].off, c->w[i].len, c->w[i].after);
	dev->stats.dropped_writes += nlost;
	forget_epoch(c);
}

/* A change past the cut is dropped; one before it is journalled (with
 * the hook) and performed below. */
static int cut_change(struct f2fs_layer *l, const struct f2fs_change *ch)
{
	struct cut_layer *c = (struct cut_layer *)l;
	int err;

	if (f2fs_cut_reached(l->dev)) {
		apply_cut(c);
		l->dev->stats.dropped_writes++;
		return F2FS_LAYER_DROPPED;
	}
	if (ch->kind != F2FS_CHANGE_RESIZE) {
		err = note_write(c, ch->off, ch->len,
				 ch->kind == F2FS_CHANGE_WRITE ? ch->buf : NULL);
		if (err < 0)
			return err;
	}
	return f2fs_layer_change(l->below, ch);
}

/* Past the cut a flush never happened; before it, the epoch is durable. */
static int cut_flush(struct f2fs_layer *l)
{
	struct cut_layer *c = (struct cut_layer *)l;

	if (f2fs_cut_reached(l->dev))
		apply_cut(c);
	else
		forget_epoch(c);
	return f2fs_layer_flush(l->below);
}

/* The power was cut after the last write. */
static void cut_close(struct f2fs_layer *l)
{
	struct cut_layer *c = (struct cut_layer *)l;

	if (f2fs_cut_reached(l->dev))
		apply_cut(c);
	forget_epoch(c);
	free(c->w);
	free(c);
}

static const struct f2fs_layer_ops cut_ops = {
	.name = "write-cut",
	.rank = 30,
	.change = cut_change,
	.flush = cut_flush,
	.close = cut_close,
};

static struct cut_layer *cut_layer_get(struct f2fs_dev *dev)
{
	struct cut_layer *c = cut_of(dev);

	if (c)
		return c;
	c = calloc(1, sizeof(*c));
	if (c)
		(void)f2fs_layer_push(dev, &c->layer, &cut_ops);
	return c;
}

void f2fs_dev_set_write_limit(struct f2fs_dev *dev, uint64_t n)
{
	struct cut_layer *c = n ? cut_layer_get(dev) : cut_of(dev);

	if (c)
		c->limit = n;
}

int f2fs_dev_set_lost_writes(struct f2fs_dev *dev, uint64_t mask)
{
	struct cut_layer *c;

	if (dev->zoned || dev->nmembers)
		return -EOPNOTSUPP;
	c = cut_layer_get(dev);
	if (!c)
		return -ENOMEM;
	c->journal = true;
	c->mask = mask;
	return 0;
}
