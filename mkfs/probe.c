/*
 * probe.c - what mkfs must know about the target before it writes a byte:
 * whether it is mounted, and whether libblkid finds a filesystem or a
 * partition table on it.  Also wipes those signatures once the run is
 * committed to writing (with -f).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <blkid.h>

#include "mkfs.h"
#include "f2fs_err.h"
#include "f2fs_zone.h"

int mkfs_check_not_mounted(const char *path)
{
	bool mounted = false;
	char *where = NULL;
	int err = f2fs_dev_check_mounted(path, &mounted, &where);

	if (err == -ENOENT || err == -ENOTDIR || err == -EACCES) {
		mkfs_err("cannot open %s: %s", path, f2fs_strerror(err));
		return err;
	}
	if (err) {
		mkfs_err("cannot tell whether %s is mounted: %s", path, f2fs_strerror(err));
		return err;
	}
	if (mounted) {
		mkfs_err("%s is mounted%s%s; refusing to format it", path,
			 where ? " on " : "", where ? where : "");
		free(where);
		return -EBUSY;
	}
	free(where);
	return 0;
}

/* Describe the first signature libblkid finds, or return 0 if none. */
static int probe_signature(const char *path, char *what, size_t size)
{
	blkid_probe pr = blkid_new_probe_from_filename(path);
	const char *type = NULL, *kind = "filesystem";
	int rc;

	what[0] = 0;
	if (!pr)
		return -errno ? -errno : -EIO;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	rc = blkid_do_fullprobe(pr);
	if (rc == 0) {
		if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0 && type) {
			snprintf(what, size, "%s %s", type, kind);
		} else if (blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) == 0 && type) {
			snprintf(what, size, "%s partition table", type);
		} else {
			snprintf(what, size, "an unknown signature");
		}
	}
	blkid_free_probe(pr);
	if (rc < 0)
		return -EIO;
	return what[0] ? 1 : 0;
}

int mkfs_check_no_signature(const struct mkfs_ctx *ctx, const char *path)
{
	char what[128];
	int rc = probe_signature(path, what, sizeof(what));

	if (rc < 0) {
		mkfs_err("cannot probe %s for existing signatures: %s", path,
			 f2fs_strerror(rc));
		return rc;
	}
	if (rc > 0 && !ctx->o.force) {
		mkfs_err("%s contains %s; use -f to overwrite it", path, what);
		return -EEXIST;
	}
	if (rc > 0 && ctx->o.debug >= 0)
		printf("Overwriting %s on %s\n", what, path);
	return 0;
}

/* Zero the magic of one signature found by the probe, through lib/'s I/O
 * layer (never blkid_do_wipe, which writes behind the layer's back). */
static int wipe_one(struct f2fs_dev *dev, blkid_probe pr, const char *off_key,
		    const char *magic_key)
{
	const char *off_str = NULL;
	size_t len = 0;
	uint8_t zero[64];
	unsigned long long off;

	if (blkid_probe_lookup_value(pr, off_key, &off_str, NULL) || !off_str ||
	    blkid_probe_lookup_value(pr, magic_key, NULL, &len))
		return 0;
	off = strtoull(off_str, NULL, 10);
	if (len == 0 || len > sizeof(zero) || off + len > f2fs_dev_size(dev))
		return 0;
	if (f2fs_dev_zoned(dev)) {	/* a sequential zone was reset: nothing left there */
		const struct f2fs_zone *z = f2fs_zone_at(f2fs_dev_zoned(dev), off / F2FS_BLKSIZE);

		if (z && f2fs_zone_is_seq(z))
			return 0;
	}
	memset(zero, 0, sizeof(zero));
	return f2fs_dev_pwrite(dev, off, len, zero);
}

/* Erase the magic of every signature libblkid finds (what wipefs -a does),
 * so no other tool mistakes the new volume for the old one. */
int mkfs_wipe_signatures(struct f2fs_dev *dev, const char *path)
{
	blkid_probe pr = blkid_new_probe_from_filename(path);
	int rc, err = 0;

	if (!pr)
		return -EIO;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_MAGIC | BLKID_SUBLKS_BADCSUM);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	while (!err && (rc = blkid_do_probe(pr)) == 0) {
		err = wipe_one(dev, pr, "SBMAGIC_OFFSET", "SBMAGIC");
		if (!err)
			err = wipe_one(dev, pr, "PTMAGIC_OFFSET", "PTMAGIC");
	}
	blkid_free_probe(pr);
	return err;
}
