/*
 * nat-read.c - how long reading a set of NAT blocks takes one 4 KiB read
 * at a time against one batch through the device layer (sorted, merged,
 * announced with readahead first: f2fs_dev_read_batch, the path a
 * repair's NAT flush reads its blocks by).  The blocks are the current
 * copies (by the checkpoint's NAT version bitmap) of NAT blocks FIRST,
 * FIRST + STRIDE, ... (COUNT of them, as many as the NAT has); each is
 * dropped from the page cache first (f2fs_dev_forget_cached), so with a
 * cold device both modes read from the disk.  Used by repair-nat.sh,
 * which builds a volume whose repair rewrites NAT blocks 1..LEAKS.
 *
 * Usage: nat-read IMAGE single|batch FIRST COUNT [STRIDE]
 *   -> "NAT read (MODE) of N blocks: MS ms"; exit 1 on an error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "f2fs_dev.h"
#include "f2fs_err.h"
#include "f2fs_fs.h"
#include "f2fs_mount.h"
#include "f2fs_nat.h"

struct nat_set {
	struct f2fs_io_vec *vec;
	uint8_t *buf;
	uint32_t n;
};

static double elapsed_ms(const struct timespec *t0, const struct timespec *t1)
{
	return (double)(t1->tv_sec - t0->tv_sec) * 1e3 + (double)(t1->tv_nsec - t0->tv_nsec) / 1e6;
}

/* The current copies of the chosen NAT blocks, one run of one block each. */
static int choose_blocks(const struct f2fs_fs *fs, const struct f2fs_nat_model *nm,
			 unsigned long first, unsigned long count, unsigned long stride,
			 struct nat_set *s)
{
	s->vec = calloc(count + 1, sizeof(*s->vec));
	s->buf = malloc((count + 1) * F2FS_BLKSIZE);
	s->n = 0;
	if (!s->vec || !s->buf)
		return -ENOMEM;
	for (unsigned long b = first; s->n < count && b < nm->nat_blocks; b += stride) {
		s->vec[s->n].blkaddr = f2fs_nat_block_addr(fs, nm, (uint32_t)b);
		s->vec[s->n].nblocks = 1;
		s->vec[s->n].buf = s->buf + (size_t)s->n * F2FS_BLKSIZE;
		s->n++;
	}
	return 0;
}

static int read_blocks(struct f2fs_dev *dev, struct nat_set *s, bool batch)
{
	int err = 0;

	if (batch)
		return f2fs_dev_read_batch(dev, s->vec, s->n);
	for (uint32_t i = 0; i < s->n && !err; i++)
		err = f2fs_dev_read(dev, s->vec[i].blkaddr, 1, s->vec[i].buf);
	return err;
}

static int run(const char *image, bool batch, unsigned long first, unsigned long count,
	       unsigned long stride)
{
	const struct f2fs_dev_opts opts = { .read_only = true };
	struct f2fs_nat_model nm;
	struct nat_set s = { 0 };
	struct timespec t0, t1;
	struct f2fs_fs *fs = NULL;
	int err = f2fs_fs_open(image, &opts, &fs);

	memset(&nm, 0, sizeof(nm));
	if (!err)
		err = f2fs_nat_init(&nm, fs->max_nid, fs->nat_bitmap);
	if (!err)
		err = choose_blocks(fs, &nm, first, count, stride, &s);
	for (uint32_t i = 0; !err && i < s.n; i++)
		(void)f2fs_dev_forget_cached(fs->dev, s.vec[i].blkaddr, 1);
	if (!err) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		err = read_blocks(fs->dev, &s, batch);
		clock_gettime(CLOCK_MONOTONIC, &t1);
	}
	if (!err)
		printf("NAT read (%s) of %u blocks: %.3f ms\n", batch ? "batch" : "single", s.n,
		       elapsed_ms(&t0, &t1));
	else
		fprintf(stderr, "nat-read: %s: %s\n", image, f2fs_strerror(err));
	free(s.vec);
	free(s.buf);
	f2fs_nat_free(&nm);
	f2fs_fs_close(fs);
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	unsigned long first, count, stride = 1;
	char *end;

	if (argc < 5 || argc > 6 || (strcmp(argv[2], "single") && strcmp(argv[2], "batch"))) {
		fprintf(stderr, "usage: nat-read IMAGE single|batch FIRST COUNT [STRIDE]\n");
		return 2;
	}
	first = strtoul(argv[3], &end, 0);
	if (*end)
		return 2;
	count = strtoul(argv[4], &end, 0);
	if (*end || count == 0 || count > (1ul << 24))
		return 2;
	if (argc == 6) {
		stride = strtoul(argv[5], &end, 0);
		if (*end || stride == 0)
			return 2;
	}
	return run(argv[1], strcmp(argv[2], "batch") == 0, first, count, stride);
}
