# lib/core.mk: layout, superblock, checkpoint, mount.
lib_libf2fs_a_SOURCES +=
