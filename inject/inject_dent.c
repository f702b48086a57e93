/*
 * inject_dent.c - --dent: change the directory entry that points to
 * inode --nid in its parent (i_pino of the child, or --parent P), or with
 * --dots 1|2 the '.' or '..' entry of directory --nid.
 *
 * The parent's entries are searched in its inline dentry area or in every
 * data block it owns (through i_addr and its direct, indirect and double
 * indirect nodes), skipping '.' and '..' (hash 0) as f2fs-tools does.  An
 * inline entry lives in the inode block, whose checksum is then fixed as
 * for --node.
 */
#include <stdio.h>
#include <string.h>

#include "inject.h"

/* One dentry area: a dentry block or an inode's inline dentry area. */
struct dent_view {
	uint8_t *bitmap;
	uint8_t *dentry;	/* nr records of SIZE_OF_DIR_ENTRY bytes */
	uint8_t *names;		/* nr slots of F2FS_SLOT_LEN bytes */
	uint32_t nr;
};

struct dent_hit {
	uint8_t buf[F2FS_BLKSIZE];
	struct dent_view v;
	uint32_t blkaddr;
	uint32_t slot;
	bool in_inode;
};

struct dent_search {
	struct inj_ctx *c;
	uint32_t ino;		/* entry ino wanted (not for dots) */
	int dots;		/* 0, 1 '.', 2 '..' */
	struct dent_hit *hit;
	unsigned int budget;	/* node reads left, against loops */
};

static void block_view(uint8_t *blk, struct dent_view *v)
{
	v->bitmap = blk;
	v->dentry = blk + offsetof(struct f2fs_dentry_block, dentry);
	v->names = blk + offsetof(struct f2fs_dentry_block, filename);
	v->nr = NR_DENTRY_IN_BLOCK;
}

static uint32_t extra_words(const struct f2fs_node *n)
{
	return (n->i.i_inline & F2FS_EXTRA_ATTR) ? le16_to_cpu(n->i.i_extra_isize) / 4 : 0;
}

static uint32_t inline_xattr_words(const struct inj_ctx *c, const struct f2fs_node *n)
{
	if ((n->i.i_inline & F2FS_EXTRA_ATTR) &&
	    (c->fs->features & F2FS_FEATURE_FLEXIBLE_INLINE_XATTR))
		return le16_to_cpu(n->i.i_inline_xattr_size);
	if (n->i.i_inline & (F2FS_INLINE_XATTR | F2FS_INLINE_DENTRY))
		return DEFAULT_INLINE_XATTR_ADDRS;
	return 0;
}

static int inline_view(struct inj_ctx *c, uint8_t *blk, struct dent_view *v)
{
	const struct f2fs_node *n = (const struct f2fs_node *)blk;
	uint32_t extra = extra_words(n), ixa = inline_xattr_words(c, n), bytes, bm, resv;

	if (extra + ixa + 1 >= DEF_ADDRS_PER_INODE)
		return inj_err("the inline dentry area of the parent has no room (extra %u, xattr %u)",
			       extra, ixa);
	bytes = 4 * (DEF_ADDRS_PER_INODE - extra - ixa - 1);
	v->nr = bytes * 8 / ((SIZE_OF_DIR_ENTRY + F2FS_SLOT_LEN) * 8 + 1);
	bm = (v->nr + 7) / 8;
	resv = bytes - (v->nr * (SIZE_OF_DIR_ENTRY + F2FS_SLOT_LEN) + bm);
	v->bitmap = blk + offsetof(struct f2fs_node, i.i_addr) + 4 * (extra + 1);
	v->dentry = v->bitmap + bm + resv;
	v->names = v->dentry + v->nr * SIZE_OF_DIR_ENTRY;
	return 0;
}

static bool entry_matches(const struct dent_search *s, const struct dent_view *v, uint32_t slot)
{
	const uint8_t *de = v->dentry + slot * SIZE_OF_DIR_ENTRY;
	const struct f2fs_dir_entry *d = (const struct f2fs_dir_entry *)de;
	uint16_t len = le16_to_cpu(d->name_len);

	if (s->dots)
		return len == (uint16_t)s->dots &&
		       !memcmp(v->names + slot * F2FS_SLOT_LEN, "..", len);
	return le32_to_cpu(d->ino) == s->ino && d->hash_code != 0;
}

static bool find_in_view(const struct dent_search *s, const struct dent_view *v, uint32_t *slot)
{
	uint32_t i = 0;

	while (i < v->nr) {
		uint16_t len;

		if (!test_bit_le(i, v->bitmap)) {
			i++;
			continue;
		}
		if (entry_matches(s, v, i)) {
			*slot = i;
			return true;
		}
		len = get_le16(v->dentry + i * SIZE_OF_DIR_ENTRY + 8);
		i += len ? GET_DENTRY_SLOTS(len) : 1;
	}
	return false;
}

/* Search one data block; 1 found, 0 not, -1 error. */
static int visit_data(struct dent_search *s, uint32_t addr)
{
	struct dent_hit *h = s->hit;

	if (addr == NULL_ADDR || addr == NEW_ADDR || !f2fs_blkaddr_in_main(s->c->fs, addr))
		return 0;
	if (inj_read_block(s->c, addr, h->buf))
		return -1;
	block_view(h->buf, &h->v);
	if (!find_in_view(s, &h->v, &h->slot))
		return 0;
	h->blkaddr = addr;
	h->in_inode = false;
	return 1;
}

/* Walk a direct (depth 0), indirect (1) or double indirect (2) node. */
static int visit_node(struct dent_search *s, uint32_t nid, int depth)
{
	struct f2fs_node node;
	struct f2fs_nat_entry ne;
	uint32_t addr, i;
	int r;

	if (!nid)
		return 0;
	if (!s->budget--)
		return inj_err("too many nodes under the parent directory");
	if (inj_read_node(s->c, nid, &node, &addr, &ne))
		return 0;	/* a broken branch: keep searching elsewhere */
	for (i = 0; i < ADDRS_PER_BLOCK; i++) {
		uint32_t v = le32_to_cpu(node.dn.addr[i]);

		r = depth ? visit_node(s, v, depth - 1) : visit_data(s, v);
		if (r)
			return r;
	}
	return 0;
}

static int search_blocks(struct dent_search *s, const struct f2fs_node *dir)
{
	uint32_t first = extra_words(dir), n, i;
	static const int depth[DEF_NIDS_PER_INODE] = { 0, 0, 1, 1, 2 };
	int r;

	n = DEF_ADDRS_PER_INODE - first - inline_xattr_words(s->c, dir);
	if (first + inline_xattr_words(s->c, dir) > DEF_ADDRS_PER_INODE)
		n = 0;
	for (i = 0; i < n; i++)
		if ((r = visit_data(s, le32_to_cpu(dir->i.i_addr[first + i]))))
			return r;
	for (i = 0; i < DEF_NIDS_PER_INODE; i++)
		if ((r = visit_node(s, le32_to_cpu(dir->i.i_nid[i]), depth[i])))
			return r;
	return 0;
}

static int find_dentry(struct inj_ctx *c, struct dent_hit *h, uint32_t *dir_ino)
{
	struct dent_search s = { .c = c, .ino = c->o->nid, .dots = c->o->dots, .hit = h,
				 .budget = 100000 };
	struct f2fs_node node;
	struct f2fs_nat_entry ne;
	uint32_t addr;
	int r;

	*dir_ino = c->o->nid;
	if (!c->o->dots && c->o->has_parent) {
		*dir_ino = c->o->parent;
	} else if (!c->o->dots) {
		if (inj_read_node(c, c->o->nid, &node, &addr, &ne))
			return -1;
		*dir_ino = le32_to_cpu(node.i.i_pino);
	}
	if (inj_read_node(c, *dir_ino, (struct f2fs_node *)h->buf, &addr, &ne))
		return -1;
	node = *(struct f2fs_node *)h->buf;
	if (node.i.i_inline & F2FS_INLINE_DENTRY) {
		if (inline_view(c, h->buf, &h->v))
			return -1;
		h->blkaddr = addr;
		h->in_inode = true;
		r = find_in_view(&s, &h->v, &h->slot) ? 1 : 0;
	} else {
		r = search_blocks(&s, &node);
	}
	if (r < 0)
		return -1;
	if (!r && c->o->dots)
		return inj_err("directory %u has no '%s' entry", *dir_ino,
			       c->o->dots == 1 ? "." : "..");
	if (!r)
		return inj_err("no entry for ino %u in directory %u", c->o->nid, *dir_ino);
	return 0;
}

static int set_bitmap(struct inj_ctx *c, struct dent_hit *h)
{
	uint32_t slot = c->o->has_idx ? c->o->idx : h->slot;
	uint64_t val = c->o->has_val ? c->o->val : 0;
	unsigned int old;

	if (slot >= h->v.nr)
		return inj_err("--idx %u is past the %u dentry slots", slot, h->v.nr);
	if (val > 1 || c->o->val_negative)
		return inj_err("d_bitmap takes --val 0 or 1");
	old = test_bit_le(slot, h->v.bitmap);
	if (val)
		set_bit_le(slot, h->v.bitmap);
	else
		clear_bit_le(slot, h->v.bitmap);
	snprintf(c->ch.member, sizeof(c->ch.member), "d_bitmap[%u]", slot);
	snprintf(c->ch.old_val, sizeof(c->ch.old_val), "%u", old);
	snprintf(c->ch.new_val, sizeof(c->ch.new_val), "%u", (unsigned int)val);
	return 0;
}

static int set_name(struct inj_ctx *c, struct dent_hit *h)
{
	uint8_t *de = h->v.dentry + h->slot * SIZE_OF_DIR_ENTRY;
	uint32_t slots = GET_DENTRY_SLOTS(get_le16(de + 8));
	uint32_t room;
	struct inj_field f = { "d_name", 0, 0, 1, 0, INJ_F_STR };

	if (!slots)
		slots = 1;
	if (h->slot + slots > h->v.nr)
		slots = h->v.nr - h->slot;
	room = slots * F2FS_SLOT_LEN;
	f.size = (uint16_t)room;
	return inj_field_apply(c, &f, h->v.names + h->slot * F2FS_SLOT_LEN, room);
}

static int set_member(struct inj_ctx *c, struct dent_hit *h)
{
	uint8_t *de = h->v.dentry + h->slot * SIZE_OF_DIR_ENTRY;
	const char *mb = c->o->mb;

	if (!strcmp(mb, "d_bitmap"))
		return set_bitmap(c, h);
	if (!strcmp(mb, "d_name"))
		return set_name(c, h);
	if (!strcmp(mb, "d_hash"))
		return inj_set_uint(c, de, 4, true, mb);
	if (!strcmp(mb, "d_ino"))
		return inj_set_uint(c, de + 4, 4, false, mb);
	if (!strcmp(mb, "d_namelen"))
		return inj_set_uint(c, de + 8, 2, false, mb);
	if (!strcmp(mb, "d_ftype"))
		return inj_set_uint(c, de + 10, 1, false, mb);
	return inj_err("unknown or unsupported member '%s' of --dent "
		       "(inject.f2fs --dent -h lists them)", mb);
}

int inject_dent(struct inj_ctx *c)
{
	struct dent_hit h;
	uint32_t dir;

	if (inj_need_fs(c, "--dent"))
		return -1;
	if (!c->o->has_nid)
		return inj_err("--dent needs --nid INO");
	if (find_dentry(c, &h, &dir))
		return -1;
	inj_where(c, "dent of %s%u in dir %u slot %u (%s blkaddr 0x%x)",
		  c->o->dots ? (c->o->dots == 1 ? "'.' " : "'..' ") : "ino ",
		  c->o->dots ? dir : c->o->nid, dir, h.slot,
		  h.in_inode ? "inline, inode" : "dentry block", h.blkaddr);
	if (set_member(c, &h))
		return -1;
	if (h.in_inode)
		inj_node_fix_checksum(c, (struct f2fs_node *)h.buf);
	return inj_write_block(c, h.blkaddr, h.buf);
}
