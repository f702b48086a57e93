/*
 * fsck_main.c - fsck.f2fs: the command line (f2fs-tools compatible, plus
 * e2fsck's -C and a --json report), opening the volume read-only, running
 * the passes in order over one context, and the fsck(8) exit code.
 *
 * A check (no option, -n) opens the device read-only and never writes.
 * The repair modes (-a/-p: preen-safe problems only; -y/-f: everything;
 * --dry-run: compute the repair, drop its writes) record fixes during the
 * check and apply them in one checkpoint (fsck_repair.c), then check the
 * volume again for the exit code: 1 when everything was fixed, 4 when
 * problems remain.  Only a check on a terminal asks, once, whether to fix;
 * after a "y" the problems are not listed again.  -n, -y and -a/-p exclude
 * each other; -f forces the full check.  Preen without -f stops after pass
 * 1 when the kernel asked for nothing (fsck_preen.c).
 *
 * Output: problem lines and summaries on stdout (with --json one document
 * for the whole process, printed at the end: check, repair, re-check and
 * the exit code), diagnostics on stderr; an operational error (exit 8) is
 * recorded with a stable code by fsck_fail() and prints no summary.
 */
#include <getopt.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "f2fs_err.h"
#include "f2fs_undo.h"
#include "f2fs_zone.h"
#include "fsck.h"
#include "fsck_recheck.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: fsck.f2fs [options] device\n"
		"  -a, -p [0|1|2]  preen: exit 0 after the mount checks unless the kernel asked for a\n"
		"                  check; else check all, fix what is safe, stop (exit 4) on the rest\n"
		"  -f              force the full check (alone: fix everything, as -y)\n"
		"  -y              full check and fix everything\n"
		"  -n, -N          check only, answer no to everything (default)\n"
		"                  (-n, -y and -a/-p exclude each other)\n"
		"  --dry-run       check and compute the repair, show what it would write; never writes\n"
		"  --undo FILE     save every block the repair overwrites in FILE (a new file)\n"
		"                  first; undo.f2fs FILE device puts them back\n"
		"  --full-recheck  after a repair, check the whole volume again even when the\n"
		"                  fixes were to single inodes' fields only (see fsck.f2fs(8))\n"
		"  -d N            debug level (diagnostics on stderr)\n"
		"  -l              print the superblock and checkpoint and exit\n"
		"  -t              print the directory tree while checking\n"
		"  -j, --jobs N    check with N threads (default: one per CPU; 1: no threads);\n"
		"                  the output is the same for every N\n"
		"  -C fd           progress lines to file descriptor fd (0: a bar on a terminal)\n"
		"  --json          report as one JSON document on stdout\n"
		"  --zone-model FILE  the device's emulated zones (default: DEVICE.zones)\n"
		"  -V, --version   print the version and exit\n"
		"  -h, --help      print this help and exit\n"
		"  --nolinear-lookup=0|1  casefolded volumes: let the kernel fall back to a linear\n"
		"                  search when a name's hash misses (0) or not (1); writes the superblock\n"
		"  --list-problems print the problem table and exit\n"
		"  -c N, -m N, -q N, -M, -g android, --kernel-check, --no-kernel-check,\n"
		"  --debug-cache   accepted for compatibility, ignored\n");
}

/* --list-problems: the table, tab-separated (the man page is built from it). */
static void list_problems(void)
{
	for (size_t i = 0; i < fsck_n_problems; i++) {
		const struct fsck_problem_def *d = &fsck_problems[i];

		const char *why = d->fix == FIX_UNFIXABLE ? fsck_unfixable_why(d->code) : "";

		printf("%d\t%s\t%s\t%s\t%s%s%s\t%s\n", (int)d->code, d->name,
		       fsck_severity_name(d->severity), d->preen_ok ? "preen" : "ask",
		       fsck_fix_name(d->fix), *why ? ": " : "", why, d->msg);
	}
}

enum { OPT_DRY_RUN = 256, OPT_JSON, OPT_IGNORED, OPT_HELP, OPT_PROBLEMS, OPT_WRITE_LIMIT,
       OPT_NOLINEAR_LOOKUP, OPT_ZONE_MODEL, OPT_UNDO, OPT_LOSE_WRITES, OPT_READ_FAULT,
       OPT_THREAD_MIN, OPT_FULL_RECHECK };

static const struct option long_opts[] = {
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "kernel-check", no_argument, NULL, OPT_IGNORED },
	{ "no-kernel-check", no_argument, NULL, OPT_IGNORED },
	{ "debug-cache", no_argument, NULL, OPT_IGNORED },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, 'V' },
	{ "nolinear-lookup", required_argument, NULL, OPT_NOLINEAR_LOOKUP },
	{ "list-problems", no_argument, NULL, OPT_PROBLEMS },
	{ "write-limit", required_argument, NULL, OPT_WRITE_LIMIT },
	{ "undo", required_argument, NULL, OPT_UNDO },
	{ "lose-writes", required_argument, NULL, OPT_LOSE_WRITES },
	{ "read-fault", required_argument, NULL, OPT_READ_FAULT },
	{ "zone-model", required_argument, NULL, OPT_ZONE_MODEL },
	{ "jobs", required_argument, NULL, 'j' },
	{ "thread-min", required_argument, NULL, OPT_THREAD_MIN },
	{ "full-recheck", no_argument, NULL, OPT_FULL_RECHECK },
	{ NULL, 0, NULL, 0 },
};

static bool parse_uint(const char *s, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return false;
	v = strtol(s, &end, 10);
	if (*end || v < 0 || v > max)
		return false;
	*out = v;
	return true;
}

/* A 64-bit mask, decimal or 0x-hexadecimal. */
static bool parse_mask(const char *s, uint64_t *out)
{
	char *end;

	if (!s || !*s || *s == '-')
		return false;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return !errno && !*end;
}

/* -p takes an optional level; a following non-number is the device. */
static void parse_preen(int argc, char **argv)
{
	long level;

	if (parse_uint(optarg, 2, &level))
		return;
	if (optind > 0 && optind <= argc && argv[optind - 1] == optarg)
		optind--;
}

/* -C fd (e2fsck) or -C encoding (f2fs-tools: enable casefolding, which a
 * checker must refuse). Returns false on a usage error. */
static bool parse_progress(struct fsck_opts *o)
{
	long fd;

	if (!parse_uint(optarg, 1 << 20, &fd)) {
		fprintf(stderr, "fsck.f2fs: -C %s: changing the casefold encoding is not supported; "
			"-C takes a file descriptor for progress\n", optarg);
		return false;
	}
	if (fd == 0)
		o->progress_bar = isatty(STDERR_FILENO);
	else
		o->progress_fd = (int)fd;
	return true;
}

/* The mode options given (e2fsck's rule: -n, -y and -a/-p exclude each
 * other; -f forces a full check, and alone repairs as f2fs-tools' -f does). */
enum { SEEN_N = 1, SEEN_Y = 2, SEEN_PREEN = 4, SEEN_F = 8 };

/* Returns -1 to go on, or the usage exit code. */
static int resolve_mode(unsigned int seen, struct fsck_opts *o)
{
	int modes = !!(seen & SEEN_N) + !!(seen & SEEN_Y) + !!(seen & SEEN_PREEN);

	if (modes > 1) {
		fprintf(stderr, "fsck.f2fs: -n, -y and -a/-p exclude each other: give one mode "
			"(-n checks only, -y repairs everything, -a/-p repairs what is preen-safe)\n");
		return FSCK_EXIT_USAGE;
	}
	o->force = seen & SEEN_F;
	o->answer_no = seen & SEEN_N;
	if (seen & SEEN_PREEN)
		o->mode = FSCK_MODE_PREEN;
	else if (seen & SEEN_N)
		o->mode = FSCK_MODE_CHECK;
	else if (seen & (SEEN_Y | SEEN_F))
		o->mode = FSCK_MODE_YES;
	else
		o->mode = FSCK_MODE_CHECK;
	return -1;
}

/* "fsck.f2fs: unknown option -x", naming the option getopt_long() just
 * refused as the user wrote it, then the usage. */
static int refuse_option(int argc, char **argv, const char *what)
{
	if (optopt > 0 && optopt < 128)
		fprintf(stderr, "fsck.f2fs: %s -%c\n", what, optopt);
	else
		fprintf(stderr, "fsck.f2fs: %s %s\n", what,
			optind > 0 && optind <= argc ? argv[optind - 1] : "?");
	usage(stderr);
	return FSCK_EXIT_USAGE;
}

/* Returns -1 to go on, or an exit code. */
static int parse_args(int argc, char **argv, struct fsck_opts *o)
{
	unsigned int seen = 0;
	int c;
	long v;

	memset(o, 0, sizeof(*o));
	o->progress_fd = -1;
	o->nolinear_lookup = -1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ap:fynNd:j:ltC:c:m:q:Mg:VhSHO:", long_opts, NULL)) != -1) {
		switch (c) {
		case 'a': seen |= SEEN_PREEN; break;
		case 'p': seen |= SEEN_PREEN; parse_preen(argc, argv); break;
		case 'f': seen |= SEEN_F; break;
		case 'y': seen |= SEEN_Y; break;
		case 'n': case 'N': seen |= SEEN_N; break;
		case OPT_WRITE_LIMIT:
			if (!parse_uint(optarg, 1L << 40, &v)) {
				fprintf(stderr, "fsck.f2fs: --write-limit needs a number\n");
				return FSCK_EXIT_USAGE;
			}
			o->write_limit = (uint64_t)v;
			break;
		case OPT_DRY_RUN: o->dry_run = true; break;
		case OPT_UNDO: o->undo_file = optarg; break;
		case OPT_READ_FAULT: o->read_faults = optarg; break;
		case OPT_FULL_RECHECK: o->full_recheck = true; break;
		case OPT_LOSE_WRITES:
			if (!parse_mask(optarg, &o->lost_writes)) {
				fprintf(stderr, "fsck.f2fs: --lose-writes needs a number (a bit mask)\n");
				return FSCK_EXIT_USAGE;
			}
			break;
		case OPT_JSON: o->json = true; break;
		case OPT_ZONE_MODEL: o->zone_model = optarg; break;
		case 'd':
			if (!parse_uint(optarg, 100, &v)) {
				fprintf(stderr, "fsck.f2fs: -d needs a number\n");
				return FSCK_EXIT_USAGE;
			}
			o->debug = (int)v;
			break;
		case 'j':
			if (!parse_uint(optarg, 1024, &v) || v == 0) {
				fprintf(stderr, "fsck.f2fs: -j needs a number of threads, 1 or more\n");
				return FSCK_EXIT_USAGE;
			}
			o->jobs = (unsigned int)v;
			break;
		case OPT_THREAD_MIN:
			if (!parse_uint(optarg, 1024, &v) || v == 0) {
				fprintf(stderr, "fsck.f2fs: --thread-min needs a number of blocks, 1 or more\n");
				return FSCK_EXIT_USAGE;
			}
			o->thread_min = (unsigned int)v;
			break;
		case 'l': o->list_only = true; break;
		case 't': case 'M': o->tree = true; break;
		case 'C':
			if (!parse_progress(o))
				return FSCK_EXIT_USAGE;
			break;
		case 'c': case 'm': case 'q': case 'g': case OPT_IGNORED:
			break;
		case 'V':
			printf("fsck.f2fs (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
			return FSCK_EXIT_OK;
		case OPT_HELP: case 'h':
			usage(stdout);
			return FSCK_EXIT_OK;
		case OPT_NOLINEAR_LOOKUP:
			if (strcmp(optarg, "0") && strcmp(optarg, "1")) {
				fprintf(stderr, "fsck.f2fs: --nolinear-lookup takes 0 (enable the "
					"linear lookup) or 1 (disable it)\n");
				return FSCK_EXIT_USAGE;
			}
			o->nolinear_lookup = optarg[0] - '0';
			break;
		case OPT_PROBLEMS:
			list_problems();
			return FSCK_EXIT_OK;
		case 'S': case 'H': case 'O':
			fprintf(stderr, "fsck.f2fs: -%c is not supported by this checker\n", c);
			return FSCK_EXIT_USAGE;
		case ':':
			if (optopt == 'p') {
				seen |= SEEN_PREEN;
				break;
			}
			return refuse_option(argc, argv, "this option needs an argument:");
		default:
			return refuse_option(argc, argv, "unknown option");
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return FSCK_EXIT_USAGE;
	}
	o->device = argv[optind];
	if (o->undo_file && access(o->undo_file, F_OK) == 0) {
		fprintf(stderr, "fsck.f2fs: undo file %s exists; remove it or name a new one\n",
			o->undo_file);
		return FSCK_EXIT_USAGE;
	}
	if (o->json && (o->tree || o->list_only)) {
		fprintf(stderr, "fsck.f2fs: --json cannot be combined with -t or -l, which print text\n");
		return FSCK_EXIT_USAGE;
	}
	return resolve_mode(seen, o);
}

/* What the passes and the repair's plan hold (the per-nid records, the
 * maps, the SIT and NAT models, the plan): all but the device and the
 * report. */
static void free_check_state(struct fsck_ctx *ctx)
{
	if (ctx->sit_loaded)
		f2fs_sit_free(&ctx->sit);
	ctx->sit_loaded = false;
	if (ctx->nat_loaded)
		f2fs_nat_free(&ctx->nat);
	ctx->nat_loaded = false;
	fsck_plan_free(ctx);
	fsck_quota_free(ctx);
	fsck_zone_free(ctx);
	free(ctx->reach);
	ctx->reach = NULL;
	free(ctx->nat_addr);
	ctx->nat_addr = NULL;
	free(ctx->chain);
	ctx->chain = NULL;
	free(ctx->seg_kind);
	ctx->seg_kind = NULL;
	free(ctx->ni);
	ctx->ni = NULL;
	free(ctx->unnamed);
	ctx->unnamed = NULL;
	ctx->n_unnamed = 0;
	fsck_subdirs_free(ctx);
	free(ctx->ssa);
	ctx->ssa = NULL;
	ctx->n_ssa = ctx->cap_ssa = 0;
	free(ctx->orphans);
	ctx->orphans = NULL;
	ctx->n_orphans = 0;
}

static void free_ctx(struct fsck_ctx *ctx)
{
	free_check_state(ctx);
	f2fs_fs_close(ctx->fs);
	fsck_report_free(ctx);
}

static int alloc_maps(struct fsck_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;
	size_t map = (size_t)((ctx->main_blocks + 7) / 8);

	ctx->reach = calloc(map ? map : 1, 1);
	ctx->nat_addr = calloc(map ? map : 1, 1);
	ctx->chain = calloc(map ? map : 1, 1);
	ctx->seg_kind = calloc(fs->main_segs ? fs->main_segs : 1, 1);
	ctx->ni = calloc(fs->max_nid ? fs->max_nid : 1, sizeof(*ctx->ni));
	if (!ctx->reach || !ctx->nat_addr || !ctx->chain || !ctx->seg_kind || !ctx->ni)
		return -ENOMEM;
	return fsck_plan_init(ctx);
}

/* CPU time of the process so far, in seconds (the phase times of -d 1). */
static double cpu_seconds(void)
{
	struct timespec t;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t))
		return 0;
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Time since some fixed point, in seconds (the wall time of a pass). */
static double wall_seconds(void)
{
	struct timespec t;

	if (clock_gettime(CLOCK_MONOTONIC, &t))
		return 0;
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Run a pass; an operational failure (I/O, memory) makes the exit 8. */
static bool run(struct fsck_ctx *ctx, const char *name, int (*pass)(struct fsck_ctx *))
{
	double t0 = cpu_seconds(), w0 = wall_seconds();
	int err = pass(ctx);

	fsck_debug(ctx, 2, "CPU time: %s pass %.3f s (wall %.3f s)", name, cpu_seconds() - t0,
		   wall_seconds() - w0);
	if (err) {
		fsck_fail(ctx, err == -ENOMEM ? "out_of_memory" : "io_error", "%s: %s", name,
			  f2fs_strerror(err));
		return false;
	}
	return true;
}

/* The re-check's source of the node walk's findings (fsck_recheck.c). */
struct walk_reuse {
	struct fsck_ctx *parent;
	const struct fsck_recheck_snap *snap;
	const struct fsck_repair_stats *stats;
	bool refused;		/* the import cannot vouch: check in full */
};

/* The node walk, or with reuse its findings taken over from the check
 * before the repair. */
static bool run_walk(struct fsck_ctx *ctx, struct walk_reuse *reuse)
{
	double t0;

	if (!reuse)
		return run(ctx, "node walk", fsck_pass_nodes);
	t0 = cpu_seconds();
	reuse->refused = !fsck_recheck_import(ctx, reuse->parent, reuse->snap, reuse->stats);
	fsck_debug(ctx, 2, "CPU time: node walk taken over %.3f s", cpu_seconds() - t0);
	return !reuse->refused;
}

static void run_passes(struct fsck_ctx *ctx, struct walk_reuse *reuse)
{
	if (!fsck_pass_super(ctx) || ctx->exit_override)
		return;
	if (fsck_preen_may_stop(ctx))
		return;
	ctx->main_blocks = (uint64_t)ctx->fs->main_segs * BLKS_PER_SEG;
	if (alloc_maps(ctx) || fsck_zone_map(ctx)) {
		fsck_fail(ctx, "out_of_memory", "out of memory");
		return;
	}
	if (!run(ctx, "SIT", fsck_pass_sit))
		return;
	fsck_check_device_end(ctx);
	if (!run(ctx, "NAT", fsck_pass_nat))
		return;
	if (!run(ctx, "roll-forward chain", fsck_pass_rollforward))
		return;
	if (!run_walk(ctx, reuse) || !run(ctx, "SSA", fsck_pass_ssa))
		return;
	if (!run(ctx, "verify", fsck_pass_verify) || !run(ctx, "zones", fsck_pass_zone))
		return;
	run(ctx, "quota", fsck_pass_quota);
}

/* Ask once on a terminal; EOF or anything but y/yes is no. */
static bool ask_fix(void)
{
	char line[16];

	fputs("Fix? [y/N] ", stdout);
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return false;
	return line[0] == 'y' || line[0] == 'Y';
}

static bool interactive(const struct fsck_opts *o)
{
	return o->mode == FSCK_MODE_CHECK && !o->answer_no && !o->dry_run && !o->json &&
	       isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
}

static bool repairing(const struct fsck_opts *o)
{
	return o->mode != FSCK_MODE_CHECK || o->dry_run;
}

/* The stable code of a device that cannot be opened. */
static const char *open_error_code(int err)
{
	if (err == -ENOENT || err == -ENXIO || err == -ENODEV)
		return "missing_device";
	return "unreadable";
}

static bool sb_copy_failed(const struct f2fs_fs *fs, int i, const char *why)
{
	return fs->sb_check[i].err && fs->sb_check[i].why && !strcmp(fs->sb_check[i].why, why);
}

/* No usable superblock for a reason that is not damage: the device cannot
 * be read, holds no F2FS volume, or ends before the main area of the volume
 * on it (one that ends inside the main area is checked on: F2FS-1043/1044).
 * Records the operational error and returns true. */
static bool device_unusable(struct fsck_ctx *ctx)
{
	const struct f2fs_fs *fs = ctx->fs;
	const char *dev = ctx->opt.device;

	if (!fs || fs->sb_index >= 0)
		return false;
	if (sb_copy_failed(fs, 0, "cannot read the superblock") &&
	    sb_copy_failed(fs, 1, "cannot read the superblock"))
		fsck_fail(ctx, "unreadable", "%s: the superblocks cannot be read", dev);
	else if (le32_to_cpu(fs->sb_copy[0].magic) != F2FS_SUPER_MAGIC &&
		 le32_to_cpu(fs->sb_copy[1].magic) != F2FS_SUPER_MAGIC)
		fsck_fail(ctx, "not_f2fs", "%s: not an F2FS volume (no superblock magic)", dev);
	else if (sb_copy_failed(fs, 0, "the device ends before the main area") ||
		 sb_copy_failed(fs, 1, "the device ends before the main area"))
		fsck_fail(ctx, "short_device", "%s: the device (%llu bytes) ends inside the "
			  "metadata areas of the volume its superblock describes", dev,
			  (unsigned long long)f2fs_dev_size(fs->dev));
	else
		return false;
	return true;
}

/* f2fs_dev_open() refused the device: when its emulated zone model
 * (--zone-model FILE, or DEVICE.zones next to a regular file) is what was
 * wrong, put "zone model FILE: why" in buf and return true. */
static bool zone_model_refused(const struct fsck_opts *o, char *buf, size_t len)
{
	char model[4096], why[200];
	struct stat st, mst;

	if (o->zone_model)
		snprintf(model, sizeof(model), "%s", o->zone_model);
	else if ((size_t)snprintf(model, sizeof(model), "%s.zones", o->device) >= sizeof(model))
		return false;
	if (o->zone_model && stat(model, &mst) < 0) {
		snprintf(buf, len, "zone model %s: %s", model, strerror(errno));
		return true;
	}
	if (stat(o->device, &st) < 0 || !S_ISREG(st.st_mode) || stat(model, &mst) < 0)
		return false;
	if (f2fs_zone_model_explain(model, (uint64_t)st.st_size, why, sizeof(why)) == 0)
		return false;
	snprintf(buf, len, "zone model %s: %s", model, why);
	return true;
}

/* A multi-device volume: the other devices, from the superblock's list. */
static int open_members(struct fsck_ctx *ctx, const struct f2fs_dev_opts *dopts)
{
	uint32_t failed;
	char msg[160];
	int err = f2fs_fs_open_members(ctx->fs, dopts, &failed);

	if (!err)
		return 0;
	f2fs_fs_member_error(ctx->fs, failed, err, msg, sizeof(msg));
	fsck_fail(ctx, err == -ENOENT ? "missing_member" : "member_unusable",
		  "%s (nothing was checked)", msg);
	return err;
}

static int close_with(struct fsck_ctx *ctx, int code)
{
	f2fs_fs_close(ctx->fs);
	ctx->fs = NULL;
	return code;
}

/* --read-fault (test hook): reads reaching these blocks fail (EIO) or
 * come back short.  Non-zero on a malformed list. */
static int add_read_faults(struct f2fs_dev *dev, const char *list)
{
	const char *p = list;

	while (*p) {
		char *end;
		unsigned long long blk;
		bool short_read = false;

		errno = 0;
		blk = strtoull(p, &end, 0);
		if (errno || end == p || *p == '-')
			return -1;
		if (!strncmp(end, ":short", 6)) {
			short_read = true;
			end += 6;
		}
		if (f2fs_dev_add_read_fault(dev, blk, short_read))
			return -1;
		if (*end == ',')
			end++;
		else if (*end)
			return -1;
		p = end;
	}
	return 0;
}

/* Open the volume and run every pass.  Returns -1 on success (ctx ready)
 * or an exit code. */
static int open_and_check(struct fsck_ctx *ctx, bool write, struct walk_reuse *reuse)
{
	struct f2fs_dev_opts dopts = { .read_only = !write, .dry_run = write && ctx->opt.dry_run,
				       .zone_model = ctx->opt.zone_model };
	struct f2fs_dev *dev;
	char why[4400];	/* "zone model PATH: why" */
	int err;

	err = f2fs_dev_open(ctx->opt.device, &dopts, &dev);
	dopts.zone_model = NULL;	/* the other devices: their own DEVICE.zones */
	if (err && zone_model_refused(&ctx->opt, why, sizeof(why))) {
		fsck_fail(ctx, "unreadable", "cannot open %s: %s", ctx->opt.device, why);
		return FSCK_EXIT_ERROR;
	}
	if (err) {
		fsck_fail(ctx, open_error_code(err), "cannot open %s: %s", ctx->opt.device,
			  f2fs_strerror(err));
		return FSCK_EXIT_ERROR;
	}
	if (ctx->opt.write_limit)
		f2fs_dev_set_write_limit(dev, ctx->opt.write_limit);
	if (ctx->opt.read_faults && add_read_faults(dev, ctx->opt.read_faults)) {
		fprintf(stderr, "fsck.f2fs: --read-fault takes BLOCK[:short][,BLOCK[:short]...] "
			"(up to %d)\n", F2FS_DEV_MAX_FAULTS);
		f2fs_dev_close(dev);
		return FSCK_EXIT_USAGE;
	}
	if (ctx->opt.write_limit && ctx->opt.lost_writes)
		(void)f2fs_dev_set_lost_writes(dev, ctx->opt.lost_writes);	/* test hook */
	err = f2fs_fs_open_dev_flags(dev, F2FS_OPEN_SALVAGE, &ctx->fs);
	if (err && err != -EFSCORRUPTED && err != -EFSBADCRC) {
		fsck_fail(ctx, err == -ENOMEM ? "out_of_memory" : "unreadable", "cannot load %s: %s",
			  ctx->opt.device, f2fs_strerror(err));
		return close_with(ctx, FSCK_EXIT_ERROR);
	}
	ctx->fs_usable = !err;
	fsck_print_linear_lookup(ctx);
	if (ctx->fs_usable && ctx->fs->ndevs > 1 && !ctx->opt.list_only &&
	    open_members(ctx, &dopts))
		return close_with(ctx, FSCK_EXIT_ERROR);
	if (ctx->opt.list_only) {
		fsck_print_sb_cp(ctx);
		return close_with(ctx, ctx->fs_usable && !f2fs_fs_salvaged(ctx->fs) ?
				  FSCK_EXIT_OK : FSCK_EXIT_UNCORRECTED);
	}
	if (device_unusable(ctx))
		return close_with(ctx, FSCK_EXIT_ERROR);
	fsck_report_init(ctx);
	if (!ctx->code_count) {
		fsck_fail(ctx, "out_of_memory", "out of memory");
		return close_with(ctx, FSCK_EXIT_ERROR);
	}
	run_passes(ctx, reuse);
	return -1;
}

/* "1:N 2-3:N ..." for the non-empty size classes of counts. */
static void format_size_classes(const uint64_t *counts, char *buf, size_t cap)
{
	size_t o = 0;

	buf[0] = 0;
	for (unsigned int c = 0; c < F2FS_DEV_SIZE_CLASSES && o < cap; c++) {
		uint64_t lo = 1ull << c, hi = (lo << 1) - 1;
		int n;

		if (!counts[c])
			continue;
		if (c == 0)
			n = snprintf(buf + o, cap - o, " 1:%llu", (unsigned long long)counts[c]);
		else if (c == F2FS_DEV_SIZE_CLASSES - 1)
			n = snprintf(buf + o, cap - o, " %llu+:%llu", (unsigned long long)lo,
				     (unsigned long long)counts[c]);
		else
			n = snprintf(buf + o, cap - o, " %llu-%llu:%llu", (unsigned long long)lo,
				     (unsigned long long)hi, (unsigned long long)counts[c]);
		if (n < 0)
			break;
		o += (size_t)n;
	}
}

static void debug_io_sizes(struct fsck_ctx *ctx)
{
	const struct f2fs_dev_stats *st = f2fs_dev_stats(ctx->fs->dev);
	char reads[F2FS_DEV_SIZE_CLASSES * 40];

	format_size_classes(st->read_sizes, reads, sizeof(reads));
	fsck_debug(ctx, 1, "I/O request sizes in blocks (size:count): read calls%s",
		   reads[0] ? reads : " none");
}

static void debug_io(struct fsck_ctx *ctx)
{
	fsck_debug(ctx, 1, "blocks: %llu data, %llu NEW_ADDR, %llu COMPRESS_ADDR slots, %llu nodes",
		   (unsigned long long)ctx->st.data_blocks, (unsigned long long)ctx->st.new_addr_blocks,
		   (unsigned long long)ctx->st.compress_addr_slots, (unsigned long long)ctx->st.nodes);
	fsck_debug(ctx, 1, "walk: at most %llu inodes waiting at once",
		   (unsigned long long)ctx->st.walk_peak);
	if (ctx->opt.debug && ctx->fs && ctx->fs->dev)
		fsck_debug(ctx, 1, "I/O: %llu read calls (%llu missed the page cache), "
			   "%llu blocks read, %llu writes",
			   (unsigned long long)f2fs_dev_stats(ctx->fs->dev)->read_calls,
			   (unsigned long long)f2fs_dev_stats(ctx->fs->dev)->read_misses,
			   (unsigned long long)f2fs_dev_stats(ctx->fs->dev)->read_blocks,
			   (unsigned long long)f2fs_dev_stats(ctx->fs->dev)->write_calls);
	if (ctx->opt.debug && ctx->fs && ctx->fs->dev)
		debug_io_sizes(ctx);
}

/* The options of the check after a repair. */
static void recheck_opts(struct fsck_ctx *ctx, const struct fsck_ctx *parent)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->opt = parent->opt;
	ctx->output = parent->output;
	ctx->opt.mode = FSCK_MODE_CHECK;
	ctx->opt.dry_run = false;
	ctx->opt.recheck = true;
	ctx->opt.no_relist = false;
	ctx->opt.tree = false;
	ctx->opt.write_limit = 0;
	ctx->opt.lost_writes = 0;
	ctx->opt.progress_fd = -1;
	ctx->opt.progress_bar = false;
}

/* The targeted re-check (fsck_recheck.c): run without printing; when it
 * finds the volume clean, print its summary as the re-check's and return
 * true.  False (nothing printed): the full re-check decides. */
static bool targeted_recheck(struct fsck_ctx *parent, const struct fsck_recheck_snap *snap,
			     const struct fsck_repair_stats *stats)
{
	struct walk_reuse reuse = { .parent = parent, .snap = snap, .stats = stats };
	struct fsck_output quiet;
	struct fsck_ctx ctx;
	bool clean;

	memset(&quiet, 0, sizeof(quiet));
	recheck_opts(&ctx, parent);
	ctx.output = &quiet;
	ctx.opt.json = false;
	ctx.opt.recheck = false;
	ctx.opt.no_relist = true;	/* count, print nothing */
	if (open_and_check(&ctx, false, &reuse) >= 0) {
		free_ctx(&ctx);
		return false;
	}
	clean = !reuse.refused && !ctx.exit_override && !quiet.error_code &&
		!ctx.n_errors && !ctx.n_warnings && !ctx.n_infos;
	fsck_debug(&ctx, 1, "re-check: %s", clean ? "targeted (the walk's findings taken over)" :
		   "the targeted re-check cannot vouch for the volume: checking all of it");
	if (clean) {
		ctx.output = parent->output;
		ctx.opt.json = parent->opt.json;
		ctx.opt.recheck = true;
		ctx.opt.no_relist = false;
		fsck_report_free(&ctx);
		fsck_report_init(&ctx);
		fsck_print_summary(&ctx);
	}
	free_ctx(&ctx);
	return clean;
}

/* The check after a repair: its problems and its summary are printed (in
 * JSON as the "recheck" object); returns their count, or -1 when the
 * volume cannot be read.  Targeted when the snapshot allows it and it
 * finds the volume clean, else in full. */
static int64_t recheck(struct fsck_ctx *parent, const struct fsck_recheck_snap *snap,
		       const struct fsck_repair_stats *stats)
{
	struct fsck_ctx ctx;
	int code;
	int64_t n;

	if (snap->usable && targeted_recheck(parent, snap, stats))
		return 0;
	/* the full re-check needs only the parent's options and output: its
	 * maps, per-nid records and plan would double the peak memory */
	free_check_state(parent);
	recheck_opts(&ctx, parent);
	code = open_and_check(&ctx, false, NULL);
	if (code >= 0)
		return -1;
	n = ctx.exit_override ? -1 : (int64_t)(ctx.n_errors + ctx.n_warnings);
	if (n >= 0)
		fsck_print_summary(&ctx);
	free_ctx(&ctx);
	return n;
}

/* Close the undo file after the repair's writes (the device is flushed
 * first); its error replaces a successful outcome. */
static int finish_undo(struct fsck_ctx *ctx, int outcome)
{
	int err = f2fs_dev_finish_undo(ctx->fs->dev);

	if (err) {
		fsck_diag(ctx, "the undo file %s is incomplete: %s", ctx->opt.undo_file,
			  f2fs_strerror(err));
		return err;
	}
	return outcome;
}

/* Repair what the check recorded; returns the exit code. */
/* The SIT and NAT models of the check before the repair: written, and
 * not needed by the re-check (it reads them back); freed before it so
 * that both do not count in the peak memory. */
static void drop_models(struct fsck_ctx *ctx)
{
	if (ctx->sit_loaded)
		f2fs_sit_free(&ctx->sit);
	if (ctx->nat_loaded)
		f2fs_nat_free(&ctx->nat);
	ctx->sit_loaded = false;
	ctx->nat_loaded = false;
}

/* After the repair's writes: the outcome and the re-check; returns the
 * exit code. */
static int judge_repair(struct fsck_ctx *ctx, int err, uint64_t written,
			const struct fsck_recheck_snap *snap, const struct fsck_repair_stats *stats)
{
	double t0;
	int64_t left;

	if (!err || err == -EAGAIN)
		err = finish_undo(ctx, err);
	if (err == -EAGAIN) {
		fsck_print_repair(ctx, "refused", 0);
		return FSCK_EXIT_UNCORRECTED;
	}
	if (err) {
		fsck_fail(ctx, "repair_failed", "repair failed: %s", f2fs_strerror(err));
		return FSCK_EXIT_ERROR;
	}
	if (ctx->opt.dry_run) {
		fsck_print_repair(ctx, "dry_run", written);
		return FSCK_EXIT_UNCORRECTED;
	}
	if (ctx->opt.write_limit)
		return FSCK_EXIT_NONDESTRUCT;	/* test hook: the cut image is judged by the caller */
	fsck_print_repair(ctx, "written", written);
	drop_models(ctx);
	t0 = cpu_seconds();
	left = recheck(ctx, snap, stats);
	fsck_debug(ctx, 1, "CPU time: re-check %.3f s", cpu_seconds() - t0);
	if (left < 0)
		return FSCK_EXIT_ERROR;
	if (left) {
		fsck_diag(ctx, "%lld problems remain after the repair", (long long)left);
		return FSCK_EXIT_UNCORRECTED;
	}
	return FSCK_EXIT_NONDESTRUCT;
}

/* Repair what the check recorded; returns the exit code. */
static int repair(struct fsck_ctx *ctx)
{
	struct fsck_repair_stats stats;
	struct fsck_recheck_snap snap;
	uint64_t written = 0;
	double t0;
	int err, code;

	if (ctx->opt.mode == FSCK_MODE_PREEN && !ctx->opt.dry_run && ctx->preen_refused) {
		fsck_diag(ctx, "UNEXPECTED INCONSISTENCY: a problem is not safe to fix unattended; "
			  "run fsck.f2fs -y (nothing was written)");
		fsck_print_repair(ctx, "refused", 0);
		return FSCK_EXIT_UNCORRECTED;
	}
	if (ctx->fs && ctx->fs->cp_unread_maybe_newer && !ctx->opt.dry_run) {
		fsck_fail(ctx, "io_error", "checkpoint pack %d cannot be read and may hold a newer "
			  "checkpoint than the one checked: a repair would write over it from the "
			  "older state (nothing was written)", 2 - ctx->fs->cp_index);
		return FSCK_EXIT_ERROR;
	}
	if (ctx->opt.undo_file && !ctx->opt.dry_run) {
		err = f2fs_dev_start_undo(ctx->fs->dev, ctx->opt.undo_file);
		if (err) {
			fsck_fail(ctx, "undo_failed", "cannot write the undo file %s: %s "
				  "(nothing was written)", ctx->opt.undo_file, f2fs_strerror(err));
			return FSCK_EXIT_ERROR;
		}
	}
	memset(&stats, 0, sizeof(stats));
	memset(&snap, 0, sizeof(snap));
	t0 = cpu_seconds();
	if (!ctx->opt.dry_run && !ctx->opt.write_limit)
		fsck_recheck_snapshot(ctx, &snap);
	err = fsck_repair_apply(ctx, &written, &stats);
	fsck_debug(ctx, 1, "CPU time: repair %.3f s", cpu_seconds() - t0);
	code = judge_repair(ctx, err, written, &snap, &stats);
	fsck_recheck_snap_free(&snap);
	return code;
}

/* The kernel asked for a check (CP_FSCK_FLAG, CP_QUOTA_NEED_FSCK_FLAG): a
 * repairing run that finds nothing else still writes a checkpoint without
 * the request, as f2fs-tools does; otherwise the kernel keeps asking (and
 * keeps quota off).  The quota request is answered only when the quota
 * files were checked (quota_ino): a checkpoint that keeps it would be
 * written again by every run. */
static bool kernel_asked(const struct fsck_ctx *ctx)
{
	uint32_t flags;

	if (!ctx->fs_usable || !ctx->fs || !ctx->fs->cp)
		return false;
	flags = ctx->fs->cp_flags;
	return (flags & CP_FSCK_FLAG) ||
	       ((flags & CP_QUOTA_NEED_FSCK_FLAG) && fsck_quota_settled(ctx));
}

/* The check's verdict, before any repair. */
static int check_verdict(const struct fsck_ctx *ctx)
{
	if (ctx->exit_override)
		return ctx->exit_override;
	return ctx->n_errors + ctx->n_warnings ? FSCK_EXIT_UNCORRECTED : FSCK_EXIT_OK;
}

/* Whether the device is mounted (a mount we cannot see is not reported:
 * the kernel's O_EXCL still guards a block device a repair writes to). */
static bool device_mounted(const char *path, char **where)
{
	bool mounted = false;

	*where = NULL;
	return f2fs_dev_check_mounted(path, &mounted, where) == 0 && mounted;
}

/* A mounted volume is never repaired: the kernel holds its own view of
 * the checkpoint and would write it back over the repair.  -y/-f refuse
 * before reading anything; a check, preen and the interactive mode go on
 * read-only with a warning and stop short of writing (see run_once).
 * Returns an exit code, or -1 to go on. */
static int refuse_if_mounted(const struct fsck_opts *o, struct fsck_output *out, bool *mounted)
{
	struct fsck_ctx ctx;
	char *where;

	*mounted = false;
	if (o->list_only || !device_mounted(o->device, &where))
		return -1;
	*mounted = true;
	if (!repairing(o) || o->dry_run || o->mode == FSCK_MODE_PREEN) {
		fprintf(stderr, "fsck.f2fs: warning: %s is mounted on %s: the check reads its last "
			"checkpoint, and nothing will be written\n", o->device, where ? where : "?");
		free(where);
		return -1;
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.output = out;
	fsck_fail(&ctx, "mounted", "%s is mounted on %s; unmount it before a repair "
		  "(nothing was checked)", o->device, where ? where : "?");
	free(where);
	return FSCK_EXIT_ERROR;
}

/* Whether the verdict leads to a write (a repair, or a checkpoint that
 * answers the kernel's request for a check). */
static bool verdict_writes(const struct fsck_ctx *ctx, int code)
{
	const struct fsck_opts *o = &ctx->opt;

	if (!repairing(o) || o->dry_run)
		return false;
	if (code == FSCK_EXIT_UNCORRECTED)
		return o->mode != FSCK_MODE_PREEN || !ctx->preen_refused;
	return code == FSCK_EXIT_OK && kernel_asked(ctx);
}

/*
 * One check, then what the mode does with its verdict.  Preen opens the
 * device read-only (boot scripts run it on every start, and most runs
 * stop after the mount checks); when its verdict leads to a write,
 * *reopen_rw asks the caller to run again with write access, without
 * listing the problems a second time.  A mounted volume is never written:
 * preen stops there with exit 4.
 */
static int run_once(const struct fsck_opts *o, struct fsck_output *out, bool *ask_again,
		    bool *reopen_rw, bool mounted)
{
	bool read_first = o->mode == FSCK_MODE_PREEN && !o->dry_run && !o->preen_rw;
	struct fsck_ctx ctx;
	int code;

	memset(&ctx, 0, sizeof(ctx));
	ctx.opt = *o;
	ctx.output = out;
	*ask_again = false;
	*reopen_rw = false;
	code = open_and_check(&ctx, repairing(o) && !read_first, NULL);
	if (code >= 0)
		return code;
	fsck_debug(&ctx, 1, "CPU time: check %.3f s", cpu_seconds());
	code = check_verdict(&ctx);
	if (code != FSCK_EXIT_ERROR)
		fsck_print_summary(&ctx);
	debug_io(&ctx);
	if (read_first && verdict_writes(&ctx, code)) {
		if (mounted) {
			fsck_diag(&ctx, "the volume is mounted: nothing was written; unmount it and "
				  "run fsck.f2fs again");
			code = FSCK_EXIT_UNCORRECTED;
		} else {
			*reopen_rw = true;
		}
	} else if (code == FSCK_EXIT_UNCORRECTED && repairing(o)) {
		code = repair(&ctx);
	} else if (code == FSCK_EXIT_OK && repairing(o) && !o->dry_run && kernel_asked(&ctx)) {
		code = repair(&ctx);
	} else if (code == FSCK_EXIT_UNCORRECTED && interactive(o) && !mounted) {
		*ask_again = ask_fix();
	}
	free_ctx(&ctx);
	return code;
}

static bool json_asked(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--json"))
			return true;
	return false;
}

/* glibc serves an allocation of 128 KiB or more by mmap, but raises that
 * threshold to the size of each such block freed (up to 32 MiB): after
 * the first bitmap or array of a few MiB is freed, the next ones come
 * from the heap, and calloc() clears them there, touching every page.
 * The maps of a check are mostly zero pages never touched (a bit per
 * main block, a record per nid), and a repair's re-check allocates them
 * all again: a fixed threshold keeps them untouched until used. */
static void keep_mmap_threshold(void)
{
#ifdef M_MMAP_THRESHOLD
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

int main(int argc, char **argv)
{
	struct fsck_output out;
	struct fsck_opts o;
	bool again = false, reopen = false, mounted;
	int code;

	keep_mmap_threshold();
	code = parse_args(argc, argv, &o);
	if (code >= 0) {
		if (code == FSCK_EXIT_USAGE && json_asked(argc, argv))
			fsck_print_usage_error_json(code);
		return code;
	}
	code = fsck_linear_lookup(&o);
	if (code >= 0)
		return code;
	if (fsck_output_open(&out, o.device, o.json && !o.list_only)) {
		fprintf(stderr, "fsck.f2fs: out of memory\n");
		return FSCK_EXIT_ERROR;
	}
	code = refuse_if_mounted(&o, &out, &mounted);
	if (code < 0)
		code = run_once(&o, &out, &again, &reopen, mounted);
	if (again || reopen) {
		/* the answer was yes, or preen found what it may fix: check again
		 * with write access and repair, without listing the problems again */
		if (again)
			o.mode = FSCK_MODE_YES;
		o.preen_rw = true;
		o.no_relist = true;
		code = run_once(&o, &out, &again, &reopen, mounted);
	}
	fsck_output_finish(&out, o.device, code);
	return code;
}
