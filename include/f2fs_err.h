/*
 * f2fs_err.h - error conventions of lib/.
 *
 * Every lib/ function that can fail returns 0 on success or a negative
 * errno value.  Two F2FS-specific meanings reuse errno numbers the way the
 * kernel does: -EFSCORRUPTED (on-disk structure is inconsistent) and
 * -EFSBADCRC (a checksum does not match).  lib/ never prints and never
 * exits; f2fs_strerror() gives the tools a message for any returned code.
 */
#ifndef F2FS_ERR_H
#define F2FS_ERR_H

#include <errno.h>

#define EFSCORRUPTED	EUCLEAN
#define EFSBADCRC	EBADMSG

const char *f2fs_strerror(int err);

#endif
