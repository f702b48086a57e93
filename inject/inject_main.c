/*
 * inject_main.c - inject.f2fs's command line (compatible with f2fs-tools'
 * inject.f2fs), opening the volume, dispatching to one target, and the
 * one-line report of what changed.  Exit status: 0 done, 1 error.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "f2fs_err.h"
#include "f2fs_dev.h"
#include "f2fs_undo.h"
#include "inject.h"

enum {
	OPT_DRY_RUN = 256, OPT_MB, OPT_IDX, OPT_VAL, OPT_STR, OPT_SB, OPT_CP,
	OPT_NAT, OPT_NID, OPT_SIT, OPT_BLK, OPT_SSA, OPT_NODE, OPT_DENT,
	OPT_DOTS, OPT_JOURNAL, OPT_SEGNO, OPT_PARENT, OPT_SSA_AREA, OPT_CP_BLK,
	OPT_NO_FIX, OPT_HELP, OPT_UNDO,
};

static const struct option long_opts[] = {
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "mb", required_argument, NULL, OPT_MB },
	{ "idx", required_argument, NULL, OPT_IDX },
	{ "val", required_argument, NULL, OPT_VAL },
	{ "str", required_argument, NULL, OPT_STR },
	{ "sb", required_argument, NULL, OPT_SB },
	{ "cp", required_argument, NULL, OPT_CP },
	{ "nat", required_argument, NULL, OPT_NAT },
	{ "nid", required_argument, NULL, OPT_NID },
	{ "sit", required_argument, NULL, OPT_SIT },
	{ "blk", required_argument, NULL, OPT_BLK },
	{ "ssa", no_argument, NULL, OPT_SSA },
	{ "node", no_argument, NULL, OPT_NODE },
	{ "dent", no_argument, NULL, OPT_DENT },
	{ "dots", required_argument, NULL, OPT_DOTS },
	{ "journal", no_argument, NULL, OPT_JOURNAL },
	{ "nat-journal", no_argument, NULL, OPT_JOURNAL },
	{ "sit-journal", no_argument, NULL, OPT_JOURNAL },
	{ "segno", required_argument, NULL, OPT_SEGNO },
	{ "parent", required_argument, NULL, OPT_PARENT },
	{ "ssa-area", no_argument, NULL, OPT_SSA_AREA },
	{ "cp-blk", required_argument, NULL, OPT_CP_BLK },
	{ "no-fix-checksum", no_argument, NULL, OPT_NO_FIX },
	{ "undo", required_argument, NULL, OPT_UNDO },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

int inj_err(const char *fmt, ...)
{
	va_list ap;

	fputs("inject.f2fs: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

void inj_dbg(const struct inj_ctx *c, int level, const char *fmt, ...)
{
	va_list ap;

	if (c->o->debug < level)
		return;
	fputs("inject.f2fs: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void inj_where(struct inj_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->ch.where, sizeof(c->ch.where), fmt, ap);
	va_end(ap);
}

static void usage(FILE *f)
{
	fputs(
"Usage: inject.f2fs [options] device\n"
"  --sb 0|1|2 --mb NAME [--idx N] --val V | --str S   superblock copy (0 current)\n"
"  --cp 0|1|2 --mb NAME [--idx N] --val V [--cp-blk first|last|both]\n"
"                                                     checkpoint pack (0 current)\n"
"  --nat 0|1|2 --mb NAME --nid N --val V [--journal [--idx SLOT]]\n"
"                                                     NAT entry (0: journal or current copy)\n"
"  --sit 0|1|2 --mb NAME --blk ADDR|--segno S --val V [--idx N] [--journal]\n"
"                                                     SIT entry (0: journal or current copy)\n"
"  --ssa --mb NAME --blk ADDR|--segno S [--idx N] --val V [--ssa-area]\n"
"                                                     summary entry or footer\n"
"  --node --mb NAME --nid N [--idx N] --val V | --str S  node block\n"
"  --dent --mb NAME --nid INO [--parent P] [--dots 1|2] [--idx N] --val V | --str S\n"
"                                                     the dentry of INO in its parent\n"
"  --blk ADDR --mb raw --idx OFFSET --val BYTE         any block\n"
"  --no-fix-checksum   leave checksums as they are after the change\n"
"  --dry-run           do not write anything\n"
"  --undo FILE         save the blocks it overwrites in FILE (a new file) first;\n"
"                      undo.f2fs FILE device puts them back\n"
"  -d N                debug level; -V, --version; -h, --help (with a target: its\n"
"                      members, one \"  member: description\" line each)\n",
	f);
}

static int parse_u32(const char *s, uint32_t *out, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || s[0] == '-' || v > UINT32_MAX)
		return inj_err("invalid %s '%s'", what, s);
	*out = (uint32_t)v;
	return 0;
}

static int parse_val(const char *s, struct inject_opts *o)
{
	char *end;

	errno = 0;
	if (s[0] == '-') {
		long long v = strtoll(s, &end, 0);

		o->val = (uint64_t)v;
		o->val_negative = v < 0;
	} else {
		o->val = strtoull(s, &end, 0);
		o->val_negative = false;
	}
	if (errno || end == s || *end)
		return inj_err("invalid --val '%s'", s);
	o->has_val = true;
	return 0;
}

static int parse_pack(const char *s, struct inject_opts *o, enum inj_target t)
{
	uint32_t v;

	if (o->target != INJ_NONE && o->target != t)
		return inj_err("give only one of --sb, --cp, --nat, --sit, --ssa, --node, --dent");
	if (parse_u32(s, &v, "pack") || v > 2)
		return inj_err("the copy/pack must be 0, 1 or 2");
	o->target = t;
	o->pack = (int)v;
	return 0;
}

static int set_target(struct inject_opts *o, enum inj_target t)
{
	if (o->target != INJ_NONE && o->target != t)
		return inj_err("give only one of --sb, --cp, --nat, --sit, --ssa, --node, --dent");
	o->target = t;
	return 0;
}

static int parse_cp_blk(const char *s, struct inject_opts *o)
{
	if (!strcmp(s, "both"))
		o->cp_blocks = INJ_CP_BOTH;
	else if (!strcmp(s, "first"))
		o->cp_blocks = INJ_CP_FIRST;
	else if (!strcmp(s, "last"))
		o->cp_blocks = INJ_CP_LAST;
	else
		return inj_err("--cp-blk takes first, last or both");
	return 0;
}

/* Returns 0 to go on, 1 to exit 0 (help/version), -1 on error. */
static int parse_one(int opt, const char *arg, struct inject_opts *o, bool *help)
{
	switch (opt) {
	case OPT_DRY_RUN: o->dry_run = true; return 0;
	case OPT_MB: o->mb = arg; return 0;
	case OPT_IDX: o->has_idx = true; return parse_u32(arg, &o->idx, "--idx");
	case OPT_VAL: return parse_val(arg, o);
	case OPT_STR: o->str = arg; return 0;
	case OPT_SB: return parse_pack(arg, o, INJ_SB);
	case OPT_CP: return parse_pack(arg, o, INJ_CP);
	case OPT_NAT: return parse_pack(arg, o, INJ_NAT);
	case OPT_SIT: return parse_pack(arg, o, INJ_SIT);
	case OPT_SSA: return set_target(o, INJ_SSA);
	case OPT_NODE: return set_target(o, INJ_NODE);
	case OPT_DENT: return set_target(o, INJ_DENT);
	case OPT_NID: o->has_nid = true; return parse_u32(arg, &o->nid, "--nid");
	case OPT_BLK: o->has_blk = true; return parse_u32(arg, &o->blk, "--blk");
	case OPT_SEGNO: o->has_segno = true; return parse_u32(arg, &o->segno, "--segno");
	case OPT_PARENT: o->has_parent = true; return parse_u32(arg, &o->parent, "--parent");
	case OPT_DOTS: {
		uint32_t v;

		if (parse_u32(arg, &v, "--dots") || v < 1 || v > 2)
			return inj_err("--dots takes 1 ('.') or 2 ('..')");
		o->dots = (int)v;
		return 0;
	}
	case OPT_JOURNAL: o->journal = true; return 0;
	case OPT_SSA_AREA: o->raw_ssa = true; return 0;
	case OPT_CP_BLK: return parse_cp_blk(arg, o);
	case OPT_NO_FIX: o->no_fix_checksum = true; return 0;
	case OPT_UNDO: o->undo_file = arg; return 0;
	case 'd': {
		uint32_t v;

		if (parse_u32(arg, &v, "debug level"))
			return -1;
		o->debug = (int)(v > 9 ? 9 : v);
		return 0;
	}
	case 'V':
		printf("inject.f2fs (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
		return 1;
	case 'h':
	case OPT_HELP:
		*help = true;
		return 0;
	default:
		usage(stderr);
		return -1;
	}
}

/* Name the option getopt_long() refused ('?') or found without its
 * argument (':') as the user wrote it; -1. */
static int refuse_option(int opt, int argc, char **argv)
{
	const char *what = opt == ':' ? "option needs an argument:" : "unknown option";

	usage(stderr);
	if (optopt > 0 && optopt < 128)
		return inj_err("%s -%c", what, optopt);
	return inj_err("%s %s", what, optind > 0 && optind <= argc ? argv[optind - 1] : "?");
}

static int parse_args(int argc, char **argv, struct inject_opts *o)
{
	bool help = false;
	int opt, r;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":d:Vh", long_opts, NULL)) != -1) {
		if (opt == '?' || opt == ':')
			return refuse_option(opt, argc, argv);
		r = parse_one(opt, optarg, o, &help);
		if (r)
			return r;
	}
	if (help) {
		usage(stdout);
		inject_list_members(o->target);
		return 1;
	}
	if (optind != argc - 1) {
		usage(stderr);
		return inj_err("give exactly one device");
	}
	o->device = argv[optind];
	if (o->target == INJ_NONE && o->has_blk)
		o->target = INJ_BLK;
	if (o->target == INJ_NONE)
		return inj_err("choose a target: --sb, --cp, --nat, --sit, --ssa, --node, --dent or --blk");
	if (!o->mb)
		return inj_err("--mb MEMBER is required (-h with a target lists them)");
	if (!o->has_val && !o->str && strcmp(o->mb, "d_bitmap"))
		return inj_err("--val or --str is required");
	if (o->undo_file && access(o->undo_file, F_OK) == 0)
		return inj_err("undo file %s exists; remove it or name a new one", o->undo_file);
	return 0;
}

static int open_volume(struct inj_ctx *c)
{
	struct f2fs_dev_opts dopts = { .read_only = false, .dry_run = c->o->dry_run };
	bool mounted = false;

	if (f2fs_dev_check_mounted(c->o->device, &mounted, NULL) == 0 && mounted)
		return inj_err("%s is mounted; refusing to change it", c->o->device);
	c->open_err = f2fs_fs_open(c->o->device, &dopts, &c->fs);
	if (!c->fs)
		return inj_err("cannot open %s: %s", c->o->device, f2fs_strerror(c->open_err));
	if (c->open_err) {
		inj_dbg(c, 1, "volume does not open cleanly (%s); raw access only",
			f2fs_strerror(c->open_err));
	} else {
		/* a multi-device volume: the others, from the device list */
		uint32_t failed;
		int err = f2fs_fs_open_members(c->fs, &dopts, &failed);
		char msg[160];

		if (err) {
			f2fs_fs_member_error(c->fs, failed, err, msg, sizeof(msg));
			return inj_err("%s", msg);
		}
	}
	return 0;
}

/* --undo: the file is started once the volume is open, before any write. */
static int start_undo(struct inj_ctx *c)
{
	int err;

	if (!c->o->undo_file || c->o->dry_run)
		return 0;
	err = f2fs_dev_start_undo(c->fs->dev, c->o->undo_file);
	if (err == -EOPNOTSUPP)
		return inj_err("--undo is not supported on zoned or multi-device volumes");
	if (err)
		return inj_err("cannot write the undo file %s: %s", c->o->undo_file,
			       f2fs_strerror(err));
	return 0;
}

static int dispatch(struct inj_ctx *c)
{
	switch (c->o->target) {
	case INJ_SB: return inject_sb(c);
	case INJ_CP: return inject_cp(c);
	case INJ_NAT: return inject_nat(c);
	case INJ_SIT: return inject_sit(c);
	case INJ_SSA: return inject_ssa(c);
	case INJ_NODE: return inject_node(c);
	case INJ_DENT: return inject_dent(c);
	case INJ_BLK: return inject_blk(c);
	default: return inj_err("no target");
	}
}

int main(int argc, char **argv)
{
	struct inject_opts o = { 0 };
	struct inj_ctx c = { .o = &o };
	int r;

	r = parse_args(argc, argv, &o);
	if (r)
		return r > 0 ? 0 : 1;
	if (open_volume(&c))
		return 1;
	if (start_undo(&c)) {
		f2fs_fs_close(c.fs);
		return 1;
	}
	r = dispatch(&c);
	if (!r && f2fs_dev_flush(c.fs->dev))
		r = inj_err("flush failed");
	if (!r && f2fs_dev_finish_undo(c.fs->dev))
		r = inj_err("the undo file %s is incomplete", o.undo_file);
	if (!r)
		printf("%s: %s %s -> %s%s\n", c.ch.where, c.ch.member, c.ch.old_val,
		       c.ch.new_val, o.dry_run ? " (dry run, not written)" : "");
	f2fs_fs_close(c.fs);
	return r ? 1 : 0;
}
