# lib/io.mk: errors, checksums, hash and the device layer.
lib_libf2fs_a_SOURCES +=
