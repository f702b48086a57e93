# lib/model.mk: SIT and NAT models.
lib_libf2fs_a_SOURCES += lib/sit.c lib/nat.c lib/alloc.c
noinst_HEADERS += include/f2fs_alloc.h
