/*
 * test_sb_derive.c - what a checker derives where the kernel would refuse
 * a volume, on layouts made by our mkfs.f2fs (sizes from 256 MiB to
 * 4 TiB, -s, -z, -i, sb_checksum):
 *  - f2fs_sb_rebuild(): every derivable superblock field broken in both
 *    copies, a different one in each copy, or one copy gone, gives back
 *    the superblock mkfs wrote; copies that disagree on anything else,
 *    area addresses out of step, too little agreement on the main area
 *    size, or no magic are refused;
 *  - f2fs_cp_implied_payload(): the checkpoint implies mkfs' cp_payload;
 *  - f2fs_ckpt_derive(): version bitmap sizes and cp_pack_start_sum come
 *    back from the superblock, not cp_pack_start_sum with orphan blocks;
 *    CP_NAT_BITS_FLAG goes where nat_bits cannot fit;
 *  - f2fs_cp_next_version(): above the pack in use and above a newer
 *    claim of the pack a repair overwrites;
 *  - f2fs_cp_layout_start_sum(), f2fs_cp_layout_flags(): mkfs' packs give
 *    back their own cp_pack_start_sum and ckpt_flags;
 *  - the open with F2FS_OPEN_SALVAGE: rebuilt and confirmed on a damaged
 *    volume, refused on one whose root cannot be found, nothing on a
 *    device without the magic; a pack whose summaries do not load where
 *    cp_pack_start_sum or ckpt_flags say has the field derived, or the
 *    older pack is used when nothing derived loads them; of two valid
 *    copies that differ, the one the checkpoint agrees with is used (the
 *    kernel's rules, the RO feature).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "f2fs_fs.h"
#include "f2fs_err.h"
#include "f2fs_crc.h"
#include "f2fs_mount.h"
#include "f2fs_super.h"
#include "f2fs_ckpt.h"

static char img[256];

struct layout_case {
	const char *opts;
	const char *size;
};

static const struct layout_case layouts[] = {
	{ "", "256M" },
	{ "-O extra_attr,inode_checksum,sb_checksum,lost_found,quota", "1G" },
	{ "-s 4", "512M" },
	{ "-s 3 -z 2", "3G" },
	{ "-z 4", "1G" },
	{ "-s 7", "40G" },
	{ "-s 128 -O sb_checksum", "5G" },
	{ "-i", "2G" },
	{ "", "4T" },		/* cp_payload 2: the SIT bitmap leaves the cp block */
};

static void patch(uint64_t offset, const void *data, size_t len);

static int make_image(const char *opts, const char *size)
{
	const char *top = getenv("top_builddir");
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "rm -f %s && truncate -s %s %s && %s/mkfs/mkfs.f2fs -q -f %s %s",
		 img, size, img, top ? top : ".", opts, img);
	if (system(cmd) != 0) {
		fprintf(stderr, "cannot run: %s\n", cmd);
		return -1;
	}
	return 0;
}

/* A value the kernel refuses for derivable field i (sb_checksum on or off
 * decides whether checksum_offset is checked at all). */
static bool break_field(struct f2fs_super_block *sb, unsigned int i)
{
	const char *name = f2fs_sb_derivable_name(i);
	bool chksum = le32_to_cpu(sb->feature) & F2FS_FEATURE_SB_CHKSUM;

	if (!strcmp(name, "log_sectorsize"))
		sb->log_sectorsize = cpu_to_le32(99);
	else if (!strcmp(name, "log_sectors_per_block"))
		sb->log_sectors_per_block = cpu_to_le32(99);
	else if (!strcmp(name, "log_blocksize"))
		sb->log_blocksize = cpu_to_le32(13);
	else if (!strcmp(name, "log_blocks_per_seg"))
		sb->log_blocks_per_seg = cpu_to_le32(10);
	else if (!strcmp(name, "checksum_offset") && chksum)
		sb->checksum_offset = cpu_to_le32(1234);
	else if (!strcmp(name, "block_count"))
		sb->block_count = cpu_to_le64(5);
	else if (!strcmp(name, "section_count"))
		sb->section_count = cpu_to_le32(0);
	else if (!strcmp(name, "segment_count"))
		sb->segment_count = cpu_to_le32(0x7fffffff);
	else if (!strcmp(name, "segment_count_ckpt"))
		sb->segment_count_ckpt = cpu_to_le32(3);
	else if (!strcmp(name, "segment_count_sit"))
		sb->segment_count_sit = cpu_to_le32(le32_to_cpu(sb->segment_count_sit) + 2);
	else if (!strcmp(name, "segment_count_nat"))
		sb->segment_count_nat = cpu_to_le32(0);
	else if (!strcmp(name, "segment_count_ssa"))
		sb->segment_count_ssa = cpu_to_le32(le32_to_cpu(sb->segment_count_ssa) + 1);
	else if (!strcmp(name, "segment_count_main"))
		sb->segment_count_main = cpu_to_le32(le32_to_cpu(sb->segment_count_main) + 1);
	else if (!strcmp(name, "root_ino"))
		sb->root_ino = cpu_to_le32(4);
	else if (!strcmp(name, "node_ino"))
		sb->node_ino = cpu_to_le32(0);
	else if (!strcmp(name, "meta_ino"))
		sb->meta_ino = cpu_to_le32(9);
	else if (!strcmp(name, "cp_payload"))
		sb->cp_payload = cpu_to_le32(600);
	else
		return false;
	if (chksum)	/* as inject.f2fs leaves it: only the field is wrong */
		sb->crc = cpu_to_le32(f2fs_sb_checksum(sb));
	return true;
}

static bool rebuilds_to(const struct f2fs_super_block *a, const struct f2fs_super_block *b,
			uint64_t dev_blocks, uint32_t payload, const struct f2fs_super_block *orig)
{
	const struct f2fs_super_block *copies[2] = { a, b };
	struct f2fs_super_block out;
	const char *why = NULL;

	if (f2fs_sb_rebuild(copies, dev_blocks, payload, &out, &why)) {
		fprintf(stderr, "  refused: %s\n", why ? why : "?");
		return false;
	}
	return memcmp(&out, orig, sizeof(out)) == 0;
}

static bool refused(const struct f2fs_super_block *a, const struct f2fs_super_block *b,
		    uint64_t dev_blocks, uint32_t payload)
{
	const struct f2fs_super_block *copies[2] = { a, b };
	struct f2fs_super_block out;
	const char *why = NULL;

	return f2fs_sb_rebuild(copies, dev_blocks, payload, &out, &why) == -EFSCORRUPTED && why;
}

/* Each field broken in both copies; each pair broken one per copy; each
 * broken in the only copy with the magic. */
static void test_fields(const struct f2fs_super_block *orig, uint64_t dev_blocks, uint32_t payload,
			const char *what)
{
	static const struct f2fs_super_block none;
	unsigned int n = f2fs_sb_derivable_count();

	for (unsigned int i = 0; i < n; i++) {
		struct f2fs_super_block a = *orig;
		bool ok;

		if (!break_field(&a, i))
			continue;
		ok = f2fs_sb_validate(&a, dev_blocks, NULL) != 0;
		CHECK(ok);
		if (!ok)
			fprintf(stderr, "  %s: %s broken still valid\n", what, f2fs_sb_derivable_name(i));
		ok = rebuilds_to(&a, &a, dev_blocks, payload, orig);
		CHECK(ok);
		if (!ok)
			fprintf(stderr, "  %s: %s broken in both copies\n", what, f2fs_sb_derivable_name(i));
		ok = rebuilds_to(&a, &none, dev_blocks, payload, orig) &&
		     rebuilds_to(&none, &a, dev_blocks, payload, orig);
		CHECK(ok);
		if (!ok)
			fprintf(stderr, "  %s: %s broken in the only copy\n", what, f2fs_sb_derivable_name(i));
		for (unsigned int j = i + 1; j < n; j++) {
			struct f2fs_super_block b = *orig;

			if (!break_field(&b, j))
				continue;
			ok = rebuilds_to(&a, &b, dev_blocks, payload, orig);
			CHECK(ok);
			if (!ok)
				fprintf(stderr, "  %s: %s in copy 1, %s in copy 2\n", what,
					f2fs_sb_derivable_name(i), f2fs_sb_derivable_name(j));
		}
	}
}

/* What must not be rebuilt. */
static void test_refusals(const struct f2fs_super_block *orig, uint64_t dev_blocks, uint32_t payload)
{
	static const struct f2fs_super_block none;
	struct f2fs_super_block a = *orig, b = *orig;

	CHECK(refused(&none, &none, dev_blocks, payload));
	/* a field that cannot be derived differs */
	b.uuid[3] ^= 1;
	a.log_blocks_per_seg = cpu_to_le32(10);
	CHECK(refused(&a, &b, dev_blocks, payload));
	/* area addresses out of step */
	a = *orig;
	a.sit_blkaddr = cpu_to_le32(le32_to_cpu(a.sit_blkaddr) + 1);
	CHECK(refused(&a, &a, dev_blocks, payload));
	a = *orig;
	a.cp_blkaddr = cpu_to_le32(le32_to_cpu(a.cp_blkaddr) + BLKS_PER_SEG);
	CHECK(refused(&a, &a, dev_blocks, payload));
	/* only one of three ways to tell the main area size left */
	a = *orig;
	a.segment_count_main = cpu_to_le32(le32_to_cpu(a.segment_count_main) + 1);
	a.section_count = cpu_to_le32(0);
	CHECK(refused(&a, &none, dev_blocks, payload));
	/* no checkpoint to tell cp_payload, and no copy with a valid one */
	a = *orig;
	a.cp_payload = cpu_to_le32(600);
	CHECK(refused(&a, &a, dev_blocks, F2FS_CP_PAYLOAD_UNKNOWN));
	/* a device smaller than the layout */
	a = *orig;
	a.block_count = cpu_to_le64(5);
	CHECK(refused(&a, &a, le32_to_cpu(a.main_blkaddr), payload));
	/* with a valid cp_payload in the copies the checkpoint is not needed */
	a = *orig;
	a.log_blocks_per_seg = cpu_to_le32(10);
	CHECK(rebuilds_to(&a, &a, dev_blocks, F2FS_CP_PAYLOAD_UNKNOWN, orig));
}

/* Version bitmap sizes and cp_pack_start_sum come back from the
 * superblock; cp_pack_start_sum with orphan blocks does not. */
static void test_ckpt_derive(const struct f2fs_fs *fs)
{
	struct f2fs_cp_derived d[F2FS_CP_MAX_DERIVED];
	uint8_t blk[F2FS_BLKSIZE];
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)blk;
	const char *why;

	memcpy(blk, fs->cp_buf, F2FS_BLKSIZE);
	CHECK_EQ_U64(f2fs_ckpt_derive(&fs->sb, cp, d), 0);
	cp->sit_ver_bitmap_bytesize = cpu_to_le32(1000);
	cp->nat_ver_bitmap_bytesize = cpu_to_le32(7);
	cp->cp_pack_start_sum = cpu_to_le32(600);
	CHECK(f2fs_ckpt_validate(&fs->sb, cp, &why) != 0);
	CHECK_EQ_U64(f2fs_ckpt_derive(&fs->sb, cp, d), 3);
	CHECK(!memcmp(blk, fs->cp_buf, F2FS_BLKSIZE));
	CHECK(!strcmp(d[0].field, "sit_ver_bitmap_bytesize") && d[0].found == 1000);
	CHECK(f2fs_ckpt_validate(&fs->sb, cp, &why) == 0);
	cp->ckpt_flags = cpu_to_le32(le32_to_cpu(cp->ckpt_flags) | CP_ORPHAN_PRESENT_FLAG);
	cp->cp_pack_start_sum = cpu_to_le32(600);
	CHECK_EQ_U64(f2fs_ckpt_derive(&fs->sb, cp, d), 0);
	CHECK(f2fs_ckpt_check_layout(&fs->sb, cp, &why) != 0);
	/* with 503 payload blocks nat_bits cannot fit: the flag goes */
	{
		struct f2fs_super_block sb = fs->sb;

		memcpy(blk, fs->cp_buf, F2FS_BLKSIZE);
		sb.cp_payload = cpu_to_le32(F2FS_MAX_CP_PAYLOAD);
		cp->ckpt_flags = cpu_to_le32(le32_to_cpu(cp->ckpt_flags) | CP_NAT_BITS_FLAG);
		CHECK(f2fs_ckpt_check_layout(&sb, cp, &why) != 0);
		CHECK_EQ_U64(f2fs_ckpt_derive(&sb, cp, d), 2);
		CHECK(!strcmp(d[0].field, "cp_pack_start_sum") && d[0].value == F2FS_MAX_CP_PAYLOAD + 1);
		CHECK(!strcmp(d[1].field, "ckpt_flags"));
		CHECK(!(le32_to_cpu(cp->ckpt_flags) & CP_NAT_BITS_FLAG));
	}
}

/* A new pack goes one version above the pack in use, and above what the
 * pack it overwrites claims when that is newer. */
static void test_next_version(void)
{
	struct f2fs_fs *fs;
	uint32_t cp_blkaddr;
	uint64_t ver;
	uint8_t v[8];

	if (make_image("", "256M"))
		return;
	CHECK(f2fs_fs_open(img, NULL, &fs) == 0);
	if (!fs || !fs->cp)
		return;
	CHECK(fs->cp_index == 0);
	ver = fs->cp_version[0];
	cp_blkaddr = le32_to_cpu(fs->sb.cp_blkaddr);
	CHECK_EQ_U64(f2fs_cp_next_version(fs), ver + 1);
	f2fs_fs_close(fs);
	/* pack 2's first block claims ver + 5 (its crc then fails) */
	put_le64(v, ver + 5);
	patch((uint64_t)(cp_blkaddr + BLKS_PER_SEG) * F2FS_BLKSIZE, v, sizeof(v));
	CHECK(f2fs_fs_open(img, NULL, &fs) == 0);
	if (fs && fs->cp) {
		CHECK(fs->cp_index == 0 && fs->cp_check[1].err);
		CHECK_EQ_U64(f2fs_cp_next_version(fs), ver + 6);
	}
	f2fs_fs_close(fs);
	/* an older claim changes nothing */
	put_le64(v, ver - 3);
	patch((uint64_t)(cp_blkaddr + BLKS_PER_SEG) * F2FS_BLKSIZE, v, sizeof(v));
	CHECK(f2fs_fs_open(img, NULL, &fs) == 0);
	if (fs && fs->cp)
		CHECK_EQ_U64(f2fs_cp_next_version(fs), ver + 1);
	f2fs_fs_close(fs);
}

static void test_layout(const struct layout_case *lc)
{
	struct f2fs_fs *fs;
	uint64_t dev_blocks;
	uint32_t payload = F2FS_CP_PAYLOAD_UNKNOWN;
	char what[64];

	if (make_image(lc->opts, lc->size)) {
		CHECK(!"mkfs failed");
		return;
	}
	CHECK(f2fs_fs_open(img, NULL, &fs) == 0);
	if (!fs || !fs->cp) {
		f2fs_fs_close(fs);
		return;
	}
	snprintf(what, sizeof(what), "mkfs %s (%s)", lc->opts, lc->size);
	dev_blocks = f2fs_dev_size(fs->dev) / F2FS_BLKSIZE;
	CHECK_EQ_U64(f2fs_sb_segment_count_excess(&fs->sb), 0);
	CHECK(f2fs_cp_implied_payload(fs->dev, fs->cp_start_blkaddr, fs->cp, &payload) == 0);
	CHECK_EQ_U64(payload, le32_to_cpu(fs->sb.cp_payload));
	CHECK(rebuilds_to(&fs->sb_copy[0], &fs->sb_copy[1], dev_blocks, payload, &fs->sb));
	test_fields(&fs->sb, dev_blocks, payload, what);
	test_refusals(&fs->sb, dev_blocks, payload);
	test_ckpt_derive(fs);
	{
		uint32_t v;

		CHECK(f2fs_cp_layout_start_sum(fs->dev, fs->cp_start_blkaddr, fs->cp,
					       le32_to_cpu(fs->sb.cp_payload), &v) == 0);
		CHECK_EQ_U64(v, le32_to_cpu(fs->cp->cp_pack_start_sum));
		CHECK(f2fs_cp_layout_flags(fs->dev, fs->cp_start_blkaddr, fs->cp,
					   le32_to_cpu(fs->sb.cp_payload), &v) == 0);
		CHECK_EQ_U64(v, le32_to_cpu(fs->cp->ckpt_flags));
	}
	f2fs_fs_close(fs);
}

static void patch(uint64_t offset, const void *data, size_t len)
{
	FILE *f = fopen(img, "r+b");

	CHECK(f != NULL);
	if (!f)
		return;
	CHECK(fseek(f, (long)offset, SEEK_SET) == 0);
	CHECK(fwrite(data, 1, len, f) == len);
	fclose(f);
}

static int open_salvage(struct f2fs_fs **fs)
{
	struct f2fs_dev_opts ro = { .read_only = true };
	struct f2fs_dev *dev;
	int err = f2fs_dev_open(img, &ro, &dev);

	*fs = NULL;
	return err ? err : f2fs_fs_open_dev_flags(dev, F2FS_OPEN_SALVAGE, fs);
}

/* Both copies with log_blocks_per_seg 10: the kernel's open refuses, the
 * salvage rebuilds mkfs' superblock; with the root's NAT entry gone too,
 * nothing confirms the rebuild; zeroed, the device is not F2FS. */
static void test_salvage_open(void)
{
	struct f2fs_super_block orig;
	struct f2fs_fs *fs;
	uint8_t four[4];
	uint32_t nat_blkaddr;

	if (make_image("-O sb_checksum", "256M"))
		return;
	CHECK(f2fs_fs_open(img, NULL, &fs) == 0);
	if (!fs)
		return;
	orig = fs->sb;
	nat_blkaddr = fs->nat_blkaddr;
	f2fs_fs_close(fs);
	for (int i = 0; i < 2; i++) {
		struct f2fs_super_block b = orig;

		b.log_blocks_per_seg = cpu_to_le32(10);
		f2fs_sb_update_checksum(&b);
		patch((uint64_t)i * F2FS_BLKSIZE + F2FS_SUPER_OFFSET, &b, sizeof(b));
	}
	CHECK(f2fs_fs_open(img, NULL, &fs) == -EFSCORRUPTED);
	f2fs_fs_close(fs);
	CHECK(open_salvage(&fs) == 0);
	if (fs) {
		CHECK(fs->salvage.sb_rebuilt && f2fs_fs_salvaged(fs));
		CHECK(!memcmp(&fs->sb, &orig, sizeof(orig)));
		CHECK_EQ_U64(fs->salvage.n_sb_derived, 2);
	}
	f2fs_fs_close(fs);
	/* the root's NAT entry (nid 3 of NAT block 0, copy 0) points nowhere */
	memset(four, 0, sizeof(four));
	patch((uint64_t)nat_blkaddr * F2FS_BLKSIZE + 3 * sizeof(struct f2fs_nat_entry) + 5,
	      four, sizeof(four));
	CHECK(open_salvage(&fs) == -EFSCORRUPTED);
	if (fs) {
		CHECK(fs->sb_index < 0 && !fs->salvage.sb_rebuilt);
		CHECK(fs->salvage.sb_refused && strstr(fs->salvage.sb_refused, "root"));
	}
	f2fs_fs_close(fs);
	CHECK(make_image("", "64M") == 0);
	{
		uint8_t zero[2 * F2FS_BLKSIZE];

		memset(zero, 0, sizeof(zero));
		patch(0, zero, sizeof(zero));
	}
	CHECK(open_salvage(&fs) == -EFSCORRUPTED);
	if (fs)
		CHECK(fs->sb_index < 0 && !fs->salvage.sb_refused);
	f2fs_fs_close(fs);
}

/* Pack 1 of img (mkfs': the newer one) with one field set, sealed, first
 * and last block. */
static void patch_pack1(size_t off, uint32_t value)
{
	struct f2fs_fs *fs;
	uint8_t blk[F2FS_BLKSIZE];
	uint32_t start, total;

	CHECK(f2fs_fs_open(img, NULL, &fs) == 0);
	if (!fs || !fs->cp) {
		f2fs_fs_close(fs);
		return;
	}
	start = le32_to_cpu(fs->sb.cp_blkaddr);
	CHECK(f2fs_dev_read(fs->dev, start, 1, blk) == 0);
	f2fs_fs_close(fs);
	put_le32(blk + off, value);
	CHECK(f2fs_cp_seal((struct f2fs_checkpoint *)blk) == 0);
	total = le32_to_cpu(((struct f2fs_checkpoint *)blk)->cp_pack_total_block_count);
	patch((uint64_t)start * F2FS_BLKSIZE, blk, sizeof(blk));
	patch((uint64_t)(start + total - 1) * F2FS_BLKSIZE, blk, sizeof(blk));
}

/* The salvage open on pack 1 with one field set: the field derived back
 * (want_derived) or pack 2 in use. */
static void check_pack_salvage(size_t off, uint32_t value, const char *want_derived,
			       uint32_t want_value)
{
	struct f2fs_fs *fs;

	CHECK(make_image("", "256M") == 0);
	patch_pack1(off, value);
	CHECK(open_salvage(&fs) == 0);
	if (!fs)
		return;
	CHECK(fs->cursum_loaded && !fs->cursum_load_err && f2fs_fs_salvaged(fs));
	if (want_derived) {
		CHECK(fs->cp_index == 0 && fs->salvage.n_cp_derived == 1);
		CHECK(fs->salvage.n_cp_derived == 1 &&
		      !strcmp(fs->salvage.cp_derived[0].field, want_derived));
		CHECK_EQ_U64(fs->salvage.cp_derived[0].value, want_value);
		CHECK_EQ_U64(fs->salvage.cp_derived[0].found, value);
	} else {
		CHECK(fs->cp_index == 1 && fs->salvage.cp_dropped == 0);
	}
	f2fs_fs_close(fs);
}

static void test_pack_salvage(void)
{
	const uint32_t flags = CP_UMOUNT_FLAG | CP_COMPACT_SUM_FLAG;
	size_t flags_off = offsetof(struct f2fs_checkpoint, ckpt_flags);
	struct f2fs_fs *fs;
	uint32_t mkfs_flags;

	CHECK(make_image("", "256M") == 0);
	CHECK(f2fs_fs_open(img, NULL, &fs) == 0);
	if (!fs || !fs->cp) {
		f2fs_fs_close(fs);
		return;
	}
	mkfs_flags = le32_to_cpu(fs->cp->ckpt_flags);
	CHECK((mkfs_flags & flags) == flags);
	f2fs_fs_close(fs);
	check_pack_salvage(offsetof(struct f2fs_checkpoint, cp_pack_start_sum), 2,
			   "cp_pack_start_sum", 1);
	check_pack_salvage(flags_off, mkfs_flags & ~(uint32_t)CP_COMPACT_SUM_FLAG, "ckpt_flags",
			   mkfs_flags);
	check_pack_salvage(flags_off, mkfs_flags & ~(uint32_t)CP_UMOUNT_FLAG, "ckpt_flags",
			   mkfs_flags);
	/* 500 hot data entries need two compacted blocks; the pack has one */
	check_pack_salvage(offsetof(struct f2fs_checkpoint, cur_data_blkoff), 500, NULL, 0);
}

/* Two valid copies; copy 1's segment_count_nat 2^23 higher passes the
 * superblock checks (the NAT boundary wraps in 32 bits) but not the
 * checkpoint's: the kernel's open takes copy 1, the salvage copy 2. */
static void test_sb_cp_disagrees(void)
{
	struct f2fs_super_block b;
	struct f2fs_fs *fs;

	CHECK(make_image("-O sb_checksum", "256M") == 0);
	CHECK(f2fs_fs_open(img, NULL, &fs) == 0);
	if (!fs)
		return;
	b = fs->sb_copy[0];
	f2fs_fs_close(fs);
	b.segment_count_nat = cpu_to_le32(le32_to_cpu(b.segment_count_nat) + 0x800000u);
	f2fs_sb_update_checksum(&b);
	patch(F2FS_SUPER_OFFSET, &b, sizeof(b));
	CHECK(f2fs_fs_open(img, NULL, &fs) == -EFSCORRUPTED);
	if (fs)
		CHECK(fs->sb_index == 0 && fs->ckpt_sanity.err && !f2fs_fs_salvaged(fs));
	f2fs_fs_close(fs);
	CHECK(open_salvage(&fs) == 0);
	if (fs) {
		CHECK(fs->sb_index == 1 && fs->salvage.sb_cp_disagrees == 0 && !fs->ckpt_sanity.err);
		CHECK(f2fs_fs_salvaged(fs));
	}
	f2fs_fs_close(fs);
	/* copy 1 read-only: the checkpoint's reserved and overprovision
	 * segments say otherwise */
	b.segment_count_nat = cpu_to_le32(le32_to_cpu(b.segment_count_nat) - 0x800000u);
	b.feature = cpu_to_le32(le32_to_cpu(b.feature) | F2FS_FEATURE_RO);
	f2fs_sb_update_checksum(&b);
	patch(F2FS_SUPER_OFFSET, &b, sizeof(b));
	CHECK(f2fs_fs_open(img, NULL, &fs) == 0);
	if (fs)
		CHECK(fs->sb_index == 0 && !f2fs_fs_salvaged(fs));
	f2fs_fs_close(fs);
	CHECK(open_salvage(&fs) == 0);
	if (fs)
		CHECK(fs->sb_index == 1 && fs->salvage.sb_cp_disagrees == 0 &&
		      strstr(fs->salvage.sb_cp_disagrees_why, "read-only"));
	f2fs_fs_close(fs);
}

int main(void)
{
	snprintf(img, sizeof(img), "test_sb_derive.%d.img", (int)getpid());
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		test_layout(&layouts[i]);
	test_next_version();
	test_salvage_open();
	test_pack_salvage();
	test_sb_cp_disagrees();
	unlink(img);
	return unit_finish("test_sb_derive");
}
