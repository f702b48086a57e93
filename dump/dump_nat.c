/*
 * dump_nat.c - the NAT view (-n a~b): for every nid of the range that is
 * not empty anywhere, both on-disk copies of its NAT entry, which copy the
 * checkpoint's NAT version bitmap makes current, the journal entry that
 * overrides them (if any) and the resulting effective entry; then the
 * whole NAT journal.  Only the NAT blocks of the range are read (both
 * copies, in batches).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"

#define NAT_BATCH_BLOCKS 128

static const struct dump_col nat_cols[] = {
	{ "nid", 10, COL_U64 },
	{ "ino", 10, COL_U64 },
	{ "blkaddr", 12, COL_HEX },
	{ "version", 7, COL_U64 },
	{ "source", 7, COL_STR },
	{ "current_copy", 12, COL_U64 },
	{ "copy0_ino", 10, COL_U64 },
	{ "copy0_blkaddr", 13, COL_HEX },
	{ "copy0_version", 13, COL_U64 },
	{ "copy1_ino", 10, COL_U64 },
	{ "copy1_blkaddr", 13, COL_HEX },
	{ "copy1_version", 13, COL_U64 },
};
#define NAT_NCOLS ((int)(sizeof(nat_cols) / sizeof(nat_cols[0])))

static const struct dump_col journal_cols[] = {
	{ "index", 5, COL_U64 },
	{ "nid", 10, COL_U64 },
	{ "ino", 10, COL_U64 },
	{ "blkaddr", 12, COL_HEX },
	{ "version", 7, COL_U64 },
	{ "status", 0, COL_STR },
};

struct nat_view {
	struct dump_table t;
	uint64_t rows, used, journal_overrides;
};

static bool entry_empty(const struct f2fs_nat_entry *e)
{
	return !e->version && !e->ino && !e->block_addr;
}

static const struct nat_journal_entry *journal_find(struct dump_ctx *ctx, uint32_t nid)
{
	int slot = f2fs_nat_journal_slot(ctx->fs, nid);

	return slot < 0 ? NULL : &f2fs_nat_journal(ctx->fs)->nat_j.entries[slot];
}

static void nat_row(struct dump_ctx *ctx, struct nat_view *v, uint32_t nid, int cur,
		    const struct f2fs_nat_entry *c0, const struct f2fs_nat_entry *c1)
{
	const struct nat_journal_entry *je = journal_find(ctx, nid);
	const struct f2fs_nat_entry *eff = je ? &je->ne : (cur ? c1 : c0);
	struct dump_val vals[NAT_NCOLS];

	if (entry_empty(c0) && entry_empty(c1) && !je)
		return;
	memset(vals, 0, sizeof(vals));
	vals[0].u = nid;
	vals[1].u = le32_to_cpu(eff->ino);
	vals[2].u = le32_to_cpu(eff->block_addr);
	vals[3].u = eff->version;
	vals[4].s = je ? "journal" : (cur ? "copy1" : "copy0");
	vals[5].u = (uint64_t)cur;
	vals[6].u = le32_to_cpu(c0->ino);
	vals[7].u = le32_to_cpu(c0->block_addr);
	vals[8].u = c0->version;
	vals[9].u = le32_to_cpu(c1->ino);
	vals[10].u = le32_to_cpu(c1->block_addr);
	vals[11].u = c1->version;
	table_row(&v->t, vals);
	v->rows++;
	if (eff->block_addr)
		v->used++;
	if (je)
		v->journal_overrides++;
}

static int nat_batch(struct dump_ctx *ctx, struct nat_view *v, uint8_t *buf,
		     uint32_t first_blk, uint32_t nblk, uint32_t a, uint32_t b)
{
	struct f2fs_io_vec vec[2 * NAT_BATCH_BLOCKS];
	struct f2fs_fs *fs = ctx->fs;
	uint32_t i, k;
	int err;

	for (i = 0; i < nblk; i++) {
		uint32_t cur = f2fs_current_nat_addr(fs, first_blk + i);
		uint32_t next = f2fs_next_nat_addr(fs, first_blk + i);
		bool cur_is1 = f2fs_test_bit(first_blk + i, fs->nat_bitmap);

		vec[2 * i].blkaddr = cur_is1 ? next : cur;		/* copy 0 */
		vec[2 * i + 1].blkaddr = cur_is1 ? cur : next;		/* copy 1 */
		vec[2 * i].nblocks = vec[2 * i + 1].nblocks = 1;
		vec[2 * i].buf = buf + (size_t)(2 * i) * F2FS_BLKSIZE;
		vec[2 * i + 1].buf = buf + (size_t)(2 * i + 1) * F2FS_BLKSIZE;
	}
	err = f2fs_dev_read_batch(fs->dev, vec, 2 * nblk);
	if (err)
		return dump_fail(ctx, err, "cannot read NAT blocks %u..%u: %s", first_blk,
				 first_blk + nblk - 1, f2fs_strerror(err));
	for (i = 0; i < nblk; i++) {
		const struct f2fs_nat_block *b0 = (const void *)(buf + (size_t)(2 * i) * F2FS_BLKSIZE);
		const struct f2fs_nat_block *b1 = (const void *)(buf + (size_t)(2 * i + 1) * F2FS_BLKSIZE);
		int cur = f2fs_test_bit(first_blk + i, fs->nat_bitmap) ? 1 : 0;

		for (k = 0; k < NAT_ENTRY_PER_BLOCK; k++) {
			uint32_t nid = (first_blk + i) * (uint32_t)NAT_ENTRY_PER_BLOCK + k;

			if (nid >= a && nid <= b)
				nat_row(ctx, v, nid, cur, &b0->entries[k], &b1->entries[k]);
		}
	}
	return 0;
}

static void print_journal(struct dump_ctx *ctx)
{
	struct f2fs_journal *j = f2fs_nat_journal(ctx->fs);
	uint32_t n = ctx->fs->cursum_loaded ? le16_to_cpu(j->n_nats) : 0, i, k;
	struct dump_table t;

	if (ctx->out.json) {
		out_u64(&ctx->out, "journal_n_nats", n);
	} else {
		fprintf(ctx->out.f, "-- NAT journal: %u entries%s --\n", n,
			n > NAT_JOURNAL_ENTRIES ? " (more than fit: corrupt)" : "");
	}
	if (n > NAT_JOURNAL_ENTRIES)
		n = NAT_JOURNAL_ENTRIES;
	table_begin(&t, &ctx->out, "journal", journal_cols, 6);
	for (i = 0; i < n; i++) {
		const struct nat_journal_entry *e = &j->nat_j.entries[i];
		uint32_t nid = le32_to_cpu(e->nid);
		struct dump_val vals[6];
		const char *status = "ok";

		for (k = 0; k < i; k++)
			if (le32_to_cpu(j->nat_j.entries[k].nid) == nid)
				status = "repeated nid (ignored)";
		if (nid >= ctx->fs->max_nid)
			status = "nid out of range";
		memset(vals, 0, sizeof(vals));
		vals[0].u = i;
		vals[1].u = nid;
		vals[2].u = le32_to_cpu(e->ne.ino);
		vals[3].u = le32_to_cpu(e->ne.block_addr);
		vals[4].u = e->ne.version;
		vals[5].s = status;
		table_row(&t, vals);
	}
	table_end(&t);
}

int dump_nat_view(struct dump_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;
	struct dump_range *r = &ctx->opt.nat;
	struct nat_view v;
	uint32_t a, b, blk, last, n;
	uint8_t *buf;
	int err = 0;

	if (!fs->max_nid || r->a >= fs->max_nid)
		return dump_fail(ctx, -ERANGE, "nid %" PRIu64 " is out of range (max_nid %u)", r->a, fs->max_nid);
	a = (uint32_t)r->a;
	b = r->b >= fs->max_nid ? fs->max_nid - 1 : (uint32_t)r->b;
	buf = f2fs_blocks_alloc((size_t)2 * NAT_BATCH_BLOCKS);
	if (!buf)
		return dump_fail(ctx, -ENOMEM, "out of memory");
	memset(&v, 0, sizeof(v));
	if (ctx->out.json) {
		out_obj_begin(&ctx->out, "nat");
		out_u64(&ctx->out, "first_nid", a);
		out_u64(&ctx->out, "last_nid", b);
		out_u64(&ctx->out, "max_nid", fs->max_nid);
	} else {
		fprintf(ctx->out.f, "== NAT entries of nids %u..%u (max_nid %u) ==\n", a, b, fs->max_nid);
	}
	table_begin(&v.t, &ctx->out, "entries", nat_cols, NAT_NCOLS);
	last = b / NAT_ENTRY_PER_BLOCK;
	for (blk = a / NAT_ENTRY_PER_BLOCK; blk <= last && !err; blk += n) {
		n = last - blk + 1 < NAT_BATCH_BLOCKS ? last - blk + 1 : NAT_BATCH_BLOCKS;
		err = nat_batch(ctx, &v, buf, blk, n, a, b);
	}
	table_end(&v.t);
	free(buf);
	if (ctx->out.json) {
		out_u64(&ctx->out, "listed", v.rows);
		out_u64(&ctx->out, "used", v.used);
		out_u64(&ctx->out, "journal_overrides", v.journal_overrides);
	} else {
		fprintf(ctx->out.f, "listed %" PRIu64 ", in use %" PRIu64 ", from the journal %" PRIu64 "\n",
			v.rows, v.used, v.journal_overrides);
	}
	print_journal(ctx);
	if (ctx->out.json)
		out_obj_end(&ctx->out);
	return err;
}
