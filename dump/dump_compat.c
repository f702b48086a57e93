/*
 * dump_compat.c - text that scripts parse out of f2fs-tools' dump.f2fs,
 * printed in the same spelling next to our own lines (text output only):
 *
 *  - the "Info:" summary after the superblock and checkpoint view
 *    ("Info: checkpoint state = 185 :  trimmed nat_bits ..."; fstests
 *    f2fs/014 greps it);
 *  - the -d 1 field names our tables spell differently (volum_name,
 *    alloc_type[CURSEG_HOT_NODE], sit_nat_version_bitmap[0]);
 *  - the i_addr[0x..] lines and the "xattr: e_name_index:..." blocks of
 *    -i, with the encryption context's nonce: line (fstests'
 *    _get_encryption_nonce reads it) and POSIX ACL entries decoded;
 *  - with -d 1 and -i, the NAT entry and footer lines f2fs-tools' debug
 *    output gives the node ("[dump_node: ...] Node ID  [0x3]"; fstests
 *    f2fs/024 greps "dump_node:" and strips the bracketed prefix).
 *
 * Formats follow f2fs-tools 1.15 as it prints them (checked against the
 * Debian binary); every on-disk value is bounds-checked first.
 */
#include <inttypes.h>
#include <string.h>

#include "dump.h"

/* ---- superblock and checkpoint --------------------------------------- */

/* In the order f2fs-tools prints them; "sudden-power-off" stands for a
 * missing unmount flag. */
static const struct { uint32_t flag; const char *name; } cp_state_names[] = {
	{ CP_QUOTA_NEED_FSCK_FLAG, "quota_need_fsck" },
	{ CP_LARGE_NAT_BITMAP_FLAG, "large_nat_bitmap" },
	{ CP_NOCRC_RECOVERY_FLAG, "allow_nocrc" },
	{ CP_TRIMMED_FLAG, "trimmed" },
	{ CP_NAT_BITS_FLAG, "nat_bits" },
	{ CP_CRC_RECOVERY_FLAG, "crc" },
	{ CP_FASTBOOT_FLAG, "fastboot" },
	{ CP_FSCK_FLAG, "fsck" },
	{ CP_ERROR_FLAG, "error" },
	{ CP_COMPACT_SUM_FLAG, "compacted_summary" },
	{ CP_ORPHAN_PRESENT_FLAG, "orphan_inodes" },
	{ CP_DISABLED_FLAG, "disabled" },
	{ CP_RESIZEFS_FLAG, "resizefs" },
};

static void print_cp_state(FILE *f, uint32_t flags)
{
	size_t i;

	fprintf(f, "Info: checkpoint state = %x : ", flags);
	for (i = 0; i < sizeof(cp_state_names) / sizeof(cp_state_names[0]); i++)
		if (flags & cp_state_names[i].flag)
			fprintf(f, " %s", cp_state_names[i].name);
	fputs(flags & CP_UMOUNT_FLAG ? " unmount\n" : " sudden-power-off\n", f);
}

/* Names and order of f2fs-tools 1.15's feature line (not bit order). */
static const struct { uint32_t bit; const char *name; } sb_state_names[] = {
	{ F2FS_FEATURE_ENCRYPT, "encrypt" },
	{ F2FS_FEATURE_VERITY, "verity" },
	{ F2FS_FEATURE_BLKZONED, "blkzoned" },
	{ F2FS_FEATURE_EXTRA_ATTR, "extra_attr" },
	{ F2FS_FEATURE_PRJQUOTA, "project_quota" },
	{ F2FS_FEATURE_INODE_CHKSUM, "inode_checksum" },
	{ F2FS_FEATURE_FLEXIBLE_INLINE_XATTR, "flexible_inline_xattr" },
	{ F2FS_FEATURE_QUOTA_INO, "quota_ino" },
	{ F2FS_FEATURE_INODE_CRTIME, "inode_crtime" },
	{ F2FS_FEATURE_LOST_FOUND, "lost_found" },
	{ F2FS_FEATURE_SB_CHKSUM, "sb_checksum" },
	{ F2FS_FEATURE_CASEFOLD, "casefold" },
	{ F2FS_FEATURE_COMPRESSION, "compression" },
	{ F2FS_FEATURE_RO, "ro" },
};

static void print_sb_state(FILE *f, const struct f2fs_super_block *sb)
{
	uint32_t features = le32_to_cpu(sb->feature);
	size_t i;

	fprintf(f, "Info: superblock features = %x : ", features);
	for (i = 0; i < sizeof(sb_state_names) / sizeof(sb_state_names[0]); i++)
		if (features & sb_state_names[i].bit)
			fprintf(f, " %s", sb_state_names[i].name);
	fprintf(f, "\nInfo: superblock encrypt level = %d, salt = ", sb->encryption_level);
	for (i = 0; i < 16; i++)
		fprintf(f, "%02x", sb->encrypt_pw_salt[i]);
	fputc('\n', f);
}

void dump_compat_info(struct dump_ctx *ctx)
{
	const struct f2fs_super_block *sb = &ctx->fs->sb;
	uint32_t log_sects = sb->log_sectors_per_block, log_sect = sb->log_sectorsize;
	uint64_t sectors;
	FILE *f = ctx->out.f;

	if (ctx->out.json)
		return;
	/* lib validated both logs; keep the shifts defined even so */
	if (log_sects > 12 || log_sect < 9 || log_sect > 12)
		return;
	sectors = le64_to_cpu(sb->block_count) << log_sects;
	fputc('\n', f);
	print_sb_state(f, sb);
	fprintf(f, "Info: Segments per section = %u\n", le32_to_cpu(sb->segs_per_sec));
	fprintf(f, "Info: Sections per zone = %u\n", le32_to_cpu(sb->secs_per_zone));
	fprintf(f, "Info: total FS sectors = %" PRIu64 " (%" PRIu64 " MB)\n", sectors,
		sectors >> (20 - log_sect));
	if (!ctx->fs->cp)
		return;
	fprintf(f, "Info: CKPT version = %" PRIx64 "\n",
		le64_to_cpu(ctx->fs->cp->checkpoint_ver));
	print_cp_state(f, le32_to_cpu(ctx->fs->cp->ckpt_flags));
}

void dump_compat_sb_fields(struct dump_ctx *ctx, const char *volume_name)
{
	if (!ctx->out.json)
		fprintf(ctx->out.f, "%-30s [%s]\n", "volum_name", volume_name);
}

void dump_compat_cp_fields(struct dump_ctx *ctx, const struct f2fs_checkpoint *cp)
{
	static const struct { int type; const char *name; } logs[] = {
		{ CURSEG_HOT_NODE, "CURSEG_HOT_NODE" }, { CURSEG_WARM_NODE, "CURSEG_WARM_NODE" },
		{ CURSEG_COLD_NODE, "CURSEG_COLD_NODE" }, { CURSEG_HOT_DATA, "CURSEG_HOT_DATA" },
		{ CURSEG_WARM_DATA, "CURSEG_WARM_DATA" }, { CURSEG_COLD_DATA, "CURSEG_COLD_DATA" },
	};
	char name[64];
	uint32_t first;
	size_t i;

	if (ctx->out.json)
		return;
	for (i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
		uint32_t v = cp->alloc_type[logs[i].type];

		snprintf(name, sizeof(name), "alloc_type[%s]", logs[i].name);
		fprintf(ctx->out.f, "%-30s [0x%8x : %u]\n", name, v, v);
	}
	first = cp->sit_nat_version_bitmap[0];	/* a byte, as f2fs-tools prints it */
	fprintf(ctx->out.f, "%-30s [0x%8x : %u]\n", "sit_nat_version_bitmap[0]", first, first);
}

/* ---- -i: the name ------------------------------------------------------- */

/* An encrypted name as fscrypt shows it without the key (and f2fs-tools
 * and fstests read it): 6 bits at a time, least significant first, over
 * A-Z a-z 0-9 '+' ','. */
static size_t nokey_encode(const uint8_t *src, size_t len, char *dst)
{
	static const char table[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+,";
	uint32_t acc = 0;
	unsigned int bits = 0;
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		acc |= (uint32_t)src[i] << bits;
		bits += 8;
		while (bits >= 6) {
			dst[n++] = table[acc & 0x3f];
			acc >>= 6;
			bits -= 6;
		}
	}
	if (bits)
		dst[n++] = table[acc & 0x3f];
	dst[n] = '\0';
	return n;
}

/* "i_name [name]" as f2fs-tools prints it: the i_namelen bytes (at most
 * 255), or their no-key encoding when the name is encrypted; nothing when
 * the name is empty. */
void dump_compat_i_name(struct dump_ctx *ctx, const struct f2fs_inode *ri)
{
	char name[F2FS_NAME_LEN * 4 / 3 + 4];
	uint32_t len = le32_to_cpu(ri->i_namelen);
	size_t n;

	if (len > F2FS_NAME_LEN)
		len = F2FS_NAME_LEN;
	if (ri->i_advise & FADVISE_ENC_NAME_BIT) {
		n = nokey_encode(ri->i_name, len, name);
	} else {
		for (n = 0; n < len && ri->i_name[n]; n++)
			name[n] = (char)ri->i_name[n];
		name[n] = '\0';
	}
	if (!n)
		return;
	fprintf(ctx->out.f, "%-30s [%s]\n", "i_name", name);
}

/* "i_ext: fofs:0 blkaddr:0 len:0", the read extent in hex, as f2fs-tools
 * prints it. */
void dump_compat_i_ext(struct dump_ctx *ctx, const struct f2fs_inode *ri)
{
	if (!ctx->out.json)
		fprintf(ctx->out.f, "i_ext: fofs:%x blkaddr:%x len:%x\n",
			le32_to_cpu(ri->i_ext.fofs), le32_to_cpu(ri->i_ext.blk),
			le32_to_cpu(ri->i_ext.len));
}

/* ---- -d 1 -i: the node's NAT entry and footer ----------------------------- */

/* f2fs-tools prefixes its debug lines with "[function:line] ", which
 * scripts strip; ours name the debug level where the line number would
 * be.  The footer lines need the node block (NULL: not readable). */
void dump_compat_node_debug(struct dump_ctx *ctx, uint32_t nid, const struct f2fs_node *node)
{
	struct f2fs_nat_entry e;

	if (ctx->out.json || ctx->opt.debug < 1 || dump_nat_lookup(ctx, nid, &e, NULL))
		return;
#define DBG_NODE(fmt, v) fprintf(ctx->out.f, "[dump_node:%4d] " fmt "\n", 1, (unsigned int)(v))
	DBG_NODE("Node ID               [0x%x]", nid);
	DBG_NODE("nat_entry.block_addr  [0x%x]", le32_to_cpu(e.block_addr));
	DBG_NODE("nat_entry.version     [0x%x]", e.version);
	DBG_NODE("nat_entry.ino         [0x%x]", le32_to_cpu(e.ino));
	if (node) {
		DBG_NODE("node_blk.footer.ino [0x%x]", le32_to_cpu(node->footer.ino));
		DBG_NODE("node_blk.footer.nid [0x%x]", le32_to_cpu(node->footer.nid));
	}
#undef DBG_NODE
}

/* ---- -i: i_addr lines -------------------------------------------------- */

void dump_compat_i_addr(struct dump_ctx *ctx, const struct f2fs_inode *ri)
{
	uint32_t ofs = 0, slots, i;

	if (ctx->out.json)
		return;
	if (ri->i_inline & F2FS_EXTRA_ATTR)
		ofs = le16_to_cpu(ri->i_extra_isize) / 4;
	if (ofs >= DEF_ADDRS_PER_INODE)
		return;
	slots = DEF_ADDRS_PER_INODE - ofs;
	if (ri->i_inline & F2FS_INLINE_XATTR) {
		uint32_t ixa = dump_inline_xattr_words(ctx, ri);

		slots = ixa < slots ? slots - ixa : 0;
	}
	for (i = 0; i < slots; i++) {
		uint32_t addr = le32_to_cpu(ri->i_addr[ofs + i]);
		const char *flag = "";

		if (!addr)
			continue;
		if (addr == COMPRESS_ADDR)
			flag = "cluster flag";
		else if (addr == NEW_ADDR)
			flag = "reserved flag";
		fprintf(ctx->out.f, "i_addr[0x%x] %-16s\t\t[0x%8x : %u]\n", ofs + i, flag, addr,
			addr);
	}
}

/* ---- -i: xattr blocks -------------------------------------------------- */

#define ACL_HEADER_SIZE		4	/* a_version */
#define ACL_SHORT_SIZE		4	/* e_tag, e_perm */
#define ACL_FULL_SIZE		8	/* e_tag, e_perm, e_id */
#define F2FS_ACL_VERSION	1
#define ACL_USER_OBJ		0x01
#define ACL_USER		0x02
#define ACL_GROUP_OBJ		0x04
#define ACL_GROUP		0x08
#define ACL_MASK		0x10
#define ACL_OTHER		0x20

/* How many entries a value of size bytes holds, the way the kernel counts
 * them (up to four short entries, then full ones); -1 if it cannot. */
static int acl_count(int size)
{
	int s;

	size -= ACL_HEADER_SIZE;
	s = size - 4 * ACL_SHORT_SIZE;
	if (s < 0)
		return size % ACL_SHORT_SIZE ? -1 : size / ACL_SHORT_SIZE;
	return s % ACL_FULL_SIZE ? -1 : s / ACL_FULL_SIZE + 4;
}

static void print_acl(FILE *f, const uint8_t *v, int size)
{
	int count = size >= ACL_HEADER_SIZE ? acl_count(size) : -1;
	int i, at = ACL_HEADER_SIZE;

	if (size >= ACL_HEADER_SIZE && get_le32(v) != F2FS_ACL_VERSION) {
		fprintf(f, "Invalid ACL version [0x%x : 0x%x]\n", get_le32(v), F2FS_ACL_VERSION);
		return;
	}
	if (count <= 0) {
		fprintf(f, "Invalid ACL value size %d\n", size);
		return;
	}
	for (i = 0; i < count; i++) {
		unsigned int tag, perm;

		if (at + ACL_SHORT_SIZE > size) {
			fprintf(f, "Invalid ACL entries count %d\n", count);
			return;
		}
		tag = get_le16(v + at);
		perm = get_le16(v + at + 2);
		switch (tag) {
		case ACL_USER_OBJ: case ACL_GROUP_OBJ: case ACL_MASK: case ACL_OTHER:
			fprintf(f, "tag:0x%x perm:0x%x\n", tag, perm);
			at += ACL_SHORT_SIZE;
			break;
		case ACL_USER: case ACL_GROUP:
			if (at + ACL_FULL_SIZE > size) {
				fprintf(f, "Invalid ACL entries count %d\n", count);
				return;
			}
			fprintf(f, "tag:0x%x perm:0x%x %s:%u\n", tag, perm,
				tag == ACL_USER ? "uid" : "gid", get_le32(v + at + 4));
			at += ACL_FULL_SIZE;
			break;
		default:
			fprintf(f, "Unknown ACL tag 0x%x\n", tag);
			return;
		}
	}
}

#define FSCRYPT_CONTEXT_V1_SIZE	28	/* format, 2 modes, flags, descriptor[8], nonce[16] */

static void print_upper_hex(FILE *f, const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(f, "%02X", b[i]);
}

/* A version 1 fscrypt context, field by field; other versions as hex. */
static bool print_fscrypt_v1(FILE *f, const uint8_t *v, size_t size)
{
	if (size != FSCRYPT_CONTEXT_V1_SIZE || v[0] != 1)
		return false;
	fprintf(f, "format: %d\n", v[0]);
	fprintf(f, "contents_encryption_mode: 0x%x\n", v[1]);
	fprintf(f, "filenames_encryption_mode: 0x%x\n", v[2]);
	fprintf(f, "flags: 0x%x\n", v[3]);
	fputs("master_key_descriptor: ", f);
	print_upper_hex(f, v + 4, 8);
	fputs("\nnonce: ", f);
	print_upper_hex(f, v + 12, 16);
	fputc('\n', f);
	return true;
}

void dump_compat_xattr(struct dump_ctx *ctx, const struct dump_xattr *x)
{
	FILE *f = ctx->out.f;

	if (ctx->out.json)
		return;
	fprintf(f, "\nxattr: e_name_index:%d e_name:", x->index);
	fwrite(x->name, 1, x->name_len, f);
	fprintf(f, " e_name_len:%d e_value_size:%d e_value:\n", x->name_len, x->value_len);
	if (x->index == F2FS_XATTR_INDEX_POSIX_ACL_ACCESS ||
	    x->index == F2FS_XATTR_INDEX_POSIX_ACL_DEFAULT) {
		print_acl(f, x->value, x->value_len);
		return;
	}
	if (x->index == F2FS_XATTR_INDEX_ENCRYPTION && print_fscrypt_v1(f, x->value, x->value_len))
		return;
	print_upper_hex(f, x->value, x->value_len);
	fputc('\n', f);
}
