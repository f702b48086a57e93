/*
 * fsck_pass_verify.c - pass 7: derived state recomputed from reachability
 * and compared with what is on disk.
 *
 * Per segment: the SIT valid map against the referenced blocks, naming
 * the blocks that differ.  Per section (large sections): the sums of the
 * SIT entries' valid counts and lib's checkpoint-valid section sums
 * against the referenced blocks, and one class of SIT types per section
 * up to its last segment in use.  Sections
 * free/dirty/full for the summary.  The logs' write positions and types.
 * The checkpoint counters (valid blocks, nodes, inodes, free segments).
 * nat_bits against the NAT as loaded.  Nids in use but never reached.
 */
#include <stdlib.h>
#include <string.h>

#include "f2fs_err.h"
#include "f2fs_layout.h"
#include "fsck.h"

#define LIST_MAX	8	/* block addresses named per segment */
#define NAT_BITS_LINES	64

/* Reverse the bit order inside each byte of w: the reachability map is
 * LSB-first per byte, the SIT valid map MSB-first. */
static uint64_t rev_bits_in_bytes(uint64_t w)
{
	w = ((w >> 1) & 0x5555555555555555ull) | ((w & 0x5555555555555555ull) << 1);
	w = ((w >> 2) & 0x3333333333333333ull) | ((w & 0x3333333333333333ull) << 2);
	return ((w >> 4) & 0x0f0f0f0f0f0f0f0full) | ((w & 0x0f0f0f0f0f0f0f0full) << 4);
}

/* Append up to LIST_MAX addresses, then "(+N more)". */
static void list_blocks(char *out, size_t cap, const uint32_t *addrs, uint32_t n)
{
	size_t o = 0;

	out[0] = 0;
	for (uint32_t i = 0; i < n && i < LIST_MAX && o < cap; i++)
		o += (size_t)snprintf(out + o, cap - o, "%s%u", i ? "," : "", addrs[i]);
	if (n > LIST_MAX && o < cap)
		snprintf(out + o, cap - o, " (+%u more)", n - LIST_MAX);
}

/* Compare one segment; returns the number of referenced blocks in it. */
static uint32_t compare_segment(struct fsck_ctx *ctx, uint32_t segno)
{
	const struct f2fs_seg_entry *se = &ctx->sit.segs[segno];
	const uint8_t *reach = ctx->reach + (size_t)segno * (BLKS_PER_SEG / 8);
	uint32_t base = f2fs_seg_start_blkaddr(ctx->fs, segno);
	uint32_t missing[LIST_MAX], extra[LIST_MAX], nm = 0, ne = 0, used = 0;
	char list[160];
	uint64_t diff = 0;

	/* Nothing referenced in the segment (the walk marks seg_kind with
	 * every reach bit it sets) and nothing valid: the common free case,
	 * decided without touching the reachability map. */
	if (!(ctx->seg_kind[segno] & 3) && f2fs_sit_map_empty(se->cur_valid_map))
		return 0;
	for (uint32_t i = 0; i < F2FS_SIT_MAP_WORDS; i++) {
		uint64_t r = f2fs_sit_map_word(reach, i);

		if (r)
			used += f2fs_popcount64(r);
		diff |= rev_bits_in_bytes(r) ^ f2fs_sit_map_word(se->cur_valid_map, i);
	}
	if (!diff)
		return used;
	for (uint32_t k = 0; k < BLKS_PER_SEG; k++) {
		bool r = fsck_bit(reach, k), s = f2fs_test_bit(k, se->cur_valid_map);

		if (r && !s) {
			if (nm < LIST_MAX)
				missing[nm] = base + k;
			nm++;
		} else if (s && !r) {
			if (ne < LIST_MAX)
				extra[ne] = base + k;
			ne++;
		}
	}
	if (nm) {
		list_blocks(list, sizeof(list), missing, nm);
		fsck_problem(ctx, PR_SIT_BLOCK_NOT_VALID, FSCK_OBJ(.segno = segno, .found = nm,
			    .blkaddr = missing[0], .str = list));
	}
	if (ne) {
		list_blocks(list, sizeof(list), extra, ne);
		fsck_problem(ctx, PR_SIT_BLOCK_LEAK, FSCK_OBJ(.segno = segno, .found = ne,
			    .blkaddr = extra[0], .str = list));
	}
	return used;
}

static bool is_node_type(uint8_t t)
{
	return t >= CURSEG_HOT_NODE && t <= CURSEG_COLD_NODE;
}

/* One class per section among the segments in use, as the kernel's GC
 * needs it: do_garbage_collect() takes a victim section's type from its
 * first segment holding valid blocks (since Linux 7.2; before, from the
 * segment it started at) and stops checkpointing at a segment in use
 * whose summary is of the other class.  An empty segment of the other
 * class before the last one in use is the state the kernel's own
 * roll-forward recovery leaves when it recovers fsync'd data into a
 * section that held nodes (fstests f2fs/025): information, since only
 * kernels before 7.2 can take the section's type from it.  Temperatures
 * may differ (information only).  Not on a read-only image, which the
 * kernel never writes or collects. */
static void check_section_types(struct fsck_ctx *ctx, uint32_t secno)
{
	uint32_t spp = ctx->sit.segs_per_sec, first = secno * spp, end = first, rep = UINT32_MAX;
	const struct f2fs_seg_entry *segs = ctx->sit.segs;
	uint32_t stale = UINT32_MAX;
	int type = -1;

	for (uint32_t s = first; s < first + spp; s++) {
		if (!segs[s].valid_blocks)
			continue;
		end = s + 1;
		if (rep == UINT32_MAX)
			rep = s;
	}
	if (rep == UINT32_MAX)
		return;
	for (uint32_t s = first; s < end; s++) {
		uint8_t t = segs[s].type;
		bool other = is_node_type(t) != is_node_type(segs[rep].type);

		if (!segs[s].valid_blocks) {
			if (other && stale == UINT32_MAX)
				stale = s;
			continue;
		}
		if (other) {
			fsck_problem(ctx, PR_SEC_TYPE_MIX, FSCK_OBJ(.secno = secno, .segno = s, .found = t,
				    .expected = segs[rep].type));
			return;
		}
		if (type < 0) {
			type = t;
		} else if (t != type) {
			fsck_problem(ctx, PR_SEC_TEMP_MIX, FSCK_OBJ(.secno = secno, .segno = s, .found = t,
				    .expected = (uint64_t)type));
			return;
		}
	}
	if (stale != UINT32_MAX)
		fsck_problem(ctx, PR_SEC_EMPTY_SEG_CLASS, FSCK_OBJ(.secno = secno, .segno = stale,
			    .found = segs[stale].type, .expected = segs[rep].type));
}

static void compare_sections(struct fsck_ctx *ctx, const uint32_t *used)
{
	uint32_t spp = ctx->sit.segs_per_sec;
	uint64_t cap = (uint64_t)spp * BLKS_PER_SEG;

	for (uint32_t secno = 0; secno < ctx->sit.main_secs; secno++) {
		uint64_t sit_sum = 0, reach = 0;

		for (uint32_t s = secno * spp; s < (secno + 1) * spp; s++) {
			sit_sum += ctx->sit.segs[s].valid_blocks;
			reach += used[s];
		}
		if (sit_sum == 0)
			ctx->st.free_secs++;
		else if (sit_sum >= cap)
			ctx->st.full_secs++;
		else
			ctx->st.dirty_secs++;
		if (spp == 1)
			continue;
		if (sit_sum != reach)
			fsck_problem(ctx, PR_SEC_VALID_COUNT, FSCK_OBJ(.secno = secno,
				    .found = sit_sum, .expected = reach));
		if (ctx->sit.secs[secno].ckpt_valid_blocks != reach)
			fsck_problem(ctx, PR_SEC_CKPT_VALID_COUNT, FSCK_OBJ(.secno = secno,
				    .found = ctx->sit.secs[secno].ckpt_valid_blocks, .expected = reach));
		/* nothing collects a read-only image's garbage */
		if (!f2fs_is_ro_image(ctx->fs))
			check_section_types(ctx, secno);
	}
}

static void check_logs(struct fsck_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;

	for (int t = 0; t < NR_CURSEG_TYPE; t++) {
		uint32_t segno = fs->curseg_segno[t], off = fs->curseg_blkoff[t];
		const struct f2fs_seg_entry *se;
		uint32_t last = fs->cp->alloc_type[t] == LFS ? BLKS_PER_SEG : off + 1;

		if (segno >= fs->main_segs || off >= BLKS_PER_SEG || !f2fs_log_in_use(fs, t))
			continue;
		se = &ctx->sit.segs[segno];
		for (uint32_t k = off; k < last; k++)
			if (f2fs_test_bit(k, se->cur_valid_map)) {
				fsck_problem(ctx, PR_CP_CURSEG_NEXT_BLOCK_USED, FSCK_OBJ(.idx = (uint64_t)t,
					    .segno = segno, .blkaddr = f2fs_seg_start_blkaddr(fs, segno) + k));
				break;
			}
		if (se->type != t)
			fsck_problem(ctx, PR_CP_CURSEG_TYPE, FSCK_OBJ(.idx = (uint64_t)t, .segno = segno,
				    .found = se->type, .expected = (uint64_t)t));
	}
}

/* Whether log t is the first log on its segment (logs sharing a segment
 * count once). */
static bool first_curseg_of(const struct f2fs_fs *fs, int t)
{
	for (int u = 0; u < t; u++)
		if (fs->curseg_segno[u] == fs->curseg_segno[t])
			return false;
	return true;
}

static void check_counters(struct fsck_ctx *ctx)
{
	const struct f2fs_checkpoint *cp = ctx->fs->cp;
	uint64_t blocks = ctx->st.nodes + ctx->st.data_blocks + ctx->st.new_addr_blocks +
			  ctx->st.compress_addr_slots;
	uint32_t free_segs = 0;

	if (le64_to_cpu(cp->valid_block_count) != blocks)
		fsck_problem(ctx, PR_CP_VALID_BLOCKS, FSCK_OBJ(.found = le64_to_cpu(cp->valid_block_count),
			    .expected = blocks));
	if (le32_to_cpu(cp->valid_node_count) != ctx->st.nodes)
		fsck_problem(ctx, PR_CP_VALID_NODES, FSCK_OBJ(.found = le32_to_cpu(cp->valid_node_count),
			    .expected = ctx->st.nodes));
	if (le32_to_cpu(cp->valid_inode_count) != ctx->st.inodes)
		fsck_problem(ctx, PR_CP_VALID_INODES, FSCK_OBJ(.found = le32_to_cpu(cp->valid_inode_count),
			    .expected = ctx->st.inodes));
	for (uint32_t s = 0; s < ctx->sit.main_segs; s++)
		if (!ctx->sit.segs[s].valid_blocks)
			free_segs++;
	/* a current segment is never free, even when it holds nothing */
	for (int t = 0; t < NR_CURSEG_TYPE; t++) {
		uint32_t s = ctx->fs->curseg_segno[t];

		if (s < ctx->sit.main_segs && !ctx->sit.segs[s].valid_blocks &&
		    first_curseg_of(ctx->fs, t))
			free_segs--;
	}
	if (le32_to_cpu(cp->free_segment_count) > free_segs)
		fsck_problem(ctx, PR_CP_FREE_SEGMENTS, FSCK_OBJ(.found = le32_to_cpu(cp->free_segment_count),
			    .expected = free_segs));
}

static void report_nat_bit(struct fsck_ctx *ctx, uint32_t b, const char *what, uint32_t *lines)
{
	if ((*lines)++ < NAT_BITS_LINES)
		fsck_problem(ctx, PR_CP_NAT_BITS_MISMATCH, FSCK_OBJ(.idx = b, .str = what));
}

static int check_nat_bits(struct fsck_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;
	uint32_t nbb = f2fs_nat_bits_blocks(le32_to_cpu(fs->sb.segment_count_nat));
	uint32_t bytes = fs->nat_blocks / 8, off = le32_to_cpu(fs->cp->checksum_offset);
	uint64_t want = le64_to_cpu(fs->cp->checkpoint_ver);
	uint8_t *buf, *full, *empty;
	uint32_t lines = 0;
	int err;

	if (!(fs->cp_flags & CP_NAT_BITS_FLAG) || !ctx->nat_loaded)
		return 0;
	if (nbb == 0 || nbb >= BLKS_PER_SEG || off > CP_CHKSUM_OFFSET ||
	    ctx->nat.bitmap_bytes < bytes)
		return 0;
	want |= (uint64_t)get_le32((const uint8_t *)fs->cp + off) << 32;
	buf = f2fs_blocks_alloc(nbb);
	full = malloc(ctx->nat.bitmap_bytes);
	empty = malloc(ctx->nat.bitmap_bytes);
	if (!buf || !full || !empty) {
		err = -ENOMEM;
		goto out;
	}
	err = f2fs_dev_read(fs->dev, (uint64_t)fs->cp_start_blkaddr + BLKS_PER_SEG - nbb, nbb, buf);
	if (err)
		goto out;
	if (get_le64(buf) != want) {
		fsck_problem(ctx, PR_CP_NAT_BITS_STALE, FSCK_OBJ());
		goto out;
	}
	f2fs_nat_compute_bits(&ctx->nat, full, empty);
	for (uint32_t b = 0; b < fs->nat_blocks && b < bytes * 8; b++) {
		bool df = test_bit_le(b, buf + 8), de = test_bit_le(b, buf + 8 + bytes);

		/* only a bit that is set can mislead the kernel: a block with
		 * neither bit is scanned (load_free_nid_bitmap() in node.c) */
		if (df && !test_bit_le(b, full))
			report_nat_bit(ctx, b, "marked full but has free entries", &lines);
		if (de && !test_bit_le(b, empty))
			report_nat_bit(ctx, b, "marked empty but has entries in use", &lines);
	}
	if (lines > NAT_BITS_LINES)
		fsck_diag(ctx, "%u more nat_bits mismatches not listed", lines - NAT_BITS_LINES);
out:
	free(buf);
	free(full);
	free(empty);
	return err;
}

static void check_leak_of(struct fsck_ctx *ctx, uint32_t nid)
{
	const struct f2fs_nat_entry *e = &ctx->nat.ent[nid];

	if (nid < F2FS_RESERVED_NODE_NUM || !le32_to_cpu(e->block_addr) ||
	    (ctx->ni[nid].flags & FSCK_NI_NODE) ||
	    !fsck_addr_in_main(ctx, le32_to_cpu(e->block_addr)))
		return;
	fsck_problem(ctx, PR_NAT_LEAK, FSCK_OBJ(.nid = nid, .ino = le32_to_cpu(e->ino),
		    .blkaddr = le32_to_cpu(e->block_addr)));
}

static void check_leaks(struct fsck_ctx *ctx)
{
	fsck_for_each_nat_entry(ctx, check_leak_of);
}

int fsck_pass_verify(struct fsck_ctx *ctx)
{
	uint32_t *used;
	int err;

	if (!ctx->sit_loaded)
		return 0;
	used = calloc(ctx->sit.main_segs, sizeof(*used));
	if (!used)
		return -ENOMEM;
	fsck_progress(ctx, 7, 0, 1);
	if (ctx->nat_loaded) {
		for (uint32_t s = 0; s < ctx->sit.main_segs; s++)
			used[s] = compare_segment(ctx, s);
	}
	compare_sections(ctx, used);
	free(used);
	check_logs(ctx);
	if (!ctx->nat_loaded)
		return 0;
	check_counters(ctx);
	check_leaks(ctx);
	err = check_nat_bits(ctx);
	fsck_progress(ctx, 7, 1, 1);
	return err;
}
