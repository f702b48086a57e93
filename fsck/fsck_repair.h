/*
 * fsck_repair.h - the plan of an fsck.f2fs run (struct fsck_plan) and
 * the code that records and applies it.
 *
 * While the passes check, every detection site whose fsck_problem() call
 * answers that the fix is planned records it here (fsck_fix.c), in every
 * mode (-n, --dry-run, -y, preen): node blocks and dentry blocks get a writable copy
 * (changed in memory only), summary entries to correct, owners of the
 * nodes the walk reached.  Whatever can be derived from reachability
 * (SIT, NAT leaks and owners, counters, nat_bits, free segments) is not
 * recorded: fsck_repair.c recomputes it.  After the check, fsck_repair.c
 * writes the changed node and data blocks out of place to blocks that the
 * current checkpoint does not use (fsck_alloc.c), and commits everything
 * in one new checkpoint.
 */
#ifndef FSCK_REPAIR_H
#define FSCK_REPAIR_H

#include <stdbool.h>
#include <stdint.h>

#include "f2fs_fs.h"

struct fsck_ctx;
struct fsck_walk;
struct fsck_dent_loc;

/* What the node walk found of an inode that is not a directory, kept
 * for its copy once the walk has checked the whole inode
 * (fsck_recheck_note()): the targeted re-check holds the block the
 * repair wrote to it (fsck_recheck.c).  walked false: nothing kept. */
struct fsck_fixwalk {
	uint64_t counted;		/* blocks i_blocks must count */
	uint64_t nodes, last_data;
	uint32_t parent;		/* the directory whose entry reached it */
	uint32_t ext_fofs, ext_blk, ext_len, ext_match;
	uint8_t ftype;			/* the file type that entry gives */
	bool walked, ext_mismatch, ext_dropped;
};

/* A node block to rewrite out of place. */
struct fsck_fixnode {
	uint32_t nid;
	uint32_t old_addr;
	uint32_t new_addr;
	struct f2fs_node *blk;
	struct fsck_fixwalk walk;
};

/* A data (dentry) block to rewrite out of place. */
struct fsck_fixdata {
	uint32_t old_addr;
	uint32_t new_addr;
	uint32_t owner;		/* node holding its address */
	uint16_t ofs;		/* ofs_in_node of that address */
	uint8_t *blk;
};

/* A data block the repair copies elsewhere (fsck_relocate.c); its new
 * address goes to slot ofs of node owner, which holds old_addr. */
struct fsck_move {
	uint32_t old_addr;
	uint32_t owner;
	uint16_t ofs;
};

/* A summary entry to correct (the version comes from NAT when applied). */
struct fsck_fixssa {
	uint32_t blkaddr;
	uint32_t nid;
	uint16_t ofs;
	uint8_t is_node;
	uint8_t footer_only;	/* only the segment's footer type */
};

/* A directory entry outside the hash bucket of its (corrected) hash: it
 * moves to a block of that bucket when the repair is applied. */
struct fsck_dent_move {
	struct fsck_dent_loc loc;	/* where it is now */
	uint32_t hash;
};

/* An entry taken out of its slot (which '.' or '..' needs), to be
 * inserted again by its hash (fsck_lpf.c). */
struct fsck_dent_readd {
	uint32_t dir, ino, hash;
	uint8_t len, ftype;
	uint8_t name[F2FS_NAME_LEN];
};

struct fsck_plan {
	struct fsck_fixnode *nodes;
	uint32_t n_nodes, cap_nodes;
	uint32_t *node_slot;	/* per nid: index + 1 in nodes[], 0 if none */
	struct fsck_fixdata *data;
	uint32_t n_data, cap_data;
	uint32_t *data_slot;	/* open hash of data[] by old_addr: index + 1 */
	uint32_t data_slots;	/* its size, 0 or a power of two */
	struct fsck_fixssa *ssa;
	uint32_t n_ssa, cap_ssa;
	uint32_t *owner;	/* per nid: ino of the inode that reached it */
	uint8_t *chain_data;	/* bit per main block: named by a chain dnode */
	uint32_t *chain;	/* chain block addresses in chain order */
	uint32_t n_chain, cap_chain;
	uint16_t extra_isize_ref;	/* i_extra_isize of a sane inode */
	uint16_t ixa_ref;		/* i_inline_xattr_size of a sane inode */
	uint32_t lost_found;	/* ino of /lost+found when the walk saw it */
	uint32_t qf_ino[F2FS_MAX_QUOTAS];	/* superblock quota numbers to set (0: keep) */
	uint32_t *unreach;	/* blocks the walk marked but a fix gives back */
	uint32_t n_unreach, cap_unreach;
	uint32_t *lost;		/* unreachable inodes to reconnect */
	uint32_t n_lost, cap_lost;
	uint32_t *block0;	/* directories without dentry block 0: ino, parent */
	uint32_t n_block0, cap_block0;
	uint32_t *remap;	/* inodes with block addresses in the xattr area */
	uint32_t n_remap, cap_remap;
	struct fsck_move *moves;	/* data blocks to copy (fsck_relocate.c) */
	uint32_t n_moves, cap_moves;
	struct fsck_dent_move *dent_moves;	/* entries to move to their bucket */
	uint32_t n_dent_moves, cap_dent_moves;
	struct fsck_dent_readd *readds;	/* entries to insert again */
	uint32_t n_readds, cap_readds;
	uint32_t *short_inos;	/* one entry per block an inode loses for good */
	uint32_t n_short, cap_short;
	bool root_rebuild;	/* the root inode is unusable: make a new one */
	bool root_uninline;	/* the root's entries go from inline to a dentry block */
	int err;		/* first operational error while recording */
};

/* Dentry edits. */
enum fsck_dent_op {
	FSCK_DENT_DROP,		/* clear the entry's bitmap bits */
	FSCK_DENT_FTYPE,	/* set file_type to val */
	FSCK_DENT_HASH,		/* set hash_code to val */
	FSCK_DENT_INO,		/* set ino to val */
	FSCK_DENT_NAMELEN,	/* set name_len to val */
};

/* ---- fsck_fix.c: recording ---- */
int fsck_plan_init(struct fsck_ctx *ctx);
void fsck_plan_free(struct fsck_ctx *ctx);
/* Writable copy of node nid, made from cur (or read at addr when cur is
 * NULL) the first time.  NULL on error (kept in plan->err). */
struct f2fs_node *fsck_fix_node(struct fsck_ctx *ctx, uint32_t nid, uint32_t addr,
				const void *cur);
/* The copy of nid if one was made, else NULL. */
struct f2fs_node *fsck_fix_node_peek(const struct fsck_ctx *ctx, uint32_t nid);
/* Writable copy of data block addr, whose address is slot ofs of node
 * owner.  cur as for fsck_fix_node. */
uint8_t *fsck_fix_data(struct fsck_ctx *ctx, uint32_t addr, uint32_t owner, uint16_t ofs,
		       const void *cur);
/* A node block the repair creates (old_addr 0), zeroed; NULL when nid
 * already has a copy or on error. */
struct f2fs_node *fsck_fix_node_new(struct fsck_ctx *ctx, uint32_t nid);
/* A data block the repair creates for slot ofs of node owner, zeroed. */
uint8_t *fsck_fix_data_new(struct fsck_ctx *ctx, uint32_t owner, uint16_t ofs);
/* The copy of data block addr if one was made, else NULL. */
uint8_t *fsck_fix_data_peek(const struct fsck_ctx *ctx, uint32_t addr);
void fsck_fix_ssa(struct fsck_ctx *ctx, uint32_t blkaddr, uint32_t nid, uint16_t ofs,
		  bool is_node);
void fsck_fix_ssa_footer(struct fsck_ctx *ctx, uint32_t blkaddr);
/* Edit the entry at loc (cur: the block as the walk read it, or NULL). */
void fsck_fix_dentry(struct fsck_ctx *ctx, const struct fsck_dent_loc *loc, const void *cur,
		     enum fsck_dent_op op, uint32_t val);
/* Write name (len bytes, the entry's name_len) over the name of the
 * entry at loc. */
void fsck_fix_dent_name(struct fsck_ctx *ctx, const struct fsck_dent_loc *loc, const void *cur,
			const uint8_t *name, uint32_t len);
/* Write '.' (dot) or '..' into slot 0 / 1 of the block at loc. */
void fsck_fix_dots(struct fsck_ctx *ctx, const struct fsck_dent_loc *loc, const void *cur,
		   bool dot, uint32_t ino);
/* Remember the owner of a node the walk accepted. */
void fsck_fix_owner(struct fsck_ctx *ctx, uint32_t nid, uint32_t ino);
/* A block the walk marked in use whose reference a fix drops. */
void fsck_fix_unreach(struct fsck_ctx *ctx, uint32_t addr);
/* An inode to reconnect into lost+found. */
void fsck_fix_lost(struct fsck_ctx *ctx, uint32_t ino);
/* The root inode cannot be used: the repair makes a new one (fsck_lpf.c). */
void fsck_fix_root(struct fsck_ctx *ctx);
/* The root keeps its entries inline and owns no other block: the repair
 * moves them to a new dentry block (fsck_lpf.c). */
void fsck_fix_root_uninline(struct fsck_ctx *ctx);
/* Directory ino has no dentry block 0 (its address was dropped or is a
 * hole): it gets a new one holding '.' and '..' (parent), as mkdir makes
 * it, when the repair starts (fsck_lpf.c). */
void fsck_fix_block0(struct fsck_ctx *ctx, uint32_t ino, uint32_t parent);
/* The chain: record a chain node (in order) and the blocks it names. */
void fsck_fix_chain_node(struct fsck_ctx *ctx, uint32_t addr, const struct f2fs_node *n);
/* The entry at loc belongs in the bucket of hash (fsck_lpf.c moves it). */
void fsck_fix_dent_move(struct fsck_ctx *ctx, const struct fsck_dent_loc *loc, uint32_t hash);
/* Take the entry at loc out now (cur as for fsck_fix_dentry) and have
 * fsck_lpf.c insert it again by its hash. */
void fsck_fix_dent_readd(struct fsck_ctx *ctx, const struct fsck_dent_loc *loc, const void *cur);
/* Inode ino loses one block (a shared block it did not own, with no block
 * of its own left): its i_blocks drops when the repair is applied. */
void fsck_fix_short(struct fsck_ctx *ctx, uint32_t ino);

/* ---- fsck_shared.c: before applying ---- */
/* i_blocks of the inodes fsck_fix_short() named, before the quota rebuild
 * (which then sees the change). */
int fsck_shared_apply(struct fsck_ctx *ctx);

/* ---- fsck_lpf.c: before applying ---- */
/* With plan->root_rebuild, first make a new root directory and give
 * back the names its old dentry blocks still hold (blocks valid in SIT
 * whose summary names the root, that nothing else uses; names whose
 * hash, length and inode check out).  Then give the directories of
 * plan->block0 their dentry block 0, insert plan->readds again, move the
 * entries of plan->dent_moves into their hash buckets, then
 * reconnect the unreachable inodes (plan->lost) into /lost+found, made if
 * need be: dentry edits and new blocks as writable copies, ctx->st kept
 * up to date.  Inodes it cannot reconnect stay unreachable (the recheck
 * reports them).  Returns 0 or a negative errno (operational error). */
int fsck_lpf_reconnect(struct fsck_ctx *ctx);

/* ---- fsck_relocate.c: block moves ---- */
struct fsck_alloc;
/* An inode whose inline xattr area holds the addresses of file blocks. */
void fsck_fix_remap(struct fsck_ctx *ctx, uint32_t ino);
/* Before the quota rebuild: lay the block maps of the recorded inodes out
 * as the kernel reads them (node copies, i_blocks, moves queued). */
int fsck_relocate_remap(struct fsck_ctx *ctx);
/* With the allocator, before the changed nodes are written: copy the
 * queued blocks, and move the blocks of the class that does not belong
 * out of sections holding both node and data blocks. */
int fsck_relocate_apply(struct fsck_ctx *ctx, struct fsck_alloc *a);

/* ---- fsck_repair.c: applying ---- */
/* What a repair wrote besides the checkpoint (the re-check reads it). */
struct fsck_repair_stats {
	uint64_t nodes_written, data_written, ssa_written, chain_written;
	uint64_t nat_changed, sit_changed;
	bool chain_rehomed;
};
/* Apply every recorded and derived fix in one checkpoint.  Returns 0 and
 * sets *written (device writes issued) and *stats (when not NULL), or a
 * negative errno; -EAGAIN when the repair is refused (the reason was
 * printed). */
int fsck_repair_apply(struct fsck_ctx *ctx, uint64_t *written, struct fsck_repair_stats *stats);

#endif
