/*
 * fsck_tune.c - the linear-lookup fallback of casefolded volumes, as
 * f2fs-tools' fsck.f2fs handles it (fstests f2fs/012 drives both):
 *
 *  - a text run on a casefolded volume prints one line saying whether the
 *    kernel may fall back to a linear search when a name's hash misses
 *    ("Info: Casefold: linear_lookup [enable]");
 *  - --nolinear-lookup=1 sets, and --nolinear-lookup=0 clears,
 *    F2FS_ENC_NO_COMPAT_FALLBACK_FL in s_encoding_flags of both
 *    superblock copies (the kernel reads it at mount: set, a miss in the
 *    hash table is final), then the run goes on as asked.
 *
 * The flag change is the only write a plain check makes, and only when
 * the option asks for it; -n refuses the option, --dry-run drops the
 * write.  A copy that is already invalid is left for the repair.  With
 * --json the lines go to standard error (standard output carries the one
 * document).
 */
#include <stdio.h>
#include <string.h>

#include "f2fs_err.h"
#include "f2fs_super.h"
#include "fsck.h"

static bool is_casefolded(const struct f2fs_fs *fs)
{
	return le32_to_cpu(fs->sb.feature) & F2FS_FEATURE_CASEFOLD;
}

static bool fallback_disabled(const struct f2fs_super_block *sb)
{
	return le16_to_cpu(sb->s_encoding_flags) & F2FS_ENC_NO_COMPAT_FALLBACK_FL;
}

static int write_sb(struct f2fs_fs *fs, int i, const struct f2fs_super_block *sb)
{
	int err = f2fs_dev_pwrite(fs->dev, (uint64_t)i * F2FS_BLKSIZE + F2FS_SUPER_OFFSET,
				  sizeof(*sb), sb);

	return err ? err : f2fs_dev_flush(fs->dev);
}

/* Both valid copies get the new flags: the other copy first, then the one
 * in use, so a cut leaves one consistent superblock either way. */
static int set_fallback(struct f2fs_fs *fs, bool disable)
{
	struct f2fs_super_block sb = fs->sb;
	uint16_t flags = le16_to_cpu(sb.s_encoding_flags);
	int use = fs->sb_index, other = 1 - use, err = 0;

	if (disable)
		flags |= F2FS_ENC_NO_COMPAT_FALLBACK_FL;
	else
		flags &= (uint16_t)~F2FS_ENC_NO_COMPAT_FALLBACK_FL;
	sb.s_encoding_flags = cpu_to_le16(flags);
	f2fs_sb_update_checksum(&sb);
	if (!fs->sb_check[other].err)
		err = write_sb(fs, other, &sb);
	if (!err)
		err = write_sb(fs, use, &sb);
	return err;
}

/* out: standard output, or standard error when it carries JSON. */
static int tune(const struct fsck_opts *o, struct f2fs_fs *fs, FILE *out)
{
	bool disable = o->nolinear_lookup == 1;
	int err;

	fprintf(out, "Info: linear_lookup option: %s\n", disable ? "disable" : "enable");
	if (!is_casefolded(fs)) {
		fprintf(out, "Info: Not support Casefold feature\n");
		return -1;
	}
	if (fallback_disabled(&fs->sb) == disable)
		return -1;
	if (o->dry_run) {
		fprintf(out, "Info: Casefold: would %s linear lookup (dry run, not written)\n",
			disable ? "disable" : "enable");
		return -1;
	}
	err = set_fallback(fs, disable);
	if (err) {
		fprintf(stderr, "fsck.f2fs: %s: cannot write the superblock: %s\n", o->device,
			f2fs_strerror(err));
		return FSCK_EXIT_ERROR;
	}
	fprintf(out, "Info: Casefold: %s linear lookup\n", disable ? "disable" : "enable");
	return -1;
}

/* The linear_lookup line of a text run (fstests greps it), from the
 * superblock the check loaded: printed before anything else the check
 * says, without opening the device a second time. */
void fsck_print_linear_lookup(const struct fsck_ctx *ctx)
{
	const struct fsck_opts *o = &ctx->opt;
	const struct f2fs_super_block *sb;

	if (o->json || o->list_only || o->recheck || o->no_relist || o->nolinear_lookup >= 0)
		return;
	if (!ctx->fs || ctx->fs->sb_index < 0)
		return;
	sb = &ctx->fs->sb;
	if (le32_to_cpu(sb->feature) & F2FS_FEATURE_CASEFOLD)
		printf("Info: Casefold: linear_lookup [%s]\n",
		       fallback_disabled(sb) ? "disable" : "enable");
	fflush(stdout);
}

int fsck_linear_lookup(const struct fsck_opts *o)
{
	bool write = o->nolinear_lookup >= 0;
	struct f2fs_dev_opts dopts = { .read_only = false, .dry_run = o->dry_run,
				       .zone_model = o->zone_model };
	struct f2fs_fs *fs = NULL;
	bool mounted = false;
	int code;

	if (!write)
		return -1;	/* the check prints the line (fsck_print_linear_lookup) */
	if (o->answer_no) {
		fprintf(stderr, "fsck.f2fs: --nolinear-lookup writes the superblock; "
			"it cannot be combined with -n\n");
		return FSCK_EXIT_USAGE;
	}
	if (f2fs_dev_check_mounted(o->device, &mounted, NULL) == 0 && mounted) {
		fprintf(stderr, "fsck.f2fs: %s is mounted; --nolinear-lookup needs it unmounted\n",
			o->device);
		return FSCK_EXIT_ERROR;
	}
	/* a volume that does not open is the check's to report */
	if (f2fs_fs_open(o->device, &dopts, &fs) && (!fs || fs->sb_index < 0)) {
		f2fs_fs_close(fs);
		return -1;
	}
	code = tune(o, fs, o->json ? stderr : stdout);
	fflush(stdout);
	f2fs_fs_close(fs);
	return code;
}
