/*
 * dump_extract.c - writing files, directories and symlinks out of the
 * image (-o DIR with -i ino or -r).  Everything is created relative to
 * directory file descriptors with O_NOFOLLOW, and every name from the
 * image is checked ('/', NUL, "." and ".." are refused), so a hostile image
 * cannot write outside DIR.  Directory cycles and excessive depth are
 * refused.  Contents are read in runs of contiguous blocks.  xattrs in the
 * user, trusted and security namespaces are restored where the target
 * filesystem allows; -P restores mode, owner and times; -L keeps symlinks.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "dump.h"
#include "f2fs_array.h"
#include "f2fs_compress.h"

#define EXTRACT_MAX_DEPTH	128
#define RUN_MAX_BLOCKS		256

struct extract {
	struct dump_ctx *ctx;
	uint32_t dir_stack[EXTRACT_MAX_DEPTH];
	int depth;
	uint8_t *dir_seen;	/* bit per nid: directory already extracted */
	uint64_t files, dirs, symlinks, skipped, failed;
	int outfd;		/* the output directory */
	char path[4096];	/* directory being extracted, relative to outfd */
	size_t path_len;
	struct hard_link {	/* files with several links, first path each */
		uint32_t ino;
		char *path;
	} *links;
	size_t nlinks, links_cap;
};

/* ---- names ------------------------------------------------------------ */

static bool safe_name(const uint8_t *name, size_t len)
{
	size_t i;

	if (len == 0 || len > F2FS_NAME_LEN)
		return false;
	if ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.'))
		return false;
	for (i = 0; i < len; i++)
		if (name[i] == '/' || name[i] == '\0')
			return false;
	return true;
}

static void warn(struct extract *x, const char *fmt, const char *name, uint32_t ino,
		 const char *why)
{
	fprintf(stderr, "dump.f2fs: ");
	fprintf(stderr, fmt, name, ino);
	fprintf(stderr, ": %s\n", why ? why : (x->ctx->errmsg[0] ? x->ctx->errmsg : "error"));
	x->ctx->errmsg[0] = '\0';
}

/* ---- file contents ---------------------------------------------------- */

struct copy_run {
	int fd;
	uint64_t fofs;
	uint32_t addr, len;
	uint8_t *buf;
};

static int flush_copy(struct dump_ctx *ctx, struct copy_run *r)
{
	size_t bytes = (size_t)r->len * F2FS_BLKSIZE;
	int err;

	if (!r->len)
		return 0;
	err = f2fs_dev_read(ctx->fs->dev, r->addr, r->len, r->buf);
	if (err)
		return dump_fail(ctx, err, "cannot read blocks %u..%u: %s", r->addr,
				 r->addr + r->len - 1, f2fs_strerror(err));
	if (pwrite(r->fd, r->buf, bytes, (off_t)(r->fofs * F2FS_BLKSIZE)) != (ssize_t)bytes)
		return dump_fail(ctx, -errno, "write failed: %s", strerror(errno));
	r->len = 0;
	return 0;
}

static int copy_block(struct dump_ctx *ctx, uint64_t fofs, uint32_t addr, void *arg)
{
	struct copy_run *r = arg;
	int err;

	if (addr == NEW_ADDR)
		return 0;		/* reserved, reads as zeroes */
	if (addr == COMPRESS_ADDR)
		return dump_fail(ctx, -EOPNOTSUPP, "compressed files are not supported");
	if (!dump_is_valid_data_addr(ctx, addr))
		return dump_fail(ctx, -EFSCORRUPTED, "block %" PRIu64 " has address 0x%x outside the main area",
				 fofs, addr);
	if (r->len && r->len < RUN_MAX_BLOCKS && fofs == r->fofs + r->len &&
	    addr == r->addr + r->len) {
		r->len++;
		return 0;
	}
	err = flush_copy(ctx, r);
	if (err)
		return err;
	r->fofs = fofs;
	r->addr = addr;
	r->len = 1;
	return 0;
}

/* ---- compressed files: one cluster at a time ------------------------- */

struct cluster_run {
	int fd;
	uint32_t log;			/* log2 blocks per cluster */
	unsigned int algorithm;
	uint64_t cur;			/* cluster being gathered, UINT64_MAX: none */
	uint32_t addr[1u << MAX_COMPRESS_LOG_SIZE];
	uint8_t *in, *out;		/* one cluster each */
};

static int write_at(struct dump_ctx *ctx, int fd, const void *buf, size_t len, uint64_t off)
{
	if (pwrite(fd, buf, len, (off_t)off) != (ssize_t)len)
		return dump_fail(ctx, -errno, "write failed: %s", strerror(errno));
	return 0;
}

static bool is_data_addr(const struct dump_ctx *ctx, uint32_t addr)
{
	return addr != NULL_ADDR && addr != NEW_ADDR && addr != COMPRESS_ADDR &&
	       dump_is_valid_data_addr(ctx, addr);
}

static int flush_compressed(struct dump_ctx *ctx, struct cluster_run *c, uint64_t base)
{
	uint32_t size = 1u << c->log, n = 0, i;
	int err;

	for (i = 1; i < size && is_data_addr(ctx, c->addr[i]); i++, n++) {
		err = f2fs_dev_read(ctx->fs->dev, c->addr[i], 1, c->in + (size_t)n * F2FS_BLKSIZE);
		if (err)
			return dump_fail(ctx, err, "cannot read block %u: %s", c->addr[i],
					 f2fs_strerror(err));
	}
	err = f2fs_decompress_cluster(c->algorithm, c->in, n, c->out, (size_t)size * F2FS_BLKSIZE);
	if (err == -EOPNOTSUPP)
		return dump_fail(ctx, err, "compression algorithm %u is not supported", c->algorithm);
	if (err)
		return dump_fail(ctx, err, "cluster at file block %" PRIu64 " does not decompress",
				 base);
	return write_at(ctx, c->fd, c->out, (size_t)size * F2FS_BLKSIZE, base * F2FS_BLKSIZE);
}

static int flush_cluster(struct dump_ctx *ctx, struct cluster_run *c)
{
	uint32_t size = 1u << c->log, i;
	uint64_t base;
	int err = 0;

	if (c->cur == UINT64_MAX)
		return 0;
	base = c->cur << c->log;
	if (c->addr[0] == COMPRESS_ADDR) {
		err = flush_compressed(ctx, c, base);
	} else {
		for (i = 0; i < size && !err; i++) {
			if (!is_data_addr(ctx, c->addr[i]))
				continue;	/* hole or reserved: reads as zeroes */
			err = f2fs_dev_read(ctx->fs->dev, c->addr[i], 1, c->in);
			if (err)
				return dump_fail(ctx, err, "cannot read block %u: %s", c->addr[i],
						 f2fs_strerror(err));
			err = write_at(ctx, c->fd, c->in, F2FS_BLKSIZE, (base + i) * F2FS_BLKSIZE);
		}
	}
	memset(c->addr, 0, sizeof(c->addr));
	c->cur = UINT64_MAX;
	return err;
}

static int cluster_block(struct dump_ctx *ctx, uint64_t fofs, uint32_t addr, void *arg)
{
	struct cluster_run *c = arg;
	int err;

	if (c->cur != fofs >> c->log) {
		err = flush_cluster(ctx, c);
		if (err)
			return err;
		c->cur = fofs >> c->log;
	}
	c->addr[fofs & ((1u << c->log) - 1)] = addr;
	return 0;
}

static int write_compressed(struct dump_ctx *ctx, const struct f2fs_node *inode, int fd,
			    uint32_t log)
{
	struct cluster_run c = { .fd = fd, .log = log, .cur = UINT64_MAX,
				 .algorithm = inode->i.i_compress_algorithm };
	size_t bytes = (size_t)F2FS_BLKSIZE << log;
	int err;

	c.in = malloc(bytes);
	c.out = malloc(bytes);
	if (!c.in || !c.out) {
		free(c.in);
		free(c.out);
		return dump_fail(ctx, -ENOMEM, "out of memory");
	}
	err = dump_walk_file(ctx, inode, cluster_block, NULL, &c);
	if (!err)
		err = flush_cluster(ctx, &c);
	free(c.in);
	free(c.out);
	return err;
}

static int write_contents(struct dump_ctx *ctx, const struct f2fs_node *inode, int fd)
{
	const struct f2fs_inode *ri = &inode->i;
	uint64_t size = le64_to_cpu(ri->i_size);
	struct copy_run r = { .fd = fd };
	int err;

	if (ri->i_inline & F2FS_INLINE_DATA) {
		size_t max;
		const uint8_t *data = dump_inline_data(ctx, ri, &max);

		if (size > max)
			return dump_fail(ctx, -EFSCORRUPTED, "inline i_size %" PRIu64 " exceeds the inline area (%zu)",
					 size, max);
		if (write(fd, data, (size_t)size) != (ssize_t)size)
			return dump_fail(ctx, -errno, "write failed: %s", strerror(errno));
		return 0;
	}
	if (dump_cluster_log(ctx, ri)) {
		err = write_compressed(ctx, inode, fd, dump_cluster_log(ctx, ri));
	} else {
		r.buf = f2fs_blocks_alloc(RUN_MAX_BLOCKS);
		if (!r.buf)
			return dump_fail(ctx, -ENOMEM, "out of memory");
		err = dump_walk_file(ctx, inode, copy_block, NULL, &r);
		if (!err)
			err = flush_copy(ctx, &r);
		free(r.buf);
	}
	if (!err && ftruncate(fd, (off_t)size))
		err = dump_fail(ctx, -errno, "truncate failed: %s", strerror(errno));
	return err;
}

/* ---- metadata --------------------------------------------------------- */

struct xattr_target {
	int dirfd;
	const char *name;
	uint32_t ino;
};

static int restore_xattr(struct dump_ctx *ctx, const struct dump_xattr *x, void *arg)
{
	struct xattr_target *t = arg;
	char name[300];

	if (x->index != F2FS_XATTR_INDEX_USER && x->index != F2FS_XATTR_INDEX_TRUSTED &&
	    x->index != F2FS_XATTR_INDEX_SECURITY)
		return 0;
	snprintf(name, sizeof(name), "%s%.*s", x->prefix, (int)x->name_len, (const char *)x->name);
	{
		int fd = openat(t->dirfd, t->name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);

		if (fd < 0)
			return 0;
		if (fsetxattr(fd, name, x->value, x->value_len, 0))
			fprintf(stderr, "dump.f2fs: inode %u: cannot set xattr %s: %s\n", t->ino,
				name, strerror(errno));
		close(fd);
	}
	return 0;
}

static void restore_meta(struct extract *x, const struct f2fs_node *inode, int dirfd,
			 const char *name, bool is_link)
{
	const struct f2fs_inode *ri = &inode->i;
	struct xattr_target t = { dirfd, name, le32_to_cpu(inode->footer.ino) };
	struct timespec ts[2];

	if (!is_link && dump_for_each_xattr(x->ctx, inode, restore_xattr, &t))
		warn(x, "%s (inode %u): xattrs", name, t.ino, NULL);
	if (!x->ctx->opt.preserve)
		return;
	if (fchownat(dirfd, name, le32_to_cpu(ri->i_uid), le32_to_cpu(ri->i_gid),
		     AT_SYMLINK_NOFOLLOW))
		warn(x, "%s (inode %u): chown", name, t.ino, strerror(errno));
	if (!is_link && fchmodat(dirfd, name, le16_to_cpu(ri->i_mode) & 07777, 0))
		warn(x, "%s (inode %u): chmod", name, t.ino, strerror(errno));
	ts[0].tv_sec = (time_t)le64_to_cpu(ri->i_atime);
	ts[0].tv_nsec = le32_to_cpu(ri->i_atime_nsec) % 1000000000;
	ts[1].tv_sec = (time_t)le64_to_cpu(ri->i_mtime);
	ts[1].tv_nsec = le32_to_cpu(ri->i_mtime_nsec) % 1000000000;
	utimensat(dirfd, name, ts, AT_SYMLINK_NOFOLLOW);
}

/* ---- one inode -------------------------------------------------------- */

static int extract_inode(struct extract *x, uint32_t ino, int dirfd, const char *name,
			 bool into_dirfd);

/* Where an inode with several links was extracted first, or NULL. */
static const char *first_link(const struct extract *x, uint32_t ino)
{
	size_t i;

	for (i = 0; i < x->nlinks; i++)
		if (x->links[i].ino == ino)
			return x->links[i].path;
	return NULL;
}

static void remember_link(struct extract *x, uint32_t ino, const char *name)
{
	char rel[sizeof(x->path) + F2FS_NAME_LEN + 2];

	if (F2FS_ARRAY_ROOM(x->links, x->links_cap, x->nlinks + 1, 64))
		return;		/* later links become copies */
	snprintf(rel, sizeof(rel), "%s%s%s", x->path, x->path_len ? "/" : "", name);
	x->links[x->nlinks].path = strdup(rel);
	if (x->links[x->nlinks].path)
		x->links[x->nlinks++].ino = ino;
}

static int extract_regular(struct extract *x, const struct f2fs_node *inode, int dirfd,
			   const char *name)
{
	uint32_t ino = le32_to_cpu(inode->footer.ino);
	bool multi = le32_to_cpu(inode->i.i_links) > 1;
	const char *first = multi ? first_link(x, ino) : NULL;
	int fd, err;

	/* A second name of the same inode becomes a hard link again. */
	if (first && linkat(x->outfd, first, dirfd, name, 0) == 0) {
		x->files++;
		return 0;
	}
	fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0666);
	if (fd < 0)
		return dump_fail(x->ctx, -errno, "cannot create: %s", strerror(errno));
	err = write_contents(x->ctx, inode, fd);
	if (close(fd) && !err)
		err = dump_fail(x->ctx, -errno, "close failed: %s", strerror(errno));
	if (!err) {
		x->files++;
		restore_meta(x, inode, dirfd, name, false);
		if (multi && !first)
			remember_link(x, ino, name);
	}
	return err;
}

/* The target of a symlink: its data, i_size bytes (at most one block). */
static int read_link_target(struct dump_ctx *ctx, const struct f2fs_node *inode, char *buf)
{
	const struct f2fs_inode *ri = &inode->i;
	uint64_t size = le64_to_cpu(ri->i_size);
	uint32_t addr;

	if (size == 0 || size >= F2FS_BLKSIZE)
		return dump_fail(ctx, -EFSCORRUPTED, "symlink size %" PRIu64 " is invalid", size);
	if (ri->i_inline & F2FS_INLINE_DATA) {
		size_t max;
		const uint8_t *data = dump_inline_data(ctx, ri, &max);

		if (size > max)
			return dump_fail(ctx, -EFSCORRUPTED, "inline symlink too long");
		memcpy(buf, data, (size_t)size);
	} else {
		int err;

		addr = le32_to_cpu(ri->i_addr[dump_inode_extra_words(ri)]);
		if (!dump_is_valid_data_addr(ctx, addr) || !dump_addrs_per_inode(ctx, ri))
			return dump_fail(ctx, -EFSCORRUPTED, "symlink block address 0x%x is invalid", addr);
		err = f2fs_dev_read(ctx->fs->dev, addr, 1, buf);
		if (err)
			return dump_fail(ctx, err, "cannot read the symlink block");
	}
	buf[size] = '\0';
	if (strlen(buf) != size)
		return dump_fail(ctx, -EFSCORRUPTED, "symlink target contains a NUL byte");
	return 0;
}

static int extract_symlink(struct extract *x, const struct f2fs_node *inode, int dirfd,
			   const char *name)
{
	char *target = malloc(F2FS_BLKSIZE + 1);
	int err, fd;

	if (!target)
		return dump_fail(x->ctx, -ENOMEM, "out of memory");
	err = read_link_target(x->ctx, inode, target);
	if (!err && x->ctx->opt.keep_symlinks) {
		unlinkat(dirfd, name, 0);
		if (symlinkat(target, dirfd, name))
			err = dump_fail(x->ctx, -errno, "symlink failed: %s", strerror(errno));
		else
			restore_meta(x, inode, dirfd, name, true);
	} else if (!err) {
		fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0666);
		if (fd < 0 || write(fd, target, strlen(target)) != (ssize_t)strlen(target))
			err = dump_fail(x->ctx, -errno, "cannot write: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		if (!err)
			restore_meta(x, inode, dirfd, name, false);
	}
	if (!err)
		x->symlinks++;
	free(target);
	return err;
}

/* ---- directories ------------------------------------------------------ */

struct dentry_list {
	struct dentry_item {
		uint32_t ino;
		uint8_t type;
		char name[F2FS_NAME_LEN + 1];
	} *items;
	size_t n, cap;
	uint64_t bad;
};

static int add_dentry(struct dentry_list *l, uint32_t ino, uint8_t type,
		      const uint8_t *name, size_t len)
{
	if (!safe_name(name, len)) {
		if (!(len == 1 && name[0] == '.') && !(len == 2 && name[0] == '.' && name[1] == '.'))
			l->bad++;
		return 0;
	}
	if (F2FS_ARRAY_ROOM(l->items, l->cap, l->n + 1, 64))
		return -ENOMEM;
	l->items[l->n].ino = ino;
	l->items[l->n].type = type;
	memcpy(l->items[l->n].name, name, len);
	l->items[l->n].name[len] = '\0';
	l->n++;
	return 0;
}

/* Collect the entries of one dentry area (block or inline). */
static int scan_dentries(struct dentry_list *l, const uint8_t *bitmap, uint32_t n,
			 const struct f2fs_dir_entry *de, const uint8_t (*names)[F2FS_SLOT_LEN])
{
	uint32_t i = 0;
	int err;

	while (i < n) {
		uint16_t len;
		uint32_t slots;

		if (!test_bit_le(i, bitmap)) {
			i++;
			continue;
		}
		len = le16_to_cpu(de[i].name_len);
		slots = GET_DENTRY_SLOTS(len);
		if (!len || i + slots > n) {
			if (len)
				l->bad++;
			i++;
			continue;
		}
		err = add_dentry(l, le32_to_cpu(de[i].ino), de[i].file_type, names[i], len);
		if (err)
			return err;
		i += slots;
	}
	return 0;
}

static int scan_inline_dir(struct dump_ctx *ctx, const struct f2fs_inode *ri,
			   struct dentry_list *l)
{
	size_t size;
	const uint8_t *area = dump_inline_data(ctx, ri, &size);
	uint32_t n = f2fs_inline_dentry_slots((uint32_t)size);
	size_t bitmap = (n + 7) / 8;
	size_t de_off = size - (size_t)n * (SIZE_OF_DIR_ENTRY + F2FS_SLOT_LEN);

	if (!n || de_off < bitmap)
		return 0;
	return scan_dentries(l, area, n, (const void *)(area + de_off),
			     (const void *)(area + size - (size_t)n * F2FS_SLOT_LEN));
}

struct dir_scan {
	struct dentry_list *l;
	uint8_t block[F2FS_BLKSIZE];
};

static int scan_dir_block(struct dump_ctx *ctx, uint64_t fofs, uint32_t addr, void *arg)
{
	struct dir_scan *s = arg;
	const struct f2fs_dentry_block *b = (const void *)s->block;
	int err;

	if (!dump_is_valid_data_addr(ctx, addr))
		return 0;	/* NEW_ADDR: an empty block */
	err = f2fs_dev_read(ctx->fs->dev, addr, 1, s->block);
	if (err)
		return dump_fail(ctx, err, "cannot read dentry block 0x%x", addr);
	return scan_dentries(s->l, b->dentry_bitmap, NR_DENTRY_IN_BLOCK, b->dentry, b->filename);
}

static int collect_dir(struct dump_ctx *ctx, const struct f2fs_node *inode, struct dentry_list *l)
{
	struct dir_scan *s;
	int err;

	if (inode->i.i_inline & F2FS_INLINE_DENTRY)
		return scan_inline_dir(ctx, &inode->i, l);
	s = malloc(sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->l = l;
	err = dump_walk_file(ctx, inode, scan_dir_block, NULL, s);
	free(s);
	return err;
}

static bool on_stack(const struct extract *x, uint32_t ino)
{
	int i;

	for (i = 0; i < x->depth; i++)
		if (x->dir_stack[i] == ino)
			return true;
	return false;
}

static int extract_children(struct extract *x, const struct f2fs_node *inode, int fd)
{
	struct dentry_list l = { 0 };
	uint32_t ino = le32_to_cpu(inode->footer.ino);
	size_t i;
	int err;

	err = collect_dir(x->ctx, inode, &l);
	if (err) {
		free(l.items);
		return err;
	}
	if (inode->i.i_advise & FADVISE_ENCRYPT_BIT) {
		/* names and contents are ciphertext: nothing to write without the key */
		fprintf(stderr, "dump.f2fs: directory %u is encrypted: %" PRIu64
			" entries skipped\n", ino, (uint64_t)l.n + l.bad);
		x->skipped += l.n + l.bad;
		free(l.items);
		return 0;
	}
	if (l.bad)
		fprintf(stderr, "dump.f2fs: directory %u: %" PRIu64 " unusable entries skipped\n",
			ino, l.bad);
	x->dir_stack[x->depth++] = ino;
	for (i = 0; i < l.n; i++)
		extract_inode(x, l.items[i].ino, fd, l.items[i].name, false);
	x->depth--;
	free(l.items);
	return 0;
}

static int extract_dir(struct extract *x, const struct f2fs_node *inode, int dirfd,
		       const char *name, bool into_dirfd)
{
	uint32_t ino = le32_to_cpu(inode->footer.ino);
	size_t saved_len;
	int fd, err;

	if (x->depth >= EXTRACT_MAX_DEPTH)
		return dump_fail(x->ctx, -ELOOP, "directories nested too deeply");
	if (on_stack(x, ino))
		return dump_fail(x->ctx, -ELOOP, "directory cycle");
	/* F2FS has no directory hard links: a second reference is damage, and
	 * following it could make the work grow exponentially. */
	if (ino < x->ctx->fs->max_nid && f2fs_test_bit(ino, x->dir_seen))
		return dump_fail(x->ctx, -EFSCORRUPTED, "directory already extracted elsewhere");
	if (ino < x->ctx->fs->max_nid)
		f2fs_set_bit(ino, x->dir_seen);
	if (into_dirfd) {
		fd = dup(dirfd);
	} else {
		if (mkdirat(dirfd, name, 0700) && errno != EEXIST)
			return dump_fail(x->ctx, -errno, "mkdir failed: %s", strerror(errno));
		fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	}
	if (fd < 0)
		return dump_fail(x->ctx, -errno, "cannot open directory: %s", strerror(errno));
	saved_len = x->path_len;
	if (!into_dirfd) {
		int n = snprintf(x->path + x->path_len, sizeof(x->path) - x->path_len, "%s%s",
				 x->path_len ? "/" : "", name);

		if (n > 0 && (size_t)n < sizeof(x->path) - x->path_len)
			x->path_len += (size_t)n;
	}
	err = extract_children(x, inode, fd);
	x->path_len = saved_len;
	x->path[saved_len] = 0;
	x->dirs++;
	if (!into_dirfd) {
		if (!x->ctx->opt.preserve)
			fchmodat(dirfd, name, 0755, 0);
		restore_meta(x, inode, dirfd, name, false);
	}
	close(fd);
	return err;
}

static int extract_inode(struct extract *x, uint32_t ino, int dirfd, const char *name,
			 bool into_dirfd)
{
	struct f2fs_node *inode = malloc(sizeof(*inode));
	uint16_t mode;
	int err;

	if (!inode)
		return dump_fail(x->ctx, -ENOMEM, "out of memory");
	err = dump_read_node(x->ctx, ino, inode, NULL);
	if (!err && le32_to_cpu(inode->footer.ino) != ino)
		err = -EFSCORRUPTED;
	if (err) {
		x->failed++;
		warn(x, "%s (inode %u)", name, ino, err == -ENOENT ? "inode not in use" :
		     f2fs_strerror(err));
		free(inode);
		return err;
	}
	mode = le16_to_cpu(inode->i.i_mode);
	if (S_ISDIR(mode))
		err = extract_dir(x, inode, dirfd, name, into_dirfd);
	else if (S_ISREG(mode))
		err = extract_regular(x, inode, dirfd, name);
	else if (S_ISLNK(mode))
		err = extract_symlink(x, inode, dirfd, name);
	else
		x->skipped++;
	if (err) {
		x->failed++;
		warn(x, "%s (inode %u)", name, ino, NULL);
	}
	free(inode);
	return err;
}

/* Name for -i ino: the inode's i_name if usable, else ino_<n>. */
static void name_of_inode(struct dump_ctx *ctx, uint32_t ino, char *buf, size_t size)
{
	struct f2fs_node node;
	uint32_t len;

	snprintf(buf, size, "ino_%u", ino);
	if (dump_read_node(ctx, ino, &node, NULL))
		return;
	len = le32_to_cpu(node.i.i_namelen);
	if (len < size && safe_name(node.i.i_name, len)) {
		memcpy(buf, node.i.i_name, len);
		buf[len] = '\0';
	}
}

int dump_extract(struct dump_ctx *ctx)
{
	struct extract *x = calloc(1, sizeof(*x));
	uint32_t ino = ctx->opt.from_root ? F2FS_ROOT_INO : ctx->opt.ino;
	char name[F2FS_NAME_LEN + 16];
	int dirfd, err;

	if (!x)
		return dump_fail(ctx, -ENOMEM, "out of memory");
	x->ctx = ctx;
	x->dir_seen = calloc((size_t)ctx->fs->max_nid / 8 + 1, 1);
	if (!x->dir_seen) {
		free(x);
		return dump_fail(ctx, -ENOMEM, "out of memory");
	}
	if (mkdir(ctx->opt.out_dir, 0755) && errno != EEXIST) {
		free(x->dir_seen);
		free(x);
		return dump_fail(ctx, -errno, "cannot create %s: %s", ctx->opt.out_dir, strerror(errno));
	}
	dirfd = open(ctx->opt.out_dir, O_RDONLY | O_DIRECTORY);
	if (dirfd < 0) {
		free(x->dir_seen);
		free(x);
		return dump_fail(ctx, -errno, "cannot open %s: %s", ctx->opt.out_dir, strerror(errno));
	}
	name_of_inode(ctx, ino, name, sizeof(name));
	x->outfd = dirfd;
	extract_inode(x, ino, dirfd, name, ino == F2FS_ROOT_INO);
	close(dirfd);
	for (size_t i = 0; i < x->nlinks; i++)
		free(x->links[i].path);
	free(x->links);
	fprintf(stderr, "dump.f2fs: extracted %" PRIu64 " files, %" PRIu64 " directories, %" PRIu64
		" symlinks into %s (%" PRIu64 " skipped, %" PRIu64 " failed)\n", x->files, x->dirs,
		x->symlinks, ctx->opt.out_dir, x->skipped, x->failed);
	err = x->failed ? dump_fail(ctx, -EIO, "%" PRIu64 " inodes could not be extracted", x->failed) : 0;
	free(x->dir_seen);
	free(x);
	return err;
}
