/*
 * dump_super.c - every superblock and checkpoint field, named as in the
 * kernel.  One table per structure (name, offset, element size, count,
 * kind) drives both the text lines ("name [0x hex : dec]", the format of
 * f2fs-tools' dump.f2fs -d 1) and the JSON members, so they cannot
 * disagree.  Printing reads nothing beyond what f2fs_fs_open() loaded: the
 * two superblock copies, the checkpoint packs and their payload.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "dump.h"
#include "f2fs_crc.h"
#include "f2fs_features.h"
#include "f2fs_layout.h"

#define SB_F(field, kind) { #field, offsetof(struct f2fs_super_block, field), \
	sizeof(((struct f2fs_super_block *)0)->field), 1, kind }
#define SB_A(field, n) { #field, offsetof(struct f2fs_super_block, field), \
	sizeof(((struct f2fs_super_block *)0)->field[0]), n, FK_UINT }
#define CP_F(field) { #field, offsetof(struct f2fs_checkpoint, field), \
	sizeof(((struct f2fs_checkpoint *)0)->field), 1, FK_UINT }
#define CP_A(field, n) { #field, offsetof(struct f2fs_checkpoint, field), \
	sizeof(((struct f2fs_checkpoint *)0)->field[0]), n, FK_UINT }

static const struct dump_field sb_fields[] = {
	SB_F(magic, FK_UINT),
	SB_F(major_ver, FK_UINT),
	SB_F(minor_ver, FK_UINT),
	SB_F(log_sectorsize, FK_UINT),
	SB_F(log_sectors_per_block, FK_UINT),
	SB_F(log_blocksize, FK_UINT),
	SB_F(log_blocks_per_seg, FK_UINT),
	SB_F(segs_per_sec, FK_UINT),
	SB_F(secs_per_zone, FK_UINT),
	SB_F(checksum_offset, FK_UINT),
	SB_F(block_count, FK_UINT),
	SB_F(section_count, FK_UINT),
	SB_F(segment_count, FK_UINT),
	SB_F(segment_count_ckpt, FK_UINT),
	SB_F(segment_count_sit, FK_UINT),
	SB_F(segment_count_nat, FK_UINT),
	SB_F(segment_count_ssa, FK_UINT),
	SB_F(segment_count_main, FK_UINT),
	SB_F(segment0_blkaddr, FK_UINT),
	SB_F(cp_blkaddr, FK_UINT),
	SB_F(sit_blkaddr, FK_UINT),
	SB_F(nat_blkaddr, FK_UINT),
	SB_F(ssa_blkaddr, FK_UINT),
	SB_F(main_blkaddr, FK_UINT),
	SB_F(root_ino, FK_UINT),
	SB_F(node_ino, FK_UINT),
	SB_F(meta_ino, FK_UINT),
	SB_F(uuid, FK_UUID),
	SB_F(volume_name, FK_UTF16),
	SB_F(extension_count, FK_UINT),
	SB_F(extension_list, FK_EXTLIST),
	SB_F(cp_payload, FK_UINT),
	SB_F(version, FK_STR),
	SB_F(init_version, FK_STR),
	SB_F(feature, FK_UINT),
	SB_F(encryption_level, FK_UINT),
	SB_F(encrypt_pw_salt, FK_HEX),
	SB_F(devs, FK_DEVS),
	SB_A(qf_ino, F2FS_MAX_QUOTAS),
	SB_F(hot_ext_count, FK_UINT),
	SB_F(s_encoding, FK_UINT),
	SB_F(s_encoding_flags, FK_UINT),
	SB_A(s_stop_reason, 32),
	SB_F(s_errors, FK_HEX),
	SB_F(crc, FK_UINT),
};

static const struct dump_field cp_fields[] = {
	CP_F(checkpoint_ver),
	CP_F(user_block_count),
	CP_F(valid_block_count),
	CP_F(rsvd_segment_count),
	CP_F(overprov_segment_count),
	CP_F(free_segment_count),
	CP_A(cur_node_segno, MAX_ACTIVE_NODE_LOGS),
	CP_A(cur_node_blkoff, MAX_ACTIVE_NODE_LOGS),
	CP_A(cur_data_segno, MAX_ACTIVE_DATA_LOGS),
	CP_A(cur_data_blkoff, MAX_ACTIVE_DATA_LOGS),
	CP_F(ckpt_flags),
	CP_F(cp_pack_total_block_count),
	CP_F(cp_pack_start_sum),
	CP_F(valid_node_count),
	CP_F(valid_inode_count),
	CP_F(next_free_nid),
	CP_F(sit_ver_bitmap_bytesize),
	CP_F(nat_ver_bitmap_bytesize),
	CP_F(checksum_offset),
	CP_F(elapsed_time),
	CP_A(alloc_type, MAX_ACTIVE_LOGS),
};

#define NFIELDS(t) (sizeof(t) / sizeof((t)[0]))

static const struct { uint32_t flag; const char *name; } cp_flag_names[] = {
	{ CP_UMOUNT_FLAG, "unmount" },
	{ CP_ORPHAN_PRESENT_FLAG, "orphan_present" },
	{ CP_COMPACT_SUM_FLAG, "compacted_summary" },
	{ CP_ERROR_FLAG, "error" },
	{ CP_FSCK_FLAG, "fsck" },
	{ CP_FASTBOOT_FLAG, "fastboot" },
	{ CP_CRC_RECOVERY_FLAG, "crc_recovery" },
	{ CP_NAT_BITS_FLAG, "nat_bits" },
	{ CP_TRIMMED_FLAG, "trimmed" },
	{ CP_NOCRC_RECOVERY_FLAG, "nocrc_recovery" },
	{ CP_LARGE_NAT_BITMAP_FLAG, "large_nat_bitmap" },
	{ CP_QUOTA_NEED_FSCK_FLAG, "quota_need_fsck" },
	{ CP_DISABLED_FLAG, "disabled" },
	{ CP_DISABLED_QUICK_FLAG, "disabled_quick" },
	{ CP_RESIZEFS_FLAG, "resizefs" },
};

static uint64_t get_uint(const uint8_t *p, unsigned int size)
{
	switch (size) {
	case 1: return p[0];
	case 2: return get_le16(p);
	case 4: return get_le32(p);
	default: return get_le64(p);
	}
}

/* UTF-16LE to UTF-8 (BMP and surrogate pairs; invalid units become '?'). */
static void utf16_to_utf8(const uint8_t *src, size_t units, char *dst, size_t size)
{
	size_t i, n = 0;

	for (i = 0; i < units && n + 5 < size; i++) {
		uint32_t c = get_le16(src + 2 * i);

		if (!c)
			break;
		if (c >= 0xd800 && c < 0xdc00 && i + 1 < units) {
			uint32_t lo = get_le16(src + 2 * (i + 1));

			if (lo >= 0xdc00 && lo < 0xe000) {
				c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
				i++;
			} else {
				c = '?';
			}
		} else if (c >= 0xd800 && c < 0xe000) {
			c = '?';
		}
		if (c < 0x80) {
			dst[n++] = (char)c;
		} else if (c < 0x800) {
			dst[n++] = (char)(0xc0 | (c >> 6));
			dst[n++] = (char)(0x80 | (c & 0x3f));
		} else if (c < 0x10000) {
			dst[n++] = (char)(0xe0 | (c >> 12));
			dst[n++] = (char)(0x80 | ((c >> 6) & 0x3f));
			dst[n++] = (char)(0x80 | (c & 0x3f));
		} else {
			dst[n++] = (char)(0xf0 | (c >> 18));
			dst[n++] = (char)(0x80 | ((c >> 12) & 0x3f));
			dst[n++] = (char)(0x80 | ((c >> 6) & 0x3f));
			dst[n++] = (char)(0x80 | (c & 0x3f));
		}
	}
	dst[n] = '\0';
}

static void format_uuid(const uint8_t *u, char *buf)
{
	int i, n = 0;

	for (i = 0; i < 16; i++) {
		n += sprintf(buf + n, "%02x", u[i]);
		if (i == 3 || i == 5 || i == 7 || i == 9)
			buf[n++] = '-';
	}
	buf[n] = '\0';
}

/* ---- text rendering --------------------------------------------------- */

static void text_uint(FILE *f, const char *name, uint64_t v)
{
	fprintf(f, "%-30s [0x%8" PRIx64 " : %" PRIu64 "]\n", name, v, v);
}

static void text_hex(FILE *f, const char *name, const uint8_t *b, size_t len)
{
	size_t i;

	fprintf(f, "%-30s ", name);
	for (i = 0; i < len; i++)
		fprintf(f, "%02x", b[i]);
	fputc('\n', f);
}

static void text_ext_list(FILE *f, const struct f2fs_super_block *sb)
{
	uint32_t n = le32_to_cpu(sb->extension_count) + sb->hot_ext_count;
	char ext[F2FS_EXTENSION_LEN + 1];
	uint32_t i;

	if (n > F2FS_MAX_EXTENSION)
		n = F2FS_MAX_EXTENSION;
	fprintf(f, "%-30s", "extension_list");
	for (i = 0; i < n; i++) {
		dump_cstr(ext, sizeof(ext), sb->extension_list[i], F2FS_EXTENSION_LEN);
		fprintf(f, " %s", ext);
	}
	fputc('\n', f);
}

static void text_devs(FILE *f, const struct f2fs_super_block *sb)
{
	char path[MAX_PATH_LEN + 1], name[40];
	int i;

	for (i = 0; i < MAX_DEVICES && sb->devs[i].path[0]; i++) {
		dump_cstr(path, sizeof(path), sb->devs[i].path, MAX_PATH_LEN);
		fprintf(f, "devs[%d].path%*s %s\n", i, 17, "", path);
		snprintf(name, sizeof(name), "devs[%d].total_segments", i);
		text_uint(f, name, le32_to_cpu(sb->devs[i].total_segments));
	}
}

static void text_field(FILE *f, const struct dump_field *fd, const uint8_t *base,
		       const struct f2fs_super_block *sb)
{
	const uint8_t *p = base + fd->off;
	char buf[2048], name[64];
	unsigned int i;

	switch (fd->kind) {
	case FK_UINT:
		if (fd->count == 1) {
			text_uint(f, fd->name, get_uint(p, fd->size));
			break;
		}
		for (i = 0; i < fd->count; i++) {
			snprintf(name, sizeof(name), "%s[%u]", fd->name, i);
			text_uint(f, name, get_uint(p + i * fd->size, fd->size));
		}
		break;
	case FK_STR:
		dump_cstr(buf, sizeof(buf), p, fd->size);
		fprintf(f, "%-30s %s\n", fd->name, buf);
		break;
	case FK_UTF16:
		utf16_to_utf8(p, fd->size / 2, buf, sizeof(buf));
		fprintf(f, "%-30s %s\n", fd->name, buf);
		break;
	case FK_UUID:
		format_uuid(p, buf);
		fprintf(f, "%-30s %s\n", fd->name, buf);
		break;
	case FK_HEX:
		text_hex(f, fd->name, p, fd->size);
		break;
	case FK_EXTLIST:
		text_ext_list(f, sb);
		break;
	case FK_DEVS:
		text_devs(f, sb);
		break;
	}
}

/* ---- JSON rendering --------------------------------------------------- */

static void json_ext_list(struct dump_out *o, const struct f2fs_super_block *sb)
{
	uint32_t n = le32_to_cpu(sb->extension_count) + sb->hot_ext_count;
	char ext[F2FS_EXTENSION_LEN + 1];
	uint32_t i;

	if (n > F2FS_MAX_EXTENSION)
		n = F2FS_MAX_EXTENSION;
	out_arr_begin(o, "extension_list");
	for (i = 0; i < n; i++) {
		dump_cstr(ext, sizeof(ext), sb->extension_list[i], F2FS_EXTENSION_LEN);
		out_str(o, NULL, ext);
	}
	out_arr_end(o);
}

static void json_devs(struct dump_out *o, const struct f2fs_super_block *sb)
{
	char path[MAX_PATH_LEN + 1];
	int i;

	out_arr_begin(o, "devs");
	for (i = 0; i < MAX_DEVICES && sb->devs[i].path[0]; i++) {
		out_obj_begin(o, NULL);
		dump_cstr(path, sizeof(path), sb->devs[i].path, MAX_PATH_LEN);
		out_str(o, "path", path);
		out_u64(o, "total_segments", le32_to_cpu(sb->devs[i].total_segments));
		out_obj_end(o);
	}
	out_arr_end(o);
}

static void json_field(struct dump_out *o, const struct dump_field *fd,
		       const uint8_t *base, const struct f2fs_super_block *sb)
{
	const uint8_t *p = base + fd->off;
	char buf[2048];
	unsigned int i;

	switch (fd->kind) {
	case FK_UINT:
		if (fd->count == 1) {
			out_u64(o, fd->name, get_uint(p, fd->size));
			break;
		}
		out_arr_begin(o, fd->name);
		for (i = 0; i < fd->count; i++)
			out_u64(o, NULL, get_uint(p + i * fd->size, fd->size));
		out_arr_end(o);
		break;
	case FK_STR:
		dump_cstr(buf, sizeof(buf), p, fd->size);
		out_str(o, fd->name, buf);
		break;
	case FK_UTF16:
		utf16_to_utf8(p, fd->size / 2, buf, sizeof(buf));
		out_str(o, fd->name, buf);
		break;
	case FK_UUID:
		format_uuid(p, buf);
		out_str(o, fd->name, buf);
		break;
	case FK_HEX:
		out_hex(o, fd->name, p, fd->size);
		break;
	case FK_EXTLIST:
		json_ext_list(o, sb);
		break;
	case FK_DEVS:
		json_devs(o, sb);
		break;
	}
}

void dump_print_fields(struct dump_ctx *ctx, const struct dump_field *t, size_t n,
		       const void *base, const struct f2fs_super_block *sb)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (ctx->out.json)
			json_field(&ctx->out, &t[i], base, sb);
		else
			text_field(ctx->out.f, &t[i], base, sb);
	}
}

/* ---- derived values ---------------------------------------------------- */

static void print_names(struct dump_ctx *ctx, const char *key, const char *names)
{
	if (ctx->out.json) {
		char copy[1024], *save = NULL, *tok;

		snprintf(copy, sizeof(copy), "%s", names);
		out_arr_begin(&ctx->out, key);
		for (tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save))
			out_str(&ctx->out, NULL, tok);
		out_arr_end(&ctx->out);
	} else {
		fprintf(ctx->out.f, "%-30s %s\n", key, names);
	}
}

static void cp_flags_string(uint32_t flags, char *buf, size_t size)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(cp_flag_names) / sizeof(cp_flag_names[0]); i++) {
		if (!(flags & cp_flag_names[i].flag))
			continue;
		n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? "," : "",
				      cp_flag_names[i].name);
		if (n >= size)
			return;
		flags &= ~cp_flag_names[i].flag;
	}
	if (flags && n < size)
		snprintf(buf + n, size - n, "%s0x%x", n ? "," : "", flags);
}

static void print_check(struct dump_ctx *ctx, const char *key, bool chosen,
			const struct f2fs_check_result *r, bool have_version,
			uint64_t version)
{
	struct dump_out *o = &ctx->out;

	if (o->json) {
		out_obj_begin(o, NULL);
		out_bool(o, "valid", r->err == 0);
		out_bool(o, "in_use", chosen);
		if (have_version)
			out_u64(o, "checkpoint_ver", version);
		out_str(o, "error", r->err ? (r->why ? r->why : "invalid") : NULL);
		out_obj_end(o);
		return;
	}
	fprintf(o->f, "%-30s %s%s%s%s\n", key, r->err ? "invalid" : "valid",
		chosen ? ", in use" : "", r->err ? ": " : "",
		r->err ? (r->why ? r->why : "?") : "");
}

static void print_sb_status(struct dump_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;
	int i;

	if (ctx->out.json) {
		out_u64(&ctx->out, "copy_in_use", (uint64_t)fs->sb_index + 1);
		out_arr_begin(&ctx->out, "copies");
	} else {
		fprintf(ctx->out.f, "%-30s %d\n", "superblock copy in use", fs->sb_index + 1);
	}
	for (i = 0; i < 2; i++)
		print_check(ctx, i ? "superblock copy 2" : "superblock copy 1",
			    i == fs->sb_index, &fs->sb_check[i], false, 0);
	if (ctx->out.json)
		out_arr_end(&ctx->out);
}

static void print_cp_status(struct dump_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;
	int i;

	if (ctx->out.json) {
		out_u64(&ctx->out, "pack_in_use", (uint64_t)fs->cp_index + 1);
		out_u64(&ctx->out, "pack_start_blkaddr", fs->cp_start_blkaddr);
		out_arr_begin(&ctx->out, "packs");
	} else {
		fprintf(ctx->out.f, "%-30s %d (blkaddr %u)\n", "checkpoint pack in use",
			fs->cp_index + 1, fs->cp_start_blkaddr);
	}
	for (i = 0; i < 2; i++)
		print_check(ctx, i ? "checkpoint pack 2" : "checkpoint pack 1",
			    i == fs->cp_index, &fs->cp_check[i], !fs->cp_check[i].err,
			    fs->cp_version[i]);
	if (ctx->out.json)
		out_arr_end(&ctx->out);
	if (fs->ckpt_sanity.err) {
		if (ctx->out.json)
			out_str(&ctx->out, "sanity_error", fs->ckpt_sanity.why);
		else
			fprintf(ctx->out.f, "%-30s %s\n", "checkpoint sanity",
				fs->ckpt_sanity.why ? fs->ckpt_sanity.why : "failed");
	}
}

static void print_bitmaps(struct dump_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;

	if (!fs->sit_bitmap || !fs->nat_bitmap)
		return;
	if (ctx->out.json) {
		out_hex(&ctx->out, "sit_version_bitmap", fs->sit_bitmap, fs->sit_bitmap_size);
		out_hex(&ctx->out, "nat_version_bitmap", fs->nat_bitmap, fs->nat_bitmap_size);
	} else {
		text_hex(ctx->out.f, "sit_version_bitmap", fs->sit_bitmap, fs->sit_bitmap_size);
		text_hex(ctx->out.f, "nat_version_bitmap", fs->nat_bitmap, fs->nat_bitmap_size);
	}
}

static void print_superblock(struct dump_ctx *ctx)
{
	const struct f2fs_super_block *sb = &ctx->fs->sb;
	char feats[512];

	if (ctx->out.json)
		out_obj_begin(&ctx->out, "superblock");
	else
		fputs("== superblock ==\n", ctx->out.f);
	print_sb_status(ctx);
	dump_print_fields(ctx, sb_fields, NFIELDS(sb_fields), sb, sb);
	if (!ctx->out.json) {
		char label[MAX_VOLUME_NAME * 4 + 1];

		utf16_to_utf8((const uint8_t *)sb->volume_name, MAX_VOLUME_NAME, label,
			      sizeof(label));
		dump_compat_sb_fields(ctx, label);
	}
	f2fs_features_to_string(le32_to_cpu(sb->feature), feats, sizeof(feats));
	print_names(ctx, "feature_names", feats);
	if (le32_to_cpu(sb->feature) & F2FS_FEATURE_SB_CHKSUM) {
		uint32_t crc = f2fs_sb_checksum(sb);

		if (ctx->out.json)
			out_bool(&ctx->out, "crc_ok", crc == le32_to_cpu(sb->crc));
		else
			fprintf(ctx->out.f, "%-30s %s\n", "crc_ok",
				crc == le32_to_cpu(sb->crc) ? "yes" : "no");
	}
	if (ctx->out.json)
		out_obj_end(&ctx->out);
}

static void print_checkpoint(struct dump_ctx *ctx)
{
	const struct f2fs_checkpoint *cp = ctx->fs->cp;
	char flags[512];

	if (ctx->out.json)
		out_obj_begin(&ctx->out, "checkpoint");
	else
		fputs("== checkpoint ==\n", ctx->out.f);
	print_cp_status(ctx);
	dump_print_fields(ctx, cp_fields, NFIELDS(cp_fields), cp, &ctx->fs->sb);
	dump_compat_cp_fields(ctx, cp);
	cp_flags_string(le32_to_cpu(cp->ckpt_flags), flags, sizeof(flags));
	print_names(ctx, "ckpt_flag_names", flags);
	print_bitmaps(ctx);
	if (ctx->out.json)
		out_obj_end(&ctx->out);
}

void dump_report_fallbacks(struct dump_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;
	int i;

	if (!fs)
		return;
	for (i = 0; i < 2; i++) {
		if (!fs->sb_check[i].err)
			continue;
		if (fs->sb_index >= 0)
			fprintf(stderr, "dump.f2fs: superblock copy %d is invalid (%s); using copy %d\n",
				i + 1, fs->sb_check[i].why ? fs->sb_check[i].why : "?",
				fs->sb_index + 1);
	}
	if (fs->sb_index < 0 || !fs->cp)
		return;
	for (i = 0; i < 2; i++) {
		if (fs->cp_check[i].err && fs->cp_index >= 0)
			fprintf(stderr, "dump.f2fs: checkpoint pack %d is invalid (%s); using pack %d\n",
				i + 1, fs->cp_check[i].why ? fs->cp_check[i].why : "?",
				fs->cp_index + 1);
	}
}

int dump_super_view(struct dump_ctx *ctx)
{
	struct f2fs_fs *fs = ctx->fs;

	if (!fs || fs->sb_index < 0)
		return dump_fail(ctx, -EFSCORRUPTED, "no valid superblock");
	print_superblock(ctx);
	if (!fs->cp || fs->cp_index < 0)
		return dump_fail(ctx, -EFSCORRUPTED, "no valid checkpoint pack");
	print_checkpoint(ctx);
	dump_compat_info(ctx);
	return 0;
}
