/*
 * sload_main.c - sload.f2fs: options, opening the volume (SIT and NAT
 * models), the load, and one atomic checkpoint at the end.  Nothing the
 * old checkpoint refers to is written over: a run cut at any write leaves
 * the volume as it was.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "f2fs_err.h"
#include "f2fs_features.h"
#include "f2fs_compress.h"

/* -a: what this build can write */
#if defined(HAVE_ZSTD) && defined(HAVE_LZO)
#define SLOAD_ALGORITHMS "lz4, lzo, zstd"
#elif defined(HAVE_ZSTD)
#define SLOAD_ALGORITHMS "lz4, zstd (this build has no lzo)"
#elif defined(HAVE_LZO)
#define SLOAD_ALGORITHMS "lz4, lzo (this build has no zstd)"
#else
#define SLOAD_ALGORITHMS "lz4 (this build has no lzo or zstd)"
#endif
#include "sload.h"

void sload_err(const char *fmt, ...)
{
	va_list ap;

	fputs("sload.f2fs: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: sload.f2fs [options] -f SOURCE_DIR|ARCHIVE DEVICE\n"
"       sload.f2fs [options] --tar ARCHIVE|- DEVICE\n"
"Options:\n"
"  -f dir        the tree to load (its entries go into the volume's root);\n"
"                a regular file is read as a tar archive\n"
"  --tar FILE    load a tar archive (ustar, pax with SCHILY.xattr, GNU long\n"
"                names; - for standard input) instead of a tree\n"
"  --any-order   the archive's entries may come in any order (default:\n"
"                each directory's entries together, as tar -c writes them;\n"
"                memory then holds only the directories being written)\n"
"  -t path       mount point: prefix of the paths fs_config and file_contexts\n"
"                are matched with (e.g. /system)\n"
"  -C file       Android fs_config text: \"path uid gid mode [capabilities=0x..]\"\n"
"  -s file       SELinux file_contexts (security.selinux of every inode)\n"
"  -p dir        product out directory (accepted; -C gives the fs_config)\n"
"  -P            keep the source's owners (default: uid and gid 0)\n"
"  -T time       timestamp (seconds since the epoch) for every inode\n"
"  -d N          debug level (1: summary, 2: every entry)\n"
"  -c            compress regular files (volumes with the compression feature)\n"
"  -a ALG        compression algorithm: " SLOAD_ALGORITHMS " (default lz4)\n"
"  -L n          log2 of blocks per cluster, 2..8 (default 2)\n"
"  -m n          compress a cluster only when it saves n blocks (default 1)\n"
"  -x ext        do not compress files with this extension (repeatable)\n"
"  -i ext        compress only files with this extension (repeatable)\n"
"  -r            release the blocks compression saves (files become immutable)\n"
"  --no-inline-data  never store file data or symlink targets in the inode\n"
"  --write-limit N   (tests) drop every write after the N-th, as a power cut\n"
"  --nat-writeback N (tests) write NAT blocks back every N nids (default 116480)\n"
"  --builtin-contexts (tests) match file_contexts with the built-in matcher\n"
"                    even in a build with libselinux\n"
"  -h, --help    show this help\n"
"  -V, --version print the version and exit\n");
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-')
		return -EINVAL;
	*out = v;
	return 0;
}

/* -a, -L, -m, -x, -i: 0, or -1 after a message. */
static int parse_compress_option(int ch, const char *arg, struct sload_opts *o)
{
	uint64_t v;

	switch (ch) {
	case 'a':
		if (!strcmp(arg, "lz4")) {
			o->algorithm = COMPRESS_LZ4;
			return 0;
		}
#ifdef HAVE_ZSTD
		if (!strcmp(arg, "zstd")) {
			o->algorithm = COMPRESS_ZSTD;
			return 0;
		}
#endif
#ifdef HAVE_LZO
		if (!strcmp(arg, "lzo")) {
			o->algorithm = COMPRESS_LZO;
			return 0;
		}
#endif
		sload_err("-a %s: algorithms are %s", arg, SLOAD_ALGORITHMS);
		return -1;
	case 'L':
		if (parse_u64(arg, &v) || v < MIN_COMPRESS_LOG_SIZE || v > MAX_COMPRESS_LOG_SIZE) {
			sload_err("-L %s: the log of blocks per cluster is %d..%d", arg,
				  MIN_COMPRESS_LOG_SIZE, MAX_COMPRESS_LOG_SIZE);
			return -1;
		}
		o->log_cluster = (unsigned int)v;
		return 0;
	case 'm':
		if (parse_u64(arg, &v) || !v || v > 255) {
			sload_err("-m %s: expected the blocks a cluster must save (1 or more)", arg);
			return -1;
		}
		o->min_saved = (unsigned int)v;
		return 0;
	default:	/* x, i */
		if ((ch == 'x' ? o->n_exclude : o->n_include) == 16) {
			sload_err("-%c: at most 16 extensions", ch);
			return -1;
		}
		if (ch == 'x')
			o->ext_exclude[o->n_exclude++] = arg;
		else
			o->ext_include[o->n_include++] = arg;
		return 0;
	}
}

/* Options that go together: 0, or -1 after a message. */
static int check_options(const struct sload_opts *o, bool compr_opt)
{
	if (compr_opt && !o->compress) {
		sload_err("-a, -L, -m, -i, -x and -r go with -c");
		return -1;
	}
	if (o->n_include && o->n_exclude) {
		sload_err("-i and -x exclude each other");
		return -1;
	}
	if (o->min_saved >= (1u << o->log_cluster)) {
		sload_err("-m %u: a cluster of %u blocks cannot save that many", o->min_saved,
			  1u << o->log_cluster);
		return -1;
	}
	return 0;
}

/* 0 to go on, 1 done (help/version), -1 usage error. */
static int parse_options(int argc, char **argv, struct sload_opts *o)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "no-inline-data", no_argument, NULL, 'I' },
		{ "write-limit", required_argument, NULL, 'W' },
		{ "nat-writeback", required_argument, NULL, 'N' },
		{ "builtin-contexts", no_argument, NULL, 'B' },
		{ "tar", required_argument, NULL, 'X' },
		{ "any-order", no_argument, NULL, 'O' },
		{ NULL, 0, NULL, 0 },
	};
	bool compr_opt = false;
	uint64_t v;
	int ch;

	o->algorithm = COMPRESS_LZ4;
	o->log_cluster = MIN_COMPRESS_LOG_SIZE;
	o->min_saved = 1;
	while ((ch = getopt_long(argc, argv, "a:cC:d:f:hi:L:m:p:Prs:t:T:Vx:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'f': o->source = optarg; break;
		case 't': o->mount_point = optarg; break;
		case 'C': o->fs_config = optarg; break;
		case 's': o->file_contexts = optarg; break;
		case 'p': o->product_out = optarg; break;
		case 'P': o->preserve_owner = true; break;
		case 'I': o->no_inline_data = true; break;
		case 'W':
			if (parse_u64(optarg, &v) || !v) {
				sload_err("--write-limit %s: expected a write count", optarg);
				return -1;
			}
			o->write_limit = v;
			break;
		case 'B': o->builtin_contexts = true; break;
		case 'X': o->tar = optarg; break;
		case 'O': o->any_order = true; break;
		case 'N':
			if (parse_u64(optarg, &v) || !v || v > UINT32_MAX) {
				sload_err("--nat-writeback %s: expected a nid count", optarg);
				return -1;
			}
			o->nat_writeback = (uint32_t)v;
			break;
		case 'd':
			if (parse_u64(optarg, &v) || v > 9) {
				sload_err("-d %s: expected a level 0..9", optarg);
				return -1;
			}
			o->debug = (int)v;
			break;
		case 'T':
			if (parse_u64(optarg, &v)) {
				sload_err("-T %s: expected seconds since the epoch", optarg);
				return -1;
			}
			o->have_timestamp = true;
			o->timestamp = v;
			break;
		case 'c': o->compress = true; break;
		case 'a': case 'L': case 'm': case 'x': case 'i':
			if (parse_compress_option(ch, optarg, o))
				return -1;
			compr_opt = true;
			break;
		case 'r': o->release = true; compr_opt = true; break;
		case 'h':
			usage(stdout);
			return 1;
		case 'V':
			printf("sload.f2fs (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
			return 1;
		default:
			usage(stderr);
			return -1;
		}
	}
	if (check_options(o, compr_opt))
		return -1;
	if (optind != argc - 1 || !o->source == !o->tar) {
		sload_err("usage: sload.f2fs [options] -f SOURCE_DIR|ARCHIVE DEVICE, "
			  "or --tar ARCHIVE|- DEVICE");
		return -1;
	}
	o->device = argv[optind];
	return 0;
}

/* Refuse volumes a load could damage or would not describe right. */
static int check_volume(struct sload_ctx *c)
{
	const struct f2fs_fs *fs = c->fs;

	if (!(fs->cp_flags & CP_UMOUNT_FLAG)) {
		sload_err("%s was not cleanly unmounted (mount it once, or run fsck.f2fs)", c->o.device);
		return -1;
	}
	if (fs->cp_flags & (CP_ERROR_FLAG | CP_FSCK_FLAG | CP_DISABLED_FLAG | CP_QUOTA_NEED_FSCK_FLAG)) {
		sload_err("%s needs fsck.f2fs first (checkpoint flags 0x%x)", c->o.device, fs->cp_flags);
		return -1;
	}
	if (fs->features & (F2FS_FEATURE_BLKZONED | F2FS_FEATURE_ENCRYPT)) {
		char names[256];

		f2fs_features_to_string(fs->features & (F2FS_FEATURE_BLKZONED | F2FS_FEATURE_ENCRYPT),
					names, sizeof(names));
		sload_err("%s: volumes with %s are not supported", c->o.device, names);
		return -1;
	}
	if (c->o.compress && !(fs->features & F2FS_FEATURE_COMPRESSION)) {
		sload_err("%s: -c needs a volume with the compression feature", c->o.device);
		return -1;
	}
	return 0;
}

/* A multi-device volume (mkfs.f2fs -c): devices 1.. from the superblock's
 * device list, as fsck.f2fs and dump.f2fs open them (f2fs-tools' sload
 * takes them from there too); the load then allocates across them. */
static int open_members(struct sload_ctx *c, const struct f2fs_dev_opts *opts)
{
	uint32_t failed;
	char msg[160];
	int err = f2fs_fs_open_members(c->fs, opts, &failed);

	if (!err)
		return 0;
	f2fs_fs_member_error(c->fs, failed, err, msg, sizeof(msg));
	sload_err("%s: %s", c->o.device, msg);
	return -1;
}

static int open_volume(struct sload_ctx *c)
{
	struct f2fs_dev_opts opts = { .exclusive = true };
	uint32_t bad = 0;
	int err = f2fs_fs_open(c->o.device, &opts, &c->fs);

	if (err) {
		sload_err("%s: cannot open the volume: %s", c->o.device, f2fs_strerror(err));
		return -1;
	}
	if (check_volume(c) || open_members(c, &opts))
		return -1;
	if (c->o.write_limit)
		f2fs_dev_set_write_limit(c->fs->dev, c->o.write_limit);
	err = f2fs_sit_load(c->fs, &c->sit, &bad);
	if (!err && bad)
		err = -EFSCORRUPTED;
	if (!err)
		err = f2fs_nat_init(&c->nat, c->fs->max_nid, c->fs->nat_bitmap);
	if (!err)
		err = f2fs_nat_load_all(c->fs, &c->nat);
	if (!err)
		err = f2fs_logs_init(&c->logs, c->fs, &c->sit);
	if (err) {
		sload_err("%s: cannot load SIT and NAT: %s (run fsck.f2fs)", c->o.device, f2fs_strerror(err));
		return -1;
	}
	f2fs_nid_alloc_init(&c->nids, &c->nat);
	if (!c->o.nat_writeback)
		c->o.nat_writeback = SLOAD_NAT_WRITEBACK_NIDS;
	c->nat_writeback_at = (uint64_t)c->nids.cursor + c->o.nat_writeback;
	err = sload_quota_load(c);
	if (err) {
		sload_err("%s: %s: %s (run fsck.f2fs)", c->o.device, c->errbuf, f2fs_strerror(err));
		return -1;
	}
	c->errbuf[0] = 0;
	f2fs_commit_plan_init(&c->plan, c->fs);
	c->cp_ver = c->plan.version;
	c->extra_words = (c->fs->features & F2FS_FEATURE_EXTRA_ATTR) ? F2FS_TOTAL_EXTRA_ATTR_SIZE / 4 : 0;
	c->xattr_words = DEFAULT_INLINE_XATTR_ADDRS;
	return 0;
}

static int load_inputs(struct sload_ctx *c)
{
	struct stat st;
	int err;

	if (c->o.source && !stat(c->o.source, &st) && S_ISREG(st.st_mode)) {
		c->o.tar = c->o.source;		/* -f archive.tar */
		c->o.source = NULL;
	}
	if (c->o.source && (stat(c->o.source, &st) || !S_ISDIR(st.st_mode))) {
		sload_err("%s: not a directory or a tar archive", c->o.source);
		return -1;
	}
	if (c->o.any_order && !c->o.tar) {
		sload_err("--any-order goes with a tar archive");
		return -1;
	}
	if (c->o.fs_config && (err = sload_fs_config_load(c, c->o.fs_config))) {
		sload_err("%s: %s", c->errbuf[0] ? c->errbuf : c->o.fs_config, f2fs_strerror(err));
		return -1;
	}
	if (c->o.file_contexts && (err = sload_contexts_load(c, c->o.file_contexts))) {
		sload_err("%s: %s", c->errbuf[0] ? c->errbuf : c->o.file_contexts, f2fs_strerror(err));
		return -1;
	}
	c->io = f2fs_blocks_alloc(SLOAD_IO_BLOCKS);
	return c->io ? 0 : -1;
}

static int commit(struct sload_ctx *c)
{
	struct f2fs_commit_plan *p = &c->plan;
	int err = f2fs_logs_finish(&c->logs, p);

	if (err)
		return err;
	p->valid_block_count = (uint64_t)((int64_t)p->valid_block_count + c->block_delta);
	p->valid_node_count = (uint32_t)((int64_t)p->valid_node_count + c->node_delta);
	p->valid_inode_count = (uint32_t)((int64_t)p->valid_inode_count + c->inode_delta);
	p->free_segment_count = f2fs_logs_free_segments(&c->logs, p);
	if (c->nids.cursor > p->next_free_nid)
		p->next_free_nid = c->nids.cursor < c->fs->max_nid ? c->nids.cursor : c->fs->max_nid - 1;
	if (p->valid_block_count > p->user_block_count)
		return -ENOSPC;
	err = f2fs_dev_flush(c->fs->dev);
	if (!err)
		err = f2fs_commit(c->fs, &c->sit, &c->nat, p);
	return err;
}

static void report(const struct sload_ctx *c)
{
	const struct sload_stats *s = &c->st;

	if (!c->o.debug)
		return;
	fprintf(stderr, "sload.f2fs: %" PRIu64 " files, %" PRIu64 " directories, %" PRIu64
		" symlinks, %" PRIu64 " special files, %" PRIu64 " extra hard links; %" PRIu64
		" data blocks, %" PRIu64 " node blocks (%" PRIu64 " xattr nodes); %" PRIu64
		" writes; %" PRIu64 " files compressed, %" PRIu64 " clusters\n", s->files, s->dirs, s->symlinks, s->specials, s->hardlinks, s->data_blocks,
		s->node_blocks, s->xattr_nodes, f2fs_dev_stats(c->fs->dev)->write_calls, s->compressed_files,
		s->compressed_clusters);
	fprintf(stderr, "sload.f2fs: %" PRIu64 " directories of the volume merged into, %" PRIu64
		" names the volume had already (skipped)\n", s->merged_dirs, s->skipped);
}

static void cleanup(struct sload_ctx *c)
{
	f2fs_logs_free(&c->logs);
	f2fs_nat_free(&c->nat);
	f2fs_sit_free(&c->sit);
	sload_fs_config_free(c);
	sload_contexts_free(c);
	sload_quota_free(c);
	free(c->io);
	if (c->fs)
		f2fs_fs_close(c->fs);
}

int main(int argc, char **argv)
{
	struct sload_ctx *c = calloc(1, sizeof(*c));
	int rc = 1, err;

	if (!c)
		return 1;
	err = parse_options(argc, argv, &c->o);
	if (err) {
		free(c);
		return err > 0 ? 0 : 1;
	}
	if (load_inputs(c) || open_volume(c))
		goto out;
	err = sload_load_tree(c);
	if (!err)
		err = commit(c);
	if (err) {
		sload_err("%s%s%s; the volume is unchanged", c->errbuf, c->errbuf[0] ? ": " : "",
			  f2fs_strerror(err));
		goto out;
	}
	report(c);
	rc = 0;
out:
	cleanup(c);
	free(c);
	return rc;
}
