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

#endif
