/*
 * f2fs_warm.h - the next pages of an array filled in order, touched
 * first by a worker thread (f2fs_workers.h) while the thread that fills
 * it does other work.
 *
 * The first write to an anonymous page costs a page fault, and on a
 * virtual machine with shadow page tables (the 2-core guests of issue 16)
 * about 12 us: the walk's stack and name arrays for a directory of
 * 100,000 names are some 3,000 such pages, a fifth of the check.  A page
 * another thread wrote first costs the filling thread nothing.  So a
 * worker writes a zero byte to each page of a window ahead of the owner,
 * which takes the pages over one by one through the pool's job (a page
 * nobody touched yet the owner touches itself, as it would have): the
 * worker only ever writes pages the owner has not reached, and the
 * owner reaches a page only once the worker is done with it.
 *
 * The owner calls f2fs_warm_reach() before it writes past the bytes the
 * last call allowed, and f2fs_warm_stop() before the array moves or is
 * freed (a realloc).  Without a pool or workers every byte is allowed at
 * once and nothing is touched ahead.
 */
#ifndef F2FS_WARM_H
#define F2FS_WARM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct f2fs_workers;
struct f2fs_job;

/* Bytes a window covers: a window opens when less than one lies ahead of
 * the owner, so at most two are touched ahead of it. */
#define F2FS_WARM_WINDOW	((size_t)128 << 10)

/* Pages a worker touches: one job, an item per page. */
struct f2fs_warm_window {
	struct f2fs_job *job;
	uint8_t *first;			/* its first page */
	size_t page;
	uint32_t pages, taken;		/* pages it covers, pages the owner took */
	bool open;
};

struct f2fs_warm {
	struct f2fs_workers *pool;	/* NULL: nothing is touched ahead */
	size_t page;
	uint8_t *base;			/* the array being filled, or NULL */
	size_t cap;			/* its bytes */
	size_t ready;			/* bytes the owner may write without
					 * asking again (0 after a stop) */
	/* pages as address / page: */
	uintptr_t end;			/* past the array's last whole page */
	uintptr_t frontier;		/* the first page no window covered */
	struct f2fs_warm_window win[2];
};

/* Set up (jobs allocated; pool may be NULL).  Returns 0 or -ENOMEM, in
 * which case the struct is still valid and touches nothing ahead. */
int f2fs_warm_init(struct f2fs_warm *wm, struct f2fs_workers *pool);

/* The owner will write the bytes [0, need) of the array at base, of cap
 * bytes: the pages up to need's are its own when this returns.  Returns
 * the bytes it may write before it calls again (at least need; kept in
 * wm->ready). */
size_t f2fs_warm_reach(struct f2fs_warm *wm, void *base, size_t cap, size_t need);

/* F2FS_ARRAY_ROOM32 for a warmed array (a T ** as void *, elements of
 * elem bytes, capacity *cap): room for need elements, grown (warming
 * stopped first: the array moves) when short, and the bytes of the first
 * need elements the owner's.  0, or f2fs_array_grow32()'s error. */
int f2fs_warm_room32(struct f2fs_warm *wm, void *arrp, size_t elem, uint32_t *cap, uint32_t need,
		     uint32_t min_cap);

/* No worker touches the array any more (before it moves or is freed). */
void f2fs_warm_stop(struct f2fs_warm *wm);

/* Stop, and free the jobs. */
void f2fs_warm_free(struct f2fs_warm *wm);

#endif
