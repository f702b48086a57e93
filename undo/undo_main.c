/*
 * undo_main.c - undo.f2fs: put a device back as it was before a run of
 * fsck.f2fs -y, mkfs.f2fs or inject.f2fs that wrote an undo file
 * (--undo FILE; format and crash safety in f2fs_undo.h).
 *
 * Before writing it checks that the device is the one the file was made
 * on (same size; the same F2FS file system, by its UUID, when it held one
 * and the run did not rewrite that superblock) and that every block the
 * run saved still holds what the run left there (or already the
 * original: an interrupted undo can be run again); a device changed
 * since, or an undo file whose run did not finish, is refused unless -f.  -n says what would be restored and
 * writes nothing.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "f2fs_dev.h"
#include "f2fs_err.h"
#include "f2fs_undo.h"

enum {
	UNDO_EXIT_OK = 0,
	UNDO_EXIT_REFUSED = 1,
	UNDO_EXIT_ERROR = 8,
	UNDO_EXIT_USAGE = 16,
};

struct undo_opts {
	bool force;
	bool dry_run;
	bool verbose;
	const char *file;
	const char *device;
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: undo.f2fs [options] UNDO_FILE DEVICE\n"
		"Put DEVICE back as it was before the run that wrote UNDO_FILE\n"
		"(fsck.f2fs -y --undo, mkfs.f2fs --undo, inject.f2fs --undo).\n"
		"\n"
		"  -f, --force     restore even if the device changed since the run, its size\n"
		"                  differs, it holds another file system (UUID), or the run\n"
		"                  did not finish writing the undo file\n"
		"  -n, --dry-run   say what would be restored; write nothing\n"
		"  -v, --verbose   list every saved range\n"
		"  -h, --help      this text\n"
		"  -V, --version   the version\n"
		"\n"
		"Exit status: 0 restored (with -n: would restore), 1 refused (nothing\n"
		"written), 8 error, 16 usage error.\n");
}

static int parse_args(int argc, char **argv, struct undo_opts *o)
{
	static const struct option longs[] = {
		{ "force", no_argument, NULL, 'f' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	while ((c = getopt_long(argc, argv, "fnvhV", longs, NULL)) != -1) {
		switch (c) {
		case 'f': o->force = true; break;
		case 'n': o->dry_run = true; break;
		case 'v': o->verbose = true; break;
		case 'h': usage(stdout); return UNDO_EXIT_OK;
		case 'V': printf("undo.f2fs (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
			return UNDO_EXIT_OK;
		default: usage(stderr); return UNDO_EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		usage(stderr);
		return UNDO_EXIT_USAGE;
	}
	o->file = argv[optind];
	o->device = argv[optind + 1];
	return -1;
}

static void list_ranges(const struct f2fs_undo_file *u)
{
	for (size_t i = 0; i < u->nrecs; i++) {
		const struct f2fs_undo_rec *r = &u->recs[i];

		printf("  blocks %llu-%llu (%u): %s\n", (unsigned long long)r->blkaddr,
		       (unsigned long long)(r->blkaddr + r->nblocks - 1), r->nblocks,
		       r->kind == F2FS_UNDO_ZERO ? "zeroes" : "saved data");
	}
}

static void describe(const struct undo_opts *o, const struct f2fs_undo_file *u)
{
	time_t t = (time_t)u->created;
	char when[64] = "?";
	struct tm tm;

	if (gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	printf("undo file %s: made on %s (%llu bytes) at %s; %llu blocks in %zu ranges%s\n",
	       o->file, u->dev_path, (unsigned long long)u->dev_bytes, when,
	       (unsigned long long)u->nblocks, u->nrecs,
	       u->finished ? "" : "; the run that wrote it did not finish");
	if (o->verbose)
		list_ranges(u);
}

static void format_uuid(const uint8_t *id, char *out)
{
	for (int i = 0, n = 0; i < 16; i++)
		n += sprintf(out + n, "%s%02x", i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "",
			     id[i]);
}

/* Whether the device may be written: 0 yes, or an exit code. */
static int check_device(const struct undo_opts *o, const struct f2fs_undo_file *u,
			struct f2fs_dev *dev)
{
	char uuid[40];
	uint64_t bad = 0;
	int err = f2fs_undo_check_fs(u, dev);

	if (err == 0)
		err = f2fs_undo_check_device(u, dev, &bad);
	if (err == -EMEDIUMTYPE) {
		format_uuid(u->uuid, uuid);
		fprintf(stderr, "undo.f2fs: %s does not hold the file system the undo file was "
			"made on (UUID %s, superblock %u)\n", o->device, uuid, u->uuid_blk);
	} else if (err == -EXDEV)
		fprintf(stderr, "undo.f2fs: %s has %llu bytes; the undo file was made on %llu bytes\n",
			o->device, (unsigned long long)f2fs_dev_size(dev),
			(unsigned long long)u->dev_bytes);
	else if (err == -ESTALE)
		fprintf(stderr, "undo.f2fs: %s changed since the run that wrote the undo file "
			"(block %llu holds neither what the run left nor the original)\n",
			o->device, (unsigned long long)bad);
	else if (err < 0) {
		fprintf(stderr, "undo.f2fs: cannot read %s: %s\n", o->device, f2fs_strerror(err));
		return UNDO_EXIT_ERROR;
	} else if (!u->finished)
		fprintf(stderr, "undo.f2fs: the run that wrote %s did not finish: whether the "
			"device changed since cannot be checked\n", o->file);
	if (err == 0 && u->finished)
		return 0;
	if (o->force) {
		fprintf(stderr, "undo.f2fs: going on (-f)\n");
		return 0;
	}
	fprintf(stderr, "undo.f2fs: nothing was written; -f restores anyway\n");
	return UNDO_EXIT_REFUSED;
}

static int open_device(const struct undo_opts *o, struct f2fs_dev **dev)
{
	struct f2fs_dev_opts dopts = { .read_only = o->dry_run, .exclusive = true,
				       .no_zone_model = true };
	bool mounted = false;
	int err;

	if (f2fs_dev_check_mounted(o->device, &mounted, NULL) == 0 && mounted) {
		fprintf(stderr, "undo.f2fs: %s is mounted; unmount it first\n", o->device);
		return UNDO_EXIT_ERROR;
	}
	err = f2fs_dev_open(o->device, &dopts, dev);
	if (err) {
		fprintf(stderr, "undo.f2fs: cannot open %s: %s\n", o->device, f2fs_strerror(err));
		return UNDO_EXIT_ERROR;
	}
	return 0;
}

static int restore(const struct undo_opts *o, const struct f2fs_undo_file *u)
{
	struct f2fs_dev *dev = NULL;
	int code = open_device(o, &dev);
	int err;

	if (code)
		return code;
	code = check_device(o, u, dev);
	if (code == 0 && o->dry_run) {
		printf("would restore %llu blocks of %s\n", (unsigned long long)u->nblocks, o->device);
	} else if (code == 0) {
		err = f2fs_undo_apply(u, dev);
		if (err) {
			fprintf(stderr, "undo.f2fs: restoring %s failed: %s\n", o->device,
				f2fs_strerror(err));
			code = UNDO_EXIT_ERROR;
		} else {
			printf("restored %llu blocks of %s\n", (unsigned long long)u->nblocks,
			       o->device);
		}
	}
	f2fs_dev_close(dev);
	return code;
}

int main(int argc, char **argv)
{
	struct f2fs_undo_file *u = NULL;
	struct undo_opts o;
	int code = parse_args(argc, argv, &o);
	int err;

	if (code >= 0)
		return code;
	err = f2fs_undo_load(o.file, &u);
	if (err) {
		fprintf(stderr, "undo.f2fs: %s: %s\n", o.file,
			err == -EBADMSG ? "not an undo file, or its header is damaged" :
					  f2fs_strerror(err));
		return UNDO_EXIT_ERROR;
	}
	describe(&o, u);
	code = restore(&o, u);
	f2fs_undo_free(u);
	return code;
}
