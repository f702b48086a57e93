/*
 * inject_field.c - the member-table engine of inject.f2fs: finding a
 * member by name, resolving --idx to a byte offset, checking that --val
 * fits, patching little-endian integers and strings, and formatting the
 * old and new values for the report.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "inject.h"

const struct inj_field *inj_field_find(const struct inj_field *tab, const char *name)
{
	for (; tab->name; tab++)
		if (!strcmp(tab->name, name))
			return tab;
	return NULL;
}

void inj_member_line(const char *name, const char *what)
{
	printf("  %s: %s\n", name, what);
}

void inj_field_list(const struct inj_field *tab, const char *what)
{
	for (; tab->name; tab++) {
		if (tab->count > 1)
			printf("  %s: inject %s %s[--idx], %u entries\n", tab->name, what,
			       tab->name, tab->count);
		else
			printf("  %s: inject %s %s\n", tab->name, what, tab->name);
	}
}

uint64_t inj_get_uint(const uint8_t *p, unsigned int size)
{
	switch (size) {
	case 1: return p[0];
	case 2: return get_le16(p);
	case 4: return get_le32(p);
	default: return get_le64(p);
	}
}

void inj_put_uint(uint8_t *p, unsigned int size, uint64_t v)
{
	switch (size) {
	case 1: p[0] = (uint8_t)v; break;
	case 2: put_le16(p, (uint16_t)v); break;
	case 4: put_le32(p, (uint32_t)v); break;
	default: put_le64(p, v); break;
	}
}

bool inj_val_fits(const struct inject_opts *o, unsigned int bits)
{
	if (bits >= 64)
		return true;
	if (o->val_negative) {
		int64_t s = (int64_t)o->val;

		return s >= -((int64_t)1 << (bits - 1));
	}
	return o->val < ((uint64_t)1 << bits);
}

void inj_fmt_uint(char *buf, size_t size, uint64_t v, bool hex)
{
	if (hex)
		snprintf(buf, size, "0x%" PRIx64, v);
	else
		snprintf(buf, size, "%" PRIu64, v);
}

static void fmt_bytes(char *buf, size_t size, const uint8_t *p, size_t len)
{
	size_t i, o = 0;

	while (len && !p[len - 1])
		len--;
	if (o + 1 < size)
		buf[o++] = '"';
	for (i = 0; i < len && o + 5 < size; i++) {
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '"' && p[i] != '\\')
			buf[o++] = (char)p[i];
		else
			o += (size_t)snprintf(buf + o, size - o, "\\x%02x", p[i]);
	}
	if (o + 1 < size)
		buf[o++] = '"';
	buf[o < size ? o : size - 1] = '\0';
}

int inj_field_offset(struct inj_ctx *c, const struct inj_field *f, uint32_t *off)
{
	const struct inject_opts *o = c->o;
	uint32_t stride = f->stride ? f->stride : f->size;

	if (f->count == 1) {
		*off = f->offset;
		return 0;
	}
	if (!o->has_idx)
		return inj_err("member %s is an array: give --idx 0..%u", f->name,
			       f->count - 1u);
	if (o->idx >= f->count)
		return inj_err("--idx %u is out of range for %s (0..%u)", o->idx,
			       f->name, f->count - 1u);
	*off = f->offset + o->idx * stride;
	return 0;
}

void inj_field_range(struct inj_ctx *c, const struct inj_field *f, uint32_t *start,
		     uint32_t *end)
{
	uint32_t off = f->offset;

	if (f->count > 1 && c->o->has_idx && c->o->idx < f->count)
		off += c->o->idx * (f->stride ? f->stride : f->size);
	*start = off;
	*end = off + f->size;
	/* --idx on a scalar string patches one byte of it. */
	if ((f->flags & INJ_F_STR) && f->count == 1 && !c->o->str && c->o->has_idx) {
		*start = off + c->o->idx;
		*end = *start + 1;
	}
}

static void member_name(struct inj_ctx *c, const struct inj_field *f, bool indexed)
{
	if (indexed)
		snprintf(c->ch.member, sizeof(c->ch.member), "%s[%u]", f->name, c->o->idx);
	else
		snprintf(c->ch.member, sizeof(c->ch.member), "%s", f->name);
}

int inj_set_uint(struct inj_ctx *c, uint8_t *p, unsigned int size, bool hex,
		 const char *member)
{
	const struct inject_opts *o = c->o;
	uint64_t old = inj_get_uint(p, size), nv;

	if (!o->has_val)
		return inj_err("member %s needs --val", member);
	if (!inj_val_fits(o, size * 8))
		return inj_err("--val does not fit in the %u byte(s) of %s", size, member);
	nv = size >= 8 ? o->val : o->val & (((uint64_t)1 << (size * 8)) - 1);
	inj_put_uint(p, size, nv);
	snprintf(c->ch.member, sizeof(c->ch.member), "%s", member);
	inj_fmt_uint(c->ch.old_val, sizeof(c->ch.old_val), old, hex);
	inj_fmt_uint(c->ch.new_val, sizeof(c->ch.new_val), nv, hex);
	return 0;
}

static int set_string(struct inj_ctx *c, const struct inj_field *f, uint8_t *p)
{
	size_t n = strlen(c->o->str);

	if (n > f->size)
		return inj_err("--str is %zu bytes long; %s holds %u", n, f->name, f->size);
	fmt_bytes(c->ch.old_val, sizeof(c->ch.old_val), p, f->size);
	memset(p, 0, f->size);
	memcpy(p, c->o->str, n);
	fmt_bytes(c->ch.new_val, sizeof(c->ch.new_val), p, f->size);
	return 0;
}

int inj_field_apply(struct inj_ctx *c, const struct inj_field *f, uint8_t *base,
		    size_t len)
{
	const struct inject_opts *o = c->o;
	uint32_t off;

	if (f->flags & INJ_F_STR) {
		if (f->count > 1 && inj_field_offset(c, f, &off))
			return -1;
		if (f->count == 1)
			off = f->offset;
		if (off + f->size > len)
			return inj_err("member %s lies outside the block", f->name);
		if (o->str) {
			member_name(c, f, f->count > 1);
			return set_string(c, f, base + off);
		}
		if (f->count > 1)
			return inj_err("member %s needs --str", f->name);
		/* --idx N --val B: one byte of the string. */
		if (!o->has_idx)
			return inj_err("member %s needs --str (or --idx BYTE --val V)", f->name);
		if (o->idx >= f->size)
			return inj_err("--idx %u is past the %u bytes of %s", o->idx,
				       f->size, f->name);
		if (inj_set_uint(c, base + off + o->idx, 1, true, f->name))
			return -1;
		member_name(c, f, true);
		return 0;
	}
	if (o->str)
		return inj_err("member %s is a number: use --val", f->name);
	if (inj_field_offset(c, f, &off))
		return -1;
	if (off + f->size > len)
		return inj_err("member %s lies outside the block", f->name);
	if (inj_set_uint(c, base + off, f->size, f->flags & INJ_F_HEX, f->name))
		return -1;
	member_name(c, f, f->count > 1);
	return 0;
}

int inj_set_raw(struct inj_ctx *c, uint8_t *base, size_t len, uint32_t *off)
{
	const struct inject_opts *o = c->o;

	if (!o->has_idx)
		return inj_err("member raw needs --idx BYTE_OFFSET");
	if (o->idx >= len)
		return inj_err("--idx %u is past the %zu bytes of the structure", o->idx, len);
	if (inj_set_uint(c, base + o->idx, 1, true, "raw"))
		return -1;
	snprintf(c->ch.member, sizeof(c->ch.member), "raw[%u]", o->idx);
	*off = o->idx;
	return 0;
}
