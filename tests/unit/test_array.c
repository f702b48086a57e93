/*
 * test_array.c - unit tests of lib/array.c: appends keep every element,
 * capacities double from the minimum, a need beyond one doubling is met
 * at once, sizes that do not fit are refused with nothing changed; and
 * the hash tables' growth rule (at most half full, doubling, 0 past 32
 * bits) and probe order (every slot once, keys spread).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs_array.h"
#include "unit.h"

struct pair {
	uint64_t k;
	uint32_t v;
};

static void test_append(void)
{
	struct pair *a = NULL;
	uint32_t n = 0, cap = 0, bad = 0;

	for (uint32_t i = 0; i < 100000; i++) {
		if (F2FS_ARRAY_ROOM32(a, cap, n + 1, 16)) {
			bad++;
			break;
		}
		a[n++] = (struct pair){ .k = (uint64_t)i << 20, .v = i };
	}
	CHECK_EQ_U64(bad, 0);
	CHECK_EQ_U64(cap, 16u << 13);	/* 131072: doubled from 16 */
	for (uint32_t i = 0; i < n; i++)
		if (a[i].v != i || a[i].k != (uint64_t)i << 20)
			bad++;
	CHECK_EQ_U64(bad, 0);
	free(a);
}

static void test_sizes(void)
{
	uint8_t *b = NULL;
	size_t cap = 0;
	uint64_t *w = NULL;
	uint32_t wcap = 0;

	CHECK_EQ_U64(F2FS_ARRAY_ROOM(b, cap, 1, 64), 0);
	CHECK_EQ_U64(cap, 64);
	CHECK_EQ_U64(F2FS_ARRAY_ROOM(b, cap, 64, 64), 0);
	CHECK_EQ_U64(cap, 64);			/* enough already */
	CHECK_EQ_U64(F2FS_ARRAY_ROOM(b, cap, 1000, 64), 0);
	CHECK_EQ_U64(cap, 1024);		/* doubled until it holds 1000 */
	b[999] = 7;
	CHECK_EQ_U64(F2FS_ARRAY_ROOM32(w, wcap, 3, 0), 0);
	CHECK_EQ_U64(wcap, 4);			/* from 1 when no minimum */
	w[3] = 9;
	free(b);
	b = NULL;
	cap = 0;
	{
		uint64_t *big = w;		/* 8-byte elements: SIZE_MAX / 4 of them do not fit */
		size_t bcap = wcap;

		CHECK_EQ_U64(F2FS_ARRAY_ROOM(big, bcap, SIZE_MAX / 4, 4), -EOVERFLOW);
		CHECK_EQ_U64(bcap, 4);
		CHECK(big == w && w[3] == 9);	/* nothing changed */
	}
	free(b);
	free(w);
}

static void test_hash_capacity(void)
{
	uint32_t cap = 0, grew = 0;

	CHECK_EQ_U64(f2fs_hash_capacity(0, 0, 256), 256);
	CHECK_EQ_U64(f2fs_hash_capacity(127, 256, 256), 256);	/* 128 of 256: half full */
	CHECK_EQ_U64(f2fs_hash_capacity(128, 256, 256), 512);
	CHECK_EQ_U64(f2fs_hash_capacity(1000, 0, 64), 2048);	/* doubled until it holds */
	CHECK_EQ_U64(f2fs_hash_capacity(0, 0, 0), 2);
	CHECK_EQ_U64(f2fs_hash_capacity(UINT32_MAX / 2, 1u << 31, 64), 0);
	CHECK_EQ_U64(f2fs_hash_capacity(UINT32_MAX, 1u << 31, 64), 0);
	/* n entries added one at a time: the table grows at 1/2, 1/2... */
	for (uint32_t n = 0; n < 100000; n++) {
		uint32_t c = f2fs_hash_capacity(n, cap, 1024);

		if (c != cap) {
			grew++;
			if (c != (cap ? cap * 2 : 1024) || (uint64_t)(n + 1) * 2 > c)
				CHECK(!"grew to the wrong size");
			cap = c;
		}
	}
	CHECK_EQ_U64(cap, 262144);
	CHECK_EQ_U64(grew, 9);
}

static void test_hash_probe(void)
{
	enum { CAP = 1024 };
	static uint8_t seen[CAP];
	uint32_t start = f2fs_hash_slot(12345, CAP), i = start, n = 0, used = 0;

	do {
		seen[i]++;
		n++;
		i = f2fs_hash_next(i, CAP);
	} while (i != start && n <= CAP);
	CHECK_EQ_U64(n, CAP);		/* linear probing visits every slot once */
	for (i = 0; i < CAP; i++)
		CHECK(seen[i] == 1);
	/* consecutive keys (inode numbers, block addresses) spread out */
	memset(seen, 0, sizeof(seen));
	for (uint32_t k = 1; k <= CAP / 2; k++)
		seen[f2fs_hash_slot(k, CAP)] = 1;
	for (i = 0; i < CAP; i++)
		used += seen[i];
	CHECK(used == CAP / 2);
}

int main(void)
{
	test_append();
	test_sizes();
	test_hash_capacity();
	test_hash_probe();
	return unit_finish("test_array");
}
