/*
 * super.c - superblock validation, reading both copies, and writing them.
 *
 * f2fs_sb_validate() applies, in the kernel's order, every check that
 * sanity_check_raw_super() makes at mount, and names the first that fails.
 */
#include <string.h>

#include "f2fs_fs.h"
#include "f2fs_err.h"
#include "f2fs_crc.h"
#include "f2fs_mount.h"
#include "f2fs_super.h"

#define SB_FAIL(msg) do { *why = (msg); return -EFSCORRUPTED; } while (0)

static int check_sb_units(const struct f2fs_super_block *sb, const char **why)
{
	uint32_t log_sectorsize = le32_to_cpu(sb->log_sectorsize);

	if (le32_to_cpu(sb->log_blocksize) != F2FS_BLKSIZE_BITS)
		SB_FAIL("log_blocksize is not 12 (4 KiB blocks)");
	if (le32_to_cpu(sb->log_blocks_per_seg) != F2FS_LOG_BLOCKS_PER_SEG)
		SB_FAIL("log_blocks_per_seg is not 9 (512 blocks per segment)");
	if (log_sectorsize < F2FS_MIN_LOG_SECTOR_SIZE ||
	    log_sectorsize > F2FS_MAX_LOG_SECTOR_SIZE)
		SB_FAIL("log_sectorsize is outside 9..12");
	if (le32_to_cpu(sb->log_sectors_per_block) + log_sectorsize != F2FS_BLKSIZE_BITS)
		SB_FAIL("log_sectors_per_block + log_sectorsize is not 12");
	return 0;
}

static int check_sb_counts(const struct f2fs_super_block *sb, const char **why)
{
	uint32_t segment_count = le32_to_cpu(sb->segment_count);
	uint32_t section_count = le32_to_cpu(sb->section_count);
	uint32_t segs_per_sec = le32_to_cpu(sb->segs_per_sec);
	uint32_t secs_per_zone = le32_to_cpu(sb->secs_per_zone);
	uint32_t main_segs = le32_to_cpu(sb->segment_count_main);
	uint64_t block_count = le64_to_cpu(sb->block_count);

	if (segment_count < F2FS_MIN_SEGMENTS || segment_count > F2FS_MAX_SEGMENT)
		SB_FAIL("segment_count is outside 9..8388608");
	if (section_count < 1 || section_count > main_segs)
		SB_FAIL("section_count is 0 or above segment_count_main");
	if (segs_per_sec < 1 || segs_per_sec > segment_count)
		SB_FAIL("segs_per_sec is 0 or above segment_count");
	if ((uint64_t)section_count * segs_per_sec != main_segs)
		SB_FAIL("segment_count_main is not section_count * segs_per_sec");
	if (segment_count / segs_per_sec < section_count)
		SB_FAIL("section_count exceeds segment_count / segs_per_sec");
	if (segment_count > (block_count >> 9))
		SB_FAIL("segment_count exceeds block_count / 512");
	if (secs_per_zone < 1 || secs_per_zone > section_count)
		SB_FAIL("secs_per_zone is 0 or above section_count");
	return 0;
}

static int check_sb_devices(const struct f2fs_super_block *sb, const char **why)
{
	uint64_t total = 0;
	int i;

	if (!sb->devs[0].path[0])
		return 0;
	for (i = 0; i < MAX_DEVICES && sb->devs[i].path[0]; i++)
		total += le32_to_cpu(sb->devs[i].total_segments);
	if (total != le32_to_cpu(sb->segment_count))
		SB_FAIL("device segment counts do not add up to segment_count");
	return 0;
}

static int check_sb_misc(const struct f2fs_super_block *sb, const char **why)
{
	uint32_t ext = le32_to_cpu(sb->extension_count);

	if (ext > F2FS_MAX_EXTENSION || sb->hot_ext_count > F2FS_MAX_EXTENSION ||
	    ext + sb->hot_ext_count > F2FS_MAX_EXTENSION)
		SB_FAIL("extension_count + hot_ext_count exceeds 64");
	if (le32_to_cpu(sb->cp_payload) > F2FS_MAX_CP_PAYLOAD)
		SB_FAIL("cp_payload exceeds 503");
	if (le32_to_cpu(sb->node_ino) != F2FS_NODE_INO ||
	    le32_to_cpu(sb->meta_ino) != F2FS_META_INO ||
	    le32_to_cpu(sb->root_ino) != F2FS_ROOT_INO)
		SB_FAIL("node_ino/meta_ino/root_ino are not 1/2/3");
	return 0;
}

static int check_sb_boundaries(const struct f2fs_super_block *sb, const char **why)
{
	uint32_t segment0 = le32_to_cpu(sb->segment0_blkaddr);
	uint32_t cp = le32_to_cpu(sb->cp_blkaddr);
	uint32_t sit = le32_to_cpu(sb->sit_blkaddr);
	uint32_t nat = le32_to_cpu(sb->nat_blkaddr);
	uint32_t ssa = le32_to_cpu(sb->ssa_blkaddr);
	uint32_t main_blk = le32_to_cpu(sb->main_blkaddr);
	uint64_t main_end, seg_end;

	if (segment0 != cp)
		SB_FAIL("segment0_blkaddr differs from cp_blkaddr");
	if ((uint32_t)(cp + (le32_to_cpu(sb->segment_count_ckpt) << 9)) != sit)
		SB_FAIL("SIT area does not follow the CP area");
	if ((uint32_t)(sit + (le32_to_cpu(sb->segment_count_sit) << 9)) != nat)
		SB_FAIL("NAT area does not follow the SIT area");
	if ((uint32_t)(nat + (le32_to_cpu(sb->segment_count_nat) << 9)) != ssa)
		SB_FAIL("SSA area does not follow the NAT area");
	if ((uint32_t)(ssa + (le32_to_cpu(sb->segment_count_ssa) << 9)) != main_blk)
		SB_FAIL("main area does not follow the SSA area");
	main_end = (uint64_t)main_blk + ((uint64_t)le32_to_cpu(sb->segment_count_main) << 9);
	seg_end = (uint64_t)segment0 + ((uint64_t)le32_to_cpu(sb->segment_count) << 9);
	/* The kernel accepts main_end < seg_end and shrinks segment_count
	 * itself; f2fs_sb_segment_count_excess() reports that case. */
	if (main_end > seg_end)
		SB_FAIL("main area ends past segment_count");
	return 0;
}

int f2fs_sb_validate(const struct f2fs_super_block *sb, uint64_t dev_blocks,
		     const char **why)
{
	static const char *unused;
	int err;

	if (!why)
		why = &unused;
	*why = NULL;
	if (le32_to_cpu(sb->magic) != F2FS_SUPER_MAGIC)
		SB_FAIL("bad magic");
	if (le32_to_cpu(sb->feature) & F2FS_FEATURE_SB_CHKSUM) {
		if (le32_to_cpu(sb->checksum_offset) != SB_CHKSUM_OFFSET)
			SB_FAIL("checksum_offset is not 3068");
		if (le32_to_cpu(sb->crc) != f2fs_sb_checksum(sb)) {
			*why = "superblock checksum mismatch";
			return -EFSBADCRC;
		}
	}
	if ((err = check_sb_units(sb, why)) ||
	    (err = check_sb_counts(sb, why)) ||
	    (err = check_sb_devices(sb, why)) ||
	    (err = check_sb_misc(sb, why)) ||
	    (err = check_sb_boundaries(sb, why)))
		return err;
	/* The kernel compares no size of a single device with the superblock:
	 * it mounts a truncated volume and fails only the reads past the end.
	 * A device that ends inside the metadata areas (which the kernel reads
	 * at mount) is refused; a shorter main area is f2fs_sb_short_blocks()'s
	 * business.  On a multi-device volume block_count covers every device. */
	if (dev_blocks && !sb->devs[0].path[0] && le32_to_cpu(sb->main_blkaddr) > dev_blocks)
		SB_FAIL("the device ends before the main area");
	return 0;
}

uint64_t f2fs_sb_main_end(const struct f2fs_super_block *sb)
{
	return (uint64_t)le32_to_cpu(sb->main_blkaddr) +
	       ((uint64_t)le32_to_cpu(sb->segment_count_main) << 9);
}

uint64_t f2fs_sb_short_blocks(const struct f2fs_super_block *sb, uint64_t dev_blocks)
{
	uint64_t end = f2fs_sb_main_end(sb);

	if (sb->devs[0].path[0] || !dev_blocks || dev_blocks >= end)
		return 0;
	return end - dev_blocks;
}

uint32_t f2fs_sb_segment_count_excess(const struct f2fs_super_block *sb)
{
	uint64_t main_end = (uint64_t)le32_to_cpu(sb->main_blkaddr) +
			    ((uint64_t)le32_to_cpu(sb->segment_count_main) << 9);
	uint64_t seg_end = (uint64_t)le32_to_cpu(sb->segment0_blkaddr) +
			   ((uint64_t)le32_to_cpu(sb->segment_count) << 9);

	return seg_end > main_end ? (uint32_t)((seg_end - main_end) >> 9) : 0;
}

int f2fs_sb_read_copy(struct f2fs_dev *dev, int index, struct f2fs_super_block *sb)
{
	uint8_t block[F2FS_BLKSIZE];
	int err;

	if (index < 0 || index > 1)
		return -EINVAL;
	err = f2fs_dev_read(dev, (uint64_t)index, 1, block);
	if (err)
		return err;
	memcpy(sb, block + F2FS_SUPER_OFFSET, sizeof(*sb));
	return 0;
}

void f2fs_sb_update_checksum(struct f2fs_super_block *sb)
{
	if (le32_to_cpu(sb->feature) & F2FS_FEATURE_SB_CHKSUM) {
		sb->checksum_offset = cpu_to_le32(SB_CHKSUM_OFFSET);
		sb->crc = cpu_to_le32(f2fs_sb_checksum(sb));
	}
}

int f2fs_sb_write_copy(struct f2fs_dev *dev, int index, const struct f2fs_super_block *sb)
{
	uint8_t block[F2FS_BLKSIZE];

	if (index < 0 || index > 1)
		return -EINVAL;
	memset(block, 0, sizeof(block));
	memcpy(block + F2FS_SUPER_OFFSET, sb, sizeof(*sb));
	return f2fs_dev_write(dev, (uint64_t)index, 1, block);
}

/* ---- rebuilding one superblock from two damaged copies ------------- */

struct sb_field {
	const char *name;
	uint16_t off;
	uint8_t size;
};

#define SB_FIELD(f) { #f, (uint16_t)offsetof(struct f2fs_super_block, f), \
		      (uint8_t)sizeof(((struct f2fs_super_block *)0)->f) }
#define N_FIELDS(a) (sizeof(a) / sizeof((a)[0]))

static const struct sb_field derivable[] = {
	SB_FIELD(log_sectorsize), SB_FIELD(log_sectors_per_block),
	SB_FIELD(log_blocksize), SB_FIELD(log_blocks_per_seg),
	SB_FIELD(checksum_offset), SB_FIELD(block_count),
	SB_FIELD(section_count), SB_FIELD(segment_count),
	SB_FIELD(segment_count_ckpt), SB_FIELD(segment_count_sit),
	SB_FIELD(segment_count_nat), SB_FIELD(segment_count_ssa),
	SB_FIELD(segment_count_main), SB_FIELD(root_ino),
	SB_FIELD(node_ino), SB_FIELD(meta_ino), SB_FIELD(cp_payload),
};

/* Fields the copies may disagree on without being derived: the crc is
 * recomputed, f2fs-tools' fsck stamps version into the one copy it read,
 * and a repair clears the kernel's error records. */
static const struct sb_field may_differ[] = {
	SB_FIELD(crc), SB_FIELD(version), SB_FIELD(s_errors), SB_FIELD(s_stop_reason),
};

unsigned int f2fs_sb_derivable_count(void)
{
	return (unsigned int)N_FIELDS(derivable);
}

const char *f2fs_sb_derivable_name(unsigned int i)
{
	return i < N_FIELDS(derivable) ? derivable[i].name : "?";
}

uint64_t f2fs_sb_derivable_get(const struct f2fs_super_block *sb, unsigned int i)
{
	const uint8_t *p;

	if (i >= N_FIELDS(derivable))
		return 0;
	p = (const uint8_t *)sb + derivable[i].off;
	return derivable[i].size == 8 ? get_le64(p) : get_le32(p);
}

static void blank_fields(struct f2fs_super_block *sb, const struct sb_field *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		memset((uint8_t *)sb + f[i].off, 0, f[i].size);
}

/* Whether two copies agree on everything a rebuild cannot derive. */
static bool copies_agree(const struct f2fs_super_block *a, const struct f2fs_super_block *b)
{
	struct f2fs_super_block x = *a, y = *b;

	blank_fields(&x, derivable, N_FIELDS(derivable));
	blank_fields(&y, derivable, N_FIELDS(derivable));
	blank_fields(&x, may_differ, N_FIELDS(may_differ));
	blank_fields(&y, may_differ, N_FIELDS(may_differ));
	return memcmp(&x, &y, sizeof(x)) == 0;
}

struct sb_rebuild {
	const struct f2fs_super_block *copy[2];	/* the copies with the magic */
	unsigned int n;
	struct f2fs_super_block *sb;		/* being rebuilt */
	uint64_t dev_blocks;
};

#define RB_FAIL(msg) do { *why = (msg); return -EFSCORRUPTED; } while (0)

static bool sector_size_ok(uint32_t log_sectorsize)
{
	return log_sectorsize >= F2FS_MIN_LOG_SECTOR_SIZE &&
	       log_sectorsize <= F2FS_MAX_LOG_SECTOR_SIZE;
}

static void set_sector_sizes(struct f2fs_super_block *sb, uint32_t log_sectorsize)
{
	sb->log_sectorsize = cpu_to_le32(log_sectorsize);
	sb->log_sectors_per_block = cpu_to_le32(F2FS_BLKSIZE_BITS - log_sectorsize);
}

/* A consistent pair from either copy; else the half that is in range. */
static void derive_sector_sizes(struct sb_rebuild *rb)
{
	unsigned int i;

	for (i = 0; i < rb->n; i++) {
		uint32_t lss = le32_to_cpu(rb->copy[i]->log_sectorsize);

		if (sector_size_ok(lss) &&
		    lss + le32_to_cpu(rb->copy[i]->log_sectors_per_block) == F2FS_BLKSIZE_BITS) {
			set_sector_sizes(rb->sb, lss);
			return;
		}
	}
	for (i = 0; i < rb->n; i++)
		if (sector_size_ok(le32_to_cpu(rb->copy[i]->log_sectorsize))) {
			set_sector_sizes(rb->sb, le32_to_cpu(rb->copy[i]->log_sectorsize));
			return;
		}
	for (i = 0; i < rb->n; i++) {
		uint32_t lspb = le32_to_cpu(rb->copy[i]->log_sectors_per_block);

		if (lspb <= F2FS_BLKSIZE_BITS - F2FS_MIN_LOG_SECTOR_SIZE) {
			set_sector_sizes(rb->sb, F2FS_BLKSIZE_BITS - lspb);
			return;
		}
	}
	set_sector_sizes(rb->sb, F2FS_MIN_LOG_SECTOR_SIZE);
}

static void derive_fixed_fields(struct sb_rebuild *rb)
{
	struct f2fs_super_block *sb = rb->sb;

	sb->log_blocksize = cpu_to_le32(F2FS_BLKSIZE_BITS);
	sb->log_blocks_per_seg = cpu_to_le32(F2FS_LOG_BLOCKS_PER_SEG);
	sb->node_ino = cpu_to_le32(F2FS_NODE_INO);
	sb->meta_ino = cpu_to_le32(F2FS_META_INO);
	sb->root_ino = cpu_to_le32(F2FS_ROOT_INO);
	if (le32_to_cpu(sb->feature) & F2FS_FEATURE_SB_CHKSUM)
		sb->checksum_offset = cpu_to_le32(SB_CHKSUM_OFFSET);
	derive_sector_sizes(rb);
}

/* Segments between two area addresses, or 0 when they are not in order
 * or not a whole number of segments apart. */
static uint32_t segments_between(uint32_t from, uint32_t to)
{
	if (to <= from || (to - from) % BLKS_PER_SEG)
		return 0;
	return (to - from) / BLKS_PER_SEG;
}

/* The sizes of the CP, SIT, NAT and SSA areas from their addresses. */
static int derive_area_counts(struct sb_rebuild *rb, const char **why)
{
	struct f2fs_super_block *sb = rb->sb;
	uint32_t cp = le32_to_cpu(sb->cp_blkaddr);
	uint32_t ckpt = segments_between(cp, le32_to_cpu(sb->sit_blkaddr));
	uint32_t sit = segments_between(le32_to_cpu(sb->sit_blkaddr), le32_to_cpu(sb->nat_blkaddr));
	uint32_t nat = segments_between(le32_to_cpu(sb->nat_blkaddr), le32_to_cpu(sb->ssa_blkaddr));
	uint32_t ssa = segments_between(le32_to_cpu(sb->ssa_blkaddr), le32_to_cpu(sb->main_blkaddr));

	if (le32_to_cpu(sb->segment0_blkaddr) != cp)
		RB_FAIL("segment0_blkaddr and cp_blkaddr differ");
	if (!ckpt || !sit || !nat || !ssa)
		RB_FAIL("the area addresses are not in order a whole number of segments apart");
	if (ckpt != F2FS_NUMBER_OF_CHECKPOINT_PACK)
		RB_FAIL("the CP area is not two segments");
	if (sit % 2 || nat % 2)
		RB_FAIL("the SIT or NAT area is not two copies of whole segments");
	sb->segment_count_ckpt = cpu_to_le32(ckpt);
	sb->segment_count_sit = cpu_to_le32(sit);
	sb->segment_count_nat = cpu_to_le32(nat);
	sb->segment_count_ssa = cpu_to_le32(ssa);
	return 0;
}

struct main_vote {
	uint64_t segs;
	unsigned int votes;
};

/* Whether a main area of segs segments fits what the other areas hold:
 * whole sections, a summary block and a SIT entry per segment, the
 * device. */
static bool main_size_plausible(const struct sb_rebuild *rb, uint64_t segs, uint64_t meta)
{
	const struct f2fs_super_block *sb = rb->sb;
	uint64_t spc = le32_to_cpu(sb->segs_per_sec);
	uint64_t sit_blocks = (uint64_t)le32_to_cpu(sb->segment_count_sit) / 2 * BLKS_PER_SEG;
	uint64_t end = le32_to_cpu(sb->segment0_blkaddr) + (meta + segs) * BLKS_PER_SEG;

	return segs && segs % spc == 0 && meta + segs <= F2FS_MAX_SEGMENT &&
	       segs <= (uint64_t)le32_to_cpu(sb->segment_count_ssa) * BLKS_PER_SEG &&
	       (segs + SIT_ENTRY_PER_BLOCK - 1) / SIT_ENTRY_PER_BLOCK <= sit_blocks &&
	       (!rb->dev_blocks || end <= rb->dev_blocks);
}

static void vote_main(struct main_vote *v, unsigned int *nv, uint64_t segs)
{
	for (unsigned int i = 0; i < *nv; i++)
		if (v[i].segs == segs) {
			v[i].votes++;
			return;
		}
	v[*nv].segs = segs;
	v[*nv].votes = 1;
	(*nv)++;
}

/* segment_count_main, section_count * segs_per_sec and segment_count less
 * the metadata segments say the same thing three ways in each copy: the
 * size at least two of them name wins, and all three follow from it. */
static int derive_main_counts(struct sb_rebuild *rb, const char **why)
{
	struct f2fs_super_block *sb = rb->sb;
	uint32_t spc = le32_to_cpu(sb->segs_per_sec);
	uint64_t meta = (le32_to_cpu(sb->main_blkaddr) - le32_to_cpu(sb->segment0_blkaddr)) /
			BLKS_PER_SEG;
	struct main_vote v[6];
	unsigned int nv = 0, best = 0;
	bool tie = false;

	if (!spc)
		RB_FAIL("segs_per_sec is 0");
	for (unsigned int i = 0; i < rb->n; i++) {
		const struct f2fs_super_block *c = rb->copy[i];
		uint64_t by_count = le32_to_cpu(c->segment_count);

		vote_main(v, &nv, le32_to_cpu(c->segment_count_main));
		vote_main(v, &nv, (uint64_t)le32_to_cpu(c->section_count) * spc);
		vote_main(v, &nv, by_count > meta ? by_count - meta : 0);
	}
	for (unsigned int i = 0; i < nv; i++) {
		if (!main_size_plausible(rb, v[i].segs, meta))
			continue;
		if (v[i].votes > best) {
			best = v[i].votes;
			sb->segment_count_main = cpu_to_le32((uint32_t)v[i].segs);
			tie = false;
		} else if (v[i].votes == best) {
			tie = true;
		}
	}
	if (best < 2 || tie)
		RB_FAIL("segment_count_main, section_count and segment_count do not agree on the main area");
	sb->section_count = cpu_to_le32(le32_to_cpu(sb->segment_count_main) / spc);
	sb->segment_count = cpu_to_le32((uint32_t)meta + le32_to_cpu(sb->segment_count_main));
	return 0;
}

/* A block_count from a copy when it covers the layout and fits the
 * device, else the device size. */
static int derive_block_count(struct sb_rebuild *rb, const char **why)
{
	struct f2fs_super_block *sb = rb->sb;
	uint64_t seg_end = (uint64_t)le32_to_cpu(sb->segment0_blkaddr) +
			   (uint64_t)le32_to_cpu(sb->segment_count) * BLKS_PER_SEG;

	for (unsigned int i = 0; i < rb->n; i++) {
		uint64_t bc = le64_to_cpu(rb->copy[i]->block_count);

		if (bc >= seg_end && (bc >> 9) >= le32_to_cpu(sb->segment_count) &&
		    (!rb->dev_blocks || bc <= rb->dev_blocks)) {
			sb->block_count = cpu_to_le64(bc);
			return 0;
		}
	}
	if (rb->dev_blocks < seg_end)
		RB_FAIL("the device is smaller than the layout");
	sb->block_count = cpu_to_le64(rb->dev_blocks);
	return 0;
}

static int derive_cp_payload(struct sb_rebuild *rb, uint32_t implied, const char **why)
{
	if (implied != F2FS_CP_PAYLOAD_UNKNOWN) {
		if (implied > F2FS_MAX_CP_PAYLOAD)
			RB_FAIL("the checkpoint implies a cp_payload above 503");
		rb->sb->cp_payload = cpu_to_le32(implied);
		return 0;
	}
	for (unsigned int i = 0; i < rb->n; i++)
		if (le32_to_cpu(rb->copy[i]->cp_payload) <= F2FS_MAX_CP_PAYLOAD) {
			rb->sb->cp_payload = rb->copy[i]->cp_payload;
			return 0;
		}
	RB_FAIL("cp_payload is out of range and no checkpoint pack implies it");
}

int f2fs_sb_rebuild(const struct f2fs_super_block *const copies[2], uint64_t dev_blocks,
		    uint32_t cp_payload, struct f2fs_super_block *out, const char **why)
{
	struct sb_rebuild rb = { .sb = out, .dev_blocks = dev_blocks };
	int err;

	for (int i = 0; i < 2; i++)
		if (copies[i] && le32_to_cpu(copies[i]->magic) == F2FS_SUPER_MAGIC)
			rb.copy[rb.n++] = copies[i];
	if (!rb.n)
		RB_FAIL("no copy carries the magic");
	if (rb.n == 2 && !copies_agree(rb.copy[0], rb.copy[1]))
		RB_FAIL("the copies differ in a field that cannot be derived");
	if (rb.copy[0]->devs[0].path[0])
		RB_FAIL("a multi-device volume is not rebuilt");
	*out = *rb.copy[0];
	derive_fixed_fields(&rb);
	if ((err = derive_area_counts(&rb, why)) ||
	    (err = derive_main_counts(&rb, why)) ||
	    (err = derive_block_count(&rb, why)) ||
	    (err = derive_cp_payload(&rb, cp_payload, why)))
		return err;
	f2fs_sb_update_checksum(out);
	err = f2fs_sb_validate(out, dev_blocks, why);
	return err ? -EFSCORRUPTED : 0;
}
