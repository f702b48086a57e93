/*
 * zone.c - the zone model of a zoned device (include/f2fs_zone.h says
 * what it is, where it comes from and who owns it).
 *
 * It owns: the division helpers every zone and section computation goes
 * through (a shift for powers of two, a division otherwise), reading the
 * zones of a zoned block device (BLKREPORTZONE in batches), the emulated
 * model's side file (parse, format, save by rename), the write-pointer
 * rule the I/O layer applies to each write, and zone reset and finish.
 * Nothing here prints.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/blkzoned.h>
#include <linux/falloc.h>
#include <linux/fs.h>

#include "device_own.h"
#include "f2fs_array.h"
#include "f2fs_dev.h"
#include "f2fs_fs.h"
#include "f2fs_zone.h"

#define SECTORS_PER_BLOCK	(F2FS_BLKSIZE / 512)
#define REPORT_BATCH		4096u		/* zones per BLKREPORTZONE */
#define MODEL_FILE_MAX		(64u << 20)	/* a side file larger is refused */
#define MODEL_SUFFIX		".zones"

/* ---- arithmetic ---- */

/* ceil(log2(d)) for d > 0, 0..64: the bit length of d - 1. */
static unsigned int ceil_log2_u64(uint64_t d)
{
	unsigned int l = 0;

	while (l < 64 && ((d - 1) >> l) != 0)
		l++;
	return l;
}

void f2fs_zdiv_init(struct f2fs_zdiv *z, uint64_t d)
{
	unsigned int l;

	if (d == 0)
		d = 1;
	l = ceil_log2_u64(d);
	z->d = d;
	z->pow2 = (d & (d - 1)) == 0;
	z->magic = 0;
	z->shift = l;		/* log2(d) when d is a power of two */
	if (z->pow2)
		return;
	/* d is not a power of two, so 2 <= l <= 64 and 0 < 2^l - d < d: the
	 * quotient below fits in 64 bits. */
	z->shift = l - 1;
#ifdef F2FS_ZDIV_MAGIC
	{
		__extension__ typedef unsigned __int128 u128;
		uint64_t excess = l == 64 ? 0 - d : (1ull << l) - d;

		z->magic = (uint64_t)(((u128)excess << 64) / d) + 1;
	}
#endif
}

const struct f2fs_zone *f2fs_zone_at(const struct f2fs_zoned *zd, uint64_t blk)
{
	uint64_t i;

	if (!zd || !zd->nr_zones)
		return NULL;
	i = f2fs_zone_no(zd, blk);
	if (i >= zd->nr_zones)
		return NULL;
	if (blk < zd->zones[i].start || blk - zd->zones[i].start >= zd->zones[i].len)
		return NULL;
	return &zd->zones[i];
}

const struct f2fs_zone *f2fs_zone_of_volume_blk(const struct f2fs_dev *dev, uint64_t blk,
						const struct f2fs_zoned **zd)
{
	const struct f2fs_zoned *model = NULL;
	uint64_t local = blk;

	if (zd)
		*zd = NULL;
	if (!dev || blk > (UINT64_MAX >> F2FS_BLKSIZE_BITS))
		return NULL;
	if ((blk << F2FS_BLKSIZE_BITS) < dev->own_bytes) {
		model = dev->zoned;
	} else {
		for (unsigned int i = 0; i < dev->nmembers; i++) {
			const struct f2fs_dev_member *m = &dev->members[i];
			uint64_t off = blk << F2FS_BLKSIZE_BITS;

			if (off >= m->start && off - m->start < m->len) {
				model = m->dev->zoned;
				local = (off - m->start) >> F2FS_BLKSIZE_BITS;
				break;
			}
		}
	}
	if (zd)
		*zd = model;
	return f2fs_zone_at(model, local);
}

uint32_t f2fs_zone_usable_blks_in_seg(uint64_t cap_blocks, uint32_t seg_in_sec,
				      uint32_t blocks_per_seg)
{
	uint64_t seg_start = (uint64_t)seg_in_sec * blocks_per_seg;

	if (seg_start >= cap_blocks)
		return 0;
	if (cap_blocks - seg_start < blocks_per_seg)
		return (uint32_t)(cap_blocks - seg_start);
	return blocks_per_seg;
}

uint32_t f2fs_zone_usable_segs_in_sec(uint64_t zone_blocks, uint64_t cap_blocks,
				      uint32_t segs_per_sec)
{
	uint64_t unusable_segs;

	if (cap_blocks >= zone_blocks)
		return segs_per_sec;
	unusable_segs = (zone_blocks - cap_blocks) / BLKS_PER_SEG;
	return unusable_segs >= segs_per_sec ? 0 : segs_per_sec - (uint32_t)unusable_segs;
}

/* ---- names ---- */

struct cond_name {
	uint8_t cond;
	const char *name;
};

static const struct cond_name cond_names[] = {
	{ F2FS_ZONE_COND_NOT_WP, "not-wp" },
	{ F2FS_ZONE_COND_EMPTY, "empty" },
	{ F2FS_ZONE_COND_IMP_OPEN, "open" },
	{ F2FS_ZONE_COND_EXP_OPEN, "explicit-open" },
	{ F2FS_ZONE_COND_CLOSED, "closed" },
	{ F2FS_ZONE_COND_READONLY, "readonly" },
	{ F2FS_ZONE_COND_FULL, "full" },
	{ F2FS_ZONE_COND_OFFLINE, "offline" },
};

#define NCONDS (sizeof(cond_names) / sizeof(cond_names[0]))

const char *f2fs_zone_cond_name(uint8_t cond)
{
	for (size_t i = 0; i < NCONDS; i++)
		if (cond_names[i].cond == cond)
			return cond_names[i].name;
	return "unknown";
}

static int cond_from_name(const char *s, uint8_t *cond)
{
	for (size_t i = 1; i < NCONDS; i++)	/* not-wp is no sequential zone's */
		if (strcmp(cond_names[i].name, s) == 0) {
			*cond = cond_names[i].cond;
			return 0;
		}
	return -EINVAL;
}

const char *f2fs_zone_type_name(uint8_t type)
{
	switch (type) {
	case F2FS_ZONE_TYPE_CONVENTIONAL: return "conventional";
	case F2FS_ZONE_TYPE_SEQWRITE_REQ: return "seq-req";
	case F2FS_ZONE_TYPE_SEQWRITE_PREF: return "seq-pref";
	default: return "unknown";
	}
}

const char *f2fs_zoned_model_name(enum f2fs_zoned_model m)
{
	switch (m) {
	case F2FS_ZONED_HA: return "host-aware";
	case F2FS_ZONED_HM: return "host-managed";
	default: return "none";
	}
}

/* ---- building a model ---- */

void f2fs_zoned_free(struct f2fs_zoned *zd)
{
	if (!zd)
		return;
	free(zd->zones);
	free(zd->model_path);
	free(zd);
}

static void count_kinds(struct f2fs_zoned *zd)
{
	zd->nr_conventional = 0;
	zd->first_sequential = zd->nr_zones;
	for (uint32_t i = 0; i < zd->nr_zones; i++) {
		if (!f2fs_zone_is_seq(&zd->zones[i]))
			zd->nr_conventional++;
		else if (zd->first_sequential == zd->nr_zones)
			zd->first_sequential = i;
	}
}

static void init_emulated_zone(struct f2fs_zone *z, uint64_t start, uint64_t len, uint64_t cap,
			       uint8_t seq_type, bool conventional)
{
	z->start = start;
	z->len = len;
	if (conventional) {
		z->capacity = len;
		z->wp = start + len;
		z->type = F2FS_ZONE_TYPE_CONVENTIONAL;
		z->cond = F2FS_ZONE_COND_NOT_WP;
	} else {
		z->capacity = cap;
		z->wp = start;
		z->type = seq_type;
		z->cond = F2FS_ZONE_COND_EMPTY;
	}
}

/* ---- the side file ---- */

struct model_params {
	uint64_t zone_bytes, cap_bytes;
	uint64_t conventional, max_open;
	enum f2fs_zoned_model model;
};

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	return 0;
}

/* Bytes with an optional K, M, G or T suffix. */
static int parse_bytes(const char *s, uint64_t *v)
{
	static const char units[] = "KMGT";
	char num[32];
	size_t n = s ? strlen(s) : 0;
	const char *u;
	unsigned int shift = 0;

	if (n == 0 || n >= sizeof(num))
		return -EINVAL;
	memcpy(num, s, n + 1);
	u = strchr(units, num[n - 1]);
	if (u && num[n - 1]) {
		shift = 10 * (unsigned int)(u - units + 1);
		num[n - 1] = '\0';
	}
	if (parse_u64(num, v) < 0 || (*v << shift >> shift) != *v)
		return -EINVAL;
	*v <<= shift;
	return 0;
}

/* Split a line into at most 4 blank-separated words (comment removed). */
static int split_words(char *line, char **w, int max)
{
	char *hash = strchr(line, '#'), *save = NULL, *tok;
	int n = 0;

	if (hash)
		*hash = '\0';
	for (tok = strtok_r(line, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
		if (n == max)
			return -EINVAL;
		w[n++] = tok;
	}
	return n;
}

static int parse_param_line(char **w, int n, struct model_params *p)
{
	if (n != 2)
		return -EINVAL;
	if (strcmp(w[0], "zone_size") == 0)
		return parse_bytes(w[1], &p->zone_bytes);
	if (strcmp(w[0], "zone_capacity") == 0)
		return parse_bytes(w[1], &p->cap_bytes);
	if (strcmp(w[0], "conventional") == 0)
		return parse_u64(w[1], &p->conventional);
	if (strcmp(w[0], "max_open") == 0)
		return parse_u64(w[1], &p->max_open) < 0 || p->max_open > UINT32_MAX ? -EINVAL : 0;
	if (strcmp(w[0], "model") == 0) {
		if (strcmp(w[1], "host-managed") == 0)
			p->model = F2FS_ZONED_HM;
		else if (strcmp(w[1], "host-aware") == 0)
			p->model = F2FS_ZONED_HA;
		else
			return -EINVAL;
		return 0;
	}
	return -EINVAL;
}

static int check_params(const struct model_params *p, uint64_t dev_bytes)
{
	uint64_t nr;

	if (p->zone_bytes == 0 || p->zone_bytes % F2FS_BLKSIZE ||
	    p->cap_bytes == 0 || p->cap_bytes % F2FS_BLKSIZE || p->cap_bytes > p->zone_bytes)
		return -EINVAL;
	nr = dev_bytes / p->zone_bytes;
	if (nr == 0 || nr > UINT32_MAX || p->conventional > nr)
		return -EINVAL;
	return 0;
}

static struct f2fs_zoned *build_emulated(const struct model_params *p, uint64_t dev_bytes)
{
	struct f2fs_zoned *zd = calloc(1, sizeof(*zd));
	uint64_t zb = p->zone_bytes / F2FS_BLKSIZE, cap = p->cap_bytes / F2FS_BLKSIZE;
	uint8_t seq = p->model == F2FS_ZONED_HA ? F2FS_ZONE_TYPE_SEQWRITE_PREF :
						  F2FS_ZONE_TYPE_SEQWRITE_REQ;

	if (!zd)
		return NULL;
	zd->model = p->model;
	zd->emulated = true;
	zd->max_open = (uint32_t)p->max_open;
	zd->zone_blocks = zb;
	f2fs_zdiv_init(&zd->zdiv, zb);
	zd->nr_zones = (uint32_t)(dev_bytes / p->zone_bytes);
	zd->zones = calloc(zd->nr_zones, sizeof(*zd->zones));
	if (!zd->zones) {
		free(zd);
		return NULL;
	}
	for (uint32_t i = 0; i < zd->nr_zones; i++)
		init_emulated_zone(&zd->zones[i], (uint64_t)i * zb, zb, cap, seq,
				   i < p->conventional);
	count_kinds(zd);
	return zd;
}

/* "zone INDEX WP COND": a sequential zone's state. */
static int parse_zone_line(char **w, int n, struct f2fs_zoned *zd)
{
	uint64_t idx, wp;
	uint8_t cond;
	struct f2fs_zone *z;

	if (n != 4 || parse_u64(w[1], &idx) < 0 || parse_u64(w[2], &wp) < 0 ||
	    cond_from_name(w[3], &cond) < 0 || idx >= zd->nr_zones)
		return -EINVAL;
	z = &zd->zones[idx];
	if (!f2fs_zone_is_seq(z))
		return -EINVAL;
	if (cond == F2FS_ZONE_COND_FULL) {
		if (wp > z->len)
			return -EINVAL;
		wp = z->len;
	} else if (wp > z->capacity || (cond == F2FS_ZONE_COND_EMPTY && wp != 0)) {
		return -EINVAL;
	}
	z->wp = z->start + wp;
	z->cond = cond;
	return 0;
}

/* One pass over the text: parameters (pass 0) or zone lines (pass 1). */
static int parse_pass(const char *text, int pass, struct model_params *p,
		      struct f2fs_zoned *zd, unsigned int *line)
{
	const char *s = text;

	*line = 0;
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		char buf[256], *w[4];
		int n, err = 0;

		++*line;
		if (len >= sizeof(buf))
			return -EINVAL;
		memcpy(buf, s, len);
		buf[len] = '\0';
		n = split_words(buf, w, 4);
		if (n < 0)
			return n;
		if (n > 0 && strcmp(w[0], "zone") == 0) {
			if (pass == 1)
				err = parse_zone_line(w, n, zd);
		} else if (n > 0 && pass == 0) {
			err = parse_param_line(w, n, p);
		}
		if (err < 0)
			return err;
		s += len + (nl ? 1 : 0);
	}
	return 0;
}

int f2fs_zone_model_parse(const char *text, uint64_t dev_bytes,
			  struct f2fs_zoned **out, unsigned int *line)
{
	struct model_params p = { .model = F2FS_ZONED_HM };
	struct f2fs_zoned *zd;
	unsigned int dummy;
	int err;

	if (!line)
		line = &dummy;
	*out = NULL;
	err = parse_pass(text, 0, &p, NULL, line);
	if (err < 0)
		return err;
	*line = 0;
	if (p.cap_bytes == 0)
		p.cap_bytes = p.zone_bytes;
	err = check_params(&p, dev_bytes);
	if (err < 0)
		return err;
	zd = build_emulated(&p, dev_bytes);
	if (!zd)
		return -ENOMEM;
	err = parse_pass(text, 1, &p, zd, line);
	if (err < 0) {
		f2fs_zoned_free(zd);
		return err;
	}
	*line = 0;
	*out = zd;
	return 0;
}

/* Capacity of the sequential zones (the emulation has one). */
static uint64_t seq_capacity(const struct f2fs_zoned *zd)
{
	if (zd->first_sequential < zd->nr_zones)
		return zd->zones[zd->first_sequential].capacity;
	return zd->zone_blocks;
}

struct strbuf {
	char *s;
	size_t len, cap;
	int err;
};

static void sb_printf(struct strbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void sb_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->err)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->err = -EINVAL;
			return;
		}
		if (b->s && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		if ((size_t)n >= SIZE_MAX - b->len ||
		    F2FS_ARRAY_ROOM(b->s, b->cap, b->len + (size_t)n + 1, 4096)) {
			b->err = -ENOMEM;
			return;
		}
	}
}

/* A size line in KiB or MiB when it divides evenly. */
static void sb_bytes(struct strbuf *b, const char *key, uint64_t blocks)
{
	if (blocks % 256 == 0)
		sb_printf(b, "%s %lluM\n", key, (unsigned long long)blocks / 256);
	else
		sb_printf(b, "%s %lluK\n", key, (unsigned long long)blocks * 4);
}

int f2fs_zone_model_format(const struct f2fs_zoned *zd, char **out)
{
	struct strbuf b = { 0 };
	uint32_t leading_conv = 0;

	*out = NULL;
	while (leading_conv < zd->nr_zones && !f2fs_zone_is_seq(&zd->zones[leading_conv]))
		leading_conv++;
	sb_printf(&b, "# f2fs emulated zone model (see mkfs.f2fs(8), --zone-model)\n");
	sb_bytes(&b, "zone_size", zd->zone_blocks);
	sb_bytes(&b, "zone_capacity", seq_capacity(zd));
	sb_printf(&b, "conventional %u\n", leading_conv);
	sb_printf(&b, "model %s\n", f2fs_zoned_model_name(zd->model));
	if (zd->max_open)
		sb_printf(&b, "max_open %u\n", zd->max_open);
	for (uint32_t i = 0; i < zd->nr_zones; i++) {
		const struct f2fs_zone *z = &zd->zones[i];

		if (f2fs_zone_is_seq(z) && z->cond != F2FS_ZONE_COND_EMPTY)
			sb_printf(&b, "zone %u %llu %s\n", i,
				  (unsigned long long)(z->wp - z->start), f2fs_zone_cond_name(z->cond));
	}
	if (b.err) {
		free(b.s);
		return b.err;
	}
	if (!b.s)
		return -ENOMEM;
	*out = b.s;
	return 0;
}

static int write_all(int fd, const char *s, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, s, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		s += n;
		len -= (size_t)n;
	}
	return 0;
}

int f2fs_zone_model_save(struct f2fs_zoned *zd)
{
	char *text = NULL, *tmp;
	size_t plen;
	int fd, err;

	if (!zd || !zd->emulated || !zd->dirty || !zd->model_path)
		return 0;
	err = f2fs_zone_model_format(zd, &text);
	if (err < 0)
		return err;
	plen = strlen(zd->model_path);
	tmp = malloc(plen + 8);
	if (!tmp) {
		free(text);
		return -ENOMEM;
	}
	memcpy(tmp, zd->model_path, plen);
	memcpy(tmp + plen, ".XXXXXX", 8);
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	err = write_all(fd, text, strlen(text));
	if (!err && fsync(fd) < 0)
		err = -errno;
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err && rename(tmp, zd->model_path) < 0)
		err = -errno;
	if (err)
		unlink(tmp);
	else
		zd->dirty = false;
out:
	free(tmp);
	free(text);
	return err;
}

static int read_text_file(const char *path, char **out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *buf;
	size_t got = 0;
	int err = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > MODEL_FILE_MAX) {
		close(fd);
		return -EINVAL;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : -EIO;
			break;
		}
		got += (size_t)n;
	}
	close(fd);
	if (err) {
		free(buf);
		return err;
	}
	buf[got] = '\0';
	if (strlen(buf) != got) {	/* a NUL inside: not our text */
		free(buf);
		return -EINVAL;
	}
	*out = buf;
	return 0;
}

int f2fs_zone_model_explain(const char *path, uint64_t dev_bytes, char *buf, size_t len)
{
	struct f2fs_zoned *zd = NULL;
	unsigned int line = 0;
	char *text = NULL;
	int err;

	if (len)
		buf[0] = '\0';
	err = read_text_file(path, &text);
	if (err < 0) {
		snprintf(buf, len, "cannot read it (%s)", err == -EINVAL ?
			 "not a regular text file of at most 64 MiB" : "see the error above");
		return err;
	}
	err = f2fs_zone_model_parse(text, dev_bytes, &zd, &line);
	free(text);
	f2fs_zoned_free(zd);
	if (err < 0 && line)
		snprintf(buf, len, "line %u is not understood (see mkfs.f2fs(8), ZONED DEVICES)", line);
	else if (err < 0)
		snprintf(buf, len, "zone_size must be given and be whole 4 KiB blocks, zone_capacity "
			 "whole blocks no larger than it, the device must hold a whole zone (%llu "
			 "bytes) and at least the conventional zones", (unsigned long long)dev_bytes);
	return err;
}

static int load_side_file(struct f2fs_dev *dev, const char *path)
{
	char *text = NULL;
	struct f2fs_zoned *zd;
	int err = read_text_file(path, &text);

	if (err < 0)
		return err;
	err = f2fs_zone_model_parse(text, dev->size_bytes, &zd, NULL);
	free(text);
	if (err < 0)
		return err;
	zd->model_path = strdup(path);
	if (!zd->model_path) {
		f2fs_zoned_free(zd);
		return -ENOMEM;
	}
	dev->zoned = zd;
	return 0;
}

/* ---- zoned block devices ---- */

static void sysfs_queue_path(char *buf, size_t size, dev_t rdev, const char *what)
{
	snprintf(buf, size, "/sys/dev/block/%u:%u/%s", major(rdev), minor(rdev), what);
}

static enum f2fs_zoned_model sysfs_model(dev_t rdev)
{
	char path[128], word[64];

	sysfs_queue_path(path, sizeof(path), rdev, "queue/zoned");
	if (!f2fs_read_sysfs_line(path, word, sizeof(word))) {
		sysfs_queue_path(path, sizeof(path), rdev, "../queue/zoned");	/* a partition */
		if (!f2fs_read_sysfs_line(path, word, sizeof(word)))
			return F2FS_ZONED_NONE;
	}
	if (strcmp(word, "host-managed") == 0)
		return F2FS_ZONED_HM;
	if (strcmp(word, "host-aware") == 0)
		return F2FS_ZONED_HA;
	return F2FS_ZONED_NONE;
}

/* queue/max_open_zones: 0 when there is no limit or no such file. */
static uint32_t sysfs_max_open(dev_t rdev)
{
	char path[128], word[32];
	uint64_t v;

	sysfs_queue_path(path, sizeof(path), rdev, "queue/max_open_zones");
	if (!f2fs_read_sysfs_line(path, word, sizeof(word))) {
		sysfs_queue_path(path, sizeof(path), rdev, "../queue/max_open_zones");
		if (!f2fs_read_sysfs_line(path, word, sizeof(word)))
			return 0;
	}
	return parse_u64(word, &v) < 0 || v > UINT32_MAX ? 0 : (uint32_t)v;
}

static int zone_from_report(const struct blk_zone *bz, bool has_cap, struct f2fs_zone *z)
{
	uint64_t cap = has_cap ? bz->capacity : bz->len;

	if (bz->start % SECTORS_PER_BLOCK || bz->len % SECTORS_PER_BLOCK || bz->len == 0 ||
	    cap > bz->len)
		return -EINVAL;
	z->start = bz->start / SECTORS_PER_BLOCK;
	z->len = bz->len / SECTORS_PER_BLOCK;
	z->capacity = cap / SECTORS_PER_BLOCK;
	z->type = bz->type;
	z->cond = bz->cond;
	if (bz->type == BLK_ZONE_TYPE_CONVENTIONAL || bz->cond == BLK_ZONE_COND_FULL ||
	    bz->wp < bz->start || bz->wp - bz->start >= bz->len)
		z->wp = z->start + z->len;
	else	/* a partly written block counts as written */
		z->wp = (bz->wp + SECTORS_PER_BLOCK - 1) / SECTORS_PER_BLOCK;
	return 0;
}

static int report_zones(int fd, struct f2fs_zoned *zd, uint64_t dev_sectors)
{
	size_t size = sizeof(struct blk_zone_report) + REPORT_BATCH * sizeof(struct blk_zone);
	struct blk_zone_report *rep = calloc(1, size);
	uint64_t sector = 0;
	uint32_t got = 0;
	int err = 0;

	if (!rep)
		return -ENOMEM;
	while (got < zd->nr_zones && sector < dev_sectors && !err) {
		memset(rep, 0, size);
		rep->sector = sector;
		rep->nr_zones = REPORT_BATCH;
		if (ioctl(fd, BLKREPORTZONE, rep) < 0) {
			err = -errno;
			break;
		}
		if (rep->nr_zones == 0)
			break;
		for (uint32_t i = 0; i < rep->nr_zones && got < zd->nr_zones && !err; i++) {
			const struct blk_zone *bz = &rep->zones[i];

			err = zone_from_report(bz, rep->flags & BLK_ZONE_REP_CAPACITY, &zd->zones[got++]);
			sector = bz->start + bz->len;
		}
	}
	free(rep);
	if (!err && got != zd->nr_zones)
		err = -EIO;
	return err;
}

/* The zone size of a block device in sectors: 0 when it is not zoned. */
static uint32_t blkdev_zone_sectors(int fd)
{
	uint32_t sectors = 0;

	if (ioctl(fd, BLKGETZONESZ, &sectors) < 0)
		return 0;
	return sectors;
}

static int read_blkdev_zones(struct f2fs_dev *dev, struct f2fs_zoned *zd)
{
	struct stat st;
	uint32_t sectors = blkdev_zone_sectors(dev->fd), nr = 0;
	int err;

	if (sectors == 0 || sectors % SECTORS_PER_BLOCK)
		return -EINVAL;
	if (ioctl(dev->fd, BLKGETNRZONES, &nr) < 0)
		return -errno;
	if (nr == 0)
		return -EINVAL;
	zd->zone_blocks = sectors / SECTORS_PER_BLOCK;
	f2fs_zdiv_init(&zd->zdiv, zd->zone_blocks);
	free(zd->zones);
	zd->zones = calloc(nr, sizeof(*zd->zones));
	if (!zd->zones)
		return -ENOMEM;
	zd->nr_zones = nr;
	err = report_zones(dev->fd, zd, dev->size_bytes / 512);
	if (err < 0)
		return err;
	count_kinds(zd);
	if (fstat(dev->fd, &st) == 0) {
		zd->model = sysfs_model(st.st_rdev);
		zd->max_open = sysfs_max_open(st.st_rdev);
	}
	if (zd->model == F2FS_ZONED_NONE)
		zd->model = zd->nr_conventional < nr &&
			    zd->zones[zd->first_sequential].type == F2FS_ZONE_TYPE_SEQWRITE_PREF ?
			    F2FS_ZONED_HA : F2FS_ZONED_HM;
	return 0;
}

static int attach_blkdev(struct f2fs_dev *dev)
{
	struct f2fs_zoned *zd = calloc(1, sizeof(*zd));
	int err;

	if (!zd)
		return -ENOMEM;
	err = read_blkdev_zones(dev, zd);
	if (err < 0) {
		f2fs_zoned_free(zd);
		return err;
	}
	dev->zoned = zd;
	return 0;
}

int f2fs_zone_refresh(struct f2fs_dev *dev)
{
	if (!dev || !dev->zoned || dev->zoned->emulated)
		return 0;
	return read_blkdev_zones(dev, dev->zoned);
}

/* PATH.zones, or for a loop device BACKING.zones; NULL when it does not
 * exist (or cannot be named). */
static char *side_file_for(const struct f2fs_dev *dev)
{
	char backing[PATH_MAX], sys[128], *p;
	const char *base = dev->path;
	struct stat st;

	if (dev->is_blkdev) {
		if (fstat(dev->fd, &st) < 0)
			return NULL;
		sysfs_queue_path(sys, sizeof(sys), st.st_rdev, "loop/backing_file");
		if (!f2fs_read_sysfs_line(sys, backing, sizeof(backing)) || backing[0] != '/')
			return NULL;
		base = backing;
	}
	p = malloc(strlen(base) + sizeof(MODEL_SUFFIX));
	if (!p)
		return NULL;
	strcpy(p, base);
	strcat(p, MODEL_SUFFIX);
	if (stat(p, &st) < 0 || !S_ISREG(st.st_mode)) {
		free(p);
		return NULL;
	}
	return p;
}

int f2fs_zone_attach(struct f2fs_dev *dev, const char *model_path, bool lookup)
{
	bool real = dev->is_blkdev && blkdev_zone_sectors(dev->fd) != 0;
	char *found;
	int err;

	if (real && model_path)
		return -EINVAL;	/* a real zoned device has its own zones */
	if (real)
		return attach_blkdev(dev);
	if (model_path)
		return load_side_file(dev, model_path);
	if (!lookup)
		return 0;
	found = side_file_for(dev);
	if (!found)
		return 0;
	err = load_side_file(dev, found);
	free(found);
	return err;
}

/* ---- the write-pointer rule ---- */

static bool cond_refuses_writes(uint8_t cond)
{
	return cond == F2FS_ZONE_COND_FULL || cond == F2FS_ZONE_COND_READONLY ||
	       cond == F2FS_ZONE_COND_OFFLINE;
}

/* Calls fn for each sequential zone that [off, off + len) touches, with
 * the touched bytes of that zone. */
typedef int (*zone_piece_fn)(struct f2fs_zone *z, uint64_t lo, uint64_t hi, void *arg);

static int for_each_seq_piece(const struct f2fs_zoned *zd, uint64_t off, uint64_t len,
			      zone_piece_fn fn, void *arg)
{
	uint64_t end = off + len, i;

	if (!zd || len == 0)
		return 0;
	for (i = f2fs_zone_no(zd, off / F2FS_BLKSIZE); i < zd->nr_zones; i++) {
		struct f2fs_zone *z = &zd->zones[i];
		uint64_t zlo = z->start * F2FS_BLKSIZE, zhi = (z->start + z->len) * F2FS_BLKSIZE;
		int err;

		if (zlo >= end)
			break;
		if (!f2fs_zone_is_seq(z) || zhi <= off)
			continue;
		err = fn(z, off > zlo ? off : zlo, end < zhi ? end : zhi, arg);
		if (err)
			return err;
	}
	return 0;
}

static int check_piece(struct f2fs_zone *z, uint64_t lo, uint64_t hi, void *arg)
{
	(void)arg;
	if (z->cond == F2FS_ZONE_COND_READONLY || z->cond == F2FS_ZONE_COND_OFFLINE)
		return -EIO;
	if (z->type == F2FS_ZONE_TYPE_SEQWRITE_PREF)
		return 0;
	if (cond_refuses_writes(z->cond) || lo != z->wp * F2FS_BLKSIZE || hi % F2FS_BLKSIZE ||
	    hi > (z->start + z->capacity) * F2FS_BLKSIZE)
		return -EIO;
	return 0;
}

int f2fs_zone_check_write(const struct f2fs_zoned *zd, uint64_t off, uint64_t len)
{
	return for_each_seq_piece(zd, off, len, check_piece, NULL);
}

static int refuse_piece(struct f2fs_zone *z, uint64_t lo, uint64_t hi, void *arg)
{
	(void)z, (void)lo, (void)hi, (void)arg;
	return -EOPNOTSUPP;
}

int f2fs_zone_check_discard(const struct f2fs_zoned *zd, uint64_t off, uint64_t len)
{
	return for_each_seq_piece(zd, off, len, refuse_piece, NULL);
}

static int advance_piece(struct f2fs_zone *z, uint64_t lo, uint64_t hi, void *arg)
{
	uint64_t end = (hi + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE;

	(void)lo, (void)arg;
	if (z->cond == F2FS_ZONE_COND_FULL || end <= z->wp)
		return 0;
	z->wp = end;
	if (z->wp >= z->start + z->capacity) {
		z->cond = F2FS_ZONE_COND_FULL;
		z->wp = z->start + z->len;
	} else if (z->cond == F2FS_ZONE_COND_EMPTY || z->cond == F2FS_ZONE_COND_CLOSED) {
		z->cond = F2FS_ZONE_COND_IMP_OPEN;
	}
	return 0;
}

void f2fs_zone_note_write(struct f2fs_zoned *zd, uint64_t off, uint64_t len)
{
	if (!zd || len == 0)
		return;
	for_each_seq_piece(zd, off, len, advance_piece, NULL);
	zd->dirty = true;
}

/* ---- reset and finish ---- */

/* [first, last] whole zones covering device bytes [off, off + len). */
static int whole_zones(const struct f2fs_zoned *zd, uint64_t off, uint64_t len,
		       uint32_t *first, uint32_t *last)
{
	const struct f2fs_zone *a, *b;

	if (off % F2FS_BLKSIZE || len % F2FS_BLKSIZE || len == 0)
		return -EINVAL;
	a = f2fs_zone_at(zd, off / F2FS_BLKSIZE);
	b = f2fs_zone_at(zd, (off + len) / F2FS_BLKSIZE - 1);
	if (!a || !b || a->start * F2FS_BLKSIZE != off ||
	    (b->start + b->len) * F2FS_BLKSIZE != off + len)
		return -EINVAL;
	*first = (uint32_t)(a - zd->zones);
	*last = (uint32_t)(b - zd->zones);
	return 0;
}

static void punch_range(struct f2fs_dev *dev, uint64_t off, uint64_t len)
{
	uint64_t range[2] = { off, len };

	/* best effort: a reset zone is not read before it is written again */
	if (dev->is_blkdev)
		(void)ioctl(dev->fd, BLKDISCARD, range);
	else
		(void)fallocate(dev->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				(off_t)off, (off_t)len);
}

static int zone_run_op(struct f2fs_dev *dev, uint32_t a, uint32_t b, bool finish)
{
	struct f2fs_zoned *zd = dev->zoned;
	struct f2fs_zone *za = &zd->zones[a], *zb = &zd->zones[b];
	uint64_t lo = za->start, hi = zb->start + zb->len;

	for (uint32_t i = a; i <= b; i++)
		if (zd->zones[i].cond == F2FS_ZONE_COND_READONLY ||
		    zd->zones[i].cond == F2FS_ZONE_COND_OFFLINE)
			return -EIO;
	if (!zd->emulated) {
		struct blk_zone_range r = { .sector = lo * SECTORS_PER_BLOCK,
					    .nr_sectors = (hi - lo) * SECTORS_PER_BLOCK };

		if (ioctl(dev->fd, finish ? BLKFINISHZONE : BLKRESETZONE, &r) < 0)
			return -errno;
	} else if (!finish) {
		punch_range(dev, lo * F2FS_BLKSIZE, (hi - lo) * F2FS_BLKSIZE);
	}
	for (uint32_t i = a; i <= b; i++) {
		struct f2fs_zone *z = &zd->zones[i];

		z->cond = finish ? F2FS_ZONE_COND_FULL : F2FS_ZONE_COND_EMPTY;
		z->wp = finish ? z->start + z->len : z->start;
	}
	zd->dirty = true;
	return 0;
}

/* One device's part: runs of sequential zones, one request each. */
static int zone_mgmt_own(struct f2fs_dev *dev, uint64_t off, uint64_t len, bool finish)
{
	struct f2fs_zoned *zd = dev->zoned;
	uint32_t first, last;
	int err;

	if (!zd)
		return -EOPNOTSUPP;
	err = whole_zones(zd, off, len, &first, &last);
	if (err < 0)
		return err;
	for (uint32_t i = first; i <= last; i++) {
		uint32_t j = i;

		if (!f2fs_zone_is_seq(&zd->zones[i]))
			continue;
		while (j < last && f2fs_zone_is_seq(&zd->zones[j + 1]))
			j++;
		err = zone_run_op(dev, i, j, finish);
		if (err < 0)
			return err;
		i = j;
	}
	return 0;
}

static int reset_own(struct f2fs_dev *dev, uint64_t off, uint64_t len)
{
	return zone_mgmt_own(dev, off, len, false);
}

static int finish_own(struct f2fs_dev *dev, uint64_t off, uint64_t len)
{
	return zone_mgmt_own(dev, off, len, true);
}

int f2fs_zone_reset(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t nblocks)
{
	return f2fs_dev_range_op(dev, blkaddr, nblocks, reset_own);
}

int f2fs_zone_finish(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t nblocks)
{
	return f2fs_dev_range_op(dev, blkaddr, nblocks, finish_own);
}
