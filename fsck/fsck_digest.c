/*
 * fsck_digest.c - the node walk's worker threads (-j N).
 *
 * While the walk checks a directory's dentry blocks, in order, workers go
 * over the blocks ahead of it and hash every name (a block holds up to
 * 214).  The walk itself stays on one thread and in one order, so the
 * output is the same for every -j: a hash answers only for the very bytes
 * it was computed from (a name in a fixed copy of a block is hashed
 * directly).
 *
 * Inode blocks are not digested: on the 2-core machines of issue 16 the
 * hand-over (the walk reading, in its own cache, a block a worker had
 * scanned in the other core's) cost more than the scan it saved, and the
 * check with workers was slower than without (inline-100000: 0.125 s
 * against 0.091 s without inode digests, -j 1 0.089 s; aged 0.16 s
 * against 0.148 s).  A worker reading a batch ahead (fsck_prefetch.c)
 * still pays there.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "f2fs_crc.h"
#include "fsck_walk.h"

/* Fewer blocks than this are hashed without the workers: waking them
 * costs about what they would save. */
#define DENTRIES_MIN	2u
#define MAX_JOBS	64u

struct dentry_digest {
	uint32_t hash[NR_DENTRY_IN_BLOCK];
	uint8_t len[NR_DENTRY_IN_BLOCK];	/* name length hashed; 0: none */
};

/* A batch of dentry blocks: its job, its blocks and their digests. */
struct digest_set {
	struct f2fs_job *job;
	const uint8_t *const *src;
	struct dentry_digest *out;	/* FSCK_BATCH digests */
	const struct dentry_digest *cur;	/* of the block being checked */
	const uint8_t *cur_blk;
	bool open;
};

struct fsck_digests {
	struct f2fs_workers *pool;
	struct digest_set dentries;
};

/* The names of an area of dentry slots as the check steps through them (a
 * name's first slot, then past its slots); lengths the check refuses are
 * left unhashed. */
static void hash_names(const uint8_t *bitmap, const struct f2fs_dir_entry *dent,
		       const uint8_t *names, uint32_t nslots, uint32_t *hash, uint8_t *lens)
{
	memset(lens, 0, nslots);
	for (uint32_t i = 0; i < nslots;) {
		uint32_t len, slots;

		if (!test_bit_le(i, bitmap)) {
			i = f2fs_next_bit_le(bitmap, i + 1, nslots);
			continue;
		}
		len = le16_to_cpu(dent[i].name_len);
		if (len == 0 || len > F2FS_NAME_LEN) {
			i++;
			continue;
		}
		slots = GET_DENTRY_SLOTS(len);
		if (i + slots > nslots)
			break;
		hash[i] = f2fs_dentry_hash(names + (size_t)i * F2FS_SLOT_LEN, len);
		lens[i] = (uint8_t)len;
		i += slots;
	}
}

static void digest_dentry(const uint8_t *blk, struct dentry_digest *d)
{
	const struct f2fs_dentry_block *db = (const struct f2fs_dentry_block *)blk;

	hash_names(db->dentry_bitmap, db->dentry, db->filename[0], NR_DENTRY_IN_BLOCK, d->hash,
		   d->len);
}

static void dentry_item(void *arg, uint32_t i)
{
	struct fsck_digests *dg = arg;

	digest_dentry(dg->dentries.src[i], &dg->dentries.out[i]);
}

unsigned int fsck_jobs_wanted(const struct fsck_ctx *ctx)
{
	long online;

	if (ctx->opt.jobs)
		return ctx->opt.jobs < MAX_JOBS ? ctx->opt.jobs : MAX_JOBS;
	online = sysconf(_SC_NPROCESSORS_ONLN);
	if (online < 1)
		return 1;
	return online < (long)MAX_JOBS ? (unsigned int)online : MAX_JOBS;
}

static void free_digests(struct fsck_digests *dg)
{
	if (!dg)
		return;
	f2fs_workers_stop(dg->pool);
	f2fs_job_free(dg->dentries.job);
	free(dg->dentries.out);
	free(dg);
}

/* Without the memory or the threads the walk goes on alone: workers only
 * save time. */
void fsck_digest_start(struct fsck_walk *w)
{
	unsigned int jobs = fsck_jobs_wanted(w->ctx);
	struct fsck_digests *dg;
	int err;

	if (jobs < 2)
		return;
	dg = calloc(1, sizeof(*dg));
	if (!dg)
		return;
	dg->dentries.job = f2fs_job_new();
	dg->dentries.out = calloc(FSCK_BATCH, sizeof(struct dentry_digest));
	if (dg->dentries.job && dg->dentries.out)
		dg->pool = f2fs_workers_start(jobs - 1, &err);
	if (!dg->pool) {
		free_digests(dg);
		return;
	}
	w->dg = dg;
}

void fsck_digest_stop(struct fsck_walk *w)
{
	free_digests(w->dg);
	w->dg = NULL;
}

/* The smallest batch the workers take (--thread-min overrides it). */
static uint32_t batch_min(const struct fsck_walk *w, uint32_t dflt)
{
	return w->ctx->opt.thread_min ? w->ctx->opt.thread_min : dflt;
}

uint32_t fsck_digest_batch_min(const struct fsck_walk *w, uint32_t dflt)
{
	return batch_min(w, dflt);
}

struct f2fs_workers *fsck_digest_pool(const struct fsck_walk *w)
{
	return w->dg ? w->dg->pool : NULL;
}

bool fsck_digest_dentries(struct fsck_walk *w, const uint8_t *const *blk, uint32_t n)
{
	struct fsck_digests *dg = w->dg;
	struct digest_set *set = dg ? &dg->dentries : NULL;

	if (!set || set->open || n < batch_min(w, DENTRIES_MIN) || n > FSCK_BATCH)
		return false;
	set->src = blk;
	set->open = f2fs_job_run(dg->pool, set->job, dentry_item, dg, n) == 0;
	return set->open;
}

void fsck_digest_take_dentry(struct fsck_walk *w, uint32_t i)
{
	struct digest_set *set = &w->dg->dentries;

	f2fs_job_take(set->job, i);
	set->cur = &set->out[i];
	set->cur_blk = set->src[i];
}

void fsck_digest_finish_dentries(struct fsck_walk *w)
{
	struct digest_set *set = &w->dg->dentries;

	f2fs_job_finish(w->dg->pool, set->job);
	set->open = false;
	set->cur = NULL;
	set->cur_blk = NULL;
	set->src = NULL;
}

uint32_t fsck_dentry_hash_of(const struct fsck_walk *w, const uint8_t *name, uint32_t len)
{
	const struct digest_set *set = w->dg ? &w->dg->dentries : NULL;

	if (set && set->cur) {
		const struct f2fs_dentry_block *db = (const void *)set->cur_blk;
		const struct dentry_digest *d = set->cur;
		uintptr_t first = (uintptr_t)db->filename[0], at = (uintptr_t)name;

		if (at >= first && at < first + sizeof(db->filename) &&
		    (at - first) % F2FS_SLOT_LEN == 0) {
			uint32_t slot = (uint32_t)((at - first) / F2FS_SLOT_LEN);

			if (d->len[slot] && d->len[slot] == len)
				return d->hash[slot];
		}
	}
	return f2fs_dentry_hash(name, len);
}
