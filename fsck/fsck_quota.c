/*
 * fsck_quota.c - quota usage (the check) and the rebuild of quota files
 * (the repair), when the quota_ino feature is on.
 *
 * During the node walk (fsck_pass_nodes.c) every inode it accepts, other
 * than the quota inodes themselves, charges its owners here: one inode
 * and (i_blocks - 1) * 4096 bytes (the kernel charges data blocks and
 * non-inode node blocks) to its uid, gid and project id.  Inodes reached
 * only as orphans or as unreachable ("lost") inodes are charged too: the
 * kernel charged them and they keep their blocks.  The walk also notes
 * where each quota inode's data blocks are.
 *
 * After the other passes, fsck_pass_quota() reads each quota file: a VFS
 * v2r1 quota tree in 1 KiB blocks (header magic and version, the info
 * block, a depth-4 tree indexed by the bytes of the id, leaf blocks of
 * 72-byte entries; the format's codec and builder are lib/quota.c).  Everything in it is hostile: block numbers must lie
 * below dqi_blocks, dqi_blocks inside the blocks the file maps, each tree
 * block is reached once (so loops end), leaf headers must count their
 * entries, each entry must be where its id leads and each id appear once.
 * Damage is F2FS-8010; an id whose curinodes / curspace differ from the
 * usage counted (missing entries and entries of ids without usage
 * included) is F2FS-8011.  Limits and grace times are never judged.
 *
 * Repair: a damaged or wrong file is rebuilt from scratch: a fresh tree
 * holding every id with usage plus every readable id with limits (whose
 * limits and times are kept; the grace times and flags of a readable
 * header too), written as the quota inode's data blocks out of place
 * through the common repair (fsck_fix.c records them, fsck_repair.c
 * allocates and commits), with i_size, i_blocks and i_ext updated.
 * Usage is derived data, so F2FS-8011 is safe in preen mode (e2fsck and
 * f2fs-tools fix quota usage unattended too); a damaged file can lose
 * the limits of ids whose entries were unreadable, so F2FS-8010 needs -y.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs_array.h"
#include "f2fs_err.h"
#include "f2fs_quota.h"
#include "fsck_walk.h"

#define QT_PER_BLK	(F2FS_BLKSIZE / F2FS_QT_BLKSIZE)
#define QT_MAX_BUILD	(1u << 24)	/* 1 KiB blocks a rebuilt file may take */

static const char *const quota_name[F2FS_MAX_QUOTAS] = { "user", "group", "project" };

/* One id of one quota type. */
struct qid {
	uint32_t id;
	uint8_t flags;
	uint32_t leaf;			/* 1 KiB block holding its entry */
	uint64_t inodes, space;		/* counted by the walk */
	struct f2fs_dquot disk;		/* the entry read from the file */
};
#define QID_USED	0x01	/* usage counted */
#define QID_ENTRY	0x02	/* an entry was read */

/* What an inode is charged: its owners and its blocks. */
struct qcharge {
	uint32_t ids[F2FS_MAX_QUOTAS];
	uint64_t blocks;
};

/* A data block of a quota file and the slot that names it. */
struct qblk {
	uint64_t fofs;
	uint32_t addr, owner;
	uint16_t ofs;
};

struct qfile {
	uint32_t ino;
	bool walked;			/* a regular file the walk accepted */
	uint32_t inode_addr, addrs_per_inode;
	uint64_t counted;		/* blocks i_blocks counts */
	struct qblk *blk;
	uint32_t n_blk, cap_blk;
	struct qblk *rsv;		/* NEW_ADDR slots of its direct nodes (addr 0) */
	uint32_t n_rsv, cap_rsv;
	uint8_t **cache;		/* per blk[]: the block, read lazily */
	struct qid *tab;		/* open addressing, cap a power of two */
	uint32_t n_tab, cap_tab;
	/* what the parse found */
	uint32_t dqi_blocks;
	struct f2fs_dqinfo info;	/* the header's info */
	bool header_ok, broken, wrong;
	uint8_t *tree_seen, *leaf_seen;	/* bit per 1 KiB block */
};

struct fsck_quota {
	struct qfile f[F2FS_MAX_QUOTAS];
	bool checked;			/* fsck_pass_quota() ran */
	bool unfixed;			/* a file needed a rebuild that was not made */
	int err;
	/* the inode copies of the repair when the check ended, and what
	 * their inodes were charged: a later fix (lost+found) may change them */
	struct qcharge *snap;
	uint32_t n_snap;
};

static const uint8_t zero_blk[F2FS_BLKSIZE];

/* ---- the id tables ---- */

static struct qid *tab_find(const struct qfile *f, uint32_t id)
{
	if (!f->cap_tab)
		return NULL;
	for (uint32_t h = f2fs_hash_slot(id, f->cap_tab);; h = f2fs_hash_next(h, f->cap_tab)) {
		if (!f->tab[h].flags)
			return NULL;
		if (f->tab[h].id == id)
			return &f->tab[h];
	}
}

/* The table rehashed into cap slots. */
static int tab_grow(struct qfile *f, uint32_t cap)
{
	struct qid *t = cap ? f2fs_hash_table_alloc(cap, sizeof(*t)) : NULL, *old = f->tab;

	if (!t)
		return -ENOMEM;
	for (uint32_t i = 0; i < f->cap_tab; i++) {
		uint32_t h;

		if (!old[i].flags)
			continue;
		for (h = f2fs_hash_slot(old[i].id, cap); t[h].flags; h = f2fs_hash_next(h, cap))
			;
		t[h] = old[i];
	}
	free(old);
	f->tab = t;
	f->cap_tab = cap;
	return 0;
}

/* The id's record, created (with flags) when missing. */
static struct qid *tab_get(struct qfile *f, uint32_t id, uint8_t flags)
{
	struct qid *q = tab_find(f, id);
	uint32_t cap, h;

	if (q) {
		q->flags |= flags;
		return q;
	}
	cap = f2fs_hash_capacity(f->n_tab, f->cap_tab, 64);
	if (cap != f->cap_tab && tab_grow(f, cap))
		return NULL;
	for (h = f2fs_hash_slot(id, f->cap_tab); f->tab[h].flags; h = f2fs_hash_next(h, f->cap_tab))
		;
	q = &f->tab[h];
	memset(q, 0, sizeof(*q));
	q->id = id;
	q->flags = flags;
	f->n_tab++;
	return q;
}

/* ---- recording during the walk ---- */

static struct fsck_quota *quota_state(struct fsck_ctx *ctx)
{
	if (!(ctx->fs->features & F2FS_FEATURE_QUOTA_INO))
		return NULL;
	if (!ctx->quota) {
		ctx->quota = calloc(1, sizeof(*ctx->quota));
		if (!ctx->quota)
			return NULL;
		for (int t = 0; t < F2FS_MAX_QUOTAS; t++)
			ctx->quota->f[t].ino = le32_to_cpu(ctx->fs->sb.qf_ino[t]);
	}
	return ctx->quota->err ? NULL : ctx->quota;
}

/* The project id the kernel reads from the inode (0 when none fits). */
static uint32_t inode_projid(const struct fsck_ctx *ctx, const struct f2fs_inode *ri)
{
	size_t need = offsetof(struct f2fs_inode, i_projid) + sizeof(ri->i_projid) -
		      offsetof(struct f2fs_inode, i_addr);

	if (!(ctx->fs->features & F2FS_FEATURE_PRJQUOTA) || !(ri->i_inline & F2FS_EXTRA_ATTR) ||
	    le16_to_cpu(ri->i_extra_isize) < need)
		return 0;
	return le32_to_cpu(ri->i_projid);
}

static void charge_of(const struct fsck_ctx *ctx, const struct f2fs_inode *ri, uint64_t blocks,
		      struct qcharge *c)
{
	c->ids[0] = le32_to_cpu(ri->i_uid);
	c->ids[1] = le32_to_cpu(ri->i_gid);
	c->ids[2] = inode_projid(ctx, ri);
	c->blocks = blocks;
}

/* Add (sign 1) or take back (sign -1) one inode's charge. */
static void apply_charge(struct fsck_quota *q, const struct qcharge *c, int sign)
{
	uint64_t space = c->blocks ? (c->blocks - 1) * F2FS_BLKSIZE : 0;

	for (int t = 0; t < F2FS_MAX_QUOTAS; t++) {
		struct qid *e;

		if (!q->f[t].ino)
			continue;
		e = tab_get(&q->f[t], c->ids[t], QID_USED);
		if (!e) {
			q->err = -ENOMEM;
			return;
		}
		e->inodes += (uint64_t)(int64_t)sign;
		e->space += sign > 0 ? space : -space;
	}
}

void fsck_quota_charge(struct fsck_ctx *ctx, uint32_t ino, const struct f2fs_inode *ri,
		       uint64_t blocks)
{
	struct fsck_quota *q = quota_state(ctx);
	struct qcharge c;

	if (!q)
		return;
	charge_of(ctx, ri, blocks, &c);
	apply_charge(q, &c, 1);
	ctx->ni[ino].flags |= FSCK_NI_QCHARGED;
}

void fsck_quota_charge_blocks(struct fsck_ctx *ctx, uint32_t ino, const struct f2fs_inode *ri,
			      uint64_t blocks)
{
	struct fsck_quota *q = quota_state(ctx);
	struct qcharge c;

	if (!q || ino >= ctx->fs->max_nid || !(ctx->ni[ino].flags & FSCK_NI_QCHARGED))
		return;
	charge_of(ctx, ri, blocks, &c);
	for (int t = 0; t < F2FS_MAX_QUOTAS; t++) {
		struct qid *e;

		if (!q->f[t].ino)
			continue;
		e = tab_get(&q->f[t], c.ids[t], QID_USED);
		if (!e) {
			q->err = -ENOMEM;
			return;
		}
		e->space += blocks * F2FS_BLKSIZE;
	}
}

void fsck_quota_note_inode(struct fsck_ctx *ctx, int type, const struct fsck_file *file,
			   uint32_t inode_addr)
{
	struct fsck_quota *q = quota_state(ctx);

	if (!q || type < 0 || type >= F2FS_MAX_QUOTAS)
		return;
	q->f[type].ino = file->ino;	/* the superblock's, or the one walk_lost() took back */
	q->f[type].walked = S_ISREG(file->mode);
	q->f[type].inode_addr = inode_addr;
	q->f[type].addrs_per_inode = file->addrs_per_inode;
	q->f[type].counted = file->counted;
}

void fsck_quota_note_block(struct fsck_ctx *ctx, int type, uint64_t fofs, uint32_t addr,
			   uint32_t owner, uint32_t ofs_in_node)
{
	struct fsck_quota *q = quota_state(ctx);
	struct qfile *f;

	if (!q || type < 0 || type >= F2FS_MAX_QUOTAS)
		return;
	f = &q->f[type];
	if (F2FS_ARRAY_ROOM32(f->blk, f->cap_blk, f->n_blk + 1, 16)) {
		q->err = -ENOMEM;
		return;
	}
	f->blk[f->n_blk++] = (struct qblk){ .fofs = fofs, .addr = addr, .owner = owner,
					    .ofs = (uint16_t)ofs_in_node };
}

void fsck_quota_note_reserved(struct fsck_ctx *ctx, int type, uint64_t fofs, uint32_t owner,
			      uint32_t ofs_in_node)
{
	struct fsck_quota *q = quota_state(ctx);
	struct qfile *f;

	if (!q || type < 0 || type >= F2FS_MAX_QUOTAS || ofs_in_node >= ADDRS_PER_BLOCK)
		return;
	f = &q->f[type];
	if (F2FS_ARRAY_ROOM32(f->rsv, f->cap_rsv, f->n_rsv + 1, 8)) {
		q->err = -ENOMEM;
		return;
	}
	f->rsv[f->n_rsv++] = (struct qblk){ .fofs = fofs, .owner = owner,
					    .ofs = (uint16_t)ofs_in_node };
}

/* ---- reading the file ---- */

static int cmp_blk(const void *a, const void *b)
{
	const struct qblk *x = a, *y = b;

	return x->fofs < y->fofs ? -1 : x->fofs > y->fofs;
}

static int find_blk(const struct qfile *f, uint64_t fofs)
{
	uint32_t lo = 0, hi = f->n_blk;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (f->blk[mid].fofs == fofs)
			return (int)mid;
		if (f->blk[mid].fofs < fofs)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* 1 KiB block b of the file (zeros in a hole), or NULL on a read error. */
static const uint8_t *qblock(struct fsck_ctx *ctx, struct qfile *f, uint32_t b)
{
	int i = find_blk(f, b / QT_PER_BLK);

	if (i < 0)
		return zero_blk;
	if (!f->cache[i]) {
		uint8_t *buf = malloc(F2FS_BLKSIZE);

		if (!buf || f2fs_dev_read(ctx->fs->dev, f->blk[i].addr, 1, buf)) {
			free(buf);
			return NULL;
		}
		f->cache[i] = buf;
	}
	return f->cache[i] + (size_t)(b % QT_PER_BLK) * F2FS_QT_BLKSIZE;
}

static void broken(struct fsck_ctx *ctx, int t, struct qfile *f, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void broken(struct fsck_ctx *ctx, int t, struct qfile *f, const char *fmt, ...)
{
	char msg[160], full[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(full, sizeof(full), "%s quota: %s", quota_name[t], msg);
	if (fsck_problem(ctx, PR_QUOTA_FILE, FSCK_OBJ(.ino = f->ino, .idx = (uint64_t)t, .str = full)))
		f->broken = true;	/* rebuilt by fsck_quota_rebuild() */
}

static int read_entry(struct qfile *f, const uint8_t *e, uint32_t leaf, bool *dup)
{
	uint32_t id = get_le32(e);
	struct qid *q = tab_get(f, id, 0);

	if (!q)
		return -ENOMEM;
	if (q->flags & QID_ENTRY) {
		*dup = true;
		return 0;
	}
	q->flags |= QID_ENTRY;
	q->leaf = leaf;
	f2fs_dquot_read(e, &q->disk);
	return 0;
}

static int parse_leaf(struct fsck_ctx *ctx, int t, struct qfile *f, uint32_t b)
{
	const uint8_t *blk = qblock(ctx, f, b);
	uint32_t used = 0;
	bool dup = false;

	if (!blk)
		return -EIO;
	for (uint32_t i = 0; i < F2FS_QT_PER_LEAF; i++) {
		const uint8_t *e = blk + F2FS_QT_LEAF_HDR + i * F2FS_QT_ENTRY_SIZE;
		int err;

		if (f2fs_dquot_unused(e))
			continue;
		used++;
		err = read_entry(f, e, b, &dup);
		if (err)
			return err;
		if (dup)
			broken(ctx, t, f, "id %u has a second entry in block %u", get_le32(e), b);
		dup = false;
	}
	if (get_le16(blk + 8) != used)
		broken(ctx, t, f, "leaf block %u counts %u entries, holds %u", b, get_le16(blk + 8), used);
	return 0;
}

/* Walk the tree from the root, each tree block once, parsing each leaf. */
static int walk_tree(struct fsck_ctx *ctx, int t, struct qfile *f)
{
	struct { uint32_t blk; int depth; } *stack;
	uint32_t n = 0;
	int err = 0;

	stack = malloc((size_t)f->dqi_blocks * sizeof(*stack));
	if (!stack)
		return -ENOMEM;
	stack[n].blk = F2FS_QT_TREEOFF;
	stack[n++].depth = 0;
	fsck_set(f->tree_seen, 0);
	fsck_set(f->tree_seen, F2FS_QT_TREEOFF);
	while (n && !err) {
		uint32_t b = stack[--n].blk;
		int depth = stack[n].depth;
		const uint8_t *blk = qblock(ctx, f, b);

		if (!blk) {
			err = -EIO;
			break;
		}
		for (uint32_t i = 0; i < F2FS_QT_REFS && !err; i++) {
			uint32_t ref = get_le32(blk + 4 * i);

			if (!ref)
				continue;
			if (ref <= F2FS_QT_TREEOFF || ref >= f->dqi_blocks) {
				broken(ctx, t, f, "tree block %u (depth %d) entry %u points to block %u, outside 2..%u",
				       b, depth, i, ref, f->dqi_blocks - 1);
				continue;
			}
			if (depth == F2FS_QT_DEPTH - 1) {
				if (fsck_bit(f->tree_seen, ref))
					broken(ctx, t, f, "block %u is both a tree block and a leaf", ref);
				else if (!fsck_bit(f->leaf_seen, ref)) {
					fsck_set(f->leaf_seen, ref);
					err = parse_leaf(ctx, t, f, ref);
				}
				continue;
			}
			if (fsck_bit(f->tree_seen, ref) || fsck_bit(f->leaf_seen, ref)) {
				broken(ctx, t, f, "tree block %u entry %u points to block %u, already used",
				       b, i, ref);
				continue;
			}
			fsck_set(f->tree_seen, ref);
			stack[n].blk = ref;
			stack[n++].depth = depth + 1;
		}
	}
	free(stack);
	return err;
}

/* The leaf the tree leads to for id, 0 if none. */
static uint32_t lookup_leaf(struct fsck_ctx *ctx, struct qfile *f, uint32_t id)
{
	uint32_t b = F2FS_QT_TREEOFF;

	for (int depth = 0; depth < F2FS_QT_DEPTH; depth++) {
		const uint8_t *blk = qblock(ctx, f, b);
		uint32_t idx = f2fs_qt_index(id, depth);

		if (!blk)
			return 0;
		b = get_le32(blk + 4 * idx);
		if (b <= F2FS_QT_TREEOFF || b >= f->dqi_blocks)
			return 0;
	}
	return b;
}

static bool check_header(struct fsck_ctx *ctx, int t, struct qfile *f)
{
	const uint8_t *h = qblock(ctx, f, 0);
	uint64_t mapped = f->n_blk ? (f->blk[f->n_blk - 1].fofs + 1) * QT_PER_BLK : 0;
	uint32_t free_blk, free_entry;

	if (!h)
		return false;
	if (f2fs_quota_header_read(h, t, &f->info)) {
		broken(ctx, t, f, "header magic 0x%08x version %u (expected 0x%08x version %u)",
		       get_le32(h), get_le32(h + 4), f2fs_quota_magic(t), F2FS_QT_VERSION);
		return false;
	}
	f->header_ok = true;
	f->dqi_blocks = f->info.dqi_blocks;
	free_blk = f->info.dqi_free_blk;
	free_entry = f->info.dqi_free_entry;
	if (f->dqi_blocks <= F2FS_QT_TREEOFF || f->dqi_blocks > mapped) {
		broken(ctx, t, f, "dqi_blocks %u is outside 2..%llu (the blocks the file maps)",
		       f->dqi_blocks, (unsigned long long)mapped);
		return false;
	}
	if (free_blk >= f->dqi_blocks || free_entry >= f->dqi_blocks)
		broken(ctx, t, f, "free block list %u / free entry list %u beyond dqi_blocks %u",
		       free_blk, free_entry, f->dqi_blocks);
	return true;
}

static int parse_file(struct fsck_ctx *ctx, int t, struct qfile *f)
{
	size_t map;
	int err;

	if (f->n_blk)	/* qsort() takes no NULL array, even empty */
		qsort(f->blk, f->n_blk, sizeof(*f->blk), cmp_blk);
	f->cache = calloc(f->n_blk ? f->n_blk : 1, sizeof(*f->cache));
	if (!f->cache)
		return -ENOMEM;
	if (!check_header(ctx, t, f))
		return 0;
	map = ((size_t)f->dqi_blocks + 7) / 8;
	f->tree_seen = calloc(map, 1);
	f->leaf_seen = calloc(map, 1);
	if (!f->tree_seen || !f->leaf_seen)
		return -ENOMEM;
	err = walk_tree(ctx, t, f);
	for (uint32_t i = 0; i < f->cap_tab && !err; i++) {
		const struct qid *q = &f->tab[i];

		if ((q->flags & QID_ENTRY) && lookup_leaf(ctx, f, q->id) != q->leaf)
			broken(ctx, t, f, "the entry of id %u in block %u is not where its id leads",
			       q->id, q->leaf);
	}
	return err;
}

/* ---- usage ---- */

static void wrong(struct fsck_ctx *ctx, int t, struct qfile *f, const struct qid *q,
		  const char *what, uint64_t found, uint64_t expected)
{
	char s[96];

	snprintf(s, sizeof(s), "%s id %u: %s", quota_name[t], q->id, what);
	if (fsck_problem(ctx, PR_QUOTA_USAGE, FSCK_OBJ(.ino = f->ino, .idx = (uint64_t)t, .str = s,
			 .found = found, .expected = expected)))
		f->wrong = true;	/* rebuilt by fsck_quota_rebuild() */
}

static void compare_usage(struct fsck_ctx *ctx, int t, struct qfile *f)
{
	for (uint32_t i = 0; i < f->cap_tab; i++) {
		const struct qid *q = &f->tab[i];

		if (!q->flags)
			continue;
		if ((q->flags & QID_USED) && !(q->flags & QID_ENTRY)) {
			wrong(ctx, t, f, q, "no entry; curinodes", 0, q->inodes);
			continue;
		}
		if (q->disk.dqb_curinodes != q->inodes)
			wrong(ctx, t, f, q, "curinodes", q->disk.dqb_curinodes, q->inodes);
		if (q->disk.dqb_curspace != q->space)
			wrong(ctx, t, f, q, "curspace", q->disk.dqb_curspace, q->space);
	}
}

/* ---- the rebuild ---- */

/* The content of a rebuilt file, in 1 KiB blocks. */
struct qbuild {
	uint8_t *buf;
	uint32_t n;
};

static int cmp_dquot(const void *a, const void *b)
{
	uint32_t x = ((const struct f2fs_dquot *)a)->dqb_id;
	uint32_t y = ((const struct f2fs_dquot *)b)->dqb_id;

	return x < y ? -1 : x > y;
}

static bool keep_id(const struct qid *q)
{
	const struct f2fs_dquot *d = &q->disk;

	return (q->flags & QID_USED) ||
	       ((q->flags & QID_ENTRY) && (d->dqb_ihardlimit || d->dqb_isoftlimit ||
					  d->dqb_bhardlimit || d->dqb_bsoftlimit));
}

/* The entry an id gets: the usage counted, the limits and grace
 * deadlines of the entry read (none without one). */
static void new_entry(const struct qid *q, struct f2fs_dquot *d)
{
	if (q->flags & QID_ENTRY)
		*d = q->disk;
	else
		memset(d, 0, sizeof(*d));
	d->dqb_id = q->id;
	d->dqb_curinodes = q->inodes;
	d->dqb_curspace = q->space;
}

/* The new file's content in b, at most limit blocks (else -EFBIG). */
static int build_file(int t, const struct qfile *f, uint32_t limit, struct qbuild *b)
{
	struct f2fs_dqinfo info = { .dqi_bgrace = F2FS_QT_GRACE, .dqi_igrace = F2FS_QT_GRACE };
	struct f2fs_dquot *dq;
	uint32_t n = 0, need;
	int err;

	dq = malloc(((size_t)f->n_tab + 1) * sizeof(*dq));
	if (!dq)
		return -ENOMEM;
	for (uint32_t i = 0; i < f->cap_tab; i++)
		if (f->tab[i].flags && keep_id(&f->tab[i]))
			new_entry(&f->tab[i], &dq[n++]);
	qsort(dq, n, sizeof(*dq), cmp_dquot);
	if (f->header_ok)
		info = f->info;		/* grace times and flags */
	need = f2fs_quota_file_blocks(dq, n);
	if (!need || need > limit) {
		free(dq);
		return -EFBIG;
	}
	b->buf = calloc(need, F2FS_QT_BLKSIZE);
	err = b->buf ? f2fs_quota_build(t, dq, n, &info, b->buf, need, &b->n) : -ENOMEM;
	free(dq);
	return err;
}

/* The reserved (NEW_ADDR) direct node slot of file block k, or -1. */
static int find_rsv(const struct qfile *f, uint64_t k)
{
	for (uint32_t i = 0; i < f->n_rsv; i++)
		if (f->rsv[i].fofs == k)
			return (int)i;
	return -1;
}

/* Where file block k of the quota file can go: an existing block at k, a
 * free address slot of the inode, or a direct node's slot the kernel
 * reserved for k (NEW_ADDR). */
static bool slot_ok(const struct qfile *f, uint64_t k)
{
	return find_blk(f, k) >= 0 || k < f->addrs_per_inode || find_rsv(f, k) >= 0;
}

/* Drop the old block i of the file (beyond the new end). */
static void drop_block(struct fsck_ctx *ctx, struct qfile *f, const struct qblk *qb)
{
	struct f2fs_nat_entry e;
	struct f2fs_node *n;

	if (!fsck_nat_lookup(ctx, qb->owner, &e))
		return;
	n = fsck_fix_node(ctx, qb->owner, le32_to_cpu(e.block_addr), NULL);
	if (!n)
		return;
	if (qb->owner == f->ino) {
		uint32_t idx = fsck_extra_words(&n->i) + qb->ofs;

		if (idx < DEF_ADDRS_PER_INODE)
			n->i.i_addr[idx] = 0;
	} else if (qb->ofs < ADDRS_PER_BLOCK) {
		n->dn.addr[qb->ofs] = 0;
	}
	fsck_fix_unreach(ctx, qb->addr);
	ctx->st.data_blocks--;
	f->counted--;
}

/* A quota inode flagged with inline data or dentries: the kernel never
 * makes one (it gives inline data only to inodes it creates, and quota
 * inodes come from mkfs or fsck), so its address slots hold no quota
 * records; the file is rebuilt whole into blocks, from empty slots. */
static void drop_inline_content(struct fsck_ctx *ctx, struct f2fs_node *inode)
{
	uint32_t from = fsck_extra_words(&inode->i), ixa, to;

	inode->i.i_inline &= (uint8_t)~(F2FS_INLINE_DATA | F2FS_INLINE_DENTRY | F2FS_DATA_EXIST);
	ixa = fsck_inline_xattr_addrs(ctx, &inode->i);
	to = ixa < DEF_ADDRS_PER_INODE ? DEF_ADDRS_PER_INODE - ixa : 0;
	for (uint32_t i = from; i < to; i++)
		inode->i.i_addr[i] = 0;
}

/* The inode's address slot for file block k holds NEW_ADDR: a block the
 * kernel reserved (it reads as zeroes), already counted in i_blocks and in
 * the valid blocks.  The walk notes no block for it. */
static bool reserved_slot(struct fsck_ctx *ctx, const struct qfile *f, uint64_t k)
{
	const struct f2fs_node *inode = fsck_fix_node_peek(ctx, f->ino);
	uint32_t idx;

	if (!inode || k >= f->addrs_per_inode)
		return false;
	idx = fsck_extra_words(&inode->i) + (uint32_t)k;
	return idx < DEF_ADDRS_PER_INODE && le32_to_cpu(inode->i.i_addr[idx]) == NEW_ADDR;
}

/* A new block for file block k: it counts once, in place of the reserved
 * block its slot held if any. */
static void count_new_block(struct fsck_ctx *ctx, struct qfile *f, bool reserved)
{
	ctx->st.data_blocks++;
	if (!reserved)
		f->counted++;
	else if (ctx->st.new_addr_blocks)
		ctx->st.new_addr_blocks--;
}

/* Reserved (NEW_ADDR) slots of the inode past the rebuilt file's last
 * block go, as its old blocks there do (drop_block). */
static void drop_reserved_tail(struct fsck_ctx *ctx, struct qfile *f, uint64_t nblk)
{
	struct f2fs_node *inode = fsck_fix_node_peek(ctx, f->ino);
	uint32_t extra = fsck_extra_words(&inode->i);

	for (uint64_t k = nblk; k < f->addrs_per_inode && extra + k < DEF_ADDRS_PER_INODE; k++) {
		if (le32_to_cpu(inode->i.i_addr[extra + k]) != NEW_ADDR)
			continue;
		inode->i.i_addr[extra + k] = 0;
		if (ctx->st.new_addr_blocks)
			ctx->st.new_addr_blocks--;
		if (f->counted)
			f->counted--;
	}
	for (uint32_t i = 0; i < f->n_rsv; i++) {
		struct f2fs_nat_entry e;
		struct f2fs_node *n;

		if (f->rsv[i].fofs < nblk || !fsck_nat_lookup(ctx, f->rsv[i].owner, &e))
			continue;
		n = fsck_fix_node(ctx, f->rsv[i].owner, le32_to_cpu(e.block_addr), NULL);
		if (!n || le32_to_cpu(n->dn.addr[f->rsv[i].ofs]) != NEW_ADDR)
			continue;
		n->dn.addr[f->rsv[i].ofs] = 0;
		if (ctx->st.new_addr_blocks)
			ctx->st.new_addr_blocks--;
		if (f->counted)
			f->counted--;
	}
}

static int write_file(struct fsck_ctx *ctx, struct qfile *f, const struct qbuild *b)
{
	uint64_t nblk = ((uint64_t)b->n + QT_PER_BLK - 1) / QT_PER_BLK;
	struct f2fs_node *inode = fsck_fix_node(ctx, f->ino, f->inode_addr, NULL);

	if (!inode)
		return ctx->plan->err ? ctx->plan->err : -ENOMEM;
	if (inode->i.i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY))
		drop_inline_content(ctx, inode);
	for (uint64_t k = 0; k < nblk; k++) {
		uint8_t page[F2FS_BLKSIZE], *dst;
		size_t len = (size_t)(b->n - k * QT_PER_BLK) * F2FS_QT_BLKSIZE;
		int i = find_blk(f, k);

		memset(page, 0, sizeof(page));
		memcpy(page, b->buf + k * F2FS_BLKSIZE, len < F2FS_BLKSIZE ? len : F2FS_BLKSIZE);
		if (i >= 0) {
			dst = fsck_fix_data(ctx, f->blk[i].addr, f->blk[i].owner, f->blk[i].ofs, page);
		} else if (k < f->addrs_per_inode) {
			bool reserved = reserved_slot(ctx, f, k);

			dst = fsck_fix_data_new(ctx, f->ino, (uint16_t)k);
			if (dst)
				count_new_block(ctx, f, reserved);
		} else {
			/* slot_ok(): a direct node slot holding NEW_ADDR */
			int r = find_rsv(f, k);

			if (r < 0)
				return -EFSCORRUPTED;
			dst = fsck_fix_data_new(ctx, f->rsv[r].owner, f->rsv[r].ofs);
			if (dst)
				count_new_block(ctx, f, true);
		}
		if (!dst)
			return ctx->plan->err ? ctx->plan->err : -ENOMEM;
		memcpy(dst, page, F2FS_BLKSIZE);
	}
	for (uint32_t i = 0; i < f->n_blk; i++)
		if (f->blk[i].fofs >= nblk)
			drop_block(ctx, f, &f->blk[i]);
	drop_reserved_tail(ctx, f, nblk);
	inode = fsck_fix_node_peek(ctx, f->ino);
	inode->i.i_size = cpu_to_le64((uint64_t)b->n * F2FS_QT_BLKSIZE);
	inode->i.i_blocks = cpu_to_le64(f->counted);
	memset(&inode->i.i_ext, 0, sizeof(inode->i.i_ext));
	return 0;
}

static int rebuild(struct fsck_ctx *ctx, int t, struct qfile *f)
{
	struct qbuild b = { 0 };
	int err;
	uint64_t last = f->n_blk ? (f->blk[f->n_blk - 1].fofs + 1) * QT_PER_BLK : 0;
	uint32_t limit = f->addrs_per_inode * QT_PER_BLK;

	for (uint32_t i = 0; i < f->n_rsv; i++)
		if ((f->rsv[i].fofs + 1) * QT_PER_BLK > last)
			last = (f->rsv[i].fofs + 1) * QT_PER_BLK;

	if (last > limit)
		limit = last < QT_MAX_BUILD ? (uint32_t)last : QT_MAX_BUILD;
	err = build_file(t, f, limit, &b);
	for (uint64_t k = 0; !err && k * QT_PER_BLK < b.n; k++)
		if (!slot_ok(f, k))
			err = -EFBIG;
	if (!err)
		err = write_file(ctx, f, &b);
	free(b.buf);
	if (err == -EFBIG) {
		fsck_diag(ctx, "the %s quota file does not fit the quota inode's own address slots "
			  "(or its inode has inline data); it is not rebuilt", quota_name[t]);
		ctx->quota->unfixed = true;
		return 0;
	}
	return err;
}

/* ---- the pass ---- */

/* Remember what the inodes with a repair copy were charged. */
static int snapshot(struct fsck_ctx *ctx, struct fsck_quota *q)
{
	const struct fsck_plan *plan = ctx->plan;

	if (!plan || !plan->n_nodes)
		return 0;
	q->snap = calloc(plan->n_nodes, sizeof(*q->snap));
	if (!q->snap)
		return -ENOMEM;
	q->n_snap = plan->n_nodes;
	for (uint32_t i = 0; i < plan->n_nodes; i++) {
		const struct f2fs_node *n = plan->nodes[i].blk;

		if (n->footer.nid == n->footer.ino)
			charge_of(ctx, &n->i, le64_to_cpu(n->i.i_blocks), &q->snap[i]);
	}
	return 0;
}

int fsck_pass_quota(struct fsck_ctx *ctx)
{
	struct fsck_quota *q = ctx->fs_usable ? quota_state(ctx) : NULL;
	int err = 0;

	if (!q)
		return ctx->quota && ctx->quota->err ? ctx->quota->err : 0;
	for (int t = 0; t < F2FS_MAX_QUOTAS && !err; t++) {
		struct qfile *f = &q->f[t];

		if (!f->ino || !f->walked)
			continue;	/* no such quota, or F2FS-4038 said why */
		err = parse_file(ctx, t, f);
		if (!err && f->dqi_blocks > F2FS_QT_TREEOFF)
			compare_usage(ctx, t, f);
		fsck_debug(ctx, 1, "%s quota (ino %u): %u file blocks, dqi_blocks %u, %u ids",
			   quota_name[t], f->ino, f->n_blk, f->dqi_blocks, f->n_tab);
	}
	if (!err)
		err = snapshot(ctx, q);
	q->checked = !err;
	return err;
}

/* An inode's charge before the repair: snapshotted, or (no copy then)
 * what its block on disk says, which the walk found right. */
static bool charge_before(struct fsck_ctx *ctx, struct fsck_quota *q, uint32_t i,
			  struct qcharge *c)
{
	const struct fsck_fixnode *fn = &ctx->plan->nodes[i];
	uint8_t buf[F2FS_BLKSIZE];
	const struct f2fs_node *old = (const void *)buf;

	if (!(ctx->ni[fn->nid].flags & FSCK_NI_QCHARGED) || !fn->old_addr)
		return false;
	if (i < q->n_snap) {
		*c = q->snap[i];
		return true;
	}
	if (f2fs_dev_read(ctx->fs->dev, fn->old_addr, 1, buf)) {
		q->err = -EIO;
		return false;
	}
	charge_of(ctx, &old->i, le64_to_cpu(old->i.i_blocks), c);
	return true;
}

static bool same_charge(const struct qcharge *a, const struct qcharge *b)
{
	return !memcmp(a->ids, b->ids, sizeof(a->ids)) && a->blocks == b->blocks;
}

/* Fixes made after the check (lost+found: a new directory, new dentry
 * blocks) change usage: follow the inode copies of the repair. */
static void follow_repair(struct fsck_ctx *ctx, struct fsck_quota *q)
{
	const struct fsck_plan *plan = ctx->plan;

	for (uint32_t i = 0; i < plan->n_nodes; i++) {
		const struct fsck_fixnode *fn = &plan->nodes[i];
		const struct f2fs_node *n = fn->blk;
		struct qcharge before, after;
		bool had, has;

		if (n->footer.nid != n->footer.ino || le32_to_cpu(n->footer.nid) != fn->nid)
			continue;
		if (ctx->ni[fn->nid].flags & FSCK_NI_QUOTA)
			continue;
		had = charge_before(ctx, q, i, &before);
		has = (ctx->ni[fn->nid].flags & FSCK_NI_NODE) &&
		      ((ctx->ni[fn->nid].flags & FSCK_NI_QCHARGED) || !fn->old_addr);
		if (has)
			charge_of(ctx, &n->i, le64_to_cpu(n->i.i_blocks), &after);
		if (had && has && same_charge(&before, &after))
			continue;
		if (!had && !has)
			continue;
		if (had)
			apply_charge(q, &before, -1);
		if (has)
			apply_charge(q, &after, 1);
		for (int t = 0; t < F2FS_MAX_QUOTAS; t++)
			q->f[t].wrong = true;
	}
}

int fsck_quota_rebuild(struct fsck_ctx *ctx)
{
	struct fsck_quota *q = ctx->quota;
	int err = 0;

	if (!q || !q->checked)
		return 0;
	follow_repair(ctx, q);
	if (q->err)
		return q->err;
	for (int t = 0; t < F2FS_MAX_QUOTAS && !err; t++) {
		struct qfile *f = &q->f[t];

		if (f->ino && f->walked && (f->broken || f->wrong))
			err = rebuild(ctx, t, f);
	}
	return err;
}

bool fsck_quota_settled(const struct fsck_ctx *ctx)
{
	const struct fsck_quota *q = ctx->quota;

	if (!q || !q->checked || q->err || q->unfixed)
		return false;
	for (int t = 0; t < F2FS_MAX_QUOTAS; t++)
		if (q->f[t].ino && !q->f[t].walked)
			return false;
	return true;
}

void fsck_quota_free(struct fsck_ctx *ctx)
{
	struct fsck_quota *q = ctx->quota;

	if (!q)
		return;
	for (int t = 0; t < F2FS_MAX_QUOTAS; t++) {
		struct qfile *f = &q->f[t];

		for (uint32_t i = 0; f->cache && i < f->n_blk; i++)
			free(f->cache[i]);
		free(f->cache);
		free(f->blk);
		free(f->rsv);
		free(f->tab);
		free(f->tree_seen);
		free(f->leaf_seen);
	}
	free(q->snap);
	free(q);
	ctx->quota = NULL;
}
