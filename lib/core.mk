# lib/core.mk: layout, superblock, checkpoint, mount, the checkpoint commit,
# compression, and the small shared formats and helpers below.
lib_libf2fs_a_SOURCES += lib/super.c lib/checkpoint.c lib/mount.c lib/layout.c lib/features.c lib/commit.c lib/compress.c lib/lzo.c lib/compress_write.c
noinst_HEADERS += include/f2fs_super.h include/f2fs_ckpt.h include/f2fs_features.h include/f2fs_commit.h include/f2fs_compress.h include/f2fs_compressor.h
# The quota file format (mkfs writes it, fsck checks and rebuilds it).
lib_libf2fs_a_SOURCES += lib/quota.c
noinst_HEADERS += include/f2fs_quota.h
# The JSON writer of fsck and dump (to the caller's stream or a buffer).
lib_libf2fs_a_SOURCES += lib/json.c
noinst_HEADERS += include/f2fs_json.h
# Growable arrays (the growth every tool's lists share).
lib_libf2fs_a_SOURCES += lib/array.c
noinst_HEADERS += include/f2fs_array.h
# The worker threads of fsck's walk (a job's items computed ahead of use).
lib_libf2fs_a_SOURCES += lib/workers.c lib/warm.c
noinst_HEADERS += include/f2fs_workers.h include/f2fs_warm.h
