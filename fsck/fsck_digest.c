/*
 * fsck_digest.c - the node walk's worker threads (-j N).
 *
 * While the walk checks a batch of inode blocks, or a directory's dentry
 * blocks, in order, workers go over the blocks ahead of it and compute
 * what depends on a block's bytes alone: for an inode block, which 64-byte
 * pieces hold a non-zero byte (the inline-data checks read up to 3.4 KiB
 * of zeroes per file) and the inode checksum; for a dentry block, the hash
 * of every name.  They touch each block first, so its page faults and
 * cache misses land on their core.  The walk itself stays on one thread
 * and in one order, so the output is the same for every -j: a digest
 * answers only for the very bytes it was computed from (a name restored
 * from an inode, a fixed copy of a block are computed directly).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "f2fs_crc.h"
#include "fsck_walk.h"

#define PIECE		64u
/* Fewer blocks than this are checked without the workers: waking them
 * costs about what they would save (a dentry block holds up to 214
 * names to hash, an inode block 4 KiB to scan). */
#define INODES_MIN	32u
#define DENTRIES_MIN	2u
#define MAX_JOBS	64u

/* The most dentry slots an inline directory has (no extra attributes, no
 * inline xattrs: f2fs_inline_dentry_slots() of its whole area). */
#define INLINE_SLOTS_MAX \
	(4u * (DEF_ADDRS_PER_INODE - 1) * 8 / ((SIZE_OF_DIR_ENTRY + F2FS_SLOT_LEN) * 8 + 1))

struct inode_digest {
	uint64_t nonzero;	/* bit k: bytes 64k..64k+63 are not all zero */
	uint32_t crc;		/* the inode checksum the block should carry */
	bool have_crc;
	/* an inline directory's names: name slot i at byte name_off + 8i */
	uint16_t name_off, nslots;	/* nslots 0: none hashed */
	uint32_t hash[INLINE_SLOTS_MAX];
	uint8_t len[INLINE_SLOTS_MAX];	/* name length hashed; 0: none */
};

struct dentry_digest {
	uint32_t hash[NR_DENTRY_IN_BLOCK];
	uint8_t len[NR_DENTRY_IN_BLOCK];	/* name length hashed; 0: none */
};

/* One kind of batch: its job, its blocks and their digests. */
struct digest_set {
	struct f2fs_job *job;
	const uint8_t *const *src;
	void *out;			/* FSCK_BATCH digests */
	const void *cur;		/* the digest of the block being checked */
	const uint8_t *cur_blk;
	bool open;
};

struct fsck_digests {
	const struct fsck_ctx *ctx;
	struct f2fs_workers *pool;
	struct digest_set inodes, dentries;
};

/* Sixteen bytes at a time (GNU C vectors: SSE2 on x86-64, NEON on
 * arm64, plain words elsewhere); a piece costs about a dozen instructions
 * instead of eight loads, tests and branches. */
typedef uint64_t vec128 __attribute__((vector_size(16)));

/* Whether the PIECE bytes at p hold a non-zero byte. */
static inline bool piece_nonzero(const uint8_t *p)
{
	vec128 a, b, c, d;

	memcpy(&a, p, sizeof(a));
	memcpy(&b, p + 16, sizeof(b));
	memcpy(&c, p + 32, sizeof(c));
	memcpy(&d, p + 48, sizeof(d));
	a |= b;
	c |= d;
	a |= c;
	return (a[0] | a[1]) != 0;
}

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

/* An inline directory's names, laid out as fsck_check_inline_dir() reads
 * them (the same functions of the same bytes); a layout that does not fit
 * the block is left to the check. */
static void digest_inline_names(const struct fsck_ctx *ctx, const uint8_t *blk,
				struct inode_digest *d)
{
	const struct f2fs_inode *ri = &((const struct f2fs_node *)blk)->i;
	struct fsck_inline_dents at;

	if (!fsck_inline_dents(ctx, ri, &at) || at.nslots == 0 || at.nslots > INLINE_SLOTS_MAX)
		return;
	hash_names(blk + at.bitmap_off, (const struct f2fs_dir_entry *)(blk + at.de_off),
		   blk + at.name_off, at.nslots, d->hash, d->len);
	d->name_off = (uint16_t)at.name_off;
	d->nslots = (uint16_t)at.nslots;
}

/* Bit k set: piece k of the block holds a non-zero byte. */
static uint64_t piece_mask_generic(const uint8_t *blk)
{
	uint64_t mask = 0;

	for (uint32_t k = 0; k < F2FS_BLKSIZE / PIECE; k++)
		mask |= (uint64_t)piece_nonzero(blk + k * PIECE) << k;
	return mask;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* The same, 32 bytes a load: a piece is two loads, an OR and a test. */
__attribute__((target("avx2")))
static uint64_t piece_mask_avx2(const uint8_t *blk)
{
	uint64_t mask = 0;

	for (uint32_t k = 0; k < F2FS_BLKSIZE / PIECE; k++) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(blk + k * PIECE));
		__m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(blk + k * PIECE + 32));
		__m256i o = _mm256_or_si256(a, b);

		mask |= (uint64_t)!_mm256_testz_si256(o, o) << k;
	}
	return mask;
}

static uint64_t piece_mask(const uint8_t *blk)
{
	if (__builtin_cpu_supports("avx2"))
		return piece_mask_avx2(blk);
	return piece_mask_generic(blk);
}
#else
static uint64_t piece_mask(const uint8_t *blk)
{
	return piece_mask_generic(blk);
}
#endif

static void digest_inode(const struct fsck_ctx *ctx, const uint8_t *blk, struct inode_digest *d)
{
	const struct f2fs_node *node = (const struct f2fs_node *)blk;

	d->nonzero = piece_mask(blk);
	d->have_crc = f2fs_inode_has_checksum(ctx->fs->features, node);
	d->crc = d->have_crc ? f2fs_inode_checksum(ctx->fs->inode_chksum_seed, node) : 0;
	d->nslots = 0;
	if (node->i.i_inline & F2FS_INLINE_DENTRY)
		digest_inline_names(ctx, blk, d);
}

static void inode_item(void *arg, uint32_t i)
{
	struct fsck_digests *dg = arg;

	digest_inode(dg->ctx, dg->inodes.src[i], (struct inode_digest *)dg->inodes.out + i);
}

static void dentry_item(void *arg, uint32_t i)
{
	struct fsck_digests *dg = arg;

	digest_dentry(dg->dentries.src[i], (struct dentry_digest *)dg->dentries.out + i);
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
	f2fs_job_free(dg->inodes.job);
	f2fs_job_free(dg->dentries.job);
	free(dg->inodes.out);
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
	dg->ctx = w->ctx;
	dg->inodes.job = f2fs_job_new();
	dg->dentries.job = f2fs_job_new();
	dg->inodes.out = calloc(FSCK_BATCH, sizeof(struct inode_digest));
	dg->dentries.out = calloc(FSCK_BATCH, sizeof(struct dentry_digest));
	if (dg->inodes.job && dg->dentries.job && dg->inodes.out && dg->dentries.out)
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

static bool open_set(struct fsck_digests *dg, struct digest_set *set, f2fs_work_fn fn,
		     const uint8_t *const *blk, uint32_t n, uint32_t min)
{
	if (!dg || set->open || n < min || n > FSCK_BATCH)
		return false;
	set->src = blk;
	set->open = f2fs_job_run(dg->pool, set->job, fn, dg, n) == 0;
	return set->open;
}

static void take_set(struct digest_set *set, size_t size, uint32_t i)
{
	f2fs_job_take(set->job, i);
	set->cur = (const uint8_t *)set->out + (size_t)i * size;
	set->cur_blk = set->src[i];
}

static void finish_set(struct fsck_digests *dg, struct digest_set *set)
{
	f2fs_job_finish(dg->pool, set->job);
	set->open = false;
	set->cur = NULL;
	set->cur_blk = NULL;
	set->src = NULL;
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

bool fsck_digest_inodes(struct fsck_walk *w, const uint8_t *const *blk, uint32_t n)
{
	return open_set(w->dg, w->dg ? &w->dg->inodes : NULL, inode_item, blk, n,
			batch_min(w, INODES_MIN));
}

void fsck_digest_take_inode(struct fsck_walk *w, uint32_t i)
{
	take_set(&w->dg->inodes, sizeof(struct inode_digest), i);
}

void fsck_digest_finish_inodes(struct fsck_walk *w)
{
	finish_set(w->dg, &w->dg->inodes);
}

bool fsck_digest_dentries(struct fsck_walk *w, const uint8_t *const *blk, uint32_t n)
{
	return open_set(w->dg, w->dg ? &w->dg->dentries : NULL, dentry_item, blk, n,
			batch_min(w, DENTRIES_MIN));
}

void fsck_digest_take_dentry(struct fsck_walk *w, uint32_t i)
{
	take_set(&w->dg->dentries, sizeof(struct dentry_digest), i);
}

void fsck_digest_finish_dentries(struct fsck_walk *w)
{
	finish_set(w->dg, &w->dg->dentries);
}

/* Whether any of the n bytes at p is not zero: 64 bytes per test (the
 * inline-data checks pass over about 3.4 KiB of an inode's zeroes), then
 * words, then bytes. */
static bool scan_nonzero(const uint8_t *p, size_t n)
{
	size_t i = 0;

	for (; i + PIECE <= n; i += PIECE)
		if (piece_nonzero(p + i))
			return true;
	for (; i + sizeof(uint64_t) <= n; i += sizeof(uint64_t)) {
		uint64_t word;

		memcpy(&word, p + i, sizeof(word));
		if (word)
			return true;
	}
	for (; i < n; i++)
		if (p[i])
			return true;
	return false;
}

/* The digest of the inode block the n bytes at p lie in, or NULL. */
static const struct inode_digest *inode_digest_for(const struct fsck_walk *w, const uint8_t *p,
						   size_t n)
{
	const struct digest_set *set = w->dg ? &w->dg->inodes : NULL;
	uintptr_t lo, at = (uintptr_t)p;

	if (!set || !set->cur)
		return NULL;
	lo = (uintptr_t)set->cur_blk;
	if (at < lo || at - lo > F2FS_BLKSIZE || n > F2FS_BLKSIZE - (at - lo))
		return NULL;
	return set->cur;
}

bool fsck_digest_pieces(const struct fsck_walk *w, const uint8_t *p, size_t n,
			const uint8_t **blk, uint64_t *mask)
{
	const struct inode_digest *d = inode_digest_for(w, p, n);

	if (!d)
		return false;
	*blk = w->dg->inodes.cur_blk;
	*mask = d->nonzero;
	return true;
}

bool fsck_bytes_nonzero(const struct fsck_walk *w, const uint8_t *p, size_t n)
{
	const struct inode_digest *d = inode_digest_for(w, p, n);
	size_t off, end, k, whole;

	if (!n)
		return false;
	if (!d)
		return scan_nonzero(p, n);
	off = (size_t)((uintptr_t)p - (uintptr_t)w->dg->inodes.cur_blk);
	end = off + n;
	/* the ragged ends byte by byte, the whole pieces from the digest */
	k = (off + PIECE - 1) / PIECE;
	if (k * PIECE >= end)
		return scan_nonzero(p, n);
	if (scan_nonzero(p, k * PIECE - off))
		return true;
	whole = end / PIECE - k;	/* pieces wholly inside; may be none */
	if (d->nonzero >> k & (whole >= 64 ? UINT64_MAX : ((uint64_t)1 << whole) - 1))
		return true;
	k += whole;
	return scan_nonzero(w->dg->inodes.cur_blk + k * PIECE, end - k * PIECE);
}

uint32_t fsck_inode_checksum_of(const struct fsck_walk *w, const struct f2fs_node *node)
{
	const struct inode_digest *d = inode_digest_for(w, (const uint8_t *)node, F2FS_BLKSIZE);

	if (d && d->have_crc && (const uint8_t *)node == w->dg->inodes.cur_blk)
		return d->crc;
	return f2fs_inode_checksum(w->ctx->fs->inode_chksum_seed, node);
}

/* The hash an inline directory's digest has for the name at `name`. */
static bool inline_name_hash(const struct fsck_walk *w, const uint8_t *name, uint32_t len,
			     uint32_t *hash)
{
	const struct digest_set *set = w->dg ? &w->dg->inodes : NULL;
	const struct inode_digest *d;
	uintptr_t first, at = (uintptr_t)name;
	uint32_t slot;

	if (!set || !set->cur)
		return false;
	d = set->cur;
	first = (uintptr_t)set->cur_blk + d->name_off;
	if (!d->nslots || at < first || (at - first) % F2FS_SLOT_LEN)
		return false;
	slot = (uint32_t)((at - first) / F2FS_SLOT_LEN);
	if (slot >= d->nslots || !d->len[slot] || d->len[slot] != len)
		return false;
	*hash = d->hash[slot];
	return true;
}

uint32_t fsck_dentry_hash_of(const struct fsck_walk *w, const uint8_t *name, uint32_t len)
{
	const struct digest_set *set = w->dg ? &w->dg->dentries : NULL;
	uint32_t hash;

	if (inline_name_hash(w, name, len, &hash))
		return hash;

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
