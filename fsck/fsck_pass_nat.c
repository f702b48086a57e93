/*
 * fsck_pass_nat.c - pass 3: the NAT.
 *
 * Loads the current copy of every NAT block with the journal laid over it
 * (lib's batched loader) into ctx->nat and checks each entry in use:
 * address inside the main area and valid in the SIT, never NEW_ADDR, an
 * owner ino in range, no two nids naming one block; and the reserved
 * entries 0..2.  Records in ctx->nat_addr the blocks NAT entries name.
 * Reachability (leaked nids) and the counters are pass 7's.
 *
 * Lost entries.  A node block that SIT has valid in a node segment but
 * that no NAT entry names is a node whose entry was lost (the kernel
 * frees a node's SIT bit and NAT entry in the same checkpoint).  Those
 * blocks are read (none on a healthy volume) and kept in ctx->unnamed.
 * Their entries are taken back in the model (ctx->nat; a repair writes
 * them): at once for an inode whose entry is empty or names a block that
 * is not that node, and for any node whose entry names such a block; on
 * demand (fsck_nat_restore(), from the walk) for a direct, indirect or
 * xattr node whose empty entry its inode's tree names.
 */
#include <stdlib.h>
#include <string.h>

#include "f2fs_array.h"
#include "f2fs_crc.h"
#include "f2fs_err.h"
#include "f2fs_workers.h"
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
		fsck_problem(ctx, PR_NAT_RESERVED, FSCK_OBJ(.nid = 0, .str = "is in use"));
	/* the node and meta inodes are made without a NAT lookup (f2fs_iget()),
	 * so the kernel never reads the ino of their entries */
	for (uint32_t nid = F2FS_NODE_INO; nid <= F2FS_META_INO && nid < ctx->nat.max_nid; nid++)
		if (le32_to_cpu(e[nid].block_addr) != 1)
			fsck_problem(ctx, PR_NAT_RESERVED, FSCK_OBJ(.nid = nid,
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
		fsck_problem(ctx, PR_NAT_NEW_ADDR, FSCK_OBJ(.nid = nid));
		return;
	}
	if (ino < F2FS_RESERVED_NODE_NUM || ino >= ctx->nat.max_nid)
		fsck_problem(ctx, PR_NAT_INO_INVALID, FSCK_OBJ(.nid = nid, .found = ino));
	if (!fsck_addr_in_main(ctx, addr)) {
		fsck_problem(ctx, PR_NAT_ADDR_RANGE, FSCK_OBJ(.nid = nid, .blkaddr = addr));
		return;
	}
	if (!fsck_sit_valid(ctx, addr) && ctx->sit_loaded)
		fsck_problem(ctx, PR_NAT_NOT_IN_SIT, FSCK_OBJ(.nid = nid, .blkaddr = addr,
			    .segno = f2fs_blkaddr_to_segno(ctx->fs, addr)));
	rel = addr - ctx->fs->main_blkaddr;
	if (fsck_bit(ctx->nat_addr, rel)) {
		if (dups->n < MAX_DUP_LOOKUPS) {
			dups->nid[dups->n] = nid;
			dups->addr[dups->n++] = addr;
		} else {
			fsck_problem(ctx, PR_NAT_SHARED_BLOCK, FSCK_OBJ(.nid = nid, .blkaddr = addr));
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
		fsck_problem(ctx, PR_NAT_SHARED_BLOCK, FSCK_OBJ(.nid = dups->nid[i],
			    .blkaddr = dups->addr[i], .found = other));
	}
}

/* ---- node blocks no NAT entry names ---- */

struct fsck_unnamed_node {
	uint32_t addr;
	uint32_t nid, ino;	/* from the footer */
	uint32_t ofs;		/* node offset */
	uint32_t ver;		/* low 32 bits of the footer's cp_ver */
	bool inode_ok;		/* an inode block whose checksum holds */
	bool linked;		/* an inode with links (not an unlinked one) */
	bool taken;		/* its nid's entry names it now */
};

static uint8_t rev8(uint8_t b)
{
	b = (uint8_t)((b & 0xF0) >> 4 | (b & 0x0F) << 4);
	b = (uint8_t)((b & 0xCC) >> 2 | (b & 0x33) << 2);
	return (uint8_t)((b & 0xAA) >> 1 | (b & 0x55) << 1);
}

static bool is_node_seg(const struct f2fs_seg_entry *se)
{
	return se->valid_blocks && se->type >= CURSEG_HOT_NODE && se->type <= CURSEG_COLD_NODE;
}

/* Valid blocks of node segments that no NAT entry names, into *out
 * (malloc'd); their number. */
static int list_unnamed_blocks(struct fsck_ctx *ctx, uint32_t **out, uint32_t *n)
{
	uint32_t cap = 0, *v = NULL;

	*n = 0;
	for (uint32_t segno = 0; segno < ctx->sit.main_segs; segno++) {
		const struct f2fs_seg_entry *se = &ctx->sit.segs[segno];
		const uint8_t *named = ctx->nat_addr + (size_t)segno * (BLKS_PER_SEG / 8);

		if (!is_node_seg(se))
			continue;
		for (uint32_t i = 0; i < SIT_VBLOCK_MAP_SIZE; i++) {
			/* SIT bits are MSB-first, nat_addr's LSB-first */
			uint8_t lone = (uint8_t)(rev8(se->cur_valid_map[i]) & ~named[i]);

			for (uint32_t k = 0; lone && k < 8; k++, lone >>= 1) {
				if (!(lone & 1))
					continue;
				if (F2FS_ARRAY_ROOM32(v, cap, *n + 1, 64)) {
					free(v);
					return -ENOMEM;
				}
				v[(*n)++] = f2fs_seg_start_blkaddr(ctx->fs, segno) + i * 8 + k;
			}
		}
	}
	*out = v;
	return 0;
}

static bool footer_plausible(const struct fsck_ctx *ctx, const struct f2fs_node *n)
{
	uint32_t nid = le32_to_cpu(n->footer.nid), ino = le32_to_cpu(n->footer.ino);

	return nid >= F2FS_RESERVED_NODE_NUM && nid < ctx->fs->max_nid &&
	       ino >= F2FS_RESERVED_NODE_NUM && ino < ctx->fs->max_nid;
}

static bool inode_block_sound(const struct fsck_ctx *ctx, const struct f2fs_node *n)
{
	if (le32_to_cpu(n->footer.nid) != le32_to_cpu(n->footer.ino) ||
	    le32_to_cpu(n->footer.flag) >> OFFSET_BIT_SHIFT)
		return false;
	if (!f2fs_inode_has_checksum(ctx->fs->features, n))
		return true;
	return le32_to_cpu(n->i.i_inode_checksum) ==
	       f2fs_inode_checksum(ctx->fs->inode_chksum_seed, n);
}

static void note_unnamed(struct fsck_ctx *ctx, uint32_t addr, const struct f2fs_node *n)
{
	struct fsck_unnamed_node *u;

	if (!footer_plausible(ctx, n))
		return;
	u = &ctx->unnamed[ctx->n_unnamed++];
	u->addr = addr;
	u->nid = le32_to_cpu(n->footer.nid);
	u->ino = le32_to_cpu(n->footer.ino);
	u->ofs = le32_to_cpu(n->footer.flag) >> OFFSET_BIT_SHIFT;
	u->ver = (uint32_t)le64_to_cpu(n->footer.cp_ver);
	u->inode_ok = inode_block_sound(ctx, n);
	u->linked = u->inode_ok && le32_to_cpu(n->i.i_links) != 0;
	u->taken = false;
}

/* Read the blocks (ascending) in batches and keep the plausible nodes. */
static int read_unnamed(struct fsck_ctx *ctx, const uint32_t *addrs, uint32_t n)
{
	enum { BATCH = 64 };
	struct f2fs_io_vec vec[BATCH];
	uint8_t *buf = f2fs_blocks_alloc(BATCH);
	int err = 0;

	if (!buf)
		return -ENOMEM;
	for (uint32_t first = 0; first < n && !err; first += BATCH) {
		uint32_t cnt = n - first < BATCH ? n - first : BATCH;

		for (uint32_t i = 0; i < cnt; i++) {
			vec[i].blkaddr = addrs[first + i];
			vec[i].nblocks = 1;
			vec[i].buf = buf + (size_t)i * F2FS_BLKSIZE;
		}
		err = f2fs_dev_read_batch(ctx->fs->dev, vec, cnt);
		for (uint32_t i = 0; i < cnt && !err; i++)
			note_unnamed(ctx, addrs[first + i], (const void *)vec[i].buf);
	}
	free(buf);
	return err;
}

/* Newer first within a nid: cp_ver compared as the kernel compares
 * checkpoint versions (a signed difference). */
static int cmp_unnamed(const void *a, const void *b)
{
	const struct fsck_unnamed_node *x = a, *y = b;
	int32_t d;

	if (x->nid != y->nid)
		return x->nid < y->nid ? -1 : 1;
	d = (int32_t)(x->ver - y->ver);
	if (d)
		return d > 0 ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int find_unnamed_nodes(struct fsck_ctx *ctx)
{
	uint32_t *addrs, n;
	int err;

	if (!ctx->sit_loaded)
		return 0;
	err = list_unnamed_blocks(ctx, &addrs, &n);
	if (err || !n)
		return err;
	ctx->unnamed = calloc(n, sizeof(*ctx->unnamed));
	err = ctx->unnamed ? read_unnamed(ctx, addrs, n) : -ENOMEM;
	free(addrs);
	if (!err && ctx->n_unnamed)
		qsort(ctx->unnamed, ctx->n_unnamed, sizeof(*ctx->unnamed), cmp_unnamed);
	return err;
}

/* The first (newest) unnamed block of nid, or NULL. */
static struct fsck_unnamed_node *first_of(const struct fsck_ctx *ctx, uint32_t nid)
{
	uint32_t lo = 0, hi = ctx->n_unnamed;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (ctx->unnamed[mid].nid < nid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ctx->n_unnamed && ctx->unnamed[lo].nid == nid ? &ctx->unnamed[lo] : NULL;
}

static bool usable(const struct fsck_unnamed_node *u)
{
	return !u->taken && (u->nid != u->ino || u->inode_ok);
}

/* The newest unused unnamed node of nid owned by ino at node offset ofs
 * (inodes: sound inode blocks only). */
static struct fsck_unnamed_node *pick(const struct fsck_ctx *ctx, uint32_t nid, uint32_t ino,
				      uint32_t ofs)
{
	struct fsck_unnamed_node *u = first_of(ctx, nid);
	const struct fsck_unnamed_node *end = ctx->unnamed + ctx->n_unnamed;

	for (; u && u < end && u->nid == nid; u++) {
		if (!usable(u) || u->ino != ino || u->ofs != ofs)
			continue;
		if (fsck_bit(ctx->reach, u->addr - ctx->fs->main_blkaddr))
			continue;
		return u;
	}
	return NULL;
}

/* Point nid's entry in the model at u's block, keeping its version. */
static bool take_back(struct fsck_ctx *ctx, struct fsck_unnamed_node *u, const char *why)
{
	struct f2fs_nat_entry e;

	if (f2fs_nat_get(&ctx->nat, u->nid, &e) ||
	    !fsck_problem(ctx, PR_NAT_LOST, FSCK_OBJ(.nid = u->nid, .ino = u->ino,
			  .blkaddr = u->addr, .str = why)))
		return false;
	e.ino = cpu_to_le32(u->ino);
	e.block_addr = cpu_to_le32(u->addr);
	if (f2fs_nat_set(&ctx->nat, u->nid, &e))
		return false;
	fsck_set(ctx->nat_addr, u->addr - ctx->fs->main_blkaddr);
	u->taken = true;
	return true;
}

/* Read the footer of block addr (in main). */
static int read_footer(struct fsck_ctx *ctx, uint32_t addr, struct node_footer *f)
{
	struct f2fs_node *n = malloc(F2FS_BLKSIZE);
	int err;

	if (!n)
		return -ENOMEM;
	err = f2fs_dev_read(ctx->fs->dev, addr, 1, n);
	if (!err)
		*f = n->footer;
	free(n);
	return err;
}

/* Why nid's entry does not lead to its node (u is the newest usable
 * unnamed block of nid): *why is NULL when it does. */
static int entry_lost(struct fsck_ctx *ctx, const struct fsck_unnamed_node *u,
		      const char **why)
{
	struct f2fs_nat_entry e;
	struct node_footer f;
	uint32_t addr;
	int err;

	*why = NULL;
	if (f2fs_nat_get(&ctx->nat, u->nid, &e))
		return 0;
	addr = le32_to_cpu(e.block_addr);
	if (addr == NULL_ADDR) {
		/* An empty entry of a non-inode waits for its inode's tree.
		 * An inode without links is what unlink leaves before the
		 * kernel frees it: taken back only when something names it. */
		if (u->nid == u->ino && u->linked)
			*why = "is empty";
		return 0;
	}
	if (addr == NEW_ADDR || !fsck_addr_in_main(ctx, addr)) {
		*why = "names no block of the main area";
		return 0;
	}
	err = read_footer(ctx, addr, &f);
	if (err)
		return err;
	if (le32_to_cpu(f.nid) != u->nid)
		*why = "names a block that is not this node";
	else if (!fsck_sit_valid(ctx, addr) && (int32_t)(u->ver - (uint32_t)le64_to_cpu(f.cp_ver)) >= 0)
		*why = "names an older copy of the node, which SIT has free";
	return 0;
}

/* Each nid with unnamed blocks, tried with its newest usable one. */
static int restore_lost_entries(struct fsck_ctx *ctx)
{
	uint32_t i = 0;

	while (i < ctx->n_unnamed) {
		uint32_t nid = ctx->unnamed[i].nid;
		struct fsck_unnamed_node *u = NULL;
		const char *why;
		int err;

		for (; i < ctx->n_unnamed && ctx->unnamed[i].nid == nid; i++)
			if (!u && usable(&ctx->unnamed[i]))
				u = &ctx->unnamed[i];
		if (!u)
			continue;
		err = entry_lost(ctx, u, &why);
		if (err)
			return err;
		if (why)
			take_back(ctx, u, why);
	}
	return 0;
}

bool fsck_nat_restore(struct fsck_ctx *ctx, uint32_t nid, uint32_t ino, uint32_t ofs)
{
	struct fsck_unnamed_node *u;
	struct f2fs_nat_entry e;

	if (!ctx->n_unnamed || nid >= ctx->fs->max_nid || !fsck_nat_lookup(ctx, nid, &e) ||
	    le32_to_cpu(e.block_addr) != NULL_ADDR)
		return false;
	u = pick(ctx, nid, ino, ofs);
	return u && take_back(ctx, u, "is empty");
}

bool fsck_nat_fix_inode_owner(struct fsck_ctx *ctx, uint32_t ino)
{
	struct f2fs_nat_entry e;
	struct f2fs_node *n;
	uint32_t addr;
	bool inode;

	if (!fsck_nat_lookup(ctx, ino, &e) || le32_to_cpu(e.ino) == ino)
		return false;
	addr = le32_to_cpu(e.block_addr);
	if (!fsck_addr_in_main(ctx, addr) || !(n = malloc(F2FS_BLKSIZE)))
		return false;
	inode = !f2fs_dev_read(ctx->fs->dev, addr, 1, n) && le32_to_cpu(n->footer.nid) == ino &&
		inode_block_sound(ctx, n);
	free(n);
	if (!inode || !fsck_problem(ctx, PR_NODE_NAT_INO, FSCK_OBJ(.nid = ino,
					     .found = le32_to_cpu(e.ino), .expected = ino)))
		return false;
	e.ino = cpu_to_le32(ino);
	return f2fs_nat_set(&ctx->nat, ino, &e) == 0;
}

/* Every NAT block, read and decoded by -j N threads when it has them
 * (threads only save time: without them, one reads all). */
static int load_nat(struct fsck_ctx *ctx)
{
	unsigned int jobs = fsck_jobs_wanted(ctx);
	struct f2fs_workers *pool = NULL;
	int err = 0;

	if (jobs > 1)
		pool = f2fs_workers_start(jobs - 1, &err);
	err = f2fs_nat_load_all_mt(ctx->fs, &ctx->nat, pool);
	f2fs_workers_stop(pool);
	return err;
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
	err = load_nat(ctx);
	if (err == -EFSCORRUPTED) {
		fsck_problem(ctx, PR_CP_SANITY, FSCK_OBJ(.str = "the NAT does not fit the superblock geometry"));
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
	err = find_unnamed_nodes(ctx);
	if (err)
		return err;
	err = restore_lost_entries(ctx);
	fsck_progress(ctx, 3, 1, 1);
	return err;
}
