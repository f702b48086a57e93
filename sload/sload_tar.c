/*
 * sload_tar.c - sload.f2fs's tar input (--tar FILE|-, or -f naming a
 * regular file): POSIX ustar and pax archives, and GNU tar's long names.
 * Entries are written as the stream gives them: a file's data goes from
 * the stream straight to its blocks, so nothing of the archive is kept
 * but the directories being written.
 *
 * A directory's entries and inode are written once the stream has left
 * its subtree, which is when `tar -c DIR` and bench/tar-gen.c have given
 * all of it: memory then holds only the directories on the path of the
 * current entry.  An archive in another order (an entry whose directory
 * was already written) stops the load with a message, unless --any-order
 * keeps every directory in memory until the end of the stream.
 *
 * The archive's top directory merges into the volume's root (sload_tree.c
 * reads and rewrites it); a name the root has already keeps the volume's
 * entry and the archive's is skipped, and entries below a directory the
 * volume has are refused (merging at depth is for directory sources).
 * Whole zero blocks of a file are left as holes (tar stores holes as
 * zeros; the file reads back the same).  Hard links (type 1) name an
 * earlier entry; its inode's link count is raised after the stream ends.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/sysmacros.h>

#include "f2fs_array.h"
#include "f2fs_casefold.h"
#include "f2fs_err.h"
#include "sload.h"

#define TAR_BLOCK	512
#define TAR_BUF_BYTES	(1u << 20)
#define TAR_META_MAX	(16u << 20)	/* a pax header or GNU long name */

/* ---- the byte stream ---- */

struct tar_in {
	int fd;
	uint8_t *buf;
	size_t len, pos;
	uint64_t offset;	/* of buf[pos] in the archive */
};

static int in_fill(struct tar_in *t)
{
	ssize_t r;

	if (t->pos < t->len)
		return 0;
	do
		r = read(t->fd, t->buf, TAR_BUF_BYTES);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	t->len = (size_t)r;
	t->pos = 0;
	return 0;
}

/* Exactly n bytes (dst NULL: skip them); -EIO when the archive ends first. */
static int in_read(struct tar_in *t, void *dst, uint64_t n)
{
	uint8_t *d = dst;

	while (n) {
		size_t k;
		int err = in_fill(t);

		if (err)
			return err;
		if (t->pos == t->len)
			return -EIO;
		k = t->len - t->pos < n ? t->len - t->pos : (size_t)n;
		if (d) {
			memcpy(d, t->buf + t->pos, k);
			d += k;
		}
		t->pos += k;
		t->offset += k;
		n -= k;
	}
	return 0;
}

/* 0 and *eof when the archive ends before a block starts. */
static int in_header(struct tar_in *t, uint8_t *blk, bool *eof)
{
	int err = in_fill(t);

	*eof = !err && t->pos == t->len;
	return err || *eof ? err : in_read(t, blk, TAR_BLOCK);
}

static uint64_t padding(uint64_t size)
{
	return (TAR_BLOCK - size % TAR_BLOCK) % TAR_BLOCK;
}

/* ---- headers ---- */

struct tar_xattrs {
	struct sload_xattr *v;
	size_t n, cap;
};

/* What a pax header or GNU long-name entry says about the next entry. */
struct tar_meta {
	char *path, *link;
	bool has_size, has_uid, has_gid, has_mtime, has_atime, has_ctime, has_major, has_minor;
	uint64_t size, uid, gid, major, minor;
	struct timespec mtime, atime, ctime;
	struct tar_xattrs x;
};

struct tar_entry {
	char *path;		/* normalized, relative to the archive's top */
	char *link;		/* symlink target (as stored) or hard-link path */
	char type;
	struct stat st;
	struct tar_xattrs x;
};

static void xattrs_free(struct tar_xattrs *x)
{
	for (size_t k = 0; k < x->n; k++) {
		free(x->v[k].name);
		free(x->v[k].value);
	}
	free(x->v);
	memset(x, 0, sizeof(*x));
}

static void meta_free(struct tar_meta *m)
{
	free(m->path);
	free(m->link);
	xattrs_free(&m->x);
	memset(m, 0, sizeof(*m));
}

static void entry_free(struct tar_entry *e)
{
	free(e->path);
	free(e->link);
	xattrs_free(&e->x);
	memset(e, 0, sizeof(*e));
}

/* A numeric field: octal digits (spaces and NULs around them), or GNU's
 * base-256 form (high bit of the first byte set).  -EINVAL for anything
 * else or a negative base-256 value. */
static int parse_number(const uint8_t *f, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t k = 0;

	if (f[0] & 0x80) {
		if (f[0] & 0x40)
			return -EINVAL;
		v = f[0] & 0x3f;
		for (k = 1; k < n; k++) {
			if (v >> 56)
				return -EINVAL;
			v = (v << 8) | f[k];
		}
		*out = v;
		return 0;
	}
	while (k < n && f[k] == ' ')
		k++;
	for (; k < n && f[k] >= '0' && f[k] <= '7'; k++) {
		if (v >> 61)
			return -EINVAL;
		v = (v << 3) | (uint64_t)(f[k] - '0');
	}
	for (; k < n; k++)
		if (f[k] != ' ' && f[k] != 0)
			return -EINVAL;
	*out = v;
	return 0;
}

static bool header_checksum_ok(const uint8_t *h)
{
	uint64_t want;
	uint32_t usum = 0;
	int32_t ssum = 0;

	if (parse_number(h + 148, 8, &want))
		return false;
	for (int k = 0; k < TAR_BLOCK; k++) {
		uint8_t b = (k >= 148 && k < 156) ? ' ' : h[k];

		usum += b;
		ssum += (int8_t)b;
	}
	return want == usum || (int64_t)want == ssum;
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (p[k])
			return false;
	return true;
}

/* The archive's path p without "." components, empty ones, leading and
 * trailing slashes; "" for the top directory.  -EINVAL for "..". */
static int normalize_path(const char *p, char **out)
{
	size_t n = strlen(p), o = 0;
	char *r = malloc(n + 1);

	if (!r)
		return -ENOMEM;
	while (*p) {
		const char *s = p;
		size_t len;

		while (*p && *p != '/')
			p++;
		len = (size_t)(p - s);
		while (*p == '/')
			p++;
		if (!len || (len == 1 && s[0] == '.'))
			continue;
		if ((len == 2 && s[0] == '.' && s[1] == '.') || len > F2FS_NAME_LEN) {
			free(r);
			return len > F2FS_NAME_LEN ? -ENAMETOOLONG : -EINVAL;
		}
		if (o)
			r[o++] = '/';
		memcpy(r + o, s, len);
		o += len;
	}
	r[o] = 0;
	*out = r;
	return 0;
}

static int xattrs_add(struct tar_xattrs *x, const char *name, const void *val, size_t len)
{
	struct sload_xattr *e;

	for (size_t k = 0; k < x->n; k++)	/* a later record replaces an earlier one */
		if (!strcmp(x->v[k].name, name)) {
			e = &x->v[k];
			free(e->value);
			goto value;
		}
	if (F2FS_ARRAY_ROOM(x->v, x->cap, x->n + 1, 8))
		return -ENOMEM;
	e = &x->v[x->n];
	e->name = strdup(name);
	if (!e->name)
		return -ENOMEM;
	x->n++;
value:
	e->value = malloc(len ? len : 1);
	if (!e->value)
		return -ENOMEM;
	memcpy(e->value, val, len);
	e->len = len;
	return 0;
}

/* "seconds[.fraction]" of a pax time record. */
static int parse_pax_time(const char *s, struct timespec *ts)
{
	char *end;
	long long sec;
	long ns = 0, scale = 100000000;

	errno = 0;
	sec = strtoll(s, &end, 10);
	if (errno || end == s)
		return -EINVAL;
	if (*end == '.')
		for (end++; *end >= '0' && *end <= '9'; end++, scale /= 10)
			ns += (*end - '0') * scale;
	if (*end)
		return -EINVAL;
	if (sec < 0 && ns) {	/* -1.25 is 2 seconds back and 0.75 forward */
		sec--;
		ns = 1000000000 - ns;
	}
	ts->tv_sec = (time_t)sec;
	ts->tv_nsec = ns;
	return 0;
}

static int parse_pax_u64(const char *s, uint64_t *v, bool *has)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-')
		return -EINVAL;
	*has = true;
	return 0;
}

static int replace_string(char **dst, const char *val, size_t len)
{
	char *p = malloc(len + 1);

	if (!p)
		return -ENOMEM;
	memcpy(p, val, len);
	p[len] = 0;
	free(*dst);
	*dst = p;
	return 0;
}

/* One "key=value" record of a pax extended header; value has vlen bytes
 * (binary for xattrs) and a NUL after them. */
static int pax_record(struct tar_meta *m, const char *key, const char *val, size_t vlen)
{
	if (!strcmp(key, "path"))
		return replace_string(&m->path, val, vlen);
	if (!strcmp(key, "linkpath"))
		return replace_string(&m->link, val, vlen);
	if (!strcmp(key, "size"))
		return parse_pax_u64(val, &m->size, &m->has_size);
	if (!strcmp(key, "uid"))
		return parse_pax_u64(val, &m->uid, &m->has_uid);
	if (!strcmp(key, "gid"))
		return parse_pax_u64(val, &m->gid, &m->has_gid);
	if (!strcmp(key, "SCHILY.devmajor"))
		return parse_pax_u64(val, &m->major, &m->has_major);
	if (!strcmp(key, "SCHILY.devminor"))
		return parse_pax_u64(val, &m->minor, &m->has_minor);
	if (!strcmp(key, "mtime"))
		return (m->has_mtime = true), parse_pax_time(val, &m->mtime);
	if (!strcmp(key, "atime"))
		return (m->has_atime = true), parse_pax_time(val, &m->atime);
	if (!strcmp(key, "ctime"))
		return (m->has_ctime = true), parse_pax_time(val, &m->ctime);
	if (!strncmp(key, "SCHILY.xattr.", 13))
		return xattrs_add(&m->x, key + 13, val, vlen);
	if (!strcmp(key, "RHT.security.selinux"))
		return xattrs_add(&m->x, "security.selinux", val, vlen);
	if (!strncmp(key, "GNU.sparse.", 11))
		return -EOPNOTSUPP;	/* GNU sparse files: archive without --sparse */
	return 0;	/* uname, gname, comments, LIBARCHIVE.xattr (SCHILY has it too) */
}

/* The records "LEN key=value\n" of a pax header's data p[0..n). */
static int parse_pax(struct tar_meta *m, char *p, size_t n)
{
	size_t off = 0;

	while (off < n) {
		char *rec = p + off, *sp, *eq, *end;
		unsigned long len;
		int err;

		if (p[off] == 0)
			break;		/* NUL padding */
		errno = 0;
		len = strtoul(rec, &sp, 10);
		if (errno || sp == rec || *sp != ' ' || len < 5 || len > n - off || rec[len - 1] != '\n')
			return -EINVAL;
		end = rec + len - 1;
		eq = memchr(sp + 1, '=', (size_t)(end - sp - 1));
		if (!eq)
			return -EINVAL;
		*eq = 0;
		*end = 0;
		err = pax_record(m, sp + 1, eq + 1, (size_t)(end - eq - 1));
		if (err)
			return err;
		off += len;
	}
	return 0;
}

/* The data of a metadata entry (pax header, GNU long name), NUL ended. */
static int read_meta_data(struct tar_in *t, uint64_t size, char **out)
{
	char *p;
	int err;

	if (size > TAR_META_MAX)
		return -E2BIG;
	p = malloc((size_t)size + 1);
	if (!p)
		return -ENOMEM;
	err = in_read(t, p, size);
	if (!err)
		err = in_read(t, NULL, padding(size));
	p[size] = 0;
	if (err)
		free(p);
	else
		*out = p;
	return err;
}

/* A string field of n bytes, not necessarily NUL ended. */
static char *field_string(const uint8_t *f, size_t n)
{
	return strndup((const char *)f, n);
}

static mode_t type_mode(char type)
{
	switch (type) {
	case '2': return S_IFLNK;
	case '3': return S_IFCHR;
	case '4': return S_IFBLK;
	case '5': return S_IFDIR;
	case '6': return S_IFIFO;
	default: return S_IFREG;	/* 0, NUL, 7 (contiguous), 1 (its target's), unknown */
	}
}

/* Fill e from a ustar header h and the pending metadata m. */
static int build_entry(const uint8_t *h, const struct tar_meta *m, struct tar_entry *e)
{
	uint64_t mode, uid, gid, size, mtime, major = 0, minor = 0;
	bool posix = !memcmp(h + 257, "ustar", 6);	/* not GNU's "ustar  " */
	char *name = NULL;
	int err = 0;

	memset(e, 0, sizeof(*e));
	e->type = (char)h[156];
	/* a time before 1970 is only in the pax record (base-256 negative here) */
	if (parse_number(h + 136, 12, &mtime) && !m->has_mtime)
		return -EINVAL;
	if (parse_number(h + 100, 8, &mode) || parse_number(h + 108, 8, &uid) ||
	    parse_number(h + 116, 8, &gid) || parse_number(h + 124, 12, &size) ||
	    ((e->type == '3' || e->type == '4') &&
	     (parse_number(h + 329, 8, &major) || parse_number(h + 337, 8, &minor))))
		return -EINVAL;
	if (m->path) {
		name = strdup(m->path);
	} else if (posix && h[345]) {
		char *pre = field_string(h + 345, 155), *base = field_string(h, 100);

		name = pre && base ? malloc(strlen(pre) + strlen(base) + 2) : NULL;
		if (name)
			sprintf(name, "%s/%s", pre, base);
		free(pre);
		free(base);
	} else {
		name = field_string(h, 100);
	}
	if (!name)
		return -ENOMEM;
	/* old archives mark a directory by a trailing slash only */
	if ((e->type == '0' || e->type == 0) && *name && name[strlen(name) - 1] == '/')
		e->type = '5';
	err = normalize_path(name, &e->path);
	free(name);
	if (err)
		return err;
	e->link = m->link ? strdup(m->link) : field_string(h + 157, 100);
	if (!e->link)
		return -ENOMEM;
	e->st.st_mode = type_mode(e->type) | (mode_t)(mode & 07777);
	e->st.st_uid = (uid_t)(m->has_uid ? m->uid : uid);
	e->st.st_gid = (gid_t)(m->has_gid ? m->gid : gid);
	e->st.st_size = (off_t)(m->has_size ? m->size : size);
	e->st.st_nlink = 1;
	e->st.st_mtim = m->has_mtime ? m->mtime : (struct timespec){ .tv_sec = (time_t)mtime };
	e->st.st_atim = m->has_atime ? m->atime : e->st.st_mtim;
	e->st.st_ctim = m->has_ctime ? m->ctime : e->st.st_mtim;
	e->st.st_rdev = makedev((unsigned int)(m->has_major ? m->major : major),
				(unsigned int)(m->has_minor ? m->minor : minor));
	e->x = m->x;
	return 0;
}

/* The next file entry of the archive, its data not read yet (*eof at
 * the end).  Metadata entries before it (pax 'x', GNU 'L'/'K') are
 * applied; global pax headers ('g') and volume labels ('V') are read and
 * ignored. */
static int next_entry(struct tar_in *t, struct tar_entry *e, bool *eof)
{
	struct tar_meta m = { 0 };
	uint8_t h[TAR_BLOCK];
	int err;

	for (;;) {
		uint64_t size;
		char *data = NULL;

		err = in_header(t, h, eof);
		if (err || *eof)
			break;
		if (all_zero(h, TAR_BLOCK)) {
			*eof = true;	/* end-of-archive blocks */
			break;
		}
		if (!header_checksum_ok(h) || parse_number(h + 124, 12, &size)) {
			err = -EINVAL;
			break;
		}
		switch (h[156]) {
		case 'x': case 'g': case 'L': case 'K':
			err = read_meta_data(t, size, &data);
			if (!err && h[156] == 'x')
				err = parse_pax(&m, data, (size_t)size);
			else if (!err && h[156] == 'L')
				err = replace_string(&m.path, data, strlen(data));
			else if (!err && h[156] == 'K')
				err = replace_string(&m.link, data, strlen(data));
			free(data);
			if (err)
				goto out;
			continue;
		case 'V':
			err = in_read(t, NULL, size + padding(size));
			if (err)
				goto out;
			continue;
		case 'S': case 'M':
			err = -EOPNOTSUPP;	/* GNU sparse and multi-volume entries */
			goto out;
		default:
			err = build_entry(h, &m, e);
			if (!err)
				memset(&m.x, 0, sizeof(m.x));	/* e owns them now */
			goto out;
		}
	}
out:
	meta_free(&m);
	return err;
}

/* ---- directories being written ---- */

struct tar_dir {
	char *path;		/* relative; "" for the root */
	uint32_t ino, pino;
	bool casefold;
	bool in_volume;		/* the volume had it: not written here */
	bool have_header;
	struct tar_entry hdr;	/* its own entry (stat, xattrs) */
	struct sload_dent *d;	/* entries (the root's first nold are the volume's) */
	struct tar_dir **sub;	/* open subdirectory of d[k], or NULL */
	size_t nd, cap, nold;
	uint32_t *index;	/* hash of names -> k + 1 */
	size_t icap;
	uint32_t subdirs;
	struct tar_dir *parent;
};

struct tar_load {
	struct sload_ctx *c;
	struct tar_in in;
	struct tar_dir *root;
	struct tar_dir *last;		/* directory of the last entry */
	const char *root_fs;		/* fs_config/file_contexts path of the root */
	uint32_t *links;		/* inodes that got one more link, one per link */
	size_t nlinks, caplinks;
	int tmp_fd;			/* staging file of compressed files */
	uint8_t *blk;
};

static uint32_t name_key(const struct sload_ctx *c, const char *name, size_t len, bool casefold)
{
	return sload_name_hash(c, name, len, casefold) * 2654435761u;
}

static bool same_entry_name(const struct sload_ctx *c, const struct sload_dent *d, const char *name,
			    size_t len, bool casefold)
{
	uint8_t fa[F2FS_CASEFOLD_MAX], fb[F2FS_CASEFOLD_MAX];
	int na, nb;

	if (d->len == len && !memcmp(d->name, name, len))
		return true;
	if (!casefold || !(c->fs->features & F2FS_FEATURE_CASEFOLD))
		return false;
	na = f2fs_casefold((const uint8_t *)d->name, d->len, fa, sizeof(fa));
	nb = f2fs_casefold((const uint8_t *)name, len, fb, sizeof(fb));
	return na >= 0 && na == nb && !memcmp(fa, fb, (size_t)na);
}

static int index_insert(const struct sload_ctx *c, struct tar_dir *dir, size_t k)
{
	size_t mask = dir->icap - 1;
	size_t s = name_key(c, dir->d[k].name, dir->d[k].len, dir->casefold) & mask;

	while (dir->index[s])
		s = (s + 1) & mask;
	dir->index[s] = (uint32_t)(k + 1);
	return 0;
}

static int index_grow(const struct sload_ctx *c, struct tar_dir *dir)
{
	size_t nc = dir->icap ? 2 * dir->icap : 64;
	uint32_t *p = calloc(nc, sizeof(*p));

	if (!p)
		return -ENOMEM;
	free(dir->index);
	dir->index = p;
	dir->icap = nc;
	for (size_t k = 0; k < dir->nd; k++)
		index_insert(c, dir, k);
	return 0;
}

/* Index of name in dir's entries, or -1. */
static long find_name(const struct sload_ctx *c, const struct tar_dir *dir, const char *name)
{
	size_t len = strlen(name), mask = dir->icap - 1, s;

	if (!dir->icap)
		return -1;
	for (s = name_key(c, name, len, dir->casefold) & mask; dir->index[s]; s = (s + 1) & mask) {
		size_t k = dir->index[s] - 1;

		if (same_entry_name(c, &dir->d[k], name, len, dir->casefold))
			return (long)k;
	}
	return -1;
}

static int add_name(struct sload_ctx *c, struct tar_dir *dir, const char *name, uint32_t ino,
		    uint8_t type)
{
	struct sload_dent *e;

	if (dir->nd == dir->cap) {
		/* two parallel arrays sharing cap: both grow to the same size */
		size_t cap_d = dir->cap, cap_sub = dir->cap;

		if (F2FS_ARRAY_ROOM(dir->d, cap_d, dir->nd + 1, 16) ||
		    F2FS_ARRAY_ROOM(dir->sub, cap_sub, dir->nd + 1, 16))
			return -ENOMEM;
		dir->cap = cap_d;
	}
	if (2 * (dir->nd + 1) > dir->icap && index_grow(c, dir))
		return -ENOMEM;
	e = &dir->d[dir->nd];
	memset(e, 0, sizeof(*e));
	e->name = strdup(name);
	if (!e->name)
		return -ENOMEM;
	e->len = (uint16_t)strlen(name);
	e->type = type;
	e->ino = ino;
	dir->sub[dir->nd] = NULL;
	index_insert(c, dir, dir->nd++);
	if (type == F2FS_FT_DIR)
		dir->subdirs++;
	return 0;
}

/* Free dir and the open directories below it (after an error). */
static void dir_free(struct tar_dir *dir)
{
	for (size_t k = 0; k < dir->nd; k++) {
		free(dir->d[k].name);
		if (dir->sub[k])
			dir_free(dir->sub[k]);
	}
	free(dir->d);
	free(dir->sub);
	free(dir->index);
	free(dir->path);
	entry_free(&dir->hdr);
	free(dir);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static char *fs_path_of(const struct tar_load *l, const char *path)
{
	size_t a = strlen(l->root_fs), b = strlen(path);
	bool slash = a && l->root_fs[a - 1] == '/';
	char *p = malloc(a + b + 2);

	if (!p)
		return NULL;
	memcpy(p, l->root_fs, a);
	if (!slash && b)
		p[a++] = '/';
	memcpy(p + a, path, b + 1);
	return p;
}

/* Write directory dir (its entries, then its inode) and free it. */
static int close_dir(struct tar_load *l, struct tar_dir *dir)
{
	struct sload_ctx *c = l->c;
	struct f2fs_node *n = NULL;
	char *fs_path = NULL;
	uint64_t blocks = 0;
	int err = 0;

	for (size_t k = 0; k < dir->nd && !err; k++)
		if (dir->sub[k])
			err = close_dir(l, dir->sub[k]);
	if (err || dir->in_volume)
		goto out;
	if (!dir->have_header) {	/* a directory only named in paths */
		dir->hdr.st.st_mode = S_IFDIR | 0755;
		dir->hdr.st.st_nlink = 1;
		clock_gettime(CLOCK_REALTIME, &dir->hdr.st.st_mtim);
		dir->hdr.st.st_atim = dir->hdr.st.st_ctim = dir->hdr.st.st_mtim;
	}
	n = malloc(sizeof(*n));
	fs_path = fs_path_of(l, dir->path);
	err = n && fs_path ? 0 : -ENOMEM;
	if (err)
		goto out;
	sload_effective_stat(c, fs_path, &dir->hdr.st);
	sload_inode_init(c, n, &dir->hdr.st, dir->pino, base_name(dir->path), strlen(base_name(dir->path)));
	if (dir->casefold)
		n->i.i_flags |= cpu_to_le32(F2FS_CASEFOLD_FL);
	c->src_xattrs = dir->hdr.x.v;
	c->n_src_xattrs = dir->hdr.x.n;
	err = sload_xattrs(c, n, dir->ino, NULL, fs_path, &dir->hdr.st, &blocks);
	c->src_xattrs = NULL;
	c->n_src_xattrs = 0;
	if (err)
		goto out;
	n->i.i_links = cpu_to_le32(2 + dir->subdirs);
	n->i.i_blocks = cpu_to_le64(1 + blocks);
	err = sload_write_dir_entries(c, n, dir->ino, dir->pino, dir->d, dir->nd, dir->casefold);
	if (!err)
		err = sload_quota_charge(c, &n->i, +1);
	if (!err)
		err = sload_write_node(c, n, dir->ino, dir->ino, 0, true, true);
	c->st.dirs++;
	if (!err && c->o.debug > 1)
		fprintf(stderr, "sload.f2fs: %s -> ino %u\n", fs_path, dir->ino);
out:
	if (err && !c->errbuf[0])
		snprintf(c->errbuf, sizeof(c->errbuf), "%s", fs_path ? fs_path : dir->path);
	if (dir->parent) {
		for (size_t k = 0; k < dir->parent->nd; k++)
			if (dir->parent->sub[k] == dir)
				dir->parent->sub[k] = NULL;
	}
	if (l->last == dir)
		l->last = dir->parent;
	free(fs_path);
	free(n);
	dir_free(dir);
	return err;
}

static bool path_within(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !n || (!strncmp(path, dir, n) && (path[n] == '/' || !path[n]));
}

/* In directory order, the directories the stream has left (those that
 * do not hold parent_path) are complete: write them. */
static int close_left(struct tar_load *l, const char *parent_path)
{
	int err = 0;

	if (l->c->o.any_order)
		return 0;
	while (!err && l->last && l->last != l->root && !path_within(parent_path, l->last->path)) {
		struct tar_dir *d = l->last;

		l->last = d->parent;
		err = close_dir(l, d);
	}
	return err;
}

static int out_of_order(struct tar_load *l, const char *path)
{
	snprintf(l->c->errbuf, sizeof(l->c->errbuf),
		 "%s: the archive comes back to a directory already written "
		 "(not in directory order; --any-order loads it)", path);
	return -EINVAL;
}

/* A new directory entry name in parent, open for its entries. */
static int open_dir(struct tar_load *l, struct tar_dir *parent, const char *path, struct tar_dir **out)
{
	struct tar_dir *dir = calloc(1, sizeof(*dir));
	int err = dir ? 0 : -ENOMEM;

	if (!err && !(dir->path = strdup(path)))
		err = -ENOMEM;
	if (!err)
		err = f2fs_nid_alloc(&l->c->nids, &dir->ino);
	if (!err)
		err = add_name(l->c, parent, base_name(path), dir->ino, F2FS_FT_DIR);
	if (err) {
		if (dir)
			dir_free(dir);
		return err;
	}
	dir->pino = parent->ino;
	dir->casefold = parent->casefold && (l->c->fs->features & F2FS_FEATURE_CASEFOLD);
	dir->parent = parent;
	parent->sub[parent->nd - 1] = dir;
	*out = dir;
	return 0;
}

/* The open directory of path (created, as a directory only named in
 * paths, where missing). */
static int find_dir(struct tar_load *l, const char *path, struct tar_dir **out)
{
	struct tar_dir *cur = l->root;
	const char *p = path;
	char name[F2FS_NAME_LEN + 1];
	int err = 0;

	while (*p && !err) {
		const char *s = p;
		long k;

		while (*p && *p != '/')
			p++;
		memcpy(name, s, (size_t)(p - s));
		name[p - s] = 0;
		k = find_name(l->c, cur, name);
		if (k < 0) {
			char *sub = strndup(path, (size_t)(p - path));

			err = sub ? open_dir(l, cur, sub, &cur) : -ENOMEM;
			free(sub);
		} else if (cur->sub[k]) {
			cur = cur->sub[k];
		} else if (cur->d[k].type != F2FS_FT_DIR) {
			snprintf(l->c->errbuf, sizeof(l->c->errbuf), "%.*s: not a directory in the archive%s",
				 (int)(p - path), path, (size_t)k < cur->nold ? " or the volume" : "");
			err = -ENOTDIR;
		} else {
			err = out_of_order(l, path);
		}
		if (*p == '/')
			p++;
	}
	*out = cur;
	return err;
}

/* ---- files ---- */

static int read_block(struct tar_load *l, uint64_t left)
{
	size_t n = left < F2FS_BLKSIZE ? (size_t)left : F2FS_BLKSIZE;

	memset(l->blk + n, 0, F2FS_BLKSIZE - n);
	return in_read(&l->in, l->blk, n);
}

/* A staging file for a compressed file's data (holes for zero blocks). */
static int stage_file(struct tar_load *l, uint64_t size)
{
	const char *dir = getenv("TMPDIR");
	int err = 0;

	if (l->tmp_fd < 0) {
		l->tmp_fd = open(dir && *dir ? dir : "/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		if (l->tmp_fd < 0)
			return -errno;
	}
	if (ftruncate(l->tmp_fd, 0))
		return -errno;
	for (uint64_t b = 0; b * F2FS_BLKSIZE < size && !err; b++) {
		err = read_block(l, size - b * F2FS_BLKSIZE);
		if (!err && !all_zero(l->blk, F2FS_BLKSIZE) &&
		    pwrite(l->tmp_fd, l->blk, F2FS_BLKSIZE, (off_t)(b * F2FS_BLKSIZE)) != F2FS_BLKSIZE)
			err = -EIO;
	}
	if (!err && ftruncate(l->tmp_fd, (off_t)size))
		err = -errno;
	return err;
}

static int write_file_data(struct tar_load *l, struct f2fs_node *n, uint32_t ino, const char *name,
			   uint64_t *blocks)
{
	struct sload_ctx *c = l->c;
	uint64_t size = le64_to_cpu(n->i.i_size);
	int log = sload_data_log(c, name, n), err = 0;
	struct sload_fmap m;

	if (sload_should_compress(c, name)) {
		err = stage_file(l, size);
		return err ? err : sload_write_compressed(c, n, ino, l->tmp_fd, blocks);
	}
	if (!c->o.no_inline_data && size <= sload_inline_capacity(c, &n->i)) {
		err = in_read(&l->in, &n->i.i_addr[sload_inode_extra_words(&n->i) + 1], size);
		n->i.i_inline |= F2FS_INLINE_DATA;
		if (size)
			n->i.i_inline |= F2FS_DATA_EXIST;
		return err;
	}
	sload_fmap_init(&m, c, n, ino, false);
	for (uint64_t b = 0; b * F2FS_BLKSIZE < size && !err; b++) {
		err = read_block(l, size - b * F2FS_BLKSIZE);
		if (!err && !all_zero(l->blk, F2FS_BLKSIZE))
			err = sload_fmap_add(&m, b, l->blk, log);
	}
	if (!err)
		err = sload_fmap_finish(&m);
	*blocks += m.blocks;
	sload_fmap_free(&m);
	return err;
}

/* A new inode for a non-directory entry e named name in dir. */
static int write_inode(struct tar_load *l, struct tar_dir *dir, struct tar_entry *e, uint32_t ino)
{
	struct sload_ctx *c = l->c;
	struct f2fs_node *n = malloc(sizeof(*n));
	const char *name = base_name(e->path);
	char *fs_path = fs_path_of(l, e->path);
	uint64_t blocks = 0;
	int err = n && fs_path ? 0 : -ENOMEM;

	if (err)
		goto out;
	sload_effective_stat(c, fs_path, &e->st);
	sload_inode_init(c, n, &e->st, dir->ino, name, strlen(name));
	c->src_xattrs = e->x.v;
	c->n_src_xattrs = e->x.n;
	err = sload_xattrs(c, n, ino, NULL, fs_path, &e->st, &blocks);
	c->src_xattrs = NULL;
	c->n_src_xattrs = 0;
	if (err)
		goto out;
	if (S_ISREG(e->st.st_mode)) {
		n->i.i_size = cpu_to_le64((uint64_t)e->st.st_size);
		err = write_file_data(l, n, ino, name, &blocks);
		c->st.files++;
	} else if (S_ISLNK(e->st.st_mode)) {
		err = sload_write_symlink_target(c, n, ino, e->link, strlen(e->link), &blocks);
		c->st.symlinks++;
	} else {
		if (S_ISCHR(e->st.st_mode) || S_ISBLK(e->st.st_mode))
			sload_write_rdev(n, e->st.st_rdev);
		c->st.specials++;
	}
	if (err)
		goto out;
	n->i.i_blocks = cpu_to_le64(1 + blocks);
	err = sload_quota_charge(c, &n->i, +1);
	if (!err)
		err = sload_write_node(c, n, ino, ino, 0, false, true);
	if (!err && c->o.debug > 1)
		fprintf(stderr, "sload.f2fs: %s -> ino %u\n", fs_path, ino);
out:
	if (err && !c->errbuf[0])
		snprintf(c->errbuf, sizeof(c->errbuf), "%s", fs_path ? fs_path : e->path);
	free(n);
	free(fs_path);
	return err;
}

/* Entry name of the written directory dir_ino: its inode and type. */
static int lookup_on_volume(struct sload_ctx *c, uint32_t dir_ino, const char *name, uint32_t *ino,
			    uint8_t *type)
{
	struct f2fs_node *n = malloc(sizeof(*n));
	struct f2fs_nat_entry e;
	struct sload_dent *d = NULL;
	uint32_t *blocks = NULL;
	size_t nd = 0, nb = 0, len = strlen(name);
	int err = n ? sload_read_node(c, dir_ino, &e, n) : -ENOMEM;

	if (!err && (le32_to_cpu(n->footer.nid) != dir_ino || !S_ISDIR(le16_to_cpu(n->i.i_mode))))
		err = -EFSCORRUPTED;
	if (!err)
		err = sload_read_dir_entries(c, n, &d, &nd, &blocks, &nb);
	if (!err)
		err = -ENOENT;
	for (size_t k = 0; k < nd; k++) {
		if (err == -ENOENT && d[k].len == len && !memcmp(d[k].name, name, len)) {
			*ino = d[k].ino;
			*type = d[k].type;
			err = 0;
		}
		free(d[k].name);
	}
	free(d);
	free(blocks);
	free(n);
	return err;
}

/* Inode ino (written in this run) gets more links: its block is written
 * again, out of place. */
static int add_links(struct sload_ctx *c, uint32_t ino, uint32_t more)
{
	struct f2fs_node *n = malloc(sizeof(*n));
	struct f2fs_nat_entry e;
	int err = n ? sload_read_node(c, ino, &e, n) : -ENOMEM;

	if (!err && (le32_to_cpu(n->footer.nid) != ino || le32_to_cpu(n->footer.ino) != ino))
		err = -EFSCORRUPTED;
	if (!err)
		err = f2fs_logs_release(&c->logs, le32_to_cpu(e.block_addr));
	if (!err) {
		n->i.i_links = cpu_to_le32(le32_to_cpu(n->i.i_links) + more);
		c->block_delta--;
		c->node_delta--;
		c->inode_delta--;
		c->st.node_blocks--;
		err = sload_write_node(c, n, ino, ino, 0, false, true);
	}
	free(n);
	return err;
}

/* The inode and file type of an earlier entry path (a directory written
 * already is read back from the volume). */
static int lookup_written(struct tar_load *l, const char *path, uint32_t *ino, uint8_t *type)
{
	struct sload_ctx *c = l->c;
	struct tar_dir *cur = l->root;
	const char *p = path;
	uint32_t dir_ino = 0;	/* a written directory being walked */
	int err = 0;

	*ino = 0;
	while (*p && !err) {
		const char *s = p;
		char name[F2FS_NAME_LEN + 1];

		while (*p && *p != '/')
			p++;
		memcpy(name, s, (size_t)(p - s));
		name[p - s] = 0;
		if (*p == '/')
			p++;
		if (!dir_ino) {
			long k = find_name(c, cur, name);

			if (k < 0 || (size_t)k < cur->nold)
				return -ENOENT;
			*ino = cur->d[k].ino;
			*type = cur->d[k].type;
			if (cur->sub[k])
				cur = cur->sub[k];
			else
				dir_ino = *type == F2FS_FT_DIR ? *ino : UINT32_MAX;
			continue;
		}
		if (dir_ino == UINT32_MAX)
			return -ENOTDIR;
		err = f2fs_logs_flush(&c->logs);
		if (!err)
			err = lookup_on_volume(c, dir_ino, name, ino, type);
		dir_ino = *type == F2FS_FT_DIR ? *ino : UINT32_MAX;
	}
	if (!err && !*ino)
		err = -ENOENT;
	return err;
}

static int hard_link(struct tar_load *l, struct tar_dir *dir, const struct tar_entry *e)
{
	char *target = NULL;
	uint32_t ino = 0;
	uint8_t type = 0;
	int err = normalize_path(e->link, &target);

	if (!err)
		err = lookup_written(l, target, &ino, &type);
	if (err == -ENOENT || (!err && type == F2FS_FT_DIR)) {
		snprintf(l->c->errbuf, sizeof(l->c->errbuf), "%s: hard link to %s, %s", e->path,
			 e->link, err ? "not an earlier entry of the archive" : "a directory");
		err = -EINVAL;
	}
	free(target);
	if (err)
		return err;
	if (F2FS_ARRAY_ROOM(l->links, l->caplinks, l->nlinks + 1, 64))
		return -ENOMEM;
	l->links[l->nlinks++] = ino;
	l->c->st.hardlinks++;
	return add_name(l->c, dir, base_name(e->path), ino, type);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Raise the link count of every inode that hard links named. */
static int finish_links(struct tar_load *l)
{
	struct sload_ctx *c = l->c;
	int err = l->nlinks ? f2fs_logs_flush(&c->logs) : 0;

	if (l->nlinks)
		qsort(l->links, l->nlinks, sizeof(*l->links), cmp_u32);
	for (size_t k = 0; k < l->nlinks && !err;) {
		size_t j = k;

		while (j < l->nlinks && l->links[j] == l->links[k])
			j++;
		err = add_links(c, l->links[k], (uint32_t)(j - k));
		k = j;
	}
	return err;
}

/* Bytes of data after the header: none for links, devices, FIFOs and
 * directories; regular, contiguous and unknown types have their size. */
static uint64_t data_size(const struct tar_entry *e)
{
	return e->type && strchr("123456", e->type) ? 0 : (uint64_t)e->st.st_size;
}

/* Skip the data of an entry not loaded. */
static int skip_data(struct tar_load *l, const struct tar_entry *e)
{
	return in_read(&l->in, NULL, data_size(e));
}

static int load_dir_entry(struct tar_load *l, struct tar_dir *parent, struct tar_entry *e)
{
	long k = find_name(l->c, parent, base_name(e->path));
	struct tar_dir *dir;
	int err;

	if (k >= 0 && (size_t)k < parent->nold) {
		if (parent->d[k].type != F2FS_FT_DIR)
			goto skip;
		/* a directory the volume has: entries below it are refused */
		dir = calloc(1, sizeof(*dir));
		if (!dir || !(dir->path = strdup(e->path))) {
			free(dir);
			return -ENOMEM;
		}
		dir->in_volume = true;
		dir->parent = parent;
		dir->ino = parent->d[k].ino;
		parent->sub[k] = dir;
		l->last = dir;
		return 0;
	}
	if (k >= 0 && parent->sub[k]) {
		dir = parent->sub[k];	/* named in a path before: now its own entry */
	} else if (k >= 0) {
		return parent->d[k].type == F2FS_FT_DIR ? out_of_order(l, e->path) : -EEXIST;
	} else {
		err = open_dir(l, parent, e->path, &dir);
		if (err)
			return err;
	}
	if (dir->in_volume)
		return 0;
	entry_free(&dir->hdr);
	dir->hdr = *e;
	memset(e, 0, sizeof(*e));
	dir->have_header = true;
	l->last = dir;
	return 0;
skip:
	fprintf(stderr, "sload.f2fs: %s exists in the volume: kept; the archive's %s skipped\n",
		parent->d[k].name, e->path);
	l->c->st.skipped++;
	return skip_data(l, e);
}

static int load_entry(struct tar_load *l, struct tar_entry *e)
{
	char *slash = strrchr(e->path, '/');
	char *parent_path = slash ? strndup(e->path, (size_t)(slash - e->path)) : strdup("");
	struct tar_dir *parent = NULL;
	uint32_t ino;
	long k;
	int err = parent_path ? close_left(l, parent_path) : -ENOMEM;

	if (!err)
		err = find_dir(l, parent_path, &parent);
	free(parent_path);
	if (!err && parent->in_volume) {
		snprintf(l->c->errbuf, sizeof(l->c->errbuf), "%s: the volume has its directory "
			 "already (a tar loads only into new directories and the root)", e->path);
		err = -EEXIST;
	}
	if (err)
		return err;
	l->last = parent;
	if (!*e->path)
		return skip_data(l, e);		/* the top directory: the root's options apply */
	if (S_ISDIR(e->st.st_mode))
		return load_dir_entry(l, parent, e);
	k = find_name(l->c, parent, base_name(e->path));
	if (k >= 0 && (size_t)k < parent->nold) {
		fprintf(stderr, "sload.f2fs: %s exists in the volume: kept; the archive's %s skipped\n",
			parent->d[k].name, e->path);
		l->c->st.skipped++;
		return skip_data(l, e);
	}
	if (k >= 0) {
		snprintf(l->c->errbuf, sizeof(l->c->errbuf), "%s: twice in the archive", e->path);
		return -EEXIST;
	}
	if (e->type == '1')
		return hard_link(l, parent, e);
	err = f2fs_nid_alloc(&l->c->nids, &ino);
	if (!err)
		err = add_name(l->c, parent, base_name(e->path), ino, sload_file_type(e->st.st_mode));
	if (!err)
		err = write_inode(l, parent, e, ino);
	return err;
}

static int load_stream(struct tar_load *l)
{
	int err = 0;

	for (;;) {
		struct tar_entry e = { 0 };
		uint64_t size;
		bool eof;
		uint64_t at = l->in.offset;

		err = next_entry(&l->in, &e, &eof);
		if (err || eof) {
			entry_free(&e);
			if (err && !l->c->errbuf[0])
				snprintf(l->c->errbuf, sizeof(l->c->errbuf), "%s: archive offset %llu",
					 l->c->o.tar, (unsigned long long)at);
			return err;
		}
		size = data_size(&e);
		err = load_entry(l, &e);
		if (!err)
			err = in_read(&l->in, NULL, padding(size));
		entry_free(&e);
		if (err)
			return err;
	}
}

static int root_dir(struct tar_load *l, uint32_t ino, bool casefold, const struct sload_dent *old,
		    size_t nold)
{
	struct tar_dir *r = calloc(1, sizeof(*r));
	int err = r ? 0 : -ENOMEM;

	if (!err && !(r->path = strdup("")))
		err = -ENOMEM;
	if (err) {
		free(r);
		return err;
	}
	r->ino = r->pino = ino;
	r->casefold = casefold;
	l->root = l->last = r;
	for (size_t k = 0; k < nold && !err; k++)
		err = add_name(l->c, r, old[k].name, old[k].ino, old[k].type);
	r->nold = r->nd;
	r->subdirs = 0;
	return err;
}

static int open_input(struct tar_load *l)
{
	const char *name = l->c->o.tar;

	l->in.fd = strcmp(name, "-") ? open(name, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
	if (l->in.fd < 0) {
		snprintf(l->c->errbuf, sizeof(l->c->errbuf), "%s", name);
		return -errno;
	}
	l->in.buf = malloc(TAR_BUF_BYTES);
	l->blk = malloc(F2FS_BLKSIZE);
	return l->in.buf && l->blk ? 0 : -ENOMEM;
}

int sload_tar_load(struct sload_ctx *c, uint32_t root_ino, bool casefold,
		   const struct sload_dent *old, size_t nold,
		   int (*add)(void *arg, const char *name, uint32_t ino, uint8_t type), void *arg)
{
	struct tar_load l = { .c = c, .tmp_fd = -1, .in.fd = -1 };
	int err = open_input(&l);

	l.root_fs = c->o.mount_point ? c->o.mount_point : "/";
	if (!err)
		err = root_dir(&l, root_ino, casefold, old, nold);
	if (!err)
		err = load_stream(&l);
	/* the root is rewritten by the caller with these entries */
	for (size_t k = 0; l.root && k < l.root->nd && !err; k++)
		if (l.root->sub[k])
			err = close_dir(&l, l.root->sub[k]);
	for (size_t k = l.root ? l.root->nold : 0; l.root && k < l.root->nd && !err; k++)
		err = add(arg, l.root->d[k].name, l.root->d[k].ino, l.root->d[k].type);
	if (!err)
		err = finish_links(&l);
	if (l.root)
		dir_free(l.root);
	if (l.in.fd > STDIN_FILENO)
		close(l.in.fd);
	if (l.tmp_fd >= 0)
		close(l.tmp_fd);
	free(l.in.buf);
	free(l.blk);
	free(l.links);
	return err;
}
