/*
 * test_workers.c - unit tests of lib/workers.c: every item of a job is
 * computed exactly once and is done when f2fs_job_take() returns, with
 * no worker, one or several; a job opened while another is consumed (as
 * a directory's blocks inside an inode batch) is served and finished
 * without disturbing the outer one; a finished job is reused; a worker
 * never touches a job after f2fs_job_finish() returns; the pool refuses
 * a job past F2FS_WORKERS_MAX_OPEN; a worker serves the newest ordinary
 * job first and background jobs last, the oldest of them first.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs_workers.h"
#include "unit.h"

#define ITEMS	4096u

struct job_data {
	atomic_uint calls[ITEMS];	/* computations of each item */
	uint64_t out[ITEMS];
	atomic_bool closed;		/* set once the job was finished */
	atomic_uint late;		/* items computed after that */
};

static void compute(void *arg, uint32_t i)
{
	struct job_data *d = arg;
	uint64_t x = i + 1;

	if (atomic_load(&d->closed))
		atomic_fetch_add(&d->late, 1);
	for (int k = 0; k < 200; k++)	/* some work, so workers overlap */
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	d->out[i] = x;
	atomic_fetch_add(&d->calls[i], 1);
}

static uint64_t expected(uint32_t i)
{
	uint64_t x = i + 1;

	for (int k = 0; k < 200; k++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	return x;
}

static struct job_data *new_data(void)
{
	struct job_data *d = calloc(1, sizeof(*d));

	if (!d)
		abort();
	return d;
}

/* Take every item in order: each is right when taken, computed once. */
static void consume(struct f2fs_job *job, struct job_data *d, uint32_t n, uint32_t *bad)
{
	for (uint32_t i = 0; i < n; i++) {
		f2fs_job_take(job, i);
		if (d->out[i] != expected(i) || atomic_load(&d->calls[i]) != 1)
			(*bad)++;
	}
}

static void test_counts(unsigned int nthreads)
{
	int err;
	struct f2fs_workers *wk = f2fs_workers_start(nthreads, &err);
	struct f2fs_job *job = f2fs_job_new();
	uint32_t bad = 0;

	CHECK(wk != NULL && err == 0 && job != NULL);
	CHECK_EQ_U64(f2fs_workers_count(wk), nthreads);
	for (uint32_t round = 0; round < 50; round++) {
		struct job_data *d = new_data();
		uint32_t n = 1 + (round * 97) % ITEMS;

		CHECK_EQ_U64(f2fs_job_run(wk, job, compute, d, n), 0);
		consume(job, d, n, &bad);
		f2fs_job_finish(wk, job);
		atomic_store(&d->closed, true);
		for (uint32_t i = 0; i < ITEMS; i++)
			if (atomic_load(&d->calls[i]) != (i < n))
				bad++;
		CHECK_EQ_U64(atomic_load(&d->late), 0);
		free(d);
	}
	CHECK_EQ_U64(bad, 0);
	f2fs_job_free(job);
	f2fs_workers_stop(wk);
}

/* A job finished before its items were taken: the workers leave it, no
 * item is computed twice, nothing runs after the finish. */
static void test_early_finish(void)
{
	int err;
	struct f2fs_workers *wk = f2fs_workers_start(3, &err);
	struct f2fs_job *job = f2fs_job_new();
	uint32_t bad = 0;

	CHECK(wk != NULL && job != NULL);
	for (uint32_t round = 0; round < 50; round++) {
		struct job_data *d = new_data();

		CHECK_EQ_U64(f2fs_job_run(wk, job, compute, d, ITEMS), 0);
		if (round % 2)
			f2fs_job_take(job, round);
		f2fs_job_finish(wk, job);
		atomic_store(&d->closed, true);
		for (uint32_t i = 0; i < ITEMS; i++)
			if (atomic_load(&d->calls[i]) > 1)
				bad++;
		/* give a late worker the chance to show itself */
		for (volatile int spin = 0; spin < 100000; spin++)
			;
		CHECK_EQ_U64(atomic_load(&d->late), 0);
		free(d);
	}
	CHECK_EQ_U64(bad, 0);
	f2fs_job_free(job);
	f2fs_workers_stop(wk);
}

/* An inner job opened and finished in the middle of an outer one. */
static void test_nested(unsigned int nthreads)
{
	int err;
	struct f2fs_workers *wk = f2fs_workers_start(nthreads, &err);
	struct f2fs_job *outer = f2fs_job_new(), *inner = f2fs_job_new();
	struct job_data *o = new_data();
	uint32_t bad = 0;

	CHECK(wk != NULL && outer != NULL && inner != NULL);
	CHECK_EQ_U64(f2fs_job_run(wk, outer, compute, o, 256), 0);
	for (uint32_t i = 0; i < 256; i++) {
		f2fs_job_take(outer, i);
		if (o->out[i] != expected(i) || atomic_load(&o->calls[i]) != 1)
			bad++;
		if (i % 32 == 5) {
			struct job_data *d = new_data();
			uint32_t n = 2 + i % 7;

			CHECK_EQ_U64(f2fs_job_run(wk, inner, compute, d, n), 0);
			consume(inner, d, n, &bad);
			f2fs_job_finish(wk, inner);
			free(d);
		}
	}
	f2fs_job_finish(wk, outer);
	CHECK_EQ_U64(bad, 0);
	free(o);
	f2fs_job_free(outer);
	f2fs_job_free(inner);
	f2fs_workers_stop(wk);
}

static void test_open_limit(void)
{
	int err;
	struct f2fs_workers *wk = f2fs_workers_start(1, &err);
	const int max = (int)F2FS_WORKERS_MAX_OPEN;
	struct f2fs_job *jobs[F2FS_WORKERS_MAX_OPEN + 1];
	struct job_data *d = new_data();

	CHECK(wk != NULL);
	for (int k = 0; k <= max; k++)
		jobs[k] = f2fs_job_new();
	for (int k = 0; k < max; k++)
		CHECK_EQ_U64(f2fs_job_run(wk, jobs[k], compute, d, 1), 0);
	CHECK(f2fs_job_run(wk, jobs[max], compute, d, 1) == -EBUSY);
	CHECK(f2fs_job_run_background(wk, jobs[max], compute, d, 1) == -EBUSY);
	for (int k = max - 1; k >= 0; k--)
		f2fs_job_finish(wk, jobs[k]);
	for (int k = 0; k <= max; k++)
		f2fs_job_free(jobs[k]);
	free(d);
	f2fs_workers_stop(wk);
}

/* The order one worker serves jobs in: a gate job holds the worker in
 * its only item while two background jobs and then an ordinary one are
 * opened; released, the worker takes the ordinary job's items, then the
 * older background job's, then the newer one's. */
struct order_data {
	atomic_bool in_gate, open_gate;
	atomic_uint seq;
	unsigned int when[3][4];	/* job, item: position served */
};

static void gate(void *arg, uint32_t i)
{
	struct order_data *o = arg;

	(void)i;
	atomic_store(&o->in_gate, true);
	while (!atomic_load(&o->open_gate))
		;
}

static void note(struct order_data *o, int job, uint32_t i)
{
	o->when[job][i] = atomic_fetch_add(&o->seq, 1);
}

static void served_fg(void *arg, uint32_t i) { note(arg, 0, i); }
static void served_bg_old(void *arg, uint32_t i) { note(arg, 1, i); }
static void served_bg_new(void *arg, uint32_t i) { note(arg, 2, i); }

static void test_background_order(void)
{
	int err;
	struct f2fs_workers *wk = f2fs_workers_start(1, &err);
	struct f2fs_job *g = f2fs_job_new(), *fg = f2fs_job_new();
	struct f2fs_job *old = f2fs_job_new(), *new = f2fs_job_new();
	struct order_data *o = calloc(1, sizeof(*o));

	CHECK(wk && g && fg && old && new && o);
	CHECK_EQ_U64(f2fs_job_run(wk, g, gate, o, 1), 0);
	while (!atomic_load(&o->in_gate))
		;
	CHECK_EQ_U64(f2fs_job_run_background(wk, old, served_bg_old, o, 4), 0);
	CHECK_EQ_U64(f2fs_job_run_background(wk, new, served_bg_new, o, 4), 0);
	CHECK_EQ_U64(f2fs_job_run(wk, fg, served_fg, o, 4), 0);
	atomic_store(&o->open_gate, true);
	/* wait for the worker to serve all twelve items on its own */
	while (atomic_load(&o->seq) < 12)
		;
	for (uint32_t i = 0; i < 4; i++) {
		CHECK_EQ_U64(o->when[0][i], i);
		CHECK_EQ_U64(o->when[1][i], 4 + i);
		CHECK_EQ_U64(o->when[2][i], 8 + i);
	}
	for (uint32_t i = 0; i < 4; i++) {
		f2fs_job_take(fg, i);
		f2fs_job_take(old, i);
		f2fs_job_take(new, i);
	}
	f2fs_job_take(g, 0);
	f2fs_job_finish(wk, fg);
	f2fs_job_finish(wk, new);
	f2fs_job_finish(wk, old);
	f2fs_job_finish(wk, g);
	f2fs_job_free(g);
	f2fs_job_free(fg);
	f2fs_job_free(old);
	f2fs_job_free(new);
	free(o);
	f2fs_workers_stop(wk);
}

int main(void)
{
	test_counts(0);
	test_counts(1);
	test_counts(3);
	test_early_finish();
	test_nested(0);
	test_nested(2);
	test_open_limit();
	test_background_order();
	return unit_finish("test_workers");
}
