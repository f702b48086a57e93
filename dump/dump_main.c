/*
 * dump_main.c - dump.f2fs: command line (compatible with f2fs-tools'
 * dump.f2fs, plus --json, --output, --super, --sections, --nat-bits and
 * --zones),
 * opening the volume read-only, and running the requested views in a
 * fixed order into one text stream or one JSON document.
 *
 * Exit status: 0 when every requested view succeeded, 1 otherwise, with a
 * one-line message on stderr.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dump.h"
#include "f2fs_zone.h"

enum {
	OPT_JSON = 256,
	OPT_OUTPUT,
	OPT_SUPER,
	OPT_SECTIONS,
	OPT_NAT_BITS,
	OPT_ZONES,
	OPT_ZONE_MODEL,
	OPT_HELP,
};

static const struct option long_opts[] = {
	{ "json", no_argument, NULL, OPT_JSON },
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ "super", no_argument, NULL, OPT_SUPER },
	{ "sections", optional_argument, NULL, OPT_SECTIONS },
	{ "nat-bits", no_argument, NULL, OPT_NAT_BITS },
	{ "zones", no_argument, NULL, OPT_ZONES },
	{ "zone-model", required_argument, NULL, OPT_ZONE_MODEL },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fputs("Usage: dump.f2fs [options] device\n"
	      "  -d level        debug level; 1 or more also prints the superblock and checkpoint\n"
	      "  --super         every superblock and checkpoint field (the default view)\n"
	      "  -i ino          inode fields and xattrs (decimal or 0x-hex)\n"
	      "  -o dir          with -i or -r: extract files and directories into dir\n"
	      "  -P              keep mode, owner and times when extracting\n"
	      "  -L              extract symlinks as symlinks\n"
	      "  -r              extract from the root directory\n"
	      "  -M              with -i: print the block map\n"
	      "  -n a~b          NAT entries of nids a..b (both copies, journal)\n"
	      "  -s a~b          SIT entries of segments a..b\n"
	      "  -a a~b          SSA blocks of segments a..b\n"
	      "  --sections[=a~b] per-section table with totals\n"
	      "  --nat-bits      nat_bits state\n"
	      "  --zones         zones of the zoned devices beside their sections\n"
	      "  --zone-model FILE  the device's emulated zones (default: DEVICE.zones)\n"
	      "  -b blkaddr      what a block address holds and who owns it\n"
	      "  -I ino          scan node segments for every copy of an inode's nodes\n"
	      "  --json          one JSON document instead of text\n"
	      "  --output file   write to file instead of stdout\n"
	      "  -V, --version   print the version\n"
	      "  -h, --help      print this help\n"
	      "Ranges: a~b, with b = -1 for the end; numbers are decimal or 0x-hex.\n", f);
}

int dump_fail(struct dump_ctx *ctx, int err, const char *fmt, ...)
{
	va_list ap;

	if (!ctx->errmsg[0]) {
		va_start(ap, fmt);
		vsnprintf(ctx->errmsg, sizeof(ctx->errmsg), fmt, ap);
		va_end(ap);
	}
	return err ? err : -EINVAL;
}

/* Decimal, or hex with a 0x prefix (never octal). */
static int parse_u64(const char *s, uint64_t *v)
{
	char *end;
	int base = 10;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		if (!*s)
			return -EINVAL;
	}
	errno = 0;
	*v = strtoull(s, &end, base);
	if (errno || *end)
		return -EINVAL;
	return 0;
}

int dump_parse_u32(const char *s, uint32_t *v)
{
	uint64_t x;

	if (parse_u64(s, &x) || x > UINT32_MAX)
		return -EINVAL;
	*v = (uint32_t)x;
	return 0;
}

int dump_parse_range(const char *s, struct dump_range *r)
{
	const char *tilde = strchr(s, '~');
	char first[64];
	size_t n;

	r->set = true;
	if (!tilde) {
		if (parse_u64(s, &r->a))
			return -EINVAL;
		r->b = r->a;
		return 0;
	}
	n = (size_t)(tilde - s);
	if (n == 0 || n >= sizeof(first))
		return -EINVAL;
	memcpy(first, s, n);
	first[n] = '\0';
	if (parse_u64(first, &r->a))
		return -EINVAL;
	if (!strcmp(tilde + 1, "-1")) {
		r->b = UINT64_MAX;
		return 0;
	}
	if (parse_u64(tilde + 1, &r->b) || r->b < r->a)
		return -EINVAL;
	return 0;
}

static int bad_arg(struct dump_ctx *ctx, int opt, const char *arg)
{
	return dump_fail(ctx, -EINVAL, "invalid argument for -%c: '%s'", opt, arg);
}

static int parse_short(struct dump_ctx *ctx, int c, const char *arg)
{
	struct dump_opts *o = &ctx->opt;

	switch (c) {
	case 'd': {
		uint32_t level;

		if (dump_parse_u32(arg, &level) || level > 9)
			return bad_arg(ctx, c, arg);
		o->debug = (int)level;
		return 0;
	}
	case 'i':
		o->have_ino = true;
		return dump_parse_u32(arg, &o->ino) ? bad_arg(ctx, c, arg) : 0;
	case 'I':
		o->scan = true;
		return dump_parse_u32(arg, &o->scan_ino) ? bad_arg(ctx, c, arg) : 0;
	case 'b':
		o->have_blk = true;
		return dump_parse_u32(arg, &o->blkaddr) ? bad_arg(ctx, c, arg) : 0;
	case 'n':
		return dump_parse_range(arg, &o->nat) ? bad_arg(ctx, c, arg) : 0;
	case 's':
		return dump_parse_range(arg, &o->sit) ? bad_arg(ctx, c, arg) : 0;
	case 'a':
		return dump_parse_range(arg, &o->ssa) ? bad_arg(ctx, c, arg) : 0;
	case 'o': o->out_dir = arg; return 0;
	case 'P': o->preserve = true; return 0;
	case 'L': o->keep_symlinks = true; return 0;
	case 'r': o->from_root = true; return 0;
	case 'M': o->block_map = true; return 0;
	case 'f': case 'y': case 'N': case 'S': return 0;	/* accepted, no effect */
	default:
		return dump_fail(ctx, -EINVAL, "unknown option (see --help)");
	}
}

/* Name the option getopt_long() refused ('?') or found without its
 * argument (':') as the user wrote it. */
static int bad_option(struct dump_ctx *ctx, int c, int argc, char **argv)
{
	const char *what = c == ':' ? "option needs an argument:" : "unknown option";

	if (optopt > 0 && optopt < 128)
		return dump_fail(ctx, -EINVAL, "%s -%c (see --help)", what, optopt);
	return dump_fail(ctx, -EINVAL, "%s %s (see --help)", what,
			 optind > 0 && optind <= argc ? argv[optind - 1] : "?");
}

/* Returns 0, 1 for "exit 0 now" (help/version), or a negative error. */
static int parse_args(struct dump_ctx *ctx, int argc, char **argv)
{
	struct dump_opts *o = &ctx->opt;
	int c, err;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:i:I:o:PLrMn:s:a:b:VfyNSh", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_JSON: o->json = true; break;
		case OPT_OUTPUT: o->output = optarg; break;
		case OPT_SUPER: o->super = true; break;
		case OPT_NAT_BITS: o->nat_bits = true; break;
		case OPT_ZONES: o->zones = true; break;
		case OPT_ZONE_MODEL: o->zone_model = optarg; break;
		case OPT_SECTIONS:
			o->sections.set = true;
			o->sections.a = 0;
			o->sections.b = UINT64_MAX;
			if (optarg && dump_parse_range(optarg, &o->sections))
				return dump_fail(ctx, -EINVAL, "invalid range for --sections: '%s'", optarg);
			break;
		case 'h': case OPT_HELP: usage(stdout); return 1;
		case 'V': printf("dump.f2fs (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION); return 1;
		case '?': case ':':
			return bad_option(ctx, c, argc, argv);
		default:
			err = parse_short(ctx, c, optarg);
			if (err)
				return err;
		}
	}
	if (optind != argc - 1)
		return dump_fail(ctx, -EINVAL, optind >= argc ? "no device given (see --help)"
				 : "more than one device given");
	o->device = argv[optind];
	if (o->out_dir && !o->have_ino && !o->from_root)
		return dump_fail(ctx, -EINVAL, "-o needs -i ino or -r");
	if (o->from_root && !o->out_dir)
		return dump_fail(ctx, -EINVAL, "-r needs -o dir");
	if (o->block_map && !o->have_ino)
		return dump_fail(ctx, -EINVAL, "-M needs -i ino");
	return 0;
}

static bool any_view(const struct dump_opts *o)
{
	return o->have_ino || o->from_root || o->nat.set || o->sit.set || o->ssa.set ||
	       o->sections.set || o->nat_bits || o->have_blk || o->scan || o->zones;
}

typedef int (*view_fn)(struct dump_ctx *ctx);

static int run_view(struct dump_ctx *ctx, view_fn fn)
{
	if (ctx->open_err)
		return dump_fail(ctx, ctx->open_err, "cannot load the volume: %s",
				 f2fs_strerror(ctx->open_err));
	return fn(ctx);
}

/* Views that read the main area need every device of the volume (opened
 * by open_volume from the superblock's device list). */
static int run_main_view(struct dump_ctx *ctx, view_fn fn)
{
	if (!ctx->open_err && ctx->members_err) {
		char msg[160];

		f2fs_fs_member_error(ctx->fs, ctx->members_failed, ctx->members_err, msg,
				     sizeof(msg));
		return dump_fail(ctx, ctx->members_err, "%s", msg);
	}
	return run_view(ctx, fn);
}

/* Run the views in a fixed order; stop at the first failure. */
static int run_views(struct dump_ctx *ctx)
{
	struct dump_opts *o = &ctx->opt;
	int err = 0;

	if (o->super || o->debug > 0 || !any_view(o))
		err = dump_super_view(ctx);
	if (!err && o->sections.set)
		err = run_view(ctx, dump_sections_view);
	if (!err && o->zones)
		err = run_main_view(ctx, dump_zones_view);
	if (!err && o->sit.set)
		err = run_view(ctx, dump_sit_view);
	if (!err && o->ssa.set)
		err = run_view(ctx, dump_ssa_view);
	if (!err && o->nat.set)
		err = run_view(ctx, dump_nat_view);
	if (!err && o->nat_bits)
		err = run_view(ctx, dump_nat_bits_view);
	if (!err && o->have_blk)
		err = run_main_view(ctx, dump_block_view);
	if (!err && o->have_ino)
		err = run_main_view(ctx, dump_inode_view);
	if (!err && o->scan)
		err = run_main_view(ctx, dump_scan_view);
	if (!err && o->out_dir)
		err = run_main_view(ctx, dump_extract);
	return err;
}

/* f2fs_fs_open() refused the device with -EINVAL: when its emulated zone
 * model is what was wrong, say so (1), else 0. */
static int explain_zone_model(struct dump_ctx *ctx)
{
	char model[4096], why[256];
	struct stat st, mst;

	if (ctx->opt.zone_model)
		snprintf(model, sizeof(model), "%s", ctx->opt.zone_model);
	else if ((size_t)snprintf(model, sizeof(model), "%s.zones", ctx->opt.device) >= sizeof(model))
		return 0;
	if (stat(ctx->opt.device, &st) < 0 || !S_ISREG(st.st_mode) || stat(model, &mst) < 0)
		return 0;
	if (f2fs_zone_model_explain(model, (uint64_t)st.st_size, why, sizeof(why)) == 0)
		return 0;
	dump_fail(ctx, -EINVAL, "%s: zone model %s: %s", ctx->opt.device, model, why);
	return 1;
}

static int open_volume(struct dump_ctx *ctx)
{
	struct f2fs_dev_opts dev_opts = { .read_only = true, .zone_model = ctx->opt.zone_model };
	int err;

	err = f2fs_fs_open(ctx->opt.device, &dev_opts, &ctx->fs);
	dev_opts.zone_model = NULL;	/* the other devices: their own DEVICE.zones */
	if (err == -EINVAL && !ctx->fs && explain_zone_model(ctx))
		return -EINVAL;
	if (err && (!ctx->fs || ctx->fs->sb_index < 0)) {
		if (ctx->fs)
			return dump_fail(ctx, err, "%s: no valid superblock (copy 1: %s; copy 2: %s)",
					 ctx->opt.device,
					 ctx->fs->sb_check[0].why ? ctx->fs->sb_check[0].why : "?",
					 ctx->fs->sb_check[1].why ? ctx->fs->sb_check[1].why : "?");
		return dump_fail(ctx, err, "%s: %s", ctx->opt.device, f2fs_strerror(err));
	}
	ctx->open_err = err;
	if (!err)
		ctx->members_err = f2fs_fs_open_members(ctx->fs, &dev_opts, &ctx->members_failed);
	dump_report_fallbacks(ctx);
	return 0;
}

/* -d 2: how much was read, for checking that a view reads only what it needs. */
static void report_io(const struct f2fs_dev *dev)
{
	fprintf(stderr, "dump.f2fs: io: %" PRIu64 " read calls, %" PRIu64 " blocks read\n",
		f2fs_dev_stats(dev)->read_calls, f2fs_dev_stats(dev)->read_blocks);
}

int main(int argc, char **argv)
{
	struct dump_ctx *ctx = calloc(1, sizeof(*ctx));
	int err;

	if (!ctx) {
		fputs("dump.f2fs: out of memory\n", stderr);
		return 1;
	}
	ctx->nat_cache_block = UINT32_MAX;
	ctx->out.f = stdout;
	err = parse_args(ctx, argc, argv);
	if (err == 1) {
		free(ctx);
		return 0;
	}
	if (!err && ctx->opt.output) {
		ctx->out.f = fopen(ctx->opt.output, "w");
		if (!ctx->out.f) {
			ctx->out.f = stdout;
			err = dump_fail(ctx, -errno, "cannot create %s: %s", ctx->opt.output,
					strerror(errno));
		}
	}
	ctx->out.json = ctx->opt.json;
	if (!err)
		err = open_volume(ctx);
	if (!err) {
		if (ctx->out.json)
			out_obj_begin(&ctx->out, NULL);
		err = run_views(ctx);
		if (ctx->out.json) {
			out_str(&ctx->out, "error", err ? ctx->errmsg : NULL);
			out_obj_end(&ctx->out);
		}
	}
	if (fflush(ctx->out.f) && !err)
		err = dump_fail(ctx, -EIO, "write error: %s", strerror(errno));
	if (ctx->out.f != stdout)
		fclose(ctx->out.f);
	if (err)
		fprintf(stderr, "dump.f2fs: %s\n", ctx->errmsg[0] ? ctx->errmsg : f2fs_strerror(err));
	if (ctx->opt.debug >= 2 && ctx->fs)
		report_io(ctx->fs->dev);
	f2fs_fs_close(ctx->fs);
	free(ctx);
	return err ? 1 : 0;
}
