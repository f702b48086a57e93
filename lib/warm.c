/*
 * warm.c - pages of an array touched ahead of its owner (f2fs_warm.h).
 *
 * Two windows of pages, each a background job of the pool with one item
 * per page, alternate ahead of the owner: when it has less than a window
 * of pages touched or pending ahead of it, the closed window opens on the
 * next pages; the owner takes each page of a window (the pool's
 * f2fs_job_take: done by a worker, or touched then by the owner) as it
 * reaches it, and closes the window with its last page.  Windows only
 * ever open past every page the owner has reached, and only on whole
 * pages inside the array, so a worker writes no byte the owner wrote or
 * will write before it took the page.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "f2fs_array.h"
#include "f2fs_warm.h"
#include "f2fs_workers.h"

/* Arrays are left alone below this: a small directory's stack would cost
 * a job for nothing. */
#define WARM_MIN	((size_t)64 << 10)

/* Item i of a window: write a zero byte to its page i (nobody else
 * writes that page until the owner took it). */
static void touch_page(void *arg, uint32_t i)
{
	const struct f2fs_warm_window *win = arg;
	volatile uint8_t *p = win->first + (size_t)i * win->page;

	*p = 0;
}

int f2fs_warm_init(struct f2fs_warm *wm, struct f2fs_workers *pool)
{
	long page = sysconf(_SC_PAGESIZE);

	*wm = (struct f2fs_warm){ 0 };
	if (!pool || !f2fs_workers_count(pool))
		return 0;
	for (unsigned int k = 0; k < 2; k++) {
		wm->win[k].job = f2fs_job_new();
		wm->win[k].page = page > 0 ? (size_t)page : 4096;
		if (!wm->win[k].job) {
			f2fs_warm_free(wm);
			return -ENOMEM;
		}
	}
	wm->page = wm->win[0].page;
	wm->pool = pool;
	return 0;
}

static void close_window(struct f2fs_warm *wm, struct f2fs_warm_window *win)
{
	if (!win->open)
		return;
	f2fs_job_finish(wm->pool, win->job);
	win->open = false;
}

void f2fs_warm_stop(struct f2fs_warm *wm)
{
	if (wm->pool)
		for (unsigned int k = 0; k < 2; k++)
			close_window(wm, &wm->win[k]);
	wm->base = NULL;
	wm->cap = wm->ready = 0;
	wm->frontier = wm->end = 0;
}

void f2fs_warm_free(struct f2fs_warm *wm)
{
	f2fs_warm_stop(wm);
	for (unsigned int k = 0; k < 2; k++)
		f2fs_job_free(wm->win[k].job);
	*wm = (struct f2fs_warm){ 0 };
}

/* The owner's pages up to page pg (an index of addresses / page) are its
 * own: take them from the windows that cover them. */
static void take_until(struct f2fs_warm *wm, uintptr_t pg)
{
	for (unsigned int k = 0; k < 2; k++) {
		struct f2fs_warm_window *win = &wm->win[k];
		uintptr_t first = (uintptr_t)win->first / wm->page;

		if (!win->open)
			continue;
		while (win->taken < win->pages && first + win->taken <= pg)
			f2fs_job_take(win->job, win->taken++);
		if (win->taken == win->pages)
			close_window(wm, win);
	}
}

/* Open a closed window on the next pages while less than a window lies
 * touched or pending past page pg. */
static void open_ahead(struct f2fs_warm *wm, uintptr_t pg)
{
	uintptr_t low = F2FS_WARM_WINDOW / wm->page;

	if (wm->frontier <= pg)
		wm->frontier = pg + 1;
	for (unsigned int k = 0; k < 2 && wm->frontier - pg - 1 < low && wm->frontier < wm->end;
	     k++) {
		struct f2fs_warm_window *win = &wm->win[k];
		uintptr_t pages = F2FS_WARM_WINDOW / wm->page;

		if (win->open)
			continue;
		if (pages > wm->end - wm->frontier)
			pages = wm->end - wm->frontier;
		win->first = wm->base + (wm->frontier * wm->page - (uintptr_t)wm->base);
		win->pages = (uint32_t)pages;
		win->taken = 0;
		if (f2fs_job_run_background(wm->pool, win->job, touch_page, win, win->pages) != 0)
			return;	/* the pool is full: the owner touches them */
		win->open = true;
		wm->frontier += pages;
	}
}

size_t f2fs_warm_reach(struct f2fs_warm *wm, void *base, size_t cap, size_t need)
{
	uintptr_t pg;

	if (!wm->pool || need > cap)
		return wm->ready = cap;
	if (need < WARM_MIN)
		return wm->ready = WARM_MIN < cap ? WARM_MIN : cap;
	if (base != wm->base || cap != wm->cap) {
		f2fs_warm_stop(wm);
		wm->base = base;
		wm->cap = cap;
		wm->end = ((uintptr_t)base + cap) / wm->page;
	}
	pg = ((uintptr_t)base + need - 1) / wm->page;
	take_until(wm, pg);
	open_ahead(wm, pg);
	need = (pg + 1) * wm->page - (uintptr_t)base;
	return wm->ready = need < cap ? need : cap;
}

int f2fs_warm_room32(struct f2fs_warm *wm, void *arrp, size_t elem, uint32_t *cap, uint32_t need,
		     uint32_t min_cap)
{
	void *arr;

	if (need > *cap) {
		int err;

		f2fs_warm_stop(wm);
		err = f2fs_array_grow32(arrp, elem, cap, need, min_cap);
		if (err)
			return err;
	}
	if ((size_t)need * elem > wm->ready) {
		memcpy(&arr, arrp, sizeof(arr));
		f2fs_warm_reach(wm, arr, (size_t)*cap * elem, (size_t)need * elem);
	}
	return 0;
}
