/*
 * f2fs_features.h - names of superblock feature bits and the rules that
 * tie them together, shared by mkfs (to parse -O), fsck (to check) and
 * dump (to print).
 */
#ifndef F2FS_FEATURES_H
#define F2FS_FEATURES_H

#include <stdbool.h>
#include <stdint.h>
#include "f2fs_fs.h"

struct f2fs_feature_name {
	const char *name;	/* as written after -O */
	uint32_t mask;
};

/* Table of known names, terminated by { NULL, 0 }.  Several names may map
 * to one bit (e.g. "quota" and "quota_ino"). */
extern const struct f2fs_feature_name f2fs_feature_names[];

/* Mask for a name, or 0 if unknown. */
uint32_t f2fs_feature_by_name(const char *name);
/* Canonical name of one bit, or NULL. */
const char *f2fs_feature_name(uint32_t mask);
/* Bits of `features` that need EXTRA_ATTR while it is absent (0 if ok). */
uint32_t f2fs_features_missing_extra_attr(uint32_t features);
/* Whether a volume with these features keeps log t (CURSEG_*): every log,
 * but a read-only image (RO) only hot data and hot node, whose segments
 * the other four share (the kernel's sanity_check_curseg() and
 * f2fs_sanity_check_ckpt() skip them). */
static inline bool f2fs_features_keep_log(uint32_t features, int t)
{
	return !(features & F2FS_FEATURE_RO) || t == CURSEG_HOT_DATA || t == CURSEG_HOT_NODE;
}
/* Format the set bits as "a,b,c" into buf (always NUL-terminated);
 * unknown bits are written as 0x... */
void f2fs_features_to_string(uint32_t features, char *buf, unsigned int size);

#endif
