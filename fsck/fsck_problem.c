/*
 * fsck_problem.c - the problem table of fsck.f2fs: for every code its
 * name, message template, severity, whether preen (-a/-p) may fix it
 * without asking, and the kind of its fix; and for every fix kind the
 * one repair routine that applies it (fsck_fix_routine()).  The table
 * decides: a detection site's fsck_problem() call (fsck_report.c) answers
 * from the entry and the run's mode whether the fix is planned, the site
 * records it only then, and the repair (fsck_repair.c) runs the routine
 * of every kind that was planned.  Preen-safe are only
 * fixes that lose nothing a user can see: never one that drops a name,
 * a node or a data block, clears a NAT entry or moves a file into
 * lost+found (tests/fsck/test_problem_table.c holds the table to it).
 * Sorted by code (a unit test checks it); the man page's problem list is
 * generated from it.
 */
#include "fsck_problem.h"

#define E FSCK_SEV_ERROR
#define W FSCK_SEV_WARN
#define I FSCK_SEV_INFO
#define P(code, sev, preen, fix, msg) { PR_##code, #code, sev, preen, fix, msg }

const struct fsck_problem_def fsck_problems[] = {
	P(SB_COPY_INVALID, E, true, FIX_SB_FROM_GOOD_COPY,
	  "superblock copy {sb} is invalid: {str}"),
	P(SB_NONE_VALID, E, false, FIX_UNFIXABLE,
	  "no valid superblock copy: not an F2FS volume or both copies are damaged"),
	P(SB_COPIES_DIFFER, I, true, FIX_SB_FROM_GOOD_COPY,
	  "the two superblock copies differ (copy {sb} is in use; the other is rewritten from it "
	  "when anything else is repaired)"),
	P(SB_FEATURE_DEPS, E, false, FIX_UNFIXABLE,
	  "features {str} need extra_attr, which is off"),
	P(SB_UNKNOWN_FEATURE, I, true, FIX_NONE,
	  "feature bits {xfound} are unknown (the kernel ignores them too)"),
	P(SB_ENCODING, E, false, FIX_UNFIXABLE,
	  "casefold feature with unknown encoding {found}"),
	P(SB_SEGMENT_COUNT_EXCESS, W, true, FIX_SB_FIELD,
	  "segment_count exceeds the end of the main area by {found} segments (the kernel rewrites it)"),
	P(SB_KERNEL_ERRORS, W, true, FIX_SB_FROM_GOOD_COPY,
	  "the kernel recorded errors or stop reasons in the superblock"),
	P(SB_QUOTA_INO_NO_FEATURE, W, true, FIX_SB_FIELD,
	  "qf_ino names quota inodes ({str}) but the quota_ino feature is off; the kernel ignores them"),
	P(CP_PACK_INVALID, W, true, FIX_CP_REWRITE,
	  "checkpoint pack {cp} is invalid: {str}"),
	P(CP_NONE_VALID, E, false, FIX_UNFIXABLE,
	  "no valid checkpoint pack"),
	P(CP_SANITY, E, false, FIX_CP_REWRITE,
	  "the checkpoint is refused by the kernel: {str}"),
	P(CP_ERROR_FLAG, E, false, FIX_CP_REWRITE,
	  "the checkpoint has CP_ERROR_FLAG (the kernel refuses to mount)"),
	P(CP_FSCK_FLAG, I, true, FIX_CP_REWRITE,
	  "the kernel asked for a check (CP_FSCK_FLAG)"),
	P(CP_SUMMARY_LOAD, E, false, FIX_UNFIXABLE,
	  "the current segment summaries cannot be loaded: {str}"),
	P(CP_NAT_JOURNAL_COUNT, E, false, FIX_CP_REWRITE,
	  "the NAT journal holds {found} entries (at most {expected})"),
	P(CP_SIT_JOURNAL_COUNT, E, false, FIX_CP_REWRITE,
	  "the SIT journal holds {found} entries (at most {expected})"),
	P(CP_NAT_JOURNAL_ENTRY, E, false, FIX_CP_REWRITE,
	  "NAT journal entry {idx} (nid {nid}): {str}"),
	P(CP_SIT_JOURNAL_ENTRY, E, false, FIX_SIT_REBUILD,
	  "SIT journal entry {idx} (segment {segno}): {str}"),
	P(CP_ORPHAN_BLOCK, E, false, FIX_ORPHAN_LIST,
	  "orphan block {idx}: {str}"),
	P(CP_ORPHAN_INO, E, false, FIX_ORPHAN_LIST,
	  "orphan entry {idx} names ino {ino}, which is {str}"),
	P(CP_CURSEG_ALLOC_TYPE, E, false, FIX_CP_REWRITE,
	  "log {idx}: alloc_type {found} is neither LFS nor SSR"),
	P(CP_CURSEG_NEXT_BLOCK_USED, E, false, FIX_CP_REWRITE,
	  "log {idx}: block {blkaddr} at or after the write position is valid in SIT"),
	P(CP_CURSEG_SAME_SECTION, E, false, FIX_CP_REWRITE,
	  "logs {idx} and {found} are both open in section {secno}"),
	P(CP_CURSEG_TYPE, W, true, FIX_SIT_REBUILD,
	  "log {idx}: its segment {segno} has SIT type {found}, expected {expected}"),
	P(CP_VALID_BLOCKS, E, true, FIX_CP_REWRITE,
	  "checkpoint valid_block_count is {found}, counted {expected}"),
	P(CP_VALID_NODES, E, true, FIX_CP_REWRITE,
	  "checkpoint valid_node_count is {found}, counted {expected}"),
	P(CP_VALID_INODES, E, true, FIX_CP_REWRITE,
	  "checkpoint valid_inode_count is {found}, counted {expected}"),
	P(CP_FREE_SEGMENTS, W, true, FIX_CP_REWRITE,
	  "checkpoint free_segment_count is {found}, more than the {expected} free segments"),
	P(CP_NAT_BITS_STALE, I, true, FIX_NAT_BITS,
	  "nat_bits do not belong to this checkpoint; the kernel ignores them"),
	P(CP_NAT_BITS_MISMATCH, E, true, FIX_NAT_BITS,
	  "nat_bits of NAT block {idx}: {str}"),
	P(CP_QUOTA_NEED_FSCK, I, true, FIX_CP_REWRITE,
	  "the kernel marked quota as needing a check (CP_QUOTA_NEED_FSCK_FLAG)"),
	P(CP_NOT_UMOUNT, I, true, FIX_NONE,
	  "the checkpoint is not an unmount checkpoint (unclean shutdown)"),
	P(CP_NEWER_PACK_INVALID, W, true, FIX_CP_REWRITE,
	  "checkpoint pack {cp} has a newer version but is invalid ({str}); the older pack is used"),
	P(CP_TORN, I, true, FIX_NONE,
	  "checkpoint pack {cp} was cut while being written ({str}); the older pack is used and the next checkpoint overwrites it"),
	P(CP_OLDER_PACK_TORN, I, true, FIX_NONE,
	  "checkpoint pack {cp} is older than the pack in use and torn or damaged ({str}); the kernel ignores it and the next checkpoint overwrites it"),
	P(CP_ORPHAN_LIVE, E, true, FIX_ORPHAN_LIST,
	  "orphan entry names ino {ino}, which {found} directory entries still name: the kernel's orphan recovery would truncate it and drop its links"),
	P(CP_FIELD_DERIVED, E, false, FIX_CP_REWRITE,
	  "checkpoint pack {cp}: {str} is {found}; the superblock or the pack's layout implies {expected}, "
	  "which the check uses"),
	P(CP_NEWEST_UNUSABLE, E, false, FIX_CP_REWRITE,
	  "checkpoint pack {cp} is the newest, but the kernel refuses it ({str}) and that cannot be derived; "
	  "the check goes on from the older pack {found}: what was written after that checkpoint is lost"),
	P(CP_CRC_ONLY, E, false, FIX_CP_REWRITE,
	  "no checkpoint pack has a valid checksum; pack {cp} fails only its checksum and passes every "
	  "other rule, so the check goes on from it"),
	P(SB_REBUILT, E, false, FIX_SB_REBUILD,
	  "no valid superblock copy: rebuilt from copy {sb}, the layout on disk and the checkpoint "
	  "(derived: {str})"),
	P(SB_FIELD_DERIVED, E, false, FIX_SB_REBUILD,
	  "superblock copy {sb}: {str} is {found}, derived {expected}"),
	P(SB_IMAGE_SHORT, E, true, FIX_IMAGE_GROW,
	  "the image file ends {found} blocks before the main area does; {str}"),
	P(SB_BLKDEV_SHORT, E, false, FIX_UNFIXABLE,
	  "the device ends {found} blocks before the main area does; {str}"),
	P(SB_SHUTDOWN_RECORDED, I, true, FIX_NONE,
	  "the kernel counted {found} shutdown(s) asked for (F2FS_IOC_SHUTDOWN) in the superblock; "
	  "it recovers from one at mount as after a power cut (cleared when the superblock is rewritten)"),
	P(SIT_COUNT_POPCOUNT, E, false, FIX_SIT_REBUILD,
	  "segment {segno}: SIT count {found} but {expected} bits set"),
	P(SIT_BAD_TYPE, E, false, FIX_SIT_REBUILD,
	  "segment {segno}: SIT type {found} is invalid"),
	P(SIT_COUNT_RANGE, E, false, FIX_SIT_REBUILD,
	  "segment {segno}: SIT count {found} exceeds {expected}"),
	P(SIT_NODE_TOTAL, E, false, FIX_SIT_REBUILD,
	  "SIT counts {found} valid node blocks, the checkpoint {expected} (the kernel refuses to mount)"),
	P(SIT_TOTAL_EXCEEDS, E, false, FIX_SIT_REBUILD,
	  "SIT counts {found} valid blocks, more than the checkpoint's {expected}"),
	P(SIT_BLOCK_ENTRY_JOURNALLED, E, true, FIX_SIT_REBUILD,
	  "segment {segno}: the current SIT block's entry, which the SIT journal overrides, "
	  "is refused by the kernel at mount: {str}"),
	P(NAT_ADDR_RANGE, E, false, FIX_NAT_CLEAR,
	  "nid {nid}: block address {blkaddr} is outside the main area"),
	P(NAT_NEW_ADDR, E, false, FIX_NAT_CLEAR,
	  "nid {nid}: NAT entry holds NEW_ADDR (the kernel reports NAT corruption)"),
	P(NAT_NOT_IN_SIT, E, false, FIX_SIT_REBUILD,
	  "nid {nid}: its block {blkaddr} is not valid in SIT"),
	P(NAT_INO_INVALID, E, false, FIX_NAT_SET,
	  "nid {nid}: owner ino {found} is invalid"),
	P(NAT_SHARED_BLOCK, E, false, FIX_NAT_CLEAR,
	  "nid {nid}: block {blkaddr} is also the block of nid {found}"),
	P(NAT_RESERVED, E, false, FIX_NAT_SET,
	  "nid {nid}: reserved NAT entry {str}"),
	P(NAT_LEAK, W, false, FIX_NAT_CLEAR,
	  "nid {nid} (ino {ino}): in use in NAT but not reachable"),
	P(NAT_LOST, E, false, FIX_NAT_SET,
	  "nid {nid} (ino {ino}): the NAT entry {str}, but the node is intact at block {blkaddr}: the entry is set to it"),
	P(NODE_FOOTER_NID, E, false, FIX_NODE_DROP,
	  "nid {nid}: node block {blkaddr} has footer nid {found}"),
	P(NODE_FOOTER_INO, E, false, FIX_NODE_DROP,
	  "nid {nid}: node block {blkaddr} has footer ino {found}, expected {expected}"),
	P(NODE_FOOTER_OFS, E, false, FIX_NODE_DROP,
	  "nid {nid}: node block {blkaddr} has node offset {found}, expected {expected}"),
	P(NODE_NAT_INO, E, false, FIX_NAT_SET,
	  "nid {nid}: NAT owner is {found}, expected {expected}"),
	P(NODE_NOT_INODE, E, false, FIX_DENTRY_DROP,
	  "ino {ino}: block {blkaddr} is not an inode block ({str})"),
	P(NODE_UNEXPECTED_INODE, E, false, FIX_NODE_DROP,
	  "nid {nid} of ino {ino}: an inode block where a {str} node was expected"),
	P(NODE_DUP, E, false, FIX_NODE_DROP,
	  "nid {nid} (ino {ino}): node referenced more than once"),
	P(NODE_NID_INVALID, E, false, FIX_NODE_DROP,
	  "ino {ino}: {str} nid {nid} is out of range"),
	P(NODE_NAT_NULL, E, false, FIX_NODE_DROP,
	  "ino {ino}: {str} nid {nid} has no block in NAT"),
	P(INODE_CHECKSUM, E, true, FIX_INODE_FIELD,
	  "ino {ino}: inode checksum {xfound}, expected {xexpected}"),
	P(INODE_MODE, E, false, FIX_INODE_FIELD,
	  "ino {ino}: invalid i_mode {xfound}"),
	P(INODE_LINKS, E, true, FIX_INODE_FIELD,
	  "ino {ino}: i_links is {found}, counted {expected}"),
	P(INODE_BLOCKS, E, true, FIX_INODE_FIELD,
	  "ino {ino}: i_blocks is {found}, counted {expected}"),
	P(INODE_SIZE, W, true, FIX_INODE_FIELD,
	  "ino {ino}: i_size {found} ends before block {expected} of the file"),
	P(INODE_EXTRA_ISIZE, E, false, FIX_INODE_FIELD,
	  "ino {ino}: i_extra_isize {found} is invalid"),
	P(INODE_EXTRA_NO_FEATURE, E, false, FIX_INODE_FIELD,
	  "ino {ino}: extra attributes without the extra_attr feature"),
	P(INODE_INLINE_XATTR_SIZE, E, false, FIX_INODE_FIELD,
	  "ino {ino}: i_inline_xattr_size {found} is invalid"),
	P(INODE_INLINE_DATA, E, false, FIX_INODE_FIELD,
	  "ino {ino}: inline data {str}"),
	P(INODE_INLINE_DENTRY, E, false, FIX_INODE_FIELD,
	  "ino {ino}: inline dentry flag {str}"),
	P(INODE_XATTR_NID, E, false, FIX_INODE_FIELD,
	  "ino {ino}: i_xattr_nid {found} is invalid"),
	P(XATTR_ENTRY, E, false, FIX_INODE_FIELD,
	  "ino {ino}: xattr entry at byte {idx}: {str}"),
	P(INODE_EXTENT, E, true, FIX_INODE_FIELD,
	  "ino {ino}: i_ext {str}"),
	P(INODE_ZERO_BLOCKS, E, true, FIX_INODE_FIELD,
	  "ino {ino}: i_blocks is 0 (the kernel refuses the inode)"),
	P(INODE_CASEFOLD, E, false, FIX_INODE_FIELD,
	  "ino {ino}: casefold flag {str}"),
	P(INODE_COMPRESS, E, false, FIX_INODE_FIELD,
	  "ino {ino}: compression {str}"),
	P(DATA_ADDR_RANGE, E, false, FIX_DATA_DROP,
	  "ino {ino}: block address {blkaddr} at file block {idx} is outside the main area"),
	P(DATA_DUP, E, false, FIX_DATA_DROP,
	  "ino {ino}: block {blkaddr} at file block {idx} is already used"),
	P(SEG_TYPE_CLASS, E, false, FIX_RELOCATE,
	  "segment {segno}: {str} block {blkaddr} in a segment of SIT type {found}"),
	P(INODE_ORPHAN_LINKS, W, true, FIX_ORPHAN_LIST,
	  "orphan ino {ino} has i_links {found}"),
	P(ROOT_NOT_DIR, E, false, FIX_ROOT_REBUILD,
	  "the root inode is not a usable directory: {str}"),
	P(INODE_DEPTH, E, true, FIX_INODE_FIELD,
	  "ino {ino}: i_current_depth {found} / i_dir_level {expected} is invalid"),
	P(INODE_UNREACHABLE, W, false, FIX_RECONNECT,
	  "ino {ino}: in use but not reachable from the root"),
	P(QUOTA_INODE, E, false, FIX_UNFIXABLE,
	  "quota inode {ino} (type {idx}): {str}"),
	P(INODE_NAMELEN, W, true, FIX_INODE_FIELD,
	  "ino {ino}: i_namelen {found} exceeds {expected}"),
	P(INODE_XATTR_AREA_ADDRS, E, false, FIX_BLOCK_REMAP,
	  "ino {ino}: the inline xattr area holds {found} block addresses of the file (a writer "
	  "ignored i_inline_xattr_size): the kernel reads the file from block {idx} on at the wrong offsets"),
	P(INODE_INLINE_BYTES, W, true, FIX_INODE_FIELD,
	  "ino {ino}: the inline data area (i_size {found}) {str}"),
	P(INODE_DIR_PINO, W, true, FIX_INODE_FIELD,
	  "directory ino {ino}: i_pino {found} is not its parent {expected}"),
	P(INODE_FOOTER, E, false, FIX_INODE_FIELD,
	  "ino {ino}: the footer of its inode block {blkaddr} is damaged ({str}), the rest is "
	  "its inode"),
	P(INODE_EXTRA_FLAG_MISSING, E, false, FIX_INODE_FIELD,
	  "ino {ino}: no extra attributes flag on a volume with flexible_inline_xattr (the kernel "
	  "refuses the inode)"),
	P(ROOT_INLINE, E, true, FIX_DIR_UNINLINE,
	  "the root directory keeps its entries inline and owns no block besides its inode: the "
	  "kernel refuses to mount a root whose i_blocks counts nothing else"),
	P(INODE_MODE_TYPE, E, false, FIX_INODE_FIELD,
	  "ino {ino}: i_mode {xfound} is not the type its entry and its contents show ({str}): "
	  "i_mode {xexpected}"),
	P(QUOTA_INO_FOUND, E, false, FIX_SB_FIELD,
	  "the superblock names inode {found} as the quota file of type {idx}, which is invalid or taken; "
	  "inode {ino}, reached by no name, holds that file: qf_ino becomes {ino}"),
	P(INODE_EXTRA_ISIZE_CHECKSUM, E, false, FIX_INODE_FIELD,
	  "ino {ino}: i_extra_isize {found} shifts the block map, but the inode checksum matches "
	  "i_extra_isize {expected}: restored"),
	P(SYMLINK_SIZE, W, true, FIX_INODE_FIELD,
	  "symlink ino {ino}: i_size {found} cuts its target of {expected} bytes ({str})"),
	P(INODE_ENCRYPT_FLAG, E, false, FIX_INODE_FIELD,
	  "ino {ino}: an encryption context xattr but no encryption flag in i_advise (the kernel "
	  "reads the cipher text as the file's names or data)"),
	P(INODE_ENCRYPT_NO_CONTEXT, E, false, FIX_INODE_FIELD,
	  "ino {ino}: the encryption flag in i_advise but no encryption context xattr (the kernel "
	  "can neither list, open nor follow it): the flag is cleared"),
	P(DENT_NAME_LEN, E, false, FIX_DENTRY_DROP,
	  "{path}: dentry slot {idx} has name length {found}"),
	P(DENT_SLOTS, E, false, FIX_DENTRY_DROP,
	  "{path}: dentry slot {idx}: name of {found} bytes runs past the last slot"),
	P(DENT_INO, E, false, FIX_DENTRY_DROP,
	  "{path}: entry '{str}' names invalid ino {found}"),
	P(DENT_FTYPE, E, true, FIX_DENTRY_FIX,
	  "{path}: entry '{str}' has file type {found}, the inode is type {expected}"),
	P(DENT_HASH, E, true, FIX_DENTRY_FIX,
	  "{path}: entry '{str}' has hash {xfound}, expected {xexpected}"),
	P(DENT_POSITION, E, true, FIX_DENTRY_FIX,
	  "{path}: entry '{str}' is in block {idx}, outside its hash bucket"),
	P(DENT_DOT, E, true, FIX_DOTS,
	  "{path}: '.' {str}"),
	P(DENT_DOTDOT, E, true, FIX_DOTS,
	  "{path}: '..' names {found}, the parent is {expected}"),
	P(DENT_DUP_DOTS, E, false, FIX_DENTRY_DROP,
	  "{path}: extra '{str}' entry in slot {idx}"),
	P(DENT_BAD_TYPE, E, true, FIX_DENTRY_FIX,
	  "{path}: entry '{str}' has invalid file type {found}"),
	P(DENT_DEPTH, E, true, FIX_INODE_FIELD,
	  "{path}: block {idx} lies beyond i_current_depth {found}"),
	P(DENT_BLOCK_PAST_SIZE, E, true, FIX_INODE_FIELD,
	  "{path}: dentry block {idx} lies beyond i_size {found}"),
	P(DENT_NOT_INODE, E, false, FIX_DENTRY_DROP,
	  "{path}: entry '{str}' names nid {found}, which is not an inode"),
	P(DENT_NAME_CHARS, E, false, FIX_DENTRY_DROP,
	  "{path}: entry name '{str}' contains '/' or NUL"),
	P(DIR_HARDLINK, E, false, FIX_DENTRY_DROP,
	  "{path}: directory ino {ino} is already linked elsewhere"),
	P(DENT_DUP_NAME, E, false, FIX_DENTRY_DROP,
	  "{path}: entry '{str}' for ino {found} appears again (block {idx}): readdir lists "
	  "the name twice, lookup finds only the first"),
	P(DENT_NAME_LEN_KEPT, E, false, FIX_DENTRY_FIX,
	  "{path}: entry '{str}' in slot {idx} has name length {found}; its inode keeps that name, "
	  "{expected} bytes long, under this directory and the entry's hash"),
	P(SSA_NID, E, true, FIX_SSA_ENTRY,
	  "block {blkaddr}: summary names nid {found}, the owner is {expected}"),
	P(SSA_OFS, E, true, FIX_SSA_ENTRY,
	  "block {blkaddr} (nid {nid}): summary ofs_in_node {found}, expected {expected}"),
	P(SSA_VERSION, W, true, FIX_SSA_ENTRY,
	  "block {blkaddr} (nid {nid}): summary version {found}, NAT version {expected}"),
	P(SSA_FOOTER_TYPE, E, true, FIX_SSA_ENTRY,
	  "segment {segno}: summary footer type {found} but the segment holds {str} blocks"),
	P(SIT_BLOCK_NOT_VALID, E, true, FIX_SIT_REBUILD,
	  "segment {segno}: {found} used blocks are not valid in SIT: {str}"),
	P(SIT_BLOCK_LEAK, W, true, FIX_SIT_REBUILD,
	  "segment {segno}: {found} blocks valid in SIT are not used: {str}"),
	P(SEC_VALID_COUNT, E, true, FIX_SIT_REBUILD,
	  "section {secno}: SIT entries sum to {found} valid blocks, counted {expected}"),
	P(SEC_CKPT_VALID_COUNT, E, true, FIX_SIT_REBUILD,
	  "section {secno}: checkpoint-valid blocks sum to {found}, counted {expected}"),
	P(SEC_TYPE_MIX, E, false, FIX_RELOCATE,
	  "section {secno}: segment {segno} is SIT type {found}, the section is type {expected}"),
	P(SEC_TEMP_MIX, I, true, FIX_NONE,
	  "section {secno}: segment {segno} is SIT type {found}, another segment is type {expected}"),
	P(SEC_EMPTY_SEG_CLASS, I, true, FIX_NONE,
	  "section {secno}: empty segment {segno} keeps SIT type {found}, of the other class than the "
	  "segments in use (type {expected}), as roll-forward recovery leaves it; the GC of Linux "
	  "before 7.2 may take the section's type from it and stop checkpointing"),
	P(ZONE_LOG_WP, W, true, FIX_ZONE_LOG_MOVE,
	  "log {idx} writes at block {found} of section {secno} (segment {segno}), but its zone's "
	  "write pointer is at block {expected} (the kernel's fix_curseg_write_pointer() moves the log at mount)"),
	P(ZONE_VALID_BEYOND_WP, E, true, FIX_ZONE_FINISH,
	  "section {secno}: block {blkaddr} (block {found} of the zone) is valid in SIT but at or after "
	  "the zone's write pointer (block {expected}): the device never received it "
	  "(the kernel's check_zone_write_pointer())"),
	P(ZONE_WP_NO_VALID, W, true, FIX_ZONE_RESET,
	  "section {secno} holds no valid block, but its zone is {str} with the write pointer at block "
	  "{found} (the kernel's check_zone_write_pointer() resets it at mount)"),
	P(ZONE_BLOCK_BEYOND_CAPACITY, E, true, FIX_SIT_REBUILD,
	  "section {secno}: {found} blocks valid in SIT lie after the zone capacity of {expected} blocks "
	  "(the kernel's check_block_count() refuses the SIT entry at mount)"),
	P(RF_CHAIN_LOOP, E, false, FIX_UNFIXABLE,
	  "the roll-forward node chain loops back to block {blkaddr} (the kernel refuses to mount)"),
	P(RF_DENT_INODE_IN_NAT, E, false, FIX_UNFIXABLE,
	  "roll-forward: new ino {ino} at block {blkaddr} already has a NAT entry (recovery fails)"),
	P(RF_CHAIN_OVERLAP, W, false, FIX_UNFIXABLE,
	  "roll-forward chain block {blkaddr} is valid in SIT"),
	P(RF_CHAIN, I, true, FIX_NONE,
	  "roll-forward: {found} fsync'd node blocks after the checkpoint will be recovered at mount"),
	P(RF_CHAIN_OTHER_CRC, W, false, FIX_CP_REWRITE,
	  "roll-forward: {found} fsync'd node blocks after the checkpoint carry its version under another "
	  "checkpoint CRC (the pack was rewritten after them): the kernel skips them; the repair re-homes "
	  "them so that it recovers them"),
	P(QUOTA_FILE, E, false, FIX_QUOTA_REBUILD,
	  "quota file ino {ino}: {str}"),
	P(QUOTA_USAGE, W, true, FIX_QUOTA_REBUILD,
	  "quota file ino {ino}: {str} {found}, counted {expected}"),
};

const size_t fsck_n_problems = sizeof(fsck_problems) / sizeof(fsck_problems[0]);

int fsck_problem_index(enum fsck_problem code)
{
	size_t lo = 0, hi = fsck_n_problems;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (fsck_problems[mid].code == code)
			return (int)mid;
		if ((int)fsck_problems[mid].code < (int)code)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

const struct fsck_problem_def *fsck_problem_find(enum fsck_problem code)
{
	int i = fsck_problem_index(code);

	return i < 0 ? NULL : &fsck_problems[i];
}

const char *fsck_unfixable_why(enum fsck_problem code)
{
	switch (code) {
	case PR_SB_NONE_VALID: return "no superblock to start from";
	case PR_SB_FEATURE_DEPS: case PR_SB_ENCODING:
		return "the feature set is the volume's own; fsck does not change features";
	case PR_SB_BLKDEV_SHORT:
		return "a block device cannot grow: copy the volume to a device large enough (or an image file)";
	case PR_CP_NONE_VALID: return "no checkpoint to start from";
	case PR_CP_SUMMARY_LOAD: return "the log summaries cannot be rebuilt without them";
	case PR_QUOTA_INODE:
		return "recreating a missing or foreign quota inode is not supported (its file is not checked)";
	case PR_RF_CHAIN_LOOP: case PR_RF_DENT_INODE_IN_NAT: case PR_RF_CHAIN_OVERLAP:
		return "the fsync'd chain belongs to the kernel's recovery; a repair re-homes it unchanged";
	default: return "";
	}
}

const char *fsck_severity_name(enum fsck_severity s)
{
	switch (s) {
	case FSCK_SEV_ERROR: return "error";
	case FSCK_SEV_WARN: return "warning";
	case FSCK_SEV_INFO: return "info";
	}
	return "?";
}

const char *fsck_fix_name(enum fsck_fix f)
{
	static const char *const names[] = {
		[FIX_NONE] = "none",
		[FIX_SB_FROM_GOOD_COPY] = "rewrite the superblock copy from the good one",
		[FIX_SB_REBUILD] = "write both superblock copies from the rebuilt one",
		[FIX_SB_FIELD] = "correct the field in both superblock copies",
		[FIX_CP_REWRITE] = "write a new checkpoint pack",
		[FIX_SIT_REBUILD] = "rebuild SIT entries from reachability",
		[FIX_NAT_CLEAR] = "clear the NAT entry",
		[FIX_NAT_SET] = "correct the NAT entry",
		[FIX_SSA_ENTRY] = "rewrite the summary entry",
		[FIX_INODE_FIELD] = "correct the inode field",
		[FIX_NODE_DROP] = "drop the node reference",
		[FIX_DATA_DROP] = "drop the block reference",
		[FIX_DENTRY_DROP] = "drop the directory entry",
		[FIX_DENTRY_FIX] = "correct the directory entry",
		[FIX_DOTS] = "restore '.' and '..'",
		[FIX_RECONNECT] = "reconnect into lost+found",
		[FIX_ORPHAN_LIST] = "rewrite the orphan list",
		[FIX_NAT_BITS] = "rewrite nat_bits",
		[FIX_QUOTA_REBUILD] = "rebuild the quota file from the usage counted",
		[FIX_RELOCATE] = "move the blocks of the class fewer of the section's blocks have to logs of "
				 "their class (as the kernel's GC moves them), and rebuild SIT types",
		[FIX_BLOCK_REMAP] = "move the block addresses to the slots the kernel reads them from "
				    "(new direct nodes where needed) and clear the xattr area",
		[FIX_ROOT_REBUILD] = "make a new root directory, give back the names its dentry "
				     "blocks still hold, and reconnect the rest into lost+found",
		[FIX_DIR_UNINLINE] = "move the inline entries to a new dentry block, each at its hash "
				     "position, as the kernel converts a full inline directory",
		[FIX_UNFIXABLE] = "none (not fixable)",
		[FIX_ZONE_LOG_MOVE] = "move the log to a fresh section whose zone is empty",
		[FIX_ZONE_FINISH] = "finish the zone, so that its write pointer covers every valid block",
		[FIX_ZONE_RESET] = "reset the zone",
		[FIX_IMAGE_GROW] = "grow the image file to the end of the main area (a sparse tail "
				   "of zeroes), before the new checkpoint",
	};

	return (unsigned)f < sizeof(names) / sizeof(names[0]) && names[f] ? names[f] : "?";
}

enum fsck_routine fsck_fix_routine(enum fsck_fix f)
{
	static const enum fsck_routine routine[] = {
		[FIX_SB_FROM_GOOD_COPY] = FSCK_RT_SUPERBLOCK,
		[FIX_SB_REBUILD] = FSCK_RT_SUPERBLOCK,
		[FIX_SB_FIELD] = FSCK_RT_SUPERBLOCK,
		[FIX_CP_REWRITE] = FSCK_RT_CHECKPOINT,
		[FIX_ORPHAN_LIST] = FSCK_RT_CHECKPOINT,
		[FIX_NAT_BITS] = FSCK_RT_CHECKPOINT,
		[FIX_SIT_REBUILD] = FSCK_RT_SIT,
		[FIX_NAT_CLEAR] = FSCK_RT_NAT,
		[FIX_NAT_SET] = FSCK_RT_NAT,
		[FIX_SSA_ENTRY] = FSCK_RT_SUMMARIES,
		[FIX_INODE_FIELD] = FSCK_RT_BLOCKS,
		[FIX_NODE_DROP] = FSCK_RT_BLOCKS,
		[FIX_DENTRY_DROP] = FSCK_RT_BLOCKS,
		[FIX_DENTRY_FIX] = FSCK_RT_BLOCKS,
		[FIX_DATA_DROP] = FSCK_RT_SHARED,
		[FIX_DOTS] = FSCK_RT_DIRS,
		[FIX_RECONNECT] = FSCK_RT_DIRS,
		[FIX_ROOT_REBUILD] = FSCK_RT_DIRS,
		[FIX_DIR_UNINLINE] = FSCK_RT_DIRS,
		[FIX_QUOTA_REBUILD] = FSCK_RT_QUOTA,
		[FIX_RELOCATE] = FSCK_RT_RELOCATE,
		[FIX_BLOCK_REMAP] = FSCK_RT_REMAP,
		[FIX_ZONE_LOG_MOVE] = FSCK_RT_LOGS,
		[FIX_ZONE_FINISH] = FSCK_RT_ZONES,
		[FIX_ZONE_RESET] = FSCK_RT_ZONES,
		[FIX_IMAGE_GROW] = FSCK_RT_IMAGE_GROW,
	};

	return (unsigned)f < sizeof(routine) / sizeof(routine[0]) ? routine[f] : FSCK_RT_NONE;
}

const char *fsck_routine_name(enum fsck_routine rt)
{
	static const char *const names[] = {
		[FSCK_RT_NONE] = "none",
		[FSCK_RT_IMAGE_GROW] = "image_grow",
		[FSCK_RT_ZONES] = "zones",
		[FSCK_RT_DIRS] = "dirs",
		[FSCK_RT_SHARED] = "shared",
		[FSCK_RT_REMAP] = "remap",
		[FSCK_RT_QUOTA] = "quota",
		[FSCK_RT_LOGS] = "logs",
		[FSCK_RT_SUMMARIES] = "summaries",
		[FSCK_RT_RELOCATE] = "relocate",
		[FSCK_RT_BLOCKS] = "blocks",
		[FSCK_RT_NAT] = "nat",
		[FSCK_RT_SIT] = "sit",
		[FSCK_RT_CHECKPOINT] = "checkpoint",
		[FSCK_RT_SUPERBLOCK] = "superblock",
	};

	return (unsigned)rt < sizeof(names) / sizeof(names[0]) && names[rt] ? names[rt] : "?";
}
