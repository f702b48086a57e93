/*
 * device_own.h - private to the I/O layer's files in lib/: the layer
 * stack (what a layer is and how requests go down), struct f2fs_dev
 * itself (the tools see only f2fs_dev.h's accessors), the calls between
 * layers, and the single-device halves of the unix layer that devset.c
 * calls for device 0's own pieces of a multi-device request.
 */
#ifndef F2FS_DEVICE_OWN_H
#define F2FS_DEVICE_OWN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "f2fs_dev.h"

struct f2fs_ra_queue;
struct f2fs_zoned;
struct f2fs_read_faults;

/* ---- the layer stack ----------------------------------------------------
 *
 * A device is a stack of layers over the unix layer (lib/device.c: the
 * file descriptor, batched reads, hints, routing to the members of
 * a multi-device volume).  The public requests of f2fs_dev.h check their
 * arguments in lib/device.c, then go down the stack: each layer sees a
 * change (write, discard or zero-out, resize), a flush and, if it asks
 * to, every read system call, and passes it to the layer below, or not.
 * From the top, by rank:
 *   dry-run     (lib/layer_dryrun.c)  drops every change and flush, counted
 *   undo        (lib/undo.c)          saves what a change overwrites first
 *   write-cut   (lib/devcut.c)        the write limit and lost writes (tests)
 *   read-fault  (lib/layer_fault.c)   EIO or short reads at chosen blocks
 *   unix        (lib/device.c)        performs
 * f2fs_dev_open() pushes dry-run from its options; the others are pushed
 * by the calls that start them (f2fs_dev_start_undo, f2fs_dev_set_write_limit,
 * f2fs_dev_set_lost_writes, f2fs_dev_add_read_fault), each in its place. */

enum f2fs_change_kind {
	F2FS_CHANGE_WRITE,	/* buf, len bytes at off */
	F2FS_CHANGE_RANGE,	/* discard or zero-out of [off, off + len) by range() */
	F2FS_CHANGE_RESIZE,	/* an image file's size becomes off */
};

struct f2fs_change {
	enum f2fs_change_kind kind;
	uint64_t off, len;	/* bytes of the volume */
	const void *buf;
	/* RANGE: the operation on one device's piece, in that device's bytes */
	int (*range)(struct f2fs_dev *dev, uint64_t off, uint64_t len);
};

/* What a layer's change() returns besides 0 (performed below) and -errno. */
#define F2FS_LAYER_DROPPED	1

struct f2fs_layer;

struct f2fs_layer_ops {
	const char *name;
	unsigned int rank;	/* lower ranks sit higher in the stack */
	bool sees_reads;	/* every read must reach it: no cached pass */
	bool closes_last;	/* closed after the others (f2fs_layer_close_all) */
	/* NULL members pass the request to the layer below. */
	int (*change)(struct f2fs_layer *l, const struct f2fs_change *c);
	int (*flush)(struct f2fs_layer *l);
	/* one read system call at off (-1 with errno, or the bytes read) */
	ssize_t (*preadv)(struct f2fs_layer *l, struct iovec *iov, int cnt, uint64_t off);
	void (*close)(struct f2fs_layer *l);	/* undoes what it holds and frees l */
};

struct f2fs_layer {
	const struct f2fs_layer_ops *ops;
	struct f2fs_layer *below;	/* the unix layer has none */
	struct f2fs_dev *dev;
};

/* Put l (ops set) in its place by rank; -EBUSY when a layer of the same
 * ops is there already. */
int f2fs_layer_push(struct f2fs_dev *dev, struct f2fs_layer *l, const struct f2fs_layer_ops *ops);
/* Take l out of the stack (it is not freed). */
void f2fs_layer_remove(struct f2fs_dev *dev, struct f2fs_layer *l);
/* The layer with these ops, or NULL. */
struct f2fs_layer *f2fs_layer_find(const struct f2fs_dev *dev, const struct f2fs_layer_ops *ops);
/* Hand a request to l or, when l does not take it, the first layer below
 * that does (the unix layer takes every one). */
int f2fs_layer_change(struct f2fs_layer *l, const struct f2fs_change *c);
int f2fs_layer_flush(struct f2fs_layer *l);
ssize_t f2fs_layer_preadv(struct f2fs_layer *l, struct iovec *iov, int cnt, uint64_t off);
/* Whether a layer that must see every read is in the stack. */
bool f2fs_layer_sees_reads(const struct f2fs_dev *dev);
/* Close every layer above the unix layer, top first (closes_last ones
 * after the others), each taken out of the stack before its close. */
void f2fs_layer_close_all(struct f2fs_dev *dev);

/* A further device of a multi-device volume (f2fs_dev_attach). */
struct f2fs_dev_member {
	struct f2fs_dev *dev;
	uint64_t start, len;	/* the volume bytes it holds, from its offset 0 */
};

/* Threads that may read through a ring of their own at once. */
#define F2FS_DEV_RINGS	8u

/* The device's state: opaque outside lib/ (f2fs_dev.h's accessors). */
struct f2fs_dev {
	int fd;
	char *path;
	bool is_blkdev;
	bool is_regular;
	bool read_only;
	uint64_t size_bytes;	/* device or file size (f2fs_dev_assume_size: more) */
	uint64_t file_bytes;	/* what the device really holds: reads past it see zeroes */
	unsigned int sector_size;	/* logical sector size (512 for files) */
	struct f2fs_ra_queue *ra;	/* the read stream (f2fs_dev_defer_readahead) */
	struct f2fs_zoned *zoned;	/* zone model (f2fs_zone.h), NULL: not zoned */
	/* multi-device volumes: device 0 holds volume bytes [0, own_bytes)
	 * (its size unless f2fs_dev_set_own_blocks said less), the members
	 * the rest; requests are routed by lib/devset.c */
	uint64_t own_bytes;
	struct f2fs_dev_member members[F2FS_DEV_MAX_MEMBERS];
	unsigned int nmembers;
	struct f2fs_layer *top;		/* the stack, from its top to unix */
	struct f2fs_layer unix_layer;
	struct f2fs_read_faults *faults;	/* the read-fault layer when pushed */
	/* The kernel or the file refused RWF_NOWAIT once: no cached reads
	 * from then on.  Set and read by the tool's thread and workers. */
	atomic_bool nowait_refused;
	/* io_uring rings for cached reads (lib/uring.c), made on first use,
	 * one per thread at a time (ring_busy); ring_refused: the kernel
	 * has none, or refused a read through one: preadv2 from then on */
	struct f2fs_uring *ring[F2FS_DEV_RINGS];
	atomic_flag ring_busy[F2FS_DEV_RINGS];
	atomic_bool ring_refused;
	struct f2fs_dev_stats stats;
	/* block buffers given back for the next f2fs_dev_buf_take() (the
	 * tool's thread only): sizes in blocks, multiples of the granule,
	 * and the blocks its last user asked for (pages likely touched) */
	struct f2fs_dev_spare {
		void *buf;
		size_t nblocks, used;
	} spare[F2FS_DEV_SPARES];
	unsigned int nspare;
};

/* The read stream (lib/device_stream.c): queue a hint of device 0's
 * bytes while hints are deferred (false: not deferring, or no memory;
 * the caller issues it at once); stop the thread and free the queue. */
bool f2fs_stream_queue(struct f2fs_dev *dev, uint64_t off, uint64_t len);
void f2fs_stream_free(struct f2fs_dev *dev);
/* Tests: wait until the stream has issued its plan and seen it read;
 * false when no thread was streaming. */
bool f2fs_stream_wait(struct f2fs_dev *dev);

/* A one-line sysfs attribute without its newline (lib/device.c). */
bool f2fs_read_sysfs_line(const char *path, char *buf, size_t size);

/* A read of device 0's own bytes below the change layers (the read-fault
 * layer still sees it), not routed to members. */
int f2fs_dev_pread_own(struct f2fs_dev *dev, uint64_t offset, size_t len, void *buf);
/* A write on device 0 that no layer sees (the write-cut layer's roll-back). */
int f2fs_dev_pwrite_raw(struct f2fs_dev *dev, const void *buf, size_t len, uint64_t off);

/* Push the dry-run layer (lib/layer_dryrun.c). */
int f2fs_dryrun_push(struct f2fs_dev *dev);

/* The write-cut layer (lib/devcut.c): whether the write limit is reached
 * (the power is off); false without the layer.  The undo layer's records
 * count with the device's writes. */
bool f2fs_cut_reached(const struct f2fs_dev *dev);
/* The write limit set, 0 when none (tests). */
uint64_t f2fs_cut_limit(const struct f2fs_dev *dev);
/* The undo layer (lib/undo.c): whether it is in the stack, and the
 * records it appended so far (0 without it). */
bool f2fs_undo_active(const struct f2fs_dev *dev);
uint64_t f2fs_undo_appends(const struct f2fs_dev *dev);

int f2fs_dev_read_batch_own(struct f2fs_dev *dev, struct f2fs_io_vec *vec, size_t n);

/* Called for each piece of a volume byte range: d is the member holding
 * it, or NULL for device 0 itself; local is the offset on that device;
 * done how far into the range the piece starts.  Non-zero stops. */
typedef int (*f2fs_devset_piece_fn)(struct f2fs_dev *d, uint64_t local, uint64_t len,
				    uint64_t done, void *arg);
/* Cut [off, off + len) at device boundaries; a byte no device holds
 * returns `outside`. */
int f2fs_devset_split(struct f2fs_dev *dev, uint64_t off, uint64_t len, int outside,
		      f2fs_devset_piece_fn fn, void *arg);
int f2fs_devset_read_batch(struct f2fs_dev *dev, struct f2fs_io_vec *vec, size_t n);
int f2fs_devset_flush(struct f2fs_dev *dev);
void f2fs_devset_close(struct f2fs_dev *dev);

/* A request over volume blocks like discard (read-only refused, admitted
 * once by the write policy, cut at device boundaries): fn does one
 * device's piece, in bytes of that device (lib/zone.c's reset, finish). */
int f2fs_dev_range_op(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t nblocks,
		      int (*fn)(struct f2fs_dev *, uint64_t, uint64_t));

#endif
