/*
 * manifest.c - one line per entry of a tree, in a fixed order, so two trees
 * (a source, its copy read back by the kernel or extracted by dump.f2fs)
 * compare with diff: path, type, permission bits, owner, size and content
 * hash of regular files, symlink target, device numbers, mtime, hard-link
 * group and every xattr.  Built for the host and, static, for the kernel
 * guest (busybox only).
 *
 *   sload-manifest [-t] [-u] [-l] [-i] [-d] [-x NAME] DIR
 *     -t  leave out times   -u  only user.* xattrs   -l  leave out link groups
 *     -i  ignore a top-level lost+found
 *     -d  what dump.f2fs -r extracts: no FIFOs, sockets or devices, no
 *         xattrs on symlinks
 *     -x  ignore the top-level entry NAME
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>

struct seen {
	dev_t dev;
	ino_t ino;
	char *path;
};

static int no_times, user_only, no_links, skip_lpf, dump_view;
static const char *skip_name;
static struct seen *seen;
static size_t nseen, capseen;

static const char *first_path(const struct stat *st, const char *path)
{
	for (size_t k = 0; k < nseen; k++)
		if (seen[k].dev == st->st_dev && seen[k].ino == st->st_ino)
			return seen[k].path;
	if (nseen == capseen) {
		capseen = capseen ? 2 * capseen : 64;
		seen = realloc(seen, capseen * sizeof(*seen));
		if (!seen)
			exit(2);
	}
	seen[nseen].dev = st->st_dev;
	seen[nseen].ino = st->st_ino;
	seen[nseen].path = strdup(path);
	return seen[nseen++].path;
}

/* Content hash that does not depend on how zeroes are stored: every
 * non-zero 8-byte word is mixed in with its offset.  Holes are skipped
 * only a whole 1 MiB-aligned stretch at a time (clusters of compressed
 * files never cross one): in f2fs a compressed cluster's first slot
 * (COMPRESS_ADDR) is no data to SEEK_DATA, and the slots a released
 * cluster gave back are holes to SEEK_HOLE, though both read as data.
 * A file sparse to 9 GiB still costs next to nothing. */
static uint64_t mix(uint64_t h, uint64_t v)
{
	for (int k = 0; k < 8; k++)
		h = (h ^ ((v >> (8 * k)) & 0xff)) * 1099511628211ull;
	return h;
}

static uint64_t hash_range(int fd, off_t from, off_t to, uint64_t h)
{
	static unsigned char buf[1 << 16];

	for (off_t at = from & ~(off_t)7; at < to;) {
		size_t want = to - at < (off_t)sizeof(buf) ? (size_t)(to - at) : sizeof(buf);
		ssize_t n = pread(fd, buf, want, at);

		if (n <= 0)
			break;
		for (ssize_t k = 0; k < n; k += 8) {
			uint64_t w = 0;

			memcpy(&w, buf + k, (size_t)(n - k < 8 ? n - k : 8));
			if (w)
				h = mix(mix(h, (uint64_t)(at + k)), w);
		}
		at += n;
	}
	return h;
}

static off_t seek_hole(int fd, off_t pos, off_t size)
{
	off_t h = lseek(fd, pos, SEEK_HOLE);

	return h < 0 || h > size ? size : h;
}

static uint64_t hash_file(const char *path, off_t size)
{
	const off_t chunk = (off_t)1 << 20;
	uint64_t h = 1469598103934665603ull;
	int fd = open(path, O_RDONLY);
	off_t pos = 0;

	if (fd < 0)
		return 0;
	while (pos < size) {
		off_t hole = seek_hole(fd, pos, size), end, data;

		if (hole > pos) {
			h = hash_range(fd, pos, hole, h);
			pos = hole;
			continue;
		}
		end = (pos | (chunk - 1)) + 1;
		if (end > size)
			end = size;
		h = hash_range(fd, pos, end, h);
		pos = end;
		data = pos < size ? lseek(fd, pos, SEEK_DATA) : -1;
		if (data < 0)
			break;
		if ((data & ~(chunk - 1)) > pos)
			pos = data & ~(chunk - 1);
	}
	close(fd);
	return h;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void print_xattrs(const char *path)
{
	char names[65536], *list[1024];
	static unsigned char val[65536];
	ssize_t len = llistxattr(path, names, sizeof(names));
	size_t n = 0;

	for (ssize_t off = 0; len > 0 && off < len && n < 1024; off += (ssize_t)strlen(names + off) + 1)
		if (!user_only || !strncmp(names + off, "user.", 5))
			list[n++] = names + off;
	if (n)
		qsort(list, n, sizeof(list[0]), cmp_str);
	for (size_t k = 0; k < n; k++) {
		ssize_t v = lgetxattr(path, list[k], val, sizeof(val));

		uint64_t h = 1469598103934665603ull;

		for (ssize_t j = 0; j < v; j++)
			h = (h ^ val[j]) * 1099511628211ull;
		printf(" %s=%zd:%016llx", list[k], v, (unsigned long long)h);
	}
}

static void entry(const char *root, const char *rel)
{
	char path[16384], target[8192];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (lstat(path, &st)) {
		printf("%s\tMISSING\n", rel);
		return;
	}
	if (dump_view && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) && !S_ISLNK(st.st_mode))
		return;
	printf("%s\t%o\t%u:%u", rel, (unsigned int)st.st_mode, (unsigned int)st.st_uid,
	       (unsigned int)st.st_gid);
	if (S_ISREG(st.st_mode))
		printf("\tsize=%lld hash=%016llx", (long long)st.st_size,
		       (unsigned long long)hash_file(path, st.st_size));
	if (S_ISLNK(st.st_mode)) {
		ssize_t n = readlink(path, target, sizeof(target) - 1);

		target[n > 0 ? n : 0] = 0;
		printf("\t-> %s", target);
	}
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
		printf("\trdev=%u:%u", major(st.st_rdev), minor(st.st_rdev));
	if (!no_times)
		printf("\tmtime=%lld.%09ld", (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	if (!no_links && !S_ISDIR(st.st_mode) && st.st_nlink > 1)
		printf("\tlinks=%u first=%s", (unsigned int)st.st_nlink, first_path(&st, rel));
	printf("\txattrs:");
	if (!(dump_view && S_ISLNK(st.st_mode)))
		print_xattrs(path);
	putchar('\n');
}

static void walk(const char *root, const char *rel)
{
	char path[16384], **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	d = opendir(path);
	if (!d) {
		printf("%s\tUNREADABLE\n", rel);
		return;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (skip_lpf && !*rel && !strcmp(de->d_name, "lost+found"))
			continue;
		if (skip_name && !*rel && !strcmp(de->d_name, skip_name))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			names = realloc(names, cap * sizeof(*names));
			if (!names)
				exit(2);
		}
		names[n++] = strdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	for (size_t k = 0; k < n; k++) {
		char sub[8192];
		struct stat st;

		snprintf(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "", names[k]);
		entry(root, sub);
		snprintf(path, sizeof(path), "%s/%s", root, sub);
		if (!lstat(path, &st) && S_ISDIR(st.st_mode))
			walk(root, sub);
		free(names[k]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	int ch;

	while ((ch = getopt(argc, argv, "tulidx:")) != -1) {
		switch (ch) {
		case 't': no_times = 1; break;
		case 'u': user_only = 1; break;
		case 'l': no_links = 1; break;
		case 'i': skip_lpf = 1; break;
		case 'd': dump_view = 1; break;
		case 'x': skip_name = optarg; break;
		default:
			fprintf(stderr, "usage: sload-manifest [-t] [-u] [-l] [-i] [-d] [-x NAME] DIR\n");
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: sload-manifest [-t] [-u] [-l] [-i] [-d] [-x NAME] DIR\n");
		return 2;
	}
	walk(argv[optind], "");
	return 0;
}
