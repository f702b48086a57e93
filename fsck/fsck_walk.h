/*
 * fsck_walk.h - state of pass 4 (the node walk) shared by its files:
 * fsck_pass_nodes.c (the inode stack, batched node reads, block
 * accounting), fsck_inode.c (checks of one inode's own fields and
 * xattrs), fsck_pass_dir.c (dentry checks, which push child inodes) and
 * fsck_shared.c (data blocks two slots name).
 */
#ifndef FSCK_WALK_H
#define FSCK_WALK_H

#include "f2fs_array.h"
#include "f2fs_warm.h"
#include "f2fs_workers.h"
#include "fsck.h"

/* Blocks fetched per batched read of inodes, nodes or dentry blocks. */
#define FSCK_BATCH	256u
/* Directories per batch of inodes: every child of a checked directory
 * waits on the stack, so this bounds the stack to about this many
 * directories' worth of entries (a batch of 256 directories of 1000
 * files each would queue 256,000 inodes at once).  Small directories
 * may come more at once: a batch takes up to FSCK_BATCH_DIRS_POP of
 * them, and once their inode blocks are read it ends at the directory
 * that uses up FSCK_BATCH_ENTRIES, an inline directory counting its
 * slots and any other a quarter of the whole (so four of those end a
 * batch); the rest go back on the stack.  Four rather than eight: on
 * directories whose files have hard links in the others, a name met
 * while its inode still waits is remembered (fsck_walk_name()), and
 * eight directories at once kept 16,000 inodes and their other names
 * waiting against 12,000 (2 MiB less memory touched, 9-12 % less time on
 * the benchmark's links layout; the others within the noise). */
#define FSCK_BATCH_DIRS	4u
#define FSCK_BATCH_DIRS_POP	64u
#define FSCK_BATCH_ENTRIES	16384u

enum fsck_item_kind {
	ITEM_NS,	/* reached through a directory entry (or the root) */
	ITEM_ORPHAN,
	ITEM_QUOTA,
	ITEM_LOST,	/* in use in NAT but not reached: checked as a lost root */
};

struct fsck_pname;

/* An inode waiting to be checked.  A directory's whole listing waits at
 * once (100,000 items for a directory of 100,000 names): 48 bytes, its
 * directory kept only in loc (fsck_item_parent()). */
struct fsck_item {
	struct fsck_pname *pn;	/* its name (fsck_pname.c), or NULL */
	uint32_t ino;
	uint32_t addr;		/* from NAT, filled when the batch is read (an
				 * item put back after that keeps it) */
	uint8_t ftype;		/* from the dentry, F2FS_FT_UNKNOWN if none */
	uint8_t kind;
	uint16_t idx;		/* quota type, for messages */
	struct fsck_dent_loc loc;	/* the entry that named it (ITEM_NS) */
};

/* The directory whose entry named the item: the root's is the root, an
 * inode reached otherwise (orphan, quota, lost) has none (0). */
static inline uint32_t fsck_item_parent(const struct fsck_item *it)
{
	if (it->kind != ITEM_NS)
		return 0;
	return it->loc.dir_ino ? it->loc.dir_ino : it->ino;
}

/* The directory whose dentries are being checked. */
struct fsck_dir_walk {
	uint32_t ino, parent;
	struct fsck_pname *pn;	/* the directory's name (its item's) */
	uint32_t dir_level, depth;
	uint64_t i_size;
	bool casefold, encrypted, is_inline;
};

/* A node waiting in a level of an inode's tree. */
struct fsck_node_ref {
	uint32_t nid;
	uint32_t addr;
	uint32_t ofs;		/* expected node offset */
	uint8_t kind;		/* NODE_DIRECT / NODE_INDIRECT / NODE_DINDIRECT */
	uint64_t fofs;		/* first file block it covers */
	uint32_t parent_nid;	/* node holding the reference (for a fix) */
	uint32_t parent_addr;
	uint16_t parent_slot;	/* i_nid[] index or nid[] index */
	uint8_t parent_is_inode;
};
enum { NODE_DIRECT, NODE_INDIRECT, NODE_DINDIRECT };

/* What the walk knows about the inode being checked. */
struct fsck_file {
	uint32_t ino;
	uint16_t mode;
	uint8_t ftype;
	bool is_dir, compressed, released, keep_size, verity, pinned;
	bool crypt_ctx;			/* an encryption context among its xattrs */
	uint32_t cluster;		/* compression cluster size in blocks */
	uint32_t addrs_per_inode, addrs_per_block, extra_words;
	uint64_t i_size;
	uint64_t counted;		/* blocks i_blocks must count */
	uint64_t nodes;			/* node blocks incl. the inode */
	uint64_t last_data;		/* highest used file block + 1 */
	/* i_ext against the mapping */
	uint32_t ext_fofs, ext_blk, ext_len, ext_match;
	bool ext_mismatch;
	bool ext_dropped;		/* a slot inside i_ext was dropped */
};

/* A data slot that lost its block to the owner the block's summary names
 * (fsck_shared.c); settled after the walk. */
struct fsck_loser {
	uint32_t addr;		/* the block it named */
	uint32_t nid;		/* node holding the slot */
	uint32_t ino;
	uint16_t ofs;		/* ofs_in_node of the slot */
	bool first;		/* it claimed the block first */
	uint32_t n_valid, n_stale;	/* its own blocks found, valid in SIT or not */
	uint32_t valid, stale;		/* the last of each found */
};

/* A direct node of a regular file whose block no longer holds it: rebuilt
 * after the walk from the summaries of its data blocks (fsck_shared.c). */
struct fsck_lost_dnode {
	uint32_t nid, ino, ofs;		/* its nid, file and node offset */
	struct fsck_node_ref ref;	/* the reference the walk dropped */
	uint32_t addr[ADDRS_PER_BLOCK];	/* the block found per slot */
	uint8_t found[ADDRS_PER_BLOCK];	/* how many were found (1: usable) */
};

enum fsck_share {
	FSCK_SHARE_WON,		/* the slot owns the block; the first claim lost it */
	FSCK_SHARE_LOST,	/* the slot lost it; settled after the walk */
	FSCK_SHARE_DROP,	/* the slot lost it and is dropped now */
};

/* Another name of an inode waiting on the stack (the first name is its
 * item's): if the walk refuses the inode, this name goes too. */
struct fsck_name {
	uint32_t ino;
	struct fsck_pname *pn;	/* the entry's name in its directory's */
	struct fsck_dent_loc loc;
	uint8_t ftype;		/* the entry's file type */
};

struct fsck_walk {
	struct fsck_ctx *ctx;
	struct fsck_item *stack;
	uint32_t n, cap;
	/* the stack's next pages and the seen-name array's (fsck_pass_dir.c),
	 * touched ahead by a worker */
	struct f2fs_warm warm_stack, warm_seen;
	/* the memory of the large sorts (a directory's seen names, then the
	 * children it pushed), shared; set aside for a large directory before
	 * its scan and touched ahead as its names come (stopped before a
	 * sort, which may move it) */
	struct f2fs_sort_scratch sort_scratch;
	struct f2fs_warm warm_sort;
	/* the chunk set aside for the pnames of a large directory's entries
	 * (fsck_pname_reserve()), touched ahead as they come; NULL if none */
	uint8_t *pname_chunk;
	size_t pname_cap;
	struct f2fs_warm warm_pname;
	struct fsck_name *names;
	uint32_t n_names, cap_names;
	uint8_t *ibuf, *nbuf, *dbuf;	/* FSCK_BATCH blocks each (nbuf, dbuf:
					 * NULL until used, fsck_walk_buf()) */
	struct f2fs_io_vec *vec;
	struct fsck_node_ref *lvl[2];	/* current and next level */
	uint32_t lvl_n[2], lvl_cap[2];
	uint32_t *dent_addr, *dent_bidx; /* dentry blocks of the current dir */
	uint32_t *dent_owner;		/* node and ofs_in_node naming each */
	uint16_t *dent_ofs;
	uint32_t dent_n, dent_cap;
	/* the inode being checked and the node whose slots are walked */
	const struct f2fs_node *inode;
	uint32_t inode_addr;
	const struct f2fs_node *cur_node;
	uint32_t cur_nid, cur_addr;
	uint32_t xnid, xaddr;		/* its xattr node, when read */
	struct fsck_file file;
	struct fsck_loser *losers;	/* slots that lost a shared block */
	uint32_t n_losers, cap_losers;
	struct fsck_lost_dnode **lost;	/* direct nodes to rebuild */
	uint32_t n_lost, cap_lost;
	int err;			/* first operational error */
	bool root_refused;		/* F2FS-4033 reported: the repair makes a new root */
	struct f2fs_node *footer_buf;	/* an inode block with its footer restored (-n) */
	int qtype;			/* quota type + 1 of the inode walked, 0 if none */
	uint32_t dir_home_scans;	/* summary scans for directory slots (fsck_shared.c) */
	/* quota types whose superblock number is invalid or repeated, with
	 * that number: a lost inode holding the type's quota file is taken
	 * back as it (walk_lost()), else F2FS-4038 */
	bool quota_pending[F2FS_MAX_QUOTAS];
	uint32_t quota_bad[F2FS_MAX_QUOTAS];
	/* worker threads (fsck_digest.c): what they computed of the inode
	 * block or the dentry block being checked, NULL when nothing */
	struct fsck_digests *dg;
	/* the next batch's inode blocks, read by a worker (fsck_prefetch.c) */
	struct fsck_prefetch *pf;
	/* fsck_pass_dir.c's arrays of one directory's names and blocks, kept
	 * for the next directory when small (fsck_dir_spares_free()) */
	void *seen_spare, *blocks_spare;
	uint32_t seen_spare_cap, blocks_spare_cap;
	uint32_t *fp_set;		/* fsck_pass_dir.c's repeated-name filter */
	uint32_t fp_set_cap;
};

/* fsck_digest.c: the walk's worker threads (-j N), and the hashes they
 * compute of a directory's dentry blocks ahead of the walk, from the
 * blocks' bytes alone.  fsck_digest_dentries() returns whether the
 * workers took the blocks (false: too few to be worth it, or no workers;
 * the checks then hash alone); *_take before checking block i of the
 * batch; *_finish after the batch, before its blocks go. */
/* Start the walk's workers (-j N: N - 1 besides this thread), when the
 * threads can be had. */
void fsck_digest_start(struct fsck_walk *w);
void fsck_digest_stop(struct fsck_walk *w);
bool fsck_digest_dentries(struct fsck_walk *w, const uint8_t *const *blk, uint32_t n);
void fsck_digest_take_dentry(struct fsck_walk *w, uint32_t i);
void fsck_digest_finish_dentries(struct fsck_walk *w);
/* The workers' pool, NULL without workers. */
struct f2fs_workers *fsck_digest_pool(const struct fsck_walk *w);
/* The smallest batch the workers take, dflt unless --thread-min says. */
uint32_t fsck_digest_batch_min(const struct fsck_walk *w, uint32_t dflt);

/* fsck_prefetch.c: while the walk checks a batch of inode blocks, a
 * worker reads the next batch's (the addresses the walk predicts it will
 * pop) from the page cache into a buffer of its own.  The walk takes them
 * when it pops exactly those addresses; anything else (another batch, a
 * block the page cache lacked and that cannot be read now, an error) is
 * read the usual way, so what the walk sees never depends on it. */
#define FSCK_PREFETCH_DEPTH	2u	/* batches read ahead at most */
void fsck_prefetch_stop(struct fsck_walk *w);
/* Batches read ahead now (the next ones the walk will pop, in order). */
uint32_t fsck_prefetch_queued(const struct fsck_walk *w);
/* Start reading the n sorted addrs of the batch after those queued;
 * false when not started (no workers, too few blocks, the device's reads
 * cannot be shared, FSCK_PREFETCH_DEPTH queued). */
bool fsck_prefetch_inodes(struct fsck_walk *w, const uint32_t *addrs, uint32_t n);
/* When the prefetch read exactly the n sorted addrs, point blk at them
 * (w->ibuf becomes their buffer) and return true; else false, with any
 * prefetch dropped.  Call before each batch is read. */
bool fsck_prefetch_take(struct fsck_walk *w, const uint32_t *addrs, uint32_t n,
			const uint8_t **blk);

/* f2fs_dentry_hash() of the len bytes at name (a digest answers for a
 * name read in place from the dentry block being checked). */
uint32_t fsck_dentry_hash_of(const struct fsck_walk *w, const uint8_t *name, uint32_t len);

/* fsck_pname.c: names of queued inodes; full paths only on demand. */
/* The root directory's name ("/"); NULL when out of memory. */
struct fsck_pname *fsck_pname_root(void);
/* Entry name (printable) in directory dir (NULL: a directory whose path is
 * unknown, shown as "<ino dir_ino>"); holds a reference to dir. */
struct fsck_pname *fsck_pname_child(struct fsck_pname *dir, uint32_t dir_ino, const char *name);
/* A chunk of bytes (more than 64 KiB) for dir's next entries' pnames, set
 * aside before a large directory's scan; its data and capacity, or NULL
 * (the pnames then take chunks as they come). */
void *fsck_pname_reserve(struct fsck_pname *dir, size_t bytes, size_t *cap);
/* The bytes of dir's newest chunk in use: the next pname goes there when
 * it has room. */
size_t fsck_pname_chunk_used(const struct fsck_pname *dir);
/* The most bytes one entry's pname takes (fsck_pname_child()). */
#define FSCK_PNAME_MAX_BYTES	(32u + 4 * F2FS_NAME_LEN + 8)
/* Drop a reference (and the directories' names nothing else holds). */
void fsck_pname_put(struct fsck_pname *pn);
/* The full path, built the first time and kept; NULL for NULL or when
 * out of memory. */
const char *fsck_pname_path(struct fsck_pname *pn);
/* The entry's own name, and its directory's full path as
 * fsck_pname_path() gives it (NULL for a directory whose path is
 * unknown). */
const char *fsck_pname_name(const struct fsck_pname *pn);
const char *fsck_pname_dir_path(struct fsck_pname *pn);

/* fsck_pass_nodes.c */
/* i_blocks, i_size and i_ext against what the walk found of the inode's
 * blocks (w->file), once its tree was walked. */
void fsck_check_sizes(struct fsck_walk *w, const struct f2fs_inode *ri);
/* fsck_inode.c: a symlink (inode ino) whose i_size cuts the target data
 * holds (up to its first NUL, at most max bytes) is reported and its
 * i_size fixed; returns the size the target has. */
uint64_t fsck_symlink_size_fix(struct fsck_walk *w, uint32_t ino, const struct f2fs_inode *ri,
			       const uint8_t *data, uint32_t max);
/* Queue inode ino; the item takes pn (put on failure).  An item named by
 * an entry gets the entry's location (loc) after the push. */
int fsck_walk_push(struct fsck_walk *w, uint32_t ino, uint8_t ftype, enum fsck_item_kind kind,
		   struct fsck_pname *pn);
/* Append to vec[nvec..] the runs of addrs[lo, hi) (sorted ascending):
 * each stretch of consecutive block addresses is one run, block i read
 * into buf + i blocks; a run never joins vec[nvec - 1].  Returns the new
 * count (at most nvec + hi - lo). */
size_t fsck_addr_runs(const uint32_t *addrs, uint32_t lo, uint32_t hi, uint8_t *buf,
		      struct f2fs_io_vec *vec, size_t nvec);
int fsck_read_sorted(struct fsck_walk *w, const uint32_t *addrs, uint32_t n, uint8_t *buf,
		     const uint8_t **blk);
/* *buf, one of the walk's batch buffers, taken from the device's spares
 * (f2fs_dev_buf_take()) on first use; NULL when out of memory. */
uint8_t *fsck_walk_buf(struct fsck_walk *w, uint8_t **buf);
uint8_t fsck_mode_to_ftype(uint16_t mode);
/* An entry names inode ino, which the walk already queued: false when the
 * walk refused that inode (the entry was reported and dropped), else true
 * (the name is remembered while the inode waits). */
bool fsck_walk_name(struct fsck_walk *w, uint32_t ino, struct fsck_pname *dir, uint32_t dir_ino,
		    const char *name, const struct fsck_dent_loc *loc, uint8_t ftype);

/* fsck_inode.c: checks of the inode's own fields; fills w->file.
 * Returns false when the inode is too broken to walk its blocks. */
bool fsck_check_inode_fields(struct fsck_walk *w, const struct fsck_item *it,
			     const struct f2fs_node *node, uint32_t addr);
void fsck_check_xattrs(struct fsck_walk *w, const struct f2fs_node *inode,
		       const struct f2fs_node *xnode);
uint32_t fsck_inline_xattr_addrs(const struct fsck_ctx *ctx, const struct f2fs_inode *ri);
uint32_t fsck_extra_words(const struct f2fs_inode *ri);
/* Where an inline directory's dentry area lies in its inode block (format
 * notes §8.5): byte offsets from the block's start of its bitmap, entries
 * and names, and its slots.  False, with no slots, when the extra
 * attributes and the inline xattr area leave it no room. */
struct fsck_inline_dents {
	uint32_t nslots;
	uint32_t bitmap_off, de_off, name_off;
};
bool fsck_inline_dents(const struct fsck_ctx *ctx, const struct f2fs_inode *ri,
		       struct fsck_inline_dents *d);

/* fsck_quota.c: what the walk tells the quota check */
void fsck_quota_charge(struct fsck_ctx *ctx, uint32_t ino, const struct f2fs_inode *ri,
		       uint64_t blocks);
void fsck_quota_note_inode(struct fsck_ctx *ctx, int type, const struct fsck_file *file,
			   uint32_t inode_addr);
/* Blocks given back after the walk to an inode it charged. */
void fsck_quota_charge_blocks(struct fsck_ctx *ctx, uint32_t ino, const struct f2fs_inode *ri,
			      uint64_t blocks);
void fsck_quota_note_block(struct fsck_ctx *ctx, int type, uint64_t fofs, uint32_t addr,
			   uint32_t owner, uint32_t ofs_in_node);
/* A slot of a quota file's direct node that holds NEW_ADDR (a block the
 * kernel reserved): the rebuild may give it a block. */
void fsck_quota_note_reserved(struct fsck_ctx *ctx, int type, uint64_t fofs, uint32_t owner,
			      uint32_t ofs_in_node);

/* fsck_shared.c: a data slot names a block the walk already gave away */
enum fsck_share fsck_shared_claim(struct fsck_walk *w, uint32_t nid, uint32_t ofs_in_node,
				  uint64_t fofs, uint32_t addr);
/* After the walk: each losing slot gets its own block back, or a hole;
 * each lost direct node noted is rebuilt from its blocks' summaries. */
int fsck_shared_settle(struct fsck_walk *w);
/* The dentry block of a directory's data slot that cannot keep the block
 * it names (bad): the one block valid in SIT, used by nothing else and
 * shaped as a dentry block, whose summary names the slot; 0 if none. */
uint32_t fsck_shared_dir_home(struct fsck_walk *w, uint32_t nid, uint32_t ofs_in_node,
			      uint32_t bad);
/* A direct node reference the walk drops because its block no longer
 * holds the node (repair only; regular files that are not compressed). */
void fsck_shared_lost_dnode(struct fsck_walk *w, const struct fsck_node_ref *r);
/* An indirect or double-indirect node reference whose block no longer
 * holds the node (its footer names another nid): the node rebuilt from
 * its children's footers, as a new node of the repair, or NULL (not
 * repairing, nothing found). */
const struct f2fs_node *fsck_shared_rebuild_inner(struct fsck_walk *w, const struct fsck_node_ref *r);

/* fsck_pass_ssa.c: summaries for fsck_shared.c */
/* The summary entry of data block addr (false when there is none). */
bool fsck_ssa_lookup(struct fsck_ctx *ctx, uint32_t addr, struct f2fs_summary *out);
/* The queued expected entry of addr, or NULL. */
struct fsck_ssa_ent *fsck_ssa_queued(struct fsck_ctx *ctx, uint32_t addr);
/* Call fn for every summary entry of every segment that may hold data,
 * with past_log set for blocks where a current log writes next. */
typedef void (*fsck_sum_fn)(void *arg, uint32_t blkaddr, const struct f2fs_summary *s,
			    bool past_log);
int fsck_ssa_for_each_data(struct fsck_ctx *ctx, fsck_sum_fn fn, void *arg);

/* fsck_recheck.c: the walk has checked inode it->ino whole (f: what it
 * found): when a fix of it is planned, keep what the targeted re-check
 * after the repair needs to check the block written for it again. */
void fsck_recheck_note(struct fsck_ctx *ctx, const struct fsck_item *it,
		       const struct fsck_file *f);

/* fsck_pass_dir.c */
void fsck_check_dir_blocks(struct fsck_walk *w, const struct fsck_item *it,
			   const struct f2fs_inode *ri);
void fsck_dir_spares_free(struct fsck_walk *w);
void fsck_check_inline_dir(struct fsck_walk *w, const struct fsck_item *it,
			   const struct f2fs_node *node);

#endif
