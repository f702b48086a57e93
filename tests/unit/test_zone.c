/*
 * test_zone.c - the zone layer: the division helpers (shift or
 * reciprocal, against division by repeated subtraction, for the zone
 * sizes below and 300 random divisors) and the section
 * capacity helpers against brute-force models (zone sizes 2^n blocks,
 * 96 MiB, 200 MiB, 1000 MiB), the emulated model's side file (parse,
 * refusals, format round trip), and an emulated device through the I/O
 * layer: the write-pointer rule, reset and finish (batched, dry-run,
 * misaligned), discard and zero-out, saving and reloading the write
 * pointers, the PATH.zones lookup and its opt-out, a multi-device volume
 * with a zoned member, a host-aware model, and a side file that cannot be
 * saved.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "f2fs_dev.h"
#include "f2fs_fs.h"
#include "f2fs_zone.h"
#include "unit.h"

#define MIB_BLOCKS	256u	/* 4 KiB blocks in a MiB */

static char dir[256];

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* ---- arithmetic ---- */

/* Division by repeated subtraction of d, from a multiple close below. */
static void brute_divmod(uint64_t x, uint64_t d, uint64_t *q, uint64_t *r)
{
	uint64_t guess = 0, rest = x;

	/* subtract large multiples first: d * 2^k */
	for (int k = 63; k >= 0; k--) {
		if (k > 0 && (d > (UINT64_MAX >> k)))
			continue;
		uint64_t chunk = d << k;

		if (chunk <= rest) {
			rest -= chunk;
			guess += 1ull << k;
		}
	}
	*q = guess;
	*r = rest;
}

static void check_zdiv(uint64_t d)
{
	struct f2fs_zdiv z;
	uint64_t xs[16] = { 0, 1, d - 1, d, d + 1, 2 * d - 1, 2 * d, 1000 * d + 7,
			    UINT64_MAX, UINT64_MAX - 1, (UINT64_MAX / d) * d, (UINT64_MAX / d) * d - 1 };

	f2fs_zdiv_init(&z, d);
	CHECK(z.pow2 == ((d & (d - 1)) == 0));
	for (int i = 12; i < 16; i++)
		xs[i] = rnd() >> (rnd() % 64);
	for (int i = 0; i < 16; i++) {
		uint64_t q, r;

		brute_divmod(xs[i], d, &q, &r);
		CHECK_EQ_U64(f2fs_zdiv_quot(&z, xs[i]), q);
		CHECK_EQ_U64(f2fs_zdiv_rem(&z, xs[i]), r);
	}
	for (int i = 0; i < 2000; i++) {
		uint64_t x = rnd() >> (rnd() % 64), q, r;

		brute_divmod(x, d, &q, &r);
		if (f2fs_zdiv_quot(&z, x) != q || f2fs_zdiv_rem(&z, x) != r) {
			CHECK_EQ_U64(f2fs_zdiv_quot(&z, x), q);
			CHECK_EQ_U64(f2fs_zdiv_rem(&z, x), r);
			break;
		}
	}
}

/* The reciprocal path at the edges of its exactness: for d, the dividends
 * around multiples k * d of every magnitude up to the largest multiple
 * below 2^64, against the brute-force model. */
static bool zdiv_exact_near_multiples(uint64_t d)
{
	struct f2fs_zdiv z;
	uint64_t kmax = UINT64_MAX / d;
	uint64_t ks[6] = { 1, 2, kmax, kmax - 1, kmax / 2 + 1, 0 };

	f2fs_zdiv_init(&z, d);
#ifdef F2FS_ZDIV_MAGIC
	if (!z.pow2 && z.magic == 0)
		return false;		/* the reciprocal must be in use */
#endif
	ks[5] = kmax > 3 ? 1 + rnd() % (kmax - 1) : 1;
	for (int i = 0; i < 6; i++) {
		uint64_t k = ks[i] ? ks[i] : 1, base = k * d;
		uint64_t xs[4] = { base - 1, base, base + (d - 1 <= UINT64_MAX - base ? d - 1 : 0),
				   base + (d / 2 <= UINT64_MAX - base ? d / 2 : 0) };

		if (k > kmax)
			continue;
		for (int j = 0; j < 4; j++) {
			uint64_t q, r;

			brute_divmod(xs[j], d, &q, &r);
			if (f2fs_zdiv_quot(&z, xs[j]) != q || f2fs_zdiv_rem(&z, xs[j]) != r) {
				fprintf(stderr, "zdiv %" PRIu64 " / %" PRIu64 ": got %" PRIu64
					" r %" PRIu64 ", want %" PRIu64 " r %" PRIu64 "\n", xs[j], d,
					f2fs_zdiv_quot(&z, xs[j]), f2fs_zdiv_rem(&z, xs[j]), q, r);
				return false;
			}
		}
	}
	return true;
}

/* Every divisor up to 2^17 and every zone size of whole MiB up to 4 GiB
 * (in 4 KiB blocks), divisors around each power of two up to 2^64, and
 * random ones: all exact near their multiples. */
static void test_zdiv_reciprocal(void)
{
	bool ok = true;

	for (uint64_t d = 1; d <= (1u << 17) && ok; d++)
		ok = zdiv_exact_near_multiples(d);
	for (uint64_t mib = 1; mib <= 4096 && ok; mib++)
		ok = zdiv_exact_near_multiples(mib * MIB_BLOCKS);
	for (unsigned int n = 2; n < 64 && ok; n++)
		for (int64_t delta = -3; delta <= 3 && ok; delta++)
			ok = zdiv_exact_near_multiples((1ull << n) + (uint64_t)delta);
	for (uint64_t d = UINT64_MAX; d > UINT64_MAX - 8 && ok; d--)
		ok = zdiv_exact_near_multiples(d);
	for (int i = 0; i < 20000 && ok; i++) {
		uint64_t d = rnd() >> (rnd() % 64);

		ok = zdiv_exact_near_multiples(d ? d : 5);
	}
	CHECK(ok);
}

/* The zone of a block by walking a list of zones, against f2fs_zone_at. */
static void check_zone_lookup(uint64_t zone_blocks, uint32_t nr)
{
	struct f2fs_zoned zd = { .zone_blocks = zone_blocks, .nr_zones = nr };
	uint64_t total = zone_blocks * nr;
	bool ok = true;

	f2fs_zdiv_init(&zd.zdiv, zone_blocks);
	zd.zones = calloc(nr, sizeof(*zd.zones));
	if (!zd.zones) {
		CHECK(0);
		return;
	}
	for (uint32_t i = 0; i < nr; i++) {
		zd.zones[i].start = i * zone_blocks;
		zd.zones[i].len = zone_blocks;
	}
	for (int k = 0; k < 3000 && ok; k++) {
		uint64_t blk = k < 4 ? (uint64_t[]){ 0, total - 1, total, zone_blocks }[k] : rnd() % (total + 10);
		const struct f2fs_zone *want = NULL, *got = f2fs_zone_at(&zd, blk);

		for (uint32_t i = 0; i < nr; i++)
			if (blk >= zd.zones[i].start && blk < zd.zones[i].start + zd.zones[i].len)
				want = &zd.zones[i];
		ok = got == want;
		if (got)
			ok = ok && f2fs_zone_blkoff(&zd, blk) == blk - got->start &&
			     f2fs_zone_no(&zd, blk) == (uint64_t)(got - zd.zones);
	}
	CHECK(ok);
	free(zd.zones);
}

/* Usable blocks per segment and usable segments per section, counted
 * block by block. */
static void check_usable(uint64_t zone_blocks, uint64_t cap)
{
	uint32_t segs = (uint32_t)(zone_blocks / BLKS_PER_SEG), usable_segs = 0;
	bool ok = true;

	for (uint32_t s = 0; s < segs; s++) {
		uint32_t n = 0;

		for (uint32_t b = 0; b < BLKS_PER_SEG; b++)
			if ((uint64_t)s * BLKS_PER_SEG + b < cap)
				n++;
		if (f2fs_zone_usable_blks_in_seg(cap, s, BLKS_PER_SEG) != n)
			ok = false;
		if (n)
			usable_segs++;
	}
	CHECK(ok);
	CHECK_EQ_U64(f2fs_zone_usable_segs_in_sec(zone_blocks, cap, segs), usable_segs);
}

static void test_arithmetic(void)
{
	static const uint64_t odd_mib[] = { 96, 200, 1000 };

	for (unsigned int n = 0; n < 40; n++)
		check_zdiv(1ull << n);
	for (size_t i = 0; i < 3; i++) {
		uint64_t zb = odd_mib[i] * MIB_BLOCKS;

		check_zdiv(zb);
		check_zone_lookup(zb, 37);
		check_usable(zb, zb);
		check_usable(zb, zb - 1);
		check_usable(zb, zb - BLKS_PER_SEG);
		check_usable(zb, zb / 2 + 3);
		check_usable(zb, 1);
	}
	for (unsigned int n = 9; n < 20; n++) {
		check_zone_lookup(1ull << n, 29);
		check_usable(1ull << n, (1ull << n) * 3 / 4 + 1);
	}
	check_zdiv(3);
	check_zdiv(UINT64_MAX);
	check_zdiv(UINT64_MAX / 3);
	check_zdiv((1ull << 63) + 1);
	check_zdiv((1ull << 63) - 1);
	for (int i = 0; i < 300; i++) {		/* divisors of every magnitude */
		uint64_t d = rnd() >> (rnd() % 64);

		check_zdiv(d ? d : 7);
	}
	/* d == 0 is taken as 1 */
	struct f2fs_zdiv z;

	f2fs_zdiv_init(&z, 0);
	CHECK_EQ_U64(f2fs_zdiv_quot(&z, 77), 77);
}

/* ---- side file ---- */

static void test_parse(void)
{
	const uint64_t dev = 10ull * 96 * 1024 * 1024 + 12345;
	struct f2fs_zoned *zd = NULL, *again = NULL;
	unsigned int line = 0;
	char *text = NULL;

	CHECK(f2fs_zone_model_parse("# comment\nzone_size 96M\nzone_capacity 80M\n"
				    "conventional 2\nzone 3 100 open\nzone 4 5 full\n"
				    "zone 5 0 empty\n", dev, &zd, &line) == 0);
	if (!zd)
		return;
	CHECK_EQ_U64(zd->nr_zones, 10);
	CHECK_EQ_U64(zd->zone_blocks, 96 * MIB_BLOCKS);
	CHECK(!zd->zdiv.pow2);
	CHECK_EQ_U64(zd->nr_conventional, 2);
	CHECK_EQ_U64(zd->first_sequential, 2);
	CHECK(zd->model == F2FS_ZONED_HM);
	CHECK(zd->zones[1].type == F2FS_ZONE_TYPE_CONVENTIONAL);
	CHECK_EQ_U64(zd->zones[1].capacity, 96 * MIB_BLOCKS);
	CHECK(zd->zones[2].type == F2FS_ZONE_TYPE_SEQWRITE_REQ);
	CHECK_EQ_U64(zd->zones[2].capacity, 80 * MIB_BLOCKS);
	CHECK(zd->zones[2].cond == F2FS_ZONE_COND_EMPTY && zd->zones[2].wp == zd->zones[2].start);
	CHECK(zd->zones[3].cond == F2FS_ZONE_COND_IMP_OPEN);
	CHECK_EQ_U64(zd->zones[3].wp, zd->zones[3].start + 100);
	CHECK(zd->zones[4].cond == F2FS_ZONE_COND_FULL);
	CHECK_EQ_U64(zd->zones[4].wp, zd->zones[4].start + zd->zones[4].len);
	CHECK(f2fs_zone_at(zd, 10ull * 96 * MIB_BLOCKS) == NULL);	/* the tail */

	CHECK(f2fs_zone_model_format(zd, &text) == 0);
	CHECK(text && f2fs_zone_model_parse(text, dev, &again, NULL) == 0);
	if (again) {
		CHECK_EQ_U64(again->nr_zones, zd->nr_zones);
		CHECK(memcmp(again->zones, zd->zones, zd->nr_zones * sizeof(*zd->zones)) == 0);
		f2fs_zoned_free(again);
	}
	free(text);
	f2fs_zoned_free(zd);

	CHECK(f2fs_zone_model_parse("zone_size 4M\nmax_open 12\n", 8ull << 20, &zd, NULL) == 0);
	if (zd) {
		CHECK_EQ_U64(zd->max_open, 12);
		CHECK(f2fs_zone_model_format(zd, &text) == 0 && text && strstr(text, "max_open 12\n"));
		free(text);
		text = NULL;
		f2fs_zoned_free(zd);
		zd = NULL;
	}
	CHECK(f2fs_zone_model_parse("zone_size 4M\nmodel host-aware\n", 8ull << 20, &zd, NULL) == 0);
	if (zd) {
		CHECK(zd->model == F2FS_ZONED_HA && zd->zones[0].type == F2FS_ZONE_TYPE_SEQWRITE_PREF);
		CHECK(zd->zdiv.pow2 && zd->nr_conventional == 0 && zd->first_sequential == 0);
		f2fs_zoned_free(zd);
	}

	static const char *const bad[] = {
		"",					/* no zone size */
		"zone_size 96M\nzone_capacity 97M\n",	/* capacity above size */
		"zone_size 1000\n",			/* not whole blocks */
		"zone_size 96M\nzone_capacity 5000\n",
		"zone_size 96M\nconventional 11\n",	/* more than the zones */
		"zone_size 1G\n",			/* no whole zone */
		"zone_size 96M\nconventional 2\nzone 1 0 open\n",	/* conventional */
		"zone_size 96M\nzone 10 0 open\n",	/* no such zone */
		"zone_size 96M\nzone_capacity 80M\nzone 3 20481 open\n",	/* past capacity */
		"zone_size 96M\nzone 3 1 empty\n",	/* empty with a write pointer */
		"zone_size 96M\nzone 3 1 fine\n",	/* condition */
		"zone_size 96M\nzone 3 1\n",
		"zone_size 96M\nmodel drive-managed\n",
		"zone_size 96M\nsize 1\n",
		"zone_size 96X\n",
		"zone_size -96M\n",
		"zone_size 99999999999999999999\n",
		"zone_size 16777216T\n",		/* overflows */
		"zone_size 96M\nmax_open 4294967296\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		zd = NULL;
		if (f2fs_zone_model_parse(bad[i], dev, &zd, &line) != -EINVAL || zd) {
			fprintf(stderr, "accepted bad model %zu: %s\n", i, bad[i]);
			CHECK(0);
			f2fs_zoned_free(zd);
		}
	}
	CHECK(f2fs_zone_model_parse("zone_size 96M\nzone 3 1 fine\n", dev, &zd, &line) == -EINVAL);
	CHECK_EQ_U64(line, 2);
}

/* ---- an emulated device ---- */

static const char *path_in_dir(const char *name)
{
	static char p[4][512];
	static int k;

	k = (k + 1) % 4;
	snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
	return p[k];
}

static void make_sparse(const char *path, uint64_t bytes)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	CHECK(fd >= 0 && ftruncate(fd, (off_t)bytes) == 0);
	if (fd >= 0)
		close(fd);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

static bool file_has(const char *path, const char *needle)
{
	char buf[8192];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strstr(buf, needle) != NULL;
}

#define ZB	(4 * MIB_BLOCKS)	/* 4 MiB zones in the device tests */
#define CAP	(3 * MIB_BLOCKS)

static void test_device(void)
{
	const char *img = path_in_dir("zoned.img"), *side = path_in_dir("zoned.img.zones");
	static uint8_t blk[4 * F2FS_BLKSIZE];
	struct f2fs_dev_opts opts = { 0 };
	struct f2fs_dev *dev = NULL;

	make_sparse(img, 8ull * ZB * F2FS_BLKSIZE);
	write_text(side, "zone_size 4M\nzone_capacity 3M\nconventional 2\n");
	memset(blk, 0xA5, sizeof(blk));
	CHECK(f2fs_dev_open(img, &opts, &dev) == 0);
	if (!dev)
		return;
	CHECK(f2fs_dev_zoned(dev) && f2fs_dev_zoned(dev)->emulated && f2fs_dev_zoned(dev)->nr_zones == 8);
	CHECK(f2fs_zone_of_volume_blk(dev, 3 * ZB + 5, NULL) == &f2fs_dev_zoned(dev)->zones[3]);
	/* conventional zones: anywhere */
	CHECK(f2fs_dev_write(dev, 7, 1, blk) == 0);
	CHECK(f2fs_dev_write(dev, 3, 1, blk) == 0);
	CHECK(f2fs_dev_pwrite(dev, 1024, 100, blk) == 0);
	/* zone 2: only at its write pointer */
	CHECK(f2fs_dev_write(dev, 2 * ZB + 1, 1, blk) == -EIO);
	CHECK(f2fs_dev_write(dev, 2 * ZB, 2, blk) == 0);
	CHECK(f2fs_dev_zoned(dev)->zones[2].cond == F2FS_ZONE_COND_IMP_OPEN);
	CHECK_EQ_U64(f2fs_dev_zoned(dev)->zones[2].wp, 2 * ZB + 2);
	CHECK(f2fs_dev_write(dev, 2 * ZB, 1, blk) == -EIO);	/* behind it */
	CHECK(f2fs_dev_pwrite(dev, (2 * ZB + 2) * (uint64_t)F2FS_BLKSIZE, 100, blk) == -EIO);
	CHECK(f2fs_dev_write(dev, 2 * ZB + 2, 1, blk) == 0);
	/* a write across the capacity fails whole; up to it fills the zone */
	{
		uint8_t *big = calloc(CAP, F2FS_BLKSIZE);

		CHECK(big != NULL);
		if (big) {
			CHECK(f2fs_dev_write(dev, 2 * ZB + 3, CAP - 2, big) == -EIO);
			CHECK_EQ_U64(f2fs_dev_zoned(dev)->zones[2].wp, 2 * ZB + 3);
			CHECK(f2fs_dev_write(dev, 2 * ZB + 3, CAP - 3, big) == 0);
			CHECK(f2fs_dev_zoned(dev)->zones[2].cond == F2FS_ZONE_COND_FULL);
			CHECK_EQ_U64(f2fs_dev_zoned(dev)->zones[2].wp, 3 * ZB);
			free(big);
		}
	}
	CHECK(f2fs_dev_write(dev, 2 * ZB + CAP, 1, blk) == -EIO);
	/* a write crossing from a conventional zone into a full one */
	CHECK(f2fs_dev_write(dev, 2 * ZB - 1, 2, blk) == -EIO);
	/* discard, zero-out */
	CHECK(f2fs_dev_discard(dev, 3 * ZB, 1) == -EOPNOTSUPP);
	CHECK(f2fs_dev_discard(dev, 16, 8) == 0);	/* conventional */
	CHECK(f2fs_dev_zeroout(dev, 3 * ZB + 1, 1) == -EIO);
	CHECK(f2fs_dev_zeroout(dev, 3 * ZB, 4) == 0);
	CHECK_EQ_U64(f2fs_dev_zoned(dev)->zones[3].wp, 3 * ZB + 4);
	/* reset and finish */
	CHECK(f2fs_zone_reset(dev, 2 * ZB + 1, ZB) == -EINVAL);
	CHECK(f2fs_zone_reset(dev, 2 * ZB, ZB - 1) == -EINVAL);
	CHECK(f2fs_zone_finish(dev, 4 * ZB, ZB) == 0);
	CHECK(f2fs_dev_zoned(dev)->zones[4].cond == F2FS_ZONE_COND_FULL);
	CHECK(f2fs_dev_write(dev, 4 * ZB, 1, blk) == -EIO);
	{
		uint64_t before = f2fs_dev_stats(dev)->write_calls;

		CHECK(f2fs_zone_reset(dev, 0, 8ull * ZB) == 0);	/* conventional ones skipped */
		CHECK_EQ_U64(f2fs_dev_stats(dev)->write_calls, before + 1);
	}
	for (int i = 2; i < 8; i++)
		CHECK(f2fs_dev_zoned(dev)->zones[i].cond == F2FS_ZONE_COND_EMPTY &&
		      f2fs_dev_zoned(dev)->zones[i].wp == f2fs_dev_zoned(dev)->zones[i].start);
	CHECK(f2fs_dev_read(dev, 2 * ZB, 1, blk) == 0);
	CHECK(blk[0] == 0 && blk[4095] == 0);	/* reset zones read back zeroes */
	CHECK(f2fs_dev_read(dev, 7, 1, blk) == 0);
	CHECK(blk[0] == 0xA5);			/* conventional zones keep data */
	CHECK(f2fs_dev_write(dev, 5 * ZB, 3, blk) == 0);
	CHECK(f2fs_dev_flush(dev) == 0);
	CHECK(file_has(side, "zone 5 3 open"));
	CHECK(f2fs_dev_write(dev, 6 * ZB, 1, blk) == 0);
	f2fs_dev_close(dev);
	CHECK(file_has(side, "zone 6 1 open"));

	/* reopened: the saved write pointers; a dry run moves none */
	dev = NULL;
	opts.dry_run = true;
	CHECK(f2fs_dev_open(img, &opts, &dev) == 0);
	if (dev) {
		CHECK_EQ_U64(f2fs_dev_zoned(dev)->zones[5].wp, 5 * ZB + 3);
		CHECK(f2fs_dev_write(dev, 5 * ZB + 9, 1, blk) == 0);	/* dropped */
		CHECK(f2fs_zone_reset(dev, 5 * ZB, ZB) == 0);
		CHECK_EQ_U64(f2fs_dev_zoned(dev)->zones[5].wp, 5 * ZB + 3);
		f2fs_dev_close(dev);
	}
	CHECK(file_has(side, "zone 5 3 open"));

	/* opting out, and an explicit model path */
	opts.dry_run = false;
	opts.no_zone_model = true;
	dev = NULL;
	CHECK(f2fs_dev_open(img, &opts, &dev) == 0);
	CHECK(dev && !f2fs_dev_zoned(dev));
	f2fs_dev_close(dev);
	opts.no_zone_model = false;
	rename(side, path_in_dir("other.zones"));
	dev = NULL;
	CHECK(f2fs_dev_open(img, &opts, &dev) == 0);
	CHECK(dev && !f2fs_dev_zoned(dev));
	f2fs_dev_close(dev);
	opts.zone_model = path_in_dir("other.zones");
	dev = NULL;
	CHECK(f2fs_dev_open(img, &opts, &dev) == 0);
	CHECK(dev && f2fs_dev_zoned(dev) && f2fs_dev_zoned(dev)->zones[6].wp == 6 * ZB + 1);
	f2fs_dev_close(dev);
	write_text(opts.zone_model, "zone_size 4M\nbogus\n");
	dev = NULL;
	CHECK(f2fs_dev_open(img, &opts, &dev) == -EINVAL && !dev);
	unlink(opts.zone_model);
	unlink(img);
}

/* A regular device 0 and a zoned member: routed writes and resets. */
static void test_multidev(void)
{
	char d0[512], d1[512];	/* path_in_dir()'s buffers are reused */
	static uint8_t blk[F2FS_BLKSIZE];
	struct f2fs_dev *dev = NULL, *m = NULL;
	const uint64_t own = 2 * ZB;

	snprintf(d0, sizeof(d0), "%s", path_in_dir("md0.img"));
	snprintf(d1, sizeof(d1), "%s", path_in_dir("md1.img"));
	make_sparse(d0, own * F2FS_BLKSIZE);
	make_sparse(d1, 4ull * ZB * F2FS_BLKSIZE);
	write_text(path_in_dir("md1.img.zones"), "zone_size 4M\nzone_capacity 3M\n");
	CHECK(f2fs_dev_open(d0, NULL, &dev) == 0);
	CHECK(f2fs_dev_open(d1, NULL, &m) == 0);
	if (!dev || !m) {
		f2fs_dev_close(dev);
		f2fs_dev_close(m);
		return;
	}
	CHECK(!f2fs_dev_zoned(dev) && f2fs_dev_zoned(m));
	CHECK(f2fs_dev_attach(dev, m, own, 4ull * ZB) == 0);
	{
		const struct f2fs_zoned *zd = NULL;

		CHECK(f2fs_zone_of_volume_blk(dev, 5, &zd) == NULL && zd == NULL);
		CHECK(f2fs_zone_of_volume_blk(dev, own + ZB + 7, &zd) == &f2fs_dev_zoned(m)->zones[1]);
		CHECK(zd == f2fs_dev_zoned(m));
		CHECK(f2fs_zone_of_volume_blk(dev, own + 4 * ZB, &zd) == NULL);
		CHECK(f2fs_zone_of_volume_blk(dev, UINT64_MAX, NULL) == NULL);
	}
	CHECK(f2fs_dev_write(dev, 5, 1, blk) == 0);
	CHECK(f2fs_dev_write(dev, own + ZB + 1, 1, blk) == -EIO);
	CHECK(f2fs_dev_write(dev, own + ZB, 1, blk) == 0);
	CHECK_EQ_U64(f2fs_dev_zoned(m)->zones[1].wp, ZB + 1);
	CHECK(f2fs_zone_reset(dev, 0, own) == -EOPNOTSUPP);	/* not zoned */
	CHECK(f2fs_zone_reset(dev, own, 4ull * ZB) == 0);
	CHECK_EQ_U64(f2fs_dev_zoned(m)->zones[1].wp, ZB);
	CHECK(f2fs_zone_finish(dev, own + 3 * ZB, ZB) == 0);
	CHECK(f2fs_dev_zoned(m)->zones[3].cond == F2FS_ZONE_COND_FULL);
	f2fs_dev_close(dev);
	CHECK(file_has(path_in_dir("md1.img.zones"), "zone 3 1024 full"));
	unlink(path_in_dir("md1.img.zones"));
	unlink(d0);
	unlink(d1);
}

/* Host-aware: sequential-write-preferred zones take any write; the write
 * pointer follows the furthest one. */
static void test_host_aware(void)
{
	const char *img = path_in_dir("ha.img");
	static uint8_t blk[F2FS_BLKSIZE];
	struct f2fs_dev *dev = NULL;

	make_sparse(img, 4ull * ZB * F2FS_BLKSIZE);
	write_text(path_in_dir("ha.img.zones"), "zone_size 4M\nmodel host-aware\n");
	CHECK(f2fs_dev_open(img, NULL, &dev) == 0);
	if (!dev)
		return;
	CHECK(f2fs_dev_zoned(dev)->model == F2FS_ZONED_HA);
	CHECK(f2fs_dev_write(dev, ZB + 10, 1, blk) == 0);
	CHECK_EQ_U64(f2fs_dev_zoned(dev)->zones[1].wp, ZB + 11);
	CHECK(f2fs_dev_write(dev, ZB + 2, 1, blk) == 0);	/* behind: accepted */
	CHECK_EQ_U64(f2fs_dev_zoned(dev)->zones[1].wp, ZB + 11);
	CHECK(f2fs_dev_pwrite(dev, 100, 10, blk) == 0);	/* sub-block: accepted */
	CHECK(f2fs_zone_reset(dev, ZB, ZB) == 0);
	CHECK_EQ_U64(f2fs_dev_zoned(dev)->zones[1].wp, ZB);
	f2fs_dev_close(dev);
	unlink(path_in_dir("ha.img.zones"));
	unlink(img);
}

/* The one-line reason a tool prints for a side file it was refused. */
static void test_explain(void)
{
	const char *model = path_in_dir("explain.zones");
	char why[256];

	write_text(model, "zone_size 4M\n\nzone 9 0 sideways\n");
	CHECK(f2fs_zone_model_explain(model, 64ull << 20, why, sizeof(why)) == -EINVAL);
	CHECK(strstr(why, "line 3 ") != NULL);
	write_text(model, "zone_size 4M\n");
	CHECK(f2fs_zone_model_explain(model, 1ull << 20, why, sizeof(why)) == -EINVAL);
	CHECK(strstr(why, "whole zone") != NULL);
	CHECK(f2fs_zone_model_explain(model, 64ull << 20, why, sizeof(why)) == 0 && !why[0]);
	unlink(model);
	CHECK(f2fs_zone_model_explain(model, 64ull << 20, why, sizeof(why)) == -ENOENT);
}

/* Saving into a directory that cannot take the temporary file fails at
 * the flush, and leaves nothing behind. */
static void test_save_error(void)
{
	struct f2fs_zoned *zd = NULL;

	CHECK(f2fs_zone_model_parse("zone_size 4M\n", 8ull << 20, &zd, NULL) == 0);
	if (!zd)
		return;
	zd->model_path = strdup("/nonexistent-dir-f2fs/x.zones");
	zd->dirty = true;
	CHECK(f2fs_zone_model_save(zd) == -ENOENT);
	CHECK(zd->dirty);
	zd->dirty = false;
	CHECK(f2fs_zone_model_save(zd) == 0);	/* nothing changed: nothing to do */
	f2fs_zoned_free(zd);
}

static void test_names(void)
{
	CHECK(strcmp(f2fs_zone_type_name(F2FS_ZONE_TYPE_SEQWRITE_REQ), "seq-req") == 0);
	CHECK(strcmp(f2fs_zone_cond_name(F2FS_ZONE_COND_CLOSED), "closed") == 0);
	CHECK(strcmp(f2fs_zone_cond_name(0x7), "unknown") == 0);
	CHECK(strcmp(f2fs_zoned_model_name(F2FS_ZONED_HA), "host-aware") == 0);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/test_zone.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_arithmetic();
	test_zdiv_reciprocal();
	test_parse();
	test_device();
	test_multidev();
	test_host_aware();
	test_save_error();
	test_explain();
	test_names();
	rmdir(dir);
	return unit_finish("test_zone");
}
