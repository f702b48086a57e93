/*
 * uring.h - lib/uring.c: many vectored reads in one system call
 * (io_uring), for the device layer only.
 */
#ifndef F2FS_URING_H
#define F2FS_URING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

struct f2fs_uring;

/* One read of a list: iov[0..niov) from byte off of fd; res receives the
 * bytes read or -errno. */
struct f2fs_uring_read {
	const struct iovec *iov;
	int niov;
	int fd;
	uint64_t off;
	int32_t res;
};

/* A ring of `entries` submission slots (the kernel may round up); -errno
 * (-ENOSYS without io_uring, -EPERM in a sandbox that forbids it) and
 * *out NULL when there is none. */
int f2fs_uring_open(unsigned int entries, struct f2fs_uring **out);
void f2fs_uring_close(struct f2fs_uring *r);
/* Make the n reads and wait for them all (nowait: RWF_NOWAIT, only what
 * the page cache holds; a read it lacks ends with -EAGAIN).  0 when every
 * read was made and has its res; -errno when the ring failed, and then it
 * must be closed (the reads without a res were not made). */
int f2fs_uring_readv(struct f2fs_uring *r, struct f2fs_uring_read *rd, size_t n, bool nowait);
/* Name fd to the kernel once for the ring's life (IORING_REGISTER_FILES):
 * its reads then skip taking a reference to the file each, which two
 * threads reading one device contend for.  Best effort: a kernel that
 * refuses leaves the reads as they were. */
void f2fs_uring_register_file(struct f2fs_uring *r, int fd);
/* The ring's descriptor (the unit test closes it to make a ring fail);
 * -1 without io_uring. */
int f2fs_uring_fd(const struct f2fs_uring *r);

#endif
