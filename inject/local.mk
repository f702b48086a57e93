# inject/: inject.f2fs, the field-level corruption tool the fsck, dump and
# fuzz tests use to make corrupted images from clean ones.  It shares no
# source with fsck.f2fs: everything both need is in lib/.
sbin_PROGRAMS += inject/inject.f2fs
inject_inject_f2fs_SOURCES = inject/inject.h inject/inject_main.c inject/inject_field.c \
	inject/inject_io.c inject/inject_sb.c inject/inject_cp.c inject/inject_cp_extra.c \
	inject/inject_nat.c inject/inject_sit.c inject/inject_ssa.c inject/inject_node.c \
	inject/inject_dent.c inject/inject_blk.c
inject_inject_f2fs_LDADD = lib/libf2fs.a
