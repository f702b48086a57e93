/*
 * test_commit.c - atomic checkpoint commits on real images: the new pack
 * goes to the other slot with version + 1, dirty SIT and NAT blocks go to
 * their inactive copies, f2fs-tools' fsck agrees, the NAT journal of an
 * f2fs-tools image is folded into blocks when nat_bits are written, and a
 * commit cut after every possible write leaves the old checkpoint or the
 * new one, never anything else.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "f2fs_fs.h"
#include "f2fs_err.h"
#include "f2fs_mount.h"
#include "f2fs_sit.h"
#include "f2fs_nat.h"
#include "f2fs_commit.h"

static char img[256], work[256];

static int sh(const char *fmt, const char *a, const char *b)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), fmt, a, b);
	return system(cmd);
}

static int make_image(const char *mkfs, const char *opts)
{
	const char *top = getenv("top_builddir");
	char tool[512], cmd[2048];

	if (!strcmp(mkfs, "ours"))
		snprintf(tool, sizeof(tool), "%s/mkfs/mkfs.f2fs", top ? top : ".");
	else
		snprintf(tool, sizeof(tool), "mkfs.f2fs");
	snprintf(cmd, sizeof(cmd), "rm -f %s && truncate -s 512M %s && %s -q -f %s %s >/dev/null",
		 img, img, tool, opts, img);
	if (system(cmd)) {
		fprintf(stderr, "FAIL: cannot run %s\n", cmd);
		return -1;
	}
	return 0;
}

/* f2fs-tools' verdict: exit 0 and no [Fail] line. */
static int peer_clean(const char *path)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd),
		 "fsck.f2fs --dry-run %s > %s.fsck 2>&1 && ! grep -q 'Fail' %s.fsck",
		 path, path, path);
	if (system(cmd) != 0) {
		snprintf(cmd, sizeof(cmd), "grep -E 'Fail|Error|rror' %s.fsck | head -5 >&2", path);
		if (system(cmd)) { /* diagnostics only */ }
		return 0;
	}
	return 1;
}

struct opened {
	struct f2fs_fs *fs;
	struct f2fs_sit_model sit;
	struct f2fs_nat_model nat;
};

static int open_models(const char *path, bool rw, struct opened *o)
{
	struct f2fs_dev_opts opts = { .read_only = !rw };
	uint32_t bad = 0;
	int err;

	memset(o, 0, sizeof(*o));
	err = f2fs_fs_open(path, &opts, &o->fs);
	if (err)
		return err;
	err = f2fs_sit_load(o->fs, &o->sit, &bad);
	if (!err)
		err = f2fs_nat_init(&o->nat, o->fs->max_nid, o->fs->nat_bitmap);
	if (!err)
		err = f2fs_nat_load_all(o->fs, &o->nat);
	return err;
}

static void close_models(struct opened *o)
{
	f2fs_nat_free(&o->nat);
	f2fs_sit_free(&o->sit);
	f2fs_fs_close(o->fs);
	memset(o, 0, sizeof(*o));
}

/* Dirty some SIT entries and NAT blocks without changing their meaning. */
static void touch_models(struct opened *o)
{
	struct f2fs_nat_entry e;
	int t;

	for (t = 0; t < NR_CURSEG_TYPE; t++)
		f2fs_sit_mark_dirty(&o->sit, o->fs->curseg_segno[t]);
	if (f2fs_nat_get(&o->nat, F2FS_ROOT_INO, &e) == 0)
		f2fs_nat_set(&o->nat, F2FS_ROOT_INO, &e);
	if (o->nat.max_nid > 5 * NAT_ENTRY_PER_BLOCK + 7 &&
	    f2fs_nat_get(&o->nat, 5 * NAT_ENTRY_PER_BLOCK + 7, &e) == 0)
		f2fs_nat_set(&o->nat, 5 * NAT_ENTRY_PER_BLOCK + 7, &e);
}

static int commit_once(const char *path, uint64_t write_limit, uint64_t *writes)
{
	struct f2fs_commit_plan plan;
	struct opened o;
	int err = open_models(path, true, &o);

	if (err) {
		close_models(&o);
		return err;
	}
	if (write_limit)
		f2fs_dev_set_write_limit(o.fs->dev, write_limit);
	touch_models(&o);
	f2fs_commit_plan_init(&plan, o.fs);
	err = f2fs_commit(o.fs, &o.sit, &o.nat, &plan);
	if (writes)
		*writes = f2fs_dev_stats(o.fs->dev)->write_calls + f2fs_dev_stats(o.fs->dev)->dropped_writes;
	close_models(&o);
	return err;
}

static void test_two_commits(const char *mkfs, const char *opts)
{
	struct opened o;
	uint64_t v0, total0;
	uint32_t valid0;

	if (make_image(mkfs, opts)) {
		CHECK(!"mkfs");
		return;
	}
	CHECK(open_models(img, false, &o) == 0);
	v0 = o.fs->cp_version[o.fs->cp_index];
	CHECK(o.fs->cp_index == 0);
	total0 = o.sit.total_valid_blocks;
	valid0 = o.nat.valid_nodes;
	close_models(&o);

	CHECK(commit_once(img, 0, NULL) == 0);
	CHECK(open_models(img, false, &o) == 0);
	CHECK(o.fs->cp_index == 1);
	CHECK_EQ_U64(o.fs->cp_version[1], v0 + 1);
	CHECK(o.fs->cp_check[0].err == 0);
	CHECK(f2fs_test_bit(0, o.fs->nat_bitmap));
	CHECK(f2fs_test_bit(o.fs->curseg_segno[CURSEG_HOT_NODE] / 55, o.fs->sit_bitmap));
	CHECK_EQ_U64(o.sit.total_valid_blocks, total0);
	CHECK_EQ_U64(o.nat.valid_nodes, valid0);
	CHECK_EQ_U64(le16_to_cpu(f2fs_sit_journal(o.fs)->n_sits), 0);
	if (o.fs->cp_flags & CP_NAT_BITS_FLAG)
		CHECK_EQ_U64(le16_to_cpu(f2fs_nat_journal(o.fs)->n_nats), 0);
	close_models(&o);
	CHECK(peer_clean(img));

	CHECK(commit_once(img, 0, NULL) == 0);
	CHECK(open_models(img, false, &o) == 0);
	CHECK(o.fs->cp_index == 0);
	CHECK_EQ_U64(o.fs->cp_version[0], v0 + 2);
	CHECK(!f2fs_test_bit(0, o.fs->nat_bitmap));
	CHECK_EQ_U64(o.sit.total_valid_blocks, total0);
	CHECK_EQ_U64(o.nat.valid_nodes, valid0);
	close_models(&o);
	CHECK(peer_clean(img));
}

/* Cut the commit after every possible write. */
static void test_write_cuts(const char *opts)
{
	uint64_t total = 0, n, v0;
	struct opened o;

	if (make_image("ours", opts)) {
		CHECK(!"mkfs");
		return;
	}
	CHECK(open_models(img, false, &o) == 0);
	v0 = o.fs->cp_version[o.fs->cp_index];
	close_models(&o);
	CHECK(sh("cp --sparse=always %s %s", img, work) == 0);
	CHECK(commit_once(work, 0, &total) == 0);
	CHECK(total >= 4);
	for (n = 1; n <= total; n++) {
		CHECK(sh("cp --sparse=always %s %s", img, work) == 0);
		CHECK(commit_once(work, n, NULL) == 0);
		CHECK(open_models(work, false, &o) == 0);
		if (o.fs) {
			uint64_t v = o.fs->cp_version[o.fs->cp_index];

			/* Only the very last write commits. */
			CHECK_EQ_U64(v, n == total ? v0 + 1 : v0);
		}
		close_models(&o);
		CHECK(peer_clean(work));
	}
	unlink(work);
}

int main(void)
{
	snprintf(img, sizeof(img), "test_commit.%d.img", (int)getpid());
	snprintf(work, sizeof(work), "test_commit.%d.cut.img", (int)getpid());
	test_two_commits("ours", "");
	test_two_commits("ours", "-O extra_attr,inode_checksum,lost_found,quota -s 4");
	test_two_commits("peer", "-O extra_attr,lost_found");	/* journalled NAT */
	test_write_cuts("-O lost_found");
	unlink(img);
	if (sh("rm -f %s.fsck %s.fsck", img, work)) { /* best effort */ }
	return unit_finish("test_commit");
}
