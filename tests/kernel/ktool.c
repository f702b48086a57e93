/*
 * ktool: the guest-side helper of the kernel interop tests.
 *
 * It is linked statically and runs inside the QEMU guest, next to busybox.
 * Everything it writes is a pure function of a name and a seed, so the guest
 * can later prove that what it reads back is what it wrote without keeping a
 * copy anywhere.
 *
 *   ktool tree make|prune|verify|verify-full DIR SEED [compr]
 *       Build, partly delete, or check a fixed tree: nested directories, a
 *       directory with 600 entries, inline-sized and multi-MiB files, a
 *       sparse file, symlinks, hard links, xattrs and (with "compr")
 *       compressed files.  "verify" expects the pruned tree, "verify-full"
 *       the whole one.  Names starting with "+" belong to the scenarios
 *       and are ignored by the checks.
 *   ktool put PATH SIZE [-t] [-f] [-d]
 *       Extend PATH (created if missing) up to SIZE bytes with its stream;
 *       -t gives compressible text, -f fsyncs the file afterwards, -d
 *       writes with O_DIRECT (the old size and SIZE multiples of 4 KiB).
 *   ktool check PATH SIZE [-t]
 *       PATH must be exactly SIZE bytes of its stream.
 *   ktool fill DIR KIB
 *       Create DIR/fNNNNN files of KIB KiB each until the file system is
 *       full; the file that hit ENOSPC is removed.  Prints the count.
 *   ktool thin DIR
 *       Remove every file of DIR whose number is even.
 *   ktool fill-verify DIR KIB
 *       Every file of DIR must be KIB KiB of its stream.
 *   ktool gc PATH [ROUNDS]
 *       Foreground garbage collection (F2FS_IOC_GARBAGE_COLLECT, then a
 *       checkpoint by syncfs, each round) on the file system of PATH,
 *       round after round until the kernel finds no victim section (or
 *       ROUNDS, default 256).  Prints the rounds.
 *   ktool compr PATH      set FS_COMPR_FL on PATH
 *   ktool casefold DIR    set FS_CASEFOLD_FL on the empty directory DIR
 *   ktool quota DEV MIN_KIB MIN_INODES [usr|grp|prj ID]
 *       The kernel's quota usage of uid 0 (or of that user, group or
 *       project) on DEV must be at least MIN_KIB KiB and MIN_INODES inodes
 *       (proves quota accounting is live).
 *   ktool rofs DIR        succeed only if creating a file in DIR gives EROFS
 *   ktool zones DEV
 *       The zones of the zoned block device DEV (BLKREPORTZONE), one line
 *       each: "zone N type T cond C start S len L wp W cap K" (sectors of
 *       512 bytes; types 1 conventional, 2 seq-required, 3 seq-preferred;
 *       conditions as in linux/blkzoned.h), then "zones: N".
 *   ktool zone-reset DEV SECTOR        reset the zone at SECTOR (BLKRESETZONE)
 *   ktool ioc PATH OP [N]
 *       One of F2FS's file ioctls on PATH, as fstests' f2fs_io drives them:
 *       atomic N (start an atomic write, overwrite the first N blocks with
 *       zeroes, commit), atomic-gc N (the same with a foreground GC round
 *       between the writes and the commit, as f2fs/003), atomic-abort N
 *       (start, write, abort: the file keeps its old content), atomic-drop
 *       N (start, write, close without committing), compress, decompress,
 *       release (F2FS_IOC_RELEASE_COMPRESS_BLOCKS; prints the count),
 *       reserve, cblocks (prints F2FS_IOC_GET_COMPRESS_BLOCKS), pin
 *       (F2FS_IOC_SET_PIN_FILE), fallocate N (N blocks more, until ENOSPC:
 *       prints the blocks it got), checkpoint; falloc MODE OFF LEN
 *       (fallocate(2) in bytes; MODE plain, keep, punch, zero, collapse or
 *       insert).
 *   ktool whiteout DIR NAME   rename DIR/NAME to DIR/NAME.moved leaving a
 *       whiteout in its place (renameat2 RENAME_WHITEOUT, as overlayfs)
 *   ktool tmpfile DIR NAME SIZE   an O_TMPFILE file of SIZE bytes of the
 *       stream of NAME, then linked in as DIR/NAME
 *   ktool shutdown PATH                stop the file system of PATH now, without
 *       a checkpoint (F2FS_IOC_SHUTDOWN, F2FS_GOING_DOWN_NOSYNC): what a
 *       power cut leaves on the device, with the guest still running
 *   ktool zone-write DEV BLOCK COUNT
 *       Write COUNT 4 KiB blocks of a fixed pattern at 4 KiB block BLOCK of
 *       DEV with O_DIRECT (as a zone's write pointer wants them).
 *   ktool inodes make|verify|key DIR FEATURES [SEED]
 *       Create, or check, one inode of every type the kernel stores: regular
 *       files (empty, inline, one block, direct, indirect, a sparse one
 *       reaching the double indirect node, preallocated, pinned, with inode
 *       flags, odd owners and times), inline and multi-level directories,
 *       fast and slow symlinks, a file with three names, a FIFO, a socket,
 *       devices with old and new number encodings, xattrs (inline, filling
 *       the inline area exactly, in an xattr node; user, POSIX ACL access
 *       and default, trusted, security; on directories, special files and
 *       symlinks).  FEATURES (comma-separated, "-" for none) adds what the
 *       image supports: compr (compressed, released and zstd files), casefold
 *       (casefolded directories, looked up by other spellings), proj
 *       (project ids), verity (an fs-verity file), encrypt (an fscrypt v2
 *       directory: files, symlinks, a FIFO, 300 names; one also casefolded;
 *       the key is added at each run, and by "key" alone).
 *   ktool xattr PATH NAME SIZE [-f]    set NAME to SIZE bytes of its stream
 *   ktool xattr-check PATH NAME SIZE   NAME must hold exactly those bytes
 *   ktool fsync PATH                   fsync a file or a directory
 *   ktool node PATH c|b|p|s [MAJ MIN]  PATH must be that kind of node
 *   ktool hold PATH SIZE
 *       Create PATH, unlink it while open and take a checkpoint (syncfs):
 *       the checkpoint lists an orphan inode.  A child process keeps it open
 *       until the guest dies.
 *
 * Environment: KTOOL_NO_FLAGS=1 makes "tree verify" skip the FS_COMPR_FL
 * checks (for copies of the tree on file systems without it).
 *
 * Exit status: 0 success, 1 verification or operation failed, 2 usage.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/blkzoned.h>
#include <linux/fs.h>
#include <linux/fscrypt.h>
#include <linux/fsverity.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/quota.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#define BLK 4096u
#define MAX_REPORTS 20

/* ---------- deterministic content ---------- */

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

static uint64_t name_seed(const char *name, uint64_t seed)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ seed;

	for (; *name; name++) {
		h ^= (unsigned char)*name;
		h *= 0x100000001b3ULL;
	}
	return mix64(h);
}

/* One 4 KiB block of the stream of @seed, block number @bno. */
static void stream_block(uint64_t seed, int text, uint64_t bno, unsigned char *buf)
{
	if (text) {
		/* 64-byte lines: a numbered header, then one repeated letter. */
		for (unsigned i = 0; i < BLK / 64; i++) {
			uint64_t line = bno * (BLK / 64) + i;
			char *l = (char *)buf + i * 64;
			int n = snprintf(l, 64, "%08" PRIx64 " line %012" PRIu64 " ",
					 seed & 0xffffffffu, line);

			memset(l + n, 'a' + (int)(line % 26), (size_t)(63 - n));
			l[63] = '\n';
		}
		return;
	}
	for (unsigned i = 0; i < BLK / 8; i++) {
		uint64_t v = mix64(seed ^ ((bno * (BLK / 8) + i) * 0x9e3779b97f4a7c15ULL));

		memcpy(buf + i * 8, &v, 8);
	}
}

/* Copy bytes [off, off+len) of the stream into @out. */
static void stream_bytes(uint64_t seed, int text, uint64_t off, size_t len, unsigned char *out)
{
	unsigned char blk[BLK];

	while (len) {
		uint64_t bno = off / BLK;
		size_t in = (size_t)(off % BLK);
		size_t n = BLK - in < len ? BLK - in : len;

		stream_block(seed, text, bno, blk);
		memcpy(out, blk + in, n);
		out += n;
		off += n;
		len -= n;
	}
}

static int failures;

static void fail(const char *fmt, ...)
{
	va_list ap;

	failures++;
	if (failures > MAX_REPORTS)
		return;
	va_start(ap, fmt);
	fputs("ktool: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* Write stream bytes [from, to) at the same offsets of @fd. */
static int write_range(int fd, uint64_t seed, int text, uint64_t from, uint64_t to)
{
	static _Alignas(4096) unsigned char buf[64 * 1024];	/* O_DIRECT needs it */

	while (from < to) {
		size_t n = to - from < sizeof(buf) ? (size_t)(to - from) : sizeof(buf);
		ssize_t w;

		stream_bytes(seed, text, from, n, buf);
		w = pwrite(fd, buf, n, (off_t)from);
		if (w < 0)
			return -errno;
		if (w == 0)
			return -EIO;
		from += (uint64_t)w;
	}
	return 0;
}

/* Compare [from, to) of @fd with the stream (or with zeros if @zero). */
static int check_range(int fd, const char *path, uint64_t seed, int text, int zero,
		       uint64_t from, uint64_t to)
{
	static unsigned char got[64 * 1024], want[64 * 1024];

	while (from < to) {
		size_t n = to - from < sizeof(got) ? (size_t)(to - from) : sizeof(got);
		ssize_t r = pread(fd, got, n, (off_t)from);

		if (r < 0) {
			fail("%s: read at %" PRIu64 ": %s", path, from, strerror(errno));
			return -1;
		}
		if ((size_t)r != n) {
			fail("%s: short read at %" PRIu64, path, from);
			return -1;
		}
		if (zero)
			memset(want, 0, n);
		else
			stream_bytes(seed, text, from, n, want);
		if (memcmp(got, want, n)) {
			size_t i = 0;

			while (got[i] == want[i])
				i++;
			fail("%s: content differs at byte %" PRIu64, path, from + i);
			return -1;
		}
		from += n;
	}
	return 0;
}

/* ---------- the tree ---------- */

enum kind { K_DIR, K_FILE, K_SPARSE, K_SYMLINK, K_HARDLINK };

struct ent {
	char path[300];
	enum kind kind;
	uint64_t size;
	int text;
	int compr;		/* set FS_COMPR_FL right after creation */
	int want_compr;		/* FS_COMPR_FL expected (set or inherited) */
	int pruned;		/* removed by "prune" */
	int target;		/* K_HARDLINK: index of the linked entry */
	int nxattr;		/* user xattrs, each @xsize bytes */
	unsigned xsize;
	char *link;		/* K_SYMLINK target */
};

struct tree {
	struct ent *e;
	int n, cap;
	uint64_t seed;
};

static struct ent *add(struct tree *t, enum kind k, const char *fmt, ...)
{
	struct ent *e;
	va_list ap;

	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->e = realloc(t->e, (size_t)t->cap * sizeof(*t->e));
		if (!t->e) {
			perror("ktool: realloc");
			exit(1);
		}
	}
	e = &t->e[t->n++];
	memset(e, 0, sizeof(*e));
	e->kind = k;
	e->target = -1;
	va_start(ap, fmt);
	vsnprintf(e->path, sizeof(e->path), fmt, ap);
	va_end(ap);
	return e;
}

static int find(const struct tree *t, const char *path)
{
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->e[i].path, path))
			return i;
	return -1;
}

static uint64_t ent_seed(const struct tree *t, const struct ent *e)
{
	return name_seed(e->path, t->seed);
}

/* A size in [0, @max) that depends only on the path and the seed. */
static uint64_t pick(const struct tree *t, const char *path, uint64_t max)
{
	return name_seed(path, t->seed ^ 0x5a5a) % max;
}

static void add_file(struct tree *t, uint64_t max, const char *fmt, ...)
{
	struct ent *e;
	char path[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	e = add(t, K_FILE, "%s", path);
	e->size = pick(t, path, max);
}

static void build_tree(struct tree *t, int with_compr)
{
	static const char *levels[] = { "a", "a/b", "a/b/c", "a/b/c/d", "a/b/c/d/e" };
	struct ent *e;
	char name[256];

	for (unsigned i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		add(t, K_DIR, "%s", levels[i]);
		for (int f = 0; f < 3; f++)
			add_file(t, 6000, "%s/f%d", levels[i], f);
	}

	/* More entries than an inline or single-block directory holds. */
	add(t, K_DIR, "big");
	for (int i = 0; i < 600; i++) {
		add_file(t, 3000, "big/entry-%04d", i);
		t->e[t->n - 1].pruned = i % 2;
	}

	add(t, K_DIR, "data");
	e = add(t, K_FILE, "data/one");
	e->size = (1u << 20) + 1234;
	e = add(t, K_FILE, "data/three");
	e->size = 3u * (1u << 20) + 555;
	e->pruned = 1;
	e = add(t, K_FILE, "data/six");
	e->size = 6u << 20;
	e = add(t, K_FILE, "data/text");
	e->size = (2u << 20) + 77;
	e->text = 1;
	e = add(t, K_SPARSE, "data/sparse");
	e->size = (5u << 20) + 99;

	add(t, K_DIR, "links");
	e = add(t, K_SYMLINK, "links/short");
	e->link = strdup("../data/one");
	e = add(t, K_SYMLINK, "links/dir");
	e->link = strdup("../a/b");
	e = add(t, K_SYMLINK, "links/dangling");
	e->link = strdup("nowhere/at/all");
	e = add(t, K_SYMLINK, "links/long");
	e->link = malloc(2001);
	for (int i = 0; i < 2000; i++)
		e->link[i] = (i % 10 == 9) ? '/' : (char)('a' + i % 26);
	e->link[2000] = '\0';
	e = add(t, K_HARDLINK, "links/hard-one");
	e->target = find(t, "data/one");
	e->pruned = 1;
	e = add(t, K_HARDLINK, "links/hl-8");
	e->target = find(t, "big/entry-0008");
	e = add(t, K_HARDLINK, "a/hl-8");
	e->target = find(t, "big/entry-0008");
	/* Outlives its pruned original. */
	e = add(t, K_HARDLINK, "links/hl-9");
	e->target = find(t, "big/entry-0009");

	add(t, K_DIR, "xattr");
	e = add(t, K_FILE, "xattr/small");
	e->size = 100;
	e->nxattr = 1;
	e->xsize = 16;
	e = add(t, K_FILE, "xattr/many");
	e->size = 5000;
	e->nxattr = 12;
	e->xsize = 100;
	e = add(t, K_FILE, "xattr/bigvalue");
	e->nxattr = 1;
	e->xsize = 2000;
	e = add(t, K_DIR, "xattr/dir");
	e->nxattr = 2;
	e->xsize = 40;

	add(t, K_DIR, "empty");
	add(t, K_DIR, "names");
	memset(name, 'n', 255);
	name[255] = '\0';
	add_file(t, 200, "names/%s", name);
	for (int i = 0; i < 40; i++) {
		int len = 20 + (i * 37) % 200;

		memset(name, 'a' + i % 26, (size_t)len);
		snprintf(name + len, sizeof(name) - (size_t)len, "-%d", i);
		add_file(t, 100, "names/%s", name);
		t->e[t->n - 1].pruned = i % 3 == 0;
	}

	if (with_compr) {
		e = add(t, K_DIR, "compr");
		e->compr = 1;
		e = add(t, K_FILE, "compr/text-big");
		e->size = (3u << 20) + 100;
		e->text = 1;
		e = add(t, K_FILE, "compr/text-small");
		e->size = 256u << 10;
		e->text = 1;
		e->pruned = 1;
		e = add(t, K_FILE, "compr/random");
		e->size = 200u << 10;
		e = add(t, K_FILE, "data/flagged");
		e->size = (1u << 20) + 3;
		e->text = 1;
		e->compr = 1;
	}

	/* Everything under a pruned directory goes with it. */
	for (int i = 0; i < t->n; i++) {
		t->e[i].want_compr = t->e[i].compr || !strncmp(t->e[i].path, "compr/", 6);
		if (!strcmp(t->e[i].path, "a/b/c/d/e"))
			t->e[i].pruned = 1;
		if (!strncmp(t->e[i].path, "a/b/c/d/e/", 10))
			t->e[i].pruned = 1;
	}
}

static void xattr_name(char *buf, size_t len, int i)
{
	snprintf(buf, len, "user.ktest.%02d", i);
}

static void xattr_value(const struct tree *t, const struct ent *e, int i, unsigned char *v)
{
	stream_bytes(ent_seed(t, e) + (uint64_t)i + 1, 0, 0, e->xsize, v);
}

static int set_compr(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	int flags;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0)
		goto err;
	flags |= FS_COMPR_FL;
	if (ioctl(fd, FS_IOC_SETFLAGS, &flags) < 0)
		goto err;
	close(fd);
	return 0;
err:
	flags = -errno;
	close(fd);
	return flags;
}

static int get_flags(const char *path, int *flags)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, FS_IOC_GETFLAGS, flags) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static void write_file(const struct tree *t, const struct ent *e)
{
	uint64_t seed = ent_seed(t, e);
	int fd = open(e->path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	int err = 0;

	if (fd < 0) {
		fail("create %s: %s", e->path, strerror(errno));
		return;
	}
	if (e->compr) {
		close(fd);
		err = set_compr(e->path);
		if (err) {
			fail("%s: FS_COMPR_FL: %s", e->path, strerror(-err));
			return;
		}
		fd = open(e->path, O_WRONLY);
		if (fd < 0) {
			fail("reopen %s: %s", e->path, strerror(errno));
			return;
		}
	}
	if (e->kind == K_SPARSE) {
		/* Three islands of data, holes in between, a data tail. */
		err = write_range(fd, seed, 0, 0, BLK);
		if (!err)
			err = write_range(fd, seed, 0, (2u << 20) + 512, (2u << 20) + 512 + 2 * BLK);
		if (!err)
			err = write_range(fd, seed, 0, e->size - 100, e->size);
	} else {
		err = write_range(fd, seed, e->text, 0, e->size);
	}
	if (err)
		fail("write %s: %s", e->path, strerror(-err));
	if (close(fd))
		fail("close %s: %s", e->path, strerror(errno));
}

static void make_ent(const struct tree *t, const struct ent *e)
{
	unsigned char v[4096];
	char xn[64];

	switch (e->kind) {
	case K_DIR:
		if (mkdir(e->path, 0755)) {
			fail("mkdir %s: %s", e->path, strerror(errno));
			return;
		}
		if (e->compr) {
			int err = set_compr(e->path);

			if (err)
				fail("%s: FS_COMPR_FL: %s", e->path, strerror(-err));
		}
		break;
	case K_FILE:
	case K_SPARSE:
		write_file(t, e);
		break;
	case K_SYMLINK:
		if (symlink(e->link, e->path))
			fail("symlink %s: %s", e->path, strerror(errno));
		return;
	case K_HARDLINK:
		if (link(t->e[e->target].path, e->path))
			fail("link %s: %s", e->path, strerror(errno));
		return;
	}
	for (int i = 0; i < e->nxattr; i++) {
		xattr_name(xn, sizeof(xn), i);
		xattr_value(t, e, i, v);
		if (setxattr(e->path, xn, v, e->xsize, XATTR_CREATE))
			fail("setxattr %s %s: %s", e->path, xn, strerror(errno));
	}
}

static int tree_make(struct tree *t)
{
	for (int i = 0; i < t->n; i++)
		make_ent(t, &t->e[i]);
	return failures ? 1 : 0;
}

static int tree_prune(struct tree *t)
{
	for (int i = t->n - 1; i >= 0; i--) {
		const struct ent *e = &t->e[i];

		if (!e->pruned)
			continue;
		if (e->kind == K_DIR ? rmdir(e->path) : unlink(e->path))
			fail("remove %s: %s", e->path, strerror(errno));
	}
	return failures ? 1 : 0;
}

static int present(const struct ent *e, int pruned)
{
	return !(pruned && e->pruned);
}

/* Links to the inode of entry @i that exist in this state. */
static unsigned expected_nlink(const struct tree *t, int i, int pruned)
{
	unsigned n = 0;

	if (t->e[i].kind == K_DIR) {
		size_t len = strlen(t->e[i].path);

		n = 2;
		for (int j = 0; j < t->n; j++) {
			const struct ent *c = &t->e[j];

			if (c->kind == K_DIR && present(c, pruned) &&
			    !strncmp(c->path, t->e[i].path, len) && c->path[len] == '/' &&
			    !strchr(c->path + len + 1, '/'))
				n++;
		}
		return n;
	}
	if (present(&t->e[i], pruned))
		n++;
	for (int j = 0; j < t->n; j++)
		if (t->e[j].kind == K_HARDLINK && t->e[j].target == i && present(&t->e[j], pruned))
			n++;
	return n;
}

static void verify_xattrs(const struct tree *t, const struct ent *e)
{
	unsigned char want[4096], got[4096];
	char xn[64];

	for (int i = 0; i < e->nxattr; i++) {
		ssize_t n;

		xattr_name(xn, sizeof(xn), i);
		n = getxattr(e->path, xn, got, sizeof(got));
		if (n < 0) {
			fail("getxattr %s %s: %s", e->path, xn, strerror(errno));
			continue;
		}
		xattr_value(t, e, i, want);
		if ((size_t)n != e->xsize || memcmp(got, want, e->xsize))
			fail("%s: xattr %s differs", e->path, xn);
	}
}

static void verify_content(const struct tree *t, const struct ent *e, const char *path)
{
	uint64_t seed = ent_seed(t, e);
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		fail("open %s: %s", path, strerror(errno));
		return;
	}
	if (e->kind == K_SPARSE) {
		const uint64_t isl = (2u << 20) + 512, isl_end = isl + 2 * BLK;

		if (!check_range(fd, path, seed, 0, 0, 0, BLK) &&
		    !check_range(fd, path, seed, 0, 1, BLK, isl) &&
		    !check_range(fd, path, seed, 0, 0, isl, isl_end) &&
		    !check_range(fd, path, seed, 0, 1, isl_end, e->size - 100))
			check_range(fd, path, seed, 0, 0, e->size - 100, e->size);
	} else {
		check_range(fd, path, seed, e->text, 0, 0, e->size);
	}
	close(fd);
}

static void verify_ent(const struct tree *t, int i, int pruned)
{
	const struct ent *e = &t->e[i];
	const struct ent *data = e->kind == K_HARDLINK ? &t->e[e->target] : e;
	struct stat st;
	unsigned nlink;

	if (!present(e, pruned)) {
		if (lstat(e->path, &st) == 0 || errno != ENOENT)
			fail("%s: should be gone", e->path);
		return;
	}
	if (lstat(e->path, &st)) {
		fail("%s: %s", e->path, strerror(errno));
		return;
	}
	switch (e->kind) {
	case K_DIR:
		if (!S_ISDIR(st.st_mode))
			fail("%s: not a directory", e->path);
		break;
	case K_SYMLINK: {
		char buf[4096];
		ssize_t n = readlink(e->path, buf, sizeof(buf));

		if (!S_ISLNK(st.st_mode) || n < 0 || (size_t)n != strlen(e->link) ||
		    memcmp(buf, e->link, (size_t)n))
			fail("%s: symlink target differs", e->path);
		return;
	}
	default:
		if (!S_ISREG(st.st_mode)) {
			fail("%s: not a regular file", e->path);
			return;
		}
		if ((uint64_t)st.st_size != data->size) {
			fail("%s: size %lld, want %" PRIu64, e->path, (long long)st.st_size,
			     data->size);
			return;
		}
		verify_content(t, data, e->path);
		break;
	}
	nlink = expected_nlink(t, e->kind == K_HARDLINK ? e->target : i, pruned);
	if (st.st_nlink != nlink)
		fail("%s: nlink %lu, want %u", e->path, (unsigned long)st.st_nlink, nlink);
	verify_xattrs(t, data);
	/* KTOOL_NO_FLAGS=1: checking a copy on a file system without
	 * per-file compression (dump.f2fs extraction on the host). */
	if (data->want_compr && !getenv("KTOOL_NO_FLAGS")) {
		int flags = 0, err = get_flags(e->path, &flags);

		if (err || !(flags & FS_COMPR_FL))
			fail("%s: FS_COMPR_FL missing", e->path);
	}
}

/* Each directory must hold exactly the entries the state expects. */
static void verify_listing(const struct tree *t, const char *dir, int pruned)
{
	size_t len = strcmp(dir, ".") ? strlen(dir) + 1 : 0;
	unsigned want = 0, got = 0;
	struct dirent *d;
	char path[600];
	DIR *dp;

	for (int i = 0; i < t->n; i++) {
		const char *p = t->e[i].path;

		if (present(&t->e[i], pruned) && (!len || (!strncmp(p, dir, len - 1) && p[len - 1] == '/')) &&
		    !strchr(p + len, '/'))
			want++;
	}
	dp = opendir(dir);
	if (!dp) {
		fail("opendir %s: %s", dir, strerror(errno));
		return;
	}
	while ((d = readdir(dp))) {
		int j;

		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		/* lost+found, and "+name" scratch files of the scenarios */
		if ((!len && !strcmp(d->d_name, "lost+found")) || d->d_name[0] == '+')
			continue;
		got++;
		snprintf(path, sizeof(path), "%s%s%s", len ? dir : "", len ? "/" : "", d->d_name);
		j = find(t, path);
		if (j < 0 || !present(&t->e[j], pruned))
			fail("%s: unexpected entry", path);
	}
	closedir(dp);
	if (got != want)
		fail("%s: %u entries, want %u", dir, got, want);
}

static int tree_verify(struct tree *t, int pruned)
{
	verify_listing(t, ".", pruned);
	for (int i = 0; i < t->n; i++) {
		verify_ent(t, i, pruned);
		if (t->e[i].kind == K_DIR && present(&t->e[i], pruned))
			verify_listing(t, t->e[i].path, pruned);
	}
	if (failures)
		fprintf(stderr, "ktool: %d problem(s) in the tree\n", failures);
	return failures ? 1 : 0;
}

#ifndef F2FS_IOC_GARBAGE_COLLECT
#define F2FS_IOC_GARBAGE_COLLECT _IOW(0xf5, 6, uint32_t)
#endif

static int cmd_gc(int argc, char **argv)
{
	uint32_t sync = 1;
	int fd, rounds = 0, max = argc > 2 ? atoi(argv[2]) : 256;

	if (argc < 2 || argc > 3 || max <= 0)
		return 2;
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "ktool: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	/* 0: a section freed; EAGAIN: collected without freeing one.  A
	 * foreground round leaves its victim prefree until a checkpoint, and
	 * Linux 6.1 starts a round without checking that a free section is
	 * left to move into: rounds without checkpoints in between used up
	 * the free sections of a small zoned volume and crashed it
	 * (new_curseg warnings, then a NULL dereference in
	 * update_sit_entry).  So a checkpoint (syncfs) follows each round, as
	 * the kernel's own GC thread takes one when prefree sections pile
	 * up. */
	while (rounds < max && (ioctl(fd, F2FS_IOC_GARBAGE_COLLECT, &sync) == 0 || errno == EAGAIN)) {
		rounds++;
		if (syncfs(fd)) {
			fprintf(stderr, "ktool: gc %s: syncfs: %s\n", argv[1], strerror(errno));
			close(fd);
			return 1;
		}
	}
	close(fd);
	if (rounds < max && errno != ENODATA) {
		fprintf(stderr, "ktool: gc %s: %s after %d rounds\n", argv[1], strerror(errno), rounds);
		return 1;
	}
	printf("gc: %d rounds\n", rounds);
	return 0;
}

static int cmd_tree(int argc, char **argv)
{
	struct tree t = { 0 };
	int ret;

	if (argc < 4)
		return 2;
	t.seed = strtoull(argv[3], NULL, 0);
	build_tree(&t, argc > 4 && !strcmp(argv[4], "compr"));
	if (chdir(argv[2])) {
		fprintf(stderr, "ktool: chdir %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	if (!strcmp(argv[1], "make"))
		ret = tree_make(&t);
	else if (!strcmp(argv[1], "prune"))
		ret = tree_prune(&t);
	else if (!strcmp(argv[1], "verify"))
		ret = tree_verify(&t, 1);
	else if (!strcmp(argv[1], "verify-full"))
		ret = tree_verify(&t, 0);
	else
		return 2;
	if (!ret)
		printf("tree %s: %d entries ok\n", argv[1], t.n);
	return ret;
}

/* ---------- single files ---------- */

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static int cmd_put(int argc, char **argv)
{
	int text = 0, sync = 0, direct = 0, fd, err;
	uint64_t size;
	struct stat st;

	if (argc < 3)
		return 2;
	for (int i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "-t"))
			text = 1;
		else if (!strcmp(argv[i], "-f"))
			sync = 1;
		else if (!strcmp(argv[i], "-d"))
			direct = O_DIRECT;
		else
			return 2;
	}
	size = strtoull(argv[2], NULL, 0);
	fd = open(argv[1], O_WRONLY | O_CREAT | direct, 0644);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "ktool: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	err = write_range(fd, name_seed(base_name(argv[1]), 0), text, (uint64_t)st.st_size, size);
	if (!err && sync && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (err) {
		fprintf(stderr, "ktool: write %s: %s\n", argv[1], strerror(-err));
		return 1;
	}
	return 0;
}

static int check_file(const char *path, uint64_t seed, int text, uint64_t size)
{
	struct stat st;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st)) {
		fail("%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	if ((uint64_t)st.st_size != size)
		fail("%s: size %lld, want %" PRIu64, path, (long long)st.st_size, size);
	else
		check_range(fd, path, seed, text, 0, 0, size);
	close(fd);
	return failures ? 1 : 0;
}

static int cmd_check(int argc, char **argv)
{
	if (argc < 3 || argc > 4 || (argc == 4 && strcmp(argv[3], "-t")))
		return 2;
	return check_file(argv[1], name_seed(base_name(argv[1]), 0), argc == 4,
			  strtoull(argv[2], NULL, 0));
}

/* ---------- filling ---------- */

static int cmd_fill(int argc, char **argv)
{
	uint64_t size;
	unsigned count = 0;
	char path[600];

	if (argc != 3)
		return 2;
	size = strtoull(argv[2], NULL, 0) * 1024;
	for (unsigned i = 0; i < 100000; i++) {
		int fd, err;

		snprintf(path, sizeof(path), "%s/f%05u", argv[1], i);
		if (access(path, F_OK) == 0)
			continue;
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0) {
			if (errno == ENOSPC)
				break;
			fprintf(stderr, "ktool: create %s: %s\n", path, strerror(errno));
			return 1;
		}
		err = write_range(fd, name_seed(base_name(path), 0), 0, 0, size);
		if (close(fd) && !err)
			err = -errno;
		if (err == -ENOSPC) {
			if (unlink(path)) {
				fprintf(stderr, "ktool: unlink %s: %s\n", path, strerror(errno));
				return 1;
			}
			break;
		}
		if (err) {
			fprintf(stderr, "ktool: write %s: %s\n", path, strerror(-err));
			return 1;
		}
		count++;
	}
	printf("fill: %u new files of %" PRIu64 " KiB\n", count, size / 1024);
	return 0;
}

static int numbered(const char *name, unsigned *num)
{
	char *end;

	if (name[0] != 'f' || !name[1])
		return 0;
	*num = (unsigned)strtoul(name + 1, &end, 10);
	return *end == '\0';
}

static int cmd_thin(int argc, char **argv)
{
	unsigned removed = 0, num;
	char path[600];
	struct dirent *d;
	DIR *dp;

	if (argc != 2)
		return 2;
	dp = opendir(argv[1]);
	if (!dp) {
		fprintf(stderr, "ktool: opendir %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	while ((d = readdir(dp))) {
		if (!numbered(d->d_name, &num) || num % 2)
			continue;
		snprintf(path, sizeof(path), "%s/%s", argv[1], d->d_name);
		if (unlink(path)) {
			fprintf(stderr, "ktool: unlink %s: %s\n", path, strerror(errno));
			closedir(dp);
			return 1;
		}
		removed++;
	}
	closedir(dp);
	printf("thin: removed %u files\n", removed);
	return 0;
}

static int cmd_fill_verify(int argc, char **argv)
{
	unsigned checked = 0, num;
	uint64_t size;
	char path[600];
	struct dirent *d;
	DIR *dp;

	if (argc != 3)
		return 2;
	size = strtoull(argv[2], NULL, 0) * 1024;
	dp = opendir(argv[1]);
	if (!dp) {
		fprintf(stderr, "ktool: opendir %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	while ((d = readdir(dp))) {
		if (!numbered(d->d_name, &num))
			continue;
		snprintf(path, sizeof(path), "%s/%s", argv[1], d->d_name);
		check_file(path, name_seed(d->d_name, 0), 0, size);
		checked++;
	}
	closedir(dp);
	if (failures) {
		fprintf(stderr, "ktool: %d problem(s) among %u files\n", failures, checked);
		return 1;
	}
	printf("fill-verify: %u files ok\n", checked);
	return 0;
}

/* ---------- every inode type (ktool inodes) ---------- */

/* What the image offers (FEATURES argument of "inodes"). */
#define IF_COMPR	0x01u	/* compression */
#define IF_CASEFOLD	0x02u	/* casefold */
#define IF_PROJ		0x04u	/* project_quota (and extra_attr) */
#define IF_VERITY	0x08u	/* verity */
#define IF_ENCRYPT	0x10u	/* encrypt */

#define GIB (1ull << 30)

#ifndef F2FS_IOC_SET_PIN_FILE
#define F2FS_IOC_SET_PIN_FILE _IOW(0xf5, 13, uint32_t)
#endif
#ifndef F2FS_IOC_RELEASE_COMPRESS_BLOCKS
#define F2FS_IOC_RELEASE_COMPRESS_BLOCKS _IOR(0xf5, 18, uint64_t)
#endif
#ifndef F2FS_IOC_SET_COMPRESS_OPTION
struct f2fs_comp_option {
	uint8_t algorithm;
	uint8_t log_cluster_size;
};
#define F2FS_IOC_SET_COMPRESS_OPTION _IOW(0xf5, 22, struct f2fs_comp_option)
#endif

enum ikind {
	IK_DIR, IK_REG, IK_SPARSE, IK_PREALLOC, IK_PINNED, IK_SYMLINK, IK_LINK,
	IK_FIFO, IK_SOCK, IK_CHR, IK_BLK, IK_MANY
};

/* Extra steps of an entry. */
#define SP_OWNER	0x001u	/* uid 100000, gid 200000, mode 06755, mtime in 2242 */
#define SP_OLDTIME	0x002u	/* mtime in 1960 (negative) */
#define SP_ADVISE	0x004u	/* system.advise: the cold bit */
#define SP_PROJ		0x008u	/* project id 42 */
#define SP_PROJDIR	0x010u	/* project id 43, inherited by new children */
#define SP_VERITY	0x020u	/* fs-verity (SHA-256, 4 KiB blocks) */
#define SP_RELEASE	0x040u	/* F2FS_IOC_RELEASE_COMPRESS_BLOCKS */
#define SP_ZSTD		0x080u	/* per-file compression option: zstd, 16 KiB clusters */
#define SP_ENCRYPT	0x100u	/* fscrypt v2 policy on the empty directory */
#define SP_COMPR	0x200u	/* FS_COMPR_FL expected (set or inherited) */
#define SP_PROJ43	0x400u	/* project id 43 expected (inherited) */
#define SP_LATE		0x800u	/* created after the xattrs are set (inherits an ACL) */

struct ient {
	const char *path;
	enum ikind kind;
	unsigned feat;		/* IF_* the image needs for this entry */
	uint64_t size;		/* REG, PREALLOC, PINNED: bytes; SYMLINK: length of a
				 * generated target; MANY: entries */
	const char *target;	/* SYMLINK: target (else generated); LINK: existing name */
	unsigned maj, min;	/* CHR, BLK */
	int text;		/* compressible content */
	unsigned preflags;	/* FS_*_FL right after creation (before any content) */
	unsigned postflags;	/* FS_*_FL at the very end */
	unsigned nlink;		/* expected link count when not 1 (files only) */
	unsigned sp;		/* SP_* */
	const char *alias;	/* another spelling that must find the same inode */
};

static const struct ient ients[] = {
	{ .path = "reg", .kind = IK_DIR },
	{ .path = "reg/empty", .kind = IK_REG, .size = 0 },
	{ .path = "reg/inline", .kind = IK_REG, .size = 100, .text = 1 },
	{ .path = "reg/inline-3000", .kind = IK_REG, .size = 3000 },
	{ .path = "reg/block", .kind = IK_REG, .size = 4096 },
	{ .path = "reg/direct", .kind = IK_REG, .size = 5 * 4096 + 123, .sp = SP_ADVISE },
	{ .path = "reg/indirect", .kind = IK_REG, .size = (13u << 20) + 7 },
	{ .path = "reg/sparse", .kind = IK_SPARSE, .size = 9 * GIB + 2 * 4096 + 100 },
	{ .path = "reg/prealloc", .kind = IK_PREALLOC, .size = 65536 },
	{ .path = "reg/pinned", .kind = IK_PINNED, .size = 2u << 20 },
	{ .path = "reg/flags", .kind = IK_REG, .size = 5000,
	  .postflags = FS_APPEND_FL | FS_NODUMP_FL | FS_NOATIME_FL },
	{ .path = "reg/immutable", .kind = IK_REG, .size = 8192, .postflags = FS_IMMUTABLE_FL },
	{ .path = "reg/owner", .kind = IK_REG, .size = 10, .sp = SP_OWNER },
	{ .path = "reg/old", .kind = IK_REG, .size = 20, .sp = SP_OLDTIME },
	{ .path = "reg/hard", .kind = IK_REG, .size = 7000, .nlink = 3 },
	{ .path = "reg/compr-flag", .kind = IK_REG, .feat = IF_COMPR, .size = 300000, .text = 1,
	  .preflags = FS_COMPR_FL, .sp = SP_COMPR },
	{ .path = "reg/proj", .kind = IK_REG, .feat = IF_PROJ, .size = 100, .sp = SP_PROJ },
	{ .path = "dir", .kind = IK_DIR },
	{ .path = "dir/inline", .kind = IK_DIR },
	{ .path = "dir/inline/a", .kind = IK_REG, .size = 1 },
	{ .path = "dir/inline/b", .kind = IK_REG, .size = 200 },
	{ .path = "dir/inline/third", .kind = IK_LINK, .target = "reg/hard", .nlink = 3 },
	{ .path = "dir/multi", .kind = IK_MANY, .size = 1500 },
	{ .path = "hl", .kind = IK_DIR },
	{ .path = "hl/second", .kind = IK_LINK, .target = "reg/hard", .nlink = 3 },
	{ .path = "link", .kind = IK_DIR },
	{ .path = "link/fast", .kind = IK_SYMLINK, .target = "../reg/inline" },
	{ .path = "link/slow", .kind = IK_SYMLINK, .size = 3000 },
	{ .path = "link/dangling", .kind = IK_SYMLINK, .target = "no/such/file" },
	{ .path = "special", .kind = IK_DIR },
	{ .path = "special/fifo", .kind = IK_FIFO },
	{ .path = "special/sock", .kind = IK_SOCK },
	{ .path = "special/chr-old", .kind = IK_CHR, .maj = 1, .min = 3 },
	{ .path = "special/blk-old", .kind = IK_BLK, .maj = 7, .min = 0 },
	{ .path = "special/chr-new", .kind = IK_CHR, .maj = 300, .min = 70000 },
	{ .path = "special/blk-new", .kind = IK_BLK, .maj = 259, .min = 1048575 },
	{ .path = "xattr", .kind = IK_DIR },
	{ .path = "xattr/inline", .kind = IK_REG, .size = 50 },
	{ .path = "xattr/fill", .kind = IK_REG, .size = 0 },
	{ .path = "xattr/big", .kind = IK_REG, .size = 3000 },
	{ .path = "xattr/ns", .kind = IK_REG, .size = 1000 },
	{ .path = "xattr/dir", .kind = IK_DIR },
	{ .path = "xattr/acl-dir", .kind = IK_DIR },
	{ .path = "xattr/acl-dir/child", .kind = IK_REG, .size = 10, .sp = SP_LATE },
	{ .path = "compr", .kind = IK_DIR, .feat = IF_COMPR, .preflags = FS_COMPR_FL },
	{ .path = "compr/text", .kind = IK_REG, .feat = IF_COMPR, .size = (1u << 20) + 5, .text = 1,
	  .sp = SP_COMPR },
	{ .path = "compr/random", .kind = IK_REG, .feat = IF_COMPR, .size = 65536, .sp = SP_COMPR },
	{ .path = "compr/empty", .kind = IK_REG, .feat = IF_COMPR, .size = 0, .sp = SP_COMPR },
	{ .path = "compr/small", .kind = IK_REG, .feat = IF_COMPR, .size = 3000, .text = 1,
	  .sp = SP_COMPR },
	{ .path = "compr/released", .kind = IK_REG, .feat = IF_COMPR, .size = 512u << 10, .text = 1,
	  .sp = SP_COMPR | SP_RELEASE },
	{ .path = "compr/zstd", .kind = IK_REG, .feat = IF_COMPR, .size = 300000, .text = 1,
	  .sp = SP_COMPR | SP_ZSTD },
	{ .path = "cf", .kind = IK_DIR, .feat = IF_CASEFOLD, .preflags = FS_CASEFOLD_FL },
	{ .path = "cf/Hello.TXT", .kind = IK_REG, .feat = IF_CASEFOLD, .size = 10,
	  .alias = "cf/hELLO.txt" },
	{ .path = "cf/Stra\303\237e", .kind = IK_REG, .feat = IF_CASEFOLD, .size = 20,
	  .alias = "cf/STRASSE" },
	{ .path = "cf/Sub", .kind = IK_DIR, .feat = IF_CASEFOLD, .alias = "cf/sub" },
	{ .path = "cf/Sub/MiXed", .kind = IK_REG, .feat = IF_CASEFOLD, .size = 33,
	  .alias = "cf/SUB/mixed" },
	{ .path = "cf/Many", .kind = IK_MANY, .feat = IF_CASEFOLD, .size = 300 },
	{ .path = "verity", .kind = IK_DIR, .feat = IF_VERITY },
	{ .path = "verity/file", .kind = IK_REG, .feat = IF_VERITY, .size = 100000,
	  .sp = SP_VERITY },
	{ .path = "proj", .kind = IK_DIR, .feat = IF_PROJ, .sp = SP_PROJDIR },
	{ .path = "proj/child", .kind = IK_REG, .feat = IF_PROJ, .size = 100, .sp = SP_PROJ43 },
	{ .path = "enc", .kind = IK_DIR, .feat = IF_ENCRYPT, .sp = SP_ENCRYPT },
	{ .path = "enc/file", .kind = IK_REG, .feat = IF_ENCRYPT, .size = 5000 },
	{ .path = "enc/small", .kind = IK_REG, .feat = IF_ENCRYPT, .size = 50 },
	{ .path = "enc/sub", .kind = IK_DIR, .feat = IF_ENCRYPT },
	{ .path = "enc/sub/deeper", .kind = IK_REG, .feat = IF_ENCRYPT, .size = 4096 },
	{ .path = "enc/link", .kind = IK_SYMLINK, .feat = IF_ENCRYPT, .target = "sub/deeper" },
	{ .path = "enc/long-link", .kind = IK_SYMLINK, .feat = IF_ENCRYPT, .size = 2000 },
	{ .path = "enc/fifo", .kind = IK_FIFO, .feat = IF_ENCRYPT },
	{ .path = "enc/many", .kind = IK_MANY, .feat = IF_ENCRYPT, .size = 300 },
	/* encrypted and casefolded: the kernel stores each name's hash (keyed
	 * by the directory's key) after the name */
	{ .path = "enc-cf", .kind = IK_DIR, .feat = IF_ENCRYPT | IF_CASEFOLD,
	  .preflags = FS_CASEFOLD_FL, .sp = SP_ENCRYPT },
	{ .path = "enc-cf/MiXed", .kind = IK_REG, .feat = IF_ENCRYPT | IF_CASEFOLD, .size = 70,
	  .alias = "enc-cf/mixed" },
	{ .path = "enc-cf/Sub", .kind = IK_DIR, .feat = IF_ENCRYPT | IF_CASEFOLD,
	  .alias = "enc-cf/SUB" },
	{ .path = "enc-cf/many", .kind = IK_MANY, .feat = IF_ENCRYPT | IF_CASEFOLD, .size = 250 },
};

enum xkind { XV_STREAM, XV_ACL, XV_CAP, XV_PRESENT };

struct ixattr {
	const char *path;
	const char *name;
	unsigned size;		/* XV_STREAM */
	enum xkind kind;
	unsigned feat;
};

static const struct ixattr ixattrs[] = {
	/* inline: one small user xattr */
	{ "xattr/inline", "user.small", 16, XV_STREAM, 0 },
	/* 24-byte header + (4 + 2 + 72 -> 80) + (4 + 2 + 90 -> 96) = 200 bytes:
	 * exactly the inline xattr area, no xattr node, no terminating word */
	{ "xattr/fill", "user.x1", 72, XV_STREAM, 0 },
	{ "xattr/fill", "user.x2", 90, XV_STREAM, 0 },
	/* too big for the inline area: an xattr node */
	{ "xattr/big", "user.big", 2000, XV_STREAM, 0 },
	/* every name index that can be set: user 1, POSIX ACL access 2,
	 * trusted 4, security 6 */
	{ "xattr/ns", "user.u", 10, XV_STREAM, 0 },
	{ "xattr/ns", "system.posix_acl_access", 0, XV_ACL, 0 },
	{ "xattr/ns", "trusted.t", 30, XV_STREAM, 0 },
	{ "xattr/ns", "security.test", 12, XV_STREAM, 0 },
	{ "xattr/ns", "security.capability", 0, XV_CAP, 0 },
	/* directories: user and trusted; POSIX ACL default 3 and access 2 */
	{ "xattr/dir", "user.d1", 40, XV_STREAM, 0 },
	{ "xattr/dir", "trusted.d2", 100, XV_STREAM, 0 },
	{ "xattr/acl-dir", "system.posix_acl_default", 0, XV_ACL, 0 },
	{ "xattr/acl-dir", "system.posix_acl_access", 0, XV_ACL, 0 },
	{ "xattr/acl-dir", "user.d", 20, XV_STREAM, 0 },
	/* created after the default ACL: inherits an access ACL */
	{ "xattr/acl-dir/child", "system.posix_acl_access", 0, XV_PRESENT, 0 },
	/* special files and symlinks (no user.* there: the VFS refuses it) */
	{ "special/fifo", "trusted.f", 20, XV_STREAM, 0 },
	{ "special/sock", "trusted.s", 5, XV_STREAM, 0 },
	{ "special/chr-new", "trusted.c", 30, XV_STREAM, 0 },
	{ "special/chr-new", "security.s", 8, XV_STREAM, 0 },
	{ "special/blk-old", "trusted.b", 64, XV_STREAM, 0 },
	{ "link/fast", "trusted.l", 16, XV_STREAM, 0 },
	{ "link/slow", "trusted.l", 300, XV_STREAM, 0 },
	/* with other features */
	{ "compr/text", "user.c", 50, XV_STREAM, IF_COMPR },
	{ "cf/Sub", "user.cf", 10, XV_STREAM, IF_CASEFOLD },
	{ "enc/file", "user.e", 33, XV_STREAM, IF_ENCRYPT },
	{ "reg/proj", "user.p", 300, XV_STREAM, IF_PROJ },
};

static unsigned img_feat;
static uint64_t iseed;

/* POSIX ACL, xattr format: version 2; USER_OBJ rw, USER 1000 rw, GROUP_OBJ r,
 * MASK rw, OTHER r. */
static size_t make_acl(unsigned char *v)
{
	static const struct { uint16_t tag, perm; uint32_t id; } e[] = {
		{ 0x01, 6, 0xffffffffu }, { 0x02, 6, 1000 }, { 0x04, 4, 0xffffffffu },
		{ 0x10, 6, 0xffffffffu }, { 0x20, 4, 0xffffffffu },
	};
	size_t n = 0;

	v[n++] = 2, v[n++] = 0, v[n++] = 0, v[n++] = 0;
	for (size_t i = 0; i < sizeof(e) / sizeof(e[0]); i++) {
		v[n++] = (unsigned char)e[i].tag, v[n++] = (unsigned char)(e[i].tag >> 8);
		v[n++] = (unsigned char)e[i].perm, v[n++] = 0;
		for (int b = 0; b < 32; b += 8)
			v[n++] = (unsigned char)(e[i].id >> b);
	}
	return n;
}

/* vfs_cap_data revision 2, effective: CAP_NET_BIND_SERVICE permitted. */
static size_t make_cap(unsigned char *v)
{
	static const uint32_t w[5] = { 0x02000001u, 1u << 10, 0, 0, 0 };

	for (int i = 0; i < 5; i++)
		for (int b = 0; b < 4; b++)
			v[i * 4 + b] = (unsigned char)(w[i] >> (8 * b));
	return 20;
}

static size_t ixattr_value(const struct ixattr *x, unsigned char *v)
{
	switch (x->kind) {
	case XV_ACL:
		return make_acl(v);
	case XV_CAP:
		return make_cap(v);
	case XV_STREAM:
		stream_bytes(name_seed(x->name, name_seed(x->path, iseed)), 0, 0, x->size, v);
		return x->size;
	default:
		return 0;
	}
}

static uint64_t ient_seed(const struct ient *e)
{
	return name_seed(e->path, iseed);
}

/* A generated symlink target of @len bytes: path components of 9 letters. */
static void gen_target(const struct ient *e, char *buf)
{
	for (uint64_t i = 0; i < e->size; i++)
		buf[i] = i % 10 == 9 ? '/' : (char)('a' + (ient_seed(e) + i) % 26);
	buf[e->size] = '\0';
}

static const char *target_of(const struct ient *e, char *buf)
{
	if (e->target)
		return e->target;
	gen_target(e, buf);
	return buf;
}

static void many_name(const struct ient *e, unsigned i, char *buf, size_t len)
{
	int pad = (int)(i * 7 % 40);

	snprintf(buf, len, "%s/M%05u-%.*s", e->path, i, pad,
		 "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN");
}

/* The sparse file: three islands, the last one past 8 GiB (double indirect
 * node even with the largest inline areas), the middle one in the indirect
 * range. */
static const struct { uint64_t off, len; } islands[] = {
	{ 0, 4096 }, { 5 * GIB, 4096 }, { 9 * GIB, 2 * 4096 + 100 },
};

static int set_fsflags(const char *path, unsigned add)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
	int flags, ret = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0)
		ret = -errno;
	else {
		flags |= (int)add;
		if (ioctl(fd, FS_IOC_SETFLAGS, &flags) < 0)
			ret = -errno;
	}
	close(fd);
	return ret;
}

static int set_projid(const char *path, unsigned id, int inherit)
{
	struct fsxattr fa;
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, FS_IOC_FSGETXATTR, &fa) < 0)
		ret = -errno;
	else {
		fa.fsx_projid = id;
		if (inherit)
			fa.fsx_xflags |= FS_XFLAG_PROJINHERIT;
		if (ioctl(fd, FS_IOC_FSSETXATTR, &fa) < 0)
			ret = -errno;
	}
	close(fd);
	return ret;
}

static int get_projid(const char *path, unsigned *id)
{
	struct fsxattr fa;
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, FS_IOC_FSGETXATTR, &fa) < 0)
		ret = -errno;
	else
		*id = fa.fsx_projid;
	close(fd);
	return ret;
}

/* ---- fscrypt: one v2 master key, added to the file system at each boot ---- */

static uint8_t enc_key_id[FSCRYPT_KEY_IDENTIFIER_SIZE];

static int add_enc_key(const char *dir)
{
	struct {
		struct fscrypt_add_key_arg a;
		uint8_t raw[64];
	} k;
	int fd = open(dir, O_RDONLY | O_DIRECTORY), ret = 0;

	if (fd < 0)
		return -errno;
	memset(&k, 0, sizeof(k));
	k.a.key_spec.type = FSCRYPT_KEY_SPEC_TYPE_IDENTIFIER;
	k.a.raw_size = sizeof(k.raw);
	stream_bytes(0x6b6579, 0, 0, sizeof(k.raw), k.raw);
	if (ioctl(fd, FS_IOC_ADD_ENCRYPTION_KEY, &k) < 0)
		ret = -errno;
	else
		memcpy(enc_key_id, k.a.key_spec.u.identifier, sizeof(enc_key_id));
	close(fd);
	return ret;
}

static int set_enc_policy(const char *dir)
{
	struct fscrypt_policy_v2 p;
	int fd = open(dir, O_RDONLY | O_DIRECTORY), ret = 0;

	if (fd < 0)
		return -errno;
	memset(&p, 0, sizeof(p));
	p.version = FSCRYPT_POLICY_V2;
	p.contents_encryption_mode = FSCRYPT_MODE_AES_256_XTS;
	p.filenames_encryption_mode = FSCRYPT_MODE_AES_256_CTS;
	p.flags = FSCRYPT_POLICY_FLAGS_PAD_32;
	memcpy(p.master_key_identifier, enc_key_id, sizeof(enc_key_id));
	if (ioctl(fd, FS_IOC_SET_ENCRYPTION_POLICY, &p) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* ---- make ---- */

static void ifail(const struct ient *e, const char *what, int err)
{
	fail("%s: %s: %s", e->path, what, strerror(err));
}

static int open_new(const struct ient *e)
{
	int fd = open(e->path, O_WRONLY | O_CREAT | O_EXCL, 0644);

	if (fd < 0)
		ifail(e, "create", errno);
	return fd;
}

static void make_reg(const struct ient *e)
{
	int fd = open_new(e), err = 0;

	if (fd < 0)
		return;
	if (e->preflags) {
		err = set_fsflags(e->path, e->preflags);
		if (err)
			ifail(e, "FS_IOC_SETFLAGS (before writing)", -err);
	}
	if (e->sp & SP_ZSTD) {
		struct f2fs_comp_option o = { 2, 4 };	/* COMPRESS_ZSTD, 16 KiB */

		if (ioctl(fd, F2FS_IOC_SET_COMPRESS_OPTION, &o) < 0)
			ifail(e, "F2FS_IOC_SET_COMPRESS_OPTION", errno);
	}
	switch (e->kind) {
	case IK_SPARSE:
		for (size_t i = 0; i < sizeof(islands) / sizeof(islands[0]) && !err; i++)
			err = write_range(fd, ient_seed(e), 0, islands[i].off,
					  islands[i].off + islands[i].len);
		break;
	case IK_PREALLOC:
		if (fallocate(fd, 0, 0, (off_t)e->size))
			err = -errno;
		else
			err = write_range(fd, ient_seed(e), 0, 8192, 12288);
		if (!err && fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)e->size, 32768))
			err = -errno;
		break;
	case IK_PINNED: {
		uint32_t pin = 1;

		if (ioctl(fd, F2FS_IOC_SET_PIN_FILE, &pin) < 0)
			err = -errno;
		else if (fallocate(fd, 0, 0, (off_t)e->size))
			err = -errno;
		break;
	}
	default:
		err = write_range(fd, ient_seed(e), e->text, 0, e->size);
		break;
	}
	if (err)
		ifail(e, "write", -err);
	if (close(fd))
		ifail(e, "close", errno);
}

static void make_sock(const struct ient *e)
{
	struct sockaddr_un a;
	int s = socket(AF_UNIX, SOCK_STREAM, 0);

	if (s < 0) {
		ifail(e, "socket", errno);
		return;
	}
	memset(&a, 0, sizeof(a));
	a.sun_family = AF_UNIX;
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", e->path);
	if (bind(s, (struct sockaddr *)&a, sizeof(a)))
		ifail(e, "bind", errno);
	close(s);
}

static void make_ient(const struct ient *e)
{
	char buf[4096], name[600];
	int err;

	switch (e->kind) {
	case IK_DIR:
	case IK_MANY:
		if (mkdir(e->path, 0755)) {
			ifail(e, "mkdir", errno);
			return;
		}
		if (e->preflags && (err = set_fsflags(e->path, e->preflags)))
			ifail(e, "FS_IOC_SETFLAGS", -err);
		if ((e->sp & SP_ENCRYPT) && (err = set_enc_policy(e->path)))
			ifail(e, "FS_IOC_SET_ENCRYPTION_POLICY", -err);
		if ((e->sp & SP_PROJDIR) && (err = set_projid(e->path, 43, 1)))
			ifail(e, "FS_IOC_FSSETXATTR", -err);
		for (unsigned i = 0; e->kind == IK_MANY && i < e->size; i++) {
			int fd;

			many_name(e, i, name, sizeof(name));
			fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0644);
			if (fd < 0) {
				fail("create %s: %s", name, strerror(errno));
				return;
			}
			close(fd);
		}
		break;
	case IK_REG:
	case IK_SPARSE:
	case IK_PREALLOC:
	case IK_PINNED:
		make_reg(e);
		break;
	case IK_SYMLINK:
		if (symlink(target_of(e, buf), e->path))
			ifail(e, "symlink", errno);
		break;
	case IK_LINK:
		if (link(e->target, e->path))
			ifail(e, "link", errno);
		break;
	case IK_FIFO:
		if (mkfifo(e->path, 0640))
			ifail(e, "mkfifo", errno);
		break;
	case IK_SOCK:
		make_sock(e);
		break;
	case IK_CHR:
	case IK_BLK:
		if (mknod(e->path, (e->kind == IK_CHR ? S_IFCHR : S_IFBLK) | 0600,
			  makedev(e->maj, e->min)))
			ifail(e, "mknod", errno);
		break;
	}
}

/* The steps after content and xattrs: owner, times, flags, ioctls. */
static void finish_ient(const struct ient *e)
{
	int err;

	if (e->sp & SP_OWNER) {
		/* atime after mtime and ctime, and in the future: relatime
		 * leaves it alone when the file is read */
		struct timespec ts[2] = { { (1ll << 33) + 100, 123456789 },
					  { 1ll << 33, 987654321 } };

		if (chown(e->path, 100000, 200000) || chmod(e->path, 06755) ||
		    utimensat(AT_FDCWD, e->path, ts, 0))
			ifail(e, "owner/mode/times", errno);
	}
	if (e->sp & SP_OLDTIME) {
		struct timespec ts[2] = { { -315619200, 5 }, { -315619200, 5 } };

		if (utimensat(AT_FDCWD, e->path, ts, 0))
			ifail(e, "utimensat", errno);
	}
	if (e->sp & SP_ADVISE) {
		unsigned char cold = 1;

		if (setxattr(e->path, "system.advise", &cold, 1, 0))
			ifail(e, "system.advise", errno);
	}
	if ((e->sp & SP_PROJ) && (err = set_projid(e->path, 42, 0)))
		ifail(e, "FS_IOC_FSSETXATTR", -err);
	if (e->sp & SP_VERITY) {
		struct fsverity_enable_arg a;
		int fd = open(e->path, O_RDONLY);

		memset(&a, 0, sizeof(a));
		a.version = 1;
		a.hash_algorithm = FS_VERITY_HASH_ALG_SHA256;
		a.block_size = 4096;
		if (fd < 0 || ioctl(fd, FS_IOC_ENABLE_VERITY, &a) < 0)
			ifail(e, "FS_IOC_ENABLE_VERITY", errno);
		if (fd >= 0)
			close(fd);
	}
	if (e->sp & SP_RELEASE) {
		uint64_t n = 0;
		int fd = open(e->path, O_RDONLY);

		if (fd < 0 || ioctl(fd, F2FS_IOC_RELEASE_COMPRESS_BLOCKS, &n) < 0)
			ifail(e, "F2FS_IOC_RELEASE_COMPRESS_BLOCKS", errno);
		else if (!n)
			fail("%s: no compressed block released", e->path);
		if (fd >= 0)
			close(fd);
	}
	if (e->postflags && (err = set_fsflags(e->path, e->postflags)))
		ifail(e, "FS_IOC_SETFLAGS", -err);
}

static int wanted(unsigned feat)
{
	return (feat & img_feat) == feat;
}

static int inodes_make(void)
{
	unsigned char v[4096];
	unsigned n = 0, nx = 0;

	for (size_t i = 0; i < sizeof(ients) / sizeof(ients[0]); i++)
		if (wanted(ients[i].feat) && !(ients[i].sp & SP_LATE)) {
			make_ient(&ients[i]);
			n++;
		}
	for (size_t i = 0; i < sizeof(ixattrs) / sizeof(ixattrs[0]); i++) {
		const struct ixattr *x = &ixattrs[i];
		size_t len;

		if (!wanted(x->feat) || x->kind == XV_PRESENT)
			continue;
		len = ixattr_value(x, v);
		if (lsetxattr(x->path, x->name, v, len, XATTR_CREATE))
			fail("%s: setxattr %s: %s", x->path, x->name, strerror(errno));
		nx++;
	}
	for (size_t i = 0; i < sizeof(ients) / sizeof(ients[0]); i++)
		if (wanted(ients[i].feat) && (ients[i].sp & SP_LATE)) {
			make_ient(&ients[i]);
			n++;
		}
	for (size_t i = 0; i < sizeof(ients) / sizeof(ients[0]); i++)
		if (wanted(ients[i].feat))
			finish_ient(&ients[i]);
	if (!failures)
		printf("inodes make: %u entries, %u xattrs\n", n, nx);
	return failures ? 1 : 0;
}

/* ---- verify ---- */

static void verify_reg(const struct ient *e, const struct stat *st)
{
	uint64_t seed = ient_seed(e);
	int fd;

	if ((uint64_t)st->st_size != e->size) {
		fail("%s: size %lld, want %" PRIu64, e->path, (long long)st->st_size, e->size);
		return;
	}
	fd = open(e->path, O_RDONLY);
	if (fd < 0) {
		ifail(e, "open", errno);
		return;
	}
	switch (e->kind) {
	case IK_SPARSE: {
		uint64_t at = 0;

		for (size_t i = 0; i < sizeof(islands) / sizeof(islands[0]); i++) {
			/* the holes: a block on each side of every island */
			if (islands[i].off > at)
				check_range(fd, e->path, seed, 0, 1, islands[i].off - 4096, islands[i].off);
			check_range(fd, e->path, seed, 0, 0, islands[i].off,
				    islands[i].off + islands[i].len);
			at = islands[i].off + islands[i].len;
		}
		check_range(fd, e->path, seed, 0, 1, 4096, 8192);
		if ((uint64_t)st->st_blocks * 512 > 64 * 4096)
			fail("%s: %lld blocks allocated, the holes are not holes", e->path,
			     (long long)st->st_blocks);
		break;
	}
	case IK_PREALLOC:
		check_range(fd, e->path, seed, 0, 1, 0, 8192);
		check_range(fd, e->path, seed, 0, 0, 8192, 12288);
		check_range(fd, e->path, seed, 0, 1, 12288, e->size);
		if ((uint64_t)st->st_blocks * 512 < e->size + 32768)
			fail("%s: %lld sectors allocated, want the preallocated %" PRIu64 " bytes",
			     e->path, (long long)st->st_blocks, e->size + 32768);
		break;
	case IK_PINNED:
		if ((uint64_t)st->st_blocks * 512 < e->size)
			fail("%s: %lld sectors allocated, want %" PRIu64 " bytes", e->path,
			     (long long)st->st_blocks, e->size);
		break;
	default:
		check_range(fd, e->path, seed, e->text, 0, 0, e->size);
		break;
	}
	close(fd);
}

static void verify_many(const struct ient *e)
{
	char name[600];
	struct dirent *d;
	struct stat st;
	unsigned got = 0;
	DIR *dp;

	for (unsigned i = 0; i < e->size; i++) {
		many_name(e, i, name, sizeof(name));
		if (lstat(name, &st) || !S_ISREG(st.st_mode) || st.st_size)
			fail("%s: missing or not an empty file", name);
	}
	dp = opendir(e->path);
	if (!dp) {
		ifail(e, "opendir", errno);
		return;
	}
	while ((d = readdir(dp)))
		if (d->d_name[0] == 'M')
			got++;
	closedir(dp);
	if (got != e->size)
		fail("%s: %u entries, want %" PRIu64, e->path, got, e->size);
}

static void verify_ient(const struct ient *e)
{
	static const struct { enum ikind k; mode_t m; } types[] = {
		{ IK_DIR, S_IFDIR }, { IK_MANY, S_IFDIR }, { IK_REG, S_IFREG },
		{ IK_SPARSE, S_IFREG }, { IK_PREALLOC, S_IFREG }, { IK_PINNED, S_IFREG },
		{ IK_LINK, S_IFREG }, { IK_SYMLINK, S_IFLNK }, { IK_FIFO, S_IFIFO },
		{ IK_SOCK, S_IFSOCK }, { IK_CHR, S_IFCHR }, { IK_BLK, S_IFBLK },
	};
	const struct ient *data = e;
	char want[4096], got[4096];
	struct stat st, st2;
	mode_t m = 0;

	if (lstat(e->path, &st)) {
		ifail(e, "lstat", errno);
		return;
	}
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (types[i].k == e->kind)
			m = types[i].m;
	if ((st.st_mode & S_IFMT) != m) {
		fail("%s: file type %o, want %o", e->path, st.st_mode & S_IFMT, m);
		return;
	}
	if (e->alias && (stat(e->alias, &st2) || st2.st_ino != st.st_ino))
		fail("%s: not found as %s (casefolding)", e->path, e->alias);
	if (e->kind == IK_LINK) {
		for (size_t i = 0; i < sizeof(ients) / sizeof(ients[0]); i++)
			if (!strcmp(ients[i].path, e->target))
				data = &ients[i];
	}
	if (m == S_IFREG && st.st_nlink != (data->nlink ? data->nlink : 1))
		fail("%s: nlink %lu, want %u", e->path, (unsigned long)st.st_nlink,
		     data->nlink ? data->nlink : 1);
	switch (e->kind) {
	case IK_REG:
	case IK_SPARSE:
	case IK_PREALLOC:
	case IK_PINNED:
	case IK_LINK:
		verify_reg(data, &st);
		break;
	case IK_MANY:
		verify_many(e);
		break;
	case IK_SYMLINK: {
		const char *t = target_of(e, want);
		ssize_t n = readlink(e->path, got, sizeof(got));

		if (n < 0 || (size_t)n != strlen(t) || memcmp(got, t, (size_t)n))
			fail("%s: symlink target differs", e->path);
		if ((uint64_t)st.st_size != strlen(t))
			fail("%s: symlink size %lld, want %zu", e->path, (long long)st.st_size,
			     strlen(t));
		break;
	}
	case IK_CHR:
	case IK_BLK:
		if (major(st.st_rdev) != e->maj || minor(st.st_rdev) != e->min)
			fail("%s: device %u:%u, want %u:%u", e->path, major(st.st_rdev),
			     minor(st.st_rdev), e->maj, e->min);
		break;
	default:
		break;
	}
	if (e->sp & SP_OWNER) {
		if (st.st_uid != 100000 || st.st_gid != 200000 || (st.st_mode & 07777) != 06755 ||
		    st.st_mtim.tv_sec != 1ll << 33 || st.st_mtim.tv_nsec != 987654321 ||
		    st.st_atim.tv_sec != (1ll << 33) + 100 || st.st_atim.tv_nsec != 123456789)
			fail("%s: owner %u:%u mode %o mtime %lld.%09ld atime %lld.%09ld, want "
			     "100000:200000 6755 %lld.987654321 %lld.123456789", e->path, st.st_uid,
			     st.st_gid, st.st_mode & 07777, (long long)st.st_mtim.tv_sec,
			     st.st_mtim.tv_nsec, (long long)st.st_atim.tv_sec, st.st_atim.tv_nsec,
			     1ll << 33, (1ll << 33) + 100);
	}
	if ((e->sp & SP_OLDTIME) && (st.st_mtim.tv_sec != -315619200 || st.st_mtim.tv_nsec != 5))
		fail("%s: mtime %lld.%09ld, want -315619200.000000005", e->path,
		     (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	if (e->sp & SP_ADVISE) {
		unsigned char adv = 0;

		if (getxattr(e->path, "system.advise", &adv, 1) != 1 || !(adv & 1))
			fail("%s: system.advise lost the cold bit (0x%02x)", e->path, adv);
	}
	if (e->sp & (SP_PROJ | SP_PROJDIR | SP_PROJ43)) {
		unsigned id = 0, want_id = e->sp & SP_PROJ ? 42 : 43;
		int err = get_projid(e->path, &id);

		if (err || id != want_id)
			fail("%s: project id %u, want %u", e->path, id, want_id);
	}
	if (m == S_IFREG || m == S_IFDIR) {
		unsigned want_fl = e->preflags | e->postflags;
		int flags = 0, err;

		if (e->sp & SP_COMPR)
			want_fl |= FS_COMPR_FL;
		if (e->sp & SP_VERITY)
			want_fl |= FS_VERITY_FL;
		if (!strncmp(e->path, "enc", 3))	/* enc, enc-cf and below */
			want_fl |= FS_ENCRYPT_FL;
		err = get_flags(e->path, &flags);
		if (err || ((unsigned)flags & want_fl) != want_fl)
			fail("%s: inode flags 0x%x, want 0x%x set", e->path, flags, want_fl);
	}
}

static int inodes_verify(void)
{
	unsigned char want[4096], got[4096];
	unsigned n = 0, nx = 0;

	for (size_t i = 0; i < sizeof(ients) / sizeof(ients[0]); i++)
		if (wanted(ients[i].feat)) {
			verify_ient(&ients[i]);
			n++;
		}
	for (size_t i = 0; i < sizeof(ixattrs) / sizeof(ixattrs[0]); i++) {
		const struct ixattr *x = &ixattrs[i];
		size_t len;
		ssize_t r;

		if (!wanted(x->feat))
			continue;
		nx++;
		len = ixattr_value(x, want);
		r = lgetxattr(x->path, x->name, got, sizeof(got));
		if (r < 0)
			fail("%s: getxattr %s: %s", x->path, x->name, strerror(errno));
		else if (x->kind != XV_PRESENT && ((size_t)r != len || memcmp(got, want, len)))
			fail("%s: xattr %s: %zd bytes read back, differ from the %zu written",
			     x->path, x->name, r, len);
	}
	if (failures)
		fprintf(stderr, "ktool: %d problem(s) among the inodes\n", failures);
	else
		printf("inodes verify: %u entries, %u xattrs ok\n", n, nx);
	return failures ? 1 : 0;
}

/* ktool inodes make|verify|key DIR FEATURES [SEED] */
static int cmd_inodes(int argc, char **argv)
{
	static const struct { const char *name; unsigned bit; } feats[] = {
		{ "compr", IF_COMPR }, { "casefold", IF_CASEFOLD }, { "proj", IF_PROJ },
		{ "verity", IF_VERITY }, { "encrypt", IF_ENCRYPT },
	};
	char list[256], *tok, *save = NULL;

	if (argc < 4 || argc > 5)
		return 2;
	snprintf(list, sizeof(list), "%s", argv[3]);
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i = 0, n = sizeof(feats) / sizeof(feats[0]);

		while (i < n && strcmp(tok, feats[i].name))
			i++;
		if (i < n) {
			img_feat |= feats[i].bit;
		} else if (strcmp(tok, "-")) {
			fprintf(stderr, "ktool: unknown feature %s\n", tok);
			return 2;
		}
	}
	iseed = argc == 5 ? strtoull(argv[4], NULL, 0) : 1;
	if (chdir(argv[2])) {
		fprintf(stderr, "ktool: chdir %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	if ((img_feat & IF_ENCRYPT)) {
		int err = add_enc_key(".");

		if (err) {
			fprintf(stderr, "ktool: FS_IOC_ADD_ENCRYPTION_KEY: %s\n", strerror(-err));
			return 1;
		}
	}
	if (!strcmp(argv[1], "make"))
		return inodes_make();
	if (!strcmp(argv[1], "verify"))
		return inodes_verify();
	if (!strcmp(argv[1], "key"))
		return 0;
	return 2;
}

/* ---- single steps for the power-cut scenario ---- */

/* ktool xattr PATH NAME SIZE [-f]: set NAME to SIZE bytes of its stream
 * (a function of the file's base name and NAME); -f fsyncs the file. */
static int cmd_xattr(int argc, char **argv)
{
	unsigned char v[65536];
	size_t size;

	if (argc < 4 || argc > 5 || (argc == 5 && strcmp(argv[4], "-f")))
		return 2;
	size = strtoul(argv[3], NULL, 0);
	if (size > sizeof(v))
		return 2;
	stream_bytes(name_seed(argv[2], name_seed(base_name(argv[1]), 0)), 0, 0, size, v);
	if (lsetxattr(argv[1], argv[2], v, size, 0)) {
		fprintf(stderr, "ktool: setxattr %s %s: %s\n", argv[1], argv[2], strerror(errno));
		return 1;
	}
	if (argc == 5) {
		int fd = open(argv[1], O_RDONLY);

		if (fd < 0 || fsync(fd)) {
			fprintf(stderr, "ktool: fsync %s: %s\n", argv[1], strerror(errno));
			return 1;
		}
		close(fd);
	}
	return 0;
}

/* ktool xattr-check PATH NAME SIZE */
static int cmd_xattr_check(int argc, char **argv)
{
	unsigned char want[65536], got[65536];
	size_t size;
	ssize_t r;

	if (argc != 4)
		return 2;
	size = strtoul(argv[3], NULL, 0);
	if (size > sizeof(want))
		return 2;
	stream_bytes(name_seed(argv[2], name_seed(base_name(argv[1]), 0)), 0, 0, size, want);
	r = lgetxattr(argv[1], argv[2], got, sizeof(got));
	if (r < 0) {
		fprintf(stderr, "ktool: getxattr %s %s: %s\n", argv[1], argv[2], strerror(errno));
		return 1;
	}
	if ((size_t)r != size || memcmp(got, want, size)) {
		fprintf(stderr, "ktool: %s: xattr %s differs (%zd bytes, want %zu)\n", argv[1],
			argv[2], r, size);
		return 1;
	}
	return 0;
}

/* ktool fsync PATH: fsync a file or a directory. */
static int cmd_fsync(int argc, char **argv)
{
	int fd;

	if (argc != 2)
		return 2;
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fsync(fd)) {
		fprintf(stderr, "ktool: fsync %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	close(fd);
	return 0;
}

/* ktool node PATH c|b|p|s [MAJOR MINOR]: the file must be of that type
 * (character or block device, FIFO, socket) and, for devices, number. */
static int cmd_node(int argc, char **argv)
{
	struct stat st;
	mode_t want;

	if (argc < 3 || strlen(argv[2]) != 1)
		return 2;
	switch (argv[2][0]) {
	case 'c': want = S_IFCHR; break;
	case 'b': want = S_IFBLK; break;
	case 'p': want = S_IFIFO; break;
	case 's': want = S_IFSOCK; break;
	default: return 2;
	}
	if ((want == S_IFCHR || want == S_IFBLK) != (argc == 5))
		return 2;
	if (lstat(argv[1], &st)) {
		fprintf(stderr, "ktool: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if ((st.st_mode & S_IFMT) != want) {
		fprintf(stderr, "ktool: %s: type %o, want %o\n", argv[1], st.st_mode & S_IFMT, want);
		return 1;
	}
	if (argc == 5 && (major(st.st_rdev) != strtoul(argv[3], NULL, 0) ||
			  minor(st.st_rdev) != strtoul(argv[4], NULL, 0))) {
		fprintf(stderr, "ktool: %s: device %u:%u, want %s:%s\n", argv[1],
			major(st.st_rdev), minor(st.st_rdev), argv[3], argv[4]);
		return 1;
	}
	return 0;
}

/* ktool hold PATH SIZE: create PATH with SIZE bytes, unlink it while it is
 * open, and have a checkpoint taken (syncfs) with the open orphan in it.  A
 * child keeps the file open until the guest dies; ktool returns once the
 * checkpoint is done. */
static int cmd_hold(int argc, char **argv)
{
	int pfd[2], fd, err = 0;
	char ok = 0;
	pid_t pid;

	if (argc != 3)
		return 2;
	if (pipe(pfd))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid > 0) {
		close(pfd[1]);
		if (read(pfd[0], &ok, 1) != 1 || ok != 'y') {
			fprintf(stderr, "ktool: hold %s failed\n", argv[1]);
			return 1;
		}
		return 0;
	}
	close(pfd[0]);
	fd = open(argv[1], O_RDWR | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		err = errno;
	else if ((err = -write_range(fd, name_seed(base_name(argv[1]), 0), 0, 0,
				     strtoull(argv[2], NULL, 0))))
		;
	else if (fsync(fd) || unlink(argv[1]) || syncfs(fd))
		err = errno;
	if (err)
		fprintf(stderr, "ktool: hold %s: %s\n", argv[1], strerror(err));
	ok = err ? 'n' : 'y';
	if (write(pfd[1], &ok, 1) != 1)
		_exit(1);
	close(pfd[1]);
	if (err)
		_exit(1);
	/* Keep the orphan open: no stdio any more, nothing else to do. */
	close(0);
	close(1);
	close(2);
	for (;;)
		pause();
}

/* ---------- odds and ends ---------- */

/* FS_CASEFOLD_FL on an empty directory of a casefold-enabled volume. */
static int cmd_casefold(int argc, char **argv)
{
	int fd, flags;

	if (argc != 2)
		return 2;
	fd = open(argv[1], O_RDONLY | O_DIRECTORY);
	if (fd < 0 || ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0) {
		fprintf(stderr, "ktool: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	flags |= 0x40000000;	/* FS_CASEFOLD_FL */
	if (ioctl(fd, FS_IOC_SETFLAGS, &flags) < 0) {
		fprintf(stderr, "ktool: %s: FS_CASEFOLD_FL: %s\n", argv[1], strerror(errno));
		close(fd);
		return 1;
	}
	close(fd);
	return 0;
}

static int cmd_compr(int argc, char **argv)
{
	int err;

	if (argc != 2)
		return 2;
	err = set_compr(argv[1]);
	if (err) {
		fprintf(stderr, "ktool: %s: FS_COMPR_FL: %s\n", argv[1], strerror(-err));
		return 1;
	}
	return 0;
}

static int cmd_quota(int argc, char **argv)
{
	static const char *const types[] = { "usr", "grp", "prj" };
	struct dqblk dq;
	unsigned long long kib;
	int type = USRQUOTA;
	unsigned id = 0;

	if (argc != 4 && argc != 6)
		return 2;
	if (argc == 6) {
		for (type = 0; type < 3 && strcmp(argv[4], types[type]); type++)
			;
		if (type == 3)
			return 2;
		id = (unsigned)strtoul(argv[5], NULL, 0);
	}
	memset(&dq, 0, sizeof(dq));
	if (quotactl(QCMD(Q_GETQUOTA, type), argv[1], (int)id, (caddr_t)&dq)) {
		fprintf(stderr, "ktool: quotactl %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	kib = (unsigned long long)dq.dqb_curspace / 1024;
	printf("quota: %s id %u uses %llu KiB in %llu inodes\n", types[type], id, kib,
	       (unsigned long long)dq.dqb_curinodes);
	if (kib < strtoull(argv[2], NULL, 0) || dq.dqb_curinodes < strtoull(argv[3], NULL, 0)) {
		fprintf(stderr, "ktool: quota usage of %s id %u is too low\n", types[type], id);
		return 1;
	}
	return 0;
}

static int cmd_rofs(int argc, char **argv)
{
	char path[600];
	int fd;

	if (argc != 2)
		return 2;
	snprintf(path, sizeof(path), "%s/.rofs-probe", argv[1]);
	fd = open(path, O_WRONLY | O_CREAT, 0644);
	if (fd >= 0) {
		close(fd);
		unlink(path);
		fprintf(stderr, "ktool: %s is writable\n", argv[1]);
		return 1;
	}
	if (errno != EROFS) {
		fprintf(stderr, "ktool: %s: %s, want EROFS\n", path, strerror(errno));
		return 1;
	}
	return 0;
}

/* Print one line per zone of a zoned block device, in batches of 256. */
static int cmd_zones(int argc, char **argv)
{
	enum { BATCH = 256 };
	struct blk_zone_report *rep;
	uint64_t sector = 0, n = 0;
	int fd;

	if (argc != 2)
		return 2;
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "ktool: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	rep = calloc(1, sizeof(*rep) + BATCH * sizeof(struct blk_zone));
	if (!rep) {
		close(fd);
		return 1;
	}
	for (;;) {
		rep->sector = sector;
		rep->nr_zones = BATCH;
		if (ioctl(fd, BLKREPORTZONE, rep) < 0) {
			fprintf(stderr, "ktool: BLKREPORTZONE %s: %s\n", argv[1], strerror(errno));
			free(rep);
			close(fd);
			return 1;
		}
		if (rep->nr_zones == 0)
			break;
		for (uint32_t i = 0; i < rep->nr_zones; i++, n++) {
			const struct blk_zone *z = &rep->zones[i];
			uint64_t cap = (rep->flags & BLK_ZONE_REP_CAPACITY) ? z->capacity : z->len;

			printf("zone %" PRIu64 " type %u cond %u start %llu len %llu wp %llu cap %" PRIu64 "\n",
			       n, z->type, z->cond, (unsigned long long)z->start,
			       (unsigned long long)z->len, (unsigned long long)z->wp, cap);
			sector = z->start + z->len;
		}
	}
	printf("zones: %" PRIu64 "\n", n);
	free(rep);
	close(fd);
	return 0;
}

#ifndef F2FS_IOC_SHUTDOWN
#define F2FS_IOC_SHUTDOWN _IOR('X', 125, uint32_t)
#endif

/* F2FS's file ioctls (include/uapi/linux/f2fs.h) */
#define KT_IOC_START_ATOMIC_WRITE	_IO(0xf5, 1)
#define KT_IOC_COMMIT_ATOMIC_WRITE	_IO(0xf5, 2)
#define KT_IOC_ABORT_ATOMIC_WRITE	_IO(0xf5, 5)
#define KT_IOC_WRITE_CHECKPOINT		_IO(0xf5, 7)
#define KT_IOC_GET_COMPRESS_BLOCKS	_IOR(0xf5, 17, uint64_t)
#define KT_IOC_RESERVE_COMPRESS_BLOCKS	_IOR(0xf5, 19, uint64_t)
#define KT_IOC_DECOMPRESS_FILE		_IO(0xf5, 23)
#define KT_IOC_COMPRESS_FILE		_IO(0xf5, 24)

/* Overwrite the first n blocks of fd with zeroes. */
static int write_zero_blocks(int fd, long n)
{
	static unsigned char zero[BLK];

	for (long i = 0; i < n; i++)
		if (pwrite(fd, zero, BLK, (off_t)i * BLK) != BLK)
			return -1;
	return 0;
}

/* An atomic write of n zero blocks: committed, committed after a GC
 * round, aborted, or dropped by closing the file. */
static int ioc_atomic(int fd, const char *op, long n)
{
	uint32_t sync = 1;

	if (ioctl(fd, KT_IOC_START_ATOMIC_WRITE) || write_zero_blocks(fd, n))
		return -1;
	if (!strcmp(op, "atomic-gc") &&
	    ioctl(fd, F2FS_IOC_GARBAGE_COLLECT, &sync) && errno != EAGAIN && errno != ENODATA)
		return -1;
	if (!strcmp(op, "atomic-abort"))
		return ioctl(fd, KT_IOC_ABORT_ATOMIC_WRITE);
	if (!strcmp(op, "atomic-drop"))
		return 0;
	return ioctl(fd, KT_IOC_COMMIT_ATOMIC_WRITE);
}

/* fallocate n blocks past the end, one at a time until ENOSPC. */
static int ioc_fallocate(int fd, long n)
{
	struct stat st;
	long got = 0;

	if (fstat(fd, &st))
		return -1;
	for (; got < n; got++)
		if (fallocate(fd, 0, st.st_size + (off_t)got * BLK, BLK)) {
			if (errno != ENOSPC)
				return -1;
			break;
		}
	printf("%ld\n", got);
	return 0;
}

/* fallocate(2) with a mode named as xfs_io's commands are. */
static int ioc_falloc(int fd, const char *mode, off_t off, off_t len)
{
	static const struct { const char *name; int mode; } modes[] = {
		{ "plain", 0 },
		{ "keep", FALLOC_FL_KEEP_SIZE },
		{ "punch", FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE },
		{ "zero", FALLOC_FL_ZERO_RANGE },
		{ "collapse", FALLOC_FL_COLLAPSE_RANGE },
		{ "insert", FALLOC_FL_INSERT_RANGE },
	};

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(mode, modes[i].name))
			return fallocate(fd, modes[i].mode, off, len);
	errno = EINVAL;
	return -1;
}

static int cmd_ioc(int argc, char **argv)
{
	const char *op = argc > 2 ? argv[2] : "";
	long n = argc > 3 ? atol(argv[3]) : 0;
	uint64_t count = 0;
	uint32_t one = 1;
	int fd, ret;

	if (argc < 3 || (argc > 4 && strcmp(op, "falloc")) || (!strcmp(op, "falloc") && argc != 6))
		return 2;
	/* writers, and (de)compression, which rewrites the data, need a
	 * writable descriptor */
	fd = open(argv[1], strncmp(op, "atomic", 6) && strncmp(op, "falloc", 6) &&
		  strcmp(op, "compress") && strcmp(op, "decompress") ? O_RDONLY : O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "ktool: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (!strncmp(op, "atomic", 6))
		ret = ioc_atomic(fd, op, n);
	else if (!strcmp(op, "compress"))
		ret = ioctl(fd, KT_IOC_COMPRESS_FILE);
	else if (!strcmp(op, "decompress"))
		ret = ioctl(fd, KT_IOC_DECOMPRESS_FILE);
	else if (!strcmp(op, "release") || !strcmp(op, "reserve") || !strcmp(op, "cblocks")) {
		ret = ioctl(fd, !strcmp(op, "release") ? F2FS_IOC_RELEASE_COMPRESS_BLOCKS :
			    !strcmp(op, "reserve") ? KT_IOC_RESERVE_COMPRESS_BLOCKS :
			    KT_IOC_GET_COMPRESS_BLOCKS, &count);
		if (!ret)
			printf("%" PRIu64 "\n", count);
	} else if (!strcmp(op, "pin"))
		ret = ioctl(fd, F2FS_IOC_SET_PIN_FILE, &one);
	else if (!strcmp(op, "fallocate"))
		ret = ioc_fallocate(fd, n);
	else if (!strcmp(op, "falloc"))
		ret = ioc_falloc(fd, argv[3], (off_t)strtoll(argv[4], NULL, 0),
				 (off_t)strtoll(argv[5], NULL, 0));
	else if (!strcmp(op, "checkpoint"))
		ret = ioctl(fd, KT_IOC_WRITE_CHECKPOINT);
	else {
		close(fd);
		return 2;
	}
	if (ret) {
		fprintf(stderr, "ktool: ioc %s %s: %s\n", argv[1], op, strerror(errno));
		close(fd);
		return 1;
	}
	if (close(fd)) {
		fprintf(stderr, "ktool: ioc %s %s: close: %s\n", argv[1], op, strerror(errno));
		return 1;
	}
	return 0;
}

static int cmd_whiteout(int argc, char **argv)
{
	char from[4096], to[4096];

	if (argc != 3)
		return 2;
	snprintf(from, sizeof(from), "%s/%s", argv[1], argv[2]);
	snprintf(to, sizeof(to), "%s/%s.moved", argv[1], argv[2]);
	if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_WHITEOUT)) {
		fprintf(stderr, "ktool: whiteout %s: %s\n", from, strerror(errno));
		return 1;
	}
	return 0;
}

static int cmd_tmpfile(int argc, char **argv)
{
	char path[4096], proc[64];
	int fd, err;

	if (argc != 4)
		return 2;
	fd = open(argv[1], O_TMPFILE | O_RDWR, 0644);
	if (fd < 0) {
		fprintf(stderr, "ktool: tmpfile in %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	err = write_range(fd, name_seed(argv[2], 0), 0, 0, strtoull(argv[3], NULL, 0));
	snprintf(path, sizeof(path), "%s/%s", argv[1], argv[2]);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (!err && linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW))
		err = -errno;
	close(fd);
	if (err) {
		fprintf(stderr, "ktool: tmpfile %s: %s\n", path, strerror(-err));
		return 1;
	}
	return 0;
}

static int cmd_shutdown(int argc, char **argv)
{
	uint32_t how = 0x2;	/* F2FS_GOING_DOWN_NOSYNC */
	int fd;

	if (argc != 2)
		return 2;
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || ioctl(fd, F2FS_IOC_SHUTDOWN, &how) < 0) {
		fprintf(stderr, "ktool: shutdown %s: %s\n", argv[1], strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	close(fd);
	return 0;
}

static int cmd_zone_reset(int argc, char **argv)
{
	struct blk_zone_report *rep;
	struct blk_zone_range range;
	int fd, ret = 1;

	if (argc != 3)
		return 2;
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "ktool: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	rep = calloc(1, sizeof(*rep) + sizeof(struct blk_zone));
	if (rep) {
		rep->sector = strtoull(argv[2], NULL, 0);
		rep->nr_zones = 1;
		if (ioctl(fd, BLKREPORTZONE, rep) == 0 && rep->nr_zones == 1) {
			range.sector = rep->zones[0].start;
			range.nr_sectors = rep->zones[0].len;
			if (ioctl(fd, BLKRESETZONE, &range) == 0)
				ret = 0;
		}
		if (ret)
			fprintf(stderr, "ktool: reset zone at %s of %s: %s\n", argv[2], argv[1], strerror(errno));
		free(rep);
	}
	close(fd);
	return ret;
}

static int cmd_zone_write(int argc, char **argv)
{
	uint64_t blk, count;
	void *buf;
	int fd, ret = 0;

	if (argc != 4)
		return 2;
	blk = strtoull(argv[2], NULL, 0);
	count = strtoull(argv[3], NULL, 0);
	fd = open(argv[1], O_WRONLY | O_DIRECT);
	if (fd < 0 || posix_memalign(&buf, BLK, BLK)) {
		fprintf(stderr, "ktool: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	memset(buf, 0x5a, BLK);
	for (uint64_t i = 0; i < count && !ret; i++)
		if (pwrite(fd, buf, BLK, (off_t)((blk + i) * BLK)) != (ssize_t)BLK) {
			fprintf(stderr, "ktool: write block %" PRIu64 " of %s: %s\n", blk + i, argv[1],
				strerror(errno));
			ret = 1;
		}
	free(buf);
	close(fd);
	return ret;
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);	/* argv[0] is the command name */
} cmds[] = {
	{ "tree", cmd_tree },
	{ "gc", cmd_gc },
	{ "put", cmd_put },
	{ "check", cmd_check },
	{ "fill", cmd_fill },
	{ "thin", cmd_thin },
	{ "fill-verify", cmd_fill_verify },
	{ "compr", cmd_compr },
	{ "casefold", cmd_casefold },
	{ "quota", cmd_quota },
	{ "rofs", cmd_rofs },
	{ "inodes", cmd_inodes },
	{ "xattr", cmd_xattr },
	{ "xattr-check", cmd_xattr_check },
	{ "fsync", cmd_fsync },
	{ "node", cmd_node },
	{ "hold", cmd_hold },
	{ "zones", cmd_zones },
	{ "zone-reset", cmd_zone_reset },
	{ "shutdown", cmd_shutdown },
	{ "ioc", cmd_ioc },
	{ "whiteout", cmd_whiteout },
	{ "tmpfile", cmd_tmpfile },
	{ "zone-write", cmd_zone_write },
};

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 2) {
		for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
			int ret;

			if (strcmp(argv[1], cmds[i].name))
				continue;
			ret = cmds[i].fn(argc - 1, argv + 1);
			if (ret == 2)
				break;
			return ret;
		}
	}
	fprintf(stderr, "usage: ktool tree|put|check|fill|thin|fill-verify|compr|casefold|quota|rofs|\n"
		"             inodes|xattr|xattr-check|fsync|node|hold|zones|zone-reset|zone-write|shutdown ...\n");
	return 2;
}
