/*
 * test_warm.c - unit tests of lib/warm.c: an owner filling an array in
 * order, asking f2fs_warm_reach() as it goes, finds every byte it wrote
 * intact (a worker only writes pages the owner has not reached) and no
 * byte past the array written; the allowance covers the need and stays
 * inside the array; growth by realloc (stopped first), a fill that falls
 * back and grows again, an array grown by f2fs_warm_room32() and a pool
 * without workers all hold; and a worker does touch the pages ahead of
 * the owner.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "f2fs_warm.h"
#include "f2fs_workers.h"
#include "unit.h"

#define GUARD	4096u

static uint8_t pattern(size_t i)
{
	return (uint8_t)(i * 131 + 7) | 1;	/* never 0: a worker writes 0 */
}

/* Fill bytes [from, to) of arr in steps of step, as a stack pushes. */
static void fill(struct f2fs_warm *wm, uint8_t *arr, size_t cap, size_t *ready, size_t from,
		 size_t to, size_t step)
{
	for (size_t at = from; at < to; at += step) {
		size_t end = at + step < to ? at + step : to;

		if (end > *ready) {
			*ready = f2fs_warm_reach(wm, arr, cap, end);
			CHECK(*ready >= end);
			CHECK(*ready <= cap);
		}
		for (size_t i = at; i < end; i++)
			arr[i] = pattern(i);
	}
}

static bool intact(const uint8_t *arr, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (arr[i] != pattern(i))
			return false;
	return true;
}

/* An array with a guard after it: no byte of the guard may change. */
static uint8_t *guarded(size_t cap)
{
	uint8_t *a = malloc(cap + GUARD);

	if (!a)
		abort();
	memset(a + cap, 0xA5, GUARD);
	return a;
}

static bool guard_kept(const uint8_t *a, size_t cap)
{
	for (size_t i = 0; i < GUARD; i++)
		if (a[cap + i] != 0xA5)
			return false;
	return true;
}

static void test_fill(unsigned int nthreads, size_t cap, size_t step)
{
	int err;
	struct f2fs_workers *wk = f2fs_workers_start(nthreads, &err);
	struct f2fs_warm wm;
	uint8_t *a = guarded(cap);
	size_t ready = 0;

	CHECK(wk != NULL);
	CHECK_EQ_U64(f2fs_warm_init(&wm, wk), 0);
	fill(&wm, a, cap, &ready, 0, cap, step);
	f2fs_warm_stop(&wm);
	CHECK(intact(a, cap));
	CHECK(guard_kept(a, cap));
	f2fs_warm_free(&wm);
	f2fs_workers_stop(wk);
	free(a);
}

/* Fill, fall back (pops), fill again past the first high mark, then grow
 * by realloc (stopped first) and fill the new room. */
static void test_refill_and_grow(void)
{
	int err;
	struct f2fs_workers *wk = f2fs_workers_start(1, &err);
	struct f2fs_warm wm;
	size_t cap = (size_t)3 << 20, ready = 0;
	uint8_t *a = guarded(cap), *b;

	CHECK_EQ_U64(f2fs_warm_init(&wm, wk), 0);
	fill(&wm, a, cap, &ready, 0, cap / 2, 48);
	fill(&wm, a, cap, &ready, cap / 4, cap - 100, 48);	/* back, then further */
	CHECK(intact(a, cap - 100));
	f2fs_warm_stop(&wm);
	ready = 0;
	b = realloc(a, 2 * cap + GUARD);
	if (!b)
		abort();
	memset(b + 2 * cap, 0xA5, GUARD);
	fill(&wm, b, 2 * cap, &ready, cap - 100, 2 * cap, 24);
	f2fs_warm_stop(&wm);
	CHECK(intact(b, 2 * cap));
	CHECK(guard_kept(b, 2 * cap));
	f2fs_warm_free(&wm);
	f2fs_workers_stop(wk);
	free(b);
}

/* f2fs_warm_room32(): an array grown from nothing as it is filled, one
 * element at a time, keeps every element (the warming stopped at each
 * move, the pages taken before each write). */
static void test_room32(void)
{
	int err;
	struct f2fs_workers *wk = f2fs_workers_start(2, &err);
	struct f2fs_warm wm;
	uint32_t *v = NULL, cap = 0, n = 0, bad = 0;

	CHECK_EQ_U64(f2fs_warm_init(&wm, wk), 0);
	for (; n < 600000; n++) {
		if (f2fs_warm_room32(&wm, &v, sizeof(*v), &cap, n + 1, 16)) {
			CHECK(!"out of memory");
			break;
		}
		CHECK((size_t)(n + 1) * sizeof(*v) <= wm.ready || n + 1 > cap);
		v[n] = n * 2654435761u | 1;
	}
	f2fs_warm_stop(&wm);
	for (uint32_t i = 0; i < n; i++)
		bad += v[i] != (i * 2654435761u | 1);
	CHECK_EQ_U64(bad, 0);
	CHECK(cap >= n);
	f2fs_warm_free(&wm);
	f2fs_workers_stop(wk);
	free(v);
}

/* No pool, or a pool of no workers: everything is allowed at once. */
static void test_no_workers(void)
{
	int err;
	struct f2fs_workers *wk = f2fs_workers_start(0, &err);
	struct f2fs_warm wm;
	uint8_t arr[64];

	CHECK_EQ_U64(f2fs_warm_init(&wm, NULL), 0);
	CHECK_EQ_U64(f2fs_warm_reach(&wm, arr, sizeof(arr), 1), sizeof(arr));
	f2fs_warm_free(&wm);
	CHECK_EQ_U64(f2fs_warm_init(&wm, wk), 0);
	CHECK_EQ_U64(f2fs_warm_reach(&wm, arr, sizeof(arr), 10), sizeof(arr));
	f2fs_warm_free(&wm);
	f2fs_workers_stop(wk);
}

/* A worker touches the pages past the allowance: the next page becomes
 * resident while the owner waits (mincore()). */
static void test_touches_ahead(void)
{
	int err;
	long page = sysconf(_SC_PAGESIZE);
	size_t cap = (size_t)4 << 20, ready;
	struct f2fs_workers *wk = f2fs_workers_start(1, &err);
	struct f2fs_warm wm;
	uint8_t *a = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char vec = 0;
	bool resident = false;

	CHECK(a != MAP_FAILED);
	if (a == MAP_FAILED || page <= 0)
		return;
	CHECK_EQ_U64(f2fs_warm_init(&wm, wk), 0);
	ready = f2fs_warm_reach(&wm, a, cap, (size_t)128 << 10);
	CHECK(ready >= ((size_t)128 << 10));
	for (int i = 0; i < 2000 && !resident; i++) {
		CHECK_EQ_U64(mincore(a + ready, (size_t)page, &vec), 0);
		resident = vec & 1;
		if (!resident)
			nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	}
	CHECK(resident);
	f2fs_warm_free(&wm);
	f2fs_workers_stop(wk);
	munmap(a, cap);
}

int main(void)
{
	test_no_workers();
	for (unsigned int t = 1; t <= 3; t++) {
		test_fill(t, (size_t)5 << 20, 48);
		test_fill(t, ((size_t)1 << 20) + 123, 4096 + 5);
		test_fill(t, (size_t)70000, 1);
	}
	test_refill_and_grow();
	test_room32();
	test_touches_ahead();
	return unit_finish("test_warm");
}
