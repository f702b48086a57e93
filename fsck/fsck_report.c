/*
 * fsck_report.c - everything fsck.f2fs says: problem lines (text or
 * JSON) built from the problem table's templates, the final summary,
 * diagnostics and debug output on stderr, and -C progress.
 *
 * Owns: the per-code counters and the JSON stream state in the context,
 * and the process's output (struct fsck_output): with --json the one
 * document of the run is built in memory across the check, the repair and
 * the re-check, and printed at the end with the exit code, or replaced by
 * an error object when an operational error (fsck_fail()) ends the run.
 * Results go to stdout; diagnostics to stderr.
 *
 * fsck_problem() is the one call of a detection site, as e2fsck's
 * fix_problem() is: it reports the problem (counted, printed) and answers
 * whether its fix is planned, from the problem's table entry and the
 * run's mode.  A fix kind of FIX_NONE (information) or FIX_UNFIXABLE is
 * never planned; any other kind is planned in every mode, so that the
 * walk goes on over the same fixed state and the record is the same:
 * -n lists it, --dry-run applies it to a device that drops the writes,
 * -y applies it.  Preen (-a/-p) decides at the same place: a problem the
 * table does not mark preen-safe refuses the run's plan (ctx->preen_refused:
 * nothing is written, "UNEXPECTED INCONSISTENCY", exit 4).  The interactive
 * mode is a check whose "y" runs the check again with -y.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsck.h"

/* The run's JSON document (lib/json.c's writer), or NULL in text mode. */
static struct f2fs_json *json_doc(const struct fsck_ctx *ctx)
{
	return ctx->output && ctx->output->json ? &ctx->output->doc : NULL;
}

static void json_key_u64(struct f2fs_json *j, const char *key, uint64_t v)
{
	f2fs_json_key(j, key);
	f2fs_json_u64(j, v);
}

static void json_key_i64(struct f2fs_json *j, const char *key, int64_t v)
{
	f2fs_json_key(j, key);
	f2fs_json_i64(j, v);
}

static void json_key_str(struct f2fs_json *j, const char *key, const char *s)
{
	f2fs_json_key(j, key);
	f2fs_json_str(j, s);
}

void fsck_report_init(struct fsck_ctx *ctx)
{
	FILE *json = ctx->output ? ctx->output->json : NULL;
	struct f2fs_json *j = json_doc(ctx);

	ctx->out = json ? json : stdout;
	ctx->code_count = calloc(fsck_n_problems, sizeof(*ctx->code_count));
	if (j && ctx->opt.recheck) {
		f2fs_json_key(j, "recheck");
		f2fs_json_begin_object(j);
	}
	if (j && (ctx->opt.recheck || !ctx->opt.no_relist)) {
		f2fs_json_key(j, "problems");
		f2fs_json_begin_array(j);
	}
}

void fsck_report_free(struct fsck_ctx *ctx)
{
	free(ctx->code_count);
	ctx->code_count = NULL;
}

/* ---- message building ---- */

struct strbuf {
	char *p;
	size_t len, cap;
};

static void sb_putn(struct strbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap)
		n = b->cap > b->len + 1 ? b->cap - b->len - 1 : 0;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = 0;
}

static void sb_printf(struct strbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void sb_printf(struct strbuf *b, const char *fmt, ...)
{
	char tmp[64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		sb_putn(b, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

static void put_num(struct strbuf *b, uint64_t v, bool hex)
{
	if (v == FSCK_NONE)
		sb_putn(b, "?", 1);
	else if (hex)
		sb_printf(b, "0x%" PRIx64, v);
	else
		sb_printf(b, "%" PRIu64, v);
}

/* Expand one {token}; returns false for an unknown token. */
static bool expand_token(struct strbuf *b, const char *tok, size_t n,
			 const struct fsck_obj *o)
{
	static const struct {
		const char *name;
		size_t off;
		bool hex;
	} nums[] = {
		{ "nid", offsetof(struct fsck_obj, nid), false },
		{ "ino", offsetof(struct fsck_obj, ino), false },
		{ "segno", offsetof(struct fsck_obj, segno), false },
		{ "secno", offsetof(struct fsck_obj, secno), false },
		{ "blkaddr", offsetof(struct fsck_obj, blkaddr), false },
		{ "sb", offsetof(struct fsck_obj, sb), false },
		{ "cp", offsetof(struct fsck_obj, cp), false },
		{ "found", offsetof(struct fsck_obj, found), false },
		{ "expected", offsetof(struct fsck_obj, expected), false },
		{ "xfound", offsetof(struct fsck_obj, found), true },
		{ "xexpected", offsetof(struct fsck_obj, expected), true },
		{ "idx", offsetof(struct fsck_obj, idx), false },
	};

	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		if (strlen(nums[i].name) == n && !memcmp(nums[i].name, tok, n)) {
			uint64_t v;

			memcpy(&v, (const char *)o + nums[i].off, sizeof(v));
			put_num(b, v, nums[i].hex);
			return true;
		}
	}
	if (n == 4 && !memcmp(tok, "path", 4)) {
		const char *s = o->path ? o->path : "?";

		sb_putn(b, s, strlen(s));
		return true;
	}
	if (n == 3 && !memcmp(tok, "str", 3)) {
		const char *s = o->str ? o->str : "";

		sb_putn(b, s, strlen(s));
		return true;
	}
	return false;
}

static void build_message(struct strbuf *b, const char *tmpl, const struct fsck_obj *o)
{
	const char *p = tmpl;

	while (*p) {
		const char *open = strchr(p, '{');
		const char *close = open ? strchr(open, '}') : NULL;

		if (!open || !close) {
			sb_putn(b, p, strlen(p));
			return;
		}
		sb_putn(b, p, (size_t)(open - p));
		if (!expand_token(b, open + 1, (size_t)(close - open - 1), o))
			sb_putn(b, open, (size_t)(close - open + 1));
		p = close + 1;
	}
}

/* ---- output ---- */

static const struct {
	const char *name;
	size_t off;
} obj_fields[] = {
	{ "nid", offsetof(struct fsck_obj, nid) },
	{ "ino", offsetof(struct fsck_obj, ino) },
	{ "segno", offsetof(struct fsck_obj, segno) },
	{ "secno", offsetof(struct fsck_obj, secno) },
	{ "blkaddr", offsetof(struct fsck_obj, blkaddr) },
	{ "sb", offsetof(struct fsck_obj, sb) },
	{ "cp", offsetof(struct fsck_obj, cp) },
};

static uint64_t obj_field(const struct fsck_obj *o, size_t i)
{
	uint64_t v;

	memcpy(&v, (const char *)o + obj_fields[i].off, sizeof(v));
	return v;
}

static void print_text(struct fsck_ctx *ctx, const struct fsck_problem_def *d,
		       const char *msg, const struct fsck_obj *o)
{
	bool any = false;

	fprintf(ctx->out, "F2FS-%04d %s: %s", (int)d->code, fsck_severity_name(d->severity), msg);
	for (size_t i = 0; i < sizeof(obj_fields) / sizeof(obj_fields[0]); i++) {
		uint64_t v = obj_field(o, i);

		if (v == FSCK_NONE)
			continue;
		fprintf(ctx->out, "%s%s=%" PRIu64, any ? " " : " [", obj_fields[i].name, v);
		any = true;
	}
	if (o->path)
		fprintf(ctx->out, "%spath=%s", any ? " " : " [", o->path);
	if (any || o->path)
		fputc(']', ctx->out);
	fputc('\n', ctx->out);
}

/* The writer's errors are sticky and reported once, at the end of the
 * run (fsck_output_finish), as the memory stream's are. */
static void print_json(struct fsck_ctx *ctx, const struct fsck_problem_def *d,
		       const char *msg, const struct fsck_obj *o)
{
	struct f2fs_json *j = json_doc(ctx);

	if (!j)
		return;
	f2fs_json_begin_object(j);
	json_key_i64(j, "code", (int)d->code);
	json_key_str(j, "name", d->name);
	json_key_str(j, "severity", fsck_severity_name(d->severity));
	json_key_str(j, "message", msg);
	for (size_t i = 0; i < sizeof(obj_fields) / sizeof(obj_fields[0]); i++) {
		uint64_t v = obj_field(o, i);

		if (v != FSCK_NONE)
			json_key_u64(j, obj_fields[i].name, v);
	}
	if (o->path)
		json_key_str(j, "path", o->path);
	json_key_str(j, "fix", fsck_fix_name(d->fix));
	f2fs_json_end_object(j);
}

/* Count a problem and print its line (unless muted or over -m). */
static void report_problem(struct fsck_ctx *ctx, enum fsck_problem code,
			   const struct fsck_obj *obj)
{
	int idx = fsck_problem_index(code);
	const struct fsck_problem_def *d;
	char buf[1024];
	struct strbuf b = { buf, 0, sizeof(buf) };

	if (ctx->muted)
		return;
	if (idx < 0) {
		fsck_diag(ctx, "internal error: unknown problem code %d", (int)code);
		return;
	}
	d = &fsck_problems[idx];
	if (ctx->code_count)
		ctx->code_count[idx]++;
	if (d->severity == FSCK_SEV_ERROR)
		ctx->n_errors++;
	else if (d->severity == FSCK_SEV_WARN)
		ctx->n_warnings++;
	else
		ctx->n_infos++;
	if (ctx->opt.no_relist)
		return;
	if (ctx->opt.max_lines && ctx->code_count &&
	    ctx->code_count[idx] > ctx->opt.max_lines)
		return;
	buf[0] = 0;
	build_message(&b, d->msg, obj);
	if (ctx->opt.json)
		print_json(ctx, d, buf, obj);
	else
		print_text(ctx, d, buf, obj);
}

/* Preen (-a/-p, not a dry run) fixes only what the table marks safe to
 * fix unattended; information is not a problem and refuses nothing. */
static bool preen_refuses(const struct fsck_ctx *ctx, const struct fsck_problem_def *d)
{
	return ctx->opt.mode == FSCK_MODE_PREEN && !ctx->opt.dry_run &&
	       d->severity != FSCK_SEV_INFO && !d->preen_ok;
}

/* Whether the run plans the fix of a problem of entry d.  Every mode
 * plans the same fixes, so that the walk goes on over the same fixed state
 * and every mode lists the same problems: -n reports the plan, --dry-run
 * prints what it would write, -y writes it.  Preen decides here too: a
 * problem it may not fix unattended refuses the whole plan (nothing is
 * written; the run ends with UNEXPECTED INCONSISTENCY, exit 4). */
static bool fix_planned(struct fsck_ctx *ctx, const struct fsck_problem_def *d)
{
	if (preen_refuses(ctx, d) && !ctx->muted)
		ctx->preen_refused = true;
	return d->fix != FIX_NONE && d->fix != FIX_UNFIXABLE;
}

bool fsck_problem(struct fsck_ctx *ctx, enum fsck_problem code, const struct fsck_obj *obj)
{
	const struct fsck_problem_def *d = fsck_problem_find(code);

	report_problem(ctx, code, obj);
	return d && fix_planned(ctx, d);
}

void fsck_diag(const struct fsck_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	(void)ctx;
	fputs("fsck.f2fs: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void fsck_debug(const struct fsck_ctx *ctx, int level, const char *fmt, ...)
{
	va_list ap;

	if (ctx->opt.debug < level)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void fsck_progress(struct fsck_ctx *ctx, int pass, uint64_t cur, uint64_t max)
{
	static const char *const names[] = { "", "superblock and checkpoint", "SIT", "NAT",
		"inodes and directories", "roll-forward chain", "summaries", "derived state" };
	char line[128];
	int n;

	if (ctx->opt.progress_fd < 0 && !ctx->opt.progress_bar)
		return;
	if (ctx->opt.progress_fd >= 0) {
		n = snprintf(line, sizeof(line), "%d %" PRIu64 " %" PRIu64 " %s\n",
			     pass, cur, max, ctx->opt.device);
		if (n > 0 && write(ctx->opt.progress_fd, line, (size_t)n) < 0)
			ctx->opt.progress_fd = -1;
		return;
	}
	fprintf(stderr, "\rPass %d (%s): %3u%%", pass,
		pass >= 0 && pass < (int)(sizeof(names) / sizeof(names[0])) ? names[pass] : "",
		max ? (unsigned)(cur * 100 / max) : 100u);
	if (cur >= max)
		fputc('\n', stderr);
	fflush(stderr);
}

static const char *mode_name(const struct fsck_opts *o)
{
	if (o->dry_run)
		return "dry-run";
	switch (o->mode) {
	case FSCK_MODE_PREEN: return "preen";
	case FSCK_MODE_YES: return "yes";
	case FSCK_MODE_CHECK: break;
	}
	return "check";
}

static void json_counts(struct f2fs_json *j, const struct fsck_ctx *ctx)
{
	const struct fsck_stats *s = &ctx->st;

	json_key_u64(j, "errors", ctx->n_errors);
	json_key_u64(j, "warnings", ctx->n_warnings);
	json_key_u64(j, "infos", ctx->n_infos);
	json_key_u64(j, "problems", ctx->n_errors + ctx->n_warnings);
	if (ctx->mount_check_only)
		return;
	json_key_u64(j, "inodes", s->inodes);
	json_key_u64(j, "nodes", s->nodes);
	json_key_u64(j, "valid_blocks", s->data_blocks + s->nodes);
	json_key_u64(j, "data_blocks", s->data_blocks);
	json_key_u64(j, "directories", s->dirs);
	json_key_u64(j, "files", s->files);
	json_key_u64(j, "symlinks", s->symlinks);
	json_key_u64(j, "orphans", s->orphans);
	json_key_u64(j, "sections_free", s->free_secs);
	json_key_u64(j, "sections_dirty", s->dirty_secs);
	json_key_u64(j, "sections_full", s->full_secs);
	json_key_u64(j, "roll_forward_nodes", s->chain_nodes);
	json_key_u64(j, "unverified_hashes", s->unverified_hashes);
}

/* Closes the problems array fsck_report_init opened (and the recheck
 * object around it). */
static void print_summary_json(struct fsck_ctx *ctx)
{
	struct f2fs_json *j = json_doc(ctx);

	f2fs_json_end_array(j);
	f2fs_json_key(j, "summary");
	f2fs_json_begin_object(j);
	json_counts(j, ctx);
	f2fs_json_end_object(j);
	f2fs_json_key(j, "full_check");
	f2fs_json_bool(j, !ctx->mount_check_only);
	if (ctx->opt.recheck)
		f2fs_json_end_object(j);
	else
		json_key_str(j, "mode", mode_name(&ctx->opt));
}

/* The preen fast path: what was checked, and how to check everything. */
static void print_mount_check_only(struct fsck_ctx *ctx)
{
	fprintf(ctx->out, "%s: clean: the kernel has not asked for a check, and the superblocks, "
		"the checkpoint and the logs are sound (-f checks everything)\n", ctx->opt.device);
	fflush(ctx->out);
}

void fsck_print_summary(struct fsck_ctx *ctx)
{
	const struct fsck_stats *s = &ctx->st;
	uint64_t problems = ctx->n_errors + ctx->n_warnings;
	uint64_t valid = s->data_blocks + s->nodes;

	if (json_doc(ctx)) {
		/* a second run (preen with write access) adds its repair to
		 * the document the first run's problems and summary began */
		if (!ctx->opt.no_relist)
			print_summary_json(ctx);
		return;
	}
	if (ctx->opt.no_relist)
		return;
	if (ctx->mount_check_only) {
		print_mount_check_only(ctx);
		return;
	}
	fprintf(ctx->out, "%s: %" PRIu64 " inodes (%" PRIu64 " directories, %" PRIu64
		" files), %" PRIu64 " nodes, %" PRIu64 " valid blocks; sections: %"
		PRIu64 " free, %" PRIu64 " dirty, %" PRIu64 " full; %" PRIu64
		" problems (%" PRIu64 " errors, %" PRIu64 " warnings)\n",
		ctx->opt.device, s->inodes, s->dirs, s->files, s->nodes, valid,
		s->free_secs, s->dirty_secs, s->full_secs, problems, ctx->n_errors,
		ctx->n_warnings);
	if (s->unverified_hashes)
		fprintf(ctx->out, "%s: %" PRIu64 " names in casefolded directories not verified "
			"(not well-formed UTF-8, or encrypted)\n", ctx->opt.device,
			s->unverified_hashes);
	fflush(ctx->out);
}

/* The problems a repair fixes: reported, and with a fix in the table. */
static void json_fixes(struct f2fs_json *j, const struct fsck_ctx *ctx)
{
	f2fs_json_key(j, "fixes");
	f2fs_json_begin_array(j);
	for (size_t i = 0; ctx->code_count && i < fsck_n_problems; i++) {
		const struct fsck_problem_def *d = &fsck_problems[i];

		if (!ctx->code_count[i] || d->fix == FIX_NONE || d->fix == FIX_UNFIXABLE)
			continue;
		f2fs_json_begin_object(j);
		json_key_i64(j, "code", (int)d->code);
		json_key_str(j, "name", d->name);
		json_key_u64(j, "count", ctx->code_count[i]);
		json_key_str(j, "fix", fsck_fix_name(d->fix));
		f2fs_json_end_object(j);
	}
	f2fs_json_end_array(j);
}

void fsck_print_repair(struct fsck_ctx *ctx, const char *outcome, uint64_t written)
{
	struct f2fs_json *j = json_doc(ctx);

	if (!j) {
		if (!strcmp(outcome, "written")) {
			fprintf(ctx->out, "%s: repaired; checking again\n", ctx->opt.device);
			fflush(ctx->out);
		}
		return;
	}
	f2fs_json_key(j, "repair");
	f2fs_json_begin_object(j);
	json_key_str(j, "outcome", outcome);
	json_key_u64(j, "blocks_written", written);
	json_fixes(j, ctx);
	f2fs_json_end_object(j);
}

void fsck_fail(struct fsck_ctx *ctx, const char *code, const char *fmt, ...)
{
	struct fsck_output *out = ctx->output;
	char msg[sizeof(out->error_msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "fsck.f2fs: %s\n", msg);
	ctx->exit_override = FSCK_EXIT_ERROR;
	if (out && !out->error_code) {
		out->error_code = code;
		memcpy(out->error_msg, msg, sizeof(msg));
	}
}

int fsck_output_open(struct fsck_output *out, const char *device, bool json)
{
	memset(out, 0, sizeof(*out));
	if (!json)
		return 0;
	out->json = open_memstream(&out->json_buf, &out->json_len);
	if (!out->json)
		return -ENOMEM;
	f2fs_json_init_file(&out->doc, out->json, 0);
	f2fs_json_begin_object(&out->doc);
	json_key_str(&out->doc, "device", device);
	return 0;
}

/* The document of a run that ends in an error object: the device (NULL:
 * none, the command line was refused), the error's stable code and
 * message, and the exit code. */
static void print_error_object(const char *device, const char *code, const char *msg,
			       int exit_code)
{
	struct f2fs_json j;

	f2fs_json_init_file(&j, stdout, 0);
	f2fs_json_begin_object(&j);
	if (device)
		json_key_str(&j, "device", device);
	f2fs_json_key(&j, "error");
	f2fs_json_begin_object(&j);
	json_key_str(&j, "code", code);
	json_key_str(&j, "message", msg);
	f2fs_json_end_object(&j);
	json_key_i64(&j, "exit_code", exit_code);
	f2fs_json_end_object(&j);
	fputc('\n', stdout);
}

void fsck_print_usage_error_json(int exit_code)
{
	print_error_object(NULL, "usage", "invalid command line (see stderr)", exit_code);
}

/* An operational error: the document is this object alone. */
static void print_error_document(const struct fsck_output *out, const char *device,
				 int exit_code)
{
	print_error_object(device, out->error_code ? out->error_code : "operational_error",
			   out->error_code ? out->error_msg : "see the diagnostics on stderr",
			   exit_code);
}

/* The document is complete here; a writer error (a stream that failed,
 * or a document that was not closed as it was opened) gives the error
 * object instead of a document that would not parse. */
void fsck_output_finish(struct fsck_output *out, const char *device, int exit_code)
{
	int closed;

	if (!out->json)
		return;
	json_key_i64(&out->doc, "exit_code", exit_code);
	f2fs_json_end_object(&out->doc);
	closed = fclose(out->json);
	if (closed || f2fs_json_error(&out->doc) || exit_code == FSCK_EXIT_ERROR) {
		print_error_document(out, device, exit_code);
	} else {
		fwrite(out->json_buf, 1, out->json_len, stdout);
		fputc('\n', stdout);
	}
	fflush(stdout);
	free(out->json_buf);
	out->json = NULL;
	out->json_buf = NULL;
}
