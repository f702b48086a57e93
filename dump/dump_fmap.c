/*
 * dump_fmap.c - walking the data blocks of an inode in file order: the
 * inode's own slots, two direct nodes, two indirect nodes and one double
 * indirect node.  Every node is looked up through the NAT and must name
 * the same inode in its footer; the walk never goes past i_size, so a
 * hostile image cannot make it loop or run away.
 */
#include <string.h>

#include "dump.h"

struct walk {
	struct dump_ctx *ctx;
	uint32_t ino;
	uint64_t end;		/* file blocks covered by i_size */
	dump_blk_fn fn;
	dump_node_fn node_fn;
	void *arg;
	uint32_t addrs_per_block;	/* data slots per direct node */
};

static uint64_t span_of(const struct walk *w, int depth)
{
	uint64_t span = w->addrs_per_block;

	while (depth-- > 0)
		span *= NIDS_PER_BLOCK;
	return span;
}

static int walk_direct(struct walk *w, const struct f2fs_node *node, uint64_t *fofs)
{
	uint32_t i;
	int err;

	for (i = 0; i < w->addrs_per_block && *fofs < w->end; i++, (*fofs)++) {
		uint32_t addr = le32_to_cpu(node->dn.addr[i]);

		if (addr == NULL_ADDR)
			continue;
		err = w->fn(w->ctx, *fofs, addr, w->arg);
		if (err)
			return err;
	}
	return 0;
}

static int walk_node(struct walk *w, uint32_t nid, int depth, uint32_t node_ofs,
		     uint64_t *fofs)
{
	struct f2fs_node node;
	uint32_t addr, i, step;
	int err;

	if (*fofs >= w->end)
		return 0;
	if (!nid) {
		*fofs += span_of(w, depth);
		return 0;
	}
	err = dump_read_node(w->ctx, nid, &node, &addr);
	if (err)
		return dump_fail(w->ctx, err, "inode %u: cannot read node %u (block %u): %s",
				 w->ino, nid, addr, f2fs_strerror(err));
	if (le32_to_cpu(node.footer.ino) != w->ino)
		return dump_fail(w->ctx, -EFSCORRUPTED, "inode %u: node %u belongs to inode %u",
				 w->ino, nid, le32_to_cpu(node.footer.ino));
	if (w->node_fn) {
		err = w->node_fn(w->ctx, nid, addr, node_ofs, w->arg);
		if (err)
			return err;
	}
	if (depth == 0)
		return walk_direct(w, &node, fofs);
	step = depth == 2 ? NIDS_PER_BLOCK + 1 : 1;
	for (i = 0; i < NIDS_PER_BLOCK && *fofs < w->end; i++) {
		err = walk_node(w, le32_to_cpu(node.in.nid[i]), depth - 1,
				node_ofs + 1 + i * step, fofs);
		if (err)
			return err;
	}
	return 0;
}

static int walk_inode_slots(struct walk *w, const struct f2fs_inode *ri, uint64_t *fofs)
{
	uint32_t base = dump_inode_extra_words(ri);
	uint32_t slots = dump_addrs_per_inode(w->ctx, ri), i;
	int err;

	for (i = 0; i < slots && *fofs < w->end; i++, (*fofs)++) {
		uint32_t addr = le32_to_cpu(ri->i_addr[base + i]);

		if (addr == NULL_ADDR)
			continue;
		err = w->fn(w->ctx, *fofs, addr, w->arg);
		if (err)
			return err;
	}
	*fofs = slots;
	return 0;
}

int dump_walk_file(struct dump_ctx *ctx, const struct f2fs_node *inode,
		   dump_blk_fn fn, dump_node_fn node_fn, void *arg)
{
	static const int depth[DEF_NIDS_PER_INODE] = { 0, 0, 1, 1, 2 };
	const uint32_t node_ofs[DEF_NIDS_PER_INODE] = {
		1, 2, 3, NIDS_PER_BLOCK + 4, 2 * NIDS_PER_BLOCK + 5,
	};
	const struct f2fs_inode *ri = &inode->i;
	struct walk w = {
		.ctx = ctx, .ino = le32_to_cpu(inode->footer.ino), .fn = fn,
		.node_fn = node_fn, .arg = arg,
	};
	uint64_t size = le64_to_cpu(ri->i_size), fofs = 0;
	int i, err;

	if (ri->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY))
		return 0;
	w.end = size / F2FS_BLKSIZE + (size % F2FS_BLKSIZE != 0);
	w.addrs_per_block = dump_addrs_per_block(ctx, ri);
	err = walk_inode_slots(&w, ri, &fofs);
	for (i = 0; !err && i < DEF_NIDS_PER_INODE && fofs < w.end; i++)
		err = walk_node(&w, le32_to_cpu(ri->i_nid[i]), depth[i], node_ofs[i], &fofs);
	return err;
}
