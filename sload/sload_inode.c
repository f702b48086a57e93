/*
 * sload_inode.c - the fields of a new inode as the kernel's f2fs_new_inode()
 * sets them (extra attribute area, inline xattr area on every inode), its
 * extended attributes (inline area, then an xattr node when they do not
 * fit), the data log its extension selects, and the inode checksum.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>

#include "f2fs_err.h"
#include "f2fs_crc.h"
#include "sload.h"

#define XATTR_NODE_BYTES	(F2FS_BLKSIZE - (uint32_t)sizeof(struct node_footer))
#define VFS_CAP_REVISION_2	0x02000000u
#define VFS_CAP_FLAGS_EFFECTIVE	0x000001u

uint32_t sload_inode_extra_words(const struct f2fs_inode *i)
{
	return (i->i_inline & F2FS_EXTRA_ATTR) ? le16_to_cpu(i->i_extra_isize) / 4 : 0;
}

/* The inline xattr area as the kernel sizes it on load. */
uint32_t sload_inode_xattr_words(const struct sload_ctx *c, const struct f2fs_inode *i)
{
	if (c->fs->features & F2FS_FEATURE_FLEXIBLE_INLINE_XATTR)
		return (i->i_inline & F2FS_INLINE_XATTR) ? le16_to_cpu(i->i_inline_xattr_size) : 0;
	return (i->i_inline & (F2FS_INLINE_XATTR | F2FS_INLINE_DENTRY)) ? DEFAULT_INLINE_XATTR_ADDRS : 0;
}

uint32_t sload_inode_data_slots(const struct sload_ctx *c, const struct f2fs_inode *i)
{
	return DEF_ADDRS_PER_INODE - sload_inode_extra_words(i) - sload_inode_xattr_words(c, i);
}

uint32_t sload_inline_capacity(const struct sload_ctx *c, const struct f2fs_inode *i)
{
	return 4 * (sload_inode_data_slots(c, i) - 1);
}

void sload_inode_init(struct sload_ctx *c, struct f2fs_node *n, const struct stat *st,
		      uint32_t pino, const char *name, size_t namelen)
{
	struct f2fs_inode *i = &n->i;
	uint32_t features = c->fs->features;

	memset(n, 0, sizeof(*n));
	i->i_mode = cpu_to_le16((uint16_t)st->st_mode);
	i->i_uid = cpu_to_le32((uint32_t)st->st_uid);
	i->i_gid = cpu_to_le32((uint32_t)st->st_gid);
	i->i_links = cpu_to_le32(S_ISDIR(st->st_mode) ? 2 : 1);
	if (c->o.have_timestamp) {
		i->i_atime = i->i_ctime = i->i_mtime = cpu_to_le64(c->o.timestamp);
	} else {
		i->i_atime = cpu_to_le64((uint64_t)st->st_atim.tv_sec);
		i->i_ctime = cpu_to_le64((uint64_t)st->st_ctim.tv_sec);
		i->i_mtime = cpu_to_le64((uint64_t)st->st_mtim.tv_sec);
		i->i_atime_nsec = cpu_to_le32((uint32_t)st->st_atim.tv_nsec);
		i->i_ctime_nsec = cpu_to_le32((uint32_t)st->st_ctim.tv_nsec);
		i->i_mtime_nsec = cpu_to_le32((uint32_t)st->st_mtim.tv_nsec);
	}
	i->i_pino = cpu_to_le32(pino);
	if (namelen > F2FS_NAME_LEN)
		namelen = F2FS_NAME_LEN;
	i->i_namelen = cpu_to_le32((uint32_t)namelen);
	memcpy(i->i_name, name, namelen);
	i->i_inline = F2FS_INLINE_XATTR;
	if (features & F2FS_FEATURE_EXTRA_ATTR) {
		i->i_inline |= F2FS_EXTRA_ATTR;
		i->i_extra_isize = cpu_to_le16(F2FS_TOTAL_EXTRA_ATTR_SIZE);
		if (features & F2FS_FEATURE_FLEXIBLE_INLINE_XATTR)
			i->i_inline_xattr_size = cpu_to_le16((uint16_t)c->xattr_words);
		if (features & F2FS_FEATURE_INODE_CRTIME) {
			i->i_crtime = i->i_ctime;
			i->i_crtime_nsec = i->i_ctime_nsec;
		}
	}
	if (S_ISDIR(st->st_mode))
		i->i_current_depth = cpu_to_le32(1);
}

void sload_inode_checksum(const struct sload_ctx *c, struct f2fs_node *n)
{
	if ((c->fs->features & F2FS_FEATURE_INODE_CHKSUM) &&
	    f2fs_inode_has_checksum(c->fs->features, n)) {
		n->i.i_inode_checksum = 0;
		n->i.i_inode_checksum = cpu_to_le32(f2fs_inode_checksum(c->fs->inode_chksum_seed, n));
	}
}

/* Cold data for the superblock's cold extensions, hot for its hot ones
 * (the last hot_ext_count entries), as f2fs_new_inode() decides. */
static bool has_extension(const char *name, const uint8_t *ext)
{
	size_t nl = strlen(name), el = strnlen((const char *)ext, F2FS_EXTENSION_LEN);

	if (!el || nl <= el + 1 || name[nl - el - 1] != '.')
		return false;
	return strncasecmp(name + nl - el, (const char *)ext, el) == 0;
}

int sload_data_log(const struct sload_ctx *c, const char *name, struct f2fs_node *n)
{
	const struct f2fs_super_block *sb = &c->fs->sb;
	uint32_t count = le32_to_cpu(sb->extension_count), hot = sb->hot_ext_count, k;

	if (count > F2FS_MAX_EXTENSION)
		count = F2FS_MAX_EXTENSION;
	if (hot > count)
		hot = count;
	for (k = 0; k < count; k++) {
		if (!has_extension(name, sb->extension_list[k]))
			continue;
		if (k >= count - hot) {
			n->i.i_advise |= FADVISE_HOT_BIT;
			return CURSEG_HOT_DATA;
		}
		n->i.i_advise |= FADVISE_COLD_BIT;
		return CURSEG_COLD_DATA;
	}
	return CURSEG_WARM_DATA;
}

/* ---- xattrs ---- */

struct xbuf {
	uint8_t *p;
	size_t used, cap;
};

static int xattr_index(const char *name, const char **suffix)
{
	static const struct { const char *prefix; int index; } map[] = {
		{ "user.", F2FS_XATTR_INDEX_USER },
		{ "trusted.", F2FS_XATTR_INDEX_TRUSTED },
		{ "security.", F2FS_XATTR_INDEX_SECURITY },
	};

	for (size_t k = 0; k < sizeof(map) / sizeof(map[0]); k++) {
		size_t l = strlen(map[k].prefix);

		if (!strncmp(name, map[k].prefix, l)) {
			*suffix = name + l;
			return map[k].index;
		}
	}
	return -1;
}

static int xbuf_put(struct xbuf *x, int index, const char *name, const void *val, size_t vlen)
{
	size_t nlen = strlen(name), sz = (4 + nlen + vlen + 3) & ~(size_t)3;
	uint8_t *e;

	if (nlen > 255 || vlen > 0xffff)
		return -ERANGE;
	if (x->used + sz + 4 > x->cap)
		return -ENOSPC;
	e = x->p + x->used;
	e[0] = (uint8_t)index;
	e[1] = (uint8_t)nlen;
	put_le16(e + 2, (uint16_t)vlen);
	memcpy(e + 4, name, nlen);
	memcpy(e + 4 + nlen, val, vlen);
	x->used += sz;
	return 0;
}

/* Whether the list already has (index, name). */
static bool xbuf_has(const struct xbuf *x, int index, const char *name)
{
	size_t off = sizeof(struct f2fs_xattr_header), nlen = strlen(name);

	while (off + 4 <= x->used) {
		const uint8_t *e = x->p + off;

		if (e[0] == index && e[1] == nlen && !memcmp(e + 4, name, nlen))
			return true;
		off += (4 + e[1] + get_le16(e + 2) + 3) & ~(size_t)3;
	}
	return false;
}

/* The xattrs of a tar entry (c->src_xattrs), as source_xattrs() takes
 * a source file's. */
static int listed_xattrs(struct sload_ctx *c, struct xbuf *x)
{
	int err = 0;

	for (size_t k = 0; k < c->n_src_xattrs && !err; k++) {
		const struct sload_xattr *a = &c->src_xattrs[k];
		const char *suffix;
		int index = xattr_index(a->name, &suffix);

		if (index < 0) {
			if (c->o.debug)
				fprintf(stderr, "sload.f2fs: xattr %s not copied\n", a->name);
			continue;
		}
		if (index == F2FS_XATTR_INDEX_SECURITY && !strcmp(suffix, "selinux") && c->sec)
			continue;	/* file_contexts decides */
		err = xbuf_put(x, index, suffix, a->value, a->len);
	}
	return err;
}

static int source_xattrs(struct sload_ctx *c, struct xbuf *x, const char *path)
{
	ssize_t len = path ? llistxattr(path, NULL, 0) : 0;
	char *names, *val = NULL;
	int err = 0;

	if (!path)
		return listed_xattrs(c, x);
	if (len <= 0)
		return 0;	/* none, or a source that has no xattrs */
	names = malloc((size_t)len);
	val = malloc(65536);
	if (!names || !val) {
		free(names);
		free(val);
		return -ENOMEM;
	}
	len = llistxattr(path, names, (size_t)len);
	for (ssize_t off = 0; off < len && !err; off += (ssize_t)strlen(names + off) + 1) {
		const char *name = names + off, *suffix;
		int index = xattr_index(name, &suffix);
		ssize_t vlen;

		if (index < 0) {
			if (c->o.debug)
				fprintf(stderr, "sload.f2fs: %s: xattr %s not copied\n", path, name);
			continue;
		}
		if (index == F2FS_XATTR_INDEX_SECURITY && !strcmp(suffix, "selinux") && c->sec)
			continue;	/* file_contexts decides */
		vlen = lgetxattr(path, name, val, 65536);
		if (vlen < 0) {
			err = -errno;
			break;
		}
		err = xbuf_put(x, index, suffix, val, (size_t)vlen);
	}
	free(names);
	free(val);
	return err;
}

static int extra_xattrs(struct sload_ctx *c, struct xbuf *x, const char *fs_path,
			const struct stat *st)
{
	uint32_t uid, gid, mode;
	uint64_t caps = 0;
	int err = 0;

	if (c->sec) {
		const char *ctx = sload_context_of(c, fs_path, (uint32_t)st->st_mode);

		if (ctx)
			err = xbuf_put(x, F2FS_XATTR_INDEX_SECURITY, "selinux", ctx, strlen(ctx) + 1);
	}
	if (!err && c->fsc &&
	    sload_fs_config_apply(c, fs_path, S_ISDIR(st->st_mode), &uid, &gid, &mode, &caps) &&
	    caps && !xbuf_has(x, F2FS_XATTR_INDEX_SECURITY, "capability")) {
		uint8_t cap[20] = { 0 };

		put_le32(cap, VFS_CAP_REVISION_2 | VFS_CAP_FLAGS_EFFECTIVE);
		put_le32(cap + 4, (uint32_t)caps);
		put_le32(cap + 12, (uint32_t)(caps >> 32));
		err = xbuf_put(x, F2FS_XATTR_INDEX_SECURITY, "capability", cap, sizeof(cap));
	}
	return err;
}

int sload_xattrs(struct sload_ctx *c, struct f2fs_node *n, uint32_t ino, const char *path,
		 const char *fs_path, const struct stat *st, uint64_t *blocks)
{
	size_t inl = (size_t)c->xattr_words * 4;
	struct xbuf x = { .cap = inl + XATTR_NODE_BYTES };
	struct f2fs_xattr_header *h;
	struct f2fs_node *xn;
	uint32_t xnid;
	int err;

	x.p = calloc(1, x.cap);
	if (!x.p)
		return -ENOMEM;
	x.used = sizeof(*h);
	err = source_xattrs(c, &x, path);
	if (!err)
		err = extra_xattrs(c, &x, fs_path, st);
	if (err || x.used == sizeof(*h))
		goto out;
	h = (struct f2fs_xattr_header *)x.p;
	h->h_magic = cpu_to_le32(F2FS_XATTR_MAGIC);
	h->h_refcount = cpu_to_le32(1);
	memcpy(&n->i.i_addr[DEF_ADDRS_PER_INODE - c->xattr_words], x.p, inl);
	if (x.used + 4 <= inl)
		goto out;
	xn = calloc(1, sizeof(*xn));
	err = xn ? f2fs_nid_alloc(&c->nids, &xnid) : -ENOMEM;
	if (!err) {
		memcpy(xn, x.p + inl, XATTR_NODE_BYTES);
		n->i.i_xattr_nid = cpu_to_le32(xnid);
		err = sload_write_node(c, xn, xnid, ino, XATTR_NODE_OFFSET, S_ISDIR(st->st_mode), false);
		(*blocks)++;
		c->st.xattr_nodes++;
	}
	free(xn);
out:
	free(x.p);
	return err;
}
