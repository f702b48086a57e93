# undo/: undo.f2fs, which puts a device back from the undo file a run of
# fsck.f2fs -y, mkfs.f2fs or inject.f2fs wrote with --undo (the file's
# format and the writer are in lib/undo.c).
sbin_PROGRAMS += undo/undo.f2fs
undo_undo_f2fs_SOURCES = undo/undo_main.c
undo_undo_f2fs_LDADD = lib/libf2fs.a
