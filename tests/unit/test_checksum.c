/*
 * test_checksum.c - superblock, checkpoint and inode checksums, and
 * f2fs_strerror().
 *
 * Synthetic blocks check the covered byte ranges and the checkpoint
 * offset bounds; images made by f2fs-tools' mkfs.f2fs check that what we
 * compute equals what mkfs stored (both superblock copies, both checkpoint
 * packs with their trailing copies, the root inode, lost+found and the
 * root directory's dentry hashes).  mkfs.f2fs missing is a failure.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "f2fs_crc.h"
#include "f2fs_dev.h"
#include "f2fs_err.h"
#include "f2fs_fs.h"
#include "unit.h"

#define IMAGE_BYTES	(512ull << 20)

static uint8_t block_buf[F2FS_BLKSIZE] __attribute__((aligned(8)));

static void fill_pseudo_random(uint8_t *p, size_t len, unsigned int seed)
{
	for (size_t i = 0; i < len; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = (uint8_t)(seed >> 16);
	}
}

/* ---- synthetic ------------------------------------------------------- */

static void test_sb_checksum_range(void)
{
	static struct f2fs_super_block sb;

	fill_pseudo_random((uint8_t *)&sb, sizeof(sb), 1);
	CHECK_EQ_U64(f2fs_sb_checksum(&sb), f2fs_crc32(&sb, SB_CHKSUM_OFFSET));
	sb.crc ^= 0xFFFFFFFFu;	/* the crc field itself is not covered */
	CHECK_EQ_U64(f2fs_sb_checksum(&sb), f2fs_crc32(&sb, SB_CHKSUM_OFFSET));
}

static void set_cp_offset(uint8_t *block, uint32_t offset)
{
	put_le32(block + offsetof(struct f2fs_checkpoint, checksum_offset), offset);
}

static void test_cp_checksum_offsets(void)
{
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)block_buf;
	uint32_t crc = 0, expect;

	fill_pseudo_random(block_buf, sizeof(block_buf), 2);

	set_cp_offset(block_buf, CP_CHKSUM_OFFSET);
	CHECK_EQ_U64(f2fs_cp_checksum(cp, &crc), 0);
	CHECK_EQ_U64(crc, f2fs_crc32(block_buf, CP_CHKSUM_OFFSET));
	put_le32(block_buf + CP_CHKSUM_OFFSET, crc);
	CHECK(f2fs_cp_checksum_ok(cp));
	block_buf[300] ^= 1;
	CHECK(!f2fs_cp_checksum_ok(cp));

	/* Offset 192: the bytes after the field are covered too. */
	set_cp_offset(block_buf, CP_MIN_CHKSUM_OFFSET);
	expect = f2fs_crc32_le(f2fs_crc32(block_buf, 192), block_buf + 196, F2FS_BLKSIZE - 196);
	CHECK_EQ_U64(f2fs_cp_checksum(cp, &crc), 0);
	CHECK_EQ_U64(crc, expect);
	put_le32(block_buf + CP_MIN_CHKSUM_OFFSET, crc);
	CHECK(f2fs_cp_checksum_ok(cp));
	block_buf[4095] ^= 0x80;
	CHECK(!f2fs_cp_checksum_ok(cp));

	/* An unaligned offset in range is legal. */
	set_cp_offset(block_buf, 1001);
	CHECK_EQ_U64(f2fs_cp_checksum(cp, &crc), 0);
	put_le32(block_buf + 1001, crc);
	CHECK(f2fs_cp_checksum_ok(cp));

	const uint32_t bad[] = { 0, 191, 4093, 4096, 0xFFFFFFFFu };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		set_cp_offset(block_buf, bad[i]);
		crc = 0x5555;
		CHECK_EQ_U64(f2fs_cp_checksum(cp, &crc), (uint64_t)(int64_t)-EFSCORRUPTED);
		CHECK_EQ_U64(crc, 0x5555);
		CHECK(!f2fs_cp_checksum_ok(cp));
	}
}

static void make_inode_block(struct f2fs_node *node, uint32_t nid, uint16_t extra_isize)
{
	memset(node, 0, sizeof(*node));
	node->footer.nid = cpu_to_le32(nid);
	node->footer.ino = cpu_to_le32(nid);
	node->i.i_inline = F2FS_EXTRA_ATTR;
	node->i.i_extra_isize = cpu_to_le16(extra_isize);
}

static void test_inode_has_checksum(void)
{
	struct f2fs_node *node = (struct f2fs_node *)block_buf;
	uint32_t on = F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_INODE_CHKSUM;

	make_inode_block(node, 7, 12);
	CHECK(f2fs_inode_has_checksum(on, node));
	CHECK(!f2fs_inode_has_checksum(F2FS_FEATURE_EXTRA_ATTR, node));
	make_inode_block(node, 7, 8);
	CHECK(!f2fs_inode_has_checksum(on, node));
	make_inode_block(node, 7, 36);
	CHECK(f2fs_inode_has_checksum(on, node));
	node->i.i_inline = 0;
	CHECK(!f2fs_inode_has_checksum(on, node));
	make_inode_block(node, 7, 36);
	node->footer.ino = cpu_to_le32(3);	/* a direct node of inode 3 */
	CHECK(!f2fs_inode_has_checksum(on, node));
}

static void test_inode_checksum_coverage(void)
{
	struct f2fs_node *node = (struct f2fs_node *)block_buf;
	uint8_t uuid[16];
	uint32_t seed, c;

	fill_pseudo_random(uuid, sizeof(uuid), 3);
	fill_pseudo_random(block_buf, sizeof(block_buf), 4);
	seed = f2fs_inode_chksum_seed(uuid);
	CHECK_EQ_U64(seed, f2fs_crc32_le(0xFFFFFFFFu, uuid, 16));
	c = f2fs_inode_checksum(seed, node);
	node->i.i_inode_checksum ^= 0xA5A5A5A5u;	/* not covered */
	CHECK_EQ_U64(f2fs_inode_checksum(seed, node), c);
	block_buf[4090] ^= 1;				/* footer is covered */
	CHECK(f2fs_inode_checksum(seed, node) != c);
	block_buf[4090] ^= 1;
	block_buf[10] ^= 1;
	CHECK(f2fs_inode_checksum(seed, node) != c);
	block_buf[10] ^= 1;
	CHECK(f2fs_inode_checksum(seed ^ 1, node) != c);
}

static void test_strerror(void)
{
	CHECK(strcmp(f2fs_strerror(-EFSCORRUPTED), "filesystem structure is corrupted") == 0);
	CHECK(strcmp(f2fs_strerror(-EFSBADCRC), "checksum mismatch") == 0);
	CHECK(strcmp(f2fs_strerror(EFSBADCRC), "checksum mismatch") == 0);
	CHECK(strcmp(f2fs_strerror(-ENOMEM), f2fs_strerror(ENOMEM)) == 0);
	CHECK(strcasecmp(f2fs_strerror(-EIO), "input/output error") == 0);
	CHECK(strcmp(f2fs_strerror(-EIO), f2fs_strerror(-ENOSPC)) != 0);
	CHECK(f2fs_strerror(-123456) != NULL && f2fs_strerror(-123456)[0] != '\0');
	CHECK(f2fs_strerror(-2147483647 - 1) != NULL);
	CHECK(f2fs_strerror(0) != NULL);
}

/* ---- images made by mkfs.f2fs --------------------------------------- */

struct image {
	char path[256];
	struct f2fs_dev *dev;
	struct f2fs_super_block sb;
	struct f2fs_checkpoint cp;
	uint32_t features;
};

static int make_image(const char *dir, const char *name, const char *mkfs_args,
		      struct image *img)
{
	char cmd[1024];
	int fd, rc;

	snprintf(img->path, sizeof(img->path), "%s/%s", dir, name);
	fd = open(img->path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)IMAGE_BYTES) < 0) {
		fprintf(stderr, "FAIL: cannot create %s\n", img->path);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	snprintf(cmd, sizeof(cmd),
		 "PATH=\"$PATH:/usr/sbin:/sbin\" mkfs.f2fs -f -q %s '%s' > '%s.log' 2>&1",
		 mkfs_args, img->path, img->path);
	rc = system(cmd);
	if (rc != 0) {
		fprintf(stderr, "FAIL: mkfs.f2fs (f2fs-tools) is required and failed "
			"(status %d): %s\n", rc, cmd);
		return -1;
	}
	return 0;
}

static int read_block(struct image *img, uint64_t blkaddr, void *buf)
{
	int err = f2fs_dev_read(img->dev, blkaddr, 1, buf);

	CHECK_EQ_U64(err, 0);
	return err;
}

static void check_sb_copy(struct image *img, unsigned int copy, bool expect_crc)
{
	struct f2fs_super_block sb;

	if (read_block(img, copy, block_buf) < 0)
		return;
	memcpy(&sb, block_buf + F2FS_SUPER_OFFSET, sizeof(sb));
	CHECK_EQ_U64(le32_to_cpu(sb.magic), F2FS_SUPER_MAGIC);
	CHECK_EQ_U64(!!(le32_to_cpu(sb.feature) & F2FS_FEATURE_SB_CHKSUM), expect_crc);
	if (expect_crc) {
		CHECK_EQ_U64(le32_to_cpu(sb.checksum_offset), SB_CHKSUM_OFFSET);
		CHECK_EQ_U64(f2fs_sb_checksum(&sb), le32_to_cpu(sb.crc));
		sb.volume_name[3] ^= 1;
		CHECK(f2fs_sb_checksum(&sb) != le32_to_cpu(sb.crc));
	}
	if (copy == 0)
		memcpy(&img->sb, block_buf + F2FS_SUPER_OFFSET, sizeof(img->sb));
}

static void check_cp_pack(struct image *img, unsigned int pack)
{
	uint64_t start = le32_to_cpu(img->sb.cp_blkaddr) + (uint64_t)pack * BLKS_PER_SEG;
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)block_buf;
	uint32_t total, crc, offset;

	if (read_block(img, start, block_buf) < 0)
		return;
	offset = le32_to_cpu(cp->checksum_offset);
	CHECK_EQ_U64(offset, CP_CHKSUM_OFFSET);
	CHECK_EQ_U64(f2fs_cp_checksum(cp, &crc), 0);
	CHECK_EQ_U64(crc, get_le32(block_buf + CP_CHKSUM_OFFSET));
	CHECK(f2fs_cp_checksum_ok(cp));
	if (pack == 0)
		memcpy(&img->cp, block_buf, sizeof(img->cp));
	total = le32_to_cpu(cp->cp_pack_total_block_count);
	CHECK(total > 2 && total <= BLKS_PER_SEG);
	if (total <= 2 || total > BLKS_PER_SEG)
		return;
	/* The trailing copy of the pack. */
	if (read_block(img, start + total - 1, block_buf) < 0)
		return;
	CHECK(f2fs_cp_checksum_ok(cp));
	block_buf[100] ^= 1;
	CHECK(!f2fs_cp_checksum_ok(cp));
}

static void check_inode_at(struct image *img, uint64_t blkaddr, uint32_t nid,
			   bool expect_csum)
{
	struct f2fs_node *node = (struct f2fs_node *)block_buf;
	uint32_t seed = f2fs_inode_chksum_seed(img->sb.uuid);

	if (read_block(img, blkaddr, block_buf) < 0)
		return;
	CHECK_EQ_U64(le32_to_cpu(node->footer.nid), nid);
	CHECK_EQ_U64(f2fs_inode_has_checksum(img->features, node), expect_csum);
	if (!expect_csum)
		return;
	CHECK_EQ_U64(f2fs_inode_checksum(seed, node), le32_to_cpu(node->i.i_inode_checksum));
	node->i.i_mtime ^= 1;
	CHECK(f2fs_inode_checksum(seed, node) != le32_to_cpu(node->i.i_inode_checksum));
}

static uint64_t curseg_start(const struct image *img, uint32_t segno)
{
	return le32_to_cpu(img->sb.main_blkaddr) + (uint64_t)segno * BLKS_PER_SEG;
}

/* Every named entry of the root dentry block carries our hash. */
static unsigned int check_root_dentry_hashes(struct image *img, bool *saw_lpf)
{
	uint64_t blk = curseg_start(img, le32_to_cpu(img->cp.cur_data_segno[0]));
	struct f2fs_dentry_block *db = (struct f2fs_dentry_block *)block_buf;
	unsigned int named = 0;

	*saw_lpf = false;
	if (read_block(img, blk, block_buf) < 0)
		return 0;
	for (unsigned int i = 0; i < NR_DENTRY_IN_BLOCK; i++) {
		unsigned int len = le16_to_cpu(db->dentry[i].name_len);
		const uint8_t *name = db->filename[i];

		if (!(db->dentry_bitmap[i / 8] & (1u << (i % 8))) || len == 0)
			continue;
		if (len > (NR_DENTRY_IN_BLOCK - i) * F2FS_SLOT_LEN) {
			CHECK(!"dentry name runs past the block");
			continue;
		}
		CHECK_EQ_U64(f2fs_dentry_hash(name, len), le32_to_cpu(db->dentry[i].hash_code));
		if (len == 10 && memcmp(name, "lost+found", 10) == 0)
			*saw_lpf = true;
		named++;
	}
	return named;
}

static void check_image(struct image *img, bool sb_crc, bool inode_csum, bool lpf)
{
	struct f2fs_dev_opts opts = { .read_only = true };
	uint64_t hot_node;
	bool saw_lpf;

	CHECK_EQ_U64(f2fs_dev_open(img->path, &opts, &img->dev), 0);
	if (!img->dev)
		return;
	check_sb_copy(img, 0, sb_crc);
	check_sb_copy(img, 1, sb_crc);
	img->features = le32_to_cpu(img->sb.feature);
	check_cp_pack(img, 0);
	check_cp_pack(img, 1);

	hot_node = curseg_start(img, le32_to_cpu(img->cp.cur_node_segno[0]));
	check_inode_at(img, hot_node, F2FS_ROOT_INO, inode_csum);
	if (lpf)
		check_inode_at(img, hot_node + 1, 4, inode_csum);
	CHECK_EQ_U64(check_root_dentry_hashes(img, &saw_lpf), lpf ? 3 : 2);
	CHECK_EQ_U64(saw_lpf, lpf);
	f2fs_dev_close(img->dev);
	img->dev = NULL;
}

static void test_mkfs_images(const char *dir)
{
	static struct image img;

	if (make_image(dir, "csum.img", "-O extra_attr,inode_checksum,sb_checksum", &img) == 0)
		check_image(&img, true, true, false);
	else
		CHECK(!"mkfs.f2fs -O extra_attr,inode_checksum,sb_checksum");

	if (make_image(dir, "lpf.img",
		       "-O extra_attr,inode_checksum,sb_checksum,inode_crtime,lost_found",
		       &img) == 0)
		check_image(&img, true, true, true);
	else
		CHECK(!"mkfs.f2fs with lost_found");

	if (make_image(dir, "plain.img", "", &img) == 0)
		check_image(&img, false, false, false);
	else
		CHECK(!"mkfs.f2fs without features");
}

static void remove_dir(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "warning: could not remove %s\n", dir);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	char dir[256];

	test_sb_checksum_range();
	test_cp_checksum_offsets();
	test_inode_has_checksum();
	test_inode_checksum_coverage();
	test_strerror();

	snprintf(dir, sizeof(dir), "%s/f2fs-test-checksum-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		CHECK(!"mkdtemp");
	} else {
		test_mkfs_images(dir);
		remove_dir(dir);
	}
	return unit_finish("test_checksum");
}
