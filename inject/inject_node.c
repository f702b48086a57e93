/*
 * inject_node.c - --node: change a member of the node block of --nid (the
 * block the NAT, journal first, points to): footer fields, inode fields,
 * the address/nid slots of direct and indirect nodes, or raw bytes.
 *
 * After the change the inode checksum is recomputed when the block
 * carries one (INODE_CHKSUM feature, an inode with extra attributes large
 * enough), unless i_inode_checksum itself or its bytes were changed, or
 * --no-fix-checksum is given.  This is what f2fs-tools' inject.f2fs does.
 */
#include <stdio.h>
#include <string.h>

#include "f2fs_crc.h"
#include "inject.h"

#define NF(name, m, fl) INJ_NAMED(name, struct f2fs_node, m, fl)
#define NA(name, m, n, fl) \
	{ name, offsetof(struct f2fs_node, m), sizeof(__le32), (n), 0, (fl) }

static const struct inj_field footer_fields[] = {
	NF("nid", footer.nid, 0),
	NF("ino", footer.ino, 0),
	NF("flag", footer.flag, INJ_F_HEX),
	NF("cp_ver", footer.cp_ver, INJ_F_HEX),
	NF("next_blkaddr", footer.next_blkaddr, INJ_F_HEX),
	NF("footer.nid", footer.nid, 0),
	NF("footer.ino", footer.ino, 0),
	NF("footer.flag", footer.flag, INJ_F_HEX),
	NF("footer.cp_ver", footer.cp_ver, INJ_F_HEX),
	NF("footer.next_blkaddr", footer.next_blkaddr, INJ_F_HEX),
	{ NULL, 0, 0, 0, 0, 0 },
};

static const struct inj_field inode_fields[] = {
	NF("i_mode", i.i_mode, INJ_F_HEX),
	NF("i_advise", i.i_advise, INJ_F_HEX),
	NF("i_inline", i.i_inline, INJ_F_HEX),
	NF("i_uid", i.i_uid, 0),
	NF("i_gid", i.i_gid, 0),
	NF("i_links", i.i_links, 0),
	NF("i_size", i.i_size, 0),
	NF("i_blocks", i.i_blocks, 0),
	NF("i_atime", i.i_atime, 0),
	NF("i_ctime", i.i_ctime, 0),
	NF("i_mtime", i.i_mtime, 0),
	NF("i_atime_nsec", i.i_atime_nsec, 0),
	NF("i_ctime_nsec", i.i_ctime_nsec, 0),
	NF("i_mtime_nsec", i.i_mtime_nsec, 0),
	NF("i_generation", i.i_generation, 0),
	NF("i_current_depth", i.i_current_depth, 0),
	NF("i_gc_failures", i.i_gc_failures, 0),
	NF("i_xattr_nid", i.i_xattr_nid, 0),
	NF("i_flags", i.i_flags, INJ_F_HEX),
	NF("i_pino", i.i_pino, 0),
	NF("i_namelen", i.i_namelen, 0),
	{ "i_name", offsetof(struct f2fs_node, i.i_name), F2FS_NAME_LEN, 1, 0, INJ_F_STR },
	NF("i_dir_level", i.i_dir_level, 0),
	NF("i_ext.fofs", i.i_ext.fofs, 0),
	NF("i_ext.blk", i.i_ext.blk, INJ_F_HEX),
	NF("i_ext.len", i.i_ext.len, 0),
	NF("i_extra_isize", i.i_extra_isize, 0),
	NF("i_inline_xattr_size", i.i_inline_xattr_size, 0),
	NF("i_projid", i.i_projid, 0),
	NF("i_inode_checksum", i.i_inode_checksum, INJ_F_HEX),
	NF("i_crtime", i.i_crtime, 0),
	NF("i_crtime_nsec", i.i_crtime_nsec, 0),
	NF("i_compr_blocks", i.i_compr_blocks, 0),
	NF("i_compress_algorithm", i.i_compress_algorithm, 0),
	NF("i_log_cluster_size", i.i_log_cluster_size, 0),
	NF("i_compress_flag", i.i_compress_flag, INJ_F_HEX),
	NA("i_addr", i.i_addr, DEF_ADDRS_PER_INODE, INJ_F_HEX),
	NA("i_nid", i.i_nid, DEF_NIDS_PER_INODE, 0),
	{ NULL, 0, 0, 0, 0, 0 },
};

static const struct inj_field index_fields[] = {
	NA("addr", dn.addr, ADDRS_PER_BLOCK, INJ_F_HEX),
	NA("dn.addr", dn.addr, ADDRS_PER_BLOCK, INJ_F_HEX),
	NA("in.nid", in.nid, NIDS_PER_BLOCK, 0),
	{ NULL, 0, 0, 0, 0, 0 },
};

static const struct inj_field *const node_tables[] = {
	footer_fields, inode_fields, index_fields,
};

void inject_list_node_members(void)
{
	static const char *const what[] = {
		"node footer", "inode", "direct or indirect node",
	};
	size_t i;

	for (i = 0; i < sizeof(node_tables) / sizeof(node_tables[0]); i++)
		inj_field_list(node_tables[i], what[i]);
	inj_member_line("raw", "inject byte --idx BYTE_OFFSET of the node block");
}

#define CSUM_START offsetof(struct f2fs_node, i.i_inode_checksum)

void inj_node_fix_checksum(struct inj_ctx *c, struct f2fs_node *node)
{
	uint32_t csum;

	if (c->o->no_fix_checksum || !f2fs_inode_has_checksum(c->fs->features, node))
		return;
	csum = f2fs_inode_checksum(c->fs->inode_chksum_seed, node);
	node->i.i_inode_checksum = cpu_to_le32(csum);
	inj_dbg(c, 1, "inode checksum recomputed: 0x%x", csum);
}

/* Apply the member; *fix says whether the checksum may be recomputed. */
static int apply_member(struct inj_ctx *c, struct f2fs_node *node, bool is_inode, bool *fix)
{
	const char *mb = c->o->mb;
	const struct inj_field *f;
	uint32_t start, end;

	*fix = true;
	if (!strcmp(mb, "raw")) {
		if (inj_set_raw(c, (uint8_t *)node, F2FS_BLKSIZE, &start))
			return -1;
		end = start + 1;
	} else if ((f = inj_field_find(footer_fields, mb)) ||
		   (f = inj_field_find(inode_fields, mb)) ||
		   (f = inj_field_find(index_fields, mb))) {
		bool inode_member = f >= inode_fields &&
				    f < inode_fields + sizeof(inode_fields) / sizeof(inode_fields[0]);
		bool index_member = f >= index_fields &&
				    f < index_fields + sizeof(index_fields) / sizeof(index_fields[0]);

		if (inode_member && !is_inode)
			return inj_err("nid %u is not an inode: %s does not apply", c->o->nid, mb);
		if (index_member && is_inode)
			return inj_err("nid %u is an inode: use i_addr or i_nid", c->o->nid);
		if (inj_field_apply(c, f, (uint8_t *)node, F2FS_BLKSIZE))
			return -1;
		inj_field_range(c, f, &start, &end);
	} else {
		return inj_err("unknown or unsupported member '%s' of --node "
			       "(inject.f2fs --node -h lists them)", mb);
	}
	if (end > CSUM_START && start < CSUM_START + 4)
		*fix = false;
	return 0;
}

int inject_node(struct inj_ctx *c)
{
	struct f2fs_node node;
	struct f2fs_nat_entry ne;
	uint32_t blkaddr;
	bool fix;

	if (inj_need_fs(c, "--node"))
		return -1;
	if (!c->o->has_nid)
		return inj_err("--node needs --nid N");
	if (inj_read_node(c, c->o->nid, &node, &blkaddr, &ne))
		return -1;
	inj_where(c, "node nid %u (blkaddr 0x%x)", c->o->nid, blkaddr);
	if (apply_member(c, &node, le32_to_cpu(ne.ino) == c->o->nid, &fix))
		return -1;
	if (fix)
		inj_node_fix_checksum(c, &node);
	return inj_write_block(c, blkaddr, &node);
}
