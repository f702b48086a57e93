/*
 * json.c - the JSON writer shared by fsck.f2fs and dump.f2fs (see
 * include/f2fs_json.h): the escaping rule, the commas and the nesting
 * live here once, so the two tools cannot disagree about them (they once
 * carried their own copies, which disagreed about DEL).
 *
 * Why in lib/, which never prints: this writes nowhere of its own
 * choosing.  The caller owns the stream (fsck: an in-memory stream it
 * copies to stdout at the end; dump: stdout or --output) or asks for a
 * buffer, and gets an error code back instead of a message, like the
 * rest of lib/; and lib/ is what tests/unit links, so the rules have a
 * unit test.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "f2fs_array.h"
#include "f2fs_json.h"

/* ---- the sink: a stream or the writer's own buffer ---- */

static int fail(struct f2fs_json *j, int err)
{
	if (!j->err)
		j->err = err;
	return j->err;
}

static void append(struct f2fs_json *j, const char *s, size_t n)
{
	if (j->err || !n)
		return;
	if (j->f) {
		if (fwrite(s, 1, n, j->f) != n)
			fail(j, -EIO);
		return;
	}
	if (n > SIZE_MAX - j->len - 1) {
		fail(j, -ENOMEM);
		return;
	}
	if (F2FS_ARRAY_ROOM(j->buf, j->cap, j->len + n + 1, 256)) {
		fail(j, -ENOMEM);
		return;
	}
	memcpy(j->buf + j->len, s, n);
	j->len += n;
	j->buf[j->len] = '\0';
}

static void append_str(struct f2fs_json *j, const char *s)
{
	append(j, s, strlen(s));
}

void f2fs_json_init_file(struct f2fs_json *j, FILE *f, unsigned int flags)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->flags = flags;
	if (!f)
		j->err = -EINVAL;
}

void f2fs_json_init_buffer(struct f2fs_json *j, unsigned int flags)
{
	memset(j, 0, sizeof(*j));
	j->flags = flags;
}

const char *f2fs_json_buffer(const struct f2fs_json *j, size_t *len)
{
	if (j->f)
		return NULL;
	if (len)
		*len = j->len;
	return j->buf ? j->buf : "";
}

void f2fs_json_free(struct f2fs_json *j)
{
	if (!j->f)
		free(j->buf);
	j->buf = NULL;
	j->len = j->cap = 0;
}

int f2fs_json_error(const struct f2fs_json *j)
{
	return j->err;
}

/* ---- strings ---- */

/* The escape of byte c, in out (NUL-terminated); "" when c goes as it is. */
static void escape_of(unsigned char c, unsigned int flags, char out[7])
{
	static const char hex[] = "0123456789abcdef";

	out[0] = '\0';
	if (c == '"' || c == '\\') {
		out[0] = '\\';
		out[1] = (char)c;
		out[2] = '\0';
	} else if ((flags & F2FS_JSON_SHORT) && (c == '\n' || c == '\t')) {
		out[0] = '\\';
		out[1] = c == '\n' ? 'n' : 't';
		out[2] = '\0';
	} else if (c < 0x20 || c == 0x7f || (c >= 0x80 && (flags & F2FS_JSON_ASCII))) {
		memcpy(out, "\\u00", 4);
		out[4] = hex[c >> 4];
		out[5] = hex[c & 15];
		out[6] = '\0';
	}
}

/* The quoted, escaped string: runs of plain bytes go out in one write. */
static void put_string(struct f2fs_json *j, const char *s, size_t len)
{
	size_t run = 0;
	char esc[7];

	append(j, "\"", 1);
	for (size_t i = 0; i < len; i++) {
		escape_of((unsigned char)s[i], j->flags, esc);
		if (!esc[0])
			continue;
		append(j, s + run, i - run);
		append_str(j, esc);
		run = i + 1;
	}
	append(j, s + run, len - run);
	append(j, "\"", 1);
}

int f2fs_json_string(FILE *f, const char *s, size_t len, unsigned int flags)
{
	struct f2fs_json j;

	f2fs_json_init_file(&j, f, flags);
	put_string(&j, s, len);
	return j.err || !f || ferror(f) ? -EIO : 0;
}

/* ---- structure ---- */

static void newline_and_indent(struct f2fs_json *j)
{
	append(j, "\n", 1);
	for (int i = 0; i < j->depth; i++)
		append(j, "  ", 2);
}

/* The separator before an item of the innermost container: a comma
 * after an earlier item, and in pretty mode a new indented line. */
static void separate_item(struct f2fs_json *j)
{
	if (j->has_items[j->depth])
		append(j, ",", 1);
	if (j->flags & F2FS_JSON_PRETTY)
		newline_and_indent(j);
	j->has_items[j->depth] = true;
}

/* Whether a value may come now (after a key, in an array, or as the
 * document), with its separator written. */
static int begin_value(struct f2fs_json *j)
{
	if (j->err)
		return j->err;
	if (j->depth == 0)
		return j->done ? fail(j, -EINVAL) : 0;
	if (j->is_object[j->depth]) {
		if (!j->after_key)
			return fail(j, -EINVAL);
		j->after_key = false;
		return 0;
	}
	separate_item(j);
	return j->err;
}

/* A scalar value's text, already formatted. */
static int put_scalar(struct f2fs_json *j, const char *text)
{
	if (begin_value(j))
		return j->err;
	append_str(j, text);
	if (j->depth == 0)
		j->done = true;
	return j->err;
}

int f2fs_json_key(struct f2fs_json *j, const char *key)
{
	if (j->err)
		return j->err;
	if (j->depth == 0 || !j->is_object[j->depth] || j->after_key || !key)
		return fail(j, -EINVAL);
	separate_item(j);
	put_string(j, key, strlen(key));
	append_str(j, j->flags & F2FS_JSON_PRETTY ? ": " : ":");
	j->after_key = true;
	return j->err;
}

static int open_container(struct f2fs_json *j, bool object)
{
	if (begin_value(j))
		return j->err;
	if (j->depth >= F2FS_JSON_MAX_DEPTH)
		return fail(j, -EOVERFLOW);
	append(j, object ? "{" : "[", 1);
	j->depth++;
	j->is_object[j->depth] = object;
	j->has_items[j->depth] = false;
	return j->err;
}

static int close_container(struct f2fs_json *j, bool object)
{
	bool had;

	if (j->err)
		return j->err;
	if (j->depth == 0 || j->is_object[j->depth] != object || j->after_key)
		return fail(j, -EINVAL);
	had = j->has_items[j->depth];
	j->depth--;
	if (had && (j->flags & F2FS_JSON_PRETTY))
		newline_and_indent(j);
	append(j, object ? "}" : "]", 1);
	if (j->depth == 0) {
		j->done = true;
		if (j->flags & F2FS_JSON_PRETTY)
			append(j, "\n", 1);
	}
	return j->err;
}

int f2fs_json_begin_object(struct f2fs_json *j)
{
	return open_container(j, true);
}

int f2fs_json_end_object(struct f2fs_json *j)
{
	return close_container(j, true);
}

int f2fs_json_begin_array(struct f2fs_json *j)
{
	return open_container(j, false);
}

int f2fs_json_end_array(struct f2fs_json *j)
{
	return close_container(j, false);
}

/* ---- values ---- */

int f2fs_json_strn(struct f2fs_json *j, const char *s, size_t len)
{
	if (!s && len)
		return fail(j, -EINVAL);
	if (begin_value(j))
		return j->err;
	put_string(j, s ? s : "", len);
	if (j->depth == 0)
		j->done = true;
	return j->err;
}

int f2fs_json_str(struct f2fs_json *j, const char *s)
{
	return s ? f2fs_json_strn(j, s, strlen(s)) : f2fs_json_null(j);
}

int f2fs_json_u64(struct f2fs_json *j, uint64_t v)
{
	char text[24];

	snprintf(text, sizeof(text), "%" PRIu64, v);
	return put_scalar(j, text);
}

int f2fs_json_i64(struct f2fs_json *j, int64_t v)
{
	char text[24];

	snprintf(text, sizeof(text), "%" PRId64, v);
	return put_scalar(j, text);
}

int f2fs_json_bool(struct f2fs_json *j, bool v)
{
	return put_scalar(j, v ? "true" : "false");
}

int f2fs_json_null(struct f2fs_json *j)
{
	return put_scalar(j, "null");
}

int f2fs_json_hex(struct f2fs_json *j, const uint8_t *b, size_t len)
{
	static const char hex[] = "0123456789abcdef";

	if (!b && len)
		return fail(j, -EINVAL);
	if (begin_value(j))
		return j->err;
	append(j, "\"", 1);
	for (size_t i = 0; i < len; i++) {
		char pair[2] = { hex[b[i] >> 4], hex[b[i] & 15] };

		append(j, pair, 2);
	}
	append(j, "\"", 1);
	if (j->depth == 0)
		j->done = true;
	return j->err;
}
