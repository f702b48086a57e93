# fsck/dump.mk: dump.f2fs
sbin_PROGRAMS += fsck/dump.f2fs
fsck_dump_f2fs_SOURCES = fsck/dump_main.c fsck/dump_json.c fsck/dump_super.c \
	fsck/dump_sit.c fsck/dump_sections.c fsck/dump_zones.c fsck/dump_ssa.c fsck/dump_nat.c \
	fsck/dump_natbits.c fsck/dump_node.c fsck/dump_fmap.c fsck/dump_xattr.c \
	fsck/dump_inode.c fsck/dump_extract.c fsck/dump_block.c fsck/dump_scan.c fsck/dump_compat.c \
	fsck/dump.h
fsck_dump_f2fs_LDADD = lib/libf2fs.a
