/*
 * workers.c - the worker pool of f2fs_workers.h.
 *
 * The pool holds up to MAX_OPEN open jobs, oldest first.  Items of a job
 * are claimed in increasing order from the job's atomic counter, by the
 * workers and by the consumer alike; each computed item raises its own
 * done flag.  A worker enters a job under the pool's lock and counts
 * itself in the job's busy count; f2fs_job_finish() closes the job (no
 * worker enters it any more, no item is claimed) and waits for the busy
 * count to drop, so a job's inputs are free to change afterwards.  A
 * worker goes back to pick a job after each item when a newer job was
 * opened meanwhile: the consumer waits on the newest.  Background jobs
 * (work the consumer needs later, such as reads ahead) are served only
 * when no other job has an item left, the oldest first.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#include "f2fs_workers.h"

#define MAX_OPEN	F2FS_WORKERS_MAX_OPEN

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

struct f2fs_job {
	f2fs_work_fn fn;
	void *arg;
	uint32_t n;
	atomic_uint next;	/* the next unclaimed item */
	atomic_uchar *done;	/* per item: its result is written */
	uint32_t cap;
	unsigned int busy;	/* workers inside (under the pool's lock) */
	bool open;
	bool background;	/* served after every other job, oldest first */
};

struct f2fs_workers {
	pthread_t *threads;
	unsigned int started;
	pthread_mutex_t lock;
	pthread_cond_t wake;	/* a job was opened, or stop */
	pthread_cond_t idle;	/* a worker left a job */
	struct f2fs_job *open[MAX_OPEN];	/* oldest first */
	unsigned int nopen;
	atomic_uint opened;	/* jobs opened so far: workers look for news */
	bool stop;
};

struct f2fs_job *f2fs_job_new(void)
{
	struct f2fs_job *job = calloc(1, sizeof(*job));

	if (job)
		atomic_init(&job->next, 0);
	return job;
}

void f2fs_job_free(struct f2fs_job *job)
{
	if (!job)
		return;
	free(job->done);
	free(job);
}

static bool has_items(struct f2fs_job *job)
{
	return atomic_load_explicit(&job->next, memory_order_relaxed) < job->n;
}

/* The job to serve (under the lock): the newest open one with an item
 * left to claim, else the oldest background one with an item left. */
static struct f2fs_job *pick_job(struct f2fs_workers *wk)
{
	for (unsigned int k = wk->nopen; k-- > 0;)
		if (!wk->open[k]->background && has_items(wk->open[k]))
			return wk->open[k];
	for (unsigned int k = 0; k < wk->nopen; k++)
		if (wk->open[k]->background && has_items(wk->open[k]))
			return wk->open[k];
	return NULL;
}

/* Claim and compute the job's items until none is left or a newer job
 * was opened than the one seen. */
static void run_items(struct f2fs_workers *wk, struct f2fs_job *job, unsigned int seen)
{
	for (;;) {
		unsigned int i = atomic_fetch_add_explicit(&job->next, 1, memory_order_relaxed);

		if (i >= job->n)
			return;
		job->fn(job->arg, i);
		atomic_store_explicit(&job->done[i], 1, memory_order_release);
		if (atomic_load_explicit(&wk->opened, memory_order_relaxed) != seen)
			return;
	}
}

/* How long an idle worker watches for a new job before it sleeps, and
 * how many pauses it makes between looks at the clock. */
#define WATCH_NS	50000u
#define WATCH_PAUSES	64u

static uint64_t monotonic_ns(void)
{
	struct timespec t;

	if (clock_gettime(CLOCK_MONOTONIC, &t))
		return 0;	/* no clock: the watch ends after this round */
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* With nothing to do, a worker watches for a new job a short while
 * before it sleeps (called and returning with the lock held): the walk
 * opens a job every few tens of microseconds, and a sleeping worker
 * takes longer than that to wake, so the walk would do the job's items
 * itself.  True when a job was opened meanwhile. */
static bool await_news(struct f2fs_workers *wk)
{
	unsigned int seen = atomic_load_explicit(&wk->opened, memory_order_relaxed);
	bool news = false;
	uint64_t start;

	pthread_mutex_unlock(&wk->lock);
	start = monotonic_ns();
	do {
		for (unsigned int i = 0; i < WATCH_PAUSES && !news; i++) {
			cpu_relax();
			news = atomic_load_explicit(&wk->opened, memory_order_relaxed) != seen;
		}
	} while (!news && start && monotonic_ns() - start < WATCH_NS);
	pthread_mutex_lock(&wk->lock);
	return news || wk->stop;
}

static void *worker_main(void *p)
{
	struct f2fs_workers *wk = p;

	pthread_mutex_lock(&wk->lock);
	while (!wk->stop) {
		struct f2fs_job *job = pick_job(wk);
		unsigned int seen;

		if (!job) {
			if (!await_news(wk))
				pthread_cond_wait(&wk->wake, &wk->lock);
			continue;
		}
		job->busy++;
		seen = atomic_load_explicit(&wk->opened, memory_order_relaxed);
		pthread_mutex_unlock(&wk->lock);
		run_items(wk, job, seen);
		pthread_mutex_lock(&wk->lock);
		if (--job->busy == 0 && !job->open)
			pthread_cond_broadcast(&wk->idle);
	}
	pthread_mutex_unlock(&wk->lock);
	return NULL;
}

struct f2fs_workers *f2fs_workers_start(unsigned int nthreads, int *err)
{
	struct f2fs_workers *wk = calloc(1, sizeof(*wk));

	*err = 0;
	if (!wk) {
		*err = -ENOMEM;
		return NULL;
	}
	wk->threads = calloc(nthreads ? nthreads : 1, sizeof(*wk->threads));
	if (!wk->threads) {
		free(wk);
		*err = -ENOMEM;
		return NULL;
	}
	pthread_mutex_init(&wk->lock, NULL);
	pthread_cond_init(&wk->wake, NULL);
	pthread_cond_init(&wk->idle, NULL);
	atomic_init(&wk->opened, 0);
	for (unsigned int t = 0; t < nthreads; t++) {
		int rc = pthread_create(&wk->threads[t], NULL, worker_main, wk);

		if (rc) {
			*err = -rc;
			f2fs_workers_stop(wk);
			return NULL;
		}
		wk->started++;
	}
	return wk;
}

unsigned int f2fs_workers_count(const struct f2fs_workers *wk)
{
	return wk ? wk->started : 0;
}

void f2fs_workers_stop(struct f2fs_workers *wk)
{
	if (!wk)
		return;
	pthread_mutex_lock(&wk->lock);
	wk->stop = true;
	pthread_cond_broadcast(&wk->wake);
	pthread_mutex_unlock(&wk->lock);
	for (unsigned int t = 0; t < wk->started; t++)
		pthread_join(wk->threads[t], NULL);
	pthread_cond_destroy(&wk->idle);
	pthread_cond_destroy(&wk->wake);
	pthread_mutex_destroy(&wk->lock);
	free(wk->threads);
	free(wk);
}

static int open_job(struct f2fs_workers *wk, struct f2fs_job *job, f2fs_work_fn fn, void *arg,
		    uint32_t n, bool background)
{
	if (n > job->cap) {
		atomic_uchar *d = realloc(job->done, (size_t)n * sizeof(*d));

		if (!d)
			return -ENOMEM;
		job->done = d;
		job->cap = n;
	}
	for (uint32_t i = 0; i < n; i++)
		atomic_store_explicit(&job->done[i], 0, memory_order_relaxed);
	atomic_store_explicit(&job->next, 0, memory_order_relaxed);
	job->fn = fn;
	job->arg = arg;
	job->n = n;
	pthread_mutex_lock(&wk->lock);
	if (wk->nopen == MAX_OPEN) {
		pthread_mutex_unlock(&wk->lock);
		return -EBUSY;
	}
	job->open = true;
	job->background = background;
	job->busy = 0;
	wk->open[wk->nopen++] = job;
	atomic_fetch_add_explicit(&wk->opened, 1, memory_order_relaxed);
	if (wk->started)
		pthread_cond_broadcast(&wk->wake);
	pthread_mutex_unlock(&wk->lock);
	return 0;
}

int f2fs_job_run(struct f2fs_workers *wk, struct f2fs_job *job, f2fs_work_fn fn, void *arg,
		 uint32_t n)
{
	return open_job(wk, job, fn, arg, n, false);
}

int f2fs_job_run_background(struct f2fs_workers *wk, struct f2fs_job *job, f2fs_work_fn fn,
			    void *arg, uint32_t n)
{
	return open_job(wk, job, fn, arg, n, true);
}

void f2fs_job_take(struct f2fs_job *job, uint32_t i)
{
	while (!atomic_load_explicit(&job->done[i], memory_order_acquire)) {
		unsigned int c = atomic_load_explicit(&job->next, memory_order_relaxed);

		/* Item i is unclaimed, or a worker is computing it: either way
		 * the consumer computes the next unclaimed item rather than
		 * wait, so a wait costs no CPU that the job still needs. */
		if (c < job->n) {
			c = atomic_fetch_add_explicit(&job->next, 1, memory_order_relaxed);
			if (c < job->n) {
				job->fn(job->arg, c);
				atomic_store_explicit(&job->done[c], 1, memory_order_release);
			}
			continue;
		}
		sched_yield();	/* every item is claimed: i is being computed */
	}
}

void f2fs_job_finish(struct f2fs_workers *wk, struct f2fs_job *job)
{
	unsigned int k;

	pthread_mutex_lock(&wk->lock);
	job->open = false;
	/* no item is claimed any more; those claimed are finished below */
	atomic_store_explicit(&job->next, job->n, memory_order_relaxed);
	while (job->busy)
		pthread_cond_wait(&wk->idle, &wk->lock);
	for (k = 0; k < wk->nopen && wk->open[k] != job; k++)
		;
	if (k < wk->nopen) {
		for (; k + 1 < wk->nopen; k++)
			wk->open[k] = wk->open[k + 1];
		wk->nopen--;
	}
	pthread_mutex_unlock(&wk->lock);
}
