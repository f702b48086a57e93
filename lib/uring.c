/*
 * uring.c - many reads in one system call: a minimal io_uring submission
 * and completion ring, through the raw system calls (no liburing).
 *
 * The device layer reads a batch of scattered blocks as one preadv per
 * stretch; where every block lies apart (an aged volume, a deep tree) that
 * is one system call per block, and on a virtual machine the call costs
 * several times the copy of the block.  f2fs_uring_readv() hands a whole
 * list of vectored reads to the kernel at once and waits for all of them.
 * A kernel or sandbox without io_uring makes f2fs_uring_open() fail, and
 * the caller reads as before.  One ring serves one thread at a time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "uring.h"

#if defined(__linux__) && __has_include(<linux/io_uring.h>)
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/io_uring.h>
#define HAVE_URING 1
#endif

#if defined(HAVE_URING) && defined(__NR_io_uring_setup) && defined(__NR_io_uring_enter) && \
	defined(__NR_io_uring_register)

struct f2fs_uring {
	int fd;
	unsigned int entries;		/* submission slots */
	_Atomic uint32_t *sq_tail, *cq_head, *cq_tail;
	uint32_t sq_mask, cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	void *sq_map, *cq_map;
	size_t sq_len, cq_len, sqe_len;
	bool broken;			/* an error left entries queued: close it */
	bool plain_read;		/* IORING_OP_READ is known (Linux 5.6+) */
	int fixed_fd;			/* registered as file 0, or -1 */
	bool register_tried;
};

static void unmap_rings(struct f2fs_uring *r)
{
	if (r->sqes)
		munmap(r->sqes, r->sqe_len);
	if (r->cq_map && r->cq_map != r->sq_map)
		munmap(r->cq_map, r->cq_len);
	if (r->sq_map)
		munmap(r->sq_map, r->sq_len);
}

/* Map the two rings (one mapping when the kernel shares it) and the
 * submission entries. */
static int map_rings(struct f2fs_uring *r, const struct io_uring_params *p)
{
	uint8_t *sq, *cq;
	uint32_t *array;

	r->sq_len = p->sq_off.array + p->sq_entries * sizeof(uint32_t);
	r->cq_len = p->cq_off.cqes + p->cq_entries * sizeof(struct io_uring_cqe);
	if (p->features & IORING_FEAT_SINGLE_MMAP && r->cq_len > r->sq_len)
		r->sq_len = r->cq_len;
	r->sq_map = mmap(NULL, r->sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
			 r->fd, IORING_OFF_SQ_RING);
	if (r->sq_map == MAP_FAILED) {
		r->sq_map = NULL;
		return -errno;
	}
	if (p->features & IORING_FEAT_SINGLE_MMAP) {
		r->cq_map = r->sq_map;
	} else {
		r->cq_map = mmap(NULL, r->cq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
				 r->fd, IORING_OFF_CQ_RING);
		if (r->cq_map == MAP_FAILED) {
			r->cq_map = NULL;
			return -errno;
		}
	}
	r->sqe_len = p->sq_entries * sizeof(struct io_uring_sqe);
	r->sqes = mmap(NULL, r->sqe_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
		       IORING_OFF_SQES);
	if (r->sqes == MAP_FAILED) {
		r->sqes = NULL;
		return -errno;
	}
	sq = r->sq_map;
	cq = r->cq_map;
	r->sq_tail = (_Atomic uint32_t *)(sq + p->sq_off.tail);
	r->sq_mask = *(uint32_t *)(sq + p->sq_off.ring_mask);
	r->cq_head = (_Atomic uint32_t *)(cq + p->cq_off.head);
	r->cq_tail = (_Atomic uint32_t *)(cq + p->cq_off.tail);
	r->cq_mask = *(uint32_t *)(cq + p->cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(cq + p->cq_off.cqes);
	/* slot i of the ring always names entry i */
	array = (uint32_t *)(sq + p->sq_off.array);
	for (uint32_t i = 0; i < p->sq_entries; i++)
		array[i] = i;
	r->entries = p->sq_entries;
	return 0;
}

int f2fs_uring_open(unsigned int entries, struct f2fs_uring **out)
{
	struct io_uring_params p;
	struct f2fs_uring *r;
	int err;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->fixed_fd = -1;
	memset(&p, 0, sizeof(p));
	r->fd = (int)syscall(__NR_io_uring_setup, entries, &p);
	if (r->fd < 0) {
		err = -errno;
		free(r);
		return err;
	}
	err = map_rings(r, &p);
	if (err < 0) {
		f2fs_uring_close(r);
		return err;
	}
#ifdef IORING_FEAT_RW_CUR_POS
	/* the feature bit came with IORING_OP_READ, in the same release */
	r->plain_read = (p.features & IORING_FEAT_RW_CUR_POS) != 0;
#endif
	*out = r;
	return 0;
}

void f2fs_uring_close(struct f2fs_uring *r)
{
	if (!r)
		return;
	unmap_rings(r);
	close(r->fd);
	free(r);
}

int f2fs_uring_fd(const struct f2fs_uring *r)
{
	return r->fd;
}

void f2fs_uring_register_file(struct f2fs_uring *r, int fd)
{
	long got;

	if (r->register_tried)
		return;
	r->register_tried = true;
	got = syscall(__NR_io_uring_register, r->fd, IORING_REGISTER_FILES, &fd, 1);
	if (got == 0)
		r->fixed_fd = fd;
}

static int enter(struct f2fs_uring *r, unsigned int submit, unsigned int wait)
{
	long got = syscall(__NR_io_uring_enter, r->fd, submit, wait,
			   wait ? IORING_ENTER_GETEVENTS : 0, NULL, 0);

	return got < 0 ? -errno : (int)got;
}

/* Take the completions there are: each names its read by user_data. */
static unsigned int reap(struct f2fs_uring *r, struct f2fs_uring_read *rd, size_t base)
{
	uint32_t head = atomic_load_explicit(r->cq_head, memory_order_relaxed);
	uint32_t tail = atomic_load_explicit(r->cq_tail, memory_order_acquire);
	unsigned int n = 0;

	for (; head != tail; head++, n++) {
		const struct io_uring_cqe *c = &r->cqes[head & r->cq_mask];

		rd[base + c->user_data].res = c->res;
	}
	atomic_store_explicit(r->cq_head, head, memory_order_release);
	return n;
}

/* The read of one list entry: a plain read when it is one buffer and the
 * kernel has IORING_OP_READ (it spares the kernel copying and checking an
 * iovec array per read), else a vectored one. */
static void set_read(const struct f2fs_uring *r, struct io_uring_sqe *s,
		     const struct f2fs_uring_read *rd)
{
	s->fd = rd->fd;
	if (rd->fd == r->fixed_fd) {
		s->fd = 0;
		s->flags = IOSQE_FIXED_FILE;
	}
	s->off = rd->off;
#ifdef IORING_FEAT_RW_CUR_POS
	if (r->plain_read && rd->niov == 1) {
		s->opcode = IORING_OP_READ;
		s->addr = (uint64_t)(uintptr_t)rd->iov[0].iov_base;
		s->len = (uint32_t)rd->iov[0].iov_len;
		return;
	}
#else
	(void)r;
#endif
	s->opcode = IORING_OP_READV;
	s->addr = (uint64_t)(uintptr_t)rd->iov;
	s->len = (uint32_t)rd->niov;
}

/* Submit rd[base..base+n) (n at most the ring's entries) and wait for
 * them all.  An error before anything was submitted is returned with the
 * ring as it was.  Once reads are in flight their buffers are the
 * kernel's until they complete: an error then waits for them, and leaves
 * the ring broken (entries it did not take stay queued in it), to be
 * closed by the caller. */
static int run_chunk(struct f2fs_uring *r, struct f2fs_uring_read *rd, size_t base, unsigned int n,
		     bool nowait)
{
	uint32_t tail = atomic_load_explicit(r->sq_tail, memory_order_relaxed);
	unsigned int submitted = 0, done = 0;
	int err = 0;

	for (unsigned int i = 0; i < n; i++) {
		struct io_uring_sqe *s = &r->sqes[(tail + i) & r->sq_mask];

		memset(s, 0, sizeof(*s));
		set_read(r, s, &rd[base + i]);
		s->rw_flags = nowait ? RWF_NOWAIT : 0;
		s->user_data = i;
		rd[base + i].res = -EIO;
	}
	atomic_store_explicit(r->sq_tail, tail + n, memory_order_release);
	while (done < (err ? submitted : n)) {
		int got = enter(r, err ? 0 : n - submitted, (err ? submitted : n) - done);

		if (got == -EINTR || got == -EAGAIN || got == -EBUSY) {
			done += reap(r, rd, base);
			continue;
		}
		if (got < 0) {
			if (submitted == 0) {
				/* none reached the kernel: take them back */
				atomic_store_explicit(r->sq_tail, tail, memory_order_release);
				return got;
			}
			if (err) {
				r->broken = true;
				return err;	/* cannot even wait: closing the ring ends them */
			}
			err = got;
			r->broken = true;
			continue;
		}
		if (!err)
			submitted += (unsigned int)got;
		done += reap(r, rd, base);
	}
	return err;
}

int f2fs_uring_readv(struct f2fs_uring *r, struct f2fs_uring_read *rd, size_t n, bool nowait)
{
	if (r->broken)
		return -EIO;
	for (size_t i = 0; i < n;) {
		unsigned int k = n - i < r->entries ? (unsigned int)(n - i) : r->entries;
		int err = run_chunk(r, rd, i, k, nowait);

		if (err < 0)
			return err;
		i += k;
	}
	return 0;
}

#else	/* no io_uring: every caller reads the usual way */

int f2fs_uring_open(unsigned int entries, struct f2fs_uring **out)
{
	(void)entries;
	*out = NULL;
	return -ENOSYS;
}

void f2fs_uring_close(struct f2fs_uring *r)
{
	(void)r;
}

int f2fs_uring_fd(const struct f2fs_uring *r)
{
	(void)r;
	return -1;
}

void f2fs_uring_register_file(struct f2fs_uring *r, int fd)
{
	(void)r;
	(void)fd;
}

int f2fs_uring_readv(struct f2fs_uring *r, struct f2fs_uring_read *rd, size_t n, bool nowait)
{
	(void)r;
	(void)rd;
	(void)n;
	(void)nowait;
	return -ENOSYS;
}

#endif
