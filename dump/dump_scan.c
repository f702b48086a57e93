/*
 * dump_scan.c - the -I view: every node block in the node segments (SIT
 * type hot/warm/cold node, including segments now free, plus the current
 * node logs) whose footer names the given inode, valid or not: historic
 * copies included.  For each: address, nid, node offset, cp_ver, whether
 * the SIT marks it valid and whether the NAT points at it.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs_array.h"
#include "dump.h"

static const struct dump_col scan_cols[] = {
	{ "blkaddr", 12, COL_HEX },
	{ "nid", 10, COL_U64 },
	{ "kind", 8, COL_STR },
	{ "node_ofs", 10, COL_U64 },
	{ "cp_ver", 20, COL_HEX },
	{ "valid_in_sit", 12, COL_U64 },
	{ "nat_current", 11, COL_U64 },
	{ "i_size", 0, COL_U64 },
};

struct seg_list {
	struct node_seg {
		uint32_t segno;
		uint8_t map[SIT_VBLOCK_MAP_SIZE];
	} *v;
	size_t n, cap;
};

static int collect_node_segs(struct dump_ctx *ctx, const struct dump_seg *s, void *arg)
{
	struct seg_list *l = arg;
	unsigned int type = GET_SIT_TYPE(&s->raw);
	int cur = dump_curseg_of(ctx, s->segno);

	if (!(type >= CURSEG_HOT_NODE && type < NR_CURSEG_TYPE) && cur < CURSEG_HOT_NODE)
		return 0;
	if (F2FS_ARRAY_ROOM(l->v, l->cap, l->n + 1, 256))
		return dump_fail(ctx, -ENOMEM, "out of memory");
	l->v[l->n].segno = s->segno;
	memcpy(l->v[l->n].map, s->raw.valid_map, SIT_VBLOCK_MAP_SIZE);
	l->n++;
	return 0;
}

static const char *node_kind(const struct f2fs_node *n, uint32_t ofs)
{
	if (le32_to_cpu(n->footer.nid) == le32_to_cpu(n->footer.ino))
		return "inode";
	if (ofs == XATTR_NODE_OFFSET)
		return "xattr";
	if (ofs == 3 || ofs == NIDS_PER_BLOCK + 4 || ofs == 2 * NIDS_PER_BLOCK + 5)
		return "indirect";
	if (ofs > 2 * NIDS_PER_BLOCK + 5 && (ofs - (2 * NIDS_PER_BLOCK + 6)) % (NIDS_PER_BLOCK + 1) == 0)
		return "indirect";
	return "direct";
}

static void scan_block(struct dump_ctx *ctx, struct dump_table *t, const struct node_seg *seg,
		       uint32_t off, const struct f2fs_node *n, uint64_t *found)
{
	uint32_t addr = f2fs_seg_start_blkaddr(ctx->fs, seg->segno) + off;
	uint32_t nid = le32_to_cpu(n->footer.nid);
	uint32_t ofs = le32_to_cpu(n->footer.flag) >> OFFSET_BIT_SHIFT;
	struct f2fs_nat_entry ne;
	struct dump_val v[8];
	bool inode = nid == le32_to_cpu(n->footer.ino);

	if (le32_to_cpu(n->footer.ino) != ctx->opt.scan_ino || nid >= ctx->fs->max_nid ||
	    nid < F2FS_RESERVED_NODE_NUM)
		return;
	memset(v, 0, sizeof(v));
	v[0].u = addr;
	v[1].u = nid;
	v[2].s = node_kind(n, ofs);
	v[3].u = ofs;
	v[4].u = le64_to_cpu(n->footer.cp_ver);
	v[5].u = (uint64_t)f2fs_test_bit(off, seg->map);
	v[6].u = !dump_nat_lookup(ctx, nid, &ne, NULL) && le32_to_cpu(ne.block_addr) == addr;
	v[7].u = inode ? le64_to_cpu(n->i.i_size) : 0;
	table_row(t, v);
	(*found)++;
}

int dump_scan_view(struct dump_ctx *ctx)
{
	struct seg_list l = { 0 };
	struct dump_table t;
	uint8_t *buf;
	uint64_t found = 0;
	size_t i;
	uint32_t k;
	int err;

	err = dump_sit_range(ctx, 0, ctx->fs->main_segs ? ctx->fs->main_segs - 1 : 0,
			     collect_node_segs, &l);
	buf = f2fs_blocks_alloc(BLKS_PER_SEG);
	if (!err && !buf)
		err = dump_fail(ctx, -ENOMEM, "out of memory");
	if (err) {
		free(l.v);
		free(buf);
		return err;
	}
	if (ctx->out.json) {
		out_obj_begin(&ctx->out, "scan");
		out_u64(&ctx->out, "ino", ctx->opt.scan_ino);
		out_u64(&ctx->out, "node_segments_scanned", l.n);
	} else {
		fprintf(ctx->out.f, "== node blocks of inode %u (%zu node segments scanned) ==\n",
			ctx->opt.scan_ino, l.n);
	}
	table_begin(&t, &ctx->out, "blocks", scan_cols, 8);
	for (i = 0; i < l.n && !err; i++) {
		err = f2fs_dev_read(ctx->fs->dev, f2fs_seg_start_blkaddr(ctx->fs, l.v[i].segno),
				    BLKS_PER_SEG, buf);
		if (err) {
			err = dump_fail(ctx, err, "cannot read segment %u", l.v[i].segno);
			break;
		}
		for (k = 0; k < BLKS_PER_SEG; k++)
			scan_block(ctx, &t, &l.v[i], k,
				   (const void *)(buf + (size_t)k * F2FS_BLKSIZE), &found);
	}
	table_end(&t);
	if (ctx->out.json) {
		out_u64(&ctx->out, "found", found);
		out_obj_end(&ctx->out);
	} else {
		fprintf(ctx->out.f, "found %" PRIu64 " node blocks\n", found);
	}
	free(l.v);
	free(buf);
	return err;
}
