/*
 * fsck_recheck.c - the targeted re-check after a repair.
 *
 * The check after a repair decides the exit code, and a full one walks
 * every node again.  When the check before the repair found nothing but
 * problems of followed[] below, whose fixes rewrite fields of inode
 * blocks (out of place) that nothing the walk found elsewhere depends
 * on, the re-check can take the walk's findings over instead:
 *
 *  - passes 1 to 3 run as in any check, on what the repair wrote: both
 *    superblocks, the new checkpoint pack, SIT and NAT read back;
 *  - the walk's reachability map, per-nid state, counters and
 *    subdirectory counts come from the check before (they are what a
 *    walk of the new volume would record, but for the nodes the repair
 *    moved); the map must still be as the walk left it;
 *  - every node block the repair wrote is read back: it must be the
 *    block planned, an inode, and differ from the block it replaces only
 *    in the fields followed[]'s fixes change (change_followed(): i_links,
 *    the inode checksum, which must be right, and the footer's
 *    next_blkaddr; for an inode that is not a directory, whose walk
 *    fsck_recheck_note() recorded, also i_size, i_blocks, i_namelen, i_ext
 *    and an unfollowed i_xattr_nid cleared, the casefold flag cleared);
 *    its NAT entry must name it, its segment be typed for nodes, and its
 *    summary entry is queued for the SSA pass;
 *  - each such recorded inode is checked again as the walk checks it
 *    (recheck_inode(): its fields, its xattrs, i_blocks, i_size and i_ext
 *    against the blocks the walk found it to have, which no fix changed);
 *  - what a walk reads besides the node blocks must be as it was: the
 *    NAT entries of every other nid (a digest), the type of every
 *    segment, the logs' segments and, for every block in use in them,
 *    the summary entry of the new pack; the repair must have written no
 *    data block, SSA block or roll-forward chain;
 *  - then the link counts over all inodes (fsck_check_links()), and the
 *    SSA, verify, zone and quota passes as in any check.
 * fsck_main.c runs it without printing, and takes its verdict only when
 * it is clean; anything else (a condition above unmet, a problem found)
 * runs the full re-check, whose output is what the user sees.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs_ckpt.h"
#include "f2fs_crc.h"
#include "f2fs_nat.h"
#include "fsck_recheck.h"
#include "fsck_walk.h"

/* In a snapshot's seg_type: SIT counted valid blocks in the segment. */
#define SEG_HAD_BLOCKS	0x80u

/* ---- before the repair ---- */

/*
 * The problems whose fixes the targeted re-check follows.  Each rewrites
 * fields of one inode block (written out of place with the rest of the
 * block as it was) that nothing the walk found elsewhere depends on: not
 * the block map (i_addr, i_nid, the inline and extra-area layout, i_mode,
 * compression), not a directory's entries, not a node the walk reached.
 * follow_node() holds each written block to exactly these fields (any
 * other change, or an inode the walk did not record, refuses), and
 * recheck_inode() checks the inode again as the walk does.  A code that
 * other fixes share (the list is per code) is still refused by that
 * field comparison when the fix was another.
 */
static const enum fsck_problem followed[] = {
	/* i_links, set after the walk from the names it counted: read by
	 * nothing but the link counts, which run again on every inode */
	PR_INODE_LINKS,
	/* the inode checksum, written fresh with any rewritten inode (and
	 * verified on the block read back) */
	PR_INODE_CHECKSUM,
	/* i_blocks set to the blocks the walk counted for the inode: the
	 * walk's totals count the blocks it reached, never i_blocks (quota
	 * usage, which charges it, keeps the targeted re-check away) */
	PR_INODE_BLOCKS,
	PR_INODE_ZERO_BLOCKS,
	/* a regular file's i_size raised over its last block: the walk maps
	 * no block by it (the size, inline-area and xattr-area checks that
	 * read it run again on the written inode) */
	PR_INODE_SIZE,
	/* an inline file's i_size cut to its inline area: the walk reads no
	 * block of such a file (its other fixes change i_inline, i_flags or
	 * the reserved word, which the field comparison refuses) */
	PR_INODE_INLINE_DATA,
	/* i_ext cleared: the walk only compares the block map with it */
	PR_INODE_EXTENT,
	/* an i_xattr_nid the walk never follows (the inode's own nid, a
	 * reserved one, past the last nid), cleared: no xattr node was
	 * reached through it */
	PR_INODE_XATTR_NID,
	/* i_namelen cut to the name's length: no other check reads it */
	PR_INODE_NAMELEN,
	/* the casefold flag cleared on a file that is not a directory: only
	 * a directory's entries are read by it (a directory's flag is
	 * refused by the field comparison: its entries would need checking) */
	PR_INODE_CASEFOLD,
};

/* Only problems of followed[] were reported: no other code counted. */
static bool only_followed_codes(const struct fsck_ctx *ctx)
{
	for (size_t i = 0; i < fsck_n_problems; i++) {
		bool ok = false;

		if (!ctx->code_count[i])
			continue;
		for (size_t k = 0; k < sizeof(followed) / sizeof(followed[0]) && !ok; k++)
			ok = (int)i == fsck_problem_index(followed[k]);
		if (!ok)
			return false;
	}
	return true;
}

/* The plan rewrites node blocks and nothing else. */
static bool plan_only_nodes(const struct fsck_plan *p)
{
	if (p->err || p->n_data || p->n_ssa || p->n_unreach || p->n_lost || p->n_block0 ||
	    p->n_remap || p->n_moves || p->n_dent_moves || p->n_readds || p->n_short ||
	    p->n_chain || p->root_rebuild || p->root_uninline)
		return false;
	for (int q = 0; q < F2FS_MAX_QUOTAS; q++)
		if (p->qf_ino[q])
			return false;
	return true;
}

/* A volume whose walk state is all in reach, ni, st and subdirs. */
static bool volume_plain(const struct fsck_ctx *ctx)
{
	const struct f2fs_fs *fs = ctx->fs;

	return ctx->fs_usable && ctx->sit_loaded && ctx->nat_loaded && ctx->plan &&
	       !ctx->exit_override && !ctx->quota && !ctx->zones && fs->ndevs <= 1 &&
	       !fs->short_blocks && fs->cursum_loaded && !fs->cursum_load_err &&
	       !ctx->st.chain_nodes && !ctx->n_orphans && !ctx->n_unnamed;
}

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static bool nid_rewritten(const struct fsck_plan *plan, uint32_t nid)
{
	return plan->node_slot && plan->node_slot[nid];
}

/* A digest of the NAT entries in use (with a block address), leaving out
 * the nids plan rewrites (their entries change with their blocks).  NAT
 * blocks without an entry in use are skipped on both sides alike. */
static uint64_t nat_digest(const struct f2fs_nat_model *nm, const struct fsck_plan *plan)
{
	uint64_t h = 0x6a09e667f3bcc909ull;

	for (uint32_t b = 0; (uint64_t)b * NAT_ENTRY_PER_BLOCK < nm->max_nid; b++) {
		uint32_t first = b * (uint32_t)NAT_ENTRY_PER_BLOCK;

		if (!nm->block_used[b])
			continue;
		for (uint32_t nid = first; nid < first + NAT_ENTRY_PER_BLOCK && nid < nm->max_nid;
		     nid++) {
			struct f2fs_nat_entry e;
			uint64_t v;

			if (f2fs_nat_get(nm, nid, &e) || !e.block_addr || nid_rewritten(plan, nid))
				continue;
			v = (uint64_t)le32_to_cpu(e.block_addr) << 32 | le32_to_cpu(e.ino);
			h = mix64(h ^ mix64(v ^ ((uint64_t)nid << 8 | e.version)));
		}
	}
	return h;
}

void fsck_recheck_snapshot(const struct fsck_ctx *ctx, struct fsck_recheck_snap *snap)
{
	const struct f2fs_fs *fs = ctx->fs;
	size_t map;

	memset(snap, 0, sizeof(*snap));
	if (ctx->opt.full_recheck || !ctx->code_count || !fs || !volume_plain(ctx) ||
	    !only_followed_codes(ctx) || !plan_only_nodes(ctx->plan))
		return;
	map = (size_t)((ctx->main_blocks + 7) / 8);
	snap->seg_type = malloc(fs->main_segs ? fs->main_segs : 1);
	snap->reach = malloc(map ? map : 1);
	if (!snap->seg_type || !snap->reach) {
		fsck_recheck_snap_free(snap);
		return;
	}
	snap->main_segs = fs->main_segs;
	for (uint32_t s = 0; s < fs->main_segs; s++)
		snap->seg_type[s] = (uint8_t)(ctx->sit.segs[s].type |
					      (ctx->sit.segs[s].valid_blocks ? SEG_HAD_BLOCKS : 0));
	memcpy(snap->reach, ctx->reach, map);
	memcpy(snap->curseg_segno, fs->curseg_segno, sizeof(snap->curseg_segno));
	memcpy(snap->cursum, fs->cursum, sizeof(snap->cursum));
	snap->node_summaries = f2fs_cp_has_node_summaries(fs->cp);
	snap->st = ctx->st;
	snap->nat_digest = nat_digest(&ctx->nat, ctx->plan);
	snap->usable = true;
}

void fsck_recheck_snap_free(struct fsck_recheck_snap *snap)
{
	free(snap->seg_type);
	free(snap->reach);
	memset(snap, 0, sizeof(*snap));
}

/* ---- after the repair ---- */

static uint32_t nodes_moved(const struct fsck_plan *plan)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < plan->n_nodes; i++)
		if (plan->nodes[i].new_addr)
			n++;
	return n;
}

/* A walk reads the type of a segment only where SIT counts valid
 * blocks: a type may change where it did not before or does not now. */
static bool segment_type_kept(const struct fsck_ctx *ctx, const struct fsck_recheck_snap *snap,
			      uint32_t segno)
{
	const struct f2fs_seg_entry *se = &ctx->sit.segs[segno];
	uint8_t was = snap->seg_type[segno];

	return se->type == (was & ~SEG_HAD_BLOCKS) || !(was & SEG_HAD_BLOCKS) || !se->valid_blocks;
}

/* The repair wrote node blocks, NAT, SIT and the checkpoint only, and
 * what it read back as SIT, NAT and the checkpoint allows the import:
 * NULL, or what does not. */
static const char *repair_not_local(const struct fsck_ctx *ctx, const struct fsck_ctx *parent,
				    const struct fsck_recheck_snap *snap,
				    const struct fsck_repair_stats *stats)
{
	const struct f2fs_fs *fs = ctx->fs;

	if (stats->data_written || stats->ssa_written || stats->chain_written ||
	    stats->chain_rehomed)
		return "the repair wrote data, summary or chain blocks";
	if (stats->nat_changed != nodes_moved(parent->plan))
		return "the repair changed NAT entries of nodes it did not move";
	if (!volume_plain(ctx) || ctx->n_errors || ctx->n_warnings || ctx->n_infos)
		return "passes 1 to 3 of the re-check did not find a plain, clean volume";
	if (fs->main_segs != snap->main_segs || ctx->main_blocks != parent->main_blocks)
		return "the geometry changed";
	for (uint32_t s = 0; s < fs->main_segs; s++)
		if (!segment_type_kept(ctx, snap, s))
			return "the type of a segment in use changed";
	if (nat_digest(&ctx->nat, parent->plan) != snap->nat_digest)
		return "NAT entries of other nodes changed";
	return NULL;
}

/* Hand the walk's state over from parent (which frees what it lost). */
static void take_walk_state(struct fsck_ctx *ctx, struct fsck_ctx *parent,
			    const struct fsck_recheck_snap *snap)
{
	uint64_t chain_nodes = ctx->st.chain_nodes;

	free(ctx->reach);
	free(ctx->seg_kind);
	free(ctx->ni);
	fsck_subdirs_free(ctx);
	ctx->reach = parent->reach;
	ctx->seg_kind = parent->seg_kind;
	ctx->ni = parent->ni;
	ctx->subdirs = parent->subdirs;
	parent->reach = NULL;
	parent->seg_kind = NULL;
	parent->ni = NULL;
	parent->subdirs = (struct fsck_subdir_table){ 0 };
	ctx->st = snap->st;
	ctx->st.chain_nodes = chain_nodes;
	ctx->st.free_secs = ctx->st.dirty_secs = ctx->st.full_secs = 0;
	/* the SSA pass checks the footer of each segment it looks at again,
	 * and the walk asks the new summaries what SIT types as data */
	for (uint32_t s = 0; s < ctx->fs->main_segs; s++)
		ctx->seg_kind[s] &= (uint8_t)~(8u | 16u | 32u);
}

/* Whether walk_xattr_node() leaves xattr nid xnid of inode ino alone
 * (reads no node for it). */
static bool xnid_unfollowed(const struct fsck_ctx *ctx, uint32_t ino, uint32_t xnid)
{
	return xnid == ino || xnid < F2FS_RESERVED_NODE_NUM || xnid >= ctx->fs->max_nid;
}

static bool ext_cleared(const struct f2fs_extent *e)
{
	return !e->fofs && !e->blk && !e->len;
}

/* Whether now (the block written for inode ino) differs from was (the
 * block it replaces) only in fields the fixes of followed[] change, the
 * way they change them: i_links, the inode checksum (where the inode has
 * one) and the footer's next block address for any inode; for an inode
 * the walk recorded (walked) also i_size, i_blocks, i_namelen, i_ext
 * cleared, an unfollowed i_xattr_nid cleared and the casefold flag
 * cleared.  tmp: a scratch block. */
static bool change_followed(const struct fsck_ctx *ctx, uint32_t ino, const struct f2fs_node *now,
			    const struct f2fs_node *was, bool walked, struct f2fs_node *tmp)
{
	const struct f2fs_inode *n = &now->i, *o = &was->i;
	struct f2fs_inode *t = &tmp->i;

	memcpy(tmp, was, F2FS_BLKSIZE);
	t->i_links = n->i_links;
	tmp->footer.next_blkaddr = now->footer.next_blkaddr;
	if (f2fs_inode_has_checksum(ctx->fs->features, was) &&
	    f2fs_inode_has_checksum(ctx->fs->features, now))
		t->i_inode_checksum = n->i_inode_checksum;
	if (walked) {
		t->i_size = n->i_size;
		t->i_blocks = n->i_blocks;
		t->i_namelen = n->i_namelen;
		if (ext_cleared(&n->i_ext))
			t->i_ext = n->i_ext;
		if (!n->i_xattr_nid && xnid_unfollowed(ctx, ino, le32_to_cpu(o->i_xattr_nid)))
			t->i_xattr_nid = 0;
		if (le32_to_cpu(n->i_flags) == (le32_to_cpu(o->i_flags) & ~(uint32_t)F2FS_CASEFOLD_FL))
			t->i_flags = n->i_flags;
	}
	return !memcmp(tmp, now, F2FS_BLKSIZE);
}

static bool seg_is_node_type(const struct fsck_ctx *ctx, uint32_t segno)
{
	uint8_t t = ctx->sit.segs[segno].type;

	return t >= CURSEG_HOT_NODE && t <= CURSEG_COLD_NODE;
}

/* Whether any block of segment segno is in use in ctx->reach. */
static bool segment_used(const struct fsck_ctx *ctx, uint32_t segno)
{
	for (uint32_t k = 0; k < BLKS_PER_SEG / 8; k++)
		if (ctx->reach[(size_t)segno * (BLKS_PER_SEG / 8) + k])
			return true;
	return false;
}

/* Check inode n->nid again as the walk checks it, on now (the block
 * the repair wrote for it at addr), with what the walk found of its
 * blocks (n->walk): its own fields, its xattrs and, against that, its
 * i_blocks, i_size and i_ext.  Its block map is what the walk walked
 * (change_followed() let no field of it change, and no other node or
 * data block was written).  False when it reports a problem or cannot
 * be checked so. */
static bool recheck_inode(struct fsck_ctx *ctx, const struct fsck_fixnode *n,
			  const struct f2fs_node *now, uint32_t addr)
{
	const struct fsck_fixwalk *fw = &n->walk;
	uint64_t reported = ctx->n_errors + ctx->n_warnings + ctx->n_infos;
	uint32_t xnid = le32_to_cpu(now->i.i_xattr_nid);
	struct f2fs_node *xnode = NULL;
	struct fsck_walk w;
	struct fsck_item it;
	struct f2fs_nat_entry e;
	bool ok;

	memset(&w, 0, sizeof(w));
	memset(&it, 0, sizeof(it));
	w.ctx = ctx;
	w.inode = now;
	w.inode_addr = addr;
	it.ino = n->nid;
	it.addr = addr;
	it.ftype = fw->ftype;
	it.kind = ITEM_NS;
	it.loc.dir_ino = fw->parent;
	if (!fsck_check_inode_fields(&w, &it, now, addr) || w.file.is_dir)
		return false;
	/* i_ext is the one the walk compared with the map, or cleared */
	if (w.file.ext_len && (w.file.ext_len != fw->ext_len || w.file.ext_blk != fw->ext_blk ||
			       w.file.ext_fofs != fw->ext_fofs))
		return false;
	w.file.counted = fw->counted;
	w.file.nodes = fw->nodes;
	w.file.last_data = fw->last_data;
	w.file.ext_match = fw->ext_match;
	w.file.ext_mismatch = fw->ext_mismatch;
	w.file.ext_dropped = fw->ext_dropped;
	if (!xnid_unfollowed(ctx, n->nid, xnid) && xnid) {
		/* the xattr node the walk reached, not rewritten: its NAT
		 * entry is among those the digest found unchanged */
		if (!fsck_nat_lookup(ctx, xnid, &e) || !fsck_addr_in_main(ctx, le32_to_cpu(e.block_addr)))
			return false;
		xnode = malloc(F2FS_BLKSIZE);
		if (!xnode || f2fs_dev_read(ctx->fs->dev, le32_to_cpu(e.block_addr), 1, xnode)) {
			free(xnode);
			return false;
		}
		w.xnid = xnid;
		w.xaddr = le32_to_cpu(e.block_addr);
	}
	fsck_check_xattrs(&w, now, xnode);
	free(xnode);
	fsck_check_sizes(&w, &now->i);
	ok = !w.err && ctx->n_errors + ctx->n_warnings + ctx->n_infos == reported;
	fsck_debug(ctx, 2, "re-check: inode %u checked again%s", n->nid, ok ? "" : ": a problem");
	return ok;
}

/* Read back node n as written and move its place in the imported state
 * from n->old_addr to n->new_addr; an inode the walk recorded is checked
 * again (recheck_inode()).  tmp: a scratch block. */
static bool follow_node(struct fsck_ctx *ctx, const struct fsck_fixnode *n,
			struct f2fs_node *now, struct f2fs_node *was, struct f2fs_node *tmp)
{
	const struct f2fs_fs *fs = ctx->fs;
	struct f2fs_nat_entry e;
	uint64_t old_rel, new_rel;
	uint32_t old_seg, new_seg;

	if (!fsck_addr_in_main(ctx, n->new_addr) || !fsck_addr_in_main(ctx, n->old_addr))
		return false;
	old_rel = n->old_addr - fs->main_blkaddr;
	new_rel = n->new_addr - fs->main_blkaddr;
	old_seg = (uint32_t)(old_rel / BLKS_PER_SEG);
	new_seg = (uint32_t)(new_rel / BLKS_PER_SEG);
	if (!fsck_bit(ctx->reach, old_rel) || fsck_bit(ctx->reach, new_rel) ||
	    !seg_is_node_type(ctx, new_seg))
		return false;
	if (f2fs_dev_read(fs->dev, n->new_addr, 1, now) || f2fs_dev_read(fs->dev, n->old_addr, 1, was))
		return false;
	if (memcmp(now, n->blk, F2FS_BLKSIZE) ||
	    !change_followed(ctx, n->nid, now, was, n->walk.walked, tmp))
		return false;
	if (le32_to_cpu(now->footer.nid) != n->nid || le32_to_cpu(now->footer.ino) != n->nid)
		return false;
	if (f2fs_inode_has_checksum(fs->features, now) &&
	    le32_to_cpu(now->i.i_inode_checksum) != f2fs_inode_checksum(fs->inode_chksum_seed, now))
		return false;
	if (!fsck_nat_lookup(ctx, n->nid, &e) || le32_to_cpu(e.block_addr) != n->new_addr ||
	    le32_to_cpu(e.ino) != n->nid)
		return false;
	ctx->reach[old_rel >> 3] &= (uint8_t)~(1u << (old_rel & 7));
	fsck_set(ctx->reach, new_rel);
	if (!segment_used(ctx, old_seg))
		ctx->seg_kind[old_seg] &= (uint8_t)~3u;
	ctx->seg_kind[new_seg] |= 2;
	ctx->ni[n->nid].i_links = le32_to_cpu(now->i.i_links);
	if (n->walk.walked && !recheck_inode(ctx, n, now, n->new_addr))
		return false;
	return !fsck_expect_summary(ctx, n->new_addr, n->nid, 0, true);
}

static bool follow_nodes(struct fsck_ctx *ctx, const struct fsck_plan *plan)
{
	struct f2fs_node *now = malloc(F2FS_BLKSIZE), *was = malloc(F2FS_BLKSIZE);
	struct f2fs_node *tmp = malloc(F2FS_BLKSIZE);
	bool ok = now && was && tmp;

	for (uint32_t i = 0; i < plan->n_nodes && ok; i++)
		if (plan->nodes[i].new_addr)
			ok = follow_node(ctx, &plan->nodes[i], now, was, tmp);
	free(now);
	free(was);
	free(tmp);
	return ok;
}

static bool is_new_addr(const struct fsck_plan *plan, uint32_t addr)
{
	for (uint32_t i = 0; i < plan->n_nodes; i++)
		if (plan->nodes[i].new_addr == addr)
			return true;
	return false;
}

static int log_at(const uint32_t *curseg_segno, uint32_t segno)
{
	for (int t = 0; t < NR_CURSEG_TYPE; t++)
		if (curseg_segno[t] == segno)
			return t;
	return -1;
}

/* Whether the SSA pass leaves the entries of log t alone (a node log
 * without node summaries in the pack). */
static bool log_unchecked(int t, bool node_summaries)
{
	return t >= CURSEG_HOT_NODE && !node_summaries;
}

/* The blocks in use in segment segno, a log's before or after the
 * repair: queue for the SSA pass the entry the check before the repair
 * accepted for each (the log's summary in the old pack), so that the
 * pass checks them where the new state keeps them (the new pack, or the
 * SSA block the commit wrote when the log moved).  False when the entry
 * checked before is not known. */
static bool requeue_log_segment(struct fsck_ctx *ctx, const struct fsck_plan *plan,
				const struct fsck_recheck_snap *snap, uint32_t segno)
{
	const struct f2fs_fs *fs = ctx->fs;
	int was = log_at(snap->curseg_segno, segno), now = log_at(fs->curseg_segno, segno);
	bool now_unchecked = now >= 0 && log_unchecked(now, f2fs_cp_has_node_summaries(fs->cp));

	for (uint32_t k = 0; k < BLKS_PER_SEG; k++) {
		uint64_t rel = (uint64_t)segno * BLKS_PER_SEG + k;
		uint32_t addr = (uint32_t)(fs->main_blkaddr + rel);
		const struct f2fs_summary *e;
		bool is_node;

		if (!fsck_bit(ctx->reach, rel) || is_new_addr(plan, addr))
			continue;
		if (was < 0)
			return false;	/* checked against an SSA block since overwritten */
		if (log_unchecked(was, snap->node_summaries)) {
			if (now_unchecked)
				continue;
			return false;
		}
		e = &snap->cursum[was].entries[k];
		is_node = was >= CURSEG_HOT_NODE;
		if (fsck_expect_summary(ctx, addr, le32_to_cpu(e->nid),
					is_node ? 0 : le16_to_cpu(e->ofs_in_node), is_node))
			return false;
	}
	return true;
}

/* Every segment that is a log's before or after the repair. */
static bool requeue_log_summaries(struct fsck_ctx *ctx, const struct fsck_plan *plan,
				  const struct fsck_recheck_snap *snap)
{
	const struct f2fs_fs *fs = ctx->fs;

	for (int t = 0; t < 2 * NR_CURSEG_TYPE; t++) {
		uint32_t segno = t < NR_CURSEG_TYPE ? snap->curseg_segno[t] :
				 fs->curseg_segno[t - NR_CURSEG_TYPE];
		bool seen = false;

		if (segno >= fs->main_segs)
			continue;
		for (int u = 0; u < t && !seen; u++)
			seen = (u < NR_CURSEG_TYPE ? snap->curseg_segno[u] :
				fs->curseg_segno[u - NR_CURSEG_TYPE]) == segno;
		if (!seen && !requeue_log_segment(ctx, plan, snap, segno))
			return false;
	}
	return true;
}

static const char *import_refused(struct fsck_ctx *ctx, struct fsck_ctx *parent,
				  const struct fsck_recheck_snap *snap,
				  const struct fsck_repair_stats *stats)
{
	size_t map = (size_t)((parent->main_blocks + 7) / 8);
	const char *why;

	if (!snap->usable || !parent->reach || !parent->ni || !parent->seg_kind)
		return "nothing to take over";
	why = repair_not_local(ctx, parent, snap, stats);
	if (why)
		return why;
	if (memcmp(parent->reach, snap->reach, map))
		return "the repair changed the walk's reachability map";
	take_walk_state(ctx, parent, snap);
	if (!follow_nodes(ctx, parent->plan))
		return "a node block the repair wrote does not read back as a fix the re-check "
		       "follows, or its inode does not check clean again";
	if (!requeue_log_summaries(ctx, parent->plan, snap))
		return "a block of a log was checked against a summary the repair replaced";
	fsck_check_links(ctx);
	return NULL;
}

bool fsck_recheck_import(struct fsck_ctx *ctx, struct fsck_ctx *parent,
			 const struct fsck_recheck_snap *snap,
			 const struct fsck_repair_stats *stats)
{
	const char *why = import_refused(ctx, parent, snap, stats);

	if (why)
		fsck_debug(ctx, 1, "re-check: not targeted: %s", why);
	return !why;
}

void fsck_recheck_note(struct fsck_ctx *ctx, const struct fsck_item *it, const struct fsck_file *f)
{
	struct fsck_plan *p = ctx->plan;
	struct fsck_fixwalk *fw;

	/* a directory's fixes may change what its entries' checks read:
	 * only its link count is followed (without a record) */
	if (!p || f->is_dir || it->kind != ITEM_NS || it->ino >= ctx->fs->max_nid ||
	    !p->node_slot[it->ino])
		return;
	fw = &p->nodes[p->node_slot[it->ino] - 1].walk;
	fw->counted = f->counted;
	fw->nodes = f->nodes;
	fw->last_data = f->last_data;
	fw->parent = fsck_item_parent(it);
	fw->ftype = it->ftype;
	fw->ext_fofs = f->ext_fofs;
	fw->ext_blk = f->ext_blk;
	fw->ext_len = f->ext_len;
	fw->ext_match = f->ext_match;
	fw->ext_mismatch = f->ext_mismatch;
	fw->ext_dropped = f->ext_dropped;
	fw->walked = true;
}
