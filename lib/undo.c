/*
 * undo.c - undo files (format in f2fs_undo.h): the undo layer of the
 * device stack (device_own.h), which writes the file before each change
 * the layers below perform, and the reader and restorer behind
 * undo.f2fs.  Nothing here prints.
 *
 * The writer keeps the blocks saved so far as a sorted list of disjoint
 * ranges, so each block is saved once, with its content from before the
 * run's first write to it.  Originals are read through the device's own
 * read path in chunks of UNDO_CHUNK blocks and cut into runs of all-zero
 * blocks (ZERO records, no payload: mkfs zeroes large areas that are
 * often zeroes already) and other blocks (DATA records).  Appended
 * records are synced before save returns, so the device is written only
 * after the undo file holds what it overwrites.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "device_own.h"
#include "f2fs_array.h"
#include "f2fs_crc.h"
#include "f2fs_dev.h"
#include "f2fs_fs.h"
#include "f2fs_undo.h"

#define UNDO_CHUNK	256u	/* blocks read per step (1 MiB) */
#define REC_HEAD_SIZE	32u

struct undo_range {
	uint64_t start, end;	/* blocks [start, end) */
};

struct undo_saved {
	uint64_t blkaddr;
	uint32_t nblocks;
};

struct f2fs_undo {
	struct f2fs_layer layer;	/* first: the layer is the state */
	int fd;
	uint32_t seed;		/* the header's checksum: seeds every record's */
	uint32_t seq;
	uint64_t file_end;
	uint64_t appends;	/* record writes, for the write-limit hook */
	bool cut;		/* the write-limit hook cut the file */
	int err;		/* sticky: once a save failed, nothing more is written */
	struct undo_range *ranges;	/* saved blocks, sorted, disjoint */
	size_t nranges, cap_ranges;
	struct undo_saved *recs;	/* DATA/ZERO records in file order */
	size_t nrecs, cap_recs;
	uint8_t *buf;		/* UNDO_CHUNK blocks */
};

/* ---- header and record heads ------------------------------------------ */

/* Header layout: magic[8] version@8 block_size@12 dev_bytes@16 created@24
 * header_crc@32 flags@36 file_bytes@40 uuid@48[16] dev_path@64[256]; the
 * rest zero.  file_bytes is not 0 for a truncated image file
 * (f2fs_dev_assume_size): its own size, which a repair grows to dev_bytes
 * first.  flags: HDR_HAS_UUID when the device held an F2FS superblock
 * before the run (uuid is its UUID), HDR_UUID_COPY1 when it came from the
 * second copy (block 1) because the first had no F2FS magic. */
#define HDR_VERSION	8
#define HDR_BLKSIZE	12
#define HDR_DEVBYTES	16
#define HDR_CREATED	24
#define HDR_CRC		32
#define HDR_FLAGS	36
#define HDR_FILEBYTES	40
#define HDR_UUID	48
#define HDR_PATH	64

#define HDR_HAS_UUID	0x1u
#define HDR_UUID_COPY1	0x2u

static uint32_t header_crc(const uint8_t *hdr)
{
	uint8_t copy[F2FS_UNDO_HEADER_SIZE];

	memcpy(copy, hdr, sizeof(copy));
	put_le32(copy + HDR_CRC, 0);
	return f2fs_crc32_le(~0u, copy, sizeof(copy));
}

/* Record head: magic@0 kind@4 blkaddr@8 nblocks@16 data_crc@20 seq@24
 * head_crc@28 (over bytes 0..27, seeded with the header's checksum). */
static void build_head(uint8_t *h, uint32_t seed, uint32_t kind, uint64_t blkaddr,
		       uint32_t nblocks, uint32_t data_crc, uint32_t seq)
{
	memset(h, 0, REC_HEAD_SIZE);
	put_le32(h, F2FS_UNDO_REC_MAGIC);
	put_le32(h + 4, kind);
	put_le64(h + 8, blkaddr);
	put_le32(h + 16, nblocks);
	put_le32(h + 20, data_crc);
	put_le32(h + 24, seq);
	put_le32(h + 28, f2fs_crc32_le(seed, h, 28));
}

static uint32_t zero_blocks_crc(uint64_t nblocks)
{
	static const uint8_t zero[F2FS_BLKSIZE];
	uint32_t crc = ~0u;

	while (nblocks--)
		crc = f2fs_crc32_le(crc, zero, sizeof(zero));
	return crc;
}

/* ---- file I/O ----------------------------------------------------------- */

static int write_all(int fd, const void *buf, size_t len, uint64_t off)
{
	const uint8_t *p = buf;

	while (len > 0) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

static int read_all(int fd, void *buf, size_t len, uint64_t off)
{
	uint8_t *p = buf;

	while (len > 0) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENODATA;
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

/* Read device blocks; the part of a block past the device's end reads
 * as zeroes (a device whose size is not a multiple of 4 KiB). */
static int read_dev_blocks(struct f2fs_dev *dev, uint64_t blkaddr, uint32_t n, uint8_t *buf)
{
	uint64_t off = blkaddr << F2FS_BLKSIZE_BITS, len = (uint64_t)n << F2FS_BLKSIZE_BITS;

	memset(buf, 0, (size_t)len);
	if (off >= dev->size_bytes)
		return 0;
	if (len > dev->size_bytes - off)
		len = dev->size_bytes - off;
	return f2fs_dev_pread_own(dev, off, (size_t)len, buf);
}

static int write_dev_blocks(struct f2fs_dev *dev, uint64_t blkaddr, uint32_t n,
			    const uint8_t *buf)
{
	uint64_t off = blkaddr << F2FS_BLKSIZE_BITS, len = (uint64_t)n << F2FS_BLKSIZE_BITS;

	if (off >= dev->size_bytes)
		return 0;
	if (len > dev->size_bytes - off)
		len = dev->size_bytes - off;
	return f2fs_dev_pwrite(dev, off, (size_t)len, buf);
}

static int device_range_crc(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t nblocks,
			    uint8_t *buf, uint32_t *crc)
{
	*crc = ~0u;
	while (nblocks > 0) {
		uint32_t n = nblocks < UNDO_CHUNK ? (uint32_t)nblocks : UNDO_CHUNK;
		int err = read_dev_blocks(dev, blkaddr, n, buf);

		if (err < 0)
			return err;
		*crc = f2fs_crc32_le(*crc, buf, (size_t)n << F2FS_BLKSIZE_BITS);
		blkaddr += n;
		nblocks -= n;
	}
	return 0;
}

/* ---- the file system's identity ------------------------------------------ */

/* The UUID of the superblock copy in block blk (0 or 1) when it carries
 * the F2FS magic; false when it does not or cannot be read. */
static bool sb_copy_uuid(struct f2fs_dev *dev, uint32_t blk, uint8_t *buf, uint8_t uuid[16])
{
	const uint8_t *sb = buf + F2FS_SUPER_OFFSET;

	if (read_dev_blocks(dev, blk, 1, buf) < 0 ||
	    get_le32(sb + offsetof(struct f2fs_super_block, magic)) != F2FS_SUPER_MAGIC)
		return false;
	memcpy(uuid, sb + offsetof(struct f2fs_super_block, uuid), 16);
	return true;
}

/* The UUID of the F2FS file system on the device: the first superblock
 * copy's when it carries the magic, else the second's; *blk says which.
 * false when neither does (no F2FS there). */
static bool read_fs_uuid(struct f2fs_dev *dev, uint8_t *buf, uint8_t uuid[16], uint32_t *blk)
{
	for (uint32_t b = 0; b < 2; b++) {
		if (sb_copy_uuid(dev, b, buf, uuid)) {
			*blk = b;
			return true;
		}
	}
	return false;
}

/* ---- the set of saved blocks -------------------------------------------- */

/* Index of the first range ending after blk. */
static size_t first_range_after(const struct f2fs_undo *u, uint64_t blk)
{
	size_t lo = 0, hi = u->nranges;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (u->ranges[mid].end <= blk)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Room for need elements of size bytes (lib/array.c). */
static int grow(void **arr, size_t *cap, size_t need, size_t size)
{
	return f2fs_array_grow(arr, size, cap, need, 64) ? -ENOMEM : 0;
}

/* Add [start, end), which overlaps no saved block, merging neighbours. */
static int mark_saved(struct f2fs_undo *u, uint64_t start, uint64_t end)
{
	size_t i = first_range_after(u, start);
	bool join_prev = i > 0 && u->ranges[i - 1].end == start;
	bool join_next = i < u->nranges && u->ranges[i].start == end;
	int err;

	if (join_prev && join_next) {
		u->ranges[i - 1].end = u->ranges[i].end;
		memmove(&u->ranges[i], &u->ranges[i + 1], (u->nranges - i - 1) * sizeof(*u->ranges));
		u->nranges--;
		return 0;
	}
	if (join_prev) {
		u->ranges[i - 1].end = end;
		return 0;
	}
	if (join_next) {
		u->ranges[i].start = start;
		return 0;
	}
	err = grow((void **)&u->ranges, &u->cap_ranges, u->nranges + 1, sizeof(*u->ranges));
	if (err < 0)
		return err;
	memmove(&u->ranges[i + 1], &u->ranges[i], (u->nranges - i) * sizeof(*u->ranges));
	u->ranges[i].start = start;
	u->ranges[i].end = end;
	u->nranges++;
	return 0;
}

/* The first unsaved stretch of [*lo, hi): false when there is none. */
static bool next_unsaved(const struct f2fs_undo *u, uint64_t *lo, uint64_t hi, uint64_t *end)
{
	size_t i = first_range_after(u, *lo);

	if (i < u->nranges && u->ranges[i].start <= *lo)
		*lo = u->ranges[i++].end;
	if (*lo >= hi)
		return false;
	*end = i < u->nranges && u->ranges[i].start < hi ? u->ranges[i].start : hi;
	return true;
}

/* ---- appending records ---------------------------------------------------- */

/* The write-cut layer's limit, with this file's records counted. */
static bool limit_reached(const struct f2fs_undo *u, const struct f2fs_dev *dev)
{
	uint64_t limit = f2fs_cut_limit(dev);

	return limit && dev->stats.write_calls + u->appends >= limit;
}

/* Test hook: the write limit falls on this record: leave half of it, as
 * a power cut in the middle of the append would, and stop. */
static void tear_record(struct f2fs_undo *u, const uint8_t *head)
{
	(void)write_all(u->fd, head, REC_HEAD_SIZE / 2, u->file_end);
	(void)fdatasync(u->fd);
	u->appends++;
	u->cut = true;
}

static int append_record(struct f2fs_undo *u, struct f2fs_dev *dev, uint32_t kind,
			 uint64_t blkaddr, uint32_t nblocks, const void *payload, size_t len)
{
	uint32_t crc = payload ? f2fs_crc32_le(~0u, payload, len) : 0;
	uint8_t head[REC_HEAD_SIZE];
	int err;

	build_head(head, u->seed, kind, blkaddr, nblocks, crc, u->seq);
	if (limit_reached(u, dev)) {
		tear_record(u, head);
		return 1;
	}
	err = write_all(u->fd, head, sizeof(head), u->file_end);
	if (!err && len)
		err = write_all(u->fd, payload, len, u->file_end + REC_HEAD_SIZE);
	if (err < 0)
		return err;
	u->file_end += REC_HEAD_SIZE + len;
	u->seq++;
	u->appends++;
	return 0;
}

static int append_saved(struct f2fs_undo *u, struct f2fs_dev *dev, bool zero, uint64_t blkaddr,
			uint32_t n, const uint8_t *data)
{
	int err = grow((void **)&u->recs, &u->cap_recs, u->nrecs + 1, sizeof(*u->recs));

	if (err < 0)
		return err;
	err = append_record(u, dev, zero ? F2FS_UNDO_ZERO : F2FS_UNDO_DATA, blkaddr, n,
			    zero ? NULL : data, zero ? 0 : (size_t)n << F2FS_BLKSIZE_BITS);
	if (err)
		return err;
	u->recs[u->nrecs].blkaddr = blkaddr;
	u->recs[u->nrecs].nblocks = n;
	u->nrecs++;
	return mark_saved(u, blkaddr, blkaddr + n);
}

static bool block_is_zero(const uint8_t *b)
{
	static const uint8_t zero[F2FS_BLKSIZE];

	return !memcmp(b, zero, F2FS_BLKSIZE);
}

/* Save n blocks read at blkaddr as runs of zero and other blocks. */
static int save_chunk(struct f2fs_undo *u, struct f2fs_dev *dev, uint64_t blkaddr, uint32_t n)
{
	uint32_t i = 0;
	int err = read_dev_blocks(dev, blkaddr, n, u->buf);

	while (!err && i < n) {
		bool zero = block_is_zero(u->buf + ((size_t)i << F2FS_BLKSIZE_BITS));
		uint32_t j = i + 1;

		while (j < n && block_is_zero(u->buf + ((size_t)j << F2FS_BLKSIZE_BITS)) == zero)
			j++;
		err = append_saved(u, dev, zero, blkaddr + i, j - i,
				   u->buf + ((size_t)i << F2FS_BLKSIZE_BITS));
		i = j;
	}
	return err;
}

/* Save the blocks of [off, off + len) not saved yet and sync them: 0 to
 * go on, 1 when the write-limit hook cut the undo file (the change and
 * every later one are dropped below), -errno. */
static int undo_save(struct f2fs_undo *u, struct f2fs_dev *dev, uint64_t off, uint64_t len)
{
	uint64_t lo = off >> F2FS_BLKSIZE_BITS;
	uint64_t hi = (off + len + F2FS_BLKSIZE - 1) >> F2FS_BLKSIZE_BITS;
	uint64_t end;
	bool appended = false;
	int err = u->err;

	if (u->cut)
		return 1;
	while (!err && next_unsaved(u, &lo, hi, &end)) {
		uint32_t n = end - lo < UNDO_CHUNK ? (uint32_t)(end - lo) : UNDO_CHUNK;

		err = save_chunk(u, dev, lo, n);
		appended = true;
		lo += n;
	}
	if (err == 1)
		return 1;
	if (!err && appended && fdatasync(u->fd) < 0)
		err = -errno;
	if (err < 0)
		u->err = err;
	return err;
}

static const struct f2fs_layer_ops undo_ops;

static struct f2fs_undo *undo_of(const struct f2fs_dev *dev)
{
	return (struct f2fs_undo *)f2fs_layer_find(dev, &undo_ops);
}

bool f2fs_undo_active(const struct f2fs_dev *dev)
{
	return undo_of(dev) != NULL;
}

uint64_t f2fs_undo_appends(const struct f2fs_dev *dev)
{
	const struct f2fs_undo *u = undo_of(dev);

	return u ? u->appends : 0;
}

/* A write, discard or zero-out the layers below will perform unless the
 * power is cut: the blocks it overwrites go to the undo file, durably,
 * first.  When the write-limit hook cuts the undo file, the write-cut
 * layer drops this change and the rest. */
static int undo_change(struct f2fs_layer *l, const struct f2fs_change *c)
{
	int err;

	if (c->kind != F2FS_CHANGE_RESIZE && !f2fs_cut_reached(l->dev)) {
		err = undo_save((struct f2fs_undo *)l, l->dev, c->off, c->len);
		if (err < 0)
			return err;
	}
	return f2fs_layer_change(l->below, c);
}

static int finish(struct f2fs_undo *u);

/* Closed with the device when the tool did not finish the file (errors
 * are the tool's to see, by calling f2fs_dev_finish_undo first). */
static void undo_close(struct f2fs_layer *l)
{
	(void)finish((struct f2fs_undo *)l);
}

static const struct f2fs_layer_ops undo_ops = {
	.name = "undo",
	.rank = 20,
	.change = undo_change,
	.close = undo_close,
};

/* ---- starting and finishing ----------------------------------------------- */

static void free_writer(struct f2fs_undo *u)
{
	if (!u)
		return;
	if (u->fd >= 0)
		close(u->fd);
	free(u->ranges);
	free(u->recs);
	free(u->buf);
	free(u);
}

/* fsync the directory holding path, so the new file's name is durable. */
static int sync_parent(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	int fd, err = 0;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if ((size_t)(slash - path) >= sizeof(dir))
		return -ENAMETOOLONG;
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		err = -errno;
	close(fd);
	return err;
}

static int write_header(struct f2fs_undo *u, struct f2fs_dev *dev)
{
	uint8_t hdr[F2FS_UNDO_HEADER_SIZE];
	uint8_t uuid[16];
	uint32_t blk;
	int err;

	memset(hdr, 0, sizeof(hdr));
	if (read_fs_uuid(dev, u->buf, uuid, &blk)) {
		put_le32(hdr + HDR_FLAGS, HDR_HAS_UUID | (blk ? HDR_UUID_COPY1 : 0));
		memcpy(hdr + HDR_UUID, uuid, sizeof(uuid));
	}
	memcpy(hdr, F2FS_UNDO_MAGIC, 8);
	put_le32(hdr + HDR_VERSION, F2FS_UNDO_VERSION);
	put_le32(hdr + HDR_BLKSIZE, F2FS_BLKSIZE);
	put_le64(hdr + HDR_DEVBYTES, dev->size_bytes);
	put_le64(hdr + HDR_CREATED, (uint64_t)time(NULL));
	if (dev->file_bytes < dev->size_bytes)
		put_le64(hdr + HDR_FILEBYTES, dev->file_bytes);
	snprintf((char *)hdr + HDR_PATH, F2FS_UNDO_PATH_MAX, "%s", dev->path ? dev->path : "");
	u->seed = header_crc(hdr);
	put_le32(hdr + HDR_CRC, u->seed);
	err = write_all(u->fd, hdr, sizeof(hdr), 0);
	if (!err && fsync(u->fd) < 0)
		err = -errno;
	u->file_end = sizeof(hdr);
	return err;
}

int f2fs_dev_start_undo(struct f2fs_dev *dev, const char *path)
{
	struct f2fs_undo *u;
	int err;

	if (!dev || !path || !*path)
		return -EINVAL;
	if (undo_of(dev))
		return -EBUSY;
	if (dev->read_only)
		return -EROFS;
	if (dev->zoned || dev->nmembers)
		return -EOPNOTSUPP;
	u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	u->buf = f2fs_blocks_alloc(UNDO_CHUNK);
	u->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (!u->buf || u->fd < 0) {
		err = u->buf ? -errno : -ENOMEM;
		free_writer(u);
		return err;
	}
	err = write_header(u, dev);
	if (!err)
		err = sync_parent(path);
	if (err) {
		free_writer(u);
		(void)unlink(path);
		return err;
	}
	(void)f2fs_layer_push(dev, &u->layer, &undo_ops);
	return 0;
}

static int append_final(struct f2fs_undo *u, struct f2fs_dev *dev)
{
	uint8_t *crcs = malloc(u->nrecs * 4 + 1);
	int err = crcs ? 0 : -ENOMEM;

	for (size_t i = 0; !err && i < u->nrecs; i++) {
		uint32_t crc;

		err = device_range_crc(dev, u->recs[i].blkaddr, u->recs[i].nblocks, u->buf, &crc);
		put_le32(crcs + 4 * i, crc);
	}
	if (!err)
		err = append_record(u, dev, F2FS_UNDO_FINAL, 0, (uint32_t)u->nrecs, crcs,
				    u->nrecs * 4);
	if (err == 0 && fdatasync(u->fd) < 0)
		err = -errno;
	free(crcs);
	return err < 0 ? err : 0;
}

/* The undo layer is out of the stack (the flush below must not save
 * anything): flush the device, append the final record, close. */
static int finish(struct f2fs_undo *u)
{
	struct f2fs_dev *dev = u->layer.dev;
	int err = u->err;

	if (!err && !u->cut) {
		err = f2fs_dev_flush(dev);
		if (!err)
			err = append_final(u, dev);
	}
	if (close(u->fd) < 0 && !err)
		err = -errno;
	u->fd = -1;
	free_writer(u);
	return err;
}

int f2fs_dev_finish_undo(struct f2fs_dev *dev)
{
	struct f2fs_undo *u = dev ? undo_of(dev) : NULL;

	if (!u)
		return 0;
	f2fs_layer_remove(dev, &u->layer);
	return finish(u);
}

/* ---- reading ---------------------------------------------------------------- */

static int load_header(struct f2fs_undo_file *u, uint32_t *seed)
{
	uint8_t hdr[F2FS_UNDO_HEADER_SIZE];
	int err = read_all(u->fd, hdr, sizeof(hdr), 0);

	if (err == -ENODATA)
		return -EBADMSG;
	if (err < 0)
		return err;
	if (memcmp(hdr, F2FS_UNDO_MAGIC, 8) || get_le32(hdr + HDR_VERSION) != F2FS_UNDO_VERSION ||
	    get_le32(hdr + HDR_BLKSIZE) != F2FS_BLKSIZE ||
	    get_le32(hdr + HDR_CRC) != header_crc(hdr))
		return -EBADMSG;
	*seed = get_le32(hdr + HDR_CRC);
	u->dev_bytes = get_le64(hdr + HDR_DEVBYTES);
	u->created = get_le64(hdr + HDR_CREATED);
	u->file_bytes = get_le64(hdr + HDR_FILEBYTES);
	if (u->file_bytes >= u->dev_bytes)
		u->file_bytes = 0;
	u->has_uuid = get_le32(hdr + HDR_FLAGS) & HDR_HAS_UUID;
	u->uuid_blk = get_le32(hdr + HDR_FLAGS) & HDR_UUID_COPY1 ? 1 : 0;
	memcpy(u->uuid, hdr + HDR_UUID, sizeof(u->uuid));
	memcpy(u->dev_path, hdr + HDR_PATH, F2FS_UNDO_PATH_MAX);
	u->dev_path[F2FS_UNDO_PATH_MAX - 1] = '\0';
	return 0;
}

struct rec_head {
	uint32_t kind, nblocks, data_crc, seq;
	uint64_t blkaddr;
};

/* A record head at off that checks, or false. */
static bool read_head(const struct f2fs_undo_file *u, uint32_t seed, uint64_t off,
		      uint32_t seq, struct rec_head *r)
{
	uint8_t h[REC_HEAD_SIZE];

	if (read_all(u->fd, h, sizeof(h), off) < 0)
		return false;
	if (get_le32(h) != F2FS_UNDO_REC_MAGIC || get_le32(h + 28) != f2fs_crc32_le(seed, h, 28))
		return false;
	r->kind = get_le32(h + 4);
	r->blkaddr = get_le64(h + 8);
	r->nblocks = get_le32(h + 16);
	r->data_crc = get_le32(h + 20);
	r->seq = get_le32(h + 24);
	return r->seq == seq && (r->kind == F2FS_UNDO_FINAL || r->nblocks > 0);
}

/* Checksum of len payload bytes at off; false when they are not all there. */
static bool payload_crc(const struct f2fs_undo_file *u, uint64_t off, uint64_t len,
			uint8_t *buf, uint32_t *crc)
{
	*crc = ~0u;
	while (len > 0) {
		size_t n = len < ((size_t)UNDO_CHUNK << F2FS_BLKSIZE_BITS) ?
			   (size_t)len : (size_t)UNDO_CHUNK << F2FS_BLKSIZE_BITS;

		if (read_all(u->fd, buf, n, off) < 0)
			return false;
		*crc = f2fs_crc32_le(*crc, buf, n);
		off += n;
		len -= n;
	}
	return true;
}

static bool range_fits(const struct f2fs_undo_file *u, uint64_t blkaddr, uint32_t n)
{
	uint64_t blocks = (u->dev_bytes + F2FS_BLKSIZE - 1) >> F2FS_BLKSIZE_BITS;

	return blkaddr < blocks && n <= blocks - blkaddr;
}

static int add_rec(struct f2fs_undo_file *u, size_t *cap, const struct rec_head *h,
		   uint64_t data_off)
{
	struct f2fs_undo_rec *r;
	int err = grow((void **)&u->recs, cap, u->nrecs + 1, sizeof(*u->recs));

	if (err < 0)
		return err;
	r = &u->recs[u->nrecs++];
	memset(r, 0, sizeof(*r));
	r->kind = h->kind;
	r->blkaddr = h->blkaddr;
	r->nblocks = h->nblocks;
	r->data_off = data_off;
	r->orig_crc = h->kind == F2FS_UNDO_DATA ? h->data_crc : zero_blocks_crc(h->nblocks);
	u->nblocks += h->nblocks;
	return 0;
}

/* The final record's checksums, one per record before it. */
static bool load_final(struct f2fs_undo_file *u, const struct rec_head *h, uint64_t off,
		       uint8_t *buf)
{
	uint32_t crc;

	if (h->nblocks != u->nrecs)
		return false;
	if (!payload_crc(u, off, (uint64_t)h->nblocks * 4, buf, &crc) || crc != h->data_crc)
		return false;
	for (size_t i = 0; i < u->nrecs; i++) {
		uint8_t v[4];

		if (read_all(u->fd, v, 4, off + 4 * i) < 0)
			return false;
		u->recs[i].final_crc = get_le32(v);
	}
	return true;
}

static int load_records(struct f2fs_undo_file *u, uint32_t seed, uint64_t file_size)
{
	uint64_t off = F2FS_UNDO_HEADER_SIZE;
	uint8_t *buf = f2fs_blocks_alloc(UNDO_CHUNK);
	size_t cap = 0;
	struct rec_head h;
	int err = buf ? 0 : -ENOMEM;

	while (!err && off < file_size && read_head(u, seed, off, (uint32_t)u->nrecs, &h)) {
		uint64_t len = h.kind == F2FS_UNDO_DATA ? (uint64_t)h.nblocks << F2FS_BLKSIZE_BITS : 0;
		uint32_t crc;

		if (h.kind == F2FS_UNDO_FINAL) {
			u->finished = load_final(u, &h, off + REC_HEAD_SIZE, buf);
			if (u->finished)
				off += REC_HEAD_SIZE + (uint64_t)h.nblocks * 4;
			break;
		}
		if ((h.kind != F2FS_UNDO_DATA && h.kind != F2FS_UNDO_ZERO) ||
		    !range_fits(u, h.blkaddr, h.nblocks))
			break;
		if (len && (!payload_crc(u, off + REC_HEAD_SIZE, len, buf, &crc) || crc != h.data_crc))
			break;
		err = add_rec(u, &cap, &h, off + REC_HEAD_SIZE);
		off += REC_HEAD_SIZE + len;
	}
	u->torn = off < file_size;
	free(buf);
	return err;
}

int f2fs_undo_load(const char *path, struct f2fs_undo_file **out)
{
	struct f2fs_undo_file *u;
	struct stat st;
	uint32_t seed;
	int err;

	*out = NULL;
	u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	u->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (u->fd < 0) {
		err = -errno;
		free(u);
		return err;
	}
	err = fstat(u->fd, &st) < 0 ? -errno : 0;
	if (!err && !S_ISREG(st.st_mode))
		err = -EBADMSG;
	if (!err)
		err = load_header(u, &seed);
	if (!err)
		err = load_records(u, seed, (uint64_t)st.st_size);
	if (err) {
		f2fs_undo_free(u);
		return err;
	}
	*out = u;
	return 0;
}

void f2fs_undo_free(struct f2fs_undo_file *u)
{
	if (!u)
		return;
	if (u->fd >= 0)
		close(u->fd);
	free(u->recs);
	free(u);
}

/* The device is the one the file was made on: its size then, or a
 * truncated image's own size (the run stopped before it grew the file,
 * its first write). */
static bool size_matches(const struct f2fs_undo_file *u, const struct f2fs_dev *dev)
{
	return dev->size_bytes == u->dev_bytes ||
	       (u->file_bytes && dev->is_regular && dev->size_bytes == u->file_bytes);
}

int f2fs_undo_check_device(const struct f2fs_undo_file *u, struct f2fs_dev *dev,
			   uint64_t *bad_blk)
{
	uint8_t *buf;
	int err = 0;

	if (!size_matches(u, dev))
		return -EXDEV;
	if (!u->finished || dev->size_bytes != u->dev_bytes)
		return 0;
	buf = f2fs_blocks_alloc(UNDO_CHUNK);
	if (!buf)
		return -ENOMEM;
	for (size_t i = 0; !err && i < u->nrecs; i++) {
		const struct f2fs_undo_rec *r = &u->recs[i];
		uint32_t crc;

		err = device_range_crc(dev, r->blkaddr, r->nblocks, buf, &crc);
		if (!err && crc != r->final_crc && crc != r->orig_crc) {
			*bad_blk = r->blkaddr;
			err = -ESTALE;
		}
	}
	free(buf);
	return err;
}

/* Whether a record saved block blk (the run overwrote it). */
static bool run_wrote(const struct f2fs_undo_file *u, uint64_t blk)
{
	for (size_t i = 0; i < u->nrecs; i++)
		if (blk >= u->recs[i].blkaddr && blk - u->recs[i].blkaddr < u->recs[i].nblocks)
			return true;
	return false;
}

int f2fs_undo_check_fs(const struct f2fs_undo_file *u, struct f2fs_dev *dev)
{
	uint8_t *buf;
	uint8_t uuid[16];
	bool same = false;

	if (!u->has_uuid || run_wrote(u, u->uuid_blk))
		return 0;
	buf = malloc(F2FS_BLKSIZE);
	if (!buf)
		return -ENOMEM;
	for (uint32_t b = 0; b < 2 && !same; b++)
		same = sb_copy_uuid(dev, b, buf, uuid) && !memcmp(uuid, u->uuid, sizeof(uuid));
	free(buf);
	return same ? 0 : -EMEDIUMTYPE;
}

static int apply_one(const struct f2fs_undo_file *u, const struct f2fs_undo_rec *r,
		     struct f2fs_dev *dev, uint8_t *buf)
{
	uint64_t done = 0;

	while (done < r->nblocks) {
		uint32_t n = r->nblocks - done < UNDO_CHUNK ? (uint32_t)(r->nblocks - done) : UNDO_CHUNK;
		int err = 0;

		if (r->kind == F2FS_UNDO_ZERO)
			memset(buf, 0, (size_t)n << F2FS_BLKSIZE_BITS);
		else
			err = read_all(u->fd, buf, (size_t)n << F2FS_BLKSIZE_BITS,
				       r->data_off + (done << F2FS_BLKSIZE_BITS));
		if (err == -ENODATA)
			err = -EIO;
		if (!err)
			err = write_dev_blocks(dev, r->blkaddr + done, n, buf);
		if (err < 0)
			return err;
		done += n;
	}
	return 0;
}

int f2fs_undo_apply(const struct f2fs_undo_file *u, struct f2fs_dev *dev)
{
	uint8_t *buf;
	int err = 0;

	if (!size_matches(u, dev))
		return -EXDEV;
	if (dev->size_bytes != u->dev_bytes)
		return 0;	/* not grown: nothing was written */
	buf = f2fs_blocks_alloc(UNDO_CHUNK);
	if (!buf)
		return -ENOMEM;
	for (size_t i = 0; !err && i < u->nrecs; i++)
		err = apply_one(u, &u->recs[i], dev, buf);
	free(buf);
	if (!err)
		err = f2fs_dev_flush(dev);
	if (!err && u->file_bytes)
		err = f2fs_dev_shrink_file(dev, u->file_bytes);
	return err;
}
