/*
 * fsck_shared.c - data blocks that two slots name.
 *
 * The walk gives a data block to the first slot that names it.  When
 * another slot names it too, the block's summary entry says whose it is:
 * the slot it names (nid of the node holding the slot, ofs_in_node, and
 * that nid's NAT version), as for the kernel's GC and roll-forward.  When
 * that is the later slot, the first one loses the block and its queued
 * summary check passes to the owner (fsck_pass_ssa.c keeps disagreeing
 * data entries queued until the walk is over, so it is still there).
 *
 * A slot that loses stays counted in its file's i_blocks, since it can
 * usually have its own block back: after the walk, one scan of the
 * summaries of the data segments (and of the data logs in the
 * checkpoint) looks for blocks whose entry names a losing slot.  Such a
 * block is the slot's own when nothing else uses it (not reached, not
 * the block of a NAT entry, not in the roll-forward chain), it lies in a
 * segment that may hold data and, when SIT no longer has it valid, not
 * where a log writes next and not in a section of node segments.  One
 * block valid in SIT, else one that is not: the slot points to it again
 * and the file reads as before the damage.  None, or more than one: the
 * slot becomes a hole and the file loses the block from i_blocks (when
 * the repair is applied, before the quota rebuild, which then sees it).
 * An i_ext that names the lost block is cleared with the change.
 *
 * Directories and quota files do not wait: their blocks' contents were
 * read as they were walked, so a slot of theirs that loses is dropped at
 * once, and one of their slots that claimed a block first keeps it.  A
 * directory slot that cannot keep the block it names (another file's
 * block, or a node's) is first pointed back at its own dentry block when
 * one scan of the summaries finds exactly one block naming that slot,
 * valid in SIT, used by nothing else and shaped as a dentry block.
 *
 * A direct node of a regular file whose block no longer holds it (zeroed,
 * or overwritten: its footer names another nid) is rebuilt by the same
 * scan: each data block it mapped still has the summary entry naming the
 * node's nid, the slot and the nid's NAT version.  A block valid in SIT
 * that nothing else uses, and the only one found for its slot, goes back
 * in the slot; a slot without one stays a hole.  The node keeps its nid
 * (the summaries stay right) and is written out of place with the
 * repair; the file's i_blocks and its quota charge take back what it
 * maps.  Compressed files are left out (their slots also hold
 * COMPRESS_ADDR and NEW_ADDR, which no summary records).
 *
 * An indirect or double-indirect node whose block no longer holds it (or
 * whose NAT entry is lost, with no block to take it back from) is
 * rebuilt at once, while its inode is walked: the nodes it pointed at
 * usually still exist, each with a footer naming the inode and its node
 * offset, which gives its slot.  Only nodes the walk has not reached,
 * whose NAT entry names the inode and whose footer names their own nid,
 * the inode and an offset under the lost node are taken; a slot two of
 * them claim stays empty.  The walk then goes down the rebuilt node as
 * down any other, so every child is checked and counted as usual.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs_array.h"
#include "f2fs_err.h"
#include "fsck_walk.h"

/* ---- who owns a block ---- */

static bool summary_names(const struct fsck_ctx *ctx, const struct f2fs_summary *s,
			  uint32_t nid, uint32_t ofs_in_node)
{
	struct f2fs_nat_entry e;

	return le32_to_cpu(s->nid) == nid && le16_to_cpu(s->ofs_in_node) == ofs_in_node &&
	       fsck_nat_lookup(ctx, nid, &e) && e.version == s->version;
}

/* The inode whose tree node nid is in. */
static uint32_t owner_of(const struct fsck_ctx *ctx, uint32_t nid)
{
	struct f2fs_nat_entry e;

	if (ctx->ni[nid].flags & FSCK_NI_INODE)
		return nid;
	if (ctx->plan->owner[nid])
		return ctx->plan->owner[nid];
	return fsck_nat_lookup(ctx, nid, &e) ? le32_to_cpu(e.ino) : 0;
}

/* Whether the file of inode ino may wait for a block of its own: not a
 * directory or quota file, whose blocks were read as they were walked. */
static bool may_wait(const struct fsck_ctx *ctx, uint32_t ino)
{
	uint8_t flags;

	if (ino < F2FS_RESERVED_NODE_NUM || ino >= ctx->fs->max_nid)
		return false;
	flags = ctx->ni[ino].flags;
	return (flags & FSCK_NI_INODE) && !(flags & (FSCK_NI_DIR | FSCK_NI_QUOTA));
}

static int add_loser(struct fsck_walk *w, uint32_t addr, uint32_t nid, uint32_t ino,
		     uint32_t ofs_in_node, bool first)
{
	struct fsck_loser *l;

	if (F2FS_ARRAY_ROOM32(w->losers, w->cap_losers, w->n_losers + 1, 16))
		return -ENOMEM;
	l = &w->losers[w->n_losers++];
	memset(l, 0, sizeof(*l));
	l->addr = addr;
	l->nid = nid;
	l->ino = ino;
	l->ofs = (uint16_t)ofs_in_node;
	l->first = first;
	return 0;
}

enum fsck_share fsck_shared_claim(struct fsck_walk *w, uint32_t nid, uint32_t ofs_in_node,
				  uint64_t fofs, uint32_t addr)
{
	struct fsck_ctx *ctx = w->ctx;
	struct fsck_ssa_ent *first = fsck_ssa_queued(ctx, addr);
	struct f2fs_summary sum;

	if (first && !first->is_node && fsck_ssa_lookup(ctx, addr, &sum) &&
	    summary_names(ctx, &sum, nid, ofs_in_node) &&
	    may_wait(ctx, owner_of(ctx, first->nid))) {
		/* the block is this slot's: the first claim hands it over */
		if (add_loser(w, addr, first->nid, owner_of(ctx, first->nid), first->ofs_in_node,
			      true)) {
			w->err = -ENOMEM;
			return FSCK_SHARE_DROP;
		}
		first->nid = nid;
		first->ofs_in_node = (uint16_t)ofs_in_node;
		return FSCK_SHARE_WON;
	}
	fsck_problem(ctx, PR_DATA_DUP, FSCK_OBJ(.ino = w->file.ino, .blkaddr = addr, .idx = fofs));
	if (!may_wait(ctx, w->file.ino))
		return FSCK_SHARE_DROP;
	if (add_loser(w, addr, nid, w->file.ino, ofs_in_node, false)) {
		w->err = -ENOMEM;
		return FSCK_SHARE_DROP;
	}
	return FSCK_SHARE_LOST;
}

/* ---- finding a losing slot's own block ---- */

static int cmp_loser(const void *a, const void *b)
{
	const struct fsck_loser *x = a, *y = b;

	if (x->nid != y->nid)
		return x->nid < y->nid ? -1 : 1;
	return x->ofs < y->ofs ? -1 : x->ofs > y->ofs;
}

static struct fsck_loser *find_loser(struct fsck_walk *w, uint32_t nid, uint32_t ofs_in_node)
{
	struct fsck_loser key = { .nid = nid, .ofs = (uint16_t)ofs_in_node };

	if (ofs_in_node > UINT16_MAX)
		return NULL;
	return bsearch(&key, w->losers, w->n_losers, sizeof(*w->losers), cmp_loser);
}

static bool is_node_type(uint8_t t)
{
	return t >= CURSEG_HOT_NODE && t <= CURSEG_COLD_NODE;
}

/* Whether a block that SIT no longer has valid may be taken in segno: its
 * section holds no node segment and no node log. */
static bool section_takes_data(const struct fsck_ctx *ctx, uint32_t segno)
{
	uint32_t spp = ctx->fs->segs_per_sec, secno = segno / spp;

	for (uint32_t s = secno * spp; s < (secno + 1) * spp; s++)
		if (ctx->sit.segs[s].valid_blocks && is_node_type(ctx->sit.segs[s].type))
			return false;
	for (int t = CURSEG_HOT_NODE; t < NR_CURSEG_TYPE; t++)
		if (ctx->fs->curseg_segno[t] / spp == secno)
			return false;
	return true;
}

/* Whether nothing of the current state uses block addr. */
static bool block_unused(const struct fsck_ctx *ctx, uint32_t addr)
{
	uint64_t rel = addr - ctx->fs->main_blkaddr;

	return !fsck_bit(ctx->reach, rel) && !fsck_bit(ctx->nat_addr, rel) &&
	       !fsck_bit(ctx->chain, rel) && !fsck_bit(ctx->plan->chain_data, rel);
}

/* ---- direct nodes rebuilt from the summaries ---- */

void fsck_shared_lost_dnode(struct fsck_walk *w, const struct fsck_node_ref *r)
{
	struct fsck_ctx *ctx = w->ctx;
	const struct fsck_file *f = &w->file;
	struct fsck_lost_dnode *l;

	if (!S_ISREG(f->mode) || f->compressed || w->qtype ||
	    f->addrs_per_block != ADDRS_PER_BLOCK || r->nid >= ctx->fs->max_nid)
		return;
	if (F2FS_ARRAY_ROOM32(w->lost, w->cap_lost, w->n_lost + 1, 4)) {
		w->err = -ENOMEM;
		return;
	}
	l = calloc(1, sizeof(*l));
	if (!l) {
		w->err = -ENOMEM;
		return;
	}
	l->nid = r->nid;
	l->ino = f->ino;
	l->ofs = r->ofs;
	l->ref = *r;
	w->lost[w->n_lost++] = l;
}

static struct fsck_lost_dnode *find_lost(struct fsck_walk *w, uint32_t nid)
{
	for (uint32_t i = 0; i < w->n_lost; i++)
		if (w->lost[i]->nid == nid)
			return w->lost[i];
	return NULL;
}

static void note_lost_block(struct fsck_walk *w, uint32_t addr, const struct f2fs_summary *s)
{
	struct fsck_ctx *ctx = w->ctx;
	uint32_t nid = le32_to_cpu(s->nid), ofs = le16_to_cpu(s->ofs_in_node);
	struct fsck_lost_dnode *l = find_lost(w, nid);

	if (!l || ofs >= ADDRS_PER_BLOCK || !summary_names(ctx, s, nid, ofs) ||
	    !fsck_sit_valid(ctx, addr) || !block_unused(ctx, addr))
		return;
	l->addr[ofs] = addr;
	if (l->found[ofs] < UINT8_MAX)
		l->found[ofs]++;
}

/* The reference the walk dropped points at the node again. */
static bool relink_lost(struct fsck_ctx *ctx, const struct fsck_lost_dnode *l)
{
	const struct fsck_node_ref *r = &l->ref;
	struct f2fs_node *p = fsck_fix_node_peek(ctx, r->parent_nid);

	if (!p)
		return false;
	if (r->parent_is_inode)
		p->i.i_nid[r->parent_slot % DEF_NIDS_PER_INODE] = cpu_to_le32(l->nid);
	else
		p->in.nid[r->parent_slot % NIDS_PER_BLOCK] = cpu_to_le32(l->nid);
	return true;
}

static void rebuild_lost(struct fsck_walk *w, const struct fsck_lost_dnode *l)
{
	struct fsck_ctx *ctx = w->ctx;
	struct f2fs_nat_entry e;
	struct f2fs_node *n, *inode;
	uint32_t blocks = 0;

	for (uint32_t i = 0; i < ADDRS_PER_BLOCK; i++)
		blocks += l->found[i] == 1 && block_unused(ctx, l->addr[i]);
	if (!blocks || (ctx->ni[l->nid].flags & FSCK_NI_NODE) || fsck_fix_node_peek(ctx, l->nid) ||
	    !fsck_nat_lookup(ctx, l->ino, &e))
		return;
	inode = fsck_fix_node(ctx, l->ino, le32_to_cpu(e.block_addr), NULL);
	if (!inode || !relink_lost(ctx, l) || !(n = fsck_fix_node_new(ctx, l->nid)))
		return;
	n->footer.nid = cpu_to_le32(l->nid);
	n->footer.ino = cpu_to_le32(l->ino);
	n->footer.flag = cpu_to_le32(l->ofs << OFFSET_BIT_SHIFT | 1u << COLD_BIT_SHIFT);
	n->footer.cp_ver = ctx->fs->cp->checkpoint_ver;
	blocks = 0;
	for (uint32_t i = 0; i < ADDRS_PER_BLOCK; i++) {
		uint32_t addr = l->addr[i];
		uint64_t rel = addr - ctx->fs->main_blkaddr;

		if (l->found[i] != 1 || !block_unused(ctx, addr))
			continue;
		n->dn.addr[i] = cpu_to_le32(addr);
		fsck_set(ctx->reach, rel);
		ctx->seg_kind[rel / BLKS_PER_SEG] |= 1;
		ctx->st.data_blocks++;
		if (fsck_expect_summary(ctx, addr, l->nid, i, false))
			w->err = -ENOMEM;
		blocks++;
	}
	ctx->ni[l->nid].flags |= FSCK_NI_NODE;
	fsck_fix_owner(ctx, l->nid, l->ino);
	ctx->st.nodes++;
	inode->i.i_blocks = cpu_to_le64(le64_to_cpu(inode->i.i_blocks) + 1 + blocks);
	fsck_quota_charge_blocks(ctx, l->ino, &inode->i, 1 + (uint64_t)blocks);
	fsck_debug(ctx, 1, "ino %u: direct node %u rebuilt from the summaries of %u blocks",
		   l->ino, l->nid, blocks);
}

/* ---- indirect nodes rebuilt from their children's footers ---- */

/* The slot, under a node of kind at node offset pofs, of the node at
 * offset ofs (format notes §7.3), or -1 when it is not its child. */
static int64_t child_slot(uint8_t kind, uint32_t pofs, uint32_t ofs)
{
	const uint32_t N = NIDS_PER_BLOCK;
	uint32_t d;

	if (ofs <= pofs)
		return -1;
	d = ofs - pofs - 1;
	if (kind == NODE_INDIRECT)
		return d < N ? (int64_t)d : -1;
	return d % (N + 1) == 0 && d / (N + 1) < N ? (int64_t)(d / (N + 1)) : -1;
}

/* Whether nid may be a child of the lost node r of inode ino: not
 * reached, its NAT entry names ino and a block of the main area. */
static bool may_be_child(const struct fsck_ctx *ctx, const struct fsck_node_ref *r,
			 uint32_t ino, uint32_t nid, uint32_t *addr)
{
	struct f2fs_nat_entry e;

	if (nid == r->nid || nid == ino || (ctx->ni[nid].flags & (FSCK_NI_NODE | FSCK_NI_QUEUED)) ||
	    !fsck_nat_lookup(ctx, nid, &e) || le32_to_cpu(e.ino) != ino)
		return false;
	*addr = le32_to_cpu(e.block_addr);
	return fsck_addr_in_main(ctx, *addr);
}

/* The children of lost node r, by slot (0 for none, UINT32_MAX for a slot
 * two nodes claim).  Returns how many slots have one child, or -errno. */
static int64_t find_children(struct fsck_walk *w, const struct fsck_node_ref *r, uint32_t *kids)
{
	struct fsck_ctx *ctx = w->ctx;
	uint32_t ino = w->file.ino, addr;
	struct f2fs_node *n = malloc(sizeof(*n));
	int64_t found = 0;

	if (!n)
		return -ENOMEM;
	for (uint32_t nid = F2FS_RESERVED_NODE_NUM; nid < ctx->fs->max_nid; nid++) {
		int64_t slot;

		if (!may_be_child(ctx, r, ino, nid, &addr) || f2fs_dev_read(ctx->fs->dev, addr, 1, n) ||
		    le32_to_cpu(n->footer.nid) != nid || le32_to_cpu(n->footer.ino) != ino)
			continue;
		slot = child_slot(r->kind, r->ofs, le32_to_cpu(n->footer.flag) >> OFFSET_BIT_SHIFT);
		if (slot < 0)
			continue;
		kids[slot] = kids[slot] ? UINT32_MAX : nid;
	}
	free(n);
	for (uint32_t j = 0; j < NIDS_PER_BLOCK; j++)
		found += kids[j] && kids[j] != UINT32_MAX;
	return found;
}

const struct f2fs_node *fsck_shared_rebuild_inner(struct fsck_walk *w, const struct fsck_node_ref *r)
{
	struct fsck_ctx *ctx = w->ctx;
	uint32_t *kids;
	struct f2fs_node *n;
	int64_t found;

	if (r->kind == NODE_DIRECT || r->parent_is_inode == 2 ||
	    r->nid >= ctx->fs->max_nid || fsck_fix_node_peek(ctx, r->nid))
		return NULL;
	kids = calloc(NIDS_PER_BLOCK, sizeof(*kids));
	if (!kids) {
		w->err = -ENOMEM;
		return NULL;
	}
	found = find_children(w, r, kids);
	if (found < 0)
		w->err = (int)found;
	if (found <= 0 || !(n = fsck_fix_node_new(ctx, r->nid))) {
		free(kids);
		return NULL;
	}
	n->footer.nid = cpu_to_le32(r->nid);
	n->footer.ino = cpu_to_le32(w->file.ino);
	n->footer.flag = cpu_to_le32(r->ofs << OFFSET_BIT_SHIFT |
				     (w->file.is_dir ? 0u : 1u << COLD_BIT_SHIFT));
	n->footer.cp_ver = ctx->fs->cp->checkpoint_ver;
	for (uint32_t j = 0; j < NIDS_PER_BLOCK; j++)
		if (kids[j] != UINT32_MAX)
			n->in.nid[j] = cpu_to_le32(kids[j]);
	free(kids);
	fsck_diag(ctx, "ino %u: the repair rebuilds %s node %u from the footers of %u nodes",
		  w->file.ino, r->kind == NODE_INDIRECT ? "indirect" : "double-indirect", r->nid,
		  (uint32_t)found);
	return n;
}

static void note_candidate(void *arg, uint32_t addr, const struct f2fs_summary *s, bool past_log)
{
	struct fsck_walk *w = arg;
	struct fsck_ctx *ctx = w->ctx;
	uint32_t nid = le32_to_cpu(s->nid);
	struct fsck_loser *l;

	if (!nid || !fsck_addr_in_main(ctx, addr))
		return;
	if (w->n_lost)
		note_lost_block(w, addr, s);
	if (!w->n_losers)
		return;
	l = find_loser(w, nid, le16_to_cpu(s->ofs_in_node));
	if (!l || addr == l->addr || !summary_names(ctx, s, nid, l->ofs) || !block_unused(ctx, addr))
		return;
	if (fsck_sit_valid(ctx, addr)) {
		l->n_valid++;
		l->valid = addr;
	} else if (!past_log && section_takes_data(ctx, f2fs_blkaddr_to_segno(ctx->fs, addr))) {
		l->n_stale++;
		l->stale = addr;
	}
}

/* ---- settling a losing slot ---- */

/* File block of slot ofs_in_node of node n (of inode ri) when n is a
 * direct node at node offset node_ofs (format notes §7.1, §7.3). */
static uint64_t direct_node_fofs(const struct fsck_ctx *ctx, const struct f2fs_inode *ri,
				 uint32_t node_ofs, uint32_t ofs_in_node)
{
	const uint64_t N = NIDS_PER_BLOCK, ind_end = 2 * N + 4;
	uint64_t per_inode = DEF_ADDRS_PER_INODE - fsck_extra_words(ri) -
			     fsck_inline_xattr_addrs(ctx, ri);
	uint64_t per_block = ADDRS_PER_BLOCK, k;

	if (le32_to_cpu(ri->i_flags) & F2FS_COMPR_FL) {
		uint64_t cluster = 1ull << (ri->i_log_cluster_size & 31);

		per_inode -= per_inode % cluster;
		per_block -= per_block % cluster;
	}
	if (node_ofs <= 2)
		k = node_ofs - 1;
	else if (node_ofs <= ind_end)
		k = node_ofs - 2 - (node_ofs - 4) / (N + 1);
	else
		k = node_ofs - 5 - (node_ofs - ind_end - 3) / (N + 1);
	return per_inode + k * per_block + ofs_in_node;
}

/* The node block of nid: the repair's copy, else read into buf. */
static const struct f2fs_node *node_block(struct fsck_ctx *ctx, uint32_t nid, struct f2fs_node *buf)
{
	const struct f2fs_node *n = fsck_fix_node_peek(ctx, nid);
	struct f2fs_nat_entry e;

	if (n)
		return n;
	if (!fsck_nat_lookup(ctx, nid, &e) || !fsck_addr_in_main(ctx, le32_to_cpu(e.block_addr)) ||
	    f2fs_dev_read(ctx->fs->dev, le32_to_cpu(e.block_addr), 1, buf))
		return NULL;
	return buf;
}

/* The file block of a losing slot, FSCK_NONE when it cannot be read. */
static uint64_t loser_fofs(struct fsck_ctx *ctx, const struct fsck_loser *l)
{
	struct f2fs_node nb, ib;
	const struct f2fs_node *n = node_block(ctx, l->nid, &nb), *in;
	uint32_t node_ofs;

	if (!n)
		return FSCK_NONE;
	node_ofs = le32_to_cpu(n->footer.flag) >> OFFSET_BIT_SHIFT;
	if (l->nid == l->ino)
		return l->ofs;
	in = node_block(ctx, l->ino, &ib);
	if (!in || node_ofs == 0 || node_ofs == XATTR_NODE_OFFSET)
		return FSCK_NONE;
	return direct_node_fofs(ctx, &in->i, node_ofs, l->ofs);
}

/* Point the slot at addr (0: a hole) in the repair's copy of its node;
 * false when the slot no longer names the block it lost. */
static bool repoint_slot(struct fsck_ctx *ctx, const struct fsck_loser *l, uint32_t addr)
{
	struct f2fs_nat_entry e;
	struct f2fs_node *n;
	uint8_t *slot;

	if (!fsck_nat_lookup(ctx, l->nid, &e))
		return false;
	n = fsck_fix_node(ctx, l->nid, le32_to_cpu(e.block_addr), NULL);
	if (!n)
		return false;
	if (l->nid == l->ino) {
		uint32_t idx = fsck_extra_words(&n->i) + l->ofs;

		if (idx >= DEF_ADDRS_PER_INODE)
			return false;
		slot = (uint8_t *)n + offsetof(struct f2fs_inode, i_addr) + 4 * (size_t)idx;
	} else {
		if (l->ofs >= ADDRS_PER_BLOCK)
			return false;
		slot = (uint8_t *)n + 4 * (size_t)l->ofs;
	}
	if (get_le32(slot) != l->addr)
		return false;
	put_le32(slot, addr);
	return true;
}

/* Clear the i_ext of inode ino if it maps block addr. */
static void drop_extent_of(struct fsck_ctx *ctx, uint32_t ino, uint32_t addr)
{
	struct f2fs_nat_entry e;
	struct f2fs_node *n;
	uint32_t blk, len;

	if (!fsck_nat_lookup(ctx, ino, &e))
		return;
	n = fsck_fix_node(ctx, ino, le32_to_cpu(e.block_addr), NULL);
	if (!n)
		return;
	blk = le32_to_cpu(n->i.i_ext.blk);
	len = le32_to_cpu(n->i.i_ext.len);
	if (len && addr >= blk && (uint64_t)addr < (uint64_t)blk + len)
		memset(&n->i.i_ext, 0, sizeof(n->i.i_ext));
}

/* Its own block for a losing slot, or 0. */
static uint32_t own_block(const struct fsck_ctx *ctx, const struct fsck_loser *l)
{
	uint32_t addr = 0;

	if (l->n_valid == 1)
		addr = l->valid;
	else if (!l->n_valid && l->n_stale == 1)
		addr = l->stale;
	return addr && block_unused(ctx, addr) ? addr : 0;
}

static void settle(struct fsck_walk *w, const struct fsck_loser *l)
{
	struct fsck_ctx *ctx = w->ctx;
	uint32_t own;

	if (l->nid >= ctx->fs->max_nid || !(ctx->ni[l->nid].flags & FSCK_NI_NODE))
		return;		/* its node left the tree after the walk met it */
	/* the first slot of a block reports it; each slot has its fix */
	if (l->first)
		fsck_problem(ctx, PR_DATA_DUP, FSCK_OBJ(.ino = l->ino, .blkaddr = l->addr,
			    .idx = loser_fofs(ctx, l)));
	own = own_block(ctx, l);
	if (!repoint_slot(ctx, l, own))
		return;
	drop_extent_of(ctx, l->ino, l->addr);
	if (!own)
		fsck_fix_short(ctx, l->ino);
	if (own) {
		uint64_t rel = own - ctx->fs->main_blkaddr;

		fsck_set(ctx->reach, rel);
		ctx->seg_kind[rel / BLKS_PER_SEG] |= 1;
		ctx->st.data_blocks++;
		if (fsck_expect_summary(ctx, own, l->nid, l->ofs, false))
			w->err = -ENOMEM;
		fsck_debug(ctx, 1, "ino %u: slot %u of nid %u takes back its block %u", l->ino,
			   l->ofs, l->nid, own);
	}
}

int fsck_shared_settle(struct fsck_walk *w)
{
	int err;

	if (!w->n_losers && !w->n_lost)
		return 0;
	if (w->n_losers)	/* losers is NULL when only lost nodes are to rebuild */
		qsort(w->losers, w->n_losers, sizeof(*w->losers), cmp_loser);
	err = fsck_ssa_for_each_data(w->ctx, note_candidate, w);
	for (uint32_t i = 0; i < w->n_lost && !err && !w->err; i++)
		rebuild_lost(w, w->lost[i]);
	for (uint32_t i = 0; i < w->n_losers && !err && !w->err; i++)
		settle(w, &w->losers[i]);
	return err ? err : w->err;
}

/* ---- a directory slot's own dentry block ---- */

/* Each search reads every data summary: a volume whose directories lost
 * many slots at once keeps the check's time bounded by searching for the
 * first few only (the others are dropped as before). */
#define DIR_HOME_SCANS	8

struct dir_home {
	struct fsck_ctx *ctx;
	uint32_t nid, ofs, bad;
	uint32_t addr, n;
};

/* (past_log does not matter: only a block SIT has valid is taken) */
static void note_dir_home(void *arg, uint32_t addr, const struct f2fs_summary *s, bool past_log)
{
	struct dir_home *h = arg;

	(void)past_log;
	if (addr == h->bad || !fsck_addr_in_main(h->ctx, addr) ||
	    !summary_names(h->ctx, s, h->nid, h->ofs) || !fsck_sit_valid(h->ctx, addr) ||
	    !block_unused(h->ctx, addr))
		return;
	h->addr = addr;
	h->n++;
}

/* Whether a block reads as a dentry block: nothing in the reserved bytes,
 * at least one entry, and every entry of a name length that fits its
 * block and of an inode number. */
static bool dentry_shaped(const struct f2fs_dentry_block *d)
{
	bool any = false;

	for (uint32_t i = 0; i < SIZE_OF_RESERVED; i++)
		if (d->reserved[i])
			return false;
	for (uint32_t i = 0; i < NR_DENTRY_IN_BLOCK;) {
		uint32_t len = le16_to_cpu(d->dentry[i].name_len);

		if (!test_bit_le(i, d->dentry_bitmap)) {
			i++;
			continue;
		}
		if (!len || len > F2FS_NAME_LEN || i + GET_DENTRY_SLOTS(len) > NR_DENTRY_IN_BLOCK ||
		    !le32_to_cpu(d->dentry[i].ino))
			return false;
		any = true;
		i += GET_DENTRY_SLOTS(len);
	}
	return any;
}

uint32_t fsck_shared_dir_home(struct fsck_walk *w, uint32_t nid, uint32_t ofs_in_node,
			      uint32_t bad)
{
	struct dir_home h = { .ctx = w->ctx, .nid = nid, .ofs = ofs_in_node, .bad = bad };
	struct f2fs_dentry_block *d;
	bool shaped;

	if (w->dir_home_scans >= DIR_HOME_SCANS)
		return 0;
	w->dir_home_scans++;
	if (fsck_ssa_for_each_data(w->ctx, note_dir_home, &h) || h.n != 1)
		return 0;
	d = malloc(sizeof(*d));
	if (!d)
		return 0;
	shaped = !f2fs_dev_read(w->ctx->fs->dev, h.addr, 1, d) && dentry_shaped(d);
	free(d);
	return shaped ? h.addr : 0;
}

/* ---- applying ---- */

int fsck_shared_apply(struct fsck_ctx *ctx)
{
	struct fsck_plan *plan = ctx->plan;

	for (uint32_t i = 0; plan && i < plan->n_short; i++) {
		uint32_t ino = plan->short_inos[i];
		struct f2fs_nat_entry e;
		struct f2fs_node *n;

		if (!fsck_nat_lookup(ctx, ino, &e))
			continue;
		n = fsck_fix_node(ctx, ino, le32_to_cpu(e.block_addr), NULL);
		if (!n)
			return plan->err ? plan->err : -EIO;
		if (le64_to_cpu(n->i.i_blocks) > 1)
			n->i.i_blocks = cpu_to_le64(le64_to_cpu(n->i.i_blocks) - 1);
	}
	return 0;
}
