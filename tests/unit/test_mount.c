/*
 * test_mount.c - superblock and checkpoint validation and volume open, on
 * images made by our mkfs.f2fs: the chosen copy and pack, the summaries
 * and journals, and the fallbacks when a copy or pack is damaged.
 */
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

static void test_fresh(const char *opts, const char *size, uint32_t nodes)
{
	struct f2fs_fs *fs;
	const char *why;
	int err;

	if (make_image(opts, size)) {
		CHECK(!"mkfs failed");
		return;
	}
	err = f2fs_fs_open(img, NULL, &fs);
	CHECK(err == 0);
	if (err) {
		f2fs_fs_close(fs);
		return;
	}
	CHECK(fs->sb_index == 0);
	CHECK(fs->sb_check[0].err == 0 && fs->sb_check[1].err == 0);
	CHECK(fs->cp_check[0].err == 0 && fs->cp_check[1].err == 0);
	CHECK(fs->cp_index == 0);
	CHECK(fs->ckpt_sanity.err == 0);
	CHECK(fs->cursum_loaded);
	CHECK(f2fs_sb_validate(&fs->sb, f2fs_dev_size(fs->dev) / 4096, &why) == 0);
	CHECK(f2fs_ckpt_validate(&fs->sb, fs->cp, &why) == 0);
	CHECK(fs->cp_flags & CP_UMOUNT_FLAG);
	CHECK_EQ_U64(le32_to_cpu(fs->cp->valid_node_count), nodes);
	/* Nothing is journalled by mkfs. */
	CHECK_EQ_U64(le16_to_cpu(f2fs_nat_journal(fs)->n_nats), 0);
	CHECK_EQ_U64(le16_to_cpu(f2fs_sit_journal(fs)->n_sits), 0);
	/* The HOT_DATA log starts with the root dentry block, owned by nid 3. */
	CHECK_EQ_U64(le32_to_cpu(fs->cursum[CURSEG_HOT_DATA].entries[0].nid), F2FS_ROOT_INO);
	CHECK_EQ_U64(le32_to_cpu(fs->cursum[CURSEG_HOT_NODE].entries[0].nid), F2FS_ROOT_INO);
	CHECK_EQ_U64(fs->cursum[CURSEG_HOT_NODE].footer.entry_type, SUM_TYPE_NODE);
	CHECK_EQ_U64(f2fs_current_nat_addr(fs, 0), fs->nat_blkaddr);
	CHECK_EQ_U64(f2fs_next_nat_addr(fs, 0), fs->nat_blkaddr + 512);
	CHECK_EQ_U64(f2fs_current_nat_addr(fs, 512), fs->nat_blkaddr + 1024);
	CHECK_EQ_U64(f2fs_current_sit_addr(fs, 3), fs->sit_blkaddr + 3);
	CHECK_EQ_U64(f2fs_next_sit_addr(fs, 3), fs->sit_blkaddr + 3 + fs->sit_blocks);
	f2fs_fs_close(fs);
}

/* A zeroed copy 0 falls back to copy 1; both zeroed refuses. */
static void test_sb_fallback(void)
{
	static const uint8_t zero[4] = { 0 };
	struct f2fs_fs *fs;
	int err;

	if (make_image("", "256M"))
		return;
	patch(1024, zero, 4);
	err = f2fs_fs_open(img, NULL, &fs);
	CHECK(err == 0);
	if (!err) {
		CHECK(fs->sb_index == 1);
		CHECK(fs->sb_check[0].err == -EFSCORRUPTED);
		CHECK(fs->sb_check[0].why && strstr(fs->sb_check[0].why, "magic"));
	}
	f2fs_fs_close(fs);
	patch(4096 + 1024, zero, 4);
	err = f2fs_fs_open(img, NULL, &fs);
	CHECK(err == -EFSCORRUPTED);
	f2fs_fs_close(fs);
}

/* sb_checksum: a flipped byte is a bad crc. */
static void test_sb_crc(void)
{
	static const uint8_t junk = 0x5a;
	struct f2fs_fs *fs;
	int err;

	if (make_image("-O sb_checksum", "256M"))
		return;
	patch(1024 + 124, &junk, 1);	/* volume_name */
	err = f2fs_fs_open(img, NULL, &fs);
	CHECK(err == 0);
	if (!err) {
		CHECK(fs->sb_index == 1);
		CHECK(fs->sb_check[0].err == -EFSBADCRC);
	}
	f2fs_fs_close(fs);
}

/* A broken pack 1 leaves the older pack 2; a newer valid pack 2 wins. */
static void test_cp_choice(void)
{
	uint8_t blk[4096];
	struct f2fs_fs *fs;
	uint32_t cp_blkaddr, crc;
	uint64_t ver;
	FILE *f;
	int err;

	if (make_image("", "256M"))
		return;
	err = f2fs_fs_open(img, NULL, &fs);
	CHECK(err == 0);
	if (err)
		return;
	cp_blkaddr = le32_to_cpu(fs->sb.cp_blkaddr);
	ver = fs->cp_version[0];
	f2fs_fs_close(fs);

	/* Make pack 2 newer than pack 1: rewrite both its cp blocks. */
	f = fopen(img, "r+b");
	CHECK(f != NULL);
	if (!f)
		return;
	CHECK(fseek(f, (long)(cp_blkaddr + 512) * 4096, SEEK_SET) == 0);
	CHECK(fread(blk, 1, 4096, f) == 4096);
	put_le64(blk, ver + 1);
	CHECK(f2fs_cp_checksum((struct f2fs_checkpoint *)blk, &crc) == 0);
	put_le32(blk + 4092, crc);
	CHECK(fseek(f, (long)(cp_blkaddr + 512) * 4096, SEEK_SET) == 0);
	CHECK(fwrite(blk, 1, 4096, f) == 4096);
	CHECK(fseek(f, (long)(cp_blkaddr + 512 + 5) * 4096, SEEK_SET) == 0);
	CHECK(fwrite(blk, 1, 4096, f) == 4096);
	fclose(f);
	err = f2fs_fs_open(img, NULL, &fs);
	CHECK(err == 0);
	if (!err) {
		CHECK(fs->cp_index == 1);
		CHECK_EQ_U64(fs->cp_start_blkaddr, cp_blkaddr + 512);
	}
	f2fs_fs_close(fs);

	/* Now break pack 2's last block: pack 1 is chosen again. */
	memset(blk, 0, sizeof(blk));
	patch((uint64_t)(cp_blkaddr + 512 + 5) * 4096, blk, 4096);
	err = f2fs_fs_open(img, NULL, &fs);
	CHECK(err == 0);
	if (!err) {
		CHECK(fs->cp_index == 0);
		CHECK(fs->cp_check[1].err != 0);
	}
	f2fs_fs_close(fs);
}

int main(void)
{
	snprintf(img, sizeof(img), "test_mount.%d.img", (int)getpid());
	test_fresh("", "1G", 1);
	test_fresh("-O extra_attr,inode_checksum,sb_checksum,lost_found,quota,project_quota", "1G", 5);
	test_fresh("-s 128", "5G", 1);
	test_fresh("-i", "2G", 1);
	test_sb_fallback();
	test_sb_crc();
	test_cp_choice();
	unlink(img);
	return unit_finish("test_mount");
}
