/*
 * test_dev_mount.c - mount detection: the mountinfo parser on a made-up
 * file (octal escapes, malformed lines, first match wins), the real
 * /proc/self/mountinfo for the file system holding "/", and
 * f2fs_dev_check_mounted() on that block device when a node for it can
 * be found under /dev, on an unmounted file and on a missing path.  When
 * run as root with loop devices and ext4 available, an image mounted
 * through a loop device (on a mount point with a space in its name) must
 * be seen as mounted by its path and by a hard link to it; otherwise that
 * part is reported as not run.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "f2fs_dev.h"
#include "f2fs_err.h"
#include "unit.h"

static char dir[256];

static const char fake_mountinfo[] =
	"22 27 0:21 / /proc rw,relatime - proc proc rw\n"
	"garbage line\n"
	"23 27 abc / /bad rw - x y rw\n"
	"24 27 8:1\n"
	"30 27 8:1 / /mnt/with\\040space\\011tab\\134slash rw - ext4 /dev/sda1 rw\n"
	"31 27 8:1 /sub /second rw - ext4 /dev/sda1 rw\n"
	"32 27 259:65536 / /big\\012minor rw - ext4 /dev/x rw\n";

static const char *write_fake_mountinfo(void)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/mountinfo", dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(fake_mountinfo, f);
		fclose(f);
	}
	return path;
}

static void test_fake_mountinfo(void)
{
	const char *mi = write_fake_mountinfo();
	char *where = NULL;
	bool mounted = false;

	CHECK_EQ_U64(f2fs_mountinfo_lookup(mi, makedev(8, 1), &mounted, &where), 0);
	CHECK(mounted);
	CHECK(where && strcmp(where, "/mnt/with space\ttab\\slash") == 0);
	free(where);

	CHECK_EQ_U64(f2fs_mountinfo_lookup(mi, makedev(259, 65536), &mounted, &where), 0);
	CHECK(mounted);
	CHECK(where && strcmp(where, "/big\nminor") == 0);
	free(where);

	where = (char *)"junk";
	CHECK_EQ_U64(f2fs_mountinfo_lookup(mi, makedev(8, 2), &mounted, &where), 0);
	CHECK(!mounted);
	CHECK(where == NULL);

	CHECK_EQ_U64(f2fs_mountinfo_lookup(mi, makedev(0, 21), &mounted, NULL), 0);
	CHECK(mounted);

	CHECK_EQ_U64(f2fs_mountinfo_lookup("/nonexistent/mountinfo", makedev(8, 1), &mounted, NULL),
		     (uint64_t)-ENOENT);
	CHECK(!mounted);
}

/* A block device node under /dev (one level deep) with this number. */
static bool find_blkdev_node(dev_t dev, char *out, size_t size)
{
	const char *dirs[] = { "/dev", "/dev/block", "/dev/mapper" };

	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		DIR *dp = opendir(dirs[d]);
		struct dirent *de;

		if (!dp)
			continue;
		while ((de = readdir(dp)) != NULL) {
			struct stat st;

			snprintf(out, size, "%s/%s", dirs[d], de->d_name);
			if (stat(out, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == dev) {
				closedir(dp);
				return true;
			}
		}
		closedir(dp);
	}
	return false;
}

static void test_real_root(void)
{
	char node[512];
	char *where = NULL;
	bool mounted = false;
	struct stat st;

	CHECK(stat("/", &st) == 0);
	CHECK_EQ_U64(f2fs_mountinfo_lookup("/proc/self/mountinfo", st.st_dev, &mounted, &where), 0);
	CHECK(mounted);
	CHECK(where != NULL && where[0] == '/');
	free(where);

	if (!find_blkdev_node(st.st_dev, node, sizeof(node))) {
		printf("note: no /dev node for the root file system; block device case not run\n");
		return;
	}
	mounted = false;
	CHECK_EQ_U64(f2fs_dev_check_mounted(node, &mounted, &where), 0);
	CHECK(mounted);
	CHECK(where != NULL);
	free(where);
}

static void test_unmounted_and_missing(void)
{
	char path[512];
	bool mounted = true;
	FILE *f;

	snprintf(path, sizeof(path), "%s/plain.img", dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f)
		fclose(f);
	CHECK_EQ_U64(f2fs_dev_check_mounted(path, &mounted, NULL), 0);
	CHECK(!mounted);
	CHECK_EQ_U64(f2fs_dev_check_mounted("/nonexistent/x.img", &mounted, NULL),
		     (uint64_t)-ENOENT);
	CHECK_EQ_U64(f2fs_dev_check_mounted(NULL, &mounted, NULL), (uint64_t)-EINVAL);
	/* A directory is neither a device nor an image. */
	CHECK_EQ_U64(f2fs_dev_check_mounted(dir, &mounted, NULL), 0);
	CHECK(!mounted);
}

static int run(const char *cmd)
{
	char full[1024];

	snprintf(full, sizeof(full), "PATH=\"$PATH:/usr/sbin:/sbin\" %s >/dev/null 2>&1", cmd);
	return system(full);
}

static void check_loop_mounted(const char *img, const char *alias, const char *mnt)
{
	char *where = NULL;
	bool mounted = false;

	CHECK_EQ_U64(f2fs_dev_check_mounted(img, &mounted, &where), 0);
	CHECK(mounted);
	CHECK(where && strcmp(where, mnt) == 0);
	free(where);
	mounted = false;
	CHECK_EQ_U64(f2fs_dev_check_mounted(alias, &mounted, NULL), 0);
	CHECK(mounted);
}

static void test_loop_backing(void)
{
	char img[512], alias[512], mnt[512], cmd[2048];

	snprintf(img, sizeof(img), "%s/loop.img", dir);
	snprintf(alias, sizeof(alias), "%s/hardlink.img", dir);
	snprintf(mnt, sizeof(mnt), "%s/mount point", dir);
	snprintf(cmd, sizeof(cmd), "truncate -s 16M '%s' && mkfs.ext4 -q -F '%s' && mkdir '%s'",
		 img, img, mnt);
	if (geteuid() != 0 || run(cmd) != 0 || link(img, alias) != 0) {
		printf("note: loop-backed image case not run (needs root and mkfs.ext4)\n");
		return;
	}
	snprintf(cmd, sizeof(cmd), "mount -o loop,ro '%s' '%s'", img, mnt);
	if (run(cmd) != 0) {
		printf("note: loop-backed image case not run (loop mount failed)\n");
		return;
	}
	check_loop_mounted(img, alias, mnt);
	snprintf(cmd, sizeof(cmd), "umount '%s'", mnt);
	CHECK(run(cmd) == 0);
	/* Detached again: no longer mounted. */
	bool mounted = true;
	CHECK_EQ_U64(f2fs_dev_check_mounted(img, &mounted, NULL), 0);
	CHECK(!mounted);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	char cmd[512];

	snprintf(dir, sizeof(dir), "%s/f2fs-test-mount-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		fprintf(stderr, "mkdtemp failed\n");
		return 1;
	}
	test_fake_mountinfo();
	test_real_root();
	test_unmounted_and_missing();
	test_loop_backing();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "warning: could not remove %s\n", dir);
	return unit_finish("test_dev_mount");
}
