/*
 * fsck_relocate.c - the repair's block moves: blocks that must live
 * elsewhere for the kernel to read them right.
 *
 * Sections of mixed classes (F2FS-7006 between the segments of a large
 * section, F2FS-4030 inside one segment).  The kernel's GC takes the type
 * of a victim section from the segment it starts at (the first one) and
 * stops checkpointing at a segment whose summary footer is of the other
 * class (do_garbage_collect()).  Each
 * such section keeps the class that has more valid blocks there; the
 * blocks of the other class move out, as the kernel's GC would move them:
 * a node block gets a writable copy, which the repair writes out of place
 * with the other changed nodes (its NAT entry follows, its version kept);
 * a data block is copied to a data log of the repair and the address slot
 * of its owner (inode or direct node) is repointed, the owner found
 * through the block's summary and checked against the owner's slot, and
 * an i_ext covering the old block is dropped.  A log of the class that
 * leaves moves to a fresh section, its current segment emptied with it.
 * Every segment of the section then gets the kept class (fsck_repair.c
 * derives SIT types from ctx->seg_kind), empty ones included, since the
 * first segment names the section's type to the GC.
 *
 * Files whose inline xattr area holds block addresses (F2FS-4040: what
 * sload.f2fs 1.15 writes for files with more blocks than the kernel's
 * i_addr slots).  The writer filled all 923 - extra words of i_addr and
 * went on in the direct nodes from there; the kernel reads
 * 923 - extra - inline_xattr_words slots in the inode.  The file's block
 * map is laid out again as the kernel reads it: every block from the
 * first one in the xattr area on moves up by inline_xattr_words slots
 * across the direct nodes (new direct and indirect nodes, with free nids,
 * where the last ones overflow), the xattr area is cleared, i_blocks
 * counts what the area held, i_ext is dropped.
 *
 * Both lay blocks out in new places, and every data block that changes
 * place or owner slot is copied to a block the current checkpoint does
 * not use, with its summary written there (by fsck_alloc.c): old blocks and
 * their summary entries are never written, so a cut repair leaves the
 * state before it.  (The one in-place write is the summary footer of a
 * segment that held both classes, which no check of the old state reads.)
 * Runs only when one of these problems was reported.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs_array.h"
#include "f2fs_err.h"
#include "fsck.h"
#include "fsck_alloc.h"
#include "fsck_walk.h"

#define MOVE_BATCH	64u
/* The data log moved blocks go to: where the kernel's GC puts data. */
#define MOVE_LOG	CURSEG_COLD_DATA

enum { CLS_NONE, CLS_DATA = 1, CLS_NODE = 2 };

/* ---- small helpers ---- */

static bool nat_entry(const struct fsck_ctx *ctx, uint32_t nid, struct f2fs_nat_entry *e)
{
	return nid >= F2FS_RESERVED_NODE_NUM && fsck_nat_lookup(ctx, nid, e);
}

static uint32_t nat_addr_of(const struct fsck_ctx *ctx, uint32_t nid)
{
	struct f2fs_nat_entry e;

	return nat_entry(ctx, nid, &e) ? le32_to_cpu(e.block_addr) : 0;
}

static uint8_t nat_version_of(const struct fsck_ctx *ctx, uint32_t nid)
{
	struct f2fs_nat_entry e;

	return nat_entry(ctx, nid, &e) ? e.version : 0;
}

static bool reached_node(const struct fsck_ctx *ctx, uint32_t nid)
{
	return nid >= F2FS_RESERVED_NODE_NUM && nid < ctx->fs->max_nid &&
	       (ctx->ni[nid].flags & FSCK_NI_NODE);
}

static uint64_t rel_of(const struct fsck_ctx *ctx, uint32_t addr)
{
	return (uint64_t)(addr - ctx->fs->main_blkaddr);
}

static void give_back(struct fsck_alloc *a, uint32_t addr)
{
	uint64_t rel = rel_of(a->ctx, addr);

	a->fin[rel >> 3] &= (uint8_t)~(1u << (rel & 7));
}

/* Node nid as the repair will write it (its copy) or as it is on disk
 * (read into buf); NULL when it cannot be read. */
static const struct f2fs_node *node_view(struct fsck_ctx *ctx, uint32_t nid, void *buf)
{
	const struct f2fs_node *c = fsck_fix_node_peek(ctx, nid);
	uint32_t addr;

	if (c)
		return c;
	addr = nat_addr_of(ctx, nid);
	if (!fsck_addr_in_main(ctx, addr) || f2fs_dev_read(ctx->fs->dev, addr, 1, buf))
		return NULL;
	return buf;
}

static struct f2fs_node *node_copy(struct fsck_ctx *ctx, uint32_t nid)
{
	return fsck_fix_node(ctx, nid, nat_addr_of(ctx, nid), NULL);
}

static bool is_inode_block(const struct f2fs_node *n)
{
	return n->footer.nid == n->footer.ino;
}

/* Whether a node offset is that of a direct node (the kernel's IS_DNODE). */
static bool dnode_offset(uint32_t ofs)
{
	const uint32_t N = NIDS_PER_BLOCK;

	if (ofs == 0 || ofs == 3 || ofs == N + 4 || ofs == 2 * N + 5 || ofs == XATTR_NODE_OFFSET)
		return false;
	if (ofs >= 2 * N + 6 && (ofs - (2 * N + 6)) % (N + 1) == 0)
		return false;
	return true;
}

/* Data slots the kernel reads in inode n. */
static uint32_t inode_slots(const struct fsck_ctx *ctx, const struct f2fs_node *n)
{
	uint32_t extra = fsck_extra_words(&n->i), ixa = fsck_inline_xattr_addrs(ctx, &n->i);

	return extra + ixa < DEF_ADDRS_PER_INODE ? DEF_ADDRS_PER_INODE - extra - ixa : 0;
}

/* The address slot ofs of node n (an inode or a direct node), as bytes
 * for get_le32()/put_le32(), or NULL. */
static uint8_t *data_slot(const struct fsck_ctx *ctx, struct f2fs_node *n, uint32_t ofs)
{
	if (is_inode_block(n))
		return ofs < inode_slots(ctx, n) ?
		       (uint8_t *)n->i.i_addr + 4 * (fsck_extra_words(&n->i) + ofs) : NULL;
	if (!dnode_offset(le32_to_cpu(n->footer.flag) >> OFFSET_BIT_SHIFT))
		return NULL;
	return ofs < ADDRS_PER_BLOCK ? (uint8_t *)n->dn.addr + 4 * ofs : NULL;
}

/* ---- recording (the check) ---- */

void fsck_fix_remap(struct fsck_ctx *ctx, uint32_t ino)
{
	struct fsck_plan *r = ctx->plan;

	if (F2FS_ARRAY_ROOM32(r->remap, r->cap_remap, r->n_remap + 1, 8)) {
		r->err = -ENOMEM;
		return;
	}
	r->remap[r->n_remap++] = ino;
}

static int queue_move(struct fsck_ctx *ctx, uint32_t old_addr, uint32_t owner, uint16_t ofs)
{
	struct fsck_plan *r = ctx->plan;

	if (F2FS_ARRAY_ROOM32(r->moves, r->cap_moves, r->n_moves + 1, 256))
		return -ENOMEM;
	r->moves[r->n_moves++] = (struct fsck_move){ .old_addr = old_addr, .owner = owner,
						     .ofs = ofs };
	return 0;
}

/* ---- free nids for new nodes ---- */

struct nid_source {
	uint32_t next;
	uint32_t *chain;	/* nids and inos the roll-forward chain names */
	uint32_t n_chain;
};

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? -1 : a > b;
}

/* Recovery re-creates the chain's inodes under their own nids and needs
 * their NAT entries free: those nids are never handed out. */
static int load_chain_nids(struct fsck_ctx *ctx, struct nid_source *s)
{
	const struct fsck_plan *plan = ctx->plan;
	struct f2fs_node n;
	int err = 0;

	s->next = F2FS_RESERVED_NODE_NUM;
	if (!plan->n_chain)
		return 0;
	s->chain = malloc((size_t)plan->n_chain * 2 * sizeof(uint32_t));
	if (!s->chain)
		return -ENOMEM;
	for (uint32_t i = 0; i < plan->n_chain && !err; i++) {
		err = f2fs_dev_read(ctx->fs->dev, plan->chain[i], 1, &n);
		s->chain[s->n_chain++] = le32_to_cpu(n.footer.nid);
		s->chain[s->n_chain++] = le32_to_cpu(n.footer.ino);
	}
	qsort(s->chain, s->n_chain, sizeof(*s->chain), cmp_u32);
	return err;
}

static bool nid_usable(struct fsck_ctx *ctx, const struct nid_source *s, uint32_t nid)
{
	struct f2fs_nat_entry e;

	if (ctx->ni[nid].flags & (FSCK_NI_NODE | FSCK_NI_QUEUED))
		return false;
	if (f2fs_nat_get(&ctx->nat, nid, &e) || e.block_addr || e.ino)
		return false;
	if (fsck_fix_node_peek(ctx, nid))
		return false;
	return !s->n_chain || !bsearch(&nid, s->chain, s->n_chain, sizeof(nid), cmp_u32);
}

/* The next free nid, or 0 when there is none. */
static uint32_t take_nid(struct fsck_ctx *ctx, struct nid_source *s)
{
	const struct f2fs_nat_model *nm = &ctx->nat;

	while (s->next < nm->max_nid) {
		uint32_t nid = s->next++, b = nid / (uint32_t)NAT_ENTRY_PER_BLOCK;

		if (nm->block_used[b] >= NAT_ENTRY_PER_BLOCK) {
			s->next = (b + 1) * (uint32_t)NAT_ENTRY_PER_BLOCK;
			continue;
		}
		if (nid_usable(ctx, s, nid))
			return nid;
	}
	return 0;
}

/* ---- the file's node tree, by direct node index ---- */

/* Where direct node k (0: i_nid[0], 1: i_nid[1], then the children of the
 * indirect nodes, then of the double indirect one) hangs: the slots from
 * the inode down and the node offsets along the way. */
struct dn_path {
	int depth;		/* nodes below the inode: 1..3 */
	uint32_t slot[3];	/* i_nid index, then nid[] indexes */
	uint32_t ofs[3];	/* node offset of each node on the path */
};

static bool dn_path_of(uint64_t k, struct dn_path *p)
{
	const uint64_t N = NIDS_PER_BLOCK;

	if (k < 2) {
		*p = (struct dn_path){ .depth = 1, .slot = { (uint32_t)k }, .ofs = { (uint32_t)k + 1 } };
		return true;
	}
	k -= 2;
	if (k < 2 * N) {
		uint32_t i = (uint32_t)(k / N), j = (uint32_t)(k % N);
		uint32_t top = i ? (uint32_t)N + 4 : 3;

		*p = (struct dn_path){ .depth = 2, .slot = { 2 + i, j }, .ofs = { top, top + 1 + j } };
		return true;
	}
	k -= 2 * N;
	if (k >= N * N)
		return false;
	{
		uint32_t i = (uint32_t)(k / N), j = (uint32_t)(k % N);
		uint32_t ind = 2 * (uint32_t)N + 6 + i * ((uint32_t)N + 1);

		*p = (struct dn_path){ .depth = 3, .slot = { 4, i, j },
				       .ofs = { 2 * (uint32_t)N + 5, ind, ind + 1 + j } };
	}
	return true;
}

/* An existing direct node of the file: its index and nid. */
struct dn_ref {
	uint64_t k;
	uint32_t nid;
};

struct dn_list {
	struct dn_ref *v;
	uint32_t n, cap;
};

static int dn_add(struct dn_list *l, uint64_t k, uint32_t nid)
{
	if (F2FS_ARRAY_ROOM32(l->v, l->cap, l->n + 1, 16))
		return -ENOMEM;
	l->v[l->n++] = (struct dn_ref){ .k = k, .nid = nid };
	return 0;
}

/* A child nid the walk accepted for this file, or 0. */
static uint32_t child_of(const struct fsck_ctx *ctx, uint32_t ino, uint32_t nid)
{
	return reached_node(ctx, nid) && ctx->plan->owner[nid] == ino ? nid : 0;
}

/* The direct nodes under indirect node nid (first index k0), in order. */
static int collect_under(struct fsck_ctx *ctx, uint32_t ino, uint32_t nid, uint64_t k0,
			 int levels, struct dn_list *l)
{
	const uint64_t N = NIDS_PER_BLOCK;
	uint8_t buf[F2FS_BLKSIZE];
	const struct f2fs_node *n = node_view(ctx, nid, buf);
	uint32_t kids[NIDS_PER_BLOCK];
	int err = 0;

	if (!n)
		return -EIO;
	for (uint32_t j = 0; j < N; j++)
		kids[j] = child_of(ctx, ino, le32_to_cpu(n->in.nid[j]));
	for (uint32_t j = 0; j < N && !err; j++) {
		if (!kids[j])
			continue;
		if (levels == 1)
			err = dn_add(l, k0 + j, kids[j]);
		else
			err = collect_under(ctx, ino, kids[j], k0 + j * N, levels - 1, l);
	}
	return err;
}

static int collect_dnodes(struct fsck_ctx *ctx, uint32_t ino, const struct f2fs_node *inode,
			  struct dn_list *l)
{
	const uint64_t N = NIDS_PER_BLOCK;
	const uint64_t first[DEF_NIDS_PER_INODE] = { 0, 1, 2, 2 + N, 2 + 2 * N };
	const int levels[DEF_NIDS_PER_INODE] = { 0, 0, 1, 1, 2 };
	int err = 0;

	for (int i = 0; i < DEF_NIDS_PER_INODE && !err; i++) {
		uint32_t nid = child_of(ctx, ino, le32_to_cpu(inode->i.i_nid[i]));

		if (!nid)
			continue;
		err = levels[i] ? collect_under(ctx, ino, nid, first[i], levels[i], l) :
				  dn_add(l, first[i], nid);
	}
	return err;
}

/* ---- building the kernel's layout ---- */

struct remap {
	struct fsck_ctx *ctx;
	uint32_t ino;
	struct f2fs_node *inode;	/* its copy */
	bool is_dir;
	uint32_t ixa;
	uint32_t area[MAX_INLINE_XATTR_SIZE];	/* the xattr area's words */
	struct nid_source *nids;
	uint32_t new_nodes, claimed, lost;
};

static void init_node(struct remap *m, struct f2fs_node *n, uint32_t nid, uint32_t ofs)
{
	memset(n, 0, sizeof(*n));
	n->footer.nid = cpu_to_le32(nid);
	n->footer.ino = cpu_to_le32(m->ino);
	n->footer.flag = cpu_to_le32(ofs << OFFSET_BIT_SHIFT | (m->is_dir ? 0 : 1u << COLD_BIT_SHIFT));
	n->footer.cp_ver = m->ctx->fs->cp->checkpoint_ver;
}

/* A new node of the file at node offset ofs; 0 when none can be had. */
static uint32_t new_node(struct remap *m, uint32_t ofs, int *err)
{
	struct fsck_ctx *ctx = m->ctx;
	uint32_t nid = take_nid(ctx, m->nids);
	struct f2fs_node *n;

	if (!nid) {
		fsck_diag(ctx, "no free node id for ino %u", m->ino);
		*err = -ENOSPC;
		return 0;
	}
	n = fsck_fix_node_new(ctx, nid);
	if (!n) {
		*err = ctx->plan->err ? ctx->plan->err : -ENOMEM;
		return 0;
	}
	init_node(m, n, nid, ofs);
	ctx->ni[nid].flags |= FSCK_NI_NODE;
	fsck_fix_owner(ctx, nid, m->ino);
	ctx->st.nodes++;
	m->new_nodes++;
	return nid;
}

/* The copy of direct node k of the file, made with its missing
 * ancestors when it does not exist; the ancestors that exist are only
 * read, and copied when a child is added to them. */
static struct f2fs_node *dnode_for(struct remap *m, uint64_t k, uint32_t *nid_out, int *err)
{
	struct fsck_ctx *ctx = m->ctx;
	uint8_t buf[F2FS_BLKSIZE];
	const struct f2fs_node *view = m->inode;
	uint32_t parent = m->ino, nid = 0;
	struct dn_path p;

	if (!dn_path_of(k, &p)) {
		*err = -EFBIG;
		return NULL;
	}
	for (int d = 0; d < p.depth; d++) {
		const uint8_t *slots = d ? (const uint8_t *)view->in.nid : (const uint8_t *)view->i.i_nid;

		nid = child_of(ctx, m->ino, get_le32(slots + 4 * p.slot[d]));
		if (!nid) {
			struct f2fs_node *pc = d ? node_copy(ctx, parent) : m->inode;

			if (!pc) {
				*err = ctx->plan->err ? ctx->plan->err : -EIO;
				return NULL;
			}
			nid = new_node(m, p.ofs[d], err);
			if (!nid)
				return NULL;
			put_le32((d ? (uint8_t *)pc->in.nid : (uint8_t *)pc->i.i_nid) + 4 * p.slot[d], nid);
		}
		if (d + 1 < p.depth) {
			view = node_view(ctx, nid, buf);
			if (!view) {
				*err = -EIO;
				return NULL;
			}
			parent = nid;
		}
	}
	*nid_out = nid;
	{
		struct f2fs_node *dn = node_copy(ctx, nid);

		if (!dn)
			*err = ctx->plan->err ? ctx->plan->err : -EIO;
		return dn;
	}
}

/* A block address that was in the xattr area, for file block fofs: kept
 * when nothing else uses it (copied out by the repair), else a hole. */
static uint32_t claim_area_block(struct remap *m, uint32_t addr)
{
	struct fsck_ctx *ctx = m->ctx;
	uint64_t rel;

	if (!fsck_addr_in_main(ctx, addr)) {
		m->lost += addr != NULL_ADDR && addr != NEW_ADDR;
		return NULL_ADDR;
	}
	rel = rel_of(ctx, addr);
	if (fsck_bit(ctx->reach, rel) || fsck_bit(ctx->nat_addr, rel) || fsck_bit(ctx->chain, rel) ||
	    fsck_bit(ctx->plan->chain_data, rel)) {
		m->lost++;
		return NULL_ADDR;
	}
	/* in use from now on: the allocator never hands it out */
	fsck_set(ctx->reach, rel);
	ctx->st.data_blocks++;
	m->claimed++;
	return addr;
}

/* Slots of direct node k in the kernel's layout, from the writer's
 * direct nodes k - 1 (its last ixa slots) and k (the others). */
static void shifted_slots(struct remap *m, uint64_t k, const uint32_t *prev, const uint32_t *cur,
			  uint32_t *out)
{
	uint32_t x = m->ixa;

	for (uint32_t j = 0; j < ADDRS_PER_BLOCK; j++) {
		uint32_t v;

		if (j < x)
			v = k == 0 ? claim_area_block(m, m->area[j]) :
			    prev ? prev[ADDRS_PER_BLOCK - x + j] : NULL_ADDR;
		else
			v = cur ? cur[j - x] : NULL_ADDR;
		out[j] = v;
	}
}

/* Put the slots into direct node k and queue the moves of its blocks. */
static int fill_dnode(struct remap *m, uint64_t k, const uint32_t *slots)
{
	struct fsck_ctx *ctx = m->ctx;
	struct f2fs_node *dn;
	uint32_t nid = 0;
	int err = 0;

	dn = dnode_for(m, k, &nid, &err);
	if (!dn)
		return err;
	for (uint32_t j = 0; j < ADDRS_PER_BLOCK && !err; j++) {
		uint32_t v = slots[j];

		if (v != NULL_ADDR && v != NEW_ADDR && !fsck_addr_in_main(ctx, v))
			v = NULL_ADDR;	/* dropped by the walk already */
		dn->dn.addr[j] = cpu_to_le32(v);
		if (v != NULL_ADDR && v != NEW_ADDR)
			err = queue_move(ctx, v, nid, (uint16_t)j);
	}
	return err;
}

/* Whether the last ixa slots of a direct node hold anything. */
static bool tail_used(const uint32_t *slots, uint32_t ixa)
{
	for (uint32_t j = ADDRS_PER_BLOCK - ixa; j < ADDRS_PER_BLOCK; j++)
		if (slots[j])
			return true;
	return false;
}

static void read_slots(const struct f2fs_node *n, uint32_t *out)
{
	for (uint32_t j = 0; j < ADDRS_PER_BLOCK; j++)
		out[j] = le32_to_cpu(n->dn.addr[j]);
}

/* Lay the direct nodes out again, in index order: node k takes the last
 * ixa slots of the writer's node k - 1 and the first ones of its node k. */
static int shift_dnodes(struct remap *m, const struct dn_list *l)
{
	uint32_t *prev = malloc(3 * ADDRS_PER_BLOCK * sizeof(uint32_t));
	uint32_t *cur = prev + ADDRS_PER_BLOCK, *out = cur + ADDRS_PER_BLOCK;
	uint8_t buf[F2FS_BLKSIZE];
	bool have_prev = false, area_used = false;
	uint64_t prev_k = 0;
	int err = 0;

	if (!prev)
		return -ENOMEM;
	for (uint32_t j = 0; j < m->ixa; j++)
		area_used |= m->area[j] != 0;
	if (area_used && (!l->n || l->v[0].k != 0)) {
		shifted_slots(m, 0, NULL, NULL, out);
		err = fill_dnode(m, 0, out);
	}
	for (uint32_t i = 0; i < l->n && !err; i++) {
		uint64_t k = l->v[i].k;
		const struct f2fs_node *n = node_view(m->ctx, l->v[i].nid, buf);
		bool adjacent = have_prev && prev_k + 1 == k;

		if (!n) {
			err = -EIO;
			break;
		}
		read_slots(n, cur);
		/* the writer's node before this one spills into a node of its own */
		if (have_prev && !adjacent && tail_used(prev, m->ixa)) {
			shifted_slots(m, prev_k + 1, prev, NULL, out);
			err = fill_dnode(m, prev_k + 1, out);
		}
		if (!err) {
			shifted_slots(m, k, adjacent ? prev : NULL, cur, out);
			err = fill_dnode(m, k, out);
		}
		memcpy(prev, cur, ADDRS_PER_BLOCK * sizeof(uint32_t));
		have_prev = true;
		prev_k = k;
	}
	if (!err && have_prev && tail_used(prev, m->ixa)) {
		shifted_slots(m, prev_k + 1, prev, NULL, out);
		err = fill_dnode(m, prev_k + 1, out);
	}
	free(prev);
	return err;
}

static int remap_inode(struct fsck_ctx *ctx, uint32_t ino, struct nid_source *nids,
		       uint64_t *claimed)
{
	struct remap m = { .ctx = ctx, .ino = ino, .nids = nids };
	struct dn_list l = { 0 };
	uint32_t extra;
	int err;

	if (!(ctx->ni[ino].flags & FSCK_NI_INODE))
		return 0;	/* dropped by another fix */
	m.inode = node_copy(ctx, ino);
	if (!m.inode)
		return ctx->plan->err ? ctx->plan->err : -EIO;
	extra = fsck_extra_words(&m.inode->i);
	m.ixa = fsck_inline_xattr_addrs(ctx, &m.inode->i);
	m.is_dir = S_ISDIR(le16_to_cpu(m.inode->i.i_mode));
	if (!m.ixa || m.ixa >= ADDRS_PER_BLOCK || extra + m.ixa >= DEF_ADDRS_PER_INODE)
		return 0;
	for (uint32_t j = 0; j < m.ixa; j++)
		m.area[j] = get_le32((const uint8_t *)m.inode->i.i_addr +
				     4 * (DEF_ADDRS_PER_INODE - m.ixa + j));
	err = collect_dnodes(ctx, ino, m.inode, &l);
	if (!err)
		err = shift_dnodes(&m, &l);
	free(l.v);
	if (err)
		return err;
	memset((uint8_t *)m.inode->i.i_addr + 4 * (DEF_ADDRS_PER_INODE - m.ixa), 0, 4 * m.ixa);
	memset(&m.inode->i.i_ext, 0, sizeof(m.inode->i.i_ext));
	m.inode->i.i_blocks = cpu_to_le64(le64_to_cpu(m.inode->i.i_blocks) + m.claimed + m.new_nodes);
	if (m.lost)
		fsck_diag(ctx, "ino %u: %u addresses of the inline xattr area name blocks in use "
			  "elsewhere: holes", ino, m.lost);
	*claimed += m.claimed;
	return 0;
}

int fsck_relocate_remap(struct fsck_ctx *ctx)
{
	struct fsck_plan *plan = ctx->plan;
	struct nid_source nids = { 0 };
	uint64_t claimed = 0;
	int err;

	if (!plan || !plan->n_remap)
		return 0;
	err = load_chain_nids(ctx, &nids);
	for (uint32_t i = 0; i < plan->n_remap && !err; i++)
		err = remap_inode(ctx, plan->remap[i], &nids, &claimed);
	free(nids.chain);
	if (!err)
		fsck_diag(ctx, "%s%u files laid out as the kernel reads them: %llu block addresses moved "
			  "out of their inline xattr areas", ctx->opt.dry_run ? "--dry-run: " : "",
			  plan->n_remap, (unsigned long long)claimed);
	return err;
}

/* ---- moving data blocks ---- */

struct mover {
	struct fsck_ctx *ctx;
	struct fsck_alloc *a;
	struct fsck_move q[MOVE_BATCH];
	uint32_t new_addr[MOVE_BATCH];
	struct f2fs_io_vec vec[MOVE_BATCH];
	uint32_t n;
	uint8_t *buf;
	uint64_t moved;		/* data blocks copied */
	uint64_t nodes;		/* node blocks sent out of place */
};

static int repoint(struct fsck_ctx *ctx, const struct fsck_move *mv, uint32_t addr)
{
	struct f2fs_node *n = node_copy(ctx, mv->owner);
	uint8_t *slot;

	if (!n)
		return ctx->plan->err ? ctx->plan->err : -EIO;
	slot = data_slot(ctx, n, mv->ofs);
	if (!slot || get_le32(slot) != mv->old_addr)
		return -EFSCORRUPTED;
	put_le32(slot, addr);
	return 0;
}

/* Write buffered blocks [i, j) whose new addresses follow each other. */
static int write_run(struct mover *mv, uint32_t i, uint32_t j)
{
	return f2fs_dev_write(mv->ctx->fs->dev, mv->new_addr[i], j - i,
			      mv->buf + (size_t)i * F2FS_BLKSIZE);
}

static int mover_flush(struct mover *mv)
{
	struct fsck_ctx *ctx = mv->ctx;
	uint32_t start = 0;
	int err;

	if (!mv->n)
		return 0;
	for (uint32_t i = 0; i < mv->n; i++)
		mv->vec[i] = (struct f2fs_io_vec){ .blkaddr = mv->q[i].old_addr, .nblocks = 1,
						   .buf = mv->buf + (size_t)i * F2FS_BLKSIZE };
	err = f2fs_dev_read_batch(ctx->fs->dev, mv->vec, mv->n);
	for (uint32_t i = 0; i < mv->n && !err; i++)
		err = fsck_alloc_block(mv->a, MOVE_LOG, mv->q[i].owner, mv->q[i].ofs,
				       nat_version_of(ctx, mv->q[i].owner), &mv->new_addr[i]);
	for (uint32_t i = 1; i <= mv->n && !err; i++) {
		if (i < mv->n && mv->new_addr[i] == mv->new_addr[i - 1] + 1)
			continue;
		err = write_run(mv, start, i);
		start = i;
	}
	for (uint32_t i = 0; i < mv->n && !err; i++) {
		err = repoint(ctx, &mv->q[i], mv->new_addr[i]);
		give_back(mv->a, mv->q[i].old_addr);
		mv->moved++;
	}
	mv->n = 0;
	return err;
}

static int mover_add(struct mover *mv, const struct fsck_move *m)
{
	mv->q[mv->n++] = *m;
	return mv->n == MOVE_BATCH ? mover_flush(mv) : 0;
}

static int run_queued_moves(struct mover *mv)
{
	const struct fsck_plan *plan = mv->ctx->plan;
	int err = 0;

	for (uint32_t i = 0; i < plan->n_moves && !err; i++)
		err = mover_add(mv, &plan->moves[i]);
	if (!err)
		err = mover_flush(mv);
	return err;
}

/* ---- sections of mixed classes ---- */

struct section_scan {
	uint32_t secno, first, nsegs;
	uint8_t *cls;		/* per block of the section: CLS_* */
	uint8_t *seg;		/* one segment's blocks, as read */
	uint32_t count[3];	/* blocks per class */
	uint8_t keep;		/* the class that stays */
};

static bool segment_in_use(const struct fsck_alloc *a, uint32_t segno)
{
	const uint8_t *f = a->fin + (size_t)segno * (BLKS_PER_SEG / 8);

	for (uint32_t i = 0; i < BLKS_PER_SEG / 8; i++)
		if (f[i])
			return true;
	return false;
}

/* The classes of blocks a section holds, from what the walk saw. */
static uint8_t section_kinds(const struct fsck_alloc *a, uint32_t secno)
{
	const struct fsck_ctx *ctx = a->ctx;
	uint32_t spp = ctx->fs->segs_per_sec;
	uint8_t k = 0;

	for (uint32_t s = secno * spp; s < (secno + 1) * spp; s++)
		if (segment_in_use(a, s))
			k |= ctx->seg_kind[s] & 3;
	return k;
}

/* Whether the block at addr (as read) is a node the walk accepted there. */
static bool block_is_node(const struct fsck_ctx *ctx, uint32_t addr, const struct f2fs_node *n)
{
	uint32_t nid = le32_to_cpu(n->footer.nid);

	return reached_node(ctx, nid) && nat_addr_of(ctx, nid) == addr;
}

static int read_segment(struct fsck_ctx *ctx, uint32_t segno, uint8_t *buf)
{
	return f2fs_dev_read(ctx->fs->dev, f2fs_seg_start_blkaddr(ctx->fs, segno), BLKS_PER_SEG, buf);
}

static int classify_section(struct fsck_alloc *a, struct section_scan *sc)
{
	struct fsck_ctx *ctx = a->ctx;
	int err = 0;

	memset(sc->count, 0, sizeof(sc->count));
	for (uint32_t i = 0; i < sc->nsegs && !err; i++) {
		uint32_t s = sc->first + i, base = f2fs_seg_start_blkaddr(ctx->fs, s);
		uint8_t kind = ctx->seg_kind[s] & 3, *cls = sc->cls + (size_t)i * BLKS_PER_SEG;
		bool loaded = false;

		for (uint32_t k = 0; k < BLKS_PER_SEG && !err; k++) {
			if (!fsck_bit(a->fin, (uint64_t)s * BLKS_PER_SEG + k)) {
				cls[k] = CLS_NONE;
				continue;
			}
			if (kind == CLS_DATA || kind == CLS_NODE) {
				cls[k] = kind;
			} else {
				if (!loaded)
					err = read_segment(ctx, s, sc->seg);
				loaded = true;
				cls[k] = block_is_node(ctx, base + k, (const void *)(sc->seg +
						       (size_t)k * F2FS_BLKSIZE)) ? CLS_NODE : CLS_DATA;
			}
			sc->count[cls[k]]++;
		}
	}
	return err;
}

static uint8_t log_class(int t)
{
	return t >= CURSEG_HOT_NODE ? CLS_NODE : CLS_DATA;
}

/* Logs of the current checkpoint still open in the section. */
static bool log_in_section(const struct fsck_alloc *a, int t, uint32_t secno)
{
	return !a->log[t].moved && a->log[t].segno / a->ctx->fs->segs_per_sec == secno;
}

static uint8_t class_to_keep(const struct fsck_alloc *a, const struct section_scan *sc)
{
	if (sc->count[CLS_NODE] != sc->count[CLS_DATA])
		return sc->count[CLS_NODE] > sc->count[CLS_DATA] ? CLS_NODE : CLS_DATA;
	for (int t = 0; t < NR_CURSEG_TYPE; t++)
		if (log_in_section(a, t, sc->secno))
			return log_class(t);
	return CLS_DATA;
}

/* The summary of segno: the checkpoint's for a current segment. */
static int summary_of(struct fsck_ctx *ctx, uint32_t segno, struct f2fs_summary_block *sum)
{
	const struct f2fs_fs *fs = ctx->fs;

	for (int t = 0; t < NR_CURSEG_TYPE; t++)
		if (fs->curseg_segno[t] == segno) {
			*sum = fs->cursum[t];
			return 0;
		}
	return f2fs_dev_read(ctx->fs->dev, (uint64_t)fs->ssa_blkaddr + segno, 1, sum);
}

/* Drop the owner inode's i_ext if it covers addr (the kernel refuses an
 * extent over blocks that are not valid). */
static int drop_extent_over(struct fsck_ctx *ctx, uint32_t owner, uint32_t addr)
{
	uint8_t buf[F2FS_BLKSIZE];
	const struct f2fs_node *n;
	uint32_t ino = ctx->plan->owner[owner] ? ctx->plan->owner[owner] : owner;
	uint32_t blk, len;

	n = node_view(ctx, ino, buf);
	if (!n || !is_inode_block(n))
		return 0;
	blk = le32_to_cpu(n->i.i_ext.blk);
	len = le32_to_cpu(n->i.i_ext.len);
	if (!len || addr < blk || addr - blk >= len)
		return 0;
	{
		struct f2fs_node *c = fsck_fix_node(ctx, ino, nat_addr_of(ctx, ino),
						    n == (const void *)buf ? buf : NULL);

		if (!c)
			return ctx->plan->err ? ctx->plan->err : -EIO;
		memset(&c->i.i_ext, 0, sizeof(c->i.i_ext));
	}
	return 0;
}

/* The owner of data block addr from its summary, checked against the
 * owner's slot; false when it cannot be established. */
static bool data_owner(struct fsck_ctx *ctx, uint32_t addr, const struct f2fs_summary *e,
		       struct fsck_move *m)
{
	uint8_t buf[F2FS_BLKSIZE];
	const struct f2fs_node *n;
	uint32_t owner = le32_to_cpu(e->nid);
	const uint8_t *slot;

	if (!reached_node(ctx, owner))
		return false;
	n = node_view(ctx, owner, buf);
	if (!n || le32_to_cpu(n->footer.nid) != owner)
		return false;
	slot = data_slot(ctx, (struct f2fs_node *)n, le16_to_cpu(e->ofs_in_node));
	if (!slot || get_le32(slot) != addr)
		return false;
	*m = (struct fsck_move){ .old_addr = addr, .owner = owner, .ofs = le16_to_cpu(e->ofs_in_node) };
	return true;
}

static int move_data_out(struct mover *mv, uint32_t addr, const struct f2fs_summary *e)
{
	struct fsck_ctx *ctx = mv->ctx;
	struct fsck_move m;
	int err;

	if (fsck_fix_data_peek(ctx, addr))
		return 0;	/* rewritten out of place anyway */
	if (!data_owner(ctx, addr, e, &m)) {
		fsck_diag(ctx, "block %u: no owner found through its summary; not moved", addr);
		return -EAGAIN;
	}
	err = drop_extent_over(ctx, m.owner, addr);
	return err ? err : mover_add(mv, &m);
}

static int move_node_out(struct mover *mv, uint32_t addr, const struct f2fs_node *blk)
{
	struct fsck_ctx *ctx = mv->ctx;
	uint32_t nid = le32_to_cpu(blk->footer.nid);

	if (!block_is_node(ctx, addr, blk)) {
		fsck_diag(ctx, "block %u: not the node its footer names; not moved", addr);
		return -EAGAIN;
	}
	mv->nodes++;
	if (fsck_fix_node_peek(ctx, nid))
		return 0;	/* written out of place anyway */
	return fsck_fix_node(ctx, nid, addr, blk) ? 0 : (ctx->plan->err ? ctx->plan->err : -ENOMEM);
}

/* Move the blocks of segment i of the section that are not of the kept
 * class (all of them when all is set). */
static int evacuate_segment(struct mover *mv, struct section_scan *sc, uint32_t i, bool all)
{
	struct fsck_ctx *ctx = mv->ctx;
	uint32_t s = sc->first + i, base = f2fs_seg_start_blkaddr(ctx->fs, s);
	const uint8_t *cls = sc->cls + (size_t)i * BLKS_PER_SEG;
	struct f2fs_summary_block sum;
	bool any = false;
	int err = 0;

	for (uint32_t k = 0; k < BLKS_PER_SEG; k++)
		any |= cls[k] != CLS_NONE && (all || cls[k] != sc->keep);
	if (!any)
		return 0;
	err = read_segment(ctx, s, sc->seg);
	if (!err)
		err = summary_of(ctx, s, &sum);
	for (uint32_t k = 0; k < BLKS_PER_SEG && !err; k++) {
		if (cls[k] == CLS_NONE || (!all && cls[k] == sc->keep))
			continue;
		if (cls[k] == CLS_NODE)
			err = move_node_out(mv, base + k, (const void *)(sc->seg + (size_t)k * F2FS_BLKSIZE));
		else
			err = move_data_out(mv, base + k, &sum.entries[k]);
	}
	return err;
}

/* A segment that keeps blocks of both classes' past: its summary footer
 * names the kept class.  The current segments' summaries are the pack's. */
static int set_footer(struct fsck_ctx *ctx, uint32_t segno, uint8_t keep)
{
	struct f2fs_summary_block sum;
	uint8_t want = keep == CLS_NODE ? SUM_TYPE_NODE : SUM_TYPE_DATA;
	int err;

	for (int t = 0; t < NR_CURSEG_TYPE; t++)
		if (ctx->fs->curseg_segno[t] == segno)
			return 0;
	err = f2fs_dev_read(ctx->fs->dev, (uint64_t)ctx->fs->ssa_blkaddr + segno, 1, &sum);
	if (err || sum.footer.entry_type == want)
		return err;
	sum.footer.entry_type = want;
	return f2fs_dev_write(ctx->fs->dev, (uint64_t)ctx->fs->ssa_blkaddr + segno, 1, &sum);
}

/* The section holds one class from now on: every segment says so. */
static int settle_section(struct fsck_ctx *ctx, const struct section_scan *sc)
{
	int err = 0;

	for (uint32_t i = 0; i < sc->nsegs && !err; i++) {
		uint32_t s = sc->first + i;

		if ((ctx->seg_kind[s] & 3) == 3)
			err = set_footer(ctx, s, sc->keep);
		ctx->seg_kind[s] = (uint8_t)((ctx->seg_kind[s] & ~3u) | sc->keep);
	}
	return err;
}

/* Returns 1 when blocks or logs moved out of the section, 0 when it was
 * of one class already, or a negative errno (-EAGAIN: left as it was). */
static int relocate_section(struct mover *mv, struct section_scan *sc, uint32_t *moved_logs)
{
	struct fsck_alloc *a = mv->a;
	bool evacuate_all[NR_CURSEG_TYPE] = { false }, any_log = false;
	int err;

	err = classify_section(a, sc);
	if (err || (!sc->count[CLS_NODE] && !sc->count[CLS_DATA]))
		return err;
	sc->keep = class_to_keep(a, sc);
	for (int t = 0; t < NR_CURSEG_TYPE; t++) {
		evacuate_all[t] = log_in_section(a, t, sc->secno) && log_class(t) != sc->keep;
		any_log |= evacuate_all[t];
	}
	if (!any_log && (!sc->count[CLS_NODE] || !sc->count[CLS_DATA]))
		return settle_section(mv->ctx, sc);
	for (uint32_t i = 0; i < sc->nsegs && !err; i++) {
		bool all = false;

		for (int t = 0; t < NR_CURSEG_TYPE; t++)
			all |= evacuate_all[t] && a->log[t].segno == sc->first + i;
		err = evacuate_segment(mv, sc, i, all);
	}
	/* a log of the class that leaves goes on in a fresh section */
	for (int t = 0; t < NR_CURSEG_TYPE && !err; t++) {
		if (!evacuate_all[t])
			continue;
		err = fsck_alloc_move(a, t);
		(*moved_logs)++;
	}
	if (!err)
		err = mover_flush(mv);
	if (!err)
		err = settle_section(mv->ctx, sc);
	return err ? err : 1;
}

/* Whether a log of the checkpoint other than of class cls is open in the
 * section: the kernel would go on writing the other class there. */
static bool foreign_log(const struct fsck_alloc *a, uint32_t secno, uint8_t cls)
{
	for (int t = 0; t < NR_CURSEG_TYPE; t++)
		if (log_in_section(a, t, secno) && log_class(t) != cls)
			return true;
	return false;
}

/* A section whose blocks are all of class cls: its empty segments up to
 * the last one in use take the class too (the GC may start at any of
 * them; fsck_repair.c types them from ctx->seg_kind). */
static void settle_types(const struct fsck_alloc *a, uint32_t secno, uint8_t cls)
{
	struct fsck_ctx *ctx = a->ctx;
	uint32_t spp = ctx->fs->segs_per_sec, first = secno * spp, end = first;

	for (uint32_t s = first; s < first + spp; s++)
		if (segment_in_use(a, s))
			end = s + 1;
	for (uint32_t s = first; s < end; s++)
		if (!(ctx->seg_kind[s] & 3))
			ctx->seg_kind[s] |= cls;
}

static bool code_reported(const struct fsck_ctx *ctx, enum fsck_problem code)
{
	int i = fsck_problem_index(code);

	return i >= 0 && ctx->code_count[i];
}

static int relocate_sections(struct mover *mv, uint32_t *n_secs, uint32_t *moved_logs)
{
	struct fsck_ctx *ctx = mv->ctx;
	uint32_t spp = ctx->fs->segs_per_sec;
	struct section_scan sc = { .nsegs = spp };
	int err = 0;

	if (!code_reported(ctx, PR_SEC_TYPE_MIX) && !code_reported(ctx, PR_SEG_TYPE_CLASS))
		return 0;
	sc.cls = malloc((size_t)spp * BLKS_PER_SEG);
	sc.seg = f2fs_blocks_alloc(BLKS_PER_SEG);
	if (!sc.cls || !sc.seg)
		err = -ENOMEM;
	for (uint32_t secno = 0; secno < ctx->fs->main_secs && !err; secno++) {
		uint8_t k = section_kinds(mv->a, secno);

		if (k == CLS_NONE)
			continue;
		if (k != (CLS_DATA | CLS_NODE) && !foreign_log(mv->a, secno, k)) {
			settle_types(mv->a, secno, k);
			continue;
		}
		sc.secno = secno;
		sc.first = secno * spp;
		err = relocate_section(mv, &sc, moved_logs);
		if (err == -EAGAIN) {
			fsck_diag(ctx, "section %u keeps blocks of both classes", secno);
			err = mover_flush(mv);
			continue;
		}
		if (err > 0) {
			(*n_secs)++;
			err = 0;
		}
	}
	free(sc.cls);
	free(sc.seg);
	return err;
}

int fsck_relocate_apply(struct fsck_ctx *ctx, struct fsck_alloc *a)
{
	struct mover mv = { .ctx = ctx, .a = a };
	uint32_t n_secs = 0, moved_logs = 0;
	uint64_t queued;
	int err;

	if (!ctx->plan->n_moves && !code_reported(ctx, PR_SEC_TYPE_MIX) &&
	    !code_reported(ctx, PR_SEG_TYPE_CLASS))
		return 0;
	mv.buf = f2fs_blocks_alloc(MOVE_BATCH);
	if (!mv.buf)
		return -ENOMEM;
	err = run_queued_moves(&mv);
	queued = mv.moved;
	if (!err)
		err = relocate_sections(&mv, &n_secs, &moved_logs);
	free(mv.buf);
	if (queued)
		fsck_diag(ctx, "%s%llu data blocks copied to their place in the kernel's block map",
			  ctx->opt.dry_run ? "--dry-run: " : "", (unsigned long long)queued);
	if (n_secs)
		fsck_diag(ctx, "%s%u sections of mixed node and data blocks made one class: %llu node "
			  "and %llu data blocks moved out, %u logs moved", ctx->opt.dry_run ? "--dry-run: " : "",
			  n_secs,
			  (unsigned long long)mv.nodes, (unsigned long long)(mv.moved - queued), moved_logs);
	return err;
}
