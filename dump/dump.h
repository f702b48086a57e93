/*
 * dump.h - dump.f2fs: the per-run context, the output layer shared by the
 * text and JSON renderings, and the entry points of each view.
 *
 * One struct dump_ctx is created per run in dump_main.c and passed to
 * every view; there is no global state.  Views never call exit(): they
 * return 0 or a negative errno and set ctx->errmsg for the one-line
 * message dump_main.c prints.
 */
#ifndef DUMP_H
#define DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "f2fs_fs.h"
#include "f2fs_err.h"
#include "f2fs_json.h"
#include "f2fs_mount.h"

/* ---- output: one JSON document, or text ------------------------------ */

struct dump_out {
	FILE *f;
	bool json;
	bool started;		/* the JSON writer is set up (at the first item) */
	struct f2fs_json j;	/* lib/json.c: pretty, ASCII-only strings */
};

/* JSON structure.  key is NULL for array elements and the top object. */
void out_obj_begin(struct dump_out *o, const char *key);
void out_obj_end(struct dump_out *o);
void out_arr_begin(struct dump_out *o, const char *key);
void out_arr_end(struct dump_out *o);
void out_u64(struct dump_out *o, const char *key, uint64_t v);
void out_i64(struct dump_out *o, const char *key, int64_t v);
void out_bool(struct dump_out *o, const char *key, bool v);
void out_null(struct dump_out *o, const char *key);
/* A string of len bytes (not necessarily NUL-terminated); bytes that are
 * not printable ASCII are escaped as \u00XX. */
void out_strn(struct dump_out *o, const char *key, const char *s, size_t len);
void out_str(struct dump_out *o, const char *key, const char *s);
/* Bytes as a lower-case hex string. */
void out_hex(struct dump_out *o, const char *key, const uint8_t *b, size_t len);

/* A key and a value: a "key [0x hex : dec]" / "key value" line in text,
 * a member in JSON. */
void kv_u64(struct dump_out *o, const char *key, uint64_t v);
void kv_str(struct dump_out *o, const char *key, const char *s);
void kv_bool(struct dump_out *o, const char *key, bool v);

/* Tables: one column list drives the text header and rows and the JSON
 * objects of an array, so the two renderings cannot disagree. */
enum dump_col_kind { COL_U64, COL_HEX, COL_STR, COL_I64 };

struct dump_col {
	const char *name;
	int width;		/* text column width */
	enum dump_col_kind kind;
};

struct dump_val {
	uint64_t u;
	const char *s;		/* COL_STR; NULL prints "-" / null */
	bool none;		/* COL_U64: no value ("-" / null) */
};

struct dump_table {
	struct dump_out *o;
	const struct dump_col *cols;
	int ncols;
};

void table_begin(struct dump_table *t, struct dump_out *o, const char *key,
		 const struct dump_col *cols, int ncols);
void table_row(struct dump_table *t, const struct dump_val *vals);
void table_end(struct dump_table *t);

/* Copy a NUL-padded on-disk string into buf (always terminated). */
void dump_cstr(char *buf, size_t size, const uint8_t *src, size_t srclen);

/* Field tables (dump_super.c renders them as text or JSON). */
enum field_kind {
	FK_UINT,	/* little-endian unsigned of size 1, 2, 4 or 8 */
	FK_STR,		/* NUL-padded byte string */
	FK_UTF16,	/* UTF-16LE string (volume_name) */
	FK_UUID,
	FK_HEX,		/* raw bytes */
	FK_EXTLIST,	/* extension_list */
	FK_DEVS,	/* devs[] */
};

struct dump_field {
	const char *name;
	uint32_t off;
	uint16_t size;		/* element size in bytes */
	uint16_t count;		/* 1 for scalars, else array length */
	enum field_kind kind;
};

struct dump_ctx;
struct f2fs_super_block;
/* Print n fields of the structure at base (sb is needed by FK_EXTLIST and
 * FK_DEVS only). */
void dump_print_fields(struct dump_ctx *ctx, const struct dump_field *t, size_t n,
		       const void *base, const struct f2fs_super_block *sb);

/* ---- options and context -------------------------------------------- */

struct dump_range {
	bool set;
	uint64_t a, b;		/* inclusive; b == UINT64_MAX means "to the end" */
};

struct dump_opts {
	const char *device;
	int debug;			/* -d */
	bool json;			/* --json */
	const char *output;		/* --output FILE (default stdout) */
	bool super;			/* --super, or default view */
	bool have_ino;			/* -i */
	uint32_t ino;
	const char *out_dir;		/* -o */
	bool preserve;			/* -P */
	bool keep_symlinks;		/* -L */
	bool from_root;			/* -r */
	bool block_map;			/* -M */
	struct dump_range nat;		/* -n */
	struct dump_range sit;		/* -s */
	struct dump_range ssa;		/* -a */
	struct dump_range sections;	/* --sections[=a~b] */
	bool nat_bits;			/* --nat-bits */
	bool zones;			/* --zones */
	const char *zone_model;		/* --zone-model FILE: device 0's emulated zones */
	bool have_blk;			/* -b */
	uint32_t blkaddr;
	bool scan;			/* -I */
	uint32_t scan_ino;
};

struct dump_ctx {
	struct dump_opts opt;
	struct f2fs_fs *fs;
	int open_err;			/* f2fs_fs_open() result */
	int members_err;		/* opening devices 1.. of the volume */
	uint32_t members_failed;	/* the device that could not be opened */
	struct dump_out out;
	char errmsg[256];		/* one-line reason when a view fails */
	/* one-block cache for NAT lookups (dump_node.c) */
	uint32_t nat_cache_block;	/* UINT32_MAX: empty */
	uint8_t nat_cache[F2FS_BLKSIZE];
};

/* Record the one-line message for a failure and return err. */
int dump_fail(struct dump_ctx *ctx, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- views ------------------------------------------------------------ */

/* dump_super.c: every superblock and checkpoint field. */
int dump_super_view(struct dump_ctx *ctx);
/* Report (stderr) which superblock copy / checkpoint pack is used and why
 * the other one was rejected. */
void dump_report_fallbacks(struct dump_ctx *ctx);

/* dump_sections.c: per-section table with totals (--sections). */
int dump_sections_view(struct dump_ctx *ctx);
/* dump_zones.c: zones of the zoned devices beside their sections (--zones). */
int dump_zones_view(struct dump_ctx *ctx);
/* dump_sit.c: SIT entries of a segment range (-s). */
int dump_sit_view(struct dump_ctx *ctx);
/* dump_ssa.c: SSA blocks of a segment range (-a). */
int dump_ssa_view(struct dump_ctx *ctx);
/* dump_nat.c: NAT entries with both copies and the journal (-n). */
int dump_nat_view(struct dump_ctx *ctx);
/* dump_natbits.c: nat_bits state (--nat-bits). */
int dump_nat_bits_view(struct dump_ctx *ctx);
/* dump_inode.c: inode fields, xattrs, block map (-i, -M). */
int dump_inode_view(struct dump_ctx *ctx);
/* dump_extract.c: write files and directories out (-o with -i or -r). */
int dump_extract(struct dump_ctx *ctx);
/* dump_block.c: reverse map of one block address (-b). */
int dump_block_view(struct dump_ctx *ctx);
/* dump_scan.c: every node block of an inode, current or not (-I). */
int dump_scan_view(struct dump_ctx *ctx);

/* ---- shared readers --------------------------------------------------- */

/* dump_sit.c: one segment's SIT entry as the kernel would load it. */
struct dump_seg {
	uint32_t segno;
	struct f2fs_sit_entry raw;
	int source;		/* 0/1: SIT copy, 2: journal */
};
/* Call fn for every segment in [a, b] (clamped to the main area), reading
 * only the SIT blocks of that range, in batches, with the journal applied. */
typedef int (*dump_seg_fn)(struct dump_ctx *ctx, const struct dump_seg *s, void *arg);
int dump_sit_range(struct dump_ctx *ctx, uint32_t a, uint32_t b,
		   dump_seg_fn fn, void *arg);
/* Read one segment's entry. */
int dump_sit_one(struct dump_ctx *ctx, uint32_t segno, struct dump_seg *s);
const char *dump_seg_type_name(unsigned int type);
/* Index of the current segment (CURSEG_*) for segno, or -1. */
int dump_curseg_of(const struct dump_ctx *ctx, uint32_t segno);

/* dump_node.c: NAT lookups and node reads. */
int dump_nat_lookup(struct dump_ctx *ctx, uint32_t nid, struct f2fs_nat_entry *e,
		    bool *from_journal);
/* Read node nid; checks the address is in the main area and the footer
 * names nid.  buf is 4096 bytes. */
int dump_read_node(struct dump_ctx *ctx, uint32_t nid, struct f2fs_node *buf,
		   uint32_t *blkaddr);
bool dump_is_valid_data_addr(const struct dump_ctx *ctx, uint32_t addr);
/* First data slot and number of data slots of an inode block. */
uint32_t dump_inode_extra_words(const struct f2fs_inode *ri);
uint32_t dump_inline_xattr_words(const struct dump_ctx *ctx, const struct f2fs_inode *ri);
uint32_t dump_addrs_per_inode(const struct dump_ctx *ctx, const struct f2fs_inode *ri);
/* Data slots of a direct node of this inode (fewer for compressed files). */
uint32_t dump_addrs_per_block(const struct dump_ctx *ctx, const struct f2fs_inode *ri);
/* log2 of the cluster size of a compressed file, 0 if not compressed. */
uint32_t dump_cluster_log(const struct dump_ctx *ctx, const struct f2fs_inode *ri);
/* Inline data area: pointer and size in bytes. */
const uint8_t *dump_inline_data(const struct dump_ctx *ctx, const struct f2fs_inode *ri,
				size_t *size);
/* First file block index covered by a node with this node offset. */
uint64_t dump_start_bidx(const struct dump_ctx *ctx, const struct f2fs_inode *ri,
			 uint32_t node_ofs);

/* dump_fmap.c: walk the data blocks of an inode.  fn gets every slot
 * (holes excluded) in file order; node_fn (may be NULL) every node block
 * of the inode (inode block excluded). Walking stops past i_size. */
typedef int (*dump_blk_fn)(struct dump_ctx *ctx, uint64_t fofs, uint32_t addr, void *arg);
typedef int (*dump_node_fn)(struct dump_ctx *ctx, uint32_t nid, uint32_t addr,
			    uint32_t node_ofs, void *arg);
int dump_walk_file(struct dump_ctx *ctx, const struct f2fs_node *inode,
		   dump_blk_fn fn, dump_node_fn node_fn, void *arg);

/* dump_xattr.c: iterate the xattrs of an inode (inline area + xattr node). */
struct dump_xattr {
	uint8_t index;
	const char *prefix;	/* "user." etc., "" if unknown */
	const uint8_t *name;
	uint8_t name_len;
	const uint8_t *value;
	uint16_t value_len;
};
typedef int (*dump_xattr_fn)(struct dump_ctx *ctx, const struct dump_xattr *x, void *arg);
int dump_for_each_xattr(struct dump_ctx *ctx, const struct f2fs_node *inode,
			dump_xattr_fn fn, void *arg);

/* dump_compat.c: f2fs-tools' spelling of what scripts parse (text only). */
void dump_compat_info(struct dump_ctx *ctx);
void dump_compat_sb_fields(struct dump_ctx *ctx, const char *volume_name);
void dump_compat_cp_fields(struct dump_ctx *ctx, const struct f2fs_checkpoint *cp);
void dump_compat_i_addr(struct dump_ctx *ctx, const struct f2fs_inode *ri);
void dump_compat_node_debug(struct dump_ctx *ctx, uint32_t nid, const struct f2fs_node *node);
void dump_compat_i_name(struct dump_ctx *ctx, const struct f2fs_inode *ri);
void dump_compat_i_ext(struct dump_ctx *ctx, const struct f2fs_inode *ri);
void dump_compat_xattr(struct dump_ctx *ctx, const struct dump_xattr *x);

/* dump_main.c: parse "a~b" / decimal / 0x-hex numbers. */
int dump_parse_u32(const char *s, uint32_t *v);
int dump_parse_range(const char *s, struct dump_range *r);

#endif
