/*
 * fsck_pass_dir.c - pass 5, directories (run by the node walk for every
 * directory it checks): dentry bitmaps, name lengths and slots, inode
 * numbers, file types, name hashes (in casefolded directories over the
 * name as lib/casefold.c folds it; names that are not well-formed UTF-8
 * are counted as unverifiable) and hash-bucket positions
 * per level (a misplaced entry is fixed by another i_dir_level when one
 * places every entry, else moved to its bucket by fsck_lpf.c), '.' and
 * '..', directories linked twice.  Every valid entry
 * bumps its inode's link count; inodes not yet queued are pushed on the
 * walk's stack with their path.
 */
#include <stdlib.h>
#include <string.h>

#include "f2fs_array.h"
#include "f2fs_casefold.h"
#include "f2fs_crc.h"
#include "f2fs_err.h"
#include "fsck_walk.h"

/* The i_dir_level values a misplaced entry may be fixed by (0 to 8). */
#define DIR_LEVELS	9u

/* The hashed entries' positions under every candidate i_dir_level, kept
 * as the scan goes (not a list of entries: a directory of 100,000 names
 * would hold 800 KB of it), to find the level under which misplaced
 * entries would be in place and the depth it gives. */
struct level_fit {
	uint16_t fits;			/* bit dl: every entry so far in its bucket */
	uint32_t max_level[DIR_LEVELS];	/* deepest level holding an entry, + 1 */
	/* the block of the last entry, its level and bucket under each dl */
	uint32_t bidx;			/* UINT32_MAX: none yet */
	uint32_t level[DIR_LEVELS];
	uint64_t bucket[DIR_LEVELS], buckets[DIR_LEVELS];
};

/* A name the directory links, found again by its fingerprint. */
struct name_seen {
	uint64_t fp;		/* name_len and a hash of the bytes */
	uint32_t blk;		/* index in dir_state.blocks */
	uint32_t bidx;		/* dentry block index (UINT32_MAX inline) */
	uint32_t ino;
	uint16_t slot;
};

struct dir_state {
	struct fsck_dir_walk d;
	bool seen_dot, seen_dotdot;
	/* for fixes */
	struct fsck_dent_loc loc;	/* the block being scanned (slot unset) */
	const void *blk;		/* that block as read */
	struct fsck_dent_loc loc0;	/* block 0 (or the inline area) */
	const void *blk0;
	bool have0;
	uint32_t max_level;		/* deepest level holding a block, + 1 */
	uint64_t max_bidx;		/* last dentry block + 1 */
	bool misplaced;
	struct level_fit fit;		/* of every hashed entry (note_placed()) */
	struct fsck_dent_move *moves;	/* the misplaced entries */
	uint32_t n_moves, cap_moves;
	uint16_t low[2];		/* entries other than dots at slot 0 or 1 */
	uint32_t n_low;			/* of block 0 or the inline area */
	struct name_seen *seen;		/* every name linked, for repeats */
	uint32_t n_seen, cap_seen;
	struct fsck_dent_loc *blocks;	/* the location of each block scanned */
	uint32_t n_blocks, cap_blocks;
	/* the entry being scanned: the hash of its name, once computed
	 * (scan_hash()), for the checks that look at it again */
	const uint8_t *memo_name;
	uint32_t memo_len, memo_hash;
	bool memo_ok;
	bool scratch_set;		/* the sorts' scratch sized for its names */
};

/* The location of slot i of the block being scanned. */
static const struct fsck_dent_loc *slot_loc(struct dir_state *s, uint32_t slot)
{
	s->loc.slot = (uint8_t)slot;
	return &s->loc;
}

static void fix_entry(struct fsck_walk *w, struct dir_state *s, uint32_t slot,
		      enum fsck_dent_op op, uint32_t val)
{
	fsck_fix_dentry(w->ctx, slot_loc(s, slot), s->blk, op, val);
}

/* ---- hash-table geometry ---- */

/* Level and bucket of dentry block bidx. */
static void block_position(uint64_t bidx, uint32_t dir_level, uint32_t *level, uint64_t *bucket)
{
	uint64_t start = 0;

	for (uint32_t l = 0; l < MAX_DIR_HASH_DEPTH; l++) {
		uint64_t span = f2fs_dir_buckets(l, dir_level) * f2fs_bucket_blocks(l);

		if (bidx < start + span) {
			*level = l;
			*bucket = (bidx - start) / f2fs_bucket_blocks(l);
			return;
		}
		start += span;
	}
	*level = MAX_DIR_HASH_DEPTH;
	*bucket = 0;
}

/* ---- names ---- */

/* Printable copy of a name (non-printable bytes as \xNN). */
static void printable(char *out, size_t cap, const uint8_t *name, uint32_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;

	for (uint32_t i = 0; i < len && o + 5 < cap; i++) {
		uint8_t c = name[i];

		if (c >= 0x20 && c < 0x7f && c != '\\') {
			out[o++] = (char)c;
		} else {
			out[o++] = '\\';
			out[o++] = 'x';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		}
	}
	out[o] = 0;
}

static char *child_path(const char *parent, uint32_t parent_ino, const char *name)
{
	size_t n = strlen(name) + (parent ? strlen(parent) : 24) + 3;
	char *p = malloc(n);

	if (!p)
		return NULL;
	if (!parent)
		snprintf(p, n, "<ino %u>/%s", parent_ino, name);
	else if (!strcmp(parent, "/"))
		snprintf(p, n, "/%s", name);
	else
		snprintf(p, n, "%s/%s", parent, name);
	return p;
}

/* The directory's full path, built when a message first needs it. */
static const char *dir_path(const struct dir_state *s)
{
	return fsck_pname_path(s->d.pn);
}

/* Hash the kernel would store, or false when it cannot be computed here. */
/* The hash of name in directory d; false when it cannot be computed. */
static bool name_hash(const struct fsck_dir_walk *d, const uint8_t *name, uint32_t len,
		      uint32_t *hash)
{
	uint8_t folded[F2FS_CASEFOLD_MAX];
	int n;

	if (!d->casefold) {
		*hash = f2fs_dentry_hash(name, len);
		return true;
	}
	if (d->encrypted)
		return false;
	n = f2fs_casefold(name, len, folded, sizeof(folded));
	if (n < 0)
		return false;	/* not well-formed UTF-8 */
	*hash = f2fs_dentry_hash(folded, (size_t)n);
	return true;
}

/* As name_hash(), for an entry the scan meets: a worker may have hashed
 * its name already. */
static bool entry_hash(struct fsck_walk *w, const struct fsck_dir_walk *d,
		       const uint8_t *name, uint32_t len, uint32_t *hash)
{
	if (!d->casefold) {
		*hash = fsck_dentry_hash_of(w, name, len);
		return true;
	}
	return name_hash(d, name, len, hash);
}

/* entry_hash() of the entry being scanned: each of its checks asks for
 * the same name's hash, computed once (check_dentries() forgets it when
 * the scan moves on). */
static bool scan_hash(struct fsck_walk *w, struct dir_state *s, const uint8_t *name,
		      uint32_t len, uint32_t *hash)
{
	if (s->memo_name != name || s->memo_len != len) {
		s->memo_ok = entry_hash(w, &s->d, name, len, &s->memo_hash);
		s->memo_name = name;
		s->memo_len = len;
	}
	*hash = s->memo_hash;
	return s->memo_ok;
}

/* scan_hash(), counting the names it cannot hash. */
static bool expected_hash(struct fsck_walk *w, struct dir_state *s,
			  const uint8_t *name, uint32_t len, uint32_t *hash)
{
	if (scan_hash(w, s, name, len, hash))
		return true;
	w->ctx->st.unverified_hashes++;
	return false;
}

/* When an entry's name does not hash to its hash_code: the name its inode
 * keeps (i_name, written when it was linked), if that inode names this
 * directory as i_pino and the kept name, as long as the entry's, hashes to
 * the entry's hash_code.  The name bytes were damaged then, not the rest of
 * the slot, and the repair writes the name back (into out). */
static bool name_from_inode(struct fsck_walk *w, const struct dir_state *s,
			    const struct f2fs_dir_entry *de, uint32_t len, uint8_t *out)
{
	struct fsck_ctx *ctx = w->ctx;
	uint32_t ino = le32_to_cpu(de->ino), addr, hash;
	struct f2fs_nat_entry e;
	struct f2fs_node *n;
	bool ok = false;

	if (ino < F2FS_RESERVED_NODE_NUM || ino >= ctx->fs->max_nid ||
	    !fsck_nat_lookup(ctx, ino, &e))
		return false;
	addr = le32_to_cpu(e.block_addr);
	if (!fsck_addr_in_main(ctx, addr) || !(n = malloc(sizeof(*n))))
		return false;
	if (!f2fs_dev_read(ctx->fs->dev, addr, 1, n) && le32_to_cpu(n->footer.nid) == ino &&
	    le32_to_cpu(n->footer.ino) == ino && le32_to_cpu(n->i.i_pino) == s->d.ino &&
	    le32_to_cpu(n->i.i_namelen) == len && len <= F2FS_NAME_LEN &&
	    (s->d.encrypted || (!memchr(n->i.i_name, '/', len) && !memchr(n->i.i_name, 0, len))) &&
	    name_hash(&s->d, n->i.i_name, len, &hash) && hash == le32_to_cpu(de->hash_code)) {
		memcpy(out, n->i.i_name, len);
		ok = true;
	}
	free(n);
	return ok;
}

static bool is_dots(const uint8_t *name, uint32_t len)
{
	return (len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.');
}

/* When an entry's name_len is damaged (the entry, read with it, is invalid
 * or does not hash to its hash_code): the length of the name its inode
 * keeps (i_namelen, i_name), if that inode names this directory as i_pino,
 * its name fits the block from this slot on, the slot's name bytes begin
 * with it and it hashes to the entry's hash_code.  Only the length was
 * damaged then; 0 when not. */
static uint32_t namelen_from_inode(struct fsck_walk *w, struct dir_state *s,
				   const struct f2fs_dir_entry *de, const uint8_t *name,
				   uint32_t slot, uint32_t nslots)
{
	struct fsck_ctx *ctx = w->ctx;
	uint32_t ino = le32_to_cpu(de->ino), len = le16_to_cpu(de->name_len), kept = 0;
	uint32_t addr, hash, klen;
	struct f2fs_nat_entry e;
	struct f2fs_node *n;

	if (len && len <= F2FS_NAME_LEN && slot + GET_DENTRY_SLOTS(len) <= nslots &&
	    (is_dots(name, len) || !scan_hash(w, s, name, len, &hash) ||
	     hash == le32_to_cpu(de->hash_code)))
		return 0;	/* the entry holds together as it is */
	if (ino < F2FS_RESERVED_NODE_NUM || ino >= ctx->fs->max_nid || !fsck_nat_lookup(ctx, ino, &e))
		return 0;
	addr = le32_to_cpu(e.block_addr);
	if (!fsck_addr_in_main(ctx, addr) || !(n = malloc(sizeof(*n))))
		return 0;
	if (!f2fs_dev_read(ctx->fs->dev, addr, 1, n) && le32_to_cpu(n->footer.nid) == ino &&
	    le32_to_cpu(n->footer.ino) == ino && le32_to_cpu(n->i.i_pino) == s->d.ino &&
	    (klen = le32_to_cpu(n->i.i_namelen)) != len && klen && klen <= F2FS_NAME_LEN &&
	    slot + GET_DENTRY_SLOTS(klen) <= nslots && !memcmp(name, n->i.i_name, klen) &&
	    !is_dots(name, klen) &&
	    (s->d.encrypted || (!memchr(name, '/', klen) && !memchr(name, 0, klen))) &&
	    name_hash(&s->d, name, klen, &hash) && hash == le32_to_cpu(de->hash_code))
		kept = klen;
	free(n);
	return kept;
}

/* ---- one entry ---- */

/* File type of inode ino for an entry that has none valid: from the walk
 * when it checked the inode, else from the inode block. */
static uint8_t fsck_entry_ftype(struct fsck_ctx *ctx, uint32_t ino)
{
	struct f2fs_nat_entry e;
	struct f2fs_node n;

	if (ino < ctx->fs->max_nid && (ctx->ni[ino].flags & FSCK_NI_INODE))
		return ctx->ni[ino].ftype;
	if (!fsck_nat_lookup(ctx, ino, &e) || !fsck_addr_in_main(ctx, le32_to_cpu(e.block_addr)) ||
	    f2fs_dev_read(ctx->fs->dev, le32_to_cpu(e.block_addr), 1, &n))
		return F2FS_FT_REG_FILE;
	return fsck_mode_to_ftype(le16_to_cpu(n.i.i_mode)) ?: F2FS_FT_REG_FILE;
}

static void check_dots(struct fsck_walk *w, struct dir_state *s, const struct f2fs_dir_entry *de,
		       uint32_t slot, bool first_block, bool dot, const char *pname)
{
	struct fsck_ctx *ctx = w->ctx;
	uint32_t ino = le32_to_cpu(de->ino);

	if (le32_to_cpu(de->hash_code)) {
		if (fsck_problem(ctx, PR_DENT_HASH, FSCK_OBJ(.ino = s->d.ino, .path = dir_path(s),
			    .str = pname, .found = le32_to_cpu(de->hash_code), .expected = 0)))
			fix_entry(w, s, slot, FSCK_DENT_HASH, 0);
	}
	if (de->file_type != F2FS_FT_DIR && ((first_block && dot && slot == 0) ||
					     (first_block && !dot && slot == 1))) {
		if (fsck_problem(ctx, PR_DENT_FTYPE, FSCK_OBJ(.ino = s->d.ino, .path = dir_path(s),
			    .str = pname, .found = de->file_type, .expected = F2FS_FT_DIR)))
			fix_entry(w, s, slot, FSCK_DENT_FTYPE, F2FS_FT_DIR);
	}
	if (first_block && dot && slot == 0) {
		s->seen_dot = true;
		if (ino != s->d.ino) {
			if (fsck_problem(ctx, PR_DENT_DOT, FSCK_OBJ(.ino = s->d.ino, .path = dir_path(s),
				    .str = "names another inode")))
				fix_entry(w, s, slot, FSCK_DENT_INO, s->d.ino);
		}
	} else if (first_block && !dot && slot == 1) {
		s->seen_dotdot = true;
		if (s->d.parent && ino != s->d.parent) {
			if (fsck_problem(ctx, PR_DENT_DOTDOT, FSCK_OBJ(.ino = s->d.ino, .path = dir_path(s),
				    .found = ino, .expected = s->d.parent)))
				fix_entry(w, s, slot, FSCK_DENT_INO, s->d.parent);
		}
	} else {
		if (fsck_problem(ctx, PR_DENT_DUP_DOTS, FSCK_OBJ(.ino = s->d.ino, .path = dir_path(s),
			    .str = pname, .idx = slot)))
			fix_entry(w, s, slot, FSCK_DENT_DROP, 0);
	}
}

/* The type of queued inode ino as another entry, of type ftype, finds
 * it.  Once the inode is checked, its mode's; before, the two entries'
 * type when they agree, else the inode block's mode (an entry's type is a
 * hint: a regular file's second name is no directory hard link because
 * its first entry says directory). */
static uint8_t queued_ftype(struct fsck_ctx *ctx, const struct fsck_nid_info *ni, uint32_t ino,
			    uint8_t ftype)
{
	if (ni->flags & FSCK_NI_DIR)
		return F2FS_FT_DIR;
	if ((ni->flags & FSCK_NI_INODE) || ni->ftype == ftype)
		return ni->ftype;
	if (ni->ftype != F2FS_FT_DIR && ftype != F2FS_FT_DIR)
		return ni->ftype;	/* no directory either way: as before */
	return fsck_entry_ftype(ctx, ino);
}

/* Inode ino is the volume's quota file of some type, made (by mkfs or
 * fsck) without a parent or a name: no entry may name it, or a user
 * could write it, or unlink it and have it freed. */
static bool quota_file_ino(struct fsck_ctx *ctx, uint32_t ino)
{
	struct f2fs_nat_entry e;
	struct f2fs_node n;
	bool quota = false;

	if (!(ctx->fs->features & F2FS_FEATURE_QUOTA_INO))
		return false;
	for (int t = 0; t < F2FS_MAX_QUOTAS; t++)
		if (le32_to_cpu(ctx->fs->sb.qf_ino[t]) == ino)
			quota = true;
	if (!quota || !fsck_nat_lookup(ctx, ino, &e) ||
	    !fsck_addr_in_main(ctx, le32_to_cpu(e.block_addr)) ||
	    f2fs_dev_read(ctx->fs->dev, le32_to_cpu(e.block_addr), 1, &n))
		return false;
	return !le32_to_cpu(n.i.i_pino) && !le32_to_cpu(n.i.i_namelen);
}

/* Room for one more seen name, its page touched by a worker when one
 * went ahead (fsck_walk_push() does the same for the stack). */
static int seen_room(struct fsck_walk *w, struct dir_state *s)
{
	size_t need = (size_t)(s->n_seen + 1) * 2 * sizeof(*w->sort_scratch.pairs);

	if (f2fs_warm_room32(&w->warm_seen, &s->seen, sizeof(*s->seen), &s->cap_seen,
			     s->n_seen + 1, 64))
		return -ENOMEM;
	/* the sorts' scratch, when set aside for this directory */
	if (s->scratch_set && need > w->warm_sort.ready &&
	    need <= w->sort_scratch.cap * sizeof(*w->sort_scratch.pairs))
		f2fs_warm_reach(&w->warm_sort, w->sort_scratch.pairs,
				w->sort_scratch.cap * sizeof(*w->sort_scratch.pairs), need);
	return 0;
}

/* Names a directory's arrays are sized for before its scan, at most; and
 * the fewest worth it (smaller ones grow from the spares below). */
#define RESERVE_NAMES_MAX	(1u << 20)
#define RESERVE_NAMES_MIN	16384u
/* The pname bytes set aside per name: a name of up to 12 printable bytes
 * in its 8-byte-aligned pname (longer names take more slots too). */
#define PNAME_BYTES_PER_NAME	40u

/* Room set aside before the scan of a large directory for every name its
 * n_blocks dentry blocks can hold (a name takes a slot at least): the
 * seen-name array and the sorts' scratch then never move as the names
 * come, and a worker touches their pages ahead.  Virtual memory only;
 * without it they grow as they always did. */
static void reserve_names(struct fsck_walk *w, struct dir_state *s, uint32_t n_blocks)
{
	uint64_t bound = (uint64_t)n_blocks * NR_DENTRY_IN_BLOCK;

	if (bound > RESERVE_NAMES_MAX)
		bound = RESERVE_NAMES_MAX;
	if (bound <= RESERVE_NAMES_MIN)
		return;
	(void)F2FS_ARRAY_ROOM32(s->seen, s->cap_seen, (uint32_t)bound, 64);
	f2fs_warm_stop(&w->warm_sort);	/* the scratch may move */
	s->scratch_set = !f2fs_sort_scratch_reserve(&w->sort_scratch, (size_t)bound);
	w->pname_chunk = fsck_pname_reserve(s->d.pn, (size_t)bound * PNAME_BYTES_PER_NAME,
					    &w->pname_cap);
}

/* Before an entry's pname is made (for the child pushed, or for the name
 * remembered while its inode waits): the bytes it may take in the chunk
 * set aside for the directory's pnames are the walk's (touched ahead).
 * A pname that does not fit goes to a chunk of its own making. */
static void pname_room(struct fsck_walk *w, struct dir_state *s)
{
	size_t need = fsck_pname_chunk_used(s->d.pn) + FSCK_PNAME_MAX_BYTES;

	if (need > w->pname_cap)
		need = w->pname_cap;
	if (need > w->warm_pname.ready)
		f2fs_warm_reach(&w->warm_pname, w->pname_chunk, w->pname_cap, need);
}

/* The inode an entry names: push it, or account another link.  True
 * when the entry counts as a link of that inode. */
static bool link_child(struct fsck_walk *w, struct dir_state *s, const struct f2fs_dir_entry *de,
		       const char *pname, uint32_t slot, const uint8_t *name, uint32_t len)
{
	struct fsck_ctx *ctx = w->ctx;
	uint32_t ino = le32_to_cpu(de->ino);
	struct fsck_nid_info *ni;
	struct f2fs_nat_entry e;
	struct fsck_pname *pn;
	char *path;

	if (ino >= F2FS_RESERVED_NODE_NUM && ino < ctx->fs->max_nid)
		fsck_nat_restore(ctx, ino, ino, 0);	/* an empty entry of an intact inode */
	if (ino < F2FS_RESERVED_NODE_NUM || ino >= ctx->fs->max_nid ||
	    !fsck_nat_lookup(ctx, ino, &e) || !le32_to_cpu(e.block_addr)) {
		if (fsck_problem(ctx, PR_DENT_INO, FSCK_OBJ(.ino = s->d.ino, .path = dir_path(s),
			    .str = pname, .found = ino)))
			fix_entry(w, s, slot, FSCK_DENT_DROP, 0);
		return false;
	}
	if (le32_to_cpu(e.ino) != ino && !fsck_nat_fix_inode_owner(ctx, ino)) {
		if (fsck_problem(ctx, PR_DENT_NOT_INODE, FSCK_OBJ(.ino = s->d.ino, .path = dir_path(s),
			    .str = pname, .found = ino)))
			fix_entry(w, s, slot, FSCK_DENT_DROP, 0);
		return false;
	}
	if (quota_file_ino(ctx, ino)) {
		if (fsck_problem(ctx, PR_DENT_INO, FSCK_OBJ(.ino = s->d.ino, .path = dir_path(s),
			    .str = pname, .found = ino)))
			fix_entry(w, s, slot, FSCK_DENT_DROP, 0);
		return false;
	}
	/* both a pushed child's pname and a remembered name (fsck_walk_name())
	 * are made in the directory's chunk */
	if (w->pname_chunk)
		pname_room(w, s);
	ni = &ctx->ni[ino];
	if ((ni->flags & FSCK_NI_QUEUED) && !fsck_walk_name(w, ino, s->d.pn, s->d.ino, pname,
							  slot_loc(s, slot), de->file_type))
		return false;	/* its inode was refused: the entry went with it */
	ni->links_found++;
	ctx->st.dentries++;
	if (ni->flags & FSCK_NI_QUEUED) {
		uint8_t ftype = queued_ftype(ctx, ni, ino, de->file_type);

		if (ftype == F2FS_FT_DIR) {
			path = child_path(dir_path(s), s->d.ino, pname);
			bool planned = fsck_problem(ctx, PR_DIR_HARDLINK, FSCK_OBJ(.ino = ino,
									      .path = path));

			free(path);
			if (planned) {
				fix_entry(w, s, slot, FSCK_DENT_DROP, 0);
				ni->links_found--;
				ctx->st.dentries--;
				return false;
			}
		} else if (ftype != de->file_type &&
			   ((ni->flags & FSCK_NI_INODE) || ni->ftype == F2FS_FT_DIR ||
			    de->file_type == F2FS_FT_DIR)) {	/* ftype is the inode's */
			path = child_path(dir_path(s), s->d.ino, pname);
			bool planned = fsck_problem(ctx, PR_DENT_FTYPE, FSCK_OBJ(.ino = ino, .path = path,
						    .str = path, .found = de->file_type,
						    .expected = ftype));

			free(path);
			if (planned)
				fix_entry(w, s, slot, FSCK_DENT_FTYPE, ftype);
		}
		return true;
	}
	pn = fsck_pname_child(s->d.pn, s->d.ino, pname);
	if (!pn) {
		w->err = -ENOMEM;
		return false;
	}
	if (s->d.ino == F2FS_ROOT_INO && len == 10 && !memcmp(name, "lost+found", 10) &&
	    de->file_type == F2FS_FT_DIR)
		ctx->plan->lost_found = ino;
	if (!fsck_walk_push(w, ino, de->file_type, ITEM_NS, pn))
		w->stack[w->n - 1].loc = *slot_loc(s, slot);
	return true;
}

/* Block bidx's level and bucket under each candidate i_dir_level; the
 * depth each would give counts it. */
static void fit_block(struct level_fit *f, uint32_t bidx)
{
	f->bidx = bidx;
	for (uint32_t dl = 0; dl < DIR_LEVELS; dl++) {
		block_position(bidx, dl, &f->level[dl], &f->bucket[dl]);
		if (f->level[dl] + 1 > f->max_level[dl])
			f->max_level[dl] = f->level[dl] + 1;
		f->buckets[dl] = f->level[dl] < MAX_DIR_HASH_DEPTH ?
				 f2fs_dir_buckets(f->level[dl], dl) : 1;
	}
}

/* A hashed entry of block bidx: the levels it is out of its bucket under
 * are no fix. */
static void note_placed(struct dir_state *s, uint32_t hash, uint32_t bidx)
{
	struct level_fit *f = &s->fit;

	if (bidx == UINT32_MAX)
		return;
	if (bidx != f->bidx)
		fit_block(f, bidx);
	for (uint32_t dl = 0; dl < DIR_LEVELS; dl++) {
		if (!(f->fits & (1u << dl)))
			continue;
		if (f->level[dl] >= MAX_DIR_HASH_DEPTH || hash % f->buckets[dl] != f->bucket[dl])
			f->fits &= (uint16_t)~(1u << dl);
	}
}

/* Remember a misplaced entry: it moves to its bucket unless another
 * i_dir_level puts every entry in place (fix_dir_inode()). */
static void note_misplaced(struct fsck_walk *w, struct dir_state *s, uint32_t slot, uint32_t hash)
{
	if (F2FS_ARRAY_ROOM32(s->moves, s->cap_moves, s->n_moves + 1, 8)) {
		w->ctx->plan->err = -ENOMEM;
		return;
	}
	s->moves[s->n_moves].loc = *slot_loc(s, slot);
	s->moves[s->n_moves++].hash = hash;
}

/* An entry whose name bytes were damaged (name_from_inode()): reported as
 * a hash mismatch, its name written back; the check goes on with it. */
static bool restore_name(struct fsck_walk *w, struct dir_state *s, const struct f2fs_dir_entry *de,
			 const uint8_t *name, uint32_t len, uint32_t slot, const char *pname,
			 uint8_t *kept)
{
	uint32_t hash;

	if (!s->d.encrypted && (memchr(name, '/', len) || memchr(name, 0, len)))
		return false;	/* F2FS-5015: the entry goes */
	if (!scan_hash(w, s, name, len, &hash)) {
		/* not well-formed UTF-8 in a casefolded directory: the kernel
		 * hashes such a name's bytes as they are (or, with strict
		 * encoding, refuses it); either way a lookup cannot find it
		 * under the hash its inode's kept name has */
		if (!s->d.casefold || s->d.encrypted)
			return false;
		hash = f2fs_dentry_hash(name, len);
	}
	if (hash == le32_to_cpu(de->hash_code))
		return false;
	if (!name_from_inode(w, s, de, len, kept))
		return false;
	if (fsck_problem(w->ctx, PR_DENT_HASH, FSCK_OBJ(.ino = s->d.ino, .path = dir_path(s), .str = pname,
		    .found = le32_to_cpu(de->hash_code), .expected = hash)))
		fsck_fix_dent_name(w->ctx, slot_loc(s, slot), s->blk, kept, len);
	return true;
}

/* ---- names linked twice ---- */

static uint64_t name_fp(const uint8_t *name, uint32_t len)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	for (uint32_t i = 0; i < len; i++)
		h = (h ^ name[i]) * 1099511628211ULL;
	return (h & ~0xFFULL) | (len & 0xFF);
}

static void note_seen(struct fsck_walk *w, struct dir_state *s, const uint8_t *name, uint32_t len,
		      uint32_t slot, uint32_t bidx, uint32_t ino)
{
	if (!s->n_blocks)
		return;
	if (seen_room(w, s)) {
		w->err = -ENOMEM;
		return;
	}
	s->seen[s->n_seen++] = (struct name_seen){ .fp = name_fp(name, len), .blk = s->n_blocks - 1,
						    .bidx = bidx, .ino = ino, .slot = (uint16_t)slot };
}

/* The location of the block being scanned, kept for note_seen(). */
static void note_block(struct fsck_walk *w, struct dir_state *s)
{
	if (F2FS_ARRAY_ROOM32(s->blocks, s->cap_blocks, s->n_blocks + 1, 16)) {
		w->err = -ENOMEM;
		return;
	}
	s->blocks[s->n_blocks++] = s->loc;
}

/* The fingerprint's top half: cmp_seen() orders by it first. */
static uint32_t seen_key(const void *a)
{
	return (uint32_t)(((const struct name_seen *)a)->fp >> 32);
}

/* Fingerprint, block index, slot; then the order the scan met them (blk
 * grows with it): no two entries compare equal, so the in-place sort
 * gives the order a stable one would, even for a block index met twice. */
static int cmp_seen(const void *a, const void *b)
{
	const struct name_seen *x = a, *y = b;

	if (x->fp != y->fp)
		return x->fp < y->fp ? -1 : 1;
	if (x->bidx != y->bidx)
		return x->bidx < y->bidx ? -1 : 1;
	if (x->slot != y->slot)
		return x->slot < y->slot ? -1 : 1;
	return x->blk < y->blk ? -1 : x->blk > y->blk;
}

/* The name bytes of a seen entry (as fixed so far), into out; its length. */
static uint32_t seen_name(struct fsck_walk *w, const struct dir_state *s, const struct name_seen *n,
			  uint8_t *out, uint8_t *buf)
{
	const struct fsck_dent_loc *loc = &s->blocks[n->blk];
	const uint8_t *b = fsck_dent_inline(loc) ? (const uint8_t *)fsck_fix_node_peek(w->ctx, loc->dir_ino)
					  : fsck_fix_data_peek(w->ctx, loc->blkaddr);
	const struct f2fs_dir_entry *de;
	uint32_t len;

	if (!b) {
		if (f2fs_dev_read(w->ctx->fs->dev, loc->blkaddr, 1, buf))
			return 0;
		b = buf;
	}
	de = (const void *)(b + loc->de_base + (size_t)n->slot * SIZE_OF_DIR_ENTRY);
	len = le16_to_cpu(de->name_len);
	if (!len || len > F2FS_NAME_LEN || n->slot + GET_DENTRY_SLOTS(len) > loc->nslots)
		return 0;
	memcpy(out, b + fsck_dent_names(loc) + (size_t)n->slot * F2FS_SLOT_LEN, len);
	return len;
}

/* Entries repeating a name for the same inode (a dentry block written over
 * by a copy of another of the directory's blocks, say): the kernel finds
 * the first by lookup, readdir lists both.  The later ones go, with the
 * link they gave.  A name repeated for another inode is left alone. */
/* Directories of more names than this go straight to the sort: their
 * filter would take as much memory as it saves time. */
#define FP_FILTER_MAX	16384u

/* Whether no two of the directory's names share a fingerprint, as an
 * open-addressed set of 32-bit digests of the fingerprints tells (equal
 * names have equal fingerprints, so equal digests): true only when every
 * digest differs; false when two may repeat, or without the memory. */
static bool no_repeats(struct fsck_walk *w, const struct dir_state *s)
{
	uint32_t size = 64, mask, *set;

	if (s->n_seen > FP_FILTER_MAX)
		return false;
	while (size < 2 * s->n_seen)
		size *= 2;
	if (w->fp_set_cap < size) {
		free(w->fp_set);
		w->fp_set = malloc((size_t)size * sizeof(*w->fp_set));
		w->fp_set_cap = w->fp_set ? size : 0;
		if (!w->fp_set)
			return false;
	}
	set = w->fp_set;
	mask = size - 1;
	memset(set, 0, (size_t)size * sizeof(*set));
	for (uint32_t i = 0; i < s->n_seen; i++) {
		uint64_t fp = s->seen[i].fp;
		uint32_t digest = (uint32_t)(fp ^ (fp >> 32)) | 1;	/* 0: an empty slot */
		uint32_t h = (uint32_t)((fp * 0x9E3779B97F4A7C15ull) >> 32) & mask;

		for (; set[h]; h = (h + 1) & mask)
			if (set[h] == digest)
				return false;
		set[h] = digest;
	}
	return true;
}

static void drop_repeated_names(struct fsck_walk *w, struct dir_state *s)
{
	uint8_t a[F2FS_NAME_LEN], b[F2FS_NAME_LEN], *buf = NULL;
	char pname[F2FS_NAME_LEN * 4 + 1];

	if (s->n_seen < 2 || no_repeats(w, s))
		return;
	f2fs_warm_stop(&w->warm_sort);	/* the sort may move the scratch */
	if (f2fs_array_sort_by_key_in(&w->sort_scratch, s->seen, s->n_seen, sizeof(*s->seen),
				      seen_key, cmp_seen))
		f2fs_array_sort(s->seen, s->n_seen, sizeof(*s->seen), cmp_seen);
	for (uint32_t i = 0; i + 1 < s->n_seen; i++) {
		const struct name_seen *first = &s->seen[i];
		uint32_t la;

		if (s->seen[i + 1].fp != first->fp)
			continue;
		if (!buf && !(buf = malloc(F2FS_BLKSIZE))) {	/* seen_name()'s reads */
			w->err = -ENOMEM;
			return;
		}
		la = seen_name(w, s, first, a, buf);
		for (uint32_t k = i + 1; la && k < s->n_seen && s->seen[k].fp == first->fp; k++) {
			const struct name_seen *again = &s->seen[k];
			struct fsck_dent_loc loc = s->blocks[again->blk];

			if (again->ino != first->ino || seen_name(w, s, again, b, buf) != la ||
			    memcmp(a, b, la))
				continue;
			printable(pname, sizeof(pname), a, la);
			if (!fsck_problem(w->ctx, PR_DENT_DUP_NAME, FSCK_OBJ(.ino = s->d.ino,
					  .path = dir_path(s), .str = pname, .found = again->ino,
					  .idx = again->bidx)))
				continue;
			loc.slot = (uint8_t)again->slot;
			fsck_fix_dentry(w->ctx, &loc, NULL, FSCK_DENT_DROP, 0);
			w->ctx->ni[again->ino].links_found--;
			w->ctx->st.dentries--;
		}
		while (i + 1 < s->n_seen && s->seen[i + 1].fp == first->fp)
			i++;
	}
	free(buf);
}

static void check_entry(struct fsck_walk *w, struct dir_state *s, const struct f2fs_dir_entry *de,
			const uint8_t *name, uint32_t len, uint32_t slot, uint32_t bidx,
			uint32_t level, uint64_t bucket)
{
	struct fsck_ctx *ctx = w->ctx;
	bool first_block = bidx == 0 || bidx == UINT32_MAX;
	char pname[F2FS_NAME_LEN * 4 + 1];
	uint8_t kept[F2FS_NAME_LEN];
	bool dropped = false;
	uint32_t hash;

	printable(pname, sizeof(pname), name, len);
	if ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.')) {
		check_dots(w, s, de, slot, first_block, len == 1, pname);
		return;
	}
	if (restore_name(w, s, de, name, len, slot, pname, kept)) {
		name = kept;
		printable(pname, sizeof(pname), name, len);
	}
	if (!s->d.encrypted && (memchr(name, '/', len) || memchr(name, 0, len))) {
		/* the entry goes; its inode is reconnected if nothing else names it */
		dropped = fsck_problem(ctx, PR_DENT_NAME_CHARS, FSCK_OBJ(.ino = s->d.ino,
						 .path = dir_path(s), .str = pname));
		if (dropped)
			fix_entry(w, s, slot, FSCK_DENT_DROP, 0);
	}
	if (de->file_type >= F2FS_FT_MAX) {
		if (fsck_problem(ctx, PR_DENT_BAD_TYPE, FSCK_OBJ(.ino = s->d.ino, .path = dir_path(s),
			    .str = pname, .found = de->file_type)))
			fix_entry(w, s, slot, FSCK_DENT_FTYPE, fsck_entry_ftype(ctx, le32_to_cpu(de->ino)));
	}
	if (expected_hash(w, s, name, len, &hash)) {
		if (hash != le32_to_cpu(de->hash_code)) {
			if (fsck_problem(ctx, PR_DENT_HASH, FSCK_OBJ(.ino = s->d.ino, .path = dir_path(s),
				    .str = pname, .found = le32_to_cpu(de->hash_code), .expected = hash)))
				fix_entry(w, s, slot, FSCK_DENT_HASH, hash);
		}
		if (bidx != UINT32_MAX && level < MAX_DIR_HASH_DEPTH &&
		    hash % f2fs_dir_buckets(level, s->d.dir_level) != bucket) {
			if (hash == le32_to_cpu(de->hash_code))
				fsck_problem(ctx, PR_DENT_POSITION, FSCK_OBJ(.ino = s->d.ino,
					    .path = dir_path(s), .str = pname, .idx = bidx));
			s->misplaced = true;
			if (!dropped)
				note_misplaced(w, s, slot, hash);
		}
		if (!dropped)
			note_placed(s, hash, bidx);
	}
	if (!dropped && link_child(w, s, de, pname, slot, name, len))
		note_seen(w, s, name, len, slot, bidx, le32_to_cpu(de->ino));
}

/* An entry whose name_len alone was damaged (namelen_from_inode()): the
 * length written back, and the scan goes on with it (*len). */
static void restore_namelen(struct fsck_walk *w, struct dir_state *s, const struct f2fs_dir_entry *de,
			    const uint8_t *name, uint32_t slot, uint32_t nslots, uint32_t *len)
{
	char pname[F2FS_NAME_LEN * 4 + 1];
	uint32_t kept = namelen_from_inode(w, s, de, name, slot, nslots);

	if (!kept)
		return;
	printable(pname, sizeof(pname), name, kept);
	if (fsck_problem(w->ctx, PR_DENT_NAME_LEN_KEPT, FSCK_OBJ(.ino = s->d.ino, .path = dir_path(s),
			 .str = pname, .idx = slot, .found = *len, .expected = kept)))
		fix_entry(w, s, slot, FSCK_DENT_NAMELEN, kept);
	*len = kept;
}

/* Scan one dentry area; bidx UINT32_MAX for the inline area. */
static void check_dentries(struct fsck_walk *w, struct dir_state *s, const uint8_t *bitmap,
			   const struct f2fs_dir_entry *dent, const uint8_t *names,
			   uint32_t nslots, uint32_t bidx)
{
	struct fsck_ctx *ctx = w->ctx;
	uint32_t level = 0;
	uint64_t bucket = 0;

	if (bidx != UINT32_MAX) {
		block_position(bidx, s->d.dir_level, &level, &bucket);
		if (level >= s->d.depth)
			fsck_problem(ctx, PR_DENT_DEPTH, FSCK_OBJ(.ino = s->d.ino, .path = dir_path(s),
				    .idx = bidx, .found = s->d.depth));
		if (level < MAX_DIR_HASH_DEPTH && level + 1 > s->max_level)
			s->max_level = level + 1;
		if ((uint64_t)bidx + 1 > s->max_bidx)
			s->max_bidx = (uint64_t)bidx + 1;
	}
	/* every entry's inode is looked up below: their misses at once */
	for (uint32_t i = f2fs_next_bit_le(bitmap, 0, nslots); i < nslots;
	     i = f2fs_next_bit_le(bitmap, i + 1, nslots))
		fsck_prefetch_nid(ctx, le32_to_cpu(dent[i].ino));
	for (uint32_t i = 0; i < nslots && !w->err;) {
		const struct f2fs_dir_entry *de = &dent[i];
		uint32_t len = le16_to_cpu(de->name_len), slots;

		if (!test_bit_le(i, bitmap)) {
			i = f2fs_next_bit_le(bitmap, i + 1, nslots);
			continue;
		}
		s->memo_name = NULL;
		restore_namelen(w, s, de, names + (size_t)i * F2FS_SLOT_LEN, i, nslots, &len);
		if (len == 0 || len > F2FS_NAME_LEN) {
			if (fsck_problem(ctx, PR_DENT_NAME_LEN, FSCK_OBJ(.ino = s->d.ino, .path = dir_path(s),
				    .idx = i, .found = len)))
				fix_entry(w, s, i, FSCK_DENT_DROP, 0);
			i++;
			continue;
		}
		slots = GET_DENTRY_SLOTS(len);
		if (i + slots > nslots) {
			/* the name runs past the end: this slot and the rest go */
			bool planned = fsck_problem(ctx, PR_DENT_SLOTS, FSCK_OBJ(.ino = s->d.ino,
						    .path = dir_path(s), .idx = i, .found = len));

			for (uint32_t k = i; planned && k < nslots; k++)
				if (test_bit_le(k, bitmap))
					fix_entry(w, s, k, FSCK_DENT_DROP, 0);
			break;
		}
		check_entry(w, s, de, names + (size_t)i * F2FS_SLOT_LEN, len, i, bidx, level, bucket);
		if ((bidx == 0 || bidx == UINT32_MAX) && i < 2 && s->n_low < 2 &&
		    !is_dots(names + (size_t)i * F2FS_SLOT_LEN, len))
			s->low[s->n_low++] = (uint16_t)i;
		i += slots;
	}
}

/* The i_dir_level (up to 8) under which every hashed entry is in its
 * bucket, or -1. */
static int find_dir_level(const struct dir_state *s)
{
	for (uint32_t dl = 0; dl < DIR_LEVELS; dl++)
		if (s->fit.fits & (1u << dl))
			return (int)dl;
	return -1;
}

/* Fixes that need the whole directory: level, depth, size. */
static void fix_dir_inode(struct fsck_walk *w, struct dir_state *s)
{
	struct fsck_ctx *ctx = w->ctx;
	struct f2fs_node *c;
	int dl;

	if (s->d.is_inline)
		return;
	if (s->misplaced) {
		dl = find_dir_level(s);
		if (dl >= 0 && (uint32_t)dl != s->d.dir_level) {
			c = fsck_fix_node(ctx, s->d.ino, w->inode_addr, w->inode);
			if (c) {
				c->i.i_dir_level = (uint8_t)dl;
				/* levels move with i_dir_level: the depth of this one */
				s->max_level = s->fit.max_level[dl];
				if (s->max_level > s->d.depth)
					c->i.i_current_depth = cpu_to_le32(s->max_level);
			}
		} else if (dl < 0) {
			/* no level fits them all: each goes to a block of its
			 * bucket when the repair is applied (fsck_lpf.c) */
			for (uint32_t i = 0; i < s->n_moves; i++)
				fsck_fix_dent_move(ctx, &s->moves[i].loc, s->moves[i].hash);
		}
	}
	if (s->max_level > s->d.depth || s->d.depth > MAX_DIR_HASH_DEPTH) {
		c = fsck_fix_node(ctx, s->d.ino, w->inode_addr, w->inode);
		if (c && le32_to_cpu(c->i.i_current_depth) < s->max_level)
			c->i.i_current_depth = cpu_to_le32(s->max_level);
	}
	if (s->max_bidx * F2FS_BLKSIZE > s->d.i_size) {
		c = fsck_fix_node(ctx, s->d.ino, w->inode_addr, w->inode);
		if (c)
			c->i.i_size = cpu_to_le64(s->max_bidx * F2FS_BLKSIZE);
	}
}

/* '.' and '..' are written into slots 0 and 1: the entries there (block
 * 0 holding another block's entries, say) are inserted again by their
 * hash instead of being overwritten. */
static void make_room_for_dots(struct fsck_walk *w, struct dir_state *s)
{
	struct fsck_dent_loc loc = s->loc0;

	for (uint32_t i = 0; i < s->n_low; i++) {
		loc.slot = (uint8_t)s->low[i];
		fsck_fix_dent_readd(w->ctx, &loc, s->blk0);
	}
}

static void finish_dir(struct fsck_walk *w, struct dir_state *s)
{
	bool dot = false, dotdot = false;

	drop_repeated_names(w, s);
	if (!s->seen_dot)
		dot = fsck_problem(w->ctx, PR_DENT_DOT, FSCK_OBJ(.ino = s->d.ino, .path = dir_path(s),
				   .str = "is missing"));
	if (!s->seen_dotdot)
		dotdot = fsck_problem(w->ctx, PR_DENT_DOTDOT, FSCK_OBJ(.ino = s->d.ino,
				      .path = dir_path(s),
				      .expected = s->d.parent ? s->d.parent : FSCK_NONE));
	/* the planned fix of either: a block 0 to hold them, room in it */
	if ((dot || dotdot) && !s->have0 && !s->d.is_inline)
		fsck_fix_block0(w->ctx, s->d.ino, s->d.parent ? s->d.parent : F2FS_ROOT_INO);
	if ((dot || dotdot) && s->have0)
		make_room_for_dots(w, s);
	if (dot && s->have0)
		fsck_fix_dots(w->ctx, &s->loc0, s->blk0, true, s->d.ino);
	if (dotdot && s->have0)
		fsck_fix_dots(w->ctx, &s->loc0, s->blk0, false,
			      s->d.parent ? s->d.parent : F2FS_ROOT_INO);
	fix_dir_inode(w, s);
}

/* Arrays of up to this many elements are kept for the next directory:
 * each would otherwise grow its own from nothing, copying and faulting
 * in its pages at every doubling.  Past 128 KiB (5,461 names) an array
 * is a mapping of its own (fsck_main.c fixes glibc's threshold), given
 * back at free() and faulted in again by the next directory as large: a
 * volume of directories of 5,000 names spent a tenth of its check
 * there.  16384 names of the seen-name array are 384 KiB kept. */
#define SPARE_MAX	16384u

/* An array of a finished directory, kept as the walk's spare if small. */
static void keep_spare(void **spare, uint32_t *spare_cap, void *arr, uint32_t cap)
{
	if (cap > SPARE_MAX || (*spare && *spare_cap >= cap)) {
		free(arr);
		return;
	}
	free(*spare);
	*spare = arr;
	*spare_cap = cap;
}

/* A spare array for a new directory, or NULL. */
static void *take_spare(void **spare, uint32_t *spare_cap, uint32_t *cap)
{
	void *arr = *spare;

	*cap = arr ? *spare_cap : 0;
	*spare = NULL;
	*spare_cap = 0;
	return arr;
}

void fsck_dir_spares_free(struct fsck_walk *w)
{
	free(w->seen_spare);
	free(w->blocks_spare);
	free(w->fp_set);
	w->seen_spare = w->blocks_spare = NULL;
	w->fp_set = NULL;
	w->seen_spare_cap = w->blocks_spare_cap = w->fp_set_cap = 0;
}

static void free_state(struct fsck_walk *w, struct dir_state *s)
{
	f2fs_warm_stop(&w->warm_seen);	/* the array goes, or waits as a spare */
	f2fs_warm_stop(&w->warm_pname);	/* the chunk goes with the last child */
	w->pname_chunk = NULL;
	w->pname_cap = 0;
	keep_spare(&w->seen_spare, &w->seen_spare_cap, s->seen, s->cap_seen);
	s->seen = NULL;
	keep_spare(&w->blocks_spare, &w->blocks_spare_cap, s->blocks, s->cap_blocks);
	s->blocks = NULL;
	free(s->moves);
	s->moves = NULL;
}

static void init_state(struct fsck_walk *w, struct dir_state *s, const struct fsck_item *it,
		       const struct f2fs_inode *ri, bool is_inline)
{
	memset(s, 0, sizeof(*s));
	s->seen = take_spare(&w->seen_spare, &w->seen_spare_cap, &s->cap_seen);
	s->blocks = take_spare(&w->blocks_spare, &w->blocks_spare_cap, &s->cap_blocks);
	s->fit.fits = (1u << DIR_LEVELS) - 1;
	s->fit.bidx = UINT32_MAX;
	s->d.ino = it->ino;
	s->d.parent = fsck_item_parent(it);
	s->d.pn = it->pn;
	s->d.dir_level = ri->i_dir_level;
	s->d.depth = le32_to_cpu(ri->i_current_depth);
	s->d.i_size = le64_to_cpu(ri->i_size);
	s->d.casefold = (le32_to_cpu(ri->i_flags) & F2FS_CASEFOLD_FL) &&
			(w->ctx->fs->features & F2FS_FEATURE_CASEFOLD);
	s->d.encrypted = ri->i_advise & FADVISE_ENCRYPT_BIT;
	s->d.is_inline = is_inline;
}

/* A dentry block of the directory in read order: its address, its index
 * in the directory, and its position k in w->dent_*. */
struct dent_ref {
	uint32_t addr, bidx, k;
};

static int cmp_dent_ref(const void *a, const void *b)
{
	const struct dent_ref *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->bidx != y->bidx)
		return x->bidx < y->bidx ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

/* Sort the directory's blocks by address (then index) and give every
 * repeat of an (address, index) pair the position of its first
 * occurrence in w->dent_*, the one whose owner slot names it first. */
static void sort_dent_refs(const struct fsck_walk *w, struct dent_ref *order, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		order[i] = (struct dent_ref){ .addr = w->dent_addr[i], .bidx = w->dent_bidx[i],
					      .k = i };
	qsort(order, n, sizeof(*order), cmp_dent_ref);
	for (uint32_t i = 1; i < n; i++)
		if (order[i].addr == order[i - 1].addr && order[i].bidx == order[i - 1].bidx)
			order[i].k = order[i - 1].k;
}

void fsck_check_dir_blocks(struct fsck_walk *w, const struct fsck_item *it,
			   const struct f2fs_inode *ri)
{
	struct dir_state s;
	uint32_t n = w->dent_n, addrs[FSCK_BATCH];
	const uint8_t *blk[FSCK_BATCH];
	struct dent_ref *order = malloc(((size_t)n + 1) * sizeof(*order));

	if (!order) {
		w->err = -ENOMEM;
		return;
	}
	init_state(w, &s, it, ri, false);
	reserve_names(w, &s, n);
	sort_dent_refs(w, order, n);
	for (uint32_t first = 0; first < n && !w->err; first += FSCK_BATCH) {
		uint32_t cnt = n - first < FSCK_BATCH ? n - first : FSCK_BATCH;
		bool ahead;

		for (uint32_t i = 0; i < cnt; i++)
			addrs[i] = order[first + i].addr;
		w->err = fsck_walk_buf(w, &w->dbuf) ?
			 fsck_read_sorted(w, addrs, cnt, w->dbuf, blk) : -ENOMEM;
		ahead = !w->err && fsck_digest_dentries(w, blk, cnt);
		for (uint32_t i = 0; i < cnt && !w->err; i++) {
			const struct f2fs_dentry_block *db = (const void *)blk[i];
			uint32_t bidx = order[first + i].bidx;
			uint32_t k = order[first + i].k;
			const uint8_t *fixed = fsck_fix_data_peek(w->ctx, addrs[i]);

			if (fixed)
				db = (const void *)fixed;
			s.blk = db;
			s.loc.dir_ino = it->ino;
			s.loc.blkaddr = addrs[i];
			s.loc.owner = k < w->dent_n ? w->dent_owner[k] : 0;
			s.loc.owner_ofs = k < w->dent_n ? w->dent_ofs[k] : 0;
			s.loc.nslots = NR_DENTRY_IN_BLOCK;
			s.loc.bitmap_off = 0;
			s.loc.de_base = offsetof(struct f2fs_dentry_block, dentry);
			if (bidx == 0) {
				s.loc0 = s.loc;
				s.blk0 = NULL;	/* re-read or taken from the fix copies */
				s.have0 = s.loc.owner != 0;
			}

			note_block(w, &s);
			if ((uint64_t)bidx * F2FS_BLKSIZE >= s.d.i_size)
				fsck_problem(w->ctx, PR_DENT_BLOCK_PAST_SIZE, FSCK_OBJ(.ino = s.d.ino,
					    .path = dir_path(&s), .idx = bidx, .found = s.d.i_size));
			if (ahead)
				fsck_digest_take_dentry(w, i);
			check_dentries(w, &s, db->dentry_bitmap, db->dentry,
				       &db->filename[0][0], NR_DENTRY_IN_BLOCK, bidx);
		}
		if (ahead)
			fsck_digest_finish_dentries(w);
	}
	free(order);
	if (!w->err)
		finish_dir(w, &s);
	free_state(w, &s);
}

void fsck_check_inline_dir(struct fsck_walk *w, const struct fsck_item *it,
			   const struct f2fs_node *node)
{
	const struct f2fs_inode *ri = &node->i;
	const uint8_t *blk = (const uint8_t *)node;
	struct fsck_inline_dents at;
	struct dir_state s;

	(void)fsck_inline_dents(w->ctx, ri, &at);
	init_state(w, &s, it, ri, true);
	s.blk = node;
	s.loc.dir_ino = it->ino;
	s.loc.blkaddr = it->addr;
	s.loc.nslots = (uint8_t)at.nslots;
	s.loc.bitmap_off = (uint16_t)at.bitmap_off;
	s.loc.de_base = (uint16_t)at.de_off;
	s.loc0 = s.loc;
	s.blk0 = node;
	s.have0 = true;
	note_block(w, &s);
	check_dentries(w, &s, blk + at.bitmap_off, (const struct f2fs_dir_entry *)(blk + at.de_off),
		       blk + at.name_off, at.nslots, UINT32_MAX);
	if (!w->err)
		finish_dir(w, &s);
	free_state(w, &s);
}
