# fsck/inject.mk: inject.f2fs, the field-level corruption tool the fsck
# tests use to make corrupted images from clean ones.
sbin_PROGRAMS += fsck/inject.f2fs
fsck_inject_f2fs_SOURCES = fsck/inject.h fsck/inject_main.c fsck/inject_field.c \
	fsck/inject_io.c fsck/inject_sb.c fsck/inject_cp.c fsck/inject_cp_extra.c \
	fsck/inject_nat.c fsck/inject_sit.c fsck/inject_ssa.c fsck/inject_node.c \
	fsck/inject_dent.c fsck/inject_blk.c
fsck_inject_f2fs_LDADD = lib/libf2fs.a
