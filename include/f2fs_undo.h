/*
 * f2fs_undo.h - undo files: the blocks a tool overwrote, saved first, so
 * undo.f2fs can put the device back byte for byte.
 *
 * Writing (fsck.f2fs -y --undo, mkfs.f2fs --undo, inject.f2fs --undo):
 * f2fs_dev_start_undo() creates the file; from then on every write,
 * discard and zero-out the device layer performs first saves the blocks
 * it covers that were not saved yet (each block once: its content before
 * the run's first write to it) and makes the saved records durable
 * (fdatasync) before the device is touched.  f2fs_dev_finish_undo()
 * flushes the device and closes the file with a final record: a checksum
 * of each saved range as the tool left it, so undo.f2fs can tell that the
 * device changed since.
 *
 * The file is valid at every point: a 4 KiB header (magic, version, the
 * device's size and path, the UUID of the F2FS file system it held before
 * the run if any, its own checksum), then records, each with a
 * checksummed 32-byte head (kind, first block, block count, payload
 * checksum, sequence number) and a payload: the original blocks (DATA),
 * nothing for blocks that were all zeroes (ZERO), or the final checksums
 * (FINAL, last).  A reader stops at the first record that does not check:
 * a run cut while appending leaves a torn tail whose blocks the device
 * never received.  All integers are little-endian.
 */
#ifndef F2FS_UNDO_H
#define F2FS_UNDO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "f2fs_dev.h"

#define F2FS_UNDO_MAGIC		"F2FSUNDO"
#define F2FS_UNDO_VERSION	1u
#define F2FS_UNDO_HEADER_SIZE	4096u
#define F2FS_UNDO_REC_MAGIC	0x43455255u	/* "UREC" */
#define F2FS_UNDO_PATH_MAX	256u

enum f2fs_undo_kind {
	F2FS_UNDO_DATA = 1,	/* payload: the original blocks */
	F2FS_UNDO_ZERO = 2,	/* the original blocks were all zeroes */
	F2FS_UNDO_FINAL = 3,	/* payload: le32 checksum per earlier record */
};

/* ---- writing (through the device layer) ---- */

/* Create path (it must not exist) and save every block the device's
 * writes overwrite from now on.  -EEXIST when path exists, -EOPNOTSUPP on
 * a zoned device or a multi-device volume, -EBUSY when already started. */
int f2fs_dev_start_undo(struct f2fs_dev *dev, const char *path);
/* Flush the device, append the final record, sync and close the file.
 * Idempotent; f2fs_dev_close() calls it (ignoring errors) when the tool
 * did not.  0 when no undo file was started. */
int f2fs_dev_finish_undo(struct f2fs_dev *dev);

/* ---- reading (undo.f2fs) ---- */

struct f2fs_undo_rec {
	uint32_t kind;		/* F2FS_UNDO_DATA or F2FS_UNDO_ZERO */
	uint64_t blkaddr;
	uint32_t nblocks;
	uint64_t data_off;	/* where the payload is in the file (DATA) */
	uint32_t orig_crc;	/* checksum of the original blocks */
	uint32_t final_crc;	/* checksum as the tool left them (finished) */
};

struct f2fs_undo_file {
	int fd;
	uint64_t dev_bytes;	/* size of the device it was made on */
	uint64_t file_bytes;	/* a truncated image file's own size, which the
				 * run grew to dev_bytes (0: not truncated) */
	char dev_path[F2FS_UNDO_PATH_MAX];
	uint64_t created;	/* seconds since the epoch */
	struct f2fs_undo_rec *recs;
	size_t nrecs;
	uint64_t nblocks;	/* blocks the records cover */
	bool finished;		/* the final record is there */
	bool torn;		/* bytes after the last valid record */
	bool has_uuid;		/* the device held F2FS before the run: */
	uint8_t uuid[16];	/* its superblock's UUID, */
	uint32_t uuid_blk;	/* from the copy in this block (0 or 1) */
};

/* Read and check an undo file.  -EBADMSG when the header is not an undo
 * file's or does not check. */
int f2fs_undo_load(const char *path, struct f2fs_undo_file **out);
void f2fs_undo_free(struct f2fs_undo_file *u);

/* Compare the device with the file: 0 when every saved range holds what
 * the tool left there or the original (an undo already, perhaps partly,
 * applied); -ESTALE with *bad_blk the first block of the first range that
 * holds neither; -EXDEV when the device's size is not the recorded one.
 * Without the final record only the size is compared. */
int f2fs_undo_check_device(const struct f2fs_undo_file *u, struct f2fs_dev *dev,
			   uint64_t *bad_blk);
/* Compare the file system on the device with the one the file recorded
 * before the run: 0 when they are the same (a superblock copy with the
 * F2FS magic carries the recorded UUID), when nothing was recorded (no F2FS there before the
 * run), or when the run overwrote that superblock copy itself (mkfs: the
 * saved-range checks of f2fs_undo_check_device() cover it then);
 * -EMEDIUMTYPE when the device holds another file system, or none. */
int f2fs_undo_check_fs(const struct f2fs_undo_file *u, struct f2fs_dev *dev);
/* Write every saved range back and flush; a truncated image file the
 * run grew is cut back to its own size. */
int f2fs_undo_apply(const struct f2fs_undo_file *u, struct f2fs_dev *dev);

#endif
