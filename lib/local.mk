# lib: the library shared by every tool.  Each part lists its own files in
# a fragment so parts can grow independently.
noinst_LIBRARIES += lib/libf2fs.a
lib_libf2fs_a_SOURCES =
include lib/io.mk
include lib/core.mk
include lib/model.mk
