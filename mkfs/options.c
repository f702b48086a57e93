/*
 * options.c - the mkfs.f2fs command line: parsing, presets, and every
 * check that needs no device (ranges, feature names and dependencies).
 * Nothing here touches the device.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uuid/uuid.h>

#include "mkfs.h"
#include "f2fs_features.h"

void mkfs_err(const char *fmt, ...)
{
	va_list ap;

	fputs("mkfs.f2fs: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void mkfs_usage(FILE *f)
{
	fprintf(f,
"Usage: mkfs.f2fs [options] device [sectors]\n"
"Options:\n"
"  -a N          ignored (heap allocation is obsolete)\n"
"  -c dev[,dev]  add devices to the volume (up to 7; repeatable); all device\n"
"                paths are stored absolute\n"
"  -C enc[:flg]  enable casefolding with encoding utf8; flags strict, nostrict\n"
"  -d N          debug level\n"
"  -e ext,...    extra cold file extensions\n"
"  -E ext,...    extra hot file extensions\n"
"  -f            overwrite an existing filesystem or partition table\n"
"  -g android    Android defaults (encrypt, project_quota, verity, quota, no nat_bits;\n"
"                no features with -O ro)\n"
"  -h, --help    show this help\n"
"  -i            large NAT bitmap (NAT sized to 20%% of the blocks)\n"
"  -l label      volume label (up to 512 UTF-16 code units)\n"
"  -m            zoned block device mode: sections are zones, zones are reset;\n"
"                on for a host-managed device even without -m\n"
"  -o percent    overprovision ratio (default: chosen to maximize user space)\n"
"  -O feat,...   enable features (see the man page)\n"
"  -q            quiet\n"
"  -r            fixed checkpoint version seed (reproducible images)\n"
"  -R uid:gid    owner of the root directory (default: the caller)\n"
"  -s N          segments per section (default 1)\n"
"  -S size       Android sparse output (not supported: refused)\n"
"  -t 0|1        discard the device first (default 1; 0 with --undo)\n"
"  -T time       fixed timestamp (seconds since the epoch) for the inodes\n"
"  -U uuid       volume UUID (default: random)\n"
"  -V, --version print the version and exit\n"
"  -w size       sector size used by the sectors argument\n"
"  -z N          sections per zone (default 1)\n"
"  --file-contexts FILE  label / and /lost+found from an SELinux file_contexts\n"
"  --zone-model FILE     the device's emulated zones (default: DEVICE.zones if it\n"
"                exists; see f2fs_zone.h and mkfs.f2fs(8))\n"
"  --undo FILE   save every block the run overwrites in FILE (a new file) first;\n"
"                undo.f2fs FILE device puts the device back (no discard)\n"
"  sectors       volume size in sectors (default: the whole device)\n");
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
	uint64_t v;

	if (parse_u64(s, &v) || v < min || v > max)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

/* Apply one -O item; "feature" or "^feature" is not supported (f2fs
 * features cannot be cleared at mkfs time since none is on by default). */
static int add_features(struct mkfs_opts *o, const char *list)
{
	char *copy = strdup(list), *tok, *save = NULL;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint32_t mask;

		while (*tok == ' ')
			tok++;
		mask = f2fs_feature_by_name(tok);
		if (!mask) {
			mkfs_err("unknown feature '%s' (see mkfs.f2fs(8) for the list)", tok);
			err = -EINVAL;
			break;
		}
		o->features |= mask;
	}
	free(copy);
	return err;
}

/* A copy of an option argument that lives until mkfs_free_opts(), so the
 * lists can point into it. */
static char *keep_copy(struct mkfs_opts *o, const char *s)
{
	char *copy;

	if (o->n_kept >= sizeof(o->kept) / sizeof(o->kept[0]))
		return NULL;
	copy = strdup(s);
	if (copy)
		o->kept[o->n_kept++] = copy;
	return copy;
}

void mkfs_free_opts(struct mkfs_opts *o)
{
	while (o->n_kept)
		free(o->kept[--o->n_kept]);
}

static int add_extensions(struct mkfs_opts *o, const char *list, const char **arr,
			  unsigned int *n)
{
	char *copy = keep_copy(o, list), *tok, *save = NULL;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (strlen(tok) >= F2FS_EXTENSION_LEN) {
			mkfs_err("extension '%s' is longer than %d characters", tok,
				 F2FS_EXTENSION_LEN - 1);
			return -EINVAL;
		}
		if (*n >= MKFS_MAX_EXT_TOTAL) {
			mkfs_err("too many extensions (at most %d)", MKFS_MAX_EXT_TOTAL);
			return -EINVAL;
		}
		arr[(*n)++] = tok;
	}
	return 0;
}

/* -c dev[,dev...], repeatable: up to 7 devices after the first. */
static int add_devices(struct mkfs_opts *o, const char *list)
{
	char *copy = keep_copy(o, list), *tok, *save = NULL;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (strchr(tok, '@')) {
			mkfs_err("device aliasing (-c dev@alias) is not supported");
			return -ENOTSUP;
		}
		if (strlen(tok) >= MAX_PATH_LEN) {
			mkfs_err("device path '%s' is longer than %d characters", tok,
				 MAX_PATH_LEN - 1);
			return -EINVAL;
		}
		if (o->n_extra_dev >= MAX_DEVICES - 1) {
			mkfs_err("too many devices (at most %d with -c)", MAX_DEVICES - 1);
			return -EINVAL;
		}
		o->extra_dev[o->n_extra_dev++] = tok;
	}
	return 0;
}

/* A relative device path as an absolute one (the working directory in
 * front, leading "./" dropped; symlinks are kept as named).  NULL when it
 * does not fit the superblock's MAX_PATH_LEN or memory runs out (message
 * printed). */
static const char *absolute_path(struct mkfs_opts *o, const char *path)
{
	char cwd[4096], full[4096 + MAX_PATH_LEN];
	const char *abs;

	while (path[0] == '.' && path[1] == '/')
		path += 2;
	if (!getcwd(cwd, sizeof(cwd))) {
		mkfs_err("cannot make device path '%s' absolute: %s", path, strerror(errno));
		return NULL;
	}
	snprintf(full, sizeof(full), "%s%s%s", cwd, strcmp(cwd, "/") ? "/" : "", path);
	if (strlen(full) >= MAX_PATH_LEN) {
		mkfs_err("device path '%s' (given as '%s') is longer than %d characters; the "
			 "superblock stores absolute paths", full, path, MAX_PATH_LEN - 1);
		return NULL;
	}
	abs = keep_copy(o, full);
	if (!abs)
		mkfs_err("out of memory");
	return abs;
}

/* -c: every device of the list, the first included, stored absolute. */
static int absolute_paths(struct mkfs_opts *o)
{
	const char **paths[MAX_DEVICES];
	unsigned int i;

	paths[0] = &o->device;
	for (i = 0; i < o->n_extra_dev; i++)
		paths[i + 1] = &o->extra_dev[i];
	for (i = 0; i <= o->n_extra_dev; i++) {
		const char *p = *paths[i];

		if (p[0] == '/') {
			if (strlen(p) >= MAX_PATH_LEN) {
				mkfs_err("device path '%s' is longer than %d characters", p,
					 MAX_PATH_LEN - 1);
				return -EINVAL;
			}
			continue;
		}
		o->given_dev[i] = p;
		*paths[i] = absolute_path(o, p);
		if (!*paths[i])
			return -EINVAL;
	}
	return 0;
}

static int parse_encoding(struct mkfs_opts *o, const char *arg)
{
	char *copy = strdup(arg), *flags;

	if (!copy)
		return -ENOMEM;
	flags = strchr(copy, ':');
	if (flags)
		*flags++ = 0;
	if (strcmp(copy, "utf8")) {
		mkfs_err("unknown casefolding encoding '%s' (only utf8 is known)", copy);
		free(copy);
		return -EINVAL;
	}
	o->s_encoding = F2FS_ENC_UTF8_12_1;
	o->s_encoding_flags = 0;
	while (flags && *flags) {
		char *next = strchr(flags, ',');

		if (next)
			*next++ = 0;
		if (!strcmp(flags, "strict")) {
			o->s_encoding_flags |= F2FS_ENC_STRICT_MODE_FL;
		} else if (!strcmp(flags, "nostrict")) {
			o->s_encoding_flags &= (uint16_t)~F2FS_ENC_STRICT_MODE_FL;
		} else {
			mkfs_err("unknown casefolding flag '%s'", flags);
			free(copy);
			return -EINVAL;
		}
		flags = next;
	}
	o->features |= F2FS_FEATURE_CASEFOLD;
	free(copy);
	return 0;
}

/* UTF-8 label to UTF-16LE code units. */
static int set_label(struct mkfs_opts *o, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned int n = 0;

	memset(o->volume_name, 0, sizeof(o->volume_name));
	while (*p) {
		uint32_t cp;
		int extra;

		if (*p < 0x80) { cp = *p; extra = 0; }
		else if ((*p & 0xE0) == 0xC0) { cp = *p & 0x1F; extra = 1; }
		else if ((*p & 0xF0) == 0xE0) { cp = *p & 0x0F; extra = 2; }
		else if ((*p & 0xF8) == 0xF0) { cp = *p & 0x07; extra = 3; }
		else goto bad;
		p++;
		while (extra--) {
			if ((*p & 0xC0) != 0x80)
				goto bad;
			cp = (cp << 6) | (*p++ & 0x3F);
		}
		if (cp >= 0x10000) {
			if (n + 2 > MAX_VOLUME_NAME)
				goto long_label;
			cp -= 0x10000;
			o->volume_name[n++] = cpu_to_le16((uint16_t)(0xD800 | (cp >> 10)));
			o->volume_name[n++] = cpu_to_le16((uint16_t)(0xDC00 | (cp & 0x3FF)));
		} else {
			if (n + 1 > MAX_VOLUME_NAME)
				goto long_label;
			o->volume_name[n++] = cpu_to_le16((uint16_t)cp);
		}
	}
	o->label_given = true;
	return 0;
bad:
	mkfs_err("label is not valid UTF-8");
	return -EINVAL;
long_label:
	mkfs_err("label is longer than %d UTF-16 code units", MAX_VOLUME_NAME);
	return -EINVAL;
}

static int parse_owner(struct mkfs_opts *o, const char *arg)
{
	char *copy = strdup(arg), *colon;
	int err = -EINVAL;

	if (!copy)
		return -ENOMEM;
	colon = strchr(copy, ':');
	if (colon) {
		*colon = 0;
		if (!parse_u32(copy, 0, UINT32_MAX, &o->root_uid) &&
		    !parse_u32(colon + 1, 0, UINT32_MAX, &o->root_gid))
			err = 0;
	}
	free(copy);
	if (err)
		mkfs_err("-R expects uid:gid, got '%s'", arg);
	o->root_owner_given = true;
	return err;
}

/* -g android; its features are added after all options (android_features),
 * since a read-only image takes none of them. */
static void android_preset(struct mkfs_opts *o)
{
	o->android = true;
	o->wanted_sector_size = 4096;
	o->root_owner_given = true;
	o->root_uid = 0;
	o->root_gid = 0;
	o->force = true;
	o->nat_bits = false;
}

static void set_defaults(struct mkfs_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->segs_per_sec = 1;
	o->secs_per_zone = 1;
	o->discard = true;
	o->nat_bits = true;
	o->root_uid = (uint32_t)getuid();
	o->root_gid = (uint32_t)getgid();
}

enum { OPT_FILE_CONTEXTS = 256, OPT_HELP, OPT_ZONE_MODEL, OPT_UNDO };

static int handle_option(struct mkfs_ctx *ctx, int c, const char *arg)
{
	struct mkfs_opts *o = &ctx->o;
	uint32_t v;

	switch (c) {
	case 'a':
		return 0;	/* accepted and ignored, as upstream does now */
	case 'c':
		return add_devices(o, arg);
	case 'C':
		return parse_encoding(o, arg);
	case 'd':
		if (parse_u32(arg, 0, 10, &v)) {
			mkfs_err("-d expects a debug level 0..10, got '%s'", arg);
			return -EINVAL;
		}
		o->debug = (int)v;
		return 0;
	case 'e':
		return add_extensions(o, arg, o->cold_ext, &o->n_cold_ext);
	case 'E':
		return add_extensions(o, arg, o->hot_ext, &o->n_hot_ext);
	case 'f':
		o->force = true;
		return 0;
	case 'g':
		if (strcmp(arg, "android")) {
			mkfs_err("-g only knows 'android', got '%s'", arg);
			return -EINVAL;
		}
		android_preset(o);
		return 0;
	case 'i':
		o->large_nat_bitmap = true;
		return 0;
	case 'l':
		return set_label(o, arg);
	case 'm':
		o->zoned = true;
		return 0;
	case 'o': {
		char *end;

		errno = 0;
		o->overprovision = strtod(arg, &end);
		if (errno || *end || !(o->overprovision >= 0) || o->overprovision >= 100) {
			mkfs_err("-o expects a percentage below 100, got '%s'", arg);
			return -EINVAL;
		}
		return 0;
	}
	case 'O':
		return add_features(o, arg);
	case 'q':
		o->debug = -1;
		return 0;
	case 'r':
		o->fixed_seed = true;
		return 0;
	case 'R':
		return parse_owner(o, arg);
	case 's':
		if (parse_u32(arg, 1, F2FS_MAX_SEGMENT, &o->segs_per_sec)) {
			mkfs_err("-s expects segments per section from 1 to %u, got '%s'",
				 F2FS_MAX_SEGMENT, arg);
			return -EINVAL;
		}
		o->segs_per_sec_given = true;
		return 0;
	case 'S':
		mkfs_err("sparse output (-S) is only for Android builds and is not supported");
		return -ENOTSUP;
	case 't':
		if (parse_u32(arg, 0, 1, &v)) {
			mkfs_err("-t expects 0 or 1, got '%s'", arg);
			return -EINVAL;
		}
		o->discard = v;
		return 0;
	case 'T':
		if (parse_u64(arg, &o->timestamp)) {
			mkfs_err("-T expects seconds since the epoch, got '%s'", arg);
			return -EINVAL;
		}
		o->fixed_time = true;
		return 0;
	case 'U':
		if (uuid_parse(arg, o->uuid)) {
			mkfs_err("-U expects a UUID like 01234567-89ab-cdef-0123-456789abcdef, got '%s'", arg);
			return -EINVAL;
		}
		o->uuid_given = true;
		return 0;
	case 'w':
		if (parse_u32(arg, 512, 4096, &v) || (v & (v - 1))) {
			mkfs_err("-w expects a sector size that is a power of two from 512 to 4096, got '%s'", arg);
			return -EINVAL;
		}
		o->wanted_sector_size = v;
		return 0;
	case 'z':
		if (parse_u32(arg, 1, F2FS_MAX_SEGMENT, &o->secs_per_zone)) {
			mkfs_err("-z expects sections per zone from 1 to %u, got '%s'",
				 F2FS_MAX_SEGMENT, arg);
			return -EINVAL;
		}
		o->secs_per_zone_given = true;
		return 0;
	case OPT_FILE_CONTEXTS:
		o->file_contexts = arg;
		return 0;
	case OPT_ZONE_MODEL:
		o->zone_model = arg;
		return 0;
	case OPT_UNDO:
		o->undo_file = arg;
		return 0;
	}
	return -EINVAL;
}

/* Features known by name that this mkfs cannot make, and why. */
static const struct refused_feature {
	uint32_t mask;
	int err;
	const char *why;
} refused[] = {
	{ F2FS_FEATURE_BLKZONED, -ENOTSUP,
	  "feature blkzoned is set by -m on zoned devices only" },
	{ F2FS_FEATURE_DEVICE_ALIAS, -ENOTSUP,
	  "feature device_alias needs an aliased device (-c dev@alias), which is not supported" },
	{ F2FS_FEATURE_PACKED_SSA, -EINVAL,
	  "feature packed_ssa is only for block sizes above 4 KiB" },
	{ 0, 0, NULL },
};

/* Feature rules that need no device. */
int mkfs_check_features(const struct mkfs_opts *o)
{
	uint32_t missing = f2fs_features_missing_extra_attr(o->features);
	const struct refused_feature *r;

	if (missing) {
		char names[256];

		f2fs_features_to_string(missing, names, sizeof(names));
		mkfs_err("feature %s needs extra_attr (add -O extra_attr)", names);
		return -EINVAL;
	}
	for (r = refused; r->mask; r++) {
		if (o->features & r->mask) {
			mkfs_err("%s", r->why);
			return r->err;
		}
	}
	return 0;
}

/* A read-only image starts right after the superblocks, where no zone
 * boundary is, and is one device. */
static int check_ro_options(const struct mkfs_opts *o)
{
	if (!(o->features & F2FS_FEATURE_RO))
		return 0;
	if (o->zoned) {
		mkfs_err("feature ro cannot be combined with -m: a read-only image is not aligned to zones");
		return -EINVAL;
	}
	if (o->n_extra_dev) {
		mkfs_err("feature ro cannot be combined with -c: a read-only image is one device");
		return -EINVAL;
	}
	return 0;
}

/* --undo: a new file, one device; the discard, which would make the
 * whole device's old content part of the undo file, is left out. */
static int check_undo_option(struct mkfs_opts *o)
{
	if (access(o->undo_file, F_OK) == 0) {
		mkfs_err("undo file %s exists; remove it or name a new one", o->undo_file);
		return -EINVAL;
	}
	if (o->n_extra_dev) {
		mkfs_err("--undo saves one device: it cannot be combined with -c");
		return -EINVAL;
	}
	o->discard = false;
	return 0;
}

int mkfs_parse_args(struct mkfs_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, OPT_HELP },
		{ "version", no_argument, NULL, 'V' },
		{ "file-contexts", required_argument, NULL, OPT_FILE_CONTEXTS },
		{ "zone-model", required_argument, NULL, OPT_ZONE_MODEL },
		{ "undo", required_argument, NULL, OPT_UNDO },
		{ NULL, 0, NULL, 0 },
	};
	struct mkfs_opts *o = &ctx->o;
	int c, err;

	set_defaults(o);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":a:c:C:d:e:E:fg:hil:mo:O:qrR:s:S:t:T:U:Vw:z:",
				longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
		case OPT_HELP:
			mkfs_usage(stdout);
			return 1;
		case 'V':
			printf("mkfs.f2fs (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
			return 1;
		case ':':
			if (optopt > 0 && optopt < 128)
				mkfs_err("option -%c needs an argument (see --help)", optopt);
			else
				mkfs_err("option %s needs an argument (see --help)",
					 argv[optind - 1]);
			return -EINVAL;
		case '?':
			if (optopt > 0 && optopt < 128)
				mkfs_err("unknown option -%c (see --help)", optopt);
			else
				mkfs_err("unknown option %s (see --help)", argv[optind - 1]);
			return -EINVAL;
		default:
			err = handle_option(ctx, c, optarg);
			if (err)
				return err;
		}
	}
	if (optind >= argc) {
		mkfs_err("no device given (usage: mkfs.f2fs [options] device [sectors])");
		return -EINVAL;
	}
	o->device = argv[optind++];
	if (optind < argc) {
		if (parse_u64(argv[optind], &o->sectors) || o->sectors == 0) {
			mkfs_err("sectors must be a positive number, got '%s'", argv[optind]);
			return -EINVAL;
		}
		optind++;
	}
	if (optind < argc) {
		mkfs_err("unexpected argument '%s'", argv[optind]);
		return -EINVAL;
	}
	if (o->n_extra_dev && absolute_paths(o))
		return -EINVAL;
	if (o->undo_file && check_undo_option(o))
		return -EINVAL;
	if (o->android && !(o->features & F2FS_FEATURE_RO))
		o->features |= F2FS_FEATURE_ENCRYPT | F2FS_FEATURE_PRJQUOTA |
			       F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_VERITY |
			       F2FS_FEATURE_QUOTA_INO;
	if ((o->features & F2FS_FEATURE_CASEFOLD) && !o->s_encoding)
		o->s_encoding = F2FS_ENC_UTF8_12_1;
	if (check_ro_options(o))
		return -EINVAL;
	return mkfs_check_features(o);
}
