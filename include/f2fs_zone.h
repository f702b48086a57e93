/*
 * f2fs_zone.h - zoned block devices: the zone model of a device, zone
 * operations, and the one place for zone and section arithmetic.
 *
 * WHAT A ZONE MODEL IS
 * A zoned device is cut into zones.  Each has a type (conventional:
 * written anywhere; sequential-write-required: written only at its write
 * pointer, host-managed devices; sequential-write-preferred: host-aware
 * devices), a condition, a start and a length, a capacity (the writable
 * blocks from its start; ZNS zones may be shorter than their length) and
 * a write pointer.  struct f2fs_zone holds one zone in 4 KiB blocks,
 * counted from the start of its own device (never volume addresses).
 * All zones have the same length except perhaps a shorter last one;
 * sizes and capacities need not be powers of two.
 *
 * WHERE IT COMES FROM, WHO OWNS IT
 * f2fs_dev_open() attaches the model to the device (f2fs_dev_zoned), NULL when
 * the device is not zoned.  The device owns it; f2fs_dev_close() frees it
 * (after saving an emulated model's write pointers).  Nobody else frees or
 * replaces it; tools read it and change it only through the functions
 * below or through writes of the I/O layer.
 *  - A zoned block device (sysfs queue/zoned "host-managed" or
 *    "host-aware"): BLKGETZONESZ, BLKGETNRZONES, then BLKREPORTZONE in
 *    batches, with per-zone capacity when the kernel gives it
 *    (BLK_ZONE_REP_CAPACITY; otherwise capacity = length).
 *  - An emulated model over a regular file or a loop device: a small text
 *    side file.  It is found, in this order, at the path given in
 *    f2fs_dev_opts.zone_model (mkfs.f2fs and dump.f2fs: --zone-model
 *    FILE, for their first device only), at PATH.zones
 *    next to a regular file PATH, or for a loop device at BACKING.zones
 *    next to its backing file.  With none of them the device is not zoned.
 *    f2fs_dev_opts.no_zone_model turns the lookup off.
 *
 * THE SIDE FILE (text, one directive a line, '#' starts a comment)
 *     zone_size 96M          bytes, suffix K M G T (powers of 1024);
 *                            a multiple of 4096; required
 *     zone_capacity 80M      writable bytes of each sequential zone;
 *                            default zone_size; multiple of 4096
 *     conventional 4         the first N zones are conventional; default 0
 *     model host-managed     or host-aware (sequential-write-preferred
 *                            zones, written anywhere); default
 *                            host-managed
 *     max_open 6             the most zones open at once (sysfs
 *                            queue/max_open_zones); default 0, no limit;
 *                            recorded, not enforced
 *     zone 7 1024 open       a sequential zone that is not empty: index,
 *                            write pointer in 4 KiB blocks from the zone
 *                            start, condition (open, closed, full,
 *                            readonly, offline, empty)
 * The device holds size / zone_size zones; bytes after the last whole zone
 * belong to no zone.  The zone lines are rewritten by the layer (at each
 * f2fs_dev_flush() and at close, when something changed, through a
 * temporary file renamed over it); other lines are kept as parsed values,
 * not as text.  A malformed file makes f2fs_dev_open() fail with -EINVAL.
 *
 * WRITES
 * Every write, zero-out and discard of the I/O layer is checked against
 * the model when it is performed (dry runs and the write-limit hook drop
 * writes before that, so they move no write pointer): a piece landing in
 * a sequential-write-required zone must start exactly at its write
 * pointer, cover whole 4 KiB blocks and end within the capacity, and the
 * zone must not be full, read-only or offline; otherwise the request fails
 * with -EIO, as a real device fails it, and nothing is written.  A write
 * moves the write pointer (an empty zone becomes implicitly open; a zone
 * written up to its capacity becomes full, with the write pointer at
 * start + len as Linux reports it).  A sequential-write-preferred zone
 * takes any write; its write pointer moves to the end of the furthest
 * write.  A discard touching a sequential zone is -EOPNOTSUPP (reset
 * instead).  On a real device the kernel enforces the same, and the
 * layer's copy follows the writes; f2fs_zone_refresh() reads it again.
 *
 * ERRORS (negative errno, nothing printed)
 *  -EINVAL      bad side file, a range not made of whole zones, arguments
 *  -EIO         a write breaking the write-pointer rule (see WRITES)
 *  -EOPNOTSUPP  a zone operation on a device that is not zoned, discard
 *               of a sequential zone
 *  -EROFS       a read-only device
 *  -ENOMEM, and the errno of a failed ioctl, open, read or rename.
 */
#ifndef F2FS_ZONE_H
#define F2FS_ZONE_H

#include <stdbool.h>
#include <stdint.h>

struct f2fs_dev;

/* Values are those of <linux/blkzoned.h>. */
enum f2fs_zone_type {
	F2FS_ZONE_TYPE_CONVENTIONAL = 0x1,
	F2FS_ZONE_TYPE_SEQWRITE_REQ = 0x2,
	F2FS_ZONE_TYPE_SEQWRITE_PREF = 0x3,
};

enum f2fs_zone_cond {
	F2FS_ZONE_COND_NOT_WP = 0x0,	/* conventional */
	F2FS_ZONE_COND_EMPTY = 0x1,
	F2FS_ZONE_COND_IMP_OPEN = 0x2,
	F2FS_ZONE_COND_EXP_OPEN = 0x3,
	F2FS_ZONE_COND_CLOSED = 0x4,
	F2FS_ZONE_COND_READONLY = 0xD,
	F2FS_ZONE_COND_FULL = 0xE,
	F2FS_ZONE_COND_OFFLINE = 0xF,
};

enum f2fs_zoned_model {
	F2FS_ZONED_NONE = 0,
	F2FS_ZONED_HA,		/* host-aware: sequential-write-preferred */
	F2FS_ZONED_HM,		/* host-managed: sequential-write-required */
};

/* x / d and x % d for a fixed d: a shift and a mask when d is a power of
 * two; otherwise a multiplication by a reciprocal of d computed once by
 * f2fs_zdiv_init (division by an invariant integer, Granlund and
 * Montgomery 1994, fig. 4.1), exact for every 64-bit x:
 *     l = ceil(log2 d),  magic = floor(2^64 * (2^l - d) / d) + 1,
 *     t = (magic * x) >> 64,  x / d = (t + ((x - t) >> 1)) >> (l - 1).
 * Compilers without a 128-bit integer type divide (bench/zone-bench.sh
 * measures the paths; tests/unit/test_zone.c checks them against a
 * brute-force model). */
#if defined(__SIZEOF_INT128__)
#define F2FS_ZDIV_MAGIC 1
#endif

struct f2fs_zdiv {
	uint64_t d;		/* > 0 */
	uint64_t magic;		/* the reciprocal, when !pow2 */
	unsigned int shift;	/* log2(d) when pow2, l - 1 otherwise */
	bool pow2;
};

/* One zone, in 4 KiB blocks from the start of its device. */
struct f2fs_zone {
	uint64_t start;
	uint64_t len;
	uint64_t capacity;	/* <= len; len for a conventional zone */
	uint64_t wp;		/* write pointer: start..start+capacity, or
				 * start + len when full; start + len for a
				 * conventional zone */
	uint8_t type;		/* enum f2fs_zone_type */
	uint8_t cond;		/* enum f2fs_zone_cond */
};

struct f2fs_zoned {
	enum f2fs_zoned_model model;
	bool emulated;		/* side file, not a zoned block device */
	uint64_t zone_blocks;	/* length of every zone but maybe the last */
	struct f2fs_zdiv zdiv;	/* by zone_blocks */
	uint32_t nr_zones;
	uint32_t nr_conventional;	/* conventional zones, anywhere */
	uint32_t first_sequential;	/* index of the first sequential zone,
					 * nr_zones when none */
	uint32_t max_open;		/* zones open at once, 0: no limit */
	struct f2fs_zone *zones;
	/* emulation */
	char *model_path;	/* the side file */
	bool dirty;		/* write pointers changed since loaded/saved */
};

/* ---- arithmetic (no device needed) ---- */

void f2fs_zdiv_init(struct f2fs_zdiv *z, uint64_t d);	/* d == 0 is taken as 1 */

static inline uint64_t f2fs_zdiv_quot(const struct f2fs_zdiv *z, uint64_t x)
{
#ifdef F2FS_ZDIV_MAGIC
	__extension__ typedef unsigned __int128 f2fs_u128;
	uint64_t t;

	if (z->pow2)
		return x >> z->shift;
	t = (uint64_t)(((f2fs_u128)z->magic * x) >> 64);
	return (t + ((x - t) >> 1)) >> z->shift;
#else
	return z->pow2 ? x >> z->shift : x / z->d;
#endif
}

static inline uint64_t f2fs_zdiv_rem(const struct f2fs_zdiv *z, uint64_t x)
{
	return z->pow2 ? x & (z->d - 1) : x - f2fs_zdiv_quot(z, x) * z->d;
}

/* Zone index of device block blk (may be >= nr_zones: check it) and the
 * block's offset in its zone. */
static inline uint64_t f2fs_zone_no(const struct f2fs_zoned *zd, uint64_t blk)
{
	return f2fs_zdiv_quot(&zd->zdiv, blk);
}

static inline uint64_t f2fs_zone_blkoff(const struct f2fs_zoned *zd, uint64_t blk)
{
	return f2fs_zdiv_rem(&zd->zdiv, blk);
}

/* The zone holding device block blk, NULL when no zone does. */
const struct f2fs_zone *f2fs_zone_at(const struct f2fs_zoned *zd, uint64_t blk);
/* The zone holding volume block blk of dev (device 0 of a volume, with
 * its members attached): a zone of device 0 or of the member holding blk;
 * NULL when that device is not zoned or the block is in no zone.  *zd
 * (may be NULL) gets that device's model. */
const struct f2fs_zone *f2fs_zone_of_volume_blk(const struct f2fs_dev *dev, uint64_t blk,
						const struct f2fs_zoned **zd);

/* A section is one zone.  Usable blocks of segment seg_in_sec (0-based)
 * of a section whose zone has cap_blocks writable blocks (the kernel's
 * f2fs_usable_blks_in_seg): blocks_per_seg, the part before the capacity
 * for the segment it cuts, 0 after it. */
uint32_t f2fs_zone_usable_blks_in_seg(uint64_t cap_blocks, uint32_t seg_in_sec,
				      uint32_t blocks_per_seg);
/* Usable segments of such a section (the kernel's
 * f2fs_usable_segs_in_sec): segs_per_sec less the whole segments of the
 * unusable tail zone_blocks - cap_blocks. */
uint32_t f2fs_zone_usable_segs_in_sec(uint64_t zone_blocks, uint64_t cap_blocks,
				      uint32_t segs_per_sec);

const char *f2fs_zone_type_name(uint8_t type);	/* "conventional", "seq-req", ... */
const char *f2fs_zone_cond_name(uint8_t cond);	/* "not-wp", "empty", "open", ... */
const char *f2fs_zoned_model_name(enum f2fs_zoned_model m);

static inline bool f2fs_zone_is_seq(const struct f2fs_zone *z)
{
	return z->type != F2FS_ZONE_TYPE_CONVENTIONAL;
}

/* ---- the model of a device ---- */

/* Parse a side file's text for a device of dev_bytes bytes (the model
 * owns nothing of text).  -EINVAL with *line set to the offending line. */
int f2fs_zone_model_parse(const char *text, uint64_t dev_bytes,
			  struct f2fs_zoned **out, unsigned int *line);
/* Why the side file at path does not describe a device of dev_bytes, as
 * one line for a tool's message ("line 3: ..." or what the sizes break),
 * into buf; 0 when it does (buf empty), else the error f2fs_dev_open()
 * gave. */
int f2fs_zone_model_explain(const char *path, uint64_t dev_bytes, char *buf, size_t len);
/* The side file's text for zd (malloc'd, caller frees). */
int f2fs_zone_model_format(const struct f2fs_zoned *zd, char **out);
/* Write an emulated model's side file now if it changed (also done by
 * f2fs_dev_flush and f2fs_dev_close); 0 for a real device. */
int f2fs_zone_model_save(struct f2fs_zoned *zd);
void f2fs_zoned_free(struct f2fs_zoned *zd);

/* Read the zones of dev (a zoned block device) again; an emulated
 * model is kept as is.  0 when dev is not zoned. */
int f2fs_zone_refresh(struct f2fs_dev *dev);

/* Reset (write pointer to the start, condition empty; the blocks read
 * back as zeroes) or finish (condition full) the zones of volume blocks
 * [blkaddr, blkaddr + nblocks), which must be whole zones; conventional
 * zones in the range are left alone.  Runs of sequential zones go to
 * the device in one BLKRESETZONE / BLKFINISHZONE each.  Routed on a
 * multi-device volume; obey read-only, dry-run and the write-limit hook
 * like a write (one request). */
int f2fs_zone_reset(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t nblocks);
int f2fs_zone_finish(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t nblocks);

/* For the I/O layer (lib/device.c): may bytes [off, off + len) of the
 * device be written now (0), or -EIO / -EOPNOTSUPP (discard); and move
 * the write pointers after the write was done. */
int f2fs_zone_check_write(const struct f2fs_zoned *zd, uint64_t off, uint64_t len);
int f2fs_zone_check_discard(const struct f2fs_zoned *zd, uint64_t off, uint64_t len);
void f2fs_zone_note_write(struct f2fs_zoned *zd, uint64_t off, uint64_t len);

/* Attach the model of an open device (called by f2fs_dev_open):
 * model_path as f2fs_dev_opts.zone_model. */
int f2fs_zone_attach(struct f2fs_dev *dev, const char *model_path, bool lookup);

#endif
