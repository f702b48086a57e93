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
 *   ktool put PATH SIZE [-t] [-f]
 *       Extend PATH (created if missing) up to SIZE bytes with its stream;
 *       -t gives compressible text, -f fsyncs the file afterwards.
 *   ktool check PATH SIZE [-t]
 *       PATH must be exactly SIZE bytes of its stream.
 *   ktool fill DIR KIB
 *       Create DIR/fNNNNN files of KIB KiB each until the file system is
 *       full; the file that hit ENOSPC is removed.  Prints the count.
 *   ktool thin DIR
 *       Remove every file of DIR whose number is even.
 *   ktool fill-verify DIR KIB
 *       Every file of DIR must be KIB KiB of its stream.
 *   ktool compr PATH      set FS_COMPR_FL on PATH
 *   ktool casefold DIR    set FS_CASEFOLD_FL on the empty directory DIR
 *   ktool quota DEV MIN_KIB MIN_INODES
 *       The kernel's user quota usage of uid 0 on DEV must be at least
 *       MIN_KIB KiB and MIN_INODES inodes (proves quota accounting is live).
 *   ktool rofs DIR        succeed only if creating a file in DIR gives EROFS
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
#include <linux/fs.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/quota.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/xattr.h>
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
	static unsigned char buf[64 * 1024];

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
	int text = 0, sync = 0, fd, err;
	uint64_t size;
	struct stat st;

	if (argc < 3)
		return 2;
	for (int i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "-t"))
			text = 1;
		else if (!strcmp(argv[i], "-f"))
			sync = 1;
		else
			return 2;
	}
	size = strtoull(argv[2], NULL, 0);
	fd = open(argv[1], O_WRONLY | O_CREAT, 0644);
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
	struct dqblk dq;
	unsigned long long kib;

	if (argc != 4)
		return 2;
	memset(&dq, 0, sizeof(dq));
	if (quotactl(QCMD(Q_GETQUOTA, USRQUOTA), argv[1], 0, (caddr_t)&dq)) {
		fprintf(stderr, "ktool: quotactl %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	kib = (unsigned long long)dq.dqb_curspace / 1024;
	printf("quota: uid 0 uses %llu KiB in %llu inodes\n", kib,
	       (unsigned long long)dq.dqb_curinodes);
	if (kib < strtoull(argv[2], NULL, 0) || dq.dqb_curinodes < strtoull(argv[3], NULL, 0)) {
		fprintf(stderr, "ktool: quota usage of uid 0 is too low\n");
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

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);	/* argv[0] is the command name */
} cmds[] = {
	{ "tree", cmd_tree },
	{ "put", cmd_put },
	{ "check", cmd_check },
	{ "fill", cmd_fill },
	{ "thin", cmd_thin },
	{ "fill-verify", cmd_fill_verify },
	{ "compr", cmd_compr },
	{ "casefold", cmd_casefold },
	{ "quota", cmd_quota },
	{ "rofs", cmd_rofs },
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
	fprintf(stderr, "usage: ktool tree|put|check|fill|thin|fill-verify|compr|casefold|quota|rofs ...\n");
	return 2;
}
