/*
 * sload_dir.c - directory entries: inline in the inode while they fit
 * (first fit, as f2fs_add_inline_entry() places them), else dentry blocks
 * of the multi-level hash table (each name in the lowest level whose
 * bucket has room, as f2fs_add_regular_entry() does), written in block
 * order with holes for buckets nothing went to.  Also reads the entries of
 * an existing directory (the root a load goes into).
 */
#include <stdlib.h>
#include <string.h>

#include "f2fs_array.h"
#include "f2fs_err.h"
#include "f2fs_crc.h"
#include "f2fs_casefold.h"
#include "sload.h"

#define SLOT_BYTES	(SIZE_OF_DIR_ENTRY + F2FS_SLOT_LEN)

uint32_t sload_name_hash(const struct sload_ctx *c, const char *name, size_t len, bool casefold)
{
	if (casefold && (c->fs->features & F2FS_FEATURE_CASEFOLD) &&
	    !(len == 1 && name[0] == '.') && !(len == 2 && name[0] == '.' && name[1] == '.')) {
		uint8_t *folded = malloc(F2FS_CASEFOLD_MAX);
		int n = folded ? f2fs_casefold((const uint8_t *)name, len, folded, F2FS_CASEFOLD_MAX) : -ENOMEM;
		uint32_t h = 0;

		if (n >= 0)
			h = f2fs_dentry_hash(folded, (size_t)n);
		free(folded);
		if (n >= 0)
			return h;
	}
	return f2fs_dentry_hash((const uint8_t *)name, len);
}

/* A dentry area: bitmap, records and name slots of nr entries. */
struct dent_area {
	uint8_t *bitmap;
	struct f2fs_dir_entry *dentry;
	uint8_t (*filename)[F2FS_SLOT_LEN];
	uint32_t nr;
	uint32_t next;		/* first free slot (entries are only appended) */
};

static void area_of_block(struct f2fs_dentry_block *b, struct dent_area *a)
{
	a->bitmap = b->dentry_bitmap;
	a->dentry = b->dentry;
	a->filename = b->filename;
	a->nr = NR_DENTRY_IN_BLOCK;
}

static void area_of_inline(uint8_t *base, uint32_t cap, struct dent_area *a)
{
	uint32_t nr = f2fs_inline_dentry_slots(cap);
	uint32_t bm = (nr + 7) / 8;
	uint32_t reserved = cap - (bm + nr * SLOT_BYTES);

	a->bitmap = base;
	a->dentry = (struct f2fs_dir_entry *)(base + bm + reserved);
	a->filename = (uint8_t (*)[F2FS_SLOT_LEN])(base + bm + reserved + nr * SIZE_OF_DIR_ENTRY);
	a->nr = nr;
}

static uint32_t name_slots(size_t len)
{
	return (uint32_t)((len + F2FS_SLOT_LEN - 1) / F2FS_SLOT_LEN);
}

static bool area_put(struct dent_area *a, const char *name, size_t len, uint32_t hash,
		     uint32_t ino, uint8_t type)
{
	uint32_t slots = name_slots(len ? len : 1), s = a->next;

	if (s + slots > a->nr)
		return false;
	a->dentry[s].hash_code = cpu_to_le32(hash);
	a->dentry[s].ino = cpu_to_le32(ino);
	a->dentry[s].name_len = cpu_to_le16((uint16_t)len);
	a->dentry[s].file_type = type;
	memcpy(a->filename[s], name, len);
	for (uint32_t k = 0; k < slots; k++)
		set_bit_le(s + k, a->bitmap);
	a->next = s + slots;
	return true;
}

#define inode_extra_words sload_inode_extra_words
#define inode_xattr_words sload_inode_xattr_words
#define inline_cap sload_inline_capacity

static bool try_inline(struct sload_ctx *c, struct f2fs_node *n, uint32_t ino, uint32_t pino,
		       const struct sload_dent *d, size_t nd)
{
	uint8_t saved = n->i.i_inline;
	uint32_t cap, need = 2;
	struct dent_area a = { 0 };
	uint8_t *base = (uint8_t *)&n->i.i_addr[inode_extra_words(&n->i) + 1];

	n->i.i_inline |= F2FS_INLINE_DENTRY;	/* sizes the xattr area */
	cap = inline_cap(c, &n->i);
	area_of_inline(base, cap, &a);
	for (size_t k = 0; k < nd; k++)
		need += name_slots(d[k].len);
	if (need > a.nr) {
		n->i.i_inline = saved;
		return false;
	}
	memset(base, 0, cap);
	area_put(&a, ".", 1, 0, ino, F2FS_FT_DIR);
	area_put(&a, "..", 2, 0, pino, F2FS_FT_DIR);
	for (size_t k = 0; k < nd; k++)
		area_put(&a, d[k].name, d[k].len, d[k].hash, d[k].ino, d[k].type);
	n->i.i_inline |= F2FS_INLINE_DENTRY;
	n->i.i_size = cpu_to_le64(cap);
	n->i.i_current_depth = cpu_to_le32(1);
	return true;
}

/* Dentry blocks of a hashed directory being built, by block index. */
struct dblocks {
	struct f2fs_dentry_block **b;
	uint32_t *next;
	uint64_t n;
	uint32_t depth;
};

/* Room for need blocks in both parallel arrays, which share t->n (the
 * capacity, every slot counted): the new slots are zeroed. */
static int dblocks_grow(struct dblocks *t, uint64_t need)
{
	size_t cap_b = (size_t)t->n, cap_next = (size_t)t->n;

	if (need > SIZE_MAX || F2FS_ARRAY_ROOM(t->b, cap_b, need, 8) ||
	    F2FS_ARRAY_ROOM(t->next, cap_next, need, 8))
		return -ENOMEM;
	memset(t->b + t->n, 0, (cap_b - t->n) * sizeof(*t->b));
	memset(t->next + t->n, 0, (cap_b - t->n) * sizeof(*t->next));
	t->n = cap_b;
	return 0;
}

static int dblock_get(struct dblocks *t, uint64_t idx, struct dent_area *a)
{
	if (idx >= t->n && dblocks_grow(t, idx + 1))
		return -ENOMEM;
	if (!t->b[idx]) {
		t->b[idx] = calloc(1, sizeof(**t->b));
		if (!t->b[idx])
			return -ENOMEM;
	}
	area_of_block(t->b[idx], a);
	a->next = t->next[idx];
	return 0;
}

static uint64_t bucket_first_block(uint32_t level, uint64_t bucket)
{
	uint64_t idx = 0;

	for (uint32_t l = 0; l < level; l++)
		idx += f2fs_dir_buckets(l, 0) * f2fs_bucket_blocks(l);
	return idx + bucket * f2fs_bucket_blocks(level);
}

static int hashed_put(struct dblocks *t, const struct sload_dent *d)
{
	for (uint32_t level = 0; level < MAX_DIR_HASH_DEPTH; level++) {
		uint64_t bucket = d->hash % f2fs_dir_buckets(level, 0);
		uint64_t first = bucket_first_block(level, bucket);

		for (uint32_t k = 0; k < f2fs_bucket_blocks(level); k++) {
			struct dent_area a;
			int err = dblock_get(t, first + k, &a);

			if (err)
				return err;
			if (area_put(&a, d->name, d->len, d->hash, d->ino, d->type)) {
				t->next[first + k] = a.next;
				if (level + 1 > t->depth)
					t->depth = level + 1;
				return 0;
			}
			t->next[first + k] = a.next;
		}
	}
	return -ENOSPC;
}

static void dblocks_free(struct dblocks *t)
{
	for (uint64_t k = 0; k < t->n; k++)
		free(t->b[k]);
	free(t->b);
	free(t->next);
}

static int write_hashed(struct sload_ctx *c, struct f2fs_node *n, uint32_t ino, uint32_t pino,
			const struct sload_dent *d, size_t nd, uint64_t *blocks)
{
	struct dblocks t = { 0 };
	struct sload_fmap m;
	struct dent_area a;
	uint64_t last = 0;
	int err = dblock_get(&t, 0, &a);

	if (!err) {
		area_put(&a, ".", 1, 0, ino, F2FS_FT_DIR);
		area_put(&a, "..", 2, 0, pino, F2FS_FT_DIR);
		t.next[0] = a.next;
		t.depth = 1;
	}
	for (size_t k = 0; k < nd && !err; k++)
		err = hashed_put(&t, &d[k]);
	sload_fmap_init(&m, c, n, ino, true);
	for (uint64_t k = 0; k < t.n && !err; k++) {
		if (!t.b[k])
			continue;
		err = sload_fmap_add(&m, k, t.b[k], CURSEG_HOT_DATA);
		last = k;
	}
	if (!err)
		err = sload_fmap_finish(&m);
	*blocks += m.blocks;
	sload_fmap_free(&m);
	n->i.i_size = cpu_to_le64((last + 1) * F2FS_BLKSIZE);
	n->i.i_current_depth = cpu_to_le32(t.depth);
	dblocks_free(&t);
	return err;
}

/* Entries into n (a directory inode with its geometry set); adds the
 * blocks written to i_blocks.  The root is never inline: the kernel refuses
 * to mount a root that owns no block besides its inode (fill_super checks
 * i_blocks, which counts the blocks without the inode). */
int sload_write_dir_entries(struct sload_ctx *c, struct f2fs_node *n, uint32_t ino,
			    uint32_t pino, struct sload_dent *d, size_t nd, bool casefold)
{
	uint64_t blocks = 0;
	int err = 0;

	for (size_t k = 0; k < nd; k++)
		d[k].hash = sload_name_hash(c, d[k].name, d[k].len, casefold);
	if (ino == F2FS_ROOT_INO || !try_inline(c, n, ino, pino, d, nd))
		err = write_hashed(c, n, ino, pino, d, nd, &blocks);
	n->i.i_blocks = cpu_to_le64(le64_to_cpu(n->i.i_blocks) + blocks);
	return err;
}

/* ---- reading an existing directory ---- */

static int collect_area(const struct dent_area *a, struct sload_dent **out, size_t *nout,
			size_t *cap)
{
	for (uint32_t s = 0; s < a->nr; s++) {
		uint16_t len;
		struct sload_dent *e;

		if (!test_bit_le(s, a->bitmap))
			continue;
		len = le16_to_cpu(a->dentry[s].name_len);
		if (!len)
			continue;
		if (len > F2FS_NAME_LEN || s + name_slots(len) > a->nr)
			return -EFSCORRUPTED;
		if ((len == 1 && a->filename[s][0] == '.') ||
		    (len == 2 && a->filename[s][0] == '.' && a->filename[s][1] == '.')) {
			s += name_slots(len) - 1;
			continue;
		}
		if (F2FS_ARRAY_ROOM(*out, *cap, *nout + 1, 16))
			return -ENOMEM;
		e = &(*out)[(*nout)++];
		memset(e, 0, sizeof(*e));
		e->name = malloc((size_t)len + 1);
		if (!e->name)
			return -ENOMEM;
		memcpy(e->name, a->filename[s], len);
		e->name[len] = 0;
		e->len = len;
		e->type = a->dentry[s].file_type;
		e->ino = le32_to_cpu(a->dentry[s].ino);
		s += name_slots(len) - 1;
	}
	return 0;
}

static int collect_block(struct sload_ctx *c, uint32_t addr, struct sload_dent **out,
			 size_t *nout, size_t *cap, uint32_t **blocks, size_t *nblocks)
{
	struct f2fs_dentry_block b;
	struct dent_area a = { 0 };
	uint32_t *p;
	int err;

	if (addr == NULL_ADDR)
		return 0;
	if (!f2fs_blkaddr_in_main(c->fs, addr))
		return -EFSCORRUPTED;
	err = f2fs_dev_read(c->fs->dev, addr, 1, &b);
	if (err)
		return err;
	p = realloc(*blocks, (*nblocks + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	*blocks = p;
	p[(*nblocks)++] = addr;
	area_of_block(&b, &a);
	return collect_area(&a, out, nout, cap);
}

/* Entries of an existing directory inode (other than . and ..), and the
 * addresses of its dentry blocks and direct nodes (to release). */
int sload_read_dir_entries(struct sload_ctx *c, const struct f2fs_node *n,
			   struct sload_dent **out, size_t *nout, uint32_t **blocks, size_t *nblocks)
{
	const struct f2fs_inode *i = &n->i;
	uint32_t extra = inode_extra_words(i), slots;
	size_t cap = 0;
	int err = 0;

	*out = NULL;
	*nout = 0;
	*blocks = NULL;
	*nblocks = 0;
	if (extra + inode_xattr_words(c, i) >= DEF_ADDRS_PER_INODE)
		return -EFSCORRUPTED;
	if (i->i_inline & F2FS_INLINE_DENTRY) {
		struct dent_area a = { 0 };
		uint8_t *copy = malloc(inline_cap(c, i));

		if (!copy)
			return -ENOMEM;
		memcpy(copy, &i->i_addr[extra + 1], inline_cap(c, i));
		area_of_inline(copy, inline_cap(c, i), &a);
		err = collect_area(&a, out, nout, &cap);
		free(copy);
		return err;
	}
	if (i->i_nid[2] || i->i_nid[3] || i->i_nid[4])
		return -EOPNOTSUPP;
	slots = DEF_ADDRS_PER_INODE - extra - inode_xattr_words(c, i);
	for (uint32_t k = 0; k < slots && !err; k++)
		err = collect_block(c, le32_to_cpu(i->i_addr[extra + k]), out, nout, &cap,
				    blocks, nblocks);
	for (int d = 0; d < 2 && !err; d++) {
		uint32_t nid = le32_to_cpu(i->i_nid[d]);
		struct f2fs_nat_entry e;
		struct f2fs_node dn;

		if (!nid)
			continue;
		err = sload_read_node(c, nid, &e, &dn);
		for (uint32_t k = 0; k < ADDRS_PER_BLOCK && !err; k++)
			err = collect_block(c, le32_to_cpu(dn.dn.addr[k]), out, nout, &cap,
					    blocks, nblocks);
		if (!err) {
			uint32_t *p = realloc(*blocks, (*nblocks + 1) * sizeof(*p));

			if (!p)
				return -ENOMEM;
			*blocks = p;
			p[(*nblocks)++] = le32_to_cpu(e.block_addr);
		}
	}
	return err;
}
