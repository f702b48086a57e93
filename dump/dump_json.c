/*
 * dump_json.c - the output layer of dump.f2fs: a small JSON writer (one
 * document per run, pretty-printed, every string escaped by lib/json.c,
 * the writer fsck.f2fs uses too) and tables whose
 * single column list renders both as aligned text and as JSON arrays of
 * objects.
 */
#include <inttypes.h>
#include <string.h>

#include "dump.h"
#include "f2fs_json.h"

static void indent(struct dump_out *o)
{
	int i;

	for (i = 0; i < o->depth; i++)
		fputs("  ", o->f);
}

static void put_escaped(FILE *f, const char *s, size_t len)
{
	/* as every other write of the output: errors are not checked per item */
	(void)f2fs_json_string(f, s, len, F2FS_JSON_ASCII | F2FS_JSON_SHORT);
}

/* Comma, newline, indentation and "key": before a new item. */
static void item_start(struct dump_out *o, const char *key)
{
	int d = o->depth < DUMP_OUT_MAX_DEPTH ? o->depth : DUMP_OUT_MAX_DEPTH - 1;

	if (o->has_items[d])
		fputc(',', o->f);
	if (o->depth > 0)
		fputc('\n', o->f);
	o->has_items[d] = true;
	indent(o);
	if (key) {
		put_escaped(o->f, key, strlen(key));
		fputs(": ", o->f);
	}
}

static void open_container(struct dump_out *o, const char *key, char c)
{
	item_start(o, key);
	fputc(c, o->f);
	o->depth++;
	if (o->depth < DUMP_OUT_MAX_DEPTH)
		o->has_items[o->depth] = false;
}

static void close_container(struct dump_out *o, char c)
{
	bool had = o->depth < DUMP_OUT_MAX_DEPTH && o->has_items[o->depth];

	o->depth--;
	if (had) {
		fputc('\n', o->f);
		indent(o);
	}
	fputc(c, o->f);
	if (o->depth == 0)
		fputc('\n', o->f);
}

void out_obj_begin(struct dump_out *o, const char *key)
{
	open_container(o, key, '{');
}

void out_obj_end(struct dump_out *o)
{
	close_container(o, '}');
}

void out_arr_begin(struct dump_out *o, const char *key)
{
	open_container(o, key, '[');
}

void out_arr_end(struct dump_out *o)
{
	close_container(o, ']');
}

void out_u64(struct dump_out *o, const char *key, uint64_t v)
{
	item_start(o, key);
	fprintf(o->f, "%" PRIu64, v);
}

void out_i64(struct dump_out *o, const char *key, int64_t v)
{
	item_start(o, key);
	fprintf(o->f, "%" PRId64, v);
}

void out_bool(struct dump_out *o, const char *key, bool v)
{
	item_start(o, key);
	fputs(v ? "true" : "false", o->f);
}

void out_null(struct dump_out *o, const char *key)
{
	item_start(o, key);
	fputs("null", o->f);
}

void out_strn(struct dump_out *o, const char *key, const char *s, size_t len)
{
	item_start(o, key);
	put_escaped(o->f, s, len);
}

void out_str(struct dump_out *o, const char *key, const char *s)
{
	if (!s) {
		out_null(o, key);
		return;
	}
	out_strn(o, key, s, strlen(s));
}

void out_hex(struct dump_out *o, const char *key, const uint8_t *b, size_t len)
{
	size_t i;

	item_start(o, key);
	fputc('"', o->f);
	for (i = 0; i < len; i++)
		fprintf(o->f, "%02x", b[i]);
	fputc('"', o->f);
}

/* ---- tables ----------------------------------------------------------- */

void table_begin(struct dump_table *t, struct dump_out *o, const char *key,
		 const struct dump_col *cols, int ncols)
{
	int i;

	t->o = o;
	t->cols = cols;
	t->ncols = ncols;
	if (o->json) {
		out_arr_begin(o, key);
		return;
	}
	for (i = 0; i < ncols; i++)
		fprintf(o->f, "%-*s%s", cols[i].width, cols[i].name,
			i + 1 < ncols ? " " : "\n");
}

static void text_cell(FILE *f, const struct dump_col *c, const struct dump_val *v)
{
	switch (c->kind) {
	case COL_U64:
		if (v->none)
			fprintf(f, "%-*s", c->width, "-");
		else
			fprintf(f, "%-*" PRIu64, c->width, v->u);
		break;
	case COL_I64:
		fprintf(f, "%-*" PRId64, c->width, (int64_t)v->u);
		break;
	case COL_HEX:
		fprintf(f, "0x%-*" PRIx64, c->width > 2 ? c->width - 2 : 0, v->u);
		break;
	case COL_STR:
		fprintf(f, "%-*s", c->width, v->s ? v->s : "-");
		break;
	}
}

static void json_cell(struct dump_out *o, const struct dump_col *c, const struct dump_val *v)
{
	switch (c->kind) {
	case COL_U64:
		if (v->none)
			out_null(o, c->name);
		else
			out_u64(o, c->name, v->u);
		break;
	case COL_HEX:
		out_u64(o, c->name, v->u);
		break;
	case COL_I64:
		out_i64(o, c->name, (int64_t)v->u);
		break;
	case COL_STR:
		out_str(o, c->name, v->s);
		break;
	}
}

void table_row(struct dump_table *t, const struct dump_val *vals)
{
	int i;

	if (t->o->json) {
		out_obj_begin(t->o, NULL);
		for (i = 0; i < t->ncols; i++)
			json_cell(t->o, &t->cols[i], &vals[i]);
		out_obj_end(t->o);
		return;
	}
	for (i = 0; i < t->ncols; i++) {
		text_cell(t->o->f, &t->cols[i], &vals[i]);
		fputc(i + 1 < t->ncols ? ' ' : '\n', t->o->f);
	}
}

void table_end(struct dump_table *t)
{
	if (t->o->json)
		out_arr_end(t->o);
}

void dump_cstr(char *buf, size_t size, const uint8_t *src, size_t srclen)
{
	size_t n = 0;

	if (!size)
		return;
	while (n < srclen && n + 1 < size && src[n])
		n++;
	memcpy(buf, src, n);
	buf[n] = '\0';
}

/* ---- key/value lines ---------------------------------------------------- */

void kv_u64(struct dump_out *o, const char *key, uint64_t v)
{
	if (o->json)
		out_u64(o, key, v);
	else
		fprintf(o->f, "%-30s [0x%8" PRIx64 " : %" PRIu64 "]\n", key, v, v);
}

void kv_str(struct dump_out *o, const char *key, const char *s)
{
	if (o->json)
		out_str(o, key, s);
	else
		fprintf(o->f, "%-30s %s\n", key, s ? s : "-");
}

void kv_bool(struct dump_out *o, const char *key, bool v)
{
	if (o->json)
		out_bool(o, key, v);
	else
		fprintf(o->f, "%-30s %s\n", key, v ? "yes" : "no");
}
