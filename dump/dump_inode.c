/*
 * dump_inode.c - the -i view: every field of an inode block (extra
 * attributes only when i_extra_isize covers them), its footer, checksum
 * state, xattrs, and with -M the block map (runs of file blocks and the
 * node blocks of the inode).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "f2fs_crc.h"

#define IN_F(field) { #field, offsetof(struct f2fs_inode, field), \
	sizeof(((struct f2fs_inode *)0)->field), 1, FK_UINT }
#define IN_X(name, field, off) { name, offsetof(struct f2fs_inode, field) + (off), 4, 1, FK_UINT }

static const struct dump_field inode_fields[] = {
	IN_F(i_mode), IN_F(i_advise), IN_F(i_inline), IN_F(i_uid), IN_F(i_gid),
	IN_F(i_links), IN_F(i_size), IN_F(i_blocks), IN_F(i_atime), IN_F(i_ctime),
	IN_F(i_mtime), IN_F(i_atime_nsec), IN_F(i_ctime_nsec), IN_F(i_mtime_nsec),
	IN_F(i_generation), IN_F(i_current_depth), IN_F(i_xattr_nid), IN_F(i_flags),
	IN_F(i_pino), IN_F(i_namelen),
};

/* In JSON; the text has f2fs-tools' "i_name [...]" line instead. */
static const struct dump_field name_field[] = {
	{ "i_name", offsetof(struct f2fs_inode, i_name), F2FS_NAME_LEN, 1, FK_STR },
};

static const struct dump_field inode_fields_after_name[] = {
	IN_F(i_dir_level),
	IN_X("i_ext.fofs", i_ext, 0), IN_X("i_ext.blk", i_ext, 4), IN_X("i_ext.len", i_ext, 8),
};

/* Extra attributes, each shown only when i_extra_isize covers it. */
static const struct dump_field extra_fields[] = {
	IN_F(i_extra_isize), IN_F(i_inline_xattr_size), IN_F(i_projid),
	IN_F(i_inode_checksum), IN_F(i_crtime), IN_F(i_crtime_nsec), IN_F(i_compr_blocks),
	IN_F(i_compress_algorithm), IN_F(i_log_cluster_size), IN_F(i_compress_flag),
};

static const struct dump_field nid_fields[] = {
	{ "i_nid", offsetof(struct f2fs_inode, i_nid), 4, DEF_NIDS_PER_INODE, FK_UINT },
};

#define FT_F(field) { "footer." #field, offsetof(struct f2fs_node, footer) + \
	offsetof(struct node_footer, field), sizeof(((struct node_footer *)0)->field), 1, FK_UINT }

static const struct dump_field footer_fields[] = {
	FT_F(nid), FT_F(ino), FT_F(flag), FT_F(cp_ver), FT_F(next_blkaddr),
};

#define NF(t) (sizeof(t) / sizeof((t)[0]))

static void print_extra(struct dump_ctx *ctx, const struct f2fs_inode *ri)
{
	uint32_t isize = le16_to_cpu(ri->i_extra_isize);
	size_t i;

	if (!(ri->i_inline & F2FS_EXTRA_ATTR))
		return;
	for (i = 0; i < NF(extra_fields); i++) {
		uint32_t end = extra_fields[i].off + extra_fields[i].size;

		if (i == 0 || end <= offsetof(struct f2fs_inode, i_addr) + isize)
			dump_print_fields(ctx, &extra_fields[i], 1, ri, NULL);
	}
}

/* ---- xattrs ----------------------------------------------------------- */

static bool printable(const uint8_t *b, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (b[i] < 0x20 || b[i] >= 0x7f)
			return i + 1 == len && b[i] == 0;
	return true;
}

static int print_xattr(struct dump_ctx *ctx, const struct dump_xattr *x, void *arg)
{
	unsigned int *count = arg;
	char name[300];

	(*count)++;
	snprintf(name, sizeof(name), "%s%.*s", x->prefix, (int)x->name_len, (const char *)x->name);
	if (ctx->out.json) {
		out_obj_begin(&ctx->out, NULL);
		out_u64(&ctx->out, "name_index", x->index);
		out_str(&ctx->out, "name", name);
		out_u64(&ctx->out, "value_size", x->value_len);
		out_hex(&ctx->out, "value_hex", x->value, x->value_len);
		out_obj_end(&ctx->out);
		return 0;
	}
	dump_compat_xattr(ctx, x);
	if (printable(x->value, x->value_len)) {
		fprintf(ctx->out.f, "xattr %-24s \"%.*s\"\n", name, (int)x->value_len,
			(const char *)x->value);
	} else {
		uint16_t i;

		fprintf(ctx->out.f, "xattr %-24s 0x", name);
		for (i = 0; i < x->value_len; i++)
			fprintf(ctx->out.f, "%02x", x->value[i]);
		fputc('\n', ctx->out.f);
	}
	return 0;
}

static int print_xattrs(struct dump_ctx *ctx, const struct f2fs_node *inode)
{
	unsigned int count = 0;
	int err;

	if (ctx->out.json)
		out_arr_begin(&ctx->out, "xattrs");
	err = dump_for_each_xattr(ctx, inode, print_xattr, &count);
	if (ctx->out.json)
		out_arr_end(&ctx->out);
	else if (count)
		fputc('\n', ctx->out.f);	/* f2fs-tools ends its xattr blocks so */
	return err;
}

/* ---- block map (-M) ---------------------------------------------------- */

static const struct dump_col run_cols[] = {
	{ "fofs", 10, COL_U64 }, { "blkaddr", 12, COL_HEX }, { "len", 8, COL_U64 },
};
static const struct dump_col node_cols[] = {
	{ "nid", 10, COL_U64 }, { "blkaddr", 12, COL_HEX }, { "node_ofs", 10, COL_U64 },
};

struct run_state {
	struct dump_table t;
	uint64_t fofs, len;
	uint32_t addr;
	uint64_t blocks;
};

static void flush_run(struct run_state *r)
{
	struct dump_val v[3];

	if (!r->len)
		return;
	memset(v, 0, sizeof(v));
	v[0].u = r->fofs;
	v[1].u = r->addr;
	v[2].u = r->len;
	table_row(&r->t, v);
	r->len = 0;
}

static int map_block(struct dump_ctx *ctx, uint64_t fofs, uint32_t addr, void *arg)
{
	struct run_state *r = arg;
	bool special = !dump_is_valid_data_addr(ctx, addr);

	r->blocks++;
	if (r->len && !special && fofs == r->fofs + r->len && addr == r->addr + r->len &&
	    dump_is_valid_data_addr(ctx, r->addr)) {
		r->len++;
		return 0;
	}
	flush_run(r);
	r->fofs = fofs;
	r->addr = addr;
	r->len = 1;
	return 0;
}

static int map_node(struct dump_ctx *ctx, uint32_t nid, uint32_t addr, uint32_t ofs, void *arg)
{
	struct dump_table *t = arg;
	struct dump_val v[3];

	memset(v, 0, sizeof(v));
	v[0].u = nid;
	v[1].u = addr;
	v[2].u = ofs;
	table_row(t, v);
	return 0;
}

static int count_block(struct dump_ctx *ctx, uint64_t fofs, uint32_t addr, void *arg)
{
	return 0;
}

static int print_block_map(struct dump_ctx *ctx, const struct f2fs_node *inode)
{
	struct run_state r;
	struct dump_table nt;
	int err;

	memset(&r, 0, sizeof(r));
	if (!ctx->out.json)
		fputs("-- data blocks (runs) --\n", ctx->out.f);
	table_begin(&r.t, &ctx->out, "block_map", run_cols, 3);
	err = dump_walk_file(ctx, inode, map_block, NULL, &r);
	flush_run(&r);
	table_end(&r.t);
	if (err)
		return err;
	if (!ctx->out.json)
		fputs("-- node blocks --\n", ctx->out.f);
	table_begin(&nt, &ctx->out, "node_blocks", node_cols, 3);
	err = dump_walk_file(ctx, inode, count_block, map_node, &nt);
	table_end(&nt);
	return err;
}

/* ---- the view --------------------------------------------------------- */

static void print_checksum(struct dump_ctx *ctx, const struct f2fs_node *node)
{
	uint32_t want, have;

	if (!f2fs_inode_has_checksum(ctx->fs->features, node))
		return;
	want = f2fs_inode_checksum(ctx->fs->inode_chksum_seed, node);
	have = le32_to_cpu(node->i.i_inode_checksum);
	if (ctx->out.json)
		out_bool(&ctx->out, "checksum_ok", want == have);
	else
		fprintf(ctx->out.f, "%-30s %s\n", "checksum_ok", want == have ? "yes" : "no");
}

static void print_inline_info(struct dump_ctx *ctx, const struct f2fs_inode *ri)
{
	size_t size;

	if (!(ri->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY)))
		return;
	dump_inline_data(ctx, ri, &size);
	kv_u64(&ctx->out, "inline_area_bytes", size);
}

int dump_inode_view(struct dump_ctx *ctx)
{
	struct f2fs_node *node = malloc(sizeof(*node));
	uint32_t ino = ctx->opt.ino, addr = 0;
	int err;

	if (!node)
		return dump_fail(ctx, -ENOMEM, "out of memory");
	err = dump_read_node(ctx, ino, node, &addr);
	dump_compat_node_debug(ctx, ino, err ? NULL : node);
	if (err) {
		free(node);
		return dump_fail(ctx, err, "inode %u: cannot read its node block (NAT address %u): %s",
				 ino, addr, err == -ENOENT ? "not in use" : f2fs_strerror(err));
	}
	if (le32_to_cpu(node->footer.ino) != ino) {
		uint32_t owner = le32_to_cpu(node->footer.ino);

		free(node);
		return dump_fail(ctx, -EFSCORRUPTED, "nid %u is not an inode (footer ino %u)",
				 ino, owner);
	}
	if (ctx->out.json)
		out_obj_begin(&ctx->out, "inode");
	else
		fprintf(ctx->out.f, "== inode %u (block 0x%x) ==\n", ino, addr);
	kv_u64(&ctx->out, "ino", ino);
	kv_u64(&ctx->out, "node_blkaddr", addr);
	dump_print_fields(ctx, inode_fields, NF(inode_fields), &node->i, NULL);
	if (ctx->out.json)
		dump_print_fields(ctx, name_field, 1, &node->i, NULL);
	else
		dump_compat_i_name(ctx, &node->i);
	dump_print_fields(ctx, inode_fields_after_name, NF(inode_fields_after_name), &node->i,
			  NULL);
	dump_compat_i_ext(ctx, &node->i);
	print_extra(ctx, &node->i);
	dump_compat_i_addr(ctx, &node->i);
	dump_print_fields(ctx, nid_fields, 1, &node->i, NULL);
	dump_print_fields(ctx, footer_fields, NF(footer_fields), node, NULL);
	print_checksum(ctx, node);
	print_inline_info(ctx, &node->i);
	err = print_xattrs(ctx, node);
	if (!err && ctx->opt.block_map)
		err = print_block_map(ctx, node);
	if (ctx->out.json)
		out_obj_end(&ctx->out);
	free(node);
	return err;
}
