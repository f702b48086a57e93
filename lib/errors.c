/*
 * errors.c - turns the negative errno values that lib/ returns into
 * messages for the tools.
 *
 * The two F2FS-specific meanings (-EFSCORRUPTED, -EFSBADCRC) get their own
 * text; every other code uses the C library's description.  Only constant
 * strings are returned, so the function is safe to call from any thread.
 */
#include <limits.h>
#include <string.h>

#include "f2fs_err.h"

struct errno_text {
	int err;
	const char *text;
};

/* Meanings that lib/ gives to errno numbers, checked before libc's text. */
static const struct errno_text f2fs_specific[] = {
	{ 0, "success" },
	{ EFSCORRUPTED, "filesystem structure is corrupted" },
	{ EFSBADCRC, "checksum mismatch" },
};

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
#define HAVE_STRERRORDESC_NP 1
#else
/* Without glibc's constant-string lookup, keep our own short table of the
 * codes lib/ actually returns; strerror() may use a shared buffer. */
static const struct errno_text common_errors[] = {
	{ EPERM, "operation not permitted" },
	{ ENOENT, "no such file or directory" },
	{ EINTR, "interrupted system call" },
	{ EIO, "input/output error" },
	{ ENXIO, "no such device or address" },
	{ E2BIG, "argument list too long" },
	{ EBADF, "bad file descriptor" },
	{ EAGAIN, "resource temporarily unavailable" },
	{ ENOMEM, "cannot allocate memory" },
	{ EACCES, "permission denied" },
	{ EFAULT, "bad address" },
	{ ENOTBLK, "block device required" },
	{ EBUSY, "device or resource busy" },
	{ EEXIST, "file exists" },
	{ ENODEV, "no such device" },
	{ ENOTDIR, "not a directory" },
	{ EISDIR, "is a directory" },
	{ EINVAL, "invalid argument" },
	{ EFBIG, "file too large" },
	{ ENOSPC, "no space left on device" },
	{ ESPIPE, "illegal seek" },
	{ EROFS, "read-only file system" },
	{ ERANGE, "numerical result out of range" },
	{ ENAMETOOLONG, "file name too long" },
	{ ENOSYS, "function not implemented" },
	{ EOVERFLOW, "value too large for defined data type" },
	{ EOPNOTSUPP, "operation not supported" },
};
#endif

static const char *lookup(const struct errno_text *table, size_t n, int err)
{
	for (size_t i = 0; i < n; i++)
		if (table[i].err == err)
			return table[i].text;
	return NULL;
}

static const char *libc_text(int err)
{
#ifdef HAVE_STRERRORDESC_NP
	return strerrordesc_np(err);
#else
	return lookup(common_errors, sizeof(common_errors) / sizeof(common_errors[0]), err);
#endif
}

const char *f2fs_strerror(int err)
{
	const char *text;

	/* Accept a positive errno too; INT_MIN has no positive twin. */
	if (err < 0 && err != INT_MIN)
		err = -err;
	text = lookup(f2fs_specific, sizeof(f2fs_specific) / sizeof(f2fs_specific[0]), err);
	if (!text)
		text = libc_text(err);
	return text ? text : "unknown error";
}
