/*
 * mkfs.h - the one context of a mkfs.f2fs run: the options as given, what
 * was learnt about the device, the computed layout, and the numbers the
 * image builder hands between its steps.
 */
#ifndef MKFS_H
#define MKFS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>

#include "f2fs_fs.h"
#include "f2fs_dev.h"
#include "f2fs_layout.h"

#define MKFS_MAX_EXT_TOTAL F2FS_MAX_EXTENSION

struct mkfs_opts {
	const char *device;
	uint64_t sectors;		/* optional size argument, 0 = whole device */
	uint32_t wanted_sector_size;	/* -w, 0 = device's */
	int debug;			/* -d; -q makes it -1 */
	bool force;			/* -f */
	bool large_nat_bitmap;		/* -i */
	uint32_t segs_per_sec;		/* -s */
	uint32_t secs_per_zone;		/* -z */
	bool segs_per_sec_given, secs_per_zone_given;
	bool zoned;			/* -m, or forced by a host-managed device */
	const char *zone_model;		/* --zone-model: device's emulated zones */
	const char *undo_file;		/* --undo: save what the run overwrites */
	double overprovision;		/* -o, 0 = automatic */
	uint32_t features;		/* -O and presets */
	bool discard;			/* -t */
	bool fixed_seed;		/* -r */
	bool fixed_time;		/* -T given */
	uint64_t timestamp;
	bool uuid_given;		/* -U */
	uint8_t uuid[16];
	bool root_owner_given;		/* -R */
	uint32_t root_uid, root_gid;
	uint16_t volume_name[MAX_VOLUME_NAME];	/* -l, UTF-16LE */
	bool label_given;
	uint16_t s_encoding;		/* -C */
	uint16_t s_encoding_flags;
	bool nat_bits;			/* off with -g android */
	bool android;			/* -g android */
	const char *cold_ext[MKFS_MAX_EXT_TOTAL];	/* -e */
	unsigned int n_cold_ext;
	const char *hot_ext[MKFS_MAX_EXT_TOTAL];	/* -E */
	unsigned int n_hot_ext;
	const char *file_contexts;	/* --file-contexts (SELinux labels) */
	const char *extra_dev[MAX_DEVICES - 1];	/* -c, in order */
	unsigned int n_extra_dev;
	/* With -c the superblock's device list holds absolute paths (the
	 * kernel and fsck open the devices from any directory): device and
	 * extra_dev[] are made absolute, and given_dev[] keeps what was
	 * typed (device first) for the summary; NULL when it was absolute. */
	const char *given_dev[MAX_DEVICES];
	char *kept[64];			/* argument copies the lists point into */
	unsigned int n_kept;
};

/* What mkfs creates, by inode number and address. */
struct mkfs_plan {
	uint32_t nr_quota;
	uint32_t quota_type[F2FS_MAX_QUOTAS];	/* 0 usr, 1 grp, 2 prj */
	uint32_t qf_ino[F2FS_MAX_QUOTAS];
	uint32_t lpf_ino;			/* 0 if none */
	uint32_t next_free_nid;
	uint32_t node_blocks;			/* inodes in HOT_NODE */
	uint32_t data_blocks;			/* blocks in HOT_DATA */
	uint64_t cp_ver;
	uint64_t mtime;
	char root_label[256];			/* SELinux contexts, "" if none */
	char lpf_label[256];
};

struct mkfs_ctx {
	struct mkfs_opts o;
	struct f2fs_dev *dev;			/* device 0: metadata and main start */
	struct f2fs_dev *extra[MAX_DEVICES - 1];	/* -c devices */
	struct f2fs_layout layout;
	struct mkfs_plan plan;
	bool trimmed;
	uint64_t zone_blocks;			/* zoned: zone (= section) size */
	uint64_t zone_cap;			/* zoned: writable blocks of a zone */
};

/* options.c */
int mkfs_parse_args(struct mkfs_ctx *ctx, int argc, char **argv);
int mkfs_check_features(const struct mkfs_opts *o);
void mkfs_usage(FILE *f);
void mkfs_free_opts(struct mkfs_opts *o);

/* probe.c: refusals that need the device, all before any write */
int mkfs_check_not_mounted(const char *path);
int mkfs_check_no_signature(const struct mkfs_ctx *ctx, const char *path);
int mkfs_wipe_signatures(struct f2fs_dev *dev, const char *path);

/* The device of a volume block and the block's address on it. */
struct f2fs_dev *mkfs_dev_of(struct mkfs_ctx *ctx, uint64_t blkaddr, uint64_t *dev_blk);

/* zoned.c: -m (see its header comment) */
int mkfs_zoned_geometry(struct mkfs_ctx *ctx);
int mkfs_zoned_check_layout(const struct mkfs_ctx *ctx);
int mkfs_zoned_check_logs(const struct mkfs_ctx *ctx);	/* after plan_tree() */
int mkfs_zoned_reset(struct f2fs_dev *dev);
bool mkfs_in_seq_zone(struct mkfs_ctx *ctx, uint64_t blkaddr);
/* For the layout: whether block dev_blk of device dev (0 first) lies in
 * a sequential zone; arg is the struct mkfs_ctx. */
bool mkfs_dev_zone_is_seq(void *arg, uint32_t dev, uint64_t dev_blk);

/* format.c */
int mkfs_format(struct mkfs_ctx *ctx);

/* content.c: blocks of the initial tree */
void mkfs_build_root_inode(const struct mkfs_ctx *ctx, struct f2fs_node *n, uint32_t blkaddr,
			   uint32_t dent_blkaddr);
void mkfs_build_lpf_inode(const struct mkfs_ctx *ctx, struct f2fs_node *n, uint32_t blkaddr,
			  uint32_t dent_blkaddr);
void mkfs_build_quota_inode(const struct mkfs_ctx *ctx, struct f2fs_node *n, uint32_t blkaddr,
			    int qidx, uint32_t data_blkaddr);
void mkfs_build_dentry_block(struct f2fs_dentry_block *d, uint32_t self, uint32_t parent,
			     uint32_t child_ino, const char *child_name);
void mkfs_build_quota_file(const struct mkfs_ctx *ctx, int qidx, uint8_t data[2 * F2FS_BLKSIZE]);

/* labels.c */
int mkfs_lookup_labels(struct mkfs_ctx *ctx);

/* messages */
void mkfs_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
