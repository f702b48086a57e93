/*
 * fsck_fix.c - recording the plan of the run while the passes check.
 *
 * A detection site calls a fsck_fix_*() routine only when its
 * fsck_problem() call answered that the fix is planned (fsck_report.c);
 * the plan is made in every mode, and -n, --dry-run and -y differ only in
 * what is done with it after the check (fsck_repair.c applies it).
 *
 * Owns ctx->plan: writable copies of the node blocks and dentry blocks a
 * fix changes (the disk is never touched here), the summary entries to
 * correct, the owner of every node the walk accepted, the roll-forward
 * chain in order and the blocks its dnodes name, the inodes to reconnect.
 * Nothing here decides what is derived from reachability: that is
 * fsck_repair.c's.  Recording never fails loudly: an allocation or read
 * error is kept in plan->err and makes the repair refuse to run.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs_array.h"
#include "f2fs_err.h"
#include "fsck.h"

int fsck_plan_init(struct fsck_ctx *ctx)
{
	struct fsck_plan *r = calloc(1, sizeof(*r));
	uint32_t max_nid = ctx->fs->max_nid ? ctx->fs->max_nid : 1;
	size_t map = (size_t)((ctx->main_blocks + 7) / 8);

	if (!r)
		return -ENOMEM;
	r->node_slot = calloc(max_nid, sizeof(uint32_t));
	r->owner = calloc(max_nid, sizeof(uint32_t));
	r->chain_data = calloc(map ? map : 1, 1);
	ctx->plan = r;
	if (!r->node_slot || !r->owner || !r->chain_data)
		return -ENOMEM;
	return 0;
}

void fsck_plan_free(struct fsck_ctx *ctx)
{
	struct fsck_plan *r = ctx->plan;

	if (!r)
		return;
	for (uint32_t i = 0; i < r->n_nodes; i++)
		free(r->nodes[i].blk);
	for (uint32_t i = 0; i < r->n_data; i++)
		free(r->data[i].blk);
	free(r->nodes);
	free(r->data);
	free(r->data_slot);
	free(r->ssa);
	free(r->node_slot);
	free(r->owner);
	free(r->chain_data);
	free(r->chain);
	free(r->lost);
	free(r->block0);
	free(r->remap);
	free(r->moves);
	free(r->dent_moves);
	free(r->readds);
	free(r->short_inos);
	free(r->unreach);
	free(r);
	ctx->plan = NULL;
}

/* Room in an array of elements of size sz (lib/array.c) for one more
 * than n. */
static bool grow(void **arr, uint32_t n, uint32_t *cap, size_t sz)
{
	return n < UINT32_MAX && !f2fs_array_grow32(arr, sz, cap, n + 1, 16);
}

static uint8_t *block_copy(struct fsck_ctx *ctx, uint32_t addr, const void *cur)
{
	uint8_t *b = malloc(F2FS_BLKSIZE);
	int err;

	if (!b) {
		ctx->plan->err = -ENOMEM;
		return NULL;
	}
	if (cur) {
		memcpy(b, cur, F2FS_BLKSIZE);
		return b;
	}
	err = f2fs_dev_read(ctx->fs->dev, addr, 1, b);
	if (err) {
		ctx->plan->err = err;
		free(b);
		return NULL;
	}
	return b;
}

struct f2fs_node *fsck_fix_node_peek(const struct fsck_ctx *ctx, uint32_t nid)
{
	const struct fsck_plan *r = ctx->plan;

	if (nid >= ctx->fs->max_nid || !r->node_slot[nid])
		return NULL;
	return r->nodes[r->node_slot[nid] - 1].blk;
}

struct f2fs_node *fsck_fix_node(struct fsck_ctx *ctx, uint32_t nid, uint32_t addr,
				const void *cur)
{
	struct fsck_plan *r = ctx->plan;
	struct fsck_fixnode *fn;
	struct f2fs_node *have = fsck_fix_node_peek(ctx, nid);
	uint8_t *b;

	if (have || nid < F2FS_RESERVED_NODE_NUM || nid >= ctx->fs->max_nid)
		return have;
	if (!fsck_addr_in_main(ctx, addr))
		return NULL;
	if (!grow((void **)&r->nodes, r->n_nodes, &r->cap_nodes, sizeof(*r->nodes))) {
		r->err = -ENOMEM;
		return NULL;
	}
	b = block_copy(ctx, addr, cur);
	if (!b)
		return NULL;
	fn = &r->nodes[r->n_nodes++];
	memset(fn, 0, sizeof(*fn));
	fn->nid = nid;
	fn->old_addr = addr;
	fn->new_addr = 0;
	fn->blk = (struct f2fs_node *)b;
	r->node_slot[nid] = r->n_nodes;
	return fn->blk;
}

struct f2fs_node *fsck_fix_node_new(struct fsck_ctx *ctx, uint32_t nid)
{
	struct fsck_plan *r = ctx->plan;
	struct fsck_fixnode *fn;
	uint8_t *b;

	if (nid < F2FS_RESERVED_NODE_NUM || nid >= ctx->fs->max_nid || r->node_slot[nid])
		return NULL;
	if (!grow((void **)&r->nodes, r->n_nodes, &r->cap_nodes, sizeof(*r->nodes)) ||
	    !(b = calloc(1, F2FS_BLKSIZE))) {
		r->err = -ENOMEM;
		return NULL;
	}
	fn = &r->nodes[r->n_nodes++];
	memset(fn, 0, sizeof(*fn));
	fn->nid = nid;
	fn->old_addr = 0;
	fn->new_addr = 0;
	fn->blk = (struct f2fs_node *)b;
	r->node_slot[nid] = r->n_nodes;
	return fn->blk;
}

/* Where the search for a data copy of addr starts in r->data_slot. */
static uint32_t data_slot_start(const struct fsck_plan *r, uint32_t addr)
{
	return f2fs_hash_slot(addr, r->data_slots);
}

uint8_t *fsck_fix_data_peek(const struct fsck_ctx *ctx, uint32_t addr)
{
	const struct fsck_plan *r = ctx->plan;

	if (!addr || !r->data_slots)
		return NULL;
	for (uint32_t h = data_slot_start(r, addr);; h = f2fs_hash_next(h, r->data_slots)) {
		uint32_t slot = r->data_slot[h];

		if (!slot)
			return NULL;
		if (r->data[slot - 1].old_addr == addr)
			return r->data[slot - 1].blk;
	}
}

static void data_slot_put(struct fsck_plan *r, uint32_t idx)
{
	uint32_t h = data_slot_start(r, r->data[idx].old_addr);

	while (r->data_slot[h])
		h = f2fs_hash_next(h, r->data_slots);
	r->data_slot[h] = idx + 1;
}

/* Index data[idx] (a copy of a block at an address) by its address; the
 * table stays at most half full. */
static int data_slot_add(struct fsck_plan *r, uint32_t idx)
{
	uint32_t n = f2fs_hash_capacity(idx, r->data_slots, 64);

	if (n != r->data_slots) {
		uint32_t *t = n ? f2fs_hash_table_alloc(n, sizeof(*t)) : NULL;

		if (!t)
			return -ENOMEM;
		free(r->data_slot);
		r->data_slot = t;
		r->data_slots = n;
		for (uint32_t i = 0; i < idx; i++)
			if (r->data[i].old_addr)
				data_slot_put(r, i);
	}
	data_slot_put(r, idx);
	return 0;
}

uint8_t *fsck_fix_data_new(struct fsck_ctx *ctx, uint32_t owner, uint16_t ofs)
{
	struct fsck_plan *r = ctx->plan;
	struct fsck_fixdata *fd;
	uint8_t *b;

	if (owner < F2FS_RESERVED_NODE_NUM || owner >= ctx->fs->max_nid)
		return NULL;
	if (!grow((void **)&r->data, r->n_data, &r->cap_data, sizeof(*r->data)) ||
	    !(b = calloc(1, F2FS_BLKSIZE))) {
		r->err = -ENOMEM;
		return NULL;
	}
	fd = &r->data[r->n_data++];
	fd->old_addr = 0;
	fd->new_addr = 0;
	fd->owner = owner;
	fd->ofs = ofs;
	fd->blk = b;
	return b;
}

uint8_t *fsck_fix_data(struct fsck_ctx *ctx, uint32_t addr, uint32_t owner, uint16_t ofs,
		       const void *cur)
{
	struct fsck_plan *r = ctx->plan;
	struct fsck_fixdata *fd;
	uint8_t *b = fsck_fix_data_peek(ctx, addr);

	if (b)
		return b;
	if (!fsck_addr_in_main(ctx, addr) || owner < F2FS_RESERVED_NODE_NUM ||
	    owner >= ctx->fs->max_nid)
		return NULL;
	if (!grow((void **)&r->data, r->n_data, &r->cap_data, sizeof(*r->data))) {
		r->err = -ENOMEM;
		return NULL;
	}
	b = block_copy(ctx, addr, cur);
	if (!b)
		return NULL;
	fd = &r->data[r->n_data++];
	fd->old_addr = addr;
	fd->new_addr = 0;
	fd->owner = owner;
	fd->ofs = ofs;
	fd->blk = b;
	if (data_slot_add(r, r->n_data - 1))
		r->err = -ENOMEM;
	return b;
}

static void add_ssa(struct fsck_ctx *ctx, const struct fsck_fixssa *e)
{
	struct fsck_plan *r = ctx->plan;

	if (!grow((void **)&r->ssa, r->n_ssa, &r->cap_ssa, sizeof(*r->ssa))) {
		r->err = -ENOMEM;
		return;
	}
	r->ssa[r->n_ssa++] = *e;
}

void fsck_fix_ssa(struct fsck_ctx *ctx, uint32_t blkaddr, uint32_t nid, uint16_t ofs,
		  bool is_node)
{
	struct fsck_fixssa e = { .blkaddr = blkaddr, .nid = nid, .ofs = is_node ? 0 : ofs,
				 .is_node = is_node };

	add_ssa(ctx, &e);
}

void fsck_fix_ssa_footer(struct fsck_ctx *ctx, uint32_t blkaddr)
{
	struct fsck_fixssa e = { .blkaddr = blkaddr, .footer_only = 1 };

	add_ssa(ctx, &e);
}

/* The writable copy of the block an entry lives in. */
static uint8_t *dent_block(struct fsck_ctx *ctx, const struct fsck_dent_loc *loc, const void *cur)
{
	if (!loc->dir_ino)
		return NULL;
	if (fsck_dent_inline(loc))
		return (uint8_t *)fsck_fix_node(ctx, loc->dir_ino, loc->blkaddr, cur);
	return fsck_fix_data(ctx, loc->blkaddr, loc->owner, loc->owner_ofs, cur);
}

static void drop_entry(uint8_t *b, const struct fsck_dent_loc *loc)
{
	struct f2fs_dir_entry *de = (void *)(b + loc->de_base + (size_t)loc->slot * SIZE_OF_DIR_ENTRY);
	uint32_t len = le16_to_cpu(de->name_len), n, i;
	uint8_t *bitmap = b + loc->bitmap_off;

	if (len && len <= F2FS_NAME_LEN) {
		n = GET_DENTRY_SLOTS(len);
	} else {
		/* unknown length: this slot and the blank slots after it */
		n = 1;
		while (loc->slot + n < loc->nslots && test_bit_le(loc->slot + n, bitmap)) {
			const struct f2fs_dir_entry *next = de + n;

			if (next->ino || next->name_len || next->hash_code)
				break;
			n++;
		}
	}
	for (i = 0; i < n && loc->slot + i < loc->nslots; i++)
		clear_bit_le(loc->slot + i, bitmap);
}

void fsck_fix_dentry(struct fsck_ctx *ctx, const struct fsck_dent_loc *loc, const void *cur,
		     enum fsck_dent_op op, uint32_t val)
{
	uint8_t *b = dent_block(ctx, loc, cur);
	struct f2fs_dir_entry *de;

	if (!b || loc->slot >= loc->nslots)
		return;
	de = (void *)(b + loc->de_base + (size_t)loc->slot * SIZE_OF_DIR_ENTRY);
	switch (op) {
	case FSCK_DENT_DROP:
		drop_entry(b, loc);
		break;
	case FSCK_DENT_FTYPE:
		de->file_type = (uint8_t)val;
		break;
	case FSCK_DENT_HASH:
		de->hash_code = cpu_to_le32(val);
		break;
	case FSCK_DENT_INO:
		de->ino = cpu_to_le32(val);
		break;
	case FSCK_DENT_NAMELEN:
		de->name_len = cpu_to_le16((uint16_t)val);
		break;
	}
}

void fsck_fix_dots(struct fsck_ctx *ctx, const struct fsck_dent_loc *loc, const void *cur,
		   bool dot, uint32_t ino)
{
	struct fsck_dent_loc l = *loc;
	uint8_t *b;
	struct f2fs_dir_entry *de;
	uint8_t *name;

	l.slot = dot ? 0 : 1;
	b = dent_block(ctx, &l, cur);
	if (!b || l.nslots < 2)
		return;
	de = (void *)(b + l.de_base + (size_t)l.slot * SIZE_OF_DIR_ENTRY);
	name = b + fsck_dent_names(&l) + (size_t)l.slot * F2FS_SLOT_LEN;
	de->hash_code = 0;
	de->ino = cpu_to_le32(ino);
	de->name_len = cpu_to_le16(dot ? 1 : 2);
	de->file_type = F2FS_FT_DIR;
	memset(name, 0, F2FS_SLOT_LEN);
	name[0] = '.';
	if (!dot)
		name[1] = '.';
	set_bit_le(l.slot, b + l.bitmap_off);
}

void fsck_fix_owner(struct fsck_ctx *ctx, uint32_t nid, uint32_t ino)
{
	if (ctx->plan && nid < ctx->fs->max_nid)
		ctx->plan->owner[nid] = ino;
}

/* Append v to one of the repair's lists; false (r->err set) without memory. */
static bool push_u32(struct fsck_plan *r, uint32_t **arr, uint32_t *n, uint32_t *cap,
		     uint32_t v)
{
	if (!grow((void **)arr, *n, cap, sizeof(**arr))) {
		r->err = -ENOMEM;
		return false;
	}
	(*arr)[(*n)++] = v;
	return true;
}

void fsck_fix_unreach(struct fsck_ctx *ctx, uint32_t addr)
{
	struct fsck_plan *r = ctx->plan;

	push_u32(r, &r->unreach, &r->n_unreach, &r->cap_unreach, addr);
}

void fsck_fix_lost(struct fsck_ctx *ctx, uint32_t ino)
{
	struct fsck_plan *r = ctx->plan;

	push_u32(r, &r->lost, &r->n_lost, &r->cap_lost, ino);
}

void fsck_fix_root(struct fsck_ctx *ctx)
{
	ctx->plan->root_rebuild = true;
}

void fsck_fix_root_uninline(struct fsck_ctx *ctx)
{
	ctx->plan->root_uninline = true;
}

void fsck_fix_block0(struct fsck_ctx *ctx, uint32_t ino, uint32_t parent)
{
	struct fsck_plan *r = ctx->plan;

	if (push_u32(r, &r->block0, &r->n_block0, &r->cap_block0, ino))
		push_u32(r, &r->block0, &r->n_block0, &r->cap_block0, parent);
}

void fsck_fix_short(struct fsck_ctx *ctx, uint32_t ino)
{
	struct fsck_plan *r = ctx->plan;

	push_u32(r, &r->short_inos, &r->n_short, &r->cap_short, ino);
}

void fsck_fix_dent_move(struct fsck_ctx *ctx, const struct fsck_dent_loc *loc, uint32_t hash)
{
	struct fsck_plan *r = ctx->plan;

	if (!loc->dir_ino)
		return;
	if (!grow((void **)&r->dent_moves, r->n_dent_moves, &r->cap_dent_moves,
		  sizeof(*r->dent_moves))) {
		r->err = -ENOMEM;
		return;
	}
	r->dent_moves[r->n_dent_moves].loc = *loc;
	r->dent_moves[r->n_dent_moves++].hash = hash;
}

/* Every word of the address area that lies in main (an over-estimate for
 * inodes and indirect nodes, which is harmless: those blocks are only
 * kept out of the allocator's reach). */
static void mark_chain_data(struct fsck_ctx *ctx, const struct f2fs_node *n)
{
	bool inode = le32_to_cpu(n->footer.nid) == le32_to_cpu(n->footer.ino);
	const uint8_t *w = inode ? (const uint8_t *)n + offsetof(struct f2fs_inode, i_addr) :
			   (const uint8_t *)n;
	uint32_t cnt = inode ? DEF_ADDRS_PER_INODE : ADDRS_PER_BLOCK;

	for (uint32_t i = 0; i < cnt; i++) {
		uint32_t a = get_le32(w + (size_t)i * 4);

		if (fsck_addr_in_main(ctx, a))
			fsck_set(ctx->plan->chain_data, a - ctx->fs->main_blkaddr);
	}
}

void fsck_fix_chain_node(struct fsck_ctx *ctx, uint32_t addr, const struct f2fs_node *n)
{
	struct fsck_plan *r = ctx->plan;

	if (push_u32(r, &r->chain, &r->n_chain, &r->cap_chain, addr))
		mark_chain_data(ctx, n);
}

void fsck_fix_dent_readd(struct fsck_ctx *ctx, const struct fsck_dent_loc *loc, const void *cur)
{
	struct fsck_plan *r = ctx->plan;
	const struct f2fs_dir_entry *de;
	struct fsck_dent_readd *e;
	uint32_t len;
	uint8_t *b;

	if (!loc->dir_ino || loc->slot >= loc->nslots)
		return;
	b = dent_block(ctx, loc, cur);
	if (!b || !test_bit_le(loc->slot, b + loc->bitmap_off))
		return;
	de = (const void *)(b + loc->de_base + (size_t)loc->slot * SIZE_OF_DIR_ENTRY);
	len = le16_to_cpu(de->name_len);
	if (!len || len > F2FS_NAME_LEN || loc->slot + GET_DENTRY_SLOTS(len) > loc->nslots)
		return;
	if (!grow((void **)&r->readds, r->n_readds, &r->cap_readds, sizeof(*r->readds))) {
		r->err = -ENOMEM;
		return;
	}
	e = &r->readds[r->n_readds++];
	e->dir = loc->dir_ino;
	e->ino = le32_to_cpu(de->ino);
	e->hash = le32_to_cpu(de->hash_code);
	e->len = (uint8_t)len;
	e->ftype = de->file_type;
	memcpy(e->name, b + fsck_dent_names(loc) + (size_t)loc->slot * F2FS_SLOT_LEN, len);
	drop_entry(b, loc);
}

void fsck_fix_dent_name(struct fsck_ctx *ctx, const struct fsck_dent_loc *loc, const void *cur,
			const uint8_t *name, uint32_t len)
{
	uint8_t *b = dent_block(ctx, loc, cur);

	if (!b || loc->slot >= loc->nslots || !len || loc->slot + GET_DENTRY_SLOTS(len) > loc->nslots)
		return;
	memcpy(b + fsck_dent_names(loc) + (size_t)loc->slot * F2FS_SLOT_LEN, name, len);
}
