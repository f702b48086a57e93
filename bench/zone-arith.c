/*
 * zone-arith.c - bench/zone-bench.sh's timing of the zone arithmetic of
 * include/f2fs_zone.h: the zone of a block and the block's offset in it
 * (f2fs_zone_no, f2fs_zone_blkoff: a shift for power-of-two zone sizes, a
 * multiplication by a precomputed reciprocal otherwise) over pseudo-random
 * block addresses of a 16 TiB address space, beside an unconditional
 * division for reference, best of several runs, in nanoseconds per
 * lookup: chained (each lookup waits for the one before: its latency) and
 * independent (a table of addresses: the cost when the CPU overlaps the
 * lookups, as when a tool maps many blocks).
 *
 *   zone-arith [zone-blocks...]   (default: 2^16, 2^18, 24576, 51200, 256000)
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "f2fs_zone.h"

#define LOOKUPS		(1u << 24)
#define RUNS		7

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define TABLE		4096u		/* addresses of the independent runs */

static uint64_t table[TABLE];

/* One run.  chained: every lookup's result feeds the next address, so
 * none can be skipped or overlapped (the latency of one lookup); else the
 * lookups of a table of addresses, independent of each other, as a tool
 * mapping many blocks does them (the cost when the CPU overlaps them).
 * plain: a division whatever d is, instead of f2fs_zone.h's helpers. */
static double run(const struct f2fs_zoned *zd, bool chained, bool plain, uint64_t *sink)
{
	volatile uint64_t dv = zd->zone_blocks;
	uint64_t x = 0x9e3779b97f4a7c15ull, acc = 0, d = dv;
	double t0 = now();

	for (uint32_t i = 0; i < LOOKUPS; i++) {
		uint64_t blk = chained ? (x ^ acc) & ((1ull << 32) - 1) : table[i % TABLE];

		if (plain)
			acc += blk / d + blk % d;
		else
			acc += f2fs_zone_no(zd, blk) + f2fs_zone_blkoff(zd, blk);
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	}
	*sink += acc;
	return (now() - t0) * 1e9 / LOOKUPS;
}

static double best_of(const struct f2fs_zoned *zd, bool chained, bool plain, uint64_t *sink)
{
	double best = 1e9;

	for (int r = 0; r < RUNS; r++) {
		double t = run(zd, chained, plain, sink);

		if (t < best)
			best = t;
	}
	return best;
}

int main(int argc, char **argv)
{
	static const uint64_t dflt[] = { 1u << 16, 1u << 18, 24576, 51200, 256000 };
	uint64_t sink = 0;
	int n = argc > 1 ? argc - 1 : (int)(sizeof(dflt) / sizeof(dflt[0]));
	uint64_t x = 0x2545f4914f6cdd1dull;

	for (uint32_t i = 0; i < TABLE; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		table[i] = x >> 32;
	}
	for (int k = 0; k < n; k++) {
		struct f2fs_zoned zd = { 0 };

		zd.zone_blocks = argc > 1 ? strtoull(argv[k + 1], NULL, 0) : dflt[k];
		f2fs_zdiv_init(&zd.zdiv, zd.zone_blocks);
		printf("zone %8" PRIu64 " blocks (%5" PRIu64 " MiB), ns per lookup: chained: "
		       "f2fs_zone.h (%s) %.2f, always dividing %.2f; independent: f2fs_zone.h "
		       "%.2f, always dividing %.2f\n", zd.zone_blocks, zd.zone_blocks / 256,
		       zd.zdiv.pow2 ? "shift" : "reciprocal", best_of(&zd, true, false, &sink),
		       best_of(&zd, true, true, &sink), best_of(&zd, false, false, &sink),
		       best_of(&zd, false, true, &sink));
	}
	fprintf(stderr, "(checksum %" PRIu64 ")\n", sink);
	return 0;
}
