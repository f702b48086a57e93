/*
 * sload_tree.c - the walk of the source tree: each entry gets a nid and
 * is written completely (data, node blocks, xattrs, inode) before the
 * next; a directory's entries and inode are written after its children.
 * The source's top directory merges into the volume's root: new names are
 * added, a directory both have is merged the same way at any depth, and a
 * name the volume has already otherwise keeps the volume's entry (the
 * source's is skipped with a message, as f2fs-tools' sload does).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <linux/fs.h>

#include "f2fs_array.h"
#include "f2fs_casefold.h"
#include "f2fs_err.h"
#include "sload.h"

#ifndef FS_CASEFOLD_FL
#define FS_CASEFOLD_FL 0x40000000
#endif

struct walk_dir {
	const char *path;	/* in the source */
	const char *fs_path;	/* in the volume, as fs_config/file_contexts name it */
	uint32_t ino, pino;
	bool casefold;
	struct sload_dent *d;
	size_t nd, cap;
	uint32_t subdirs;
	/* a directory the volume has already: its entries and blocks */
	struct sload_dent *old;
	size_t nold;
	uint32_t *old_blocks;
	size_t nold_blocks;
};

static int walk_children(struct sload_ctx *c, struct walk_dir *w);
static const struct sload_dent *find_old(const struct sload_ctx *c, const struct walk_dir *w,
					 const char *name);
static bool empty_source_lpf(const struct sload_ctx *c, const struct walk_dir *w, const char *name);
static int merge_or_skip(struct sload_ctx *c, struct walk_dir *w, const char *name,
			 const struct stat *st, const struct sload_dent *old);

static uint8_t file_type_of(mode_t m)
{
	if (S_ISREG(m))
		return F2FS_FT_REG_FILE;
	if (S_ISDIR(m))
		return F2FS_FT_DIR;
	if (S_ISCHR(m))
		return F2FS_FT_CHRDEV;
	if (S_ISBLK(m))
		return F2FS_FT_BLKDEV;
	if (S_ISFIFO(m))
		return F2FS_FT_FIFO;
	if (S_ISSOCK(m))
		return F2FS_FT_SOCK;
	if (S_ISLNK(m))
		return F2FS_FT_SYMLINK;
	return F2FS_FT_UNKNOWN;
}

static char *join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	bool slash = la && a[la - 1] == '/';
	char *p = malloc(la + lb + 2);

	if (!p)
		return NULL;
	memcpy(p, a, la);
	if (!slash)
		p[la++] = '/';
	memcpy(p + la, b, lb + 1);
	return p;
}

/* Owner and mode as the image gets them: the source's with -P, else root;
 * fs_config overrides both and the permission bits. */
static void effective_stat(const struct sload_ctx *c, const char *fs_path, struct stat *st)
{
	uint32_t uid, gid, mode;
	uint64_t caps;

	if (!c->o.preserve_owner) {
		st->st_uid = 0;
		st->st_gid = 0;
	}
	if (c->fsc && sload_fs_config_apply(c, fs_path, S_ISDIR(st->st_mode), &uid, &gid, &mode, &caps)) {
		st->st_uid = uid;
		st->st_gid = gid;
		st->st_mode = (st->st_mode & S_IFMT) | (mode & 07777);
	}
}

static int add_dent(struct walk_dir *w, const char *name, uint32_t ino, uint8_t type)
{
	struct sload_dent *e;
	size_t len = strlen(name);

	if (len > F2FS_NAME_LEN)
		return -ENAMETOOLONG;
	if (F2FS_ARRAY_ROOM(w->d, w->cap, w->nd + 1, 16))
		return -ENOMEM;
	e = &w->d[w->nd++];
	memset(e, 0, sizeof(*e));
	e->name = strdup(name);
	e->len = (uint16_t)len;
	e->type = type;
	e->ino = ino;
	return e->name ? 0 : -ENOMEM;
}

static void free_dents(struct sload_dent *d, size_t nd)
{
	for (size_t k = 0; k < nd; k++)
		free(d[k].name);
	free(d);
}

/* ---- hard links ---- */

static struct sload_link *find_link(struct sload_ctx *c, const struct stat *st)
{
	for (size_t k = 0; k < c->n_links; k++)
		if (c->links[k].dev == st->st_dev && c->links[k].ino == st->st_ino)
			return &c->links[k];
	return NULL;
}

static int keep_link(struct sload_ctx *c, const struct stat *st, uint32_t nid,
		     struct f2fs_node *n, int log)
{
	struct sload_link *l;

	if (F2FS_ARRAY_ROOM(c->links, c->cap_links, c->n_links + 1, 16))
		return -ENOMEM;
	l = &c->links[c->n_links++];
	l->dev = st->st_dev;
	l->ino = st->st_ino;
	l->nid = nid;
	l->links = 1;
	l->node = malloc(sizeof(*n));
	l->log = log;
	if (!l->node)
		return -ENOMEM;
	memcpy(l->node, n, sizeof(*n));
	return 0;
}

static int finish_links(struct sload_ctx *c)
{
	int err = 0;

	for (size_t k = 0; k < c->n_links; k++) {
		struct sload_link *l = &c->links[k];

		l->node->i.i_links = cpu_to_le32(l->links);
		if (!err)
			err = sload_quota_charge(c, &l->node->i, +1);
		if (!err)
			err = sload_write_node(c, l->node, l->nid, l->nid, 0, false, true);
		free(l->node);
	}
	free(c->links);
	c->links = NULL;
	c->n_links = c->cap_links = 0;
	return err;
}

/* ---- one inode of each kind ---- */

int sload_read_full(int fd, uint8_t *buf, size_t len, off_t off)
{
	while (len) {
		ssize_t r = pread(fd, buf, len, off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -EIO;	/* the file shrank while being read */
		buf += r;
		len -= (size_t)r;
		off += r;
	}
	return 0;
}

static int write_inline(struct f2fs_node *n, int fd, uint64_t size)
{
	uint8_t *area = (uint8_t *)&n->i.i_addr[sload_inode_extra_words(&n->i) + 1];
	int err = size ? sload_read_full(fd, area, (size_t)size, 0) : 0;

	n->i.i_inline |= F2FS_INLINE_DATA;
	if (size)
		n->i.i_inline |= F2FS_DATA_EXIST;
	return err;
}

/* The data ranges of fd (SEEK_DATA/SEEK_HOLE), block by block. */
static int write_blocks(struct sload_ctx *c, struct sload_fmap *m, int fd, uint64_t size, int log)
{
	uint64_t nblocks = (size + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE;
	off_t pos = 0;
	int err = 0;

	while ((uint64_t)pos < size && !err) {
		off_t data = lseek(fd, pos, SEEK_DATA), hole;
		uint64_t b, end;

		if (data < 0)
			break;		/* ENXIO: only a hole is left */
		hole = lseek(fd, data, SEEK_HOLE);
		if (hole < 0 || (uint64_t)hole > size)
			hole = (off_t)size;
		b = (uint64_t)data / F2FS_BLKSIZE;
		end = ((uint64_t)hole + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE;
		if (end > nblocks)
			end = nblocks;
		while (b < end && !err) {
			uint64_t run = end - b < SLOAD_IO_BLOCKS ? end - b : SLOAD_IO_BLOCKS;
			uint64_t bytes = run * F2FS_BLKSIZE;

			if (b * F2FS_BLKSIZE + bytes > size)
				bytes = size - b * F2FS_BLKSIZE;
			memset(c->io + bytes, 0, run * F2FS_BLKSIZE - bytes);
			err = sload_read_full(fd, c->io, (size_t)bytes, (off_t)(b * F2FS_BLKSIZE));
			for (uint64_t k = 0; k < run && !err; k++)
				err = sload_fmap_add(m, b + k, c->io + k * F2FS_BLKSIZE, log);
			b += run;
		}
		pos = (off_t)(end * F2FS_BLKSIZE);
	}
	return err;
}

static int write_regular(struct sload_ctx *c, struct f2fs_node *n, uint32_t ino,
			 const char *path, const char *name, uint64_t *blocks, int *logp)
{
	uint64_t size = le64_to_cpu(n->i.i_size);
	int log = sload_data_log(c, name, n);
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), err;
	struct sload_fmap m;

	*logp = log;
	if (fd < 0)
		return -errno;
	if (sload_should_compress(c, name)) {
		err = sload_write_compressed(c, n, ino, fd, blocks);
		close(fd);
		return err;
	}
	if (!c->o.no_inline_data && size <= sload_inline_capacity(c, &n->i)) {
		err = write_inline(n, fd, size);
		close(fd);
		return err;
	}
	sload_fmap_init(&m, c, n, ino, false);
	err = write_blocks(c, &m, fd, size, log);
	if (!err)
		err = sload_fmap_finish(&m);
	*blocks += m.blocks;
	sload_fmap_free(&m);
	close(fd);
	return err;
}

static int write_symlink(struct sload_ctx *c, struct f2fs_node *n, uint32_t ino,
			 const char *path, uint64_t *blocks)
{
	char target[F2FS_BLKSIZE];
	ssize_t len = readlink(path, target, sizeof(target) - 1);

	if (len < 0)
		return -errno;
	return sload_write_symlink_target(c, n, ino, target, (size_t)len, blocks);
}

int sload_write_symlink_target(struct sload_ctx *c, struct f2fs_node *n, uint32_t ino,
			       const char *path, size_t len, uint64_t *blocks)
{
	uint8_t target[F2FS_BLKSIZE] = { 0 };
	struct sload_fmap m;
	int err;

	if (len >= sizeof(target))
		return -ENAMETOOLONG;
	memcpy(target, path, len);
	n->i.i_size = cpu_to_le64((uint64_t)len);
	if (!c->o.no_inline_data && (uint64_t)len <= sload_inline_capacity(c, &n->i)) {
		memcpy(&n->i.i_addr[sload_inode_extra_words(&n->i) + 1], target, (size_t)len);
		n->i.i_inline |= F2FS_INLINE_DATA;
		if (len)
			n->i.i_inline |= F2FS_DATA_EXIST;
		return 0;
	}
	sload_fmap_init(&m, c, n, ino, false);
	err = sload_fmap_add(&m, 0, target, CURSEG_WARM_DATA);
	if (!err)
		err = sload_fmap_finish(&m);
	*blocks += m.blocks;
	sload_fmap_free(&m);
	return err;
}

static void write_rdev(struct f2fs_node *n, dev_t rdev)
{
	uint32_t base = sload_inode_extra_words(&n->i);
	unsigned int ma = major(rdev), mi = minor(rdev);

	if (ma < 256 && mi < 256) {
		n->i.i_addr[base] = cpu_to_le32((ma << 8) | mi);
	} else {
		n->i.i_addr[base] = 0;
		n->i.i_addr[base + 1] = cpu_to_le32((mi & 0xff) | (ma << 8) | ((mi & ~0xffu) << 12));
	}
}

static bool source_casefolded(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long flags = 0;
	bool cf;

	if (fd < 0)
		return false;
	cf = ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 && (flags & FS_CASEFOLD_FL);
	close(fd);
	return cf;
}

static int write_directory(struct sload_ctx *c, struct f2fs_node *n, struct walk_dir *parent,
			   uint32_t ino, const char *path, const char *fs_path, uint64_t *blocks)
{
	struct walk_dir w = { .path = path, .fs_path = fs_path, .ino = ino, .pino = parent->ino };
	int err;

	w.casefold = (c->fs->features & F2FS_FEATURE_CASEFOLD) &&
		     (parent->casefold || source_casefolded(path));
	if (w.casefold)
		n->i.i_flags |= cpu_to_le32(F2FS_CASEFOLD_FL);
	err = walk_children(c, &w);
	if (!err) {
		n->i.i_links = cpu_to_le32(2 + w.subdirs);
		n->i.i_blocks = cpu_to_le64(1 + *blocks);
		err = sload_write_dir_entries(c, n, ino, parent->ino, w.d, w.nd, w.casefold);
		*blocks = le64_to_cpu(n->i.i_blocks) - 1;
	}
	free_dents(w.d, w.nd);
	c->st.dirs++;
	return err;
}

/* Write one entry of w's directory (new nid ino). */
static int write_entry(struct sload_ctx *c, struct walk_dir *w, const char *name,
		       struct stat *st, uint32_t ino)
{
	char *path = join(w->path, name), *fs_path = join(w->fs_path, name);
	struct f2fs_node *n = malloc(sizeof(*n));
	uint64_t blocks = 0;
	int err = (!path || !fs_path || !n) ? -ENOMEM : 0, log = CURSEG_WARM_DATA;
	bool defer = false;

	if (err)
		goto out;
	effective_stat(c, fs_path, st);
	sload_inode_init(c, n, st, w->ino, name, strlen(name));
	if (w->casefold && (c->fs->features & F2FS_FEATURE_CASEFOLD))
		n->i.i_flags |= cpu_to_le32(F2FS_CASEFOLD_FL) * S_ISDIR(st->st_mode);
	err = sload_xattrs(c, n, ino, path, fs_path, st, &blocks);
	if (err)
		goto out;
	if (S_ISREG(st->st_mode)) {
		n->i.i_size = cpu_to_le64((uint64_t)st->st_size);
		err = write_regular(c, n, ino, path, name, &blocks, &log);
		c->st.files++;
		defer = st->st_nlink > 1;
	} else if (S_ISDIR(st->st_mode)) {
		err = write_directory(c, n, w, ino, path, fs_path, &blocks);
	} else if (S_ISLNK(st->st_mode)) {
		err = write_symlink(c, n, ino, path, &blocks);
		c->st.symlinks++;
		defer = st->st_nlink > 1;
	} else {
		if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
			write_rdev(n, st->st_rdev);
		c->st.specials++;
		defer = st->st_nlink > 1;
	}
	if (err)
		goto out;
	n->i.i_blocks = cpu_to_le64(1 + blocks);
	if (defer)
		err = keep_link(c, st, ino, n, log);
	else
		err = sload_quota_charge(c, &n->i, +1);
	if (!err && !defer)
		err = sload_write_node(c, n, ino, ino, 0, S_ISDIR(st->st_mode), true);
	if (!err && c->o.debug > 1)
		fprintf(stderr, "sload.f2fs: %s -> ino %u\n", fs_path, ino);
out:
	if (err && !c->errbuf[0])
		snprintf(c->errbuf, sizeof(c->errbuf), "%s", path ? path : name);
	free(n);
	free(path);
	free(fs_path);
	return err;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names of a source directory, sorted (the image does not depend on
 * readdir order). */
static int list_dir(const char *path, char ***out, size_t *n)
{
	DIR *d = opendir(path);
	struct dirent *de;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (F2FS_ARRAY_ROOM(*out, cap, *n + 1, 32)) {
			closedir(d);
			return -ENOMEM;
		}
		(*out)[*n] = strdup(de->d_name);
		if (!(*out)[(*n)++]) {
			closedir(d);
			return -ENOMEM;
		}
	}
	closedir(d);
	if (*n)
		qsort(*out, *n, sizeof(**out), cmp_names);
	return 0;
}

void sload_effective_stat(const struct sload_ctx *c, const char *fs_path, struct stat *st)
{
	effective_stat(c, fs_path, st);
}

uint8_t sload_file_type(mode_t m)
{
	return file_type_of(m);
}

void sload_write_rdev(struct f2fs_node *n, dev_t rdev)
{
	write_rdev(n, rdev);
}

/* A name of the root an archive adds (sload_tar.c). */
static int add_tar_dent(void *arg, const char *name, uint32_t ino, uint8_t type)
{
	struct walk_dir *w = arg;
	int err = add_dent(w, name, ino, type);

	if (!err && type == F2FS_FT_DIR)
		w->subdirs++;
	return err;
}

static int walk_one(struct sload_ctx *c, struct walk_dir *w, const char *name)
{
	char *path = join(w->path, name);
	const struct sload_dent *old = find_old(c, w, name);
	struct sload_link *l;
	struct stat st;
	uint32_t ino;
	int err;

	if (!path)
		return -ENOMEM;
	err = lstat(path, &st) ? -errno : 0;
	free(path);
	if (err)
		return err;
	if (old && w->ino == F2FS_ROOT_INO && empty_source_lpf(c, w, name))
		return 0;
	if (old)
		return merge_or_skip(c, w, name, &st, old);
	if (!S_ISDIR(st.st_mode) && st.st_nlink > 1 && (l = find_link(c, &st))) {
		l->links++;
		c->st.hardlinks++;
		return add_dent(w, name, l->nid, file_type_of(st.st_mode));
	}
	err = f2fs_nid_alloc(&c->nids, &ino);
	if (!err)
		err = add_dent(w, name, ino, file_type_of(st.st_mode));
	if (!err)
		err = write_entry(c, w, name, &st, ino);
	if (!err && S_ISDIR(st.st_mode))
		w->subdirs++;
	return err;
}

static int walk_children(struct sload_ctx *c, struct walk_dir *w)
{
	char **names;
	size_t n;
	int err = list_dir(w->path, &names, &n);

	for (size_t k = 0; k < n; k++) {
		if (!err)
			err = walk_one(c, w, names[k]);
		free(names[k]);
	}
	free(names);
	return err;
}

/* ---- merging into the volume's directories ---- */

static int read_dir_inode(struct sload_ctx *c, uint32_t ino, struct f2fs_node *n, uint32_t *addr)
{
	struct f2fs_nat_entry e;
	int err = sload_nat_ready(c, ino);

	if (!err)
		err = f2fs_nat_get(&c->nat, ino, &e);
	if (err)
		return err;
	*addr = le32_to_cpu(e.block_addr);
	if (!f2fs_blkaddr_in_main(c->fs, *addr))
		return -EFSCORRUPTED;
	err = f2fs_dev_read(c->fs->dev, *addr, 1, n);
	if (!err && (le32_to_cpu(n->footer.nid) != ino || !S_ISDIR(le16_to_cpu(n->i.i_mode))))
		err = -EFSCORRUPTED;
	return err;
}

/* Give back a directory's old dentry blocks and direct nodes. */
static int release_old(struct sload_ctx *c, const struct f2fs_node *dir, const uint32_t *blocks,
		       size_t nblocks)
{
	for (size_t k = 0; k < nblocks; k++) {
		int err = f2fs_logs_release(&c->logs, blocks[k]);

		if (err)
			return err;
		c->block_delta--;
	}
	for (int d = 0; d < 2; d++) {
		uint32_t nid = le32_to_cpu(dir->i.i_nid[d]);

		if (nid) {
			int err = sload_nat_ready(c, nid);

			if (!err)
				err = f2fs_nid_set(&c->nat, nid, 0, NULL_ADDR);

			if (err)
				return err;
			c->node_delta--;
		}
	}
	return 0;
}

/* Whether two names are the same entry (folded in a casefolded directory). */
static bool same_name(const struct sload_ctx *c, const char *a, size_t la, const char *b,
		      size_t lb, bool casefold)
{
	uint8_t fa[F2FS_CASEFOLD_MAX], fb[F2FS_CASEFOLD_MAX];
	int na, nb;

	if (la == lb && !memcmp(a, b, la))
		return true;
	if (!casefold || !(c->fs->features & F2FS_FEATURE_CASEFOLD))
		return false;
	na = f2fs_casefold((const uint8_t *)a, la, fa, sizeof(fa));
	nb = f2fs_casefold((const uint8_t *)b, lb, fb, sizeof(fb));
	return na >= 0 && na == nb && !memcmp(fa, fb, (size_t)na);
}

static const struct sload_dent *find_old(const struct sload_ctx *c, const struct walk_dir *w,
					 const char *name)
{
	size_t len = strlen(name);

	for (size_t j = 0; j < w->nold; j++)
		if (same_name(c, w->old[j].name, w->old[j].len, name, len, w->casefold))
			return &w->old[j];
	return NULL;
}

/* An empty lost+found at the top of the source (an ext4 mount has one)
 * leaves the volume's own as it is. */
static bool empty_source_lpf(const struct sload_ctx *c, const struct walk_dir *w, const char *name)
{
	char **names, *path;
	size_t n = 1;

	(void)c;
	if (strcmp(name, "lost+found"))
		return false;
	path = join(w->path, name);
	if (path && !list_dir(path, &names, &n)) {
		for (size_t k = 0; k < n; k++)
			free(names[k]);
		free(names);
	}
	free(path);
	return n == 0;
}

static uint32_t old_subdirs(const struct sload_dent *d, size_t n)
{
	uint32_t k = 0;

	for (size_t j = 0; j < n; j++)
		k += d[j].type == F2FS_FT_DIR;
	return k;
}

/* A directory inode for the merged entries: the old one without its
 * entries. */
static void reset_dir(struct sload_ctx *c, struct f2fs_node *dir)
{
	uint32_t extra = sload_inode_extra_words(&dir->i);

	dir->i.i_inline &= (uint8_t)~(F2FS_INLINE_DENTRY | F2FS_INLINE_DATA | F2FS_DATA_EXIST);
	/* without the flexible feature an inline dentry directory kept 50
	 * words for xattrs only because of that flag: they are data slots now */
	memset(&dir->i.i_addr[extra], 0, (size_t)sload_inode_data_slots(c, &dir->i) * 4);
	memset(dir->i.i_nid, 0, sizeof(dir->i.i_nid));
	dir->i.i_blocks = cpu_to_le64(1 + (dir->i.i_xattr_nid ? 1 : 0));
}

/* -T and the fs_config entry of the mount point apply to the root too
 * (its xattrs, a label from mkfs --file-contexts included, are kept). */
static void apply_root_options(const struct sload_ctx *c, struct f2fs_node *root)
{
	uint32_t uid, gid, mode;
	uint64_t caps;

	if (c->o.have_timestamp) {
		root->i.i_atime = root->i.i_ctime = root->i.i_mtime = cpu_to_le64(c->o.timestamp);
		root->i.i_atime_nsec = root->i.i_ctime_nsec = root->i.i_mtime_nsec = 0;
	}
	if (c->fsc && sload_fs_config_apply(c, c->o.mount_point ? c->o.mount_point : "/", true,
					     &uid, &gid, &mode, &caps)) {
		root->i.i_uid = cpu_to_le32(uid);
		root->i.i_gid = cpu_to_le32(gid);
		root->i.i_mode = cpu_to_le16((uint16_t)(S_IFDIR | (mode & 07777)));
	}
}

/* Rewrite directory ino (inode block at addr) with the entries of w, old
 * ones included: its old dentry blocks, direct nodes and inode block are
 * given back, the inode keeps everything else. */
static int rewrite_dir(struct sload_ctx *c, struct f2fs_node *dir, uint32_t addr, struct walk_dir *w)
{
	int err = release_old(c, dir, w->old_blocks, w->nold_blocks);

	if (!err)
		err = f2fs_logs_release(&c->logs, addr);
	if (err)
		return err;
	c->block_delta--;
	c->node_delta--;
	c->inode_delta--;
	err = sload_quota_charge(c, &dir->i, -1);
	if (err)
		return err;
	reset_dir(c, dir);
	if (w->ino == F2FS_ROOT_INO)
		apply_root_options(c, dir);
	dir->i.i_links = cpu_to_le32(2 + w->subdirs + old_subdirs(w->old, w->nold));
	err = sload_write_dir_entries(c, dir, w->ino, w->pino, w->d, w->nd, w->casefold);
	if (!err)
		err = sload_quota_charge(c, &dir->i, +1);
	if (!err)
		err = sload_write_node(c, dir, w->ino, w->ino, 0, true, true);
	return err;
}

/* Load the source directory path into the volume's directory ino: new
 * names are added, a directory that exists on both sides is merged the
 * same way, any other name the volume has already keeps the volume's
 * entry and the source's is skipped (as f2fs-tools' sload does). */
static int merge_dir(struct sload_ctx *c, uint32_t ino, const char *path, const char *fs_path)
{
	struct f2fs_node *dir = malloc(sizeof(*dir));
	struct walk_dir w = { .path = path, .fs_path = fs_path, .ino = ino };
	uint32_t addr = 0;
	int err = dir ? read_dir_inode(c, ino, dir, &addr) : -ENOMEM;

	if (!err)
		err = sload_read_dir_entries(c, dir, &w.old, &w.nold, &w.old_blocks, &w.nold_blocks);
	if (err)
		goto out;
	w.pino = ino == F2FS_ROOT_INO ? F2FS_ROOT_INO : le32_to_cpu(dir->i.i_pino);
	w.casefold = (c->fs->features & F2FS_FEATURE_CASEFOLD) &&
		     (le32_to_cpu(dir->i.i_flags) & F2FS_CASEFOLD_FL);
	if (c->o.tar && ino == F2FS_ROOT_INO)
		err = sload_tar_load(c, ino, w.casefold, w.old, w.nold, add_tar_dent, &w);
	else
		err = walk_children(c, &w);
	if (!err && ino == F2FS_ROOT_INO)
		err = finish_links(c);
	for (size_t k = 0; k < w.nold && !err; k++)
		err = add_dent(&w, w.old[k].name, w.old[k].ino, w.old[k].type);
	if (!err)
		err = rewrite_dir(c, dir, addr, &w);
	c->st.merged_dirs++;
out:
	free_dents(w.d, w.nd);
	free_dents(w.old, w.nold);
	free(w.old_blocks);
	free(dir);
	return err;
}

/* A source name the volume's directory w already has. */
static int merge_or_skip(struct sload_ctx *c, struct walk_dir *w, const char *name,
			 const struct stat *st, const struct sload_dent *old)
{
	char *path, *fs_path;
	int err;

	path = join(w->path, name);
	fs_path = join(w->fs_path, name);
	if (!path || !fs_path)
		err = -ENOMEM;
	else if (S_ISDIR(st->st_mode) && old->type == F2FS_FT_DIR)
		err = merge_dir(c, old->ino, path, fs_path);
	else {
		fprintf(stderr, "sload.f2fs: %s exists in the volume: kept; %s skipped\n",
			fs_path, path);
		c->st.skipped++;
		err = 0;
	}
	free(path);
	free(fs_path);
	return err;
}

int sload_load_tree(struct sload_ctx *c)
{
	int err = merge_dir(c, F2FS_ROOT_INO, c->o.source, c->o.mount_point ? c->o.mount_point : "/");

	if (!err)
		err = sload_quota_write(c);
	return err;
}
