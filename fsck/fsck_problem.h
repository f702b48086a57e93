/*
 * fsck_problem.h - the problem codes of fsck.f2fs and the table entry
 * type.  The table itself (message templates, severity, preen safety,
 * fix kind, and each kind's repair routine) is fsck_problem.c; codes are
 * stable and never reused.
 *
 * Codes: 1xxx superblock and checkpoint, 2xxx SIT entries, 3xxx NAT,
 * 4xxx nodes and inodes, 5xxx directories, 6xxx SSA, 7xxx derived state
 * (bitmaps, sections; 71xx the zones of zoned devices), 8xxx roll-forward
 * chain, orphans and quota.
 */
#ifndef FSCK_PROBLEM_H
#define FSCK_PROBLEM_H

#include <stdbool.h>
#include <stddef.h>

enum fsck_problem {
	/* superblock */
	PR_SB_COPY_INVALID = 1001,
	PR_SB_NONE_VALID = 1002,
	PR_SB_COPIES_DIFFER = 1003,
	PR_SB_FEATURE_DEPS = 1004,
	PR_SB_UNKNOWN_FEATURE = 1005,
	PR_SB_ENCODING = 1006,
	PR_SB_SEGMENT_COUNT_EXCESS = 1007,
	PR_SB_KERNEL_ERRORS = 1008,
	PR_SB_QUOTA_INO_NO_FEATURE = 1009,
	/* checkpoint */
	PR_CP_PACK_INVALID = 1010,
	PR_CP_NONE_VALID = 1011,
	PR_CP_SANITY = 1012,
	PR_CP_ERROR_FLAG = 1013,
	PR_CP_FSCK_FLAG = 1014,
	PR_CP_SUMMARY_LOAD = 1015,
	PR_CP_NAT_JOURNAL_COUNT = 1016,
	PR_CP_SIT_JOURNAL_COUNT = 1017,
	PR_CP_NAT_JOURNAL_ENTRY = 1018,
	PR_CP_SIT_JOURNAL_ENTRY = 1019,
	PR_CP_ORPHAN_BLOCK = 1020,
	PR_CP_ORPHAN_INO = 1021,
	PR_CP_CURSEG_ALLOC_TYPE = 1022,
	PR_CP_CURSEG_NEXT_BLOCK_USED = 1023,
	PR_CP_CURSEG_SAME_SECTION = 1024,
	PR_CP_CURSEG_TYPE = 1025,
	PR_CP_VALID_BLOCKS = 1026,
	PR_CP_VALID_NODES = 1027,
	PR_CP_VALID_INODES = 1028,
	PR_CP_FREE_SEGMENTS = 1029,
	PR_CP_NAT_BITS_STALE = 1030,
	PR_CP_NAT_BITS_MISMATCH = 1031,
	PR_CP_QUOTA_NEED_FSCK = 1032,
	PR_CP_NOT_UMOUNT = 1033,
	PR_CP_NEWER_PACK_INVALID = 1034,
	PR_CP_TORN = 1035,
	PR_CP_OLDER_PACK_TORN = 1036,
	PR_CP_ORPHAN_LIVE = 1037,
	PR_CP_FIELD_DERIVED = 1038,
	PR_CP_NEWEST_UNUSABLE = 1039,
	PR_CP_CRC_ONLY = 1040,
	/* superblock rebuilt from two damaged copies */
	PR_SB_REBUILT = 1041,
	PR_SB_FIELD_DERIVED = 1042,
	/* a truncated device: the main area runs past its end */
	PR_SB_IMAGE_SHORT = 1043,
	PR_SB_BLKDEV_SHORT = 1044,
	PR_SB_SHUTDOWN_RECORDED = 1045,
	/* SIT entries */
	PR_SIT_COUNT_POPCOUNT = 2001,
	PR_SIT_BAD_TYPE = 2002,
	PR_SIT_COUNT_RANGE = 2003,
	PR_SIT_NODE_TOTAL = 2004,
	PR_SIT_TOTAL_EXCEEDS = 2005,
	PR_SIT_BLOCK_ENTRY_JOURNALLED = 2006,
	/* NAT */
	PR_NAT_ADDR_RANGE = 3001,
	PR_NAT_NEW_ADDR = 3002,
	PR_NAT_NOT_IN_SIT = 3003,
	PR_NAT_INO_INVALID = 3004,
	PR_NAT_SHARED_BLOCK = 3005,
	PR_NAT_RESERVED = 3006,
	PR_NAT_LEAK = 3007,
	PR_NAT_LOST = 3008,
	/* nodes and inodes */
	PR_NODE_FOOTER_NID = 4001,
	PR_NODE_FOOTER_INO = 4002,
	PR_NODE_FOOTER_OFS = 4003,
	PR_NODE_NAT_INO = 4004,
	PR_NODE_NOT_INODE = 4005,
	PR_NODE_UNEXPECTED_INODE = 4006,
	PR_NODE_DUP = 4007,
	PR_NODE_NID_INVALID = 4008,
	PR_NODE_NAT_NULL = 4009,
	PR_INODE_CHECKSUM = 4011,
	PR_INODE_MODE = 4012,
	PR_INODE_LINKS = 4013,
	PR_INODE_BLOCKS = 4014,
	PR_INODE_SIZE = 4015,
	PR_INODE_EXTRA_ISIZE = 4016,
	PR_INODE_EXTRA_NO_FEATURE = 4017,
	PR_INODE_INLINE_XATTR_SIZE = 4018,
	PR_INODE_INLINE_DATA = 4019,
	PR_INODE_INLINE_DENTRY = 4020,
	PR_INODE_XATTR_NID = 4021,
	PR_XATTR_ENTRY = 4022,
	PR_INODE_EXTENT = 4023,
	PR_INODE_ZERO_BLOCKS = 4024,
	PR_INODE_CASEFOLD = 4026,
	PR_INODE_COMPRESS = 4027,
	PR_DATA_ADDR_RANGE = 4028,
	PR_DATA_DUP = 4029,
	PR_SEG_TYPE_CLASS = 4030,
	PR_INODE_ORPHAN_LINKS = 4031,
	PR_ROOT_NOT_DIR = 4033,
	PR_INODE_DEPTH = 4034,
	PR_INODE_UNREACHABLE = 4035,
	PR_QUOTA_INODE = 4038,
	PR_INODE_NAMELEN = 4039,
	PR_INODE_XATTR_AREA_ADDRS = 4040,
	PR_INODE_INLINE_BYTES = 4041,
	PR_INODE_DIR_PINO = 4042,
	PR_INODE_FOOTER = 4044,
	PR_INODE_EXTRA_FLAG_MISSING = 4046,
	PR_ROOT_INLINE = 4047,
	PR_INODE_MODE_TYPE = 4048,
	PR_QUOTA_INO_FOUND = 4049,
	PR_INODE_EXTRA_ISIZE_CHECKSUM = 4050,
	PR_SYMLINK_SIZE = 4051,
	PR_INODE_ENCRYPT_FLAG = 4052,
	PR_INODE_ENCRYPT_NO_CONTEXT = 4053,
	/* directories */
	PR_DENT_NAME_LEN = 5001,
	PR_DENT_SLOTS = 5002,
	PR_DENT_INO = 5003,
	PR_DENT_FTYPE = 5004,
	PR_DENT_HASH = 5005,
	PR_DENT_POSITION = 5006,
	PR_DENT_DOT = 5007,
	PR_DENT_DOTDOT = 5008,
	PR_DENT_DUP_DOTS = 5009,
	PR_DENT_BAD_TYPE = 5010,
	PR_DENT_DEPTH = 5011,
	PR_DENT_BLOCK_PAST_SIZE = 5012,
	PR_DENT_NOT_INODE = 5014,
	PR_DENT_NAME_CHARS = 5015,
	PR_DIR_HARDLINK = 5016,
	PR_DENT_DUP_NAME = 5017,
	PR_DENT_NAME_LEN_KEPT = 5018,
	/* SSA */
	PR_SSA_NID = 6001,
	PR_SSA_OFS = 6002,
	PR_SSA_VERSION = 6003,
	PR_SSA_FOOTER_TYPE = 6004,
	/* derived state */
	PR_SIT_BLOCK_NOT_VALID = 7001,
	PR_SIT_BLOCK_LEAK = 7002,
	PR_SEC_VALID_COUNT = 7004,
	PR_SEC_CKPT_VALID_COUNT = 7005,
	PR_SEC_TYPE_MIX = 7006,
	PR_SEC_TEMP_MIX = 7007,
	PR_SEC_EMPTY_SEG_CLASS = 7008,
	/* zoned devices: write pointers and zone capacity (fsck_pass_zone.c) */
	PR_ZONE_LOG_WP = 7101,
	PR_ZONE_VALID_BEYOND_WP = 7102,
	PR_ZONE_WP_NO_VALID = 7103,
	PR_ZONE_BLOCK_BEYOND_CAPACITY = 7104,
	/* roll-forward, orphans, quota */
	PR_RF_CHAIN_LOOP = 8001,
	PR_RF_DENT_INODE_IN_NAT = 8002,
	PR_RF_CHAIN_OVERLAP = 8003,
	PR_RF_CHAIN = 8004,
	/* 8005 (RF_CHAIN_BAD_ADDR) retired: never reported, a chain that
	 * leaves the main area ends there for the kernel too */
	PR_RF_CHAIN_OTHER_CRC = 8006,
	PR_QUOTA_FILE = 8010,
	PR_QUOTA_USAGE = 8011,
};

enum fsck_severity {
	FSCK_SEV_ERROR,	/* the kernel refuses it, or data can be lost */
	FSCK_SEV_WARN,	/* inconsistent, worth fixing; counts as a problem */
	FSCK_SEV_INFO,	/* noteworthy state, not a problem */
};

/* The kind of fix a problem gets (its routine: fsck_fix_routine());
 * FIX_NONE for information, FIX_UNFIXABLE when there is none. */
enum fsck_fix {
	FIX_NONE,
	FIX_SB_FROM_GOOD_COPY,
	FIX_SB_REBUILD,		/* write both copies from the rebuilt superblock */
	FIX_SB_FIELD,		/* correct a field in both superblock copies */
	FIX_CP_REWRITE,		/* new checkpoint pack with recomputed fields */
	FIX_SIT_REBUILD,	/* SIT entries and counts from reachability */
	FIX_NAT_CLEAR,		/* drop a leaked or bad NAT entry */
	FIX_NAT_SET,		/* correct address or owner */
	FIX_SSA_ENTRY,		/* rewrite summary entries or footer */
	FIX_INODE_FIELD,	/* correct an inode field (and its checksum) */
	FIX_NODE_DROP,		/* drop a bad node reference */
	FIX_DATA_DROP,		/* drop a bad data block reference */
	FIX_DENTRY_DROP,
	FIX_DENTRY_FIX,		/* hash, type or position corrected */
	FIX_DOTS,		/* restore '.' and '..' */
	FIX_RECONNECT,		/* reconnect into lost+found */
	FIX_ORPHAN_LIST,
	FIX_NAT_BITS,
	FIX_QUOTA_REBUILD,	/* write the quota file afresh from usage */
	FIX_RELOCATE,		/* move blocks of the other class out of the section */
	FIX_BLOCK_REMAP,	/* lay the file's block map out as the kernel reads it */
	FIX_ROOT_REBUILD,	/* a fresh root directory, its names salvaged */
	FIX_UNFIXABLE,
	FIX_ZONE_LOG_MOVE,	/* the log goes to a fresh section with an empty zone */
	FIX_ZONE_FINISH,	/* finish the zone (write pointer to its end) */
	FIX_ZONE_RESET,		/* reset the zone (write pointer to its start) */
	FIX_IMAGE_GROW,		/* grow the image file to the volume's size */
	FIX_DIR_UNINLINE,	/* the inline entries go to a new dentry block */
	FIX_KIND_COUNT		/* not a kind: their number (new kinds go before) */
};

/* The routines of the repair that apply the fixes (fsck_repair.c), in the
 * order the one atomic checkpoint needs them.  Every fix kind but
 * FIX_NONE and FIX_UNFIXABLE is applied by exactly one of them
 * (fsck_fix_routine()). */
enum fsck_routine {
	FSCK_RT_NONE,
	FSCK_RT_IMAGE_GROW,	/* a truncated image file grows first */
	FSCK_RT_ZONES,		/* zones reset and finished before any write */
	FSCK_RT_DIRS,		/* fsck_lpf.c: new root, dentry block 0, '.' and
				 * '..', entries moved, lost+found */
	FSCK_RT_SHARED,		/* dropped data references: i_blocks follow */
	FSCK_RT_REMAP,		/* block maps laid out as the kernel reads them */
	FSCK_RT_QUOTA,		/* quota files rebuilt from the usage */
	FSCK_RT_LOGS,		/* logs placed where the kernel accepts them */
	FSCK_RT_SUMMARIES,	/* corrected summary entries */
	FSCK_RT_RELOCATE,	/* blocks copied out of sections of both classes */
	FSCK_RT_BLOCKS,		/* changed node and dentry blocks, out of place */
	FSCK_RT_NAT,		/* NAT entries from the repaired tree */
	FSCK_RT_SIT,		/* SIT entries from the repaired tree */
	FSCK_RT_CHECKPOINT,	/* the new pack: counters, orphans, nat_bits */
	FSCK_RT_SUPERBLOCK,	/* superblock copies, after the commit */
	FSCK_RT_COUNT
};

struct fsck_problem_def {
	enum fsck_problem code;
	const char *name;	/* e.g. "SB_COPY_INVALID" */
	enum fsck_severity severity;
	bool preen_ok;		/* safe to fix without asking (-a / -p) */
	enum fsck_fix fix;
	const char *msg;	/* template: {nid} {ino} {segno} {secno} {blkaddr}
				 * {sb} {cp} {found} {expected} {xfound}
				 * {xexpected} {idx} {path} {str} */
};

extern const struct fsck_problem_def fsck_problems[];
extern const size_t fsck_n_problems;

/* Table entry of a code (binary search), or NULL. */
const struct fsck_problem_def *fsck_problem_find(enum fsck_problem code);
/* Index of a code in the table, or -1. */
int fsck_problem_index(enum fsck_problem code);
const char *fsck_severity_name(enum fsck_severity s);
const char *fsck_fix_name(enum fsck_fix f);
/* The routine that applies fixes of kind f (FSCK_RT_NONE for FIX_NONE
 * and FIX_UNFIXABLE), and its name. */
enum fsck_routine fsck_fix_routine(enum fsck_fix f);
const char *fsck_routine_name(enum fsck_routine rt);
/* Why a FIX_UNFIXABLE problem has no fix ("" for the others). */
const char *fsck_unfixable_why(enum fsck_problem code);

#endif
