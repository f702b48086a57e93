/*
 * test_array.c - unit tests of lib/array.c: appends keep every element,
 * capacities double from the minimum, a need beyond one doubling is met
 * at once, sizes that do not fit are refused with nothing changed; and
 * the hash tables' growth rule (at most half full, doubling, 0 past 32
 * bits) and probe order (every slot once, keys spread); the sort in
 * place gives qsort()'s order on every input shape and element size,
 * keeps every element, and falls back to heap sort without harm.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

/* A table's slots: zeroed, small or large, and a large one's pages
 * present already (where the kernel can make them so: Linux 5.14). */
static void test_hash_table_alloc(void)
{
	static const uint32_t caps[] = { 16, 1u << 17 };

	for (size_t k = 0; k < sizeof(caps) / sizeof(caps[0]); k++) {
		uint64_t *t = f2fs_hash_table_alloc(caps[k], sizeof(*t));
		uint64_t sum = 0;

		CHECK(t != NULL);
		if (!t)
			continue;
		for (uint32_t i = 0; i < caps[k]; i++)
			sum |= t[i];
		CHECK_EQ_U64(sum, 0);
		t[caps[k] - 1] = 7;
		CHECK_EQ_U64(t[caps[k] - 1], 7);
#if defined(MADV_POPULATE_WRITE) && defined(__linux__)
		if (caps[k] * sizeof(*t) >= 256 * 1024) {
			long page = sysconf(_SC_PAGESIZE);
			uintptr_t lo = ((uintptr_t)t + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
			uintptr_t hi = ((uintptr_t)t + caps[k] * sizeof(*t)) & ~((uintptr_t)page - 1);
			size_t np = (hi - lo) / (size_t)page, resident = 0;
			unsigned char *vec = malloc(np);
			void *probe = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE,
					   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			bool can = probe != MAP_FAILED &&
				   madvise(probe, (size_t)page, MADV_POPULATE_WRITE) == 0;

			if (probe != MAP_FAILED)
				munmap(probe, (size_t)page);
			if (vec && can && mincore((void *)lo, hi - lo, vec) == 0) {
				for (size_t i = 0; i < np; i++)
					resident += vec[i] & 1;
				CHECK_EQ_U64(resident, np);
			}
			free(vec);
		}
#endif
		free(t);
	}
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

/* An element of fsck's walk stack's size, keyed by its first word; the
 * rest carries the element's identity, to see that nothing is lost. */
struct wide {
	uint32_t key;
	uint32_t id;
	uint8_t pad[48];
};

/* An odd size: the byte-wise part of a swap. */
struct odd {
	uint8_t key[3];
	uint8_t id[2];
};

static int cmp_wide(const void *a, const void *b)
{
	const struct wide *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

static int cmp_odd(const void *a, const void *b)
{
	return memcmp(((const struct odd *)a)->key, ((const struct odd *)b)->key, 3);
}

static uint32_t next_rand(uint32_t *state)
{
	*state = *state * 1103515245u + 12345u;
	return *state >> 8;
}

/* Key k of n in each input shape: random, sorted, reversed, all equal,
 * few distinct, organ pipe, reversed with ties, sawtooth. */
static uint32_t shaped_key(int shape, uint32_t k, uint32_t n, uint32_t *rnd)
{
	switch (shape) {
	case 0: return next_rand(rnd);
	case 1: return k;
	case 2: return n - k;
	case 3: return 7;
	case 4: return next_rand(rnd) % 5;
	case 5: return k < n / 2 ? k : n - k;
	case 6: return (n - k) / 2;	/* descending, in pairs of equal keys */
	default: return k % 17;
	}
}

/* n elements of a shape, each with its place as id and a padding that
 * tells it; the same in b. */
static void fill_shaped(struct wide *a, struct wide *b, uint32_t n, int shape, uint32_t *rnd)
{
	for (uint32_t k = 0; k < n; k++) {
		a[k].key = shaped_key(shape, k, n, rnd);
		a[k].id = k;
		memset(a[k].pad, (int)(k & 0xff), sizeof(a[k].pad));
	}
	memcpy(b, a, (size_t)n * sizeof(*a));
}

/* Every shape at sizes around the insertion-sort cut-off and beyond,
 * against qsort(): same keys in the same order, every element kept. */
static void test_sort_shapes(void)
{
	static const uint32_t sizes[] = { 0, 1, 2, 3, 15, 16, 17, 18, 100, 1000, 20000 };
	uint32_t rnd = 1, bad = 0;

	for (int shape = 0; shape < 8; shape++) {
		for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
			uint32_t n = sizes[z];
			struct wide *a = calloc(n + 1, sizeof(*a)), *b = calloc(n + 1, sizeof(*b));
			uint8_t *ids = calloc(n + 1, 1);

			if (!a || !b || !ids) {
				CHECK(!"out of memory");
				return;
			}
			fill_shaped(a, b, n, shape, &rnd);
			f2fs_array_sort(a, n, sizeof(*a), cmp_wide);
			qsort(b, n, sizeof(*b), cmp_wide);
			for (uint32_t k = 0; k < n; k++) {
				if (a[k].key != b[k].key || a[k].id >= n || ids[a[k].id]++ ||
				    a[k].pad[47] != (uint8_t)(a[k].id & 0xff))
					bad++;
			}
			free(a);
			free(b);
			free(ids);
		}
	}
	CHECK_EQ_U64(bad, 0);
}

/* Unique keys (as the walk sorts: inode numbers, fingerprints with their
 * slots): exactly qsort()'s order, also for an element size that is no
 * multiple of 8. */
static void test_sort_unique(void)
{
	enum { N = 5000 };
	static struct odd a[N], b[N];
	uint32_t bad = 0;

	for (uint32_t k = 0; k < N; k++) {
		uint32_t v = (k * 2654435761u) % 16777216u;	/* distinct below 2^24 */

		a[k] = (struct odd){ .key = { (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v },
				     .id = { (uint8_t)(k >> 8), (uint8_t)k } };
	}
	memcpy(b, a, sizeof(a));
	f2fs_array_sort(a, N, sizeof(a[0]), cmp_odd);
	qsort(b, N, sizeof(b[0]), cmp_odd);
	if (memcmp(a, b, sizeof(a)))
		bad++;
	CHECK_EQ_U64(bad, 0);
}

/* A comparison that always says "less" would send quicksort past its
 * depth limit; the sort must still end (heap sort) and keep every
 * element.  A shape that defeats the median of three: the same. */
static int cmp_liar(const void *a, const void *b)
{
	(void)a;
	(void)b;
	return -1;
}

static void test_sort_depth_limit(void)
{
	enum { N = 4096 };
	static struct wide a[N];
	static uint8_t ids[N];
	uint32_t bad = 0;

	for (uint32_t k = 0; k < N; k++)
		a[k] = (struct wide){ .key = k, .id = k };
	f2fs_array_sort(a, N, sizeof(a[0]), cmp_liar);
	for (uint32_t k = 0; k < N; k++)
		if (a[k].id >= N || ids[a[k].id]++)
			bad++;
	CHECK_EQ_U64(bad, 0);
}

static uint32_t wide_key(const void *a)
{
	return ((const struct wide *)a)->key;
}

static uint32_t wide_key_top(const void *a)
{
	return ((const struct wide *)a)->key >> 28;
}

static int cmp_wide_id_desc(const void *a, const void *b)
{
	const struct wide *x = a, *y = b;

	return x->id < y->id ? 1 : x->id > y->id ? -1 : 0;
}

static int cmp_wide_then_id(const void *a, const void *b)
{
	const struct wide *x = a, *y = b;

	return x->key != y->key ? (x->key < y->key ? -1 : 1) : cmp_wide_id_desc(a, b);
}

static int cmp_wide_stable(const void *a, const void *b)
{
	const struct wide *x = a, *y = b;

	return x->key != y->key ? (x->key < y->key ? -1 : 1) : (x->id > y->id) - (x->id < y->id);
}

/* f2fs_array_sort_by_key(), against a stable reference (ties by id, the
 * order they came in): every shape and size; then with a comparison for
 * the ties (a key of only the top 4 bits, ties ordered by key, then by
 * descending id) against f2fs_array_sort() with the whole comparison,
 * through a scratch kept from sort to sort (f2fs_array_sort_by_key_in()),
 * which grows to the largest and is set aside ahead by reserve. */
static void test_sort_by_key(void)
{
	static const uint32_t sizes[] = { 0, 1, 2, 3, 16, 17, 100, 1000, 20000, 300 };
	struct f2fs_sort_scratch scratch = { 0 };
	uint32_t rnd = 7, bad = 0;

	for (int shape = 0; shape < 8; shape++) {
		for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
			uint32_t n = sizes[z];
			struct wide *a = calloc(n + 1, sizeof(*a)), *b = calloc(n + 1, sizeof(*b));

			if (!a || !b) {
				CHECK(!"out of memory");
				return;
			}
			fill_shaped(a, b, n, shape, &rnd);
			if (f2fs_array_sort_by_key(a, n, sizeof(*a), wide_key, NULL))
				bad++;
			f2fs_array_sort(b, n, sizeof(*b), cmp_wide_stable);
			if (n && memcmp(a, b, (size_t)n * sizeof(*a)))
				bad++;
			memcpy(a, b, (size_t)n * sizeof(*a));
			if (f2fs_array_sort_by_key_in(&scratch, a, n, sizeof(*a), wide_key_top,
						      cmp_wide_then_id))
				bad++;
			f2fs_array_sort(b, n, sizeof(*b), cmp_wide_then_id);
			if (n && memcmp(a, b, (size_t)n * sizeof(*a)))
				bad++;
			free(a);
			free(b);
		}
	}
	CHECK_EQ_U64(bad, 0);
	CHECK_EQ_U64(scratch.cap, 2 * 20000);	/* grown once, kept for the smaller */
	CHECK_EQ_U64(f2fs_sort_scratch_reserve(&scratch, 30000), 0);
	CHECK_EQ_U64(scratch.cap, 2 * 30000);
	CHECK_EQ_U64(f2fs_sort_scratch_reserve(&scratch, SIZE_MAX / 8), -EOVERFLOW);
	f2fs_sort_scratch_free(&scratch);
	CHECK(scratch.pairs == NULL && scratch.cap == 0);
	{
		uint8_t big[2 * (F2FS_SORT_KEYED_MAX + 1)] = { 0 };

		CHECK_EQ_U64(f2fs_array_sort_by_key(big, 2, F2FS_SORT_KEYED_MAX + 1, wide_key, NULL) == -EINVAL, 1);
	}
}

int main(void)
{
	test_append();
	test_sizes();
	test_hash_capacity();
	test_hash_probe();
	test_hash_table_alloc();
	test_sort_shapes();
	test_sort_unique();
	test_sort_depth_limit();
	test_sort_by_key();
	return unit_finish("test_array");
}
