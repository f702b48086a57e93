/*
 * fsck_pass_nodes.c - pass 4: the node walk.
 *
 * Starts from the root, the quota inodes and the orphan inodes, then
 * takes every inode NAT says is in use but the walk did not reach as a
 * "lost" root.  Inodes wait on an explicit stack (no recursion; each
 * inode is pushed once, so loops end); they are popped in batches, sorted
 * by block address and fetched with one batched read.  Each inode's tree
 * (direct, indirect, double-indirect nodes) is fetched level by level the
 * same way.  For every node: footer nid/ino/offset, NAT owner, double
 * references; for every block: inside main, not used twice (a data block
 * two slots name: fsck_shared.c), segment type class; both are queued for
 * the SSA pass.  Directories go to
 * fsck_pass_dir.c, which pushes the inodes they name.  At the end: link
 * counts.  Records for pass 7: ctx->reach, ctx->ni, ctx->st.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs_array.h"
#include "f2fs_ckpt.h"
#include "f2fs_crc.h"
#include "f2fs_err.h"
#include "f2fs_quota.h"
#include "fsck_walk.h"

/* ---- the inode stack ---- */

/* Items the stack is sized for at the start, at most (40 MiB). */
#define STACK_RESERVE_MAX	(1u << 20)

/* The stack sized at the start for every inode the checkpoint counts (an
 * inode waits on it at most once): it then never moves as a directory of
 * 100,000 names fills it, and a worker touches its pages ahead.  Only
 * virtual memory: pages are touched as items come.  A wrong count only
 * means the stack grows later, as it would have. */
static void reserve_stack(struct fsck_walk *w)
{
	uint64_t want = (uint64_t)le32_to_cpu(w->ctx->fs->cp->valid_inode_count) + 1024;

	if (want > w->ctx->fs->max_nid)
		want = w->ctx->fs->max_nid;
	if (want > STACK_RESERVE_MAX)
		want = STACK_RESERVE_MAX;
	(void)F2FS_ARRAY_ROOM32(w->stack, w->cap, (uint32_t)want, 1024);
}

/* Room for one more item on the stack, its page touched by a worker when
 * one went ahead (a directory of 100,000 names pushes 4 MB of items). */
static int stack_room(struct fsck_walk *w)
{
	return f2fs_warm_room32(&w->warm_stack, &w->stack, sizeof(*w->stack), &w->cap, w->n + 1,
				1024);
}

int fsck_walk_push(struct fsck_walk *w, uint32_t ino, uint8_t ftype, enum fsck_item_kind kind,
		   struct fsck_pname *pn)
{
	struct fsck_item *it;

	if (stack_room(w)) {
		fsck_pname_put(pn);
		w->err = -ENOMEM;
		return -ENOMEM;
	}
	w->ctx->ni[ino].flags |= FSCK_NI_QUEUED;
	w->ctx->ni[ino].ftype = ftype;	/* until the inode itself is checked */
	it = &w->stack[w->n++];
	if (w->n > w->ctx->st.walk_peak)
		w->ctx->st.walk_peak = w->n;
	memset(it, 0, sizeof(*it));
	it->ino = ino;
	it->ftype = ftype;
	it->kind = (uint8_t)kind;
	it->pn = pn;
	return 0;
}

/* ---- batched reads in address order ---- */

size_t fsck_addr_runs(const uint32_t *addrs, uint32_t lo, uint32_t hi, uint8_t *buf,
		      struct f2fs_io_vec *vec, size_t nvec)
{
	for (uint32_t i = lo; i < hi; i++) {
		if (i > lo && (uint64_t)addrs[i - 1] + 1 == addrs[i]) {
			vec[nvec - 1].nblocks++;
			continue;
		}
		vec[nvec++] = (struct f2fs_io_vec){
			.blkaddr = addrs[i], .nblocks = 1, .buf = buf + (size_t)i * F2FS_BLKSIZE,
		};
	}
	return nvec;
}

uint8_t *fsck_walk_buf(struct fsck_walk *w, uint8_t **buf)
{
	if (!*buf)
		*buf = f2fs_dev_buf_take(w->ctx->fs->dev, FSCK_BATCH);
	return *buf;
}

/* Read n blocks (addrs sorted ascending) into buf (n blocks); blk[i]
 * receives where block i is. */
int fsck_read_sorted(struct fsck_walk *w, const uint32_t *addrs, uint32_t n, uint8_t *buf,
		     const uint8_t **blk)
{
	size_t nvec = fsck_addr_runs(addrs, 0, n, buf, w->vec, 0);
	int err = f2fs_dev_read_batch(w->ctx->fs->dev, w->vec, nvec);

	for (uint32_t i = 0; i < n && !err; i++)
		blk[i] = buf + (size_t)i * F2FS_BLKSIZE;
	return err;
}

/* ---- block accounting ---- */

/* The summary of segment segno as the kernel would take it: a current
 * segment's from its log in the checkpoint (the node logs' only when the
 * pack holds them), another's from its SSA block; false when there is
 * none to read.  *node: it is a node summary. */
static bool segment_summary(struct fsck_ctx *ctx, uint32_t segno, struct f2fs_summary_block *sum,
			    bool *node)
{
	struct f2fs_fs *fs = ctx->fs;

	if (f2fs_is_ro_image(fs))	/* no SSA, and logs share segments */
		return false;
	for (int t = 0; t < NR_CURSEG_TYPE; t++) {
		if (fs->curseg_segno[t] != segno)
			continue;
		if (!fs->cursum_loaded || (t >= CURSEG_HOT_NODE && !f2fs_cp_has_node_summaries(fs->cp)))
			return false;
		memcpy(sum->entries, fs->cursum[t].entries, sizeof(sum->entries));
		*node = t >= CURSEG_HOT_NODE;
		return true;
	}
	if (f2fs_dev_read(fs->dev, (uint64_t)fs->ssa_blkaddr + segno, 1, sum))
		return false;
	*node = sum->footer.entry_type == SUM_TYPE_NODE;
	return true;
}

/* Whether segment segno, which SIT types as data, held nodes: its summary
 * is a node summary with an entry naming a nid that NAT has at that very
 * block.  NAT, the summary and the node blocks then agree against one SIT
 * entry (a SIT journal entry whose segno was damaged lends the segment it
 * now names the type and valid map of another): the segment's blocks are
 * taken as the nodes they are, and the repair gives it a node type and
 * the valid map of what the walk found.  Decided once per segment. */
static bool summary_holds_nodes(struct fsck_ctx *ctx, uint32_t segno)
{
	uint32_t start = f2fs_seg_start_blkaddr(ctx->fs, segno);
	struct f2fs_summary_block *sum;
	struct f2fs_nat_entry e;
	bool node = false, held = false;

	if (ctx->seg_kind[segno] & 16)
		return ctx->seg_kind[segno] & 32;
	sum = malloc(sizeof(*sum));
	if (sum && segment_summary(ctx, segno, sum, &node) && node)
		for (uint32_t k = 0; k < BLKS_PER_SEG && !held; k++) {
			uint32_t nid = le32_to_cpu(sum->entries[k].nid);

			held = nid && fsck_nat_lookup(ctx, nid, &e) &&
			       le32_to_cpu(e.block_addr) == start + k;
		}
	free(sum);
	if (!sum)
		return false;	/* out of memory: SIT decides, undecided */
	ctx->seg_kind[segno] |= (uint8_t)(16 | (held ? 32 : 0));
	return held;
}

static bool seg_is_node_type(const struct fsck_ctx *ctx, uint32_t segno)
{
	uint8_t t = ctx->sit.segs[segno].type;

	return t >= CURSEG_HOT_NODE && t <= CURSEG_COLD_NODE;
}

/* Whether a node block in segno lies in a node segment: its SIT type, or
 * its summary and NAT against a SIT type of data (summary_holds_nodes(),
 * asked only for nodes: a healthy volume never has one there). */
static bool seg_holds_nodes(struct fsck_ctx *ctx, uint32_t segno)
{
	return seg_is_node_type(ctx, segno) || summary_holds_nodes(ctx, segno);
}

/* The segment whose SIT type gives the class of segno's blocks: itself
 * when it has valid blocks, else (for a data block) its section's first
 * segment with valid blocks: a data block in a free segment of a node
 * section is no block the kernel wrote; -1 when there is none. */
static int64_t class_segment(const struct fsck_ctx *ctx, uint32_t segno, bool is_node)
{
	uint32_t spp = ctx->sit.segs_per_sec, first = segno - segno % spp;

	if (ctx->sit.segs[segno].valid_blocks)
		return segno;
	for (uint32_t s = first; s < first + spp && !is_node; s++)
		if (ctx->sit.segs[s].valid_blocks)
			return s;
	return -1;
}

/* Whether the data summary of addr names slot ofs_in_node of node nid:
 * the block is that file's whatever SIT says of its segment (a SIT entry
 * of another segment can stand in for this one's). */
static bool summary_claims_data(struct fsck_ctx *ctx, uint32_t addr, uint32_t nid,
				uint32_t ofs_in_node)
{
	struct f2fs_summary sum;

	return fsck_ssa_lookup(ctx, addr, &sum) && le32_to_cpu(sum.nid) == nid &&
	       le16_to_cpu(sum.ofs_in_node) == ofs_in_node;
}

/* Whether addr, in a segment SIT types for nodes and valid there, is the
 * block of a node: its footer names a nid whose NAT entry points at it.
 * A data slot naming it is the damaged one (reading the node as a dentry
 * block, say, would take the node's block from it). */
static bool node_home(const struct fsck_ctx *ctx, uint32_t addr)
{
	struct f2fs_node node;
	struct f2fs_nat_entry e;
	uint32_t nid;

	if (!fsck_sit_valid(ctx, addr) || f2fs_dev_read(ctx->fs->dev, addr, 1, &node))
		return false;
	nid = le32_to_cpu(node.footer.nid);
	return nid && fsck_nat_lookup(ctx, nid, &e) && le32_to_cpu(e.block_addr) == addr &&
	       e.ino == node.footer.ino;
}

/* Mark a referenced block; false if it was already referenced, or (when
 * repairing) if it lies unallocated in a segment of the other class and
 * no summary says it is this slot's: such a reference is dropped and the
 * block given back (plan->unreach). */
static bool mark_block(struct fsck_walk *w, uint32_t addr, bool is_node, uint64_t fofs,
		       uint32_t nid, uint32_t ofs_in_node)
{
	struct fsck_ctx *ctx = w->ctx;
	uint64_t rel = addr - ctx->fs->main_blkaddr;
	uint32_t segno = (uint32_t)(rel / BLKS_PER_SEG);
	int64_t cls;
	bool foreign, drop;

	if (fsck_bit(ctx->reach, rel)) {
		fsck_problem(ctx, PR_DATA_DUP, FSCK_OBJ(.ino = w->file.ino, .blkaddr = addr,
			    .idx = is_node ? FSCK_NONE : fofs));
		return false;
	}
	cls = ctx->sit_loaded ? class_segment(ctx, segno, is_node) : -1;
	foreign = cls >= 0 && (is_node ? !seg_holds_nodes(ctx, (uint32_t)cls) :
					 seg_is_node_type(ctx, (uint32_t)cls));
	if (foreign && !is_node && node_home(ctx, addr)) {
		fsck_problem(ctx, PR_SEG_TYPE_CLASS, FSCK_OBJ(.segno = segno, .blkaddr = addr,
			    .found = ctx->sit.segs[cls].type,
			    .str = "data"));
		return false;
	}
	fsck_set(ctx->reach, rel);
	drop = foreign && !fsck_sit_valid(ctx, addr) &&
	       (is_node || !summary_claims_data(ctx, addr, nid, ofs_in_node));
	if (!drop)
		ctx->seg_kind[segno] |= is_node ? 2 : 1;
	if (foreign && !(ctx->seg_kind[segno] & 4)) {
		ctx->seg_kind[segno] |= 4;
		fsck_problem(ctx, PR_SEG_TYPE_CLASS, FSCK_OBJ(.segno = segno, .blkaddr = addr,
			    .found = ctx->sit.segs[cls].type, .str = is_node ? "node" : "data"));
	}
	if (drop) {
		fsck_fix_unreach(ctx, addr);
		return false;
	}
	if (fsck_expect_summary(ctx, addr, nid, (uint16_t)ofs_in_node, is_node))
		w->err = -ENOMEM;
	return true;
}

static void note_extent(struct fsck_file *f, uint64_t fofs, uint32_t addr)
{
	if (!f->ext_len || fofs < f->ext_fofs || fofs >= (uint64_t)f->ext_fofs + f->ext_len)
		return;
	if (addr == f->ext_blk + (uint32_t)(fofs - f->ext_fofs))
		f->ext_match++;
	else
		f->ext_mismatch = true;
}

/* Room for one more dentry block in the four parallel arrays, which
 * share dent_cap: each grows from the same capacity to the same one. */
static int grow_dentry_blocks(struct fsck_walk *w)
{
	uint32_t need = w->dent_n + 1, c_addr = w->dent_cap, c_bidx = w->dent_cap;
	uint32_t c_owner = w->dent_cap, c_ofs = w->dent_cap;

	if (F2FS_ARRAY_ROOM32(w->dent_addr, c_addr, need, 256) ||
	    F2FS_ARRAY_ROOM32(w->dent_bidx, c_bidx, need, 256) ||
	    F2FS_ARRAY_ROOM32(w->dent_owner, c_owner, need, 256) ||
	    F2FS_ARRAY_ROOM32(w->dent_ofs, c_ofs, need, 256))
		return -ENOMEM;
	w->dent_cap = c_addr;
	return 0;
}

static int add_dentry_block(struct fsck_walk *w, uint64_t bidx, uint32_t addr,
			    uint32_t nid, uint32_t ofs_in_node)
{
	if (w->dent_n == w->dent_cap && grow_dentry_blocks(w))
		return -ENOMEM;
	w->dent_addr[w->dent_n] = addr;
	w->dent_owner[w->dent_n] = nid;
	w->dent_ofs[w->dent_n] = (uint16_t)ofs_in_node;
	w->dent_bidx[w->dent_n++] = bidx > UINT32_MAX ? UINT32_MAX : (uint32_t)bidx;
	return 0;
}

/* ---- fixes ---- */

/* Clear address slot ofs_in_node (file block fofs) of the node being
 * walked.  An i_ext that covers it goes too (fsck_check_sizes()): left
 * alone, it would map the block the slot no longer names. */
static void drop_data_slot(struct fsck_walk *w, uint32_t ofs_in_node, uint64_t fofs)
{
	struct fsck_file *f = &w->file;
	struct f2fs_node *n;

	if (f->ext_len && fofs >= f->ext_fofs && fofs < (uint64_t)f->ext_fofs + f->ext_len)
		f->ext_dropped = true;
	if (!w->cur_node)
		return;
	n = fsck_fix_node(w->ctx, w->cur_nid, w->cur_addr, w->cur_node);
	if (!n)
		return;
	if (w->cur_nid == w->file.ino)
		n->i.i_addr[w->file.extra_words + ofs_in_node] = 0;
	else if (ofs_in_node < ADDRS_PER_BLOCK)
		n->dn.addr[ofs_in_node] = 0;
}

/* Remove a node reference from its parent; release_nid when the nid is
 * not someone else's (its NAT entry is then cleared as unreachable). */
static void drop_ref(struct fsck_walk *w, const struct fsck_node_ref *r, bool release_nid)
{
	struct fsck_ctx *ctx = w->ctx;
	struct f2fs_node *p;

	if (release_nid && r->nid < ctx->fs->max_nid)
		ctx->ni[r->nid].flags &= (uint8_t)~FSCK_NI_NODE;
	p = fsck_fix_node(ctx, r->parent_nid, r->parent_addr,
			  r->parent_nid == w->file.ino ? (const void *)w->inode : NULL);
	if (!p)
		return;
	if (r->parent_is_inode == 2)
		p->i.i_xattr_nid = 0;
	else if (r->parent_is_inode)
		p->i.i_nid[r->parent_slot % DEF_NIDS_PER_INODE] = 0;
	else
		p->in.nid[r->parent_slot % NIDS_PER_BLOCK] = 0;
}

/* ---- names of the inodes the walk refuses ---- */

static void report_dropped_name(struct fsck_ctx *ctx, uint32_t ino, const char *dir_path,
				const char *name, const struct fsck_dent_loc *loc)
{
	if (fsck_problem(ctx, PR_DENT_INO, FSCK_OBJ(.ino = loc->dir_ino,
		    .path = dir_path ? dir_path : "", .str = name, .found = ino)))
		fsck_fix_dentry(ctx, loc, NULL, FSCK_DENT_DROP, 0);
}

/* A name met while its inode waited in the queue, the inode now checked:
 * its type must be the inode's too (readdir() gives the entry's type).
 * Names of directories are the directory pass's (one name; the others go). */
static void check_name_ftype(struct fsck_ctx *ctx, const struct fsck_name *nm,
			     const struct fsck_nid_info *ni)
{
	if (!ni->mode_read || ni->dropped || (ni->flags & FSCK_NI_DIR) ||
	    ni->ftype == F2FS_FT_UNKNOWN || nm->ftype == F2FS_FT_DIR || nm->ftype == ni->ftype)
		return;
	const char *dir_path = fsck_pname_dir_path(nm->pn);

	if (fsck_problem(ctx, PR_DENT_FTYPE, FSCK_OBJ(.ino = nm->ino,
		    .path = dir_path ? dir_path : "", .found = nm->ftype, .expected = ni->ftype,
		    .str = fsck_pname_name(nm->pn))))
		fsck_fix_dentry(ctx, &nm->loc, NULL, FSCK_DENT_FTYPE, ni->ftype);
}

/* Settle the names of inodes the walk has decided on, and forget them. */
static void prune_names(struct fsck_walk *w)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < w->n_names; i++) {
		const struct fsck_nid_info *ni = &w->ctx->ni[w->names[i].ino];

		if ((ni->flags & FSCK_NI_INODE) || ni->dropped) {
			check_name_ftype(w->ctx, &w->names[i], ni);
			fsck_pname_put(w->names[i].pn);
		} else {
			w->names[k++] = w->names[i];
		}
	}
	w->n_names = k;
}

/* The entry's name, a pname in its directory's (no path built, no
 * allocation of its own). */
static void remember_name(struct fsck_walk *w, uint32_t ino, struct fsck_pname *dir,
			  uint32_t dir_ino, const char *name, const struct fsck_dent_loc *loc,
			  uint8_t ftype)
{
	struct fsck_name *nm;
	uint32_t need = w->n_names + 1;

	if (w->n_names == w->cap_names) {
		prune_names(w);
		/* most still wait: grow now rather than prune again soon
		 * (a prune per name would make the walk quadratic) */
		if (w->n_names > w->cap_names / 4 * 3)
			need = w->cap_names + 1;
	}
	if (F2FS_ARRAY_ROOM32(w->names, w->cap_names, need, 64)) {
		w->err = -ENOMEM;
		return;
	}
	nm = &w->names[w->n_names];
	nm->pn = fsck_pname_child(dir, dir_ino, name);
	if (!nm->pn) {
		w->err = -ENOMEM;
		return;
	}
	nm->ino = ino;
	nm->loc = *loc;
	nm->ftype = ftype;
	w->n_names++;
}

bool fsck_walk_name(struct fsck_walk *w, uint32_t ino, struct fsck_pname *dir, uint32_t dir_ino,
		    const char *name, const struct fsck_dent_loc *loc, uint8_t ftype)
{
	const struct fsck_nid_info *ni = &w->ctx->ni[ino];

	if (ni->dropped) {
		report_dropped_name(w->ctx, ino, fsck_pname_path(dir), name, loc);
		return false;
	}
	if ((ni->flags & FSCK_NI_QUEUED) && !(ni->flags & FSCK_NI_INODE))
		remember_name(w, ino, dir, dir_ino, name, loc, ftype);
	return true;
}

/* The walk refuses the item's inode: every entry naming it goes (its NAT
 * entry is cleared as unreachable). */
static void drop_item_dentry(struct fsck_walk *w, const struct fsck_item *it)
{
	struct fsck_ctx *ctx = w->ctx;

	if (it->kind == ITEM_NS && it->loc.dir_ino)
		fsck_fix_dentry(ctx, &it->loc, NULL, FSCK_DENT_DROP, 0);
	if (it->ino >= ctx->fs->max_nid || (ctx->ni[it->ino].flags & FSCK_NI_INODE))
		return;
	ctx->ni[it->ino].dropped = 1;
	for (uint32_t i = 0; i < w->n_names; i++) {
		if (w->names[i].ino != it->ino)
			continue;
		report_dropped_name(ctx, it->ino, fsck_pname_dir_path(w->names[i].pn),
				    fsck_pname_name(w->names[i].pn), &w->names[i].loc);
		if (ctx->st.dentries)
			ctx->st.dentries--;
	}
}

/* Give data block addr to slot ofs_in_node of node nid (file block fofs);
 * false when the slot does not get it: dropped now, or (a block another
 * slot names too) settled after the walk by fsck_shared.c. */
static bool claim_data_block(struct fsck_walk *w, uint32_t nid, uint32_t ofs_in_node,
			     uint64_t fofs, uint32_t addr)
{
	struct fsck_ctx *ctx = w->ctx;
	struct fsck_file *f = &w->file;
	enum fsck_share share = FSCK_SHARE_DROP;

	if (fsck_bit(ctx->reach, addr - ctx->fs->main_blkaddr)) {
		share = fsck_shared_claim(w, nid, ofs_in_node, fofs, addr);
	} else if (mark_block(w, addr, false, fofs, nid, ofs_in_node)) {
		ctx->st.data_blocks++;
		return true;
	}
	if (share == FSCK_SHARE_WON)
		return true;
	if (share == FSCK_SHARE_LOST) {
		/* it still counts in i_blocks: most such slots get their own
		 * block back */
		if (fofs + 1 > f->last_data)
			f->last_data = fofs + 1;
		return false;
	}
	drop_data_slot(w, ofs_in_node, fofs);
	f->counted--;
	return false;
}

/* A directory slot whose block was refused (an address outside the main
 * area, another file's node or data block): the slot points back at its
 * own dentry block when the summaries still name it there
 * (fsck_shared_dir_home()), so the directory keeps its entries instead of
 * their inodes going to lost+found.  The block, or 0. */
static uint32_t dir_slot_home(struct fsck_walk *w, uint32_t nid, uint32_t ofs_in_node,
			      uint64_t fofs, uint32_t bad)
{
	struct fsck_ctx *ctx = w->ctx;
	uint32_t home = fsck_shared_dir_home(w, nid, ofs_in_node, bad);
	struct f2fs_node *n;

	if (!home || !mark_block(w, home, false, fofs, nid, ofs_in_node))
		return 0;
	ctx->st.data_blocks++;
	fsck_debug(ctx, 1, "ino %u: directory block %llu goes back to block %u (it named %u)",
		   w->file.ino, (unsigned long long)fofs, home, bad);
	if (!w->cur_node)
		return home;
	w->file.counted++;	/* the drop took it off */
	n = fsck_fix_node(ctx, w->cur_nid, w->cur_addr, w->cur_node);
	if (!n)
		return home;
	if (w->cur_nid == w->file.ino)
		n->i.i_addr[w->file.extra_words + ofs_in_node] = cpu_to_le32(home);
	else if (ofs_in_node < ADDRS_PER_BLOCK)
		n->dn.addr[ofs_in_node] = cpu_to_le32(home);
	return home;
}

/* One data slot of the inode or a direct node. */
static void handle_data(struct fsck_walk *w, uint32_t nid, uint32_t ofs_in_node,
			uint64_t fofs, uint32_t addr)
{
	struct fsck_ctx *ctx = w->ctx;
	struct fsck_file *f = &w->file;

	if (addr == NULL_ADDR)
		return;
	if (addr == NEW_ADDR) {
		f->counted++;
		ctx->st.new_addr_blocks++;
		if (w->qtype && nid != f->ino)
			fsck_quota_note_reserved(ctx, w->qtype - 1, fofs, nid, ofs_in_node);
		return;
	}
	if (addr == COMPRESS_ADDR) {
		if (!f->compressed || fofs % f->cluster) {
			bool planned = fsck_problem(ctx, PR_INODE_COMPRESS, FSCK_OBJ(.ino = f->ino, .idx = fofs,
				    .str = !f->compressed ? "COMPRESS_ADDR in a file that is not compressed" :
				    "COMPRESS_ADDR not at the start of a cluster"));
			if (planned) {
				drop_data_slot(w, ofs_in_node, fofs);
				return;
			}
		}
		if (!f->released) {
			f->counted++;
			ctx->st.compress_addr_slots++;
		}
		return;
	}
	if (!fsck_addr_in_main(ctx, addr)) {
		if (fsck_problem(ctx, PR_DATA_ADDR_RANGE, FSCK_OBJ(.ino = f->ino, .blkaddr = addr,
				 .idx = fofs)))
			drop_data_slot(w, ofs_in_node, fofs);
		if (!f->is_dir || !(addr = dir_slot_home(w, nid, ofs_in_node, fofs, addr)))
			return;
	} else {
		f->counted++;
		note_extent(f, fofs, addr);
		if (!claim_data_block(w, nid, ofs_in_node, fofs, addr) &&
		    (!f->is_dir || !(addr = dir_slot_home(w, nid, ofs_in_node, fofs, addr))))
			return;
	}
	if (w->qtype)
		fsck_quota_note_block(ctx, w->qtype - 1, fofs, addr, nid, ofs_in_node);
	if (fofs + 1 > f->last_data)
		f->last_data = fofs + 1;
	if (f->is_dir && add_dentry_block(w, fofs, addr, nid, ofs_in_node))
		w->err = -ENOMEM;
}

/* handle_data() for each slot of the n little-endian words at slots that
 * is not NULL_ADDR, the first at file offset fofs.  Most slots of a small
 * file are zero: eight are tested at once.  handle_data() writes only its
 * own slot (in a fixed copy), so looking ahead reads what the slot-by-slot
 * loop would. */
static void handle_data_slots(struct fsck_walk *w, uint32_t nid, const uint8_t *slots,
			      uint32_t n, uint64_t fofs)
{
	uint32_t i = 0;

	while (i < n) {
		uint64_t q[4];
		__le32 a;

		if (n - i >= 8) {
			memcpy(q, slots + (size_t)i * 4, sizeof(q));
			if (!(q[0] | q[1] | q[2] | q[3])) {
				i += 8;
				continue;
			}
		}
		memcpy(&a, slots + (size_t)i * 4, sizeof(a));
		if (le32_to_cpu(a) != NULL_ADDR)
			handle_data(w, nid, i, fofs + i, le32_to_cpu(a));
		i++;
	}
}

/* ---- node trees ---- */

static int push_ref(struct fsck_walk *w, int lvl, uint32_t nid, uint32_t ofs, uint8_t kind,
		    uint64_t fofs, const struct fsck_node_ref *parent, uint16_t slot)
{
	struct fsck_node_ref *r;

	if (F2FS_ARRAY_ROOM32(w->lvl[lvl], w->lvl_cap[lvl], w->lvl_n[lvl] + 1, 64))
		return -ENOMEM;
	r = &w->lvl[lvl][w->lvl_n[lvl]++];
	r->nid = nid;
	r->addr = 0;
	r->ofs = ofs;
	r->kind = kind;
	r->fofs = fofs;
	r->parent_slot = slot;
	if (parent) {
		r->parent_nid = parent->nid;
		r->parent_addr = parent->addr;
		r->parent_is_inode = 0;
	} else {
		r->parent_nid = w->file.ino;
		r->parent_addr = w->inode_addr;
		r->parent_is_inode = 1;
	}
	return 0;
}

static const char *kind_name(uint8_t kind)
{
	return kind == NODE_DIRECT ? "direct" : kind == NODE_INDIRECT ? "indirect" :
	       "double-indirect";
}

static void visit_children(struct fsck_walk *w, const struct fsck_node_ref *r,
			   const struct f2fs_node *n, int next);

/* An indirect or double-indirect node without a NAT entry (none to take
 * back from its block either): rebuilt from its children's footers
 * (fsck_shared.c) and walked now, its children pushed to level next. */
static bool visit_rebuilt(struct fsck_walk *w, struct fsck_node_ref *r, int next)
{
	const struct f2fs_node *n;

	if (next < 0 || r->kind == NODE_DIRECT || (w->ctx->ni[r->nid].flags & FSCK_NI_NODE))
		return false;
	n = fsck_shared_rebuild_inner(w, r);
	if (!n)
		return false;
	w->ctx->ni[r->nid].flags |= FSCK_NI_NODE;
	fsck_fix_owner(w->ctx, r->nid, w->file.ino);
	r->addr = NULL_ADDR;
	visit_children(w, r, n, next);
	return true;
}

/* Resolve a child nid through NAT; false if it cannot be read.  next: the
 * level its children go to (-1 for the xattr node). */
static bool resolve_ref(struct fsck_walk *w, struct fsck_node_ref *r, int next)
{
	struct fsck_ctx *ctx = w->ctx;
	struct f2fs_nat_entry e;
	uint32_t ino = w->file.ino;

	if (r->nid < F2FS_RESERVED_NODE_NUM || r->nid >= ctx->fs->max_nid) {
		if (fsck_problem(ctx, PR_NODE_NID_INVALID, FSCK_OBJ(.ino = ino, .nid = r->nid,
			    .str = kind_name(r->kind))))
			drop_ref(w, r, false);
		return false;
	}
	if (fsck_nat_lookup(ctx, r->nid, &e) && le32_to_cpu(e.block_addr) == NULL_ADDR &&
	    fsck_nat_restore(ctx, r->nid, ino, r->ofs))
		fsck_nat_lookup(ctx, r->nid, &e);	/* its lost entry, taken back */
	if (!fsck_nat_lookup(ctx, r->nid, &e) || le32_to_cpu(e.block_addr) == NULL_ADDR) {
		if (fsck_problem(ctx, PR_NODE_NAT_NULL, FSCK_OBJ(.ino = ino, .nid = r->nid,
			    .str = kind_name(r->kind)))) {
			if (!visit_rebuilt(w, r, next))
				drop_ref(w, r, false);
		}
		return false;
	}
	if (ctx->ni[r->nid].flags & FSCK_NI_NODE) {
		if (fsck_problem(ctx, PR_NODE_DUP, FSCK_OBJ(.nid = r->nid, .ino = ino)))
			drop_ref(w, r, false);
		return false;
	}
	ctx->ni[r->nid].flags |= FSCK_NI_NODE;
	if (le32_to_cpu(e.ino) != ino)
		fsck_problem(ctx, PR_NODE_NAT_INO, FSCK_OBJ(.nid = r->nid, .found = le32_to_cpu(e.ino),
			    .expected = ino));
	r->addr = le32_to_cpu(e.block_addr);
	if (!fsck_addr_in_main(ctx, r->addr)) {
		drop_ref(w, r, true);	/* its NAT entry is cleared */
		return false;	/* reported by the NAT pass */
	}
	return true;
}

/* Footer checks shared by every non-inode node; false to skip content. */
static bool check_footer(struct fsck_walk *w, const struct fsck_node_ref *r,
			 const struct f2fs_node *n, uint32_t want_ofs, const char *what)
{
	uint32_t nid = r->nid, addr = r->addr;
	struct fsck_ctx *ctx = w->ctx;
	uint32_t fnid = le32_to_cpu(n->footer.nid), fino = le32_to_cpu(n->footer.ino);
	uint32_t ofs = le32_to_cpu(n->footer.flag) >> OFFSET_BIT_SHIFT;

	if (fnid != nid) {
		if (fsck_problem(ctx, PR_NODE_FOOTER_NID, FSCK_OBJ(.nid = nid, .blkaddr = addr, .found = fnid))) {
			drop_ref(w, r, true);
			if (r->kind == NODE_DIRECT && r->parent_is_inode != 2)
				fsck_shared_lost_dnode(w, r);
		}
		return false;
	}
	if (fino == fnid) {
		if (fsck_problem(ctx, PR_NODE_UNEXPECTED_INODE, FSCK_OBJ(.nid = nid, .ino = w->file.ino,
			    .blkaddr = addr, .str = what)))
			drop_ref(w, r, true);
		return false;
	}
	if (ofs != want_ofs) {
		if (fsck_problem(ctx, PR_NODE_FOOTER_OFS, FSCK_OBJ(.nid = nid, .blkaddr = addr,
			    .found = ofs, .expected = want_ofs)))
			drop_ref(w, r, true);
		return false;
	}
	if (fino != w->file.ino) {
		struct f2fs_node *c;

		if (fsck_problem(ctx, PR_NODE_FOOTER_INO, FSCK_OBJ(.nid = nid, .blkaddr = addr,
				 .found = fino, .expected = w->file.ino)) &&
		    (c = fsck_fix_node(ctx, nid, addr, n)))
			c->footer.ino = cpu_to_le32(w->file.ino);
	}
	fsck_fix_owner(ctx, nid, w->file.ino);
	return true;
}

static void visit_node(struct fsck_walk *w, const struct fsck_node_ref *r,
		       const struct f2fs_node *n, int next)
{
	struct fsck_file *f = &w->file;
	const struct f2fs_node *rebuilt = NULL;

	if (r->kind != NODE_DIRECT && le32_to_cpu(n->footer.nid) != r->nid)
		rebuilt = fsck_shared_rebuild_inner(w, r);
	if (rebuilt) {
		/* its old block is left to SIT: the new node goes out of place */
		fsck_problem(w->ctx, PR_NODE_FOOTER_NID, FSCK_OBJ(.nid = r->nid, .blkaddr = r->addr,
			    .found = le32_to_cpu(n->footer.nid)));
		fsck_fix_owner(w->ctx, r->nid, f->ino);
		n = rebuilt;
	} else if (!check_footer(w, r, n, r->ofs, kind_name(r->kind))) {
		return;
	} else if (!mark_block(w, r->addr, true, 0, r->nid, 0)) {
		drop_ref(w, r, true);
		return;
	}
	visit_children(w, r, n, next);
}

/* Count node r (its block n) and walk what it maps: data slots, or child
 * nodes pushed to level next. */
static void visit_children(struct fsck_walk *w, const struct fsck_node_ref *r,
			   const struct f2fs_node *n, int next)
{
	struct fsck_file *f = &w->file;
	const uint32_t N = NIDS_PER_BLOCK;

	f->counted++;
	f->nodes++;
	w->ctx->st.nodes++;
	{
		const struct f2fs_node *fixed = fsck_fix_node_peek(w->ctx, r->nid);

		if (fixed)
			n = fixed;
	}
	w->cur_node = n;
	w->cur_nid = r->nid;
	w->cur_addr = r->addr;
	if (r->kind == NODE_DIRECT) {
		handle_data_slots(w, r->nid, (const uint8_t *)n + offsetof(struct direct_node, addr),
				  f->addrs_per_block, r->fofs);
		return;
	}
	for (uint32_t j = 0; j < N; j++) {
		uint32_t child = le32_to_cpu(n->in.nid[j]);

		if (!child)
			continue;
		if (r->kind == NODE_INDIRECT) {
			if (push_ref(w, next, child, r->ofs + 1 + j, NODE_DIRECT,
				     r->fofs + (uint64_t)j * f->addrs_per_block, r, (uint16_t)j))
				w->err = -ENOMEM;
		} else {
			if (push_ref(w, next, child, r->ofs + 1 + j * (N + 1), NODE_INDIRECT,
				     r->fofs + (uint64_t)j * N * f->addrs_per_block, r, (uint16_t)j))
				w->err = -ENOMEM;
		}
	}
}

static int cmp_ref_addr(const void *a, const void *b)
{
	const struct fsck_node_ref *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Fetch and visit one level of refs (in chunks, address order). */
static void walk_level(struct fsck_walk *w, int cur)
{
	struct fsck_node_ref *refs = w->lvl[cur];
	uint32_t n = 0, addrs[FSCK_BATCH];
	const uint8_t *blk[FSCK_BATCH];

	for (uint32_t i = 0; i < w->lvl_n[cur]; i++)
		if (resolve_ref(w, &refs[i], !cur))
			refs[n++] = refs[i];
	qsort(refs, n, sizeof(*refs), cmp_ref_addr);
	for (uint32_t first = 0; first < n && !w->err; first += FSCK_BATCH) {
		uint32_t cnt = n - first < FSCK_BATCH ? n - first : FSCK_BATCH;

		for (uint32_t i = 0; i < cnt; i++)
			addrs[i] = refs[first + i].addr;
		w->err = fsck_walk_buf(w, &w->nbuf) ?
			 fsck_read_sorted(w, addrs, cnt, w->nbuf, blk) : -ENOMEM;
		for (uint32_t i = 0; i < cnt && !w->err; i++)
			visit_node(w, &refs[first + i], (const struct f2fs_node *)blk[i], !cur);
	}
	w->lvl_n[cur] = 0;
}

static void walk_tree(struct fsck_walk *w, const struct f2fs_inode *ri)
{
	struct fsck_file *f = &w->file;
	const uint32_t N = NIDS_PER_BLOCK;
	uint64_t A = f->addrs_per_inode, B = f->addrs_per_block;
	const uint64_t base[5] = { A, A + B, A + 2 * B, A + 2 * B + N * B,
				   A + 2 * B + 2 * (uint64_t)N * B };
	const uint32_t ofs[5] = { 1, 2, 3, N + 4, 2 * N + 5 };
	const uint8_t kind[5] = { NODE_DIRECT, NODE_DIRECT, NODE_INDIRECT, NODE_INDIRECT,
				  NODE_DINDIRECT };
	int cur = 0;

	for (int i = 0; i < DEF_NIDS_PER_INODE; i++) {
		uint32_t nid = le32_to_cpu(ri->i_nid[i]);

		if (nid && push_ref(w, 0, nid, ofs[i], kind[i], base[i], NULL, (uint16_t)i))
			w->err = -ENOMEM;
	}
	while (w->lvl_n[cur] && !w->err) {
		walk_level(w, cur);
		cur = !cur;
	}
	w->lvl_n[0] = w->lvl_n[1] = 0;
}

/* ---- one inode ---- */

static void walk_xattr_node(struct fsck_walk *w, const struct f2fs_node *inode)
{
	struct fsck_ctx *ctx = w->ctx;
	uint32_t xnid = le32_to_cpu(inode->i.i_xattr_nid);
	struct fsck_node_ref r = { .nid = xnid, .ofs = XATTR_NODE_OFFSET, .kind = NODE_DIRECT,
				   .parent_nid = w->file.ino, .parent_addr = w->inode_addr,
				   .parent_is_inode = 2 };
	uint8_t buf[F2FS_BLKSIZE];
	const struct f2fs_node *x = (const void *)buf;

	if (xnid == 0 || xnid == w->file.ino || xnid >= ctx->fs->max_nid ||
	    xnid < F2FS_RESERVED_NODE_NUM) {
		fsck_check_xattrs(w, inode, NULL);
		return;
	}
	if (!resolve_ref(w, &r, -1)) {
		fsck_check_xattrs(w, inode, NULL);
		return;
	}
	w->err = f2fs_dev_read(ctx->fs->dev, r.addr, 1, buf);
	if (w->err)
		return;
	if (!check_footer(w, &r, x, XATTR_NODE_OFFSET, "xattr")) {
		fsck_check_xattrs(w, inode, NULL);
		return;
	}
	if (mark_block(w, r.addr, true, 0, xnid, 0)) {
		w->file.counted++;
		w->file.nodes++;
		ctx->st.nodes++;
	} else {
		drop_ref(w, &r, true);
		fsck_check_xattrs(w, inode, NULL);
		return;
	}
	w->xnid = xnid;
	w->xaddr = r.addr;
	if (fsck_fix_node_peek(ctx, xnid))
		x = fsck_fix_node_peek(ctx, xnid);
	fsck_check_xattrs(w, inode, x);
	w->xnid = 0;
}

/* Whether the root keeps its entries inline and owns no block besides its
 * inode block (no xattr node either).  f2fs_iget() gives the VFS inode
 * i_blocks minus that inode block, and f2fs_fill_super() refuses a root
 * whose VFS i_blocks is 0: the volume does not mount.  Only the root is
 * held to this; any other inline directory is fine. */
static bool root_owns_nothing(const struct fsck_file *f, const struct f2fs_inode *ri)
{
	return f->ino == F2FS_ROOT_INO && f->is_dir && (ri->i_inline & F2FS_INLINE_DENTRY) &&
	       f->counted <= 1;
}

/* A symlink's target in its first block (read here: symlinks mapped by a
 * block are few), which i_size must not cut. */
static void check_block_symlink(struct fsck_walk *w, const struct f2fs_inode *ri)
{
	struct fsck_ctx *ctx = w->ctx;
	const struct f2fs_node *fixed = fsck_fix_node_peek(ctx, w->file.ino);
	const struct f2fs_inode *cur = fixed ? &fixed->i : ri;
	uint32_t addr;
	_Alignas(F2FS_BLKSIZE) uint8_t blk[F2FS_BLKSIZE];

	if (w->file.extra_words >= DEF_ADDRS_PER_INODE)
		return;
	addr = le32_to_cpu(cur->i_addr[w->file.extra_words]);
	if (!fsck_addr_in_main(ctx, addr) || !fsck_bit(ctx->reach, addr - ctx->fs->main_blkaddr) ||
	    f2fs_dev_read(ctx->fs->dev, addr, 1, blk) != 0)
		return;
	(void)fsck_symlink_size_fix(w, w->file.ino, ri, blk, F2FS_BLKSIZE - 1);
}

void fsck_check_sizes(struct fsck_walk *w, const struct f2fs_inode *ri)
{
	struct fsck_ctx *ctx = w->ctx;
	struct fsck_file *f = &w->file;
	uint64_t iblocks = le64_to_cpu(ri->i_blocks);
	bool inl = ri->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY);

	struct f2fs_node *c;

	if (iblocks && iblocks != f->counted)
		fsck_problem(ctx, PR_INODE_BLOCKS, FSCK_OBJ(.ino = f->ino, .found = iblocks,
			    .expected = f->counted));
	if (iblocks != f->counted && f->counted) {
		c = fsck_fix_node(ctx, f->ino, w->inode_addr, w->inode);
		if (c)
			c->i.i_blocks = cpu_to_le64(f->counted);
	}
	/* a pinned file keeps whole sections: fallocate rounds its blocks
	 * up to the section and sets i_size to the range asked for
	 * (f2fs_expand_inode_data()) */
	if (!inl && !f->is_dir && S_ISREG(f->mode) && !f->keep_size && !f->verity &&
	    !f->compressed && !f->pinned && f->last_data &&
	    (f->last_data - 1) * F2FS_BLKSIZE >= f->i_size) {
		if (fsck_problem(ctx, PR_INODE_SIZE, FSCK_OBJ(.ino = f->ino, .found = f->i_size,
				 .expected = f->last_data - 1)) &&
		    (c = fsck_fix_node(ctx, f->ino, w->inode_addr, w->inode)))
			c->i.i_size = cpu_to_le64(f->last_data * F2FS_BLKSIZE);
	}
	if (!inl && S_ISLNK(f->mode) && !f->compressed && f->i_size < F2FS_BLKSIZE - 1)
		check_block_symlink(w, ri);
	if (f->ino == F2FS_ROOT_INO && f->is_dir && !f->i_size) {
		/* reported by check_item(): what mkdir and mkfs give it */
		c = fsck_fix_node(ctx, f->ino, w->inode_addr, w->inode);
		if (c)
			c->i.i_size = cpu_to_le64(inl ? 4 * (uint64_t)(f->addrs_per_inode - 1) :
						  (f->last_data ? f->last_data : 1) * F2FS_BLKSIZE);
	}
	if (root_owns_nothing(f, ri)) {
		if (fsck_problem(ctx, PR_ROOT_INLINE, FSCK_OBJ(.ino = f->ino)))
			fsck_fix_root_uninline(ctx);
	}
	if (f->ext_len && (f->ext_mismatch || f->ext_match != f->ext_len)) {
		if (fsck_problem(ctx, PR_INODE_EXTENT, FSCK_OBJ(.ino = f->ino, .blkaddr = f->ext_blk,
				 .str = "does not match the block mapping")) &&
		    (c = fsck_fix_node(ctx, f->ino, w->inode_addr, w->inode)))
			memset(&c->i.i_ext, 0, sizeof(c->i.i_ext));
	} else if (f->ext_len && f->ext_dropped) {
		/* part of the fix that dropped a slot inside it */
		c = fsck_fix_node(ctx, f->ino, w->inode_addr, w->inode);
		if (c)
			memset(&c->i.i_ext, 0, sizeof(c->i.i_ext));
	}
}

static void count_inode_type(struct fsck_ctx *ctx, uint16_t mode)
{
	if (S_ISDIR(mode))
		ctx->st.dirs++;
	else if (S_ISREG(mode))
		ctx->st.files++;
	else if (S_ISLNK(mode))
		ctx->st.symlinks++;
	else
		ctx->st.specials++;
}

/* Checks that need the item (how the inode was reached). */
static void check_item(struct fsck_walk *w, const struct fsck_item *it,
		       const struct f2fs_inode *ri)
{
	struct fsck_ctx *ctx = w->ctx;
	struct fsck_file *f = &w->file;

	/* An entry's type must be the inode's; 0 (unknown) is never written
	 * by the kernel for an inode with a valid mode.  Items that no entry
	 * named (orphans, lost inodes) carry no type to compare. */
	if ((it->ftype != F2FS_FT_UNKNOWN || (it->kind == ITEM_NS && it->loc.dir_ino)) &&
	    it->ftype != f->ftype && f->ftype != F2FS_FT_UNKNOWN) {
		if (fsck_problem(ctx, PR_DENT_FTYPE, FSCK_OBJ(.ino = it->ino,
				 .path = fsck_pname_path(it->pn), .found = it->ftype,
				 .expected = f->ftype, .str = fsck_pname_path(it->pn))) &&
		    it->kind == ITEM_NS && it->loc.dir_ino)
			fsck_fix_dentry(ctx, &it->loc, NULL, FSCK_DENT_FTYPE, f->ftype);
	}
	/* f2fs_fill_super() refuses a root without i_size (or i_blocks,
	 * which fsck_check_sizes() sets); i_links is counted like any other */
	if (it->ino == F2FS_ROOT_INO && it->kind == ITEM_NS && f->is_dir && !le64_to_cpu(ri->i_size))
		fsck_problem(ctx, PR_ROOT_NOT_DIR, FSCK_OBJ(.ino = it->ino, .str = "zero size"));
	if (it->kind == ITEM_QUOTA && !S_ISREG(f->mode))
		fsck_problem(ctx, PR_QUOTA_INODE, FSCK_OBJ(.ino = it->ino, .idx = it->idx,
			    .str = "not a regular file"));
	if (f->is_dir && it->kind == ITEM_NS && fsck_item_parent(it) != it->ino &&
	    fsck_subdirs_add(ctx, fsck_item_parent(it)))
		w->err = -ENOMEM;
}

/* Whether the kernel maps blocks through i_addr and i_nid for an inode
 * of this mode.  Device nodes keep their device number in the first
 * address words (__get_inode_rdev()), and neither they nor FIFOs and
 * sockets are ever given blocks or truncated (f2fs_truncate() returns
 * early for them), so their address words are not block addresses.  An
 * invalid mode is walked like a file: the repair gives it the type its
 * entry names. */
static bool inode_has_blocks(uint16_t mode)
{
	return !S_ISCHR(mode) && !S_ISBLK(mode) && !S_ISFIFO(mode) && !S_ISSOCK(mode);
}

/* Whether the summary of block addr names nid: its SSA entry, or for a
 * current segment the checkpoint's summary (a node log whose pack has no
 * node summaries is rebuilt by the kernel from the footers: it does). */
static bool summary_names(struct fsck_ctx *ctx, uint32_t addr, uint32_t nid)
{
	uint32_t segno = f2fs_blkaddr_to_segno(ctx->fs, addr);
	uint32_t off = (addr - ctx->fs->main_blkaddr) % BLKS_PER_SEG;
	struct f2fs_summary_block *sum = malloc(sizeof(*sum));
	bool node, named = true;	/* true when it cannot tell */

	if (sum && segment_summary(ctx, segno, sum, &node))
		named = le32_to_cpu(sum->entries[off].nid) == nid;
	free(sum);
	return named;
}

/* Why an inode block that passed the footer checks cannot be taken, or
 * NULL.  A block SIT has free in a segment of data blocks never held a
 * node the kernel wrote; taking it would count a node that the repaired
 * SIT cannot hold (mark_block() gives such a block back), leaving the
 * checkpoint's node count and SIT's apart.  A block SIT has free whose
 * summary names another node is not this inode's either: the NAT entry
 * that leads to it is what broke. */
static const char *inode_block_refused(struct fsck_ctx *ctx, uint32_t ino, uint32_t addr)
{
	uint32_t segno = f2fs_blkaddr_to_segno(ctx->fs, addr);

	if (!ctx->sit_loaded || fsck_sit_valid(ctx, addr))
		return NULL;
	if (ctx->sit.segs[segno].valid_blocks && !seg_holds_nodes(ctx, segno))
		return "it lies free in a segment of data blocks";
	if (!summary_names(ctx, addr, ino))
		return "SIT has it free and its summary names another node";
	return NULL;
}

/* The root inode cannot be used: said once, and the repair makes a new
 * root and gives back the names its dentry blocks still hold (fsck_lpf.c);
 * what hangs from it is found as unreachable inodes meanwhile. */
static void root_unusable(struct fsck_walk *w, const char *why)
{
	if (w->root_refused)
		return;
	w->root_refused = true;
	if (fsck_problem(w->ctx, PR_ROOT_NOT_DIR, FSCK_OBJ(.ino = F2FS_ROOT_INO, .str = why)))
		fsck_fix_root(w->ctx);
}

/* An intact root inode of a type other than a directory: the kernel
 * refuses to mount (f2fs_fill_super() wants S_ISDIR).  Its blocks are
 * not walked as a file's: the new root takes back the names in them. */
static bool root_not_dir(struct fsck_walk *w, const struct fsck_item *it, const struct f2fs_inode *ri)
{
	uint16_t mode = le16_to_cpu(ri->i_mode);

	if (it->ino != F2FS_ROOT_INO || it->kind != ITEM_NS || S_ISDIR(mode) ||
	    fsck_mode_to_ftype(mode) == F2FS_FT_UNKNOWN)
		return false;	/* an invalid mode gets its entry's type (fix_mode) */
	root_unusable(w, "not a directory");
	return true;
}

/* Which of the footer's nid, ino and node offset are not those of inode
 * ino's block: a bit each. */
static unsigned int footer_faults(const struct f2fs_node *n, uint32_t ino)
{
	return (le32_to_cpu(n->footer.nid) != ino ? 1u : 0u) |
	       (le32_to_cpu(n->footer.ino) != ino ? 2u : 0u) |
	       ((le32_to_cpu(n->footer.flag) >> OFFSET_BIT_SHIFT) != 0 ? 4u : 0u);
}

/* The block NAT gives inode ino, whose footer alone is damaged: one of its
 * nid, ino and offset is wrong, the others are ino's inode's, the summary
 * of the block names ino, and the mode is a valid one; with inode
 * checksums, the checksum holds once the footer is ino's (it covers the
 * footer).  The kernel refuses the block as it is (nid_of_node(),
 * ino_of_node() and IS_INODE() are checked when it reads an inode): the
 * footer is written back, and the walk goes on with the block.  NULL when
 * the block is not that. */
static const struct f2fs_node *restore_footer(struct fsck_walk *w, const struct fsck_item *it,
					      const struct f2fs_node *n)
{
	struct fsck_ctx *ctx = w->ctx;
	unsigned int faults = footer_faults(n, it->ino);
	struct f2fs_node *c;

	if ((faults != 1 && faults != 2 && faults != 4) ||
	    !fsck_mode_to_ftype(le16_to_cpu(n->i.i_mode)) || !summary_names(ctx, it->addr, it->ino))
		return NULL;
	if (!w->footer_buf && !(w->footer_buf = malloc(sizeof(*w->footer_buf)))) {
		w->err = -ENOMEM;
		return NULL;
	}
	c = w->footer_buf;
	memcpy(c, n, sizeof(*c));
	c->footer.nid = cpu_to_le32(it->ino);
	c->footer.ino = cpu_to_le32(it->ino);
	c->footer.flag = cpu_to_le32(le32_to_cpu(c->footer.flag) & OFFSET_BIT_MASK);
	if (f2fs_inode_has_checksum(ctx->fs->features, c) &&
	    f2fs_inode_checksum(ctx->fs->inode_chksum_seed, c) != le32_to_cpu(c->i.i_inode_checksum))
		return NULL;
	if (!fsck_problem(ctx, PR_INODE_FOOTER, FSCK_OBJ(.ino = it->ino, .blkaddr = it->addr,
			  .str = faults == 1 ? "footer nid" : faults == 2 ? "footer ino" : "node offset")))
		return c;
	return fsck_fix_node(ctx, it->ino, it->addr, c);
}

static void check_inode(struct fsck_walk *w, const struct fsck_item *it, const struct f2fs_node *n)
{
	struct fsck_ctx *ctx = w->ctx;
	struct fsck_nid_info *ni = &ctx->ni[it->ino];
	const struct f2fs_inode *ri = &n->i;
	uint32_t fnid = le32_to_cpu(n->footer.nid), fino = le32_to_cpu(n->footer.ino);
	const char *why;

	if (footer_faults(n, it->ino)) {
		const struct f2fs_node *fixed = restore_footer(w, it, n);

		if (fixed) {
			n = fixed;
			ri = &n->i;
			fnid = fino = it->ino;
		}
	}
	if (fnid != it->ino) {
		fsck_problem(ctx, PR_NODE_FOOTER_NID, FSCK_OBJ(.nid = it->ino, .blkaddr = it->addr,
			    .found = fnid));
		drop_item_dentry(w, it);
		return;
	}
	if (fino != fnid || (le32_to_cpu(n->footer.flag) >> OFFSET_BIT_SHIFT) != 0) {
		fsck_problem(ctx, PR_NODE_NOT_INODE, FSCK_OBJ(.ino = it->ino, .blkaddr = it->addr,
			    .str = fino != fnid ? "footer ino differs from nid" : "non-zero node offset"));
		drop_item_dentry(w, it);
		return;
	}
	why = inode_block_refused(ctx, it->ino, it->addr);
	if (why) {
		fsck_problem(ctx, PR_NODE_NOT_INODE, FSCK_OBJ(.ino = it->ino, .blkaddr = it->addr,
			    .str = why));
		drop_item_dentry(w, it);
		return;
	}
	if (root_not_dir(w, it, ri))
		return;
	ni->flags |= FSCK_NI_NODE | FSCK_NI_INODE;
	if (it->kind == ITEM_ORPHAN)
		ni->flags |= FSCK_NI_ORPHAN;
	if (it->kind == ITEM_QUOTA)
		ni->flags |= FSCK_NI_QUOTA;
	if (it->kind == ITEM_LOST)
		ni->flags |= FSCK_NI_LOST;
	if (ctx->opt.tree && it->pn && fsck_pname_path(it->pn))
		fprintf(ctx->out, "%u\t%s\n", it->ino, fsck_pname_path(it->pn));
	w->inode = n;
	w->inode_addr = it->addr;
	if (!fsck_check_inode_fields(w, it, n, it->addr) && !fsck_fix_node_peek(ctx, it->ino))
		return;
	if (fsck_fix_node_peek(ctx, it->ino)) {
		/* fixes were made: go on with the fixed copy */
		bool ok;

		n = fsck_fix_node_peek(ctx, it->ino);
		ri = &n->i;
		w->inode = n;
		ctx->muted = true;
		ok = fsck_check_inode_fields(w, it, n, it->addr);
		ctx->muted = false;
		if (!ok)
			return;
	}
	fsck_fix_owner(ctx, it->ino, it->ino);
	w->cur_node = n;
	w->cur_nid = it->ino;
	w->cur_addr = it->addr;
	ni->ftype = w->file.ftype;
	ni->mode_read = 1;
	ni->i_links = le32_to_cpu(ri->i_links);
	if (w->file.is_dir)
		ni->flags |= FSCK_NI_DIR;
	ctx->st.inodes++;
	count_inode_type(ctx, w->file.mode);
	mark_block(w, it->addr, true, 0, it->ino, 0);
	w->file.counted = 1;
	w->file.nodes = 1;
	ctx->st.nodes++;
	check_item(w, it, ri);
	w->qtype = it->kind == ITEM_QUOTA ? it->idx + 1 : 0;
	w->dent_n = 0;
	if (!(ri->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY)) &&
	    inode_has_blocks(w->file.mode)) {
		handle_data_slots(w, it->ino, (const uint8_t *)ri + offsetof(struct f2fs_inode, i_addr) +
				  (size_t)w->file.extra_words * 4, w->file.addrs_per_inode, 0);
	}
	if (inode_has_blocks(w->file.mode))
		walk_tree(w, ri);
	w->cur_node = NULL;
	walk_xattr_node(w, n);
	if (fsck_fix_node_peek(ctx, it->ino)) {
		/* the checks of its names go by the fixed flags (encryption) */
		n = fsck_fix_node_peek(ctx, it->ino);
		ri = &n->i;
	}
	fsck_check_sizes(w, ri);
	if (w->qtype)
		fsck_quota_note_inode(ctx, w->qtype - 1, &w->file, it->addr);
	else
		fsck_quota_charge(ctx, it->ino, ri, w->file.counted);
	w->qtype = 0;
	if (w->err)
		return;
	fsck_recheck_note(ctx, it, &w->file);
	if (w->file.is_dir && (ri->i_inline & F2FS_INLINE_DENTRY))
		fsck_check_inline_dir(w, it, n);
	else if (w->file.is_dir)
		fsck_check_dir_blocks(w, it, ri);
}

/* ---- the stack loop ---- */

static int cmp_item_ino_desc(const void *a, const void *b)
{
	const struct fsck_item *x = a, *y = b;

	return x->ino < y->ino ? 1 : x->ino > y->ino ? -1 : 0;
}

/* Directory entries come in hash order; the children a batch of
 * directories pushed are sorted by descending inode number instead, so the
 * next batches pop them in ascending order.  Inode numbers are handed out
 * in creation order, and so are node blocks: a batch is then one stretch
 * of the node area, not 256 blocks scattered over it, and the walk moves
 * up the node area in the order its blocks were announced. */
static uint32_t item_ino_desc_key(const void *a)
{
	return ~((const struct fsck_item *)a)->ino;
}

/* Pairs of sort scratch kept from one batch to the next (256 KiB). */
#define SORT_SCRATCH_KEEP	32768u

static void sort_children(struct fsck_walk *w, uint32_t first)
{
	struct fsck_item *c = w->stack + first;
	uint32_t n = w->n - first;

	f2fs_warm_stop(&w->warm_sort);
	if (n > 1 && f2fs_array_sort_by_key_in(&w->sort_scratch, c, n, sizeof(*c),
					       item_ino_desc_key, NULL))
		f2fs_array_sort(c, n, sizeof(*c), cmp_item_ino_desc);
	/* the seen names' sort came just before, the next large ones are a
	 * large directory away: the peak memory keeps no large scratch */
	if (w->sort_scratch.cap > SORT_SCRATCH_KEEP)
		f2fs_sort_scratch_free(&w->sort_scratch);
}

/* Whether the walk can read inode ino's block, and if not why; the
 * walk's batches (resolve_item) and the prediction of the next ones
 * (next_batch_addrs) ask the same.  Reports nothing. */
enum inode_block {
	INODE_BLOCK_OK,		/* *e holds its NAT entry */
	INODE_BLOCK_NO_NAT,	/* no NAT entry, or one without an address */
	INODE_BLOCK_OUTSIDE,	/* an address outside main (the NAT pass says so) */
	INODE_BLOCK_SEEN,	/* walked already as a node */
};

static enum inode_block lookup_inode_block(const struct fsck_ctx *ctx, uint32_t ino,
					   struct f2fs_nat_entry *e)
{
	if (!fsck_nat_lookup(ctx, ino, e) || le32_to_cpu(e->block_addr) == NULL_ADDR)
		return INODE_BLOCK_NO_NAT;
	if (!fsck_addr_in_main(ctx, le32_to_cpu(e->block_addr)))
		return INODE_BLOCK_OUTSIDE;
	if (ctx->ni[ino].flags & FSCK_NI_NODE)
		return INODE_BLOCK_SEEN;
	return INODE_BLOCK_OK;
}

static bool resolve_item(struct fsck_walk *w, struct fsck_item *it)
{
	struct fsck_ctx *ctx = w->ctx;
	struct f2fs_nat_entry e;

	switch (lookup_inode_block(ctx, it->ino, &e)) {
	case INODE_BLOCK_OK:
		break;
	case INODE_BLOCK_NO_NAT:
		if (it->kind == ITEM_ORPHAN)
			fsck_problem(ctx, PR_CP_ORPHAN_INO, FSCK_OBJ(.ino = it->ino, .str = "not in use"));
		else if (it->kind == ITEM_QUOTA)
			fsck_problem(ctx, PR_QUOTA_INODE, FSCK_OBJ(.ino = it->ino, .idx = it->idx,
				    .str = "not in use"));
		else if (it->ino == F2FS_ROOT_INO)
			root_unusable(w, "no NAT entry");
		else
			fsck_problem(ctx, PR_NODE_NAT_NULL, FSCK_OBJ(.ino = it->ino, .nid = it->ino,
				    .path = fsck_pname_path(it->pn), .str = "inode"));
		drop_item_dentry(w, it);
		return false;
	case INODE_BLOCK_OUTSIDE:
		drop_item_dentry(w, it);
		return false;	/* reported by the NAT pass */
	case INODE_BLOCK_SEEN:
		fsck_problem(ctx, PR_NODE_DUP, FSCK_OBJ(.nid = it->ino, .ino = it->ino));
		drop_item_dentry(w, it);
		return false;
	}
	if (le32_to_cpu(e.ino) != it->ino)	/* the root, orphans, quota: no entry names them */
		fsck_nat_fix_inode_owner(ctx, it->ino);
	it->addr = le32_to_cpu(e.block_addr);
	return true;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static uint32_t u32_key(const void *a)
{
	return *(const uint32_t *)a;
}

/* The addresses batch `ahead` (0: the next one) reads if nothing is
 * pushed meanwhile: the stack's items as walk_stack() will pop them,
 * sorted; 0 when a batch before it holds a directory (it may push) or one
 * of its items would not resolve (it is read the usual way). */
static uint32_t next_batch_addrs(struct fsck_walk *w, uint32_t ahead, uint32_t *addrs)
{
	uint32_t top = w->n;

	for (uint32_t b = 0; b <= ahead; b++) {
		uint32_t n = 0, dirs = 0, cnt = top < FSCK_BATCH ? top : FSCK_BATCH, i;

		if (b == ahead)	/* their look-ups below: the misses at once */
			for (i = 0; i < cnt; i++)
				fsck_prefetch_nid(w->ctx, w->stack[top - 1 - i].ino);
		for (i = 0; i < cnt && dirs < FSCK_BATCH_DIRS_POP; i++) {
			const struct fsck_item *it = &w->stack[top - 1 - i];
			struct f2fs_nat_entry e;

			dirs += it->ftype == F2FS_FT_DIR;
			if (b < ahead)
				continue;
			if (lookup_inode_block(w->ctx, it->ino, &e) != INODE_BLOCK_OK)
				return 0;
			addrs[n++] = le32_to_cpu(e.block_addr);
		}
		if (b < ahead && dirs)
			return 0;
		top -= i;
		if (b == ahead) {
			if (f2fs_array_sort_by_key(addrs, n, sizeof(*addrs), u32_key, NULL))
				qsort(addrs, n, sizeof(*addrs), cmp_u32);
			return n;
		}
	}
	return 0;
}

/* An item put back by batch_cut() keeps its address: taken again as it
 * is while NAT still gives that address and the inode is unseen (its
 * resolve_item() reported what it had to the first time), else resolved
 * anew. */
static bool take_item(struct fsck_walk *w, struct fsck_item *it)
{
	struct f2fs_nat_entry e;

	if (it->addr && lookup_inode_block(w->ctx, it->ino, &e) == INODE_BLOCK_OK &&
	    le32_to_cpu(e.block_addr) == it->addr)
		return true;
	it->addr = 0;
	return resolve_item(w, it);
}

/* Entries a directory whose inode block is blk can queue, for the batch's
 * budget: an inline one at most its slots, any other an eighth of the
 * budget.  The block is not checked yet: this only sizes the batch. */
static uint32_t dir_entry_cost(const uint8_t *blk)
{
	const struct f2fs_node *n = (const struct f2fs_node *)blk;

	if (n->i.i_inline & F2FS_INLINE_DENTRY)
		return f2fs_inline_dentry_slots(4 * (DEF_ADDRS_PER_INODE - 1));
	return FSCK_BATCH_ENTRIES / FSCK_BATCH_DIRS;
}

/* How many of the n items popped (cand, in pop order; pos[p] is item p's
 * place in the address-sorted blk) the batch keeps: up to the directory
 * after which less than a large directory's share of FSCK_BATCH_ENTRIES
 * is left, or all. */
static uint32_t batch_cut(const struct fsck_item *cand, const uint16_t *pos,
			  const uint8_t *const *blk, uint32_t n)
{
	uint32_t used = 0;

	for (uint32_t p = 0; p < n; p++) {
		if (cand[p].ftype != F2FS_FT_DIR)
			continue;
		used += dir_entry_cost(blk[pos[p]]);
		if (FSCK_BATCH_ENTRIES - used < FSCK_BATCH_ENTRIES / FSCK_BATCH_DIRS)
			return p + 1;
	}
	return n;
}

struct batch_order {
	uint32_t addr;
	uint16_t pop;	/* the item's place in pop order */
};

static uint32_t batch_order_key(const void *a)
{
	return ((const struct batch_order *)a)->addr;
}

static int cmp_batch_order(const void *a, const void *b)
{
	const struct batch_order *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->pop < y->pop ? -1 : x->pop > y->pop;
}

/* Items [keep, n) of cand go back on the stack, to be popped again in
 * the same order; the batch (address order) keeps the others. */
static uint32_t put_back(struct fsck_walk *w, const struct fsck_item *cand, uint32_t keep,
			 uint32_t n, const struct batch_order *ord, struct fsck_item *batch,
			 const uint8_t **blk)
{
	uint32_t m = 0;

	for (uint32_t p = n; p-- > keep;)
		w->stack[w->n++] = cand[p];	/* room: they were popped */
	for (uint32_t k = 0; k < n; k++) {
		if (ord[k].pop >= keep)
			continue;
		batch[m] = batch[k];
		blk[m++] = blk[k];
	}
	return m;
}

/* Pop the next batch off the stack into raw, in pop order: up to
 * FSCK_BATCH items, at most FSCK_BATCH_DIRS_POP directories among them. */
static uint32_t pop_batch(struct fsck_walk *w, struct fsck_item *raw)
{
	uint32_t n = 0, dirs = 0, cnt = w->n < FSCK_BATCH ? w->n : FSCK_BATCH;

	while (n < cnt && dirs < FSCK_BATCH_DIRS_POP) {
		raw[n] = w->stack[--w->n];
		dirs += raw[n++].ftype == F2FS_FT_DIR;
	}
	return n;
}

/* The walk: batches of inodes popped off the stack, each read in address
 * order and checked, which pushes the children of its directories.  A
 * batch holding a directory has the next one popped (and read ahead by a
 * worker) before it is checked, so that the next batch's reads overlap
 * this one's checks: the batch after it is then its children, and two
 * chains of batches take turns.  Not after batch_cut() put directories
 * back: the next batch would be those, and the stack would then hold the
 * children of all of them at once instead of a batch's budget.  The
 * batches depend only on the stack, never on the workers, so the order
 * is the same at any -j. */
static void walk_stack(struct fsck_walk *w)
{
	uint32_t next[FSCK_BATCH];
	struct fsck_item pend[FSCK_BATCH], cand[FSCK_BATCH], batch[FSCK_BATCH];
	struct batch_order ord[FSCK_BATCH];
	uint16_t pos[FSCK_BATCH];
	uint32_t addrs[FSCK_BATCH];
	const uint8_t *blk[FSCK_BATCH];
	uint32_t npend = 0;

	while ((w->n || npend) && !w->err) {
		uint32_t n = 0, dirs = 0, first, keep, popped;
		bool cut;

		popped = npend ? npend : pop_batch(w, pend);
		npend = 0;
		for (uint32_t p = 0; p < popped; p++)
			fsck_prefetch_nid(w->ctx, pend[p].ino);
		for (uint32_t p = 0; p < popped; p++) {
			dirs += pend[p].ftype == F2FS_FT_DIR;
			if (take_item(w, &pend[p]))
				cand[n++] = pend[p];
			else
				fsck_pname_put(pend[p].pn);
		}
		/* by address; items naming one block keep their pop order */
		for (uint32_t p = 0; p < n; p++)
			ord[p] = (struct batch_order){ .addr = cand[p].addr, .pop = (uint16_t)p };
		if (f2fs_array_sort_by_key(ord, n, sizeof(ord[0]), batch_order_key, NULL))
			qsort(ord, n, sizeof(ord[0]), cmp_batch_order);
		for (uint32_t k = 0; k < n; k++) {
			batch[k] = cand[ord[k].pop];
			pos[ord[k].pop] = (uint16_t)k;
			addrs[k] = batch[k].addr;
		}
		/* read ahead by a worker, or now by it and this thread at once */
		if (n && !fsck_prefetch_take(w, addrs, n, blk) &&
		    !(fsck_prefetch_inodes(w, addrs, n) && fsck_prefetch_take(w, addrs, n, blk)))
			w->err = fsck_read_sorted(w, addrs, n, w->ibuf, blk);
		if (w->err) {
			for (uint32_t p = 0; p < n; p++)
				fsck_pname_put(cand[p].pn);
			break;
		}
		keep = dirs >= FSCK_BATCH_DIRS ? batch_cut(cand, pos, blk, n) : n;
		cut = keep < n;
		if (cut)
			n = put_back(w, cand, keep, n, ord, batch, blk);
		dirs = 0;
		for (uint32_t k = 0; k < n; k++)
			dirs += batch[k].ftype == F2FS_FT_DIR;
		if (dirs && w->n && !cut) {
			/* it may push: the next batch is taken off first (not
			 * after a cut: that would be the directories put back,
			 * whose children would then all wait at once), its
			 * addresses read ahead by a worker, unless one is queued */
			uint32_t na = fsck_digest_pool(w) && !fsck_prefetch_queued(w) ?
				      next_batch_addrs(w, 0, next) : 0;

			npend = pop_batch(w, pend);
			(void)fsck_prefetch_inodes(w, next, na);
		} else if (dirs == 0 && fsck_digest_pool(w)) {
			/* it pushes nothing: the next batches are the stack's */
			for (uint32_t b = fsck_prefetch_queued(w); b < FSCK_PREFETCH_DEPTH; b++)
				if (!fsck_prefetch_inodes(w, next, next_batch_addrs(w, b, next)))
					break;
		}
		first = w->n;
		for (uint32_t i = 0; i < n; i++)
			__builtin_prefetch(batch[i].pn, 1);	/* put after its check */
		for (uint32_t i = 0; i < n; i++) {
			if (!w->err)
				check_inode(w, &batch[i], (const struct f2fs_node *)blk[i]);
			fsck_pname_put(batch[i].pn);
		}
		sort_children(w, first);
		fsck_progress(w->ctx, 4, w->ctx->st.inodes, le32_to_cpu(w->ctx->fs->cp->valid_inode_count));
	}
	for (uint32_t p = 0; p < npend; p++)
		fsck_pname_put(pend[p].pn);
}

/* ---- roots ---- */

static void push_roots(struct fsck_walk *w)
{
	struct fsck_ctx *ctx = w->ctx;
	struct fsck_pname *root = fsck_pname_root();

	if (!root || fsck_walk_push(w, F2FS_ROOT_INO, F2FS_FT_DIR, ITEM_NS, root)) {
		w->err = -ENOMEM;
		return;
	}
	if (ctx->fs->features & F2FS_FEATURE_QUOTA_INO) {
		for (int i = 0; i < F2FS_MAX_QUOTAS; i++) {
			uint32_t q = le32_to_cpu(ctx->fs->sb.qf_ino[i]);

			if (!q)
				continue;
			if (q < F2FS_RESERVED_NODE_NUM || q >= ctx->fs->max_nid ||
			    (ctx->ni[q].flags & FSCK_NI_QUEUED)) {
				w->quota_pending[i] = true;	/* walk_lost() looks for it */
				w->quota_bad[i] = q;
				continue;
			}
			if (!fsck_walk_push(w, q, F2FS_FT_REG_FILE, ITEM_QUOTA, NULL))
				w->stack[w->n - 1].idx = (uint16_t)i;
		}
	}
}

/* An orphan entry naming an inode the tree already reached.  The kernel's
 * recover_orphan_inode() clears its links and drops its last reference:
 * a named file or directory is truncated and freed (1037); the root and
 * the quota inodes are held by the mount, so the inode stays and the
 * recovery, and the mount, fail (1021).  The repair drops such entries
 * (only inodes walked as orphans keep theirs). */
static void report_reached_orphan(struct fsck_ctx *ctx, uint32_t i, uint32_t ino)
{
	const struct fsck_nid_info *ni = &ctx->ni[ino];

	if (ino == F2FS_ROOT_INO)
		fsck_problem(ctx, PR_CP_ORPHAN_INO, FSCK_OBJ(.idx = i, .ino = ino,
			    .str = "the root inode (the kernel's orphan recovery fails the mount)"));
	else if (ni->flags & FSCK_NI_QUOTA)
		fsck_problem(ctx, PR_CP_ORPHAN_INO, FSCK_OBJ(.idx = i, .ino = ino,
			    .str = "a quota inode (the kernel's orphan recovery fails the mount)"));
	else if ((ni->flags & FSCK_NI_INODE) && ni->links_found)
		fsck_problem(ctx, PR_CP_ORPHAN_LIVE, FSCK_OBJ(.ino = ino, .found = ni->links_found));
}

static int cmp_orphan_slot(const void *a, const void *b)
{
	const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Which orphan entries repeat an earlier one: the kernel's recovery frees
 * the inode at its first entry, and its second iget finds no inode
 * (-ENOENT), which fails the mount.  NULL when out of memory. */
static bool *repeated_orphans(const struct fsck_ctx *ctx)
{
	uint64_t *keys = malloc(((size_t)ctx->n_orphans + 1) * sizeof(*keys));
	bool *rep = calloc((size_t)ctx->n_orphans + 1, sizeof(*rep));

	if (!keys || !rep) {
		free(keys);
		free(rep);
		return NULL;
	}
	for (uint32_t i = 0; i < ctx->n_orphans; i++)
		keys[i] = (uint64_t)ctx->orphans[i] << 32 | i;
	qsort(keys, ctx->n_orphans, sizeof(*keys), cmp_orphan_slot);
	for (uint32_t i = 1; i < ctx->n_orphans; i++)
		if (keys[i] >> 32 == keys[i - 1] >> 32)
			rep[(uint32_t)keys[i]] = true;
	free(keys);
	return rep;
}

/* The orphans, once the tree is walked: an orphan entry naming a live
 * inode is found by its names first, whatever its type. */
static void push_orphans(struct fsck_walk *w)
{
	struct fsck_ctx *ctx = w->ctx;
	bool *rep = repeated_orphans(ctx);

	if (!rep) {
		w->err = -ENOMEM;
		return;
	}
	for (uint32_t i = 0; i < ctx->n_orphans; i++) {
		uint32_t ino = ctx->orphans[i];

		if (rep[i]) {
			fsck_problem(ctx, PR_CP_ORPHAN_INO, FSCK_OBJ(.idx = i, .ino = ino,
				    .str = "repeated in the orphan list (the kernel's second recovery of it "
					   "finds no inode and fails the mount)"));
			continue;
		}
		if (ctx->ni[ino].flags & FSCK_NI_QUEUED) {
			report_reached_orphan(ctx, i, ino);
			continue;
		}
		fsck_walk_push(w, ino, F2FS_FT_UNKNOWN, ITEM_ORPHAN, NULL);
		ctx->st.orphans++;
	}
	free(rep);
}

/* The pending quota type whose quota file the inode at addr holds (a
 * regular file of blocks whose first block opens with that type's
 * header), or -1. */
static int holds_pending_quota(struct fsck_walk *w, uint32_t nid, uint32_t addr)
{
	struct fsck_ctx *ctx = w->ctx;
	uint8_t *b = f2fs_blocks_alloc(2);
	const struct f2fs_node *n = (const struct f2fs_node *)b;
	struct f2fs_dqinfo info;
	uint32_t extra, a0;
	int found = -1;

	if (!b)
		return -1;
	if (f2fs_dev_read(ctx->fs->dev, addr, 1, b) || le32_to_cpu(n->footer.nid) != nid ||
	    le32_to_cpu(n->footer.ino) != nid || !S_ISREG(le16_to_cpu(n->i.i_mode)) ||
	    (n->i.i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY)))
		goto out;
	extra = fsck_extra_words(&n->i);
	a0 = extra < DEF_ADDRS_PER_INODE ? le32_to_cpu(n->i.i_addr[extra]) : 0;
	if (!fsck_addr_in_main(ctx, a0) || f2fs_dev_read(ctx->fs->dev, a0, 1, b + F2FS_BLKSIZE))
		goto out;
	for (int t = 0; t < F2FS_MAX_QUOTAS && found < 0; t++)
		if (w->quota_pending[t] && !f2fs_quota_header_read(b + F2FS_BLKSIZE, t, &info))
			found = t;
out:
	free(b);
	return found;
}

/* A lost inode holding the quota file of a type whose superblock number
 * is invalid or taken (two types naming one inode, as a damaged word
 * leaves it): the kernel fails to turn that quota on, and a repair that
 * reconnected the file into /lost+found would leave the quota without a
 * file.  It is walked as that type's quota inode, and the superblock
 * names it again. */
static bool adopt_quota_file(struct fsck_walk *w, uint32_t nid, uint32_t addr)
{
	struct fsck_ctx *ctx = w->ctx;
	int t;

	if (!w->quota_pending[0] && !w->quota_pending[1] && !w->quota_pending[2])
		return false;
	t = holds_pending_quota(w, nid, addr);
	if (t < 0)
		return false;
	w->quota_pending[t] = false;
	if (fsck_problem(ctx, PR_QUOTA_INO_FOUND, FSCK_OBJ(.ino = nid, .idx = (uint64_t)t,
			 .found = w->quota_bad[t])))
		ctx->plan->qf_ino[t] = nid;
	if (!fsck_walk_push(w, nid, F2FS_FT_REG_FILE, ITEM_QUOTA, NULL))
		w->stack[w->n - 1].idx = (uint16_t)t;
	return true;
}

/* The quota types no lost inode answered for. */
static void report_quota_unfound(struct fsck_walk *w)
{
	for (int t = 0; t < F2FS_MAX_QUOTAS; t++)
		if (w->quota_pending[t])
			fsck_problem(w->ctx, PR_QUOTA_INODE, FSCK_OBJ(.ino = w->quota_bad[t],
				    .idx = (uint64_t)t, .str = "invalid or repeated inode number"));
}

/* Inodes NAT has in use that nothing reached: check them as lost roots. */
static void walk_lost(struct fsck_walk *w)
{
	struct fsck_ctx *ctx = w->ctx;
	struct f2fs_nat_model *nm = &ctx->nat;

	for (uint32_t b = 0; b < nm->nat_blocks && !w->err; b++) {
		uint32_t first = b * (uint32_t)NAT_ENTRY_PER_BLOCK;

		if (nm->block_used[b] <= (b == 0 ? 3u : 0u))
			continue;
		for (uint32_t i = 0; i < NAT_ENTRY_PER_BLOCK && first + i < nm->max_nid; i++) {
			uint32_t nid = first + i;
			const struct f2fs_nat_entry *e = &nm->ent[nid];

			if (nid < F2FS_RESERVED_NODE_NUM || !le32_to_cpu(e->block_addr) ||
			    le32_to_cpu(e->ino) != nid || (ctx->ni[nid].flags & FSCK_NI_QUEUED) ||
			    !fsck_addr_in_main(ctx, le32_to_cpu(e->block_addr)))
				continue;
			if (adopt_quota_file(w, nid, le32_to_cpu(e->block_addr))) {
				walk_stack(w);
				continue;
			}
			if (fsck_problem(ctx, PR_INODE_UNREACHABLE, FSCK_OBJ(.ino = nid,
				    .blkaddr = le32_to_cpu(e->block_addr))))
				fsck_fix_lost(ctx, nid);
			ctx->st.lost_inodes++;
			fsck_walk_push(w, nid, F2FS_FT_UNKNOWN, ITEM_LOST, NULL);
			walk_stack(w);
		}
	}
}

/* ---- link counts ---- */

static void fix_links(struct fsck_ctx *ctx, uint32_t ino, uint64_t want)
{
	struct f2fs_nat_entry e;
	struct f2fs_node *c;

	if (!fsck_nat_lookup(ctx, ino, &e))
		return;
	c = fsck_fix_node(ctx, ino, le32_to_cpu(e.block_addr), NULL);
	if (c)
		c->i.i_links = cpu_to_le32((uint32_t)want);
}

static void check_links_of(struct fsck_ctx *ctx, uint32_t nid)
{
	struct fsck_nid_info *ni = &ctx->ni[nid];
	uint64_t want;
	bool planned;

	if (!(ni->flags & FSCK_NI_INODE) || (ni->flags & FSCK_NI_LOST))
		return;
	if ((ni->flags & FSCK_NI_ORPHAN) && ni->links_found) {
		/* recover_orphan_inode() would clear its links and truncate it */
		if (fsck_problem(ctx, PR_CP_ORPHAN_LIVE, FSCK_OBJ(.ino = nid,
				 .found = ni->links_found)))
			ni->flags &= (uint8_t)~FSCK_NI_ORPHAN;	/* dropped from the list */
	}
	if (ni->flags & FSCK_NI_QUOTA)
		want = 1;
	else if (ni->flags & FSCK_NI_DIR)
		want = 2 + (uint64_t)fsck_subdirs(ctx, nid);
	else
		want = ni->links_found;
	if (ni->i_links == want)
		return;
	if ((ni->flags & FSCK_NI_ORPHAN) && !(ni->flags & FSCK_NI_DIR) && !ni->links_found) {
		want = 0;
		planned = fsck_problem(ctx, PR_INODE_ORPHAN_LINKS, FSCK_OBJ(.ino = nid,
							.found = ni->i_links));
	} else {
		planned = fsck_problem(ctx, PR_INODE_LINKS, FSCK_OBJ(.ino = nid, .found = ni->i_links,
							.expected = want));
	}
	if (planned)
		fix_links(ctx, nid, want);
}

static void check_links(struct fsck_ctx *ctx)
{
	fsck_for_each_nat_entry(ctx, check_links_of);
}

void fsck_check_links(struct fsck_ctx *ctx)
{
	check_links(ctx);
}

static void walk_free(struct fsck_walk *w)
{
	f2fs_warm_free(&w->warm_stack);
	f2fs_warm_free(&w->warm_seen);
	f2fs_warm_free(&w->warm_sort);
	f2fs_warm_free(&w->warm_pname);
	f2fs_sort_scratch_free(&w->sort_scratch);
	for (uint32_t i = 0; i < w->n; i++)
		fsck_pname_put(w->stack[i].pn);
	free(w->stack);
	for (uint32_t i = 0; i < w->n_names; i++)
		fsck_pname_put(w->names[i].pn);
	free(w->names);
	f2fs_dev_buf_give(w->ctx->fs->dev, w->ibuf, FSCK_BATCH);
	f2fs_dev_buf_give(w->ctx->fs->dev, w->dbuf, FSCK_BATCH);
	f2fs_dev_buf_give(w->ctx->fs->dev, w->nbuf, FSCK_BATCH);
	free(w->vec);
	free(w->lvl[0]);
	free(w->lvl[1]);
	free(w->dent_addr);
	free(w->dent_bidx);
	free(w->dent_owner);
	free(w->dent_ofs);
	free(w->losers);
	for (uint32_t i = 0; i < w->n_lost; i++)
		free(w->lost[i]);
	free(w->lost);
	free(w->footer_buf);
	fsck_dir_spares_free(w);
	fsck_prefetch_stop(w);
	fsck_digest_stop(w);
}

int fsck_pass_nodes(struct fsck_ctx *ctx)
{
	struct fsck_walk w;
	int err;

	if (!ctx->nat_loaded || !ctx->sit_loaded)
		return 0;
	memset(&w, 0, sizeof(w));
	w.ctx = ctx;
	/* a buffer the SIT or NAT load gave back (its pages mapped already);
	 * the others are taken when first used (fsck_walk_buf()) */
	w.ibuf = f2fs_dev_buf_take(ctx->fs->dev, FSCK_BATCH);
	w.vec = calloc(FSCK_BATCH, sizeof(*w.vec));
	if (!w.ibuf || !w.vec) {
		walk_free(&w);
		return -ENOMEM;
	}
	fsck_digest_start(&w);
	/* without the jobs (no memory) they touch nothing ahead */
	(void)f2fs_warm_init(&w.warm_stack, fsck_digest_pool(&w));
	(void)f2fs_warm_init(&w.warm_seen, fsck_digest_pool(&w));
	(void)f2fs_warm_init(&w.warm_sort, fsck_digest_pool(&w));
	(void)f2fs_warm_init(&w.warm_pname, fsck_digest_pool(&w));
	reserve_stack(&w);
	fsck_progress(ctx, 4, 0, 1);
	push_roots(&w);
	walk_stack(&w);
	if (!w.err && !(ctx->ni[F2FS_ROOT_INO].flags & FSCK_NI_DIR))
		root_unusable(&w, "its inode block cannot be used");
	if (!w.err) {
		push_orphans(&w);
		walk_stack(&w);
	}
	if (!w.err)
		walk_lost(&w);
	if (!w.err)
		report_quota_unfound(&w);
	if (!w.err)
		prune_names(&w);
	if (!w.err)
		w.err = fsck_shared_settle(&w);
	err = w.err;
	walk_free(&w);
	/* one for the SSA pass; the rest of the check reads little */
	f2fs_dev_buf_trim(ctx->fs->dev, 1);
	if (!err)
		check_links(ctx);
	fsck_progress(ctx, 4, 1, 1);
	return err;
}
