/*
 * fsck.h - the one context of an fsck.f2fs run and the interfaces between
 * its passes.
 *
 * A run is: options -> open (read-only) -> pass 1 superblock/checkpoint ->
 * pass 2 SIT -> pass 3 NAT -> pass 4 node walk from the root, the quota
 * inodes and the orphans (pass 5, directories, runs inside it) -> roll-
 * forward chain -> pass 6 SSA -> pass 7 derived state (SIT bitmaps, section
 * counts, free sections, cursegs, counters, nat_bits, leaks) -> summary.
 * Every pass reads and writes only this context; detection code reports
 * only through fsck_problem() (fsck_report.c), with the problem codes of
 * the table in fsck_problem.c, and records a fix only when that call
 * plans it.
 */
#ifndef FSCK_H
#define FSCK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "f2fs_fs.h"
#include "f2fs_json.h"
#include "f2fs_mount.h"
#include "f2fs_nat.h"
#include "f2fs_sit.h"
#include "fsck_problem.h"

/* fsck(8) exit codes. */
#define FSCK_EXIT_OK		0
#define FSCK_EXIT_NONDESTRUCT	1
#define FSCK_EXIT_UNCORRECTED	4
#define FSCK_EXIT_ERROR		8
#define FSCK_EXIT_USAGE		16

/* Value of an object field that is not set. */
#define FSCK_NONE	UINT64_MAX

/* The objects a problem concerns; unset fields are FSCK_NONE / NULL. Use
 * FSCK_OBJ(...) to build one with only the named fields set. */
struct fsck_obj {
	uint64_t nid, ino, segno, secno, blkaddr;
	uint64_t sb, cp;		/* superblock copy / checkpoint pack */
	uint64_t expected, found;	/* numbers the message compares */
	uint64_t idx;			/* slot, entry index or file offset */
	const char *path;
	const char *str;		/* a detail (static or caller-owned) */
};

/* Designated initialisers after the defaults override them on purpose. */
#pragma GCC diagnostic ignored "-Woverride-init"
#define FSCK_OBJ(...) (&(struct fsck_obj){ .nid = FSCK_NONE, .ino = FSCK_NONE, \
	.segno = FSCK_NONE, .secno = FSCK_NONE, .blkaddr = FSCK_NONE, \
	.sb = FSCK_NONE, .cp = FSCK_NONE, .expected = FSCK_NONE, \
	.found = FSCK_NONE, .idx = FSCK_NONE, .path = NULL, .str = NULL, __VA_ARGS__ })

enum fsck_mode {
	FSCK_MODE_CHECK,	/* -n / -N / --dry-run / no option */
	FSCK_MODE_PREEN,	/* -a / -p */
	FSCK_MODE_YES,		/* -y / -f */
};

struct fsck_opts {
	const char *device;
	enum fsck_mode mode;
	bool dry_run;
	bool json;
	bool list_only;		/* -l */
	bool tree;		/* -t */
	int debug;		/* -d N */
	int progress_fd;	/* -C fd, -1 = none */
	bool progress_bar;	/* -C 0 on a terminal */
	unsigned int max_lines;	/* lines printed per problem code */
	bool answer_no;		/* -n / -N given: never ask */
	bool force;		/* -f: a full check even in preen mode */
	bool no_relist;		/* the check after an interactive "y": the
				 * problems were listed already */
	bool recheck;		/* the check after a repair */
	bool full_recheck;	/* --full-recheck: never the targeted re-check */
	bool preen_rw;		/* preen's second run, with write access */
	uint64_t write_limit;	/* --write-limit N (test hook): drop writes after N */
	const char *undo_file;	/* --undo FILE: save what the repair overwrites */
	uint64_t lost_writes;	/* --lose-writes MASK (test hook, lib/devcut.c) */
	const char *read_faults;	/* --read-fault BLK[:short],... (test hook) */
	const char *zone_model;	/* --zone-model FILE: the first device's
				 * emulated zones (lib/zone.c) */
	int nolinear_lookup;	/* --nolinear-lookup=0|1; -1 when not given */
	unsigned int jobs;	/* -j N: threads checking; 0 = one per CPU */
	unsigned int thread_min;	/* --thread-min N (test hook): batches of N
					 * blocks or more go to the workers */
};

/* Per-nid state, calloc'd for max_nid entries (only touched pages become
 * resident). */
struct fsck_nid_info {
	uint32_t links_found;	/* dentries naming this inode */
	uint32_t i_links;
	uint8_t flags;		/* FSCK_NI_* */
	uint8_t ftype;		/* F2FS_FT_* from i_mode */
	uint8_t dropped;	/* an inode the walk refused: every name of it goes */
	uint8_t mode_read;	/* ftype is the inode's own (the walk checked it) */
};

/* Subdirectory counts of directories (fsck_subdirs.c). */
struct fsck_subdir_slot;
struct fsck_subdir_table {
	struct fsck_subdir_slot *slots;
	uint32_t cap, n;
};
#define FSCK_NI_NODE	0x01	/* node reached by the walk */
#define FSCK_NI_INODE	0x02	/* an inode checked by the walk */
#define FSCK_NI_DIR	0x04
#define FSCK_NI_ORPHAN	0x08
#define FSCK_NI_QUOTA	0x10
#define FSCK_NI_QUEUED	0x20	/* inode pushed for checking */
#define FSCK_NI_LOST	0x40	/* reached only as an unreachable inode */
#define FSCK_NI_QCHARGED 0x80	/* charged to its owners' quota usage */

/* One expected summary entry, for the SSA pass. */
struct fsck_ssa_ent {
	uint32_t blkaddr;
	uint32_t nid;
	uint16_t ofs_in_node;
	uint8_t is_node;
	uint8_t pad;
} __attribute__((packed));

struct fsck_stats {
	uint64_t inodes, nodes, data_blocks, new_addr_blocks;
	uint64_t compress_addr_slots;	/* counted ones (not released) */
	uint64_t dirs, files, symlinks, specials, dentries;
	uint64_t orphans, lost_inodes;
	uint64_t chain_nodes;
	uint64_t unverified_hashes;	/* casefolded names we cannot fold */
	uint64_t free_secs, dirty_secs, full_secs;
	uint64_t walk_peak;	/* most inodes waiting on the walk's stack at once */
};

/* What one fsck.f2fs process says across its check, repair and re-check
 * (fsck_report.c): with --json the document is built in memory and
 * printed once at the end; an operational error replaces it with an
 * error object. */
struct fsck_output {
	FILE *json;		/* the document so far; NULL in text mode */
	char *json_buf;
	size_t json_len;
	struct f2fs_json doc;	/* lib/json.c's writer of the document, to json */
	const char *error_code;	/* first operational error (stable), or NULL */
	char error_msg[256];
};

struct fsck_ctx {
	struct fsck_opts opt;
	struct fsck_output *output;
	bool mount_check_only;		/* preen: the kernel did not ask, only
					 * what it validates at mount was checked */
	struct f2fs_fs *fs;
	bool fs_usable;			/* sb + cp loaded: deeper passes can run */
	struct f2fs_sit_model sit;
	bool sit_loaded;
	struct f2fs_nat_model nat;
	bool nat_loaded;

	uint64_t main_blocks;
	uint8_t *reach;			/* bit per main block: referenced */
	uint8_t *nat_addr;		/* bit per main block: named by a NAT entry */
	uint8_t *chain;			/* bit per main block: roll-forward chain */
	uint8_t *seg_kind;		/* per segment: 1 data seen, 2 node seen, 4 reported,
					 * 8 footer checked (fsck_pass_ssa.c), 16 summary
					 * asked and 32 it holds nodes (fsck_pass_nodes.c) */
	struct fsck_nid_info *ni;	/* max_nid entries */
	/* node blocks valid in SIT that no NAT entry names (fsck_pass_nat.c) */
	struct fsck_unnamed_node *unnamed;
	uint32_t n_unnamed;
	struct fsck_subdir_table subdirs;

	uint32_t *orphans;		/* inos from the orphan blocks */
	uint32_t n_orphans;

	struct fsck_ssa_ent *ssa;	/* pending summary checks */
	uint32_t n_ssa, cap_ssa;

	struct fsck_stats st;
	/* problem bookkeeping (fsck_report.c) */
	uint32_t *code_count;		/* per table index */
	uint64_t n_errors, n_warnings, n_infos;
	FILE *out;
	int exit_override;		/* operational error seen: exit 8 */
	bool muted;			/* re-checking a fixed copy: report nothing */
	bool preen_refused;		/* preen met a problem it may not fix:
					 * nothing is written (fsck_problem()) */

	/* the plan of the run: the fixes the passes record under
	 * fsck_problem()'s answer (fsck_fix.c), in every mode: -n lists the
	 * problems, --dry-run applies the plan to a device that drops its
	 * writes, -y and preen apply it in one checkpoint (fsck_repair.c).
	 * Allocated with the maps after pass 1 (NULL before). */
	struct fsck_plan *plan;
	/* quota usage and files (fsck_quota.c); NULL without quota_ino */
	struct fsck_quota *quota;
	/* zoned volumes: the zone of each section (fsck_pass_zone.c); NULL
	 * when no device of the volume is zoned */
	struct fsck_zones *zones;
};

/* Where a directory entry lives, so a fix can rewrite it: a dentry block
 * (a data block of the directory) or the inline area of the directory
 * inode.  Offsets are bytes inside that 4 KiB block.  Every item waiting
 * on the walk's stack holds one (100,000 for a directory of 100,000
 * names), so it keeps only what it cannot derive: the names follow the
 * entries in both areas (fsck_dent_names()), and only the inline area
 * starts past the block's first byte (fsck_dent_inline()).  Slots fit a
 * byte: a block has 214, an inline area fewer. */
struct fsck_dent_loc {
	uint32_t dir_ino;	/* 0: no location */
	uint32_t blkaddr;	/* dentry block, or the directory inode's block */
	uint32_t owner;		/* node holding the block's address (blocks) */
	uint16_t owner_ofs;	/* ofs_in_node of that address */
	uint8_t slot, nslots;
	uint16_t bitmap_off, de_base;
};

/* Where the area's names begin: past its nslots entries. */
static inline uint32_t fsck_dent_names(const struct fsck_dent_loc *loc)
{
	return loc->de_base + (uint32_t)loc->nslots * SIZE_OF_DIR_ENTRY;
}

/* Whether the area is a directory inode's inline one (its bitmap comes
 * after the inode's fields; a dentry block's opens the block). */
static inline bool fsck_dent_inline(const struct fsck_dent_loc *loc)
{
	return loc->bitmap_off != 0;
}

/* ---- fsck_report.c ---- */
void fsck_report_init(struct fsck_ctx *ctx);
/* The one call of a detection site: report the problem with its objects
 * (counted, and printed as text or JSON) and return whether its fix is
 * planned in this run, decided from its table entry (its fix kind, its
 * preen safety) and the run's mode.  A site records its fix only when the
 * answer is true: `if (fsck_problem(ctx, PR_X, FSCK_OBJ(...))) fix...`. */
bool fsck_problem(struct fsck_ctx *ctx, enum fsck_problem code, const struct fsck_obj *obj);
/* Diagnostics (stderr), for operational errors and -d output. */
void fsck_diag(const struct fsck_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void fsck_debug(const struct fsck_ctx *ctx, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* An operational error (exit 8): printed on stderr, and recorded with its
 * stable code (e.g. "not_f2fs") for the JSON error object. */
void fsck_fail(struct fsck_ctx *ctx, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void fsck_print_summary(struct fsck_ctx *ctx);
/* After the check of a repairing run: the outcome ("written", "dry_run",
 * "refused") and, in JSON, the fixes and the blocks written. */
void fsck_print_repair(struct fsck_ctx *ctx, const char *outcome, uint64_t written);
/* Start and end the process's output (the JSON document, or nothing). */
int fsck_output_open(struct fsck_output *out, const char *device, bool json);
void fsck_output_finish(struct fsck_output *out, const char *device, int exit_code);
/* --json with a command line refused (exit 16): the error object alone. */
void fsck_print_usage_error_json(int exit_code);
void fsck_progress(struct fsck_ctx *ctx, int pass, uint64_t cur, uint64_t max);
/* Threads a step may use, this one included (-j N, else the CPUs online;
 * fsck_digest.c). */
unsigned int fsck_jobs_wanted(const struct fsck_ctx *ctx);
void fsck_report_free(struct fsck_ctx *ctx);

/* ---- the passes ---- */
/* Pass 1: both superblock copies, both packs, the chosen checkpoint, its
 * summaries, journals and orphan blocks.  Returns false when there is no
 * usable superblock + checkpoint (the check cannot go on). */
bool fsck_pass_super(struct fsck_ctx *ctx);
/* After the SIT pass: a truncated device (the main area runs past its
 * end), with how many blocks in use lie past the end. */
void fsck_check_device_end(struct fsck_ctx *ctx);
int fsck_pass_sit(struct fsck_ctx *ctx);
int fsck_pass_nat(struct fsck_ctx *ctx);
int fsck_pass_nodes(struct fsck_ctx *ctx);
/* The link counts of every inode against what ctx->ni recorded (the end
 * of the node walk; the targeted re-check runs it over imported state). */
void fsck_check_links(struct fsck_ctx *ctx);
int fsck_pass_rollforward(struct fsck_ctx *ctx);
/* The footer version of the nodes the roll-forward chain holds after the
 * checkpoint in use, and whether node n carries it (fsck_pass_rollfwd.c). */
uint64_t fsck_chain_version(const struct f2fs_fs *fs);
bool fsck_chain_node_belongs(const struct f2fs_fs *fs, uint64_t want, const struct f2fs_node *n);
int fsck_pass_ssa(struct fsck_ctx *ctx);
int fsck_pass_verify(struct fsck_ctx *ctx);
/* The walk found nid (owned by ino, at node offset ofs) with an empty NAT
 * entry: take back its block if pass 3 found it unnamed (reported). */
bool fsck_nat_restore(struct fsck_ctx *ctx, uint32_t nid, uint32_t ino, uint32_t ofs);
/* An entry names ino, whose NAT entry has another owner: if its block is
 * a sound inode block of ino, the owner was what broke: report it and set
 * it to ino in the model (true). */
bool fsck_nat_fix_inode_owner(struct fsck_ctx *ctx, uint32_t ino);
/* After the walk: quota files against the usage the walk charged
 * (fsck_quota.c); plans the rebuild of the files found wrong. */
int fsck_pass_quota(struct fsck_ctx *ctx);
/* When repairing (after the other fixes are recorded): rebuild the quota
 * files found wrong, or made wrong by a fix that changed an inode. */
int fsck_quota_rebuild(struct fsck_ctx *ctx);
/* Whether every quota file was checked and is right after the repair. */
bool fsck_quota_settled(const struct fsck_ctx *ctx);
void fsck_quota_free(struct fsck_ctx *ctx);
/* Preen without -f, after pass 1 (fsck_preen.c): whether the kernel has
 * asked for nothing and the volume passes what it validates at mount, so
 * the run may stop (sets ctx->mount_check_only). */
bool fsck_preen_may_stop(struct fsck_ctx *ctx);
/* -l: print superblock and checkpoint fields. */
void fsck_print_sb_cp(struct fsck_ctx *ctx);
/* Before the check (fsck_tune.c): apply --nolinear-lookup, or print a
 * casefolded volume's linear_lookup line.  -1 to go on, or an exit code. */
int fsck_linear_lookup(const struct fsck_opts *o);
void fsck_print_linear_lookup(const struct fsck_ctx *ctx);

/* ---- zoned volumes (fsck_pass_zone.c) ---- */
/* Map the sections to the zones of the volume's zoned devices (nothing
 * when there are none); -ENOMEM. */
int fsck_zone_map(struct fsck_ctx *ctx);
/* The write pointers against the SIT and the logs (after pass 7). */
int fsck_pass_zone(struct fsck_ctx *ctx);
void fsck_zone_free(struct fsck_ctx *ctx);
/* Whether main-area block addr is below its zone's capacity. */
bool fsck_zone_addr_usable(const struct fsck_ctx *ctx, uint32_t addr);
/* Blocks of segment segno below its zone's capacity (512 unless zoned). */
uint32_t fsck_zone_usable_in_seg(const struct fsck_ctx *ctx, uint32_t segno);
/* Whether a log may start writing at the start of section secno: not a
 * sequential zone, or one that is empty (or that the repair resets). */
bool fsck_zone_sec_writable(const struct fsck_ctx *ctx, uint32_t secno);
/* Whether a log at segno/blkoff is at its zone's write pointer (true
 * when not in a sequential zone). */
bool fsck_zone_log_at_wp(const struct fsck_ctx *ctx, uint32_t segno, uint32_t blkoff);
/* Repair: reset and finish the zones the pass recorded (before anything
 * is written), and reset those only the new checkpoint frees (after it). */
int fsck_zone_apply(struct fsck_ctx *ctx);
int fsck_zone_apply_after_commit(struct fsck_ctx *ctx);

/* ---- repair (fsck_fix.c records fixes, fsck_repair.c applies them) ---- */
#include "fsck_repair.h"

/* ---- fsck_subdirs.c ---- */
/* Count one more subdirectory of directory ino; -ENOMEM. */
int fsck_subdirs_add(struct fsck_ctx *ctx, uint32_t ino);
uint32_t fsck_subdirs(const struct fsck_ctx *ctx, uint32_t ino);
void fsck_subdirs_free(struct fsck_ctx *ctx);

/* ---- helpers shared by passes (fsck_util.c) ---- */

/* Call fn for every nid of every NAT block that holds entries in use
 * (blocks with nothing but the reserved nids are skipped). */
typedef void (*fsck_nid_fn)(struct fsck_ctx *ctx, uint32_t nid);
void fsck_for_each_nat_entry(struct fsck_ctx *ctx, fsck_nid_fn fn);
static inline bool fsck_bit(const uint8_t *map, uint64_t nr)
{
	return (map[nr >> 3] >> (nr & 7)) & 1;
}
static inline void fsck_set(uint8_t *map, uint64_t nr)
{
	map[nr >> 3] |= (uint8_t)(1u << (nr & 7));
}
/* Whether any of the n bytes at p is not zero. */
bool fsck_any_nonzero(const uint8_t *p, size_t n);
/* Whether addr is a block address of the main area. */
bool fsck_addr_in_main(const struct fsck_ctx *ctx, uint32_t addr);
/* Whether addr is valid in the loaded SIT (false when SIT not loaded). */
bool fsck_sit_valid(const struct fsck_ctx *ctx, uint32_t addr);
/* Queue an expected summary entry (flushes the SSA pass when full). */
int fsck_expect_summary(struct fsck_ctx *ctx, uint32_t blkaddr, uint32_t nid,
			uint16_t ofs_in_node, bool is_node);
/* The NAT entry of nid, or false when unknown/out of range. */
bool fsck_nat_lookup(const struct fsck_ctx *ctx, uint32_t nid, struct f2fs_nat_entry *e);
/* A hint that nid's NAT entry and info are looked at soon (see
 * f2fs_nat_prefetch()); any nid is fine. */
void fsck_prefetch_nid(const struct fsck_ctx *ctx, uint32_t nid);
/* Check and flush the queued summary entries (fsck_pass_ssa.c). */
int fsck_ssa_flush(struct fsck_ctx *ctx);

#endif
