/*
 * f2fs_array.h - growable arrays: one way for every tool to make room in
 * an array before appending to it, instead of a realloc-and-double block
 * at each site.
 *
 * An array is three plain fields the caller owns (a typed pointer, a
 * count, a capacity in elements), so structures keep their types and
 * their field names; only the growth is shared:
 *
 *	if (F2FS_ARRAY_ROOM32(l->v, l->cap, l->n + 1, 16))
 *		return -ENOMEM;
 *	l->v[l->n++] = item;
 *
 * The element size comes from the pointer's type, and the capacity must
 * be a size_t (F2FS_ARRAY_ROOM) or a uint32_t (F2FS_ARRAY_ROOM32): the
 * compiler checks both.  The macros evaluate their arguments more than
 * once: pass plain lvalues.
 *
 * Hash tables grow differently (a rehash into a bigger table, not an
 * append): f2fs_hash_capacity() below is their shared growth rule.
 * f2fs_array_sort() sorts an array where it lies;
 * f2fs_array_sort_by_key() sorts by 32-bit keys, faster, with a buffer.
 */
#ifndef F2FS_ARRAY_H
#define F2FS_ARRAY_H

#include <stddef.h>
#include <stdint.h>

/* Room for need elements of elem bytes in the array whose pointer is at
 * arrp (a T ** passed as void *) and whose capacity is *cap: the capacity
 * doubles, starting at min_cap, until it holds need; the content is kept.
 * Returns 0, -ENOMEM or -EOVERFLOW (the size does not fit), leaving the
 * array and *cap unchanged on failure. */
int f2fs_array_grow(void *arrp, size_t elem, size_t *cap, size_t need, size_t min_cap);
int f2fs_array_grow32(void *arrp, size_t elem, uint32_t *cap, uint32_t need, uint32_t min_cap);

#define F2FS_ARRAY_ROOM(arr, cap, need, min_cap) \
	((size_t)(need) <= (cap) ? 0 : \
	 f2fs_array_grow(&(arr), sizeof(*(arr)), &(cap), (need), (min_cap)))
#define F2FS_ARRAY_ROOM32(arr, cap, need, min_cap) \
	((uint32_t)(need) <= (cap) ? 0 : \
	 f2fs_array_grow32(&(arr), sizeof(*(arr)), &(cap), (need), (min_cap)))

/* Sort n elements of size bytes at base in place, in the order cmp gives
 * (qsort()'s contract), without allocating: glibc's qsort() copies a
 * large array (or an array of pointers to its elements) into a buffer as
 * big as the array, which the peak memory of a walk over a directory of
 * 100,000 names pays for.  Not stable: elements cmp calls equal may come
 * out in any order, so callers sort by keys that differ. */
void f2fs_array_sort(void *base, size_t n, size_t size,
		     int (*cmp)(const void *, const void *));

/* Sort n elements of size bytes (at most F2FS_SORT_KEYED_MAX) at base by
 * the 32-bit key key() reads from each, ascending: a radix sort of (key,
 * index) pairs and one pass of moves, no call per comparison.  Elements
 * of equal keys keep the order they had (stable), or, when cmp is given,
 * are then sorted by cmp (f2fs_array_sort() on each run of them): the
 * result is cmp's order when key never contradicts it.  Past 64
 * elements it allocates 16 bytes per element for the time of the call.
 * Returns 0, or -ENOMEM or -EINVAL (size too large) with the array
 * unchanged. */
#define F2FS_SORT_KEYED_MAX	256u
int f2fs_array_sort_by_key(void *base, size_t n, size_t size,
			   uint32_t (*key)(const void *),
			   int (*cmp)(const void *, const void *));

/* The 16 bytes per element a sort by key needs past 256 elements, kept
 * by a caller that sorts large arrays one after another: the pages are
 * faulted in once (zero-initialise; f2fs_sort_scratch_free() at the end). */
struct f2fs_sort_scratch {
	uint64_t *pairs;
	size_t cap;		/* pairs: room for a sort of cap / 2 elements */
};
/* f2fs_array_sort_by_key() with scratch's memory (grown as needed; NULL:
 * allocated for the call). */
int f2fs_array_sort_by_key_in(struct f2fs_sort_scratch *scratch, void *base, size_t n,
			      size_t size, uint32_t (*key)(const void *),
			      int (*cmp)(const void *, const void *));
/* Room in scratch for a sort of n elements (its content is not kept):
 * 0, -ENOMEM (scratch then empty) or -EOVERFLOW. */
int f2fs_sort_scratch_reserve(struct f2fs_sort_scratch *scratch, size_t n);
void f2fs_sort_scratch_free(struct f2fs_sort_scratch *scratch);

/*
 * Open-addressing tables keyed by 32-bit numbers (fsck's subdirectory
 * counts, preen's roll-forward chain sets, the quota check's ids): each
 * keeps its own slot type, and all probe and grow the same way: a power
 * of two slots, at most half full, Fibonacci hashing, linear probing.
 */

/* The first slot to probe for key in a table of cap slots (a power of
 * two), and the slot after slot. */
static inline uint32_t f2fs_hash_slot(uint32_t key, uint32_t cap)
{
	return (key * 2654435761u) & (cap - 1);
}

static inline uint32_t f2fs_hash_next(uint32_t slot, uint32_t cap)
{
	return (slot + 1) & (cap - 1);
}

/* The slots a table of n entries in cap slots needs to take one more:
 * cap while it stays at most half full, else cap doubled (min_cap, a
 * power of two, for a table without slots) until it does; 0 when that
 * does not fit in 32 bits. */
uint32_t f2fs_hash_capacity(uint32_t n, uint32_t cap, uint32_t min_cap);

/* A table's cap zeroed slots of size bytes (calloc()'s contract).  Half
 * full at most, a table's entries land on every page of it, so a large
 * one has its pages made present in one call: left to faults, each page
 * would be mapped to the shared zero page at its first look-up and
 * copied at its first store (two faults, and the copy flushes the other
 * threads' TLBs), where one call costs about the page's clearing. */
void *f2fs_hash_table_alloc(uint32_t cap, size_t size);

#endif
