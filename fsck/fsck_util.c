/*
 * fsck_util.c - small helpers the passes share: address classification,
 * SIT and NAT lookups in the loaded models, and the queue of expected
 * summary entries the SSA pass checks in address order, and a test for
 * non-zero bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "f2fs_array.h"
#include "f2fs_err.h"
#include "fsck.h"

/* Expected summary entries kept before a sorted SSA check: 768 KiB, and
 * as much again of sort scratch at a flush.  A flush reads the SSA blocks
 * of the segments its entries fall in, so a smaller queue re-reads some of
 * them (from the page cache); a larger one costs peak memory. */
#define FSCK_SSA_QUEUE_MAX	(1u << 16)

bool fsck_addr_in_main(const struct fsck_ctx *ctx, uint32_t addr)
{
	return f2fs_blkaddr_in_main(ctx->fs, addr) && fsck_zone_addr_usable(ctx, addr);
}

bool fsck_sit_valid(const struct fsck_ctx *ctx, uint32_t addr)
{
	uint32_t off;
	uint32_t segno;

	if (!ctx->sit_loaded || !fsck_addr_in_main(ctx, addr))
		return false;
	segno = f2fs_blkaddr_to_segno(ctx->fs, addr);
	off = (addr - ctx->fs->main_blkaddr) % BLKS_PER_SEG;
	return f2fs_test_bit(off, ctx->sit.segs[segno].cur_valid_map);
}

bool fsck_nat_lookup(const struct fsck_ctx *ctx, uint32_t nid, struct f2fs_nat_entry *e)
{
	if (!ctx->nat_loaded || nid >= ctx->fs->max_nid)
		return false;
	return f2fs_nat_get(&ctx->nat, nid, e) == 0;
}

void fsck_prefetch_nid(const struct fsck_ctx *ctx, uint32_t nid)
{
	if (!ctx->nat_loaded || nid >= ctx->fs->max_nid)
		return;
	f2fs_nat_prefetch(&ctx->nat, nid);
	if (ctx->ni)
		__builtin_prefetch(&ctx->ni[nid]);
}

int fsck_expect_summary(struct fsck_ctx *ctx, uint32_t blkaddr, uint32_t nid,
			uint16_t ofs_in_node, bool is_node)
{
	bool flushed = false;
	struct fsck_ssa_ent *e;

	if (f2fs_is_ro_image(ctx->fs))	/* no SSA: nothing to check against */
		return 0;
	if (ctx->n_ssa == ctx->cap_ssa && ctx->cap_ssa >= FSCK_SSA_QUEUE_MAX) {
		int err = fsck_ssa_flush(ctx);

		if (err)
			return err;
		flushed = true;
	}
	/* a flush keeps the entries that disagree with their summary for the
	 * last one: grow when they fill half the queue */
	if ((ctx->n_ssa == ctx->cap_ssa || (flushed && ctx->n_ssa > ctx->cap_ssa / 2)) &&
	    F2FS_ARRAY_ROOM32(ctx->ssa, ctx->cap_ssa, ctx->cap_ssa + 1, 4096))
		return -ENOMEM;
	e = &ctx->ssa[ctx->n_ssa++];
	e->blkaddr = blkaddr;
	e->nid = nid;
	e->ofs_in_node = ofs_in_node;
	e->is_node = is_node;
	e->pad = 0;
	return 0;
}

void fsck_for_each_nat_entry(struct fsck_ctx *ctx, fsck_nid_fn fn)
{
	const struct f2fs_nat_model *nm = &ctx->nat;

	for (uint32_t b = 0; b < nm->nat_blocks; b++) {
		uint32_t first = b * (uint32_t)NAT_ENTRY_PER_BLOCK;

		/* block 0 always holds nid 0 and the two placeholders */
		if (nm->block_used[b] <= (b == 0 ? 3u : 0u))
			continue;
		for (uint32_t i = 0; i < NAT_ENTRY_PER_BLOCK && first + i < nm->max_nid; i++)
			fn(ctx, first + i);
	}
}

#define PIECE	64u	/* bytes fsck_any_nonzero() tests at once */

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

/* 64 bytes per test (the inline-data checks pass over about 3.4 KiB of
 * an inode's zeroes), then words, then bytes. */
bool fsck_any_nonzero(const uint8_t *p, size_t n)
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
