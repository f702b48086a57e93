/*
 * features.c - feature bit names and their dependencies.
 */
#include <stdio.h>
#include <string.h>

#include "f2fs_fs.h"
#include "f2fs_features.h"

const struct f2fs_feature_name f2fs_feature_names[] = {
	{ "encrypt", F2FS_FEATURE_ENCRYPT },
	{ "blkzoned", F2FS_FEATURE_BLKZONED },
	{ "atomic_write", F2FS_FEATURE_ATOMIC_WRITE },
	{ "extra_attr", F2FS_FEATURE_EXTRA_ATTR },
	{ "project_quota", F2FS_FEATURE_PRJQUOTA },
	{ "inode_checksum", F2FS_FEATURE_INODE_CHKSUM },
	{ "flexible_inline_xattr", F2FS_FEATURE_FLEXIBLE_INLINE_XATTR },
	{ "quota", F2FS_FEATURE_QUOTA_INO },
	{ "inode_crtime", F2FS_FEATURE_INODE_CRTIME },
	{ "lost_found", F2FS_FEATURE_LOST_FOUND },
	{ "verity", F2FS_FEATURE_VERITY },
	{ "sb_checksum", F2FS_FEATURE_SB_CHKSUM },
	{ "casefold", F2FS_FEATURE_CASEFOLD },
	{ "compression", F2FS_FEATURE_COMPRESSION },
	{ "ro", F2FS_FEATURE_RO },
	{ "device_alias", F2FS_FEATURE_DEVICE_ALIAS },
	{ "packed_ssa", F2FS_FEATURE_PACKED_SSA },
	/* aliases */
	{ "quota_ino", F2FS_FEATURE_QUOTA_INO },
	{ "prjquota", F2FS_FEATURE_PRJQUOTA },
	{ "inode_chksum", F2FS_FEATURE_INODE_CHKSUM },
	{ "sb_chksum", F2FS_FEATURE_SB_CHKSUM },
	{ NULL, 0 },
};

uint32_t f2fs_feature_by_name(const char *name)
{
	const struct f2fs_feature_name *f;

	for (f = f2fs_feature_names; f->name; f++)
		if (!strcmp(f->name, name))
			return f->mask;
	return 0;
}

const char *f2fs_feature_name(uint32_t mask)
{
	const struct f2fs_feature_name *f;

	for (f = f2fs_feature_names; f->name; f++)
		if (f->mask == mask)
			return f->name;
	return NULL;
}

uint32_t f2fs_features_missing_extra_attr(uint32_t features)
{
	if (features & F2FS_FEATURE_EXTRA_ATTR)
		return 0;
	return features & F2FS_FEATURES_NEED_EXTRA_ATTR;
}

void f2fs_features_to_string(uint32_t features, char *buf, unsigned int size)
{
	unsigned int used = 0;
	uint32_t bit;

	if (size == 0)
		return;
	buf[0] = 0;
	for (bit = 1; bit; bit <<= 1) {
		const char *name;
		int n;

		if (!(features & bit))
			continue;
		name = f2fs_feature_name(bit);
		if (name)
			n = snprintf(buf + used, size - used, "%s%s", used ? "," : "", name);
		else
			n = snprintf(buf + used, size - used, "%s0x%x", used ? "," : "", bit);
		if (n < 0 || (unsigned int)n >= size - used)
			return;
		used += (unsigned int)n;
	}
}
