/*
 * checkpoint.c - checkpoint packs: validating a pack (CRCs, versions,
 * sizes), the kernel's f2fs_sanity_check_ckpt() rules, locating the
 * SIT/NAT version bitmaps, and reading the current-segment summaries
 * (compacted or normal) with their NAT and SIT journals.
 */
#include <stdlib.h>
#include <string.h>

#include "f2fs_fs.h"
#include "f2fs_err.h"
#include "f2fs_crc.h"
#include "f2fs_mount.h"
#include "f2fs_ckpt.h"

static bool start_sum_ok(uint32_t start_sum, uint32_t payload);

#define CP_FAIL(msg) do { *why = (msg); return -EFSCORRUPTED; } while (0)

int f2fs_cp_block_validate(const struct f2fs_checkpoint *cp, const char **why)
{
	uint32_t off = le32_to_cpu(cp->checksum_offset);
	uint32_t total = le32_to_cpu(cp->cp_pack_total_block_count);

	if (off < CP_MIN_CHKSUM_OFFSET || off > CP_CHKSUM_OFFSET)
		CP_FAIL("checksum_offset is outside 192..4092");
	if (!f2fs_cp_checksum_ok(cp)) {
		*why = "checkpoint checksum mismatch";
		return -EFSBADCRC;
	}
	if (total <= 2 || total > BLKS_PER_SEG)
		CP_FAIL("cp_pack_total_block_count is outside 3..512");
	return 0;
}

int f2fs_cp_pack_read(struct f2fs_dev *dev, uint32_t pack_start,
		      uint8_t first[F2FS_BLKSIZE], uint64_t *version,
		      const char **why)
{
	uint8_t last[F2FS_BLKSIZE];
	const struct f2fs_checkpoint *cp = (const void *)first;
	const struct f2fs_checkpoint *cp2 = (const void *)last;
	uint32_t total;
	int err;

	*why = NULL;
	err = f2fs_dev_read(dev, pack_start, 1, first);
	if (err) {
		*why = "cannot read the first checkpoint block";
		return err;
	}
	err = f2fs_cp_block_validate(cp, why);
	if (err)
		return err;
	total = le32_to_cpu(cp->cp_pack_total_block_count);
	err = f2fs_dev_read(dev, (uint64_t)pack_start + total - 1, 1, last);
	if (err) {
		*why = "cannot read the last checkpoint block";
		return err;
	}
	err = f2fs_cp_block_validate(cp2, why);
	if (err) {
		*why = "last checkpoint block is invalid";
		return err;
	}
	if (le64_to_cpu(cp->checkpoint_ver) != le64_to_cpu(cp2->checkpoint_ver))
		CP_FAIL("first and last checkpoint blocks carry different versions");
	*version = le64_to_cpu(cp->checkpoint_ver);
	return 0;
}

int f2fs_cp_pack_read_crc_only(struct f2fs_dev *dev, uint32_t pack_start,
			       uint8_t first[F2FS_BLKSIZE], uint64_t *version,
			       const char **why)
{
	uint8_t last[F2FS_BLKSIZE];
	const struct f2fs_checkpoint *cp = (const void *)first;
	uint32_t off, total;
	int err;

	*why = NULL;
	err = f2fs_dev_read(dev, pack_start, 1, first);
	if (err) {
		*why = "cannot read the first checkpoint block";
		return err;
	}
	off = le32_to_cpu(cp->checksum_offset);
	total = le32_to_cpu(cp->cp_pack_total_block_count);
	if (off < CP_MIN_CHKSUM_OFFSET || off > CP_CHKSUM_OFFSET)
		CP_FAIL("checksum_offset is outside 192..4092");
	if (f2fs_cp_checksum_ok(cp))
		CP_FAIL("the checksum holds: the pack fails for another reason");
	if (total <= 2 || total > BLKS_PER_SEG)
		CP_FAIL("cp_pack_total_block_count is outside 3..512");
	err = f2fs_dev_read(dev, (uint64_t)pack_start + total - 1, 1, last);
	if (err) {
		*why = "cannot read the last checkpoint block";
		return err;
	}
	if (memcmp(first, last, F2FS_BLKSIZE))
		CP_FAIL("the last checkpoint block is not a copy of the first");
	*version = le64_to_cpu(cp->checkpoint_ver);
	return 0;
}

int f2fs_cp_implied_payload(struct f2fs_dev *dev, uint32_t pack_start,
			    const struct f2fs_checkpoint *cp, uint32_t *payload)
{
	uint32_t start_sum = le32_to_cpu(cp->cp_pack_start_sum), orphans = 0;

	if (start_sum < 1 || start_sum > BLKS_PER_SEG - 1 - NR_CURSEG_TYPE)
		return -EFSCORRUPTED;
	if (le32_to_cpu(cp->ckpt_flags) & CP_ORPHAN_PRESENT_FLAG) {
		struct f2fs_orphan_block ob;
		int err = f2fs_dev_read(dev, (uint64_t)pack_start + start_sum - 1, 1, &ob);

		if (err)
			return err;
		/* the block before the summaries is the last orphan block */
		orphans = le16_to_cpu(ob.blk_count);
		if (!orphans || le16_to_cpu(ob.blk_addr) != orphans || orphans >= start_sum)
			return -EFSCORRUPTED;
	}
	*payload = start_sum - 1 - orphans;
	return *payload > F2FS_MAX_CP_PAYLOAD ? -EFSCORRUPTED : 0;
}

/* Orphan blocks describe themselves: the first says it is block 1 of
 * blk_count, the last that it is block blk_count of the same count. */
static int count_orphan_blocks(struct f2fs_dev *dev, uint64_t first_addr, uint32_t *count)
{
	struct f2fs_orphan_block ob;
	uint32_t n;
	int err = f2fs_dev_read(dev, first_addr, 1, &ob);

	if (err)
		return err;
	n = le16_to_cpu(ob.blk_count);
	if (le16_to_cpu(ob.blk_addr) != 1 || n < 1 || n > BLKS_PER_SEG - 1 - NR_CURSEG_TYPE)
		return -EFSCORRUPTED;
	if (n > 1) {
		err = f2fs_dev_read(dev, first_addr + n - 1, 1, &ob);
		if (err)
			return err;
		if (le16_to_cpu(ob.blk_addr) != n || le16_to_cpu(ob.blk_count) != n)
			return -EFSCORRUPTED;
	}
	*count = n;
	return 0;
}

int f2fs_cp_layout_start_sum(struct f2fs_dev *dev, uint32_t pack_start,
			     const struct f2fs_checkpoint *cp, uint32_t payload,
			     uint32_t *start_sum)
{
	uint32_t orphans = 0;

	if (payload > F2FS_MAX_CP_PAYLOAD)
		return -EFSCORRUPTED;
	if (le32_to_cpu(cp->ckpt_flags) & CP_ORPHAN_PRESENT_FLAG) {
		int err = count_orphan_blocks(dev, (uint64_t)pack_start + 1 + payload, &orphans);

		if (err)
			return err;
	}
	*start_sum = 1 + payload + orphans;
	return start_sum_ok(*start_sum, payload) ? 0 : -EFSCORRUPTED;
}

#define CP_LAYOUT_FLAGS	(CP_UMOUNT_FLAG | CP_FASTBOOT_FLAG | CP_ORPHAN_PRESENT_FLAG | \
			 CP_COMPACT_SUM_FLAG)

static uint32_t data_log_entries(const struct f2fs_checkpoint *cp, int type);

/* The compacted layout needs at most data_blocks blocks for the data
 * logs' entries (the kernel compacts only what fits in fewer than 3). */
static bool compacted_fits(const struct f2fs_checkpoint *cp, uint32_t data_blocks)
{
	uint32_t entries[NR_CURSEG_DATA_TYPE];

	for (int t = 0; t < NR_CURSEG_DATA_TYPE; t++)
		entries[t] = data_log_entries(cp, t);
	return data_blocks < NR_CURSEG_DATA_TYPE && f2fs_compacted_summary_blocks(entries) <= data_blocks;
}

int f2fs_cp_layout_flags(struct f2fs_dev *dev, uint32_t pack_start,
			 const struct f2fs_checkpoint *cp, uint32_t payload, uint32_t *flags)
{
	uint32_t total = le32_to_cpu(cp->cp_pack_total_block_count);
	uint32_t start_sum = le32_to_cpu(cp->cp_pack_start_sum);
	uint32_t old = le32_to_cpu(cp->ckpt_flags), orphans, rest, data, out;
	bool node_sums;

	if (!start_sum_ok(start_sum, payload) || total <= start_sum + 1 || total > BLKS_PER_SEG)
		return -EFSCORRUPTED;
	orphans = start_sum - 1 - payload;
	if (orphans) {
		uint32_t n;
		int err = count_orphan_blocks(dev, (uint64_t)pack_start + 1 + payload, &n);

		if (err)
			return err;
		if (n != orphans)
			return -EFSCORRUPTED;
	}
	/* the blocks between the summaries' start and the last cp block:
	 * 1 or 2 compacted or 3 normal data summary blocks, then 3 node
	 * summary blocks or none; every count from 1 to 6 reads one way */
	rest = total - start_sum - 1;
	node_sums = rest > NR_CURSEG_DATA_TYPE;
	data = node_sums ? rest - NR_CURSEG_NODE_TYPE : rest;
	if (rest > NR_CURSEG_TYPE || (data != NR_CURSEG_DATA_TYPE && !compacted_fits(cp, data)))
		return -EFSCORRUPTED;
	out = old & ~(uint32_t)CP_LAYOUT_FLAGS;
	if (orphans)
		out |= CP_ORPHAN_PRESENT_FLAG;
	if (data < NR_CURSEG_DATA_TYPE)
		out |= CP_COMPACT_SUM_FLAG;
	if (node_sums)
		/* written at unmount or fastboot; unmount unless it says fastboot */
		out |= (old & CP_FASTBOOT_FLAG) ? (old & (CP_UMOUNT_FLAG | CP_FASTBOOT_FLAG)) :
						  CP_UMOUNT_FLAG;
	*flags = out;
	return 0;
}

int f2fs_cp_claimed_version(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t *version,
			    uint32_t *total)
{
	uint8_t blk[F2FS_BLKSIZE];
	const struct f2fs_checkpoint *cp = (const void *)blk;
	int err = f2fs_dev_read(dev, blkaddr, 1, blk);

	if (err)
		return err;
	*version = le64_to_cpu(cp->checkpoint_ver);
	if (total)
		*total = le32_to_cpu(cp->cp_pack_total_block_count);
	return 0;
}

int f2fs_cp_seal(struct f2fs_checkpoint *cp)
{
	uint32_t crc;
	int err = f2fs_cp_checksum(cp, &crc);

	if (!err)
		put_le32((uint8_t *)cp + le32_to_cpu(cp->checksum_offset), crc);
	return err;
}

static void raise_above(uint64_t cur, uint64_t claimed, uint64_t *next)
{
	/* only versions newer than the pack in use, and only while the
	 * result stays newer than it */
	if (f2fs_cp_version_newer(claimed, cur) && f2fs_cp_version_newer(claimed + 1, cur) &&
	    f2fs_cp_version_newer(claimed + 1, *next))
		*next = claimed + 1;
}

uint64_t f2fs_cp_next_version(const struct f2fs_fs *fs)
{
	uint64_t cur = le64_to_cpu(fs->cp->checkpoint_ver), next = cur + 1, ver;
	uint64_t start = (uint64_t)le32_to_cpu(fs->sb.cp_blkaddr) +
			 (uint64_t)(1 - fs->cp_index) * BLKS_PER_SEG;
	uint32_t total;

	if (!f2fs_cp_claimed_version(fs->dev, start, &ver, &total)) {
		raise_above(cur, ver, &next);
		if (total > 2 && total <= BLKS_PER_SEG &&
		    !f2fs_cp_claimed_version(fs->dev, start + total - 1, &ver, NULL))
			raise_above(cur, ver, &next);
	}
	return next;
}

static int check_cursegs(const struct f2fs_checkpoint *cp, uint32_t main_segs,
			 bool ro, const char **why)
{
	int i, j;

	for (i = 0; i < NR_CURSEG_NODE_TYPE; i++) {
		if (le32_to_cpu(cp->cur_node_segno[i]) >= main_segs ||
		    le16_to_cpu(cp->cur_node_blkoff[i]) >= BLKS_PER_SEG)
			CP_FAIL("a node log's segment or block offset is out of range");
		for (j = i + 1; !ro && j < NR_CURSEG_NODE_TYPE; j++)
			if (cp->cur_node_segno[i] == cp->cur_node_segno[j])
				CP_FAIL("two node logs share a segment");
	}
	for (i = 0; i < NR_CURSEG_DATA_TYPE; i++) {
		if (le32_to_cpu(cp->cur_data_segno[i]) >= main_segs ||
		    le16_to_cpu(cp->cur_data_blkoff[i]) >= BLKS_PER_SEG)
			CP_FAIL("a data log's segment or block offset is out of range");
		for (j = i + 1; !ro && j < NR_CURSEG_DATA_TYPE; j++)
			if (cp->cur_data_segno[i] == cp->cur_data_segno[j])
				CP_FAIL("two data logs share a segment");
		for (j = 0; !ro && j < NR_CURSEG_NODE_TYPE; j++)
			if (cp->cur_data_segno[i] == cp->cur_node_segno[j])
				CP_FAIL("a data log and a node log share a segment");
	}
	return 0;
}

uint32_t f2fs_cp_nat_bits_blocks_kernel_check(uint32_t segment_count_nat)
{
	/* The kernel's mount check sizes nat_bits from the whole NAT area
	 * (both copies), twice the real size. */
	uint64_t bytes = (uint64_t)segment_count_nat * BLKS_PER_SEG / 8;

	return (uint32_t)((2 * bytes + 8 + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE);
}

/* The fields mkfs sets once: reserved and overprovision segments and the
 * user blocks they leave. */
static int check_ckpt_geometry(const struct f2fs_super_block *sb,
			       const struct f2fs_checkpoint *cp, const char **why)
{
	bool ro = le32_to_cpu(sb->feature) & F2FS_FEATURE_RO;
	uint32_t main_segs = le32_to_cpu(sb->segment_count_main);
	uint64_t user_blocks = le64_to_cpu(cp->user_block_count);
	uint64_t fsmeta;

	fsmeta = (uint64_t)le32_to_cpu(sb->segment_count_ckpt) + le32_to_cpu(sb->segment_count_sit) +
		 le32_to_cpu(sb->segment_count_nat) + le32_to_cpu(cp->rsvd_segment_count) +
		 le32_to_cpu(sb->segment_count_ssa);
	if (fsmeta >= le32_to_cpu(sb->segment_count))
		CP_FAIL("metadata and reserved segments exceed segment_count");
	if (!ro && (fsmeta < F2FS_MIN_META_SEGMENTS ||
		    le32_to_cpu(cp->overprov_segment_count) == 0 ||
		    le32_to_cpu(cp->rsvd_segment_count) == 0))
		CP_FAIL("wrong layout: too few metadata, reserved or overprovision segments");
	if (user_blocks == 0 || user_blocks >= ((uint64_t)main_segs + (ro ? 1 : 0)) << 9)
		CP_FAIL("user_block_count is 0 or not below the main area size");
	return 0;
}

static int check_ckpt_counts(const struct f2fs_super_block *sb,
			     const struct f2fs_checkpoint *cp, const char **why)
{
	uint64_t max_nid = (uint64_t)(le32_to_cpu(sb->segment_count_nat) / 2) * BLKS_PER_SEG *
			   NAT_ENTRY_PER_BLOCK;

	if (le64_to_cpu(cp->valid_block_count) > le64_to_cpu(cp->user_block_count))
		CP_FAIL("valid_block_count exceeds user_block_count");
	if ((uint64_t)le32_to_cpu(cp->valid_node_count) + F2FS_RESERVED_NODE_NUM > max_nid)
		CP_FAIL("valid_node_count exceeds the NAT capacity");
	return 0;
}

static uint32_t sit_bitmap_bytes(const struct f2fs_super_block *sb)
{
	return ((le32_to_cpu(sb->segment_count_sit) / 2) << 9) / 8;
}

static uint32_t nat_bitmap_bytes(const struct f2fs_super_block *sb)
{
	return ((le32_to_cpu(sb->segment_count_nat) / 2) << 9) / 8;
}

static int check_ckpt_bitmaps(const struct f2fs_super_block *sb,
			      const struct f2fs_checkpoint *cp, const char **why)
{
	uint32_t main_segs = le32_to_cpu(sb->segment_count_main);

	if (le32_to_cpu(cp->sit_ver_bitmap_bytesize) != sit_bitmap_bytes(sb) ||
	    le32_to_cpu(cp->nat_ver_bitmap_bytesize) != nat_bitmap_bytes(sb))
		CP_FAIL("SIT/NAT version bitmap sizes do not match the superblock");
	if ((uint64_t)le32_to_cpu(cp->sit_ver_bitmap_bytesize) * 8 <
	    (main_segs + SIT_ENTRY_PER_BLOCK - 1) / SIT_ENTRY_PER_BLOCK)
		CP_FAIL("SIT area is too small for the main area");
	return 0;
}

static bool start_sum_ok(uint32_t start_sum, uint32_t payload)
{
	return start_sum >= payload + 1 && start_sum <= BLKS_PER_SEG - 1 - NR_CURSEG_TYPE;
}

static bool nat_bits_fit(const struct f2fs_super_block *sb)
{
	return le32_to_cpu(sb->cp_payload) + 2 + NR_CURSEG_TYPE +
	       f2fs_cp_nat_bits_blocks_kernel_check(le32_to_cpu(sb->segment_count_nat)) < BLKS_PER_SEG;
}

/* Where the pack's parts are: summaries, the large NAT bitmap layout,
 * room for nat_bits. */
static int check_pack_layout(const struct f2fs_super_block *sb,
			     const struct f2fs_checkpoint *cp, const char **why)
{
	uint32_t flags = le32_to_cpu(cp->ckpt_flags);

	if (!start_sum_ok(le32_to_cpu(cp->cp_pack_start_sum), le32_to_cpu(sb->cp_payload)))
		CP_FAIL("cp_pack_start_sum is out of range");
	if ((flags & CP_LARGE_NAT_BITMAP_FLAG) &&
	    le32_to_cpu(cp->checksum_offset) != CP_MIN_CHKSUM_OFFSET)
		CP_FAIL("large NAT bitmap checkpoint without its checksum at 192");
	if ((flags & CP_NAT_BITS_FLAG) && !nat_bits_fit(sb))
		CP_FAIL("nat_bits do not fit in the checkpoint segment");
	return 0;
}

int f2fs_ckpt_validate(const struct f2fs_super_block *sb,
		       const struct f2fs_checkpoint *cp, const char **why)
{
	bool ro = le32_to_cpu(sb->feature) & F2FS_FEATURE_RO;
	int err;

	*why = NULL;
	if ((err = check_ckpt_geometry(sb, cp, why)) ||
	    (err = check_ckpt_counts(sb, cp, why)) ||
	    (err = check_cursegs(cp, le32_to_cpu(sb->segment_count_main), ro, why)) ||
	    (err = check_ckpt_bitmaps(sb, cp, why)) ||
	    (err = check_pack_layout(sb, cp, why)))
		return err;
	if (le32_to_cpu(cp->ckpt_flags) & CP_ERROR_FLAG)
		CP_FAIL("checkpoint has CP_ERROR_FLAG set");
	return 0;
}

int f2fs_ckpt_check_geometry(const struct f2fs_super_block *sb,
			     const struct f2fs_checkpoint *cp, const char **why)
{
	*why = NULL;
	return check_ckpt_geometry(sb, cp, why);
}

int f2fs_ckpt_check_layout(const struct f2fs_super_block *sb,
			   const struct f2fs_checkpoint *cp, const char **why)
{
	uint32_t sit_off, nat_off;
	int err;

	*why = NULL;
	if ((err = check_ckpt_bitmaps(sb, cp, why)) || (err = check_pack_layout(sb, cp, why)))
		return err;
	if (f2fs_cp_bitmap_locate(cp, le32_to_cpu(sb->cp_payload), &sit_off, &nat_off))
		CP_FAIL("the version bitmaps do not fit the checkpoint");
	return 0;
}

static void note_derived(struct f2fs_cp_derived *out, unsigned int *n, const char *field,
			 uint64_t found, uint64_t value)
{
	if (*n < F2FS_CP_MAX_DERIVED)
		out[(*n)++] = (struct f2fs_cp_derived){ .field = field, .found = found, .value = value };
}

unsigned int f2fs_ckpt_derive(const struct f2fs_super_block *sb, struct f2fs_checkpoint *cp,
			      struct f2fs_cp_derived out[F2FS_CP_MAX_DERIVED])
{
	uint32_t payload = le32_to_cpu(sb->cp_payload);
	uint32_t flags = le32_to_cpu(cp->ckpt_flags);
	uint32_t start_sum = le32_to_cpu(cp->cp_pack_start_sum);
	unsigned int n = 0;

	if (le32_to_cpu(cp->sit_ver_bitmap_bytesize) != sit_bitmap_bytes(sb)) {
		note_derived(out, &n, "sit_ver_bitmap_bytesize",
			     le32_to_cpu(cp->sit_ver_bitmap_bytesize), sit_bitmap_bytes(sb));
		cp->sit_ver_bitmap_bytesize = cpu_to_le32(sit_bitmap_bytes(sb));
	}
	if (le32_to_cpu(cp->nat_ver_bitmap_bytesize) != nat_bitmap_bytes(sb)) {
		note_derived(out, &n, "nat_ver_bitmap_bytesize",
			     le32_to_cpu(cp->nat_ver_bitmap_bytesize), nat_bitmap_bytes(sb));
		cp->nat_ver_bitmap_bytesize = cpu_to_le32(nat_bitmap_bytes(sb));
	}
	/* without orphan blocks the summaries follow the payload */
	if (!start_sum_ok(start_sum, payload) && !(flags & CP_ORPHAN_PRESENT_FLAG) &&
	    payload <= F2FS_MAX_CP_PAYLOAD) {
		note_derived(out, &n, "cp_pack_start_sum", start_sum, payload + 1);
		cp->cp_pack_start_sum = cpu_to_le32(payload + 1);
	}
	if ((flags & CP_NAT_BITS_FLAG) && !nat_bits_fit(sb)) {
		note_derived(out, &n, "ckpt_flags", flags, flags & ~(uint32_t)CP_NAT_BITS_FLAG);
		cp->ckpt_flags = cpu_to_le32(flags & ~(uint32_t)CP_NAT_BITS_FLAG);
	}
	return n;
}

int f2fs_cp_bitmap_locate(const struct f2fs_checkpoint *cp, uint32_t cp_payload,
			  uint32_t *sit_off, uint32_t *nat_off)
{
	uint32_t sit_size = le32_to_cpu(cp->sit_ver_bitmap_bytesize);
	uint32_t nat_size = le32_to_cpu(cp->nat_ver_bitmap_bytesize);
	uint64_t limit = (uint64_t)(1 + cp_payload) * F2FS_BLKSIZE;
	uint64_t s, n;

	if (le32_to_cpu(cp->ckpt_flags) & CP_LARGE_NAT_BITMAP_FLAG) {
		n = CP_MIN_CHKSUM_OFFSET + 4;
		s = n + nat_size;
	} else if (cp_payload > 0) {
		n = CP_MIN_CHKSUM_OFFSET;
		s = F2FS_BLKSIZE;
	} else {
		s = CP_MIN_CHKSUM_OFFSET;
		n = s + sit_size;
	}
	if (s + sit_size > limit || n + nat_size > limit)
		return -EFSCORRUPTED;
	/* Without payload both bitmaps must stay clear of the crc. */
	if (cp_payload == 0 && !(le32_to_cpu(cp->ckpt_flags) & CP_LARGE_NAT_BITMAP_FLAG) &&
	    s + sit_size + nat_size > le32_to_cpu(cp->checksum_offset))
		return -EFSCORRUPTED;
	*sit_off = (uint32_t)s;
	*nat_off = (uint32_t)n;
	return 0;
}

/* ---- summaries ------------------------------------------------------- */

static uint32_t data_log_entries(const struct f2fs_checkpoint *cp, int type)
{
	if (cp->alloc_type[type] == SSR)
		return ENTRIES_IN_SUM;
	return le16_to_cpu(cp->cur_data_blkoff[type]);
}

bool f2fs_cp_has_node_summaries(const struct f2fs_checkpoint *cp)
{
	return le32_to_cpu(cp->ckpt_flags) & (CP_UMOUNT_FLAG | CP_FASTBOOT_FLAG);
}

/* Unpack compacted data summaries (journals + entries of the 3 data logs). */
int f2fs_unpack_compacted_summaries(const struct f2fs_checkpoint *cp,
				    const uint8_t *blocks, uint32_t nblocks,
				    struct f2fs_summary_block sums[NR_CURSEG_DATA_TYPE])
{
	uint32_t blk = 0, off = 2 * SUM_JOURNAL_SIZE;
	int type;
	uint32_t j;

	memset(sums, 0, sizeof(*sums) * NR_CURSEG_DATA_TYPE);
	if (nblocks < 1)
		return -EFSCORRUPTED;
	memcpy(&sums[CURSEG_HOT_DATA].journal, blocks, SUM_JOURNAL_SIZE);
	memcpy(&sums[CURSEG_COLD_DATA].journal, blocks + SUM_JOURNAL_SIZE, SUM_JOURNAL_SIZE);
	for (type = CURSEG_HOT_DATA; type <= CURSEG_COLD_DATA; type++) {
		uint32_t n = data_log_entries(cp, type);

		sums[type].footer.entry_type = SUM_TYPE_DATA;
		for (j = 0; j < n && j < ENTRIES_IN_SUM; j++) {
			if (blk >= nblocks)
				return -EFSCORRUPTED;
			memcpy(&sums[type].entries[j],
			       blocks + (size_t)blk * F2FS_BLKSIZE + off, SUMMARY_SIZE);
			off += SUMMARY_SIZE;
			if (off + SUMMARY_SIZE > F2FS_BLKSIZE - SUM_FOOTER_SIZE) {
				blk++;
				off = 0;
			}
		}
	}
	return 0;
}

uint32_t f2fs_compacted_summary_blocks(const uint32_t entries[NR_CURSEG_DATA_TYPE])
{
	uint64_t total = (uint64_t)entries[0] + entries[1] + entries[2];
	const uint32_t first = (F2FS_BLKSIZE - SUM_FOOTER_SIZE - 2 * SUM_JOURNAL_SIZE) / SUMMARY_SIZE;
	const uint32_t rest = (F2FS_BLKSIZE - SUM_FOOTER_SIZE) / SUMMARY_SIZE;

	if (total <= first)
		return 1;
	return (uint32_t)(1 + (total - first + rest - 1) / rest);
}

void f2fs_pack_compacted_summaries(const struct f2fs_summary_block sums[NR_CURSEG_DATA_TYPE],
				   const uint32_t entries[NR_CURSEG_DATA_TYPE],
				   uint8_t *blocks, uint32_t nblocks)
{
	uint32_t blk = 0, off = 2 * SUM_JOURNAL_SIZE, j;
	int type;

	memset(blocks, 0, (size_t)nblocks * F2FS_BLKSIZE);
	memcpy(blocks, &sums[CURSEG_HOT_DATA].journal, SUM_JOURNAL_SIZE);
	memcpy(blocks + SUM_JOURNAL_SIZE, &sums[CURSEG_COLD_DATA].journal, SUM_JOURNAL_SIZE);
	for (type = CURSEG_HOT_DATA; type <= CURSEG_COLD_DATA; type++) {
		for (j = 0; j < entries[type] && j < ENTRIES_IN_SUM && blk < nblocks; j++) {
			memcpy(blocks + (size_t)blk * F2FS_BLKSIZE + off,
			       &sums[type].entries[j], SUMMARY_SIZE);
			off += SUMMARY_SIZE;
			if (off + SUMMARY_SIZE > F2FS_BLKSIZE - SUM_FOOTER_SIZE) {
				blk++;
				off = 0;
			}
		}
	}
}

/* Read the six current-segment summaries of the loaded pack. */
int f2fs_fs_load_cursums(struct f2fs_fs *fs)
{
	const struct f2fs_checkpoint *cp = fs->cp;
	uint32_t start = fs->cp_start_blkaddr;
	uint32_t total = le32_to_cpu(cp->cp_pack_total_block_count);
	uint32_t start_sum = le32_to_cpu(cp->cp_pack_start_sum);
	bool node_sums = f2fs_cp_has_node_summaries(cp);
	int err, t;

	if (le32_to_cpu(cp->ckpt_flags) & CP_COMPACT_SUM_FLAG) {
		uint32_t avail = total - start_sum - 1 - (node_sums ? NR_CURSEG_NODE_TYPE : 0);
		uint8_t *buf;

		if (start_sum >= total || avail < 1 || avail > 3)
			return -EFSCORRUPTED;
		buf = f2fs_blocks_alloc(avail);
		if (!buf)
			return -ENOMEM;
		err = f2fs_dev_read(fs->dev, (uint64_t)start + start_sum, avail, buf);
		if (!err)
			err = f2fs_unpack_compacted_summaries(cp, buf, avail, fs->cursum);
		free(buf);
		if (err)
			return err;
	} else {
		uint32_t base = node_sums ? 7 : 4;

		if (total < base + 1)
			return -EFSCORRUPTED;
		for (t = CURSEG_HOT_DATA; t <= CURSEG_COLD_DATA; t++) {
			err = f2fs_dev_read(fs->dev, (uint64_t)start + total - base + t, 1,
					    &fs->cursum[t]);
			if (err)
				return err;
		}
	}
	for (t = 0; t < NR_CURSEG_NODE_TYPE; t++) {
		uint64_t addr;

		if (node_sums) {
			if (total < 5)
				return -EFSCORRUPTED;
			addr = (uint64_t)start + total - 4 + t;
		} else {
			if (le32_to_cpu(cp->cur_node_segno[t]) >= fs->main_segs)
				return -EFSCORRUPTED;
			addr = (uint64_t)fs->ssa_blkaddr + le32_to_cpu(cp->cur_node_segno[t]);
		}
		err = f2fs_dev_read(fs->dev, addr, 1, &fs->cursum[CURSEG_HOT_NODE + t]);
		if (err)
			return err;
	}
	fs->cursum_loaded = true;
	return 0;
}
