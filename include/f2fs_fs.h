/*
 * f2fs_fs.h - the F2FS on-disk format: constants, structures and
 * little-endian accessors.
 *
 * Field and constant names follow the Linux kernel (include/linux/f2fs_fs.h,
 * fs/f2fs/) so this header can be read side by side with it.  Every
 * structure has its size pinned with static_assert.  All multi-byte fields
 * are little-endian on disk; use the le*_to_cpu()/cpu_to_le*() helpers.
 * Only 4 KiB blocks are supported (the block size of x86-64 kernels).
 */
#ifndef F2FS_FS_H
#define F2FS_FS_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- endianness ------------------------------------------------------ */

/* <sys/stat.h> and <linux/fs.h> pull in <linux/types.h>, whose __le64 is
 * unsigned long long; take the kernel's typedefs so both can be included. */
#ifdef __linux__
#include <linux/types.h>
#else
typedef uint16_t __le16;
typedef uint32_t __le32;
typedef uint64_t __le64;
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static inline uint16_t le16_to_cpu(__le16 v) { return v; }
static inline uint32_t le32_to_cpu(__le32 v) { return v; }
static inline uint64_t le64_to_cpu(__le64 v) { return v; }
#else
static inline uint16_t le16_to_cpu(__le16 v) { return __builtin_bswap16(v); }
static inline uint32_t le32_to_cpu(__le32 v) { return __builtin_bswap32(v); }
static inline uint64_t le64_to_cpu(__le64 v) { return __builtin_bswap64(v); }
#endif
#define cpu_to_le16(v) ((__le16)le16_to_cpu((__le16)(v)))
#define cpu_to_le32(v) ((__le32)le32_to_cpu((__le32)(v)))
#define cpu_to_le64(v) ((__le64)le64_to_cpu((__le64)(v)))

/* Read/write little-endian integers at an arbitrary (unaligned) byte address. */
static inline uint16_t get_le16(const void *p)
{
	const uint8_t *b = p;
	return (uint16_t)(b[0] | (b[1] << 8));
}
static inline uint32_t get_le32(const void *p)
{
	const uint8_t *b = p;
	return (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) |
	       ((uint32_t)b[3] << 24);
}
static inline uint64_t get_le64(const void *p)
{
	const uint8_t *b = p;
	return (uint64_t)get_le32(b) | ((uint64_t)get_le32(b + 4) << 32);
}
static inline void put_le16(void *p, uint16_t v)
{
	uint8_t *b = p;
	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
}
static inline void put_le32(void *p, uint32_t v)
{
	uint8_t *b = p;
	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
	b[2] = (uint8_t)(v >> 16);
	b[3] = (uint8_t)(v >> 24);
}
static inline void put_le64(void *p, uint64_t v)
{
	put_le32(p, (uint32_t)v);
	put_le32((uint8_t *)p + 4, (uint32_t)(v >> 32));
}

/* ---- basic geometry -------------------------------------------------- */

#define F2FS_SUPER_MAGIC	0xF2F52010u
#define F2FS_SUPER_OFFSET	1024		/* byte offset of the sb inside blocks 0 and 1 */
#define F2FS_BLKSIZE		4096
#define F2FS_BLKSIZE_BITS	12
#define F2FS_MIN_LOG_SECTOR_SIZE 9
#define F2FS_MAX_LOG_SECTOR_SIZE 12
#define F2FS_LOG_BLOCKS_PER_SEG	9
#define DEFAULT_BLOCKS_PER_SEGMENT 512
#define BLKS_PER_SEG		512
#define F2FS_SEG_SIZE		(BLKS_PER_SEG * F2FS_BLKSIZE)	/* 2 MiB */
#define F2FS_MIN_SEGMENTS	9
#define F2FS_MAX_SEGMENT	(16 * 1024 * 1024 / 2)
#define F2FS_MAX_BLOCKS		0xFFFFFFFFull	/* 32-bit block addresses: 16 TiB */
#define F2FS_NUMBER_OF_CHECKPOINT_PACK 2
#define F2FS_MIN_META_SEGMENTS	8
#define F2FS_MAX_EXTENSION	64
#define F2FS_EXTENSION_LEN	8
#define MAX_VOLUME_NAME		512
#define MAX_DEVICES		8
#define MAX_PATH_LEN		64
#define F2FS_MAX_QUOTAS		3
#define VERSION_LEN		256
#define F2FS_MAX_CP_PAYLOAD	503	/* 512 - 2 (cp blocks) - 6 (summaries) - 1 */

/* Reserved inode / node numbers. */
#define F2FS_NODE_INO		1
#define F2FS_META_INO		2
#define F2FS_ROOT_INO		3
#define F2FS_RESERVED_NODE_NUM	3

/* Special block addresses. */
#define NULL_ADDR		0x00000000u
#define NEW_ADDR		0xFFFFFFFFu
#define COMPRESS_ADDR		0xFFFFFFFEu

/* ---- superblock ------------------------------------------------------ */

#define F2FS_FEATURE_ENCRYPT			0x00000001
#define F2FS_FEATURE_BLKZONED			0x00000002
#define F2FS_FEATURE_ATOMIC_WRITE		0x00000004
#define F2FS_FEATURE_EXTRA_ATTR			0x00000008
#define F2FS_FEATURE_PRJQUOTA			0x00000010
#define F2FS_FEATURE_INODE_CHKSUM		0x00000020
#define F2FS_FEATURE_FLEXIBLE_INLINE_XATTR	0x00000040
#define F2FS_FEATURE_QUOTA_INO			0x00000080
#define F2FS_FEATURE_INODE_CRTIME		0x00000100
#define F2FS_FEATURE_LOST_FOUND			0x00000200
#define F2FS_FEATURE_VERITY			0x00000400
#define F2FS_FEATURE_SB_CHKSUM			0x00000800
#define F2FS_FEATURE_CASEFOLD			0x00001000
#define F2FS_FEATURE_COMPRESSION		0x00002000
#define F2FS_FEATURE_RO				0x00004000
#define F2FS_FEATURE_DEVICE_ALIAS		0x00008000
#define F2FS_FEATURE_PACKED_SSA			0x00010000

/* Features that are meaningless without EXTRA_ATTR. */
#define F2FS_FEATURES_NEED_EXTRA_ATTR \
	(F2FS_FEATURE_PRJQUOTA | F2FS_FEATURE_INODE_CHKSUM | \
	 F2FS_FEATURE_FLEXIBLE_INLINE_XATTR | F2FS_FEATURE_INODE_CRTIME | \
	 F2FS_FEATURE_COMPRESSION)

#define F2FS_ENC_UTF8_12_1		1
#define F2FS_ENC_STRICT_MODE_FL		0x0001
#define F2FS_ENC_NO_COMPAT_FALLBACK_FL	0x0002

#define SB_CHKSUM_OFFSET	3068

struct f2fs_device {
	uint8_t path[MAX_PATH_LEN];
	__le32 total_segments;
} __attribute__((packed));
static_assert(sizeof(struct f2fs_device) == 68, "f2fs_device size");

/* s_stop_reason[] slot of a shutdown asked for (F2FS_IOC_SHUTDOWN), the
 * kernel's STOP_CP_REASON_SHUTDOWN; the other slots count failures. */
#define STOP_CP_REASON_SHUTDOWN	0

struct f2fs_super_block {
	__le32 magic;
	__le16 major_ver;
	__le16 minor_ver;
	__le32 log_sectorsize;
	__le32 log_sectors_per_block;
	__le32 log_blocksize;
	__le32 log_blocks_per_seg;
	__le32 segs_per_sec;
	__le32 secs_per_zone;
	__le32 checksum_offset;
	__le64 block_count;
	__le32 section_count;
	__le32 segment_count;
	__le32 segment_count_ckpt;
	__le32 segment_count_sit;
	__le32 segment_count_nat;
	__le32 segment_count_ssa;
	__le32 segment_count_main;
	__le32 segment0_blkaddr;
	__le32 cp_blkaddr;
	__le32 sit_blkaddr;
	__le32 nat_blkaddr;
	__le32 ssa_blkaddr;
	__le32 main_blkaddr;
	__le32 root_ino;
	__le32 node_ino;
	__le32 meta_ino;
	uint8_t uuid[16];
	__le16 volume_name[MAX_VOLUME_NAME];
	__le32 extension_count;
	uint8_t extension_list[F2FS_MAX_EXTENSION][F2FS_EXTENSION_LEN];
	__le32 cp_payload;
	uint8_t version[VERSION_LEN];
	uint8_t init_version[VERSION_LEN];
	__le32 feature;
	uint8_t encryption_level;
	uint8_t encrypt_pw_salt[16];
	struct f2fs_device devs[MAX_DEVICES];
	__le32 qf_ino[F2FS_MAX_QUOTAS];
	uint8_t hot_ext_count;
	__le16 s_encoding;
	__le16 s_encoding_flags;
	uint8_t s_stop_reason[32];	/* a counter per STOP_CP_REASON_* */
	uint8_t s_errors[16];
	uint8_t reserved[258];
	__le32 crc;
} __attribute__((packed));
static_assert(sizeof(struct f2fs_super_block) == 3072, "f2fs_super_block size");
static_assert(offsetof(struct f2fs_super_block, cp_payload) == 1664, "cp_payload offset");
static_assert(offsetof(struct f2fs_super_block, feature) == 2180, "feature offset");
static_assert(offsetof(struct f2fs_super_block, devs) == 2201, "devs offset");
static_assert(offsetof(struct f2fs_super_block, qf_ino) == 2745, "qf_ino offset");
static_assert(offsetof(struct f2fs_super_block, s_encoding) == 2758, "s_encoding offset");
static_assert(offsetof(struct f2fs_super_block, crc) == SB_CHKSUM_OFFSET, "crc offset");

/* ---- checkpoint ------------------------------------------------------ */

#define CP_UMOUNT_FLAG			0x00000001
#define CP_ORPHAN_PRESENT_FLAG		0x00000002
#define CP_COMPACT_SUM_FLAG		0x00000004
#define CP_ERROR_FLAG			0x00000008
#define CP_FSCK_FLAG			0x00000010
#define CP_FASTBOOT_FLAG		0x00000020
#define CP_CRC_RECOVERY_FLAG		0x00000040
#define CP_NAT_BITS_FLAG		0x00000080
#define CP_TRIMMED_FLAG			0x00000100
#define CP_NOCRC_RECOVERY_FLAG		0x00000200
#define CP_LARGE_NAT_BITMAP_FLAG	0x00000400
#define CP_QUOTA_NEED_FSCK_FLAG		0x00000800
#define CP_DISABLED_FLAG		0x00001000
#define CP_DISABLED_QUICK_FLAG		0x00002000
#define CP_RESIZEFS_FLAG		0x00004000

#define MAX_ACTIVE_LOGS		16
#define MAX_ACTIVE_NODE_LOGS	8
#define MAX_ACTIVE_DATA_LOGS	8
#define NR_CURSEG_DATA_TYPE	3
#define NR_CURSEG_NODE_TYPE	3
#define NR_CURSEG_TYPE		6

/* Log (current segment) types, as used by SIT entry types and alloc_type[]. */
enum {
	CURSEG_HOT_DATA = 0,
	CURSEG_WARM_DATA,
	CURSEG_COLD_DATA,
	CURSEG_HOT_NODE,
	CURSEG_WARM_NODE,
	CURSEG_COLD_NODE,
	NO_CHECK_TYPE,
};

#define LFS 0
#define SSR 1

#define CP_CHKSUM_OFFSET	4092	/* default place of the cp crc */
#define CP_MIN_CHKSUM_OFFSET	192	/* end of the fixed part; large-nat-bitmap crc */

struct f2fs_checkpoint {
	__le64 checkpoint_ver;
	__le64 user_block_count;
	__le64 valid_block_count;
	__le32 rsvd_segment_count;
	__le32 overprov_segment_count;
	__le32 free_segment_count;
	__le32 cur_node_segno[MAX_ACTIVE_NODE_LOGS];
	__le16 cur_node_blkoff[MAX_ACTIVE_NODE_LOGS];
	__le32 cur_data_segno[MAX_ACTIVE_DATA_LOGS];
	__le16 cur_data_blkoff[MAX_ACTIVE_DATA_LOGS];
	__le32 ckpt_flags;
	__le32 cp_pack_total_block_count;
	__le32 cp_pack_start_sum;
	__le32 valid_node_count;
	__le32 valid_inode_count;
	__le32 next_free_nid;
	__le32 sit_ver_bitmap_bytesize;
	__le32 nat_ver_bitmap_bytesize;
	__le32 checksum_offset;
	__le64 elapsed_time;
	uint8_t alloc_type[MAX_ACTIVE_LOGS];
	uint8_t sit_nat_version_bitmap[F2FS_BLKSIZE - 192];
} __attribute__((packed));
static_assert(sizeof(struct f2fs_checkpoint) == F2FS_BLKSIZE, "f2fs_checkpoint size");
static_assert(offsetof(struct f2fs_checkpoint, ckpt_flags) == 132, "ckpt_flags offset");
static_assert(offsetof(struct f2fs_checkpoint, elapsed_time) == 168, "elapsed_time offset");
static_assert(offsetof(struct f2fs_checkpoint, sit_nat_version_bitmap) == 192, "bitmap offset");

#define F2FS_ORPHANS_PER_BLOCK	1020

struct f2fs_orphan_block {
	__le32 ino[F2FS_ORPHANS_PER_BLOCK];
	__le32 reserved;
	__le16 blk_addr;
	__le16 blk_count;
	__le32 entry_count;
	__le32 check_sum;
} __attribute__((packed));
static_assert(sizeof(struct f2fs_orphan_block) == F2FS_BLKSIZE, "f2fs_orphan_block size");

/* ---- NAT ------------------------------------------------------------- */

struct f2fs_nat_entry {
	uint8_t version;
	__le32 ino;
	__le32 block_addr;
} __attribute__((packed));
static_assert(sizeof(struct f2fs_nat_entry) == 9, "f2fs_nat_entry size");

#define NAT_ENTRY_PER_BLOCK	(F2FS_BLKSIZE / sizeof(struct f2fs_nat_entry))	/* 455 */

struct f2fs_nat_block {
	struct f2fs_nat_entry entries[NAT_ENTRY_PER_BLOCK];
	uint8_t pad;
} __attribute__((packed));
static_assert(sizeof(struct f2fs_nat_block) == F2FS_BLKSIZE, "f2fs_nat_block size");

/* ---- SIT ------------------------------------------------------------- */

#define SIT_VBLOCK_MAP_SIZE	64
#define SIT_VBLOCKS_SHIFT	10
#define SIT_VBLOCKS_MASK	((1 << SIT_VBLOCKS_SHIFT) - 1)

struct f2fs_sit_entry {
	__le16 vblocks;		/* bits 0..9 valid count, 10..15 segment type */
	uint8_t valid_map[SIT_VBLOCK_MAP_SIZE];
	__le64 mtime;
} __attribute__((packed));
static_assert(sizeof(struct f2fs_sit_entry) == 74, "f2fs_sit_entry size");

#define SIT_ENTRY_PER_BLOCK	(F2FS_BLKSIZE / sizeof(struct f2fs_sit_entry))	/* 55 */

struct f2fs_sit_block {
	struct f2fs_sit_entry entries[SIT_ENTRY_PER_BLOCK];
	uint8_t pad[F2FS_BLKSIZE - SIT_ENTRY_PER_BLOCK * sizeof(struct f2fs_sit_entry)];
} __attribute__((packed));
static_assert(sizeof(struct f2fs_sit_block) == F2FS_BLKSIZE, "f2fs_sit_block size");

static inline unsigned int GET_SIT_VBLOCKS(const struct f2fs_sit_entry *e)
{
	return le16_to_cpu(e->vblocks) & SIT_VBLOCKS_MASK;
}
static inline unsigned int GET_SIT_TYPE(const struct f2fs_sit_entry *e)
{
	return le16_to_cpu(e->vblocks) >> SIT_VBLOCKS_SHIFT;
}

/* ---- summaries (SSA and checkpoint pack) ----------------------------- */

#define ENTRIES_IN_SUM		512
#define SUMMARY_SIZE		7
#define SUM_FOOTER_SIZE		5
#define SUM_ENTRY_SIZE		(SUMMARY_SIZE * ENTRIES_IN_SUM)
#define SUM_JOURNAL_SIZE	(F2FS_BLKSIZE - SUM_FOOTER_SIZE - SUM_ENTRY_SIZE)	/* 507 */
#define SUM_TYPE_NODE		1
#define SUM_TYPE_DATA		0

struct f2fs_summary {
	__le32 nid;
	uint8_t version;
	__le16 ofs_in_node;
} __attribute__((packed));
static_assert(sizeof(struct f2fs_summary) == SUMMARY_SIZE, "f2fs_summary size");

struct summary_footer {
	uint8_t entry_type;
	__le32 check_sum;
} __attribute__((packed));
static_assert(sizeof(struct summary_footer) == SUM_FOOTER_SIZE, "summary_footer size");

struct nat_journal_entry {
	__le32 nid;
	struct f2fs_nat_entry ne;
} __attribute__((packed));
static_assert(sizeof(struct nat_journal_entry) == 13, "nat_journal_entry size");

struct sit_journal_entry {
	__le32 segno;
	struct f2fs_sit_entry se;
} __attribute__((packed));
static_assert(sizeof(struct sit_journal_entry) == 78, "sit_journal_entry size");

#define NAT_JOURNAL_ENTRIES	((SUM_JOURNAL_SIZE - 2) / sizeof(struct nat_journal_entry))	/* 38 */
#define NAT_JOURNAL_RESERVED	((SUM_JOURNAL_SIZE - 2) % sizeof(struct nat_journal_entry))
#define SIT_JOURNAL_ENTRIES	((SUM_JOURNAL_SIZE - 2) / sizeof(struct sit_journal_entry))	/* 6 */
#define SIT_JOURNAL_RESERVED	((SUM_JOURNAL_SIZE - 2) % sizeof(struct sit_journal_entry))
#define EXTRA_INFO_RESERVED	(SUM_JOURNAL_SIZE - 2 - 8)

struct nat_journal {
	struct nat_journal_entry entries[NAT_JOURNAL_ENTRIES];
	uint8_t reserved[NAT_JOURNAL_RESERVED];
} __attribute__((packed));

struct sit_journal {
	struct sit_journal_entry entries[SIT_JOURNAL_ENTRIES];
	uint8_t reserved[SIT_JOURNAL_RESERVED];
} __attribute__((packed));

struct f2fs_extra_info {
	__le64 kbytes_written;
	uint8_t reserved[EXTRA_INFO_RESERVED];
} __attribute__((packed));

struct f2fs_journal {
	union {
		__le16 n_nats;
		__le16 n_sits;
	};
	union {
		struct nat_journal nat_j;
		struct sit_journal sit_j;
		struct f2fs_extra_info info;
	};
} __attribute__((packed));
static_assert(sizeof(struct f2fs_journal) == SUM_JOURNAL_SIZE, "f2fs_journal size");

struct f2fs_summary_block {
	struct f2fs_summary entries[ENTRIES_IN_SUM];
	struct f2fs_journal journal;
	struct summary_footer footer;
} __attribute__((packed));
static_assert(sizeof(struct f2fs_summary_block) == F2FS_BLKSIZE, "f2fs_summary_block size");
static_assert(offsetof(struct f2fs_summary_block, journal) == 3584, "journal offset");

/* ---- node blocks ----------------------------------------------------- */

#define DEF_ADDRS_PER_INODE	923
#define DEF_NIDS_PER_INODE	5
#define ADDRS_PER_BLOCK		1018
#define NIDS_PER_BLOCK		1018
#define DEFAULT_INLINE_XATTR_ADDRS 50
#define MAX_INLINE_XATTR_SIZE	903	/* in words, with flexible_inline_xattr */
#define F2FS_NAME_LEN		255
#define F2FS_INLINE_XATTR_ADDRS_MIN 6

#define NODE_DIR1_BLOCK		(DEF_ADDRS_PER_INODE + 1)
#define NODE_DIR2_BLOCK		(DEF_ADDRS_PER_INODE + 2)
#define NODE_IND1_BLOCK		(DEF_ADDRS_PER_INODE + 3)
#define NODE_IND2_BLOCK		(DEF_ADDRS_PER_INODE + 4)
#define NODE_DIND_BLOCK		(DEF_ADDRS_PER_INODE + 5)

/* i_inline flags */
#define F2FS_INLINE_XATTR	0x01
#define F2FS_INLINE_DATA	0x02
#define F2FS_INLINE_DENTRY	0x04
#define F2FS_DATA_EXIST		0x08
#define F2FS_INLINE_DOTS	0x10
#define F2FS_EXTRA_ATTR		0x20
#define F2FS_PIN_FILE		0x40
#define F2FS_COMPRESS_RELEASED	0x80

/* i_advise flags */
#define FADVISE_COLD_BIT	0x01
#define FADVISE_LOST_PINO_BIT	0x02
#define FADVISE_ENCRYPT_BIT	0x04
#define FADVISE_ENC_NAME_BIT	0x08
#define FADVISE_KEEP_SIZE_BIT	0x10
#define FADVISE_HOT_BIT		0x20
#define FADVISE_VERITY_BIT	0x40
#define FADVISE_TRUNC_BIT	0x80

/* i_flags */
#define F2FS_COMPR_FL		0x00000004
#define F2FS_SYNC_FL		0x00000008
#define F2FS_IMMUTABLE_FL	0x00000010
#define F2FS_APPEND_FL		0x00000020
#define F2FS_NODUMP_FL		0x00000040
#define F2FS_NOATIME_FL		0x00000080
#define F2FS_NOCOMP_FL		0x00000400
#define F2FS_INDEX_FL		0x00001000
#define F2FS_DIRSYNC_FL		0x00010000
#define F2FS_PROJINHERIT_FL	0x20000000
#define F2FS_CASEFOLD_FL	0x40000000
#define F2FS_DEVICE_ALIAS_FL	0x80000000

struct f2fs_extent {
	__le32 fofs;
	__le32 blk;
	__le32 len;
} __attribute__((packed));

struct f2fs_inode {
	__le16 i_mode;
	uint8_t i_advise;
	uint8_t i_inline;
	__le32 i_uid;
	__le32 i_gid;
	__le32 i_links;
	__le64 i_size;
	__le64 i_blocks;
	__le64 i_atime;
	__le64 i_ctime;
	__le64 i_mtime;
	__le32 i_atime_nsec;
	__le32 i_ctime_nsec;
	__le32 i_mtime_nsec;
	__le32 i_generation;
	union {
		__le32 i_current_depth;
		__le16 i_gc_failures;
	};
	__le32 i_xattr_nid;
	__le32 i_flags;
	__le32 i_pino;
	__le32 i_namelen;
	uint8_t i_name[F2FS_NAME_LEN];
	uint8_t i_dir_level;
	struct f2fs_extent i_ext;
	union {
		struct {
			__le16 i_extra_isize;
			__le16 i_inline_xattr_size;
			__le32 i_projid;
			__le32 i_inode_checksum;
			__le64 i_crtime;
			__le32 i_crtime_nsec;
			__le64 i_compr_blocks;
			uint8_t i_compress_algorithm;
			uint8_t i_log_cluster_size;
			__le16 i_compress_flag;
			__le32 i_extra_end[0];
		} __attribute__((packed));
		__le32 i_addr[DEF_ADDRS_PER_INODE];
	};
	__le32 i_nid[DEF_NIDS_PER_INODE];
} __attribute__((packed));
static_assert(sizeof(struct f2fs_inode) == 4072, "f2fs_inode size");
static_assert(offsetof(struct f2fs_inode, i_ext) == 348, "i_ext offset");
static_assert(offsetof(struct f2fs_inode, i_addr) == 360, "i_addr offset");
static_assert(offsetof(struct f2fs_inode, i_inode_checksum) == 368, "i_inode_checksum offset");
static_assert(offsetof(struct f2fs_inode, i_compress_flag) == 394, "i_compress_flag offset");
static_assert(offsetof(struct f2fs_inode, i_extra_end) == 396, "extra end");
static_assert(offsetof(struct f2fs_inode, i_nid) == 4052, "i_nid offset");

#define F2FS_TOTAL_EXTRA_ATTR_SIZE (offsetof(struct f2fs_inode, i_extra_end) - \
				    offsetof(struct f2fs_inode, i_extra_isize))	/* 36 */
#define F2FS_MIN_EXTRA_ATTR_SIZE 4

struct direct_node {
	__le32 addr[ADDRS_PER_BLOCK];
} __attribute__((packed));
static_assert(sizeof(struct direct_node) == 4072, "direct_node size");

struct indirect_node {
	__le32 nid[NIDS_PER_BLOCK];
} __attribute__((packed));
static_assert(sizeof(struct indirect_node) == 4072, "indirect_node size");

/* Node footer flag bits; the node offset lives above them. */
enum {
	COLD_BIT_SHIFT = 0,
	FSYNC_BIT_SHIFT,
	DENT_BIT_SHIFT,
	OFFSET_BIT_SHIFT
};
#define OFFSET_BIT_MASK		((1u << OFFSET_BIT_SHIFT) - 1)
#define XATTR_NODE_OFFSET	((((unsigned int)-1) << OFFSET_BIT_SHIFT) >> OFFSET_BIT_SHIFT)

struct node_footer {
	__le32 nid;
	__le32 ino;
	__le32 flag;
	__le64 cp_ver;
	__le32 next_blkaddr;
} __attribute__((packed));
static_assert(sizeof(struct node_footer) == 24, "node_footer size");

struct f2fs_node {
	union {
		struct f2fs_inode i;
		struct direct_node dn;
		struct indirect_node in;
	};
	struct node_footer footer;
} __attribute__((packed));
static_assert(sizeof(struct f2fs_node) == F2FS_BLKSIZE, "f2fs_node size");

/* ---- directories ----------------------------------------------------- */

#define F2FS_SLOT_LEN		8
#define F2FS_SLOT_LEN_BITS	3
#define NR_DENTRY_IN_BLOCK	214
#define SIZE_OF_DIR_ENTRY	11
#define SIZE_OF_DENTRY_BITMAP	((NR_DENTRY_IN_BLOCK + 7) / 8)	/* 27 */
#define SIZE_OF_RESERVED	(F2FS_BLKSIZE - ((SIZE_OF_DIR_ENTRY + F2FS_SLOT_LEN) * \
				 NR_DENTRY_IN_BLOCK + SIZE_OF_DENTRY_BITMAP))	/* 3 */
#define MAX_DIR_HASH_DEPTH	63
#define MAX_DIR_BUCKETS		(1u << ((MAX_DIR_HASH_DEPTH / 2) - 1))
#define GET_DENTRY_SLOTS(x)	(((x) + F2FS_SLOT_LEN - 1) >> F2FS_SLOT_LEN_BITS)

/* Dentry slots an inline dentry area of bytes bytes holds: each takes its
 * entry, its name slot and one bit of the bitmap in front (the kernel's
 * NR_INLINE_DENTRY for the inode's inline size). */
static inline uint32_t f2fs_inline_dentry_slots(uint32_t bytes)
{
	return bytes * 8 / ((SIZE_OF_DIR_ENTRY + F2FS_SLOT_LEN) * 8 + 1);
}

/* Hash-table geometry of a directory: buckets at a level (2^(level +
 * i_dir_level), capped) and dentry blocks per bucket (2, then 4 from level
 * 31 on). */
static inline uint64_t f2fs_dir_buckets(uint32_t level, uint32_t dir_level)
{
	if (level + dir_level < MAX_DIR_HASH_DEPTH / 2)
		return 1ull << (level + dir_level);
	return MAX_DIR_BUCKETS;
}

static inline uint32_t f2fs_bucket_blocks(uint32_t level)
{
	return level < MAX_DIR_HASH_DEPTH / 2 ? 2 : 4;
}

struct f2fs_dir_entry {
	__le32 hash_code;
	__le32 ino;
	__le16 name_len;
	uint8_t file_type;
} __attribute__((packed));
static_assert(sizeof(struct f2fs_dir_entry) == SIZE_OF_DIR_ENTRY, "f2fs_dir_entry size");

struct f2fs_dentry_block {
	uint8_t dentry_bitmap[SIZE_OF_DENTRY_BITMAP];
	uint8_t reserved[SIZE_OF_RESERVED];
	struct f2fs_dir_entry dentry[NR_DENTRY_IN_BLOCK];
	uint8_t filename[NR_DENTRY_IN_BLOCK][F2FS_SLOT_LEN];
} __attribute__((packed));
static_assert(sizeof(struct f2fs_dentry_block) == F2FS_BLKSIZE, "f2fs_dentry_block size");
static_assert(offsetof(struct f2fs_dentry_block, dentry) == 30, "dentry offset");
static_assert(offsetof(struct f2fs_dentry_block, filename) == 2384, "filename offset");

enum {
	F2FS_FT_UNKNOWN,
	F2FS_FT_REG_FILE,
	F2FS_FT_DIR,
	F2FS_FT_CHRDEV,
	F2FS_FT_BLKDEV,
	F2FS_FT_FIFO,
	F2FS_FT_SOCK,
	F2FS_FT_SYMLINK,
	F2FS_FT_MAX
};

/* ---- xattrs ---------------------------------------------------------- */

#define F2FS_XATTR_MAGIC	0xF2F52011u
#define F2FS_XATTR_INDEX_USER			1
#define F2FS_XATTR_INDEX_POSIX_ACL_ACCESS	2
#define F2FS_XATTR_INDEX_POSIX_ACL_DEFAULT	3
#define F2FS_XATTR_INDEX_TRUSTED		4
#define F2FS_XATTR_INDEX_LUSTRE			5
#define F2FS_XATTR_INDEX_SECURITY		6
#define F2FS_XATTR_INDEX_ADVISE			7
#define F2FS_XATTR_INDEX_ENCRYPTION		9
#define F2FS_XATTR_INDEX_VERITY			11

struct f2fs_xattr_header {
	__le32 h_magic;
	__le32 h_refcount;
	__le32 h_reserved[4];
} __attribute__((packed));
static_assert(sizeof(struct f2fs_xattr_header) == 24, "f2fs_xattr_header size");

struct f2fs_xattr_entry {
	uint8_t e_name_index;
	uint8_t e_name_len;
	__le16 e_value_size;
	char e_name[];
} __attribute__((packed));

/* ---- bitmap helpers (three bit orders are used on disk) -------------- */

/* SIT valid maps and the checkpoint version bitmaps: MSB first in each byte. */
static inline int f2fs_test_bit(unsigned int nr, const uint8_t *addr)
{
	return (addr[nr >> 3] & (0x80 >> (nr & 7))) != 0;
}
static inline void f2fs_set_bit(unsigned int nr, uint8_t *addr)
{
	addr[nr >> 3] |= (uint8_t)(0x80 >> (nr & 7));
}
static inline void f2fs_clear_bit(unsigned int nr, uint8_t *addr)
{
	addr[nr >> 3] &= (uint8_t)~(0x80 >> (nr & 7));
}

/* Dentry bitmaps and nat_bits: LSB first ("little-endian" bit order). */
static inline int test_bit_le(unsigned int nr, const uint8_t *addr)
{
	return (addr[nr >> 3] >> (nr & 7)) & 1;
}

/* The first bit set at or after bit i of a little-endian bitmap of n
 * bits, or n: zero words and bytes are skipped whole. */
static inline uint32_t f2fs_next_bit_le(const uint8_t *bitmap, uint32_t i, uint32_t n)
{
	while (i < n) {
		if (i % 8 == 0 && n - i >= 64) {
			uint64_t q;

			memcpy(&q, bitmap + i / 8, sizeof(q));
			if (!q) {
				i += 64;
				continue;
			}
		}
		if (i % 8 == 0 && n - i >= 8 && !bitmap[i / 8]) {
			i += 8;
			continue;
		}
		if (test_bit_le(i, bitmap))
			return i;
		i++;
	}
	return n;
}
static inline void set_bit_le(unsigned int nr, uint8_t *addr)
{
	addr[nr >> 3] |= (uint8_t)(1u << (nr & 7));
}
static inline void clear_bit_le(unsigned int nr, uint8_t *addr)
{
	addr[nr >> 3] &= (uint8_t)~(1u << (nr & 7));
}

#endif /* F2FS_FS_H */
