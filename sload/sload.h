/*
 * sload.h - sload.f2fs: one context per run, passed to every step.
 *
 * The tree is walked depth first.  A directory's children get their nids
 * first; each child is then written completely (data, node blocks, inode)
 * before the next, and the directory's dentry blocks and inode come last.
 * Inodes of files with more than one link wait in memory until the walk
 * has counted their names.
 */
#ifndef SLOAD_H
#define SLOAD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#include "f2fs_fs.h"
#include "f2fs_mount.h"
#include "f2fs_sit.h"
#include "f2fs_nat.h"
#include "f2fs_alloc.h"
#include "f2fs_commit.h"

struct sload_fs_config;
struct sload_contexts;
struct sload_quota;

struct sload_opts {
	const char *source;		/* -f */
	const char *tar;		/* --tar, or -f naming a file: an archive ("-": stdin) */
	bool any_order;			/* --any-order: tar entries in any order */
	const char *device;
	const char *mount_point;	/* -t: prefix of paths in fs_config/file_contexts */
	const char *fs_config;		/* -C */
	const char *file_contexts;	/* -s */
	const char *product_out;	/* -p */
	int debug;			/* -d */
	bool have_timestamp;		/* -T */
	uint64_t timestamp;
	bool preserve_owner;		/* -P */
	bool no_inline_data;		/* --no-inline-data */
	uint64_t write_limit;		/* --write-limit (tests) */
	uint32_t nat_writeback;		/* --nat-writeback (tests): nids between NAT write-backs */
	bool builtin_contexts;		/* --builtin-contexts (tests): not libselinux */
	bool compress;			/* -c */
	bool release;			/* -r */
	unsigned int algorithm;		/* -a */
	unsigned int log_cluster;	/* -L */
	unsigned int min_saved;		/* -m: blocks a cluster must save */
	const char *ext_include[16];	/* -i */
	const char *ext_exclude[16];	/* -x */
	int n_include, n_exclude;
};

/* An inode whose link count the walk is still counting. */
struct sload_link {
	dev_t dev;
	ino_t ino;
	uint32_t nid;
	uint32_t links;
	struct f2fs_node *node;		/* built, written at the end */
	int log;
};

/* A name to put in a directory being built. */
struct sload_dent {
	char *name;
	uint16_t len;
	uint8_t type;
	uint32_t ino;
	uint32_t hash;
};

/* An extended attribute of a tar entry ("user.x", value). */
struct sload_xattr {
	char *name;
	uint8_t *value;
	size_t len;
};

struct sload_stats {
	uint64_t files, dirs, symlinks, specials, hardlinks, xattr_nodes;
	uint64_t compressed_files, compressed_clusters;
	uint64_t data_blocks, node_blocks;
	uint64_t merged_dirs, skipped;	/* directories the volume had; names it had */
};

struct sload_ctx {
	struct sload_opts o;
	struct f2fs_fs *fs;
	struct f2fs_sit_model sit;
	struct f2fs_nat_model nat;
	struct f2fs_logs logs;
	struct f2fs_nid_alloc nids;
	struct f2fs_commit_plan plan;
	uint64_t cp_ver;		/* node footers */
	uint32_t extra_words;		/* i_extra_isize / 4, 0 without extra_attr */
	uint32_t xattr_words;		/* inline xattr area of the inodes we make */
	int64_t block_delta, node_delta, inode_delta;
	struct sload_link *links;
	size_t n_links, cap_links;
	struct sload_fs_config *fsc;
	struct sload_contexts *sec;
	struct sload_quota *quota;	/* per type, with quota_ino */
	struct sload_stats st;
	uint8_t *io;			/* one read buffer for file data */
	uint64_t nat_writeback_at;	/* next NAT write-back when nids.cursor gets here */
	const struct sload_xattr *src_xattrs;	/* sload_xattrs() without a path: these */
	size_t n_src_xattrs;
	char errbuf[512];		/* why the run failed, for the message */
};

#define SLOAD_IO_BLOCKS 256
/* NAT blocks are written back (to the copy the checkpoint will make
 * current) and dropped from memory every this many nids: 256 blocks. */
#define SLOAD_NAT_WRITEBACK_NIDS (256u * NAT_ENTRY_PER_BLOCK)

/* Messages (sload_main.c) */
void sload_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* sload_node.c: node and data blocks */
int sload_nat_ready(struct sload_ctx *c, uint32_t nid);
int sload_write_node(struct sload_ctx *c, struct f2fs_node *n, uint32_t nid, uint32_t ino,
		     uint32_t ofs, bool is_dir, bool inode);
uint32_t sload_inode_extra_words(const struct f2fs_inode *i);
uint32_t sload_inode_xattr_words(const struct sload_ctx *c, const struct f2fs_inode *i);
uint32_t sload_inode_data_slots(const struct sload_ctx *c, const struct f2fs_inode *i);
uint32_t sload_inline_capacity(const struct sload_ctx *c, const struct f2fs_inode *i);

/* Block map of one file being written, block index order. */
struct sload_fmap {
	struct sload_ctx *c;
	struct f2fs_node *inode;
	uint32_t ino;
	bool is_dir;
	uint32_t base;			/* extra words */
	uint32_t in_inode;		/* data slots in the inode */
	uint32_t addrs_per_block;	/* data slots in a direct node */
	struct f2fs_node *dn, *ind, *dind;
	uint32_t dn_nid, ind_nid, dind_nid;
	uint64_t dn_first, ind_first, dind_first;	/* first file block each covers */
	int dn_slot_parent;		/* which i_nid / which slot in ind */
	uint32_t dn_ofs, ind_ofs;
	uint64_t blocks;		/* data + node blocks, without the inode */
};
void sload_fmap_init(struct sload_fmap *m, struct sload_ctx *c, struct f2fs_node *inode,
		     uint32_t ino, bool is_dir);
int sload_fmap_add(struct sload_fmap *m, uint64_t index, const void *data, int log);
int sload_fmap_reserve(struct sload_fmap *m, uint64_t index, uint32_t value, bool counted);
int sload_fmap_finish(struct sload_fmap *m);
void sload_fmap_free(struct sload_fmap *m);

/* sload_inode.c (path NULL: the xattrs are c->src_xattrs) */
void sload_inode_init(struct sload_ctx *c, struct f2fs_node *n, const struct stat *st,
		      uint32_t pino, const char *name, size_t namelen);
int sload_xattrs(struct sload_ctx *c, struct f2fs_node *n, uint32_t ino, const char *path,
		 const char *fs_path, const struct stat *st, uint64_t *blocks);
void sload_inode_checksum(const struct sload_ctx *c, struct f2fs_node *n);
int sload_data_log(const struct sload_ctx *c, const char *name, struct f2fs_node *n);

/* sload_compress.c */
bool sload_should_compress(const struct sload_ctx *c, const char *name);
int sload_write_compressed(struct sload_ctx *c, struct f2fs_node *n, uint32_t ino, int fd,
			   uint64_t *blocks);
bool sload_has_extension(const char *name, const char *ext);

/* sload_dir.c */
int sload_write_dir_entries(struct sload_ctx *c, struct f2fs_node *n, uint32_t ino,
			    uint32_t pino, struct sload_dent *d, size_t nd, bool casefold);
uint32_t sload_name_hash(const struct sload_ctx *c, const char *name, size_t len, bool casefold);
int sload_read_dir_entries(struct sload_ctx *c, const struct f2fs_node *n,
			   struct sload_dent **out, size_t *nout, uint32_t **blocks, size_t *nblocks);

/* sload_tree.c */
int sload_load_tree(struct sload_ctx *c);
/* Pieces of the walk the tar input uses too. */
void sload_effective_stat(const struct sload_ctx *c, const char *fs_path, struct stat *st);
uint8_t sload_file_type(mode_t m);
void sload_write_rdev(struct f2fs_node *n, dev_t rdev);
int sload_write_symlink_target(struct sload_ctx *c, struct f2fs_node *n, uint32_t ino,
			       const char *target, size_t len, uint64_t *blocks);

/* sload_tar.c: the archive's entries into the root directory root_ino
 * (old: the entries it has); the root's new names go to add(arg, ...). */
int sload_tar_load(struct sload_ctx *c, uint32_t root_ino, bool casefold,
		   const struct sload_dent *old, size_t nold,
		   int (*add)(void *arg, const char *name, uint32_t ino, uint8_t type), void *arg);
/* len bytes of a source file at off; -EIO when it ends first. */
int sload_read_full(int fd, uint8_t *buf, size_t len, off_t off);

/* sload_config.c: fs_config and file_contexts */
int sload_fs_config_load(struct sload_ctx *c, const char *path);
void sload_fs_config_free(struct sload_ctx *c);
/* Apply the entry for fs_path: uid, gid, mode bits, capabilities. */
bool sload_fs_config_apply(const struct sload_ctx *c, const char *fs_path, bool is_dir,
			   uint32_t *uid, uint32_t *gid, uint32_t *mode, uint64_t *caps);
int sload_contexts_load(struct sload_ctx *c, const char *path);
void sload_contexts_free(struct sload_ctx *c);
const char *sload_context_of(const struct sload_ctx *c, const char *fs_path, uint32_t mode);

/* sload_quota.c */
int sload_quota_load(struct sload_ctx *c);
/* Node nid of the volume as the checkpoint has it: its NAT entry (*e)
 * and its block (*n); -EFSCORRUPTED when the entry points outside the
 * main area. */
int sload_read_node(struct sload_ctx *c, uint32_t nid, struct f2fs_nat_entry *e,
		    struct f2fs_node *n);
int sload_quota_charge(struct sload_ctx *c, const struct f2fs_inode *i, int sign);
int sload_quota_write(struct sload_ctx *c);
void sload_quota_free(struct sload_ctx *c);

#endif
