/*
 * fsck_subdirs.c - how many subdirectories each directory has (a
 * directory's i_links must be 2 plus that).  Only directories have a
 * count, so it lives in a hash table keyed by inode number instead of a
 * field in every nid's info (4 bytes per nid of the volume's inodes: 2.6
 * MB on 650,000 files, for the few hundred directories among them).
 */
#include <stdlib.h>

#include "f2fs_array.h"
#include "f2fs_err.h"
#include "fsck.h"

struct fsck_subdir_slot {
	uint32_t ino;		/* 0: empty (nid 0 is never an inode) */
	uint32_t count;
};

static struct fsck_subdir_slot *find(const struct fsck_subdir_table *t, uint32_t ino)
{
	uint32_t i = f2fs_hash_slot(ino, t->cap);

	while (t->slots[i].ino && t->slots[i].ino != ino)
		i = f2fs_hash_next(i, t->cap);
	return &t->slots[i];
}

/* The table rehashed into cap slots. */
static int grow(struct fsck_subdir_table *t, uint32_t cap)
{
	struct fsck_subdir_table bigger = { .cap = cap, .n = t->n };

	if (!cap)
		return -ENOMEM;
	bigger.slots = f2fs_hash_table_alloc(cap, sizeof(*bigger.slots));
	if (!bigger.slots)
		return -ENOMEM;
	for (uint32_t i = 0; i < t->cap; i++)
		if (t->slots[i].ino)
			*find(&bigger, t->slots[i].ino) = t->slots[i];
	free(t->slots);
	*t = bigger;
	return 0;
}

int fsck_subdirs_add(struct fsck_ctx *ctx, uint32_t ino)
{
	struct fsck_subdir_table *t = &ctx->subdirs;
	uint32_t cap = f2fs_hash_capacity(t->n, t->cap, 256);
	struct fsck_subdir_slot *s;

	if (!ino)
		return -EINVAL;
	if (cap != t->cap) {
		int err = grow(t, cap);

		if (err)
			return err;
	}
	s = find(t, ino);
	if (!s->ino) {
		s->ino = ino;
		t->n++;
	}
	s->count++;
	return 0;
}

uint32_t fsck_subdirs(const struct fsck_ctx *ctx, uint32_t ino)
{
	const struct fsck_subdir_table *t = &ctx->subdirs;

	return t->cap && ino ? find(t, ino)->count : 0;
}

void fsck_subdirs_free(struct fsck_ctx *ctx)
{
	free(ctx->subdirs.slots);
	ctx->subdirs = (struct fsck_subdir_table){ 0 };
}
