/*
 * layer_dryrun.c - the dry-run layer: a run that decides everything a
 * real one would and writes nothing.  Every change (write, discard,
 * zero-out, resize) is dropped and counted in stats.dropped_writes, and a
 * flush goes no further, so nothing below it sees a change: later reads
 * return what the device held.  f2fs_dev_open() pushes it for
 * opts->dry_run (the device is then opened read-only).  Nothing here
 * prints.
 */
#include <errno.h>
#include <stdlib.h>

#include "device_own.h"

static int dryrun_change(struct f2fs_layer *l, const struct f2fs_change *c)
{
	(void)c;
	l->dev->stats.dropped_writes++;
	return F2FS_LAYER_DROPPED;
}

static int dryrun_flush(struct f2fs_layer *l)
{
	(void)l;
	return 0;
}

static void dryrun_close(struct f2fs_layer *l)
{
	free(l);
}

static const struct f2fs_layer_ops dryrun_ops = {
	.name = "dry-run",
	.rank = 10,
	.closes_last = true,
	.change = dryrun_change,
	.flush = dryrun_flush,
	.close = dryrun_close,
};

int f2fs_dryrun_push(struct f2fs_dev *dev)
{
	struct f2fs_layer *l = calloc(1, sizeof(*l));
	int err;

	if (!l)
		return -ENOMEM;
	err = f2fs_layer_push(dev, l, &dryrun_ops);
	if (err)
		free(l);
	return err;
}

bool f2fs_dev_is_dry_run(const struct f2fs_dev *dev)
{
	return f2fs_layer_find(dev, &dryrun_ops) != NULL;
}
