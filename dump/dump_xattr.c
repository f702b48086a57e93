/*
 * dump_xattr.c - the extended attributes of an inode: the inline xattr
 * area followed by the xattr node form one list (24-byte header, then
 * 4-byte aligned entries ending at a zero word).  Every entry is
 * bounds-checked against the assembled space before it is handed out.
 */
#include <stdlib.h>
#include <string.h>

#include "dump.h"

#define XATTR_NODE_SPACE	((size_t)offsetof(struct f2fs_node, footer))
#define XATTR_MAX_SPACE		(MAX_INLINE_XATTR_SIZE * 4 + XATTR_NODE_SPACE)

static const char *xattr_prefix(uint8_t index)
{
	switch (index) {
	case F2FS_XATTR_INDEX_USER: return "user.";
	case F2FS_XATTR_INDEX_POSIX_ACL_ACCESS: return "system.posix_acl_access";
	case F2FS_XATTR_INDEX_POSIX_ACL_DEFAULT: return "system.posix_acl_default";
	case F2FS_XATTR_INDEX_TRUSTED: return "trusted.";
	case F2FS_XATTR_INDEX_LUSTRE: return "lustre.";
	case F2FS_XATTR_INDEX_SECURITY: return "security.";
	case F2FS_XATTR_INDEX_ADVISE: return "system.advise";
	case F2FS_XATTR_INDEX_ENCRYPTION: return "encryption.";
	case F2FS_XATTR_INDEX_VERITY: return "verity.";
	default: return "";
	}
}

/* Copy inline area and xattr node into space; returns the size used. */
static int gather(struct dump_ctx *ctx, const struct f2fs_node *inode, uint8_t *space,
		  size_t *size)
{
	const struct f2fs_inode *ri = &inode->i;
	uint32_t ixa = dump_inline_xattr_words(ctx, ri);
	uint32_t xnid = le32_to_cpu(ri->i_xattr_nid);
	size_t n = 0;

	if (ixa && (ri->i_inline & F2FS_INLINE_XATTR)) {
		memcpy(space, &ri->i_addr[DEF_ADDRS_PER_INODE - ixa], (size_t)ixa * 4);
		n = (size_t)ixa * 4;
	}
	if (xnid) {
		struct f2fs_node node;
		int err = dump_read_node(ctx, xnid, &node, NULL);

		if (err)
			return dump_fail(ctx, err, "inode %u: cannot read xattr node %u: %s",
					 le32_to_cpu(inode->footer.ino), xnid, f2fs_strerror(err));
		memcpy(space + n, &node, XATTR_NODE_SPACE);
		n += XATTR_NODE_SPACE;
	}
	*size = n;
	return 0;
}

static int walk_entries(struct dump_ctx *ctx, const uint8_t *space, size_t size,
			dump_xattr_fn fn, void *arg)
{
	size_t off = sizeof(struct f2fs_xattr_header);

	while (off + 4 <= size && get_le32(space + off) != 0) {
		struct dump_xattr x;
		size_t len;
		int err;

		x.index = space[off];
		x.name_len = space[off + 1];
		x.value_len = get_le16(space + off + 2);
		len = (4 + (size_t)x.name_len + x.value_len + 3) & ~(size_t)3;
		if (off + 4 + (size_t)x.name_len + x.value_len > size)
			return dump_fail(ctx, -EFSCORRUPTED, "xattr entry at offset %zu runs past the xattr space", off);
		x.prefix = xattr_prefix(x.index);
		x.name = space + off + 4;
		x.value = x.name + x.name_len;
		err = fn(ctx, &x, arg);
		if (err)
			return err;
		off += len;
	}
	return 0;
}

int dump_for_each_xattr(struct dump_ctx *ctx, const struct f2fs_node *inode,
			dump_xattr_fn fn, void *arg)
{
	uint8_t *space = calloc(1, XATTR_MAX_SPACE);
	size_t size = 0;
	int err;

	if (!space)
		return dump_fail(ctx, -ENOMEM, "out of memory");
	err = gather(ctx, inode, space, &size);
	if (!err && size > sizeof(struct f2fs_xattr_header))
		err = walk_entries(ctx, space, size, fn, arg);
	free(space);
	return err;
}
