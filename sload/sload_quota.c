/*
 * sload_quota.c - quota files of a volume with quota_ino: the usage of
 * every inode the load writes (one inode and (i_blocks - 1) * 4096 bytes,
 * what the kernel charges) is added to what the existing files hold, and
 * each file is written again as a fresh VFS v2r1 tree (1 KiB blocks:
 * header and info, a depth-4 index by the bytes of the id, leaves of
 * 72-byte entries; the format's codec and builder are lib/quota.c), its
 * data and inode out of place.  Limits and grace
 * times of ids already in a file are kept.  A file that does not parse is
 * refused before anything is written.
 */
#include <stdlib.h>
#include <string.h>

#include "f2fs_array.h"
#include "f2fs_err.h"
#include "f2fs_quota.h"
#include "sload.h"

#define QB		F2FS_QT_BLKSIZE	/* quota block */
#define QB_PER_BLK	(F2FS_BLKSIZE / QB)
#define Q_MAX_BLOCKS	(1u << 20)

/* One id's entry: limits and grace deadlines as read, usage updated. */
struct q_ent {
	uint32_t id;
	struct f2fs_dquot d;
};

struct sload_quota {
	uint32_t ino;
	struct f2fs_dqinfo info;	/* the old file's header info */
	struct q_ent *e;
	size_t n, cap;
	uint32_t node_addr;		/* the old inode block */
	struct f2fs_node inode;		/* the old inode */
	uint32_t *old_blocks;		/* data blocks and direct nodes to release */
	size_t n_old;
	uint32_t old_nids[2];
};

static struct q_ent *q_find(struct sload_quota *q, uint32_t id, bool add)
{
	for (size_t k = 0; k < q->n; k++)	/* few ids: owners of a tree */
		if (q->e[k].id == id)
			return &q->e[k];
	if (!add)
		return NULL;
	if (F2FS_ARRAY_ROOM(q->e, q->cap, q->n + 1, 16))
		return NULL;
	memset(&q->e[q->n], 0, sizeof(q->e[q->n]));
	q->e[q->n].id = id;
	q->e[q->n].d.dqb_id = id;
	return &q->e[q->n++];
}

/* ---- reading the old file ---- */

static int note_old(struct sload_quota *q, uint32_t addr)
{
	uint32_t *p = realloc(q->old_blocks, (q->n_old + 1) * sizeof(*p));

	if (!p)
		return -ENOMEM;
	q->old_blocks = p;
	p[q->n_old++] = addr;
	return 0;
}

/* The file's bytes (data slots of the inode and its two direct nodes). */
static int read_file(struct sload_ctx *c, struct sload_quota *q, uint8_t **out, uint32_t *nblk)
{
	const struct f2fs_inode *i = &q->inode.i;
	uint32_t base = sload_inode_extra_words(i), slots = sload_inode_data_slots(c, i);
	uint64_t size = le64_to_cpu(i->i_size), want = (size + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE;
	uint32_t addrs[DEF_ADDRS_PER_INODE + 2 * ADDRS_PER_BLOCK], n = 0;
	uint8_t *buf;
	int err = 0;

	if (want > slots + 2ull * ADDRS_PER_BLOCK || i->i_nid[2] || i->i_nid[3] || i->i_nid[4])
		return -EOPNOTSUPP;
	for (uint32_t k = 0; k < slots; k++)
		addrs[n++] = le32_to_cpu(i->i_addr[base + k]);
	for (int d = 0; d < 2 && !err; d++) {
		uint32_t nid = le32_to_cpu(i->i_nid[d]);
		struct f2fs_nat_entry e;
		struct f2fs_node dn;

		if (!nid)
			continue;
		err = sload_read_node(c, nid, &e, &dn);
		if (!err)
			err = note_old(q, le32_to_cpu(e.block_addr));
		q->old_nids[d] = nid;
		for (uint32_t k = 0; k < ADDRS_PER_BLOCK && !err; k++)
			addrs[slots + (uint32_t)d * ADDRS_PER_BLOCK + k] = le32_to_cpu(dn.dn.addr[k]);
	}
	if (err)
		return err;
	buf = f2fs_blocks_zalloc(want ? want : 1);
	if (!buf)
		return -ENOMEM;
	for (uint64_t b = 0; b < want && !err; b++) {
		uint32_t a = b < slots || i->i_nid[(b - slots) / ADDRS_PER_BLOCK] ? addrs[b] : NULL_ADDR;

		if (a == NULL_ADDR || a == NEW_ADDR)
			continue;
		if (!f2fs_blkaddr_in_main(c->fs, a))
			err = -EFSCORRUPTED;
		if (!err)
			err = f2fs_dev_read(c->fs->dev, a, 1, buf + b * F2FS_BLKSIZE);
		if (!err)
			err = note_old(q, a);
	}
	*out = buf;
	*nblk = (uint32_t)(want * QB_PER_BLK);
	return err;
}

static int walk_tree(struct sload_quota *q, const uint8_t *f, uint32_t nblk, uint32_t blk,
		     int depth, uint8_t *seen)
{
	if (blk == 0 || blk >= nblk || (seen[blk / 8] & (1u << (blk % 8))))
		return -EFSCORRUPTED;
	seen[blk / 8] |= (uint8_t)(1u << (blk % 8));
	if (depth == F2FS_QT_DEPTH) {
		const uint8_t *leaf = f + (size_t)blk * QB;

		for (uint32_t k = 0; k < F2FS_QT_PER_LEAF; k++) {
			const uint8_t *r = leaf + F2FS_QT_LEAF_HDR + k * F2FS_QT_ENTRY_SIZE;
			struct q_ent *e;

			if (f2fs_dquot_unused(r))
				continue;
			e = q_find(q, get_le32(r), true);
			if (!e)
				return -ENOMEM;
			f2fs_dquot_read(r, &e->d);
		}
		return 0;
	}
	for (uint32_t k = 0; k < QB / 4; k++) {
		uint32_t ref = get_le32(f + (size_t)blk * QB + k * 4);
		int err;

		if (!ref)
			continue;
		/* a leaf is shared by the ids that point to it */
		if (depth + 1 == F2FS_QT_DEPTH && ref < nblk && (seen[ref / 8] & (1u << (ref % 8))))
			continue;
		err = walk_tree(q, f, nblk, ref, depth + 1, seen);
		if (err)
			return err;
	}
	return 0;
}

static int load_one(struct sload_ctx *c, struct sload_quota *q, int type)
{
	struct f2fs_nat_entry e;
	uint8_t *f = NULL, *seen;
	uint32_t nblk = 0;
	int err = sload_nat_ready(c, q->ino);

	if (!err)
		err = f2fs_nat_get(&c->nat, q->ino, &e);

	if (!err) {
		q->node_addr = le32_to_cpu(e.block_addr);
		err = f2fs_blkaddr_in_main(c->fs, q->node_addr) ?
		      f2fs_dev_read(c->fs->dev, q->node_addr, 1, &q->inode) : -EFSCORRUPTED;
	}
	if (!err && le32_to_cpu(q->inode.footer.nid) != q->ino)
		err = -EFSCORRUPTED;
	if (!err)
		err = read_file(c, q, &f, &nblk);
	if (!err && (nblk < 2 || f2fs_quota_header_read(f, type, &q->info)))
		err = -EFSCORRUPTED;
	if (!err && q->info.dqi_blocks < nblk)
		nblk = q->info.dqi_blocks;
	seen = err ? NULL : calloc(nblk / 8 + 1, 1);
	if (!err && !seen)
		err = -ENOMEM;
	if (!err)
		err = walk_tree(q, f, nblk, 1, 0, seen);
	free(seen);
	free(f);
	return err;
}

int sload_quota_load(struct sload_ctx *c)
{
	if (!(c->fs->features & F2FS_FEATURE_QUOTA_INO))
		return 0;
	c->quota = calloc(F2FS_MAX_QUOTAS, sizeof(*c->quota));
	if (!c->quota)
		return -ENOMEM;
	for (int t = 0; t < F2FS_MAX_QUOTAS; t++) {
		int err;

		c->quota[t].ino = le32_to_cpu(c->fs->sb.qf_ino[t]);
		if (!c->quota[t].ino)
			continue;
		err = load_one(c, &c->quota[t], t);
		if (err) {
			snprintf(c->errbuf, sizeof(c->errbuf), "quota file of type %d (inode %u)", t,
				 c->quota[t].ino);
			return err;
		}
	}
	return 0;
}

static uint32_t projid_of(const struct sload_ctx *c, const struct f2fs_inode *i)
{
	if ((c->fs->features & F2FS_FEATURE_PRJQUOTA) && (i->i_inline & F2FS_EXTRA_ATTR) &&
	    le16_to_cpu(i->i_extra_isize) >= 8)
		return le32_to_cpu(i->i_projid);
	return 0;
}

int sload_quota_charge(struct sload_ctx *c, const struct f2fs_inode *i, int sign)
{
	uint32_t ids[F2FS_MAX_QUOTAS] = { le32_to_cpu(i->i_uid), le32_to_cpu(i->i_gid), projid_of(c, i) };
	uint64_t blocks = le64_to_cpu(i->i_blocks);
	int64_t space = (int64_t)(blocks ? blocks - 1 : 0) * F2FS_BLKSIZE;

	if (!c->quota)
		return 0;
	for (int t = 0; t < F2FS_MAX_QUOTAS; t++) {
		struct q_ent *e;

		if (!c->quota[t].ino)
			continue;
		e = q_find(&c->quota[t], ids[t], true);
		if (!e)
			return -ENOMEM;
		e->d.dqb_curinodes = (uint64_t)((int64_t)e->d.dqb_curinodes + sign);
		e->d.dqb_curspace = (uint64_t)((int64_t)e->d.dqb_curspace + sign * space);
	}
	return 0;
}

/* ---- writing the new file ---- */

static int cmp_ent(const void *a, const void *b)
{
	uint32_t x = ((const struct q_ent *)a)->id, y = ((const struct q_ent *)b)->id;

	return x < y ? -1 : x > y;
}

/* The new file (lib/quota.c lays it out, keeping the old file's grace
 * times and flags), padded to whole blocks; *nblk counts its 1 KiB blocks
 * with the padding. */
static uint8_t *build_file(struct sload_quota *q, int type, uint32_t *nblk)
{
	struct f2fs_dquot *dq = malloc((q->n ? q->n : 1) * sizeof(*dq));
	uint32_t need, used;
	uint8_t *f = NULL;

	if (!dq)
		return NULL;
	if (q->n)
		qsort(q->e, q->n, sizeof(*q->e), cmp_ent);
	for (size_t k = 0; k < q->n; k++)
		dq[k] = q->e[k].d;
	need = f2fs_quota_file_blocks(dq, q->n);
	need = (need + QB_PER_BLK - 1) / QB_PER_BLK * QB_PER_BLK;
	if (need && need <= Q_MAX_BLOCKS)
		f = calloc(need, QB);
	if (f && f2fs_quota_build(type, dq, q->n, &q->info, f, need, &used)) {
		free(f);
		f = NULL;
	}
	free(dq);
	*nblk = need;
	return f;
}

static int release_old(struct sload_ctx *c, struct sload_quota *q)
{
	int err = 0;

	for (size_t k = 0; k < q->n_old && !err; k++) {
		err = f2fs_logs_release(&c->logs, q->old_blocks[k]);
		c->block_delta--;
	}
	for (int d = 0; d < 2 && !err; d++)
		if (q->old_nids[d]) {
			err = sload_nat_ready(c, q->old_nids[d]);
			if (!err)
				err = f2fs_nid_set(&c->nat, q->old_nids[d], 0, NULL_ADDR);
			c->node_delta--;
		}
	if (!err)
		err = f2fs_logs_release(&c->logs, q->node_addr);
	c->block_delta--;
	c->node_delta--;
	c->inode_delta--;
	return err;
}

static int write_one(struct sload_ctx *c, struct sload_quota *q, int type)
{
	struct f2fs_node *n = &q->inode;
	uint32_t nblk = 0, base = sload_inode_extra_words(&n->i);
	uint8_t *f = build_file(q, type, &nblk);
	struct sload_fmap m;
	int err;

	if (!f)
		return -ENOMEM;
	err = release_old(c, q);
	memset(&n->i.i_addr[base], 0, (size_t)sload_inode_data_slots(c, &n->i) * 4);
	memset(n->i.i_nid, 0, sizeof(n->i.i_nid));
	memset(&n->i.i_ext, 0, sizeof(n->i.i_ext));
	sload_fmap_init(&m, c, n, q->ino, false);
	for (uint32_t b = 0; b < nblk / QB_PER_BLK && !err; b++)
		err = sload_fmap_add(&m, b, f + (size_t)b * F2FS_BLKSIZE, CURSEG_WARM_DATA);
	if (!err)
		err = sload_fmap_finish(&m);
	n->i.i_size = cpu_to_le64((uint64_t)nblk * QB);
	n->i.i_blocks = cpu_to_le64(1 + m.blocks + (n->i.i_xattr_nid ? 1 : 0));
	sload_fmap_free(&m);
	if (!err)
		err = sload_write_node(c, n, q->ino, q->ino, 0, false, true);
	free(f);
	return err;
}

int sload_quota_write(struct sload_ctx *c)
{
	if (!c->quota)
		return 0;
	for (int t = 0; t < F2FS_MAX_QUOTAS; t++) {
		int err;

		if (!c->quota[t].ino)
			continue;
		err = write_one(c, &c->quota[t], t);
		if (err)
			return err;
	}
	return 0;
}

void sload_quota_free(struct sload_ctx *c)
{
	if (!c->quota)
		return;
	for (int t = 0; t < F2FS_MAX_QUOTAS; t++) {
		free(c->quota[t].e);
		free(c->quota[t].old_blocks);
	}
	free(c->quota);
	c->quota = NULL;
}
