/*
 * array.c - the growth of the tools' arrays (see include/f2fs_array.h):
 * doubling capacities, overflow-checked sizes, nothing changed on failure;
 * and the growth rule of the open-addressing tables.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
