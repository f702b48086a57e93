/*
 * dump_json.c - the output layer of dump.f2fs: one JSON document per run
 * through lib/json.c (the writer fsck.f2fs uses too; here pretty-printed,
 * with every byte outside printable ASCII escaped), and tables whose
 * single column list renders both as aligned text and as JSON arrays of
 * objects.
 *
 * The out_* calls ignore the writer's errors item by item, as every
 * other write of the output does: a write error shows at the final flush,
 * and a misuse stops the document short, which tests/dump notices.
 */
#include <inttypes.h>
#include <string.h>

#include "dump.h"

/* The writer, set up at the first item (the stream is known by then). */
static struct f2fs_json *writer(struct dump_out *o)
{
	if (!o->started) {
		f2fs_json_init_file(&o->j, o->f,
				    F2FS_JSON_PRETTY | F2FS_JSON_ASCII | F2FS_JSON_SHORT);
		o->started = true;
	}
	return &o->j;
}

/* The writer, after the member name key when there is one (NULL: an
 * array element or the top object). */
static struct f2fs_json *item(struct dump_out *o, const char *key)
{
	struct f2fs_json *j = writer(o);

	if (key)
		(void)f2fs_json_key(j, key);
	return j;
}

void out_obj_begin(struct dump_out *o, const char *key)
{
	(void)f2fs_json_begin_object(item(o, key));
}

void out_obj_end(struct dump_out *o)
{
	(void)f2fs_json_end_object(writer(o));
}

void out_arr_begin(struct dump_out *o, const char *key)
{
	(void)f2fs_json_begin_array(item(o, key));
}

void out_arr_end(struct dump_out *o)
{
	(void)f2fs_json_end_array(writer(o));
}

void out_u64(struct dump_out *o, const char *key, uint64_t v)
{
	(void)f2fs_json_u64(item(o, key), v);
}

void out_i64(struct dump_out *o, const char *key, int64_t v)
{
	(void)f2fs_json_i64(item(o, key), v);
}

void out_bool(struct dump_out *o, const char *key, bool v)
{
	(void)f2fs_json_bool(item(o, key), v);
}

void out_null(struct dump_out *o, const char *key)
{
	(void)f2fs_json_null(item(o, key));
}

void out_strn(struct dump_out *o, const char *key, const char *s, size_t len)
{
	(void)f2fs_json_strn(item(o, key), s, len);
}

void out_str(struct dump_out *o, const char *key, const char *s)
{
	(void)f2fs_json_str(item(o, key), s);
}

void out_hex(struct dump_out *o, const char *key, const uint8_t *b, size_t len)
{
	(void)f2fs_json_hex(item(o, key), b, len);
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
