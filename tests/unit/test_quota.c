/*
 * test_quota.c - unit tests of lib/quota.c: the file mkfs writes for one
 * id, entries read back through the tree for many ids, the refusals
 * (ids out of order, a buffer too small, a wrong magic), and the entry
 * codec.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs_fs.h"
#include "f2fs_quota.h"
#include "unit.h"

static const struct f2fs_dqinfo grace = { .dqi_bgrace = F2FS_QT_GRACE,
					   .dqi_igrace = F2FS_QT_GRACE };

static const uint8_t *blk(const uint8_t *f, uint32_t nr)
{
	return f + (size_t)nr * F2FS_QT_BLKSIZE;
}

/* The entry of id, found as the kernel finds it: down the tree, then a
 * scan of the leaf.  NULL when the path or the leaf lacks it. */
static const uint8_t *lookup(const uint8_t *f, uint32_t nblk, uint32_t id)
{
	uint32_t b = F2FS_QT_TREEOFF;

	for (int d = 0; d < F2FS_QT_DEPTH; d++) {
		b = get_le32(blk(f, b) + 4 * f2fs_qt_index(id, d));
		if (b <= F2FS_QT_TREEOFF || b >= nblk)
			return NULL;
	}
	for (uint32_t i = 0; i < F2FS_QT_PER_LEAF; i++) {
		const uint8_t *e = blk(f, b) + F2FS_QT_LEAF_HDR + i * F2FS_QT_ENTRY_SIZE;

		if (!f2fs_dquot_unused(e) && get_le32(e) == id)
			return e;
	}
	return NULL;
}

/* One id: header, root, three tree blocks, one leaf, as mkfs has always
 * written it. */
static void test_one_id(void)
{
	struct f2fs_dquot d = { .dqb_id = 0x01020304, .dqb_curinodes = 2,
				.dqb_curspace = 2 * F2FS_BLKSIZE };
	uint8_t f[8 * F2FS_QT_BLKSIZE] = { 0 };
	struct f2fs_dqinfo info;
	uint32_t n = 0;

	CHECK_EQ_U64(f2fs_quota_file_blocks(&d, 1), 6);
	CHECK_EQ_U64(f2fs_quota_build(1, &d, 1, &grace, f, 8, &n), 0);
	CHECK_EQ_U64(n, 6);
	CHECK_EQ_U64(get_le32(f), 0xd9c01927);
	CHECK_EQ_U64(f2fs_quota_header_read(f, 1, &info), 0);
	CHECK_EQ_U64(info.dqi_bgrace, F2FS_QT_GRACE);
	CHECK_EQ_U64(info.dqi_blocks, 6);
	CHECK_EQ_U64(info.dqi_free_blk, 0);
	CHECK_EQ_U64(info.dqi_free_entry, 5);
	CHECK_EQ_U64(get_le32(blk(f, 1) + 4 * 0x01), 2);
	CHECK_EQ_U64(get_le32(blk(f, 2) + 4 * 0x02), 3);
	CHECK_EQ_U64(get_le32(blk(f, 3) + 4 * 0x03), 4);
	CHECK_EQ_U64(get_le32(blk(f, 4) + 4 * 0x04), 5);
	CHECK_EQ_U64(get_le16(blk(f, 5) + 8), 1);
	CHECK(lookup(f, n, d.dqb_id) == blk(f, 5) + F2FS_QT_LEAF_HDR);
	CHECK_EQ_U64(get_le64(blk(f, 5) + F2FS_QT_LEAF_HDR + 48), 2 * F2FS_BLKSIZE);
	CHECK_EQ_U64(f2fs_quota_header_read(f, 0, &info), -EINVAL);
	CHECK_EQ_U64(f2fs_quota_header_read(f, 3, &info), -EINVAL);
}

/* Many ids with shared and separate prefixes: each reads back through
 * the tree with its values, and the count matches the build. */
static void test_many_ids(void)
{
	enum { N = 3000 };
	struct f2fs_dquot *dq = calloc(N, sizeof(*dq));
	uint32_t nblk, n = 0, bad = 0;
	uint8_t *f;

	if (!dq) {
		CHECK(0);
		return;
	}
	for (uint32_t i = 0; i < N; i++) {
		dq[i].dqb_id = i < N - 1 ? i * 7919u : 0xffffffffu;
		dq[i].dqb_curinodes = i + 1;
		dq[i].dqb_bhardlimit = i % 3 ? 0 : 1000 + i;
	}
	nblk = f2fs_quota_file_blocks(dq, N);
	CHECK(nblk > 2 + N / F2FS_QT_PER_LEAF);
	f = calloc(nblk, F2FS_QT_BLKSIZE);
	if (!f) {
		free(dq);
		CHECK(0);
		return;
	}
	CHECK_EQ_U64(f2fs_quota_build(2, dq, N, &grace, f, nblk, &n), 0);
	CHECK_EQ_U64(n, nblk);
	for (uint32_t i = 0; i < N; i++) {
		const uint8_t *e = lookup(f, n, dq[i].dqb_id);
		struct f2fs_dquot r;

		if (!e) {
			bad++;
			continue;
		}
		memset(&r, 0, sizeof(r));	/* the padding too, for memcmp */
		f2fs_dquot_read(e, &r);
		if (memcmp(&r, &dq[i], sizeof(r)))
			bad++;
	}
	CHECK_EQ_U64(bad, 0);
	memset(f, 0, (size_t)nblk * F2FS_QT_BLKSIZE);
	CHECK_EQ_U64(f2fs_quota_build(2, dq, N, &grace, f, nblk - 1, &n), -EFBIG);
	dq[10].dqb_id = dq[9].dqb_id;
	CHECK_EQ_U64(f2fs_quota_build(2, dq, N, &grace, f, nblk, &n), -EINVAL);
	CHECK_EQ_U64(f2fs_quota_file_blocks(dq, N), 0);
	free(f);
	free(dq);
}

static void test_empty_and_entry(void)
{
	uint8_t f[2 * F2FS_QT_BLKSIZE] = { 0 }, e[F2FS_QT_ENTRY_SIZE];
	struct f2fs_dquot zero = { 0 }, r;
	struct f2fs_dqinfo info;
	uint32_t n = 0;

	CHECK_EQ_U64(f2fs_quota_build(0, NULL, 0, &grace, f, 2, &n), 0);
	CHECK_EQ_U64(n, 2);
	CHECK_EQ_U64(f2fs_quota_header_read(f, 0, &info), 0);
	CHECK_EQ_U64(info.dqi_free_entry, 0);
	CHECK_EQ_U64(f2fs_quota_build(5, NULL, 0, &grace, f, 2, &n), -EINVAL);
	f2fs_dquot_write(e, &zero);
	CHECK(!f2fs_dquot_unused(e));
	f2fs_dquot_read(e, &r);
	CHECK_EQ_U64(r.dqb_itime, 1);
	CHECK_EQ_U64(f2fs_quota_magic(-1), 0);
}

int main(void)
{
	test_one_id();
	test_many_ids();
	test_empty_and_entry();
	return unit_finish("test_quota");
}
