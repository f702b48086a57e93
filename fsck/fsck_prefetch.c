/*
 * fsck_prefetch.c - the node walk's next batch of inode blocks, read by a
 * worker thread while the walk checks the current one.
 *
 * On a volume whose inodes lie scattered (an aged one: inode numbers and
 * node blocks out of order), a batch of 256 inodes is a few hundred reads
 * of one or two blocks, and copying them out of the page cache is about
 * half of what the walk's thread does.  When a batch holds no directory,
 * checking it pushes nothing on the stack, so the next batch is the
 * stack's top items: their NAT addresses are known now.  A worker reads
 * them (cached pages only, f2fs_dev_read_cached_mt) into a buffer of
 * their own in pieces of PIECE blocks while the walk checks, up to
 * FSCK_PREFETCH_DEPTH batches ahead (as background jobs: the digests the
 * walk waits for come first); the walk takes a buffer when the batch it
 * pops has exactly the predicted addresses.  A piece the page cache could
 * not serve is read then, the usual way; any other difference drops every
 * prefetch and the batch is read as always, so the blocks the walk checks
 * are the same bytes either way.  A batch nobody read ahead (the first
 * children of a directory) is opened and taken at once: the walk then
 * reads pieces of it like any worker, and the workers the others.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs_workers.h"
#include "fsck_walk.h"

/* Blocks per work item: small enough that the items spread over the
 * workers and a newer job (the digests the walk waits for) is taken up
 * soon, large enough that claiming one costs nothing. */
#define PIECE		32u
#define PIECES		((FSCK_BATCH + PIECE - 1) / PIECE)
/* Fewer blocks than this are read by the walk itself. */
#define PREFETCH_MIN	32u

/* One batch read ahead. */
struct prefetch_slot {
	struct f2fs_dev *dev;	/* workers read it (f2fs_dev_read_cached_mt) */
	struct f2fs_job *job;
	uint8_t *buf;			/* FSCK_BATCH blocks */
	uint32_t addrs[FSCK_BATCH];
	uint32_t n;
	int err[PIECES];		/* per piece: 0, -EAGAIN (not cached), -errno */
	struct f2fs_dev_tally tally[PIECES];
};

/* The batches read ahead, in the order the walk will pop them. */
struct fsck_prefetch {
	struct prefetch_slot slot[FSCK_PREFETCH_DEPTH];
	uint32_t head, count;
};

/* Where piece q of a slot begins: its first block (n past the last). */
static uint32_t piece_start(const struct prefetch_slot *sl, uint32_t q)
{
	return q * PIECE < sl->n ? q * PIECE : sl->n;
}

/* Read piece p of a slot: its blocks' runs (consecutive addresses merged). */
static void read_piece(void *arg, uint32_t p)
{
	struct prefetch_slot *sl = arg;
	struct f2fs_io_vec vec[PIECE];
	size_t nvec = fsck_addr_runs(sl->addrs, piece_start(sl, p), piece_start(sl, p + 1),
				     sl->buf, vec, 0);

	memset(&sl->tally[p], 0, sizeof(sl->tally[p]));
	sl->err[p] = f2fs_dev_read_cached_mt(sl->dev, vec, nvec, &sl->tally[p]);
}

static uint32_t pieces_of(uint32_t n)
{
	return (n + PIECE - 1) / PIECE;
}

/* Pop the oldest slot: wait for its pieces (computing the unclaimed ones
 * here) and close its job; its reads count in the device's statistics
 * whether or not it is used. */
static struct prefetch_slot *pop_slot(struct fsck_walk *w)
{
	struct fsck_prefetch *pf = w->pf;
	struct prefetch_slot *sl = &pf->slot[pf->head];
	uint32_t np = pieces_of(sl->n);

	for (uint32_t p = 0; p < np; p++)
		f2fs_job_take(sl->job, p);
	f2fs_job_finish(fsck_digest_pool(w), sl->job);
	for (uint32_t p = 0; p < np; p++)
		f2fs_dev_add_tally(w->ctx->fs->dev, &sl->tally[p]);
	pf->head = (pf->head + 1) % FSCK_PREFETCH_DEPTH;
	pf->count--;
	return sl;
}

static void drop_all(struct fsck_walk *w)
{
	while (w->pf && w->pf->count)
		(void)pop_slot(w);
}

static struct fsck_prefetch *prefetch_state(struct fsck_walk *w)
{
	struct fsck_prefetch *pf;

	if (w->pf)
		return w->pf;
	pf = calloc(1, sizeof(*pf));
	if (!pf)
		return NULL;
	w->pf = pf;
	for (uint32_t k = 0; k < FSCK_PREFETCH_DEPTH; k++) {
		struct prefetch_slot *sl = &pf->slot[k];

		sl->dev = w->ctx->fs->dev;
		sl->job = f2fs_job_new();
		sl->buf = f2fs_dev_buf_take(w->ctx->fs->dev, FSCK_BATCH);
		if (!sl->job || !sl->buf) {
			fsck_prefetch_stop(w);
			return NULL;
		}
	}
	return pf;
}

uint32_t fsck_prefetch_queued(const struct fsck_walk *w)
{
	return w->pf ? w->pf->count : 0;
}

bool fsck_prefetch_inodes(struct fsck_walk *w, const uint32_t *addrs, uint32_t n)
{
	struct f2fs_workers *pool = fsck_digest_pool(w);
	struct fsck_prefetch *pf;
	struct prefetch_slot *sl;

	if (!pool || n == 0 || n > FSCK_BATCH || n < fsck_digest_batch_min(w, PREFETCH_MIN) ||
	    fsck_prefetch_queued(w) == FSCK_PREFETCH_DEPTH || !f2fs_dev_reads_mt(w->ctx->fs->dev))
		return false;
	pf = prefetch_state(w);
	if (!pf)
		return false;
	sl = &pf->slot[(pf->head + pf->count) % FSCK_PREFETCH_DEPTH];
	memcpy(sl->addrs, addrs, (size_t)n * sizeof(*addrs));
	sl->n = n;
	if (f2fs_job_run_background(pool, sl->job, read_piece, sl, pieces_of(n)) != 0)
		return false;
	pf->count++;
	return true;
}

/* Read the pieces the page cache could not serve, the usual way: each
 * stretch of such pieces [p, q) as the runs of its blocks. */
static int read_missed(struct fsck_walk *w, struct prefetch_slot *sl)
{
	uint32_t np = pieces_of(sl->n);
	size_t nvec = 0;

	for (uint32_t p = 0; p < np; p++) {
		uint32_t q = p + 1;

		if (sl->err[p] == 0)
			continue;
		while (q < np && sl->err[q] != 0)
			q++;
		nvec = fsck_addr_runs(sl->addrs, piece_start(sl, p), piece_start(sl, q), sl->buf,
				      w->vec, nvec);
		p = q;	/* q is served (or the end): the loop moves past it */
	}
	return nvec ? f2fs_dev_read_batch(w->ctx->fs->dev, w->vec, nvec) : 0;
}

static bool slot_serves(struct fsck_walk *w, struct prefetch_slot *sl, const uint32_t *addrs,
			uint32_t n)
{
	if (n != sl->n || memcmp(addrs, sl->addrs, (size_t)n * sizeof(*addrs)) != 0)
		return false;
	for (uint32_t p = 0; p < pieces_of(n); p++)
		if (sl->err[p] != 0 && sl->err[p] != -EAGAIN)
			return false;	/* read again the usual way, errors and all */
	return read_missed(w, sl) == 0;
}

bool fsck_prefetch_take(struct fsck_walk *w, const uint32_t *addrs, uint32_t n,
			const uint8_t **blk)
{
	struct prefetch_slot *sl;
	uint8_t *swap;

	if (!fsck_prefetch_queued(w))
		return false;
	sl = pop_slot(w);
	if (!slot_serves(w, sl, addrs, n)) {
		drop_all(w);	/* the later ones assumed this one */
		return false;
	}
	/* the slot's buffer becomes the batch's; the walk's old one (the
	 * previous batch is done with it) is the slot's for a later batch */
	swap = w->ibuf;
	w->ibuf = sl->buf;
	sl->buf = swap;
	for (uint32_t i = 0; i < n; i++)
		blk[i] = w->ibuf + (size_t)i * F2FS_BLKSIZE;
	return true;
}

void fsck_prefetch_stop(struct fsck_walk *w)
{
	struct fsck_prefetch *pf = w->pf;

	if (!pf)
		return;
	drop_all(w);
	for (uint32_t k = 0; k < FSCK_PREFETCH_DEPTH; k++) {
		f2fs_job_free(pf->slot[k].job);
		f2fs_dev_buf_give(w->ctx->fs->dev, pf->slot[k].buf, FSCK_BATCH);
	}
	free(pf);
	w->pf = NULL;
}
