/*
 * array.c - the growth of the tools' arrays (see include/f2fs_array.h):
 * doubling capacities, overflow-checked sizes, nothing changed on failure;
 * the growth rule and the slots of the open-addressing tables; a sort in
 * place; and a sort by 32-bit keys.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "f2fs_array.h"

/* The capacity that holds need: min_cap (at least 1), doubled as often as
 * needed; 0 when it would pass limit. */
static size_t next_capacity(size_t cap, size_t need, size_t min_cap, size_t limit)
{
	size_t c = cap ? cap : (min_cap ? min_cap : 1);

	while (c < need) {
		if (c > limit / 2)
			return need <= limit ? need : 0;
		c *= 2;
	}
	return c <= limit ? c : (need <= limit ? need : 0);
}

/* realloc of the array whose pointer is stored at arrp, to count elements. */
static int resize(void *arrp, size_t elem, size_t count)
{
	void *old, *p;

	if (!elem || count > SIZE_MAX / elem)
		return -EOVERFLOW;
	memcpy(&old, arrp, sizeof(old));
	p = realloc(old, count * elem);
	if (!p)
		return -ENOMEM;
	memcpy(arrp, &p, sizeof(p));
	return 0;
}

int f2fs_array_grow(void *arrp, size_t elem, size_t *cap, size_t need, size_t min_cap)
{
	size_t c;
	int err;

	if (need <= *cap)
		return 0;
	c = next_capacity(*cap, need, min_cap, elem ? SIZE_MAX / elem : 0);
	if (!c)
		return -EOVERFLOW;
	err = resize(arrp, elem, c);
	if (!err)
		*cap = c;
	return err;
}

int f2fs_array_grow32(void *arrp, size_t elem, uint32_t *cap, uint32_t need, uint32_t min_cap)
{
	size_t limit = elem ? SIZE_MAX / elem : 0, c;
	int err;

	if (need <= *cap)
		return 0;
	if (limit > UINT32_MAX)
		limit = UINT32_MAX;
	c = next_capacity(*cap, need, min_cap, limit);
	if (!c)
		return -EOVERFLOW;
	err = resize(arrp, elem, c);
	if (!err)
		*cap = (uint32_t)c;
	return err;
}

uint32_t f2fs_hash_capacity(uint32_t n, uint32_t cap, uint32_t min_cap)
{
	uint64_t need = ((uint64_t)n + 1) * 2, c = cap;

	if (need <= c)
		return cap;
	c = c ? c * 2 : (min_cap ? min_cap : 1);
	while (c < need)
		c *= 2;
	return c <= UINT32_MAX ? (uint32_t)c : 0;
}

/* Tables smaller than this come from the heap, their pages in use
 * already. */
#define TABLE_POPULATE_MIN	(64u * 1024)

void *f2fs_hash_table_alloc(uint32_t cap, size_t size)
{
	void *t = calloc(cap, size);

#ifdef MADV_POPULATE_WRITE
	long page = sysconf(_SC_PAGESIZE);

	if (t && page > 0 && (size_t)cap * size >= TABLE_POPULATE_MIN) {
		uintptr_t lo = ((uintptr_t)t + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
		uintptr_t hi = ((uintptr_t)t + (size_t)cap * size) & ~((uintptr_t)page - 1);

		/* best effort: a kernel without it (before 5.14) faults as before */
		if (hi > lo)
			(void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
	}
#endif
	return t;
}

/* ---- sorting in place: quicksort, heap sort past a depth limit ---- */

struct sort_ctx {
	uint8_t *base;
	size_t size;
	int (*cmp)(const void *, const void *);
};

/* Ranges this short are sorted by insertion. */
#define SORT_SHORT	16

static uint8_t *elem_at(const struct sort_ctx *s, size_t i)
{
	return s->base + i * s->size;
}

static bool elem_less(const struct sort_ctx *s, size_t i, size_t j)
{
	return s->cmp(elem_at(s, i), elem_at(s, j)) < 0;
}

static void elem_swap(const struct sort_ctx *s, size_t i, size_t j)
{
	uint8_t *a = elem_at(s, i), *b = elem_at(s, j);
	size_t left = s->size;

	for (; left >= sizeof(uint64_t); left -= sizeof(uint64_t)) {
		uint64_t t;

		memcpy(&t, a, sizeof(t));
		memcpy(a, b, sizeof(t));
		memcpy(b, &t, sizeof(t));
		a += sizeof(t);
		b += sizeof(t);
	}
	for (; left; left--, a++, b++) {
		uint8_t t = *a;

		*a = *b;
		*b = t;
	}
}

/* Elements [lo, hi), each moved down past the larger ones before it. */
static void insertion_sort(const struct sort_ctx *s, size_t lo, size_t hi)
{
	for (size_t i = lo + 1; i < hi; i++)
		for (size_t j = i; j > lo && elem_less(s, j, j - 1); j--)
			elem_swap(s, j, j - 1);
}

/* The heap of n elements from lo, with the one at root moved down to
 * where it is no smaller than its children. */
static void sift_down(const struct sort_ctx *s, size_t lo, size_t root, size_t n)
{
	for (;;) {
		size_t child = 2 * root + 1;

		if (child >= n)
			return;
		if (child + 1 < n && elem_less(s, lo + child, lo + child + 1))
			child++;
		if (!elem_less(s, lo + root, lo + child))
			return;
		elem_swap(s, lo + root, lo + child);
		root = child;
	}
}

static void heap_sort(const struct sort_ctx *s, size_t lo, size_t hi)
{
	size_t n = hi - lo;

	for (size_t i = n / 2; i-- > 0;)
		sift_down(s, lo, i, n);
	for (size_t end = n - 1; end > 0; end--) {
		elem_swap(s, lo, lo + end);
		sift_down(s, lo, 0, end);
	}
}

/* The median of the first, middle and last elements of [lo, hi), moved
 * to lo as the pivot (sorted input then splits in halves). */
static void pivot_to_front(const struct sort_ctx *s, size_t lo, size_t hi)
{
	size_t mid = lo + (hi - lo) / 2, last = hi - 1;

	if (elem_less(s, mid, lo))
		elem_swap(s, mid, lo);
	if (elem_less(s, last, mid)) {
		elem_swap(s, last, mid);
		if (elem_less(s, mid, lo))
			elem_swap(s, mid, lo);
	}
	elem_swap(s, lo, mid);
}

/* [lo, hi) split around the pivot at lo: those before its final place,
 * which is returned, are no larger, those after no smaller. */
static size_t partition(const struct sort_ctx *s, size_t lo, size_t hi)
{
	size_t i = lo, j = hi;

	for (;;) {
		while (elem_less(s, ++i, lo))
			if (i == hi - 1)
				break;
		while (elem_less(s, lo, --j))
			if (j == lo)
				break;
		if (i >= j)
			break;
		elem_swap(s, i, j);
	}
	elem_swap(s, lo, j);
	return j;
}

/* Sort [lo, hi); depth partitions left before heap sort takes over.  The
 * smaller side recurses, the larger loops: the C stack stays O(log n). */
static void intro_sort(const struct sort_ctx *s, size_t lo, size_t hi, unsigned int depth)
{
	while (hi - lo > SORT_SHORT) {
		size_t p;

		if (!depth) {
			heap_sort(s, lo, hi);
			return;
		}
		depth--;
		pivot_to_front(s, lo, hi);
		p = partition(s, lo, hi);
		if (p - lo < hi - p - 1) {
			intro_sort(s, lo, p, depth);
			lo = p + 1;
		} else {
			intro_sort(s, p + 1, hi, depth);
			hi = p;
		}
	}
	insertion_sort(s, lo, hi);
}

void f2fs_array_sort(void *base, size_t n, size_t size,
		     int (*cmp)(const void *, const void *))
{
	struct sort_ctx s = { .base = base, .size = size, .cmp = cmp };
	unsigned int depth = 0;

	if (n < 2 || !size)
		return;
	for (size_t m = n; m; m >>= 1)
		depth += 2;
	intro_sort(&s, 0, n, depth);
}

/* ---- sort by keys ---- */

/* Pairs (key << 32 | index) ordered by key, equal keys in index order:
 * a least-significant-digit radix sort over the key's four bytes through
 * tmp, the four histograms counted in one pass, skipping the bytes every
 * key shares. */
static void radix_sort_pairs(uint64_t *pairs, uint64_t *tmp, size_t n)
{
	size_t count[4][256] = { { 0 } };
	uint64_t *from = pairs, *to = tmp, *swap;

	for (size_t i = 0; i < n; i++) {
		uint32_t key = (uint32_t)(pairs[i] >> 32);

		count[0][key & 0xff]++;
		count[1][(key >> 8) & 0xff]++;
		count[2][(key >> 16) & 0xff]++;
		count[3][key >> 24]++;
	}
	for (unsigned int d = 0; d < 4; d++) {
		unsigned int shift = 32 + 8 * d;
		size_t *c = count[d], at = 0;

		if (c[(from[0] >> shift) & 0xff] == n)
			continue;
		for (unsigned int v = 0; v < 256; v++) {
			size_t k = c[v];

			c[v] = at;
			at += k;
		}
		for (size_t i = 0; i < n; i++)
			to[c[(from[i] >> shift) & 0xff]++] = from[i];
		swap = from;
		from = to;
		to = swap;
	}
	if (from != pairs)
		memcpy(pairs, from, n * sizeof(*pairs));
}

/* Element i of base becomes the one the low half of pairs[i] names, by
 * following each cycle of the permutation once (pairs is used up). */
static void apply_order(uint8_t *base, size_t n, size_t size, uint64_t *pairs, uint8_t *hold)
{
	for (size_t i = 0; i < n; i++) {
		size_t j = i;

		if ((uint32_t)pairs[i] == i)
			continue;
		memcpy(hold, base + i * size, size);
		for (;;) {
			size_t from = (uint32_t)pairs[j];

			pairs[j] = j;
			if (from == i) {
				memcpy(base + j * size, hold, size);
				break;
			}
			memcpy(base + j * size, base + from * size, size);
			j = from;
		}
	}
}

/* Each run of elements of equal key sorted by cmp. */
static void sort_ties(uint8_t *base, size_t n, size_t size, uint32_t (*key)(const void *),
		      int (*cmp)(const void *, const void *))
{
	for (size_t lo = 0, hi; lo < n; lo = hi) {
		uint32_t k = key(base + lo * size);

		for (hi = lo + 1; hi < n && key(base + hi * size) == k; hi++)
			;
		if (hi - lo > 1)
			f2fs_array_sort(base + lo * size, hi - lo, size, cmp);
	}
}

/* Few pairs: by insertion (no two pairs are equal, their indexes
 * differ, so this is the radix sort's order too). */
static void insert_sort_pairs(uint64_t *pairs, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		uint64_t p = pairs[i];
		size_t j = i;

		for (; j > 0 && pairs[j - 1] > p; j--)
			pairs[j] = pairs[j - 1];
		pairs[j] = p;
	}
}

/* The arrays sorted by key often come in order already, or reversed (a
 * stack popped): both are found in one pass and need no sort. */
enum pairs_order { PAIRS_ASCENDING, PAIRS_DESCENDING, PAIRS_MIXED };

static enum pairs_order pairs_order(const uint64_t *pairs, size_t n)
{
	bool up = true, down = true;

	for (size_t i = 1; i < n && (up || down); i++) {
		uint32_t prev = (uint32_t)(pairs[i - 1] >> 32), cur = (uint32_t)(pairs[i] >> 32);

		up = up && prev <= cur;
		down = down && prev > cur;	/* strictly: equal keys keep their order */
	}
	return up ? PAIRS_ASCENDING : down ? PAIRS_DESCENDING : PAIRS_MIXED;
}

static void reverse_pairs(uint64_t *pairs, size_t n)
{
	for (size_t i = 0, j = n - 1; i < j; i++, j--) {
		uint64_t t = pairs[i];

		pairs[i] = pairs[j];
		pairs[j] = t;
	}
}

/* Arrays up to this long are sorted by insertion. */
#define SORT_KEYED_SHORT	64
/* Arrays up to this long are sorted without allocating (the pairs and
 * the radix sort's second half on the stack: 4 KiB). */
#define SORT_KEYED_STACK	256

/* The pairs of a sort of n elements: on the stack, in the caller's
 * scratch (grown to fit), or allocated for the call; NULL on ENOMEM. */
static uint64_t *sort_pairs(struct f2fs_sort_scratch *scratch, uint64_t *few, size_t n)
{
	if (n <= SORT_KEYED_STACK)
		return few;
	if (!scratch)
		return malloc(n * 2 * sizeof(*few));
	return f2fs_sort_scratch_reserve(scratch, n) ? NULL : scratch->pairs;
}

int f2fs_sort_scratch_reserve(struct f2fs_sort_scratch *scratch, size_t n)
{
	if (n > SIZE_MAX / (2 * sizeof(*scratch->pairs)))
		return -EOVERFLOW;
	if (scratch->cap >= 2 * n)
		return 0;
	free(scratch->pairs);	/* nothing in it to keep */
	scratch->pairs = malloc(n * 2 * sizeof(*scratch->pairs));
	scratch->cap = scratch->pairs ? 2 * n : 0;
	return scratch->pairs ? 0 : -ENOMEM;
}

void f2fs_sort_scratch_free(struct f2fs_sort_scratch *scratch)
{
	free(scratch->pairs);
	scratch->pairs = NULL;
	scratch->cap = 0;
}

int f2fs_array_sort_by_key(void *base, size_t n, size_t size,
			   uint32_t (*key)(const void *),
			   int (*cmp)(const void *, const void *))
{
	return f2fs_array_sort_by_key_in(NULL, base, n, size, key, cmp);
}

int f2fs_array_sort_by_key_in(struct f2fs_sort_scratch *scratch, void *base, size_t n,
			      size_t size, uint32_t (*key)(const void *),
			      int (*cmp)(const void *, const void *))
{
	uint8_t hold[F2FS_SORT_KEYED_MAX];
	uint64_t few[2 * SORT_KEYED_STACK], *pairs;
	uint8_t *b = base;

	if (n < 2)
		return 0;
	if (size > sizeof(hold) || n > UINT32_MAX)
		return -EINVAL;
	if (!(pairs = sort_pairs(scratch, few, n)))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		pairs[i] = (uint64_t)key(b + i * size) << 32 | i;
	switch (pairs_order(pairs, n)) {
	case PAIRS_ASCENDING:
		break;
	case PAIRS_DESCENDING:
		reverse_pairs(pairs, n);
		apply_order(b, n, size, pairs, hold);
		break;
	default:
		if (n <= SORT_KEYED_SHORT)
			insert_sort_pairs(pairs, n);
		else
			radix_sort_pairs(pairs, pairs + n, n);
		apply_order(b, n, size, pairs, hold);
	}
	if (pairs != few && !scratch)
		free(pairs);
	if (cmp)
		sort_ties(b, n, size, key, cmp);
	return 0;
}
