/*
 * layer.c - the layer stack of a device (device_own.h says what a layer
 * is and which layers there are): putting a layer in its place by rank,
 * taking it out, and handing a request to the first layer from a given
 * one down that takes it.  The unix layer at the bottom takes every
 * request, so a request always ends there or in a layer that stops it.
 * Nothing here prints.
 */
#include <errno.h>
#include <stddef.h>

#include "device_own.h"

int f2fs_layer_push(struct f2fs_dev *dev, struct f2fs_layer *l, const struct f2fs_layer_ops *ops)
{
	struct f2fs_layer **at = &dev->top;

	if (f2fs_layer_find(dev, ops))
		return -EBUSY;
	while ((*at)->below && (*at)->ops->rank <= ops->rank)
		at = &(*at)->below;
	l->ops = ops;
	l->dev = dev;
	l->below = *at;
	*at = l;
	return 0;
}

void f2fs_layer_remove(struct f2fs_dev *dev, struct f2fs_layer *l)
{
	for (struct f2fs_layer **at = &dev->top; *at; at = &(*at)->below) {
		if (*at == l) {
			*at = l->below;
			l->below = NULL;
			return;
		}
	}
}

struct f2fs_layer *f2fs_layer_find(const struct f2fs_dev *dev, const struct f2fs_layer_ops *ops)
{
	for (struct f2fs_layer *l = dev->top; l; l = l->below)
		if (l->ops == ops)
			return l;
	return NULL;
}

int f2fs_layer_change(struct f2fs_layer *l, const struct f2fs_change *c)
{
	while (!l->ops->change)
		l = l->below;
	return l->ops->change(l, c);
}

int f2fs_layer_flush(struct f2fs_layer *l)
{
	while (!l->ops->flush)
		l = l->below;
	return l->ops->flush(l);
}

ssize_t f2fs_layer_preadv(struct f2fs_layer *l, struct iovec *iov, int cnt, uint64_t off)
{
	while (!l->ops->preadv)
		l = l->below;
	return l->ops->preadv(l, iov, cnt, off);
}

bool f2fs_layer_sees_reads(const struct f2fs_dev *dev)
{
	for (const struct f2fs_layer *l = dev->top; l; l = l->below)
		if (l->ops->sees_reads)
			return true;
	return false;
}

/* Top first; the layers that hold back what the layers below them do
 * when they close (dry-run: the undo layer's last flush) close last.  A
 * layer is out of the stack when its close runs. */
void f2fs_layer_close_all(struct f2fs_dev *dev)
{
	for (int last = 0; last < 2; last++) {
		struct f2fs_layer *l = dev->top;

		while (l && l->below) {
			struct f2fs_layer *next = l->below;

			if (l->ops->closes_last == (last == 1)) {
				f2fs_layer_remove(dev, l);
				l->ops->close(l);
			}
			l = next;
		}
	}
}
