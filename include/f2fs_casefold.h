/*
 * f2fs_casefold.h - how the kernel folds the names of casefolded
 * directories before hashing them (its "utf8" encoding, Unicode 12.1).
 */
#ifndef F2FS_CASEFOLD_H
#define F2FS_CASEFOLD_H

#include <stddef.h>
#include <stdint.h>

/* Longest folding of a name of up to F2FS_NAME_LEN bytes. */
#define F2FS_CASEFOLD_MAX	(255 * 4 * 4)

/* Fold name (len bytes, at most 255) into out as the kernel does for a
 * casefolded directory: canonical decomposition, full case folding,
 * default-ignorable code points removed, combining marks in canonical
 * order; code points Unicode 12.1 does not assign pass through.  Returns
 * the folded length; -EINVAL when name is not well-formed UTF-8 (the
 * kernel hashes most such names unfolded, but not all: not reproduced);
 * -ENAMETOOLONG when name is longer than 255 bytes or out too small. */
int f2fs_casefold(const uint8_t *name, size_t len, uint8_t *out, size_t outcap);

#endif
