/*
 * f2fs_workers.h - a small pool of worker threads that computes the items
 * of a job (0..n-1) ahead of the thread that consumes them in order.
 *
 * A job's function must be pure as far as the pool's users are concerned:
 * it reads data nobody changes while the job is open, and writes only item
 * i's own result.  The consumer asks for item i with f2fs_job_take()
 * before it reads that result; when no worker has claimed the item yet the
 * consumer computes it itself, so a pool without workers, or workers slow
 * to wake, only cost time, and results never depend on the number of
 * workers.  Several jobs may be open at once (a job opened while another
 * is consumed, e.g. a directory's blocks while its inode's batch is open);
 * workers serve the newest first, background jobs last.
 */
#ifndef F2FS_WORKERS_H
#define F2FS_WORKERS_H

#include <stdint.h>

struct f2fs_workers;
struct f2fs_job;

typedef void (*f2fs_work_fn)(void *arg, uint32_t item);

/* Start nthreads workers (0 is valid: the consumer does every item).
 * Returns NULL with *err set (negative errno) on failure. */
struct f2fs_workers *f2fs_workers_start(unsigned int nthreads, int *err);

/* Threads the pool runs (not counting the consumer). */
unsigned int f2fs_workers_count(const struct f2fs_workers *wk);

/* Stop and join the workers, free the pool (NULL is fine).  Every job must
 * have been finished. */
void f2fs_workers_stop(struct f2fs_workers *wk);

/* A job's state, reusable from one run to the next (NULL on ENOMEM). */
struct f2fs_job *f2fs_job_new(void);
void f2fs_job_free(struct f2fs_job *job);

/* Jobs a pool holds open at once. */
#define F2FS_WORKERS_MAX_OPEN	10u

/* Open job for n items of fn(arg, i).  Returns -EBUSY when the pool has
 * F2FS_WORKERS_MAX_OPEN jobs open, -ENOMEM; nothing is opened then. */
int f2fs_job_run(struct f2fs_workers *wk, struct f2fs_job *job, f2fs_work_fn fn, void *arg,
		 uint32_t n);

/* The same for a job the consumer needs only later (reads ahead of it):
 * workers serve it when no other job has an item left, background jobs
 * in the order they were opened. */
int f2fs_job_run_background(struct f2fs_workers *wk, struct f2fs_job *job, f2fs_work_fn fn,
			    void *arg, uint32_t n);

/* Item i of the open job is computed when this returns. */
void f2fs_job_take(struct f2fs_job *job, uint32_t i);

/* Close the job and wait until no worker is inside it; items nobody
 * claimed stay uncomputed.  The job's inputs may change after this. */
void f2fs_job_finish(struct f2fs_workers *wk, struct f2fs_job *job);

#endif
