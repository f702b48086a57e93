/*
 * inject.h - inject.f2fs, the field-level corruption tool: its options,
 * the per-run context, the member tables and the helpers every target
 * (sb, cp, nat, sit, ssa, node, dent, raw block) shares.
 *
 * Every change is made the same way: find the block(s) that hold the
 * member, read them, patch the member's bytes, repair the checksum that
 * covers them when asked to, and write the block(s) back through the
 * device layer (which drops the writes in a dry run).
 */
#ifndef INJECT_H
#define INJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "f2fs_fs.h"
#include "f2fs_mount.h"

enum inj_target {
	INJ_NONE = 0,
	INJ_SB,
	INJ_CP,
	INJ_NAT,
	INJ_SIT,
	INJ_SSA,
	INJ_NODE,
	INJ_DENT,
	INJ_BLK,	/* --blk ADDR --mb raw with no other target */
};

/* Which checkpoint block(s) of a pack a cp change is written to. */
enum inj_cp_blocks {
	INJ_CP_BOTH = 0,
	INJ_CP_FIRST,
	INJ_CP_LAST,
};

struct inject_opts {
	const char *device;
	enum inj_target target;
	int pack;		/* --sb/--cp/--nat/--sit: 0 current, 1 first, 2 second */
	const char *mb;
	bool has_val, val_negative;
	uint64_t val;		/* two's complement when val_negative */
	const char *str;
	bool has_idx;
	uint32_t idx;
	bool has_nid;
	uint32_t nid;
	bool has_blk;
	uint32_t blk;
	bool has_segno;
	uint32_t segno;
	bool has_parent;
	uint32_t parent;
	int dots;		/* --dots: 0 none, 1 '.', 2 '..' */
	bool journal;		/* --journal: the NAT/SIT journal entry */
	bool raw_ssa;		/* --ssa-area: the SSA block even for a log */
	enum inj_cp_blocks cp_blocks;
	bool no_fix_checksum;
	const char *undo_file;	/* --undo: save the blocks it overwrites */
	bool dry_run;
	int debug;
};

/* What was changed, for the one-line report. */
struct inj_change {
	char where[128];	/* e.g. "node nid 4 (blkaddr 0x1201)" */
	char member[80];	/* e.g. "i_addr[9]" */
	char old_val[300];
	char new_val[300];
};

struct inj_ctx {
	const struct inject_opts *o;
	struct f2fs_fs *fs;	/* never NULL once opened */
	int open_err;		/* what f2fs_fs_open() returned */
	struct inj_change ch;
	unsigned int writes;
};

/* ---- member tables ------------------------------------------------------ */

#define INJ_F_HEX	0x01	/* print in hex */
#define INJ_F_STR	0x02	/* a byte string, set with --str */

struct inj_field {
	const char *name;
	uint32_t offset;	/* of element 0 within the structure */
	uint16_t size;		/* element size (1, 2, 4, 8; string length) */
	uint16_t count;		/* elements; 1 for a scalar */
	uint16_t stride;	/* distance between elements; 0 means size */
	uint8_t flags;
};

#define INJ_SCALAR(type, member, fl) \
	{ #member, offsetof(type, member), sizeof(((type *)0)->member), 1, 0, (fl) }
#define INJ_ARRAY(type, member, fl) \
	{ #member, offsetof(type, member), sizeof(((type *)0)->member[0]), \
	  sizeof(((type *)0)->member) / sizeof(((type *)0)->member[0]), 0, (fl) }
#define INJ_STRING(type, member) \
	{ #member, offsetof(type, member), sizeof(((type *)0)->member), 1, 0, INJ_F_STR }
#define INJ_NAMED(name, type, member, fl) \
	{ name, offsetof(type, member), sizeof(((type *)0)->member), 1, 0, (fl) }

/* Find a member by name in a table ended by a NULL name. */
const struct inj_field *inj_field_find(const struct inj_field *tab, const char *name);
/* Element --idx (or 0 for a scalar) of f: its offset within the structure.
 * Fails (message printed) when the index is missing or out of range. */
int inj_field_offset(struct inj_ctx *c, const struct inj_field *f, uint32_t *off);
/* Apply --val/--str to member f of the structure at base (len bytes),
 * recording the change.  Returns 0 or -1 (message printed). */
int inj_field_apply(struct inj_ctx *c, const struct inj_field *f, uint8_t *base,
		    size_t len);
/* The byte range [*start, *end) that inj_field_apply() changes. */
void inj_field_range(struct inj_ctx *c, const struct inj_field *f, uint32_t *start,
		     uint32_t *end);
/* Set an integer of `size` bytes at p from --val (checked to fit) and
 * record old/new. */
int inj_set_uint(struct inj_ctx *c, uint8_t *p, unsigned int size, bool hex,
		 const char *member);
/* --mb raw --idx OFFSET --val BYTE on a buffer of len bytes; *off gets
 * the offset patched. */
int inj_set_raw(struct inj_ctx *c, uint8_t *base, size_t len, uint32_t *off);
/* -h: one "  member: description" line per member, the format fstests
 * greps for ("inject.f2fs --node 0 -h | grep i_links:").  what names the
 * structure ("inode", "superblock"). */
void inj_field_list(const struct inj_field *tab, const char *what);
void inj_member_line(const char *name, const char *what);

uint64_t inj_get_uint(const uint8_t *p, unsigned int size);
void inj_put_uint(uint8_t *p, unsigned int size, uint64_t v);
/* Whether --val fits in `bits` bits (negative values as two's complement). */
bool inj_val_fits(const struct inject_opts *o, unsigned int bits);
void inj_fmt_uint(char *buf, size_t size, uint64_t v, bool hex);

/* ---- shared helpers (inject_main.c / inject_io.c) ----------------------- */

int inj_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void inj_dbg(const struct inj_ctx *c, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void inj_where(struct inj_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

int inj_read_block(struct inj_ctx *c, uint64_t blkaddr, void *buf);
int inj_write_block(struct inj_ctx *c, uint64_t blkaddr, const void *buf);
/* A volume with a valid superblock and checkpoint is needed. */
int inj_need_fs(struct inj_ctx *c, const char *what);
int inj_need_sb(struct inj_ctx *c, const char *what);
/* The NAT entry of nid: from the NAT journal if there, else the current
 * NAT block. */
int inj_lookup_nat(struct inj_ctx *c, uint32_t nid, struct f2fs_nat_entry *ne);
/* Read the node block of nid (through the NAT); *blkaddr receives where. */
int inj_read_node(struct inj_ctx *c, uint32_t nid, struct f2fs_node *node,
		  uint32_t *blkaddr, struct f2fs_nat_entry *ne);
/* Main-area segment of --blk or --segno. */
int inj_target_segno(struct inj_ctx *c, uint32_t *segno);
/* The log type whose current segment is segno, or -1. */
int inj_curseg_type(const struct f2fs_fs *fs, uint32_t segno);

/* Where part of a current-segment summary lives in the checkpoint pack
 * (or in the SSA area for node logs without node summaries). */
enum inj_sum_part {
	INJ_SUM_ENTRY,
	INJ_SUM_JOURNAL,
	INJ_SUM_FOOTER,
};
int inj_cursum_locate(struct inj_ctx *c, int type, enum inj_sum_part part,
		      uint32_t entry, uint64_t *blkaddr, uint32_t *offset);

/* A checkpoint journal (NAT in the HOT_DATA summary, SIT in COLD_DATA):
 * inj_journal_entry() patches its count member, the key of a slot, or
 * (through set) the entry body after the 4-byte key. */
struct inj_journal_kind {
	int curseg;
	const char *name;		/* "nat" / "sit" */
	const char *count_mb;		/* "n_nats" / "n_sits" */
	const char *key_mb;		/* "nid" / "segno" */
	const char *missing;		/* message when the key is not journalled */
	size_t entry_size;
	unsigned int slots;
};
typedef int (*inj_entry_setter)(struct inj_ctx *c, uint8_t *body);
int inj_journal_entry(struct inj_ctx *c, const struct inj_journal_kind *k, int slot,
		      inj_entry_setter set);

/* ---- checkpoint packs (inject_cp.c, inject_cp_extra.c) ----------------- */

struct inj_cp_pack {
	int index;		/* 0: pack 1, 1: pack 2 */
	uint32_t start;		/* first block */
	uint32_t payload;	/* cp_payload blocks following the cp block */
	uint32_t total;		/* cp_pack_total_block_count when sane, else 0 */
	uint8_t *buf;		/* cp block + payload blocks */
	struct f2fs_checkpoint *cp;
};

int inj_cp_open_pack(struct inj_ctx *c, struct inj_cp_pack *p);
void inj_cp_close_pack(struct inj_cp_pack *p);
void inj_cp_fix_crc(struct inj_ctx *c, struct f2fs_checkpoint *cp);
/* Write the cp block (first/last/both per --cp-blk) and dirty payload blocks. */
int inj_cp_write_pack(struct inj_ctx *c, struct inj_cp_pack *p,
		      enum inj_cp_blocks which, bool payload_dirty[]);
int inject_cp_extra(struct inj_ctx *c);
/* Fix the inode checksum of node when it carries one (and may be fixed). */
void inj_node_fix_checksum(struct inj_ctx *c, struct f2fs_node *node);

/* ---- targets ------------------------------------------------------------ */

int inject_sb(struct inj_ctx *c);
int inject_cp(struct inj_ctx *c);
int inject_nat(struct inj_ctx *c);
int inject_sit(struct inj_ctx *c);
int inject_ssa(struct inj_ctx *c);
int inject_node(struct inj_ctx *c);
int inject_dent(struct inj_ctx *c);
int inject_blk(struct inj_ctx *c);

/* Member tables, for -h and the man page test. */
extern const struct inj_field inj_sb_fields[];
extern const struct inj_field inj_cp_fields[];
void inject_list_node_members(void);
void inject_list_members(enum inj_target t);

#endif
