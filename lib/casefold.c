/*
 * casefold.c - the folding of names in casefolded directories, so that a
 * checker can recompute the hashes the kernel stored for them.  The
 * mappings come from the generated tables (casefold_tables.c); what is
 * done here: strict UTF-8 decoding, the table lookups, the algorithmic
 * Hangul syllable decomposition, canonical ordering of combining marks,
 * and UTF-8 encoding.  A removed (default-ignorable) code point still ends
 * a run of combining marks, as in the kernel's normalizer.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "casefold_tables.h"
#include "f2fs_casefold.h"

#define NO_CP		UINT32_MAX	/* a removed code point: a run boundary */
#define MAX_EXPANSION	4		/* longest mapping (gen-casefold-tables checks) */

struct folded {
	uint32_t cp;
	uint8_t ccc;
};

/* Decode one code point of well-formed UTF-8; its length, or 0. */
static size_t decode(const uint8_t *s, size_t len, uint32_t *cp)
{
	uint32_t c = s[0], min;
	size_t n;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xC2 && c <= 0xDF) {
		n = 2, c &= 0x1F, min = 0x80;
	} else if (c >= 0xE0 && c <= 0xEF) {
		n = 3, c &= 0x0F, min = 0x800;
	} else if (c >= 0xF0 && c <= 0xF4) {
		n = 4, c &= 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (n > len)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return n;
}

static size_t encode(uint32_t c, uint8_t *out)
{
	if (c < 0x80) {
		out[0] = (uint8_t)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (uint8_t)(0xC0 | c >> 6);
		out[1] = (uint8_t)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (uint8_t)(0xE0 | c >> 12);
		out[1] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
		out[2] = (uint8_t)(0x80 | (c & 0x3F));
		return 3;
	}
	out[0] = (uint8_t)(0xF0 | c >> 18);
	out[1] = (uint8_t)(0x80 | (c >> 12 & 0x3F));
	out[2] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
	out[3] = (uint8_t)(0x80 | (c & 0x3F));
	return 4;
}

/* bsearch() comparator: both tables start with the code point. */
static int cmp_cp(const void *key, const void *elem)
{
	uint32_t c = *(const uint32_t *)key, e = *(const uint32_t *)elem;

	return c < e ? -1 : c > e;
}

static const struct f2fs_cf_map *find_map(uint32_t c)
{
	return bsearch(&c, f2fs_cf_maps, f2fs_cf_nmaps, sizeof(*f2fs_cf_maps), cmp_cp);
}

static uint8_t combining_class(uint32_t c)
{
	const struct f2fs_cf_ccc *e = bsearch(&c, f2fs_cf_cccs, f2fs_cf_ncccs,
					      sizeof(*f2fs_cf_cccs), cmp_cp);

	return e ? e->ccc : 0;
}

static int cmp_range(const void *key, const void *elem)
{
	uint32_t c = *(const uint32_t *)key;
	const struct f2fs_cf_range *r = elem;

	return c < r->first ? -1 : c > r->last;
}

static bool ignorable(uint32_t c)
{
	return bsearch(&c, f2fs_cf_ignorables, f2fs_cf_nignorables, sizeof(*f2fs_cf_ignorables),
		       cmp_range) != NULL;
}

/* Append the folding of c to f[*n..). */
static void fold_one(uint32_t c, struct folded *f, size_t *n)
{
	const struct f2fs_cf_map *m;

	if (ignorable(c)) {
		f[(*n)++] = (struct folded){ NO_CP, 0 };
		return;
	}
	if (c >= 0xAC00 && c <= 0xD7A3) {	/* Hangul syllable: L V [T] */
		uint32_t s = c - 0xAC00;

		f[(*n)++] = (struct folded){ 0x1100 + s / 588, 0 };
		f[(*n)++] = (struct folded){ 0x1161 + (s % 588) / 28, 0 };
		if (s % 28)
			f[(*n)++] = (struct folded){ 0x11A7 + s % 28, 0 };
		return;
	}
	m = find_map(c);
	if (!m) {
		f[(*n)++] = (struct folded){ c, combining_class(c) };
		return;
	}
	if (m->len == 0) {
		f[(*n)++] = (struct folded){ NO_CP, 0 };
		return;
	}
	for (unsigned int i = 0; i < m->len; i++) {
		uint32_t x = f2fs_cf_data[m->off + i];

		f[(*n)++] = (struct folded){ x, combining_class(x) };
	}
}

/* Stable sort of each run of combining marks by combining class. */
static void canonical_order(struct folded *f, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct folded x = f[i];
		size_t j = i;

		if (!x.ccc)
			continue;
		while (j > 0 && f[j - 1].ccc > x.ccc) {
			f[j] = f[j - 1];
			j--;
		}
		f[j] = x;
	}
}

int f2fs_casefold(const uint8_t *name, size_t len, uint8_t *out, size_t outcap)
{
	struct folded f[255 * MAX_EXPANSION];
	size_t n = 0, o = 0;

	if (len > 255)
		return -ENAMETOOLONG;
	for (size_t i = 0; i < len;) {
		uint32_t c;
		size_t k = decode(name + i, len - i, &c);

		if (!k)
			return -EINVAL;
		fold_one(c, f, &n);
		i += k;
	}
	canonical_order(f, n);
	for (size_t i = 0; i < n; i++) {
		if (f[i].cp == NO_CP)
			continue;
		if (outcap - o < 4)
			return -ENAMETOOLONG;
		o += encode(f[i].cp, out + o);
	}
	return (int)o;
}
