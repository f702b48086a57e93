/*
 * test_array.c - unit tests of lib/array.c: appends keep every element,
 * capacities double from the minimum, a need beyond one doubling is met
 * at once, sizes that do not fit are refused with nothing changed.
 */
#include <errno.h>
#include <stdlib.h>

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

int main(void)
{
	test_append();
	test_sizes();
	return unit_finish("test_array");
}
