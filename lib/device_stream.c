/*
 * device_stream.c - the read stream of a device: the hints a tool queues
 * while it plans (f2fs_dev_defer_readahead; what it will read, in the
 * order it wants it) are brought into the page cache by a thread of
 * their own, at the device's pace, once the plan is complete
 * (f2fs_dev_issue_readahead).
 *
 * Why a thread: a WILLNEED hint returns once its reads are queued, but
 * blocks while the device queue is full, so the tool itself cannot hint
 * far ahead without waiting for the device; and hints paced by what the
 * tool has read fall behind a tool that reads in another order than the
 * plan's (an aged volume's inodes lie anywhere in the node area).  The
 * thread issues the hints in order, in pieces, and keeps a bounded
 * window of them in flight: after each STREAM_MARK bytes it notes the
 * last page, and before the window would overflow it waits for the
 * oldest noted page to arrive (a one-page read on its own descriptor,
 * which opts out of the kernel's own readahead).  The bound keeps the
 * device queue short, so a block the tool reads on a miss does not queue
 * behind hundreds of megabytes of stream; the stream never reads data
 * for the tool and makes no change, so the layers above the unix layer
 * do not see it (the tool's own reads go through them as before).
 *
 * What the page cache holds already is not streamed again (a warm run
 * streams nothing): residency is asked through a mapping of the device
 * that is never touched (mincore), first of a few sampled pages of each
 * 32 MiB of the plan, which a warm run finds cached and skips whole, then,
 * in a chunk that is not, of each 1 MiB stretch once.
 *
 * The page cache holds what the stream brings; the tool's memory does not
 * grow (one page of buffer, one byte per page of a stretch).  Nothing here
 * prints.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "device_own.h"
#include "f2fs_array.h"
#include "f2fs_dev.h"
#include "f2fs_fs.h"

/* Linux reads at most max(io_pages, ra_pages) of one WILLNEED hint and
 * drops the rest silently: hints go in pieces of at most this. */
#define STREAM_PIECE	((uint64_t)1 << 20)
/* A page to wait for is noted every this many bytes issued. */
#define STREAM_MARK	((uint64_t)1 << 20)
/* Bytes the stream keeps in flight (issued and not known to be read).
 * The thread sleeps in each wait, and while the tool's threads keep the
 * cores busy it wakes late: the window must outlast that, or the device
 * queue drains.  A read the tool makes on a miss queues behind at most
 * this much (at about 1.5 GB/s, 40 ms). */
#define STREAM_WINDOW	((uint64_t)64 << 20)
#define STREAM_MARKS	(STREAM_WINDOW / STREAM_MARK + 2)
/* The plan is looked at in chunks of hints of this many bytes, each first
 * sampled at this many places: a chunk the samples find cached is skipped
 * whole. */
#define STREAM_CHUNK	((uint64_t)32 << 20)
#define CHUNK_SAMPLES	16u

struct stream_mark {
	uint64_t page;		/* byte offset of a page the hints up to here cover */
	uint64_t upto;		/* bytes issued when it was noted */
};

struct f2fs_ra_queue {
	uint64_t (*r)[2];	/* byte offset, length */
	size_t n, cap;
	bool started;		/* no more queueing: the thread streams them */
	bool running;		/* the thread was started and not yet joined */
	pthread_t thread;
	int fd;			/* the thread's descriptor, -1: dev->fd */
	atomic_bool stop;
	/* the thread's own, read after the join */
	struct stream_mark marks[STREAM_MARKS];
	size_t mark_head, mark_n;
	uint64_t issued, arrived;	/* bytes hinted, bytes known read */
	uint64_t last_page;		/* byte offset of the last page hinted */
	/* residency of [res_lo, res_hi) through an untouched mapping */
	void *map;
	uint64_t map_len, page, res_lo, res_hi;
	unsigned char *res;
	uint64_t waits;
};

int f2fs_dev_defer_readahead(struct f2fs_dev *dev)
{
	if (dev->ra)
		return 0;
	dev->ra = calloc(1, sizeof(*dev->ra));
	if (!dev->ra)
		return -ENOMEM;
	dev->ra->fd = -1;
	return 0;
}

bool f2fs_stream_queue(struct f2fs_dev *dev, uint64_t off, uint64_t len)
{
	struct f2fs_ra_queue *q = dev->ra;

	if (!q || q->started)
		return false;
	if (F2FS_ARRAY_ROOM(q->r, q->cap, q->n + 1, 256))
		return false;	/* issued now instead */
	q->r[q->n][0] = off;
	q->r[q->n][1] = len;
	q->n++;
	dev->stats.readahead_calls++;
	return true;
}

/* Wait until the oldest noted page has been read. */
static void wait_oldest(struct f2fs_ra_queue *q, int fd)
{
	const struct stream_mark *m = &q->marks[q->mark_head];
	uint8_t page[F2FS_BLKSIZE];

	while (pread(fd, page, sizeof(page), (off_t)m->page) < 0 && errno == EINTR)
		;
	q->arrived = m->upto;
	q->mark_head = (q->mark_head + 1) % STREAM_MARKS;
	q->mark_n--;
	q->waits++;
}

static void note_mark(struct f2fs_ra_queue *q, uint64_t page)
{
	size_t at = (q->mark_head + q->mark_n) % STREAM_MARKS;

	q->marks[at].page = page;
	q->marks[at].upto = q->issued;
	q->mark_n++;
}

/* Issue one piece, first making room for it in the window. */
static void stream_piece(struct f2fs_ra_queue *q, int fd, uint64_t off, uint64_t len,
			 uint64_t *since_mark)
{
	while (q->mark_n && (q->issued + len - q->arrived > STREAM_WINDOW ||
			     q->mark_n == STREAM_MARKS))
		wait_oldest(q, fd);
	(void)posix_fadvise(fd, (off_t)off, (off_t)len, POSIX_FADV_WILLNEED);
	q->issued += len;
	q->last_page = (off + len - 1) & ~(uint64_t)(F2FS_BLKSIZE - 1);
	*since_mark += len;
	if (*since_mark >= STREAM_MARK) {
		note_mark(q, q->last_page);
		*since_mark = 0;
	}
}

/* Whether every page of [off, off + len) is in the page cache (false
 * when that cannot be told).  The residency of a stretch of up to
 * STREAM_PIECE from the first piece asked is looked up once (mincore on a
 * mapping of the device that is never touched) and kept for the pieces
 * that follow inside it: a warm run streams nothing and costs a call per
 * stretch, not one per planned run. */
static bool piece_cached(struct f2fs_ra_queue *q, uint64_t off, uint64_t len)
{
	uint64_t first, last;

	if (!q->map || off + len > q->map_len)
		return false;
	if (off < q->res_lo || off + len > q->res_hi) {
		q->res_lo = off & ~(uint64_t)(q->page - 1);
		q->res_hi = q->res_lo + STREAM_PIECE + q->page;
		if (q->res_hi > q->map_len)
			q->res_hi = q->map_len;
		if (mincore((uint8_t *)q->map + q->res_lo, (size_t)(q->res_hi - q->res_lo),
			    q->res) < 0) {
			q->res_hi = q->res_lo;
			return false;
		}
	}
	first = (off - q->res_lo) / q->page;
	last = (off + len - 1 - q->res_lo) / q->page;
	for (uint64_t p = first; p <= last; p++)
		if (!(q->res[p] & 1))
			return false;
	return true;
}

/* Whether the page at byte off is in the page cache (false when that
 * cannot be told). */
static bool page_cached(const struct f2fs_ra_queue *q, uint64_t off)
{
	unsigned char v = 0;

	off &= ~(q->page - 1);
	if (!q->map || off >= q->map_len)
		return false;
	return mincore((uint8_t *)q->map + off, (size_t)q->page, &v) == 0 && (v & 1);
}

/* The end of the chunk of hints from `first`: hints that plan at least
 * STREAM_CHUNK bytes together, or the rest. */
static size_t chunk_end(const struct f2fs_ra_queue *q, size_t first)
{
	uint64_t bytes = 0;
	size_t i = first;

	while (i < q->n && bytes < STREAM_CHUNK)
		bytes += q->r[i++][1];
	return i;
}

/* Whether a chunk looks cached already: the first page of each of up to
 * CHUNK_SAMPLES of its hints, spread over it, is.  A warm run then costs
 * a few calls per chunk; a chunk only partly cached where the samples
 * all hit is left to the tool's own reads. */
static bool chunk_cached(const struct f2fs_ra_queue *q, size_t first, size_t end)
{
	size_t step = (end - first + CHUNK_SAMPLES - 1) / CHUNK_SAMPLES;

	for (size_t i = first; i < end; i += step ? step : 1)
		if (!page_cached(q, q->r[i][0]))
			return false;
	return true;
}

static void stream_hint(struct f2fs_ra_queue *q, int fd, size_t i, uint64_t *since_mark)
{
	uint64_t off = q->r[i][0], left = q->r[i][1];

	while (left && !atomic_load(&q->stop)) {
		uint64_t piece = left < STREAM_PIECE ? left : STREAM_PIECE;

		if (!piece_cached(q, off, piece))
			stream_piece(q, fd, off, piece, since_mark);
		off += piece;
		left -= piece;
	}
}

static void *stream_main(void *arg)
{
	struct f2fs_dev *dev = arg;
	struct f2fs_ra_queue *q = dev->ra;
	int fd = q->fd >= 0 ? q->fd : dev->fd;
	uint64_t since_mark = 0;

	for (size_t first = 0, end; first < q->n && !atomic_load(&q->stop); first = end) {
		end = chunk_end(q, first);
		if (chunk_cached(q, first, end))
			continue;
		for (size_t i = first; i < end && !atomic_load(&q->stop); i++)
			stream_hint(q, fd, i, &since_mark);
	}
	if (since_mark) {	/* the last page too: the plan is in when the thread ends */
		note_mark(q, q->last_page);
		since_mark = 0;
	}
	while (q->mark_n && !atomic_load(&q->stop))
		wait_oldest(q, fd);
	return NULL;
}

/* A mapping of the device for piece_cached(), never touched (no memory);
 * none when the device cannot be mapped or its pages are not 4 KiB or
 * smaller powers of two. */
static void map_for_residency(struct f2fs_ra_queue *q, const struct f2fs_dev *dev)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p;

	if (page <= 0 || page > F2FS_BLKSIZE || (page & (page - 1)) ||
	    dev->file_bytes == 0 || dev->file_bytes > SIZE_MAX)
		return;
	p = mmap(NULL, (size_t)dev->file_bytes, PROT_READ, MAP_SHARED, dev->fd, 0);
	if (p == MAP_FAILED)
		return;
	q->res = malloc((size_t)((STREAM_PIECE + (uint64_t)page) / (uint64_t)page) + 1);
	if (!q->res) {
		munmap(p, (size_t)dev->file_bytes);
		return;
	}
	q->map = p;
	q->map_len = dev->file_bytes;
	q->page = (uint64_t)page;
}

/* The thread's own descriptor of the same file, which asks the kernel
 * for no readahead: its waits read exactly one page.  -1 when the file
 * cannot be opened again (the thread uses the device's). */
static int stream_fd(const struct f2fs_dev *dev)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", dev->fd);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		(void)posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
	return fd;
}

void f2fs_dev_issue_readahead(struct f2fs_dev *dev)
{
	struct f2fs_ra_queue *q = dev->ra;

	if (!q || q->started)
		return;
	q->started = true;
	if (!q->n)
		return;
	q->fd = stream_fd(dev);
	map_for_residency(q, dev);
	atomic_init(&q->stop, false);
	q->running = pthread_create(&q->thread, NULL, stream_main, dev) == 0;
	if (!q->running)	/* no thread: the hints go now, in order */
		for (size_t i = 0; i < q->n; i++)
			(void)posix_fadvise(dev->fd, (off_t)q->r[i][0], (off_t)q->r[i][1],
					    POSIX_FADV_WILLNEED);
}

static void stream_join(struct f2fs_ra_queue *q, bool stop)
{
	if (!q || !q->running)
		return;
	if (stop)
		atomic_store(&q->stop, true);
	pthread_join(q->thread, NULL);
	q->running = false;
}

bool f2fs_stream_wait(struct f2fs_dev *dev)
{
	bool ran = dev->ra && dev->ra->running;

	stream_join(dev->ra, false);
	return ran;
}

void f2fs_stream_free(struct f2fs_dev *dev)
{
	struct f2fs_ra_queue *q = dev->ra;

	if (!q)
		return;
	stream_join(q, true);
	if (q->map)
		munmap(q->map, (size_t)q->map_len);
	free(q->res);
	if (q->fd >= 0)
		close(q->fd);
	free(q->r);
	free(q);
	dev->ra = NULL;
}
