/*
 * fsck_pass_nat.c - pass 3: the NAT.
 *
 * Loads the current copy of every NAT block with the journal laid over it
 * (lib's batched loader) into ctx->nat and checks each entry in use:
 * address inside the main area and valid in the SIT, never NEW_ADDR, an
 * owner ino in range, no two nids naming one block; and the reserved
 * entries 0..2.  Records in ctx->nat_addr the blocks NAT entries name.
 * Reachability (leaked nids) and the counters are pass 7's.
 */
#include <stdlib.h>

#include "f2fs_err.h"
#include "fsck.h"

#define MAX_DUP_LOOKUPS	64

struct dup_list {
	uint32_t nid[MAX_DUP_LOOKUPS];
	uint32_t addr[MAX_DUP_LOOKUPS];
	uint32_t n;
};

static void check_reserved(struct fsck_ctx *ctx)
{
	const struct f2fs_nat_entry *e = ctx->nat.ent;

	if (le32_to_cpu(e[0].block_addr) || le32_to_cpu(e[0].ino))
		fsck_report(ctx, PR_NAT_RESERVED, FSCK_OBJ(.nid = 0, .str = "is in use"));
	for (uint32_t nid = F2FS_NODE_INO; nid <= F2FS_META_INO && nid < ctx->nat.max_nid; nid++)
		if (le32_to_cpu(e[nid].block_addr) != 1 || le32_to_cpu(e[nid].ino) != nid)
			fsck_report(ctx, PR_NAT_RESERVED, FSCK_OBJ(.nid = nid,
				    .str = "is not the {ino = nid, block 1} placeholder"));
}

static void check_entry(struct fsck_ctx *ctx, uint32_t nid, const struct f2fs_nat_entry *e,
			struct dup_list *dups)
{
	uint32_t addr = le32_to_cpu(e->block_addr);
	uint32_t ino = le32_to_cpu(e->ino);
	uint64_t rel;

	if (addr == NULL_ADDR)
		return;
	if (addr == NEW_ADDR) {
		fsck_report(ctx, PR_NAT_NEW_ADDR, FSCK_OBJ(.nid = nid));
		return;
	}
	if (ino < F2FS_RESERVED_NODE_NUM || ino >= ctx->nat.max_nid)
		fsck_report(ctx, PR_NAT_INO_INVALID, FSCK_OBJ(.nid = nid, .found = ino));
	if (!fsck_addr_in_main(ctx, addr)) {
		fsck_report(ctx, PR_NAT_ADDR_RANGE, FSCK_OBJ(.nid = nid, .blkaddr = addr));
		return;
	}
	if (!fsck_sit_valid(ctx, addr) && ctx->sit_loaded)
		fsck_report(ctx, PR_NAT_NOT_IN_SIT, FSCK_OBJ(.nid = nid, .blkaddr = addr,
			    .segno = f2fs_blkaddr_to_segno(ctx->fs, addr)));
	rel = addr - ctx->fs->main_blkaddr;
	if (fsck_bit(ctx->nat_addr, rel)) {
		if (dups->n < MAX_DUP_LOOKUPS) {
			dups->nid[dups->n] = nid;
			dups->addr[dups->n++] = addr;
		} else {
			fsck_report(ctx, PR_NAT_SHARED_BLOCK, FSCK_OBJ(.nid = nid, .blkaddr = addr));
		}
	}
	fsck_set(ctx->nat_addr, rel);
}

/* Name the first nid that owns each shared block. */
static void report_dups(struct fsck_ctx *ctx, const struct dup_list *dups)
{
	for (uint32_t i = 0; i < dups->n; i++) {
		uint64_t other = FSCK_NONE;

		for (uint32_t nid = F2FS_RESERVED_NODE_NUM; nid < dups->nid[i]; nid++)
			if (le32_to_cpu(ctx->nat.ent[nid].block_addr) == dups->addr[i]) {
				other = nid;
				break;
			}
		fsck_report(ctx, PR_NAT_SHARED_BLOCK, FSCK_OBJ(.nid = dups->nid[i],
			    .blkaddr = dups->addr[i], .found = other));
	}
}

int fsck_pass_nat(struct fsck_ctx *ctx)
{
	struct fsck_ctx *c = ctx;
	struct dup_list dups = { .n = 0 };
	int err;

	fsck_progress(ctx, 3, 0, 1);
	err = f2fs_nat_init(&c->nat, c->fs->max_nid, c->fs->nat_bitmap);
	if (err)
		return err;
	c->nat_loaded = true;
	err = f2fs_nat_load_all(c->fs, &c->nat);
	if (err == -EFSCORRUPTED) {
		fsck_report(ctx, PR_CP_SANITY, FSCK_OBJ(.str = "the NAT does not fit the superblock geometry"));
		f2fs_nat_free(&c->nat);
		c->nat_loaded = false;
		return 0;
	}
	if (err)
		return err;
	check_reserved(ctx);
	for (uint32_t b = 0; b < c->nat.nat_blocks; b++) {
		uint32_t first = b * (uint32_t)NAT_ENTRY_PER_BLOCK;

		if (c->nat.block_used[b] == (b == 0))
			continue;	/* nothing in use (nid 0 always counts) */
		for (uint32_t i = 0; i < NAT_ENTRY_PER_BLOCK && first + i < c->nat.max_nid; i++)
			if (first + i >= F2FS_RESERVED_NODE_NUM)
				check_entry(ctx, first + i, &c->nat.ent[first + i], &dups);
		if ((b & 1023) == 0)
			fsck_progress(ctx, 3, b, c->nat.nat_blocks);
	}
	report_dups(ctx, &dups);
	fsck_progress(ctx, 3, 1, 1);
	return 0;
}
