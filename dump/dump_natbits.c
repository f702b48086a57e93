/*
 * dump_natbits.c - the nat_bits view (--nat-bits): whether the checkpoint
 * carries CP_NAT_BITS_FLAG, where the nat_bits blocks are, whether their
 * 8-byte header matches the checkpoint (version | crc << 32, the kernel's
 * validity test), how many NAT blocks they call full and empty, and how
 * they compare with the NAT itself (loaded through the lib NAT model,
 * journal applied).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "f2fs_layout.h"
#include "f2fs_nat.h"

#define MISMATCH_LIST_MAX 32

struct natbits_state {
	uint32_t nbb;		/* nat_bits blocks */
	uint32_t blkaddr;	/* first nat_bits block */
	uint32_t bytes;		/* bytes per bitmap */
	uint64_t header, expected;
	uint8_t *raw;		/* nbb blocks */
	uint8_t *full, *empty;	/* computed from the NAT */
	uint32_t n_full, n_empty, n_mismatch;
	uint32_t mismatch[MISMATCH_LIST_MAX];
};

static uint32_t count_bits(const uint8_t *b, uint32_t nbits)
{
	uint32_t i, n = 0;

	for (i = 0; i < nbits; i++)
		n += (uint32_t)test_bit_le(i, b);
	return n;
}

static int read_nat_bits(struct dump_ctx *ctx, struct natbits_state *s)
{
	struct f2fs_fs *fs = ctx->fs;
	uint32_t off = le32_to_cpu(fs->cp->checksum_offset);
	uint32_t crc = off <= CP_CHKSUM_OFFSET ? get_le32(fs->cp_buf + off) : 0;
	int err;

	s->bytes = fs->nat_blocks / 8;
	s->nbb = f2fs_nat_bits_blocks(le32_to_cpu(fs->sb.segment_count_nat));
	if (!s->nbb || s->nbb >= BLKS_PER_SEG)
		return dump_fail(ctx, -EFSCORRUPTED, "nat_bits would need %u blocks", s->nbb);
	s->blkaddr = fs->cp_start_blkaddr + BLKS_PER_SEG - s->nbb;
	s->raw = f2fs_blocks_alloc(s->nbb);
	if (!s->raw)
		return dump_fail(ctx, -ENOMEM, "out of memory");
	err = f2fs_dev_read(fs->dev, s->blkaddr, s->nbb, s->raw);
	if (err)
		return dump_fail(ctx, err, "cannot read nat_bits at %u: %s", s->blkaddr,
				 f2fs_strerror(err));
	s->header = get_le64(s->raw);
	s->expected = le64_to_cpu(fs->cp->checkpoint_ver) | ((uint64_t)crc << 32);
	return 0;
}

static int compare_with_nat(struct dump_ctx *ctx, struct natbits_state *s)
{
	struct f2fs_nat_model nm;
	const uint8_t *disk_full = s->raw + 8, *disk_empty = s->raw + 8 + s->bytes;
	uint32_t b;
	int err;

	err = f2fs_nat_init(&nm, ctx->fs->max_nid, ctx->fs->nat_bitmap);
	if (!err)
		err = f2fs_nat_load_all(ctx->fs, &nm);
	if (err) {
		f2fs_nat_free(&nm);
		return dump_fail(ctx, err, "cannot load the NAT: %s", f2fs_strerror(err));
	}
	s->full = calloc(1, (size_t)nm.bitmap_bytes + 1);
	s->empty = calloc(1, (size_t)nm.bitmap_bytes + 1);
	if (!s->full || !s->empty) {
		f2fs_nat_free(&nm);
		return dump_fail(ctx, -ENOMEM, "out of memory");
	}
	f2fs_nat_compute_bits(&nm, s->full, s->empty);
	for (b = 0; b < nm.nat_blocks && b < s->bytes * 8; b++) {
		if (test_bit_le(b, s->full) == test_bit_le(b, disk_full) &&
		    test_bit_le(b, s->empty) == test_bit_le(b, disk_empty))
			continue;
		if (s->n_mismatch < MISMATCH_LIST_MAX)
			s->mismatch[s->n_mismatch] = b;
		s->n_mismatch++;
	}
	s->n_full = count_bits(s->full, nm.nat_blocks);
	s->n_empty = count_bits(s->empty, nm.nat_blocks);
	f2fs_nat_free(&nm);
	return 0;
}

static void print_state(struct dump_ctx *ctx, const struct natbits_state *s)
{
	struct f2fs_fs *fs = ctx->fs;
	struct f2fs_journal *j = f2fs_nat_journal(fs);
	bool flag = fs->cp_flags & CP_NAT_BITS_FLAG;
	bool header_ok = s->header == s->expected;
	uint32_t jn = fs->cursum_loaded ? le16_to_cpu(j->n_nats) : 0;
	const uint8_t *df = s->raw + 8, *de = s->raw + 8 + s->bytes;
	const char *state = !flag ? "off" : !header_ok ? "stale" : s->n_mismatch ? "inconsistent" : "valid";
	struct dump_out *o = &ctx->out;
	uint32_t i;

	if (o->json) {
		out_obj_begin(o, "nat_bits");
		out_bool(o, "cp_nat_bits_flag", flag);
		out_str(o, "state", state);
		out_u64(o, "blkaddr", s->blkaddr);
		out_u64(o, "blocks", s->nbb);
		out_u64(o, "nat_blocks", fs->nat_blocks);
		out_u64(o, "header", s->header);
		out_u64(o, "expected_header", s->expected);
		out_bool(o, "header_ok", header_ok);
		out_u64(o, "nat_journal_entries", jn);
		out_u64(o, "disk_full_blocks", count_bits(df, s->bytes * 8));
		out_u64(o, "disk_empty_blocks", count_bits(de, s->bytes * 8));
		out_u64(o, "nat_full_blocks", s->n_full);
		out_u64(o, "nat_empty_blocks", s->n_empty);
		out_u64(o, "mismatched_blocks", s->n_mismatch);
		out_arr_begin(o, "first_mismatches");
		for (i = 0; i < s->n_mismatch && i < MISMATCH_LIST_MAX; i++)
			out_u64(o, NULL, s->mismatch[i]);
		out_arr_end(o);
		out_obj_end(o);
		return;
	}
	fprintf(o->f, "== nat_bits ==\n");
	fprintf(o->f, "%-30s %s\n", "CP_NAT_BITS_FLAG", flag ? "set" : "clear");
	fprintf(o->f, "%-30s %s\n", "state", state);
	fprintf(o->f, "%-30s %u (%u blocks)\n", "blkaddr", s->blkaddr, s->nbb);
	fprintf(o->f, "%-30s 0x%016" PRIx64 " (expected 0x%016" PRIx64 ", %s)\n", "header",
		s->header, s->expected, header_ok ? "matches" : "differs");
	fprintf(o->f, "%-30s %u\n", "NAT journal entries", jn);
	fprintf(o->f, "%-30s full %u, empty %u (of %u NAT blocks)\n", "on disk",
		count_bits(df, s->bytes * 8), count_bits(de, s->bytes * 8), fs->nat_blocks);
	fprintf(o->f, "%-30s full %u, empty %u\n", "computed from the NAT", s->n_full, s->n_empty);
	fprintf(o->f, "%-30s %u", "mismatched NAT blocks", s->n_mismatch);
	for (i = 0; i < s->n_mismatch && i < MISMATCH_LIST_MAX; i++)
		fprintf(o->f, "%s%u", i ? "," : " (", s->mismatch[i]);
	fprintf(o->f, "%s\n", s->n_mismatch ? (s->n_mismatch > MISMATCH_LIST_MAX ? ",...)" : ")") : "");
}

int dump_nat_bits_view(struct dump_ctx *ctx)
{
	struct natbits_state s;
	int err;

	memset(&s, 0, sizeof(s));
	err = read_nat_bits(ctx, &s);
	if (!err)
		err = compare_with_nat(ctx, &s);
	if (!err)
		print_state(ctx, &s);
	free(s.raw);
	free(s.full);
	free(s.empty);
	return err;
}
